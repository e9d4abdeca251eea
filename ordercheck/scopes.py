"""Aliases and receiver types per scope, from the file's ``ast`` (semantics §Events).

One pass over the tree the facts stage already parsed for CPython's verdict. For the
module (key 0), each function (key: its ``def`` line) and each class (key: its
``class`` line, in ``classes``) it records

* how often each name is bound (assignments, loop and ``with`` targets, imports,
  ``def``/``class``, parameters, ``except ... as``, walrus, match captures, ``del``,
  augmented assignments; a name a function declares ``global``/``nonlocal`` is bound
  in the scope that owns it);
* **aliases**: a name bound exactly once, by ``=`` (tuple unpacking included) or an
  annotated assignment, to a dotted name (``error = logger.error``), with the line
  of the binding so a function's alias counts only after it;
* **types** of names: from an annotation (parameter or variable; ``Optional[T]``,
  ``T | None``, ``Union[T, None]``, quoted names), else from constructor assignments
  ``x = T(...)`` (a CapWords callee; also ``x = p or T(...)`` over an annotated
  parameter ``p: Optional[T]``, and ``with T(...) as x``) that all name the same class;
* for a class, the types of its attributes: class-level annotations, ``self.x: T``,
  ``self.x = T(...)`` and ``self.x = p`` for an annotated parameter ``p``, in any of
  its methods.

Flow-insensitive, like Python's scoping. A type that is ambiguous (two different
annotations, or two different constructors) is unknown.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Iterator, List, Optional, Set, Tuple, Union, cast


@dataclass
class ScopeTable:
    bound: Dict[str, int] = field(default_factory=dict)
    defined: Dict[str, int] = field(default_factory=dict)  # of ``bound``: the ``def`` statements
    class_name: Optional[str] = None  # a class's table: the class's own name
    imported: Dict[str, int] = field(default_factory=dict)  # of ``bound``: the import statements
    alias_bindings: Dict[str, Tuple[str, int, int]] = field(default_factory=dict)  # name -> (text, end line, end col)
    #: a name bound to a tuple of dotted names (``report_exceptions = (RequestException,
    #: socket.error)``): name -> (their texts, end line, end col); an ``except`` clause
    #: that names it catches each (``tuple_alias``)
    tuple_bindings: Dict[str, Tuple[Tuple[str, ...], int, int]] = field(default_factory=dict)
    # the names of ``alias_bindings`` bound to a ``functools.partial(f, ...)``: an alias of
    # ``f`` where called or handed on, never as a receiver (``put.keywords`` is the
    # partial's own), and still matched by their own name (``Scopes._partial_alias``)
    partials: Set[str] = field(default_factory=set)
    #: a name bound to a choice of dotted names (``log = logger.error if fatal else
    #: logger.warning``, ``store = primary or fallback``): name -> (their texts, end line,
    #: end col); a call of it is a call of each (``choice_alias``)
    choice_bindings: Dict[str, Tuple[Tuple[str, ...], int, int]] = field(default_factory=dict)
    annotated: Dict[str, Set[str]] = field(default_factory=dict)
    constructed: Dict[str, Set[str]] = field(default_factory=dict)
    attr_annotated: Dict[str, Set[str]] = field(default_factory=dict)  # classes: self.x
    attr_constructed: Dict[str, Set[str]] = field(default_factory=dict)
    #: classes: every ``self.x`` a method stores into (an assignment's target, tuple
    #: targets, ``+=``, a ``for``, ``with ... as`` or comprehension target): a
    #: class-level alias of that name may be shadowed on the instance, so
    #: ``self.x.m()`` is not expanded
    attr_stored: Set[str] = field(default_factory=set)
    #: classes: the attributes bound to a list in memory (``self.history = []``,
    #: ``self.events: List[Event]``, a field ``history: List[Step] =
    #: field(default_factory=list)``): their ``append`` is no ledger's
    #: (``ClassFacts.containers``, read by ``suggest``; held-out set 405)
    attr_containers: Set[str] = field(default_factory=set)
    #: classes: the attributes a method binds to anything else but `None` (no list then)
    attr_other: Set[str] = field(default_factory=set)
    # `except T as e`: name -> the classes its clauses name, and how many clauses bind it
    # (a type only when they are all its bindings: ``type_of``)
    caught: Dict[str, Set[str]] = field(default_factory=dict)
    caught_bindings: Dict[str, int] = field(default_factory=dict)
    deleted: Dict[str, int] = field(default_factory=dict)  # `del name` statements (no value)
    declared_outer: Set[str] = field(default_factory=set)  # global / nonlocal names
    declared_global: Set[str] = field(default_factory=set)
    #: a function's names bound to a fresh built-in container (``rows = []``,
    #: ``seen = set()``): name -> (bindings of that kind, the kinds); ``type_of``
    displays: Dict[str, Tuple[int, FrozenSet[str]]] = field(default_factory=dict)
    #: a function's parameters that default to None and whose annotation names no class
    #: (none, ``Any``, ``object``): in ``p or T()`` the default names the class (``value_type``)
    defaulted: Set[str] = field(default_factory=set)
    is_function: bool = False  # (not the module's, not a class body's)
    #: a function's return annotation's class, as written; else the class every one of
    #: its `return` statements constructs (``return StateLock()``)
    returns: Optional[str] = None
    returned: Set[Optional[str]] = field(default_factory=set)  # (what each `return` constructs)
    #: an instance method's first parameter (not a ``staticmethod``'s or a
    #: ``classmethod``'s): ``return self`` gives the instance (``"Self"``)
    instance: Optional[str] = None
    #: a method's first parameter, an instance's or a classmethod's class (not a
    #: ``staticmethod``'s): what ``self.X``/``cls.X`` reads the class body through
    receiver: Optional[str] = None
    #: names bound to a path made from a plain name (``tmp = base.with_suffix(...)``):
    #: name -> those receivers, looked at once the scope is walked (``_known_type``)
    derived: Dict[str, Set[str]] = field(default_factory=dict)
    #: names bound to a path joined onto a plain name (``tmp = path.parent / name``):
    #: name -> that name, looked at once the scope is walked (``_joined_base``)
    joined: Dict[str, Set[str]] = field(default_factory=dict)
    returns_self: bool = False  # (some `return` is `return <instance>`)
    #: a generator function: the last line of the last statement of its body holding
    #: a ``yield`` (``ir.FunctionFacts.tail_line``); 0 for any other function
    tail_line: int = 0
    yield_at: Tuple[Tuple[int, int], ...] = ()  # (``_yield_at``)
    #: classes: Django's class-level ``@method_decorator(d, name="post")``: method name
    #: -> (the decorator's callee as written, the decorators it applies as written), for
    #: each such decorator of the class (the front ends resolve both where the class
    #: stands: ``method_decorator_targets``)
    #: Also, under ``"dispatch"``, the decorators of the class's own ``def dispatch``
    #: (a ``method_decorator(...)`` call as above; any other decorator as
    #: ``(DIRECT, (its name,))``): Django's ``View.dispatch`` runs every HTTP handler
    #: inside it, and ``as_view()`` copies its attributes (session 65's first review)
    method_decorated: Dict[str, List[Tuple[str, Tuple[str, ...]]]] = field(default_factory=dict)
    #: names bound from a call whose product the file cannot tell (``s =
    #: async_session()``, ``with async_session() as s:`` where ``async_session`` is
    #: imported; ``with db.session() as s:``, ``with store.session() as s:``): name ->
    #: those callees as written; the front end names such a receiver's
    #: calls through the import (``made_by``), and the project's summaries tell what
    #: the imported name makes (``summaries.ProjectIndex.product_names``)
    called: Dict[str, List[str]] = field(default_factory=dict)
    #: classes: ``self.x`` bound in a method from a call of a plain name the module
    #: imports and whose product the file cannot tell (``self.s = async_session()``):
    #: attribute -> those callees, as ``called`` is for a function's names (``attr_made_by``)
    attr_called: Dict[str, List[str]] = field(default_factory=dict)
    #: names bound by ``=`` to a string constant (``SQL = "UPDATE runs SET ..."``): name
    #: -> its text as ``literal_text`` reads it; the value of a name bound once, which
    #: a call's first argument may be (``Call.lead``)
    strings: Dict[str, str] = field(default_factory=dict)
    #: of ``strings``: those bound to an identifier, as written (``post = "message_post"``)
    identifiers: Dict[str, Tuple[str, int, int]] = field(default_factory=dict)  # (text, end line, end col)
    #: names whose last binding in source order is an import (a class body's
    #: ``def save_state`` then ``from .ops import save_state``: Python keeps the
    #: import, held-out set 400)
    imported_last: Set[str] = field(default_factory=set)

    def bind(self, name: str) -> None:
        self.bound[name] = self.bound.get(name, 0) + 1
        self.imported_last.discard(name)

    def alias(self, name: str) -> Optional[Tuple[str, int, int]]:
        if self.bound.get(name) == 1 and name in self.alias_bindings:
            return self.alias_bindings[name]
        return None

    def tuple_alias(self, name: str) -> Optional[Tuple[Tuple[str, ...], int, int]]:
        """The dotted names of the one tuple a name is bound to, bound only there."""
        if self.bound.get(name) == 1 and name in self.tuple_bindings:
            return self.tuple_bindings[name]
        return None

    def choice_alias(self, name: str) -> Optional[Tuple[Tuple[str, ...], int, int]]:
        """The dotted names of the one choice a name is bound to, bound only there."""
        if self.bound.get(name) == 1 and name in self.choice_bindings:
            return self.choice_bindings[name]
        return None

    def alias_beside_defs(self, name: str) -> Optional[Tuple[str, int, int]]:
        """The alias of a name bound by one alias and otherwise only by ``def``s
        (``disk_sync = os.fsync``, and ``def disk_sync(fd)`` on one platform): no alias,
        since the name is bound twice, but a call of it may run either, as a call of a
        name two ``def``s bind may run either (docs/decisions.md "An alias and a
        ``def`` of one name")."""
        defs = self.defined.get(name, 0)
        if defs and self.bound.get(name) == defs + 1 and name in self.alias_bindings:
            return self.alias_bindings[name]
        return None

    def made_by(self, name: str) -> Optional[str]:
        """The plain name whose call made ``name``, every binding of it a call of that
        name (``called``: two ``with async_session() as s:`` blocks; a review)."""
        calls = self.called.get(name, [])
        # (a `del` binds nothing it could be: `s = async_session(); ...; del s`; a review)
        bound = self.bound.get(name, 0) - self.deleted.get(name, 0)
        return calls[0] if calls and len(set(calls)) == 1 and bound == len(calls) else None

    def attr_made_by(self, attr: str) -> Optional[str]:
        """The imported plain name whose call made ``self.attr``, when the class types
        the attribute no other way and every such call is of that one name
        (``attr_called``: a repository's ``self.session = async_session()`` in
        ``__init__``; session 67's note)."""
        calls = self.attr_called.get(attr, [])
        if not calls or len(set(calls)) != 1 or self.attr_annotated.get(attr) or self.attr_constructed.get(attr):
            return None
        return calls[0]

    def type_of(self, name: str) -> Optional[str]:
        annotated = _one(self.annotated.get(name))
        if annotated in _CONTAINER_ANNOTATIONS:
            # `rows: list = []`: the annotation names the display's own class
            # (an adversarial review: it hid the display's type)
            return self._display_type(name) or annotated
        return annotated or _one(self.constructed.get(name)) or self._display_type(name) or self._caught_type(name)

    def _caught_type(self, name: str) -> Optional[str]:
        """The class of a name that only ``except T as name`` clauses bind, all naming
        ``T`` (docs/decisions.md "Receiver types", a caught exception): a later
        ``error = FailureRecord(...)`` is another binding, and the name then has the
        types of its other bindings alone (a review)."""
        # (a `del e` binds no value: `e.log(); del e` keeps the type)
        if self.caught_bindings.get(name, 0) + self.deleted.get(name, 0) != self.bound.get(name):
            return None
        return _one(self.caught.get(name)) or None  # ("": a clause that names no one class)

    def _display_type(self, name: str) -> Optional[str]:
        """``builtins.list`` for a function's name whose every binding is a fresh list
        (a display, a comprehension, ``list(...)``), and so for ``dict`` and ``set``: a
        list that lives and dies in one call is no ledger, whatever its name
        (docs/decisions.md, "A function's own list is no ledger")."""
        found = self.displays.get(name)
        if found is None or found[0] != self.bound.get(name) or len(found[1]) != 1:
            return None
        return f"builtins.{next(iter(found[1]))}"

    def attr_type(self, name: str) -> Optional[str]:
        return _one(self.attr_annotated.get(name)) or _one(self.attr_constructed.get(name)) or self.type_of(name)


def module_strings(scopes: "Scopes") -> Dict[str, Optional[str]]:
    """The module body's names bound once, to a string constant (``FileFacts.strings``):
    what another module's call handing the name on reads (``Call.lead_import``); and,
    as None, each name it imports and binds again (`from .queries import Q` then `Q =
    Q.replace(...)`), which a re-export is not followed through (a review)."""
    table = scopes.functions.get(0)
    if table is None:
        return {}
    out: Dict[str, Optional[str]] = {name: text for name, text in sorted(table.strings.items())
                                     if table.bound.get(name) == 1 and name not in table.declared_outer}
    out.update((name, None) for name, n in sorted(table.imported.items()) if n and table.bound.get(name, 0) > 1)
    return out


def module_aliases(scopes: "Scopes") -> Dict[str, str]:
    """The module body's aliases (``FileFacts.aliases``): each name bound exactly once
    in it, to a dotted name; and each other name of one known class (``STORE =
    RunStore()``, ``STORE: RunStore = make()``) as an instance of it, ``RunStore()``,
    so that another module's ``STORE.persist(run)`` resolves to ``RunStore.persist``
    as this module's does (``summaries.ProjectIndex``; docs/decisions.md, "A module
    variable's type crosses an import")."""
    table = scopes.functions.get(0)
    if table is None:
        return {}
    out = {}
    for name in sorted(table.alias_bindings):
        found = table.alias(name)
        if found is not None and found[0] != name:
            out[name] = found[0]
    for name in sorted(set(table.annotated) | set(table.constructed)):
        typed = table.type_of(name)
        # (not a name also bound to a dotted name: `SessionLocal = sessionmaker()` then
        # `SessionLocal = Other` is either; a review, session 66)
        if name not in out and typed is not None and (name in table.annotated or name not in table.alias_bindings):
            out[name] = f"{typed}()"
    for name in sorted(table.alias_bindings):
        beside = table.alias_beside_defs(name)
        if beside is not None and beside[0] != name:
            out[BESIDE_DEFS + name] = beside[0]
    return out


#: the key prefix (no identifier starts with it) of a module-level name bound by one
#: alias beside its ``def``s in ``module_aliases``: the modules that import the name
#: match its calls as the aliased text too, and still resolve them to the ``def``
#: (docs/decisions.md "An alias and a ``def`` of one name")
BESIDE_DEFS = "+"


#: the constructors of a type variable
_TYPEVARS = frozenset({"TypeVar", "typing.TypeVar", "typing_extensions.TypeVar", "t.TypeVar"})


def _typevar_bound(value: ast.AST) -> Optional[str]:
    """The bound of ``R = TypeVar("R", bound=Repo)`` (also ``bound="Repo"``): a name
    annotated ``R`` is of that class as far as ordercheck can know it, as mypy reads it
    (held-out set 253, fastapi-crud-toolkit's ``self.repo: RepoType``)."""
    if not isinstance(value, ast.Call) or dotted(value.func) not in _TYPEVARS:
        return None
    bound = next((k.value for k in value.keywords if k.arg == "bound"), None)
    if isinstance(bound, ast.Constant) and isinstance(bound.value, str):
        text = bound.value.strip()
        return text if all(p.isidentifier() for p in text.split(".")) else None
    return dotted(bound) if bound is not None else None


def _annotated_alias(value: ast.AST) -> Optional[str]:
    """The class of ``DbOperator = Annotated[db.Operator, Depends(get_op)]`` (FastAPI's
    dependency alias): a name annotated ``DbOperator`` is of ``db.Operator``, as an
    annotation written ``Annotated[db.Operator, ...]`` is (held-out set 266: vtes-archon
    and pyskat type every endpoint's operator so)."""
    if not isinstance(value, ast.Subscript):
        return None
    base = dotted(value.value)
    if base is None or base.rsplit(".", 1)[-1] != "Annotated":
        return None
    return annotation_type(value)


def _static_alias(value: ast.AST) -> Optional[str]:
    """The function ``post = staticmethod(ledger.post)`` binds in a class body: a
    ``staticmethod`` (or ``classmethod``-less) wrapper of a dotted name is that name
    for a call through the class or its instances, ``self.post(x)`` running
    ``ledger.post(x)`` (held-out set 316, django-flutterwave-wallet's ``BaseService``)."""
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "staticmethod"
            and len(value.args) == 1 and not value.keywords):
        return dotted(value.args[0])
    return None


