"""Adversarial cases written from SPEC §2-§4 and §6 (suppression) alone.

Every expectation below was decided from the SPEC text before running ordercheck.
"""
import textwrap
from pathlib import Path

from checkutil import check_source, codes_lines, settings_for

from ordercheck import runner

SEQ = ["OC101", "OC102"]
SWL = ["OC201", "OC202", "OC203"]
ALL_DEFAULT = ["OC101", "OC102", "OC103", "OC201", "OC202", "OC203", "OC301"]


def cl(src, select=None, table=None):
    return codes_lines(check_source(src, table=table, select=select or ALL_DEFAULT))


def _write(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))


def _run(root: Path, select=ALL_DEFAULT, table=None):
    s = settings_for(table, select=list(select))
    return sorted((Path(f.path).resolve().relative_to(root.resolve()).as_posix(), f.span.line, f.code)
                  for f in runner.run([root], s).findings)


# =========================================================================== §2 matching

def test_inner_call_renders_as_parens_in_callee_text():
    # `get_store().save` is the rendered text; a pattern naming it matches.
    table = {"events": {"save": ["get_store().save"]}}
    assert cl("""\
        def complete(run, ledger):
            get_store().save(run)
            ledger.append(run.id)
        """, select=SEQ, table=table) == [("OC102", 3)]


def test_replaced_save_class_drops_default_patterns():
    # [events] replaces a class's default patterns: store.save is no longer a save.
    table = {"events": {"save": ["*.commit"]}}
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)

        def step2(self, db, rec):
            db.commit()
            self._ledger.append(rec)
        """, select=SEQ, table=table) == [("OC102", 7)]


def test_pattern_matches_qualified_name_through_from_import_alias():
    table = {"events": {"save": ["runtime_db.persist.commit_row"]}}
    assert cl("""\
        from runtime_db.persist import commit_row as commit

        def step(self, run, rec):
            commit(run)
            self._ledger.append(rec)
        """, select=SEQ, table=table) == [("OC102", 5)]


def test_extend_events_adds_to_defaults():
    table = {"extend-events": {"append": ["*.audit.write_entry"]}}
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self.audit.write_entry(rec)
            self._ledger.append(rec)
        """, select=["OC102"], table=table) == [("OC102", 3), ("OC102", 4)]


# =========================================================================== §2 terminal markers

def test_string_literal_with_space_is_prose_and_gives_no_marker():
    # SPEC v2 §2: a string holding whitespace is prose, not an event name
    assert cl("""\
        def expire(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "step timed out")
        """, select=SEQ) == [("OC102", 3)]


def test_multi_word_marker_camel_case_class_name():
    assert cl("""\
        def expire(self, run):
            self._store.save(run)
            self._ledger.append(RunTimedOut(run.id))
        """, select=SEQ) == [("OC101", 3)]


def test_multi_word_marker_requires_consecutive_tokens():
    # "timed" and "out" are both tokens, but not consecutive.
    assert cl("""\
        def expire(self, run):
            self._store.save(run)
            self._ledger.append(run.timed, run.id, "out")
        """, select=SEQ) == [("OC102", 3)]


def test_f_string_whose_literal_parts_hold_whitespace_is_prose():
    # SPEC v2 §2: an f-string's literal parts together hold whitespace: prose
    assert cl("""\
        def fail(self, run):
            self._store.save(run)
            self._ledger.append(f"run {run.id} failed")
        """, select=SEQ) == [("OC102", 3)]


