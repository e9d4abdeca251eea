"""An exception inside the engine on one function is that function's OC901, and the
run goes on (rules/OC901.toml): the other functions and files are checked, the exit
status is 1, ``-v`` shows the traceback, and nothing of the failed run is cached."""
from __future__ import annotations

import json

import pytest
from checkutil import check_source, codes_lines, fail_on
from cliutil import TRACEBACK, _in_process, oc, write

from ordercheck import effects, errors, runner

pytestmark = pytest.mark.internal_errors  # (each test makes the engine fail on purpose)

TWO = '''\
def complete(self, run):
    self._ledger.append_terminal(run.id)
    self._store.save(run)


def finish(self, run):
    self._store.save(run)
    self._ledger.append_terminal(run.id)
'''

OTHER = '''\
def close(self, run):
    self._store.save(run)
    self._ledger.append_terminal(run.id)
'''


def fail_check(monkeypatch, name: str) -> None:
    fail_on(monkeypatch, name, ValueError, "injected\nfault in {name}")


def fail_summary(monkeypatch, name: str) -> None:
    fail_on(monkeypatch, name, KeyError, "{name}", target="summary_graph")


HELPED = '''\
def helper(self, run):
    self._store.save(run)


def finish(self, run):
    helper(self, run)
    self._ledger.append_terminal(run.id)
'''

SELECT = ["OC101", "OC102", "OC201"]


def test_a_failed_function_is_an_oc901_on_its_def_line_and_the_rest_is_checked(monkeypatch):
    assert codes_lines(check_source(TWO, select=SELECT)) == [("OC101", 8)]
    fail_check(monkeypatch, "complete")
    found = check_source(TWO, select=SELECT)
    assert codes_lines(found) == [("OC101", 8), ("OC901", 1)]
    oc901 = next(f for f in found if f.code == "OC901")
    # one line: the function, the exception's type and message
    assert oc901.message == "ordercheck failed on `complete` and did not check it: ValueError: injected fault in complete"
    assert oc901.span.col == 4  # (on the name, as the function's other findings' related places)


def test_a_function_with_a_finding_fails_too(monkeypatch):
    fail_check(monkeypatch, "finish")
    assert codes_lines(check_source(TWO, select=SELECT)) == [("OC901", 6)]


def test_a_method_fails_at_its_name(monkeypatch):
    src = "class Runner:\n" + "".join("    " + line if line.strip() else line for line in TWO.splitlines(True))
    fail_check(monkeypatch, "finish")
    found = check_source(src, select=SELECT)
    assert [(f.code, f.span.line, f.span.col) for f in found] == [("OC901", 7, 8)]
    assert "`Runner.finish`" in found[0].message


def test_a_failed_summary_falls_back_and_is_an_oc901(monkeypatch):
    src = HELPED
    assert codes_lines(check_source(src, select=SELECT)) == [("OC101", 7)]
    fail_summary(monkeypatch, "helper")
    # the helper's summary is the fallback's (its save on every way out): the caller's
    # OC101 stands; the helper itself is checked (its graph is another) and named
    found = check_source(src, select=SELECT)
    assert codes_lines(found) == [("OC101", 7), ("OC901", 1)]
    assert "KeyError: 'helper'" in next(f.message for f in found if f.code == "OC901")


def test_ctrl_c_is_not_an_internal_error(monkeypatch):
    fail_check(monkeypatch, "complete")
    monkeypatch.setattr(errors, "_interrupted", True)
    with pytest.raises(KeyboardInterrupt):
        check_source(TWO, select=SELECT)


def test_the_command_line_goes_on_and_exits_1(tmp_path, monkeypatch):
    write(tmp_path, "a.py", TWO)
    write(tmp_path, "b.py", OTHER)
    fail_check(monkeypatch, "complete")
    r = oc(tmp_path, "--no-cache", ".")
    assert r.code == 1, r
    assert r.codes() == [("a.py", 1, "OC901"), ("a.py", 8, "OC101"), ("b.py", 3, "OC101")]
    assert "internal error" not in r.err and "injected" not in r.err
    js = json.loads(oc(tmp_path, "--no-cache", "--format", "json", ".").out)
    assert js["summary"]["by_code"] == {"OC101": 2, "OC901": 1}


