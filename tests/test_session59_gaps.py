"""Gaps held-out sets found that session 59 closed, each with the case that shows it."""
from __future__ import annotations

import pytest
from checkutil import check_source, cl

EXPECTING = [
    ("import pytest\n", "pytest.raises(StoreError)"),
    ("from pytest import raises\n", "raises(StoreError, match='boom')"),
    ("", "self.assertRaises(StoreError)"),
    ("", "self.assertRaisesRegex(StoreError, 'boom')"),
    ("", "self.assertRaisesMessage(StoreError, 'boom')"),
]


@pytest.mark.parametrize("imports,manager", EXPECTING)
def test_a_body_that_must_raise_took_no_effect_after_it(imports, manager):
    # held-out set 198 (edx): `with self.assertRaises(LookupError): mark_timeout(...)`,
    # then `mark_timeout(...)` again was a second terminal append; the statement after
    # the `with` is reached only when the body raised (else the test fails at the exit)
    src = imports + f'''
class T:
    def test_it(self, store, ledger, run):
        with {manager}:
            store.save(run)
        ledger.append_event(run, "started")
'''
    assert cl(src, select=["OC101", "OC102"]) == []


def test_an_effect_before_the_expecting_with_still_counts():
    src = '''
import pytest


def test_it(store, ledger, run):
    store.save(run)
    with pytest.raises(ValueError):
        parse(run)
    ledger.append_event(run, "started")
'''
    assert cl(src, select=["OC101", "OC102"]) == [("OC102", 9)]


def test_a_second_terminal_append_after_one_that_must_raise_is_the_first():
    src = '''
import unittest


def mark_timeout(ledger, attempt):
    if attempt == 0:
        raise LookupError(attempt)
    ledger.append_event(attempt, "timed_out")


class T(unittest.TestCase):
    def test_timeout(self):
        with self.assertRaises(LookupError):
            mark_timeout(self.ledger, 0)
        mark_timeout(self.ledger, 1)
'''
    assert cl(src, select=["OC103"]) == []
    plain = src.replace("with self.assertRaises(LookupError):\n            mark_timeout(self.ledger, 0)",
                        "mark_timeout(self.ledger, 0)")
    assert cl(plain, select=["OC103"]) == [("OC103", 14)]


def test_what_the_test_expects_to_fail_is_no_swallowed_failure():
    src = '''
import pytest


def test_failed_append(ledger, run):
    with pytest.raises(LedgerError):
        ledger.append_event(run, "run_failed")
    ledger.append_event(run, "run_failed")
'''
    assert cl(src, select=["OC201", "OC202", "OC203"]) == []


def test_a_project_function_named_raises_is_no_test_manager():
    src = '''
from .util import raises


def flow(store, ledger, run):
    with raises(StoreError):
        store.save(run)
    ledger.append_event(run, "started")
'''
    assert cl(src, select=["OC101", "OC102"]) == [("OC102", 8)]


def test_a_body_that_ends_normally_fails_the_test_at_the_exit():
    # what follows the `with` runs only after the body raised: an append in the body
    # that returned normally never reaches the save after it
    src = '''
import pytest


def test_it(store, ledger, run):
    with pytest.raises(StoreError):
        ledger.append_event(run, "started")
        store.save(run)
    store.save(run)
'''
    assert cl(src, select=["OC101", "OC102"]) == []


WALRUS = '''
def apply(store, ledger, dev):
    if {test}:
        store.save(dev)
    if {later}:
        ledger.append_record({{"dev": dev}})
'''


@pytest.mark.parametrize("test,later", [
    ("cfg := dev.cfg", "not cfg"),
    ("(cfg := dev.cfg)", "not cfg"),
    ("not (cfg := dev.cfg)", "cfg"),
    ("(cfg := dev.cfg) and dev.ok", "not cfg"),
    ("(cfg := dev.cfg) and cfg.ok", "not cfg"),  # read after it is bound: the new value
    ("cfg := clean(cfg)", "not cfg"),  # its own value reads the old one: the fact is the new one's
    ("(cfg := dev.cfg) is None", "cfg is not None"),
    ("(cfg := dev.cfg) is not None", "cfg is None"),
])
def test_a_walrus_test_tells_the_name_it_binds(test, later):
    # held-out set 205 (netbox-config-diff binds and tests so throughout): the second
    # test contradicts the first about the value the walrus bound
    assert cl(WALRUS.format(test=test, later=later), select=["OC102"]) == []


@pytest.mark.parametrize("test,later", [
    ("cfg := dev.cfg", "cfg"),  # the same fact: a feasible walk
    ("(cfg := dev.cfg) and not (cfg := other())", "not cfg"),  # bound twice: the last value is falsy
    ("(cfg := dev.cfg) or dev.ok", "not cfg"),  # a true `or` tells nothing
    ("(cfg := dev.cfg) == 3", "not cfg"),  # any other test tells nothing
])
def test_a_walrus_test_that_tells_nothing_contradicting(test, later):
    assert cl(WALRUS.format(test=test, later=later), select=["OC102"]) == [("OC102", 6)]


