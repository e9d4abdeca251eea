"""The remembered call graph (``memos.GraphMemo``): a run after an edit resolves only
the edited files, and always finds what a cold run finds.

Each step below edits the project the way a developer does (inside a function, or
changing what a file defines), then runs with the cache and compares with a run
without any cache and without the pre-pass."""
from __future__ import annotations

import json
import textwrap
import time
from pathlib import Path

import pytest
from checkutil import settings_for, write_tree

from ordercheck import memos, runner, snapshot
from ordercheck.rulebook import builtin_rules

DEFAULTS = sorted(r.id for r in builtin_rules() if r.default)

PROJECT = {
    "app/__init__.py": "",
    "app/engine.py": '''
        from app.store import persist
        from app.notes import note

        def finish(store, ledger, run):
            persist(store, run)
            ledger.append(run)

        def abort(store, ledger, run):
            try:
                ledger.append(run)
            except Exception:
                note(run)
            store.save(run)
    ''',
    "app/store.py": '''
        def persist(store, run):
            return run
    ''',
    "app/notes.py": '''
        import logging
        log = logging.getLogger(__name__)

        def note(run):
            log.warning("append failed for %s", run)
    ''',
    "app/cold.py": '''
        def unrelated(x):
            return x.compute()
    ''',
}

# (what changes, the files rewritten, whether the other files keep their resolution)
STEPS = [
    ("a helper starts saving (inside its body)", {"app/store.py": '''
        def persist(store, run):
            store.save(run)
            return run
    '''}, True),
    ("a handler's helper only logs at debug level now", {"app/notes.py": '''
        import logging
        log = logging.getLogger(__name__)

        def note(run):
            log.debug("append failed for %s", run)
    '''}, True),
    ("a function calls an imported helper it did not call", {"app/engine.py": '''
        from app.store import persist
        from app.notes import note

        def finish(store, ledger, run):
            ledger.append(run)
            persist(store, run)

        def abort(store, ledger, run):
            try:
                ledger.append(run)
            except Exception:
                note(run)
                persist(store, run)
            store.save(run)
    '''}, True),
    ("a cold file changes inside its body", {"app/cold.py": '''
        def unrelated(x):
            raise SystemExit(x)
    '''}, True),
    ("a file defines a new function", {"app/store.py": '''
        def persist(store, run):
            store.save(run)
            return run

        def forget(ledger, run):
            ledger.append(run)
    '''}, False),
    ("the engine imports the new function", {"app/engine.py": '''
        from app.store import persist, forget
        from app.notes import note

        def finish(store, ledger, run):
            forget(ledger, run)
            persist(store, run)

        def abort(store, ledger, run):
            try:
                ledger.append(run)
            except Exception:
                note(run)
            store.save(run)
    '''}, False),
]


def _findings(result, root: Path):
    return sorted((Path(f.path).resolve().relative_to(root.resolve()).as_posix(), f.code, f.span.line,
                   f.span.col, f.message) for f in result.findings)


def _cold(root: Path, monkeypatch, buffers=None):
    monkeypatch.setattr(runner, "PREPASS", False)
    try:
        return _findings(runner.run([root], settings_for(select=DEFAULTS), buffers=buffers), root)
    finally:
        monkeypatch.setattr(runner, "PREPASS", True)


@pytest.fixture
def spied(monkeypatch):
    """What ``GraphMemo.remembered`` answered in each run: the files that kept their rows."""
    answers = []
    real = memos.GraphMemo.remembered

    def spy(self, files, stubs):
        got = real(self, files, stubs)
        answers.append(None if got is None else set(got))
        return got

    monkeypatch.setattr(memos.GraphMemo, "remembered", spy)
    return answers


