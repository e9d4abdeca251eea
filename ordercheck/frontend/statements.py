"""The statement walk: a function's body as the IR's statement tree (``ir.Stmt``).

``Extractor.handlers`` is the one table from a libcst statement node type to the
method that makes its ``Stmt`` (the way pyflakes dispatches with
``getNodeHandler``). A small statement nobody lists (``TypeAlias`` and anything newer)
is a ``simple`` statement evaluating its children in order; a compound statement
nobody lists is a loud error, never a statement that vanishes from the graph. Each
function being walked is one ``FunctionScope`` on ``frames``: pushed where its body
starts, popped where its ``FunctionFacts`` is made. Huge functions and the module
body arrive in chunks (``source``), each parsed and walked with its own positions.
"""
from __future__ import annotations

import ast
import builtins as builtins_module
import re
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from .. import lazy
from .. import scopes as scopesmod
from ..ir import (
    BROAD_TYPES,
    Call,
    Case,
    Choice,
    ClassFacts,
    ExprSeq,
    FileFacts,
    FunctionFacts,
    Handler,
    RaisePoint,
    Span,
    Stmt,
    WithItem,
    holds_handler,
    returned_wrapper,
    runs_first_param,
    utf16_col,
)
from ..kinds import StmtKind
from ..markers import MarkerWalk, split_tokens
from .expressions import (
    RUNNING_HANDLER,
    ExpressionWalker,
    _holds_call,
    bound_names,
    has_yield,
    header_colon,
    render_callee,
    target_names,
    unwritten,
    walrus_targets,
)
from .imports import module_table
from .positions import children
from .resolution import (
    CONTEXT_MANAGER_DECORATORS,
    METHOD_DECORATOR,
    ClassScope,
    FunctionScope,
    expecting_manager,
    flag_annotation,
    is_lock,
    on_method,
    rebinds,
    reraising_manager,
)
from .source import HugeDef

if TYPE_CHECKING:  # the real modules, for the type checker
    import libcst as cst
else:
    cst = lazy.module("libcst", globals(), "cst")  # imported by the first extraction: a warm run never parses

# a statement handler: (the node, the node holding its line) -> its statement, or None
StatementHandler = Callable[[Any, Any], Optional[Stmt]]


def _awaited(node: "cst.BaseExpression") -> "cst.BaseExpression":
    """The expression under any ``await`` (``await s.start_transaction()``)."""
    while isinstance(node, cst.Await):
        node = node.expression
    return node


def _may_clear_reraise(call: "cst.Call", target: str, body: "cst.CSTNode") -> bool:
    """Whether a re-raising manager may end without re-raising: given a ``reraise``
    argument other than ``True`` (``save_and_reraise_exception(reraise=False)``, or
    first and positional, or in a ``**``/``*`` argument), or
    its target's ``reraise`` named anywhere in the block (``ctx.reraise = False`` on
    one branch)."""
    for i, arg in enumerate(call.args):
        if arg.star:  # (``**opts``, ``*args``: may say anything)
            return True
        if (arg.keyword is not None and arg.keyword.value == "reraise") or (arg.keyword is None and i == 0):
            # (``save_and_reraise_exception(False)``: its first parameter is ``reraise``)
            return not (isinstance(arg.value, cst.Name) and arg.value.value == "True")
    if not target:
        return False
    todo: List[Any] = [body]
    while todo:
        node = todo.pop()
        if (isinstance(node, cst.Attribute) and node.attr.value == "reraise"
                and isinstance(node.value, cst.Name) and node.value.value == target):
            return True
        todo.extend(children(node))
    return False


def binds(body: Any, name: str) -> bool:
    """Whether anything in ``body`` (a clause's block, nested blocks included) may bind
    ``name`` again: an assignment's, ``for``'s, ``with``'s, walrus's, comprehension's
    or ``match``'s target, a nested ``except ... as`` (which also deletes the name at
    its end), ``del``, an import, a ``def`` or ``class``, ``global``/``nonlocal``. Any
    of them makes ``raise name`` raise something else than the caught exception."""
    todo: List[Any] = [body]
    while todo:
        node = todo.pop()
        targets: List[Any] = []
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor, cst.NamedExpr, cst.Del)):
            targets = [node.target]
        elif isinstance(node, cst.WithItem) and node.asname is not None:
            targets = [node.asname.name]
        elif isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)) and node.name is not None:
            targets = [node.name.name]
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            targets = [node.name]
        elif isinstance(node, (cst.Import, cst.ImportFrom)) and not isinstance(node.names, cst.ImportStar):
            targets = [a.asname.name if a.asname is not None else a.name for a in node.names]
        elif isinstance(node, (cst.Global, cst.Nonlocal)):
            targets = [item.name for item in node.names]
        elif isinstance(node, (cst.MatchAs, cst.MatchStar)) and node.name is not None:
            targets = [node.name]
        elif isinstance(node, cst.MatchMapping) and node.rest is not None:
            targets = [node.rest]  # (`case {**e}:`)
        elif type(node).__name__ == "TypeAlias":  # (`type e = int`, Python 3.12)
            targets = [getattr(node, "name", None)]
        while targets:
            t = targets.pop()
            if isinstance(t, cst.Name) and t.value == name:
                return True
            if isinstance(t, (cst.Tuple, cst.List)):
                targets.extend(e.value for e in t.elements)
            elif isinstance(t, (cst.StarredElement, cst.Element)):
                targets.append(t.value)
            elif isinstance(t, cst.Attribute) and isinstance(node, (cst.Import, cst.ImportFrom)):
                head: Any = t  # (`import e.x` binds `e`; `e.x = 1` binds nothing)
                while isinstance(head, cst.Attribute):
                    head = head.value
                targets.append(head)
        todo.extend(children(node))
    return False



#: how many projections back a call's reads go (``_end``: `run_id = entry.run_id` after
#: `entry = record.event_log_entry` reads `record`)
READ_STEPS = 4


