"""The speed and memory benchmark: ordercheck against plain parsing, side by side.

    python bench/run.py                    # the seven-package corpus, 3 alternated rounds
    python bench/run.py --corpus small     # dbos + temporalio only
    python bench/run.py --rounds 5 --scale # more rounds, plus the synthetic scale check

It downloads the pinned wheels below into a cache folder outside the repository
(``--cache``, default ``~/.cache/ordercheck-bench``; their code is never committed),
unpacks their ``.py`` files, and times whole processes, alternating the commands round
by round so that drift of a shared machine hits every command alike:

* ``libcst.parse_module`` of every file, one process (the floor of any libcst linter);
* ``ast.parse`` of every file, one process;
* ``ordercheck --no-cache --jobs 2`` (cold), and the same with ``ORDERCHECK_PREPASS=0``
  (cold without the outline pre-pass: every file through libcst);
* ``ordercheck --jobs 2`` with a filled cache (warm, nothing changed);
* the same after touching one file (one line appended to a mid-sized file);
* ``--stdin-filename`` on a ~2,000-line file of the warm project (an editor's buffer).

Each row prints the median wall time, the median peak RSS of the largest process, and
the ratio to the libcst parse taken pair by pair within a round (the median of those
ratios). ``--scale`` adds synthetic functions of 1k, 10k and 100k statements
(sequential ``if``s, nested loops, long ``try`` chains) and prints time per statement.
Results belong in docs/performance.md with the exact command. Nothing here is a test.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

CORPUS = {
    "apache-airflow-core": "3.3.2",
    "celery": "5.7.0",
    "dagster": "1.13.29",
    "dbos": "3.4.0",
    "django": "5.2.19",
    "prefect": "3.9.1",
    "temporalio": "1.35.0",
}
SMALL = ("dbos", "temporalio")
REPO = Path(__file__).resolve().parent.parent
# This checkout's ordercheck, whatever is installed, with its bytecode written as an
# install's is (``compiled``): under PYTHONDONTWRITEBYTECODE a stale ``.pyc`` made every
# timed process compile the modules changed since, 0.06 s of an editor's run.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = str(REPO)

PARSE = r"""
import sys, pathlib
mode = sys.argv[1]
files = [pathlib.Path(p) for p in pathlib.Path(sys.argv[2]).read_text().split("\n") if p]
if mode == "libcst":
    import libcst
    parse = lambda b: libcst.parse_module(b)
else:
    import ast
    parse = lambda b: ast.parse(b)
n = 0
for p in files:
    try:
        parse(p.read_bytes()); n += 1
    except Exception:
        pass
print(n, "parsed")
"""


def fetch(name: str, version: str, cache: Path) -> Path:
    """The unpacked wheel of ``name==version`` under ``cache/src`` (downloaded once
    into ``cache/wheels`` with pip; a folder already unpacked there is used as is)."""
    norm = name.replace("-", "_").lower()
    dest = cache / "src" / f"{norm}-{version}"
    if (dest / ".done").is_file() or (dest.is_dir() and next(dest.rglob("*.py"), None) is not None):
        return dest
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    found = [p for p in wheels.glob("*.whl") if p.name.lower().startswith(f"{norm}-{version}-")]
    if not found:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                        "--disable-pip-version-check", "-q", f"{name}=={version}", "-d", str(wheels)],
                       check=True)
        found = [p for p in wheels.glob("*.whl") if p.name.lower().startswith(f"{norm}-{version}-")]
    shutil.rmtree(dest, ignore_errors=True)
    with zipfile.ZipFile(found[0]) as zf:
        for member in zf.namelist():
            if member.endswith(".py") and ".." not in Path(member).parts and not member.startswith("/"):
                zf.extract(member, dest)
    (dest / ".done").write_text("ok")
    return dest


def run_peak(cmd, stdin_data: bytes | None = None, cwd: Path | None = None, env: dict | None = None):
    """(wall seconds, peak RSS MiB of the largest process) of one command, through GNU
    time (``apt-get install time``); ``ru_maxrss`` of RUSAGE_CHILDREN would be a running
    maximum over every child so far."""
    env = env or ENV
    gnu_time = "/usr/bin/time" if Path("/usr/bin/time").is_file() else None
    if gnu_time is None:  # no GNU time: wall only
        t = time.perf_counter()
        subprocess.run(cmd, input=stdin_data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd, env=env)
        return time.perf_counter() - t, float("nan")
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as out:
        t = time.perf_counter()
        subprocess.run([gnu_time, "-f", "%M", "-o", out.name, *cmd], input=stdin_data,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd, env=env)
        wall = time.perf_counter() - t
        try:
            peak = int(Path(out.name).read_text().split()[-1]) / 1024
        except (ValueError, IndexError):
            peak = float("nan")
    return wall, peak


def compiled() -> None:
    """The checkout's modules compiled to bytecode before anything is timed, as
    ``pip install`` compiles an install's."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "ordercheck")],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, check=False)


def touch_and_run(path: Path, cmd, cwd: Path):
    """One line appended to ``path`` (a new state each time), then the run."""
    with path.open("a") as fh:
        fh.write("\n# touched\n")
    return run_peak(cmd, cwd=cwd)


