"""An enum member's ``.value`` or ``.name`` carries the member's marker
(docs/decisions.md "An enum member's value"): ``ledger.append(run.id,
Status.FAILED.value)`` is a terminal append, as ``Status.FAILED`` is. Any other
attribute chain still gives only its last component, whole (``run.status.value``
carries nothing; ``self.failed.value`` neither)."""
from __future__ import annotations

import pytest
from checkutil import cl

SRC = """\
    def f(run, store, ledger):
        store.save(run)
        ledger.append(run.id, {arg})
    """


@pytest.mark.parametrize("arg", [
    "Status.FAILED.value",
    "Status.FAILED.name",
    "models.RunStatus.CANCELLED.value",
    "RunState.failed.value",
    "status=DagsterEventType.RUN_FAILURE.value",
    "{'status': Status.TIMED_OUT.value}",
])
def test_an_enum_members_value_is_terminal(arg):
    assert cl(SRC.format(arg=arg), select=["OC101", "OC102"]) == [("OC101", 3)]


@pytest.mark.parametrize("arg", [
    "Status.RUNNING.value",
    "run.status.value",
    "self.failed.value",
    "STATUS.FAILED.value",  # an UPPER_CASE owner is a constant, not an enum class
    "Status.FAILED.label",  # another attribute of the member is not the member
])
def test_anything_else_is_not(arg):
    assert cl(SRC.format(arg=arg), select=["OC101", "OC102"]) == [("OC102", 3)]
