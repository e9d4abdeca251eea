"""The intermediate representation: what one source file says, as plain picklable data.

The front end (``frontend``) fills these dataclasses from libcst and drops the tree;
every later stage reads only them. A function's body is a tiny statement language:
every ``Stmt`` holds its own calls in Python's evaluation order (``ExprSeq``), with
``Choice`` for short circuits and conditional expressions and ``Repeat`` for
comprehension bodies; ``Stmt.kind`` is a ``StmtKind``. Nothing here depends on the
configuration, so a file's facts are cached by content hash (``cache``: its codec and
its schema hash read the dataclasses of this module, and only these) and carried
across a process pool.
"""
from __future__ import annotations

import functools
import sys
from dataclasses import field
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Set, Tuple, Union

from .kinds import StmtKind

# Facts classes keep their fields in slots where Python can (3.10+): a project's facts
# are millions of small objects (a span per call), and an instance ``__dict__`` was
# more than half of each (docs/performance.md, "Session 13").
if TYPE_CHECKING or sys.version_info < (3, 10):
    from dataclasses import dataclass
else:
    from dataclasses import dataclass as _dataclass
    dataclass = functools.partial(_dataclass, slots=True)

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


#: ``Call.lead_import`` of a plain name nothing in the file binds, in a module with a
#: star import: the name after it, to look up in the star-imported modules
STAR_LEAD = "*."


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
    own_run: Tuple[str, ...] = ()  # the event's own callee's last component, split (marker source 3)
    # of ``marker_runs``, those of the assignments binding a plain name the arguments
    # read: (name, the assignment's line, run), what a witness says a marker came by
    bound_runs: Tuple[Tuple[str, int, Tuple[str, ...]], ...] = ()
    # its value, bound to a plain name, is an argument of another call of the function
    # (``state = exception_to_failed_state(exc)`` ... ``set_state(state)``): a record it
    # builds for that call; appending only through its summary, it carries no marker
    # (docs/decisions.md "A record built for another call")
    builds: bool = False
    # plain names the arguments and the receiver read (``run`` of ``f(run.id)``,
    # ``run.save()``), and one level through the assignments that bind them: a loop's
    # item reached again is another item (docs/decisions.md "A loop over records")
    reads: Tuple[str, ...] = ()
    # the class of the receiver of ``x.m()``/``self.x.m()`` as written (semantics §Events receiver
    # types); its qualified form ``module.T.m`` is among ``qualnames``
    receiver_type: Optional[str] = None
    # the first positional argument's text when it is a string constant, an f-string or a
    # name bound once to one (``conn.execute("COMMIT")``): what an event pattern's argument
    # part matches (``*.execute("INSERT INTO audit*")``; ``scopes.literal_text``)
    lead: Optional[str] = None
    # that argument's import-qualified name when it is an imported constant, of a
    # project module or through one (``conn.execute(INSERT_EVENT)``, ``text(sql.X)`` of
    # ``from app.sql import INSERT_EVENT``): the project phase reads the module's
    # string there (``imported_lead``); None when ``lead`` was read here
    lead_import: Optional[str] = None
    # ``x(...)`` where ``x`` is an instance of a class ``T`` known as a receiver's is
    # (``saver: Saver``; ``self._saver = saver``): Python runs ``T.__call__``. ``T`` as
    # written; ``module.T.__call__`` is among ``qualnames`` (docs/decisions.md "An
    # instance called")
    invokes: Optional[str] = None
    aug: bool = False
    # ``await f()`` (or awaited through ``wait_for``): a coroutine's body runs here; a
    # coroutine call not awaited (``ensure_future(f())``) only makes it, so an ``async
    # def`` that never returns is a dead end only awaited (docs/decisions.md "A helper
    # that never returns")
    awaited: bool = False
    # the whole value of an expression statement (``self.refresh_token()``), neither
    # awaited nor kept: a coroutine it makes is dropped unrun, so a call of a plain
    # ``async def`` there runs nothing of its body (docs/decisions.md "A coroutine
    # dropped unrun"; ``summaries.plain_coroutine``)
    discarded: bool = False
    # the first argument of a call that runs it as a task of its own
    # (``asyncio.create_task(self._persist(run))``): the coroutine's failures go to the
    # task and never raise here; what it does, however it ends, may happen
    # (docs/decisions.md "A coroutine run as a detached task")
    detached: bool = False
    # the manager of an ``async with`` item: Python calls ``__aenter__``/``__aexit__``
    async_with: bool = False
    exits: Optional[str] = None  # "sys.exit" / "os._exit"
    suppress_types: Optional[Tuple[str, ...]] = None  # contextlib.suppress(...) types
    self_call: Optional[str] = None  # "self" / "cls" / "super" when callee is one of them
    # the callee's first name is one the calling function or an enclosing one binds (a
    # parameter, an assignment, a function-level import): Python never looks it up in
    # the module, so the module's own ``def``/``class`` of that name is not what runs
    # (docs/decisions.md "A function's own name hides the module's"). 1: the calling
    # function binds it, 2: the one enclosing it, ...; -1: a comprehension it is in; 0: none
    local_head: int = 0
    # a ``log`` call's constant level as the logger method it names ("error" for
    # ``logger.log(logging.ERROR, ...)``; ``frontend.resolution.level_name``): the
    # project phase maps the names it adds (``typed``) by it too. Also a named level
    # given to any other call (``self._log(logging.ERROR, ...)``), for a wrapper that
    # hands it on (``level_from``)
    level: Optional[str] = None
    # a ``log`` call whose level is a plain name (``logger.log(level, ...)``): that name,
    # which a wrapper's parameter may be; its callers' constant level is then this
    # call's (docs/decisions.md "A logging wrapper's level")
    level_from: Optional[str] = None
    # lines of the `except` clauses whose caught exception flows into this call's
    # arguments (semantics §Contracts, handing the exception on); conversions pass it through
    hands_on: Tuple[int, ...] = ()
    # ``with self.x:`` where nothing in the file types ``x`` (``self.x.__enter__``):
    # only the project phase may know its class (a base's type, through the MRO), so
    # no pattern matches its text, only the qualified names that phase adds (``typed``)
    bare_enter: bool = False
    # ``module.T.m`` of ``self.x.m()`` where only a base class in another file types
    # ``x``: set by the project phase on every resolution of the file
    # (``summaries.ProjectIndex.typed_through_base``), matched like ``qualnames``; no
    # file's facts hold it (not an ``__init__`` field: the cache never stores it)
    typed: Tuple[str, ...] = field(default=(), init=False)
    # the string constant ``lead_import`` names, read in its module by the project
    # phase (``summaries.ProjectIndex.with_typed_names``), set as ``typed`` is; matched
    # where ``lead`` is (``statement``)
    imported_lead: Optional[str] = field(default=None, init=False)
    # the text of its first positional argument when that is a name or an attribute
    # chain (``os.replace`` of ``self._run_safely(os.replace, tmp, dst)``): what runs
    # when the callee is a project helper that calls its first parameter
    # (``FunctionFacts.runs_param``; docs/decisions.md "A callable handed to a project
    # helper")
    ref: Optional[str] = None
    # ``ref``'s names and receiver type as a call of it there would have them
    # (``self.store.update_job`` of ``store: JobStore``: ``app.store.JobStore.update_job``,
    # ``JobStore``): a qualified pattern matches the handed callable as it matches the
    # call (held-out set 478)
    ref_names: Tuple[str, ...] = ()
    ref_type: Optional[str] = None
    # its keyword arguments written as ``True``/``False`` (``repo.save(s, commit=False)``):
    # a project callee whose test of that parameter guards an event does not perform it
    # here (``summaries.Effects.gated``; docs/decisions.md "A flag argument")
    flags: Tuple[Tuple[str, bool], ...] = ()
    # its arguments that name a logger level or method (``level=logging.ERROR``,
    # ``"error"``), by position (``"0"``, ...) or keyword, as that method
    # (``frontend.resolution.level_argument``): what a project wrapper that hands the
    # parameter on as its logger's level logs at here (``summaries.forwarded_level_names``;
    # docs/decisions.md "A logger method named by a string")
    level_args: Tuple[Tuple[str, str], ...] = ()
    # a call of a choice of callees (``(a if c else b)(x)``, or a name bound once to
    # one: ``log = logger.error if c else logger.warning``): it matches as each, but
    # is no transaction manager, as a ``with`` over a choice is none (docs/decisions.md
    # "A name bound to a choice of callees")
    chosen: bool = False
    # the receiver was made by a call of an imported plain name, bound to the receiver
    # once (``s = async_session()``, ``with async_session() as s:``,
    # ``async_session().commit()``): that name, qualified (``app.db.async_session``);
    # the project's summaries tell what it makes (``summaries.ProjectIndex.product_names``:
    # a library session factory's instance makes its sessions). Never matched by a
    # pattern (docs/decisions.md "A session a `sessionmaker` makes"). Marked with a
    # leading ``=`` (``scopes.PLAIN_CALL``) when the receiver is the result of a plain
    # call, no ``with`` item's: a project context manager's call makes its context
    # manager there, not what it yields
    made_by: Optional[str] = None
    # a coroutine handed to ``asyncio.gather(..., return_exceptions=True)``: its body
    # runs there, whatever way it ends, and what it raises comes back as a value,
    # never out of the call (read as ``detached`` is, without its note; docs/decisions.md
    # "A gather that returns its exceptions")
    gathered: bool = False

    @property
    def statement(self) -> Optional[str]:
        """The statement text an argument part matches: the file's own reading of the
        first argument (``lead``), else the imported constant's (``imported_lead``)."""
        return self.lead if self.lead is not None else self.imported_lead


