"""Only the needed functions of a needed file are read with libcst (``frontend.extract``'s
``units``; docs/performance.md, "Session 15") and nothing is lost:

* a function read as part of a unit has exactly the facts the whole file's walk gives
  it (statement trees, calls, positions, texts, marks), call ids aside, which only
  have to be unique in the file: checked on every fixture, every rule example and a
  set of hard cases, for every single function and for subsets;
* every other function stays an outline (``FileFacts.outlined``) and is never
  checked; a qualified name is never both;
* the cache keeps such facts and hands them only to a reader whose functions they
  hold whole; another reader gets the file read again;
* a run finds the same with units on and off, cold and warm;
* built on the outline pass's outline (``extract``'s ``outlined``) the facts are the
  same as when the file is outlined again, and an outline of other bytes is not used.
"""
from __future__ import annotations

import dataclasses
import random
import re
import textwrap
from pathlib import Path

import pytest
from checkutil import settings_for, write_tree

from ordercheck import cache as cachemod
from ordercheck import frontend, runner, sources
from ordercheck.frontend import source as sourcemod
from ordercheck.rulebook import builtin_rules

ROOT = Path(__file__).resolve().parent.parent
DEFAULTS = sorted(r.id for r in builtin_rules() if r.default)

HARD = {
    "overloads_and_conditionals": '''
        import sys
        from typing import overload

        @overload
        def pick(x: int) -> int: ...
        @overload
        def pick(x: str) -> str: ...
        def pick(x):
            def inner():
                ledger.append(x)
            store.save(x)
            return inner

        if sys.version_info >= (3, 8):
            def compat(run):
                store.save(run)
        else:
            def compat(run):
                ledger.append(run)

        try:
            import fast
        except ImportError:
            def fast(run):
                with store.lock():
                    ledger.append_event(run)
    ''',
    "classes": '''
        class Outer:
            class Inner:
                @staticmethod
                @some.decorator(
                    "wrapped",
                )
                async def go(self, run):
                    try:
                        await self.ledger.append(run)
                    except Exception:
                        pass
                    self.store.save(run)

            @property
            def state(self):
                return self.store.load()

            @state.setter
            def state(self, value):
                self.store.save(value)

            if True:
                def maybe(self):
                    self.ledger.append_terminal(1)

        def factory():
            class Local:
                def m(self, run):
                    store.save(run)
                    ledger.append(run)
            return Local

        match command:
            case "x":
                def in_case(run):
                    store.save(run)
    ''',
    "text": '''
        class Ünïcode:
            def método(self, run):
                self.store.save(run, note="ünï")  # comment ünï
                self.ledger.append(run,
                                   "wrapped")

        def tabs(run):
        \tstore.save(run)
        \tledger.append(run)

        def after(run):
            x = [store.save(r) for r in run if ledger.append(r)]
            return lambda: ledger.append(run)
    ''',
}


def _canon(fn) -> str:
    """A function's facts with call ids renumbered by their order in the function."""
    ids = {c.id: i for i, c in enumerate(fn.calls)}
    text = repr(dataclasses.asdict(fn))
    return re.sub(r"'(id|test_call|iter_call)': (\d+)",
                  lambda m: f"'{m.group(1)}': {ids.get(int(m.group(2)), 'outside ' + m.group(2))}", text)


def _sources():
    out = {name: textwrap.dedent(src).encode() for name, src in HARD.items()}
    out["text"] = out["text"].replace(b"def tabs(run):\n\t", b"def tabs(run):\n\t")
    for folder in ("runtime", "runtime_fixed"):
        for p in sorted((ROOT / "fixtures" / folder).glob("*.py")):
            out[f"{folder}/{p.name}"] = p.read_bytes()
    for rule in builtin_rules():
        for i, ex in enumerate(rule.examples):
            out[f"{rule.id}_{i}"] = ex["code"].encode()
    return out


SOURCES = _sources()


