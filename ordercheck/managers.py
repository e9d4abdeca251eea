"""Project context managers and transactions, on graphs (semantics §Events "Context managers",
"Transactions"; §3 ``with``; §4 anchoring).

The graph (``cfg``) marks each ``with`` item's manager call and exit nodes with a
``with_id`` (an exit also names its ``manager`` call), and every node inside an item's
body carries the ids of the items around it in ``withs``; a ``@contextmanager``
generator's ``yield`` is a node with an exceptional edge (the body's exception is
thrown in there). This module only reads those marks:

* ``generator_effects``: from a generator's own graph and node classes, what stands at
  a ``with``'s entry (before the ``yield``), at its normal exits (from the ``yield``'s
  normal edge), at its exception exit (from the ``yield``'s exceptional edge: a
  ``finally`` around the ``yield`` is on both ways), and whether it suppresses (the
  thrown-in exception can reach the generator's normal end);
* ``exit_catches``: what an ``__exit__`` swallows, from the values it may return;
* ``transaction_view``: the node classes that ``sequence`` and ``at-most-once`` read: a
  transaction's body carries nothing where it stands, each normal exit carries the
  classes of the body's nodes on the walks that reach it (the commit), its exception
  exit nothing (rolled back).

``effects`` computes the summaries with these and puts them on the graph's nodes.
"""
from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple, cast

import networkx as nx

from . import kinds
from .cfg import ENTRY, EXIT, RAISE, normal_first
from .frontend.source import parse_ast
from .ir import FunctionFacts, Stmt, rebound_names
from .kinds import EdgeKind, EventClass, NodeKind, RegionKind, StmtKind, Way
from .summaries import ManagerEffects

Classes = Dict[object, FrozenSet[str]]

# classes that a call has only as a ``with`` item's call: elsewhere they are no event
WITH_ONLY = frozenset({"transaction"})
TRANSACTION = "transaction"
TERMINAL_APPEND = EventClass.TERMINAL_APPEND.value
SURFACE = EventClass.SURFACE.value
OPEN_TERMINAL = kinds.OPEN_TERMINAL
OWN_TERMINAL = kinds.OWN_TERMINAL
NEAR_TERMINAL = kinds.NEAR_TERMINAL
MARKS = frozenset({OPEN_TERMINAL, kinds.MANAGER_HANDS_ON}) | kinds.OWN_MARKS | kinds.NEAR_MARKS


def generator_effects(g: nx.DiGraph, performs: Classes, key: str,
                      where: Optional[Dict[Tuple[str, str], object]] = None) -> Optional[ManagerEffects]:
    """A ``@contextmanager`` generator's effects at a ``with``, from its graph.
    ``where`` collects, per (``entry``/``exit``/``exit-raise``, class), one node that
    performs it (the origin a witness points at)."""
    reach = nx.descendants(g, ENTRY)
    yields = [n for n, d in g.nodes(data=True) if d.get("kind") == NodeKind.YIELD and n in reach]
    if not yields:
        return None  # never yields: not a manager Python can enter
    stop = set(yields)
    before: Set[object] = set(yields)
    for y in yields:
        before |= nx.ancestors(g, y)
    entry_nodes = [n for n in before if _took_effect(g, n, before)]
    after_normal = _forward(g, [v for y in yields for v in _succ(g, y, exceptional=False)], stop)
    after_raise = _forward(g, [v for y in yields for v in _succ(g, y, exceptional=True)], stop)
    # at the normal exit: what took effect on a way to the generator's end; what it does
    # only on a way that raises (``except Conflict: append; raise`` after an inner
    # manager's exit failed) leaves the ``with`` by an exception (held-out set 65)
    ends = nx.ancestors(g.subgraph(after_normal | {EXIT}), EXIT) | {EXIT} if EXIT in after_normal else set()
    normal_nodes = [n for n in after_normal if _took_effect(g, n, ends)]
    # ... and what it does on a way that raises: at the exit's exceptional edge
    fails = nx.ancestors(g.subgraph(after_normal | {RAISE}), RAISE) | {RAISE} if RAISE in after_normal else set()
    failing_nodes = [n for n in after_normal if _took_effect(g, n, fails)]
    raised_nodes = [n for n in after_raise if _took_effect(g, n)]
    if where is not None:
        for part, nodes in (("entry", entry_nodes), ("exit", normal_nodes), ("exit-raise", raised_nodes),
                            ("exit-raising", failing_nodes)):
            for n in sorted(nodes, key=_order):
                for cls in performs.get(n, ()):
                    where.setdefault((part, cls), n)
    # the open mark only where no guard stands between the way in and the append
    entry = _union(performs, entry_nodes) - MARKS
    normal = _union(performs, normal_nodes) - MARKS
    raised = _union(performs, raised_nodes) - MARKS
    normal_raised = _union(performs, failing_nodes) - MARKS
    # a terminal append (a file write, a rename) of the generator's own calls is near
    # at the `with` (one call away)
    for own, near in kinds.NEARNESS.values():
        if any(own in performs.get(n, ()) for n in entry_nodes):
            entry |= {near}
        if any(own in performs.get(n, ()) for n in normal_nodes):
            normal |= {near}
        if any(own in performs.get(n, ()) for n in raised_nodes):
            raised |= {near}
        if any(own in performs.get(n, ()) for n in failing_nodes):
            normal_raised |= {near}
    if open_terminal_nodes(g, performs, entry_nodes, [ENTRY], stop):
        entry |= {OPEN_TERMINAL}
    if open_terminal_nodes(g, performs, normal_nodes, [v for y in yields for v in _succ(g, y, exceptional=False)], stop):
        normal |= {OPEN_TERMINAL}
    if open_terminal_nodes(g, performs, failing_nodes, [v for y in yields for v in _succ(g, y, exceptional=False)], stop):
        normal_raised |= {OPEN_TERMINAL}
    if open_terminal_nodes(g, performs, raised_nodes, [v for y in yields for v in _succ(g, y, exceptional=True)], stop):
        raised |= {OPEN_TERMINAL}
    # what a failure of the entry carries: the paths that raise before any ``yield``
    pre = _forward(g, [ENTRY], stop)
    to_raise = nx.ancestors(g.subgraph(pre | {RAISE}), RAISE) | {RAISE}
    entry_raised = _union(performs, [n for n in pre if any(v in to_raise for v in _succ(g, n, exceptional=False))]) - MARKS
    thrown = [v for y in yields for v in _succ(g, y, exceptional=True)]
    suppress = EXIT in after_raise
    caught = _generator_catches(g, thrown, stop) if suppress else None
    if caught == ():
        suppress = False  # only ``suppress()`` with no type around the ``yield``: nothing
    catches = caught or ()
    if suppress and not catches:
        # swallowing every exception, the exit is loud only when every way that a
        # broad clause (not a narrow one) swallows surfaces (``except KeyError:
        # logger.warning(...)`` beside a silent ``except Exception: pass`` is silent)
        loud = {n for n in raised_nodes if SURFACE in performs.get(n, ())}
        narrow = _narrow_clauses(g)

        def heard(by: Set[object]) -> bool:
            unheard = nx.subgraph_view(g, filter_edge=lambda u, v: (u not in by or g.edges[u, v]["kind"] == EdgeKind.EXCEPTION)
                                       and (u not in narrow or _carries_on(g, u, v)))
            return EXIT not in _forward(unheard, thrown, stop)
        if SURFACE in raised and not heard(loud):
            raised = raised - {SURFACE}
        if SURFACE not in raised:
            # or hands the exception on, on every such way: loud at this `with` only
            # (a mark no summary carries: "Whose exception")
            handing = {n for n in raised_nodes if _hands_on(g.nodes[n], performs.get(n, frozenset()))}
            if handing and heard(loud | handing):
                raised = raised | {kinds.MANAGER_HANDS_ON}
    # every `yield` inside a transaction the generator opens: the caller's body runs in it
    txn_ids = {d["with_id"] for n, d in g.nodes(data=True)
               if d.get("kind") == NodeKind.CALL and "with_id" in d and TRANSACTION in performs.get(n, ())
               and not getattr(d.get("call"), "chosen", False)}
    transactional = bool(txn_ids) and all(set(g.nodes[y].get("withs", ())) & txn_ids for y in yields)
    return ManagerEffects("generator", entry, normal, raised, suppress, key, entry_raised=entry_raised,
                          catches=catches, normal_raised=normal_raised, transaction=transactional)


