"""The pipeline, top to bottom: files → facts → summaries → graphs → contracts →
findings. The CLI sits on top of ``run`` (an editor uses it through ``--stdin-filename``
and ``--format json``); reporters read its result.

I/O happens here and in the CLI only; every stage below is a function of its inputs.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import networkx as nx

from . import cache as cachemod
from . import cfg as cfgmod
from . import config as configmod
from . import contracts, diagnose, suppression
from . import facts as factsmod
from . import project as projectmod
from . import summaries as summod
from .cache import Cache
from .errors import UsageError
from .facts import FileFacts
from .findings import Finding
from .rulebook import Rule, load_rules
from .vocabulary import BUILTIN_CLASSES, Vocabulary

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
        if rule.kind == "parse-error":  # always on: only its exact code turns it off
            if code not in ignore:
                out.append(code)
            continue
        if chosen >= 0 and chosen > _best(code, ignore):
            out.append(code)
    return out


def load_settings(config_file: Optional[Path], start: Path, overrides: Overrides = Overrides(), isolated: bool = False) -> Settings:
    discovered = False
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


def glob_regex(pattern: str) -> "re.Pattern[str]":
    """A path glob: ``**`` crosses folders, ``*`` and ``?`` do not."""
    i, out = 0, []
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i)
            if j == -1:
                out.append(re.escape(c))
            else:
                out.append("[" + pattern[i + 1 : j].replace("!", "^", 1) + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"(?:/.*)?\Z")


def path_matches(rel: str, patterns: Sequence[str]) -> bool:
    rel = rel.replace(os.sep, "/")
    name = rel.rsplit("/", 1)[-1]
    for p in patterns:
        p = p.rstrip("/")
        if p.startswith("./"):
            p = p[2:]
        if glob_regex(p).match(rel) or ("/" not in p and glob_regex(p).match(name)):
            return True
    return False


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def collect_files(paths: Sequence[Path], cfg: configmod.Config, force_exclude: bool = False) -> List[Path]:
    """``*.py`` under directories (skipping the usual suspects and ``exclude``);
    a file named explicitly is always checked, unless ``force_exclude`` (what
    pre-commit passes) applies ``exclude`` to it too."""
    out: List[Path] = []
    seen = set()
    for p in paths:
        if force_exclude and is_excluded(p, cfg):
            continue
        if p.is_file() or not p.exists():
            if p not in seen:
                seen.add(p)
                out.append(p)
            continue
        for dirpath, dirnames, filenames in os.walk(p):
            d = Path(dirpath)
            keep = []
            for name in sorted(dirnames):
                sub = d / name
                if name in SKIP_DIRS or name.endswith(".egg-info"):
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
                if f not in seen:
                    seen.add(f)
                    out.append(f)
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


def read_facts(path: Path, data: Optional[bytes] = None, shown: Optional[str] = None,
               cache: Optional[Cache] = None, roots: Sequence[Path] = ()) -> FileFacts:
    """Facts of one file, from the cache when its bytes have been seen before. With
    ``roots`` (the project's ``src`` roots) the module name follows them."""
    shown = shown or display_path(path)
    if roots:
        module, aliases = projectmod.module_names(path, roots)
    else:
        module, aliases = factsmod.module_name(path), []
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            f = FileFacts(path=shown, module=path.stem)
            f.error = factsmod.ParseError(f"cannot read file: {exc.strerror or exc}")
            return f
    k = cachemod.key(shown, module, data) if cache is not None else ""
    facts = cache.get(k) if cache is not None else None
    if facts is None:
        facts = factsmod.extract(shown, data, module)
        if cache is not None:
            cache.put(k, facts)
    facts.module_aliases = list(aliases)
    return facts


def _read_in_worker(job: Tuple[str, Optional[str], Tuple[str, ...]]) -> Tuple[FileFacts, int]:
    path, cache_dir, roots = job
    cache = Cache(Path(cache_dir)) if cache_dir else None
    facts = read_facts(Path(path), cache=cache, roots=[Path(r) for r in roots])
    return facts, cache.hits if cache else 0


def read_all(files: Sequence[Path], jobs: int = 1, cache_dir: Optional[Path] = None,
             roots: Sequence[Path] = ()) -> Tuple[List[FileFacts], int]:
    """Facts of every file, in order, in a process pool when there is enough work.
    Returns the facts and the number of cache hits."""
    if jobs <= 1 or len(files) < 4:
        cache = Cache(cache_dir) if cache_dir else None
        out = [read_facts(p, cache=cache, roots=roots) for p in files]
        return out, cache.hits if cache else 0
    import concurrent.futures as cf

    work = [(str(p), str(cache_dir) if cache_dir else None, tuple(str(r) for r in roots)) for p in files]
    results: List[Tuple[FileFacts, int]] = []
    with cf.ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_read_in_worker, job) for job in work]
        for p, fut in zip(files, futures):
            try:
                results.append(fut.result())
            except Exception:  # e.g. facts too deep to pickle back: read it here
                results.append((read_facts(p, roots=roots), 0))
    return [f for f, _ in results], sum(h for _, h in results)


def check_file(facts: FileFacts, settings: Settings, summ: summod.Summaries, rules: List[Rule],
               seen: Optional[set] = None) -> List[Finding]:
    """Findings of one file; ``seen`` collects the event classes its calls have."""
    out: List[Finding] = []
    graph_rules = [r for r in rules if r.kind not in ("parse-error", "unused-suppression")]
    for fn in facts.functions:
        try:
            g = cfgmod.build(fn, settings.vocab.is_suppressor)
        except cfgmod.GraphTooLarge:
            continue
        classes, callees = diagnose.node_classes(g, facts, fn, settings.vocab, summ)
        if seen is not None:
            for cls in classes.values():
                seen.update(cls)
        for hit in contracts.evaluate(g, classes, graph_rules, settings.config.swallow_types):
            out.append(diagnose.to_finding(hit, g, facts, fn, classes, callees, summ))
    return out


