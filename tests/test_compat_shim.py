"""A compat shim that re-exports a library's name, with a fallback definition under
``except ImportError:`` (pghoard's ``rohmu/compat.py``), holds the library's name for
every module that imports it from the shim, as it does in the shim itself
(docs/decisions.md, "A definition after an import"). The fallback class's ``__exit__``
may return True; read as what ``suppress`` is, it made every ``with suppress(KeyError):``
of the importers swallow everything (a false OC203)."""
from __future__ import annotations

from checkutil import run_tree, write_tree

SHIM = '''
    try:
        from contextlib import suppress
    except ImportError:
        class suppress:
            def __init__(self, *exceptions):
                self._exceptions = exceptions

            def __enter__(self):
                pass

            def __exit__(self, exctype, excinst, exctb):
                return exctype is not None and issubclass(exctype, self._exceptions)
'''


def test_a_shims_import_wins_over_its_fallback_in_importing_modules(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/compat.py": SHIM + '''

            def local(store, key):
                with suppress(KeyError):
                    store.save(key)
        ''',
        "pkg/worker.py": '''
            from .compat import suppress
            from . import compat


            def upload(store, key):
                with suppress(KeyError):
                    store.save(key)


            def dotted(store, key):
                with compat.suppress(KeyError):
                    store.save(key)


            def broad(store, key):
                with suppress(Exception):
                    store.save(key)
        ''',
    })
    assert run_tree(tmp_path) == [("pkg/worker.py", 18, "OC203")]


def test_a_definition_after_the_import_is_still_the_modules_own(tmp_path):
    """The other order: the module's own ``def`` after its import replaces it, for
    the modules that import the name from it too."""
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/store.py": '''
            def persist(run):
                return run
        ''',
        "pkg/util.py": '''
            from .store import persist


            def persist(run):
                LEDGER.append_terminal(run)
        ''',
        "pkg/worker.py": '''
            from .util import persist


            def finish(store, run):
                store.save(run)
                persist(run)
        ''',
    })
    assert run_tree(tmp_path) == [("pkg/worker.py", 7, "OC101")]


def test_a_fallback_definition_is_not_the_name_when_the_import_is_a_projects(tmp_path):
    """A fallback under ``except ImportError:`` of a project import: the import is what
    the importers call (its summary), not the fallback's."""
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/fast.py": '''
            def persist(run):
                LEDGER.append_terminal(run)
        ''',
        "pkg/util.py": '''
            try:
                from .fast import persist
            except ImportError:
                def persist(run):
                    return run
        ''',
        "pkg/worker.py": '''
            from .util import persist


            def finish(store, run):
                store.save(run)
                persist(run)
        ''',
    })
    assert run_tree(tmp_path) == [("pkg/worker.py", 7, "OC101")]


DB_SHIM = '''
            try:
                import django.db.utils
            except ImportError:
                class DjangoDatabaseError(Exception):
                    pass
            else:
                DjangoDatabaseError = django.db.utils.DatabaseError
'''


def test_an_assignment_a_shim_normally_runs_is_the_alias_not_its_fallback(tmp_path):
    """(Held-out set 35, sumatra's ``projects.py``.) A stand-in class under ``except
    ImportError:`` and ``= django.db.utils.DatabaseError`` under ``else:`` bind the
    name twice; the one that normally runs is the alias, so ``swallow-types`` naming
    Django's class reaches ``except DjangoDatabaseError:``."""
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/projects.py": DB_SHIM + '''

            def add_record(store, rec):
                try:
                    store.save(rec)
                except DjangoDatabaseError:
                    pass
        ''',
    })
    table = {"swallow-types": ["django.db.utils.DatabaseError"]}
    assert run_tree(tmp_path, table=table) == [("pkg/projects.py", 13, "OC203")]


def test_the_try_bodys_assignment_wins_over_the_fallbacks_in_either_order(tmp_path):
    """``try: X = a.B`` / ``except ImportError: X = Fallback``: the fallback, written
    last, does not replace the alias; a name bound twice outside a shim is no alias."""
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/shim.py": '''
            import logging
            try:
                import acme.db
                Lost = acme.db.LostError
            except (ImportError, ModuleNotFoundError):
                Lost = logging.Handler


            def one(store, rec):
                try:
                    store.save(rec)
                except Lost:
                    pass
        ''',
        "pkg/twice.py": '''
            import acme.db
            Lost = acme.db.LostError
            if acme.db.OLD:
                Lost = acme.db.OldLostError


            def two(store, rec):
                try:
                    store.save(rec)
                except Lost:
                    pass
        ''',
        "pkg/broad.py": '''
            try:
                import acme.db
                Lost = acme.db.LostError
            except Exception:
                Lost = OSError


            def three(store, rec):
                try:
                    store.save(rec)
                except Lost:
                    pass
        ''',
    })
    table = {"swallow-types": ["acme.db.LostError"]}
    assert run_tree(tmp_path, table=table) == [("pkg/shim.py", 12, "OC203")]