def _hands_on(d: dict, classes: FrozenSet[str]) -> bool:
    """A node of a manager's handler that hands a caught exception on: a statement
    that returns, yields or stores it, a call that receives it (``print(e)``,
    ``log(str(e))``) unless it is ``quiet`` (``contracts.handlers.handing_on``'s
    reading, of the generator's own clauses)."""
    call = d.get("call")
    if kinds.MANAGER_HANDS_ON in classes:
        # the exit of an inner `with` over a manager that hands it on (`with bridge(cm)
        # as driver: yield driver`): that manager's clause is this one's (held-out set 458)
        return True
    return bool(d.get("hands_on")) or bool(call is not None and call.hands_on
                                           and not (classes and classes <= {EventClass.QUIET.value}))


def _narrow_clauses(g: nx.DiGraph) -> Dict[object, Tuple[str, ...]]:
    """The places of a graph that catch only narrow types, by entry node, with those
    types: ``except`` clauses, and ``with`` exits that swallow some types only
    (``contextlib.suppress(KeyError)``, a project manager that catches narrowly)."""
    narrow: Dict[object, Tuple[str, ...]] = {}
    for r in g.graph.get("handlers", {}).values():
        if r.broad or r.bare or r.suppress_all:
            continue
        if (r.kind == RegionKind.EXCEPT and r.types) or r.kind == RegionKind.WITH:
            narrow[r.entry] = r.types  # (a ``suppress()`` naming nothing catches nothing)
    return narrow


def _carries_on(g: nx.DiGraph, u: object, v: object) -> bool:
    """An edge by which an exception goes on (an exceptional edge, or a manager exit's
    normal edge that carries it)."""
    d = g.edges[u, v]
    return d["kind"] == EdgeKind.EXCEPTION or bool(d.get("exception"))


def _generator_catches(g: nx.DiGraph, thrown: List[object], stop: Set[object]) -> Optional[Tuple[str, ...]]:
    """The exception types that, thrown in at a ``yield``, reach the generator's normal
    end: those of the narrow ``except`` clauses (or narrowly suppressing ``with``s)
    around the ``yield`` that let it end (``try: yield`` / ``except KeyError: pass``),
    as ``contextlib.suppress(KeyError)`` names them (``()``: none, a ``suppress()``
    naming no type); None: every exception (a bare or broad clause, a ``finally`` that
    returns, any other way to the end that no narrow clause catches)."""
    narrow = _narrow_clauses(g)
    if not narrow:
        return None
    # still in flight, or caught by no narrow clause: a narrow clause's catch is cut
    uncaught = nx.subgraph_view(g, filter_edge=lambda u, v: u not in narrow or _carries_on(g, u, v))
    in_flight = _forward(uncaught, thrown, stop)
    if EXIT in in_flight:
        return None
    types: List[str] = []
    for n in sorted((h for h in narrow if h in in_flight), key=_order):
        caught = [v for v in g.successors(n) if not _carries_on(g, n, v)]
        if EXIT in _forward(g, caught, stop):
            types.extend(narrow[n])
    return tuple(dict.fromkeys(types))


