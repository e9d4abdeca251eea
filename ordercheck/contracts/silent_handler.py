"""``silent-handler``: no broad handler (bare ``except``, ``Exception``,
``BaseException``) has a way out that neither reports (a ``surface`` event), hands
the exception on, nor raises — whatever its body calls."""
from __future__ import annotations

from typing import List, Tuple

from ..kinds import HOLDS_HANDLER, EventClass, RegionKind
from .base import GraphInput, Hit, Rule
from .handlers import handing_on, loud_nodes, narrow_entries, no_return_nodes, silent_exit, surface_nodes
from .paths import head_path, join


class SilentHandler(Rule, kind="silent-handler"):
    loud = (EventClass.SURFACE.value,)
    fields = ("handler", "handler_line")
    holds = HOLDS_HANDLER  # (only a function with an `except` clause of its own can hold a finding)

    def check(self, graph: GraphInput) -> List[Hit]:
        g, classes, reachable = graph.g, graph.classes, graph.reachable
        surfaces = surface_nodes(classes)
        dead_ends = no_return_nodes(classes)
        handed = handing_on(g, classes)
        narrow = narrow_entries(g, graph.swallow_types)
        hits = []
        done = set()
        for region in sorted(g.graph["handlers"].values(), key=lambda r: r.id):
            if region.kind != RegionKind.EXCEPT or not (region.broad or region.bare):
                continue
            if region.entry not in reachable:
                continue
            # (one finding per clause: correlated tests may copy a handler, semantics §Contracts)
            at = (region.span.line, region.span.col) if region.span is not None else region.entry
            if ("handler", at) in done:
                continue  # (``evaluate`` keeps the first copy's)
            leave = silent_exit(g, region, loud_nodes(region, surfaces, handed), dead_ends, narrow)
            if leave is None:
                continue
            head = head_path(g, reachable, region.entry)
            done.add(("handler", at))
            hits.append(Hit(self, region.entry, join(head, leave), handler=region, key=("handler", at)))
        return hits

    def statement_lines(self, hit: Hit, lines: Tuple[int, int]) -> Tuple[int, int]:
        h = hit.handler
        return (h.span.line, h.span.line) if h is not None else lines