def _check(name: str, data: bytes, needed: set) -> None:
    whole = frontend.extract(f"{name}.py", data)
    part = frontend.extract(f"{name}.py", data, units=needed)
    # built on the outline pass's outline of the same bytes: the very same facts
    outline = frontend.outline(f"{name}.py", data)
    assert frontend.extract(f"{name}.py", data, units=needed, outlined=outline) == part
    assert part.error == whole.error
    if whole.error is not None:
        return
    assert part.lines == whole.lines and part.suppressions == whole.suppressions
    assert [f.qualname for f in part.functions] == [f.qualname for f in whole.functions] or part.outlined
    ids = [c.id for f in part.functions for c in f.calls]
    assert len(ids) == len(set(ids)), "a call id is unique in the file"
    outlined = set(part.outlined)
    by_name: dict = {}
    for fn in whole.functions:
        by_name.setdefault(fn.qualname, []).append(fn)
    got = [fn for fn in part.functions if fn.qualname not in outlined]
    assert {f.qualname for f in got} >= needed
    for fn in got:
        assert _canon(fn) == _canon(by_name[fn.qualname].pop(0)), (name, fn.qualname)
    if "<module>" in needed:
        assert not part.outlined


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_each_function_read_alone_has_the_facts_of_the_whole_walk(name):
    data = SOURCES[name]
    quals = sorted({f.qualname for f in frontend.extract(f"{name}.py", data).functions})
    if not quals:  # a file CPython rejects: the same OC900 either way
        _check(name, data, {"f"})
        return
    for q in quals:
        _check(name, data, {q})
    rng = random.Random(name)
    for _ in range(3):
        _check(name, data, set(rng.sample(quals, max(1, len(quals) // 2))))


def test_the_hard_cases_are_read_in_units():
    """Each hard case really takes the units path (no silent fallback to the whole
    file), and every definition of a unit's name is whole (overloads, setters,
    conditional definitions)."""
    cases = {
        "overloads_and_conditionals": ({"pick.<locals>.inner", "compat", "fast"}, {"pick", "compat", "fast"}),
        "classes": ({"Outer.Inner.go", "Outer.state", "Outer.maybe", "factory.<locals>.Local.m", "in_case"},
                    {"Outer.Inner.go", "Outer.state", "Outer.maybe", "factory", "in_case"}),
        "text": ({"Ünïcode.método", "tabs"}, {"Ünïcode.método", "tabs"}),
    }
    for name, (needed, outermost) in cases.items():
        part = frontend.extract(f"{name}.py", SOURCES[name], units=needed)
        assert part.outlined, name
        assert "<module>" in part.outlined
        whole = {f.qualname for f in part.functions if f.qualname not in set(part.outlined)}
        assert outermost <= whole and needed <= whole
        assert not set(part.outlined) & whole
    part = frontend.extract("x.py", SOURCES["overloads_and_conditionals"], units={"pick"})
    assert [f.qualname for f in part.functions if f.qualname == "pick"] == ["pick"] * 3
    assert "pick" not in part.outlined


@pytest.mark.parametrize("name", sorted(HARD))
def test_a_units_positions_are_cut_from_the_files_ast(name, monkeypatch):
    """A unit's positions come from the file's ``ast`` (``frontend.piece_ast``): no
    second ``ast.parse`` of its text, and the two trees pair (no codegen fallback);
    that they are the whole walk's positions is ``_check``'s (docs/performance.md,
    "Session 27")."""
    from ordercheck.frontend import positions

    parsed = []
    real = positions._from_ast

    def spy(tree, text, atree=None, shift=0):
        parsed.append(atree is None)
        return real(tree, text, atree, shift)

    monkeypatch.setattr(positions, "_from_ast", spy)
    data = SOURCES[name]
    quals = {f.qualname for f in frontend.extract(f"{name}.py", data).functions} - {"<module>"}
    parsed.clear()
    before = positions.FALLBACKS
    part = frontend.extract(f"{name}.py", data, units=quals)
    assert part.outlined and parsed, "read in units"
    # (a form feed in the indentation moves columns: such a file parses its pieces again)
    assert not any(parsed) or b"\x0c" in data
    assert positions.FALLBACKS == before


def test_a_huge_top_level_function_is_read_in_chunks(monkeypatch):
    body = "".join(f"    store.save({i})\n    ledger.append({i})\n" for i in range(40))
    data = (f"def small():\n    pass\n\n@dec\ndef big(run):\n{body}\n\nclass C:\n    def m(self):\n"
            f"        self.store.save(1)\n").encode()
    monkeypatch.setattr(sourcemod, "CHUNK_LINES", 10)
    pieces = []
    real = sourcemod.huge_functions

    def spy(*args):
        got = real(*args)
        pieces.append(sorted(got))
        return got

    monkeypatch.setattr(frontend, "huge_functions", spy)
    _check("huge", data, {"big"})
    _check("huge", data, {"big", "C.m"})
    assert pieces and all(p == [4] for p in pieces)  # `big`, from its decorator's line


def test_a_form_feed_in_indentation_keeps_its_columns():
    data = b"class C:\n\x0c    def m(self):\n\x0c        self.store.save(1)\n\n\x0cdef f():\n    ledger.append(2)\n"
    _check("ff", data, {"C.m"})
    _check("ff", data, {"f"})


def test_the_module_body_reads_the_file_whole_and_other_names_are_no_functions():
    data = SOURCES["classes"]
    assert not frontend.extract("c.py", data, units={"<module>"}).outlined
    # a name that is no function of the file (a class's key, say) asks for nothing
    some = frontend.extract("c.py", data, units={"Outer.Inner.go", "Outer", "nowhere"})
    assert "Outer.Inner.go" not in some.outlined and "Outer.state" in some.outlined
    # a file CPython rejects is the same either way
    bad = frontend.extract("bad.py", b"def f(:\n", units={"f"})
    assert bad.error is not None and bad.error == frontend.extract("bad.py", b"def f(:\n").error


def test_the_cache_hands_facts_only_to_a_reader_they_serve(tmp_path, monkeypatch):
    path = tmp_path / "m.py"
    path.write_bytes(SOURCES["classes"])
    cache = cachemod.Cache(tmp_path / "cache")
    calls = []
    real = frontend.extract

    def spy(shown, data, module=None, units=None, outlined=None):
        calls.append(None if units is None else set(units))
        return real(shown, data, module, units, outlined)

    monkeypatch.setattr(frontend, "extract", spy)
    first = sources.read_facts(path, cache=cache, units={"Outer.state"})
    assert "Outer.state" not in first.outlined and "factory" in first.outlined
    again = sources.read_facts(path, cache=cache, units={"Outer.state"})
    assert calls == [{"Outer.state"}] and not set(again.outlined) ^ set(first.outlined)
    light = sources.read_facts(path, cache=cache, units={"Outer.state"}, light=True)
    assert calls == [{"Outer.state"}] and light.outlined == first.outlined
    # another function: read again, for both (two runs that need different functions
    # of a file do not take turns)
    more = sources.read_facts(path, cache=cache, units={"factory.<locals>.Local.m"})
    assert calls[-1] >= {"Outer.state", "factory.<locals>.Local.m"}
    assert not {"Outer.state", "factory"} & set(more.outlined)
    # a reader that wants the whole file never gets outlines (nor counts a cache hit)
    hits = cache.hits
    whole = sources.read_facts(path, cache=cache)
    assert calls[-1] is None and not whole.outlined and cache.hits == hits
    # and whole facts serve every later reader
    n = len(calls)
    assert not sources.read_facts(path, cache=cache, units={"Outer.state"}).outlined
    assert len(calls) == n


PROJECT = {
    "app/__init__.py": "",
    "app/engine.py": '''
        from app.helpers import note, finish

        class Engine:
            def run(self, store, ledger, run):
                try:
                    ledger.append(run)
                except Exception:
                    note(run)
                store.save(run)

            def idle(self):
                return 1

        def unrelated(x):
            return x.compute()
    ''',
    "app/helpers.py": '''
        import logging
        log = logging.getLogger(__name__)

        def note(run):
            log.debug("lost %s", run)

        def finish(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run)

        def other():
            return 2
    ''',
}


def _findings(root, cache_dir=None, units=True, monkeypatch=None):
    monkeypatch.setattr(runner, "UNITS", units)
    result = runner.run([root], settings_for(None, select=DEFAULTS), cache_dir=cache_dir)
    return sorted((Path(f.path).name, f.code, f.span.line, f.span.col, f.message) for f in result.findings)


def test_a_run_finds_the_same_with_units_on_and_off(tmp_path, monkeypatch):
    write_tree(tmp_path, PROJECT)
    on = _findings(tmp_path, monkeypatch=monkeypatch)
    off = _findings(tmp_path, units=False, monkeypatch=monkeypatch)
    assert on == off and {c for _, c, *_ in on} >= {"OC101", "OC202"}
    cache = tmp_path / ".cache"
    assert _findings(tmp_path, cache, monkeypatch=monkeypatch) == on  # cold, units
    assert _findings(tmp_path, cache, monkeypatch=monkeypatch) == on  # warm
    assert _findings(tmp_path, cache, units=False, monkeypatch=monkeypatch) == on  # whole files wanted
    # an edit that makes another function of a partly read file hot
    helpers = tmp_path / "app" / "helpers.py"
    helpers.write_text(helpers.read_text().replace("return 2", "ledger.append_terminal(2)\n    store.save(2)"))
    cold = _findings(tmp_path, monkeypatch=monkeypatch)
    assert _findings(tmp_path, cache, monkeypatch=monkeypatch) == cold
    assert any(line for name, _, line, *_ in cold if name == "helpers.py")


@pytest.mark.parametrize("folder", ["runtime", "runtime_fixed"])
def test_the_fixtures_find_the_same_with_units_on_and_off(folder, tmp_path, monkeypatch):
    import shutil

    root = tmp_path / folder
    shutil.copytree(ROOT / "fixtures" / folder, root)
    on = _findings(root, monkeypatch=monkeypatch)
    assert on == _findings(root, units=False, monkeypatch=monkeypatch)
    assert bool(on) == (folder == "runtime")


def test_an_outline_of_other_bytes_is_not_built_on(tmp_path, monkeypatch):
    """``sources`` hands the outline pass's outline to the libcst pass only for the
    same bytes (``FileFacts.digest``): a file changed between the passes is read
    afresh."""
    path = tmp_path / "m.py"
    path.write_bytes(SOURCES["classes"])
    outline = sources.read_facts(path, outline=True)
    assert outline.outline and outline.digest == sources.fingerprint(SOURCES["classes"])
    seen = []
    real = frontend.extract

    def spy(shown, data, module=None, units=None, outlined=None):
        seen.append(outlined)
        return real(shown, data, module, units, outlined)

    monkeypatch.setattr(frontend, "extract", spy)
    same = sources.read_facts(path, units={"Outer.state"}, outlined=outline)
    assert seen == [outline]
    path.write_bytes(SOURCES["classes"].replace(b"def state(self):", b"def state(self, extra=None):"))
    changed = sources.read_facts(path, units={"Outer.state"}, outlined=outline)
    assert seen[-1] is None
    assert changed.digest != same.digest
    params = {fn.params for fn in changed.functions if fn.qualname == "Outer.state"}
    assert ("self", "extra") in params
