"""Faults and gaps the held-out sets of session 70 found (docs/evaluation.md), and
the earlier notes' leftovers closed in that session."""
from __future__ import annotations

import json

import pytest
from checkutil import write_tree
from cliutil import oc

CLASS_BODY_TWICE = {
    "ordercheck.toml": '[events]\nsave = ["*.db.commit"]\nappend = ["*.ledger.append"]\n',
    "pk/__init__.py": "",
    "pk/ops.py": "def save_state(self, run):\n    self.db.commit()\n",
}

FINISH = ("    def finish(self, run):\n"
          "        self.save_state(run)\n"
          "        self.ledger.append({'event': 'step'})\n")


@pytest.mark.parametrize("body, saves", [
    # Python keeps a class body's last binding of a name (held-out set 400)
    ("    def save_state(self, run):\n        pass\n\n    from .ops import save_state\n\n", True),
    ("    from .ops import save_state\n\n    def save_state(self, run):\n        pass\n\n", False),
    ("    from .ops import save_state\n\n", True),
    ("    def save_state(self, run):\n        pass\n\n    from .ops import save_state\n"
     "    save_state = None\n\n", False),
])
def test_a_class_body_binding_a_name_twice_keeps_the_last(tmp_path, body, saves):
    write_tree(tmp_path, {**CLASS_BODY_TWICE, "pk/a.py": "class Runner:\n" + body + FINISH})
    for args in ((".",), ("pk/a.py",)):
        got = oc(tmp_path, "--no-cache", *args).codes()
        assert got == ([("pk/a.py", 4 + body.count("\n"), "OC102")] if saves else []), (args, got)


def test_a_module_binding_a_function_then_importing_it_keeps_the_import(tmp_path):
    write_tree(tmp_path, {
        **CLASS_BODY_TWICE,
        "pk/ops.py": "def save_state(run):\n    run.db.commit()\n",
        "pk/c.py": ("def save_state(run):\n    pass\n\n\nfrom .ops import save_state  # noqa: E402\n\n\n"
                    "def finish(run):\n    save_state(run)\n    run.ledger.append({'event': 'step'})\n")})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("pk/c.py", 10, "OC102")]


SKIPPED = '''\
import logging

log = logging.getLogger(__name__)


def step(db, ledger, risky):
    db.commit()
    ledger.append({"event": "step"})
    try:
        risky()
    except ValueError:
        log.warning("risky failed")
        return
    db.commit()


def branch(db, ledger, risky):
    db.commit()
    ledger.append({"event": "step"})
    if risky():
        return
    db.commit()


def only_on_failure(db, ledger):
    db.commit()
    try:
        ledger.append({"event": "step"})
    except OSError:
        db.commit()
        raise


def no_later(db, ledger):
    db.commit()
    ledger.append({"event": "step"})
'''


def test_oc102_says_which_way_out_skips_the_later_save(tmp_path):
    # held-out set 404: a save below the append, which a handler's `return` skips,
    # read as a false alarm; the message names the way out and the save it misses
    write_tree(tmp_path, {"ordercheck.toml": '[events]\nsave = ["*.commit"]\nappend = ["*ledger.append"]\n',
                          "a.py": SKIPPED})
    r = oc(tmp_path, "--no-cache", "--format", "json", ".")
    diags = json.loads(r.out)["files"][0]["diagnostics"]
    got = {d["range"]["start"]["line"] + 1: d["message"] for d in diags}
    assert sorted(got) == [8, 19, 28, 36], got
    assert "at line 7 (the path taken at line 10 skips the later save at line 14):" in got[8], got[8]
    assert "at line 18 (the path taken at line 20 skips the later save at line 22):" in got[19], got[19]
    # a save the append's own failure leads to runs when it did not take effect; none below
    assert "skips" not in got[28] and "skips" not in got[36], got
    related = [rel["message"] for d in diags if d["range"]["start"]["line"] == 7 for rel in d["relatedInformation"]]
    assert "the later save this path skips: db.commit()" in related, related


