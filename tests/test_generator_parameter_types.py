"""A project ``@contextmanager`` whose clause around the ``yield`` names its own
parameter catches what the ``with`` hands it: ``with quiet(Exception):`` swallows every
exception, as ``contextlib.suppress(Exception)`` does (docs/decisions.md "A manager
that catches what it is handed"; held-out set 227, codecarbon's ``suppress``)."""
from __future__ import annotations

import pytest
from checkutil import cl, write_tree
from cliutil import oc

TABLE = {"extend-events": {"save": ["*._store.save"]}}

SRC = """
import contextlib


@contextlib.contextmanager
def quiet({params}):
    try:
        yield
    except {clause}:
        pass


class Tracker:
    def __init__(self, store):
        self._store = store

    def flush(self, run):
        with quiet({given}):
            self._store.save(run)
"""


@pytest.mark.parametrize("params, clause, given, found", [
    ("*exceptions", "exceptions", "Exception", [("OC203", 19)]),
    ("*exceptions", "exceptions", "KeyError, Exception", [("OC203", 19)]),
    ("*exceptions", "exceptions", "KeyError", []),  # narrow: handled on purpose
    ("kind", "kind", "Exception", [("OC203", 19)]),
    ("kind", "kind", "OSError", []),
    ("*exceptions", "KeyError", "Exception", []),  # its own clause decides
    ("*exceptions", "Exception", "KeyError", [("OC203", 19)]),
    # no argument: the parameter's own name, a narrow type (a review; a default
    # `kind=(Exception,)` is not read: a limit)
    ("kind=(Exception,)", "kind", "", []),
])
def test_the_clause_names_the_calls_arguments(params, clause, given, found):
    src = SRC.format(params=params, clause=clause, given=given)
    assert cl(src, select=["OC203"], table=TABLE) == found


def test_swallow_types_apply_to_what_the_call_names():
    src = SRC.format(params="*exceptions", clause="exceptions", given="OSError")
    table = dict(TABLE, **{"swallow-types": ["OSError"]})
    assert cl(src, select=["OC203"], table=table) == [("OC203", 19)]


def test_across_files(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.ordercheck.extend-events]\nsave = ["*._store.save"]\n',
        "pkg/__init__.py": "",
        "pkg/util.py": """
            import contextlib

            @contextlib.contextmanager
            def suppress(*exceptions):
                try:
                    yield
                except exceptions:
                    pass
            """,
        "pkg/track.py": """
            from pkg.util import suppress

            class Tracker:
                def __init__(self, store):
                    self._store = store

                def flush(self, run):
                    with suppress(Exception):
                        self._store.save(run)
            """,
    })
    assert oc(tmp_path, "--no-cache", "--select", "OC203", ".").codes() == [("pkg/track.py", 10, "OC203")]
    assert oc(tmp_path, "--no-cache", "--select", "OC203", "pkg/track.py").codes() == [("pkg/track.py", 10, "OC203")]