def _one(values: Optional[Set[str]]) -> Optional[str]:
    if values and len(values) == 1:
        return next(iter(values))
    return None


#: how much of a call's leading string ``Call.lead`` keeps (an SQL statement's head is
#: what a pattern names: `INSERT INTO audit_log*`)
LEAD_LIMIT = 300


def literal_text(node: ast.AST, qualify: Optional[Callable[[str], Optional[str]]] = None) -> Optional[str]:
    """The text of a string constant, of implicitly joined ones, or of an f-string (its
    literal parts, ``{}`` for each placeholder), as an event pattern's argument part
    reads it (``Call.lead``): runs of whitespace as one space, trimmed, upper case
    (SQL's keywords are any case), at most ``LEAD_LIMIT`` characters. None for any
    other expression (bytes, a name, a call)."""
    text = _raw_text(node, 0, qualify)
    return None if text is None else " ".join(text.split()).upper()[:LEAD_LIMIT]


def _raw_text(node: ast.AST, depth: int = 0, qualify: Optional[Callable[[str], Optional[str]]] = None) -> Optional[str]:
    """``literal_text`` before it is folded: also a ``+`` of such strings
    (`'INSERT INTO Backups ' + '(...)'`; held-out set 390, glacierbackup)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
                       for v in node.values)
    if isinstance(node, ast.Call):
        wrapped = _wrapped_text(node, depth, qualify)
        return wrapped if wrapped is not None else _core_statement(node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and depth < 32:
        return _raw_text(node.left, depth + 1, qualify)  # `"UPDATE runs SET state = %s" % (s,)`: the template
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and depth < 32:
        left = _raw_text(node.left, depth + 1, qualify)
        if left is None:
            return None
        right = _raw_text(node.right, depth + 1, qualify)
        return None if right is None else left + right
    return None


#: the calls that hand on the text of their one argument, by the receiver they are
#: called on ("" for a plain name): SQLAlchemy's `text("...")`, psycopg's
#: `sql.SQL("...")`, `textwrap.dedent("...")`, `inspect.cleandoc("...")`
_TEXT_WRAPPERS = {
    "text": ("", "sa", "sqlalchemy", "sql", "expression", "sqlalchemy.sql"),
    "SQL": ("", "sql", "psycopg.sql", "psycopg2.sql"),
    "dedent": ("", "textwrap"),
    "cleandoc": ("", "inspect"),
}
#: a `str` method whose result keeps the statement's text (whitespace is folded anyway),
#: and a `TextClause`'s (`text("...").bindparams(a=1)`)
_TEXT_METHODS = frozenset({"strip", "lstrip", "rstrip", "format", "bindparams", "columns", "execution_options"})
#: of those, the ones given arguments that leave the text as it is
_TEXT_METHODS_WITH_ARGS = frozenset({"format", "bindparams", "columns", "execution_options"})
_FORMAT_FIELD = re.compile(r"\{[^{}]*\}")


def _wrapped_text(node: ast.Call, depth: int, qualify: Optional[Callable[[str], Optional[str]]] = None) -> Optional[str]:
    """The statement text a call hands on: `text("COMMIT")`, `sql.SQL("INSERT INTO
    events ...")`, `dedent("...")`, `"...".strip()`, and a template's
    `.format(...)` (each field `{}`, as an f-string's placeholder reads; `sql.SQL("...")
    .format(...)` too). None for any other call (the held-out sets' notes: such text was
    not read, and an argument part matched nothing)."""
    func = node.func
    if depth >= 32:
        return None
    if isinstance(func, ast.Attribute) and func.attr in _TEXT_METHODS and not (
            func.attr not in _TEXT_METHODS_WITH_ARGS and node.args):
        inner = _raw_text(func.value, depth + 1, qualify)
        if inner is None:
            return None
        return _FORMAT_FIELD.sub("{}", inner) if func.attr == "format" else inner
    if len(node.args) != 1 or node.keywords or not _text_wrapper(func, qualify):
        return None
    return _raw_text(node.args[0], depth + 1, qualify)


#: the text-handing functions by their qualified names (``_text_wrapper``)
_QUALIFIED_WRAPPERS = frozenset({
    "sqlalchemy.text", "sqlalchemy.sql.text", "sqlalchemy.sql.expression.text", "sqlmodel.text",
    "psycopg.sql.SQL", "psycopg2.sql.SQL", "textwrap.dedent", "inspect.cleandoc"})


def names_text_wrapper(qualified: str) -> bool:
    """Whether a qualified name is a text wrapper or a module holding one
    (``_QUALIFIED_WRAPPERS``)."""
    return any(w == qualified or w.startswith(qualified + ".") for w in _QUALIFIED_WRAPPERS)


def _text_wrapper(func: ast.AST, qualify: Optional[Callable[[str], Optional[str]]]) -> bool:
    """Whether a callee is one of ``_TEXT_WRAPPERS``: by the qualified name the file's
    imports give it when ``qualify`` knows its first name (`from psycopg import sql as
    pgsql`, `from sqlalchemy import text as T`; `import mylib as sql` is not psycopg's:
    held-out set 427), else as spelt."""
    written = dotted(func)
    if written is None:
        return False
    head, _, rest = written.partition(".")
    qualified = qualify(head) if qualify is not None else None
    if qualified is not None:
        return (qualified + ("." + rest if rest else "")) in _QUALIFIED_WRAPPERS
    name = written.rsplit(".", 1)[-1]
    owners = _TEXT_WRAPPERS.get(name)
    return owners is not None and (written.rsplit(".", 1)[0] if "." in written else "") in owners


def handed_name(node: ast.AST, qualify: Optional[Callable[[str], Optional[str]]] = None) -> Optional[ast.expr]:
    """The name whose statement a wrapper or a template hands on (`text(SQL1)`,
    `sql.SQL(Q).format(...)`, `Q % args`, `Q.format(...)`; `text(queries.Q)`, an
    attribute of a plain name), for ``Resolver.lead_of`` to look up as it looks up a
    name given alone; None for anything else."""
    for _ in range(8):
        if isinstance(node, ast.Name) or (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            return node
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            node = node.left
            continue
        if not isinstance(node, ast.Call):
            return None
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _TEXT_METHODS and not (
                func.attr not in _TEXT_METHODS_WITH_ARGS and node.args):
            node = func.value
            continue
        if len(node.args) != 1 or node.keywords or not _text_wrapper(func, qualify):
            return None
        node = node.args[0]
    return None


#: SQLAlchemy Core's statement builders, and the text each stands for
_CORE_VERBS = {"insert": "INSERT INTO", "update": "UPDATE", "delete": "DELETE FROM"}
#: the last names of the calls a first argument's text may come through (a builder, a
#: wrapper, a method that keeps the text): the libcst front end parses such an argument
#: for ``literal_text`` (``expressions._ast_lead``) and nothing else
LEAD_CALL_NAMES = frozenset(_CORE_VERBS) | frozenset(_TEXT_WRAPPERS) | _TEXT_METHODS


def _core_statement(node: ast.Call) -> Optional[str]:
    """The head of the statement an SQLAlchemy Core builder makes, as text an argument
    part reads: `insert(movements).values(...)` and `movements.insert().values(...)` are
    `INSERT INTO movements`, `update(Run).where(...)` is `UPDATE Run`, `delete(t)` is
    `DELETE FROM t` (held-out set 404: `c.execute(insert(movements)...)` had no text to
    name). The table is the last name of what the builder is given (a `Table`, or an ORM
    class by its own name, also as its `__table__`). None for any other call."""
    while isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Call):
        node = node.func.value  # (`.values(...)`, `.where(...)`, `.returning(...)`)
    func = node.func
    if isinstance(func, (ast.Name, ast.Attribute)):
        verb = func.id if isinstance(func, ast.Name) else func.attr
        head = _CORE_VERBS.get(verb)
        if head is None:
            return None
        if isinstance(func, ast.Name) or dotted(func.value) in ("sa", "sqlalchemy", "sql", "expression"):
            # `insert(t)`, `sa.insert(t)`: the table is the first argument
            table = dotted(node.args[0]) if len(node.args) == 1 and not node.keywords else None
        else:
            # `t.insert()`: the table is the receiver
            table = dotted(func.value) if not node.args else None
        if table and table.endswith(".__table__"):
            # `insert(Changelog.__table__)`, `Flag.__table__.update()`: the ORM class's
            # table, named by the class (held-out set 439: every one read `__table__`)
            table = table[: -len(".__table__")]
        if table:
            return f"{head} {table.rsplit('.', 1)[-1]}"
    return None


def dotted(node: ast.AST) -> Optional[str]:
    """``logger.error`` → "logger.error"; anything else → None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


def method_decorator_nodes(call: ast.Call) -> List[ast.expr]:
    """The decorators a call of Django's ``method_decorator(decorator, name="")``
    applies, as nodes: its first argument (else ``decorator=``), each item of a list or
    tuple of them (``method_decorator([login_required, atomic])``), a call by its
    callee (``atomic(using="x")`` is ``atomic``)."""
    arg: Optional[ast.expr] = None
    if call.args and not isinstance(call.args[0], ast.Starred):
        arg = call.args[0]
    elif not call.args:
        arg = next((k.value for k in call.keywords if k.arg == "decorator"), None)
    items = list(arg.elts) if isinstance(arg, (ast.List, ast.Tuple)) else [arg] if arg is not None else []
    return [it.func if isinstance(it, ast.Call) else it for it in items]


#: ``ScopeTable.method_decorated``'s mark of a decorator written on ``dispatch`` itself
DIRECT = "<decorator>"

#: the last words of a base that makes a class a view whose ``dispatch`` runs its
#: handlers (Django's ``View``, ``TemplateView``, DRF's ``APIView``, ``ViewSet``)
VIEW_BASE_SUFFIXES = ("View", "ViewSet", "Mixin")  # (a view's mixins: `LoginRequiredMixin`; a review)


def method_decorator_targets(call: ast.Call) -> Tuple[str, ...]:
    """``method_decorator_nodes`` as written; what is no dotted name is left out."""
    out = [dotted(n) for n in method_decorator_nodes(call)]
    return tuple(t for t in out if t)


def _cap_words(name: str) -> bool:
    core = name.lstrip("_")
    return bool(core) and core[0].isupper()


#: decorators that hand the function click's ``Context`` as its first argument
CONTEXT_PASSERS = frozenset({"click.pass_context"})


#: the annotations of a list in memory (``list_annotation``)
_LIST_ANNOTATIONS = frozenset({"list", "List", "MutableSequence", "Deque", "deque"})


def list_annotation(node: Optional[ast.AST]) -> bool:
    """Whether an annotation names a list in memory: ``list``, ``List[T]``,
    ``list[T]``, ``"List[T]"``, ``Deque[T]``, ``MutableSequence[T]`` (also
    ``typing.``/``collections.``-qualified); an ``Optional`` one too."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value.strip(), mode="eval").body
        except (SyntaxError, ValueError):
            return False
    if isinstance(node, ast.Subscript):
        base = dotted(node.value) or ""
        if base.rsplit(".", 1)[-1] == "Optional":
            return list_annotation(node.slice)
        node = node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        options = [o for o in _union_members(node) if not _is_none(o)]
        return len(options) == 1 and list_annotation(options[0])
    text = dotted(node) if node is not None else None
    return text is not None and text.rsplit(".", 1)[-1] in _LIST_ANNOTATIONS


def annotation_type(node: Optional[ast.AST], depth: int = 0) -> Optional[str]:
    """The class an annotation names: ``T``, ``Optional[T]``, ``T | None``,
    ``Union[T, None]``, ``"T"``, ``Annotated[T, ...]`` (and pydantic's
    ``SerializeAsAny[T]``, ``SkipValidation[T]``, ``InstanceOf[T]``), a generic class ``T[X, Y]``
    (not a container or a special form: ``_NO_INSTANCE_OF_ITS_OWN``); else None."""
    if node is None or depth > 5:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            inner = ast.parse(node.value.strip(), mode="eval").body
        except (SyntaxError, ValueError):
            return None
        return annotation_type(inner, depth + 1)
    text = dotted(node)
    if text is not None:
        return None if names_nothing(text) else text
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        options = [o for o in _union_members(node) if not _is_none(o)]
        return annotation_type(options[0], depth + 1) if len(options) == 1 else None
    if isinstance(node, ast.Subscript):
        base = dotted(node.value)
        last = base.rsplit(".", 1)[-1] if base else ""
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if last in ("Optional", "ClassVar", "Final"):
            return annotation_type(args[0], depth + 1) if len(args) == 1 else None
        if last in ("Annotated", "SerializeAsAny", "SkipValidation", "InstanceOf") and args:
            return annotation_type(args[0], depth + 1)
        if last == "Union":
            options = [a for a in args if not _is_none(a)]
            return annotation_type(options[0], depth + 1) if len(options) == 1 else None
        if base is not None and last not in _NO_INSTANCE_OF_ITS_OWN:
            return base  # a generic class: `Store[int]` is a `Store`
    return None


#: subscripted, these name no class of the project's or a library's own: containers
#: (``List[T]`` holds ``T``s; what is called on it is the container's), types of
#: classes and callables, and typing's special forms
_NO_INSTANCE_OF_ITS_OWN = frozenset((
    "list", "dict", "set", "frozenset", "tuple", "type",
    "List", "Dict", "Set", "FrozenSet", "Tuple", "Type", "DefaultDict", "OrderedDict", "Deque",
    "Counter", "ChainMap", "Iterable", "Iterator", "Sequence", "MutableSequence", "Mapping",
    "MutableMapping", "AbstractSet", "MutableSet", "Collection", "Container", "Reversible",
    "Awaitable", "Coroutine", "AsyncIterable", "AsyncIterator", "Generator", "AsyncGenerator",
    "KeysView", "ValuesView", "ItemsView", "MappingView", "ContextManager", "AsyncContextManager",
    "AbstractContextManager", "AbstractAsyncContextManager", "Callable", "Literal", "TypeGuard",
    "TypeIs", "Required", "NotRequired", "ReadOnly", "Unpack", "Concatenate", "Generic",
    "Protocol", "Self", "LiteralString", "Never", "NoReturn", "TypeAlias",
    "defaultdict", "deque", "OrderedDict",
))


def names_nothing(text: str) -> bool:
    """``None``, ``object`` and ``Any`` however typing is imported (``typing.Any``,
    ``tp.Any`` of ``import typing as tp``, ``typing_extensions.Any``; held-out set 176:
    exca's ``tp.Any`` was a class, ``typing.Any.save`` in ``suggest``)."""
    return text in ("None", "object", "builtins.object") or text.rsplit(".", 1)[-1] == "Any"


def _union_members(node: ast.AST) -> List[ast.AST]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union_members(node.left) + _union_members(node.right)
    return [node]


def _is_none(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and node.value is None) or (isinstance(node, ast.Name) and node.id == "None")


def _through_self(value: ast.AST, method) -> Optional[str]:
    """``self.X`` of a value ``self.X(...)`` called on the method's own instance, else
    None (``method``: the walk's (class table, self name, params), or None)."""
    if (method is not None and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name) and value.func.value.id == method[1]):
        return f"{method[1]}.{value.func.attr}"
    return None


def constructor_type(node: Optional[ast.AST]) -> Optional[str]:
    """``T(...)`` (a CapWords callee, possibly dotted) → "T". A relation field is no
    constructor of what its attribute holds (``RELATION_FIELDS``). A Django model
    fetched or created through its manager is one too (``fetched_model``)."""
    if isinstance(node, ast.Await):
        inner = node.value
        return fetched_model(inner, True) if isinstance(inner, ast.Call) else None
    if isinstance(node, ast.Call):
        fetched = fetched_model(node)
        if fetched is not None:
            return fetched
        text = dotted(node.func)
        if text and text.rsplit(".", 1)[-1] in RELATION_FIELDS:
            return _related_model(node)
        if text and text.rsplit(".", 1)[-1] == GENERIC_RELATION:
            return MODEL_TYPE
        if text and _cap_words(text.rsplit(".", 1)[-1]):
            return text
    return None


#: a Django manager's (or query set's) methods that return one object of its model, and
#: Flask-SQLAlchemy's ``Model.query``'s (``Task.query.get(id)``, ``.filter_by(...).first()``,
#: ``.one()``, ``.first_or_404()``; held-out set 332, zou's models)
_FETCHES = frozenset({"get", "create", "first", "last", "earliest", "latest",
                      "one", "one_or_none", "first_or_404", "get_or_404", "one_or_404"})
_AFETCHES = frozenset({"aget", "acreate", "afirst", "alast", "aearliest", "alatest"})
#: a query set's methods that return a query set of the same model (SQLAlchemy's
#: ``Query`` methods too)
_QUERY_CHAIN = frozenset({"all", "filter", "exclude", "select_related", "prefetch_related", "order_by", "using",
                          "only", "defer", "select_for_update", "annotate", "distinct", "alias", "reverse",
                          "filter_by", "options", "join", "outerjoin", "limit", "offset", "with_for_update",
                          "execution_options", "populate_existing"})
#: the managers every Django model has, and Flask-SQLAlchemy's ``Model.query``
_MANAGERS = frozenset({"objects", "_default_manager", "_base_manager", "query"})
#: a SQLAlchemy session's fetch of one object by its model (``session.get(Task, id)``,
#: awaited on an ``AsyncSession`` too; Flask-SQLAlchemy's ``db.get_or_404(Task, id)``)
_SESSION_GETS = frozenset({"get", "get_one", "get_or_404"})


def is_manager_name(attr: str) -> bool:
    """A model's manager by its attribute's name: Django's own, or a custom one bound in
    the class body under a name of the same shape (``all_objects = AllManager()``,
    ``active_objects``; held-out set 241, byro's ``Member.all_objects``)."""
    return attr in _MANAGERS or attr.endswith("_objects")


def _model_of_query(node: Optional[ast.AST]) -> Optional[str]:
    """The model of ``Model.objects`` (a manager) or ``Model.objects.filter(...)`` (a
    query set of it) as written: the CapWords name before the manager."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _QUERY_CHAIN:
        node = node.func.value
    if not isinstance(node, ast.Attribute) or not is_manager_name(node.attr):
        return None
    model = dotted(node.value)
    last = model.rsplit(".", 1)[-1] if model else ""
    return model if model and _cap_words(last) and _not_constant(last) else None


#: ``django.shortcuts``' fetch of one object by its model
_SHORTCUTS = frozenset({"get_object_or_404"})
_ASHORTCUTS = frozenset({"aget_object_or_404"})


def _not_constant(name: str) -> bool:
    """A CapWords name that is no constant (``TIMEOUT``): a one-letter name is a class's
    (``from models import Task as M``; a review)."""
    return len(name) == 1 or not name.isupper()


def fetched_receiver(callee: str) -> Optional[str]:
    """The model a fetch chained straight into a call returns, from the call's rendered
    text (``Run.objects.get().save``, ``Run.objects.filter().first().save``,
    ``Task.query.get().update``): the CapWords name before the manager, as
    ``fetched_model`` reads an assignment's value; None for anything else."""
    parts = callee.split(".")
    if len(parts) < 4 or not parts[-2].endswith("()"):
        return None
    if parts[-2][:-2] not in _FETCHES:
        return None
    i = len(parts) - 3
    while i > 0 and parts[i].endswith("()") and parts[i][:-2] in _QUERY_CHAIN:
        i -= 1
    if i < 1 or not is_manager_name(parts[i]):
        return None
    model = ".".join(parts[:i])
    last = parts[i - 1]
    ok = all(p.isidentifier() for p in parts[:i]) and _cap_words(last) and _not_constant(last)
    return model if ok else None


def fetched_model(node: ast.Call, awaited: bool = False) -> Optional[str]:
    """The model a Django fetch returns one object of (held-out set 190: a gap):
    ``Run.objects.get(pk=k)``, ``Run.objects.filter(...).first()``, ``Run.objects.create(...)``,
    ``get_object_or_404(Run, pk=k)``, and awaited, their ``aget``/``acreate``/...
    forms. The model is a CapWords name before ``.objects`` (``_default_manager``, a
    custom ``*_objects`` manager: ``is_manager_name``); ``get_or_create`` returns a pair, no
    object."""
    func = node.func
    text = dotted(func)
    last = text.rsplit(".", 1)[-1] if text else ""
    if last in (_ASHORTCUTS if awaited else _SHORTCUTS) and node.args:
        model = dotted(node.args[0])
        if model and _cap_words(model.rsplit(".", 1)[-1]):
            return model
        # (a manager or a query set of the model: `get_object_or_404(Event.all_objects, ...)`)
        return _model_of_query(node.args[0])
    if isinstance(func, ast.Attribute) and last in _SESSION_GETS and node.args:
        # `session.get(Task, id)`, `await self.session.get(Task, id)`, `db.get_or_404(Task, id)`
        holder = (dotted(func.value) or "").rsplit(".", 1)[-1].lower()
        model = dotted(node.args[0])
        if model and _cap_words(model.rsplit(".", 1)[-1]) and _not_constant(model.rsplit(".", 1)[-1]) and (
                "session" in holder or (holder == "db" and last == "get_or_404")):
            return model
    if not isinstance(func, ast.Attribute) or func.attr not in (_AFETCHES if awaited else _FETCHES):
        return None
    return _model_of_query(func.value)


#: the ORM fields whose attribute, on an instance, is the related model's object, not
#: the field (a descriptor): Django's ``mailbox = models.ForeignKey(Mailbox, ...)``
#: makes ``self.mailbox`` a ``Mailbox`` (held-out set 177, django-mailbox). Not
#: ``ManyToManyField`` (its attribute is a manager of many)
RELATION_FIELDS = frozenset({"ForeignKey", "OneToOneField", "ParentalKey"})
#: Django's relation to a model of any class (``object = GenericForeignKey("content_type",
#: "object_id")``): on an instance, the attribute is some model's object, a
#: ``MODEL_TYPE`` (held-out set 333: audit apps' usual link to the changed row)
GENERIC_RELATION = "GenericForeignKey"
MODEL_TYPE = "django.db.models.Model"


#: the module of a Django app that holds its models (``"app_label.Model"``)
APP_MODELS = "models"


def _related_model(call: ast.Call) -> Optional[str]:
    """The class a relation field names: its first argument or ``to=``, a class as
    written (``Mailbox``, ``models_mod.Mailbox``) or a string naming one
    (``"Mailbox"``, ``"mail.Mailbox"``: the last part, resolved as a name of the
    module would be). None for ``"self"`` and anything else: no class."""
    target = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "to"), None)
    if isinstance(target, ast.Constant) and isinstance(target.value, str):
        label, dot, name = target.value.rpartition(".")
        # (Django finds `"app.model"` by the lower-cased name too: held-out set 295's
        # clinicedc apps write every relation so)
        if not (name.isidentifier() and name != "self" and (_cap_words(name) or (dot and label.isidentifier()))):
            return None
        # another app's model, `"reports.Report"`: its app's `models` module, which
        # ``summaries.ProjectIndex.class_key`` finds by the label (held-out set 290)
        return f"{label}.{APP_MODELS}.{name}" if dot and label.isidentifier() else name
    text = dotted(target) if target is not None else None
    last = text.rsplit(".", 1)[-1] if text else ""
    # (`settings.AUTH_USER_MODEL` is a setting's string, no class)
    return text if text and _cap_words(last) and not last.isupper() else None


#: bare annotations that name a built-in container (``rows: list = []``)
_CONTAINER_ANNOTATIONS = frozenset({"list", "dict", "set", "List", "Dict", "Set",
                                    "typing.List", "typing.Dict", "typing.Set"})

#: the built-in containers a display or a call of the builtin makes afresh
_DISPLAYS = {ast.List: "list", ast.ListComp: "list", ast.Dict: "dict", ast.DictComp: "dict",
             ast.Set: "set", ast.SetComp: "set"}


def display_kind(node: Optional[ast.AST]) -> Optional[str]:
    """``[]``, ``[x for ...]``, ``list(...)`` → "list"; likewise "dict" and "set"; else
    None. (A name ``list`` the module rebinds is still read as the builtin: no
    runtime shadows it.)"""
    kind = _DISPLAYS.get(node.__class__) if node is not None else None
    if kind is None and isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in ("list", "dict", "set"):
        kind = node.func.id
    return kind


#: the methods by which only a `pathlib` path makes another (`PurePath.with_suffix`),
#: and the class their value is taken for, fully qualified whatever the file imports
PATH_DERIVERS = frozenset({"with_suffix", "with_name", "with_stem", "with_segments"})
PATH_TYPE = "pathlib.Path"
#: what ``logging.getLogger(...)`` gives, whatever the name it is kept under (``lgr =
#: logging.getLogger(__name__)``: heudiconv; held-out set 159), fully qualified: its
#: ``lgr.warning(...)`` is ``logging.Logger.warning`` for the ``*Logger.warning``
#: patterns of ``surface`` and ``quiet`` (docs/decisions.md "A logger by its factory")
LOGGER_TYPE = "logging.Logger"
#: the calls whose value is a logger: the factory, a logger's child
#: (`logging.getLogger(__name__).getChild("x")`) and an adapter, whose methods are a
#: logger's (`logging.LoggerAdapter(log, extra)`; held-out set 171)
LOGGER_MAKERS = frozenset({"getLogger", "getChild", "LoggerAdapter"})
#: already qualified, whatever the file imports (``resolution.type_qualname``)
QUALIFIED_TYPES = frozenset({PATH_TYPE, LOGGER_TYPE, MODEL_TYPE})


def value_type(node: Optional[ast.AST], params: Dict[str, str],
               receiver: Optional[Callable[[ast.AST], bool]] = None,
               imported: Optional[Dict[str, str]] = None) -> Optional[str]:
    """The class a value has when every way it can take names one class: a
    constructor call ``T(...)``, an annotated parameter, and ``p or T(...)`` /
    ``p if p is not None else T(...)`` over those (the default-argument idiom); an
    operand of unknown class makes the whole unknown, and so do operands of two
    classes, one a subclass of the other (docs/decisions.md, "Receiver types": either
    class alone loses the other's paths)."""
    if isinstance(node, ast.Call) and _makes_logger(node, imported or {}):
        return LOGGER_TYPE
    if isinstance(node, ast.Call) and imported:
        factory = library_factory(node, imported)
        if factory is not None:
            return factory
    ctor = constructor_type(node)
    if ctor:
        return ctor
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "as_manager"
            and not node.args and not node.keywords):
        # Django's `objects = TaskQuerySet.as_manager()`: a manager whose methods are the
        # query set's (held-out set 283, django-celery-monitor), read as that class
        owner = dotted(node.func.value)
        if owner and _cap_words(owner.rsplit(".", 1)[-1]):
            return owner
    inner = node.func if isinstance(node, ast.Call) and not node.args and not node.keywords else None
    if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "from_queryset"
            and len(inner.args) == 1 and not inner.keywords):
        # `objects = RunManager.from_queryset(RunQuerySet)()`: the same, by the query set
        # (held-out set 339; the manager's own methods are not read, as for `as_manager`)
        owner = dotted(inner.args[0])
        if owner and _cap_words(owner.rsplit(".", 1)[-1]):
            return owner
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in PATH_DERIVERS:
        # `tmp = path.with_suffix(".tmp")`: only a path has these, and it makes a path
        # (docs/decisions.md "A path derived from a path"; held-out set 145, rosbags),
        # unless the receiver is known to be of another class (`base: Template`; a review)
        on = node.func.value
        if receiver is not None:  # (the walk's: a class it knows is no path's, else None)
            return None if receiver(on) else PATH_TYPE
        known = value_type(on, params)
        return PATH_TYPE if not known or "path" in known.rsplit(".", 1)[-1].lower() else None
    if isinstance(node, ast.Name):
        return params.get(node.id)
    options: List[ast.AST] = []
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        options = list(node.values)
    elif isinstance(node, ast.IfExp):
        options = [node.body, node.orelse]
    options = [o for o in options if not _is_none(o)]
    if len(options) < 2:
        return None
    found = [value_type(o, params, receiver, imported) for o in options]
    if None in found:
        return None
    # ("": a parameter that defaults to None and names no class: the other operand's)
    typed = {f for f in found if f}
    return typed.pop() if len(typed) == 1 else None


#: library classes whose instance, called, makes an instance of another class:
#: ``SessionLocal = sessionmaker(bind=engine)`` then ``db = SessionLocal()`` is a
#: ``Session`` (FastAPI's and Flask's idiom; session 65's note). A call on what such a
#: call makes also matches as that class's method (``summaries.ProjectIndex.product_names``)
FACTORY_PRODUCTS = {
    "sqlalchemy.orm.sessionmaker": "sqlalchemy.orm.Session",
    "sqlalchemy.orm.session.sessionmaker": "sqlalchemy.orm.Session",
    "sqlalchemy.ext.asyncio.async_sessionmaker": "sqlalchemy.ext.asyncio.AsyncSession",
    "sqlalchemy.ext.asyncio.session.async_sessionmaker": "sqlalchemy.ext.asyncio.AsyncSession",
}
#: library classes whose instance stands for another's: ``db_session =
#: scoped_session(...)`` then ``db_session.commit()`` runs ``Session.commit``
PROXY_CLASSES = {
    "sqlalchemy.orm.scoped_session": "sqlalchemy.orm.Session",
    "sqlalchemy.orm.scoping.scoped_session": "sqlalchemy.orm.Session",
    "sqlalchemy.ext.asyncio.async_scoped_session": "sqlalchemy.ext.asyncio.AsyncSession",
    "sqlalchemy.ext.asyncio.scoping.async_scoped_session": "sqlalchemy.ext.asyncio.AsyncSession",
}

#: library classes' attributes that hold another library class's instance (or a proxy
#: of one): Flask-SQLAlchemy's ``db = SQLAlchemy(app)`` keeps a ``scoped_session`` in
#: ``db.session``, so ``db.session.commit()`` runs ``Session.commit`` (held-out set 449)
LIBRARY_ATTRIBUTES = {
    "flask_sqlalchemy.SQLAlchemy.session": "sqlalchemy.orm.Session",
    "flask_sqlalchemy.extension.SQLAlchemy.session": "sqlalchemy.orm.Session",
}

#: ``ScopeTable.called``'s mark of a maker called plainly (``s = make()``), not entered
#: by a ``with`` (``Call.made_by``: a context manager's call is what it yields only there)
PLAIN_CALL = "="


def _made_call(value: ast.AST) -> Optional[ast.Call]:
    """The call whose result a binding holds, of a plain or dotted name: ``make()``,
    or the one an ``await`` awaits (``await open_store()``); else None."""
    inner = value.value if isinstance(value, ast.Await) else value
    return inner if isinstance(inner, ast.Call) and isinstance(inner.func, (ast.Name, ast.Attribute)) else None


_FACTORY_NAMES = frozenset(q.rsplit(".", 1)[-1] for q in (*FACTORY_PRODUCTS, *PROXY_CLASSES))


def library_factory(node: ast.Call, imported: Dict[str, str]) -> Optional[str]:
    """The callee as written of a call of a library class in ``FACTORY_PRODUCTS`` or
    ``PROXY_CLASSES`` (``sessionmaker(bind=engine)``, ``orm.scoped_session(...)``),
    through the module's imports: the value's class, though its name is no CapWords."""
    text = dotted(node.func)
    if not text or text.split(".", 1)[0] not in imported:
        return None
    if any(k.arg == "class_" for k in node.keywords):
        return None  # `sessionmaker(engine, class_=AsyncSession)`: its product is that class, read nowhere (a review)
    # (``imported`` names what an import binds, not its module: the class's own name
    # here; ``summaries.ProjectIndex.product_names`` reads it through the imports)
    last = (imported[text] if text in imported else text).rsplit(".", 1)[-1]
    return text if last in _FACTORY_NAMES else None


def _makes_logger(node: ast.Call, imported: Dict[str, str]) -> bool:
    """``getLogger(...)`` (also under an import's own name: ``from logging import
    getLogger as get_log``), ``LoggerAdapter(...)``, and ``getChild(...)`` of a logger:
    of such a call, or of a receiver named for a log (``self.log.getChild("x")``); a
    project's own ``Tree().getChild(...)`` is none (a review)."""
    func = node.func
    text = dotted(func) or ""
    last = text.rsplit(".", 1)[-1] if text else (func.attr if isinstance(func, ast.Attribute) else "")
    last = last if last in LOGGER_MAKERS else imported.get(text, "").rsplit(".", 1)[-1]
    if last != "getChild":
        return last in LOGGER_MAKERS
    receiver = func.value if isinstance(func, ast.Attribute) else None
    if isinstance(receiver, ast.Call):
        # `getLogger(...).getChild(...)`; a project's `Tree().getChild(...)` is none (a review)
        return _makes_logger(receiver, imported) or constructor_type(receiver) is None
    return True  # (`base.getChild("x")`, `logging.root.getChild(...)`: a logger's child)


def _falls_through(body: List[ast.stmt]) -> bool:
    """Whether a block may end by running off its last statement (no ``return`` or
    ``raise`` on that way): an ``if``'s branches, a ``try``'s body (or ``else``) and its
    handlers, a ``with``'s body are looked into; a loop, a ``match`` and anything else
    may (a second review: `if ...: return self` / `else: return self` gave nothing)."""
    if not body:
        return True
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return False
    if isinstance(last, ast.If):
        return _falls_through(last.body) or _falls_through(last.orelse)
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return _falls_through(last.body)
    if isinstance(last, ast.Try) or type(last).__name__ == "TryStar":
        if last.finalbody and not _falls_through(last.finalbody):  # type: ignore[attr-defined]
            return False
        main = last.orelse if last.orelse else last.body  # type: ignore[attr-defined]
        return _falls_through(main) or any(_falls_through(h.body) for h in last.handlers)  # type: ignore[attr-defined]
    return True


def _rebound(body: List[ast.stmt], name: str) -> bool:
    """Whether the function binds its parameter ``name`` again other than by the
    default idiom itself (``name = name or T()``): an assignment of another value, a
    loop or ``with`` target, a walrus, an import, ``except ... as`` (a review: the
    default then tells nothing of what the name holds)."""
    for n in (x for st in body for x in ast.walk(st)):
        if isinstance(n, ast.Assign):
            if any(name in _target_names(t) for t in n.targets) and not _idiom_of(n.value, name):
                return True
        elif isinstance(n, (ast.AnnAssign, ast.AugAssign)):
            if name in _target_names(n.target) and not (isinstance(n, ast.AnnAssign) and _idiom_of(n.value, name)):
                return True
        elif isinstance(n, (ast.For, ast.AsyncFor)):
            if name in _target_names(n.target):
                return True
        elif isinstance(n, ast.withitem):
            if n.optional_vars is not None and name in _target_names(n.optional_vars):
                return True
        elif isinstance(n, ast.NamedExpr):
            if n.target.id == name:
                return True
        elif isinstance(n, ast.ExceptHandler):
            if n.name == name:
                return True
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            if any((a.asname or a.name.split(".")[0]) == name for a in n.names):
                return True
    return False


def _idiom_of(value: Optional[ast.AST], name: str) -> bool:
    """``name or T()`` / ``name if name is not None else T()``: the default idiom."""
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
        return any(isinstance(v, ast.Name) and v.id == name for v in value.values)
    if isinstance(value, ast.IfExp):
        return any(isinstance(v, ast.Name) and v.id == name for v in (value.body, value.orelse))
    return False


def _defaults_to_none(default: Optional[ast.AST]) -> bool:
    return default is not None and _is_none(default)


def _says_nothing(annotation: Optional[ast.AST]) -> bool:
    """An annotation that names no class at all: none, ``Any``, ``object``,
    ``Optional[Any]``."""
    if annotation is None:
        return True
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):  # `"Any"`
        try:
            annotation = ast.parse(annotation.value.strip(), mode="eval").body
        except (SyntaxError, ValueError):
            return False
    text = dotted(annotation)
    if text is not None:
        return text != "None" and names_nothing(text)
    if isinstance(annotation, ast.Subscript) and (dotted(annotation.value) or "").rsplit(".", 1)[-1] == "Optional":
        return _says_nothing(annotation.slice)
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return all(_is_none(o) or _says_nothing(o) for o in _union_members(annotation))
    return False


def _known_type(node: ast.AST, table: "ScopeTable", method) -> Optional[Tuple[str, bool]]:
    """The one class the walk so far knows a receiver is of, and whether a constructor
    call says so (``True``: ``base = Template(...)``, ``Template(...).with_name(x)``) or
    an annotation (``False``: ``base: Template``), for a name of the scope or ``self.x``
    of the class (``method``: the class's table, ``self``'s name, ...); None when not one."""
    if isinstance(node, ast.Call):  # `Template("...").with_name(x)` (a fourth review)
        made = constructor_type(node)
        return (made, True) if made else None
    if isinstance(node, ast.Name):
        annotated, constructed = table.annotated.get(node.id, set()), table.constructed.get(node.id, set())
    elif (method is not None and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
          and node.value.id == method[1]):
        annotated, constructed = method[0].attr_annotated.get(node.attr, set()), method[0].attr_constructed.get(node.attr, set())
    else:
        return None
    types = annotated or constructed
    return (next(iter(types)), not annotated) if len(types) == 1 else None


def _annotated(table: "ScopeTable") -> Dict[str, str]:
    """The names of a scope with one annotated class (its parameters among them), and
    ``""`` for a parameter that defaults to None and names no class (``defaulted``)."""
    out = {k: "" for k in table.defaulted if k not in table.annotated}
    out.update({k: next(iter(v)) for k, v in table.annotated.items() if len(v) == 1})
    return out


def _self_attrs(node: Optional[ast.AST], self_name: str) -> List[str]:
    """The attributes of ``self_name`` an assignment target stores into."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self_name:
        return [node.attr]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [a for el in node.elts for a in _self_attrs(el, self_name)]
    if isinstance(node, ast.Starred):
        return _self_attrs(node.value, self_name)
    return []


def _target_names(node: ast.AST) -> List[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [n for el in node.elts for n in _target_names(el)]
    if isinstance(node, ast.Starred):
        return _target_names(node.value)
    return []


@dataclass
class Scopes:
    functions: Dict[int, ScopeTable] = field(default_factory=dict)  # 0: the module
    classes: Dict[int, ScopeTable] = field(default_factory=dict)
    module_classes: Set[str] = field(default_factory=set)  # top-level class names
    class_lines: Dict[str, int] = field(default_factory=dict)  # top-level class name -> its line
    #: the module's own context-manager generators -> the class each yields (``_managers_yield``)
    managers_yield: Dict[str, str] = field(default_factory=dict)
    #: attributes of an imported module this file assigns (``models.get_pending_updates =
    #: ...``, anywhere in it), as written (``FileFacts.rebinds``)
    rebinds: Set[str] = field(default_factory=set)
    class_bases: Dict[int, List[str]] = field(default_factory=dict)  # class line -> its bases, dotted
    #: (line, byte column) of the calls whose value, a task, is kept or taken back where
    #: it is made: bound to a plain name (``t = create_task(f())``, then ``await t``),
    #: the receiver of ``.result()``/``.exception()``, an argument of a call that
    #: waits for it (``run_until_complete``, ``gather``, ``wait_for``, ``shield``);
    #: a task scheduled there is no detached one (``kept_tasks``)
    kept_values: Set[Tuple[int, int]] = field(default_factory=set)
    #: the lines of the ``def``s a later ``def`` of the same name in the same module or
    #: class body replaces before anything can call them (``superseded_defs``)
    superseded: FrozenSet[int] = frozenset()

    def attr_type(self, class_line: int, name: str, depth: int = 0) -> Optional[str]:
        """The class of ``self.name`` in a class of this module: its own, else the
        first base of this module that knows it (an attribute a base's ``__init__``
        types is the subclass instance's too). (Not Python's instance lookup: a
        subclass's untyped class-level rebinding does not hide a base's typing, and
        bases are followed depth-first; docs/decisions.md "Receiver types", session 54.)"""
        table = self.classes.get(class_line)
        if table is None or depth > 20:
            return None
        found = table.attr_type(name)
        if found is not None:
            return found
        for base in self.class_bases.get(class_line, ()):
            line = self.class_lines.get(base)
            if line is not None and line != class_line:
                found = self.attr_type(line, name, depth + 1)
                if found is not None:
                    return found
        return None


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


#: nodes no scan asks about and that hold none it does: contexts, names, constants,
#: operators, an import's names (its statement is read whole). Skipping them halves a
#: walk of the ``ast`` (docs/performance.md, "The outline pre-pass").
LEAVES = (ast.expr_context, ast.Name, ast.Constant, ast.operator, ast.boolop, ast.cmpop, ast.unaryop, ast.alias)


#: ``LEAVES`` and their subclasses (``ast.Load``, ``ast.Add``, ...): one set lookup
_LEAF_CLASSES = frozenset(t for t in vars(ast).values() if isinstance(t, type) and issubclass(t, LEAVES))
#: fields that hold a string, a number or a list of strings, never a node
_SCALAR_FIELDS = frozenset({"name", "id", "attr", "arg", "type_comment", "level", "module", "is_async",
                            "kind", "conversion", "simple", "tag", "names"})
#: per node class, its fields that may hold nodes (``_fields`` without the scalars)
_NODE_FIELDS: Dict[type, Tuple[str, ...]] = {}


def child_nodes(node: ast.AST) -> List[ast.AST]:
    """``ast.iter_child_nodes`` without the ``LEAVES``, as a list, in field order."""
    cls = node.__class__
    fields = _NODE_FIELDS.get(cls)
    if fields is None:
        fields = _NODE_FIELDS[cls] = tuple(f for f in cls._fields if f not in _SCALAR_FIELDS)
    out: List[ast.AST] = []
    leaves = _LEAF_CLASSES
    for name in fields:
        value = getattr(node, name, None)
        if value.__class__ is list:
            for v in value:
                if v.__class__ not in leaves and isinstance(v, _AST):
                    out.append(v)
        elif value.__class__ not in leaves and isinstance(value, _AST):
            out.append(value)
    return out


_AST = ast.AST

_TRY_STAR = getattr(ast, "TryStar", None)  # (3.11+)

#: the node types ``_Scanner.body`` reads; every other node binds nothing
_BINDERS = frozenset(
    [ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Assign, ast.AnnAssign, ast.AugAssign,
     ast.For, ast.AsyncFor, ast.withitem, ast.ExceptHandler, ast.Import, ast.ImportFrom, ast.NamedExpr,
     ast.Delete, ast.Return, *_COMPS]
    + [getattr(ast, name) for name in ("MatchAs", "MatchStar", "MatchMapping") if hasattr(ast, name)])


#: the binders whose targets may store into ``self.x``
_STORERS = frozenset([ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.withitem])


def _declarations(stmts: List[ast.stmt]) -> Iterator[Union[ast.Global, ast.Nonlocal]]:
    """The ``global`` and ``nonlocal`` statements of a body, nested blocks included,
    nested functions and classes not. They are statements, so only statements are
    walked (a walk of every node was a fifth of a file's scan)."""
    stack: List[ast.AST] = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            yield n
        elif not isinstance(n, _SCOPES):
            for name in ("body", "orelse", "finalbody"):
                block = getattr(n, name, None)
                if block.__class__ is list:
                    stack.extend(block)
            for part in getattr(n, "handlers", ()) or getattr(n, "cases", ()):
                stack.extend(part.body)


def _is_property(node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> bool:
    """A getter: decorated ``@property`` or ``@cached_property`` (any module's)."""
    for d in node.decorator_list:
        text = dotted(d)
        if text is not None and text.rsplit(".", 1)[-1] in ("property", "cached_property"):
            return True
    return False


class _Scanner:
    def __init__(self, walrus: bool = True, yields: bool = True) -> None:
        self.out = Scopes()
        self.walrus = walrus
        self.yields = yields  # (a module whose text holds no `yield` has no generator)
        self.fallbacks: Set[int] = set()  # ``_import_fallbacks``: bindings that do not count
        self.imported_names: Dict[str, str] = {}  # (``module``: what the file's imports bind, to what)
        self._classes: List[str] = []  # the classes being read, outermost first (``klass``)
        self._joined_later: List[tuple] = []  # (``_type_joined``'s arguments, per function)
        # (``_product_of``'s arguments and the name they type: a module's names are all
        # bound once the walk ends, whatever the order of its functions and assignments)
        self._products_later: List[tuple] = []
        self._entered_later: Set[int] = set()  # (those of ``with`` items: ``_yielded`` once the walk is done)
        self._attr_products_later: List[tuple] = []  # (the same, for ``self.x = make()``)
        #: (class table, attribute, a parameter's class, that class's attribute) for
        #: ``self.x = param.y`` (``Scopes.attr_type`` of the module's class, at the end)
        self._attr_copies_later: List[Tuple[ScopeTable, str, str, str]] = []
        self.imported_from: Dict[str, str] = {}
        self.managers_yield: Dict[str, str] = {}  # (``_managers_yield``)
        # the clauses of an `except*`: their name binds an exception group, no `T`
        self.group_handlers: Set[int] = set()

    def module(self, tree: ast.Module) -> Scopes:
        table = ScopeTable()
        self.out.functions[0] = table
        self.out.module_classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        self.out.class_lines = {n.name: n.lineno for n in tree.body if isinstance(n, ast.ClassDef)}
        # (every name an import binds anywhere in the file: the walk is in no order)
        # (every name an import binds anywhere in the file, to the name it imports: the
        # walk is in no order; `from pathlib import Path as P` binds `P` to `Path`)
        self.imported_names = {_imported_as(a): a.name for n in ast.walk(tree)
                               if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names if a.name != "*"}
        # (the module each name a module-level `from` import binds comes from:
        # ``_type_joined``; a function's own import is its own: a review)
        self.imported_from = {_imported_as(a): n.module or "" for n in _module_level(tree)
                              if isinstance(n, ast.ImportFrom) for a in n.names if a.name != "*"}
        # (a function's own shim too: `try: from app.store import save` / `except
        # ImportError: save = None` in its body leaves `save` the import; session 64)
        self.fallbacks = _import_fallbacks(tree.body).union(
            *(_import_fallbacks(n.body) for n in ast.walk(tree)
              if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and _has_try(n.body)))
        self.managers_yield = _managers_yield(tree)
        self.out.managers_yield = self.managers_yield
        self.body(tree.body, table, [table], None)
        # (outermost first: an enclosing join is typed before its use; a function's
        # entry is added when its walk ends, so an inner one's comes first: reversed)
        if table.joined:
            self._type_joined(table, None, [])
        unmade = []
        for entry in self._products_later:
            value, table, chain, owner, name, method, fallback = entry
            made = self._product_of(value, table, chain, method) or fallback
            if made and not owner.constructed.get(name):
                owner.constructed.setdefault(name, set()).add(made)
            elif not made and owner is table:
                unmade.append(entry)
        for key, def_line, name in _managers_yielding_names(tree, self.managers_yield):
            # `session = SessionLocal()` (or `Session(engine)`, `s: Session = ...`) then
            # `yield session`, no return annotation (the usual `session_scope`; a walk
            # of session 72): the class the local holds, once the walk typed it
            own = self.out.functions.get(def_line)
            if own is None or name in own.alias_bindings:
                continue
            made = _one(own.annotated.get(name)) or _one(own.constructed.get(name))
            if made and made != PATH_TYPE:
                self.managers_yield[key] = made
        for value, table, chain, owner, name, method, fallback in unmade:
            entered = id(value) in self._entered_later
            value = _made_call(value) or value  # (`s = await open_store()`: its maker's own call)
            # (through a function's alias of the maker: `get = store.session` then
            # `with get() as s:` is `store.session()`, as the contract's aliases read)
            value = self._unaliased_call(value, table, chain)
            made = self._yielded(value, method) if entered else None
            if made:  # (`with session_scope() as s:` of the file's own manager, typed only now)
                owner.constructed.setdefault(name, set()).add(made)
            else:
                # `s = make()`, and `with db.session_scope() as s:` of a module's
                # function or `with store.session() as s:` of a typed receiver's
                # method (held-out set 415's leftover): which class it makes is the
                # project's summaries' to tell (``Scopes.made_by``, ``Call.made_by``)
                maker = value.func.id if isinstance(value.func, ast.Name) else dotted(value.func)
                if maker is not None:
                    # (a plain call, not a `with` item's, marked: a project manager's call
                    # makes its context manager there, not what it yields; a review)
                    owner.called.setdefault(name, []).append(maker if entered else PLAIN_CALL + maker)
        for value, table, chain, cls, attr, method, fallback in self._attr_products_later:
            made = self._product_of(value, table, chain, method) or fallback
            value = _made_call(value) or value
            if made:
                cls.attr_constructed.setdefault(attr, set()).add(made)
            elif (isinstance(value.func, ast.Name) and value.func.id in chain[0].imported
                  and not any(value.func.id in t.bound for t in chain[1:])):
                # (a name of the module's imports, no method's own: the class's other
                # methods read the attribute where the module's names are seen)
                cls.attr_called.setdefault(attr, []).append(value.func.id)
        pending = list(self._attr_copies_later)
        while pending:  # (a copy of a copy, `self.store = mid.store`, whatever the classes' order: a review)
            left = []
            for cls, attr, owner, name in pending:
                line = self.out.class_lines.get(owner)
                typed = self.out.attr_type(line, name) if line is not None else None
                if typed:
                    cls.attr_constructed.setdefault(attr, set()).add(typed)
                else:
                    left.append((cls, attr, owner, name))
            if len(left) == len(pending):
                break
            pending = left
        for args in reversed(self._joined_later):
            self._type_joined(*args)
        return self.out

    def _partial_alias(self, value: ast.AST) -> Optional[str]:
        """The callable ``call = functools.partial(self.store.save, job)`` binds: calling
        the name (``call()``) or handing it to a runner (``run_in_executor(pool, call)``)
        runs that callable, as ``functools.partial(...)`` written there does (held-out
        set 478: tickforge's ``_store_call``)."""
        if not (isinstance(value, ast.Call) and value.args and not isinstance(value.args[0], ast.Starred)):
            return None
        if value.keywords:
            # (`partial(repo.save, s, commit=False)`: a call of the name would drop the
            # flag, and with it what it rules out; a review: left unread)
            return None
        name = dotted(value.func)
        if name is None:
            return None
        head, dot, rest = name.partition(".")
        qualified = self._qualify_head(head)
        if (f"{qualified}.{rest}" if dot and qualified else qualified or name) != "functools.partial":
            return None
        return dotted(value.args[0])

    def _qualify_head(self, head: str) -> Optional[str]:
        """What a name the file imports stands for, qualified (`pgsql` of `from psycopg
        import sql as pgsql`: `psycopg.sql`); None for a name no import binds."""
        if head in self.imported_from:
            return f"{self.imported_from[head]}.{self.imported_names.get(head, head)}"
        return self.imported_names.get(head)

    def _decorator_name(self, d: ast.expr) -> str:
        """A decorator's dotted text through the file's imports (``@ck.pass_context`` after
        ``import click as ck``, ``@pass_context`` after ``from click import
        pass_context``: ``click.pass_context``; a review)."""
        text = dotted(d) or ""
        head, dot, rest = text.partition(".")
        if dot and head in self.imported_names and self.imported_names[head] != head:
            return f"{self.imported_names[head]}.{rest}"
        if not dot and head in self.imported_from:
            return f"{self.imported_from[head]}.{self.imported_names.get(head, head)}"
        return text

    def function(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef], chain: List[ScopeTable],
                 cls: Optional[ScopeTable]) -> None:
        table = ScopeTable(is_function=True, returns=annotation_type(node.returns))
        self.out.functions[node.lineno] = table
        args = node.args
        params = list(args.posonlyargs) + list(args.args) + list(args.kwonlyargs)
        params += [a for a in (args.vararg, args.kwarg) if a is not None]
        annotated_params: Dict[str, str] = {}
        positional = list(args.posonlyargs) + list(args.args)
        defaults: Dict[str, Optional[ast.AST]] = dict(zip([a.arg for a in positional][len(positional) - len(args.defaults):],
                                                          args.defaults))
        defaults.update((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
        for a in params:
            table.bind(a.arg)
            t = annotation_type(a.annotation)
            if t and a not in (args.vararg, args.kwarg):
                table.annotated.setdefault(a.arg, set()).add(t)
                annotated_params[a.arg] = t
            elif _says_nothing(a.annotation) and _defaults_to_none(defaults.get(a.arg)) \
                    and not _rebound(node.body, a.arg):
                # `def __init__(self, encoder=None)`: `encoder or AccessoryEncoder()` is
                # the default-argument idiom, typed by its default (``value_type``)
                table.defaulted.add(a.arg)
                annotated_params[a.arg] = ""
        passer = next((d for d in node.decorator_list if self._decorator_name(d) in CONTEXT_PASSERS), None)
        if positional and positional[0].annotation is None and passer is not None:
            # `@click.pass_context def cmd(ctx, ...)`: click hands it its `Context`
            # (``frontend.resolution.LIBRARY_EXITS``: `ctx.fail(...)` ends the program),
            # written as this file names the module (`ck.Context` under `import click as ck`)
            head, dot, _ = (dotted(passer) or "").partition(".")
            if not dot:
                head = next((k for k, v in self.imported_names.items() if v == "click"), "click")
            table.annotated.setdefault(positional[0].arg, set()).add(f"{head}.Context")
            annotated_params[positional[0].arg] = f"{head}.Context"
        self_name = None
        if cls is not None and params and params[0] in list(args.posonlyargs) + list(args.args):
            self_name = params[0].arg
        method = (cls, self_name, annotated_params) if cls is not None and self_name else None
        if method is not None and not any((dotted(d) or "").rsplit(".", 1)[-1] == "staticmethod"
                                          for d in node.decorator_list):
            table.receiver = self_name
        if method is not None and node.name not in IMPLICIT_CLASS_METHODS and not any(
                (dotted(d) or "").rsplit(".", 1)[-1] in ("staticmethod", "classmethod") for d in node.decorator_list):
            table.instance = self_name
        # declarations first: they say where this function's bindings go
        for n in _declarations(node.body):
            table.declared_outer.update(n.names)
            if isinstance(n, ast.Global):
                table.declared_global.update(n.names)
        self.body(node.body, table, chain + [table], method)
        if self.yields:
            table.tail_line = _tail_line(node)
            table.yield_at = _yield_at(node) if table.tail_line else ()
        for name, receivers in table.derived.items():
            # (the walk is in no order: `base = Template(...)` may come after `tpl =
            # base.with_name(...)` in it; a second review)
            known = [_known_type(ast.Name(r), table, None) for r in receivers]
            if any(self._no_path_class(k) for k in known):
                table.constructed.get(name, set()).discard(PATH_TYPE)
        if table.joined:  # (once every scope is walked: an enclosing one's names too)
            self._joined_later.append((table, method, chain))
        if table.returns_self and _falls_through(node.body):
            table.returned.add(None)  # (`return self` on one way, None off the end: no one class)
        if table.returns is None and len(table.returned) == 1:
            table.returns = next(iter(table.returned))

    def _walk(self, stmts: List[ast.stmt]) -> Iterator[ast.AST]:
        stack: List[ast.AST] = list(stmts)
        # without a walrus no expression binds a name of the scope (a lambda's and a
        # comprehension's names are their own), so expressions are not entered: most
        # of a file's nodes are in them
        opaque = _SCOPES if self.walrus else _SCOPES + (ast.expr,)
        while stack:
            n = stack.pop()
            yield n
            if not isinstance(n, opaque):
                kids = child_nodes(n)
                kids.reverse()
                stack.extend(kids)

    def _bind(self, name: str, table: ScopeTable, chain: List[ScopeTable]) -> None:
        if name in table.declared_outer:
            # bound in the scope that owns it: the module for `global`, else the
            # nearest enclosing function (a nonlocal)
            owner = chain[0] if name in table.declared_global or len(chain) < 3 else chain[-2]
            owner.bind(name)
        else:
            table.bind(name)

    def body(self, stmts: List[ast.stmt], table: ScopeTable, chain: List[ScopeTable], method) -> None:
        for n in self._walk(stmts):
            if n.__class__ not in _BINDERS:
                if n.__class__ is _TRY_STAR:
                    self.group_handlers.update(id(h) for h in n.handlers)  # type: ignore[attr-defined]
                continue  # (most nodes bind nothing: one set lookup instead of the chain below)
            if method is not None and n.__class__ in _COMPS:  # `[... for self.x in xs]`
                for gen in n.generators:  # type: ignore[attr-defined]
                    method[0].attr_stored.update(_self_attrs(gen.target, method[1]))
            if method is not None and n.__class__ in _STORERS:
                targets = (n.targets if isinstance(n, ast.Assign) else  # type: ignore[attr-defined]
                           [n.optional_vars] if isinstance(n, ast.withitem) else [n.target])  # type: ignore[attr-defined]
                for t in targets:
                    method[0].attr_stored.update(_self_attrs(t, method[1]))
            fallback = id(n) in self.fallbacks
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not fallback:
                    self._bind(n.name, table, chain)
                    owner = self._owner(n.name, table, chain)
                    owner.defined[n.name] = owner.defined.get(n.name, 0) + 1
                self.function(n, chain, None)
            elif isinstance(n, ast.ClassDef):
                if not fallback:
                    self._bind(n.name, table, chain)
                self.klass(n, chain)
            elif isinstance(n, ast.Lambda):
                continue
            elif isinstance(n, ast.Assign):
                if not fallback:
                    self._assign(n, table, chain, method)
            elif isinstance(n, ast.AnnAssign):
                self._ann_assign(n, table, chain, method)
            elif isinstance(n, ast.AugAssign):
                for name in _target_names(n.target):
                    self._bind(name, table, chain)
            elif isinstance(n, (ast.For, ast.AsyncFor)):
                for name in _target_names(n.target):
                    self._bind(name, table, chain)
            elif isinstance(n, ast.withitem) and n.optional_vars is not None:
                for name in _target_names(n.optional_vars):
                    self._bind(name, table, chain)
                ctor = constructor_type(n.context_expr) or self._yielded(n.context_expr, method)
                as_read: Optional[str] = None
                if ctor and _through_self(n.context_expr, method) == ctor:  # `with self.Session() as s:` (``_single``)
                    as_read, ctor = ctor, None
                if not ctor and isinstance(n.optional_vars, ast.Name) and isinstance(n.context_expr, ast.Call):
                    # `with sqlite_session() as session:` (``_product_of``, after the walk)
                    self._products_later.append((n.context_expr, table, chain, table, n.optional_vars.id, method,
                                                 as_read))
                    self._entered_later.add(id(n.context_expr))
                if ctor and isinstance(n.optional_vars, ast.Name):
                    # `with Session(engine) as session:` -- `__enter__` returns the
                    # object itself (docs/decisions.md "Receiver types: with, or, inheritance");
                    # `with claim_session() as claim:` over the file's own
                    # `@contextmanager` annotated `-> Iterator[Claim]` yields a `Claim`
                    table.constructed.setdefault(n.optional_vars.id, set()).add(ctor)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                self._bind(n.name, table, chain)
                if n.name not in table.declared_outer and id(n) not in self.group_handlers:
                    # `except RSS2EmailError as e:` -- `e` is an instance of the one
                    # class the clause names (a tuple names no one class), so `e.log()`
                    # runs its method (docs/decisions.md "Receiver types", a caught exception)
                    caught = dotted(n.type) if n.type is not None else None
                    table.caught_bindings[n.name] = table.caught_bindings.get(n.name, 0) + 1
                    table.caught.setdefault(n.name, set()).add(
                        caught if caught and _cap_words(caught.rsplit(".", 1)[-1]) else "")
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                if fallback:
                    continue  # (a shim's second import under `except ImportError:`)
                for a in n.names:
                    if a.name != "*":
                        self._bind(_imported_as(a), table, chain)
                        owner = self._owner(_imported_as(a), table, chain)
                        owner.imported_last.add(_imported_as(a))
                        owner.imported[_imported_as(a)] = owner.imported.get(_imported_as(a), 0) + 1
            elif isinstance(n, ast.NamedExpr):
                self._bind(n.target.id, table, chain)
                # (an assignment too: `if (s := Sitting.objects.filter(...).first()):`
                # types `s` as `s = ...` does; held-out set 360)
                self._single(n.target, n.value, n.lineno, _end_of(n), table, method, chain)
            elif isinstance(n, ast.Delete):
                for t in n.targets:
                    for name in _target_names(t):
                        self._bind(name, table, chain)
                        if isinstance(t, ast.Name):
                            table.deleted[name] = table.deleted.get(name, 0) + 1
            elif isinstance(n, ast.Return):
                if table.is_function:
                    # `return cls(...)` in a classmethod, `return type(self)(...)` in a
                    # method: the class itself (`-> Self`);
                    # `return self` in a method, the instance (trytond's `with
                    # Transaction().start(db, user):` runs Transaction's exit; set 143)
                    made = n.value
                    own = isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and made.func.id == "cls"
                    if isinstance(made, ast.Call) and table.instance is not None and not own:
                        # `return type(self)()`, `return self.__class__()` (held-out set 313)
                        func = made.func
                        own = (isinstance(func, ast.Attribute) and func.attr == "__class__"
                               and isinstance(func.value, ast.Name) and func.value.id == table.instance
                               or isinstance(func, ast.Call) and isinstance(func.func, ast.Name)
                               and func.func.id == "type" and len(func.args) == 1
                               and isinstance(func.args[0], ast.Name) and func.args[0].id == table.instance)
                    if isinstance(made, ast.Name) and table.instance is not None and made.id == table.instance:
                        own = table.returns_self = True
                    table.returned.add("Self" if own else constructor_type(made))
            elif isinstance(n, _COMPS):
                pass  # comprehension targets are the comprehension's own
            elif type(n).__name__ in ("MatchAs", "MatchStar") and getattr(n, "name", None):
                self._bind(n.name, table, chain)  # type: ignore[attr-defined]  # (ast.Match* are 3.10+: by name)
            elif type(n).__name__ == "MatchMapping" and getattr(n, "rest", None):
                self._bind(n.rest, table, chain)  # type: ignore[attr-defined]  # (as above)

    def klass(self, node: ast.ClassDef, chain: List[ScopeTable]) -> None:
        # (a nested class's bare name is no name of it: `Outer.Index` is not a top-level
        # `Index`; its own class is left unknown: a review)
        table = ScopeTable(class_name=node.name if len(chain) == 1 and not self._classes else None)
        self._classes.append(node.name)
        self.out.classes[node.lineno] = table
        for d in node.decorator_list:  # `@method_decorator(transaction.atomic, name="post")`
            if not isinstance(d, ast.Call):
                continue
            callee = dotted(d.func)  # (any name: `method_decorator as md`; the front ends resolve it)
            if callee is None:
                continue
            named = next((k.value for k in d.keywords if k.arg == "name"), None)
            if len(d.args) > 1:
                named = d.args[1]
            if isinstance(named, ast.Constant) and isinstance(named.value, str) and named.value:
                table.method_decorated.setdefault(named.value, []).append((callee, method_decorator_targets(d)))
        self.out.class_bases[node.lineno] = [b for b in map(dotted, node.bases) if b]
        # (a plain decorator of `dispatch` only in a class that looks like a view: an
        # event dispatcher's `dispatch` beside its `post` is no Django view's)
        view = any((dotted(b) or "").rsplit(".", 1)[-1].endswith(VIEW_BASE_SUFFIXES) for b in node.bases)
        for n in node.body:
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "dispatch":
                for d in n.decorator_list:  # (each reaches the handlers: ``method_decorated``)
                    callee = dotted(d.func if isinstance(d, ast.Call) else d)
                    if callee is None or not (view or isinstance(d, ast.Call)):
                        continue
                    entry = (callee, method_decorator_targets(d)) if isinstance(d, ast.Call) else (DIRECT, (callee,))
                    table.method_decorated.setdefault("dispatch", []).append(entry)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                table.bind(n.name)
                table.defined[n.name] = table.defined.get(n.name, 0) + 1
                self.function(n, chain, table)
                returned = self.out.functions[n.lineno].returns if _is_property(n) else None
                if returned is not None and returned != "Self":
                    # `@property def _lock(self) -> StateLock` (or whose every `return`
                    # constructs one): `self._lock` is one (a review, session 31: a `with`
                    # over it was read as a plain lock)
                    table.attr_annotated.setdefault(n.name, set()).add(returned)
            elif isinstance(n, ast.ClassDef):
                table.bind(n.name)
                self.klass(n, chain)
            else:
                # the class body's own statements bind class attributes
                self.body([n], table, chain + [table], None)
        self._classes.pop()
        for name, types in table.annotated.items():  # class-level `x: T` types `self.x`
            table.attr_annotated.setdefault(name, set()).update(types)

    def _assign(self, n: ast.Assign, table: ScopeTable, chain: List[ScopeTable], method) -> None:
        for target in n.targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, (ast.Name, ast.Attribute)):
                text = dotted(target)
                head = text.split(".", 1)[0] if text else ""
                # (an import's name, no function's own: the walk is in no order, so the
                # module's import may not be counted yet)
                if text and head in self.imported_names and not any(head in t.bound for t in chain[1:]):
                    # `dipdup.models.get_pending_updates = lambda: q` (held-out set 447): a
                    # module's function replaced from outside (``FileFacts.rebinds``)
                    self.out.rebinds.add(text)
            for name in _target_names(target):
                self._bind(name, table, chain)
            pairs: List[Tuple[ast.AST, ast.AST]] = [(target, n.value)]
            if (isinstance(target, (ast.Tuple, ast.List)) and isinstance(n.value, (ast.Tuple, ast.List))
                    and len(target.elts) == len(n.value.elts)
                    and not any(isinstance(e, ast.Starred) for e in list(target.elts) + list(n.value.elts))):
                pairs = list(zip(target.elts, n.value.elts))
            for t, v in pairs:
                self._single(t, v, n.lineno, _end_of(n), table, method, chain)

    def _no_path_class(self, known: Optional[Tuple[str, bool]]) -> bool:
        """Whether a receiver known to be of a class (``_known_type``: the class, and
        whether a constructor call says so) is of one whose ``with_name`` is its own: a
        class whose own name says no path, constructed (``Template(...)``), defined in
        the file, or named through its module (``xpathtpl.Template``). A name of a
        path (``Path``, ``os.PathLike``, ``PathOrStr``, ``P`` of ``from pathlib import
        Path as P``), or one an annotation takes from an import or the file's own
        assignments, which may be an alias of one (``Location = Union[str, Path]``, a
        ``TypeVar``), is not (docs/decisions.md "A path derived from a path"; reviews)."""
        if known is None:
            return False
        written, constructed = known
        original = self.imported_names.get(written, written)  # (`P` of `from pathlib import Path as P`)
        if "path" in written.rsplit(".", 1)[-1].lower() or "path" in original.rsplit(".", 1)[-1].lower():
            return False
        if constructed or "." in written and written.split(".", 1)[0] in self.imported_names:
            return True
        return written in self.out.class_lines

    def _type_joined(self, table: ScopeTable, method, chain: List[ScopeTable]) -> None:
        """``tmp = path.parent / name`` where ``path`` is a path (``path = Path(p)``,
        ``path: Path``, a derived or joined path itself) is a ``pathlib.Path`` too: a
        path's ``parent`` is one and ``/`` onto one makes one (held-out set 181:
        bengal's ``atomic_write_text``; docs/decisions.md "A path derived from a
        path"). Only a name bound that one way, whose base is one name of a path's
        class; a number divides too, so an unknown base types nothing."""
        grew = bool(table.joined)
        while grew:
            grew = False
            for name, bases in table.joined.items():
                if len(bases) != 1 or PATH_TYPE in table.constructed.get(name, ()):
                    continue
                base = next(iter(bases))
                # (a base the function does not bind is an enclosing scope's or the
                # module's: `ROOT = Path(...)` at the top of the file; a review)
                owner = table if base in table.bound else next((t for t in reversed(chain) if base in t.bound), None)
                known = _known_type(ast.Name(base), owner, method) if owner is not None else None
                if known is None:
                    continue
                written = known[0]
                original = self.imported_names.get(written, written)
                if written in self.out.class_lines:
                    continue  # a class of the file's own named `Path` (a JSON pointer's; a review)
                if _path_module(written, self.imported_from, self.imported_names) not in PATH_MODULES:
                    continue  # (`from pkg.pointer import Path`, `pp.Path`: not pathlib's; two reviews)
                if written == PATH_TYPE or original.rsplit(".", 1)[-1] in _PATH_CLASSES:
                    table.constructed.setdefault(name, set()).add(PATH_TYPE)
                    grew = True

    def _unaliased_call(self, value: ast.Call, table: ScopeTable, chain: List[ScopeTable]) -> ast.Call:
        """``get()`` where the function binds ``get = store.session`` once before (the
        contract's function-level alias), as ``store.session()``: the same ``ast.Call``
        otherwise."""
        func = value.func
        if not isinstance(func, ast.Name) or func.id not in table.bound or func.id in table.declared_outer:
            return value
        got = table.alias(func.id)
        if got is None or (value.lineno, value.col_offset) < (got[1], got[2]):
            return value  # (bound after the call: no alias there)
        try:
            aliased = ast.parse(got[0], mode="eval").body
        except SyntaxError:
            return value
        if not isinstance(aliased, (ast.Name, ast.Attribute)):
            return value
        return ast.Call(func=aliased, args=value.args, keywords=value.keywords)

    def _yielded(self, expr: ast.AST, method) -> Optional[str]:
        """The class a ``with`` item's call of the file's own ``@contextmanager``
        generator yields, as its return annotation says (``-> Iterator[Claim]``,
        ``Generator[Claim, None, None]``, ``AsyncIterator[...]``; held-out set 176:
        exca's ``inflight_session``): a module-level function called by its name, or a
        method of the class being read called on ``self``. None otherwise."""
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        if isinstance(func, ast.Name):
            return self.managers_yield.get(func.id)
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and method is not None
                and func.value.id == method[1]):
            # (the class being read; after the walk, the method's class table names it)
            owner = self._classes[-1] if self._classes else method[0].class_name
            return self.managers_yield.get(f"{owner}.{func.attr}") if owner else None
        return None

    def _product_of(self, value: ast.AST, table: ScopeTable, chain: List[ScopeTable], method=None) -> Optional[str]:
        """What a call of a library factory's instance makes, by its qualified name:
        ``s = db_session()`` of ``db_session = scoped_session(...)`` (the registry's
        session), ``s = make()`` of ``make = sessionmaker()``, is a
        ``sqlalchemy.orm.Session`` (``FACTORY_PRODUCTS``, ``PROXY_CLASSES``; held-out set
        322, homesolar's ``with sqlite_session() as session:``). The name is the scope's
        own (a parameter annotated ``maker: async_sessionmaker`` too) or, unbound there,
        the module's; or ``self.x`` of the class (``self._maker = sessionmaker(engine)``;
        held-out set 319). None for anything else."""
        if not isinstance(value, ast.Call):
            return None
        func: ast.AST = value.func
        for _ in range(4):  # `m = self.maker; db = m()`: through a name's one alias (held-out set 335)
            if not isinstance(func, ast.Name):
                break
            bound = next((t for t in reversed(chain) if func.id in t.bound and t.class_name is None
                          and func.id not in t.declared_outer), None)
            got = bound.alias(func.id) if bound is not None else None
            if got is None:
                break
            try:
                func = ast.parse(got[0], mode="eval").body
            except SyntaxError:
                return None
        if isinstance(func, ast.Name):
            name = func.id
            owner = table if name in table.bound else chain[0]
            if owner is not table and name in table.declared_outer:
                return None
            # (its annotation says; else its constructor, unless a binding to a dotted
            # name makes it anything: `SessionLocal = Other` after it, a review. A
            # lazy `_maker = None` then `global _maker; _maker = sessionmaker(...)` is
            # the factory: the second review)
            made = _one(owner.annotated.get(name)) or (
                _one(owner.constructed.get(name)) if name not in owner.alias_bindings else None)
        elif (method is not None and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
              and func.value.id == method[1]):
            made = _one(method[0].attr_annotated.get(func.attr)) or _one(method[0].attr_constructed.get(func.attr))
        else:
            return None
        if not made:
            return None
        head, dot, rest = made.partition(".")
        if head in self.imported_from:  # `from sqlalchemy.orm import scoped_session`
            full = f"{self.imported_from[head]}.{self.imported_names.get(head, head)}{dot}{rest}"
        elif head in self.imported_names:  # `from sqlalchemy import orm` then `orm.scoped_session`
            full = f"{self.imported_names[head]}{dot}{rest}"
        else:
            return None
        return FACTORY_PRODUCTS.get(full) or PROXY_CLASSES.get(full)

    def _owner(self, name: str, table: ScopeTable, chain: List[ScopeTable]) -> ScopeTable:
        """The table a name's binding belongs to (``_bind``: the module's for a
        ``global``, the enclosing function's for a ``nonlocal``)."""
        if name in table.declared_outer:
            return chain[0] if name in table.declared_global or len(chain) < 3 else chain[-2]
        return table

    def _single(self, target: ast.AST, value: ast.AST, line: int, end: Tuple[int, int], table: ScopeTable, method,
                chain: List[ScopeTable]) -> None:
        if isinstance(target, ast.Name):
            string = literal_text(value, self._qualify_head)
            if string is not None and target.id not in table.declared_outer:
                table.strings[target.id] = string
                if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.isidentifier():
                    table.identifiers[target.id] = (value.value, *end)  # (as written: ``getattr(x, name)``)
            text = (dotted(value) or _typevar_bound(value) or _annotated_alias(value)
                    or (_static_alias(value) if table.class_name is not None or not table.is_function else None))
            partial = self._partial_alias(value) if text is None else None
            if partial is not None and target.id not in table.declared_outer:
                text = partial
                table.partials.add(target.id)
            if text is not None and target.id not in table.declared_outer:
                table.alias_bindings[target.id] = (text, *end)
            elif isinstance(value, ast.Tuple) and value.elts and target.id not in table.declared_outer:
                items = [dotted(e) for e in value.elts]
                if all(items):
                    table.tuple_bindings[target.id] = (tuple(cast(str, i) for i in items), *end)
            elif isinstance(value, (ast.IfExp, ast.BoolOp)) and target.id not in table.declared_outer:
                options = [value.body, value.orelse] if isinstance(value, ast.IfExp) else value.values
                texts = [dotted(o) for o in options]
                if all(texts):
                    table.choice_bindings[target.id] = (tuple(cast(str, t) for t in texts), *end)
            # (a plain name is an alias above, not a type: `s = store` renders as `store`)
            ctor = None if isinstance(value, ast.Name) else _own_class(value, method, table.instance) or value_type(
                value, _annotated(table), lambda n: self._no_path_class(_known_type(n, table, method)),
                self.imported_names)
            if (ctor and isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and ctor == value.func.id
                    and any(t.is_function and t.bound.get(ctor, 0) > t.imported.get(ctor, 0)
                            and ctor not in t.declared_outer for t in chain[1:])):
                ctor = None  # `def f(ledger, Store): store = Store()`: the parameter's call, no class of the module's
            fallback = None
            if ctor and _through_self(value, method) == ctor:
                # `session = self.Session()` of `self.Session = sessionmaker(...)`: what the
                # attribute's factory makes, not a class named `self.Session` (held-out
                # set 376, cuebit); read as before when no factory is known
                fallback, ctor = ctor, None
            if not ctor and _made_call(value) is not None:
                # `s = db_session()`: typed once the module's names are known (`s = await
                # open_store()` too: what a coroutine function's annotation says it
                # returns, no library factory's product)
                self._products_later.append((value, table, chain, self._owner(target.id, table, chain), target.id,
                                             method, fallback))
            if ctor:  # (`global STORE; STORE = RunStore()` types the module's STORE)
                self._owner(target.id, table, chain).constructed.setdefault(target.id, set()).add(ctor)
            if (ctor == PATH_TYPE and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                    and isinstance(value.func.value, ast.Name)):
                table.derived.setdefault(target.id, set()).add(value.func.value.id)
            base = _joined_base(value) if not ctor and not isinstance(value, ast.Name) else None
            if base is not None and target.id not in table.declared_outer:
                table.joined.setdefault(target.id, set()).add(base)
            kind = display_kind(value)
            if kind == "list" and table.class_name is not None:
                table.attr_containers.add(target.id)  # (a class-level `audit_log = []`: a review)
            if kind is not None and table.is_function and target.id not in table.declared_outer:
                count, kinds = table.displays.get(target.id, (0, frozenset()))
                table.displays[target.id] = (count + 1, kinds | {kind})
        elif method is not None and isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            cls, self_name, params = method
            if target.value.id == self_name:
                ctor = _own_class(value, method, table.instance) or value_type(
                    value, params, lambda n: self._no_path_class(_known_type(n, table, method)), self.imported_names)
                fallback = None
                if ctor and _through_self(value, method) == ctor:  # `self.db = self.Session()` (as above)
                    fallback, ctor = ctor, None
                if display_kind(value) == "list":
                    cls.attr_containers.add(target.attr)
                elif not (isinstance(value, ast.Constant) and value.value is None):
                    cls.attr_other.add(target.attr)
                if ctor:
                    cls.attr_constructed.setdefault(target.attr, set()).add(ctor)
                elif _made_call(value) is not None:
                    # `self.s = async_session()`, `self.db = self._maker()`: typed once the
                    # module's names are known, as a name's is (`await make()` too)
                    self._attr_products_later.append((value, table, chain, cls, target.attr, method, fallback))
                elif (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
                      and isinstance(params, dict) and isinstance(params.get(value.value.id), str)):
                    # `def __init__(self, rt: Runtime): self.store = rt.store`: what the
                    # module's class `Runtime` types its `store` as, once every class is
                    # read (held-out set 410, durabl's `_Execution`)
                    self._attr_copies_later.append((cls, target.attr, params[value.value.id], value.attr))

    def _ann_assign(self, n: ast.AnnAssign, table: ScopeTable, chain: List[ScopeTable], method) -> None:
        t = annotation_type(n.annotation)
        target = n.target
        if isinstance(target, ast.Name):
            if n.value is not None:
                self._bind(target.id, table, chain)
                self._single(target, n.value, n.lineno, _end_of(n), table, method, chain)
                if table.class_name is not None:
                    # (a class body's `sql: str = "..."` is a dataclass field's default,
                    # which each instance may override: no statement known; a review)
                    table.strings.pop(target.id, None)
            if t:
                self._owner(target.id, table, chain).annotated.setdefault(target.id, set()).add(t)
            if table.class_name is not None and list_annotation(n.annotation):
                table.attr_containers.add(target.id)  # (a dataclass's `history: List[Step] = field(...)`)
        elif method is not None and isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            cls, self_name, _ = method
            if target.value.id == self_name and list_annotation(n.annotation):
                cls.attr_containers.add(target.attr)
            if target.value.id == self_name and t:
                cls.attr_annotated.setdefault(target.attr, set()).add(t)
            elif n.value is not None:
                self._single(target, n.value, n.lineno, _end_of(n), table, method, chain)


