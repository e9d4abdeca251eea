"""Names as the code sees them: which scope binds a name, aliases, receiver types and
import-qualified names (semantics §Events), shared by both front ends.

The libcst walk (``expressions``/``statements``) and the ``ast`` outline (``outline``)
keep the same stack of ``FunctionScope``/``ClassScope`` and render a callee the same
way (``render_callee`` there, ``render_ast`` here), so everything a call resolves by —
its callee text, its qualified names, its receiver's class — comes from this one module
and cannot drift between them (``tests/test_outline.py`` checks the renderings agree on
every call of the fixtures and rule examples). Nothing here imports libcst.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from .. import scopes as scopesmod
from ..ir import STAR_LEAD, Call, FileFacts, FunctionFacts
from .imports import SHADOWED

_HEAD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
#: ``Call.local_head`` of a name a comprehension the call is in binds
LOCAL_TO_COMPREHENSION = -1
_CTOR_RECEIVER = re.compile(r"^([A-Za-z_][\w.]*)\(\)\.[A-Za-z_]\w*$")  # `RunStore().save`

EXIT_CALLS = ("sys.exit", "os._exit")
#: `site`'s `exit()`/`quit()`: they raise `SystemExit` as `sys.exit()` does, where no
#: module or function binds the name (held-out set 151: faraday's handlers end so)
SITE_EXITS = ("exit", "quit")
#: pytest's outcomes raise an ``OutcomeException``, a ``BaseException`` as ``SystemExit``
#: is: they go past ``except Exception`` (and a ``pytest.raises`` of an ``Exception``) as
#: ``sys.exit()`` does (a review of session 59: `pytest.fail("no raise")` closing a
#: `pytest.raises` body)
TEST_OUTCOMES = frozenset({"pytest.fail", "pytest.skip", "pytest.exit", "pytest.xfail"})
#: library calls that print a message and end the program as ``sys.exit()`` does:
#: argparse's ``parser.error(...)`` (stderr, status 2) and ``parser.exit(...)``, and
#: click's ``ctx.fail(...)``, ``ctx.abort()``, ``ctx.exit()`` (a ``UsageError``, an
#: ``Abort``, an ``Exit`` that click's main turns into the exit; held-out set 226: CLIs
#: end a handler of a failed save so). By the receiver's class: ``parser =
#: argparse.ArgumentParser(...)``, ``ctx: click.Context`` or ``@click.pass_context``'s
#: first parameter (``scopes``).
LIBRARY_EXITS = frozenset({
    "argparse.ArgumentParser.error", "argparse.ArgumentParser.exit",
    "click.Context.fail", "click.Context.abort", "click.Context.exit",
    "click.core.Context.fail", "click.core.Context.abort", "click.core.Context.exit",
    "typer.Context.fail", "typer.Context.abort", "typer.Context.exit",  # (typer's is click's)
})
#: calls that print as the builtin ``print`` does, to ``file=`` (click's ``echo`` and
#: ``secho``, ``err=True`` standard error: ``destination``; tqdm's ``write``, a line
#: above the bars: ``tqdm.write(s, file=fh)`` writes ``fh``, a review of session 59)
PRINTERS = frozenset({"builtins.print", "click.echo", "click.secho", "click.utils.echo", "click.termui.secho",
                      "typer.echo", "typer.secho",  # (typer re-exports click's: held-out set 246)
                      *(f"tqdm.{m}tqdm.write" for m in ("", "std.", "auto.", "autonotebook.", "notebook.",
                                                        "asyncio.", "rich.", "cli."))})

#: annotations of a flag parameter (``FunctionFacts.flag_params``), as written less
#: whitespace and quotes
FLAG_ANNOTATIONS = frozenset({"bool", "Optional[bool]", "typing.Optional[bool]", "bool|None", "None|bool"})


def flag_annotation(text: str) -> bool:
    """Whether an annotation's source text names a flag: ``bool``, ``Optional[bool]``,
    ``bool | None`` (spaces and quotes aside)."""
    return "".join(text.replace('"', "").replace("'", "").split()) in FLAG_ANNOTATIONS

CONTEXT_MANAGER_DECORATORS = {
    "contextmanager", "asynccontextmanager",
    "contextlib.contextmanager", "contextlib.asynccontextmanager",
}


def render_ast(node: ast.AST, keyed: bool = False) -> str:
    """``render_callee`` of an ``ast`` expression: ``self._store.save``,
    ``get_store().save``, ``x[].m`` (``?`` for what is not one); ``keyed``: a
    subscript's one string key written in (``expressions.render_callee``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{render_ast(node.value, keyed)}.{node.attr}"
    if isinstance(node, ast.Call):
        return f"{render_ast(node.func, keyed)}()"
    if isinstance(node, ast.Await):
        return render_ast(node.value, keyed)
    if isinstance(node, ast.Subscript):
        key = node.slice.value if keyed and isinstance(node.slice, ast.Constant) else None
        return f"{render_ast(node.value, keyed)}[{key_text(key)}]"
    return "?"


def key_text(key: object) -> str:
    """A subscript's key as a keyed rendering writes it: a string in double quotes,
    nothing for any other key or one holding a quote or a bracket."""
    return f'"{key}"' if isinstance(key, str) and not any(c in key for c in '"[]') else ""


def keyed_names(keyed: str, written: str, callee: str) -> Tuple[str, ...]:
    """The keyed renderings a call is also named by: ``keyed`` (its text as written,
    each one-string key written in: ``db["users"].update``) and, when an alias made
    its callee another text (``db = bot.db``: ``bot.db[].update``), that callee with
    the same keys in its trailing subscripts (``bot.db["users"].update``; held-out set
    437: a keyed table pattern matched nothing through the alias)."""
    out = (keyed,) if keyed != written else ()
    if not out or callee == written:
        return out
    keys = _SUBSCRIPT.findall(keyed)
    parts = callee.split("[]")
    if len(keys) != written.count("[]") or len(parts) - 1 < len(keys):
        return out
    fill = [""] * (len(parts) - 1 - len(keys)) + keys
    return out + ("".join(p + (f"[{k}]" if i < len(fill) else "") for i, (p, k) in
                          enumerate(zip(parts, fill + [""]))),)


_SUBSCRIPT = re.compile(r"\[([^\]]*)\]")


#: a logging level, as ``logger.log``'s first argument names it, → the logger method of
#: that level (``logging.ERROR``, ``ERROR``, ``40``; loguru's ``"ERROR"``)
_LEVEL_METHODS = {
    "DEBUG": "debug", "TRACE": "debug", "INFO": "info", "SUCCESS": "info", "NOTSET": "debug",
    "WARNING": "warning", "WARN": "warning", "ERROR": "error", "CRITICAL": "critical", "FATAL": "critical",
}


#: the last word of a lock's name: ``self._lock``, ``state_lock``, ``threading.RLock()``,
#: ``asyncio.Semaphore(4)``, ``self._cv``
_LOCK_WORDS = frozenset({"lock", "rlock", "rwlock", "mutex", "semaphore", "condition", "cv"})


def is_lock(text: str) -> bool:
    """Whether a ``with`` item, rendered (``self._lock``, ``threading.Lock()``), names a
    lock by its last component's last word: releasing it is all its exit does, which
    cannot fail after the body's events took effect (docs/decisions.md, "``with``
    exits")."""
    head, _, called = text.rstrip("()").rpartition(".")
    if called in ("acquire", "acquire_read", "acquire_write") and head:
        # `with lock.acquire(timeout=10):` (filelock's idiom: the call returns the
        # lock's own context manager; held-out set 51), a readers-writer lock's sides
        return is_lock(head)
    return _last_word(called) in _LOCK_WORDS


def _last_word(name: str) -> Optional[str]:
    """The last word of a name, lower-cased, by snake_case and CamelCase (``_state_lock``
    → ``lock``, ``getLogger`` → ``logger``); None for what is no name."""
    last = name.strip("_")
    if not last.replace("_", "").isalnum():
        return None
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", last)
    return words[-1].lower() if words else None


def level_name(level: Optional[str]) -> Optional[str]:
    """The logger method a constant level names: the last component of a dotted name or
    a string (``logging.ERROR``, ``"WARNING"``), or a number as ``logging`` ranks it
    (``45`` logs above ERROR: ``error``); None for anything else."""
    if level is None:
        return None
    if level.isdigit():
        n = int(level)
        return "critical" if n >= 50 else "error" if n >= 40 else "warning" if n >= 30 else "info" if n >= 20 else "debug"
    return _LEVEL_METHODS.get(level.rsplit(".", 1)[-1])


#: the logger methods a string may name: ``getattr(self.logger, "error")(msg)``, a
#: wrapper's ``level="error"`` argument it hands on to such a call (docs/decisions.md
#: "A logger method named by a string"); ``fatal`` is ``critical``, as logging has it
_LOGGER_METHODS = {"debug": "debug", "info": "info", "warning": "warning", "warn": "warn", "error": "error",
                   "exception": "exception", "critical": "critical", "fatal": "critical", "trace": "trace"}


def level_argument(text: str, is_string: bool) -> Optional[str]:
    """The logger method an argument names, for a project wrapper that hands it on as
    its logger's level or method (``Call.level_args``): a level (``logging.ERROR``,
    ``"ERROR"``; ``level_name``) or, written as a string, a logger method's own name
    (``"error"``, ``"exception"``: unmanic's ``self._log(msg, level="error")``); None
    for anything else (a plain name ``error`` is a variable, not a level)."""
    if is_string:
        return level_name(text) or _LOGGER_METHODS.get(text)
    return level_name(text) if not text.isdigit() else None


