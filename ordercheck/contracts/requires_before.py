"""``requires-before``: every path to a ``then`` event performs ``first`` before it.

One BFS from ENTRY in the first-blocked view: a ``then`` it reaches is reached
without a ``first``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, List

from .. import lazy
from .base import GraphInput, Hit, Ordering, Rule, expr_text, matching
from .paths import MAX_SEGMENT, Reach, anchor, blocking_view, head_path, node_order, path_to

if TYPE_CHECKING:
    from .. import cfg as cfgmod
else:
    cfgmod = lazy.module("ordercheck.cfg", globals(), "cfgmod")


class RequiresBefore(Ordering, kind="requires-before"):
    roles = ("first", "then")
    fields = Rule.fields + ("then_text", "then_line", "event_text", "event_line")  # no earlier event to name
    finding_needs = ("then",)  # a ``then`` with no ``first`` at all is one

    def summary(self) -> str:
        return f"requires-before: first={expr_text(self.first)}, then={expr_text(self.then)}"

    def check(self, graph: GraphInput) -> List[Hit]:
        g, classes, reachable = graph.g, graph.classes_for(self), graph.reachable
        firsts = matching(classes, self.first, classes, graph.also)
        # a node that is both needs a ``first`` before it, unless its classes are a
        # callee's events in their own order (``GraphInput.self_ordered``): a
        # terminal append is an append, but not one made before itself
        thens = {t for t in matching(classes, self.then, reachable, graph.also) if t not in firsts or not graph.self_ordered(t)}
        if not thens:
            return []
        tree = Reach(blocking_view(g, firsts))
        return [
            Hit(self, t, head_path(g, tree, t) if tree.depth[t] > MAX_SEGMENT else path_to(tree.parents, t), key=anchor(g, t))
            for t in sorted(thens, key=node_order)
            if t in tree.parents and t != cfgmod.ENTRY
        ]
