"""Every cache key mixes in a secret of the machine's user (``cache.secret``), so a
cache folder that came from elsewhere (committed, planted by a pull request, restored
from another machine) is never read: an edited run record that says "no findings"
answers nothing on a machine whose secret differs (docs/architecture.md, "The cache")."""
from __future__ import annotations

import json
import os
import stat

from cliutil import oc, write

from ordercheck import cache

PROGRAM = "def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run)\n"


def _project(tmp_path):
    root = tmp_path / "proj"
    write(root, "pyproject.toml", "")
    write(root, "app.py", PROGRAM)
    return root


def _empty_the_run_records(folder):
    records = list((folder / "runs").glob("*.json"))
    assert records
    for p in records:
        head, body = p.read_text().split("\n", 1)  # (the key's line, then the record)
        data = json.loads(body)
        data["findings"] = []
        p.write_text(head + "\n" + json.dumps(data))


def _run(root, folder):
    return oc(root, "--cache-dir", folder, "--select", "OC102", "app.py", proc=True)


def test_an_edited_run_record_from_another_machine_is_not_read(tmp_path, monkeypatch):
    root, folder = _project(tmp_path), tmp_path / "shared-cache"
    monkeypatch.setenv(cache.SECRET_ENV, "machine-a")
    assert _run(root, folder).code == 1
    _empty_the_run_records(folder)
    # on the machine that wrote it, an edited record is believed (the edit worked) ...
    assert _run(root, folder).code == 0
    # ... on any other, it is never read
    monkeypatch.setenv(cache.SECRET_ENV, "machine-b")
    r = _run(root, folder)
    assert r.code == 1 and r.codes() == [("app.py", 3, "OC102")], r


def test_without_a_secret_given_each_user_cache_home_keeps_its_own(tmp_path, monkeypatch):
    root, folder = _project(tmp_path), tmp_path / "shared-cache"
    monkeypatch.delenv(cache.SECRET_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-a"))
    assert _run(root, folder).code == 1
    kept = tmp_path / "home-a" / "ordercheck" / "secret"
    assert len(kept.read_bytes()) >= 32
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    _empty_the_run_records(folder)
    assert _run(root, folder).code == 0  # the same user: the same secret, kept
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-b"))
    assert _run(root, folder).code == 1  # another user's cache folder


def test_a_home_that_cannot_keep_a_secret_runs_without_a_cache_and_says_so(tmp_path, monkeypatch):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    monkeypatch.delenv(cache.SECRET_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setattr(cache, "_SECRET", None)
    monkeypatch.setattr(cache, "_SALT", None)
    first = cache.secret()
    assert cache.secret_problem() and "cannot keep a cache secret" in cache.secret_problem()
    assert os.environ[cache.SECRET_ENV].startswith("run-")  # handed to the run's workers
    assert cache.secret() == first
    monkeypatch.delenv(cache.SECRET_ENV)
    monkeypatch.setattr(cache, "_SECRET", None)
    assert cache.secret() != first  # nothing kept: the next run has another
    monkeypatch.delenv(cache.SECRET_ENV)
    root, folder = _project(tmp_path), tmp_path / "c"
    r = _run(root, folder)
    assert r.code == 1 and r.err.count("cannot keep a cache secret") == 1, r
    assert not folder.exists()  # no cache filled that no later run could read


def _planted(tmp_path, monkeypatch, make):
    """A cache home whose ``ordercheck/secret`` ``make`` puts there (as a pull request
    could, where the cache home is inside the checkout); a cache written under that
    secret, with its run record emptied."""
    home = tmp_path / "home"
    (home / "ordercheck").mkdir(parents=True)
    secret = home / "ordercheck" / "secret"
    secret.write_text("p" * 64)
    secret.chmod(0o600)
    root, folder = _project(tmp_path), tmp_path / "cache"
    monkeypatch.delenv(cache.SECRET_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    assert _run(root, folder).code == 1
    _empty_the_run_records(folder)
    assert _run(root, folder).code == 0  # (the planted record answers for a trusted secret)
    secret.unlink()
    make(secret)
    return root, folder


def test_a_secret_checked_out_with_the_code_is_not_trusted(tmp_path, monkeypatch):
    def checked_out(secret):  # git writes 0644
        secret.write_text("p" * 64)
        secret.chmod(0o644)
    root, folder = _planted(tmp_path, monkeypatch, checked_out)
    r = _run(root, folder)
    assert r.code == 1 and "is not private to you" in r.err, r


def test_a_secret_that_is_a_link_or_a_fifo_or_too_short_is_not_read(tmp_path, monkeypatch):
    target = tmp_path / "elsewhere"
    target.write_text("p" * 64)
    target.chmod(0o600)
    root, folder = _planted(tmp_path, monkeypatch, lambda s: s.symlink_to(target))
    r = _run(root, folder)
    assert r.code == 1 and "cache secret" in r.err, r
    secret = tmp_path / "home" / "ordercheck" / "secret"
    secret.unlink()
    os.mkfifo(secret)
    r = _run(root, folder)  # (a FIFO opened for reading blocks: never opened so)
    assert r.code == 1 and "not a regular file" in r.err, r
    secret.unlink()
    secret.write_text("short")
    secret.chmod(0o600)
    r = _run(root, folder)
    assert r.code == 1 and "too short" in r.err, r
    secret.unlink()
    assert _run(root, folder).code == 1  # removed: a new one is made, and the planted record is no match
    assert "cache secret" not in _run(root, folder).err


def test_two_processes_making_the_secret_agree(tmp_path):
    path = tmp_path / "home" / "ordercheck" / "secret"
    cache._make_secret(path)
    first = path.read_bytes()
    cache._make_secret(path)  # a second maker finds it there and keeps it
    assert path.read_bytes() == first
    assert [p.name for p in path.parent.iterdir()] == ["secret"]  # no temporary file left


def test_the_language_server_runs_without_a_cache_when_the_secret_cannot_be_trusted(tmp_path, monkeypatch):
    from ordercheck import lsp

    root = _project(tmp_path)
    monkeypatch.chdir(root)
    project = lsp.Project(root)
    monkeypatch.setattr(cache, "_SECRET", ("x" * 32, "the cache secret is not private to you"))
    assert project.cache_dir() is None
    doc = root / "app.py"
    got = project.check({doc.as_uri(): (doc, PROGRAM)})
    assert [d["code"] for d in got[doc.as_uri()]] == ["OC102"]
    assert not (root / ".ordercheck_cache").exists()
    monkeypatch.setattr(cache, "_SECRET", ("x" * 32, None))
    assert project.cache_dir() == root / ".ordercheck_cache"
