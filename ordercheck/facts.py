"""Stage 1 — facts: what one source file says, as plain picklable data.

A file is read, decoded and parsed once (libcst; positions from CPython's ast, see ``positions``); what the
later stages need is copied out into the small dataclasses below and the libcst tree
is dropped. Callees are resolved through the file's imports by a small flow-insensitive
import table per scope (module, then each enclosing function): libcst's
QualifiedNameProvider does the same with full scope analysis, which measured at half
of the whole run on real packages (docs/performance.md) for no finding it changed. Nothing here depends on the
configuration, so a file's facts can be cached by its content hash alone and carried
across a process pool.

The statement tree kept for each function is a tiny intermediate language: every
statement holds its own calls in Python's evaluation order (``ExprSeq``), with
``Choice`` for short circuits and conditional expressions and ``Repeat`` for
comprehension bodies. The control-flow graph stage (``cfg``) reads only this.
"""
from __future__ import annotations

import ast
import gc
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
    cast,
)

from . import lazy
from . import scopes as scopesmod
from .errors import raise_if_interrupted
from .markers import argument_runs, callee_run, expression_runs
from .positions import positions_of

if TYPE_CHECKING:  # the real modules, for the type checker
    import libcst as cst
    from libcst.metadata import CodeRange

    Comprehension = Union[cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp]
else:
    cst = lazy.module("libcst", globals(), "cst")  # imported by the first extraction: a warm run never parses

# --------------------------------------------------------------------------- data


@dataclass
class Span:
    """A source range. Lines are 1-based; columns are 0-based code points, and the
    ``*16`` twins count UTF-16 code units as LSP wants."""

    line: int
    col: int
    end_line: int
    end_col: int
    col16: int = 0
    end_col16: int = 0


@dataclass
class Call:
    """One call expression (or a ``+=`` pseudo-call, ``aug=True``)."""

    id: int
    callee: str  # dotted callee text, ``get_store().save``
    qualnames: Tuple[str, ...]  # import-resolved qualified names of the callee
    span: Span
    text: str  # the call's source text (first line, shortened)
    stmt_lines: Tuple[int, int]  # first and last line of the holding statement
    # terminal-marker token runs (semantics §Events): from the argument expressions, the
    # assignments that bind the plain names they read, and the callee's last component
    marker_runs: Tuple[Tuple[str, ...], ...] = ()
    # the class of the receiver of ``x.m()``/``self.x.m()`` as written (semantics §Events receiver
    # types); its qualified form ``module.T.m`` is among ``qualnames``
    receiver_type: Optional[str] = None
    aug: bool = False
    exits: Optional[str] = None  # "sys.exit" / "os._exit"
    suppress_types: Optional[Tuple[str, ...]] = None  # contextlib.suppress(...) types
    self_call: Optional[str] = None  # "self" / "cls" / "super" when callee is one of them
    # lines of the `except` clauses whose caught exception flows into this call's
    # arguments (semantics §Contracts, handing the exception on); conversions pass it through
    hands_on: Tuple[int, ...] = ()


@dataclass
class Choice:
    """Exactly one of ``options`` runs (an empty option = nothing runs)."""

    options: Tuple["ExprSeq", ...]
    # a conditional expression's test: what it tells on each option (semantics §Contracts)
    facts: Tuple[Tuple["Fact", ...], ...] = ()


@dataclass
class Repeat:
    """``body`` runs zero or more times (comprehension elements)."""

    body: "ExprSeq"


@dataclass
class RaisePoint:
    """An attribute access or subscript on a value a call produced: it can raise
    after that call took effect (``store.save(run)["version"]``)."""

    line: int


ExprItem = Union[Call, Choice, Repeat, RaisePoint]
ExprSeq = List[ExprItem]


@dataclass
class Handler:
    span: Span
    text: str
    types: Tuple[str, ...]  # rendered type names (dotted text and qualified names)
    bare: bool
    broad: bool  # bare, Exception, BaseException, or a tuple holding one
    body: List["Stmt"]
    name: Optional[str] = None  # the `as` name


@dataclass
class Fact:
    """What one branch of a test tells about a plain local name (semantics §Contracts, correlated
    tests): ``kind`` "truth" (``value``: the name is truthy) or "none" (``value``: the
    name is None)."""

    name: str
    kind: str
    value: bool


@dataclass
class WithItem:
    events: ExprSeq
    manager: Optional[Call]  # the context-manager call, when the item is a call


@dataclass
class Case:
    span: Span
    text: str
    always: bool  # wildcard or bare capture without guard
    guard: ExprSeq
    body: List["Stmt"]


@dataclass
class Stmt:
    """A statement. ``kind`` says which optional fields are used."""

    kind: str
    span: Span
    text: str
    events: ExprSeq = field(default_factory=list)
    can_raise: bool = False
    body: List["Stmt"] = field(default_factory=list)
    orelse: List["Stmt"] = field(default_factory=list)
    handlers: List[Handler] = field(default_factory=list)
    finalbody: List["Stmt"] = field(default_factory=list)
    items: List[WithItem] = field(default_factory=list)
    cases: List[Case] = field(default_factory=list)
    message: ExprSeq = field(default_factory=list)  # an assert's message (runs on failure)
    infinite: bool = False  # ``while True``
    has_finally: bool = False
    finally_span: Optional[Span] = None  # the `finally:` clause of a try
    returns: Optional[bool] = None  # ``return True`` / ``return False`` (a constant)
    test_call: Optional[int] = None  # if/while: id of the call that is the whole test
    test_negated: bool = False  # ... under ``not``
    # correlated tests (if/elif/while/assert): what the test tells on each branch
    true_facts: Tuple[Fact, ...] = ()
    false_facts: Tuple[Fact, ...] = ()
    writes: Tuple[str, ...] = ()  # plain names the statement (its header) rebinds
    mutates: Tuple[str, ...] = ()  # plain names whose object it may change (`x.m()`, `x[k] = v`)
    # lines of the `except` clauses whose exception flows into a return or yield value,
    # an assignment's right-hand side or a walrus of this statement (its header)
    hands_on: Tuple[int, ...] = ()
    yields: bool = False  # a simple statement holding a ``yield`` (context-manager generators only)


@dataclass
class FunctionFacts:
    qualname: str  # Python's __qualname__ style; "<module>" for the module body
    name: str
    class_name: Optional[str]  # qualname of the enclosing class, for methods
    span: Span
    params: Tuple[str, ...]
    body: List[Stmt]
    calls: List[Call]
    local_functions: Dict[str, str] = field(default_factory=dict)  # name -> qualname
    # names no test fact may rest on: `global`/`nonlocal` names, and names a nested
    # function rebinds through `nonlocal`
    untracked: Tuple[str, ...] = ()
    decorators: Tuple[str, ...] = ()  # rendered and import-qualified decorator names
    context_manager: bool = False  # decorated @contextmanager / @asynccontextmanager


@dataclass
class ClassFacts:
    qualname: str
    bases: Tuple[str, ...]  # dotted text / qualified names of the bases
    methods: Tuple[str, ...]


@dataclass
class ParseError:
    message: str
    line: int = 1
    col: int = 0


@dataclass
class Suppression:
    line: int
    codes: Optional[Tuple[str, ...]]  # None: every code
    reason: str
    col: int = 0


