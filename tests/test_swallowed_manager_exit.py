"""A swallowed failure of a class manager's ``__exit__`` names the exit (held-out set
93, osxphotos' ``ExportRecord``; docs/decisions.md "Witness "via" of a manager").

``with Rec(conn):`` whose ``__exit__`` commits, inside ``try: ... except Exception:
pass``: the OC203 stands at the ``with`` item, as the contract says, but its message
named "state save `Rec(conn)`" (the constructor, which only stores the connection) and
its step "Rec(conn) (raises)" with no "via", where an ordering rule over the same exit
says "`Rec(conn)` exits: save (via Rec.__exit__ → ...)". Fingerprints are unchanged.
"""
from __future__ import annotations

from checkutil import check_source

SRC = """\
class Rec:
    def __init__(self, conn):
        self._conn = conn

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self._conn.commit()


class Opened:
    def __init__(self, conn):
        self._conn = conn

    def __enter__(self):
        self._conn.commit()
        return self

    def __exit__(self, exc_type, exc, tb):
        return None


class Finish:
    def __init__(self, ledger):
        self._ledger = ledger

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self._ledger.append("run_failed")


class ItemDB:
    def __init__(self, conn):
        self._conn = conn

    async def __aenter__(self):
        return self

    async def __aexit__(self, exc_type, exc, tb):
        self._conn.commit()


def at_exit(conn):
    try:
        with Rec(conn):
            pass
    except Exception:
        pass


def at_entry(conn):
    try:
        with Opened(conn):
            pass
    except Exception:
        pass


def terminal(ledger):
    try:
        with Finish(ledger):
            pass
    except Exception:
        pass


async def typed(db: ItemDB):
    try:
        async with db:
            pass
    except Exception:
        pass
"""

TABLE = {"events": {"save": ["*conn.commit"]}}


def _by_function():
    return {f.function: f for f in check_source(SRC, table=TABLE, select=["OC201", "OC202", "OC203"], dedent=False)}


def test_the_message_names_the_exit_that_fails():
    found = _by_function()
    assert "state save `Rec(conn).__exit__` can fail silently" in found["at_exit"].message
    assert "terminal ledger append `Finish(ledger).__exit__` can fail silently" in found["terminal"].message
    assert "state save `db.__aexit__` can fail silently" in found["typed"].message


def test_the_step_says_the_exit_and_its_via():
    found = _by_function()
    step = found["at_exit"].witness[0]
    assert step.text == "`Rec(conn)` exits: save (raises)"
    assert step.via.startswith("Rec.__exit__ → self._conn.commit()")
    assert any(r.message.startswith("save performed via Rec.__exit__ → self._conn.commit()")
               for r in found["at_exit"].related)
    assert found["typed"].witness[0].via.startswith("ItemDB.__aexit__ → self._conn.commit()")


def test_a_terminal_step_says_what_made_the_exit_terminal():
    step = _by_function()["terminal"].witness[0]
    assert step.text == ('`Finish(ledger)` exits: terminal-append (terminal by "failed" in '
                         '`self._ledger.append("run_failed")`) (raises)')


def test_an_entry_that_fails_keeps_the_call():
    found = _by_function()
    assert "state save `Opened(conn)` can fail silently" in found["at_entry"].message
    assert "exits" not in found["at_entry"].witness[0].text


def test_the_fingerprint_reads_the_step_as_before():
    found = _by_function()
    # what fingerprints read of the step (``Step.key``): the call's text, as before
    assert found["at_exit"].witness[0].key == "Rec(conn) (raises)"
