"""Faults and gaps the held-out sets of session 68 found (docs/evaluation.md), and
the earlier notes' leftovers closed in that session."""
from __future__ import annotations

import textwrap

import pytest
from checkutil import check_source, write_tree
from cliutil import oc
from test_oc301_nearness import ATOMIC

SESSION_CONFIG = ('[extend-events]\nsave = ["sqlalchemy.orm.Session.commit", '
                  '"sqlalchemy.ext.asyncio.AsyncSession.commit"]\nappend = ["ledger.record"]\n')
FACTORY = ("from sqlalchemy.ext.asyncio import async_sessionmaker\n\n"
           "async_session = async_sessionmaker(None, expire_on_commit=False)\n"
           "other_session = async_sessionmaker(None)\n")


@pytest.mark.parametrize("init, flagged", [
    ("self.s = async_session()", True),
    ("self.s = None\n        self.s = async_session()", True),      # (a lazy one: None first)
    ("self.s = async_session()\n        self.t = other_session()", True),
    ("self.s = async_session()\n        self.s = other_session()", False),  # two makers: not known
    ("self.s = make()", False),                                      # a project function: nothing known
])
def test_an_attribute_made_by_an_imported_session_factory_holds_its_sessions(tmp_path, init, flagged):
    # session 67's note: `self.s = async_session()` in `__init__` (an imported lower-case
    # factory instance held on the instance) made the attribute nothing known, so a
    # configured `AsyncSession.commit` matched none of `self.s.commit()`
    repo = ("from db import async_session, other_session\n\n\ndef make():\n    return None\n\n\n"
            "class Repo:\n    def __init__(self):\n        " + init + "\n\n"
            "    async def close(self, ledger):\n        await self.s.commit()\n        ledger.record('closed')\n")
    write_tree(tmp_path, {"ordercheck.toml": SESSION_CONFIG, "db.py": FACTORY, "repo.py": repo})
    for args in ((".",), ("repo.py",)):  # a whole run and a one-file run agree
        r = oc(tmp_path, "--no-cache", *args)
        assert [c for p, _, c in r.codes() if p.endswith("repo.py")] == (["OC102"] if flagged else []), r.out + r.err


def test_a_method_parameter_named_as_the_factory_hides_the_import(tmp_path):
    repo = ("from db import async_session\n\n\n"
            "class Repo:\n    def __init__(self, async_session):\n        self.s = async_session()\n\n"
            "    async def close(self, ledger):\n        await self.s.commit()\n        ledger.record('closed')\n")
    write_tree(tmp_path, {"ordercheck.toml": SESSION_CONFIG, "db.py": FACTORY, "repo.py": repo})
    r = oc(tmp_path, "--no-cache", ".")
    assert r.codes() == [], r.out


GROUP = '''
import anyio


async def persist(store, run):
    store.save(run)


async def close(store, ledger, run):
    async with anyio.create_task_group() as {name}:
        await {name}.start(persist, store, run)
    await ledger.append_event(run, "done")
'''


@pytest.mark.parametrize("name, flagged", [("group", True), ("tg", True), ("pool", False)])
def test_a_task_group_named_group_starts_the_handed_coroutine(name, flagged):
    # session 67's note: `await group.start(f, x)` (anyio's docs' name for the group)
    # was read as any object's `start`, so the save `f` runs carried nothing
    got = [f.code for f in check_source(GROUP.format(name=name))]
    assert got == (["OC102"] if flagged else []), got


FLUSH = '''
class Tap:
    def _run(self):
        while not self._stop.is_set():
            self.conn.process(0.5)
            if self._pending:
                self._flush()
        self._flush()

    def _flush(self):
        pending, self._pending = self._pending, []
        self.recorder.record_terminal_batch(jobs=pending)
'''


def test_both_ends_through_one_helper_site_name_it_once():
    # held-out set 344: an OC103 whose two appends run one helper's call site listed
    # that site twice among the related places (an editor showed it twice)
    found = [f for f in check_source(FLUSH) if f.code == "OC103"]
    assert found, "the loop's flush and the final flush are two terminal appends"
    for f in found:
        places = [(r.span.line, r.message, r.path) for r in f.related]
        assert len(places) == len(set(places)) and any("via Tap._flush" in m for _, m, _ in places), places