def open_terminal_nodes(g: nx.DiGraph, performs: Classes, nodes: Iterable[object], starts: List[object],
                        stop: Iterable[object] = ()) -> Set[object]:
    """The nodes among ``nodes`` with a terminal append outside every idempotency guard
    (docs/decisions.md "Idempotency guards"): marked open (their own append, or a
    callee's open one) and reachable from ``starts`` without passing a ``guard`` point."""
    marked = [n for n in nodes if OPEN_TERMINAL in performs.get(n, ())]
    if not marked:
        return set()
    guards = {n for n, d in g.nodes(data=True) if d.get("guard")}
    if not guards:
        return set(marked)
    reached = _forward(g, starts, set(stop) | guards)
    return {n for n in marked if n in reached}


# --------------------------------------------------------------------------- transactions


def transactions(g: nx.DiGraph, classes: Classes) -> Dict[int, object]:
    """``with_id`` → manager call node, for every ``with`` item over a transaction."""
    return {d["with_id"]: n for n, d in g.nodes(data=True)
            if d.get("kind") == NodeKind.CALL and "with_id" in d and TRANSACTION in classes.get(n, ())
            and not getattr(d.get("call"), "chosen", False)}


def _own_commits(g: nx.DiGraph, txns: Dict[int, object], members: Dict[int, Set[object]]) -> Set[int]:
    """The transactions inside another that commit at their own exit: those over a
    receiver the outer one's body binds (``with make_session() as s2, s2.begin():``, a
    fresh session or connection made inside it), which is no savepoint of the outer
    one's connection (docs/decisions.md "A transaction over a session made inside
    another"). ``begin_nested()``, ``atomic()``, ``conn.transaction()`` over a name
    bound outside stay nested, committing with the outermost."""
    out: Set[int] = set()
    for w, node in txns.items():
        call = g.nodes[node].get("call")
        if call is None or "." not in call.callee or call.callee.rsplit(".", 1)[-1] in SAVEPOINTS:
            continue
        root = call.callee.split(".", 1)[0]
        outers = [o for o in txns if o != w and node in members[o]]
        if not outers:
            continue
        before = nx.ancestors(g, node)
        if all(root in _bound_in(g, members[o] & before) for o in outers):
            out.add(w)
    return out


#: a transaction method that is a savepoint of its connection's transaction, whatever
#: its receiver (SQLAlchemy's `begin_nested()`, a `savepoint()`, Django's `atomic()`)
SAVEPOINTS = frozenset({"begin_nested", "savepoint", "atomic"})


def _bound_in(g: nx.DiGraph, nodes: Set[object]) -> Set[str]:
    """The plain names the nodes bind: an assignment's targets, a ``with`` item's
    ``as`` name (on its exits)."""
    out: Set[str] = set()
    for n in nodes:
        d = g.nodes[n]
        out.update(d.get("writes", ()))
        if d.get("kind") == NodeKind.WITH_EXIT and d.get("target"):
            out.add(d["target"])
    return out


def transaction_view(g: nx.DiGraph, classes: Classes) -> Tuple[nx.DiGraph, Classes, Dict[Tuple[object, str], List[object]]]:
    """The graph and classes that ordering contracts read (semantics §Events
    Transactions): inside a transaction's body no node is an event; each normal exit of
    the outermost transaction carries the classes of its body's nodes on the walks that
    reach that exit (the commit: what a walk did not do, it does not commit); its
    exception exit carries nothing of the body (rolled back). Also, per (commit node,
    class), the body nodes that perform it on the walks that reach that commit, in
    order (the first is where a summary's origin points; all of them tell on which
    ``return`` the walks end, for conditional effects).

    The exits are one per way out (``return``, ``break``, ``continue``, falling
    through), and after ``feasible.prune_correlated`` one per state of the tested
    names, so a save made only on the way that returns, or only when ``not
    dry_run``, is not committed by the way out that falls through, or the one where
    ``dry_run`` holds. Walks through one exit that did different things (``if flag:
    store.save(2)`` before ``ledger.append(3)``) commit different classes: the exit is
    split into one copy per set of classes its walks commit, each entered from the
    body's nodes whose walks did that (``_split_body``), so a save on some walks is no
    save committed on the others (docs/decisions.md, "What a transaction commits"). The
    graph comes back as it was, or as a copy with those exits split."""
    txns = transactions(g, classes)
    if not txns:
        return g, classes, {}
    body: Dict[int, List[object]] = {i: [] for i in txns}
    for n, d in g.nodes(data=True):
        for w in d.get("withs", ()):
            if w in body:
                body[w].append(n)
    out = dict(classes)
    members = {w: set(nodes) for w, nodes in body.items()}
    own = _own_commits(g, txns, members)
    # what such a transaction's body does is its own, not the outer's: the outer one
    # reads its classes without those nodes (its walks still pass through them)
    theirs: Dict[int, Classes] = {}
    for w in own:
        for outer in txns:
            if outer != w and txns[w] in members[outer]:
                base = theirs.get(outer, classes)
                theirs[outer] = {k: v for k, v in base.items() if k not in members[w]}
    inside: Set[object] = set()
    for nodes in body.values():
        inside.update(nodes)
        for n in nodes:
            out.pop(n, None)
    source: Dict[Tuple[object, str], List[object]] = {}
    exits: Dict[int, List[object]] = {}
    extra: Dict[object, FrozenSet[str]] = {}  # per exit, the UNSPLIT classes its walks did
    budget = MAX_BODY_COPIES  # (for the whole function: a review, session 33)
    for n, d in list(g.nodes(data=True)):
        w = d.get("with_id")
        if d.get("kind") != NodeKind.WITH_EXIT or w not in txns or d.get("way") == Way.RAISE or (
                n in inside and w not in own):
            continue  # an inner transaction commits into the outer one
        lifted: Set[str] = set()
        performers = sorted(_reaching(g, n, members[w]), key=_order)
        mine = theirs.get(w, classes)
        for b in performers:
            for cls in mine.get(b, ()):
                if cls not in WITH_ONLY:
                    lifted.add(cls)
                    source.setdefault((n, cls), []).append(b)
        exits.setdefault(w, []).append(n)
        _put(out, n, out.get(n, frozenset()) | frozenset(lifted))
        extra[n] = frozenset(lifted) & UNSPLIT
    built = g
    next_id = max((n for n in g if isinstance(n, int)), default=0) + 1
    for w, ns in exits.items():
        mine = theirs.get(w, classes)
        states = _body_states(built, ns, members[w], mine)
        if states is None:
            continue  # (too many sets: each exit commits all its walks did, as before)
        state_in, at_exit = states
        committed = {n: sorted({s for st in at_exit[n].values() for s in st}, key=_set_order) for n in ns}
        if all(len(c) <= 1 for c in committed.values()):
            continue
        if g is built:
            g = g.copy()
        regions = g.graph.get("handlers", {}).values()
        copies = sum(len(v) for v in state_in.values())
        if any(getattr(r, "entry", None) in members[w] for r in regions) or copies > budget:
            # a handler inside the body: its region is not copied, so only the exits
            # are (and so for a body whose copies would be too many)
            for n in ns:
                if len(committed[n]) > 1:
                    next_id = _split_exit(g, n, committed[n], at_exit[n], mine, out, source, next_id)
        else:
            budget -= copies
            next_id = _split_body(g, ns, state_in, mine, out, source, next_id)
        for n in ns:  # (each copy of an exit: what the walks did, and the unsplit classes)
            for copy in [c for c in g if c == n or (g.nodes[c].get("with_id") == w and g.nodes[c].get("kind") == NodeKind.WITH_EXIT
                                                     and g.nodes[c].get("way") == g.nodes[n].get("way"))]:
                if copy in out or extra[n]:
                    _put(out, copy, out.get(copy, frozenset()) | extra[n])
    return normal_first(g), out, source


