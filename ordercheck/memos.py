"""What a run with a cache remembers below the whole run (``runcache``), each grain
keyed by everything it is computed from (docs/architecture.md, Cache):

* ``run_key``: the run cache's key (engine, settings, every file, the files reported);
* ``SummaryMemo``: each function's summary, outside the call graph's cycles;
* ``CheckMemo``: each file's findings, keyed with the ``deep_digests`` of the
  summaries its calls reach;
* ``FullFacts``/``UpgradedFacts``/``LazyFacts``: facts read light (or not at all)
  and made whole only where a phase or a reporter needs them;
* ``GraphMemo``: the outline pre-pass's call graph, so that a run after an edit
  resolves only the files that changed.
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    AbstractSet,
    Callable,
    Dict,
    FrozenSet,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
)

from . import cache as cachemod
from . import frontend, lazy
from . import project as projectmod
from . import runcache as runcachemod
from . import snapshot as snapshotmod
from .cache import Cache
from .findings import Finding
from .ir import Call, ClassFacts, FileFacts, FunctionFacts, Span, Suppression
from .settings import Settings, settings_fingerprint
from .sources import Plan, display_path, read_facts, read_source, whole_functions

# The summaries (and networkx under them) are imported on first use: a warm run
# whose findings all come from the run cache never reads a summary.
if TYPE_CHECKING:  # the real module, for the type checker
    from . import summaries as summod
else:
    summod = lazy.module("ordercheck.summaries", globals(), "summod")

def _sets(e) -> list:
    return e.rows()


def _gated(rows: object) -> Optional[tuple]:
    """``Effects.gated`` from its memo rows; None for rows of another shape."""
    if type(rows) is not list:
        return None
    out = []
    for row in rows:
        if type(row) is not list or len(row) != 5 or type(row[0]) is not str or type(row[1]) is not bool \
                or not all(type(x) is list and all(type(c) is str for c in x) for x in row[2:]):
            return None
        out.append((row[0], row[1], frozenset(row[2]), frozenset(row[3]), frozenset(row[4])))
    return tuple(out)


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, separators=(",", ":")).encode("utf-8", "surrogatepass")).hexdigest()


def _manager_ok(data: object) -> bool:
    """A remembered manager payload (``effects.build``): ``{"truthy": bool, "catches":
    [type], "generator": null | ManagerEffects.key_row(), "exits": null |
    ExitSplit.row()}`` (``ManagerEffects.row_ok``, ``ExitSplit.row_ok``)."""
    if type(data) is not dict or set(data) != {"truthy", "catches", "generator", "exits"} \
            or type(data["truthy"]) is not bool:
        return False
    if not _strings(data["catches"]):
        return False
    exits = data["exits"]
    if exits is not None and not summod.ExitSplit.row_ok(exits):
        return False
    row = data["generator"]
    return row is None or summod.ManagerEffects.row_ok(row)


def _strings(x: object) -> bool:
    return type(x) is list and all(type(c) is str for c in x)


def _call_ids(fn: "FunctionFacts") -> list:
    """A function's call ids with their positions: what its origins' ids stand for."""
    return [[call.id, call.span.line, call.span.col] for call in fn.calls]


class SummaryMemo:
    """Summaries of functions, remembered per file (one JSON entry per file content
    and vocabulary, under ``summaries/``) by what ``effects.build`` computes them from:
    the file's facts (its content key), the vocabulary, and each call's callee key and
    that callee's summary. The members of a cycle of the call graph are computed
    together, so they are remembered together: each member's entry holds the cycle's
    signature, made of every member's file, calls and callee keys and the summaries of
    the callees outside the cycle, and a cycle is reused only when every member's entry
    holds today's. Validated like every entry; a summary whose origin names a call
    the function does not have is a miss."""

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
            # the ids its origins are stored by, each with its call's position: a file
            # read again with other functions whole numbers its calls anew
            # (``frontend.extract``'s units), and the same origins then named other
            # calls (a differential fuzz, session 45); the outline and the whole read
            # number a comprehension's calls in another order (a review)
            parts.append(_call_ids(fn))
            for call in fn.calls:
                callee = cg.callees.get((facts.path, call.id))
                if callee is not None:
                    parts.append([call.id, callee, _sets(effects_.get(callee, summod.NO_EFFECTS))])
                if call.typed:  # typed by a base in another file (``summaries.ProjectIndex.with_typed_names``)
                    parts.append([call.id, "typed", list(call.typed)])
                if call.imported_lead is not None:  # another module's constant (``Call.lead_import``)
                    parts.append([call.id, "lead", call.imported_lead])
        parts.append(list(extra))  # the project context managers it enters (effects.build)
        return _digest(parts)

    def _cycle_signature(self, members: Sequence[str], cg, effects_: dict, extras: Dict[str, list]) -> Optional[str]:
        inside = set(members)
        parts: list = ["cycle"]
        for m in members:
            path = summod.split_key(m)[0]
            if path not in self.digests:
                return None
            parts.append([m, self.digests[path]])
            for facts, fn in cg.defs.get(m, ()):
                parts.append(fn.qualname)
                parts.append(_call_ids(fn))  # (``_signature``)
                for call in fn.calls:
                    callee = cg.callees.get((facts.path, call.id))
                    if callee is not None:
                        outside = None if callee in inside else _sets(effects_.get(callee, summod.NO_EFFECTS))
                        parts.append([call.id, callee, outside])
                    if call.typed:
                        parts.append([call.id, "typed", list(call.typed)])
                    if call.imported_lead is not None:
                        parts.append([call.id, "lead", call.imported_lead])
            parts.append(list(extras.get(m, ())))
        return _digest(parts)

    def lookup_cycle(self, members: Sequence[str], cg, effects_: dict, extras: Dict[str, list]):
        signature = self._cycle_signature(members, cg, effects_, extras)
        if signature is None:
            return None
        found = {}
        for m in members:
            got = self._decoded(m, cg, signature)
            if got is None:
                return None
            found[m] = got
        self.hits += len(found)
        return found

    def store_cycle(self, members: Sequence[str], cg, effects_: dict, origins: dict, extras: Dict[str, list],
                    managers: Dict[str, Optional[dict]]) -> None:
        signature = self._cycle_signature(members, cg, effects_, extras)
        if signature is not None:
            for m in members:
                self._put(m, signature, effects_.get(m, summod.NO_EFFECTS), origins.get(m, {}), managers.get(m))

    def lookup(self, m: str, cg, effects_: dict, extra: Sequence = ()):
        got = self._decoded(m, cg, self._signature(m, cg, effects_, extra))
        if got is not None:
            self.hits += 1
        return got

    def _decoded(self, m: str, cg, signature: str):
        """The remembered summary of ``m`` if its entry holds ``signature``."""
        path, qual = summod.split_key(m)
        if path not in self.digests:
            return None
        entry = self._bundle(path).get(qual)
        try:
            if type(entry) is not list or len(entry) != 4 or entry[0] != signature:
                return None
            manager = entry[3]
            if manager is not None and not _manager_ok(manager):
                return None
            sets = entry[1]
            if type(sets) is not list or len(sets) != 9 or type(sets[5]) is not bool or not all(
                    type(x) is list and all(type(c) is str for c in x) for x in sets[:5] + sets[6:8]):
                return None
            gated = _gated(sets[8])
            if gated is None:
                return None
            on_return, on_raise, escaping, when_true, when_false = (frozenset(x) for x in sets[:5])
            eff = summod.Effects(on_return, on_raise, escaping, when_true, when_false, sets[5], frozenset(sets[6]),
                                 frozenset(sets[7]), gated)
            calls = {call.id: call for facts, fn in cg.defs.get(m, ()) for call in fn.calls}
            table: Dict[Tuple[str, str], summod.Origin] = {}
            for row in entry[2]:
                part, cls, call_id, opath, callee, opart, marker = row
                if not (type(part) is str and type(cls) is str and type(call_id) is int and opath == path
                        and (callee is None or type(callee) is str) and type(opart) is str
                        and (marker is None or type(marker) is str)):
                    return None
                call = calls.get(call_id)
                if call is None:
                    return None
                table[(part, cls)] = summod.Origin(call, opath, callee, opart, marker)
        except (TypeError, ValueError):
            return None
        return eff, table, manager

    def full(self, facts: FileFacts, fn: "FunctionFacts") -> "FunctionFacts":
        return self.upgrade.full(facts, fn) if self.upgrade is not None else fn

    def store(self, m: str, cg, effects_: dict, eff, table: dict, extra: Sequence = (),
              manager: Optional[dict] = None) -> None:
        self._put(m, self._signature(m, cg, effects_, extra), eff, table, manager)

    def _put(self, m: str, signature: str, eff, table: dict, manager: Optional[dict] = None) -> None:
        path, qual = summod.split_key(m)
        if path not in self.digests:
            return
        rows = [[part, cls, o.call.id, o.path, o.callee, o.part, o.marker] for (part, cls), o in table.items()]
        if any(r[3] != path for r in rows):
            return  # not expected: an origin is a call of the function itself
        self._bundle(path)[qual] = [signature, _sets(eff), rows, manager]
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


def carry_typed(light: FileFacts, whole: FileFacts) -> None:
    """The names the project phase set on ``light``'s calls (``Call.typed``, and
    ``Call.imported_lead``), on the
    same calls of ``whole`` (the same file read whole): the summaries and the graphs
    built from the whole facts match them too."""
    of: Dict[str, List[FunctionFacts]] = {}
    for lfn in light.functions:
        of.setdefault(lfn.qualname, []).append(lfn)
    for wfn in whole.functions:  # (a qualified name defined twice: in order)
        same = of.get(wfn.qualname)
        mine = same.pop(0) if same else None
        typed = {c.id: c.typed for c in mine.calls if c.typed} if mine is not None else {}
        leads = {c.id: c.imported_lead for c in mine.calls if c.imported_lead is not None} if mine is not None else {}
        for c in wfn.calls:
            c.typed = typed.get(c.id, ())
            c.imported_lead = leads.get(c.id)


class FullFacts:
    """The whole facts of files read light (``cache.lighten``: no statement trees, no
    source lines), read from the facts cache when a function's summary or a file's
    findings must be computed again, or a reporter wants the lines. Only files read
    from disk are upgraded (a buffer's facts are whole)."""

    def __init__(self, paths: Dict[str, str], cache_dir: Optional[Path], roots: Sequence[Path]) -> None:
        self.paths = paths  # shown path -> file on disk (its text)
        self.cache_dir = cache_dir
        self.roots = list(roots)
        self.loaded: Dict[str, FileFacts] = {}
        self._index: Dict[str, Dict[int, int]] = {}
        self.parsed: Set[str] = set()  # the files ``file`` read from their bytes, not the cache

    def is_light(self, facts: FileFacts) -> bool:
        return facts.error is None and not facts.lines and facts.path in self.paths

    def file(self, facts: FileFacts) -> FileFacts:
        if not self.is_light(facts):
            return facts
        got = self.loaded.get(facts.path)
        if got is None:
            cache = Cache(self.cache_dir) if self.cache_dir else None
            # (facts read for some functions only: the same functions, whole)
            units = whole_functions(facts) if facts.outlined else None
            before = cache.hits if cache is not None else 0
            got = read_facts(Path(self.paths[facts.path]), cache=cache, roots=self.roots, units=units)
            if cache is None or cache.hits == before:
                self.parsed.add(facts.path)
            got.module_aliases = list(facts.module_aliases)
            if got.path != facts.path:
                got = facts
            else:
                carry_typed(facts, got)
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


def deep_digests(summ: "summod.Summaries", only: Optional[AbstractSet[str]] = None) -> Dict[str, str]:
    """Per function key: a digest of everything a finding can read of the summaries
    through a call to it — its summary and origins and, transitively, its callees'.
    ``only``: the functions that have summaries (the pre-pass's needed ones, closed
    under calls); a call to any other has no digest, and no finding can read it."""
    import networkx as nx_

    cond = nx_.condensation(summ.graph if only is None else summ.graph.subgraph(only))
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
            mrow = None if me is None else me.key_row()
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
        calls: list = []
        for fn in facts.functions:
            if fn.typed:  # which typed names are never falsy: another file's class says (``__bool__``, ``__len__``)
                calls.append([fn.qualname, "truthy", [n for n, t in fn.typed if summ.index.always_truthy(facts, t)]])
            for call in fn.calls:
                callee = summ.callees.get((facts.path, call.id))
                if callee is not None:
                    calls.append([call.id, callee, deep.get(callee, "")])
                if call.typed:  # typed by a base in another file (``summaries.ProjectIndex.with_typed_names``)
                    calls.append([call.id, "typed", list(call.typed)])
                if call.imported_lead is not None:  # another module's constant (``Call.lead_import``)
                    calls.append([call.id, "lead", call.imported_lead])
                mkey = summ.manager_calls.get((facts.path, call.id))
                if mkey is not None:  # a project context manager: its split and its methods
                    me = summ.manager_of(facts.path, call)
                    calls.append([call.id, "with", mkey, deep.get(mkey, ""),
                                  None if me is None else [me.key_row(), deep.get(me.exit_key, ""),
                                                           deep.get(me.entry_key, "")]])
        # (what an `except` clause's re-exported type stands for is checked on a hit:
        # ``get``'s answers, ``ProjectIndex.swallow_answers_hold``)
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
            if not sep:
                return None
            header = json.loads(head)
            answers = header.get("swallow", []) if type(header) is dict else None
            if (type(header) is not dict or header.get("check") != k or type(answers) is not list
                    or not all(type(a) is list and len(a) == 2 and type(a[0]) is str and type(a[1]) is bool
                               for a in answers)):
                return None
            rec = runcachemod.from_json(body)
        except (cachemod.Invalid, UnicodeDecodeError, ValueError, RecursionError):
            return None
        return rec.findings, rec.suppressed, set(rec.event_classes), answers

    def hit(self) -> None:
        self.hits += 1

    def put(self, k: str, found: List[Finding], silenced: List[Finding], classes: set,
            answers: Optional[Dict[str, bool]] = None) -> None:
        """``answers``: the re-exported `except` types the check asked about
        (``ProjectIndex.swallow_asked``), checked again on a hit."""
        try:
            body = runcachemod.to_json(runcachemod.RunRecord(found, silenced, [], sorted(classes), 0))
        except (TypeError, ValueError, RecursionError):
            return
        p = self.folder / k[:2] / f"{k}.json"
        header: Dict[str, object] = {"check": k}
        if answers:
            header["swallow"] = sorted([name, matched] for name, matched in answers.items())
        try:
            cachemod.prepare(self.folder.parent)
            p.parent.mkdir(parents=True, exist_ok=True)
            cachemod.write_atomically(p, (json.dumps(header) + "\n" + body).encode("ascii"))
        except OSError:
            return


def run_key(plan: Plan, settings: Settings, buffers: Dict[str, bytes],
            snapshot: Optional[snapshotmod.Snapshot] = None) -> Tuple[str, Dict[str, str], Dict[str, str]]:
    """The run cache's key: engine, settings, every file (shown name, module names,
    content hash, or why it cannot be read) and the files reported. Returns the key
    and each on-disk file (its path's text) by its shown name, and each file's facts
    key (its content key in the facts cache) by its shown name.

    With a ``snapshot`` (``snapshot``), a file whose stat is as it was is not read
    again: its content key is the remembered one. A plan made afresh is remembered
    with its shown and module names; the snapshot is written when anything changed.
    A remembered plan is read from its rows' text: no ``Path`` per file."""
    key = runcachemod.Key(cachemod.salt(), settings_fingerprint(settings))
    shown_at: Dict[str, str] = {}
    digests: Dict[str, str] = {}
    rows: List[snapshotmod.PlanRow] = []
    if plan.rows is not None:
        buffer_named = {str(k): name for k, name in plan.buffer_at.items()}
        entries: Iterable[Tuple[Optional[str], str, str, str, List[str]]] = (
            (buffer_named.get(k), given, buffer_named.get(k, shown), module, aliases)
            for k, given, shown, module, aliases in plan.rows)
    else:
        entries = _fresh_entries(plan, rows)
    for name, where, shown, module, aliases in entries:
        before = None
        if name is not None:  # a buffer
            data: Optional[bytes] = buffers[name]
            why = ""
        else:
            shown_at[shown] = where
            data, why = None, ""
            known, before = snapshot.digest(where, shown, module) if snapshot is not None else (None, None)
            if known is not None:
                digests[shown] = known
            else:
                try:
                    data, why = read_source(Path(where)), ""
                except (OSError, ValueError) as exc:
                    data, why = None, f"{type(exc).__name__}: {exc}"
        key.add(f"file\0{shown}\0{module}\0{','.join(aliases)}\0{why}")
        if data is not None:
            digests[shown] = cachemod.key(shown, module, data)
            if name is None and snapshot is not None and before is not None:
                snapshot.note_file(where, before, shown, module, digests[shown])
        key.add(digests.get(shown, "-"))
    key.add("reported\0" + "\0".join(plan.reported()))
    if snapshot is not None:
        if plan.rows is None and plan.looked is not None:
            snapshot.note_plan(rows, [str(k) for k in plan.named_keys], plan.roots,
                               plan.looked + projectmod.looked_at())
        snapshot.save()
    return key.hexdigest(), shown_at, digests


def _fresh_entries(plan: Plan, rows: List[snapshotmod.PlanRow]) -> Iterator[Tuple[Optional[str], str, str, str, List[str]]]:
    """A plan made afresh, file by file: (the buffer's name or None, the path's text
    or the buffer's name, shown path, module, module aliases); each file's row is
    added to ``rows`` for the snapshot."""
    for k, p in plan.order.items():
        name = plan.buffer_at.get(k)
        path = Path(name) if name is not None else p
        shown = name if name is not None else display_path(p)
        module, aliases = projectmod.module_names(path, plan.roots) if plan.roots else (frontend.module_name(path), [])
        rows.append((str(k), str(p), shown, module, aliases))
        yield name, name if name is not None else str(p), shown, module, aliases


class LazyFacts(Mapping):
    """Facts by shown path, read (from the facts cache) only when asked for: a run
    answered by the run cache hands these to the reporters, which need the source
    lines of the files that have findings and nothing else."""

    def __init__(self, shown_at: Dict[str, str], buffers: Dict[str, bytes], cache_dir: Optional[Path], roots: Sequence[Path]) -> None:
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
            # (the reporters read lines: facts with any functions whole will do)
            facts = read_facts(Path(self._paths[shown]), cache=cache, roots=self._roots, units=frozenset())
        else:
            raise KeyError(shown)
        self._loaded[shown] = facts
        return facts

    def __iter__(self):
        return iter(list(self._paths) + [b for b in self._buffers if b not in self._paths])

    def __len__(self) -> int:
        return len(set(self._paths) | set(self._buffers))

def open_memos(cache_dir: Path, settings: Settings, digests: Dict[str, str],
               full: Optional[FullFacts]) -> Tuple[SummaryMemo, CheckMemo]:
    """A run's summary and check memos under ``cache_dir`` (``digests``: each file's
    facts key by shown path; ``full``: where facts read light are made whole)."""
    check_memo = CheckMemo(cache_dir, settings_fingerprint(settings), digests)
    summary_memo = SummaryMemo(cache_dir, _digest([cachemod.salt(), repr(settings.vocab)]), digests)
    summary_memo.upgrade = full
    return summary_memo, check_memo


# --------------------------------------------------------------------------- the call graph

GRAPH_FORMAT = 12  # 2: a stub keeps return annotations, decorators and class-level aliases; 3: an exit's self calls;
# 4: a module's ``__all__``; 5: a function's ``async``; 6: its name bound again (``rebound``);
# 7: a class's class-level types (``class_types``); 8: the call a function hands on (``handed``);
# 9: a function that runs its first parameter (``runs_param``); 10: a decorator's wrapper (``wrapper``);
# 11: a module's string constants (``strings``); 12: the module attributes it assigns (``rebinds``)


def stub_record(facts: FileFacts) -> list:
    """What the project index reads of a file (``summaries.ProjectIndex``: its module
    names, imports, functions and classes) and its suppression comments, as JSON:
    enough to stand for the file when its calls need not be resolved again."""
    return [
        facts.module, list(facts.module_aliases), sorted(facts.imports.items()), list(facts.star_imports),
        [[fn.qualname, fn.name, fn.class_name, sorted(fn.local_functions.items()), fn.context_manager,
          fn.returns, list(fn.decorators), exit_self_calls(fn), fn.is_async, fn.rebound, handed_row(fn.handed),
          fn.runs_param, fn.wrapper]
         for fn in facts.functions],
        [[c.qualname, list(c.bases), list(c.methods), [list(t) for t in c.attr_types], c.truth,
          [list(a) for a in c.aliases], [list(t) for t in c.class_types]] for c in facts.classes],
        [[s.line, None if s.codes is None else list(s.codes), s.reason, s.col] for s in facts.suppressions],
        sorted(facts.aliases.items()),
        None if facts.exports is None else list(facts.exports),
        sorted(facts.strings.items()),
        list(facts.rebinds),
    ]


def _exports(record: list) -> list:
    """A record less its suppressions and the calls its functions hand on
    (``FunctionFacts.handed``: a body's edit; the project phase reads it of the
    current stub, and a ``with`` over it is part of its caller's manager rows)."""
    return record[:4] + [[f[:10] + f[11:] for f in record[4]]] + record[5:6] + record[7:]


def exports_digest(record: Optional[list]) -> Optional[str]:
    """The digest of what other files' calls resolve against (a record less its
    suppressions); None for a file without one (it does not parse)."""
    return None if record is None else _digest(_exports(record))


def resolution_digest(facts: FileFacts, path: Optional[str] = None) -> Optional[str]:
    """The digest of what resolving a file's calls and matching them reads of the file
    itself (``summaries.resolve_file``, ``focus``'s rows): its exports, and per function
    its calls' names, receiver types and marks and its ``with`` items' managers, in
    order, without positions. Two versions of a file with the same digest, in a project
    whose other files and exports are the same, have the same rows (``GraphHead``).
    ``path``: the name the file is shown under in the project (a buffer's file's, when
    the buffer is named otherwise). None for a file that does not parse."""
    if facts.error is not None:
        return None
    from .summaries import with_managers

    functions = []
    for fn in facts.functions:
        at = {c.id: i for i, c in enumerate(fn.calls)}
        functions.append([
            fn.qualname,
            fn.handles,  # (a row's `except` mark: ``focus._row``; review 1 of session 65)
            [[c.callee, list(c.qualnames), c.receiver_type, c.invokes, c.self_call, c.aug, c.exits, c.local_head,
              c.awaited, c.discarded, c.detached, c.ref, c.made_by]  # (a dropped coroutine resolves to nothing: ``summaries._resolve_function``)
             for c in fn.calls],
            [[at.get(m.id), m.callee, list(m.qualnames), m.receiver_type, m.self_call] for m in with_managers(fn.body)],
        ])
    return _digest([path if path is not None else facts.path, _exports(stub_record(facts)), functions])


#: an identifier (``runner.words_of``, ``bound_to``)
WORD = re.compile(r"[^\W\d]\w*")


def bound_to(files: Sequence[FileFacts], names: Set[str]) -> Set[str]:
    """``names`` and every name an import or an alias binds to one of them, in any
    file, until none is added: ``from .store import persist as keep`` makes ``keep``
    a name of ``persist``, so that a file calling ``keep()`` is resolved again when
    ``persist`` is added, though its text never says ``persist``."""
    names = set(names)
    grew = bool(names)
    while grew:
        grew = False
        for f in files:
            pairs = [*f.imports.items(), *f.aliases.items(), *((a[0], " ".join(a[1:])) for c in f.classes for a in c.aliases)]
            for local, target in pairs:
                if local not in names and any(w in names for w in WORD.findall(target)):
                    names.add(local)
                    grew = True
    return names


def added_or_removed(old: list, new: list) -> Optional[Set[str]]:
    """The names of the functions and methods one version of a file's ``stub_record``
    adds to or removes from another, when that is all that differs between their
    exports (nested functions included; the module's and a function's names of their
    own ``def``s follow them); None for any other difference: the module's name, an
    import, an alias, a class's bases or attributes, a definition changed in place, a
    name defined twice, a special method (``__bool__``, a module's ``__getattr__``)."""
    if old[:4] != new[:4] or old[7] != new[7]:
        return None
    names: Set[str] = set()

    def by_qualname(entries: list, width: int) -> Optional[Dict[str, str]]:
        out: Dict[str, str] = {}
        for e in entries:
            if e[0] in out:
                return None  # defined twice: which one wins is the order's
            out[e[0]] = json.dumps([x for i, x in enumerate(e) if i != width])
        return out

    # classes: the same ones, with the same bases, attributes and truth; their methods
    # may differ (each is a function's entry too, ``Class.m``, below)
    old_classes, new_classes = by_qualname(old[5], 2), by_qualname(new[5], 2)
    if old_classes is None or new_classes is None or old_classes != new_classes:
        return None
    old_fns, new_fns = by_qualname(old[4], 3), by_qualname(new[4], 3)
    if old_fns is None or new_fns is None:
        return None
    for q in old_fns.keys() & new_fns.keys():
        if old_fns[q] != new_fns[q]:
            return None
    locals_old = {e[0]: dict(e[3]) for e in old[4]}
    locals_new = {e[0]: dict(e[3]) for e in new[4]}
    for q in locals_old.keys() & locals_new.keys():
        a, b = locals_old[q], locals_new[q]
        names |= {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)}
    for e in old[4] + new[4]:
        if e[0] not in old_fns or e[0] not in new_fns:
            names.add(e[1])
    if any(n.startswith("__") and n.endswith("__") for n in names):
        return None
    return names


