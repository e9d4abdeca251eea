"""A coroutine handed to ``asyncio.create_task``/``ensure_future`` (or a loop's own
``create_task``) runs as a task of its own: what it raises goes to the task and never
out of the call that scheduled it, so it cannot raise into the caller's handler; what
it does, however it ends, may still happen (docs/decisions.md "A coroutine run as a
detached task"; held-out set 161, hydrogram's ``Session.start``)."""
from __future__ import annotations

import pytest
from checkutil import check_source, cl, write_tree
from cliutil import oc

from ordercheck import frontend

TABLE = {"extend-events": {"save": ["*store.save"], "append": ["*ledger.append"]}}

WORKER = """
import asyncio


class Worker:
    async def _persist(self, run):
        await self.store.save(run)

    {caller}
"""


def _codes(caller: str, select=("OC102", "OC203")):
    return cl(WORKER.replace("{caller}", caller), select=list(select), table=TABLE)


@pytest.mark.parametrize("how", [
    "asyncio.create_task(self._persist(run))",
    "asyncio.ensure_future(self._persist(run))",
    "asyncio.get_running_loop().create_task(self._persist(run))",
    "self._loop.create_task(self._persist(run))",
    "asyncio.run_coroutine_threadsafe(self._persist(run), self._loop)",
    # dropped otherwise than as a statement (a review): detached too
    "asyncio.create_task(self._persist(run)).add_done_callback(print)",
    "self._background.add(asyncio.create_task(self._persist(run)))",
    "_ = asyncio.create_task(self._persist(run))",
    "self._task = asyncio.create_task(self._persist(run))",
    "asyncio.create_task(self._persist(run)).cancel()",
    # bound to a name that only drops it (the asyncio docs' background-task idiom)
    "task = asyncio.create_task(self._persist(run))\n            self._bg.add(task)\n"
    "            task.add_done_callback(self._bg.discard)",
    "task = asyncio.create_task(self._persist(run))\n            self._tasks[run] = task",
    "task = asyncio.ensure_future(self._persist(run))",
    # the asyncio docs' idiom with a local set, its `discard` handed on uncalled (a review)
    "tasks = set()\n            task = asyncio.create_task(self._persist(run))\n            tasks.add(task)\n"
    "            task.add_done_callback(tasks.discard)",
])
def test_a_detached_task_cannot_fail_into_the_callers_handler(how):
    assert _codes(f"""async def handle(self, run):
        try:
            {how}
        except Exception:
            return None
    """, select=["OC203"]) == []


def test_through_a_helper_that_schedules_it_too():
    # the set's shape: the handler calls a function that only schedules the save
    assert _codes("""async def start(self, run):
        asyncio.get_running_loop().create_task(self._persist(run))

    async def handle(self, run):
        try:
            await self.start(run)
        except Exception:
            return None
    """, select=["OC203"]) == []


def test_a_library_coroutine_by_its_own_name_is_detached_too():
    assert cl("""
import asyncio


async def handle(store, run):
    try:
        asyncio.ensure_future(store.save(run))
    except Exception:
        return None
""", select=["OC203"], table=TABLE) == []


@pytest.mark.parametrize("how, line", [
    ("await self._persist(run)", 11),
    ("await asyncio.gather(self._persist(run))", 11),       # gather raises it at its await
    ("await asyncio.wait_for(self._persist(run), 5)", 11),
    ("tg.create_task(self._persist(run))", 11),             # a task group raises it at its exit
    ("self.create_task(self._persist(run))", 11),           # a project's own method: not known
    # the task awaited or kept, which may take its failure back here (a review)
    ("await asyncio.create_task(self._persist(run))", 11),
    ("await asyncio.ensure_future(self._persist(run))", 11),
    ("await asyncio.gather(asyncio.create_task(self._persist(run)))", 11),
    ("t = asyncio.create_task(self._persist(run))\n            await t", 11),
    ("asyncio.run_coroutine_threadsafe(self._persist(run), self._loop).result()", 11),
    ("self._loop.run_until_complete(self._loop.create_task(self._persist(run)))", 11),
    ("tasks = [asyncio.create_task(self._persist(r)) for r in run]\n            await asyncio.gather(*tasks)", 11),
])
def test_what_is_awaited_or_grouped_still_fails_into_the_handler(how, line):
    assert _codes(f"""async def handle(self, run, tg):
        try:
            {how}
        except Exception:
            return None
    """, select=["OC203"]) == [("OC203", line)]


@pytest.mark.parametrize("ends", ["", "\n        raise RuntimeError('after the save')"])
def test_what_the_task_does_however_it_ends_may_still_be_ordered(ends):
    src = WORKER.replace("await self.store.save(run)", "await self.store.save(run)" + ends).replace(
        "{caller}", """async def handle(self, run):
        asyncio.create_task(self._persist(run))
        self.ledger.append(run)
    """)
    assert cl(src, select=["OC102"], table=TABLE) == [("OC102", 11 + (1 if ends else 0))]


