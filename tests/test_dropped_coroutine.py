"""A call of a project ``async def`` that is an expression statement's whole value,
not awaited (``self.refresh_token()``), makes a coroutine and drops it: nothing of the
body runs, so the call carries nothing of its summary (docs/decisions.md "A coroutine
dropped unrun"; held-out set 81, opsdroid's twitch connector). Awaited, scheduled,
kept or returned, it carries what it did before; an ``async def`` behind a decorator
that may run it (prefect's ``@sync_compatible``) is not known to be dropped."""
from __future__ import annotations

import pytest
from checkutil import cl, write_tree
from cliutil import oc, write

from ordercheck import frontend

TABLE = {"extend-events": {"save": ["*store.save"], "append": ["*ledger.append"]}}

CONNECTOR = """
import contextlib


class Connector:
    async def refresh_token(self):
        self.store.save(self.token)

    {caller}
"""


def _codes(caller: str, select=("OC102", "OC203")):
    return cl(CONNECTOR.replace("{caller}", caller), select=list(select), table=TABLE)


def test_a_dropped_coroutine_saves_nothing():
    assert _codes("""async def handle(self):
        self.refresh_token()
        self.ledger.append({"event": "handled"})
    """) == []


def test_a_dropped_coroutine_cannot_fail_into_a_handler():
    assert _codes("""def listen(self):
        with contextlib.suppress(Exception):
            self.refresh_token()
    """) == []


@pytest.mark.parametrize("how", [
    "await self.refresh_token()",
    "loop.create_task(self.refresh_token())",  # scheduled: it runs (docs/decisions.md)
    "task = self.refresh_token()",             # kept: it may be awaited later
    "await asyncio.wait_for(self.refresh_token(), 5)",
])
def test_a_coroutine_awaited_scheduled_or_kept_still_saves(how):
    assert _codes(f"""async def handle(self, loop):
        {how}
        self.ledger.append({{"event": "handled"}})
    """, select=["OC102"]) == [("OC102", 11)]


def test_a_returned_coroutine_is_the_callers_to_await():
    src = CONNECTOR.replace("{caller}", """def refreshed(self):
        return self.refresh_token()

    async def handle(self):
        await self.refreshed()
        self.ledger.append({"event": "handled"})
    """)
    assert cl(src, select=["OC102"], table=TABLE) == [("OC102", 14)]


@pytest.mark.parametrize("decorator, dropped", [
    ("@staticmethod", True),
    ("@abc.abstractmethod", True),
    ("@sync_compatible", False),  # may run the coroutine itself when called from sync code
    ("@retry(3)", False),
])
def test_only_decorators_that_keep_a_coroutine_drop_it(decorator, dropped):
    src = f"""
import abc


class Connector:
    {decorator}
    async def refresh_token(store=None):
        store.save(1)

    async def handle(self):
        self.refresh_token()
        self.ledger.append({{"event": "handled"}})
"""
    assert (cl(src, select=["OC102"], table=TABLE) == []) == dropped


def test_a_plain_def_called_alone_still_saves():
    src = CONNECTOR.replace("async def refresh_token", "def refresh_token").replace("{caller}", """async def handle(self):
        self.refresh_token()
        self.ledger.append({"event": "handled"})
    """)
    assert cl(src, select=["OC102"], table=TABLE) == [("OC102", 11)]


def test_an_async_and_a_plain_def_of_one_name_may_run():
    src = """
import sys


if sys.platform == "win32":
    async def refresh(store):
        store.save(1)
else:
    def refresh(store):
        store.save(1)


async def handle(store, ledger):
    refresh(store)
    ledger.append({"event": "handled"})
"""
    assert cl(src, select=["OC102"], table=TABLE) == [("OC102", 15)]


def test_the_outline_and_the_whole_read_mark_the_same_calls():
    src = b"""
async def f(self, loop):
    self.a()
    await self.b()
    x = self.c()
    loop.create_task(self.d())
    (self.e())
    self.g().h()
    return self.i()
"""
    whole = frontend.extract("m.py", src)
    outline = frontend.outline("m.py", src)
    marked = lambda facts: sorted(c.callee for fn in facts.functions for c in fn.calls if c.discarded)  # noqa: E731
    assert marked(whole) == marked(outline) == ["loop.create_task", "self.a", "self.e", "self.g().h"]


def test_a_helper_across_files_and_a_warm_run_that_sees_it_turn_sync(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.ordercheck.extend-events]\nsave = ["*.store.save"]\nappend = ["*.ledger.append"]\n',
        "auth.py": """\
            class Auth:
                async def refresh_token(self):
                    self.store.save(self.token)
            """,
        "bot.py": """\
            from auth import Auth


            async def handle(auth: Auth, ledger):
                auth.refresh_token()
                ledger.append({"event": "handled"})
            """,
    })
    cache = tmp_path / "cache"
    first = oc(tmp_path, "--cache-dir", str(cache), "--select", "OC102", ".")
    assert first.codes() == [], first
    write(tmp_path, "auth.py", """
        class Auth:
            def refresh_token(self):
                self.store.save(self.token)
    """)
    again = oc(tmp_path, "--cache-dir", str(cache), "--select", "OC102", "bot.py")
    assert again.codes() == [("bot.py", 6, "OC102")], again