def runs_first_param(fn: "FunctionFacts", positional: Tuple[str, ...]) -> bool:
    """``FunctionFacts.runs_param`` of a function whose parameters a positional
    argument can reach are ``positional`` (``self``/``cls`` first in a method that is no
    ``staticmethod``; never ``*args``): a call of its own (not a nested function's) of
    the first one by name (docs/decisions.md "A callable handed to a project helper").
    Read off the calls the front end recorded: no walk of its own."""
    skip = 1 if fn.class_name and not any(d.rsplit(".", 1)[-1] == "staticmethod" for d in fn.decorators) else 0
    if len(positional) <= skip:
        return False
    first = positional[skip]
    return any(c.callee == first and c.local_head == 1 for c in fn.calls)


def returned_wrapper(fn: "FunctionFacts", positional: Tuple[str, ...], returned: Iterable[str],
                     nested: Callable[[str], Optional["FunctionFacts"]]) -> Optional[str]:
    """``FunctionFacts.wrapper`` of a function whose parameters a positional argument
    can reach are ``positional`` and whose own ``return`` statements name ``returned``
    (``returned_names``): the qualname of a function nested in it that it returns and
    that calls its first positional parameter (or, in a class, its second) as the function
    enclosing it binds it (``def action(fn): def wrapper(self, *a): fn(self, *a);
    self.save(); return wrapper``). A decorator factory (``def action(name): def
    deco(fn): ...; return deco``) has its returned decorator's wrapper. ``nested``:
    the facts of a nested function by qualname, made before the function's own
    (docs/decisions.md "A project decorator's wrapper")."""
    # (a function of a class body used there as a decorator has no ``self``: its
    # first parameter is the function, as for a method's second)
    skip = 1 if fn.class_name and not any(d.rsplit(".", 1)[-1] == "staticmethod" for d in fn.decorators) else 0
    firsts = positional[:skip + 1]
    for name in returned:
        qual = fn.local_functions.get(name)
        inner = nested(qual) if qual is not None else None
        if inner is None:
            continue
        if any(c.callee in firsts and c.local_head == 2 for c in inner.calls):
            return qual
        if inner.wrapper is not None:
            return inner.wrapper
    return None


