"""A qualified pattern names a module's own calls (docs/decisions.md): the defining
module's bare calls of its functions and calls on its class by name match
``pkg.store.persist`` and ``*.RunStore.create`` as the same calls from another module
do; ``self.m()``, ``cls.m()`` and ``super().m()`` still do not (a storage calling its
own method: dagster's in-memory storages).
"""
from __future__ import annotations

from checkutil import tree_findings, write_tree

STORE = '''
    class RunStore:
        def save(self, run):
            db.execute("update runs")

        @classmethod
        def create(cls, run):
            db.execute("insert into runs")

        def complete(self, run, ledger):
            self.save(run)
            ledger.append_event("run_completed")

        @classmethod
        def complete_new(cls, run, ledger):
            cls.create(run)
            ledger.append_event("run_completed")


    class SqlStore(RunStore):
        def finish(self, run, ledger):
            self.save(run)
            ledger.append_event("run_completed")

        def finish_super(self, run, ledger):
            super().save(run)
            ledger.append_event("run_completed")


    class Unrelated:
        def save(self, run):
            db.execute("update other")

        def complete(self, run, ledger):
            self.save(run)
            ledger.append_event("run_completed")


    def persist(run):
        db.execute("update runs")


    def finish(run, ledger):
        persist(run)
        ledger.append_event("run_completed")


    def finish_by_class(run, ledger):
        RunStore.create(run)
        ledger.append_event("run_completed")


    def shadowed(run, ledger, persist):
        persist(run)  # the parameter, not the module's function
        ledger.append_event("run_completed")
'''

OTHER = '''
    def persist(run):
        db.execute("update runs")


    def finish(run, ledger):
        persist(run)  # pkg.other.persist: not the configured one
        ledger.append_event("run_completed")
'''

TABLE = {"events": {"save": ["pkg.store.persist", "*.RunStore.save", "*.RunStore.create"]}}


def _oc101(tmp_path):
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/store.py": STORE, "pkg/other.py": OTHER})
    found = tree_findings(tmp_path, select=["OC101"], table=TABLE)
    return sorted((f.path.replace("\\", "/").rsplit("/", 1)[-1], f.function) for f in found)


def test_the_defining_modules_own_calls_match_a_qualified_pattern(tmp_path):
    got = _oc101(tmp_path)
    assert ("store.py", "finish") in got  # persist(run) is pkg.store.persist
    assert ("store.py", "finish_by_class") in got  # RunStore.create(run) there


def test_other_functions_of_the_same_name_do_not_match(tmp_path):
    got = _oc101(tmp_path)
    assert ("store.py", "shadowed") not in got  # a parameter named `persist`
    assert ("store.py", "Unrelated.complete") not in got  # another class's `save`
    assert ("other.py", "finish") not in got  # another module's `persist`


def test_calls_through_self_cls_and_super_are_still_not_typed(tmp_path):
    got = _oc101(tmp_path)
    for fn in ("RunStore.complete", "RunStore.complete_new", "SqlStore.finish", "SqlStore.finish_super"):
        assert ("store.py", fn) not in got, fn
    assert got == [("store.py", "finish"), ("store.py", "finish_by_class")], got


def test_only_a_name_the_module_defines_and_no_import_rebinds(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/other.py": "def persist(run):\n    db.execute('x')\n",
        "pkg/store.py": '''
            def persist(run):
                db.execute("update runs")

            from pkg.other import persist  # (after the def: the import is what runs)


            def finish(run, ledger):
                persist(run)
                ledger.append_event("run_completed")


            def finish_undefined(run, ledger):
                commit_all(run)  # defined nowhere: no `pkg.store.commit_all`
                ledger.append_event("run_completed")
        ''',
    })
    table = {"events": {"save": ["pkg.store.persist", "pkg.store.commit_all"]}}
    assert tree_findings(tmp_path, select=["OC101"], table=table) == []
    # the imported one is named as imported
    table = {"events": {"save": ["pkg.other.persist"]}}
    found = tree_findings(tmp_path, select=["OC101"], table=table)
    assert [f.function for f in found] == ["finish"]


BASES = {
    "pkg/__init__.py": "",
    "pkg/base.py": '''
        class RunStore:
            @classmethod
            def create(cls, run):
                db.execute("insert into runs")
    ''',
    "pkg/sql.py": '''
        from pkg.base import RunStore


        class SqlRunStore(RunStore):
            pass


        class Other:
            @classmethod
            def create(cls, run):
                db.execute("insert into other")


        def finish_here(run, ledger):
            SqlRunStore.create(run)  # this module's subclass, by name
            ledger.append_event("run_completed")


        def finish_other(run, ledger):
            Other.create(run)  # no RunStore among its bases
            ledger.append_event("run_completed")
    ''',
    "pkg/app.py": '''
        from pkg import sql
        from pkg.base import RunStore
        from pkg.sql import SqlRunStore


        def finish_base(run, ledger):
            RunStore.create(run)  # the base itself
            ledger.append_event("run_completed")


        def finish_imported(run, ledger):
            SqlRunStore.create(run)  # imported by name
            ledger.append_event("run_completed")


        def finish_dotted(run, ledger):
            sql.SqlRunStore.create(run)  # through the module
            ledger.append_event("run_completed")


        def finish_local(run, ledger, SqlRunStore):
            SqlRunStore.create(run)  # a parameter, not the class
            ledger.append_event("run_completed")
    ''',
}


def test_a_class_called_by_name_is_also_its_bases(tmp_path):
    """``SqlRunStore.create(run)`` with ``*.RunStore.create`` configured: the class is
    the receiver, of known type, and a RunStore, as ``store.create(run)`` for ``store:
    SqlRunStore`` is (docs/decisions.md "A receiver typed as a subclass")."""
    write_tree(tmp_path, BASES)
    found = tree_findings(tmp_path, select=["OC101"], table={"events": {"save": ["*.RunStore.create"]}})
    got = sorted(f.function for f in found)
    assert got == ["finish_base", "finish_dotted", "finish_here", "finish_imported"], got
    # only the bases: a pattern naming the subclass does not match a call on the base
    found = tree_findings(tmp_path, select=["OC101"], table={"events": {"save": ["*.SqlRunStore.create"]}})
    assert sorted(f.function for f in found) == ["finish_dotted", "finish_here", "finish_imported"]
