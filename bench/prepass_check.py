#!/usr/bin/env python3
"""The outline pre-pass loses nothing: the same findings with it on and forced off.

    python bench/prepass_check.py [--cache-dir D] [--only NAME] [--jobs N]

For every package of ``bench/corpus.toml`` (downloaded and unpacked as
``bench/realworld.py`` does, into the same cache folder), runs the command line
``ordercheck --no-cache --format json`` twice per configuration — default
vocabulary (``--isolated``) and the package's ``bench/configs`` file — once with the
pre-pass (the default) and once with ``ORDERCHECK_PREPASS=0``, and compares the
findings (path, code, line, column, message). Prints one row per run with both wall
times; exits 1 when any run differs (listing what differs) or fails.

The unit tests check the same on every fixture and rule example
(``tests/test_outline.py``); this is the check on real code, run by hand
(docs/performance.md, "The outline pre-pass").
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realworld  # noqa: E402  (the corpus, its download and unpacking)


def findings(cmd: list, targets: list, config, prepass: bool, jobs: int, cache_dir=None) -> tuple:
    """The findings of one run (a set of rows) and its wall time; ``cache_dir``: run
    with that cache folder instead of ``--no-cache``."""
    memo = ["--cache-dir", str(cache_dir)] if cache_dir is not None else ["--no-cache"]
    args = list(cmd) + memo + ["--format", "json", "--jobs", str(jobs)]
    args += ["--config", str(config)] if config else ["--isolated"]
    args += [str(t) for t in targets]
    env = dict(os.environ, ORDERCHECK_PREPASS="1" if prepass else "0")
    t0 = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"ordercheck exited {proc.returncode}: {proc.stderr.strip()[-1000:]}")
    report = json.loads(proc.stdout)
    rows = set()
    for f in report.get("files", []):
        for d in f.get("diagnostics", []):
            start = d["range"]["start"]
            rows.add((f.get("path") or f.get("uri"), d.get("code"), start["line"], start["character"], d["message"]))
    return rows, seconds


def packages(corpus: Path, cache_dir: Path, only) -> list:
    """(package entry, its unpacked folder) of every package of ``corpus`` (or those
    named in ``only``), downloaded and unpacked under ``cache_dir`` when missing."""
    cache = cache_dir.expanduser().resolve()
    out = []
    for pkg in realworld.load_corpus(corpus):
        if only and pkg["name"] not in only:
            continue
        out.append((pkg, realworld.unpack(realworld.download(pkg, cache / "wheels"),
                                          cache / "src" / f"{realworld.norm_name(pkg['name'])}-{pkg['version']}")))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache-dir", type=Path, default=Path("~/.cache/ordercheck-bench"))
    ap.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parent / "corpus.toml")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    cmd = [sys.executable, "-m", "ordercheck"]
    bad = 0
    print(f"{'package':32} {'run':8} {'findings':>8} {'on s':>7} {'off s':>7}  same")
    for pkg, root in packages(args.corpus, args.cache_dir, args.only):
        targets = [root / p for p in pkg["paths"]] or [root]
        runs = [("default", None)]
        if pkg.get("config"):
            runs.append(("config", (args.corpus.parent / pkg["config"]).resolve()))
        for run, config in runs:
            try:
                on, t_on = findings(cmd, targets, config, True, args.jobs)
                off, t_off = findings(cmd, targets, config, False, args.jobs)
            except Exception as exc:  # noqa: BLE001 - report and go on
                print(f"{pkg['name']:32} {run:8} FAILED: {exc}")
                bad += 1
                continue
            same = on == off
            bad += not same
            print(f"{pkg['name'] + '==' + pkg['version']:32} {run:8} {len(off):>8} {t_on:>7.1f} {t_off:>7.1f}  {'yes' if same else 'NO'}")
            for row in sorted(off - on):
                print(f"    lost with the pre-pass: {row}")
            for row in sorted(on - off):
                print(f"    only with the pre-pass: {row}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
