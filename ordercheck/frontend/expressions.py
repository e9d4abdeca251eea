"""The expression walk: a statement's calls in Python's evaluation order.

``ExpressionWalker`` holds what the whole walk of one file shares — the positions of
the chunk being walked, the stack of ``FunctionScope``s (one per function being
walked, the module body first) and the per-statement scratch state — and turns an
expression into an ``ExprSeq``: the callee's own sub-expressions, then positional
and starred arguments, then keyword arguments, then the call; ``Choice`` for short
circuits and conditional expressions, ``Repeat`` for comprehension bodies, a
``RaisePoint`` for an attribute access or subscript on a call's result. It also
resolves callees (imports, aliases, receiver types: semantics §Events) and follows a
caught exception into the calls that receive it (semantics §Contracts, handing on).
The statement walk (``statements``) builds on it.
"""
from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple, Union, cast

from .. import lazy
from .. import scopes as scopesmod
from ..ir import Call, Choice, ExprSeq, Fact, FileFacts, RaisePoint, Repeat, Span, utf16_col
from ..kinds import RUNNING_LINE
from ..markers import argument_runs, callee_run, expression_runs
from .positions import children, positions_of
from .resolution import (
    TABLE_RENAME,
    CallNames,
    FunctionScope,
    Resolver,
    alternatives,
    awaits_first,
    destination,
    detaches_first,
    key_text,
    keyed_names,
    level_argument,
    passes_keywords,
    returns_exceptions,
    runner_slot,
    runs_to_end,
    starts_in_group,
    table_rename,
    wraps_callable,
)

if TYPE_CHECKING:  # the real modules, for the type checker
    import libcst as cst
    from libcst.metadata import CodeRange

    Comprehension = Union[cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp]
else:
    cst = lazy.module("libcst", globals(), "cst")  # imported by the first extraction: a warm run never parses

# --------------------------------------------------------------------------- rendering

_WRAP_OPEN = re.compile(r"([(\[{]) ")
_WRAP_CLOSE = re.compile(r",? ([)\]}])")


def code_part(line: str) -> str:
    """A source line without its comment (a ``#`` outside string quotes)."""
    if "#" not in line:
        return line
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif line.startswith(quote, i):
                i += len(quote) - 1
                quote = ""
        elif ch in "'\"":
            quote = line[i:i + 3] if line[i:i + 3] in ("'''", '"""') else ch
            i += len(quote) - 1
        elif ch == "#":
            return line[:i]
        i += 1
    return line


def _unbroken(piece: str) -> str:
    """A line of a wrapped node without the ``\\`` that continues it: ``append(run, \\``
    then ``1)`` reads as ``append(run, 1)``, as the same call wrapped in its brackets."""
    return piece[:-1].rstrip() if piece.endswith("\\") else piece


def _join_lines(pieces: List[str]) -> str:
    """The lines of a wrapped node joined by spaces, but a line that goes on with an
    attribute (``type(self)`` / ``.objects.filter(...)``, a chain written a call a
    line) joined to the one before as written on one line (held-out set 265)."""
    out = pieces[0] if pieces else ""
    for piece in pieces[1:]:
        # (`.5`, a number, and `...` go on after a space as before: a second review)
        out += piece if piece[:1] == "." and (piece[1:2].isalpha() or piece[1:2] == "_") else " " + piece
    return out


def _join_wrapped(text: str) -> str:
    """Lines of a wrapped call joined by spaces, read as one line would be written:
    no space inside brackets, no trailing comma before a closing one."""
    return _WRAP_CLOSE.sub(r"\1", _WRAP_OPEN.sub(r"\1", text))



def header_colon(lines: Sequence[str], line: int, col: int) -> Optional[Tuple[int, int]]:
    """Just past the colon that ends a compound statement's header whose last read
    part ends at ``line``/``col``: past the closing brackets (a part's position leaves
    out its parentheses), commas, comments and line continuations that follow it
    (``if (`` ... ``):``, ``with (`` ... ``):``). None when anything else stands
    before the colon (a ``def``'s return annotation, a part with no position)."""
    at = line
    while 0 < at <= len(lines):
        text = lines[at - 1]
        while col < len(text):
            ch = text[col]
            if ch == ":":
                return at, col + 1
            if ch == "#":
                break
            if ch not in " \t\f)],\\\r\n":
                return None
            col += 1
        at, col = at + 1, 0
    return None


def render_callee(node: cst.CSTNode, keyed: bool = False) -> str:
    """Dotted text of a callee: ``self._store.save``, ``get_store().save`` (``?`` for
    what is not one). ``keyed``: a subscript's one string key written in,
    ``self.env["mail.message"].create`` (Odoo's models by name; held-out set 315), a
    name of the call besides ``self.env[].create`` that a pattern may name
    (``patterns.literal_subscripts``)."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{render_callee(node.value, keyed)}.{node.attr.value}"
    if isinstance(node, cst.Call):
        return f"{render_callee(node.func, keyed)}()"
    if isinstance(node, cst.Await):
        return render_callee(node.expression, keyed)
    if isinstance(node, cst.Subscript):
        key = None
        if keyed and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            value = node.slice[0].slice.value
            key = value.evaluated_value if isinstance(value, cst.SimpleString) else None
        return f"{render_callee(node.value, keyed)}[{key_text(key)}]"
    return "?"


def cst_flags(node: cst.Call, args: Optional[Sequence[cst.Arg]] = None) -> Tuple[Tuple[str, bool], ...]:
    """``Call.flags``: the keyword arguments written ``True`` or ``False`` (``args``: a
    handed callable's, ``sync_to_async(s.save)(force_insert=True)``; held-out set 317)."""
    return tuple((a.keyword.value, a.value.value == "True") for a in (node.args if args is None else args)
                 if a.keyword is not None and isinstance(a.value, cst.Name) and a.value.value in ("True", "False"))


def _raising_operator(node: cst.CSTNode) -> bool:
    """An operator that raises by itself in code that means it to (docs/decisions.md
    "An operator or an unpacking raises by itself"): a division or a remainder
    (`ZeroDivisionError`), an ordering or a membership comparison (`TypeError`), one
    comparison only (a chained one keeps its reading), with an operand that is no
    constant. Not `+`, `==`, `is`: they raise only on values the code did not mean,
    and reading them so put an exception on every `if x is None:` (a review)."""
    if isinstance(node, cst.BinaryOperation):
        if not isinstance(node.operator, (cst.Divide, cst.FloorDivide, cst.Modulo)):
            return False
        operands = (node.left, node.right)
    elif isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        op = node.comparisons[0].operator
        if not isinstance(op, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual,
                               cst.In, cst.NotIn)):
            return False
        operands = (node.left, node.comparisons[0].comparator)
    else:
        return False
    constants = (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.Imaginary)
    return not all(isinstance(o, constants) for o in operands)


def _holds_call(node: cst.CSTNode) -> bool:
    """Whether an expression holds a call it evaluates (not one in a lambda's body)."""
    if isinstance(node, cst.Call):
        return True
    if isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef)) or isinstance(node, _LEAVES):
        return False
    return any(_holds_call(c) for c in children(node))


def _gathered(value: cst.BaseExpression) -> List[cst.Call]:
    """The calls making the awaitables a positional argument of ``gather`` hands it:
    the argument itself, a comprehension's element, a list's or tuple's items."""
    if isinstance(value, (cst.GeneratorExp, cst.ListComp)):
        value = value.elt
    if isinstance(value, (cst.List, cst.Tuple)):
        return [e.value for e in value.elements if isinstance(e.value, cst.Call)]
    return [value] if isinstance(value, cst.Call) else []


