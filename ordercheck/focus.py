"""Which functions can hold a finding: the outline pre-pass's verdict (issue: pay only
for code that can hold a finding; docs/performance.md, "The outline pre-pass").

A graph rule finds nothing in a function none of whose calls is of a class its roles
name, directly or through a callee's summary: every ordering, at-most-once and
swallowed contract needs a node of its ``first``/``then``/``event`` classes. So, on the
call graph of the outlines (``frontend.outline``, resolved by ``summaries.resolve_file``,
the same resolution the summaries use):

* a function **reaches** a class when some call of it matches the class by its own
  names (``Vocabulary.direct``), or it calls (or enters as a context manager) a
  function that reaches it: only then can a node of its graph carry the class;
* a function is **hot** when it reaches what some selected rule's finding needs
  (``Question.needs``): a ``sequence`` finding needs a node of its ``first`` classes
  *and* one of its ``then`` classes in one graph, a ``requires-before`` one a node of
  its ``then``, the others a node of their ``event``: it may hold a finding;
* a function is **needed** when it is hot or a hot function reaches it: its summary
  is read, directly or through another summary.

Only the files of needed functions are parsed with libcst; only the files of hot
functions are checked. A function outside both keeps no summary (nothing reads it)
and its file has no finding (a file CPython rejects still has its OC900: the outline
carries it). A rule that finds without an event, where a function holds a shape
itself (``silent-handler``: an ``except`` clause of its own, ``FunctionFacts.handles``),
makes hot the functions that hold one, not their callers (``Question.own``). A
selection this cannot reason about — a role of negated classes only, a role on
``surface`` (a ``+=`` counter is one, and outlines keep no pseudo-calls) — turns the
pre-pass off: ``classes_for`` returns None.

Why "and" for a sequence: with the default vocabulary, thousands of functions reach a
``file-write`` (``*.write``: every stream) and few reach both it and a ``rename``; on
the bench's seven packages the hot functions went from 470 to 42 and the files read
with libcst from 646 to 167 (docs/performance.md, "Session 27").
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, AbstractSet, Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Set, Tuple

from . import lazy
from .ir import FileFacts, FunctionFacts
from .kinds import HOLDS_HANDLER, OPEN_TERMINAL, EventClass
from .rulebook import Rule
from .vocabulary import Vocabulary

if TYPE_CHECKING:
    import networkx as nx

    from . import summaries
else:
    nx = lazy.module("networkx", globals(), "nx")
    summaries = lazy.module("ordercheck.summaries", globals(), "summaries")


# One function of the call graph as the focus reads it: its key, the classes its own
# calls match (``Vocabulary.direct``), and the project functions it runs (its resolved
# calls and the methods of the project context managers it enters).
Row = Tuple[str, FrozenSet[str], Tuple[str, ...]]

# The verdict of a search over a call graph: (hot keys, needed keys).
Reach = Tuple[FrozenSet[str], FrozenSet[str]]

# Given a run's rows and the paths whose rows were resolved afresh, the reach an
# earlier run computed over the very same rows, or None (``memos.GraphMemo.known_reach``)
KnownReach = Callable[[Mapping[str, List[Row]], AbstractSet[str]], Optional[Reach]]


@dataclass(frozen=True)
class Question:
    """What the pre-pass asks of the call graph for a selection of rules: the classes
    whose calls matter (``classes``: a row keeps the ones its calls match), and per
    rule what its finding needs (``needs``: groups of classes, each to be reached;
    a group is reached when one of its classes is)."""

    classes: FrozenSet[str]
    needs: FrozenSet[Tuple[FrozenSet[str], ...]]
    # a rule that finds in a function only where the function itself holds a shape
    # (``silent-handler``: an ``except`` clause, ``HOLDS_HANDLER``): that function is
    # hot, its callers are not
    own: FrozenSet[str] = frozenset()

    def key(self) -> List[str]:
        """The question as remembered with its answer (``memos.GraphMemo``)."""
        needs = sorted("&".join(sorted("|".join(sorted(group)) for group in need)) for need in self.needs)
        return sorted(list(self.classes) + [f"needs:{n}" for n in needs] + [f"own:{c}" for c in self.own])


@dataclass(frozen=True)
class Focus:
    hot: FrozenSet[str]  # function keys that may hold a finding
    needed: FrozenSet[str]  # function keys whose summaries are read (the hot ones too)
    check_files: FrozenSet[str]  # shown paths holding a hot function
    need_files: FrozenSet[str]  # shown paths holding a needed function
    # per shown path: its functions' rows (what ``memos.GraphMemo`` remembers)
    rows: Mapping[str, List[Row]] = field(default_factory=dict)
    # per shown path: the classes its calls match by their own names (a run's "seen" classes)
    seen: Mapping[str, FrozenSet[str]] = field(default_factory=dict)
    # the engine failed to resolve some function's calls: these rows are not remembered
    failed: bool = False


def classes_for(rules: Iterable[Rule]) -> Optional[FrozenSet[str]]:
    """The event classes whose calls can make a finding of the graph rules among
    ``rules``, or None when some selected rule can find without one."""
    out: Set[str] = set()
    for rule in rules:
        if not rule.on_graph or rule.holds is not None:
            continue  # (silent-handler: a function's own `except` clause, ``Question.own``)
        if not rule.roles:
            return None
        for role in rule.roles:
            positive = _positive(rule, role)
            if not positive:
                return None
            out.update(positive)
    if EventClass.SURFACE.value in out:
        return None  # a `+=` counter is a surface, and outlines keep no pseudo-calls
    return _reached_by(frozenset(out))


def question_for(rules: Iterable[Rule]) -> Optional[Question]:
    """``classes_for`` and what each graph rule's finding needs (``Rule.finding_needs``: the
    roles whose classes must all be reached; None: any one role's)."""
    rules = list(rules)
    classes = classes_for(rules)
    if classes is None:
        return None
    needs: Set[Tuple[FrozenSet[str], ...]] = set()
    own: Set[str] = set()
    for rule in rules:
        if not rule.on_graph:
            continue
        if rule.holds is not None:
            own.add(rule.holds)
            continue
        roles = rule.finding_needs if rule.finding_needs is not None else rule.roles
        groups = [_reached_by(_positive(rule, role)) for role in roles]
        if rule.finding_needs is None:  # any one role's classes will do
            groups = [frozenset().union(*groups)]
        needs.add(tuple(sorted(groups, key=sorted)))
    return Question(classes, frozenset(needs), frozenset(own))


