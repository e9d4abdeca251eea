"""Stage 3b — the project summaries of semantics §Events, computed on the graphs.

``summaries.resolve`` gives the call graph; here each function's graph is built (with
its own call nodes carrying *their* callees' summaries) and four questions are answered
by reachability on it, callees first over the condensation of the call graph:

* on return: classes performed on some path ENTRY → EXIT (an event performs on a path
  only if the path leaves it by a normal edge: an exceptional edge means it did not
  take effect, semantics §Graph);
* on raise: classes performed on some path ENTRY → RAISE;
* escaping failures: classes of events whose exception reaches RAISE while it is still
  in flight — through handler chains, non-suppressing ``with`` exits, ``finally``
  copies that re-raise and handlers that ``raise`` — but not through a handler that
  stops it;
* conditional effects: classes of on-return that are performed only on paths whose
  last ``return`` is the constant ``True`` (or ``False``).

Each graph is built once per summary pass (with a ``raised``/``outcome`` point at every
resolved call, so its shape does not depend on what the callees turn out to carry), and
thrown away once its strongly connected component is done.
"""
from __future__ import annotations

import ast
import dataclasses
import itertools
import logging
import re
from dataclasses import dataclass, field
from typing import AbstractSet, Callable, Dict, FrozenSet, Iterable, List, Optional, Protocol, Sequence, Set, Tuple

import networkx as nx

from . import cfg, depth, errors
from . import managers as mgrmod
from .cfg import ENTRY, EXIT, RAISE
from .ir import Call, FileFacts, FunctionFacts
from .kinds import (
    HANDS_ON,
    HANDS_ON_AWAITED,
    HANDS_TRANSACTION,
    MARKED_CLASS,
    NEAR_MARKS,
    NEARNESS,
    NO_RETURN,
    NO_RETURN_AWAITED,
    NO_RETURN_MARKS,
    OWN_MARKS,
    RUNNING_LINE,
    EdgeKind,
    EventClass,
    NodeKind,
    RegionKind,
    StmtKind,
    Way,
)
from .summaries import (
    MANAGER_SAVES,
    NO_EFFECTS,
    NOT_CARRIED,
    CallGraph,
    Effects,
    ExitSplit,
    ManagerEffects,
    Origin,
    ProjectIndex,
    Summaries,
    async_key,
    fkey,
    flag_part,
    gate_name,
    resolve,
    with_managers,
)
from .vocabulary import DECLARED_TRANSACTION, Vocabulary

LOG = logging.getLogger("ordercheck")  # an internal error's traceback (the CLI's -v shows it)

Lookup = Callable[[str], Effects]
# the project context manager a ``with`` item's call enters (semantics §Events), by (file, call)
Managers = Callable[[str, Call], Optional[ManagerEffects]]


class Memo(Protocol):
    """What ``build`` asks of its ``memo`` (``memos.SummaryMemo``)."""

    def lookup(self, m: str, cg: CallGraph, effects_: Dict[str, Effects], extra: Sequence = ()
               ) -> Optional[Tuple[Effects, Dict[Tuple[str, str], Origin], Optional[dict]]]: ...

    def full(self, facts: FileFacts, fn: FunctionFacts) -> FunctionFacts: ...

    def store(self, m: str, cg: CallGraph, effects_: Dict[str, Effects], eff: Effects,
              table: Dict[Tuple[str, str], Origin], extra: Sequence = (), manager: Optional[dict] = None) -> None: ...

    def lookup_cycle(self, members: Sequence[str], cg: CallGraph, effects_: Dict[str, Effects],
                     extras: Dict[str, list]
                     ) -> Optional[Dict[str, Tuple[Effects, Dict[Tuple[str, str], Origin], Optional[dict]]]]: ...

    def store_cycle(self, members: Sequence[str], cg: CallGraph, effects_: Dict[str, Effects],
                    origins: Dict[str, Dict[Tuple[str, str], Origin]], extras: Dict[str, list],
                    managers: Dict[str, Optional[dict]]) -> None: ...


@dataclass
class NodeSets:
    """Per graph node: the classes it performs, the classes whose failure it can raise
    (for ``swallowed``), its callee's key, and which part of the callee's summary it
    stands for (``return``, ``raise``, ``true``, ``false``)."""

    performs: Dict[object, FrozenSet[str]] = field(default_factory=dict)
    raises: Dict[object, FrozenSet[str]] = field(default_factory=dict)
    callees: Dict[object, str] = field(default_factory=dict)
    parts: Dict[object, str] = field(default_factory=dict)
    # a class manager's call in a ``with`` item: its ``__exit__`` (key) and the classes
    # of ``raises`` whose failure only that exit raises (neither the constructor nor
    # ``__enter__``): a witness and a message name the exit, not the call
    exit_raises: Dict[object, Tuple[str, FrozenSet[str]]] = field(default_factory=dict)
    # per ``outcome`` point of a call: the classes the call performs on every normal way
    # back (its callee's ``Effects.always``, and the call's own), which cover the
    # outcome's own first or then for a sequence rule (``contracts.sequence``)
    must: Dict[object, FrozenSet[str]] = field(default_factory=dict)


def carried_only(vocab: Vocabulary, call: Call, carried: FrozenSet[str]) -> FrozenSet[str]:
    """Classes carried to a point that is not the call itself (its on-raise or
    conditional effects): the call's own patterns do not apply, its terminal markers
    do (a carried ``append`` with a marker at the call site is terminal)."""
    out = set(vocab.not_excluded(call, carried)) - OWN_MARKS
    if "append" in out and not call.builds and vocab.carries_marker(call):
        if "terminal-append" not in out:
            out.add(mgrmod.OPEN_TERMINAL)  # made terminal here, outside any guard of the callee
        out.add("terminal-append")
        out.add(mgrmod.OWN_TERMINAL)  # made terminal by the call's own marker
    if "terminal-append" in out:
        out.add("append")
    return frozenset(out)


_APPENDS = frozenset({"append", "terminal-append"})
_ROW_WRITES = _APPENDS | {"save"}


def _manager_save(call: Call, key: str) -> bool:
    """A Django manager's ``create`` resolved to the model's ``save()``
    (``ProjectIndex.callee_key``, ``MANAGER_SAVES``)."""
    parts = call.callee.rsplit(".", 2)
    return len(parts) == 3 and parts[1] == "objects" and parts[2] in MANAGER_SAVES and key.endswith(".save")


#: what Django's manager ``create`` passes the model's ``save()`` (``at_call``)
MANAGER_CREATE_FLAGS = (("force_insert", True),)


def call_flags(call: Call, key: Optional[str]) -> Tuple[Tuple[str, bool], ...]:
    """The flag arguments ``call`` of the function ``key`` passes (``Call.flags``): and,
    for a Django manager's ``create``/``get_or_create`` running the model's ``save()``,
    the ``force_insert=True`` Django passes (``MANAGER_CREATE_FLAGS``). One reading for
    the check, ``suggest`` and the witness's "via" (session 65's second review)."""
    if key is not None and _manager_save(call, key) and call.callee.rsplit(".", 1)[-1] in (
            "create", "get_or_create", "acreate", "aget_or_create"):
        return call.flags + MANAGER_CREATE_FLAGS
    return call.flags


def at_call(call: Call, key: str, eff: Effects, vocab: Vocabulary) -> Effects:
    """A callee's effects as ``call`` of it carries them: less what its flag arguments
    rule out (``Effects.for_call``). A Django manager's ``create`` runs the model's
    ``save(force_insert=True)`` (held-out set 303: an override's `if not force_insert:`
    write was carried); one whose own patterns name a row write (``*History.objects.create``
    an append) runs the model's ``save()``, whose ``super().save()`` is that row, not also
    a save (session 64's second review). One reading for the check (``node_sets``) and
    ``suggest`` (set 303: suggest said such an append "also saves" where the check
    reported its OC102)."""
    manager = _manager_save(call, key)
    flags = call_flags(call, key)
    eff = eff.for_call(call if flags is call.flags else dataclasses.replace(call, flags=flags))
    if manager and vocab.direct(call) & _ROW_WRITES:
        return _without(eff, "save")
    return eff


def _without(eff: Effects, cls: str) -> Effects:
    gone = frozenset({cls})
    return dataclasses.replace(eff, on_return=eff.on_return - gone, on_raise=eff.on_raise - gone,
                               escaping=eff.escaping - gone, when_true=eff.when_true - gone,
                               when_false=eff.when_false - gone, exhausted=eff.exhausted - gone)


_QUIET = frozenset({EventClass.QUIET.value})


def caught_inside(eff: Effects) -> FrozenSet[str]:
    """The classes a project callee performs whose failures it stops itself (performed,
    not escaping). A call that also matches such a class by its own name
    (``self.append_event(rec)`` over a helper that catches and logs its append's failure)
    does not raise it into the caller's handler: the callee's body is known, and only
    its escaping failures raise (semantics §Events Summaries; docs/decisions.md, "A
    helper's name and its escaping failures"). A class its body does not show stays the
    call's own, as for any matched call. An append's terminal mark is the call site's,
    so the two append classes go together."""
    caught = (eff.on_return | eff.on_raise) - eff.escaping
    if caught & _APPENDS:
        caught = caught - _APPENDS if eff.escaping & _APPENDS else caught | _APPENDS
    return frozenset(caught)


