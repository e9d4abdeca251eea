"""Stage 4 — ordering contracts evaluated as path properties (semantics §Contracts).

Every contract is answered by reachability over the function's graph — a
multi-source BFS, ``nx.descendants``/``nx.ancestors`` on an edge-filtered view — never
by enumerating paths, so the cost stays linear in the size of the graph.

The one subtlety is semantics §Graph's last bullet: an exceptional edge leaves an event
*before* it takes effect. A path "passes" a blocking event (a barrier, an
``unless-after`` save, a surface) only if it leaves that event by a non-exceptional
edge; so blocking a node removes its normal out-edges and keeps its exceptional ones.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import (
    Callable,
    Dict,
    FrozenSet,
    Iterable,
    List,
    Optional,
    Sequence,
    Set,
    Tuple,
)

import networkx as nx

from .cfg import ENTRY, EXIT, RAISE, HandlerRegion
from .rulebook import ClassExpr, Rule, expr_matches

Classes = Dict[object, FrozenSet[str]]


@dataclass(frozen=True)
class Gap:
    """Stands in a witness path for ``count`` nodes left out: a witness is one
    shortest path, which in a huge function can be as long as the function; printing
    it whole for each of thousands of findings is quadratic (docs/decisions.md,
    "Long witnesses")."""

    count: int


#: a witness segment (entry to the first event, first event to anchor, anchor to the
#: exit) longer than this many nodes keeps only its ends
MAX_SEGMENT = 200
#: nodes kept next to the event a long segment leads to (or leaves from)
KEEP = 24


class Reach(set):
    """The nodes reachable from ENTRY, with the BFS tree that found them (parent and
    depth of each node), so a long path from ENTRY is cut without walking it."""

    def __init__(self, g: nx.DiGraph) -> None:
        parents: Dict[object, object] = {ENTRY: None}
        depth: Dict[object, int] = {ENTRY: 0}
        queue = deque([ENTRY])
        while queue:
            u = queue.popleft()
            d = depth[u] + 1
            for v in g.successors(u):
                if v not in depth:
                    depth[v] = d
                    parents[v] = u
                    queue.append(v)
        super().__init__(depth)
        self.parents = parents
        self.depth = depth


@dataclass
class Hit:
    """A contract violation before it is dressed as a ``Finding``."""

    rule: Rule
    anchor: object  # the node the finding is anchored at
    path: List[object]  # one shortest witness path (graph nodes, ENTRY first)
    first: Optional[object] = None  # the earlier event (sequence, at-most-once)
    handler: Optional[HandlerRegion] = None
    key: object = None  # dedupe key: the anchored call site / handler


# --------------------------------------------------------------------------- helpers


def normal_successors(g: nx.DiGraph, n: object) -> List[object]:
    return [v for v in g.successors(n) if g.edges[n, v]["kind"] != "exception"]


def exception_successors(g: nx.DiGraph, n: object) -> List[object]:
    return [v for v in g.successors(n) if g.edges[n, v]["kind"] == "exception" or g.edges[n, v].get("exception")]


def blocking_view(g: nx.DiGraph, blocked: Set[object]) -> nx.DiGraph:
    """``g`` where a blocked event only leaves by its exceptional edges."""

    def keep(u: object, v: object) -> bool:
        return u not in blocked or g.edges[u, v]["kind"] == "exception"

    return nx.subgraph_view(g, filter_edge=keep)


def path_to(parents: Dict[object, object], node: object) -> List[object]:
    """The path from the BFS root to ``node`` in a predecessor map."""
    out = []
    while node is not None:
        out.append(node)
        node = parents.get(node)
    return out[::-1]


Labels = Dict[object, Dict[object, Tuple[object, object, int]]]


def two_origin_bfs(g: nx.DiGraph, view: nx.DiGraph, origins: Iterable[object]) -> Labels:
    """BFS from the normal successors of each origin event that carries up to two
    distinct origin call sites per node — linear, and enough to answer "does some
    *other* call site reach this node". ``labels[n][site] = (parent, origin event,
    depth)``; parent is None (and depth 1) at a successor of the origin."""
    labels: Labels = {}
    queue: deque = deque()
    for e in sorted(origins, key=_order):
        origin = site(g, e)
        for s in normal_successors(g, e):
            lab = labels.setdefault(s, {})
            if origin not in lab and len(lab) < 2:
                lab[origin] = (None, e, 1)
                queue.append((s, origin))
    while queue:
        u, origin = queue.popleft()
        for v in view.successors(u):
            lab = labels.setdefault(v, {})
            if origin not in lab and len(lab) < 2:
                _, src, depth = labels[u][origin]
                lab[origin] = (u, src, depth + 1)
                queue.append((v, origin))
    return labels


def other_origin_path(labels: Labels, node: object, mine: object) -> Optional[Tuple[object, List[object]]]:
    """(origin event, path from it to ``node``) for an origin site other than
    ``mine``, or None. Past ``MAX_SEGMENT`` nodes the path is the origin, a ``Gap``
    and the last ``KEEP`` nodes."""
    for origin in labels.get(node, {}):
        if origin == mine:
            continue
        parent, src, depth = labels[node][origin]
        if depth > MAX_SEGMENT:
            chain = [node]
            while len(chain) < KEEP:
                chain.append(labels[chain[-1]][origin][0])
            return src, [src, Gap(depth - KEEP)] + chain[::-1]
        chain = [node]
        cur = node
        while True:
            parent, src, _ = labels[cur][origin]
            if parent is None:
                return src, [src] + chain[::-1]
            chain.append(parent)
            cur = parent
    return None


def site(g: nx.DiGraph, n: object) -> object:
    """A node's call site: ``finally`` copies repeat one site on several nodes; a
    ``with`` exit is its manager call's site (entry and exits are one call)."""
    call = g.nodes[n].get("call") or g.nodes[n].get("manager")
    return ("call", call.id) if call is not None else ("node", n)