def _positive(rule: Rule, role: str) -> FrozenSet[str]:
    """The classes a role names, less those it excludes (``!file-write``)."""
    return frozenset(c for c in getattr(rule, role.replace("-", "_")) if not c.startswith("!"))


_APPENDS = frozenset({EventClass.APPEND.value, EventClass.TERMINAL_APPEND.value, OPEN_TERMINAL})


def _reached_by(group: FrozenSet[str]) -> FrozenSet[str]:
    """The classes whose calls can give a node of ``group``: an append made terminal
    by its markers is a terminal append (outlines keep no markers), and every
    terminal append is an append (``Vocabulary.classify``): either asks for both."""
    if group & _APPENDS:
        return group | {EventClass.APPEND.value, EventClass.TERMINAL_APPEND.value}
    return group


def focus(files: List[FileFacts], vocab: Vocabulary, question: Question,
          remembered: Optional[Mapping[str, List[Row]]] = None, known: Optional[KnownReach] = None) -> Focus:
    """The hot and needed functions of a project read as outlines (or light facts).

    ``remembered``: rows of files resolved by an earlier run against the same project
    definitions (``memos.GraphMemo``; those files may be index stubs without calls);
    only the other files are resolved, against the index of all. ``known``: asked for
    the reach of an earlier run over the same rows (an edit that changed no call's
    class or target, such as an editor's keystroke in a string): then no graph is
    built, and networkx is not even imported."""
    rows: Dict[str, List[Row]] = {}
    index = summaries.ProjectIndex.of(files)
    unresolved: Dict[str, str] = {}
    where: Dict[str, str] = {}
    for facts in files:
        if facts.error is not None:
            continue
        got = remembered.get(facts.path) if remembered is not None else None
        before = len(unresolved)
        rows[facts.path] = list(got) if got is not None else [
            _row(key, fn, edges, manager_edges, vocab)
            for key, fn, edges, _, manager_edges in summaries.resolve_file(index, facts, unresolved)]
        if len(unresolved) > before:
            where.update((k, facts.path) for k in unresolved if k not in where)
    reach = None
    if known is not None and not unresolved:
        reach = known(rows, rows.keys() - remembered.keys() if remembered is not None else rows.keys())
    focused = from_rows(rows, question, reach)
    if unresolved:
        # the engine failed to resolve these functions' calls: what they reach is
        # unknown, so they are checked (their OC901 is reported where their file is)
        # and their rows are no call graph to remember (``Focus.failed``)
        keys, paths = frozenset(unresolved), frozenset(where.values())
        focused = dataclasses.replace(focused, hot=focused.hot | keys, needed=focused.needed | keys,
                                      check_files=focused.check_files | paths,
                                      need_files=focused.need_files | paths, failed=True)
    return focused


