"""The graph follows Python's control flow: branches, loops, try/finally, async, module bodies (docs/semantics.md §Graph).

Corner cases written from the contract alone: every expectation was decided from the
semantics before running ordercheck.
"""


from checkutil import SEQ, SWL, cl


# ====================================================================== §3 control flow
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


def test_if_true_has_no_false_branch():
    # (a held-out set's reading, session 32) as for `while True`, a test that is a true
    # constant is never false: the save under it always follows the append
    assert cl("""\
        def step(store, ledger, run, rec):
            store.save(run)
            ledger.append(rec)
            if True:
                store.save(run)

        def step_else(store, ledger, run, rec):
            store.save(run)
            ledger.append(rec)
            if 1:
                store.save(run)
            else:
                print("never")

        def maybe(store, ledger, run, rec, flag):
            store.save(run)
            ledger.append(rec)
            if flag:
                store.save(run)
        """, select=SEQ) == [("OC102", 17)]


def test_if_false_and_while_0_never_run_their_bodies():
    # (a conformance probe, session 33) the mirror of `if True:`: a test that is a false
    # constant has no true branch; a `while False: ... else:` always runs its `else`
    assert cl("""\
        def a(store, ledger, run):
            store.save(run)
            if False:
                store.save(run)
            ledger.append(run)

        def b(store, ledger, run):
            while 0:
                store.save(run)
            ledger.append_terminal(run)

        def c(store, ledger, run, x):
            if x:
                pass
            elif "":
                store.save(run)
            ledger.append_terminal(run)

        def d(store, ledger, run):
            while False:
                pass
            else:
                store.save(run)
            ledger.append_terminal(run)
        """, select=SEQ) == [("OC101", 24), ("OC102", 5)]


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


SYS_EXIT_IN_TRY = """\
    import sys

    def stop(self, run, rec):
        try:
            self._store.save(run)
            sys.exit(1)
        except {clause}:
            self._ledger.append(rec)
    """


def test_sys_exit_passes_handlers_that_cannot_catch_system_exit():
    # SystemExit is a BaseException, not an Exception (Python's edges, semantics §3)
    for clause in ("Exception", "KeyError", "(ValueError, OSError)", "KeyboardInterrupt", "builtins.Exception"):
        assert cl(SYS_EXIT_IN_TRY.format(clause=clause), select=SEQ) == [], clause


def test_sys_exit_enters_handlers_that_may_catch_system_exit():
    for clause in ("BaseException", "SystemExit", "(ValueError, SystemExit)",
                   "StopRun"):  # (a name not known: it may be SystemExit's alias)
        assert cl(SYS_EXIT_IN_TRY.format(clause=clause), select=SEQ) == [("OC102", 8)], clause
    bare = SYS_EXIT_IN_TRY.replace("except {clause}:", "except:")
    assert cl(bare, select=SEQ) == [("OC102", 8)]


def test_sys_exit_imported_by_name_passes_a_narrow_handler():
    assert cl("""\
        from sys import exit

        def stop(self, run, rec):
            try:
                self._store.save(run)
                exit(0)
            except KeyError:
                self._ledger.append(rec)
        """, select=SEQ) == []


def test_sites_exit_and_quit_raise_system_exit_unless_a_name_is_bound():
    # (held-out set 151, faraday's handlers end in `exit(1)`) `site`'s helpers raise
    # SystemExit as `sys.exit()` does: the handler is not silent, and the call has no
    # normal successor; a parameter or a function named so is another callable
    src = """\
        def a(store, run):
            try:
                store.save(run)
            except Exception:
                print("could not save")
                {call}

        def b(store, run, exit, quit):
            try:
                store.save(run)
            except Exception:
                {call}
        """
    for call in ("exit(1)", "quit()"):
        assert cl(src.format(call=call)) == [("OC203", 10)], call
        # (a review) a star import may bind the name: nothing is known of it
        assert cl("        from helpers import *\n\n" + src.format(call=call)) == [("OC203", 5), ("OC203", 12)], call


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


# ====================================================================== finally precision
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


# ====================================================================== finally
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


# ====================================================================== if + match
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


# ====================================================================== async
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


# ====================================================================== module body
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


# ====================================================================== one-line bodies

def test_statements_on_the_header_line_are_statements():
    # `if x: a()`, `for ...: a()`, `def f(): a(); b()`: a body on the header's line is
    # a body like any other (these calls were once dropped).
    assert cl("""\
        def g(store, ledger, run):
            if run.done: store.save(run)
            ledger.append_terminal(run.id)

        def h(store, ledger, run): store.save(run); ledger.append_terminal(run.id)

        def k(store, ledger, run):
            store.save(run)
            for x in run.items: ledger.append_terminal(x)

        def w(store, ledger, run):
            while run.pending: store.save(run)
            else: ledger.append_terminal(run.id)

        def t(store, ledger, run):
            with lock: store.save(run)
            try: ledger.append_terminal(run.id)
            except Exception: pass
        """, select=SEQ + SWL) == [("OC101", 3), ("OC101", 5), ("OC101", 9), ("OC101", 13), ("OC101", 17), ("OC201", 17)]


def test_a_one_line_body_is_a_walk_under_execution():
    from graphutil import graph_of, label
    g = graph_of("""\
        def f(a, b):
            if a: b.x()
            else: b.y()
            for i in a: b.z(i)
        """)
    labels = {label(g, n) for n in g.nodes}
    assert {"x()@2", "y()@3", "z()@4"} <= {l.split(".")[-1] if "()" in l else l for l in labels}, labels


def test_one_line_bodies_are_walks_under_sys_settrace():
    import tracecheck

    source = (
        "def f(o):\n"
        "    if o.b(): o.c(1)\n"
        "    else: o.c(2)\n"
        "    for x in o.it(): o.c(x)\n"
        "    while o.b(): o.c(3)\n"
        "    try: o.c(4)\n"
        "    except Boom: o.c(5)\n"
        "    finally: o.c(6)\n"
        "    with o.cm(): o.c(7); o.c(8)\n"
        "    return o.v()\n"
    )
    assert tracecheck.check_source(source, seeds=200) is None


SYS_EXIT_THROUGH_FINALLY = """\
    import sys

    def stop(self, run, rec):
        try:
            try:
                self._store.save(run)
                sys.exit(0)
            finally:
                done = True
        except {clause}:
            self._ledger.append(rec)
    """


def test_sys_exit_through_a_finally_still_passes_except_exception():
    # (a conformance probe, session 31: the finally's copy re-raised the exit as any
    # exception, so `except Exception` ran after the save: a false OC102)
    for clause in ("Exception", "KeyError", "(ValueError, OSError)"):
        assert cl(SYS_EXIT_THROUGH_FINALLY.format(clause=clause), select=SEQ) == [], clause


def test_sys_exit_through_a_finally_enters_a_handler_that_may_catch_it():
    for clause in ("BaseException", "SystemExit"):
        assert cl(SYS_EXIT_THROUGH_FINALLY.format(clause=clause), select=SEQ) == [("OC102", 11)], clause


def test_sys_exit_through_a_finally_is_traced_as_a_walk():
    import tracecheck as tc
    src = ("def f(o):\n    try:\n        try:\n            o.c(1)\n            sys.exit(0)\n        finally:\n"
           "            o.c(2)\n    except Exception:\n        o.c(3)\n    except BaseException:\n        o.c(4)\n    o.c(5)\n")
    assert tc.check_source(src, seeds=40) is None