def test_keyword_name_is_not_a_token_but_its_non_marker_value_keeps_it_plain():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec, failed=False, completed=None)
        """, select=SEQ) == [("OC102", 3)]


def test_marker_in_the_event_own_callee_name():
    # SPEC v2 §2: the last component of the event's own callee gives tokens
    # (`append_failed` is not a terminal-append pattern, yet it carries "failed")
    assert cl("""\
        def fail(self, run):
            self._store.save(run)
            self._ledger.append_failed(run.id)
        """, select=SEQ) == [("OC101", 3)]


def test_augmented_assignment_does_not_contribute_marker_tokens():
    # only `=` or annotated assignments bind for marker purposes
    assert cl("""\
        def note(self, run):
            kind = "step"
            kind += "_failed"
            self._store.save(run)
            self._ledger.append(run.id, kind)
        """, select=SEQ) == [("OC102", 5)]


def test_assignment_in_enclosing_function_is_not_the_same_function():
    assert cl("""\
        def outer(self, run):
            rec = Record(run.id, Status.COMPLETED)

            def inner(rec2):
                self._store.save(run)
                self._ledger.append(rec)

            inner(None)
        """, select=SEQ) == [("OC102", 6)]


def test_terminal_markers_config_replaces_defaults():
    table = {"terminal-markers": ["expired"]}
    assert cl("""\
        def complete(self, run):
            self._store.save(run)
            self._ledger.append(run.id, Status.COMPLETED)

        def expire(self, run):
            self._store.save(run)
            self._ledger.append(run.id, Status.EXPIRED)
        """, select=SEQ, table=table) == [("OC101", 7), ("OC102", 3)]


def test_terminal_markers_config_multi_word():
    table = {"terminal-markers": ["lease lost"]}
    assert cl("""\
        def drop(self, run):
            self._store.save(run)
            self._ledger.append(run.id, RunState.LEASE_LOST)

        def keep(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "lease", "lost")
        """, select=SEQ, table=table) == [("OC101", 3), ("OC102", 7)]


def test_helper_call_terminal_when_callee_itself_appends_terminal():
    # the callee performs a terminal-append (marker inside the callee): the call
    # carries terminal-append even without a marker at the call site.
    assert cl("""\
        class Runtime:
            def _close(self, run):
                self._ledger.append(run.id, Status.COMPLETED)

            def finish(self, run):
                self._store.save(run)
                self._close(run)
        """, select=SEQ) == [("OC101", 7)]


# =========================================================================== §2 evaluation order

def test_save_in_receiver_evaluated_before_append_argument():
    assert cl("""\
        def step(self, run, r):
            self._store.save(run).then(self._ledger.append(r))
        """, select=SEQ) == [("OC102", 2)]


def test_assignment_value_evaluated_before_subscript_target():
    # `a[i] = v` evaluates v first, then a, then i: the append precedes the save.
    assert cl("""\
        def step(self, run, rec, seqs):
            seqs[self._store.save(run)] = self._ledger.append(rec)
        """, select=SEQ) == []


def test_condition_of_conditional_expression_runs_first():
    assert cl("""\
        def step(self, run, rec):
            seq = self._ledger.append(rec) if self._store.save(run) else None
            return seq
        """, select=SEQ) == [("OC102", 2)]


def test_default_argument_of_nested_def_is_evaluated_in_enclosing_function():
    assert cl("""\
        def step(self, run, rec):
            def later(version=self._store.save(run)):
                return version
            self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 4)]


def test_walrus_in_if_condition():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            if (seq := self._ledger.append(rec)) is None:
                return None
            return seq
        """, select=SEQ) == [("OC102", 3)]


def test_list_comprehension_events_belong_to_enclosing_graph():
    assert cl("""\
        def flush(self, runs, rec):
            [self._store.save(r) for r in runs]
            self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 3)]


# =========================================================================== §2 summaries

def test_self_method_from_project_base_class():
    assert cl("""\
        class Base:
            def _commit(self, run):
                self._store.save(run)

        class Runtime(Base):
            def complete(self, run):
                self._commit(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 8)]


def test_method_on_instance_is_not_resolved():
    # `Saver().persist(run)`: the class call carries __init__ (nothing); the
    # method call on the instance is "anything else": patterns only.
    assert cl("""\
        class Saver:
            def persist(self, run):
                self._store.save(run)

        def complete(ledger, run):
            Saver().persist(run)
            ledger.append(run.id)
        """, select=SEQ) == []


def test_nested_function_called_later_in_loop():
    assert cl("""\
        def flush(self, run, recs):
            def persist():
                self._store.save(run)

            for rec in recs:
                persist()
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 7)]


