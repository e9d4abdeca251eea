"""Decisions beyond the contract's text, taken after triaging real runtimes
(docs/decisions.md): conditional effects through ``and``/``or``, idempotency guards,
a loop over records, a record built for another call, and (session 14) a terminal
append two calls away. Each has a case where it
removes a finding and a case where the contract's finding stands."""
from __future__ import annotations

import pytest
from checkutil import cl

from ordercheck import cfg, frontend
from ordercheck.kinds import NodeKind
from ordercheck.vocabulary import Vocabulary

SEQ = ["OC101", "OC102"]
ONCE = ["OC103"]

RETRY_TRUE = """
class Worker:
    def _retry(self, run):
        if not self._queue.put(run):
            return False
        self._store.save(run)
        return True

    def on_failure(self, run, lost):
        if {test}:
            {then}
        self._ledger.append(run.id, "retry_skipped")
"""

RETRY_FALSE = """
class Worker:
    def _give_up(self, run):
        if self._queue.put(run):
            return True
        self._store.save(run)
        return False

    def on_failure(self, run, lost):
        if {test}:
            {then}
        self._ledger.append(run.id, "retry_skipped")
"""


# ---------------------------------------------------------------- conditional effects through and/or


@pytest.mark.parametrize("src, test, then, expected", [
    # True-only save, `A and f()`: a true test means f returned True (then we return)
    (RETRY_TRUE, "lost and self._retry(run)", "return", []),
    (RETRY_TRUE, "lost and await self._retry(run)", "return", []),
    (RETRY_TRUE, "lost and flag and self._retry(run)", "return", []),
    # under `not`, the branches swap: the save goes with the false branch, which returns
    (RETRY_TRUE, "not (lost and self._retry(run))", "pass", [("OC102", 12)]),
    (RETRY_TRUE, "not (lost and self._retry(run))", "self._ledger.append(run.id, 'x')", [("OC102", 12)]),
    # any number of `not`s: `not not f()` is f's value (blind probe 3)
    (RETRY_TRUE, "not not self._retry(run)", "return", []),
    (RETRY_TRUE, "not not (lost and self._retry(run))", "return", []),
    (RETRY_TRUE, "not not not self._retry(run)", "pass", [("OC102", 12)]),
    (RETRY_TRUE, "not not not self._retry(run)", "return", [("OC102", 12)]),
    (RETRY_TRUE, "not self._retry(run)", "return", [("OC102", 12)]),
    # `A or f()`: a false test means f returned False: no save there
    (RETRY_TRUE, "lost or self._retry(run)", "return", []),
    # ... but a true one may be f's True (saved), or A (not called): the save reaches the body
    (RETRY_TRUE, "lost or self._retry(run)", "self._ledger.append(run.id, 'x')", [("OC102", 11), ("OC102", 12)]),
    # the call as the first operand: f may have returned True while the test is false
    (RETRY_TRUE, "self._retry(run) and lost", "return", [("OC102", 12)]),
    # a call under a comparison is no test of its value
    (RETRY_TRUE, "lost and self._retry(run) == 1", "return", [("OC102", 12)]),
    # the call under `not` as the last operand (held-out set 66): `A and not f()` true
    # means f returned False (no save there); false, A false (not called) or f's True
    (RETRY_TRUE, "lost and not self._retry(run)", "self._ledger.append(run.id, 'x')", [("OC102", 12)]),
    (RETRY_TRUE, "lost and not await self._retry(run)", "self._ledger.append(run.id, 'x')", [("OC102", 12)]),
    (RETRY_TRUE, "lost and not self._retry(run)", "pass", [("OC102", 12)]),
    # `A or not f()` true: A (not called) or f's False; false: f's True (saved)
    (RETRY_TRUE, "lost or not self._retry(run)", "self._ledger.append(run.id, 'x')", [("OC102", 12)]),
    (RETRY_TRUE, "lost or not self._retry(run)", "return", [("OC102", 12)]),
    # under an outer `not` too: `not (A and not f())` false is A and f's False
    (RETRY_TRUE, "not (lost and not self._retry(run))", "return", []),
    (RETRY_TRUE, "not (lost or not self._retry(run))", "self._ledger.append(run.id, 'x')", [("OC102", 11), ("OC102", 12)]),
    (RETRY_FALSE, "lost and not self._give_up(run)", "return", []),
    # False-only save: `A and f()` false may be f's False (saved) or A false (not called)
    (RETRY_FALSE, "lost and self._give_up(run)", "return", [("OC102", 12)]),
    # `A or f()` true with f called means f returned True: no save on the true branch
    (RETRY_FALSE, "lost or self._give_up(run)", "self._ledger.append(run.id, 'x')", [("OC102", 12)]),
])
def test_conditional_effects_through_and_or(src, test, then, expected):
    code = src.format(test=test, then=then)
    if "await" in test:
        code = code.replace("def ", "async def ")
    assert cl(code, select=SEQ) == expected