def test_a_walrus_in_a_while_test_holds_in_the_body():
    src = '''
def drain(store, ledger, q):
    while job := q.get():
        store.save(job)
        if not job:
            ledger.append_record({"j": 1})
'''
    assert cl(src, select=["OC102"]) == []


def test_a_walrus_in_a_conditional_expression_tells_nothing():
    # (only a statement's test: its writes come before its branches)
    src = '''
def apply(store, ledger, dev):
    x = store.save(dev) if (cfg := dev.cfg) else None
    if not cfg:
        ledger.append_record({"dev": dev})
'''
    assert cl(src, select=["OC102"]) == [("OC102", 5)]


SQLITE = {"extend-events": {"save": ["*.upsert"], "transaction": ["conn", "db.conn"]}}


@pytest.mark.parametrize("bind,item", [
    ("conn = db.conn", "conn"),  # an alias of a parameter's attribute (a fault: not read as one)
    ("", "db.conn"),  # sqlite_utils' `with db.conn:` (a gap: only a name or `self.x` could be named)
])
def test_a_with_over_an_attribute_of_a_parameter_can_be_named_a_transaction(bind, item):
    # held-out set 208 (dogsheep-photos writes its rows in `with db.conn:`)
    src = f'''
def copy(db, uploads, journal, row):
    uploads.upsert(row)
    {bind}
    with {item}:
        journal.append_event({{"kind": "copied"}})
'''
    assert cl(src, select=["OC102"], table=SQLITE) == [("OC102", 5)]
    unnamed = {"extend-events": {"save": ["*.upsert"]}}
    assert cl(src, select=["OC102"], table=unnamed) == [("OC102", 6)]


@pytest.mark.parametrize("count,silent", [
    ("self.errors = self.errors + 1", False),  # `+=` spelled out: a count (held-out set 210)
    ("self.stats['failed'] = self.stats['failed'] + 1", False),
    ("self.errors += 1", False),
    ("n = n + 1", True),  # a plain local: no count that outlives the function
    ("self.errors = other.errors + 1", True),  # another value: an attribute set
    ("self.errors = self.errors - 1", True),
    ("self.errors = 1 + self.errors", False),  # either side (a blind probe, session 60)
    ("self.errors: int = self.errors + 1", False),  # annotated
    ("n: int = n + 1", True),
    ('self.title = "unsaved: " + self.title', True),  # prepended, no count (a review)
    ("self.pending = [run] + self.pending", True),
])
def test_a_count_spelled_out_in_a_handler_reports_the_failure(count, silent):
    src = f'''
def push(self, store, run, n):
    try:
        store.save(run)
    except Exception:
        {count}
'''
    assert cl(src, select=["OC203"]) == ([("OC203", 4)] if silent else [])


def test_a_body_that_must_raise_left_by_continue_fails_the_test():
    # a review: `continue` in the body is no way on (the test fails at the exit)
    src = '''
import pytest


def test_each_save_fails(store, ledger, runs):
    for run in runs:
        with pytest.raises(StoreError):
            store.save(run)
            continue
        ledger.append_event(run, "started")
'''
    assert cl(src, select=["OC102"]) == []


def test_what_follows_a_body_the_graph_sees_no_failure_in_is_reachable():
    # a review: `total / 0` is no call; the statement after the `with` was unreachable
    src = '''
import pytest


def test_division(store, ledger, run, total):
    with pytest.raises(ZeroDivisionError):
        total / 0
    store.save(run)
    ledger.append_event(run, "started")
'''
    assert cl(src, select=["OC102"]) == [("OC102", 9)]


def test_a_projects_own_assert_raises_manager_is_read_as_its_manager():
    # a review: `Flow.assertRaises` is the project's `@contextmanager` (it warns and
    # re-raises): a save that returns goes on to the append
    src = '''
import logging
from contextlib import contextmanager

log = logging.getLogger(__name__)


class Flow:
    @contextmanager
    def assertRaises(self, exc):
        try:
            yield
        except exc:
            log.warning("unexpected")
            raise

    def run(self, store, ledger, r):
        with self.assertRaises(KeyError):
            store.save(r)
        ledger.append_event(r, "started")
'''
    assert cl(src, select=["OC102"]) == [("OC102", 20)]