@dataclass
class FileFacts:
    path: str
    module: str
    functions: List[FunctionFacts] = field(default_factory=list)
    classes: List[ClassFacts] = field(default_factory=list)
    imports: Dict[str, str] = field(default_factory=dict)  # local name -> qualified
    star_imports: List[str] = field(default_factory=list)  # modules of `from m import *`
    suppressions: List[Suppression] = field(default_factory=list)
    lines: List[str] = field(default_factory=list)
    error: Optional[ParseError] = None
    module_aliases: List[str] = field(default_factory=list)  # other import names (src roots); set by the runner


# --------------------------------------------------------------------------- reading


def decode_source(data: bytes) -> str:
    """Decode like CPython does (BOM, PEP 263 cookie, else UTF-8); raise
    ``ValueError`` with a user-facing message otherwise."""
    if b"\x00" in data:
        raise ValueError("source contains a NUL byte")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise ValueError(str(exc)) from None
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise ValueError(f"cannot decode as {encoding}: {exc.reason if hasattr(exc, 'reason') else exc}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def module_name(path: Path) -> str:
    """The dotted module name by the package rule: walk up while the folder has an
    ``__init__.py``."""
    path = Path(path)
    parts = [] if path.stem == "__init__" else [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        if folder.parent == folder:
            break
        folder = folder.parent
    return ".".join(parts) if parts else path.stem


_SUPPRESS_RE = re.compile(
    r"#\s*(?:ordercheck:\s*ignore|noqa)\b(?:\s*(?:\[(?P<br>[^\]]*)\]|:\s*(?P<co>[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)))?(?:.*?\s--\s*(?P<reason>.*))?",
    re.IGNORECASE,
)


def find_suppressions(text: str) -> List[Suppression]:
    """Suppression comments, via the tokenizer so strings that look like comments
    are not mistaken for them."""
    found: List[Suppression] = []
    lowered = text.lower()
    if "noqa" not in lowered and "ordercheck" not in lowered:
        return found  # tokenizing is a tenth of a file's cost: skip it when it cannot matter
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return found
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        m = _SUPPRESS_RE.search(tok.string)
        if not m:
            continue
        raw = m.group("br") if m.group("br") is not None else m.group("co")
        codes = None
        if raw is not None:
            codes = tuple(c.strip().upper() for c in raw.split(",") if c.strip()) or None
        found.append(
            Suppression(tok.start[0], codes, (m.group("reason") or "").strip(), tok.start[1] + m.start())
        )
    return found


def utf16_col(line: str, col: int) -> int:
    prefix = line[:col]
    if prefix.isascii():
        return col
    return len(prefix.encode("utf-16-le")) // 2


# --------------------------------------------------------------------------- rendering


_HEAD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def render_callee(node: cst.CSTNode) -> str:
    """Dotted text of a callee: ``self._store.save``, ``get_store().save`` (``?`` for
    what is not one)."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{render_callee(node.value)}.{node.attr.value}"
    if isinstance(node, cst.Call):
        return f"{render_callee(node.func)}()"
    if isinstance(node, cst.Await):
        return render_callee(node.expression)
    if isinstance(node, cst.Subscript):
        return f"{render_callee(node.value)}[]"
    return "?"


BROAD_TYPES = {"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"}
EXIT_CALLS = ("sys.exit", "os._exit")  # (`exit()`/`quit()` are site helpers: not exits)

CONTEXT_MANAGER_DECORATORS = {
    "contextmanager", "asynccontextmanager",
    "contextlib.contextmanager", "contextlib.asynccontextmanager",
}
_RAISING: tuple = ()  # node kinds, filled by ``_load_libcst`` (libcst is imported lazily)
_LEAVES: tuple = ()
_COMPREHENSIONS: tuple = ()


def _load_libcst() -> None:
    global _RAISING, _LEAVES, _COMPREHENSIONS
    if _LEAVES:
        return
    mod = cst.load() if isinstance(cst, lazy.LazyModule) else cst
    _RAISING = (mod.Attribute, mod.Subscript)
    _LEAVES = (mod.Name, mod.SimpleString, mod.Integer, mod.Float, mod.Imaginary, mod.Ellipsis, mod.FormattedStringText)
    _COMPREHENSIONS = (mod.ListComp, mod.SetComp, mod.DictComp, mod.GeneratorExp)


# --------------------------------------------------------------------------- extraction


class _Extractor:
    """Walks a libcst module once and fills ``FileFacts``."""

    def __init__(self, facts: FileFacts, lines: List[str], imports: Dict[int, Dict[str, str]],
                 scopes: Optional[scopesmod.Scopes] = None) -> None:
        _load_libcst()
        self.facts = facts
        self.scopes = scopes or scopesmod.Scopes()
        # (kind "function"/"class", aliases and types, def/class line; 0: the module)
        self.name_scopes: List[Tuple[str, scopesmod.ScopeTable, int]] = []
        self.fn_marker_names: List[List[Tuple[Call, List[str]]]] = []
        self.lines = lines
        self.import_tables = imports  # def line (0: module) -> import table, from ast
        self.import_scopes: List[Dict[str, str]] = []
        self.positions: Mapping[cst.CSTNode, CodeRange] = {}
        self.source_ast: Optional[Tuple[str, ast.Module]] = None  # the file's text and ast, reused for positions
        self.offset = 0  # line offset of the chunk being walked
        self._huge: Optional["HugeDef"] = None  # a top-level def whose body comes in chunks
        self.next_call = 0
        # per-function state (a stack, since functions nest)
        self.fn_calls: List[List[Call]] = []
        self.fn_bindings: List[Dict[str, List[Tuple[str, ...]]]] = []  # name -> marker runs
        self.fn_locals: List[Dict[str, str]] = []
        self.stmt_lines: Tuple[int, int] = (1, 1)
        self.scope: List[Tuple[str, str]] = []
        # correlated tests and handing on (semantics §Contracts)
        self.fn_untracked: List[set] = []
        self.handler_stack: List[Tuple[Optional[str], int]] = []  # (`as` name, except line)
        self._calls_here: Dict[int, Call] = {}  # id(cst.Call) -> Call, inside handlers
        self._w: List[str] = []  # names a walrus rebinds in the expressions walked
        self._m: List[str] = []  # receivers of method calls in the expressions walked
        self._sink: set = set()
        self.cm_stack: List[bool] = []  # per function: is it a context-manager generator

    def set_chunk(self, tree: cst.Module, offset: int, text: str) -> None:
        whole = self.source_ast
        self.positions = positions_of(tree, text, whole[1] if whole is not None and whole[0] == text else None)
        self.offset = offset

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
        """The node's source text, first line only, shortened (sliced from the
        source lines: rendering code for every call would be quadratic)."""
        line_no, col, end_line, end_col = self.pos(node)
        if not (0 < line_no <= len(self.lines)):
            return ""
        line = self.lines[line_no - 1]
        first = line[col : end_col if end_line == line_no else len(line)].strip()
        if len(first) > limit:
            first = first[: limit - 3] + "..."
        return first

    def header_text(self, node: cst.CSTNode) -> str:
        line_no = self.pos(node)[0]
        line = self.lines[line_no - 1] if 0 < line_no <= len(self.lines) else ""
        line = line.strip()
        return line if len(line) <= 80 else line[:77] + "..."

    def qualified(self, node: cst.CSTNode) -> Tuple[str, ...]:
        """Import-qualified name of a dotted expression (``suppress`` after
        ``from contextlib import suppress`` → ``contextlib.suppress``)."""
        return self.qualified_text(render_callee(node))

    def qualified_text(self, text: str) -> Tuple[str, ...]:
        if not text or "(" in text or "[" in text or "?" in text:
            return ()
        head, _, rest = text.partition(".")
        for scope in reversed(self.import_scopes):
            if head in scope:
                full = scope[head] + ("." + rest if rest else "")
                return (full,) if full != text else ()
        return ()

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
            return  # a lambda's body runs elsewhere, if ever
        elif isinstance(node, cst.BooleanOperation):
            self._expr(node.left, seq)
            right = self.expr(node.right)
            if right:
                seq.append(Choice((right, [])))
        elif isinstance(node, cst.IfExp):
            self._expr(node.test, seq)
            mark = len(self._w)
            body, orelse = self.expr(node.body), self.expr(node.orelse)
            if body or orelse:
                told = _unwritten(test_facts(node.test), self._w[mark:])
                seq.append(Choice((body, orelse), told if any(told) else ()))
        elif isinstance(node, _COMPREHENSIONS):  # (a tuple filled at run time: no narrowing)
            self._comprehension(cast("Comprehension", node), seq)
        elif isinstance(node, cst.Attribute):
            before = len(seq)
            self._expr(node.value, seq)
            if len(seq) > before:
                seq.append(RaisePoint(self.pos(node)[2]))
        elif isinstance(node, cst.Subscript):
            before = len(seq)
            self._expr(node.value, seq)
            for el in node.slice:
                self._expr(el, seq)
            if len(seq) > before:
                seq.append(RaisePoint(self.pos(node)[2]))
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return
        elif isinstance(node, cst.NamedExpr):
            if isinstance(node.target, cst.Name):
                self._w.append(node.target.value)
            self._expr(node.value, seq)
        else:
            for child in node.children:
                self._expr(child, seq)

    def _comprehension(self, node: Comprehension, seq: ExprSeq) -> None:
        fors: List[cst.CompFor] = []
        f: Optional[cst.CompFor] = node.for_in
        while f is not None:
            fors.append(f)
            f = f.inner_for_in
        self._expr(fors[0].iter, seq)  # the first iterable is evaluated eagerly
        inner: ExprSeq = []
        for i, comp in enumerate(fors):
            if i:
                self._expr(comp.iter, inner)
            for cond in comp.ifs:
                self._expr(cond.test, inner)
        if isinstance(node, cst.DictComp):
            self._expr(node.key, inner)
            self._expr(node.value, inner)
        else:
            self._expr(node.elt, inner)
        if inner:
            seq.append(Repeat(inner))

    def _call(self, node: cst.Call, seq: ExprSeq) -> None:
        func = node.func
        # the callee's own sub-expressions first (``get_store().save``), then the
        # positional and starred arguments, then keyword and ``**`` arguments, as
        # CPython evaluates them whatever their order in the source
        if not isinstance(func, cst.Name):
            self._expr(func, seq)
        for arg in node.args:
            if arg.keyword is None and arg.star != "**":
                self._expr(arg.value, seq)
        for arg in node.args:
            if arg.keyword is not None or arg.star == "**":
                self._expr(arg.value, seq)
        line = self.pos(node)[0]
        written = render_callee(func)
        callee = self.expand_alias(written, line)
        qn = self.qualified_text(callee)
        if callee != written and "." in written:
            # a receiver through an alias (`store = self._db; store.save()`) also
            # matches as written, as it did before the alias was seen
            qn = tuple(dict.fromkeys(qn + (written,)))
        receiver = self.receiver_type(callee)
        if receiver is not None:
            typed = self.type_qualname(receiver)
            if typed is not None:
                qn = tuple(dict.fromkeys(qn + (f"{typed}.{callee.rsplit('.', 1)[-1]}",)))
        exits = None
        for name in (callee,) + qn:
            if name in EXIT_CALLS:
                exits = name
        suppress = None
        if "contextlib.suppress" in qn or callee == "contextlib.suppress":
            suppress = tuple(
                t for a in node.args for t in (render_callee(a.value),) + self.qualified(a.value)
            )
        root = callee.split(".", 1)[0].split("(", 1)[0]
        self_call = root if root in ("self", "cls") else ("super" if callee.startswith("super()") else None)
        runs, names = argument_runs(node)
        own = callee_run(callee)
        if own:
            runs.append(own)
        call = Call(
            id=self.next_call,
            callee=callee,
            qualnames=qn,
            span=self.span(node),
            text=self.text(node),
            stmt_lines=self.stmt_lines,
            marker_runs=tuple(runs),
            receiver_type=receiver,
            exits=exits,
            suppress_types=suppress,
            self_call=self_call,
        )
        self.next_call += 1
        if self.fn_calls:
            self.fn_calls[-1].append(call)
            if names:
                self.fn_marker_names[-1].append((call, names))
        if isinstance(func, cst.Attribute):
            receiver_root = _root_name(func.value)
            if receiver_root is not None:
                self._m.append(receiver_root)  # `x.append(...)` may change what `x` is worth
        if self.handler_stack:
            self._calls_here[id(node)] = call
        seq.append(call)

    # ---- aliases and receiver types (semantics §Events)

    def _lookup(self, name: str) -> Optional[Tuple[scopesmod.ScopeTable, bool]]:
        """The scope that binds ``name`` as code in the current scope sees it, and
        whether that is the current scope itself (class bodies are seen only by
        their own statements)."""
        last = len(self.name_scopes) - 1
        for i in range(last, -1, -1):
            kind, table, _ = self.name_scopes[i]
            if kind == "class" and i != last:
                continue
            if name in table.declared_outer:
                continue
            if table.bound.get(name):
                return table, i == last
        return None

    def _self_class(self) -> Optional[scopesmod.ScopeTable]:
        """The class whose ``self``/``cls`` the current function sees."""
        for i in range(len(self.name_scopes) - 2, -1, -1):
            if self.name_scopes[i][0] == "class":
                return self.name_scopes[i][1]
        return None

    def expand_alias(self, text: str, line: int) -> str:
        """A callee through an alias renders as the aliased text (``error = logger.error``:
        ``error(...)`` is ``logger.error(...)``); a class-level alias is called through
        ``self``/``cls``."""
        for _ in range(4):  # an alias of an alias, a few levels; never a cycle
            m = _HEAD.match(text)
            if m is None:
                return text
            head, rest = m.group(0), text[m.end():]
            if head in ("self", "cls"):
                parts = text.split(".")
                cls = self._self_class()
                if len(parts) != 2 or cls is None:
                    return text
                found = cls.alias(parts[1])
                if found is None:
                    return text
                new = found[0]
            else:
                scope = self._lookup(head)
                if scope is None:
                    return text
                table, here = scope
                found = table.alias(head)
                if found is None or (here and found[1] >= line):
                    return text
                new = found[0] + rest
            if new == text:
                return text
            text = new
        return text

    def receiver_type(self, callee: str) -> Optional[str]:
        """The class of ``x`` in ``x.m()`` or of ``self.x`` in ``self.x.m()``, as written."""
        parts = callee.split(".")
        if not all(p.isidentifier() for p in parts):
            return None
        if len(parts) == 2 and parts[0] not in ("self", "cls"):
            scope = self._lookup(parts[0])
            return scope[0].type_of(parts[0]) if scope is not None else None
        if len(parts) == 3 and parts[0] in ("self", "cls"):
            cls = self._self_class()
            return cls.attr_type(parts[1]) if cls is not None else None
        return None

    def type_qualname(self, written: str) -> Optional[str]:
        """``RunStore`` → ``pkg.store.RunStore`` through the imports, or
        ``<this module>.RunStore`` for a class defined at the top of this module."""
        qn = self.qualified_text(written)
        if qn:
            return qn[0]
        head = written.split(".", 1)[0]
        if "." in written and any(head in scope for scope in self.import_scopes):
            return written  # `import acme.db` then `acme.db.RunStore`: written as qualified
        if head in self.scopes.module_classes:
            return f"{self.facts.module}.{written}" if self.facts.module else written
        return None

    def raises_outside_calls(self, node: Optional[cst.CSTNode]) -> bool:
        """Whether ``node`` holds an attribute access or subscript that is not part
        of a call (a call's own failure is the call's exceptional edge)."""
        if node is None or isinstance(node, _LEAVES):
            return False
        if isinstance(node, cst.Call):
            return False
        if isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            return False
        if isinstance(node, _RAISING) or isinstance(node, cst.Await):
            return True
        return any(self.raises_outside_calls(c) for c in node.children)

    # ---- statements

    def block(self, body: Union[cst.BaseSuite, Sequence[cst.CSTNode]]) -> List[Stmt]:
        out: List[Stmt] = []
        if isinstance(body, cst.SimpleStatementSuite):
            # `if x: a(); b()`: the small statements on the header's line, each its own
            # statement (positioned at itself: the header holds the line's start)
            for small in body.body:
                self._small_into(out, small, small)
            return out
        if isinstance(body, cst.IndentedBlock):
            nodes: Sequence[cst.CSTNode] = body.body
        else:
            nodes = body  # type: ignore[assignment]  # (a BaseSuite is one of the two above)
        for node in nodes:
            if isinstance(node, cst.SimpleStatementLine):
                for small in node.body:
                    self._small_into(out, small, node)
            else:
                st = self.compound(node)
                if st is not None:
                    out.append(st)
        return out

    def _small_into(self, out: List[Stmt], small: cst.BaseSmallStatement, line: cst.CSTNode) -> None:
        st = self.small(small, line)  # type: ignore[arg-type]
        if st is not None:
            if self.cm_stack and self.cm_stack[-1] and st.kind == "simple" and _has_yield(small):
                st.yields = True
            out.append(st)

    def _enter_stmt(self, node: cst.CSTNode, header_end: Optional[cst.CSTNode] = None) -> Span:
        self._w, self._m = [], []
        if self.handler_stack:
            self._calls_here = {}
        sp = self.span(node)
        last = self.span(header_end).end_line if header_end is not None else sp.end_line
        self.stmt_lines = (sp.line, max(sp.line, last))
        return sp

    def _record_binding(self, targets: Sequence[cst.CSTNode], value: Optional[cst.CSTNode]) -> None:
        """The marker tokens of each right-hand side, by the names it binds
        (element by element when a tuple is unpacked from a tuple)."""
        if value is None or not self.fn_bindings:
            return
        for t in targets:
            pairs: List[Tuple[cst.CSTNode, cst.CSTNode]] = [(t, value)]
            if (isinstance(t, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))
                    and len(t.elements) == len(value.elements)
                    and not any(isinstance(e, cst.StarredElement) for e in list(t.elements) + list(value.elements))):
                pairs = [(a.value, b.value) for a, b in zip(t.elements, value.elements)]
            for target, val in pairs:
                runs = expression_runs(val)
                for name in _target_names(target):
                    self.fn_bindings[-1].setdefault(name, []).extend(runs)

    def small(self, node: cst.BaseSmallStatement, line: cst.SimpleStatementLine) -> Optional[Stmt]:
        st = self._small(node, line)
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
            _bound(t, writes, mutates)
        if isinstance(node, (cst.Import, cst.ImportFrom)) and not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                if alias.asname is not None:
                    _bound(alias.asname.name, writes, mutates)
                else:
                    writes.append(render_callee(alias.name).split(".")[0])
        self._set_writes(st, writes, mutates)
        if self.handler_stack:
            self._sink = set()
            if isinstance(node, cst.Return) and node.value is not None:
                self._sink |= self._carried(node.value)
            elif isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and node.value is not None:
                self._sink |= self._carried(node.value)
                for t in targets:
                    self._carried(t)  # calls in the targets may receive it
            else:
                self._carried(node)
            st.hands_on = tuple(sorted(self._sink))
        return st

    def _set_writes(self, st: Stmt, writes: List[str], mutates: List[str]) -> None:
        if writes:
            st.writes = tuple(dict.fromkeys(writes))
        if mutates:
            st.mutates = tuple(dict.fromkeys(mutates))

    def _header(self, st: Stmt, exprs: Sequence[Optional[cst.CSTNode]], targets: Sequence[cst.CSTNode] = ()) -> None:
        """A compound statement's header: the names it binds, and the calls of its
        expressions that receive a caught exception."""
        writes, mutates = list(self._w), list(self._m)
        for t in targets:
            _bound(t, writes, mutates)
        self._set_writes(st, writes, mutates)
        if self.handler_stack:
            self._sink = set()
            for e in exprs:
                if e is not None:
                    self._carried(e)
            st.hands_on = tuple(sorted(self._sink))

    # ---- handing the exception on (semantics §Contracts)

    def _carried(self, node: cst.CSTNode) -> set:
        """The `except` lines whose caught exception the value of ``node`` carries;
        on the way, marks the calls that receive it (``Call.hands_on``) and the yields
        and walruses that hand it on (``self._sink``)."""
        if isinstance(node, cst.Name):
            for name, line in reversed(self.handler_stack):
                if name == node.value:
                    return {line}
            return set()
        if isinstance(node, _LEAVES) or isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            return set()
        if isinstance(node, cst.Call):
            names = (render_callee(node.func),) + self.qualified(node.func)
            if any(n in _EXC_SOURCES for n in names):
                return {self.handler_stack[-1][1]}
            receiver = self._carried(node.func.value) if isinstance(node.func, cst.Attribute) else set()
            args: set = set()
            for a in node.args:
                args |= self._carried(a.value)
            if any(n in _EXC_INSPECT for n in names):
                return set()
            if any(n in _EXC_CONVERSIONS for n in names) or names[0].startswith("?."):
                return args | receiver  # `str(e)`, `"{}".format(e)`
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
            for child in node.children:
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
        for child in node.children:
            out |= self._carried(child)
        return out

    def _small(self, node: cst.BaseSmallStatement, line: cst.SimpleStatementLine) -> Optional[Stmt]:
        sp = self._enter_stmt(line)
        text = self.text(line)
        if isinstance(node, cst.Return):
            st = Stmt("return", sp, text, self.expr(node.value), self.raises_outside_calls(node.value))
            if isinstance(node.value, cst.Name) and node.value.value in ("True", "False"):
                st.returns = node.value.value == "True"
            return st
        if isinstance(node, cst.Raise):
            ev = self.expr(node.exc)
            ev += self.expr(node.cause)
            return Stmt("raise", sp, text, ev, True)
        if isinstance(node, cst.Assert):
            st = Stmt("assert", sp, text, self.expr(node.test), True, message=self.expr(node.msg))
            st.true_facts, st.false_facts = _unwritten(test_facts(node.test), self._w)
            return st
        if isinstance(node, cst.Break):
            return Stmt("break", sp, text)
        if isinstance(node, cst.Continue):
            return Stmt("continue", sp, text)
        if isinstance(node, cst.Pass):
            return Stmt("pass", sp, text)
        if isinstance(node, cst.Assign):
            ev = self.expr(node.value)
            for t in node.targets:
                ev += self.expr(t.target)
            self._record_binding([t.target for t in node.targets], node.value)
            raises = self.raises_outside_calls(node.value) or any(
                self.raises_outside_calls(t.target) for t in node.targets
            )
            return Stmt("simple", sp, text, ev, raises)
        if isinstance(node, cst.AnnAssign):
            ev = self.expr(node.value) + self.expr(node.target)
            self._record_binding([node.target], node.value)
            return Stmt("simple", sp, text, ev, self.raises_outside_calls(node.value) or self.raises_outside_calls(node.target))
        if isinstance(node, cst.AugAssign):
            ev = self.expr(node.target) + self.expr(node.value)  # the target is evaluated first
            aug = Call(
                id=self.next_call,
                callee="+=" if isinstance(node.operator, cst.AddAssign) and self._counter(node.target) else "aug-assign",
                qualnames=(),
                span=self.span(node),
                text=self.text(node),
                stmt_lines=self.stmt_lines,
                aug=True,
            )
            self.next_call += 1
            if self.fn_calls:
                self.fn_calls[-1].append(aug)
            ev.append(aug)
            return Stmt("simple", sp, text, ev, True)
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            return Stmt("simple", sp, text, [], True)
        if isinstance(node, (cst.Global, cst.Nonlocal)):
            names = {n.name.value for n in node.names}
            frames = self.fn_untracked if isinstance(node, cst.Nonlocal) else self.fn_untracked[-1:]
            for frame in frames:
                frame.update(names)
            return None
        if isinstance(node, cst.Del):
            return Stmt("simple", sp, text, self.expr(node.target), True)
        if isinstance(node, cst.Expr):
            return Stmt("simple", sp, text, self.expr(node.value), self.raises_outside_calls(node.value))
        # TypeAlias and anything newer: evaluate its children in order
        return Stmt("simple", sp, text, self.expr(node), self.raises_outside_calls(node))

    def _counter(self, target: cst.BaseExpression) -> bool:
        """Whether ``target += ...`` updates something that outlives the function
        (semantics §Events): an attribute, a subscript, or a name the function declares
        ``global``/``nonlocal``, or a name of a module or class body (a global, a
        class attribute); a plain local name of a function is not."""
        if not isinstance(target, cst.Name) or not self.name_scopes:
            return True
        kind, table, key = self.name_scopes[-1]
        return kind == "class" or key == 0 or target.value in table.declared_outer

    def compound(self, node: cst.CSTNode) -> Optional[Stmt]:
        """The statement of a compound statement node (a loud error for a kind nobody handles)."""
        if isinstance(node, cst.If):
            return self._if(node)
        if isinstance(node, cst.While):
            sp = self._enter_stmt(node, node.test)
            ev = self.expr(node.test)
            infinite = _is_true_constant(node.test)
            st = Stmt("while", sp, self.header_text(node), ev, self.raises_outside_calls(node.test), infinite=infinite)
            st.test_call, st.test_negated = _test_call(node.test, ev)
            self._header(st, [node.test])
            st.true_facts, st.false_facts = _unwritten(test_facts(node.test), self._w)
            st.body = self.block(node.body)
            st.orelse = self.block(node.orelse.body) if node.orelse else []
            return st
        if isinstance(node, cst.For):
            sp = self._enter_stmt(node, node.iter)
            ev = self.expr(node.iter)
            st = Stmt("for", sp, self.header_text(node), ev, True)
            self._header(st, [node.iter], [node.target])
            st.body = self.block(node.body)
            st.orelse = self.block(node.orelse.body) if node.orelse else []
            return st
        if isinstance(node, (cst.Try, cst.TryStar)):
            return self._try(node)
        if isinstance(node, cst.With):
            return self._with(node)
        if isinstance(node, cst.Match):
            return self._match(node)
        if isinstance(node, cst.FunctionDef):
            return self._def(node)
        if isinstance(node, cst.ClassDef):
            return self._class(node)
        # a statement kind nobody handles must not vanish from the graph
        raise TypeError(f"facts: no handler for the statement {type(node).__name__}")

    def _if(self, node: cst.If) -> Stmt:
        sp = self._enter_stmt(node, node.test)
        ev = self.expr(node.test)
        st = Stmt("if", sp, self.header_text(node), ev, self.raises_outside_calls(node.test))
        st.test_call, st.test_negated = _test_call(node.test, ev)
        self._header(st, [node.test])
        st.true_facts, st.false_facts = _unwritten(test_facts(node.test), self._w)
        st.body = self.block(node.body)
        if isinstance(node.orelse, cst.If):
            st.orelse = [self._if(node.orelse)]
        elif isinstance(node.orelse, cst.Else):
            st.orelse = self.block(node.orelse.body)
        return st

    def _try(self, node: Union[cst.Try, cst.TryStar]) -> Stmt:
        sp = self._enter_stmt(node, None)
        self.stmt_lines = (sp.line, sp.line)
        st = Stmt("try", sp, self.header_text(node))
        st.body = self.block(node.body)
        for h in node.handlers:
            hsp = self._enter_stmt(h, h.type)
            types: List[str] = []
            bare = h.type is None
            if h.type is not None:
                if isinstance(h.type, cst.Tuple):
                    elts: Sequence[cst.CSTNode] = h.type.elements
                else:
                    elts = [h.type]
                for el in elts:
                    value = el.value if isinstance(el, cst.Element) else el
                    types.append(render_callee(value))
                    types.extend(self.qualified(value))
            broad = bare or any(t in BROAD_TYPES for t in types)
            name = h.name.name.value if h.name is not None and isinstance(h.name.name, cst.Name) else None
            self.handler_stack.append((name, hsp.line))
            try:
                body = self.block(h.body)
            finally:
                self.handler_stack.pop()
            st.handlers.append(Handler(hsp, self.header_text(h), tuple(dict.fromkeys(types)), bare, broad, body, name))
        st.orelse = self.block(node.orelse.body) if node.orelse else []
        if node.finalbody is not None:
            st.has_finally = True
            whole = self.span(node.finalbody)  # the clause, keyword to the end of its body
            st.finally_span = Span(whole.line, whole.col, whole.line, whole.col + len("finally"),
                                   whole.col16, whole.col16 + len("finally"))
            st.finalbody = self.block(node.finalbody.body)
        return st

    def _with(self, node: cst.With) -> Stmt:
        sp = self._enter_stmt(node, node.items[-1] if node.items else None)
        st = Stmt("with", sp, self.header_text(node), [], True)
        for item in node.items:
            ev = self.expr(item.item)
            manager = None
            if isinstance(item.item, cst.Call):
                # the manager call is the last event of its own item expression
                manager = ev[-1] if ev and isinstance(ev[-1], Call) else None
            st.items.append(WithItem(ev, manager))
        self._header(st, [item.item for item in node.items],
                     [item.asname.name for item in node.items if item.asname is not None])
        st.body = self.block(node.body)
        return st

    def _match(self, node: cst.Match) -> Stmt:
        sp = self._enter_stmt(node, node.subject)
        st = Stmt("match", sp, self.header_text(node), self.expr(node.subject), self.raises_outside_calls(node.subject))
        self._header(st, [node.subject])
        captured: List[str] = list(st.writes)
        for case in node.cases:
            csp = self._enter_stmt(case, case.guard if case.guard is not None else case.pattern)
            guard = self.expr(case.guard)
            captured += self._w + _captures(case.pattern)
            always = case.guard is None and _irrefutable(case.pattern)
            st.cases.append(Case(csp, self.header_text(case), always, guard, self.block(case.body)))
        # (the cases' captures are forgotten at the `match` itself: earlier than Python
        # binds them, which only forgets sooner)
        if captured:
            st.writes = tuple(dict.fromkeys(captured))
        return st

    def _def(self, node: cst.FunctionDef) -> Stmt:
        sp = self._enter_stmt(node, node.name)
        ev: ExprSeq = []
        for d in node.decorators:
            ev += self.expr(d.decorator)
        for p in _all_params(node.params):
            if p.default is not None:
                ev += self.expr(p.default)
        if self.fn_locals and (not self.scope or self.scope[-1][1] == "function"):
            # a name bound in a function (or the module) body; a class body's names are attributes
            self.fn_locals[-1][node.name.value] = self._child_qualname(node.name.value)
        writes = list(self._w) + [node.name.value]
        self.function(node)
        st = Stmt("simple", sp, self.header_text(node), ev, False)
        st.writes = tuple(dict.fromkeys(writes))
        return st

    def _class(self, node: cst.ClassDef) -> Stmt:
        sp = self._enter_stmt(node, node.name)
        ev: ExprSeq = []
        for d in node.decorators:
            ev += self.expr(d.decorator)
        bases: List[str] = []
        for b in node.bases:
            ev += self.expr(b.value)
            bases.append(render_callee(b.value))
            bases.extend(self.qualified(b.value))
        qual = self._child_qualname(node.name.value)
        if self.fn_locals and (not self.scope or self.scope[-1][1] == "function"):
            self.fn_locals[-1][node.name.value] = qual
        self.scope.append((qual, "class"))
        class_line = self.span(node.name).line
        self.name_scopes.append(("class", self.scopes.classes.get(class_line) or scopesmod.ScopeTable(), class_line))
        methods: List[str] = []
        body_nodes = node.body.body if isinstance(node.body, cst.IndentedBlock) else node.body.body
        for child in body_nodes:
            if isinstance(child, cst.FunctionDef):
                methods.append(child.name.value)
        body = self.block(node.body)
        self.name_scopes.pop()
        self.scope.pop()
        self.facts.classes.append(ClassFacts(qual, tuple(dict.fromkeys(bases)), tuple(methods)))
        st = Stmt("class", sp, self.header_text(node), ev, True)
        st.writes = (node.name.value,)
        st.body = body  # a class body runs inline, where it is defined
        return st

    # ---- functions

    scope: List[Tuple[str, str]]

    @property
    def current_qualname(self) -> str:
        return self.scope[-1][0] if self.scope else ""

    def _child_qualname(self, name: str) -> str:
        if not self.scope:
            return name
        qual, kind = self.scope[-1]
        return f"{qual}.<locals>.{name}" if kind == "function" else f"{qual}.{name}"

    def _begin(self, imports: Dict[str, str]) -> Tuple[int, int]:
        self.fn_calls.append([])
        self.fn_marker_names.append([])
        self.fn_bindings.append({})
        self.fn_locals.append({})
        self.fn_untracked.append(set())
        self.import_scopes.append(imports)
        return self.stmt_lines

    def _end(self, saved_lines, qual, name, cls, sp, params, body) -> None:
        self.import_scopes.pop()
        self.stmt_lines = saved_lines
        calls = self.fn_calls.pop()
        bindings = self.fn_bindings.pop()
        local_fns = self.fn_locals.pop()
        pending = self.fn_marker_names.pop()
        untracked = tuple(sorted(self.fn_untracked.pop()))
        if bindings:
            for call, names in pending:
                bound = [r for n in dict.fromkeys(names) if n in bindings for r in bindings[n]]
                if bound:
                    call.marker_runs = call.marker_runs + tuple(bound)
        self.facts.functions.append(FunctionFacts(qual, name, cls, sp, params, body, calls, local_fns, untracked))

    def function(self, node: cst.FunctionDef) -> None:
        qual = self._child_qualname(node.name.value)
        cls = self.scope[-1][0] if self.scope and self.scope[-1][1] == "class" else None
        name_span = self.span(node.name)
        sp = Span(name_span.line, name_span.col, name_span.end_line, name_span.end_col, name_span.col16, name_span.end_col16)
        params = tuple(p.name.value for p in _all_params(node.params))
        decorators: List[str] = []
        for d in node.decorators:  # resolved in the enclosing scope, where they run
            target = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
            decorators.append(render_callee(target))
            decorators.extend(self.qualified(target))
        decorators = list(dict.fromkeys(decorators))
        manager = any(n in CONTEXT_MANAGER_DECORATORS for n in decorators)
        saved = self._begin(self.import_tables.get(name_span.line, {}))
        self.scope.append((qual, "function"))
        self.name_scopes.append(("function", self.scopes.functions.get(name_span.line) or scopesmod.ScopeTable(), name_span.line))
        handlers, self.handler_stack = self.handler_stack, []  # a nested function's own
        self.cm_stack.append(manager)
        try:
            huge, self._huge = self._huge, None
            body = self.block(node.body) if huge is None else self._chunked_body(huge)
        finally:
            self.handler_stack = handlers
            self.cm_stack.pop()
        self.name_scopes.pop()
        self.scope.pop()
        self._end(saved, qual, node.name.value, cls, sp, params, body)
        fn = self.facts.functions[-1]
        fn.decorators = tuple(decorators)
        fn.context_manager = manager

    def _chunked_body(self, huge: "HugeDef") -> List[Stmt]:
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

    def module(self, chunks: Iterable[Union[Tuple[int, str], "HugeDef"]]) -> None:
        """The module body, parsed chunk by chunk (top-level statements are
        independent, and one libcst tree of a 20 MB file would not fit in memory)."""
        table = self.import_tables.get(0, {})
        self.facts.imports = {k: v for k, v in table.items() if not k.startswith("*")}
        self.facts.star_imports = [v for k, v in table.items() if k.startswith("*")]
        saved = self._begin(self.facts.imports)
        self.name_scopes.append(("function", self.scopes.functions.get(0) or scopesmod.ScopeTable(), 0))
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
        self.name_scopes.pop()
        sp = Span(1, 0, max(1, len(self.lines)), 0)
        self._end(saved, "<module>", "<module>", None, sp, (), body)



def import_tables(tree: ast.Module, module: str, path: str) -> Dict[int, Dict[str, str]]:
    """For the module (key 0) and each function (key: its ``def`` line), the names
    its imports bind, anywhere in its body but not in nested functions —
    flow-insensitively, like Python's scoping. Class bodies count as their
    enclosing scope (a linter's approximation)."""
    tables: Dict[int, Dict[str, str]] = {}
    pending: List[Tuple[int, List[ast.AST]]] = [(0, list(tree.body))]
    while pending:
        key, stack = pending.pop()
        table = tables.setdefault(key, {})
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                pending.append((node.lineno, list(node.body)))
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        table.setdefault(alias.asname, alias.name)
                    else:
                        top = alias.name.split(".")[0]
                        table.setdefault(top, top)
            elif isinstance(node, ast.ImportFrom):
                base = "." * node.level + (node.module or "")
                if node.level:
                    base = resolve_relative(module, base, path)
                for alias in node.names:
                    if alias.name != "*":
                        table.setdefault(alias.asname or alias.name, f"{base}.{alias.name}" if base else alias.name)
                    elif key == 0 and base:
                        table.setdefault(f"*{base}", base)  # a star import: see FileFacts.star_imports
            else:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, (ast.stmt, ast.excepthandler)) or type(child).__name__ == "match_case":
                        stack.append(child)
    return tables


_NEWLINE = re.compile(r"\r\n|\r|\n")
CHUNK_LINES = 4000


def split_lines(text: str) -> List[str]:
    """Lines as Python counts them (``str.splitlines`` also splits on form feeds
    and other characters Python does not treat as line ends)."""
    lines = _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def top_level_bounds(tree: ast.Module) -> List[Tuple[int, int]]:
    """First and last line of each top-level statement (decorators included)."""
    bounds: List[Tuple[int, int]] = []
    for node in tree.body:
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        bounds.append((start, getattr(node, "end_lineno", None) or node.lineno))
    return bounds


@dataclass
class HugeDef:
    """A top-level function longer than the chunk size: its header (decorators and
    ``def`` line, the body replaced by ``pass``) and its body in groups of whole
    statements, each ``if True:`` and then the file's own lines."""

    offset: int
    header: str
    body: List[Tuple[int, str]]
    end: Optional[Span] = None  # the last body statement's span, once walked


def huge_functions(tree: ast.Module, lines: List[str], limit: int) -> Dict[int, HugeDef]:
    """First line (decorators included) -> ``HugeDef`` of each top-level function
    of more than ``limit`` lines whose body starts on a line of its own."""
    out: Dict[int, HugeDef] = {}
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or len(node.body) < 2:
            continue
        start = min([node.lineno] + [d.lineno for d in node.decorator_list])
        end = node.end_lineno or node.lineno
        first = node.body[0]
        b0 = min([first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])])
        if end - start <= limit or b0 <= node.lineno:
            continue
        line = lines[b0 - 1]
        header = "\n".join(lines[start - 1 : b0 - 1] + [line[: len(line) - len(line.lstrip())] + "pass"]) + "\n"
        bounds = [(min([b.lineno] + [d.lineno for d in getattr(b, "decorator_list", [])]), b.end_lineno or b.lineno)
                  for b in node.body]
        starts = [b0]
        chunk_start, last_end = b0, 0
        for a, b in bounds:
            if a > last_end and a - chunk_start >= limit:
                starts.append(a)
                chunk_start = a
            last_end = max(last_end, b)
        starts.append(end + 1)
        body = [(a - 2, "if True:\n" + "\n".join(lines[a - 1 : b - 1]) + "\n") for a, b in zip(starts, starts[1:])]
        out[start] = HugeDef(start - 1, header, body)
    return out