def test_mutual_recursion_converges():
    assert cl("""\
        def _a(store, run, n):
            if n:
                _b(store, run, n - 1)

        def _b(store, run, n):
            if n % 2:
                store.save(run)
            _a(store, run, n)

        def go(store, ledger, run):
            _a(store, run, 3)
            ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 12)]


def test_summary_may_save_on_one_path_counts_as_unless_after():
    assert cl("""\
        class Runtime:
            def _maybe_commit(self, run):
                if run.dirty:
                    self._store.save(run)

            def step(self, run, rec):
                self._store.save(run)
                self._ledger.append(rec)
                self._maybe_commit(run)
        """, select=SEQ) == []


def test_node_with_save_and_append_followed_by_append():
    assert cl("""\
        class Runtime:
            def _sync(self, run, rec):
                self._ledger.append(rec)
                self._store.save(run)

            def step(self, run, rec):
                self._sync(run, rec)
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 8)]


def test_node_with_terminal_append_and_save_swallowed_counts_as_each():
    assert cl("""\
        class Runtime:
            def _close(self, run):
                self._ledger.append_terminal(run.id)
                self._store.save(run)

            def complete(self, run):
                try:
                    self._close(run)
                except Exception:
                    pass
        """, select=SWL) == [("OC201", 8), ("OC203", 8)]


def test_helper_terminal_at_call_site_twice_is_duplicate():
    assert cl("""\
        class Runtime:
            def _record(self, run, status):
                self._ledger.append(run.id, status)

            def fail(self, run, fatal):
                self._record(run, Status.FAILED)
                if fatal:
                    self._record(run, Status.ABORTED)
                self._store.save(run)
        """, select=["OC103"]) == [("OC103", 8)]


