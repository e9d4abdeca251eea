"""A lock's ``with`` exit cannot raise (docs/decisions.md, "``with`` exits"; a
conformance probe, session 31): releasing it is all its exit does, so it is no point
between the body's save and a handler. Any other manager's exit still can."""
from __future__ import annotations

import pytest
from checkutil import cl

from ordercheck.frontend.resolution import is_lock

ALL = ["OC101", "OC102", "OC103", "OC201", "OC202", "OC203"]


@pytest.mark.parametrize("text", ["self._lock", "lock", "state_lock", "threading.RLock", "asyncio.Semaphore",
                                  "self._stateLock", "self._cv", "self.condition", "self._mutex",
                                  "self._lock.acquire()", "lock.acquire()", "FileLock().acquire()",
                                  "self._rw_lock.acquire_read()", "rwlock.acquire_write()"])
def test_locks_by_name(text):
    assert is_lock(text)


@pytest.mark.parametrize("text", ["self.clock", "block", "lock_file", "self._uow", "open", "self.locker",
                                  "session.begin", "self._locks", "pool.acquire()", "acquire()", "self.acquire()"])
def test_not_locks(text):
    assert not is_lock(text)


SRC = """
    class Runtime:
        def a(self, run):
            try:
                with {m}:
                    self._ledger.append_terminal(run.id)
            except Exception:
                self._ledger.append_record(RunFailed(run.id))
                raise

        def c(self, run):
            try:
                with {m}:
                    self._store.save(run)
            except Exception:
                self._ledger.append_record(SaveSkipped(run.id))
"""


def test_a_lock_exit_is_no_point_after_the_body():
    assert cl(SRC.format(m="self._lock"), ALL) == [("OC203", 14)]
    assert cl(SRC.format(m="threading.Lock()"), ALL) == [("OC203", 14)]
    assert cl(SRC.format(m="self._lock.acquire(timeout=10)"), ALL) == [("OC203", 14)]  # (held-out set 51)
    # a pool's connection is no lock: its exit can raise
    assert cl(SRC.format(m="self._pool.acquire()"), ALL) == [("OC102", 16), ("OC103", 8), ("OC203", 14)]


def test_any_other_exit_still_can_raise_after_the_body():
    # the manager's exit can fail after the save or the terminal append took effect
    assert cl(SRC.format(m="self._uow"), ALL) == [("OC102", 16), ("OC103", 8), ("OC203", 14)]


def test_a_lock_in_a_helper_does_not_put_a_save_on_its_raise():
    src = """
        import logging
        logger = logging.getLogger(__name__)

        class Runtime:
            def _try_save(self, run):
                with self._lock:
                    try:
                        self._store.save(run)
                    except Exception:
                        self._ledger.append_record(SaveFailed(run.id))
                        raise

            def step(self, parent, run):
                self._store.save(parent)
                try:
                    self._try_save(run)
                except Exception:
                    logger.warning("child save failed")
    """
    assert cl(src, ["OC101"]) == [("OC101", 17)]
    assert cl(src.replace("with self._lock:", "with self._uow:"), ["OC101"]) == []


def test_a_project_manager_named_like_a_lock_runs_its_own_exit():
    # (an adversarial review, session 31: the name alone exempted a project manager's
    # exit, which saves after the body, from raising)
    src = """
        from contextlib import contextmanager

        class Runtime:
            @contextmanager
            def _lock(self):
                yield
                self.checkpoint_store.flush()

            def c(self, store, ledger, run):
                try:
                    with self._lock():
                        store.save(run)
                except Exception:
                    ledger.append(run)

        class StateLock:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.flush_to_disk()

        class Other:
            def __init__(self):
                self._lock = StateLock()

            def c(self, store, ledger, run):
                try:
                    with self._lock:
                        store.save(run)
                except Exception:
                    ledger.append(run)
    """
    assert cl(src, ["OC102"]) == [("OC102", 15), ("OC102", 33)]


def test_a_project_lock_through_a_property_or_a_factory_runs_its_own_exit():
    # (a review, session 31) the class a property's or a factory's return annotation
    # names, or that every `return` constructs, is the manager the `with` enters
    src = """
        class StateLock:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.flush_to_disk()

        def make_state_lock() -> StateLock:
            return acquire_somehow()

        class Svc:
            @property
            def _lock(self) -> StateLock:
                return StateLock()

            def _new_lock(self):
                return StateLock()

            def _plain_lock(self):
                return threading.Lock()

            def a(self, store, ledger, run):
                try:
                    with self._lock:
                        store.save(run)
                except Exception:
                    ledger.append(run)

            def b(self, store, ledger, run):
                try:
                    with self._new_lock():
                        store.save(run)
                except Exception:
                    ledger.append(run)

            def c(self, store, ledger, run):
                try:
                    with make_state_lock():
                        store.save(run)
                except Exception:
                    ledger.append(run)

            def d(self, store, ledger, run):
                try:
                    with self._plain_lock():
                        store.save(run)
                except Exception:
                    ledger.append(run)
    """
    assert cl(src, ["OC102"]) == [("OC102", 28), ("OC102", 35), ("OC102", 42)]