def is_logger_text(text: str) -> bool:
    """Whether a receiver, rendered, names a logger by its last component's last word:
    ``self.logger``, ``_log``, ``LOG``, ``self.audit_log``, ``logging.getLogger()``,
    ``get_logger()`` (not ``catalog``, ``backlog``: one word each)."""
    return _last_word(text.rsplit(".", 1)[-1].rstrip("()")) in ("log", "logger", "logging")


def getattr_callee(receiver: Optional[str], attr: Optional[str], attr_name: Optional[str]) -> Optional[Tuple[str, Optional[str]]]:
    """What ``getattr(receiver, ...)(...)`` calls, for matching, with the level its
    call is read at (docs/decisions.md "A method named through ``getattr``"): for an
    attribute name written as a string, ``receiver.attr`` (``getattr(store, "save")(run)``
    is ``store.save(run)``), the level as usual (None here); for a logger's method named
    by a plain name (``getattr(self.logger, level)(msg)``, a wrapper's parameter),
    ``receiver.log`` read at that name, as ``logger.log(level, msg)`` is (so its callers'
    constant level is this call's: "A logging wrapper's level"). None for anything else:
    the call stays ``getattr()`` as written."""
    if receiver is None or "?" in receiver:
        return None
    if attr is not None:
        return (f"{receiver}.{attr}", None) if attr.isidentifier() else None
    if attr_name is not None and is_logger_text(receiver):
        return f"{receiver}.log", attr_name
    return None


def level_method(callee: str, method: Optional[str]) -> Optional[str]:
    """``logger.error`` for ``logger.log(logging.ERROR, ...)``: a call of a ``log`` method
    (or ``logging.log``) whose first argument is a constant level (``level_name``) is,
    for matching, the method of that level (docs/decisions.md "A log call with a
    constant level"). None for any other call."""
    if method is None or not callee.endswith(".log"):
        return None
    return callee[: -len("log")] + method


def ast_level(node: ast.Call) -> Optional[str]:
    """The first positional argument (else the ``level=`` keyword) of an ``ast`` call as
    ``level_method`` reads it."""
    return ast_args_level(node.args, node.keywords)


def ast_args_level(args: List[ast.expr], keywords: List[ast.keyword]) -> Optional[str]:
    """``ast_level`` of an argument list (a handed callable's)."""
    if args and not isinstance(args[0], ast.Starred):
        arg: Optional[ast.expr] = args[0]
    elif any(not isinstance(a, ast.Starred) for a in args):
        return None
    else:
        arg = next((k.value for k in keywords if k.arg == "level"), None)
        if arg is None:
            return None
    if isinstance(arg, ast.Constant) and isinstance(arg.value, (int, str)) and not isinstance(arg.value, bool):
        return str(arg.value)
    if isinstance(arg, (ast.Name, ast.Attribute)):
        return render_ast(arg)
    return None


#: calls that run a callable handed to them and, awaited, give back what it returns or
#: raise what it raises: the callable's place among their positional arguments
#: (``await asyncio.to_thread(store.save, run)`` runs ``store.save(run)`` right there;
#: docs/decisions.md "A callable handed to a thread and awaited")
AWAITED_RUNNERS = {
    "asyncio.to_thread": 0,
    "asyncio.threads.to_thread": 0,
    "anyio.to_thread.run_sync": 0,
    "trio.to_thread.run_sync": 0,
    # Starlette's (and FastAPI's re-export) thin wrapper of anyio's: held-out set 251
    "starlette.concurrency.run_in_threadpool": 0,
    "fastapi.concurrency.run_in_threadpool": 0,
}
#: of those, the runners that hand their keyword arguments on to the callable
#: (``asyncio.to_thread(f, s, commit=False)``); anyio's and trio's ``run_sync`` and
#: ``run_in_executor`` take keywords of their own (``cancellable=True``) and pass none
KEYWORD_RUNNERS = frozenset({"asyncio.to_thread", "asyncio.threads.to_thread",
                             "starlette.concurrency.run_in_threadpool", "fastapi.concurrency.run_in_threadpool"})


def passes_keywords(names: "CallNames") -> bool:
    """Whether a runner's keyword arguments are the callable's (``KEYWORD_RUNNERS``)."""
    return any(n in KEYWORD_RUNNERS for n in (names.callee, *names.qualnames))


#: the same by method name: the callable's place, the words one of which the receiver's
#: last name holds, and the libraries whose typed receiver has the method
#: (``await loop.run_in_executor(None, store.save, run)``, ``self._eventloop``,
#: ``asyncio.get_running_loop()``; SQLAlchemy's ``await conn.run_sync(fn, x)`` on an
#: ``AsyncConnection`` or ``AsyncSession`` calls ``fn(sync_conn, x)``: held-out set 253;
#: Home Assistant's ``await self.hass.async_add_executor_job(f, x)``).
#: A project's own ``self.run_in_executor(f)`` or ``self.run_sync(f)`` is not one.
AWAITED_RUNNER_METHODS = {
    "run_in_executor": (1, ("loop",), ("asyncio.", "uvloop.")),
    "run_sync": (0, ("conn", "session", "engine"), ("sqlalchemy.", "sqlmodel.")),
    # Home Assistant's `await hass.async_add_executor_job(f, x)` runs `f(x)` in its
    # executor and gives back what it returns or raises (held-out set 350: the usual
    # way an integration runs a blocking save)
    "async_add_executor_job": (0, ("hass",), ("homeassistant.",)),
}
#: wrappers whose result, called, runs the wrapped callable (``sync_to_async(f)(x)``
#: runs ``f(x)``): True when that call returns an awaitable (it runs only awaited)
CALLABLE_WRAPPERS = {
    "asgiref.sync.sync_to_async": True,
    "channels.db.database_sync_to_async": True,
    "asgiref.sync.async_to_sync": False,
}


#: Django's decorator that applies a function decorator to a method: the method is
#: decorated by its first argument too (``@method_decorator(transaction.atomic)``)
METHOD_DECORATOR = "django.utils.decorators.method_decorator"
#: the methods Django's ``View.dispatch`` runs a request by, which a class-level
#: ``@method_decorator(d, name="dispatch")`` so wraps (``class_method_decorators``)
HTTP_HANDLERS = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "trace"})

#: decorators that only set an attribute Django reads on the view function itself
#: (``as_view()`` copies ``dispatch``'s, never a handler's): on ``post`` they do nothing
VIEW_ATTRIBUTE_DECORATORS = frozenset({"non_atomic_requests"})


def marks_only_the_view(decorator: str) -> bool:
    """Whether ``decorator`` (as written or qualified) only marks the view for Django
    to read, so that on an HTTP handler method, not ``dispatch``, it takes no effect
    (``@method_decorator(transaction.non_atomic_requests)`` on ``post``: the request
    still runs in ``ATOMIC_REQUESTS``' transaction; docs/decisions.md, session 65)."""
    return decorator.rsplit(".", 1)[-1] in VIEW_ATTRIBUTE_DECORATORS


def on_method(cls: Optional[str], method: str, decorators: List[str]) -> List[str]:
    """The names of what a ``@method_decorator(...)`` of method ``method`` of class
    ``cls`` (None: no method) applies that take effect there (``marks_only_the_view``)."""
    if cls is None or method not in HTTP_HANDLERS:
        return decorators
    return [n for n in decorators if not marks_only_the_view(n)]


#: library context managers that re-raise the exception being handled at their exit
#: (oslo.utils' ``with excutils.save_and_reraise_exception():`` in an ``except``
#: clause hands the failure on when its body ends), by the last component of the
#: callee, so that a vendored copy (``openstack.common.excutils``) is one too
#: (docs/decisions.md "A manager that re-raises what is being handled")
RERAISING_MANAGERS = frozenset({"save_and_reraise_exception"})


#: what a ``.rename(...)`` call is also named when its arguments are a table's
#: (``df.rename(columns={...})``, ``df.rename({"a": "b"})``): no file is renamed, and
#: the default ``rename`` class excludes the name (rules/vocab/file-io.toml;
#: docs/decisions.md "A table's rename")
TABLE_RENAME = "pandas.DataFrame.rename"
#: keywords of a table's ``rename`` (pandas, polars, xarray) that no file rename takes
TABLE_RENAME_KEYWORDS = frozenset({"columns", "index", "mapper", "axis", "inplace", "level", "errors", "copy"})


def table_rename(callee: str, keywords: Sequence[str], first_is_no_path: bool) -> bool:
    """Whether a call is a table's ``rename`` by its arguments: a keyword only tables
    take, or as its first positional argument a dict (a literal or a comprehension) or
    ``None`` (pandas' ``series.rename(None)`` drops the name; no file is renamed to
    ``None``: held-out set 227, emhass)."""
    return callee.rpartition(".")[2] == "rename" and "." in callee and (
        first_is_no_path or any(k in TABLE_RENAME_KEYWORDS for k in keywords))