def cst_level_args(node: cst.Call) -> Tuple[Tuple[str, str], ...]:
    """``Call.level_args``: each argument that names a logger level or method, by its
    position (``"0"``, ...; until a starred one) or its keyword."""
    out: List[Tuple[str, str]] = []
    positional = True
    for i, arg in enumerate(node.args):
        if arg.star:
            positional = False
            continue
        if arg.keyword is None and not positional:
            continue
        value = arg.value
        if isinstance(value, (cst.SimpleString, cst.ConcatenatedString)):
            got = value.evaluated_value
            method = level_argument(got, True) if isinstance(got, str) else None
        elif isinstance(value, (cst.Name, cst.Attribute)):
            method = level_argument(render_callee(value), False)
        else:
            method = None
        if method is not None:
            out.append((arg.keyword.value if arg.keyword is not None else str(i), method))
        if arg.keyword is not None:
            positional = False
    return tuple(out)


def cst_alternatives(func: cst.CSTNode) -> Tuple[str, ...]:
    """``resolution.alternatives`` of a libcst callee: ``(a or b).m``, ``(a if c else b).m``."""
    attrs: List[str] = []
    node = func
    while isinstance(node, cst.Attribute):
        attrs.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.BooleanOperation):
        options: List[str] = []
        stack: List[cst.CSTNode] = [node]
        while stack:  # (`a or b or c` nests: left to right)
            n = stack.pop()
            if isinstance(n, cst.BooleanOperation):
                stack.extend([n.right, n.left])
            else:
                options.append(render_callee(n))
    elif isinstance(node, cst.IfExp):
        options = [render_callee(node.body), render_callee(node.orelse)]
    else:
        return ()
    return alternatives(options, list(reversed(attrs)))


def cst_level(node: cst.Call) -> Optional[str]:
    """The first positional argument (else the ``level=`` keyword) of a call as
    ``resolution.level_method`` reads it (``resolution.ast_level`` of the outline's
    ``ast``)."""
    return args_level(node.args)


def args_level(args: Sequence[cst.Arg]) -> Optional[str]:
    """``cst_level`` of an argument list (a handed callable's: ``handed_callable``)."""
    if not args:
        return None
    first = args[0]
    value: Optional[cst.BaseExpression]
    if first.keyword is None and not first.star:
        value = first.value
    else:
        value = next((a.value for a in args if a.keyword is not None and a.keyword.value == "level"), None)
        if value is None or any(a.keyword is None and not a.star for a in args):
            return None
    if isinstance(value, cst.Integer):
        try:
            return str(int(value.value, 0))
        except ValueError:
            return None
    if isinstance(value, (cst.SimpleString, cst.ConcatenatedString)):
        got = value.evaluated_value
        return got if isinstance(got, str) else None
    if isinstance(value, (cst.Name, cst.Attribute)):
        return render_callee(value)
    return None


_RAISING: tuple = ()  # node kinds, filled by ``load_libcst`` (libcst is imported lazily)
_LEAVES: tuple = ()
_COMPREHENSIONS: tuple = ()


def load_libcst() -> None:
    """Fill the node-kind tuples the walk tests against (the first extraction's job)."""
    global _RAISING, _LEAVES, _COMPREHENSIONS
    if _LEAVES:
        return
    mod = cst.load() if isinstance(cst, lazy.LazyModule) else cst
    _RAISING = (mod.Attribute, mod.Subscript)
    _LEAVES = (mod.Name, mod.SimpleString, mod.Integer, mod.Float, mod.Imaginary, mod.Ellipsis, mod.FormattedStringText)
    _COMPREHENSIONS = (mod.ListComp, mod.SetComp, mod.DictComp, mod.GeneratorExp)


# --------------------------------------------------------------------------- scopes


# --------------------------------------------------------------------------- the walker


