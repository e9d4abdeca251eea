"""Faults and gaps the held-out sets of session 71 found (docs/evaluation.md), and
the earlier notes' leftovers closed in that session."""
from __future__ import annotations

import json

import pytest
from checkutil import write_tree
from cliutil import oc


def suggested_rows(tmp_path):
    """`suggest`'s (class, pattern) rows over the folder, in its order."""
    return [(r["class"], r["pattern"]) for r in
            json.loads(oc(tmp_path, "suggest", "--format", "json", "--no-cache", ".").out)["suggestions"]]

MANAGERS = '''\
from contextlib import asynccontextmanager
from typing import AsyncGenerator

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

maker = async_sessionmaker()


@asynccontextmanager
async def get_session() -> AsyncGenerator[AsyncSession, None]:
    async with maker() as s:
        yield s


class Base:
    @asynccontextmanager
    async def session(self) -> AsyncGenerator[AsyncSession, None]:
        async with maker() as s:
            yield s

    @asynccontextmanager
    async def numbers(self) -> AsyncGenerator[int, None]:
        yield 1

    def open(self) -> AsyncSession:
        return maker()


class Store(Base):
    pass
'''

USES = '''\
from app import db
import app.db
import app.db as dbm
from app.db import Store


async def by_module(ledger):
    async with db.get_session() as session:
        await session.commit()
        await ledger.append_event({"event": "done"})


async def by_dotted_import(ledger):
    async with app.db.get_session() as session:
        await session.commit()
        await ledger.append_event({"event": "done"})


async def by_module_alias(ledger):
    async with dbm.get_session() as session:
        await session.commit()
        await ledger.append_event({"event": "done"})


async def by_typed_receiver(store: Store, ledger):
    async with store.session() as session:
        await session.commit()
        await ledger.append_event({"event": "done"})


class Service:
    def __init__(self, store: Store):
        self.store = store

    async def by_attribute(self, ledger):
        async with self.store.session() as session:
            await session.commit()
            await ledger.append_event({"event": "done"})

    async def by_factory_method(self, ledger):
        session = self.store.open()
        await session.commit()
        await ledger.append_event({"event": "done"})

    async def yields_no_session(self, ledger):
        async with self.store.numbers() as session:
            await session.commit()
            await ledger.append_event({"event": "done"})


async def untyped_receiver(store, ledger):
    async with store.session() as session:
        await session.commit()
        await ledger.append_event({"event": "done"})
'''

WANT = [("app/uses.py", n, "OC102") for n in (10, 16, 22, 28, 38, 43)]


def test_a_session_from_a_module_function_or_a_typed_receivers_method_is_typed(tmp_path):
    # session 70's note: `with db.get_session() as s:` (a module's function through
    # the import) and `with store.session() as s:` (a project class's method, found
    # along the MRO) matched nothing where `with get_session() as s:` did
    write_tree(tmp_path, {
        "ordercheck.toml": ('[events]\nsave = ["sqlalchemy.ext.asyncio.AsyncSession.commit"]\n'
                            'append = ["*ledger.append_event"]\n'),
        "app/__init__.py": "", "app/db.py": MANAGERS, "app/uses.py": USES})
    cache = str(tmp_path / ".cache")
    assert oc(tmp_path, "--no-cache", ".").codes() == WANT
    assert oc(tmp_path, "--cache-dir", cache, ".").codes() == WANT
    assert oc(tmp_path, "--cache-dir", cache, "app/uses.py").codes() == WANT
    r = oc(tmp_path, "--cache-dir", cache, "--stdin-filename", "app/uses.py", "-", stdin=USES.encode())
    assert r.codes() == WANT, r.out + r.err
    # the base's manager no longer yields a session: a warm run of either file sees it
    (tmp_path / "app/db.py").write_text(MANAGERS.replace(
        "async def session(self) -> AsyncGenerator[AsyncSession, None]",
        "async def session(self) -> AsyncGenerator[int, None]"))
    rest = [w for w in WANT if w[1] not in (28, 38)]
    assert oc(tmp_path, "--cache-dir", cache, ".").codes() == rest
    assert oc(tmp_path, "--cache-dir", cache, "app/uses.py").codes() == rest