def chunks(bounds: List[Tuple[int, int]], lines: List[str], limit: int,
           huge: Optional[Dict[int, HugeDef]] = None) -> Iterator[Union[Tuple[int, str], HugeDef]]:
    """(line offset, text) of groups of whole top-level statements, each about
    ``limit`` lines; a statement is never split, nor a line. A huge top-level
    function (``huge``, by first line) comes as its own ``HugeDef``."""
    if huge:
        yield from _chunks_around(bounds, lines, limit, huge)
        return
    starts = [1]
    chunk_start, last_end = 1, 0
    for start, end in bounds:
        if start > last_end and start - chunk_start >= limit:
            starts.append(start)
            chunk_start = start
        last_end = max(last_end, end)
    starts.append(len(lines) + 1)
    for a, b in zip(starts, starts[1:]):
        if b > a or len(starts) == 2:
            yield a - 1, "\n".join(lines[a - 1 : b - 1]) + "\n"


def _chunks_around(bounds: List[Tuple[int, int]], lines: List[str], limit: int,
                   huge: Dict[int, HugeDef]) -> Iterator[Union[Tuple[int, str], HugeDef]]:
    """``chunks`` of a file with huge functions: the groups between them as usual
    (the lines after a huge function's last line up to the next statement hold
    nothing but blanks and comments, and are left out)."""
    chunk_start, last_end = 1, 0

    def group(a: int, b: int) -> Iterator[Tuple[int, str]]:
        if b > a:
            yield a - 1, "\n".join(lines[a - 1 : b - 1]) + "\n"

    for start, end in bounds:
        if start in huge and start > last_end:
            yield from group(chunk_start, start)
            yield huge[start]
            chunk_start, last_end = end + 1, end
            continue
        if start > last_end and start - chunk_start >= limit:
            yield from group(chunk_start, start)
            chunk_start = start
        last_end = max(last_end, end)
    yield from group(chunk_start, len(lines) + 1)


