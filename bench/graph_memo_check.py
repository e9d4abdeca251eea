#!/usr/bin/env python3
"""The remembered call graph loses nothing on real code: after each edit, a run with
the cache finds what a run without any cache finds.

    python bench/graph_memo_check.py [--cache-dir D] [--only NAME] [--edits N] [--seed S]

For every package of ``bench/corpus.toml`` (as ``bench/realworld.py`` downloads and
unpacks it), copies its sources to a temporary folder and, with the package's
``bench/configs`` file, runs ``ordercheck --format json`` once with a cache folder.
Then it edits the copy N times, the way a developer does, and after each edit runs
with the cache (the graph memo, ``memos.GraphMemo``, answers for the files that did
not change) and with ``--no-cache``, and compares the findings (path, code, line,
column, message). The edits cycle through:

* a call statement on a line that has a finding, replaced by ``pass`` (same line
  count: the finding goes, nothing else moves);
* a call statement of some function, replaced by ``pass`` (the file's exports stay
  the same: the other files keep their rows);
* a new function appended to some file (its exports change: every file is
  resolved again).

Prints one row per edit with both wall times; exits 1 when any run differs.
``tests/test_graph_memo.py`` checks the same on small projects.
"""
from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import prepass_check  # noqa: E402  (the corpus's packages; findings of one command-line run)


def call_lines(path: Path) -> list:
    """Lines holding a whole call statement inside a function, on one line."""
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return []
    out = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if (isinstance(node, ast.Expr) and isinstance(node.value, (ast.Call, ast.Await))
                        and node.lineno == node.end_lineno):
                    out.append(node.lineno)
    return sorted(set(out))


def replace_line(path: Path, line: int) -> None:
    lines = path.read_text().splitlines(keepends=True)
    text = lines[line - 1]
    indent = text[: len(text) - len(text.lstrip())]
    lines[line - 1] = f"{indent}pass\n"
    path.write_text("".join(lines))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache-dir", type=Path, default=Path("~/.cache/ordercheck-bench"))
    ap.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parent / "corpus.toml")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--edits", type=int, default=3)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    cmd = [sys.executable, "-m", "ordercheck"]
    rnd = random.Random(args.seed)
    bad = 0
    print(f"{'package':32} {'edit':56} {'findings':>8} {'cached s':>9} {'cold s':>7}  same")
    for pkg, src in prepass_check.packages(args.corpus, args.cache_dir, args.only):
        config = (args.corpus.parent / pkg["config"]).resolve() if pkg.get("config") else None
        work = Path(tempfile.mkdtemp(prefix="ordercheck-graph-"))
        try:
            root = work / src.name
            shutil.copytree(src, root, ignore=shutil.ignore_patterns(".done"))
            targets = [root / p for p in pkg["paths"]] or [root]
            memo = work / "cache"
            cold, _ = prepass_check.findings(cmd, targets, config, True, args.jobs)
            files = sorted(p for t in targets for p in (t.rglob("*.py") if t.is_dir() else [t]))
            # fill the cache (findings as cold)
            first, _ = prepass_check.findings(cmd, targets, config, True, args.jobs, memo)
            if first != cold:
                print(f"{pkg['name']:32} {'(first cached run)':56} differs")
                bad += 1
            for i in range(args.edits):
                kind = i % 3
                if kind == 0 and cold:
                    path_text, _, line, *_ = sorted(cold)[rnd.randrange(len(cold))]
                    path = Path(os.path.normpath(Path.cwd() / path_text))
                    if line not in call_lines(path):
                        candidates = call_lines(path)
                        if not candidates:
                            continue
                        line = min(candidates, key=lambda n: abs(n - line))
                    replace_line(path, line)
                    what = f"pass at {path.relative_to(work)}:{line}"
                elif kind in (0, 1):
                    path = rnd.choice([p for p in files if call_lines(p)])
                    line = rnd.choice(call_lines(path))
                    replace_line(path, line)
                    what = f"pass at {path.relative_to(work)}:{line}"
                else:
                    path = rnd.choice(files)
                    with path.open("a") as fh:
                        fh.write(f"\n\ndef _ordercheck_added_{i}(store, run):\n    store.save(run)\n")
                    what = f"new function in {path.relative_to(work)}"
                t0 = time.perf_counter()
                got, _ = prepass_check.findings(cmd, targets, config, True, args.jobs, memo)
                t_cached = time.perf_counter() - t0
                cold, t_cold = prepass_check.findings(cmd, targets, config, True, args.jobs)
                same = got == cold
                bad += not same
                print(f"{pkg['name']:32} {what[-56:]:56} {len(cold):>8} {t_cached:>9.1f} {t_cold:>7.1f}  "
                      f"{'yes' if same else 'NO'}")
                for row in sorted(cold - got):
                    print(f"    missing with the cache: {row}")
                for row in sorted(got - cold):
                    print(f"    only with the cache: {row}")
                cold = got if same else cold
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
