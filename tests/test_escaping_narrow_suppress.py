"""Escaping failures through a helper's narrow ``contextlib.suppress`` (semantics
§Summaries: a class escapes when "an event of that class has an exceptional path to
the callee's RAISE that no handler inside the callee stops"; §Control flow:
``contextlib.suppress(T, ...)`` "swallows the types it names"). A failure of another
type leaves the helper, so the call raises into the caller's handler, as it does when
the same code is written inline; a broad ``suppress(Exception)`` stops it, as
``except Exception`` does. Found by a session-19 conformance probe."""
import pytest
from conformance import run_case

TABLE = {"events": {"append": ["*._ledger.append"]}}


@pytest.mark.parametrize("inside, caller_finding", [
    ("with contextlib.suppress(ValueError):", "   # !OC201"),
    ("with contextlib.suppress(ValueError, KeyError):", "   # !OC201"),
    ("with suppress(OSError):", "   # !OC201"),
    ("with contextlib.suppress(Exception):", ""),
    ("with contextlib.suppress(BaseException):", ""),
])
def test_a_narrow_suppress_in_a_helper_lets_other_failures_escape(inside, caller_finding):
    # (the helper's own swallowed append is OC201 where the suppress is broad)
    own = "   # !OC201" if not caller_finding else ""
    src = f"""\
import contextlib
from contextlib import suppress


class Runtime:
    def _h(self, run):
        {inside}
            self._ledger.append(run.id, Status.COMPLETED){own}

    def finish(self, run):
        try:
            self._h(run){caller_finding}
        except Exception:
            pass
"""
    got, want, detail = run_case(src, table=TABLE)
    assert got == want, detail


def test_the_same_code_inline_agrees():
    got, want, detail = run_case("""\
import contextlib


class Runtime:
    def finish(self, run):
        try:
            with contextlib.suppress(ValueError):
                self._ledger.append(run.id, Status.COMPLETED)   # !OC201
        except Exception:
            pass
""", table=TABLE)
    assert got == want, detail