def test_every_edit_finds_what_a_cold_run_finds_and_resolves_only_what_changed(tmp_path, monkeypatch, spied):
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    first = _findings(runner.run([root], settings, cache_dir=cache), root)
    assert first == _cold(root, monkeypatch)
    assert spied == [None]  # nothing remembered yet
    assert len([p for p in (cache / "graph").rglob("*.json") if not p.name.endswith(".head.json")]) == 1
    history = [first]
    for what, files, kept in STEPS:
        write_tree(root, files)
        spied.clear()
        got = _findings(runner.run([root], settings, cache_dir=cache), root)
        assert got == _cold(root, monkeypatch), what
        everything = {f"{root.name}/{name}" for name in PROJECT}
        if kept:
            assert len(spied) == 1 and spied[0] is not None, what
            shown = {Path(p).resolve().relative_to(tmp_path.resolve()).as_posix() for p in spied[0]}
            assert shown == everything - {f"{root.name}/{name}" for name in files}, what
        else:
            assert spied == [None], what
        history.append(got)
    # the steps change what is found (so the comparisons above can fail)
    assert len({tuple(h) for h in history}) >= 3
    assert {code for h in history for _, code, *_ in h} == {"OC102", "OC202"}


SECOND = {
    "app/__init__.py": "",
    "app/base.py": '''
        class Base:
            def _save(self, store, run):
                store.save(run)

            persist = _save
    ''',
    "app/textbase.py": '''
        class TextBase:
            keep = store.save_run
    ''',
    "app/propbase.py": '''
        from app.keeper import Keeper


        class PropBase:
            @property
            def keeper(self) -> Keeper:
                return Keeper()
    ''',
    "app/keeper.py": '''
        class Keeper:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.store.save(self.run)
    ''',
    "app/factory.py": '''
        from app.keeper import Keeper

        def make_keeper() -> Keeper:
            return Keeper()
    ''',
    "app/sub.py": '''
        from app.base import Base
        from app.factory import make_keeper
        from app.propbase import PropBase
        from app.textbase import TextBase


        class Sub(Base):
            def by_alias(self, store, ledger, run):
                self.persist(store, run)  # a base's class-level alias of its method
                ledger.append(run)


        class SubT(TextBase):
            def by_text_alias(self, ledger, run):
                self.keep(run)  # a base's class-level alias of a save's text
                ledger.append(run)


        class SubP(PropBase):
            def by_property(self, ledger, run):
                with self.keeper:  # a base's property, by its getter's annotation
                    pass
                ledger.append(run)


        def by_return(ledger, run):
            with make_keeper():  # the factory's return annotation: a Keeper
                pass
            ledger.append(run)
    ''',
}


def test_a_stub_keeps_what_resolution_reads_of_its_file(tmp_path, monkeypatch, spied):
    """(Session 40.) A file resolved again against the stubs of unchanged files finds
    what a cold run finds: a stub keeps a class's class-level aliases, a function's
    return annotation and its decorators (a property's class), which resolution reads
    of other files. Before, an edit inside ``sub.py`` lost all three findings."""
    root = tmp_path / "proj"
    write_tree(root, SECOND)
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    cold = _cold(root, monkeypatch)
    assert [(p, code, line) for p, code, line, *_ in cold] == [
        ("app/sub.py", "OC102", 11), ("app/sub.py", "OC102", 17), ("app/sub.py", "OC102", 24),
        ("app/sub.py", "OC102", 30)]
    assert _findings(runner.run([root], settings, cache_dir=cache), root) == cold
    sub = root / "app" / "sub.py"
    sub.write_text(sub.read_text() + "\n# an edit\n")
    spied.clear()
    assert _findings(runner.run([root], settings, cache_dir=cache), root) == _cold(root, monkeypatch)
    assert len(spied) == 1 and spied[0] is not None and len(spied[0]) == 6  # the other files were stubs


