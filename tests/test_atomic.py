"""``atomic.atomic_write``: the one way ordercheck replaces a file, for the user's files
(a baseline, a fix) and for its cache's entries."""
from __future__ import annotations

import os
import stat

import pytest

from ordercheck import atomic, cache


def _mode(p) -> int:
    return stat.S_IMODE(os.stat(p).st_mode)


def test_a_users_file_keeps_its_mode(tmp_path):
    p = tmp_path / "baseline.json"
    p.write_bytes(b"old")
    p.chmod(0o664)
    atomic.atomic_write(p, b"new")
    assert p.read_bytes() == b"new"
    assert _mode(p) == 0o664


def test_a_new_users_file_is_world_readable(tmp_path):
    p = tmp_path / "new.json"
    atomic.atomic_write(p, b"x")
    assert _mode(p) == 0o644


def test_a_cache_entry_is_its_owners_only(tmp_path):
    p = tmp_path / "entry.json"
    p.write_bytes(b"old")
    p.chmod(0o644)
    cache.write_atomically(p, b"new")
    assert p.read_bytes() == b"new"
    assert _mode(p) == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    p = tmp_path / "f.json"
    p.write_bytes(b"old")

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", refuse)
    with pytest.raises(OSError):
        atomic.atomic_write(p, b"new")
    assert p.read_bytes() == b"old"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["f.json"]
