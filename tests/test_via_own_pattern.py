"""A call that a pattern names performs its event itself: its witness step and its
related places name no helper down its summary as the "via" (docs/decisions.md, "A
"via" names the near call"; held-out set 80). A terminal append keeps its "via", which
says where its marker is, and a callee's ``raised`` point keeps its summary's."""
from __future__ import annotations

from checkutil import tree_findings, write_tree

STORE = """\
class Client:
    def copy(self, src, dst):
        self._execute(src, dst)

    def _execute(self, src, dst):
        session.commit()

    def close(self):
        session.commit()
        raise RuntimeError("closed")
"""

TABLE = {"extend-events": {"save": ["*.Client.copy", "session.commit", "*.Client.close"], "append": ["ledger.append"]}}


def _steps(found):
    return [(s.kind, s.text, s.via) for s in found.witness]


MOVE = """\
from store import Client


def move(client: Client, ledger, src, dst):
    client.copy(src, dst)
    ledger.append({"event": "moved"})
"""


def _move_findings(tmp_path, table):
    """The OC102s of ``move`` over ``Client.copy``, whose helper saves two calls down."""
    write_tree(tmp_path, {"store.py": STORE, "main.py": MOVE})
    found = tree_findings(tmp_path, select=["OC102"], table=table)
    assert [(f.code, f.span.line) for f in found] == [("OC102", 6)]
    return found


def test_a_save_by_its_own_pattern_names_no_via(tmp_path):
    found = _move_findings(tmp_path, TABLE)
    assert _steps(found[0])[0] == ("save", "client.copy(src, dst)", ""), _steps(found[0])
    assert not any("performed via" in r.message for r in found[0].related), found[0].related


def test_a_save_its_helper_makes_still_names_the_via(tmp_path):
    # the same helper, not named by a pattern: the save is its summary's
    found = _move_findings(tmp_path, {"extend-events": {"save": ["session.commit"], "append": ["ledger.append"]}})
    kind, _, via = _steps(found[0])[0]
    assert kind == "save" and via.startswith("Client.copy → Client._execute → session.commit()"), via
    assert any("save performed via Client.copy" in r.message for r in found[0].related), found[0].related


def test_an_append_by_its_own_pattern_names_no_via(tmp_path):
    table = {"extend-events": {"save": ["session.commit"], "append": ["*.Journal.record", "ledger.append"]}}
    write_tree(tmp_path, {"journal.py": """\
        class Journal:
            def record(self, event):
                ledger.append(event)
        """, "main.py": """\
        from journal import Journal


        def step(journal: Journal):
            session.commit()
            journal.record({"event": "stepped"})
        """})
    found = tree_findings(tmp_path, select=["OC102"], table=table)
    assert [(f.code, f.span.line) for f in found] == [("OC102", 6)]
    assert _steps(found[0])[-1] == ("append", 'journal.record({"event": "stepped"})', ""), _steps(found[0])


def test_a_terminal_append_keeps_the_via_that_shows_its_marker(tmp_path):
    table = {"extend-events": {"save": ["session.commit"], "append": ["*.Journal.record", "ledger.append"]}}
    write_tree(tmp_path, {"journal.py": """\
        class Journal:
            def record(self, run):
                ledger.append({"event": "run_failed", "run": run})
        """, "main.py": """\
        from journal import Journal


        def fail(journal: Journal, run):
            session.commit()
            journal.record(run)
        """})
    found = tree_findings(tmp_path, select=["OC101"], table=table)
    assert [(f.code, f.span.line) for f in found] == [("OC101", 6)]
    kind, _, via = _steps(found[0])[-1]
    assert kind == "terminal-append" and "ledger.append" in via, _steps(found[0])
