"""The pipeline, its phases named in the order they run (docs/architecture.md, Pipeline).

==  ===========  ==================================  ===================================
    phase        function                            what comes out
==  ===========  ==================================  ===================================
0   settings     ``settings.load_settings``          ``Settings`` (config, rules, vocabulary)
1   plan         ``sources.plan_project``            which files are read, which reported
2   facts        ``sources.read_plan``               ``FileFacts`` per file (facts cache)
3   summaries    ``project_summaries``               call graph and every function's summary
4   graphs       ``function_graph``                  one function's graph for the contracts
5   contracts    ``check_function``                  node classes and ``Hit``s of one function
6   findings     ``check_file``                      ``Finding``s with witnesses, per file
7   suppression  ``suppress``                        findings after suppression comments
8   baseline     ``baseline.apply`` (the CLI)        findings not in the baseline
9   reports      ``reporters.FORMATS`` (surfaces)    text, json, sarif, github; ``--graph``: dot
==  ===========  ==================================  ===================================

``analyse`` runs phases 3-7 over a list of facts (with the memos of ``memos`` when
there is a cache); ``run`` runs 1-7 (answered by the run cache when nothing changed);
``run_buffers`` is the language server's run (its facts phase keeps unchanged files'
facts between calls); the CLI's ``--graph`` runs 1-5 for one function and renders
phase 5's graph. Every surface goes through these functions.

I/O happens here, in ``sources``/``memos`` and in the surfaces only; every phase below
is a function of its inputs.
"""
from __future__ import annotations

import dataclasses
import functools
import gc
import hashlib
import itertools
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Callable,
    Collection,
    Dict,
    FrozenSet,
    Iterable,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
    Union,
)

from . import cache as cachemod
from . import depth, errors, frontend, lazy, memos, suppression, verdicts
from . import focus as focusmod
from . import project as projectmod
from . import runcache as runcachemod
from . import snapshot as snapshotmod
from .config import relative_to_root
from .findings import Finding
from .ir import Call, FileFacts, FunctionFacts
from .memos import WORD, FullFacts, GraphMemo, LazyFacts, SummaryMemo, UpgradedFacts, deep_digests, open_memos, run_key
from .rulebook import Rule
from .settings import Overrides, Settings, cache_folder, load_settings, select_codes, settings_fingerprint, specificity
from .sources import (
    Plan,
    collect_files,
    default_paths,
    display_path,
    glob_match,
    include_paths,
    path_matches,
    per_file_ignores_of,
    plan_key,
    plan_project,
    project_facts,
    read_all,
    read_facts,
    read_plan,
    read_source,
    read_wanted,
)

# The graph phases (and networkx under them) are imported on first use: a warm run
# whose findings all come from the run cache never builds a graph.
if TYPE_CHECKING:  # the real modules, for the type checker
    import networkx as nx

    from . import cfg, contracts, diagnose, effects, feasible, summaries
else:
    cfg = lazy.module("ordercheck.cfg", globals(), "cfg")
    contracts = lazy.module("ordercheck.contracts", globals(), "contracts")
    diagnose = lazy.module("ordercheck.diagnose", globals(), "diagnose")
    effects = lazy.module("ordercheck.effects", globals(), "effects")
    feasible = lazy.module("ordercheck.feasible", globals(), "feasible")
    summaries = lazy.module("ordercheck.summaries", globals(), "summaries")

# What the surfaces and the tests reach through ``runner`` (defined in the phases' modules).
__all__ = [
    "RUN_CACHE", "Result", "FunctionCheck",
    "Overrides", "Settings", "cache_folder", "load_settings", "select_codes", "settings_fingerprint",
    "collect_files", "default_paths", "display_path", "glob_match", "include_paths", "path_matches", "plan_project",
    "project_facts", "read_all", "read_facts", "read_plan", "read_source",
    "LazyFacts", "run_key",
    "project_summaries", "function_graph", "check_function", "check_file", "contract_rules", "rules_for",
    "suppress", "analyse", "run", "run_buffers",
]

LOG = logging.getLogger("ordercheck")  # an internal error's traceback (the CLI's -v shows it)
# a function's graph up to this many nodes is pruned a second time, with literal facts,
# for its findings' witnesses (docs/decisions.md "Witnesses and literal assignments")
WITNESS_NODES = 5_000

RUN_CACHE = True  # answer a run whose inputs a remembered run had from the run cache (``runcache``)
# parse with libcst only the files that can hold a finding (``focus``; docs/performance.md,
# "The outline pre-pass"); ORDERCHECK_PREPASS=0 turns it off (the benchmark compares both)
PREPASS = os.environ.get("ORDERCHECK_PREPASS", "1") != "0"
# ... and, of those files, only the functions a needed one lives in (``frontend.extract``'s
# ``units``; docs/performance.md, "Session 15"); ORDERCHECK_UNITS=0 reads them whole
UNITS = os.environ.get("ORDERCHECK_UNITS", "1") != "0"
# take the plan and unchanged files' content keys from a stat snapshot (``snapshot``;
# ``ORDERCHECK_SNAPSHOT=0``: walk and hash everything, as a check of the snapshot)
SNAPSHOT = os.environ.get("ORDERCHECK_SNAPSHOT", "1") != "0"


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
    # the project's `src` roots the run named modules by: a file read again (a fix
    # round's) is named as the run named it (held-out set 304: a namespace package's
    # module lost its name, and its `transaction-functions` glob and imports with it)
    roots: Tuple[Path, ...] = ()


