"""Three gaps held-out sets 158 to 162 found, each where the contract is silent
(docs/decisions.md, session 56):

- a ``with`` over an object of no known class (``with conn:``, ``async with self._db:``)
  is a transaction when a ``transaction`` pattern names the item as written
  (sqlite3's connection commits its body at the ``with``'s end);
- ``except report_exceptions:`` over a name bound to a tuple of types catches each of
  them (broad when one is, a ``swallow-types`` entry when one is listed);
- ``logging.getLogger(...)`` gives a ``logging.Logger``, whatever the name it is kept
  under (``lgr.warning`` is loud, ``lgr.debug`` quiet).
"""
from __future__ import annotations

import pytest
from checkutil import cl, write_tree
from cliutil import oc

from ordercheck import frontend

EVENTS = {"save": ["*.save_run"], "append": ["*.append_record"]}


def _txn(*patterns):
    return {"extend-events": dict(EVENTS, transaction=list(patterns))}


# --------------------------------------------------------------------------- with conn:

SQLITE = """
import sqlite3


def write(path, store, ledger, run, rec):
    conn = sqlite3.connect(path)
    with conn:
        store.save_run(run)
        ledger.append_record(rec)
"""

INSTANCE = """
class YStore:
    def __init__(self, db, store, ledger):
        self._db = db
        self.store = store
        self.ledger = ledger

    async def write(self, run, rec):
        async with self._db:
            self.store.save_run(run)
            self.ledger.append_record(rec)
"""


@pytest.mark.parametrize("src, pattern", [(SQLITE, "conn"), (INSTANCE, "self._db"), (INSTANCE, "*._db")])
def test_a_with_over_an_untyped_object_named_a_transaction_commits_at_once(src, pattern):
    assert cl(src, select=["OC102"], table={"extend-events": EVENTS}) == [("OC102", 9 if src is SQLITE else 11)]
    assert cl(src, select=["OC102"], table=_txn(pattern)) == []


@pytest.mark.parametrize("item, nameable", [("self.transaction", True), ("self.atomic", True),
                                            ("db.begin", True)])  # (an attribute of a parameter: since session 59)
def test_the_default_patterns_never_name_an_item_that_is_no_call(item, nameable):
    # §2: "a `with` over a call of the `transaction` class"; only a configuration's
    # own pattern names an item of no known class (a function's name, an attribute of
    # one, or `self.x`)
    src = INSTANCE.replace("self._db", item).replace("def write(self, run, rec)", "def write(self, run, rec, db)")
    assert cl(src, select=["OC102"], table={"extend-events": EVENTS}) == [("OC102", 11)]
    assert cl(src, select=["OC102"], table=_txn(item)) == ([] if nameable else [("OC102", 11)])


def test_the_item_is_only_ever_a_transaction_by_its_text():
    # a `save` or `append` pattern that names the item's text makes no event of it
    src = SQLITE.replace("store.save_run(run)\n        ", "")
    table = {"extend-events": {"save": ["conn", "conn.__enter__"], "append": ["*.append_record"]}}
    assert cl(src, select=["OC102"], table=table) == []


def test_a_parameter_of_a_module_instances_name_is_still_not_that_instance():
    # the function's own name hides the module's: nothing resolves, a pattern still may
    src = SQLITE.replace("def write(path, store", "def write(conn, store").replace(
        "    conn = sqlite3.connect(path)\n", "")
    assert cl(src, select=["OC102"], table=_txn("conn")) == []
    assert cl(src, select=["OC102"], table={"extend-events": EVENTS}) == [("OC102", 8)]


def test_a_module_level_connection_is_not_named_by_its_text():
    # only a function's own name (or `self.x`) is read this way: a module's `conn` may
    # be anything the module rebinds, and an imported one is typed by its module
    src = """
import sqlite3

conn = sqlite3.connect("db")


def write(store, ledger, run, rec):
    with conn:
        store.save_run(run)
        ledger.append_record(rec)
"""
    assert cl(src, select=["OC102"], table=_txn("conn")) == [("OC102", 10)]


def test_the_outline_and_the_whole_read_enter_the_same_items():
    src = SQLITE.encode() + b"""

def other(lock, ledger):
    with lock, open("f") as fh:
        ledger.append_record(fh)
"""
    whole = frontend.extract("m.py", src)
    outline = frontend.outline("m.py", src)
    entered = lambda facts: sorted((c.callee, c.local_head) for fn in facts.functions  # noqa: E731
                                   for c in fn.calls if c.bare_enter)
    assert entered(whole) == entered(outline) == [("conn.__enter__", 1), ("lock.__enter__", 1)]


