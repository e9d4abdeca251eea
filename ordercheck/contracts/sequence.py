"""``sequence``: no path performs ``then`` after ``first`` (without a ``barrier``
between them, and unless-after: unless it performs ``unless-after`` again before a
normal exit).

One multi-source BFS from the normal successors of every ``first`` event in the
barrier-blocked view finds every reachable ``then``; with ``unless-after``, a backward
BFS from EXIT in the unless-blocked view says which ``then`` events still reach a
normal exit without another save. Witness: shortest ENTRY→first, the BFS path
first→then, shortest then→EXIT.
"""
from __future__ import annotations

from typing import FrozenSet, List

from ..kinds import EventClass
from .base import GraphInput, Hit, Ordering, expr_text, matching, near_matching
from .paths import (
    anchor,
    blocking_view,
    exit_path,
    head_path,
    join,
    node_order,
    normal_successors,
    other_origin_path,
    site,
    to_exit_hops,
    two_origin_bfs,
)


#: the classes a ``sequence`` pairs only when near: a file write and a rename count
#: where the node's own call or its callee's own call makes them, not two or more
#: calls down (docs/decisions.md "A file write or rename two calls away"); a save and
#: an append count at every depth, as the contract says
NEAR_ONLY = frozenset({EventClass.FILE_WRITE.value, EventClass.RENAME.value})


class Sequence(Ordering, kind="sequence"):
    roles = ("first", "then")
    finding_needs = ("first", "then")  # a pair: a node of each

    def summary(self) -> str:
        s = f"sequence: first={expr_text(self.first)}, then={expr_text(self.then)}"
        if self.barrier:
            s += f", barrier={expr_text(self.barrier)}"
        if self.unless_after:
            s += f", unless-after={expr_text(self.unless_after)}"
        return s

    def first_role(self, cls: FrozenSet[str]) -> str:
        return "state saved here" if EventClass.SAVE in cls else super().first_role(cls)

    def check(self, graph: GraphInput) -> List[Hit]:
        g, classes, reachable = graph.g, graph.classes_for(self), graph.reachable
        barrier = matching(classes, self.barrier, classes) if self.barrier else set()
        unless = matching(classes, self.unless_after, classes) if self.unless_after else set()
        firsts = near_matching(classes, self.first, reachable, NEAR_ONLY) - barrier
        thens = near_matching(classes, self.then, classes, NEAR_ONLY) - barrier - unless
        if not firsts or not thens:
            return []
        # a node never pairs with itself: the order inside a call is the callee's
        # business, even when a loop brings the same call round again
        labels = two_origin_bfs(g, blocking_view(g, barrier), firsts)
        found = []
        for t in sorted(thens, key=node_order):
            pair = other_origin_path(labels, t, site(g, t))
            if pair is not None:
                found.append((t, pair))
        if not found:
            return []
        if self.unless_after:
            view_u = blocking_view(g, unless)
            hops = to_exit_hops(view_u)  # (its keys: the nodes with a clean way out)
        hits = []
        done = set()  # the anchors with a hit: ``evaluate`` keeps the first per anchor
        for t, (first, middle) in found:
            key = anchor(g, t)
            if key in done:
                continue  # (another copy of a call already found: its witness is kept)
            tail: List[object] = []
            if self.unless_after:
                nxt = [s for s in normal_successors(g, t) if s in hops]
                if not nxt:
                    continue
                tail = exit_path(g, view_u, nxt[0], hops)
            head = head_path(g, reachable, first)
            done.add(key)
            hits.append(Hit(self, t, join(head, middle, tail), first=first, key=key))
        return hits