# --------------------------------------------------------------------------- the phases


def project_summaries(all_facts: List[FileFacts], settings: Settings,
                      memo: Optional[SummaryMemo] = None, focused: Optional[focusmod.Focus] = None,
                      freeze: bool = False) -> summaries.Summaries:
    """Phase 3. Every function's summary (semantics §Events), computed on its summary
    graph (``effects.summary_graph``), callees first; a callee's unreachable code
    carries nothing. The summary graphs are thrown away as each strongly connected
    component of the call graph is done (docs/architecture.md, Pipeline: why the
    contracts' graphs are built again). With ``focused`` (the pre-pass), only the
    functions whose summaries are read get one, and only the files they live in are
    resolved. ``freeze``: the call graph is frozen once built (the caller unfreezes)."""
    within = focused.need_files if focused is not None else None
    cg = summaries.resolve(all_facts, within)
    if freeze:
        # the call graph lives to the end of the run: no full collection of the
        # summaries' (which build and drop a graph per function) needs to walk it
        gc.freeze()
    return effects.build(all_facts, settings.vocab, memo, prune=feasible.prune_correlated, flagged=feasible.prune_flag,
                         only=focused.needed if focused is not None else None, within=within, cg=cg)


def function_graph(fn: FunctionFacts, path: str, settings: Settings, summ: summaries.Summaries) -> nx.DiGraph:
    """Phase 4. The graph the contracts read: on-raise and conditional points where
    the callees' summaries have such effects (``effects.check_graph``). Raises
    ``cfg.GraphTooLarge`` for a function too large to build."""
    return effects.check_graph(fn, path, settings.vocab, summ)


@dataclass
class FunctionCheck:
    """What phase 5 knows of one function: its graph without infeasible walks, the
    classes (and callees) of its nodes, the classes the ordering contracts read, and
    the contracts' hits."""

    graph: nx.DiGraph
    sets: effects.NodeSets
    ordered: Dict[object, FrozenSet[str]]
    hits: List[contracts.Hit]
    # per (transaction commit, class): the body's nodes that performed it (``diagnose``)
    committed: "diagnose.Committed" = field(default_factory=dict)
    # the same function pruned also by literal bindings: where it gives a finding the
    # contract's graph gives too, that finding's witness comes from here
    witnesses: Optional["FunctionCheck"] = None


def contract_rules(rules: Sequence[Rule]) -> List[Rule]:
    """The rules that are questions on a function's graph."""
    return [r for r in rules if r.on_graph]


def check_function(fn: FunctionFacts, path: str, settings: Settings, summ: summaries.Summaries,
                   rules: Sequence[Rule]) -> FunctionCheck:
    """Phase 5. One function's graph (phase 4), pruned to its feasible walks, its nodes'
    classes and the hits of ``rules`` (``contract_rules``) on it."""
    built = function_graph(fn, path, settings, summ)
    limit = min(max(feasible.BOUND * built.number_of_nodes(), feasible.FLOOR), feasible.MAX_PRODUCT)
    pruned = feasible.prune_within(built, limit)  # no finding rests on an infeasible walk
    if pruned is not None:
        checked = _checked(pruned, path, settings, summ, rules)
    else:
        # a product too large to build for every function: the unpruned graph, unless it
        # gives a finding, which then must hold on a larger product (feasible.MAX_PRODUCT_FOR_FINDING)
        checked = _checked(built.copy(), path, settings, summ, rules)
        if checked.hits:
            pruned = feasible.prune_within(built, max(limit, feasible.MAX_PRODUCT_FOR_FINDING))
            if pruned is not None:
                checked = _checked(pruned, path, settings, summ, rules)
    if (checked.hits and pruned is not None and built.number_of_nodes() <= WITNESS_NODES
            and feasible.literal_names(built)):
        # the witnesses: a walk that does not test `x` against the literal it was just
        # given (`x = None` ... `if x is None:` false), where one shows the same finding
        # (only the rules that found something are asked again)
        plain = feasible.prune_within(built, limit, literals=True)
        if plain is not None and plain is not built and plain is not pruned:
            found = [r for r in rules if any(h.rule is r for h in checked.hits)]
            checked.witnesses = _checked(plain, path, settings, summ, found)
    return checked


def _checked(g: nx.DiGraph, path: str, settings: Settings, summ: summaries.Summaries,
             rules: Sequence[Rule]) -> FunctionCheck:
    sets = effects.check_sets(g, path, settings.vocab, summ)
    g = cfg.cut_dead_ends(g, sets.performs)  # nor past a call that never returns
    split, ordered, committed = diagnose.ordering_classes(g, sets.performs)  # transactions commit at once
    if split is not g:
        # a transaction's body was copied by what its walks did: the copies are the
        # same calls, and `swallowed` reads their classes (a surface in a copy is one)
        g, sets = split, effects.check_sets(split, path, settings.vocab, summ)
    swallow = summ.index.swallow_types_for((t for r in g.graph["handlers"].values() for t in r.types),
                                           settings.config.swallow_types)
    hits = contracts.evaluate(g, sets.performs, rules, swallow, sets.raises, ordered,
                              carried=sets.callees.keys(), committed=committed, must=sets.must)
    return FunctionCheck(g, sets, ordered, hits, committed)


