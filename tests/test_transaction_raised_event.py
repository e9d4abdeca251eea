"""A transaction's commit carries only what took effect on the walks that reach it
(semantics §Graph: "an exceptional edge leaves an event before it takes effect: a
save that raised saved nothing"; §Events Transactions: "what a walk did not do, its
commit does not commit"). An event whose exception a handler inside the body caught
did not take effect, so the commit reached through that handler does not carry it
(docs/decisions.md, "What a transaction commits"; found by session 26's held-out set).
"""
from checkutil import cl

PRELUDE = """\
import logging
from django.db import transaction
logger = logging.getLogger(__name__)
class StoreError(Exception):
    pass
"""


def lines(src, select=None, table=None):
    return cl(PRELUDE + src, select=select, table=table)


def at(src, code, needle):
    """The line of ``needle`` in the prelude plus ``src``."""
    text = PRELUDE + src
    return (code, text.splitlines().index(next(l for l in text.splitlines() if needle in l)) + 1)


def test_a_save_that_raised_inside_the_transaction_is_not_committed():
    src = """
def in_txn(session, store, ledger, run, rec):
    with session.begin():
        try:
            store.save(run)
        except StoreError:
            logger.warning("save failed")
        else:
            return
    ledger.append(rec)
"""
    assert lines(src) == []


def test_the_same_without_the_transaction_agrees():
    src = """
def no_txn(store, ledger, run, rec):
    try:
        store.save(run)
    except StoreError:
        logger.warning("save failed")
    else:
        return
    ledger.append(rec)
"""
    assert lines(src) == []


def test_a_save_before_a_handled_failure_is_still_committed():
    src = """
def saved_then_notify(session, store, ledger, notifier, run, rec):
    with session.begin():
        store.save(run)
        try:
            notifier.notify(run)
        except Exception:
            logger.warning("notify failed")
            return
    ledger.append(rec)
"""
    assert lines(src) == [at(src, "OC102", "ledger.append(rec)")]


def test_a_save_on_the_normal_way_is_committed():
    src = """
def committed(session, store, ledger, run, rec):
    with session.begin():
        try:
            store.save(run)
        except StoreError:
            logger.warning("save failed")
            return
    ledger.append(rec)
"""
    assert lines(src) == [at(src, "OC102", "ledger.append(rec)")]


def test_a_helper_that_returns_only_after_its_save_raised_carries_no_save():
    src = """
def _claim(session, store, run):
    with session.begin():
        try:
            store.save(run)
        except StoreError:
            logger.warning("save failed")
            return
        raise RuntimeError("claimed elsewhere")

def via_helper(session, store, ledger, run, rec):
    _claim(session, store, run)
    ledger.append(rec)
"""
    assert lines(src) == []


def test_the_decorator_form_agrees():
    src = """
@transaction.atomic
def _mark(store, run):
    try:
        store.save(run)
    except StoreError:
        logger.warning("save failed")
        return False
    raise RuntimeError("not claimable")

def decorated(store, ledger, run, rec):
    _mark(store, run)
    ledger.append(rec)
"""
    assert lines(src) == []


def test_a_claim_loop_that_skips_a_conflict():
    src = """
def claim_next(session, store, ledger, runs, rec):
    for run in runs:
        with session.begin():
            try:
                store.save(run)
            except StoreError:
                logger.warning("run %s taken", run)
                continue
        return run
    ledger.append(rec)
    return None
"""
    assert lines(src) == []


def test_a_terminal_append_that_raised_inside_is_no_first_append():
    src = """
def settle(session, ledger, run):
    with session.begin():
        try:
            ledger.append(run.id, "COMPLETED")
        except StoreError:
            logger.warning("completed record failed")
        else:
            return
    ledger.append(run.id, "FAILED")
"""
    assert lines(src, select=["OC103"]) == []


def test_two_terminal_appends_that_took_effect_are_still_two():
    src = """
def settle_twice(session, ledger, run):
    with session.begin():
        ledger.append(run.id, "COMPLETED")
    ledger.append(run.id, "FAILED")
"""
    assert lines(src, select=["OC103"]) == [at(src, "OC103", '"FAILED"')]


