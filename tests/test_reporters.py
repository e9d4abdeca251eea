"""Reporters: JSON structures as lsprotocol Diagnostics (UTF-16 characters), SARIF
validates against the official 2.1.0 schema, text and github shapes."""
import json
from pathlib import Path

import pytest
from checkutil import check_source, settings_for

from ordercheck.reporters import github, lsp_json, sarif, text

SOURCE = '''\
class Runtime:
    def complete(self, run):
        self._store.save(run)
        note = "🚀"; self._ledger.append_terminal(run.id)
'''


def _findings():
    return check_source(SOURCE, dedent=False, path="run.py")


def test_emoji_before_the_call_counts_utf16_code_units():
    (f,) = _findings()
    line = SOURCE.splitlines()[3]
    col_codepoints = line.index("self._ledger")
    assert f.span.col == col_codepoints
    # the rocket is one code point but two UTF-16 code units
    assert f.span.col16 == col_codepoints + 1
    doc = lsp_json.document([f], ["run.py"], settings_for().rules)
    diag = doc["files"][0]["diagnostics"][0]
    assert diag["range"]["start"] == {"line": 3, "character": col_codepoints + 1}


def test_json_structures_as_lsprotocol_diagnostics():
    pytest.importorskip("lsprotocol")
    from lsprotocol import converters, types

    conv = converters.get_converter()
    rules = settings_for().rules
    doc = json.loads(lsp_json.render(_findings(), ["run.py"], rules=rules))
    assert doc["tool"] == {"name": "ordercheck", "version": "0.1.0"}
    assert doc["summary"] == {"files": 1, "findings": 1, "by_code": {"OC101": 1}}
    (entry,) = doc["files"]
    assert entry["path"] == "run.py" and entry["uri"].startswith("file:///")
    for raw in entry["diagnostics"]:
        d = conv.structure(raw, types.Diagnostic)
        assert d.code == "OC101"
        assert d.severity == types.DiagnosticSeverity.Error
        assert d.source == "ordercheck"
        assert d.related_information and d.related_information[0].message.startswith("state saved here")
        assert d.related_information[0].location.range.start.line == 2
        assert raw["data"]["rule"] == "terminal-append-after-save"
        assert raw["data"]["function"] == "Runtime.complete"
        assert [w["event"] for w in raw["data"]["witness"]] == ["save", "terminal-append"]
        assert raw["data"]["witness"][0] == {"line": 2, "character": 8, "event": "save", "text": "self._store.save(run)"}
        assert len(raw["data"]["fingerprint"]) == 32
        # round trip: nothing is lost when an editor re-serialises it
        assert conv.unstructure(d)["range"] == raw["range"]


def test_json_lists_stdin_file_even_when_clean():
    doc = lsp_json.document([], ["clean.py"], {}, always=["clean.py"])
    assert doc["files"] == [{"uri": Path("clean.py").resolve().as_uri(), "path": "clean.py", "diagnostics": []}]


