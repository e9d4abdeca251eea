"""The project (semantics §Surfaces, "The project, and the files reported"): its root, its ``src``
roots, and the module name of each of its files.

Findings are reported for the files named or walked, but summaries cover the whole
project, so one file checked alone (a pre-commit hook, an editor buffer) gets exactly
the findings the whole-project run gives it. This module only decides *where* the
project is and *what* its files are called; ``runner`` reads them.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .frontend.imports import module_name
from .config import Config

ROOT_MARKERS = ("pyproject.toml", ".git")


_FOLDERS: Dict[str, str] = {}  # folder -> its resolved form, for one run (see ``forget``)


def forget() -> None:
    """Drop the resolved folders remembered by ``_abs`` (at the start of each run:
    a long-lived process such as the language server must see a folder that became
    a symlink)."""
    _FOLDERS.clear()


def _abs(path: Path) -> Path:
    """Absolute and normalised, without following symlinks twice in two ways: every
    path of a run goes through here, so they compare equal. A file that is not a
    symlink resolves as its folder does (each folder resolved once per run: resolving
    every path afresh was most of a warm run's time)."""
    try:
        full = os.path.abspath(path)
        head, tail = os.path.split(full)
        if tail and not os.path.islink(full):
            real = _FOLDERS.get(head)
            if real is None:
                real = _FOLDERS[head] = str(Path(head).resolve())
            return Path(real, tail)
        return Path(path).resolve()
    except (OSError, RuntimeError, ValueError):  # a loop of symlinks: keep it as written
        return Path(os.path.abspath(path))


def find_root(start: Optional[Path], config_root: Optional[Path] = None) -> Path:
    """The project root: the folder of the discovered config file (``config_root``),
    else the nearest ancestor of ``start`` holding ``pyproject.toml`` or ``.git``, else
    ``start`` itself (a file's folder). Never the current directory as such: a run
    from a folder with no marker (a home directory, ``/tmp``) would otherwise read
    every Python file under it for the summaries of the one folder named."""
    if config_root is not None:
        return _abs(config_root)
    start = _abs(start) if start is not None else _abs(Path.cwd())
    folder = start if start.is_dir() else start.parent
    for d in (folder, *folder.parents):
        if any((d / m).exists() for m in ROOT_MARKERS):
            return d
    return folder


def is_marked(root: Path) -> bool:
    """Whether ``root`` is a project by its own marker (``pyproject.toml``, ``.git``)."""
    return any((root / m).exists() for m in ROOT_MARKERS)


def common_start(paths: Sequence[Path]) -> Optional[Path]:
    """Where the root search starts for several named paths: their deepest common
    folder (one path: itself)."""
    if not paths:
        return None
    if len(paths) == 1:
        return paths[0]
    folders = [str(p if p.is_dir() else p.parent) for p in (_abs(q) for q in paths)]
    return Path(os.path.commonpath(folders))


def src_roots(config: Config, root: Path) -> List[Path]:
    """The roots module names are relative to: the config's ``src`` (relative to the
    config's folder), else the project root and its ``src/`` folder (as ruff does)."""
    if config.src:
        out = []
        for s in config.src:
            p = Path(s)
            out.append(_abs(p if p.is_absolute() else config.root / p))
        return out
    root = _abs(root)
    return [root, root / "src"]


def _dotted(rel: Path) -> Optional[str]:
    parts = list(rel.parts)
    if not parts:
        return None
    last = parts[-1]
    if last.endswith(".py"):
        last = last[:-3]
    parts[-1] = last
    if parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(p.isidentifier() for p in parts):
        return None  # `my-scripts/run.py` cannot be imported under that name
    return ".".join(parts)


def module_names(path: Path, roots: Sequence[Path]) -> Tuple[str, List[str]]:
    """(the module name, other names it can be imported under).

    A file in a regular package (its folder has ``__init__.py``) is named by the
    package rule, as before; any other file by its path below the deepest ``src``
    root that holds it, so ``src/ns/sub/mod.py`` is ``ns.sub.mod`` in a namespace
    package without any ``__init__.py``. Each other reading is an alias (a regular
    package inside a namespace package, ``backend/app/x.py`` imported as ``app.x``),
    so an absolute import spelled either way resolves."""
    path = _abs(path)
    by_package = module_name(path)
    by_root: List[str] = []
    for r in sorted({_abs(r) for r in roots}, key=lambda r: len(r.parts), reverse=True):
        try:
            rel = path.relative_to(r)
        except ValueError:
            continue
        name = _dotted(rel)
        if name and name not in by_root:
            by_root.append(name)
    regular = (path.parent / "__init__.py").is_file()
    primary = by_package if regular or not by_root else by_root[0]
    aliases = [n for n in [by_package, *by_root] if n != primary]
    return primary, list(dict.fromkeys(aliases))