def _shortest(view: nx.DiGraph, a: object, b: object) -> List[object]:
    try:
        return nx.shortest_path(view, a, b)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return [a]


def _head(g: nx.DiGraph, reach: Set[object], node: object) -> List[object]:
    """A shortest path from ENTRY to ``node``; past ``MAX_SEGMENT`` nodes, ENTRY, a
    ``Gap`` and the last ``KEEP`` nodes of one (read off the BFS tree, not walked)."""
    depth = getattr(reach, "depth", None)
    if depth is None or depth.get(node, 0) <= MAX_SEGMENT:
        return _shortest(g, ENTRY, node)
    tail = [node]
    while len(tail) < KEEP:
        tail.append(getattr(reach, "parents")[tail[-1]])
    return [ENTRY, Gap(depth[node] + 1 - KEEP - 1)] + tail[::-1]


def _to_exit(g: nx.DiGraph, view: nx.DiGraph, start: object, hops: Dict[object, Tuple[object, int]]) -> List[object]:
    """A shortest path from ``start`` to EXIT in ``view``; past ``MAX_SEGMENT``
    nodes, its first ``KEEP`` nodes, a ``Gap`` and EXIT. ``hops``: next node and
    distance to EXIT of every node that reaches it (``to_exit_hops``)."""
    if hops[start][1] <= MAX_SEGMENT:
        return _shortest(view, start, EXIT)
    out = [start]
    while len(out) < KEEP:
        out.append(hops[out[-1]][0])
    return out + [Gap(hops[start][1] + 1 - KEEP - 1), EXIT]


def to_exit_hops(view: nx.DiGraph) -> Dict[object, Tuple[object, int]]:
    """Backward BFS from EXIT: for each node that reaches it, (next node, distance)."""
    hops: Dict[object, Tuple[object, int]] = {EXIT: (None, 0)}
    queue = deque([EXIT])
    while queue:
        v = queue.popleft()
        d = hops[v][1] + 1
        for u in view.predecessors(v):
            if u not in hops:
                hops[u] = (v, d)
                queue.append(u)
    return hops