def _set_order(s: FrozenSet[str]) -> Tuple[int, List[str]]:
    return (len(s), sorted(s))


def _split_exit(g: nx.DiGraph, n: object, committed: List[FrozenSet[str]], through: Dict[object, Set[FrozenSet[str]]],
                classes: Classes, out: Classes, source: Dict[Tuple[object, str], List[object]], next_id: int) -> int:
    """One copy of the exit ``n`` per set of classes its walks commit, each entered
    from the predecessors some walk of which did that (the body itself is not copied,
    so the shortest way to a copy may be a walk that did none of it: a witness takes
    one through a call that did, ``diagnose.through_commits``)."""
    own = classes.get(n, frozenset())
    preds = list(g.pred[n].items())
    succs = list(g.succ[n].items())
    for i, done in enumerate(committed):
        if i == len(committed) - 1:
            copy = n  # the walks that did the most keep the exit itself
        else:
            copy = next_id
            next_id += 1
            g.add_node(copy, **g.nodes[n])
            g.add_edges_from((copy, v, dict(e)) for v, e in succs)
        for p, e in preds:
            if done in through.get(p, ()):  # (a node no walk reaches, after a call that never returns: none)
                g.add_edge(p, copy, **dict(e))
            elif copy == n:
                g.remove_edge(p, n)
        _put(out, copy, own | done)
        if copy != n:
            for cls in done:
                source[(copy, cls)] = [b for b in source.get((n, cls), ()) if cls in classes.get(b, ())]
    return next_id


def _split_body(g: nx.DiGraph, exits: List[object], state_in: Dict[object, Set[FrozenSet[str]]],
                classes: Classes, out: Classes, source: Dict[Tuple[object, str], List[object]], next_id: int) -> int:
    """The product of a transaction's body with what its walks did so far: one copy of
    each body node per set of classes done on the walks that reach it, and of each exit
    per set committed, so every walk to a copy of the exit did what that copy commits,
    and a witness shows the branches that walk took. The copy a walk enters from
    outside the body (nothing done) keeps the node's id."""
    reach = set(state_in)
    exit_set = set(exits)
    succ = {u: list(g.succ[u].items()) for u in reach}
    exit_succ = {n: list(g.succ[n].items()) for n in exits}
    outside = {n: [(p, dict(e)) for p, e in g.pred[n].items() if p not in reach] for n in exits}
    ids: Dict[Tuple[object, FrozenSet[str]], object] = {}
    used: Set[object] = set()

    def copy_of(v: object, done: FrozenSet[str]) -> object:
        nonlocal next_id
        key = (v, done)
        if key not in ids:
            if v not in used:
                used.add(v)
                ids[key] = v
            else:
                ids[key] = next_id
                next_id += 1
                g.add_node(ids[key], **dict(g.nodes[v]))
                if v in exit_set:
                    g.add_edges_from((ids[key], t, dict(e)) for t, e in exit_succ[v])
        return ids[key]

    for u in reach:
        g.remove_edges_from([(u, v) for v, _ in succ[u]])
    for n in exits:
        g.remove_edges_from([(p, n) for p, _ in outside[n]])
    order = sorted(reach, key=_order)
    for u in order:  # (nothing done first: the copy entered from outside keeps the id)
        for done in sorted(state_in[u], key=_set_order):
            copy_of(u, done)
    for u in order:
        own = _done(classes, u)
        for done in sorted(state_in[u], key=_set_order):
            cu = ids[(u, done)]
            for v, e in succ[u]:
                after = done if e["kind"] == EdgeKind.EXCEPTION else done | own
                target = copy_of(v, after) if v in reach or v in exit_set else v
                g.add_edge(cu, target, **dict(e))
    for n in exits:
        for p, e in outside[n]:
            g.add_edge(p, copy_of(n, frozenset()), **e)
        own_n = classes.get(n, frozenset())
        for (v, done), cid in list(ids.items()):
            if v != n:
                continue
            _put(out, cid, own_n | done)
            if cid != n:
                for cls in done:
                    source[(cid, cls)] = [b for b in source.get((n, cls), ()) if cls in classes.get(b, ())]
    return next_id