_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "builtins.ImportError",
                            "builtins.ModuleNotFoundError"})


def _has_try(stmts: List[ast.stmt]) -> bool:
    return any(isinstance(st, ast.Try) or (hasattr(ast, "TryStar") and isinstance(st, ast.TryStar)) for st in stmts)


def _import_fallbacks(stmts: List[ast.stmt]) -> Set[int]:
    """A module's compat shim binds a name twice: what normally runs, in a ``try``'s
    body or its ``else`` (``DjangoDatabaseError = django.db.utils.DatabaseError``), and
    a stand-in under ``except ImportError:`` (``class DjangoDatabaseError: pass``). The
    ids of the stand-in's bindings (``def``, ``class``, ``=``, an import) of the names
    the ``try`` or its ``else`` binds to a dotted name or imports: they do not count,
    so the name stays an
    alias of what normally runs, as a shim's import already wins over its fallback
    (docs/decisions.md, "A definition after an import"; held-out set 35, sumatra's
    ``swallow-types`` reached no ``except DjangoDatabaseError:``)."""
    out: Set[int] = set()
    for st in stmts:
        if not isinstance(st, ast.Try) and not (hasattr(ast, "TryStar") and isinstance(st, ast.TryStar)):
            continue
        runs = {t.id for n in st.body + st.orelse if isinstance(n, ast.Assign) and dotted(n.value) is not None
                for t in n.targets if isinstance(t, ast.Name)}
        # (and what it imports: `try: from x import db_session` / `except ImportError:
        # db_session = None` leaves the import what runs; a review, session 49)
        runs |= {_imported_as(a) for n in st.body + st.orelse if isinstance(n, (ast.Import, ast.ImportFrom))
                 for a in n.names if a.name != "*"}
        if not runs:
            continue
        for h in st.handlers:
            caught = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type] if h.type is not None else []
            if not caught or not all(dotted(c) in _IMPORT_ERRORS for c in caught):
                continue
            for n in h.body:
                names = ([n.name] if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                         else [t.id for t in n.targets if isinstance(t, ast.Name)] if isinstance(n, ast.Assign)
                         else [_imported_as(a) for a in n.names if a.name != "*"]
                         if isinstance(n, (ast.Import, ast.ImportFrom)) else [])
                if names and all(name in runs for name in names):
                    out.add(id(n))
    return out