def test_a_warm_one_file_run_agrees(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": ('[tool.ordercheck.extend-events]\nsave = ["*.save_run"]\n'
                           'append = ["*.append_record"]\ntransaction = ["conn"]\n'),
        "app.py": SQLITE,
    })
    cache = tmp_path / "cache"
    assert oc(tmp_path, "--cache-dir", str(cache), "--select", "OC102", ".").codes() == []
    assert oc(tmp_path, "--cache-dir", str(cache), "--select", "OC102", "app.py").codes() == []


# --------------------------------------------------------------------------- except NAME:

REPORT = """
import socket

import requests

report_exceptions = {types}


def try_push(store, run, log):
    try:
        store.save_run(run)
    except report_exceptions:
        log.debug("could not report")
"""


@pytest.mark.parametrize("types, swallow, found", [
    ("(requests.exceptions.RequestException, socket.error)", ["requests.exceptions.RequestException"], True),
    ("(requests.exceptions.RequestException, socket.error)", ["socket.error"], True),
    ("(requests.exceptions.RequestException, socket.error)", [], False),
    ("(ConnectionError, Exception)", [], True),             # a tuple holding a broad type is broad
    ("(ConnectionError, OSError)", [], False),
    ("requests.exceptions.RequestException", ["requests.exceptions.RequestException"], True),  # (an alias, as before)
])
def test_an_except_over_a_tuples_name_catches_each_of_its_types(types, swallow, found):
    table = {"extend-events": EVENTS, "swallow-types": swallow}
    got = cl(REPORT.replace("{types}", types), select=["OC203"], table=table)
    assert got == ([("OC203", 11)] if found else [])


def test_a_tuple_bound_twice_or_after_the_clause_names_nothing():
    twice = REPORT.replace("{types}", "(ConnectionError, Exception)") + "\nreport_exceptions = (OSError,)\n"
    assert cl(twice, select=["OC203"], table={"extend-events": EVENTS}) == []
    local_after = """
def try_push(store, run, log):
    try:
        store.save_run(run)
    except retry:
        log.debug("could not report")
    retry = (ConnectionError, Exception)
"""
    assert cl(local_after, select=["OC203"], table={"extend-events": EVENTS}) == []


def test_a_functions_own_tuple_of_types_counts_before_the_clause():
    src = """
def try_push(store, run, log):
    retry = (ConnectionError, Exception)
    try:
        store.save_run(run)
    except retry:
        log.debug("could not report")
"""
    assert cl(src, select=["OC203"], table={"extend-events": EVENTS}) == [("OC203", 5)]


# --------------------------------------------------------------------------- lgr = getLogger()

LOGGED = """
import logging
from logging import getLogger

lgr = logging.getLogger(__name__)
other = getLogger("x")


class Converter:
    def __init__(self):
        self.lg = logging.getLogger(__name__)

    def convert(self, store, res):
        try:
            store.save_run(res)
        except Exception as exc:
            {handler}
"""


@pytest.mark.parametrize("handler, found", [
    ("lgr.warning('could not save %s', exc)", False),
    ("lgr.error('could not save')", False),
    ("other.exception('could not save')", False),
    ("self.lg.critical('could not save')", False),
    ("lgr.debug('could not save: %s', exc)", True),   # quiet: the exception is not handed on
    ("self.lg.info('could not save: %s', exc)", True),
    ("lgr.debug('could not save')", True),
])
def test_a_logger_from_get_logger_is_a_logger_whatever_its_name(handler, found):
    got = cl(LOGGED.replace("{handler}", handler), select=["OC203"], table={"extend-events": EVENTS})
    assert got == ([("OC203", 15)] if found else [])


# --------------------------------------------------------------------------- return f(...)

RETURNED = """
def update(store, conf, changed):
    if changed:
        store.save(conf)
        return True
    return False


def update_check(store, conf, changed):
    return update(store, conf, changed)


def caller(store, ledger, conf, changed):
    if not {callee}(store, conf, changed):
        ledger.append_record("pre")
"""


@pytest.mark.parametrize("callee, found", [("update", False), ("update_check", True)])
def test_a_wrapper_that_returns_a_helpers_value_is_not_a_literal_return_true(callee, found):
    # decided, not built (docs/decisions.md "Conditional effects through a returned
    # call"): §2 splits a summary by paths that end in `return True`, and a path ending
    # `return update(...)` does not; the wrapper's save is unconditional
    got = cl(RETURNED.replace("{callee}", callee), select=["OC102"],
             table={"extend-events": {"append": ["*.append_record"]}})
    assert got == ([("OC102", 15)] if found else [])


