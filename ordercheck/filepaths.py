"""Where a file is, as every part of ordercheck names it (docs/decisions.md,
"Symlinked files"): absolute, its folder's symlinks resolved (one project reached
through two folder names is one project), its own name kept (a file found as
``src/run.py -> ../../outside/run.py`` is ``src/run.py``, as the editor that opened it
names it). Reports, SARIF artifacts, baseline fingerprints, ``exclude``, ``include`` and
``per-file-ignores`` all go through :func:`location`, so one file has one name to all of
them whatever folder the run starts in."""
from __future__ import annotations

import os
from pathlib import Path, PurePath
from typing import Optional, Sequence, Set


def real_path(path: "os.PathLike[str] | str") -> str:
    """``Path.resolve()`` without its failure modes: a symlink loop (``ln -s d.py
    d.py``) resolves as far as it can instead of raising ``RuntimeError``."""
    try:
        return os.path.realpath(path)
    except (OSError, RuntimeError, ValueError):
        return os.path.abspath(path)


def location(path: "os.PathLike[str] | str") -> Path:
    """``path`` absolute, its folder's symlinks resolved, its own name kept; a folder
    resolved whole (a symlinked folder and the files in it answer alike)."""
    if os.path.isdir(path):
        return Path(real_path(path))
    # (not ``abspath``: it would take ``lnk/..`` away before ``lnk`` is resolved)
    full = os.fspath(path)
    head, tail = os.path.split(full if os.path.isabs(full) else os.path.join(os.getcwd(), full))
    return Path(real_path(head), tail) if tail else Path(real_path(head))


def root_relative(path: "os.PathLike[str] | str", root: "os.PathLike[str] | str") -> Optional[str]:
    """``path``'s :func:`location` relative to ``root`` (its symlinks resolved), with
    ``/``; None for a path outside ``root`` (or on another drive)."""
    try:
        rel = os.path.relpath(location(path), real_path(root)).replace(os.sep, "/")
    except ValueError:  # another drive
        return None
    if rel == ".." or rel.startswith("../"):
        return None
    return rel


#: folders and files that hold tests (pytest's and unittest's conventions)
TEST_FOLDERS = frozenset({"test", "tests", "testing"})


def test_file(folders: Sequence[str], name: str) -> bool:
    """Whether a file named ``name`` under ``folders`` is test code: under a
    ``test``/``tests``/``testing`` folder, or named ``test_*.py``, ``*_test.py``,
    ``tests.py`` or ``conftest.py`` (``test_code``)."""
    return (any(part in TEST_FOLDERS for part in folders)
            or name.startswith("test_") or name.endswith("_test.py") or name in ("tests.py", "conftest.py"))


def test_code(paths: Sequence[str]) -> Set[str]:
    """Of ``paths``, the files of test code: under a ``test``/``tests``/``testing``
    folder, or named ``test_*.py``, ``*_test.py``, ``tests.py`` or ``conftest.py``. Only
    the parts below the folder all the paths share count: ``suggest tests/`` ranks
    every file alike (held-out set 57: a test helper's call ranked first)."""
    split = [PurePath(p).parts for p in paths]
    common = 0
    if split:
        folders = [parts[:-1] for parts in split]
        while all(len(f) > common and f[common] == folders[0][common] for f in folders):
            common += 1
    out = set()
    for path, parts in zip(paths, split):
        if test_file(parts[common:-1], parts[-1] if parts else ""):
            out.add(path)
    return out
