"""A witness shows the branch point a test's own event decides (semantics §Contracts:
"one witness — the events and branch points of one shortest path that shows it, in
order, with positions"). When the event is the last call of an ``if`` test
(``if self.revoked(run) is True:``), the node is both the event and the branch point:
both steps are shown, the event first. Found by a session-19 conformance probe."""
import pytest
from checkutil import check_source

HELPER = """\
class Runtime:
    def revoked(self, run):
        if run.cancel_requested:
            self._store.save(run)
            return True
        return False

"""


@pytest.mark.parametrize("test", [
    "self.revoked(run) is True",
    "self._store.save(run) is None",
    "not self._store.save(run)",
])
def test_the_branch_a_test_event_decides_is_a_step(test):
    src = HELPER + f"""\
    def finish(self, run):
        if {test}:
            return
        self._ledger.append(run.id, Status.COMPLETED)
"""
    found = [f for f in check_source(src) if f.code == "OC101"]
    assert len(found) == 1, found
    steps = [(s.kind, s.span.line) for s in found[0].witness]
    assert steps == [("save", 9), ("branch", 9), ("terminal-append", 11)], found[0].witness
    branch = found[0].witness[1]
    assert branch.text.startswith(f"if {test}:") and branch.text.endswith("(false)")


def test_a_branch_before_the_event_is_still_one_step():
    src = HELPER + """\
    def finish(self, run):
        if run.flag:
            self._store.save(run)
        self._ledger.append(run.id, Status.COMPLETED)
"""
    found = [f for f in check_source(src) if f.code == "OC101"]
    assert [(s.kind, s.span.line) for s in found[0].witness] == [("branch", 9), ("save", 10), ("terminal-append", 11)]