def resolve_relative(module: str, name: str, path: str) -> str:
    """``.store.x`` inside ``pkg.runtime`` → ``pkg.store.x``."""
    level = len(name) - len(name.lstrip("."))
    rest = name[level:]
    parts = module.split(".") if module else []
    is_package = Path(path).stem == "__init__"
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    return ".".join([p for p in parts] + ([rest] if rest else []))


def _target_names(node: cst.CSTNode) -> List[str]:
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, (cst.Tuple, cst.List)):
        out: List[str] = []
        for el in node.elements:
            out.extend(_target_names(el.value))
        return out
    if isinstance(node, cst.StarredElement):
        return _target_names(node.value)
    return []


_EXC_SOURCES = {"sys.exc_info", "sys.exception", "traceback.format_exc"}
_EXC_CONVERSIONS = {"str", "repr", "format", "ascii", "traceback.format_exception",
                    "traceback.format_exception_only"}
_EXC_INSPECT = {"isinstance", "issubclass", "type", "hasattr", "getattr"}


def _root_name(node: cst.CSTNode) -> Optional[str]:
    """``x`` of ``x``, ``x.a.b``, ``x[k].a``; None for anything else."""
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def _bound(target: cst.CSTNode, writes: List[str], mutates: List[str]) -> None:
    """Names an assignment target rebinds, and names whose object it changes."""
    if isinstance(target, cst.Name):
        writes.append(target.value)
    elif isinstance(target, (cst.Tuple, cst.List)):
        for el in target.elements:
            _bound(el.value, writes, mutates)
    elif isinstance(target, (cst.StarredElement, cst.Element)):
        _bound(target.value, writes, mutates)
    elif isinstance(target, (cst.Attribute, cst.Subscript)):
        root = _root_name(target.value)
        if root is not None:
            mutates.append(root)


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
        stack.extend(node.children)
    return out


