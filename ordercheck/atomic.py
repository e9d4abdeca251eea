"""Atomic file replacement, for the user's files ordercheck writes (``--write-baseline``,
``--fix``) and for its cache's entries: a reader sees the old bytes or the new ones."""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: bytes, private: bool = False) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one,
    never half of one: a temporary file in the same folder, fsync, rename; the
    temporary file is removed on any failure or interrupt. A user's file keeps its
    mode (a new one gets 0644); a ``private`` one (a cache entry) keeps the temporary
    file's 0600, and is never written through a symlink (the link itself is replaced).

    A user's file is written where ``open(path, "w")`` would write it, but atomically:
    through a symlink, at its target, and the link stays (``--fix`` on a linked file
    fixed a new copy in the link's place and left the real file as it was); a file that
    is not a regular one (``/dev/null``, a FIFO) is written in place, never replaced; a
    file the user may not write is refused with ``EACCES``; a folder that takes no new
    file refuses the write (never a truncate-and-write, which a full disk would leave
    half done). The new file keeps the old one's mode and, where the user may set it,
    its owner; a hard link to the old file keeps the old text, as with any
    write-and-rename."""
    existing = None
    if not private:
        if os.path.islink(path):
            path = Path(os.path.realpath(path))
        try:
            existing = os.stat(path)
        except FileNotFoundError:
            existing = None
        if existing is not None and not stat.S_ISREG(existing.st_mode):
            with open(path, "wb") as fh:
                fh.write(data)
            return
        if existing is not None and not os.access(path, os.W_OK):
            raise PermissionError(errno.EACCES, "the file is not writable", str(path))
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
            if existing is not None and hasattr(os, "chown"):
                try:
                    os.chown(tmp, existing.st_uid, existing.st_gid)
                except OSError:
                    pass  # (only root may give a file away)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
