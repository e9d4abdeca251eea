"""The project (semantics §Surfaces, "The project, and the files reported"): its root, its ``src``
roots, and the module name of each of its files.

Findings are reported for the files named or walked, but summaries cover the whole
project, so one file checked alone (a pre-commit hook, an editor buffer) gets exactly
the findings the whole-project run gives it. This module only decides *where* the
project is and *what* its files are called; ``runner`` reads them.
"""
from __future__ import annotations

import ast
import keyword
import os
from collections import deque
from pathlib import Path
from typing import (
    Callable,
    Dict,
    FrozenSet,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    Set,
    Tuple,
    cast,
)

from .config import Config
from .frontend.imports import module_name
from .frontend.source import parse_ast

ROOT_MARKERS = ("pyproject.toml", ".git")


_FOLDERS: Dict[str, str] = {}  # folder -> its resolved form, for one run (see ``forget``)
# (path, roots) -> module_names' answer, for one run: a run asks twice per file (its
# facts and its memo key), and each answer costs path arithmetic and a stat.
_NAMES: Dict[Tuple[str, Tuple[str, ...]], Tuple[str, Tuple[str, ...]]] = {}
_ABS: Dict[str, Path] = {}  # absolute path -> ``_abs``'s answer, for one run
_PACKAGES: Dict[str, bool] = {}  # folder -> whether it holds an ``__init__.py``, for one run


def forget() -> None:
    """Drop the resolved folders remembered by ``_abs`` and the module names (at the
    start of each run: a long-lived process such as the language server must see a
    folder that became a symlink, or an ``__init__.py`` that was added)."""
    _FOLDERS.clear()
    _NAMES.clear()
    _PACKAGES.clear()
    _ABS.clear()
    _DEEPEST.clear()


def _is_package(folder: "Path | str") -> bool:
    """Whether a folder holds an ``__init__.py``, asked once per folder and run."""
    key = str(folder)
    known = _PACKAGES.get(key)
    if known is None:
        known = _PACKAGES[key] = os.path.isfile(os.path.join(key, "__init__.py"))
    return known


def buffer_packages(names: Iterable[str]) -> None:
    """An editor's buffers named ``__init__.py`` make their folders packages for this
    run, saved or not: a buffer stands for its file (``runner.run_buffers``; a review,
    session 40: a new package's ``__init__.py``, open and unsaved, did not)."""
    for name in names:
        folder, base = os.path.split(str(_abs(Path(name))))
        if base == "__init__.py":
            _PACKAGES[folder] = True


def _abs(path: Path) -> Path:
    """Absolute and normalised, without following symlinks twice in two ways: every
    path of a run goes through here, so they compare equal. A file that is not a
    symlink resolves as its folder does (each folder resolved once per run: resolving
    every path afresh was most of a warm run's time), and each path is answered once
    per run (a run asks about each file several times)."""
    key = os.path.abspath(path)  # (the working folder can change between runs in one process)
    known = _ABS.get(key)
    if known is None:
        known = _ABS[key] = _absolute(path)
    return known


