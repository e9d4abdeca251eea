"""A callable handed to a thread and awaited is called where it is awaited.

``await asyncio.to_thread(store.save, run)`` (and ``anyio``/``trio``'s ``run_sync``, an
event loop's ``run_in_executor``, ``asgiref``'s ``sync_to_async(f)(...)``) runs
``store.save(run)`` right there and gives back what it returns or raises: the call is
an event of what ``store.save`` is, through patterns, receiver types and summaries. A lambda
without parameters handed over runs its body there. Not
awaited, the callable runs later or never, and the call is no event of it
(docs/decisions.md "A callable handed to a thread and awaited").
"""
from __future__ import annotations

import pytest
from checkutil import ALL_DEFAULT, cl

SAVED_THEN_TERMINAL = '''
    import asyncio, functools
    async def f(self, store, ledger, run, loop, args):
        {save}
        ledger.append("run_failed", run)
'''


@pytest.mark.parametrize("save", [
    "await asyncio.to_thread(store.save, run)",
    "await asyncio.threads.to_thread(store.save, run)",
    "await loop.run_in_executor(None, store.save, run)",
    "await self._eventloop.run_in_executor(None, store.save, run)",
    "await asyncio.get_running_loop().run_in_executor(None, store.save, run)",
    "await asyncio.to_thread(functools.partial(store.save, run))",
    "result = await asyncio.to_thread(store.save, run)",
    "if await asyncio.to_thread(store.save, run): pass",
    "await asyncio.to_thread(lambda: store.save(run))",
    "await loop.run_in_executor(None, lambda: [store.save(run)])",
    "await asyncio.to_thread(lambda r=run: store.save(r))",
    "await asyncio.wait_for(asyncio.to_thread(store.save, run), 5)",
    "await asyncio.shield(asyncio.to_thread(store.save, run))",
])
def test_an_awaited_hand_off_of_a_save_is_a_save(save):
    assert cl(SAVED_THEN_TERMINAL.format(save=save), ["OC101"]) == [("OC101", 5)]


@pytest.mark.parametrize("save", [
    "asyncio.to_thread(store.save, run)",  # a coroutine nobody awaits
    "asyncio.create_task(asyncio.to_thread(store.save, run))",  # runs later
    "loop.run_in_executor(None, store.save, run)",  # a future: runs beside this code
    "await asyncio.to_thread(*args)",  # the callable is not written here
    "await asyncio.to_thread(store.load, run)",  # hands off no save
    "await self.run_in_executor(store.save, run)",  # not an event loop's
    "await asyncio.to_thread(save=store.save)",  # not positional
    "await asyncio.to_thread(lambda r: store.save(r), run)",  # a lambda with a parameter
    "asyncio.to_thread(lambda: store.save(run))",  # not awaited
    "asyncio.wait_for(asyncio.to_thread(store.save, run), 5)",  # not awaited
    "await asyncio.wait_for(5, asyncio.to_thread(store.save, run))",  # not the awaited argument
])
def test_a_hand_off_that_is_not_awaited_or_hands_no_save_is_none(save):
    assert cl(SAVED_THEN_TERMINAL.format(save=save), ["OC101"]) == []


def test_imported_runners_and_a_project_helper_through_self():
    src = '''
        from asyncio import to_thread
        import anyio
        import trio

        class Worker:
            def _persist(self, run):
                self.store.save(run)

            async def a(self, run):
                await to_thread(self._persist, run)
                self.ledger.append("run_failed", run)

            async def b(self, run):
                await anyio.to_thread.run_sync(self._persist, run)
                self.ledger.append("run_failed", run)

            async def c(self, run):
                await trio.to_thread.run_sync(self._persist, run)
                self.ledger.append("run_failed", run)
    '''
    assert cl(src, ["OC101"]) == [("OC101", 12), ("OC101", 16), ("OC101", 20)]


def test_asgiref_wrappers_run_the_wrapped_callable_when_called():
    src = '''
        from asgiref.sync import async_to_sync, sync_to_async

        async def awaited(store, ledger, run):
            await sync_to_async(store.save)(run)
            ledger.append("run_failed", run)

        async def not_awaited(store, ledger, run):
            sync_to_async(store.save)(run)
            ledger.append("run_failed", run)

        def blocking(store, ledger, run):
            async_to_sync(store.save)(run)
            ledger.append("run_failed", run)
    '''
    assert cl(src, ["OC101"]) == [("OC101", 6), ("OC101", 14)]


def test_the_handed_callable_names_the_event_and_its_markers():
    # the callable's own name gives the markers (`append_failed`), as a call of it would
    src = '''
        import asyncio

        async def f(store, ledger, run):
            store.save(run)
            await asyncio.to_thread(ledger.append_failed, run)

        async def g(store, ledger, run):
            store.save(run)
            await asyncio.to_thread(ledger.append, run)
    '''
    assert cl(src, ["OC101", "OC102"]) == [("OC101", 6), ("OC102", 10)]