EXIT_PROJECT = {
    "app/__init__.py": "",
    "app/base.py": '''
        class Base:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self._commit()

            def _commit(self):
                pass
    ''',
    "app/sub.py": '''
        import os
        from app.base import Base


        class Sub(Base):
            def _commit(self):
                os.replace("state.tmp", "state")
    ''',
    "app/use.py": '''
        from app.sub import Sub


        def f(fh, data):
            with Sub():
                fh.write(data)
    ''',
    "app/job.py": '''
        class Job:
            def run_id(self):
                return 1
    ''',
    "app/flag.py": '''
        from typing import Optional
        from app.job import Job


        def f(store, ledger, run, job: Optional[Job]):
            if job is not None:
                store.save(run)
            if not job:
                ledger.append(run)
    ''',
}


@pytest.mark.parametrize("edit", ["a caller's body", "an exit's body", "a class's truth"])
def test_a_warm_run_after_an_edit_finds_what_a_cold_run_finds(tmp_path, monkeypatch, edit):
    """(A review, session 40.) What another file's ``with`` runs of a manager's exit
    (``self._commit()`` of a subclass: ``ProjectIndex.exit_self_methods``) is in the
    index stub and its exports; whether a typed name can be falsy (a class gains
    ``__len__``) is in a file's check key. Before, each of these edits left a warm
    run without a finding a cold run had."""
    root = tmp_path / "proj"
    project = dict(EXIT_PROJECT)
    if edit == "an exit's body":
        project["app/base.py"] = project["app/base.py"].replace("                self._commit()", "                pass")
    write_tree(root, project)
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    first = _findings(runner.run([root], settings, cache_dir=cache), root)
    assert first == _cold(root, monkeypatch)
    if edit == "a caller's body":
        write_tree(root, {"app/use.py": project["app/use.py"].replace("fh.write(data)", "fh.write(data)\n                fh.flush()")})
    elif edit == "an exit's body":
        write_tree(root, {"app/base.py": EXIT_PROJECT["app/base.py"]})
    else:
        write_tree(root, {"app/job.py": EXIT_PROJECT["app/job.py"] + "\n            def __len__(self):\n                return 0\n"})
    got = _findings(runner.run([root], settings, cache_dir=cache), root)
    cold = _cold(root, monkeypatch)
    assert got == cold
    want = {"a caller's body": ("app/use.py", "OC301"), "an exit's body": ("app/use.py", "OC301"),
            "a class's truth": ("app/flag.py", "OC102")}[edit]
    assert want in [(p, code) for p, code, *_ in cold]


SWALLOWED = '''
                    try:
                        self.ledger.append("x")
                    except Exception:
                        pass
'''
SWALLOWING_EXIT = '''
            class M:
                def __init__(self, ledger):
                    self.ledger = ledger

                def __enter__(self):
                    return self

                def __exit__(self, *exc):''' + SWALLOWED

MANAGER_CASES = {
    # a class manager's exit lets its append's failure escape (``escaping``)
    "escaping": ({
        "app/m.py": SWALLOWING_EXIT,
        "app/f.py": '''
            from app.m import M

            def f(ledger):
                with M(ledger):
                    pass
        ''',
        "app/g.py": '''
            from app.f import f

            def g(ledger):
                try:
                    f(ledger)
                except Exception:
                    pass
        ''',
    }, ("app/m.py", SWALLOWING_EXIT.replace(SWALLOWED, '''
                    self.ledger.append("x")
    ''')), ("app/g.py", "OC202")),
    # a generator raises before its yield (``entry_raised``): a file's own check
    "entry raised, checked": ({
        "app/m.py": '''
            from contextlib import contextmanager

            @contextmanager
            def m(ledger, ok):
                try:
                    if not ok:
                        pass
                    yield
                except Exception:
                    ledger.append("x")
                    raise
        ''',
        "app/f.py": '''
            from app.m import m

            def f(store, ledger, r):
                store.save(r)
                try:
                    with m(ledger, r):
                        pass
                except Exception:
                    pass
        ''',
    }, ("app/m.py", "raise ValueError"), ("app/f.py", "OC102")),
    # the same through a caller's summary
    "entry raised, summarised": ({
        "app/m.py": '''
            from contextlib import contextmanager

            @contextmanager
            def m(ledger, ok):
                try:
                    yield
                except Exception:
                    ledger.append("x")
                    raise
        ''',
        "app/f.py": '''
            from app.m import m

            def f(ledger, r):
                try:
                    with m(ledger, r):
                        pass
                except Exception:
                    pass
        ''',
        "app/g.py": '''
            from app.f import f

            def g(store, ledger, r):
                store.save(r)
                f(ledger, r)
        ''',
    }, ("app/m.py", '''
            from contextlib import contextmanager

            @contextmanager
            def m(ledger, ok):
                if not ok:
                    ledger.append("x")
                    raise ValueError
                try:
                    yield
                except Exception:
                    ledger.append("x")
                    raise
    '''), ("app/g.py", "OC102")),
}


