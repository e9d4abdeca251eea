"""semantics §Never: "a 20 MB file is checked". Generates one (simple functions, one
inversion at the end) in a temporary folder and checks it with the real CLI.

    python bench/bigfile.py [--mb 20]

Prints the seconds, the peak memory and whether the inversion on the last line was
reported. Not a unit test: it takes minutes.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def write(path: Path, megabytes: float) -> int:
    chunk, size, i = [], 0, 0
    while size < megabytes * 1024 * 1024:
        s = (f"def step_{i}(store, ledger, run):\n    ledger.append_terminal(run.id, {i})\n"
             f"    store.save(run)\n    return run.id + {i}\n\n\n")
        chunk.append(s)
        size += len(s)
        i += 1
    tail = "def last(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run.id)\n"
    path.write_text("".join(chunk) + tail)
    return sum(s.count("\n") for s in chunk) + 3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.py"
        line = write(big, args.mb)
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "ordercheck", "--isolated", "--no-cache", "-q", str(big)],
                           capture_output=True, text=True)
        wall = time.perf_counter() - t
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        found = f":{line}:5: OC101" in r.stdout
        print(f"{big.stat().st_size / 1e6:.1f} MB, {line} lines: exit {r.returncode}, {wall:.1f} s, "
              f"peak {peak:.0f} MiB, last-line OC101 {'found' if found else 'MISSING'}")
        if r.stderr:
            print(r.stderr[:2000])


if __name__ == "__main__":
    main()