def test_a_save_on_some_walks_is_not_committed_by_the_walks_that_skipped_it():
    # (a held-out set's reading, session 32: streaq's `finish_task`) the exit both
    # walks leave by is split by what each did: the walk with `flag` false commits
    # the append alone, after the save before the transaction
    src = """
def before(store, ledger, flag):
    store.save(1)
    with transaction.atomic():   # before
        if flag:
            store.save(2)
        ledger.append(3)

def after(store, ledger, flag):
    store.save(1)
    with transaction.atomic():   # after
        ledger.append(3)
        if flag:
            store.save(2)

def every_walk(store, ledger, flag):
    store.save(1)
    with transaction.atomic():
        if flag:
            store.save(2)
        else:
            store.save(4)
        ledger.append(3)
"""
    assert lines(src, select=["OC102"]) == [at(src, "OC102", "# before"), at(src, "OC102", "# after")]


def test_a_call_that_never_returns_inside_a_split_transaction():
    # (a review, session 33) the line after `die(...)` no walk reaches still leads to
    # the commit: it commits nothing and must not stop the run
    src = """
def die(msg):
    raise RuntimeError(msg)

def k(store, ledger, run, flag, other):
    store.save(run)
    with transaction.atomic():   # k
        if flag:
            store.save(run)
        ledger.append(run)
        if other:
            die("x")
            store.save(run)
"""
    assert lines(src, select=["OC102"]) == [at(src, "OC102", "# k")]


def test_the_witness_of_a_split_commit_takes_the_branch_of_its_walk():
    # (a review, session 33) every walk to a copy of the commit did what that copy
    # commits: the witness of the commit of the append alone takes the branch that
    # skips the save, and the one that commits both the branch that saves
    src = """
def skipped(store, ledger, run, flag):
    store.save(run)
    with transaction.atomic():
        if flag:
            x = 1
            y = 2
        else:
            store.save(run)
        ledger.append(run)

def both(store, ledger, run, flag):
    with transaction.atomic():
        if flag:
            x = 1
            y = 2
        else:
            store.save(run)
        ledger.append(run)
    ledger.append(run)
"""
    from checkutil import check_source
    found = sorted(check_source(PRELUDE + src, select=["OC102"]), key=lambda f: f.span.line)
    branches = [[s.text for s in f.witness if s.kind == "branch"] for f in found]
    assert branches == [["if flag:  (true)"], ["if flag:  (false)"]], branches


def test_a_body_with_six_independent_events_is_still_split():
    # (a review, session 33) six optional events give 64 sets of what a walk did: the
    # walk that skipped all of them commits the final append alone
    src = """
import os

def f(store, ledger, run, a, b, c, d, e, g, fh, p, q):
    store.save(run)
    with transaction.atomic():   # f
        if a:
            store.save(run)
        if b:
            ledger.append(run)
        if c:
            ledger.append_terminal(run)
        if d:
            fh.write("x")
        if e:
            os.rename(p, q)
        if g:
            os.fsync(fh.fileno())
        ledger.append(run)
"""
    assert lines(src, select=["OC102"]) == [at(src, "OC102", "# f")]


def test_a_split_body_inside_a_handler_keeps_its_surface():
    # (session 33) the copies of a split transaction body are the same calls: a
    # `logger.error` in one of them still surfaces the handler's failure
    src = """
def f(session, store, ledger, run, flag):
    try:
        ledger.append(run)
    except Exception:
        with transaction.atomic():
            if flag:
                store.save(run)
            logger.error("append failed for %s", run.id)

def g(session, store, ledger, run, flag):
    try:
        ledger.append(run)   # g
    except Exception:
        with transaction.atomic():
            if flag:
                store.save(run)
            logger.debug("append failed for %s", run.id)
"""
    assert lines(src, select=["OC202"]) == [at(src, "OC202", "# g")]


def test_logging_in_a_body_does_not_count_against_the_split():
    # (a review, session 33) surfaces and quiet logging split no commit: with them the
    # walk that skipped the save is still its own
    src = """
import os

def f(store, ledger, run, a, b, c, d, e, g, h, k, fh, p, q):
    store.save(run)
    with transaction.atomic():   # f
        if a:
            store.save(run)
        if b:
            ledger.append(run)
        if c:
            ledger.append_terminal(run)
        if d:
            fh.write("x")
        if e:
            os.rename(p, q)
        if g:
            os.fsync(fh.fileno())
        if h:
            logger.error("h")
        if k:
            logger.info("k")
        ledger.append(run)
"""
    assert lines(src, select=["OC102"]) == [at(src, "OC102", "# f")]
