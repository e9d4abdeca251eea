"""semantics §Events "Terminal markers": tokens come from event names, constants and types,
record constructors and the event itself, read from the argument expressions.

Every case runs the engine: a save, then a ledger append with the arguments under
test. OC101 means the append carries a terminal marker, OC102 that it does not.
"""
import textwrap

import pytest
from checkutil import check_source, codes_lines

from ordercheck import frontend

SEQ = ["OC101", "OC102"]


def verdict(args: str, pre: str = "", params: str = "run", table=None) -> str:
    body = "".join(f"    {line}\n" for line in textwrap.dedent(pre).splitlines() if line.strip())
    src = (
        f"def step(self, {params}):\n"
        f"{body}"
        "    self._store.save(run)\n"
        f"    self._ledger.append({args})\n"
    )
    found = codes_lines(check_source(src, table=table, select=SEQ, dedent=False))
    codes = {c for c, _ in found}
    assert len(found) == 1, found
    return "terminal" if codes == {"OC101"} else "plain"


# ---------------------------------------------------------------- 1. event names

@pytest.mark.parametrize("args", [
    'run.id, "run_failed"',
    '"task-failed"',
    '"prefect.flow-run.Failed"',
    '"COMPLETED"',
    '"timedOut"',                                   # camelCase, two words
    'make_record(run.id, "run_failed")',            # nested call
    '[run.id, ("x", "run_cancelled")]',             # containers
    '{"run": run.id, "type": "runFailed"}',         # a dict value
    'f"run_{run.id}_failed"',                       # an f-string's literal parts
    'f"{Status.FAILED}"',                           # an f-string's braces, like an argument
    'run.id, "run" "_failed"',                      # implicit concatenation
])
def test_event_names_give_tokens(args):
    assert verdict(args) == "terminal"


@pytest.mark.parametrize("args", [
    '"the run will be failed"',                     # prose
    '"reached a terminal state"',
    'f"run {run.id} failed"',                       # literal parts hold whitespace
    '"run " "failed"',
    '"step_incomplete"',                            # whole tokens, never substrings
    '{"failed": run.id}',                           # dict keys are never tokens
    'f"{failed_run}"',                              # braces follow the identifier rule
])
def test_prose_and_keys_give_no_tokens(args):
    assert verdict(args) == "plain"


# ---------------------------------------------------------------- 2. constants and types

@pytest.mark.parametrize("args", [
    "run.id, Status.COMPLETED",
    "DagsterEventType.RUN_FAILURE",
    "TIMED_OUT",
    "RunCompleted",
    "RunState.failed",                              # any attribute of a CapWords name
    "models.RunState.cancelled",
    "run.failed",                                   # a lower-case last component, whole
])
def test_constants_and_types_give_tokens(args):
    assert verdict(args) == "terminal"


@pytest.mark.parametrize("args", [
    "failed_run",                                   # a variable name is one whole token
    "run.completed_at",
    "self.is_step_failure",
    "self.failed.id",                               # other components of a chain: none
    "Status.FAILED.value",                          # (decisions.md "An enum member's value")
    "Status.FAILED.name",
    "run.status.value",
    "run.timed, run.id, 'out'",                     # a multi-word marker needs one run
])
def test_other_identifiers_are_whole_tokens(args):
    assert verdict(args, params="run, failed_run") == "plain"


def test_a_parameter_gives_its_own_name():
    assert verdict("run.id, failed", params="run, failed") == "terminal"
    assert verdict("run.id, outcome", params="run, outcome") == "plain"


# ---------------------------------------------------------------- 3. constructors, the event itself

@pytest.mark.parametrize("args", [
    "RunCancelled(run.id)",
    "events.job_failure(run)",
    "run.id, record_timed_out(run)",
    "build(run).mark_completed(run.id)",            # the last component of a nested callee
])
def test_callees_in_arguments_give_tokens(args):
    assert verdict(args) == "terminal"


@pytest.mark.parametrize("args", [
    "recs[FAILED:]",                 # a slice's bounds are argument expressions
    'recs[:"run_failed"]',
    "recs[RunFailed(x):]",
    "recs[::FAILED]",
    'f"{run.id:{FAILED}}"',          # braces inside a format spec
    'f"{run.id:>{width}} {{x}}{RunFailed(run)!r:{w}}"',
])
def test_slices_and_format_specs_are_argument_expressions(args):
    assert verdict(args) == "terminal"


@pytest.mark.parametrize("args", ["recs[run_failed_at:]", 'f"{run.id:{width}}"', "recs[a:b]"])
def test_slices_and_format_specs_follow_the_same_rules(args):
    assert verdict(args) == "plain"


def test_receiver_of_a_callee_in_the_arguments_gives_no_token():
    assert verdict("failure_log.build(run)") == "plain"


def test_the_event_own_callee():
    found = codes_lines(check_source("""\
        def step(self, run):
            self._store.save(run)
            self._ledger.append_failed(run.id)
        """, select=SEQ))
    assert found == [("OC101", 3)]


def test_the_event_receiver_gives_no_token():
    found = codes_lines(check_source("""\
        def step(self, run):
            self._store.save(run)
            self._failure_ledger.append(run.id)
        """, select=SEQ))
    assert found == [("OC102", 3)]