class ExpressionWalker(Resolver):
    """Positions, callee resolution and the expression walk of one file."""

    def __init__(self, facts: FileFacts, lines: List[str], imports: Dict[int, Dict[str, str]],
                 scopes: Optional[scopesmod.Scopes] = None) -> None:
        load_libcst()
        self.facts = facts
        self.scopes = scopes or scopesmod.Scopes()
        self.lines = lines
        self.import_tables = imports  # def line (0: module) -> import table, from ast
        self.positions: Mapping[cst.CSTNode, CodeRange] = {}
        self.source_ast: Optional[Tuple[str, ast.Module]] = None  # the file's text and ast, reused for positions
        self.offset = 0  # line offset of the chunk being walked
        self.next_call = 0
        self.frames: List[FunctionScope] = []  # the functions being walked, innermost last
        # per `try` being walked (the function's own): may it catch an operator's error
        # (``operators_raise``)
        self._catching: List[bool] = []
        self.comprehension_names: List[FrozenSet[str]] = []  # (``Resolver``)
        # per statement: its first and last line, and (correlated tests, handing on)
        self.stmt_lines: Tuple[int, int] = (1, 1)
        self._calls_here: Dict[int, Call] = {}  # id(cst.Call) -> Call, inside handlers
        self._w: List[str] = []  # names a walrus rebinds in the expressions walked
        self._handed_lambdas: set = set()  # ids of the lambdas a runner runs here (``handed_callable``)
        self._m: List[str] = []  # receivers of method calls in the expressions walked
        self._sink: set = set()

    def set_chunk(self, tree: cst.Module, offset: int, text: str, piece_ast: Optional[ast.Module] = None) -> None:
        """The chunk ``tree`` parsed from ``text``, at line ``offset`` of the file.
        ``piece_ast``: the ``ast`` of ``text`` cut from the whole file's (its lines are
        the file's), so that the positions need no second ``ast.parse``."""
        whole = self.source_ast
        if piece_ast is not None:
            self.positions = positions_of(tree, text, piece_ast, shift=offset)
        else:
            self.positions = positions_of(tree, text, whole[1] if whole is not None and whole[0] == text else None)
        self.offset = offset
        self._handed_lambdas.clear()

    def pos(self, node: cst.CSTNode) -> Tuple[int, int, int, int]:
        """(line, col, end line, end col) in the whole file."""
        r = self.positions[node]
        return r.start.line + self.offset, r.start.column, r.end.line + self.offset, r.end.column

    # ---- positions

    def span(self, node: cst.CSTNode) -> Span:
        line, col, end_line, end_col = self.pos(node)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        etext = self.lines[end_line - 1] if 0 < end_line <= len(self.lines) else ""
        return Span(line, col, end_line, end_col, utf16_col(text, col), utf16_col(etext, end_col))

    def text(self, node: cst.CSTNode, limit: int = 80) -> str:
        """The node's source text on one line, shortened (sliced from the source
        lines: rendering code for every call would be quadratic). A node over several
        lines is joined without its comments and line breaks, so a call reads the
        same however it is wrapped (``ledger.append(`` / ``r,`` / ``)`` is
        ``ledger.append(r)``): messages quote it, and baselines fingerprint it."""
        return self._one_line(*self.pos(node), limit)

    def _one_line(self, line_no: int, col: int, end_line: int, end_col: int, limit: int) -> str:
        if not (0 < line_no <= len(self.lines)):
            return ""
        line = self.lines[line_no - 1]
        if end_line == line_no:
            first = line[col:end_col].strip()
        else:
            pieces = [_unbroken(code_part(line[col:]).strip())]
            size = len(pieces[0])
            for n in range(line_no + 1, min(end_line, len(self.lines)) + 1):
                if size > limit:
                    break
                raw = self.lines[n - 1]
                piece = _unbroken(code_part(raw[:end_col] if n == end_line else raw).strip())
                pieces.append(piece)
                size += len(piece) + 1
            first = _join_wrapped(_join_lines([p for p in pieces if p]))
        if len(first) > limit:
            first = first[: limit - 3] + "..."
        return first

    def header_text(self, node: cst.CSTNode, until: Optional[cst.CSTNode] = None) -> str:
        """A compound statement's header line, as a witness shows a branch. ``until``:
        the header's last part (an ``if``'s test); a test wrapped over several lines is
        joined up to it (``if (`` alone said nothing of the test; held-out set 53)."""
        line_no = self.pos(node)[0]
        if until is not None:
            end_line, end_col = self.pos(until)[2:]
            end_line, end_col = header_colon(self.lines, end_line, end_col) or (end_line, end_col)
            if end_line > line_no:  # (`if (run.ready` then `):` too: a review)
                return self._one_line(line_no, self.pos(node)[1], end_line, end_col, 80)
        line = self.lines[line_no - 1] if 0 < line_no <= len(self.lines) else ""
        line = code_part(line).strip()
        return line if len(line) <= 80 else line[:77] + "..."

    def qualified(self, node: cst.CSTNode) -> Tuple[str, ...]:
        """Import-qualified name of a dotted expression (``suppress`` after
        ``from contextlib import suppress`` → ``contextlib.suppress``)."""
        return self.qualified_text(render_callee(node))

    def argument_types(self, node: cst.Call) -> Tuple[str, ...]:
        """The rendered and import-qualified names of a call's arguments: the exception
        types, should the call be ``contextlib.suppress`` (``Call.suppress_types``). A
        starred argument is its items: a tuple written there, or a name bound once to
        one (``suppress(*IGNORED)`` of ``IGNORED = (Exception,)``, as ``except IGNORED:``
        reads it; held-out set 477)."""
        out: List[str] = []
        line = 0

        def named(value: cst.BaseExpression, depth: int = 2) -> None:
            """A type, or a name bound once to a tuple of types (of tuples: a few levels)."""
            nonlocal line
            if isinstance(value, cst.Name) and depth:
                line = line or self.byte_pos(node)[0]
                items = self.tuple_items(value, line)
                if items:
                    for t in items:
                        named(cst.Name(t) if t.isidentifier() else cst.parse_expression(t), depth - 1)
                    return
            out.extend((render_callee(value), *self.qualified(value)))

        for a in node.args:
            if isinstance(a.value, (cst.Tuple, cst.List)):
                for e in a.value.elements:  # (`suppress(*(E1, E2))`; a tuple is as good as its items)
                    named(e.value)
            else:
                named(a.value)
        return tuple(out)

    def tuple_items(self, value: cst.CSTNode, line: int) -> Optional[Tuple[str, ...]]:
        """The types of the tuple a plain name of an ``except`` clause is bound to, once
        (``scopes.ScopeTable.tuple_alias``, bound before the clause in its own scope),
        else None."""
        if not isinstance(value, cst.Name):
            return None
        scope = self._lookup(value.value)
        found = scope[0].tuple_alias(value.value) if scope is not None else None
        if found is None or (scope is not None and scope[1] and (found[1], found[2]) > (line, 0)):
            return None
        return found[0]


    # ---- expressions (evaluation order)


    def expr(self, node: Optional[cst.CSTNode]) -> ExprSeq:
        seq: ExprSeq = []
        if node is not None:
            self._expr(node, seq)
        return seq

    def _expr(self, node: cst.CSTNode, seq: ExprSeq) -> None:
        if isinstance(node, _LEAVES):
            return  # nothing to evaluate inside (and libcst's .children is costly)
        if isinstance(node, cst.Call):
            self._call(node, seq)
        elif isinstance(node, cst.Lambda):
            # a lambda's body runs elsewhere, if ever; its defaults run here, in order
            for p in _lambda_defaults(node):
                self._expr(p, seq)
        elif isinstance(node, cst.BooleanOperation):
            self._expr(node.left, seq)
            right = self.expr(node.right)
            if right:
                seq.append(Choice((right, [])))
        elif isinstance(node, cst.Comparison) and len(node.comparisons) > 1:
            # ``a < b < c`` is ``a < b and b < c`` (``b`` once): each later operand
            # runs only when the comparisons before it held
            self._expr(node.left, seq)
            self._expr(node.comparisons[0].comparator, seq)
            tail: ExprSeq = []
            for comparison in reversed(node.comparisons[1:]):
                part = self.expr(comparison.comparator)
                tail = part + [Choice((tail, []))] if tail else part
            if tail:
                seq.append(Choice((tail, [])))
        elif isinstance(node, cst.IfExp):
            self._expr(node.test, seq)
            mark = len(self._w)
            body, orelse = self.expr(node.body), self.expr(node.orelse)
            if body or orelse:
                told = unwritten(self.tested(node.test), self._w[mark:])
                seq.append(Choice((body, orelse), told if any(told) else ()))
        elif isinstance(node, _COMPREHENSIONS):  # (a tuple filled at run time: no narrowing)
            self._comprehension(cast("Comprehension", node), seq)
        elif isinstance(node, cst.Attribute):
            before = len(seq)
            self._expr(node.value, seq)
            if len(seq) > before:
                seq.append(RaisePoint(self.pos(node)[2], self.span(node), self.text(node)))
        elif _raising_operator(node) and self.operators_raise():
            # `store.save(run) / n`: the operator raises once its operands ran
            before = len(seq)
            for child in children(node):
                self._expr(child, seq)
            if len(seq) > before:
                seq.append(RaisePoint(self.pos(node)[2], self.span(node), self.text(node)))
        elif isinstance(node, cst.Subscript):
            before = len(seq)
            self._expr(node.value, seq)
            for el in node.slice:
                self._expr(el, seq)
            if len(seq) > before:
                seq.append(RaisePoint(self.pos(node)[2], self.span(node), self.text(node)))
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return
        elif isinstance(node, cst.Await) and isinstance(node.expression, cst.Call):
            self._call(node.expression, seq, awaited=True)
        elif isinstance(node, cst.NamedExpr):
            if isinstance(node.target, cst.Name):
                self._w.append(node.target.value)
            self._expr(node.value, seq)
        else:
            for child in children(node):
                self._expr(child, seq)

    def _comprehension(self, node: Comprehension, seq: ExprSeq) -> None:
        fors: List[cst.CompFor] = []
        f: Optional[cst.CompFor] = node.for_in
        while f is not None:
            fors.append(f)
            f = f.inner_for_in
        before = len(seq)
        self._expr(fors[0].iter, seq)  # the first iterable is evaluated eagerly, outside its scope
        # (the call that is the whole iterable, as a `for` statement's ``iter_call``; not
        # an `async for`'s, whose rounds await)
        whole = (seq[-1].id if isinstance(fors[0].iter, cst.Call) and fors[0].asynchronous is None
                 and len(seq) > before and isinstance(seq[-1], Call) else None)
        # its ``for`` targets are the names of its own scope (``Resolver.comprehension_names``)
        self.comprehension_names.append(frozenset(n for comp in fors for n in _target_names(comp.target)))
        try:
            self._comprehension_body(node, fors, seq, whole)
        finally:
            self.comprehension_names.pop()

    def _comprehension_body(self, node: Comprehension, fors: List[cst.CompFor], seq: ExprSeq,
                            iter_call: Optional[int] = None) -> None:
        """The rounds of the first ``for`` (its iterable is already evaluated): each
        round tests its ``if`` clauses in turn, and one that is false ends the round
        there; what passes them evaluates the next ``for``'s iterable and runs its
        rounds, and the innermost round evaluates the element (semantics §Graphs:
        edges follow Python exactly; a conformance probe, session 40, found a false
        clause and an empty inner iterable could not skip the element). A
        comprehension's ``if`` tells no facts about names (§Contracts lists the
        statements and the conditional expression only)."""
        inner = self._comprehension_round(node, fors, 0)
        if inner:
            seq.append(Repeat(inner, iter_call))

    def _comprehension_round(self, node: Comprehension, fors: List[cst.CompFor], i: int) -> ExprSeq:
        out: ExprSeq = []
        tail = out
        for cond in fors[i].ifs:
            self._expr(cond.test, tail)
            rest: ExprSeq = []
            tail.append(Choice((rest, [])))
            tail = rest
        if i + 1 < len(fors):
            self._expr(fors[i + 1].iter, tail)
            deeper = self._comprehension_round(node, fors, i + 1)
            if deeper:
                tail.append(Repeat(deeper))
        elif isinstance(node, cst.DictComp):
            self._expr(node.key, tail)
            self._expr(node.value, tail)
        else:
            self._expr(node.elt, tail)
        return _without_empty_choices(out)

    def byte_pos(self, node: cst.CSTNode) -> Tuple[int, int]:
        """Where ``node`` starts: its line and its column in UTF-8 bytes, as the ``ast``
        counts them (what aliases are bound before: ``Resolver.alias_chain``)."""
        line, col = self.pos(node)[:2]
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return line, len(text[:col].encode("utf-8"))

    def getattr_target(self, func: cst.BaseExpression, line: int = 0,
                       col: int = 0) -> Optional[Tuple[str, Optional[str]]]:
        """``Resolver.through_getattr`` of a callee written ``getattr(x, "m")`` or
        ``getattr(x, name)`` (a default after them aside)."""
        if not (isinstance(func, cst.Call) and isinstance(func.func, cst.Name) and func.func.value == "getattr"
                and 2 <= len(func.args) <= 3 and all(a.keyword is None and not a.star for a in func.args)):
            return None
        target, attr = func.args[0].value, func.args[1].value
        receiver = render_callee(target) if isinstance(target, (cst.Name, cst.Attribute, cst.Call)) else None
        text = attr.evaluated_value if isinstance(attr, (cst.SimpleString, cst.ConcatenatedString)) else None
        return self.through_getattr(receiver, text if isinstance(text, str) else None,
                                    attr.value if isinstance(attr, cst.Name) else None, line, col)

    def aliased_callee(self, node: cst.Call) -> Optional[str]:
        """A call's callee through the aliases in force where it stands: a record
        constructor's name for its marker (``Done = RunCompleted``; ``Done(run.id)``
        gives ``completed``; ``markers.MarkerWalk``)."""
        chain = self.alias_chain(render_callee(node.func), *self.byte_pos(node))
        return chain[-1] if len(chain) > 1 else None

    def _call(self, node: cst.Call, seq: ExprSeq, awaited: bool = False) -> Call:
        func = node.func
        # the callee's own sub-expressions first (``get_store().save``), then the
        # positional and starred arguments, then keyword and ``**`` arguments, as
        # CPython evaluates them whatever their order in the source
        if not isinstance(func, cst.Name):
            self._expr(func, seq)
        line, at = self.byte_pos(node)
        # `await asyncio.wait_for(asyncio.to_thread(f), 5)`: the first argument is awaited too
        lead = _positional(node.args, 0)
        first = lead if awaited else None
        through = isinstance(first, cst.Call) and awaits_first(self.call_names(render_callee(func), line, at), True)
        detaching = (isinstance(lead, cst.Call) and not awaited and (line, at) not in self.scopes.kept_values
                     and detaches_first(self.call_names(render_callee(func), line, at)))
        gathering = returns_exceptions(self.call_names(render_callee(func), line, at),
                                       {a.keyword.value: render_callee(a.value) for a in node.args if a.keyword is not None})
        made = self.next_call
        for arg in node.args:
            if arg.keyword is None and arg.star != "**":
                if through and arg.value is first:
                    self._call(cast("cst.Call", first), seq, awaited=True)
                elif detaching and arg.value is lead:  # `asyncio.create_task(self._persist(run))`
                    self._call(cast("cst.Call", lead), seq).detached = True
                else:
                    self._expr(arg.value, seq)
        if gathering and self.frames:  # `gather(*(self._run(e) for e in es), return_exceptions=True)`
            # (by the whole span: `self._prepare(run).send()` starts where its receiver's
            # call does, which runs before the gather and raises as before; a review)
            spans = {(sp.line, sp.col, sp.end_line, sp.end_col) for a in node.args if a.keyword is None
                     and a.star != "**" for sp in (self.span(c) for c in _gathered(a.value))}
            for c in self.frame.calls:
                if c.id >= made and (c.span.line, c.span.col, c.span.end_line, c.span.end_col) in spans:
                    c.gathered = True
        for arg in node.args:
            if arg.keyword is not None or arg.star == "**":
                self._expr(arg.value, seq)
        callee_text, level = render_callee(func), cst_level(node)
        through_attr = self.getattr_target(func, line, at)
        if through_attr is not None:  # `getattr(self.logger, level)(msg)`
            callee_text, level = through_attr[0], through_attr[1] or level
        names = self.call_names(callee_text, line, at, level, cst_alternatives(func),
                                destination(callee_text,
                                            {a.keyword.value: render_callee(a.value) for a in node.args if a.keyword is not None},
                                            _text_or_none(_positional(node.args, 1))))
        lead = _positional(node.args, 0)
        if table_rename(names.callee, [a.keyword.value for a in node.args if a.keyword is not None],
                        isinstance(lead, (cst.Dict, cst.DictComp)) or (isinstance(lead, cst.Name) and lead.value == "None")):
            names = dataclasses.replace(names, qualnames=names.qualnames + (TABLE_RENAME,))
        outer = names  # (the runner's own, once the handed callable's replace them)
        handoff = self.handed_callable(node, names, awaited, line, at)
        if handoff is not None and isinstance(handoff.target, str):
            # `await asyncio.to_thread(store.save, run)` is `store.save(run)`
            names = self.call_names(handoff.target, line, at, args_level(handoff.arguments))
        elif handoff is not None:  # `await asyncio.to_thread(lambda: store.save(run))`: its body runs here
            lam = cast("cst.Lambda", handoff.target)
            self._handed_lambdas.add(id(lam))
            written = len(self._w)
            self._expr(lam.body, seq)
            del self._w[written:]  # (a walrus in a lambda binds the lambda's own name: PEP 572)
        callee, qn = names.callee, names.qualnames
        if handoff is None and "[]" in callee_text:
            # `self.env["mail.message"].create`, also through an alias (``keyed_names``)
            keyed = keyed_names(render_callee(func, keyed=True), callee_text, callee)
            qn = qn + tuple(k for k in keyed if k not in qn)
        suppress = None
        # (also any other `suppress`: a project module may re-export contextlib's, which
        # only the project phase knows; ``cfg`` asks ``is_contextlib_suppress``)
        if "contextlib.suppress" in qn or callee == "contextlib.suppress" or callee.rsplit(".", 1)[-1] == "suppress":
            suppress = self.argument_types(node)
        if handoff is not None:  # the callable's own arguments, not the runner's (`executor`)
            runs, names_read, roots = expression_runs((a.value for a in handoff.arguments), self.aliased_callee)
        else:
            runs, names_read, roots = argument_runs(node, self.aliased_callee)
        reads = names_read + roots
        if isinstance(func, cst.Attribute):
            receiver_root = _root_name(func.value)
            if receiver_root is not None:
                reads.append(receiver_root)
        first_arg = _ast_lead(lead if handoff is None else _positional(handoff.arguments, 0)
                              if isinstance(handoff.target, str) else None, self._wrapper_import)
        call = Call(
            id=self.next_call,
            callee=callee,
            qualnames=qn,
            span=self.span(node),
            text=self.text(node),
            ref=None if handoff is not None else _cst_ref(lead),
            # (a callable handed to a thread gets the runner's next arguments:
            # `asyncio.to_thread(conn.execute, "COMMIT")`; a review)
            lead=self.lead_of(first_arg),
            lead_import=self.lead_import_of(first_arg),
            stmt_lines=self.stmt_lines,
            marker_runs=tuple(runs),
            own_run=callee_run(callee),
            reads=tuple(dict.fromkeys(reads)),
            receiver_type=names.receiver_type,
            invokes=names.invokes,
            exits=names.exits,
            suppress_types=suppress,
            self_call=names.self_call,
            local_head=names.local_head,
            level=names.level,
            level_from=names.level_from,
            flags=cst_flags(node) if handoff is None else cst_flags(node, handoff.arguments),
            level_args=cst_level_args(node) if handoff is None else (),
            chosen=names.chosen,
            made_by=names.made_by,
            # (a handed callable runs in a thread, where a coroutine function only makes
            # its coroutine, unless the wrapper runs it to its end: ``async_to_sync``)
            # (a task group's `start_soon(f)` runs the coroutine in the group: ``starts_in_group``)
            awaited=awaited if handoff is None else starts_in_group(outer) or isinstance(func, cst.Call) and runs_to_end(
                self.call_names(render_callee(func.func), line, at)),
        )
        if call.ref is not None:
            # (as a call of it there: through a name's alias too, `save = self.store.save`
            # then `self._call(save, run)`; a review)
            handed_names = self.call_names(call.ref, line, at)
            call.ref_names, call.ref_type = handed_names.qualnames, handed_names.receiver_type
            if handed_names.callee != call.ref and "(" not in handed_names.callee:
                call.ref = handed_names.callee
        self.next_call += 1
        if self.frames:
            self.frame.calls.append(call)
            if names_read:
                self.frame.marker_names.append((call, names_read))
        owner, _, method = callee.rpartition(".")
        if method in CONTAINER_MUTATORS and owner.isidentifier() and owner not in ("self", "cls"):
            self._m.append(owner)  # `x.append(...)` (or `add(...)` for `add = x.append`) may change what `x` is worth
        if self.frames and self.frame.handlers:
            self._calls_here[id(node)] = call
        seq.append(call)
        return call

    def handed_callable(self, node: cst.Call, names: CallNames, awaited: bool, line: int,
                        col: int) -> Optional["Handoff"]:
        """What a runner or a wrapper's result runs here, else None: the dotted text of
        the callable (``await asyncio.to_thread(store.save, run)``, ``sync_to_async(f)(x)``,
        also through ``functools.partial(f, ...)``) or a lambda that needs no argument
        (``await asyncio.to_thread(lambda: store.save(run))``), with the arguments it
        gets (``outline.handed_callable`` asks the same of an ``ast`` call)."""
        slot = runner_slot(names, awaited)
        args: Sequence[cst.Arg] = node.args
        extra: List[cst.Arg] = []
        if slot is None:
            inner = node.func
            if not isinstance(inner, cst.Call) or not wraps_callable(
                    self.call_names(render_callee(inner.func), line, col), awaited):
                return None
            slot, args, extra = 0, inner.args, list(node.args)
        handed = _positional(args, slot)
        wrapped = args is not node.args
        rest = [] if wrapped else list(args[slot + 1:])  # (a wrapper's own options are not the callable's)
        if not passes_keywords(names):  # (nor a runner's: `anyio.to_thread.run_sync(f, x, cancellable=True)`)
            rest = [a for a in rest if a.keyword is None]
        if isinstance(handed, cst.Call):
            partial = self.call_names(render_callee(handed.func), line, col)
            if "functools.partial" in (partial.callee,) + partial.qualnames:
                rest = list(handed.args[1:]) + rest
                handed = _positional(handed.args, 0)
        if isinstance(handed, cst.Lambda):  # run with no argument: its parameters all need defaults
            p = handed.params
            called_bare = not (p.star_kwarg or isinstance(p.star_arg, cst.Param)) and all(
                q.default is not None for q in (*p.posonly_params, *p.params, *p.kwonly_params))
            return Handoff(handed, []) if called_bare else None
        if not isinstance(handed, (cst.Name, cst.Attribute)):
            return None
        text = render_callee(handed)
        given = rest + extra  # (positional ones first, as the ``ast`` lists them: ``ast_args_level``)
        given = [a for a in given if a.keyword is None] + [a for a in given if a.keyword is not None]
        return None if "?" in text else Handoff(text, given)

    # ---- aliases and receiver types (semantics §Events)

    def tested(self, test: cst.BaseExpression, walrus: bool = False) -> Tuple[Tuple[Fact, ...], Tuple[Fact, ...]]:
        """What a test tells about plain names (``test_facts``); a name the function
        does not bind (a module global, an imported constant, an enclosing function's
        variable) is no local, so no fact about it is ever tracked: any call may
        rebind it (semantics §Contracts "plain local names")."""
        told = test_facts(test, walrus)
        if self.frames:
            frame = self.frame
            for facts in told:
                for f in facts:
                    if not frame.names.bound.get(f.name) or f.name in frame.names.declared_outer:
                        frame.untracked.add(f.name)
        return told

    def operators_raise(self) -> bool:
        """Whether an operator's or an unpacking's own error is read here: only where the
        innermost ``try`` of the function has a clause that may catch it (bare, or
        naming ``ValueError``, ``TypeError``, ``ZeroDivisionError`` or a class above
        them: ``statements._catches_builtin_errors``). Anywhere else it would be read
        as caught by clauses of other types (the contract does not follow exception
        types through a raise), a path no run takes: a second review, dbos's
        `wf_status, ok = init_child_workflow(...)` under `except
        DBOSQueueDeduplicatedError:` became a false OC102."""
        stack = self._catching
        return bool(stack) and stack[-1]

    def raises_outside_calls(self, node: Optional[cst.CSTNode]) -> bool:
        """Whether ``node`` holds an attribute access or subscript that is not part
        of a call (a call's own failure is the call's exceptional edge)."""
        if node is None or isinstance(node, _LEAVES):
            return False
        if isinstance(node, cst.Call):
            return False
        if isinstance(node, cst.Lambda):
            return any(self.raises_outside_calls(d) for d in _lambda_defaults(node))
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return False
        if isinstance(node, cst.Await) and isinstance(node.expression, cst.Call):
            # `await f(...)`: what the coroutine raises is the call's failure, its
            # exceptional edge (``awaited``), not a raise before the call ran
            return False
        if isinstance(node, _RAISING) or isinstance(node, cst.Await):
            return True
        if _raising_operator(node) and not _holds_call(node) and self.operators_raise():
            # `done / total`, `a < b`, `k in d`: an operator raises by itself
            # (ZeroDivisionError, TypeError); over a call's result it raises after the
            # call, from the point ``_expr`` puts there (held-out set 282)
            return True
        return any(self.raises_outside_calls(c) for c in children(node))

    # ---- statements

    # ---- handing the exception on (semantics §Contracts)

    def _carried(self, node: cst.CSTNode) -> set:
        """The `except` lines whose caught exception the value of ``node`` carries;
        on the way, marks the calls that receive it (``Call.hands_on``) and the yields
        and walruses that hand it on (``self._sink``)."""
        if isinstance(node, cst.Name):
            for name, line in reversed(self.frame.handlers):
                if name == node.value:
                    return {line}
            # a nested def that closes over it, handed on (not what a `format_exc()` in
            # its body would give: that runs only where the def is called)
            return set(self.frame.closures.get(node.value, ())) - {RUNNING_HANDLER}
        if isinstance(node, cst.Lambda):
            if id(node) in self._handed_lambdas:  # its body's calls receive it, not the runner
                self._carried(node.body)
                return set()
            return self._captured(node) - {RUNNING_HANDLER}
        if isinstance(node, _LEAVES) or isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return set()
        if isinstance(node, cst.Call):
            names = self._call_names_of(node)
            if any(n in _EXC_SOURCES for n in names) or (not node.args and any(n in _BARE_EXC_SOURCES for n in names)):
                return {self.frame.handlers[-1][1]}
            if (not node.args and "." in names[0] and names[0].rsplit(".", 1)[-1] == "errback"
                    and names[0].rsplit(".", 1)[0] not in ("self", "cls")
                    and not any(_of_other_class(n) for n in names[1:])):
                # Twisted's `d.errback()`: the deferred's errbacks get the exception
                # being handled, as `d.errback(Failure())` gives them (held-out set 182)
                call = self._calls_here.get(id(node))
                typed = call.receiver_type if call is not None else None
                if call is not None and (typed is None or "Deferred" in typed.rsplit(".", 1)[-1]):
                    call.hands_on = (self.frame.handlers[-1][1],)
                    return set()
            receiver = self._carried(node.func.value) if isinstance(node.func, cst.Attribute) else set()
            args: set = set()
            for a in node.args:
                args |= self._carried(a.value)
            if any(n in _EXC_INSPECT for n in names):
                return set()
            if any(n in _EXC_CONVERSIONS for n in names) or names[0].startswith("?."):
                return args | receiver  # `str(e)`, `"{}".format(e)`
            if isinstance(node.func, cst.Name) and node.func.value in self.frame.closures:
                args |= self._at_call(self.frame.closures[node.func.value])  # `deliver()` runs a body that hands it on
            if args:
                call = self._calls_here.get(id(node))
                if call is not None:
                    call.hands_on = tuple(sorted(args))
            return receiver  # a method of the exception (`e.with_traceback(tb)`) passes it on
        if isinstance(node, (cst.Yield, cst.NamedExpr)):
            value = node.value
            if isinstance(value, cst.From):
                value = value.item
            found = self._carried(value) if value is not None else set()
            self._sink |= found
            return found if isinstance(node, cst.NamedExpr) else set()
        if isinstance(node, (cst.Comparison, cst.UnaryOperation)):
            for child in children(node):
                self._carried(child)
            return set()
        if isinstance(node, cst.IfExp):
            self._carried(node.test)
            return self._carried(node.body) | self._carried(node.orelse)
        if isinstance(node, cst.Subscript):
            found = self._carried(node.value)
            for el in node.slice:
                self._carried(el)
            return found
        out: set = set()
        for child in children(node):
            out |= self._carried(child)
        return out


    def _at_call(self, lines) -> set:
        """A closure's handler lines where it is called: ``RUNNING_HANDLER`` (its body
        asks ``traceback.format_exc()``) is the innermost handler running here. Passed
        on uncalled (a thread's target, a callback), it gives nothing of it."""
        out = set(lines)
        if RUNNING_HANDLER in out:
            out.discard(RUNNING_HANDLER)
            if self.frame.handlers:
                out.add(self.frame.handlers[-1][1])
        return out

    def _call_names_of(self, node: "cst.Call") -> Tuple[str, ...]:
        """A call's callee as written, import-qualified and through an alias (``fmt =
        traceback.format_exc``: ``fmt()`` is that call; semantics §Aliases)."""
        names = (render_callee(node.func),) + self.qualified(node.func)
        aliased = self.aliased_callee(node)
        if aliased is not None:
            names = names + (aliased,) + self.qualified_text(aliased)
        return names

    def _is_exc_source(self, node: "cst.Call") -> bool:
        """``sys.exc_info()``, ``sys.exception()``, ``traceback.format_exc()`` (and
        Twisted's ``Failure()``, ``defer.fail()`` with no argument): the exception of
        the innermost handler being run."""
        names = self._call_names_of(node)
        return any(n in _EXC_SOURCES for n in names) or (not node.args and any(n in _BARE_EXC_SOURCES for n in names))

    def _captured(self, node: Union["cst.Lambda", "cst.FunctionDef"], outer: frozenset = frozenset()) -> set:
        """The `except` lines whose caught exception a lambda or a nested ``def``
        captures: its body names it (not as a parameter of its own). A call that
        receives the lambda receives the exception
        (``loop.call_soon_threadsafe(lambda: fut.set_exception(e))``; docs/decisions.md,
        "Handing the exception on"); the body's own calls are no events here and get no
        mark."""
        ps = node.params
        own = set(outer) | {p.name.value for p in list(ps.posonly_params) + list(ps.params) + list(ps.kwonly_params)}
        for star in (ps.star_arg, ps.star_kwarg):
            if isinstance(star, cst.Param):
                own.add(star.name.value)
        if isinstance(node, cst.FunctionDef):
            own |= _def_locals(node)  # (`e = RuntimeError(...)` inside: its own `e`)
        found = self._names_captured(node.body, frozenset(own))
        # a default is evaluated where the lambda or def is, in the handler: `lambda
        # exc=e: fut.set_exception(exc)` (the idiom that outlives the handler) holds it
        for p in list(ps.posonly_params) + list(ps.params) + list(ps.kwonly_params):
            if p.default is not None:
                found |= self._names_captured(p.default, outer)
        return found

    def _names_captured(self, root: cst.CSTNode, own: frozenset) -> set:
        """The handlers whose `as` name ``root`` reads, less the names in ``own`` (the
        enclosing lambda's or def's, or a comprehension's: ``[f(e) for e in errors]``'s
        ``e`` is its own, Python 3 scoping)."""
        found: set = set()
        stack: List[cst.CSTNode] = [root]
        while stack:
            n = stack.pop()
            if isinstance(n, (cst.Comparison, cst.UnaryOperation)) or (
                    isinstance(n, cst.Call) and render_callee(n.func) in _EXC_INSPECT):
                continue  # `isinstance(e, OSError)`, `e is None`, `not e` only look at it
            if isinstance(n, cst.Call) and self.frame.handlers and self._is_exc_source(n):
                # `traceback.format_exc()` in the body: the exception of the innermost
                # handler running where the def is called (``_at_call``), as the call
                # itself would give there (a held-out set's `def _event(): return
                # Output(traceback.format_exc())` ... `yield _event()`)
                found.add(RUNNING_HANDLER)
            if isinstance(n, cst.Name):
                if n.value not in own:
                    for name, line in reversed(self.frame.handlers):
                        if name == n.value:
                            found.add(line)
                            break
            elif isinstance(n, cst.Attribute):
                stack.append(n.value)  # (``x.e``'s ``e`` is no name)
            elif isinstance(n, cst.Arg):
                stack.append(n.value)  # (nor is ``f(e=1)``'s)
            elif isinstance(n, (cst.Lambda, cst.FunctionDef)):
                found |= self._captured(n, own)
            elif isinstance(n, _COMPREHENSIONS):  # (a tuple filled at run time)
                n = cast("cst.ListComp", n)
                # the first iterable is read outside; the rest sees the loop variables
                stack.append(n.for_in.iter)
                inner = own | frozenset(_comprehension_targets(n.for_in))
                for child in children(n):
                    if child is not n.for_in:
                        found |= self._names_captured(child, inner)
                for child in children(n.for_in):
                    if child is not n.for_in.iter and child is not n.for_in.target:
                        found |= self._names_captured(child, inner)
            elif not isinstance(n, _LEAVES):
                stack.extend(children(n))
        return found



