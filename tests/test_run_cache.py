"""The run cache (issue 9): a warm run costs nothing and never changes a finding.

Every case compares the whole findings (message, witness, related locations,
fingerprints, suppressed ones) of a run through the cache with a cold run (no cache)
on the same inputs: nothing changed, a file touched, a file added or removed, the
config changed, a rule file changed, the vocabulary changed, the codes selected.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ordercheck import cache as cachemod
from ordercheck import config as configmod
from ordercheck import runner
from ordercheck.rulebook import load_rules
from ordercheck.vocabulary import Vocabulary

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "fixtures" / "runtime"

RULE = """\
id = "XY100"
name = "save-without-append"
severity = "warning"
kind = "requires-before"
first = ["append"]
then = ["save"]
message = "state save without a ledger append before it"
explanation = \"\"\"
## What it finds

A save that no ledger append precedes.
\"\"\"
"""


def _settings(root: Path, table: dict = None) -> runner.Settings:
    cfg = configmod.parse(dict(table or {}), root / "ordercheck.toml")
    rules = load_rules(configmod.rule_files(cfg))
    selected = runner.select_codes(rules, cfg.select or ["ALL"], cfg.extend_select, cfg.ignore)
    vocab = Vocabulary.build(cfg.events, cfg.extend_events, cfg.terminal_markers)
    return runner.Settings(cfg, rules, vocab, selected, project_root=root)


def _everything(result: runner.Result):
    """All a reporter can read of a result."""
    return (json.dumps(cachemod.encode(result.findings)), json.dumps(cachemod.encode(result.suppressed)),
            result.files, sorted(result.event_classes), result.project_files)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(FIXTURE, root / "runtime", ignore=shutil.ignore_patterns("*.toml", "__pycache__"))
    (root / "ordercheck.toml").write_text("")
    return root


def _same_as_cold(root: Path, settings: runner.Settings, cache: Path, monkeypatch) -> runner.Result:
    monkeypatch.chdir(root)
    cold = runner.run([Path("runtime")], settings)
    warm = runner.run([Path("runtime")], settings, cache_dir=cache)
    assert _everything(warm) == _everything(cold)
    return warm


def test_every_kind_of_change_gives_what_a_cold_run_gives(tmp_path, monkeypatch):
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    s = _settings(root)
    first = _same_as_cold(root, s, cache, monkeypatch)
    assert first.findings, "the fixture must have findings for this test to mean anything"
    assert len(list((cache / "runs").glob("*.json"))) == 1
    # nothing changed: answered by the run cache (no new entry)
    warm = _same_as_cold(root, s, cache, monkeypatch)
    assert len(list((cache / "runs").glob("*.json"))) == 1
    assert isinstance(warm.facts, runner.LazyFacts)
    # a file touched: one line that changes a finding's position
    store = root / "runtime" / "runtime.py"
    store.write_text("# touched\n" + store.read_text())
    touched = _same_as_cold(root, s, cache, monkeypatch)
    assert [f.span.line for f in touched.findings if f.path.endswith("runtime.py")] != \
        [f.span.line for f in first.findings if f.path.endswith("runtime.py")]
    # a file added, then removed
    (root / "runtime" / "extra.py").write_text(
        "def complete(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n")
    added = _same_as_cold(root, s, cache, monkeypatch)
    assert any(f.path.endswith("extra.py") for f in added.findings)
    (root / "runtime" / "extra.py").unlink()
    _same_as_cold(root, s, cache, monkeypatch)
    # the config changed: the vocabulary moved away from the calls
    moved = _settings(root, {"events": {"save": ["*.nothing"]}})
    assert _same_as_cold(root, moved, cache, monkeypatch).findings != touched.findings
    # codes selected
    _same_as_cold(root, _settings(root, {"select": ["OC2"]}), cache, monkeypatch)
    # a rule file of the config's own: added, then its content changed
    (root / "myrules").mkdir()
    (root / "myrules" / "xy.toml").write_text(RULE)
    with_rule = _settings(root, {"rules": ["myrules/*.toml"]})
    got = _same_as_cold(root, with_rule, cache, monkeypatch)
    assert "XY100" in [f.code for f in got.findings]
    (root / "myrules" / "xy.toml").write_text(RULE.replace("state save without", "a save without"))
    got2 = _same_as_cold(root, _settings(root, {"rules": ["myrules/*.toml"]}), cache, monkeypatch)
    assert {f.message for f in got2.findings if f.code == "XY100"} == {"a save without a ledger append before it"}
    # terminal markers (vocabulary) changed
    _same_as_cold(root, _settings(root, {"terminal-markers": ["NOTHING_LIKE_IT"]}), cache, monkeypatch)


def test_a_buffer_is_part_of_the_key(tmp_path, monkeypatch):
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    s = _settings(root)
    monkeypatch.chdir(root)
    name = "runtime/runtime.py"
    original = (root / name).read_bytes()
    edited = original.replace(b"\n", b"\n\n", 3)
    for data in (original, edited, original):
        cold = runner.run([], s, stdin=(name, data))
        warm = runner.run([], s, stdin=(name, data), cache_dir=cache)
        again = runner.run([], s, stdin=(name, data), cache_dir=cache)
        assert _everything(cold) == _everything(warm) == _everything(again)
        assert again.files == [name]


def test_the_settings_fingerprint_sees_each_setting(tmp_path):
    root = _project(tmp_path)
    base = runner.settings_fingerprint(_settings(root))
    assert base == runner.settings_fingerprint(_settings(root))
    for table in ({"swallow-types": ["X"]}, {"per-file-ignores": {"a.py": ["OC101"]}},
                  {"extend-events": {"save": ["*.keep"]}}, {"ignore": ["OC101"]}, {"exclude": ["x"]}):
        assert runner.settings_fingerprint(_settings(root, table)) != base, table


def _oc(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})


def test_a_warm_run_imports_neither_libcst_nor_networkx(tmp_path):
    root = _project(tmp_path)
    cold = _oc(root, "-m", "ordercheck", "--format", "json", "runtime")
    warm = _oc(root, "-X", "importtime", "-m", "ordercheck", "--format", "json", "runtime")
    assert cold.returncode == warm.returncode == 1, cold.stderr
    assert warm.stdout == cold.stdout
    imported = [line.split("|")[-1].strip() for line in warm.stderr.splitlines() if line.startswith("import time:")]
    assert "ordercheck.runner" in imported  # -X importtime did report
    assert not [m for m in imported if m.split(".")[0] in ("libcst", "networkx")]
    # and a text run shows the same findings with their source lines
    text = _oc(root, "-m", "ordercheck", "--no-cache", "runtime")
    text_warm = _oc(root, "-m", "ordercheck", "runtime")
    assert text_warm.stdout == text.stdout and text.stdout


@pytest.mark.parametrize("damage", ["garbage", "other-key", "wrong-shape"])
def test_a_damaged_run_entry_is_a_miss(tmp_path, monkeypatch, damage):
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    s = _settings(root)
    first = _same_as_cold(root, s, cache, monkeypatch)
    (entry,) = (cache / "runs").glob("*.json")
    head, _, body = entry.read_text().partition("\n")
    if damage == "garbage":
        entry.write_bytes(b"\x00garbage")
    elif damage == "other-key":
        entry.write_text(json.dumps({"run": "0" * 64, "format": 1}) + "\n" + body)
    else:
        data = json.loads(body)
        data["findings"][0]["span"] = {"@": "FileFacts", "path": "x", "module": "x"}
        entry.write_text(head + "\n" + json.dumps(data))
    again = _same_as_cold(root, s, cache, monkeypatch)
    assert _everything(again) == _everything(first)
    assert not isinstance(again.facts, runner.LazyFacts)  # computed, not read


def test_a_touched_file_checks_that_file_and_what_its_summaries_reach(tmp_path, monkeypatch):
    """Summaries of unchanged functions and findings of unchanged files come from the
    cache; a change that moves a summary's origin re-checks the files that call it."""
    from ordercheck import effects

    root = _project(tmp_path)
    cache = tmp_path / "cache"
    s = _settings(root)
    _same_as_cold(root, s, cache, monkeypatch)
    import ast
    tree = ast.parse((root / "runtime" / "store.py").read_text())
    STORE_NAMES = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))} | {"<module>"}
    checked, graphs = [], []
    real_check, real_graph = runner.check_file, effects.summary_graph
    monkeypatch.setattr(runner, "check_file", lambda facts, *a, **k: (checked.append(facts.path), real_check(facts, *a, **k))[1])
    monkeypatch.setattr(effects, "summary_graph", lambda fn, *a, **k: (graphs.append(fn.qualname), real_graph(fn, *a, **k))[1])
    # a comment at the end: that file only, and only its own functions' summaries
    store = root / "runtime" / "store.py"
    store.write_text(store.read_text() + "\n# touched\n")
    cold = runner.run([Path("runtime")], s)
    checked.clear(), graphs.clear()
    warm = runner.run([Path("runtime")], s, cache_dir=cache)
    assert _everything(warm) == _everything(cold)
    assert checked == ["runtime/store.py"]
    assert graphs and all(q.split(".")[0] in STORE_NAMES for q in graphs), graphs
    checked.clear(), graphs.clear()
    again = runner.run([Path("runtime")], s, cache_dir=cache)  # nothing changed: no check at all
    assert checked == [] and graphs == [] and isinstance(again.facts, runner.LazyFacts)
    # lines moved in store.py: the origins of its summaries moved, so the files whose
    # witnesses name those lines are checked again too
    store.write_text("# moved\n" + store.read_text())
    cold = runner.run([Path("runtime")], s)
    checked.clear()
    warm = runner.run([Path("runtime")], s, cache_dir=cache)
    assert _everything(warm) == _everything(cold)
    assert "runtime/store.py" in checked and len(set(checked)) > 1, checked


