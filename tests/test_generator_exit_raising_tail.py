"""A ``@contextmanager`` generator's events after its ``yield`` stand at the ``with``'s
normal exit only when they are on a way to the generator's end (semantics §Events
Context managers and Summaries): what it does only on a way that raises (an inner
manager's exit failing after the ``yield``, into ``except ...: append; raise``) leaves
the caller's ``with`` by an exception, which is no normal exit (held-out set 65,
nautobot's ``locked_unready_job_result``)."""
from conformance import run_case

LOCKED = """\
from contextlib import contextmanager


class Conflict(Exception):
    pass


class Runtime:
    @contextmanager
    def locked(self, run):
        try:
            with self._lock_client():
                yield run
        except Conflict:
            self._ledger.append_terminal(run.id)
            raise
"""


def check(src, extra=()):
    got, want, detail = run_case(src, extra=extra)
    assert got == want, detail


def test_an_append_only_before_a_re_raise_is_not_at_the_normal_exit():
    check(LOCKED + """\

    def finish(self, run):
        with self.locked(run) as r:
            self._store.save(r)
            return r
""")


def test_an_append_on_a_way_to_the_end_still_is():
    check("""\
from contextlib import contextmanager


class Conflict(Exception):
    pass


class Runtime:
    @contextmanager
    def locked(self, run, strict):
        try:
            with self._lock_client():
                yield run
        except Conflict:
            self._ledger.append_terminal(run.id)
            if strict:
                raise

    def finish(self, run, strict):
        with self.locked(run, strict) as r:   # !OC101
            self._store.save(r)
            return r

    def after(self, run):
        with self.locked(run, True) as r:   # !OC101
            self._store.save(r)
        self._ledger.append(r)   # !OC102
""")


def test_what_it_does_on_the_raising_way_stands_on_the_exits_exceptional_edge():
    # (a review, session 48) the exit raised having appended; caught by the caller,
    # the function returns with the append after the save, as a helper's call would
    check(LOCKED + """\

    def finish(self, run):
        try:
            with self.locked(run) as r:   # !OC101
                self._store.save(r)
        except Conflict:
            pass
        return run

    def finish_returning(self, run):
        try:
            with self.locked(run) as r:   # !OC101
                self._store.save(r)
                return r
        except Conflict:
            return None
""")


def test_its_own_write_and_terminal_append_count_as_near_there():
    # (a third review) OC301 and OC103 count what a manager's exit does by its own call:
    # so on the exit's exceptional edge
    check("""\
import os
from contextlib import contextmanager


class Conflict(Exception):
    pass


@contextmanager
def writes_on_fail(path):
    yield path
    try:
        lock_client()
    except Conflict:
        with open(path + ".tmp", "w") as f:
            f.write("x")
        raise


def rename_after_failing_exit(path):
    try:
        with writes_on_fail(path):
            pass
    except Conflict:
        os.replace(path + ".tmp", path)   # !OC301
    return path
""", extra=("OC301",))