def _comprehension_targets(comp: "cst.CompFor") -> List[str]:
    """The names a comprehension's ``for`` clauses bind (and its walrus-free targets)."""
    out: List[str] = []
    node: Optional[cst.CompFor] = comp
    while node is not None:
        out.extend(target_names(node.target))
        node = node.inner_for_in
    return out


# --------------------------------------------------------------------------- targets and tests


@dataclass
class Handoff:
    """A callable a runner runs here (``ExpressionWalker.handed_callable``): its dotted
    text or a lambda that needs no argument, and the arguments it gets (after the callable;
    a ``functools.partial``'s first, a wrapper's result's call's last)."""

    target: Union[str, "cst.Lambda"]
    arguments: List["cst.Arg"]


def _text_or_none(node: Optional["cst.BaseExpression"]) -> Optional[str]:
    return render_callee(node) if node is not None else None


def _of_other_class(name: str) -> bool:
    """A qualified method name (``pkg.jobs.Job.errback``) of a class other than
    Twisted's ``Deferred``: a project's own ``errback`` (a review)."""
    parts = name.split(".")
    owner = parts[-2] if len(parts) >= 3 else ""
    # (a constant's name, `PENDING`, is an instance; `DeferredList` a Deferred: a review)
    return owner[:1].isupper() and not owner.isupper() and "Deferred" not in owner


