"""Stage 3 — one control-flow graph per function (semantics §Graph), as a ``networkx.DiGraph``.

Nodes are ``ENTRY``, ``EXIT`` (normal return or fall-through), ``RAISE`` (an exception
leaves the function), one node per statement (placed where the statement *starts*), one
node per call in evaluation order, handler entries (the ``except`` line), and a few
synthetic points (line ``None``) where a way out resumes: node attribute ``kind`` is a
``kinds.NodeKind``. Edge attribute ``kind`` is a ``kinds.EdgeKind``: ``normal``,
``true``, ``false``, ``loop``, ``exception``, ``finally``.

Design choices that the contracts rely on:

* An exceptional edge out of a call means the call did **not** take effect; so when a
  statement must raise *after* its calls (``raise``, ``assert``, the end of a
  ``finally`` that re-raises) a synthetic point is inserted and the edge leaves it.
* ``finally`` is built once per way out (normal, return, break, continue, exception),
  lazily and shared by every jump of that kind, the way CodeQL's extractor walks it.
  Each copy resumes its way out; a copy that returns, breaks or continues swallows.
* Every handler (``except`` clause, the exception copy of a ``finally``, the exit of a
  suppressing ``with``) is a *region*: its nodes carry the region id in ``ctx``, and
  ``graph.graph["handlers"]`` describes it, so the ``swallowed`` contract can ask
  whether control leaves the region normally without surfacing.

How the builder is laid out:

* ``_Builder.stmt`` dispatches on the statement's ``kinds.StmtKind`` through one table,
  ``_Builder.STMT``: one row and one small method per kind; a kind without a row is a
  loud ``ValueError``.
* Loops, ``try`` bodies, ``finally`` bodies and ``with`` bodies push a frame on one
  stack (``_Builder.frames``, kinds ``kinds.FrameKind``), the way CPython's compiler
  pushes an ``fblock``. Every jump (return, break, continue, an exception) goes out
  through ``_Builder.unwind``, which walks the stack innermost first and asks each
  frame, by the table ``_Builder.CROSS``, what a jump of that way does when it
  crosses it (CPython's ``compiler_unwind_fblock``).
"""
from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Dict, FrozenSet, List, Optional, Tuple, Union

import networkx as nx

from .ir import (
    BROAD_TYPES,
    Call,
    Choice,
    Fact,
    FunctionFacts,
    Handler,
    RaisePoint,
    Repeat,
    Span,
    Stmt,
    WithItem,
    is_contextlib_suppress,
)
from .kinds import NO_RETURN, EdgeKind, FrameKind, NodeKind, RegionKind, StmtKind, Way

ENTRY, EXIT, RAISE = "ENTRY", "EXIT", "RAISE"

#: the ways into a node: (predecessor, kind of the edge from it)
Preds = List[Tuple[object, EdgeKind]]


@dataclass
class HandlerRegion:
    """A place that catches an exception: ``except``, ``finally`` (exception copy) or
    a suppressing ``with``."""

    id: int
    kind: RegionKind
    entry: object
    span: Span
    text: str
    types: Tuple[str, ...] = ()
    bare: bool = False
    broad: bool = False  # catches everything (ends the chain)
    suppress_all: bool = False  # a `suppressor` context manager


# The built-in exception classes that do not catch ``SystemExit`` (every ``Exception``,
# and ``KeyboardInterrupt``, ``GeneratorExit``): a clause naming only these lets
# ``sys.exit()`` pass. Any other name may (``BaseException``, ``SystemExit``, a name
# this module cannot see into).
#: the built-in exception classes by name (``clause_catches``)
_BUILTIN_EXC = {name: value for name, value in vars(builtins).items()
                if isinstance(value, type) and issubclass(value, BaseException)}
_NOT_EXIT = frozenset(
    name for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
    and not issubclass(SystemExit, value))


def clause_catches(h: Handler, inner: Handler) -> bool:
    """Whether the ``except`` clause ``h`` surely catches the exception the clause
    ``inner`` caught: it is broad, names every type ``inner`` names (as written or
    qualified), or names a built-in base class of each, all surely built-in
    (``Handler.builtins``: a module's own ``ConnectionError`` is none)."""
    if h.broad:
        return True
    if not inner.types:
        return False
    if all(t in h.types for t in inner.types):
        return True
    bases = [_BUILTIN_EXC[b] for b in h.builtins if b is not None and b in _BUILTIN_EXC]
    caught = [_BUILTIN_EXC.get(b) if b is not None else None for b in inner.builtins]
    if not bases or not caught or any(c is None for c in caught):
        return False
    return all(any(issubclass(c, base) for base in bases) for c in caught if c is not None)


def _may_swallow_exit(f: "_WithFrame") -> bool:
    """Whether a ``with`` item's exit may swallow ``sys.exit()``'s ``SystemExit``: a
    suppressing manager (not a test's ``pytest.raises``) that suppresses everything, or
    a type that is not surely one of ``_NOT_EXIT`` (``suppress(Exception)`` swallows no
    exit; ``suppress(BaseException)`` or a project class may)."""
    if not f.suppress or f.expects:
        return False
    return f.suppress_all or not f.types or any(t.removeprefix("builtins.") not in _NOT_EXIT for t in f.types)


def may_catch_exit(h: Handler) -> bool:
    """Whether an ``except`` clause may catch ``sys.exit()``'s ``SystemExit``."""
    if h.bare or not h.types:
        return True
    if h.builtins and all(b is not None for b in h.builtins):
        # every type surely built in, also through a tuple's name (`except ERRS:` over
        # `ERRS = (Exception,)`: a review, session 56)
        return any(b not in _NOT_EXIT for b in h.builtins)
    return any(t.removeprefix("builtins.") not in _NOT_EXIT for t in h.types)


#: the built-in exceptions no ``Exception`` clause catches, and library ones of that
#: kind (asyncio's cancellation since Python 3.8, trio's): a bare ``raise`` in a clause
#: that names only these passes every clause that cannot catch them (``base_only``)
_BASE_ONLY = frozenset({"SystemExit", "KeyboardInterrupt", "GeneratorExit"})
_BASE_ONLY_LIBRARY = frozenset({"asyncio.CancelledError", "asyncio.exceptions.CancelledError", "trio.Cancelled"})


#: the built-in bases of an exception no ``except Exception`` catches
_NO_EXCEPTION = _BASE_ONLY | {"BaseException"}


def _swallows_every_exception(f: "_WithFrame") -> bool:
    """Whether a ``with`` item is ``contextlib.suppress(Exception)`` (or names it among
    its types, not a project manager's): what goes on past its exit is then no
    ``Exception`` (``_NO_EXCEPTION``)."""
    return (not f.project_narrow and f.manager is not None and is_contextlib_suppress(f.manager)
            and any(t.removeprefix("builtins.") == "Exception" for t in f.types))


def base_only(h: Handler) -> Optional[FrozenSet[str]]:
    """The built-in classes that may catch what the clause ``h`` handles, when every
    type it names is a ``BaseException`` that is no ``Exception`` (``_BASE_ONLY``, as
    surely built in, or ``_BASE_ONLY_LIBRARY`` by its qualified name): its own
    built-in names and ``BaseException``. None for any other clause."""
    if h.bare or h.broad or not h.types:
        return None
    written = [t.removeprefix("builtins.") for t in h.types]
    library = {t for t in written if t in _BASE_ONLY_LIBRARY}
    for t in written:
        if t in _BASE_ONLY_LIBRARY or any(q.endswith("." + t) for q in library):
            continue  # (`CancelledError` written, `asyncio.CancelledError` its qualified name)
        if t not in _BASE_ONLY or t not in h.builtins:
            return None
    return frozenset(b for b in h.builtins if b is not None) | {"BaseException"}


def may_catch_base(h: Handler, bases: FrozenSet[str]) -> bool:
    """Whether an ``except`` clause may catch an exception whose built-in bases are
    ``bases`` (``base_only``): a bare clause, one naming a class this module cannot see
    into, or one naming one of those bases."""
    if h.bare or not h.types or not h.builtins or any(b is None for b in h.builtins):
        return True
    return any(b in bases for b in h.builtins)


# ---- the frame stack (CPython's ``fblockinfo``): one class per ``FrameKind``


class _Frame:
    """A statement a jump may have to pass on its way out."""

    kind: ClassVar[FrameKind]


