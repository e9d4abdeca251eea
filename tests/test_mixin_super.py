"""``super().m()`` in a mixin runs what the classes combining it put after it in their
MRO (docs/decisions.md, "``super()`` in a mixin"; held-out set 198, super-csv's
``DeferrableMixin.commit``, whose operation record follows the rows' commit)."""
from __future__ import annotations

from checkutil import cl, write_tree
from cliutil import oc

SEQ = ["OC101", "OC102"]

MIXIN = '''
class CSVProcessor:
    def __init__(self, store):
        self._store = store

    def commit(self):
        self._store.save_state(self)


class DeferrableMixin:
    def commit(self):
        super().commit()
        self._ledger.append_record("commit")


class DeferrableProcessor(DeferrableMixin, CSVProcessor):
    pass
'''


def test_a_mixins_super_call_runs_the_combining_class_next_method():
    assert cl(MIXIN, select=SEQ) == [("OC102", 13)]


def test_a_mixin_nobody_combines_stays_unresolved():
    src = MIXIN.replace("class DeferrableProcessor(DeferrableMixin, CSVProcessor):\n    pass\n", "")
    assert cl(src, select=SEQ) == []


def test_combining_classes_that_disagree_leave_the_call_unresolved():
    src = MIXIN + '''

class QuietProcessor:
    def commit(self):
        pass


class Other(DeferrableMixin, QuietProcessor):
    pass
'''
    assert cl(src, select=SEQ) == []


def test_classes_that_agree_resolve_it():
    src = MIXIN + '''

class Another(DeferrableMixin, CSVProcessor):
    pass
'''
    assert cl(src, select=SEQ) == [("OC102", 13)]


def test_a_mixin_whose_own_base_defines_the_method_keeps_it():
    # the mixin's own MRO decides when it binds the name: the combining class's is not asked
    src = MIXIN.replace("class DeferrableMixin:", '''class Quiet:
    def commit(self):
        pass


class DeferrableMixin(Quiet):''')
    assert cl(src, select=SEQ) == []


def test_a_mixin_with_a_library_base_is_not_resolved_through_its_users():
    # the library base may define the method itself: nothing is assumed
    src = MIXIN.replace("class DeferrableMixin:", "class DeferrableMixin(lib.Base):")
    assert cl(src, select=SEQ) == []
    generic = MIXIN.replace("class DeferrableMixin:", "class DeferrableMixin(Generic[T]):")
    assert cl(generic, select=SEQ) == [("OC102", 13)]


def test_the_mixin_itself_in_its_own_mro_is_skipped():
    # the combining class overriding the method before the mixin does not matter
    src = MIXIN.replace("class DeferrableProcessor(DeferrableMixin, CSVProcessor):\n    pass\n", '''class DeferrableProcessor(DeferrableMixin, CSVProcessor):
    def commit(self):
        super().commit()
''')
    assert cl(src, select=SEQ) == [("OC102", 13)]


FILES = {
    "pyproject.toml": "",  # a project: a one-file run reads all of it (not only what the file imports)
    "pkg/__init__.py": "",
    "pkg/mixins.py": """
        class DeferrableMixin:
            def commit(self):
                super().commit()
                self._ledger.append_record("commit")
        """,
    "pkg/base.py": """
        class CSVProcessor:
            def commit(self):
                self._store.save_state(self)
        """,
    "pkg/combined.py": """
        from .base import CSVProcessor
        from .mixins import DeferrableMixin


        class DeferrableProcessor(DeferrableMixin, CSVProcessor):
            pass
        """,
}