def test_a_manager_in_the_same_file_on_a_constructed_receiver_is_typed(tmp_path):
    src = MANAGERS + '''

async def local(ledger):
    store = Store()
    async with store.session() as session:
        await session.commit()
        await ledger.append_event({"event": "done"})


async def shadowed(ledger, Store):
    store = Store()
    async with store.session() as session:
        await session.commit()
        await ledger.append_event({"event": "done"})
'''
    write_tree(tmp_path, {
        "ordercheck.toml": ('[events]\nsave = ["sqlalchemy.ext.asyncio.AsyncSession.commit"]\n'
                            'append = ["*ledger.append_event"]\n'),
        "one.py": src})
    line = src.count("\n", 0, src.index("async def local")) + 5
    assert oc(tmp_path, "--no-cache", ".").codes() == [("one.py", line, "OC102")]


@pytest.mark.parametrize("params, found", [("ledger, Store", False), ("ledger", True)])
def test_a_parameter_named_as_a_module_class_makes_no_instance_of_it(tmp_path, params, found):
    # found writing the test above: `store = Store()` where `Store` is the function's
    # own parameter was typed as the module's class `Store`
    write_tree(tmp_path, {
        "ordercheck.toml": '[events]\nsave = ["*.Store.put"]\nappend = ["*ledger.append_event"]\n',
        "one.py": (f"class Store:\n    def put(self):\n        pass\n\n\ndef f({params}):\n"
                   "    store = Store()\n    store.put()\n    ledger.append_event(1)\n")})
    assert oc(tmp_path, "--no-cache", ".").codes() == ([("one.py", 9, "OC102")] if found else [])


ATOMIC_SCOPE = '''\
import contextlib
import os


@contextlib.contextmanager
def atomic_scope(path):
    tmp = path + ".tmp"
    yield tmp
    {exit}


def save_checkpoint(path, text):
    with atomic_scope(path) as tmp:
        open(tmp, "w").write(text)
'''


@pytest.mark.parametrize("exit, proposed", [
    ("os.replace(tmp, path)", False),  # an atomic write's manager: no transaction
    ("print(tmp)", True),
])
def test_suggest_proposes_no_transaction_for_a_manager_that_renames_a_file(tmp_path, exit, proposed):
    # held-out set 430 (aicorpusx): `with _atomic_output(path) as tmp:` was proposed as a
    # transaction, which folds the write and its rename into one node and hides OC301
    write_tree(tmp_path, {"state.py": ATOMIC_SCOPE.replace("{exit}", exit)})
    rows = suggested_rows(tmp_path)
    assert rows == ([("transaction", "atomic_scope")] if proposed else []), rows


@pytest.mark.parametrize("binding, hinted", [("events = []", False), ("events = sink.get_events()", True)])
def test_the_dead_pattern_hint_names_no_functions_fresh_list(tmp_path, binding, hinted):
    # held-out set 431: `*.events.append` was told to "add `events.append`" for a
    # function's own result list
    write_tree(tmp_path, {
        "ordercheck.toml": '[events]\nsave = ["*.db.commit"]\nappend = ["*.events.append"]\n',
        "a.py": (f"def scan(db, sink, items):\n    {binding}\n    for i in items:\n"
                 "        events.append(i)\n    db.commit()\n")})
    err = oc(tmp_path, "--no-cache", ".").err
    assert "`*.events.append` (append)" in err, err
    assert ("misses `events.append(i)` at a.py:4: add `events.append`" in err) == hinted, err


@pytest.mark.parametrize("name, kind", [
    ("record_block_state", "save"),  # held-out set 431: chain-listener's cursor
    ("record_sync_cursor", "save"),
    ("record_block", "append"),
    ("emit_state", "save"),  # held-out set 435: a Singer target's checkpoint
    ("emit_event", "append"),
    ("update_state", "save"),  # held-out set 440: mlem's deployment state
    ("update_job_state", "save"),
    ("record_state_history", "append"),
])
def test_suggest_reads_a_record_of_where_a_run_stands_as_a_save(tmp_path, name, kind):
    write_tree(tmp_path, {"a.py": f"def scan(state, n):\n    state.{name}(n)\n"})
    rows = suggested_rows(tmp_path)
    assert rows == [(kind, f"*state.{name}")], rows


