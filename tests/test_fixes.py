"""Fixes (semantics §Surfaces): OC101/OC102's unsafe swap. Applied only with --fix --unsafe-fixes,
byte for byte elsewhere, comments travel with their statement; --fix alone says how
many unsafe fixes are available; --diff changes nothing and its output, applied,
equals what --fix writes; every case where no fix is offered offers none."""
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cliutil import oc

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _fix(tmp_path, source, *extra, name="m.py"):
    p = tmp_path / name
    p.write_bytes(source.encode("utf-8") if isinstance(source, str) else source)
    run = oc(tmp_path, "--no-cache", "--fix", "--unsafe-fixes", name, *extra)
    return run, p.read_bytes()


def _apply_patch(diff: bytes, cwd) -> None:
    """Apply a ``--diff`` with patch(1), or ``git apply`` where patch is missing."""
    if shutil.which("patch"):
        subprocess.run(["patch", "-p1", "-s"], input=diff, cwd=cwd, check=True)
    elif shutil.which("git"):  # pragma: no cover
        subprocess.run(["git", "apply", "-p1", "--unsafe-paths", "-"], input=diff, cwd=cwd, check=True)
    else:  # pragma: no cover
        pytest.fail("patch(1) or git is needed to apply the diff")


def _d(text):
    return textwrap.dedent(text)


def test_the_swap_fixes_the_finding_and_keeps_everything_else(tmp_path):
    src = _d('''\
        import os  # untouched


        class Runtime:
            def complete(self, run):
                run.status = "completed"    # odd   spacing kept
                # commit point
                self._store.save(run)  # the save
                # close the ledger
                self._ledger.append_terminal(run.id)  # the append
                return run
        ''')
    run, out = _fix(tmp_path, src)
    assert out.decode() == _d('''\
        import os  # untouched


        class Runtime:
            def complete(self, run):
                run.status = "completed"    # odd   spacing kept
                # close the ledger
                self._ledger.append_terminal(run.id)  # the append
                # commit point
                self._store.save(run)  # the save
                return run
        ''')
    assert run.code == 0 and run.findings() == [], run
    assert "applied 1 fix in 1 file" in run.err
    assert [p.name for p in tmp_path.iterdir()] == ["m.py"]  # atomic write left no temp file


def test_blank_lines_stay_in_place(tmp_path):
    src = "def f(store, ledger, run):\n    x = 1\n\n    store.save(run)\n    ledger.append(run.id)\n"
    _, out = _fix(tmp_path, src)
    assert out.decode() == "def f(store, ledger, run):\n    x = 1\n\n    ledger.append(run.id)\n    store.save(run)\n"


def test_fix_alone_applies_nothing_and_counts_the_unsafe_fixes(tmp_path):
    src = "def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run.id)\n"
    p = tmp_path / "m.py"
    p.write_text(src)
    run = oc(tmp_path, "--no-cache", "--fix", "m.py")
    assert p.read_text() == src
    assert "1 unsafe fix available" in run.err
    assert run.code == 1 and [c for _, _, c in run.codes()] == ["OC102"]


@pytest.mark.parametrize("src", [
    # decorators on the function
    '''\
    @retry(3)
    @trace
    def f(store, ledger, run):
        store.save(run)
        ledger.append_terminal(run.id, Status.FAILED)
    ''',
    # async / await
    '''\
    async def cancel(self, run):
        await self._store.save(run)
        await self._journal.append_event(RunCancelled(run.id))
    ''',
    # nested blocks
    '''\
    def f(self, runs):
        for run in runs:
            if run.done:
                try:
                    self._store.save(run)
                    self._ledger.append(run.id, "step")
                finally:
                    self._lock.release()
    ''',
    # the save binds a name the append does not read
    '''\
    def f(self, run):
        version = self._store.save(run)
        self._ledger.append(run.id, "step")
        return version
    ''',
    # module level
    '''\
    store.save(BOOT)
    ledger.append_terminal(BOOT.id)
    ''',
])
def test_fix_applies_and_the_finding_is_gone(tmp_path, src):
    src = _d(src)
    before = oc(tmp_path / ".." / tmp_path.name, "--no-cache", "--stdin-filename", "m.py", stdin=src.encode())
    assert {c for _, _, c in before.codes()} & {"OC101", "OC102"}, before
    run, out = _fix(tmp_path, src)
    assert out.decode() != src
    assert not {c for _, _, c in run.codes()} & {"OC101", "OC102"}, run
    # only two lines moved: the same multiset of lines
    assert sorted(out.decode().splitlines()) == sorted(src.splitlines())


