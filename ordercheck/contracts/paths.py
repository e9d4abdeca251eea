"""Reachability on a function's graph, shared by the contract kinds: BFS trees,
edge-filtered views, witness paths cut to a bounded length.

Every contract is answered by reachability — a multi-source search (a heap ordered by
the distance from ENTRY, so that a witness is a shortest path), ``nx.descendants``/
``nx.ancestors`` on an edge-filtered view — never by enumerating paths, so the cost
stays near linear in the size of the graph (a log factor for the heap).

The one subtlety is semantics §Graph's last bullet: an exceptional edge leaves an event
*before* it takes effect. A path "passes" a blocking event (a barrier, an
``unless-after`` save, a surface) only if it leaves that event by a non-exceptional
edge; so blocking a node removes its normal out-edges and keeps its exceptional ones.

networkx and the graph module are imported on first use: the rule loader imports
this package on every run, and a warm run builds no graph.
"""
from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

from .. import lazy
from ..kinds import EdgeKind, Way

if TYPE_CHECKING:
    import networkx as nx

    from .. import cfg as cfgmod
else:
    nx = lazy.module("networkx", globals(), "nx")
    cfgmod = lazy.module("ordercheck.cfg", globals(), "cfgmod")

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
        entry = cfgmod.ENTRY
        parents: Dict[object, object] = {entry: None}
        depth: Dict[object, int] = {entry: 0}
        queue = deque([entry])
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


def normal_successors(g: nx.DiGraph, n: object) -> List[object]:
    return [v for v in g.successors(n) if g.edges[n, v]["kind"] != EdgeKind.EXCEPTION]


def exception_successors(g: nx.DiGraph, n: object) -> List[object]:
    return [v for v in g.successors(n) if g.edges[n, v]["kind"] == EdgeKind.EXCEPTION or g.edges[n, v].get("exception")]


def blocking_view(g: nx.DiGraph, blocked: Set[object]) -> nx.DiGraph:
    """``g`` where a blocked event only leaves by its exceptional edges."""

    def keep(u: object, v: object) -> bool:
        return u not in blocked or g.edges[u, v]["kind"] == EdgeKind.EXCEPTION

    return nx.subgraph_view(g, filter_edge=keep)


def path_to(parents: Dict[object, object], node: object) -> List[object]:
    """The path from the BFS root to ``node`` in a predecessor map."""
    out = []
    while node is not None:
        out.append(node)
        node = parents.get(node)
    return out[::-1]


Labels = Dict[object, Dict[object, Tuple[object, object, int]]]


def two_origin_bfs(g: nx.DiGraph, view: nx.DiGraph, origins: Iterable[object], head: Dict[object, int]) -> Labels:
    """A search from the normal successors of each origin event that carries up to two
    distinct origin call sites per node — enough to answer "does some *other* call
    site reach this node". ``labels[n][site] = (parent, origin event, depth)``; parent
    is None (and depth 1) at a successor of the origin.

    ``head``: each origin's distance from ENTRY (``Reach.depth``). A node's labels
    come in the order of the whole path ENTRY → origin → node, not of the segment
    from the origin alone, so the first label is the origin of one shortest witness
    (semantics §Contracts): a save right before a loop, not the save of the loop's
    last round that is one step nearer the append but far from ENTRY (held-out set
    52). So the origins start at their own distances, and a node takes a label when
    it comes off a heap, not when first pushed; any order keeps two origins wherever
    two reach, and each node is taken at most twice."""
    labels: Labels = {}
    heap: List[Tuple[int, int, object, object, object, object, int]] = []
    tie = 0  # (the push order breaks ties: nodes are not comparable)
    for e in sorted(origins, key=node_order):
        origin = site(g, e)
        for s in normal_successors(g, e):
            heap.append((head.get(e, 0) + 1, tie, s, origin, None, e, 1))
            tie += 1
    heapq.heapify(heap)
    while heap:
        at, _, v, origin, parent, src, depth = heapq.heappop(heap)
        lab = labels.setdefault(v, {})
        if origin in lab or len(lab) >= 2:
            continue
        lab[origin] = (parent, src, depth)
        for w in view.successors(v):
            got = labels.get(w)
            if got is None or (origin not in got and len(got) < 2):
                heapq.heappush(heap, (at + 1, tie, w, origin, v, src, depth + 1))
                tie += 1
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