@dataclass
class _LoopFrame(_Frame):
    """A ``while`` or ``for`` body: ``continue`` goes back to ``head``, ``break`` ends
    the loop (the loop statement collects ``breaks``)."""

    kind = FrameKind.LOOP
    head: object
    breaks: Preds = field(default_factory=list)
    item: bool = False  # a ``for``: each round rebinds its target to the next item


@dataclass
class _ExceptFrame(_Frame):
    """A ``try`` body with ``except`` clauses: an exception goes to the first clause;
    ``sys.exit``'s ``SystemExit`` to the first that may catch it (``exit_handler``;
    None: it passes on outward)."""

    kind = FrameKind.EXCEPT
    first_handler: object
    exit_handler: object = None
    try_node: object = None  # the ``try`` statement's node
    clauses: Tuple[Tuple[object, Handler], ...] = ()  # (entry node, clause), in order


@dataclass
class _FinallyFrame(_Frame):
    """A ``try`` (body, clauses, ``else``) with ``finally``: every way out runs a copy of
    the ``finally`` body, built once per way and shared (``copies``)."""

    kind = FrameKind.FINALLY
    stmt: Stmt
    ctx: Tuple[int, ...]
    withs: Tuple[int, ...] = ()
    copies: Dict[Way, object] = field(default_factory=dict)
    # the clause being handled where the ``try`` stands (a copy is built where a jump
    # crosses the frame, perhaps inside a clause of a ``try`` in its body)
    handling: Optional[Handler] = None


@dataclass
class _WithFrame(_Frame):
    """A ``with`` item: its ``__exit__`` runs on every way out of the body (a node on
    the ``with`` line, once per way out, like a one-line ``finally``); a suppressing
    manager's exception exit continues after the statement."""

    kind = FrameKind.WITH
    stmt: Stmt
    suppress: bool
    suppress_all: bool
    types: Tuple[str, ...]
    ctx: Tuple[int, ...]
    copies: Dict[Way, object] = field(default_factory=dict)
    swallowed: List[object] = field(default_factory=list)
    manager: Optional[Call] = None  # the item's context-manager call
    target: str = ""  # the plain name the item binds (``as f``)
    # a project manager that swallows only the types it catches (``types``): its
    # ``__exit__`` also runs before any other exception goes on
    project_narrow: bool = False
    with_id: int = 0  # its body's nodes carry it in their ``withs`` attribute
    withs: Tuple[int, ...] = ()  # the ``with`` items around the statement
    #: its exit raises nothing of its own: a lock's (``WithItem.lock``: releasing it
    #: cannot fail) and ``contextlib.suppress``'s (it only tells whether to swallow)
    quiet_exit: bool = False
    reraises: bool = False  # its exit re-raises what is being handled (``WithItem.reraises``)
    # a test's manager whose body must raise (``WithItem.expects_raise``): what the body
    # raises goes on after the statement, caught by no handler a contract reads (the
    # test expects it: nothing is lost), and a body that ends normally raises at the exit
    expects: bool = False


#: the statements whose failure, if any, the graph already shows (a ``pass``, a way out
#: of the block, a ``raise``): a test manager's body ending so needs no point that raises
_NEVER_RAISE_UNSEEN = frozenset({StmtKind.PASS, StmtKind.RETURN, StmtKind.BREAK, StmtKind.CONTINUE, StmtKind.RAISE})


def _never_raises_unseen(st: Stmt) -> bool:
    """A statement the graph shows whole: a ``pass``, a way out of the block, a
    ``raise``, or one with no call that binds literals only or is ``...`` (`saved =
    True`: a third review)."""
    if st.kind in _NEVER_RAISE_UNSEEN:
        return True
    if st.events and isinstance(st.events[-1], Call) and st.events[-1].exits:
        return True  # (`pytest.fail("no raise")`, `sys.exit(1)`: its way out is drawn)
    return st.kind == StmtKind.SIMPLE and not st.events and not st.can_raise and (
        bool(st.literals) or st.text.strip() in ("...", "Ellipsis"))


#: what a ``with`` item's manager swallows (``build``'s ``is_suppressor``): True, every
#: exception (a ``suppressor``); a tuple of exception types, only those (a project
#: manager that catches narrowly around its ``yield``, or whose ``__exit__`` returns
#: ``issubclass(exc_type, KeyError)``); False or ``()``, nothing
Catch = Union[bool, Tuple[str, ...]]


class GraphTooLarge(Exception):
    pass


MAX_NODES = 400_000