def rebound_names(body: List["Stmt"]) -> Set[str]:
    """The plain names some statement of ``body`` (nested blocks included) binds."""
    out: Set[str] = set()
    for st in body:
        out.update(st.writes)
        out.update(st.early_writes)
        for part in (st.body, st.orelse, st.finalbody, *(h.body for h in st.handlers), *(c.body for c in st.cases)):
            out |= rebound_names(part)
    return out


def is_contextlib_suppress(call: Call) -> bool:
    """Whether a call is ``contextlib.suppress(...)``: by its text, its import-qualified
    names, or the name a project module re-exports it under (``Call.typed``). The front
    end records the types (``suppress_types``) of any call named ``suppress`` and of
    any imported ``with`` manager (``from .util import ignore``); only these count as
    the suppressing manager (semantics §Events)."""
    return (call.callee == "contextlib.suppress" or "contextlib.suppress" in call.qualnames
            or "contextlib.suppress" in call.typed)


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
    # the call that is the whole first iterable, evaluated just before (``[f(r) for r in
    # self._rows()]``): a generator's tail runs when the rounds find it exhausted, after
    # them, as a ``for`` statement's does (``cfg``'s ``exhausted`` point; held-out set 311)
    iter_call: Optional[int] = None


@dataclass
class RaisePoint:
    """An attribute access or subscript on a value a call produced: it can raise
    after that call took effect (``store.save(run)["version"]``). ``span`` and ``text``:
    the expression that raises, which a witness leaving there shows (held-out set 225:
    ``network.submit_scrobbles(batch).get()``'s ``.get`` after the append took effect)."""

    line: int
    span: Optional[Span] = None
    text: str = ""


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
    # per type the clause names, the built-in exception class it surely is (a name
    # nothing in the module binds, no star import), else None (``cfg.clause_catches``)
    builtins: Tuple[Optional[str], ...] = ()


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
    lock: bool = False  # a lock by its name (``resolution.is_lock``): its exit cannot raise
    target: str = ""  # the plain name it binds (``as f``), else ""
    # a manager that re-raises the exception being handled at its exit, and nothing in
    # the block can stop it (``frontend.resolution.RERAISING_MANAGERS``)
    reraises: bool = False
    # a test's manager whose body must raise (``frontend.resolution.expecting_manager``):
    # what the body raises is caught there, and a body that ends normally fails the test
    expects_raise: bool = False


