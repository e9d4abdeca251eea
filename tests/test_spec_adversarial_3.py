"""Third round of adversarial combinations from SPEC §2-§4 and §6.

Each expectation was decided from the SPEC text (and rule docs) before running.
"""
from pathlib import Path

from checkutil import check_source, codes_lines

SEQ = ["OC101", "OC102"]
SWL = ["OC201", "OC202", "OC203"]
ALL_DEFAULT = ["OC101", "OC102", "OC103", "OC201", "OC202", "OC203", "OC301"]


def cl(src, select=None, table=None):
    return codes_lines(check_source(src, table=table, select=select or ALL_DEFAULT))


REQ_RULE = '''\
id = "XZ200"
name = "save-without-append"
severity = "warning"
kind = "requires-before"
first = ["append"]
then = ["save"]
message = "save without an append before it"
explanation = """
A save that no ledger append precedes.
"""
'''

ONCE_RULE = '''\
id = "XZ300"
name = "one-terminal-per-commit"
severity = "warning"
kind = "at-most-once"
event = ["terminal-append"]
barrier = ["save"]
message = "second terminal append before a save"
explanation = """
Two terminal appends with no save between them.
"""
'''


def _rule(tmp_path: Path, text: str, name: str) -> dict:
    p = tmp_path / name
    p.write_text(text)
    return {"rules": [str(p)]}


# ====================================================== unless-after and loops / else

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


# ====================================================== finally

def test_save_in_finally_covers_append_in_try_body():
    assert cl("""\
        def f(self, run, rec):
            self._store.save(run)
            try:
                self._ledger.append(rec)
            finally:
                self._store.save(run)
        """) == []


def test_save_in_finally_covers_append_followed_by_return():
    assert cl("""\
        def f(self, run, rec):
            self._store.save(run)
            try:
                self._ledger.append_terminal(run.id)
                return rec
            finally:
                self._store.save(run)
        """) == []


def test_save_in_finally_before_append_after_try():
    assert cl("""\
        def f(self, run, rec):
            try:
                work()
            finally:
                self._store.save(run)
            self._ledger.append(rec)
        """) == [("OC102", 6)]


def test_save_in_broad_handler_only_does_not_cover_success_path():
    assert cl("""\
        def f(self, run, rec):
            self._store.save(run)
            try:
                self._ledger.append(rec)
            except Exception:
                self._store.save(run)
        """) == [("OC102", 4), ("OC202", 4)]


def test_terminal_append_in_try_then_another_in_finally_is_duplicate():
    assert cl("""\
        def f(self, run):
            try:
                self._ledger.append_terminal(run.id, Status.COMPLETED)
            finally:
                self._ledger.append_terminal(run.id, Status.ENDED)
        """, select=["OC103"]) == [("OC103", 5)]


# ====================================================== suppress() after a save

def test_terminal_append_in_suppress_exception_after_save():
    assert cl("""\
        from contextlib import suppress

        def f(self, run):
            self._store.save(run)
            with suppress(Exception):
                self._ledger.append_terminal(run.id)
        """) == [("OC101", 6), ("OC201", 6)]


def test_terminal_append_in_suppress_narrow_after_save():
    assert cl("""\
        import contextlib

        def f(self, run):
            self._store.save(run)
            with contextlib.suppress(KeyError):
                self._ledger.append_terminal(run.id)
        """) == [("OC101", 6)]


def test_save_after_terminal_append_inside_suppress_may_be_swallowed():
    # the inner save may raise and be swallowed: then EXIT is reached without a save
    assert cl("""\
        from contextlib import suppress

        def f(self, run):
            self._store.save(run)
            with suppress(Exception):
                self._ledger.append_terminal(run.id)
                self._store.save(run)
        """) == [("OC101", 6), ("OC201", 6), ("OC203", 7)]


# ====================================================== if + match

def test_save_in_if_branch_append_in_match_case():
    assert cl("""\
        def f(self, run, rec, kind):
            if kind:
                self._store.save(run)
            match kind:
                case "a":
                    self._ledger.append(rec)
                case _:
                    pass
        """, select=SEQ) == [("OC102", 6)]


def test_save_in_if_true_append_in_match_under_else_is_clean():
    assert cl("""\
        def f(self, run, rec, kind):
            if kind:
                self._store.save(run)
            else:
                match kind:
                    case _:
                        self._ledger.append(rec)
        """, select=SEQ) == []


def test_save_in_match_case_terminal_append_in_later_if():
    assert cl("""\
        def f(self, run, cmd):
            match cmd:
                case "save":
                    self._store.save(run)
                case _:
                    pass
            if cmd:
                self._ledger.append(run.id, Status.COMPLETED)
        """, select=SEQ) == [("OC101", 8)]