class ItemLoops:
    """A loop over records handles one record per round (docs/decisions.md "A loop
    over records"): an event whose call reads the target of a ``for`` loop around it
    (``for run in runs: report_failed(run)``) concerns that round's item, so two such
    events of the same loop do not pair by going round the loop again: the earlier
    one concerned another item. Events before the loop, and events that do not read
    the loop's target, pair as usual. Only ``at-most-once`` reads it: for ``sequence``
    a round's event may well concern the previous round's item (``os.replace(
    seg.previous.tmp, ...)`` after the last round's write), so its pairs stand.

    "Going round" is taking a back edge to the loop's head (the end of the body, a
    ``continue``); entering the loop anew (an outer loop starting it again) goes over the
    same items again, and pairs. A target name that the body rebinds
    (``run = self.current``) is no item.

    ``path`` answers ``other_origin_path`` for one such event with one BFS per group of
    origins (those inside the same item loops), each in ``blocked`` and without those
    loops' back edges; the BFS labels are shared between events with the same group."""

    def __init__(self, g: nx.DiGraph, blocked: Set[object], head: Dict[object, int],
                 committed: Optional[Dict[Tuple[object, str], List[object]]] = None) -> None:
        self.g = g
        # a transaction's commit reads what the body's nodes whose classes it commits
        # read (`async with engine.begin(): await ledger.append_terminal(conn, row.id)`
        # in `for row in rows:`; held-out set 335): commit -> those nodes
        self.bodies: Dict[object, List[object]] = {}
        for (n, _), nodes in (committed or {}).items():
            self.bodies.setdefault(n, []).extend(nodes)
        self.blocked = blocked
        self.head = head  # (``two_origin_bfs``: each origin's distance from ENTRY)
        self.heads: Dict[object, Set[object]] = {}  # loop id -> its head nodes (copies included)
        self.targets: Dict[object, FrozenSet[str]] = {}
        rebound: Dict[object, Set[str]] = {}
        for n, d in g.nodes(data=True):
            k = d.get("loop")
            if k is not None:
                self.heads.setdefault(k, set()).add(n)
                self.targets[k] = frozenset(d.get("writes", ()))
            writes = d.get("writes")
            if writes and d.get("loops") and k is None:
                for loop in d["loops"]:
                    rebound.setdefault(loop, set()).update(writes)
        for k, names in rebound.items():
            if k in self.targets:
                self.targets[k] = self.targets[k] - names
        self._labels: Dict[Tuple[FrozenSet[object], FrozenSet[object]], Labels] = {}
        self._of: Dict[object, FrozenSet[object]] = {}
        # the origins of the last ``path`` call, grouped per item loops asked about:
        # every event of a rule asks with the same origins, and grouping them again for
        # each was quadratic (thousands of events: a sweep's aiohttp method took 30 s)
        self._origins: Optional[object] = None
        self._grouped: Dict[FrozenSet[object], Dict[FrozenSet[object], Tuple[List[object], FrozenSet[object]]]] = {}

    def of(self, n: object) -> FrozenSet[object]:
        """The ``for`` loops around ``n`` whose target its call reads."""
        got = self._of.get(n)
        if got is None:
            got = self._of[n] = self._loops_read(n)
        return got

    def _loops_read(self, n: object) -> FrozenSet[object]:
        if not self.heads:
            return frozenset()
        d = self.g.nodes[n]
        loops = d.get("loops")
        call = d.get("call") or d.get("manager")
        if not loops or call is None:
            return frozenset()
        reads = set(call.reads)
        for m in self.bodies.get(n, ()):  # (a commit: what its body's performers read)
            inner = self.g.nodes[m].get("call") if m in self.g else None
            if inner is not None:
                reads.update(inner.reads)
        return frozenset(k for k in loops if self.targets.get(k, frozenset()) & reads)

    def path(self, origins: Iterable[object], node: object, mine: object) -> Optional[Tuple[object, List[object]]]:
        """``other_origin_path`` for ``node`` when no origin may reach it round a loop
        whose item both read; the shortest such pair, or None."""
        around = self.of(node)
        if self._origins is not origins:
            self._origins, self._grouped = origins, {}
        grouped = self._grouped.get(around)
        if grouped is None:
            lists: Dict[FrozenSet[object], List[object]] = {}
            for o in origins:
                lists.setdefault(self.of(o) & around, []).append(o)
            grouped = self._grouped[around] = {k: (v, frozenset(v)) for k, v in lists.items()}
        groups = {k: v for k, (v, _) in grouped.items()}
        best = None
        for k in sorted(groups, key=lambda k: sorted(map(str, k))):
            key = (k, grouped[k][1])
            labels = self._labels.get(key)
            if labels is None:
                heads = {h for loop in k for h in self.heads.get(loop, ())}
                g = self.g
                if heads:  # (the origins' own first steps too: a filtered graph, not only view)

                    def no_back_edge(u: object, v: object) -> bool:
                        return v not in heads or self.g.edges[u, v]["kind"] != EdgeKind.LOOP

                    g = nx.subgraph_view(self.g, filter_edge=no_back_edge)
                labels = self._labels[key] = two_origin_bfs(g, blocking_view(g, self.blocked), groups[k], self.head)
            pair = other_origin_path(labels, node, mine)
            if pair is not None and (best is None or self._length(pair) < self._length(best)):
                best = pair
        return best

    def _length(self, pair: Tuple[object, List[object]]) -> int:
        """A witness's length: from ENTRY to the origin, then the segment to the node."""
        segment = segment_length(pair[1])  # (a cut one too: a review)
        return self.head.get(pair[0], 0) + segment


