"""A function's own fresh list, dict or set is no ledger (docs/decisions.md, "A
function's own list is no ledger"): ``journal_args = []`` then
``journal_args.append(x)`` matches no default ``append`` pattern, while a list that
outlives the call (an attribute, a parameter, a module's or a class body's) still
matches by its name, as the contract's ``*journal*.append*`` says."""
from __future__ import annotations

from checkutil import cl

SWL = ["OC202"]


def test_a_local_list_named_like_a_journal_is_no_append():
    src = """
        def log(msg, run):
            journal_args = []
            try:
                journal_args.append(("MESSAGE", msg))
            except Exception:
                pass
    """
    assert cl(src, SWL) == []


def test_comprehension_and_builtin_call_bindings_are_fresh_lists_too():
    src = """
        def log(rows, run):
            ledger_rows = [r for r in rows]
            journal = list()
            try:
                ledger_rows.append(run)
                journal.append(run)
            except Exception:
                pass
    """
    assert cl(src, SWL) == []


def test_a_list_that_outlives_the_call_is_still_a_ledger():
    src = """
        module_ledger = []

        class Runtime:
            journal = []

            def __init__(self):
                self.ledger = []

            def step(self, run, ledger):
                try:
                    self.ledger.append(run)
                except Exception:
                    pass
                try:
                    ledger.append(run)
                except Exception:
                    pass
                try:
                    module_ledger.append(run)
                except Exception:
                    pass
                try:
                    self.journal.append(run)
                except Exception:
                    pass
    """
    assert cl(src, SWL) == [("OC202", 12), ("OC202", 16), ("OC202", 20), ("OC202", 24)]


def test_a_name_also_bound_to_anything_else_is_no_fresh_list():
    src = """
        def step(run, make):
            ledger = []
            if run:
                ledger = make()
            try:
                ledger.append(run)
            except Exception:
                pass

        def grow(run):
            journal = []
            journal += [run]
            try:
                journal.append(run)
            except Exception:
                pass

        def outer(run):
            global ledger
            ledger = []
            try:
                ledger.append(run)
            except Exception:
                pass
    """
    assert cl(src, SWL) == [("OC202", 7), ("OC202", 15), ("OC202", 23)]


def test_a_fresh_list_read_in_a_nested_function_is_still_the_functions_own():
    src = """
        def step(run):
            journal = []

            def note():
                try:
                    journal.append(run)
                except Exception:
                    pass
            note()
    """
    assert cl(src, SWL) == []


def test_a_configured_pattern_over_a_local_list_matches_nothing_either():
    src = """
        def step(run):
            events = []
            try:
                events.append(run)
            except Exception:
                pass
    """
    table = {"extend-events": {"append": ["events.append"]}}
    assert cl(src, SWL, table) == []
    # without the fresh binding the same configured pattern matches
    assert cl(src.replace("events = []", "events = run.events"), SWL, table) == [("OC202", 5)]


def test_a_bare_container_annotation_keeps_the_fresh_list():
    # (an adversarial review, session 31: `rows: list = []` took the annotation's `list`)
    src = """
        def log(msg, run):
            journal_args: list = []
            journal_rows: "list[str]" = []
            try:
                journal_args.append(("MESSAGE", msg))
                journal_rows.append(msg)
            except Exception:
                pass
    """
    assert cl(src, SWL) == []