#: test managers whose body must raise (the test fails at their exit when it ends
#: normally) and which catch what it raises: ``with pytest.raises(E):``, unittest's
#: ``with self.assertRaises(E):`` and its kin, Django's ``assertRaisesMessage``
#: (docs/decisions.md "A body that must raise")
EXPECTING_METHODS = frozenset({"assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "assertRaisesMessage"})
EXPECTING_FUNCTIONS = frozenset({"pytest.raises", "_pytest.python_api.raises", "_pytest.raises.raises"})


def expecting_manager(callee: str, qualnames: Sequence[str]) -> bool:
    """Whether a ``with`` item's manager call asserts that its body raises."""
    head, _, last = callee.rpartition(".")
    if last in EXPECTING_METHODS and head in ("self", "cls"):
        return True
    return any(name in EXPECTING_FUNCTIONS for name in (callee, *qualnames))


def reraising_manager(callee: str, qualnames: Sequence[str]) -> bool:
    """Whether a ``with`` item's manager call is a ``RERAISING_MANAGERS`` one."""
    return any(name.rpartition(".")[2] in RERAISING_MANAGERS for name in (callee, *qualnames))


#: wrappers whose result, called, runs a coroutine function to its end (it blocks):
#: the handed call is as good as awaited (``Call.awaited``); a runner or any other
#: wrapper calls the callable in a thread, where a coroutine function only makes a
#: coroutine (a review, session 48)
COROUTINE_RUNNERS = {"asgiref.sync.async_to_sync"}


def runs_to_end(names: "CallNames") -> bool:
    """Whether a wrapper call (``async_to_sync(f)``) is a ``COROUTINE_RUNNERS`` one."""
    return not names.local_head and any(n in COROUTINE_RUNNERS for n in _known_as(names))


def _known_as(names: "CallNames") -> Tuple[str, ...]:
    """What a call is by import: its qualified names, or its text when the import
    names it as written (``import asyncio``). ``from proj import aio as asyncio`` makes
    ``asyncio.to_thread`` the project's ``proj.aio.to_thread``, no runner."""
    return names.qualnames or (names.callee,)


#: ``gather``: with ``return_exceptions=True`` what each awaitable raises comes back
#: as a value, never out of the call (docs/decisions.md "A gather that returns its
#: exceptions")
GATHERING = frozenset({"asyncio.gather", "asyncio.tasks.gather"})


def returns_exceptions(names: "CallNames", keywords: Dict[str, str]) -> bool:
    """Whether a call is ``asyncio.gather(..., return_exceptions=True)``."""
    return (keywords.get("return_exceptions") == "True" and not names.local_head
            and any(n in GATHERING for n in _known_as(names)))


#: calls that await the awaitable they are handed, first, before they return
#: (``await asyncio.wait_for(asyncio.to_thread(f), 5)`` awaits the ``to_thread``)
AWAITING_FIRST = {"asyncio.wait_for", "asyncio.shield", "asyncio.tasks.wait_for", "asyncio.tasks.shield"}


def awaits_first(names: "CallNames", awaited: bool) -> bool:
    """Whether an awaited call awaits its first positional argument (``AWAITING_FIRST``)."""
    return awaited and not names.local_head and any(n in AWAITING_FIRST for n in _known_as(names))


#: calls that run the coroutine they are handed as a task of its own, detached from the
#: caller: what the coroutine raises goes to the task, never out of this call
#: (``asyncio.create_task(self._persist(run))``; held-out set 161, hydrogram); a loop's
#: own ``create_task`` (``asyncio.get_running_loop().create_task(...)``,
#: ``self._loop.create_task(...)``) is one too. A task group's ``tg.create_task(...)``
#: is not: the group raises its tasks' failures at its ``async with``'s exit
DETACHING = frozenset({"asyncio.create_task", "asyncio.ensure_future", "asyncio.run_coroutine_threadsafe",
                       "asyncio.tasks.create_task", "asyncio.tasks.ensure_future"})


def detaches_first(names: "CallNames") -> bool:
    """Whether a call runs its first positional argument, a coroutine, as a detached
    task (``DETACHING``, or ``create_task`` of something named a loop)."""
    if not names.local_head and any(n in DETACHING for n in _known_as(names)):
        return True  # (`asyncio` a parameter: not the module)
    head, _, method = names.callee.rpartition(".")
    if method != "create_task" or "loop" not in head.rsplit(".", 1)[-1].lower():
        return False
    return names.receiver_type is None or any(  # (a project class's own `create_task`: not known)
        q.startswith(("asyncio.", "uvloop.")) for q in names.qualnames if q.endswith(".create_task"))


#: the keywords by which a call is handed the stream it writes (``print(x, file=f)``,
#: ``conf.write(outfile=buf)``, ``json.dump(x, fp=buf)``), and the serialisers whose
#: second positional argument is that stream (``pickle.dump(obj, buf)``)
DESTINATION_KEYWORDS = ("file", "fp", "outfile", "stream", "fileobj")
DUMPERS = frozenset({"dump", "dump_all", "safe_dump", "safe_dump_all"})
#: in-memory streams: a write into one is no write of a file (rules/vocab/file-io.toml
#: excludes their methods; docs/decisions.md "A write into an in-memory buffer")
IN_MEMORY_STREAMS = frozenset({"io.StringIO", "io.BytesIO", "six.StringIO", "six.BytesIO"})  # (six's: set 290)


def destination(callee: str, keywords: Dict[str, str], second: Optional[str]) -> Optional[str]:
    """The text of the stream a call writes, when it is handed one (``DESTINATION_KEYWORDS``,
    or a ``DUMPERS`` call's second positional argument); else None."""
    found = next((keywords[k] for k in DESTINATION_KEYWORDS if k in keywords), None)
    if found == "None":
        found = None  # `print(s, file=None)`: standard output (a review)
    if found is None and keywords.get("err") == "True" and callee.rpartition(".")[2] in ("echo", "secho"):
        found = "sys.stderr"  # click's `echo(msg, err=True)` (``PRINTERS``)
    if found is None and callee.rpartition(".")[2] in DUMPERS:
        found = second or None
    return found


#: a wrapper's name that says it retries what it is handed (``wraps_callable``), and
#: the words that say it runs it some other time, or is no wrapper at all
RETRY_WORDS = frozenset({"retry", "retries", "retrying", "retried", "retryable"})
NOT_RUNNING_NOW = frozenset({"schedule", "scheduled", "later", "count", "counter", "queue", "enqueue", "delay",
                             "delayed", "defer", "deferred", "after"})


#: a task group's or a nursery's methods that start the coroutine function handed to
#: them as a task of the group (anyio's and trio's ``tg.start_soon(f, x)``, ``await
#: nursery.start(f, x)``): the group awaits it before its ``async with`` ends, as it does
#: a ``TaskGroup``'s ``tg.create_task(f(x))``, so the handed call is read as that call
#: (docs/decisions.md "A task group's start_soon"). ``start_soon`` is anyio's and trio's
#: own name; ``start`` is one only on a receiver named as a group is (``tg``, ``group``,
#: ``nursery``, ``task_group``: anyio's docs name theirs ``tg`` and ``group``).
GROUP_STARTERS = frozenset({"start_soon", "start"})


def starts_in_group(names: "CallNames") -> bool:
    """Whether a call hands its first argument to a task group to run
    (``GROUP_STARTERS``)."""
    head, _, method = names.callee.rpartition(".")
    if method not in GROUP_STARTERS or not head or "(" in head:
        return False
    if any(q.startswith(("anyio.", "trio.")) for q in names.qualnames if q.endswith("." + method)):
        return True
    if names.receiver_type is not None:
        return False  # (a project class's own `start_soon`)
    last = head.rsplit(".", 1)[-1].lower().lstrip("_")
    return (method == "start_soon" or last in ("tg", "group") or last.endswith("_tg") or "nursery" in last
            or "task_group" in last or "taskgroup" in last)


def runner_slot(names: "CallNames", awaited: bool) -> Optional[int]:
    """Where the callable stands among a runner's positional arguments
    (``AWAITED_RUNNERS``), when the call is one and is awaited, or a task group's
    (``starts_in_group``); else None."""
    if starts_in_group(names):
        return 0
    if not awaited:
        return None
    for name in _known_as(names):
        if name in AWAITED_RUNNERS and not names.local_head:  # (`asyncio` a parameter: not the module)
            return AWAITED_RUNNERS[name]
    head, _, method = names.callee.rpartition(".")
    if method not in AWAITED_RUNNER_METHODS:
        return None
    slot, words, libraries = AWAITED_RUNNER_METHODS[method]
    typed = any(q.startswith(libraries) for q in names.qualnames if q.endswith("." + method))
    if names.receiver_type is not None:
        return slot if typed else None  # a project class's own method, or another library's
    last = head.rsplit(".", 1)[-1].lower()
    return slot if typed or (head and any(w in last for w in words)) else None


def wraps_callable(names: "CallNames", awaited: bool) -> bool:
    """Whether a call of the result of the call ``names`` stands for (``sync_to_async(f)``)
    runs the callable handed to it, as it is called here (``CALLABLE_WRAPPERS``)."""
    if not names.local_head:
        for name in _known_as(names):
            if name in CALLABLE_WRAPPERS:
                return awaited or not CALLABLE_WRAPPERS[name]
    # a retry wrapper applied where it is called (`mongo_retry(self._symbols.update_one)(doc)`,
    # tenacity's `retry(stop=...)(f)(x)`): it calls the callable now, again on a failure
    # (held-out set 167, arctic; docs/decisions.md "A retry wrapper applied inline")
    words = [w for w in re.split(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])", names.callee.rsplit(".", 1)[-1].split("(")[0]) if w]
    words = [w.lower() for w in words]
    # (the wrapper's own words say it runs the callable, again on a failure; not one
    # that queues it for later or counts: `schedule_retry(f)`, `retry_later(f)`,
    # `retry_count(f)`; a review)
    return bool(words) and any(w in RETRY_WORDS for w in words) and not set(words) & NOT_RUNNING_NOW


def alternatives(options: Sequence[str], attrs: Sequence[str]) -> Tuple[str, ...]:
    """The callees of a call through a parenthesised choice of receivers: ``(a or
    b).m`` is ``a.m`` or ``b.m`` (``options``: each alternative rendered; ``attrs``: the
    attributes after the choice, outermost last). Alternatives that are no dotted text
    (``?``) give none. A choice of callees, ``(logger.error if fatal else
    logger.warning)(msg)`` (no attribute after it), is each dotted alternative's call
    (held-out set 247, gtfs-rt-aggregator)."""
    tail = ".".join(attrs)
    if not tail:
        return tuple(o for o in options if all(p.isidentifier() for p in o.split(".")))
    return tuple(f"{o}.{tail}" for o in options if "?" not in o and "(" not in o)


def ast_alternatives(func: ast.AST) -> Tuple[str, ...]:
    """``alternatives`` of an ``ast`` callee: ``(a or b).m``, ``(a if c else b).m``."""
    attrs: List[str] = []
    node = func
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if isinstance(node, ast.BoolOp):
        options = [render_ast(v) for v in node.values]
    elif isinstance(node, ast.IfExp):
        options = [render_ast(node.body), render_ast(node.orelse)]
    else:
        return ()
    return alternatives(options, list(reversed(attrs)))


#: annotations that name a built-in type: no name typed so is of a project class
_BUILTIN_TYPES = frozenset({"str", "int", "float", "bool", "bytes", "complex", "bytearray", "dict", "list", "set",
                            "tuple", "frozenset", "type", "Callable", "typing.Callable", "Iterable", "Iterator",
                            "Mapping", "Sequence", "typing.Mapping", "typing.Sequence", "Path", "pathlib.Path"})


@dataclass
class CallNames:
    """What a call resolves by, from its callee as written and its line."""

    callee: str
    qualnames: Tuple[str, ...]
    receiver_type: Optional[str]
    exits: Optional[str]
    self_call: Optional[str]
    local_head: int = 0  # ``Call.local_head``
    level: Optional[str] = None  # ``Call.level``
    invokes: Optional[str] = None  # ``Call.invokes``
    level_from: Optional[str] = None  # ``Call.level_from``
    chosen: bool = False  # ``Call.chosen`` (a choice of callees, not of receivers: `(a or b).begin()`)
    made_by: Optional[str] = None  # ``Call.made_by``


@dataclass
class ClassScope:
    """A class body being walked: its statements run inline, in the enclosing
    function's scope, but they name their own qualified names and aliases."""

    qualname: str
    names: scopesmod.ScopeTable  # aliases and types of the class body (``scopes``)
    line: int  # the class name's line


def rebinds(table: scopesmod.ScopeTable, name: str) -> bool:
    """Whether a scope binds ``name`` other than by its ``def`` statements
    (``FunctionFacts.rebound``)."""
    return table.bound.get(name, 0) > table.defined.get(name, 0)


@dataclass
class FunctionScope:
    """Everything the walk keeps for one function being walked (the module body is
    one too, at the bottom of the stack); pushed when its body starts, popped when
    its ``FunctionFacts`` is made."""

    qualname: str  # "<module>" for the module body
    names: scopesmod.ScopeTable  # aliases and types of the body (``scopes``)
    line: int  # the ``def`` name's line; 0: the module body
    imports: Dict[str, str]  # the body's import table: local name -> qualified
    context_manager: bool = False  # a @contextmanager generator: its yields are marked
    static: bool = False  # a @staticmethod: its first parameter is no ``self``
    calls: List[Call] = field(default_factory=list)
    # calls whose argument expressions read plain names, and those names (their marker
    # runs get the runs of the names' bindings when the function ends)
    marker_names: List[Tuple[Call, List[str]]] = field(default_factory=list)
    # name -> marker runs of its right-hand sides, each with the assignment's line
    bindings: Dict[str, List[Tuple[Tuple[str, ...], int]]] = field(default_factory=dict)
    binding_reads: Dict[str, List[str]] = field(default_factory=dict)  # name -> names its right-hand sides read
    #: name -> the root name of its right-hand side when that is a plain name or an
    #: attribute chain of one (`entry = record.event_log_entry`: ``record``), else None,
    #: per `=` binding (``statements._end`` follows reads back through such bindings)
    projections: Dict[str, List[Optional[str]]] = field(default_factory=dict)
    # `name = call(...)`: the call, the name, and the next call id when it was bound
    bound_values: List[Tuple[Call, str, int]] = field(default_factory=list)
    name_writes: List[Tuple[str, int]] = field(default_factory=list)  # (name, next call id) per `=` binding
    local_functions: Dict[str, str] = field(default_factory=dict)  # name -> qualname
    untracked: Set[str] = field(default_factory=set)  # global/nonlocal names (no test facts)
    handlers: List[Tuple[Optional[str], int]] = field(default_factory=list)  # except clauses open: (`as` name, line)
    # per clause open, its `as` name when nothing in the clause's block binds it again:
    # `raise e` there raises the exception the clause caught (``Stmt.reraise``)
    caught_names: List[Optional[str]] = field(default_factory=list)
    #: nested functions defined in a handler that close over its caught exception:
    #: name -> those handlers' lines (``def deliver(): fut.set_exception(e)``)
    closures: Dict[str, Set[int]] = field(default_factory=dict)
    #: the blocks open (innermost last) and, per closure, those open at its ``def``: a
    #: rebinding cancels the closure only in the def's block or one enclosing it (after
    #: the def on every path), not in a branch (``if flag: deliver = None``)
    blocks: List[int] = field(default_factory=list)
    closure_blocks: Dict[str, Tuple[int, ...]] = field(default_factory=dict)
    classes: List[ClassScope] = field(default_factory=list)  # class bodies open, innermost last
    # names its own ``return`` statements return (``ir.returned_wrapper``): ``return
    # wrapper``, ``return functools.wraps(fn)(wrapper)``, ``return update_wrapper(wrapper, fn)``
    returned: List[str] = field(default_factory=list)

    @property
    def is_module(self) -> bool:
        return self.line == 0


class Resolver:
    """The scope stack of a walk and the name questions asked of it. A walk pushes a
    ``FunctionScope`` where a function's body starts (the module body first) and a
    ``ClassScope`` on its ``classes`` where a class body starts."""

    facts: FileFacts
    scopes: scopesmod.Scopes
    frames: List[FunctionScope]
    import_tables: Dict[int, Dict[str, str]]  # def line (0: the module) -> its import table
    #: the names the comprehensions being walked bind (their ``for`` targets), innermost
    #: last: each comprehension is a scope of its own, as in Python 3
    comprehension_names: List[FrozenSet[str]]

    def mark_discarded(self, call: Call) -> None:
        """An expression statement's whole value (``Call.discarded``)."""
        call.discarded = True

    def function_named(self, qualname: str) -> Optional[FunctionFacts]:
        """The facts of a function of the file made already (a nested one, the last of
        that name: ``ir.returned_wrapper``'s ``nested``)."""
        for fn in reversed(self.facts.functions):
            if fn.qualname == qualname:
                return fn
        return None

    @property
    def frame(self) -> FunctionScope:
        """The innermost function being walked."""
        return self.frames[-1]

    def call_names(self, written: str, line: int, col: int = 0, level: Optional[str] = None,
                   choices: Tuple[str, ...] = (), stream: Optional[str] = None) -> CallNames:
        """The callee through aliases, its import-qualified names (and its receiver
        class's ``module.T.m``), whether it exits the process, and whether it is
        called through ``self``/``cls``/``super()``. ``line``/``col``: where the call
        starts (``col`` in UTF-8 bytes, as the ``ast`` counts), which aliases it sees.
        ``level``: the first positional argument, when a constant or a dotted name
        (``level_method``). ``choices``: the callees it may be when its receiver is a
        choice (``alternatives``). ``stream``: its ``file=`` argument, when a dotted
        name: ``print(..., file=sys.stderr)`` is also ``sys.stderr.write`` (docs/decisions.md
        "A print to standard error")."""
        root = written.split(".", 1)[0].split("(", 1)[0]
        if not choices and written.isidentifier():
            choices = self.choice_alias(written, line, col)
        if self.in_comprehension(root):  # a comprehension's own name: nothing outside is it
            exits = written if written in EXIT_CALLS else None
            return CallNames(written, (), None, exits, None, LOCAL_TO_COMPREHENSION)
        chain = self.alias_chain(written, line, col)
        callee = chain[-1]
        qn = self.qualified_text(callee)
        if len(chain) > 1:
            # a receiver through an alias (`store = self._db; store.save()`) also
            # matches as written, as it did before the alias was seen, and so does
            # each text an alias of an alias passes through (`save = store.save`:
            # `save()` is `store.save()`, whatever `store` stands for)
            qn = tuple(dict.fromkeys(qn + tuple(t for t in chain[:-1] if "." in t)))
            if written.isidentifier() and self._partial_name(written):
                # (`record_event = functools.partial(client.write, "events")`: a pattern
                # naming `record_event` still matches its call; a review)
                qn = tuple(dict.fromkeys(qn + (written, *self.qualified_text(written))))
        if len(chain) == 1:
            beside = self._alias_beside_defs(written, line, col)
            if beside is not None:  # (it may also run the `def`: the name resolves to it as well)
                qn = tuple(dict.fromkeys(qn + ((beside,) if "." in beside else ()) + self.qualified_text(beside)))
        receiver = self.chain_receiver_type(chain, line, col)
        if receiver is not None:
            typed = self.type_qualname(receiver)
            if typed is not None:
                qn = tuple(dict.fromkeys(qn + (f"{typed}.{callee.rsplit('.', 1)[-1]}",)))
        made = self.made_by(callee, line, col) if receiver is None else None
        invokes = self.invoked_type(chain, line, col)
        if invokes is not None:
            typed = self.type_qualname(invokes)
            if typed is not None:
                qn = tuple(dict.fromkeys(qn + (f"{typed}.__call__",)))
        is_log = any(t.endswith(".log") for t in (callee,) + qn)
        method = level_name(level) if is_log else None
        if method is not None:  # `logger.log(logging.ERROR, ...)` is also `logger.error(...)`
            by_level = tuple(m for m in (level_method(t, method) for t in (callee,) + qn) if m is not None)
            qn = tuple(dict.fromkeys(qn + by_level))
        # `logger.log(level, ...)` with a plain name for its level: a wrapper may hand its
        # own parameter on (`def log(self, level, msg)`), and then its callers' constant
        # level is this call's (``summaries.ProjectIndex.forwarded_level_names``)
        level_from = level if is_log and method is None and level is not None and level.isidentifier() else None
        if not is_log and level is not None and not level.isdigit():
            # a named level given to any other call (`self._log(logging.ERROR, ...)`):
            # the level such a wrapper logs at, should it hand it on
            method = level_name(level)
        alt_exits: List[Optional[str]] = []
        if choices:
            # `(storage or self._store).save(run)`: the call is each alternative's (a
            # held-out set's reading: such a save matched no pattern, and no finding
            # named it)
            for alt in choices:
                names = self.call_names(alt, line, col, level)
                qn = tuple(dict.fromkeys(qn + (names.callee,) + names.qualnames))
                receiver = receiver or names.receiver_type
                alt_exits.append(names.exits)
        buffer = self._in_memory(stream, line, col) if stream is not None else None
        streams = (stream,) + self.qualified_text(stream) if stream is not None else ()
        if any(s in ("sys.stdout", "sys.stderr") for s in streams) and not self._builtin_print(callee, qn):
            # `json.dump(x, sys.stdout)`, `yaml.safe_dump(x, stream=sys.stderr)`: the
            # console, as `sys.stdout.write(...)` is (rules/vocab/file-io.toml; a review)
            # (named `sys.stdout.dump`, not `.write`: held back from `file-write` by its
            # `sys.stdout.*` exclusion, and no `surface` as `sys.stderr.write` is)
            method = callee.rsplit(".", 1)[-1].split("(")[0]
            qn = tuple(dict.fromkeys(qn + tuple(f"{s}.{method}" for s in streams if s in ("sys.stdout", "sys.stderr"))))
        if buffer is not None:
            # `pickle.dump(obj, buf)`, `conf.write(outfile=buf)`, `print(x, file=buf)` over
            # `buf = io.BytesIO()`: written as `buf.write(...)` is, which is no file's
            # write (held-out sets 159, 162: clinica, pubs)
            qn = tuple(dict.fromkeys(qn + (f"{buffer}.write",)))
        elif stream is not None and self._builtin_print(callee, qn):
            if "sys.stderr" in (stream,) + self.qualified_text(stream):
                qn = tuple(dict.fromkeys(qn + ("sys.stderr.write",)))
            else:
                # `print(line, file=f)` writes `f` as `f.write(...)` does (held-out set
                # 156: miniwdl's `write_atomic` then renames, unsynced); a printer's own
                # name goes (`tqdm.write`'s is held back from `file-write` as the console)
                qn = tuple(dict.fromkeys(tuple(q for q in qn if q not in PRINTERS or q == "builtins.print")
                                         + tuple(f"{s}.write" for s in (stream,) + self.qualified_text(stream))))
        exits = None
        for name in (callee,) + qn:
            if name in EXIT_CALLS:
                exits = name
            elif (name in TEST_OUTCOMES or name in LIBRARY_EXITS) and exits is None:
                exits = "sys.exit"
        if (exits is None and callee in SITE_EXITS and not qn and self._lookup(callee) is None
                and not any(k.startswith("*") for k in self.import_tables.get(0, {}))):
            exits = "sys.exit"  # (a star import may bind the name: a review)
        if alt_exits:
            # a choice exits only when every alternative does (`bail = sys.exit if strict
            # else print`: a call of it may return; session 63's review)
            exits = alt_exits[0] if all(alt_exits) else None
        root = callee.split(".", 1)[0].split("(", 1)[0]
        self_call = root if root in ("self", "cls") else ("super" if callee.startswith("super()") else None)
        if self_call in ("self", "cls") and not any(f.classes for f in self.frames[:-1]):
            # a module-level function's own parameter named `self` (`def close(self:
            # IssueRepository, ticket)`, bound into a class as `close = _ops.close`):
            # a plain name, typed by its annotation (held-out set 323, issuedb)
            self_call = None
        return CallNames(callee, qn, receiver, exits, self_call, self.bound_locally(root) if self_call is None else 0,
                         method, invokes, level_from, bool(choices) and "." not in written, made)

    def choice_alias(self, name: str, line: int, col: int) -> Tuple[str, ...]:
        """The callees a call of a plain name bound once to a choice of dotted names is
        (``log = logger.error if fatal else logger.warning``; ``log(msg)`` is either,
        as ``(logger.error if fatal else logger.warning)(msg)`` is: ``alternatives``;
        held-out set 276, bursar), when bound before the call in its own scope
        (``scopes.ScopeTable.choice_alias``); () for any other name."""
        scope = self._lookup(name)
        found = scope[0].choice_alias(name) if scope is not None else None
        if found is None or (scope is not None and scope[1] and (found[1], found[2]) > (line, col)):
            return ()
        return found[0]

    def class_method_decorators(self, name: str) -> List[str]:
        """What a class-level ``@method_decorator(d, name="m")`` of the class being
        walked (the innermost) applies to its method ``name``: each decorator as
        written, through aliases and import-qualified, resolved where the class stands
        (``scopes.ScopeTable.method_decorated``; docs/decisions.md "Django's
        ``method_decorator`` on a class")."""
        if not self.frames or not self.frame.classes:
            return []
        cls = self.frame.classes[-1]
        out: List[str] = []
        handler = name in HTTP_HANDLERS
        named = [(entry, handler) for entry in cls.names.method_decorated.get(name, ())]
        if handler:
            # `name="dispatch"`: Django's `View.dispatch` runs the handler of the
            # request's method inside it (held-out sets 288, 289)
            named += [(entry, False) for entry in cls.names.method_decorated.get("dispatch", ())]
        for (callee, targets), on_handler in named:
            if callee == scopesmod.DIRECT:
                if handler:  # (a decorator on `dispatch` itself: its own list has it already)
                    got = self.call_names(targets[0], cls.line, 0)
                    out += [targets[0], got.callee, *got.qualnames]
                continue
            names = self.call_names(callee, cls.line, 0)
            if METHOD_DECORATOR not in (callee, names.callee, *names.qualnames):
                continue
            for t in targets:
                got = self.call_names(t, cls.line, 0)
                wrapped = [t, got.callee, *got.qualnames]
                out += [n for n in wrapped if not marks_only_the_view(n)] if on_handler else wrapped
        return out

    def through_getattr(self, receiver: Optional[str], attr: Optional[str], attr_name: Optional[str],
                        line: int = 0, col: int = 0) -> Optional[Tuple[str, Optional[str]]]:
        """``getattr_callee`` of a call of the builtin ``getattr`` (no name of the
        function or the module hides it)."""
        if self._lookup("getattr") is not None or self.qualified_text("getattr"):
            return None
        if attr is None and attr_name is not None:
            # `post = "message_post"` then `getattr(self, post)(...)`: the name's one
            # string, as an argument part reads it (held-out set 446, Odoo's
            # base_tier_validation)
            found = None if self.in_comprehension(attr_name) else self._lookup(attr_name)
            held = found[0].identifiers.get(attr_name) if found is not None else None
            # (the call's own function's name bound before the call, as an alias; a
            # module's or an enclosing function's wherever: a second review)
            own = bool(self.frames) and found is not None and found[0] is self.frames[-1].names
            if found is not None and found[0].bound.get(attr_name) == 1 and held is not None \
                    and (not own or (held[1], held[2]) <= (line, col)):
                attr = held[0]
        return getattr_callee(receiver, attr, attr_name)

    def _in_memory(self, stream: str, line: int, col: int) -> Optional[str]:
        """``io.BytesIO``/``io.StringIO`` when the stream a call writes is known to be one:
        ``io.StringIO()`` written in the call, or a function's name bound once
        (``buf = io.BytesIO()``, ``with BytesIO() as f``, an annotation). A name bound
        twice may be a file on another way (``f = io.BytesIO() if mem else open(p)``
        written as an ``if``), and ``self.out`` may be set to a file by another method:
        a write then (a review, session 56)."""
        if not stream or "[" in stream:
            return None
        if not stream.endswith("()"):
            scope = self._lookup(stream) if stream.isidentifier() else None
            if scope is None or scope[0].bound.get(stream) != 1:
                return None
        found = self.chain_receiver_type(self.alias_chain(stream + ".write", line, col), line, col)
        typed = self.type_qualname(found) if found is not None else None
        return typed if typed in IN_MEMORY_STREAMS else None

    def _builtin_print(self, callee: str, qn: Tuple[str, ...]) -> bool:
        """Whether a call is of the builtin ``print``: ``builtins.print`` by name or
        by import, or ``print`` that no function and no module binds (a module's own
        ``def print``, ``from rich import print`` are other functions; a review)."""
        if callee in PRINTERS or any(q in PRINTERS for q in qn):
            return True  # (click's `echo` prints as `print` does)
        return callee == "print" and not qn and self._lookup("print") is None

    def invoked_type(self, chain: List[str], line: int, col: int = 0) -> Optional[str]:
        """The class of ``x`` in ``x(...)`` (or ``self.x(...)``) when ``x`` is a value of
        known type, as a receiver's is: the call runs that class's ``__call__``. Not a
        class (``Store(...)`` constructs) and not a function (``save = store.save``:
        an alias, rendered as what it stands for). A plain name must be bound once
        in its scope (a parameter counts): rebound (``s = default_hook``, a loop's
        target, a ``def`` of the name), it may be anything by the time it is called,
        and a call of a class object annotated as an instance (``_Impl: Optional[T] =
        None`` then ``_Impl = Other``) constructs (a review, session 43)."""
        for text in chain:
            parts = text.split(".")
            if len(parts) > 2 or (len(parts) == 2 and parts[0] not in ("self", "cls")):
                continue
            if len(parts) == 1:
                scope = self._lookup(text)
                if scope is None or scope[0].bound.get(text) != 1:
                    continue
            found = self.receiver_type(text + ".__call__", line, col)
            if found is not None and not found.startswith("builtins."):
                return found
        return None

    def in_comprehension(self, name: str) -> bool:
        return any(name in names for names in getattr(self, "comprehension_names", ()))

    def bound_locally(self, name: str) -> int:
        """Where ``name``, read here, is bound when a function binds it (a parameter,
        an assignment, a loop target, an import in the function): 1 for the function
        being walked, 2 for the one enclosing it, and so on; 0 when no function does.
        Python then never looks it up in the module, so the module's own ``def`` or
        ``class`` of that name is not what a call of it runs (``Call.local_head``)."""
        if not name.isidentifier():
            return 0
        scope = self._lookup(name)
        if scope is None:
            return 0
        for depth, frame in enumerate(reversed(self.frames[1:]), 1):
            if scope[0] is frame.names:
                return depth
        return 0

    def instance_manager(self, written: str, line: int) -> Optional[CallNames]:
        """``with self.uow:`` over an object of a known class: entering it is a call
        of its ``__enter__`` (``self.uow.__enter__``), or None when the class is not
        known (docs/decisions.md "A with over an instance")."""
        if not written or not all(p.isidentifier() for p in written.split(".")):
            return None
        chain = [t + ".__enter__" for t in self.alias_chain(written, line)]
        callee = chain[-1]
        receiver = self.chain_receiver_type(chain, line)
        if receiver is None:
            parts = callee.split(".")
            if written == "self" and self._self_class_scope() is not None:
                # `with self:` in a method: the class's own `__enter__`/`__exit__`,
                # found through its MRO as `self.m()` is (beets' `with self as state:`)
                return CallNames("self.__enter__", (), None, None, "self")
            if len(parts) >= 3 and parts[0] == "self" and self._self_class_scope() is not None:
                # `with self._lock:` where only a base class (in another file, maybe)
                # types `_lock`: the project phase reads the type through the MRO
                # (``ProjectIndex.receiver_class_of``); no project manager, no effect.
                # (`with self.db.conn:` too: a `transaction` pattern may name it; a review)
                return CallNames(callee, (), None, None, "self")
            if parts[0] not in ("self", "cls") and self._imported_once(parts[0]):
                # `with db_session:` (or `with pkg.runtime.db_session:`) over a name
                # imported from another module (pony's idiom): the project phase types it
                # by the module that binds it (``ProjectIndex.imported_instance``;
                # held-out set 73)
                return CallNames(callee, self.qualified_text(callee), None, None, None)
            local = self.bound_locally(parts[0]) if parts[0] not in ("self", "cls") else 0
            if local:
                # `with conn:` over a function's name of no known class, or an attribute
                # of one (`with db.conn:`, sqlite_utils' idiom; held-out set 208): no
                # project manager, no effect, but a `transaction` pattern may name it
                # (sqlite3's `with conn:` commits its body; held-out sets 158, 161, 162;
                # ``Vocabulary.direct``)
                return CallNames(callee, (), None, None, None, local_head=local)
            return None
        typed = self.type_qualname(receiver)
        head = callee.split(".", 1)[0]
        # (a function's own name, typed: still named as written by a `transaction`
        # pattern, `with conn:` of `conn: sqlite3.Connection`; held-out set 419)
        local = self.bound_locally(head) if head not in ("self", "cls") else 0
        return CallNames(callee, (f"{typed}.__enter__",) if typed else (), receiver, None, None, local_head=local)

    def _imported_once(self, name: str) -> bool:
        """``name`` is the module's import and nothing else binds it (a module-level
        ``db_session = None`` after ``from .runtime import db_session`` makes it no
        instance of the module it came from; a review), nor does the function."""
        if not self.frames or name not in self.frames[0].imports or self.bound_locally(name):
            return False
        scope = self._lookup(name)
        # (every binding an import: `if TYPE_CHECKING: from x import s` / `else:` the same)
        return scope is not None and scope[0].bound.get(name) == scope[0].imported.get(name, 0) >= 1

    def base_names(self, written: str, line: int, own: str = "") -> List[str]:
        """The names a class's base is known by (``ClassFacts.bases``): as written, its
        import-qualified form, and the same for the class an alias names
        (``Base = _Impl; class Svc(Base)``). ``own``: the class's own name; a base
        written as that name is what it named before the class statement bound it
        (``from .base import Runner; class Runner(Runner)``: the import the class
        statement replaces, ``imports.SHADOWED``)."""
        head = written.split(".", 1)[0]
        if own and head == own and self.frames:
            before = self.frames[0].imports.get(SHADOWED + head)
            if before is not None:
                rest = written[len(head):]
                return [before + rest]
        out = [written, *self.qualified_text(written)]
        expanded = self.expand_alias(written, line)
        if expanded != written:
            out += [expanded, *self.qualified_text(expanded)]
        return out

    def child_qualname(self, name: str) -> str:
        """The qualified name of a function or class defined here."""
        frame = self.frame
        if frame.classes:
            return f"{frame.classes[-1].qualname}.{name}"
        return name if frame.is_module else f"{frame.qualname}.<locals>.{name}"

    def typed_names(self, frame: "FunctionScope") -> Tuple[Tuple[str, str], ...]:
        """The function's names (parameters, locals) whose annotations name one class,
        as ``FunctionFacts.typed`` holds them."""
        out = []
        for name, types in sorted(frame.names.annotated.items()):
            if len(types) == 1:
                written = next(iter(types))
                if written in _BUILTIN_TYPES:
                    continue  # (`n: int`, `name: str`: never a project class)
                written = self.expand_alias(written, frame.line)
                out.append((name, self.type_qualname(written) or written))
        return tuple(out)

    def returned_type(self, frame: "FunctionScope") -> Optional[str]:
        """The class a function's return annotation names (``FunctionFacts.returns``);
        for a ``@contextmanager``/``@asynccontextmanager`` generator, the class it
        yields (``-> AsyncGenerator[AsyncSession, None]``): what `with f() as x` binds,
        which another file's ``with`` reads (``ProjectIndex.product_names``)."""
        written = frame.names.returns
        if written is None and frame.context_manager:
            written = self.scopes.managers_yield.get(frame.qualname)
        if written is None:
            return None
        written = self.expand_alias(written, frame.line)
        return self.type_qualname(written) or written

    def class_attr_types(self, table: scopesmod.ScopeTable, class_line: int,
                         class_level: bool = False) -> Tuple[Tuple[str, str], ...]:
        """A class's typed ``self.x`` (``ClassFacts.attr_types``), a class-level
        annotation or constructor assignment (``objects = ContentManager()``) among
        them, as an instance reads it; with ``class_level``, the class-level ones
        alone (``ClassFacts.class_types``), as a read through the class sees them
        (``Content.objects.m()``)."""
        out = []
        names = set(table.annotated) | set(table.constructed)
        if not class_level:
            names |= set(table.attr_annotated) | set(table.attr_constructed)
        for attr in sorted(names):
            written = table.type_of(attr) if class_level else table.attr_type(attr)
            if written is not None:
                written = self.expand_alias(written, class_line)
                out.append((attr, self.type_qualname(written) or written))
        return tuple(out)

    @staticmethod
    def class_containers(table: scopesmod.ScopeTable) -> Tuple[str, ...]:
        """A class's attributes that hold a list in memory (``ClassFacts.containers``),
        and nothing the file types otherwise (``self.history = HistoryStore()`` in
        another method keeps it a candidate)."""
        other = (set(table.attr_constructed) | set(table.attr_annotated) | set(table.attr_called)
                 | set(table.constructed) | table.attr_other)
        return tuple(sorted(table.attr_containers - other))

    def class_aliases(self, table: scopesmod.ScopeTable, class_line: int,
                      methods: Iterable[str] = ()) -> Tuple[Tuple[str, ...], ...]:
        """A class's class-level aliases (``ClassFacts.aliases``): each name, the text
        it stands for (through the module's aliases too) and that text's import-qualified
        names, for the subclasses that call it through ``self``/``cls``.
        A name the class body binds otherwise (``warn = None``, ``warn = make()``, a
        lambda, an import) is an entry of its name alone: it hides a base's alias of
        that name, as Python's lookup stops at the first class that has it.
        """
        out: List[Tuple[str, ...]] = []
        skip = set(methods)  # (``ClassFacts.methods`` has them)
        own_imports = self.import_tables.get(-class_line, {})
        for name in sorted(set(table.bound) - skip):
            if name in own_imports and (table.bound.get(name) == 1 or name in table.imported_last):
                # `from ._utils import check_pinned` in the class body: a method the
                # instance finds by its import (held-out set 396, pleroma_bot's `User`)
                out.append((name, own_imports[name], own_imports[name]))
                continue
            found = table.alias(name)
            if found is None or found[0].split(".", 1)[0] in ("self", "cls"):
                out.append((name,))
                continue
            if table.bound.get(found[0].split(".", 1)[0]):
                out.append((name, f"self.{found[0]}"))  # (a method of the class: `persist = _save`)
                continue
            text = self.expand_alias(found[0], class_line)
            out.append((name, text, *self.qualified_text(text)))
        return tuple(out)

    def qualified_text(self, text: str) -> Tuple[str, ...]:
        if not text or "(" in text or "[" in text or "?" in text:
            return ()
        head, _, rest = text.partition(".")
        if self.in_comprehension(head):
            return ()  # a comprehension's own name hides every outer one
        for frame in reversed(self.frames):
            if head in frame.names.declared_global and not frame.is_module:
                frame = self.frames[0]  # `global x`: the module's name, whatever encloses
            if head in frame.imports:
                if not frame.is_module and frame.names.bound.get(head, 0) > frame.names.imported.get(head, 0):
                    # a function's own import of a name it also binds otherwise
                    # (`from pkg.post import Revision` ... `Revision = make()`): which one
                    # a call sees is not known (session 63's review)
                    return ()
                full = frame.imports[head] + ("." + rest if rest else "")
                # (a function's own `import app.ops` names `app.ops.f` as written: kept,
                # since the module's lookup of the name does not apply, ``Call.local_head``)
                return (full,) if full != text or not frame.is_module else ()
            if frame.is_module:
                return ()
            if frame.names.bound.get(head) and head not in frame.names.declared_outer:
                return ()  # a function's own name (a parameter, an assignment) hides an outer import
        return ()

    def lead_of(self, node: Optional[ast.AST]) -> Optional[str]:
        """``Call.lead`` of a call whose first positional argument is ``node``: a string
        constant or f-string as written, or a plain name bound once, by ``=``, to one
        (``sql = "UPDATE runs ..."`` then ``cur.execute(sql, ...)``; a module's
        ``INSERT_EVENT = "..."``); None otherwise."""
        if node is None:
            return None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            # `cur.execute(self.INSERT_EVENT, ...)` of a class-level `INSERT_EVENT = "..."`
            # bound once, which no method stores into (held-out set 381), through the
            # method's own first parameter bound nowhere else (not a loop's `cls`, not
            # a `staticmethod`'s parameter named `self`; a review)
            here = self.frames[-1].names if self.frames else None
            if (here is None or here.receiver != node.value.id or here.bound.get(node.value.id) != 1
                    or self.in_comprehension(node.value.id)):
                return None
            cls = self._self_class()
            if cls is None or cls.bound.get(node.attr) != 1 or node.attr in cls.attr_stored:
                return None
            return cls.strings.get(node.attr)
        if not isinstance(node, ast.Name):
            text = scopesmod.literal_text(node, self._imported_as)
            handed = scopesmod.handed_name(node, self._imported_as) if text is None else None
            if handed is None:
                return text
            # `text(SQL1)`, `Q % args` of a name bound once to a statement (a review);
            # a placeholder's fields read `{}` as in a template written in the call
            return self.lead_of(handed)
        if self.in_comprehension(node.id):
            return None
        found = self._lookup(node.id)
        if found is None:
            return None
        table = found[0]
        return table.strings.get(node.id) if table.bound.get(node.id) == 1 else None

    def lead_import_of(self, node: Optional[ast.AST]) -> Optional[str]:
        """``Call.lead_import`` of a call whose first positional argument is ``node``:
        the import-qualified name of a constant another module binds, given alone or
        through a wrapper (``INSERT_EVENT``, ``queries.INSERT_EVENT``,
        ``text(INSERT_EVENT)`` of ``from app.queries import INSERT_EVENT``); the project
        phase reads the string there. None for anything else, and for a name this
        file binds otherwise too."""
        if node is None:
            return None
        if not isinstance(node, (ast.Name, ast.Attribute)):
            if scopesmod.literal_text(node, self._imported_as) is not None:
                return None
            node = scopesmod.handed_name(node, self._imported_as)
        text = scopesmod.dotted(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
        for _ in range(4):  # `sql = INSERT_EVENT` (or `= queries.INSERT_EVENT`), then `execute(sql)`
            if text is None or "." in text or self.in_comprehension(text):
                break
            scope = self._lookup(text)
            bound = scope[0].alias(text) if scope is not None else None
            if bound is None or bound[0] == text:
                break
            text = bound[0]
        if text is None:
            return None
        head = text.split(".", 1)[0]
        if ("." not in text and not self.in_comprehension(text) and self._lookup(text) is None
                and any(k.startswith("*") for k in self.import_tables.get(0, {}))):
            # `conn.execute(INSERT_EVENT)` of `from .queries import *`: a name nothing
            # here binds, which a star import may; the project phase looks in the stars
            return STAR_LEAD + text
        if self.in_comprehension(head) or not self._imported_only(head):
            return None  # (bound by one import, and by nothing else)
        found = next((q for q in self.qualified_text(text) if "." in q), None)
        # (`import app.queries` then `app.queries.INSERT_EVENT`: written as qualified)
        return found if found is not None or "." not in text else text

    def _imported_only(self, head: str) -> bool:
        """Whether the scope that binds ``head`` as this code sees it binds it by imports
        and by nothing else (a parameter or a local of that name hides a module's import
        of it: a review)."""
        found = self._lookup(head)
        # (`import app.db` and `import app.models` bind `app` twice, both imports: the
        # second review)
        return (found is not None and bool(found[0].imported.get(head))
                and found[0].bound.get(head) == found[0].imported.get(head))

    def _imported_as(self, head: str) -> Optional[str]:
        """What a name an import of the file (or of an enclosing function) binds stands
        for, qualified (``Call.lead``'s text wrappers: `pgsql.SQL` of `from psycopg
        import sql as pgsql`); None for a name no import binds."""
        for frame in reversed(self.frames):
            if head in frame.imports:
                return frame.imports[head]
        return None

    def _wrapper_import(self, head: str) -> bool:
        """Whether a name an import binds is a text wrapper or a module that holds one
        (`Q` of `from psycopg.sql import SQL as Q`, `pgsql` of `from psycopg import sql as
        pgsql`): a call of it as a first argument is read for its statement."""
        qualified = self._imported_as(head) if head else None
        return qualified is not None and scopesmod.names_text_wrapper(qualified)

    def _lookup(self, name: str) -> Optional[Tuple[scopesmod.ScopeTable, bool]]:
        """The scope that binds ``name`` as code in the current scope sees it, and
        whether that is the current scope itself (class bodies are seen only by
        their own statements)."""
        here = True
        for frame in reversed(self.frames):
            for cls in reversed(frame.classes):
                if here:  # (an enclosing class body is not seen)
                    if name not in cls.names.declared_outer and cls.names.bound.get(name):
                        return cls.names, True
                    here = False
            if name in frame.names.declared_global and not frame.is_module:
                module = self.frames[0].names  # `global x`: the module's, whatever encloses
                return (module, False) if module.bound.get(name) else None
            if name not in frame.names.declared_outer and frame.names.bound.get(name):
                return frame.names, here
            here = False
        return None

    def _self_class(self) -> Optional[scopesmod.ScopeTable]:
        """The class whose ``self``/``cls`` the current function sees."""
        found = self._self_class_scope()
        return found.names if found is not None else None

    def _self_class_scope(self) -> Optional[ClassScope]:
        chain: List[Optional[ClassScope]] = []  # a class body, or None for a function; outermost first
        for frame in self.frames:
            chain.append(None)
            chain.extend(frame.classes)
        for cls in reversed(chain[:-1]):
            if cls is not None:
                return cls
        return None

    def expand_alias(self, text: str, line: int, col: int = 0) -> str:
        """A callee through an alias renders as the aliased text (``error = logger.error``:
        ``error(...)`` is ``logger.error(...)``); a class-level alias is called through
        ``self``/``cls``."""
        return self.alias_chain(text, line, col)[-1]

    def alias_chain(self, text: str, line: int, col: int = 0) -> List[str]:
        """``text`` and each text its aliases expand it to, in turn (``save`` with
        ``store = self.db; save = store.save``: ``save``, ``store.save``, ``self.db.save``).
        A function's own alias counts from the end of its assignment on: a use at
        ``line`` and byte column ``col`` sees it when the assignment ended before
        (``save = store.save; save(run)`` on one line too)."""
        out = [text]
        through_class = False  # (a class-level alias's text names what the class body sees)
        for _ in range(4):  # an alias of an alias, a few levels; never a cycle
            m = _HEAD.match(text)
            if m is None:
                return out
            head, rest = m.group(0), text[m.end():]
            if head in ("self", "cls"):
                parts = text.split(".")
                cls = self._self_class()
                if len(parts) < 2 or cls is None or self.frames[-1].static:
                    return out  # (a @staticmethod's `self` is an ordinary parameter)
                found = cls.alias(parts[1])
                if found is None:
                    return out
                new = found[0]
                if len(parts) > 2:
                    # the alias as a receiver (`_driver_class = Driver`, then
                    # `self._driver_class.commit_all(conn)`: held-out set 103,
                    # sqlitecollections), unless a method stores that name on the
                    # instance (`self._driver_class = driver`), which hides it there
                    if cls.bound.get(new.split(".", 1)[0]) or parts[1] in cls.attr_stored:
                        return out
                    new = ".".join([new, *parts[2:]])
                    through_class = True
                elif cls.bound.get(new.split(".", 1)[0]):
                    # `persist = _save`, `_save` a method: the class body's own name, which
                    # the call reaches through `self`/`cls` as it reaches the alias
                    new = f"{head}.{new}"
                else:
                    through_class = True  # (`self._driver_class()`: the class body's text too)
            else:
                scope = self._lookup(head)
                if scope is None:
                    return out
                table, here = scope
                if through_class and here:
                    # (the class body bound the alias's text, not the method: its local
                    # of that name is another binding; a review, session 52. A function
                    # around the class is what the class body reads: followed)
                    return out
                found = table.alias(head)
                if found is None or (here and (found[1], found[2]) > (line, col)):
                    return out
                if rest and head in table.partials:
                    return out  # (`put.keywords.setdefault(...)`: the partial's own attribute; a review)
                new = found[0] + rest
            if new == text or new in out:
                return out
            text = new
            out.append(text)
        return out

    def _partial_name(self, name: str) -> bool:
        """Whether ``name`` is bound, where it is seen, to a ``functools.partial``."""
        scope = self._lookup(name)
        return scope is not None and name in scope[0].partials

    def _alias_beside_defs(self, text: str, line: int, col: int) -> Optional[str]:
        """What a plain name's call also runs when the name is bound by one alias
        beside its ``def``s (``scopes.ScopeTable.alias_beside_defs``), or None."""
        m = _HEAD.match(text)
        if m is None or m.group(0) in ("self", "cls"):
            return None
        scope = self._lookup(m.group(0))
        if scope is None:
            return None
        table, here = scope
        found = table.alias_beside_defs(m.group(0))
        if found is None or (here and (found[1], found[2]) > (line, col)):
            return None
        return self.expand_alias(found[0] + text[m.end():], found[1], found[2])

    def made_by(self, callee: str, line: int, col: int = 0) -> Optional[str]:
        """``pkg.db.async_session`` for ``s.commit()`` where ``s = async_session()`` (or
        ``with async_session() as s:``), and for ``async_session().commit()``, when
        ``async_session`` is imported (``ScopeTable.called``): the receiver is what the
        imported name's call makes, which this file cannot tell; the project's summaries
        can, for a library session factory's instance (``Call.made_by``; held-out sets'
        ``from app.db import async_session``). A dotted maker is a module's function
        through the import (``db.session_scope``) or a typed receiver's method
        (``store.session`` → ``pkg.db.Store.session``). None for any other receiver."""
        receiver, _, method = callee.rpartition(".")
        if not receiver or not method.isidentifier():
            return None
        plain = scopesmod.PLAIN_CALL  # (called plainly, not entered: ``Call.made_by``)
        if receiver.endswith("()") and all(p.isidentifier() for p in receiver[:-2].split(".")):
            maker: Optional[str] = plain + receiver[:-2]
        elif receiver.isidentifier():
            scope = self._lookup(receiver)
            maker = scope[0].made_by(receiver) if scope is not None else None
        elif receiver.startswith("self.") and receiver.count(".") == 1 and any(
                f.classes for f in self.frames[:-1]):
            # `self.s.commit()` where a method binds `self.s = async_session()` (the
            # module's import: ``ScopeTable.attr_called``); not `cls.s`, the class's
            # own attribute (a review)
            cls = self._self_class()
            maker = cls.attr_made_by(receiver.split(".", 1)[1]) if cls is not None else None
            module = self.frames[0]
            if maker is None or maker not in module.imports:
                return None
            full = module.imports[maker]
            return full if "." in full else None
        else:
            return None
        if maker is None:
            return None
        mark = plain if maker.startswith(plain) else ""
        maker = maker[len(mark):]
        found = next((q for q in self.qualified_text(maker) if "." in q), None)
        if found is None and maker.isidentifier() and self.facts.module:
            # `db = make_session()` of this module's own `def make_session() -> Session`,
            # as of another module's (held-out set 463): the function by its qualified name
            where = self._lookup(maker)
            top = self.frames[0].names
            if where is not None and where[0] is top and top.defined.get(maker) == 1 == top.bound.get(maker):
                # (one `def`, bound no other way: two, or one under an `if`, may be either)
                found = f"{self.facts.module}.{maker}"
        if found is None and "." in maker and self._imported_only(maker.split(".", 1)[0]):
            found = maker  # `import app.db` then `app.db.session_scope()`: written as qualified
        head, dot, attr = maker.partition(".")
        if (found is None and dot and "." not in attr and head in ("self", "cls")
                and any(f.classes for f in self.frames[:-1])):
            # `with self.session_scope() as s:` in a subclass of the class that defines
            # the manager: the method by the class's name, which the project's summaries
            # look up along its MRO (a review, session 72)
            cls = self._self_class()
            owner = self.type_qualname(cls.class_name) if cls is not None and cls.class_name else None
            return mark + f"{owner}.{attr}" if owner is not None else None
        if found is None and "." in maker:
            # `with store.session() as s:` (`store: Store`, `self.store`): the method of
            # the receiver's class, by its qualified name; the project's summaries find
            # it along the class's MRO and read what it yields or returns (held-out set
            # 415's leftover: a repository's session manager in another file)
            typed = self.receiver_type(maker, line, col)
            owner = self.type_qualname(typed) if typed is not None else None
            found = f"{owner}.{maker.rsplit('.', 1)[1]}" if owner is not None else None
        return mark + found if found is not None else None

    def chain_receiver_type(self, chain: List[str], line: int, col: int = 0) -> Optional[str]:
        """The receiver class of the first text of an alias chain that has one: the
        name as written first (``repo: Repo = p``; ``repo.persist()`` is ``p.persist()``
        by the alias, and its receiver is a ``Repo`` by the annotation), then what it
        stands for."""
        for text in chain:
            found = self.receiver_type(text, line, col)
            if found is not None:
                return found
        return None

    def receiver_type(self, callee: str, line: int, col: int = 0) -> Optional[str]:
        """The class of ``x`` in ``x.m()``, of ``self.x`` in ``self.x.m()`` and of ``T()``
        in ``T().m()``, as written; a class through an alias (``Journal = RunJournal``)
        as the aliased text."""
        fetched = scopesmod.fetched_receiver(callee)
        if fetched is not None:  # `Run.objects.get(pk=k).save()`: the fetch's model
            return self.expand_alias(fetched, line, col)
        ctor = _CTOR_RECEIVER.match(callee)
        if ctor is not None:
            name = ctor.group(1)
            if scopesmod._cap_words(name.rsplit(".", 1)[-1]):
                return self.expand_alias(name, line, col)
            parts = name.split(".")
            if len(parts) == 2 and parts[0] in ("self", "cls"):
                # `self._driver_class().commit(conn)` with `_driver_class = Driver` in the
                # class body: an instance of the class the alias names (held-out set
                # 103's idiom, instantiated), unless a method stores that name on the
                # instance (as for the alias as a receiver)
                cls = self._self_class()
                if cls is None or parts[1] in cls.attr_stored:
                    return None
                chain = self.alias_chain(name, line, col)
                last = chain[-1]
                if len(chain) > 1 and not last.startswith(("self.", "cls.")) \
                        and scopesmod._cap_words(last.rsplit(".", 1)[-1]):
                    return last
            return None
        parts = callee.split(".")
        if not all(p.isidentifier() for p in parts):
            return None
        written: Optional[str] = None
        in_method = any(f.classes for f in self.frames[:-1])  # (`self` of a module function: a plain name)
        if len(parts) == 2 and parts[0] in ("self", "cls") and in_method:
            # `self.m()` resolves by the class's MRO, but `self` is no receiver of
            # known type for matching (docs/decisions.md "Receiver types: ...")
            return None
        if len(parts) == 2:
            scope = self._lookup(parts[0])
            written = scope[0].type_of(parts[0]) if scope is not None else None
        elif len(parts) == 3 and parts[0] in ("self", "cls") and in_method:
            found = self._self_class_scope()
            written = self.scopes.attr_type(found.line, parts[1]) if found is not None else None
            if written is not None and self.type_qualname(written) is None:
                # `self.ledger = Ledger()` where `__init__` imports `Ledger` itself
                # (against an import cycle; held-out set 464): the method's import names it
                written = self._method_import(written) or written
        elif len(parts) == 3:
            # `db.session.commit()` of `db = SQLAlchemy(app)`: a library class's attribute
            # that holds another library class's instance (``LIBRARY_ATTRIBUTES``)
            scope = self._lookup(parts[0])
            holder = scope[0].type_of(parts[0]) if scope is not None else None
            owner = self.type_qualname(holder) if holder is not None else None
            return scopesmod.LIBRARY_ATTRIBUTES.get(f"{owner}.{parts[1]}") if owner else None
        if written is None:
            return None
        # (`from typing import Any as A`: `A` names no class either; a review)
        qualified = self.qualified_text(written) if "." not in written else ()
        if qualified and scopesmod.names_nothing(qualified[0]):
            return None
        return self.expand_alias(written, line, col)

    def _method_import(self, written: str) -> Optional[str]:
        """``written``'s qualified name through the one target the file's functions'
        own imports give its head (``from .ledger import Ledger`` in ``__init__``,
        ``import pkg.books as m`` for ``m.Book``), when they all agree and no scope of the
        file binds the head any other way (a parameter ``Book``, ``Book = factory``, a
        module-level binding: a review); None otherwise."""
        head, dot, rest = written.partition(".")
        targets = {table[head] for line, table in self.import_tables.items() if line and head in table}
        if len(targets) != 1:
            return None
        for table in self.scopes.functions.values():
            if table.bound.get(head, 0) > table.imported.get(head, 0):
                return None
        return next(iter(targets)) + dot + rest

    def type_qualname(self, written: str) -> Optional[str]:
        """``RunStore`` → ``pkg.store.RunStore`` through the imports, or
        ``<this module>.RunStore`` for a class defined at the top of this module."""
        if written.startswith("builtins.") or written in scopesmod.QUALIFIED_TYPES:
            # a function's fresh list, dict or set (``scopes.display_kind``); a derived
            # path; a logger by its factory
            return written
        qn = self.qualified_text(written)
        if qn:
            return qn[0]
        head = written.split(".", 1)[0]
        if "." in written and any(head in frame.imports for frame in self.frames):
            return written  # `import acme.db` then `acme.db.RunStore`: written as qualified
        if "." in written and self._lookup(head) is None and any(
                written == v or written.startswith(v + ".")
                for line, table in self.import_tables.items() if line for v in table.values()):
            return written  # (a method's own import's target, or a name in its module: ``_method_import``)
        if head in self.scopes.module_classes:
            found = self._lookup(head)
            if found is not None and found[0] is not self.frames[0].names:
                # `def f(ledger, Store): store = Store()`: the parameter, not the
                # module's class of that name (a class body's own binding too)
                return None
            return f"{self.facts.module}.{written}" if self.facts.module else written
        return None
