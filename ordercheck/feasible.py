"""Correlated tests (semantics §Contracts): a walk never takes two branches that contradict each
other.

``prune_correlated(g)`` returns the product of a function's graph with what its
tests have told about plain local names so far: nodes ``(node, state)`` reachable
from ENTRY, where a branch edge whose facts contradict the state is dropped. Every
contract then runs on the product unchanged, and what it finds rests on feasible
walks only (``if dry_run: return`` ... ``if not dry_run: store.save(run)`` is one
path, not two). Still reachability, never path enumeration: the product has at most
``BOUND`` times the nodes of the graph or ``FLOOR`` nodes, whichever is more, else the
graph is returned as it is.

What a name can be is a set of three abstract values — None, falsy but not None,
truthy — as a bit mask. A branch intersects it (``x`` → truthy; ``x is None`` →
None, which is also falsy); a write (assignment, ``for``/``with`` target, ``del``,
walrus, ``except ... as``, ``import``, ``def``) resets it, on the node's normal way
out only (an exception out of it left the name as it was, a walrus aside); a change to the object
(a container's ``x.append(...)``, ``x[k] = v``) resets its truthiness but not its
None-ness; any other method call (``task.save()``) is no write. Only
names tested at least twice are tracked, and none in a function that has more than
``MAX_NAMES`` of them; names
declared ``global``/``nonlocal`` (or rebound by a nested function) and the module
body's names are never tracked: any call could rebind them.

Copies: the first copy of a node keeps its id, the others get fresh integer ids;
ENTRY, EXIT and RAISE stay single nodes. Node and edge attributes are copied (a copy
of a call keeps its ``call``, so findings still dedupe by call site). A handler region
is copied per copy of its entry: its nodes carry the copy's region id in ``ctx``, and
``graph.graph["handlers"]`` describes every copy.
"""
from __future__ import annotations

import dataclasses
from collections import Counter, deque
from typing import Dict, FrozenSet, List, Optional, Tuple

import networkx as nx

from .cfg import ENTRY, EXIT, RAISE
from .kinds import EdgeKind

NONE, FALSY, TRUTHY = 1, 2, 4
ANY = NONE | FALSY | TRUTHY
MAX_NAMES = 8
BOUND = 8  # the product may have at most BOUND x the graph's nodes,
FLOOR = 20_000  # or this many, whichever is more (a small function with eight flags is pruned whole)
MAX_PRODUCT = 200_000  # and never more than this many (a huge function stays unpruned)
#: a function whose product went past the limit above, and whose unpruned graph gives a
#: finding, is pruned again with this many nodes allowed before the finding is kept:
#: the finding must not rest on an infeasible walk (docs/decisions.md "Correlated tests")
MAX_PRODUCT_FOR_FINDING = 400_000

_FACT_MASK = {("truth", True): TRUTHY, ("truth", False): NONE | FALSY,
              ("none", True): NONE, ("none", False): FALSY | TRUTHY}

State = Tuple[int, ...]


def tracked_names(g: nx.DiGraph, literals: bool = False) -> List[str]:
    """Names tested at least twice (each test statement counts once), in order of
    their first test; none when there are more than ``MAX_NAMES`` (the contract:
    "at most eight per function; beyond that, walks are not pruned").

    ``literals`` (a witness's walk, ``literal_names``): also the names tested once
    that some statement binds to a literal, after those tested twice, up to
    ``MAX_NAMES`` in all."""
    if g.graph.get("function") == "<module>":
        return []
    untracked = set(g.graph.get("untracked", ()))
    counts: Counter = Counter()
    order: Dict[str, int] = {}
    for names in g.graph.get("tested", ()):
        for n in names:
            counts[n] += 1
            order.setdefault(n, len(order))
    names = [n for n in sorted(order, key=order.__getitem__) if counts[n] >= 2 and n not in untracked]
    # a re-raised exception's type (``cfg._typed_raise``: a name no code writes) only
    # where the function's own names leave room
    raised = [n for n in names if n.startswith("<")]
    names = [n for n in names if not n.startswith("<")]
    if len(names) > MAX_NAMES:
        return []
    if not literals:
        return (names + raised)[:MAX_NAMES]
    bound = literal_names(g)
    more = [n for n in sorted(order, key=order.__getitem__) if counts[n] == 1 and n in bound and n not in untracked]
    return (names + more + raised)[:MAX_NAMES]


