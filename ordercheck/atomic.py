"""Atomic file replacement, for the user's files ordercheck writes (``--write-baseline``,
``--fix``) and for its cache's entries: a reader sees the old bytes or the new ones."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: bytes, private: bool = False) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one,
    never half of one: a temporary file in the same folder, fsync, rename; the
    temporary file is removed on any failure or interrupt. A user's file keeps its
    mode (a new one gets 0644); a ``private`` one (a cache entry) keeps the temporary
    file's 0600.

    A user's file named through a symlink is written where the link points, as
    ``open(path, "w")`` would (the link stays a link: ``--fix`` on a linked file
    fixed a new copy in the link's place and left the real file as it was); a cache
    entry never follows one (the link itself is replaced)."""
    if not private and os.path.islink(path):
        path = Path(os.path.realpath(path))
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(folder))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if not private:
            try:
                os.chmod(tmp, os.stat(path).st_mode & 0o7777)
            except OSError:
                os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