def node_sets(g: nx.DiGraph, path: str, vocab: Vocabulary, callees: Dict[Tuple[str, int], str],
              lookup: Lookup, managers: Optional[Managers] = None) -> NodeSets:
    out = NodeSets()
    for n, data in g.nodes(data=True):
        call = data.get("call")
        kind = data["kind"]
        if kind == NodeKind.WITH_EXIT and data.get("manager") is not None and managers is not None:
            # a project context manager's exit (semantics §Events Context managers)
            me = managers(path, data["manager"])
            if me is not None:
                raising = data.get("way") == Way.RAISE
                cls = carried_only(vocab, data["manager"], (me.raised if raising else me.normal) - NOT_CARRIED)
                if cls:
                    out.performs[n] = cls
                    out.callees[n] = me.exit_key
                    out.parts[n] = ("exit-raise" if raising else "exit") if me.kind == "generator" else "return"
            continue
        if RUNNING_LINE in data.get("hands_on", ()):
            out.performs[n] = out.performs.get(n, frozenset()) | {HANDS_ON}  # returns, yields or stores it
        if call is None:
            continue
        key = callees.get((path, call.id))
        eff = at_call(call, key, lookup(key), vocab) if key is not None else NO_EFFECTS
        if call.detached or call.gathered:
            # `asyncio.create_task(self._persist(run))`: the body runs as a task of its
            # own, whatever way it ends, and nothing it raises comes out here
            # (docs/decisions.md "A coroutine run as a detached task"); so for a
            # coroutine `gather(..., return_exceptions=True)` hands its failures back
            eff = Effects(eff.on_return | eff.on_raise, contained=True)
        if kind == NodeKind.CALL:
            carried = eff.on_return - NOT_CARRIED
            if NO_RETURN_AWAITED in carried:  # a coroutine's body runs only awaited
                carried = carried - {NO_RETURN_AWAITED} | ({NO_RETURN} if call.awaited else set())
            if HANDS_ON_AWAITED in carried:  # (so it hands the running exception on only there)
                carried = carried - {HANDS_ON_AWAITED} | ({HANDS_ON} if call.awaited and not call.detached else set())
            outcomes = [s for s in g.successors(n) if g.nodes[s].get("kind") == NodeKind.OUTCOME]
            if outcomes:
                carried -= eff.conditional  # they travel on the branches
                must = vocab.classify(call, eff.always & eff.on_return - NOT_CARRIED)
                if must:
                    out.must.update((s, must) for s in outcomes)
            if data.get("consumed"):
                carried -= eff.exhausted  # a generator's tail: on its ``for``'s way out
            me = managers(path, call) if managers is not None and "with_id" in data else None
            if me is not None:
                # entering it runs a generator up to its ``yield``; a class's
                # constructor (the call's own callee) and ``__enter__``
                carried = (me.entry if me.kind == "generator" else carried | me.entry) - NOT_CARRIED
            cls = vocab.classify(call, carried)
            if me is not None and me.transaction and not call.chosen:
                cls |= {mgrmod.TRANSACTION}  # `with self._tx():` over `with conn.transaction(): yield`
            handed = call.id == g.graph.get("handed")
            if cls & {mgrmod.TRANSACTION, HANDS_TRANSACTION} and not call.chosen:
                # the call a function's body only returns is what a `with` over the
                # function's call enters (`def unit_of_work(): return transaction.atomic()`;
                # session 65's note): its mark travels to that `with`, and on only
                # from a call handed on again
                cls |= {mgrmod.TRANSACTION} if "with_id" in data else ({HANDS_TRANSACTION} if handed else set())
            if not handed or "with_id" in data:
                cls -= {HANDS_TRANSACTION}
            if "with_id" not in data:
                cls -= mgrmod.WITH_ONLY  # `session.begin()` alone is no transaction
            # a class manager's ``__enter__`` and ``__exit__`` failures raise out of the
            # ``with`` into the same handlers as its entry (semantics §Events, §Contracts)
            raising = eff.escaping | (me.escaping if me is not None else frozenset())
            raises = vocab.classify(call, raising - NOT_CARRIED) if not (call.detached or call.gathered) else frozenset()
            if key is not None and raises:
                raises -= caught_inside(eff)
                if eff.contained and me is None:
                    # nothing outside its handlers can fail out of the callee: only
                    # what its handlers' own events let escape still raises
                    raises &= eff.escaping | (_APPENDS if eff.escaping & _APPENDS else frozenset())
            part = "entry" if me is not None and me.kind == "generator" else "return"
            if raises:
                out.raises[n] = raises
                if me is not None and me.kind == "class" and me.exit_key.rsplit(".", 1)[-1] in ("__exit__", "__aexit__"):
                    before = eff.escaping | (lookup(me.entry_key).escaping if me.entry_key else frozenset())
                    at_exit = raises & vocab.classify(call, lookup(me.exit_key).escaping - NOT_CARRIED)
                    at_exit -= vocab.classify(call, before - NOT_CARRIED)
                    if at_exit:
                        out.exit_raises[n] = (me.exit_key, at_exit)
            if me is not None and me.entry_key and cls and not cls & eff.on_return:
                key = me.entry_key  # all it does comes from ``__enter__``: "via" names it
        elif kind == NodeKind.RAISED and data.get("exit_raised"):
            # a project manager's exit that raised (``cfg``): what a generator did after
            # its ``yield`` on the way that raised took effect before the exception goes on
            me = managers(path, call) if managers is not None else None
            if me is None or not me.normal_raised:
                continue
            cls = carried_only(vocab, call, me.normal_raised - NOT_CARRIED)
            if cls:
                out.performs[n] = cls
                out.callees[n] = me.exit_key
                out.parts[n] = "exit-raising"
            continue
        elif kind == NodeKind.RAISED:
            me = managers(path, call) if managers is not None else None
            if me is not None and me.entry_raised is not None:
                # a generator entered and failed before its ``yield``: only what those
                # paths did (semantics §Events Context managers)
                cls, part = carried_only(vocab, call, me.entry_raised - NOT_CARRIED), "raise"
            else:
                cls, part = carried_only(vocab, call, eff.on_raise - NOT_CARRIED), "raise"
        elif kind == NodeKind.OUTCOME:
            part = "true" if data["value"] else "false"
            cls = carried_only(vocab, call, eff.part(part) - NOT_CARRIED)
        elif kind == NodeKind.EXHAUSTED:
            part = "return"  # (the generator's tail is part of its on-return summary)
            cls = carried_only(vocab, call, eff.exhausted - NOT_CARRIED)
        else:
            continue
        if kind == NodeKind.CALL and RUNNING_LINE in call.hands_on and not (cls and cls <= _QUIET):
            cls = cls | {HANDS_ON}  # a call that is not quiet receives it (semantics §Contracts)
        if cls:
            out.performs[n] = out.performs.get(n, frozenset()) | cls
        if key is not None:
            out.callees[n] = key
            out.parts[n] = part
    return out


# --------------------------------------------------------------------------- one graph


def _normal(g: nx.DiGraph, n: object) -> List[object]:
    return [v for v, d in g.succ[n].items() if d["kind"] != EdgeKind.EXCEPTION]


def _exceptional(g: nx.DiGraph, n: object) -> List[object]:
    return [v for v, d in g.succ[n].items() if d["kind"] == EdgeKind.EXCEPTION or d.get("exception")]


def escaping_points(g: nx.DiGraph) -> Set[object]:
    """Nodes from which an exception *in flight* reaches RAISE: it passes handler
    entries that do not match (an ``except`` clause's, and a ``with`` exit that
    swallows only the types it names, ``contextlib.suppress(ValueError)``: the graph
    carries both on for the other types), transparent points, non-suppressing
    ``with`` exits, and a handler or ``finally`` copy only through a ``raise`` (or the
    copy's re-raise) inside it."""
    regions = {r.entry: r for r in g.graph["handlers"].values()}
    by_id = g.graph["handlers"]
    flight: nx.DiGraph = nx.DiGraph()
    flight.add_node(RAISE)
    for v, data in g.nodes(data=True):
        region = regions.get(v)
        if region is None or region.kind == RegionKind.EXCEPT or (region.kind == RegionKind.WITH and not region.broad):
            # an except entry (or a narrow suppressing exit) that does not match
            # passes the exception on, along its exceptional edges (a broad one,
            # ``suppress(Exception)``, stops it as ``except Exception`` does)
            for w in _exceptional(g, v):
                flight.add_edge(v, w)
        if data.get("raise_stmt") or data.get("kind") == NodeKind.RERAISE:
            for rid in data.get("ctx", ()):
                r = by_id.get(rid)
                if r is not None and r.kind in (RegionKind.EXCEPT, RegionKind.FINALLY):
                    flight.add_edge(r.entry, v)
    return nx.ancestors(flight, RAISE) | {RAISE}