_CONSTANTS = {"True", "False", "None"}


def _unwritten(told: Tuple[Tuple["Fact", ...], Tuple["Fact", ...]], written: Sequence[str]):
    """A test's facts without those about names a walrus in the test (or in the
    branches of a conditional expression) rebinds: the fact may be about the old value."""
    if not written:
        return told
    gone = set(written)
    return tuple(tuple(f for f in side if f.name not in gone) for side in told)


def test_facts(node: cst.BaseExpression) -> Tuple[Tuple[Fact, ...], Tuple[Fact, ...]]:
    """What a test tells about plain names on its true and its false branch (semantics §Contracts):
    ``name`` / ``not name``, ``name is None`` / ``name is not None``; a true ``A and
    B`` tells both, a false ``A or B`` tells both false; anything else tells nothing."""
    if isinstance(node, cst.Name):
        if node.value in _CONSTANTS:
            return (), ()
        return (Fact(node.value, "truth", True),), (Fact(node.value, "truth", False),)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        t, f = test_facts(node.expression)
        return f, t
    if isinstance(node, cst.BooleanOperation):
        lt, lf = test_facts(node.left)
        rt, rf = test_facts(node.right)
        if isinstance(node.operator, cst.And):
            return lt + rt, ()
        return (), lf + rf
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        comp = node.comparisons[0]
        left, right = node.left, comp.comparator
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
def _has_yield(node: cst.CSTNode) -> bool:
    """Whether a statement holds a ``yield`` of its own (not one of a lambda)."""
    if isinstance(node, (cst.Yield,)):
        return True
    if isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef) + _LEAVES):
        return False
    return any(_has_yield(c) for c in node.children)