def test_an_and_test_whose_operand_is_skipped_goes_to_the_false_branch_only():
    src = (b"def f(self, run, lost):\n    if lost and self._retry(run):\n        return\n    x()\n"
           b"def _retry(self, run):\n    return True\n")
    fn = next(f for f in frontend.extract("a.py", src).functions if f.name == "f")
    g = cfg.build(fn, on_test=lambda call: call.callee == "self._retry")
    outcomes = [n for n, d in g.nodes(data=True) if d["kind"] == NodeKind.OUTCOME]
    assert len(outcomes) == 2
    stmt = next(n for n, d in g.nodes(data=True) if d.get("text", "").startswith("if lost"))
    kinds = {d["kind"] for _, _, d in g.out_edges(stmt, data=True)}
    # the `if` node goes on to the call (A true) or straight to the false branch (A false)
    assert "true" not in kinds and "false" in kinds
    # without conditional effects no outcome points, and still no true branch that
    # skipped the call (Python's short circuit, exactly: decisions.md "Short circuits")
    g2 = cfg.build(fn, on_test=lambda call: False)
    assert not [n for n, d in g2.nodes(data=True) if d["kind"] == NodeKind.OUTCOME]
    kinds2 = {d["kind"] for _, _, d in g2.out_edges(stmt, data=True)}
    assert "true" not in kinds2 and "false" in kinds2


# ---------------------------------------------------------------- idempotency guards

TWICE = """
def time_out(self, store, run_id, run, runs):
    self._ledger.append_terminal(run_id, Status.FAILED)
    if {test}:
        self._ledger.append_terminal(run_id, Status.FAILED)
"""


@pytest.mark.parametrize("test, guarded", [
    ("not run.is_finished", True),
    ("run and not run.is_finished", True),
    ("not run.state.is_final()", True),
    ("not has_failed(run)", True),
    ("not run.isDone", True),
    ("run.is_terminal is False", False),  # inside a comparison: not read as a guard
    ("run.is_finished", False),  # the append is on the "ended" branch: no guard for it
    ("not self.is_final_attempt()", False),
    ("any(r.is_finished for r in runs)", False),  # a predicate as an argument tells nothing
    ("not run.is_finished and run.retries", True),
    ("not (run.is_finished or run.aborted)", False),  # kept simple: nothing under `not (...)`
    ("run.state and run.state.is_final()", False),  # the append is on the "ended" branch
    ("not (run.state and run.state.is_final())", True),  # a None check of the receiver, negated
    ("not run.finished", False),  # a bare attribute, no is_/has_ predicate
    ("not run.is_ready", False),
    ("run.is_retryable", False),
])
def test_what_counts_as_an_idempotency_guard(test, guarded):
    assert cl(TWICE.format(test=test), select=ONCE) == ([] if guarded else [("OC103", 5)])


def test_a_guard_word_is_a_fixed_word_or_a_configured_marker():
    vocab = Vocabulary.build({}, {}, ["run failed"])
    assert vocab.is_guard(("is", "finished"))  # fixed words, whatever the markers
    assert vocab.is_guard(("has", "run", "failed"))  # a configured marker, exactly
    assert not vocab.is_guard(("is", "failed"))  # not a marker of this config
    assert not vocab.is_guard(("is", "ready"))
    assert not vocab.is_guard(("is", "final", "attempt"))  # the word must be all of it
    assert not vocab.is_guard(("has", "run", "failed", "tasks"))


def test_a_guard_in_a_while_test_and_through_an_elif():
    src = """
    def settle(self, run):
        self._ledger.append_terminal(run.id, Status.COMPLETED)
        if run.cancelled:
            return
        elif not run.is_finished:
            self._ledger.append_terminal(run.id, Status.FAILED)
    """
    assert cl(src, select=ONCE) == []


