"""The outline pre-pass (``frontend.outline``, ``focus``) loses nothing.

* An outline knows every call the libcst walk records, with the same names, and the
  same functions, classes, ``with`` managers and imports (both walks ask
  ``frontend.resolution``): checked on every fixture, every rule example and a set of
  hard cases.
* A run finds the same with the pre-pass on and forced off: on ``fixtures/`` and on
  every rule example (``bench/prepass_check.py`` does the same on real packages).
* Files no needed function lives in are never parsed with libcst, and a helper in
  such a file keeps its summary once a hot function calls it, cache or not.
"""
from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest
from checkutil import settings_for, write_tree

from ordercheck import cache as cachemod
from ordercheck import focus as focusmod
from ordercheck import frontend, runner, snapshot
from ordercheck.kinds import HOLDS_HANDLER
from ordercheck.rulebook import builtin_rules
from ordercheck.summaries import with_managers

ROOT = Path(__file__).resolve().parent.parent
DEFAULTS = sorted(r.id for r in builtin_rules() if r.default)

HARD = {
    "aliases_and_receivers": '''
        import logging
        from acme.db import RunStore as Store, Ledger
        log = logging.getLogger(__name__)
        Journal = Ledger

        class Base:
            def __init__(self, store: Store):
                self.store = store
                self.ledger = Journal()

        class Runner(Base):
            emit = Ledger.append
            def go(self, run, events=None):
                events = events or Journal()
                j = Journal()
                save = self.store.save
                save(run)
                j.append(run)
                events.append(run)
                self.ledger.append(run)
                Store().save(run)
                super().go(run)
                self.emit(run)
                with self.store as s, Store(1) as t:
                    s.save(run); t.save(run)
                async def inner():
                    async with self.store:
                        await self.store.save(run)
                return [x.save() for x in (j, events) if (y := x.ok())]
    ''',
    "nesting_and_odd_callees": '''
        import contextlib, sys
        def outer(a=make(), *args, b=other(), **kw):
            @decorate(arg())
            def mid():
                class Local(Base(1), metaclass=Meta):
                    x = compute()
                    def m(self):
                        return Local.helper()
                return Local().m()
            f = lambda: hidden()
            d[get()](call())().after()
            (a or b).save()
            with contextlib.suppress(KeyError):
                sys.exit(1)
            match cmd():
                case {"k": v} if check(v):
                    act(v)
            try:
                risky()
            except* (ValueError, TypeError) as eg:
                handle(eg)
            return mid
        @contextlib.contextmanager
        def scope():
            global G
            G = setup()
            yield G
            teardown()
    ''',
    "log_levels": '''
        import logging
        from logging import ERROR
        log = logging.getLogger(__name__)
        def f(level, args):
            log.log(logging.ERROR, "a")
            log.log(ERROR, "a")
            log.log(0x28, "a")
            log.log(1_0, "a")
            log.log("WARNING", "a")
            log.log("WARN" "ING", "a")
            log.log(b"ERROR", "a")
            log.log(level=logging.CRITICAL, msg="a")
            log.log(*args, level=logging.ERROR)
            log.log(*args)
            log.log(level, "a")
            logging.log(logging.DEBUG, "a")
            log.bind(run=1).log("ERROR", "a")
            math.log(10)
    ''',
    "fresh_containers": '''
        def go(run, ledger):
            journal_args = []
            seen = {r for r in run}
            by_id = dict()
            journal_args.append(run)
            seen.add(run)
            by_id.update(run)
            again = []
            again = ledger
            again.append(run)

            def inner():
                journal_args.append(run)
            inner()
    ''',
    "runs_its_parameter": '''
        import os
        class Box:
            def safely(self, fn, *args):
                return fn(*args)
            @staticmethod
            def quiet(fn):
                fn()
            @classmethod
            def kept(cls, fn):
                cls.later = fn
            def put(self, tmp, dst, items):
                self.safely(os.replace, tmp, dst)
                self.safely(self.put, items[0].x, dst)
                Box.quiet(f().x)
                run(*items)
        def run(fn, /, *args):
            fn(*args)
    ''',
    "decorator_wrappers": '''
        import functools
        def action(fn):
            @functools.wraps(fn)
            def wrapper(self, *a):
                out = fn(self, *a)
                self.save()
                return out
            if DEBUG:
                return functools.update_wrapper(wrapper, fn)
            return wrapper
        def factory(name):
            def deco(fn):
                async def inner(*a):
                    return await fn(*a)
                return functools.wraps(fn)(inner)
            return deco
        class Box:
            def _saving(fn):
                def go(self):
                    fn(self)
                return go
            def method(self, fn):
                def run():
                    fn()
                return run
            @_saving
            @action
            def put(self):
                pass
        def keeps(fn):
            def later():
                fn()
            return fn
    ''',
    "printers_and_exits": '''
        import argparse, sys
        import click as ck
        from click import pass_context
        from tqdm import tqdm
        def save(run): ...
        def save(run): ...
        @pass_context
        def cmd(ctx, fh):
            ck.echo("x", err=True)
            ck.secho("x", fg="red", err=True)
            ck.echo("x", file=fh)
            tqdm.write("x", file=fh)
            tqdm.write("x")
            print("x", file=sys.stderr)
            ctx.fail("no")
        def main():
            parser = argparse.ArgumentParser()
            parser.error("no")
    ''',
    "handed_callables": '''
        import asyncio, functools
        from asyncio import to_thread
        import anyio
        from asgiref.sync import sync_to_async, async_to_sync
        class Svc:
            async def go(self, run, loop, args):
                await asyncio.to_thread(self._persist, run)
                await to_thread(functools.partial(self.store.save, run))
                await anyio.to_thread.run_sync(self.store.save, run)
                await loop.run_in_executor(None, self.store.save, run)
                await asyncio.get_running_loop().run_in_executor(None, save_run, run)
                await sync_to_async(self.store.save)(run)
                async_to_sync(self.store.save)(run)
                sync_to_async(self.store.save)(run)
                asyncio.to_thread(self.store.save, run)
                await asyncio.to_thread(*args)
                await asyncio.to_thread(lambda: self.store.save(run))
                await asyncio.to_thread(lambda r=run: self.store.load(r))
                await asyncio.to_thread(lambda r: self.store.drop(r), run)
                await asyncio.wait_for(asyncio.to_thread(self.store.flush), 5)
                await (await asyncio.to_thread(self.store.load, run)).save()
    ''',
    "method_decorator": '''
        from django.db import transaction
        from django.utils.decorators import method_decorator as md
        atomic = transaction.atomic
        @md(atomic, name="post")
        @md([login_required, transaction.atomic(using="x")], name="get")
        @md(decorator=transaction.non_atomic_requests, name="put")
        class View:
            def post(self):
                pass
            def get(self):
                pass
            @md([atomic, login_required])
            def put(self):
                pass
            @md(decorator=atomic)
            def delete(self):
                pass
    ''',
    "gathered": '''
        import asyncio
        from asyncio import gather
        async def go(self, es, tasks):
            await asyncio.gather(*(self._run(e) for e in es), return_exceptions=True)
            await gather(self._a(), self._b(make()), return_exceptions=True)
            await asyncio.gather(*[self._run(e) for e in es], *tasks, return_exceptions=True)
            await asyncio.gather(self._a(), return_exceptions=False)
            await asyncio.gather((self._a(), self._b()), return_exceptions=True)
            log = self.log.error if es else self.log.warning
            log("x")
    ''',
    "getattr_dispatch": '''
        import logging
        LOG = logging.getLogger(__name__)
        class Svc:
            def _log(self, message, message2="", level="info"):
                getattr(self.logger, level)(message)
                getattr(logging.getLogger("x"), level)(message)
                getattr(LOG, "error")("x")
                getattr(self.store, "save", None)(message)
                getattr(self.store, level)(message)
                getattr(self.store, "not a name")(message)
            def go(self, e, *rest):
                self._log("failed", level="error")
                self._log("failed", "", "exception", *rest, level=logging.WARNING)
                self._log("failed", *rest, "error", level="DEBUG")
                self.log(logging.ERROR, "failed", extra="critical")
                self._retry(lambda: self.store.save(e))
                self._retry(lambda r, *a, k=1, **kw: kw.save(r))
                self._retry(lambda: [self.store.save(e)])
                self._retry(lambda: get_store().save(e))
    ''',
}