def _endings(g: nx.DiGraph, reach: Set[object], to_exit: Set[object]) -> Callable[[object], Set[str]]:
    """For a node, the ways the paths through it (leaving it normally) end: ``T``/``F``
    for a last ``return True``/``return False``, ``O`` for anything else."""

    def label(v: object) -> Optional[str]:
        d = g.nodes[v]
        if d.get("stmt") != StmtKind.RETURN:
            return None
        r = d.get("returns")
        return "O" if r is None else ("T" if r else "F")

    # suffix: the last return after a node ("-": none)
    suffix: Dict[object, Set[str]] = {EXIT: {"-"}}
    work = [EXIT]
    while work:
        s = work.pop()
        for v in g.predecessors(s):
            if v not in reach:
                continue
            lab = label(v)
            add = {lab if x == "-" else x for x in suffix[s]} if lab else suffix[s]
            have = suffix.setdefault(v, set())
            if not add <= have:
                have |= add
                work.append(v)
    # prefix: the last return before a node
    prefix: Dict[object, Set[str]] = {ENTRY: {"-"}}
    work = [ENTRY]
    while work:
        v = work.pop()
        lab = label(v)
        add = {lab} if lab else prefix[v]
        for s in g.successors(v):
            if s not in to_exit:
                continue
            have = prefix.setdefault(s, set())
            if not add <= have:
                have |= add
                work.append(s)

    def endings(n: object) -> Set[str]:
        out: Set[str] = set()
        for s in _normal(g, n):
            for x in suffix.get(s, ()):
                out |= {("O" if y == "-" else y) for y in prefix.get(n, {"-"})} if x == "-" else {x}
        return out

    return endings


def node_origin(g: nx.DiGraph, n: object, cls: str, part: str, ns: NodeSets, path: str, vocab: Vocabulary) -> Origin:
    """Where a node of a function's graph gets ``cls`` from: its own call, or its
    callee's summary (which part of it)."""
    data = g.nodes[n]
    call = data.get("call") or data["manager"]
    direct = data["kind"] == NodeKind.CALL and part in ("return", "escape") and cls in vocab.direct(call)
    marker = vocab.terminal_by(call) if cls in _APPEND_CLASSES else None
    if n not in ns.callees or direct:
        return Origin(call, path, marker=marker)
    return Origin(call, path, ns.callees[n], part if part == "escape" else ns.parts.get(n, "return"), marker)


_APPEND_CLASSES = frozenset({EventClass.APPEND.value, EventClass.TERMINAL_APPEND.value})


def _abstract(fn: FunctionFacts) -> bool:
    """A method that only says "not implemented here" (a statement of its body raises
    ``NotImplementedError``, or an exception whose message says so): a call of it runs
    an override, in the project or not, so its always raising is no ``no-return``
    (docs/decisions.md "A helper that never returns")."""
    return fn.class_name is not None and any(st.kind == StmtKind.RAISE and st.placeholder for st in fn.body)


def _never_returns(fn: FunctionFacts) -> bool:
    """Whether a call of ``fn``, whose graph reaches no EXIT, never returns: not a
    method that says "not implemented here" (``_abstract``), not a generator (a call
    makes the generator and runs nothing). An ``async def``'s call makes a coroutine,
    which runs only where it is awaited: its mark is ``NO_RETURN_AWAITED``, a dead end
    only at an awaited call (session 48; ``ensure_future(self._heartbeat())`` returns
    at once)."""
    return not (_abstract(fn) or fn.tail_line)


def _overload(fn: FunctionFacts) -> bool:
    return any(d == "overload" or d.endswith(".overload") for d in fn.decorators)


_SURFACE = EventClass.SURFACE.value


def _committed_at_exit(me: ManagerEffects, g: nx.DiGraph, ns: NodeSets, key: str,
                       where: Dict[Tuple[str, str], object]) -> ManagerEffects:
    """A generator whose ``yield`` stands in a transaction (``with conn.transaction():
    store.save(run); yield``) commits what the transaction's body did at the
    transaction's normal exit, after the ``yield``: at the ``with``'s exit, not its
    entry (semantics §Events Transactions; held-out set 58, archon-bot's
    ``db.tournament()``). The ordering classes come from the transaction view
    (``managers.transaction_view``), as a function's summary does; whether the
    manager's exception exit is loud (``surface``) stays what its own code does. The
    origins (``where``) point at the body's node that performed a committed class."""
    tg, performs, lifted = mgrmod.transaction_view(g, ns.performs)
    if not lifted:
        return me
    moved: Dict[Tuple[str, str], object] = {}
    viewed = mgrmod.generator_effects(tg, performs, key, moved)
    if viewed is None:
        return me

    def merge(view: FrozenSet[str], raw: FrozenSet[str]) -> FrozenSet[str]:
        return frozenset(view - {_SURFACE}) | (raw & {_SURFACE})

    where.clear()
    for (part, cls), n in moved.items():
        n = lifted[(n, cls)][0] if (n, cls) in lifted else n
        if n in g:  # (not an exit the view split into copies: no origin rather than a wrong one)
            where[(part, cls)] = n
    return dataclasses.replace(me, entry=merge(viewed.entry, me.entry), normal=merge(viewed.normal, me.normal),
                               raised=merge(viewed.raised, me.raised),
                               normal_raised=merge(viewed.normal_raised, me.normal_raised),
                               entry_raised=(merge(viewed.entry_raised, me.entry_raised)
                                             if viewed.entry_raised is not None and me.entry_raised is not None
                                             else me.entry_raised))


def _yield_nodes(g: nx.DiGraph) -> List[object]:
    """A generator's nodes where its consumer gets control back: the ends of a simple
    statement holding a ``yield`` (``cfg`` marks them), and the nodes of a statement
    whose header or ``return`` holds one (``ir.FunctionFacts.yield_at``: `while
    (yield x):`, `if (yield x) == "stop":`; a review of session 62)."""
    starts = set(g.graph.get("yield_at", ()))
    return [n for n, d in g.nodes(data=True)
            if d.get("yields") or (starts and d.get("kind") == NodeKind.STMT and d.get("span") is not None
                                   and (d["span"].line, d["span"].col) in starts)]


