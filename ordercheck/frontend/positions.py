"""Source positions of libcst nodes, read off CPython's ``ast`` instead of libcst's
codegen pass.

libcst's ``PositionProvider`` regenerates the whole module's source, node by node, to
learn where each node starts and ends: on real packages that pass cost more than the
parse itself (docs/performance.md). CPython's parser already records a line and column
range on every statement and expression, and the extractor only asks for the positions
of a few kinds of node: statements, calls, attribute and subscript reads, ``except``
and ``finally`` clauses, ``case`` clauses, the names of ``def`` and ``class``, and the
header expressions that end a compound statement's header.

Both trees list those nodes in the same source order, so they are paired kind by kind:
the libcst tree is walked in source order (a plain walk over each node's fields, which
costs a small fraction of codegen), the ``ast`` nodes are sorted by their positions,
and every pair is checked (same kind of statement, same attribute or callee name, the
closing bracket where the range says it ends). The ranges agree with
``PositionProvider``'s by construction for the kinds handled here: both exclude a
node's own parentheses and a statement's leading lines, start a ``def`` or ``class``
at its keyword (after the decorators) and end a compound statement with its last body
statement. Columns are converted from ``ast``'s UTF-8 byte offsets to code points.

Nothing is assumed silently: if the two trees disagree anywhere, or a node of another
kind is asked for, the chunk falls back to ``PositionProvider`` (counted in
``FALLBACKS``), so the answer is always libcst's. ``tests/test_positions.py`` compares
both on every fixture and on constructs chosen to break the pairing.
"""
from __future__ import annotations

import ast
import dataclasses
import re
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple, cast

if TYPE_CHECKING:
    import libcst as cst
    from libcst.metadata import CodeRange

FALLBACKS = 0  # chunks whose positions came from libcst's codegen pass (tests read it)

_NEWLINE = re.compile(r"\r\n|\r|\n")