CSV_EXPORT = '''\
import csv
import os


def export(rows, path):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["a"])
        w.writeheader()
        for r in rows:
            w.writerow(r)
    os.replace(tmp, path)


def export_synced(rows, path):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerows(rows)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
'''


@pytest.mark.parametrize("extend, want", [(False, []), (True, [("a.py", 12, "OC301")])])
def test_csv_rows_are_file_writes_where_the_configuration_says_so(tmp_path, extend, want):
    # held-out set 430 (aicorpusx) wrote its output table with `csv.DictWriter` before an
    # unsynced `os.replace`; the review of session 71 showed a default `*.writerow` takes
    # `csv.writer(sys.stdout)` and a writer over a `StringIO` too, so it is the
    # configuration's to add (rules/vocab/file-io.toml)
    files = {"a.py": CSV_EXPORT + "\n\ndef report(rows, path):\n    import sys\n"
                                   "    csv.writer(sys.stdout).writerows(rows)\n    os.replace(path + '.tmp', path)\n"}
    if extend:
        files["ordercheck.toml"] = '[extend-events]\nfile-write = ["*.writerow", "*.writerows"]\n'
    write_tree(tmp_path, files)
    got = oc(tmp_path, "--no-cache", "--select", "OC301", ".").codes()
    # (the stdout writer's rows before line 28 are among those a user's pattern takes too)
    assert got == (want + [("a.py", 28, "OC301")] if extend else want), got


QUERIES = '''\
UPDATE_RUN = "UPDATE runs SET status = ? WHERE id = ?"
INSERT_EVENT = "INSERT INTO run_events (run_id, kind) VALUES (?, ?)"
'''

OPS = '''\
from sqlalchemy import text

from app import queries
from app.queries import INSERT_EVENT, UPDATE_RUN
from app.reexport import INSERT_EVENT as AGAIN


def plain(conn, rid):
    conn.execute(UPDATE_RUN, ("done", rid))
    conn.execute(INSERT_EVENT, (rid, "done"))


def wrapped(conn, rid):
    conn.execute(text(UPDATE_RUN), ("done", rid))
    conn.execute(text(INSERT_EVENT), (rid, "done"))


def by_module(conn, rid):
    conn.execute(queries.UPDATE_RUN, ("done", rid))
    conn.execute(queries.INSERT_EVENT, (rid, "done"))


def reexported(conn, rid):
    conn.execute(UPDATE_RUN, ("done", rid))
    conn.execute(AGAIN, (rid, "done"))


def rebound(conn, rid, INSERT_EVENT):
    conn.execute(UPDATE_RUN, ("done", rid))
    conn.execute(INSERT_EVENT, (rid, "done"))
'''


def test_an_imported_constant_statement_is_read_by_an_argument_part(tmp_path):
    # session 70's note: `conn.execute(INSERT_EVENT)` of `from app.queries import
    # INSERT_EVENT` matched no argument part (a statement module is a common layout)
    write_tree(tmp_path, {
        "ordercheck.toml": ("[events]\nsave = ['*.execute(\"UPDATE runs*\")']\n"
                            "append = ['*.execute(\"INSERT INTO run_events*\")']\n"),
        "app/__init__.py": "", "app/queries.py": QUERIES, "app/ops.py": OPS,
        "app/reexport.py": "from app.queries import INSERT_EVENT\n"})
    want = [("app/ops.py", n, "OC102") for n in (10, 15, 20, 25)]
    cache = str(tmp_path / ".cache")
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, ".").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, "app/ops.py").codes() == want
    r = oc(tmp_path, "--cache-dir", cache, "--stdin-filename", "app/ops.py", "-", stdin=OPS.encode())
    assert r.codes() == want, r.out + r.err
    # the statement module changes: a warm run of either file reads the new text
    (tmp_path / "app/queries.py").write_text(QUERIES.replace("INSERT INTO run_events", "INSERT INTO audit"))
    assert oc(tmp_path, "--cache-dir", cache, ".").codes() == []
    assert oc(tmp_path, "--cache-dir", cache, "app/ops.py").codes() == []


