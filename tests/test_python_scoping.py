"""Which definition a call runs, as Python scopes names (semantics §Events, Resolution;
docs/decisions.md "A function's own name hides the module's", "A definition after an
import"). Found by a probe of session 23 written from the contract alone: 126
projects, 22 disagreements from seven faults, each case below one of them."""
from __future__ import annotations

import textwrap

import pytest
from checkutil import SEQ, run_tree, write_tree

from ordercheck import frontend

SAVES = """\
    def persist(run, store):
        store.save_run(run)
    """


def _check(tmp_path, files, expected):
    write_tree(tmp_path, {"app/__init__.py": "", **files})
    assert run_tree(tmp_path, select=SEQ) == expected


COMPREHENSIONS = {
    "list": "done = [persist(run, store) for persist in savers]",
    "generator": "done = list(persist(run, store) for persist in savers)",
    "set": "done = {persist(run, store) for persist in savers}",
    "dict": "done = {k: persist(run, store) for k, persist in savers.items()}",
    "nested-target": "done = [persist(run, store) for (_, persist) in savers]",
    "inner-for": "done = [persist(run, store) for group in savers for persist in group]",
}


@pytest.mark.parametrize("expr", COMPREHENSIONS.values(), ids=COMPREHENSIONS.keys())
def test_a_comprehension_target_hides_the_modules_function(tmp_path, expr):
    _check(tmp_path, {"app/runner.py": SAVES + f"""

    def fan_out(run, store, ledger, savers):
        {expr}
        ledger.append_record(run.id)
        return done
    """}, [])


def test_a_comprehensions_first_iterable_is_outside_its_scope(tmp_path):
    """``persist(...)`` in the first iterable runs before the comprehension binds
    ``persist``: it is the module's function."""
    _check(tmp_path, {"app/runner.py": SAVES + """

    def fan_out(run, store, ledger):
        done = [persist for persist in persist(run, store) or ()]
        ledger.append_record(run.id)
        return done
    """}, [("app/runner.py", 7, "OC102")])


def test_a_comprehension_target_hides_a_typed_module_receiver(tmp_path):
    """``store`` is a module-level ``RunStore``; the comprehension's ``store`` is another."""
    write_tree(tmp_path, {"app/__init__.py": "", "app/runner.py": """\
        class RunStore:
            def save(self, run):
                self.db.write(run)


        store: RunStore = RunStore()


        def replicate(run, replicas, ledger):
            done = [store.save(run) for store in replicas]
            ledger.append_record(run.id)
            return done
        """})
    assert run_tree(tmp_path, select=SEQ, table={"events": {"save": ["*.RunStore.save"]}}) == []
    # (the module's typed ``store`` itself matches: the class pattern is what decides)
    (tmp_path / "app/runner.py").write_text((tmp_path / "app/runner.py").read_text().replace(
        "[store.save(run) for store in replicas]", "[store.save(run) for _ in replicas]"))
    assert run_tree(tmp_path, select=SEQ, table={"events": {"save": ["*.RunStore.save"]}}) == [
        ("app/runner.py", 11, "OC102")]


@pytest.mark.parametrize("binding", [
    "def replay(run, save):",
    "def replay(run, saves):\n            for save in saves:\n                pass",
    "def replay(run, make):\n            save = make()",
    "def replay(run):\n            from app.noop import save",
])
def test_a_nested_functions_own_name_hides_an_enclosing_nested_def(tmp_path, binding):
    _check(tmp_path, {"app/noop.py": "def save(run):\n    return run\n", "app/pipeline.py": f"""\
    def build(store, ledger):
        def save(run):
            store.save_run(run)

        {binding}
            save(run)
            ledger.append_record(run.id)

        return save, replay
    """}, [])


def test_an_enclosing_nested_def_is_still_found(tmp_path):
    _check(tmp_path, {"app/pipeline.py": """\
    def build(store, ledger):
        def save(run):
            store.save_run(run)

        def replay(run):
            save(run)
            ledger.append_record(run.id)

        return save, replay
    """}, [("app/pipeline.py", 7, "OC102")])


def test_global_in_a_nested_function_is_the_modules_name(tmp_path):
    _check(tmp_path, {"app/runner.py": SAVES + """

    def make_stepper(ledger, persist=None):
        def step(run, store):
            global persist
            persist(run, store)
            ledger.append_record(run.id)
        return step
    """}, [("app/runner.py", 9, "OC102")])