MANAGERS = {
    "mgr.py": '''\
from contextlib import contextmanager


@contextmanager
def finishing(store, run):
    store.save(run)
    yield


class Recorder:
    def __init__(self, ledger, run):
        self.ledger = ledger
        self.run = run

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.ledger.append_terminal(self.run.id)
        return False
''',
    "job.py": '''\
from mgr import Recorder, finishing


def complete(store, ledger, run):
    with finishing(store, run):
        ledger.append_terminal(run.id)


def report(store, ledger, run):
    with Recorder(ledger, run):
        store.save(run)


def outer(store, ledger, run):
    try:
        complete(store, ledger, run)  # on raise: saved only while the save is before the yield
    except Exception:
        ledger.append_terminal(run.id)
''',
}

# Edits to the managers that change what a `with` means but neither manager's own
# summary (the classes it performs): the memos must not reuse the users' results.
MANAGER_EDITS = [
    ("mgr.py", "    store.save(run)\n    yield\n", "    yield\n    store.save(run)\n"),  # the save moves past the yield
    ("mgr.py", "        return False\n", "        return True\n"),  # __exit__ now swallows
]


@pytest.mark.parametrize("edit", range(len(MANAGER_EDITS)))
def test_a_context_manager_edit_gives_what_a_cold_run_gives(tmp_path, monkeypatch, edit):
    root = tmp_path / "proj"
    (root / "runtime").mkdir(parents=True)
    (root / "ordercheck.toml").write_text("")
    for name, text in MANAGERS.items():
        (root / "runtime" / name).write_text(text)
    cache = tmp_path / "cache"
    s = _settings(root)
    before = _same_as_cold(root, s, cache, monkeypatch)
    name, old, new = MANAGER_EDITS[edit]
    path = root / "runtime" / name
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    after = _same_as_cold(root, s, cache, monkeypatch)
    assert _everything(after) != _everything(before), ([(f.code, f.span.line) for f in before.findings], [(f.code, f.span.line) for f in after.findings])


CYCLE = {
    "a.py": '''\
def ping(store, ledger, run, n):
    if n:
        pong(store, ledger, run, n - 1)


from b import pong  # noqa: E402 - a cycle across two files
''',
    "b.py": '''\
from a import ping


def pong(store, ledger, run, n):
    store.save(run)
    ping(store, ledger, run, n)
''',
    "job.py": '''\
from a import ping


def finish(store, ledger, run):
    ping(store, ledger, run, 3)
    ledger.append_terminal(run.id)
''',
    "other.py": '''\
def unrelated(store, run):
    store.save(run)
''',
}


def test_a_cycle_of_the_call_graph_is_remembered_as_a_whole(tmp_path, monkeypatch):
    """The summaries of a call-graph cycle come from the cache when none of its files
    and none of its outside callees changed; an edit inside the cycle computes it
    again, and every run gives what a cold run gives."""
    from ordercheck import effects

    root = tmp_path / "proj"
    (root / "runtime").mkdir(parents=True)
    for name, text in CYCLE.items():
        (root / "runtime" / name).write_text(text)
    (root / "ordercheck.toml").write_text("")
    cache = tmp_path / "cache"
    s = _settings(root)
    first = _same_as_cold(root, s, cache, monkeypatch)
    assert any(f.code == "OC101" and f.path.endswith("job.py") for f in first.findings)  # the save comes through the cycle
    graphs = []
    real_graph = effects.summary_graph
    monkeypatch.setattr(effects, "summary_graph", lambda fn, *a, **k: (graphs.append(fn.qualname), real_graph(fn, *a, **k))[1])
    other = root / "runtime" / "other.py"
    other.write_text(other.read_text() + "\n# touched\n")
    _same_as_cold(root, s, cache, monkeypatch)
    graphs.clear()
    _same_as_cold(root, s, cache, monkeypatch)  # (the cold run inside builds every graph)
    graphs.clear()
    other.write_text(other.read_text() + "\n# touched again\n")
    monkeypatch.chdir(root)
    warm = runner.run([Path("runtime")], s, cache_dir=cache)
    assert "ping" not in graphs and "pong" not in graphs, graphs
    cold = runner.run([Path("runtime")], s)
    assert _everything(warm) == _everything(cold)
    # the save leaves the cycle: computed again, and the finding goes
    b = root / "runtime" / "b.py"
    b.write_text(b.read_text().replace("    store.save(run)\n", ""))
    graphs.clear()
    warm = _same_as_cold(root, s, cache, monkeypatch)
    assert "pong" in graphs
    assert not any(f.code == "OC101" and f.path.endswith("job.py") for f in warm.findings)


def test_managers_are_remembered_with_what_their_graphs_say(tmp_path, monkeypatch):
    """A context-manager generator's split at its ``yield`` and whether an ``__exit__``
    may return True are remembered with their summaries: an unrelated edit builds
    neither manager's graph again, and the users' findings stay a cold run's."""
    from ordercheck import effects

    root = tmp_path / "proj"
    (root / "runtime").mkdir(parents=True)
    (root / "ordercheck.toml").write_text("")
    files = dict(MANAGERS, **{"other.py": "def unrelated(store, run):\n    store.save(run)\n"})
    files["mgr.py"] = files["mgr.py"].replace("        return False\n", "        return True\n")  # a swallowing __exit__
    for name, text in files.items():
        (root / "runtime" / name).write_text(text)
    cache = tmp_path / "cache"
    s = _settings(root)
    _same_as_cold(root, s, cache, monkeypatch)
    graphs = []
    real_graph = effects.summary_graph
    monkeypatch.setattr(effects, "summary_graph", lambda fn, *a, **k: (graphs.append(fn.qualname), real_graph(fn, *a, **k))[1])
    other = root / "runtime" / "other.py"
    other.write_text(other.read_text() + "\n# touched\n")
    monkeypatch.chdir(root)
    warm = runner.run([Path("runtime")], s, cache_dir=cache)
    # (the edited file's functions only; its `<module>` holds no event and, since
    # OC204 keeps the pre-pass (session 65), no handler: no summary reads it)
    assert graphs == ["unrelated"], graphs
    cold = runner.run([Path("runtime")], s)
    assert _everything(warm) == _everything(cold)
    assert warm.findings