def _sources():
    out = []
    for p in sorted((ROOT / "fixtures").rglob("*.py")):
        out.append(pytest.param(p.read_text(), id=f"fixture-{p.relative_to(ROOT / 'fixtures')}"))
    for rule in builtin_rules():
        for i, ex in enumerate(rule.examples):
            out.append(pytest.param(ex["code"], id=f"{rule.id}-{i}"))
    for name, text in HARD.items():
        out.append(pytest.param(textwrap.dedent(text), id=name))
    return out


def test_a_handed_callable_is_the_call_in_the_outline_too():
    out = frontend.outline("m.py", textwrap.dedent(HARD["handed_callables"]).encode(), "pkg.m")
    go = next(f for f in out.functions if f.qualname == "Svc.go")
    callees = [c.callee for c in go.calls]
    # partial, anyio, loop, sync_to_async awaited, async_to_sync, a lambda's body
    assert callees.count("self.store.save") == 6
    assert "self._persist" in callees and "save_run" in callees
    assert callees.count("asyncio.to_thread") == 5  # not awaited; starred; three lambdas
    assert "sync_to_async()" in callees  # not awaited: a coroutine nobody runs
    # a lambda whose parameters have defaults runs its body (one with none is not followed)
    assert callees.count("self.store.load") == 2 and "self.store.drop" not in callees
    assert "self.store.flush" in callees  # awaited through `asyncio.wait_for`


