"""Which functions can hold a finding: the outline pre-pass's verdict (issue: pay only
for code that can hold a finding; docs/performance.md, "The outline pre-pass").

A graph rule finds nothing in a function none of whose calls is of a class its roles
name, directly or through a callee's summary: every ordering, at-most-once and
swallowed contract needs a node of its ``first``/``then``/``event`` classes. So, on the
call graph of the outlines (``frontend.outline``, resolved by ``summaries.resolve``,
the same resolution the summaries use):

* a function is **hot** when some call of it matches one of those classes by its own
  names (``Vocabulary.direct``), or it calls (or enters as a context manager) a hot
  function: it may hold a finding;
* a function is **needed** when it is hot or a hot function reaches it: its summary
  is read, directly or through another summary.

Only the files of needed functions are parsed with libcst; only the files of hot
functions are checked. A function outside both keeps no summary (nothing reads it)
and its file has no finding (a file CPython rejects still has its OC900: the outline
carries it). A selection this cannot reason about — a rule that can find without an
event (``silent-handler``), a role of negated classes only, a role on ``surface`` (a
``+=`` counter is one, and outlines keep no pseudo-calls) — turns the pre-pass off:
``classes_for`` returns None.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, FrozenSet, Iterable, List, Optional, Set

from . import lazy
from .ir import FileFacts
from .kinds import OPEN_TERMINAL, EventClass
from .rulebook import Rule
from .vocabulary import Vocabulary

if TYPE_CHECKING:
    import networkx as nx

    from . import summaries
else:
    nx = lazy.module("networkx", globals(), "nx")
    summaries = lazy.module("ordercheck.summaries", globals(), "summaries")


@dataclass(frozen=True)
class Focus:
    hot: FrozenSet[str]  # function keys that may hold a finding
    needed: FrozenSet[str]  # function keys whose summaries are read (the hot ones too)
    check_files: FrozenSet[str]  # shown paths holding a hot function
    need_files: FrozenSet[str]  # shown paths holding a needed function
    # the outlines' call graph: the summaries resolve again only the files read whole since
    graph: Optional["summaries.CallGraph"] = None


def classes_for(rules: Iterable[Rule]) -> Optional[FrozenSet[str]]:
    """The event classes whose calls can make a finding of the graph rules among
    ``rules``, or None when some selected rule can find without one."""
    out: Set[str] = set()
    for rule in rules:
        if not rule.on_graph:
            continue
        if not rule.roles:
            return None  # (silent-handler: any broad handler)
        for role in rule.roles:
            expr = getattr(rule, role.replace("-", "_"))
            positive = [c for c in expr if not c.startswith("!")]
            if not positive:
                return None
            out.update(positive)
    if EventClass.SURFACE.value in out:
        return None  # a `+=` counter is a surface, and outlines keep no pseudo-calls
    if out & {EventClass.TERMINAL_APPEND.value, OPEN_TERMINAL}:
        out.add(EventClass.APPEND.value)  # an append made terminal by its markers
    return frozenset(out)


def focus(files: List[FileFacts], vocab: Vocabulary, classes: FrozenSet[str]) -> Focus:
    """The hot and needed functions of a project read as outlines (or light facts)."""
    cg = summaries.resolve(files)
    direct: Set[str] = set()
    for key, defs in cg.defs.items():
        if any(vocab.direct(call) & classes for _, fn in defs for call in fn.calls):
            direct.add(key)
    hot = _reach(cg.graph.reverse(copy=False), direct)
    needed = _reach(cg.graph, hot)
    check_files = {facts.path for key in hot for facts, _ in cg.defs.get(key, ())}
    need_files = {facts.path for key in needed for facts, _ in cg.defs.get(key, ())}
    return Focus(frozenset(hot), frozenset(needed), frozenset(check_files), frozenset(need_files), cg)


def _reach(g: "nx.DiGraph", sources: Set[str]) -> Set[str]:
    """``sources`` and every node reachable from one of them (one multi-source search)."""
    present = {s for s in sources if s in g}
    reached = set(nx.multi_source_dijkstra_path_length(g, present)) if present else set()
    return reached | set(sources)