#: classes no ordering rule of this version reads: they do not split a commit (a
#: `logger.error` on one branch is no other walk), and each copy of the exit carries
#: them when any walk did them
UNSPLIT = frozenset({"surface", "quiet"})


def _done(classes: Classes, u: object) -> FrozenSet[str]:
    """What a body node does, for the sets of what walks did (``_body_states``)."""
    return frozenset(c for c in classes.get(u, ()) if c not in WITH_ONLY and c not in UNSPLIT)


#: more sets of committed classes than this at one node of a body, and its exit is not
#: split (it then commits every class of its walks, as before session 33)
MAX_WALK_SETS = 128
#: a transaction body whose copies (``_split_body``) would pass this is not copied: only
#: its exits are split (the same findings; a witness may take another branch)
MAX_BODY_COPIES = 20_000


def _body_states(g: nx.DiGraph, exits: List[object], body: Set[object], classes: Classes
                 ) -> Optional[Tuple[Dict[object, Set[FrozenSet[str]]], Dict[object, Dict[object, Set[FrozenSet[str]]]]]]:
    """What the walks through a transaction's body did: per body node from which an
    exit is reached within the body, the sets of classes done on the walks that reach
    it; per exit and predecessor, the sets the walks that reach the exit by it commit.
    A node takes effect on its normal edges (a save that raised saved nothing); a walk
    enters the body from outside it with nothing done, and a predecessor outside the
    body (an empty body) did nothing. None when some node has more than
    ``MAX_WALK_SETS`` sets."""
    reach: Set[object] = set()
    for n in exits:
        reach |= _within(g, n, body)
    exit_set = set(exits)
    state: Dict[object, Set[FrozenSet[str]]] = {}
    queue: deque = deque()
    for v in sorted(reach, key=_order):
        if any(p not in body for p in g.pred[v]):
            state[v] = {frozenset()}
            queue.append(v)
    at_exit: Dict[object, Dict[object, Set[FrozenSet[str]]]] = {
        n: {p: {frozenset()} for p in g.pred[n] if p not in body} for n in exits}
    while queue:
        u = queue.popleft()
        own = _done(classes, u)
        for v, e in g.succ[u].items():
            if v not in exit_set and v not in reach:
                continue
            states = state[u] if e["kind"] == EdgeKind.EXCEPTION else {s | own for s in state[u]}
            target = at_exit[v].setdefault(u, set()) if v in exit_set else state.setdefault(v, set())
            new = states - target
            if new:
                target |= new
                if len(target) > MAX_WALK_SETS:
                    return None
                if v not in exit_set:
                    queue.append(v)
    return state, at_exit


def exit_step_text(g: nx.DiGraph, n: object, classes: Classes, shown: Iterable[str]) -> str:
    """The witness text of a ``with`` exit that carries events:
    "`session.begin()` commits: save, append", "`_lock()` exits: save"."""
    d = g.nodes[n]
    call = d.get("manager")
    label = call.text if call is not None else d["text"]
    verb = "commits" if d.get("with_id") in transactions(g, classes) else "exits"
    return f"`{label}` {verb}: {', '.join(shown)}"


# --------------------------------------------------------------------------- helpers


def _order(n: object) -> Tuple[int, str]:
    return (n, "") if isinstance(n, int) else (-1, str(n))


def _put(classes: Classes, n: object, cls: FrozenSet[str]) -> None:
    if cls:
        classes[n] = frozenset(cls)
    else:
        classes.pop(n, None)


def _reaching(g: nx.DiGraph, exit_node: object, body: Set[object]) -> Set[object]:
    """The nodes of ``body`` that took effect on a walk reaching ``exit_node`` without
    leaving the body: the walk leaves the node by a normal edge (semantics §Graph: a
    save that raised saved nothing, whether or not a handler in the body caught its
    exception; what ran before it on that walk, or a callee's on-raise point, did take
    effect). docs/decisions.md, "What a transaction commits"."""
    reach = _within(g, exit_node, body)
    return {n for n in reach if any(v == exit_node or v in reach for v in _succ(g, n, exceptional=False))}


def _within(g: nx.DiGraph, exit_node: object, body: Set[object]) -> Set[object]:
    """The nodes of ``body`` from which ``exit_node`` is reached within the body."""
    reach: Set[object] = set()
    todo = [exit_node]
    while todo:
        for p in g.pred[todo.pop()]:
            if p in body and p not in reach:
                reach.add(p)
                todo.append(p)
    return reach


def _union(classes: Classes, nodes: Iterable[object]) -> FrozenSet[str]:
    out: Set[str] = set()
    for n in nodes:
        out |= classes.get(n, frozenset())
    return frozenset(out)


def _succ(g: nx.DiGraph, n: object, exceptional: bool) -> List[object]:
    return [v for v, d in g.succ[n].items() if (d["kind"] == EdgeKind.EXCEPTION) == exceptional]


def _took_effect(g: nx.DiGraph, n: object, within: Optional[Set[object]] = None) -> bool:
    """An event took effect on a path that leaves it by a normal edge (into
    ``within``, when given)."""
    return any(within is None or v in within for v in _succ(g, n, exceptional=False))


def _forward(g: nx.DiGraph, starts: List[object], stop: Set[object]) -> Set[object]:
    """Nodes reachable from ``starts`` without passing a node of ``stop``."""
    seen: Set[object] = set()
    queue = deque(s for s in starts if s not in stop)
    while queue:
        u = queue.popleft()
        if u in seen:
            continue
        seen.add(u)
        for v in g.successors(u):
            if v not in seen and v not in stop:
                queue.append(v)
    return seen


