"""A project helper that never returns (docs/decisions.md "A helper that never
returns"): its call is a dead end for a handler's way out, so a handler that ends in
``self._fail(run)`` (always raising, or calling ``sys.exit``) is not silent. A helper
that only may raise, or whose raise is swallowed again, changes nothing."""
from conformance import run_case

BAIL = """\
class Runtime:
    def _bail(self, run):
        raise RunFailed(run.id)

    def execute(self, run):
"""


def check(src, extra=()):
    got, want, detail = run_case(src, extra=extra)
    assert got == want, detail


def test_a_handler_ending_in_an_always_raising_helper_is_not_silent():
    check(BAIL + """\
        try:
            self._store.save(run)
        except Exception:
            self._bail(run)
""")


def test_a_helper_that_exits_the_process_is_a_dead_end_too():
    check("""\
import sys

def _die(run):
    print("fatal", run.id)
    sys.exit(2)

def execute(store, run):
    try:
        store.save(run)
    except Exception:
        _die(run)
""")


def test_a_helper_that_only_may_raise_leaves_the_handler():
    check("""\
class Runtime:
    def _maybe_bail(self, run, strict):
        if strict:
            raise RunFailed(run.id)

    def execute(self, run, strict):
        try:
            self._store.save(run)   # !OC203
        except Exception:
            self._maybe_bail(run, strict)
""")


def test_the_helpers_raise_swallowed_again_is_silent():
    check(BAIL + """\
        try:
            self._store.save(run)   # !OC203
        except Exception:
            try:
                self._bail(run)
            except Exception:
                pass
""")


def test_the_helpers_raise_into_a_silent_outer_handler_is_still_lost():
    check(BAIL + """\
        try:
            try:
                self._store.save(run)   # !OC203
            except Exception:
                self._bail(run)
        except Exception:
            pass
""")


def test_a_broad_handler_calling_a_never_returning_helper_is_no_oc204():
    check("""\
def _bail(msg):
    raise RuntimeError(msg)

def load(path):
    try:
        return open(path).read()
    except Exception:   # !OC204
        return None

def load_strict(path):
    try:
        return open(path).read()
    except Exception:
        _bail(path)
""", extra=("OC204",))


def test_a_helper_that_ends_in_os_exit_is_a_dead_end_too():
    """(Held-out set 61.) ``os._exit`` has no successor at all, so its helper reaches
    neither the function's end nor its raise; it never returns all the same."""
    check("""\
import os

class Worker:
    def _hard_exit(self):
        os._exit(1)

    def give_back(self, ledger, payload):
        try:
            ledger.append_record(payload)
        except Exception:
            self._hard_exit()
""")


def test_nothing_after_a_call_of_an_os_exit_helper_runs():
    check("""\
import os

def hard_exit():
    os._exit(1)

def spin():
    while True:
        pass

def finish(store, ledger, run):
    store.save(run)
    hard_exit()
    ledger.append_record(run)

def finish_spinning(store, ledger, run):
    store.save(run)
    spin()
    ledger.append_record(run)

def finish_maybe(store, ledger, run, fatal):
    store.save(run)
    if fatal:
        hard_exit()
    ledger.append_record(run)   # !OC102
""")


def test_a_generator_or_a_coroutine_that_never_ends_returns_from_its_call():
    # (a review, session 47) calling a generator makes it, and calling an `async def`
    # makes a coroutine: neither runs the endless body there
    check("""\
import asyncio

class Consumer:
    def _messages(self):
        while True:
            yield None

    async def _idle(self):
        while True:
            pass

    def consume(self, run):
        for msg in self._messages():
            self._store.save(msg)
            self._ledger.append(msg)   # !OC102

    async def run_task(self, run):
        self._store.save(run)
        asyncio.ensure_future(self._idle())
        self._ledger.append(run)   # !OC102
""")


def test_a_helper_defined_twice_returns_when_one_definition_does():
    # (a review, session 47) `if os.name == "nt": def _stop(): os._exit(1)` / `else:
    # def _stop(): pass`: the call returns on one platform
    check("""\
import os

if os.name == "nt":
    def _stop():
        os._exit(1)
else:
    def _stop():
        pass

if os.name == "nt":
    def _halt():
        raise SystemExit(1)
else:
    def _halt():
        pass

def step(store, ledger, run):
    store.save(run)
    _stop()
    ledger.append(run)   # !OC102

def step2(store, ledger, run):
    store.save(run)
    _halt()
    ledger.append(run)   # !OC102
""")


def test_overload_stubs_are_no_definition_that_returns():
    # (a second review) `@overload` stubs of an always-raising helper kept the call
    # from being a dead end, and the handler ending in it was silent
    check("""\
from typing import NoReturn, overload

@overload
def bail(run: int) -> NoReturn: ...
@overload
def bail(run: str) -> NoReturn: ...
def bail(run):
    raise RunFailed(run)

def execute(store, run):
    try:
        store.save(run)
    except Exception:
        bail(run)
""")


def test_an_endless_coroutine_that_can_raise_returns_from_a_call_not_awaited():
    # (left by session 47) `ensure_future(self._heartbeat())` makes the coroutine and
    # returns at once, though its body can raise: the code after it runs. Awaited, the
    # same call never returns (`await self._heartbeat()`, and through `wait_for`).
    check("""\
import asyncio

class Agent:
    async def _heartbeat(self):
        while True:
            await asyncio.sleep(5)
            self._beat()

    async def start(self, run):
        self._store.save(run)
        self._task = asyncio.ensure_future(self._heartbeat())
        self._ledger.append(run)   # !OC102

    async def start_task(self, run):
        self._store.save(run)
        asyncio.get_running_loop().create_task(self._heartbeat())
        self._ledger.append(run)   # !OC102

    async def serve(self, run):
        self._store.save(run)
        await self._heartbeat()
        self._ledger.append(run)

    async def serve_for(self, run):
        self._store.save(run)
        await asyncio.wait_for(self._heartbeat(), 60)
        self._ledger.append(run)

    async def guard(self, run):
        try:
            self._store.save(run)
        except Exception:
            await self._heartbeat()
""")


def test_a_coroutine_function_handed_to_a_thread_only_makes_its_coroutine():
    # (a review, session 48) `to_thread`/`run_in_executor` call it in a thread, where it
    # makes a coroutine and returns; asgiref's `async_to_sync(f)()` runs it to its end
    check("""\
import asyncio

from asgiref.sync import async_to_sync


async def heartbeat():
    while True:
        await asyncio.sleep(5)
        beat()


def serve(store, ledger, run):
    store.save(run)
    async_to_sync(heartbeat)()
    ledger.append(run)


async def offload(store, ledger, run):
    store.save(run)
    await asyncio.to_thread(heartbeat)
    ledger.append(run)   # !OC102


async def offload_loop(store, ledger, run):
    store.save(run)
    await asyncio.get_running_loop().run_in_executor(None, heartbeat)
    ledger.append(run)   # !OC102
""")


def test_an_async_and_a_sync_definition_that_never_return_are_dead_only_awaited():
    # (a review, session 48) Python binds one of them; a call not awaited of the
    # `async def` returns at once
    check("""\
import asyncio
import os

if os.name == "nt":
    def _stop(run):
        os._exit(1)
else:
    async def _stop(run):
        while True:
            await asyncio.sleep(1)

async def step(store, ledger, run):
    store.save(run)
    asyncio.ensure_future(_stop(run))
    ledger.append(run)   # !OC102

async def step_awaited(store, ledger, run):
    store.save(run)
    await _stop(run)
    ledger.append(run)
""")