class _Builder:
    def __init__(self, fn: FunctionFacts, is_suppressor: Callable[[Call], Catch],
                 on_raise: Optional[Callable[[Call], bool]] = None,
                 on_test: Optional[Callable[[Call], bool]] = None,
                 is_guard: Optional[Callable[[Tuple[str, ...]], bool]] = None,
                 project_manager: Callable[[Call], bool] = lambda c: False,
                 on_iter: Optional[Callable[[Call], bool]] = None) -> None:
        self.fn = fn
        self.is_suppressor = is_suppressor
        self.project_manager = project_manager
        self.on_raise = on_raise
        self.on_test = on_test
        self.on_iter = on_iter
        self.is_guard = is_guard
        self.g: nx.DiGraph = nx.DiGraph(function=fn.qualname, handlers={}, tested=[], untracked=tuple(fn.untracked),
                                        tail_line=fn.tail_line, yield_at=fn.yield_at,
                                        handed=fn.handed.id if fn.handed is not None else None)
        self.counter = 0
        self.regions = 0
        self.with_ids = 0
        self.withs: Tuple[int, ...] = ()  # the ``with`` items (ids) around what is built
        self.ctx: Tuple[int, ...] = ()
        self.frames: List[_Frame] = []
        # the ``except`` clause whose block is being built (None: none, or an exception
        # of unknown type is being handled, as in a ``finally`` run by a failure)
        self.handling: Optional[Handler] = None
        # ``except*`` clauses whose block is being built: an exception raised there
        # leaves wrapped in an ``ExceptionGroup``, whatever its type
        self.star_clauses = 0
        self.g.add_node(ENTRY, kind=NodeKind.ENTRY, line=fn.span.line, text=fn.qualname, ctx=())
        self.g.add_node(EXIT, kind=NodeKind.EXIT, line=None, text="EXIT", ctx=())
        self.g.add_node(RAISE, kind=NodeKind.RAISE, line=None, text="RAISE", ctx=())

    # ---- nodes and edges

    def node(self, kind: NodeKind, span: Optional[Span], text: str, **attrs) -> int:
        self.counter += 1
        if self.counter > MAX_NODES:
            raise GraphTooLarge(self.fn.qualname)
        loops = tuple(f.head for f in self.frames if isinstance(f, _LoopFrame) and f.item)
        if loops:
            attrs["loops"] = loops  # the ``for`` loops (their heads' ``loop``) it stands in
        self.g.add_node(
            self.counter,
            kind=kind,
            line=span.line if span else None,
            span=span,
            text=text,
            ctx=self.ctx,
            withs=self.withs,
            **attrs,
        )
        return self.counter

    def connect(self, preds: Preds, target: object, back: bool = False) -> None:
        """Edges from ``preds`` to ``target``. ``back``: a loop's back edge (kind
        ``loop``); a test's outcome that ends the body there (``if x: ...`` last in a
        loop, ``if x: continue``, an ``assert``) stays on the edge as its ``outcome``, which is what
        correlated tests read (``feasible``). Two outcomes on one edge (an empty
        branch) tell nothing: ``outcome`` None."""
        for p, kind in preds:
            outcome = kind if kind in (EdgeKind.TRUE, EdgeKind.FALSE, EdgeKind.NORMAL) else None
            if back:
                kind = EdgeKind.LOOP
            if self.g.has_edge(p, target):
                data = self.g.edges[p, target]
                if data["kind"] != kind:
                    if kind == EdgeKind.EXCEPTION or data["kind"] == EdgeKind.EXCEPTION:
                        data["exception"] = True
                        if data["kind"] == EdgeKind.EXCEPTION:
                            data["kind"] = kind
                    else:
                        data["outcome"] = None  # (both ways share the edge)
                if back and data.get("outcome", outcome) != outcome:
                    data["outcome"] = None
            elif back and outcome is not None:
                self.g.add_edge(p, target, kind=kind, outcome=outcome)
            else:
                self.g.add_edge(p, target, kind=kind)

    def new_region(self) -> int:
        self.regions += 1
        return self.regions

    # ---- jumps: return / break / continue / raise, out through the frame stack

    def unwind(self, preds: Preds, way: Way) -> None:
        """Send a jump (``way``) from ``preds`` out through the frame stack, innermost
        frame first (CPython's ``compiler_unwind_fblock_stack``). Each frame's row in
        ``CROSS`` says what the jump does when it crosses the frame: it stops there
        (a loop takes ``break``/``continue``; an ``except`` frame an exception; a
        ``finally`` or ``with`` frame takes every way, into its copy for that way,
        which resumes the way out below the frame) or passes on outward. Past the
        last frame, a return reaches ``EXIT`` and an exception ``RAISE``."""
        if not preds:
            return
        for index in range(len(self.frames) - 1, -1, -1):
            frame = self.frames[index]
            if self.CROSS[frame.kind](self, frame, index, preds, way):
                return
        if way == Way.RAISE:
            self.connect(preds, RAISE)
        elif way == Way.RETURN:
            self.connect(preds, EXIT)
        # break/continue outside a loop is a SyntaxError that ast.parse let through: drop

    def _cross_loop(self, f: _LoopFrame, index: int, preds: Preds, way: Way) -> bool:
        if way == Way.BREAK:
            f.breaks.extend(preds)
            return True
        if way == Way.CONTINUE:
            self.connect(preds, f.head, back=True)
            return True
        return False

    def _cross_except(self, f: _ExceptFrame, index: int, preds: Preds, way: Way) -> bool:
        if way != Way.RAISE:
            return False
        self.connect(preds, f.first_handler)
        return True

    def _cross_finally(self, f: _FinallyFrame, index: int, preds: Preds, way: Way) -> bool:
        entry = self.finally_copy(f, index, way)
        kind = EdgeKind.EXCEPTION if way == Way.RAISE else EdgeKind.FINALLY
        self.connect([(p, kind) for p, _ in preds], entry)
        return True

    def _cross_with(self, f: _WithFrame, index: int, preds: Preds, way: Way) -> bool:
        self.connect(preds, self.with_exit(f, index, way))
        return True

    #: what a jump does when it crosses a frame: True, it stops there
    CROSS: ClassVar[Dict[FrameKind, Callable[[_Builder, Any, int, Preds, Way], bool]]] = {
        FrameKind.LOOP: _cross_loop,
        FrameKind.EXCEPT: _cross_except,
        FrameKind.FINALLY: _cross_finally,
        FrameKind.WITH: _cross_with,
    }

    def raise_from(self, node: object) -> None:
        self.unwind([(node, EdgeKind.EXCEPTION)], Way.RAISE)

    def exit_from(self, node: object) -> None:
        """``sys.exit()``'s way out: its ``SystemExit`` is no ``Exception``, so it
        passes every ``except`` frame none of whose clauses may catch it
        (``may_catch_exit``); a ``finally`` runs its copy for this way, which then
        goes on outward the same way (a probe: the exit re-raised by a ``finally``
        entered an outer ``except Exception``); so does a ``with`` item's exit, unless
        the item may swallow it (``_may_swallow_exit``: then it goes on as any exception
        does, an over-approximation, never a missed path)."""
        preds: Preds = [(node, EdgeKind.EXCEPTION)]
        for index in range(len(self.frames) - 1, -1, -1):
            frame = self.frames[index]
            if isinstance(frame, _ExceptFrame):
                if frame.exit_handler is not None:
                    self.connect(preds, frame.exit_handler)
                    return
                continue
            if isinstance(frame, _FinallyFrame):
                self.connect(preds, self.finally_copy(frame, index, Way.EXIT))
                return
            # (a test's `pytest.raises` catches no `BaseException`, nor does
            # `suppress(Exception)`: the exit passes it on, as a manager that swallows
            # nothing does; a review, session 67)
            way = Way.RAISE if isinstance(frame, _WithFrame) and _may_swallow_exit(frame) else Way.EXIT
            if self.CROSS[frame.kind](self, frame, index, preds, way):
                return
        self.connect(preds, RAISE)

    def base_raise_from(self, node: object, bases: FrozenSet[str]) -> None:
        """A re-raise of a ``SystemExit``, ``KeyboardInterrupt`` or cancellation
        (``base_only``: ``except asyncio.CancelledError: ...; raise``): it passes every
        ``except`` clause that cannot catch it (``except Exception:``), as Python does
        (held-out set 334: the walk entered an outer ``except Exception:`` and went on to
        an append, a false OC102). A ``SystemExit`` goes ``sys.exit()``'s way
        (``exit_from``), and so does a cancellation; a ``KeyboardInterrupt`` or a
        ``GeneratorExit`` goes to the first clause out of it that may catch it, through
        loops, and as any exception does once a ``finally`` or a ``with`` exit runs first
        (an over-approximation, as before)."""
        if bases <= {"SystemExit", "BaseException"}:
            # (a cancellation too: `sys.exit()`'s way passes what cannot catch it and
            # enters what may, a clause naming `SystemExit` as well: over, never under)
            self.exit_from(node)
            return
        preds: Preds = [(node, EdgeKind.EXCEPTION)]
        for index in range(len(self.frames) - 1, -1, -1):
            frame = self.frames[index]
            if isinstance(frame, _LoopFrame):
                continue
            if not isinstance(frame, _ExceptFrame):
                break
            catcher = next((entry for entry, clause in frame.clauses if may_catch_base(clause, bases)), None)
            if catcher is not None:
                self.connect(preds, catcher)
                return
        else:
            self.connect(preds, RAISE)
            return
        # (the first frame that is no `except`: from there on as any exception, not
        # from the innermost again, which would enter the clauses just passed)
        self.CROSS[frame.kind](self, frame, index, preds, Way.RAISE)  # (a `finally` or a `with`: it takes it)

    def _at(self, frames_upto: int, ctx: Tuple[int, ...], withs: Tuple[int, ...]):
        """Context manager-ish helper: run with outer frames and a given ctx."""
        saved = (self.frames, self.ctx, self.withs)
        self.frames = self.frames[:frames_upto]
        self.ctx = ctx
        self.withs = withs
        return saved

    def _restore(self, saved) -> None:
        self.frames, self.ctx, self.withs = saved

    def _no_tail(self, first: int) -> None:
        """Mark the nodes made since ``first`` (a ``finally`` body, an ``except``
        clause's) as no part of a generator's tail, wherever they stand
        (``effects.graph_effects``: what runs only on the ``next()`` that finds the
        generator exhausted)."""
        if self.fn.tail_line:
            for n in range(first + 1, self.counter + 1):
                self.g.nodes[n]["no_tail"] = True

    def finally_copy(self, f: _FinallyFrame, index: int, way: Way) -> object:
        if way in f.copies:
            return f.copies[way]
        region = self.new_region() if way == Way.RAISE else None
        saved = self._at(index, f.ctx + ((region,) if region else ()), f.withs)
        handling = self.handling
        # a bare ``raise`` there raises what the clause around the ``try`` handles, but
        # on the way of a failure, the failure in flight (of a type unknown)
        self.handling = None if way == Way.RAISE else f.handling
        entry = self.node(NodeKind.FINALLY, None, f"finally ({way})", way=way)
        f.copies[way] = entry
        if region:
            self.g.graph["handlers"][region] = HandlerRegion(
                region, RegionKind.FINALLY, entry, f.stmt.finally_span or f.stmt.span, "finally:", broad=True
            )
        first = self.counter
        ends = self.block(f.stmt.finalbody, [(entry, EdgeKind.NORMAL)])
        self._no_tail(first)  # (it also runs when the consumer leaves its loop and the generator is closed)
        if ends:
            if way == Way.RAISE:
                point = self.node(NodeKind.RERAISE, None, "re-raise")
                self.connect(ends, point)
                self.unwind([(point, EdgeKind.EXCEPTION)], Way.RAISE)
            elif way == Way.EXIT:  # the process exit goes on, past `except Exception`
                point = self.node(NodeKind.RERAISE, None, "re-raise (exit)")
                self.connect(ends, point)
                self.exit_from(point)
            else:
                self.unwind([(p, EdgeKind.FINALLY) for p, _ in ends], way)
        self._restore(saved)
        self.handling = handling
        return entry

    def with_exit(self, f: _WithFrame, index: int, way: Way) -> object:
        if way in f.copies:
            return f.copies[way]
        region = self.new_region() if way == Way.RAISE and f.suppress and not f.expects else None
        saved = self._at(index, f.ctx + ((region,) if region else ()), f.withs)
        exit_node = self._with_exit_node(f, way)
        f.copies[way] = exit_node
        if way == Way.RAISE and f.expects:
            f.swallowed.append(exit_node)
            self.unwind([(exit_node, EdgeKind.EXCEPTION)], Way.RAISE)  # (another type goes on)
        elif way == Way.RAISE:
            if region:
                broad = f.suppress_all or any(t in BROAD_TYPES for t in f.types)
                self.g.graph["handlers"][region] = HandlerRegion(
                    region, RegionKind.WITH, exit_node, f.stmt.span, f.stmt.text, types=f.types,
                    broad=broad, suppress_all=f.suppress_all,
                )
                f.swallowed.append(exit_node)
            if not f.suppress_all and region and _swallows_every_exception(f):
                # what `suppress(Exception)` lets through is no `Exception`: it passes
                # every clause that cannot catch such (held-out set 347)
                self.base_raise_from(exit_node, _NO_EXCEPTION)
            elif not f.suppress_all:
                self.unwind([(exit_node, EdgeKind.EXCEPTION)], Way.RAISE)
                if f.manager is not None and (not f.suppress or f.project_narrow):
                    # ``__exit__`` ran (and what it carries took effect) before the
                    # exception goes on: normal edges that also carry the exception,
                    # as out of a ``raised`` point; it stands outside every handler
                    # region the exception leaves (it is no way out of one)
                    targets = list(self.g.successors(exit_node))
                    for t in targets:
                        self.g.edges[exit_node, t].update(kind=EdgeKind.NORMAL, exception=True)
                    ctx = self.g.nodes[exit_node]["ctx"]
                    self.g.nodes[exit_node]["ctx"] = tuple(r for r in ctx if r == region
                                                           or all(r in self.g.nodes[t]["ctx"] for t in targets))
        elif way == Way.EXIT:
            # `sys.exit()`'s way on past `__exit__`, which passes it on (``exit_from``);
            # the exit itself may raise instead, as on any other way out
            self.exit_from(exit_node)
            if not f.quiet_exit:
                self._exit_raises(f, exit_node)
        elif f.expects:
            # a test's `pytest.raises` left by `return`/`break`/`continue`: the body
            # raised nothing, so the test fails at the exit (as at its normal end)
            self.unwind([(exit_node, EdgeKind.EXCEPTION)], Way.RAISE)
        elif f.reraises:
            # ``save_and_reraise_exception``: whatever way the body ends, the exit
            # re-raises the exception being handled, as a ``raise`` statement would
            # (docs/decisions.md "A manager that re-raises what is being handled")
            self.g.nodes[exit_node]["raise_stmt"] = True
            self.unwind([(exit_node, EdgeKind.EXCEPTION)], Way.RAISE)
        else:
            self.unwind([(exit_node, EdgeKind.FINALLY)], way)
            if not f.quiet_exit:
                # ``__exit__`` is a call: it can raise, instead of the way out going on
                self._exit_raises(f, exit_node)
        self._restore(saved)
        return exit_node

    def _exit_raises(self, f: _WithFrame, exit_node: object) -> None:
        """The exit of a ``with`` item raising. A project manager's passes a ``raised``
        point (``exit_raised``) on the way, as a call's failure does: what a generator
        did after its ``yield`` on a way that raised took effect before the exception
        goes on (``ManagerEffects.normal_raised``; a review, session 48)."""
        m = f.manager
        if m is None or not self.project_manager(m):
            self.raise_from(exit_node)
            return
        self._raised(exit_node, m, f"{m.text}  (exit raised)", exit_raised=True)

    def _with_exit_node(self, f: _WithFrame, way: Way) -> int:
        """An exit of one ``with`` item. It stands on the ``with`` line (where
        CPython reports ``__exit__``); with a manager call, its ``span`` is that
        call's (``manager``), where events carried at the exit are anchored (semantics §Contracts)."""
        n = self.node(NodeKind.WITH_EXIT, f.stmt.span, f.stmt.text, way=way, with_id=f.with_id)
        if f.target:
            self.g.nodes[n]["target"] = f.target
        if f.manager is not None:
            self.g.nodes[n]["manager"] = f.manager
        return n

    # ---- expressions

    def chain(self, seq, preds: Preds) -> Preds:
        for item in seq:
            if isinstance(item, Call):
                n = self.node(NodeKind.CALL, item.span, item.text, call=item)
                self.connect(preds, n)
                if item.exits == "os._exit":
                    preds = []
                    continue
                if item.exits == "sys.exit":
                    self.exit_from(n)
                elif self.on_raise is not None and self.on_raise(item):
                    self._raised(n, item)
                else:
                    self.raise_from(n)
                preds = [] if item.exits else [(n, EdgeKind.NORMAL)]
            elif isinstance(item, Choice):
                out: Preds = []
                for i, option in enumerate(item.options):
                    start = preds
                    if item.facts and preds:
                        # a conditional expression's branch: a point that says what its test told
                        p = self.node(NodeKind.POINT, None, "if-expression", assume={EdgeKind.NORMAL: item.facts[i]})
                        self.connect(preds, p)
                        start = [(p, EdgeKind.NORMAL)]
                    out.extend(self.chain(option, start) if option else start)
                if item.facts:
                    self.g.graph["tested"].append(tuple(sorted({f.name for told in item.facts for f in told})))
                preds = _dedupe(out)
            elif isinstance(item, RaisePoint):
                p = self.node(NodeKind.POINT, None, "may raise", **(
                    {"raising": (item.span, item.text)} if item.span is not None else {}))
                self.connect(preds, p)
                self.raise_from(p)
                preds = [(p, EdgeKind.NORMAL)]
            elif isinstance(item, Repeat):
                consumed = self._consumed(preds, item.iter_call)
                r = self.node(NodeKind.POINT, None, "comprehension")
                self.connect(preds, r)
                ends = self.chain(item.body, [(r, EdgeKind.NORMAL)])
                self.connect(ends, r, back=True)
                preds = [(r, EdgeKind.NORMAL)]
                if consumed is not None:  # (its generator's tail, once the rounds find it exhausted)
                    x = self.node(NodeKind.EXHAUSTED, consumed.span, f"{consumed.text}  (exhausted)", call=consumed)
                    self.g.nodes[x]["line"] = None
                    self.connect(preds, x)
                    preds = [(x, EdgeKind.NORMAL)]
        return preds

    def _raised(self, n: object, call: Call, text: str = "", **attrs) -> None:
        """A callee's on-raise effects (semantics §Events Summaries): a point on the call's
        exceptional edges, between the call and the handlers it raises into. What it
        carries took effect, so its edges onward are normal edges that also carry
        the exception (``exception=True``); it stands outside every handler region
        the exception leaves. (Also a project manager's exit that raised: ``_exit_raises``.)"""
        p = self.node(NodeKind.RAISED, call.span, text or f"{call.text}  (raised)", call=call, **attrs)
        self.g.nodes[p]["line"] = None
        self.connect([(n, EdgeKind.EXCEPTION)], p)
        self.unwind([(p, EdgeKind.EXCEPTION)], Way.RAISE)
        targets = list(self.g.successors(p))
        for t in targets:
            self.g.edges[p, t].update(kind=EdgeKind.NORMAL, exception=True)
        self.g.nodes[p]["ctx"] = tuple(r for r in self.ctx if all(r in self.g.nodes[t]["ctx"] for t in targets))

    def _outcomes(self, st: Stmt, ends: Preds) -> Tuple[Preds, Preds]:
        """The true and false ways out of an ``if``/``while`` test. When the test is
        one call (alone or under ``not``) whose callee has conditional effects, each
        branch gets a point carrying what the callee performed when it returned the
        value that flows there (``value`` attribute). So does the last operand of an
        ``and``/``or`` test (docs/decisions.md), whose skipped evaluation goes to the one
        branch it decides: false for ``and``, true for ``or``."""
        t: Preds = [(p, EdgeKind.TRUE) for p, _ in ends]
        f: Preds = [(p, EdgeKind.FALSE) for p, _ in ends]
        for p, _ in ends:  # a call deciding the test: a witness shows the header there
            if self.g.nodes[p].get("kind") == NodeKind.POINT and "raising" in self.g.nodes[p]:
                # (`if 1 < f(k):`: the comparison's raise point after the call decides
                # it; held-out set 285, the branch step was lost)
                self.g.nodes[p]["header"] = st.text
                self.g.nodes[p]["header_span"] = st.header_span or st.span
            if self.g.nodes[p].get("kind") == NodeKind.CALL:
                self.g.nodes[p]["header"] = st.text
                if st.header_span is not None and getattr(self.g.nodes[p].get("call"), "id", None) != st.test_call:
                    # (the last call of a comparison, `while len(a) + len(b) < n:`, does
                    # not decide the test: the branch step covers the header; held-out
                    # set 104. A call that is the whole test keeps its own range)
                    self.g.nodes[p]["header_span"] = st.header_span
        if st.test_call is None or self.on_test is None:
            return t, f
        tested = [p for p, _ in ends if self.g.nodes[p].get("kind") == NodeKind.CALL
                  and getattr(self.g.nodes[p].get("call"), "id", None) == st.test_call]
        skipped = [e for e in ends if e[0] not in tested]
        if st.test_chain in ("first-and", "first-or"):
            if len(tested) != 1 or skipped:
                return t, f
            return self._first_operand(st, tested[0], self.g.nodes[tested[0]]["call"])
        if len(tested) != 1 or (skipped and st.test_chain is None) or (st.test_chain and not skipped):
            return t, f
        n = tested[0]
        call = self.g.nodes[n]["call"]
        skip_true = (st.test_chain == "or") != st.test_negated
        if not self.on_test(call):
            if not skipped:
                return t, f
            # `if A and f():` the true branch ran f (Python's short circuit, exactly):
            # the walks that skipped it go to the branch A decided alone
            t = [(n, EdgeKind.TRUE)] + ([(p, EdgeKind.TRUE) for p, _ in skipped] if skip_true else [])
            f = [(n, EdgeKind.FALSE)] + ([] if skip_true else [(p, EdgeKind.FALSE) for p, _ in skipped])
            return t, f
        out: List[Preds] = []
        for kind in (EdgeKind.TRUE, EdgeKind.FALSE):
            value = ((kind == EdgeKind.TRUE) != st.test_negated) != st.test_operand_negated
            p = self.node(NodeKind.OUTCOME, call.span, f"{call.text}  (returned {value})", call=call, value=value)
            self.g.nodes[p]["line"] = None
            self.connect([(n, kind)], p)
            out.append([(p, EdgeKind.NORMAL)])
        if skipped:
            # `A and f()` with f not called: A was false, so is the test (`or`: true)
            out[0 if skip_true else 1].extend((p, EdgeKind.TRUE if skip_true else EdgeKind.FALSE) for p, _ in skipped)
        return out[0], out[1]

    def _first_operand(self, st: Stmt, n: object, call: Call) -> Tuple[Preds, Preds]:
        """``if f() or A:`` (``A`` without events): the outcome point where ``f()``
        decided the test alone goes to the branch it decides (true for ``or``, false for
        ``and``); the other outcome point to both branches, as ``A`` decides. Each
        point carries what the callee performed when it returned that value, as for a
        call that is the whole test. What the test tells about plain names
        (``_decide``) holds on the final branches only: the call's own edges carry the
        branch's facts where it decides alone, none where ``A`` still does; where ``A``
        decides, its own facts (``Stmt.operand_facts``) hold each way."""
        if self.on_test is None or not self.on_test(call):
            return [(n, EdgeKind.TRUE)], [(n, EdgeKind.FALSE)]
        decides = st.test_chain == "first-or"  # the operand value that decides the test
        facts = self.g.nodes[n].get("assume")
        t: Preds = []
        f: Preds = []
        for value in (True, False):
            operand = value != st.test_operand_negated  # (`not f() or A`)
            p = self.node(NodeKind.OUTCOME, call.span, f"{call.text}  (returned {value})", call=call, value=value)
            self.g.nodes[p]["line"] = None
            if operand == decides:
                branch = decides != st.test_negated  # the test's value, under a `not` of it
                kind = EdgeKind.TRUE if branch else EdgeKind.FALSE
                self.connect([(n, kind)], p)
                (t if branch else f).append((p, EdgeKind.NORMAL))
            else:
                self.connect([(n, EdgeKind.NORMAL)], p)
                self.g.nodes[p]["header"] = st.text
                # (here `A` decides the test: what it tells alone, each way; a review:
                # `f() and dry` false after `f()` returned True means `dry` is falsy)
                a_true, a_false = st.operand_facts
                told = {EdgeKind.TRUE: a_false if st.test_negated else a_true,
                        EdgeKind.FALSE: a_true if st.test_negated else a_false}
                if a_true or a_false:
                    self.g.nodes[p]["assume"] = told
                t.append((p, EdgeKind.TRUE))
                f.append((p, EdgeKind.FALSE))
        if facts:
            # (the call's own edges: the facts of the branch it decides, nothing more)
            self.g.nodes[n]["assume"] = {k: v for k, v in facts.items() if (k == EdgeKind.TRUE) == (decides != st.test_negated)}
        return t, f

    def _guarded(self, st: Stmt, t: Preds, f: Preds) -> Tuple[Preds, Preds]:
        """An idempotency guard (docs/decisions.md): the branch on which the test says the
        record has not ended starts at a ``guard`` point, which ``at-most-once`` does
        not pass and summaries count as "behind a guard"."""
        if not st.guard_runs or self.is_guard is None:
            return t, f
        opens = {o for run, o in zip(st.guard_runs, st.guard_open) if self.is_guard(run)}
        if len(opens) != 1:
            return t, f
        on_true = opens.pop()
        preds = t if on_true else f
        if not preds:
            return t, f
        p = self.node(NodeKind.POINT, None, "guard: not ended", guard=True)
        self.connect(preds, p)
        return ([(p, EdgeKind.NORMAL)], f) if on_true else (t, [(p, EdgeKind.NORMAL)])

    # ---- statements: one row of ``STMT`` and one method per ``StmtKind``

    def block(self, stmts: List[Stmt], preds: Preds) -> Preds:
        for st in stmts:
            if not preds:
                break  # unreachable code has no nodes
            preds = self.stmt(st, preds)
        return preds

    def stmt(self, st: Stmt, preds: Preds) -> Preds:
        """A statement's node (where it starts), then what its kind's row builds from
        there; the ways out of the statement."""
        handler = self.STMT.get(st.kind)
        if handler is None:
            # a statement kind nobody handles must not pass silently as a simple one
            raise ValueError(f"cfg: no handler for the statement kind {st.kind!r}")
        marks = _marks(st)
        late = st.kind == StmtKind.SIMPLE and bool(st.events) and "writes" in marks
        if late:
            # an assignment binds its targets once its calls returned: the names go on
            # the statement's last nodes (``_simple``), so an exception out of a call
            # leaves them as they were (correlated tests); a walrus binds at once
            early = marks.pop("early_writes", ())
            marks.pop("writes")
            literals = marks.pop("literals", ())
            if early:
                marks["writes"] = early
        node = self.node(NodeKind.STMT, st.span, st.text, stmt=st.kind, **marks)
        self.connect(preds, node)
        ends = handler(self, st, node)
        if late:
            for e, _ in ends:
                data = self.g.nodes[e]
                data["writes"] = tuple(dict.fromkeys(tuple(data.get("writes", ())) + st.writes))
                if literals:
                    data["literals"] = tuple(data.get("literals", ())) + tuple(literals)
        return ends

    def _may_raise(self, st: Stmt, node: object) -> None:
        """A statement whose non-call parts can raise (attribute access, subscript,
        import, ``del``, ...) raises from its own node. (``raise``, ``assert`` and
        ``for`` raise from points of their own; ``class`` and ``with`` always raise.)"""
        if st.can_raise:
            self.raise_from(node)

    def _simple(self, st: Stmt, node: object) -> Preds:
        self._may_raise(st, node)
        ends = self.chain(st.events, [(node, EdgeKind.NORMAL)])
        if st.yields and self.fn.context_manager and ends:
            # a context manager's ``yield``: the ``with`` body runs here, and its
            # exception is thrown in at this point
            consumed = self._consumed(ends, st.iter_call)
            y = self.node(NodeKind.YIELD, None, "yield")
            self.connect(ends, y)
            self.raise_from(y)
            ends = [(y, EdgeKind.NORMAL)]
            if consumed is not None:
                # `yield from self._inner(run)`: the delegated generator's tail runs
                # when the `with` body is done, at the manager's exit (a review)
                x = self.node(NodeKind.EXHAUSTED, consumed.span, f"{consumed.text}  (exhausted)", call=consumed)
                self.g.nodes[x]["line"] = None
                self.connect(ends, x)
                ends = [(x, EdgeKind.NORMAL)]
        elif st.yields and self.fn.tail_line:
            # a generator's ``yield``: its consumer gets control back here, so what
            # ran before it has run at the call even if the body never ends (``while
            # True:``; held-out set 128): ``effects.graph_effects`` counts these ends
            # as ways back, as EXIT is one
            for n, _ in ends:
                self.g.nodes[n]["yields"] = True
            consumed = self._consumed(ends, st.iter_call)
            if consumed is not None:
                # `yield from self._rows(run)`: the delegated generator runs to its end
                # here, its tail after its last `yield` (session 65's note), as a
                # `for` over it finds it exhausted
                x = self.node(NodeKind.EXHAUSTED, consumed.span, f"{consumed.text}  (exhausted)", call=consumed)
                self.g.nodes[x]["line"] = None
                self.connect(ends, x)
                ends = [(x, EdgeKind.NORMAL)]
        return ends

    def _class(self, st: Stmt, node: object) -> Preds:
        self.raise_from(node)
        return self.block(st.body, self.chain(st.events, [(node, EdgeKind.NORMAL)]))

    def _return(self, st: Stmt, node: object) -> Preds:
        self._may_raise(st, node)
        if st.returns is not None:
            self.g.nodes[node]["returns"] = st.returns
        self.unwind(self.chain(st.events, [(node, EdgeKind.NORMAL)]), Way.RETURN)
        return []

    def _raise(self, st: Stmt, node: object) -> Preds:
        start: Preds = [(node, EdgeKind.NORMAL)]
        ends = self.chain(st.events, start)
        if ends:
            point = node if ends == start else self._point(ends, "raise")
            self.g.nodes[point]["raise_stmt"] = True
            bases = base_only(self.handling) if st.reraise and self.handling is not None and not self.star_clauses else None
            if bases is not None:
                self.base_raise_from(point, bases)
                return []
            if st.reraise and self.handling is not None and not self.handling.bare and not self.star_clauses:
                self._typed_raise(point, self.handling)
            self.unwind([(point, EdgeKind.EXCEPTION)], Way.RAISE)
        return []

    def _typed_raise(self, point: object, inner: Handler) -> None:
        """A ``raise`` of the exception an ``except T:`` clause handles raises a ``T``:
        an enclosing ``except T:`` (or a clause naming a built-in base class of every
        type, or a broad one) surely catches it, so the walk never goes past that clause
        as if it did not match (held-out set 89, fastmcp: ``except TokenError: raise``
        walked on past an outer ``except TokenError:`` into a silent ``except
        Exception:``). The edges stay as they are (every other failure shares them); the
        walk is pruned as correlated tests are (``feasible``), by a name no code can
        write: leaving the point by its exception says it holds, leaving the catching
        clause's entry as "does not match" says it does not, and entering the body of
        that clause or of one before it forgets it (``forgets``: the exception is
        handled there, so the fact copies no node past the clauses). Only the first
        ``try`` out of the point counts, when no
        ``finally`` or ``with`` exit runs before it (their exits run code that may
        raise another exception)."""
        for frame in reversed(self.frames):
            if isinstance(frame, _LoopFrame):
                continue
            if not isinstance(frame, _ExceptFrame) or frame.try_node is None:
                return
            for entry, clause in frame.clauses:
                if clause_catches(clause, inner):
                    if clause.broad:
                        return  # (the chain ends there anyway)
                    name = f"<raised {self.g.nodes[entry]['region']}>"
                    self.g.nodes[point].setdefault("assume", {})[EdgeKind.EXCEPTION] = (Fact(name, "truth", True),)
                    self.g.nodes[entry].setdefault("assume", {})[EdgeKind.EXCEPTION] = (Fact(name, "truth", False),)
                    for before, _ in frame.clauses:
                        node = self.g.nodes[before]
                        if name not in node.get("forgets", ()):
                            node["forgets"] = tuple(node.get("forgets", ())) + (name,)
                        if before == entry:
                            break
                    self.g.graph["tested"].extend([(name,), (name,)])
                    return
            return

    def _assert(self, st: Stmt, node: object) -> Preds:
        start: Preds = [(node, EdgeKind.NORMAL)]
        ends = self.chain(st.events, start)
        point = node if ends == start else self._point(ends, "assert")
        if ends:
            # with a message the test's outcome is a branch; without, it raises or not
            yes, no = (EdgeKind.TRUE, EdgeKind.FALSE) if st.message else (EdgeKind.NORMAL, EdgeKind.EXCEPTION)
            self._decide([(point, EdgeKind.NORMAL)], st, yes, no)
        if st.message:  # the message runs only when the test fails, then it raises
            failed = self.chain(st.message, [(point, EdgeKind.FALSE)])
            if failed:
                self.raise_from(self._point(failed, "raise"))
            return [(point, EdgeKind.TRUE)]
        self.raise_from(point)
        return [(point, EdgeKind.NORMAL)] if ends else []

    def _break(self, st: Stmt, node: object) -> Preds:
        self._may_raise(st, node)
        self.unwind([(node, EdgeKind.NORMAL)], Way.BREAK)
        return []

    def _continue(self, st: Stmt, node: object) -> Preds:
        self._may_raise(st, node)
        self.unwind([(node, EdgeKind.NORMAL)], Way.CONTINUE)
        return []

    def _if(self, st: Stmt, node: object) -> Preds:
        self._may_raise(st, node)
        ends = self.chain(st.events, [(node, EdgeKind.NORMAL)])
        self._decide(ends, st)
        t_preds, f_preds = self._guarded(st, *self._outcomes(st, ends))
        t = self.block(st.body, [] if st.never else t_preds)  # (`if False:`: never true)
        f = self.block(st.orelse, [] if st.infinite else f_preds)  # (`if True:`: never false)
        return t + f

    def _while(self, st: Stmt, node: object) -> Preds:
        self._may_raise(st, node)
        ends = self.chain(st.events, [(node, EdgeKind.NORMAL)])
        self._decide(ends, st)
        t_preds, f_preds = self._guarded(st, *self._outcomes(st, ends))
        breaks = self._loop_body(node, st.body, [] if st.never else t_preds)
        false_preds = [] if st.infinite else f_preds
        return self.block(st.orelse, false_preds) + breaks

    def _for(self, st: Stmt, node: object) -> Preds:
        ends = self.chain(st.events, [(node, EdgeKind.NORMAL)])
        if not ends:
            return []
        head = self.node(NodeKind.LOOP, st.span, st.text, **_marks(st, head=True))
        self.g.nodes[head]["loop"] = head  # kept by copies of the node (feasible's product)
        into: Preds = [(head, EdgeKind.TRUE)]
        if st.first_item:
            # (``for h in (a, b):`` takes an item at its first test: that test is a head
            # of its own with no way out, the rounds after it come back to ``head``)
            first = self.node(NodeKind.LOOP, st.span, st.text, **_marks(st, head=True))
            self.g.nodes[first]["loop"] = head
            self.connect(ends, first)
            self.raise_from(first)  # (binding the item may raise: `for a, b in (pair,):`)
            into.append((first, EdgeKind.TRUE))
        else:
            self.connect(ends, head)
        self.raise_from(head)
        breaks = self._loop_body(head, st.body, [] if st.never else into, item=True)
        return self.block(st.orelse, self._exhausted(st, ends, head)) + breaks

    def _consumed(self, preds: Preds, call_id: Optional[int]) -> Optional[Call]:
        """The call of a generator with a tail (``on_iter``) that is a comprehension's
        whole first iterable, standing just before its rounds (``Repeat.iter_call``):
        marked ``consumed`` (its tail is no longer its call's), as ``_exhausted`` marks
        a ``for`` statement's."""
        if call_id is None or self.on_iter is None:
            return None
        at = [p for p, _ in preds if getattr(self.g.nodes[p].get("call"), "id", None) == call_id
              and self.g.nodes[p].get("kind") == NodeKind.CALL]
        if len(at) != 1 or not self.on_iter(self.g.nodes[at[0]]["call"]):
            return None
        self.g.nodes[at[0]]["consumed"] = True
        return self.g.nodes[at[0]]["call"]

    def _exhausted(self, st: Stmt, ends: Preds, head: object) -> Preds:
        """A ``for`` whose iterable is a call of a generator with a tail (``on_iter``):
        the ``next()`` that finds it exhausted runs what the generator does after its
        last ``yield``, so the loop's way out, not its breaks, passes an ``exhausted``
        point that carries it (its call no longer does: ``effects.node_sets``)."""
        out: Preds = [(head, EdgeKind.FALSE)]
        if st.iter_call is None or self.on_iter is None:
            return out
        call = next((c for c in st.events if isinstance(c, Call) and c.id == st.iter_call), None)
        if call is None or not self.on_iter(call):
            return out
        at = [p for p, _ in ends if getattr(self.g.nodes[p].get("call"), "id", None) == call.id
              and self.g.nodes[p].get("kind") == NodeKind.CALL]
        if len(at) != 1:
            return out
        self.g.nodes[at[0]]["consumed"] = True
        x = self.node(NodeKind.EXHAUSTED, call.span, f"{call.text}  (exhausted)", call=call)
        self.g.nodes[x]["line"] = None
        self.connect(out, x)
        return [(x, EdgeKind.NORMAL)]

    def _loop_body(self, head: object, body: List[Stmt], preds: Preds, item: bool = False) -> Preds:
        """A loop's body under a loop frame, its ends back to ``head``; its breaks."""
        loop = _LoopFrame(head, item=item)
        self.frames.append(loop)
        body_ends = self.block(body, preds)
        self.connect(body_ends, head, back=True)
        self.frames.pop()
        return loop.breaks

    def _decide(self, ends: Preds, st: Stmt, yes: EdgeKind = EdgeKind.TRUE, no: EdgeKind = EdgeKind.FALSE) -> None:
        """Correlated tests (semantics §Contracts): the nodes the test's outcome leaves from say,
        per out-edge kind, what the outcome tells about plain names."""
        if not (st.true_facts or st.false_facts):
            return
        for p, _ in ends:
            self.g.nodes[p]["assume"] = {yes: st.true_facts, no: st.false_facts}
        names = {f.name for f in st.true_facts + st.false_facts}
        self.g.graph["tested"].append(tuple(sorted(names)))

    def _point(self, ends: Preds, what: str) -> object:
        point = self.node(NodeKind.POINT, None, what)
        self.connect(ends, point)
        return point

    def _try(self, st: Stmt, node: object) -> Preds:
        self._may_raise(st, node)
        outer_ctx = self.ctx
        fin = None
        if st.has_finally:
            fin = _FinallyFrame(st, outer_ctx, self.withs, handling=self.handling)
            self.frames.append(fin)
        entries = []
        for h in st.handlers:
            region = self.new_region()
            self.ctx = outer_ctx + (region,)
            e = self.node(NodeKind.HANDLER, h.span, h.text, region=region, **({"writes": (h.name,)} if h.name else {}))
            self.g.graph["handlers"][region] = HandlerRegion(
                region, RegionKind.EXCEPT, e, h.span, h.text, types=h.types, bare=h.bare, broad=h.broad
            )
            entries.append((e, region, h))
        self.ctx = outer_ctx
        if entries:
            catcher = next((e for e, _, h in entries if may_catch_exit(h)), None)
            self.frames.append(_ExceptFrame(entries[0][0], catcher, node, tuple((e, h) for e, _, h in entries)))
        body_ends = self.block(st.body, [(node, EdgeKind.NORMAL)])
        if entries:
            self.frames.pop()
        ends = self.block(st.orelse, body_ends)
        # the handler chain: an unmatched exception tries the next clause, then leaves
        for i, (e, region, h) in enumerate(entries):
            if h.broad:
                break
            if i + 1 < len(entries):
                self.connect([(e, EdgeKind.EXCEPTION)], entries[i + 1][0])
            else:
                self.unwind([(e, EdgeKind.EXCEPTION)], Way.RAISE)
        for i, (e, region, h) in enumerate(entries):
            onward = st.star and i + 1 < len(entries)
            if onward:
                # ``except*``: an exception raised in a clause is kept for the end, and
                # the rest of the group still tries the later clauses; the point leaves
                # by a normal edge to the next clause (which does not catch what was
                # raised) and by an exceptional one outward (raised after the clauses)
                self.ctx = outer_ctx
                kept = self.node(NodeKind.POINT, None, "raised in an except* clause: the rest of the group goes on")
                self.g.add_edge(kept, entries[i + 1][0], kind=EdgeKind.NORMAL)
                self.unwind([(kept, EdgeKind.EXCEPTION)], Way.RAISE)
                self.frames.append(_ExceptFrame(kept, None))
            self.ctx = outer_ctx + (region,)
            handling, self.handling = self.handling, (None if st.star else h)
            self.star_clauses += st.star
            first = self.counter
            body_ends = self.block(h.body, [(e, EdgeKind.NORMAL)])
            self._no_tail(first)  # (held to the contract's reading: docs/decisions.md "A generator's tail")
            self.star_clauses -= st.star
            self.handling = handling
            if onward:
                self.frames.pop()
            if st.star and body_ends:
                # ``except*``: the rest of the group tries the next clause; after the
                # last, what no clause matched is raised again (or nothing is left)
                if i + 1 < len(entries):
                    self.connect(body_ends, entries[i + 1][0])
                else:
                    rest = self._point(body_ends, "raise the rest of the group")
                    self.unwind([(rest, EdgeKind.EXCEPTION)], Way.RAISE)
            ends = ends + body_ends
        self.ctx = outer_ctx
        if st.star:
            # a later clause that matches nothing, once an earlier one took the whole
            # group: nothing is left, and the statement completes (the exception is no
            # longer in flight; over-approximated: also when no clause ran)
            for e, region, h in entries[1:]:
                left = self.node(NodeKind.POINT, None, "nothing left of the group")
                self.g.add_edge(e, left, kind=EdgeKind.EXCEPTION)
                ends = ends + [(left, EdgeKind.NORMAL)]
        if fin is not None:
            self.frames.pop()
            if ends:
                first = self.counter
                ends = self.block(st.finalbody, ends)
                self._no_tail(first)
        return ends

    def _with(self, st: Stmt, node: object) -> Preds:
        preds: Preds = [(node, EdgeKind.NORMAL)]
        pushed: List[_WithFrame] = []
        self.raise_from(node)
        outer_withs = self.withs
        for item in st.items:
            preds = self.chain(item.events, preds)
            m = item.manager
            caught: Catch = self.is_suppressor(m) if m is not None else False
            suppress_all = caught is True
            narrow = isinstance(caught, tuple) and bool(caught)
            known = m is not None and m.suppress_types is not None and is_contextlib_suppress(m)
            types: Tuple[str, ...] = ()
            if isinstance(caught, tuple) and narrow:
                types = caught
            elif known and m is not None:
                types = m.suppress_types or ()
            # (a project's own `assertRaises` is its manager, read as such: a review)
            expects = item.expects_raise and not suppress_all and not narrow and not (
                m is not None and self.project_manager(m))
            suppress = suppress_all or known or narrow or expects
            self.with_ids += 1
            w = _WithFrame(st, suppress, suppress_all, types, self.ctx, manager=m, target=item.target, with_id=self.with_ids,
                           withs=self.withs, project_narrow=narrow,
                           # (a project manager named like a lock runs its own exit code;
                           # `contextlib.suppress`'s exit only tells whether to swallow:
                           # it raises nothing of its own, held-out set 347)
                           quiet_exit=(item.lock or known) and not (m is not None and self.project_manager(m)),
                           reraises=item.reraises, expects=expects)
            if m is not None:
                for p, _ in preds:
                    # by id, not identity: facts read back from the cache hold the
                    # manager and the same call in ``events`` as two equal objects
                    c = self.g.nodes[p].get("call")
                    if c is not None and c.id == m.id:
                        self.g.nodes[p]["with_id"] = w.with_id  # the manager's entry
            self.frames.append(w)
            pushed.append(w)
            # what follows (later items, the body) runs inside this item
            self.withs = self.withs + (w.with_id,)
        last = st.body[-1] if st.body else None
        if any(w.expects for w in pushed) and last is not None and not _never_raises_unseen(last):
            # the body raises (the test says so), even where the graph sees nothing that
            # can (`total / 0`, a name): its last statement may, after the others ran
            # (two reviews: what follows was unreachable, then a save before it lost)
            ends = self.block(st.body[:-1], preds)
            if ends:
                point = self.node(NodeKind.POINT, None, "the body's last statement raises")
                self.connect(ends, point)
                self.unwind([(point, EdgeKind.EXCEPTION)], Way.RAISE)
            ends = self.block([last], ends)
        else:
            ends = self.block(st.body, preds)
        for w in reversed(pushed):
            self.frames.pop()
            self.withs = w.withs
            if ends:
                exit_node = self._with_exit_node(w, Way.NORMAL)
                self.connect(ends, exit_node)
                if w.reraises:  # (``with_exit``)
                    self.g.nodes[exit_node]["raise_stmt"] = True
                    self.raise_from(exit_node)
                    ends = []
                elif w.expects:  # the test fails: ``AssertionError`` out of the exit
                    self.raise_from(exit_node)
                    ends = []
                else:
                    if not w.quiet_exit:  # (a lock's release is all its exit does; `suppress`'s decides)
                        self._exit_raises(w, exit_node)  # ``__exit__`` is a call: it can raise (semantics §Graph)
                    ends = [(exit_node, EdgeKind.NORMAL)]
            ends = ends + [(n, EdgeKind.NORMAL) for n in w.swallowed]
        self.withs = outer_withs
        return ends

    def _match(self, st: Stmt, node: object) -> Preds:
        self._may_raise(st, node)
        preds = self.chain(st.events, [(node, EdgeKind.NORMAL)])
        out: Preds = []
        for case in st.cases:
            if not preds:
                break
            c = self.node(NodeKind.CASE, case.span, case.text)
            if case.header_span is not None:
                self.g.nodes[c]["header_span"] = case.header_span
            self.connect(preds, c)
            g_ends = self.chain(case.guard, [(c, EdgeKind.TRUE)])
            if case.always and not case.guard:
                out += self.block(case.body, [(c, EdgeKind.TRUE)])
                preds = []
                break
            guard_true = [(p, EdgeKind.TRUE) for p, _ in g_ends] if case.guard else g_ends
            out += self.block(case.body, guard_true)
            nxt: Preds = []
            # the case node's false branch: its pattern fails (a capture or wildcard
            # with a guard never does: it always runs the guard, and only the guard can
            # fail), or a guard without calls is false
            pattern_fails = not (case.irrefutable if case.guarded else case.always)
            if pattern_fails or (case.guarded and not case.guard):
                nxt.append((c, EdgeKind.FALSE))
            if case.guard:  # the guard's last call node is false
                nxt += [(p, EdgeKind.FALSE) for p, _ in g_ends]
            preds = nxt
        return out + preds

    #: one row per statement kind: the method that builds it from its node
    STMT: ClassVar[Dict[str, Callable[[_Builder, Stmt, Any], Preds]]] = {
        StmtKind.SIMPLE: _simple,
        StmtKind.PASS: _simple,
        StmtKind.CLASS: _class,
        StmtKind.RETURN: _return,
        StmtKind.RAISE: _raise,
        StmtKind.ASSERT: _assert,
        StmtKind.BREAK: _break,
        StmtKind.CONTINUE: _continue,
        StmtKind.IF: _if,
        StmtKind.WHILE: _while,
        StmtKind.FOR: _for,
        StmtKind.TRY: _try,
        StmtKind.WITH: _with,
        StmtKind.MATCH: _match,
    }


