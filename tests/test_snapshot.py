"""The stat snapshot (``ordercheck.snapshot``): a run takes the plan and the content
keys of unchanged files from it, and still gives exactly what a cold run gives after
every kind of change a stat can see."""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from ordercheck import cache as cachemod
from ordercheck import config as configmod
from ordercheck import memos, runner, snapshot, sources
from ordercheck.rulebook import load_rules
from ordercheck.vocabulary import Vocabulary

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "fixtures" / "runtime"
OLD = time.time() - 3600  # an hour ago: older than any snapshot's racy window


def _settings(root: Path) -> runner.Settings:
    cfg = configmod.parse({}, root / "ordercheck.toml")
    rules = load_rules(configmod.rule_files(cfg))
    selected = runner.select_codes(rules, ["ALL"], [], [])
    vocab = Vocabulary.build(cfg.events, cfg.extend_events, cfg.terminal_markers)
    return runner.Settings(cfg, rules, vocab, selected, project_root=root)


def _everything(result: runner.Result):
    return (json.dumps(cachemod.encode(result.findings)), json.dumps(cachemod.encode(result.suppressed)),
            result.files, sorted(result.event_classes), result.project_files)


def _age(root: Path, when: float = OLD, files: bool = True) -> None:
    """Every folder (and file) of the project as if last changed ``when``."""
    for dirpath, _, filenames in os.walk(root):
        for name in filenames if files else ():
            os.utime(os.path.join(dirpath, name), (when, when))
        os.utime(dirpath, (when, when))


@pytest.fixture
def later(monkeypatch):
    """Runs an hour from now: every change made so far is outside the racy window
    (``snapshot.settled`` reads a file's ctime, which a test cannot set back)."""
    monkeypatch.setattr(snapshot, "clock_ns", lambda: time.time_ns() + 3600 * 10**9)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(FIXTURE, root / "runtime", ignore=shutil.ignore_patterns("*.toml", "__pycache__"))
    (root / "ordercheck.toml").write_text("")
    _age(root)
    return root


class _Reads:
    """Counts the files ``run_key`` reads, and whether the project was walked."""

    def __init__(self, monkeypatch) -> None:
        self.read: list = []
        self.walked = 0
        real_read, real_collect = memos.read_source, sources.collect_files

        def read(p):
            self.read.append(Path(p).name)
            return real_read(p)

        def collect(*a, **k):
            self.walked += 1
            return real_collect(*a, **k)

        monkeypatch.setattr(memos, "read_source", read)
        monkeypatch.setattr(sources, "collect_files", collect)


def _check(root: Path, cache: Path, monkeypatch, paths=(Path("runtime"),)) -> _Reads:
    """A cached run equals a cold one; returns what the cached run read."""
    monkeypatch.chdir(root)
    s = _settings(root)
    cold = runner.run(list(paths), s)
    with monkeypatch.context() as m:
        reads = _Reads(m)
        warm = runner.run(list(paths), s, cache_dir=cache)
    assert _everything(warm) == _everything(cold)
    return reads


def _entries(cache: Path):
    return sorted((cache / "snapshot").glob("*/*.json"))


def test_an_unchanged_project_is_neither_walked_nor_read(tmp_path, monkeypatch, later):
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    first = _check(root, cache, monkeypatch)
    assert first.walked and len(first.read) >= 3
    assert len(_entries(cache)) == 1
    again = _check(root, cache, monkeypatch)
    assert again.walked == 0 and again.read == []


def test_each_change_a_stat_sees_gives_what_a_cold_run_gives(tmp_path, monkeypatch, later):
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    _check(root, cache, monkeypatch)
    runtime = root / "runtime" / "runtime.py"
    # an edit, seen later than the racy window: only that file is read again
    runtime.write_text("# an edit\n" + runtime.read_text())
    os.utime(runtime, (OLD + 10, OLD + 10))
    edited = _check(root, cache, monkeypatch)
    assert edited.walked == 0 and edited.read == ["runtime.py"]
    # the same size and mtime, other bytes: the ctime still moved
    text = runtime.read_text()
    runtime.write_text(text.replace("# an edit", "# AN EDIT"))
    os.utime(runtime, (OLD + 10, OLD + 10))
    assert _check(root, cache, monkeypatch).read == ["runtime.py"]
    # a file added: its folder changed, so the project is walked again
    extra = root / "runtime" / "extra.py"
    extra.write_text("def complete(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n")
    os.utime(extra, (OLD + 20, OLD + 20))
    _age(root, OLD + 20, files=False)
    added = _check(root, cache, monkeypatch)
    assert added.walked and added.read == ["extra.py"]
    # removed again
    extra.unlink()
    _age(root, OLD + 30, files=False)
    assert _check(root, cache, monkeypatch).walked
    # a package marker added changes module names (and so the content keys)
    (root / "runtime" / "__init__.py").write_text("")
    _age(root, OLD + 40, files=False)
    assert _check(root, cache, monkeypatch).walked
    # a folder that becomes a virtual environment is no longer project code
    (root / "runtime" / "pyvenv.cfg").write_text("home = /usr\n")
    _age(root, OLD + 50, files=False)
    assert _check(root, cache, monkeypatch).walked