def exit_catches(g: nx.DiGraph, fn: Optional[FunctionFacts] = None,
                 imports: Optional[Dict[str, str]] = None) -> Optional[Tuple[str, ...]]:
    """What an ``__exit__`` swallows, from the values its reachable ``return``s may
    give (``_may_be_true``): None, nothing (no return may be true); the exception
    types when every return that may be true tests the exception's type against
    named classes (``return issubclass(exc_type, KeyError)``, ``return exc_type is
    KeyError``, ``return isinstance(exc, (KeyError, IndexError))``), or stands in the
    body of an ``if`` whose test does (``if issubclass(exc_type, KeyError): return
    True``; ``fn``'s statements tell which); ``()``, every exception (any other true
    value: ``return True``, ``return self.mode is Strict``). A type is given as
    written and, through ``imports`` (the file's), by its qualified name, as an
    ``except`` clause's are."""
    # the exception: any parameter but the instance (``exc_type``, ``exc``, ``*exc``)
    params = frozenset(fn.params[1:]) if fn is not None else None
    # (with an exception in flight: a branch taken only without one, ``if exc_type is
    # None: return True``, is never taken then)
    view = exit_view(g, fn, exception=True) if fn is not None else None
    reach = nx.descendants(view.graph if view is not None else g, ENTRY)
    test = _TypeTest(params, imports or {})
    guards = guarded_returns(fn.body, test) if fn is not None else {}
    types: List[str] = []
    any_true = False
    for n, d in g.nodes(data=True):
        if d.get("stmt") != StmtKind.RETURN or n not in reach:
            continue
        value = _return_value(d.get("text", ""))
        if value is None or not _may_be_true(value):
            continue
        any_true = True
        named = test.required(value)
        if named is None:
            line = d.get("line")
            named = guards.get(line) if line is not None else None
        if named is None:
            return ()
        types.extend(named)
    return tuple(dict.fromkeys(types)) if any_true else None


@dataclass(frozen=True)
class ExceptionParameters:
    """What holds the values Python passes an ``__exit__``: with an exception in
    flight its type, value and traceback (all true), at a normal exit three Nones,
    at positions 1 to 3 of its arguments (``self`` at 0). ``names``: the named ones
    (``exc_type, exc, tb``), by position; ``star``: an ``*args`` parameter
    (``__exit__(self, *exc_info)``), a tuple whose item ``k`` is the argument at
    position ``star_at + k`` (``star_at``: how many positional parameters come before
    it, ``self`` included: ``__exit__(*args)`` holds ``self`` at ``args[0]``)."""

    names: Tuple[str, ...]  # (one bound again is left out of ``live``)
    live: FrozenSet[str]
    star: Optional[str]
    star_at: int

    def _position(self, node: ast.expr) -> Optional[int]:
        """The argument position ``node`` holds: a live named parameter's, or ``star[k]``'s."""
        if isinstance(node, ast.Name):
            return self.names.index(node.id) + 1 if node.id in self.live else None
        if (self.star is not None and isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                and node.value.id == self.star and isinstance(node.slice, ast.Constant)
                and type(node.slice.value) is int and node.slice.value >= 0):
            return self.star_at + node.slice.value
        return None

    def holds(self, node: ast.expr) -> bool:
        """``node`` is one of the three values: a named parameter, or ``star[k]``."""
        return self._position(node) in (1, 2, 3)

    def star_is_exception(self) -> bool:
        """The star tuple holds exactly some of the three values (``any(exc_info)``)."""
        return self.star is not None and 1 <= self.star_at <= 3

    def passed_on(self, call_text: str) -> bool:
        """A call hands the three values on, in order (``super().__exit__(exc_type,
        exc, tb)``, ``self._inner.__exit__(*exc_info)``): the callee sees the same
        exit."""
        node = _call_expr(call_text)
        if node is None or node.keywords:
            return False
        got: List[int] = []
        for a in node.args:
            if (self.star is not None and isinstance(a, ast.Starred) and isinstance(a.value, ast.Name)
                    and a.value.id == self.star):
                got.extend(range(self.star_at, 4))
            else:
                at = self._position(a)
                if at is None:
                    return False
                got.append(at)
        return got == [1, 2, 3]


def exception_parameters(fn: FunctionFacts) -> Optional[ExceptionParameters]:
    """The parameters of an ``__exit__`` that hold what Python passed (``ExceptionParameters``);
    a name the function (or a nested one, through ``nonlocal``) binds again tells
    nothing, and None when nothing is left."""
    if not fn.positional:
        return None
    before = fn.positional[:-1] if fn.star else fn.positional
    named = tuple(before[1:4])
    gone = rebound_names(fn.body) | set(fn.untracked)
    star = fn.star if fn.star and len(before) <= 3 and fn.star not in gone else None
    live = frozenset(named) - gone
    if not live and star is None:
        return None
    return ExceptionParameters(named, live, star, len(before))


def returned_calls(g: nx.DiGraph) -> Set[str]:
    """The calls the graph's reachable ``return`` statements return, as source
    (``call_source``): ``return super().__exit__(exc_type, exc, tb)``."""
    reach = nx.descendants(g, ENTRY)
    out: Set[str] = set()
    for n, d in g.nodes(data=True):
        if d.get("stmt") == StmtKind.RETURN and n in reach:
            value = _return_value(d.get("text", ""))
            if isinstance(value, ast.Call):
                out.add(ast.unparse(value))
    return out


def call_source(text: str) -> Optional[str]:
    """A call's text as ``returned_calls`` renders it (None when it does not parse)."""
    node = _call_expr(text)
    return ast.unparse(node) if node is not None else None


def _call_expr(text: str) -> Optional[ast.Call]:
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    return node if isinstance(node, ast.Call) else None


