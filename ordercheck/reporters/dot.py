"""``--graph FILE:QUALNAME``: a function's control-flow graph in Graphviz DOT.

networkx's own DOT writers need pydot or pygraphviz, which ordercheck does not depend
on, so the (small) writer is here. Events are coloured by class; the witness edges of
every finding are drawn bold red.
"""
from __future__ import annotations

from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

import networkx as nx

from ..kinds import MARKED_CLASS, NO_RETURN, OWN_MARKS, EdgeKind, NodeKind

MARKS = frozenset(MARKED_CLASS) | OWN_MARKS | {NO_RETURN}

CLASS_COLORS = {
    "save": "#1f77b4", "append": "#2ca02c", "terminal-append": "#006400", "surface": "#ff7f0e",
    "suppressor": "#9467bd", "file-write": "#8c564b", "fsync": "#e377c2", "rename": "#17becf",
}
EDGE_STYLE = {
    EdgeKind.NORMAL: "", EdgeKind.TRUE: 'label="T"', EdgeKind.FALSE: 'label="F"', EdgeKind.LOOP: 'style=dashed',
    EdgeKind.EXCEPTION: 'style=dotted, color="#999999"', EdgeKind.FINALLY: 'color="#9467bd"',
}


def _q(s: object) -> str:
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render(g: nx.DiGraph, classes: Dict[object, FrozenSet[str]], witness_paths: Iterable[List[object]] = (),
           via: Optional[Dict[object, str]] = None) -> str:
    """DOT of one graph; ``via`` labels call nodes whose classes come from a callee
    with the callee statement that performs them."""
    via = via or {}
    hot: Set[Tuple[object, object]] = set()
    for path in witness_paths:
        hot.update(zip(path, path[1:]))
    name = g.graph.get("function", "function")
    lines = [f"digraph {_q(name)} {{", '  node [shape=box, fontname="monospace", fontsize=10];', '  edge [fontsize=9];']
    for n, data in g.nodes(data=True):
        line = data.get("line")
        label = f"{line}: {data.get('text', '')}" if line else str(data.get("text", n))
        attrs = [f"label={_q(label)}"]
        # (the marks beside a class, `own-terminal-append`, are the engine's: the
        # graph names classes as the vocabulary does; a review, session 41)
        cls = frozenset(c for c in classes.get(n, ()) if c not in MARKS)
        if cls:
            main = sorted(cls, key=lambda c: (c not in CLASS_COLORS, c))[0]
            # (a class with no colour of its own, `quiet`, `transaction`, a configured
            # one, is light grey: black text on it; held-out set 106)
            font = "white" if main in CLASS_COLORS else "black"
            attrs.append(f'style=filled, fillcolor="{CLASS_COLORS.get(main, "#dddddd")}", fontcolor={font}')
            extra = f"\nvia {via[n]}" if n in via else ""
            attrs[0] = f"label={_q(label + '  [' + ', '.join(sorted(cls)) + ']' + extra)}"
        elif data.get("kind") in (NodeKind.ENTRY, NodeKind.EXIT, NodeKind.RAISE):
            attrs.append("shape=oval")
        elif data.get("kind") in (NodeKind.HANDLER, NodeKind.FINALLY, NodeKind.WITH_EXIT):
            attrs.append("shape=hexagon")
        lines.append(f"  {_q(n)} [{', '.join(attrs)}];")
    for u, v, data in g.edges(data=True):
        style = EDGE_STYLE.get(data.get("kind", EdgeKind.NORMAL), "")
        if data.get("kind") == EdgeKind.LOOP and data.get("outcome") in (EdgeKind.TRUE, EdgeKind.FALSE):
            # (a test's way that ends the loop's body: the back edge is its T or F)
            style = f'label="{"T" if data["outcome"] == EdgeKind.TRUE else "F"}", ' + style
        if (u, v) in hot:  # (red instead of the kind's own colour: one `color` per edge)
            style = ", ".join([a for a in style.split(", ") if a and not a.startswith("color=")]
                              + ["color=red", "penwidth=3"])
        lines.append(f"  {_q(u)} -> {_q(v)}" + (f" [{style}]" if style else "") + ";")
    lines.append("}")
    return "\n".join(lines) + "\n"