def _all_params(params: cst.Parameters) -> List[cst.Param]:
    out = list(params.posonly_params) + list(params.params) + list(params.kwonly_params)
    if isinstance(params.star_arg, cst.Param):
        out.append(params.star_arg)
    if params.star_kwarg is not None:
        out.append(params.star_kwarg)
    return out


def _test_call(test: cst.BaseExpression, events: ExprSeq) -> Tuple[Optional[int], bool]:
    """A test that is one call (``await`` allowed), alone or under ``not``: the id of
    that call (the last event of the test: a call comes after its arguments) and
    whether it is negated. Anything else: ``(None, False)``."""
    negated = False
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, negated = test.expression, True
    if isinstance(test, cst.Await):
        test = test.expression
    if isinstance(test, cst.Call) and events and isinstance(events[-1], Call):
        return events[-1].id, negated
    return None, False


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


def _irrefutable(pattern: cst.MatchPattern) -> bool:
    if isinstance(pattern, cst.MatchAs):
        return pattern.pattern is None or _irrefutable(pattern.pattern)
    if isinstance(pattern, cst.MatchOr):
        return any(_irrefutable(p.pattern) for p in pattern.patterns)
    return False


# --------------------------------------------------------------------------- entry point


def extract(path: str, data: bytes, module: Optional[str] = None) -> FileFacts:
    """Facts of one file (see ``_extract``), with the cyclic garbage collector paused:
    parsing allocates millions of acyclic objects, and every full collection walks
    every live object, the facts of the files read before included — on a file of
    20,000 functions the collector took half the time (docs/performance.md, "Scale")."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _extract(path, data, module)
    finally:
        if paused:
            gc.enable()


def _extract(path: str, data: bytes, module: Optional[str] = None) -> FileFacts:
    """Facts of one file. Never raises for bad input: a file that cannot be decoded,
    parsed, compiled or analysed comes back with ``error`` set (one OC900 finding).

    CPython's verdict comes first: ``ast.parse``, then ``compile`` of that tree, which
    reports what only the compiler checks (``'return' outside function``, ``default
    'except:' must be last``, ``from __future__ import braces``) where CPython does."""
    facts = FileFacts(path=path, module=module if module is not None else module_name(Path(path)))
    try:
        text = decode_source(data)
    except ValueError as exc:
        facts.error = ParseError(str(exc))
        return facts
    facts.lines = split_lines(text)
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        return _syntax_error(facts, exc)
    except (RecursionError, MemoryError, ValueError) as exc:
        facts.error = ParseError(f"cannot parse: {type(exc).__name__}: {exc}".rstrip(": "))
        return facts
    try:
        compile(tree, path, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return _syntax_error(facts, exc)
    except (RecursionError, MemoryError) as exc:
        facts.error = ParseError(f"CPython cannot compile this file ({type(exc).__name__}): it nests too deeply")
        return facts
    except ValueError as exc:
        facts.error = ParseError(f"CPython cannot compile this file: {exc}")
        return facts
    lines, shifts = formfeed_indents(facts.lines)
    _load_libcst()
    ex = None
    try:
        ex = _Extractor(facts, lines, import_tables(tree, facts.module, path), scopesmod.scan(tree))
        bounds = top_level_bounds(tree)
        huge = huge_functions(tree, lines, CHUNK_LINES)
        parts = list(chunks(bounds, lines, CHUNK_LINES, huge))
        if len(parts) == 1 and not huge:  # one chunk: its positions come from this ast
            ex.source_ast = (text, tree)
        del tree  # the ast was for CPython's verdict, imports, chunk bounds and positions
        ex.module(parts)
        ex.source_ast = None
    except cst.ParserSyntaxError as exc:
        # CPython accepted the file and libcst did not: say so, and where.
        offset = ex.offset if ex is not None else 0
        return _failed(facts, f"libcst cannot parse this file although CPython can: {exc.message}",
                       exc.raw_line + offset, exc.raw_column)
    except RecursionError:
        return _failed(facts, "the file nests too deeply to analyse (libcst ran out of recursion depth)")
    except Exception as exc:  # libcst turns deep recursion into other errors too
        raise_if_interrupted()  # libcst turns a pending Ctrl-C into an error too
        try:  # the message of a libcst error can itself recurse (a repr of a deep node)
            text = str(exc)
            detail = text.splitlines()[0][:120] if text else ""
        except Exception:  # noqa: BLE001 - RecursionError and whatever else a repr raises
            detail = ""
        return _failed(facts, f"libcst cannot analyse this file although CPython can ({type(exc).__name__}"
                              + (f": {detail})" if detail else "); it likely nests too deeply for libcst"))
    if shifts:
        shift_spans(facts, shifts)
    facts.suppressions = find_suppressions(text)
    return facts


def _syntax_error(facts: FileFacts, exc: SyntaxError) -> FileFacts:
    """CPython's own message and position (its offset is 1-based)."""
    name = type(exc).__name__  # SyntaxError, IndentationError, TabError
    facts.error = ParseError(f"{name}: {exc.msg}", exc.lineno or 1, max(0, (exc.offset or 1) - 1))
    facts.functions = []
    facts.classes = []
    return facts