def test_across_files_alone_warm_and_after_the_combining_class_changes(tmp_path):
    write_tree(tmp_path, FILES)
    cache = str(tmp_path / "cache")
    want = [("pkg/mixins.py", 5, "OC102")]
    assert oc(tmp_path, "--no-cache", "pkg").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, "pkg").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, "pkg/mixins.py").codes() == want
    assert oc(tmp_path, "--no-cache", "pkg/mixins.py").codes() == want
    combined = tmp_path / "pkg/combined.py"
    combined.write_text(combined.read_text().replace("(DeferrableMixin, CSVProcessor)", "(DeferrableMixin)"))
    assert oc(tmp_path, "--cache-dir", cache, "pkg/mixins.py").codes() == []
    assert oc(tmp_path, "--cache-dir", cache, "pkg").codes() == []
    combined.write_text(combined.read_text().replace("(DeferrableMixin)", "(DeferrableMixin, CSVProcessor)"))
    assert oc(tmp_path, "--cache-dir", cache, "pkg/mixins.py").codes() == want


def test_a_library_class_in_the_combining_mro_leaves_it_unresolved():
    # a review: `Proc(AuditMixin, BatchProcessor, LocalDefaults)`: the library's
    # `BatchProcessor` comes between, and may bind `commit` itself
    src = MIXIN.replace("class DeferrableProcessor(DeferrableMixin, CSVProcessor):",
                        "class DeferrableProcessor(DeferrableMixin, thirdparty.BatchProcessor, CSVProcessor):")
    assert cl(src, select=SEQ) == []


def test_a_mixin_extended_by_another_mixin_is_resolved_through_their_users():
    # a review: `Outer(Inner)` finds nothing after `Inner` and cannot run the call: not asked
    src = MIXIN.replace("class DeferrableProcessor(DeferrableMixin, CSVProcessor):\n    pass\n", '''class Outer(DeferrableMixin):
    pass


class DeferrableProcessor(Outer, CSVProcessor):
    pass
''')
    assert cl(src, select=SEQ) == [("OC102", 13)]


def test_objects_own_method_is_a_target_of_its_own():
    # `super().__init__()` in a mixin runs `object.__init__` for a class with nothing
    # after the mixin: with another class running a project `__init__`, they disagree
    src = '''
class Saver:
    def __init__(self):
        self._store.save_state(self)


class Audit:
    def __init__(self):
        super().__init__()
        self._ledger.append_record("created")


class Saved(Audit, Saver):
    pass
'''
    assert cl(src, select=SEQ) == [("OC102", 10)]
    alone = src + '''

class Plain(Audit):
    pass
'''
    assert cl(alone, select=SEQ) == []


def test_an_exceptions_super_init_is_no_mixin():
    # `Exception` binds `__init__`: the class's own MRO decides (nothing of the project)
    src = '''
class Saver:
    def __init__(self, m):
        self._store.save_state(m)


class Failed(Exception):
    def __init__(self, m):
        super().__init__(m)
        self._ledger.append_record("failed")


class Both(Failed, Saver):
    pass
'''
    assert cl(src, select=SEQ) == []


def test_a_library_class_after_the_binder_is_no_unknown():
    # a second review: a `models.Model` base of the binder itself, or a `Thread` listed
    # after it, comes after the binder in the MRO
    model = MIXIN.replace("class CSVProcessor:", "class CSVProcessor(models.Model):")
    assert cl(model, select=SEQ) == [("OC102", 13)]
    thread = MIXIN.replace("(DeferrableMixin, CSVProcessor)", "(DeferrableMixin, CSVProcessor, threading.Thread)")
    assert cl(thread, select=SEQ) == [("OC102", 13)]


def test_a_library_base_before_a_later_way_to_the_binder_is_an_unknown():
    # a third review: in `P(Mixin, CSV, Connection, JSON)` with `CSV(Base)`, `JSON(Base)`,
    # `Base` comes after `JSON`, so after the library's `Connection`
    src = '''
class Base:
    def commit(self):
        self._store.save_state(self)


class CSV(Base):
    pass


class JSON(Base):
    pass


class AuditMixin:
    def commit(self):
        super().commit()
        self._ledger.append_record("commit")


class P(AuditMixin, CSV, sqlite3.Connection, JSON):
    pass
'''
    assert cl(src, select=SEQ) == []
    assert cl(src.replace("sqlite3.Connection, JSON", "JSON, sqlite3.Connection"), select=SEQ) == [("OC102", 18)]
