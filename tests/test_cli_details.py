"""Command-line details a ruff user expects (docs/decisions.md, "Command line and
configuration"): baselines survive re-wrapping, --fix keeps the project, --config
globs are relative to the config, OC900 points at the undecodable byte, usage errors
are one line, --statistics speaks JSON, an empty run says so."""
import json

from cliutil import oc, write

SAVE_THEN_TERMINAL = """\
def finish(store, ledger, run):
    store.save(run)
    ledger.append_terminal(run.id, "COMPLETED")
"""

REWRAPPED = """\
def finish(store, ledger, run):
    store.save(run)
    ledger.append_terminal(  # the run ends here
        run.id,
        "COMPLETED",
    )
"""


def test_a_rewrapped_and_commented_call_stays_in_the_baseline(tmp_path):
    write(tmp_path, "w.py", SAVE_THEN_TERMINAL)
    assert oc(tmp_path, "--isolated", "--write-baseline", "bl.json", "w.py").code == 0
    write(tmp_path, "w.py", REWRAPPED)
    r = oc(tmp_path, "--isolated", "--baseline", "bl.json", "w.py")
    assert r.code == 0 and r.findings() == [], r
    # and the finding itself quotes the call as one line, without the comment
    r = oc(tmp_path, "--isolated", "w.py")
    assert 'ledger.append_terminal(run.id, "COMPLETED")' in r.out, r
    assert "the run ends here" not in r.out.splitlines()[0], r


def test_a_commented_except_header_is_quoted_without_its_comment(tmp_path):
    write(tmp_path, "h.py", """\
def finish(store, run):
    try:
        store.save(run)
    except Exception:  # pragma: no cover
        pass
""")
    r = oc(tmp_path, "--isolated", "--extend-select", "OC204", "h.py")
    assert r.line_codes() == [(3, "OC203"), (4, "OC204")], r
    heads = [ln for ln in r.out.splitlines() if ": OC20" in ln]
    assert len(heads) == 2 and all("except Exception" in h and "pragma" not in h for h in heads), r


def test_fix_then_no_false_note_and_cross_file_findings_kept(tmp_path):
    write(tmp_path, "pyproject.toml", "[tool.ordercheck]\n")
    write(tmp_path, "helpers.py", """\
def persist(store, run):
    store.save(run)
""")
    write(tmp_path, "a.py", """\
from helpers import persist

def go(store, ledger, run):
    store.save(run)
    ledger.append(run)

def later(store, ledger, run):
    persist(store, run)
    x = 1
    ledger.append(run)
""")
    r = oc(tmp_path, "--no-cache", "--fix", "--unsafe-fixes", "a.py")
    assert "no `save` and no `append`" not in r.err, r
    # the swap at line 4-5 applied; the helper's save still orders the second append
    # (the re-check reads helpers.py for the summaries)
    assert (9, "OC102") in r.line_codes() or (10, "OC102") in r.line_codes(), r


def test_config_globs_are_relative_to_an_explicit_config(tmp_path):
    body = "def go(store, ledger, run):\n    store.save(run)\n    ledger.append(run)\n"
    write(tmp_path, "gen/g.py", body)
    write(tmp_path, "cfg/gen/h.py", body)
    write(tmp_path, "cfg/pyproject.toml", '[tool.ordercheck]\nexclude = ["gen/**"]\n')
    r = oc(tmp_path, "--no-cache", "--force-exclude", "--config", "cfg/pyproject.toml", "gen/g.py", "cfg/gen/h.py")
    assert [p for p, _, _ in r.codes()] == ["gen/g.py"], r


def test_undecodable_bytes_are_an_oc900_where_they_are(tmp_path):
    (tmp_path / "latin.py").write_bytes(b"x = 1\ny = 2\nz = 'caf\xe9'\n")
    r = oc(tmp_path, "--isolated", "--no-cache", "latin.py")
    assert r.findings() == [("latin.py", 3, 9, "OC900")], r
    # on the first two lines too, where an encoding cookie would be looked for
    (tmp_path / "first.py").write_bytes(b"s = '\xe9'\n")
    (tmp_path / "second.py").write_bytes(b"# x\n\xff = 1\n")
    r = oc(tmp_path, "--isolated", "--no-cache", "first.py", "second.py")
    assert r.findings() == [("first.py", 1, 6, "OC900"), ("second.py", 2, 1, "OC900")], r
    # a cookie that names no encoding is still reported as such
    (tmp_path / "cookie.py").write_bytes(b"# -*- coding: nonesuch -*-\nx = 1\n")
    r = oc(tmp_path, "--isolated", "--no-cache", "--format", "json", "cookie.py")
    assert "unknown encoding: nonesuch" in r.out, r


