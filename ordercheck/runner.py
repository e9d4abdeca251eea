"""The pipeline, top to bottom: files → facts → summaries → graphs → contracts →
findings. The CLI and the LSP server sit on top of ``run``; reporters read its result.

I/O happens here and in the CLI only; every stage below is a function of its inputs.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

import networkx as nx

from . import cfg as cfgmod
from . import config as configmod
from . import contracts, facts as factsmod, summaries as summod
from .errors import UsageError
from .facts import Call, FileFacts, FunctionFacts, Span, Suppression
from .cache import Cache
from . import cache as cachemod
from .findings import Finding, Related, Step
from .rulebook import Rule, expr_matches, load_rules
from .vocabulary import Vocabulary

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
        if rule.kind == "parse-error":
            chosen = max(chosen, 999)  # always on (only an exact ignore turns it off)
        if chosen >= 0 and chosen > _best(code, ignore):
            out.append(code)
    return out


def load_settings(config_file: Optional[Path], start: Path, overrides: Overrides = Overrides(), isolated: bool = False) -> Settings:
    if config_file is not None:
        if not config_file.is_file():
            raise UsageError("config file does not exist", str(config_file))
        path, table = configmod.load_file(config_file)
    else:
        found = None if isolated else configmod.discover(start)
        path, table = found if found else (None, {})
    cfg = configmod.parse(table, path)
    rules = load_rules(configmod.rule_files(cfg))
    known = list(rules)
    configmod.validate_codes(cfg, known)
    for key, codes in (("--select", overrides.select or []), ("--ignore", overrides.ignore), ("--extend-select", overrides.extend_select)):
        configmod.check_codes(codes, known, None, key)
    select = overrides.select if overrides.select is not None else cfg.select
    selected = select_codes(rules, select, cfg.extend_select + overrides.extend_select, cfg.ignore + cfg.extend_ignore + overrides.ignore)
    vocab = Vocabulary.build(cfg.events, cfg.extend_events, cfg.terminal_markers)
    return Settings(cfg, rules, vocab, selected)


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


def collect_files(paths: Sequence[Path], cfg: configmod.Config) -> List[Path]:
    """``*.py`` under directories (skipping the usual suspects and ``exclude``);
    a file named explicitly is always checked."""
    out: List[Path] = []
    seen = set()
    for p in paths:
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


def display_path(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def read_facts(path: Path, data: Optional[bytes] = None, shown: Optional[str] = None,
               cache: Optional[Cache] = None) -> FileFacts:
    """Facts of one file, from the cache when its bytes have been seen before."""
    shown = shown or display_path(path)
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            f = FileFacts(path=shown, module=path.stem)
            f.error = factsmod.ParseError(f"cannot read file: {exc.strerror or exc}")
            return f
    module = factsmod.module_name(path)
    k = cachemod.key(shown, module, data) if cache is not None else ""
    if cache is not None:
        found = cache.get(k)
        if found is not None:
            return found
    facts = factsmod.extract(shown, data, module)
    if cache is not None:
        cache.put(k, facts)
    return facts


def _read_in_worker(job: Tuple[str, Optional[str]]) -> Tuple[FileFacts, int]:
    path, cache_dir = job
    cache = Cache(Path(cache_dir)) if cache_dir else None
    facts = read_facts(Path(path), cache=cache)
    return facts, cache.hits if cache else 0


def read_all(files: Sequence[Path], jobs: int = 1, cache_dir: Optional[Path] = None) -> Tuple[List[FileFacts], int]:
    """Facts of every file, in order, in a process pool when there is enough work.
    Returns the facts and the number of cache hits."""
    if jobs <= 1 or len(files) < 4:
        cache = Cache(cache_dir) if cache_dir else None
        out = [read_facts(p, cache=cache) for p in files]
        return out, cache.hits if cache else 0
    import concurrent.futures as cf

    work = [(str(p), str(cache_dir) if cache_dir else None) for p in files]
    with cf.ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(_read_in_worker, work, chunksize=max(1, len(work) // (jobs * 8))))
    return [f for f, _ in results], sum(h for _, h in results)


# --------------------------------------------------------------------------- findings


def node_classes(g: nx.DiGraph, facts: FileFacts, fn: FunctionFacts, vocab: Vocabulary, summ: summod.Summaries) -> Tuple[Dict[object, FrozenSet[str]], Dict[object, str]]:
    """Event classes of every call node (own patterns + callee summary + markers)."""
    key = summod.fkey(facts.module, fn.qualname)
    classes: Dict[object, FrozenSet[str]] = {}
    callees: Dict[object, str] = {}
    for n, data in g.nodes(data=True):
        call = data.get("call")
        if call is None:
            continue
        carried, callee = summ.carried(key, call)
        cls = vocab.classify(call, carried)
        if cls:
            classes[n] = cls
        if callee:
            callees[n] = callee
    return classes, callees


def _span_of(g: nx.DiGraph, n: object) -> Optional[Span]:
    return g.nodes[n].get("span")


def _step_kind(rule: Rule, cls: FrozenSet[str]) -> str:
    for role in (rule.first, rule.then, rule.event, rule.barrier, rule.unless_after):
        for c in role:
            if not c.startswith("!") and c in cls:
                return c
    return sorted(cls)[0]


def _via_text(summ: summod.Summaries, callee: str, cls: str) -> Tuple[str, Optional[summod.Origin]]:
    chain = summ.via(callee, cls)
    if not chain:
        return "", None
    names = [k.split(":", 1)[1] for k, _ in chain]
    last = chain[-1][1]
    return " → ".join(names + [last.call.text]) + f" at {last.path}:{last.call.span.line}", last


def witness_steps(g: nx.DiGraph, path: List[object], classes, callees, rule: Rule, summ: summod.Summaries, facts_lines: List[str]) -> List[Step]:
    steps: List[Step] = []
    relevant = {c for role in (rule.first, rule.then, rule.event, rule.barrier, rule.unless_after) for c in role if not c.startswith("!")}
    if rule.kind in ("swallowed", "silent-handler"):
        relevant.add("surface")
    lines = facts_lines
    for i, n in enumerate(path):
        data = g.nodes[n]
        span = data.get("span")
        nxt = path[i + 1] if i + 1 < len(path) else None
        kind = g.edges[n, nxt]["kind"] if nxt is not None and g.has_edge(n, nxt) else None
        if data["kind"] == "call" and n in classes and classes[n] & relevant:
            cls = classes[n]
            k = _step_kind(rule, cls)
            via = ""
            if n in callees:
                via, _ = _via_text(summ, callees[n], k)
            text = data["text"] + (" (raises)" if kind == "exception" else "")
            steps.append(Step(span, k, text, None, via))
        elif data["kind"] == "handler":
            steps.append(Step(span, "except", data["text"]))
        elif data["kind"] == "with-exit":
            steps.append(Step(span, "suppress", data["text"]))
        elif data["kind"] == "finally" and span is not None:
            steps.append(Step(span, "finally", data["text"]))
        elif kind in ("true", "false") and span is not None and data["kind"] in ("stmt", "loop", "case", "call"):
            text = data["text"]
            if data["kind"] == "call":
                first_line = data["call"].stmt_lines[0]
                text = lines[first_line - 1].strip() if 0 < first_line <= len(lines) else text
            steps.append(Step(span, "branch", f"{text}  ({kind})"))
        elif kind == "loop" and span is not None:
            steps.append(Step(span, "loop", f"{data['text']}  (again)"))
        elif data["kind"] == "stmt" and data.get("stmt") in ("return", "break", "continue") and span is not None:
            steps.append(Step(span, data["stmt"], data["text"]))
    return steps


class _Fmt(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def to_finding(hit: contracts.Hit, g: nx.DiGraph, facts: FileFacts, fn: FunctionFacts, classes, callees, summ: summod.Summaries) -> Finding:
    rule = hit.rule
    anchor = g.nodes[hit.anchor]
    span: Span = anchor["span"]
    fmt = _Fmt()
    related: List[Related] = []
    call: Optional[Call] = anchor.get("call")
    stmt_lines = call.stmt_lines if call is not None else (span.line, span.line)
    if rule.kind in ("sequence", "at-most-once", "requires-before"):
        fmt.update(then_text=_short(anchor["text"]), then_line=span.line)
        if hit.first is not None:
            first = g.nodes[hit.first]
            fmt.update(first_text=_short(first["text"]), first_line=first["span"].line)
            cls = classes.get(hit.first, frozenset())
            role = "state saved here" if "save" in cls and rule.kind == "sequence" else f"{_step_kind(rule, cls)} here"
            related.append(Related(first["span"], f"{role}: {first['text']}"))
    if rule.kind == "swallowed":
        fmt.update(event_text=_short(anchor["text"]), event_line=span.line)
    if hit.handler is not None:
        h = hit.handler
        fmt.update(handler_line=h.span.line if h.span else span.line, handler=f"`{h.text.rstrip(':')}`" if h.text else "a handler")
        if rule.kind == "swallowed" and h.span is not None:
            related.append(Related(h.span, f"swallowed silently here: {h.text}"))
        if rule.kind == "silent-handler":
            stmt_lines = (h.span.line, h.span.line)
    for node in (hit.first, hit.anchor):
        if node is None or node not in callees:
            continue
        k = _step_kind(rule, classes.get(node, frozenset()))
        via, origin = _via_text(summ, callees[node], k)
        if origin is not None:
            related.append(Related(origin.call.span, f"{k} performed via {via}", origin.path))
    try:
        message = rule.message.format_map(fmt)
    except (ValueError, IndexError):
        message = rule.message
    steps = witness_steps(g, hit.path, classes, callees, rule, summ, facts.lines)
    return Finding(
        code=rule.id, name=rule.name, severity=rule.severity, path=facts.path, span=span,
        message=message, function=fn.qualname, witness=steps, related=related,
        anchor_text=anchor["text"], stmt_lines=stmt_lines,
    )


def parse_error_finding(facts: FileFacts, rule: Optional[Rule]) -> Finding:
    err = facts.error
    line = max(1, err.line or 1)
    text = facts.lines[line - 1] if 0 < line <= len(facts.lines) else ""
    col = min(max(0, err.col), len(text))
    c16 = factsmod.utf16_col(text, col)
    span = Span(line, col, line, col, c16, c16)
    message = rule.message.format_map(_Fmt(error=err.message)) if rule else err.message
    return Finding(code="OC900", name=rule.name if rule else "parse-error", severity=rule.severity if rule else "error",
                   path=facts.path, span=span, message=message, stmt_lines=(line, line))


def check_file(facts: FileFacts, settings: Settings, summ: summod.Summaries, rules: List[Rule]) -> List[Finding]:
    out: List[Finding] = []
    graph_rules = [r for r in rules if r.kind not in ("parse-error", "unused-suppression")]
    for fn in facts.functions:
        try:
            g = cfgmod.build(fn, settings.vocab.is_suppressor)
        except cfgmod.GraphTooLarge:
            continue
        classes, callees = node_classes(g, facts, fn, settings.vocab, summ)
        for hit in contracts.evaluate(g, classes, graph_rules, settings.config.swallow_types):
            out.append(to_finding(hit, g, facts, fn, classes, callees, summ))
    return out


# --------------------------------------------------------------------------- suppression


def _names(codes: Optional[Tuple[str, ...]], code: str) -> bool:
    return codes is None or any(code.startswith(c) for c in codes)


def apply_suppressions(findings: List[Finding], facts: FileFacts, known: Sequence[str], report_unused: Optional[Rule]) -> List[Finding]:
    """Drop suppressed findings; with OC001 selected, report each suppression (or
    each code of one) that suppressed nothing. ``# noqa`` codes of other tools are
    not ours to judge."""
    by_line: Dict[int, List[Suppression]] = {}
    for s in facts.suppressions:
        by_line.setdefault(s.line, []).append(s)
    used: Dict[int, set] = {}
    kept = []
    for f in findings:
        hit = None
        for ln in sorted({f.span.line, *f.stmt_lines}):
            hit = next((s for s in by_line.get(ln, ()) if _names(s.codes, f.code)), None)
            if hit:
                break
        if hit is None:
            kept.append(f)
            continue
        codes = used.setdefault(id(hit), set())
        codes.update(c for c in (hit.codes or ("*",)) if c == "*" or f.code.startswith(c))
    if report_unused is None:
        return kept
    for s in facts.suppressions:
        got = used.get(id(s), set())
        if s.codes is None:
            if got or not _is_ordercheck_comment(facts, s):
                continue
            unused = ["all codes"]
        else:
            unused = [c for c in s.codes if c not in got and any(k.startswith(c) for k in known)]
            if not unused:
                continue
        text = facts.lines[s.line - 1] if s.line <= len(facts.lines) else ""
        c16 = factsmod.utf16_col(text, s.col)
        kept.append(Finding(
            code=report_unused.id, name=report_unused.name, severity=report_unused.severity,
            path=facts.path, span=Span(s.line, s.col, s.line, len(text), c16, factsmod.utf16_col(text, len(text))),
            message=report_unused.message.format_map(_Fmt(codes=", ".join(unused))), stmt_lines=(s.line, s.line),
        ))
    return kept


def _is_ordercheck_comment(facts: FileFacts, s: Suppression) -> bool:
    text = facts.lines[s.line - 1][s.col:] if s.line <= len(facts.lines) else ""
    return "ordercheck" in text.lower()


# --------------------------------------------------------------------------- run


@dataclass
class Result:
    findings: List[Finding]
    files: List[str]  # every file checked, as displayed
    facts: Dict[str, FileFacts]
    settings: Settings
    cache_hits: int = 0


def rules_for(path: str, settings: Settings) -> List[Rule]:
    cfg = settings.config
    ignored: List[str] = []
    if cfg.per_file_ignores:
        rel = _relative(Path(path), cfg.root)
        for pattern, codes in cfg.per_file_ignores.items():
            if path_matches(rel, [pattern]):
                ignored.extend(codes)
    return [r for r in settings.rule_list() if not ignored or _best(r.id, ignored) < 0]


def analyse(all_facts: List[FileFacts], settings: Settings) -> List[Finding]:
    """Findings of every file, after per-file ignores and suppression comments."""
    summ = summod.build(all_facts, settings.vocab)
    known = list(settings.rules)
    findings: List[Finding] = []
    for facts in all_facts:
        rules = rules_for(facts.path, settings)
        ids = {r.id for r in rules}
        if facts.error is not None:
            if "OC900" in ids:
                findings.append(parse_error_finding(facts, settings.rules.get("OC900")))
            continue
        found = check_file(facts, settings, summ, rules)
        unused_rule = next((r for r in rules if r.kind == "unused-suppression"), None)
        found = apply_suppressions(found, facts, known, unused_rule)
        for f in found:
            text = facts.lines[f.span.line - 1] if 0 < f.span.line <= len(facts.lines) else ""
            f.compute_fingerprint(text)
        findings.extend(found)
    findings.sort(key=Finding.sort_key)
    return findings


def run(paths: Sequence[Path], settings: Settings, stdin: Optional[Tuple[str, bytes]] = None,
        jobs: int = 1, cache_dir: Optional[Path] = None) -> Result:
    """Check ``paths`` (and the standard-input buffer, if any) end to end."""
    all_facts: List[FileFacts] = []
    if stdin is not None:
        name, data = stdin
        all_facts.append(read_facts(Path(name), data, name))
    files = collect_files(paths, settings.config) if paths else []
    if stdin is not None:
        files = [p for p in files if display_path(p) != stdin[0]]
    read, hits = read_all(files, jobs, cache_dir)
    all_facts.extend(read)
    findings = analyse(all_facts, settings)
    return Result(findings, [f.path for f in all_facts], {f.path: f for f in all_facts}, settings, hits)
