"""Baselines (semantics §Surfaces --write-baseline / --baseline): record today's findings, hide
exactly those later — by a fingerprint that survives edits elsewhere (never a line
number) — report new ones and identical ones beyond the recorded count, list stale
entries with -v, and refuse a missing or malformed file (exit 2, naming it)."""
import json

import pytest
from cliutil import oc, write

OLD = '''\
class Runtime:
    def complete(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id)

    def fail(self, run):
        self._store.save(run)
        self._ledger.append(run.id, "run_failed")

    def note(self, run):
        try:
            self._ledger.append(run.id, "noted")
        except Exception:
            pass
'''


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    write(tmp_path, "src/run.py", OLD)
    return tmp_path


def _codes(run):
    return run.codes()


def test_write_then_read_hides_everything_and_the_file_is_stable(project):
    before = oc(project, "--no-cache", "src")
    assert len(before.findings()) == 3 and before.code == 1
    w = oc(project, "--no-cache", "src", "--write-baseline", "base.json")
    assert w.code == 0, w
    assert "recorded 3 findings in base.json" in w.err
    assert "All checks passed" not in w.out  # (the sweep, session 35: it said so beside "recorded 3")
    data = (project / "base.json").read_bytes()
    doc = json.loads(data)
    assert doc["tool"] == "ordercheck" and doc["version"] == 1
    entries = doc["findings"]
    assert sorted(e["rule"] for e in entries) == ["OC101", "OC101", "OC202"]
    assert all(e["path"] == "src/run.py" for e in entries)  # relative to the project root
    assert all("line" not in e for e in entries)
    assert {e["function"] for e in entries} == {"Runtime.complete", "Runtime.fail", "Runtime.note"}
    # stable: recording again gives the same bytes
    oc(project, "--no-cache", "src", "--write-baseline", "base.json")
    assert (project / "base.json").read_bytes() == data
    # no temporary file left behind by the atomic write
    assert sorted(p.name for p in project.iterdir()) == ["base.json", "pyproject.toml", "src"]
    after = oc(project, "--no-cache", "src", "--baseline", "base.json")
    assert after.code == 0, after
    assert after.findings() == []
    assert "All checks passed" in after.out


def test_a_file_name_that_is_no_utf8_is_recorded_and_hidden(project):
    """(A surfaces probe.) Writing the baseline failed on a file named with a byte
    that is no UTF-8 (an internal error, exit 2, no baseline)."""
    import os

    name = os.fsdecode(b"src/x\xff.py")
    write(project, name, OLD)
    before = oc(project, "--no-cache", "src")
    assert len(before.findings()) == 6 and before.code == 1, before
    w = oc(project, "--no-cache", "src", "--write-baseline", "base.json")
    assert w.code == 0, w
    json.loads((project / "base.json").read_bytes().decode("utf-8"))  # (valid UTF-8 JSON)
    after = oc(project, "--no-cache", "src", "--baseline", "base.json")
    assert after.code == 0 and after.findings() == [], after


def test_unrelated_edits_keep_old_findings_hidden_and_new_ones_reported(project):
    oc(project, "--no-cache", "src", "--write-baseline", "base.json")
    edited = (
        "import os\n\n\n# a new header comment\nX = 1\n\n"  # lines inserted above
        + OLD.replace("def note(self, run):", "def note_renamed(self, run):")  # rename a function
        .replace("        self._ledger.append_terminal(run.id)", "        self._ledger.append_terminal(  run.id )")
        + '''
    def cancel(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id, Status.CANCELLED)
'''
    )
    (project / "src/run.py").write_text(edited)
    run = oc(project, "--no-cache", "src", "--baseline", "base.json", "-v")
    got = run.codes()
    # the renamed function's finding is a new one (its qualname changed); the new
    # cancel() is new; complete() (moved down, whitespace inside the call changed)
    # and fail() (moved) stay hidden
    lines = edited.splitlines()
    cancel_line = next(i for i, t in enumerate(lines, 1) if "Status.CANCELLED" in t)
    note_line = next(i for i, t in enumerate(lines, 1) if '"noted"' in t)
    assert got == sorted([("src/run.py", note_line, "OC202"), ("src/run.py", cancel_line, "OC101")]), run
    # the entry recorded for note() is stale now: listed with -v on stderr
    assert "stale baseline entry" in run.err and "Runtime.note" in run.err
    assert run.code == 1