def _names(call):
    return (call.callee, call.qualnames, call.receiver_type, call.self_call, call.exits, call.awaited, call.ref,
            call.level, call.level_from, call.level_args, call.chosen, call.gathered, call.lead)


@pytest.mark.parametrize("text", _sources())
def test_an_outline_knows_every_call_the_libcst_walk_records(text):
    data = text.encode("utf-8")
    whole = frontend.extract("m.py", data, "pkg.m")
    light = cachemod.lighten(whole)
    out = frontend.outline("m.py", data, "pkg.m")
    assert (whole.error is None) == (out.error is None)
    if whole.error is not None:
        assert not out.outline and out.error == whole.error  # (the front end's own verdict)
        return
    assert out.outline and not out.lines
    assert [f.qualname for f in out.functions] == [f.qualname for f in light.functions]
    for a, b in zip(light.functions, out.functions):
        assert (a.name, a.class_name, a.local_functions, a.decorators, a.context_manager, a.runs_param,
                a.wrapper, a.superseded) == \
               (b.name, b.class_name, b.local_functions, b.decorators, b.context_manager, b.runs_param,
                b.wrapper, b.superseded), a.qualname
        missing = {_names(c) for c in a.calls if not c.aug} - {_names(c) for c in b.calls}
        assert not missing, f"{a.qualname}: the outline misses {sorted(missing, key=str)}"
        assert [_names(c) for c in with_managers(a.body)] == [_names(c) for c in with_managers(b.body)], a.qualname
    assert [(c.qualname, c.bases, c.methods, c.attr_types) for c in light.classes] == \
           [(c.qualname, c.bases, c.methods, c.attr_types) for c in out.classes]
    assert (light.imports, light.star_imports) == (out.imports, out.star_imports)


def test_a_functions_fresh_list_is_typed_in_the_outline_too():
    out = frontend.outline("m.py", textwrap.dedent(HARD["fresh_containers"]).encode(), "pkg.m")
    go = next(f for f in out.functions if f.qualname == "go")
    names = {c.callee: c for c in go.calls}
    assert names["journal_args.append"].receiver_type == "builtins.list"
    assert "builtins.list.append" in names["journal_args.append"].qualnames
    assert names["seen.add"].receiver_type == "builtins.set"
    assert names["by_id.update"].receiver_type == "builtins.dict"
    assert names["again.append"].receiver_type is None  # also bound to a parameter
    inner = next(f for f in out.functions if f.qualname == "go.<locals>.inner")
    assert inner.calls[0].receiver_type == "builtins.list"  # the enclosing function's list


def test_the_hard_cases_resolve_what_they_should():
    """(So that the comparison above compares something.)"""
    out = frontend.outline("m.py", textwrap.dedent(HARD["aliases_and_receivers"]).encode(), "pkg.m")
    go = next(f for f in out.functions if f.qualname == "Runner.go")
    names = {c.callee: c for c in go.calls}
    assert names["self.store.save"].qualnames  # `save = self.store.save; save(run)`
    assert "acme.db.Ledger.append" in names["j.append"].qualnames
    assert names["self.ledger.append"].receiver_type == "Ledger"  # typed in the base class
    assert names["t.save"].receiver_type == "Store"  # `with Store(1) as t`
    assert names["Store().save"].receiver_type == "Store"
    assert [c.callee for c in with_managers(go.body)] == ["self.store.__enter__", "Store"]
    assert ("store", "acme.db.RunStore") in next(c for c in out.classes if c.qualname == "Base").attr_types