@dataclass(frozen=True)
class ExitView:
    """An ``__exit__``'s graph as one way out of its ``with`` runs it (``exit_view``):
    ``graph`` without the branch edges not taken; ``cut``: the ids of the calls no
    longer reached (``self._fail()``, whose override along the instance's MRO is then
    not at that exit either)."""

    graph: nx.DiGraph
    cut: FrozenSet[int]


def exit_view(g: nx.DiGraph, fn: FunctionFacts, exception: bool) -> Optional[ExitView]:
    """An ``__exit__``'s graph as it runs at the ``with``'s exception exit
    (``exception``: Python passes the exception's type, value and traceback) or at a
    normal one (three Nones): each ``if``/``elif`` whose test the parameters decide
    then (``_test_value``) loses the branch edges it does not take, from its
    statement node and from the nodes of its test (a call in it: ``isinstance(exc,
    E)``, ``issubclass(...)``), so what only that branch leads to is not reached (``if
    exc_type is not None: ledger.append("step_failed")`` is not at a normal exit; ``if
    not exc: return`` ends it there; ``if exc is None: store.save(s)`` is not at an
    exception exit). None when no test is decided so (docs/decisions.md "An
    ``__exit__`` that tests its exception")."""
    params = exception_parameters(fn)
    if params is None:
        return None
    decided: List[Tuple[Stmt, bool]] = []
    _decided_tests(fn.body, params, exception, decided)
    if not decided:
        return None
    cut_edges: List[Tuple[object, object]] = []
    for st, value in decided:
        wanted = EdgeKind.FALSE if value else EdgeKind.TRUE  # (the branch not taken)
        for n, d in g.nodes(data=True):
            if d.get("stmt") != StmtKind.IF or d.get("span") != st.span:
                continue
            region, queue = {n}, [n]
            while queue:
                u = queue.pop()
                for _, v, kind in g.out_edges(u, data="kind"):  # type: ignore[var-annotated]
                    if kind == wanted:
                        cut_edges.append((u, v))
                    elif (kind != EdgeKind.EXCEPTION and v not in region and st.header_span is not None
                          and _in_span(g.nodes[v].get("span"), st.header_span)):
                        region.add(v)  # a node of the test itself (its calls, their outcomes)
                        queue.append(v)
    view = g.copy()
    view.remove_edges_from(cut_edges)
    return ExitView(view, frozenset(_reached_calls(g) - _reached_calls(view)))


def _in_span(span, outer) -> bool:
    return span is not None and (outer.line, outer.col) <= (span.line, span.col) <= (outer.end_line, outer.end_col)


def _reached_calls(g: nx.DiGraph) -> Set[int]:
    """The ids of the calls of the nodes ENTRY reaches."""
    reach = nx.descendants(g, ENTRY)
    return {d["call"].id for n, d in g.nodes(data=True) if n in reach and d.get("call") is not None}


def _decided_tests(body: List[Stmt], params: ExceptionParameters, exception: bool, out: List[Tuple[Stmt, bool]]) -> None:
    """The ``if``/``elif`` statements of ``body`` (nested ones too, not in a branch
    already not taken) whose test the exception parameters decide (``_test_value``),
    each with its value."""
    for st in body:
        if st.kind == StmtKind.IF:
            cond = _test_expr(st.text)
            value = _test_value(cond, params, exception) if cond is not None else None
            if value is not None:
                out.append((st, value))
                _decided_tests(st.body if value else st.orelse, params, exception, out)
                continue
        for part in (st.body, st.orelse, st.finalbody, *(h.body for h in st.handlers), *(c.body for c in st.cases)):
            _decided_tests(part, params, exception, out)


def _test_value(cond: ast.expr, params: ExceptionParameters, exception: bool) -> Optional[bool]:
    """The value of an ``__exit__``'s test when its exception parameters (``params``)
    hold an exception in flight (``exception``: a class, an instance and a traceback,
    all true) or are None (a normal exit); None when anything else may decide it.
    ``exc``, ``not exc``, ``exc is None``, ``exc is not None`` are decided either way
    (``exc_info[0]`` of an ``__exit__(self, *exc_info)`` as ``exc``; ``exc_info``
    itself, never empty, is true at both; ``any(exc_info)`` as ``exc``);
    ``isinstance(exc, E)`` only without an exception (None is an instance of no
    exception class; an exception may be of another); ``and``/``or`` by their parts:
    a conjunction is false when a part is, true when all are (a disjunction the
    other way round), so ``exc_type is not None and self.strict`` is decided only
    at a normal exit (a review)."""
    if params.holds(cond):
        return exception
    if isinstance(cond, ast.Name) and params.star is not None and cond.id == params.star:
        return True  # (a tuple of one to four items: never empty)
    if (isinstance(cond, ast.Call) and isinstance(cond.func, ast.Name) and cond.func.id == "any"
            and len(cond.args) == 1 and isinstance(cond.args[0], ast.Name) and cond.args[0].id == params.star
            and params.star_is_exception()):
        return exception  # (``any(exc_info)``)
    if isinstance(cond, ast.UnaryOp) and isinstance(cond.op, ast.Not):
        inner = _test_value(cond.operand, params, exception)
        return None if inner is None else not inner
    if isinstance(cond, ast.BoolOp):
        parts = [_test_value(v, params, exception) for v in cond.values]
        decisive = not isinstance(cond.op, ast.And)  # (false decides `and`, true decides `or`)
        if decisive in parts:
            return decisive
        return (not decisive) if all(p is (not decisive) for p in parts) else None
    if (isinstance(cond, ast.Call) and isinstance(cond.func, ast.Name) and cond.func.id == "isinstance"
            and len(cond.args) == 2 and params.holds(cond.args[0])):
        return None if exception else False
    if (isinstance(cond, ast.Compare) and len(cond.ops) == 1 and params.holds(cond.left)
            and isinstance(cond.comparators[0], ast.Constant)
            and cond.comparators[0].value is None):
        if isinstance(cond.ops[0], ast.Is):
            return not exception
        if isinstance(cond.ops[0], ast.IsNot):
            return exception
    return None