ATOMIC_RAISES = '''\
import os


class Daemon:
    def _write_status(self, target):
        try:
            tmp = target + ".tmp"
            with open(tmp, "w") as f:
                f.write("{}")
            os.replace(tmp, target)
        except Exception as exc:
            print(f"status write error: {exc}")

    def _move(self, job, area):
        os.replace(job, area + "/" + job)

    def run(self, job):
        try:
            self._write_status("status.json")
        except Exception:
            self._move(job, "failed")

    def plain(self, job):
        try:
            self._write_only("status.json")
        except Exception:
            self._move(job, "failed")

    def _write_only(self, target):
        with open(target, "w") as f:
            f.write("{}")
        print("written")
'''


def test_an_atomic_write_helper_that_raised_is_no_write_end(tmp_path):
    # held-out set 405 (jaros' `_write_status`): the helper's rename raised, its
    # on-raise part carried the write alone, and the caller's move of another file was
    # paired with it; the helper is neither end of a pair (rules.md, OC301), its own
    # rename the finding. A helper that only writes still pairs on its raise path.
    write_tree(tmp_path, {"d.py": ATOMIC_RAISES})
    for args in ((".",), ("d.py",)):
        assert oc(tmp_path, "--no-cache", *args).codes() == [("d.py", 10, "OC301"), ("d.py", 27, "OC301")]


def suggested(tmp_path, *args):
    """`suggest`'s JSON over the folder."""
    return json.loads(oc(tmp_path, "suggest", "--format", "json", "--no-cache", *args, ".").out)


LISTS = '''\
from dataclasses import dataclass, field
from typing import List, Optional


@dataclass
class Execution:
    history: List[str] = field(default_factory=list)
    events: "list[str]" = field(default_factory=list)
    trail: Optional[List[str]] = None

    def add(self, x):
        self.history.append(x)
        self.events.append(x)
        self.trail.append(x)


class Other:
    def __init__(self):
        self.history = []
        self.audit = list()

    def add(self, x):
        self.history.append(x)
        self.audit.append(x)


class Later(Other):
    def more(self, x):
        self.history.append(x)


class Rebound:
    def __init__(self):
        self.history = []

    def open(self, db):
        self.history = HistoryTable(db)

    def add(self, x):
        self.history.append(x)


class HistoryTable:
    def __init__(self, db):
        self.db = db
'''


def test_suggest_proposes_no_append_on_a_list_the_class_keeps_in_memory(tmp_path):
    # held-out set 405 (state-machine-amz-py's `history: List[StateHistory]`): the
    # in-memory list's `append` was offered as the ledger
    write_tree(tmp_path, {"e.py": LISTS})
    rows = {s["pattern"]: s["example"]["line"] for s in suggested(tmp_path)["suggestions"]}
    # only what is no list in memory: the attribute another method binds to a class
    assert rows == {"e.HistoryTable.append": 40}, rows


@pytest.mark.parametrize("name, kind", [
    ("save_state_history", "append"),       # held-out set 405
    ("persist_run_audit_entry", "append"),
    ("write_step_journal", "append"),
    ("save_history", "save"),                # (a whole history file written: as before)
    ("save_state", "save"),
])
def test_suggest_reads_a_history_row_writer_as_an_append(name, kind):
    from ordercheck.suggest import kind_of
    assert kind_of(name, method=True) == kind


COPIED = '''\
class Store:
    def save_run(self, run):
        pass

    def append_event(self, run, kind):
        pass


class _Execution:
    def __init__(self, rt: "Runtime", run, other: "Plain"):
        self.store = rt.store
        self.other = other.store
        self.run = run

    def drive(self):
        self.store.save_run(self.run)
        self.store.append_event(self.run, "step")

    def drive_other(self):
        self.other.save_run(self.run)
        self.other.append_event(self.run, "step")


class Runtime:
    def __init__(self, store: Store):
        self.store = store


class Plain:
    def __init__(self, store):
        self.store = store
'''