# --------------------------------------------------------------------------- into a buffer

BUFFERED = """
import io
import json
import os
import pickle
import sys
from io import BytesIO, StringIO


def encode(record, conf, src, dst):
    {write}
    os.replace(src, dst)
"""


@pytest.mark.parametrize("write, found", [
    ("buf = io.BytesIO()\n    pickle.dump(record, buf)", False),
    ("buf = BytesIO()\n    conf.write(outfile=buf)", False),
    ("buf = StringIO()\n    json.dump(record, fp=buf)", False),
    ("buf = io.StringIO()\n    print(record, file=buf)", False),
    ("pickle.dump(record, io.BytesIO())", False),
    ("with BytesIO() as f:\n        pickle.dump(record, f)", False),
    ("buf: io.BytesIO = make()\n    pickle.dump(record, buf)", False),
    # a file is still a file
    ("f = open(src, 'wb')\n    pickle.dump(record, f)", True),
    ("with open(src, 'w') as f:\n        json.dump(record, fp=f)", True),
    ("with open(src, 'w') as f:\n        print(record, file=f)", True),
    # a buffer written *into* a file is data, not the destination
    ("buf = io.BytesIO()\n    f = open(src, 'wb')\n    f.write(buf)", True),
    # (a review) a name bound to a buffer on one way and a file on another is a file
    ("if record:\n        f = io.BytesIO()\n    else:\n        f = open(src, 'wb')\n    pickle.dump(record, f)", True),
    # the console is no file, whoever writes it
    ("json.dump(record, sys.stdout)", False),
    ("print(record, file=sys.stderr)", False),
])
def test_a_write_into_an_in_memory_buffer_is_no_file_write(write, found):
    got = cl(BUFFERED.replace("{write}", write), select=["OC301"])
    assert [c for c, _ in got] == (["OC301"] if found else [])


def test_the_outline_and_the_whole_read_name_a_buffers_writes_alike():
    src = BUFFERED.replace("{write}", "buf = io.BytesIO()\n    pickle.dump(record, buf)\n"
                           "    conf.write(outfile=StringIO())\n    print(1, file=buf)").encode()
    whole = frontend.extract("m.py", src)
    outline = frontend.outline("m.py", src)
    named = lambda facts: sorted((c.callee, tuple(sorted(c.qualnames))) for fn in facts.functions  # noqa: E731
                                 for c in fn.calls)
    assert named(whole) == named(outline)
    assert {q for _, qs in named(whole) for q in qs} >= {"io.BytesIO.write", "io.StringIO.write"}


# --------------------------------------------------------------------------- a manager hands on

MANAGED = """
import logging
from contextlib import contextmanager

logger = logging.getLogger(__name__)


@contextmanager
def collect(errors):
    try:
        yield
    except Exception as e:
        {handler}


def f(ledger, rec, errors):
    with collect(errors):
        ledger.append(rec)
"""


@pytest.mark.parametrize("handler, found", [
    ("errors.append(e)", False),                       # handed on: loud at its `with` (session 64)
    ("logger.warning('lost %s', e)", False),            # reported: loud, as before
    ("logger.debug('lost %s', e)", True),
    ("errors.append(1)", True),                         # (its exception is not handed on)
])
def test_a_generator_manager_that_hands_the_exception_on_is_loud_at_its_with(handler, found):
    src = MANAGED.replace("{handler}", handler)
    got = cl(src, select=["OC202"])
    assert got == ([("OC202", src.splitlines().index("        ledger.append(rec)") + 1)] if found else [])


# --------------------------------------------------------------------------- an earlier pass

ROTATE = """\
def rotate(paths, data):
    for p in paths:
        shutil.move(p + ".tmp", p)
        with open(p + ".tmp", "w") as f:
            f.write(data)
"""

def test_a_message_says_when_the_earlier_event_ran_on_an_earlier_pass_of_a_loop(tmp_path):
    from cliutil import write
    write(tmp_path, "m.py", "import os\nimport shutil\n\n\n" + ROTATE + """

def plain(path, data):
    with open(path + ".tmp", "w") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
""")
    r = oc(tmp_path, "--isolated", "--no-cache", "-q", "--select", "OC301", "m.py")
    lines = sorted(r.out.splitlines())
    assert [line.split(" ", 2)[:2] for line in lines] == [["m.py:15:5:", "OC301"], ["m.py:7:9:", "OC301"]], r
    assert "after the file write at line 14 with no fsync" in lines[0]
    assert "after the file write at line 9 (on an earlier pass of the loop) with no fsync" in lines[1]