def _row(key: str, fn: FunctionFacts, edges: List[Tuple[int, str]], manager_edges: List[str],
         vocab: Vocabulary) -> Row:
    direct: FrozenSet[str] = vocab.canonical(frozenset().union(*(vocab.direct(call) for call in fn.calls)))
    if fn.handles:
        direct |= {HOLDS_HANDLER}
    return key, direct, tuple(dict.fromkeys([t for _, t in edges] + list(manager_edges)))


def from_rows(rows: Mapping[str, List[Row]], question: Question, reach: Optional[Reach] = None) -> Focus:
    """The focus of a call graph given as rows, under ``question`` (``reach``: the hot
    and needed keys, already known for these rows)."""
    direct: Dict[str, FrozenSet[str]] = {}
    where: Dict[str, str] = {}
    seen: Dict[str, FrozenSet[str]] = {}
    holders: Set[str] = set()  # the functions that hold what ``question.own`` asks themselves
    classes = question.classes
    for path, file_rows in rows.items():
        found: Set[str] = set()
        for key, matched, _ in file_rows:
            where[key] = path
            found |= matched - {HOLDS_HANDLER}
            if matched & question.own:
                holders.add(key)
            if matched & classes:  # (one key may be several definitions: a property's
                direct[key] = direct.get(key, frozenset()) | matched  # getter and setter)
        seen[path] = frozenset(found)
    if reach is not None:
        hot, needed = set(reach[0]), set(reach[1])
    else:
        g: nx.DiGraph = nx.DiGraph()
        for file_rows in rows.values():
            for key, _, targets in file_rows:
                g.add_node(key)
                g.add_edges_from((key, t) for t in targets)
        callers = g.reverse(copy=False)
        reaching: Dict[FrozenSet[str], Set[str]] = {}  # group -> the functions that reach it

        def reaches(group: FrozenSet[str]) -> Set[str]:
            got = reaching.get(group)
            if got is None:
                got = reaching[group] = _reach(callers, {k for k, m in direct.items() if m & group})
            return got

        hot = set(holders)
        for need in question.needs:
            hot |= set.intersection(*(reaches(group) for group in need)) if need else set()
        needed = _reach(g, hot)
    check_files = {where[k] for k in hot if k in where}
    need_files = {where[k] for k in needed if k in where}
    return Focus(frozenset(hot), frozenset(needed), frozenset(check_files), frozenset(need_files),
                 dict(rows), seen)


def _reach(g: "nx.DiGraph", sources: Set[str]) -> Set[str]:
    """``sources`` and every node reachable from one of them (one multi-source
    breadth-first search: ``bfs_layers`` took half the time of the unweighted
    Dijkstra it replaced on the bench's call graph of 43,000 functions)."""
    present = [s for s in sources if s in g]
    reached = {v for layer in nx.bfs_layers(g, present) for v in layer} if present else set()
    return reached | set(sources)