@dataclass
class Case:
    span: Span
    text: str
    always: bool  # wildcard or bare capture without guard
    guard: ExprSeq
    body: List["Stmt"]
    # the pattern alone always matches (a wildcard or a bare capture), and the case
    # has a guard: such a case always runs its guard, and only the guard can fail
    irrefutable: bool = False
    guarded: bool = False
    header_span: Optional[Span] = None  # ``case ...:`` to its colon (``Stmt.header_span``)


@dataclass
class Stmt:
    """A statement. ``kind`` says which optional fields are used."""

    kind: StmtKind
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
    infinite: bool = False  # ``while True``, ``if True``: a test that is always true (no false edge)
    # an ``if``/``while``/``for``/``match`` header, from its keyword to its colon: the
    # range a witness's branch step shows (the statement's ``span`` holds its body too)
    header_span: Optional[Span] = None
    never: bool = False  # ``while 0``, ``if False``, ``for x in ()``: a test that is always false (no true edge)
    # ``for h in (a, b):``: a loop over a literal of items (no ``*``) takes one at its
    # first test, whatever it does at the next (held-out set 371)
    first_item: bool = False
    has_finally: bool = False
    star: bool = False  # ``try``/``except*``: every matching clause runs, in order
    finally_span: Optional[Span] = None  # the `finally:` clause of a try
    returns: Optional[bool] = None  # ``return True`` / ``return False`` (a constant)
    test_call: Optional[int] = None  # if/while: id of the call that is the whole test
    # for: id of the call that is the whole iterable; a simple statement: of the call
    # ``yield from`` delegates to
    iter_call: Optional[int] = None
    test_negated: bool = False  # ... under ``not``
    # ... or the last operand of an ``and``/``or`` (docs/decisions.md): "and" / "or";
    # or its first, the other operand having no event: "first-and" / "first-or"
    test_chain: Optional[str] = None
    # ... that operand being the call under ``not`` (``A and not f()``): on a branch the
    # call decided, it returned the opposite of the operand's value
    test_operand_negated: bool = False
    # if/while: the test may ask whether a record already ended (``run.is_finished``), an
    # idempotency guard for ``at-most-once`` (docs/decisions.md): its predicates' token
    # runs, and for each the branch that says "not ended" (True: the true branch)
    guard_runs: Tuple[Tuple[str, ...], ...] = ()
    guard_open: Tuple[bool, ...] = ()
    # correlated tests (if/elif/while/assert): what the test tells on each branch
    true_facts: Tuple[Fact, ...] = ()
    false_facts: Tuple[Fact, ...] = ()
    # a ``first-and``/``first-or`` test (``test_chain``): what its other operand alone
    # tells on its true and false side, which decides the test where the call did not
    operand_facts: Tuple[Tuple[Fact, ...], Tuple[Fact, ...]] = ((), ())
    writes: Tuple[str, ...] = ()  # plain names the statement (its header) rebinds
    # of those, the ones bound while its expressions run (a walrus), so also when the
    # statement raises afterwards; the others are bound only once it did not raise
    early_writes: Tuple[str, ...] = ()
    mutates: Tuple[str, ...] = ()  # plain names whose object it may change (`x.m()`, `x[k] = v`)
    # of the names it rebinds, those bound to a literal (``x = []``, ``done = False``,
    # ``err = None``) and what the literal is (``feasible``'s mask: 1 None, 2 falsy,
    # 4 truthy): the witness of a finding prefers a walk that does not test such a
    # name against its value (docs/decisions.md "Witnesses and literal assignments")
    literals: Tuple[Tuple[str, int], ...] = ()
    # lines of the `except` clauses whose exception flows into a return or yield value,
    # an assignment's right-hand side or a walrus of this statement (its header)
    hands_on: Tuple[int, ...] = ()
    yields: bool = False  # a simple statement holding a ``yield`` (``cfg``: a way back to the consumer)
    # a ``raise`` of the exception its ``except`` clause handles: bare, or of the
    # clause's ``as`` name while it still holds it (``cfg``: an outer clause of the
    # same type catches it for sure)
    reraise: bool = False
    # a ``raise`` that says "not implemented here": ``NotImplementedError``, or an
    # exception whose message says so (``frontend.statements.says_not_implemented``);
    # a method holding one is a hook an override replaces, no dead end
    placeholder: bool = False


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
    # the class its return annotation names (import-qualified, else as written): a
    # factory or property a `with` enters through (``-> StateLock``)
    returns: Optional[str] = None
    # (name, class: import-qualified, else as written) for each parameter or local whose
    # annotations name one class (``job: Job | None``): a project class that defines no
    # ``__bool__``/``__len__`` is truthy whenever it is not None (``feasible``)
    typed: Tuple[Tuple[str, str], ...] = ()
    # the parameters a positional argument can reach, in order (``*args`` last); not
    # the keyword-only ones nor ``**kwargs`` (an ``__exit__``'s exception parameters)
    positional: Tuple[str, ...] = ()
    # the ``*args`` parameter's name (the last of ``positional`` then): it holds a tuple,
    # of the exception's three values or three Nones in an ``__exit__(self, *exc_info)``
    star: Optional[str] = None
    # the parameters that are flags: a default written ``True``/``False``, or an
    # annotation ``bool`` (``Optional[bool]``, ``bool | None``): what a call's ``True``/
    # ``False`` keyword argument may rule out (``Call.flags``, ``effects._flag_gates``)
    flag_params: Tuple[str, ...] = ()
    # an ``async def``: a call of it makes a coroutine and runs nothing until awaited
    is_async: bool = False
    # the scope that defines it binds its name again other than by a ``def``
    # (``f = sync_compatible(f)``): a call of the name may run what that binding holds
    # (``summaries.ProjectIndex.plain_coroutine``)
    rebound: bool = False
    # a generator function (not a ``@contextmanager`` one): the last line of the last
    # statement of its body that holds a ``yield`` (what runs after it runs only when a
    # consumer's ``next()`` finds it exhausted); 0 for any other function
    tail_line: int = 0
    # a generator's compound statements whose header holds a ``yield`` of its own, and
    # its ``return (yield x)``s: where each starts (line, column), where its consumer
    # gets control back (``effects.graph_effects``; ``cfg`` marks a simple statement's)
    yield_at: Tuple[Tuple[int, int], ...] = ()
    # the one call a function's body returns, doing nothing else (a docstring aside):
    # ``def connect(self): return self.meta_store.connect()``. A ``with`` over the
    # function's call enters what that call makes, when it is a project context
    # manager (``summaries.ProjectIndex.returned_manager``); a stub keeps it
    handed: Optional[Call] = None
    # its body calls its first positional parameter (after ``self``/``cls``) by name,
    # ``def _run_safely(self, fn, *args): return fn(*args)``, and lets that call's
    # a call of it runs the callable it is handed there (``runs_first_param``); a
    # stub keeps it
    runs_param: bool = False
    # a decorator: the qualname of the nested function it returns that runs the
    # function it decorates (``returned_wrapper``): a call of a function it decorates
    # runs that wrapper's body around its own; a stub keeps it
    wrapper: Optional[str] = None
    # a later ``def`` of the same name in the same module or class body replaces it
    # (``scopes.superseded_defs``): no call runs it, so it is no definition of its key
    # for summaries (its own findings are still checked)
    superseded: bool = False
    # its own body (not a function or class it defines) holds an ``except`` clause: the
    # outline pre-pass's question for a ``silent-handler`` rule (``focus``), which can
    # find in a function only where it holds one (both frontends set it)
    handles: bool = False


