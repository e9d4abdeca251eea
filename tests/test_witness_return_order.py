"""A ``return f(...)`` (``break``/``continue`` have no value, but the same holds for a
statement's own calls) is shown after its call's step: Python calls ``f`` and then
returns (held-out set 40: django-logic's ``return _handle_success(...)``, whose witness
showed the function leaving before the terminal append). When the call raises, the
statement never returns and the witness shows no ``return``."""
from checkutil import witness_of


def test_the_return_step_follows_the_call_it_returns():
    steps = witness_of("""\
def finish(store, ledger, run):
    store.save(run)
    return ledger.append_terminal(run)
""", "OC101")
    assert steps == [("save", 2, "store.save(run)"),
                     ("terminal-append", 3, "ledger.append_terminal(run)"),
                     ("return", 3, "return ledger.append_terminal(run)")], steps


def test_a_return_whose_call_raises_is_no_step():
    steps = witness_of("""\
def finish(store, ledger, run):
    try:
        store.save(run)
        ledger.append(run)
        return store.save_state(run)
    except KeyError:
        return None
""", "OC102")
    # the way to the exit with no save goes through the save that raised
    assert [s for s in steps if s[0] == "return"] == [("return", 7, "return None")], steps
    assert steps[:2] == [("save", 3, "store.save(run)"), ("append", 4, "ledger.append(run)")], steps


def test_a_conditional_or_a_comprehension_in_the_value_and_a_handlers_verdict():
    """(A review.) The points of a conditional expression or a comprehension in the
    returned value are part of the statement; a handler left by `return f()` ends on
    the verdict that it is silent."""
    assert witness_of("""\
def h(ledger, store, run, rec, c):
    store.save(run)
    return ledger.append_terminal(rec) if c else None
""", "OC101")[1:] == [("terminal-append", 3, "ledger.append_terminal(rec)"),
                     ("return", 3, "return ledger.append_terminal(rec) if c else None")]
    assert witness_of("""\
def k(ledger, store, run, recs):
    store.save(run)
    return [ledger.append_terminal(r) for r in recs]
""", "OC101")[1:] == [("terminal-append", 3, "ledger.append_terminal(r)"),
                     ("return", 3, "return [ledger.append_terminal(r) for r in recs]")]
    steps = witness_of("""\
def f(ledger, rec, out):
    try:
        ledger.append(rec)
    except Exception:
        return out.get(rec)
""", "OC202")
    # (held-out set 73) the verdict quotes the `return` that leaves, not its value's call
    assert steps[-1] == ("silent", 5, "return out.get(rec)  (leaves the handler silently)"), steps
    steps = witness_of("""\
def f(ledger, rec, out):
    try:
        ledger.append(rec)
    except Exception:
        return out.merge(out.get(rec), out.default())
""", "OC202")
    # (a review) however many calls the value makes
    assert steps[-1] == ("silent", 5, "return out.merge(out.get(rec), out.default())  (leaves the handler silently)"), steps
