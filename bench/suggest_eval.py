#!/usr/bin/env python3
"""How well does ``ordercheck suggest`` find the hand-written vocabulary?

    python bench/suggest_eval.py SRC_ROOT [--top 10]

SRC_ROOT holds the unpacked wheels of bench/corpus.toml as ``NAME-VERSION/`` folders
(what ``bench/realworld.py`` leaves in ``CACHE/src``; the wheel's name with ``-``,
e.g. ``apache_airflow_core-3.3.2``, is accepted too). For each package this runs the
real command line, ``ordercheck suggest --isolated --format json --limit N PATHS``
(the default vocabulary only, as a new user would), and compares its top N with the
save/append/terminal-append patterns of ``bench/configs/NAME.toml``:

* *found*: hand-written patterns that match the example call of some top-N suggestion
  (by callee text or qualified name, the vocabulary's own rule), of all of them;
* *rejected*: top-N suggestions that no hand-written pattern matches.

Standard library only; third-party code stays in SRC_ROOT.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import subprocess
import sys
import tomllib
from pathlib import Path

BENCH = Path(__file__).resolve().parent
CLASSES = ("save", "append", "terminal-append", "transaction")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("src_root", type=Path)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--show", action="store_true", help="print each suggestion and its verdict")
    args = ap.parse_args()
    corpus = tomllib.loads((BENCH / "corpus.toml").read_text())["package"]
    print(f"| package | hand-written patterns | found in top {args.top} | top-{args.top} suggestions not used |")
    print("|---|---|---|---|")
    for pkg in corpus:
        folder = next((p for p in (args.src_root / f"{pkg['name']}-{pkg['version']}",
                                   args.src_root / f"{pkg['name'].replace('-', '_')}-{pkg['version']}") if p.is_dir()), None)
        if folder is None:
            print(f"{pkg['name']}: not unpacked under {args.src_root}", file=sys.stderr)
            return 1
        config = tomllib.loads((BENCH / pkg["config"]).read_text())
        table = config.get("extend-events", {})
        table.update(config.get("events", {}))
        hand = [p for c in CLASSES for p in table.get(c, [])]
        paths = pkg.get("paths") or ["."]
        out = subprocess.run([sys.executable, "-m", "ordercheck", "suggest", "--isolated", "--format", "json",
                              "--limit", str(args.top), "--no-cache", *paths],
                             cwd=folder, capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stderr, file=sys.stderr)
            return 1
        top = json.loads(out.stdout)["suggestions"]
        found = {p for p in hand for s in top if any(fnmatch.fnmatchcase(n, p) for n in s["example"]["names"])}
        rejected = [s for s in top if not any(fnmatch.fnmatchcase(n, p) for p in hand for n in s["example"]["names"])]
        print(f"| {pkg['name']} | {len(hand)} | {len(found)} | {len(rejected)} of {len(top)} |")
        if args.show:
            for s in top:
                verdict = "rejected" if s in rejected else "used"
                print(f"    {s['class']:<12} {s['pattern']:<45} {s['functions']:>4} fn {s['meets']:>3} both  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