def holds_handler(body: List["Stmt"]) -> bool:
    """Whether statements (and the blocks inside them) hold an ``except`` clause."""
    for st in body:
        if st.handlers or holds_handler(st.body) or holds_handler(st.orelse) or holds_handler(st.finalbody):
            return True
        if any(holds_handler(c.body) for c in st.cases):
            return True
    return False


@dataclass
class ClassFacts:
    qualname: str
    bases: Tuple[str, ...]  # dotted text / qualified names of the bases
    methods: Tuple[str, ...]
    # (attribute, its class: import-qualified, else as written) for the ``self.x`` this
    # class types itself; a subclass in another file reads them through the MRO
    attr_types: Tuple[Tuple[str, str], ...] = ()
    # (name, the text it stands for, that text's qualified names...) for each
    # class-level alias (``warn = logger.warning``): a subclass's ``self.warn(...)``
    # finds it through the MRO in the project phase, in whatever file the base is
    aliases: Tuple[Tuple[str, ...], ...] = ()
    # the body binds ``__bool__`` or ``__len__`` (a ``def``, an assignment, an import):
    # an instance may be falsy (``ProjectIndex.always_truthy``)
    truth: bool = False
    # (attribute, its class) for each class-level binding the body types (``objects =
    # ContentManager()``, ``objects: ContentManager``): what ``C.objects`` is when read
    # through the class (``ProjectIndex.class_attr_typing``), where an instance's
    # ``self.x`` typing does not count
    class_types: Tuple[Tuple[str, str], ...] = ()
    # the attributes that hold a list in memory and nothing else the file types
    # (``self.history = []``, ``history: List[Step] = field(default_factory=list)``):
    # ``suggest`` proposes no ``*.history.append`` for them (held-out set 405)
    containers: Tuple[str, ...] = ()