def test_exclusive_match_cases_terminal_appends_not_duplicate():
    assert cl("""\
        def f(self, run, cmd):
            match cmd:
                case "ok":
                    self._ledger.append_terminal(run.id, Status.COMPLETED)
                case "bad":
                    self._ledger.append_terminal(run.id, Status.FAILED)
        """, select=["OC103"]) == []


def test_terminal_in_if_then_in_match_wildcard_is_duplicate():
    assert cl("""\
        def f(self, run, ok, cmd):
            if ok:
                self._ledger.append_terminal(run.id, Status.COMPLETED)
            match cmd:
                case _:
                    self._ledger.append_terminal(run.id, Status.FAILED)
        """, select=["OC103"]) == [("OC103", 6)]


# ====================================================== user rules: barrier, requires-before

def test_at_most_once_barrier_on_one_branch_only(tmp_path):
    table = _rule(tmp_path, ONCE_RULE, "xz300.toml")
    assert cl("""\
        def a(self, run, flag):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            if flag:
                self._store.save(run)
            self._ledger.append_terminal(run.id, Status.ENDED)
        """, select=["XZ300"], table=table) == [("XZ300", 5)]


def test_at_most_once_barrier_that_raised_is_not_a_barrier(tmp_path):
    table = _rule(tmp_path, ONCE_RULE, "xz300.toml")
    assert cl("""\
        def b(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            try:
                self._store.save(run)
            except StoreError:
                logger.warning("save failed")
            self._ledger.append_terminal(run.id, Status.ENDED)
        """, select=["XZ300"], table=table) == [("XZ300", 7)]


def test_requires_before_first_only_in_loop_body(tmp_path):
    table = _rule(tmp_path, REQ_RULE, "xz200.toml")
    assert cl("""\
        def f(self, run, recs):
            for r in recs:
                self._ledger.append(r)
            self._store.save(run)
        """, select=["XZ200"], table=table) == [("XZ200", 4)]


def test_requires_before_first_in_both_branches_is_clean(tmp_path):
    table = _rule(tmp_path, REQ_RULE, "xz200.toml")
    assert cl("""\
        def f(self, run, rec, kind):
            match kind:
                case "a":
                    self._ledger.append(rec)
                case _:
                    self._ledger.append_event(rec)
            self._store.save(run)
        """, select=["XZ200"], table=table) == []


def test_requires_before_first_in_one_match_case_only(tmp_path):
    table = _rule(tmp_path, REQ_RULE, "xz200.toml")
    assert cl("""\
        def f(self, run, rec, kind):
            match kind:
                case "a":
                    self._ledger.append(rec)
                case "b":
                    pass
            self._store.save(run)
        """, select=["XZ200"], table=table) == [("XZ200", 7)]


def test_requires_before_save_in_finally_after_append_that_raised(tmp_path):
    table = _rule(tmp_path, REQ_RULE, "xz200.toml")
    assert cl("""\
        def g(self, run, rec):
            try:
                self._ledger.append(rec)
            finally:
                self._store.save(run)
        """, select=["XZ200"], table=table) == [("XZ200", 5)]


# ====================================================== swallowed: handler exits

def test_handler_continue_in_loop_swallows():
    assert cl("""\
        def f(self, recs):
            for r in recs:
                try:
                    self._ledger.append(r)
                except Exception:
                    continue
        """, select=SWL) == [("OC202", 4)]


def test_handler_break_in_loop_swallows():
    assert cl("""\
        def f(self, run):
            while True:
                try:
                    self._ledger.append_terminal(run.id)
                except BaseException:
                    break
        """, select=SWL) == [("OC201", 4)]


def test_handler_returning_a_value_swallows():
    assert cl("""\
        def f(self, run):
            try:
                self._store.save(run)
            except Exception:
                return False
            return True
        """, select=SWL) == [("OC203", 3)]


def test_handler_warns_then_continues_is_loud():
    assert cl("""\
        def f(self, recs):
            for r in recs:
                try:
                    self._ledger.append(r)
                except Exception:
                    logger.warning("append failed")
                    continue
        """, select=SWL) == []


def test_handler_raises_on_one_path_continues_on_other():
    assert cl("""\
        def f(self, recs, strict):
            for r in recs:
                try:
                    self._ledger.append(r)
                except Exception:
                    if strict:
                        raise
                    continue
        """, select=SWL) == [("OC202", 4)]


def test_tuple_with_exception_is_broad():
    assert cl("""\
        def f(self, rec):
            try:
                self._ledger.append(rec)
            except (ValueError, Exception):
                pass
        """, select=SWL) == [("OC202", 3)]


def test_tuple_of_narrow_types_is_not_swallowing():
    assert cl("""\
        def f(self, rec):
            try:
                self._ledger.append(rec)
            except (ValueError, KeyError):
                pass
        """, select=SWL) == []


