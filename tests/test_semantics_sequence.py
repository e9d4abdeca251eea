"""`sequence` and `at-most-once` contracts: barriers, unless-after, loops (docs/semantics.md §Contracts).

Corner cases written from the contract alone: every expectation was decided from the
semantics before running ordercheck.
"""


from checkutil import SEQ, SWL, cl


# ====================================================================== §4 at-most-once
def test_three_terminal_appends_give_two_findings():
    assert cl("""\
        def settle(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self._ledger.append(run.id, "run_finished")
            self._ledger.append(run.id, Status.ENDED)
            self._store.save(run)
        """, select=["OC103"]) == [("OC103", 3), ("OC103", 4)]


def test_distinct_sites_in_loop_pair_up_across_iterations():
    # on the second iteration the else-branch append follows the if-branch one: the
    # same run, round after round
    assert cl("""\
        def settle_all(self, run, outcomes):
            for outcome in outcomes:
                if outcome.ok:
                    self._ledger.append_terminal(run.id, Status.COMPLETED)
                else:
                    self._ledger.append_terminal(run.id, Status.FAILED)
                self._store.save(run)
        """, select=["OC103"]) == [("OC103", 4), ("OC103", 6)]


def test_distinct_sites_of_a_loops_item_do_not_pair_across_iterations():
    # a decision beyond the contract's text (docs/decisions.md "A loop over records"):
    # the contract pairs these; each round settles another run, so we do not
    assert cl("""\
        def settle_all(self, runs):
            for run in runs:
                if run.ok:
                    self._ledger.append_terminal(run.id, Status.COMPLETED)
                else:
                    self._ledger.append_terminal(run.id, Status.FAILED)
                self._store.save(run)
        """, select=["OC103"]) == []


# ====================================================================== §4 OC301 barrier
def test_fsync_that_raised_is_not_a_barrier():
    assert cl("""\
        import os

        def write_atomic(fh, tmp, path, data):
            fh.write(data)
            try:
                os.fsync(fh.fileno())
            except OSError:
                pass
            os.replace(tmp, path)
        """, select=["OC301"]) == [("OC301", 9)]


def test_oc204_surface_that_raises_inside_nested_try_does_not_count():
    assert cl("""\
        def refresh(self):
            try:
                self._cache.refresh()
            except Exception:
                try:
                    logger.warning("refresh failed")
                except Exception:
                    self.pending -= 1
        """, select=["OC204"]) == [("OC204", 4), ("OC204", 7)]


# ====================================================================== unless-after corners
def test_then_event_that_raised_is_not_after_the_save():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            try:
                self._ledger.append(rec)
            except LedgerError:
                logger.warning("append failed")
                return None
            self._store.save(run)
        """, select=SEQ) == []


def test_first_summary_node_that_raised_is_not_counted():
    # contract v2 (§2 Summaries, on raise): `_sync` saved before `_notify` raised, so the
    # save stands on the call's exceptional edge and the handler's append follows it
    assert cl("""\
        class Runtime:
            def _sync(self, run):
                self._store.save(run)
                self._notify(run)

            def step(self, run, rec):
                try:
                    self._sync(run)
                except NotifyError:
                    self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 10)]
    # a callee that raises before it saves carries nothing onto that edge
    assert cl("""\
        class Runtime:
            def _sync(self, run):
                self._notify(run)
                self._store.save(run)

            def step(self, run, rec):
                try:
                    self._sync(run)
                except NotifyError:
                    self._ledger.append(rec)
        """, select=SEQ) == []


def test_anchor_is_the_append_line_inside_a_multi_line_statement():
    assert cl("""\
        def step(self, run, rec):
            pair = combine(
                self._store.save(run),
                self._ledger.append(rec),
            )
            return pair
        """, select=SEQ) == [("OC102", 4)]


def test_conditional_expression_in_try_both_branches_swallowed():
    assert cl("""\
        def step(self, run, rec):
            try:
                seq = self._ledger.append(rec) if rec else self._store.save(run)
            except Exception:
                seq = None
            return seq
        """, select=SWL) == [("OC202", 3), ("OC203", 3)]


def test_listed_narrow_handler_before_loud_broad_one():
    table = {"swallow-types": ["LedgerConflict"]}
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._ledger.append(rec)
            except LedgerConflict:
                pass
            except Exception:
                logger.exception("append failed")
                raise
            self._store.save(run)
        """, select=SWL, table=table) == [("OC202", 3)]


# ====================================================================== unless-after and loops / else
def test_later_save_only_inside_for_body_may_run_zero_times():
    assert cl("""\
        def f(self, run, rec, items):
            self._store.save(run)
            self._ledger.append(rec)
            for i in items:
                self._store.save(run)
        """, select=SEQ) == [("OC102", 3)]


def test_later_save_in_for_else_without_break_covers():
    assert cl("""\
        def f(self, run, rec, items):
            self._store.save(run)
            self._ledger.append(rec)
            for i in items:
                pass
            else:
                self._store.save(run)
        """, select=SEQ) == []


def test_later_save_in_for_else_with_break_does_not_cover():
    assert cl("""\
        def f(self, run, rec, items):
            self._store.save(run)
            self._ledger.append(rec)
            for i in items:
                if i:
                    break
            else:
                self._store.save(run)
        """, select=SEQ) == [("OC102", 3)]


def test_later_save_in_while_else_without_break_covers():
    assert cl("""\
        def f(self, run, rec):
            self._store.save(run)
            self._ledger.append_terminal(run.id)
            while poll():
                pass
            else:
                self._store.save(run)
        """, select=SEQ) == []


def test_later_save_before_only_break_of_while_true_covers():
    assert cl("""\
        def f(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)
            while True:
                if self._store.save(run):
                    break
        """, select=SEQ) == []


def test_later_save_in_try_else_not_run_when_handler_falls_through():
    assert cl("""\
        def f(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)
            try:
                prepare()
            except PrepError:
                logger.warning("prep failed")
            else:
                self._store.save(run)
        """, select=SEQ) == [("OC102", 3)]