@pytest.mark.parametrize("case", sorted(MANAGER_CASES))
def test_a_warm_run_after_a_managers_edit_finds_what_a_cold_run_finds(tmp_path, monkeypatch, case):
    """(A review, session 40.) The memo keys hold every field of what a project
    manager does at a ``with`` (``ManagerEffects.key_row``): its escaping failures and
    a generator's raise before its ``yield`` were left out, and a warm run kept a
    stale summary or a file's stale findings."""
    project, (path, change), want = MANAGER_CASES[case]
    root = tmp_path / "proj"
    write_tree(root, dict(project, **{"app/__init__.py": ""}))
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    assert _findings(runner.run([root], settings, cache_dir=cache), root) == _cold(root, monkeypatch)
    if change == "raise ValueError":
        text = (root / path).read_text().replace("        pass\n", "        raise ValueError\n", 1)
        (root / path).write_text(text)
    else:
        write_tree(root, {path: change})
    cold = _cold(root, monkeypatch)
    assert want in [(p, code) for p, code, *_ in cold]
    assert _findings(runner.run([root], settings, cache_dir=cache), root) == cold


def test_a_managers_key_row_holds_every_field():
    from dataclasses import fields, replace

    from ordercheck.summaries import ManagerEffects

    base = ManagerEffects("class", frozenset(), frozenset(), frozenset(), False, "m::M.__exit__")
    changed = {"kind": "generator", "entry": frozenset({"save"}), "normal": frozenset({"save"}),
               "raised": frozenset({"save"}), "suppress": True, "exit_key": "m::other",
               "escaping": frozenset({"append"}), "entry_raised": frozenset({"append"}),
               "entry_key": "m::M.__enter__", "catches": ("KeyError",), "normal_raised": frozenset({"append"}),
               "transaction": True}
    assert set(changed) == {f.name for f in fields(ManagerEffects)}
    for name, value in changed.items():
        assert replace(base, **{name: value}).key_row() != base.key_row(), name


def test_a_deleted_file_resolves_the_project_again(tmp_path, monkeypatch, spied):
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    write_tree(root, STEPS[0][1])
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    runner.run([root], settings, cache_dir=cache)
    (root / "app" / "cold.py").unlink()
    spied.clear()
    got = _findings(runner.run([root], settings, cache_dir=cache), root)
    assert spied == [None]
    assert got == _cold(root, monkeypatch) and got


def test_an_editors_buffer_keeps_the_remembered_graph_of_the_files_on_disk(tmp_path, monkeypatch, spied):
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    runner.run([root], settings, cache_dir=cache)
    entry = next(p for p in (cache / "graph").rglob("*.json") if not p.name.endswith(".head.json"))
    before = entry.read_bytes()
    name = str(root / "app" / "store.py")
    buffer = textwrap.dedent(STEPS[0][1]["app/store.py"]).encode()
    spied.clear()
    got = _findings(runner.run([root], settings, cache_dir=cache, stdin=(name, buffer)), root)
    assert spied[0] is not None  # the other files kept their rows
    assert entry.read_bytes() == before  # a buffer is not remembered: the disk still holds the old file
    assert got and got == _cold(root, monkeypatch, buffers={name: buffer})


