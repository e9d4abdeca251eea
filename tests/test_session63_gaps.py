"""Faults and gaps the held-out sets of session 63 found (docs/evaluation.md)."""
from __future__ import annotations

import pytest
from checkutil import cl, tree_findings, write_tree

WRAPPED = '''
    import logging
    LOG = logging.getLogger(__name__)

    class Store:
        def __init__(self):
            self.logger = logging.getLogger("store")

        def _log(self, message, message2="", level="info"):
            getattr(self.logger, level)(message)

        def finish(self, run, e=None):
            try:
                self.ledger.append("run_completed", run)
            except Exception as e:
                {handler}
'''


@pytest.mark.parametrize("handler, found", [
    ('self._log("append failed", level="error")', False),       # by keyword
    ('self._log("append failed", "", "exception")', False),    # by position
    ('self._log("append failed", level=logging.WARNING)', False),  # a level constant
    ('self._log("append failed", level="ERROR")', False),
    ('self._log("append failed")', True),                        # no level given: as before
    ('self._log("append failed", level="debug")', True),
    ('self._log("append failed", str(e), level="debug")', True),  # handed to a debug call: lost
    ('self._log("append failed", str(e), level="bogus")', False),  # handed on, not a level
    ('getattr(LOG, "error")("append failed")', False),           # a constant attribute name
    ('getattr(LOG, "info")("append failed")', True),
])
def test_a_logger_method_named_through_getattr_is_that_method(handler, found):
    # held-out set 264: unmanic's six `_log(message, message2='', level="info")`
    # wrappers log through `getattr(self.logger, level)(message)`; the handlers that
    # call them with `level="error"` read as silent (OC201, OC204)
    got = cl(WRAPPED.format(handler=handler), ["OC201", "OC204"])
    assert got == ([("OC201", 14), ("OC204", 15)] if found else [])


def test_a_constant_attribute_through_getattr_is_that_call():
    src = '''
        def finish(store, ledger, run):
            getattr(store, "save_run")(run)
            ledger.append("run_completed", run)
    '''
    table = {"events": {"save": ["*.save_run"], "append": ["*ledger.append"]}}
    assert cl(src, ["OC101"], table=table) == [("OC101", 4)]
    # a computed name is no call of any method (a receiver that is no logger)
    assert cl(src.replace('"save_run"', "name"), ["OC101"], table=table) == []


def test_a_getattr_the_module_defines_is_not_the_builtin():
    src = '''
        def getattr(obj, name):
            return print

        def finish(store, ledger, run):
            getattr(store, "save_run")(run)
            ledger.append("run_completed", run)
    '''
    table = {"events": {"save": ["*.save_run"], "append": ["*ledger.append"]}}
    assert cl(src, ["OC101"], table=table) == []


