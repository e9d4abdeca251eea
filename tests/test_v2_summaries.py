"""semantics §Events Summaries: on return, on raise, escaping failures, conditional effects."""
from checkutil import check_source, codes_lines


def cl(src, select):
    return codes_lines(check_source(src, select=select))


def test_on_raise_save_reaches_the_callers_handler():
    assert cl("""\
        class R:
            def _sync(self, run):
                self._store.save(run)
                raise Boom()

            def step(self, run, rec):
                try:
                    self._sync(run)
                except Boom:
                    self._ledger.append(rec)
        """, ["OC102"]) == [("OC102", 10)]


def test_append_only_on_the_way_out_is_not_on_the_normal_path():
    src = """\
        class R:
            def _do(self, rec):
                try:
                    work()
                except Exception:
                    self._ledger.append(rec)
                    raise

            def step(self, run, rec):
                self._store.save(run)
                self._do(rec)
        """
    assert cl(src, ["OC102"]) == []


def test_helper_that_reports_its_own_append_failure_cannot_fail_into_caller():
    src = """\
        class R:
            def _rec(self, rec):
                try:
                    self._ledger.append(rec)
                except Exception:
                    logger.warning("lost")

            def step(self, rec):
                try:
                    self._rec(rec)
                except Exception:
                    pass
        """
    assert cl(src, ["OC202"]) == []
    assert cl(src.replace('logger.warning("lost")', 'logger.warning("lost")\n                    raise'), ["OC202"]) == [("OC202", 11)]


def test_conditional_save_travels_on_its_branch_only():
    src = """\
        class R:
            def revoked(self, run):
                if run.cancelled:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                if self.revoked(run):
                    return
                self._ledger.append(rec)
        """
    assert cl(src, ["OC102"]) == []
    assert cl(src.replace("if self.revoked(run):", "if not self.revoked(run):"), ["OC102"]) == [("OC102", 11)]