#: pathlib's classes (and anyio's, trio's ``Path``) by their own name: ``/`` onto one
#: makes a path (``Scanner._type_joined``)
_PATH_CLASSES = frozenset({"Path", "PurePath", "PosixPath", "WindowsPath", "PurePosixPath", "PureWindowsPath"})
#: what a generator's return annotation says it yields: the first of its arguments
_YIELDING = frozenset({"Iterator", "Generator", "AsyncIterator", "AsyncGenerator", "Iterable", "AsyncIterable"})


def _managers_yield(tree: ast.Module) -> Dict[str, str]:
    """The module's own ``@contextmanager``/``@asynccontextmanager`` generators (at the
    top, and the methods of its top-level classes as ``Class.m``) whose return
    annotation names what they yield (``-> Iterator[Claim]``): name -> that class."""
    out: Dict[str, str] = {}
    for node in tree.body:
        defs = [(node, "")] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else (
            [(n, node.name + ".") for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if isinstance(node, ast.ClassDef) else [])
        for fn, prefix in defs:
            if not any((dotted(d) or "").rsplit(".", 1)[-1] in ("contextmanager", "asynccontextmanager")
                       for d in fn.decorator_list):
                continue
            ann = fn.returns
            if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                try:
                    ann = ast.parse(ann.value.strip(), mode="eval").body
                except (SyntaxError, ValueError):
                    continue
            if not isinstance(ann, ast.Subscript) or (dotted(ann.value) or "").rsplit(".", 1)[-1] not in _YIELDING:
                continue
            first = ann.slice.elts[0] if isinstance(ann.slice, ast.Tuple) and ann.slice.elts else ann.slice
            made = annotation_type(first)
            if made:
                out[prefix + fn.name] = made
    return out


def _own_yields(fn: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> List[ast.Yield]:
    """The ``yield`` expressions of a generator's own body (not of a function or lambda
    nested in it)."""
    out: List[ast.Yield] = []
    stack: List[ast.AST] = list(fn.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Yield):
            out.append(n)
        stack.extend(ast.iter_child_nodes(n))
    return out


def _managers_yielding_names(tree: ast.Module, known: Dict[str, str]) -> List[Tuple[str, int, str]]:
    """The module's context-manager generators (as ``_managers_yield`` finds them) whose
    return annotation says nothing and whose every ``yield`` yields one plain local
    name: (name as ``_managers_yield`` keys it, the ``def``'s line, the local)."""
    out: List[Tuple[str, int, str]] = []
    for node in tree.body:
        defs = [(node, "")] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else (
            [(n, node.name + ".") for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if isinstance(node, ast.ClassDef) else [])
        for fn, prefix in defs:
            if prefix + fn.name in known or not any(
                    (dotted(d) or "").rsplit(".", 1)[-1] in ("contextmanager", "asynccontextmanager")
                    for d in fn.decorator_list):
                continue
            yielded = {y.value.id if isinstance(y.value, ast.Name) else None for y in _own_yields(fn)}
            if len(yielded) == 1 and None not in yielded:
                out.append((prefix + fn.name, fn.lineno, next(iter(yielded))))  # type: ignore[arg-type]
    return out


def _module_level(tree: ast.Module) -> Iterator[ast.stmt]:
    """The module's own statements, inside its top-level ``if``/``try`` blocks too."""
    stack: List[ast.stmt] = list(tree.body)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.If, ast.Try)) or type(n).__name__ == "TryStar":
            for part in ("body", "orelse", "finalbody"):
                stack.extend(getattr(n, part, []))
            stack.extend(s for h in getattr(n, "handlers", []) for s in h.body)


def _path_module(written: str, imported_from: Dict[str, str], imported: Dict[str, str]) -> str:
    """The top module a class as written comes from: ``Path`` of ``from pkg.pointer
    import Path`` → ``pkg``, ``pp.Path`` of ``import pkg.pointer as pp`` → ``pkg``; a
    name no module-level import binds is taken for pathlib's (the walk's own ``Path``
    types came from ``Path(...)``)."""
    if "." in written:
        head = written.split(".", 1)[0]
        return imported.get(head, head).split(".", 1)[0]
    return imported_from.get(written, "pathlib").split(".", 1)[0]


#: the modules whose ``Path`` is a path (``from anyio import Path``)
PATH_MODULES = frozenset({"pathlib", "anyio", "trio", "upath", "pathlib2"})


def _joined_base(value: ast.AST) -> Optional[str]:
    """The plain name a ``/`` chain starts from, through ``.parent``: ``path.parent /
    f".{name}.tmp"`` → ``path``; None for anything else."""
    if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Div)):
        return None
    left = value.left
    while True:
        if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Div):
            left = left.left
        elif isinstance(left, ast.Attribute) and left.attr == "parent":
            left = left.value
        else:
            break
    return left.id if isinstance(left, ast.Name) else None