def literal_names(g: nx.DiGraph) -> FrozenSet[str]:
    """The names some node of ``g`` binds to a literal (``x = []``: ``Stmt.literals``)."""
    out = set()
    for _, data in g.nodes(data=True):
        for name, _mask in data.get("literals", ()):
            out.add(name)
    return frozenset(out)


def _after(data: dict, state: State, index: Dict[str, int], raised: bool = False,
           full: Optional[State] = None, literals: bool = False) -> State:
    """The state after a node's own writes and changes; on an exception out of the
    node (``raised``), only the names bound before it could raise (a walrus): an
    assignment binds its target once its value is computed (``ok = probe()`` that
    raised left ``ok`` as it was). ``full``: what each name can be at all (``ANY``, or
    None-or-truthy for a name typed by a class that is always truthy)."""
    writes = data.get("early_writes", ()) if raised else data.get("writes", ())
    mutates = data.get("mutates", ())
    if not writes and not mutates:
        return state
    out = list(state)
    for n in mutates:
        i = index.get(n)
        if i is not None and out[i] != NONE:
            out[i] |= (FALSY | TRUTHY) & (full[i] if full is not None else ANY)
    for n in writes:
        i = index.get(n)
        if i is not None:
            out[i] = full[i] if full is not None else ANY
    if literals and not raised:
        for n, mask in data.get("literals", ()):
            i = index.get(n)
            if i is not None:
                out[i] = (mask & out[i]) or out[i]  # (a typed name given a falsy literal: as written)
    return tuple(out)


def _assume(facts, state: State, index: Dict[str, int]) -> Optional[State]:
    """The state on a branch that tells ``facts``; None if it contradicts ``state``."""
    out = list(state)
    for f in facts:
        i = index.get(f.name)
        if i is None:
            continue
        mask = out[i] & _FACT_MASK[(f.kind, f.value)]
        if not mask:
            return None
        if f.value or not f.name.startswith("<"):
            # (a re-raised exception's type, ``cfg._typed_raise``: "not of that type"
            # only drops the walk that said it was, and tells nothing on: the
            # other failures passing the clause stay one state)
            out[i] = mask
    return tuple(out)


def prune_correlated(g: nx.DiGraph, bound: int = BOUND, floor: int = FLOOR) -> nx.DiGraph:
    """``g`` without the walks that contradict their own tests (see the module
    docstring); ``g`` itself when nothing is tracked, nothing is pruned, or the
    product would exceed ``bound`` times its nodes and ``floor``."""
    pruned = prune_within(g, min(max(bound * g.number_of_nodes(), floor), MAX_PRODUCT))
    return g if pruned is None else pruned


def prune_flag(g: nx.DiGraph, flags: Dict[str, bool]) -> Optional[nx.DiGraph]:
    """``g``'s walks with each parameter of ``flags`` known to be its value at the
    entry (a call's flag arguments, ``commit=False``: ``effects._flag_gates``), bounded
    as ``prune_correlated`` is; None when the product would be too large."""
    limit = min(max(BOUND * g.number_of_nodes(), FLOOR), MAX_PRODUCT)
    return prune_within(g, limit, seed={name: TRUTHY if value else FALSY for name, value in flags.items()})