def test_a_parameter_named_as_an_imported_package_makes_no_session(tmp_path):
    # the review of session 71: `import app.db`, then `def f(app, ledger): with
    # app.db.get_session() as s:` took the parameter for the package
    uses = ("import app.db\n\n\nasync def f(app, ledger):\n    async with app.db.get_session() as s:\n"
            "        await s.commit()\n        await ledger.append_event(1)\n\n\n"
            "async def g(ledger):\n    async with app.db.get_session() as s:\n"
            "        await s.commit()\n        await ledger.append_event(1)\n")
    write_tree(tmp_path, {
        "ordercheck.toml": ('[events]\nsave = ["sqlalchemy.ext.asyncio.AsyncSession.commit"]\n'
                            'append = ["*ledger.append_event"]\n'),
        "app/__init__.py": "", "app/db.py": MANAGERS, "app/uses.py": uses})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("app/uses.py", 13, "OC102")]


MORE_OPS = '''\
import app.queries
import queries
from app.rebinds import INSERT_EVENT as REBOUND
from queries import INSERT_EVENT


def plain_import(conn, rid):
    conn.execute(queries.UPDATE_RUN)
    conn.execute(queries.INSERT_EVENT)


def dotted_import(conn, rid):
    conn.execute(app.queries.UPDATE_RUN)
    conn.execute(app.queries.INSERT_EVENT)


def local_name(conn, rid):
    sql = INSERT_EVENT
    conn.execute(queries.UPDATE_RUN)
    conn.execute(sql)


def rebound_there(conn, rid):
    conn.execute(queries.UPDATE_RUN)
    conn.execute(REBOUND)


def shadowed(conn, queries):
    conn.execute(queries.UPDATE_RUN)
    conn.execute(queries.INSERT_EVENT)
'''


def test_an_imported_statement_through_a_plain_import_or_a_local_name(tmp_path):
    # held-out set 433 and the review: `import queries` then `queries.INSERT_EVENT`,
    # `sql = INSERT_EVENT`, and a re-export the re-exporting module binds again
    write_tree(tmp_path, {
        "ordercheck.toml": ("[events]\nsave = ['*.execute(\"UPDATE runs*\")']\n"
                            "append = ['*.execute(\"INSERT INTO run_events*\")']\n"),
        "queries.py": QUERIES, "app/__init__.py": "", "app/queries.py": QUERIES,
        "app/rebinds.py": "from app.queries import INSERT_EVENT\n\nINSERT_EVENT = 'INSERT INTO audit VALUES (1)'\n",
        "ops.py": MORE_OPS})
    want = [("ops.py", n, "OC102") for n in (9, 14, 20)]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, "--no-cache", "ops.py").codes() == want


@pytest.mark.parametrize("body", [
    "    db = bot.db\n    db['users'].update(value)\n    db['users_history'].insert(value)\n",
    "    bot.db['users'].update(value)\n    bot.db['users_history'].insert(value)\n",
])
def test_a_keyed_table_pattern_matches_through_an_alias(tmp_path, body):
    # held-out set 437 (davtelepot): `db = bot.db`, then `db['users'].update(...)`:
    # `*db["users"].update` matched nothing through the alias
    write_tree(tmp_path, {
        "ordercheck.toml": ('[events]\nsave = [\'*db["users"].update\']\n'
                            'append = [\'*db["users_history"].insert\']\n'),
        "a.py": "def track(bot, value):\n" + body})
    line = body.count("\n") + 1
    for args in ((".",), ("a.py",)):
        assert oc(tmp_path, "--no-cache", *args).codes() == [("a.py", line, "OC102")]


STAR_UTIL = '__all__ = ["log_operation"]\n\n\ndef log_operation(table, op, data):\n    print(table, op, data)\n'
STAR_VIEWS = ("from ._util import *\n\n\ndef add(session, data):\n    session.add(data)\n"
              "    session.commit()\n    log_operation('users', 'add', data)\n")