def test_relative_import_from_parent_package_and_module_import(tmp_path):
    _write(tmp_path, {
        "rt/__init__.py": "",
        "rt/store_ops.py": """\
            def persist(store, run):
                store.save(run)
            """,
        "rt/engine/__init__.py": "",
        "rt/engine/complete.py": """\
            from ..store_ops import persist
            from .. import store_ops

            def complete(store, ledger, run):
                persist(store, run)
                ledger.append_terminal(run.id)

            def complete2(store, ledger, run):
                store_ops.persist(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert _run(tmp_path, select=SEQ) == [
        ("rt/engine/complete.py", 6, "OC101"),
        ("rt/engine/complete.py", 10, "OC101"),
    ]


def test_module_body_calls_project_function():
    assert cl("""\
        def boot(store):
            store.save(BOOT)

        boot(STORE)
        ledger.append(BOOT.id)
        """, select=SEQ) == [("OC102", 5)]


# =========================================================================== §3 control flow

def test_match_wildcard_with_guard_may_fail():
    assert cl("""\
        def route(self, run, sig):
            self._store.save(run)
            self._ledger.append(sig.rec)
            match sig:
                case Steer():
                    self._store.save(run)
                case _ if sig.durable:
                    self._store.save(run)
        """, select=SEQ) == [("OC102", 3)]


def test_match_or_of_class_patterns_may_fail():
    assert cl("""\
        def route(self, run, sig):
            self._store.save(run)
            self._ledger.append(sig.rec)
            match sig:
                case Steer() | Cancel():
                    self._store.save(run)
                case {"kind": k}:
                    self._store.save(run)
        """, select=SEQ) == [("OC102", 3)]


def test_match_wildcard_after_guarded_cases_always_matches():
    assert cl("""\
        def route(self, run, sig):
            self._store.save(run)
            self._ledger.append(sig.rec)
            match sig:
                case Steer() if sig.urgent:
                    self._store.save(run)
                case [first, *rest]:
                    self._store.save(run)
                case _:
                    self._store.save(run)
        """, select=SEQ) == []


def test_for_else_break_skips_else_save():
    assert cl("""\
        def step(self, run, rec, items):
            self._store.save(run)
            self._ledger.append(rec)
            for item in items:
                if item.stop:
                    break
            else:
                self._store.save(run)
        """, select=SEQ) == [("OC102", 3)]


def test_while_else_break_skips_else_save():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)
            while run.pending:
                if run.pending.pop().fatal:
                    break
            else:
                self._store.save(run)
        """, select=SEQ) == [("OC102", 3)]


def test_while_true_with_break_only_in_inner_loop_never_exits():
    assert cl("""\
        def serve(self, run, inbox):
            self._store.save(run)
            while True:
                for msg in inbox.drain():
                    if msg is None:
                        break
                    self._ledger.append(msg)
                    self._store.save(run)
            self._ledger.append_terminal(run.id)
        """, select=SEQ) == []


def test_later_save_in_endless_loop_then_never_reaches_exit():
    # from the append no path reaches EXIT at all, so no path lacks a save
    assert cl("""\
        import time

        def heartbeat(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)
            while True:
                self._store.save(run)
                time.sleep(1)
        """, select=SEQ) == []


def test_loop_round_trip_reaches_append_after_save():
    # a path is a walk: iteration 1 saves, iteration 2 appends and leaves
    assert cl("""\
        def replay(self, run, recs):
            for rec in recs:
                self._ledger.append(rec)
                if rec.checkpoint:
                    self._store.save(run)
        """, select=SEQ) == [("OC102", 3)]


def test_sys_exit_imported_by_name_has_no_successor():
    assert cl("""\
        from sys import exit

        def stop(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)
            exit(0)
        """, select=SEQ) == []


def test_raise_in_try_body_after_save_reaches_handler_with_save_done():
    assert cl("""\
        def step(self, run, rec):
            try:
                self._store.save(run)
                raise Retry(run.id)
            except Retry:
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 6)]


def test_plain_assignment_after_save_cannot_raise():
    # only the save can raise into the handler, and a save that raised saved nothing
    assert cl("""\
        def step(self, run, rec):
            try:
                self._store.save(run)
                saved = True
            except StoreError:
                self._ledger.append(rec)
                saved = False
            return saved
        """, select=SEQ) == []


def test_break_through_finally_runs_finally_then_leaves_loop():
    assert cl("""\
        def step(self, run, recs):
            for rec in recs:
                try:
                    self._store.save(run)
                    break
                finally:
                    self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 7)]


def test_one_finding_for_finally_copies_and_several_saves():
    assert cl("""\
        def step(self, run, ok):
            try:
                if ok:
                    self._store.save(run)
                    self._store.save_run(run)
                else:
                    self._store.save(run)
                    return None
            finally:
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 10)]


def test_later_save_swallowed_does_not_cover_the_append():
    # a save that raised saved nothing: the path through the handler to EXIT
    # has no save after the append
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)
            try:
                self._store.save(run)
            except StoreError:
                logger.warning("second save failed")
        """, select=SEQ) == [("OC102", 3)]


def test_async_for_and_async_with():
    assert cl("""\
        async def drain(self, run, inbox):
            async with self._lease(run):
                async for msg in inbox:
                    await self._store.save(run)
            await self._ledger.append(run.id)
        """, select=SEQ) == [("OC102", 5)]


# =========================================================================== §4 swallowed

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


# =========================================================================== §4 OC204

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


# =========================================================================== §4 at-most-once

def test_three_terminal_appends_give_two_findings():
    assert cl("""\
        def settle(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self._ledger.append(run.id, "run_finished")
            self._ledger.append(run.id, Status.ENDED)
            self._store.save(run)
        """, select=["OC103"]) == [("OC103", 3), ("OC103", 4)]


