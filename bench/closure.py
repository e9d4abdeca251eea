"""A one-file run in a project with no marker (no ``pyproject.toml``, no ``.git``, no
config beside it): the project is the import closure of the file named
(``project.import_closure``), found afresh each run. Held-out set 99 measured 70-104 s
for such a run on litellm with a warm cache (the whole run: 110-125 s): the module
lookups were redone below every import root each time a root was added.

    python bench/closure.py DIR --folders 50,100,200   # write, fill the cache, time
    python bench/closure.py DIR --folders 200 --write  # only write the tree

The tree: a regular package ``pkg`` of 200 modules and N plain folders (no
``__init__.py``) inside it, each holding one module that imports 40 of the package's
modules (each plain folder is an import root of its own). Prints, per N, the seconds
of the whole run that fills the cache and the median of three one-file runs after it.
For steadier figures, time the printed one-file command with ``farm-bench``.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def write_tree(root: Path, folders: int) -> Path:
    pkg = root / "pkg"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    for i in range(200):
        head = "".join(f"import pkg.m{(i * 7 + j) % 200}\n" for j in range(3))
        (pkg / f"m{i}.py").write_text(head + f"def f{i}(store, run):\n    store.save(run)\n")
    imports = "".join(f"import pkg.m{j}\nimport os.path\nimport json\n" for j in range(40))
    for d in range(folders):
        sub = pkg / f"plain{d}" / "deeper"
        sub.mkdir(parents=True, exist_ok=True)
        nxt = (d + 1) % folders
        (sub / f"tool{d}.py").write_text(
            imports + f"import pkg.plain{nxt}.deeper.tool{nxt}\n"
            "def g(store, ledger, run, rec):\n    store.save(run)\n    ledger.append(rec)\n")
    return sub / f"tool{folders - 1}.py"


def _timed(cmd, cwd: Path, env) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", type=Path, help="an empty scratch folder (emptied first)")
    ap.add_argument("--folders", default="50,100,200")
    ap.add_argument("--write", action="store_true", help="only write the tree")
    ap.add_argument("--engine", type=Path, default=HERE.parent,
                    help="the ordercheck source tree to run (default: this repository)")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=str(args.engine.resolve()))
    for n in [int(x) for x in args.folders.split(",")]:
        if args.dir.exists():
            shutil.rmtree(args.dir)
        one = write_tree(args.dir / "tree", n)
        if args.write:
            print(f"wrote {args.dir / 'tree'}; one file: {one.relative_to(args.dir)}")
            continue
        oc = [sys.executable, "-m", "ordercheck", "--jobs", "1", "--isolated", "-q",
              "--cache-dir", str(args.dir / "cache")]
        whole = _timed(oc + ["tree"], args.dir, env)
        ones = [_timed(oc + [str(one.relative_to(args.dir))], args.dir, env) for _ in range(3)]
        print(f"plain folders={n}: whole run (fills the cache) {whole:.2f} s, "
              f"one-file run {statistics.median(ones):.2f} s (median of 3)")
        print(f"  one-file command: cd {args.dir} && PYTHONPATH={env['PYTHONPATH']} {' '.join(oc)} "
              f"{one.relative_to(args.dir)}")


if __name__ == "__main__":
    main()