def test_an_async_def_its_scope_binds_again_may_run(tmp_path):
    # (a review) `refresh = sync_compatible(refresh)` is the decorator written out: the
    # name holds the wrapper, which may run the coroutine
    src = CONNECTOR.replace("{caller}", """async def handle(self):
        self.refresh_token()
        self.ledger.append({"event": "handled"})

    refresh_token = sync_compatible(refresh_token)
    """)
    assert cl(src, select=["OC102"], table=TABLE) == [("OC102", 11)]
    module = """
async def refresh(store):
    store.save(1)

refresh = sync_compatible(refresh)


async def handle(store, ledger):
    refresh(store)
    ledger.append({"event": "handled"})
"""
    assert cl(module, select=["OC102"], table=TABLE) == [("OC102", 10)]


def test_a_managers_exit_that_drops_its_own_coroutine_saves_nothing_at_the_with(tmp_path):
    # (a review) the exit's `self.flush()` of an `async def`, not awaited, is read at the
    # `with` through the exit's own-method calls too
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.ordercheck.extend-events]\nsave = ["*store.save"]\nappend = ["*ledger.append"]\n',
        "mgr.py": """\
            class M:
                async def flush(self):
                    self.store.save(1)

                def __enter__(self):
                    return self

                def __exit__(self, *exc):
                    self.flush()


            class Awaiting(M):
                async def __aenter__(self):
                    return self

                async def __aexit__(self, *exc):
                    await self.flush()
            """,
        "use.py": """\
            from mgr import Awaiting, M


            def dropped(ledger):
                with M():
                    pass
                ledger.append({"event": "c"})


            async def awaited(ledger):
                async with Awaiting():
                    pass
                ledger.append({"event": "d"})
            """,
    })
    cold = oc(tmp_path, "--no-cache", "--select", "OC102", ".")
    assert cold.codes() == [("use.py", 13, "OC102")], cold
    cache = tmp_path / "cache"
    oc(tmp_path, "--cache-dir", str(cache), "--select", "OC102", ".")
    warm = oc(tmp_path, "--cache-dir", str(cache), "--select", "OC102", "use.py")  # (the index read from stubs)
    assert warm.codes() == [("use.py", 13, "OC102")], warm


def test_suggest_proposes_no_pattern_for_a_dropped_coroutine(tmp_path):
    write(tmp_path, "m.py", """
class Auth:
    async def save_token(self, token):
        self.client.write(token)

    async def handle(self, token):
        self.save_token(token)

    async def keep(self, token):
        await self.persist_token(token)

    async def persist_token(self, token):
        self.client.write(token)
""")
    import json as _json
    rows = _json.loads(oc(tmp_path, "suggest", "--isolated", "--format", "json", ".").out)["suggestions"]
    assert [r["pattern"] for r in rows] == ["*.persist_token"], rows


def test_an_editor_buffer_that_awaits_a_dropped_call_is_checked_again(tmp_path):
    # (a review) the resolution digest reads the marks: a buffer that only adds `await`
    # does not resolve as its file did, and the cache gives no stale answer
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.ordercheck.extend-events]\nsave = ["*store.save"]\n',
        "helper.py": """\
            async def refresh(store):
                store.save(1)
            """,
        "main.py": """\
            import contextlib

            import helper


            async def run(store):
                with contextlib.suppress(Exception):
                    helper.refresh(store)
            """,
    })
    cache = tmp_path / "cache"
    first = oc(tmp_path, "--cache-dir", str(cache), "--select", "OC203", ".")
    assert first.codes() == [], first
    awaiting = (tmp_path / "main.py").read_text().replace("helper.refresh(store)", "await helper.refresh(store)")
    buffer = oc(tmp_path, "--cache-dir", str(cache), "--select", "OC203", "--stdin-filename", "main.py", "-",
                stdin=awaiting.encode())
    assert buffer.codes() == [("main.py", 8, "OC203")], buffer
    (tmp_path / "main.py").write_text(awaiting)
    again = oc(tmp_path, "--cache-dir", str(cache), "--select", "OC203", "main.py")
    assert again.codes() == [("main.py", 8, "OC203")], again


def test_an_event_by_its_own_pattern_that_is_never_awaited_says_so():
    # held-out set 95 (authlib's async grants): the call's own pattern still makes it an
    # append, but the step says the bug a user must fix is the missing `await`
    from checkutil import check_source
    src = """
class Grant:
    async def save_token(self, token):
        await self.server.save_token(token)

    async def delete_code(self, code):
        await code.delete()

    async def dropped(self, code, token):
        await self.save_token(token)
        self.delete_code(code)

    async def awaited(self, code, token):
        await self.save_token(token)
        await self.delete_code(code)
"""
    table = {"extend-events": {"save": ["*.save_token"], "append": ["*.delete_code"]}}
    found = {f.function: f for f in check_source(src, table=table, select=["OC102"])}
    steps = {name: [s.text for s in f.witness if s.kind == "append"] for name, f in found.items()}
    assert steps == {"Grant.dropped": ["self.delete_code(code) (never awaited: its coroutine never runs)"],
                     "Grant.awaited": ["self.delete_code(code)"]}
    assert found["Grant.dropped"].witness[1].key == "self.delete_code(code)"  # fingerprints as before