@pytest.mark.parametrize("planted", [
    b"not json",
    b'{"format": 1, "index": "x", "files": []}',
    b'{"format": 1, "index": "x", "files": {"a.py": ["k", "e", [1, 2], []]}}',
    b'{"format": 1, "index": "x", "files": {"a.py": ["k", null, null, [["f", ["save"], [3]]]]}}',
    b'{"format": 2, "index": "x", "files": {}}',
])
def test_a_planted_or_damaged_entry_is_not_read(tmp_path, monkeypatch, planted):
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    write_tree(root, STEPS[0][1])
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    runner.run([root], settings, cache_dir=cache)
    entry = next(p for p in (cache / "graph").rglob("*.json") if not p.name.endswith(".head.json"))
    entry.write_bytes(planted)
    (root / "app" / "cold.py").write_text("def unrelated(x):\n    return x\n")
    got = _findings(runner.run([root], settings, cache_dir=cache), root)
    assert got == _cold(root, monkeypatch) and got
    assert json.loads(entry.read_bytes())["format"] == memos.GRAPH_FORMAT  # written anew


def test_a_stub_stands_for_its_file_in_the_project_index(tmp_path):
    """What the index reads of a file survives the round trip through the entry."""
    from ordercheck import frontend

    text = textwrap.dedent('''
        import contextlib
        from pkg.db import Store as S
        from pkg.ops import *

        class Base(S, metaclass=M):
            store: S
            def save(self): ...
            keep = log.warning

            @property
            def current(self) -> S: ...

        @contextlib.contextmanager
        def scope():
            def inner(): ...
            yield inner  # noqa: OC101 -- a reason
    ''')
    facts = frontend.outline("m.py", text.encode(), "pkg.m")
    facts.module_aliases = ["m"]
    record = memos.stub_record(facts)
    again = memos.stub_facts("m.py", json.loads(json.dumps(record)))
    assert memos.stub_record(again) == record
    assert memos._record_ok(json.loads(json.dumps(record)))
    assert again.outline and not any(fn.calls for fn in again.functions)
    assert [fn.context_manager for fn in again.functions] == [fn.context_manager for fn in facts.functions]
    # (session 40) what resolution reads of another file: return annotations,
    # decorators (a property's class) and class-level aliases
    for got, want in zip(again.functions, facts.functions):
        assert (got.returns, got.decorators) == (want.returns, want.decorators)
    assert any(fn.returns and fn.decorators for fn in again.functions)
    assert [c.aliases for c in again.classes] == [c.aliases for c in facts.classes] and again.classes[0].aliases
    # (session 54) the class-level types a read through the class looks up
    assert [c.class_types for c in again.classes] == [c.class_types for c in facts.classes] == [(("store", "pkg.db.Store"),)]
    assert again.suppressions and again.suppressions[0].codes == ("OC101",)


def test_the_language_servers_runs_keep_the_graph_of_the_files_that_did_not_change(tmp_path, spied, monkeypatch):
    # (the checks run an hour later: a file changed within the racy window keeps no graph)
    monkeypatch.setattr(snapshot, "clock_ns", lambda: time.time_ns() + 3600 * 10**9)
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    settings = settings_for(select=DEFAULTS)
    memo: dict = {}
    graph = memos.GraphMemo({})
    name = str(root / "app" / "engine.py")
    texts = [textwrap.dedent(PROJECT["app/engine.py"]), textwrap.dedent(STEPS[2][1]["app/engine.py"]),
             textwrap.dedent(STEPS[5][1]["app/engine.py"])]
    seen = []
    for i, text in enumerate(texts):
        if i == 2:
            write_tree(root, STEPS[4][1])  # the helper file on disk gains a function
        spied.clear()
        kept = runner.run_buffers([root], settings, {name: text.encode()}, memo=memo, graph=graph)
        fresh = runner.run_buffers([root], settings, {name: text.encode()})
        assert _findings(kept, root) == _findings(fresh, root)
        seen.append(spied[0])
        assert (spied[0] is None) == (i in (0, 2))  # nothing kept yet; a file's exports changed
    assert all(p.endswith(("store.py", "notes.py", "cold.py", "__init__.py")) for p in seen[1])
    assert len(seen[1]) == 4