def test_tuple_with_exception_and_counter_is_loud():
    assert cl("""\
        def f(self, rec):
            try:
                self._ledger.append(rec)
            except (ValueError, Exception):
                self.failures += 1
        """, select=SWL) == []


def test_nested_narrow_reraise_then_outer_bare_silent():
    assert cl("""\
        def f(self, rec):
            try:
                try:
                    self._ledger.append(rec)
                except ValueError:
                    raise
            except:
                pass
        """, select=SWL) == [("OC202", 4)]


def test_nested_narrow_silent_then_outer_bare_loud_is_clean():
    assert cl("""\
        def f(self, rec):
            try:
                try:
                    self._ledger.append(rec)
                except ValueError:
                    return None
            except:
                logger.warning("append failed")
                raise
        """, select=SWL) == []


def test_nested_inner_broad_silent_outer_loud_still_swallowed():
    assert cl("""\
        def f(self, run):
            try:
                try:
                    self._ledger.append_terminal(run.id)
                except Exception:
                    pass
            except:
                logger.warning("boom")
        """, select=SWL) == [("OC201", 4)]


# ====================================================== async

def test_await_terminal_append_after_await_save():
    assert cl("""\
        async def f(self, run):
            await self._store.save(run)
            await self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 3)]


def test_await_terminal_append_before_await_save_is_clean():
    assert cl("""\
        async def f(self, run):
            await self._ledger.append_terminal(run.id)
            await self._store.save(run)
        """) == []


def test_async_with_suppressor_after_await_save():
    assert cl("""\
        async def f(self, run):
            await self._store.save(run)
            async with best_effort():
                await self._ledger.append_terminal(run.id)
        """) == [("OC101", 4), ("OC201", 4)]


def test_await_in_try_handler_returning_none_swallows():
    assert cl("""\
        async def f(self, run):
            try:
                await self._ledger.append_terminal(run.id)
            except Exception:
                return None
        """, select=SWL) == [("OC201", 3)]


# ====================================================== module body

def test_module_level_append_after_save():
    assert cl("""\
        store.save(run)
        ledger.append(rec)
        """, select=SEQ) == [("OC102", 2)]


def test_module_level_terminal_under_main_guard():
    assert cl("""\
        import sys

        if __name__ == "__main__":
            store.save(run)
            ledger.append(run.id, "run_failed")
        """, select=SEQ) == [("OC101", 5)]


def test_module_level_code_not_mixed_with_function_body():
    # the function's save is in another graph: module-level append is clean
    assert cl("""\
        def setup(run):
            store.save(run)

        ledger.append(rec)
        """, select=SEQ) == []


# ====================================================== suppression comments

def test_noqa_on_last_line_of_multi_line_call():
    assert cl("""\
        def f(self, run, rec):
            self._store.save(run)
            self._ledger.append(
                rec,
            )  # noqa: OC102
        """, select=SEQ + ["OC001"]) == []


def test_ignore_in_middle_of_multi_line_call_is_unused():
    assert cl("""\
        def f(self, run, rec):
            self._store.save(run)
            self._ledger.append(
                rec,  # ordercheck: ignore[OC102]
            )
        """, select=SEQ + ["OC001"]) == [("OC001", 4), ("OC102", 3)]


def test_bare_noqa_on_last_line_of_statement():
    assert cl("""\
        def f(self, run):
            self._store.save(run)
            self._ledger.append_terminal(
                run.id,
            )  # noqa
        """, select=SEQ + ["OC001"]) == []


def test_bare_noqa_unused_is_never_reported():
    assert cl("""\
        def f(self, run):
            self._ledger.append_terminal(run.id)  # noqa
            self._store.save(run)
        """, select=SEQ + ["OC001"]) == []


def test_bare_ordercheck_ignore_unused_is_reported():
    assert cl("""\
        def f(self, run):
            self._ledger.append_terminal(run.id)  # ordercheck: ignore
            self._store.save(run)
        """, select=SEQ + ["OC001"]) == [("OC001", 2)]


def test_per_code_oc001_for_the_unused_code_only():
    found = check_source("""\
        def f(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)  # noqa: OC101, OC102
        """, select=SEQ + ["OC001"])
    assert codes_lines(found) == [("OC001", 3)]
    (f,) = found
    assert "OC101" in f.message and "OC102" not in f.message


def test_suppression_on_handler_anchor_of_swallow():
    assert cl("""\
        def f(self, rec):
            try:
                self._ledger.append(rec)  # ordercheck: ignore[OC202] -- best effort
            except Exception:
                pass
        """, select=SWL + ["OC001"]) == []


# ====================================================== more combinations

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