# --------------------------------------------------------------------------- run


@dataclass
class Result:
    findings: List[Finding]
    files: List[str]  # every file checked (reported), as displayed
    facts: Dict[str, FileFacts]  # of every file read (the project's too: related locations may point there)
    settings: Settings
    cache_hits: int = 0
    event_classes: set = field(default_factory=set)  # classes of the calls in the files checked
    project_files: int = 0  # files read for the summaries (the project and the files checked)


def live_calls(all_facts: List[FileFacts], settings: Settings) -> Dict[str, set]:
    """File → ids of the calls on some path from their function's entry. Summaries use
    it so that a callee's unreachable code carries nothing. (The graphs are built
    again for the contracts: keeping every graph of a project would cost more memory
    than building them twice costs time.)"""
    live: Dict[str, set] = {}
    for facts in all_facts:
        if facts.error is not None:
            continue
        ids = live.setdefault(facts.path, set())
        for fn in facts.functions:
            try:
                g = cfgmod.build(fn, settings.vocab.is_suppressor)
            except cfgmod.GraphTooLarge:
                ids.update(c.id for c in fn.calls)  # too big to build: assume all reachable
                continue
            nodes = g.nodes
            ids.update(nodes[n]["call"].id for n in nx.descendants(g, cfgmod.ENTRY) if "call" in nodes[n])
    return live


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
        if not ignored or (r.id in ignored if r.kind == "parse-error" else _best(r.id, ignored) < 0)
    ]


def analyse(all_facts: List[FileFacts], settings: Settings, report: Optional[set] = None,
            seen: Optional[set] = None) -> List[Finding]:
    """Findings of every file (or of the files whose path is in ``report``; the others
    only feed the summaries), after per-file ignores and suppression comments."""
    summ = summod.build(all_facts, settings.vocab, live_calls(all_facts, settings))
    known = list(settings.rules)
    findings: List[Finding] = []
    for facts in all_facts:
        if report is not None and facts.path not in report:
            continue
        rules = rules_for(facts.path, settings)
        ids = {r.id for r in rules}
        if facts.error is not None:
            if "OC900" in ids:
                findings.append(diagnose.parse_error_finding(facts, settings.rules.get("OC900")))
            continue
        found = check_file(facts, settings, summ, rules, seen)
        unused_rule = next((r for r in rules if r.kind == "unused-suppression"), None)
        found = suppression.apply(found, facts, known, unused_rule)
        for f in found:
            text = facts.lines[f.span.line - 1] if 0 < f.span.line <= len(facts.lines) else ""
            f.compute_fingerprint(text)
        findings.extend(found)
    findings.sort(key=Finding.sort_key)
    return findings


def _key(path: Path) -> Path:
    return projectmod._abs(path)


def project_facts(paths: Sequence[Path], settings: Settings, buffers: Optional[Dict[str, bytes]] = None,
                  jobs: int = 1, cache_dir: Optional[Path] = None, force_exclude: bool = False,
                  whole_project: bool = True) -> Tuple[List[FileFacts], List[str], int]:
    """The facts of the whole project (SPEC §5) and which of them are reported.

    ``paths`` are the files and folders named (walked for ``*.py``); ``buffers`` maps a
    file name to in-memory source that replaces the file on disk (``--stdin-filename``,
    an editor's unsaved buffers) and is reported too. Every other Python file under
    the project root that ``include``/``exclude`` admit is read (from the cache) so the
    summaries see every helper. Returns (facts in a stable order, the shown paths of
    the reported files, cache hits)."""
    cfg = settings.config
    buffers = dict(buffers or {})
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
    on_disk = [p for k, p in order.items() if k not in buffer_at]
    read, hits = read_all(on_disk, jobs, cache_dir, roots)
    by_key = {k: f for k, f in zip((k for k in order if k not in buffer_at), read)}
    for k, name in buffer_at.items():
        by_key[k] = read_facts(Path(name), buffers[name], name, roots=roots)
    all_facts = [by_key[k] for k in order]
    reported: List[str] = []
    for k in order:
        if k in named_keys and k not in buffer_at:
            reported.append(by_key[k].path)
    reported.extend(by_key[_key(Path(n))].path for n in buffers_reported)
    return all_facts, reported, hits


def run(paths: Sequence[Path], settings: Settings, stdin: Optional[Tuple[str, bytes]] = None,
        jobs: int = 1, cache_dir: Optional[Path] = None, force_exclude: bool = False,
        buffers: Optional[Dict[str, bytes]] = None, whole_project: bool = True) -> Result:
    """Check ``paths`` (and the standard-input buffer and in-memory ``buffers``, if
    any) end to end, with summaries over the whole project."""
    buffers = dict(buffers or {})
    if stdin is not None:
        buffers[stdin[0]] = stdin[1]
    all_facts, reported, hits = project_facts(paths, settings, buffers, jobs, cache_dir, force_exclude, whole_project)
    seen: set = set()
    report = set(reported)
    findings = analyse(all_facts, settings, report, seen)
    facts = {f.path: f for f in all_facts}
    files = list(dict.fromkeys(reported))
    return Result(findings, files, facts, settings, hits, seen, len(all_facts))