#: methods Python makes class or static methods without a decorator
IMPLICIT_CLASS_METHODS = frozenset({"__init_subclass__", "__class_getitem__", "__new__"})


def is_classmethod_name(name: str) -> bool:
    """A classmethod's first parameter as written (``cls``, ``klass``, ``kls``): its
    call constructs the class (a staticmethod has no such parameter)."""
    return name in ("cls", "klass", "kls", "mcs")


def _own_class(value: ast.AST, method, instance: Optional[str]) -> Optional[str]:
    """The method's own class, for a value that constructs one: ``self.__class__(...)``,
    ``type(self)(...)``, ``cls(...)`` in a classmethod (CodernityDB's ``compact``
    builds its new index so; held-out set 179). A subclass's instance is read as the
    class's, as ``-> Self`` is (docs/decisions.md "Receiver types")."""
    if method is None:
        return None
    cls, self_name, _ = method
    awaited = isinstance(value, ast.Await)
    if awaited:
        value = cast(ast.Await, value).value
    if not isinstance(value, ast.Call):
        return None
    if _fetched_through(value, self_name, awaited) and is_classmethod_name(self_name) and instance != self_name:
        # `cls.objects.create(...)`, `cls.objects.get(...)` in a model's classmethod: one
        # of the class's own (held-out set 362: dj-paypal's webhook events)
        return cls.class_name
    if awaited:
        return None
    func = value.func
    # (`instance`: the method's own instance name, None in a classmethod or a
    # staticmethod. `type(cls)(...)` and `cls.__class__(...)` in a classmethod make the
    # metaclass's instance, whatever the parameter is called: two reviews)
    of_instance = instance is not None and instance == self_name
    own = (isinstance(func, ast.Name) and func.id == self_name and not of_instance and is_classmethod_name(self_name)
           or of_instance and isinstance(func, ast.Attribute) and func.attr == "__class__"
           and isinstance(func.value, ast.Name) and func.value.id == self_name
           or of_instance and isinstance(func, ast.Call) and isinstance(func.func, ast.Name)
           and func.func.id == "type" and len(func.args) == 1 and isinstance(func.args[0], ast.Name)
           and func.args[0].id == self_name)
    return cls.class_name if own else None


