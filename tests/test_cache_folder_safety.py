"""The cache folder never touches what it did not make (semantics §Surfaces,
"Never modify a file"; a review, session 41): a `.ordercheck_cache` committed as a
symbolic link to the project (or anywhere) is refused, and an existing folder named by
`--cache-dir` keeps its `.gitignore`."""
import os

from cliutil import oc, write

SRC = """
    def f(store, ledger, run):
        store.save(run)
        ledger.append(run)
"""


def _project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, "a.py", SRC)
    (tmp_path / ".gitignore").write_text("*.pyc\nsecrets.env\n")


def test_a_cache_folder_that_is_a_link_is_refused_and_nothing_is_written_through_it(tmp_path):
    _project(tmp_path)
    os.symlink(".", tmp_path / ".ordercheck_cache")
    r = oc(tmp_path)
    assert r.code == 1, r
    assert "symbolic link" in r.err and "without a cache" in r.err, r.err
    assert (tmp_path / ".gitignore").read_text() == "*.pyc\nsecrets.env\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".gitignore", ".ordercheck_cache", "a.py", "pyproject.toml"]


def test_a_link_among_the_cache_folders_folders_is_refused(tmp_path):
    _project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cache = tmp_path / ".ordercheck_cache"
    cache.mkdir()
    os.symlink(elsewhere, cache / "facts")
    r = oc(tmp_path, "a.py")
    assert r.code == 1, r
    assert "symbolic link" in r.err, r.err
    assert list(elsewhere.iterdir()) == []


def test_an_existing_folder_keeps_its_files_and_a_new_one_is_marked(tmp_path):
    _project(tmp_path)
    r = oc(tmp_path, "--cache-dir", ".", "a.py")
    assert r.code == 1, r
    assert (tmp_path / ".gitignore").read_text() == "*.pyc\nsecrets.env\n"
    assert not (tmp_path / "CACHEDIR.TAG").exists()
    r = oc(tmp_path, "--cache-dir", "made", "a.py")
    assert r.code == 1, r
    assert (tmp_path / "made" / ".gitignore").read_text() == "*\n"
    assert (tmp_path / "made" / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")


def test_a_missing_home_folder_is_not_made(tmp_path):
    """(A review, session 41.) `HOME=/nonexistent` (a service account's) made that
    folder, to keep the cache secret in it."""
    import subprocess
    import sys
    _project(tmp_path)
    home = tmp_path / "nohome"
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "ORDERCHECK_CACHE_SECRET")}
    env["HOME"] = str(home)
    run = subprocess.run([sys.executable, "-m", "ordercheck", "a.py"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    assert not home.exists()
    assert "no home folder" in run.stderr and "without a cache" in run.stderr, run.stderr


def test_a_folder_replaced_by_a_link_while_a_process_runs_is_refused_at_the_next_write(tmp_path):
    """(A review, session 41.) A per-process memory of the checked folder let a
    language server write through a `facts/` replaced by a link after its first write;
    and a link one level further down (`facts/e3`) was not checked at all."""
    import pytest

    from ordercheck import cache as cachemod
    folder = tmp_path / "c"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cachemod.prepare(folder)
    (folder / "facts").mkdir()
    os.symlink(elsewhere, folder / "facts" / "e3")
    with pytest.raises(OSError):
        cachemod.write_atomically(folder / "facts" / "e3" / "k.json", b"{}")
    (folder / "facts" / "e3").unlink()
    (folder / "facts").rmdir()
    os.symlink(elsewhere, folder / "facts")
    with pytest.raises(OSError):
        cachemod.prepare(folder)
    assert list(elsewhere.iterdir()) == []
