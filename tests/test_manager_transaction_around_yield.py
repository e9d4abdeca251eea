"""A project context manager whose ``yield`` stands inside a transaction commits the
transaction's body at the transaction's normal exit, after the ``yield``: at the
caller's ``with`` exit, not its entry (semantics §Events Transactions and Context
managers; held-out set 58: archon-bot's ``db.tournament()``, an async manager holding
a psycopg transaction around its ``yield``, read as saving at the entry, so an append
in the ``with`` body was "after the save" although a crash there rolls it back)."""
from cliutil import oc, write

MANAGER = '''\
import contextlib
from django.db import transaction

@contextlib.contextmanager
def run_scope(store, run):
    with transaction.atomic():
        store.save(run)
        yield run

@contextlib.contextmanager
def saved_first(store, run):
    with transaction.atomic():
        store.save(run)
    yield run
'''


def _codes(tmp_path, body):
    write(tmp_path, "m.py", MANAGER + body)
    r = oc(tmp_path, "--isolated", "--no-cache", "--select", "OC102", "m.py")
    return r, [(line - MANAGER.count("\n"), code) for _, line, code in r.codes()]


def test_an_append_in_the_body_precedes_the_commit(tmp_path):
    r, found = _codes(tmp_path, "\n\ndef body_appends(store, ledger, run):\n    with run_scope(store, run):\n"
                                "        ledger.append(run)\n")
    assert found == [], r


def test_an_append_after_the_with_follows_the_commit_at_its_exit(tmp_path):
    r, found = _codes(tmp_path, "\n\ndef appends_after(store, ledger, run):\n    with run_scope(store, run):\n"
                                "        pass\n    ledger.append(run)\n")
    assert found == [(6, "OC102")], r
    # (the `with` over it is a transaction itself since session 63: it "commits")
    assert "`run_scope(store, run)` commits: save" in r.out and "store.save(run) at m.py:7" in r.out, r


def test_a_transaction_closed_before_the_yield_commits_at_the_entry(tmp_path):
    r, found = _codes(tmp_path, "\n\ndef body_appends(store, ledger, run):\n    with saved_first(store, run):\n"
                                "        ledger.append(run)\n")
    assert found == [(5, "OC102")], r