def test_on_whatever_the_selection_and_off_by_its_exact_code(tmp_path, monkeypatch):
    write(tmp_path, "a.py", TWO)
    fail_check(monkeypatch, "complete")
    assert oc(tmp_path, "--no-cache", "--select", "OC2", ".").codes() == [("a.py", 1, "OC901")]
    assert oc(tmp_path, "--no-cache", "--ignore", "OC9", ".").codes() == [("a.py", 1, "OC901"), ("a.py", 8, "OC101")]
    assert oc(tmp_path, "--no-cache", "--ignore", "OC901", ".").codes() == [("a.py", 8, "OC101")]


def test_a_noqa_on_the_def_line_accepts_it(tmp_path, monkeypatch):
    write(tmp_path, "a.py", TWO.replace("def complete(self, run):", "def complete(self, run):  # noqa: OC901"))
    fail_check(monkeypatch, "complete")
    assert oc(tmp_path, "--no-cache", ".").codes() == [("a.py", 8, "OC101")]


def test_verbose_shows_the_traceback(tmp_path, monkeypatch):
    write(tmp_path, "a.py", TWO)
    fail_check(monkeypatch, "complete")
    code, out, err = _in_process(tmp_path, ["--no-cache", "-v", "."], b"")
    assert code == 1
    err_text = err.decode()
    assert "internal error on a.py:complete" in err_text and TRACEBACK in err_text
    assert "ValueError: injected" in err_text
    # and the handler is gone after the run: a run without -v prints nothing
    code, out, err = _in_process(tmp_path, ["--no-cache", "."], b"")
    assert code == 1 and err.decode() == ""


def test_a_failed_run_is_not_remembered(tmp_path, monkeypatch):
    write(tmp_path, "a.py", TWO)
    with monkeypatch.context() as m:
        fail_check(m, "complete")
        assert ("a.py", 1, "OC901") in oc(tmp_path, ".").codes()
        assert ("a.py", 1, "OC901") in oc(tmp_path, ".").codes()  # (the same with the cache)
    # the engine fixed: the next run checks again rather than replaying the failure
    assert oc(tmp_path, ".").codes() == [("a.py", 8, "OC101")]


def test_a_failed_summary_is_not_remembered(tmp_path, monkeypatch):
    write(tmp_path, "a.py", '''\
    def helper(self, run):
        self._store.save(run)


    def finish(self, run):
        helper(self, run)
        self._ledger.append_terminal(run.id)
    ''')
    write(tmp_path, "b.py", OTHER)
    with monkeypatch.context() as m:
        fail_summary(m, "helper")
        assert ("a.py", 1, "OC901") in oc(tmp_path, ".").codes()
    built = []
    real = effects.summary_graph
    monkeypatch.setattr(effects, "summary_graph", lambda fn, *a, **k: built.append(fn.name) or real(fn, *a, **k))
    write(tmp_path, "b.py", OTHER + "\n")  # another run key: the summaries' memo answers what it holds
    assert oc(tmp_path, ".").codes() == [("a.py", 7, "OC101"), ("b.py", 3, "OC101")]
    assert "helper" in built  # its summary computed again, not the fallback's replayed
    built.clear()
    write(tmp_path, "b.py", OTHER + "\n\n")
    assert oc(tmp_path, ".").codes() == [("a.py", 7, "OC101"), ("b.py", 3, "OC101")]
    assert "helper" not in built  # (and now remembered)


# --------------------------------------------------------------------------- a review (session 34)