def check_file(facts: FileFacts, settings: Settings, summ: summaries.Summaries, rules: List[Rule],
               seen: Optional[set] = None) -> List[Finding]:
    """Phase 6. Findings of one file (phase 5 on each function, each hit with its
    witness); ``seen`` collects the event classes its calls have."""
    out: List[Finding] = []
    graph_rules = contract_rules(rules)
    failing = next((r for r in rules if r.KIND == "internal-error"), None)
    outlined = set(facts.outlined)  # (not needed: no finding, ``frontend.extract``'s units)
    for fn in facts.functions:
        if fn.qualname in outlined:
            continue
        try:
            # (a function nested too deeply for the default recursion limit: again, deeply)
            found = depth.retrying(_function_findings, facts, fn, settings, summ, graph_rules, seen)
        except cfg.GraphTooLarge:
            continue
        except Exception as exc:  # the engine failed on this function: OC901, and go on
            errors.raise_if_interrupted()  # (a Ctrl-C that a library turned into an error)
            LOG.debug("internal error on %s:%s", facts.path, fn.qualname, exc_info=True)
            if failing is not None:
                out.append(diagnose.internal_error_finding(facts, fn, failing, errors.error_text(exc)))
            if seen is not None:  # (what it calls still counts for the "nothing matched" note)
                seen.update(c for call in fn.calls for c in settings.vocab.direct(call))
            continue
        out.extend(summary_failures(facts, [fn], summ, failing))
        out.extend(found)
    return out


def summary_failures(facts: FileFacts, functions: Sequence[FunctionFacts], summ: summaries.Summaries,
                     failing: Optional[Rule]) -> List[Finding]:
    """OC901s of the ``functions`` whose summary the engine failed on (checked or
    not: the pre-pass may skip their file, and the failure must not depend on it)."""
    if failing is None or not (summ.failed or summ.unresolved):
        return []
    out = []
    for fn in functions:
        key = summaries.fkey(facts.path, fn.qualname)
        error = summ.unresolved.get(key)
        if error is not None:  # (one OC901 per function: resolution comes first)
            out.append(diagnose.internal_error_finding(facts, fn, failing, error, diagnose.UNRESOLVED))
            continue
        error = summ.failed.get(key)
        if error is not None:
            out.append(diagnose.internal_error_finding(facts, fn, failing, error, diagnose.SUMMARY_FALLBACK))
    return out


def _function_findings(facts: FileFacts, fn: FunctionFacts, settings: Settings, summ: summaries.Summaries,
                       graph_rules: List[Rule], seen: Optional[set]) -> List[Finding]:
    checked = check_function(fn, facts.path, settings, summ, graph_rules)
    out = _findings(checked, facts, fn, summ, settings.vocab.terminal_by, settings.vocab.direct)
    if checked.witnesses is not None:
        better: Dict[tuple, Finding] = {}
        for f in _findings(checked.witnesses, facts, fn, summ, settings.vocab.terminal_by, settings.vocab.direct):
            better.setdefault(_at(f), f)  # (the first: the shortest of a handler's copies)
        out = [better.get(_at(f), f) for f in out]
    if seen is not None:
        for cls in checked.sets.performs.values():
            seen.update(cls)
    return out


def _at(f: Finding) -> tuple:
    """A finding's identity within its function: its rule and its anchor."""
    return (f.code, f.span.line, f.span.col, f.span.end_line, f.span.end_col)


def _findings(checked: FunctionCheck, facts: FileFacts, fn: FunctionFacts, summ: summaries.Summaries,
              marker: Optional[Callable[[Call], Optional[str]]] = None,
              direct: Optional[Callable[[Call], FrozenSet[str]]] = None) -> List[Finding]:
    sets = checked.sets
    out = []
    for hit in checked.hits:
        classes = diagnose.classes_for(hit.rule, sets.performs, checked.ordered)
        out.append(diagnose.to_finding(hit, checked.graph, facts, fn, classes, sets.callees, summ, sets.raises,
                                       checked.committed, marker, direct, sets.exit_raises))
    return out


def _failed(findings: List[Finding]) -> bool:
    """The engine failed on a function (OC901): nothing of the run is remembered, so
    the next run tries again (and ``-v`` shows the traceback)."""
    return any(f.code == "OC901" for f in findings)


def rules_for(path: str, settings: Settings) -> List[Rule]:
    """The rules in force for one file: the selected ones less its ``per-file-ignores``."""
    config = settings.config
    ignored: List[str] = []
    for pattern in per_file_ignores_of(path, config):
        ignored.extend(config.per_file_ignores[pattern])
    return [
        r for r in settings.rule_list()
        if not ignored or (r.id not in ignored if r.always_on else specificity(r.id, ignored) < 0)
    ]


def suppress(found: List[Finding], facts: FileFacts, rules: List[Rule], known: List[str]
             ) -> Tuple[List[Finding], List[Finding]]:
    """Phase 7. One file's findings after its suppression comments, and the findings
    those comments silenced."""
    unused_rule = next((r for r in rules if r.on_suppressions), None)
    silenced: List[Finding] = []
    found = suppression.apply(found, facts, known, unused_rule, silenced)
    return found, silenced


def fingerprint(findings: Iterable[Finding], root: Path) -> None:
    """Each finding's identity (``Finding.fingerprint``, the ``data.fingerprint`` of
    ``--format json`` and the language server): the one baselines and SARIF use, over
    the file relative to the project root, so the same from any working directory
    (held-out set 98). Set last, on findings read back from a cache too."""
    for f in findings:
        f.fingerprint = f.stable_fingerprint(relative_to_root(f.path, root))


# --------------------------------------------------------------------------- runs of the phases


