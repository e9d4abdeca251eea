"""Of an anchor's copies, the shortest witness (semantics §Contracts: "one witness —
the events and branch points of one shortest path"; docs/decisions.md "Of an anchor's
copies, the shortest witness"). A call in a ``finally`` body stands in the graph once
per way out, and correlated tests (and the literal facts a witness reads) copy nodes
per state; a finding is one per anchor, and its witness was the first copy's in node
order, not the shortest: the failure-in-flight copy of a ``finally`` (held-out set 72,
maubot's ``plugin_upload.py``), a second round of a loop (held-out set 71,
python-watcher's service monitors). Also: an ``except`` clause the failure passes
unmatched says so (held-out set 72)."""
from __future__ import annotations

from checkutil import check_source, witness_of


def test_a_finally_rename_takes_the_normal_copys_witness():
    steps = witness_of("""\
import os


def replace(path, data, reload):
    with open(path, "w") as f:
        f.write(data)
    try:
        reload(path)
    finally:
        os.rename(path, path + ".trash")
""", "OC301")
    assert steps == [("file-write", 6, "f.write(data)"), ("rename", 10, 'os.rename(path, path + ".trash")')]


def test_a_second_terminal_append_in_a_finally_takes_the_normal_copy():
    steps = witness_of("""\
def finish(ledger, rr, work):
    ledger.append_terminal(rr, "review_submitted")
    try:
        work(rr)
    finally:
        ledger.append_terminal(rr, "review_discarded")
""", "OC103")
    assert [s[0] for s in steps] == ["terminal-append", "terminal-append"], steps


def test_a_swallowed_append_in_a_finally_takes_the_normal_copy():
    steps = witness_of("""\
def finish(ledger, run, work):
    try:
        work(run)
    finally:
        try:
            ledger.append_terminal(run, "failed")
        except Exception:
            pass
""", "OC201")
    assert [s[1] for s in steps] == [6, 7, 8], steps


def test_a_loop_with_a_literal_flag_takes_one_round():
    steps = witness_of("""\
def monitor(store, services):
    for svc in services:
        changed = False
        if svc.changed:
            changed = True
        if changed:
            store.save(svc)
        if svc.failed:
            svc.ledger.append(svc.id)
""", "OC102")
    assert steps == [
        ("branch", 2, "for svc in services:  (takes an item)"),
        ("branch", 4, "if svc.changed:  (true)"),
        ("branch", 6, "if changed:  (true)"),
        ("save", 7, "store.save(svc)"),
        ("branch", 8, "if svc.failed:  (true)"),
        ("append", 9, "svc.ledger.append(svc.id)"),
        # (the way out goes back up to the loop's head: the step says why it is shown)
        ("branch", 2, "for svc in services:  (no more items)  (then on to the exit with no save after it)"),
    ]


def test_a_clause_the_failure_passes_unmatched_says_so():
    steps = witness_of("""\
def g(store, ledger, run, work):
    store.save(run)
    try:
        work(run)
    except KeyError:
        return
    except Exception:
        ledger.append(run, "x")
""", "OC102")
    assert steps == [
        ("save", 2, "store.save(run)"),
        ("raises", 4, "work(run)"),
        ("except", 5, "except KeyError:  (does not match)"),
        ("except", 7, "except Exception:"),
        ("append", 8, 'ledger.append(run, "x")'),
    ]


def test_the_clause_that_catches_has_no_mark():
    steps = witness_of("""\
def g(store, ledger, run, work):
    store.save(run)
    try:
        work(run)
    except Exception:
        ledger.append(run, "x")
""", "OC102")
    assert ("except", 5, "except Exception:") in steps, steps


REWRITE = """\
import os
from contextlib import contextmanager


@contextmanager
def rewrite(path):
    error = None
    try:
        with open(path + ".tmp", "w") as dest:
            yield dest
    except BaseException as err:
        error = err
    if error is None:
        os.replace(path + ".tmp", path)
    else:
        raise error from None


def unset(path, lines):
    with rewrite(path) as dest:
        for line in lines:
            dest.write(line)
"""


def test_of_copies_as_short_the_one_no_failure_reaches_is_the_witness():
    # held-out set 83 (dotenv's `unset_key`): the loop raising into the manager, whose
    # exit renamed with the failure in flight, was shown where the loop's normal end
    # reaches the exit's normal copy as soon

    found = check_source(REWRITE, select=["OC301"])
    assert [(f.code, f.span.line) for f in found] == [("OC301", 20)]
    kinds = [s.kind for s in found[0].witness]
    assert "raises" not in kinds and "suppress" not in kinds, found[0].witness
    assert kinds[-1] == "rename", found[0].witness


def test_a_report_before_the_swallowed_event_is_no_step():
    # (held-out set 179, cachelib): a warning two calls down before the `try` read as
    # "surface" in a "fails silently" witness
    steps = witness_of("""\
import logging
import warnings
log = logging.getLogger(__name__)


def _norm(t):
    warnings.warn("deprecated", DeprecationWarning)
    return t


def put(ledger, run, t):
    t = _norm(t)
    log.warning("putting")
    try:
        ledger.append(run)
    except Exception:
        return False
    return True
""", "OC202")
    assert [(k, line) for k, line, _ in steps] == [("append", 15), ("except", 16), ("silent", 17)], steps
