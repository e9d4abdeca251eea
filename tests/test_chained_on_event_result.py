"""A call chained on an event's result is no second event of its class (a probe,
session 44; docs/decisions.md "Default `append` patterns"): ``store.save_run(run).wait()``
renders ``store.save_run().wait``, which the default glob ``*store.save_*`` matched, so
one call was two saves: the phantom one, after an append in the chained call's
arguments, covered that append (a lost OC102), and an at-most-once rule on saves fired
on a single call. Each default glob that ends in ``*`` now excludes a name with a call
after it, as ``append``'s did."""
from __future__ import annotations

import pytest
from checkutil import cl, run_tree, write_tree


def test_an_append_in_a_chained_calls_arguments_follows_the_save():
    src = """
        def step(store, ledger, run, rec):
            store.save_run(run).add_done_callback(ledger.append(rec))


        class Runtime:
            def step(self, run, rec):
                self._store.put(run).then(self._ledger.append(rec))

            def later(self, run, rec):
                self._event_log.append_entry(rec).wait()
                get_store().save_run(run).wait()
                self._event_log.append_entry(rec)
    """
    assert cl(src, ["OC102"]) == [("OC102", 3), ("OC102", 8), ("OC102", 13)]


@pytest.mark.parametrize("event", ["save", "terminal-append"])
def test_one_call_is_one_event_for_at_most_once(tmp_path, event):
    write_tree(tmp_path, {
        "rules/double.toml": f"""
            id = "OC803"
            name = "double-event"
            severity = "warning"
            kind = "at-most-once"
            event = ["{event}"]
            message = "two of them"
            explanation = "two events of one class on one path"
        """,
        "a.py": """
            def step(store, ledger, run):
                store.save_run(run).wait()
                ledger.append_terminal_run(run).wait()


            def twice(store, ledger, run):
                store.save_run(run).wait()
                store.save_state(run)
                ledger.append_terminal_run(run).wait()
                ledger.record_terminal_state(run)
        """,
    })
    table = {"rules": [str(tmp_path / "rules" / "double.toml")]}
    second = 9 if event == "save" else 11
    assert run_tree(tmp_path, select=["OC803"], table=table) == [("a.py", second, "OC803")]


def test_a_configurations_own_pattern_matches_a_chained_call_as_written():
    """Only the default globs are held back (``exclude-defaults``; a review, session 44):
    a user's ``*.commit`` names ``self._kv_store.put(run).commit()``, whether it replaces
    the class or extends it."""
    src = """
        class Runtime:
            def step(self, run, rec):
                self._kv_store.put(run).commit()
                self._ledger.append_record(rec)

            def other(self, store, run, rec):
                store.save_run(run).wait()
                self._ledger.append_record(rec)
    """
    assert cl(src, ["OC102"], table={"events": {"save": ["*.commit"]}}) == [("OC102", 5)]
    assert cl(src, ["OC102"], table={"extend-events": {"save": ["*.commit"]}}) == [("OC102", 5), ("OC102", 9)]
