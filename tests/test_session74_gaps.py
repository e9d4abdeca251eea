"""Faults and gaps found in session 74 (docs/evaluation.md, docs/decisions.md)."""
from __future__ import annotations

from checkutil import write_tree
from cliutil import oc

# (the configuration, and the `__init__`/`__enter__` of test managers that differ in their `__exit__`)
from test_session73_gaps import EVENTS, MANAGER_HEAD


def saves_within(module, **managers):
    """A `run.py` whose functions each save a state inside one manager of `module`
    (class name -> function name), in the order given, after one import line."""
    head = f"from {module} import {', '.join(sorted(managers))}\n"
    return head + "".join(f"\n\ndef {fn}(self, state):\n    with {cls}(self.ledger):\n        self.store.save(state)\n"
                          for cls, fn in managers.items())


STAR_EXITS = {
    "ordercheck.toml": EVENTS,
    "steps.py": '''\
class Always:
''' + MANAGER_HEAD + '''
    def __exit__(self, *args):
        if args:
            self.ledger.append("step_completed")


class Failing:
''' + MANAGER_HEAD + '''
    def __exit__(self, *exc_info):
        if exc_info[0] is not None:
            self.ledger.append("step_failed")


class AnyFailing:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, *rest):
        if any(rest) or rest[1] is not None:
            self.ledger.append("step_failed")
''',
    "run.py": saves_within("steps", Always="always", Failing="failing", AnyFailing="any_failing"),
}


def test_an_exit_with_star_args_is_read_per_way_out(tmp_path):
    """`def __exit__(self, *args)` was read as if `args` were the exception's type:
    `if args:` (a tuple of three Nones at a normal exit: true) was taken as false
    there, and the terminal append after the body's save was missed. The tuple's items
    are the three values (`exc_info[0] is not None` decides as `exc_type is not None`
    does; `any(rest)` as the exception's presence)."""
    write_tree(tmp_path, STAR_EXITS)
    want = [("run.py", 5, "OC101")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, "run.py").codes() == want


#: a class manager that appends its failure record only when an exception is in flight
STEP = '''\
class Step:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.ledger.append("step_failed")
        return False
'''


SUPER_EXITS = {
    "ordercheck.toml": EVENTS,
    "base.py": STEP,
    "steps.py": '''\
from base import Step


class Named(Step):
    def __exit__(self, exc_type, exc, tb):
        self.ledger.append("step_closing")
        return super().__exit__(exc_type, exc, tb)


class Starred(Step):
    def __exit__(self, *exc_info):
        return super().__exit__(*exc_info)


class Swapped(Step):
    def __exit__(self, exc_type, exc, tb):
        return super().__exit__(exc, exc_type, None)


class Delegating:
    def __init__(self, ledger):
        self._inner = Step(ledger)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return self._inner.__exit__(*exc_info)
''',
    "run.py": saves_within("steps", Named="named", Starred="starred", Swapped="swapped", Delegating="delegating"),
}


def test_an_exit_that_hands_its_exception_on_runs_the_callee_at_the_same_exit(tmp_path):
    """A subclass's `__exit__` that ends `return super().__exit__(exc_type, exc, tb)`
    (or `(*exc_info)`, or a wrapper's `self._inner.__exit__(*exc_info)`) was read as
    doing its base's failure branch at every exit: a false OC101 after the body's save.
    The callee gets the same three values, so at a normal exit it does what the base
    does there (the subclass's own "closing" append still comes after the save: OC102);
    a call that passes other values (`Swapped`) decides nothing."""
    write_tree(tmp_path, SUPER_EXITS)
    want = [("run.py", 5, "OC102"), ("run.py", 15, "OC101")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, "run.py").codes() == want
    named = oc(tmp_path, "--no-cache", ".").out.split("run.py:5")[1].split("run.py:15")[0]
    assert "step_closing" in named and "step_failed" not in named


