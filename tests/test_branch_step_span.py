"""A witness's branch step covers its statement's header, from the keyword to the
colon, not the body it skips or enters (held-out set 64: in SARIF code flows the
first step of jesse's ``optimization_controller.py:132`` finding highlighted a whole
``if`` block). A branch decided by a call keeps that call's range."""
from __future__ import annotations

from checkutil import check_source


def branch_spans(src, select=("OC102",)):
    found = check_source(src, select=list(select))
    assert found
    return [[(s.span.line, s.span.col, s.span.end_line, s.span.end_col, s.text)
             for s in f.witness if s.kind in ("branch", "loop")] for f in found]


def test_a_branch_steps_range_is_its_header():
    got = branch_spans("""\
        def rerun(store, ledger, session, run, pending):
            if not session:
                return {
                    'error': 'not found'
                }
            while (pending and
                   session.busy):  # wait
                session.poll()
            if store.has_worker(session):
                return None
            store.save_run(run)
            ledger.append_record(run)
        """)
    assert got == [[
        (2, 4, 2, 19, "if not session:  (false)"),
        (6, 4, 7, 25, "while (pending and session.busy):  (false)"),
        (9, 7, 9, 32, "if store.has_worker(session):  (false)"),
    ]]


def test_a_loop_and_a_case_step_too():
    got = branch_spans("""\
        def drain(store, ledger, runs, cmd):
            for run in runs:
                store.save(run)
                ledger.append(run)
            match cmd:
                case {"kind": "stop",
                      "force": True}:
                    return
                case _:
                    pass
            store.save(cmd)
            ledger.append(cmd)
        """)
    spans = {s[4]: s[:4] for steps in got for s in steps}
    assert spans['case {"kind": "stop", "force": True}:  (false)'] == (6, 8, 7, 29)
    assert spans["for run in runs:  (no more items)"] == (2, 4, 2, 20)
    assert all(end_line - line <= 1 for line, _, end_line, _ in spans.values())


def test_a_call_that_does_not_decide_the_test_shows_the_header():
    # held-out set 104 (tilecloud's `while len(to_steal) + len(to_drop) < n:`): the
    # last call of a comparison is not the test; the step covers the header, while a
    # call that is the whole test (`if store.has_worker(session):`) keeps its range
    got = branch_spans("""\
        def step(store, ledger, a, b, n, items, run):
            while len(a) + len(b) < n:
                a.append(1)
            if len(items) > 3:
                store.save(run)
            if not store.has_worker(items):
                return None
            ledger.append_record(run)
        """)
    assert got == [[
        (2, 4, 2, 30, "while len(a) + len(b) < n:  (false)"),
        (4, 4, 4, 22, "if len(items) > 3:  (true)"),
        (6, 11, 6, 34, "if not store.has_worker(items):  (false)"),
    ]], got