def _run(root: Path, select, table=None, prepass=True, cache_dir=None, monkeypatch=None):
    monkeypatch.setattr(runner, "PREPASS", prepass)
    result = runner.run([root], settings_for(table, select=list(select)), cache_dir=cache_dir)
    return sorted((Path(f.path).resolve().relative_to(root.resolve()).as_posix(), f.code, f.span.line,
                   f.span.col, f.message) for f in result.findings)


@pytest.mark.parametrize("folder", ["runtime", "runtime_fixed"])
def test_the_fixtures_find_the_same_with_and_without_the_prepass(folder, monkeypatch, tmp_path):
    # `runtime` in place: its project is this repository, every file of which is read
    # (a real project of 170 files, tests included); `runtime_fixed` as a project of
    # its own (the repository twice more would be a minute of CI for nothing new)
    root = ROOT / "fixtures" / folder
    if folder == "runtime_fixed":
        import shutil

        root = tmp_path / folder
        shutil.copytree(ROOT / "fixtures" / folder, root)
        (tmp_path / "pyproject.toml").write_text("")
    on = _run(root, DEFAULTS, monkeypatch=monkeypatch)
    off = _run(root, DEFAULTS, prepass=False, monkeypatch=monkeypatch)
    assert on == off
    assert bool(on) == (folder == "runtime")


def _example_groups():
    """The rule examples grouped by configuration and selection, each group one
    project (one example per file: nothing resolves across them, they import nothing)."""
    import json

    groups: dict = {}
    for rule in builtin_rules():
        for i, ex in enumerate(rule.examples):
            if ex.get("fault"):
                continue  # (the engine made to fail: test_rule_examples.py runs it)
            select = tuple(sorted({rule.id} | {e["code"] for e in ex.get("expect", [])} | set(DEFAULTS)))
            key = (json.dumps(ex.get("config") or {}, sort_keys=True), select)
            groups.setdefault(key, []).append((f"{rule.id}_{i}.py", ex))
    return [pytest.param(ex.get("config"), list(select), files, id=f"{len(files)}-examples-{'-'.join(select)[:40]}-{n}")
            for n, ((_, select), files) in enumerate(sorted(groups.items()))
            for ex in [files[0][1]]]


@pytest.mark.parametrize("config,select,files", _example_groups())
def test_every_rule_example_finds_the_same_with_and_without_the_prepass(config, select, files, tmp_path, monkeypatch):
    for name, ex in files:
        (tmp_path / name).write_text(ex["code"])
    on = _run(tmp_path, select, config, monkeypatch=monkeypatch)
    off = _run(tmp_path, select, config, prepass=False, monkeypatch=monkeypatch)
    assert on == off
    for name, ex in files:  # (and each example still finds what it says)
        want = {(e["code"], e["line"]) for e in ex.get("expect", [])}
        assert {(c, l) for p, c, l, _, _ in on if p == name} >= want, name


PROJECT = {
    "app/__init__.py": "",
    "app/engine.py": '''
        from app.notes import note
        from app.fail import bail

        def finish(store, ledger, run):
            try:
                ledger.append(run)
            except Exception:
                note(run)
            store.save(run)

        def abort(store, ledger, run):
            try:
                ledger.append(run)
            except Exception:
                bail(run)
    ''',
    "app/notes.py": '''
        import logging
        log = logging.getLogger(__name__)

        def note(run):
            log.warning("append failed for %s", run)
    ''',
    "app/fail.py": '''
        def bail(run):
            raise RuntimeError(run)
    ''',
    "app/cold.py": '''
        def unrelated(x):
            return x.compute()
    ''',
}