def test_a_handed_append_can_fail_into_a_handler_and_a_handed_debug_log_is_quiet():
    src = '''
        import asyncio
        import logging
        log = logging.getLogger(__name__)

        async def lost(ledger, run):
            try:
                await asyncio.to_thread(ledger.append, run)
            except Exception as e:
                await asyncio.to_thread(log.debug, "lost %s", e)

        async def reported(ledger, run):
            try:
                await asyncio.to_thread(ledger.append, run)
            except Exception as e:
                await asyncio.to_thread(log.error, "lost %s", e)
    '''
    assert cl(src, ["OC202"]) == [("OC202", 8)]


def test_a_config_pattern_matches_the_handed_callable_by_receiver_type():
    src = '''
        import asyncio

        class SystemDatabase:
            def update_status(self, wf): ...
            def record_output(self, wf): ...

        class Client:
            def __init__(self, sys_db: SystemDatabase):
                self._sys_db = sys_db

            async def finish(self, wf):
                await asyncio.to_thread(self._sys_db.update_status, wf)
                await asyncio.to_thread(self._sys_db.record_output, wf)
    '''
    table = {"extend-events": {"save": ["*.SystemDatabase.update_status"],
                               "append": ["*.SystemDatabase.record_output"]}}
    assert cl(src, ALL_DEFAULT, table) == [("OC102", 14)]


def test_a_handed_lambda_or_partial_hands_the_exception_to_the_callable_not_the_runner():
    # (a review found both silent handlers missed: the runner took the exception)
    src = '''
        import asyncio, functools, logging
        log = logging.getLogger(__name__)

        async def by_lambda(ledger):
            try:
                ledger.append("run_failed")
            except Exception as e:
                await asyncio.to_thread(lambda: log.debug("lost %s", e))

        async def by_partial(ledger):
            try:
                ledger.append("run_failed")
            except Exception as e:
                await asyncio.to_thread(functools.partial(log.debug, "lost %s", e))

        async def loud(ledger, report):
            try:
                ledger.append("run_failed")
            except Exception as e:
                await asyncio.to_thread(lambda: report(e))
    '''
    assert cl(src, ["OC201"]) == [("OC201", 7), ("OC201", 13)]


def test_markers_come_from_what_the_callable_gets_not_from_the_runner():
    src = '''
        import asyncio, functools
        from asgiref.sync import sync_to_async
        FAILED_OPS_POOL = None

        async def executor_named_failed(store, ledger, run, loop):
            store.save(run)
            await loop.run_in_executor(FAILED_OPS_POOL, ledger.append, run)

        async def partial_through_a_wrapper(store, ledger, run):
            store.save(run)
            await sync_to_async(functools.partial(ledger.append, "run_failed"))()
    '''
    assert cl(src, ["OC101", "OC102"]) == [("OC101", 12), ("OC102", 8)]


def test_a_runner_name_that_is_the_projects_own_is_no_runner(tmp_path):
    src = '''
        class LoopRunner:
            def run_in_executor(self, fn, *args):
                self._ledger.append(fn, args)

        class Runner:
            def to_thread(self, fn, *args):
                self._ledger.append(fn, args)

        class Runtime:
            def __init__(self, loop: LoopRunner):
                self._loop = loop

            async def finish(self, store, run):
                store.save(run)
                await self._loop.run_in_executor(store.save, run)

        async def shadowed(store, run, asyncio: Runner):
            store.save(run)
            await asyncio.to_thread(store.save, run)
    '''
    assert cl(src, ["OC102"]) == [("OC102", 16), ("OC102", 20)]
    from checkutil import run_tree, write_tree
    write_tree(tmp_path, {
        "pyproject.toml": "",
        "proj/__init__.py": "",
        "proj/aio.py": "def to_thread(fn, *args):\n    ledger.append(fn, args)\n",
        "proj/main.py": ("from proj import aio as asyncio\n\n"
                         "async def finish(store, run):\n    store.save(run)\n"
                         "    await asyncio.to_thread(store.save, run)\n"),
    })
    assert run_tree(tmp_path, ["OC102"]) == [("proj/main.py", 5, "OC102")]


def test_a_handed_log_call_keeps_its_level_and_a_walrus_in_a_handed_lambda_stays_there():
    src = '''
        import asyncio, logging
        log = logging.getLogger(__name__)

        async def loud(ledger):
            try:
                ledger.append("run_failed")
            except Exception as e:
                await asyncio.to_thread(log.log, logging.ERROR, "lost %s", e)

        async def correlated(store, ledger, run, ok):
            if ok:
                store.save(run)
            await asyncio.to_thread(lambda: (ok := False))
            if not ok:
                ledger.append("run_failed", run)
    '''
    assert cl(src, ["OC101", "OC201"]) == []
