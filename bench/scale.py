"""Issue 9/10 scale check: synthetic functions of N statements, checked by the real
CLI, time and peak memory per size.

    python bench/scale.py                        # every shape at 1k, 10k, 100k statements
    python bench/scale.py --shape ifs --sizes 1000,10000
    python bench/scale.py --write DIR            # only write the files (for profiling)

Shapes (every one full of events under the default vocabulary, so the contracts have
work: `store.save`, `ledger.append_event`, `ledger.append_terminal`):

* ``ifs``: one function, sequential ``if``s, each guarding an append or a save
  (an append after an earlier save is an OC102 finding, so findings grow with N);
* ``loops``: one function, blocks of three nested loops around an append and a save;
* ``trys``: one function, a long chain of ``try``/``except``/``finally`` blocks;
* ``funcs``: one file of N/5 small functions of about 5 statements each.

Statements are counted as CPython's ``ast.stmt`` nodes (an ``if`` and its body line
are two). Prints one row per (shape, N): seconds, microseconds per statement, peak
RSS of the ordercheck process, findings. CPU seconds (user + system of the
ordercheck process) are the figure to compare on a shared machine; each row includes
the fixed start-up cost (about 1 s: imports, rules, vocabulary), measured first on a
file of one function of two events and subtracted in the "net" column. Not a unit test (minutes at 100k); the
size-independent checks are in tests/test_scale.py.
"""
from __future__ import annotations

import argparse
import ast
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List

HEAD = "def big(store, ledger, run, xs, ys):\n"


def gen_ifs(n: int) -> str:
    # 2 statements per block; every 5th block saves, the others append
    out = [HEAD]
    for i in range((n + 1) // 2):
        if i % 5 == 0:
            out.append(f"    if run.flag_{i}:\n        store.save(run)\n")
        else:
            out.append(f"    if run.flag_{i}:\n        ledger.append_event(run.id, {i})\n")
    return "".join(out)


def gen_loops(n: int) -> str:
    # 6 statements per block: for / for / while / append / save / assignment
    out = [HEAD]
    for i in range(max(1, n // 6)):
        out.append(
            f"    for a{i} in xs:\n"
            f"        for b{i} in ys:\n"
            f"            while run.more_{i}:\n"
            f"                ledger.append_event(a{i}, b{i})\n"
            f"                store.save(run)\n"
            f"        run.n = {i}\n"
        )
    return "".join(out)


def gen_trys(n: int) -> str:
    # 8 statements per block: try / append / save / except / log / except / raise / finally-body
    out = [HEAD]
    for i in range(max(1, n // 8)):
        out.append(
            f"    try:\n"
            f"        ledger.append_event(run.id, {i})\n"
            f"        store.save(run)\n"
            f"    except KeyError:\n"
            f"        log.warning('k {i}')\n"
            f"    except ValueError:\n"
            f"        raise\n"
            f"    finally:\n"
            f"        run.done = {i}\n"
        )
    return "".join(out)


def gen_funcs(n: int) -> str:
    # 5 statements per function (the def, four in the body); every 7th inverts
    out = []
    for i in range(max(1, n // 5)):
        first, second = ("store.save(run)", f"ledger.append_event(run.id, {i})")
        if i % 7:
            first, second = second, first
        out.append(
            f"def step_{i}(store, ledger, run):\n"
            f"    run.n = {i}\n"
            f"    {first}\n"
            f"    {second}\n"
            f"    return run.id\n\n\n"
        )
    return "".join(out)


SHAPES: Dict[str, Callable[[int], str]] = {"ifs": gen_ifs, "loops": gen_loops, "trys": gen_trys, "funcs": gen_funcs}


def statements(source: str) -> int:
    return sum(isinstance(node, ast.stmt) for node in ast.walk(ast.parse(source)))


def run_one(path: Path, extra: List[str]) -> Dict[str, float]:
    cmd = [sys.executable, "-m", "ordercheck", "--isolated", "--no-cache", "-j1", "-q", "--exit-zero", *extra, str(path)]
    t = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent,
                       env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    wall = time.perf_counter() - t
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak, cpu = usage.ru_maxrss, usage.ru_utime + usage.ru_stime
    if r.returncode not in (0, 1):
        sys.exit(f"ordercheck exited {r.returncode}: {r.stderr[-2000:]}")
    # ru_maxrss of children is the max over every child so far: run sizes ascending
    return {"wall": wall, "cpu": cpu, "peak": max(peak, before) / 1024, "findings": len(r.stdout.splitlines()), "rc": r.returncode}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", default="ifs,loops,trys,funcs")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--write", type=Path, help="only write the files into this folder")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = args.shape.split(",")
    if args.write:
        args.write.mkdir(parents=True, exist_ok=True)
        for shape in shapes:
            for n in sizes:
                (args.write / f"{shape}_{n}.py").write_text(SHAPES[shape](n))
        return
    # the fixed start-up (imports, rules, vocabulary) of the same command on a file of
    # one function: subtracted, it leaves what the statements cost (the "net" column),
    # which is what the "time per statement within 2x" is about
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "start_up.py"
        # (with events, so that libcst and networkx are imported and every stage runs)
        empty.write_text("def f(store, ledger, run):\n    store.save(run)\n    ledger.append_event(run)\n")
        runs = [subprocess.run([sys.executable, __file__, "--_one", str(empty)], capture_output=True, text=True)
                for _ in range(3)]
        base = sorted(float(r.stdout.split()[1]) for r in runs)[1]
    print(f"start-up (a function of two events, median of 3): {base:.2f} s of CPU")
    print("| shape | N (statements) | lines | wall s | CPU s | CPU µs/statement | net CPU µs/statement | peak RSS MiB | findings |")
    print("|---|---|---|---|---|---|---|---|---|")
    for shape in shapes:
        for n in sizes:
            with tempfile.TemporaryDirectory() as tmp:
                src = SHAPES[shape](n)
                path = Path(tmp) / f"{shape}_{n}.py"
                path.write_text(src)
                count = statements(src)
                # a fresh interpreter per row, so the peak is this row's own
                cmd = [sys.executable, __file__, "--_one", str(path)]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode:
                    print(r.stderr[-2000:], file=sys.stderr)
                    continue
                wall, cpu, peak, findings = r.stdout.split()
                print(f"| {shape} | {count} | {src.count(chr(10))} | {float(wall):.1f} | {float(cpu):.1f} | "
                      f"{float(cpu) / count * 1e6:.0f} | {max(0.0, float(cpu) - base) / count * 1e6:.0f} | "
                      f"{float(peak):.0f} | {findings} |", flush=True)


def _one(path: str) -> None:
    m = run_one(Path(path), [])
    print(m["wall"], m["cpu"], m["peak"], m["findings"])


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--_one":
        _one(sys.argv[2])
    else:
        main()