def analyse(all_facts: List[FileFacts], settings: Settings, suppressed: Optional[List[Finding]] = None,
            only: Optional[Collection[str]] = None, seen: Optional[set] = None,
            cache_dir: Optional[Path] = None, digests: Optional[Dict[str, str]] = None,
            full: Optional[FullFacts] = None, focused: Optional[focusmod.Focus] = None,
            freeze: bool = False) -> List[Finding]:
    """Phases 3-7: findings of every file (or of the files shown as ``only``; the others
    only feed the summaries), after per-file ignores and suppression comments (the
    findings those comments silenced go to ``suppressed``, when given). ``seen``
    collects the event classes of the calls in the files reported.

    With a ``cache_dir`` and the content key of each file's facts (``digests``, by
    shown path), summaries and each file's findings are remembered (``SummaryMemo``,
    ``CheckMemo``): a file is checked again only when it, the settings, or a summary
    its calls reach changed.

    With ``focused`` (the outline pre-pass, ``read_focused``), only the functions it
    needs get summaries and only the files that hold a hot function are checked; an
    outline's file has no finding but its OC900 (docs/performance.md, "The outline
    pre-pass"). ``freeze``: as ``project_summaries``'s."""
    summary_memo = check_memo = None
    if cache_dir is not None and digests:
        summary_memo, check_memo = open_memos(cache_dir, settings, digests, full)
    # no file reported holds a hot function (a pre-commit hook or an editor on a file
    # without events): no summary is read, none is computed
    summ: Optional[summaries.Summaries] = None
    if focused is None or any(f.path in focused.check_files for f in all_facts if only is None or f.path in only):
        summ = project_summaries(all_facts, settings, summary_memo, focused, freeze)
        if summary_memo is not None:
            summary_memo.save()
    deep = (deep_digests(summ, focused.needed if focused is not None else None)
            if check_memo is not None and summ is not None else {})
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
            if facts.error.internal:  # the engine failed reading it: its OC901 (and no OC900)
                failing = next((r for r in rules if r.KIND == "internal-error"), None)
                if failing is not None:
                    found, silenced = suppress([diagnose.file_internal_error_finding(facts, failing)], facts,
                                               rules, known)
                    findings.extend(found)
                    if suppressed is not None:
                        suppressed.extend(silenced)
            elif "OC900" in ids:
                findings.append(diagnose.parse_error_finding(facts, settings.rules.get("OC900")))
            continue
        if focused is not None and facts.path not in focused.check_files:
            if seen is not None:  # the classes its calls match (the focus has them: a stub has no calls)
                seen.update(focused.seen.get(facts.path, ()))
            if summ is not None and any(summaries.split_key(k)[0] == facts.path
                                       for k in itertools.chain(summ.failed, summ.unresolved)):
                whole = full.file(light) if full is not None else facts
                failing = next((r for r in rules if r.KIND == "internal-error"), None)
                found, silenced = suppress(summary_failures(whole, whole.functions, summ, failing), whole, rules, known)
                findings.extend(found)
                if suppressed is not None:
                    suppressed.extend(silenced)
            continue
        assert summ is not None  # (a file checked: the summaries were computed above)
        k = check_memo.key(facts, summ, deep) if check_memo is not None else None
        got = check_memo.get(k) if check_memo is not None and k is not None else None
        if got is not None and not summ.index.swallow_answers_hold(got[3], settings.config.swallow_types):
            got = None  # a re-exported `except` type stands for another class now
        if got is not None and check_memo is not None:
            check_memo.hit()
            found, cached_silenced, cached_classes, _ = got
            if seen is not None:
                seen.update(cached_classes)
            if suppressed is not None:
                suppressed.extend(cached_silenced)
            findings.extend(found)
            continue
        if full is not None:
            facts = full.file(light)  # the statement trees and lines, now
            summ.index.with_typed_names(facts)  # (read afresh: typed as ``light`` was, in the summaries)
        classes: set = set()
        summ.index.swallow_asked = {}
        try:
            found = check_file(facts, settings, summ, rules, classes)
            asked = summ.index.swallow_asked
        finally:
            summ.index.swallow_asked = None
        if seen is not None:
            seen.update(classes)
        found, silenced = suppress(found, facts, rules, known)
        if suppressed is not None:
            suppressed.extend(silenced)
        findings.extend(found)
        if check_memo is not None and k is not None and not _failed(found + silenced):
            check_memo.put(k, found, silenced, classes, asked)
    findings.sort(key=Finding.sort_key)
    fingerprint(findings, settings.config.root)
    if suppressed is not None:
        suppressed.sort(key=Finding.sort_key)
        fingerprint(suppressed, settings.config.root)
    return findings