def test_an_attribute_copied_from_a_typed_parameters_attribute_is_typed(tmp_path):
    # held-out set 410 (durabl's `_Execution`: `self.store = rt.store` of `rt: Runtime`):
    # the qualified patterns matched nothing inside the class
    write_tree(tmp_path, {"ordercheck.toml": '[events]\nsave = ["*.Store.save_run"]\nappend = ["*.Store.append_event"]\n',
                          "r.py": COPIED})
    for args in ((".",), ("r.py",)):
        # (`Plain` types no `store`: its copy stays untyped)
        assert oc(tmp_path, "--no-cache", *args).codes() == [("r.py", 17, "OC102")]


@pytest.mark.parametrize("body, kind", [
    # held-out set 406 (django-carrot): a task row named `MessageLog`, handed in and
    # updated, was offered as an append under its typed name
    ("def fail(log: MessageLog, err):\n    log.status = 'FAILED'\n    log.save()\n", "save"),
    # a new row of a log model stays an append (held-out set 326)
    ("def note(kind):\n    entry: MessageLog = MessageLog(kind=kind)\n    entry.save()\n", "append"),
    ("def note(kind):\n    MessageLog(kind=kind).save()\n", "append"),
])
def test_suggest_reads_a_log_models_row_it_was_handed_as_updated(tmp_path, body, kind):
    write_tree(tmp_path, {"models.py": "class MessageLog:\n    def save(self):\n        pass\n",
                          "app.py": "from models import MessageLog\n\n\n" + body})
    rows = [(s["class"], s["example"]["line"]) for s in suggested(tmp_path)["suggestions"]]
    assert rows == [(kind, 3 + body.count("\n"))], rows


HANDED_TEXT = '''\
import inspect
import textwrap
from sqlalchemy import text
from psycopg import sql


def a(session, run_id):
    session.execute(text("COMMIT"))
    session.execute(text("INSERT INTO run_events (run_id) VALUES (:id)"), {"id": run_id})


def b(cur, run_id):
    cur.execute(sql.SQL("COMMIT"))
    cur.execute(sql.SQL("INSERT INTO {} (run_id) VALUES (%s)").format(sql.Identifier("x")), (run_id,))


def c(cur, run_id):
    cur.execute("COMMIT".strip())
    cur.execute(textwrap.dedent("""
        INSERT INTO run_events (run_id) VALUES (?)
    """), (run_id,))


def d(cur, run_id, table):
    cur.execute("COMMIT")
    cur.execute("INSERT INTO run_events_%s (run_id) VALUES (?)" % table, (run_id,))
    cur.execute("INSERT INTO run_events_{} (run_id) VALUES (?)".format(table), (run_id,))
    cur.execute(inspect.cleandoc("INSERT INTO run_events (x) VALUES (1)"))


def e(cur, run_id, render):
    cur.execute("COMMIT")
    cur.execute(render("INSERT INTO run_events (run_id) VALUES (?)"), (run_id,))
    cur.execute(text("INSERT INTO run_events (run_id) VALUES (?)", run_id))
'''


def test_statements_handed_on_by_text_sql_dedent_format_and_percent_are_read(tmp_path):
    # the notes of sessions 68-69 (and held-out sets 385, 404): SQLAlchemy's `text()`,
    # psycopg's `sql.SQL()`, `dedent`, `.format()` and `%` templates carried no text an
    # argument part reads; an unknown wrapper, or `text()` given more, still carries none
    write_tree(tmp_path, {
        "ordercheck.toml": ("[events]\nsave = ['*.execute(\"COMMIT\")']\n"
                            "append = ['*.execute(\"INSERT INTO run_events*\")', '*.execute(\"INSERT INTO {} *\")']\n"),
        "a.py": HANDED_TEXT})
    want = [("a.py", n, "OC102") for n in (9, 14, 19, 26, 27, 28)]
    for args in ((".",), ("a.py",)):
        assert oc(tmp_path, "--no-cache", *args).codes() == want
    r = oc(tmp_path, "--no-cache", "--stdin-filename", "a.py", "-", stdin=HANDED_TEXT.encode())
    assert r.codes() == want, r.out + r.err


