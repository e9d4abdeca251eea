"""``async with await s.start_transaction():`` is a transaction (held-out set 127).

pymongo's async API makes ``AsyncClientSession.start_transaction`` a coroutine that
returns the context manager, so its users write the item awaited (beanie's migration
runner). The contract drops ``await`` when it renders a call (semantics §Events,
Matching), so the item is a call of the ``transaction`` class and its body commits at
once; before, only the item without ``await`` was.
"""
from __future__ import annotations

import pytest
from checkutil import cl
from conformance import run_files

MONGO = {"extend-events": {"transaction": ["*.start_transaction"], "save": ["*.update_many"],
                           "append": ["audit_log.append"]}}


def _migrate(item: str) -> str:
    return (
        "async def migrate(s, coll, audit_log):\n"
        f"    async with {item}:\n"
        "        await coll.update_many({}, {'$set': {'v': 2}}, session=s)\n"
        "        await audit_log.append('migrated')\n")


@pytest.mark.parametrize("item", ["s.start_transaction()", "await s.start_transaction()",
                                  "(await s.start_transaction())"])
def test_an_awaited_transaction_item_commits_the_body_at_once(item):
    assert cl(_migrate(item), table=MONGO) == []


@pytest.mark.parametrize("item", ["s.start_session()", "await s.start_session()"])
def test_an_awaited_item_of_another_class_is_no_transaction(item):
    assert cl(_migrate(item), table=MONGO) == [("OC102", 4)]


def test_the_default_transaction_pattern_awaited_too():
    src = (
        "async def finish(conn, store, ledger, run):\n"
        "    async with await conn.transaction():\n"
        "        store.save(run)\n"
        "        ledger.append_terminal(run)\n")
    assert cl(src) == []
    assert cl(src.replace("await conn.transaction()", "await conn.connect()")) == [("OC101", 4)]


def test_an_awaited_transaction_in_a_helper_of_another_file(tmp_path):
    """The helper's own file gives no OC102 in a project run, and the caller's save
    after the helper is no finding of its own."""
    got, want, detail = run_files(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/migrate.py": _migrate("await s.start_transaction()"),
        "pkg/main.py": """\
from pkg.migrate import migrate

async def run_all(s, coll, audit_log, store, run):
    await migrate(s, coll, audit_log)
    store.save_state(run)
""",
    }, table=MONGO)
    assert got == want, detail