def test_crlf_files_keep_crlf(tmp_path):
    src = b"def f(store, ledger, run):\r\n    store.save(run)  # s\r\n    ledger.append(run.id)\r\n    return 1\r\n"
    run, out = _fix(tmp_path, src)
    assert out == b"def f(store, ledger, run):\r\n    ledger.append(run.id)\r\n    store.save(run)  # s\r\n    return 1\r\n"


@pytest.mark.parametrize("src, want", [
    (b"def f(store, ledger, run):\r    store.save(run)\r    ledger.append(run.id)\r",
     b"def f(store, ledger, run):\r    ledger.append(run.id)\r    store.save(run)\r"),
    (b"def f(store, ledger, run):\r    store.save(run)  # s\r    ledger.append(run.id)\rx = 1\r\r",
     b"def f(store, ledger, run):\r    ledger.append(run.id)\r    store.save(run)  # s\rx = 1\r\r"),
])
def test_cr_only_files_keep_their_last_line_break(tmp_path, src, want):
    """(A review, session 41.) libcst's round trip of a file whose lines end in a lone
    CR drops its last one; the fix puts it back."""
    run, out = _fix(tmp_path, src)
    assert out == want


@pytest.mark.parametrize("src", [
    # then not directly after the save
    '''\
    def f(store, ledger, run):
        store.save(run)
        log("x")
        ledger.append(run.id)
    ''',
    # the append reads a name the save statement binds
    '''\
    def f(store, ledger, run):
        seq = store.save(run)
        ledger.append(run.id, seq)
    ''',
    # ... an attribute the save statement binds
    '''\
    def f(store, ledger, run):
        run.version = store.save(run)
        ledger.append(run)
    ''',
    # the then event is carried by a helper's summary
    '''\
    class R:
        def _record(self, run):
            self._ledger.append(run.id, "step")

        def f(self, run):
            self._store.save(run)
            self._record(run)
    ''',
    # the append is part of a larger statement, not a lone expression statement
    '''\
    def f(store, ledger, run):
        store.save(run)
        seq = ledger.append(run.id)
        return seq
    ''',
    '''\
    def f(store, ledger, run):
        store.save(run)
        ledger.append(run.id).wait()
    ''',
    # two statements on one line
    '''\
    def f(store, ledger, run):
        store.save(run); ledger.append(run.id)
    ''',
    # different blocks
    '''\
    def f(store, ledger, run, ok):
        store.save(run)
        if ok:
            ledger.append(run.id)
    ''',
    # the save is carried by a `with` item
    '''\
    def f(db, ledger, run):
        with db.transaction():
            run.x = 1
        ledger.append(run.id)
    ''',
])
def test_no_fix_is_offered(tmp_path, src):
    src = _d(src)
    p = tmp_path / "m.py"
    p.write_text(src)
    config = tmp_path / "ordercheck.toml"
    config.write_text('[extend-events]\nsave = ["*.transaction"]\n')
    before = oc(tmp_path, "--no-cache", "m.py")
    assert {c for _, _, c in before.codes()} & {"OC101", "OC102"}, before
    run = oc(tmp_path, "--no-cache", "--fix", "m.py")
    assert "unsafe fix" not in run.err
    run = oc(tmp_path, "--no-cache", "--fix", "--unsafe-fixes", "m.py")
    assert p.read_text() == src
    assert run.codes() == before.codes()


