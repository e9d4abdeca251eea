"""Handlers on a function's graph, shared by the kinds that ask whether a failure is
swallowed: which handlers an exception runs into, which of them catch it, and whether
a way out of a handler is silent (semantics §Contracts)."""
from __future__ import annotations

from collections import deque
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, AbstractSet, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from .. import lazy
from ..kinds import HANDS_ON, MANAGER_HANDS_ON, NO_RETURN, EdgeKind, EventClass, NodeKind, RegionKind
from .paths import Classes, exception_successors, shortest

if TYPE_CHECKING:
    import networkx as nx

    from .. import cfg
    from ..cfg import HandlerRegion
else:
    cfg = lazy.module("ordercheck.cfg", globals(), "cfg")
    nx = lazy.module("networkx", globals(), "nx")


def handler_catches(region: HandlerRegion, swallow_types: Sequence[str]) -> bool:
    if region.kind == RegionKind.FINALLY or region.broad or region.bare or region.suppress_all:
        return True
    return any(fnmatchcase(t, pat) for t in region.types for pat in swallow_types)


def surface_nodes(classes: Classes) -> Set[object]:
    """The nodes that report (a ``surface`` event), and the exits of ``with``s whose
    project manager hands the swallowed exception on (``kinds.MANAGER_HANDS_ON``)."""
    return {n for n, c in classes.items() if EventClass.SURFACE in c or MANAGER_HANDS_ON in c}


def handing_on(g: nx.DiGraph, classes: Classes) -> Dict[object, Tuple[int, ...]]:
    """Nodes that hand a caught exception on (semantics §Contracts) -> the lines of the ``except``
    clauses whose exception they hand on: statements that return, yield or assign it,
    and calls that receive it unless they are ``quiet`` (by pattern, or a project
    helper whose only effects are quiet)."""
    out: Dict[object, Tuple[int, ...]] = {}
    regions = g.graph.get("handlers", {})
    for n, d in g.nodes(data=True):
        if d.get("hands_on"):
            out[n] = d["hands_on"]
        call = d.get("call")
        if call is not None and call.hands_on and not is_quiet(classes.get(n)):
            out[n] = call.hands_on
        if HANDS_ON in classes.get(n, ()):
            # a helper that hands on the exception its caller is handling: the
            # innermost `except` clause this call stands in (``kinds.HANDS_ON``)
            running = [regions[r].span.line for r in d.get("ctx", ())
                       if r in regions and regions[r].kind == RegionKind.EXCEPT and regions[r].span is not None]
            if running:
                out[n] = tuple(sorted(set(out.get(n, ())) | {running[-1]}))
    return out


def is_quiet(cls: Optional[FrozenSet[str]]) -> bool:
    return bool(cls and cls <= QUIET)


QUIET = frozenset({EventClass.QUIET})


def loud_nodes(region: HandlerRegion, surfaces: Set[object], handed: Dict[object, Tuple[int, ...]]) -> Set[object]:
    """The nodes that make a way out of ``region`` loud: surface events, and the nodes
    that hand its own exception on (an ``except`` clause's, by its line)."""
    if region.kind != RegionKind.EXCEPT or region.span is None or not handed:
        return surfaces
    line = region.span.line
    mine = {n for n, lines in handed.items() if line in lines}
    return surfaces | mine if mine else surfaces


def no_return_nodes(classes: Classes) -> Set[object]:
    """Calls of project helpers that never return (the ``no-return`` mark of their
    summary): a way out of a handler does not go on past them normally."""
    return {n for n, c in classes.items() if NO_RETURN in c}


def silent_exit(g: nx.DiGraph, region: HandlerRegion, surfaces: Set[object],
                dead_ends: AbstractSet[object] = frozenset(),
                narrow: AbstractSet[object] = frozenset()) -> Optional[List[object]]:
    """A path through the handler that leaves it normally without a surface event
    taking effect, as a node list ending outside the region; None if every way out
    raises or surfaces. (A surface that raised surfaced nothing: from a surface node
    only its exceptional edges are walked; so from a ``dead_ends`` node, a helper
    that never returns.) ``surfaces`` holds every loud node (``loud_nodes``:
    surfaces and the nodes that hand the exception on).

    ``narrow``: the entries of ``except`` clauses and suppressing ``with``s that catch
    narrowly (not bare, not broad, no ``swallow-types``: ``narrow_entries``). A loud
    call's failure that such a clause catches
    is handled on purpose (`try: record_failure(run, err)` / `except AlreadyFinal:
    pass`): the walk does not enter that clause's body from there, only the clauses
    after it (docs/decisions.md "A surface that raised surfaced nothing")."""
    rid = region.id

    def inside(n: object) -> bool:
        return rid in g.nodes[n].get("ctx", ())

    start = (region.entry, False)
    # (node, reached by a loud node's failure) -> its predecessor (None: the entry)
    tree: Dict[Tuple[object, bool], Optional[Tuple[object, bool]]] = {start: None}
    queue = deque([start])
    while queue:
        key = queue.popleft()
        u, failed = key
        for v in g.successors(u):
            kind = g.edges[u, v]["kind"]
            if (u in surfaces or u in dead_ends) and kind != EdgeKind.EXCEPTION:
                continue  # a surface that took effect makes this way loud; a helper that never returns, no way
            if failed and u in narrow and kind != EdgeKind.EXCEPTION:
                continue  # the loud call's failure, caught on purpose: not a silent way out
            if not inside(v):
                if kind != EdgeKind.EXCEPTION and not g.edges[u, v].get("exception"):
                    out = [v]
                    at: Optional[Tuple[object, bool]] = key
                    while at is not None:
                        out.append(at[0])
                        at = tree[at]
                    return out[::-1]
                continue
            # (the loud call's failure goes on along exceptional edges: through a clause
            # that does not match, a `with` exit, until a clause or `suppress` catches it)
            vkey = (v, kind == EdgeKind.EXCEPTION and (u in surfaces or failed))
            if vkey in tree:
                continue
            tree[vkey] = key
            queue.append(vkey)
    return None