def guarded_returns(body: List[Stmt], test: "_TypeTest", guard: Optional[Tuple[str, ...]] = None,
                    out: Optional[Dict[int, Tuple[str, ...]]] = None) -> Dict[int, Tuple[str, ...]]:
    """The line of each ``return`` that stands in the body of an ``if``/``elif`` whose
    test requires the exception to be of named classes (``_TypeTest.required``), with
    those classes (the innermost such test's)."""
    if out is None:
        out = {}
    for st in body:
        if st.kind == StmtKind.RETURN and guard is not None:
            out[st.span.line] = guard
        if st.kind == StmtKind.IF:
            cond = _test_expr(st.text)
            named = test.required(cond) if cond is not None else None
            guarded_returns(st.body, test, named or guard, out)
            guarded_returns(st.orelse, test, guard, out)
            continue
        for part in (st.body, st.orelse, st.finalbody, *(h.body for h in st.handlers), *(c.body for c in st.cases)):
            guarded_returns(part, test, guard, out)
    return out


def _test_expr(header: str) -> Optional[ast.expr]:
    """The test of an ``if``/``elif`` header (``if issubclass(t, KeyError):``)."""
    text = header.strip()
    for word in ("elif", "if"):
        if text.startswith(word):
            text = text[len(word):]
            break
    else:
        return None
    try:
        node = cast(ast.Expression, parse_ast(text.rstrip().removesuffix(":").strip(), mode="eval"))
    except SyntaxError:
        return None
    return node.body


def _return_value(text: str) -> Optional[ast.expr]:
    try:
        tree = cast(ast.Module, parse_ast(text.strip()))
    except SyntaxError:
        return None
    for node in tree.body:
        if isinstance(node, ast.Return):
            return node.value
    return None


class _TypeTest:
    """Reads a test of an ``__exit__``'s exception against named classes. ``subjects``:
    the names that hold the exception or its type (None: any name); ``imports``: the
    file's, to qualify a class's name."""

    def __init__(self, subjects: Optional[FrozenSet[str]], imports: Dict[str, str]) -> None:
        self.subjects = subjects
        self.imports = imports

    def required(self, node: ast.expr) -> Optional[Tuple[str, ...]]:
        """The exception classes a true value of ``node`` requires the exception to
        be (``issubclass(exc_type, KeyError)``: ``("KeyError",)``); None: no such
        test (``self.mode is Strict`` tests no exception)."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2:
            if not self._exception(node.args[0]):
                return None
            arg = node.args[1]
            parts = list(arg.elts) if isinstance(arg, ast.Tuple) else [arg]
            names = [self._class(p) for p in parts]
            if not names or any(n is None for n in names):
                return None
            return tuple(t for n in names if n for t in n)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.Eq)):
            if not self._exception(node.left):
                return None
            return self._class(node.comparators[0])
        if isinstance(node, ast.IfExp):
            return self._either([node.body, node.orelse])
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                # true only when every part is: the first part that names classes
                return next((t for t in map(self.required, node.values) if t is not None), None)
            return self._either(node.values)
        return None

    def _either(self, values: List[ast.expr]) -> Optional[Tuple[str, ...]]:
        """True when any part that may be true is: each must name classes."""
        found: List[str] = []
        for v in values:
            if isinstance(v, (ast.Name, ast.Attribute)):
                return None  # a flag beside the test (``... or self.lenient``) may be true for any type
            if not _may_be_true(v):
                continue
            t = self.required(v)
            if t is None:
                return None
            found.extend(t)
        return tuple(found) if found else None

    def _exception(self, node: ast.expr) -> bool:
        """Whether ``node`` is the exception or its type: a subject name, an item of
        one (``exc[0]`` of ``*exc``), ``type(e)``, ``e.__class__``."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type" and len(node.args) == 1:
            node = node.args[0]
        elif isinstance(node, ast.Attribute) and node.attr == "__class__":
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        return isinstance(node, ast.Name) and (self.subjects is None or node.id in self.subjects)

    def _class(self, node: ast.expr) -> Optional[Tuple[str, ...]]:
        """A dotted name that reads as a class (its last part CapWords: ``KeyError``,
        ``errors.NotFound``; not ``RETRYABLE`` or ``self._expected``), as written and
        import-qualified; None for anything else."""
        part = node
        while isinstance(part, ast.Attribute):
            part = part.value
        if not isinstance(part, ast.Name) or part.id in ("self", "cls"):
            return None
        last = node.attr if isinstance(node, ast.Attribute) else part.id
        if not (last[:1].isupper() and any(c.islower() for c in last)):
            return None
        text = ast.unparse(node)
        head, _, rest = text.partition(".")
        qualified = self.imports.get(head)
        if qualified is None:
            return (text,)
        return (text, qualified + ("." + rest if rest else ""))


#: calls whose value is a test
_TESTS = frozenset({"isinstance", "issubclass", "bool", "callable", "hasattr"})


def _may_be_true(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return bool(node.value)
    if isinstance(node, ast.BoolOp):
        parts = [_may_be_true(v) for v in node.values]
        if isinstance(node.op, ast.And):
            # a flag beside a test (``self.lenient and issubclass(t, KeyError)``) may be true
            return any(parts) and all(p or isinstance(v, (ast.Name, ast.Attribute)) for p, v in zip(parts, node.values))
        return any(parts)
    if isinstance(node, ast.IfExp):
        return _may_be_true(node.body) or _may_be_true(node.orelse)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return True
    if isinstance(node, ast.Compare):
        none_test = (len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.Eq))
                     and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None)
        return not none_test
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in _TESTS
    return False