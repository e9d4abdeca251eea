"""``at-most-once``: no path performs ``event`` at two call sites (without a
``barrier`` between them).

A BFS that carries up to two distinct origin call sites per node — so it stays
linear — answers "does another call site reach this one".
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from ..kinds import OPEN_TERMINAL, EventClass, is_near
from .base import GraphInput, Hit, Ordering, expr_text, matching
from .paths import (
    ItemLoops,
    anchor,
    blocking_view,
    copy_order,
    head_path,
    join,
    node_order,
    other_origin_path,
    segment_length,
    site,
    two_origin_bfs,
)


class AtMostOnce(Ordering, kind="at-most-once"):
    roles = ("event",)

    def summary(self) -> str:
        return f"{self.kind}: {expr_text(self.event)}"

    def counted(self, cls: frozenset) -> frozenset:
        """Over terminal appends, a node whose terminal append is two or more calls
        down is no event of the rule (``_near``): its witness shows no step for it
        (held-out set 260: a far `self._perform(a)` was a step before the pair)."""
        if not any(c in (EventClass.TERMINAL_APPEND, OPEN_TERMINAL) for c in self.event) or _near(cls):
            return cls
        return frozenset(c for c in cls if c != EventClass.TERMINAL_APPEND.value)

    def check(self, graph: GraphInput) -> List[Hit]:
        g, classes, reachable = graph.g, graph.classes_for(self), graph.reachable
        barrier = matching(classes, self.barrier, classes, graph.also) if self.barrier else set()
        events = matching(classes, self.event, reachable, graph.also) - barrier
        records = any(c in (EventClass.TERMINAL_APPEND, OPEN_TERMINAL) for c in self.event)
        if records:  # a terminal append two or more calls away is no event here
            events = {e for e in events if _near(classes.get(e, frozenset()))}
        if len({site(g, e) for e in events}) < 2:
            return []
        # Over terminal appends (a record's end: OC103, or a rule of the user's on
        # them), an idempotency guard (`if not run.is_finished:`) stands between any
        # two events like a barrier, an event made only behind one in its callee is
        # never the second, and two events on a loop's item do not pair across its
        # rounds (docs/decisions.md "Idempotency guards", "A loop over records").
        # Other classes pair as the contract says.
        blocked = barrier | {n for n, d in g.nodes(data=True) if d.get("guard")} if records else barrier
        head = reachable.depth
        labels = two_origin_bfs(g, blocking_view(g, blocked), events, head)
        items = ItemLoops(g, blocked, head, graph.committed)
        # of an anchor's copies, the one whose witness is shortest, then the first; its
        # witness alone is built (docs/decisions.md "Of an anchor's copies, the shortest witness")
        best: Dict[object, Tuple[Tuple[int, Tuple[int, Tuple[int, str]]], object, object, List[object]]] = {}
        for e in sorted(events, key=node_order):
            cls = classes.get(e, frozenset())
            if records and EventClass.TERMINAL_APPEND in cls and OPEN_TERMINAL not in cls:
                continue  # its terminal appends are all behind guards
            pair = other_origin_path(labels, e, site(g, e))
            if records and pair is not None and items.of(e):
                pair = items.path(events, e, site(g, e))
            if pair is not None:
                first, middle = pair
                key = anchor(g, e)
                rank = (head.get(first, 0) + segment_length(middle), copy_order(g, e))
                if key not in best or rank < best[key][0]:
                    best[key] = (rank, e, first, middle)
        return [Hit(self, e, join(head_path(g, reachable, first), middle), first=first, key=key)
                for key, (_, e, first, middle) in sorted(best.items(), key=lambda item: node_order(item[1][1]))]

def _near(cls: frozenset) -> bool:
    """Whether a node's terminal append is its own call's or its callee's own
    (docs/decisions.md "A terminal append two calls away"); a node of other classes
    only is kept as it is."""
    return is_near(cls, EventClass.TERMINAL_APPEND.value)
