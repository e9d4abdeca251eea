"""``swallowed``: no failure of an ``event`` runs into a handler that catches it and
leaves normally without reporting (a ``surface`` event) or handing the exception on.

From each event's exceptional edges, follow the handler chain (and re-raising
``finally`` copies, and handlers that re-raise without a word) to each handler that
catches; a BFS inside the handler's region that may not pass a loud node finds a
normal way out (fall through, return, break, continue) if one exists.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from ..findings import Related
from ..kinds import EventClass
from .base import GraphInput, Hit, Rule, expr_text, matching, message_text, node_span
from .handlers import (
    catchers,
    handing_on,
    handler_catches,
    loud_nodes,
    narrow_entries,
    no_return_nodes,
    quiet_raises,
    reraise_points,
    silent_exit,
    surface_nodes,
)
from .paths import Classes, anchor, copy_order, head_path, join, node_order, segment_length

if TYPE_CHECKING:
    import networkx as nx

    from ..cfg import HandlerRegion


class Swallowed(Rule, kind="swallowed"):
    roles = ("event",)
    fields = ("event_text", "event_line", "handler", "handler_line")
    loud = (EventClass.SURFACE.value,)
    escaping = True  # what a handler catches is what escapes the callee

    def summary(self) -> str:
        return f"{self.kind}: {expr_text(self.event)}"

    def check(self, graph: GraphInput) -> List[Hit]:
        g, classes, reachable = graph.g, graph.classes, graph.reachable
        # ``raises``: the classes whose failure each node can raise (semantics §Events escaping
        # failures); by default what it performs
        events = matching(classes if graph.raises is None else graph.raises, self.event, reachable)
        if not events:
            return []
        regions = {r.entry: r for r in g.graph["handlers"].values()}
        surfaces = surface_nodes(classes)
        dead_ends = no_return_nodes(classes)
        handed = handing_on(g, classes)
        reraise = reraise_points(g)
        exits: Dict[int, Optional[List[object]]] = {}  # each handler's silent way out, once
        narrow = narrow_entries(g, graph.swallow_types)
        onward_cache: Dict[int, List[Tuple[List[object], object]]] = {}

        def onward(region: HandlerRegion) -> List[Tuple[List[object], object]]:
            if region.id not in onward_cache:
                onward_cache[region.id] = quiet_raises(g, region, loud_nodes(region, surfaces, handed))
            return onward_cache[region.id]

        # of an anchor's copies (a `finally` body's, a state's of correlated tests), the
        # one whose witness is shortest, then the first; its witness alone is built
        # (docs/decisions.md "Of an anchor's copies, the shortest witness")
        best: Dict[object, tuple] = {}
        for e in sorted(events, key=node_order):
            key = anchor(g, e)
            for region, trail in catchers(g, e, regions, reraise, onward):
                if not handler_catches(region, graph.swallow_types):
                    continue
                if region.id not in exits:
                    exits[region.id] = silent_exit(g, region, loud_nodes(region, surfaces, handed), dead_ends, narrow)
                leave = exits[region.id]
                if leave is None:
                    continue
                rank = (reachable.depth.get(e, 0) + segment_length(trail) + segment_length(leave), copy_order(g, e))
                if key not in best or rank < best[key][0]:
                    best[key] = (rank, e, trail, leave, region)
                break
        return [Hit(self, e, join(head_path(g, reachable, e), trail, leave), handler=region, key=key)
                for key, (_, e, trail, leave, region) in sorted(best.items(), key=lambda item: node_order(item[1][1]))]

    def message_fields(self, hit: Hit, g: nx.DiGraph, classes: Classes) -> Tuple[Dict[str, object], List[Related]]:
        anchor = g.nodes[hit.anchor]
        fmt: Dict[str, object] = dict(event_text=message_text(anchor), event_line=node_span(anchor).line)
        related: List[Related] = []
        h = hit.handler
        if h is not None and h.span is not None:
            related.append(Related(h.span, f"swallowed silently here: {h.text}"))
        return fmt, related
