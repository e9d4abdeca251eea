"""A call to a project function carries what the callee may do (docs/semantics.md §Events, summaries).

Corner cases written from the contract alone: every expectation was decided from the
semantics before running ordercheck.
"""


from checkutil import SEQ, SWL, check_source, cl, codes_lines, run_tree, write_tree


# ====================================================================== §2 summaries
def test_self_method_from_project_base_class():
    assert cl("""\
        class Base:
            def _commit(self, run):
                self._store.save(run)

        class Runtime(Base):
            def complete(self, run):
                self._commit(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 8)]


def test_method_on_a_fresh_instance_resolves_by_its_class():
    # `Saver().persist(run)`: the class call carries __init__ (nothing), and the
    # method call on the instance resolves by the class (docs/decisions.md "Receiver
    # types: aliases, defaults, with, inheritance, self"); a lower-case factory's
    # result stays unresolved.
    assert cl("""\
        class Saver:
            def persist(self, run):
                self._store.save(run)

        def complete(ledger, run):
            Saver().persist(run)
            ledger.append(run.id)

        def factory(ledger, run, make_saver):
            make_saver().persist(run)
            ledger.append(run.id)
        """, select=SEQ) == [("OC102", 7)]


def test_nested_function_called_later_in_loop():
    assert cl("""\
        def flush(self, run, recs):
            def persist():
                self._store.save(run)

            for rec in recs:
                persist()
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 7)]


def test_mutual_recursion_converges():
    assert cl("""\
        def _a(store, run, n):
            if n:
                _b(store, run, n - 1)

        def _b(store, run, n):
            if n % 2:
                store.save(run)
            _a(store, run, n)

        def go(store, ledger, run):
            _a(store, run, 3)
            ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 12)]


def test_summary_may_save_on_one_path_counts_as_unless_after():
    assert cl("""\
        class Runtime:
            def _maybe_commit(self, run):
                if run.dirty:
                    self._store.save(run)

            def step(self, run, rec):
                self._store.save(run)
                self._ledger.append(rec)
                self._maybe_commit(run)
        """, select=SEQ) == []


def test_node_with_save_and_append_followed_by_append():
    assert cl("""\
        class Runtime:
            def _sync(self, run, rec):
                self._ledger.append(rec)
                self._store.save(run)

            def step(self, run, rec):
                self._sync(run, rec)
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 8)]


def test_node_with_terminal_append_and_save_swallowed_counts_as_each():
    assert cl("""\
        class Runtime:
            def _close(self, run):
                self._ledger.append_terminal(run.id)
                self._store.save(run)

            def complete(self, run):
                try:
                    self._close(run)
                except Exception:
                    pass
        """, select=SWL) == [("OC201", 8), ("OC203", 8)]


def test_helper_terminal_at_call_site_twice_is_duplicate():
    assert cl("""\
        class Runtime:
            def _record(self, run, status):
                self._ledger.append(run.id, status)

            def fail(self, run, fatal):
                self._record(run, Status.FAILED)
                if fatal:
                    self._record(run, Status.ABORTED)
                self._store.save(run)
        """, select=["OC103"]) == [("OC103", 8)]


def test_relative_import_from_parent_package_and_module_import(tmp_path):
    write_tree(tmp_path, {
        "rt/__init__.py": "",
        "rt/store_ops.py": """\
            def persist(store, run):
                store.save(run)
            """,
        "rt/engine/__init__.py": "",
        "rt/engine/complete.py": """\
            from ..store_ops import persist
            from .. import store_ops

            def complete(store, ledger, run):
                persist(store, run)
                ledger.append_terminal(run.id)

            def complete2(store, ledger, run):
                store_ops.persist(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [
        ("rt/engine/complete.py", 6, "OC101"),
        ("rt/engine/complete.py", 10, "OC101"),
    ]


def test_module_body_calls_project_function():
    assert cl("""\
        def boot(store):
            store.save(BOOT)

        boot(STORE)
        ledger.append(BOOT.id)
        """, select=SEQ) == [("OC102", 5)]


# ====================================================================== more summaries
def test_class_call_inherits_project_base_init():
    assert cl("""\
        class Commit:
            def __init__(self, store, run):
                store.save(run)

        class TerminalCommit(Commit):
            pass

        def complete(store, ledger, run):
            TerminalCommit(store, run)
            ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 10)]