def test_an_edit_of_the_base_exit_reaches_the_subclass_exit_in_a_warm_run(tmp_path):
    """The split of the exit a subclass hands its exception on to is part of what the
    subclass's remembered summary was computed from: an edit of the base's test alone
    (its summary unchanged) is seen in a warm run."""
    write_tree(tmp_path, SUPER_EXITS)
    assert ("run.py", 10, "OC101") not in oc(tmp_path, ".").codes()
    base = tmp_path / "base.py"
    base.write_text(base.read_text().replace("if exc_type is not None:", "if exc_type is None:"))
    warm = oc(tmp_path, ".").codes()
    assert warm == oc(tmp_path, "--no-cache", ".").codes()
    assert ("run.py", 10, "OC101") in warm


AWAITED_FACTORIES = {
    "pyproject.toml": "",
    "ordercheck.toml": '[events]\nsave = ["pkg.store.Store.save"]\nappend = ["pkg.store.Ledger.append"]\n',
    "pkg/__init__.py": "",
    "pkg/store.py": '''\
class Store:
    async def save(self, x):
        pass


class Ledger:
    async def append(self, x):
        pass


async def open_store() -> Store:
    return Store()


def open_plain() -> Store:
    return Store()
''',
    "pkg/run.py": '''\
from pkg import store as db
from pkg.store import Ledger, open_store


async def _own_store() -> "db.Store":
    return db.Store()


async def imported(x, ledger: Ledger):
    s = await open_store()
    await s.save(x)
    await ledger.append("step_completed")


async def dotted(x, ledger: Ledger):
    s = await db.open_store()
    await s.save(x)
    await ledger.append("step_completed")


async def same_file(x, ledger: Ledger):
    s = await _own_store()
    await s.save(x)
    await ledger.append("step_completed")


class Service:
    async def start(self):
        self.store = await open_store()
        self.ledger = Ledger()

    async def step(self, x):
        await self.store.save(x)
        await self.ledger.append("step_completed")


async def awaits_something_else(x, ledger: Ledger, pool):
    s = await pool.acquire()
    await s.save(x)
    await ledger.append("step_completed")
''',
}


def test_a_store_an_awaited_factory_returns_is_typed_as_its_annotation_says(tmp_path):
    """`s = await open_store()` of a project `async def open_store() -> Store` (imported,
    through a module, or the file's own; also `self.store = await open_store()`) left
    `s` untyped, so a configured `pkg.store.Store.save` matched nothing there (the run
    said so in its note); the awaited call returns what the annotation names, as a
    plain factory's call does (session 70, 73). An awaited call of anything else
    (`await pool.acquire()`) stays untyped."""
    write_tree(tmp_path, AWAITED_FACTORIES)
    want = [("pkg/run.py", 12, "OC101"), ("pkg/run.py", 18, "OC101"), ("pkg/run.py", 24, "OC101"),
            ("pkg/run.py", 34, "OC101")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, "pkg/run.py").codes() == want


LOCAL_IMPORT_HELPER = {
    "pyproject.toml": "",
    "ordercheck.toml": '[extend-events]\nsave = ["*._save_state", "*._save_state_unsafe"]\n',
    "state.py": '''\
import logging

log = logging.getLogger(__name__)


def _save_state(data):
    import json
    try:
        with open("state.json", "w") as fh:
            json.dump(data, fh)
    except Exception:
        log.warning("state not saved")


def _save_state_unsafe(data):
    import json
    fh = open("state.json", "w")
    try:
        json.dump(data, fh)
    except Exception:
        log.warning("state not saved")


def fire(probe, key):
    try:
        probe.get(key)
        _save_state({"k": key})
    except Exception:
        pass


def fire_unsafe(probe, key):
    try:
        probe.get(key)
        _save_state_unsafe({"k": key})
    except Exception:
        pass
''',
}


def test_a_function_level_import_before_the_try_does_not_let_a_named_helper_fail_out(tmp_path):
    """Set 470 (a delivery-dispatch MCP server): `_save_state`, a save by its configured
    name, catches and logs every failure of its write, but its `import json` before
    the `try` was read as a way its save could fail out, so every caller's silent
    handler was an OC203. An import is never the event the helper's name says; a call
    before the `try` (`open(...)` in `_save_state_unsafe`) still is."""
    write_tree(tmp_path, LOCAL_IMPORT_HELPER)
    assert oc(tmp_path, "--no-cache", ".").codes() == [("state.py", 35, "OC203")]