def codegen_positions(tree: "cst.Module") -> Mapping["cst.CSTNode", "CodeRange"]:
    """libcst's ``PositionProvider`` result for every node of ``tree``.

    ``MetadataWrapper.resolve`` also walks the whole tree with a batched visitor that a
    lone codegen provider does not need, so the provider's own codegen pass is run
    directly, falling back to the public API should libcst's internals change."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    try:
        from libcst.metadata.position_provider import PositionProvidingCodegenState

        provider = PositionProvider()
        state = PositionProvidingCodegenState(
            default_indent=tree.default_indent, default_newline=tree.default_newline, provider=provider
        )
        tree._codegen(state)
        computed = provider._computed
        if computed:  # (a codegen provider stores finished ranges, never lazy values)
            return cast("Mapping[cst.CSTNode, CodeRange]", computed)
    except (ImportError, AttributeError, TypeError):
        pass
    return MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)


class Positions(Mapping["cst.CSTNode", "CodeRange"]):
    """The ranges read off the ``ast``; libcst's own for the whole chunk the first
    time a node is asked for that the ``ast`` did not give."""

    def __init__(self, tree: "cst.Module", fast: Dict[Any, "CodeRange"]) -> None:
        self._tree: Optional["cst.Module"] = tree
        self._fast = fast
        self._full: Optional[Mapping["cst.CSTNode", "CodeRange"]] = None

    def __getitem__(self, node: "cst.CSTNode") -> "CodeRange":
        r = self._fast.get(node)
        if r is not None:
            return r
        if self._full is None:
            global FALLBACKS
            FALLBACKS += 1
            assert self._tree is not None
            self._full = codegen_positions(self._tree)
        return self._full[node]

    def __iter__(self) -> Iterator["cst.CSTNode"]:
        return iter(self._fast)

    def __len__(self) -> int:
        return len(self._fast)


def positions_of(tree: "cst.Module", text: str, atree: Optional[ast.Module] = None,
                 shift: int = 0) -> Mapping["cst.CSTNode", "CodeRange"]:
    """Positions of the nodes of ``tree``, parsed from ``text`` (whose ``ast`` is
    ``atree`` when the caller has it already; ``shift``: that ``ast``'s line numbers
    are ``text``'s plus ``shift``, as when it is a piece of the whole file's ``ast``)."""
    try:
        fast = _from_ast(tree, text, atree, shift)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        fast = None
    if fast is None:
        global FALLBACKS
        FALLBACKS += 1
        return codegen_positions(tree)
    return Positions(tree, fast)


# --------------------------------------------------------------------------- walking libcst

_SKIPPED_FIELDS = re.compile(
    r"^(whitespace|lpar|rpar|comma|semicolon|colon|equal|dot|star|leading_lines|lines_after|header|footer"
    r"|operator|lbrace|rbrace|lbracket|rbracket|asynchronous|newline|lines_after_decorators|indent)"
)
_FIELDS: Dict[type, Tuple[str, ...]] = {}
# node types whose fields are not declared in source order
_SOURCE_ORDER = {
    "IfExp": ("body", "test", "orelse"),
    "FunctionDef": ("decorators", "name", "params", "returns", "body"),
    "ClassDef": ("decorators", "name", "bases", "keywords", "body"),
    "ExceptHandler": ("type", "name", "body"),
    "ExceptStarHandler": ("type", "name", "body"),
    "MatchCase": ("pattern", "guard", "body"),
    "Parameters": ("posonly_params", "params", "star_arg", "kwonly_params", "star_kwarg"),
    "DictComp": ("key", "value", "for_in"),
    "Arg": ("keyword", "value"),
}


def _fields(typ: type) -> Tuple[str, ...]:
    fs = _FIELDS.get(typ)
    if fs is None:
        order = _SOURCE_ORDER.get(typ.__name__)
        if order is not None:
            fs = order
        else:
            fs = tuple(f.name for f in dataclasses.fields(typ) if not _SKIPPED_FIELDS.match(f.name))
        _FIELDS[typ] = fs
    return fs


@dataclasses.dataclass
class _CstNodes:
    stmts: List[Any] = dataclasses.field(default_factory=list)
    calls: List[Any] = dataclasses.field(default_factory=list)
    attributes: List[Any] = dataclasses.field(default_factory=list)
    subscripts: List[Any] = dataclasses.field(default_factory=list)
    handlers: List[Any] = dataclasses.field(default_factory=list)
    lines: List[Any] = dataclasses.field(default_factory=list)  # SimpleStatementLine / Suite


_ROLE: Dict[type, int] = {}  # libcst node type -> which list of ``_CstNodes`` it goes to (0: none)
_NOT_A_NODE = -2


STMT, CALL, ATTRIBUTE, SUBSCRIPT, HANDLER, LINE, OPAQUE_STMT = 1, 2, 3, 4, 5, 6, 7
# the kinds paired, by base class, first match wins: libcst's side (its import
# statements are not walked into: a dotted module name is an Attribute chain in
# libcst, a string in the ast) and the ast's
_CST_ROLES: List[Tuple[int, Tuple[type, ...]]] = []
_AST_ROLES: List[Tuple[int, Tuple[type, ...]]] = [
    (STMT, (ast.stmt,)), (CALL, (ast.Call,)), (ATTRIBUTE, (ast.Attribute,)), (SUBSCRIPT, (ast.Subscript,)),
    (HANDLER, (ast.ExceptHandler,)),
]


def _classify(typ: type, table: List[Tuple[int, Tuple[type, ...]]]) -> int:
    for role, bases in table:
        if issubclass(typ, bases):
            return role
    return 0


def _role(typ: type) -> int:
    import libcst as cst

    role = _ROLE.get(typ)
    if role is None:
        if not _CST_ROLES:
            _CST_ROLES.extend([
                (OPAQUE_STMT, (cst.Import, cst.ImportFrom)), (STMT, (cst.BaseSmallStatement, cst.BaseCompoundStatement)),
                (CALL, (cst.Call,)), (ATTRIBUTE, (cst.Attribute,)), (SUBSCRIPT, (cst.Subscript,)),
                (HANDLER, (cst.ExceptHandler, cst.ExceptStarHandler)), (LINE, (cst.SimpleStatementLine, cst.SimpleStatementSuite)),
            ])
        role = _classify(typ, _CST_ROLES) if issubclass(typ, cst.CSTNode) else _NOT_A_NODE
        _ROLE[typ] = role
    return role


def children(node: "cst.CSTNode") -> List["cst.CSTNode"]:
    """A node's children that can hold an expression, in source order: libcst's
    ``node.children`` without its whitespace and punctuation nodes, and without its
    cost (it runs a visitor over a deep copy of each field)."""
    out: List[Any] = []
    role_of = _ROLE
    for name in _fields(type(node)):
        value = getattr(node, name, None)
        for v in value if isinstance(value, (list, tuple)) else (value,):
            r = role_of.get(type(v))
            if r is None:
                r = _role(type(v))
            if r != _NOT_A_NODE:
                out.append(v)
    return out


def _walk_cst(tree: "cst.Module") -> _CstNodes:
    """The nodes of the kinds paired with the ast, each kind in source order (a
    pre-order walk with each node's children in source order). Types are classified
    once: ``isinstance`` against libcst's abstract bases is slow."""
    out = _CstNodes()
    lists: Dict[int, List[Any]] = {STMT: out.stmts, CALL: out.calls, ATTRIBUTE: out.attributes,
                                   SUBSCRIPT: out.subscripts, HANDLER: out.handlers, LINE: out.lines}
    role_of = _ROLE
    stack: List[Any] = [tree]
    while stack:
        node = stack.pop()
        typ = type(node)
        role = role_of.get(typ)
        if role is None:
            role = _role(typ)
        if role == OPAQUE_STMT:
            out.stmts.append(node)
            continue
        if role > 0:
            lists[role].append(node)
        stack.extend(reversed(children(node)))
    return out


# --------------------------------------------------------------------------- pairing with the ast

# libcst statement type name -> the ast statement types it can be
_STMT_PAIRS: Dict[str, Tuple[type, ...]] = {
    "Expr": (ast.Expr,), "Assign": (ast.Assign,), "AnnAssign": (ast.AnnAssign,), "AugAssign": (ast.AugAssign,),
    "Return": (ast.Return,), "Raise": (ast.Raise,), "Assert": (ast.Assert,), "Pass": (ast.Pass,),
    "Break": (ast.Break,), "Continue": (ast.Continue,), "Del": (ast.Delete,), "Import": (ast.Import,),
    "ImportFrom": (ast.ImportFrom,), "Global": (ast.Global,), "Nonlocal": (ast.Nonlocal,),
    "If": (ast.If,), "While": (ast.While,), "For": (ast.For, ast.AsyncFor), "With": (ast.With, ast.AsyncWith),
    "Try": (ast.Try,), "TryStar": (getattr(ast, "TryStar", ast.Try),), "Match": (getattr(ast, "Match", ast.If),),
    "FunctionDef": (ast.FunctionDef, ast.AsyncFunctionDef), "ClassDef": (ast.ClassDef,),
}
_KEYWORDS = {
    ast.If: ("if", "elif"), ast.While: ("while",), ast.For: ("for",), ast.AsyncFor: ("async",),
    ast.With: ("with",), ast.AsyncWith: ("async",), ast.Try: ("try",), ast.FunctionDef: ("def",),
    ast.AsyncFunctionDef: ("async",), ast.ClassDef: ("class",),
}
if hasattr(ast, "TryStar"):
    _KEYWORDS[ast.TryStar] = ("try",)
if hasattr(ast, "Match"):
    _KEYWORDS[ast.Match] = ("match",)


_AST_INFO: Dict[type, Tuple[int, Tuple[str, ...]]] = {}


def _ast_info(typ: type) -> Tuple[int, Tuple[str, ...]]:
    role = _classify(typ, _AST_ROLES)
    skipped = {"ctx", "op", "ops", "kind", "type_comment"}  # (nothing paired is under them)
    if typ is ast.Constant:
        skipped.add("value")
    fields = tuple(f for f in getattr(typ, "_fields", ()) if f not in skipped)
    _AST_INFO[typ] = (role, fields)
    return role, fields


def _sorted(nodes: List[Any]) -> List[Any]:
    return sorted(nodes, key=lambda n: (n.lineno, n.col_offset, -n.end_lineno, -n.end_col_offset))


class _Unpaired(Exception):
    """The two trees disagree: use libcst's own positions."""



def _from_ast(tree: "cst.Module", text: str, atree: Optional[ast.Module] = None,
              shift: int = 0) -> Optional[Dict[Any, "CodeRange"]]:
    import libcst as cst
    from libcst.metadata import CodePosition, CodeRange

    if atree is None:
        with warnings.catch_warnings():  # (the checked code's SyntaxWarnings are not shown: source.parse_ast)
            warnings.simplefilter("ignore")
            atree = ast.parse(text)
    lines = _NEWLINE.split(text)
    stmts: List[Any] = []
    calls: List[Any] = []
    attrs: List[Any] = []
    subs: List[Any] = []
    handlers: List[Any] = []
    lists = {STMT: stmts, CALL: calls, ATTRIBUTE: attrs, SUBSCRIPT: subs, HANDLER: handlers}
    stack: List[Any] = [atree]
    while stack:  # (ast.walk, without its generators)
        n = stack.pop()
        typ = type(n)
        info = _AST_INFO.get(typ)
        if info is None:
            info = _ast_info(typ)
        role, fields = info
        if role:
            lists[role].append(n)
        for name in fields:
            value = getattr(n, name, None)
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
    mine = _walk_cst(tree)
    if (len(mine.stmts), len(mine.calls), len(mine.attributes), len(mine.subscripts), len(mine.handlers)) != (
            len(stmts), len(calls), len(attrs), len(subs), len(handlers)):
        return None

    def col(line_no: int, byte_col: int) -> int:
        line = lines[line_no - 1] if 0 < line_no <= len(lines) else ""
        if line.isascii():
            return byte_col
        return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))

    def rng(line: int, c: int, end_line: int, end_c: int) -> "CodeRange":
        return CodeRange(CodePosition(line, c), CodePosition(end_line, end_c))

    def of(a: Any) -> "CodeRange":
        line, end = a.lineno - shift, a.end_lineno - shift
        return rng(line, col(line, a.col_offset), end, col(end, a.end_col_offset))

    def line_text(n: int) -> str:
        return lines[n - 1] if 0 < n <= len(lines) else ""

    out: Dict[Any, "CodeRange"] = {}
    try:
        for c, a in zip(mine.calls, _sorted(calls)):
            r = of(a)
            if line_text(r.end.line)[r.end.column - 1 : r.end.column] != ")":
                raise _Unpaired
            func = c.func
            if isinstance(func, cst.Name) and not (isinstance(a.func, ast.Name) and a.func.id == func.value):
                raise _Unpaired
            if isinstance(func, cst.Attribute) and not (isinstance(a.func, ast.Attribute) and a.func.attr == func.attr.value):
                raise _Unpaired
            out[c] = r
        for c, a in zip(mine.attributes, _sorted(attrs)):
            r = of(a)
            name = c.attr.value
            if a.attr != name or line_text(r.end.line)[r.end.column - len(name) : r.end.column] != name:
                raise _Unpaired
            out[c] = r
        for c, a in zip(mine.subscripts, _sorted(subs)):
            r = of(a)
            if line_text(r.end.line)[r.end.column - 1 : r.end.column] != "]":
                raise _Unpaired
            out[c] = r
        for c, a in zip(mine.handlers, _sorted(handlers)):
            r = of(a)
            if not line_text(r.start.line)[r.start.column :].startswith("except"):
                raise _Unpaired
            out[c] = r
            if c.type is not None and a.type is not None:
                _expression(c.type, a.type, out, of, line_text, rng)
        for c, a in zip(mine.stmts, _sorted(stmts)):
            kinds = _STMT_PAIRS.get(type(c).__name__)
            if kinds is None or not isinstance(a, kinds):
                raise _Unpaired
            r = of(a)
            words = _KEYWORDS.get(type(a))
            if words is not None and not line_text(r.start.line)[r.start.column :].startswith(words):
                raise _Unpaired
            out[c] = r
            _headers(c, a, r, out, of, line_text, rng)
        for c in mine.lines:  # a line of small statements: from the first to the last
            body = c.body
            if not body:
                continue
            first, last = out.get(body[0]), out.get(body[-1])
            if first is None or last is None:
                raise _Unpaired
            out[c] = CodeRange(first.start, last.end)
    except _Unpaired:
        return None
    return out