TURNS = 'import logging\nlog = logging.getLogger(__name__)\n\n\ndef loop(db, ledger, items):\n    for it in items:\n        db.commit()\n        ledger.append({"event": "step"})\n        if it:\n            continue\n        db.commit()\n\n\ndef fin(db, ledger, risky):\n    db.commit()\n    try:\n        ledger.append({"event": "step"})\n        if risky():\n            return\n    finally:\n        log.warning("x")\n    db.commit()\n\n\ndef nested(db, ledger, risky):\n    db.commit()\n    ledger.append({"event": "step"})\n    try:\n        try:\n            risky()\n        except KeyError:\n            return 1\n    except ValueError:\n        return 2\n    db.commit()\n\n\ndef withexit(db, ledger, cm):\n    db.commit()\n    ledger.append({"event": "step"})\n    with cm():\n        if db:\n            return\n        db.commit()\n\n\ndef txn(db, ledger, session):\n    db.commit()\n    ledger.append({"event": "step"})\n    if ledger:\n        return\n    with session.begin():\n        db.commit()\n\n\ndef multi(db, ledger, x):\n    db.commit()\n    ledger.append({"event": "step"})\n    if x:\n        db.commit()\n        return\n    if x is None:\n        return\n    db.commit()\n\n\ndef inelse(db, ledger, risky):\n    db.commit()\n    ledger.append({"event": "step"})\n    try:\n        risky()\n    except ValueError:\n        pass\n    else:\n        db.commit()\n\n\ndef saveinfinally(db, ledger, risky):\n    db.commit()\n    ledger.append({"event": "step"})\n    try:\n        if risky():\n            return\n    finally:\n        db.commit()\n\n\ndef whileloop(db, ledger, q):\n    while q:\n        db.commit()\n        ledger.append({"event": "step"})\n        if q.pop():\n            break\n        db.commit()\n'


def test_the_skipped_save_is_where_the_witness_turns_and_the_nearest_that_way(tmp_path):
    # the session's review: the first version named the witness's last line (a `finally`
    # body, a `with` header, a loop's head above the append) and the lowest-numbered
    # save, which could lie in a branch the witness never took
    write_tree(tmp_path, {"ordercheck.toml": '[events]\nsave = ["db.commit", "*.db.commit"]\n'
                                             'append = ["ledger.append", "*.ledger.append"]\n',
                          "a.py": TURNS})
    diags = json.loads(oc(tmp_path, "--no-cache", "--format", "json", ".").out)["files"][0]["diagnostics"]
    got = {d["range"]["start"]["line"] + 1: d["message"].split(": a crash")[0].rsplit(" (", 1)[-1] for d in diags}
    assert got == {
        8: "the path taken at line 9 skips the later save at line 11)",       # `if it: continue`
        17: "the path taken at line 18 skips the later save at line 22)",     # a `finally` on the way
        27: "the path taken at line 30 skips the later save at line 35)",     # nested handlers
        40: "the path taken at line 42 skips the later save at line 44)",     # in a `with`
        49: "the path taken at line 50 skips the later save at line 52)",     # a transaction's
        58: "the path taken at line 62 skips the later save at line 64)",     # where the witness turns
        69: "the path taken at line 71 skips the later save at line 75)",     # a `try`'s `else`
        91: "the path taken at line 92 skips the later save at line 94)",     # `break`
    }, got