def test_a_partial_run_calls_no_entry_of_an_unchecked_file_stale(project):
    """A pre-commit hook or an editor checks a few files against the whole baseline: the
    entries of the files it did not check are not known to be gone (a new user's
    walkthrough, session 44: re-recording on that advice lost real entries)."""
    (project / "src/other.py").write_text("def other():\n    return 1\n")
    oc(project, "--no-cache", "src", "--write-baseline", "base.json")
    run = oc(project, "--no-cache", "-v", "--baseline", "base.json", "src/other.py")
    assert run.code == 0 and "stale" not in run.err, run
    (project / "src/run.py").write_text("X = 1\n")
    run = oc(project, "--no-cache", "-v", "--baseline", "base.json", "src/run.py", "src/other.py")
    assert run.err.count("stale baseline entry") == 3, run
    # an entry whose path the system cannot look up (too long) is not known to be gone
    base = json.loads((project / "base.json").read_text())
    base["findings"][0]["path"] = "src/" + "x" * 300 + ".py"
    (project / "odd.json").write_text(json.dumps(base))
    run = oc(project, "--no-cache", "-v", "--baseline", "odd.json", "src/other.py")
    assert run.code in (0, 1) and "Traceback" not in run.err and "x" * 300 not in run.err, run
    # a file deleted (or renamed) is gone whatever the run checks (a review)
    (project / "src/run.py").unlink()
    for args in (["src"], ["src/other.py"]):
        run = oc(project, "--no-cache", "-v", "--baseline", "base.json", *args)
        assert run.err.count("stale baseline entry") == 3, (args, run)


def test_stale_entries_are_silent_without_verbose(project):
    oc(project, "--no-cache", "src", "--write-baseline", "base.json")
    (project / "src/run.py").write_text("X = 1\n")
    run = oc(project, "--no-cache", "src", "--baseline", "base.json")
    assert run.code == 0 and "stale" not in run.err
    run = oc(project, "--no-cache", "src", "--baseline", "base.json", "-v")
    assert run.err.count("stale baseline entry") == 3


def test_a_second_identical_finding_beyond_the_recorded_count_is_reported(project):
    write(project, "src/dup.py", '''\
        def complete(store, ledger, run, again):
            if again:
                store.save(run)
                ledger.append_terminal(run.id)
                return
            store.save(run)
            ledger.append_terminal(run.id)
        ''')
    first = oc(project, "--no-cache", "src/dup.py")
    assert [c for _, _, c in first.codes()] == ["OC101", "OC101"]
    oc(project, "--no-cache", "src/dup.py", "--write-baseline", "base.json")
    doc = json.loads((project / "base.json").read_text())
    assert [e["count"] for e in doc["findings"]] == [2]  # identical: one entry, counted
    # a third identical pair: the two old ones are hidden, the third reported
    write(project, "src/dup.py", '''\
        def complete(store, ledger, run, again, more):
            if again:
                store.save(run)
                ledger.append_terminal(run.id)
                return
            if more:
                store.save(run)
                ledger.append_terminal(run.id)
                return
            store.save(run)
            ledger.append_terminal(run.id)
        ''')
    run = oc(project, "--no-cache", "src/dup.py", "--baseline", "base.json")
    assert len(run.codes()) == 1 and run.codes()[0][2] == "OC101", run
    assert run.code == 1