def test_only_the_files_of_needed_functions_are_parsed_with_libcst(tmp_path, monkeypatch):
    write_tree(tmp_path, PROJECT)
    parsed = []
    real = frontend.extract

    wanted = {}
    given = {}

    def spy(path, data, module=None, units=None, outlined=None):
        parsed.append(Path(path).name)
        wanted[Path(path).name] = units
        given[Path(path).name] = outlined
        return real(path, data, module, units, outlined)

    monkeypatch.setattr(frontend, "extract", spy)
    on = _run(tmp_path, DEFAULTS, monkeypatch=monkeypatch)
    # the helpers are needed (their summaries say "loud" and "never returns"), the
    # unrelated file is not, and neither is the empty package marker
    assert sorted(parsed) == ["engine.py", "fail.py", "notes.py"]
    # and of those files, only the needed functions are asked for whole
    assert wanted == {"engine.py": {"finish", "abort"}, "notes.py": {"note"}, "fail.py": {"bail"}}
    # each built on the outline the pre-pass made of the same bytes
    assert all(o is not None and o.outline and o.path.endswith(name) for name, o in given.items())
    parsed.clear()
    wanted.clear()
    off = _run(tmp_path, DEFAULTS, prepass=False, monkeypatch=monkeypatch)
    assert sorted(parsed) == ["__init__.py", "cold.py", "engine.py", "fail.py", "notes.py"]
    assert set(wanted.values()) == {None}  # without the pre-pass, every file whole
    assert on == off == []  # a loud helper and a never-returning one: nothing swallowed


def test_a_file_that_becomes_needed_is_read_whole_from_a_warm_cache(tmp_path, monkeypatch):
    write_tree(tmp_path, PROJECT)
    cache = tmp_path / ".cache"
    first = _run(tmp_path, DEFAULTS, cache_dir=cache, monkeypatch=monkeypatch)
    assert first == []
    assert list((cache / "outline").rglob("*.json"))  # cold.py's outline was kept
    # now a hot function's handler calls the helper of the file that was cold
    (tmp_path / "app" / "cold.py").write_text(textwrap.dedent('''
        def unrelated(x):
            return x.compute()

        def shout(run):
            raise SystemExit(run)
    '''))
    (tmp_path / "app" / "engine.py").write_text(textwrap.dedent('''
        from app.cold import unrelated

        def finish(store, ledger, run):
            try:
                ledger.append(run)
            except Exception:
                unrelated(run)
            store.save(run)
    '''))
    touched = _run(tmp_path, DEFAULTS, cache_dir=cache, monkeypatch=monkeypatch)
    fresh = _run(tmp_path, DEFAULTS, prepass=False, monkeypatch=monkeypatch)
    assert touched == fresh and [c for _, c, *_ in fresh] == ["OC202"]


def test_a_selection_the_prepass_cannot_reason_about_turns_it_off():
    rules = {r.id: r for r in builtin_rules()}
    assert focusmod.classes_for([rules["OC101"], rules["OC201"]]) >= {"save", "terminal-append", "append"}
    # (OC204: any broad handler can be a finding, but only where a function holds an
    # `except` clause, which the question asks apart: ``Question.own``, session 65)
    assert focusmod.classes_for([rules["OC101"], rules["OC204"]]) == focusmod.classes_for([rules["OC101"]])
    assert focusmod.question_for([rules["OC101"], rules["OC204"]]).own == {HOLDS_HANDLER}
    assert focusmod.classes_for([rules["OC301"]]) >= {"file-write", "rename"}


def test_a_silent_broad_handler_in_a_file_without_events_is_still_found(tmp_path, monkeypatch):
    write_tree(tmp_path, {"quiet.py": '''
        def f():
            try:
                g()
            except Exception:
                pass
    '''})
    on = _run(tmp_path, DEFAULTS + ["OC204"], monkeypatch=monkeypatch)
    assert [c for _, c, *_ in on] == ["OC204"]


def test_an_unused_suppression_in_a_file_without_events_is_reported(tmp_path, monkeypatch):
    write_tree(tmp_path, {"plain.py": '''
        def f(x):
            return x + 1  # noqa: OC101
    '''})
    on = _run(tmp_path, DEFAULTS + ["OC001"], monkeypatch=monkeypatch)
    off = _run(tmp_path, DEFAULTS + ["OC001"], prepass=False, monkeypatch=monkeypatch)
    assert on == off and [c for _, c, *_ in on] == ["OC001"]


