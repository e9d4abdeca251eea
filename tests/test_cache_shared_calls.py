"""Facts read back from the cache must behave as the front end's facts: one object per
call, held both by ``FunctionFacts.calls`` and by the statement tree the graphs read.
The project phase sets a name on the calls (``Call.typed``: an outside name a project
module re-exports, a type through a base class in another file); on a copy in the tree
that name was lost, so a warm run missed what a cold run found (docs/decisions.md,
"A name set by the project phase")."""
from __future__ import annotations

import dataclasses
import textwrap

import pytest
from cliutil import oc

from ordercheck import cache, frontend, runner
from ordercheck.ir import Call, FunctionFacts

SOURCE = """\
import contextlib


def f(db, ledger, run, items):
    with contextlib.suppress(KeyError), db.begin() as tx:
        tx.save(run)
    try:
        ledger.append("a")
    except ValueError:
        ledger.append("b")
    finally:
        db.close()
    for item in items:
        if db.ready(item) and not db.stale(item):
            db.save(item)
        while db.poll():
            ledger.append(item)
    match run.state:
        case "x" if db.check(run):
            db.save(run)
        case _:
            pass
    assert db.ok(run), db.describe(run)
    return [db.load(i) for i in items] or db.fallback(run)
"""


def _tree_calls(node, out):
    """Every Call object reachable from ``node`` (dataclasses, lists, tuples)."""
    if isinstance(node, Call):
        out.append(node)
        return
    if isinstance(node, (list, tuple)):
        for item in node:
            _tree_calls(item, out)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            _tree_calls(getattr(node, f.name), out)


def _function(facts, name) -> FunctionFacts:
    return next(fn for fn in facts.functions if fn.name == name)


def test_the_tree_holds_the_very_call_objects_of_calls_after_the_cache():
    facts = frontend.extract("m.py", SOURCE.encode())
    light = cache.lighten(facts)  # (must leave the whole facts as they are)
    back = cache.from_json(cache.to_json(facts))
    for got in (facts, back, light, cache.from_json(cache.to_json(light))):
        fn = _function(got, "f")
        held = []
        _tree_calls(fn.body, held)
        assert len(held) >= (15 if got.lines else 2)
        by_id = {c.id: c for c in fn.calls}
        for call in held:
            assert call is by_id[call.id], call.callee


def test_a_name_set_on_a_cached_call_reaches_the_graphs():
    back = cache.from_json(cache.to_json(frontend.extract("m.py", SOURCE.encode())))
    fn = _function(back, "f")
    for call in fn.calls:
        object.__setattr__(call, "typed", ("marked",))
    held = []
    _tree_calls(fn.body, held)
    assert held and all(c.typed == ("marked",) for c in held)


def _project(root, util):
    files = {
        "ordercheck.toml": 'select = ["OC101"]\n[events]\nsave = ["extlib.persist"]\n'
                           'append = ["*ledger*.append*"]\n',
        "pkg/__init__.py": "",
        "pkg/util.py": util,
        "pkg/jobs.py": """\
            from .util import persist


            def finish(ledger, run):
                persist(run)
                ledger.append("run_failed")
            """,
    }
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return root


OWN = "def persist(run):\n    return run\n"
REEXPORT = "from extlib import persist  # noqa: F401\n"
FOUND = [("pkg/jobs.py", 6, "OC101")]


@pytest.mark.parametrize("prepass", [True, False])
@pytest.mark.parametrize("target", ["pkg", "pkg/jobs.py"])
def test_a_warm_run_follows_an_edit_of_what_a_name_is_bound_to(tmp_path, monkeypatch, prepass, target):
    """``pkg/util.py`` turns its own ``persist`` into a re-export of ``extlib.persist``:
    the unchanged ``jobs.py`` comes from the cache, and its call must still get the
    outside name, as in a cold run."""
    monkeypatch.setattr(runner, "PREPASS", prepass)
    root = _project(tmp_path / "p", OWN)
    cache_dir = str(tmp_path / "cache")
    assert oc(root, "--cache-dir", cache_dir, target).codes() == []
    (root / "pkg" / "util.py").write_text(REEXPORT)
    assert oc(root, "--no-cache", target).codes() == FOUND
    assert oc(root, "--cache-dir", cache_dir, target).codes() == FOUND
    assert oc(root, "--cache-dir", cache_dir, target).codes() == FOUND  # warm again
    (root / "pkg" / "util.py").write_text(OWN)
    assert oc(root, "--cache-dir", cache_dir, target).codes() == []


@pytest.mark.parametrize("target", ["pkg", "pkg/jobs.py"])
def test_a_summary_read_whole_from_the_cache_keeps_the_name(tmp_path, target):
    """The call that saves sits in a third file, whose facts a warm run reads light and
    then whole for its summary (``memos.FullFacts``): the whole facts get the name the
    project phase set on the light ones."""
    root = _project(tmp_path / "p", OWN)
    (root / "pkg" / "helpers.py").write_text("from .util import persist\n\n\ndef keep(run):\n    persist(run)\n")
    (root / "pkg" / "jobs.py").write_text("from .helpers import keep\n\n\ndef finish(ledger, run):\n"
                                          "    keep(run)\n    ledger.append(\"run_failed\")\n")
    cache_dir = str(tmp_path / "cache")
    assert oc(root, "--cache-dir", cache_dir, "pkg").codes() == []
    (root / "pkg" / "util.py").write_text(REEXPORT)
    assert oc(root, "--no-cache", target).codes() == FOUND
    for _ in range(2):
        assert oc(root, "--cache-dir", cache_dir, target, proc=True).codes() == FOUND
