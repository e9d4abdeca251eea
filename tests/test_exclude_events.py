"""``exclude-events``: calls a configuration says are never of a class, whatever
pattern (a default's or its own) matches them, as a default class's own ``exclude``
(``sys.stderr.*`` is no file write). Held-out set 173: pex's ``TRACER.log`` writes to
a console stream it keeps in an attribute, a ``*.write`` no configuration could take
out of ``file-write`` (docs/configuration.md, docs/decisions.md "Calls a
configuration takes out of a class")."""
from __future__ import annotations

import pytest
from checkutil import write_tree
from cliutil import oc

TRACER = """\
    import os
    import sys


    class TraceLogger:
        def __init__(self, output=sys.stderr):
            self._output = output

        def log(self, msg):
            self._output.write(msg + "\\n")


    TRACER = TraceLogger()


    def create(tmp, dst):
        TRACER.log("moving")
        os.rename(tmp, dst)
    """


def _project(tmp_path, table: str):
    write_tree(tmp_path, {"pyproject.toml": table, "pex.py": TRACER})


def test_a_console_write_taken_out_of_file_write(tmp_path):
    _project(tmp_path, "[tool.ordercheck]\n")
    assert oc(tmp_path, "--select", "OC301", ".").codes() == [("pex.py", 18, "OC301")]
    _project(tmp_path, '[tool.ordercheck.exclude-events]\nfile-write = ["*._output.write"]\n')
    assert oc(tmp_path, "--select", "OC301", ".").codes() == []


def test_a_warm_cache_follows_the_table(tmp_path):
    cache = str(tmp_path / "cache")
    _project(tmp_path, "[tool.ordercheck]\n")
    assert oc(tmp_path, "--cache-dir", cache, "--select", "OC301", ".").codes() == [("pex.py", 18, "OC301")]
    _project(tmp_path, '[tool.ordercheck.exclude-events]\nfile-write = ["TraceLogger.log", "*._output.write"]\n')
    assert oc(tmp_path, "--cache-dir", cache, "--select", "OC301", ".").codes() == []
    _project(tmp_path, "[tool.ordercheck]\n")
    assert oc(tmp_path, "--cache-dir", cache, "--select", "OC301", ".").codes() == [("pex.py", 18, "OC301")]


def test_it_also_takes_a_call_out_of_the_configurations_own_patterns(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": """\
            [tool.ordercheck.extend-events]
            save = ["*.store.*"]
            append = ["*.ledger.append"]
            [tool.ordercheck.exclude-events]
            save = ["*.store.get", "*.store.load"]
            """,
        "run.py": """\
            def step(self, run):
                self.store.get(run.id)
                self.ledger.append(run)
                self.store.put(run)
                self.store.load(run.id)
                self.ledger.append(run)
            """,
    })
    # `store.put` is a save, `store.get`/`store.load` no longer are: the second
    # append is after the put, not after the load
    r = oc(tmp_path, "--select", "OC102", ".")
    assert r.codes() == [("run.py", 6, "OC102")], r
    assert "after the state save at line 4" in r.out, r


SCHEMA = """\
    import sqlite3


    def _connect(db):
        conn = sqlite3.connect(db)
        conn.execute("CREATE TABLE IF NOT EXISTS items (id TEXT, status TEXT)")
        conn.commit()  # the schema, not the state
        return conn


    def set_status(db, card_id, status):
        conn = _connect(db)
        conn.execute("UPDATE items SET status=? WHERE id=?", (status, card_id))
        conn.commit()


    def tour(db, audit):
        try:
            return _connect(db).execute("SELECT * FROM items").fetchall()
        except Exception:
            return None


    def purge(db, card_id, audit):
        set_status(db, card_id, "purged")
        audit.append_entry(card_id)


    def count(db, audit):
        rows = _connect(db).execute("SELECT * FROM items").fetchall()
        audit.append_entry(len(rows))
    """


@pytest.mark.parametrize("exclude", ['["*._connect", "_connect"]', '["store._connect"]'])
def test_a_helper_named_there_carries_none_of_the_class(tmp_path, exclude):
    # held-out set 240 (nedviga-cli): every `_connect()` commits its schema with the
    # same `conn.commit()` as the real saves, so each read helper was a save (10 of 21
    # findings) and no table could say otherwise: naming the helper now takes out what
    # its summary carries, where it is called, and through its callers
    table = '[tool.ordercheck.extend-events]\nsave = ["*.commit"]\nappend = ["*.append_entry"]\n'
    write_tree(tmp_path, {"pyproject.toml": table, "store.py": SCHEMA})
    before = oc(tmp_path, "--no-cache", ".").codes()
    assert before == [("store.py", 19, "OC203"), ("store.py", 26, "OC102"), ("store.py", 31, "OC102")], before
    write_tree(tmp_path, {"pyproject.toml": table + f"[tool.ordercheck.exclude-events]\nsave = {exclude}\n"})
    # a call of it no longer saves, `set_status` still does (its own commit)
    assert oc(tmp_path, "--no-cache", ".").codes() == [("store.py", 26, "OC102")]


def test_an_unknown_class_is_the_configs_error(tmp_path):
    _project(tmp_path, '[tool.ordercheck.exclude-events]\nfile-writ = ["*._output.write"]\n')
    r = oc(tmp_path, ".")
    assert r.code == 2, r
    assert "exclude-events.file-writ" in r.err and "did you mean `file-write`" in r.err, r


def test_a_table_is_required(tmp_path):
    _project(tmp_path, '[tool.ordercheck]\nexclude-events = ["*._output.write"]\n')
    r = oc(tmp_path, ".")
    assert r.code == 2 and "exclude-events" in r.err and "must be a table" in r.err, r


def test_suggest_proposes_no_call_the_table_excludes(tmp_path):
    # (a review): a pattern `suggest` proposed and the configuration excluded came back
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.ordercheck.exclude-events]\nsave = ["*.db.persist_row"]\n',
        "run.py": """\
            def step(self, run):
                self.db.persist_row(run)
                self.db.upsert_row(run)
            """,
    })
    r = oc(tmp_path, "suggest", ".")
    assert "upsert_row" in r.out and "persist_row" not in r.out, r