def test_distinct_sites_in_loop_pair_up_across_iterations():
    # on the second iteration the else-branch append follows the if-branch one
    assert cl("""\
        def settle_all(self, runs):
            for run in runs:
                if run.ok:
                    self._ledger.append_terminal(run.id, Status.COMPLETED)
                else:
                    self._ledger.append_terminal(run.id, Status.FAILED)
                self._store.save(run)
        """, select=["OC103"]) == [("OC103", 4), ("OC103", 6)]


# =========================================================================== §4 OC301 barrier

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


# =========================================================================== finally precision

def test_return_before_append_through_finally_does_not_leak():
    # the early return passes the finally before any append; the append's own
    # way out resumes the fall-through to the later save
    assert cl("""\
        def step(self, run, rec, quick):
            self._store.save(run)
            try:
                if quick:
                    return run
                self._ledger.append(rec)
            finally:
                self._lock.release()
            self._store.save(run)
        """, select=SEQ) == []


def test_return_after_append_through_finally_leaves_without_save():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            try:
                self._ledger.append(rec)
                if rec.last:
                    return run
            finally:
                self._lock.release()
            self._store.save(run)
        """, select=SEQ) == [("OC102", 4)]


def test_exception_resumed_after_finally_reaches_outer_handler():
    assert cl("""\
        def step(self, run, rec):
            try:
                try:
                    self._store.save(run)
                    self._wake(run)
                finally:
                    self._lock.release()
            except WakeError:
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 9)]


def test_break_before_append_through_finally_does_not_leak():
    assert cl("""\
        def drain(self, run, recs):
            self._store.save(run)
            for rec in recs:
                try:
                    if rec is None:
                        break
                    self._ledger.append(rec)
                finally:
                    self._lock.release()
                self._store.save(run)
        """, select=SEQ) == []


# =========================================================================== unless-after corners

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
    # SPEC v2 (§2 Summaries, on raise): `_sync` saved before `_notify` raised, so the
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


# =========================================================================== more summaries

def test_class_call_inherits_project_base_init():
    assert cl("""\
        class Commit:
            def __init__(self, store, run):
                store.save(run)

        class TerminalCommit(Commit):
            pass

        def complete(store, ledger, run):
            TerminalCommit(store, run)
            ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 10)]


def test_super_init_carries_base_init():
    assert cl("""\
        class Commit:
            def __init__(self, store, run):
                store.save(run)

        class Close(Commit):
            def __init__(self, store, ledger, run):
                super().__init__(store, run)
                ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 8)]


def test_surface_through_class_init():
    assert cl("""\
        class Alarm:
            def __init__(self, msg):
                logger.error(msg)

        def resume(ledger, store, run, rec):
            try:
                ledger.append(rec)
            except Exception:
                Alarm("append failed")
            store.save(run)
        """, select=SWL) == []


def test_duplicates_inside_helper_reported_in_helper_only():
    assert cl("""\
        class Runtime:
            def _close(self, run):
                self._ledger.append_terminal(run.id, Status.COMPLETED)
                self._ledger.append_terminal(run.id, Status.ENDED)

            def complete(self, run):
                self._close(run)
                self._store.save(run)

            def complete_all(self, runs):
                for run in runs:
                    self._close(run)
                    self._store.save(run)
        """, select=["OC103"]) == [("OC103", 4)]


def test_helper_swallowing_itself_and_caller_swallowing_again():
    assert cl("""\
        class Runtime:
            def _checkpoint(self, run):
                with best_effort():
                    self._store.save(run)

            def tick(self, run):
                try:
                    self._checkpoint(run)
                except Exception:
                    pass
        """, select=SWL) == [("OC203", 4)]  # SPEC v2: the helper's save failure cannot escape it