def test_the_outline_and_the_whole_read_mark_the_same_calls():
    src = b"""
import asyncio


async def f(self, loop, tg):
    asyncio.create_task(self.a())
    loop.create_task(self.b(), name="b")
    tg.create_task(self.c())
    await asyncio.wait_for(self.d(), 5)
    asyncio.ensure_future(coro=self.e())
    asyncio.ensure_future(*[self.g()])
    asyncio.run_coroutine_threadsafe(self.h(), loop)
"""
    whole = frontend.extract("m.py", src)
    outline = frontend.outline("m.py", src)
    marked = lambda facts: sorted(c.callee for fn in facts.functions for c in fn.calls if c.detached)  # noqa: E731
    assert marked(whole) == marked(outline) == ["self.a", "self.b", "self.h"]


def test_one_file_and_warm_runs_agree_with_a_whole_run(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.ordercheck.extend-events]\nsave = ["*store.save"]\n',
        "worker.py": """\
            import asyncio


            async def persist(store, run):
                await store.save(run)


            async def start(store, run):
                asyncio.create_task(persist(store, run))
            """,
        "main.py": """\
            import worker


            async def handle(store, run):
                try:
                    await worker.start(store, run)
                except Exception:
                    return None
            """,
    })
    cache = tmp_path / "cache"
    whole = oc(tmp_path, "--cache-dir", str(cache), "--select", "OC203", ".")
    assert whole.codes() == [], whole
    alone = oc(tmp_path, "--cache-dir", str(cache), "--select", "OC203", "main.py")
    assert alone.codes() == [], alone
    # awaiting the task's coroutine instead makes the failure the caller's again
    awaiting = (tmp_path / "worker.py").read_text().replace(
        "asyncio.create_task(persist(store, run))", "await persist(store, run)")
    (tmp_path / "worker.py").write_text(awaiting)
    again = oc(tmp_path, "--cache-dir", str(cache), "--select", "OC203", "main.py")
    assert again.codes() == [("main.py", 6, "OC203")], again


@pytest.mark.parametrize("caller", [
    "await self.start(run)",
    "self.start(run).result()",
])
def test_a_task_a_helper_returns_is_its_callers_to_take_back(caller):
    # (a fourth review) `return asyncio.create_task(...)`: the caller awaits it
    assert _codes(f"""def start(self, run):
        return asyncio.create_task(self._persist(run))

    async def handle(self, run):
        try:
            {caller}
        except Exception:
            return None
    """, select=["OC203"]) == [("OC203", 14)]


@pytest.mark.parametrize("how", [
    "t1, t2 = asyncio.create_task(self._persist(run)), asyncio.create_task(self._persist(run))\n            await t1",
    "tasks = []\n            tasks.append(asyncio.create_task(self._persist(run)))\n            await asyncio.gather(*tasks)",
    "t = asyncio.create_task(self._persist(run)) if run else None\n            await t",
    "for fut in asyncio.as_completed([asyncio.create_task(self._persist(run))]):\n                await fut",
    # a name read otherwise than to drop the task may take it back
    "task = asyncio.create_task(self._persist(run))\n            self._bg.add(task)\n            return task",
    "task = asyncio.create_task(self._persist(run))\n            self.watch(task)",
    "tasks = set()\n            task = asyncio.create_task(self._persist(run))\n            tasks.add(task)\n"
    "            await asyncio.gather(*tasks)",
    "task = asyncio.create_task(self._persist(run))\n            task.add_done_callback(print)\n"
    "            await asyncio.wait([task])",
])
def test_more_ways_of_keeping_a_task(how):
    got = _codes(f"""async def handle(self, run):
        try:
            {how}
        except Exception:
            return None
    """, select=["OC203"])
    assert got and all(code == "OC203" for code, _ in got)


def test_a_futures_exception_takes_nothing_back():
    assert _codes("""async def handle(self, run):
        try:
            asyncio.ensure_future(self._persist(run)).exception()
        except Exception:
            return None
    """, select=["OC203"]) == []


def test_the_witness_says_a_task_may_run_later():
    # (held-out set 180): "after the state save at line 11" read as if the task had run there
    src = WORKER.replace("{caller}", """async def handle(self, run):
        asyncio.create_task(self._persist(run))
        self.ledger.append(run)
    """)
    found = [f for f in check_source(src, select=["OC102"], table=TABLE)]
    assert [f.span.line for f in found] == [11], found
    assert "scheduled as a task: it may run here or later" in found[0].witness[0].text, found[0].witness
