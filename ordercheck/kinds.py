"""Kinds are values, not strings scattered through modules.

Every family of kinds the pipeline dispatches on is one ``str``-valued enum here, at
the ground of the house, so that a misspelt kind is an ``AttributeError`` at import
time and a kind nobody handles is a loud error in the stage that dispatches on it.
Members compare and hash equal to their string values, so DOT output, JSON caches and
tests keep reading the same text.
"""
from __future__ import annotations

from enum import Enum


class StrEnum(str, Enum):
    """``str`` mix-in enum whose ``str()`` and ``format()`` are the bare value (the
    standard library's ``enum.StrEnum`` is Python 3.11+ only)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class StmtKind(StrEnum):
    """A statement of the facts' statement tree (``ir.Stmt.kind``): one row each in
    the extractor and in the graph builder's handler tables."""

    SIMPLE = "simple"  # expressions, assignments, imports, deletes, ...
    PASS = "pass"
    CLASS = "class"  # a nested class body (its statements run where it stands)
    RETURN = "return"
    RAISE = "raise"
    ASSERT = "assert"
    BREAK = "break"
    CONTINUE = "continue"
    IF = "if"
    WHILE = "while"
    FOR = "for"
    TRY = "try"
    WITH = "with"
    MATCH = "match"


class NodeKind(StrEnum):
    """A node of a function's control-flow graph (``kind`` attribute, made by ``cfg``)."""

    ENTRY = "entry"  # the node ``ENTRY``
    EXIT = "exit"  # the node ``EXIT``: a normal return or fall-through
    RAISE = "raise"  # the node ``RAISE``: an exception leaves the function
    STMT = "stmt"  # a statement, where it starts (its ``stmt`` attribute is its StmtKind)
    CALL = "call"  # one call, in evaluation order
    LOOP = "loop"  # a ``for`` loop's head (``next()``)
    CASE = "case"  # a ``match`` case
    HANDLER = "handler"  # an ``except`` clause's entry
    FINALLY = "finally"  # the entry of one copy of a ``finally`` body (one per way out)
    WITH_EXIT = "with-exit"  # a ``with`` item's ``__exit__`` (one per way out)
    YIELD = "yield"  # a ``@contextmanager`` generator's ``yield``
    POINT = "point"  # synthetic: a statement raises after its calls, a branch of a choice, a comprehension
    RERAISE = "reraise"  # synthetic: the end of a ``finally`` copy that re-raises
    RAISED = "raised"  # synthetic: a callee's on-raise effects, on the call's exceptional edges
    OUTCOME = "outcome"  # synthetic: a tested callee's conditional effects, on one branch
    EXHAUSTED = "exhausted"  # synthetic: a generator's effects after its last ``yield``, on its ``for``'s way out


class EdgeKind(StrEnum):
    """An edge of a control-flow graph (``kind`` attribute); an edge that also carries
    an exception has ``exception=True`` besides."""

    NORMAL = "normal"
    TRUE = "true"  # a test held
    FALSE = "false"  # a test failed
    LOOP = "loop"  # back to a loop's head
    EXCEPTION = "exception"  # an exception; out of an event: the event did not take effect
    FINALLY = "finally"  # a way out (return, break, continue) through a ``finally`` or ``with`` exit


class RegionKind(StrEnum):
    """A handler region (``cfg.HandlerRegion.kind``): a place that catches an exception."""

    EXCEPT = "except"  # an ``except`` clause
    FINALLY = "finally"  # the exception copy of a ``finally`` body
    WITH = "with"  # the exception exit of a suppressing ``with``


class Way(StrEnum):
    """A way out of a statement: what a jump is when it crosses a frame of the graph
    builder (``way`` attribute of ``finally`` copies and ``with`` exits)."""

    NORMAL = "normal"  # falls through
    RETURN = "return"
    BREAK = "break"
    CONTINUE = "continue"
    RAISE = "raise"  # an exception
    EXIT = "exit"  # ``sys.exit()``'s ``SystemExit``, through a ``finally`` (``cfg.exit_from``)


class FrameKind(StrEnum):
    """A frame of the graph builder's frame stack (CPython's compiler ``fblocktype``):
    a statement a jump may have to pass on its way out. ``cfg._Builder.unwind`` has one
    row per kind saying what a jump crossing it does."""

    LOOP = "loop"  # takes break and continue
    EXCEPT = "except"  # a ``try`` body with ``except`` clauses: takes an exception
    FINALLY = "finally"  # a ``try`` body with ``finally``: every way out runs its copy
    WITH = "with"  # a ``with`` item's body: every way out runs ``__exit__``


class EventClass(StrEnum):
    """The event classes the engine itself names (semantics §Events); their patterns
    are the TOML files of ``rules/vocab``, and a configuration may define more, which
    stay plain strings. Class sets handed on as data (summaries, caches) hold plain
    strings: write ``EventClass.X.value`` where a class is produced, the member where
    one is compared."""

    SAVE = "save"
    APPEND = "append"
    TERMINAL_APPEND = "terminal-append"
    SURFACE = "surface"
    SUPPRESSOR = "suppressor"
    QUIET = "quiet"
    TRANSACTION = "transaction"
    FILE_WRITE = "file-write"
    FSYNC = "fsync"
    RENAME = "rename"