def test_a_wrapper_in_another_module_forwards_the_level(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": '''
            import logging

            class Base:
                logger = logging.getLogger("x")

                def _log(self, message, level="info"):
                    getattr(self.logger, level)(message)
        ''',
        "pkg/store.py": '''
            from .base import Base

            class Store(Base):
                def finish(self, run):
                    try:
                        self.ledger.append("run_completed", run)
                    except Exception:
                        self._log("append failed", level="error")
        ''',
    })
    for level, found in (("error", False), ("debug", True)):
        (tmp_path / "pkg/store.py").write_text((tmp_path / "pkg/store.py").read_text()
                                               .replace('"error"', f'"{level}"'))
        got = [(f.code, f.span.line) for f in tree_findings(tmp_path, ["OC204"])]
        assert got == ([("OC204", 8)] if found else []), level


HANDED_LAMBDA = '''
    class Svc:
        def _retry(self, fn, *args):
            for _ in range(3):
                try:
                    return fn(*args)
                except OSError:
                    continue

        def finish(self, run):
            {call}
            self.ledger.append("run_completed", run)
'''


@pytest.mark.parametrize("call, found", [
    ("self._retry(lambda: self.store.save(run))", True),
    ("self._retry(lambda: self.store.save(run), 1)", True),
    ("self._retry(self.store.save, run)", True),             # (session 56's form)
    ("self._retry(lambda r: r.save())", False),              # its own parameter: unknown
    ("self._retry(lambda *r: r.save())", False),
    ("self._retry(lambda: [self.store.save(run)])", False),  # no call as its whole body
    ("self._hold(lambda: self.store.save(run))", False),     # a helper that runs nothing
])
def test_a_lambda_handed_to_a_project_helper_runs_its_call_there(call, found):
    # session 62's notes: `retry(lambda: store.save(run))` was no save where
    # `retry(store.save, run)` was one
    src = HANDED_LAMBDA.format(call=call) + '''
        def _hold(self, fn):
            self.callback = fn
    '''
    table = {"events": {"save": ["*.store.save", "*.save"], "append": ["*ledger.append"]}}
    assert cl(src, ["OC101"], table=table) == ([("OC101", 12)] if found else [])


SILENT = '''
def finish(ledger, run):
    try:
        ledger.append("run_completed", run)
    except Exception:
        pass
'''


@pytest.mark.parametrize("glob", ["../legacy", "../legacy/", "../legacy/**", "../proj/../legacy"])
def test_a_config_glob_above_its_folder_names_that_folder(tmp_path, glob):
    # session 62's notes: `exclude = ["../legacy"]` in a configuration kept in
    # `cfg/` named nothing, while `--extend-exclude ../legacy` from there did
    from cliutil import oc
    for d in ("cfg", "proj", "legacy"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "run.py").write_text(SILENT)
    (tmp_path / "cfg" / "ordercheck.toml").write_text(
        f'exclude = ["{glob}"]\n[per-file-ignores]\n"../proj/**" = ["OC201"]\n')
    run = oc(tmp_path, "--config", "cfg/ordercheck.toml", "--no-cache", "--extend-select", "OC204",
             "proj", "legacy", "cfg")
    got = sorted((p, c) for p, _, c in run.codes())
    assert got == [("cfg/run.py", "OC201"), ("cfg/run.py", "OC204"), ("proj/run.py", "OC204")], run.out + run.err


METHOD_DECORATED = '''
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.utils.decorators import method_decorator
from django.utils import decorators


{class_decorator}
class View:
    {decorator}
    def post(self, run, ledger):
        run.save()
        ledger.append_event(run)

    def get(self, run, ledger):
        run.save()
        ledger.append_event(run)
'''


@pytest.mark.parametrize("class_decorator, decorator, lines", [
    ("", "", [13, 17]),
    ('@method_decorator(transaction.atomic, name="post")', "", [17]),       # set 275's form
    ('@decorators.method_decorator(transaction.atomic, name="post")', "", [17]),
    ('@method_decorator(transaction.atomic, "post")', "", [17]),
    ('@method_decorator([login_required, transaction.atomic], name="get")', "", [13]),
    ('@method_decorator(decorator=transaction.atomic(), name="get")', "", [13]),
    ('@method_decorator(login_required, name="post")', "", [13, 17]),
    ('@method_decorator(transaction.atomic, name="put")', "", [13, 17]),
    ('@method_decorator(transaction.atomic, name="dispatch")', "", []),   # (every handler: session 64)
    ("", "@method_decorator([login_required, transaction.atomic])", [17]),
    ("", "@method_decorator(decorator=transaction.atomic)", [17]),
    ('@other(transaction.atomic, name="post")', "", [13, 17]),
])
def test_django_method_decorator_on_a_class_and_its_list_forms(class_decorator, decorator, lines):
    # held-out set 275 (django-clickify): `@method_decorator(transaction.atomic,
    # name="post")` on a class makes its `post` run in a transaction; session 62 read
    # only the form on the method itself, with one decorator
    src = METHOD_DECORATED.format(class_decorator=class_decorator, decorator=decorator)
    table = {"extend-events": {"save": ["run.save"], "append": ["ledger.append_event"]}}
    assert cl(src, ["OC102"], table=table) == [("OC102", n) for n in lines]


CHOSEN_LOG = '''
    import logging
    logger = logging.getLogger(__name__)

    def finish(ledger, run, fatal):
        {before}
        try:
            ledger.append("run_completed", run)
        except Exception:
            {bind}
            log("append failed")
'''


@pytest.mark.parametrize("before, bind, found", [
    ("", "log = logger.error if fatal else logger.warning", False),   # set 276 (bursar)
    ("", "log = logger.error if fatal else logger.debug", False),     # a loud one may run
    ("", "log = logger.debug if fatal else logger.info", True),
    ("", "log = fatal_logger or logger.warning", False),               # `or`: either may run
    ("log = logger.error if fatal else logger.warning", "pass", False),  # bound before, in the function
    ("log = logger.error if fatal else logger.warning", "log = print", True),  # bound twice: no alias
    ("", "log = logger.error if fatal else make()", True),            # not a choice of dotted names
])
def test_a_name_bound_to_a_choice_of_loggers_is_each(before, bind, found):
    got = cl(CHOSEN_LOG.format(before=before, bind=bind), ["OC201"])
    assert got == ([("OC201", 8)] if found else [])


@pytest.mark.parametrize("body, found", [
    ("from pkg.post import Revision\n    self.save()\n    Revision.objects.create(post=q)", False),
    ("from pkg import post\n    self.save()\n    post.Revision.objects.create(post=q)", False),
    ("from pkg.post import Revision as R\n    self.save()\n    R.objects.create(post=q)", False),
    # a parameter of the name is no class the function knows
    ("self.save()\n    Revision.objects.create(post=q)", 3),
])
def test_a_class_imported_in_the_function_types_its_class_attribute(tmp_path, body, found):
    # held-out set 277 (askbot): `from askbot.models import PostRevision` inside a
    # method, then `PostRevision.objects.create(...)`, lost the manager's summary
    # (`objects = RevisionManager()`) that a module-level import gives
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/post.py": '''
            class RevisionManager:
                def create(self, post=None, **kwargs):
                    post.append_revision(kwargs)
                    post.save()


            class Revision:
                objects = RevisionManager()
        ''',
        # (a parameter of the name only where the body imports none: both would bind it twice)
        "pkg/thread.py": ("def f(self, q):\n    " if "import" in body else "def f(self, q, Revision=None):\n    ")
                         + body + "\n",
    })
    table = {"extend-events": {"save": ["*.save"], "append": ["*.append_revision", "Revision.objects.create"]}}
    got = [(f.code, f.span.line) for f in tree_findings(tmp_path, ["OC102"], table=table)]
    assert got == ([("OC102", found)] if found else [])


CHOSEN_MANAGER = '''
    import contextlib
    import sys
    from django.db import transaction

    atomic = transaction.atomic if USE_TX else contextlib.nullcontext


    def a(store, ledger, run):
        with atomic():
            store.save_run(run)
            ledger.append("run_completed", run)


    @atomic
    def b(store, ledger, run):
        store.save_run(run)
        ledger.append("run_completed", run)


    def c(store, ledger, run, strict):
        bail = sys.exit if strict else print
        bail("checking")
        store.save_run(run)
        ledger.append("run_completed", run)


    def d(store, ledger, run, strict):
        (sys.exit if strict else print)("checking")
        store.save_run(run)
        ledger.append("run_completed", run)


    def e(store, ledger, run):
        bail = sys.exit if run else os._exit
        bail(1)
        store.save_run(run)
        ledger.append("run_completed", run)
'''


def test_a_choice_is_no_transaction_and_exits_only_when_every_alternative_does():
    # session 63's review: `atomic = transaction.atomic if c else nullcontext` made
    # `with atomic():` and `@atomic` transactions (a `with` over a choice is none:
    # "A `with` over a choice of managers"), and `bail = sys.exit if strict else print`
    # a call that always exits, so what follows it was unreachable
    table = {"extend-events": {"save": ["*.save_run"]}}
    assert cl(CHOSEN_MANAGER, ["OC101"], table=table) == [("OC101", 12), ("OC101", 18), ("OC101", 25), ("OC101", 31)]


def test_a_name_a_function_imports_and_binds_again_is_not_the_import(tmp_path):
    # session 63's review: `from pkg.post import Revision` then `Revision = make()`
    # in one function: which one a call sees is not known
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/post.py": '''
            class RevisionManager:
                def create(self, run=None):
                    run.append_revision(run)


            class Revision:
                objects = RevisionManager()
        ''',
        "pkg/thread.py": '''
            def f(store, run, make):
                from pkg.post import Revision
                Revision = make()
                store.save_run(run)
                Revision.objects.create(run=run)
        ''',
    })
    table = {"extend-events": {"save": ["*.save_run", "*.save"], "append": ["*.append_revision"]}}
    assert [(f.code, f.span.line) for f in tree_findings(tmp_path, ["OC102"], table=table)] == []


NESTED = '''
from django.db import transaction

def f(make_session, session, store, ledger, run):
    with make_session() as outer, outer.begin():
{inner}
        ledger.append("run_completed", run)
'''
SAVE = "store.save_run(run)"


@pytest.mark.parametrize("inner, found", [
    # set 278 (duffy): a session of its own
    (f"        with make_session() as s2, s2.begin():\n            {SAVE}", True),
    (f"        with make_session() as s2:\n            with s2.begin():\n                {SAVE}", True),
    (f"        s2 = make_session()\n        with s2.begin():\n            {SAVE}", True),
    (f"        with outer.begin_nested():\n            {SAVE}", False),   # a savepoint of the outer one
    (f"        with session.begin():\n            {SAVE}", False),       # bound outside: nested, as before
    (f"        with transaction.atomic():\n            {SAVE}", False),
])
def test_a_transaction_over_a_session_made_inside_another_commits_at_its_exit(inner, found):
    table = {"extend-events": {"save": ["*.save_run"]}}
    got = cl(NESTED.format(inner=inner), ["OC101"], table=table)
    assert [c for c, _ in got] == (["OC101"] if found else []), got


GATHER = '''
    import asyncio

    class Runner:
        async def _execute(self, entry):
            await self._store.save_run(entry)

        async def run_once(self, entries):
            try:
                await asyncio.gather({args})
            except Exception:
                pass
'''


@pytest.mark.parametrize("args, found", [
    ("*(self._execute(e) for e in entries), return_exceptions=True", False),   # set 279
    ("*[self._execute(e) for e in entries], return_exceptions=True", False),
    ("self._execute(entries[0]), self._execute(entries[1]), return_exceptions=True", False),
    ("*(self._execute(e) for e in entries)", True),          # the first failure comes out here
    ("*(self._execute(e) for e in entries), return_exceptions=False", True),
    ("self._execute(self.prepare(entries)), return_exceptions=True", False),
])
def test_a_gather_that_returns_its_exceptions_raises_none_of_its_coroutines(args, found):
    # held-out set 279 (dpdpkit): `gather(..., return_exceptions=True)` hands each
    # coroutine's failure back as a value; a silent handler around it was a false OC203
    table = {"extend-events": {"save": ["*.save_run"]}}
    got = cl(GATHER.format(args=args), ["OC203"], table=table)
    assert got == ([("OC203", 10)] if found else [])


def test_suggest_reads_a_models_classmethods_manager_write(tmp_path):
    # held-out set 280 (pinax-invitations): `cls.objects.create(...)` in a model's
    # classmethod was no save, so `*.objects.create` read "in tests only"
    from cliutil import oc
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/models.py": '''
            from django.db import models


            class JoinInvitation(models.Model):
                @classmethod
                def invite(cls, from_user, ledger):
                    join = cls.objects.create(from_user=from_user, status=1)
                    ledger.append(("sent", join.pk))
                    return join
        ''',
        "app/tests/__init__.py": "",
        "app/tests/test_models.py": '''
            from django.contrib.auth.models import User


            def test_invite():
                assert User.objects.create(username="foo")
        ''',
    })
    rows = [ln for ln in oc(tmp_path, "suggest", ".").out.splitlines() if "*.objects.create" in ln and ln.startswith("#")]
    assert rows and "2 functions, 1 with both kinds; e.g. app/models.py:8" in rows[0], rows


TX_MANAGER = '''
    from contextlib import contextmanager


    class Store:
        @contextmanager
        def _tx(self):
            {manager}

        def both_inside(self, run, rec):
            with self._tx():
                self.run_store.save(run)
                self.ledger.append(rec)

        def append_after(self, run, rec):
            with self._tx():
                self.run_store.save(run)
            self.ledger.append(rec)
'''


@pytest.mark.parametrize("manager, lines", [
    ("with self._conn.transaction():\n                yield self._conn", [18]),    # set 280 (flametrench)
    ("with self._conn.transaction() as tx:\n                yield tx", [18]),
    ("yield self._conn", [13, 18]),                                                 # no transaction
    ("with self._conn.transaction():\n                pass\n            yield self._conn", [13, 18]),
    ("if self._nested:\n                yield self._conn\n            else:\n                with self._conn.transaction():\n"
     "                    yield self._conn", [13, 18]),                            # only on one way
])
def test_a_project_manager_that_yields_inside_a_transaction_is_one(manager, lines):
    # held-out set 280 (flametrench-tenancy's `_tx`): the caller's body runs inside the
    # transaction the generator holds open around its `yield`
    table = {"extend-events": {"save": ["*.run_store.save"], "append": ["*.ledger.append"]}}
    shift = manager.count("\n")  # (the lines below the manager's body move down)
    assert cl(TX_MANAGER.format(manager=manager), ["OC102"], table=table) == [("OC102", n + shift) for n in lines]


OPERATOR = '''
    def f(self, run, parts, done, total):
        self._store.save(run)
        try:
            {stmt}
        except (ValueError, ZeroDivisionError, TypeError):
            self._ledger.append(run.id, "bad")
'''


@pytest.mark.parametrize("stmt, found", [
    ("head, tail = parts", True),             # set 282 (django-csvimport): an unpacking raises
    ("head, *tail = parts", True),
    ("ratio = done / total", True),
    ("ok = done < total", True),
    ("ok = done in parts", True),
    ("x = self.count(run) % total", True),    # after its call
    ("head, tail = tail, head", False),       # a display of as many items
    ("ratio = done", False),
    ("ok = not done", False),                 # (a unary operator: read as before)
])
def test_an_operator_or_an_unpacking_raises_by_itself(stmt, found):
    table = {"extend-events": {"save": ["*._store.save"], "append": ["*._ledger.append"]}}
    got = cl(OPERATOR.format(stmt=stmt), ["OC102"], table=table)
    assert got == ([("OC102", 7)] if found else [])


def test_suggest_offers_no_insert_of_a_key_or_an_index(tmp_path):
    # held-out set 282 (django-csvimport's `insert_fkey`): configuration.md leaves out
    # "`insert` or `append` and one word naming a key or a place"
    from cliutil import oc
    (tmp_path / "m.py").write_text(
        "class C:\n    def f(self, k, v):\n        self.insert_key(k, v)\n        self.insert_fkey(k, v)\n"
        "        self.insert_index(k, v)\n        self.insert_record(k, v)\n        self.store.save(v)\n")
    out = oc(tmp_path, "--isolated", "suggest", ".").out
    # (not `index`: `append_index` is an append to a search index, session 34's reading)
    assert "*.insert_record" in out and not any(f"*.insert_{w}" in out for w in ("key", "fkey")), out


def test_suggest_lists_a_per_file_ignores_glob_that_holds_no_file(tmp_path):
    # held-out set 279 (dpdpkit): `"dpdpkit/retention.py" = [...]` in a configuration
    # kept in `cfg/` held nothing, and said so nowhere
    from cliutil import oc
    write_tree(tmp_path, {"pkg/retention.py": "def f(store, run):\n    store.save(run)\n"})
    (tmp_path / "ordercheck.toml").write_text(
        '[per-file-ignores]\n"pkg/retention.py" = ["OC2"]\n"other/retention.py" = ["OC2"]\n"tests" = ["OC1"]\n')
    out = oc(tmp_path, "suggest", ".").out
    assert "2 `per-file-ignores` glob(s) hold no file read" in out, out
    rows = [ln for ln in out.splitlines() if ln.startswith("#   ")]
    assert "#   other/retention.py" in rows and "#   tests" in rows and "#   pkg/retention.py" not in rows, out


REVIEW2 = '''
import asyncio
import contextlib


def outer_saves_first(make_session, store, ledger, run):
    with make_session() as s1, s1.begin():
        store.save_run(run)
        s2 = make_session()
        with s2.begin():
            store.touch(run)
    ledger.append_terminal(run)


def savepoint_of_a_connection(session, store, ledger, run):
    with session.begin():
        conn = session.connection()
        with conn.begin_nested():
            store.save_run(run)
        ledger.append_terminal(run)


def is_none(store, ledger, run, result):
    try:
        store.save_run(run)
        if result is None:
            return
    except Exception:
        ledger.append_terminal(run)


def choice_of_receivers(session, fallback, store, ledger, run):
    with (session or fallback).begin():
        store.save_run(run)
        ledger.append_terminal(run)


class Svc:
    async def chained(self, run):
        try:
            await asyncio.gather(self._prepare(run).send(), return_exceptions=True)
        except Exception:
            pass

    async def _prepare(self, run):
        self._store.save_run(run)
'''


def test_review_2_of_session_63():
    # session 63's second review: an own inner transaction lost the outer body's
    # earlier save (line 12: the OC101 stands); a savepoint is never its own commit;
    # `is` raises nothing; a choice of receivers is still a transaction; a gathered
    # call's receiver call runs before the gather and raises as before (line 41;
    # line 25 is the save's own OC203: its handler appends and reports nothing)
    table = {"extend-events": {"save": ["*.save_run"], "append": ["*.append_terminal"]}}
    got = cl(REVIEW2, ["OC101", "OC102", "OC203"], table=table)
    assert got == [("OC101", 12), ("OC203", 25), ("OC203", 41)], got


@pytest.mark.parametrize("test", ["1 < f(k)", "f(k).conflict", "k in f(k)"])
def test_a_test_decided_after_its_call_keeps_its_branch_step(test):
    # held-out set 285: `if 1 < f(k):` (the comparison raises after the call, from a
    # point of its own) lost its "branch" step; so did `if f(k).conflict:`
    from checkutil import witness_of
    src = f'''
        def a(store, ledger, run, k):
            if {test}:
                store.save(run)
            ledger.append(run)
    '''
    steps = witness_of(src, "OC102")
    assert steps[0][:2] == ("branch", 3) and steps[0][2] == f"if {test}:  (true)", steps


@pytest.mark.parametrize("clause, found", [
    ("except (DedupError, InUseError) as e:", False),   # dbos `_core.py:706`: no such error
    ("except ValueError:", True),
    ("except Exception:", True),
    ("except:", True),
    ("except (DedupError, TypeError):", True),
])
def test_an_unpacking_raises_only_into_a_clause_that_may_catch_its_error(clause, found):
    # session 63's measured corpora: `wf_status, ok = init_child_workflow(...)` under
    # `except (DBOSQueueDeduplicatedError, ...)` read the unpacking's ValueError as
    # caught there, a false OC102
    src = f'''
        def f(self, run):
            try:
                status, ok = self._db.init_workflow(run)
            {clause}
                self._ledger.append(run.id, "dedup")
    '''
    table = {"extend-events": {"save": ["*._db.init_workflow"], "append": ["*._ledger.append"]}}
    assert cl(src, ["OC102"], table=table) == ([("OC102", 6)] if found else [])


@pytest.mark.parametrize("manager, found", [
    ("TaskQuerySet.as_manager()", True),     # set 283 (django-celery-monitor)
    ("TaskManager()", True),
    ("models.Manager()", False),
    ("TaskQuerySet.as_manager", False),      # (no call: the method itself)
])
def test_a_query_sets_as_manager_types_the_class_attribute(manager, found):
    src = f'''
        from django.db import models


        class TaskQuerySet(models.QuerySet):
            def mark_done(self, run):
                self.ledger.append_event(run)


        class TaskManager(TaskQuerySet):
            pass


        class Task(models.Model):
            objects = {manager}


        def finish(run):
            run.save()
            Task.objects.mark_done(run)
    '''
    table = {"extend-events": {"save": ["run.save"], "append": ["*.append_event"]}}
    assert cl(src, ["OC102"], table=table) == ([("OC102", 20)] if found else [])