_DEF_HEAD = re.compile(r"(?:async\s+)?(?:def|class)\s+")


def _headers(c: Any, a: Any, r: "CodeRange", out: Dict[Any, "CodeRange"], of: Callable[[Any], "CodeRange"],
             line_text: Callable[[int], str], rng: Callable[[int, int, int, int], "CodeRange"]) -> None:
    """Ranges of the parts of a compound statement the extractor asks for: header
    expressions, the names of ``def``/``class``, ``finally`` and ``case`` clauses."""
    import libcst as cst

    def expression(cn: Any, an: Any) -> None:
        _expression(cn, an, out, of, line_text, rng)

    if isinstance(c, (cst.If, cst.While)):
        expression(c.test, a.test)
    elif isinstance(c, cst.For):
        expression(c.iter, a.iter)
    elif isinstance(c, cst.With):
        if c.items and a.items:
            last = a.items[-1]
            end = of(last.optional_vars if last.optional_vars is not None else last.context_expr)
            start = of(last.context_expr).start
            for citem, aitem in zip(c.items, a.items) if len(c.items) == len(a.items) else ():  # ``with lock:``: the extractor asks where a bare name stands
                _bare_name(citem.item, aitem.context_expr, out, of, line_text)
            item = c.items[-1]
            # a WithItem's range holds its expression's own parentheses
            begin = _skip_parens(line_text, start.line, start.column, len(item.item.lpar), -1)
            finish: Optional[Tuple[int, int]] = (end.end.line, end.end.column)
            if last.optional_vars is None:
                finish = _skip_parens(line_text, end.end.line, end.end.column, len(item.item.rpar), 1)
            if begin is None or finish is None:
                return
            out[item] = rng(begin[0], begin[1], finish[0], finish[1])
            return
    elif isinstance(c, (cst.FunctionDef, cst.ClassDef)):
        name = c.name.value
        text = line_text(r.start.line)
        m = _DEF_HEAD.match(text, r.start.column)
        if m is None or not text.startswith(name, m.end()):
            raise _Unpaired
        out[c.name] = rng(r.start.line, m.end(), r.start.line, m.end() + len(name))
        # the extractor asks where a parameter's default or a base ends (the header's
        # last line: statements._header_end); unpaired, 190 of noworkflow's 272 files
        # fell back to codegen for `def f(x=None)` (session 46)
        for cpart, apart in _header_parts(c, a):
            expression(cpart, apart)
        if len(c.decorators) == len(a.decorator_list):
            for d, ad in zip(c.decorators, a.decorator_list):
                # the extractor asks where a decorator's callee stands; a dotted one is
                # an attribute (paired above), a bare name is paired here (a tenth of
                # a needed file's libcst pass went to codegen for ``@property`` and
                # ``@contextmanager``: docs/performance.md, "Session 27")
                target, atarget = d.decorator, ad
                if isinstance(target, cst.Call) and isinstance(atarget, ast.Call):
                    target, atarget = target.func, atarget.func
                _bare_name(target, atarget, out, of, line_text)
    elif isinstance(c, (cst.Try, cst.TryStar)):
        if c.finalbody is not None:
            first = of(a.finalbody[0])
            where = _keyword_before(line_text, "finally", first.start.line, first.start.column)
            last = of(a.finalbody[-1])
            out[c.finalbody] = rng(where[0], where[1], last.end.line, last.end.column)
    elif type(c).__name__ == "Match":
        expression(c.subject, a.subject)
        for case, acase in zip(c.cases, a.cases):
            pattern = of(acase.pattern)
            out[case.pattern] = pattern
            if case.guard is not None and acase.guard is not None:
                out[case.guard] = of(acase.guard)
            where = _keyword_before(line_text, "case", pattern.start.line, pattern.start.column)
            last = of(acase.body[-1])
            out[case] = rng(where[0], where[1], last.end.line, last.end.column)


