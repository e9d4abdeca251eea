"""Stage 2 — the project call graph and the shape of summaries (semantics §Events).

Built from the per-file facts alone (no re-parsing), so cached facts are enough:
``resolve`` indexes every function and class and resolves each call. The summaries
themselves (``Effects``: on return, on raise, escaping failures, conditional effects)
need each callee's graph, so ``effects.build`` computes them, callees first over the
strongly connected components of the call graph (``nx.condensation``), so recursion
converges.

Resolution covers ``self.m()``/``cls.m()`` (the class and its project bases),
``super().m()``, module-level functions, functions and classes imported from project
modules (relative imports and package ``__init__`` re-exports included), and nested
functions by name, and receiver types (``x.m()`` where the facts know ``x``'s class:
``m`` by that class's MRO). Calling a project class carries its ``__init__``. Anything
else is matched by patterns only. Aliases are already expanded in the facts.
"""
from __future__ import annotations

import dataclasses
import itertools
import logging
import os
from collections import deque
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, AbstractSet, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple, Union

from . import depth, lazy
from .errors import error_text, raise_if_interrupted
from .filepaths import test_code
from .ir import STAR_LEAD, Call, ClassFacts, FileFacts, FunctionFacts, Stmt, rebound_names
from .kinds import StmtKind
from .scopes import (
    APP_MODELS,
    BESIDE_DEFS,
    FACTORY_PRODUCTS,
    IMPLICIT_CLASS_METHODS,
    LIBRARY_ATTRIBUTES,
    PLAIN_CALL,
    PROXY_CLASSES,
    is_classmethod_name,
    is_manager_name,
)

if TYPE_CHECKING:
    import networkx as nx
else:
    # imported when a call graph is built: an editor's run that only resolves its
    # buffer against a remembered graph (``memos.GraphMemo``) never builds one
    nx = lazy.module("networkx", globals(), "nx")

LOG = logging.getLogger("ordercheck")

# with-item classes: a callee carries no context manager of its caller's
NOT_CARRIED = {"suppressor", "transaction"}

#: the classes a library factory's instance makes (``scopes.FACTORY_PRODUCTS``)
_PRODUCTS = frozenset(FACTORY_PRODUCTS.values()) | frozenset(PROXY_CLASSES.values())


def _product_of(facts: FileFacts, written: str) -> Optional[str]:
    """What an instance of the class ``written`` in ``facts``'s module makes, when that
    class, through the module's imports, is a library factory or proxy
    (``sessionmaker`` → ``sqlalchemy.orm.Session``); None for any other."""
    head, _, rest = written.partition(".")
    if head not in facts.imports:
        return None
    full = ".".join(filter(None, (facts.imports[head], rest)))
    return FACTORY_PRODUCTS.get(full) or PROXY_CLASSES.get(full)

#: decorators after which an ``async def`` is still one: its call makes a coroutine
#: (``ProjectIndex.plain_coroutine``); names as ``FunctionFacts.decorators`` gives them
KEEPS_COROUTINE = frozenset({
    "staticmethod", "classmethod", "abstractmethod", "abc.abstractmethod", "override", "typing.override",
    "typing_extensions.override", "functools.wraps", "wraps",
})


def fkey(path: str, qualname: str) -> str:
    """A function's or class's key: its file (as shown) and qualified name. Keys are
    per file, not per module name, so two files with the same module name (scripts,
    test folders without ``__init__.py``) never share summaries."""
    return f"{path}::{qualname}"


def split_key(key: str) -> Tuple[str, str]:
    path, _, qual = key.rpartition("::")
    return path, qual


@dataclass
class Origin:
    """Where a function gets a class from: its own call, or a callee's summary
    (``part`` says which part of the callee's summary carried it)."""

    call: Call
    path: str
    callee: Optional[str] = None  # function key when carried
    part: str = "return"  # the callee's part: return | raise | escape | true | false | entry | exit | exit-raise
    # for an append: what ``Vocabulary.terminal_by`` said of the call when the summary was
    # made, which a witness's "terminal by" note reads (a remembered summary's call is
    # light, without its marker runs: held-out set 67)
    marker: Optional[str] = None


def source_root(f: FileFacts) -> str:
    """The folder a file's module name starts below (``/…/ex2`` for
    ``ex2/customers/models.py`` named ``customers.models``), absolute, with ``/``
    separators: a file an editor names by its absolute path (``--stdin-filename``)
    and one a run found below a folder given relative are in one root (a review)."""
    folder = _absolute(f.path).rpartition("/")[0]
    for _ in range(f.module.count(".") + (1 if _is_package_file(f.path) else 0)):
        folder = folder.rpartition("/")[0]
    return folder


def _absolute(path: str) -> str:
    return os.path.abspath(path).replace("\\", "/")


def _is_package_file(path: str) -> bool:
    """Whether a file is a package's ``__init__.py`` (or ``.pyi``)."""
    return path.replace("\\", "/").rsplit("/", 1)[-1] in ("__init__.py", "__init__.pyi")


#: the methods of a Django model's manager that run the model's ``save()``
#: (``ProjectIndex.callee_key``); ``bulk_create`` and ``update`` do not. The async
#: forms run the same methods in a thread (``sync_to_async``; held-out set 473)
MANAGER_SAVES = frozenset({"create", "get_or_create", "update_or_create",
                           "acreate", "aget_or_create", "aupdate_or_create"})
#: a Django query set's steps that return a query set of its own class, as rendered
QUERYSET_CHAIN = frozenset({"filter()", "exclude()", "all()", "order_by()", "select_related()",
                            "prefetch_related()", "select_for_update()", "using()", "distinct()", "only()",
                            "defer()", "annotate()", "none()", "reverse()"})



def gate_name(given: Dict[str, bool]) -> str:
    """The parameter name of a gate of flags given together (``Effects.gated``, its
    value then True): ``"asynchronous=False&scheduled=False"``."""
    return "&".join(f"{p}={v}" for p, v in sorted(given.items()))


def gate_holds(param: str, value: bool, flags: Dict[str, bool]) -> bool:
    """Whether a call's flag arguments give what a gate of ``Effects.gated`` is for:
    one flag's value, or each of a pair's (``gate_name``)."""
    if "&" not in param:
        return flags.get(param) is value
    return all(flags.get(p) is (v == "True") for p, _, v in (item.partition("=") for item in param.split("&")))


def flag_gates(flags: Sequence[Tuple[str, bool]]) -> List[Tuple[str, bool]]:
    """The gate names a call's flag arguments select, a pair's before each alone's
    (``Summaries.via``: the origin under both flags is the more precise)."""
    given = dict(flags)
    pairs = [(gate_name({p1: given[p1], p2: given[p2]}), True) for p1, p2 in itertools.combinations(sorted(given), 2)]
    return pairs + list(flags)


def flag_part(part: str, param: str, value: bool) -> str:
    """The key part under which a function's origins table names where it performs a
    class when a call's flag argument ``param=value`` rules its summary's origin out
    (``effects._flag_gates``; ``Summaries.via``): ``"return|commit=False"``."""
    return f"{part}|{param}={value}"


# a context-manager generator's parts at a ``with`` (semantics §Events): before its ``yield``,
# after it on the normal way out, after it on the exception way out
MANAGER_PARTS = ("entry", "exit", "exit-raise", "exit-raising")


@dataclass
class Effects:
    """One function's summary, split by how it ends (semantics §Events Summaries).

    ``on_return``: classes performed on some path ENTRY → EXIT; ``on_raise``: performed
    (and taken effect) on some path ENTRY → RAISE; ``escaping``: classes whose own
    failure can leave the function; ``when_true``/``when_false``: the classes of
    ``on_return`` performed only on paths that end in ``return True``/``return False``;
    ``contained``: no failure can leave it from outside its ``except`` clauses (every
    call and ``raise`` there is caught inside and not raised again), so a call of it
    raises into the caller's handler only the classes its handlers' own events let
    escape (``escaping``), whatever the call's own name matches (docs/decisions.md, "A
    helper's name and its escaping failures"). False where not known: every way of
    making an ``Effects`` that does not compute it. ``exhausted``: a generator's classes
    of ``on_return`` performed only after its last ``yield`` (``FunctionFacts.tail_line``):
    a ``for`` over a call of it performs them on its way out when the items run out,
    not where the call stands (docs/decisions.md, "A generator's tail").
    """

    on_return: FrozenSet[str] = frozenset()
    on_raise: FrozenSet[str] = frozenset()
    escaping: FrozenSet[str] = frozenset()
    when_true: FrozenSet[str] = frozenset()
    when_false: FrozenSet[str] = frozenset()
    contained: bool = False
    exhausted: FrozenSet[str] = frozenset()
    # a decorator's wrapper (``FunctionFacts.wrapper``): the classes of ``on_return`` it
    # performs on every way to its normal exit, which a call of a function it decorates
    # carries (docs/decisions.md "A project decorator's wrapper"); empty for any other
    always: FrozenSet[str] = frozenset()
    # what a ``True``/``False`` keyword argument takes out of the call (``Call.flags``):
    # (parameter, value, classes on return, on raise, escaping) that only walks
    # contradicting ``parameter is value`` perform (``if commit: conn.commit()`` under
    # ``commit=False``; docs/decisions.md "A flag argument")
    gated: Tuple[Tuple[str, bool, FrozenSet[str], FrozenSet[str], FrozenSet[str]], ...] = ()

    def rows(self) -> list:
        """The summary as plain JSON rows (a memo's key and its stored value)."""
        return [sorted(self.on_return), sorted(self.on_raise), sorted(self.escaping), sorted(self.when_true),
                sorted(self.when_false), self.contained, sorted(self.exhausted), sorted(self.always),
                [[p, v, sorted(r), sorted(x), sorted(e)] for p, v, r, x, e in self.gated]]

    def for_call(self, call: Call) -> "Effects":
        """What this callee does at ``call``: less what its flag arguments rule out."""
        if not self.gated or not call.flags:
            return self
        flags = dict(call.flags)
        ret: FrozenSet[str] = frozenset()
        raised: FrozenSet[str] = frozenset()
        esc: FrozenSet[str] = frozenset()
        for param, value, r, x, e in self.gated:
            if gate_holds(param, value, flags):
                ret, raised, esc = ret | r, raised | x, esc | e
        if not (ret or raised or esc):
            return self
        return dataclasses.replace(self, on_return=self.on_return - ret, on_raise=self.on_raise - raised,
                                   escaping=self.escaping - esc, when_true=self.when_true - ret,
                                   when_false=self.when_false - ret, exhausted=self.exhausted - ret, gated=())

    def part(self, name: str) -> FrozenSet[str]:
        return {
            "return": self.on_return, "raise": self.on_raise, "escape": self.escaping,
            "true": self.when_true, "false": self.when_false,
        }[name]

    @property
    def conditional(self) -> FrozenSet[str]:
        return self.when_true | self.when_false

    def union(self, other: "Effects") -> "Effects":
        return Effects(self.on_return | other.on_return, self.on_raise | other.on_raise,
                       self.escaping | other.escaping, self.when_true | other.when_true,
                       self.when_false | other.when_false, exhausted=self.exhausted | other.exhausted)


NO_EFFECTS = Effects()


@dataclass(frozen=True)
class ExitSplit:
    """What an ``__exit__`` that tests its exception does not do at one way out of
    its ``with`` (``managers.exit_view``): the classes of its on-return effects
    absent at a normal exit and at an exception exit, and the ids of its calls in
    the branches not taken at each (``self._fail()``: its override is not there either)."""

    not_normal: FrozenSet[str]
    not_raised: FrozenSet[str]
    cut_normal: FrozenSet[int]
    cut_raised: FrozenSet[int]

    def row(self) -> list:
        return [sorted(self.not_normal), sorted(self.not_raised), sorted(self.cut_normal), sorted(self.cut_raised)]

    @staticmethod
    def row_ok(row: object) -> bool:
        return (type(row) is list and len(row) == 4
                and all(type(x) is list and all(type(c) is str for c in x) for x in row[:2])
                and all(type(x) is list and all(type(c) is int for c in x) for x in row[2:]))

    @classmethod
    def from_row(cls, row: list) -> "ExitSplit":
        return cls(frozenset(row[0]), frozenset(row[1]), frozenset(row[2]), frozenset(row[3]))


@dataclass(frozen=True)
class ManagerEffects:
    """What a project context manager does at a ``with`` (semantics §Events Context managers):
    classes at the entry, at the normal exits (the body ended, returned, broke or
    continued), at the exception exit, and whether it swallows the body's exception.
    ``exit_key``: the function whose code runs at the exit (for "via")."""

    kind: str  # "generator" | "class"
    entry: FrozenSet[str]
    normal: FrozenSet[str]
    raised: FrozenSet[str]
    suppress: bool
    exit_key: str
    # a class's: the classes whose failure can leave ``__enter__`` or ``__exit__``,
    # raising out of the ``with`` (a generator's are its own call's escaping classes)
    escaping: FrozenSet[str] = frozenset()
    # a generator's: the classes of the paths that raise before its ``yield`` (what
    # the entry's failure carries: a ``finally`` around the ``yield`` runs only once
    # the body has started); None: the call's whole on-raise effects
    entry_raised: Optional[FrozenSet[str]] = None
    # a class's: the ``__enter__`` whose effects stand at the entry (for "via")
    entry_key: str = ""
    # with ``suppress``: the exception types it swallows, as ``contextlib.suppress``
    # names them (``except KeyError`` around the ``yield``; ``return issubclass(et,
    # KeyError)``); empty: every exception (docs/decisions.md, "A project manager that
    # catches a narrow type")
    catches: Tuple[str, ...] = ()
    # a generator's: what runs after the ``yield``'s normal edge only on ways that raise
    # (an inner manager's exit failed into ``except Conflict: append; raise``): its exit
    # raises having done it, so it stands on the exit's exceptional edge, as a call's
    # on-raise effects do (a review, session 48)
    normal_raised: FrozenSet[str] = frozenset()
    # a generator's: every ``yield`` stands in the body of a transaction the generator
    # enters (``with self._conn.transaction(): yield self._conn``): the ``with`` over it
    # runs its body in that transaction, so it is one (docs/decisions.md "A project
    # manager that yields inside a transaction")
    transaction: bool = False

    def key_row(self) -> list:
        """Every field, as JSON: what a memo key holds of a manager a function enters
        (the summary memo's, a file's check memo's, ``deep_digests``). All fields, so
        that a field added later cannot be left out of one key (a review found
        ``escaping`` and ``entry_raised`` missing from them: a warm run kept a stale
        summary)."""
        out: list = []
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out.append(sorted(v) if isinstance(v, frozenset) else list(v) if isinstance(v, tuple) else v)
        return out

    @classmethod
    def from_row(cls, row: list) -> "ManagerEffects":
        """``key_row`` read back (a summary memo's manager payload): every field, so a
        warm run's manager is the cold run's (held-out set 298: the memo kept nine
        fields by hand and lost ``transaction``, so a one-file run read a manager that
        yields inside ``transaction.atomic()`` as none)."""
        values = []
        for f, v in zip(dataclasses.fields(cls), row):
            typ = str(f.type)
            if v is not None and "FrozenSet" in typ:
                v = frozenset(v)
            elif v is not None and "Tuple" in typ:
                v = tuple(v)
            values.append(v)
        return cls(*values)

    @classmethod
    def row_ok(cls, row: object) -> bool:
        """Whether ``row`` has the shape of a ``key_row`` (a memo read back is checked
        before it is trusted): one value per field, of the field's type."""
        fields = dataclasses.fields(cls)
        if type(row) is not list or len(row) != len(fields):
            return False
        for f, v in zip(fields, row):
            typ = str(f.type)
            if v is None and typ.startswith("Optional"):
                continue
            if "FrozenSet" in typ or "Tuple" in typ:
                if type(v) is not list or not all(type(c) is str for c in v):
                    return False
            elif typ == "bool":
                if type(v) is not bool:
                    return False
            elif typ == "str":
                if type(v) is not str:
                    return False
            else:
                return False  # (a field of a type this reading does not know: add it here)
        return True

    @property
    def catch(self) -> Union[bool, Tuple[str, ...]]:
        """What it swallows, as ``cfg.build``'s ``is_suppressor`` says it (``cfg.Catch``)."""
        if not self.suppress:
            return False
        return self.catches or True