def test_the_language_server_keeps_no_graph_of_a_file_changed_just_now(tmp_path, spied):
    """(A third review of session 38.) The server's call-graph memo was keyed by the
    stat alone: a second change within the same clock step with the same stat (a
    filesystem with one-second stamps) reused the first's graph. A file changed within
    the racy window keeps none."""
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    settings = settings_for(select=DEFAULTS)
    graph = memos.GraphMemo({})
    name = str(root / "app" / "engine.py")
    text = textwrap.dedent(PROJECT["app/engine.py"])
    for _ in range(2):
        spied.clear()
        runner.run_buffers([root], settings, {name: text.encode()}, memo={}, graph=graph)
        kept = spied[0] or set()  # (the buffer, known by its bytes, may keep its rows)
        assert not any(p.endswith(("store.py", "notes.py", "cold.py", "__init__.py")) for p in kept), kept


@pytest.fixture
def reached(monkeypatch):
    """What ``GraphMemo.known_reach`` answered in each run (None: the graph was searched)."""
    answers = []
    real = memos.GraphMemo.known_reach

    def spy(self, rows, fresh, asked):
        got = real(self, rows, fresh, asked)
        answers.append(got)
        return got

    monkeypatch.setattr(memos.GraphMemo, "known_reach", spy)
    return answers


# an edit that changes no call of the file: a string, a local name, a comment, a line
# inserted above (every position below it moves)
QUIET_EDIT = {"app/engine.py": '''
    from app.store import persist
    from app.notes import note

    # finishing a run: the ledger first would be right


    def finish(store, ledger, run):
        persist(store, run)
        ledger.append(run)

    def abort(store, ledger, the_run):
        """Abort."""
        try:
            ledger.append(the_run)
        except Exception:
            note(the_run)
        store.save(the_run)
'''}


def test_an_edit_that_changes_no_call_reuses_the_remembered_focus(tmp_path, monkeypatch, reached):
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    write_tree(root, STEPS[0][1])  # persist saves: finish is OC102
    write_tree(root, STEPS[1][1])  # the handler only logs at debug level: abort is OC202
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    runner.run([root], settings, cache_dir=cache)
    assert reached == [None]  # nothing remembered yet
    reached.clear()
    write_tree(root, QUIET_EDIT)
    got = _findings(runner.run([root], settings, cache_dir=cache), root)
    assert got == _cold(root, monkeypatch)
    assert {code for _, code, *_ in got} == {"OC102", "OC202"}
    assert len(reached) == 1 and reached[0] is not None
    hot, needed = reached[0]
    assert any(k.endswith("::finish") for k in hot) and any(k.endswith("::persist") for k in needed)
    # a call that now matches another class is no such edit: the graph is searched again
    reached.clear()
    write_tree(root, {"app/store.py": "def persist(store, run):\n    return run\n"})
    got = _findings(runner.run([root], settings, cache_dir=cache), root)
    assert reached == [None]
    assert got == _cold(root, monkeypatch) and {code for _, code, *_ in got} == {"OC202"}


def test_a_buffer_named_by_its_absolute_path_reuses_the_focus_under_its_own_name(tmp_path, monkeypatch, reached):
    """The bench's editor run: the buffer is the file on disk plus a comment line, and
    holds the hot functions; their keys are the buffer's, not the file's on disk."""
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    write_tree(root, STEPS[0][1])
    write_tree(root, STEPS[1][1])
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    monkeypatch.chdir(root)
    runner.run([Path(".")], settings, cache_dir=cache)
    name = str(root / "app" / "engine.py")
    buffer = (root / "app" / "engine.py").read_bytes() + b"# an edit\n"
    reached.clear()
    got = runner.run([Path(".")], settings, cache_dir=cache, stdin=(name, buffer))
    assert len(reached) == 1 and reached[0] is not None
    assert all(k.startswith(name) for k in reached[0][0] if k.endswith(("::finish", "::abort")))
    assert _findings(got, root) == _cold(root, monkeypatch, buffers={name: buffer})
    assert {f.code for f in got.findings} == {"OC102", "OC202"}