FACTORY_NOTE = {
    "pyproject.toml": "",
    "ordercheck.toml": '[events]\nsave = ["pkg.store.Store.save"]\nappend = ["*.ledger.append"]\n',
    "pkg/__init__.py": "",
    "pkg/store.py": "class Store:\n    def save(self, x):\n        pass\n\n\ndef open_store() -> Store:\n    return Store()\n",
    "pkg/run.py": '''\
from pkg.store import open_store


def go(x):
    s = open_store()
    try:
        s.save(x)
    except Exception:
        pass
''',
}


def test_a_warm_run_names_the_same_unmatched_patterns_as_a_cold_one(tmp_path):
    """A review (session 74): `s = open_store()` of a project factory typed `s`, so
    `pkg.store.Store.save` matched and a cold run's note named only the append pattern
    as matching no call; a warm run, whose project phase typed nothing again, named the
    save pattern too. The note's hint types the files it reads again as the run did."""
    write_tree(tmp_path, FACTORY_NOTE)
    cold = oc(tmp_path, "--no-cache", ".")
    assert cold.codes() == [("pkg/run.py", 7, "OC203")]
    assert "`*.ledger.append` (append)" in cold.err and "Store.save" not in cold.err.split("matching no call")[1]
    oc(tmp_path, ".")
    for _ in range(2):
        warm = oc(tmp_path, ".")
        assert warm.codes() == cold.codes()
        assert warm.err == cold.err


HANDED_ON_REVIEW = {
    "ordercheck.toml": EVENTS,
    "base.py": STEP + '''

class Quiet:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            return True
        return False
''',
    "steps.py": '''\
from base import Quiet, Step


class NoSelf:
''' + MANAGER_HEAD + '''
    def __exit__(*args):
        if args[0] is not None:
            args[0].ledger.append("step_completed")


class Async:
    def __init__(self, ledger):
        self.ledger = ledger

    async def __aenter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.ledger.append("step_failed")

    async def __aexit__(self, *exc_info):
        return self.__exit__(*exc_info)


class QuietToo(Quiet):
    def __exit__(self, exc_type, exc, tb):
        return super().__exit__(exc_type, exc, tb)


class QuietNot(Quiet):
    def __exit__(self, exc_type, exc, tb):
        super().__exit__(exc_type, exc, tb)
''',
    "run.py": '''\
from steps import Async, NoSelf, QuietNot, QuietToo


def no_self(self, state):
    with NoSelf(self.ledger):
        self.store.save(state)


async def asynchronous(self, state):
    async with Async(self.ledger):
        self.store.save(state)


def quiet_too(self):
    with QuietToo(self.ledger):
        self.ledger.append("step_started")


def quiet_not(self):
    with QuietNot(self.ledger):
        self.ledger.append("step_started")
''',
}


def test_a_review_of_handing_the_exit_on(tmp_path):
    """A review of the first version: `__exit__(*args)` with no `self` holds `self` at
    `args[0]` (never None: its append runs at every exit, an OC101); an `__aexit__`
    that hands its values on to `self.__exit__(*exc_info)` was read again whole as one
    of the manager's own methods (a false OC101 at the normal exit); and an exit that
    returns its base's `__exit__(...)` suppresses as the base does (an OC202 for the
    body's append), while one that drops the value does not."""
    write_tree(tmp_path, HANDED_ON_REVIEW)
    want = [("run.py", 5, "OC101"), ("run.py", 16, "OC202")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, "run.py").codes() == want
    base = tmp_path / "base.py"
    base.write_text(base.read_text().replace("            return True\n", "            return False\n"))
    assert oc(tmp_path, ".").codes() == [("run.py", 5, "OC101")]  # (warm: the base's suppression is in the key)