def _marks(st: Stmt, head: bool = False) -> dict:
    """Node attributes of a statement for correlated tests and handing on: the names it
    rebinds or changes (a ``for``'s on its loop head, rebound each round) and the
    handlers whose exception it hands on."""
    out: dict = {}
    if (st.kind == StmtKind.FOR) == head:
        if st.writes:
            out["writes"] = st.writes
            if st.early_writes:
                out["early_writes"] = st.early_writes
            if st.literals:
                out["literals"] = st.literals
        if st.mutates:
            out["mutates"] = st.mutates
    if st.hands_on and not head:
        out["hands_on"] = st.hands_on
    if st.header_span is not None:
        out["header_span"] = st.header_span  # (a branch step's range: ``diagnose``)
    return out


def _dedupe(preds: Preds) -> Preds:
    seen = set()
    out = []
    for p in preds:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def normal_first(g: nx.DiGraph) -> nx.DiGraph:
    """Each node's successors (and predecessors) with the normal edges before the
    exceptional ones, so every breadth-first search over ``g`` (the witness's shortest
    paths) takes a normal way where an exceptional one is no shorter: on a tie the
    witness shows the path that did not fail (held-out set 59: breezy's
    ``put_bytes`` went through a raising ``_abspath`` and its handler, as long as
    the path that did not raise). What a check finds does not depend on the order."""
    late: List[Tuple[object, object, dict]] = []
    for u, nbrs in g.adjacency():
        seen_exc = False
        for v, d in nbrs.items():
            if d["kind"] == EdgeKind.EXCEPTION or d.get("exception"):
                seen_exc = True
            elif seen_exc:  # a normal edge after an exceptional one
                late.extend((u, w, e) for w, e in nbrs.items() if e["kind"] == EdgeKind.EXCEPTION or e.get("exception"))
                break
    if late:
        g.remove_edges_from([(u, v) for u, v, _ in late])
        g.add_edges_from((u, v, dict(d)) for u, v, d in late)
    return g


