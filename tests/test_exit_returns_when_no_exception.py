"""An ``__exit__`` whose ``return True`` Python reaches only when no exception is in
flight (after ``if exc_type is not None: ...; return False``, or under ``if exc_type
is None:``) swallows nothing: with an exception, every parameter is set (the
seventeenth held-out set's devpi-server, ``FSIOFileBase.__exit__``; docs/decisions.md
"An `__exit__` that returns True only without an exception")."""

import pytest
from checkutil import cl

MANAGER = """
class FileTx:
    def __enter__(self):
        return self

    def __exit__(self, cls, val, tb):
{body}

    def rollback(self):
        pass

    def commit_files(self):
        pass


def finish(store, run):
    with FileTx():
        store.save(run)
"""


def _src(body: str) -> str:
    return MANAGER.format(body="\n".join("        " + line for line in body.strip("\n").splitlines()))


def _save_line(src: str) -> int:
    return next(i for i, line in enumerate(src.splitlines(), 1) if "store.save(run)" in line)


@pytest.mark.parametrize("body", [
    "if cls is not None:\n    self.rollback()\n    return False\nself.commit_files()\nreturn True",
    "if cls is None:\n    self.commit_files()\n    return True\nself.rollback()\nreturn False",
    "if not val:\n    return True\nreturn False",
    "if tb is not None:\n    return False\nelse:\n    return True",
    "if cls:\n    self.rollback()\nelse:\n    return True",
])
def test_a_true_return_only_without_an_exception_swallows_nothing(body):
    assert cl(_src(body), ["OC203"]) == []


@pytest.mark.parametrize("body", [
    "return True",
    "if cls is not None:\n    self.rollback()\n    return True\nreturn False",
    "if cls:\n    return True",
    "if not cls:\n    self.commit_files()\nreturn True",
    "if self.strict is None:\n    return False\nreturn True",
])
def test_a_true_return_with_an_exception_in_flight_swallows(body):
    src = _src(body)
    assert cl(src, ["OC203"]) == [("OC203", _save_line(src))]


@pytest.mark.parametrize("body", [
    # the parameter is bound again: its test no longer tells whether an exception is in flight
    "if self.tolerate:\n    cls = None\nif cls is None:\n    return True\nreturn False",
    "if (val := None) is None:\n    pass\nif val is None:\n    return True\nreturn False",
    # (a third review) a nested function sets it through `nonlocal`
    "def forgive():\n    nonlocal cls\n    cls = None\nif self.tolerate:\n    forgive()\n"
    "if cls is None:\n    return True\nreturn False",
])
def test_a_rebound_exception_parameter_tells_nothing(body):
    src = _src(body)
    assert cl(src, ["OC203"]) == [("OC203", _save_line(src))]


def test_keyword_parameters_are_no_exception_parameters():
    src = MANAGER.replace("def __exit__(self, cls, val, tb):", "def __exit__(self, *exc_info, **options):").format(
        body="        if not options:\n            return True\n        return False")
    assert cl(src, ["OC203"]) == [("OC203", _save_line(src))]
    star = MANAGER.replace("def __exit__(self, cls, val, tb):", "def __exit__(self, *exc_info):").format(
        body="        if not exc_info:\n            return True\n        return False")
    assert cl(star, ["OC203"]) == []
