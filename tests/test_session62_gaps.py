"""Faults and gaps the held-out sets of session 62 found (docs/evaluation.md)."""
from __future__ import annotations

import pytest
from checkutil import check_source, cl

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


FLAGGED = '''
class Repo:
    def save(self, s, *, commit=True, audit=False):
        if commit:
            self.commit_run(s)
        if audit:
            log_append("run_completed", s)
        self.save_state(s)


def g(repo: Repo, ledger, s):
    repo.save(s, commit={flag})
    ledger.append("run_completed", s)
'''


@pytest.mark.parametrize("flag, line", [("False", 8), ("True", 5)])
def test_a_witness_via_never_names_a_save_the_flag_rules_out(flag, line):
    # session 61's note: the summary's origin of the save is `self.commit_run(s)`,
    # which `commit=False` rules out; the via and the related place name the save
    # the callee still performs under the flag
    [f] = [f for f in check_source(FLAGGED.format(flag=flag), select=["OC101"]) if f.span.line == 13]
    [step] = [s for s in f.witness if s.kind == "save"]
    assert step.via.endswith(f"at example.py:{line}"), step.via
    assert [r.span.line for r in f.related if "save performed via" in r.message] == [line], f.related


def test_a_flagged_via_holds_on_a_warm_run(tmp_path):
    from cliutil import oc
    (tmp_path / "m.py").write_text(FLAGGED.format(flag="False"))
    runs = [oc(tmp_path, "--isolated", "--cache-dir", str(tmp_path / "c"), "m.py") for _ in range(2)]
    for r in runs:
        assert "Repo.save → self.save_state(s) at m.py:8" in r.out, r.out