DJANGO_ASYNC = {
    "pyproject.toml": '[project]\nname = "p"\n[tool.ordercheck.extend-events]\nsave = ["*store.save"]\n'
                      'append = ["*.history_ledger.append"]\n',
    "app/__init__.py": "",
    "app/models.py": '''\
from django.db import models


class Package(models.Model):
    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        self.history_ledger.append(self.pk)


class Plain:
    def save(self):
        self.history_ledger.append(1)
''',
    "app/rec.py": '''\
from app.models import Package, Plain


async def created(store, number):
    store.save(number)
    await Package.objects.acreate(number=number)


async def saved(store, number):
    p = Package(number=number)
    store.save(number)
    await p.asave()


async def updated(store, number):
    store.save(number)
    obj, made = await Package.objects.aupdate_or_create(number=number)


async def not_a_model(store, number):
    p = Plain()
    store.save(number)
    await p.asave()


async def swallowed(number):
    try:
        await Package.objects.aget_or_create(number=number)
    except Exception:
        return None
''',
}


def test_django_async_manager_and_model_methods_run_the_models_save(tmp_path):
    """Set 473 (a parcel tracker): Django's `acreate`, `aget_or_create`,
    `aupdate_or_create` and a model's `asave()` run the model's `save()` (in a thread),
    as `create` does, but carried nothing of the project's `save` override, whose
    history append was missed (OC102 after a save; OC202 in a silent handler). A class
    that is no model has no `asave` of Django's."""
    write_tree(tmp_path, DJANGO_ASYNC)
    assert oc(tmp_path, "--no-cache", ".").codes() == [
        ("app/rec.py", 6, "OC102"), ("app/rec.py", 12, "OC102"), ("app/rec.py", 17, "OC102"),
        ("app/rec.py", 28, "OC202")]


ALSO_SAVES_TEXT = {
    "pyproject.toml": '[project]\nname = "p"\n[tool.ordercheck.extend-events]\nsave = ["*.save"]\n'
                      'append = ["*bev.finish"]\n',
    "pkg/__init__.py": "",
    "pkg/task.py": "def export(rec, bev):\n    rec.save()\n    bev.finish()\n",
    "pkg/cmd_a.py": "from pkg.task import export\n\n\ndef handle(rec, bev):\n    export(rec, bev)\n",
}


def test_suggest_names_the_call_of_a_helper_that_appends_and_saves(tmp_path):
    """Set 473: the "also saves" row of an append pattern that matches a call in a
    helper's own body named the helper's call by an empty text (`called at
    pkg/cmd_a.py:5` and nothing after it; JSON `"code": ""`): that file was read only
    as an outline, which keeps no call's text."""
    import json
    write_tree(tmp_path, ALSO_SAVES_TEXT)
    text = oc(tmp_path, "suggest", "--no-cache", ".").out
    assert "called at pkg/cmd_a.py:5  export(rec, bev)" in text, text
    rows = json.loads(oc(tmp_path, "suggest", "--format", "json", "--no-cache", ".").out)["also_saves"]
    assert [r["call"]["code"] for r in rows] == ["export(rec, bev)"], rows


DJANGO_ASYNC_VIEWS = '''\
from app.models import Parcel, ParcelEvent


async def track(number, status):
    parcel = await Parcel.objects.aget(number=number)
    parcel.status = status
    await parcel.asave()
    await ParcelEvent.objects.acreate(parcel=parcel, status=status)
    await Parcel.objects.filter(number=number).aupdate(status=status)


def not_awaited(parcel):
    parcel.asave
    return parcel.acreate()
'''


def test_suggest_offers_djangos_async_writes(tmp_path):
    """Set 473: Django's `await parcel.asave()`, `await Model.objects.acreate(...)` and
    `await qs.aupdate(...)` were never offered, while their sync forms were; they read
    as the methods they run. A call not awaited is no Django async write."""
    write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "p"\n', "app/__init__.py": "",
                          "app/models.py": "", "app/views.py": DJANGO_ASYNC_VIEWS})
    rows = suggested_rows(tmp_path)
    assert ("save", "*.objects.acreate") in rows, rows
    assert ("save", "*.filter().aupdate") in rows, rows
    assert ("save", "app.models.Parcel.asave") in rows, rows
    assert not [p for _, p in rows if p.endswith(".acreate") and "objects" not in p], rows