def test_diff_changes_nothing_and_applies_to_what_fix_writes(tmp_path):
    work = tmp_path / "runtime"
    shutil.copytree(FIXTURES / "runtime", work)
    original = {p.name: p.read_bytes() for p in work.glob("*.py")}
    before = oc(work, "--no-cache", ".")
    oc101_before = [(p, ln) for p, ln, c in before.codes() if c == "OC101"]
    diff = oc(work, "--no-cache", "--diff", "--unsafe-fixes", ".")
    assert diff.code == 1 and diff.out.startswith("--- a/runtime.py\n+++ b/runtime.py\n"), diff
    assert {p.name: p.read_bytes() for p in work.glob("*.py")} == original  # --diff changes nothing
    # apply the diff to a second copy with patch(1), or by hand when it is missing
    patched = tmp_path / "patched"
    shutil.copytree(FIXTURES / "runtime", patched)
    _apply_patch(diff.out.encode(), patched)
    fixed = oc(work, "--no-cache", "--fix", "--unsafe-fixes", ".")
    assert {p.name: p.read_bytes() for p in work.glob("*.py")} == {p.name: p.read_bytes() for p in patched.glob("*.py")}
    # the fixable OC101 sites (tick, complete) are gone; the others remain and are reported
    after = [(p, ln) for p, ln, c in fixed.codes() if c == "OC101"]
    assert len(after) == len(oc101_before) - 2, fixed
    text = (work / "runtime.py").read_text()
    assert text.index("self._ledger.append_terminal(Record(run.id, Status.COMPLETED") < text.index("self._finish(run)\n            return run")
    again = oc(work, "--no-cache", "--diff", "--unsafe-fixes", ".")
    assert again.code == 0 and again.out == ""  # nothing left to fix


def test_fix_is_refused_for_standard_input(tmp_path):
    run = oc(tmp_path, "--fix", "--unsafe-fixes", "--stdin-filename", "m.py", stdin=b"x = 1\n")
    assert run.code == 2 and "--fix" in run.err


def test_the_writers_of_fix_and_baseline_pass_oc301():
    pkg = Path(__file__).resolve().parent.parent / "ordercheck"
    mods = ["ordercheck/atomic.py", "ordercheck/baseline.py", "ordercheck/fixes.py", "ordercheck/cli.py"]
    run = oc(pkg.parent, "--no-cache", "--isolated", "--select", "OC301", *mods)
    assert run.code == 0, run


def test_diff_of_a_latin1_file_is_in_its_bytes_and_applies(tmp_path):
    """(Session 42, a review.) The diff was decoded and printed as UTF-8: its context
    line `# café` was not the file's, and patch(1) refused it."""
    import ordercheck

    src = b"# -*- coding: latin-1 -*-\ndef f(store, ledger, run):\n    store.save(run)  # caf\xe9\n    ledger.append(run.id)\n"
    (tmp_path / "l.py").write_bytes(src)
    done = subprocess.run([sys.executable, "-m", "ordercheck", "--no-cache", "--diff", "--unsafe-fixes", "l.py"],
                          cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(os.environ, PYTHONPATH=str(Path(ordercheck.__file__).resolve().parents[1])))
    assert done.returncode == 1 and b"\n     store.save(run)  # caf\xe9\n" in done.stdout, done
    assert (tmp_path / "l.py").read_bytes() == src
    _apply_patch(done.stdout, tmp_path)
    assert (tmp_path / "l.py").read_bytes() == src.replace(
        b"    store.save(run)  # caf\xe9\n    ledger.append(run.id)\n", b"    ledger.append(run.id)\n    store.save(run)  # caf\xe9\n")