def _fetched_through(node: ast.Call, name: str, awaited: bool) -> bool:
    """Whether a call fetches or creates one object through the manager of ``name``
    (``name.objects.get(...)``, ``name.objects.filter(...).first()``, awaited
    ``name.objects.acreate(...)``), as ``fetched_model`` reads a model's."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr not in (_AFETCHES if awaited else _FETCHES):
        return False
    inner: ast.AST = func.value
    while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr in _QUERY_CHAIN:
        inner = inner.func.value
    return (isinstance(inner, ast.Attribute) and is_manager_name(inner.attr)
            and isinstance(inner.value, ast.Name) and inner.value.id == name)


def _imported_as(alias: ast.alias) -> str:
    """The name an import binds (``import a.b`` binds ``a``)."""
    return alias.asname or alias.name.split(".")[0]


def _end_of(n: Union[ast.stmt, ast.expr]) -> Tuple[int, int]:
    """Where an assignment ends (line, UTF-8 byte column, as the ``ast`` gives it): an
    alias counts for a use that starts after it, on a later line or later on the same
    one (``save = store.save; save(run)``)."""
    return (getattr(n, "end_lineno", None) or n.lineno, getattr(n, "end_col_offset", None) or 0)


def scan(tree: ast.Module, text: Optional[str] = None) -> Scopes:
    """Aliases and types of every scope of a module. ``text``: the module's source,
    when known; without a ``:=`` in it no expression is walked (``_Scanner._walk``),
    without a ``yield`` no function is searched for one."""
    out = _Scanner(walrus=text is None or ":=" in text, yields=text is None or "yield" in text).module(tree)
    if text is None or any(w in text for w in _SCHEDULING_WORDS):
        out.kept_values = kept_tasks(tree)
    out.superseded = superseded_defs(tree.body)
    return out


def superseded_defs(body: List[ast.stmt]) -> FrozenSet[int]:
    """The ``def`` lines of a module or class body (and of the classes in it) that a
    later ``def`` of the same name in the same body replaces: Python binds the name to
    the last (a blind probe, session 60: a function defined twice in a row had both
    bodies in its summary). A later ``def`` decorated by the name itself
    (``@status.setter``, ``@f.register``) keeps the earlier one alive, and a ``def`` in
    a branch (``if``/``try``) is another body."""
    out: Set[int] = set()
    stack = [body]
    while stack:
        stmts = stack.pop()
        last: Dict[str, int] = {}
        read: Set[str] = set()  # names read since their last `def` here (`_orig = persist`)
        for st in stmts:
            if isinstance(st, ast.ClassDef):
                stack.append(st.body)
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                read |= _read_when_run(st)  # (its decorators and defaults: `_inner=persist`)
                if st.name in last and st.name not in read and not any(
                        (dotted(d.func if isinstance(d, ast.Call) else d) or "").split(".")[0] == st.name
                        for d in st.decorator_list):
                    out.add(last[st.name])
                last[st.name] = st.lineno
                read.discard(st.name)
            else:
                read |= _read_when_run(st)
    return frozenset(out)


def _read_when_run(st: ast.stmt) -> Set[str]:
    """The names a statement reads when it runs: not inside a ``def``'s or a lambda's
    body, which run later (a class body runs at once)."""
    out: Set[str] = set()
    todo: List[ast.AST] = [st]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            out.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            todo.extend(n.decorator_list)
            todo.extend(d for d in [*n.args.defaults, *n.args.kw_defaults] if d is not None)
        elif isinstance(n, ast.Lambda):
            todo.extend(d for d in [*n.args.defaults, *n.args.kw_defaults] if d is not None)
        else:
            todo.extend(ast.iter_child_nodes(n))
    return out


_SCHEDULING_WORDS = ("create_task", "ensure_future", "run_coroutine_threadsafe")
#: what takes a task's failure back where the task is made (``kept_tasks``): its
#: ``.result()`` (``.exception()`` returns it), and the calls that wait for it
#: (``asyncio.wait`` raises none, but its tasks' ``.result()`` then does: kept)
TAKE_BACK_METHODS = frozenset({"result"})
TAKE_BACK_CALLS = frozenset({"run_until_complete", "gather", "wait_for", "shield", "wait", "as_completed"})
#: a list's methods that keep a task in it (``tasks.append(create_task(...))``, then
#: ``await gather(*tasks)``); a set's ``add`` is the background-task idiom: dropped
KEEPING_METHODS = frozenset({"append", "extend", "insert"})


def kept_tasks(tree: ast.Module) -> Set[Tuple[int, int]]:
    """``Scopes.kept_values``: the positions of the calls whose value is kept in a plain
    name (not ``_``) or taken back at once. A task made anywhere else (a statement by
    itself, ``_ = ...``, an attribute, ``background.add(...)``,
    ``.add_done_callback(cb)``, a list) is dropped by the code that made it
    (docs/decisions.md "A coroutine run as a detached task")."""
    out: Set[Tuple[int, int]] = set()
    scope_of = _scope_of_assignments(tree)
    for n in ast.walk(tree):
        values: List[ast.AST] = []
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if n.value is not None and any(_names_a_local(t) for t in targets):
                one = targets[0] if len(targets) == 1 and isinstance(targets[0], ast.Name) else None
                if one is None or not _only_dropped(scope_of.get(id(n), tree), one.id):
                    values.append(n.value)
        elif isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) and n.value is not None:
            values.append(n.value)  # (a helper's task, its caller's to await: a review)
        elif isinstance(n, ast.Call):
            func = n.func
            if isinstance(func, ast.Attribute) and func.attr in TAKE_BACK_METHODS:
                values.append(func.value)
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in TAKE_BACK_CALLS or (name in KEEPING_METHODS and isinstance(func, ast.Attribute)):
                values.extend(a.value if isinstance(a, ast.Starred) else a for a in n.args)
        stack = list(values)
        while stack:
            v = stack.pop()
            # (tasks kept in a name's list, tuple, dict or comprehension are kept too:
            # `tasks = [create_task(f(x)) for x in xs]`, `t1, t2 = create_task(a()),
            # create_task(b())`, `t = create_task(f()) if go else None`)
            if isinstance(v, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
                stack.append(v.elt)
            elif isinstance(v, ast.DictComp):
                stack.append(v.value)
            elif isinstance(v, (ast.List, ast.Tuple, ast.Set)):
                stack.extend(v.elts)
            elif isinstance(v, ast.Dict):
                stack.extend(v.values)
            elif isinstance(v, ast.IfExp):
                stack.extend((v.body, v.orelse))
            elif isinstance(v, ast.Await):
                stack.append(v.value)
            elif isinstance(v, ast.Call) and _schedules(v):
                out.add((v.lineno, v.col_offset))
    return out


#: what a task's name may be used for and the task still be dropped (the asyncio docs'
#: ``task = create_task(f()); background.add(task);
#: task.add_done_callback(background.discard)``): held in a set or an attribute,
#: given a callback, a name, cancelled or asked how it ended without its failure
DROPPING_HOLDERS = frozenset({"add", "discard", "remove"})
DROPPING_METHODS = frozenset({
    "add_done_callback", "remove_done_callback", "set_name", "get_name", "cancel", "cancelled", "done",
    "exception",
})


def _scope_of_assignments(tree: ast.Module) -> Dict[int, ast.AST]:
    """The function (or the module) each assignment of the module stands in, by id."""
    out: Dict[int, ast.AST] = {}
    stack: List[Tuple[ast.AST, ast.AST]] = [(tree, tree)]
    while stack:
        n, scope = stack.pop()
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
            out[id(n)] = scope
        inner = n if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else scope
        stack.extend((c, inner) for c in ast.iter_child_nodes(n))
    return out


def _only_dropped(scope: ast.AST, name: str) -> bool:
    """Whether every read of ``name`` in ``scope`` (nested functions included: a
    closure may await it) drops the task it holds: none at all, an argument of a
    set's ``add``/``discard``/``remove``, the receiver of a method in
    ``DROPPING_METHODS``, or the value stored in an attribute or an item (as a task
    made straight into one is: docs/decisions.md "A coroutine run as a detached
    task"). Any other read may take the task back: kept."""
    dropping: Set[int] = set()
    reads: List[ast.Name] = []
    holders: Set[str] = set()  # the plain names of the sets that hold it
    holder_reads: Dict[str, List[int]] = {}
    holding: Set[int] = set()  # a holder's reads as a receiver of `add`/`discard`/`remove`
    for n in ast.walk(scope):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            if n.id == name:
                reads.append(n)
            holder_reads.setdefault(n.id, []).append(id(n))
        elif isinstance(n, ast.Attribute) and n.attr in DROPPING_HOLDERS:
            # (`background.add(task)`, and `task.add_done_callback(background.discard)`:
            # the asyncio docs' idiom hands the set's `discard` on uncalled; a review)
            holding.add(id(n.value))
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            if n.func.attr in DROPPING_HOLDERS and len(n.args) == 1:
                dropping.add(id(n.args[0]))
                if isinstance(n.args[0], ast.Name) and n.args[0].id == name and isinstance(n.func.value, ast.Name):
                    holders.add(n.func.value.id)
            if n.func.attr in DROPPING_METHODS:
                dropping.add(id(n.func.value))
        elif isinstance(n, ast.Assign) and all(isinstance(t, (ast.Attribute, ast.Subscript)) for t in n.targets):
            dropping.add(id(n.value))
    # (a set of tasks the function reads otherwise, `await gather(*tasks)`, takes them
    # back: only one it only adds to and discards from drops them; a review)
    if any(r not in holding for h in holders for r in holder_reads.get(h, ())):
        return False
    return all(id(r) in dropping for r in reads)


def _names_a_local(target: ast.AST) -> bool:
    """A plain name other than ``_``, or a tuple or list of targets holding one."""
    if isinstance(target, ast.Name):
        return target.id != "_"
    if isinstance(target, (ast.Tuple, ast.List)):
        return any(_names_a_local(t) for t in target.elts)
    return False


def _schedules(call: ast.Call) -> bool:
    """A call whose own name is a scheduler's (the front ends decide which are)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in _SCHEDULING_WORDS


def _tail_line(node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> int:
    """A generator function's last line of the last statement of its body that holds
    a ``yield`` of its own (not a nested function's, class's or lambda's): what its
    body does after that line runs only on the ``next()`` that finds it exhausted.
    Inside a ``with`` around the ``yield``, the last statement of its body that holds
    one: the rest of that body runs only on exhaustion too (held-out set 104). A
    ``try``'s ``finally`` and the ``with``'s exit are no tail: they also run when the
    consumer leaves the loop early and the generator is closed, a way out the
    exhausted point is not on (a review), so they stand at the call as before. 0 when
    the function yields nowhere."""
    return _tail_of(node.body)


#: the statements whose own parts are a header (or a ``return``'s value): ``_yield_at``
_HEADED: Tuple[type, ...] = (ast.Return, ast.If, ast.While, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith,
                             ast.Match, ast.Try) + ((_TRY_STAR,) if _TRY_STAR is not None else ())


def _yield_at(node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> Tuple[Tuple[int, int], ...]:
    """Where a generator's statements start whose own header holds a ``yield`` of its
    own (`if (yield x) == "stop":`, `for a in (yield):`, `with (yield) as c:`, `match
    (yield):`, an ``except`` clause's type) and its `return (yield x)`s (line, column;
    ``ir.FunctionFacts.yield_at``; a review of session 62: the graph marks only simple
    statements' ends). A simple statement's is not here: ``cfg`` marks it, and code on
    its line after it (`m = yield x; save(m)`) is no ``yield`` (a second review)."""
    out: Set[Tuple[int, int]] = set()
    stack: List[ast.stmt] = list(node.body)
    while stack:
        st = stack.pop()
        if isinstance(st, _SCOPES):
            continue  # (a nested function's or class's own)
        simple = not isinstance(st, _HEADED)
        for _, value in ast.iter_fields(st):
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, ast.stmt):
                    stack.append(item)  # (a body: its statements in turn)
                elif isinstance(item, ast.ExceptHandler):
                    stack.extend(item.body)
                    if item.type is not None and _holds_yield(item.type):
                        out.add((item.lineno, item.col_offset))
                elif isinstance(item, ast.match_case):
                    stack.extend(item.body)
                    if item.guard is not None and _holds_yield(item.guard):
                        out.add((st.lineno, st.col_offset))
                elif isinstance(item, ast.AST) and not simple and _holds_yield(item):
                    out.add((st.lineno, st.col_offset))
    return tuple(sorted(out))



def _tail_of(stmts: List[ast.stmt]) -> int:
    for stmt in reversed(stmts):
        if not _holds_yield(stmt):
            continue
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            # (the `yield` only in its header, `with (yield x) as c:`: its body runs
            # after the last `yield`; a second review of session 62: such a function
            # was no generator at all)
            return _tail_of(stmt.body) or max(
                getattr(part, "end_lineno", None) or stmt.lineno
                for item in stmt.items for part in (item.context_expr, item.optional_vars) if part is not None)
        return getattr(stmt, "end_lineno", None) or stmt.lineno
    return 0


def _holds_yield(stmt: ast.AST) -> bool:
    """Whether a statement holds a ``yield`` of its own function."""
    stack: List[ast.AST] = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(n, _SCOPES):
            stack.extend(child_nodes(n))
    return False