def graph_effects(g: nx.DiGraph, path: str, ns: NodeSets, vocab: Vocabulary) -> Tuple[Effects, Dict[Tuple[str, str], Origin]]:
    """One function's effects from its graph and the classes of its nodes (a
    transaction's body performs at its commit: semantics §Events Transactions).
    A call of a helper that never returns goes on only by its exceptional edges, as
    every contract reads it (``cfg.cut_dead_ends``): what only its impossible
    return leads to is no effect of the function, on return, on raise or escaping
    (held-out set 447: an append after `get_queue()`, which always raises, was an
    escaping failure of the caller's handler though no walk reaches it)."""
    if any(NO_RETURN in cls for cls in ns.performs.values()):
        g = cfg.cut_dead_ends(g.copy(), ns.performs)
    g, performs, lifted_from = mgrmod.transaction_view(g, ns.performs)
    reach = nx.descendants(g, ENTRY) | {ENTRY}
    to_exit = nx.ancestors(g, EXIT) | {EXIT}
    if g.graph.get("tail_line"):
        # a generator gives its consumer control back at each ``yield`` (``cfg``
        # marks them): what runs before one stands at the call even when the body
        # never reaches EXIT (``while True:`` around the ``yield``; held-out set 128)
        for y in [n for n in _yield_nodes(g) if n not in to_exit]:
            to_exit |= nx.ancestors(g, y) | {y}
    to_raise = nx.ancestors(g, RAISE) | {RAISE}
    origins: Dict[Tuple[str, str], Origin] = {}
    on_return: Set[str] = set()
    on_raise: Set[str] = set()
    escaping: Set[str] = set()
    performers: Dict[str, List[object]] = {}

    def origin(n: object, cls: str, part: str) -> Origin:
        if (n, cls) in lifted_from:  # a transaction's commit: where the body performed it
            n = lifted_from[(n, cls)][0]
            part = "return"
        return node_origin(g, n, cls, part, ns, path, vocab)

    exiting: List[object] = []
    raising: List[object] = []
    for n in sorted((n for n in performs if n in reach), key=_order):
        nxt = _normal(g, n)
        exits = any(s in to_exit for s in nxt)
        raises = any(s in to_raise for s in nxt)
        if exits:
            exiting.append(n)
        if raises:
            raising.append(n)
        for cls in sorted(performs[n]):
            if cls in mgrmod.MARKS:
                continue  # marks of this function's own nodes (below), never carried further
            if cls in NO_RETURN_MARKS:
                continue  # a mark of the callee, not an effect: this function's own is below
            if cls == HANDS_ON:
                if exits and not _in_except(g, n):
                    on_return.add(cls)  # (a helper's call in its own `except` runs that clause's exception)
                continue
            if exits:
                on_return.add(cls)
                performers.setdefault(cls, []).append(n)
                origins.setdefault(("return", cls), origin(n, cls, "return"))
            if raises:
                on_raise.add(cls)
                origins.setdefault(("raise", cls), origin(n, cls, "raise"))
    # a class whose distance counts (``kinds.NEARNESS``) points at a node whose own call
    # makes it, where there is one: the "via" then names the call the contracts counted
    for cls, (own_mark, _) in NEARNESS.items():
        for part, nodes in (("return", exiting), ("raise", raising)):
            mine = next((n for n in nodes if cls in performs[n] and own_mark in performs[n]), None)
            if mine is not None:
                origins[(part, cls)] = origin(mine, cls, part)
    raisers = [n for n in ns.raises if n in reach]
    flight: Set[object] = escaping_points(g) if raisers or RAISE in reach else {RAISE}
    for n in sorted(raisers, key=_order):
        if any(s in flight for s in _exceptional(g, n)):
            for cls in sorted(ns.raises[n]):
                escaping.add(cls)
                origins.setdefault(("escape", cls), origin(n, cls, "escape"))
    open_nodes = mgrmod.open_terminal_nodes(g, performs, [n for n in performs if n in reach], [ENTRY])
    for ended, nodes in ((on_return, exiting), (on_raise, raising)):
        if any(n in open_nodes for n in nodes):
            ended.add(mgrmod.OPEN_TERMINAL)
    if open_nodes:
        performers[mgrmod.OPEN_TERMINAL] = sorted((n for n in open_nodes if n in exiting), key=_order)
    for own_mark, near_mark in NEARNESS.values():
        own = [n for n in performs if n in reach and own_mark in performs[n]]
        for ended, nodes in ((on_return, exiting), (on_raise, raising)):
            if any(n in nodes for n in own):
                ended.add(near_mark)  # e.g. a terminal append by its own call
        if any(n in exiting for n in own):
            performers[near_mark] = sorted((n for n in own if n in exiting), key=_order)
    when_true: Set[str] = set()
    when_false: Set[str] = set()
    if on_return and any("returns" in d for _, d in g.nodes(data=True)):
        endings = _endings(g, reach, to_exit)
        for cls, nodes in performers.items():
            ends: Set[str] = set()
            for n in nodes:
                # a commit ends the walks of the body nodes that performed the class:
                # the ``return``s they reach before it tell how (docs/decisions.md,
                # "What a transaction commits")
                for m in lifted_from.get((n, cls), [n]):
                    ends |= endings(m)
            if ends == {"T"}:
                when_true.add(cls)
            elif ends == {"F"}:
                when_false.add(cls)
        # a mark stays with its class: a near write on the True way and a far one on
        # the False way is an unconditional write that is near (a review, session 36)
        for marks, same in ((when_true, when_true), (when_false, when_false)):
            for mark in [m for m in marks if m in MARKED_CLASS and MARKED_CLASS[m] not in same]:
                marks.discard(mark)
        for cls in when_true | when_false:
            if ("return", cls) not in origins:
                continue  # a mark, not a class (the open-terminal mark)
            part = "true" if cls in when_true else "false"
            origins[(part, cls)] = origins[("return", cls)]
    # a generator's tail: what it performs only after its last ``yield`` (every node
    # performing the class stands below that statement's last line, or reaches no
    # ``yield`` on any way on: `if msg is None: store.save(run); return` inside the
    # loop of `yield`s; held-out set 259), never in a ``finally`` body or at a ``with``'s
    # exit, which also run when the consumer leaves its loop and the generator is
    # closed, nor in an ``except`` clause (``cfg``'s ``no_tail``)
    exhausted: Set[str] = set()
    tail = g.graph.get("tail_line", 0)
    if tail:
        yielding: Set[object] = set()
        for y in _yield_nodes(g):
            if y not in yielding:
                yielding |= nx.ancestors(g, y) | {y}

        def after_last_yield(m: object) -> bool:
            data = g.nodes[m]
            if data["span"].line > tail:
                return True
            return (m not in yielding and not data.get("no_tail")
                    and data["kind"] not in (NodeKind.WITH_EXIT, NodeKind.FINALLY))

        for cls, nodes in performers.items():
            inner = [m for n in nodes for m in lifted_from.get((n, cls), [n]) if g.nodes[m].get("span") is not None]
            if inner and all(after_last_yield(m) for m in inner):
                exhausted.add(cls)
    if EXIT not in reach:
        # it always raises, exits (``os._exit`` has no successor at all: no RAISE
        # either; held-out set 61) or loops for ever: no normal way back
        on_return.add(NO_RETURN)
    eff = Effects(frozenset(on_return), frozenset(on_raise), frozenset(escaping),
                  frozenset(when_true), frozenset(when_false), _contained(g, reach, flight), frozenset(exhausted))
    return eff, origins


def _conditional_in_all(each: Sequence[Effects], part: str) -> FrozenSet[str]:
    """Of several definitions of one function (in both arms of an ``if``), the classes
    each performs only on ``part``'s way (``when_true``/``when_false``) where it
    performs them at all: whichever runs, the class happens only that way (a blind
    probe, session 60). A mark stays with its class (``graph_effects``)."""
    kept = {cls for e in each for cls in getattr(e, part)
            if all(cls in getattr(d, part) or cls not in d.on_return for d in each)}
    for mark in [m for m in kept if m in MARKED_CLASS and MARKED_CLASS[m] not in kept]:
        kept.discard(mark)
    return frozenset(kept)


def _in_except(g: nx.DiGraph, n: object) -> bool:
    """Whether ``n`` stands in an ``except`` clause of its own function."""
    regions = g.graph.get("handlers", {})
    return any(r in regions and regions[r].kind == RegionKind.EXCEPT for r in g.nodes[n].get("ctx", ()))


def always_performed(g: nx.DiGraph, ns: NodeSets) -> FrozenSet[str]:
    """The classes a function performs on every normal way from its entry to its exit
    (``Effects.always``): those of the nodes that dominate EXIT over the normal edges.
    A wrapper that commits only when no session was handed in (Airflow's
    ``@provide_session``: ``if "session" in kwargs: return func(...)``) has none."""
    normal: nx.DiGraph = nx.DiGraph()
    normal.add_node(ENTRY)
    normal.add_edges_from((u, v) for u, v, d in g.edges(data=True)
                          if d.get("kind") != EdgeKind.EXCEPTION and not d.get("exception"))
    if EXIT not in normal or not nx.has_path(normal, ENTRY, EXIT):
        return frozenset()
    idom = nx.immediate_dominators(normal, ENTRY)
    out: Set[str] = set()
    n: object = EXIT
    while True:
        out |= ns.performs.get(n, frozenset())
        if n == ENTRY or idom.get(n, n) == n:
            break
        n = idom[n]
    return frozenset(out) - NOT_CARRIED


#: a simple statement that may be an import (no expression starts with either keyword)
_IMPORT_STMT = re.compile(r"^(?:import|from)\s")


def _import_only(text: str) -> bool:
    """Whether a statement node's text is imports and nothing else: ``import json``,
    not ``import json; key = data["k"]`` (a line of several statements is one text; a
    review)."""
    if not _IMPORT_STMT.match(text):
        return False
    try:
        body = ast.parse(text.strip()).body
    except (SyntaxError, ValueError):
        return False
    return bool(body) and all(isinstance(b, (ast.Import, ast.ImportFrom)) for b in body)


def _contained(g: nx.DiGraph, reach: Set[object], flight: Set[object]) -> bool:
    """Whether the function stops every failure of its own (``Effects.contained``):
    some node it reaches outside its ``except`` clauses (a call, an attribute's raise
    point, a ``raise``) can fail, and none has an exceptional way that reaches RAISE.
    A handler's own calls are its report of the failure (``logger.warning(...)``
    failing is another failure); a ``raise`` in a handler makes the failure it caught
    escape, which the try's call then shows. A body with nothing that can fail (a
    stub: ``pass``, ``...``) shows nothing stopped: it is not contained, and a call
    matched by its name stays a call that can fail, as any matched call. A
    function-level import before the ``try`` (``import json``) is no failure point
    here: whatever the helper's name says it does, an import is not it (held-out set
    470)."""
    excepts = {rid for rid, r in g.graph["handlers"].items() if r.kind == RegionKind.EXCEPT}
    stopped = False
    for n in reach:
        if n in (ENTRY, EXIT, RAISE) or any(rid in excepts for rid in g.nodes[n].get("ctx", ())):
            continue
        if g.nodes[n].get("stmt") == StmtKind.SIMPLE and _import_only(g.nodes[n].get("text", "")):
            continue  # (`import json` before the `try`: never the event a helper's name says)
        ways = _exceptional(g, n)
        if any(s in flight for s in ways):
            return False
        stopped = stopped or bool(ways)
    return stopped