def suggested_rows(tmp_path):
    """`suggest`'s (class, pattern) rows over the folder, in its order."""
    import json
    return [(r["class"], r["pattern"]) for r in
            json.loads(oc(tmp_path, "suggest", "--format", "json", "--no-cache", ".").out)["suggestions"]]


PANDAS_WRITES = '''\
import os
import tempfile
from pathlib import Path

import pandas as pd


def write_candles(df: pd.DataFrame, path: str) -> None:
    tmp = path + ".tmp"
    df.to_parquet(tmp, index=False)
    os.replace(tmp, path)


def write_csv(df, path: Path) -> None:
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as t:
        tmp = Path(t.name)
    df.to_csv(tmp)
    os.replace(tmp, path)


def synced(df, path):
    tmp = path + ".tmp"
    df.to_csv(tmp)
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def as_text(model, path):
    text = model.to_json()
    os.replace(path + ".old", path)
    return text
'''


def test_a_table_pandas_writes_then_renames_unsynced_is_an_oc301(tmp_path):
    """Set 472 (trading tools' candle caches): `df.to_parquet(tmp)` / `df.to_csv(tmp)`
    then `os.replace(tmp, path)` with no fsync was no OC301 by default; pandas'
    writers are file writes now. An fsync between still clears it, and `to_json()`
    (a string, on many classes) is no write."""
    write_tree(tmp_path, {"pyproject.toml": "", "cache.py": PANDAS_WRITES})
    assert oc(tmp_path, "--no-cache", "--isolated", ".").codes() == [("cache.py", 11, "OC301"),
                                                                      ("cache.py", 18, "OC301")]


CONDITIONAL_HELPERS = '''\
def finish(store, ledger, run):
    store.save(run)
    if run.ok:
        return True
    ledger.append_event(run)
    return False


def finish_always(store, ledger, run):
    store.save(run)
    ledger.append_event(run)
    return run.ok


def step(store, ledger, run):
    store.save(run)
    if finish(store, ledger, run):
        return 1
    return 0


def step_always(store, ledger, run):
    store.save(run)
    if finish_always(store, ledger, run):
        return 1
    return 0


def mark(store, ledger, run):
    ledger.append_event(run)
    if run.ok:
        store.save(run)
        return True
    return False


def step_marked(store, ledger, run):
    store.save(run)
    if not mark(store, ledger, run):
        return 0
    return 1


def step_then_append(store, ledger, run):
    store.save(run)
    if finish(store, ledger, run):
        ledger.append_event(run)
'''


def test_a_calls_own_save_covers_its_own_append_on_either_outcome(tmp_path):
    """Set 475 (a Telegram dispatcher on Django's async ORM): `if finish(run):` of a
    helper that saves, then appends only when it returns False, carries the save on
    the call and the append on its false outcome; the append was paired with the
    caller's earlier save, a false OC102 (OC101 for a terminal one), while the same
    helper appending on both ways (`step_always`) was silent: the call's own save
    covers its own append. On the false outcome the call performed both, so its save
    covers the append there. The call node is still read alone (docs/decisions.md
    "OC301's `then`"): `mark` appends on every way and saves only when it returns True,
    so on its False way the append stands after the caller's save, uncovered. The
    helpers' own orders are still found inside them, and an append of the caller's
    after the call still is."""
    write_tree(tmp_path, {"pyproject.toml": "", "runs.py": CONDITIONAL_HELPERS})
    assert oc(tmp_path, "--no-cache", "--isolated", ".").codes() == [
        ("runs.py", 5, "OC102"), ("runs.py", 11, "OC102"), ("runs.py", 39, "OC102"), ("runs.py", 47, "OC102")]