def test_a_guarded_helper_is_never_the_second_but_can_be_the_first():
    src = """
    class Monitor:
        def _fail_if_open(self, run):
            if not run.is_finished:
                self._ledger.append_terminal(run.id, Status.FAILED)

        def second(self, run):
            self._ledger.append_terminal(run.id, Status.FAILED)
            self._fail_if_open(run)

        def first(self, run):
            self._fail_if_open(run)
            self._ledger.append_terminal(run.id, Status.CANCELLED)
    """
    assert cl(src, select=ONCE) == [("OC103", 13)]


def test_a_helper_with_one_unguarded_terminal_append_is_not_guarded():
    src = """
    class Monitor:
        def _fail(self, run, force):
            if force:
                self._ledger.append_terminal(run.id, Status.FAILED)
            elif not run.is_finished:
                self._ledger.append_terminal(run.id, Status.FAILED)

        def go(self, run):
            self._ledger.append_terminal(run.id, Status.FAILED)
            self._fail(run, True)
    """
    assert cl(src, select=ONCE) == [("OC103", 11)]


def test_a_guarded_helper_calling_a_guarded_helper_stays_guarded():
    src = """
    class Monitor:
        def _inner(self, run):
            if not run.is_finished:
                self._ledger.append_terminal(run.id, Status.FAILED)

        def _outer(self, run):
            self.log.info("closing")
            self._inner(run)

        def go(self, run):
            self._ledger.append_terminal(run.id, Status.FAILED)
            self._outer(run)

        def mixed(self, run):
            self._ledger.append_terminal(run.id, Status.FAILED)
            self._mixed_helper(run)

        def _mixed_helper(self, run):
            self._inner(run)
            self._ledger.append_terminal(run.id, Status.CANCELLED)
    """
    # `_mixed_helper` appends unguarded too: its call is a second terminal append; inside
    # it, the guarded call comes first, so its own unguarded append is a second one
    assert cl(src, select=ONCE) == [("OC103", 17), ("OC103", 21)]


def test_a_context_manager_whose_exit_is_guarded():
    src = """
    from contextlib import contextmanager

    class Engine:
        @contextmanager
        def running(self, run):
            try:
                yield
            except BaseException:
                if not run.state.is_final():
                    self._ledger.append_terminal(run.id, Status.CRASHED, "crashed")
                raise

        def go(self, run):
            with self.running(run):
                self._ledger.append_terminal(run.id, Status.FAILED)
                raise RuntimeError()
    """
    assert cl(src, select=ONCE) == []
    unguarded = src.replace("if not run.state.is_final():", "if run is not None:")
    assert cl(unguarded, select=ONCE) == [("OC103", 15)]


def test_guards_do_not_change_the_other_contracts():
    src = """
    def complete(self, store, run):
        store.save(run)
        if not run.is_finished:
            self._ledger.append_terminal(run.id, Status.COMPLETED)
    """
    assert cl(src) == [("OC101", 5)]


# ---------------------------------------------------------------- a loop over records


def test_two_terminal_appends_of_a_loops_item_in_different_rounds_do_not_pair():
    src = """
    def monitor(self, runs):
        for run in runs:
            if run.starting:
                self._ledger.append_terminal(run.id, Status.FAILED)
            elif run.canceling:
                self._ledger.append_terminal(run.id, Status.CANCELLED)
    """
    assert cl(src, select=ONCE) == []


def test_in_one_round_they_still_pair():
    src = """
    def monitor(self, runs):
        for run in runs:
            self._ledger.append_terminal(run.id, Status.FAILED)
            self._ledger.append_terminal(run.id, Status.CANCELLED)
    """
    assert cl(src, select=ONCE) == [("OC103", 5)]


def test_the_item_through_one_assignment_and_as_a_receiver():
    src = """
    def monitor(self, records):
        for record in records:
            run = record.run
            if run.starting:
                self._ledger.append_terminal(run.id, Status.FAILED)
            else:
                run.report_cancelled()
    """
    table = {"extend-events": {"append": ["*.report_cancelled"]}}
    assert cl(src, select=ONCE, table=table) == []


def test_an_inner_loop_over_the_same_run_still_pairs():
    src = """
    def monitor(self, runs):
        for run in runs:
            for attempt in range(3):
                if attempt:
                    self._ledger.append_terminal(run.id, Status.FAILED)
                else:
                    self._ledger.append_terminal(run.id, Status.CANCELLED)
    """
    # round after round of the inner loop the item is the same run
    assert cl(src, select=ONCE) == [("OC103", 6), ("OC103", 8)]