@dataclass
class ParseError:
    message: str
    line: int = 1
    col: int = 0
    # the engine's own reading of the file failed (its OC901), not the parser: the
    # facts are not remembered (``sources``), so the next run tries again
    internal: bool = False


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
    # the names the module's ``__all__`` lists (``frontend.imports.module_exports``);
    # None: no ``__all__`` of literals, so a star import of the module binds its names
    # without a leading underscore
    exports: Optional[List[str]] = None
    # module-level aliases (semantics §Aliases): name -> the dotted name it is bound to,
    # as written; another module that imports the name resolves it through them
    aliases: Dict[str, str] = field(default_factory=dict)
    # module-level names bound once, to a string constant (``INSERT_EVENT = "INSERT
    # ..."``): an importing module's call that hands one on reads it (``Call.lead_import``);
    # None for a name the module imports and binds again (no re-export to follow)
    strings: Dict[str, Optional[str]] = field(default_factory=dict)
    # attributes of imported modules the file assigns (``models.get_pending_updates =
    # ...``), as written: a function so replaced from outside is no dead end where it is
    # called (``ProjectIndex.rebound_keys``)
    rebinds: Tuple[str, ...] = ()
    suppressions: List[Suppression] = field(default_factory=list)
    lines: List[str] = field(default_factory=list)
    error: Optional[ParseError] = None
    module_aliases: List[str] = field(default_factory=list)  # other import names (src roots); set by the runner
    # an outline (``frontend.outline``): what call resolution reads, from ``ast`` alone;
    # no statement trees, no lines: it never feeds a graph
    outline: bool = False
    # facts read whole only for the functions a run needs (``frontend.extract``'s
    # ``units``): the qualified names of the functions that are outlines here (no
    # statement tree; they never feed a graph). Empty: every function is whole.
    outlined: Tuple[str, ...] = ()
    # a fingerprint of the bytes these facts were read from (``sources``; empty when
    # not read from bytes here, as an index stub): the libcst pass of a needed file
    # takes the outline pass's outline only for the very same bytes
    digest: str = ""



