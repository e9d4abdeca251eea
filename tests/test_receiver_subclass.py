"""A receiver typed as a subclass matches a pattern that names its base's method
(docs/decisions.md "A receiver typed as a subclass"). With ``*.RunStore.save``
configured, ``store.save(run)`` where ``store = SqlRunStore()`` and ``class
SqlRunStore(RunStore)`` is RunStore's save, whether the subclass overrides it or
inherits it; the same for a base from outside the project named by its qualified
name (``class RunSession(sqlalchemy.orm.Session)``). The names come from the project
phase (``Call.typed``), so one file, a buffer, the pre-pass off and a warm cache all
agree, and an edit of the class statement in another file reaches an unchanged
caller."""
from __future__ import annotations

import textwrap

import pytest
from checkutil import cl
from cliutil import oc

CONFIG = {"events": {"save": ["*.RunStore.save", "sqlalchemy.orm.Session.commit"]}}

ONE_FILE = """\
    from sqlalchemy.orm import Session


    class RunStore:
        def save(self, run):
            raise NotImplementedError


    class SqlRunStore(RunStore):
        def save(self, run):
            self.conn.execute("update runs")


    class MemoryRunStore(RunStore):
        pass


    class GrandchildStore(SqlRunStore):
        pass


    class Unrelated:
        def save(self, run):
            self.conn.execute("update runs")


    class RunSession(Session):
        pass


    def overridden(run, ledger):
        store = SqlRunStore()
        store.save(run)
        ledger.append_terminal(run)


    def inherited(run, ledger, store: MemoryRunStore):
        store.save(run)
        ledger.append_terminal(run)


    def two_levels_down(run, ledger, store: "GrandchildStore"):
        store.save(run)
        ledger.append_terminal(run)


    def not_a_subclass(run, ledger, store: Unrelated):
        store.save(run)
        ledger.append_terminal(run)


    def outside_base(run, ledger, session: RunSession):
        session.commit()
        ledger.append_terminal(run)


    def untyped(run, ledger, store):
        store.save(run)
        ledger.append_terminal(run)
    """


def test_a_subclass_receiver_matches_the_base_pattern():
    got = cl(ONE_FILE, select=["OC101"], table=CONFIG)
    assert got == [("OC101", 34), ("OC101", 39), ("OC101", 44), ("OC101", 54)]


def test_without_the_base_pattern_nothing_matches():
    table = {"events": {"save": ["*.Other.save"]}}
    assert cl(ONE_FILE, select=["OC101"], table=table) == []


def test_an_instance_of_the_base_itself_still_matches():
    src = """\
        class RunStore:
            def save(self, run):
                ...


        def finish(run, ledger, store: RunStore):
            store.save(run)
            ledger.append_terminal(run)
        """
    assert cl(src, select=["OC101"], table=CONFIG) == [("OC101", 8)]


def test_self_is_still_no_receiver_of_known_type():
    """A store calling its own method is not the save a user configured
    (docs/decisions.md "Receiver types"), subclass or not."""
    src = """\
        class RunStore:
            def save(self, run):
                ...


        class SqlRunStore(RunStore):
            def preload(self, run, ledger):
                self.save(run)
                ledger.append_terminal(run)
        """
    assert cl(src, select=["OC101"], table=CONFIG) == []


BASE = """\
    class RunStore:
        def save(self, run):
            raise NotImplementedError
    """

SQL = """\
    from sqlalchemy import orm

    from .base import RunStore


    class SqlRunStore(RunStore):
        def save(self, run):
            self.conn.execute("update runs")


    class RunSession(orm.Session):
        pass
    """

ENGINE = """\
    from .sql import RunSession, SqlRunStore


    class Engine:
        def __init__(self, store: SqlRunStore, session: RunSession):
            self.store = store
            self.session = session

        def finish(self, run, ledger):
            self.store.save(run)
            ledger.append_terminal(run)

        def finish_session(self, run, ledger):
            self.session.commit()
            ledger.append_terminal(run)


    class Worker(Engine):
        def finish_inherited(self, run, ledger):
            self.store.save(run)
            ledger.append_terminal(run)
    """

TOML = '[events]\nsave = ["*.RunStore.save", "sqlalchemy.orm.Session.commit"]\n'

EXPECTED = [("app/engine.py", 11, "OC101"), ("app/engine.py", 15, "OC101"), ("app/engine.py", 21, "OC101")]


def _project(root):
    files = {"ordercheck.toml": TOML, "app/__init__.py": "", "app/base.py": BASE, "app/sql.py": SQL,
             "app/engine.py": ENGINE}
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return root


@pytest.mark.parametrize("args", [
    ("--no-cache", "app"),
    ("--no-cache", "--jobs", "2", "app"),
    ("--no-cache", "app/engine.py"),
])
def test_bases_in_other_files(tmp_path, args):
    assert oc(_project(tmp_path), *args).codes() == EXPECTED


def test_a_buffer_and_the_prepass_off_agree(tmp_path, monkeypatch):
    root = _project(tmp_path)
    got = oc(root, "--no-cache", "--stdin-filename", "app/engine.py", stdin=textwrap.dedent(ENGINE).encode())
    assert got.line_codes() == [(11, "OC101"), (15, "OC101"), (21, "OC101")]
    from ordercheck import runner

    monkeypatch.setattr(runner, "PREPASS", False)
    assert oc(root, "--no-cache", "app").codes() == EXPECTED


def test_the_caches_follow_the_class_statement(tmp_path):
    """The caller's file is unchanged; ``SqlRunStore`` stops being a RunStore, and
    its finding goes, cold and warm; then comes back."""
    root = _project(tmp_path)
    assert oc(root, "app").codes() == EXPECTED
    assert oc(root, "app").codes() == EXPECTED  # warm
    sql = root / "app" / "sql.py"
    sql.write_text(textwrap.dedent(SQL).replace("class SqlRunStore(RunStore):", "class SqlRunStore:"))
    without = [f for f in EXPECTED if f[1] == 15]
    assert oc(root, "app").codes() == without
    assert oc(root, "app/engine.py").codes() == without
    assert oc(root, "--no-cache", "app").codes() == without
    sql.write_text(textwrap.dedent(SQL))
    assert oc(root, "app/engine.py").codes() == EXPECTED
    assert oc(root, "app").codes() == EXPECTED


def test_a_chain_of_a_thousand_classes_is_no_recursion():
    """The MRO is computed with an explicit stack, and its merge in time linear in
    its result (a deep chain was a RecursionError, then minutes)."""
    lines = ["class RunStore:\n    def save(self, run): ...\n"]
    prev = "RunStore"
    for i in range(1000):
        lines.append(f"class C{i}({prev}): pass\n")
        prev = f"C{i}"
    lines.append(f"\ndef f(run, ledger, s: {prev}):\n    s.save(run)\n    ledger.append_terminal(run)\n")
    src = "".join(lines)
    assert cl(src, select=["OC101"], table=CONFIG) == [("OC101", src.count("\n"))]  # the last line