def run(paths: Sequence[Path], settings: Settings, stdin: Optional[Tuple[str, bytes]] = None,
        jobs: int = 1, cache_dir: Optional[Path] = None, force_exclude: bool = False,
        buffers: Optional[Dict[str, bytes]] = None, whole_project: bool = True,
        announce: Optional[Callable[[int], None]] = None) -> Result:
    """Phases 1-7: check ``paths`` (and the standard-input buffer and in-memory
    ``buffers``, if any) end to end, with summaries over the whole project. With a
    ``cache_dir``, a run whose inputs a remembered run had (``runcache``) is answered
    from it.

    A run with a pool, no cache and the pre-pass has CPython's compile verdict taken
    in the background (``verdicts``); should a file that ``ast.parse`` accepted not
    compile, the run is made again with the compiler in the outline pass.
    ``announce`` hears how many files the project holds once they are known, before
    any is read (the command line's note on a project larger than meant)."""
    deferred = (cache_dir is None and jobs >= 2 and verdicts.possible()
                and prepass_classes(settings) is not None)
    try:
        if deferred:
            got = _run(paths, settings, stdin, jobs, cache_dir, force_exclude, buffers, whole_project, True, announce=announce)
            announce = None  # (said once)
            if got is not None:
                return got
        result = _run(paths, settings, stdin, jobs, cache_dir, force_exclude, buffers, whole_project, False, announce=announce)
    finally:
        # the phases freeze what they read (``gc.freeze``: the collector, and every
        # worker forked later, no longer walks it); a language server's next run
        # must find its garbage collectable again
        gc.unfreeze()
    assert result is not None
    return result


def _run(paths: Sequence[Path], settings: Settings, stdin: Optional[Tuple[str, bytes]], jobs: int,
         cache_dir: Optional[Path], force_exclude: bool, buffers: Optional[Dict[str, bytes]], whole_project: bool,
         compile_later: bool, announce: Optional[Callable[[int], None]] = None) -> Optional[Result]:
    """``run``; with ``compile_later``, None when a file's compile verdict was not
    confirmed (``verdicts.Checker``)."""
    buffers = dict(buffers or {})
    if stdin is not None:
        buffers[stdin[0]] = stdin[1]
    memo = runcachemod.RunCache(cache_dir) if cache_dir is not None and RUN_CACHE else None
    snapshot = (snapshotmod.Snapshot(cache_dir, plan_key(paths, settings, buffers, force_exclude, whole_project))
                if memo is not None and SNAPSHOT else None)
    plan = plan_project(paths, settings, buffers, force_exclude, whole_project, snapshot)
    if announce is not None:
        announce(len(plan.order))
    k = ""
    digests: Dict[str, str] = {}
    if memo is not None:
        k, shown_at, digests = run_key(plan, settings, buffers, snapshot)
        rec = memo.get(k)
        if rec is not None:
            lazy_facts = LazyFacts(shown_at, buffers, cache_dir, plan.roots)
            return Result(rec.findings, rec.files, lazy_facts, settings, len(plan.order), rec.suppressed,
                          set(rec.event_classes), rec.project_files, tuple(plan.roots))
    if memo is not None and cache_dir is not None and digests:
        quiet = quiet_buffers(plan, settings, buffers, cache_dir, digests)
        if quiet is not None:
            memo.put(k, runcachemod.RunRecord([], [], quiet.files, sorted(quiet.event_classes), quiet.project_files))
            return quiet
    full = FullFacts(shown_at, cache_dir, plan.roots) if memo is not None else None
    checker = (verdicts.Checker((str(p), display_path(p)) for key, p in plan.order.items() if key not in plan.buffer_at)
               if compile_later else None)
    parsed: Set[str] = set()
    try:
        all_facts, reported, hits, focused = read_focused(plan, settings, buffers, jobs, cache_dir,
                                                           light=full is not None, digests=digests,
                                                           compile_later=checker is not None, parsed=parsed)
        found = _analysed(all_facts, reported, settings, cache_dir, memo, digests, full, focused)
        if full is not None and focused is not None:  # (the whole facts read since, on demand)
            parsed |= full.parsed
            hits = len(all_facts) - len(parsed)
        if checker is not None and not checker.confirmed(all_facts):
            return None
    finally:
        if checker is not None:
            checker.close()
    findings, suppressed, seen = found
    facts: Mapping[str, FileFacts] = {f.path: f for f in all_facts}
    if full is not None:
        facts = UpgradedFacts(dict(facts), full)
    files = list(dict.fromkeys(reported))
    if memo is not None and not _failed(findings + suppressed):
        memo.put(k, runcachemod.RunRecord(findings, suppressed, files, sorted(seen), len(all_facts)))
    return Result(findings, files, facts, settings, hits, suppressed, seen, len(all_facts), tuple(plan.roots))


def _analysed(all_facts: List[FileFacts], reported: List[str], settings: Settings, cache_dir: Optional[Path],
              memo: Optional[runcachemod.RunCache], digests: Dict[str, str], full: Optional[FullFacts],
              focused: Optional[focusmod.Focus]) -> Tuple[List[Finding], List[Finding], set]:
    """``analyse`` of a run's facts: (findings, suppressed findings, event classes seen)."""
    seen: set = set()
    suppressed: List[Finding] = []
    gc.freeze()  # the facts live to the end: full collections need not walk them (docs/performance.md, "Scale")
    try:
        findings = analyse(all_facts, settings, suppressed, only=set(reported), seen=seen,
                           cache_dir=cache_dir if memo is not None else None, digests=digests, full=full,
                           focused=focused, freeze=True)
    finally:
        gc.unfreeze()
    return findings, suppressed, seen


