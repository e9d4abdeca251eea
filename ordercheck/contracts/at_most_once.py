"""``at-most-once``: no path performs ``event`` at two call sites (without a
``barrier`` between them).

A BFS that carries up to two distinct origin call sites per node — so it stays
linear — answers "does another call site reach this one".
"""
from __future__ import annotations

from typing import List

from .base import GraphInput, Hit, Ordering, expr_text, matching
from ..kinds import OPEN_TERMINAL, EventClass
from .paths import ItemLoops, blocking_view, head_path, join, node_order, other_origin_path, site, two_origin_bfs


class AtMostOnce(Ordering, kind="at-most-once"):
    roles = ("event",)

    def summary(self) -> str:
        return f"{self.kind}: {expr_text(self.event)}"

    def check(self, graph: GraphInput) -> List[Hit]:
        g, classes, reachable = graph.g, graph.classes_for(self), graph.reachable
        barrier = matching(classes, self.barrier, classes) if self.barrier else set()
        events = matching(classes, self.event, reachable) - barrier
        if len({site(g, e) for e in events}) < 2:
            return []
        # an idempotency guard (`if not run.is_finished:`) stands between any two
        # events like a barrier, and an event made only behind one in its callee is
        # never the second (docs/decisions.md "Idempotency guards")
        blocked = barrier | {n for n, d in g.nodes(data=True) if d.get("guard")}
        labels = two_origin_bfs(g, blocking_view(g, blocked), events)
        items = ItemLoops(g, blocked)
        hits = []
        for e in sorted(events, key=node_order):
            cls = classes.get(e, frozenset())
            if EventClass.TERMINAL_APPEND in cls and OPEN_TERMINAL not in cls:
                continue  # its terminal appends are all behind guards
            pair = other_origin_path(labels, e, site(g, e))
            if pair is not None and items.of(e):
                pair = items.path(events, e, site(g, e))
            if pair is not None:
                first, middle = pair
                hits.append(Hit(self, e, join(head_path(g, reachable, first), middle), first=first, key=site(g, e)))
        return hits