def test_an_instances_enter_returning_another_class_keeps_the_instance_as_the_manager():
    # (a review, session 32) `with self._writer:` enters the writer: what its `__enter__`
    # returns (another class, a plain one, the annotated base) is only the `as` value
    src = """
        class Batch:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

        class Connection:
            def execute(self, sql):
                return sql

        class Resource:
            def __enter__(self) -> "Resource":
                return self

            def __exit__(self, *exc):
                return False

        class BatchWriter:
            def __init__(self, store, run):
                self._store = store
                self.run = run

            def __enter__(self) -> Batch:
                return Batch()

            def __exit__(self, *exc):
                self._store.save(self.run)

        class Pool(BatchWriter):
            def __enter__(self) -> Connection:
                return Connection()

        class CheckpointWriter(Resource):
            def __init__(self, store, run):
                self._store = store
                self.run = run

            def __exit__(self, *exc):
                self._store.save(self.run)

        class Runtime:
            def __init__(self, store, ledger, run):
                self._ledger = ledger
                self._writer = BatchWriter(store, run)
                self._pool = Pool(store, run)
                self._checkpoint = CheckpointWriter(store, run)

            def writer(self, run):
                with self._writer:
                    run.advance()
                self._ledger.append_terminal(run.id)

            def local(self, store, run):
                writer = BatchWriter(store, run)
                with writer as batch:
                    batch.add(run)
                self._ledger.append_terminal(run.id)

            def pool(self, run):
                with self._pool as conn:
                    conn.execute("update runs")
                self._ledger.append_terminal(run.id)

            def checkpoint(self, run):
                with self._checkpoint:
                    run.advance()
                self._ledger.append_terminal(run.id)
    """
    assert cl(src, ["OC101"]) == [("OC101", 53), ("OC101", 59), ("OC101", 64), ("OC101", 69)]


def test_a_project_lock_whose_enter_returns_a_handle_still_runs_its_exit():
    src = """
        class LockHandle:
            def __init__(self, path):
                self.path = path

        class StateLock:
            def __init__(self, path):
                self.path = path

            def __enter__(self) -> LockHandle:
                return LockHandle(self.path)

            def __exit__(self, *exc):
                self.flush_to_disk()

        class Runtime:
            def __init__(self, path):
                self._lock = StateLock(path)

            def step(self, store, ledger, run):
                try:
                    with self._lock:
                        store.save(run)
                except Exception:
                    ledger.append(run)
    """
    assert cl(src, ["OC102"]) == [("OC102", 25)]


def test_a_lock_from_a_classmethod_factory_or_an_unannotated_property_runs_its_exit():
    # `-> Self` and `return cls()` are the class itself; a property every `return` of
    # which constructs the lock is one, annotated or not
    src = """
        from typing import Self

        class StateLock:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.flush_to_disk()

            @classmethod
            def shared(cls, path) -> Self:
                return acquire(path)

            @classmethod
            def at(cls, path):
                return cls()

        class Svc:
            @property
            def _lock(self):
                return StateLock()

            def a(self, store, ledger, run):
                try:
                    with self._lock:
                        store.save(run)
                except Exception:
                    ledger.append(run)

            def b(self, store, ledger, run):
                try:
                    with StateLock.shared(run.path):
                        store.save(run)
                except Exception:
                    ledger.append(run)

            def c(self, store, ledger, run):
                try:
                    with StateLock.at(run.path):
                        store.save(run)
                except Exception:
                    ledger.append(run)
    """
    assert cl(src, ["OC102"]) == [("OC102", 29), ("OC102", 36), ("OC102", 43)]


