"""An instance imported from the module that makes it and called there runs its class's
``__call__`` (docs/decisions.md "An instance called", session 44): ``from .hooks import
saver`` … ``saver(store, run)`` with ``saver = Saver()`` in ``hooks.py``, and
``hooks.saver(...)`` with the module imported, carry ``Saver.__call__``'s summary and
match ``*.Saver.__call__`` and its bases' names, as the same call in ``hooks.py`` does
since session 43. An instance whose class has no ``__call__`` is not constructed again."""
from __future__ import annotations

from checkutil import run_tree, write_tree
from cliutil import oc, write

HOOKS = """
    class Base:
        def __call__(self, store, run):
            store.save_run(run)


    class Saver(Base):
        pass


    class Builder:
        def __init__(self):
            self.store.save_run(None)


    saver = Saver()
    builder = Builder()
"""

WORKER = """
    from pkg import hooks
    import pkg.hooks as h
    from .hooks import saver, builder


    def imported(store, ledger, run):
        saver(store, run)
        ledger.append_record(run)


    def through_the_module(store, ledger, run):
        hooks.saver(store, run)
        ledger.append_record(run)


    def through_an_alias(store, ledger, run):
        h.saver(store, run)
        ledger.append_record(run)


    def no_call_method(store, ledger, run):
        builder(store, run)
        ledger.append_record(run)
"""

FOUND = [("pkg/worker.py", 9, "OC102"), ("pkg/worker.py", 14, "OC102"), ("pkg/worker.py", 19, "OC102")]


def _tree(root):
    write_tree(root, {"pkg/__init__.py": "", "pkg/hooks.py": HOOKS, "pkg/worker.py": WORKER})
    return root


def test_an_imported_instance_called_carries_its_classs_call(tmp_path):
    assert run_tree(_tree(tmp_path), select=["OC102"]) == FOUND


def test_it_matches_its_classs_qualified_call_and_its_bases(tmp_path):
    root = _tree(tmp_path)
    write(root, "pkg/hooks.py", HOOKS.replace("store.save_run(run)", "pass").replace(
        "self.store.save_run(None)", "pass"))
    assert run_tree(root, select=["OC102"]) == []
    for pattern in ("*.Saver.__call__", "pkg.hooks.Base.__call__"):
        table = {"extend-events": {"save": [pattern]}}
        assert run_tree(root, select=["OC102"], table=table) == FOUND, pattern


def test_every_way_of_running_agrees_and_the_cache_follows_the_module(tmp_path):
    root = _tree(tmp_path)
    write(root, "ordercheck.toml", "")
    assert oc(root, "--no-cache", "pkg/worker.py").codes() == FOUND
    assert oc(root, "pkg").codes() == FOUND
    assert oc(root, "pkg/worker.py").codes() == FOUND  # warm
    write(root, "pkg/hooks.py", HOOKS.replace("saver = Saver()", "saver = Builder()"))
    assert oc(root, "pkg/worker.py").codes() == []
    assert oc(root, "pkg").codes() == []
    write(root, "pkg/hooks.py", HOOKS)
    assert oc(root, "pkg").codes() == FOUND
