"""An ``except`` clause's type through an alias, and a class of the same module under
its module-qualified name (a conformance probe, session 31; docs/decisions.md)."""
from __future__ import annotations

from checkutil import cl

SRC = """
    BROAD = Exception
    Narrow = KeyError

    class TransientError(Exception):
        pass

    def a(ledger, run):
        try:
            ledger.append_record(run)
        except BROAD:
            pass

    def b(ledger, run):
        try:
            ledger.append_record(run)
        except TransientError:
            pass

    def c(ledger, run):
        try:
            ledger.append_record(run)
        except Narrow:
            pass

    def d(ledger, run):
        try:
            ledger.append_record(run)
        except (ValueError, BROAD):
            pass
"""


def test_an_alias_of_a_broad_type_is_broad():
    assert cl(SRC, ["OC202"]) == [("OC202", 10), ("OC202", 28)]


def test_swallow_types_match_a_class_of_the_same_module_by_its_qualified_name():
    table = {"swallow-types": ["*.TransientError"]}
    assert cl(SRC, ["OC202"], table, path="pkg/jobs.py") == [("OC202", 10), ("OC202", 16), ("OC202", 28)]
    # as written, as before
    assert cl(SRC, ["OC202"], {"swallow-types": ["TransientError"]}) == [("OC202", 10), ("OC202", 16), ("OC202", 28)]


def test_an_alias_of_a_narrow_type_stays_narrow():
    assert ("OC202", 22) not in cl(SRC, ["OC202"])
    assert ("OC202", 22) in cl(SRC, ["OC202"], {"swallow-types": ["KeyError"]})