def test_a_conditional_atomic_write_helper_that_raised_is_no_write_end(tmp_path):
    # the session's review: a helper called as a test (`if cond(...)`) kept its write
    # on the raised point; on its False way it only wrote, and still pairs
    write_tree(tmp_path, {
        "pk/__init__.py": "",
        "pk/h.py": ("import os\n\n\ndef cond(path, data):\n    tmp = path + '.tmp'\n"
                    "    with open(tmp, 'w') as f:\n        f.write(data)\n    if not data:\n        return False\n"
                    "    os.replace(tmp, path)\n    return True\n"),
        "pk/c.py": ("import os\nfrom .h import cond\n\n\ndef once(job, d):\n    try:\n        if cond(job, d):\n"
                    "            return\n    except OSError:\n        os.replace(job, 'failed/' + job)\n\n\n"
                    "def rounds(job, d):\n    try:\n        while not cond(job, d):\n            pass\n"
                    "    except OSError:\n        os.replace(job, 'failed/' + job)\n")})
    got = [c for c in oc(tmp_path, "--no-cache", ".").codes() if c[0] == "pk/c.py"]
    assert got == [("pk/c.py", 18, "OC301")], got


def test_suggest_keeps_an_attribute_a_method_rebinds_and_drops_a_class_level_list(tmp_path):
    # the session's review: a list later rebound by a factory's call stays a candidate;
    # a class-level `audit_log = []` is a list in memory as a field is
    write_tree(tmp_path, {"a.py": (
        "class Factory:\n    audit_log = []\n\n    def __init__(self, db):\n        self.history = []\n"
        "        self.items = None\n\n"
        "    def open(self, db):\n        self.history = db.history_table()\n        self.items = []\n\n"
        "    def go(self, rec):\n        self.history.append(rec)\n        self.audit_log.append(rec)\n"
        "        self.items.append(rec)\n")})
    rows = {s["pattern"]: s["example"]["line"] for s in suggested(tmp_path)["suggestions"]}
    assert rows == {"*.history.append": 13}, rows


@pytest.mark.parametrize("name, kind", [
    ("save_chat_history", "save"), ("save_full_history", "save"), ("save_audit_entry", "append")])
def test_suggest_reads_a_whole_history_writer_as_a_save(name, kind):
    # the session's review: an adjective before `history` is no row's owner
    from ordercheck.suggest import kind_of
    assert kind_of(name, method=True) == kind


def test_a_copy_of_a_copy_is_typed_whatever_the_order_of_the_classes(tmp_path):
    # the session's review: `Child` before `Mid` was typed, `Child2` after it was not
    child = ("class {name}:\n    def __init__(self, parent: Mid):\n        self.store = parent.store\n\n"
             "    def go(self, r):\n        self.store.save_run(r)\n        self.store.add_event(r)\n\n\n")
    src = ("class Store:\n    def save_run(self, r):\n        pass\n\n    def add_event(self, r):\n        pass\n\n\n"
           "class Runtime:\n    def __init__(self, store: Store):\n        self.store = store\n\n\n"
           + child.format(name="Child")
           + "class Mid:\n    def __init__(self, rt: Runtime):\n        self.store = rt.store\n\n\n"
           + child.format(name="Child2"))
    write_tree(tmp_path, {"ordercheck.toml": '[events]\nsave = ["*.Store.save_run"]\nappend = ["*.Store.add_event"]\n',
                          "a.py": src})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("a.py", 20, "OC102"), ("a.py", 34, "OC102")]


def test_suggest_leaves_out_a_circuit_breaker_and_a_pixmap(tmp_path):
    # held-out sets 411, 416 (`record_failure`/`record_success` of a circuit breaker as
    # appends) and 422 (PyMuPDF's `pix.save("p.png")` as a save)
    write_tree(tmp_path, {"a.py": (
        "class CircuitBreaker:\n    def record_failure(self):\n        self.failures += 1\n\n"
        "    def call(self, fn):\n        try:\n            return fn()\n        except Exception:\n"
        "            self.record_failure()\n            raise\n\n\n"
        "def go(breaker, page, store):\n    breaker.record_success()\n    pix = page.get_pixmap()\n"
        "    pix.save('p.png')\n    store.record_event(1)\n")})
    rows = {s["pattern"] for s in suggested(tmp_path)["suggestions"]}
    assert rows == {"*store.record_event"}, rows