def async_key(class_key: str) -> str:
    """Where ``Summaries.managers`` keeps a class's effects at an ``async with`` when
    they differ from those at a ``with`` (its ``__aenter__``/``__aexit__`` are other
    methods than its ``__enter__``/``__exit__``)."""
    return class_key + " async"


@dataclass
class ProjectIndex:
    functions: Dict[str, Tuple[FileFacts, FunctionFacts]] = field(default_factory=dict)
    classes: Dict[str, ClassFacts] = field(default_factory=dict)
    files: Dict[str, FileFacts] = field(default_factory=dict)  # by shown path
    modules: Dict[str, FileFacts] = field(default_factory=dict)  # by module name; first file wins
    # a module name files in different source roots share (two projects' `customers`
    # packages side by side): every file of it; ``module`` picks the importer's own
    clashes: Dict[str, List[FileFacts]] = field(default_factory=dict)
    _clash_roots: Tuple[str, ...] = ()  # the source roots of those files, longest first
    _near: Optional[str] = None  # the root of the file whose names are being resolved
    _memos_by_root: Dict[Optional[str], Dict[str, dict]] = field(default_factory=dict)
    _root_of: Dict[str, Optional[str]] = field(default_factory=dict)  # (``enter_file``'s, by path)
    _near_path: Optional[str] = None  # (that file's path)
    _app_modules: Optional[Dict[str, List[str]]] = None  # Django apps' models modules by label (``_app_model``)
    _reexports: Dict[Optional[str], Dict[str, List[str]]] = field(default_factory=dict)  # ``_reexported``'s, per root
    _mro: Dict[str, List[str]] = field(default_factory=dict)
    _outside: Dict[str, Optional[str]] = field(default_factory=dict)  # ``outside_name``'s answers
    _defined: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # ``defined_names``' answers
    _head_set: Optional[FrozenSet[str]] = None
    _inherited: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # ``inherited_names``'s bases
    _truthy: Dict[str, bool] = field(default_factory=dict)  # ``always_truthy``'s answers
    _mixin_super: Dict[Tuple[str, str], Optional[str]] = field(default_factory=dict)  # ``mixin_super``'s answers
    _combiners: Optional[Dict[str, List[str]]] = None  # ``combiners``
    _plain: Dict[str, bool] = field(default_factory=dict)  # ``_plain_class``'s answers
    _after_memo: Dict[Tuple[str, Optional[str]], bool] = field(default_factory=dict)  # ``_library_after``'s
    _runners: Optional[FrozenSet[str]] = None  # ``handed_ref``: the names of functions that run their first parameter
    _starred: Dict[Tuple[str, str], Optional[str]] = field(default_factory=dict)  # ``star_key``'s answers
    _star_names: Dict[Tuple[str, str], Optional[str]] = field(default_factory=dict)  # ``star_name``'s answers
    _rebound: Optional[FrozenSet[str]] = None  # ``rebound_keys``
    # the project names ``swallow_types_for`` was asked about while one file is checked,
    # with its answers (set by the runner around ``check_file``; None: not noted)
    swallow_asked: Optional[Dict[str, bool]] = None

    @classmethod
    def of(cls, files: Iterable[FileFacts]) -> "ProjectIndex":
        idx = cls()
        for f in files:
            if f.error is not None:
                continue
            idx.files[f.path] = f
            held = idx.modules.get(f.module)
            if held is None or (_is_package_file(f.path) and not _is_package_file(held.path)):
                # a regular package wins over a module file of its name (`a/b/__init__.py`
                # over `a/b.py`), as Python's import finds it (held-out set 262)
                idx.modules[f.module] = f
            if held is not None and source_root(held) != source_root(f):
                idx.clashes.setdefault(f.module, [held]).append(f)
            for fn in f.functions:
                key = fkey(f.path, fn.qualname)
                if not fn.superseded or key not in idx.functions:  # (the live `def` of a name)
                    idx.functions[key] = (f, fn)
            for c in f.classes:
                idx.classes[fkey(f.path, c.qualname)] = c
        for f in idx.files.values():  # other import names never shadow a module name
            for alias in f.module_aliases:
                idx.modules.setdefault(alias, f)
        if idx.clashes:
            idx._clash_roots = tuple(sorted({source_root(f) for fs in idx.clashes.values() for f in fs},
                                            key=lambda r: (-len(r), r)))
            for name in _FILE_METHODS:  # (only then: no cost for a project without clashes)
                setattr(idx, name, _in_file(idx, getattr(idx, name)))
        return idx

    def module(self, name: str) -> Optional[FileFacts]:
        """The project file of a module name, as the file being resolved imports it:
        of two source roots with a package of one name (``ex1/customers``,
        ``ex2/customers``, side by side in a monorepo or a package's examples), the one
        that holds the importer, else the first found (held-out set 288,
        django-tenants' four ``customers`` packages)."""
        held = self.modules.get(name)
        if held is None or self._near is None or name not in self.clashes:
            return held
        mine = [f for f in self.clashes[name] if source_root(f) == self._near]
        if not mine or held in mine:
            return held
        return next((f for f in mine if _is_package_file(f.path)), mine[0])

    def _path_of(self, name: str) -> str:
        found = self.module(name)
        return found.path if found is not None else ""

    def enter_file(self, path: Optional[str]) -> None:
        """Resolve names as the file at ``path`` sees them (``module``). The memos of
        answers by name are kept per source root, since a clashing name answers
        differently in each."""
        if path is None:
            root = None
        elif path in self._root_of:
            root = self._root_of[path]
        else:
            full = _absolute(path)
            root = self._root_of[path] = next((r for r in self._clash_roots if full.startswith(r + "/")), None)
        if root == self._near:
            return
        kept = self._memos_by_root.setdefault(self._near, {})
        for name in _NAME_MEMOS:
            kept[name] = getattr(self, name)
        self._near = root
        for name, value in self._memos_by_root.get(root, {}).items():
            setattr(self, name, value)
        if root not in self._memos_by_root:
            for name in _NAME_MEMOS:
                setattr(self, name, {})

    # ---- resolution

    def rebound_keys(self) -> FrozenSet[str]:
        """The keys of the project's module-level functions that some project file
        replaces by assigning its module's attribute (``FileFacts.rebinds``:
        ``dipdup.models.get_pending_updates = lambda: q``): a placeholder that raises
        until it is replaced is no dead end where it is called (held-out set 447;
        docs/decisions.md "A helper that never returns")."""
        if self._rebound is None:
            found: Set[str] = set()
            # (told below the folders every file shares, as `suggest` tells them:
            # `ordercheck tests/proj` from the folder above; a second review)
            rebinding = [f for f in self.files.values() if f.rebinds]
            tests = test_code(list(self.files)) if rebinding else set()
            for f in rebinding:
                if f.path in tests:
                    continue  # (a test's stand-in, `monkeypatch`ed by hand: production still raises)
                for text in f.rebinds:
                    head, _, rest = text.partition(".")
                    full = f.imports.get(head)
                    if full is None or not rest:
                        continue
                    self.enter_file(f.path)
                    target = f"{full}.{rest}"
                    key = self.resolve_qualified(target)
                    # (only the module that defines it: `pkg.api.f = ...` where `pkg.api`
                    # imports `f` from `pkg.models` replaces `api`'s binding; a review)
                    home = self.module(target.rpartition(".")[0])
                    if (key is not None and key in self.functions and self.functions[key][1].class_name is None
                            and home is not None and split_key(key)[0] == home.path):
                        found.add(key)
            self.enter_file(None)
            self._rebound = frozenset(found)
        return self._rebound

    def plain_coroutine(self, key: str) -> bool:
        """Whether calling the function only makes a coroutine: every definition of
        the key in its file is an ``async def`` whose decorators keep it one
        (``KEEPS_COROUTINE``). Any other decorator may return a function that runs the
        coroutine itself (prefect's ``@sync_compatible``), so it is not known."""
        row = self.functions.get(key)
        if row is None or not (row[1].is_async or row[1].decorators):  # (one look for the common case: a `def`)
            return False
        qual = split_key(key)[1]
        return all((fn.is_async or any(self._async_wrapper(row[0], fn, d) for d in fn.decorators))
                   and not fn.rebound and all(d in KEEPS_COROUTINE or self._async_wrapper(row[0], fn, d)
                                              for d in fn.decorators)
                   for fn in row[0].functions if fn.qualname == qual and not fn.superseded)

    def _async_wrapper(self, facts: FileFacts, fn: FunctionFacts, name: str) -> bool:
        """Whether the decorator ``name`` puts an ``async def`` wrapper around ``fn``: a
        call of the function still only makes a coroutine (a review of session 58)."""
        wrapper = self.decorator_wrapper(facts, fn, name)
        return wrapper is not None and self.functions[wrapper][1].is_async

    def handed_ref(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Optional[Call]:
        """The call of the callable handed to a project helper that runs its first
        parameter (``FunctionFacts.runs_param``): ``self._run_safely(os.replace, tmp,
        dst)`` runs ``os.replace`` there (docs/decisions.md "A callable handed to a
        project helper"): the call matches as it too. The callable's text read as a
        call's callee would be: import-qualified through the module's imports,
        ``self``/``cls`` as written in a method, a parameter's name as the function's
        own. None for any other call, and for a helper's coroutine made and dropped."""
        if call.ref is None or call.aug:
            return None
        runners = self._runners
        if runners is None:
            runners = self._runners = frozenset(fn.name for _, fn in self.functions.values() if fn.runs_param)
        if call.callee.rsplit(".", 1)[-1] not in runners:
            return None
        target = self.callee_key(facts, fn, call)
        if target is None or not self.functions[target][1].runs_param or self.drops(call, target):
            return None  # (an `async def` helper called and not awaited runs nothing: a review)
        text = call.ref
        head, _, rest = text.partition(".")
        own = head in ("self", "cls") and fn.class_name is not None and fn.params[:1] == (head,)
        qualified = facts.imports.get(head) if not own and head not in fn.params else None
        qualnames: Tuple[str, ...] = (f"{qualified}.{rest}" if rest else qualified,) if qualified else ()
        qualnames += tuple(q for q in call.ref_names if q not in qualnames)
        return Call(call.id, text, qualnames, call.span, call.text, call.stmt_lines,
                    self_call=head if own else None, local_head=1 if head in fn.params and not own else 0,
                    awaited=call.awaited, receiver_type=call.ref_type)

    def drops(self, call: Call, key: Optional[str]) -> bool:
        """Whether ``call`` of the function ``key`` makes a coroutine and drops it
        unrun: a statement by itself, not awaited (``Call.discarded``), of a plain
        ``async def`` (semantics §Summaries, "a coroutine dropped unrun")."""
        return key is not None and call.discarded and not call.awaited and self.plain_coroutine(key)

    def bases(self, key: str) -> List[str]:
        """The project base classes of a class key, in order (others are opaque)."""
        cls = self.classes.get(key)
        if cls is None:
            return []
        facts = self.files[split_key(key)[0]]
        out: List[str] = []
        for base in cls.bases:
            target = self.class_key(facts, base)
            if target is None and "." in base:  # a qualified name only (``imports.SHADOWED``)
                found = self.resolve_qualified(base)
                target = found if found in self.classes else None
            if target is not None and target != key and target not in out:
                out.append(target)
        return out

    def mro(self, key: str) -> List[str]:
        """Python's C3 linearisation over project classes (depth-first, left to right
        where the bases are inconsistent, as a linter must not fail). Bases first, by
        an explicit stack: a chain of a thousand classes is no recursion; a base that
        is its own ancestor (bad code) stands for itself alone."""
        if key in self._mro:
            return self._mro[key]
        on_path: set = set()
        stack: List[Tuple[str, bool]] = [(key, False)]
        while stack:
            k, bases_done = stack.pop()
            if k in self._mro:
                continue
            if not bases_done:
                if k in on_path:
                    continue
                on_path.add(k)
                stack.append((k, True))
                stack.extend((b, False) for b in reversed(self.bases(k)) if b not in self._mro and b not in on_path)
                continue
            on_path.discard(k)
            self._mro[k] = self._linearise(k)
        return self._mro[key]

    def _linearise(self, key: str) -> List[str]:
        """C3 over the bases' linearisations (a base still being linearised, on a
        cycle, is itself alone). How often each class stands in a sequence's tail is
        counted, so a merge step costs one look at each sequence's head: linear in
        the result, and a long chain of classes quadratic overall, not cubic."""
        bases = self.bases(key)
        seqs = [deque(self._mro.get(b, [b])) for b in bases] + [deque(bases)]
        seqs = [q for q in seqs if q]
        tails: Dict[str, int] = {}
        for q in seqs:
            for x in itertools.islice(q, 1, None):
                tails[x] = tails.get(x, 0) + 1
        out = [key]
        while seqs:
            head = next((q[0] for q in seqs if not tails.get(q[0])), None)
            if head is None:  # inconsistent: fall back to depth-first order
                seen = set(out)
                for q in seqs:
                    for x in q:
                        if x not in seen:
                            seen.add(x)
                            out.append(x)
                break
            out.append(head)
            for q in seqs:
                if q[0] == head:
                    q.popleft()
                    if q:
                        tails[q[0]] -= 1
            seqs = [q for q in seqs if q]
        return out

    def method(self, class_key: str, name: str, skip_self: bool = False) -> Optional[str]:
        """``name`` looked up along the class's MRO over project classes."""
        for k in self.mro(class_key)[1 if skip_self else 0 :]:
            cls = self.classes.get(k)
            if cls is not None and name in cls.methods:
                path, qual = split_key(k)
                return fkey(path, f"{qual}.{name}")
        return None

    def member(self, class_key: str, name: str, skip_self: bool = False) -> Optional[str]:
        """The function ``x.name`` runs on an instance of the class: the first class of
        the MRO that binds ``name`` decides, by a method or by a class-level alias
        (``sync = commit`` in a subclass comes before a base's ``def sync``); a binding
        to anything else there (``sync = print``, ``sync = None``) runs no project
        function (two reviews, session 47)."""
        for k in self.mro(class_key)[1 if skip_self else 0 :]:
            cls = self.classes.get(k)
            if cls is None:
                continue
            if name in cls.methods:
                path, qual = split_key(k)
                return fkey(path, f"{qual}.{name}")
            for alias in cls.aliases:
                if alias[0] == name:
                    return self._alias_function(k, alias) if len(alias) > 1 else None
        return None

    def mixin_super(self, owner: str, name: str) -> Optional[str]:
        """``super().name()`` in a mixin: a class whose own MRO binds ``name`` nowhere after
        it (its bases are project classes or plain ones: ``object``, ``ABC``,
        ``Generic[T]``, ``Protocol``) runs what comes after it in the MRO of the project
        class that combines it (``class Proc(DeferrableMixin, CSVProcessor)``). The
        function is taken when every project class combining the mixin finds the same
        one. One whose MRO holds a class from outside the project that is not plain
        (``P(Mixin, lib.Base, Defaults)``: the library's class may come first) finds an
        unknown, and ``object``'s own methods (``__init__``) are a target of their own:
        either leaves the call unresolved, as do classes that disagree. A class that
        finds nothing at all (another mixin, ``class Outer(Inner): pass``) cannot run
        the call, and is not asked (docs/decisions.md, "``super()`` in a mixin")."""
        memo = (owner, name)
        if memo in self._mixin_super:
            return self._mixin_super[memo]
        found: Optional[str] = None
        own = self.mro(owner)
        if self._plain_mro(own) and not any(self._binds(k, name) for k in own[1:]):
            targets: Set[Optional[str]] = set()
            for k in self.combiners().get(owner, ()):
                order = self.mro(k)
                at = next((i for i in range(order.index(owner) + 1, len(order)) if self._binds(order[i], name)), None)
                if not self._plain_before(order, at):
                    targets.add(None)  # (an unknown: a library class may bind it first)
                elif at is not None:
                    targets.add(self.member(order[at], name))
                elif name in _OBJECT_NAMES:
                    targets.add(None)  # `object.__init__`: no project function
                if len(targets) > 1:
                    break
            found = next(iter(targets)) if len(targets) == 1 else None
        self._mixin_super[memo] = found
        return found

    def combiners(self) -> Dict[str, List[str]]:
        """By class key, the other project classes whose MRO holds it (computed once:
        each class's MRO read once, however many ``super()`` calls ask)."""
        if self._combiners is None:
            out: Dict[str, List[str]] = {}
            for k in self.classes:
                for c in self.mro(k)[1:]:
                    out.setdefault(c, []).append(k)
            self._combiners = out
        return self._combiners

    def _plain_mro(self, order: Sequence[str]) -> bool:
        """Every base from outside the project of the classes ``order`` names is plain
        (``_MIXIN_PLAIN``): the project MRO is the whole MRO, as far as methods go."""
        return all(self._plain_class(k) for k in order)

    def _plain_before(self, order: Sequence[str], at: Optional[int]) -> bool:
        """No class from outside the project that is not plain can come before
        ``order[at]`` (the binder; None: none) in the MRO ``order`` of project classes.
        A library base comes after its own class, and after the bases listed before it
        (C3's local order): only one of a class before the binder, listed before any
        base that leads to the binder, may (two reviews: `P(Mixin, lib.Base,
        Defaults)` may run the library's method; `P(Mixin, Defaults, Thread)` and a
        binder that is a `models.Model` do not)."""
        binder = order[at] if at is not None else None
        return all(self._plain_class(c) or self._library_after(c, binder) for c in order[:at])

    def _library_after(self, key: str, binder: Optional[str]) -> bool:
        """Every base of ``key`` from outside the project that is not plain comes after
        ``binder`` in C3's order: a base listed before it leads to the binder and none
        listed after it does (in a diamond, `P(CSV, Connection, JSON)` with `CSV(Base)`
        and `JSON(Base)`, `Base` comes after `JSON`, so after `Connection`: a third
        review). Answers kept per (class, binder)."""
        memo = (key, binder)
        got = self._after_memo.get(memo)
        if got is not None:
            return got
        facts = self.files[split_key(key)[0]]
        leads: List[Optional[bool]] = []  # per base: None a library's not plain, else whether it leads to the binder
        for b in self.classes[key].bases:
            target = self.class_key(facts, b) or (self.resolve_qualified(b) if "." in b else None)
            if target is None or target not in self.classes:
                leads.append(False if b.split("[", 1)[0] in _MIXIN_PLAIN else None)
            else:
                leads.append(binder is not None and (target == binder or binder in self.mro(target)))
        got = all(any(leads[:i]) and not any(leads[i + 1:]) for i, lead in enumerate(leads) if lead is None)
        self._after_memo[memo] = got
        return got

    def _plain_class(self, key: str) -> bool:
        """The class's bases from outside the project are plain ones (once per class:
        a review timed a 1,500-deep chain asking it of every class again)."""
        got = self._plain.get(key)
        if got is None:
            cls = self.classes.get(key)
            got = self._plain[key] = cls is not None and all(
                b.split("[", 1)[0] in _MIXIN_PLAIN for b in cls.bases if self._base_outside(key, b))
        return got

    def _binds(self, class_key: str, name: str) -> bool:
        """The class binds ``name`` itself, by a method or a class-level alias."""
        cls = self.classes.get(class_key)
        return cls is not None and (name in cls.methods or any(a[0] == name for a in cls.aliases))

    def inherited_alias(self, class_key: str, name: str, skip_self: bool = False) -> Optional[Tuple[str, Tuple[str, ...]]]:
        """(the class key, its alias entry) of the class-level alias ``name`` that
        ``self.name`` finds along the class's MRO, or None when a method of that name
        comes first or no class has one: Python looks ``self.warn`` up as it looks up a
        method, so ``warn = logger.warning`` in a base is the subclass's too (semantics
        §Events, Aliases). Any other class-level binding of the name comes first too
        (``warn = None`` in a middle class: an entry of the name alone). ``skip_self``:
        from the class after it (``super().warn(...)``)."""
        for k in self.mro(class_key)[1 if skip_self else 0 :]:
            cls = self.classes.get(k)
            if cls is None:
                continue
            if name in cls.methods:
                return None
            for alias in cls.aliases:
                if alias[0] == name:
                    return (k, alias) if len(alias) > 1 else None
        return None

    def typed_alias_names(self, class_key: str, name: str) -> List[str]:
        """What ``log.log_event(...)`` matches as, ``log`` of the class ``class_key``,
        when ``log_event`` is a class-level alias along its MRO (``inherited_alias``): a
        method's (``log_event = record``) as the class's ``record`` (``pkg.RunLog.record``
        and its bases' names), anything else's as the aliased text and its qualified
        names (``warn = logger.warning``), as ``self.log_event(...)`` matches as
        ``self.record`` (held-out set 333: the typed receiver matched neither)."""
        got = self.inherited_alias(class_key, name)
        if got is None:
            return []
        owner, text = got[0], got[1][1]
        if text.startswith("self.") and text.count(".") == 1:
            # (the function the class that binds the alias sees: `log_event = record` in
            # `RunLog` is `RunLog.record`, whatever a subclass overrides; a review)
            target = text[len("self."):]
            return [f"{q}.{target}" for q in self.class_qualnames(owner)] + list(
                self.inherited_names(owner, target))
        return list(got[1][1:])

    def _alias_function(self, k: str, alias: Tuple[str, ...]) -> Optional[str]:
        """The project function the class ``k``'s alias entry stands for, or None."""
        if alias[1].startswith("self.") and alias[1].count(".") == 1:  # `persist = _save`
            return self.method(k, alias[1][len("self."):])
        facts = self.files.get(split_key(k)[0])
        key = self.resolve_name(facts, alias[1]) if facts is not None else None
        for q in alias[2:]:
            if key is None:
                key = self.resolve_qualified(q)
        return self._callable(key) if key is not None else None

    def class_key(self, facts: FileFacts, name: str) -> Optional[str]:
        """A class named in a file (by local name, dotted import, or full name), or
        bound by one of its star imports (``from .services import *`` then
        ``audit: AuditService``; held-out set 192, a fault: a constructor call of it
        resolved, its instances' methods did not)."""
        key = self.resolve_name(facts, name)
        if key is None and name.isidentifier():
            key = self.star_key(facts, name)
        if key is None and name.count(".") == 2 and name.split(".")[1] == APP_MODELS:
            key = self._app_model(facts, name)
        return key if key in self.classes else None

    def _django_model(self, key: str) -> bool:
        """Whether a project class is a Django model: a class of its MRO names a base
        from outside the project that ends in ``Model`` (``models.Model``,
        ``django.db.models.Model``, a library's ``TimeStampedModel``). A plain class
        with an ``objects`` attribute is not (session 64's second review)."""
        for k in self.mro(key):
            cls = self.classes.get(k)
            if cls is not None and any(b.rsplit(".", 1)[-1].endswith("Model") and self.class_key(
                    self.files[split_key(k)[0]], b) is None for b in cls.bases):
                return True
        return False

    def _app_model(self, facts: FileFacts, name: str) -> Optional[str]:
        """A relation field's ``"label.Model"`` (``scopes._related_model``: typed
        ``label.models.Model``): the class of that name in the one project module
        ``label.models`` or ``*.label.models`` (an app's label is its package's last
        name), else of that name in this file, as a bare string names one."""
        label, _, model = name.split(".")
        if self._app_modules is None:
            self._app_modules = {}
            for m in self.modules:
                parts = m.split(".")
                if len(parts) >= 2 and parts[-1] == APP_MODELS:
                    self._app_modules.setdefault(parts[-2], []).append(m)
        found = {k for k in (self.resolve_qualified(f"{m}.{model}") for m in self._app_modules.get(label, ()))
                 if k in self.classes}
        if not found and model.islower():  # `"app.model"`: the class whose name lower-cased is it
            for m in self._app_modules.get(label, ()):
                source = self.module(m)
                if source is None:
                    continue
                names = {c.qualname for c in source.classes} | set(source.imports)  # (a `models/` package's too)
                found |= {k for k in (self.resolve_qualified(f"{m}.{n}") for n in names if n.lower() == model)
                          if k in self.classes}
        if len(found) == 1:
            return found.pop()
        return self.class_key(facts, model)  # (none, or two apps of one label: as before)

    def imported_statement(self, facts: FileFacts, lead_import: str) -> Optional[str]:
        """The string ``Call.lead_import`` names: a module's constant by its qualified
        name, or a plain name the file's star imports bind (``STAR_LEAD``: of the one
        star module that binds it to a string; of two, Python keeps the later, an order
        the facts do not keep: neither)."""
        if not lead_import.startswith(STAR_LEAD):
            return self.module_string(lead_import)
        name = lead_import[len(STAR_LEAD):]
        found = [self.module_string(f"{star}.{name}") for star in facts.star_imports
                 if star in self.modules and self.star_binds(star, name)]
        texts = [t for t in found if t is not None]
        return texts[0] if len(texts) == 1 else None

    def module_string(self, full: str, depth: int = 0) -> Optional[str]:
        """The string constant a project module binds once at its top to the name
        ``full`` (``app.queries.INSERT_EVENT``), through the imports that re-export it
        (``Call.lead_import``; a package ``__init__``'s ``from .queries import *`` is
        not followed); None for anything else."""
        mod, _, name = full.rpartition(".")
        facts = self.module(mod) if mod and depth <= 8 else None
        if facts is None:
            return None
        if name in facts.strings:
            return facts.strings[name]  # (None: imported and bound again there)
        target = facts.imports.get(name)
        return self.module_string(target, depth + 1) if target is not None and target != full else None

    def resolve_qualified(self, full: str, depth: int = 0,
                          starred: Optional[Dict[Tuple[str, str], int]] = None) -> Optional[str]:
        """``pkg.store.save_run`` → the function or class key it names. ``starred``:
        the (module, name) pairs a star import already sent this lookup to, with the
        least depth it did: a star keeps the name it looks for, so a second visit finds
        nothing new unless it comes with more depth left (held-out set 47: fourteen star
        imports in a package ``__init__`` cost N^8 lookups per unknown name)."""
        if depth > 8 or not full:
            return None
        parts = full.split(".")
        for i in range(len(parts) - 1, 0, -1):
            mod, rest = ".".join(parts[:i]), parts[i:]
            facts = self.module(mod)
            if facts is None:
                continue
            # a re-export (from a package ``__init__``, a compat shim): an import still
            # in the module's table is what the name holds, before an ``except
            # ImportError:`` fallback's definition (``resolve_name``; docs/decisions.md,
            # "A definition after an import")
            if rest[0] in facts.imports:
                return self.resolve_qualified(".".join([facts.imports[rest[0]]] + rest[1:]), depth + 1, starred)
            key = fkey(facts.path, ".".join(rest))
            if key in self.functions or key in self.classes:
                return key
            if rest[0] in facts.aliases:  # a module-level alias (`keep = persist`), imported
                return self._resolve_alias(facts, ".".join([facts.aliases[rest[0]]] + rest[1:]), depth + 1)
            name = ".".join(rest)
            for star in facts.star_imports:  # a re-export by `from .helpers import *`
                # (a module outside the project: its names are not known here)
                if star not in self.modules or not self.star_binds(star, rest[0]):
                    continue
                if starred is None:
                    starred = {}
                if starred.get((star, name), depth + 2) <= depth + 1:
                    continue
                starred[(star, name)] = depth + 1
                found = self.resolve_qualified(f"{star}.{name}", depth + 1, starred)
                if found:
                    return found
            if i > 1 and self._rebound_by_package(parts[:i - 1], parts[i - 1], mod):
                # `pkg/svc/__init__.py` holds `from .service import service`: the
                # package's attribute `service` is the instance, no longer the
                # submodule, so `pkg.svc.service.record` is the instance's method
                # (held-out set 271, django-referral-system's `services/__init__.py`)
                continue
            return None
        return None

    def _rebound_module(self, module: str) -> bool:
        """Whether the name of the submodule ``module`` is bound by its package's
        ``__init__`` to something else (``_rebound_by_package``)."""
        package, _, name = module.rpartition(".")
        return bool(package) and self._rebound_by_package(package.split("."), name, module)

    def _rebound_by_package(self, package: List[str], name: str, module: str) -> bool:
        """Whether the package ``package`` binds ``name`` by an import of something
        other than its submodule ``module`` (``from .service import service``)."""
        facts = self.module(".".join(package))
        target = facts.imports.get(name) if facts is not None else None
        return target is not None and target != module

    def star_binds(self, module: str, name: str) -> bool:
        """``from module import *`` binds ``name``: the module's ``__all__`` lists it,
        or, without one, the name has no leading underscore (Python's rule; a module
        outside the project binds nothing known here)."""
        facts = self.module(module)
        if facts is None:
            return False
        if facts.exports is not None:
            return name in facts.exports
        return not name.startswith("_")

    def _resolve_alias(self, facts: FileFacts, dotted: str, depth: int) -> Optional[str]:
        """An alias's dotted name, as written in ``facts``' module. An instance's
        (``RunStore()``, a module variable of that class: ``scopes.module_aliases``)
        attribute is its class's; the instance itself called is not known here."""
        if "()" in dotted:
            cls, _, rest = dotted.partition("()")
            if not rest.startswith("."):
                return None
            dotted = cls + rest
        parts = dotted.split(".")
        key = fkey(facts.path, dotted)
        if key in self.functions or key in self.classes:
            return key
        if parts[0] in facts.imports:
            return self.resolve_qualified(".".join([facts.imports[parts[0]]] + parts[1:]), depth)
        if parts[0] in facts.aliases and depth <= 8:
            return self._resolve_alias(facts, ".".join([facts.aliases[parts[0]]] + parts[1:]), depth + 1)
        return None

    def resolve_name(self, facts: FileFacts, dotted: str) -> Optional[str]:
        """A dotted name as written in ``facts``' module."""
        parts = dotted.split(".")
        if parts[0] in facts.imports:
            # the import is what runs: a later ``def``/``class`` of the name took it out of
            # the table, so one still there came after the module's own definition or is
            # tried first, before an ``except ImportError:`` fallback (docs/decisions.md,
            # "A definition after an import")
            return self.resolve_qualified(".".join([facts.imports[parts[0]]] + parts[1:]))
        key = fkey(facts.path, dotted)
        if key in self.functions or key in self.classes:
            return key
        return None  # a dotted name nobody imported is not a project module (`audit.record`)

    def always_truthy(self, facts: FileFacts, written: str) -> bool:
        """An instance of the project class ``written`` names is truthy: the class, its
        project bases and its project subclasses define no ``__bool__`` or ``__len__``,
        and every base is a project class or ``object``-like (a library base, a
        ``NamedTuple``, an ``Enum`` may define them). What ``job: Job | None`` can be is
        then None or truthy, never falsy (docs/decisions.md, "Facts as value sets")."""
        key = self.class_key(facts, written) or self.resolve_qualified(written)
        if key is None or key not in self.classes:
            return False
        if key not in self._truthy:
            family = set(self.mro(key)) | {k for k in self.classes if key in self.mro(k)}
            self._truthy[key] = all(
                not self.classes[k].truth and not {"__bool__", "__len__"} & set(self.classes[k].methods)
                and all(b in _PLAIN_BASES for b in self.classes[k].bases if self._base_outside(k, b))
                for k in family)
        return self._truthy[key]

    def _base_outside(self, key: str, base: str) -> bool:
        """``base`` (as written in the class ``key``) is no project class."""
        facts = self.files[split_key(key)[0]]
        target = self.class_key(facts, base) or (self.resolve_qualified(base) if "." in base else None)
        return target is None or target not in self.classes

    def class_called_on(self, facts: FileFacts, call: Call) -> Optional[str]:
        """``SubLock`` of ``SubLock.at(path)``: the project class a method is called on
        by its name, or None."""
        parts = call.callee.split(".")
        if len(parts) < 2 or "(" in call.callee or call.self_call is not None:
            return None
        found = self.class_key(facts, ".".join(parts[:-1])) or self.resolve_name(facts, ".".join(parts[:-1]))
        return found if found in self.classes else None

    def returned_class(self, key: str, called_on: Optional[str] = None) -> Optional[str]:
        """The project class a function's return annotation names, or None. ``-> Self``
        (or ``return cls()``) is the class the method is called on (``called_on``,
        ``SubLock.at()``), else the one that defines it."""
        facts, fn = self.functions[key]
        if fn.returns is None:
            return None
        if fn.returns.rsplit(".", 1)[-1] == "Self":  # `-> Self`, `return cls()`: its own class
            return called_on or self.owner_class(facts, fn)
        found = self.class_key(facts, fn.returns) or self.resolve_qualified(fn.returns)
        return found if found in self.classes else None

    def wrappers_of(self, facts: FileFacts, fn: FunctionFacts) -> Tuple[str, ...]:
        """The keys of the wrappers a function's project decorators put around it
        (``FunctionFacts.wrapper``): ``@action`` over ``def action(fn): def g(self, *a):
        fn(self, *a); self._add_update(...); return g`` runs ``g`` at each call of the
        method, its own body where ``g`` calls ``fn`` (docs/decisions.md "A project
        decorator's wrapper")."""
        found = (self.decorator_wrapper(facts, fn, name) for name in fn.decorators)
        return tuple(dict.fromkeys(w for w in found if w is not None))

    def decorator_wrapper(self, facts: FileFacts, fn: FunctionFacts, name: str) -> Optional[str]:
        """The key of the wrapper the decorator ``name`` (one spelling of it:
        ``FunctionFacts.decorators``) puts around ``fn``, or None. A decorator is
        resolved as written where the ``def`` stands: a function of the class body, the
        module's own (``Helpers.appending`` too), an import, a star import's."""
        key = None
        if fn.class_name is not None and "." not in name:
            own = fkey(facts.path, f"{fn.class_name}.{name}")
            key = own if own in self.functions else None
        if key is None:
            key = self.resolve_name(facts, name)
        if key is None and "." in name:
            key = self.resolve_qualified(name)
        if key is None and name.isidentifier():
            key = self.star_key(facts, name)
        row = self.functions.get(key) if key is not None else None
        if row is None or row[1].wrapper is None:
            return None
        wrapper = fkey(row[0].path, row[1].wrapper)
        return wrapper if wrapper in self.functions else None

    def star_name(self, facts: FileFacts, call: Call) -> Optional[str]:
        """The qualified name a plain-name call has through the file's star imports
        (`log_operation(...)` of `from ._util import *`: `pkg._util.log_operation`;
        held-out set 436, flaskz), as Python finds it: the one star that binds the
        name, of a project module that defines or re-exports it (a built-in, a
        library's name, `print`, is none); none for a name the file binds itself (its
        own `def`, an import, an assignment: ``Call.qualnames``, ``Call.local_head``,
        the module's own functions and classes; the second review)."""
        name = call.callee
        if call.qualnames or call.local_head or not facts.star_imports or not name.isidentifier():
            return None
        if (facts.path, name) in self._star_names:
            return self._star_names[(facts.path, name)]
        answer: Optional[str] = None
        if not (name in facts.imports or name in facts.aliases
                or any(fn.qualname == name for fn in facts.functions)
                or any(c.qualname == name for c in facts.classes)):
            # (a module that lacks the name binds nothing; of two stars that both bind it,
            # the later in the file wins, an order the facts do not keep: then neither)
            found = [f"{star}.{name}" for star in facts.star_imports if star in self.modules
                     and self.star_binds(star, name) and self.resolve_qualified(f"{star}.{name}")]
            answer = found[0] if len(found) == 1 else None
        self._star_names[(facts.path, name)] = answer
        return answer

    def star_key(self, facts: FileFacts, name: str) -> Optional[str]:
        """The function or class key a plain name of ``facts`` is bound to by one of its
        star imports (what the module's ``__all__`` lists, or its public names)."""
        if not facts.star_imports:
            return None
        if (facts.path, name) not in self._starred:
            self._starred[(facts.path, name)] = next(
                (k for k in (self.resolve_qualified(f"{s}.{name}") for s in facts.star_imports
                             if self.star_binds(s, name)) if k), None)
        return self._starred[(facts.path, name)]

    def returned_manager(self, key: str) -> Optional[str]:
        """The project ``@contextmanager`` generator a function hands on: its body is
        one ``return`` of a call of it (``def connect(self): return
        self.meta_store.connect()``), a docstring aside. ``with driver.connect():``
        then enters that generator, its code after the ``yield`` at the ``with``'s exit
        (held-out set 149, terracotta's driver; docs/decisions.md "A function that
        hands on a context manager"). Anything else the function does would be lost at
        the entry, so any other statement, or a call in the return's arguments, gives
        None."""
        facts, fn = self.functions[key]
        call = fn.handed  # (kept by a stub: the factory's file may be one)
        if call is None:
            return None
        target = self.callee_key(facts, fn, call)
        if target is None or target not in self.functions or not self.functions[target][1].context_manager:
            return None
        return target

    def property_class(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Optional[str]:
        """For ``with self.x:`` (``self.x.__enter__``) where ``x`` is a property of the
        class (along its MRO): the project class its getter's annotation returns."""
        parts = call.callee.split(".")
        if len(parts) != 3 or call.self_call not in ("self", "cls") or parts[0] != call.self_call:
            return None
        owner = self.owner_class(facts, fn)
        getter = self.method(owner, parts[1]) if owner is not None else None
        if getter is None or getter not in self.functions:
            return None
        decorators = self.functions[getter][1].decorators
        if not any(d.rsplit(".", 1)[-1] in ("property", "cached_property") for d in decorators):
            return None
        return self.returned_class(getter)

    def owner_class(self, facts: FileFacts, fn: FunctionFacts) -> Optional[str]:
        """The class (key) whose ``self`` a function sees: its own, or (for a function
        nested in a method) the enclosing method's."""
        qual = fn.qualname
        current: Optional[FunctionFacts] = fn
        while current is not None:
            if current.class_name:
                return fkey(facts.path, current.class_name)
            if ".<locals>." not in qual:
                return None
            qual = qual.rsplit(".<locals>.", 1)[0]
            entry = self.functions.get(fkey(facts.path, qual))
            current = entry[1] if entry else None
        return None

    def own_class_constructed(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Optional[str]:
        """The class (key) a call constructs as the method's own (``constructs_own_class``),
        also from a function nested in the method (a decorator's wrapper in a
        classmethod, ``with cls(**kwargs):``; held-out set 313), when no function in
        between binds the name; None for any other call."""
        if constructs_own_class(fn, call):
            return self.owner_class(facts, fn)
        head = call.callee.split(".", 1)[0]
        if not head.isidentifier():
            return None  # (`type(self)(...)` in a nested function: not followed)
        qual, current = fn.qualname, fn
        while ".<locals>." in qual:
            if head in current.params or head in rebound_names(current.body):
                return None
            qual = qual.rsplit(".<locals>.", 1)[0]
            entry = self.functions.get(fkey(facts.path, qual))
            if entry is None:
                return None
            current = entry[1]
            if current.class_name:
                return self.owner_class(facts, current) if constructs_own_class(current, call) else None
        return None

    def nested_definition(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Optional[str]:
        """The key of the function or class a bare-name call names by a ``def``/``class``
        nested in the calling function or one enclosing it, innermost first, up to the
        function that binds the name (``Call.local_head``; a comprehension's own name
        is none of them), or None."""
        if call.local_head < 0:
            return None
        name = call.callee
        scope: Optional[FunctionFacts] = fn
        qual = fn.qualname
        depth = 1
        while scope is not None:
            if name in scope.local_functions:
                return fkey(facts.path, scope.local_functions[name])
            if ".<locals>." not in qual or depth == call.local_head:
                return None
            qual = qual.rsplit(".<locals>.", 1)[0]
            entry = self.functions.get(fkey(facts.path, qual))
            scope = entry[1] if entry else None
            depth += 1
        return None

    def callee_key(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Optional[str]:
        """The project function a call runs, or None. A Django model's ``asave()``,
        which the project does not define, runs its ``save()`` in a thread (held-out
        set 473): the model's own ``save`` override, as ``save()`` would."""
        key = self._callee_key(facts, fn, call)
        if key is None and call.callee.rsplit(".", 1)[-1] == "asave":
            saved = self._callee_key(facts, fn, dataclasses.replace(call, callee=call.callee[: -len("asave")] + "save"))
            if saved is None or not saved.endswith(".save"):
                return None
            # (the instance's class decides, not the class that defines the `save` found
            # along its MRO: a mixin's `save` of a model; a review)
            receiver = (self.receiver_class(facts, call) if call.receiver_type is not None
                        else self.owner_class(facts, fn) if call.self_call == "self" else None)
            model = receiver if receiver is not None else saved.rsplit(".", 1)[0]
            if model in self.classes and self._django_model(model):
                return saved
        return key

    def _callee_key(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Optional[str]:
        if call.aug:
            return None
        if call.invokes is not None:  # an instance called: its class's ``__call__``
            key = self.class_key(facts, call.invokes)
            found = self.method(key, "__call__") if key is not None else None
            if found is not None:
                return found
        text = call.callee
        parts = text.split(".")
        owner = self.owner_class(facts, fn)
        own = self.own_class_constructed(facts, fn, call) if owner is not None else None
        if own is not None:
            return self._callable(own)  # `cls(...)`, `self.__class__(...)`, `type(self)(...)`
        if call.self_call in ("self", "cls") and len(parts) == 2 and owner:
            return self.member(owner, parts[1])
        if call.self_call == "super" and text.startswith("super().") and text.count(".") == 1 and owner:
            return self.member(owner, parts[1], skip_self=True) or self.mixin_super(owner, parts[1])
        if call.self_call in ("self", "cls") and len(parts) == 3 and call.receiver_type is None and owner:
            inherited = self.inherited_attr_class(owner, parts[1])  # typed by a base in another file
            if inherited is not None:
                return self.member(inherited, parts[2])
        if call.receiver_type is not None:  # (also `RunStore().save`, whose parts are not names)
            typed = self.receiver_method(facts, call)
            if typed is not None:
                return typed
        through_class = self.class_attr_typing(facts, call)  # `Content.objects.m()`
        if through_class is not None and through_class[1] is not None:
            found = self.member(through_class[1], parts[-1])
            if found is not None or parts[-1] not in MANAGER_SAVES:
                return found
        # (any manager by its name, `all_objects`, `_default_manager`, or by its class,
        # `plain = PlainManager()`; held-out set 339)
        managed = len(parts) >= 3 and (is_manager_name(parts[-2]) or (
            through_class is not None and through_class[0].rsplit(".", 1)[-1].endswith("Manager")))
        if len(parts) >= 3 and parts[-2] != "query" and managed and parts[-1] in MANAGER_SAVES:
            # `Tenant.objects.create(...)`: Django's manager makes the instance and runs
            # its `save()`, the model's own override (held-out set 288, django-tenants'
            # `Tenant.save` creating the schema)
            model = owner if call.self_call == "cls" and len(parts) == 3 else self.class_key(facts, ".".join(parts[:-2]))
            saved = self.method(model, "save") if model is not None and self._django_model(model) else None
            if saved is not None:
                return saved
        if not all(p.isidentifier() for p in parts):
            return None
        if len(parts) == 1:
            nested = self.nested_definition(facts, fn, call)
            if nested is not None:
                return self._callable(nested)
        # (a name the function binds itself is never the module's: ``Call.local_head``)
        key = None if call.local_head else self.resolve_name(facts, text)
        if key is None:
            for q in call.qualnames:
                key = self.resolve_qualified(q)
                if key:
                    break
        if key is None and len(parts) == 1 and not call.local_head:
            for star in facts.star_imports:  # `from .ops import *`
                key = self.resolve_qualified(f"{star}.{text}") if self.star_binds(star, text) else None
                if key:
                    break
        if key is None and len(parts) > 1 and not call.local_head:
            # `SubLock.at(path)`: a method a project class inherits, called on its name
            on = self.class_called_on(facts, call)
            if on is not None:
                key = self.method(on, parts[-1])
        if key is None:
            # `saver(run)` with `saver = Saver()` in the module it comes from: its
            # class's `__call__` (docs/decisions.md "An instance called")
            instance = self.imported_instance(facts, call)
            if instance is not None and instance[2] == "__call__":
                cls = self.class_key(instance[0], instance[1])
                return self.method(cls, "__call__") if cls is not None else None
        return self._callable(key) if key else None

    def called_class(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Optional[str]:
        """The project class a call constructs (``Cls(...)``, ``mod.Cls(...)``; the
        method's own class for ``cls(...)``, ``self.__class__(...)``, ``type(self)(...)``:
        held-out set 313, ``with cls(**kwargs):`` ran no ``__enter__``/``__exit__``), or None."""
        if call.aug:
            return None
        own = self.own_class_constructed(facts, fn, call)
        if own is not None:
            return own if own in self.classes else None
        if call.self_call:
            return None
        text = call.callee
        parts = text.split(".")
        if not all(p.isidentifier() for p in parts):
            return None
        if len(parts) == 1:
            nested = self.nested_definition(facts, fn, call)  # a class defined in an enclosing function
            if nested is not None:
                return nested if nested in self.classes else None
        key = None if call.local_head else self.resolve_name(facts, text)
        if key is None:
            key = next((k for k in map(self.resolve_qualified, call.qualnames) if k), None)
        if key is None and len(parts) == 1 and not call.local_head:
            key = next((k for k in (self.resolve_qualified(f"{s}.{text}") for s in facts.star_imports
                                    if self.star_binds(s, text)) if k), None)
        return key if key in self.classes else None

    def manager_methods(self, class_key: str, is_async: bool = False) -> Tuple[Optional[str], Optional[str]]:
        """A class's entry and exit keys for a ``with`` (``__enter__``/``__exit__``) or an
        ``async with`` (``__aenter__``/``__aexit__``): the protocol Python calls, else
        the other one (a class with only one is entered by it, or the code fails)."""
        sync, asy = ("__enter__", "__exit__"), ("__aenter__", "__aexit__")
        first, second = (asy, sync) if is_async else (sync, asy)
        enter = self.method(class_key, first[0]) or self.method(class_key, second[0])
        exit_ = self.method(class_key, first[1]) or self.method(class_key, second[1])
        return enter, exit_

    def exit_self_methods(self, class_key: str, exit_: Optional[str], cut: AbstractSet[int] = frozenset()) -> List[str]:
        """The methods the exit ``exit_`` calls on ``self`` (``self._commit()``), found
        along ``class_key``'s MRO as Python finds them for an instance of that class
        (a subclass's override included): what they do happens at the ``with``.
        ``cut``: the ids of calls that do not run at the exit in question (a branch
        an ``__exit__``'s test of its exception does not take there)."""
        row = self.functions.get(exit_) if exit_ else None
        if row is None:
            return []
        out: List[str] = []
        for call in row[1].calls:
            if call.id in cut:
                continue
            name = call.callee[len("self."):]
            if call.self_call != "self" or not call.callee.startswith("self.") or "." in name:
                continue
            method = self.method(class_key, name)
            if self.drops(call, method):
                continue  # `self.flush()` of an `async def`, not awaited: nothing of it runs
            if method is not None and method != exit_ and method not in out:
                out.append(method)
        return out

    def receiver_method(self, facts: FileFacts, call: Call) -> Optional[str]:
        """``x.m()`` where ``x``'s class ``T`` is known (semantics §Events receiver types): ``m``
        looked up along ``T``'s MRO over project classes, as Python looks it up."""
        key = self.receiver_class(facts, call)
        if key is None:
            return None
        name = call.callee.rsplit(".", 1)[-1]
        # (a class-level alias, ``sync = commit``, is found as Python finds it: the
        # same lookup as ``self.sync()``'s; held-out set 63, sqlitedict)
        return self.member(key, name)

    def _attr_typing(self, class_key: str, attr: str) -> Optional[Tuple[str, Optional[str]]]:
        """How the first class of the MRO that types ``self.attr`` types it: (the type
        as that class's file qualifies it, the project class key it names or None). As
        the front end reads one module (``scopes.Scopes.attr_type``): a class's typing
        by a method's store or a class-level binding alike, an untyped rebinding
        hiding nothing (a limit, docs/decisions.md "Receiver types", session 54)."""
        for k in self.mro(class_key):
            cls = self.classes.get(k)
            if cls is None:
                continue
            for name, typed in cls.attr_types:
                if name == attr:
                    return typed, self._typed_class(k, typed)
        return None

    def _class_level_typing(self, order: List[str], attr: str) -> Optional[Tuple[str, Optional[str]]]:
        """The class attribute ``attr`` along an MRO: the first class that binds the
        name in its body decides, by a class-level constructor or annotation
        (``ClassFacts.class_types``); any other binding of it there (``journal =
        make_other()``, a method) hides the bases' (a review, session 54)."""
        for k in order:
            cls = self.classes.get(k)
            if cls is None:
                continue
            for name, typed in cls.class_types:
                if name == attr:
                    return typed, self._typed_class(k, typed)
            if attr in cls.methods or any(a[0] == attr for a in cls.aliases):
                return None
        return None

    def _typed_class(self, class_key: str, typed: str) -> Optional[str]:
        """The project class a type written in ``class_key``'s file names, or None."""
        facts = self.files.get(split_key(class_key)[0])
        found = self.class_key(facts, typed) if facts is not None else None
        if found is None:  # (qualified by that file's imports already)
            found = self.resolve_qualified(typed)
        return found if found in self.classes else None

    def inherited_attr_class(self, class_key: str, attr: str) -> Optional[str]:
        """The project class of ``self.attr`` as the first class of the MRO that types
        it says (its file's imports qualify it): a base class in another file typing
        an attribute its subclass uses (docs/decisions.md "Receiver types")."""
        got = self._attr_typing(class_key, attr)
        if got is None:
            return None
        typed, found = got
        return found if found is not None else self.resolve_qualified(typed)

    def inherited_attr_type(self, class_key: str, attr: str) -> Optional[str]:
        """The qualified name of the class of ``self.attr`` as the first class of the
        MRO that types it says (``pkg.store.RunStore``, ``sqlalchemy.orm.Session``),
        or None when that name is not a qualified one."""
        got = self._attr_typing(class_key, attr)
        if got is None:
            return None
        typed, found = got
        if found is not None:
            return self.class_qualname(found)
        return typed if "." in typed else None

    def typed_through_base(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Optional[str]:
        """``module.T.m`` for ``self.x.m()`` where ``x`` is typed ``T`` only by a base
        class in another file (an annotated ``__init__`` parameter, a class-level
        annotation, a constructor): the receiver is of known type, so the call also
        matches by that qualified name (semantics §Events, "Receiver types"). The
        front end sees one file, so it types ``x`` only by the file's own classes;
        this name is added in the project phase (``with_typed_names``)."""
        if call.receiver_type is not None or call.self_call not in ("self", "cls") or call.aug:
            return None
        parts = call.callee.split(".")
        if len(parts) != 3 or not all(p.isidentifier() for p in parts):
            return None
        owner = self.owner_class(facts, fn)
        if owner is None:
            return None
        typed = self.inherited_attr_type(owner, parts[1])
        return f"{typed}.{parts[2]}" if typed else None

    def inherited_alias_names(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Tuple[str, ...]:
        """The texts ``self.warn(...)`` matches as when ``warn`` is a class-level alias
        of a base (``warn = logger.warning``): what it stands for and that text's
        qualified names (the front end, seeing one class, expands only its own)."""
        parts = call.callee.split(".")
        if call.self_call not in ("self", "cls", "super") or len(parts) != 2 or call.aug:
            return ()
        if call.self_call == "super" and parts[0] != "super()":
            return ()
        owner = self.owner_class(facts, fn)
        got = self.inherited_alias(owner, parts[1], call.self_call == "super") if owner is not None else None
        return got[1][1:] if got is not None else ()

    def class_qualname(self, key: str) -> str:
        """``pkg.store.RunStore`` for a project class key."""
        path, qual = split_key(key)
        module = self.files[path].module
        return f"{module}.{qual}" if module else qual

    def class_qualnames(self, key: str) -> List[str]:
        """``class_qualname`` and the class's name under each other import name of its
        module (``FileFacts.module_aliases``: a namespace package's longer name, a
        ``src`` root's), as code that imports the class names it (held-out set 148:
        openlineage's `Transport` base was matched by its short name only)."""
        path, qual = split_key(key)
        return ([self.class_qualname(key)] + [f"{a}.{qual}" for a in self.files[path].module_aliases]
                + self._reexported().get(key, []))

    def _reexported(self) -> Dict[str, List[str]]:
        """The names a package re-exports a project class under, by class key:
        ``shop.db.MongoDocument`` for ``from shop.db.document import MongoDocument`` in
        ``shop/db/__init__.py``, the name code that imports it from the package writes
        (held-out set 293: `suggest` folded winebox's models into that name, which
        matched nothing)."""
        found = self._reexports.get(self._near)  # (per source root: a clash resolves in each)
        if found is None:
            found = self._reexports[self._near] = {}
            for f in self.files.values():
                if not _is_package_file(f.path) or not f.imports:
                    continue
                for name, target in f.imports.items():
                    if not name[:1].isupper() or "." not in target:
                        continue  # (a class's name: CapWords; not a module imported whole)
                    key = self.resolve_qualified(target)
                    if key in self.classes:  # (an alias's too: `from .db import Base as TopBase`)
                        names = found.setdefault(key, [])
                        for m in (f.module, *f.module_aliases):
                            if f"{m}.{name}" not in names:
                                names.append(f"{m}.{name}")
            for f in self.files.values():  # `from .document import *` (what its `__all__` lets through)
                if not _is_package_file(f.path):
                    continue
                for star in f.star_imports:
                    source = self.module(star)
                    if source is None:
                        continue
                    for c in source.classes:
                        if "." in c.qualname or not self.star_binds(star, c.qualname):
                            continue
                        names = found.setdefault(fkey(source.path, c.qualname), [])
                        for m in (f.module, *f.module_aliases):
                            if f"{m}.{c.qualname}" not in names:
                                names.append(f"{m}.{c.qualname}")
        return found

    def inherited_names(self, class_key: str, method: str) -> Tuple[str, ...]:
        """``module.B.m`` for every base ``B`` of a receiver's class along its MRO: the
        project bases, and the bases from outside the project named by a qualified
        name (``class RunSession(sqlalchemy.orm.Session)``). A receiver of class ``T``
        is also a ``B`` (docs/decisions.md "A receiver typed as a subclass"): with
        ``*.RunStore.save`` configured, ``store.save(run)`` for ``store =
        SqlRunStore()`` is RunStore's save, inherited or overridden."""
        memo = self._inherited.get(class_key)
        if memo is None:
            order = self.mro(class_key)
            found: List[str] = [q for k in order[1:] for q in self.class_qualnames(k)]
            for k in order:
                cls = self.classes.get(k)
                if cls is None:
                    continue
                for base in cls.bases:
                    if "." not in base or not all(p.isidentifier() for p in base.split(".")):
                        continue
                    if self.resolve_qualified(base) is not None:
                        continue
                    facts = self.files[split_key(k)[0]]
                    if self.class_key(facts, base) is not None:
                        continue
                    found.append(base)
            memo = self._inherited[class_key] = tuple(dict.fromkeys(found))
        return tuple(f"{b}.{method}" for b in memo)

    def receiver_class_of(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Optional[str]:
        """The project class of the receiver of ``x.m()``, typed in the file or, for
        ``self.x.m()``, by a base class in another file; None when not known."""
        if call.aug:
            return None
        if call.receiver_type is not None:
            return self.receiver_class(facts, call)
        if call.self_call not in ("self", "cls"):
            return None
        parts = call.callee.split(".")
        if len(parts) != 3 or not all(p.isidentifier() for p in parts):
            return None
        owner = self.owner_class(facts, fn)
        return self.inherited_attr_class(owner, parts[1]) if owner is not None else None

    def imported_instance_names(self, facts: FileFacts, call: Call) -> Tuple[str, ...]:
        """``module.T.m`` (and its bases' names) for ``STORE.m()`` where ``STORE`` is
        imported from a project module that binds it to an instance of ``T`` (``STORE
        = RunStore()``, ``STORE: RunStore = make()``): a receiver of known type there,
        so here too (docs/decisions.md "A module variable's type crosses an import").
        The instance itself called (``saver(run)``, ``hooks.saver(run)``) is
        ``module.T.__call__`` (docs/decisions.md "An instance called")."""
        found = self.imported_instance(facts, call)
        if found is None:
            return ()
        source, written, method = found
        key = self.class_key(source, written)
        if key is not None:
            return tuple(f"{q}.{method}" for q in self.class_qualnames(key)) + self.inherited_names(key, method)
        head, _, rest = written.partition(".")
        if head in source.imports:  # a class from outside the project: its qualified name
            return (".".join(filter(None, (source.imports[head], rest, method))),)
        return ()

    def library_attribute_names(self, facts: FileFacts, call: Call) -> Tuple[str, ...]:
        """``sqlalchemy.orm.Session.commit`` for ``db.session.commit()`` where ``db`` is
        imported from a project module that binds it to an instance of a library class
        whose attribute holds a session (``db = SQLAlchemy(app)``: ``LIBRARY_ATTRIBUTES``;
        held-out set 449, Flask-SQLAlchemy's ``from app.extensions import db``), also
        through its module (``ext.db.session.commit()``)."""
        if call.receiver_type is not None or call.self_call or call.aug or call.local_head or call.invokes:
            return ()
        parts = call.callee.split(".")
        if not 3 <= len(parts) <= 5 or not all(p.isidentifier() for p in parts):
            return ()
        target = facts.imports.get(parts[0])
        if not target:
            return ()
        found = self._module_instance(".".join([target] + parts[1:-2]))
        if found is None:
            return ()
        source, written = found
        head, _, rest = written.partition(".")
        if head not in source.imports:
            return ()
        made = LIBRARY_ATTRIBUTES.get(".".join(filter(None, (source.imports[head], rest, parts[-2]))))
        return (f"{made}.{parts[-1]}",) if made else ()

    def alias_method_names(self, facts: FileFacts, call: Call) -> Tuple[str, ...]:
        """``module.T.m`` (and its bases' names) for ``emit(...)`` where ``emit`` is
        imported from a project module that binds it as an alias of an instance's
        method (``emitter = EventEmitter()``, ``emit = emitter.emit``; also
        ``events.emit(...)`` through the module): the alias's own call there is a
        receiver of known type, so here too (held-out set 447, tortoise-auth's
        ``from tortoise_auth.events import emit``)."""
        if call.receiver_type is not None or call.self_call or call.aug or call.local_head or call.invokes:
            return ()
        parts = call.callee.split(".")
        if len(parts) == 1:
            full = facts.imports.get(parts[0])
            module, _, name = (full or "").rpartition(".")
        elif len(parts) == 2:
            module, name = facts.imports.get(parts[0]) or "", parts[1]
        else:
            return ()
        source = self.module(module) if module else None
        if source is None:
            return ()
        alias = source.aliases.get(name, "")
        holder, dot, method = alias.rpartition(".")
        made = source.aliases.get(holder, "") if dot and holder.isidentifier() else ""
        if not made.endswith("()") or "(" in made[:-2]:
            return ()
        key = self.class_key(source, made[:-2])
        if key is None:
            return ()
        return tuple(f"{q}.{method}" for q in self.class_qualnames(key)) + self.inherited_names(key, method)

    def imported_instance(self, facts: FileFacts, call: Call) -> Optional[Tuple[FileFacts, str, str]]:
        """For ``STORE.m()``, ``saver(...)`` or ``hooks.saver(...)`` where the name is
        imported from a project module that binds it to an instance of a class: that
        module's facts, the class as written there, and the method that runs (``m``, or
        ``__call__`` for the instance called)."""
        if call.receiver_type is not None or call.self_call or call.aug or call.invokes:
            return None
        parts = call.callee.split(".")
        if not 1 <= len(parts) <= 8 or not all(p.isidentifier() for p in parts):
            return None
        if call.local_head:
            # the function's own import (`from app import log as syncer_log` in its
            # body, Flask's idiom against circular imports; held-out set 287): the
            # head's qualified name from the call's (no other local name has one)
            suffix = "." + ".".join(parts[1:]) if len(parts) > 1 else ""
            q = next((q.split(".") for q in call.qualnames if q.endswith(suffix)), None)
            target = ".".join(q[: len(q) - len(parts) + 1]) if q is not None and len(q) >= len(parts) else None
        else:
            target = facts.imports.get(parts[0])
        if not target:
            return None
        if len(parts) == 1:  # `saver(...)`, imported from its module: the instance called
            full, method = target, "__call__"
        elif len(parts) == 2 and target in self.modules and not self._rebound_module(target):
            # `hooks.saver(...)`, its module imported (not a submodule's name its package
            # binds to something else: `from .service import service`; held-out set 271)
            full, method = f"{target}.{parts[1]}", "__call__"
        else:  # `STORE.m()`; `rt.STORE.m()`, `with pkg.runtime.db_session:`: through its module
            full, method = ".".join([target] + parts[1:-1]), parts[-1]
        found = self._module_instance(full)
        return (found[0], found[1], method) if found is not None else None

    def _module_instance(self, full: str, depth: int = 0) -> Optional[Tuple[FileFacts, str]]:
        """The module that binds ``pkg.mod.NAME`` to an instance of a class, and the
        class as written there; through a package's re-export of it (``from .core
        import db_session`` or ``from .core import *`` in ``pkg/__init__.py``, pony's
        layout; held-out set 73)."""
        if "." not in full or depth > 4:
            return None
        module, name = full.rsplit(".", 1)
        source = self.module(module)
        if source is None:
            return None
        alias = source.aliases.get(name)
        if alias is not None:
            if not alias.endswith("()") or "(" in alias[:-2]:
                return None
            return source, alias[:-2]
        if name in source.imports:
            return self._module_instance(source.imports[name], depth + 1)
        for star in source.star_imports:
            if self.star_binds(star, name):
                return self._module_instance(f"{star}.{name}", depth + 1)
        return None

    def defined_names(self, full: str, depth: int = 0) -> Tuple[str, ...]:
        """The names a project module re-exports, as the module that defines it names it
        (``pkg.vault.rekey_file`` with ``from .file import rekey_file`` in
        ``pkg/vault/__init__.py``: ``pkg.vault.file.rekey_file``; held-out set 230), under
        each name of that module (a namespace package's longer one), through re-exports
        of re-exports and ``from .file import *``; none for a name no project module
        re-exports, or one from outside the project (``outside_name``)."""
        found = self._module_part(full) if depth <= 8 else None
        if found is None:
            return ()
        facts, parts, i = found
        target = facts.imports.get(parts[i])
        if target is None and fkey(facts.path, parts[i]) not in self.functions \
                and fkey(facts.path, parts[i]) not in self.classes:
            # (a star import's: `from .file import *`, the first project module that defines it)
            target = next((f"{m}.{parts[i]}" for m in facts.star_imports if m in self.modules
                           and (fkey(self._path_of(m), parts[i]) in self.functions
                                or fkey(self._path_of(m), parts[i]) in self.classes)), None)
        if target is None:
            if not depth and not facts.module_aliases:
                return ()  # (defined here, or nowhere known, under the one name it has)
            # (and a module's own definition under its other names: the longer name of a
            # namespace package, ``odoo.addons.pkg.store.persist`` for the pattern
            # ``pkg.store.persist``, as its own calls have; held-out set 244)
            rest = ".".join(parts[i:])
            return tuple(f"{m}.{rest}" for m in (facts.module, *facts.module_aliases))
        new = ".".join([target] + parts[i + 1:])
        if new.split(".", 1)[0] not in self._heads():
            return ()
        return self.defined_names(new, depth + 1)

    def _module_part(self, full: str) -> Optional[Tuple[FileFacts, List[str], int]]:
        """The longest project module ``full`` starts with: its facts, ``full``'s parts,
        and the index of the first part after the module's."""
        parts = full.split(".")
        for i in range(len(parts) - 1, 0, -1):
            facts = self.module(".".join(parts[:i]))
            if facts is not None:
                return facts, parts, i
        return None

    def outside_name(self, full: str, depth: int = 0) -> Optional[str]:
        """The name from outside the project that a project module re-exports
        (``pkg.util.suppress`` with ``from contextlib import suppress`` in ``pkg/util.py``:
        ``contextlib.suppress``; ``pkg.compat.Session.commit``:
        ``sqlalchemy.orm.Session.commit``), through re-exports of re-exports; None for a
        name the project defines or does not import. A star import is not followed
        (docs/decisions.md "An exception type a project module re-exports": tried in
        session 45, and a review found the module's own definitions, the names of the
        file that wrote a clause and the builtins all lost to it)."""
        found = self._module_part(full) if depth <= 8 else None
        if found is None:
            return None
        facts, parts, i = found
        # (an import still in the table wins over the module's own definition of the
        # name: ``resolve_qualified``)
        target = facts.imports.get(parts[i])
        if target is None or target.startswith("__future__."):  # (a compiler directive, no object)
            return None
        new = ".".join([target] + parts[i + 1:])
        if new.split(".", 1)[0] in self._heads():
            return self.outside_name(new, depth + 1)
        return new

    def swallow_types_for(self, types: Iterable[str], patterns: Sequence[str]) -> Tuple[str, ...]:
        """``patterns`` (config ``swallow-types``) and each of ``types`` (an ``except``
        clause's or a ``suppress(...)``'s type names) that a project module re-exports
        from outside the project, or binds at module level to a dotted name, under a
        name one of them matches: with ``from psycopg2 import DatabaseError`` (or
        ``DatabaseError = psycopg2.DatabaseError``) in ``pkg/compat.py``, ``except
        DatabaseError:`` after ``from .compat import DatabaseError`` catches
        ``psycopg2.DatabaseError``, as a call through that module is the name it
        re-exports (docs/decisions.md "An exception type a project module re-exports").
        Each project name asked is noted in ``swallow_asked`` when the runner keeps it
        (a file's check memo holds the answers, and a warm run checks them again:
        ``swallow_answers_hold``)."""
        if not patterns:
            return tuple(patterns)
        extra: List[str] = []
        for t in types:
            if t in extra:
                continue
            matched = self.reexport_answer(t, patterns)
            if self.swallow_asked is not None:
                self.swallow_asked[t] = matched
            if matched:
                extra.append(t)
        return tuple(patterns) + tuple(extra)

    def reexport_answer(self, name: str, patterns: Sequence[str]) -> bool:
        """``swallow_types_for``'s answer for one type name: a project name (its first
        component a project module's) whose outside name matches (``reexport_matches``);
        any other name never (a module added later may make it a project name: the check
        memo asks again, ``swallow_answers_hold``)."""
        return name.split(".", 1)[0] in self._heads() and self.reexport_matches(name, patterns)

    def reexport_matches(self, name: str, patterns: Sequence[str]) -> bool:
        """Whether what the project name ``name`` stands for outside the project (a
        re-export, a module-level alias) matches one of ``patterns``."""
        got = self._outside.get(name, "")
        if got == "":
            got = self._outside[name] = self.outside_name(name)
        names = ((got,) if got is not None else ()) + self.imported_alias_names(name)
        heads = self._heads()
        for _ in range(8):  # (`from .base import DatabaseError`, where base binds the alias)
            module, _, last = name.rpartition(".")
            source = self.module(module)
            target = source.imports.get(last) if source is not None else None
            if target is None or target.split(".", 1)[0] not in heads:
                break
            name = target
            names += self.imported_alias_names(name)
        return any(fnmatchcase(n, p) for n in names for p in patterns)

    def swallow_answers_hold(self, answers: Sequence[Sequence[object]], patterns: Sequence[str]) -> bool:
        """Whether each remembered ``[name, matched]`` of a file's check is still what
        ``swallow_types_for`` answers (an edit of the module that re-exports it)."""
        return all(self.reexport_answer(str(name), patterns) == bool(matched) for name, matched in answers)

    def _heads(self) -> FrozenSet[str]:
        """The first components of the project's module names."""
        heads = self._head_set
        if heads is None:
            heads = self._head_set = frozenset(m.split(".", 1)[0] for m in self.modules if m)
        return heads

    def with_typed_names(self, facts: FileFacts) -> None:
        """Set every call's ``Call.typed`` afresh (facts an editor's server keeps between
        runs are typed by this run's project): ``typed_through_base``'s name, and the
        outside name of each name a project module re-exports (``outside_name``). The
        vocabulary matches them with the call's ``qualnames`` wherever it classifies
        the call (the focus's rows, summaries, the contracts' graphs)."""
        heads = self._heads()
        for fn in facts.functions:  # (none left from an earlier run, should this one fail midway)
            for call in fn.calls:
                call.typed = ()
                call.imported_lead = None
        for fn in facts.functions:
            for call in fn.calls:
                if call.lead_import is not None and call.lead is None:
                    call.imported_lead = self.imported_statement(facts, call.lead_import)
                extra: Tuple[str, ...] = ()
                if call.self_call is not None and call.receiver_type is None:
                    through = self.typed_through_base(facts, fn, call)
                    if through is not None:
                        extra = (through,)
                    inherited = self.inherited_alias_names(facts, fn, call)
                    extra += tuple(n for n in inherited if n not in call.qualnames and n not in extra)
                if call.invokes is not None:  # `saver(run)`: also its class's bases' `__call__`
                    key = self.class_key(facts, call.invokes)
                    if key is not None:
                        extra += tuple(n for n in self.inherited_names(key, "__call__")
                                       if n not in call.qualnames and n not in extra)
                elif call.receiver_type is not None or call.self_call in ("self", "cls"):
                    receiver = self.receiver_class_of(facts, fn, call)
                    if receiver is not None:
                        method = call.callee.rsplit(".", 1)[-1]
                        own = [f"{q}.{method}" for q in self.class_qualnames(receiver)] if call.receiver_type else []
                        if call.receiver_type:
                            own += self.typed_alias_names(receiver, method)
                        extra += tuple(n for n in (*own, *self.inherited_names(receiver, method))
                                       if n not in call.qualnames and n not in extra)
                extra += tuple(n for n in (*self.own_names(facts, fn, call), *self.own_manager_names(facts, fn, call))
                               if n not in call.qualnames and n not in extra)
                if "." in call.callee and call.receiver_type is None and not call.self_call:
                    extra += tuple(n for n in self.class_by_name_names(facts, call)
                                   if n not in call.qualnames and n not in extra)
                    extra += tuple(n for n in self.class_attr_names(facts, call)
                                   if n not in call.qualnames and n not in extra)
                extra += tuple(n for n in (*self.imported_instance_names(facts, call),
                                           *self.alias_method_names(facts, call),
                                           *self.library_attribute_names(facts, call))
                               if n not in call.qualnames and n not in extra)
                ref = self.handed_ref(facts, fn, call) if call.ref is not None else None
                if ref is not None:  # `self._run_safely(os.replace, ...)` matches as `os.replace` too
                    extra += tuple(n for n in (ref.callee, *ref.qualnames) if n not in call.qualnames and n not in extra)
                    # (`self._store_call(self.store.update_job, job)` of `store: JobStore`:
                    # the handed method by its class's names, its bases' too; held-out set 478)
                    receiver = self.receiver_class_of(facts, fn, ref) if ref.receiver_type is not None else None
                    if receiver is not None:
                        method = ref.callee.rsplit(".", 1)[-1]
                        extra += tuple(n for n in (*(f"{q}.{method}" for q in self.class_qualnames(receiver)),
                                                   *self.typed_alias_names(receiver, method),
                                                   *self.inherited_names(receiver, method))
                                       if n not in call.qualnames and n not in extra)
                if call.level is not None:  # `rl.log(logging.ERROR, ...)` is `logging.Logger.error` too
                    extra += tuple(n[: -len("log")] + call.level for n in extra if n.endswith(".log"))
                if call.level is not None or call.level_args:
                    extra += tuple(n for n in self.forwarded_level_names(facts, fn, call)
                                   if n not in call.qualnames and n not in extra)
                starred = self.star_name(facts, call)
                if starred is not None and starred not in extra:
                    extra += (starred,)
                names = call.qualnames + extra
                if not call.qualnames and "." in call.callee:
                    head = call.callee.split(".", 1)[0]
                    if head in heads and facts.imports.get(head) == head:
                        names += (call.callee,)  # ``import pkg.util``: ``pkg.util.suppress`` is its own name
                for q in names:
                    if q.split(".", 1)[0] in heads:
                        got = self._outside.get(q, "")
                        if got == "":
                            got = self._outside[q] = self.outside_name(q)
                        if got is not None and got not in call.qualnames and got not in extra:
                            extra += (got,)
                        if got is None:  # (re-exported from another project module)
                            defined = self._defined.get(q)
                            if defined is None:
                                defined = self._defined[q] = self.defined_names(q)
                            extra += tuple(n for n in defined if n not in call.qualnames and n not in extra)
                        for n in self.imported_alias_names(q):
                            if n not in call.qualnames and n not in extra:
                                extra += (n,)
                extra += tuple(n for n in self.product_names(facts, call, call.qualnames + extra)
                               if n not in call.qualnames and n not in extra)
                call.typed = extra

    def product_names(self, facts: FileFacts, call: Call, names: Sequence[str]) -> Tuple[str, ...]:
        """A call's names as the library class it runs on stands for (``PROXY_CLASSES``:
        ``sqlalchemy.orm.scoped_session.commit`` is ``sqlalchemy.orm.Session.commit``), or
        as the class a project module's factory instance makes (``FACTORY_PRODUCTS``:
        ``app.db.SessionLocal.commit``, ``db = SessionLocal()`` where ``app/db.py`` binds
        ``SessionLocal = sessionmaker(...)``, is ``sqlalchemy.orm.Session.commit``), and
        so in the module that binds the factory (``s = SessionLocal()`` there: a
        receiver typed by the factory's name, which has no qualified name)."""
        out: List[str] = []
        method = call.callee.rsplit(".", 1)[-1]
        if call.receiver_type in _PRODUCTS:  # `s = db_session()`: typed by the product's name
            out.append(f"{call.receiver_type}.{method}")
        written = facts.aliases.get(call.receiver_type or "", "")
        if written.endswith("()") and "." not in (call.receiver_type or "."):
            product = _product_of(facts, written[:-2])
            if product is not None:
                out.append(f"{product}.{method}")
        plain = call.made_by is not None and call.made_by.startswith(PLAIN_CALL)
        maker = call.made_by[len(PLAIN_CALL):] if plain and call.made_by is not None else call.made_by
        if maker is not None and maker.split(".", 1)[0] in self._heads():
            # `s = async_session()` of `from app.db import async_session` (``Call.made_by``)
            found = self._module_instance(maker)
            product = _product_of(*found) if found is not None else None
            if product is None:
                # `async with get_session() as s:` of a project `@asynccontextmanager`
                # annotated `-> AsyncGenerator[AsyncSession, None]`, or `s = make()` of a
                # function annotated `-> Session`, in another file (held-out set 415,
                # elia-chat): the class its annotation names (``FunctionFacts.returns``)
                key = self.resolve_qualified(maker)
                if key is None or key not in self.functions:
                    # `store.session()` of `store: Store`: the method along Store's MRO
                    owner, _, name = maker.rpartition(".")
                    cls = self.resolve_qualified(owner)
                    key = self.member(cls, name) if cls is not None and cls in self.classes else None
                made = self.functions.get(key) if key is not None else None
                if made is not None and plain and made[1].context_manager:
                    made = None  # (`cm = db.session_scope()`: the context manager, no session; a review)
                if made is not None and made[1].returns and made[1].returns.rsplit(".", 1)[-1] != "Self":
                    product = made[1].returns
                    # `session = SessionLocal()` then `yield session` (session 72): the
                    # manager's module's factory instance, as the class it makes
                    # (its name as written there, or through the module's import of it:
                    # `from app.database import SessionLocal`; a review)
                    own = self._module_instance(product if "." in product else f"{made[0].module}.{product}")
                    product = (_product_of(*own) if own is not None else None) or product
            if product is not None:
                out.append(f"{product}.{method}")
        for q in names:
            owner, _, method = q.rpartition(".")
            if not owner:
                continue
            if owner in PROXY_CLASSES:
                out.append(f"{PROXY_CLASSES[owner]}.{method}")
                continue
            found = self._module_instance(owner) if owner.split(".", 1)[0] in self._heads() else None
            product = _product_of(*found) if found is not None else None
            if product is not None:
                out.append(f"{product}.{method}")
        return tuple(dict.fromkeys(out))

    def forwarded_level_names(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Tuple[str, ...]:
        """What a call with a constant level (``Call.level``) logs as when it runs a
        project wrapper that hands its first parameter on as a ``log`` call's level
        (``def log(self, level, msg): logger.log(level, msg)``): that call's names at
        this level, so ``self.log(logging.ERROR, ...)`` matches ``logger.error`` (a
        ``surface``) and ``self.log(logging.DEBUG, ..., e)`` ``logger.debug`` (``quiet``),
        as the same ``logger.log`` call with the constant written in does
        (docs/decisions.md "A logging wrapper's level")."""
        if call.level is None and not call.level_args:
            return ()
        key = self.callee_key(facts, fn, call)
        found = self.functions.get(key) if key is not None else None
        if found is None:
            return ()
        wrapper = found[1]
        skip = 1 if wrapper.class_name and not any(d.rsplit(".", 1)[-1] == "staticmethod"
                                                   for d in wrapper.decorators) else 0
        if len(wrapper.params) <= skip:
            return ()
        first = wrapper.params[skip]
        given = dict(call.level_args)
        positional = wrapper.positional[skip:]
        out: List[str] = []
        for inner in wrapper.calls:
            param = inner.level_from
            if param is None or param not in wrapper.params:
                continue
            # the level the caller gives that parameter: as the first argument (else
            # `level=`), or (since session 63) as a logger level or method written at its
            # position or by its name: `self._log(msg, level="error")` for `def _log(self,
            # message, level="info"): getattr(self.logger, level)(message)`
            level = call.level if param == first and call.level is not None else None
            if level is None and param in positional:
                level = given.get(str(positional.index(param)))
            if level is None:
                level = given.get(param)
            if level is None:
                continue
            for n in (inner.callee,) + inner.qualnames:
                m = n[: -len("log")] + level if n.endswith(".log") else None
                if m is not None and m not in out:
                    out.append(m)
        return tuple(out)

    def own_names(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Tuple[str, ...]:
        """The qualified name a call of its own module's function or class has, where no
        import names it (docs/decisions.md "A qualified pattern names a module's own
        calls"): ``pkg.store.persist`` for ``persist(run)`` in ``pkg/store.py``, and
        ``pkg.store.RunStore.create`` for ``RunStore.create()`` there, as the same calls
        have in a module that imports them. ``self.m()``/``cls.m()``/``super().m()`` get
        none ("Receiver types, ... `self`")."""
        if call.aug or call.receiver_type is not None or call.self_call is not None:
            return ()
        parts = call.callee.split(".")
        if call.local_head or not facts.module or parts[0] in facts.imports:
            return ()
        if not all(p.isidentifier() for p in parts):
            return ()
        key = fkey(facts.path, call.callee)
        if key not in self.functions and key not in self.classes:
            if len(parts) < 2 or fkey(facts.path, parts[0]) not in self.classes:
                return ()  # (`RunStore.create` of an inherited `create`: still the class's name)
        # (under each import name of its module too: a namespace package's longer name,
        # as code that imports it names it; held-out set 221, ampel's `insert_trouble`)
        return tuple(f"{m}.{call.callee}" for m in (facts.module, *facts.module_aliases))

    def own_manager_names(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Tuple[str, ...]:
        """``cls.objects.create(...)`` in a classmethod of model ``MailLog`` is
        ``MailLog.objects.create(...)``: the class's qualified names, so the pattern a
        maintainer writes for the model's rows (``*MailLog.objects.create``) matches its
        own classmethod's writes too (held-out set 300, django-db-mailer's
        ``MailLog.store``). A subclass's call is its own model's; it is named by the
        class that defines the method, as ``self.m()`` is."""
        parts = call.callee.split(".")
        if call.self_call != "cls" or len(parts) != 3 or parts[1] != "objects" or call.aug:
            return ()
        owner = self.owner_class(facts, fn)
        if owner is None:
            return ()
        return tuple(f"{q}.objects.{parts[2]}" for q in self.class_qualnames(owner))

    def class_by_name_names(self, facts: FileFacts, call: Call) -> Tuple[str, ...]:
        """``module.B.m`` for every base ``B`` of a project class called by its name,
        ``SqlRunStore.create(run)``: the class is the receiver, of known type, so the
        call is also its bases' ``create`` as a typed receiver's is (docs/decisions.md
        "A receiver typed as a subclass"). The class's own name the call already has
        (an import's qualified name, or ``own_names``)."""
        if call.aug or call.local_head or call.receiver_type is not None or call.self_call:
            return ()
        parts = call.callee.split(".")
        if len(parts) < 2 or not all(p.isidentifier() for p in parts):
            return ()
        key = self.class_key(facts, ".".join(parts[:-1]))
        return self.inherited_names(key, parts[-1]) if key is not None else ()

    def class_attr_typing(self, facts: FileFacts, call: Call) -> Optional[Tuple[str, Optional[str]]]:
        """How ``C.attr.m()`` (``mod.C.attr.m()``) types ``attr`` when ``C`` names a
        project class whose MRO types it (``objects = ContentManager()`` in Django's
        ``class Content(Model)``; held-out set 123): (the type as that class's file
        qualifies it, the project class key it names or None). The attribute is read
        through the class, as ``self.attr`` is through an instance."""
        if call.aug or call.receiver_type is not None or call.self_call or call.invokes:
            return None
        parts = call.callee.split(".")
        chained = 0
        while len(parts) > 3 and parts[-2] in QUERYSET_CHAIN:
            # `Page.objects.filter(...).update(...)`: a query set's chained step returns a
            # query set of its own class (held-out set 326, django-undo-revision's
            # `RevisionQuerySet.as_manager()`): read as `Page.objects.update(...)`
            parts = parts[:-2] + parts[-1:]
            chained += 1
        if len(parts) < 3 or not all(p.isidentifier() for p in parts):
            return None
        key = None if call.local_head else self.class_key(facts, ".".join(parts[:-2]))
        if call.local_head:
            # a class the function imports itself (`from pkg.post import Revision` in
            # its body, Django's idiom against import cycles): through the call's
            # qualified name, as the function's own import gives it (held-out set 277);
            # a parameter or a local of the name has none, and stays unknown
            for q in call.qualnames:
                head = q.split(".")
                if len(head) >= 3 and head[-2:] == parts[-2:]:
                    cand = self.resolve_qualified(".".join(head[:-2]))
                    if cand is not None and cand in self.classes:
                        key = cand
                        break
        if key is None or self._is_enum(key):
            return None  # (an enum's `Channel.MAIN` is a member of the enum, whatever its value)
        got = self._class_level_typing(self.mro(key), parts[-2])
        if chained and (got is None or got[1] is None or not self._query_set(got[1])):
            return None  # (a manager's `filter()` returns its `get_queryset()`'s class, not its own)
        return got

    def _query_set(self, class_key: str) -> bool:
        """Whether a project class is a Django query set (its name or a base's along its
        MRO says ``QuerySet``): its chained steps return its own class."""
        for k in self.mro(class_key):
            cls = self.classes.get(k)
            if cls is not None and (k.rsplit(".", 1)[-1].endswith("QuerySet")
                                    or any(b.rsplit(".", 1)[-1].endswith("QuerySet") for b in cls.bases)):
                return True
        return False

    def _is_enum(self, class_key: str) -> bool:
        """Whether a project class is an enum (a base along its MRO is one of
        ``enum``'s, or Django's choices): its class attributes are its members."""
        for k in self.mro(class_key):
            cls = self.classes.get(k)
            if cls is not None and any(b.rsplit(".", 1)[-1] in ENUM_BASES for b in cls.bases):
                return True
        return False

    def class_attr_names(self, facts: FileFacts, call: Call) -> Tuple[str, ...]:
        """``module.T.m`` (and its bases' names) for ``C.attr.m()`` where ``C``'s
        ``attr`` is of class ``T`` (``class_attr_typing``): a receiver of known type."""
        got = self.class_attr_typing(facts, call)
        if got is None:
            return ()
        typed, found = got
        method = call.callee.rsplit(".", 1)[-1]
        if found is not None:
            return tuple(f"{q}.{method}" for q in self.class_qualnames(found)) + self.inherited_names(found, method)
        return (f"{typed}.{method}",) if "." in typed else ()

    def imported_alias_names(self, full: str) -> Tuple[str, ...]:
        """What ``pkg.log.loud`` stands for when ``pkg/log.py`` binds ``loud =
        logger.warning`` at module level: the aliased text and its qualified name in
        that module, so ``from .log import loud; loud(...)`` matches as
        ``logger.warning(...)`` (semantics §Events, Aliases: a call through an alias
        matches as the aliased text; resolving it was already done by ``_resolve_alias``)."""
        module, _, name = full.rpartition(".")
        source = self.module(module)
        # (or a name bound by one alias beside its `def`s: a call of it may run either,
        # and matches as the aliased text there too, ``scopes.BESIDE_DEFS``; a review)
        alias = (source.aliases.get(name) or source.aliases.get(BESIDE_DEFS + name)) if source is not None else None
        if source is None or not alias or "(" in alias or "[" in alias:
            return ()
        head, _, rest = alias.partition(".")
        qualified = source.imports.get(head)
        return (alias, ".".join(filter(None, (qualified, rest)))) if qualified else (alias,)

    def receiver_class(self, facts: FileFacts, call: Call) -> Optional[str]:
        """The project class (key) of the receiver of ``x.m()`` when its type is known."""
        if call.receiver_type is None:
            return None
        name = call.callee.rsplit(".", 1)[-1]
        key = self.class_key(facts, call.receiver_type)
        if key is None:  # imported inside a function: through the typed qualified name
            for q in call.qualnames:
                if q.endswith("." + name):
                    cand = self.resolve_qualified(q[: -len(name) - 1])
                    if cand in self.classes:
                        key = cand
                        break
        return key

    def _callable(self, key: str) -> Optional[str]:
        if key in self.functions:
            return key
        if key in self.classes:
            # a dataclass's (an attrs class's) generated ``__init__`` is in no file: what
            # it runs of the project's is the hook it calls (docs/decisions.md, "A
            # dataclass's ``__post_init__``")
            return (self.method(key, "__init__") or self.method(key, "__post_init__")
                    or self.method(key, "__attrs_post_init__"))
        return None


#: the index's methods that resolve names as one file sees them (their first
#: parameter is that file's facts): ``ProjectIndex.enter_file`` around each when
#: module names clash
_FILE_METHODS = tuple(name for name, f in vars(ProjectIndex).items()
                      if callable(f) and f.__code__.co_varnames[1:2] == ("facts",))
#: the index's memos of answers by name, which a clashing module name makes differ by root
_NAME_MEMOS = ("_outside", "_defined", "_inherited", "_truthy", "_mixin_super", "_plain",
               "_after_memo", "_starred", "_star_names")


def _in_file(idx: ProjectIndex, method):
    """``method`` of ``idx``, resolving as its ``facts`` argument's file sees names."""
    def wrapped(facts: FileFacts, *args, **kwargs):
        before = idx._near_path
        idx._near_path = facts.path
        idx.enter_file(facts.path)
        try:
            return method(facts, *args, **kwargs)
        finally:
            idx._near_path = before
            idx.enter_file(before)
    return wrapped

def constructs_own_class(fn: FunctionFacts, call: Call) -> bool:
    """Whether a call in a method constructs the method's own class: ``cls(...)`` in a
    classmethod, ``self.__class__(...)`` or ``type(self)(...)`` in an instance method
    (a blind probe of session 58: their ``__init__``'s summary was not carried, though
    "calling a project class carries its ``__init__``'s summary"; their value is of the
    class: docs/decisions.md "Receiver types"). A subclass's instance is read as the
    class's, as ``-> Self`` is."""
    if fn.class_name is None or not fn.params:
        return False
    first = fn.params[0]
    decorators = {d.rsplit(".", 1)[-1] for d in fn.decorators}
    if "staticmethod" in decorators:
        return False
    if first in rebound_names(fn.body):
        return False  # `cls = REGISTRY[name]; cls(...)`: another class (a review)
    if "classmethod" in decorators or fn.name in IMPLICIT_CLASS_METHODS:
        return call.callee == first and is_classmethod_name(first)
    return call.callee == f"{first}.__class__" or (
        call.callee == "type()" and "".join(call.text.split()).startswith(f"type({first})("))


#: the bases that make a class an enum (``enum``'s, Django's choices)
ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum",
                        "Choices", "TextChoices", "IntegerChoices"})


@dataclass
class CallGraph:
    """Every function definition (two under one key share a summary), every resolved
    call, and the project call graph."""

    index: ProjectIndex
    defs: Dict[str, List[Tuple[FileFacts, FunctionFacts]]]
    callees: Dict[Tuple[str, int], str]  # (file, call id) -> callee key
    graph: nx.DiGraph
    # (file, call id) of a ``with`` item's call -> the project context manager it
    # enters: a ``@contextmanager`` generator's key or a class key (semantics §Events)
    managers: Dict[Tuple[str, int], str] = field(default_factory=dict)
    # functions whose calls the engine failed to resolve (key -> the error in one
    # line): their calls are matched by their text only, and the function is an OC901
    unresolved: Dict[str, str] = field(default_factory=dict)


def with_managers(stmts: List[Stmt]) -> Iterable[Call]:
    """The manager calls of every ``with`` item in a statement tree, in source order
    (a walk with its own stack: an `elif` chain of a thousand branches nests as deep)."""
    stack = [iter(stmts)]
    while stack:
        st = next(stack[-1], None)
        if st is None:
            stack.pop()
            continue
        if st.kind == StmtKind.WITH:
            yield from (item.manager for item in st.items if item.manager is not None)
        blocks = [st.body, st.orelse, st.finalbody, *(h.body for h in st.handlers), *(c.body for c in st.cases)]
        stack.append(itertools.chain.from_iterable(blocks))


def resolve(files: Iterable[FileFacts], within: Optional[AbstractSet[str]] = None) -> CallGraph:
    """Index the project and resolve every call of every function.

    ``within``: the shown paths whose functions are wanted (the pre-pass's files of
    needed functions); every file is still indexed, the others' calls are not
    resolved and their functions are not in the graph."""
    files = list(files)
    index = ProjectIndex.of(files)
    graph: nx.DiGraph = nx.DiGraph()
    defs: Dict[str, List[Tuple[FileFacts, FunctionFacts]]] = {}
    callees: Dict[Tuple[str, int], str] = {}
    managers: Dict[Tuple[str, int], str] = {}
    unresolved: Dict[str, str] = {}
    for facts in files:
        if facts.error is not None or (within is not None and facts.path not in within):
            continue
        for key, fn, edges, entered, manager_edges in resolve_file(index, facts, unresolved):
            if not fn.superseded:  # (a `def` a later one of its name replaces runs nowhere)
                defs.setdefault(key, []).append((facts, fn))
            graph.add_node(key)
            for call_id, target in edges:
                callees[(facts.path, call_id)] = target
                graph.add_edge(key, target)
            for call_id, target in entered:
                managers[(facts.path, call_id)] = target
            for target in manager_edges:
                graph.add_edge(key, target)
    return CallGraph(index, defs, callees, graph, managers, unresolved)


def resolve_file(index: ProjectIndex, facts: FileFacts, unresolved: Optional[Dict[str, str]] = None) -> list:
    """Per function of one file: (its key, the function, (call id, callee key) of its
    resolved calls, (call id, manager key) of the ``with`` items that enter a project
    context manager, the manager methods those entries run).

    The engine failing on one function (a bug of ours) leaves that function's calls
    unresolved, matched by their text only, and goes on; ``unresolved`` gets its key
    and the error, for its OC901 (failing on the file's typed names: each of its
    functions). The manager methods' keys also hold the wrappers the function's
    project decorators put around it (``ProjectIndex.wrappers_of``): edges of the
    call graph, as those are."""
    rows = []
    failure: Optional[str] = None
    try:
        depth.retrying(index.with_typed_names, facts)
    except Exception as exc:  # noqa: BLE001 - see above
        failure = _failed_on(facts.path, exc)
    for fn in facts.functions:
        key = fkey(facts.path, fn.qualname)
        try:
            rows.append(depth.retrying(_resolve_function, index, facts, fn, key))
        except Exception as exc:  # noqa: BLE001 - see above
            rows.append((key, fn, [], [], []))
            if unresolved is not None:
                unresolved.setdefault(key, _failed_on(key, exc))
            continue
        if failure is not None and unresolved is not None:
            unresolved.setdefault(key, failure)
    return rows


def _failed_on(where: str, exc: Exception) -> str:
    """One line for an OC901 of a failed resolution; the traceback for ``-v``."""
    raise_if_interrupted()  # (a Ctrl-C a library turned into an error)
    LOG.debug("internal error resolving the calls of %s", where, exc_info=True)
    return error_text(exc)


def _resolve_function(index: ProjectIndex, facts: FileFacts, fn: FunctionFacts, key: str) -> tuple:
    """``resolve_file``'s row of one function."""
    edges: List[Tuple[int, str]] = []
    resolved: Dict[int, str] = {}
    for call in fn.calls:
        target = index.callee_key(facts, fn, call)
        if index.drops(call, target):
            continue  # `self.refresh_token()` of an `async def`: a coroutine made and dropped, nothing of it runs
        if target is not None:
            edges.append((call.id, target))
            resolved[call.id] = target
    # a `with` item over a project manager: entering and leaving run its
    # generator (already an edge) or its class's __enter__ and __exit__
    entered: List[Tuple[int, str]] = []
    manager_edges: List[str] = []
    # a project decorator's wrapper runs around the function at each call of it
    manager_edges.extend(index.wrappers_of(facts, fn) if fn.decorators else ())
    for call in with_managers(fn.body):
        target = resolved.get(call.id)
        if target is not None and index.functions[target][1].context_manager:
            entered.append((call.id, target))
            continue
        handed = index.returned_manager(target) if target is not None and target in index.functions else None
        if handed is not None:  # `def connect(self): return self.meta_store.connect()`
            entered.append((call.id, handed))
            continue
        cls = index.called_class(facts, fn, call)
        if cls is None and target is not None and not call.callee.endswith(".__enter__"):
            # `with self._new_lock():` `-> StateLock`: a factory's product is the
            # manager. Not an instance's own `__enter__` (`with self._writer:`): what it
            # returns is the `as` value, the manager is still the instance
            cls = index.returned_class(target, index.class_called_on(facts, call))
        if cls is None and call.callee == "self.__enter__" and call.self_call == "self":
            cls = index.owner_class(facts, fn)  # `with self:` in a method: its own class
        if cls is None and call.callee.endswith(".__enter__"):
            cls = index.receiver_class_of(facts, fn, call)  # `with self.uow:` over an instance (a base's type too)
            if cls is None:
                cls = index.property_class(facts, fn, call)  # `with self._lock:` a property
            if cls is None:
                # `with db_session:` over an instance imported from the module that binds it
                found = index.imported_instance(facts, call)
                if found is not None and found[2] == "__enter__":
                    cls = index.class_key(found[0], found[1])
        if cls is None:
            continue
        # (the protocol the `with` calls: `async with` of a class with both runs its
        # `__aenter__`/`__aexit__`, whose summaries a partial run must then read; held-out
        # set 477)
        methods = [m for m in index.manager_methods(cls, call.async_with) if m is not None]
        if methods:
            entered.append((call.id, cls))
            manager_edges.extend(methods)
            # (the exit's `self.m()` as this class finds it: an override's summary is read)
            manager_edges.extend(index.exit_self_methods(cls, index.manager_methods(cls, call.async_with)[1]))
    return key, fn, edges, entered, manager_edges


#: bases that give an instance no ``__bool__``/``__len__`` of their own
#: bases from outside the project that bind no method a project class defines
#: (``ProjectIndex.mixin_super``); ``Exception`` binds ``__init__``, ``__str__``...
_MIXIN_PLAIN = frozenset({"object", "builtins.object", "ABC", "abc.ABC", "Generic", "typing.Generic",
                          "Protocol", "typing.Protocol"})
#: what every class gets from ``object`` (``super().__init__()`` in a mixin may run it)
_OBJECT_NAMES = frozenset(dir(object))
_PLAIN_BASES = frozenset({"object", "ABC", "abc.ABC", "Generic", "typing.Generic", "Exception",
                          "builtins.object", "builtins.Exception"})


@dataclass
class Summaries:
    """Per function key: its ``Effects`` and how each (part, class) gets there."""

    index: ProjectIndex
    effects: Dict[str, Effects]
    origins: Dict[str, Dict[Tuple[str, str], Origin]]
    callees: Dict[Tuple[str, int], str]  # (file, call id) -> callee key
    graph: nx.DiGraph
    manager_calls: Dict[Tuple[str, int], str] = field(default_factory=dict)  # see CallGraph.managers
    managers: Dict[str, ManagerEffects] = field(default_factory=dict)  # generator or class key
    # functions whose summary graph the engine failed on (key -> the error in one
    # line): their summary is the fallback's, and the function is an OC901
    failed: Dict[str, str] = field(default_factory=dict)
    # functions whose calls the engine failed to resolve (``CallGraph.unresolved``)
    unresolved: Dict[str, str] = field(default_factory=dict)

    def manager_of(self, path: str, call: Call) -> Optional[ManagerEffects]:
        """The effects of the project context manager a ``with`` item's call enters (an
        ``async with``'s, when its class has both protocols: ``async_key``)."""
        key = self.manager_calls.get((path, call.id))
        if key is None:
            return None
        if call.async_with and async_key(key) in self.managers:
            return self.managers[async_key(key)]
        return self.managers.get(key)

    @property
    def classes(self) -> Dict[str, FrozenSet[str]]:
        """May-perform classes per function (on return or on raise)."""
        return {k: e.on_return | e.on_raise for k, e in self.effects.items()}

    def callee(self, path: str, call: Call) -> Optional[str]:
        return self.callees.get((path, call.id))

    def effects_of(self, path: str, call: Call) -> Tuple[Effects, Optional[str]]:
        """The callee's effects (``NO_EFFECTS`` when the call is not resolved)."""
        callee = self.callees.get((path, call.id))
        if callee is None:
            return NO_EFFECTS, None
        return self.effects.get(callee, NO_EFFECTS).for_call(call), callee

    def carried(self, path: str, call: Call) -> Tuple[FrozenSet[str], Optional[str]]:
        """The classes a call carries on return from its callee, and the callee's key."""
        eff, callee = self.effects_of(path, call)
        return eff.on_return, callee

    def via(self, callee: str, cls: str, part: str = "return", limit: int = 1000,
            flags: Sequence[Tuple[str, bool]] = ()) -> List[Tuple[str, Origin]]:
        """The chain of (function key, origin) down to the call that performs ``cls``
        (a ``terminal-append`` made terminal by markers on the way: its ``append``).
        Followed to its end (a cycle ends it; ``limit`` only bounds the walk): its last
        origin is the call a finding's related place names, never a helper's call
        half-way (the sweep of session 35 found six-hop cuts in pandas). ``flags``: the
        flag arguments of the call of ``callee`` (``Call.flags``): where one rules out
        the summary's origin, the place the callee still performs ``cls`` under it
        (``effects.flag_part``)."""
        out: List[Tuple[str, Origin]] = []
        key: Optional[str] = callee
        seen = set()
        while key is not None and (key, part) not in seen and len(out) < limit:
            seen.add((key, part))
            table = self.origins.get(key, {})
            origin = None
            for param, value in flag_gates(flags):  # (the first hop only: deeper calls have their own)
                fp = flag_part(part, param, value)
                origin = table.get((fp, cls))
                if origin is None and cls == "terminal-append" and (fp, "append") in table:
                    origin, cls = table[(fp, "append")], "append"
                if origin is not None:
                    break
            flags = ()
            # a manager part of a function that is no generator: its whole summary
            for p in (part, "return") if part in MANAGER_PARTS else (part,):
                if origin is not None:
                    break
                origin = table.get((p, cls))
                if origin is None and cls == "terminal-append" and (p, "append") in table:
                    origin, cls = table[(p, "append")], "append"
                if origin is not None:
                    break
            if origin is None:
                # what a project decorator's wrapper does (``ProjectIndex.wrappers_of``)
                row = self.index.functions.get(key)
                wrappers = self.index.wrappers_of(*row) if row is not None and row[1].decorators else ()
                found = [w for w in wrappers if (part, cls) in self.origins.get(w, {})]
                if found:
                    key = found[0]
                    continue
                break
            out.append((key, origin))
            key, part = origin.callee, origin.part
        return out
