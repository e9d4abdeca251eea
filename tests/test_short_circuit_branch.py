"""The branch an ``and``/``or`` test's first operand decides alone (semantics §Control flow:
"Edges follow Python exactly"). In ``if A and f():`` the true branch ran ``f``; only the
false branch may have skipped it (``or``: the other way round). Until session 20 this
held only for an ``f`` with conditional effects; otherwise the true branch could be
reached without ``f``, so a handler whose ``f`` hands the exception on looked silent
there (a session-20 probe of realistic code; celery's
``if self.always_retry and self.exception_safe_to_retry(exc):`` has this shape)."""
import pytest
from conformance import run_case

CASES = {
    # the true branch handed the exception on; the false branch re-raises: not silent
    "and-hands-on": """\
def save_run(store, run, retry, errors):
    try:
        store.save(run)
    except Exception as exc:
        if retry and errors.append(exc):
            return None
        raise
""",
    # `or`: the true branch may have skipped the hand-on, and returns: silent
    "or-may-skip": """\
def save_run(store, run, retry, errors):
    try:
        store.save(run)  # !OC203
    except Exception as exc:
        if not retry or errors.append(exc):
            return None
        raise
""",
    # under `not`, the skipped walks go to the other branch
    "not-and": """\
def save_run(store, run, retry, errors):
    try:
        store.save(run)
    except Exception as exc:
        if not (retry and errors.append(exc)):
            raise
        return None
""",
    # a while test: the body runs only after the call
    "while-and": """\
def drain(store, ledger, queue, ok):
    while ok and store.save(queue):
        ledger.append(queue)  # !OC102
    ledger.append(queue)  # !OC102
""",
    # the events themselves are still may events in order
    "save-in-test": """\
def f(store, ledger, run, ok):
    if ok and store.save(run):
        return
    ledger.append(run)  # !OC102
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_first_operand_decides_its_own_branch(name):
    got, want, detail = run_case(CASES[name])
    assert got == want, detail