def test_an_editors_run_on_a_buffer_without_events_imports_no_graph_library(tmp_path):
    """Measured by the bench's editor row: networkx costs a fifth of a second to import."""
    import subprocess
    import sys

    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    write_tree(root, STEPS[0][1])
    (root / "ordercheck.toml").write_text("")
    cache = tmp_path / "cache"
    probe = textwrap.dedent('''
        import sys
        from ordercheck import cli
        try:
            cli.main(sys.argv[1:])
        except SystemExit:
            pass
        print("networkx" in sys.modules, "libcst" in sys.modules, file=sys.stderr)
    ''')
    base = [sys.executable, "-c", probe, "--exit-zero", "-q", "--cache-dir", str(cache)]
    subprocess.run(base + ["."], cwd=root, check=True, capture_output=True)
    name = str(root / "app" / "cold.py")
    buffer = (root / "app" / "cold.py").read_bytes() + b"# an edit\n"
    out = subprocess.run(base + ["--stdin-filename", name, "-"], cwd=root, input=buffer, check=True,
                         capture_output=True)
    assert out.stderr.decode().split() == ["False", "False"]
    # the same buffer with a call that saves: now the graph library is needed
    buffer += b"def more(store, run):\n    store.save(run)\n"
    out = subprocess.run(base + ["--stdin-filename", name, "-"], cwd=root, input=buffer, check=True,
                         capture_output=True)
    assert out.stderr.decode().split()[0] == "True"


def _only(name, findings):
    """A whole run's findings in one file (a buffer's run reports that file only)."""
    return [f for f in findings if f[0] == name]


@pytest.fixture
def quiet(monkeypatch):
    """What ``runner.quiet_buffers`` answered in each run (None: the whole path ran)."""
    answers = []
    real = runner.quiet_buffers

    def spy(*args, **kwargs):
        got = real(*args, **kwargs)
        answers.append(got)
        return got

    monkeypatch.setattr(runner, "quiet_buffers", spy)
    return answers


@pytest.mark.parametrize("edit, answered", [
    # a comment, lines above: the same calls, the same exports
    (lambda src: "# a note\n\n" + src + "# an edit\n", True),
    # a call's arguments changed, not its name
    (lambda src: src.replace("return x.compute()", "return x.compute(1, 2)"), True),
    # a call that matches a class now: the buffer may hold a finding
    (lambda src: src + "\ndef more(store, run):\n    store.save(run)\n", False),
    # a call of another project function (its row changes)
    (lambda src: "from app.store import persist\n" + src.replace("return x.compute()", "return persist(x, x)"), False),
    # another export (a new function)
    (lambda src: src + "\ndef other():\n    return 1\n", False),
    # a buffer that does not parse: its OC900 comes from the whole path
    (lambda src: src + "\ndef broken(:\n", False),
])
def test_a_buffer_that_cannot_hold_a_finding_is_answered_from_the_head(tmp_path, monkeypatch, quiet, edit, answered):
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    (root / "pyproject.toml").write_text("")  # the project is the folder (not an import closure)
    write_tree(root, STEPS[0][1])  # finish is OC102: the project has hot functions
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    monkeypatch.chdir(root)
    runner.run([], settings, cache_dir=cache, stdin=("app/engine.py", (root / "app" / "engine.py").read_bytes()))
    runner.run([Path(".")], settings, cache_dir=cache)
    assert list((cache / "graph").rglob("*.head.json"))
    name = "app/cold.py"
    buffer = edit((root / name).read_text()).encode()
    quiet.clear()
    got = runner.run([], settings, cache_dir=cache, stdin=(name, buffer))
    assert (quiet[0] is not None) == answered
    assert _findings(got, root) == _only(name, _cold(root, monkeypatch, buffers={name: buffer}))
    assert got.files == [name]
    if answered:
        assert got.findings == [] and got.project_files == len(PROJECT)
        # the classes its calls match, as the whole path says
        monkeypatch.setattr(runner, "quiet_buffers", lambda *a, **k: None)
        whole = runner.run([], settings, cache_dir=tmp_path / "other-cache", stdin=(name, buffer))
        assert got.event_classes == whole.event_classes


