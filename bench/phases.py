"""Where a run's time goes: the wall and CPU time of the main process's phases, and
the cyclic garbage collector's time in each phase and in each worker.

    cd PROJECT && python /path/to/bench/phases.py [ordercheck options] PATHS
    python bench/phases.py --no-cache --jobs 2 ~/.cache/ordercheck-bench/src/dbos-3.4.0

It runs ordercheck's command line in this process (the arguments are ordercheck's)
with timers around ``read_plan`` (the outline pass), ``focus_of``, ``read_wanted``
(the libcst pass), ``project_summaries`` and ``check_file``, and prints to stderr.
A phase that runs in the pool shows a wall time far above its CPU time: the main
process only unpickles there. The collector's time of a worker is written to
``$PHASES_DIR/gc.PID`` (default the system's temporary folder) every few
collections, since a pool's worker ends without running ``atexit``.
Nothing here is a test (docs/performance.md, "Session 26").
"""
from __future__ import annotations

import functools
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ordercheck import cli, runner  # noqa: E402

PHASES = ["read_plan", "focus_of", "read_wanted", "project_summaries", "check_file"]
MAIN = os.getpid()
OUT = Path(os.environ.get("PHASES_DIR", tempfile.gettempdir()))
current = ["start"]
times: dict = {}  # phase -> [wall, cpu, calls]
collector: dict = {}  # (process, phase) -> [seconds, collections]
_started = [0.0]


def _timed(name: str, f):
    @functools.wraps(f)
    def timed(*a, **k):
        outer, current[0] = current[0], name
        w, c = time.perf_counter(), time.process_time()
        try:
            return f(*a, **k)
        finally:
            t = times.setdefault(name, [0.0, 0.0, 0])
            t[0] += time.perf_counter() - w
            t[1] += time.process_time() - c
            t[2] += 1
            current[0] = outer
    return timed


def _on_collection(phase: str, info: dict) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
        return
    pid = os.getpid()
    key = ("main" if pid == MAIN else f"worker {pid}", current[0] if pid == MAIN else "pool")
    t = collector.setdefault(key, [0.0, 0])
    t[0] += time.perf_counter() - _started[0]
    t[1] += 1
    if pid != MAIN and t[1] % 5 == 0:
        (OUT / f"gc.{pid}").write_text(f"{t[0]:.3f} s in {t[1]} collections, CPU {time.process_time():.2f} s\n")


def main() -> None:
    for name in PHASES:
        setattr(runner, name, _timed(name, getattr(runner, name)))
    gc.callbacks.append(_on_collection)
    w0 = time.perf_counter()
    try:
        cli.main(sys.argv[1:])
    except SystemExit:
        pass
    print(f"whole run: wall {time.perf_counter() - w0:.2f} s, main process CPU {time.process_time():.2f} s",
          file=sys.stderr)
    for name in PHASES:
        if name in times:
            w, c, n = times[name]
            print(f"  {name:18s} wall {w:7.2f} s  cpu {c:7.2f} s  calls {n}", file=sys.stderr)
    for (proc, phase), (secs, n) in sorted(collector.items()):
        if proc == "main":
            print(f"  collector, main, {phase:18s} {secs:6.2f} s in {n} collections", file=sys.stderr)
    print(f"  (workers' collector times: {OUT}/gc.*)", file=sys.stderr)


if __name__ == "__main__":
    main()