def test_the_baseline_works_from_another_folder_and_with_every_format(project):
    oc(project, "--no-cache", "src", "--write-baseline", "base.json")
    write(project, "src/new.py", '''\
        def complete(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run.id)
        ''')
    # run from inside src/: paths are matched relative to the project root, not the cwd
    run = oc(project / "src", "--no-cache", ".", "--baseline", "../base.json")
    assert run.codes() == [("new.py", 3, "OC101")], run
    js = oc(project, "--no-cache", "src", "--baseline", "base.json", "--format", "json")
    doc = json.loads(js.out)
    assert doc["summary"]["findings"] == 1 and doc["files"][0]["path"].endswith("new.py")
    sarif = json.loads(oc(project, "--no-cache", "src", "--baseline", "base.json", "--format", "sarif").out)
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["OC101"]
    gh = oc(project, "--no-cache", "src", "--baseline", "base.json", "--format", "github")
    assert gh.out.count("::error") == 1 and "new.py" in gh.out
    stats = oc(project, "--no-cache", "src", "--baseline", "base.json", "--statistics")
    assert stats.out.split("\t")[:2] == ["1", "OC101"], stats  # counts what is left


@pytest.mark.parametrize("content, why", [
    (None, "does not exist"),
    ("{not json", "malformed"),
    ('{"tool": "other", "findings": []}', "malformed"),
    ('{"tool": "ordercheck", "version": 1, "findings": [{"count": 1}]}', "malformed"),
    ('{"tool": "ordercheck", "version": 99, "findings": []}', "version"),
    ('[1, 2]', "malformed"),
])
def test_a_missing_or_malformed_baseline_is_a_usage_error_naming_the_file(project, content, why):
    if content is not None:
        (project / "base.json").write_text(content)
    run = oc(project, "--no-cache", "src", "--baseline", "base.json", proc=True)
    assert run.code == 2, run
    assert "base.json" in run.err and why in run.err
    assert run.out == ""


def test_baseline_and_write_baseline_together_are_refused(project):
    run = oc(project, "--no-cache", "src", "--baseline", "a.json", "--write-baseline", "b.json")
    assert run.code == 2 and "--write-baseline" in run.err


def test_suppressed_findings_are_not_recorded(project):
    write(project, "src/sup.py", '''\
        def complete(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run.id)  # ordercheck: ignore[OC101] -- replay re-appends
        ''')
    oc(project, "--no-cache", "src/sup.py", "--write-baseline", "base.json")
    assert json.loads((project / "base.json").read_text())["findings"] == []


def test_fingerprint_ignores_line_numbers_but_not_the_function_or_rule():
    from checkutil import check_source

    from ordercheck.findings import Finding

    src = "def a(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n"
    (f1,) = check_source(src, dedent=False, path="x.py")
    (f2,) = check_source("\n\n" + src, dedent=False, path="x.py")
    (f3,) = check_source(src.replace("def a", "def b"), dedent=False, path="x.py")
    assert f1.span.line != f2.span.line
    assert f1.stable_fingerprint("x.py") == f2.stable_fingerprint("x.py")
    assert f1.stable_fingerprint("x.py") != f3.stable_fingerprint("x.py")
    assert f1.stable_fingerprint("x.py") != f1.stable_fingerprint("y.py")
    other = Finding(**{**f1.__dict__, "code": "OC102"})
    assert other.stable_fingerprint("x.py") != f1.stable_fingerprint("x.py")


def test_a_finding_whose_witness_changed_still_matches_its_entry(project, monkeypatch):
    """(Session 35's review: a newer ordercheck words a witness step otherwise, and
    196 of trio's 305 recorded findings came back.) An entry left unused matches a
    finding with its rule, file, function and anchored text; a second one beyond its
    count is still reported."""
    from ordercheck import findings as findingsmod

    oc(project, "--no-cache", "src", "--write-baseline", "base.json")
    assert oc(project, "--no-cache", "src", "--baseline", "base.json").codes() == []
    real = findingsmod.Finding.event_texts
    monkeypatch.setattr(findingsmod.Finding, "event_texts", lambda self: [t + " (reworded)" for t in real(self)])
    r = oc(project, "--no-cache", "src", "--baseline", "base.json", "-v")
    assert r.codes() == [] and "stale" not in r.err, r
