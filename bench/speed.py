"""Speed and memory of ordercheck against plain libcst parsing (docs/performance.md).

    python bench/speed.py DIR [DIR ...]

For each folder of Python code: the seconds and peak memory of (1) a process that
only parses every file with ``libcst.parse_module`` — the floor any libcst linter
stands on — (2) ``ordercheck`` cold, one process, no cache, (3) cold with the
process pool, (4) warm (every file from the cache). Figures are whole processes,
measured with ``resource.getrusage`` of the children; run it on a quiet machine and
quote medians of several runs (``--runs``).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PARSE_ONLY = r"""
import sys, pathlib, libcst
skip = {".git", ".venv", "venv", "__pycache__", "build", "dist", ".tox", "node_modules"}
n = 0
for root in sys.argv[1:]:
    for p in sorted(pathlib.Path(root).rglob("*.py")):
        if skip & set(p.parts):
            continue
        try:
            libcst.parse_module(p.read_bytes())
            n += 1
        except Exception:
            pass
print(n, "files parsed")
"""


def measure(cmd, runs: int):
    walls, peaks = [], []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        peaks.append(after.ru_maxrss / 1024)  # the largest child so far, MiB
    return statistics.median(walls), max(peaks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    oc = [sys.executable, "-m", "ordercheck", "--isolated", "--statistics", "--exit-zero"]
    cache = Path(tempfile.mkdtemp(prefix="ordercheck-bench-"))
    try:
        size = sum(p.stat().st_size for d in args.dirs for p in Path(d).rglob("*.py"))
        print(f"{len(args.dirs)} folder(s), {size / 1e6:.1f} MB of Python, median of {args.runs} runs")
        rows = [
            ("libcst parse only", [sys.executable, "-c", PARSE_ONLY, *args.dirs]),
            ("ordercheck cold, -j1", oc + ["--no-cache", "-j", "1", *args.dirs]),
            (f"ordercheck cold, -j{args.jobs}", oc + ["--no-cache", "-j", str(args.jobs), *args.dirs]),
        ]
        for name, cmd in rows:
            wall, peak = measure(cmd, args.runs)
            print(f"  {name:28} {wall:8.2f} s   peak {peak:8.0f} MiB")
        warm = oc + ["--cache-dir", str(cache), "-j", str(args.jobs), *args.dirs]
        subprocess.run(warm, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fill the cache
        wall, peak = measure(warm, args.runs)
        print(f"  {'ordercheck warm (cache)':28} {wall:8.2f} s   peak {peak:8.0f} MiB")
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