def formfeed_indents(lines: List[str]) -> Tuple[List[str], Dict[int, int]]:
    """A form feed in a line's indentation resets CPython's column count; libcst
    refuses it or miscounts. The copy libcst reads drops the indentation up to the
    last form feed; the map says, per line (1-based), how many characters went, so
    that ``shift_spans`` puts columns back where they are in the file."""
    shifts: Dict[int, int] = {}
    out = lines
    for i, line in enumerate(lines):
        if "\x0c" not in line:
            continue
        stripped = line.lstrip(" \t\x0c")
        indent = line[: len(line) - len(stripped)]
        cut = indent.rfind("\x0c") + 1
        if cut:
            if out is lines:
                out = list(lines)
            out[i] = line[cut:]
            shifts[i + 1] = cut
    return out, shifts


def shift_spans(facts: FileFacts, shifts: Mapping[int, int]) -> None:
    """Add the dropped indentation back to every ``Span`` on a shifted line (an
    explicit stack: statement trees can be deep)."""
    stack: List[object] = [facts.functions, facts.classes]
    seen = set()
    while stack:
        obj = stack.pop()
        if isinstance(obj, Span):
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            k = shifts.get(obj.line, 0)
            obj.col += k
            obj.col16 += k
            k = shifts.get(obj.end_line, 0)
            obj.end_col += k
            obj.end_col16 += k
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
        elif isinstance(obj, dict):
            stack.extend(obj.values())
        elif hasattr(obj, "__dataclass_fields__"):
            stack.extend(getattr(obj, name) for name in obj.__dataclass_fields__)


def _failed(facts: FileFacts, message: str, line: int = 1, col: int = 0) -> FileFacts:
    facts.error = ParseError(message, line, col)
    facts.functions = []
    facts.classes = []
    return facts
