"""Control flow found by a conformance probe written from the contract alone
(session 14): a ``case`` whose pattern always matches (a bare capture, ``_``) but
which has a guard always runs the guard; only the guard can send the walk on to
the next case. Each case has a counterpart that must still be found."""
from checkutil import cl


def test_a_guarded_capture_or_wildcard_always_runs_its_guard():
    assert cl("""\
        def capture(self, run, cmd):
            self._store.save(run)
            self._ledger.append_terminal(run.id)
            match cmd:
                case x if self._store.save(run):
                    return
            return

        def wildcard(self, run, cmd):
            self._store.save(run)
            self._ledger.append(run.id)
            match cmd:
                case _ if self._store.save(run):
                    pass
            return

        def then_wildcard(self, run, cmd):
            self._store.save(run)
            self._ledger.append(run.id)
            match cmd:
                case x if self._store.save(run):
                    pass
                case _:
                    pass
    """) == []


def test_a_refutable_pattern_or_a_guard_without_calls_can_still_fail():
    assert cl("""\
        def refutable(self, run, cmd):
            self._store.save(run)
            self._ledger.append_terminal(run.id)
            match cmd:
                case [x] if self._store.save(run):
                    return
            return

        def plain_guard(self, run, cmd):
            self._store.save(run)
            self._ledger.append_terminal(run.id)
            match cmd:
                case _ if cmd > 3:
                    self._store.save(run)
            return
    """) == [("OC101", 3), ("OC101", 11)]