@pytest.mark.parametrize("views, found", [
    (STAR_VIEWS, True),
    (STAR_VIEWS.replace("def add(session, data)", "def add(session, data, log_operation)"), False),
])
def test_a_qualified_pattern_matches_a_function_a_star_import_binds(tmp_path, views, found):
    # held-out set 436 (flaskz's `from ._util import *`): `pkg._util.log_operation`
    # matched none of the calls, though the summaries resolve the name through the star
    write_tree(tmp_path, {
        "ordercheck.toml": '[events]\nsave = ["*session.commit"]\nappend = ["pkg._util.log_operation"]\n',
        "pkg/__init__.py": "", "pkg/_util.py": STAR_UTIL, "pkg/views.py": views})
    want = [("pkg/views.py", 7, "OC102")] if found else []
    cache = str(tmp_path / ".cache")
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, ".").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, "pkg/views.py").codes() == want


def test_the_later_save_on_the_turns_own_line_is_said_so(tmp_path):
    # held-out set 438: "(the path taken at line 706 skips the later save at line 706)"
    write_tree(tmp_path, {"ordercheck.toml": '[events]\nsave = ["*store.save"]\nappend = ["*ledger.append"]\n',
                          "a.py": ("def f(store, ledger, r, done):\n    store.save(r)\n    ledger.append(r)\n"
                                   "    if done: store.save(r)\n")})
    diags = json.loads(oc(tmp_path, "--no-cache", "--format", "json", ".").out)["files"][0]["diagnostics"]
    assert [d["message"].split(": a crash")[0] for d in diags] == [
        "ledger append `ledger.append(r)` after the state save at line 2 (the path taken at line 4 skips "
        "the later save on that line)"], diags


KEYED_TABLES = '''\
def track(self, uid, value):
    self.db['users'].update(value, ['id'])
    self.db['users_history'].insert(dict(user_id=uid))


def scores(db, x):
    db['scores'].insert(x)


def chat(session, m):
    session['history'].append(m)
'''


def test_suggest_proposes_a_keyed_history_tables_insert_and_it_matches(tmp_path):
    # held-out set 437 (davtelepot): `self.db['users_history'].insert(row)` was never
    # proposed; a chat's `session['history']` list and another table stay out
    write_tree(tmp_path, {"a.py": KEYED_TABLES})
    rows = suggested_rows(tmp_path)
    assert rows == [("append", '*db["users_history"].insert')], rows
    (tmp_path / "ordercheck.toml").write_text(
        '[events]\nsave = [\'*db["users"].update\']\nappend = [\'*db["users_history"].insert\']\n')
    assert oc(tmp_path, "--no-cache", ".").codes() == [("a.py", 3, "OC102")]


def test_a_package_two_imports_bind_is_still_the_package(tmp_path):
    # the second review: `import app.db` and `import app.models` bind `app` twice,
    # both imports; `app.db.get_session()` and `app.queries.X` were no longer read
    uses = ("import app.db\nimport app.queries\n\n\nasync def f(ledger, conn):\n"
            "    async with app.db.get_session() as s:\n        await s.commit()\n"
            "        await ledger.append_event(1)\n\n\ndef g(conn):\n"
            "    conn.execute(app.queries.UPDATE_RUN)\n    conn.execute(app.queries.INSERT_EVENT)\n")
    write_tree(tmp_path, {
        "ordercheck.toml": ('[events]\nsave = ["sqlalchemy.ext.asyncio.AsyncSession.commit", '
                            '\'*.execute("UPDATE runs*")\']\n'
                            'append = ["*ledger.append_event", \'*.execute("INSERT INTO run_events*")\']\n'),
        "app/__init__.py": "", "app/db.py": MANAGERS, "app/queries.py": QUERIES, "app/uses.py": uses})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("app/uses.py", 8, "OC102"), ("app/uses.py", 13, "OC102")]


@pytest.mark.parametrize("views, found", [
    # the file's own `def` after the star rebinds the name (the second review)
    (STAR_VIEWS.replace("\n\ndef add", "\n\ndef log_operation(*a):\n    pass\n\n\ndef add"), False),
    # two stars that both define it: Python runs the later one's, an order the facts do
    # not keep, so neither name is given
    ("from ._util import *\nfrom ._other import *\n" + STAR_VIEWS.split("\n", 1)[1], False),
    # a later star of a module that lacks it binds nothing
    ("from ._util import *\nfrom ._empty import *\n" + STAR_VIEWS.split("\n", 1)[1], True),
])
def test_a_star_imports_name_is_the_one_python_binds(tmp_path, views, found):
    write_tree(tmp_path, {
        "ordercheck.toml": '[events]\nsave = ["*session.commit"]\nappend = ["pkg._util.log_operation"]\n',
        "pkg/__init__.py": "", "pkg/_util.py": STAR_UTIL, "pkg/views.py": views,
        "pkg/_other.py": "def log_operation(*a):\n    pass\n", "pkg/_empty.py": "def helper():\n    pass\n"})
    line = views.count("\n", 0, views.index("log_operation('users'")) + 1
    assert oc(tmp_path, "--no-cache", ".").codes() == ([("pkg/views.py", line, "OC102")] if found else [])