DB = '''\
from contextlib import asynccontextmanager
from typing import AsyncGenerator

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

maker = async_sessionmaker()


@asynccontextmanager
async def get_session() -> AsyncGenerator[AsyncSession, None]:
    async with maker() as session:
        yield session
'''

CHATS = '''\
from app.db import get_session


async def create_chat(chat, ledger):
    async with get_session() as session:
        session.add(chat)
        await session.commit()
        await ledger.append_event({"event": "chat_created"})
'''


def test_a_session_from_another_files_context_manager_is_typed_by_what_it_yields(tmp_path):
    # held-out set 415 (elia-chat): `async with get_session() as session:` over a project
    # `@asynccontextmanager` in another file, annotated `-> AsyncGenerator[AsyncSession,
    # None]`; `sqlalchemy.ext.asyncio.AsyncSession.commit` matched nothing
    write_tree(tmp_path, {
        "ordercheck.toml": ('[events]\nsave = ["sqlalchemy.ext.asyncio.AsyncSession.commit"]\n'
                            'append = ["*ledger.append_event"]\n'),
        "app/__init__.py": "", "app/db.py": DB, "app/chats.py": CHATS})
    want = [("app/chats.py", 8, "OC102")]
    cache = str(tmp_path / ".cache")
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, ".").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, "app/chats.py").codes() == want
    r = oc(tmp_path, "--cache-dir", cache, "--stdin-filename", "app/chats.py", "-", stdin=CHATS.encode())
    assert r.codes() == want, r.out + r.err
    # the manager's annotation changed in the other file: a warm run sees it
    (tmp_path / "app/db.py").write_text(DB.replace("AsyncGenerator[AsyncSession, None]", "AsyncGenerator[int, None]"))
    assert oc(tmp_path, "--cache-dir", cache, ".").codes() == []
    assert oc(tmp_path, "--cache-dir", cache, "app/chats.py").codes() == []


SQLITE_ITEMS = '''\
import sqlite3


def release_typed(conn: sqlite3.Connection, node):
    with conn:
        conn.execute("DELETE FROM leader WHERE node=?", (node,))
        conn.execute("INSERT INTO election_log(node) VALUES (?)", (node,))


def release_untyped(conn, node):
    with conn:
        conn.execute("DELETE FROM leader WHERE node=?", (node,))
        conn.execute("INSERT INTO election_log(node) VALUES (?)", (node,))


def release_other(db: sqlite3.Connection, node):
    with db:
        db.execute("DELETE FROM leader WHERE node=?", (node,))
        db.execute("INSERT INTO election_log(node) VALUES (?)", (node,))
'''


def test_a_typed_with_item_is_named_as_written_by_a_transaction_pattern(tmp_path):
    # held-out set 419: `transaction = ["conn"]` named `with conn:` only when `conn` was
    # untyped; SPEC §2 matches a typed receiver by its text as usual
    write_tree(tmp_path, {"ordercheck.toml": ("[events]\nsave = ['*.execute(\"DELETE FROM leader*\")']\n"
                                             "append = ['*.execute(\"INSERT INTO election_log*\")']\n"
                                             "transaction = [\"conn\"]\n"),
                          "code.py": SQLITE_ITEMS})
    for args in ((".",), ("code.py",)):
        assert oc(tmp_path, "--no-cache", *args).codes() == [("code.py", 19, "OC102")]


def test_the_turn_is_where_the_next_step_reaches_no_save_and_never_a_new_round(tmp_path):
    # the second review: both ways of line 4 went on to line 6, where the witness
    # turned; a `for` head's other way is a new round, whose save is no later save
    write_tree(tmp_path, {"ordercheck.toml": '[events]\nsave = ["*store.save"]\nappend = ["*ledger.append"]\n',
                          "a.py": ("def f(store, ledger, r, c):\n    store.save(r)\n    ledger.append(r)\n"
                                   "    if c.a:\n        c.y()\n    if c.end:\n        store.save(r)\n\n\n"
                                   "def g(store, ledger, xs):\n    for x in xs:\n        if x.a:\n"
                                   "            store.save(x)\n        ledger.append(x)\n")})
    diags = json.loads(oc(tmp_path, "--no-cache", "--format", "json", ".").out)["files"][0]["diagnostics"]
    got = {d["range"]["start"]["line"] + 1: d["message"].split(": a crash")[0] for d in diags}
    assert got[3].endswith("at line 2 (the path taken at line 6 skips the later save at line 7)"), got
    assert got[14].endswith("after the state save at line 13"), got