def test_an_append_before_the_loop_still_pairs_with_one_inside():
    src = """
    def monitor(self, job, runs):
        self._ledger.append_terminal(job.id, Status.COMPLETED)
        for run in runs:
            self._ledger.append_terminal(run.id, Status.FAILED)
    """
    assert cl(src, select=ONCE) == [("OC103", 5)]


def test_a_sequence_across_rounds_is_still_a_finding():
    # the contract's own example: the next round's append after this round's save
    src = """
    def replay(self, runs):
        for run in runs:
            self._ledger.append(run.id, "replayed")
            if run.dirty:
                self._store.save(run)
    """
    assert cl(src, select=SEQ) == [("OC102", 4)]


# ---------------------------------------------------------------- a record built for another call

BUILT = """
class Engine:
    def _failed_state(self, run, exc):
        self._ledger.append(run.id, "storage_loaded")
        return State(Status.FAILED, str(exc))

    def handle(self, run, exc):
        {line}
        self._ledger.append_terminal(run.id, {arg})
"""


@pytest.mark.parametrize("line, arg, expected", [
    ("state = self._failed_state(run, exc)", "state", []),
    ("state = await self._failed_state(run, exc)", "state", []),
    ("state: State = self._failed_state(run, exc)", "state", []),
    # called for its effect: its name (and its arguments) mark it terminal
    ("self._failed_state(run, exc)", "Status.FAILED", [("OC103", 9)]),
    # bound but never handed to another call: still the contract's rule
    ("state = self._failed_state(run, exc)", "Status.FAILED", [("OC103", 9)]),
    # bound in a tuple: not one value for one call
    ("state, _ = self._failed_state(run, exc)", "state", [("OC103", 9)]),
])
def test_a_record_built_for_another_call(line, arg, expected):
    code = BUILT.format(line=line, arg=arg)
    if "await" in line:
        code = code.replace("def handle", "async def handle")
    assert cl(code, select=ONCE) == expected


def test_a_direct_append_whose_value_is_passed_on_keeps_its_markers():
    src = """
    def fail(self, run):
        receipt = self._ledger.append_failed(run.id)
        self._ledger.append_terminal(run.id, receipt)
    """
    assert cl(src, select=ONCE) == [("OC103", 4)]


@pytest.mark.parametrize("src, expected", [
    # the guard stands before the second append but the append is not behind it
    ("""
    def time_out(self, run):
        self._ledger.append_terminal(run.id, Status.FAILED)
        if run.is_finished:
            log.info("was finished")
        self._ledger.append_terminal(run.id, Status.CANCELLED)
    """, [("OC103", 6)]),
    # an early return on the "ended" branch guards what follows
    ("""
    def time_out(self, run):
        self._ledger.append_terminal(run.id, Status.FAILED)
        if run.is_finished:
            return
        self._ledger.append_terminal(run.id, Status.CANCELLED)
    """, []),
    # a polling loop: the append after it runs when the run is done
    ("""
    import time

    class M:
        def wait_and_finish(self, run):
            while not run.is_done():
                time.sleep(1)
            self._ledger.append_terminal(run.id, Status.COMPLETED)

        def go(self, run):
            self._ledger.append_terminal(run.id, Status.FAILED)
            self.wait_and_finish(run)
    """, [("OC103", 12)]),
    # a guarded helper used as an `if` test is not the second either
    ("""
    class M:
        def _fail_if_open(self, run):
            if not run.is_finished:
                self._ledger.append_terminal(run.id, Status.FAILED)
                return True
            return False

        def go(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            if self._fail_if_open(run):
                log.info("x")
    """, []),
])
def test_a_guard_counts_only_for_what_is_behind_it(src, expected):
    assert cl(src, select=ONCE) == expected


def test_a_guarded_mark_never_outlives_an_unguarded_append():
    # a cycle: the first pass sees `a` guarded, a later one reaches `b`'s open append
    cycle = """
    class M:
        def a(self, run, n):
            if n:
                self.b(run, n - 1)
                return
            if not run.is_finished:
                self._ledger.append_terminal(run.id, Status.FAILED)

        def b(self, run, n):
            if n:
                self.a(run, n)
            self._ledger.append_terminal(run.id, Status.CANCELLED)

        def go(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self.a(run, 1)
    """
    assert ("OC103", 17) in cl(cycle, select=ONCE)
    # two definitions of one function: one of them appends unguarded
    two = """
    import sys
    if sys.platform == "win32":
        def fail(ledger, run):
            ledger.append_terminal(run.id, Status.FAILED)
    else:
        def fail(ledger, run):
            if not run.is_finished:
                ledger.append_terminal(run.id, Status.FAILED)

    def go(ledger, run):
        ledger.append_terminal(run.id, Status.COMPLETED)
        fail(ledger, run)
    """
    assert cl(two, select=ONCE) == [("OC103", 13)]