def _order(n: object) -> Tuple[int, str]:
    return (n, "") if isinstance(n, int) else (-1, str(n))


def _fallback(facts: FileFacts, fn: FunctionFacts, vocab: Vocabulary, cg: CallGraph, lookup: Lookup) -> Tuple[Effects, Dict[Tuple[str, str], Origin]]:
    """A function too large to build: every call counts, on every way out."""
    origins: Dict[Tuple[str, str], Origin] = {}
    every: Set[str] = set()
    for call in fn.calls:
        key = cg.callees.get((facts.path, call.id))
        eff = lookup(key) if key else NO_EFFECTS
        for cls in sorted(vocab.classify(call, (eff.on_return | eff.on_raise | eff.escaping) - NOT_CARRIED)):
            every.add(cls)
            for part in ("return", "raise", "escape"):
                marker = vocab.terminal_by(call) if cls in _APPEND_CLASSES else None
                origins.setdefault((part, cls), Origin(call, facts.path, key, part, marker)
                                   if key and cls not in vocab.direct(call) else Origin(call, facts.path, marker=marker))
    # (a callee's near marks are not passed on; its own calls' own marks become near)
    s = frozenset((every - OWN_MARKS - NEAR_MARKS) | {near for own, near in NEARNESS.values() if own in every})
    return Effects(s, s, s), origins


# --------------------------------------------------------------------------- the project


def summary_graph(fn: FunctionFacts, path: str, vocab: Vocabulary, callees: Dict[Tuple[str, int], str],
                  managers: Optional[Managers] = None, modules: Sequence[str] = ()) -> nx.DiGraph:
    """A graph for the summary pass: a point at every resolved call (``modules``: the
    names of the function's module, for ``transaction-functions``)."""
    resolved = lambda call: (path, call.id) in callees  # noqa: E731
    return cfg.build(fn, suppressor(vocab, path, managers), on_raise=resolved, on_test=resolved, on_iter=resolved,
                     is_guard=vocab.is_guard, around=decorator_transaction(fn, vocab, modules),
                     project_manager=lambda call: managers is not None and managers(path, call) is not None)


#: a graph's walks with some parameters known at its entry (``feasible.prune_flag``)
Flagged = Callable[[nx.DiGraph, Dict[str, bool]], Optional[nx.DiGraph]]


def module_names(facts: Optional[FileFacts]) -> Tuple[str, ...]:
    """Every name a file's module is imported by (``FileFacts.module_aliases``)."""
    return (facts.module, *facts.module_aliases) if facts is not None else ()


#: the id of a decorator's stand-in call (no call of a file's own has it)
DECORATOR_CALL = -1


#: the decorator by which Django runs a view outside ``ATOMIC_REQUESTS``' transaction
NON_ATOMIC = "non_atomic_requests"


def decorator_transaction(fn: FunctionFacts, vocab: Vocabulary, modules: Sequence[str] = ()) -> Optional[Call]:
    """A decorator of the ``transaction`` class (``@transaction.atomic``,
    ``@transaction.atomic(using="db")``, ``@db.atomic()``), as a call that stands at the
    function's name: the body runs inside that transaction, as under ``with
    transaction.atomic():`` (docs/decisions.md, "A transaction as a decorator"). So does
    a transaction the configuration says a framework opens around the function
    (``transaction-functions``: a request's, a hook's; "A transaction a framework opens")."""
    for name in fn.decorators:
        call = Call(DECORATOR_CALL, name, (), fn.span, f"@{name}", (fn.span.line, fn.span.line))
        if mgrmod.TRANSACTION in vocab.direct(call):
            return call
    if vocab.transaction_functions and vocab.declared_transaction(modules, fn.qualname) and not any(
            name.rsplit(".", 1)[-1] == NON_ATOMIC for name in fn.decorators):
        # (Django's `@transaction.non_atomic_requests` takes a view out of
        # ATOMIC_REQUESTS' transaction; held-out set 288)
        return Call(DECORATOR_CALL, DECLARED_TRANSACTION, (), fn.span, "(run in a transaction: transaction-functions)",
                    (fn.span.line, fn.span.line))
    return None


#: a generator's caught type that is one of its own parameters (``except exceptions:``
#: in ``def suppress(*exceptions)``): the types its call names (``suppressor``)
PARAMETER_TYPES = "<the call's arguments>:"


def _caught_by_parameter(me: ManagerEffects, fn: FunctionFacts) -> ManagerEffects:
    """A generator whose clause around the ``yield`` names its own parameter catches
    what the ``with`` hands it: ``with quiet(Exception):`` over ``def quiet(*exceptions):
    try: yield / except exceptions: log.debug(...)`` swallows every exception, as
    ``contextlib.suppress(Exception)`` does (held-out set 227, codecarbon's ``suppress``).
    The type is marked here and read at each call (``suppressor``)."""
    if not me.catches or not any(t in fn.params for t in me.catches):
        return me
    return dataclasses.replace(me, catches=tuple(dict.fromkeys(
        f"{PARAMETER_TYPES}{t}" if t in fn.params else t for t in me.catches)))


def suppressor(vocab: Vocabulary, path: str, managers: Optional[Managers]) -> Callable[[Call], cfg.Catch]:
    """``cfg.build``'s ``is_suppressor``: what a project context manager swallows of the
    body's exception (everything, or the types it catches narrowly), or, for any
    other, the ``suppressor`` class (semantics §Events).
    A project manager's own code decides even when its name matches the class: a
    ``best_effort()`` generator that re-raises swallows nothing (docs/decisions.md,
    "A helper's name and its escaping failures")."""
    if managers is None:
        return vocab.is_suppressor

    def is_suppressor(call: Call) -> cfg.Catch:
        me = managers(path, call)
        if me is not None:
            caught = me.catch
            if isinstance(caught, tuple) and any(c.startswith(PARAMETER_TYPES) for c in caught):
                # (the call's own arguments, as written and import-qualified; none
                # given: the parameter's name, a narrow type as before)
                given = call.suppress_types or ()
                return tuple(dict.fromkeys(
                    t for c in caught
                    for t in ((given or (c[len(PARAMETER_TYPES):],)) if c.startswith(PARAMETER_TYPES) else (c,))))
            return caught
        return vocab.is_suppressor(call)

    return is_suppressor


def class_manager(index: ProjectIndex, key: str, effects: Dict[str, Effects], truthy: Dict[str, Tuple[str, ...]],
                  is_async: bool = False,
                  exit_split: Optional[Dict[str, ExitSplit]] = None,
                  callees: Optional[Dict[Tuple[str, int], str]] = None) -> ManagerEffects:
    """A project class's effects at a ``with`` (``is_async``: an ``async with``):
    ``__enter__``'s on-return effects at the entry, ``__exit__``'s at every exit; it
    suppresses when ``__exit__`` may return a true value, only the types it tests
    for when every such value is a test of the exception's type (``truthy``: the
    ``__exit__``s that may return true, each with those types, ``()`` for all).
    ``exit_split``: what an ``__exit__`` that tests its exception does not do at a
    normal exit and at an exception exit (``managers.exit_view``)."""
    enter, exit_ = index.manager_methods(key, is_async)
    entry = effects.get(enter, NO_EFFECTS).on_return if enter else frozenset()
    out = effects.get(exit_, NO_EFFECTS).on_return if exit_ else frozenset()
    normal, raised = out, out
    if exit_:
        split = (exit_split or {}).get(exit_)
        if split is None:
            normal = raised = out | exit_own_methods(index, key, exit_, effects, callees=callees)
        else:
            normal = out - split.not_normal | exit_own_methods(index, key, exit_, effects, split.cut_normal, callees)
            raised = out - split.not_raised | exit_own_methods(index, key, exit_, effects, split.cut_raised, callees)
    escaping = frozenset().union(*(effects.get(m, NO_EFFECTS).escaping for m in (enter, exit_) if m))
    return ManagerEffects("class", entry, normal, raised,
                          exit_ in truthy, exit_ or enter or key, escaping,
                          entry_key=enter or "", catches=truthy.get(exit_, ()) if exit_ else ())


