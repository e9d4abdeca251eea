"""A loud call that raised (a surface, or a call the exception is handed to) made its
way out of the handler silent (docs/decisions.md "A surface that raised surfaced
nothing"), except where a *narrow* clause catches that failure: the author handles it
on purpose (`try: record_failure(run, err)` / `except AlreadyTerminal: pass`, a
fifteenth held-out set's absurd-sdk, session 34), and the contract would never judge
that clause by itself. A bare, broad or `swallow-types` clause still makes the way
silent."""
from __future__ import annotations

import pytest
from checkutil import cl

SWL = ["OC201", "OC202", "OC203", "OC204"]

PRELUDE = '''
import logging
log = logging.getLogger(__name__)


class AlreadyTerminal(Exception):
    pass


def record_failure(store, err):
    store.save({"error": repr(err)})


def finish(store, run):
    try:
        store.save(run)
    except Exception as err:
        try:
'''


def case(inner: str, clauses: str, after: str = "") -> str:
    return PRELUDE + f"            {inner}\n" + clauses + after


NARROW = "        except AlreadyTerminal:\n            pass\n"


@pytest.mark.parametrize("inner", ["record_failure(store, err)", 'log.warning("lost: %s", err)',
                                   "self.failures.append(err)"])
def test_a_loud_call_failing_into_a_narrow_clause_is_handled(inner):
    assert cl(case(inner, NARROW), SWL) == []
    # (and with a quiet line after the clause: still the loud call's failure, on purpose)
    assert cl(case(inner, NARROW, '        log.debug("done")\n'), SWL) == []


def test_a_broad_clause_after_the_narrow_one_still_swallows_it():
    src = case("record_failure(store, err)", NARROW + "        except Exception:\n            pass\n")
    assert cl(src, SWL) == [("OC203", 16), ("OC203", 19), ("OC204", 17), ("OC204", 22)]


@pytest.mark.parametrize("clause", ["        except Exception:\n            pass\n",
                                    "        except:\n            pass\n"])
def test_a_loud_call_failing_into_a_broad_clause_is_silent(clause):
    assert ("OC203", 16) in cl(case('log.warning("lost: %s", err)', clause), SWL)


def test_a_swallow_type_is_no_narrow_clause():
    src = case("record_failure(store, err)", NARROW)
    table = {"swallow-types": ["*AlreadyTerminal"]}
    assert ("OC203", 16) in cl(src, SWL, table=table)


def test_a_call_that_hands_nothing_on_is_no_loud_call():
    """`store.save(run)` again, in the nested try: no surface, nothing handed on."""
    assert cl(case("store.save(run)", NARROW), SWL) == [("OC203", 16), ("OC204", 17)]


def test_a_swallowed_calls_failure_is_one_witness_step():
    """(The fifteenth held-out set's oban.) The event is the call's own failure: its
    `raised` point next, which carries what the callee did before raising, is no step
    of its own (it read "(raises)" then "(saves, then raises)" for one call)."""
    src = '''
        import logging
        logger = logging.getLogger(__name__)


        class Producer:
            def stop(self):
                try:
                    self._flush()
                except Exception:
                    logger.debug("lost")

            def _flush(self):
                with self.span():
                    self._store.save(self.pending)
    '''
    from checkutil import check_source

    [f] = check_source(src, select=["OC203"])
    assert [(s.span.line, s.kind, s.text) for s in f.witness][:2] == [
        (9, "save", "self._flush() (raises)"), (10, "except", "except Exception:")]


def test_a_sequence_still_shows_what_a_raising_helper_did():
    src = '''
        class P:
            def helper(self, run):
                self._ledger.append(run.id)
                raise RuntimeError("x")

            def f(self, run):
                self.store.save(run)
                try:
                    self.helper(run)
                except RuntimeError:
                    pass
    '''
    from checkutil import check_source

    [f] = check_source(src, select=["OC102"])
    assert (10, "append", "self.helper(run) (appends, then raises)") in [(s.span.line, s.kind, s.text) for s in f.witness]


ASYNC = '''
    class AlreadyTerminal(Exception):
        pass


    async def fail_run(store, err):
        await store.save({{"error": repr(err)}})


    async def finish(store, run):
        try:
            await store.save(run)
        except Exception as err:
            try:
                await fail_run(store, err)
            except {clause}:
                pass
'''


def test_an_awaited_hand_on_is_the_call_that_fails():
    """`await fail_run(store, err)`: what the coroutine raises is the call's failure,
    not a raise of the statement before the call ran (which handed nothing on): the
    narrow clause catches the hand-on's failure (absurd-sdk's async worker)."""
    assert cl(ASYNC.format(clause="AlreadyTerminal"), SWL) == []
    assert cl(ASYNC.format(clause="Exception"), SWL) == [("OC203", 12), ("OC203", 15), ("OC204", 13), ("OC204", 16)]


def test_a_narrow_suppress_is_a_narrow_clause():
    src = '''
        import contextlib


        def finish(self, run):
            try:
                self._ledger.append_terminal(run)
            except Exception as err:
                with contextlib.suppress(ValueError):
                    report(run, err)
    '''
    assert cl(src, SWL) == []
    assert cl(src.replace("ValueError", "Exception"), SWL) == [("OC201", 7), ("OC204", 8)]


def test_one_oc204_per_clause_whatever_the_copies():
    """Correlated tests copy a handler reached in two states (`flag` true or false):
    still one finding per `except` clause (semantics §Contracts: one per rule and
    anchor; a review, session 34: django's `module_loading.py:59` was three)."""
    src = '''
        def f(flag):
            try:
                if flag:
                    a()
                b()
            except Exception:
                if flag:
                    c()
    '''
    assert cl(src, ["OC204"]) == [("OC204", 7)]


def test_a_helpers_failure_is_its_call_step_not_what_it_did_before_raising():
    """(A review, session 34.) `_record` saves in its own handler and re-raises: the
    save's failure escapes it. The OC203 witness shows the call failing (with the save
    it fails by), not "(saves, then raises)", which is what its raise point carries."""
    src = '''
        class Runner:
            def _record(self, run):
                try:
                    self._ledger.append(run)
                except Exception:
                    self.store.save(run)
                    raise

            def go2(self, run):
                try:
                    self._record(run)
                except Exception:
                    pass
    '''
    from checkutil import check_source

    [f] = check_source(src, select=["OC203"])
    assert [(s.span.line, s.kind, s.text) for s in f.witness][0] == (12, "save", "self._record(run) (raises)")
    assert "self.store.save(run) at" in f.witness[0].via
