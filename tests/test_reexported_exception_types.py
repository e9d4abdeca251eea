"""An ``except`` clause's type (or a ``suppress(...)``'s) that a project module
re-exports from outside the project is that outside name for ``swallow-types``
(docs/decisions.md "An exception type a project module re-exports"): with ``from
psycopg2 import DatabaseError`` in ``pkg/compat.py``, ``except DatabaseError:`` after
``from .compat import DatabaseError`` catches what ``swallow-types =
["psycopg2.DatabaseError"]`` names, as a call through that module matches the name it
re-exports. Before, a handler's types resolved in its own file only, and a compat
module's exception hid every swallowed append behind it."""
from __future__ import annotations

import textwrap

import pytest
from cliutil import oc, write

CONFIG = 'swallow-types = ["psycopg2.DatabaseError"]\n'

WORKER = """\
    import pkg.compat as c
    from pkg import compat
    from contextlib import suppress
    from .compat import DatabaseError
    from .aliases import DatabaseError as AliasedError


    def imported(ledger, run):
        try:
            ledger.append_record(run)
        except DatabaseError:
            pass


    def through_the_module(ledger, run):
        try:
            ledger.append_record(run)
        except c.DatabaseError:
            pass


    def in_a_tuple(ledger, run):
        try:
            ledger.append_record(run)
        except (KeyError, compat.DatabaseError):
            pass


    def suppressed(ledger, run):
        with suppress(DatabaseError):
            ledger.append_record(run)


    def module_alias(ledger, run):
        try:
            ledger.append_record(run)
        except AliasedError:
            pass


    def other_type(ledger, run):
        try:
            ledger.append_record(run)
        except compat.OperationalError:
            pass
    """

ALL = [("pkg/worker.py", 10, "OC202"), ("pkg/worker.py", 17, "OC202"), ("pkg/worker.py", 24, "OC202"),
       ("pkg/worker.py", 31, "OC202"), ("pkg/worker.py", 36, "OC202")]


def _project(root, compat="from psycopg2 import DatabaseError, OperationalError  # noqa: F401\n"):
    write(root, "ordercheck.toml", CONFIG)
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/compat.py", compat)
    write(root, "pkg/aliases.py", "import psycopg2\n\nDatabaseError = psycopg2.DatabaseError\n")
    write(root, "pkg/worker.py", WORKER)
    return root


@pytest.mark.parametrize("args", [("--no-cache", "pkg"), ("--no-cache", "pkg/worker.py"),
                                  ("--no-cache", "--jobs", "2", "pkg")])
def test_a_reexported_type_is_its_outside_name(tmp_path, args):
    root = _project(tmp_path)
    assert oc(root, *args).codes() == ALL


def test_as_an_editor_buffer(tmp_path):
    root = _project(tmp_path)
    got = oc(root, "--no-cache", "--stdin-filename", "pkg/worker.py", stdin=textwrap.dedent(WORKER).encode())
    assert got.line_codes() == [(line, code) for _, line, code in ALL]


def test_without_swallow_types_nothing_changes(tmp_path):
    root = _project(tmp_path)
    write(root, "ordercheck.toml", "")
    assert oc(root, "--no-cache", "pkg").codes() == []


def test_a_project_class_of_the_same_name_is_not_the_outside_one(tmp_path):
    root = _project(tmp_path, "class DatabaseError(Exception):\n    pass\n\n\nclass OperationalError(Exception):\n    pass\n")
    assert oc(root, "--no-cache", "pkg").codes() == [("pkg/worker.py", 36, "OC202")]


def test_the_cache_follows_an_edit_of_the_reexporting_module(tmp_path):
    root = _project(tmp_path)
    assert oc(root, "pkg").codes() == ALL
    assert oc(root, "pkg/worker.py").codes() == ALL  # warm
    write(root, "pkg/compat.py", "from mysql.connector import DatabaseError, OperationalError  # noqa: F401\n")
    assert oc(root, "pkg/worker.py").codes() == [("pkg/worker.py", 36, "OC202")]
    assert oc(root, "pkg").codes() == [("pkg/worker.py", 36, "OC202")]
    write(root, "pkg/aliases.py", "import mysql\n\nDatabaseError = mysql.Error\n")
    assert oc(root, "pkg").codes() == []
    write(root, "pkg/compat.py", "from psycopg2 import DatabaseError, OperationalError  # noqa: F401\n")
    assert oc(root, "pkg").codes() == ALL[:4]
