"""Aliases where markers and handing-on read a callee, and nested functions that close
over the caught exception (a conformance probe, session 31; docs/decisions.md).

* A record constructor called through an alias gives the aliased name's tokens
  (semantics §Aliases: a call through an alias is the aliased text; §Markers 3).
* A source or conversion of the exception called through an alias is that call
  (``fmt = traceback.format_exc``).
* A nested ``def`` that closes over the caught exception carries it, as a lambda does:
  passed to a call, called, or returned, it hands the exception on.
"""
from __future__ import annotations

from checkutil import cl

ALL = ["OC101", "OC102", "OC103", "OC201", "OC202"]


def test_a_record_constructor_through_a_module_alias_is_terminal():
    src = """
        import events
        Done = RunCompleted
        Bad = events.RunFailed

        def a(store, ledger, run):
            store.save(run)
            ledger.append(Done(run.id))

        def c(store, ledger, run):
            store.save(run)
            ledger.append(Bad(run.id))

        def d(ledger, run):
            try:
                ledger.append(Done(run.id))
            except Exception:
                pass

        def e(ledger, run):
            ledger.append_terminal(run.id)
            ledger.append(Done(run.id))
    """
    assert cl(src, ALL) == [("OC101", 8), ("OC101", 12), ("OC103", 22), ("OC201", 16)]


def test_a_function_alias_counts_from_its_binding_on_and_through_a_bound_name():
    src = """
        import events

        def b(store, ledger, run):
            make = events.job_failure
            store.save(run)
            ledger.append(make(run.id))

        def late(store, ledger, run):
            store.save(run)
            ledger.append(make(run.id))
            make = events.job_failure

        def bound(store, ledger, run):
            Done = RunCompleted
            record = Done(run.id)
            store.save(run)
            ledger.append(record)
    """
    assert cl(src, ALL) == [("OC101", 7), ("OC101", 18), ("OC102", 11)]


def test_an_alias_that_names_no_marker_gives_none_of_its_own_name():
    src = """
        Failed = Step

        def a(store, ledger, run):
            store.save(run)
            ledger.append(Failed(run.id))
    """
    # the call is a `Step(...)`: the alias's own name is no record's
    assert cl(src, ALL) == [("OC102", 6)]


def test_exception_sources_and_conversions_through_aliases():
    src = """
        import logging
        import traceback
        logger = logging.getLogger(__name__)
        fe = traceback.format_exception

        def a(self, ledger, run):
            fmt = traceback.format_exc
            try:
                ledger.append_record(run)
            except Exception:
                self.last_trace = fmt()

        def b(ledger, run):
            try:
                ledger.append_record(run)
            except Exception as e:
                logger.debug("lost: %s", "".join(fe(e)))

        def c(self, ledger, run):
            try:
                ledger.append_record(run)
            except Exception as e:
                self.last_trace = "".join(fe(e))
    """
    assert cl(src, ALL) == [("OC202", 16)]


def test_a_nested_def_that_closes_over_the_exception_hands_it_on():
    src = """
        class Runtime:
            def passed(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    def deliver():
                        self.fut.set_exception(e)
                    self.loop.call_soon_threadsafe(deliver)

            def called(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    def deliver():
                        self.fut.set_exception(e)
                    deliver()

            def scheduled(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    async def deliver():
                        await self.notify(e)
                    self.loop.create_task(deliver())

            def returned(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    def replay():
                        raise e
                    return replay
    """
    assert cl(src, ALL) == []


def test_a_nested_def_that_does_not_carry_it_is_still_silent():
    src = """
        class Runtime:
            def other(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    def deliver():
                        self.fut.set_result(None)
                    self.loop.call_soon_threadsafe(deliver)

            def own_parameter(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    def deliver(e):
                        self.fut.set_exception(e)
                    self.loop.call_soon_threadsafe(deliver, None)

            def never_used(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    def deliver():
                        self.fut.set_exception(e)
    """
    assert cl(src, ALL) == [("OC202", 5), ("OC202", 13), ("OC202", 21)]


def test_what_a_nested_def_does_with_the_name_decides():
    # (an adversarial review, session 31) its own local of that name, a call that only
    # inspects it, and a name rebound to something else carry nothing
    src = """
        class Runtime:
            def own_local(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    def deliver():
                        e = RuntimeError("x")
                        self.fut.set_exception(e)
                    self.loop.call_soon_threadsafe(deliver)

            def inspects(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    def check():
                        return isinstance(e, OSError)
                    check()

            def rebound(self, run):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    def deliver():
                        self.fut.set_exception(e)
                    deliver = None
                    self.loop.call_soon_threadsafe(deliver)
    """
    assert cl(src, ALL) == [("OC202", 5), ("OC202", 14), ("OC202", 22)]