def prune_within(g: nx.DiGraph, limit: int, literals: bool = False,
                 seed: Optional[Dict[str, int]] = None) -> Optional[nx.DiGraph]:
    """``prune_correlated`` with the product's nodes capped at ``limit``: None when
    the product would exceed it (``g`` is then neither pruned nor changed).

    ``literals``: a binding to a literal also tells what the name is (``x = []``:
    falsy), and names tested once that are so bound are tracked too. This is beyond
    the contract (an assignment tells nothing there), so it only ever picks a
    finding's witness among walks the contract already allows
    (``runner.check_function``); it never decides a finding.

    ``seed``: what some names are worth at the entry (a parameter a call binds to
    ``False``: ``FALSY``), tracked whether tested twice or once (``effects._flag_gates``)."""
    names = tracked_names(g, literals)
    if seed:
        names = names + [n for n in seed if n not in names]
    if not names:
        return g
    index = {n: i for i, n in enumerate(names)}
    singles = (ENTRY, EXIT, RAISE)
    nodes = g.nodes
    # a name typed by a project class with no `__bool__`/`__len__` (`job: Job | None`)
    # is None or truthy, never falsy (`effects.check_graph` marks them)
    truthy = set(g.graph.get("truthy", ()))
    start: State = tuple(NONE | TRUTHY if n in truthy else ANY for n in names)
    full = start
    if seed:
        start = tuple((seed[n] & m) or m if n in seed else m for n, m in zip(names, start))

    ids: Dict[tuple, object] = {}  # (node, state, region copies) -> product id
    used = set()
    next_id = max((n for n in g if isinstance(n, int)), default=0) + 1
    region_ids: Dict[tuple, int] = {}  # (region, entry product key) -> region copy id
    used_regions = set()
    next_region = max(g.graph["handlers"], default=0) + 1
    copies: List[Tuple[object, object, Tuple[int, ...]]] = []  # (id, original, ctx)
    region_copies: List[Tuple[int, int, object]] = []  # (copy id, original, entry id)
    dropped = False

    def product_id(key: tuple) -> object:
        nonlocal next_id
        v = key[0]
        if v in singles:
            return v
        if key not in ids:
            if v not in used:
                used.add(v)
                ids[key] = v
            else:
                ids[key] = next_id
                next_id += 1
        return ids[key]

    p: nx.DiGraph = nx.DiGraph()
    p.graph.update(g.graph)
    for n in singles:
        p.add_node(n, **nodes[n])
    first: Tuple[object, State, Tuple[int, ...]] = (ENTRY, start, ())  # (node, state, region copies)
    product_id(first)
    queue = deque([first])
    seen = {first}
    edges: List[Tuple[object, object, dict]] = []  # the product's, in the order found
    while queue:
        key = queue.popleft()
        u, state, rcopies = key
        uid = product_id(key)
        if u in (EXIT, RAISE):
            continue
        udata = nodes[u]
        uctx = udata.get("ctx", ())
        after = _after(udata, state, index, full=full, literals=literals)
        raised = _after(udata, state, index, raised=True, full=full) if "writes" in udata else after
        # a `for` binds its target only when it fetches an item (its TRUE edge): the
        # way out of a loop that ran no round leaves the name as it was
        exhausted = raised if udata.get("loop") is not None else after
        assume = udata.get("assume")
        forgets = udata.get("forgets")  # (an ``except`` clause entered: ``cfg._typed_raise``)
        for v, edata in g.succ[u].items():
            s2 = raised if edata["kind"] == EdgeKind.EXCEPTION else exhausted if edata["kind"] == EdgeKind.FALSE else after
            if assume and not edata.get("exception"):
                facts = assume.get(edata["outcome"] if "outcome" in edata else edata["kind"])
                if facts:
                    assumed = _assume(facts, after, index)
                    if assumed is None:
                        dropped = True
                        continue
                    s2 = assumed
            if forgets and edata["kind"] != EdgeKind.EXCEPTION:
                s2 = tuple(ANY if n in forgets else s2[i] for i, n in enumerate(names))
            vctx = nodes[v].get("ctx", ())
            vcopies: List[int] = []
            for r in vctx:
                if r in uctx:
                    vcopies.append(rcopies[uctx.index(r)])
                    continue
                rkey = (r, v, s2, tuple(vcopies))
                if rkey not in region_ids:
                    if r not in used_regions:
                        used_regions.add(r)
                        region_ids[rkey] = r
                    else:
                        region_ids[rkey] = next_region
                        next_region += 1
                    region_copies.append((region_ids[rkey], r, None))
                vcopies.append(region_ids[rkey])
            vkey = (v, s2 if v not in singles else (), tuple(vcopies) if v not in singles else ())
            if vkey not in seen:
                seen.add(vkey)
                if len(seen) > limit:
                    return None
                queue.append(vkey)
                vid = product_id(vkey)
                if v not in singles:
                    copies.append((vid, v, tuple(vcopies)))
            edges.append((uid, product_id(vkey), edata))
    if not dropped:
        return g  # every walk is feasible: keep the graph (and its ids) as built
    # (the product's edges are added only now: most functions with tracked names
    # have no infeasible walk, and their product is thrown away)
    p.add_edges_from((u, v, dict(d)) for u, v, d in edges)
    for vid, v, ctx in copies:
        data = dict(nodes[v])
        data["ctx"] = ctx
        if "region" in data and ctx:
            data["region"] = ctx[-1]
        p.add_node(vid, **data)
    regions = g.graph["handlers"]
    handlers = {}
    entry_of = {}
    for (r, v, s2, outer), rid in region_ids.items():
        entry_of[rid] = ids.get((v, s2, outer + (rid,)))
    for rid, r, _ in region_copies:
        entry = entry_of.get(rid)
        if entry is not None:
            handlers[rid] = dataclasses.replace(regions[r], id=rid, entry=entry)
    p.graph["handlers"] = handlers
    p.graph["pruned"] = True
    return p
