"""SARIF that code scanning trusts (semantics §Surfaces): URIs relative to the project root with
%SRCROOT%, percent-encoded; partialFingerprints distinct for every distinct finding
(OC900 included) and stable across edits elsewhere; rules with fullDescription and
help for the reader; in-source suppressions as dismissed results with the reason; the
witness as a thread flow; the document valid against the 2.1.0 schema. Also
--show-suppressed for json and text."""
import json
from pathlib import Path

import pytest
from cliutil import oc, write

SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"

RUN = '''\
class Runtime:
    def complete(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id)

    def fail(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id)  # ordercheck: ignore[OC101] -- replay re-appends it

    def stop(self, run):
        self._store.save(run)
        self._ledger.append_terminal(run.id)  # noqa: OC101
'''


def _validate(doc):
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(doc, json.loads(SCHEMA.read_text(encoding="utf-8")))


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ordercheck]\nselect = ['OC1', 'OC9']\n")
    write(tmp_path, "src/my pkg/rün.py", RUN)
    write(tmp_path, "src/bad1.py", "def f(:\n")
    write(tmp_path, "src/bad2.py", "def g(:\n")
    return tmp_path


def _sarif(cwd, *args):
    run = oc(cwd, "--no-cache", "--format", "sarif", *args)
    doc = json.loads(run.out)
    _validate(doc)
    return run, doc


def test_uris_are_relative_to_the_project_root_and_percent_encoded(project):
    run, doc = _sarif(project / "src", ".")  # run from a subfolder: still relative to the root
    (r,) = doc["runs"]
    assert r["originalUriBaseIds"] == {"%SRCROOT%": {"uri": project.resolve().as_uri() + "/"}}
    uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for res in r["results"]}
    assert uris == {"src/my%20pkg/r%C3%BCn.py", "src/bad1.py", "src/bad2.py"}
    for res in r["results"]:
        loc = res["locations"][0]["physicalLocation"]["artifactLocation"]
        assert loc["uriBaseId"] == "%SRCROOT%"
        for flow in res.get("codeFlows", []):
            for step in flow["threadFlows"][0]["locations"]:
                assert step["location"]["physicalLocation"]["artifactLocation"]["uriBaseId"] == "%SRCROOT%"


