"""Adversarial cases for semantics §Events "Summaries" (cross-function and cross-module), with
§3/§4 semantics on top. Every expectation was decided from the contract's text (docs/semantics.md) before running
ordercheck; none of them duplicates tests/test_summaries.py or test_semantics_summaries.py.
"""
import json
import subprocess
import sys
from pathlib import Path

from checkutil import SEQ, SWL, cl, run_tree, tree_findings, write_tree

# =========================================================================== base classes across modules

def test_self_method_on_base_imported_relatively_witness_and_related_name_the_callee(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """\
            class Base:
                def _record_resume(self, run):
                    self._ledger.append(ResumeRecord(run.id))
            """,
        "pkg/engine.py": """\
            from .base import Base

            class Engine(Base):
                def resume(self, run):
                    self._store.save(run)
                    self._record_resume(run)
            """,
    })
    fs = tree_findings(tmp_path, select=SEQ)
    assert sorted((Path(f.path).resolve().relative_to(tmp_path.resolve()).as_posix(), f.span.line, f.code) for f in fs) == [("pkg/engine.py", 6, "OC102")]
    (f,) = fs
    step = [s for s in f.witness if s.kind == "append"][0]
    assert step.via.startswith("Base._record_resume → self._ledger.append(ResumeRecord(run.id))"), step.via
    assert step.via.endswith("base.py:3"), step.via
    rel = [r for r in f.related if r.path and r.path.endswith("base.py")]
    assert rel and rel[0].span.line == 3, f.related


def test_base_class_through_module_alias_attribute(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """\
            class Base:
                def _commit(self, run):
                    self._store.save(run)
            """,
        "pkg/impl.py": """\
            import pkg.base as b

            class Impl(b.Base):
                def complete(self, run):
                    self._commit(run)
                    self._ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("pkg/impl.py", 6, "OC101")]


def test_base_class_through_fully_dotted_module(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """\
            class Base:
                def _commit(self, run):
                    self._store.save(run)
            """,
        "app.py": """\
            import pkg.base

            class Impl(pkg.base.Base):
                def complete(self, run):
                    self._commit(run)
                    self._ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 6, "OC101")]


def test_base_class_reexported_by_package_init(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "from .base import Base\n",
        "pkg/base.py": """\
            class Base:
                def _commit(self, run):
                    self._store.save(run)
            """,
        "app.py": """\
            from pkg import Base

            class Impl(Base):
                def complete(self, run):
                    self._commit(run)
                    self._ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 6, "OC101")]


def test_three_level_inheritance_across_three_modules(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """\
            class A:
                def commit(self, run):
                    self._store.save(run)
            """,
        "pkg/b.py": """\
            from .a import A

            class B(A):
                pass
            """,
        "pkg/c.py": """\
            from .b import B

            class C(B):
                def complete(self, run):
                    self.commit(run)
                    self._ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("pkg/c.py", 6, "OC101")]


def test_base_named_like_a_project_class_but_imported_from_elsewhere(tmp_path):
    # `Base` comes from a third-party module: the project's pkg.base.Base is not it
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """\
            class Base:
                def _commit(self, run):
                    self._store.save(run)
            """,
        "pkg/impl.py": """\
            from thirdparty import Base

            class Impl(Base):
                def complete(self, run):
                    self._commit(run)
                    self._ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == []


def test_second_base_of_multiple_inheritance_is_searched():
    assert cl("""\
        class Mixin:
            def describe(self):
                return "x"

        class Saver:
            def _commit(self, run):
                self._store.save(run)

        class Runtime(Mixin, Saver):
            def complete(self, run):
                self._commit(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 12)]


def test_first_base_in_mro_wins():
    # Python's MRO: Quiet.persist shadows Saver.persist for Runtime
    assert cl("""\
        class Quiet:
            def persist(self, run):
                self._cache[run.id] = run

        class Saver:
            def persist(self, run):
                self._store.save(run)

        class Runtime(Quiet, Saver):
            def complete(self, run):
                self.persist(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == []


# =========================================================================== overrides and super()

def test_subclass_override_wins_over_base_for_self_calls():
    assert cl("""\
        class Base:
            def persist(self, run):
                self._store.save(run)

            def complete(self, run):
                self.persist(run)
                self._ledger.append_terminal(run.id)

        class Cached(Base):
            def persist(self, run):
                self._cache[run.id] = run

            def complete2(self, run):
                self.persist(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 7)]