def exit_own_methods(index: ProjectIndex, key: str, exit_: str, effects: Dict[str, Effects],
                     cut: AbstractSet[int] = frozenset(),
                     callees: Optional[Dict[Tuple[str, int], str]] = None) -> FrozenSet[str]:
    """What the exit's calls of the manager's own methods (``self._commit()``,
    ``self.close()``) add at the ``with`` of an instance of ``key``: the method found
    along ``key``'s MRO, as Python finds it for that instance (a subclass's override,
    whose fsync the base's ``__exit__`` summary does not show, included), and, where
    that method renames by its own call, a rename by the manager's own call: an
    atomic writer whose exit renames through ``self._commit()`` renames at the
    ``with`` as one whose exit calls ``os.replace`` itself (docs/decisions.md "A file
    write or rename two calls away"). Only renames are made near so; a method's
    other near marks stay one call further. ``callees`` (the call graph's): a project
    function the exit calls (not through ``self``) that renames by its own call makes
    the rename near too."""
    _, near = NEARNESS[EventClass.RENAME.value]
    extra: Set[str] = set()
    for method in index.exit_self_methods(key, exit_, cut):
        got = effects.get(method, NO_EFFECTS).on_return
        extra |= got - OWN_MARKS - NEAR_MARKS - NO_RETURN_MARKS
        if near in got:
            extra.add(near)
    row = index.functions.get(exit_) if callees is not None else None
    if row is not None and callees is not None and near not in extra:
        # the same for a project function the exit calls (pip-accel's `AtomicReplace`,
        # whose exit calls `replace_file(tmp, name)`, which calls `os.replace`; held-out
        # set 465): its own rename is the manager's, one call from the `with`
        facts, fn = row
        for call in fn.calls:
            callee = callees.get((facts.path, call.id))
            if (call.id not in cut and call.self_call is None and callee is not None and callee != exit_
                    and near in effects.get(callee, NO_EFFECTS).on_return):
                extra.add(near)
                break
    return frozenset(extra)


def _exits_passed_on(fn: FunctionFacts, path: str, callees: Dict[Tuple[str, int], str]) -> Dict[int, str]:
    """The calls of an ``__exit__`` that hand its three values on to another
    ``__exit__`` (``return super().__exit__(exc_type, exc, tb)``,
    ``self._inner.__exit__(*exc_info)``), each with that exit's key: the callee runs
    at the same exit as its caller, and what it returns is what the caller returns
    when the caller returns the call (docs/decisions.md "An ``__exit__(self,
    *exc_info)``, and one that hands its exception on")."""
    params = mgrmod.exception_parameters(fn)
    if params is None:
        return {}
    out: Dict[int, str] = {}
    for call in fn.calls:
        key = callees.get((path, call.id))
        if key is not None and key.rsplit(".", 1)[-1] in ("__exit__", "__aexit__") and params.passed_on(call.text):
            out[call.id] = key
    return out


def _returned_catches(fn: FunctionFacts, g: nx.DiGraph, passed: Dict[int, str],
                      truthy: Dict[str, Tuple[str, ...]], caught: Optional[Tuple[str, ...]]) -> Optional[Tuple[str, ...]]:
    """``caught`` (``managers.exit_catches``: what the exit's own returns swallow) with
    what an exit it hands its exception on to swallows, where it returns that call's
    value (``return super().__exit__(exc_type, exc, tb)``: the subclass suppresses
    as its base does)."""
    returned = mgrmod.returned_calls(g)
    for call in fn.calls:
        key = passed.get(call.id)
        if key is None or key not in truthy or mgrmod.call_source(call.text) not in returned:
            continue
        theirs = truthy[key]
        caught = theirs if caught is None else (caught + theirs if caught and theirs else ())
    return caught


def _at_exit_of(g: nx.DiGraph, ns: NodeSets, through: Dict[int, ExitSplit], raised: bool) -> NodeSets:
    """``ns`` at one way out of the ``with`` (``raised``: its exception exit): a call
    that hands the exit's values on (``_exits_passed_on``) performs only what its
    callee does at that exit."""
    if not through:
        return ns
    performs = dict(ns.performs)
    for n, d in g.nodes(data=True):
        call = d.get("call")
        if d.get("kind") == NodeKind.CALL and call is not None and call.id in through and n in performs:
            split = through[call.id]
            performs[n] = performs[n] - (split.not_raised if raised else split.not_normal)
    return dataclasses.replace(ns, performs=performs)


