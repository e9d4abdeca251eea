"""Issue 10: never hang, never crash, never run a stranger's code (semantics §Surfaces, §10).

FIFOs and pathological globs run in a real subprocess with a timeout (a hang fails the
test instead of hanging the suite); Ctrl-C is a real SIGINT to a real process group.
The suite runs as root, and root reads mode-000 files and folders, so unreadable files
and folders are simulated by injecting the ``PermissionError`` the OS would raise.
"""
from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from checkutil import settings_for
from cliutil import oc, write

from ordercheck import cache as cachemod
from ordercheck import frontend, ir, runner, sources
from ordercheck.frontend import source as sourcemod

INVERTED = """\
def complete(store, ledger, run):
    store.save(run)
    ledger.append_terminal(run.id)
"""


def _project(root: Path, n: int = 3) -> Path:
    src = root / "src"
    for i in range(n):
        write(src, f"m{i}.py", INVERTED)
    return src


def _codes(result):
    return [(Path(f.path).name, f.span.line, f.code) for f in result.findings]


# --------------------------------------------------------------------------- the cache


class Boom:
    """Unpickling this writes a marker file: proof that a pickle ran code."""

    marker = ""

    def __reduce__(self):
        return (Path.write_text, (Path(self.marker), "executed"))


def _hostile_entries(marker: Path):
    boom = Boom()
    boom.marker = str(marker)
    deep = "[" * 100_000 + "]" * 100_000
    deep_objects = '{"@":"FileFacts","path":' * 50_000
    return {
        "pickle": pickle.dumps(boom),
        "pickle-after-header": None,  # filled per entry: a valid header, then a pickle
        "garbage": b"\x00\xff not json at all",
        "empty": b"",
        "truncated": None,  # filled per entry: a valid entry cut in half
        "unknown-class": json.dumps({"@": "Popen", "args": ["touch", str(marker)]}).encode(),
        "class-not-allowed-here": json.dumps({"@": "Span", "line": 1, "col": 0, "end_line": 1, "end_col": 0}).encode(),
        "deep-json": deep.encode(),
        "deep-objects": deep_objects.encode(),
        "not-an-object": b"[1, 2, 3]",
    }


