"""``match e:`` over a caught exception: a case that captures the whole subject (``case
OSError() as err:``, ``case err:``) names that exception, so handing ``err`` on hands
it on (a conformance probe, session 31; docs/decisions.md "Handing the exception on")."""
from __future__ import annotations

from checkutil import cl

SRC = """
    class Runtime:
        def b(self, run):
            try:
                self._ledger.append_record(run)
            except Exception as e:
                match e:
                    case OSError() as err:
                        self.notify(err)
                    case other:
                        self.notify(other)

        def partial(self, run):
            try:
                self._ledger.append_record(run)
            except Exception as e:
                match e:
                    case OSError(errno=code):
                        self.notify(code)
                    case _:
                        pass

        def other_subject(self, run, x):
            try:
                self._ledger.append_record(run)
            except Exception as e:
                match x:
                    case OSError() as err:
                        self.notify(err)
"""


def test_a_whole_subject_capture_is_the_exception():
    # `b` hands it on in both cases; a part of it (`errno=code`) or another subject does not
    assert cl(SRC, ["OC202"]) == [("OC202", 15), ("OC202", 25)]


def test_a_rebound_capture_no_longer_names_it():
    src = """
        class Runtime:
            def j(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    match e:
                        case OSError() as err:
                            err = None
                            self.notify(err)
    """
    assert cl(src, ["OC202"]) == [("OC202", 5)]