def test_a_typed_self_attribute_item_is_named_as_written_too(tmp_path):
    # the second review: `with self.conn:` of `self.conn: sqlite3.Connection`
    write_tree(tmp_path, {"ordercheck.toml": ("[events]\nsave = ['*.execute(\"DELETE*\")']\n"
                                             "append = ['*.execute(\"INSERT*\")']\ntransaction = [\"self.conn\"]\n"),
                          "a.py": ("import sqlite3\n\n\nclass K:\n    def __init__(self, conn: sqlite3.Connection):\n"
                                   "        self.conn = conn\n\n    def go(self):\n        with self.conn:\n"
                                   "            self.conn.execute('DELETE FROM t')\n"
                                   "            self.conn.execute('INSERT INTO log VALUES (1)')\n")})
    assert oc(tmp_path, "--no-cache", ".").codes() == []


def test_suggest_keeps_a_circuit_store_and_a_breaker_classes_store(tmp_path):
    # the second review: `circuit` as a machinery word dropped a store, and a `Breaker`
    # class's every `self.x.m()` was dropped, not only its own methods
    write_tree(tmp_path, {"ordercheck.toml": '[events]\nsave = ["nothing.matches"]\n', "a.py": (
        "class RunBreaker:\n    def go(self, r):\n        self.store.persist_run(r)\n        self.record_failure()\n\n"
        "    def record_failure(self):\n        self.failures += 1\n\n\n"
        "class Keeper:\n    def go(self, r):\n        self.circuit_store.persist_run(r)\n")})
    rows = {s["pattern"] for s in suggested(tmp_path)["suggestions"]}
    assert rows == {"*.store.persist_run", "*.circuit_store.persist_run"}, rows


NAMED_TEXT = 'from sqlalchemy import text\n\nCOMMIT = "COMMIT"\nINSERT_EVENT = "INSERT INTO run_events (run_id) VALUES (:id)"\nUPD = "UPDATE runs SET s = %s"\n\n\ndef a(session, run_id):\n    session.execute(text(COMMIT))\n    session.execute(text(INSERT_EVENT), {"id": run_id})\n\n\ndef b(session, run_id):\n    session.execute(text("COMMIT").execution_options(autocommit=True))\n    session.execute(text("INSERT INTO run_events (run_id) VALUES (:id)").bindparams(id=run_id))\n\n\ndef c(cur, run_id):\n    cur.execute(UPD % run_id)\n    cur.execute("COMMIT")\n    cur.execute(INSERT_EVENT)\n'


def test_a_wrapped_name_bound_once_and_a_bound_text_clause_are_read(tmp_path):
    # the second review: `text(SQL1)` of a module constant, `text("...").bindparams(...)`
    # and `Q % x` of a name bound once were not read
    write_tree(tmp_path, {
        "ordercheck.toml": ("[events]\nsave = ['*.execute(\"COMMIT\")', '*.execute(\"UPDATE runs*\")']\n"
                            "append = ['*.execute(\"INSERT INTO run_events*\")']\n"),
        "a.py": NAMED_TEXT})
    want = [("a.py", 10, "OC102"), ("a.py", 15, "OC102"), ("a.py", 21, "OC102")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    r = oc(tmp_path, "--no-cache", "--stdin-filename", "a.py", "-", stdin=NAMED_TEXT.encode())
    assert r.codes() == want, r.out + r.err


def test_a_turn_at_a_point_with_no_place_of_its_own_never_crashes(tmp_path):
    # the fuzz test (a discovered example): the witness's turn stood at a node with no
    # span, and the message's line was read off it (an internal error, OC900)
    write_tree(tmp_path, {
        "helpers.py": "from main import report_a\n\n\ndef commit_a(store, ledger, run):\n    store.save(run) and store.save(run)\n    return run\n",
        "main.py": ("from helpers import commit_a\n\n\ndef top(store, ledger, run, items):\n    try:\n"
                    "        store.save(run) and ledger.append(run.id)\n    finally:\n"
                    "        [store.save(run) for i in items]\n")})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("main.py", 6, "OC102")]