@pytest.mark.parametrize("ops,expected", [
    # the import normally runs; the fallback only when it fails
    ("""\
    try:
        from ._speedups import persist
    except ImportError:
        def persist(run, store):
            store.enqueue(run)
    """, [("app/ops.py", 9, "OC102")]),
    # a definition and then an import of the name: the import rebinds it
    ("""\
    def persist(run, store):
        store.enqueue(run)


    from ._speedups import persist
    """, [("app/ops.py", 9, "OC102")]),
    # an import and then a definition: the definition rebinds it (session 22)
    ("""\
    from ._speedups import persist


    def persist(run, store):
        store.enqueue(run)
    """, []),
])
def test_an_import_and_a_definition_of_one_name(tmp_path, ops, expected):
    text = textwrap.dedent(ops) + "\n\ndef step(run, store, ledger):\n    persist(run, store)\n    ledger.append_record(run.id)\n"
    step_line = text.splitlines().index("def step(run, store, ledger):") + 3
    _check(tmp_path, {"app/_speedups.py": SAVES, "app/ops.py": text},
           [(p, step_line, c) for p, _, c in expected])


@pytest.mark.parametrize("fast,expected", [("return run", []), ("store.save_run(run)", [("app/ops.py", 9, "OC102")])])
def test_a_try_import_wins_over_its_except_import(tmp_path, fast, expected):
    _check(tmp_path, {
        "app/_fast.py": f"def persist(run, store):\n    {fast}\n",
        "app/_slow.py": SAVES,
        "app/ops.py": """\
    try:
        from ._fast import persist
    except ImportError:
        from ._slow import persist


    def step(run, store, ledger):
        persist(run, store)
        ledger.append_record(run.id)
    """}, expected)


def test_a_functions_plain_dotted_import_resolves(tmp_path):
    _check(tmp_path, {
        "app/storage/__init__.py": "",
        "app/storage/ops.py": SAVES,
        "app/runner.py": """\
    def step(run, store, ledger):
        import app.storage.ops
        app.storage.ops.persist(run, store)
        ledger.append_record(run.id)
    """}, [("app/runner.py", 4, "OC102")])


@pytest.mark.parametrize("call", ["super().finish(run)", "self.save(run)"])
def test_a_subclass_named_as_its_imported_base(tmp_path, call):
    """``class Runner(Runner)`` reads its base before the class statement binds the
    name: the imported ``Runner``."""
    _check(tmp_path, {
        "app/base.py": """\
    class Runner:
        def __init__(self, store, ledger):
            self.store = store
            self.ledger = ledger

        def finish(self, run):
            self.store.save_run(run)

        def save(self, run):
            self.store.save_run(run)
    """,
        "app/runner.py": f"""\
    from .base import Runner


    class Runner(Runner):
        def finish(self, run):
            {call}
            self.ledger.append_record(run.id)
    """}, [("app/runner.py", 7, "OC102")])


def test_a_class_body_import_is_not_seen_by_its_methods(tmp_path):
    _check(tmp_path, {
        "app/dry.py": "def persist(run, store):\n    return None\n",
        "app/ops.py": SAVES,
        "app/runner.py": """\
    from .ops import persist


    class Runner:
        from .dry import persist  # Runner.persist

        def __init__(self, store, ledger):
            self.store = store
            self.ledger = ledger

        def step(self, run):
            persist(run, self.store)
            self.ledger.append_record(run.id)
    """}, [("app/runner.py", 13, "OC102")])


@pytest.mark.parametrize("source", [
    SAVES + "\n\ndef f(run, store, ledger, savers):\n    return [persist(run, store) for persist in savers]\n",
    "def build(store):\n    def save(run):\n        store.save_run(run)\n    def replay(run, save):\n        save(run)\n",
    "def make(persist=None):\n    def step(run):\n        global persist\n        persist(run)\n    return step\n",
])
def test_both_front_ends_mark_the_same_calls(source):
    data = textwrap.dedent(source).encode()
    whole = frontend.extract("app/runner.py", data, "app.runner")
    outline = frontend.outline("app/runner.py", data, "app.runner")
    marks = {(fn.qualname, c.callee, c.local_head, c.qualnames) for fn in whole.functions for c in fn.calls}
    assert marks == {(fn.qualname, c.callee, c.local_head, c.qualnames) for fn in outline.functions for c in fn.calls}