def test_the_event_own_callee_counts_for_an_append_through_a_summary():
    found = codes_lines(check_source("""\
        class Runtime:
            def report_run_failed(self, run):
                self._ledger.append(run.id)

            def report_run_progress(self, run):
                self._ledger.append(run.id)

            def fail(self, run):
                self._store.save(run)
                self.report_run_failed(run)

            def progress(self, run):
                self._store.save(run)
                self.report_run_progress(run)
        """, select=SEQ))
    assert found == [("OC101", 10), ("OC102", 14)]


# ---------------------------------------------------------------- never tokens

@pytest.mark.parametrize("args", [
    "rec, failed=False, completed=None",            # keyword names
    "ERROR if t in FAILURE_EVENTS else DEBUG",      # a conditional's test, a comparison
    "rec if FAILED else other",
    "rec, run.status == Status.FAILED",             # comparison operands
    "rec, run.status is not Status.CANCELLED",
    "[r.id for r in recs if r.status is Status.FAILED]",   # a comprehension's if clause
    "lambda: Status.FAILED",                        # not evaluated here
])
def test_never_tokens(args):
    assert verdict(args) == "plain"


@pytest.mark.parametrize("args", [
    "rec, kind='run_failed'",                       # keyword values are tokens
    "Status.FAILED if failed_now else rec",         # both branches count
    "rec if ok else Status.FAILED",
    "[Status.FAILED for r in recs]",                # a comprehension's element
    "*[RunFailed(r) for r in recs]",
    "rec, **{'kind': 'run_aborted'}",
])
def test_keyword_values_and_both_branches_count(args):
    assert verdict(args) == "terminal"


# ---------------------------------------------------------------- names bound in the function

def test_a_bound_name_adds_the_tokens_of_its_right_hand_side():
    assert verdict("rec", pre='rec = LedgerRecord(run.id, kind="run_failed")') == "terminal"
    assert verdict("rec", pre='rec: Record = Record(run.id, Status.CANCELLED)') == "terminal"


def test_every_assignment_of_the_name_counts():
    assert verdict("kind", pre='kind = "step_done"\nif run.bad:\n    kind = "run_aborted"') == "terminal"


def test_a_bound_name_right_hand_side_follows_the_same_rules():
    assert verdict("msg", pre='msg = "the run failed"') == "plain"
    assert verdict("kind", pre='kind = "ok" if run.status == Status.FAILED else "fine"') == "plain"


def test_a_bound_name_keeps_its_own_name():
    assert verdict("failed", pre="failed = compute(run)") == "terminal"


def test_one_level_deep():
    assert verdict("rec", pre="status = Status.FAILED\nrec = make_record(run.id, status)") == "plain"


def test_tuple_unpacking_binds_element_by_element():
    assert verdict("note", pre='kind, note = "run_failed", "x"') == "plain"
    assert verdict("kind", pre='kind, note = "run_failed", "x"') == "terminal"


def test_augmented_assignment_does_not_bind():
    assert verdict("kind", pre='kind = "step"\nkind += "_failed"') == "plain"


def test_a_parameter_has_no_right_hand_side():
    assert verdict("run.id, status", params="run, status=Status.COMPLETED") == "plain"


# ---------------------------------------------------------------- matching the markers

def test_markers_compare_case_insensitively_and_multi_word_in_a_row():
    table = {"terminal-markers": ["Gave Up"]}
    assert verdict("GAVE_UP", table=table) == "terminal"
    assert verdict('"gaveUp"', table=table) == "terminal"
    assert verdict("Status.GAVE_UP_LATER", table=table) == "terminal"
    assert verdict("run.gave, UP", table=table) == "plain"
    assert verdict("Status.FAILED", table=table) == "plain"   # the defaults are replaced


def test_marker_runs_are_stored_on_the_call():
    src = b'def f(self, run):\n    rec = Rec("run_failed")\n    self._ledger.append(rec, "a b", kind=Status.TIMED_OUT)\n'
    f = frontend.extract("m.py", src)
    call = [c for fn in f.functions for c in fn.calls if c.callee == "self._ledger.append"][0]
    assert set(call.marker_runs) == {("rec",), ("timed", "out"), ("rec",), ("run", "failed")}
    assert call.own_run == ("append",)  # kept apart: it does not count for a bound helper's value
    assert ("a", "b") not in call.marker_runs and ("kind",) not in call.marker_runs


# ---------------------------------------------------------------- f-strings hold their values

@pytest.mark.parametrize("args,expected", [
    (r'f"run_failed\t{run.id}\n"', "plain"),          # a tab and a newline: prose
    (r'"run_failed\t" + run.id + "\n"', "plain"),      # the plain string, the same
    (r'f"run_failed\x20{run.id}"', "plain"),           # an escaped space
    (r'f"run_\N{LOW LINE}failed:{run.id}"', "terminal"),
    (r'f"run_failed:{run.id}\\n"', "terminal"),         # an escaped backslash, then n: no whitespace
    (r'rf"run_failed\t{run.id}"', "terminal"),         # raw: a backslash and a t
    (r'f"run_failed\t" f"{run.id}"', "plain"),         # concatenated
])
def test_an_f_string_is_read_by_its_value_not_its_source(args, expected):
    assert verdict(args) == expected


def test_a_backslash_newline_inside_an_f_string_joins_the_lines():
    src = 'def step(self, run):\n    self._store.save(run)\n    self._ledger.append(f"run_\\\n_failed:{run.id}")\n'
    assert codes_lines(check_source(src, select=SEQ, dedent=False)) == [("OC101", 3)]