@pytest.mark.parametrize("tail, code", [
    ("    y = record_run_failed(conn, rid)\n    print(y)\n", "OC101"),          # held-out set 426
    ("    y = record_run_failed(conn, rid)\n    log.info('%s', y)\n", "OC101"),
    ("    record_run_failed(conn, rid)\n", "OC101"),
    # a record built for another call: the receiving call is the terminal append
    ("    y = record_run_failed(conn, rid)\n    keep(y)\n", "OC102"),
])
def test_a_record_only_shown_is_no_record_built_for_another_call(tmp_path, tail, code):
    write_tree(tmp_path, {"ordercheck.toml": ("[events]\nsave = ['*.commit']\n"
                                             "append = ['*.execute(\"INSERT INTO job_history*\")']\n"),
                          "a.py": ("def record_run_failed(conn, rid):\n"
                                   "    conn.execute('INSERT INTO job_history VALUES (?)', (rid,))\n    return rid\n\n\n"
                                   "def go(conn, rid, log, keep):\n    conn.commit()\n" + tail)})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("a.py", 8, code)]


@pytest.mark.parametrize("imports, call, read", [
    # held-out set 427: a wrapper imported under another name was not read, and a
    # module of another package spelt `sql` was
    ("from psycopg import sql as pgsql", "pgsql.SQL", True),
    ("import psycopg.sql as psql", "psql.SQL", True),
    ("from psycopg.sql import SQL as Q", "Q", True),
    ("from sqlalchemy import text as T", "T", True),
    ("from psycopg import sql", "sql.SQL", True),
    ("import mylib as sql", "sql.SQL", False),
])
def test_a_text_wrapper_is_known_by_its_import(tmp_path, imports, call, read):
    src = (f"{imports}\n\n\ndef start(conn, job_id):\n    conn.commit()\n"
           f"    conn.execute({call}(\"INSERT INTO job_events (job_id) VALUES (%s)\"), (job_id,))\n")
    write_tree(tmp_path, {"ordercheck.toml": ("[events]\nsave = ['*.commit']\n"
                                             "append = ['*.execute(\"INSERT INTO job_events*\")']\n"),
                          "a.py": src})
    want = [("a.py", 6, "OC102")] if read else []
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, "--no-cache", "--stdin-filename", "a.py", "-", stdin=src.encode()).codes() == want


def test_a_receiver_another_files_factory_made_is_named_by_the_class_it_returns(tmp_path):
    # `sa = make()` of `def make(): return SA()` in another file: `*.SA.add_packet` named
    # the call only in the factory's own file (session 70, through `Call.made_by`)
    write_tree(tmp_path, {
        "ordercheck.toml": '[events]\nsave = ["*.commit"]\nappend = ["*.SA.add_packet"]\n',
        "pkg/__init__.py": "",
        "pkg/db.py": "class SA:\n    def add_packet(self, topic, data):\n        pass\n\n\ndef make():\n    return SA()\n",
        "pkg/use.py": ("from pkg.db import make\n\n\ndef run(conn, data):\n    sa = make()\n    conn.commit()\n"
                       "    sa.add_packet('t', data)\n")})
    for args in ((".",), ("pkg/use.py",)):
        assert oc(tmp_path, "--no-cache", *args).codes() == [("pkg/use.py", 7, "OC102")]