_NO_SPAN = Span(0, 0, 0, 0)


def stub_facts(path: str, record: list) -> FileFacts:
    """An index stub: a file as ``stub_record`` remembers it (an outline without calls)."""
    module, aliases, imports, stars, functions, classes, sups, names, exports, strings, rebinds = record
    return FileFacts(
        path=path, module=module, module_aliases=list(aliases), imports=dict(imports), star_imports=list(stars),
        exports=None if exports is None else list(exports),
        aliases=dict(names), strings=dict(strings), rebinds=tuple(rebinds),
        functions=[FunctionFacts(q, n, c, _NO_SPAN, (), [], _stub_calls(exits), dict(local), context_manager=cm,
                                 returns=returns, decorators=tuple(decorators), is_async=is_async, rebound=rebound,
                                 handed=_handed(handed), runs_param=runs_param, wrapper=wrapper)
                   for q, n, c, local, cm, returns, decorators, exits, is_async, rebound, handed, runs_param, wrapper
                   in functions],
        classes=[ClassFacts(q, tuple(bases), tuple(methods), tuple((a, t) for a, t in attrs),
                            aliases=tuple(tuple(a) for a in aliases), truth=truth,
                            class_types=tuple((a, t) for a, t in class_types))
                 for q, bases, methods, attrs, truth, aliases, class_types in classes],
        suppressions=[Suppression(line, None if codes is None else tuple(codes), reason, col)
                      for line, codes, reason, col in sups],
        outline=True)


