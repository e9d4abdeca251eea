"""Faults and gaps the held-out sets of session 62 found (docs/evaluation.md)."""
from __future__ import annotations

import pytest
from checkutil import cl

RUN_SYNC = '''
    from sqlalchemy.ext.asyncio import AsyncSession

    def _persist(sync_session, run):
        sync_session.add(run)
        sync_session.save_run(run)

    class Service:
        def __init__(self, session: AsyncSession, db: "Database"):
            self.session = session
            self.db = db

        async def f(self, conn, run, ledger):
            {call}
            ledger.append("run_completed", run)

    class Database:
        async def run_sync(self, fn, *args):
            pass
'''


@pytest.mark.parametrize("call, found", [
    ("await self.session.run_sync(_persist, run)", True),   # typed: sqlalchemy's AsyncSession
    ("await conn.run_sync(_persist, run)", True),           # named as a connection
    ("await self._engine_conn.run_sync(_persist, run)", True),
    ("conn.run_sync(_persist, run)", False),                # a coroutine nobody awaits
    ("await self.run_sync(_persist, run)", False),          # the project's own method
    ("await self.db.run_sync(_persist, run)", False),       # typed: a project class's
    ("await worker.run_sync(_persist, run)", False),        # a receiver named as neither
])
def test_sqlalchemys_awaited_run_sync_runs_its_callable_there(call, found):
    # held-out set 253: `await conn.run_sync(fn, x)` on an AsyncConnection or
    # AsyncSession calls `fn(sync_conn, x)` where it is awaited
    assert cl(RUN_SYNC.format(call=call), ["OC101"]) == ([("OC101", 15)] if found else [])
