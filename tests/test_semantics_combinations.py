"""Combinations of several constructs at once.

Corner cases written from the contract alone: every expectation was decided from the
semantics before running ordercheck.
"""


from checkutil import SEQ, SWL, cl


# ====================================================================== more combinations
def test_loop_append_then_save_each_iteration_is_clean():
    assert cl("""\
        def f(self, run, recs):
            for r in recs:
                self._ledger.append(r)
                self._store.save(run)
        """, select=SEQ) == []


def test_loop_continue_between_append_and_save():
    assert cl("""\
        def f(self, run, recs):
            for r in recs:
                self._ledger.append(r)
                if r.skip:
                    continue
                self._store.save(run)
        """, select=SEQ) == [("OC102", 3)]


def test_save_as_argument_of_terminal_append():
    assert cl("""\
        def f(self, run):
            self._ledger.append_terminal(self._store.save(run))
        """, select=SEQ) == [("OC101", 2)]


def test_short_circuit_and_save_then_append():
    assert cl("""\
        def f(self, run, rec):
            ok = self._store.save(run) and self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 2)]


def test_local_status_assignment_in_branch_makes_append_terminal():
    assert cl("""\
        def f(self, run, ok):
            if ok:
                status = "ready"
            else:
                status = Status.FAILED
            self._store.save(run)
            self._ledger.append(run.id, status)
        """, select=SEQ) == [("OC101", 7)]


def test_return_inside_suppress_after_terminal_append():
    assert cl("""\
        from contextlib import suppress

        def f(self, run):
            with suppress(Exception):
                self._ledger.append_terminal(run.id)
                return
            self._store.save(run)
        """, select=SEQ + SWL) == [("OC201", 5)]


def test_return_in_finally_swallows_save_in_try():
    assert cl("""\
        def f(self, run):
            try:
                self._store.save(run)
            finally:
                return None
        """, select=SWL) == [("OC203", 3)]


def test_raise_from_in_broad_handler_is_loud():
    assert cl("""\
        def f(self, run):
            try:
                self._ledger.append_terminal(run.id)
            except Exception as e:
                raise RuntimeError("ledger") from e
        """, select=SWL) == []
