"""Two witness steps of the sixteenth held-out set (maestral, session 35): a call left
by its exceptional edge whose ``raised`` point carries the event is one step ("saves,
then raises"), not also "(raises)" at the call; and a suppressing manager's exit that
performs the finding's event shows that event (and its "via"), then the suppression,
not only the suppression."""
from checkutil import check_source

SRC = '''
    from contextlib import contextmanager


    class Runtime:
        @contextmanager
        def recording(self, run):
            try:
                yield
            except Exception:
                self._ledger.append(run.id, "step-error")

        def _sync(self, run):
            self._store.save(run)
            if run.conflict:
                raise RuntimeError(run.id)

        def step(self, run):
            with self.recording(run):
                self._sync(run)
'''


def steps(f):
    return [(s.kind, s.span.line, s.text) for s in f.witness]


def test_a_suppressing_exit_shows_its_event_and_a_raising_helper_is_one_step():
    [f] = check_source(SRC, select=["OC102"])
    assert (f.code, f.span.line) == ("OC102", 19)
    got = steps(f)
    assert got == [
        ("save", 20, "self._sync(run) (saves, then raises)"),
        ("append", 19, "`self.recording(run)` exits: append"),
        ("suppress", 19, "with self.recording(run):"),
    ], got
    assert "Runtime.recording" in f.witness[1].via and ":11" in f.witness[1].via


def test_a_swallowed_witness_still_shows_the_calls_own_failure():
    """(`swallowed`: the event is the call's failure, at the call: session 34's rule.)"""
    src = '''
        import logging
        log = logging.getLogger(__name__)


        def _sync(store, run):
            store.save(run)
            if run.conflict:
                raise RuntimeError(run.id)


        def step(store, run):
            try:
                _sync(store, run)
            except Exception:
                log.debug("later")
    '''
    [f] = check_source(src, select=["OC203"])
    assert steps(f)[0][:2] == ("save", 14) and steps(f)[0][2].endswith("(raises)"), steps(f)
    assert [s for s in steps(f) if s[1] == 14 and s[0] == "save"] == [steps(f)[0]]