def synthetic(kind: str, n: int) -> str:
    """One function of about ``n`` statements."""
    lines = ["def f(store, ledger, run, items):"]
    if kind == "ifs":
        for i in range(n // 2):
            lines += [f"    if run.flag{i % 7}:", "        store.save(run)" if i % 50 == 0 else "        x = 1"]
    elif kind == "loops":
        for i in range(n // 4):
            lines += ["    for a in items:", "        for b in a:",
                      "            if b:", "                continue" if i % 2 else "                break"]
    else:  # try chains
        for i in range(n // 4):
            lines += ["    try:", "        ledger.append(run)" if i % 50 == 0 else "        y = g()",
                      "    except ValueError:", "        pass"]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", choices=("seven", "small"), default="seven")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "ordercheck-bench")
    ap.add_argument("--scale", action="store_true", help="also run the synthetic scale check")
    args = ap.parse_args(argv)

    names = SMALL if args.corpus == "small" else tuple(CORPUS)
    roots = [fetch(n, CORPUS[n], args.cache) for n in names]
    files = sorted(p for r in roots for p in r.rglob("*.py"))
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    work = Path(tempfile.mkdtemp(prefix="ordercheck-bench-"))
    try:
        tree = work / "tree"
        for r in roots:
            shutil.copytree(r, tree / r.name, ignore=shutil.ignore_patterns(".done"))
        listing = work / "files.txt"
        tree_files = sorted(tree.rglob("*.py"))
        listing.write_text("\n".join(str(p) for p in tree_files))
        (tree / "ordercheck.toml").write_text("")  # the project root; default rules
        oc = [sys.executable, "-m", "ordercheck", "--exit-zero", "-q", "--format", "json"]
        cache_dir = work / "cache"
        sizes = sorted(tree_files, key=lambda p: abs(p.read_bytes().count(b"\n") - 2000))
        buffer_file, touched = sizes[0], sizes[len(sizes) // 2]
        buffer = buffer_file.read_bytes()
        commands = {
            "libcst parse (1 process)": lambda: run_peak([sys.executable, "-c", PARSE, "libcst", str(listing)]),
            "ast parse (1 process)": lambda: run_peak([sys.executable, "-c", PARSE, "ast", str(listing)]),
            f"ordercheck cold --jobs {args.jobs}": lambda: run_peak(
                oc + ["--no-cache", "--jobs", str(args.jobs), str(tree)], cwd=tree),
            f"ordercheck cold --jobs {args.jobs}, no pre-pass": lambda: run_peak(
                oc + ["--no-cache", "--jobs", str(args.jobs), str(tree)], cwd=tree,
                env=dict(ENV, ORDERCHECK_PREPASS="0")),
            "ordercheck warm": lambda: run_peak(
                oc + ["--cache-dir", str(cache_dir), "--jobs", str(args.jobs), str(tree)], cwd=tree),
            "ordercheck, one file touched": lambda: touch_and_run(
                touched, oc + ["--cache-dir", str(cache_dir), "--jobs", str(args.jobs), str(tree)], tree),
            # an edited buffer each round (the same one would be answered by the run cache)
            "editor buffer (--stdin-filename)": lambda: run_peak(
                oc + ["--cache-dir", str(cache_dir), "--stdin-filename", str(buffer_file), "-"],
                buffer + f"\n# edit {time.time_ns()}\n".encode(), cwd=tree),
        }
        compiled()
        print(f"{len(files)} files, {lines:,} lines ({', '.join(names)}); {args.rounds} rounds, alternated")
        # fill the cache once, and let the editor open the buffer once (its first run
        # walks the project for its stat snapshot, as an editor's first keystroke does)
        subprocess.run(oc + ["--cache-dir", str(cache_dir), "--jobs", str(args.jobs), str(tree)],
                       cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        subprocess.run(oc + ["--cache-dir", str(cache_dir), "--stdin-filename", str(buffer_file), "-"],
                       input=buffer, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        time.sleep(2.5)  # (the snapshot trusts nothing changed within two seconds of its writing)
        results = {k: [] for k in commands}
        for _ in range(args.rounds):
            for name, fn in commands.items():
                results[name].append(fn())
        base = results["libcst parse (1 process)"]
        print(f"{'command':38} {'wall s':>8} {'peak MiB':>9} {'x libcst':>9}")
        for name, rows in results.items():
            wall = statistics.median(w for w, _ in rows)
            peak = statistics.median(p for _, p in rows)
            ratio = statistics.median(w / b[0] for (w, _), b in zip(rows, base))
            print(f"{name:38} {wall:8.2f} {peak:9.0f} {ratio:9.3f}")
        if args.scale:
            print("\nsynthetic scale (one function; seconds per 1k statements)")
            for kind in ("ifs", "loops", "try"):
                cells = []
                for n in (1_000, 10_000, 100_000):
                    src = work / f"scale_{kind}_{n}.py"
                    src.write_text(synthetic(kind, n))
                    wall, peak = run_peak(oc + ["--no-cache", "--isolated", str(src)], cwd=work)
                    cells.append(f"{n:>7,}: {wall / n * 1000:6.3f} s/1k ({peak:.0f} MiB)")
                print(f"  {kind:6} " + "   ".join(cells))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