OUTCOME_REVIEW = '''\
import logging

log = logging.getLogger(__name__)


def settle(store, ledger, run):
    if run.ok:
        store.save(run)
        return True
    if run.retry:
        store.save(run)
        return False
    ledger.append_event(run, "run_failed")
    return False


def tick(store, ledger, run):
    store.save(run)
    if not settle(store, ledger, run):
        return 0
    return 1


def close(ledger, run):
    log.warning("closing %s", run)
    if run.ok:
        return True
    ledger.append_event(run)
    return False


def warned(store, ledger, run):
    if not close(ledger, run):
        store.save(run)
'''

UNWARNED = '''\
id = "XY101"
name = "append-then-save-unwarned"
severity = "warning"
kind = "sequence"
first = ["append"]
then = ["save"]
barrier = ["surface", "!append"]
message = "save after an append with no warning between"
explanation = "x"
'''


def test_a_review_of_the_outcome_cover(tmp_path):
    """A review of the first version, which covered an outcome's classes by whatever
    the call's node carries: that node carries what the helper does on *some* way back,
    and `settle` saves on one False way and appends on another, so the append's way
    has no save of its own (the caller's OC101 was lost); only what the helper does on
    every way back covers now. And a negated class of the cover reads the outcome's own
    classes: `close` warns, then appends only when it returns False, so on that way the
    call is no `["surface", "!append"]` barrier (a user rule's finding was lost)."""
    write_tree(tmp_path, {"pyproject.toml": "", "runs.py": OUTCOME_REVIEW})
    assert oc(tmp_path, "--no-cache", "--isolated", ".").codes() == [("runs.py", 19, "OC101")]
    write_tree(tmp_path, {"ordercheck.toml": 'rules = ["xy.toml"]\nselect = ["XY"]\n', "xy.toml": UNWARNED})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("runs.py", 34, "XY101")]


IMPORT_REVIEW = {
    "pyproject.toml": "",
    "ordercheck.toml": '[extend-events]\nsave = ["*._save_state"]\n',
    "state.py": '''\
import logging

log = logging.getLogger(__name__)


def _save_state(data, path):
    import json; key = data["k"]
    try:
        with open(path, "w") as fh:
            json.dump({key: data}, fh)
    except Exception:
        log.warning("state not saved")


def fire(data, path):
    try:
        _save_state(data, path)
    except Exception:
        pass
''',
}


def test_an_import_beside_another_statement_on_its_line_still_fails_out(tmp_path):
    """A review: a line of several statements is one node's text, so `import json; key =
    data["k"]` was skipped as an import, and the subscript's failure with it."""
    write_tree(tmp_path, IMPORT_REVIEW)
    assert oc(tmp_path, "--no-cache", ".").codes() == [("state.py", 17, "OC203")]


def test_asave_of_a_model_whose_save_a_mixin_defines(tmp_path):
    """A review: `p.asave()` of `class Parcel(HistoryMixin, models.Model)`, whose `save`
    the mixin defines, was not resolved: the model test read the mixin, not the
    instance's class."""
    write_tree(tmp_path, {
        "pyproject.toml": DJANGO_ASYNC["pyproject.toml"], "app/__init__.py": "",
        "app/models.py": "from django.db import models\n\n\nclass HistoryMixin:\n"
                         "    def save(self, *args, **kwargs):\n        super().save(*args, **kwargs)\n"
                         "        self.history_ledger.append(self.pk)\n\n\n"
                         "class Parcel(HistoryMixin, models.Model):\n    pass\n",
        "app/rec.py": "from app.models import Parcel\n\n\nasync def saved(store, number):\n"
                      "    p = Parcel(number=number)\n    store.save(number)\n    await p.asave()\n"})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("app/rec.py", 7, "OC102")]