def narrow_entries(g: nx.DiGraph, swallow_types: Sequence[str]) -> Set[object]:
    """The entries of the ``except`` clauses and suppressing ``with``s that catch
    narrowly (``silent_exit``'s ``narrow``)."""
    return {r.entry for r in g.graph["handlers"].values()
            if r.kind in (RegionKind.EXCEPT, RegionKind.WITH) and not handler_catches(r, swallow_types)}


def reraise_points(g: nx.DiGraph) -> Dict[int, List[object]]:
    """Region id of each ``finally`` exception copy -> its re-raise points."""
    out: Dict[int, List[object]] = {}
    for n, d in g.nodes(data=True):
        if d.get("kind") == NodeKind.RERAISE and d.get("ctx"):
            out.setdefault(d["ctx"][-1], []).append(n)
    return out


def quiet_raises(g: nx.DiGraph, region: HandlerRegion, surfaces: Set[object]) -> List[Tuple[List[object], object]]:
    """Exceptional edges out of a handler reached without a surface event taking
    effect: the failure goes on unreported (``except Exception: raise``), so an outer
    handler that swallows it swallows it silently. Each as (the path from the
    handler's entry to the edge's source, entry left out; the edge's target): a
    witness through the clause's body is a path, as ``--graph`` draws it."""
    rid = region.id
    parent: Dict[object, object] = {region.entry: None}
    queue = deque([region.entry])
    out: List[Tuple[List[object], object]] = []
    while queue:
        u = queue.popleft()
        if u in surfaces:
            continue  # reported: what follows is not a quiet re-raise
        for v in g.successors(u):
            kind = g.edges[u, v]["kind"]
            if rid not in g.nodes[v].get("ctx", ()):
                if kind == EdgeKind.EXCEPTION and u != region.entry:
                    path = [u]
                    while parent[path[-1]] is not None and parent[path[-1]] != region.entry:
                        path.append(parent[path[-1]])
                    out.append((path[::-1], v))
                continue
            if v not in parent:
                parent[v] = u
                queue.append(v)
    # a `raise` statement's way out first: the failure handed on, not a new one raised
    # on the way to it (`range(3)` before a bare `raise`; a review)
    out.sort(key=lambda item: not g.nodes[item[0][-1]].get("raise_stmt"))
    return out


def catchers(g: nx.DiGraph, event: object, regions: Dict[object, HandlerRegion],
             reraise: Dict[int, List[object]],
             onward: Callable[[HandlerRegion], List[Tuple[List[object], object]]]) -> Iterable[Tuple[HandlerRegion, List[object]]]:
    """The handlers an exception raised by ``event`` runs into, in order, following
    unmatched clauses, re-raising ``finally`` copies, and handlers that re-raise
    without a word (``onward``) outward."""
    seen = set()
    queue = deque((v, [event, v]) for v in exception_successors(g, event))
    while queue:
        v, trail = queue.popleft()
        if v in seen or v in (cfg.RAISE, cfg.EXIT):
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
        if region.kind == RegionKind.FINALLY:
            # the copy re-raises at its end: continue from its re-raise points (the
            # copy's body listed on the way, as for a clause's: a review)
            for r in reraise.get(region.id, ()):
                inside = _within(g, v, r)
                for w in exception_successors(g, r):
                    queue.append((w, trail + inside + [w]))
        else:
            for w in exception_successors(g, v):
                queue.append((w, trail + [w]))
        if region.kind == RegionKind.EXCEPT:
            # after the way past an unmatched clause: the failure itself going on is the
            # shorter witness than a new one raised in the clause's body (held-out set 58)
            for inside, w in onward(region):
                queue.append((w, trail + inside + [w]))


def _within(g: nx.DiGraph, entry: object, r: object) -> List[object]:
    """The nodes from a ``finally`` copy's entry to its re-raise point ``r`` (the
    entry left out)."""
    if entry == r:
        return []
    path = shortest(g, entry, r)
    return path[1:] if path[-1] == r else [r]