@pytest.mark.parametrize("src, want", [
    # a form feed before a statement (libcst's round trip drops it)
    (b"def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run.id)\n\n\x0cdef g():\n\x0c    return 1\n",
     b"def f(store, ledger, run):\n    ledger.append(run.id)\n    store.save(run)\n\n\x0cdef g():\n\x0c    return 1\n"),
    # the file's last line has no line break: it moves up with one, the save's line ends the file without
    (b"def f(store, ledger, run):\n    store.save(run)  # s\n    # the record\n    ledger.append(run.id)",
     b"def f(store, ledger, run):\n    # the record\n    ledger.append(run.id)\n    store.save(run)  # s"),
    # a backslash continuation moves whole
    (b"def f(store, ledger, run):\n    store.save(run,\\\n               1)\n    ledger.append(run.id)\n",
     b"def f(store, ledger, run):\n    ledger.append(run.id)\n    store.save(run,\\\n               1)\n"),
])
def test_every_byte_outside_the_pair_is_kept(tmp_path, src, want):
    """(Session 42, a review.) The fix regenerated the module with libcst, which drops a
    form feed before a statement anywhere in the file; it now moves the file's lines."""
    run, out = _fix(tmp_path, src)
    assert out == want, run


def test_quiet_says_nothing_of_fixes(tmp_path):
    src = "def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run.id)\n"
    (tmp_path / "m.py").write_text(src)
    offered = oc(tmp_path, "--no-cache", "--fix", "-q", "m.py")
    assert offered.code == 1 and "fix" not in offered.err, offered
    applied = oc(tmp_path, "--no-cache", "--fix", "--unsafe-fixes", "-q", "m.py")
    assert applied.code == 0 and applied.err == "", applied
    assert (tmp_path / "m.py").read_text() != src


def test_a_diff_names_a_file_outside_the_working_folder_by_its_absolute_path(tmp_path):
    (tmp_path / "proj").mkdir()
    (tmp_path / "cwd").mkdir()
    (tmp_path / "proj" / "m.py").write_text("def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run.id)\n")
    run = oc(tmp_path / "cwd", "--no-cache", "--diff", "--unsafe-fixes", "../proj/m.py")
    where = str((tmp_path / "proj" / "m.py").resolve())
    assert run.out.startswith(f"--- {where}\n+++ {where}\n"), run


def test_a_bom_stays_first_when_the_first_line_moves(tmp_path):
    """(Session 42, a review.) The BOM belonged to the first line, which the swap
    moved: the fixed file had U+FEFF on line 2 and no longer compiled."""
    _, out = _fix(tmp_path, b"\xef\xbb\xbfstore.save(run)\nledger.append(run)\n")
    assert out == b"\xef\xbb\xbfledger.append(run)\nstore.save(run)\n"


def test_a_bom_is_kept(tmp_path):
    src = b"\xef\xbb\xbfdef f(store, ledger, run):\n    store.save(run)\n    ledger.append(run.id)\n"
    _, out = _fix(tmp_path, src)
    assert out == b"\xef\xbb\xbfdef f(store, ledger, run):\n    ledger.append(run.id)\n    store.save(run)\n"


def test_a_fix_through_a_symlink_is_written_where_it_points(tmp_path):
    """(A session-38 probe.) `--fix` on `a.py -> real/a.py` replaced the link with a
    fixed copy and left the real file unfixed, while the run said all was well."""
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "a.py"
    real.write_text('def step(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id, "COMPLETED")\n')
    (tmp_path / "a.py").symlink_to(Path("real") / "a.py")
    assert oc(tmp_path, "--no-cache", "--fix", "--unsafe-fixes", "a.py").code == 0
    assert (tmp_path / "a.py").is_symlink()
    assert real.read_text().splitlines()[1] == '    ledger.append_terminal(run.id, "COMPLETED")'
    assert oc(tmp_path, "--no-cache", ".").code == 0