def test_a_name_no_star_module_defines_gets_no_starred_name(tmp_path):
    # the second review: `from ._util import *` (no `__all__`) named every unbound plain
    # call after it, `append_record(r)` as `pkg._util.append_record`, which the default
    # `*.append_record` then took for an append
    write_tree(tmp_path, {
        "ordercheck.toml": '[extend-events]\nsave = ["*.commit"]\n',
        "pkg/__init__.py": "", "pkg/_util.py": "def helper():\n    pass\n",
        "pkg/m.py": "from ._util import *\n\n\ndef f(db, r):\n    db.commit()\n    append_record(r)\n"})
    assert oc(tmp_path, "--no-cache", ".").codes() == []


def test_suggest_a_manager_with_a_save_named_file_helper_is_no_transaction(tmp_path):
    # the second review: `write_state(...)` (a helper writing a file) counted as the
    # manager's commit, and `atomic_state` was proposed as a transaction again
    src = ATOMIC_SCOPE.replace("{exit}", "os.replace(tmp, path)\n    write_state(path)").replace(
        "atomic_scope", "atomic_state") + "\n\ndef write_state(p):\n    open(p, 'w').write('x')\n"
    write_tree(tmp_path, {"state.py": src})
    rows = suggested_rows(tmp_path)
    assert ("transaction", "atomic_state") not in rows, rows


def test_a_core_statement_on_an_orm_classs_table_names_the_class(tmp_path):
    # held-out set 439 (evo-featureflags): `insert(Changelog.__table__)` read as
    # `INSERT INTO __table__`, so no two such statements could be told apart
    write_tree(tmp_path, {
        "ordercheck.toml": ("[events]\nsave = ['*.execute(\"UPDATE Flag*\")']\n"
                            "append = ['*.execute(\"INSERT INTO Changelog*\")']\n"),
        "t.py": ("from sqlalchemy import insert\n\n\nasync def enable(conn, flag):\n"
                 "    await conn.execute(Flag.__table__.update().values(enabled=True))\n"
                 "    await conn.execute(insert(Changelog.__table__).values(flag=flag))\n")})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("t.py", 6, "OC102")]


STAR_OPS = ("from .queries import *\n\n\ndef f(conn):\n    conn.execute(UPDATE_RUN)\n"
            "    conn.execute(INSERT_EVENT)\n\n\ndef g(conn, INSERT_EVENT):\n"
            "    conn.execute(UPDATE_RUN)\n    conn.execute(INSERT_EVENT)\n")


@pytest.mark.parametrize("other, found", [
    ("def helper():\n    pass\n", True),
    ("INSERT_EVENT = 'INSERT INTO audit VALUES (1)'\n", False),  # two stars bind it: neither
])
def test_a_statement_a_star_import_binds_is_read(tmp_path, other, found):
    # held-out set 433's probe: `from queries import *` then `conn.execute(INSERT_EVENT)`
    write_tree(tmp_path, {
        "ordercheck.toml": ("[events]\nsave = ['*.execute(\"UPDATE runs*\")']\n"
                            "append = ['*.execute(\"INSERT INTO run_events*\")']\n"),
        "pkg/__init__.py": "", "pkg/queries.py": QUERIES, "pkg/other.py": other,
        "pkg/ops.py": STAR_OPS.replace("from .queries import *\n", "from .queries import *\nfrom .other import *\n")})
    want = [("pkg/ops.py", 7, "OC102")] if found else []
    cache = str(tmp_path / ".cache")
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, ".").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, "pkg/ops.py").codes() == want
