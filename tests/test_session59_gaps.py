"""Gaps held-out sets found that session 59 closed, each with the case that shows it."""
from __future__ import annotations

import pytest
from checkutil import cl

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
