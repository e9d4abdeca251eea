"""``atomic.atomic_write``: the one way ordercheck replaces a file, for the user's files
(a baseline, a fix) and for its cache's entries."""
from __future__ import annotations

import os
import stat

import pytest

from ordercheck import atomic, cache


def _mode(p) -> int:
    return stat.S_IMODE(os.stat(p).st_mode)


@pytest.mark.parametrize("write, before, after", [
    (atomic.atomic_write, 0o664, 0o664),  # a user's file keeps its mode
    (atomic.atomic_write, None, 0o644),  # a new one is world-readable
    (cache.write_atomically, 0o644, 0o600),  # a cache entry is its owner's only
])
def test_the_mode_of_a_replaced_file(tmp_path, write, before, after):
    p = tmp_path / "f.json"
    if before is not None:
        p.write_bytes(b"old")
        p.chmod(before)
    write(p, b"new")
    assert p.read_bytes() == b"new"
    assert _mode(p) == after


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