def build(fn: FunctionFacts, is_suppressor: Callable[[Call], Catch] = lambda c: False,
          on_raise: Optional[Callable[[Call], bool]] = None,
          on_test: Optional[Callable[[Call], bool]] = None,
          is_guard: Optional[Callable[[Tuple[str, ...]], bool]] = None,
          around: Optional[Call] = None,
          project_manager: Callable[[Call], bool] = lambda c: False,
          on_iter: Optional[Callable[[Call], bool]] = None) -> nx.DiGraph:
    """The control-flow graph of one function (semantics §Graph). ``on_raise(call)`` true: the
    call's exceptional edges pass a ``raised`` point (its callee's on-raise effects);
    ``on_test(call)`` true for the call that is a whole ``if``/``while`` test: each
    branch starts with an ``outcome`` point (its conditional effects). ``around``: a
    decorator that runs the whole body inside a context manager
    (``@transaction.atomic``): the body is built as a ``with`` over it.
    ``project_manager(call)``: the ``with`` item enters a project context manager (its
    own exit code runs, so a lock's name does not exempt its exit from raising)."""
    b = _Builder(fn, is_suppressor, on_raise, on_test, is_guard, project_manager, on_iter)
    body = fn.body
    if around is not None:
        body = [Stmt(StmtKind.WITH, around.span, around.text, items=[WithItem([around], around)], body=body)]
    first = b.counter + 1
    ends = b.block(body, [(ENTRY, EdgeKind.NORMAL)])
    b.connect(ends, EXIT)
    if around is not None:
        # the decorator's entry and exits run in the caller's frame: no line of the
        # function's own is executed for them (they keep their span, for anchors)
        for n, d in b.g.nodes(data=True):
            if n == first or d.get("call") is around or (d["kind"] == NodeKind.WITH_EXIT and d.get("with_id") == 1):
                d["line"] = None
    return normal_first(b.g)


def cut_dead_ends(g: nx.DiGraph, classes: Dict[object, FrozenSet[str]]) -> nx.DiGraph:
    """A call whose callee never returns (the ``no-return`` mark of its summary: the
    callee's graph has no path to EXIT, only to RAISE) goes on only by its
    exceptional edges: a walk past it is no walk Python can take (semantics §Graph,
    "edges follow Python exactly"; docs/decisions.md "A helper that never returns").
    Every contract reads the graph cut so: a ``then`` that only such a call follows
    reaches only RAISE, and a path that needs the call to return is not a path."""
    for n, cls in classes.items():
        if NO_RETURN not in cls or n not in g:
            continue
        for t in list(g.successors(n)):
            data = g.edges[n, t]
            if data.get("kind") == EdgeKind.EXCEPTION:
                continue
            if data.get("exception"):
                data["kind"] = EdgeKind.EXCEPTION  # (a normal way that also carried the exception)
                del data["exception"]
            else:
                g.remove_edge(n, t)
    return g