def _projection_root(node: cst.CSTNode) -> Optional[str]:
    """``record`` of ``record`` or ``record.event_log_entry.run``: a plain name, or an
    attribute chain of one (no call, no subscript); else None."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def _one_projection(frame: "FunctionScope", name: str) -> Optional[str]:
    """The root of ``name``'s one binding when it is a projection (``_projection_root``)
    and the function binds the name nowhere else (a loop, a ``with``, a parameter)."""
    found = frame.projections.get(name, ())
    if len(found) != 1 or found[0] is None or frame.names.bound.get(name, 0) != 1:
        return None
    return found[0]

class Extractor(ExpressionWalker):
    """Walks a libcst module once and fills ``FileFacts``."""

    def __init__(self, facts: FileFacts, lines: List[str], imports: Dict[int, Dict[str, str]],
                 scopes: Optional[scopesmod.Scopes] = None) -> None:
        super().__init__(facts, lines, imports, scopes)
        self._huge: Optional[HugeDef] = None  # a top-level def whose body comes in chunks
        self._blocks_made = 0  # numbers the blocks (``FunctionScope.blocks``)
        # the statements: one row per libcst node type (adding a statement kind: a row
        # here, its ``StmtKind``, and its row in ``cfg``'s table)
        self.handlers: Dict[type, StatementHandler] = {
            # small statements (the second argument: the line that holds them)
            cst.Return: self._return,
            cst.Raise: self._raise,
            cst.Assert: self._assert,
            cst.Break: self._break,
            cst.Continue: self._continue,
            cst.Pass: self._pass,
            cst.Assign: self._assign,
            cst.AnnAssign: self._ann_assign,
            cst.AugAssign: self._aug_assign,
            cst.Import: self._import,
            cst.ImportFrom: self._import,
            cst.TypeAlias: self._type_alias,
            cst.Global: self._global,
            cst.Nonlocal: self._global,
            cst.Del: self._del,
            cst.Expr: self._expression,
            # compound statements
            cst.If: self._if,
            cst.While: self._while,
            cst.For: self._for,
            cst.Try: self._try,
            cst.TryStar: self._try,
            cst.With: self._with,
            cst.Match: self._match,
            cst.FunctionDef: self._def,
            cst.ClassDef: self._class,
        }
        # the statements that bind imported names (``lazy import``, PEP 810: libcst 1.9 and later)
        self.imports: Tuple[type, ...] = (cst.Import, cst.ImportFrom)
        for lazy_name in ("LazyImport", "LazyImportFrom"):
            lazy_node = getattr(cst, lazy_name, None)
            if lazy_node is not None:
                self.handlers[lazy_node] = self._lazy_import
                self.imports += (lazy_node,)

    def statement(self, node: cst.CSTNode, line: cst.CSTNode) -> Optional[Stmt]:
        """The statement of ``node`` by the handler table (a loud error for a compound
        statement nobody handles)."""
        handler = self.handlers.get(type(node))
        if handler is not None:
            return handler(node, line)
        # a statement kind nobody handles must not vanish from the graph, nor be
        # guessed at (a `type` alias's value looks evaluated and is not)
        raise TypeError(f"frontend: no handler for the statement {type(node).__name__}")

    # ---- blocks

    def block(self, body: Union[cst.BaseSuite, Sequence[cst.CSTNode]],
              after: Optional[Callable[[Stmt], None]] = None, entered: bool = False) -> List[Stmt]:
        """The statements of a block. ``after``: told of each statement of the block
        itself (not of nested blocks) once it is extracted. ``entered``: a block every
        path through its statement runs (a ``with``'s, a ``try``'s, a ``finally``'s): for
        a closure's rebinding it is the enclosing block (``_cancel_closure``)."""
        if not self.frames or entered:
            return self._block(body, after)
        frame = self.frame
        self._blocks_made += 1
        frame.blocks.append(self._blocks_made)
        try:
            return self._block(body, after)
        finally:
            frame.blocks.pop()

    def _block(self, body: Union[cst.BaseSuite, Sequence[cst.CSTNode]],
               after: Optional[Callable[[Stmt], None]]) -> List[Stmt]:
        out: List[Stmt] = []
        if isinstance(body, cst.SimpleStatementSuite):
            # `if x: a(); b()`: the small statements on the header's line, each its own
            # statement (positioned at itself: the header holds the line's start)
            for small in body.body:
                self._small_into(out, small, small)
                if after is not None and out:
                    after(out[-1])
            return out
        if isinstance(body, cst.IndentedBlock):
            nodes: Sequence[cst.CSTNode] = body.body
        else:
            nodes = body  # type: ignore[assignment]  # (a BaseSuite is one of the two above)
        for node in nodes:
            if isinstance(node, cst.SimpleStatementLine):
                for small in node.body:
                    n = len(out)
                    self._small_into(out, small, node)
                    if after is not None and len(out) > n:
                        after(out[-1])
            else:
                st = self.statement(node, node)
                if st is not None:
                    out.append(st)
                    if after is not None:
                        after(st)
        return out

    def _small_into(self, out: List[Stmt], small: cst.BaseSmallStatement, line: cst.CSTNode) -> None:
        st = self.small(small, line)  # type: ignore[arg-type]
        if st is not None:
            if st.kind == StmtKind.SIMPLE and has_yield(small):
                st.yields = True
                st.iter_call = _delegated_call(small, st.events)
            out.append(st)

    def _enter_stmt(self, node: cst.CSTNode, header_end: Optional[cst.CSTNode] = None) -> Span:
        self._w, self._m = [], []
        if self.frame.handlers:
            self._calls_here = {}
        sp = self.span(node)
        if header_end is not None:
            end = self.span(header_end)
            last = _header_colon_line(self.lines, end.end_line, end.end_col)
        else:
            last = sp.end_line
        self.stmt_lines = (sp.line, max(sp.line, last))
        return sp

    def header_span(self, sp: Span, header_end: cst.CSTNode) -> Optional[Span]:
        """A compound statement's header, from ``sp``'s start to just past its colon
        (``Stmt.header_span``); None when the colon is not found."""
        end = self.span(header_end)
        at = header_colon(self.lines, end.end_line, end.end_col)
        if at is None or not 0 < at[0] <= len(self.lines):
            return None
        line, col = at
        return Span(sp.line, sp.col, line, col, sp.col16, utf16_col(self.lines[line - 1], col))

    def _record_binding(self, targets: Sequence[cst.CSTNode], value: Optional[cst.CSTNode]) -> None:
        """The marker tokens of each right-hand side, by the names it binds
        (element by element when a tuple is unpacked from a tuple)."""
        if value is None or not self.frames:
            return
        for t in targets:
            pairs: List[Tuple[cst.CSTNode, cst.CSTNode]] = [(t, value)]
            if (isinstance(t, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))
                    and len(t.elements) == len(value.elements)
                    and not any(isinstance(e, cst.StarredElement) for e in list(t.elements) + list(value.elements))):
                pairs = [(a.value, b.value) for a, b in zip(t.elements, value.elements)]
            for target, val in pairs:
                for name in target_names(target):
                    self.frame.name_writes.append((name, self.next_call))
                    self._cancel_closure(name)  # (`deliver = None`: no closure any more)
                walk = MarkerWalk(self.aliased_callee)
                walk.expr(val)
                for name in target_names(target):
                    self.frame.bindings.setdefault(name, []).extend((r, self.stmt_lines[0]) for r in walk.runs)
                    self.frame.binding_reads.setdefault(name, []).extend(walk.names + walk.roots)
                    self.frame.projections.setdefault(name, []).append(
                        _projection_root(val) if isinstance(target, cst.Name) else None)

    def _cancel_closure(self, name: str) -> None:
        """``name`` is rebound: the closure it held is gone when the rebinding follows
        the ``def`` on every path, in its block or one enclosing it. In a branch
        (``if flag: deliver = None``) the other path still passes the closure, as a
        caught ``e`` rebound in a branch is still handed on on the other
        (docs/decisions.md, "Handing the exception on")."""
        frame = self.frame
        at = frame.closure_blocks.get(name)
        if at is None or (frame.blocks and frame.blocks[-1] in at):
            frame.closures.pop(name, None)
            frame.closure_blocks.pop(name, None)

    def small(self, node: cst.BaseSmallStatement, line: cst.SimpleStatementLine) -> Optional[Stmt]:
        """A small statement by the handler table, then what every small statement
        records: the names it rebinds or changes, and where a caught exception goes."""
        st = self.statement(node, line)
        if st is None:
            return None
        writes, mutates = list(self._w), list(self._m)
        targets: List[cst.CSTNode] = []
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
        elif isinstance(node, cst.AnnAssign) and node.value is not None:
            targets = [node.target]
        elif isinstance(node, (cst.AugAssign, cst.Del)):
            targets = [node.target]
        for t in targets:
            bound_names(t, writes, mutates)
        if isinstance(node, cst.TypeAlias):
            writes.append(node.name.value)
        names = getattr(node, "names", None) if isinstance(node, self.imports) else None
        if names is not None and not isinstance(names, cst.ImportStar):
            for alias in names:
                if alias.asname is not None:
                    bound_names(alias.asname.name, writes, mutates)
                else:
                    writes.append(render_callee(alias.name).split(".")[0])
        self._set_writes(st, writes, mutates)
        value = node.value if isinstance(node, (cst.Assign, cst.AnnAssign)) else None
        # (a class body's names are the class's, not the function's)
        if value is not None and targets and all(isinstance(t, cst.Name) for t in targets) and not self.frame.classes:
            mask = literal_truth(value)
            if mask:
                st.literals = tuple((t.value, mask) for t in targets if isinstance(t, cst.Name))
        if self.frame.handlers:
            self._sink = set()
            if isinstance(node, cst.Return) and node.value is not None:
                self._sink |= self._carried(node.value)
            elif isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and node.value is not None:
                self._sink |= self._carried(node.value)
                for t in targets:
                    self._carried(t)  # calls in the targets may receive it
            elif not isinstance(node, cst.TypeAlias):  # (its value is not evaluated)
                self._carried(node)
            st.hands_on = tuple(sorted(self._sink))
        return st

    def _set_writes(self, st: Stmt, writes: List[str], mutates: List[str]) -> None:
        if writes:
            st.writes = tuple(dict.fromkeys(writes))
        if self._w:
            st.early_writes = tuple(dict.fromkeys(self._w))
        if mutates:
            st.mutates = tuple(dict.fromkeys(mutates))

    def _header(self, st: Stmt, exprs: Sequence[Optional[cst.CSTNode]], targets: Sequence[cst.CSTNode] = ()) -> None:
        """A compound statement's header: the names it binds, and the calls of its
        expressions that receive a caught exception."""
        writes, mutates = list(self._w), list(self._m)
        for t in targets:
            bound_names(t, writes, mutates)
        self._set_writes(st, writes, mutates)
        if self.frame.handlers:
            self._sink = set()
            for e in exprs:
                if e is not None:
                    self._carried(e)
            st.hands_on = tuple(sorted(self._sink))

    # ---- handing the exception on (semantics §Contracts)
    # ---- small statements

    def _small_head(self, line: cst.CSTNode) -> Tuple[Span, str]:
        """A small statement is positioned at the line that holds it."""
        sp = self._enter_stmt(line)
        return sp, self.text(line)

    def _return(self, node: cst.Return, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        st = Stmt(StmtKind.RETURN, sp, text, self.expr(node.value), self.raises_outside_calls(node.value))
        if node.value is not None and self.frame.local_functions:
            self.frame.returned.extend(returned_names(node.value))
        if isinstance(node.value, cst.Name) and node.value.value in ("True", "False"):
            st.returns = node.value.value == "True"
        return st

    def _raise(self, node: cst.Raise, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        ev = self.expr(node.exc)
        ev += self.expr(node.cause)
        st = Stmt(StmtKind.RAISE, sp, text, ev, True)
        st.placeholder = node.exc is not None and says_not_implemented(node.exc)
        caught = self.frame.caught_names[-1] if self.frame.caught_names else None
        st.reraise = node.exc is None or (isinstance(node.exc, cst.Name) and caught is not None
                                          and node.exc.value == caught)  # (`from x` changes no type)
        return st

    def _assert(self, node: cst.Assert, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        st = Stmt(StmtKind.ASSERT, sp, text, self.expr(node.test), True, message=self.expr(node.msg))
        st.true_facts, st.false_facts = unwritten(self.tested(node.test, walrus=True), self._w, walrus_targets(node.test))
        self._operand_facts(st, node.test)
        return st

    def _break(self, node: cst.Break, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        return Stmt(StmtKind.BREAK, sp, text)

    def _continue(self, node: cst.Continue, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        return Stmt(StmtKind.CONTINUE, sp, text)

    def _pass(self, node: cst.Pass, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        return Stmt(StmtKind.PASS, sp, text)

    def _bound_call(self, targets: Sequence[cst.CSTNode], value: cst.BaseExpression, ev: ExprSeq) -> None:
        """``name = call(...)`` (``await`` allowed): the call whose value the name holds."""
        while isinstance(value, cst.Await):
            value = value.expression
        if (self.frames and len(targets) == 1 and isinstance(targets[0], cst.Name)
                and isinstance(value, cst.Call) and ev and isinstance(ev[-1], Call)):
            self.frame.bound_values.append((ev[-1], targets[0].value, self.next_call))

    def _assign(self, node: cst.Assign, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        ev = self.expr(node.value)
        self._bound_call([t.target for t in node.targets], node.value, ev)
        for t in node.targets:
            ev += self.expr(t.target)
        self._record_binding([t.target for t in node.targets], node.value)
        raises = self._store_after(ev, node.value, [t.target for t in node.targets])
        if self._spelled_increment(node):
            ev.append(self._increment(node))
        return Stmt(StmtKind.SIMPLE, sp, text, ev, raises)

    def _spelled_increment(self, node: Union[cst.Assign, cst.AnnAssign]) -> bool:
        """``self.errors = self.errors + 1``: ``+=`` spelled out, on a target that
        outlives the function (``_counter``): a count, as ``self.errors += 1`` is
        (held-out set 210: purpleair-data-logger counts its failures so); also ``1 +
        self.errors`` and an annotated ``self.errors: int = self.errors + 1`` (a blind
        probe, session 60)."""
        if isinstance(node, cst.Assign):
            if len(node.targets) != 1:
                return False
            target = node.targets[0].target
        else:
            target = node.target
        value = node.value
        if not isinstance(value, cst.BinaryOperation) or not isinstance(value.operator, cst.Add):
            return False
        if not isinstance(target, (cst.Name, cst.Attribute, cst.Subscript)):
            return False
        written = self.text(target)
        if self.text(value.left) == written:
            return self._counter(target)
        # `1 + self.n`: only a number first (`"unsaved: " + self.title`, `[r] + self.pending`
        # prepend, no count: a review)
        return (self.text(value.right) == written and isinstance(value.left, (cst.Integer, cst.Float))
                and self._counter(target))

    def _increment(self, node: cst.CSTNode, callee: str = "+=") -> Call:
        """The event of an augmented assignment, after the statement's own calls: ``+=``
        for a count (``vocabulary``: a ``surface``), else ``aug-assign``."""
        aug = Call(
            id=self.next_call,
            callee=callee,
            qualnames=(),
            span=self.span(node),
            text=self.text(node),
            stmt_lines=self.stmt_lines,
            aug=True,
        )
        self.next_call += 1
        if self.frames:
            self.frame.calls.append(aug)
        return aug

    def _store_after(self, ev: ExprSeq, value: Optional[cst.BaseExpression], targets: List[cst.BaseExpression]) -> bool:
        """Whether an assignment raises from its own node (before its calls). Python
        evaluates the value, then the targets, then stores: an attribute or subscript
        target that can raise does so after the value's calls took effect (``z[k] =
        save()``), so it is a raise point at the end of the events (unless the target's
        own walk put one there). Without calls, before or after is the same place."""
        target_raises = [t for t in targets if self.raises_outside_calls(t)
                         or (self.operators_raise() and _unpacks(t, value))]
        if not target_raises or not ev:
            return self.raises_outside_calls(value) or bool(target_raises)
        if not isinstance(ev[-1], RaisePoint):
            ev.append(RaisePoint(self.pos(target_raises[-1])[2], self.span(target_raises[-1]), self.text(target_raises[-1])))
        return self.raises_outside_calls(value)

    def _ann_assign(self, node: cst.AnnAssign, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        ev = self.expr(node.value)
        if node.value is not None:
            self._bound_call([node.target], node.value, ev)
        ev = ev + self.expr(node.target)
        self._record_binding([node.target], node.value)
        if node.value is None:  # (a bare annotation stores nothing)
            return Stmt(StmtKind.SIMPLE, sp, text, ev, self.raises_outside_calls(node.target))
        raises = self._store_after(ev, node.value, [node.target])
        if self._spelled_increment(node):
            ev.append(self._increment(node))
        return Stmt(StmtKind.SIMPLE, sp, text, ev, raises)

    def _instance_manager(self, item: cst.BaseExpression) -> Optional[Call]:
        """``with self.uow:`` over an object of a known class (a name or ``self.x``
        whose type is known, semantics §Events receiver types): entering it is a call
        of its ``__enter__``, written ``self.uow.__enter__``, which resolves by the
        class and makes the ``with`` a project context manager's when the class is
        one (docs/decisions.md "A with over an instance")."""
        names = self.instance_manager(render_callee(item), self.pos(item)[0])
        if names is None:
            return None
        call = Call(
            id=self.next_call,
            callee=names.callee,
            qualnames=names.qualnames,
            span=self.span(item),
            text=self.text(item),
            stmt_lines=self.stmt_lines,
            receiver_type=names.receiver_type,
            self_call=names.self_call,
            local_head=names.local_head,
            bare_enter=names.receiver_type is None,
        )
        self.next_call += 1
        if self.frames:
            self.frame.calls.append(call)
        return call

    def _aug_assign(self, node: cst.AugAssign, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        ev = self.expr(node.target) + self.expr(node.value)  # the target is evaluated first
        if isinstance(node.target, cst.Name) and not self._counter(node.target):
            # `n += 1` on a plain local: no event, and it raises as `n = n + 1` does: by
            # its operator only where `n / d` would (decisions.md "An operator or an
            # unpacking raises by itself"; held-out set 312: it raised into `except
            # ProtectedError:` after a save)
            raises = self.raises_outside_calls(node.value)
            if type(node.operator).__name__ in _RAISING_AUG and self.operators_raise():
                if _holds_call(node.value):  # (after the value's calls took effect)
                    ev.append(RaisePoint(self.pos(node)[2], self.span(node), self.text(node)))
                else:
                    raises = True
            return Stmt(StmtKind.SIMPLE, sp, text, ev, raises)
        counts = isinstance(node.operator, cst.AddAssign) and self._counter(node.target)
        ev.append(self._increment(node, "+=" if counts else "aug-assign"))
        return Stmt(StmtKind.SIMPLE, sp, text, ev, True)

    def _import(self, node: Union[cst.Import, cst.ImportFrom], line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        return Stmt(StmtKind.SIMPLE, sp, text, [], True)

    def _global(self, node: Union[cst.Global, cst.Nonlocal], line: cst.CSTNode) -> None:
        self._small_head(line)
        names = {n.name.value for n in node.names}
        frames = self.frames if isinstance(node, cst.Nonlocal) else self.frames[-1:]
        for frame in frames:
            frame.untracked.update(names)
        return None

    def _del(self, node: cst.Del, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        return Stmt(StmtKind.SIMPLE, sp, text, self.expr(node.target), True)

    def _expression(self, node: cst.Expr, line: cst.CSTNode) -> Stmt:
        sp, text = self._small_head(line)
        seq = self.expr(node.value)
        if isinstance(node.value, cst.Call) and seq and isinstance(seq[-1], Call):
            self.mark_discarded(seq[-1])  # (the statement's own call is the last of its sequence)
        return Stmt(StmtKind.SIMPLE, sp, text, seq, self.raises_outside_calls(node.value))

    def _lazy_import(self, node: cst.BaseSmallStatement, line: cst.CSTNode) -> Stmt:
        """``lazy import x`` (PEP 810): the module is imported where a name is first
        used, not here, so the statement binds its names and cannot raise."""
        sp, text = self._small_head(line)
        return Stmt(StmtKind.SIMPLE, sp, text, [], False)

    def _type_alias(self, node: cst.TypeAlias, line: cst.CSTNode) -> Stmt:
        """``type T = ...`` (PEP 695): the value is evaluated lazily, when
        ``T.__value__`` is first read, so its calls are no events here (as a lambda's
        body is not); the statement binds ``T`` and cannot raise."""
        sp, text = self._small_head(line)
        return Stmt(StmtKind.SIMPLE, sp, text, [], False)

    def _counter(self, target: cst.BaseExpression) -> bool:
        """Whether ``target += ...`` updates something that outlives the function
        (semantics §Events): an attribute, a subscript, or a name the function declares
        ``global``/``nonlocal``, or a name of a module or class body (a global, a
        class attribute); a plain local name of a function is not."""
        if not isinstance(target, cst.Name) or not self.frames:
            return True
        frame = self.frame
        return bool(frame.classes) or frame.is_module or target.value in frame.names.declared_outer

    # ---- compound statements

    def _if(self, node: cst.If, line: Optional[cst.CSTNode] = None) -> Stmt:
        sp = self._enter_stmt(node, node.test)
        ev = self.expr(node.test)
        st = Stmt(StmtKind.IF, sp, self.header_text(node, node.test), ev, self.raises_outside_calls(node.test))
        st.header_span = self.header_span(sp, node.test)
        st.test_call, st.test_negated, st.test_chain, st.test_operand_negated = _test_call(node.test, ev)
        st.guard_runs, st.guard_open = guard_runs(node.test)
        self._header(st, [node.test])
        st.true_facts, st.false_facts = unwritten(self.tested(node.test, walrus=True), self._w, walrus_targets(node.test))
        self._operand_facts(st, node.test)
        st.infinite = _is_true_constant(node.test)  # `if True:` has no false branch
        st.never = _is_false_constant(node.test)  # `if False:` no true one
        st.body = self.block(node.body)
        if isinstance(node.orelse, cst.If):
            st.orelse = [self._if(node.orelse)]
        elif isinstance(node.orelse, cst.Else):
            st.orelse = self.block(node.orelse.body)
        return st

    def _operand_facts(self, st: Stmt, test: cst.BaseExpression) -> None:
        """``Stmt.operand_facts`` of a ``first-and``/``first-or`` test: what ``A`` of
        ``f() and A`` tells, on the branches where ``A`` decides (a review, session 66)."""
        if st.test_chain not in ("first-and", "first-or"):
            return
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test = test.expression
        if isinstance(test, cst.BooleanOperation):
            other = test.right
            st.operand_facts = unwritten(self.tested(other, walrus=True), self._w, walrus_targets(other))

    def _while(self, node: cst.While, line: cst.CSTNode) -> Stmt:
        sp = self._enter_stmt(node, node.test)
        ev = self.expr(node.test)
        infinite = _is_true_constant(node.test)
        st = Stmt(StmtKind.WHILE, sp, self.header_text(node, node.test), ev, self.raises_outside_calls(node.test),
                  infinite=infinite)
        st.header_span = self.header_span(sp, node.test)
        st.test_call, st.test_negated, st.test_chain, st.test_operand_negated = _test_call(node.test, ev)
        st.guard_runs, st.guard_open = guard_runs(node.test)
        self._header(st, [node.test])
        st.true_facts, st.false_facts = unwritten(self.tested(node.test, walrus=True), self._w, walrus_targets(node.test))
        self._operand_facts(st, node.test)
        st.never = _is_false_constant(node.test)  # `while 0:` never runs its body
        st.body = self.block(node.body)
        st.orelse = self.block(node.orelse.body) if node.orelse else []
        return st

    def _for(self, node: cst.For, line: cst.CSTNode) -> Stmt:
        sp = self._enter_stmt(node, node.iter)
        ev = self.expr(node.iter)
        st = Stmt(StmtKind.FOR, sp, self.header_text(node, node.iter), ev, True)
        st.header_span = self.header_span(sp, node.iter)
        if isinstance(node.iter, cst.Call) and ev and isinstance(ev[-1], Call):
            st.iter_call = ev[-1].id  # (the call's own node comes after its arguments')
        items = _literal_items(node.iter)
        st.first_item, st.never = items is not None and items > 0, items == 0
        self._header(st, [node.iter], [node.target])
        st.body = self.block(node.body)
        st.orelse = self.block(node.orelse.body) if node.orelse else []
        return st

    def _try(self, node: Union[cst.Try, cst.TryStar], line: cst.CSTNode) -> Stmt:
        sp = self._enter_stmt(node, None)
        self.stmt_lines = (sp.line, sp.line)
        st = Stmt(StmtKind.TRY, sp, self.header_text(node), star=isinstance(node, cst.TryStar))
        self._catching.append(any(_catches_builtin_errors(h) for h in node.handlers))
        try:
            st.body = self.block(node.body)
        finally:
            self._catching.pop()
        for h in node.handlers:
            hsp = self._enter_stmt(h, h.type)
            types: List[str] = []
            builtin: List[Optional[str]] = []
            bare = h.type is None
            if h.type is not None:
                if isinstance(h.type, cst.Tuple):
                    elts: Sequence[cst.CSTNode] = h.type.elements
                else:
                    elts = [h.type]
                for el in elts:
                    value = el.value if isinstance(el, cst.Element) else el
                    types.extend(self.exception_type_names(value, hsp.line))
                    items = self.tuple_items(value, hsp.line)
                    if items is not None:  # `except ERRS:` over `ERRS = (Exception,)`: each item's
                        builtin.extend(self._builtin_by_name(t) for t in items)
                    else:
                        builtin.append(self.builtin_exception(value))
                types = list(dict.fromkeys(types))
            broad = bare or any(t in BROAD_TYPES for t in types)
            name = h.name.name.value if h.name is not None and isinstance(h.name.name, cst.Name) else None
            self.frame.handlers.append((name, hsp.line))
            self.frame.caught_names.append(name if name is not None and not binds(h.body, name) else None)
            depth = len(self.frame.handlers) - 1

            def rebound(st: Stmt, name: Optional[str] = name, line: int = hsp.line, depth: int = depth) -> None:
                # `e = None` in the clause's own block, its value not the exception:
                # what follows no longer hands the exception on through `e`
                # (docs/decisions.md, "Handing on")
                if (name is not None and st.kind == StmtKind.SIMPLE and name in (st.writes or ())
                        and line not in (st.hands_on or ())):
                    self.frame.handlers[depth] = (None, line)

            try:
                body = self.block(h.body, after=rebound)
            finally:
                self.frame.handlers.pop()
                self.frame.caught_names.pop()
            st.handlers.append(Handler(hsp, self.header_text(h), tuple(dict.fromkeys(types)), bare, broad, body, name,
                                       tuple(builtin)))
        st.orelse = self.block(node.orelse.body) if node.orelse else []
        if node.finalbody is not None:
            st.has_finally = True
            whole = self.span(node.finalbody)  # the clause, keyword to the end of its body
            st.finally_span = Span(whole.line, whole.col, whole.line, whole.col + len("finally"),
                                   whole.col16, whole.col16 + len("finally"))
            st.finalbody = self.block(node.finalbody.body, entered=True)
        return st

    def _builtin_by_name(self, text: str) -> Optional[str]:
        """``builtin_exception`` of a type written as text (a tuple's item)."""
        if "." in text or any(k.startswith("*") for k in self.import_tables.get(0, {})) or self._lookup(text) is not None:
            return None
        found = getattr(builtins_module, text, None)
        return text if isinstance(found, type) and issubclass(found, BaseException) else None

    def builtin_exception(self, value: cst.CSTNode) -> Optional[str]:
        """The built-in exception class an ``except`` clause's type surely is: a plain
        name of one that nothing in the module or the enclosing scopes binds, with no
        star import (which may bind anything), or ``builtins.X``; else None."""
        if isinstance(value, cst.Name):
            name = value.value
            # (the import table, not ``facts.star_imports``: a function parsed alone
            # fills no module facts)
            if any(k.startswith("*") for k in self.import_tables.get(0, {})) or self._lookup(name) is not None:
                return None
        elif (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)
              and value.value.value == "builtins" and self._lookup("builtins") is not None):
            name = value.attr.value
        else:
            return None
        found = getattr(builtins_module, name, None)
        return name if isinstance(found, type) and issubclass(found, BaseException) else None

    def exception_type_names(self, value: cst.CSTNode, line: int) -> List[str]:
        """An ``except`` clause's type as written, import-qualified, through an alias
        (``BROAD = Exception``: broad; semantics §Aliases) and, for a class at the top
        of this module, as ``module.T`` (``swallow-types = ["*.TransientError"]``, as
        receiver patterns match it; a conformance probe, session 31)."""
        return self._type_names(render_callee(value), line, 2)

    def _type_names(self, text: str, line: int, depth: int) -> List[str]:
        out = [text, *self.qualified_text(text)]
        # (the clause's line: an alias bound before the `except` line applies; asking
        # the type's own position would cost libcst's position pass)
        chain = self.alias_chain(text, line, 0)
        for t in chain[1:]:
            out += [t, *self.qualified_text(t)]
        if chain[-1].replace(".", "").replace("_", "").isalnum():
            typed = self.type_qualname(chain[-1])
            if typed:
                out.append(typed)
        if depth and chain[-1].isidentifier():
            # `except report_exceptions:` over `report_exceptions = (RequestException,
            # socket.error)`: each of the tuple's types, as if written in the clause
            # (docs/decisions.md "An except clause over a tuple's name"; held-out set 160)
            for item in self.tuple_items(cst.Name(chain[-1]), line) or ():
                out += self._type_names(item, line, depth - 1)
        return out

    def _with(self, node: cst.With, line: cst.CSTNode) -> Stmt:
        sp = self._enter_stmt(node, node.items[-1] if node.items else None)
        st = Stmt(StmtKind.WITH, sp, self.header_text(node), [], True)
        for item in node.items:
            ev = self.expr(item.item)
            manager = None
            # `async with await s.start_transaction():` (pymongo's async sessions): the
            # awaited call gives the manager; `await` is dropped as in matching
            expr = _awaited(item.item)
            if isinstance(expr, cst.Call):
                # the manager call is the last event of its own item expression
                manager = ev[-1] if ev and isinstance(ev[-1], Call) else None
                if manager is not None and manager.suppress_types is None and (manager.qualnames or expr.args):
                    # an imported name may be ``contextlib.suppress`` under another name
                    # (``from .util import ignore``), which only the project phase knows;
                    # a project generator may catch what its arguments name
                    # (``effects.PARAMETER_TYPES``)
                    manager.suppress_types = self.argument_types(expr)
            else:
                manager = self._instance_manager(expr)
                if manager is not None:
                    ev = ev + [manager]
            if manager is not None and node.asynchronous is not None:
                manager.async_with = True
            func = expr.func if isinstance(expr, cst.Call) else expr
            target = item.asname.name.value if item.asname is not None and isinstance(item.asname.name, cst.Name) else ""
            reraises = (manager is not None and isinstance(expr, cst.Call)
                        and reraising_manager(manager.callee, manager.qualnames)
                        and not _may_clear_reraise(expr, target, node.body))
            expects = manager is not None and isinstance(expr, cst.Call) and expecting_manager(manager.callee, manager.qualnames)
            st.items.append(WithItem(ev, manager, is_lock(render_callee(func)), target, reraises, expects))
        self._header(st, [item.item for item in node.items],
                     [item.asname.name for item in node.items if item.asname is not None])
        # a closure's rebinding in the body follows the `def` on every path through the
        # `with`, unless a manager can swallow what the body raised before it
        # (`contextlib.suppress`; a project manager that suppresses is a limit)
        suppressing = any(render_callee(e.func if isinstance(e, cst.Call) else e).endswith("suppress")
                          for e in map(_awaited, (i.item for i in node.items)))
        st.body = self.block(node.body, entered=not suppressing)
        return st

    def _match(self, node: cst.Match, line: cst.CSTNode) -> Stmt:
        sp = self._enter_stmt(node, node.subject)
        st = Stmt(StmtKind.MATCH, sp, self.header_text(node, node.subject), self.expr(node.subject), self.raises_outside_calls(node.subject))
        st.header_span = self.header_span(sp, node.subject)
        self._header(st, [node.subject])
        captured: List[str] = list(st.writes)
        # `match e:` over a caught exception: a case's whole-subject capture (`case
        # OSError() as err:`, `case err:`) is that exception (semantics §Contracts
        # handing on; a conformance probe, session 31)
        caught: Optional[int] = None
        if isinstance(node.subject, cst.Name) and self.frames:
            caught = next((line for name, line in reversed(self.frame.handlers) if name == node.subject.value), None)
        for case in node.cases:
            csp = self._enter_stmt(case, case.guard if case.guard is not None else case.pattern)
            whole = case.pattern.name if isinstance(case.pattern, cst.MatchAs) else None
            alias = whole.value if caught is not None and isinstance(whole, cst.Name) else None
            after = None
            if alias is not None and caught is not None:
                self.frame.handlers.append((alias, caught))
                depth = len(self.frame.handlers) - 1

                def after(st: Stmt, name: str = alias, line: int = caught, depth: int = depth) -> None:
                    # `err = None` in the case's block: as for the `as` name of a clause
                    if st.kind == StmtKind.SIMPLE and name in (st.writes or ()) and line not in (st.hands_on or ()):
                        self.frame.handlers[depth] = (None, line)
            guard = self.expr(case.guard)
            captured += self._w + _captures(case.pattern)
            irrefutable = _irrefutable(case.pattern)
            always = case.guard is None and irrefutable
            try:
                body = self.block(case.body, after=after) if after is not None else self.block(case.body)
            finally:
                if alias is not None and caught is not None:
                    self.frame.handlers.pop()
            st.cases.append(Case(csp, self.header_text(case, case.guard if case.guard is not None else case.pattern), always, guard, body,
                                 irrefutable=irrefutable, guarded=case.guard is not None,
                                 header_span=self.header_span(csp, case.guard if case.guard is not None else case.pattern)))
        # (the cases' captures are forgotten at the `match` itself: earlier than Python
        # binds them, which only forgets sooner)
        if captured:
            st.writes = tuple(dict.fromkeys(captured))
        return st

    def _def(self, node: cst.FunctionDef, line: cst.CSTNode) -> Stmt:
        sp = self._enter_stmt(node, _header_end(self, node, [node.name, *(p.default for p in _all_params(node.params))]))
        ev: ExprSeq = []
        for d in node.decorators:
            ev += self.expr(d.decorator)
        for p in _all_params(node.params):
            if p.default is not None:
                ev += self.expr(p.default)
        if self.frames and not self.frame.classes:
            # a name bound in a function (or the module) body; a class body's names are attributes
            self.frame.local_functions[node.name.value] = self.child_qualname(node.name.value)
        writes = list(self._w) + [node.name.value]
        if self.frames and self.frame.handlers:
            # a nested function that closes over the caught exception carries it, as a
            # lambda does (docs/decisions.md, "Handing the exception on")
            captured = self._captured(node)
            if captured:
                self.frame.closures[node.name.value] = captured
                self.frame.closure_blocks[node.name.value] = tuple(self.frame.blocks)
            else:
                self._cancel_closure(node.name.value)
        elif self.frames and node.name.value in self.frame.closures:
            self._cancel_closure(node.name.value)  # (a `def` of the name after the handler: another function)
        self.function(node)
        st = Stmt(StmtKind.SIMPLE, sp, self.header_text(node), ev, False)
        st.writes = tuple(dict.fromkeys(writes))
        return st

    def _class(self, node: cst.ClassDef, line: cst.CSTNode) -> Stmt:
        sp = self._enter_stmt(node, _header_end(self, node, [node.name, *(b.value for b in node.bases)]))
        ev: ExprSeq = []
        for d in node.decorators:
            ev += self.expr(d.decorator)
        bases: List[str] = []
        class_line = self.span(node.name).line
        for b in node.bases:
            ev += self.expr(b.value)
            # `Base[int]` (a generic base) is `Base` in the MRO
            base = b.value.value if isinstance(b.value, cst.Subscript) else b.value
            bases.extend(self.base_names(render_callee(base), class_line, node.name.value))
        qual = self.child_qualname(node.name.value)
        if self.frames and not self.frame.classes:
            self.frame.local_functions[node.name.value] = qual
        self.frame.classes.append(ClassScope(qual, self.scopes.classes.get(class_line) or scopesmod.ScopeTable(), class_line))
        # (a method a later class-body import rebinds is that import: ``class_aliases``)
        methods = [m for m in class_methods(node.body) if m not in self.frame.classes[-1].names.imported_last]
        body = self.block(node.body)
        attr_types = self.class_attr_types(self.frame.classes[-1].names, class_line)
        class_types = self.class_attr_types(self.frame.classes[-1].names, class_line, class_level=True)
        aliases = self.class_aliases(self.frame.classes[-1].names, class_line, methods)
        truth = bool({"__bool__", "__len__"} & set(self.frame.classes[-1].names.bound))
        containers = self.class_containers(self.frame.classes[-1].names)
        self.frame.classes.pop()
        self.facts.classes.append(ClassFacts(qual, tuple(dict.fromkeys(bases)), tuple(methods), attr_types, aliases,
                                             truth, class_types, containers))
        st = Stmt(StmtKind.CLASS, sp, self.header_text(node), ev, True)
        st.writes = (node.name.value,)
        st.body = body  # a class body runs inline, where it is defined
        return st

    # ---- functions

    def _end(self, frame: FunctionScope, name: str, cls: Optional[str], sp: Span,
             params: Tuple[str, ...], body: List[Stmt]) -> FunctionFacts:
        """The ``FunctionFacts`` of a function whose walk ended (its scope popped)."""
        if frame.bindings:
            for call, names in frame.marker_names:
                bound = [(n, line, r) for n in dict.fromkeys(names) if n in frame.bindings
                         for r, line in frame.bindings[n]]
                if bound:
                    call.marker_runs = call.marker_runs + tuple(r for _, _, r in bound)
                    call.bound_runs = tuple(bound)
        for built, holder, bound_at in frame.bound_values:
            # the value reaches a later call's arguments as a plain name, before the name
            # is bound again (in source order)
            later = [w for n, w in frame.name_writes if n == holder and w > bound_at]
            until = min(later) if later else None
            built.builds = any(c.id > built.id and (until is None or c.id < until) and holder in names
                               and not _shown_only(c) for c, names in frame.marker_names)
        if frame.binding_reads:
            reads_of = frame.binding_reads
            for call in frame.calls:
                # what the names it reads were bound from (any binding's right-hand
                # side: one step), and back on through a chain of projections, each the
                # name's one binding (held-out set 357: dagster-openlineage's `entry =
                # record.event_log_entry`, then `run_id = entry.run_id`, handed to a
                # terminal helper, reads the loop's `record`). Not through a call
                # (`label = kind.upper()`) nor a name bound again (`entry = current`):
                # a review found both made appends of one run read the item
                got = dict.fromkeys(call.reads)
                got.update(dict.fromkeys(m for n in call.reads for m in reads_of.get(n, ())))
                frontier = [n for n in call.reads if n in reads_of]
                for _ in range(READ_STEPS):
                    frontier = [root for n in frontier for root in [_one_projection(frame, n)]
                                if root is not None]
                    if not frontier:
                        break
                    got.update(dict.fromkeys(frontier))
                if len(got) > len(call.reads):
                    call.reads = tuple(got)
        fn = FunctionFacts(frame.qualname, name, cls, sp, params, body, frame.calls, frame.local_functions,
                           tuple(sorted(frame.untracked)), handles=holds_handler(body))
        self.facts.functions.append(fn)
        return fn

    def function(self, node: cst.FunctionDef) -> None:
        qual = self.child_qualname(node.name.value)
        cls = self.frame.classes[-1].qualname if self.frame.classes else None
        name_span = self.span(node.name)
        sp = Span(name_span.line, name_span.col, name_span.end_line, name_span.end_col, name_span.col16, name_span.end_col16)
        params = tuple(p.name.value for p in _all_params(node.params))
        decorators: List[str] = []
        for d in node.decorators:  # resolved in the enclosing scope, where they run
            target = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
            written = render_callee(target)
            names = self.call_names(written, *self.byte_pos(target))  # (through aliases, as a call)
            decorators.append(written)
            decorators.append(names.callee)
            if not names.chosen:  # (`atomic = transaction.atomic if c else nullcontext`: neither surely)
                decorators.extend(names.qualnames)
            if isinstance(d.decorator, cst.Call) and METHOD_DECORATOR in (written, *names.qualnames):
                # Django's `@method_decorator(transaction.atomic)`: the method is decorated
                # by its argument (held-out set 273, djangocms-moderation); a list of
                # them, or `decorator=`, each (set 275)
                for wrapped in _method_decorator_nodes(d.decorator):
                    inner_written = render_callee(wrapped)
                    inner_names = self.call_names(inner_written, *self.byte_pos(wrapped))
                    decorators += [inner_written, inner_names.callee, *inner_names.qualnames]
        # (what only marks the view does nothing on a handler: ``on_method``; review 1)
        decorators = on_method(cls, node.name.value, decorators) + self.class_method_decorators(node.name.value)
        decorators = list(dict.fromkeys(decorators))
        manager = any(n in CONTEXT_MANAGER_DECORATORS for n in decorators)
        saved_lines = self.stmt_lines
        frame = FunctionScope(qual, self.scopes.functions.get(name_span.line) or scopesmod.ScopeTable(), name_span.line,
                              self.import_tables.get(name_span.line, {}), context_manager=manager,
                              static=cls is not None and any(n in ("staticmethod", "builtins.staticmethod")
                                                             for n in decorators))
        nested = not self.frame.is_module  # (a nested def's calls are read as closures: ``_captured``)
        made_before = len(self.facts.functions)  # (the functions its body defines come next)
        self.frames.append(frame)
        if not nested and self._reads_running(node):
            # the exception of the caller's handler running where this is called: handed
            # on here, the call hands it on there (``effects.HANDS_ON``; docs/decisions.md
            # "A helper that hands the running exception on")
            frame.handlers.append((None, RUNNING_HANDLER))
        catching, self._catching = self._catching, []  # (a function's own `try`s only)
        try:
            huge, self._huge = self._huge, None
            body = self.block(node.body) if huge is None else self._chunked_body(huge)
        finally:
            self.frames.pop()
            self._catching = catching
        self.stmt_lines = saved_lines
        fn = self._end(frame, node.name.value, cls, sp, params, body)
        fn.positional = tuple(p.name.value for p in (*node.params.posonly_params, *node.params.params)) + (
            (node.params.star_arg.name.value,) if isinstance(node.params.star_arg, cst.Param) else ())
        if isinstance(node.params.star_arg, cst.Param):
            fn.star = node.params.star_arg.name.value
        fn.decorators = tuple(decorators)
        # (a keyword argument binds neither a positional-only parameter nor `*args`/`**kw`)
        fn.flag_params = tuple(p.name.value for p in (*node.params.params, *node.params.kwonly_params)
                               if _flag_param(p))
        if fn.flag_params:  # (nor a name a comprehension of its body binds again: a review)
            bound = _comprehension_targets(node.body)
            fn.flag_params = tuple(n for n in fn.flag_params if n not in bound)
        fn.runs_param = runs_first_param(fn, tuple(p.name.value for p in (*node.params.posonly_params,
                                                                            *node.params.params)))
        fn.context_manager = manager
        fn.tail_line = 0 if manager else frame.names.tail_line
        fn.yield_at = frame.names.yield_at if fn.tail_line else ()
        fn.is_async = node.asynchronous is not None
        fn.rebound = rebinds(self.frame.classes[-1].names if self.frame.classes else self.frame.names, node.name.value)
        # (the `ast`'s line of a `def` is its name's, but for an `async` on a line of its
        # own: a limit; asking libcst for the `async`'s position costs a fallback walk)
        if name_span.line in self.scopes.superseded:
            for inner in self.facts.functions[made_before:]:
                inner.superseded = True  # it and what its body defines run nowhere (a review)
        fn.returns = self.returned_type(frame)
        fn.typed = self.typed_names(frame)
        fn.handed = handed_call(fn.body)
        if frame.returned:
            fn.wrapper = returned_wrapper(fn, fn.positional, frame.returned, self.function_named)

    def _reads_running(self, node: cst.FunctionDef) -> bool:
        """Whether the text of ``node`` may ask for the exception being handled
        (``sys.exc_info()``, ``sys.exception()``, ``traceback.format_exc()``): only such
        a function is walked as if in its caller's handler (a text test, so other
        functions pay nothing)."""
        sp = self.span(node)
        return any(_RUNNING_TEXT.search(line) for line in self.lines[max(0, sp.line - 1):sp.end_line])

    def _chunked_body(self, huge: HugeDef) -> List[Stmt]:
        """The body of a huge function, parsed a group of whole statements at a time
        (each group inside an ``if True:`` line, so columns stay the file's); the
        header's tree and positions are put back afterwards."""
        positions, offset = self.positions, self.offset
        body: List[Stmt] = []
        for chunk_offset, text in huge.body:
            self.offset = chunk_offset
            tree = cst.parse_module(text)
            self.set_chunk(tree, chunk_offset, text)
            wrapper = tree.body[0]
            assert isinstance(wrapper, cst.If)
            body.extend(self.block(wrapper.body))
            self.positions = {}
            del tree, wrapper
        self.positions, self.offset = positions, offset
        if body:
            huge.end = body[-1].span
        return body

    def module(self, chunks: Iterable[Union[Tuple[int, str], HugeDef]]) -> None:
        """The module body, parsed chunk by chunk (top-level statements are
        independent, and one libcst tree of a 20 MB file would not fit in memory)."""
        self.facts.imports, self.facts.star_imports, frame_imports = module_table(self.import_tables.get(0, {}))
        self.facts.aliases = scopesmod.module_aliases(self.scopes)
        self.facts.strings = scopesmod.module_strings(self.scopes)
        self.facts.rebinds = tuple(sorted(self.scopes.rebinds))
        saved_lines = self.stmt_lines
        frame = FunctionScope("<module>", self.scopes.functions.get(0) or scopesmod.ScopeTable(), 0, frame_imports)
        self.frames.append(frame)
        body: List[Stmt] = []
        for chunk in chunks:
            if isinstance(chunk, HugeDef):
                self.offset = chunk.offset
                tree = cst.parse_module(chunk.header)
                self.set_chunk(tree, chunk.offset, chunk.header)
                self._huge = chunk
                stmts = self.block(tree.body)
                self._huge = None
                if stmts and chunk.end is not None:  # the def statement ends where its body does
                    sp = stmts[-1].span
                    sp.end_line, sp.end_col, sp.end_col16 = chunk.end.end_line, chunk.end.end_col, chunk.end.end_col16
                body.extend(stmts)
                self.positions = {}
                continue
            offset, text = chunk
            self.offset = offset  # (a parse error's line is counted from the chunk)
            tree = cst.parse_module(text)
            self.set_chunk(tree, offset, text)
            body.extend(self.block(tree.body))
            self.positions = {}
        self.frames.pop()
        self.stmt_lines = saved_lines
        sp = Span(1, 0, max(1, len(self.lines)), 0)
        self._end(frame, "<module>", None, sp, (), body)

    def units(self, pieces: Iterable[Tuple[Sequence[Tuple[str, int]], Union[Tuple[int, str, Optional[ast.Module]], HugeDef]]]) -> None:
        """Only some functions of the file, each walked in its context (``frontend``'s
        ``units``): a piece is the enclosing classes (name and line, outermost first)
        and the function's text, a top-level function's lines as they are, any other's
        inside an ``if True:`` line (so columns stay the file's), with that text's
        ``ast`` when the caller cut it from the file's (``frontend.piece_ast``), or a
        huge top-level function's ``HugeDef``. The module body itself is not walked: what its walk
        would record of these definitions (their ``def`` statements) is not read."""
        frame = FunctionScope("<module>", self.scopes.functions.get(0) or scopesmod.ScopeTable(), 0,
                              module_table(self.import_tables.get(0, {}))[2])
        self.frames.append(frame)
        for classes, piece in pieces:
            for name, line in classes:
                qual = self.child_qualname(name)
                frame.classes.append(ClassScope(qual, self.scopes.classes.get(line) or scopesmod.ScopeTable(), line))
            if isinstance(piece, HugeDef):
                self.offset = piece.offset
                tree = cst.parse_module(piece.header)
                self.set_chunk(tree, piece.offset, piece.header)
                self._huge = piece
                self.block(tree.body)
                self._huge = None
            else:
                offset, text, piece_ast = piece
                self.offset = offset
                tree = cst.parse_module(text)
                self.set_chunk(tree, offset, text, piece_ast)
                wrapper = tree.body[0]
                self.block(wrapper.body if isinstance(wrapper, cst.If) else tree.body)
            self.positions = {}
            frame.classes.clear()
        self.frames.pop()


def _captures(pattern: cst.CSTNode) -> List[str]:
    """Names a ``case`` pattern binds."""
    out: List[str] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.MatchAs, cst.MatchStar)) and isinstance(node.name, cst.Name):
            out.append(node.name.value)
        if isinstance(node, cst.MatchMapping) and isinstance(node.rest, cst.Name):
            out.append(node.rest.value)
        stack.extend(children(node))
    return out



def _header_end(builder: Any, node: cst.CSTNode, parts: Sequence[Optional[cst.CSTNode]]) -> cst.CSTNode:
    """The part of a ``def``'s or a ``class``'s header that ends last (its name, a
    parameter's default, a base): the header's last line is where a suppression
    comment for a call in its decorators or header is read (docs/configuration.md,
    Suppressions). Only parts the front end reads have positions (an annotation, a
    keyword of a class header has none on the fast path: positions.py)."""
    best, end = node, -1
    for part in parts:
        if part is None:
            continue
        line = builder.span(part).end_line
        if line > end:
            best, end = part, line
    return best


def _header_colon_line(lines: Sequence[str], line: int, col: int) -> int:
    """The line of the colon that ends a compound statement's header (``header_colon``),
    as a suppression comment there belongs to the header (docs/configuration.md,
    Suppressions); ``line`` when there is none to find."""
    return (header_colon(lines, line, col) or (line, col))[0]


def _comprehension_targets(node: cst.CSTNode) -> Set[str]:
    """The plain names the comprehensions under ``node`` bind (``for r, commit in runs``)."""
    out: Set[str] = set()
    stack: List[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.CompFor):
            targets: List[cst.CSTNode] = [n.target]
            while targets:
                t = targets.pop()
                if isinstance(t, cst.Name):
                    out.add(t.value)
                elif isinstance(t, (cst.Tuple, cst.List)):
                    targets.extend(e.value for e in t.elements)
                elif isinstance(t, cst.StarredElement):
                    targets.append(t.value)
        stack.extend(n.children)
    return out


def _flag_param(p: cst.Param) -> bool:
    """A parameter whose default is ``True``/``False`` or whose annotation is ``bool``."""
    if isinstance(p.default, cst.Name) and p.default.value in ("True", "False"):
        return True
    if p.annotation is None:
        return False
    return flag_annotation(cst.Module([]).code_for_node(p.annotation.annotation))


def _all_params(params: cst.Parameters) -> List[cst.Param]:
    out = list(params.posonly_params) + list(params.params) + list(params.kwonly_params)
    if isinstance(params.star_arg, cst.Param):
        out.append(params.star_arg)
    if params.star_kwarg is not None:
        out.append(params.star_kwarg)
    return out


def _delegated_call(small: cst.BaseSmallStatement, events: ExprSeq) -> Optional[int]:
    """``yield from f()`` (alone, or the value of an assignment): the id of the call
    the generator delegates to, which it runs to its end there, so the delegated
    generator's tail runs after its last ``yield`` (``cfg._simple``; session 65's note)."""
    value = small.value if isinstance(small, (cst.Expr, cst.Assign, cst.AnnAssign)) else None
    if (isinstance(value, cst.Yield) and isinstance(value.value, cst.From) and isinstance(value.value.item, cst.Call)
            and events and isinstance(events[-1], Call)):
        return events[-1].id  # (the call's own node comes after its arguments')
    return None


def _test_call(test: cst.BaseExpression, events: ExprSeq) -> Tuple[Optional[int], bool, Optional[str], bool]:
    """A test that is one call (``await`` allowed), alone or under ``not`` (any number): the id of
    that call (the last event of the test: a call comes after its arguments), whether
    it is negated, ``None`` and False. A test ``A and f()`` / ``A or f()`` (the call the
    last operand, docs/decisions.md "Conditional effects through and/or"): the same, with
    ``"and"`` / ``"or"``, and whether that operand is the call under ``not`` (``A and not
    f()``: the test's own value, which decides where the skipped evaluation goes, is
    not the call's; held-out set 66). A test ``f() and A`` / ``f() or A`` whose ``A`` has
    no event (no call, nothing that raises: ``force``, ``run.dry_run``): the call's id
    with ``"first-and"`` / ``"first-or"``, and whether the call stands under ``not``.
    Anything else: ``(None, False, None, False)``."""
    negated = False
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, negated = test.expression, not negated  # (`not not f()` is `f()`'s value)
    while isinstance(test, (cst.Await, cst.NamedExpr)):
        # (`if ok := self._claim(run):` tests the call's value too: held-out set 336)
        test = test.expression if isinstance(test, cst.Await) else test.value
    if isinstance(test, cst.Call) and events and isinstance(events[-1], Call):
        return events[-1].id, negated, None, False
    if isinstance(test, cst.BooleanOperation):
        right, inner = test.right, False
        while isinstance(right, cst.UnaryOperation) and isinstance(right.operator, cst.Not):
            right, inner = right.expression, not inner
        while isinstance(right, (cst.Await, cst.NamedExpr)):
            right = right.expression if isinstance(right, cst.Await) else right.value
        last = events[-1] if events else None
        chain = "and" if isinstance(test.operator, cst.And) else "or"
        if (isinstance(right, cst.Call) and isinstance(last, Choice) and len(last.options) == 2
                and last.options[0] and not last.options[1] and isinstance(last.options[0][-1], Call)):
            return last.options[0][-1].id, negated, chain, inner
        left, inner = test.left, False
        while isinstance(left, cst.UnaryOperation) and isinstance(left.operator, cst.Not):
            left, inner = left.expression, not inner
        while isinstance(left, (cst.Await, cst.NamedExpr)):
            left = left.expression if isinstance(left, cst.Await) else left.value
        if isinstance(left, cst.Call) and isinstance(last, Call):
            # `f() or force`: the call is the first operand and the other one has no
            # event of its own (it would stand last, in a `Choice`); on the branch the
            # call decides alone the test has the call's value, on the other one both
            # (session 65's note: `if self._claim(run) or force: return`)
            return last.id, negated, "first-" + chain, inner
    return None, False, None, False


def guard_runs(test: cst.BaseExpression) -> Tuple[Tuple[Tuple[str, ...], ...], Tuple[bool, ...]]:
    """The predicates of an ``if``/``while`` test that may ask whether a record already
    ended, as token runs (the vocabulary says which do: ``Vocabulary.is_guard``), and for
    each the branch on which it says "not ended" (True: the test's true branch).

    A predicate is an ``is_``/``has_`` attribute, method or function (``run.is_finished``,
    ``state.is_final()``, ``has_failed(run)``), alone or under ``not``; in an ``and`` chain
    it counts under ``not`` (the whole test true: it is false), in an ``or`` chain without
    (the whole test false: it is false). Anything else (a comparison, a predicate as an
    argument) tells nothing (docs/decisions.md "Idempotency guards")."""
    runs: List[Tuple[str, ...]] = []
    opens: List[bool] = []

    def predicate(node: cst.BaseExpression) -> Optional[Tuple[str, ...]]:
        while isinstance(node, cst.Await):
            node = node.expression
        if isinstance(node, cst.Call):
            node = node.func
        name = node.attr.value if isinstance(node, cst.Attribute) else node.value if isinstance(node, cst.Name) else None
        if name is None:
            return None
        run = split_tokens(name)
        return run if len(run) >= 2 and run[0] in ("is", "has") else None

    def operands(node: cst.BaseExpression) -> List[cst.BaseExpression]:
        if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.And):
            return operands(node.left) + operands(node.right)
        return [node]

    def none_checked(node: cst.BooleanOperation, negated: bool) -> bool:
        """``state and state.is_final()``: the other operands only check that the
        predicate's receiver is there, so the test's false branch says "not ended"."""
        ops = operands(node)
        preds = [o for o in ops if predicate(o) is not None]
        if len(preds) != 1:
            return False
        target = preds[0]
        while isinstance(target, cst.Await):
            target = target.expression
        func = target.func if isinstance(target, cst.Call) else target
        if not isinstance(func, cst.Attribute):
            return False
        receiver = render_callee(func.value)
        for o in ops:
            if o is preds[0]:
                continue
            if not isinstance(o, (cst.Name, cst.Attribute)):
                return False
            text = render_callee(o)
            if not (receiver == text or receiver.startswith(text + ".")):
                return False
        run = predicate(preds[0])
        assert run is not None
        runs.append(run)
        opens.append(negated)
        return True

    def walk(node: cst.BaseExpression, negated: bool, chain: Optional[str]) -> None:
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            if chain is None:
                walk(node.expression, not negated, None)
            else:  # `A and not P`: one operand under `not`
                run = predicate(node.expression)
                if run is not None and chain == "and":
                    runs.append(run)
                    opens.append(not negated)
            return
        if isinstance(node, cst.BooleanOperation):
            op = "and" if isinstance(node.operator, cst.And) else "or"
            if chain is None and op == "and" and none_checked(node, negated):
                return
            # under `not`, `not (A and B)` is `not A or not B`: keep it simple, nothing
            if negated:
                return
            if chain is None or chain == op:
                walk(node.left, False, op)
                walk(node.right, False, op)
            return
        run = predicate(node)
        if run is None:
            return
        if chain is None:
            runs.append(run)
            opens.append(negated)  # `P`: not ended on the false branch; `not P`: on the true one
        elif chain == "or":
            runs.append(run)
            opens.append(False)

    walk(test, False, None)
    return tuple(runs), tuple(opens)


def _is_false_constant(node: cst.BaseExpression) -> bool:
    """``False``, ``None``, ``0``, ``""``: a test CPython knows is false."""
    if isinstance(node, cst.Name):
        return node.value in ("False", "None")
    if isinstance(node, cst.Integer):
        try:
            return int(node.value, 0) == 0
        except ValueError:
            return False
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return isinstance(value, (str, bytes)) and len(value) == 0
    return False


def _is_true_constant(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name) and node.value == "True":
        return True
    if isinstance(node, cst.Integer):
        try:
            return int(node.value, 0) != 0
        except ValueError:
            return False
    if isinstance(node, cst.SimpleString):
        return len(node.evaluated_value or "") > 0 if isinstance(node.evaluated_value, (str, bytes)) else False
    return False


def _literal_items(node: cst.BaseExpression) -> Optional[int]:
    """How many items a ``for`` over ``node`` takes at most, when ``node`` is a tuple,
    list or set display with no ``*`` (``for h in (a, b):``) or a string constant;
    None for anything else (a name, a call, a display with a starred item)."""
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        if any(isinstance(e, cst.StarredElement) for e in node.elements):
            return None
        return len(node.elements)
    if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, (str, bytes)):
        return len(node.evaluated_value)
    return None


def _irrefutable(pattern: cst.MatchPattern) -> bool:
    if isinstance(pattern, cst.MatchAs):
        return pattern.pattern is None or _irrefutable(pattern.pattern)
    if isinstance(pattern, cst.MatchOr):
        return any(_irrefutable(p.pattern) for p in pattern.patterns)
    return False


#: the exceptions an operator or an unpacking raises, and the classes above them
OPERATOR_ERRORS = frozenset({"ValueError", "TypeError", "ZeroDivisionError", "ArithmeticError", "Exception",
                             "BaseException"})


def _catches_builtin_errors(handler: "Union[cst.ExceptHandler, cst.ExceptStarHandler]") -> bool:
    """Whether an ``except`` clause names (as written, last component) a class an
    operator's or an unpacking's own error is (``OPERATOR_ERRORS``), or is bare."""
    if handler.type is None:
        return True
    elts = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
    return any(render_callee(e).rsplit(".", 1)[-1] in OPERATOR_ERRORS for e in elts)


def _unpacks(target: cst.BaseExpression, value: Optional[cst.BaseExpression]) -> bool:
    """Whether an assignment's target unpacks its value so that it may raise
    (``head, tail = parts``: ValueError, TypeError; held-out set 282): a tuple or list
    target, unless the value is a display of as many items, none starred."""
    if not isinstance(target, (cst.Tuple, cst.List)):
        return False
    if isinstance(value, (cst.Tuple, cst.List)):
        starred = any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements))
        return starred or len(target.elements) != len(value.elements)
    return True


#: augmented operators that raise by themselves (``ZeroDivisionError``), as their binary
#: forms do (``raises_outside_calls``); by name, as libcst is imported only when a file
#: is first parsed (a warm run never imports it)
_RAISING_AUG = frozenset({"DivideAssign", "FloorDivideAssign", "ModuloAssign"})


def _method_decorator_nodes(call: cst.Call) -> List[cst.BaseExpression]:
    """The decorators a ``method_decorator(...)`` call applies, as nodes (a call's by
    its callee): ``scopes.method_decorator_targets``'s reading."""
    first = call.args[0] if call.args else None
    arg: Optional[cst.BaseExpression] = None
    if first is not None and first.keyword is None and not first.star:
        arg = first.value
    elif first is None or first.keyword is not None:
        arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "decorator"), None)
    if isinstance(arg, (cst.List, cst.Tuple)):
        items = [el.value for el in arg.elements if isinstance(el, cst.Element)]
    else:
        items = [arg] if arg is not None else []
    return [it.func if isinstance(it, cst.Call) else it for it in items]


#: the calls that only show a value (a log line, a print): a record they receive is
#: not built for them (``_shown_only``)
_SHOWING = frozenset({"print", "debug", "info", "warning", "warn", "error", "exception", "critical", "log",
                      "echo", "secho", "pprint"})


def _shown_only(call: Call) -> bool:
    """Whether a call only shows what it is given (`print(y)`, `logger.info("%s", rec)`,
    `click.echo(rec)`): a record an assignment bound and such a call then receives was
    not built for another call (held-out set 426: `y = record_run_failed(conn, rid)`,
    then `print(y)`, lost the helper's own marker; docs/decisions.md "A record built
    for another call")."""
    return call.callee.rsplit(".", 1)[-1] in _SHOWING


def class_methods(block: cst.BaseSuite, top: bool = True) -> List[str]:
    """The names of the functions a class body defines, also under an ``if``, ``try``
    or ``with`` of the body (``if sys.version_info >= (3, 11): def __exit__(...)``):
    Python binds them in the class as well (``outline.class_methods``, over ``ast``). A
    later alias of the body rebinds the name (``persist = _noop``): then it is no method."""
    names: List[str] = []
    stmts = block.body if isinstance(block, cst.IndentedBlock) else []
    for st in stmts:
        if isinstance(st, cst.FunctionDef):
            names.append(st.name.value)
        elif isinstance(st, cst.If):
            names += class_methods(st.body, False)
            rest = st.orelse
            while isinstance(rest, cst.If):
                names += class_methods(rest.body, False)
                rest = rest.orelse
            if isinstance(rest, cst.Else):
                names += class_methods(rest.body, False)
        elif isinstance(st, cst.With):
            names += class_methods(st.body, False)
        elif isinstance(st, (cst.Try, cst.TryStar)):
            names += class_methods(st.body, False)
            for h in st.handlers:
                names += class_methods(h.body, False)
            for part in (st.orelse, st.finalbody):
                if part is not None:
                    names += class_methods(part.body, False)
        elif top and isinstance(st, cst.SimpleStatementLine):
            for small in st.body:
                if isinstance(small, cst.Assign) and isinstance(small.value, (cst.Name, cst.Attribute)):
                    rebound = {t.target.value for t in small.targets if isinstance(t.target, cst.Name)}
                    names = [n for n in names if n not in rebound]
    return names


#: what a literal is, for correlated tests' witnesses (``feasible``'s masks)
_NONE, _FALSY, _TRUTHY = 1, 2, 4


def literal_truth(value: cst.BaseExpression) -> int:
    """``Stmt.literals``'s mask of an immutable literal value: None, falsy (``0``,
    ``""``, ``()``, ``False``) or truthy (``(x,)``, ``"done"``, ``True``); 0 when it is
    no literal or its truth is not known (``(*xs,)``, a concatenation). A mutable
    display (``[]``, ``{}``, ``{x}``) is not None, its truth unknown: another name, an
    attribute or a closure may hold the same object and fill it (a review, session 34)."""
    if isinstance(value, cst.Name):
        return {"None": _NONE, "False": _FALSY, "True": _TRUTHY}.get(value.value, 0)
    if isinstance(value, (cst.Integer, cst.Float, cst.Imaginary)):
        try:
            return _TRUTHY if ast.literal_eval(value.value) else _FALSY
        except (ValueError, SyntaxError):
            return 0
    if isinstance(value, cst.SimpleString):
        try:
            return _TRUTHY if value.evaluated_value else _FALSY
        except Exception:  # noqa: BLE001 - an escape libcst cannot evaluate
            return 0
    if isinstance(value, cst.Tuple):
        if not value.elements:
            return _FALSY
        return _TRUTHY if any(not isinstance(e, cst.StarredElement) for e in value.elements) else 0
    if isinstance(value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
        # `result = {...}`: a display is never None, whatever fills or empties it later
        # (held-out set 318, plat-harness: a witness took `if result is not None:` false
        # right after it, in the `finally` of `result = None; try: ... result = {...}`)
        return _FALSY | _TRUTHY
    if isinstance(value, cst.Call):
        # `einfo = ExceptionInfo()`: a constructor's instance is never None (its truth
        # is its class's business); a witness then does not take `if einfo is not
        # None:` false right after it (celery's `on_timeout`, session 49)
        callee = render_callee(value.func)
        last = callee.rsplit(".", 1)[-1].lstrip("_")
        if callee.replace(".", "").replace("_", "").isalnum() and last[:1].isupper() and not last.isupper():
            return _FALSY | _TRUTHY
    return 0


#: a hook's placeholder in its own words, whatever the exception: pgq's
#: `raise Exception('process_remote_batch not implemented')`, "needs to be
#: implemented", "subclasses must override this" (held-out set 144); not an error that
#: only mentions the words ("cannot be implemented", "refusing to override it", "was
#: overridden by the environment"; a review)
#: the text of a function that may ask for the exception being handled (``_reads_running``)
_RUNNING_TEXT = re.compile(r"exc_info|format_exc|exception\s*\(")
_PLACEHOLDER_WORDS = re.compile(
    r"\bnot\s+(?:yet\s+)?(?:been\s+)?implemented\b"
    # "plugin 'x' does not implement configure()" (buildstream's hooks; set 153)
    r"|\b(?:does|do)\s+not\s+implement\b(?!\s+__)|\b(?:doesn't|don't)\s+implement\b(?!\s+__)"
    # "must be implemented (by each backend)", "X must implement run()"
    # (not a protocol's method: "must implement __lt__", "does not implement __fspath__")
    r"|\b(?:must|should|needs?\s+to|has\s+to|have\s+to)\s+(?:be\s+implemented|implement\b(?!\s+__))"
    # "should be overridden" ending the message, or followed by who does it ("in your
    # subclass"); not "must be overridden by the admin" nor "...: set APP_PASSWORD"
    r"|\b(?:must|should|needs?\s+to|has\s+to|have\s+to)\s+be\s+(?:overridden|overriden)"
    r"(?=\s*[.!]?\s*$|\s+(?:in|by)\s+(?:(?:a|an|the|your|each|every|any)\s+)?"
    r"(?:sub-?class|child|derived|concrete|implementation))"
    # "subclasses must override this": who must, said ("you must override the default"
    # is a setting)
    r"|\b(?:sub-?class(?:es)?|child\s+class(?:es)?|derived\s+class(?:es)?|implementations?)\s+"
    r"(?:must|should|needs?\s+to|ha(?:s|ve)\s+to)\s+override\b"
    r"|\bnot\s+overridden\b|\bplease\s+(?:override|implement)\b"
    # "abstract method" (not Python's own "Can't instantiate abstract class X with
    # abstract method save": ``_NOT_A_HOOK``)
    r"|\babstract\s+method\b",
    re.IGNORECASE)
#: what makes such words no hook's: an HTTP status's reason ("501 Not Implemented",
#: `f"{resp.status} Not Implemented"`: a value before it), Python's own error for an
#: abstract class instantiated
_NOT_A_HOOK = re.compile(r"\b501\b|\x00\s*Not\s+Implemented\b|instantiate\s+abstract\s+class")


def says_not_implemented(exc: cst.BaseExpression) -> bool:
    """Whether a raised exception says "not implemented here": ``NotImplementedError``
    (called or not), or an exception built with a message that says so, its string
    literals and f-strings' text read whole however the call is wrapped or split into
    adjacent literals (``ir.Stmt.placeholder``; docs/decisions.md "A helper that never
    returns")."""
    func = exc.func if isinstance(exc, cst.Call) else exc
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if name == "NotImplementedError":
        return True
    if not isinstance(exc, cst.Call):
        return False
    words: List[str] = []
    stack: List[cst.CSTNode] = [a.value for a in exc.args]
    while stack:
        node = stack.pop(0)
        if isinstance(node, cst.SimpleString):
            value = node.evaluated_value
            words.append(value if isinstance(value, str) else value.decode("latin-1"))
        elif isinstance(node, cst.ConcatenatedString):
            stack[:0] = [node.left, node.right]
        elif isinstance(node, cst.FormattedString):
            # (an expression's value is unknown: a mark no wording holds)
            words.extend(p.value if isinstance(p, cst.FormattedStringText) else " \x00 " for p in node.parts)
        elif isinstance(node, cst.BinaryOperation):  # `"..." + name + "..."`, `"... %s" % x`
            stack[:0] = [node.left, node.right]
        elif (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
              and node.func.attr.value == "format"):  # `"... {} not implemented".format(x)` (set 153)
            stack[:0] = [node.func.value]
    message = " ".join(words)
    return bool(_PLACEHOLDER_WORDS.search(message)) and not _NOT_A_HOOK.search(message)


def _docstring(st: Stmt) -> bool:
    """A statement that is a string literal alone (a docstring)."""
    return st.kind == StmtKind.SIMPLE and not st.events and st.text.lstrip("(").lstrip("rRuUbB")[:1] in ("'", '"')


def returned_names(value: cst.BaseExpression) -> List[str]:
    """The plain names a ``return`` returns as a function (``FunctionScope.returned``):
    the value itself, or a positional argument of the call it is, through calls of
    calls (``functools.wraps(fn)(wrapper)``); the outline reads the same
    (``outline.returned_names``)."""
    if isinstance(value, cst.Name):
        return [value.value]
    if not isinstance(value, cst.Call):
        return []
    out = returned_names(value.func) if isinstance(value.func, cst.Call) else []
    for arg in value.args:
        if arg.keyword is None and not arg.star:
            if isinstance(arg.value, cst.Name):
                out.append(arg.value.value)
            elif isinstance(arg.value, cst.Call):
                out.extend(returned_names(arg.value))
    return out


def handed_call(body: List[Stmt]) -> Optional[Call]:
    """``FunctionFacts.handed``: the call of a body that is one ``return`` of one call
    (nothing else called in it), a docstring aside."""
    rest = body[1:] if body and _docstring(body[0]) else body
    if len(rest) != 1 or rest[0].kind != StmtKind.RETURN or len(rest[0].events) != 1:
        return None
    call = rest[0].events[0]
    # (the call is the whole value: not `[f()]`, `not f()`, `await f()`, `f().x`; the
    # outline reads the same, a review)
    if not isinstance(call, Call) or not rest[0].text.startswith("return"):
        return None
    value = " ".join(rest[0].text[len("return"):].split())
    while value.startswith("(") and value.endswith(")") and value[1:-1] != call.text:
        value = value[1:-1].strip()  # (`return (` / `f()` / `)`: a review)
    return call if value in (call.text, f"({call.text})") else None