# --------------------------------------------------------------------------- retry(f)(x)

RETRIED = """
from functools import wraps

import tenacity


def mongo_retry(f):
    @wraps(f)
    def f_retry(*args, **kwargs):
        return f(*args, **kwargs)
    return f_retry


class ChunkStore:
    def write(self, run, rec):
        {save}
        self._ledger.append(rec)
"""


@pytest.mark.parametrize("save, found", [
    ("mongo_retry(self._store.save)(run)", True),
    ("tenacity.retry(stop=tenacity.stop_after_attempt(3))(self._store.save)(run)", True),
    ("with_retries(self._store.save, 3)(run)", True),
    ("timed(self._store.save)(run)", False),       # any other wrapper: not known to call it
    ("mongo_retry(self._store.load)(run)", False),
    ("auto_retry(self._store.save)(run)", True),
    ("withRetry(self._store.save)(run)", True),
    # (a review) a wrapper that queues it for later, or counts, runs nothing now
    ("schedule_retry(self._store.save)(run)", False),
    ("retry_later(self._store.save, delay=30)(run)", False),
    ("self.retry_count(self._store.save)(run)", False),
    ("retry_with_backoff(self._store.save)(run)", True),   # (a fourth review) runs it now
])
def test_a_retry_wrapper_applied_inline_calls_the_callable(save, found):
    got = cl(RETRIED.replace("{save}", save), select=["OC102"])
    assert got == ([("OC102", 17)] if found else [])


def test_the_outline_and_the_whole_read_a_retry_wrapper_alike():
    src = RETRIED.replace("{save}", "mongo_retry(self._store.save)(run)").encode()
    whole = frontend.extract("m.py", src)
    outline = frontend.outline("m.py", src)
    named = lambda facts: sorted(c.callee for fn in facts.functions for c in fn.calls)  # noqa: E731
    assert named(whole) == named(outline)
    assert "self._store.save" in named(whole)


# --------------------------------------------------------------------------- a review's cases

def test_an_alias_of_the_item_is_named_as_written_and_as_what_it_stands_for():
    src = """
class S:
    def write(self, store, ledger, run, rec):
        conn = self._conn
        with conn:
            store.save_run(run)
            ledger.append_record(rec)
"""
    assert cl(src, select=["OC102"], table=_txn("conn")) == []
    assert cl(src, select=["OC102"], table=_txn("self._conn")) == []


def test_an_imported_instance_is_never_named_by_its_text(tmp_path):
    from checkutil import run_tree
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/db.py": "class Session:\n    def __enter__(self):\n        return self\n\n"
                     "    def __exit__(self, *a):\n        return False\n\n\ndb_session = Session()\n",
        "pkg/m.py": "from .db import db_session\n\n\ndef write(store, ledger, run, rec):\n"
                    "    with db_session:\n        store.save_run(run)\n        ledger.append_record(rec)\n",
    })
    assert run_tree(tmp_path, select=["OC102"], table=_txn("db_session")) == [("pkg/m.py", 7, "OC102")]


def test_suggest_counts_a_pattern_that_names_a_with_item_as_used(tmp_path):
    import json as _json
    write_tree(tmp_path, {
        "pyproject.toml": ('[tool.ordercheck.extend-events]\nsave = ["*.save_run"]\n'
                           'append = ["*.append_record"]\ntransaction = ["conn", "*._db", "*.nothing_here"]\n'),
        "app.py": SQLITE + INSTANCE,
    })
    rows = _json.loads(oc(tmp_path, "suggest", "--format", "json", ".").out)["unmatched"]
    assert [r["pattern"] for r in rows] == ["*.nothing_here"], rows


def test_a_tuples_name_of_exception_lets_sys_exit_through():
    src = """
import sys

ERRS = (Exception,)


def named(store, ledger, run, rec):
    store.save_run(run)
    try:
        sys.exit(1)
    except ERRS:
        ledger.append_record(rec)
"""
    assert cl(src, select=["OC102"], table={"extend-events": EVENTS}) == []
    assert cl(src.replace("ERRS = (Exception,)", "ERRS = (BaseException,)"), select=["OC102"],
              table={"extend-events": EVENTS}) == [("OC102", 12)]