BROAD_TYPES = {"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"}


def utf16_col(line: str, col: int) -> int:
    """A code-point column of ``line`` in UTF-16 code units (a ``Span``'s ``*16`` twins)."""
    prefix = line[:col]
    if prefix.isascii():
        return col
    return len(prefix.encode("utf-16-le")) // 2


def share_calls(fn: FunctionFacts) -> None:
    """Make every call of ``fn``'s statement tree the very object ``fn.calls`` holds
    for it (by ``Call.id``). The front end builds them so; facts read back from the
    cache hold a copy of each call in ``calls`` and another in the tree, and a field
    a later phase sets on ``calls`` (``Call.typed``) would not reach the graphs,
    which read the tree (docs/decisions.md, "A name set by the project phase")."""
    if not fn.calls or not fn.body:
        return
    by_id = {c.id: c for c in fn.calls}

    def seq(items: "ExprSeq") -> None:
        for i, item in enumerate(items):
            if isinstance(item, Call):
                items[i] = by_id.get(item.id, item)
            elif isinstance(item, Choice):
                for option in item.options:
                    seq(option)
            elif isinstance(item, Repeat):
                seq(item.body)

    def stmts(body: List[Stmt]) -> None:
        for st in body:
            seq(st.events)
            seq(st.message)
            for w in st.items:
                seq(w.events)
                if w.manager is not None:
                    w.manager = by_id.get(w.manager.id, w.manager)
            stmts(st.body)
            stmts(st.orelse)
            stmts(st.finalbody)
            for h in st.handlers:
                stmts(h.body)
            for c in st.cases:
                seq(c.guard)
                stmts(c.body)

    stmts(fn.body)