def test_suggest_says_which_overlapping_append_pattern_is_a_default(tmp_path):
    # held-out set 344: `suggest` called the default `*.record_terminal` "configured",
    # and a maintainer looked for it in their file
    import json
    write_tree(tmp_path, {
        "ordercheck.toml": '[extend-events]\nsave = ["*.jobs.bulk_write"]\nappend = ["*.notes.add_note"]\n',
        "q/store.py": ("class Store:\n    def record_terminal(self, job):\n        self.jobs.bulk_write([job])\n\n"
                       "    def add_note(self, job):\n        self.jobs.bulk_write([job])\n\n"
                       "    def finish(self, job):\n        self.record_terminal(job)\n        self.notes.add_note(job)\n"
                       "        self.add_note(job)\n"),
    })
    rows = json.loads(oc(tmp_path, "suggest", "--format", "json", "--no-cache").out)["also_saves"]
    assert {(r["pattern"], r["default"]) for r in rows} >= {("*.record_terminal", True)}, rows
    text = oc(tmp_path, "suggest", "--no-cache").out
    line = next(ln for ln in text.splitlines() if "*.record_terminal" in ln and "called at" in ln)
    assert line.endswith("(a default pattern)"), text
    assert "configured append pattern" not in text, text


STEP = '''
import asyncio
import contextlib


class CanceledError(Exception):
    pass


async def run_step(context, fn, name):
    try:
        value = await fn()
        await context.set_step(name, value)
        with contextlib.suppress({types}):
            await context.record_step_trace(name, status="succeeded")
            {flush}
        return value
    except {caught}:
        await context.set_step(name, None)
        await context.record_step_trace(name, status="canceled")
        raise
'''


@pytest.mark.parametrize("types, caught, flush, second", [
    ("Exception", "CanceledError", False, False),    # the exit raises nothing of its own
    # (what the body raises after the trace and `suppress` does not swallow goes on)
    ("Exception", "TimeoutError", True, False),      # what passes suppress(Exception) is no TimeoutError
    ("Exception", "asyncio.CancelledError", True, True),   # a CancelledError passes suppress(Exception)
    ("KeyError", "CanceledError", True, True),       # any other error passes suppress(KeyError)
    ("KeyError", "TimeoutError", True, True),
])
def test_a_suppress_exit_raises_nothing_of_its_own(types, caught, flush, second):
    # held-out set 347 (redflow's step runner): the exit of `suppress(Exception)` was
    # read as raising a `CanceledError` into the `except` arm, which records the step's
    # end again: an OC103 of a walk Python never takes
    table = {"extend-events": {"save": ["*.set_step"], "append": ["*.record_step_trace"]}}
    src = STEP.format(types=types, caught=caught, flush="await context.flush_traces()" if flush else "pass")
    got = [f.code for f in check_source(src, table=table) if f.code == "OC103"]
    assert got == (["OC103"] if second else []), got


NESTED_INTERRUPT = '''
def f(store, ledger, run):
    try:
        try:
            try:
                work(run)
            except KeyboardInterrupt:
                store.save(run)
                raise
        except Exception:
            ledger.append(run, "interrupted")
    finally:
        cleanup(run)
'''


def test_a_re_raised_interrupt_passes_an_except_exception_inside_a_finally():
    # session 68 (found reading `base_raise_from` for held-out set 347): the walk past
    # the clauses that cannot catch a re-raised `KeyboardInterrupt` stopped at the
    # `finally` and then unwound from the innermost frame again, entering the
    # `except Exception:` it had just passed
    from graphutil import edges, graph_of
    got = {(a, b) for a, b, _ in edges(graph_of(NESTED_INTERRUPT))}
    assert ("stmt@9", "handler@10") not in got and ("raise@9", "handler@10") not in got, sorted(got)
    assert any(a.startswith(("stmt@9", "raise@9")) and "finally" in b for a, b in got), sorted(got)


ODM_TRANSACTIONS = '''
from tortoise.transactions import in_transaction


async def finish(job, events):
    async with in_transaction() as conn:
        await job.save(using_db=conn)
        await events.append_event(job, "finished")


def finish_mongo(client, jobs, events, job):
    with client.start_session() as s:
        with s.start_transaction():
            jobs.save_job(job, session=s)
            events.append_event(job, "finished", session=s)


async def finish_motor(client, jobs, events, job):
    async with await client.start_session() as s:
        async with s.start_transaction():
            await jobs.save_job(job, session=s)
            await events.append_event(job, "finished", session=s)


def not_entered(client, jobs, events, job):
    s = client.start_session()
    s.start_transaction()
    jobs.save_job(job, session=s)
    events.append_event(job, "finished", session=s)
'''


def test_tortoise_and_mongo_transactions_commit_their_bodies_at_once():
    # held-out set 344: Tortoise's `in_transaction()` and PyMongo/Motor's
    # `start_transaction()` were no transactions, so a save and a terminal append in
    # one were ordered against each other (an OC101 per body)
    table = {"extend-events": {"save": ["*.save_job", "job.save"]}}
    got = [(f.code, f.span.line) for f in check_source(ODM_TRANSACTIONS, table=table)]
    assert got == [("OC101", 29)], got   # (a call on its own line is no transaction)


COMMITTED_NOQA = '''
from django.db import transaction


def fail_a(task, message):
    task.save()
    with transaction.atomic():{on_with}
        Artifact.objects.create(
            status=task, text=message,
        ){on_call}
        Other.objects.create(text=message){on_other}
'''


@pytest.mark.parametrize("on_with, on_call, on_other, kept", [
    ("", "", "", ["OC102"]),
    ("  # noqa: OC102", "", "", []),
    ("", "  # noqa: OC102", "", []),                        # the body's statement that appends
    ("", "", "  # noqa: OC102", ["OC102", "OC001"]),        # another statement of the body: not it
])
def test_a_suppression_on_the_committed_call_covers_the_commit(on_with, on_call, on_other, kept):
    # held-out sets 346 and 352: a finding anchored at a transaction's `with` (where its
    # body's append stands) was not suppressed by a comment on the append's own line
    table = {"extend-events": {"save": ["task.save"], "append": ["Artifact.objects.create"]}}
    src = COMMITTED_NOQA.format(on_with=on_with, on_call=on_call, on_other=on_other)
    got = sorted(f.code for f in check_source(src, table=table, select=["OC1", "OC001"]))
    assert got == sorted(kept), got


EXECUTOR_JOB = '''
class Hub:
    def _write_sync(self, data):
        self._data_store.save(data)

    async def save(self, data):
        await {receiver}.async_add_executor_job(self._write_sync, data)
        await self._audit_store.append(data)
'''


@pytest.mark.parametrize("receiver, flagged", [
    ("self.hass", True), ("hass", True),
    ("self.pool", False),   # another object's method of that name: not Home Assistant's
])
def test_home_assistants_executor_job_runs_the_handed_callable(receiver, flagged):
    # held-out set 350: `await hass.async_add_executor_job(f, x)` (Home Assistant's way
    # to run a blocking save) handed `f` on uncalled, so its save was nowhere
    table = {"extend-events": {"save": ["*._data_store.save"], "append": ["*._audit_store.append"]}}
    got = [f.code for f in check_source(EXECUTOR_JOB.format(receiver=receiver), table=table)]
    assert got == (["OC102"] if flagged else []), got


def test_suggest_offers_a_stores_log_row_as_an_append(tmp_path):
    # held-out set 355 (memodeck): `store.log_review(card, ok)`, the review log's write,
    # was never offered (`log_*` is a logger's name elsewhere); a level's or a
    # reader's `log_*` on a store, and `log_review` on another receiver, still are not
    import json
    write_tree(tmp_path, {"m.py": (
        "class Cli:\n"
        "    def review(self, store, db, card, ok, history):\n"
        "        store.log_review(card, ok)\n"
        "        self._db.log_attempt(card)\n"
        "        db.log_error(card)\n"
        "        db.log_path(card)\n"
        "        history.log_review(card)\n"
        "        self.logger.log_review(card)\n"
        "        self.session_store.log_out(card)\n"   # (a sign-out, a summary: a review)
        "        db.log_stats(card)\n")})
    rows = json.loads(oc(tmp_path, "suggest", "--isolated", "--format", "json", ".").out)["suggestions"]
    assert sorted((r["class"], r["pattern"]) for r in rows) == [
        ("append", "*._db.log_attempt"), ("append", "*store.log_review")], rows


TWO_HOPS = '''
def tick(context, records, adapter):
    for record in records:
        entry = {entry}
        run_id = entry.run_id
        if entry.kind == "asset":
            adapter.asset_failed_to_materialize(run_id)
        else:
            adapter.complete_pipeline(run_id)
    context.update_cursor(len(records))
'''


@pytest.mark.parametrize("entry, paired", [
    ("record.event_log_entry", False),   # two bindings from the loop's item: each round's own record
    ("record", False),
    ("context.current_entry", True),     # no item read: the same record round after round
])
def test_appends_that_read_the_item_through_two_locals_do_not_pair_across_rounds(entry, paired):
    # held-out set 357 (dagster-openlineage's sensor): `entry = record.event_log_entry`,
    # `run_id = entry.run_id` handed to terminal helpers read the loop's record two
    # bindings away, and the rounds paired: four false OC103s
    table = {"extend-events": {"append": ["adapter.*"]}}
    got = [f.code for f in check_source(TWO_HOPS.format(entry=entry), table=table) if f.code == "OC103"]
    assert bool(got) == paired, got


def test_suggest_says_a_created_row_is_a_save_only_if_it_commits_a_transition(tmp_path):
    # held-out set 353: `suggest` ranked `*.objects.create` first as a save, while
    # configuration.md ("Which calls are the `save`") warns against naming the call that
    # creates the row later records are logged against
    write_tree(tmp_path, {"m.py": (
        "class Flow:\n"
        "    def start(self, store, run):\n"
        "        Job.objects.create(run=run)\n"
        "        Job.objects.filter(run=run).update(state='x')\n"
        "        store.record_event(run, 'started')\n")})
    lines = oc(tmp_path, "suggest", "--isolated", ".").out.splitlines()
    hint = "creates a row: keep it only if it commits a transition"
    created = [i for i, ln in enumerate(lines) if "objects.create" in ln]
    updated = [i for i, ln in enumerate(lines) if "filter().update" in ln]
    # (a line of its own: below the ranked row, above the pattern in the block)
    assert len(created) == 2 and hint in lines[created[0] + 1] and hint in lines[created[1] - 1], lines
    assert len(updated) == 2 and hint not in lines[updated[0] + 1] and hint not in lines[updated[1] - 1], lines


WALRUS = '''
from django.db import models


class Sitting(models.Model):
    def mark_quiz_complete(self):
        self.complete = True
        self.save()


class Status:
    COMPLETED = "c"


def close(user, history):
    if (s := {value}) is not None:
        s.mark_quiz_complete()
        history.record_attempt(s.id, Status.COMPLETED)
'''


@pytest.mark.parametrize("value, flagged", [
    ("Sitting.objects.filter(user=user).first()", True),   # a fetch of the model
    ("Sitting(user=user)", True),                          # a constructor
    ("user.sitting", False),                               # nothing known
])
def test_a_walrus_types_its_name_as_an_assignment_does(value, flagged):
    # held-out set 360 (django-quiz-app's idiom): `if (s := Model.objects...first()):`
    # left `s` of no class, where `s = ...` types it, so the model's `save()` override
    # its method runs was not followed and the OC101 was lost
    table = {"extend-events": {"save": ["*.save"], "append": ["*.record_attempt"]}}
    got = [f.code for f in check_source(WALRUS.format(value=value), table=table)]
    assert got == (["OC101"] if flagged else []), got


def test_a_tracers_start_transaction_is_no_transaction():
    # the review of session 68: the new default `*.start_transaction` also matched
    # Sentry's `with sentry_sdk.start_transaction(op=...)`, a performance trace, and hid
    # the OC102 of the save and append inside it
    src = '''
import sentry_sdk


def run_job(store, ledger, run):
    with sentry_sdk.start_transaction(op="task", name="run_job"):
        store.save(run)
        ledger.append(ResumeRecord(run.id))


def run_other(store, ledger, run, hub):
    with hub.start_transaction(op="task"):
        store.save(run)
        ledger.append(ResumeRecord(run.id))
'''
    assert [(f.code, f.span.line) for f in check_source(src)] == [("OC102", 8), ("OC102", 14)]


READS_AFTER_REVIEW = '''
def through_a_call(run, events, ledger):
    for ev in events:
        kind = ev.kind
        label = kind.upper()
        if label == "FAIL":
            ledger.append(run.id, "run_failed", label)
        else:
            ledger.append_terminal(run.id, Status.COMPLETED, label)


def bound_again(current, records, ledger):
    for record in records:
        entry = record.entry
        entry = current
        run_id = entry.run_id
        if record.failed:
            ledger.append(run_id, "run_failed")
        else:
            ledger.append_terminal(run_id, Status.COMPLETED)
'''


def test_reads_go_back_only_through_projections_bound_once():
    # the review of session 68: following every binding back lost real OC103s, where a
    # label computed from the event (`label = kind.upper()`) or a name bound again
    # (`entry = current`) made appends of one run read the loop's item
    got = sorted({(f.code, f.function) for f in check_source(READS_AFTER_REVIEW)})
    assert got == [("OC103", "bound_again"), ("OC103", "through_a_call")], got


# (the project manager and the write two calls down of test_oc301_nearness's case)
WITH_TARGET = textwrap.dedent(ATOMIC) + '''

def save_aliased(config, path):
    with atomic_write(path) as f:
        g = f
        h = g
        save_to_file(config, h)


def save_other(config, path, log):
    with atomic_write(path) as f:
        name = f.name
        msg = name.upper()
        save_to_file(msg, log)
'''


def test_oc301_pairs_a_write_handed_the_with_target_through_aliases_only():
    # the review of session 68: `msg = name.upper()` from `name = f.name` made a write
    # to another file (`log`) two calls down one handed the `with`'s file: a false
    # OC301 (a write that deep pairs only when handed the item's file)
    got = [(f.code, f.function) for f in check_source(WITH_TARGET, select=["OC301"])]
    assert got == [("OC301", "save_aliased")], got


CLS_FETCH = '''
from django.db import models


class Trigger(models.Model):
    def process(self):
        self.log_event(self.id, "processed")

    @classmethod
    {kind}def from_request(cls, sub):
        sub.save()
        obj = {value}
        obj.process()
        return obj
'''


@pytest.mark.parametrize("kind, value, flagged", [
    ("", "cls.objects.create(body='x')", True),
    ("", "cls.objects.get(pk=1)", True),
    ("", "cls.objects.filter(pk=1).first()", True),
    ("async ", "await cls.objects.aget(pk=1)", True),
    ("", "cls.objects.get_or_create(pk=1)", False),   # a pair, no object
    ("", "other.objects.get(pk=1)", False),            # another name's manager: nothing known
])
def test_a_fetch_through_cls_in_a_classmethod_is_of_the_class(kind, value, flagged):
    # held-out set 362 (dj-paypal's webhook events): `obj = cls.objects.create(...)` in
    # a model's classmethod left `obj` of no class, where `cls(...)` and
    # `Trigger.objects.create(...)` type it, so its method's append was not followed
    table = {"extend-events": {"save": ["*.save"], "append": ["*.log_event"]}}
    got = [f.code for f in check_source(CLS_FETCH.format(kind=kind, value=value), table=table)]
    assert got == (["OC102"] if flagged else []), got


def test_suggest_offers_no_programs_entry_point_as_a_save(tmp_path):
    # held-out set 364 (kaikout): `main()`, which copies a default config and moves a
    # log file, was offered as a state save (a helper that writes and renames a file);
    # a helper that replaces a state file whole still is
    import json
    write_tree(tmp_path, {"app.py": (
        "import json\nimport os\nimport shutil\n\n\n"
        "def main():\n"
        "    with open('config.toml', 'w') as f:\n"
        "        f.write('x')\n"
        "    shutil.move('old.log', 'new.log')\n\n\n"
        "def _write(state, path):\n"
        "    with open(path + '.tmp', 'w') as f:\n"
        "        json.dump(state, f)\n"
        "    os.replace(path + '.tmp', path)\n\n\n"
        "def mark_done(state, path):\n"
        "    _write(state, path)\n\n\n"
        "if __name__ == '__main__':\n"
        "    main()\n")})
    rows = json.loads(oc(tmp_path, "suggest", "--format", "json", "--no-cache", "--isolated", ".").out)["suggestions"]
    assert {r["pattern"] for r in rows if r["class"] == "save"} == {"_write"}, rows