def anchor(g: nx.DiGraph, n: object) -> object:
    """Where a hit stands, for one finding per (rule, anchor) (semantics §Contracts): a
    node's call, a ``with`` exit its manager call, a class manager's exit included
    (its own pairing ``site`` differs from its entry's, not its anchor)."""
    data = g.nodes[n]
    call = data.get("call") or data.get("manager")
    return ("call", call.id) if call is not None else ("node", n)


def site(g: nx.DiGraph, n: object) -> object:
    """A node's call site: ``finally`` copies repeat one site on several nodes; a
    ``with`` exit is its manager call's site (entry and exits are one call), except a
    class manager's, whose ``__exit__`` is a call of its own (``effects.check_graph``)."""
    data = g.nodes[n]
    if "site" in data:
        return data["site"]
    call = data.get("call") or data.get("manager")
    return ("call", call.id) if call is not None else ("node", n)


def reaching(view: nx.DiGraph, node: object) -> Set[object]:
    """``node`` and every node of ``view`` with a way to it (one backward walk)."""
    return nx.ancestors(view, node) | {node}


def shortest(view: nx.DiGraph, a: object, b: object) -> List[object]:
    """A shortest path from ``a`` to ``b`` (``[a]`` when there is none): a forward
    breadth-first search in the order of each node's successors, which
    ``cfg.normal_first`` puts the normal edges first in, so of two paths of one
    length the one that fails later, or never, is taken (held-out set 59)."""
    if a == b:
        return [a]
    if a not in view:
        return [a]
    parents: Dict[object, object] = {a: None}
    queue = deque([a])
    while queue:
        u = queue.popleft()
        for v in view.successors(u):
            if v in parents:
                continue
            parents[v] = u
            if v == b:
                return path_to(parents, b)
            queue.append(v)
    return [a]


def head_path(g: nx.DiGraph, reach: Set[object], node: object) -> List[object]:
    """A shortest path from ENTRY to ``node``, read off the BFS tree of ``reach``
    (a ``Reach`` of ``g``: its order prefers normal edges on a tie, as ``shortest``
    does); past ``MAX_SEGMENT`` nodes, ENTRY, a ``Gap`` and the last ``KEEP`` nodes
    of one."""
    depth = getattr(reach, "depth", None)
    if depth is None or node not in depth:
        return shortest(g, cfgmod.ENTRY, node)
    if depth[node] <= MAX_SEGMENT:
        return path_to(getattr(reach, "parents"), node)
    tail = [node]
    while len(tail) < KEEP:
        tail.append(getattr(reach, "parents")[tail[-1]])
    return [cfgmod.ENTRY, Gap(depth[node] + 1 - KEEP - 1)] + tail[::-1]


