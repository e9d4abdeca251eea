"""Correlated tests hold on a loop's back edge (semantics §Contracts: "a walk never takes
two branches that contradict each other"). When a test's branch ends the loop's body
(an ``if`` without ``else`` as the body's last statement, ``if x: continue``), its edge
back to the loop's head was a plain ``loop`` edge, so the facts of that branch were
lost and a walk could take ``if not dry_run:`` true and then false with nothing written
between (a session-20 probe of realistic runtimes: three false OC102s in dry-run
loops). The back edge now keeps the test's outcome."""
import pytest
from conformance import run_case

CASES = {
    "if-last-in-for": """\
def tick(store, ledger, jobs, dry_run):
    for job in jobs:
        if not dry_run:
            ledger.append(job)
        if not dry_run:
            store.save(job)
""",
    "continue-then-if-last": """\
def tick(store, ledger, jobs, dry_run):
    for job in jobs:
        if dry_run:
            continue
        ledger.append(job)
        if not dry_run:
            store.save(job)
""",
    "if-last-in-while": """\
def drain(store, ledger, queue, dry_run):
    while queue:
        job = queue.pop()
        if not dry_run:
            ledger.append(job)
        if not dry_run:
            store.save(job)
""",
    "empty-branch-tells-nothing": """\
def tick(store, ledger, jobs, flag):
    for job in jobs:
        if flag:
            pass
        ledger.append(job)
        if not flag:
            store.save(job)
""",
    # still found: a save, then the next round's append with no save after it
    "real-finding-stays": """\
def tick(store, ledger, jobs, dry_run):
    for job in jobs:
        store.save(job)
        if not dry_run:
            ledger.append(job)  # !OC102
""",
    # the name is written in the loop: the facts do not hold across the write
    "written-between": """\
def tick(store, ledger, jobs, dry_run):
    for job in jobs:
        if not dry_run:
            ledger.append(job)  # !OC102 (next round, after this round's save; then `job.dry` skips the save)
        dry_run = job.dry
        if not dry_run:
            store.save(job)
    ledger.append(jobs)  # !OC102
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_back_edge_keeps_the_test_outcome(name):
    got, want, detail = run_case(CASES[name])
    assert got == want, detail


@pytest.mark.parametrize("message", ["", ', "dry runs are not saved"'])
def test_an_assert_that_ends_the_body_keeps_its_facts(message):
    # the walk past `assert not dry` holds `dry` falsy, so the next round's `if dry:`
    # cannot be true without a write between (found by a session-20 review)
    src = f"""\
def sweep(store, ledger, items, dry):
    for it in items:
        if dry:
            ledger.append(it)
            return
        store.save(it)
        dry = it.dry
        assert not dry{message}
"""
    got, want, detail = run_case(src)
    assert got == want, detail


FOR_TEMPLATE = """\
def f(store, ledger, run, ok, items, fetch):
    if ok:
        store.save(run)
    for {loop}:
        {body}
    if not ok:
        ledger.append("run_completed"){mark}
"""

# (a session-37 probe) a `for` binds its target only when it fetches an item: the walk
# out of a loop that ran no round keeps what the test said of the name
FOR_TARGET = {
    "no-round-keeps-the-fact": FOR_TEMPLATE.format(loop="ok in items", body="return", mark=""),
    "a-round-rebinds-it": FOR_TEMPLATE.format(loop="ok in items", body="pass", mark="  # !OC101"),
    "a-walrus-in-the-iterable-binds-at-once": FOR_TEMPLATE.format(loop="item in (ok := fetch())", body="return",
                                                                   mark="  # !OC101"),
}


@pytest.mark.parametrize("name", sorted(FOR_TARGET))
def test_a_for_target_is_bound_only_by_a_round(name):
    got, want, detail = run_case(FOR_TARGET[name])
    assert got == want, detail
