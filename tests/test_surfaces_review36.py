"""Faults a review of the user-facing surfaces found (session 36): an editor's quick fix
that wrote inside a string, a suppression after another tool's ``# noqa``, fixes of
findings a baseline hides, and JSON/SARIF reports of a file whose name is not UTF-8."""
from __future__ import annotations

import json
import os

import pytest
from cliutil import oc, write

from ordercheck import lsp

SAVE_THEN_APPEND = "def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run)\n"


def _apply(lines, line, code="OC102"):
    """The text after the quick fix for a finding on ``line`` (0-based)."""
    at = lsp.comment_line(lines, line)
    start, end, text = lsp.suppression_edit(lines[at], code)
    out = list(lines)
    row = out[at]
    body = row.rstrip("\r\n")
    out[at] = body[:start] + text + body[end:] + row[len(body):]
    return at, "".join(out)


@pytest.mark.parametrize("source, anchor, expected_row", [
    # the finding's line ends inside a triple-quoted string: the comment goes after it
    ('def a(store, ledger, run):\n    store.save(run)\n    ledger.append("""\n    text""")\n', 2, 3),
    # a backslash continuation: at the end of the logical line
    ("def a(store, ledger, run):\n    store.save(run)\n    ledger.append(run, \\\n        1)\n", 2, 3),
    # inside brackets a comment can end the finding's own line
    ("def a(store, ledger, run):\n    store.save(run)\n    ledger.append(\n        run)\n", 2, 2),
    ("def a(store, ledger, run):\n    store.save(run)\n    ledger.append(run)\n", 2, 2),
])
def test_the_quick_fix_puts_its_comment_where_a_comment_can_be(tmp_path, source, anchor, expected_row):
    lines = source.splitlines(True)
    at, fixed = _apply(lines, anchor)
    assert at == expected_row
    assert "ordercheck: ignore[OC102]" in fixed.splitlines()[at].split("#", 1)[-1]
    write(tmp_path, "pyproject.toml", "")
    (tmp_path / "q.py").write_text(fixed)
    r = oc(tmp_path, "--no-cache", "--select", "OC102", "q.py")
    assert r.code == 0, r
    # the string's value is what it was
    if '"""' in source:
        assert 'text""")' in fixed and fixed.count("ignore[OC102]") == 1
        assert fixed.index("ignore[OC102]") > fixed.index('text"""')


def test_a_buffer_that_does_not_tokenize_keeps_the_line():
    lines = ['def a(:\n', '    x = """\n']
    assert lsp.comment_line(lines, 0) == 0


@pytest.mark.parametrize("comment", [
    "# noqa: E501  # ordercheck: ignore[OC102] -- why",
    "# noqa: E501  # noqa: OC102",
    "# type: ignore  # noqa: E501, OC102",
    "# ordercheck: ignore[OC102]  # noqa: E501",
    # (a third review) prose or another tool's reason before ours
    "# TODO -- batch these later  # ordercheck: ignore[OC102] -- replayed on restart",
    "# pylint: disable=no-member -- dynamic  # noqa: OC102 -- replayed",
    "# noqa: E501 -- long line  # ordercheck: ignore[OC102] -- replayed",
])
def test_a_suppression_beside_another_tools_directive_counts(tmp_path, comment):
    write(tmp_path, "pyproject.toml", "")
    (tmp_path / "s.py").write_text(SAVE_THEN_APPEND.replace("ledger.append(run)", f"ledger.append(run)  {comment}"))
    assert oc(tmp_path, "--no-cache", "--select", "OC102,OC001", "s.py").code == 0


def test_another_tools_noqa_alone_suppresses_nothing_and_is_not_unused(tmp_path):
    write(tmp_path, "pyproject.toml", "")
    (tmp_path / "s.py").write_text(SAVE_THEN_APPEND.replace("ledger.append(run)", "ledger.append(run)  # noqa: E501"))
    r = oc(tmp_path, "--no-cache", "--select", "OC102,OC001", "--format", "json", "s.py")
    assert [d["code"] for f in json.loads(r.out)["files"] for d in f["diagnostics"]] == ["OC102"]


