"""A name the calling function binds itself (a parameter, an assignment, an import in
the function) is never looked up in the module, as in Python: the module's own
``def`` or ``class`` of that name is not what the call runs (``Call.local_head``;
docs/decisions.md "A function's own name hides the module's"). Found on metaflow
2.19.39, where ``SpinRuntime.__init__`` does ``from metaflow import Task`` (the
read-only client) in a module whose own ``Task`` saves."""
from __future__ import annotations

import pytest
from checkutil import SEQ, run_tree, write_tree

from ordercheck import frontend

SAVING_FINISH = """

    def finish(run):
        run.store.save_run(run)
    """


def _runtime(step: str) -> dict:
    return {
        "pkg/__init__.py": "",
        "pkg/client.py": """\
            class Task:
                def __init__(self, pathspec):
                    self.pathspec = pathspec


            def finish(run):
                return run
            """,
        "pkg/runtime.py": step,
    }


FUNCTION_IMPORT_OF_A_CLASS = """\
    class Runtime:
        def __init__(self, pathspec, ledger):
            from pkg.client import Task

            task = Task(pathspec)
            ledger.append_record(task.pathspec)


    class Task:
        def __init__(self, store, run):
            store.save_run(run)
    """

FUNCTION_IMPORT_OF_A_FUNCTION = """\
    def step(run, ledger):
        from pkg.client import finish
        finish(run)
        ledger.append_record(run)
    """ + SAVING_FINISH

PARAMETER = """\
    def step(run, ledger, finish):
        finish(run)
        ledger.append_record(run)
    """ + SAVING_FINISH

ASSIGNED = """\
    def step(run, ledger, finishers):
        finish = finishers[run.kind]
        finish(run)
        ledger.append_record(run)
    """ + SAVING_FINISH

CLOSURE = """\
    def outer(run, ledger, finish):
        def inner():
            finish(run)
            ledger.append_record(run)
        return inner
    """ + SAVING_FINISH

LOOP_TARGET = """\
    def step(run, ledger, hooks):
        for finish in hooks:
            finish(run)
        ledger.append_record(run)
    """ + SAVING_FINISH


@pytest.mark.parametrize("step", [FUNCTION_IMPORT_OF_A_CLASS, FUNCTION_IMPORT_OF_A_FUNCTION, PARAMETER, ASSIGNED,
                                  CLOSURE, LOOP_TARGET],
                         ids=["import-class", "import-function", "parameter", "assigned", "closure", "loop-target"])
def test_a_name_the_function_binds_is_not_the_modules(tmp_path, step):
    write_tree(tmp_path, _runtime(step))
    assert run_tree(tmp_path, select=SEQ) == []


NOT_HIDDEN = """\
    def step(run, ledger):
        finish(run)
        ledger.append_record(run)
    """ + SAVING_FINISH

GLOBAL = """\
    def step(run, ledger):
        global finish
        finish(run)
        ledger.append_record(run)
    """ + SAVING_FINISH

OTHER_FUNCTIONS_PARAMETER = """\
    def helper(finish):
        return finish


    def step(run, ledger):
        finish(run)
        ledger.append_record(run)
    """ + SAVING_FINISH

CLASS_BODY_NAME = """\
    class Runtime:
        finish = None

        def step(self, run, ledger):
            finish(run)
            ledger.append_record(run)
    """ + SAVING_FINISH


@pytest.mark.parametrize("step", [NOT_HIDDEN, GLOBAL, OTHER_FUNCTIONS_PARAMETER, CLASS_BODY_NAME],
                         ids=["module-name", "global", "another-functions-parameter", "class-body-name"])
def test_the_modules_name_is_still_found_where_python_finds_it(tmp_path, step):
    """A ``global`` declaration, another function's parameter and a class body's name
    (which a method never sees) leave the module's ``finish``: its save is found."""
    write_tree(tmp_path, _runtime(step))
    (line,) = [i for i, text in enumerate(step.splitlines(), 1) if "ledger.append_record" in text]
    assert run_tree(tmp_path, select=SEQ) == [("pkg/runtime.py", line, "OC102")]


def test_a_parameter_hides_a_module_import_of_a_project_function(tmp_path):
    """``from .ops import finish`` at the top, and a parameter ``finish``: the call is
    the parameter's (no qualified name from the module's import)."""
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/ops.py": SAVING_FINISH,
        "pkg/runtime.py": """\
            from .ops import finish


            def step(run, ledger, finish=None):
                finish(run)
                ledger.append_record(run)


            def other(run, ledger):
                finish(run)
                ledger.append_record(run)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("pkg/runtime.py", 11, "OC102")]


@pytest.mark.parametrize("source", [FUNCTION_IMPORT_OF_A_CLASS, FUNCTION_IMPORT_OF_A_FUNCTION, PARAMETER, ASSIGNED,
                                    CLOSURE, LOOP_TARGET, NOT_HIDDEN, GLOBAL, CLASS_BODY_NAME])
def test_both_front_ends_mark_the_same_calls(source):
    import textwrap

    data = textwrap.dedent(source).encode()
    whole = frontend.extract("pkg/runtime.py", data, "pkg.runtime")
    outline = frontend.outline("pkg/runtime.py", data, "pkg.runtime")
    marks = {(fn.qualname, c.callee, c.local_head) for fn in whole.functions for c in fn.calls}
    assert marks == {(fn.qualname, c.callee, c.local_head) for fn in outline.functions for c in fn.calls}
    assert any(local for _, callee, local in marks if callee in ("finish", "Task")) == (
        source not in (NOT_HIDDEN, GLOBAL, CLASS_BODY_NAME))