def test_fully_dotted_project_module_import(tmp_path):
    _write(tmp_path, {
        "rt/__init__.py": "",
        "rt/store_ops.py": """\
            def persist(store, run):
                store.save(run)
            """,
        "rt/run.py": """\
            import rt.store_ops

            def complete(store, ledger, run):
                rt.store_ops.persist(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert _run(tmp_path, select=SEQ) == [("rt/run.py", 5, "OC101")]


def test_package_reexport_of_class_carries_init(tmp_path):
    _write(tmp_path, {
        "rt/__init__.py": "from .commit import Commit\n",
        "rt/commit.py": """\
            class Commit:
                def __init__(self, store, run):
                    store.save(run)
            """,
        "app.py": """\
            from rt import Commit

            def complete(store, ledger, run):
                Commit(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert _run(tmp_path, select=SEQ) == [("app.py", 5, "OC101")]


# =========================================================================== user rules

REQ_RULE = '''\
id = "XY200"
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
id = "XY300"
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


def test_requires_before_first_event_that_raised_does_not_count(tmp_path):
    (tmp_path / "xy200.toml").write_text(REQ_RULE)
    table = {"rules": [str(tmp_path / "xy200.toml")]}
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._ledger.append(rec)
            except LedgerError:
                logger.warning("append failed")
            self._store.save(run)

        def advance(self, run, rec):
            self._ledger.append(rec)
            self._store.save(run)

        def maybe(self, run, rec):
            if rec:
                self._ledger.append(rec)
            self._store.save(run)
        """, select=["XY200"], table=table) == [("XY200", 6), ("XY200", 15)]


def test_at_most_once_user_rule_with_barrier(tmp_path):
    (tmp_path / "xy300.toml").write_text(ONCE_RULE)
    table = {"rules": [str(tmp_path / "xy300.toml")]}
    assert cl("""\
        def a(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self._store.save(run)
            self._ledger.append_terminal(run.id, Status.ENDED)

        def b(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self._ledger.append_terminal(run.id, Status.ENDED)
            self._store.save(run)
        """, select=["XY300"], table=table) == [("XY300", 8)]


# =========================================================================== §6 suppression

SUP = SEQ + ["OC001"]


def test_noqa_on_first_line_of_statement_holding_the_anchor():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            seq = (  # noqa: OC102
                self._ledger.append(rec)
            )
            return seq
        """, select=SUP) == []


def test_ignore_on_anchor_first_line_in_middle_of_statement():
    assert cl("""\
        def step(self, run, rec):
            pair = combine(
                self._store.save(run),
                self._ledger.append(rec),  # ordercheck: ignore[OC102]
                other,
            )
            return pair
        """, select=SUP) == []


def test_noqa_without_space_after_colon():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)  # noqa:OC102
        """, select=SUP) == []


def test_bare_noqa_suppresses_every_code_on_the_line():
    assert cl("""\
        def settle(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self._store.save(run)
            self._ledger.append_terminal(run.id, Status.ENDED)  # noqa
        """, select=SUP + ["OC103"]) == []


def test_ignore_one_of_two_codes_on_a_line_keeps_the_other():
    assert cl("""\
        def settle(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self._store.save(run)
            self._ledger.append_terminal(run.id, Status.ENDED)  # ordercheck: ignore[OC103]
        """, select=SUP + ["OC103"]) == [("OC101", 4)]


def test_ignore_in_if_header_holding_the_anchor():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            if self._ledger.append(rec) is None:  # noqa: OC102
                return None
            return run
        """, select=SUP) == []


def test_oc204_suppressed_on_except_line_with_noqa():
    assert cl("""\
        def refresh(self):
            try:
                self._cache.refresh()
            except Exception:  # noqa: OC204
                pass
        """, select=["OC204", "OC001"]) == []


def test_per_file_ignores_prefix(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a config without a file: relative to the current folder
    _write(tmp_path, {
        "src/legacy/old.py": """\
            def step(self, run, rec):
                self._store.save(run)
                self._ledger.append(rec)
                try:
                    self._store.save(run)
                except Exception:
                    pass
            """,
    })
    table = {"per-file-ignores": {"src/legacy/**": ["OC2"]}}
    assert _run(tmp_path, select=SEQ + SWL, table=table) == [("src/legacy/old.py", 3, "OC102")]


# =========================================================================== evaluation order, harder

def test_chained_subscripts_in_callee_left_to_right():
    # Python evaluates `a[x()][y()]` as a, x(), then y(): the save comes first
    assert cl("""\
        def step(self, run, rec):
            self._index[self._store.save(run)][self._ledger.append(rec)].touch()
        """, select=SEQ) == [("OC102", 2)]


def test_augmented_assignment_target_evaluated_before_value():
    # `t[k()] += v()` evaluates t and k() first, then v(): the append precedes the save
    assert cl("""\
        def step(self, run, rec, totals):
            totals[self._ledger.append(rec)] += self._store.save(run)
        """, select=SEQ) == []


def test_starred_positional_evaluated_before_earlier_keyword():
    # CPython evaluates positional (and starred) arguments before keyword ones
    assert cl("""\
        def step(self, run, rec):
            emit(version=self._store.save(run), *self._ledger.append(rec))
        """, select=SEQ) == []


def test_subscript_after_save_in_same_statement_can_raise_into_handler():
    # the save took effect, then `[...]` raised KeyError into the handler
    assert cl("""\
        def step(self, run, rec):
            try:
                version = self._store.save(run)["version"]
            except KeyError:
                self._ledger.append(rec)
                return None
            return version
        """, select=SEQ) == [("OC102", 5)]


def test_attribute_after_save_in_if_test_can_raise_into_handler():
    assert cl("""\
        def step(self, run, rec):
            try:
                if self._store.save(run).conflict:
                    return None
            except AttributeError:
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 6)]


# =========================================================================== markers, harder

def test_reassigned_parameter_contributes_its_assignment():
    # the function binds `reason` by an assignment: its right-hand side counts
    assert cl("""\
        def fail(self, run, reason=None):
            reason = reason or "run_failed"
            self._store.save(run)
            self._ledger.append(run.id, reason)
        """, select=SEQ) == [("OC101", 4)]


def test_with_as_target_is_not_an_assignment_binding():
    # only `=` or annotated assignments bind for marker purposes
    assert cl("""\
        def fail(self, run):
            with self._records.open("run_failed") as rec:
                self._store.save(run)
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 4)]


def test_module_level_constant_is_not_bound_by_the_function():
    assert cl("""\
        KIND = "run_failed"

        def fail(self, run):
            self._store.save(run)
            self._ledger.append(run.id, KIND)
        """, select=SEQ) == [("OC102", 5)]


def test_comment_inside_arguments_is_not_a_token():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(
                rec,  # failed runs are recorded elsewhere
            )
        """, select=SEQ) == [("OC102", 3)]


def test_empty_terminal_markers_disables_marker_terminals():
    table = {"terminal-markers": []}
    assert cl("""\
        def complete(self, run):
            self._store.save(run)
            self._ledger.append(run.id, Status.COMPLETED)
            self._ledger.append_terminal(run.id)
        """, select=SEQ, table=table) == [("OC101", 4), ("OC102", 3)]


# =========================================================================== summaries, harder

def test_self_call_inside_nested_function_of_a_method():
    assert cl("""\
        class Runtime:
            def _commit(self, run):
                self._store.save(run)

            def complete(self, run):
                def finish():
                    self._commit(run)
                    self._ledger.append_terminal(run.id)
                finish()
        """, select=SEQ) == [("OC101", 8)]


def test_bound_method_alias_is_resolved():
    # SPEC v2 §2 aliases: `commit(run)` resolves as `self._commit(run)`
    assert cl("""\
        class Runtime:
            def _commit(self, run):
                self._store.save(run)

            def complete(self, run):
                commit = self._commit
                commit(run)
                self._ledger.append_terminal(run.id)
        """, select=SEQ) == [("OC101", 8)]


def test_summary_of_self_method_defined_in_subclass_only_is_not_used_by_base():
    # `self.m()` resolves in the class and its project bases, not in subclasses
    assert cl("""\
        class Base:
            def complete(self, run):
                self._commit(run)
                self._ledger.append_terminal(run.id)

        class Runtime(Base):
            def _commit(self, run):
                self._store.save(run)
        """, select=SEQ) == []


def test_assert_message_runs_only_on_failure_and_then_raises():
    # the message's append happens only on the way to AssertionError: RAISE only
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            assert run.ok, self._ledger.append(rec)
        """, select=SEQ) == []


def test_append_in_handler_swallowed_by_finally_return():
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._wake(run)
            except WakeError:
                self._ledger.append(rec)
            finally:
                return run
        """, select=SWL) == [("OC202", 5)]


def test_two_swallowing_handlers_give_one_finding():
    table = {"swallow-types": ["LedgerConflict"]}
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._ledger.append(rec)
            except LedgerConflict:
                pass
            except Exception:
                pass
            self._store.save(run)
        """, select=SWL, table=table) == [("OC202", 3)]


def test_helper_with_its_own_fsync_barrier_covers_its_write():
    assert cl("""\
        import os

        def _write_synced(fh, data):
            fh.write(data)
            os.fsync(fh.fileno())

        def _write_only(fh, data):
            fh.write(data)

        def save_state(fh, tmp, path, data):
            _write_synced(fh, data)
            os.replace(tmp, path)

        def save_state_unsynced(fh, tmp, path, data):
            _write_only(fh, data)
            os.replace(tmp, path)
        """, select=["OC301"]) == [("OC301", 16)]


def test_star_import_from_project_module(tmp_path):
    _write(tmp_path, {
        "rt/__init__.py": "",
        "rt/ops.py": """\
            def persist(store, run):
                store.save(run)
            """,
        "rt/run.py": """\
            from .ops import *

            def complete(store, ledger, run):
                persist(store, run)
                ledger.append_terminal(run.id)
            """,
    })
    assert _run(tmp_path, select=SEQ) == [("rt/run.py", 5, "OC101")]


def test_return_value_attribute_after_save_can_raise_into_handler():
    assert cl("""\
        def step(self, run, rec):
            try:
                return self._store.save(run).version
            except AttributeError:
                self._ledger.append(rec)
        """, select=SEQ) == [("OC102", 5)]


def test_handler_unreachable_when_try_body_cannot_raise():
    assert cl("""\
        def step(self, run, rec):
            self._store.save(run)
            try:
                done = True
            except Exception:
                self._ledger.append(rec)
            return done
        """, select=SEQ) == []


def test_surface_after_the_handler_does_not_make_it_loud():
    assert cl("""\
        def resume(self, run, rec):
            failed = False
            try:
                self._ledger.append(rec)
            except Exception:
                failed = True
            if failed:
                logger.warning("append failed")
            self._store.save(run)
        """, select=SWL) == [("OC202", 4)]




def test_quiet_reraise_into_a_silent_outer_handler_is_swallowed():
    # `except Exception: raise` reports nothing; the outer `pass` then swallows the
    # failure silently. A handler that logs before re-raising is loud (decisions.md).
    findings = check_source('''
        def f(store, run, log):
            try:
                try:
                    store.save(run)
                except Exception:
                    raise
            except Exception:
                pass

        def g(store, run, log):
            try:
                try:
                    store.save(run)
                except Exception:
                    log.warning("save failed")
                    raise
            except Exception:
                pass
        ''', select=["OC203"])
    assert codes_lines(findings) == [("OC203", 5)]