def test_subclass_override_that_saves_is_used_by_the_subclass_only():
    assert cl("""\
        class Base:
            def persist(self, run):
                self._cache[run.id] = run

            def complete(self, run):
                self.persist(run)
                self._ledger.append_terminal(run.id)

        class Durable(Base):
            def persist(self, run):
                self._store.save(run)

            def complete2(self, run):
                self.persist(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 15)]


def test_super_skips_the_own_override():
    assert cl("""\
        class Base:
            def persist(self, run):
                self._store.save(run)

        class Cached(Base):
            def persist(self, run):
                self._cache[run.id] = run

            def complete(self, run):
                super().persist(run)
                self._ledger.append_terminal(run.id)

            def complete2(self, run):
                self.persist(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 11)]


def test_super_chain_over_three_levels_and_modules(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """\
            class A:
                def commit(self, run):
                    self._store.save(run)
            """,
        "pkg/b.py": """\
            from .a import A

            class B(A):
                def commit(self, run):
                    self._cache[run.id] = run
                    super().commit(run)
            """,
        "pkg/c.py": """\
            from .b import B

            class C(B):
                def commit(self, run):
                    super().commit(run)

                def complete(self, run):
                    self.commit(run)
                    self._ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("pkg/c.py", 9, "OC101")]


def test_super_inside_an_inherited_method_means_the_defining_class_base():
    # C inherits B.commit; B.commit's super() is A.commit (which does nothing), not
    # anything of C's own
    assert cl("""\
        class A:
            def commit(self, run):
                self._cache[run.id] = run

        class B(A):
            def commit(self, run):
                super().commit(run)

        class C(B):
            def complete(self, run):
                self.commit(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == []


# =========================================================================== classmethods / staticmethods

def test_staticmethod_and_classmethod_through_self_and_cls():
    assert cl("""\
        class Runtime:
            @staticmethod
            def write_tree(store, run):
                store.save(run)

            @classmethod
            def _commit(cls, store, run):
                cls.write_tree(store, run)

            def complete(self, store, run):
                self._commit(store, run)
                self._ledger.append_terminal(run.id)

            @classmethod
            def fail(cls, store, ledger, run):
                cls.write_tree(store, run)
                ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 12), ("OC101", 17)]


def test_classmethod_on_a_base_in_another_module_through_cls(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """\
            class Base:
                @classmethod
                def _record(cls, ledger, run):
                    ledger.append_event(run.id)
            """,
        "pkg/impl.py": """\
            from .base import Base

            class Impl(Base):
                @classmethod
                def step(cls, store, ledger, run):
                    store.save(run)
                    cls._record(ledger, run)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("pkg/impl.py", 7, "OC102")]


def test_self_parameter_of_a_module_level_function_is_not_a_class():
    # `self.m()` resolves "in a class"; a module-level function's `self` is just a name
    assert cl("""\
        class Runtime:
            def _commit(self, run):
                self._store.save(run)

        def complete(self, run):
            self._commit(run)
            self._ledger.append_terminal(run.id)
        """, select=SEQ) == []


def test_async_method_awaited_through_self():
    assert cl("""\
        class Runtime:
            async def _commit(self, run):
                await self._store.save(run)

            async def complete(self, run):
                await self._commit(run)
                await self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 7)]


# =========================================================================== module-level functions

def test_module_function_chain_defined_after_the_caller():
    assert cl("""\
        def complete(store, ledger, run):
            _finish(store, run)
            ledger.append_terminal(run.id)

        def _finish(store, run):
            write_tree(store, run)

        def write_tree(store, run):
            store.save(run)
        """, select=SEQ) == [("OC101", 3)]


def test_bare_name_in_a_method_is_the_module_function_not_the_method():
    assert cl("""\
        def persist(ledger, run):
            ledger.append_event(run.id)

        class Runtime:
            def persist(self, run):
                self._store.save(run)

            def complete(self, run):
                persist(self._ledger, run)
                self._ledger.append_terminal(run.id)

            def complete2(self, run):
                self.persist(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 14)]


# =========================================================================== imported functions

def test_from_import_with_alias(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/store.py": """\
            def write_state(store, run):
                store.save(run)
            """,
        "pkg/run.py": """\
            from .store import write_state as persist

            def complete(store, ledger, run):
                persist(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("pkg/run.py", 5, "OC101")]


def test_project_function_named_like_a_save_carries_its_summary_too(tmp_path):
    # `persist` resolves to pkg.store.save_run: the qualified name matches the save
    # pattern `*.save_run` and the summary adds `append`; the node's own save covers
    # its own append (no OC102 from it), and it is a save before the terminal append.
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/store.py": """\
            def save_run(ledger, run):
                ledger.append_event(run.id)
            """,
        "pkg/run.py": """\
            from .store import save_run as persist

            def step(store, ledger, run):
                store.save(run)
                persist(ledger, run)

            def complete(ledger, run):
                persist(ledger, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("pkg/run.py", 9, "OC101")]


def test_plain_import_of_a_deep_module_and_dotted_call(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/sub/store.py": """\
            def write_state(store, run):
                store.save(run)
            """,
        "app.py": """\
            import pkg.sub.store

            def complete(store, ledger, run):
                pkg.sub.store.write_state(store, run)
                ledger.append_terminal(run.id)
            """,
        "app2.py": """\
            import pkg.sub.store as st

            def complete(store, ledger, run):
                st.write_state(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 5, "OC101"), ("app2.py", 5, "OC101")]


def test_two_level_reexport_chain_with_alias(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "from .sub import persist\n",
        "pkg/sub/__init__.py": "from .ops import write_state as persist\n",
        "pkg/sub/ops.py": """\
            def write_state(store, run):
                store.save(run)
            """,
        "app.py": """\
            from pkg import persist

            def complete(store, ledger, run):
                persist(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 5, "OC101")]


def test_reexport_reached_through_the_package_attribute(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "from .store import write_state\n",
        "pkg/store.py": """\
            def write_state(store, run):
                store.save(run)
            """,
        "app.py": """\
            import pkg

            def complete(store, ledger, run):
                pkg.write_state(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 5, "OC101")]


def test_relative_imports_two_and_three_dots(tmp_path):
    write_tree(tmp_path, {
        "a/__init__.py": "",
        "a/ops.py": """\
            def write_state(store, run):
                store.save(run)
            """,
        "a/b/__init__.py": "",
        "a/b/rec.py": """\
            def note(ledger, run):
                ledger.append_event(run.id)
            """,
        "a/b/c/__init__.py": "",
        "a/b/c/mod.py": """\
            from ...ops import write_state
            from ..rec import note as n

            def step(store, ledger, run):
                write_state(store, run)
                n(ledger, run)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("a/b/c/mod.py", 6, "OC102")]


def test_package_rule_folder_without_init_starts_a_new_top_level(tmp_path):
    # tools/ has no __init__.py: tools/run.py is module `run`, and `from store import x`
    # names tools/store.py (module `store`)
    write_tree(tmp_path, {
        "tools/store.py": """\
            def write_state(store, run):
                store.save(run)
            """,
        "tools/run.py": """\
            from store import write_state

            def complete(store, ledger, run):
                write_state(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("tools/run.py", 5, "OC101")]


def test_same_function_name_in_two_modules_is_not_mixed_up(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """\
            def persist(store, run):
                store.save(run)
            """,
        "pkg/b.py": """\
            def persist(ledger, run):
                ledger.append_event(run.id)
            """,
        "pkg/use_a.py": """\
            from .a import persist

            def f(store, run):
                store.save(run)
                persist(store, run)

            def g(store, ledger, run):
                persist(store, run)
                ledger.append_event(run.id)
            """,
        "pkg/use_b.py": """\
            from .b import persist

            def f(store, ledger, run):
                store.save(run)
                persist(ledger, run)

            def g(store, ledger, run):
                persist(ledger, run)
                ledger.append_event(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("pkg/use_a.py", 9, "OC102"), ("pkg/use_b.py", 5, "OC102")]


def test_project_function_not_imported_into_the_caller_is_not_resolved(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """\
            def persist(store, run):
                store.save(run)
            """,
        "pkg/b.py": """\
            def complete(store, ledger, run):
                persist(store, run)
                ledger.append_terminal(run.id)
            """,
        "pkg/c.py": """\
            from thirdparty import persist

            def complete(store, ledger, run):
                persist(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == []


# =========================================================================== nested functions

def test_nested_function_defined_and_called_in_one_branch():
    assert cl("""\
        def step(store, ledger, run, fast):
            if fast:
                def commit():
                    store.save(run)
                commit()
            ledger.append(run.id)
        """, select=SEQ) == [("OC102", 6)]


def test_nested_function_defined_in_one_branch_called_after_the_if():
    assert cl("""\
        def step(store, ledger, run, fast):
            if fast:
                def commit():
                    store.save(run)
            commit()
            ledger.append(run.id)
        """, select=SEQ) == [("OC102", 6)]


def test_nested_function_shadows_the_module_function():
    assert cl("""\
        def finish(store, run):
            store.save(run)

        def complete(store, ledger, run):
            def finish(store, run):
                return None
            finish(store, run)
            ledger.append_terminal(run.id)

        def complete2(store, ledger, run):
            finish(store, run)
            ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 12)]


def test_nested_function_calls_its_sibling():
    assert cl("""\
        def complete(store, ledger, run):
            def write_tree():
                store.save(run)

            def _finish():
                write_tree()

            _finish()
            ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 9)]


# =========================================================================== classes called

def test_inherited_init_across_modules(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """\
            class Commit:
                def __init__(self, store, run):
                    store.save(run)
            """,
        "pkg/mid.py": """\
            from .base import Commit

            class Close(Commit):
                pass
            """,
        "app.py": """\
            from pkg.mid import Close

            def complete(store, ledger, run):
                Close(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 5, "OC101")]


def test_init_that_calls_a_self_method_carries_it():
    assert cl("""\
        class Rec:
            def __init__(self, ledger, run):
                self._emit(ledger, run)

            def _emit(self, ledger, run):
                ledger.append_event(run.id)

        def step(store, ledger, run):
            store.save(run)
            Rec(ledger, run)
        """, select=SEQ) == [("OC102", 10)]


# =========================================================================== recursion

def test_self_recursion_converges_and_carries_append():
    assert cl("""\
        def drain(ledger, items):
            if items:
                ledger.append_event(items[0])
                drain(ledger, items[1:])

        def step(store, ledger, run, items):
            store.save(run)
            drain(ledger, items)
        """, select=SEQ) == [("OC102", 8)]


def test_mutual_recursion_across_modules_carries_both_classes(tmp_path):
    # walk/back form one strongly connected component: each carries save and append
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """\
            from . import b

            def walk(store, ledger, n):
                ledger.append_event(n)
                if n:
                    b.back(store, ledger, n - 1)
            """,
        "pkg/b.py": """\
            from .a import walk

            def back(store, ledger, n):
                store.save(n)
                walk(store, ledger, n)
            """,
        "pkg/use.py": """\
            from .a import walk

            def after_save(store, ledger, run):
                store.save(run)
                walk(store, ledger, 3)

            def before_terminal(store, ledger, run):
                walk(store, ledger, 3)
                ledger.append_terminal(run.id)

            def swallowed(store, ledger, run):
                try:
                    walk(store, ledger, 3)
                except Exception:
                    pass
            """,
    })
    found = [t for t in run_tree(tmp_path, select=SEQ + SWL) if t[0] == "pkg/use.py"]
    assert found == [("pkg/use.py", 9, "OC101"), ("pkg/use.py", 13, "OC202"), ("pkg/use.py", 13, "OC203")]


def test_recursive_method_through_self():
    assert cl("""\
        class Runtime:
            def _retry(self, run, n):
                if n:
                    self._retry(run, n - 1)
                else:
                    self._store.save(run)

            def complete(self, run):
                self._retry(run, 3)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 10)]


# =========================================================================== "may" summaries

def test_helper_that_may_save_is_a_save_before_a_terminal_append():
    assert cl("""\
        class Runtime:
            def _maybe_commit(self, run):
                if run.dirty:
                    self._store.save(run)

            def complete(self, run):
                self._maybe_commit(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 8)]


def test_helper_that_surfaces_on_one_path_makes_the_handler_loud():
    assert cl("""\
        def report(exc, verbose):
            if verbose:
                logger.warning("append failed: %s", exc)

        def resume(ledger, store, run, rec, verbose):
            try:
                ledger.append(rec)
            except Exception as exc:
                report(exc, verbose)
            store.save(run)
        """, select=SWL) == []


def test_helper_that_counts_with_plus_equals_makes_the_handler_loud():
    assert cl("""\
        class Runtime:
            def _count_failure(self):
                self.append_failures += 1

            def resume(self, run, rec):
                try:
                    self._ledger.append(rec)
                except Exception:
                    self._count_failure()
                self._store.save(run)
        """, select=SWL) == []


def test_helper_that_only_logs_at_info_keeps_the_handler_silent():
    assert cl("""\
        def report(exc):
            logger.info("append failed: %s", exc)

        def resume(ledger, store, run, rec):
            try:
                ledger.append(rec)
            except Exception as exc:
                report(exc)
            store.save(run)
        """, select=SWL) == [("OC202", 6)]


def test_surface_helper_imported_from_another_module(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/alarms.py": """\
            import logging
            log = logging.getLogger(__name__)

            def loud(exc):
                log.error("ledger append failed: %s", exc)
            """,
        "pkg/run.py": """\
            from .alarms import loud

            def resume(ledger, store, run, rec):
                try:
                    ledger.append(rec)
                except Exception as exc:
                    loud(exc)
                store.save(run)

            def resume2(ledger, store, run, rec):
                try:
                    ledger.append(rec)
                except Exception as exc:
                    pass
                store.save(run)
            """,
    })
    assert run_tree(tmp_path, select=SWL) == [("pkg/run.py", 12, "OC202")]


# =========================================================================== markers at the call site

def test_marker_bound_by_a_local_assignment_at_the_call_site():
    assert cl("""\
        class Runtime:
            def _record(self, run, status):
                self._ledger.append(Record(run.id, status))

            def fail(self, run):
                status = Status.FAILED
                self._store.save(run)
                self._record(run, status)

            def step(self, run, status):
                self._store.save(run)
                self._record(run, status)
        """, select=SEQ) == [("OC101", 8), ("OC102", 12)]


def test_marker_at_the_call_site_of_a_save_only_helper_is_no_append():
    assert cl("""\
        class Runtime:
            def _commit(self, run, status):
                run.status = status
                self._store.save(run)

            def complete(self, run):
                self._ledger.append_terminal(run.id)
                self._commit(run, Status.COMPLETED)
                self._commit(run, Status.FAILED)
        """, select=SEQ + ["OC103"]) == []


def test_marker_at_the_call_site_of_a_helper_that_appends_two_calls_down():
    assert cl("""\
        class Runtime:
            def write_tree(self, rec):
                self._ledger.append(rec)

            def _record(self, run, status):
                self.write_tree(Record(run.id, status))

            def cancel(self, run):
                self._store.save(run)
                self._record(run, "run_cancelled")
        """, select=SEQ) == [("OC101", 10)]


# =========================================================================== nodes carrying several classes

def test_helper_with_append_then_save_called_after_a_save_is_clean():
    assert cl("""\
        class Runtime:
            def _sync(self, run, status):
                self._ledger.append(Record(run.id, status))
                self._store.save(run)

            def complete(self, run):
                self._store.save(run)
                self._sync(run, Status.COMPLETED)

            def step(self, run):
                self._store.save(run)
                self._sync(run, Status.RUNNING)
        """, select=SEQ) == []


def test_helper_with_save_then_append_is_reported_in_the_helper_only():
    assert cl("""\
        class Runtime:
            def _close(self, run):
                self._store.save(run)
                self._ledger.append_terminal(run.id)

            def complete(self, run):
                self._store.save(run)
                self._close(run)
        """, select=SEQ) == [("OC101", 4)]


def test_helper_carrying_save_and_append_then_a_later_append():
    # the later terminal append follows the helper's save: OC101 there, not at the helper
    assert cl("""\
        class Runtime:
            def _sync(self, run, rec):
                self._ledger.append(rec)
                self._store.save(run)

            def complete(self, run, rec):
                self._sync(run, rec)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 8)]


# =========================================================================== swallowed through helpers

def test_swallowed_helper_append_at_the_call_line():
    assert cl("""\
        class Runtime:
            def _record_resume(self, run):
                self._write_record(ResumeRecord(run.id))

            def _write_record(self, rec):
                self._ledger.append(rec)

            def resume(self, run):
                try:
                    self._record_resume(run)
                except Exception:
                    pass
                self._store.save(run)
        """, select=SWL) == [("OC202", 10)]


def test_swallowed_helper_with_marker_at_the_call_site_is_oc201():
    assert cl("""\
        class Runtime:
            def _record(self, run, status):
                self._ledger.append(Record(run.id, status))

            def fail(self, run):
                try:
                    self._record(run, Status.FAILED)
                except Exception:
                    pass
                self._store.save(run)
        """, select=SWL) == [("OC201", 7)]


def test_swallowed_save_helper_is_oc203_at_the_call_line():
    assert cl("""\
        def checkpoint(store, run):
            store.save(run)

        def tick(store, run):
            try:
                checkpoint(store, run)
            except BaseException:
                return None
        """, select=SWL) == [("OC203", 6)]


def test_helper_call_inside_a_suppressor_with():
    assert cl("""\
        class Runtime:
            def _record_resume(self, run):
                self._ledger.append(ResumeRecord(run.id))

            def resume(self, run):
                with best_effort():
                    self._record_resume(run)
                self._store.save(run)
        """, select=SWL) == [("OC202", 7)]


def test_helper_swallowing_inside_is_reported_inside_not_at_an_unprotected_call():
    assert cl("""\
        class Runtime:
            def _record_resume(self, run):
                try:
                    self._ledger.append(ResumeRecord(run.id))
                except Exception:
                    pass

            def resume(self, run):
                self._record_resume(run)
                self._store.save(run)
        """, select=SWL) == [("OC202", 4)]


# =========================================================================== at-most-once through helpers

def test_two_different_helpers_each_appending_terminal():
    assert cl("""\
        class Runtime:
            def _close(self, run):
                self._ledger.append_terminal(run.id)

            def _audit(self, run):
                self._journal.append(Record(run.id, "finished"))

            def complete(self, run):
                self._close(run)
                self._audit(run)
                self._store.save(run)
        """, select=["OC103"]) == [("OC103", 10)]


def test_same_terminal_helper_at_two_call_sites_but_once_in_a_loop():
    assert cl("""\
        class Runtime:
            def _close(self, run):
                self._ledger.append_terminal(run.id)

            def complete(self, run):
                self._close(run)
                self._close(run)
                self._store.save(run)

            def complete_all(self, runs):
                for run in runs:
                    self._close(run)
                    self._store.save(run)
        """, select=["OC103"]) == [("OC103", 7)]


# =========================================================================== summaries in with items, tests, loops

def test_summary_carried_into_a_with_item():
    assert cl("""\
        class Runtime:
            def _saving(self, run):
                self._store.save(run)
                return self._lock

            def step(self, run, rec):
                with self._saving(run):
                    self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 8)]


def test_summary_carried_into_an_if_test():
    assert cl("""\
        class Runtime:
            def _persist(self, run):
                self._store.save(run)
                return True

            def step(self, run, rec):
                if self._persist(run):
                    self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 8)]


def test_summary_carried_into_a_for_iterable_and_while_test():
    assert cl("""\
        class Runtime:
            def _flush(self, run):
                self._store.save(run)
                return []

            def step(self, run, rec):
                for item in self._flush(run):
                    pass
                self._ledger.append(rec)

            def step2(self, run, rec):
                while self._flush(run):
                    pass
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 9), ("OC102", 14)]


def test_summary_in_the_argument_runs_before_the_receiving_append():
    # arguments before the call: the helper saves, then the append receives its result
    assert cl("""\
        def saved_id(store, run):
            store.save(run)
            return run.id

        def step(store, ledger, run):
            ledger.append(saved_id(store, run))
        """, select=SEQ) == [("OC102", 6)]


# =========================================================================== things that contribute nothing

def test_function_passed_as_a_callback_is_not_called():
    assert cl("""\
        def commit(store, run):
            store.save(run)

        def complete(store, ledger, run, executor):
            executor.submit(commit, store, run)
            ledger.append_terminal(run.id)
        """, select=SEQ) == []


def test_lambda_calling_a_project_helper_contributes_nothing():
    assert cl("""\
        class Runtime:
            def _commit(self, run):
                self._store.save(run)

            def complete(self, run):
                self._on_done = lambda: self._commit(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == []


def test_uncalled_helper_in_another_module_contributes_nothing(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/ops.py": """\
            def commit(store, run):
                store.save(run)
            """,
        "pkg/run.py": """\
            from .ops import commit

            def complete(store, ledger, run):
                handlers = [commit]
                ledger.append_terminal(run.id)
                return handlers
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == []


# =========================================================================== unresolved calls: patterns only

def test_attribute_of_an_attribute_is_not_resolved():
    assert cl("""\
        class Helper:
            def helper(self, run):
                self._store.save(run)

        class Runtime:
            def helper(self, run):
                self._store.save(run)

            def complete(self, run):
                self.store.helper(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == []


def test_unresolved_call_still_matches_patterns():
    assert cl("""\
        class Runtime:
            def complete(self, run):
                self.helpers.save_run(run)
                undefined_helper(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 5)]


def test_class_attribute_call_on_a_class_name_resolves():
    # `Runtime.write_tree(...)` is not in semantics §Events's list, but the class is a project
    # class named in this module: ordercheck resolves it (docs/decisions.md), as a
    # user would expect of a staticmethod called through its class.
    assert cl("""\
        class Runtime:
            @staticmethod
            def write_tree(store, run):
                store.save(run)

        def complete(store, ledger, run):
            Runtime.write_tree(store, run)
            ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 8)]


def test_diamond_inheritance_follows_pythons_mro(tmp_path):
    # D(B, C), B(A), C(A): C's override comes before A's method in the MRO
    assert cl("""\
        class A:
            def persist(self, run):
                self._store.save(run)

        class B(A):
            pass

        class C(A):
            def persist(self, run):
                self._cache[run.id] = run

        class D(B, C):
            def finish(self, run):
                self.persist(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == []


# =========================================================================== module level

def test_module_level_call_of_an_imported_helper_under_main_guard(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/ops.py": """\
            def boot(store, run):
                store.save(run)
            """,
        "pkg/main.py": """\
            from .ops import boot

            if __name__ == "__main__":
                boot(STORE, RUN)
                LEDGER.append_terminal(RUN.id)
            """,
    })
    fs = tree_findings(tmp_path, select=SEQ)
    assert sorted((Path(f.path).resolve().relative_to(tmp_path.resolve()).as_posix(), f.span.line, f.code) for f in fs) == [("pkg/main.py", 5, "OC101")]


# =========================================================================== OC301 through helpers

def test_file_io_classes_travel_through_helpers():
    assert cl("""\
        import os

        def write(f, data):
            f.write(data)

        def sync(f):
            os.fsync(f.fileno())

        def maybe_sync(f, durable):
            if durable:
                os.fsync(f.fileno())

        def publish(tmp, dst):
            os.replace(tmp, dst)

        def bad(f, data, tmp, dst):
            write(f, data)
            publish(tmp, dst)

        def good(f, data, tmp, dst):
            write(f, data)
            sync(f)
            publish(tmp, dst)

        def may(f, data, tmp, dst, durable):
            write(f, data)
            maybe_sync(f, durable)
            publish(tmp, dst)
        """, select=["OC301"]) == [("OC301", 18)]


# =========================================================================== parse errors

def test_syntax_error_in_one_file_others_and_their_summaries_still_work(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/ops.py": """\
            def commit(store, run):
                store.save(run)
            """,
        "pkg/broken.py": """\
            def persist(store, run)
                store.save(run)
            """,
        "pkg/run.py": """\
            from .ops import commit
            from .broken import persist

            def complete(store, ledger, run):
                commit(store, run)
                ledger.append_terminal(run.id)

            def complete2(store, ledger, run):
                persist(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    found = run_tree(tmp_path, select=SEQ + ["OC900"])
    assert [t for t in found if t[2] == "OC900"] and all(t[0] == "pkg/broken.py" for t in found if t[2] == "OC900")
    assert [t for t in found if t[2] != "OC900"] == [("pkg/run.py", 6, "OC101")]


# =========================================================================== CLI surfaces

RUNTIME_STORE = """\
class Runtime:
    def __init__(self, store, ledger):
        self._store = store
        self._ledger = ledger

    def _record_resume(self, run):
        self._write_record(ResumeRecord(run.id))

    def _write_record(self, rec):
        self._ledger.append(rec)
"""

RUNTIME_ENGINE = """\
from .store import Runtime


class Engine(Runtime):
    def resume(self, run):
        self._store.save(run)
        self._record_resume(run)
"""


def _cli(cwd: Path, *args):
    proc = subprocess.run([sys.executable, "-m", "ordercheck", "--no-cache", *args], cwd=cwd,
                          capture_output=True, timeout=120)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def _runtime_project(tmp_path: Path) -> Path:
    write_tree(tmp_path, {"runtime/__init__.py": "", "runtime/store.py": RUNTIME_STORE,
                      "runtime/engine.py": RUNTIME_ENGINE})
    return tmp_path


def test_cli_json_related_information_names_the_callee_statement(tmp_path):
    root = _runtime_project(tmp_path)
    code, out, err = _cli(root, "--format", "json", "--select", "OC102", "runtime")
    assert code == 1, (out, err)
    doc = json.loads(out)
    diags = [(f["path"], d) for f in doc["files"] for d in f["diagnostics"]]
    assert [(Path(p).as_posix(), d["code"], d["range"]["start"]["line"]) for p, d in diags] == [
        ("runtime/engine.py", "OC102", 6)]
    (_, d), = diags
    store_uri = (root / "runtime" / "store.py").resolve().as_uri()
    rel = [r for r in d.get("relatedInformation", []) if r["location"]["uri"] == store_uri]
    assert rel, d.get("relatedInformation")
    assert rel[0]["location"]["range"]["start"]["line"] == 9  # `self._ledger.append(rec)`, line 10
    assert "Runtime._record_resume" in rel[0]["message"], rel


def test_cli_text_witness_shows_via_callee_statement(tmp_path):
    root = _runtime_project(tmp_path)
    code, out, err = _cli(root, "--select", "OC102", "--color", "never", "runtime")
    assert code == 1, (out, err)
    assert "runtime/engine.py:7:9: OC102" in out, out
    via_lines = [ln for ln in out.splitlines() if "via Runtime._record_resume" in ln]
    assert via_lines, out
    assert "self._ledger.append(" in via_lines[0], via_lines
    assert "runtime/store.py:10" in via_lines[0], via_lines


def test_cli_graph_names_the_callee_statement(tmp_path):
    root = _runtime_project(tmp_path)
    code, out, err = _cli(root, "--graph", "runtime/engine.py:Engine.resume", "--select", "OC102")
    assert code == 0, (out, err)
    assert out.lstrip().startswith("digraph"), out
    assert "Runtime._record_resume" in out, out
    assert "store.py:10" in out, out


# =========================================================================== what a helper "may" perform

def test_unreachable_append_in_a_helper_is_on_no_path():
    # "every event class that the callee may perform on some path": code after an
    # unconditional return is on none
    assert cl("""\
        def note(ledger, run):
            return None
            ledger.append_event(run.id)

        def step(store, ledger, run):
            store.save(run)
            note(ledger, run)
        """, select=SEQ) == []


def test_lambda_and_uncalled_nested_def_inside_a_helper_carry_nothing():
    assert cl("""\
        def make_callbacks(store, run):
            cb = lambda: store.save(run)
            def later():
                store.save(run)
            return cb, later

        def complete(store, ledger, run):
            make_callbacks(store, run)
            ledger.append_terminal(run.id)
        """, select=SEQ) == []


def test_nested_function_called_inside_a_helper_is_carried():
    assert cl("""\
        def commit(store, run):
            def inner():
                store.save(run)
            inner()

        def complete(store, ledger, run):
            commit(store, run)
            ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 8)]


def test_function_level_import_of_a_project_function(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/ops.py": """\
            def commit(store, run):
                store.save(run)
            """,
        "pkg/run.py": """\
            def complete(store, ledger, run):
                from .ops import commit
                commit(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("pkg/run.py", 4, "OC101")]


def test_marker_in_a_keyword_value_at_the_call_site_but_not_in_a_keyword_name():
    assert cl("""\
        class Runtime:
            def _record(self, run, **kw):
                self._ledger.append(Record(run.id, kw))

            def fail(self, run):
                self._store.save(run)
                self._record(run, status=Status.FAILED)

            def step(self, run, flag):
                self._store.save(run)
                self._record(run, failed=flag)
        """, select=SEQ) == [("OC101", 7), ("OC102", 11)]


def test_same_class_name_in_two_modules_bases_are_not_mixed_up(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """\
            class Base:
                def _commit(self, run):
                    self._store.save(run)
            """,
        "pkg/b.py": """\
            class Base:
                def _commit(self, run):
                    self._cache[run.id] = run
            """,
        "pkg/impl.py": """\
            from .b import Base

            class Impl(Base):
                def complete(self, run):
                    self._commit(run)
                    self._ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == []


def test_self_method_of_an_unrelated_class_is_not_used():
    assert cl("""\
        class Saver:
            def _commit(self, run):
                self._store.save(run)

        class Runtime:
            def complete(self, run):
                self._commit(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == []


def test_long_helper_chain_converges():
    chain = "\n".join(f"def h{i}(store, run):\n    h{i + 1}(store, run)\n" for i in range(60))
    src = chain + "def h60(store, run):\n    store.save(run)\n\n" \
        "def complete(store, ledger, run):\n    h0(store, run)\n    ledger.append_terminal(run.id)\n"
    line = src.splitlines().index("    ledger.append_terminal(run.id)") + 1
    assert cl(src, select=SEQ) == [("OC101", line)]


def test_module_names_follow_the_package_rule_not_the_given_root(tmp_path):
    # only the package folder is given: its modules are still `pkg.*`
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/ops.py": """\
            def commit(store, run):
                store.save(run)
            """,
        "pkg/run.py": """\
            from pkg.ops import commit

            def complete(store, ledger, run):
                commit(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    fs = tree_findings(tmp_path / "pkg", select=SEQ)
    assert sorted((Path(f.path).resolve().relative_to(tmp_path.resolve()).as_posix(), f.span.line, f.code) for f in fs) == [("pkg/run.py", 5, "OC101")]