def test_root_without_a_config_is_the_nearest_pyproject_or_git(tmp_path):
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    write(tmp_path, "repo/app/run.py", RUN)
    _, doc = _sarif(tmp_path / "repo" / "app", "run.py")
    r = doc["runs"][0]
    assert r["originalUriBaseIds"]["%SRCROOT%"]["uri"] == (tmp_path / "repo").resolve().as_uri() + "/"
    assert r["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "app/run.py"


def test_partial_fingerprints_differ_for_every_distinct_finding_and_survive_edits(project):
    _, doc = _sarif(project, "src")
    results = doc["runs"][0]["results"]
    prints = [res["partialFingerprints"]["ordercheck/v2"] for res in results]
    assert len(results) == 5  # 3 x OC101 (2 suppressed), 2 x OC900
    assert len(set(prints)) == len(prints)
    assert all(p and p != "0" for p in prints)
    ninehundred = [res for res in results if res["ruleId"] == "OC900"]
    assert len(ninehundred) == 2
    # insert lines above: same fingerprints
    path = project / "src/my pkg/rün.py"
    path.write_text("import os\n\n\n" + path.read_text())
    (project / "src/bad1.py").write_text("\n\ndef f(:\n")
    _, again = _sarif(project, "src")
    assert sorted(prints) == sorted(res["partialFingerprints"]["ordercheck/v2"] for res in again["runs"][0]["results"])


def test_identical_findings_get_distinct_fingerprints(tmp_path):
    write(tmp_path, "dup.py", '''\
        def complete(store, ledger, run, again):
            if again:
                store.save(run)
                ledger.append_terminal(run.id)
                return
            store.save(run)
            ledger.append_terminal(run.id)
        ''')
    _, doc = _sarif(tmp_path, "dup.py")
    prints = [res["partialFingerprints"]["ordercheck/v2"] for res in doc["runs"][0]["results"]]
    assert len(prints) == 2 and prints[0] != prints[1]
    assert prints[0].split(":")[0] == prints[1].split(":")[0]  # same finding, two occurrences


def test_rules_carry_help_written_for_the_reader(project):
    _, doc = _sarif(project, "src")
    rules = {r["id"]: r for r in doc["runs"][0]["tool"]["driver"]["rules"]}
    assert set(rules) >= {"OC001", "OC101", "OC102", "OC103", "OC201", "OC202", "OC203", "OC204", "OC301", "OC900"}
    for rid, r in rules.items():
        full = r["fullDescription"]["text"]
        assert len(full) > 60 and "sequence:" not in full, rid  # prose, not the contract formula
        assert "`" not in full and "`" not in r["help"]["text"], rid
        assert r["help"]["markdown"].strip() and "Fix" in r["help"]["text"], rid
    assert "before the save" in rules["OC101"]["help"]["text"]


def test_in_source_suppressions_are_emitted_as_dismissed_with_the_reason(project):
    _, doc = _sarif(project, "src")
    oc101 = [res for res in doc["runs"][0]["results"] if res["ruleId"] == "OC101"]
    assert len(oc101) == 3
    by_line = {res["locations"][0]["physicalLocation"]["region"]["startLine"]: res for res in oc101}
    assert "suppressions" not in by_line[4]
    assert by_line[8]["suppressions"] == [{"kind": "inSource", "status": "accepted", "justification": "replay re-appends it"}]
    assert by_line[12]["suppressions"][0]["kind"] == "inSource"
    assert "justification" not in by_line[12]["suppressions"][0]  # a bare noqa gives no reason


def test_the_witness_is_a_thread_flow(project):
    _, doc = _sarif(project, "src")
    res = next(r for r in doc["runs"][0]["results"] if r["ruleId"] == "OC101")
    steps = res["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [s["location"]["message"]["text"].split(":")[0] for s in steps] == ["save", "terminal-append"]
    assert [s["location"]["physicalLocation"]["region"]["startLine"] for s in steps] == [3, 4]


def test_exit_code_counts_only_unsuppressed_findings(tmp_path):
    write(tmp_path, "ok.py", '''\
        def fail(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run.id)  # ordercheck: ignore[OC101] -- fine
        ''')
    run, doc = _sarif(tmp_path, "ok.py")
    assert run.code == 0 and len(doc["runs"][0]["results"]) == 1


# ------------------------------------------------------------------ --show-suppressed


def test_json_lists_suppressed_findings_only_when_asked(project):
    plain = json.loads(oc(project, "--no-cache", "--format", "json", "src/my pkg").out)
    assert plain["summary"]["findings"] == 1
    assert all("suppressed" not in d["data"] for f in plain["files"] for d in f["diagnostics"])
    run = oc(project, "--no-cache", "--format", "json", "--show-suppressed", "src/my pkg")
    doc = json.loads(run.out)
    diags = [d for f in doc["files"] for d in f["diagnostics"]]
    assert len(diags) == 3
    reasons = {d["range"]["start"]["line"] + 1: d["data"].get("suppressed") for d in diags}
    assert reasons[4] is None
    assert reasons[8] == "replay re-appends it"
    assert reasons[12]  # no reason given: still a non-empty marker
    assert doc["summary"]["findings"] == 1 and doc["summary"]["suppressed"] == 2
    assert run.code == 1


def test_text_marks_suppressed_findings(project):
    run = oc(project, "--no-cache", "--show-suppressed", "src/my pkg")
    heads = [ln for ln in run.out.splitlines() if ": OC101 " in ln]
    assert len(heads) == 3
    assert "[suppressed" not in heads[0]
    assert heads[1].endswith("[suppressed: replay re-appends it]")
    assert heads[2].endswith("[suppressed]")
    assert "Found 1 finding" in run.out and "2 suppressed findings shown" in run.out
    quiet = oc(project, "--no-cache", "--show-suppressed", "-q", "src/my pkg")
    assert quiet.out.count("[suppressed") == 2
    plain = oc(project, "--no-cache", "src/my pkg")
    assert "suppressed" not in plain.out and len([ln for ln in plain.out.splitlines() if ": OC101 " in ln]) == 1


def test_statistics_ignore_suppressed_findings(project):
    run = oc(project, "--no-cache", "--show-suppressed", "--statistics", "src/my pkg")
    assert run.out.split("\t")[:2] == ["1", "OC101"]