def test_a_recent_change_is_not_trusted(tmp_path, monkeypatch):
    """Git's racy rule: a file changed within two seconds of the snapshot's writing
    is read again, whatever its stat says."""
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    runtime = root / "runtime" / "runtime.py"
    os.utime(runtime, None)  # now
    # (the entry is written a second after that change, however long the runs take)
    changed = os.stat(runtime).st_ctime_ns
    monkeypatch.setattr(snapshot, "clock_ns", lambda: changed + 10**9)
    _check(root, cache, monkeypatch)
    assert "runtime.py" in _check(root, cache, monkeypatch).read


def test_a_buffer_is_never_taken_from_the_snapshot(tmp_path, monkeypatch):
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    monkeypatch.chdir(root)
    s = _settings(root)
    name = "runtime/runtime.py"
    original = (root / name).read_bytes()
    for data in (original, original.replace(b"\n", b"\n\n", 3), original):
        cold = runner.run([], s, stdin=(name, data))
        warm = runner.run([], s, stdin=(name, data), cache_dir=cache)
        assert _everything(cold) == _everything(warm)


@pytest.mark.parametrize("damage", [
    b"", b"{", b"\x80\x04K.", b'{"format": 1, "written": 1}',
    b'{"format": 1, "written": 1, "folders": {"/": [1]}, "files": {}, "plan": null}',
])
def test_a_damaged_entry_is_ignored(tmp_path, monkeypatch, damage):
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    _check(root, cache, monkeypatch)
    (entry,) = _entries(cache)
    entry.write_bytes(damage)
    again = _check(root, cache, monkeypatch)
    assert again.walked


def test_a_planted_plan_is_not_trusted_when_its_folders_differ(tmp_path, monkeypatch):
    """An entry naming a file that is not there (a stranger's, or an old one) is
    revalidated by its folders' stats like any other."""
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    _check(root, cache, monkeypatch)
    (entry,) = _entries(cache)
    data = json.loads(entry.read_text())
    for folder in data["folders"]:
        data["folders"][folder] = [1, 1]
    data["plan"]["rows"] = data["plan"]["rows"][:1]
    entry.write_text(json.dumps(data))
    assert _check(root, cache, monkeypatch).walked


def test_the_snapshot_can_be_turned_off(tmp_path, monkeypatch):
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    monkeypatch.setattr(runner, "SNAPSHOT", False)
    _check(root, cache, monkeypatch)
    assert _entries(cache) == []
    assert _check(root, cache, monkeypatch).walked


def test_an_import_closure_is_never_remembered(tmp_path, monkeypatch, later):
    """With no marker and no config, the files read follow imports (their bytes), so
    no plan is remembered; content keys still are."""
    root = tmp_path / "loose"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("*.toml", "__pycache__"))
    _age(root)
    cache = tmp_path / "cache"
    monkeypatch.chdir(root)
    s = runner.load_settings(None, root, isolated=True)
    named = [Path("runtime.py")]
    cold = runner.run(named, s)
    runner.run(named, s, cache_dir=cache)
    with monkeypatch.context() as m:
        reads = _Reads(m)
        warm = runner.run(named, s, cache_dir=cache)
    assert _everything(warm) == _everything(cold)
    assert reads.walked  # (the named file is collected; its imports followed again)
    assert reads.read == []
    (entry,) = _entries(cache)
    assert json.loads(entry.read_text())["plan"] is None


# ----------------------------------------------------------- the imports memo (closures)

APP = "import lib\n\ndef step(store, ledger, run, rec):\n    lib.persist(store, run)\n    ledger.append(rec)\n"
LIB = "def persist(store, run):\n    store.save(run)\n"
LIB_VIA_EXTRA = "import extra\n\ndef persist(store, run):\n    extra.write_it(store, run)\n"
EXTRA = "def write_it(store, run):\n    store.save(run)\n"


def _loose(tmp_path: Path) -> Path:
    """A folder with no marker: a one-file run's project is the import closure."""
    root = tmp_path / "loose"
    root.mkdir()
    (root / "app.py").write_text(APP)
    (root / "lib.py").write_text(LIB)
    (root / "extra.py").write_text(EXTRA)
    _age(root)
    return root