def test_a_failed_summary_is_reported_with_the_prepass_on_and_off(tmp_path, monkeypatch):
    """The helper's file holds no hot function (the pre-pass checks only main.py): its
    summary's failure is still its OC901, as with every file checked."""
    write(tmp_path, "helper.py", "def write_it(fh, data):\n    fh.write(data)\n")
    write(tmp_path, "main.py", '''\
    import os

    from helper import write_it


    def publish(tmp, path, data):
        with open(tmp, "w") as fh:
            write_it(fh, data)
        os.replace(tmp, path)
    ''')
    fail_summary(monkeypatch, "write_it")
    want = [("helper.py", 1, "OC901"), ("main.py", 9, "OC301")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    monkeypatch.setattr(runner, "PREPASS", False)
    assert oc(tmp_path, "--no-cache", ".").codes() == want


def test_a_failed_summary_says_what_was_lost(monkeypatch):
    src = HELPED
    fail_summary(monkeypatch, "helper")
    [f] = [f for f in check_source(src, select=SELECT) if f.code == "OC901"]
    assert f.message.startswith("ordercheck failed on `helper` and read its calls as made on every way out of it")


def test_an_exit_whose_catch_reading_fails_is_an_oc901(tmp_path, monkeypatch):
    from ordercheck import managers

    def failing(*args, **kwargs):
        raise RuntimeError("injected")

    monkeypatch.setattr(managers, "exit_catches", failing)
    write(tmp_path, "a.py", '''\
    class Uow:
        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.store.save(1)


    def other(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id)
    ''')
    r = oc(tmp_path, "--no-cache", ".")
    assert r.code == 1 and r.codes() == [("a.py", 5, "OC901"), ("a.py", 11, "OC101")], r


def test_verbose_shows_a_failed_summarys_traceback(tmp_path, monkeypatch):
    write(tmp_path, "a.py", "def helper(self, run):\n    self._store.save(run)\n")
    fail_summary(monkeypatch, "helper")
    code, out, err = _in_process(tmp_path, ["--no-cache", "-v", "."], b"")
    assert code == 1 and "internal error on the summary of a.py::helper" in err.decode() and TRACEBACK in err.decode()


def test_the_fingerprint_is_the_functions_not_the_errors(monkeypatch):
    """An exception's text may name an address (`<object at 0x7f...>`): a baseline
    must still match the next run's OC901."""
    fps = set()
    for text in ("at 0x7f0001", "at 0x7f0002"):
        with pytest.MonkeyPatch.context() as m:
            fail_on(m, "complete", ValueError, text)
            [f] = [f for f in check_source(TWO, select=SELECT) if f.code == "OC901"]
        assert f.function == "complete" and f.anchor_text == "def complete(self, run):"
        fps.add((f.fingerprint, f.stable_fingerprint("a.py")))
    assert len(fps) == 1


def test_a_noqa_on_any_line_of_a_long_header(tmp_path, monkeypatch):
    write(tmp_path, "a.py", '''\
    class Runtime:
        async def complete(
            self, run,
        ):  # noqa: OC901
            self._ledger.append_terminal(run.id)
            self._store.save(run)
    ''')
    fail_check(monkeypatch, "complete")
    r = oc(tmp_path, "--no-cache", "--extend-select", "OC001", ".")
    assert r.code == 0 and r.codes() == [], r


def test_the_module_bodys_oc901_takes_a_noqa_anywhere_in_the_file(tmp_path, monkeypatch):
    write(tmp_path, "a.py", '''\
    """A module
    whose docstring spans lines."""
    store.save(1)  # noqa: OC901
    ''')
    fail_check(monkeypatch, "<module>")
    assert oc(tmp_path, "--no-cache", "--extend-select", "OC001", ".").codes() == []
    write(tmp_path, "a.py", '"""A module\nwhose docstring spans lines."""\nstore.save(1)\n')
    assert oc(tmp_path, "--no-cache", ".").codes() == [("a.py", 1, "OC901")]


def test_no_nothing_matched_note_when_the_function_with_events_failed(tmp_path, monkeypatch):
    write(tmp_path, "a.py", TWO.split("\n\n\n")[0] + "\n")
    fail_check(monkeypatch, "complete")
    r = oc(tmp_path, "--no-cache", ".")
    assert r.codes() == [("a.py", 1, "OC901")] and "note" not in r.err, r


# --------------------------------------------------------------------------- reading and resolving (session 35)


def fail_reading(monkeypatch, message: str = "injected") -> None:
    """The front end's walk of a file raises (a bug of ours, not libcst's)."""
    from ordercheck.frontend import statements

    def failing(self, *args, **kwargs):
        raise KeyError(message)

    monkeypatch.setattr(statements.Extractor, "module", failing)
    monkeypatch.setattr(statements.Extractor, "units", failing)


def test_a_file_the_engine_fails_to_read_is_its_oc901_not_a_libcst_failure(tmp_path, monkeypatch):
    write(tmp_path, "a.py", TWO)
    write(tmp_path, "b.py", OTHER)
    fail_reading(monkeypatch)
    r = oc(tmp_path, "--no-cache", ".")
    assert r.code == 1, r
    # before: "OC900 file could not be parsed: libcst cannot analyse this file although CPython can"
    assert r.codes() == [("a.py", 1, "OC901"), ("b.py", 1, "OC901")], r
    assert "ordercheck failed on `a.py` and did not read it: KeyError: 'injected'" in r.out
    assert "libcst" not in r.out and "OC900" not in r.out
    assert "note" not in r.err  # (no claim that the files hold no event)
    assert oc(tmp_path, "--no-cache", "--ignore", "OC901", ".").codes() == []


def test_a_file_the_engine_fails_to_read_takes_a_noqa_and_shows_its_traceback(tmp_path, monkeypatch):
    write(tmp_path, "a.py", TWO.replace("self._store.save(run)\n", "self._store.save(run)  # noqa: OC901\n", 1))
    write(tmp_path, "b.py", OTHER)
    fail_reading(monkeypatch)
    assert oc(tmp_path, "--no-cache", ".").codes() == [("b.py", 1, "OC901")]
    code, out, err = _in_process(tmp_path, ["--no-cache", "-v", "b.py"], b"")
    assert code == 1 and "internal error reading b.py" in err.decode() and TRACEBACK in err.decode()


def test_a_file_the_engine_failed_to_read_is_read_again_next_time(tmp_path, monkeypatch):
    write(tmp_path, "a.py", TWO)
    with monkeypatch.context() as m:
        fail_reading(m)
        assert oc(tmp_path, ".").codes() == [("a.py", 1, "OC901")]
        assert oc(tmp_path, ".").codes() == [("a.py", 1, "OC901")]
    write(tmp_path, "b.py", OTHER)  # (another run key: the file's facts come from the cache or a read)
    assert oc(tmp_path, ".").codes() == [("a.py", 8, "OC101"), ("b.py", 3, "OC101")]


def test_libcsts_own_failure_stays_an_oc900(tmp_path, monkeypatch):
    """An exception raised inside libcst (here its node validation) is still the
    parser's: OC900, as before."""
    import libcst as cst

    from ordercheck.frontend import statements

    def failing(self, *args, **kwargs):
        cst.Name("1 not a name")  # raises inside libcst

    monkeypatch.setattr(statements.Extractor, "module", failing)
    monkeypatch.setattr(statements.Extractor, "units", failing)
    write(tmp_path, "a.py", TWO)
    r = oc(tmp_path, "--no-cache", ".")
    assert r.codes() == [("a.py", 1, "OC900")] and "libcst cannot analyse this file" in r.out, r


def test_an_outline_that_fails_reads_the_file_whole(tmp_path, monkeypatch, caplog):
    import importlib

    outline = importlib.import_module("ordercheck.frontend.outline")
    write(tmp_path, "a.py", TWO)
    write(tmp_path, "b.py", OTHER)
    want = oc(tmp_path, "--no-cache", ".").codes()
    assert want == [("a.py", 8, "OC101"), ("b.py", 3, "OC101")]

    def failing(self, *args, **kwargs):
        raise ValueError("injected")

    monkeypatch.setattr(outline.Outliner, "module", failing)
    with caplog.at_level("DEBUG", logger="ordercheck"):
        assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert any("internal error outlining" in rec.getMessage() for rec in caplog.records)


def fail_resolving(monkeypatch, name: str) -> None:
    from ordercheck import summaries

    real = summaries.ProjectIndex.callee_key

    def failing(self, facts, fn, call):
        if fn.name == name:
            raise AttributeError("injected")
        return real(self, facts, fn, call)

    monkeypatch.setattr(summaries.ProjectIndex, "callee_key", failing)


def test_a_function_whose_calls_fail_to_resolve_is_an_oc901_and_the_rest_resolve(tmp_path, monkeypatch):
    write(tmp_path, "a.py", HELPED)
    write(tmp_path, "b.py", HELPED.replace("def finish(", "def other(").replace("\nhelper", "\nhelper"))
    assert oc(tmp_path, "--no-cache", ".").codes() == [("a.py", 7, "OC101"), ("b.py", 7, "OC101")]
    fail_resolving(monkeypatch, "finish")
    r = oc(tmp_path, "--no-cache", ".")
    # `finish`'s call of `helper` is matched by its text only (no save): its OC101 is
    # lost and said so; `other` still resolves `helper`
    assert r.code == 1 and r.codes() == [("a.py", 5, "OC901"), ("b.py", 7, "OC101")], r
    assert ("ordercheck failed on `finish` and matched its calls by their text only "
            "(none resolved to a project function): AttributeError: injected") in r.out
    monkeypatch.setattr(runner, "PREPASS", False)
    assert oc(tmp_path, "--no-cache", ".").codes() == [("a.py", 5, "OC901"), ("b.py", 7, "OC101")]


def test_a_file_whose_typed_names_fail_is_an_oc901_on_each_function(tmp_path, monkeypatch):
    from ordercheck import summaries

    def failing(self, facts):
        if facts.path == "a.py":
            raise TypeError("injected")

    monkeypatch.setattr(summaries.ProjectIndex, "with_typed_names", failing)
    write(tmp_path, "a.py", HELPED)
    write(tmp_path, "b.py", OTHER)
    r = oc(tmp_path, "--no-cache", ".")
    assert ("a.py", 1, "OC901") in r.codes() and ("a.py", 5, "OC901") in r.codes(), r
    assert ("b.py", 3, "OC101") in r.codes(), r


def test_a_failed_resolution_is_not_remembered(tmp_path, monkeypatch):
    write(tmp_path, "a.py", HELPED)
    with monkeypatch.context() as m:
        fail_resolving(m, "finish")
        assert oc(tmp_path, ".").codes() == [("a.py", 5, "OC901")]
        assert oc(tmp_path, ".").codes() == [("a.py", 5, "OC901")]
    assert oc(tmp_path, ".").codes() == [("a.py", 7, "OC101")]


def test_a_noqa_on_a_middle_line_of_the_header_or_file_accepts_it(tmp_path, monkeypatch):
    """"Any line of the `def` header" (rules/OC901.toml): the middle ones too, not only
    the first and last a statement's suppression reads."""
    write(tmp_path, "a.py", '''\
    class Runtime:
        async def complete(
            self,  # noqa: OC901
            run,
        ):
            self._ledger.append_terminal(run.id)
            self._store.save(run)
    ''')
    fail_check(monkeypatch, "complete")
    r = oc(tmp_path, "--no-cache", "--extend-select", "OC001", ".")
    assert r.code == 0 and r.codes() == [], r
    write(tmp_path, "a.py", '"""A module."""\nstore.save(1)  # noqa: OC901\nstore.save(2)\n')
    fail_check(monkeypatch, "<module>")
    assert oc(tmp_path, "--no-cache", "--extend-select", "OC001", ".").codes() == []
    # and a noqa below the header is no suppression of it
    write(tmp_path, "a.py", "def complete(self, run):\n    self._store.save(run)  # noqa: OC901\n")
    fail_check(monkeypatch, "complete")
    assert oc(tmp_path, "--no-cache", ".").codes() == [("a.py", 1, "OC901")]


def test_the_prepass_reports_a_failed_resolution_and_remembers_no_call_graph(tmp_path, monkeypatch):
    """(Session 35's review.) `finish` makes no event of its own: only its helpers'
    summaries make its OC101, so the outline pre-pass, which resolved nothing for it,
    found it cold and dropped the failure (exit 0, "All checks passed"), and its call
    graph memo kept the empty rows for the next, clean, runs."""
    write(tmp_path, "helpers.py", "def save_it(self, run):\n    self._store.save(run)\n\n\n"
                                  "def close_it(self, run):\n    self._ledger.append_terminal(run.id)\n")
    write(tmp_path, "d.py", "from helpers import close_it, save_it\n\n\n"
                            "def finish(self, run):\n    save_it(self, run)\n    close_it(self, run)\n")
    assert oc(tmp_path, "--no-cache", ".").codes() == [("d.py", 6, "OC101")]
    with monkeypatch.context() as m:
        fail_resolving(m, "finish")
        r = oc(tmp_path, ".")
        assert r.code == 1 and r.codes() == [("d.py", 4, "OC901")], r
    assert oc(tmp_path, ".").codes() == [("d.py", 6, "OC101")]


def test_a_file_that_fails_early_still_takes_its_noqa_and_a_bare_noqa_elsewhere_is_not_it(tmp_path, monkeypatch):
    """(Session 35's review.) A failure before the file's suppressions were read (its
    import tables) kept none; and a flake8 `import *  # noqa` on another line of the
    file hid the file's OC901 ("any line" is for a comment that names the code)."""
    from ordercheck.frontend import statements

    def failing(*args, **kwargs):
        raise KeyError("tables")

    monkeypatch.setattr(statements.Extractor, "__init__", failing)
    write(tmp_path, "a.py", "import sys\nfrom os import *  # noqa\n\n\n" + TWO)
    assert oc(tmp_path, "--no-cache", "a.py").codes() == [("a.py", 1, "OC901")]
    write(tmp_path, "a.py", "import os\n\n\n" + TWO.replace("self._store.save(run)\n",
                                                           "self._store.save(run)  # noqa: OC901\n", 1))
    r = oc(tmp_path, "--no-cache", "--extend-select", "OC001", "a.py")
    assert r.codes() == [] and r.code == 0, r


def test_the_editors_memo_keeps_no_file_the_engine_failed_to_read(tmp_path, monkeypatch):
    """(Session 35's review.) The language server remembers each file's facts by size
    and mtime between checks: a file whose reading failed must be read again."""
    from checkutil import settings_for

    write(tmp_path, "helper.py", "def close_it(self, run):\n    self._ledger.append_terminal(run.id)\n")
    text = "from helper import close_it\n\n\ndef finish(self, run):\n    self._store.save(run)\n    close_it(self, run)\n"
    settings = settings_for(select=SELECT)
    memo: dict = {}
    from ordercheck.frontend import statements

    real = statements.Extractor.module

    def failing(self, *args, **kwargs):
        if "helper" in self.facts.path:
            raise KeyError("injected")
        return real(self, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(statements.Extractor, "module", failing)
        m.setattr(statements.Extractor, "units", failing)
        runner.run_buffers([tmp_path], settings, {str(tmp_path / "main.py"): text.encode()}, memo=memo)
    got = runner.run_buffers([tmp_path], settings, {str(tmp_path / "main.py"): text.encode()}, memo=memo)
    assert [(f.code, f.span.line) for f in got.findings] == [("OC101", 6)]


def test_running_out_of_memory_reading_a_file_is_no_bug_report(tmp_path, monkeypatch):
    """A `MemoryError` is the machine's limit, not a bug of ours: the file's OC900, as
    before, not an OC901 asking for a report."""
    from ordercheck.frontend import statements

    def failing(self, *args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(statements.Extractor, "module", failing)
    monkeypatch.setattr(statements.Extractor, "units", failing)
    write(tmp_path, "a.py", TWO)
    assert oc(tmp_path, "--no-cache", "a.py").codes() == [("a.py", 1, "OC900")]