def test_a_with_over_a_method_returning_self_runs_the_instances_exit():
    # (held-out set 143, trytond's `with Transaction().start(db, user):`) a method whose
    # every `return` is `return self` gives the instance it is called on, as `-> Self`
    # does: the class's exit (a commit through `stop`) runs at the `with`'s end
    src = """
        class Transaction:
            def start(self, db):
                self.db = db
                return self

            def maybe(self, db):
                if db:
                    return self
                return None

            def __enter__(self):
                return self

            def __exit__(self, typ, value, tb):
                self.stop(typ is None)

            def stop(self, commit):
                if commit:
                    self.db.save_state()

        def run(ledger, db):
            with Transaction().start(db):
                pass
            ledger.append_event("done")

        def other(ledger, db):
            with Transaction().maybe(db):
                pass
            ledger.append_event("done")
    """
    assert cl(src, ["OC102"]) == [("OC102", 25)]


def test_only_an_instance_methods_return_self_on_every_way_gives_the_instance():
    # (a review) a staticmethod's first parameter is no instance, a classmethod's
    # `return cls` is the class, and a method that may fall off its end returns None
    src = """
        class Store:
            @staticmethod
            def checked(conn):
                return conn

            @classmethod
            def klass(cls, conn):
                return cls

            def start(self, db):
                if db:
                    return self

            def __enter__(self):
                return self

            def __exit__(self, typ, value, tb):
                self.db.save_state()

        def a(ledger, conn):
            with Store.checked(conn):
                pass
            ledger.append_event("done")

        def b(ledger, conn):
            with Store.klass(conn):
                pass
            ledger.append_event("done")

        def c(ledger, conn):
            with Store().start(conn):
                pass
            ledger.append_event("done")
    """
    assert cl(src, ["OC102"]) == []


def test_a_method_that_returns_self_on_every_branch_gives_the_instance():
    # (a second review) `if`/`else` both returning self, a `try` whose handler raises
    src = """
        class Tx:
            def start(self, db):
                if db is None:
                    return self
                else:
                    self.db = db
                    return self

            def begin(self, db):
                try:
                    self.db = db.connect()
                    return self
                except OSError:
                    raise

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.db.save_state()

        def a(ledger, db):
            with Tx().start(db):
                pass
            ledger.append_event("done")

        def b(ledger, db):
            with Tx().begin(db):
                pass
            ledger.append_event("done")
    """
    assert cl(src, ["OC102"]) == [("OC102", 26), ("OC102", 31)]


def test_an_inherited_self_factory_called_on_a_subclass_makes_the_subclass():
    # (a review, session 33) `SubLock.at(path)` runs `StateLock.at`, whose `-> Self` is
    # the class it is called on: the subclass's own exit (a save) runs at the `with`'s end
    src = """
        from typing import Self

        class StateLock:
            @classmethod
            def at(cls, path) -> Self:
                return cls()

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

        class SubLock(StateLock):
            def __exit__(self, *exc):
                self.store.save(2)
                return False

        def step(path, ledger, run):
            with SubLock.at(path):
                pass
            ledger.append_terminal(run)

        def base(path, ledger, run):
            with StateLock.at(path):
                pass
            ledger.append_terminal(run)
    """
    assert cl(src, ["OC101"]) == [("OC101", 23)]


BASE = '''
    class StateLock:
        def __init__(self, store, run):
            self.store = store
            self.run = run

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.store.save(self.run)
            return False


    class Base:
        def __init__(self, store, run):
            self._lock: StateLock = StateLock(store, run)
            self._guard = StateLock(store, run)
'''


@pytest.mark.parametrize("attr", ["_lock", "_guard"])
def test_a_with_over_an_attribute_only_a_base_in_another_file_types(tmp_path, attr):
    """Session 34: `with self._lock:` in a subclass whose base (another file) types
    `_lock` as a project manager runs that manager's exit, as it does when the class
    itself types it; before, the `with` had no manager call unless the file typed it."""
    from checkutil import run_tree, write_tree

    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": BASE,
        "pkg/worker.py": f'''
            from pkg.base import Base


            class Worker(Base):
                def step(self, run):
                    with self.{attr}:
                        pass
                    self._ledger.append(run.id, "step")
        ''',
    })
    assert run_tree(tmp_path, ALL) == [("pkg/worker.py", 9, "OC102")]


@pytest.mark.parametrize("attr", ["metrics", "_journal", "_store"])
def test_a_with_over_an_untyped_attribute_matches_no_pattern(attr):
    """An attribute no class types is entered as before: its text matches no event
    class (`self.metrics` would be a surface by `*metrics.*` if it did, and hide the
    silent handler)."""
    src = f'''
        class W:
            def g(self, run):
                try:
                    self._ledger.append_terminal(run.id)
                except Exception:
                    with self.{attr}:
                        pass
    '''
    assert cl(src, ALL) == [("OC201", 5)]