def test_a_comprehension_variable_in_a_nested_def_is_the_comprehensions_own():
    src = """
        class Runtime:
            def deliver_later(self, run, rows):
                try:
                    self._ledger.append_record(run)
                except Exception as e:
                    def deliver():
                        names = [str(x) for e in rows for x in e]
                        self.fut.set_exception(e)
                    self.loop.call_soon_threadsafe(deliver)
    """
    assert cl(src, ALL) == []


def test_a_comprehension_that_rebinds_the_name_hides_the_exception_inside_it():
    # (a review, session 31) inside the comprehension `e` is its own loop variable, in a
    # lambda as in a def; the first iterable is still read outside it
    src = """
        def in_lambda(ledger, run, loop, fut, errors):
            try:
                ledger.append(run)
            except Exception as e:
                loop.call_soon_threadsafe(lambda: [fut.set_exception(e) for e in errors])

        def in_def(ledger, run, loop, fut, errors):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver():
                    any(fut.set_exception(e) for e in errors)
                loop.call_soon_threadsafe(deliver)

        def first_iterable_is_outside(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                loop.call_soon_threadsafe(lambda: [fut.set_exception(x) for x in [e]])
    """
    assert cl(src, ALL) == [("OC202", 4), ("OC202", 10)]


def test_a_global_or_deleted_name_in_a_nested_def_is_not_the_exception():
    src = """
        def module_name(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver():
                    global e
                    fut.set_exception(e)
                loop.call_soon_threadsafe(deliver)

        def deleted(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver():
                    del e
                    fut.set_exception(e)
                loop.call_soon_threadsafe(deliver)

        def declared_nonlocal(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver():
                    nonlocal e
                    fut.set_exception(e)
                loop.call_soon_threadsafe(deliver)
    """
    assert cl(src, ALL) == [("OC202", 4), ("OC202", 13)]


def test_a_closure_rebound_on_one_branch_is_still_passed_on_the_other():
    # (a review, session 31) as a caught `e` rebound in a branch: the other path hands
    # the closure on; a rebinding after the branch, or in the def's own block, cancels it
    src = """
        def branch(ledger, run, loop, fut, flag):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver():
                    fut.set_exception(e)
                if flag:
                    deliver = None
                loop.call_soon_threadsafe(deliver)

        def after_the_branch(ledger, run, loop, fut, flag):
            try:
                ledger.append(run)
            except Exception as e:
                if flag:
                    def deliver():
                        fut.set_exception(e)
                    print("defined")
                deliver = None
                loop.call_soon_threadsafe(deliver)
    """
    assert cl(src, ALL) == [("OC202", 14)]


def test_a_default_argument_holds_the_exception_the_handler_caught():
    # (a review, session 32) a default is evaluated in the handler: `lambda exc=e:` and
    # `def deliver(e=e):` hand it on; a default of something else does not
    src = """
        def lambda_default(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                loop.call_soon_threadsafe(lambda exc=e: fut.set_exception(exc))

        def def_default(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver(e=e):
                    fut.set_exception(e)
                loop.call_soon_threadsafe(deliver)

        def other_default(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                loop.call_soon_threadsafe(lambda exc=run: fut.set_exception(exc))
    """
    assert cl(src, ALL) == [("OC202", 18)]


def test_a_rebinding_in_a_with_or_finally_body_cancels_the_closure():
    # (a review, session 32) a `with`'s body and a `finally`'s run on every path through
    # them: a rebinding there follows the def as one in its own block does. Not a `try`
    # body, nor a `with contextlib.suppress(...)`'s: a raise before the rebinding skips
    # it and the closure is passed on (a second review, session 33)
    src = """
        def with_body(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver():
                    fut.set_exception(e)
                with lock:
                    deliver = None
                loop.call_soon_threadsafe(deliver)

        def finally_body(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver():
                    fut.set_exception(e)
                try:
                    cleanup()
                finally:
                    deliver = None
                loop.call_soon_threadsafe(deliver)

        def try_body(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver():
                    fut.set_exception(e)
                try:
                    risky()
                    deliver = None
                except Exception:
                    pass
                loop.call_soon_threadsafe(deliver)

        def suppressed(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver():
                    fut.set_exception(e)
                with contextlib.suppress(Exception):
                    risky()
                    deliver = None
                loop.call_soon_threadsafe(deliver)

        def except_body(ledger, run, loop, fut):
            try:
                ledger.append(run)
            except Exception as e:
                def deliver():
                    fut.set_exception(e)
                try:
                    cleanup()
                except OSError:
                    deliver = None
                loop.call_soon_threadsafe(deliver)
    """
    assert cl(src, ALL) == [("OC202", 4), ("OC202", 14)]