def _absolute(path: Path) -> Path:
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
    the current directory — when it holds ``start``; a file outside the current
    directory and outside any project is a project of its own folder. With no marker
    the root only names modules: the files read are the paths named and what they
    import (``import_closure``), never the whole folder — a run from a home directory
    or ``/tmp`` would otherwise read every Python file under it."""
    if config_root is not None:
        return _abs(config_root)
    cwd = _abs(Path.cwd())
    folder = _named_folder(start) if start is not None else cwd
    for d in (folder, *folder.parents):
        if is_marked(d):
            return _abs(d)
    if _holds(cwd, folder):
        return cwd
    return _abs(folder)


def explicit_config_root(config_path: Path, start: Optional[Path]) -> Optional[Path]:
    """The project root for a config named with ``--config``, where the paths start
    (``common_start``): the config's folder when it holds them (the same root as if
    it were discovered), else the nearest marked folder above the config when that
    holds them (a config kept in ``ci/``); else None, and the root is found from the
    paths (a config shared by several repositories). Either way it does not depend on
    which of a project's files a run names, nor on the working directory
    (docs/configuration.md, "The project")."""
    folder = _abs(config_path).parent
    begin = _named_folder(start) if start is not None else _abs(Path.cwd())
    if _holds(folder, begin):
        return folder
    for d in (folder, *folder.parents):
        if is_marked(d):
            return d if _holds(d, begin) else None
    return None


def _holds(d: Path, folder: Path) -> bool:
    """Whether the (resolved) folder ``d`` is ``folder`` or above it, by the way
    ``folder`` was named or by where it leads."""
    return any(d == f or d in f.parents for f in (folder, _abs(folder)))


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
    return Path(os.path.commonpath([str(_named_folder(p)) for p in paths]))


def _named_folder(path: Path) -> Path:
    """The folder a named path stands in, as named (absolute, symlinks not followed):
    itself for a folder, else the folder it is named in. A symlinked file or folder
    belongs to the project it is named in, not to its target's (docs/decisions.md
    "Symlinked files"); the root search goes up from here and resolves what it finds."""
    full = Path(os.path.abspath(path))
    return full if full.is_dir() else full.parent


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


def _dotted_parts(parts: List[str]) -> Optional[str]:
    """The dotted name of a relative path given as its parts, or None."""
    parts = [p for p in parts if p]
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
    memo_key = (str(path), tuple(str(r) for r in roots))
    known = _NAMES.get(memo_key)
    if known is None:
        primary, aliases = _module_names(path, roots)
        known = _NAMES[memo_key] = (primary, tuple(aliases))
    return known[0], list(known[1])


def names_memo(roots: Sequence[Path]) -> Callable[[str, str, Sequence[str]], None]:
    """``module_names``' answers, known already (a snapshot's), for many paths (given
    as their text) under the same ``roots``: an editor's run remembers every file of
    the project."""
    under = tuple(map(str, roots))

    def remember(path: str, module: str, aliases: Sequence[str]) -> None:
        _NAMES[(path, under)] = (module, tuple(aliases))
    return remember


def looked_at() -> List[str]:
    """The folders this run has asked for an ``__init__.py``: module names depend on
    their listings (``snapshot``). (A folder resolved by ``_abs`` depends on its
    parent's listing: a project folder's parent is walked, and the roots are found
    again by every run.)"""
    return list(_PACKAGES)


def _module_names(path: Path, roots: Sequence[Path]) -> Tuple[str, List[str]]:
    # (strings, not ``pathlib``: this runs for every file of every run, and the path
    # arithmetic was most of an editor's run key on 400 files)
    full = str(_abs(path))
    folder, name = os.path.split(full)
    by_package = _package_name(folder, name)
    by_root: List[str] = []
    for r in _deepest_first(roots):
        prefix = r if r.endswith(os.sep) else r + os.sep
        if not full.startswith(prefix):
            continue
        dotted = _dotted_parts(full[len(prefix):].split(os.sep))
        if dotted and dotted not in by_root:
            by_root.append(dotted)
    regular = _is_package(folder)
    inside = _inside_package_readings(folder, by_package, roots)
    # (a plain folder inside a regular package is named through that package, as its
    # own package's relative imports name it, even below a root that is the package
    # itself: crawl4ai's `components/`, checked from inside `crawl4ai/`; held-out set 178)
    # (a regular package whose top sits in plain folders inside a regular package:
    # the longer name too, as Python imports it and as its relative imports reach
    # above its own top; held-out set 320, Django's `app/management/commands/` with
    # no `management/__init__.py`)
    primary = (inside or [by_package])[0] if regular else (inside or by_root or [by_package])[0]
    readings = _namespace_readings(folder, by_package, _deepest_first(roots))
    aliases = [n for n in [by_package, *by_root, *inside, *readings] if n != primary]
    return primary, list(dict.fromkeys(aliases))


def _inside_package_readings(folder: str, by_package: str, roots: Sequence[Path]) -> List[str]:
    """The names Python gives a file whose top package (or, for a file in a plain
    folder, the file itself) sits in plain folders (no ``__init__.py``) inside a regular
    package: ``pkgx/sub/helper.py`` with ``pkgx/__init__.py`` is imported as
    ``pkgx.sub.helper`` (``sub`` a namespace portion of ``pkgx``'s path) wherever the
    ``src`` roots are (prefect-aws ships ``prefect_aws/observers/`` so; held-out set
    125). At most ``NAMESPACE_DEPTH`` plain folders, each named as an identifier; each
    of the package's own names leads one reading. None when no package is that near,
    or a ``src`` root comes first (a root is asked, no folder above it: a run's
    snapshot depends on the listings of the folders asked)."""
    top = _top_holder(folder, by_package)
    if top is None:
        return []
    parts = [by_package]
    at_roots = set(_deepest_first(roots))
    for _ in range(NAMESPACE_DEPTH):
        base = os.path.basename(top)
        if top in at_roots or not _importable(base):
            return []  # (a root's own package is asked; nothing above it: ``snapshot``)
        parts.insert(0, base)
        parent = os.path.dirname(top)
        if parent == top:
            return []
        top = parent
        if _is_package(top):
            package, others = module_names(Path(top, "__init__.py"), roots)
            rest = ".".join(parts)
            return [f"{n}.{rest}" for n in (package, *others)]
    return []


def _top_holder(folder: str, by_package: str) -> Optional[str]:
    """The folder holding the top package of a file in ``folder`` (its own folder when
    that is no package), or None when its package name has a part no import can name
    or the packages reach the file system's root."""
    if not all(_importable(p) for p in by_package.split(".")):
        return None
    top = folder
    while _is_package(top):
        parent = os.path.dirname(top)
        if parent == top:
            return None
        top = parent
    return top


#: how many folders above a file's top package may be namespace packages
#: (``google/cloud/storage/x.py``: two)
NAMESPACE_DEPTH = 3


def _importable(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name)


def namespace_root(top: str, roots: Sequence[str] = ()) -> Optional[Tuple[str, List[str]]]:
    """The import root a folder shows to be one, and the namespace folders below it:
    from ``top`` (the folder holding a file's top package, or the file's own folder)
    up through at most ``NAMESPACE_DEPTH`` folders named as identifiers without an
    ``__init__.py``, to a folder whose name is no identifier (``cylc_flow-8.5.4/``,
    ``site-packages/``): no import can go through such a folder, so only a path entry
    holds what is below it. None when there is no such folder that near, or a ``src``
    root comes first (below one, the path names the file already), or a regular package
    sits above the namespace folders: a folder named like an identifier might itself be
    anything (``tools/http/client.py`` is no ``http.client``)."""
    chain: List[str] = []
    cur = top
    for _ in range(NAMESPACE_DEPTH + 1):
        if cur in roots:
            return None
        base = os.path.basename(cur)
        if not _importable(base):
            return (cur, chain) if chain else None
        if chain and _is_package(cur):
            return None
        chain.insert(0, base)
        parent = os.path.dirname(cur)
        if parent == cur:
            return None
        cur = parent
    return None


def _namespace_readings(folder: str, by_package: str, roots: Sequence[str]) -> List[str]:
    """The longer name a file is imported under when the folders above its top package
    are namespace packages (no ``__init__.py``) below a folder that can only be an
    import root (``namespace_root``): in an unpacked wheel, ``cylc_flow-8.5.4/cylc/flow/x.py``
    (``flow`` a regular package, ``cylc`` none) is ``flow.x`` by the package rule and
    also ``cylc.flow.x``, so ``from cylc.flow.x import f`` resolves wherever the ``src``
    roots are (a config kept in another folder). An alias only: it never shadows a
    module's own name."""
    top = _top_holder(folder, by_package)
    if top is None:
        return []
    found = namespace_root(top, roots)
    return [".".join([*found[1], by_package])] if found is not None else []


def _stem(name: str) -> str:
    """``Path(name).stem``."""
    i = name.rfind(".")
    return name[:i] if 0 < i < len(name) - 1 else name


def _package_name(folder: str, name: str) -> str:
    """``frontend.module_name`` (the package rule) for the file ``name`` in the absolute
    ``folder``, asking each folder for its ``__init__.py`` once per run."""
    stem = _stem(name)
    parts = [] if stem == "__init__" else [stem]
    while _is_package(folder):
        parts.insert(0, os.path.basename(folder))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return ".".join(parts) if parts else stem


_DEEPEST: Dict[Tuple[str, ...], List[str]] = {}  # roots -> absolute, deepest first (per run)


def _deepest_first(roots: Sequence[Path]) -> List[str]:
    k = tuple(str(r) for r in roots)
    known = _DEEPEST.get(k)
    if known is None:
        absolute = {_abs(r) for r in roots}
        known = _DEEPEST[k] = [str(r) for r in sorted(absolute, key=lambda r: len(r.parts), reverse=True)]
    return known


def import_closure(named: Sequence[Path], anchors: Sequence[Path],
                   admit: Callable[[Path], bool] = lambda p: True,
                   sources: Optional[Mapping[Path, bytes]] = None,
                   memo: Optional["KnownImports"] = None) -> List[Path]:
    """The project of a run with no marker and no config: the files named and,
    transitively, the project files their imports name (as mypy follows imports),
    never the rest of the folder they sit in.

    A module ``a.b`` is looked up as ``a/b.py`` or ``a/b/__init__.py`` (and its
    packages' ``__init__.py``) below each anchor: the ``src`` roots, and the folder
    holding each named file's top package (package rule). Imports are read with
    CPython's ``ast``, in any scope; ``from . import x`` is relative to the file's
    package. A file that does not parse adds nothing (it is an OC900 if named).
    ``sources``: the text of files open in an editor or read from stdin (absolute
    path → bytes), whose imports are read there rather than from the disk: a buffer
    that gains an import before it is saved follows it (a review, session 41).
    ``memo``: the imports of files read by earlier runs (``snapshot.ImportsMemo``)."""
    texts = {_abs(Path(k)): v for k, v in (sources or {}).items()}
    roots: List[Path] = [_abs(a) for a in anchors]
    rooted: Set[Path] = set(roots)
    below = _ModuleFiles([str(r) for r in roots])
    judged: Set[str] = set()  # candidate files already admitted or refused
    out: List[Path] = []
    seen: Set[Path] = set()
    queue: deque = deque()

    def push(p: Path) -> None:
        k = _abs(p)
        if k not in seen:
            seen.add(k)
            queue.append(p)

    for p in named:
        push(p)
    while queue:
        f = queue.popleft()
        out.append(f)
        if not f.name.endswith(".py"):
            continue
        whole = _abs(f)
        parts = module_name(whole).split(".")
        top = whole.parent
        for _ in range(len(parts) - (1 if f.stem != "__init__" else 0)):
            top = top.parent
        # a plain folder inside a regular package (`pkgx/sub/caller.py`), or a regular
        # package in one (`pkgx/management/commands/cmd.py`, no `management/__init__.py`;
        # held-out set 320): Python's name, through the package, is what `from ..core
        # import x` is relative to
        inside = _inside_package_readings(str(whole.parent), ".".join(parts), roots)
        if inside:
            parts = inside[0].split(".")
        package = f.stem == "__init__"
        text = texts.get(whole)
        if memo is not None and text is None:
            imported = memo.imports(str(whole), ".".join(parts), package,
                                    lambda: _imported(whole, parts, package))
        else:
            imported = _imported(whole, parts, package, text)
        anchors = [top]
        boundary = namespace_root(str(top))  # `.../cylc_flow-8.5.4/cylc/flow/y.py`: `cylc` a namespace
        if boundary is not None:  # package, and the wheel's folder an import root
            anchors.append(Path(boundary[0]))
        above = _package_above(str(top))  # `proj-1.0/pkg/tests/test_x.py`, `tests` a plain folder
        if above is not None:
            anchors.append(Path(above))
        for anchor in anchors:
            if anchor not in rooted:
                rooted.add(anchor)
                below.add(str(anchor))
        for wanted in imported:
            pieces = wanted.split(".")
            if not all(pieces):
                continue
            for i in range(1, len(pieces) + 1):
                for cand in below.files(pieces[:i]):
                    if cand not in judged:
                        judged.add(cand)
                        if admit(Path(cand)):
                            push(Path(cand))
    return out


class KnownImports(Protocol):
    """What ``import_closure`` asks of a memo of files' imports (``snapshot.ImportsMemo``)."""

    def imports(self, path: str, module: str, package: bool, read: Callable[[], List[str]]) -> List[str]: ...


class _ModuleFiles:
    """Where a module's files are below a growing list of import roots: ``a/b.py`` or
    ``a/b/__init__.py`` below each root, in the roots' order. Each folder is listed
    once, and the roots are indexed by the names they hold, so a lookup visits only
    the roots holding the module's top name, and a lookup asked again after new roots
    came looks below those alone (held-out set 99: every module looked up again below
    every root was 30 million ``stat`` calls on litellm, a minute of a one-file run).
    A name matches as listed, case and all, as Python's import does."""

    def __init__(self, folders: Iterable[str]) -> None:
        self.folders: List[str] = []
        self.heads: Dict[str, List[int]] = {}  # a top name -> the roots holding it
        self.listed: Dict[str, FrozenSet[str]] = {}
        self.found: Dict[Tuple[str, ...], Tuple[int, List[str]]] = {}  # -> (roots seen, files)
        for f in folders:
            self.add(f)

    def add(self, folder: str) -> None:
        i = len(self.folders)
        self.folders.append(folder)
        for name in self._entries(folder):
            held = self.heads.setdefault(name[:-3] if name.endswith(".py") else name, [])
            if not held or held[-1] != i:
                held.append(i)

    def _entries(self, folder: str) -> FrozenSet[str]:
        got = self.listed.get(folder)
        if got is None:
            try:
                got = frozenset(os.listdir(folder))
            except OSError:  # (no folder, or no longer one)
                got = frozenset()
            self.listed[folder] = got
        return got

    def files(self, pieces: Sequence[str]) -> List[str]:
        key = tuple(pieces)
        done, files = self.found.get(key, (0, []))
        if done == len(self.folders):
            return files
        files = list(files)
        for i in self.heads.get(pieces[0], ()):
            if i < done:
                continue
            d = self.folders[i]
            for piece in pieces[:-1]:
                if piece not in self._entries(d):
                    break
                d = os.path.join(d, piece)
            else:
                last, held = pieces[-1], self._entries(d)
                package = os.path.join(d, last, "__init__.py")
                if last in held and "__init__.py" in self._entries(os.path.join(d, last)) and os.path.isfile(package):
                    files.append(package)
                module = os.path.join(d, last + ".py")
                if last + ".py" in held and os.path.isfile(module):
                    files.append(module)
        self.found[key] = (len(self.folders), files)
        return files


def _package_above(top: str) -> Optional[str]:
    """The folder holding the regular package a plain folder sits in: ``top`` (the
    folder holding a file's top package, or its own folder) is no package, but one of
    the ``NAMESPACE_DEPTH`` folders above it is (opsdroid's
    ``opsdroid/connector/twitch/tests/test_x.py``, ``tests`` without ``__init__.py``;
    held-out set 81). A test run there has the package's own folder on its path (an
    install, the current directory), so ``from opsdroid.connector import x`` in the
    file is looked up below it, as a run naming the whole folder would know it. None
    when no package is that near."""
    cur = top
    for _ in range(NAMESPACE_DEPTH):
        parent = os.path.dirname(cur)
        if parent == cur:
            return None
        cur = parent
        if _is_package(cur):
            while _is_package(os.path.dirname(cur)) and os.path.dirname(cur) != cur:
                cur = os.path.dirname(cur)
            holder = os.path.dirname(cur)
            return holder if holder != cur else None
    return None


_BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)


def _statements(tree: ast.Module) -> Iterator[ast.AST]:
    """The statements of a module, nested ones too, in ``ast.walk``'s order: an import
    is a statement, so no expression is walked (a fifth of the nodes)."""
    todo: "deque[ast.AST]" = deque([tree])
    while todo:
        node = todo.popleft()
        todo.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, _BLOCKS))
        yield node


def _imported(path: Path, module: List[str], is_package: bool, data: Optional[bytes] = None) -> List[str]:
    """The absolute module names a file's imports may load (``from m import x``: ``m``
    and ``m.x``, since ``x`` may be a submodule); ``data``: its text, when a buffer."""
    try:
        if data is None:
            if not path.is_file():  # a FIFO or a device named on the command line: never opened here
                return []
            data = path.read_bytes()
        tree = cast(ast.Module, parse_ast(data))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    package = module if is_package else module[:-1]
    out: List[str] = []
    for node in _statements(tree):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level - 1 <= len(package) else []
                stem = ".".join([*base, *([node.module] if node.module else [])])
            else:
                stem = node.module or ""
            if stem:
                out.append(stem)
            out.extend(f"{stem}.{a.name}" if stem else a.name for a in node.names if a.name != "*")
    return out