def test_a_hot_buffer_and_a_changed_file_take_the_whole_path(tmp_path, monkeypatch, quiet):
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    (root / "pyproject.toml").write_text("")  # the project is the folder (not an import closure)
    write_tree(root, STEPS[0][1])
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    monkeypatch.chdir(root)
    runner.run([Path(".")], settings, cache_dir=cache)
    # the buffer holds the hot `finish`: checked, with its finding
    buffer = (root / "app" / "engine.py").read_bytes() + b"# an edit\n"
    quiet.clear()
    got = runner.run([], settings, cache_dir=cache, stdin=("app/engine.py", buffer))
    assert quiet == [None] and {f.code for f in got.findings} == {"OC102"}
    # a quiet buffer, but a file on disk changed since the graph was remembered
    write_tree(root, {"app/notes.py": "def note(run):\n    run.store.save(run)\n"})
    quiet.clear()
    cold_buffer = (root / "app" / "cold.py").read_bytes() + b"# an edit\n"
    got = runner.run([], settings, cache_dir=cache, stdin=("app/cold.py", cold_buffer))
    assert quiet == [None]
    assert _findings(got, root) == _only("app/cold.py", _cold(root, monkeypatch, buffers={"app/cold.py": cold_buffer}))


def test_a_planted_head_is_not_read(tmp_path, monkeypatch, quiet):
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    (root / "pyproject.toml").write_text("")  # the project is the folder (not an import closure)
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    monkeypatch.chdir(root)
    runner.run([Path(".")], settings, cache_dir=cache)
    (head,) = list((cache / "graph").rglob("*.head.json"))
    for planted in (b"garbage", b'{"format": 1, "files": {"a.py": [1, 2, 3]}, "reach": [[], [], []]}',
                    b'{"format": 1, "files": {}, "reach": null}'):
        head.write_bytes(planted)
        quiet.clear()
        buffer = (root / "app" / "cold.py").read_bytes() + f"# an edit {len(planted)}\n".encode()
        got = runner.run([], settings, cache_dir=cache, stdin=("app/cold.py", buffer))
        assert quiet == [None]
        assert _findings(got, root) == _only("app/cold.py", _cold(root, monkeypatch, buffers={"app/cold.py": buffer}))


def test_a_buffer_named_by_its_absolute_path_is_answered_for_its_file(tmp_path, monkeypatch, quiet):
    """Editors name buffers by absolute path: the buffer stands for its file."""
    root = tmp_path / "proj"
    write_tree(root, PROJECT)
    (root / "pyproject.toml").write_text("")
    write_tree(root, STEPS[0][1])
    cache = tmp_path / "cache"
    settings = settings_for(select=DEFAULTS)
    monkeypatch.chdir(root)
    runner.run([Path(".")], settings, cache_dir=cache)
    for name, answered in ((str(root / "app" / "cold.py"), True), (str(root / "app" / "engine.py"), False)):
        buffer = Path(name).read_bytes() + b"# an edit\n"
        quiet.clear()
        got = runner.run([], settings, cache_dir=cache, stdin=(name, buffer))
        assert (quiet[0] is not None) == answered, name
        assert got.files == [name]
        cold = _cold(root, monkeypatch, buffers={name: buffer})
        assert _findings(got, root) == _only(Path(name).relative_to(root).as_posix(), cold)
    assert {f.code for f in got.findings} == {"OC102"}  # (the hot buffer's finding, so the test can fail)