@pytest.mark.parametrize("test,later", [
    ("left and (left := run.remaining()) == 0", "not left"),  # the fact is of the old `left`
    ("(left := run.remaining()) and left", "not left"),  # two facts of the name: told nothing
])
def test_a_walrus_name_the_test_also_reads_tells_nothing(test, later):
    src = f'''
def retry(store, ledger, run, left):
    if {test}:
        store.save(run)
        if {later}:
            ledger.append_record({{"run": run.id}})
'''
    assert cl(src, select=["OC102"]) == [("OC102", 6)]


@pytest.mark.parametrize("imports,write,found", [
    ("from tqdm import tqdm", "tqdm.write(str(name))", []),  # the console (held-out set 212)
    ("from tqdm.auto import tqdm", "tqdm.write(str(name))", []),
    ("import tqdm", "tqdm.tqdm.write(str(name))", []),
    ("from tqdm import tqdm", "out.write(str(name))", [("OC301", 9)]),  # a file still is one
])
def test_tqdm_write_is_no_file_write(imports, write, found):
    src = f'''
import os
{imports}


def publish(files, tmp, dest, out):
    for name in files:
        {write}
    os.replace(tmp, dest)
'''
    assert cl(src, select=["OC301"]) == found


def test_a_with_over_an_attribute_of_self_can_be_named_a_transaction():
    # a second review: `with self.db.conn:` (only `self.x` was read so)
    src = '''
class Copier:
    def copy(self, uploads, journal, row):
        uploads.upsert(row)
        with self.db.conn:
            journal.append_event({"kind": "copied"})
'''
    table = {"extend-events": {"save": ["*.upsert"], "transaction": ["self.db.conn"]}}
    assert cl(src, select=["OC102"], table=table) == [("OC102", 5)]
    assert cl(src, select=["OC102"], table={"extend-events": {"save": ["*.upsert"]}}) == [("OC102", 6)]


@pytest.mark.parametrize("failing", ["total / 0", "x = run + 1"])
def test_a_save_then_a_failure_the_graph_does_not_see_in_a_body_that_must_raise(failing):
    # a second review: the body's last statement raises after the save took effect
    src = f'''
import pytest


def test_it(store, ledger, run, total):
    with pytest.raises(ZeroDivisionError):
        store.save(run)
        {failing}
    ledger.append_event(run, "started")
'''
    assert cl(src, select=["OC102"]) == [("OC102", 9)]


@pytest.mark.parametrize("body", ["pass", "return"])
def test_a_body_that_must_raise_and_cannot_leads_nowhere_after_it(body):
    # a second review: `pass` or `return` raises nothing: the test fails at the exit
    src = f'''
import pytest


def test_it(store, ledger, run):
    store.save(run)
    with pytest.raises(StoreError):
        {body}
    ledger.append_event(run, "started")
'''
    assert cl(src, select=["OC102"]) == []


def test_the_way_out_back_up_is_said_after_a_test_below_the_anchor():
    # held-out set 217 (mongo-connector's oplog loop): the step after the append is a
    # test below it, then the loop's head; the head is where the way goes back up
    src = '''
class OplogThread:
    def run(self, cursor, docman):
        last_ts = None
        for n, entry in enumerate(cursor):
            docman.upsert(entry)
            last_ts = entry["ts"]
            if n % 10 == 1:
                self.update_checkpoint(last_ts)
                last_ts = None
        if last_ts is not None:
            self.update_checkpoint(last_ts)
'''
    table = {"extend-events": {"save": ["*.update_checkpoint"], "append": ["*.upsert"]}}
    [f] = [f for f in check_source(src, table=table, select=["OC102"])]
    said = [s for s in f.witness if "then on to the exit" in s.text]
    assert [(s.span.line, s.kind) for s in said] == [(5, "branch")]
    assert said[0].text.startswith("for n, entry in enumerate(cursor):  (no more items)")


@pytest.mark.parametrize("last", ["saved = True", "..."])
def test_a_last_statement_that_cannot_raise_leads_nowhere_after_it(last):
    # a third review: a literal bound, or `...`, raises nothing unseen
    src = f'''
import pytest


def test_it(store, ledger, run):
    with pytest.raises(StoreError):
        store.save(run)
        {last}
    ledger.append_event(run, "started")
'''
    assert cl(src, select=["OC102"]) == []


def test_pytest_fail_closing_a_body_that_must_raise_ends_the_test():
    # a review: `pytest.fail(...)` raises a `BaseException` (an `OutcomeException`):
    # neither `pytest.raises(StoreError)` nor an `except Exception` catches it
    src = '''
import pytest


def test_it(store, ledger, run):
    with pytest.raises(StoreError):
        store.save(run)
        pytest.fail("the save should have raised")
    ledger.append_event(run, "started")


def test_caught(store, ledger, run):
    try:
        store.save(run)
        pytest.fail("the save should have raised")
    except Exception:
        pass
    ledger.append_event(run, "started")
'''
    assert cl(src, select=["OC102"]) == []
