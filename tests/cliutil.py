"""Run the ordercheck command line from black-box tests and read what it printed.

``oc(cwd, *args)`` calls ``ordercheck.cli.main`` in process by default (fast);
``proc=True`` runs ``python -m ordercheck`` in a subprocess (where the point is the real
exit status, stderr or a pipe); ``isolate=True`` runs the subprocess in its own session
and kills it, with any workers it started, when ``timeout`` runs out.
"""
from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

FINDING_RE = re.compile(r"^(?P<path>\S.*?):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]+[0-9]+) (?P<msg>\S.*)$")

TRACEBACK = "Traceback (most recent call last)"


class Run:
    def __init__(self, code, out: str, err: str, seconds: float) -> None:
        self.code = code
        self.out = out
        self.err = err
        self.seconds = seconds

    def _matches(self):
        for line in self.out.splitlines():
            m = FINDING_RE.match(line)
            if m:
                yield m

    def findings(self):
        """Sorted (path, line, col, code) of every finding line on stdout."""
        return sorted((m["path"], int(m["line"]), int(m["col"]), m["code"]) for m in self._matches())

    def codes(self):
        """Sorted (path, line, code) of every finding line on stdout."""
        return sorted((m["path"], int(m["line"]), m["code"]) for m in self._matches())

    def line_codes(self):
        """Sorted (line, code) of every finding line on stdout (for one-file runs)."""
        return sorted((int(m["line"]), m["code"]) for m in self._matches())

    def __repr__(self) -> str:
        err = self.err if len(self.err) < 4000 else self.err[:1500] + "\n[...]\n" + self.err[-1500:]
        return f"<exit {self.code} after {self.seconds:.1f}s\n--- stdout\n{self.out}\n--- stderr\n{err}>"


def _in_process(cwd: Path, args, stdin: bytes):
    """``ordercheck.cli.main(argv)`` in this process, with its own stdin/stdout/stderr and
    cwd; the exit code is the one ``main`` passes to ``sys.exit``. An exception that
    escapes ``main`` is a traceback a user would see, so it fails the test."""
    from ordercheck import cli as cli_module

    out_b, err_b = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_b, encoding="utf-8", errors="replace", write_through=True)
    err = io.TextIOWrapper(err_b, encoding="utf-8", errors="replace", write_through=True)
    inp = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
    saved = sys.stdin, sys.stdout, sys.stderr, os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = inp, out, err
    os.chdir(cwd)
    code = "main() returned without sys.exit"
    try:
        cli_module.main(list(args))
    except SystemExit as exc:
        code = exc.code
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved[:3]
        os.chdir(saved[3])
    return code, out_b.getvalue(), err_b.getvalue()


def _subprocess(cwd: Path, args, stdin: bytes, timeout: float, isolate: bool):
    """``python -m ordercheck``. Without ``isolate`` this is ``subprocess.run`` (stdin
    inherited unless given; on timeout the child is killed and ``TimeoutExpired``
    raised). With ``isolate`` the child gets its own session and /dev/null as stdin
    unless given; on timeout its whole process group is killed and the test fails."""
    if stdin is not None:
        stdin_arg = subprocess.PIPE
    else:
        stdin_arg = subprocess.DEVNULL if isolate else None
    proc = subprocess.Popen(
        [sys.executable, "-m", "ordercheck", *args],
        cwd=cwd, stdin=stdin_arg, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=isolate,
    )
    with proc:
        try:
            out, err = proc.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            if not isolate:
                proc.kill()
                proc.communicate()
                raise
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.communicate()
            pytest.fail(f"ordercheck {' '.join(args)} did not finish within {timeout:.0f}s")
    return proc.returncode, out, err


def oc(cwd: Path, *args, stdin: bytes = None, proc: bool = False, timeout: float = 60,
       isolate: bool = False) -> Run:
    """Run ordercheck. ``proc=True`` runs ``python -m ordercheck`` in a subprocess (used
    where the point is the real exit status, stderr or a pipe); otherwise in process,
    which is ~10x faster and keeps the suite within its time budget. ``isolate=True``
    (implies a subprocess) runs it in its own session, killed with any workers it started
    when ``timeout`` runs out: a timeout is a test failure, not a hang."""
    args = [str(a) for a in args]
    started = time.perf_counter()
    if proc or isolate:
        code, out, err = _subprocess(cwd, args, stdin, timeout, isolate)
    else:
        code, out, err = _in_process(cwd, args, stdin)
    run = Run(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.perf_counter() - started)
    # semantics §Surfaces: no traceback reaches a user unless --verbose.
    assert TRACEBACK not in run.err, run
    assert TRACEBACK not in run.out, run
    return run


def write(root: Path, rel: str, text: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p