HANDED_TYPED = {
    "pyproject.toml": "",
    "ordercheck.toml": '[extend-events]\nsave = ["*.JobStore.update_job"]\n',
    "app/__init__.py": "",
    "app/store.py": "class JobStore:\n    def update_job(self, job):\n        return job\n\n\n"
                    "class SqlStore(JobStore):\n    pass\n",
    "app/sched.py": '''\
import asyncio
import functools

from .store import JobStore, SqlStore


class Scheduler:
    def __init__(self, store: JobStore, ledger, pool):
        self.store = store
        self.ledger = ledger
        self._pool = pool

    def _store_call(self, func, *args):
        return func(*args)

    def advance(self, job):
        self._store_call(self.store.update_job, job)
        self.ledger.append(job.id)

    def advance_sub(self, job):
        store = SqlStore()
        self._store_call(store.update_job, job)
        self.ledger.append(job.id)

    async def in_pool(self, job):
        loop = asyncio.get_running_loop()
        call = functools.partial(self.store.update_job, job)
        await loop.run_in_executor(self._pool, call)
        self.ledger.append(job.id)

    async def _pooled(self, func, *args):
        call = functools.partial(func, *args)
        if self._pool is None:
            return call()
        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    async def through_helper(self, job):
        await self._pooled(self.store.update_job, job)
        self.ledger.append(job.id)
''',
}


def test_a_typed_method_handed_to_a_helper_or_held_in_a_partial(tmp_path):
    """Set 478 (a job scheduler): `self._store_call(self.store.update_job, job)` of
    `store: JobStore` matched `*.JobStore.update_job` by text only, not by the class's
    names a call of it there has (nor a subclass's instance's); and `call =
    functools.partial(self.store.update_job, job)` kept in a name, then called or handed
    to `run_in_executor`, was no call of the method, nor did a helper that runs its
    first parameter so count as running it."""
    write_tree(tmp_path, HANDED_TYPED)
    want = [("app/sched.py", 18, "OC102"), ("app/sched.py", 23, "OC102"), ("app/sched.py", 29, "OC102"),
            ("app/sched.py", 39, "OC102")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, "app/sched.py").codes() == want


DUAL_PROTOCOL = '''\
from contextlib import suppress

IGNORED = (Exception,)


class Span:
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        return None

    async def __aenter__(self):
        return self

    async def __aexit__(self, exc_type, exc, tb):
        return True


async def finish(ledger, run):
    async with Span():
        await ledger.append_terminal(run)


async def starred(ledger, run):
    with suppress(*IGNORED):
        await ledger.append_terminal(run)


async def written(ledger, run):
    with suppress(*(Exception,)):
        await ledger.append_terminal(run)


async def narrow(ledger, run):
    with suppress(*(KeyError,)):
        await ledger.append_terminal(run)
'''


def test_an_async_with_of_a_class_with_both_protocols_and_a_starred_suppress(tmp_path):
    """Set 477 (async unit-of-work services): `async with Span():` of a class with both
    `__enter__`/`__exit__` and `__aenter__`/`__aexit__` runs the async pair, but the
    call graph's edges named the sync pair, so a run with the pre-pass read no summary
    of `__aexit__` and its `return True` swallowed nothing (OC201 only with
    `ORDERCHECK_PREPASS=0`); and `suppress(*IGNORED)` of `IGNORED = (Exception,)` (or
    `*(Exception,)`) was read as one type named `IGNORED`, no broad one."""
    write_tree(tmp_path, {"pyproject.toml": "", "svc.py": DUAL_PROTOCOL})
    want = [("svc.py", 22, "OC201"), ("svc.py", 27, "OC201"), ("svc.py", 32, "OC201")]
    assert oc(tmp_path, "--no-cache", "--isolated", ".").codes() == want
    assert oc(tmp_path, "--isolated", "svc.py").codes() == want