def quiet_buffers(plan: Plan, settings: Settings, buffers: Dict[str, bytes], cache_dir: Path,
                  digests: Dict[str, str]) -> Optional[Result]:
    """An editor's run whose only reported files are buffers that cannot hold a
    finding, answered from the head of the remembered call graph
    (``memos.GraphHead``): no index stub, no call graph, no summary. The findings are
    none, as the whole path would give (``tests/test_graph_memo.py`` compares them);
    None when anything else could be (a hot function in a buffer, a buffer that does
    not parse, a file changed on disk, suppression comments that OC001 reports). A
    buffer named otherwise than its file is shown (an editor's absolute path) stands
    for that file."""
    question = prepass_classes(settings)
    if question is None or plan.named_keys or not plan.buffer_at:
        return None
    head = memos.GraphHead(memos.GraphHead.path_of(GraphMemo.entry_of(cache_dir, settings, plan.roots)))
    if head.reach is None:
        return None
    buffer_shown, disk_shown = plan.shown_names()
    outlines = [(buffer_shown[k], read_facts(Path(name), buffers[name], name, roots=plan.roots, outline=True))
                for k, name in plan.buffer_at.items()]
    if any(f.suppressions for _, f in outlines) and any(r.on_suppressions for r in settings.rule_list()):
        return None
    disk = {s: digests.get(s, "") for s in disk_shown}
    seen = head.quiet_buffers(disk, outlines, question.key(), settings.vocab)
    if seen is None:
        return None
    facts = {f.path: f for _, f in outlines}
    return Result([], list(plan.buffers_reported), facts, settings, 0, [], seen, len(plan.order), tuple(plan.roots))


def read_focused(plan: Plan, settings: Settings, buffers: Dict[str, bytes], jobs: int = 1,
                 cache_dir: Optional[Path] = None, light: bool = False, digests: Optional[Dict[str, str]] = None,
                 compile_later: bool = False,
                 parsed: Optional[Set[str]] = None) -> Tuple[List[FileFacts], List[str], int, Optional[focusmod.Focus]]:
    """Phase 2 with the outline pre-pass (``focus``): every file's outline (or light
    facts, from the cache), the functions that can hold a finding on their call graph,
    then the whole facts of the files that hold a needed function; the other files
    stay outlines. Without a pre-pass (``PREPASS`` off, or a selection ``focus``
    cannot reason about), ``read_plan``'s facts and no focus.

    With a cache and the files' content keys (``digests``, by shown path), the call
    graph of the last run is remembered (``memos.GraphMemo``): unchanged files are
    read as index stubs and keep their resolved calls, so that after an edit only
    the edited files are outlined and resolved. ``compile_later``: the outlines take
    only ``ast.parse``'s verdict (``read_plan``; the caller has ``verdicts`` check)."""
    # the files read from their bytes in any pass (``parsed``, the caller's, which the
    # whole facts read later add to): the others came from the cache, each file counted
    # once however many passes read it ("N read (M from the cache)")
    parsed = set() if parsed is None else parsed
    if prepass_classes(settings) is None:
        all_facts, reported, hits = read_plan(plan, buffers, jobs, cache_dir, light=light)
        return all_facts, reported, hits, None
    renamed = {display_path(plan.order[k]): name for k, name in plan.buffer_at.items()}
    memo = (GraphMemo.for_project(cache_dir, settings, plan.roots, digests, renamed)
            if cache_dir is not None and digests else None)
    stubs = memo.stubs() if memo is not None else {}
    all_facts, reported, _ = read_plan(plan, buffers, jobs, cache_dir, light=light, outline=True, known=stubs,
                                       compile_later=compile_later, freeze=True, parsed=parsed)
    remembered = memo.remembered(all_facts, stubs) if memo is not None else None
    if remembered is None and stubs:  # the project's definitions changed: resolve it all again
        read_wanted(plan, all_facts, set(stubs), jobs, cache_dir, light, outline=True, buffers=buffers,
                    parsed=parsed)
        stubs = {}
    focused = focus_of(all_facts, settings, remembered, memo)
    assert focused is not None
    if memo is not None and not focused.failed:
        memo.save(all_facts, focused.rows, stubs, set(buffers), _reach_of(focused, settings))
    focused = _thinned(all_facts, focused)
    # the outlines and the focus live to the end of the run: no collection needs to
    # walk them again, nor any worker of the libcst pass, which a fork gives a copy
    # of this heap (it walked those 440,000 objects in every full collection, a
    # tenth of its time on the bench's seven packages: docs/performance.md, "Session 26")
    gc.freeze()
    if any(p in focused.check_files for p in reported):
        read_wanted(plan, all_facts, focused.need_files, jobs, cache_dir, light, buffers=buffers,
                    units=units_of(focused) if UNITS else None, freeze=True, parsed=parsed)
        if cache_dir is None:
            _unlined(all_facts, focused)
    # (else no summary is computed, ``analyse``: the needed files stay outlines)
    hits = len(all_facts) - len(parsed) if cache_dir is not None else 0
    return all_facts, reported, hits, focused


def _unlined(all_facts: List[FileFacts], focused: focusmod.Focus) -> None:
    """Let go of the source lines of the needed files that are not checked: only
    their summaries are read, and lines are read only by a finding's witness and
    code frame, which are in a checked file. (With a cache a run reads light facts,
    without lines, and the lines it shows from the cache: ``FullFacts``.)"""
    for facts in all_facts:
        if facts.error is None and facts.path in focused.need_files and facts.path not in focused.check_files:
            facts.lines = []


def units_of(focused: focusmod.Focus) -> Dict[str, FrozenSet[str]]:
    """By shown path, the qualified names of the needed functions that live there:
    the only functions of a needed file its libcst pass reads whole."""
    out: Dict[str, Set[str]] = {}
    for key in focused.needed:
        path, qual = summaries.split_key(key)
        out.setdefault(path, set()).add(qual)
    return {path: frozenset(quals) for path, quals in out.items()}