class _Parses:
    """The files whose imports ``import_closure`` reads from their text."""

    def __init__(self, monkeypatch) -> None:
        from ordercheck import project
        self.names: list = []
        real = project._imported

        def imported(path, *a, **k):
            self.names.append(Path(path).name)
            return real(path, *a, **k)

        monkeypatch.setattr(project, "_imported", imported)


def _closure_run(root: Path, cache, monkeypatch):
    monkeypatch.chdir(root)
    s = runner.load_settings(None, root, isolated=True)
    with monkeypatch.context() as m:
        parses = _Parses(m)
        result = runner.run([Path("app.py")], s, cache_dir=cache)
    return result, parses.names


def test_a_closure_takes_unchanged_files_imports_from_the_memo(tmp_path, monkeypatch, later):
    """Session 53 (held-out set 99's litellm: 5.4 s of a 7.4 s one-file run re-read the
    imports of 2,752 files): a file whose stat is as it was is not read for its imports."""
    root = _loose(tmp_path)
    cache = tmp_path / "cache"
    cold, first = _closure_run(root, None, monkeypatch)
    assert [(Path(f.path).name, f.span.line, f.code) for f in cold.findings] == [("app.py", 5, "OC102")]
    assert sorted(first) == ["app.py", "lib.py"]
    _, filling = _closure_run(root, cache, monkeypatch)
    assert sorted(filling) == ["app.py", "lib.py"]
    warm, again = _closure_run(root, cache, monkeypatch)
    assert again == []
    assert _everything(warm) == _everything(cold)
    (entry,) = (cache / "imports").glob("*.json")
    memo = json.loads(entry.read_text())
    assert memo["rows"][str(root / "app.py")][-1] == ["lib"]


def test_a_file_that_changed_is_read_again_and_its_new_import_followed(tmp_path, monkeypatch, later):
    root = _loose(tmp_path)
    cache = tmp_path / "cache"
    _closure_run(root, cache, monkeypatch)
    (root / "lib.py").write_text(LIB_VIA_EXTRA)
    changed, parsed = _closure_run(root, cache, monkeypatch)
    assert sorted(parsed) == ["extra.py", "lib.py"]  # (app.py's imports from the memo)
    cold, _ = _closure_run(root, None, monkeypatch)
    assert _everything(changed) == _everything(cold)
    assert "extra.py" in {Path(p).name for p in changed.facts}
    assert [(Path(f.path).name, f.code) for f in changed.findings] == [("app.py", "OC102")]


def test_a_file_changed_within_the_racy_window_is_read_again(tmp_path, monkeypatch):
    """No ``later``: the files were written just now, so a row read by this second's
    runs is not trusted (``snapshot.settled``), and the imports are read again."""
    root = tmp_path / "loose"
    root.mkdir()
    (root / "app.py").write_text(APP)
    (root / "lib.py").write_text(LIB)
    cache = tmp_path / "cache"
    _closure_run(root, cache, monkeypatch)
    _, again = _closure_run(root, cache, monkeypatch)
    assert sorted(again) == ["app.py", "lib.py"]


def test_a_buffer_is_read_from_its_text_not_the_memo(tmp_path, monkeypatch, later):
    root = _loose(tmp_path)
    cache = tmp_path / "cache"
    _closure_run(root, cache, monkeypatch)
    monkeypatch.chdir(root)
    s = runner.load_settings(None, root, isolated=True)
    edited = APP.replace("import lib", "import extra as lib").replace("lib.persist(store, run)", "lib.write_it(store, run)")
    result = runner.run([], s, cache_dir=cache, buffers={str(root / "app.py"): edited.encode()})
    assert [(Path(f.path).name, f.code) for f in result.findings] == [("app.py", "OC102")]
    assert "extra.py" in {Path(p).name for p in result.facts}


def test_another_users_memo_is_never_read(tmp_path, monkeypatch, later):
    root = _loose(tmp_path)
    cache = tmp_path / "cache"
    _closure_run(root, cache, monkeypatch)
    monkeypatch.setattr(cachemod, "_SALT", None)
    monkeypatch.setattr(cachemod, "_SECRET", None)
    monkeypatch.setenv("ORDERCHECK_CACHE_SECRET", "someone else's secret")
    _, parsed = _closure_run(root, cache, monkeypatch)
    assert sorted(parsed) == ["app.py", "lib.py"]
    assert len(list((cache / "imports").glob("*.json"))) == 2
    monkeypatch.setattr(cachemod, "_SALT", None)
    monkeypatch.setattr(cachemod, "_SECRET", None)


