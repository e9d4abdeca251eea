"""semantics §Events "Summaries": a call to a project function carries what the callee may do."""

from checkutil import SEQ, SWL, check_source, codes_lines, run_tree, write_tree


def test_self_method_carries_save_and_witness_names_the_callee():
    findings = check_source('''
        class Runtime:
            def _finish(self, run):
                self._store.save(run)

            def tick(self, run):
                self._finish(run)
                self._ledger.append_terminal(run.id)
        ''', select=["OC101"])
    assert codes_lines(findings) == [("OC101", 8)]
    (f,) = findings
    save = [s for s in f.witness if s.kind == "save"][0]
    assert save.via == "Runtime._finish → self._store.save(run) at example.py:4"
    assert any("via Runtime._finish" in r.message for r in f.related)


def test_base_class_super_and_cls_methods(tmp_path):
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/base.py": '''
        class Base:
            def persist(self, run):
                self._store.save(run)

            @classmethod
            def record(cls, run):
                cls.ledger.append_terminal(run)
        ''', "pkg/impl.py": '''
        from .base import Base

        class Impl(Base):
            def persist(self, run):
                super().persist(run)

            def go(self, run):
                self.persist(run)
                self.record(run)
        '''})
    assert run_tree(tmp_path, SEQ + SWL) == [("pkg/impl.py", 10, "OC101")]


def test_imported_functions_relative_absolute_alias_and_reexport(tmp_path):
    write_tree(tmp_path, {
        "app/__init__.py": "from .store import save_it\n",
        "app/store.py": '''
        def save_it(store, run):
            store.save_run(run)

        def log_it(ledger, run):
            ledger.append_terminal(run)
        ''',
        "app/a.py": '''
        from .store import save_it, log_it
        def f(s, l, r):
            save_it(s, r)
            log_it(l, r)
        ''',
        "app/b.py": '''
        import app.store as st
        def f(s, l, r):
            st.save_it(s, r)
            st.log_it(l, r)
        ''',
        "app/c.py": '''
        from app import save_it
        from . import store
        def f(s, l, r):
            save_it(s, r)
            store.log_it(l, r)
        ''',
    })
    assert run_tree(tmp_path, SEQ + SWL) == [("app/a.py", 5, "OC101"), ("app/b.py", 5, "OC101"), ("app/c.py", 6, "OC101")]


def test_nested_function_class_init_and_recursion():
    findings = check_source('''
        class Saver:
            def __init__(self, store, run):
                store.save(run)

        def ping(n, ledger):
            if n:
                pong(n - 1, ledger)

        def pong(n, ledger):
            ping(n, ledger)
            ledger.append_event(n)

        def f(store, ledger, run):
            def inner():
                store.save(run)
            inner()
            ledger.append_event(run)

        def g(store, ledger, run):
            Saver(store, run)
            ping(3, ledger)
        ''', select=["OC102"])
    assert codes_lines(findings) == [("OC102", 18), ("OC102", 22)]


def test_lambdas_and_uncalled_functions_contribute_nothing():
    findings = check_source('''
        def f(store, ledger, run):
            cb = lambda: store.save(run)
            def later():
                store.save(run)
            ledger.append_terminal(run)
        ''', select=["OC101"])
    assert findings == []


def test_surface_travels_through_helpers():
    findings = check_source('''
        import logging
        logger = logging.getLogger(__name__)

        def warn(exc):
            logger.warning("append failed: %s", exc)

        def f(ledger, run):
            try:
                ledger.append_terminal(run)
            except Exception as exc:
                warn(exc)

        def g(ledger, run):
            try:
                ledger.append_terminal(run)
            except Exception:
                pass
        ''', select=["OC201"])
    assert codes_lines(findings) == [("OC201", 16)]


def test_terminal_marker_at_the_call_site_of_a_helper():
    findings = check_source('''
        class R:
            def _record(self, run, status):
                self._ledger.append(Record(run.id, status))

            def fail(self, run):
                self._store.save(run)
                self._record(run, Status.FAILED)

            def step(self, run):
                self._store.save(run)
                self._record(run, Status.RUNNING)
        ''', select=["OC101", "OC102"])
    assert codes_lines(findings) == [("OC101", 8), ("OC102", 12)]


def test_a_call_never_pairs_with_itself_round_a_loop():
    findings = check_source('''
        def commit(store, ledger, run):
            ledger.append_event(run)
            store.save(run)

        def f(store, ledger, runs):
            for run in runs:
                commit(store, ledger, run)
        ''', select=["OC102"])
    assert findings == []


def test_two_files_with_the_same_module_name_keep_their_own_summaries(tmp_path):
    # scripts folders without __init__.py: both files are module "job"
    write_tree(tmp_path, {
        "a/job.py": '''
        def helper(store, run):
            store.save(run)

        def main(store, ledger, run):
            helper(store, run)
            ledger.append_terminal(run.id)
        ''',
        "b/job.py": '''
        def helper(ledger, run):
            ledger.append_event(run.id)

        def main(store, ledger, run):
            store.save(run)
            helper(ledger, run)
        ''',
    })
    assert run_tree(tmp_path, SEQ + SWL) == [("a/job.py", 7, "OC101"), ("b/job.py", 7, "OC102")]


def test_a_property_getter_and_setter_keep_their_summaries():
    findings = check_source('''
        class R:
            def _finish(self, run):
                self._ledger.append_terminal(run)

            @property
            def state(self):
                self._store.save(self.run)
                self._finish(self.run)

            @state.setter
            def state(self, value):
                self.run = value
        ''', select=["OC101"])
    assert codes_lines(findings) == [("OC101", 9)]


def test_a_dotted_name_nobody_imported_is_not_a_project_module(tmp_path):
    write_tree(tmp_path, {
        "audit.py": '''
        def record(ledger, r):
            ledger.append_event(r)
        ''',
        "job.py": '''
        def step(store, audit, run):
            store.save(run)
            audit.record(run)
        ''',
    })
    assert run_tree(tmp_path, SEQ + SWL) == []


def test_markers_inside_a_recursive_cycle_reach_every_member():
    findings = check_source('''
        class R:
            def a(self, run, n):
                if n:
                    self.b(run, n - 1, Status.FAILED)

            def b(self, run, n, status):
                self._ledger.append(status)
                if n:
                    self.a(run, n)

            def use(self, run):
                self._store.save(run)
                self.b(run, 1, None)
        ''', select=["OC101", "OC102"])
    assert codes_lines(findings) == [("OC101", 14)]