#: the methods whose ``self.m()`` calls the project index reads of another file
#: (``summaries.ProjectIndex.exit_self_methods``: what a manager's exit runs)
EXITS = ("__exit__", "__aexit__")


def exit_self_calls(fn: FunctionFacts) -> List[str]:
    """The ``self.m`` a manager's exit calls (``self._commit()``), in order; none for
    any other function. The index reads them of the exit's file when a ``with`` in
    another file enters a subclass (``exit_self_methods``), so a stub keeps them."""
    if fn.name not in EXITS:
        return []
    # (`DROPPED` before a call that drops what it makes: ``summaries.ProjectIndex.exit_self_methods``)
    return list(dict.fromkeys((DROPPED if c.discarded and not c.awaited else "") + c.callee for c in fn.calls
                              if c.self_call == "self" and c.callee.startswith("self.") and c.callee.count(".") == 1))


#: the mark of an exit's ``self.m()`` that is a statement by itself, not awaited
#: (``Call.discarded``), in a stub's list of them (no callee text starts with it)
DROPPED = "~"


def _stub_calls(texts: List[str]) -> List[Call]:
    """An exit's ``self.m()`` calls as a stub keeps them (``exit_self_calls``)."""
    return [Call(-1 - i, text.lstrip(DROPPED), (), _NO_SPAN, "", (0, 0), self_call="self",
                 discarded=text.startswith(DROPPED)) for i, text in enumerate(texts)]