#: not an event class of the vocabulary but a mark beside ``terminal-append``: some
#: terminal append of the node (of the callee, of that part of its summary) is made
#: outside every idempotency guard (docs/decisions.md "Idempotency guards"). A node with
#: ``terminal-append`` and without it appends only behind guards and is never the second
#: event of ``at-most-once``. Marking the open appends, not the guarded ones, keeps
#: summaries monotone: a fixpoint pass or a second definition can only add it.
OPEN_TERMINAL = "unguarded-terminal-append"

#: marks beside ``terminal-append`` for how near the append is (docs/decisions.md "A
#: terminal append two calls away"): ``OWN_TERMINAL`` on a node whose own call is a
#: terminal append (its pattern, or a marker at the call); ``NEAR_TERMINAL`` in a
#: summary whose function makes a terminal append by a call of its own. A call node
#: carries ``NEAR_TERMINAL`` from its callee; a summary never passes it further up. A
#: node with ``terminal-append`` and neither mark appends two or more calls away, and
#: ``at-most-once`` over terminal appends does not count it.
OWN_TERMINAL = "own-terminal-append"
NEAR_TERMINAL = "near-terminal-append"

#: the same two marks beside ``file-write`` and ``rename``, which OC301 (a ``sequence``
#: rule pairing them) counts only when near (docs/decisions.md "A file write or rename
#: two calls away"): a write and a rename made deep inside different helpers are
#: nearly always two different files.
OWN_WRITE = "own-file-write"
NEAR_WRITE = "near-file-write"
OWN_RENAME = "own-rename"
NEAR_RENAME = "near-rename"

#: per class whose distance counts, its (own, near) marks
NEARNESS = {
    EventClass.TERMINAL_APPEND.value: (OWN_TERMINAL, NEAR_TERMINAL),
    EventClass.FILE_WRITE.value: (OWN_WRITE, NEAR_WRITE),
    EventClass.RENAME.value: (OWN_RENAME, NEAR_RENAME),
}
OWN_MARKS = frozenset(own for own, _ in NEARNESS.values())
NEAR_MARKS = frozenset(near for _, near in NEARNESS.values())
#: per mark of a summary, the class it qualifies (a mark travels with its class: it is
#: conditional only where the class is, the same way)
MARKED_CLASS = {**{near: cls for cls, (_, near) in NEARNESS.items()},
                OPEN_TERMINAL: EventClass.TERMINAL_APPEND.value}


def is_near(cls: frozenset, of: str) -> bool:
    """Whether a node's ``of`` (a class of ``NEARNESS``) is its own call's or its
    callee's own; a node without ``of`` is near (nothing of it is far)."""
    own, near = NEARNESS[of]
    return of not in cls or own in cls or near in cls

#: a mark, not an event class, in a summary's on-return part: the callee has no path
#: from ENTRY to EXIT (it always raises, or calls ``sys.exit``). Its call node is a dead
#: end for a handler's way out: ``except Exception: self._fail(run)`` does not leave
#: the handler normally (docs/decisions.md "A helper that never returns"). Whether
#: EXIT is reachable depends on the callee's own graph only, so the mark is the same
#: in every fixpoint pass.
NO_RETURN = "no-return"
#: the mark of an ``async def`` with no path from ENTRY to EXIT: a call of it makes a
#: coroutine and returns at once (``ensure_future(self._heartbeat())``); only an awaited
#: call (``Call.awaited``) runs the body, so only there is it ``no-return``
#: (``effects.node_sets``)
NO_RETURN_AWAITED = "no-return-awaited"

#: the outline pre-pass's mark of a function whose own body holds an ``except`` clause
#: (``FunctionFacts.handles``): what a ``silent-handler`` rule asks of it (``focus``)
HOLDS_HANDLER = "<except>"
NO_RETURN_MARKS = frozenset({NO_RETURN, NO_RETURN_AWAITED})

#: a mark, not an event class: the callee hands the exception its caller's handler is
#: running on (``sys.exc_info()``, ``traceback.format_exc()`` in its body, outside its
#: own handlers, flowing into a return or yield value, an assignment, or a call that is
#: not ``quiet``). A call of it in a handler hands that handler's exception on, as the
#: expression written there would (docs/decisions.md "A helper that hands the running
#: exception on"). Carried on the normal way out, through helpers, except from a call
#: inside the helper's own ``except`` (which runs that clause's exception).
HANDS_ON = "hands-on-running"
#: the mark of an ``async def`` that hands it on: only an awaited call runs the body in
#: the handler (``effects.node_sets``); a generator that hands it on has no mark (its
#: body runs where it is consumed)
HANDS_ON_AWAITED = "hands-on-running-awaited"
#: the line a frontend gives the exception a function's caller is handling
RUNNING_LINE = -1
#: a mark of a ``with``'s exit, never carried: the project manager swallows the body's
#: exception and hands it on (``print("failed: {}".format(e))``, ``log(str(e))``), on
#: every way it swallows; so the ``with`` is loud as the same handler written in the
#: function is (``managers.generator_effects``; docs/decisions.md "A manager that hands
#: its exception on")
MANAGER_HANDS_ON = "manager-hands-on"
#: a mark, not an event class: the function's body only returns the call of a
#: transaction (``def unit_of_work(): return transaction.atomic()``,
#: ``FunctionFacts.handed``), so a ``with`` over a call of it enters that transaction
#: (``effects.node_sets``; docs/decisions.md "A function that hands on a transaction").
#: Carried on the normal way out to the call, and on only from a call its caller
#: hands on the same way
HANDS_TRANSACTION = "hands-transaction"