def build(files: Iterable[FileFacts], vocab: Vocabulary, memo: Optional[Memo] = None,
          prune: Optional[Callable[[nx.DiGraph], nx.DiGraph]] = None,
          flagged: Optional[Flagged] = None,
          only: Optional[AbstractSet[str]] = None,
          within: Optional[AbstractSet[str]] = None, cg: Optional[CallGraph] = None) -> Summaries:
    """Summaries of every function of the project, callees first; inside a cycle of
    the call graph, repeated until on-return, on-raise and escaping classes stop
    growing (a recursive call's conditional effects travel as usual). ``prune``
    (the runner passes ``feasible.prune_correlated``) drops each callee's infeasible
    walks first: a summary's "some path" is a walk, as a contract's is (semantics §Contracts).
    ``flagged`` (the runner's ``feasible.prune_flag``): a graph's walks with a flag
    parameter known at the entry, for ``Effects.gated`` (docs/decisions.md "A flag
    argument"); without it, no call is gated.

    ``memo`` (``memos.SummaryMemo``) remembers the summary of a function by what it is
    computed from — its file's facts, the vocabulary, and for each of its calls the
    callee's key and summary — so an unchanged function whose callees' summaries did
    not change builds no graph; the summaries of a cycle are remembered together, by
    the files of all its members and the summaries of the callees outside it. What
    a manager's graph says beyond its summary (a generator's split at its ``yield``,
    whether an ``__exit__`` may return True) is remembered with it, and a function
    that enters project managers has their splits in its key.

    ``only``: the functions whose summaries are read (``focus.Focus.needed``, closed
    under calls); the others keep none (a strongly connected component is all in or
    all out: its members reach each other). ``within``: the files of the needed functions (``summaries.resolve``).
    ``cg``: that call graph, when the caller resolved it already."""
    if cg is None:
        cg = resolve(files, within)
    effects: Dict[str, Effects] = {}
    origins: Dict[str, Dict[Tuple[str, str], Origin]] = {}
    generators: Dict[str, ManagerEffects] = {}
    truthy: Dict[str, Tuple[str, ...]] = {}  # `__exit__`s that may return true: the types they test, () all
    # `__exit__`s that test their exception (``managers.exit_view``)
    exit_split: Dict[str, ExitSplit] = {}
    failed: Dict[str, str] = {}  # functions the engine failed on (``Summaries.failed``)

    def fail(key: str, exc: Exception) -> None:
        """The engine failed on ``key``'s summary: one line for its OC901, the
        traceback for ``-v`` (the ``ordercheck`` logger); a Ctrl-C goes on up."""
        errors.raise_if_interrupted()
        if key not in failed:
            failed[key] = errors.error_text(exc)
            LOG.debug("internal error on the summary of %s", key, exc_info=True)

    def managers(path: str, call: Call) -> Optional[ManagerEffects]:
        key = cg.managers.get((path, call.id))
        if key is None:
            return None
        if key in cg.index.classes:
            return class_manager(cg.index, key, effects, truthy, call.async_with, exit_split, cg.callees)
        return generators.get(key)

    def manager_payload(m: str) -> Optional[dict]:
        """What a manager's graph says beyond its summary, to remember with it."""
        me = generators.get(m)
        if me is None and m not in truthy and m not in exit_split:
            return None
        split = exit_split.get(m)
        return {"truthy": m in truthy, "catches": list(truthy.get(m, ())),
                "generator": None if me is None else me.key_row(),
                "exits": None if split is None else split.row()}

    def restore(m: str, payload: Optional[dict]) -> None:
        if not payload:
            return
        if payload.get("truthy"):
            truthy[m] = tuple(payload.get("catches", ()))
        if payload.get("exits"):
            exit_split[m] = ExitSplit.from_row(payload["exits"])
        row = payload.get("generator")
        if row is not None:
            generators[m] = ManagerEffects.from_row(row)

    def manager_rows(m: str) -> list:
        """What the function reads of the project managers it enters: part of its
        memo key, since a manager's split is in no callee's summary."""
        rows: list = []
        for facts, fn in cg.defs.get(m, ()):
            for call in with_managers(fn.body):
                me = managers(facts.path, call)
                if me is not None:
                    rows.append([call.id] + me.key_row())
            if fn.name in ("__exit__", "__aexit__"):
                # (and the split of an exit it hands its exception on to, and what it swallows)
                for cid, key in _exits_passed_on(fn, facts.path, cg.callees).items():
                    split = exit_split.get(key)
                    rows.append(["exit", cid, None if split is None else split.row(), truthy.get(key)])
        return rows

    # the decorators' wrappers (``Effects.always``)
    wrappers = {fkey(facts.path, fn.wrapper) for facts, fn in cg.index.functions.values() if fn.wrapper}
    # module functions another file replaces (``ProjectIndex.rebound_keys``): no dead end
    rebound = cg.index.rebound_keys()
    cond = nx.condensation(cg.graph)
    for comp in reversed(list(nx.topological_sort(cond))):
        members = sorted(cond.nodes[comp]["members"])
        if only is not None and not any(m in only for m in members):
            continue
        inside = set(members)
        single = len(members) == 1 and not cg.graph.has_edge(members[0], members[0])
        # the wrappers project decorators put around a member (docs/decisions.md "A
        # project decorator's wrapper"): what they always do, a call of the member does
        wrapped = {m: tuple(dict.fromkeys(w for facts, fn in cg.defs.get(m, ()) if fn.decorators
                                          for w in cg.index.wrappers_of(facts, fn))) for m in members}
        extras = {m: manager_rows(m) + [["wrapper", w, None if w in inside else effects.get(w, NO_EFFECTS).rows()]
                                        for w in wrapped[m]] + ([["rebound"]] if m in rebound else [])
                  for m in members} if memo is not None else {}
        if memo is not None:
            if single:
                got = memo.lookup(members[0], cg, effects, extras[members[0]])
                if got is not None:
                    effects[members[0]], origins[members[0]] = got[0], got[1]
                    restore(members[0], got[2])
                    continue
            else:
                cycle = memo.lookup_cycle(members, cg, effects, extras)
                if cycle is not None:
                    for m, (eff_m, table_m, payload) in cycle.items():
                        effects[m], origins[m] = eff_m, table_m
                        restore(m, payload)
                    continue

        def lookup(key: str) -> Effects:
            eff = effects.get(key, NO_EFFECTS)
            if key in inside:
                return Effects(eff.on_return, eff.on_raise, eff.escaping)
            return eff

        graphs: Dict[str, List[Tuple[FileFacts, FunctionFacts, Optional[nx.DiGraph]]]] = {}
        for m in members:
            for facts, fn in cg.defs.get(m, ()):
                if memo is not None:  # facts read without bodies: the body now
                    fn = memo.full(facts, fn)
                g: Optional[nx.DiGraph]
                caught: Optional[Tuple[str, ...]] = None
                try:
                    # (a function nested too deeply for the default recursion limit: again, deeply)
                    built = depth.retrying(summary_graph, fn, facts.path, vocab, cg.callees, managers, module_names(facts))
                    g = depth.retrying(prune, built) if prune is not None else built
                    if fn.name in ("__exit__", "__aexit__"):
                        caught = _returned_catches(fn, g, _exits_passed_on(fn, facts.path, cg.callees), truthy,
                                                   mgrmod.exit_catches(g, fn, facts.imports))
                except cfg.GraphTooLarge:
                    g = None
                except Exception as exc:  # the engine failed on it: the fallback's summary, and an OC901
                    fail(m, exc)
                    g = None
                if g is not None and caught is not None:  # several definitions: all of them, () if any says all
                    had = truthy.get(m)
                    truthy[m] = caught if had is None else (had + caught if had and caught else ())
                graphs.setdefault(m, []).append((facts, fn, g))
        always_of: Dict[str, FrozenSet[str]] = {}
        changed = True
        while changed:
            changed = False
            for m in members:
                total = NO_EFFECTS
                contained = bool(graphs.get(m))
                table: Dict[Tuple[str, str], Origin] = {}
                every_dead = True  # (a call never returns only when no definition can)
                each: List[Effects] = []  # (per definition: what stays conditional)
                for facts, fn, g in graphs.get(m, ()):
                    if g is not None:
                        try:
                            ns = depth.retrying(node_sets, g, facts.path, vocab, cg.callees, lookup, managers)
                            eff, found = depth.retrying(graph_effects, g, facts.path, ns, vocab)
                            # (several definitions: what each always does; also a
                            # function whose effects differ by what it returns: what
                            # it does on every way back covers its outcome points'
                            # classes at a call, ``NodeSets.must``)
                            if m in wrappers or eff.conditional:
                                kept = always_performed(g, ns)
                                always_of[m] = kept if m not in always_of else always_of[m] & kept
                        except Exception as exc:  # as above
                            fail(m, exc)
                            g = None
                        else:
                            if NO_RETURN in eff.on_return and (not _never_returns(fn) or m in rebound):
                                eff = dataclasses.replace(eff, on_return=eff.on_return - {NO_RETURN})
                            elif NO_RETURN in eff.on_return and fn.is_async:
                                eff = dataclasses.replace(
                                    eff, on_return=eff.on_return - {NO_RETURN} | {NO_RETURN_AWAITED})
                            if HANDS_ON in eff.on_return and (fn.is_async or fn.tail_line):
                                # a coroutine's body runs where it is awaited, a generator's
                                # where it is consumed: maybe outside the handler (a review)
                                eff = dataclasses.replace(eff, on_return=eff.on_return - {HANDS_ON} | (
                                    {HANDS_ON_AWAITED} if fn.is_async and not fn.tail_line else set()))
                    if g is None:
                        eff, found = _fallback(facts, fn, vocab, cg, lookup)
                    total = total.union(eff)
                    each.append(eff)
                    # (a `@typing.overload` stub is no definition that runs; two reviews)
                    every_dead = every_dead and (bool(NO_RETURN_MARKS & eff.on_return) or _overload(fn))
                    contained = contained and eff.contained
                    for k, o in found.items():
                        table.setdefault(k, o)
                if len(graphs.get(m, ())) > 1:  # two definitions: a class conditional in one is not in the other
                    dead = total.on_return & NO_RETURN_MARKS
                    if not every_dead:
                        dead = frozenset()
                    elif len(dead) > 1:  # an `async def` and a `def`: a call not awaited may return (a review)
                        dead = frozenset({NO_RETURN_AWAITED})
                    total = Effects(total.on_return - NO_RETURN_MARKS | dead, total.on_raise, total.escaping,
                                    _conditional_in_all(each, "when_true"), _conditional_in_all(each, "when_false"))
                for w in wrapped[m]:
                    # (in any order around the body: a caller sees the call as one node;
                    # what the wrapper always does is no conditional effect of the body,
                    # and its failure comes out of the call where it leaves the wrapper)
                    we = effects.get(w, NO_EFFECTS)
                    out = we.always & we.escaping
                    total = Effects(total.on_return | we.always, total.on_raise, total.escaping | out,
                                    total.when_true - we.always, total.when_false - we.always,
                                    exhausted=total.exhausted)
                    contained = contained and not out
                old = effects.get(m, NO_EFFECTS)
                grown = Effects(old.on_return | total.on_return, old.on_raise | total.on_raise,
                                old.escaping | total.escaping, total.when_true, total.when_false,
                                contained, total.exhausted, always_of.get(m, frozenset()))
                if (grown.on_return, grown.on_raise, grown.escaping) != (old.on_return, old.on_raise, old.escaping):
                    changed = True
                effects[m] = grown
                mine = origins.setdefault(m, {})
                for k, o in table.items():
                    mine.setdefault(k, o)
                for part in ("true", "false"):  # conditional origins follow the last pass
                    for k in [k for k in mine if k[0] == part and k[1] not in grown.part(part)]:
                        del mine[k]
            if len(members) == 1 and members[0] not in cg.graph.successors(members[0]):
                break  # no cycle: one pass is the answer
        if single and members[0] not in failed and flagged is not None:  # what a flag argument takes out of a call
            try:
                # (what a project decorator's wrapper always does, the call does whatever
                # the flag: a review)
                kept = frozenset().union(*(effects.get(w, NO_EFFECTS).always for w in wrapped[members[0]]))
                flag_rows, moved = _flag_gates(graphs.get(members[0], []), vocab, cg.callees, lookup, managers, flagged)
                gates = tuple((p, v, r - kept, x - kept, e - kept) for p, v, r, x, e in flag_rows if (r | x | e) - kept)
            except cfg.GraphTooLarge:
                gates, moved = (), {}
            except Exception as exc:  # as above
                fail(members[0], exc)
                gates, moved = (), {}
            if gates:
                effects[members[0]] = dataclasses.replace(effects[members[0]], gated=gates)
            if moved:
                origins.setdefault(members[0], {}).update(moved)
        for m in members:  # the component's `__exit__`s that test their exception
            defs = graphs.get(m, ())
            if len(defs) != 1 or m in failed:
                continue
            facts, fn, g = defs[0]
            if g is None or fn.name not in ("__exit__", "__aexit__"):
                continue
            try:
                views = (mgrmod.exit_view(g, fn, exception=False), mgrmod.exit_view(g, fn, exception=True))
                through = {cid: exit_split[k] for cid, k in _exits_passed_on(fn, facts.path, cg.callees).items()
                           if k in exit_split}
                if views == (None, None) and not through:
                    continue
                if through:  # (no test of its own: each exit is the whole graph)
                    views = (views[0] or mgrmod.ExitView(g, frozenset()), views[1] or mgrmod.ExitView(g, frozenset()))
                ns = node_sets(g, facts.path, vocab, cg.callees, lookup, managers)
                whole = graph_effects(g, facts.path, ns, vocab)[0].on_return
                seen = [graph_effects(v.graph, facts.path, _at_exit_of(g, ns, through, raised), vocab)
                        if v is not None else None for v, raised in zip(views, (False, True))]
            except Exception as exc:  # as above: read at every exit
                fail(m, exc)
                continue
            lacks = [whole - viewed[0].on_return if viewed is not None else frozenset() for viewed in seen]
            # (a call that hands the exit on, `self.__exit__(*exc_info)` of an
            # `__aexit__`, is read by its callee's split above: not again whole as one
            # of the manager's own methods, ``exit_own_methods``; a review)
            cuts = [(v.cut if v is not None else frozenset()) | frozenset(through) for v in views]
            split = ExitSplit(lacks[0], lacks[1], cuts[0], cuts[1])
            if split.not_normal or split.not_raised or split.cut_normal or split.cut_raised:
                exit_split[m] = split
            # a witness's "via" at each exit follows what runs there (the exception
            # exit's under its own part, ``Summaries.via``)
            mine = origins.setdefault(m, {})
            for view_seen, part in zip(seen, ("return", "exit-raise")):
                if view_seen is not None:
                    for k, o in view_seen[1].items():
                        if k[0] == "return":
                            mine[(part, k[1])] = o
        for m in members:  # the component's context-manager generators
            for facts, fn, g in graphs.get(m, ()):
                if fn.context_manager and g is not None and m not in failed:
                    where: Dict[Tuple[str, str], object] = {}
                    try:
                        ns = node_sets(g, facts.path, vocab, cg.callees, lookup, managers)
                        me = mgrmod.generator_effects(g, ns.performs, m, where)
                        if me is not None:
                            me = _committed_at_exit(me, g, ns, m, where)
                            me = _caught_by_parameter(me, fn)
                    except Exception as exc:  # as above: entered as an unknown manager
                        fail(m, exc)
                        continue
                    if me is not None:
                        generators[m] = me
                        mine = origins.setdefault(m, {})
                        for (part, cls), n in where.items():  # what a witness's "via" follows
                            if g.nodes[n].get("call") is None and "manager" not in g.nodes[n]:
                                # (a mark of a statement with no call: `x = sys.exc_info()[0]`
                                # hands on; no call to follow. A review, session 66: the
                                # whole run stopped on sqlalchemy's `_expect_raises`)
                                continue
                            mine.setdefault((part, cls), node_origin(g, n, cls, "return", ns, facts.path, vocab))
        if memo is not None and not any(m in failed or m in cg.unresolved for m in members):  # (tried again)
            if single:
                memo.store(members[0], cg, effects, effects[members[0]], origins.get(members[0], {}),
                           extras[members[0]], manager_payload(members[0]))
            else:
                memo.store_cycle(members, cg, effects, origins, extras, {m: manager_payload(m) for m in members})
    manager_effects: Dict[str, ManagerEffects] = dict(generators)
    for key in set(cg.managers.values()):
        if key in cg.index.classes:
            try:
                manager_effects[key] = class_manager(cg.index, key, effects, truthy, False, exit_split, cg.callees)
                if cg.index.manager_methods(key, True) != cg.index.manager_methods(key):
                    manager_effects[async_key(key)] = class_manager(cg.index, key, effects, truthy, True, exit_split,
                                                                    cg.callees)
            except Exception as exc:  # entered as an unknown manager; its `__exit__` is the OC901
                manager_effects.pop(key, None)
                methods = [k for k in cg.index.manager_methods(key) if k is not None]
                fail(methods[-1] if methods else key, exc)
    return Summaries(cg.index, effects, origins, cg.callees, cg.graph, cg.managers, manager_effects, failed,
                     dict(cg.unresolved))


