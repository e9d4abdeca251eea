"""Deep recursion: the engine's walks (libcst's, the front end's, the graph
builder's, the summaries') recurse once per level of nesting, and Python's default
limit of 1,000 frames stops them at a few hundred levels, where CPython itself
compiles a thousand or so. A function or file that ran out is done again on a
thread with a deep stack and a high limit (``deeply``), instead of being lost
(docs/decisions.md "Files that nest deeply")."""
from __future__ import annotations

import sys
import threading
from typing import Any, Callable, TypeVar

T = TypeVar("T")

#: ``deeply``'s recursion limit and thread stack: a file CPython compiles nests a
#: thousand levels or so, which the walks take in ten to twenty frames each; the
#: stack leaves a margin of some 2.5 KiB a frame (a thread's stack is only committed
#: as it is touched)
DEEP_LIMIT = 50_000
DEEP_STACK = 128 * 1024 * 1024

DEEP_THREAD = "ordercheck-deep"
_lock = threading.Lock()  # (the limit and the stack size are the interpreter's, not a thread's)


def deeply(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a thread with a deep stack and a high recursion limit (the
    limit is restored after, while the caller only waits; the stack size as soon as
    the thread has started). What ``fn`` raises is raised here; a thread that cannot
    start (a `ulimit -v`) is a ``RecursionError``, as the shallow attempt's."""
    if threading.current_thread().name == DEEP_THREAD:
        return fn(*args)  # (already on a deep stack: the lock is its caller's)
    got: list = []

    def run() -> None:
        try:
            got.append((True, fn(*args)))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            got.append((False, exc))

    with _lock:
        old_limit = sys.getrecursionlimit()
        try:
            old_stack = threading.stack_size()
            worker = threading.Thread(target=run, name=DEEP_THREAD, daemon=True)
            sys.setrecursionlimit(max(old_limit, DEEP_LIMIT))  # (before the start: a thread takes it then)
            try:
                threading.stack_size(DEEP_STACK)
                worker.start()
            except (RuntimeError, ValueError, MemoryError) as exc:
                raise RecursionError(f"no thread with a deep stack: {exc}") from exc
            finally:
                threading.stack_size(old_stack)
            worker.join()
        finally:
            sys.setrecursionlimit(old_limit)
    ok, value = got[0]
    if not ok:
        raise value
    return value


def retrying(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, and once more with ``deeply`` when it ran out of recursion."""
    try:
        return fn(*args)
    except RecursionError:
        if threading.current_thread().name == DEEP_THREAD:
            raise  # (already deep: the limit it has is the answer)
        return deeply(fn, *args)
