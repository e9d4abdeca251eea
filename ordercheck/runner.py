"""The pipeline, top to bottom: files → facts → summaries → graphs → contracts →
findings. The CLI sits on top of ``run`` (an editor uses it through ``--stdin-filename``
and ``--format json``); reporters read its result.

I/O happens here and in the CLI only; every stage below is a function of its inputs.
"""
from __future__ import annotations

import functools
import gc
import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Collection, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from . import cache as cachemod
from . import config as configmod
from . import frontend
from . import lazy, suppression
from . import project as projectmod
from . import runcache as runcachemod
from .cache import Cache
from .errors import UsageError, raise_if_interrupted
from .ir import FileFacts, FunctionFacts, ParseError
from .findings import Finding
from .rulebook import Rule, load_rules
from .vocabulary import BUILTIN_CLASSES, Vocabulary

if TYPE_CHECKING:
    import networkx as nx

# The graph stages (and networkx under them) are imported on first use: a warm run
# whose findings all come from the run cache never builds a graph.
if TYPE_CHECKING:  # the real modules, for the type checker
    from . import cfg as cfgmod
    from . import contracts
    from . import diagnose
    from . import effects
    from . import feasible
    from . import summaries as summod
else:
    cfgmod = lazy.module("ordercheck.cfg", globals(), "cfgmod")
    contracts = lazy.module("ordercheck.contracts", globals(), "contracts")
    diagnose = lazy.module("ordercheck.diagnose", globals(), "diagnose")
    effects = lazy.module("ordercheck.effects", globals(), "effects")
    feasible = lazy.module("ordercheck.feasible", globals(), "feasible")
    summod = lazy.module("ordercheck.summaries", globals(), "summod")

RUN_CACHE = True  # answer a run whose inputs a remembered run had from the run cache (``runcache``)