def _plant(cache: Path, marker: Path, kind: str) -> int:
    """Every facts entry and every run-cache entry (``runs/``) made hostile; returns
    how many facts entries."""
    entries = sorted((cache / "facts").rglob("*.json"))
    runs = sorted((cache / "runs").glob("*.json"))
    others = [p for kind in ("light", "outline", "summaries", "checks", "graph", "snapshot")
              for p in sorted((cache / kind).rglob("*.json"))]
    assert entries and runs and others
    runs += others
    for entry in entries + runs:
        good = entry.read_bytes()
        header, _, body = good.partition(b"\n")
        payload = _hostile_entries(marker)[kind]
        if kind == "pickle-after-header":
            payload = header + b"\n" + pickle.dumps(Boom())
        elif kind == "truncated":
            payload = good[: len(good) // 2]
        elif kind not in ("pickle", "garbage", "empty"):
            payload = header + b"\n" + payload  # the right key, hostile facts
        entry.write_bytes(payload)
    return len(entries)


@pytest.mark.parametrize("kind", list(_hostile_entries(Path("x"))))
def test_a_planted_cache_entry_is_never_executed_and_never_crashes(tmp_path, kind):
    src = _project(tmp_path)
    cache = tmp_path / "cache"
    marker = tmp_path / "EXECUTED"
    s = settings_for(select=["OC101"])
    cold = runner.run([src], s, cache_dir=cache)
    planted = _plant(cache, marker, kind)
    assert planted == 3
    again = runner.run([src], s, cache_dir=cache)
    assert not marker.exists()
    assert again.cache_hits == 0  # every hostile entry was ignored ...
    assert _codes(again) == _codes(cold) == [(f"m{i}.py", 2 + 1, "OC101") for i in range(3)]
    warm = runner.run([src], s, cache_dir=cache)  # ... and rewritten as good entries
    assert warm.cache_hits == 3 and _codes(warm) == _codes(cold)


def test_a_planted_entry_through_the_command_line(tmp_path):
    """The same through the CLI's default cache folder, as CI would meet a committed
    ``.ordercheck_cache``: a pickle in every entry runs nothing."""
    _project(tmp_path)
    first = oc(tmp_path, "--isolated", "-q", "src")
    marker = tmp_path / "EXECUTED"
    boom = Boom()
    boom.marker = str(marker)
    cache = tmp_path / ".ordercheck_cache"
    for entry in [*(cache / "facts").rglob("*.json"), *(cache / "runs").glob("*.json"), *(cache / "light").rglob("*.json")]:
        header = entry.read_bytes().partition(b"\n")[0]
        entry.write_bytes(header + b"\n" + pickle.dumps(boom))
    second = oc(tmp_path, "--isolated", "-q", "src", proc=True)
    assert not marker.exists()
    assert (second.code, second.findings()) == (first.code, first.findings()) and first.code == 1


@pytest.mark.parametrize("body, why", [
    ({"@": "FileFacts", "path": "a.py", "module": "a", "shell": "rm -rf /"}, "unknown field"),
    ({"@": "FileFacts", "path": 3, "module": "a"}, "wrong type"),
    ({"@": "FileFacts", "path": "a.py", "module": "a", "error": {"@": "ParseError", "message": True}}, "bool is no str"),
    ({"@": "FileFacts", "path": "a.py", "module": "a", "functions": [{"@": "Call"}]}, "class not allowed in that field"),
    ({"@": "FileFacts", "module": "a"}, "missing field"),
    ({"@": "FileFacts", "path": "a.py", "module": "a", "lines": [1]}, "int in a list of str"),
    ({"@": "builtins.eval", "path": "a.py"}, "unknown class"),
    ({"path": "a.py", "module": "a"}, "no tag"),
])
def test_the_codec_validates_every_value(body, why):
    with pytest.raises(cachemod.Invalid):
        cachemod.from_json(json.dumps(body))


def _call_entry(**change):
    """A valid FileFacts entry holding one function with one call, with ``change``
    applied to the call's encoded fields."""
    facts = frontend.extract("a.py", b"def f(ledger):\n    ledger.append_record({'type': 'RUN_FAILED'})\n")
    data = json.loads(cachemod.to_json(facts))
    call = data["functions"][0]["calls"][0]
    assert call["@"] == "Call" and call["marker_runs"]
    call.update(change)
    return json.dumps(data)


@pytest.mark.parametrize("change, why", [
    ({"marker_runs": [["run", 3]]}, "an int among a run's tokens"),
    ({"marker_runs": ["run"]}, "a string where a run (a list) belongs"),
    ({"stmt_lines": [2]}, "a pair of one"),
    ({"stmt_lines": [2, "2"]}, "a string in a pair of ints"),
    ({"span": {"@": "Span", "line": True, "col": 0, "end_line": 2, "end_col": 5}}, "a bool is no int"),
    ({"span": {"@": "Call", "line": 1}}, "another class where a Span belongs"),
    ({"receiver_type": 3}, "an int in an Optional[str]"),
    ({"qualnames": "ledger.append_record"}, "a string where a tuple belongs"),
    ({"aug": 0}, "an int is no bool"),
    ({"extra": 1}, "an unknown field"),
])
def test_the_generated_decoders_check_what_they_inline(change, why):
    """The per-class decoders check the common shapes inline (cache.py); each check
    still rejects what the annotation does not admit, and the unchanged entry reads."""
    assert cachemod.from_json(_call_entry()).functions[0].calls[0].marker_runs
    with pytest.raises(cachemod.Invalid):
        cachemod.from_json(_call_entry(**change))


def test_a_missing_defaulted_field_reads_as_its_default():
    back = cachemod.from_json(_call_entry()).functions[0].calls[0]
    data = json.loads(_call_entry())
    encoded = data["functions"][0]["calls"][0]
    # the encoder leaves a field at its default out; one that is not stays
    assert "hands_on" not in encoded and "receiver_type" not in encoded and "aug" not in encoded
    assert encoded["callee"] == "ledger.append_record" and encoded["marker_runs"]
    del encoded["marker_runs"]  # a defaulted field an entry may lack
    call = cachemod.from_json(json.dumps(data)).functions[0].calls[0]
    assert call.hands_on == () and call.receiver_type is None and call.callee == back.callee
    assert call.marker_runs == () and back.marker_runs


def test_the_codec_round_trips_real_facts_without_per_field_code():
    """Every facts dataclass is on the allow-list, and the facts of real files (the
    package itself, the fixtures) come back equal: the codec follows the dataclass
    definitions, so a new field or class needs no codec change."""
    root = Path(__file__).resolve().parent.parent
    classes = cachemod.allowed_classes()
    assert {"FileFacts", "FunctionFacts", "Stmt", "Call", "Span", "Choice", "Repeat", "RaisePoint"} <= set(classes)
    files = sorted((root / "ordercheck").glob("*.py")) + sorted((root / "fixtures").rglob("*.py"))[:20]
    for path in files:
        facts = frontend.extract(path.name, path.read_bytes())
        back = cachemod.from_json(cachemod.to_json(facts))
        assert back == facts, path


def test_the_codec_follows_a_new_field(monkeypatch):
    """A field another engineer adds (with a default) is written and read back with
    no change to the codec."""
    import dataclasses

    new_span = dataclasses.make_dataclass(
        "Span", [(f.name, f.type, f) for f in dataclasses.fields(ir.Span)]
        + [("kind", "Optional[Tuple[str, ...]]", dataclasses.field(default=None))],
    )
    new_span.__module__ = ir.__name__  # (3.12's make_dataclass sets its caller's module, whatever the namespace says)
    monkeypatch.setattr(ir, "Span", new_span)
    monkeypatch.setattr(cachemod, "_CODEC", None)
    err = ir.ParseError("x")
    facts = ir.FileFacts(path="a.py", module="a", error=err)
    fn = ir.FunctionFacts("f", "f", None, new_span(1, 0, 1, 5, kind=("a", "b")), (), [], [])
    facts.functions.append(fn)
    back = cachemod.from_json(cachemod.to_json(facts))
    assert back.functions[0].span.kind == ("a", "b")
    monkeypatch.setattr(cachemod, "_CODEC", None)


def test_the_key_covers_the_engine_code_python_and_schema(tmp_path, monkeypatch):
    base = cachemod.key("a.py", "a", b"x = 1\n")
    rules = tmp_path / "OC999.toml"
    rules.write_text("id = 'OC999'\n")
    files = cachemod._engine_files() + [rules]
    monkeypatch.setattr(cachemod, "_engine_files", lambda: files)
    monkeypatch.setattr(cachemod, "_SALT", None)
    with_rule = cachemod.key("a.py", "a", b"x = 1\n")
    rules.write_text("id = 'OC998'\n")
    monkeypatch.setattr(cachemod, "_SALT", None)
    edited = cachemod.key("a.py", "a", b"x = 1\n")
    assert len({base, with_rule, edited}) == 3
    monkeypatch.setattr(cachemod.sys, "version", "9.9.9 (fake)")
    monkeypatch.setattr(cachemod, "_SALT", None)
    assert cachemod.key("a.py", "a", b"x = 1\n") != edited
    monkeypatch.setattr(cachemod, "_SALT", None)


def test_an_interrupted_cache_write_leaves_nothing(tmp_path, monkeypatch):
    cache = cachemod.Cache(tmp_path / "cache")
    facts = frontend.extract("a.py", INVERTED.encode())
    cache.put("ab" + "0" * 62, facts)  # the folder and its tag exist now

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(cachemod.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        cache.put("ab" + "1" * 62, facts)
    names = sorted(p.name for p in (tmp_path / "cache" / "facts" / "ab").iterdir())
    assert names == ["ab" + "0" * 62 + ".json"]


# --------------------------------------------------------------------------- hangs


def test_a_fifo_in_a_walked_folder_is_skipped_not_opened(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    os.mkfifo(folder / "y.py")
    write(folder, "a.py", INVERTED)
    r = oc(tmp_path, "--isolated", "--no-cache", "-j", "1", "f", isolate=True, timeout=30)
    assert r.code == 1 and r.codes() == [("f/a.py", 3, "OC101")], r


def test_paths_named_explicitly_that_are_not_regular_files_each_get_an_oc900(tmp_path):
    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / "y.py")
    r = oc(tmp_path, "--isolated", "--no-cache", "/dev/null", "fifo/y.py", isolate=True, timeout=30)
    assert r.code == 1, r
    assert [c[2] for c in r.codes()] == ["OC900", "OC900"], r
    assert "not a regular file (a FIFO)" in r.out and "not a regular file (a character device)" in r.out
    assert "2 files checked" not in r.out and "0 files" not in r.out


def test_a_file_swapped_for_a_fifo_after_the_walk_does_not_block(tmp_path):
    os.mkfifo(tmp_path / "y.py")
    started = time.perf_counter()
    with pytest.raises(ValueError, match="FIFO"):
        runner.read_source(tmp_path / "y.py")
    assert time.perf_counter() - started < 5


STARS = "*" * 50 + "x"


@pytest.mark.parametrize("table", [
    f'exclude = ["{STARS}"]\n',
    f'[per-file-ignores]\n"{STARS}" = ["OC101"]\n',
    f'exclude = ["**/{STARS}/**"]\n',
])
def test_a_pathological_glob_finishes(tmp_path, table):
    write(tmp_path, "ordercheck.toml", table)
    name = "a" * 60
    write(tmp_path, f"{'b' * 40}/{name}.py", INVERTED)
    r = oc(tmp_path, "--no-cache", "-q", ".", isolate=True, timeout=30)
    assert r.code == 1 and len(r.codes()) == 1, r


@pytest.mark.parametrize("pattern, path, expected", [
    ("*.py", "a.py", True),
    ("*.py", "src/a.py", False),  # path_matches also tries the name: see below
    ("src/*", "src/a.py", True),
    ("src/*", "src/sub/a.py", True),  # a matched folder matches what is under it
    ("src/*.py", "src/sub/a.py", False),
    ("**/gen_*.py", "gen_1.py", True),
    ("**/gen_*.py", "a/b/gen_1.py", True),
    ("a/**/b.py", "a/b.py", True),
    ("a/**/b.py", "a/x/y/b.py", True),
    ("a/**/b.py", "a/xb.py", False),
    ("a?c.py", "abc.py", True),
    ("a?c.py", "a/c.py", False),
    ("[ab]*.py", "b1.py", True),
    ("[!ab]*.py", "b1.py", False),
    ("[a-c]x", "bx", True),
    (STARS, "a" * 300, False),
    (STARS, "a" * 300 + "x", True),
])
def test_glob_semantics(pattern, path, expected):
    from ordercheck.config import compile_glob

    assert runner.glob_match(compile_glob(pattern), path) is expected


def test_a_glob_without_a_slash_matches_the_name_anywhere():
    assert runner.path_matches("src/deep/a.py", ["*.py"])
    assert not runner.path_matches("src/deep/a.py", ["src/*.py"])


def test_globs_match_in_linear_time():
    from ordercheck.config import compile_glob

    tokens = compile_glob("*a" * 200 + "b")
    started = time.perf_counter()
    assert not runner.glob_match(tokens, "a" * 2000)
    assert time.perf_counter() - started < 5


# --------------------------------------------------------------------------- internal errors


def _loop(tmp_path: Path) -> None:
    os.symlink("d.py", tmp_path / "d.py")
    write(tmp_path, "ok.py", INVERTED)


@pytest.mark.parametrize("args, config", [
    (("--format", "json", "."), ""),
    (("--format", "json", "d.py"), ""),
    ((".",), 'exclude = ["nothing"]\n'),
    ((".",), '[per-file-ignores]\n"d.py" = ["OC101"]\n'),
    (("--format", "sarif", "."), ""),
])
def test_a_symlink_to_itself_is_an_oc900(tmp_path, args, config):
    _loop(tmp_path)
    write(tmp_path, "ordercheck.toml", config or "select = ['ALL']\n")
    r = oc(tmp_path, "--no-cache", *args)
    assert r.code == 1, r
    assert "internal error" not in r.err
    assert "Too many levels of symbolic links" in r.out or "symbolic" in r.out, r


def test_a_symlink_to_itself_as_the_stdin_filename(tmp_path):
    _loop(tmp_path)
    r = oc(tmp_path, "--isolated", "--no-cache", "--format", "json", "--stdin-filename", "d.py", "-",
           stdin=INVERTED.encode())
    assert r.code == 1 and "internal error" not in r.err, r
    assert json.loads(r.out)["summary"]["by_code"] == {"OC101": 1}


@pytest.mark.parametrize("glob, why", [("[]", "empty character class"), ("[z-a]", "reversed range"), ("a[", "unclosed")])
@pytest.mark.parametrize("key", ["exclude", "per-file-ignores"])
def test_a_bad_glob_is_a_config_error_naming_file_and_key(tmp_path, glob, why, key):
    if key == "exclude":
        write(tmp_path, "ordercheck.toml", f"exclude = [{glob!r}]\n".replace("'", '"'))
    else:
        write(tmp_path, "ordercheck.toml", f'[per-file-ignores]\n"{glob}" = ["OC101"]\n')
    write(tmp_path, "ok.py", INVERTED)
    r = oc(tmp_path, "--no-cache", ".")
    assert r.code == 2, r
    assert len(r.err.strip().splitlines()) == 1
    assert "ordercheck.toml" in r.err and f"`{key}" in r.err and why in r.err, r


@pytest.mark.parametrize("content, why", [
    (b'exclude = ["\xff"]\n', "not valid UTF-8"),
    (b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply"),
    (b"x = " + b"{a = " * 5000 + b"}" * 5000 + b"\n", "nested too deeply"),
])
@pytest.mark.parametrize("where", ["config", "rule file"])
def test_a_hostile_config_or_rule_file_is_a_one_line_error(tmp_path, content, why, where):
    if where == "config":
        (tmp_path / "ordercheck.toml").write_bytes(content)
        named = "ordercheck.toml"
    else:
        write(tmp_path, "ordercheck.toml", 'rules = ["extra.toml"]\n')
        (tmp_path / "extra.toml").write_bytes(content)
        named = "extra.toml"
    write(tmp_path, "ok.py", INVERTED)
    r = oc(tmp_path, "--no-cache", ".")
    assert r.code == 2, r
    assert len(r.err.strip().splitlines()) == 1 and named in r.err and why in r.err, r


# --------------------------------------------------------------------------- silence


def test_an_unreadable_folder_is_an_oc900_not_silence(tmp_path, monkeypatch):
    """Root reads mode-000 folders, so the PermissionError is injected."""
    src = _project(tmp_path, 1)
    locked = src / "locked"
    write(locked, "hidden.py", INVERTED)
    real_scandir = os.scandir

    def scandir(path="."):
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    real_listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda p=".": scandir(p) and real_listdir(p))
    result = runner.run([src], settings_for(select=["OC101", "OC900"]))
    got = {(Path(f.path).name, f.code): f.message for f in result.findings}
    assert ("m0.py", "OC101") in got
    assert got[("locked", "OC900")].endswith("cannot read folder: Permission denied"), got
    assert ("hidden.py", "OC101") not in got


def test_an_unreadable_file_is_an_oc900(tmp_path, monkeypatch):
    """Root reads mode-000 files, so the PermissionError is injected."""
    src = _project(tmp_path, 2)
    real_open = os.open

    def fake_open(path, flags, *args, **kwargs):
        if str(path).endswith("m1.py"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)
    result = runner.run([src], settings_for(select=["OC101", "OC900"]))
    assert _codes(result) == [("m0.py", 3, "OC101"), ("m1.py", 1, "OC900")]
    assert result.findings[1].message.endswith("cannot read file: Permission denied")


# --------------------------------------------------------------------------- interrupts


def _interrupt(tmp_path: Path, jobs: str, wait_for_entries: bool) -> None:
    body = "".join(
        f"def f{i}(store, ledger, run):\n    if run.x:\n        store.save(run)\n    ledger.append_terminal(run.id)\n"
        for i in range(300)
    )
    src = tmp_path / "src"
    src.mkdir()
    for j in range(160):
        (src / f"m{j}.py").write_text(body)
    proc = subprocess.Popen(
        [sys.executable, "-m", "ordercheck", "--isolated", "-j", jobs, "src"],
        cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,
    )
    cache = tmp_path / ".ordercheck_cache" / "facts"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if not wait_for_entries or (cache.is_dir() and any(cache.rglob("*.json"))):
            break
        time.sleep(0.05)
    time.sleep(0.5)  # well inside the run: reading 160 files of 300 functions
    assert proc.poll() is None, "the run ended before it could be interrupted"
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole group
    try:
        out, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("ordercheck did not exit after SIGINT")
    took = time.monotonic() - sent
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and err.strip().endswith(b"interrupted"), err
    assert took < 1.0 + 1.0, took  # a second, plus slack for a shared machine
    assert left == [], f"stray workers: {left}"
    for entry in cache.rglob("*.json"):  # no half-written entry
        k = entry.stem
        assert cachemod.Cache._read(entry.read_bytes(), k) is not None, entry


def test_ctrl_c_with_workers_exits_130_at_once_with_no_stray_workers(tmp_path):
    _interrupt(tmp_path, "2", wait_for_entries=True)


def test_ctrl_c_without_workers_exits_130(tmp_path):
    _interrupt(tmp_path, "1", wait_for_entries=False)


# --------------------------------------------------------------------------- OC900 wording


@pytest.mark.parametrize("source, line, message", [
    ("try:\n    pass\nexcept:\n    pass\nexcept ValueError:\n    pass\n", 3, "SyntaxError: default 'except:' must be last"),
    ("from __future__ import braces\n", 1, "SyntaxError: not a chance"),
    ("x = 1\nreturn x\n", 2, "SyntaxError: 'return' outside function"),
    ("def f():\n    yield = 1\n", 2, "SyntaxError"),
    ("for a in b:\n" + "".join("    " * i + f"for a{i} in b:\n" for i in range(1, 21)) + "    " * 21 + "pass\n",
     None, "too many statically nested blocks"),
])
def test_oc900_says_what_cpython_says_where_it_says_it(source, line, message):
    facts = frontend.extract("bad.py", source.encode())
    if message == "too many statically nested blocks" and sys.version_info >= (3, 13):
        compile(source, "bad.py", "exec")  # 3.13 lifted the limit: CPython takes it, and so does the tool
        assert facts.error is None
        return
    assert facts.error is not None
    assert message in facts.error.message
    try:
        compile(source, "bad.py", "exec")
    except SyntaxError as exc:
        assert facts.error.line == exc.lineno
        assert exc.msg in facts.error.message
    else:  # pragma: no cover - each source is refused by CPython
        pytest.fail("CPython accepted it")
    if line is not None:
        assert facts.error.line == line


@pytest.mark.parametrize("source", [
    "def f(store, ledger, run):\n\x0c    store.save(run)\n    ledger.append_terminal(run.id)\n",
    "def f(store, ledger, run):\n    if run:\n  \x0c      store.save(run)\n\x0c    ledger.append_terminal(run.id)\n",
    "def f(store, ledger, run):\n    if run:\n \x0c       store.save(run)\n    else:\n        pass\n    ledger.append_terminal(run.id)\n",
])
def test_a_form_feed_in_the_indentation_is_still_checked(source):
    from checkutil import check_source

    compile(source, "ff.py", "exec")
    found = check_source(source, select=["OC101", "OC900"], dedent=False)
    assert [f.code for f in found] == ["OC101"], [(f.code, f.message) for f in found]
    lines = sourcemod.split_lines(source)  # str.splitlines splits on form feeds too
    span = found[0].span
    assert lines[span.line - 1][span.col:].startswith("ledger.append_terminal")


_READ_IN_WORKER = sources._read_in_worker


def _die_on_m1(job):
    """A worker that dies (as in a native crash or the OOM killer) on one file."""
    if job[0].endswith("m1.py"):
        os._exit(1)
    return _READ_IN_WORKER(job)


def test_a_worker_that_dies_does_not_hang_the_run(tmp_path, monkeypatch):
    """The workers are forked (Linux), so the patched worker function is theirs too;
    the dead worker's files are read in the main process."""
    src = _project(tmp_path, 6)
    monkeypatch.setattr(sources, "_read_in_worker", _die_on_m1)
    started = time.monotonic()
    result = runner.run([src], settings_for(select=["OC101"]), jobs=2)
    assert time.monotonic() - started < 60
    assert _codes(result) == [(f"m{i}.py", 3, "OC101") for i in range(6)]


@pytest.mark.parametrize("kind", ["fifo", "symlink", "folder"])
def test_a_planted_fifo_symlink_or_folder_in_place_of_an_entry_is_a_miss(tmp_path, kind):
    src = _project(tmp_path, 1)
    cache = tmp_path / "cache"
    s = settings_for(select=["OC101"])
    runner.run([src], s, cache_dir=cache)
    (entry,) = (cache / "facts").rglob("*.json")
    (run_entry,) = (cache / "runs").glob("*.json")  # the run cache's entry too
    (light_entry,) = (cache / "light").rglob("*.json")  # and the light facts
    (outline_entry,) = (cache / "outline").rglob("*.json")  # and the pre-pass's outline
    graph_entry, head_entry = sorted((cache / "graph").rglob("*.json"), key=lambda p: p.name.endswith(".head.json"))
    assert head_entry.name.endswith(".head.json")  # its remembered call graph and the graph's head
    (snapshot_entry,) = (cache / "snapshot").rglob("*.json")  # and the stat snapshot
    for i, e in enumerate((entry, run_entry, light_entry, outline_entry, graph_entry, head_entry, snapshot_entry)):
        good = tmp_path / f"elsewhere{i}.json"
        good.write_bytes(e.read_bytes())
        e.unlink()
        if kind == "fifo":
            os.mkfifo(e)
        elif kind == "symlink":
            e.symlink_to(good)
        else:
            e.mkdir()
    started = time.monotonic()
    again = runner.run([src], s, cache_dir=cache)
    assert time.monotonic() - started < 30
    assert again.cache_hits == 0 and _codes(again) == [("m0.py", 3, "OC101")]


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_a_closed_stdout_is_no_internal_error(tmp_path, fmt):
    """`ordercheck src >&-` (a daemon or cron job without a standard output): the
    run still ends with its exit status, not "internal error" and 2."""
    import ordercheck

    write(tmp_path, "bad.py", INVERTED)
    done = subprocess.run(
        ["bash", "-c", f'"$0" -m ordercheck --no-cache --format {fmt} bad.py >&-', sys.executable],
        cwd=tmp_path, stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=str(Path(ordercheck.__file__).resolve().parents[1])))
    assert done.returncode == 1, done.stderr
    assert b"internal error" not in done.stderr