def exit_path(g: nx.DiGraph, view: nx.DiGraph, start: object, hops: Dict[object, Tuple[object, int]]) -> List[object]:
    """A shortest path from ``start`` to EXIT in ``view``; past ``MAX_SEGMENT``
    nodes, its first ``KEEP`` nodes, a ``Gap`` and EXIT. ``hops``: next node and
    distance to EXIT of every node that reaches it (``to_exit_hops``)."""
    out = [start]
    while out[-1] != cfgmod.EXIT and (hops[start][1] <= MAX_SEGMENT or len(out) < KEEP):
        u = out[-1]
        # (the first successor one hop nearer EXIT: a normal edge before an exceptional one)
        out.append(next(v for v in view.successors(u) if v in hops and hops[v][1] == hops[u][1] - 1))
    if out[-1] == cfgmod.EXIT:
        return out
    return out + [Gap(hops[start][1] + 1 - KEEP - 1), cfgmod.EXIT]


def to_exit_hops(view: nx.DiGraph) -> Dict[object, Tuple[object, int]]:
    """Backward BFS from EXIT: for each node that reaches it, (next node, distance)."""
    exit_ = cfgmod.EXIT
    hops: Dict[object, Tuple[object, int]] = {exit_: (None, 0)}
    queue = deque([exit_])
    while queue:
        v = queue.popleft()
        d = hops[v][1] + 1
        for u in view.predecessors(v):
            if u not in hops:
                hops[u] = (v, d)
                queue.append(u)
    return hops


def segment_length(path: List[object]) -> int:
    """The nodes of a witness segment, a ``Gap``'s included."""
    return sum(step.count if isinstance(step, Gap) else 1 for step in path)


def witness_rank(g: nx.DiGraph, path: List[object], n: object) -> Tuple[int, int, Tuple[int, str]]:
    """How a hit at ``n`` with witness ``path`` ranks among the hits of one anchor's
    copies (a ``finally`` body's, a handler's, a state's of correlated tests): the
    shorter first (a ``Gap`` counts its nodes), then the one that fails on fewer
    edges, then the first in node order (semantics §Contracts "one shortest path";
    docs/decisions.md "Of an anchor's copies, the shortest witness")."""
    length = segment_length(path)
    failing = sum(1 for u, v in zip(path, path[1:])
                  if not isinstance(u, Gap) and not isinstance(v, Gap) and g.has_edge(u, v)
                  and (g.edges[u, v]["kind"] == EdgeKind.EXCEPTION or g.edges[u, v].get("exception")))
    return length, failing, node_order(n)


def join(*parts: List[object]) -> List[object]:
    """Witness segments joined, each junction node once."""
    out: List[object] = []
    for part in parts:
        for n in part:
            if not out or out[-1] != n:
                out.append(n)
    return out


def copy_order(g: nx.DiGraph, n: object) -> Tuple[int, Tuple[int, str]]:
    """How an anchor's copies of one witness length rank: a copy that only a failure in
    flight reaches (a ``with`` exit or a ``finally`` copy on its raising way) after the
    others, then node order. Telling which witness fails on fewer edges needs each
    built (``witness_rank``); this much the copy itself says (held-out set 83: dotenv's
    `rewrite()` rename showed the loop raising and the manager's exit renaming, a way
    its `raise error` never lets the rename run, where the normal way was as short)."""
    return (1 if g.nodes[n].get("way") == Way.RAISE else 0, node_order(n))


def node_order(n: object) -> Tuple[int, str]:
    """Graph nodes in a stable order: the named ones (ENTRY, EXIT, ...) first, then the
    numbered ones by number."""
    return (n, "") if isinstance(n, int) else (-1, str(n))