def test_fixes_leave_a_baselined_finding_alone(tmp_path):
    write(tmp_path, "pyproject.toml", "")
    src = SAVE_THEN_APPEND
    (tmp_path / "s.py").write_text(src)
    assert oc(tmp_path, "--no-cache", "--write-baseline", "b.json", "s.py").code == 0
    r = oc(tmp_path, "--no-cache", "--baseline", "b.json", "--diff", "--unsafe-fixes", "s.py")
    assert (r.code, r.out) == (0, "")
    r = oc(tmp_path, "--no-cache", "--baseline", "b.json", "--fix", "s.py")
    assert "fix" not in r.err, r.err
    r = oc(tmp_path, "--no-cache", "--baseline", "b.json", "--fix", "--unsafe-fixes", "s.py")
    assert r.code == 0 and (tmp_path / "s.py").read_text() == src
    # without the baseline the same finding is fixed
    r = oc(tmp_path, "--no-cache", "--diff", "--unsafe-fixes", "s.py")
    assert r.code == 1 and "+    ledger.append(run)" in r.out


def test_a_file_name_that_is_not_utf8_keeps_the_reports_valid(tmp_path):
    write(tmp_path, "pyproject.toml", "")
    (tmp_path / "ok.py").write_text(SAVE_THEN_APPEND)
    with open(os.path.join(os.fsencode(tmp_path), b"bad\xffname.py"), "w") as fh:
        fh.write(SAVE_THEN_APPEND)
    r = oc(tmp_path, "--no-cache", "--format", "json", ".", proc=True)
    doc = json.loads(r.out.encode("utf-8", "surrogateescape").decode("utf-8"))
    assert sorted(f["path"] for f in doc["files"]) == ["bad\udcffname.py", "ok.py"]
    r = oc(tmp_path, "--no-cache", "--format", "sarif", ".", proc=True)
    doc = json.loads(r.out.encode("utf-8", "surrogateescape").decode("utf-8"))
    locations = sorted(json.dumps(res["locations"][0]["physicalLocation"]["artifactLocation"], sort_keys=True)
                       for res in doc["runs"][0]["results"])
    assert locations == ['{"uri": "bad%FFname.py", "uriBaseId": "%SRCROOT%"}',
                         '{"uri": "ok.py", "uriBaseId": "%SRCROOT%"}']


# --------------------------------------------------------------------------- small CLI faults


def test_an_empty_select_is_a_usage_error(tmp_path):
    write(tmp_path, "s.py", SAVE_THEN_APPEND)
    r = oc(tmp_path, "--isolated", "--no-cache", "--select", "", "s.py")
    assert r.code == 2 and "--select" in r.err and "no rule code" in r.err, r


def test_an_empty_path_is_a_usage_error(tmp_path):
    write(tmp_path, "s.py", SAVE_THEN_APPEND)
    r = oc(tmp_path, "--isolated", "--no-cache", "", proc=True)
    assert r.code == 2 and "empty path" in r.err, r


def test_statistics_refuse_a_format_with_no_table(tmp_path):
    write(tmp_path, "s.py", SAVE_THEN_APPEND)
    for fmt in ("sarif", "github"):
        r = oc(tmp_path, "--isolated", "--no-cache", "--statistics", "--format", fmt, "s.py")
        assert r.code == 2 and "--statistics" in r.err, r
    assert oc(tmp_path, "--isolated", "--no-cache", "--statistics", "--format", "json", "s.py").code == 1


def test_a_config_that_is_a_folder_says_so(tmp_path):
    (tmp_path / "cfg").mkdir()
    write(tmp_path, "s.py", SAVE_THEN_APPEND)
    r = oc(tmp_path, "--config", "cfg", "s.py")
    assert r.code == 2 and "is a folder" in r.err, r


def test_exit_zero_wins_over_diff(tmp_path):
    write(tmp_path, "s.py", SAVE_THEN_APPEND)
    r = oc(tmp_path, "--isolated", "--no-cache", "--diff", "--unsafe-fixes", "--exit-zero", "s.py")
    assert r.code == 0 and "+    ledger.append(run)" in r.out, r