@pytest.mark.parametrize("body, expected", [
    # bound again before it is passed on: the built value never reaches a call
    ("state = self._failed_state(run, exc)\n        state = State(Status.PENDING)\n"
     "        self._ledger.append_terminal(run.id, state)", [("OC103", 10)]),
    # a receiver is not an argument
    ("state = self._failed_state(run, exc)\n        state.validate()\n"
     "        self._ledger.append_terminal(run.id, Status.COMPLETED)", [("OC103", 10)]),
    # the name read before the binding is another value
    ("self.log(state)\n        state = self._failed_state(run, exc)\n"
     "        self._ledger.append_terminal(run.id, Status.COMPLETED)", [("OC103", 10)]),
])
def test_a_built_record_must_reach_a_later_call_as_an_argument(body, expected):
    src = f"""
class Engine:
    def _failed_state(self, run, exc):
        self._ledger.append(run.id, "storage_loaded")
        return State(Status.FAILED, str(exc))

    def handle(self, run, exc, state=None):
        {body}
"""
    assert cl(src, select=ONCE) == expected


def test_a_loop_target_rebound_in_the_body_is_no_item():
    src = """
    def monitor(self, runs):
        for run in runs:
            run = self.current_run
            if run.starting:
                self._ledger.append_terminal(run.id, Status.FAILED)
            elif run.canceling:
                self._ledger.append_terminal(run.id, Status.CANCELLED)
    """
    assert cl(src, select=ONCE) == [("OC103", 6), ("OC103", 8)]


def test_a_none_checked_predicate_guards_its_false_branch():
    src = """
    def crash(self, run, exc):
        self._ledger.append_terminal(run.id, Status.FAILED)
        if self.flow_run.state and self.flow_run.state.is_final():
            log.debug("already final")
        else:
            self._ledger.append_terminal(run.id, Status.CRASHED, "crashed")
    """
    assert cl(src, select=ONCE) == []
    # another operand than a None check of the receiver: the false branch may be final
    other = src.replace("if self.flow_run.state and", "if self.verbose and")
    assert cl(other, select=ONCE) == [("OC103", 7)]


# ---------------------------------------------------------------- the new graph shapes against execution


class _GuardOracle:
    """tracecheck's oracle, with the predicates a guard reads (each a branch it decides)."""

    def __init__(self, seed: int) -> None:
        import tracecheck as tc

        self.o = tc.Oracle(seed, 0.2)

    def __getattr__(self, name):
        return getattr(self.o, name)

    def is_finished(self) -> bool:
        return self.o.b()

    def is_final(self) -> bool:
        return self.o.b()


TRACED = [
    # guard points on the "not ended" branch of if / elif / while, and after an early return
    "def f(o):\n    o.c(1)\n    if not o.is_finished():\n        o.c(2)\n    o.c(3)\n",
    "def f(o):\n    if o.is_finished():\n        return\n    o.c(2)\n",
    "def f(o):\n    if o.b():\n        o.c(1)\n    elif not o.is_final():\n        o.c(2)\n    else:\n        o.c(3)\n",
    "def f(o):\n    while not o.is_finished():\n        o.c(1)\n        o.tick()\n    o.c(2)\n",
    "def f(o):\n    x = o.c(0)\n    if x and not o.is_finished():\n        o.c(1)\n    if o.b() or o.is_final():\n        o.c(2)\n    else:\n        o.c(3)\n",
    # an and/or test whose last operand is a tested call: outcome points and skip edges
    "def f(o):\n    if o.b() and o.c(1):\n        o.c(2)\n    else:\n        o.c(3)\n    o.c(4)\n",
    "def f(o):\n    if not (o.b() or o.c(1)):\n        return\n    o.c(2)\n",
    "def f(o):\n    while o.b() and o.c(1):\n        o.tick()\n    o.c(2)\n",
    "def f(o):\n    try:\n        if o.b() and not o.is_finished() and o.c(1):\n            o.c(2)\n    finally:\n        o.c(3)\n",
]


