"""docs/performance.md: the per-file cache and the process pool never change or lose a finding."""
import textwrap
from pathlib import Path

import pytest
from checkutil import settings_for

from ordercheck import cache as cachemod
from ordercheck import frontend, runner

INVERTED = textwrap.dedent('''
    def complete(store, ledger, run):
        store.save(run)
        ledger.append_terminal(run.id)
''')
FIXED = textwrap.dedent('''
    def complete(store, ledger, run):
        ledger.append_terminal(run.id)
        store.save(run)
''')


@pytest.fixture(autouse=True)
def _facts_cache_only(monkeypatch):
    """These tests are about the per-file facts cache (they tamper with its entries);
    the run cache, which would answer a run whose files did not change before any
    facts entry is read, has its own tests (tests/test_run_cache.py)."""
    monkeypatch.setattr(runner, "RUN_CACHE", False)


def _codes(result):
    return [(Path(f.path).name, f.span.line, f.code) for f in result.findings]


def _project(tmp_path, n=6):
    src = tmp_path / "src"
    src.mkdir()
    for i in range(n):
        (src / f"m{i}.py").write_text(INVERTED if i % 2 else FIXED)
    return src


def test_warm_run_reads_every_file_from_the_cache_and_finds_the_same(tmp_path):
    src = _project(tmp_path)
    cache = tmp_path / "cache"
    s = settings_for(select=["OC101"])
    cold = runner.run([src], s, cache_dir=cache)
    warm = runner.run([src], s, cache_dir=cache)
    assert cold.cache_hits == 0 and warm.cache_hits == 6
    assert _codes(cold) == _codes(warm) == [("m1.py", 4, "OC101"), ("m3.py", 4, "OC101"), ("m5.py", 4, "OC101")]
    assert (cache / "CACHEDIR.TAG").is_file()


def test_a_changed_file_is_analysed_again(tmp_path):
    src = _project(tmp_path, 2)
    cache = tmp_path / "cache"
    s = settings_for(select=["OC101"])
    assert _codes(runner.run([src], s, cache_dir=cache)) == [("m1.py", 4, "OC101")]
    (src / "m0.py").write_text(INVERTED)
    (src / "m1.py").write_text(FIXED)
    again = runner.run([src], s, cache_dir=cache)
    assert _codes(again) == [("m0.py", 4, "OC101")]
    assert again.cache_hits == 0


def test_a_changed_config_changes_findings_without_a_stale_cache(tmp_path):
    src = _project(tmp_path, 2)
    cache = tmp_path / "cache"
    runner.run([src], settings_for(select=["OC101"]), cache_dir=cache)
    moved = settings_for({"events": {"save": ["*.nothing"]}}, select=["OC101"])
    result = runner.run([src], moved, cache_dir=cache)
    assert result.cache_hits == 2 and result.findings == []


def test_a_corrupt_cache_entry_is_recomputed(tmp_path):
    src = _project(tmp_path, 2)
    cache = tmp_path / "cache"
    s = settings_for(select=["OC101"])
    runner.run([src], s, cache_dir=cache)
    corrupted = 0
    for kind in ("facts", "light", "outline"):  # (an outline is an entry too: the pre-pass's)
        for entry in (cache / kind).rglob("*.json"):
            entry.write_bytes(b"not a pickle")
            corrupted += 1
    assert corrupted == 6
    result = runner.run([src], s, cache_dir=cache)
    assert result.cache_hits == 0
    assert _codes(result) == [("m1.py", 4, "OC101")]


def test_the_cache_key_covers_content_name_and_version():
    a = cachemod.key("a.py", "a", b"x = 1\n")
    assert a != cachemod.key("a.py", "a", b"x = 2\n")
    assert a != cachemod.key("b.py", "a", b"x = 1\n")
    assert a != cachemod.key("a.py", "pkg.a", b"x = 1\n")
    assert a == cachemod.key("a.py", "a", b"x = 1\n")


def test_pool_and_serial_runs_agree(tmp_path):
    src = _project(tmp_path, 9)
    (src / "broken.py").write_text("def f(:\n")
    s = settings_for(select=["OC101", "OC900"])
    serial = runner.run([src], s, jobs=1)
    pooled = runner.run([src], s, jobs=2)
    assert _codes(serial) == _codes(pooled)
    assert ("broken.py", 1, "OC900") in _codes(pooled)
    assert [f.witness for f in serial.findings] == [f.witness for f in pooled.findings]