def prepass_classes(settings: Settings) -> Optional[focusmod.Question]:
    """What the outline pre-pass asks of the call graph (the event classes it looks
    for, and what each rule's finding needs), or None when it is off."""
    return focusmod.question_for(settings.rule_list()) if PREPASS else None


def _thinned(all_facts: List[FileFacts], focused: focusmod.Focus) -> focusmod.Focus:
    """Once the focus is known, what only it read is let go: the outlines' calls and
    ``with`` skeletons of the files no needed function lives in (the project index
    reads their definitions only, ``memos.stub_record``), and the focus's rows. On
    the seven packages of the bench that was a third of the peak memory of a cold
    run (docs/performance.md, "Session 13")."""
    for facts in all_facts:
        if facts.outline and facts.path not in focused.need_files:
            for fn in facts.functions:
                fn.calls = []
                fn.body = []
    return dataclasses.replace(focused, rows={})


def _reach_of(focused: focusmod.Focus, settings: Settings) -> Optional[Tuple[List[str], FrozenSet[str], FrozenSet[str]]]:
    """What ``GraphMemo.save`` remembers of a focus: (the question's key, hot, needed)."""
    question = prepass_classes(settings)
    return None if question is None else (question.key(), focused.hot, focused.needed)


def words_of(graph: GraphMemo, sources: Mapping[str, Union[bytes, Path]], path: str) -> Optional[FrozenSet[str]]:
    """The identifiers of a file's text (comments and strings included: more than it
    resolves, never less), remembered in ``graph`` by the file's digest; None when
    the file cannot be read (``memos.GraphMemo.remembered_around``)."""
    digest = graph.digests.get(path)
    got = graph.words.get(path)
    if got is not None and digest is not None and got[0] == digest:
        return got[1]
    source = sources.get(path)
    try:
        data = source if isinstance(source, bytes) else read_source(source) if source is not None else None
    except (OSError, ValueError):
        data = None
    if data is None:
        return None
    found = frozenset(WORD.findall(data.decode("utf-8", "replace")))
    if digest is not None:
        graph.words[path] = (digest, found)
    return found


def focus_of(outlines: List[FileFacts], settings: Settings,
             remembered: Optional[Mapping[str, List[focusmod.Row]]] = None,
             graph: Optional[GraphMemo] = None) -> Optional[focusmod.Focus]:
    """``focus.focus`` of a project's outlines under the selected rules (None: no
    pre-pass; ``remembered``: rows of files not resolved again, ``memos.GraphMemo``).
    A file with suppression comments is checked whole when unused ones are reported
    (an OC001 finding quotes its line)."""
    question = prepass_classes(settings)
    if question is None:
        return None
    known = functools.partial(graph.known_reach, asked=question.key()) if graph is not None else None
    focused = focusmod.focus(outlines, settings.vocab, question, remembered, known)
    if any(r.on_suppressions for r in settings.rule_list()):
        marked = {f.path for f in outlines if f.suppressions}
        focused = dataclasses.replace(focused, check_files=focused.check_files | marked,
                                      need_files=focused.need_files | marked)
    return focused


def content_key(path: Path, shown: str, data: Optional[bytes] = None, roots: Sequence[Path] = ()) -> Optional[str]:
    """The content key of a file's facts as ``run_buffers`` reads them (its module
    name by the project's ``src`` roots, as a CLI run names it): what the memos key a
    file's summaries and findings by."""
    if data is None:
        try:
            data = read_source(path)
        except (OSError, ValueError):
            return None
    return cachemod.key(shown, module_of(path, roots), data)


def module_of(path: Path, roots: Sequence[Path] = ()) -> str:
    """A file's module name as ``sources.read_facts`` gives it under ``roots``."""
    return projectmod.module_names(path, roots)[0] if roots else frontend.module_name(path)