@pytest.mark.parametrize("source", TRACED)
def test_guard_points_and_chain_outcomes_are_walks_of_executions(source):
    """Soundness of the new shapes: every execution is a walk of the graph (a guard
    point that lost its way in, or an outcome point cut off, fails it). Which branch a
    skipped `and` operand takes is not visible in lines (CPython reports a multi-line
    test's jump on the `if` line again); the structural test above pins that."""
    import tracecheck as tc

    ff = frontend.extract("gen.py", source.encode(), "gen")
    fn = next(f for f in ff.functions if f.qualname == "f")
    vocab = Vocabulary.build()
    # outcome points at every tested call: the shape a helper with conditional effects gets
    g = cfg.build(fn, on_test=lambda call: True, is_guard=vocab.is_guard)
    assert any(d.get("guard") for _, d in g.nodes(data=True)) or "is_" not in source
    ns = dict(tc.NAMESPACE)
    exec(compile(source, "gen.py", "exec"), ns)
    for seed in range(40):
        lines, how = tc.trace_lines(ns["f"], _GuardOracle(seed))
        why = tc.is_walk(g, lines, how, tc.finally_ranges(source))
        assert why is None, f"seed {seed}: {why}\n{source}"


# ---------------------------------------------------------------- a terminal append two calls away


DEEP = """
class Queue:
    def _finish(self, task):
        self._ledger.append_terminal(task.id, Status.COMPLETED)

    def _execute(self, task):
        self._finish(task)

    def {name}(self, task):
        {first}
        {second}
"""


@pytest.mark.parametrize("first, second, expected", [
    # both one call away (the helper appends itself): the contract's pair
    ("self._finish(task)", "self._finish(task.callback)", [("OC103", 11)]),
    # a direct append, then a helper two calls away: the second is no event here
    ("self._ledger.append_terminal(task.id, Status.FAILED)", "self._execute(task.callback)", []),
    # and the other way round
    ("self._execute(task.callback)", "self._ledger.append_terminal(task.id, Status.FAILED)", []),
    # two calls two levels away
    ("self._execute(task)", "self._execute(task.callback)", []),
    # a direct append and a helper one call away
    ("self._ledger.append_terminal(task.id, Status.FAILED)", "self._finish(task)", [("OC103", 11)]),
])
def test_a_terminal_append_two_calls_away_is_not_counted(first, second, expected):
    src = DEEP.format(name="go", first=first, second=second)
    assert cl(src, select=ONCE) == expected


def test_two_calls_away_still_counts_for_the_other_contracts():
    src = """
    class Queue:
        def _finish(self, task):
            self._ledger.append_terminal(task.id, Status.COMPLETED)

        def _execute(self, task):
            self._finish(task)

        def go(self, task):
            self._store.save(task)
            self._execute(task)

        def swallow(self, task):
            try:
                self._execute(task)
            except Exception:
                pass
    """
    assert cl(src, select=["OC101", "OC201"]) == [("OC101", 11), ("OC201", 15)]


def test_a_marker_at_the_call_makes_the_append_its_own():
    """A helper that appends whatever record it is given, named terminal by the
    caller's arguments: the caller's call ends the record, however deep the append."""
    src = """
    class Runner:
        def _record(self, run, kind):
            self._ledger.append(run.id, kind)

        def _log(self, run, kind):
            self._record(run, kind)

        def go(self, run):
            self._log(run, "run_completed")
            self._log(run, "run_failed")
    """
    assert cl(src, select=ONCE) == [("OC103", 11)]


def test_a_context_manager_exit_is_one_call_away():
    src = """
    from contextlib import contextmanager

    class Engine:
        @contextmanager
        def finishing(self, run):
            yield
            self._ledger.append_terminal(run.id, Status.COMPLETED)

        @contextmanager
        def finishing_deep(self, run):
            yield
            self._close(run)

        def _close(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)

        def near(self, run):
            with self.finishing(run):
                pass
            self._ledger.append_terminal(run.id, Status.FAILED)

        def far(self, run):
            with self.finishing_deep(run):
                pass
            self._ledger.append_terminal(run.id, Status.FAILED)
    """
    assert cl(src, select=ONCE) == [("OC103", 21)]


def test_a_helper_that_appends_both_itself_and_deeper_is_one_call_away():
    src = """
    class Queue:
        def _finish(self, task):
            self._ledger.append_terminal(task.id, Status.COMPLETED)

        def _settle(self, task, ok):
            if ok:
                self._finish(task)
            else:
                self._ledger.append_terminal(task.id, Status.FAILED)

        def go(self, task):
            self._settle(task, True)
            self._settle(task.callback, False)
    """
    assert cl(src, select=ONCE) == [("OC103", 14)]