def test_click_usage_errors_are_one_line(tmp_path):
    for args in (["--format", "xml"], ["--jobs", "0"], ["--bogus"]):
        r = oc(tmp_path, *args, ".", proc=True)
        assert r.code == 2, r
        lines = [ln for ln in r.err.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("ordercheck: error: "), r


def test_statistics_as_json(tmp_path):
    write(tmp_path, "a.py", "def go(store, ledger, run):\n    store.save(run)\n    ledger.append(run)\n"
                            "    store.save(run)\n    ledger.append(run)\n")
    r = oc(tmp_path, "--isolated", "--statistics", "--format", "json", "a.py")
    assert json.loads(r.out) == [{"code": "OC102", "name": "append-after-save", "count": 1}], r


def test_a_folder_without_python_warns(tmp_path):
    (tmp_path / "empty").mkdir()
    r = oc(tmp_path, "--isolated", "empty")
    assert r.code == 0 and "no Python files found" in r.err, r
    write(tmp_path, "b.py", "x = 1\n")
    assert "no Python files found" not in oc(tmp_path, "--isolated", "b.py").err


def test_a_missing_include_path_is_named_by_its_config_file_and_key(tmp_path):
    """(A review, session 41.) With no paths given, a folder the config's `include`
    names that is not there was blamed on `PATHS`, which the user never typed."""
    write(tmp_path, "pyproject.toml", '[tool.ordercheck]\ninclude = ["missing"]\n')
    for args in ((), ("suggest",)):
        r = oc(tmp_path, *args, proc=True)
        assert r.code == 2, r
        assert "pyproject.toml: `include`: no such file or directory" in r.err, r.err
    r = oc(tmp_path, "nothere.py", proc=True)
    assert r.code == 2 and "`PATHS`: no such file or directory: nothere.py" in r.err, r.err


def test_paths_named_with_an_include_that_names_nothing_warn(tmp_path):
    """(Held-out set 43.) With paths named, `include` still decides which other files
    are the project whose summaries they read: an entry that names no path (a config
    kept outside the project, whose `include` is relative to its own folder) left a
    one-file run without its helpers and said nothing."""
    write(tmp_path, "cfg/ordercheck.toml", 'include = ["pkg"]\n[extend-events]\nsave = ["*.record_success"]\n')
    write(tmp_path, "proj/pkg/__init__.py", "")
    write(tmp_path, "proj/pkg/helpers.py", "def done(job):\n    job.record_success()\n")
    write(tmp_path, "proj/pkg/caller.py", "from .helpers import done\n\n\ndef f(job, ledger):\n    done(job)\n    ledger.append_record(job)\n")
    r = oc(tmp_path / "proj", "--config", "../cfg/ordercheck.toml", "--no-cache", "pkg/caller.py")
    assert "`include` names no such path: pkg (relative to the config's folder)" in r.err, r.err
    assert r.code == 0, r
    for quiet in (["-q"], ["--format", "json"], ["--format", "sarif"]):  # (machine formats: nothing on stderr)
        r = oc(tmp_path / "proj", "--config", "../cfg/ordercheck.toml", "--no-cache", *quiet, "pkg/caller.py")
        assert "include" not in r.err, (quiet, r.err)
    write(tmp_path, "cfg/pkg/x.py", "")  # (now it names a path)
    r = oc(tmp_path / "proj", "--config", "../cfg/ordercheck.toml", "--no-cache", "pkg/caller.py")
    assert "include" not in r.err, r.err


def test_a_parse_error_at_a_word_a_newer_python_reserved_says_so(tmp_path):
    """Held-out set 234: wpull's Python 3.4 code names a parameter `async`; CPython says
    only "invalid syntax"."""
    write(tmp_path, "old.py", "def f(async=False):\n    return async\n")
    write(tmp_path, "older.py", "def g():\n    await = 1\n    return await\n")
    write(tmp_path, "plain.py", "x = = 1\n")
    text = oc(tmp_path, "--isolated", "--no-cache", ".").out
    assert "old.py:1:7: OC900" in text and "(`async` is a reserved word since Python 3.7" in text, text
    assert "(`await` is a reserved word since Python 3.7" in text, text
    plain = [line for line in text.splitlines() if line.startswith("plain.py")]
    assert plain and plain[0].endswith("SyntaxError: invalid syntax"), text
    # the hint is no part of the finding's identity: a baseline recorded before it matches
    from ordercheck.findings import Finding
    from ordercheck.ir import Span
    bare = Finding("OC900", "parse-error", "error", "old.py", Span(1, 6, 1, 6), "SyntaxError: invalid syntax")
    hinted = Finding("OC900", "parse-error", "error", "old.py", Span(1, 6, 1, 6), "SyntaxError: invalid syntax"
                     " (`async` is a reserved word since Python 3.7: code written for an older Python)")
    assert bare.stable_fingerprint("old.py") == hinted.stable_fingerprint("old.py")