def handed_row(call: Optional[Call]) -> Optional[list]:
    """What resolving ``FunctionFacts.handed`` reads of the call (``callee_key``)."""
    if call is None:
        return None
    return [call.callee, list(call.qualnames), call.receiver_type, call.invokes, call.self_call, call.aug,
            call.local_head]


def _handed(row: Optional[list]) -> Optional[Call]:
    if row is None:
        return None
    callee, qualnames, receiver, invokes, self_call, aug, local_head = row
    return Call(-1000, callee, tuple(qualnames), _NO_SPAN, "", (0, 0), receiver_type=receiver, invokes=invokes,
                self_call=self_call, aug=aug, local_head=local_head)


def _handed_ok(v: object) -> bool:
    return v is None or (type(v) is list and len(v) == 7 and _is_str(v[0]) and _strs(v[1])
                         and all(x is None or _is_str(x) for x in v[2:5]) and type(v[5]) is bool
                         and type(v[6]) is int)


def _is_str(v: object) -> bool:
    return type(v) is str


def _strs(v: object) -> bool:
    return type(v) is list and all(type(x) is str for x in v)


def _pairs(v: object) -> bool:
    return type(v) is list and all(type(x) is list and len(x) == 2 and _strs(x) for x in v)


def _record_ok(r: object) -> bool:
    """A stub record as ``stub_record`` writes it (a cache entry is never trusted)."""
    if type(r) is not list or len(r) != 11:
        return False
    module, aliases, imports, stars, functions, classes, sups, names, exports, strings, rebinds = r
    return (_is_str(module) and _strs(aliases) and _pairs(imports) and _strs(stars) and _pairs(names)
            and _strs(rebinds)
            and type(strings) is list and all(type(x) is list and len(x) == 2 and _is_str(x[0])
                                              and (x[1] is None or _is_str(x[1])) for x in strings)
            and (exports is None or _strs(exports))
            and type(functions) is list and all(
                type(f) is list and len(f) == 13 and _is_str(f[0]) and _is_str(f[1])
                and (f[2] is None or _is_str(f[2])) and _pairs(f[3]) and type(f[4]) is bool
                and (f[5] is None or _is_str(f[5])) and _strs(f[6]) and _strs(f[7]) and type(f[8]) is bool
                and type(f[9]) is bool and _handed_ok(f[10]) and type(f[11]) is bool
                and (f[12] is None or _is_str(f[12]))
                for f in functions)
            and type(classes) is list and all(
                type(c) is list and len(c) == 7 and _is_str(c[0]) and _strs(c[1]) and _strs(c[2]) and _pairs(c[3])
                and type(c[4]) is bool and type(c[5]) is list and all(_strs(a) and a for a in c[5]) and _pairs(c[6])
                for c in classes)
            and type(sups) is list and all(
                type(s) is list and len(s) == 4 and type(s[0]) is int and (s[1] is None or _strs(s[1]))
                and _is_str(s[2]) and type(s[3]) is int for s in sups))