def test_super_init_carries_base_init():
    assert cl("""\
        class Commit:
            def __init__(self, store, run):
                store.save(run)

        class Close(Commit):
            def __init__(self, store, ledger, run):
                super().__init__(store, run)
                ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 8)]


def test_surface_through_class_init():
    assert cl("""\
        class Alarm:
            def __init__(self, msg):
                logger.error(msg)

        def resume(ledger, store, run, rec):
            try:
                ledger.append(rec)
            except Exception:
                Alarm("append failed")
            store.save(run)
        """, select=SWL) == []


def test_duplicates_inside_helper_reported_in_helper_only():
    assert cl("""\
        class Runtime:
            def _close(self, run):
                self._ledger.append_terminal(run.id, Status.COMPLETED)
                self._ledger.append_terminal(run.id, Status.ENDED)

            def complete(self, run):
                self._close(run)
                self._store.save(run)

            def complete_all(self, runs):
                for run in runs:
                    self._close(run)
                    self._store.save(run)
        """, select=["OC103"]) == [("OC103", 4)]


def test_helper_swallowing_itself_and_caller_swallowing_again():
    assert cl("""\
        class Runtime:
            def _checkpoint(self, run):
                with best_effort():
                    self._store.save(run)

            def tick(self, run):
                try:
                    self._checkpoint(run)
                except Exception:
                    pass
        """, select=SWL) == [("OC203", 4)]  # contract v2: the helper's save failure cannot escape it


def test_fully_dotted_project_module_import(tmp_path):
    write_tree(tmp_path, {
        "rt/__init__.py": "",
        "rt/store_ops.py": """\
            def persist(store, run):
                store.save(run)
            """,
        "rt/run.py": """\
            import rt.store_ops

            def complete(store, ledger, run):
                rt.store_ops.persist(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("rt/run.py", 5, "OC101")]


def test_package_reexport_of_class_carries_init(tmp_path):
    write_tree(tmp_path, {
        "rt/__init__.py": "from .commit import Commit\n",
        "rt/commit.py": """\
            class Commit:
                def __init__(self, store, run):
                    store.save(run)
            """,
        "app.py": """\
            from rt import Commit

            def complete(store, ledger, run):
                Commit(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 5, "OC101")]


# ====================================================================== summaries, harder
def test_self_call_inside_nested_function_of_a_method():
    assert cl("""\
        class Runtime:
            def _commit(self, run):
                self._store.save(run)

            def complete(self, run):
                def finish():
                    self._commit(run)
                    self._ledger.append_terminal(run.id)
                finish()
        """, select=SEQ) == [("OC101", 8)]


def test_bound_method_alias_is_resolved():
    # semantics §Events aliases: `commit(run)` resolves as `self._commit(run)`
    assert cl("""\
        class Runtime:
            def _commit(self, run):
                self._store.save(run)

            def complete(self, run):
                commit = self._commit
                commit(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 8)]


def test_summary_of_self_method_defined_in_subclass_only_is_not_used_by_base():
    # `self.m()` resolves in the class and its project bases, not in subclasses
    assert cl("""\
        class Base:
            def complete(self, run):
                self._commit(run)
                self._ledger.append_terminal(run.id)

        class Runtime(Base):
            def _commit(self, run):
                self._store.save(run)
        """, select=SEQ) == []


def test_assert_message_runs_only_on_failure_and_then_raises():
    # the message's append happens only on the way to AssertionError: RAISE only
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            assert run.ok, self._ledger.append(rec)
        """, select=SEQ) == []


def test_append_in_handler_swallowed_by_finally_return():
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._wake(run)
            except WakeError:
                self._ledger.append(rec)
            finally:
                return run
        """, select=SWL) == [("OC202", 5)]


def test_two_swallowing_handlers_give_one_finding():
    table = {"swallow-types": ["LedgerConflict"]}
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._ledger.append(rec)
            except LedgerConflict:
                pass
            except Exception:
                pass
            self._store.save(run)
        """, select=SWL, table=table) == [("OC202", 3)]


def test_helper_with_its_own_fsync_barrier_covers_its_write():
    assert cl("""\
        import os

        def _write_synced(fh, data):
            fh.write(data)
            os.fsync(fh.fileno())

        def _write_only(fh, data):
            fh.write(data)

        def save_state(fh, tmp, path, data):
            _write_synced(fh, data)
            os.replace(tmp, path)

        def save_state_unsynced(fh, tmp, path, data):
            _write_only(fh, data)
            os.replace(tmp, path)
        """, select=["OC301"]) == [("OC301", 16)]


def test_star_import_from_project_module(tmp_path):
    write_tree(tmp_path, {
        "rt/__init__.py": "",
        "rt/ops.py": """\
            def persist(store, run):
                store.save(run)
            """,
        "rt/run.py": """\
            from .ops import *

            def complete(store, ledger, run):
                persist(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert run_tree(tmp_path, select=SEQ) == [("rt/run.py", 5, "OC101")]


def test_return_value_attribute_after_save_can_raise_into_handler():
    assert cl("""\
        def step(self, run, rec):
            try:
                return self._store.save(run).version
            except AttributeError:
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 5)]


def test_handler_unreachable_when_try_body_cannot_raise():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            try:
                done = True
            except Exception:
                self._ledger.append(rec)
            return done
        """, select=SEQ) == []


def test_surface_after_the_handler_does_not_make_it_loud():
    assert cl("""\
        def resume(self, run, rec):
            failed = False
            try:
                self._ledger.append(rec)
            except Exception:
                failed = True
            if failed:
                logger.warning("append failed")
            self._store.save(run)
        """, select=SWL) == [("OC202", 4)]




def test_quiet_reraise_into_a_silent_outer_handler_is_swallowed():
    # `except Exception: raise` reports nothing; the outer `pass` then swallows the
    # failure silently. A handler that logs before re-raising is loud (decisions.md).
    findings = check_source('''
        def f(store, run, log):
            try:
                try:
                    store.save(run)
                except Exception:
                    raise
            except Exception:
                pass

        def g(store, run, log):
            try:
                try:
                    store.save(run)
                except Exception:
                    log.warning("save failed")
                    raise
            except Exception:
                pass
        ''', select=["OC203"])
    assert codes_lines(findings) == [("OC203", 5)]


def test_a_report_that_raises_into_a_returning_finally_is_no_finding():
    # (held-out set 178, decisions.md "A loud inner handler that re-raises into a silent
    # outer one"): the logging call's own failure caught further out is a double fault;
    # a failure that leaves the clause before any report is not
    findings = check_source('''
        import logging
        import traceback
        logger = logging.getLogger(__name__)

        def f(store, run):
            try:
                store.save(run)
            except Exception as err:
                logger.error("failed: %s", err)
            finally:
                return {"status": "done"}

        def g(store, run):
            try:
                store.save(run)
            except Exception:
                logger.error(traceback.format_exc())
            finally:
                return {"status": "done"}
        ''', select=["OC203"])
    assert codes_lines(findings) == [("OC203", 16)]