def test_no_cache_writes_nothing(tmp_path):
    import subprocess
    import sys

    src = _project(tmp_path, 2)
    r = subprocess.run([sys.executable, "-m", "ordercheck", "--no-cache", "--isolated", "-q", str(src)],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    assert not (tmp_path / ".ordercheck_cache").exists()
    r = subprocess.run([sys.executable, "-m", "ordercheck", "--isolated", "-q", str(src)],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1 and (tmp_path / ".ordercheck_cache" / "facts").is_dir()


def test_facts_too_deep_to_pickle_are_read_in_the_main_process(tmp_path):
    src = _project(tmp_path, 4)
    chain = "def f(store, ledger, run, x):\n    store.save(run)\n    if x == 0:\n        pass\n"
    chain += "".join(f"    elif x == {i}:\n        pass\n" for i in range(1, 260))
    chain += "    ledger.append_terminal(run.id)\n"
    (src / "deep.py").write_text(chain)
    s = settings_for(select=["OC101", "OC900"])
    serial = runner.run([src], s, jobs=1)
    pooled = runner.run([src], s, jobs=2, cache_dir=tmp_path / "cache")
    assert _codes(serial) == _codes(pooled)
    assert ("deep.py", chain.count("\n"), "OC101") in _codes(pooled)
    assert not list((tmp_path / "cache").rglob("*.tmp"))


def test_entries_are_json_headed_by_their_key(tmp_path):
    import json

    src = _project(tmp_path, 2)
    cache = tmp_path / "cache"
    runner.run([src], settings_for(select=["OC101"]), cache_dir=cache)
    entries = sorted((cache / "facts").rglob("*"))
    files = [p for p in entries if p.is_file()]
    assert files and all(p.suffix == ".json" for p in files), files
    for p in files:
        header, body = p.read_text().split("\n", 1)
        assert json.loads(header) == {"key": p.stem}
        assert json.loads(body)["@"] == "FileFacts"


def test_an_entry_under_another_key_is_not_read(tmp_path):
    """An entry copied to another file's name (its header names its own key) is a
    miss: a planted entry cannot stand in for a different file."""
    src = _project(tmp_path, 2)
    cache = tmp_path / "cache"
    s = settings_for(select=["OC101"])
    runner.run([src], s, cache_dir=cache)
    for kind in ("facts", "outline"):  # (the pre-pass's outlines are entries too)
        a, b = sorted((cache / kind).rglob("*.json"))
        a_bytes = a.read_bytes()
        a.write_bytes(b.read_bytes())
        b.write_bytes(a_bytes)
    again = runner.run([src], s, cache_dir=cache)
    assert again.cache_hits == 0
    assert _codes(again) == [("m1.py", 4, "OC101")]


def test_only_the_files_to_parse_go_to_the_pool(tmp_path, monkeypatch):
    """What the cache holds is read in the main process (an editor's run starts no
    pool); the files to parse, when there are enough of them, go to the pool: first
    for their outlines, then the ones that hold a needed function (here all of them:
    each saves and appends) for their whole facts."""
    from ordercheck import sources

    src = _project(tmp_path, 8)
    cache = tmp_path / "cache"
    s = settings_for(select=["OC101"])
    pooled = []
    real = sources._read_in_pool

    def spy(files, jobs, cache_dir, roots, light, outline=False, units=None, outlines=None, compile_later=False,
            freeze=False, parsed=None):
        pooled.append((sorted(Path(f).name for f in files), "outline" if outline else "whole"))
        return real(files, jobs, cache_dir, roots, light, outline, units, outlines, compile_later, freeze, parsed)

    monkeypatch.setattr(sources, "_read_in_pool", spy)
    cold = runner.run([src], s, cache_dir=cache, jobs=2)
    every = [f"m{i}.py" for i in range(8)]
    assert pooled == [(every, "outline"), (every, "whole")]
    warm = runner.run([src], s, cache_dir=cache, jobs=2)
    assert len(pooled) == 2 and warm.cache_hits == 8
    for i in range(5):  # five files edited: those five are parsed in the pool
        (src / f"m{i}.py").write_text((src / f"m{i}.py").read_text() + "\n# edited\n")
    again = runner.run([src], s, cache_dir=cache, jobs=2)
    edited = [f"m{i}.py" for i in range(5)]
    assert pooled[2:] == [(edited, "outline"), (edited, "whole")] and again.cache_hits == 3
    assert _codes(cold) == _codes(warm) == _codes(again)


def test_light_facts_keep_every_with_item_in_order_and_nothing_else():
    """``cache.lighten`` keeps of a function's statements only its ``with``
    statements, flattened: call resolution (``summaries.with_managers``) finds the
    same manager calls in the same order as in the whole body, and no other
    statement (nor anything inside a ``with``) is kept."""
    from ordercheck import cache as cachemod
    from ordercheck import frontend
    from ordercheck.summaries import with_managers

    source = b'''
def f(store, ledger):
    try:
        with store.lock() as a, ledger.batch():
            if a:
                with store.transaction():
                    store.save(1)
    except ValueError:
        with ledger.recover():
            pass
    finally:
        with store.cleanup():
            ledger.append(2)
    for x in a:
        async_thing = 1
    match a:
        case 1:
            with store.case_manager():
                pass

def g(store):
    store.save(1)
'''
    facts = frontend.extract("m.py", source)
    light = cachemod.lighten(facts)
    for whole, lit in zip(facts.functions, light.functions):
        assert [c.id for c in with_managers(lit.body)] == [c.id for c in with_managers(whole.body)]
        assert all(st.kind == "with" and not st.body and not st.events for st in lit.body)
    by_name = {fn.qualname: fn for fn in light.functions}
    f, g = by_name["f"], by_name["g"]
    assert [c.callee for c in with_managers(f.body)] == [
        "store.lock", "ledger.batch", "store.transaction", "store.cleanup", "ledger.recover", "store.case_manager"]
    assert g.body == [] and light.lines == []
    assert cachemod.from_json(cachemod.to_json(light)) == light


def test_light_calls_keep_what_resolution_and_origins_read():
    """Light facts (``cache.lighten``) keep a call's callee, names, receiver, position
    and text, which resolution and a remembered summary's origins read, and drop what
    only classifying it on a graph reads; graphs are built from the whole facts."""
    src = (b"def f(self, run, exc):\n"
           b"    state = self._failed(run, exc)\n"
           b"    try:\n        self._ledger.append_record(run.id, 'RUN_FAILED', state)\n"
           b"    except Exception as e:\n        self.report(e)\n")
    facts = frontend.extract("a.py", src)
    light = cachemod.lighten(facts)
    for whole, thin in zip(facts.functions[0].calls, light.functions[0].calls):
        assert (thin.callee, thin.qualnames, thin.span, thin.text, thin.receiver_type, thin.self_call, thin.id) == (
            whole.callee, whole.qualnames, whole.span, whole.text, whole.receiver_type, whole.self_call, whole.id)
        assert thin.marker_runs == () and thin.own_run == () and thin.reads == () and thin.hands_on == ()
    calls = facts.functions[0].calls
    assert any(c.marker_runs for c in calls) and any(c.hands_on for c in calls) and any(c.builds for c in calls)


def test_the_verbose_count_of_cache_reads_never_exceeds_the_files_read(tmp_path):
    """``-v``'s "N read for the summaries (M from the cache)" counts each file once, by
    its first read (a new user's walkthrough, session 44: a partial run after warm
    whole runs said 14 of 8, counting the outline and the whole read of a file)."""
    import re

    from cliutil import oc, write

    write(tmp_path, "pyproject.toml", "[tool.ordercheck]\n")
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/sub/__init__.py", "")
    for i in range(5):
        write(tmp_path, f"pkg/m{i}.py", f"def f{i}(store, ledger, run):\n    store.save(run)\n    ledger.append(run)\n")
    write(tmp_path, "pkg/sub/s.py", "def g(store, run):\n    store.save(run)\n")
    cache = tmp_path / "cache"
    for _ in range(2):
        oc(tmp_path, "--cache-dir", cache, "-q", proc=True)
    def counts(*args):
        err = oc(tmp_path, "--cache-dir", cache, "-v", *args, proc=True).err
        return tuple(map(int, re.search(r"(\d+) read for the summaries \((\d+) from the cache\)", err).groups()))

    for _ in range(2):
        read, cached = counts("pkg/sub")
        assert read == 8 and cached <= read, (read, cached)
    # a file whose outline came from the cache but which is then parsed whole (no run
    # needed its functions before) is not from the cache (a review)
    cache = tmp_path / "cache2"
    assert counts("--select", "OC301", "pkg") == (8, 0)
    read, cached = counts("pkg")
    assert read == 8 and cached <= 3, (read, cached)  # the five m*.py were parsed whole
    assert counts("pkg") == (8, 8)
