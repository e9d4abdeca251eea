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


def test_through_a_module_imported_whole_a_manager_and_an_alias_the_cache_follows(tmp_path):
    """A review (session 44): the types a file's clauses ask about are checked again on a
    warm run, whatever way they are reached — a module imported whole that re-exports
    from a third module, a project context manager in another file that catches the
    re-exported type, a re-export of a module-level alias."""
    write(tmp_path, "ordercheck.toml", CONFIG)
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/base.py", "from psycopg2 import DatabaseError  # noqa: F401\n")
    write(tmp_path, "pkg/aliased.py", "import psycopg2\n\nDatabaseError = psycopg2.DatabaseError\n")
    write(tmp_path, "pkg/compat.py", "from .base import DatabaseError  # noqa: F401\nfrom .aliased import DatabaseError as Aliased  # noqa: F401\n")
    write(tmp_path, "pkg/util.py", """\
        from contextlib import contextmanager
        from .compat import DatabaseError


        @contextmanager
        def quiet_compat():
            try:
                yield
            except DatabaseError:
                pass
        """)
    write(tmp_path, "pkg/worker.py", """\
        import pkg.compat
        from pkg import compat
        from .util import quiet_compat


        def whole(ledger, run):
            try:
                ledger.append_record(run)
            except pkg.compat.DatabaseError:
                pass


        def managed(ledger, run):
            with quiet_compat():
                ledger.append_record(run)


        def aliased(ledger, run):
            try:
                ledger.append_record(run)
            except compat.Aliased:
                pass
        """)
    every = [("pkg/worker.py", 8, "OC202"), ("pkg/worker.py", 15, "OC202"), ("pkg/worker.py", 20, "OC202")]
    assert oc(tmp_path, "pkg").codes() == every
    assert oc(tmp_path, "pkg/worker.py").codes() == every  # warm
    write(tmp_path, "pkg/base.py", "class DatabaseError(Exception):\n    pass\n")
    assert oc(tmp_path, "pkg/worker.py").codes() == every[2:]
    assert oc(tmp_path, "pkg").codes() == every[2:]
    write(tmp_path, "pkg/aliased.py", "import mysql\n\nDatabaseError = mysql.Error\n")
    assert oc(tmp_path, "pkg").codes() == []
    assert oc(tmp_path, "--no-cache", "pkg").codes() == []


def test_a_module_added_later_that_reexports_the_type_reaches_a_warm_run(tmp_path):
    """(A second review.) `from errs import DatabaseError` names a module outside the
    project until `errs.py` is written; the check memo asks again about every type it
    read, so a warm run sees the module added."""
    write(tmp_path, "ordercheck.toml", CONFIG)
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/worker.py", """\
        from errs import DatabaseError


        def imported(ledger, run):
            try:
                ledger.append_record(run)
            except DatabaseError:
                pass
        """)
    assert oc(tmp_path, "pkg").codes() == []
    write(tmp_path, "errs.py", "from psycopg2 import DatabaseError  # noqa: F401\n")
    assert oc(tmp_path, "pkg").codes() == [("pkg/worker.py", 6, "OC202")]
    assert oc(tmp_path, "--no-cache", "pkg").codes() == [("pkg/worker.py", 6, "OC202")]