def _cst_ref(lead: Optional["cst.BaseExpression"]) -> Optional[str]:
    """``Call.ref`` of a call whose first positional argument is ``lead``: a name or
    an attribute chain, or the callee of a lambda whose body is one such call and that
    names none of its own parameters first (``self._retry(lambda: self.store.save(run))``:
    docs/decisions.md "A lambda handed to a project helper")."""
    if isinstance(lead, cst.Lambda):
        body = lead.body
        if not isinstance(body, cst.Call) or not isinstance(body.func, (cst.Name, cst.Attribute)):
            return None
        text = render_callee(body.func)
        own = {p.name.value for p in (*lead.params.posonly_params, *lead.params.params, *lead.params.kwonly_params)}
        for star in (lead.params.star_arg, lead.params.star_kwarg):
            if isinstance(star, cst.Param):
                own.add(star.name.value)
        return None if text.split(".", 1)[0] in own else _ref_text(text)
    if isinstance(lead, (cst.Name, cst.Attribute)):
        return _ref_text(render_callee(lead))
    return None


def _ref_text(text: str) -> Optional[str]:
    """``Call.ref``'s text: a dotted name (none for ``a[0].b``, ``f().x``)."""
    return text if all(p.isidentifier() for p in text.split(".")) else None


#: a callee that may be an SQLAlchemy Core statement builder's chain, or a call that
#: hands on its text (`text(...)`, `sql.SQL(...)`, `dedent(...)`, `"...".format(...)`;
#: ``scopes._wrapped_text``) (``_ast_lead``)
_CORE_BUILDER = re.compile(r"\b(" + "|".join(sorted(scopesmod.LEAD_CALL_NAMES)) + r")\b")


