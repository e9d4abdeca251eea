"""What a run does with the garbage collector (docs/performance.md, "Session 26"): the
facts it has read are frozen (``gc.freeze``) so that no collection walks them again,
neither in the main process nor in a libcst-pass worker forked later; such a worker
takes each file's outline from the heap it was forked with instead of a pickle; and
the run leaves nothing frozen behind (a language server runs again and again)."""
from __future__ import annotations

import gc
import multiprocessing
from pathlib import Path

import pytest
from checkutil import ALL_DEFAULT, settings_for, write_tree

from ordercheck import runner, sources

_SOURCE = """\
import os

class Runtime:
    def complete(self, run, store, ledger):
        store.save(run)
        ledger.append(run.id, "COMPLETED")

    def idle(self):
        return 1

def quiet(x):
    return x + 1
"""


def _tree(root: Path, n: int = 12) -> None:
    write_tree(root, {f"pkg/m{i}.py": _SOURCE.replace("Runtime", f"Runtime{i}") for i in range(n)})
    (root / "ordercheck.toml").write_text("")


def _outlines_and_units(root: Path):
    files = sorted(root.rglob("*.py"))
    outlines, _ = sources.read_all(files, jobs=1, roots=[root], outline=True)
    units = [frozenset({f"Runtime{i}.complete"}) for i in range(len(files))]
    return files, outlines, [o if o.digest else None for o in outlines], units


def _spy(monkeypatch):
    """``read_facts`` in the workers, marking each result with whether it was given
    the file's outline (the workers are forked with the patched module)."""
    orig = sources.read_facts

    def spy(path, **kw):
        facts = orig(path, **kw)
        if kw.get("outlined") is not None:
            facts.module += ":outlined"  # (a mark that travels back with the pickled facts)
        return facts

    monkeypatch.setattr(sources, "read_facts", spy)


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="the inherited outlines need fork")
@pytest.mark.parametrize("start", ["fork", "pickled"])
def test_a_libcst_worker_takes_each_files_outline(tmp_path, monkeypatch, start):
    _tree(tmp_path)
    files, _, given, units = _outlines_and_units(tmp_path)
    assert all(o is not None for o in given)
    _spy(monkeypatch)
    if start == "pickled":  # what a worker not made by fork is given (the pool still forks here)
        monkeypatch.setattr(multiprocessing, "get_start_method", lambda *a, **k: "spawn")
    pooled, _ = sources._read_in_pool(files, 2, None, [tmp_path], light=False, units=units, outlines=given)
    assert all(f.module.endswith(":outlined") for f in pooled)
    assert sources._INHERITED == {}  # let go once the pool is done
    single, _ = sources.read_all(files, jobs=1, roots=[tmp_path], units=units, outlines=given)
    assert [[(fn.qualname, [c.text for c in fn.calls]) for fn in f.functions] for f in pooled] == \
        [[(fn.qualname, [c.text for c in fn.calls]) for fn in f.functions] for f in single]
    assert [sorted(f.outlined) for f in pooled] == [sorted(f.outlined) for f in single]


def test_the_pools_facts_come_back_frozen_when_asked(tmp_path):
    _tree(tmp_path)
    files = sorted(tmp_path.rglob("*.py"))
    assert gc.get_freeze_count() == 0
    facts, _ = sources.read_all(files, 2, None, [tmp_path], outline=True)
    assert gc.get_freeze_count() == 0  # (sources alone freezes nothing)
    try:
        facts, _ = sources.read_all(files, 2, None, [tmp_path], outline=True, freeze=True)
        assert gc.get_freeze_count() > 0
        unfrozen = set(map(id, gc.get_objects()))  # (the permanent generation is not listed)
        assert facts and all(id(f) not in unfrozen for f in facts)
    finally:
        gc.unfreeze()


def test_a_run_freezes_what_it_read_and_leaves_nothing_frozen(tmp_path, monkeypatch):
    _tree(tmp_path)
    seen = {}
    orig_wanted, orig_summaries = runner.read_wanted, runner.project_summaries

    def wanted(*a, **k):
        seen["wanted"] = gc.get_freeze_count()
        return orig_wanted(*a, **k)

    def summaries(*a, **k):
        got = orig_summaries(*a, **k)
        seen["summaries"] = gc.get_freeze_count()
        return got

    monkeypatch.setattr(runner, "read_wanted", wanted)
    monkeypatch.setattr(runner, "project_summaries", summaries)
    before = gc.get_freeze_count()
    result = runner.run([tmp_path], settings_for(select=ALL_DEFAULT), jobs=2)
    assert [f.code for f in result.findings].count("OC101") == 12
    assert seen["wanted"] > 0 and seen["summaries"] >= seen["wanted"]
    assert gc.get_freeze_count() == before == 0


def test_a_failed_run_leaves_nothing_frozen(tmp_path, monkeypatch):
    _tree(tmp_path)

    def boom(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(runner, "project_summaries", boom)
    with pytest.raises(RuntimeError):
        runner.run([tmp_path], settings_for(select=ALL_DEFAULT), jobs=2)
    assert gc.get_freeze_count() == 0