def run_buffers(paths: Sequence[Path], settings: Settings, buffers: Dict[str, bytes],
                jobs: int = 1, cache_dir: Optional[Path] = None, memo: Optional[dict] = None,
                graph: Optional[GraphMemo] = None,
                parsed: Optional[Dict[str, Tuple[str, FileFacts]]] = None) -> Result:
    """The language server's run of phases 1-7: several in-memory buffers (shown name
    → bytes; an editor's open documents) checked against the project under ``paths``:
    each buffer replaces its file on disk, the other files' facts come from disk and
    the cache and feed the summaries, and findings are reported for the buffers only.

    ``memo``, a dict the caller keeps between calls with the same settings, remembers
    each file's facts by its stat (mtime, size, inode, ctime), so that a re-check
    reads and graphs only what changed. Files on disk are read as outlines first (the
    pre-pass, as ``run`` does): only those a needed function lives in are read whole,
    now or at a later call that needs them. ``graph`` (kept by the caller with
    ``memo``: an in-memory ``memos.GraphMemo``) remembers the call graph, so that the
    files that did not change keep their resolved calls while every file exports
    what it did. ``parsed``, a dict the caller keeps with ``memo``, remembers each
    buffer's facts by its content key (its text, shown name and module name): an
    editor re-checks every open document at each pause in typing, and all but one are
    as they were (docs/performance.md, "Session 39"); it is left holding the buffers
    of this call only."""
    projectmod.forget()
    projectmod.buffer_packages(buffers)
    memo = {} if memo is None else memo
    # modules are named by the project's `src` roots, as a CLI run names them (a file
    # in a folder without `__init__.py`, `pkg/other.py`, is `pkg.other` to both)
    start = projectmod.common_start(list(paths)) if paths else (Path(next(iter(buffers))) if buffers else None)
    roots = projectmod.src_roots(settings.config, projectmod.find_root(start, settings.project_root))
    before = dict(parsed) if parsed is not None else {}
    kept: Dict[str, Tuple[str, FileFacts]] = {}
    own: List[FileFacts] = []
    digests: Dict[str, Optional[str]] = {}  # shown path -> content key, for the summary and check memos
    for name, data in buffers.items():
        ckey = content_key(Path(name), name, data, roots)
        hit = before.get(name)
        facts = (hit[1] if hit is not None and ckey is not None and hit[0] == ckey
                 else read_facts(Path(name), data, name, roots=roots))
        own.append(facts)
        if facts.error is None:
            digests[facts.path] = ckey
        if ckey is not None and facts.error is None:
            # (a buffer that did not parse is read again: a `MemoryError` or a thread
            # that could not start is reported as a parse error, and may not recur)
            kept[name] = (ckey, facts)
    if parsed is not None:  # (the documents no longer open are forgotten)
        parsed.clear()
        parsed.update(kept)
    shadowed = {Path(name).resolve() for name in buffers}
    files = [p for p in (collect_files(paths, settings.config) if paths else []) if p.resolve() not in shadowed]
    # A file is known unchanged by its (mtime, size, inode, ctime), as the CLI's stat
    # snapshot knows it: a copy that keeps the size and the mtime (`cp -p`, `rsync -t`,
    # `tar x`) still moves the ctime. One whose ctime is within ``RACY_NS`` of now may
    # change again within the clock's step with the same stat: it is read again at the
    # next call (``snapshot.settled``).
    keys: Dict[Path, Optional[Tuple[int, ...]]] = {}  # None: unreadable
    known: Dict[Path, Tuple[Optional[Tuple[int, ...]], FileFacts, Optional[str]]] = {}
    todo: List[Path] = []
    now = snapshotmod.clock_ns()
    for p in files:
        stat = snapshotmod.file_stat(p)
        keys[p] = tuple(stat) if stat is not None else None
        hit = memo.get(p)
        # (the same stat, and the same module name: an `__init__.py` added or removed
        # beside a file renames its module, and what its imports resolve to)
        if hit is not None and keys[p] is not None and hit[0] == keys[p] and (
                hit[1].error is not None or hit[1].module == module_of(p, roots)):
            known[p] = hit
        else:
            todo.append(p)
    outlines = prepass_classes(settings) is not None
    read, hits = read_all(todo, jobs, cache_dir, roots=roots, outline=outlines)
    for p, facts in zip(todo, read):
        known[p] = (keys[p], facts, content_key(p, facts.path, roots=roots) if cache_dir is not None and facts.error is None else None)
    all_facts = own + [known[p][1] for p in files]
    focused = None
    if outlines:  # the call graph of the last call, kept for the files that did not change
        graph = graph if graph is not None else GraphMemo({})
        # (a file changed within the racy window: a digest of this call alone, so that
        # a second change with the same stat is not taken for this one)
        graph.digests = {known[p][1].path: f"{key}" if snapshotmod.settled(key[3], now) else f"{key}@{now}"
                         for p in files for key in (keys[p],) if key is not None}
        graph.digests.update((f.path, hashlib.sha256(data).hexdigest()) for f, data in zip(own, buffers.values()))
        same = graph.unchanged(all_facts)
        remembered = graph.remembered(all_facts, same)
        if remembered is None and same:  # a `def` added or removed: only who names it again
            sources: Dict[str, Union[bytes, Path]] = {f.path: data for f, data in zip(own, buffers.values())}
            sources.update((known[p][1].path, p) for p in files)
            around = graph.remembered_around(all_facts, same, functools.partial(words_of, graph, sources))
            if around is not None:
                remembered, same = around
        focused = focus_of(all_facts, settings, remembered, graph)
        assert focused is not None
        if not focused.failed:
            graph.save(all_facts, focused.rows, same if remembered is not None else {}, set(), _reach_of(focused, settings))
    if focused is not None:  # the outlines of files a needed function lives in, read whole
        wanted = [p for p in files if (known[p][1].outline or known[p][1].outlined) and known[p][1].path in focused.need_files]
        whole, more = read_all(wanted, jobs, cache_dir, roots=roots)
        hits += more
        for p, facts in zip(wanted, whole):
            known[p] = (known[p][0], facts, known[p][2])
        all_facts = own + [known[p][1] for p in files]
    for p in files:
        error = known[p][1].error
        key = keys[p]
        if key is not None and snapshotmod.settled(key[3], now) and not (error is not None and error.internal):  # (an OC901's: read again)
            memo[p] = known[p]
        elif p in memo:
            del memo[p]
    for p in list(memo):
        if p not in keys:
            del memo[p]  # deleted, or no longer collected
    digests.update((facts.path, digest) for _, facts, digest in (known[p] for p in files))
    suppressed: List[Finding] = []
    # With a cache folder, summaries and the buffers' findings are remembered as in a
    # CLI run: an edit recomputes the summaries it can change, not the project's.
    findings = analyse(all_facts, settings, suppressed, only=set(buffers),
                       cache_dir=cache_dir, digests={k: v for k, v in digests.items() if v} if cache_dir is not None else None,
                       focused=focused)
    return Result(findings, [f.path for f in own], {f.path: f for f in own}, settings,
                  hits + len(files) - len(todo), suppressed, roots=tuple(roots))