def test_list_rules_as_json(tmp_path):
    r = oc(tmp_path, "--isolated", "--list-rules", "--format", "json")
    rows = json.loads(r.out)
    assert {"code": "OC301", "name": "rename-without-fsync", "severity": "warning", "default": True,
            "kind": "sequence"}.items() <= next(x for x in rows if x["code"] == "OC301").items()


def test_without_a_config_the_cache_goes_to_the_project_root(tmp_path):
    proj = tmp_path / "proj"
    write(proj, "pkg/s.py", SAVE_THEN_APPEND)
    (proj / ".git").mkdir()
    r = oc(tmp_path, "proj/pkg/s.py")
    assert r.code == 1
    assert (proj / ".ordercheck_cache").is_dir()
    assert not (tmp_path / ".ordercheck_cache").exists()


def test_a_named_path_under_another_configuration_is_said(tmp_path):
    write(tmp_path, "pyproject.toml", "[tool.ordercheck]\n")
    write(tmp_path, "sub/ordercheck.toml", 'ignore = ["OC102"]\n')
    write(tmp_path, "top.py", SAVE_THEN_APPEND)
    write(tmp_path, "sub/s.py", SAVE_THEN_APPEND)
    r = oc(tmp_path, "--no-cache", "sub/s.py", "top.py")
    assert r.code == 0
    assert "top.py is under pyproject.toml, which this run does not use" in r.err, r.err
    assert "sub/ordercheck.toml" in r.err
    r = oc(tmp_path, "--no-cache", "top.py", "sub/s.py")
    assert r.code == 1 and "sub/s.py is under sub/ordercheck.toml" in r.err, r.err
    r = oc(tmp_path, "--no-cache", "top.py")
    assert "warning" not in r.err, r.err
    r = oc(tmp_path, "--no-cache", "-q", "top.py", "sub/s.py")
    assert "warning" not in r.err


def test_a_noqa_inside_a_reason_is_words(tmp_path):
    """(A review of the above.) The reason after ` -- ` runs to the comment's end: a
    `# noqa` it mentions is no bare noqa hiding every code on the line."""
    write(tmp_path, "pyproject.toml", "")
    line = "ledger.append(run)  # ordercheck: ignore[OC101] -- not a bare # noqa: only OC101"
    (tmp_path / "s.py").write_text(SAVE_THEN_APPEND.replace("ledger.append(run)", line))
    r = oc(tmp_path, "--no-cache", "--select", "OC102,OC001", "--format", "json", "s.py")
    assert sorted(d["code"] for f in json.loads(r.out)["files"] for d in f["diagnostics"]) == ["OC001", "OC102"]


@pytest.mark.parametrize("source, anchor", [
    ('def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run, "# ordercheck: ignore[OC999]")\n', 2),
    ('def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run, """doc\n'
     "see '# ordercheck: ignore[OC999]' in the guide\"\"\")\n", 2),
])
def test_the_quick_fix_never_edits_an_ignore_inside_a_string(tmp_path, source, anchor):
    lines = source.splitlines(True)
    at = lsp.comment_line(lines, anchor)
    start, end, text = lsp.suppression_edit(lines[at], "OC102", lsp.comment_column(lines, at))
    body = lines[at].rstrip("\n")
    fixed = "".join(lines[:at]) + body[:start] + text + body[end:] + "\n" + "".join(lines[at + 1:])
    assert "ignore[OC999]" in fixed and "OC999, OC102" not in fixed
    write(tmp_path, "pyproject.toml", "")
    (tmp_path / "q.py").write_text(fixed)
    assert oc(tmp_path, "--no-cache", "--select", "OC102", "q.py").code == 0


def test_the_quick_fix_adds_to_an_ignore_in_the_lines_comment():
    lines = ['def f(store, ledger, run):\n', '    store.save(run)\n',
             '    ledger.append(run)  # ordercheck: ignore[OC101] -- why\n']
    col = lsp.comment_column(lines, 2)
    assert col == lines[2].index("#")
    at = lines[2].index("OC101") + len("OC101")
    assert lsp.suppression_edit(lines[2], "OC102", col) == (at, at, ", OC102")