def _join(*parts: List[object]) -> List[object]:
    out: List[object] = []
    for part in parts:
        for n in part:
            if not out or out[-1] != n:
                out.append(n)
    return out


# --------------------------------------------------------------------------- kinds


def _matching(classes: Classes, expr: ClassExpr, nodes: Iterable[object]) -> Set[object]:
    return {n for n in nodes if n in classes and expr_matches(expr, classes[n])}


def check_sequence(g: nx.DiGraph, classes: Classes, rule: Rule, reachable: Set[object]) -> List[Hit]:
    barrier = _matching(classes, rule.barrier, classes) if rule.barrier else set()
    unless = _matching(classes, rule.unless_after, classes) if rule.unless_after else set()
    firsts = _matching(classes, rule.first, reachable) - barrier
    thens = _matching(classes, rule.then, classes) - barrier - unless
    if not firsts or not thens:
        return []
    # a node never pairs with itself: the order inside a call is the callee's
    # business, even when a loop brings the same call round again
    labels = two_origin_bfs(g, blocking_view(g, barrier), firsts)
    found = []
    for t in sorted(thens, key=_order):
        pair = other_origin_path(labels, t, site(g, t))
        if pair is not None:
            found.append((t, pair))
    if not found:
        return []
    if rule.unless_after:
        view_u = blocking_view(g, unless)
        hops = to_exit_hops(view_u)  # (its keys: the nodes with a clean way out)
    hits = []
    for t, (first, middle) in found:
        tail: List[object] = []
        if rule.unless_after:
            nxt = [s for s in normal_successors(g, t) if s in hops]
            if not nxt:
                continue
            tail = _to_exit(g, view_u, nxt[0], hops)
        head = _head(g, reachable, first)
        hits.append(Hit(rule, t, _join(head, middle, tail), first=first, key=site(g, t)))
    return hits


def check_requires_before(g: nx.DiGraph, classes: Classes, rule: Rule, reachable: Set[object]) -> List[Hit]:
    firsts = _matching(classes, rule.first, classes)
    thens = _matching(classes, rule.then, reachable) - firsts
    if not thens:
        return []
    tree = Reach(blocking_view(g, firsts))
    return [
        Hit(rule, t, _head(g, tree, t) if tree.depth[t] > MAX_SEGMENT else path_to(tree.parents, t), key=site(g, t))
        for t in sorted(thens, key=_order)
        if t in tree.parents and t != ENTRY
    ]


def check_at_most_once(g: nx.DiGraph, classes: Classes, rule: Rule, reachable: Set[object]) -> List[Hit]:
    barrier = _matching(classes, rule.barrier, classes) if rule.barrier else set()
    events = _matching(classes, rule.event, reachable) - barrier
    if len({site(g, e) for e in events}) < 2:
        return []
    labels = two_origin_bfs(g, blocking_view(g, barrier), events)
    hits = []
    for e in sorted(events, key=_order):
        pair = other_origin_path(labels, e, site(g, e))
        if pair is not None:
            first, middle = pair
            hits.append(Hit(rule, e, _join(_head(g, reachable, first), middle), first=first, key=site(g, e)))
    return hits


def handler_catches(region: HandlerRegion, swallow_types: Sequence[str]) -> bool:
    if region.kind == "finally" or region.broad or region.bare or region.suppress_all:
        return True
    return any(fnmatchcase(t, pat) for t in region.types for pat in swallow_types)


def handing_on(g: nx.DiGraph, classes: Classes) -> Dict[object, Tuple[int, ...]]:
    """Nodes that hand a caught exception on (semantics §Contracts) -> the lines of the ``except``
    clauses whose exception they hand on: statements that return, yield or assign it,
    and calls that receive it unless they are ``quiet`` (by pattern, or a project
    helper whose only effects are quiet)."""
    out: Dict[object, Tuple[int, ...]] = {}
    for n, d in g.nodes(data=True):
        if d.get("hands_on"):
            out[n] = d["hands_on"]
        call = d.get("call")
        if call is not None and call.hands_on and not is_quiet(classes.get(n)):
            out[n] = call.hands_on
    return out