def test_suggest_gives_no_annotation_advice_for_an_attribute_of_another_object(tmp_path):
    """Set 476: `*.Runs.update` matching no `store.runs.update(r)` was explained as "annotate
    the class's `runs: T`", though `Store` annotates it and an attribute of another
    object is never typed (docs/decisions.md, session 48); only the row's own pattern
    works. A plain untyped receiver keeps the annotation advice."""
    write_tree(tmp_path, {
        "pyproject.toml": "", "ordercheck.toml": '[extend-events]\nsave = ["*.Runs.update", "*.Job.close"]\n',
        "pkg/__init__.py": "",
        "pkg/st.py": "class Runs:\n    def update(self, r):\n        raise NotImplementedError\n\n\n"
                     "class Store:\n    runs: Runs\n\n\ndef b(store: Store, ledger, r, job):\n"
                     "    store.runs.update(r)\n    job.close()\n    ledger.append(r)\n"})
    text = oc(tmp_path, "suggest", "--no-cache", ".").out
    assert "annotate the class's" not in text
    assert ("misses `store.runs.update(r)` at pkg/st.py:11 (an attribute of another object has no known type, "
            "annotated or not): add `*.runs.update`") in text, text
    assert "misses `job.close()` at pkg/st.py:12 (its receiver has no known type: an annotation" in text, text


PARTIAL_REVIEW = '''\
import functools


class Svc:
    def __init__(self, repo, store, ledger):
        self.repo = repo
        self.store = store
        self.ledger = ledger

    def _call(self, fn, *args):
        return fn(*args)

    def finish(self, s):
        upd = functools.partial(self.repo.save, s, commit=False)
        upd()
        self.ledger.append_record(s.id)

    def handed_alias(self, run):
        save = self.store.save
        self._call(save, run)
        self.ledger.append_record(run.id)
'''


def test_a_review_of_partials_and_handed_aliases(tmp_path):
    """Set 479: `upd = functools.partial(self.repo.save, s, commit=False)` read as an
    alias of `self.repo.save` dropped the flag that makes it no save (a false OC102):
    a partial with keyword arguments is no alias; and `save = self.store.save` handed to
    a helper that runs its first parameter (`self._call(save, run)`) was not followed
    through the alias, as `self._call(self.store.save, run)` is."""
    write_tree(tmp_path, {"pyproject.toml": '[tool.ordercheck.extend-events]\nsave = ["*.repo.save", "*.store.save"]\n',
                          "app.py": PARTIAL_REVIEW})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("app.py", 21, "OC102")]


PARTIAL_NAMES = '''\
import functools


class Cache:
    def flush(self, key, value):
        put = functools.partial(self._store.put, key)
        put.keywords.setdefault("ttl", 60)
        self.ledger.append(key)


def run(store, client, r):
    record_event = functools.partial(client.write, "events")
    store.save(r)
    record_event(r)
'''


def test_a_partials_name_is_its_callable_only_where_called(tmp_path):
    """A review: a name bound to a partial was its callable also as a receiver
    (`put.keywords.setdefault(...)` read as `self._store.put.keywords.setdefault`, a
    save by `*_store.put*`: a false OC102), and a pattern naming the partial's own name
    (`record_event`) no longer matched its call."""
    write_tree(tmp_path, {"pyproject.toml": "", "ordercheck.toml": '[extend-events]\nappend = ["record_event"]\n',
                          "runs.py": PARTIAL_NAMES})
    assert oc(tmp_path, "--no-cache", ".").codes() == [("runs.py", 14, "OC102")]


NESTED_TYPES = '''\
from contextlib import suppress

BASE = (Exception,)
IGNORED = (BASE, KeyError)


async def starred(ledger, run):
    with suppress(*IGNORED):
        await ledger.append_terminal(run)


async def unstarred(ledger, run):
    with suppress(IGNORED):
        await ledger.append_terminal(run)


async def narrow(ledger, run):
    with suppress(*(KeyError,)):
        await ledger.append_terminal(run)
'''


def test_suppress_reads_a_tuple_of_tuples_as_an_except_clause_does(tmp_path):
    """A review: `suppress(*IGNORED)` of `IGNORED = (BASE, KeyError)`, `BASE =
    (Exception,)`, and `suppress(IGNORED)` (a tuple is a type argument to `issubclass`)
    were read one level deep, missing the broad `Exception`, which `except IGNORED:`
    finds."""
    write_tree(tmp_path, {"pyproject.toml": "", "svc.py": NESTED_TYPES})
    assert oc(tmp_path, "--no-cache", "--isolated", ".").codes() == [("svc.py", 9, "OC201"), ("svc.py", 14, "OC201")]