def test_a_baseline_written_through_a_symlink_keeps_the_link(tmp_path):
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "base.json").write_text("{}")
    (tmp_path / "base.json").symlink_to(Path("shared") / "base.json")
    (tmp_path / "m.py").write_text("def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run.id)\n")
    oc(tmp_path, "--no-cache", "--write-baseline", "base.json", "m.py")
    assert (tmp_path / "base.json").is_symlink()
    assert "OC102" in (tmp_path / "shared" / "base.json").read_text()


def test_a_user_file_that_is_no_regular_file_is_written_in_place_not_replaced(tmp_path):
    """(A second review of session 38.) Through a link to a device or a FIFO (as root:
    `/dev/null`), the temporary file was renamed over the target; it is written in
    place, as `open(path, "w")` writes it."""
    import os
    import stat
    import threading

    from ordercheck.atomic import atomic_write

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "link.json").symlink_to(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic_write(tmp_path / "link.json", b"{}\n")
    reader.join(10)
    assert got == [b"{}\n"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert (tmp_path / "link.json").is_symlink()


def test_a_fix_that_cannot_be_written_is_a_usage_error(tmp_path, monkeypatch):
    from ordercheck import cli

    def refuse(path, data, private=False):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(cli, "atomic_write", refuse)
    (tmp_path / "m.py").write_text("def f(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n")
    r = oc(tmp_path, "--no-cache", "--fix", "--unsafe-fixes", "m.py")
    assert r.code == 2 and "cannot write the fixed file" in r.err and "Permission denied" in r.err, r


def test_a_fix_that_fails_midway_says_which_files_it_fixed(tmp_path, monkeypatch):
    """(A third review of session 38.) `a.py` fixed on disk, `b.py` not writable: the
    run said only that `b.py` could not be written."""
    from ordercheck import cli

    real = cli.atomic_write

    def second_fails(path, data, private=False):
        if Path(path).name == "b.py":
            raise PermissionError(13, "Permission denied", str(path))
        real(path, data, private)

    monkeypatch.setattr(cli, "atomic_write", second_fails)
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text("def f(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n")
    r = oc(tmp_path, "--no-cache", "--fix", "--unsafe-fixes", "a.py", "b.py")
    assert r.code == 2 and "fixed before the error: a.py" in r.err and "b.py" in r.err, r
    assert (tmp_path / "a.py").read_text().splitlines()[1] == "    ledger.append_terminal(run.id)"


LONG = '''\
import functools

# the store's helper
def helper(x):
    return x


@functools.lru_cache
class Runner:
    def done(self, store, ledger, run):
        store.save(run)  # the save
        # the record
        ledger.append(run.id)

    def other(self, run):
        return run


def g(store, ledger, run):
    if run:
        store.save(run)
        ledger.append(run.id)
    return 1


store.save(RUN)
ledger.append(RUN.id)
'''


@pytest.mark.parametrize("whole", [10_000, 3])
def test_a_long_file_is_parsed_only_where_its_fixes_are(tmp_path, monkeypatch, whole):
    """(Session 42, a review: one libcst tree of a 5.6 MB file took 4.2 GB.) Past
    ``WHOLE_FILE_LINES`` lines, libcst parses only the top-level statements that hold
    a pair, from the line after the statement before them; the fixes are the same."""
    from ordercheck import fixes

    monkeypatch.setattr(fixes, "WHOLE_FILE_LINES", whole)
    parsed = []
    init = fixes.Planner.__init__

    def spy(self, source, text=None, offset=0):
        parsed.append(len(source if text is None else text))
        init(self, source, text, offset)

    monkeypatch.setattr(fixes.Planner, "__init__", spy)
    run, out = _fix(tmp_path, LONG)
    assert out.decode() == LONG.replace(
        "        store.save(run)  # the save\n        # the record\n        ledger.append(run.id)\n",
        "        # the record\n        ledger.append(run.id)\n        store.save(run)  # the save\n").replace(
        "        store.save(run)\n        ledger.append(run.id)\n", "        ledger.append(run.id)\n        store.save(run)\n").replace(
        "store.save(RUN)\nledger.append(RUN.id)\n", "ledger.append(RUN.id)\nstore.save(RUN)\n"), run
    assert run.codes() == []
    if whole < 10:
        assert parsed and max(parsed) < len(LONG) * 3 // 4, parsed
    else:
        assert parsed and max(parsed) == len(LONG.encode())


def test_a_diff_of_a_name_with_a_space_applies(tmp_path):
    """As git does, a tab ends a header's name that holds a space (GNU patch read the
    rest as a date and found no file)."""
    src = "def f(store, ledger, run):\n    store.save(run)\n    ledger.append(run)\n"
    (tmp_path / "a b.py").write_text(src)
    run = oc(tmp_path, "--no-cache", "--diff", "--unsafe-fixes", "a b.py")
    assert run.out.startswith("--- a/a b.py\t\n+++ b/a b.py\t\n"), run
    _apply_patch(run.out.encode(), tmp_path)
    assert (tmp_path / "a b.py").read_text() == src.replace(
        "    store.save(run)\n    ledger.append(run)\n", "    ledger.append(run)\n    store.save(run)\n")


def _filler(n):
    return "".join(f"def filler_{i}():\n    return {i}\n\n\n" for i in range(n))


def test_a_long_files_module_level_pair_keeps_the_saves_comments(tmp_path, monkeypatch):
    """(A review, session 42.) Parsed from the line after the statement before it, the
    save was the part's first statement, and libcst filed its comments under the
    module's header: they stayed behind."""
    from ordercheck import fixes

    monkeypatch.setattr(fixes, "WHOLE_FILE_LINES", 20)
    src = _filler(12) + "# commit point\nstore.save(RUN)\n# close the ledger\nledger.append(RUN.id)\n"
    _, out = _fix(tmp_path, src)
    assert out.decode().endswith("# close the ledger\nledger.append(RUN.id)\n# commit point\nstore.save(RUN)\n")


def test_a_long_files_pair_on_a_continued_line_gets_no_fix_as_a_short_ones(tmp_path, monkeypatch):
    from ordercheck import fixes

    src = _filler(12) + "x = 1; \\\nstore.save(RUN)\nledger.append(RUN.id)\n"
    for whole in (10**9, 20):
        monkeypatch.setattr(fixes, "WHOLE_FILE_LINES", whole)
        _, out = _fix(tmp_path, src)
        assert out.decode() == src, whole


def test_a_long_files_pair_far_apart_is_not_parsed(tmp_path, monkeypatch):
    """(A review, session 42.) A save on line 1 and an append at the end of a long file
    cannot be adjacent; the planner handed libcst the whole file for nothing."""
    from ordercheck import fixes

    monkeypatch.setattr(fixes, "WHOLE_FILE_LINES", 20)
    parsed = []
    monkeypatch.setattr(fixes.Planner, "__init__", lambda self, *a, **k: parsed.append(a))
    src = "store.save(RUN)\n" + _filler(12) + "ledger.append(RUN.id)\n"
    run, out = _fix(tmp_path, src)
    assert out.decode() == src and parsed == [] and run.codes(), run


def test_an_empty_diff_with_findings_left_says_so(tmp_path):
    # (held-out set 70) `--diff --unsafe-fixes` printed nothing and exited 0 while
    # findings stood that no fix changes: an empty diff read as "nothing found"
    (tmp_path / "a.py").write_text(
        'import os\n\ndef f(tmp, path):\n    with open(tmp, "w") as fh:\n        fh.write("x")\n    os.replace(tmp, path)\n')
    r = oc(tmp_path, "--isolated", "--no-cache", "--diff", "--unsafe-fixes", "a.py")
    assert r.code == 0 and r.out == "", r
    assert "nothing to fix: the 1 finding left has no automatic fix" in r.err, r.err
    quiet = oc(tmp_path, "--isolated", "--no-cache", "--diff", "--unsafe-fixes", "-q", "a.py")
    assert quiet.err == "" and quiet.out == "", quiet