def test_sarif_validates_against_the_official_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema_path = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
    if not schema_path.is_file():
        pytest.fail(f"SARIF schema missing at {schema_path}")
    schema = json.loads(schema_path.read_text())
    rules = settings_for().rules
    doc = json.loads(sarif.render(_findings(), ["run.py"], rules=rules))
    jsonschema.validate(doc, schema)
    run = doc["runs"][0]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} >= {"OC101", "OC201", "OC900"}
    (res,) = run["results"]
    assert res["ruleId"] == "OC101" and res["level"] == "error"
    assert res["locations"][0]["physicalLocation"]["region"]["startLine"] == 4
    assert res["partialFingerprints"]["ordercheck/v2"]
    flow = res["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [l["location"]["physicalLocation"]["region"]["startLine"] for l in flow] == [3, 4]


def test_github_annotation_shape():
    out = github.render(_findings(), ["run.py"])
    assert out.startswith("::error file=run.py,line=4,col=")
    assert ",title=OC101::terminal ledger append" in out  # semantics §Surfaces: title=CODE::message


def test_text_shape_witness_and_frame():
    (f,) = _findings()
    out = text.render([f], ["run.py"], sources={"run.py": SOURCE.splitlines()})
    lines = out.splitlines()
    assert lines[0].startswith(f"run.py:4:{f.span.col + 1}: OC101 ")
    assert lines[1].split() == ["3", "save", "self._store.save(run)"]
    assert lines[2].split()[:2] == ["4", "terminal-append"]
    assert any(l.strip().startswith("4 |") for l in lines)
    assert "\x1b[" not in out
    assert lines[-1] == "Found 1 finding (1 error) in 1 file (1 checked)."
    assert "\x1b[" in text.render([f], ["run.py"], color=True)


def test_a_tab_indented_frame_keeps_its_indentation_and_its_carets():
    # held-out set 99 (browser-use): each tab was shown as one space
    src = "class Runtime:\n\tdef complete(self, run):\n\t\tself._store.save(run)\n\t\tx = 1;\tself._ledger.append_terminal(run.id)\n"
    (f,) = check_source(src, dedent=False, path="run.py")
    lines = text.render([f], ["run.py"], sources={"run.py": src.splitlines()}).splitlines()
    [shown] = [l for l in lines if l.strip().startswith("4 |")]
    caret = lines[lines.index(shown) + 1]
    code = shown.split("| ", 1)[1]
    assert code == "        x = 1;  self._ledger.append_terminal(run.id)"
    start = shown.index("self._ledger")
    assert caret.index("^") == start and caret.rstrip().endswith("^")
    assert len(caret.rstrip()) - start == len("self._ledger.append_terminal(run.id)")


# --------------------------------------------------------------------------- symlinked files


SAVE_THEN_APPEND = "def g(ledger, store, run):\n    store.save(run)\n    ledger.append(run)\n"


def _linked_project(tmp_path: Path) -> Path:
    """A project whose files are symlinks: to a file outside it, to nothing."""
    proj = tmp_path / "proj"
    (tmp_path / "other").mkdir()
    proj.mkdir()
    (proj / "pyproject.toml").write_text("")
    (tmp_path / "other" / "outside.py").write_text(SAVE_THEN_APPEND)
    (proj / "out.py").symlink_to(Path("..") / "other" / "outside.py")
    (proj / "dangling.py").symlink_to("nowhere.py")
    return proj


@pytest.mark.parametrize("name", ["out.py", "dangling.py"])
def test_a_symlinked_file_is_reported_under_its_own_name_in_every_format(tmp_path, name):
    from cliutil import oc

    proj = _linked_project(tmp_path)
    uri = (proj.resolve() / name).as_uri()
    report = json.loads(oc(proj, "--no-cache", "--format", "json", name).out)
    assert [(f["path"], f["uri"]) for f in report["files"]] == [(name, uri)]
    assert report["files"][0]["diagnostics"]  # OC102 outside, OC900 for the dangling link
    log = json.loads(oc(proj, "--no-cache", "--format", "sarif", name).out)
    (result,) = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": name, "uriBaseId": "%SRCROOT%"}
    assert oc(proj, "--no-cache", name).findings()[0][0] == name


def test_a_file_and_a_symlink_to_it_are_one_file_shown_as_named(tmp_path):
    from cliutil import oc

    proj = _linked_project(tmp_path)
    (proj / "real.py").write_text(SAVE_THEN_APPEND)
    (proj / "alias.py").symlink_to("real.py")  # found first by the walk
    assert [p for p, *_ in oc(proj, "--no-cache", "real.py").findings()] == ["real.py"]
    assert [p for p, *_ in oc(proj, "--no-cache", "alias.py").findings()] == ["alias.py"]
    whole = [p for p, _, _, code, *_ in oc(proj, "--no-cache", ".").findings() if code == "OC102"]
    assert whole == ["out.py", "real.py"]  # once, under the name that is not a link


def test_a_symlink_found_after_its_file_by_a_named_folders_walk_is_not_its_name(tmp_path):
    """(A review, session 36.) The folder named on the command line is walked too, and
    the last name its walk found won: `zalias.py` sorts after `real.py`."""
    from cliutil import oc

    proj = _linked_project(tmp_path)
    (proj / "real.py").write_text(SAVE_THEN_APPEND)
    (proj / "zalias.py").symlink_to("real.py")
    whole = [p for p, _, _, code, *_ in oc(proj, "--no-cache", ".").findings() if code == "OC102"]
    assert whole == ["out.py", "real.py"]
    assert [p for p, *_ in oc(proj, "--no-cache", "zalias.py").findings()] == ["zalias.py"]
    both = [p for p, _, _, code, *_ in oc(proj, "--no-cache", "zalias.py", ".").findings() if code == "OC102"]
    assert both == ["out.py", "zalias.py"]


def test_the_json_fingerprint_is_the_baselines_from_any_working_directory(tmp_path):
    """``data.fingerprint`` is the finding's identity over the file relative to the
    project root (as baselines and SARIF's ``ordercheck/v2`` have it), not the path as
    typed: from the root and from a subfolder it is the same (held-out set 98)."""
    from cliutil import oc, write

    write(tmp_path, "ordercheck.toml", "")
    write(tmp_path, "pkg/run.py", SOURCE)

    def json_print(cwd, target):
        doc = json.loads(oc(cwd, "--no-cache", "--format", "json", target).out)
        (d,) = doc["files"][0]["diagnostics"]
        return d["data"]["fingerprint"]

    def sarif_print(cwd, target):
        (res,) = json.loads(oc(cwd, "--no-cache", "--format", "sarif", target).out)["runs"][0]["results"]
        return res["partialFingerprints"]["ordercheck/v2"].split(":")[0]

    from_root = json_print(tmp_path, "pkg/run.py")
    from_pkg = json_print(tmp_path / "pkg", "run.py")
    assert from_root == from_pkg == sarif_print(tmp_path, "pkg/run.py")
    (f,) = _findings()
    assert f.fingerprint == f.stable_fingerprint("run.py")


def test_a_tab_after_a_wide_character_stops_at_a_column_of_four():
    # (a review) a tab stops by the columns a terminal shows: "日本" takes four
    from ordercheck.reporters.text import _expand, _width

    shown = _expand('    x = "日本";\tjournal.append(3)')
    assert _width(shown[:shown.index("journal")]) % 4 == 0
    assert _expand("a\tb") == "a   b" and _expand("\t\tc") == "        c"


def test_github_annotation_says_what_made_the_call_terminal():
    # (held-out set 126) an annotation shows the message alone: a flush called a
    # "terminal ledger append" with nothing to say why
    from checkutil import check_source
    src = ("def flush(store, run, journal):\n    store.save(run)\n    self_dump_failed_trace(journal, run)\n\n\n"
           "def self_dump_failed_trace(journal, run):\n    journal.append(run)\n")
    found = check_source(src, select=["OC101"])
    out = github.render(found, ["example.py"])
    assert out.rstrip().endswith('records the end (terminal by "failed")'), out


def test_github_annotation_of_a_plain_append_says_nothing_of_terminal():
    # (a review) a plain append whose own text says "terminal by" is no terminal append
    from checkutil import check_source
    src = 'def f(store, journal, run):\n    store.save(run)\n    journal.append("terminal by user")\n'
    found = check_source(src, select=["OC102"])
    out = github.render(found, ["example.py"])
    assert out.rstrip().endswith("lacks the transition"), out