def _rows_ok(rows: object) -> bool:
    return type(rows) is list and all(
        type(x) is list and len(x) == 3 and _is_str(x[0]) and _strs(x[1]) and _strs(x[2]) for x in rows)


class GraphHead:
    """The small part of a ``GraphMemo`` entry (``graph/<key>.head.json``): per file its
    content key, exports digest and resolution digest, and the focus of the
    remembered rows. It answers an editor's buffer that cannot hold a finding without
    reading the call graph (``quiet_buffers``)."""

    FORMAT = 1

    def __init__(self, entry: Path) -> None:
        self.files: Dict[str, list] = {}
        self.reach: Optional[list] = None
        try:
            raw = cachemod._read_entry(entry)
            data = json.loads(raw.decode("utf-8")) if raw is not None else None
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            return
        if not (type(data) is dict and data.get("format") == self.FORMAT and type(data.get("files")) is dict):
            return
        files, reach = data["files"], data.get("reach")
        if not all(type(v) is list and len(v) == 3 and all(x is None or _is_str(x) for x in v) for v in files.values()):
            return
        if not (type(reach) is list and len(reach) == 3 and all(_strs(x) for x in reach)):
            return
        self.files, self.reach = files, reach

    @staticmethod
    def path_of(entry: Path) -> Path:
        return entry.with_name(entry.stem + ".head.json")

    def quiet_buffers(self, disk: Mapping[str, str], buffers: Sequence[Tuple[str, FileFacts]],
                      asked: List[str], vocab) -> Optional[Set[str]]:
        """When no buffer among ``buffers`` (outlines, each with the shown path of the
        file it stands for) can hold a finding, the classes their calls match; else None.

        Exact: the files on disk (``disk``: shown path -> content key) are the ones
        remembered, and each buffer exports what its file did and has the same
        resolution digest, so every row, and so the focus, is the remembered one; a
        file without a hot function has no finding but its OC900 (a buffer that does
        not parse is never answered here). ``asked``: the pre-pass's question
        (``focus.Question.key``), which the remembered focus must have answered."""
        if self.reach is None or asked != self.reach[0]:
            return None
        names = {path for path, _ in buffers}
        if set(self.files) != set(disk) | names:
            return None
        for path, key in disk.items():
            if path in names or self.files[path][0] is None or self.files[path][0] != key:
                return None
        seen: Set[str] = set()
        for path, facts in buffers:
            if facts.error is not None:
                return None
            was = self.files[path]
            if (was[2] is None or was[1] != exports_digest(stub_record(facts))
                    or was[2] != resolution_digest(facts, path)):
                return None
            for fn in facts.functions:
                for call in fn.calls:
                    seen |= vocab.direct(call)
        if any(k.rpartition("::")[0] in names for k in self.reach[1]):
            return None  # a hot function in a buffer: it is checked
        return seen