def _ast_lead(node: Optional["cst.BaseExpression"],
              wrapper_import: Optional[Callable[[str], bool]] = None) -> Optional[ast.AST]:
    """A call's first argument as ``Resolver.lead_of`` reads it (an ``ast`` node, as the
    outline has it): a name, a string constant (libcst evaluates one), an f-string, a
    sum, a `%` template, a builder or a text-handing call (parsed from its code, a rare
    first argument); None for anything else."""
    if isinstance(node, cst.Name):
        return ast.Name(id=node.value)
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):  # `self.INSERT_EVENT`
        return ast.Attribute(value=ast.Name(id=node.value.value), attr=node.attr.value)
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Attribute):
        # `app.queries.INSERT_EVENT` of `import app.queries` (``Resolver.lead_import_of``)
        inner = _ast_lead(node.value)
        return ast.Attribute(value=inner, attr=node.attr.value) if isinstance(inner, ast.Attribute) else None
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        if isinstance(value, str) or isinstance(node, cst.SimpleString):
            return ast.Constant(value=value) if isinstance(value, str) else None
    if isinstance(node, (cst.FormattedString, cst.ConcatenatedString)) or (  # (an f-string in it)
            isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Modulo))) or (  # (`'a ' + 'b'`, `'...' % x`)
            isinstance(node, cst.Call) and (_CORE_BUILDER.search(cst.Module([]).code_for_node(node.func)) or (
                wrapper_import is not None and wrapper_import(_head_name(node.func))))):
        # (an SQLAlchemy Core builder, `insert(t).values(...)`: ``scopes.literal_text``)
        try:
            return ast.parse("(" + cst.Module([]).code_for_node(node) + ")", mode="eval").body
        except (SyntaxError, ValueError):
            return None
    return None