@pytest.mark.parametrize("kind", ["garbage", "wrong", "fifo", "symlink", "folder"])
def test_a_planted_or_broken_memo_is_ignored(tmp_path, monkeypatch, later, kind):
    root = _loose(tmp_path)
    cache = tmp_path / "cache"
    cold, _ = _closure_run(root, None, monkeypatch)
    _closure_run(root, cache, monkeypatch)
    (entry,) = (cache / "imports").glob("*.json")
    data = json.loads(entry.read_text())
    entry.unlink()
    if kind == "garbage":
        entry.write_bytes(b"\x80\x04not json")
    elif kind == "wrong":  # a row that says app.py imports nothing, with a string for a stat
        data["rows"][str(root / "app.py")][0] = "x"
        entry.write_text(json.dumps(data))
    elif kind == "fifo":
        os.mkfifo(entry)
    elif kind == "symlink":
        (tmp_path / "elsewhere.json").write_text(json.dumps(data))
        entry.symlink_to(tmp_path / "elsewhere.json")
    else:
        entry.mkdir()
    started = time.monotonic()
    warm, parsed = _closure_run(root, cache, monkeypatch)
    assert time.monotonic() - started < 30
    assert sorted(parsed) == ["app.py", "lib.py"]
    assert _everything(warm) == _everything(cold)


def test_the_entry_is_plain_json_written_atomically(tmp_path, monkeypatch):
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    _check(root, cache, monkeypatch)
    (entry,) = _entries(cache)
    data = json.loads(entry.read_text())
    assert data["format"] == snapshot.FORMAT
    assert all(len(v) == 7 for v in data["files"].values())
    assert not list((cache / "snapshot").glob("*/.*.tmp"))


def test_a_change_is_settled_only_well_before_the_stat_was_taken():
    """(Session 38.) A change within two seconds of when the stat was taken may be
    followed by a second in the same clock step with the same stat; one in the future
    (a server's clock ahead of ours) is never settled."""
    from ordercheck.snapshot import RACY_NS, settled

    now = time.time_ns()
    assert settled(now - RACY_NS - 1, now)
    assert not settled(now - RACY_NS // 2, now) and not settled(now, now) and not settled(now + 3600 * 10**9, now)


def test_a_future_mtime_does_not_make_a_file_just_written_settled(tmp_path, monkeypatch):
    """(A second review of session 38.) `cp -p` in the same second as a run, with the
    same size and a future mtime: on a filesystem with one-second timestamps even the
    ctime stays, so only the racy rule can see it, and a future *mtime* says nothing of
    when the file was written. The rule reads the ctime: a file written just now is
    read again, whatever its mtime."""
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    runtime = root / "runtime" / "runtime.py"
    ahead = time.time() + 3600
    os.utime(runtime, (ahead, ahead))
    changed = os.stat(runtime).st_ctime_ns
    monkeypatch.setattr(snapshot, "clock_ns", lambda: changed + 10**9)
    _check(root, cache, monkeypatch)
    assert "runtime.py" in _check(root, cache, monkeypatch).read


LATE = "def complete(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n"


def test_a_file_added_with_its_folders_mtime_set_back_is_seen(tmp_path, monkeypatch, later):
    """(A third review of session 38.) An archive unpacked with fixed dates adds a file
    and sets its folder's mtime back: the plan was trusted by the folder's (mtime,
    inode) and the file never checked. A folder's ctime is in its stat now."""
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    _check(root, cache, monkeypatch)
    folder = root / "runtime"
    was = os.stat(folder)
    (folder / "late.py").write_text(LATE)
    os.utime(folder, ns=(was.st_atime_ns, was.st_mtime_ns))
    assert os.stat(folder).st_mtime_ns == was.st_mtime_ns
    again = _check(root, cache, monkeypatch)  # (equal to a cold run, which has late.py's finding)
    assert again.walked and "late.py" in again.read


def test_a_file_added_while_a_run_reads_is_seen_by_the_next(tmp_path, monkeypatch):
    """(The same review.) The racy rule measured changes against when the entry was
    saved: a file added to a folder already listed, more than two seconds before a long
    run ended, was in no plan from then on. It is measured against when the run began."""
    root = _project(tmp_path)
    cache = tmp_path / "cache"
    monkeypatch.chdir(root)
    s = _settings(root)
    began = time.time_ns()
    added: list = []

    def clock():  # now, until the file is added; ten seconds later after that
        return began + 10 * 10**9 if added else began

    monkeypatch.setattr(snapshot, "clock_ns", clock)
    real = memos.read_source

    def read(p):
        late = root / "runtime" / "late.py"
        if not late.exists():
            late.write_text(LATE)
            added.append(1)
        return real(p)

    with monkeypatch.context() as m:
        m.setattr(memos, "read_source", read)
        runner.run([Path("runtime")], s, cache_dir=cache)
    assert (root / "runtime" / "late.py").exists()
    cold = runner.run([Path("runtime")], s)
    assert any(f.path.endswith("late.py") for f in cold.findings)
    assert _everything(runner.run([Path("runtime")], s, cache_dir=cache)) == _everything(cold)