def _header_parts(c: Any, a: Any) -> List[Tuple[Any, Any]]:
    """(libcst, ast) pairs of a ``def``'s parameter defaults or a ``class``'s bases,
    in source order; none where the two trees do not line up one to one."""
    import libcst as cst

    if isinstance(c, cst.ClassDef):
        if len(c.bases) != len(a.bases):
            return []
        return [(b.value, ab.value if isinstance(ab, ast.Starred) and b.star else ab)
                for b, ab in zip(c.bases, a.bases) if isinstance(ab, ast.Starred) == bool(b.star)]
    params = c.params
    positional = [p.default for p in (*params.posonly_params, *params.params) if p.default is not None]
    keyword = [p.default for p in params.kwonly_params]
    akeyword = list(a.args.kw_defaults)
    if len(positional) != len(a.args.defaults) or len(keyword) != len(akeyword):
        return []
    pairs = list(zip(positional, a.args.defaults))
    pairs += [(d, ad) for d, ad in zip(keyword, akeyword) if d is not None and ad is not None]
    return pairs


def _bare_name(cn: Any, an: Any, out: Dict[Any, "CodeRange"], of: Callable[[Any], "CodeRange"],
               line_text: Callable[[int], str]) -> None:
    """The range of a bare name (no parentheses around it) that both trees hold at
    the same place: the ast's range is libcst's, checked against the text."""
    import libcst as cst

    if not (isinstance(cn, cst.Name) and isinstance(an, ast.Name) and cn.value == an.id) or cn.lpar:
        return  # (asked for, it falls back)
    r = of(an)
    if r.start.line != r.end.line or line_text(r.start.line)[r.start.column : r.end.column] != cn.value:
        raise _Unpaired
    out[cn] = r


