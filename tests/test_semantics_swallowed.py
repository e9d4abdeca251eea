"""`swallowed` contracts and OC204: handlers that lose a failure (docs/semantics.md §Contracts).

Corner cases written from the contract alone: every expectation was decided from the
semantics before running ordercheck.
"""


from checkutil import SWL, cl


# ====================================================================== §4 swallowed
def test_narrow_before_broad_silent_broad_handler():
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._ledger.append(rec)
            except LedgerConflict:
                logger.warning("conflict")
            except Exception:
                pass
            self._store.save(run)
        """, select=SWL) == [("OC202", 3)]


def test_broad_handler_ends_the_chain():
    # `except Exception` ends the chain: the later BaseException handler is
    # never reached from the append
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                logger.warning("append failed")
            except BaseException:
                pass
            self._store.save(run)
        """, select=SWL) == []


def test_return_in_finally_swallows_any_type_even_after_narrow_reraise():
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._ledger.append(rec)
            except KeyError:
                raise
            finally:
                return run
        """, select=SWL) == [("OC202", 3)]


def test_continue_in_finally_swallows():
    assert cl("""\
        def replay(self, run, recs):
            for rec in recs:
                try:
                    self._ledger.append(rec)
                finally:
                    continue
            self._store.save(run)
        """, select=SWL) == [("OC202", 4)]


def test_finally_that_surfaces_before_return_is_loud():
    assert cl("""\
        def complete(self, run):
            try:
                self._ledger.append_terminal(run.id)
            finally:
                logger.warning("leaving complete for %s", run.id)
                return run
        """, select=SWL) == []


def test_minus_equals_is_not_a_surface():
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                self.pending -= 1
            self._store.save(run)
        """, select=SWL) == [("OC202", 3)]


def test_plus_equals_on_subscript_is_a_surface():
    assert cl("""\
        def resume(self, run, rec, counts):
            try:
                self._ledger.append(rec)
            except Exception:
                counts["append_failures"] += 1
            self._store.save(run)
        """, select=SWL) == []


def test_handler_in_sibling_handler_does_not_catch():
    # an exception raised inside a handler goes outward, not to the next handler
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._wake(run)
            except WakeError:
                self._ledger.append(rec)
            except Exception:
                pass
            self._store.save(run)
        """, select=SWL) == []


def test_exception_in_finally_body_is_not_caught_by_own_handlers():
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._wake(run)
            except Exception:
                pass
            finally:
                self._ledger.append(rec)
            self._store.save(run)
        """, select=SWL) == []


def test_event_in_else_clause_is_not_covered_by_handlers_but_by_outer():
    assert cl("""\
        def resume(self, run, rec):
            try:
                try:
                    self._wake(run)
                except WakeError:
                    logger.warning("no wake")
                else:
                    self._ledger.append(rec)
            except Exception:
                return None
            self._store.save(run)
        """, select=SWL) == [("OC202", 8)]


def test_surface_that_raises_inside_nested_try_does_not_count():
    # exceptional edge out of logger.warning: the surface did not take effect,
    # and the inner `pass` lets the outer handler fall through silently
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                try:
                    logger.warning("append failed")
                except Exception:
                    pass
            self._store.save(run)
        """, select=SWL) == [("OC202", 3)]


def test_swallow_types_match_through_import_alias():
    table = {"swallow-types": ["sqlite3.Error"]}
    assert cl("""\
        from sqlite3 import Error as DbError

        def persist(self, run):
            try:
                self._store.save(run)
            except DbError:
                return False
            return True
        """, select=SWL, table=table) == [("OC203", 5)]


def test_except_star_tuple_with_broad_type():
    assert cl("""\
        def complete(self, run):
            try:
                self._ledger.append_terminal(run.id)
            except* (LedgerConflict, Exception):
                pass
            self._store.save(run)
        """, select=SWL) == [("OC201", 3)]


def test_contextlib_suppress_imported_under_another_name():
    assert cl("""\
        from contextlib import suppress as quietly

        def note(self, run, rec):
            with quietly(Exception):
                self._ledger.append(rec)
            self._store.save(run)
        """, select=SWL) == [("OC202", 5)]


def test_contextlib_module_alias_suppress_with_mixed_types():
    assert cl("""\
        import contextlib as cl

        def note(self, run, rec):
            with cl.suppress(KeyError, BaseException):
                self._ledger.append(rec)
            self._store.save(run)
        """, select=SWL) == [("OC202", 5)]


def test_contextlib_suppress_with_listed_swallow_type():
    table = {"swallow-types": ["LedgerConflict"]}
    assert cl("""\
        from contextlib import suppress

        def note(self, run, rec):
            with suppress(LedgerConflict):
                self._ledger.append(rec)
            self._store.save(run)
        """, select=SWL, table=table) == [("OC202", 5)]


def test_suppressor_among_several_with_items():
    assert cl("""\
        def note(self, run, rec, path):
            with open(path) as fh, best_effort():
                self._ledger.append(rec)
            self._store.save(run)
        """, select=SWL) == [("OC202", 3)]


def test_async_with_suppressor():
    assert cl("""\
        async def note(self, run, rec):
            async with self._ops.best_effort():
                await self._ledger.append(rec)
            await self._store.save(run)
        """, select=SWL) == [("OC202", 3)]


def test_suppressor_class_replaced_by_config_but_contextlib_still_recognised():
    table = {"events": {"suppressor": ["*.quietly"]}}
    assert cl("""\
        import contextlib

        def a(self, run, rec):
            with self.quietly():
                self._ledger.append(rec)

        def b(self, run, rec):
            with best_effort():
                self._ledger.append(rec)

        def c(self, run, rec):
            with contextlib.suppress(Exception):
                self._ledger.append(rec)
        """, select=SWL, table=table) == [("OC202", 5), ("OC202", 13)]


def test_surface_class_replaced_by_config_but_plus_equals_still_surfaces():
    table = {"events": {"surface": ["*.alert"]}}
    assert cl("""\
        def a(self, run, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                logger.warning("lost")

        def b(self, run, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                self.failures += 1

        def c(self, run, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                self._ops.alert("lost")
        """, select=SWL, table=table) == [("OC202", 3)]


def test_module_level_swallow():
    assert cl("""\
        try:
            ledger.append(BOOT_RECORD)
        except Exception:
            pass
        store.save(BOOT)
        """, select=SWL) == [("OC202", 2)]


def test_event_inside_with_suppressor_inside_loud_try():
    # innermost swallower decides
    assert cl("""\
        def note(self, run, rec):
            try:
                with best_effort():
                    self._ledger.append(rec)
            except Exception:
                logger.exception("note failed")
                raise
            self._store.save(run)
        """, select=SWL) == [("OC202", 4)]


# ====================================================================== §4 OC204
def test_oc204_anchored_at_except_line_for_tuple_with_base_exception():
    assert cl("""\
        def close(handles):
            for h in handles:
                try:
                    h.close()
                except (OSError,
                        BaseException):
                    pass
        """, select=["OC204"]) == [("OC204", 5)]


# ====================================================================== suppress() after a save
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


# ====================================================================== swallowed: handler exits
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
