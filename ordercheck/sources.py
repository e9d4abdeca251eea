"""The pipeline's first phases: which files a run reads (``plan_project``: the files
named, and the whole project around them, semantics §Surfaces) and their facts
(``read_plan``: one ``facts.extract`` per file, from the facts cache when its bytes
were seen before, in a process pool when there is enough work).

Also the path rules those phases follow: globs (``exclude``, ``per-file-ignores``)
matched in linear time, folders walked without following what must not be opened
(FIFOs, devices), and files read without blocking.
"""
from __future__ import annotations

import functools
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import AbstractSet, Collection, Dict, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

from . import cache as cachemod
from . import config as configmod
from . import frontend
from . import project as projectmod
from . import snapshot as snapshotmod
from .cache import Cache
from .errors import raise_if_interrupted
from .filepaths import location, real_path, root_relative
from .frontend.source import gc_paused
from .ir import FileFacts, ParseError
from .settings import Settings

SKIP_DIRS = {".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "build", "dist", ".tox", "node_modules", ".ordercheck_cache", ".mypy_cache", ".pytest_cache", ".nox", ".eggs"}

@functools.lru_cache(maxsize=1024)
def _compiled(pattern: str) -> "configmod.GlobTokens":
    return configmod.compile_glob(pattern)


def _step(tokens: "configmod.GlobTokens", states: Set[int], ch: str) -> Set[int]:
    """One character. A state is a token index; ``~i`` is "inside the ``**/`` at
    ``i``" (some characters consumed, a ``/`` still due)."""
    nxt: Set[int] = set()
    for i in states:
        if i < 0:  # inside a `**/`
            nxt.add(i)
            if ch == "/":
                nxt.add(~i + 1)
            continue
        if i == len(tokens):
            continue
        tok = tokens[i]
        kind = tok[0]
        if kind == "lit":
            if ch == tok[1]:
                nxt.add(i + 1)
        elif kind == "any":
            if ch != "/":
                nxt.add(i + 1)
        elif kind == "class":
            if ch != "/" and any(lo <= ch <= hi for lo, hi in tok[2]) != tok[1]:
                nxt.add(i + 1)
        elif kind == "star":
            if ch != "/":
                nxt.add(i)
        elif kind == "dstar":
            nxt.add(i)
        else:  # dstardir: anything, then a `/` ends it
            nxt.add(~i)
            if ch == "/":
                nxt.add(i + 1)
    return _closure(tokens, nxt)


def _closure(tokens: "configmod.GlobTokens", states: Set[int]) -> Set[int]:
    """Add what a ``*``, ``**`` or ``**/`` matching nothing reaches."""
    todo = [i for i in states if i >= 0]
    while todo:
        i = todo.pop()
        if i < len(tokens) and tokens[i][0] in ("star", "dstar", "dstardir") and i + 1 not in states:
            states.add(i + 1)
            todo.append(i + 1)
    return states


def glob_match(tokens: "configmod.GlobTokens", path: str) -> bool:
    """Does ``path`` (``/``-separated) match the glob, or lie under a folder that
    does? A set-of-states simulation: time is len(path) × len(glob), never
    exponential (a regex of many ``*`` backtracks)."""
    end = len(tokens)
    states = _closure(tokens, {0})
    for ch in path:
        if ch == "/" and end in states:
            return True  # a folder matched: everything under it does
        states = _step(tokens, states, ch)
        if not states:
            return False
    return end in states


def path_matches(rel: str, patterns: Sequence[str]) -> bool:
    rel = rel.replace(os.sep, "/")
    name = rel.rsplit("/", 1)[-1]
    for p in patterns:
        p = p.rstrip("/")
        anchored = "/" in p  # (`./tests`: this folder's `tests`; `tests`: any depth)
        if p.startswith("./"):
            if rel.startswith("/"):
                continue  # (`./**` is the project's: a path outside it is absolute)
            while p.startswith("./"):
                p = p[2:]
        try:
            tokens = _compiled(p)
        except ValueError:
            continue  # validated with the config; a glob that cannot match matches nothing
        if glob_match(tokens, rel) or (not anchored and glob_match(tokens, name)):
            return True
    return False


def _folders_below(path: Path, root: Path) -> List[str]:
    """The folders ``path`` lies in below ``root``, each as `/`-rooted text (only a glob
    without `/` matches them, by name), through symlinks on either side."""
    try:
        inner = Path(os.path.realpath(path)).relative_to(os.path.realpath(root))
    except ValueError:
        return []
    return ["/" + "/".join(inner.parts[:depth]) for depth in range(1, len(inner.parts))]


def per_file_ignores_of(path: str, config: configmod.Config) -> List[str]:
    """The ``per-file-ignores`` globs that hold a file (``runner.rules_for`` takes their
    codes out; ``suggest`` lists the globs that hold no file)."""
    if not config.per_file_ignores:
        return []
    rel = relative_path(Path(path), config.root)
    parts = rel.split("/")
    # the file, or a folder it lies in, as `exclude` prunes a folder of a walk
    # (`"tests" = ["OC1"]` covers `pkg/tests/test_x.py`; held-out set 183)
    held = [rel] + ["/".join(parts[:depth]) for depth in range(1, len(parts))]
    if rel.startswith("/") or ":" in parts[0]:
        # a file outside the config's folder (`--config elsewhere/x.toml`) is matched
        # by its absolute path, and by the folders it lies in below its project's
        # root (`project.find_root`: a `pyproject.toml` or `.git` above it, else the
        # working folder), which a glob without `/` matches by name, as a walk of the
        # project prunes them with `exclude` (held-out set 190); not the folders above
        # the project (a review), and the same from any working folder inside it
        held = [rel] + _folders_below(Path(path), projectmod.find_root(Path(path)))
    return [pattern for pattern in config.per_file_ignores if any(path_matches(p, [pattern]) for p in held)]


def relative_path(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` (``/``-separated), as globs match it; a path
    outside ``root`` absolute, so that no relative glob of the config matches it
    (``--config cfg/pyproject.toml`` with ``exclude = ["gen/**"]`` means ``cfg/gen``,
    not ``./gen``); a glob without ``/`` still matches its name. A symlinked file is
    matched by the name it was found by, as it is reported (``filepaths.location``)."""
    rel = root_relative(path, root)
    return Path(os.path.abspath(path)).as_posix() if rel is None else rel


def _is_dir(p: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(p).st_mode)
    except (OSError, ValueError):
        return False


def _walked_file_wanted(f: Path) -> bool:
    """A ``*.py`` met while walking: regular files, and entries that cannot be
    examined (a symlink loop, a dangling link: they get an OC900 naming why);
    FIFOs, sockets and devices are skipped — opening a FIFO would block."""
    try:
        mode = os.stat(f).st_mode
    except (OSError, ValueError):
        return True
    return stat.S_ISREG(mode)


def is_virtualenv(folder: Path) -> bool:
    """A virtual environment under any name (``.ci-venv``, ``env``): it holds a
    ``pyvenv.cfg``. Its site-packages are nobody's project code, and walking them
    for the project's summaries would cost minutes."""
    try:
        return (folder / "pyvenv.cfg").is_file()
    except OSError:
        return False


def collect_files(paths: Sequence[Path], config: configmod.Config, force_exclude: bool = False,
                  looked: Optional[List[str]] = None) -> List[Path]:
    """``*.py`` under directories (skipping the usual suspects and ``exclude``);
    a path named explicitly that is not a folder is always returned (``read_facts``
    says why when it is not a regular readable file), and so is a folder that cannot
    be read — neither is skipped in silence.
    A file named explicitly is dropped only under ``force_exclude`` (what pre-commit
    passes), which applies ``exclude`` to it too.

    ``looked`` collects every folder whose listing the answer depends on (each
    path's own folder, the folders walked and those checked for a virtual
    environment: ``snapshot``); a folder that cannot be read adds ``"\0"``, which
    no snapshot trusts."""
    out: List[Path] = []
    seen = set()
    note = looked.append if looked is not None else (lambda folder: None)

    def add(f: Path) -> None:
        if f not in seen:
            seen.add(f)
            out.append(f)

    def unreadable(exc: OSError) -> None:
        note("\0")
        add(Path(exc.filename) if exc.filename else Path("."))

    included = Included(config)
    for p in paths:
        if force_exclude and force_excluded(p, config):
            continue
        if not _is_dir(p):
            note(os.path.dirname(os.path.abspath(p)))  # (a folder walked is noted as it is walked)
            add(p)
            continue
        # a folder that holds an included path is walked inside ``include``; one apart
        # from every included path was asked for by name, and is walked whole
        inside = included if included.may_hold(p) else Included(None)
        for dirpath, dirnames, filenames in os.walk(p, onerror=unreadable):
            note(os.path.abspath(dirpath))
            d = Path(dirpath)
            keep = []
            for name in sorted(dirnames):
                sub = d / name
                if is_suspect(name, sub):
                    continue
                if is_virtualenv(sub):
                    note(os.path.abspath(sub))  # (one that is walked is noted as it is walked)
                    continue
                if config.exclude and path_matches(relative_path(sub, config.root), config.exclude):
                    continue
                if not inside.may_hold(sub):
                    continue
                keep.append(name)
            dirnames[:] = keep
            for name in sorted(filenames):
                if not name.endswith(".py"):
                    continue
                f = d / name
                if config.exclude and path_matches(relative_path(f, config.root), config.exclude):
                    continue
                if not inside.admits(f):
                    continue
                if _walked_file_wanted(f):
                    add(f)
    return out


class Included:
    """What the config's ``include`` admits of a walk (docs/decisions.md "A walk stays
    inside `include`"): with ``include`` set, a folder walked that holds an included
    path yields only the files under one, so ``ordercheck .`` checks what
    ``ordercheck`` does, and the project whose summaries a one-file run uses is the
    same. A file named explicitly, and a folder named apart from every included
    path, are checked all the same (None: no ``include``, everything admitted).
    Folders are compared resolved, a file by the name it was found by (as it is
    reported: ``filepaths.location``), and
    a glob entry is matched, not expanded: a walk pays a few string tests per file."""

    def __init__(self, config: Optional[configmod.Config]) -> None:
        self.active = bool(config and config.include)
        self.tops: List[str] = []
        self.globs: List[str] = []
        self.root = ""
        if config is None or not self.active:
            return
        self.root = real_path(config.root)
        for pattern in config.include:
            if any(ch in pattern for ch in "*?["):
                self.globs.append(pattern)
            else:
                self.tops.append(real_path(config.root / pattern).rstrip(os.sep))

    def _rel(self, real: str) -> Optional[str]:
        if real == self.root:
            return "."
        if not real.startswith(self.root.rstrip(os.sep) + os.sep):
            return None
        return real[len(self.root.rstrip(os.sep)) + 1:].replace(os.sep, "/")

    def admits(self, path: "os.PathLike[str] | str") -> bool:
        if not self.active:
            return True
        real = str(location(path))  # (a symlinked file by its own name, as reported)
        if any(real == t or real.startswith(t + os.sep) for t in self.tops):
            return True
        if self.globs:
            rel = self._rel(real)
            if rel is not None and rel != ".":
                parts = rel.split("/")
                return any(path_matches("/".join(parts[:k]), self.globs) for k in range(1, len(parts) + 1))
        return False

    def may_hold(self, folder: "os.PathLike[str] | str") -> bool:
        """Whether a folder is inside an included path or on the way to one (a glob
        entry: any folder below the config's may)."""
        if not self.active:
            return True
        real = real_path(folder).rstrip(os.sep)
        if any(t == real or t.startswith(real + os.sep) or real.startswith(t + os.sep) for t in self.tops):
            return True
        return bool(self.globs) and self._rel(real) is not None


#: usual suspects that a package of the project may be named: ``ase/build/`` (with its
#: ``__init__.py``) is ase's own code, imported as ``ase.build``, where a build's output
#: holds none (docs/decisions.md "A package named build"; held-out set 157)
PACKAGE_NAMES = frozenset({"build", "dist"})


def is_suspect(folder_name: str, folder: Optional[Path] = None) -> bool:
    """A folder no walk of a project enters by its name (``SKIP_DIRS``, ``*.egg-info``),
    unless it is a package (``PACKAGE_NAMES``, ``folder`` given: it holds ``__init__.py``)."""
    if folder_name in PACKAGE_NAMES and folder is not None and (folder / "__init__.py").is_file():
        return False
    return folder_name in SKIP_DIRS or folder_name.endswith(".egg-info")


def is_excluded(path: Path, config: configmod.Config) -> bool:
    """Whether ``exclude`` (relative to the config's folder) covers ``path``."""
    return bool(config.exclude) and path_matches(relative_path(path, config.root), config.exclude)


def force_excluded(path: Path, config: configmod.Config) -> bool:
    """What ``--force-exclude`` drops of a path named explicitly: what a walk of the
    project never reaches, so that a pre-commit run on one file reports there what
    the whole project's run reports (semantics §Surfaces): ``exclude``, and below
    the config's folder the usual suspects (``build``, ``.venv``, ...) and virtual
    environments, and what ``include`` leaves out. (A path outside that folder is
    judged by ``exclude`` and ``include`` alone: the folders above a project are
    nobody's suspects.)"""
    if is_excluded(path, config):
        return True
    if config.include:
        included = Included(config)
        if not included.admits(path) and not (_is_dir(path) and included.may_hold(path)):
            return True  # (a walk keeps inside ``include``)
    rel = relative_path(path, config.root)
    if rel.startswith("/") or rel.startswith(".."):
        # a config kept elsewhere (`--config ci/ordercheck.toml`): the walk from the
        # working folder prunes a folder whose name an `exclude` glob matches
        # (`migrations`) wherever it is, so the folders between here and the path do
        # too (held-out set 268: a pre-commit run checked what the whole run pruned)
        # (and the usual suspects, `build`, `.venv`, as the walk prunes them: a second review)
        return any(is_suspect(d.name, d) or is_virtualenv(d)
                   or (bool(config.exclude) and path_matches(relative_path(d, config.root), config.exclude))
                   for d in _folders_below_cwd(path))
    if rel == ".":
        return False
    parts = rel.split("/")
    here = config.root
    for depth, name in enumerate(parts if _is_dir(path) else parts[:-1], 1):
        if is_suspect(name, here / name):
            return True
        if config.exclude and path_matches("/".join(parts[:depth]), config.exclude):
            return True  # a folder the walk prunes (`exclude = ["tests"]` for `pkg/tests/t.py`)
        here = here / name
        if is_virtualenv(here):
            return True
    return False


def _folders_below_cwd(path: Path) -> List[Path]:
    """The folders a path stands in below the working folder, outermost first (none
    for a path outside it: a walk from here never passed the folders above)."""
    try:
        rel = Path(os.path.relpath(os.path.abspath(path), os.getcwd()))
    except (OSError, ValueError):
        return []
    if rel.parts[:1] == ("..",):
        return []
    return [Path(*rel.parts[:k]) for k in range(1, len(rel.parts) if not _is_dir(path) else len(rel.parts) + 1)]


def include_paths(config: configmod.Config) -> List[Path]:
    """The config's ``include``: paths or globs relative to the config's folder."""
    out: List[Path] = []
    for pattern in config.include:
        if any(ch in pattern for ch in "*?["):
            out.extend(sorted(config.root.glob(pattern)))
        else:
            out.append(config.root / pattern)
    return out


def default_paths(config: configmod.Config, here: Path) -> List[Path]:
    """What a run checks when no path is named: the config's ``include``, else ``here``."""
    return include_paths(config) if config.include else [here]


def display_path(path: "os.PathLike[str] | str") -> str:
    """The path as findings show it: relative to the working folder, or absolute for a
    file outside it (as ruff shows one, and as ``--diff`` names it; held-out set 291:
    `../probes/p31.py`). Remembered per path and folder (a run shows each file several
    times, ``relpath`` is costly)."""
    key = (os.fspath(path), os.getcwd())
    shown = _SHOWN.get(key)
    if shown is None:
        try:
            shown = os.path.relpath(path)
        except ValueError:
            shown = str(path)
        if shown == ".." or shown.startswith(".." + os.sep):
            shown = os.path.abspath(path)
        if len(_SHOWN) > 200_000:  # (a long-lived language server)
            _SHOWN.clear()
        _SHOWN[key] = shown
    return shown


_SHOWN: Dict[Tuple[str, str], str] = {}


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _not_regular(mode: int) -> str:
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return f"not a regular file ({kind})" if kind != "not a regular file" else kind


def read_source(path: Path) -> bytes:
    """The bytes of a regular file. Raises ``OSError`` or ``ValueError`` with a
    message for a user: the file is checked before it is opened, and opened
    non-blocking, so a FIFO (or a file swapped for one) never blocks the run."""
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        os.listdir(path)  # an unreadable folder raises here, naming why
        raise ValueError("is a folder (folders are walked for *.py)")
    if not stat.S_ISREG(mode):
        raise ValueError(_not_regular(mode))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "rb") as fh:
        mode = os.fstat(fh.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(_not_regular(mode))
        return fh.read()


def _unreadable(path: Path, shown: str, why: str) -> FileFacts:
    f = FileFacts(path=shown, module=path.stem)
    f.error = ParseError(why)
    return f


# the functions wanted whole (qualified names; ``frontend.extract``), or None: all of them
Units = Optional[AbstractSet[str]]


def read_facts(path: Path, data: Optional[bytes] = None, shown: Optional[str] = None,
               cache: Optional[Cache] = None, roots: Sequence[Path] = (), light: bool = False,
               outline: bool = False, units: Units = None, outlined: Optional[FileFacts] = None,
               compile_later: bool = False) -> FileFacts:
    """Facts of one file, from the cache when its bytes have been seen before. With
    ``roots`` (the project's ``src`` roots) the module name follows them. ``light``:
    the cache's light form will do (``cache.lighten``; see ``FullFacts``). ``outline``:
    when the cache has no facts of the file, its outline (``frontend.outline``) will do.
    ``units``: only these functions are wanted whole (``frontend.extract``); facts
    that hold them whole will do, the cache's included. ``outlined``: the file's
    outline, read earlier in this run; the libcst pass of ``units`` builds on it if
    the file's bytes are still those it was made of (``FileFacts.digest``).
    ``compile_later``: an outline takes only ``ast.parse``'s verdict (``verdicts``;
    never with a cache, which keeps only outlines CPython compiles)."""
    facts = _facts(path, data, shown, cache, roots, light, cached_only=False, outline=outline, units=units,
                   outlined=outlined, compile_later=compile_later and cache is None)
    assert facts is not None  # (only a cached-only read comes back empty)
    return facts


def cached_facts(path: Path, cache: Cache, roots: Sequence[Path] = (), light: bool = False,
                 outline: bool = False, units: Units = None) -> Optional[FileFacts]:
    """``read_facts`` when the cache holds the file's facts, else ``None``."""
    return _facts(path, None, None, cache, roots, light, cached_only=True, outline=outline, units=units)


def covers(facts: FileFacts, units: Units) -> bool:
    """Whether ``facts`` hold whole every function ``units`` wants (all of them when
    ``units`` is None)."""
    if not facts.outlined:
        return True
    return units is not None and "<module>" not in units and not (set(units) & set(facts.outlined))


def whole_functions(facts: FileFacts) -> FrozenSet[str]:
    """The qualified names of the functions ``facts`` hold whole."""
    outlined = set(facts.outlined)
    return frozenset(fn.qualname for fn in facts.functions if fn.qualname not in outlined)


def _facts(path: Path, data: Optional[bytes], shown: Optional[str], cache: Optional[Cache],
           roots: Sequence[Path], light: bool, cached_only: bool, outline: bool = False,
           units: Units = None, outlined: Optional[FileFacts] = None,
           compile_later: bool = False) -> Optional[FileFacts]:
    shown = shown or display_path(path)
    if roots:
        module, aliases = projectmod.module_names(path, roots)
    else:
        module, aliases = frontend.module_name(path), []
    if data is None:
        try:
            data = read_source(path)
        except ValueError as exc:
            return _unreadable(path, shown, f"cannot check this path: {exc}")
        except OSError as exc:
            what = "folder" if _is_dir(path) else "file"
            return _unreadable(path, shown, f"cannot read {what}: {exc.strerror or exc}")
    k = cachemod.key(shown, module, data) if cache is not None else ""
    digest = fingerprint(data)
    facts = None
    if cache is not None and light:
        facts = cache.get_light(k)
    if facts is None and cache is not None:
        facts = cache.get(k)
    if facts is not None and not outline and not covers(facts, units):
        # facts of other functions than these: read again, for both (no thrashing
        # between two runs that need different functions of the file)
        units = None if units is None else frozenset(units) | whole_functions(facts)
        facts = None
        if cache is not None:
            cache.hits -= 1  # (not a hit: the file is read)
    if facts is None and cache is not None and outline:
        facts = cache.get_outline(k)
    if facts is None:
        if cached_only:
            return None
        if outline:
            facts = frontend.outline(shown, data, module, compile_later)
        else:
            same = outlined if outlined is not None and outlined.digest == digest else None
            facts = frontend.extract(shown, data, module, units, same)
        if cache is not None and not (facts.error is not None and facts.error.internal):
            # (facts the engine failed to read are its OC901: the next run tries again)
            if facts.outline:
                cache.put_outline(k, facts)
            else:
                cache.put(k, facts)
    facts.module_aliases = list(aliases)
    facts.digest = digest
    return facts


def fingerprint(data: bytes) -> str:
    """``FileFacts.digest`` of a file's bytes."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _worker_init() -> None:
    """A worker leaves Ctrl-C to the main process, which ends the pool at once
    (SIGTERM). A cache entry a worker was writing is then a temporary file that was
    never renamed: no half-written entry is ever read."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


# (path, cache folder, roots, light, outline, units, the file's outline pickled, compile later)
Job = Tuple[str, Optional[str], Tuple[str, ...], bool, bool, Units, Optional[bytes], bool]
#: the outlines a pool's workers are given by ``fork`` (``_read_in_pool``), by path
_INHERITED: Dict[str, FileFacts] = {}


def _read_in_worker(job: Job) -> Tuple[Optional[bytes], int]:
    """Facts pickled here, so that facts too deep to pickle come back as ``None``
    (read again in the main process) instead of breaking the pool's result thread.
    (Pickle between our own processes is fine; it is never read from disk.)

    The file's outline is the one the worker was forked with (``_INHERITED``), or
    comes pickled and is read here with the collector paused: read by the pool's own
    unpickling, a batch's outlines were walked by the worker's young collections,
    half of its collector's time in the libcst pass (docs/performance.md, "Session 26")."""
    import pickle

    path, cache_dir, roots, light, outline, units, pickled, compile_later = job
    outlined: Optional[FileFacts] = _INHERITED.get(path)
    if pickled is not None:
        with gc_paused():
            outlined = pickle.loads(pickled)
    cache = Cache(Path(cache_dir)) if cache_dir else None
    facts = read_facts(Path(path), cache=cache, roots=[Path(r) for r in roots], light=light, outline=outline,
                       units=units, outlined=outlined, compile_later=compile_later)
    try:
        blob: Optional[bytes] = pickle.dumps(facts, protocol=pickle.HIGHEST_PROTOCOL)
    except (RecursionError, pickle.PicklingError):
        blob = None
    return blob, cache.hits if cache else 0


class Shared:
    """One object for each equal callee text, qualified name, tuple of them and
    statement range among the outlines a run holds. Each file's outline comes from
    the pool as its own copy of the texts its calls share with other files; on the
    seven packages of the bench a fifth of the outlines' memory was such copies
    (docs/performance.md, "Session 16")."""

    def __init__(self) -> None:
        self.strs: Dict[str, str] = {}
        self.tuples: Dict[tuple, tuple] = {}

    def outline(self, facts: FileFacts) -> FileFacts:
        strs, tuples = self.strs, self.tuples
        for fn in facts.functions:
            for call in fn.calls:
                call.callee = strs.setdefault(call.callee, call.callee)
                names = call.qualnames
                got = tuples.get(names)
                if got is None:
                    got = tuples[names] = tuple(strs.setdefault(n, n) for n in names)
                call.qualnames = got
                if call.receiver_type is not None:
                    call.receiver_type = strs.setdefault(call.receiver_type, call.receiver_type)
                call.stmt_lines = tuples.setdefault(call.stmt_lines, call.stmt_lines)
        return facts


def _unpickled(blob: Optional[bytes], path: Path, roots: Sequence[Path] = (), outline: bool = False,
               units: Units = None, shared: Optional[Shared] = None) -> FileFacts:
    import pickle

    if blob is not None:
        try:
            facts = pickle.loads(blob)
            if isinstance(facts, FileFacts):
                return shared.outline(facts) if shared is not None and facts.outline else facts
        except (RecursionError, pickle.UnpicklingError, MemoryError):
            pass
    return read_facts(path, roots=roots, outline=outline, units=units)


def _kill_pool(pool) -> None:
    """End a pool now: terminate its workers (``shutdown`` alone waits for every
    pending file — tens of seconds after a Ctrl-C) and reap them."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for proc in procs:
        try:
            proc.terminate()
        except Exception:  # already gone
            pass
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        proc.join(2)
        if proc.is_alive():
            proc.kill()
            proc.join(1)


def read_all(files: Sequence[Path], jobs: int = 1, cache_dir: Optional[Path] = None,
             roots: Sequence[Path] = (), light: bool = False, outline: bool = False,
             units: Optional[Sequence[Units]] = None, outlines: Optional[Sequence[Optional[FileFacts]]] = None,
             compile_later: bool = False, freeze: bool = False,
             parsed: Optional[Set[str]] = None) -> Tuple[List[FileFacts], int]:
    """Facts of every file, in order, in a process pool when there is enough work
    (``outline``: light facts or outlines, see ``read_facts``). Returns the facts and
    the number of cache hits. ``units``: per file, the functions wanted whole
    (``read_facts``; None: the whole file); ``outlines``: per file, its outline read
    earlier in the run, or None (``read_facts``'s ``outlined``); ``compile_later``:
    as ``read_facts``'s, for the files read in the pool. An interrupt (or any error) terminates the workers
    before it propagates: no worker outlives the run. ``freeze``: the facts the pool
    sends back are frozen (``source.gc_paused``); the caller unfreezes them.
    ``parsed``: collects the shown paths of the files read from their bytes (not the
    cache), so that a run counts each file once (``runner.read_focused``)."""
    cache = Cache(cache_dir) if cache_dir else None
    per = list(units) if units is not None else [None] * len(files)
    given = list(outlines) if outlines is not None else [None] * len(files)

    def read_one(i: int) -> FileFacts:
        before = cache.hits if cache is not None else 0
        got = _read(files[i], cache, roots, light, outline, per[i], given[i])
        if parsed is not None and (cache is None or cache.hits == before):
            parsed.add(got.path)
        return got

    if jobs <= 1 or len(files) < 4:
        out = []
        for i in range(len(files)):
            out.append(read_one(i))
            raise_if_interrupted()
        return out, cache.hits if cache else 0
    # What the cache holds is read here: a process pool costs more than reading a
    # cached file (its start-up, and pickling each file's facts back), so only the
    # files to parse go to the pool — in an editor's run, one or none.
    found: List[Optional[FileFacts]] = [None] * len(files)
    if cache is not None:
        for i, p in enumerate(files):
            found[i] = cached_facts(p, cache, roots, light, outline, per[i])
            raise_if_interrupted()
    hits = cache.hits if cache is not None else 0
    todo = [i for i, f in enumerate(found) if f is None]
    if len(todo) < 4:
        for i in todo:
            found[i] = read_one(i)
            raise_if_interrupted()
        return [f for f in found if f is not None], (cache.hits if cache is not None else 0)
    pooled, more = _read_in_pool([files[i] for i in todo], jobs, cache_dir, roots, light, outline,
                                 [per[i] for i in todo], [given[i] for i in todo], compile_later, freeze,
                                 parsed)
    for i, f in zip(todo, pooled):
        found[i] = f
    return [f for f in found if f is not None], hits + more


def _read(path: Path, cache: Optional[Cache], roots: Sequence[Path], light: bool, outline: bool = False,
          units: Units = None, outlined: Optional[FileFacts] = None) -> FileFacts:
    return read_facts(path, cache=cache, roots=roots, light=light, outline=outline, units=units, outlined=outlined)


def _read_in_pool(files: Sequence[Path], jobs: int, cache_dir: Optional[Path], roots: Sequence[Path],
                  light: bool, outline: bool = False, units: Optional[Sequence[Units]] = None,
                  outlines: Optional[Sequence[Optional[FileFacts]]] = None, compile_later: bool = False,
                  freeze: bool = False, parsed: Optional[Set[str]] = None) -> Tuple[List[FileFacts], int]:
    import concurrent.futures as cf
    import multiprocessing
    import pickle

    per = list(units) if units is not None else [None] * len(files)
    given = list(outlines) if outlines is not None else [None] * len(files)
    # A worker made by ``fork`` has the outlines already (this process's heap, frozen
    # by the runner: no collection copies its pages); any other start method gets
    # each pickled, which is also what a worker takes when the run is not forked.
    forked = multiprocessing.get_start_method() == "fork"
    if forked:
        _INHERITED.update((str(p), o) for p, o in zip(files, given) if o is not None)
    work: List[Job] = [(str(p), str(cache_dir) if cache_dir else None, tuple(str(r) for r in roots), light, outline,
                        u, None if o is None or forked else pickle.dumps(o, protocol=pickle.HIGHEST_PROTOCOL),
                        compile_later)
                       for p, u, o in zip(files, per, given)]
    results: List[Tuple[FileFacts, int]] = []
    shared = Shared() if outline else None
    # A ProcessPoolExecutor, not a multiprocessing.Pool: a worker that dies (a crash in
    # a native parser, the OOM killer) breaks the pool with an error instead of
    # leaving the run waiting for ever; its files are then read here.
    pool = cf.ProcessPoolExecutor(max_workers=min(jobs, len(files)), initializer=_worker_init)
    try:
        ranges = batches(files, jobs)
        futures = [pool.submit(_read_batch_in_worker, work[a:b]) for a, b in ranges]
        # the facts coming in are acyclic: a collection would only walk them (and,
        # when they live to the end of the run, the caller has them frozen)
        with gc_paused(freeze=freeze):
            _collect(files, per, ranges, futures, roots, outline, shared, results)
    except BaseException:
        _kill_pool(pool)
        raise
    finally:
        _INHERITED.clear()
    pool.shutdown(wait=True)
    if parsed is not None:
        parsed.update(f.path for f, h in results if not h)
    return [f for f, _ in results], sum(h for _, h in results)


#: batches a pool's files are handed out in, per worker (``batches``)
BATCHES_PER_WORKER = 24
#: the most files in one batch
BATCH_FILES = 64


def batches(files: Sequence[Path], jobs: int) -> List[Tuple[int, int]]:
    """The (start, end) ranges of ``files`` a pool is handed, in order: runs of
    neighbouring files of about equal bytes, ``BATCHES_PER_WORKER`` per worker (a
    file larger than that is a batch of its own), at most ``BATCH_FILES`` each.
    One task per file cost each worker some 0.7 ms of hand-over per file (a job
    sent, a result sent back, two wake-ups), a seventh of the outline pass on the
    bench's seven packages (docs/performance.md, "Session 23"); a few dozen
    batches per worker still leave little for the last one to finish alone."""
    sizes = []
    for p in files:
        try:
            sizes.append(max(os.stat(p).st_size, 1))
        except OSError:
            sizes.append(1)
    budget = sum(sizes) / max(1, jobs * BATCHES_PER_WORKER)
    out: List[Tuple[int, int]] = []
    start, held = 0, 0
    for i, size in enumerate(sizes):
        if i > start and (held + size > budget or i - start >= BATCH_FILES):
            out.append((start, i))
            start, held = i, 0
        held += size
    if start < len(sizes):
        out.append((start, len(sizes)))
    return out


def _read_batch_in_worker(jobs: List[Job]) -> List[Tuple[Optional[bytes], int]]:
    """``_read_in_worker`` of each file of a batch (``batches``), each job let go
    once read."""
    out = []
    for i, job in enumerate(jobs):
        jobs[i] = None  # type: ignore[call-overload]
        out.append(_read_in_worker(job))
    return out


def _collect(files: Sequence[Path], per: Sequence[Units], ranges: Sequence[Tuple[int, int]], futures: list,
             roots: Sequence[Path], outline: bool, shared: Optional[Shared],
             results: List[Tuple[FileFacts, int]]) -> None:
    """The pool's results, in order, batch by batch (``batches``: ``ranges`` of
    ``files``), unpickled here; the files of a batch whose worker failed or died are
    read here. Each future and each pickled result is let go as soon as it is read:
    a done future holds its result, the pickled facts, and held to the end of the
    pass they were the peak of a run's memory (60 MB on the seven packages of the
    bench, docs/performance.md, "Session 17")."""
    for b, (start, end) in enumerate(ranges):
        fut, futures[b] = futures[b], None
        try:
            got: List[Tuple[Optional[bytes], int]] = fut.result()
        except Exception:  # a worker failed or died on this batch: its files are read here
            got = [(None, 0)] * (end - start)
        del fut
        for i in range(start, end):
            blob, hits = got[i - start]
            got[i - start] = (None, 0)
            results.append((_unpickled(blob, files[i], roots, outline, per[i], shared), hits))
            del blob
            raise_if_interrupted()
        del got


def _key(path: Path) -> Path:
    return projectmod._abs(path)


def _better_name(p: Path, kept: Path, given: AbstractSet[str]) -> bool:
    """Whether ``p`` is a better name than ``kept`` for the same file: named itself on
    the command line (``kept`` is not), else not a symlink where ``kept`` is."""
    named_p, named_kept = os.path.abspath(p) in given, os.path.abspath(kept) in given
    if named_p != named_kept:
        return named_p
    return os.path.islink(kept) and not os.path.islink(p)


class RowOrder(Mapping):
    """A remembered plan's files (resolved key -> path), made into ``Path`` objects
    only when a run asks for them: an editor's buffer answered from the remembered
    call graph reads the rows' text alone (``memos.run_key``, ``runner.quiet_buffers``),
    and 3,881 paths cost it 0.04 s."""

    def __init__(self, rows: List[snapshotmod.PlanRow]) -> None:
        self._rows = rows
        self._order: Optional[Dict[Path, Path]] = None

    def _made(self) -> Dict[Path, Path]:
        if self._order is None:
            order: Dict[Path, Path] = {}
            for key, given, _shown, _module, _aliases in self._rows:
                p = Path(given)
                order[p if key == given else Path(key)] = p  # (``given`` is the path's own text)
            self._order = order
        return self._order

    def __getitem__(self, key: Path) -> Path:
        return self._made()[key]

    def __iter__(self):
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._rows)


@dataclass
class Plan:
    """Which files a run reads (the whole project, semantics §Surfaces) and which it reports."""

    order: Mapping[Path, Path]  # resolved key -> path, in a stable order
    buffer_at: Dict[Path, str]  # resolved key -> the buffer's shown name
    named_keys: Set[Path]
    buffers_reported: List[str]
    roots: List[Path]
    # the folders whose listings the plan depends on (``snapshot``; None: it cannot
    # be remembered, its files follow imports), and the remembered plan's rows when
    # it came from a snapshot (their ``order`` is a ``RowOrder``: shown and module
    # names, ``memos.run_key``)
    looked: Optional[List[str]] = None
    rows: Optional[List[snapshotmod.PlanRow]] = None

    def shown_names(self) -> Tuple[Dict[Path, str], List[str]]:
        """The shown paths of the buffers' entries (by resolved key) and of the files
        on disk (in the plan's order), as ``display_path`` shows them; a remembered
        plan's rows give them without a ``Path`` per file."""
        if self.rows is None:
            return ({k: display_path(self.order[k]) for k in self.buffer_at},
                    [display_path(p) for k, p in self.order.items() if k not in self.buffer_at])
        buffers = {str(k): k for k in self.buffer_at}
        at: Dict[Path, str] = {}
        disk: List[str] = []
        for key, given, shown, _module, _aliases in self.rows:
            if key in buffers:
                at[buffers[key]] = display_path(given)
            else:
                disk.append(shown)
        return at, disk

    def reported(self) -> List[str]:
        """The shown paths of the reported files (as ``read_facts`` shows them)."""
        out = [display_path(p) for k, p in self.order.items() if k in self.named_keys and k not in self.buffer_at] \
            if self.named_keys else []
        out.extend(self.buffers_reported)
        return out


def plan_key(paths: Sequence[Path], settings: Settings, buffers: Dict[str, bytes],
             force_exclude: bool, whole_project: bool) -> str:
    """What a plan depends on besides the file system (``snapshot``)."""
    h = hashlib.sha256()
    config = settings.config
    for part in ("plan", cachemod.salt(), os.getcwd(), repr([str(p) for p in paths]), repr(sorted(buffers)),
                 repr((force_exclude, whole_project, str(settings.project_root), str(config.root),
                       config.include, config.exclude, config.src))):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def plan_project(paths: Sequence[Path], settings: Settings, buffers: Dict[str, bytes],
                 force_exclude: bool = False, whole_project: bool = True,
                 snapshot: Optional[snapshotmod.Snapshot] = None) -> Plan:
    """Phase 1: which files a run reads and which it reports (``Plan``). With a
    ``snapshot`` whose folders are as they were, its plan is taken instead of
    walking the project again."""
    projectmod.forget()
    config = settings.config
    if force_exclude:
        buffers_reported = [n for n in buffers if not force_excluded(Path(n), config)]
    else:
        buffers_reported = list(buffers)
    start = projectmod.common_start(list(paths)) if paths else (Path(next(iter(buffers))) if buffers else None)
    root = projectmod.find_root(start, settings.project_root)
    roots = projectmod.src_roots(config, root)
    remembered = snapshot.plan_for(roots) if snapshot is not None else None
    if remembered is not None:
        return _remembered_plan(remembered[0], remembered[1], buffers, buffers_reported, roots)
    looked: Optional[List[str]] = []
    named = collect_files(paths, config, force_exclude, looked) if paths else []
    everything: List[Path] = []
    if whole_project:
        if config.include:
            if any(ch in pattern for pattern in config.include for ch in "*?["):
                looked = None  # (a glob's matches: not followed folder by folder)
            everything = collect_files(include_paths(config), config, looked=looked)
        elif settings.project_root is not None or projectmod.is_marked(root):
            everything = collect_files([root], config, looked=looked)
        else:  # no config and no marker above the paths: what they import, not the folder
            looked = None
            everything = projectmod.import_closure(named + [Path(n) for n in buffers], roots,
                                                   admit=lambda p: not is_excluded(p, config),
                                                   sources={Path(n): data for n, data in buffers.items()},
                                                   memo=snapshot.imports() if snapshot is not None else None)
    # One entry per file (symlinks resolved), shown under the name the user named it
    # by, else the name the walk found first that is not a symlink (docs/decisions.md,
    # "Symlinked files"); the entries keep the walk's order.
    order: Dict[Path, Path] = {}
    for p in everything:
        k = _key(p)
        if k not in order or (os.path.islink(order[k]) and not os.path.islink(p)):
            order[k] = p
    # the same rule among the files named: a file named itself wins, else the first
    # that is not a symlink (a named folder's walk meets `real.py` and `zalias.py`)
    given = {os.path.abspath(p) for p in paths}
    chosen: Dict[Path, Path] = {}
    for p in named:
        k = _key(p)
        if k not in chosen or _better_name(p, chosen[k], given):
            chosen[k] = p
    order.update(chosen)
    for n in buffers:
        order.setdefault(_key(Path(n)), Path(n))
    buffer_at = {_key(Path(n)): n for n in buffers}
    named_keys = {_key(p) for p in named}
    return Plan(order, buffer_at, named_keys, buffers_reported, list(roots), looked=looked)


def _remembered_plan(rows: List[snapshotmod.PlanRow], named: List[str], buffers: Dict[str, bytes],
                     buffers_reported: List[str], roots: List[Path]) -> Plan:
    """A snapshot's plan, with its shown and module names remembered for this run."""
    cwd = os.getcwd()
    names = projectmod.names_memo(roots)
    for key, given, shown, module, aliases in rows:
        # (``given`` is the path's own text: the row was made from ``str(p)``)
        if given not in buffers:
            _SHOWN[(given, cwd)] = shown  # (``display_path``'s answer, known already)
        names(given, module, aliases)  # (``projectmod.module_names``' answer)
    buffer_at = {_key(Path(n)): n for n in buffers}
    return Plan(RowOrder(rows), buffer_at, {Path(k) for k in named}, buffers_reported, list(roots), rows=rows)


def read_plan(plan: Plan, buffers: Dict[str, bytes], jobs: int = 1, cache_dir: Optional[Path] = None,
              light: bool = False, outline: bool = False, known: Optional[Mapping[str, FileFacts]] = None,
              compile_later: bool = False, freeze: bool = False,
              parsed: Optional[Set[str]] = None) -> Tuple[List[FileFacts], List[str], int]:
    """Phase 2: every planned file's facts, in the plan's order, and the shown paths
    of the reported ones (``outline``: light facts or outlines for files on disk, and
    outlines of the buffers; ``read_wanted`` reads them whole). ``known``: facts by shown path that stand for
    files on disk (index stubs, ``memos.GraphMemo``): those files are not read.
    ``compile_later``: the outlines of the files the pool reads take only
    ``ast.parse``'s verdict (``verdicts``). ``freeze``: as ``read_all``'s."""
    known = known or {}
    disk = [(k, p) for k, p in plan.order.items() if k not in plan.buffer_at]
    by_key: Dict[Path, FileFacts] = {}
    todo = []
    for k, p in disk:
        got = known.get(display_path(p)) if known else None
        if got is not None:
            by_key[k] = got
        else:
            todo.append((k, p))
    read, hits = read_all([p for _, p in todo], jobs, cache_dir, plan.roots, light, outline,
                          compile_later=compile_later and outline, freeze=freeze, parsed=parsed)
    by_key.update(zip((k for k, _ in todo), read))
    for k, name in plan.buffer_at.items():
        by_key[k] = read_facts(Path(name), buffers[name], name, roots=plan.roots, outline=outline)
        if parsed is not None:
            parsed.add(by_key[k].path)
    all_facts = [by_key[k] for k in plan.order]
    reported: List[str] = []
    for k in plan.order:
        if k in plan.named_keys and k not in plan.buffer_at:
            reported.append(by_key[k].path)
    reported.extend(by_key[_key(Path(n))].path for n in plan.buffers_reported)
    return all_facts, reported, hits


def read_wanted(plan: Plan, all_facts: List[FileFacts], wanted: Collection[str], jobs: int = 1,
                cache_dir: Optional[Path] = None, light: bool = False, outline: bool = False,
                buffers: Optional[Dict[str, bytes]] = None, units: Optional[Mapping[str, FrozenSet[str]]] = None,
                freeze: bool = False, parsed: Optional[Set[str]] = None) -> int:
    """The outlines among ``all_facts`` (``read_plan``'s, in the plan's order) whose
    shown path is ``wanted`` replaced, in place, by the files' facts (light ones
    when ``light``; ``outline``: outlines will do, as in ``read_plan``; a buffer's,
    from ``buffers``, are whole). ``units``: by shown path, the only functions wanted
    whole (``read_facts``); facts read earlier that lack one of them are read again.
    ``freeze``: as ``read_all``'s. Returns the cache hits."""
    keys = list(plan.order)
    paths = list(plan.order.values())
    per = units if units is not None else {}
    todo = [i for i, f in enumerate(all_facts)
            if f.path in wanted and (f.outline or (not outline and not covers(f, per.get(f.path))))]
    for i in [i for i in todo if keys[i] in plan.buffer_at]:
        name = plan.buffer_at[keys[i]]
        all_facts[i] = read_facts(Path(name), (buffers or {})[name], name, roots=plan.roots, outline=outline)
        if parsed is not None:
            parsed.add(all_facts[i].path)
    todo = [i for i in todo if keys[i] not in plan.buffer_at]
    if not todo:
        return 0
    # (the outline pass's outlines of these files: their libcst pass builds on them)
    outlines = [f if f.outline and f.digest else None for f in (all_facts[i] for i in todo)]
    read, hits = read_all([paths[i] for i in todo], jobs, cache_dir, plan.roots, light, outline,
                          [per.get(all_facts[i].path) for i in todo] if units is not None else None,
                          outlines if units is not None and not outline else None, freeze=freeze, parsed=parsed)
    for i, f in zip(todo, read):
        all_facts[i] = f
    return hits


def project_facts(paths: Sequence[Path], settings: Settings, buffers: Optional[Dict[str, bytes]] = None,
                  jobs: int = 1, cache_dir: Optional[Path] = None, force_exclude: bool = False,
                  whole_project: bool = True) -> Tuple[List[FileFacts], List[str], int]:
    """The facts of the whole project (semantics §Surfaces) and which of them are reported.

    ``paths`` are the files and folders named (walked for ``*.py``); ``buffers`` maps a
    file name to in-memory source that replaces the file on disk (``--stdin-filename``,
    an editor's unsaved buffers) and is reported too. Every other Python file under
    the project root that ``include``/``exclude`` admit is read (from the cache) so the
    summaries see every helper. Returns (facts in a stable order, the shown paths of
    the reported files, cache hits)."""
    buffers = dict(buffers or {})
    plan = plan_project(paths, settings, buffers, force_exclude, whole_project)
    return read_plan(plan, buffers, jobs, cache_dir)