def is_quiet(cls: Optional[FrozenSet[str]]) -> bool:
    return bool(cls and cls <= QUIET)


QUIET = frozenset({"quiet"})


def loud_nodes(region: HandlerRegion, surfaces: Set[object], handed: Dict[object, Tuple[int, ...]]) -> Set[object]:
    """The nodes that make a way out of ``region`` loud: surface events, and the nodes
    that hand its own exception on (an ``except`` clause's, by its line)."""
    if region.kind != "except" or region.span is None or not handed:
        return surfaces
    line = region.span.line
    mine = {n for n, lines in handed.items() if line in lines}
    return surfaces | mine if mine else surfaces


def silent_exit(g: nx.DiGraph, region: HandlerRegion, surfaces: Set[object]) -> Optional[List[object]]:
    """A path through the handler that leaves it normally without a surface event
    taking effect, as a node list ending outside the region; None if every way out
    raises or surfaces. (A surface that raised surfaced nothing: from a surface node
    only its exceptional edges are walked.) ``surfaces`` holds every loud node
    (``loud_nodes``: surfaces and the nodes that hand the exception on)."""
    rid = region.id

    def inside(n: object) -> bool:
        return rid in g.nodes[n].get("ctx", ())

    tree: Dict[object, object] = {region.entry: None}  # node -> its predecessor (None: the entry)
    queue = deque([region.entry])
    while queue:
        u = queue.popleft()
        for v in g.successors(u):
            kind = g.edges[u, v]["kind"]
            if u in surfaces and kind != "exception":
                continue  # a surface that took effect makes this way loud
            if not inside(v):
                if kind != "exception":
                    out = [v]
                    while u is not None:
                        out.append(u)
                        u = tree[u]
                    return out[::-1]
                continue
            if v in tree:
                continue
            tree[v] = u
            queue.append(v)
    return None


def _reraise_points(g: nx.DiGraph) -> Dict[int, List[object]]:
    """Region id of each ``finally`` exception copy -> its re-raise points."""
    out: Dict[int, List[object]] = {}
    for n, d in g.nodes(data=True):
        if d.get("kind") == "reraise" and d.get("ctx"):
            out.setdefault(d["ctx"][-1], []).append(n)
    return out


def quiet_raises(g: nx.DiGraph, region: HandlerRegion, surfaces: Set[object]) -> List[Tuple[object, object]]:
    """Exceptional edges out of a handler reached without a surface event taking
    effect: the failure goes on unreported (``except Exception: raise``), so an outer
    handler that swallows it swallows it silently."""
    rid = region.id
    seen = {region.entry}
    queue = deque([region.entry])
    out: List[Tuple[object, object]] = []
    while queue:
        u = queue.popleft()
        if u in surfaces:
            continue  # reported: what follows is not a quiet re-raise
        for v in g.successors(u):
            kind = g.edges[u, v]["kind"]
            if rid not in g.nodes[v].get("ctx", ()):
                if kind == "exception" and u != region.entry:
                    out.append((u, v))
                continue
            if v not in seen:
                seen.add(v)
                queue.append(v)
    return out


def _catchers(g: nx.DiGraph, event: object, regions: Dict[object, HandlerRegion],
              reraise: Dict[int, List[object]],
              onward: Callable[[HandlerRegion], List[Tuple[object, object]]]) -> Iterable[Tuple[HandlerRegion, List[object]]]:
    """The handlers an exception raised by ``event`` runs into, in order, following
    unmatched clauses, re-raising ``finally`` copies, and handlers that re-raise
    without a word (``onward``) outward."""
    seen = set()
    queue = deque((v, [event, v]) for v in exception_successors(g, event))
    while queue:
        v, trail = queue.popleft()
        if v in seen or v in (RAISE, EXIT):
            continue
        seen.add(v)
        region = regions.get(v)
        if region is None:
            # a transparent point on the way out (a non-suppressing ``with`` exit):
            # the exception keeps going
            for w in exception_successors(g, v):
                queue.append((w, trail + [w]))
            continue
        yield region, trail
        if region.kind == "except":
            for u, w in onward(region):
                queue.append((w, trail + [u, w]))
        if region.kind == "finally":
            # the copy re-raises at its end: continue from its re-raise points
            for r in reraise.get(region.id, ()):
                for w in exception_successors(g, r):
                    queue.append((w, trail + [r, w]))
        else:
            for w in exception_successors(g, v):
                queue.append((w, trail + [w]))