class GraphMemo:
    """The outline pre-pass's call graph, remembered between runs (one JSON entry per
    project and settings, under ``graph/``), so that a run after an edit neither
    decodes every file's outline nor resolves every call again.

    Per file it holds the file's content key, a stub record (``stub_record``: what
    the project index reads of it) and its functions' rows (``focus.Row``: the
    classes their calls match, the project functions they run), and for the whole
    project a digest of every file's exports in the plan's order. A file whose
    content key is unchanged is read as its stub; when every changed file exports
    what it did (an edit inside a function: the same functions, classes and
    imports), the other files resolve as before and keep their rows, and only the
    changed files are resolved. Anything else (a file added, removed, or
    exporting something else) is resolved again from the outlines. Validated like
    every entry: one that does not validate is not read."""

    def __init__(self, digests: Dict[str, str], renamed: Optional[Dict[str, str]] = None,
                 folder: Optional[Path] = None, entry: Optional[Path] = None) -> None:
        """A memo read from ``entry`` under the cache ``folder`` (``for_project``), or
        one kept in memory (the language server's, with ``digests`` any version of
        each file's content)."""
        self.folder = folder
        self.path = entry
        self.digests = digests  # shown path -> content key (or version) of the file read
        self.files: Dict[str, list] = {}  # shown path -> [content key, exports, record | None, rows]
        # a buffer shown under another name than its file on disk (``--stdin-filename``
        # with an absolute path): file's shown path -> buffer's name, and back
        self.renamed = {disk: name for disk, name in (renamed or {}).items() if disk != name}
        self.back = {name: disk for disk, name in self.renamed.items()}
        self.index: str = ""
        # the focus of the remembered rows: [classes, hot keys, needed keys] (``known_reach``)
        self.reach: Optional[list] = None
        # shown path -> (its digest, the identifiers of its text): ``runner.words_of``
        self.words: Dict[str, Tuple[str, FrozenSet[str]]] = {}
        if entry is not None:
            self._load(entry)

    @staticmethod
    def entry_of(cache_dir: Path, settings: Settings, roots: Sequence[Path]) -> Path:
        """Where the memo of a project (its ``src`` roots) under ``settings`` lives."""
        k = _digest(["graph", GRAPH_FORMAT, cachemod.salt(), settings_fingerprint(settings),
                     [str(r) for r in roots]])
        return Path(cache_dir) / "graph" / k[:2] / f"{k}.json"

    @classmethod
    def for_project(cls, cache_dir: Path, settings: Settings, roots: Sequence[Path], digests: Dict[str, str],
                    renamed: Optional[Dict[str, str]] = None) -> "GraphMemo":
        """The memo of a project (its ``src`` roots) under ``settings``, read from the cache."""
        return cls(digests, renamed, Path(cache_dir), cls.entry_of(cache_dir, settings, roots))

    def _load(self, entry: Path) -> None:
        try:
            raw = cachemod._read_entry(entry)
        except OSError:
            raw = None
        if raw is None:
            return
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            return
        if type(data) is not dict or data.get("format") != GRAPH_FORMAT or not _is_str(data.get("index")):
            return
        files = data.get("files")
        if type(files) is not dict:
            return
        for path, entry in files.items():
            if not (type(entry) is list and len(entry) == 4 and (entry[0] is None or _is_str(entry[0]))
                    and (entry[1] is None or _is_str(entry[1]))
                    and (entry[2] is None or _record_ok(entry[2])) and _rows_ok(entry[3])
                    and (entry[2] is None) == (entry[1] is None)):
                return
        self.files, self.index = files, data["index"]
        reach = data.get("reach")
        if type(reach) is list and len(reach) == 3 and all(_strs(x) for x in reach):
            self.reach = reach

    def _same(self, path: str) -> bool:
        entry = self.files.get(path)
        return entry is not None and entry[2] is not None and entry[0] is not None and self.digests.get(path) == entry[0]

    def stubs(self) -> Dict[str, FileFacts]:
        """Index stubs of the files whose content is what the entry remembers."""
        return {path: stub_facts(path, self.files[path][2]) for path in self.files if self._same(path)}

    def unchanged(self, files: Sequence[FileFacts]) -> Dict[str, FileFacts]:
        """Of ``files`` (in memory), those whose content is what the memo remembers."""
        return {f.path: f for f in files if f.error is None and self._same(f.path)}

    def _exports(self, facts: FileFacts, stubs: Mapping[str, FileFacts]) -> Optional[str]:
        if facts.path in stubs:
            return self.files[facts.path][1]
        return exports_digest(stub_record(facts)) if facts.error is None else None

    def _index_of(self, files: Sequence[FileFacts], stubs: Mapping[str, FileFacts]) -> str:
        """The digest of every file's exports, a buffer's under its file's name."""
        return _digest([[self.back.get(f.path, f.path), self._exports(f, stubs)] for f in files])

    def _target(self, key: str) -> str:
        path, sep, qual = key.rpartition("::")
        return f"{self.renamed[path]}{sep}{qual}" if path in self.renamed else key

    def remembered(self, files: Sequence[FileFacts], stubs: Mapping[str, FileFacts]) -> Optional[Dict[str, list]]:
        """The rows of the stubs' files (``focus.focus``'s ``remembered``) when every
        file exports what it did when they were resolved; else None. A call into a
        file a buffer stands for under another name runs the buffer's function."""
        if not stubs or self._index_of(files, stubs) != self.index:
            return None
        rename = self._target if self.renamed else None
        return {path: [(key, frozenset(classes), tuple(map(rename, targets)) if rename else tuple(targets))
                       for key, classes, targets in self.files[path][3]]
                for path in stubs}

    def remembered_around(self, files: Sequence[FileFacts], same: Mapping[str, FileFacts],
                          words: Callable[[str], Optional[FrozenSet[str]]]
                          ) -> Optional[Tuple[Dict[str, list], Dict[str, FileFacts]]]:
        """When ``remembered`` is None because a changed file exports something else,
        but only functions or methods added or removed (``added_or_removed``), the rows
        of the unchanged files whose text (``words``: the identifiers of a file's text,
        comments and strings included; None: not known) names none of them, and those files: no other
        file's calls can resolve differently, so only the changed files and the files
        that name the new or old functions are resolved again. An editor's new ``def``
        (docs/performance.md, "Session 40"). None when anything else changed: a file
        added or removed, a class, an import, an alias, a module name. Only for files
        in memory (``same``: whole outlines, as the language server keeps them): a stub
        has no calls to resolve."""
        if self.renamed or not same:
            return None
        names: Set[str] = set()
        paths = {f.path for f in files}
        if any(p not in paths for p in self.files):
            return None  # a file removed
        for f in files:
            if f.path in same:
                continue
            entry = self.files.get(f.path)
            if f.error is not None or entry is None or entry[2] is None:
                return None  # a file added, or one that did not parse then or now
            got = added_or_removed(entry[2], stub_record(f))
            if got is None:
                return None
            names |= got
        names = bound_to(files, names)
        if names & {t.lstrip(DROPPED)[len("self."):] for f in files for fn in f.functions for t in exit_self_calls(fn)}:
            return None  # a method a manager's exit calls on `self`: a `with` reaches it by no name
        keep = {}
        for p, facts in same.items():
            said = words(p) if names else frozenset()
            if said is not None and not (said & names):
                keep[p] = facts
        rows = {path: [(key, frozenset(classes), tuple(targets)) for key, classes, targets in self.files[path][3]]
                for path in keep}
        return rows, keep

    def _disk(self, key: str) -> str:
        path, sep, qual = key.rpartition("::")
        return f"{self.back[path]}{sep}{qual}" if path in self.back else key

    def known_reach(self, rows: Mapping[str, list], fresh: AbstractSet[str],
                    asked: List[str]) -> Optional[Tuple[FrozenSet[str], FrozenSet[str]]]:
        """The hot and needed keys the remembered rows gave to the question ``asked``
        (``focus.Question.key``), when the
        rows of this run are those very rows (``focus.KnownReach``): ``fresh`` are the
        paths resolved afresh, the others' rows are the remembered ones. A file
        without rows counts as a file without functions. Exact: the focus is a
        function of the rows and the question alone."""
        if self.reach is None or asked != self.reach[0]:
            return None
        disk = self._disk if self.back else None
        for path in fresh:
            entry = self.files.get(self.back.get(path, path))
            mine = [[disk(k) if disk else k, sorted(c), [disk(t) for t in ts] if disk else list(ts)]
                    for k, c, ts in rows[path]]
            if (entry[3] if entry is not None else []) != mine:
                return None
        present = {self.back.get(p, p) for p in rows}
        if any(entry[3] for path, entry in self.files.items() if path not in present):
            return None
        rename = self._target if self.renamed else (lambda k: k)
        return frozenset(map(rename, self.reach[1])), frozenset(map(rename, self.reach[2]))

    def save(self, files: Sequence[FileFacts], rows: Mapping[str, list], stubs: Mapping[str, FileFacts],
             buffers: AbstractSet[str], reach: Optional[Tuple[Sequence[str], AbstractSet[str], AbstractSet[str]]] = None
             ) -> None:
        """Remember ``files`` (as ``focus.focus`` saw them), their rows and the focus
        of those rows (``reach``: the question's key, the hot keys, the needed keys). Not
        when the only files that changed are editor buffers: the next run reads the
        files on disk, whose entries are still the ones remembered."""
        changed = [f.path for f in files if f.path not in stubs
                   and (f.path not in self.files or self.files[f.path][0] != self.digests.get(f.path))]
        if stubs and all(p in buffers for p in changed) and self.index == self._index_of(files, stubs):
            return
        if self.renamed:
            return  # (a buffer under another name: its keys are not its file's)
        out: Dict[str, list] = {}
        for f in files:
            if f.path in stubs:
                out[f.path] = self.files[f.path]
                continue
            record = stub_record(f) if f.error is None else None
            out[f.path] = [self.digests.get(f.path), exports_digest(record), record,
                           [[key, sorted(classes), list(targets)] for key, classes, targets in rows.get(f.path, ())]]
        index = _digest([[f.path, out[f.path][1]] for f in files])
        kept = [sorted(part) for part in reach] if reach is not None else None
        if self.path is not None and self.folder is not None:
            head_path = GraphHead.path_of(self.path)
            known = GraphHead(head_path).files if stubs else {}

            def resolved_as(f: FileFacts) -> Optional[str]:
                if f.path not in stubs:
                    return resolution_digest(f)
                was = known.get(f.path)  # (a stub has no calls: its digest is the one remembered)
                return was[2] if was is not None and was[0] == out[f.path][0] else None

            head = {f.path: [out[f.path][0], out[f.path][1], resolved_as(f)] for f in files}
            try:
                data = json.dumps({"format": GRAPH_FORMAT, "index": index, "files": out, "reach": kept},
                                  separators=(",", ":")).encode("utf-8", "surrogatepass")
                cachemod.prepare(self.folder)
                self.path.parent.mkdir(parents=True, exist_ok=True)
                cachemod.write_atomically(self.path, data)
                if kept is not None:
                    cachemod.write_atomically(head_path, json.dumps(
                        {"format": GraphHead.FORMAT, "files": head, "reach": kept},
                        separators=(",", ":")).encode("utf-8", "surrogatepass"))
                else:
                    head_path.unlink(missing_ok=True)
            except (OSError, ValueError, RecursionError):
                return
        self.files, self.index, self.reach = out, index, kept
