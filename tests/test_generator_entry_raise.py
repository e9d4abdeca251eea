"""A ``@contextmanager`` generator's entry that fails carries only what the paths
raising before its ``yield`` did (semantics §Events Context managers: events "in a
``finally`` around the ``yield``" stand "at every way out" of the ``with``, and Python
runs them only once the body has started). Before session 19 the entry's failure
carried the generator's whole on-raise effects, so a ``finally`` save around the
``yield`` seemed to happen before the caller's handler even when nothing in the body
could raise (a session-19 conformance probe, five cases)."""
import pytest
from conformance import run_case

GEN = """\
from contextlib import contextmanager


@contextmanager
def saving():
    {before}
    try:
        yield
    {around}
        store.save(run)
    {reraise}

"""


@pytest.mark.parametrize("before, around, reraise, body, expect", [
    # a finally around the yield, a body that cannot raise: the save never precedes the handler
    ("pass", "finally:", "", "pass", ""),
    # the generator fails before its try: nothing saved
    ("connect()", "finally:", "", "pass", ""),
    # an except around the yield that saves and re-raises: only a body's exception gets there
    ("pass", "except Exception:", "    raise", "pass", ""),
    # a body that can raise: the finally's save, then the handler's append (the exit's way out)
    ("pass", "finally:", "", "risky()", "   # !OC101"),
    # a save before the try that then fails is carried by the entry's failure
    ("store.save(run); connect()", "finally:", "", "pass", "   # !OC101"),
])
def test_what_a_generator_entry_failure_carries(before, around, reraise, body, expect):
    src = GEN.format(before=before, around=around, reraise=reraise) + f"""\
def f():
    try:
        with saving():
            {body}
    except ValueError:
        ledger.append_terminal(run){expect}
"""
    got, want, detail = run_case(src, table={"extend-events": {"terminal-append": ["ledger.append_terminal"]}})
    assert got == want, detail