def check_swallowed(g: nx.DiGraph, classes: Classes, rule: Rule, reachable: Set[object], swallow_types: Sequence[str],
                    raises: Optional[Classes] = None) -> List[Hit]:
    # ``raises``: the classes whose failure each node can raise (semantics §Events escaping
    # failures); by default what it performs
    events = _matching(classes if raises is None else raises, rule.event, reachable)
    if not events:
        return []
    regions = {r.entry: r for r in g.graph["handlers"].values()}
    surfaces = {n for n, c in classes.items() if "surface" in c}
    handed = handing_on(g, classes)
    reraise = _reraise_points(g)
    exits: Dict[int, Optional[List[object]]] = {}  # each handler's silent way out, once
    onward_cache: Dict[int, List[Tuple[object, object]]] = {}

    def onward(region: HandlerRegion) -> List[Tuple[object, object]]:
        if region.id not in onward_cache:
            onward_cache[region.id] = quiet_raises(g, region, loud_nodes(region, surfaces, handed))
        return onward_cache[region.id]

    hits = []
    for e in sorted(events, key=_order):
        for region, trail in _catchers(g, e, regions, reraise, onward):
            if not handler_catches(region, swallow_types):
                continue
            if region.id not in exits:
                exits[region.id] = silent_exit(g, region, loud_nodes(region, surfaces, handed))
            leave = exits[region.id]
            if leave is None:
                continue
            head = _head(g, reachable, e)
            hits.append(Hit(rule, e, _join(head, trail, leave), handler=region, key=site(g, e)))
            break
    return hits


def check_silent_handler(g: nx.DiGraph, classes: Classes, rule: Rule, reachable: Set[object]) -> List[Hit]:
    surfaces = {n for n, c in classes.items() if "surface" in c}
    handed = handing_on(g, classes)
    hits = []
    for region in sorted(g.graph["handlers"].values(), key=lambda r: r.id):
        if region.kind != "except" or not (region.broad or region.bare):
            continue
        if region.entry not in reachable:
            continue
        leave = silent_exit(g, region, loud_nodes(region, surfaces, handed))
        if leave is None:
            continue
        head = _head(g, reachable, region.entry)
        hits.append(Hit(rule, region.entry, _join(head, leave), handler=region, key=("handler", region.entry)))
    return hits


def _order(n: object) -> Tuple[int, str]:
    return (n, "") if isinstance(n, int) else (-1, str(n))


def evaluate(
    g: nx.DiGraph,
    classes: Classes,
    rules: Iterable[Rule],
    swallow_types: Sequence[str] = (),
    raises: Optional[Classes] = None,
    ordered: Optional[Classes] = None,
) -> List[Hit]:
    """Every hit of every rule on one graph, one per (rule, anchor site).
    ``ordered``: the classes the ordering kinds read where they differ from
    ``classes`` (a transaction's body commits at its exit: semantics §Events Transactions)."""
    reachable = Reach(g)
    seq = classes if ordered is None else ordered
    out: List[Hit] = []
    for rule in rules:
        if rule.kind == "sequence":
            hits = check_sequence(g, seq, rule, reachable)
        elif rule.kind == "swallowed":
            hits = check_swallowed(g, classes, rule, reachable, swallow_types, raises)
        elif rule.kind == "at-most-once":
            hits = check_at_most_once(g, seq, rule, reachable)
        elif rule.kind == "requires-before":
            hits = check_requires_before(g, seq, rule, reachable)
        elif rule.kind == "silent-handler":
            hits = check_silent_handler(g, classes, rule, reachable)
        else:
            continue
        seen = set()
        for h in hits:
            if h.key not in seen:
                seen.add(h.key)
                out.append(h)
    return out