def _expression(cn: Any, an: Any, out: Dict[Any, "CodeRange"], of: Callable[[Any], "CodeRange"],
                line_text: Callable[[int], str], rng: Callable[[int, int, int, int], "CodeRange"]) -> None:
    """The range of a header expression (a test, an iterable, a handler's types)."""
    import libcst as cst

    if isinstance(an, (ast.Tuple, ast.GeneratorExp)) and getattr(cn, "lpar", None):
        # the ast's range holds a tuple's parentheses, libcst's does not
        if not isinstance(an, ast.Tuple) or not an.elts or len(cn.lpar) != 1:
            return  # (asked for, it falls back)
        first, last = of(an.elts[0]), of(an.elts[-1])
        end_col = last.end.column
        if not isinstance(cn.elements[-1].comma, cst.MaybeSentinel):
            rest = line_text(last.end.line)[end_col:]
            if not rest.lstrip(" ").startswith(","):
                return
            end_col += len(rest) - len(rest.lstrip(" ")) + 1
        out[cn] = rng(first.start.line, first.start.column, last.end.line, end_col)
        return
    out[cn] = of(an)


def _skip_parens(line_text: Callable[[int], str], line: int, column: int, count: int,
                 step: int) -> Optional[Tuple[int, int]]:
    """The position past ``count`` parentheses before (``step`` -1) or after (+1)
    ``(line, column)``, across blank space and line ends only; ``None`` when anything
    else (a comment, say) stands between."""
    want = "(" if step < 0 else ")"
    text = line_text(line)
    budget = 1000  # lines crossed
    while count:
        if step < 0:
            while column > 0 and text[column - 1] in " \t\f":
                column -= 1
            if column == 0:
                line -= 1
                budget -= 1
                if line < 1 or not budget:
                    return None
                text = line_text(line)
                column = len(text)
                continue
            if text[column - 1] != want:
                return None
            column -= 1
        else:
            while column < len(text) and text[column] in " \t\f":
                column += 1
            if column >= len(text):
                line += 1
                budget -= 1
                if not budget:
                    return None
                text = line_text(line)
                column = 0
                continue
            if text[column] != want:
                return None
            column += 1
        count -= 1
    return line, column


def _keyword_before(line_text: Callable[[int], str], word: str, line: int, column: int) -> Tuple[int, int]:
    """Where the clause keyword ``word`` stands: the nearest line, at or above the
    clause's first statement, whose code starts with it (the lines between hold
    only the keyword, blank lines and comments)."""
    text = line_text(line)[:column]
    for n in range(line, max(0, line - 200), -1):
        text = line_text(n) if n != line else text
        stripped = text.lstrip()
        if re.match(re.escape(word) + r"\b", stripped):
            return n, len(text) - len(stripped)
        if stripped and not stripped.startswith("#") and n != line:
            break
    raise _Unpaired