def check_graph(fn: FunctionFacts, path: str, vocab: Vocabulary, summ: Summaries) -> nx.DiGraph:
    """The graph the contracts read: a ``raised`` point where the callee has on-raise
    effects, ``outcome`` points where it has conditional ones."""

    def eff(call: Call) -> Effects:
        return summ.effects_of(path, call)[0]

    g = cfg.build(
        fn, suppressor(vocab, path, summ.manager_of),
        on_raise=lambda call: bool(eff(call).on_raise - NOT_CARRIED),
        on_test=lambda call: bool(eff(call).conditional - NOT_CARRIED),
        on_iter=lambda call: bool(eff(call).exhausted - NOT_CARRIED),
        is_guard=vocab.is_guard,
        around=decorator_transaction(fn, vocab, module_names(summ.index.files.get(path))),
        project_manager=lambda call: summ.manager_of(path, call) is not None,
    )
    facts = summ.index.files.get(path)
    if facts is not None and fn.typed:
        truthy = [name for name, t in fn.typed if summ.index.always_truthy(facts, t)]
        if truthy:
            g.graph["truthy"] = tuple(truthy)  # (feasible: None or truthy, never falsy)
    for n, data in g.nodes(data=True):
        if data["kind"] == NodeKind.WITH_EXIT and data.get("manager") is not None:
            me = summ.manager_of(path, data["manager"])
            if me is not None and me.kind == "class":
                # ``__enter__`` and ``__exit__`` are two functions: no callee's graph
                # shows their order, so the exit is a site of its own and pairs with
                # the entry here (docs/decisions.md "Where a manager's events stand")
                data["site"] = ("exit", data["manager"].id)
    return g


Gate = Tuple[str, bool, FrozenSet[str], FrozenSet[str], FrozenSet[str]]
#: the flag parameters of a function past which no pair of them is gated (C(4, 2) * 4 = 24 prunes)
MAX_PAIRED_FLAGS = 4


def _flag_gates(defs: Sequence[Tuple[FileFacts, FunctionFacts, Optional[nx.DiGraph]]], vocab: Vocabulary,
                callees: Dict[Tuple[str, int], str], lookup: Lookup, managers: Optional[Managers],
                flagged: Flagged) -> Tuple[Tuple[Gate, ...], Dict[Tuple[str, str], Origin]]:
    """``Effects.gated`` of a function with one definition: for each flag parameter
    (``FunctionFacts.flag_params``) a test of its body reads (``if commit:``), and each
    of ``True``/``False``, the classes its walks perform only where the parameter is
    not that (docs/decisions.md "A flag argument"):
    ``def save(self, s, *, commit=True): ... if commit: self._conn.commit()``
    under ``commit=False`` saves nothing. The walks are the contract's own, with the
    parameter known at the entry (``flagged``: ``feasible.prune_flag``). Also the
    origins that differ under a flag value (``flag_part``): a class the function still
    performs there, at another of its calls than its summary's origin names, so that a
    witness's "via" never names a call the flag rules out."""
    if len(defs) != 1:
        return (), {}
    facts, fn, g = defs[0]
    # (a context manager's exit is the manager's split, which no flag reaches: read as
    # before, whole, so its `with` and its failures agree; a review)
    if g is None or not fn.flag_params or fn.context_manager:
        return (), {}
    tested = {n for names in g.graph.get("tested", ()) for n in names}
    untracked = set(g.graph.get("untracked", ()))
    params = [p for p in fn.flag_params if p in tested and p not in untracked]
    if not params:
        return (), {}
    base: Optional[Tuple[Effects, Dict[Tuple[str, str], Origin]]] = None
    out = []
    moved: Dict[Tuple[str, str], Origin] = {}
    alone: Dict[Tuple[str, bool], Tuple[FrozenSet[str], ...]] = {}
    combos: List[Dict[str, bool]] = [{param: value} for param in params for value in (True, False)]
    if len(params) <= MAX_PAIRED_FLAGS:
        # two flags at once (`run(x, asynchronous=False, scheduled=False)`, where each
        # alone leaves the other's branch: held-out set 290): a gate of the pair, where
        # it takes out more than either alone
        combos += [{p1: v1, p2: v2} for p1, p2 in itertools.combinations(params, 2)
                   for v1 in (True, False) for v2 in (True, False)]
    for given in combos:
        pg = flagged(g, given)
        if pg is None or pg is g:
            continue
        if base is None:
            base = graph_effects(g, facts.path, node_sets(g, facts.path, vocab, callees, lookup, managers), vocab)
        eff, origins = graph_effects(pg, facts.path, node_sets(pg, facts.path, vocab, callees, lookup, managers),
                                     vocab)
        gone = (base[0].on_return - eff.on_return, base[0].on_raise - eff.on_raise,
                base[0].escaping - eff.escaping)
        param, value = gate_name(given), True
        if len(given) == 1:
            (param, value), = given.items()
            alone[(param, value)] = gone
        else:
            each = [alone.get(item, (frozenset(),) * 3) for item in given.items()]
            if all(g_ <= frozenset().union(*(e[i] for e in each)) for i, g_ in enumerate(gone)):
                gone = (frozenset(),) * 3  # (nothing more than each flag alone takes out)
        if any(gone):
            out.append((param, value, *gone))
        # (whether or not a class is gone: `if commit: commit_run() else:
        # save_state()` saves either way, at another call; a review)
        for (part, cls), o in origins.items():
            was = base[1].get((part, cls))
            if was is not None and was.call.id != o.call.id:
                moved[(flag_part(part, param, value), cls)] = o
    return tuple(out), moved


def check_sets(g: nx.DiGraph, path: str, vocab: Vocabulary, summ: Summaries) -> NodeSets:
    return node_sets(g, path, vocab, summ.callees, lambda key: summ.effects.get(key, NO_EFFECTS), summ.manager_of)