SKIP_DIRS = {".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "build", "dist", ".tox", "node_modules", ".ordercheck_cache", ".mypy_cache", ".pytest_cache", ".nox", ".eggs"}


# --------------------------------------------------------------------------- settings


@dataclass
class Overrides:
    """What the command line says on top of the config file."""

    select: Optional[List[str]] = None
    ignore: List[str] = field(default_factory=list)
    extend_select: List[str] = field(default_factory=list)


@dataclass
class Settings:
    config: configmod.Config
    rules: Dict[str, Rule]
    vocab: Vocabulary
    selected: List[str]  # rule ids in force (before per-file ignores)
    warnings: List[str] = field(default_factory=list)  # for stderr
    project_root: Optional[Path] = None  # the discovered config's folder; None: found from the paths


    def rule_list(self) -> List[Rule]:
        return [self.rules[c] for c in self.selected]


def _best(code: str, selectors: Sequence[str]) -> int:
    best = -1
    for s in selectors:
        if s == "ALL":
            best = max(best, 0)
        elif code.startswith(s):
            best = max(best, len(s))
    return best


def select_codes(rules: Dict[str, Rule], select: Optional[Sequence[str]], extend: Sequence[str], ignore: Sequence[str]) -> List[str]:
    """ruff's rule: the more specific of a select and an ignore wins; ties ignore."""
    out = []
    for code, rule in rules.items():
        if select is None:
            chosen = 0 if rule.default else -1  # as unspecific as ALL: any ignore wins
        else:
            chosen = _best(code, select)
        chosen = max(chosen, _best(code, extend))
        if rule.always_on:  # parse errors: only its exact code turns it off
            if code not in ignore:
                out.append(code)
            continue
        if chosen >= 0 and chosen > _best(code, ignore):
            out.append(code)
    return out


def load_settings(config_file: Optional[Path], start: Path, overrides: Overrides = Overrides(), isolated: bool = False) -> Settings:
    discovered = False
    path: Optional[Path]
    if config_file is not None:
        if not config_file.is_file():
            raise UsageError("config file does not exist", str(config_file))
        path, table = configmod.load_file(config_file)
    else:
        found = None if isolated else configmod.discover(start)
        path, table = found if found else (None, {})
        discovered = found is not None
    cfg = configmod.parse(table, path)
    rules = load_rules(configmod.rule_files(cfg))
    known = list(rules)
    configmod.validate_codes(cfg, known)
    for key, codes in (("--select", overrides.select or []), ("--ignore", overrides.ignore), ("--extend-select", overrides.extend_select)):
        configmod.check_codes(codes, known, None, key)
    select = overrides.select if overrides.select is not None else cfg.select
    selected = select_codes(rules, select, cfg.extend_select + overrides.extend_select, cfg.ignore + cfg.extend_ignore + overrides.ignore)
    vocab = Vocabulary.build(cfg.events, cfg.extend_events, cfg.terminal_markers)
    root = path.parent if discovered and path is not None else None
    return Settings(cfg, rules, vocab, selected, check_event_classes(cfg, rules, vocab), root)


def check_event_classes(cfg: configmod.Config, rules: Dict[str, Rule], vocab: Vocabulary) -> List[str]:
    """A rule must name classes that exist (an error naming the rule file); a class
    named in config that no rule uses is probably a typo (a warning, returned: a
    config may define classes for rules it loads elsewhere)."""
    import difflib

    used = {c.lstrip("!") for r in rules.values() for role in (r.first, r.then, r.barrier, r.unless_after, r.event) for c in role}
    known = set(vocab.patterns)  # classes that have patterns (defaults or config)
    file = str(cfg.path) if cfg.path else "<config>"
    warnings: List[str] = []
    for key, table in (("events", cfg.events), ("extend-events", cfg.extend_events)):
        for name in table:
            if name not in used and name not in BUILTIN_CLASSES:
                close = difflib.get_close_matches(name, sorted(used | set(BUILTIN_CLASSES)), n=1)
                hint = f" (did you mean `{close[0]}`?)" if close else ""
                warnings.append(f"{file}: `{key}.{name}`: no rule uses the event class {name!r}{hint}")
    for r in rules.values():
        for role, expr in (("first", r.first), ("then", r.then), ("barrier", r.barrier),
                           ("unless-after", r.unless_after), ("event", r.event)):
            for c in expr:
                if c.lstrip("!") not in known:
                    raise UsageError(f"unknown event class {c.lstrip('!')!r} (define it under [events])", r.source, role)
    return warnings


# --------------------------------------------------------------------------- files


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
        if p.startswith("./"):
            p = p[2:]
        try:
            tokens = _compiled(p)
        except ValueError:
            continue  # validated with the config; a glob that cannot match matches nothing
        if glob_match(tokens, rel) or ("/" not in p and glob_match(tokens, name)):
            return True
    return False


def real_path(path: "os.PathLike[str] | str") -> str:
    """``Path.resolve()`` without its failure modes: a symlink loop (``ln -s d.py
    d.py``) resolves as far as it can instead of raising ``RuntimeError``."""
    try:
        return os.path.realpath(path)
    except (OSError, RuntimeError, ValueError):
        return os.path.abspath(path)


def _relative(path: Path, root: Path) -> str:
    try:
        rel = os.path.relpath(real_path(path), real_path(root)).replace(os.sep, "/")
    except ValueError:  # another drive
        return path.as_posix()
    if rel == ".." or rel.startswith("../"):
        return path.as_posix()
    return rel


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


def collect_files(paths: Sequence[Path], cfg: configmod.Config, force_exclude: bool = False) -> List[Path]:
    """``*.py`` under directories (skipping the usual suspects and ``exclude``);
    a path named explicitly that is not a folder is always returned (``read_facts``
    says why when it is not a regular readable file), and so is a folder that cannot
    be read — neither is skipped in silence.
    A file named explicitly is dropped only under ``force_exclude`` (what pre-commit
    passes), which applies ``exclude`` to it too."""
    out: List[Path] = []
    seen = set()

    def add(f: Path) -> None:
        if f not in seen:
            seen.add(f)
            out.append(f)

    def unreadable(exc: OSError) -> None:
        add(Path(exc.filename) if exc.filename else Path("."))

    for p in paths:
        if force_exclude and is_excluded(p, cfg):
            continue
        if not _is_dir(p):
            add(p)
            continue
        for dirpath, dirnames, filenames in os.walk(p, onerror=unreadable):
            d = Path(dirpath)
            keep = []
            for name in sorted(dirnames):
                sub = d / name
                if name in SKIP_DIRS or name.endswith(".egg-info") or is_virtualenv(sub):
                    continue
                if cfg.exclude and path_matches(_relative(sub, cfg.root), cfg.exclude):
                    continue
                keep.append(name)
            dirnames[:] = keep
            for name in sorted(filenames):
                if not name.endswith(".py"):
                    continue
                f = d / name
                if cfg.exclude and path_matches(_relative(f, cfg.root), cfg.exclude):
                    continue
                if _walked_file_wanted(f):
                    add(f)
    return out


def is_excluded(path: Path, cfg: configmod.Config) -> bool:
    """Whether ``exclude`` (relative to the config's folder) covers ``path``."""
    return bool(cfg.exclude) and path_matches(_relative(path, cfg.root), cfg.exclude)


def include_paths(cfg: configmod.Config) -> List[Path]:
    """The config's ``include``: paths or globs relative to the config's folder."""
    out: List[Path] = []
    for pattern in cfg.include:
        if any(ch in pattern for ch in "*?["):
            out.extend(sorted(cfg.root.glob(pattern)))
        else:
            out.append(cfg.root / pattern)
    return out


def display_path(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


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


def read_facts(path: Path, data: Optional[bytes] = None, shown: Optional[str] = None,
               cache: Optional[Cache] = None, roots: Sequence[Path] = (), light: bool = False) -> FileFacts:
    """Facts of one file, from the cache when its bytes have been seen before. With
    ``roots`` (the project's ``src`` roots) the module name follows them. ``light``:
    the cache's light form will do (``cache.lighten``; see ``FullFacts``)."""
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
    facts = None
    if cache is not None and light:
        facts = cache.get_light(k)
    if facts is None and cache is not None:
        facts = cache.get(k)
    if facts is None:
        facts = frontend.extract(shown, data, module)
        if cache is not None:
            cache.put(k, facts)
    facts.module_aliases = list(aliases)
    return facts


def _worker_init() -> None:
    """A worker leaves Ctrl-C to the main process, which ends the pool at once
    (SIGTERM). A cache entry a worker was writing is then a temporary file that was
    never renamed: no half-written entry is ever read."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _read_in_worker(job: Tuple[str, Optional[str], Tuple[str, ...], bool]) -> Tuple[Optional[bytes], int]:
    """Facts pickled here, so that facts too deep to pickle come back as ``None``
    (read again in the main process) instead of breaking the pool's result thread.
    (Pickle between our own processes is fine; it is never read from disk.)"""
    import pickle

    path, cache_dir, roots, light = job
    cache = Cache(Path(cache_dir)) if cache_dir else None
    facts = read_facts(Path(path), cache=cache, roots=[Path(r) for r in roots], light=light)
    try:
        blob: Optional[bytes] = pickle.dumps(facts, protocol=pickle.HIGHEST_PROTOCOL)
    except (RecursionError, pickle.PicklingError):
        blob = None
    return blob, cache.hits if cache else 0


def _unpickled(blob: Optional[bytes], path: Path, roots: Sequence[Path] = ()) -> FileFacts:
    import pickle

    if blob is not None:
        try:
            facts = pickle.loads(blob)
            if isinstance(facts, FileFacts):
                return facts
        except (RecursionError, pickle.UnpicklingError, MemoryError):
            pass
    return read_facts(path, roots=roots)


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
             roots: Sequence[Path] = (), light: bool = False) -> Tuple[List[FileFacts], int]:
    """Facts of every file, in order, in a process pool when there is enough work.
    Returns the facts and the number of cache hits. An interrupt (or any error)
    terminates the workers before it propagates: no worker outlives the run."""
    if jobs <= 1 or len(files) < 4:
        cache = Cache(cache_dir) if cache_dir else None
        out = []
        for p in files:
            out.append(read_facts(p, cache=cache, roots=roots, light=light))
            raise_if_interrupted()
        return out, cache.hits if cache else 0
    import concurrent.futures as cf

    work = [(str(p), str(cache_dir) if cache_dir else None, tuple(str(r) for r in roots), light) for p in files]
    results: List[Tuple[FileFacts, int]] = []
    # A ProcessPoolExecutor, not a multiprocessing.Pool: a worker that dies (a crash in
    # a native parser, the OOM killer) breaks the pool with an error instead of
    # leaving the run waiting for ever; its files are then read here.
    pool = cf.ProcessPoolExecutor(max_workers=min(jobs, len(files)), initializer=_worker_init)
    try:
        futures = [pool.submit(_read_in_worker, job) for job in work]
        for p, fut in zip(files, futures):
            try:
                blob, hits = fut.result()
            except Exception:  # a worker failed or died on this file: read it here
                blob, hits = None, 0
            results.append((_unpickled(blob, p, roots), hits))
            raise_if_interrupted()
    except BaseException:
        _kill_pool(pool)
        raise
    pool.shutdown(wait=True)
    return [f for f, _ in results], sum(h for _, h in results)


def check_file(facts: FileFacts, settings: Settings, summ: summod.Summaries, rules: List[Rule],
               seen: Optional[set] = None) -> List[Finding]:
    """Findings of one file; ``seen`` collects the event classes its calls have."""
    out: List[Finding] = []
    graph_rules = [r for r in rules if r.on_graph]
    for fn in facts.functions:
        try:
            g = function_graph(fn, facts.path, settings, summ)
        except cfgmod.GraphTooLarge:
            continue
        g = feasible.prune_correlated(g)  # no finding rests on an infeasible walk
        sets = effects.check_sets(g, facts.path, settings.vocab, summ)
        ordered = diagnose.ordering_classes(g, sets.performs)  # transactions commit at once
        for hit in contracts.evaluate(g, sets.performs, graph_rules, settings.config.swallow_types, sets.raises, ordered):
            classes = diagnose.classes_for(hit.rule, sets.performs, ordered)
            out.append(diagnose.to_finding(hit, g, facts, fn, classes, sets.callees, summ))
        if seen is not None:
            for cls in sets.performs.values():
                seen.update(cls)
    return out


# --------------------------------------------------------------------------- run


@dataclass
class Result:
    findings: List[Finding]
    files: List[str]  # every file checked (reported), as displayed
    facts: Mapping[str, FileFacts]  # of every file read (the project's too: related locations may point there)
    settings: Settings
    cache_hits: int = 0
    suppressed: List[Finding] = field(default_factory=list)  # silenced by a comment, with the reason
    event_classes: set = field(default_factory=set)  # classes of the calls in the files checked
    project_files: int = 0  # files read for the summaries (the project and the files checked)


def project_summaries(all_facts: List[FileFacts], settings: Settings, memo: Optional["SummaryMemo"] = None) -> summod.Summaries:
    """Every function's summary (semantics §Events), computed on its graph, callees first; a
    callee's unreachable code carries nothing. (The graphs are built again for the
    contracts: keeping every graph of a project would cost more memory than building
    them twice costs time.)"""
    return effects.build(all_facts, settings.vocab, memo, prune=feasible.prune_correlated)


# --------------------------------------------------------------------------- incremental


def _sets(e) -> list:
    return [sorted(e.on_return), sorted(e.on_raise), sorted(e.escaping), sorted(e.when_true), sorted(e.when_false)]


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, separators=(",", ":")).encode("utf-8", "surrogatepass")).hexdigest()


class SummaryMemo:
    """Summaries of functions outside any cycle, remembered per file (one JSON entry
    per file content and vocabulary, under ``summaries/``) by what ``effects.build``
    computes them from: the file's facts (its content key), the vocabulary, and each
    call's callee key and that callee's summary. Validated like every entry; a
    summary whose origin names a call the function does not have is a miss."""

    def __init__(self, folder: Path, vocab_fp: str, digests: Dict[str, str]) -> None:
        self.folder = Path(folder) / "summaries"
        self.vocab_fp = vocab_fp
        self.digests = digests  # shown path -> content key of its facts
        self.bundles: Dict[str, dict] = {}
        self.dirty: Set[str] = set()
        self.hits = 0
        self.upgrade: Optional[FullFacts] = None

    def _entry(self, path: str) -> Optional[Path]:
        d = self.digests.get(path)
        if d is None:
            return None
        k = _digest([d, self.vocab_fp])
        return self.folder / k[:2] / f"{k}.json"

    def _bundle(self, path: str) -> dict:
        b = self.bundles.get(path)
        if b is None:
            b = {}
            p = self._entry(path)
            raw = None
            if p is not None:
                try:
                    raw = cachemod._read_entry(p)
                except OSError:
                    raw = None
            if raw is not None:
                try:
                    data = json.loads(raw.decode("utf-8"))
                    if type(data) is dict and data.get("file") == self.digests[path]:
                        functions = data.get("functions")
                        b = functions if type(functions) is dict else {}
                except (ValueError, UnicodeDecodeError, RecursionError):
                    b = {}
            self.bundles[path] = b
        return b

    @staticmethod
    def _signature(m: str, cg, effects_: dict, extra: Sequence = ()) -> str:
        parts = []
        for facts, fn in cg.defs.get(m, ()):
            parts.append(fn.qualname)
            for call in fn.calls:
                callee = cg.callees.get((facts.path, call.id))
                if callee is not None:
                    parts.append([call.id, callee, _sets(effects_.get(callee, summod.NO_EFFECTS))])
        parts.append(list(extra))  # the project context managers it enters (effects.build)
        return _digest(parts)

    def lookup(self, m: str, cg, effects_: dict, extra: Sequence = ()):
        path, qual = summod.split_key(m)
        if path not in self.digests:
            return None
        entry = self._bundle(path).get(qual)
        try:
            if type(entry) is not list or len(entry) != 3 or entry[0] != self._signature(m, cg, effects_, extra):
                return None
            sets = entry[1]
            if type(sets) is not list or len(sets) != 5 or not all(
                    type(x) is list and all(type(c) is str for c in x) for x in sets):
                return None
            eff = summod.Effects(*(frozenset(x) for x in sets))
            calls = {call.id: call for facts, fn in cg.defs.get(m, ()) for call in fn.calls}
            table: Dict[Tuple[str, str], summod.Origin] = {}
            for row in entry[2]:
                part, cls, call_id, opath, callee, opart = row
                if not (type(part) is str and type(cls) is str and type(call_id) is int and opath == path
                        and (callee is None or type(callee) is str) and type(opart) is str):
                    return None
                call = calls.get(call_id)
                if call is None:
                    return None
                table[(part, cls)] = summod.Origin(call, opath, callee, opart)
        except (TypeError, ValueError):
            return None
        self.hits += 1
        return eff, table

    def full(self, facts: FileFacts, fn: "FunctionFacts") -> "FunctionFacts":
        return self.upgrade.full(facts, fn) if self.upgrade is not None else fn

    def store(self, m: str, cg, effects_: dict, eff, table: dict, extra: Sequence = ()) -> None:
        path, qual = summod.split_key(m)
        if path not in self.digests:
            return
        rows = [[part, cls, o.call.id, o.path, o.callee, o.part] for (part, cls), o in table.items()]
        if any(r[3] != path for r in rows):
            return  # not expected: an origin is a call of the function itself
        self._bundle(path)[qual] = [self._signature(m, cg, effects_, extra), _sets(eff), rows]
        self.dirty.add(path)

    def save(self) -> None:
        for path in sorted(self.dirty):
            p = self._entry(path)
            if p is None:
                continue
            data = json.dumps({"file": self.digests[path], "functions": self.bundles[path]},
                              separators=(",", ":")).encode("utf-8", "surrogatepass")
            try:
                cachemod.prepare(self.folder.parent)
                p.parent.mkdir(parents=True, exist_ok=True)
                cachemod.write_atomically(p, data)
            except OSError:
                return


class FullFacts:
    """The whole facts of files read light (``cache.lighten``: no statement trees, no
    source lines), read from the facts cache when a function's summary or a file's
    findings must be computed again, or a reporter wants the lines. Only files read
    from disk are upgraded (a buffer's facts are whole)."""

    def __init__(self, paths: Dict[str, Path], cache_dir: Optional[Path], roots: Sequence[Path]) -> None:
        self.paths = paths  # shown path -> file on disk
        self.cache_dir = cache_dir
        self.roots = list(roots)
        self.loaded: Dict[str, FileFacts] = {}
        self._index: Dict[str, Dict[int, int]] = {}

    def is_light(self, facts: FileFacts) -> bool:
        return facts.error is None and not facts.lines and facts.path in self.paths

    def file(self, facts: FileFacts) -> FileFacts:
        if not self.is_light(facts):
            return facts
        got = self.loaded.get(facts.path)
        if got is None:
            cache = Cache(self.cache_dir) if self.cache_dir else None
            got = read_facts(self.paths[facts.path], cache=cache, roots=self.roots)
            got.module_aliases = list(facts.module_aliases)
            if got.path != facts.path:
                got = facts
            self.loaded[facts.path] = got
        return got

    def full(self, facts: FileFacts, fn: "FunctionFacts") -> "FunctionFacts":
        if not self.is_light(facts):
            return fn
        whole = self.file(facts)
        if whole is facts:
            return fn
        index = self._index.get(facts.path)
        if index is None:
            index = self._index[facts.path] = {id(f): i for i, f in enumerate(facts.functions)}
        i = index.get(id(fn))
        if i is not None and len(whole.functions) == len(facts.functions):
            return whole.functions[i]
        # the file changed under the run (a race with an editor): by name
        return next((f for f in whole.functions if f.qualname == fn.qualname), fn)


class UpgradedFacts(Mapping):
    """A run's facts by shown path, whole when asked for (see ``FullFacts``)."""

    def __init__(self, facts: Dict[str, FileFacts], full: FullFacts) -> None:
        self._facts = facts
        self._full = full

    def __getitem__(self, shown: str) -> FileFacts:
        return self._full.file(self._facts[shown])

    def __iter__(self):
        return iter(self._facts)

    def __len__(self) -> int:
        return len(self._facts)


def deep_digests(summ: "summod.Summaries") -> Dict[str, str]:
    """Per function key: a digest of everything a finding can read of the summaries
    through a call to it — its summary and origins and, transitively, its callees'."""
    import networkx as nx_

    cond = nx_.condensation(summ.graph)
    comp_digest: Dict[int, str] = {}
    out: Dict[str, str] = {}
    for comp in reversed(list(nx_.topological_sort(cond))):
        members = sorted(cond.nodes[comp]["members"])
        parts: list = []
        for m in members:
            table = summ.origins.get(m, {})
            rows = sorted([part, cls, o.path, o.call.id, o.call.text, [o.call.span.line, o.call.span.col],
                           o.callee, o.part] for (part, cls), o in table.items())
            me = summ.managers.get(m)  # a context manager's split at its yield, its suppression
            mrow = None if me is None else [me.kind, sorted(me.entry), sorted(me.normal), sorted(me.raised),
                                            me.suppress, me.exit_key]
            parts.append([m, _sets(summ.effects.get(m, summod.NO_EFFECTS)), rows, mrow])
        parts.append(sorted({comp_digest[c] for c in cond.successors(comp)}))
        d = comp_digest[comp] = _digest(parts)
        for m in members:
            out[m] = d
    return out


class CheckMemo:
    """One file's findings (after suppression comments), the findings those comments
    silenced and the event classes its calls have, under ``checks/``, keyed by the
    settings, the file's facts, and for each resolved call the callee and the deep
    digest of the summaries it reaches (``deep_digests``)."""

    def __init__(self, folder: Path, settings_fp: str, digests: Dict[str, str]) -> None:
        self.folder = Path(folder) / "checks"
        self.settings_fp = settings_fp
        self.digests = digests
        self.hits = 0

    def key(self, facts: FileFacts, summ: "summod.Summaries", deep: Dict[str, str]) -> Optional[str]:
        d = self.digests.get(facts.path)
        if d is None:
            return None
        calls = []
        for fn in facts.functions:
            for call in fn.calls:
                callee = summ.callees.get((facts.path, call.id))
                if callee is not None:
                    calls.append([call.id, callee, deep.get(callee, "")])
                mkey = summ.manager_calls.get((facts.path, call.id))
                if mkey is not None:  # a project context manager: its split and its methods
                    me = summ.managers.get(mkey)
                    calls.append([call.id, "with", mkey, deep.get(mkey, ""),
                                  None if me is None else [me.kind, sorted(me.entry), sorted(me.normal),
                                                           sorted(me.raised), me.suppress, me.exit_key,
                                                           deep.get(me.exit_key, "")]])
        return _digest([cachemod.salt(), self.settings_fp, d, facts.path, calls])

    def get(self, k: str):
        p = self.folder / k[:2] / f"{k}.json"
        try:
            raw = cachemod._read_entry(p)
        except OSError:
            return None
        if raw is None:
            return None
        try:
            head, sep, body = raw.decode("utf-8").partition("\n")
            if not sep or head != json.dumps({"check": k}):
                return None
            rec = runcachemod.from_json(body)
        except (cachemod.Invalid, UnicodeDecodeError):
            return None
        self.hits += 1
        return rec.findings, rec.suppressed, set(rec.event_classes)

    def put(self, k: str, found: List[Finding], silenced: List[Finding], classes: set) -> None:
        try:
            body = runcachemod.to_json(runcachemod.RunRecord(found, silenced, [], sorted(classes), 0))
        except (TypeError, ValueError, RecursionError):
            return
        p = self.folder / k[:2] / f"{k}.json"
        try:
            cachemod.prepare(self.folder.parent)
            p.parent.mkdir(parents=True, exist_ok=True)
            cachemod.write_atomically(p, (json.dumps({"check": k}) + "\n" + body).encode("ascii"))
        except OSError:
            return


def function_graph(fn: FunctionFacts, path: str, settings: Settings, summ: summod.Summaries) -> nx.DiGraph:
    """The graph the contracts read (on-raise and conditional points included)."""
    return effects.check_graph(fn, path, settings.vocab, summ)


def rules_for(path: str, settings: Settings) -> List[Rule]:
    cfg = settings.config
    ignored: List[str] = []
    if cfg.per_file_ignores:
        rel = _relative(Path(path), cfg.root)
        for pattern, codes in cfg.per_file_ignores.items():
            if path_matches(rel, [pattern]):
                ignored.extend(codes)
    return [
        r for r in settings.rule_list()
        if not ignored or (r.id not in ignored if r.always_on else _best(r.id, ignored) < 0)
    ]


def analyse(all_facts: List[FileFacts], settings: Settings, suppressed: Optional[List[Finding]] = None,
            only: Optional[Collection[str]] = None, seen: Optional[set] = None,
            cache_dir: Optional[Path] = None, digests: Optional[Dict[str, str]] = None,
            full: Optional[FullFacts] = None) -> List[Finding]:
    """Findings of every file (or of the files shown as ``only``; the others only feed
    the summaries), after per-file ignores and suppression comments (the findings
    those comments silenced go to ``suppressed``, when given). ``seen`` collects the
    event classes of the calls in the files reported.

    With a ``cache_dir`` and the content key of each file's facts (``digests``, by
    shown path), summaries and each file's findings are remembered (``SummaryMemo``,
    ``CheckMemo``): a file is checked again only when it, the settings, or a summary
    its calls reach changed."""
    smemo = cmemo = None
    if cache_dir is not None and digests:
        fp = settings_fingerprint(settings)
        smemo = SummaryMemo(cache_dir, _digest([cachemod.salt(), repr(settings.vocab)]), digests)
        smemo.upgrade = full
        cmemo = CheckMemo(cache_dir, fp, digests)
    summ = project_summaries(all_facts, settings, smemo)
    if smemo is not None:
        smemo.save()
    deep = deep_digests(summ) if cmemo is not None else {}
    known = list(settings.rules)
    findings: List[Finding] = []
    for facts in all_facts:
        if only is not None and facts.path not in only:
            continue
        rules = rules_for(facts.path, settings)
        ids = {r.id for r in rules}
        if full is not None and facts.error is None and not facts.lines:
            light = facts
        else:
            light = facts = full.file(facts) if full is not None else facts
        if facts.error is not None:
            if "OC900" in ids:
                findings.append(diagnose.parse_error_finding(facts, settings.rules.get("OC900")))
            continue
        k = cmemo.key(facts, summ, deep) if cmemo is not None else None
        got = cmemo.get(k) if cmemo is not None and k is not None else None
        if got is not None:
            found, cached_silenced, cached_classes = got
            if seen is not None:
                seen.update(cached_classes)
            if suppressed is not None:
                suppressed.extend(cached_silenced)
            findings.extend(found)
            continue
        if full is not None:
            facts = full.file(light)  # the statement trees and lines, now
        classes: set = set()
        found = check_file(facts, settings, summ, rules, classes)
        if seen is not None:
            seen.update(classes)
        unused_rule = next((r for r in rules if r.on_suppressions), None)
        silenced: List[Finding] = []
        found = suppression.apply(found, facts, known, unused_rule, silenced)
        if suppressed is not None:
            suppressed.extend(silenced)
        for f in found + silenced:
            text = facts.lines[f.span.line - 1] if 0 < f.span.line <= len(facts.lines) else ""
            f.compute_fingerprint(text)
        findings.extend(found)
        if cmemo is not None and k is not None:
            cmemo.put(k, found, silenced, classes)
    findings.sort(key=Finding.sort_key)
    if suppressed is not None:
        suppressed.sort(key=Finding.sort_key)
    return findings


def _key(path: Path) -> Path:
    return projectmod._abs(path)


@dataclass
class Plan:
    """Which files a run reads (the whole project, semantics §Surfaces) and which it reports."""

    order: Dict[Path, Path]  # resolved key -> path, in a stable order
    buffer_at: Dict[Path, str]  # resolved key -> the buffer's shown name
    named_keys: Set[Path]
    buffers_reported: List[str]
    roots: List[Path]

    @property
    def on_disk(self) -> List[Path]:
        return [p for k, p in self.order.items() if k not in self.buffer_at]

    def reported(self) -> List[str]:
        """The shown paths of the reported files (as ``read_facts`` shows them)."""
        out = [display_path(p) for k, p in self.order.items() if k in self.named_keys and k not in self.buffer_at]
        out.extend(self.buffers_reported)
        return out


def plan_project(paths: Sequence[Path], settings: Settings, buffers: Dict[str, bytes],
                 force_exclude: bool = False, whole_project: bool = True) -> Plan:
    projectmod.forget()
    cfg = settings.config
    if force_exclude:
        buffers_reported = [n for n in buffers if not is_excluded(Path(n), cfg)]
    else:
        buffers_reported = list(buffers)
    named = collect_files(paths, cfg, force_exclude) if paths else []
    start = paths[0] if paths else (Path(next(iter(buffers))) if buffers else None)
    root = projectmod.find_root(start, settings.project_root)
    roots = projectmod.src_roots(cfg, root)
    everything: List[Path] = []
    if whole_project:
        if cfg.include:
            everything = collect_files(include_paths(cfg), cfg)
        else:
            everything = collect_files([root], cfg)
    order: Dict[Path, Path] = {}
    for p in [*everything, *named, *(Path(n) for n in buffers)]:
        order.setdefault(_key(p), p)
    buffer_at = {_key(Path(n)): n for n in buffers}
    named_keys = {_key(p) for p in named}
    return Plan(order, buffer_at, named_keys, buffers_reported, list(roots))


def read_plan(plan: Plan, buffers: Dict[str, bytes], jobs: int = 1,
              cache_dir: Optional[Path] = None, light: bool = False) -> Tuple[List[FileFacts], List[str], int]:
    read, hits = read_all(plan.on_disk, jobs, cache_dir, plan.roots, light)
    by_key = {k: f for k, f in zip((k for k in plan.order if k not in plan.buffer_at), read)}
    for k, name in plan.buffer_at.items():
        by_key[k] = read_facts(Path(name), buffers[name], name, roots=plan.roots)
    all_facts = [by_key[k] for k in plan.order]
    reported: List[str] = []
    for k in plan.order:
        if k in plan.named_keys and k not in plan.buffer_at:
            reported.append(by_key[k].path)
    reported.extend(by_key[_key(Path(n))].path for n in plan.buffers_reported)
    return all_facts, reported, hits


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


def settings_fingerprint(settings: Settings) -> str:
    """Everything of the settings a finding can depend on: the configuration, the
    rules loaded (shipped or the config's own files, by content), the codes in force
    and the vocabulary."""
    h = hashlib.sha256()
    for part in (repr(settings.config), repr(settings.rules), repr(settings.selected), repr(settings.vocab)):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def run_key(plan: Plan, settings: Settings, buffers: Dict[str, bytes]) -> Tuple[str, Dict[str, Path], Dict[str, str]]:
    """The run cache's key: engine, settings, every file (shown name, module names,
    content hash, or why it cannot be read) and the files reported. Returns the key
    and each on-disk file by its shown name, and each file's facts key (its content
    key in the facts cache) by its shown name."""
    key = runcachemod.Key(cachemod.salt(), settings_fingerprint(settings))
    shown_at: Dict[str, Path] = {}
    digests: Dict[str, str] = {}
    for k, p in plan.order.items():
        if k in plan.buffer_at:
            name = plan.buffer_at[k]
            data: Optional[bytes] = buffers[name]
            shown, path, why = name, Path(name), ""
        else:
            shown, path = display_path(p), p
            shown_at[shown] = p
            try:
                data, why = read_source(p), ""
            except (OSError, ValueError) as exc:
                data, why = None, f"{type(exc).__name__}: {exc}"
        module, aliases = projectmod.module_names(path, plan.roots) if plan.roots else (frontend.module_name(path), [])
        key.add(f"file\0{shown}\0{module}\0{','.join(aliases)}\0{why}")
        if data is not None:
            digests[shown] = cachemod.key(shown, module, data)
        key.add(digests.get(shown, "-"))
    key.add("reported\0" + "\0".join(plan.reported()))
    return key.hexdigest(), shown_at, digests


class LazyFacts(Mapping):
    """Facts by shown path, read (from the facts cache) only when asked for: a run
    answered by the run cache hands these to the reporters, which need the source
    lines of the files that have findings and nothing else."""

    def __init__(self, shown_at: Dict[str, Path], buffers: Dict[str, bytes], cache_dir: Optional[Path], roots: Sequence[Path]) -> None:
        self._paths = shown_at
        self._buffers = buffers
        self._cache_dir = cache_dir
        self._roots = list(roots)
        self._loaded: Dict[str, FileFacts] = {}

    def __getitem__(self, shown: str) -> FileFacts:
        facts = self._loaded.get(shown)
        if facts is not None:
            return facts
        if shown in self._buffers:
            facts = read_facts(Path(shown), self._buffers[shown], shown, roots=self._roots)
        elif shown in self._paths:
            cache = Cache(self._cache_dir) if self._cache_dir else None
            facts = read_facts(self._paths[shown], cache=cache, roots=self._roots)
        else:
            raise KeyError(shown)
        self._loaded[shown] = facts
        return facts

    def __iter__(self):
        return iter(list(self._paths) + [b for b in self._buffers if b not in self._paths])

    def __len__(self) -> int:
        return len(set(self._paths) | set(self._buffers))


def run(paths: Sequence[Path], settings: Settings, stdin: Optional[Tuple[str, bytes]] = None,
        jobs: int = 1, cache_dir: Optional[Path] = None, force_exclude: bool = False,
        buffers: Optional[Dict[str, bytes]] = None, whole_project: bool = True) -> Result:
    """Check ``paths`` (and the standard-input buffer and in-memory ``buffers``, if
    any) end to end, with summaries over the whole project. With a ``cache_dir``, a
    run whose inputs a remembered run had (``runcache``) is answered from it."""
    buffers = dict(buffers or {})
    if stdin is not None:
        buffers[stdin[0]] = stdin[1]
    plan = plan_project(paths, settings, buffers, force_exclude, whole_project)
    memo = runcachemod.RunCache(cache_dir) if cache_dir is not None and RUN_CACHE else None
    k = ""
    digests: Dict[str, str] = {}
    if memo is not None:
        k, shown_at, digests = run_key(plan, settings, buffers)
        rec = memo.get(k)
        if rec is not None:
            lazy_facts = LazyFacts(shown_at, buffers, cache_dir, plan.roots)
            return Result(rec.findings, rec.files, lazy_facts, settings, len(plan.order), rec.suppressed,
                          set(rec.event_classes), rec.project_files)
    full = FullFacts(shown_at, cache_dir, plan.roots) if memo is not None else None
    all_facts, reported, hits = read_plan(plan, buffers, jobs, cache_dir, light=full is not None)
    seen: set = set()
    report = set(reported)
    suppressed: List[Finding] = []
    gc.freeze()  # the facts live to the end: full collections need not walk them (docs/performance.md, "Scale")
    try:
        findings = analyse(all_facts, settings, suppressed, only=report, seen=seen,
                           cache_dir=cache_dir if memo is not None else None, digests=digests, full=full)
    finally:
        gc.unfreeze()
    facts: Mapping[str, FileFacts] = {f.path: f for f in all_facts}
    if full is not None:
        facts = UpgradedFacts(dict(facts), full)
    files = list(dict.fromkeys(reported))
    if memo is not None:
        memo.put(k, runcachemod.RunRecord(findings, suppressed, files, sorted(seen), len(all_facts)))
    return Result(findings, files, facts, settings, hits, suppressed, seen, len(all_facts))


def run_buffers(paths: Sequence[Path], settings: Settings, buffers: Dict[str, bytes],
                jobs: int = 1, cache_dir: Optional[Path] = None, memo: Optional[dict] = None) -> Result:
    """Several in-memory buffers (shown name → bytes; an editor's open documents) checked
    against the project under ``paths``: each buffer replaces its file on disk, the
    other files' facts come from disk and the cache and feed the summaries, and
    findings are reported for the buffers only.

    ``memo``, a dict the caller keeps between calls with the same settings, remembers
    each file's facts by its size and mtime, so that a re-check
    reads and graphs only what changed."""
    projectmod.forget()
    own = [read_facts(Path(name), data, name) for name, data in buffers.items()]
    shadowed = {Path(name).resolve() for name in buffers}
    files = [p for p in (collect_files(paths, settings.config) if paths else []) if p.resolve() not in shadowed]
    memo = {} if memo is None else memo
    keys: Dict[Path, Optional[Tuple[int, int]]] = {}  # (size, mtime); None: unreadable
    known: Dict[Path, Tuple[Optional[Tuple[int, int]], FileFacts]] = {}
    todo: List[Path] = []
    for p in files:
        try:
            st = p.stat()
            keys[p] = (st.st_size, st.st_mtime_ns)
        except OSError:
            keys[p] = None
        hit = memo.get(p)
        if hit is not None and keys[p] is not None and hit[0] == keys[p]:
            known[p] = hit
        else:
            todo.append(p)
    read, hits = read_all(todo, jobs, cache_dir)
    for p, facts in zip(todo, read):
        known[p] = (keys[p], facts)
        if keys[p] is not None:
            memo[p] = known[p]
    for p in list(memo):
        if p not in keys:
            del memo[p]  # deleted, or no longer collected
    all_facts = own + [known[p][1] for p in files]
    suppressed: List[Finding] = []
    findings = analyse(all_facts, settings, suppressed, only=set(buffers))
    return Result(findings, [f.path for f in own], {f.path: f for f in own}, settings,
                  hits + len(files) - len(todo), suppressed)