@pytest.mark.parametrize("made", [
    "from logging import getLogger as get_log\nlg = get_log(__name__)",
    "lg = logging.getLogger(__name__).getChild('x')",
    "lg = logging.LoggerAdapter(logging.getLogger(__name__), {})",
    # (a fourth review) a child of a logger held in a name
    "base = logging.getLogger(__name__)\nlg = base.getChild('x')",
    "lg = logging.root.getChild('x')",
])
def test_a_logger_by_an_imported_factory_a_child_or_an_adapter(made):
    src = f"""
import logging
{made}


def a(store, run):
    try:
        store.save_run(run)
    except Exception:
        lg.warning("lost")
"""
    assert cl(src, select=["OC203"], table={"extend-events": EVENTS}) == []
    assert cl(src.replace("lg.warning", "lg.debug"), select=["OC203"], table={"extend-events": EVENTS}) != []


@pytest.mark.parametrize("report, found", [("self.log.failure('lost')", False), ("self.log.info('lost')", True)])
def test_twisteds_log_failure_is_a_report(report, found):
    src = f"""
class Server:
    def save(self, store, run):
        try:
            store.save_run(run)
        except Exception:
            {report}
"""
    got = cl(src, select=["OC203"], table={"extend-events": EVENTS})
    assert got == ([("OC203", 5)] if found else [])


def test_the_earlier_pass_is_a_field_of_its_own_and_not_after_the_loop(tmp_path):
    # (a held-out set, 170) `{first_line}` stays a number for a user's `{first_line:d}`,
    # and an anchor after the loop (or in its `else`) is after the earlier event anyway
    from cliutil import write
    write(tmp_path, "pyproject.toml", '[tool.ordercheck]\nrules = ["r/*.toml"]\nextend-select = ["UR001"]\n')
    write(tmp_path, "r/x.toml", """\
id = "UR001"
name = "rename-after-write-numbered"
severity = "warning"
kind = "sequence"
first = ["file-write"]
then = ["rename"]
unless-after = ["fsync"]
message = "rename at {then_line:d} after {first_line:d}{first_pass}"
""")
    write(tmp_path, "m.py", "import shutil\n\n\n" + ROTATE + """

def after(paths, data, out):
    for p in paths:
        with open(p, "w") as f:
            f.write(data)
    else:
        shutil.move(out + ".tmp", out)
    shutil.move(out + ".tmp", out)
""")
    r = oc(tmp_path, "--no-cache", "-q", "--select", "UR001", "m.py")
    assert sorted(r.out.splitlines()) == [
        "m.py:16:9: UR001 rename at 16 after 14",
        "m.py:17:5: UR001 rename at 17 after 14",
        "m.py:6:9: UR001 rename at 6 after 8 (on an earlier pass of the loop)",
    ], r


def test_a_configured_transaction_pattern_names_an_item_even_when_a_default_holds_it():
    # (a review) `*.transaction` written by the configuration is its own pattern too
    src = INSTANCE.replace("self._db", "self.transaction")
    assert cl(src, select=["OC102"], table=_txn("*.transaction")) == []
    assert cl(src, select=["OC102"], table={"events": {"save": ["*.save_run"], "append": ["*.append_record"],
                                                       "transaction": ["*.transaction"]}}) == []


def test_a_projects_own_get_child_is_no_logger():
    src = """
import logging


class Tree:
    def getChild(self, name):
        return Node()


class Node:
    def warning(self, msg):
        self.notes = [msg]


def a(store, run):
    node = Tree().getChild("runs")
    try:
        store.save_run(run)
    except Exception:
        node.warning("lost")


def b(store, run, log):
    child = log.getChild("runs")
    try:
        store.save_run(run)
    except Exception:
        child.warning("lost")
"""
    assert cl(src, select=["OC203"], table={"extend-events": EVENTS}) == [("OC203", 18)]


@pytest.mark.parametrize("receiver, found", [("backlog", True), ("self.catalog", True), ("self.log", False),
                                             ("audit_log", False)])
def test_only_a_logs_failure_is_a_report(receiver, found):
    src = f"""
def save(store, run, backlog, audit_log):
    try:
        store.save_run(run)
    except Exception:
        {receiver}.failure(run)
"""
    got = cl(src, select=["OC203"], table={"extend-events": EVENTS})
    assert got == ([("OC203", 4)] if found else [])