def test_a_syntax_error_in_a_file_without_events_is_still_reported(tmp_path, monkeypatch):
    write_tree(tmp_path, {"broken.py": "def f(:\n    pass\n", "ok.py": "x = 1\n"})
    on = _run(tmp_path, DEFAULTS, monkeypatch=monkeypatch)
    off = _run(tmp_path, DEFAULTS, prepass=False, monkeypatch=monkeypatch)
    assert on == off and [(p, c) for p, c, *_ in on] == [("broken.py", "OC900")]


def test_the_language_servers_run_reads_a_file_whole_once_a_buffer_needs_it(tmp_path, monkeypatch):
    """``run_buffers`` keeps outlines between calls; an edit that makes a hot function
    call a helper of a file read as an outline reads that file whole then."""
    write_tree(tmp_path, {"pyproject.toml": "", "notes.py": PROJECT["app/notes.py"]})
    # (a file changed this very moment is not remembered: the checks run an hour later)
    monkeypatch.setattr(snapshot, "clock_ns", lambda: time.time_ns() + 3600 * 10**9)
    engine = tmp_path / "engine.py"
    swallowed = textwrap.dedent('''
        def finish(store, ledger, run):
            try:
                ledger.append(run)
            except Exception:
                pass
            store.save(run)
    ''')
    loud = swallowed.replace("    pass\n", "    note(run)\n").replace("def finish", "from notes import note\n\ndef finish")
    engine.write_text(swallowed)
    settings = settings_for(select=DEFAULTS)
    memo: dict = {}
    found = {}
    for prepass in (True, False):
        monkeypatch.setattr(runner, "PREPASS", prepass)
        memo.clear()
        first = runner.run_buffers([tmp_path], settings, {str(engine): swallowed.encode()}, memo=memo)
        if prepass:  # notes.py can hold no finding and nothing needs it yet
            assert [f.outline for p, (_, f, _) in memo.items() if p.name == "notes.py"] == [True]
        second = runner.run_buffers([tmp_path], settings, {str(engine): loud.encode()}, memo=memo)
        found[prepass] = ([f.code for f in first.findings], [f.code for f in second.findings])
    assert found[True] == found[False] == (["OC202"], [])


def test_a_run_on_files_without_hot_functions_computes_no_summary(tmp_path, monkeypatch):
    """A pre-commit hook or an editor on a file that no selected rule can find anything
    in reads no summary, so none is computed; a file that can hold one still gets them."""
    from ordercheck import effects

    write_tree(tmp_path, PROJECT)
    (tmp_path / "pyproject.toml").write_text("")
    built = []
    real = effects.build

    def spy(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(effects, "build", spy)
    settings = settings_for(select=DEFAULTS)
    cold = runner.run([tmp_path / "app" / "cold.py"], settings)
    assert cold.findings == [] and built == []
    (tmp_path / "app" / "cold.py").write_text("def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run)\n")
    hot = runner.run([tmp_path / "app" / "cold.py"], settings)
    assert built == [1] and [f.code for f in hot.findings] == ["OC102"]


def test_a_needed_file_that_is_not_checked_lets_its_lines_go(tmp_path, monkeypatch):
    """Without a cache, the lines of a file only read for its summaries are let go
    (``runner._unlined``): no finding shows them. A checked file keeps its own, and
    its findings (witness, code frame) are those of a run that keeps every line."""
    write_tree(tmp_path, {k: textwrap.dedent(v) for k, v in PROJECT.items()})
    # a save, then a swallowed terminal append (OC201), then a helper that only raises
    (tmp_path / "app" / "engine.py").write_text(
        "from app.fail import bail\n\n"
        "def finish(store, ledger, run):\n"
        "    store.save(run)\n"
        "    try:\n"
        "        ledger.append_terminal(run)\n"
        "    except Exception:\n"
        "        pass\n"
        "    bail(run)\n")
    s = settings_for(select=DEFAULTS)
    result = runner.run([tmp_path], s)
    by_name = {Path(p).name: f for p, f in result.facts.items()}
    assert by_name["fail.py"].lines == [] and not by_name["fail.py"].outline  # needed, read, not checked
    assert by_name["engine.py"].lines  # checked
    kept = []
    monkeypatch.setattr(runner, "_unlined", lambda all_facts, focused: kept.append(1))
    again = runner.run([tmp_path], s)
    assert kept and result.findings and result.findings == again.findings