def _head_name(node: "cst.BaseExpression") -> str:
    """The first name of a dotted callee (`pgsql` of `pgsql.SQL`), "" for another one."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else ""


def _positional(args: Sequence["cst.Arg"], index: int) -> Optional["cst.BaseExpression"]:
    """The ``index``-th positional argument, when no starred one comes before it."""
    for i, arg in enumerate(args):
        if arg.keyword is not None or arg.star:
            return None
        if i == index:
            return arg.value
    return None


def target_names(node: cst.CSTNode) -> List[str]:
    """The plain names an assignment target binds (through tuples, lists and stars)."""
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, (cst.Tuple, cst.List)):
        out: List[str] = []
        for el in node.elements:
            out.extend(target_names(el.value))
        return out
    if isinstance(node, cst.StarredElement):
        return target_names(node.value)
    return []


#: the methods by which the built-in containers (list, dict, set, deque, bytearray)
#: change their length: a call of one of these on a tested name forgets whether it is
#: truthy (an empty list appended to is not empty any more). Any other method call is
#: no write, as the contract's list of writes says: ``task.save()`` between ``if task:``
#: and ``if task:`` leaves ``task`` as truthy as it was (docs/decisions.md, "Correlated
#: tests", Writes).
CONTAINER_MUTATORS = frozenset({
    "append", "appendleft", "extend", "extendleft", "insert", "pop", "popleft", "popitem",
    "remove", "clear", "update", "setdefault", "add", "discard", "intersection_update",
    "difference_update", "symmetric_difference_update",
})

def _without_empty_choices(seq: ExprSeq) -> ExprSeq:
    """``seq`` less the trailing choices whose options are all empty (a comprehension's
    ``if`` with nothing after it that is an event: no branch worth a node)."""
    while seq and isinstance(seq[-1], Choice) and not any(_without_empty_choices(list(o)) for o in seq[-1].options):
        seq.pop()
    return seq


_EXC_SOURCES = {"sys.exc_info", "sys.exception", "traceback.format_exc"}
#: called with no argument, these capture the exception being handled too: Twisted's
#: ``Failure()`` and ``defer.fail()`` (``return defer.fail()`` hands it to the
#: caller's errbacks; held-out sets 22 and 182, tahoe-lafs)
_BARE_EXC_SOURCES = {"twisted.python.failure.Failure", "twisted.internet.defer.fail"}
#: in a closure's handler lines: its body calls one of ``_EXC_SOURCES``, which give the
#: exception of the handler running where it is called (``_at_call``)
RUNNING_HANDLER = RUNNING_LINE
_EXC_CONVERSIONS = {"str", "repr", "format", "ascii", "traceback.format_exception",
                    "traceback.format_exception_only",
                    # binds arguments for a later call: what it binds flows into whatever
                    # receives the partial (`to_thread(partial(log.debug, "x", e))`)
                    "functools.partial"}
_EXC_INSPECT = {"isinstance", "issubclass", "type", "hasattr", "getattr"}


def _def_locals(node: "cst.FunctionDef") -> set:
    """The names a nested function binds in its own body (assignments, loop and ``with``
    targets, walruses, ``del``) and those it declares ``global``, less those it declares
    ``nonlocal``: such a name is its own (or the module's), not the enclosing handler's
    exception."""
    bound: set = set()
    declared: set = set()
    module: set = set()
    stack: List[cst.CSTNode] = [node.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(n, cst.Nonlocal):
            declared |= {item.name.value for item in n.names}
        elif isinstance(n, cst.Global):
            module |= {item.name.value for item in n.names}
        targets: List[cst.CSTNode] = []
        if isinstance(n, cst.AssignTarget):
            targets = [n.target]
        elif isinstance(n, (cst.AnnAssign, cst.AugAssign, cst.NamedExpr)):
            targets = [n.target]
        elif isinstance(n, cst.For):  # (a comprehension's targets are its own scope's)
            targets = [n.target]
        elif isinstance(n, cst.AsName):
            targets = [n.name]
        elif isinstance(n, cst.Del):
            targets = [n.target]
        for t in targets:
            bound.update(target_names(t))
        stack.extend(children(n))
    return (bound - declared) | module


def _root_name(node: cst.CSTNode) -> Optional[str]:
    """``x`` of ``x``, ``x.a.b``, ``x[k].a``; None for anything else."""
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def bound_names(target: cst.CSTNode, writes: List[str], mutates: List[str]) -> None:
    """Names an assignment target rebinds, and names whose object it changes."""
    if isinstance(target, cst.Name):
        writes.append(target.value)
    elif isinstance(target, (cst.Tuple, cst.List)):
        for el in target.elements:
            bound_names(el.value, writes, mutates)
    elif isinstance(target, (cst.StarredElement, cst.Element)):
        bound_names(target.value, writes, mutates)
    elif isinstance(target, (cst.Attribute, cst.Subscript)):
        root = _root_name(target.value)
        if root is not None:
            mutates.append(root)


_CONSTANTS = {"True", "False", "None"}


def unwritten(told: Tuple[Tuple["Fact", ...], Tuple["Fact", ...]], written: Sequence[str],
              fresh: FrozenSet[str] = frozenset()):
    """A test's facts without those about names a walrus in the test (or in the
    branches of a conditional expression) rebinds: the fact may be about the old value.
    ``fresh``: names whose facts a walrus test itself tells (``if job := take():``,
    ``walrus_targets``): kept when the test binds the name once and tells one fact
    of it on the side, which is then of the new value."""
    if not written:
        return told
    gone = set(written)
    kept = {n for n in fresh if written.count(n) == 1}
    return tuple(tuple(f for f in side if f.name not in gone
                       or (f.name in kept and sum(g.name == f.name for g in side) == 1)) for side in told)


def walrus_targets(node: cst.BaseExpression) -> FrozenSet[str]:
    """The names a test's walrus binds where ``test_facts(node, walrus=True)`` reads
    it as telling their truth (under ``not``, ``and``, ``or``, parentheses, and
    ``is None``/``is not None``). What the walrus's own value reads does not matter
    (``if payload := clean(payload):`` tells the new ``payload``); a fact of the old
    value elsewhere in the test (``left and (left := f())``) makes two facts of the
    name on one side, which ``unwritten`` drops (two reviews)."""
    if isinstance(node, cst.NamedExpr):
        return frozenset({node.target.value}) if isinstance(node.target, cst.Name) else frozenset()
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return walrus_targets(node.expression)
    if isinstance(node, cst.BooleanOperation):
        return walrus_targets(node.left) | walrus_targets(node.right)
    if (isinstance(node, cst.Comparison) and len(node.comparisons) == 1 and isinstance(node.left, cst.NamedExpr)
            and isinstance(node.comparisons[0].operator, (cst.Is, cst.IsNot))
            and isinstance(node.comparisons[0].comparator, cst.Name) and node.comparisons[0].comparator.value == "None"):
        return walrus_targets(node.left)
    return frozenset()


def test_facts(node: cst.BaseExpression, walrus: bool = False) -> Tuple[Tuple[Fact, ...], Tuple[Fact, ...]]:
    """What a test tells about plain names on its true and its false branch (semantics §Contracts):
    ``name`` / ``not name``, ``name is None`` / ``name is not None``; a true ``A and
    B`` tells both, a false ``A or B`` tells both false; anything else tells nothing.
    ``walrus``: a statement's test, where ``name := value`` tells the truth of the
    name it binds as ``name`` would, once bound (docs/decisions.md "A walrus test")."""
    if isinstance(node, cst.Name):
        if node.value in _CONSTANTS:
            return (), ()
        return (Fact(node.value, "truth", True),), (Fact(node.value, "truth", False),)
    if walrus and isinstance(node, cst.NamedExpr) and isinstance(node.target, cst.Name):
        return test_facts(node.target)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        t, f = test_facts(node.expression, walrus)
        return f, t
    if isinstance(node, cst.BooleanOperation):
        lt, lf = test_facts(node.left, walrus)
        rt, rf = test_facts(node.right, walrus)
        if isinstance(node.operator, cst.And):
            return lt + rt, ()
        return (), lf + rf
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        comp = node.comparisons[0]
        left, right = node.left, comp.comparator
        if walrus and isinstance(left, cst.NamedExpr) and isinstance(left.target, cst.Name):
            left = left.target  # `if (m := pattern.match(s)) is not None:`
        if isinstance(right, cst.Name) and right.value == "None" and isinstance(left, cst.Name):
            name = left.value
        elif isinstance(left, cst.Name) and left.value == "None" and isinstance(right, cst.Name):
            name = right.value
        else:
            return (), ()
        if name in _CONSTANTS:
            return (), ()
        if isinstance(comp.operator, cst.Is):
            return (Fact(name, "none", True),), (Fact(name, "none", False),)
        if isinstance(comp.operator, cst.IsNot):
            return (Fact(name, "none", False),), (Fact(name, "none", True),)
    return (), ()


def _lambda_defaults(node: "cst.Lambda") -> List["cst.BaseExpression"]:
    """A lambda's default values, in the order Python evaluates them."""
    ps = node.params
    return [p.default for p in list(ps.posonly_params) + list(ps.params) + list(ps.kwonly_params)
            if p.default is not None]


def has_yield(node: cst.CSTNode) -> bool:
    """Whether a statement holds a ``yield`` of its own (not one of a lambda)."""
    if isinstance(node, (cst.Yield,)):
        return True
    if isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef) + _LEAVES):
        return False
    return any(has_yield(c) for c in children(node))


def _target_names(target: cst.BaseExpression) -> List[str]:
    """The names a ``for`` target binds (``x``, ``(a, b)``, ``[a, *rest]``)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for el in target.elements for n in _target_names(el.value)]
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []
