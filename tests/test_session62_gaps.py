"""Faults and gaps the held-out sets of session 62 found (docs/evaluation.md)."""
from __future__ import annotations

import pytest
from checkutil import check_source, cl

RUN_SYNC = '''
    from sqlalchemy.ext.asyncio import AsyncSession

    def _persist(sync_session, run):
        sync_session.add(run)
        sync_session.save_run(run)

    class Service:
        def __init__(self, session: AsyncSession, db: "Database"):
            self.session = session
            self.db = db

        async def f(self, conn, run, ledger):
            {call}
            ledger.append("run_completed", run)

    class Database:
        async def run_sync(self, fn, *args):
            pass
'''


@pytest.mark.parametrize("call, found", [
    ("await self.session.run_sync(_persist, run)", True),   # typed: sqlalchemy's AsyncSession
    ("await conn.run_sync(_persist, run)", True),           # named as a connection
    ("await self._engine_conn.run_sync(_persist, run)", True),
    ("conn.run_sync(_persist, run)", False),                # a coroutine nobody awaits
    ("await self.run_sync(_persist, run)", False),          # the project's own method
    ("await self.db.run_sync(_persist, run)", False),       # typed: a project class's
    ("await worker.run_sync(_persist, run)", False),        # a receiver named as neither
])
def test_sqlalchemys_awaited_run_sync_runs_its_callable_there(call, found):
    # held-out set 253: `await conn.run_sync(fn, x)` on an AsyncConnection or
    # AsyncSession calls `fn(sync_conn, x)` where it is awaited
    assert cl(RUN_SYNC.format(call=call), ["OC101"]) == ([("OC101", 15)] if found else [])


FLAGGED = '''
class Repo:
    def save(self, s, *, commit=True, audit=False):
        if commit:
            self.commit_run(s)
        if audit:
            log_append("run_completed", s)
        self.save_state(s)


def g(repo: Repo, ledger, s):
    repo.save(s, commit={flag})
    ledger.append("run_completed", s)
'''


@pytest.mark.parametrize("flag, line", [("False", 8), ("True", 5)])
def test_a_witness_via_never_names_a_save_the_flag_rules_out(flag, line):
    # session 61's note: the summary's origin of the save is `self.commit_run(s)`,
    # which `commit=False` rules out; the via and the related place name the save
    # the callee still performs under the flag
    [f] = [f for f in check_source(FLAGGED.format(flag=flag), select=["OC101"]) if f.span.line == 13]
    [step] = [s for s in f.witness if s.kind == "save"]
    assert step.via.endswith(f"at example.py:{line}"), step.via
    assert [r.span.line for r in f.related if "save performed via" in r.message] == [line], f.related


def test_a_flagged_via_holds_on_a_warm_run(tmp_path):
    from cliutil import oc
    (tmp_path / "m.py").write_text(FLAGGED.format(flag="False"))
    runs = [oc(tmp_path, "--isolated", "--cache-dir", str(tmp_path / "c"), "m.py") for _ in range(2)]
    for r in runs:
        assert "Repo.save → self.save_state(s) at m.py:8" in r.out, r.out


def test_a_commit_the_witness_passes_names_its_bodys_call():
    # held-out set 260 (university-payments `services.py:189`): a transaction's commit
    # on the witness that is not the finding's own save said "commits: save" alone
    src = '''
from django.db import transaction


def f(intent, ledger):
    with transaction.atomic():
        intent.save()
    intent.save()
    ledger.post(intent)
'''
    table = {"extend-events": {"save": ["*intent.save"], "append": ["*ledger.post"]}}
    [f] = check_source(src, table=table, select=["OC102"])
    assert [(s.span.line, s.text) for s in f.witness if s.kind == "save"] == [
        (6, "`transaction.atomic()` commits: save `intent.save()` at line 7"), (8, "intent.save()")]


def test_an_oc103_witness_shows_no_step_for_a_terminal_append_too_far_down():
    # held-out set 260 (auctionsi `marketplace.py:534`): a call whose terminal append is
    # three calls down is no event of OC103 (docs/decisions.md "A terminal append two
    # calls away"), yet its witness showed it as a step before the pair
    src = '''
class M:
    def _emit(self, kind, a):
        self._ledger.append(a.id, kind)

    def _run_contract(self, a):
        self._emit("TaskCompleted", a)

    def _perform(self, a):
        self._run_contract(a)

    def close(self, a):
        self._perform(a)
        self._emit("AuctionFailed", a)
        self._emit("AuctionCancelled", a)
'''
    [f] = check_source(src, select=["OC103"])
    assert f.span.line == 15
    assert [s.span.line for s in f.witness if s.kind == "terminal-append"] == [14, 15]


def test_suggest_names_a_transaction_functions_glob_that_names_no_function(tmp_path):
    # held-out set 260: a typo in `transaction-functions` was silent, and the helper it
    # meant went on reading as committing alone
    import json

    from cliutil import oc
    (tmp_path / "mod.py").write_text("def _complete(order, ledger):\n    order.save()\n    ledger.record(order)\n")
    (tmp_path / "ordercheck.toml").write_text(
        'transaction-functions = ["mod._compleet", "mod._comp*", "other.*"]\n'
        '[extend-events]\nsave = ["*order.save"]\n')
    r = oc(tmp_path, "suggest", ".")
    assert "2 `transaction-functions` glob(s) name no function" in r.out, r.out
    assert "#   mod._compleet\n" in r.out and "#   other.*" in r.out and "mod._comp*" not in r.out, r.out
    rows = json.loads(oc(tmp_path, "suggest", "--format", "json", ".").out)["unmatched"]
    assert [(u["class"], u["pattern"]) for u in rows] == [
        ("transaction-functions", "mod._compleet"), ("transaction-functions", "other.*")]


@pytest.mark.parametrize("isolated", [False, True])
def test_the_json_fingerprint_without_a_config_is_the_marked_roots(tmp_path, isolated):
    # held-out set 261: with no configuration (none found, or `--isolated`) the JSON's
    # `data.fingerprint` was over the path from the working folder, while SARIF and
    # the baseline use the folder a `pyproject.toml` marks
    import json

    from cliutil import oc
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "shop"\n')
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "redeem.py").write_text(
        "def redeem(card, store, ledger):\n    store.save(card)\n    ledger.append(card.id)\n")
    flag = ["--isolated"] if isolated else []

    def json_print(cwd, target):
        doc = json.loads(oc(cwd, *flag, "--no-cache", "--format", "json", target).out)
        return [d["data"]["fingerprint"] for f in doc["files"] for d in f["diagnostics"]]

    (sarif,) = json.loads(oc(tmp_path / "shop", *flag, "--no-cache", "--format", "sarif", "redeem.py").out
                          )["runs"][0]["results"]
    want = [sarif["partialFingerprints"]["ordercheck/v2"].split(":")[0]]
    assert json_print(tmp_path, "shop/redeem.py") == json_print(tmp_path / "shop", "redeem.py") == want


@pytest.mark.parametrize("package_saves, expected", [(False, ["OC102"]), (True, [])])
@pytest.mark.parametrize("target", [".", "c.py"])
def test_a_package_wins_over_a_module_file_of_its_name(tmp_path, package_saves, expected, target):
    # held-out set 262 (django-twilio-call's `tasks.py` beside `tasks/`): Python imports
    # `a.b` from `a/b/__init__.py`, never `a/b.py`; the index took the module file
    from checkutil import write_tree
    from cliutil import oc
    saves = "def helper(call, CallLog):\n    call.save()\n"
    appends = "def helper(call, CallLog):\n    CallLog.objects.create(call=call)\n"
    write_tree(tmp_path, {
        "ordercheck.toml": '[extend-events]\nsave = ["call.save"]\nappend = ["*CallLog.objects.create"]\n',
        "c.py": "from a.b import helper\n\n\ndef f(call, CallLog):\n    call.save()\n    helper(call, CallLog)\n",
        "a/__init__.py": "",
        "a/b/__init__.py": saves if package_saves else appends,
        "a/b.py": appends if package_saves else saves,
    })
    r = oc(tmp_path, "--no-cache", target)
    assert [code for _, _, _, code, *_ in r.findings()] == expected, r.out


GEN_RETURN = '''
class Worker:
    def drain(self):
        while True:
            msg = self.conn.recv()
            if msg is None:
                {ending}
            yield msg

    def main(self):
        for msg in self.drain():
            self._ledger.append(msg)
'''


@pytest.mark.parametrize("ending, found", [
    ("self._store.save(self.run)\n                return", False),  # only when the items run out
    ("self._store.save(self.run)\n                break", False),
    ("self._store.save(self.run)\n                continue", True),  # more items may follow
    ("self._store.save(self.run)", True),                             # and falls through to the yield
])
def test_a_generators_save_before_its_return_in_the_loop_is_its_tail(ending, found):
    # held-out set 259 (dmoj's `communicate()`): a save that reaches no `yield` any more
    # runs on the `next()` that finds the generator exhausted, after the consumer's
    # appends, not at the call before them
    src = GEN_RETURN.format(ending=ending)
    line = src.splitlines().index("            self._ledger.append(msg)") + 1
    got = cl(src, ["OC102"])
    assert got == ([("OC102", line)] if found else []), got


@pytest.mark.parametrize("table, said", [
    ('save = ["*.persist"]', "a `save` event but no ledger `append`, so OC101, OC102, OC103, OC201, OC202"),
    ('append = ["*.history_add"]', "a ledger `append` but no `save` event, so OC101, OC102, OC203"),
])
def test_a_whole_run_with_one_side_of_the_pair_says_so(tmp_path, table, said):
    # the mission's "finds nothing (silently) when not configured": a configuration
    # that names the saves and misses the ledger (or the reverse) checked nothing that
    # pairs them, and the run said "All checks passed" alone
    import json

    from cliutil import oc
    (tmp_path / "pyproject.toml").write_text(f"[tool.ordercheck.extend-events]\n{table}\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "m.py").write_text("def f(db, run):\n    db.persist(run)\n    db.history_add(run)\n")
    whole = oc(tmp_path, ".")
    assert f"ordercheck: note: the file checked holds {said} had nothing to check" in whole.err, whole.err
    # (its summary line says no finding is no pass: held-out set 378)
    assert whole.out.startswith("No findings (1 file checked), but no ") and "see the note" in whole.out, whole.out
    notes = json.loads(oc(tmp_path, "--format", "json", ".").out)["notes"]
    assert len(notes) == 1 and said in notes[0], notes
    # one file of the project (a hook's, an editor's) may hold one side: no note
    assert "note:" not in oc(tmp_path, "a/m.py").err
    # nor when no selected rule reads the missing side
    assert "note:" not in oc(tmp_path, "--select", "OC301", ".").err
    # both sides: no note
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ordercheck.extend-events]\nsave = ["*.persist"]\nappend = ["*.history_add"]\n')
    assert "note:" not in oc(tmp_path, ".").err


def test_a_chain_written_a_call_a_line_reads_as_one_line():
    # held-out set 265 (privipod `server.py:142`): `type(self)` / `.objects.filter(...)`
    # / `.update(...)` read "type(self) .objects.filter(...) .update(...)"
    src = '''
def expire(self, ledger):
    updated = (
        type(self)
        .objects.filter(pk=self.pk)  # only this row
        .update(status="destroyed")
    )
    ledger.append_event(self)
'''
    table = {"extend-events": {"save": ["*.update"], "append": ["ledger.append_event"]}}
    [f] = check_source(src, table=table, select=["OC102"])
    [step] = [s for s in f.witness if s.kind == "save"]
    assert step.text == 'type(self).objects.filter(pk=self.pk).update(status="destroyed")', step.text


def test_a_graph_label_names_one_via_once(tmp_path):
    # held-out set 265: a call that appends and writes a file through one helper call
    # printed the same chain twice in `--graph`
    from cliutil import oc
    (tmp_path / "m.py").write_text(
        "class Upload:\n    @staticmethod\n    def data(item, f):\n        item.data.write(f.read(), 0)\n\n\n"
        "def update_item(item, f):\n    Upload.data(item, f)\n")
    (tmp_path / "ordercheck.toml").write_text('[extend-events]\nappend = ["*.data.write"]\n'
                                              'file-write = ["*.data.write"]\n')
    r = oc(tmp_path, "--no-cache", "--graph", "m.py:update_item")
    [label] = [ln for ln in r.out.splitlines() if "8: Upload.data(item, f)  [append, file-write]" in ln]
    assert label.count("via Upload.data") == 1 and label.count("→ item.data.write") == 1, label


def test_suggest_offers_no_save_written_with_commit_false(tmp_path):
    # held-out set 265: Django's `form.save(commit=False)` builds the instance and
    # writes nothing
    from cliutil import oc
    (tmp_path / "v.py").write_text(
        "def create(request, form):\n    pod = form.save(commit=False)\n    pod.owner = request.user\n"
        "    pod.save()\n")
    r = oc(tmp_path, "--isolated", "suggest", ".")
    assert '"*pod.save"' in r.out and "form.save" not in r.out, r.out


@pytest.mark.parametrize("header", [
    'if (yield self.conn.recv()) == "stop":\n                return',
    'while (yield self.conn.recv()):\n                pass',
    'for a in (yield self.conn.recv()):\n                pass',
    'with (yield self.conn.recv()):\n                pass',
    'match (yield self.conn.recv()):\n                case "stop":\n                    return',
    'return (yield self.conn.recv())',
])
def test_a_yield_in_a_header_follows_the_save(header):
    # a review of session 62: a `yield` in a compound statement's header (or a
    # `return`'s value) was no `yield` to the tail's reading, so the save before it
    # was read as the tail and the consumer's OC102 was lost
    src = f'''
class W:
    def ask(self):
        while True:
            self._store.save(self.run)
            {header}

    def main(self):
        for m in self.ask():
            self._ledger.append(m)
'''
    line = src.splitlines().index("            self._ledger.append(m)") + 1
    assert cl(src, ["OC102"]) == [("OC102", line)]


def test_a_flags_via_when_the_flag_takes_no_class_out():
    # a review of session 62: `if commit: commit_run() else: save_state()` saves
    # either way; under `commit=False` the via named the call the flag rules out
    src = '''
class Repo:
    def save(self, s, *, commit=True):
        if commit:
            self.commit_run(s)
        else:
            self.save_state(s)
        self.touch(s)


def g(repo: Repo, ledger, s):
    repo.save(s, commit=False)
    ledger.append("run_completed", s)
'''
    [f] = [f for f in check_source(src, select=["OC101"]) if f.function == "g"]
    [step] = [s for s in f.witness if s.kind == "save"]
    assert step.via.endswith("self.save_state(s) at example.py:7"), step.via


@pytest.mark.parametrize("annotation", ["LocalOp", "DbOperator", "deps.DbOperator", "Optional[LocalOp]"])
def test_an_annotated_alias_types_what_it_annotates(tmp_path, annotation):
    # held-out set 266 (vtes-archon, pyskat: FastAPI's `DbOperator = Annotated[db.Operator,
    # Depends(get_op)]`): a parameter annotated with the alias was of no known class
    from checkutil import tree_findings, write_tree
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/db.py": '''
            class Operator:
                def update_tournament(self, t):
                    self._store.save(t)
            ''',
        "app/deps.py": '''
            import typing
            from fastapi import Depends
            from . import db

            def get_op():
                yield db.Operator()

            DbOperator = typing.Annotated[db.Operator, Depends(get_op)]
            ''',
        "app/api.py": f'''
            from typing import Annotated, Optional
            from fastapi import Depends
            from . import db, deps
            from .deps import DbOperator

            LocalOp = Annotated[db.Operator, Depends(deps.get_op)]

            def post(t, ledger, op: {annotation}):
                op.update_tournament(t)
                ledger.append(t.uid, "tournament_event")
            ''',
    })
    found = [(f.path.replace("\\\\", "/").rsplit("/", 1)[-1], f.code, f.span.line) for f in tree_findings(tmp_path)]
    assert found == [("api.py", "OC102", 11)], found


def test_force_exclude_prunes_an_excluded_folder_name_with_a_config_kept_elsewhere(tmp_path):
    # held-out set 268 (froide, `--config ci/ordercheck.toml` with `exclude =
    # ["migrations"]`): the walk pruned `pkg/migrations/`, a pre-commit run of
    # `--force-exclude pkg/migrations/m1.py` checked it
    from checkutil import write_tree
    from cliutil import oc
    body = "def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run.id)\n"
    write_tree(tmp_path, {"pyproject.toml": "[project]\nname = 'x'\n",
                          "ci/ordercheck.toml": 'exclude = ["migrations"]\n',
                          "pkg/__init__.py": "", "pkg/migrations/__init__.py": "",
                          "pkg/migrations/m1.py": body, "pkg/views.py": body})
    whole = oc(tmp_path, "--no-cache", "--config", "ci/ordercheck.toml", ".")
    assert [p for p, *_ in whole.findings()] == ["pkg/views.py"], whole.out
    for target in ("pkg/migrations/m1.py", "pkg/views.py"):
        one = oc(tmp_path, "--no-cache", "--config", "ci/ordercheck.toml", "--force-exclude", target)
        assert [p for p, *_ in one.findings()] == ([target] if target == "pkg/views.py" else []), one.out


def test_suggest_names_an_exclude_events_pattern_that_matches_no_call(tmp_path):
    # held-out set 267 (blinkdesk): a typo in `[exclude-events]` left the call it meant
    # an event, silently; suggest listed only `[events]`/`[extend-events]`
    import json

    from cliutil import oc
    (tmp_path / "m.py").write_text("class Audit:\n    def record(self, x):\n        self.store.save_state(x)\n\n"
                                   "    def go(self, x):\n        self.record(x)\n")
    (tmp_path / "ordercheck.toml").write_text('[extend-events]\nsave = ["*.save_state"]\n'
                                              '[exclude-events]\nsave = ["*.recrod", "*.record"]\n')
    rows = json.loads(oc(tmp_path, "suggest", "--format", "json", ".").out)["unmatched"]
    assert [(u["class"], u["pattern"]) for u in rows] == [("exclude-events.save", "*.recrod")], rows
    assert "#   exclude-events.save *.recrod" in oc(tmp_path, "suggest", ".").out


@pytest.mark.parametrize("caller", [
    "from pkg.svc import service\n\ndef step(store, ledger, run):\n    store.save(run)\n    service.record(ledger, run)\n",
    "from .svc import service\n\ndef step(store, ledger, run):\n    store.save(run)\n    service.record(ledger, run)\n",
    "import pkg.svc as svc\n\ndef step(store, ledger, run):\n    store.save(run)\n    svc.service.record(ledger, run)\n",
])
@pytest.mark.parametrize("by_pattern", [False, True])
def test_an_instance_a_package_rebinds_over_its_submodules_name(tmp_path, caller, by_pattern):
    # held-out set 271 (django-referral-system's `services/__init__.py`: `from .service
    # import service`): the package's attribute is the instance, not the submodule, so
    # `service.record(...)` runs `Service.record` (and matches `*.Service.record`)
    from checkutil import tree_findings, write_tree
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/svc/__init__.py": "from .service import service\n",
        "pkg/svc/service.py": "class Service:\n    def record(self, ledger, run):\n        "
                              + ("pass" if by_pattern else "ledger.append(run)") + "\n\n\nservice = Service()\n",
        "pkg/caller.py": caller,
    })
    table = {"extend-events": {"append": ["*.Service.record"]}} if by_pattern else None
    found = [(f.path.replace("\\\\", "/").rsplit("/", 1)[-1], f.code) for f in tree_findings(tmp_path, table=table)]
    assert found == [("caller.py", "OC102")], found


def test_the_one_sided_note_for_include_without_paths_and_a_folder_named(tmp_path):
    # a second review: `ordercheck` with no paths and `include = ["src"]` said nothing;
    # held-out set 269: a folder named, with no marker above it, said nothing either
    from cliutil import oc
    body = "def f(db, run):\n    db.persist(run)\n"
    (tmp_path / "proj" / "src").mkdir(parents=True)
    (tmp_path / "proj" / "src" / "m.py").write_text(body)
    (tmp_path / "proj" / "pyproject.toml").write_text(
        '[tool.ordercheck]\ninclude = ["src"]\n[tool.ordercheck.extend-events]\nsave = ["*.persist"]\n')
    assert "but no ledger `append`" in oc(tmp_path / "proj").err
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / "m.py").write_text(body)
    (tmp_path / "bare" / "ordercheck.toml").write_text('[extend-events]\nsave = ["*.persist"]\n')
    assert "but no ledger `append`" in oc(tmp_path, "--config", "bare/ordercheck.toml", "bare").err
    # a file that could not be read may hold the other side: said so
    (tmp_path / "bare" / "broken.py").write_text("def f(:\n")
    err = oc(tmp_path, "--config", "bare/ordercheck.toml", "bare").err
    assert "the file read holds a `save` event but no ledger `append` (1 more could not be read)" in err, err


@pytest.mark.parametrize("gen, found", [
    # the save after the resume on the header's line: the tail (a second review)
    ("while True:\n            if (yield self.conn.recv()) is None: self._store.save(self.run); return", False),
    ("while True:\n            m = yield self.conn.recv(); self._store.save(m); return", False),
    # the only `yield` in a `with` header: a generator, its body the tail
    ("with self.lock((yield self.conn.recv())):\n            pass\n        self._store.save(self.run)", False),
    # the save before the header's `yield`, each round: at the call
    ("while True:\n            self._store.save(self.run)\n            if (yield self.conn.recv()) is None: return",
     True),
])
def test_what_shares_a_line_with_a_yield_is_not_one(gen, found):
    src = f'''
class W:
    def ask(self):
        {gen}

    def main(self):
        for m in self.ask():
            self._ledger.append(m)
'''
    line = src.splitlines().index("            self._ledger.append(m)") + 1
    assert cl(src, ["OC102"]) == ([("OC102", line)] if found else [])


def test_a_number_on_a_line_of_its_own_is_not_joined_as_an_attribute():
    # a second review: `.5` starting a continuation line read `append("progress",.5)`
    src = '''
def f(store, ledger, run):
    store.save(run)
    ledger.append("progress",
                  .5)
'''
    [f] = check_source(src, select=["OC102"])
    assert f.witness[-1].text == 'ledger.append("progress", .5)', f.witness[-1].text


def test_force_exclude_skips_a_build_folder_with_a_config_kept_elsewhere(tmp_path):
    from checkutil import write_tree
    from cliutil import oc
    body = "def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run.id)\n"
    write_tree(tmp_path, {"ci/ordercheck.toml": "", "build/lib/m.py": body, "pkg/m.py": body})
    assert not oc(tmp_path, "--no-cache", "--config", "ci/ordercheck.toml", "--force-exclude",
                  "build/lib/m.py").findings()
    assert oc(tmp_path, "--no-cache", "--config", "ci/ordercheck.toml", "--force-exclude", "pkg/m.py").findings()


def test_suggest_offers_an_objects_events_append_not_a_local_lists(tmp_path):
    # held-out set 269 (b-hunters' event log, `self.sink.events.append(...)`): the docs
    # named `events` and suggest never offered it; a local `events = []` stays out
    from cliutil import oc
    (tmp_path / "m.py").write_text(
        "def f(x):\n    events = []\n    events.append(x)\n    return events\n\n\n"
        "class A:\n    def g(self, x):\n        self.stop_events.append(x)\n        self.sink.events.append(x)\n")
    out = oc(tmp_path, "--isolated", "suggest", ".").out
    assert '"*.events.append"' in out and "stop_events" not in out and '"events.append"' not in out, out


def test_suggest_points_at_a_super_call_a_qualified_pattern_misses(tmp_path):
    # held-out set 266: the docs promise `suggest` points at a `self`/`cls`/`super()`
    # call that a qualified pattern never matches; `super()` was left out
    from cliutil import oc
    (tmp_path / "store.py").write_text(
        "class Store:\n    def persist(self, run):\n        return run\n\n\n"
        "class RedisStore(Store):\n    def persist(self, run):\n        return super().persist(run)\n")
    (tmp_path / "ordercheck.toml").write_text('[extend-events]\nsave = ["*.Store.persist"]\n')
    out = oc(tmp_path, "suggest", ".").out
    assert "*.Store.persist   called as `super().persist(run)` at store.py:8" in out, out


@pytest.mark.parametrize("decorator, found", [
    ("@method_decorator(transaction.atomic)", False),
    ("@method_decorator(transaction.atomic(using='db'))", False),
    ("@method_decorator(login_required)", True),
])
def test_a_method_decorated_by_method_decorator_of_atomic_is_a_transaction(decorator, found):
    # held-out set 273 (djangocms-moderation): Django's `@method_decorator(transaction.atomic)`
    # on a view's method runs its body in a transaction, as `@transaction.atomic` does
    src = f'''
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.utils.decorators import method_decorator


class View:
    {decorator}
    def post(self, run, ledger):
        run.save()
        ledger.append_event(run)
'''
    table = {"extend-events": {"save": ["run.save"], "append": ["ledger.append_event"]}}
    assert cl(src, ["OC102"], table=table) == ([("OC102", 11)] if found else [])


def test_suggest_points_at_no_super_call_that_runs_a_base_the_pattern_does_not_name(tmp_path):
    # review 3: `super().persist(run)` inside `Store` runs `Base.persist`; the hint for
    # `*.Store.persist` pointed at it
    from cliutil import oc
    (tmp_path / "m.py").write_text(
        "class Base:\n    def persist(self, run):\n        return run\n\n\n"
        "class Store(Base):\n    def persist(self, run):\n        return super().persist(run)\n")
    (tmp_path / "ordercheck.toml").write_text('[extend-events]\nsave = ["*.Store.persist", "*.Base.persist"]\n')
    rows = [ln for ln in oc(tmp_path, "suggest", ".").out.splitlines() if ln.startswith("#   save")]
    assert rows == ["#   save            *.Store.persist",
                    "#   save            *.Base.persist    called as `super().persist(run)` at m.py:8"], rows
