#!/usr/bin/env python3
"""Run ordercheck on pinned real-world packages and measure what it reports.

    python bench/realworld.py [--cache-dir D] [--only NAME] [--with-configs [--configs-only]]

For every ``[[package]]`` of ``bench/corpus.toml`` this script

1. downloads the pinned wheel with ``python -m pip download --no-deps
   --only-binary=:all: NAME==VERSION -d CACHE/wheels`` (skipped when the wheel is
   already there),
2. unpacks it into ``CACHE/src/NAME-VERSION/`` (skipped when already unpacked),
3. runs the real command line, ``ordercheck --isolated --format json <paths>``, in a
   subprocess (so the numbers are the CLI's, start-up and all), and with
   ``--with-configs`` again with ``--config bench/configs/NAME.toml``,
4. prints one table row per package and run: files, lines, functions (``def`` and
   ``async def``, counted with ``ast``), wall-clock seconds, and findings per rule,
5. writes every finding as one JSON line to ``CACHE/results/NAME-VERSION.RUN.jsonl``
   (paths relative to the unpacked wheel, 1-based lines, the witness) and the table
   to ``CACHE/results/summary.json``, for triage.

``--sample N`` additionally prints, per run and rule, a deterministic sample of up to
N findings with their witness, which is how docs/evaluation.md was triaged.

Third-party code never enters the repository: wheels and sources live in the cache
folder (default ``~/.cache/ordercheck-bench``). Standard library only, plus the
ordercheck command line itself. The exit status is 0 whatever ordercheck found; it
is 1 only when a package could not be downloaded, unpacked or checked.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import tomllib
import urllib.parse
import zipfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
CORPUS = BENCH / "corpus.toml"
DEFAULT_CACHE = Path(os.path.expanduser("~/.cache/ordercheck-bench"))

# The folders ordercheck itself never walks (see ordercheck/runner.py); files, lines
# and functions are counted over the same set of files.
SKIP_DIRS = {".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "build", "dist",
             ".tox", "node_modules", ".ordercheck_cache", ".mypy_cache",
             ".pytest_cache", ".nox", ".eggs"}

RULE_ORDER = ["OC101", "OC102", "OC103", "OC201", "OC202", "OC203", "OC204", "OC301",
              "OC001", "OC900"]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- corpus

def load_corpus(path: Path) -> list[dict]:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    packages = data.get("package", [])
    if not packages:
        raise SystemExit(f"{path}: no [[package]] entries")
    for pkg in packages:
        for key in ("name", "version"):
            if not isinstance(pkg.get(key), str):
                raise SystemExit(f"{path}: a [[package]] lacks `{key}`")
        if not re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", pkg["version"]):
            raise SystemExit(f"{path}: {pkg['name']}: `version` must be an exact version")
        pkg.setdefault("paths", [])
    return packages


def norm_name(name: str) -> str:
    """Wheel file names use the normalised distribution name (PEP 427/503)."""
    return re.sub(r"[-_.]+", "_", name).lower()


# ------------------------------------------------------------ download and unpack

def find_wheel(wheels: Path, pkg: dict) -> Path | None:
    for whl in sorted(wheels.glob("*.whl")):
        head = whl.name.split("-", 2)  # NAME-VERSION-rest.whl
        if len(head) == 3 and norm_name(head[0]) == norm_name(pkg["name"]) \
                and head[1] == pkg["version"]:
            return whl
    return None


def download(pkg: dict, wheels: Path) -> Path:
    whl = find_wheel(wheels, pkg)
    if whl is not None:
        return whl
    wheels.mkdir(parents=True, exist_ok=True)
    spec = f"{pkg['name']}=={pkg['version']}"
    log(f"  downloading {spec}")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "-q", spec, "-d", str(wheels)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"pip download {spec} failed:\n{proc.stderr.strip()}")
    whl = find_wheel(wheels, pkg)
    if whl is None:
        raise RuntimeError(f"pip download {spec} produced no matching wheel in {wheels}")
    return whl


def unpack(whl: Path, dest: Path) -> Path:
    stamp = dest / ".unpacked"
    if stamp.exists() and stamp.read_text() == whl.name:
        return dest
    if dest.exists():
        shutil.rmtree(dest)
    tmp = dest.with_name(dest.name + ".partial")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    root = tmp.resolve()
    with zipfile.ZipFile(whl) as zf:
        for info in zf.infolist():
            target = (tmp / info.filename).resolve()
            if root not in target.parents and target != root:
                raise RuntimeError(f"{whl.name}: unsafe path in wheel: {info.filename}")
        zf.extractall(tmp)
    (tmp / ".unpacked").write_text(whl.name)
    tmp.rename(dest)
    return dest


# ------------------------------------------------------------------ measuring

def python_files(targets: list[Path]) -> list[Path]:
    out: list[Path] = []
    for t in targets:
        if t.is_file():
            out.append(t)
            continue
        for dirpath, dirnames, filenames in os.walk(t):
            # (a package named `build` or `dist`, with its `__init__.py`, is walked, as
            # ordercheck walks it: ordercheck/sources.py ``PACKAGE_NAMES``)
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS or (
                d in ("build", "dist") and (Path(dirpath) / d / "__init__.py").is_file()))
            out.extend(Path(dirpath) / f for f in sorted(filenames) if f.endswith(".py"))
    return out


def count_source(files: list[Path]) -> dict:
    lines = functions = unparsable = 0
    for f in files:
        data = f.read_bytes()
        lines += data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
        try:
            tree = ast.parse(data, filename=str(f))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            unparsable += 1
            continue
        functions += sum(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                         for n in ast.walk(tree))
    return {"files": len(files), "bytes": sum(f.stat().st_size for f in files),
            "lines": lines, "functions": functions, "unparsable": unparsable}


def ordercheck_command(explicit: str | None) -> list[str]:
    if explicit:
        return explicit.split()
    beside = Path(sys.executable).parent / ("ordercheck.exe" if os.name == "nt" else "ordercheck")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("ordercheck")
    if found:
        return [found]
    return [sys.executable, "-m", "ordercheck"]


def engine_revision() -> str:
    """The repository commit ordercheck runs from, '+dirty' when ordercheck/ or rules/
    differ from it; empty outside a git checkout."""
    repo = BENCH.parent
    try:
        head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return ""
        dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--",
                                "ordercheck", "rules"], capture_output=True, text=True,
                               timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return head.stdout.strip() + ("+dirty" if dirty else "")


def supports(cmd: list[str], option: str, cwd: Path) -> bool:
    proc = subprocess.run(cmd + ["--help"], capture_output=True, text=True, cwd=cwd)
    return option in proc.stdout


def run_ordercheck(cmd: list[str], targets: list[Path], config: Path | None,
                   workdir: Path, extra: list[str]) -> tuple[dict, float]:
    args = list(cmd) + ["--format", "json"] + extra
    args += ["--config", str(config)] if config else ["--isolated"]
    args += [str(t) for t in targets]
    t0 = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, cwd=workdir)
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"ordercheck exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    try:
        return json.loads(proc.stdout), seconds
    except json.JSONDecodeError as exc:
        raise RuntimeError(f"ordercheck printed no JSON ({exc}): {proc.stderr.strip()[-500:]}")


def _rel(uri: str, root: Path) -> str:
    """A file:// URI as a path relative to the unpacked wheel (else as given)."""
    if not uri.startswith("file://"):
        return uri
    path = Path(urllib.parse.unquote(urllib.parse.urlparse(uri).path))
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def flatten(report: dict, root: Path, pkg: dict, run: str) -> list[dict]:
    rows = []
    for f in report.get("files", []):
        rel = _rel(f.get("uri", ""), root) if f.get("uri") else f["path"]
        for d in f.get("diagnostics", []):
            data = d.get("data", {})
            rows.append({
                "package": pkg["name"], "version": pkg["version"], "run": run,
                "code": d.get("code"), "severity": d.get("severity"),
                "path": rel, "line": d["range"]["start"]["line"] + 1,
                "col": d["range"]["start"]["character"] + 1,
                "function": data.get("function"), "message": d.get("message"),
                "witness": [{"line": w.get("line", -1) + 1, "event": w.get("event"),
                             "text": w.get("text")} for w in data.get("witness", [])],
                "related": [{"path": _rel(r["location"].get("uri", ""), root),
                             "line": r["location"]["range"]["start"]["line"] + 1,
                             "message": r.get("message")}
                            for r in d.get("relatedInformation", []) or []],
            })
    rows.sort(key=lambda r: (r["path"], r["line"], r["col"], r["code"]))
    return rows


# ------------------------------------------------------------------ reporting

def table(rows: list[dict]) -> str:
    codes = [c for c in RULE_ORDER if any(r["by_code"].get(c) for r in rows)]
    codes += sorted({c for r in rows for c in r["by_code"]} - set(codes) - set(RULE_ORDER))
    head = ["package", "version", "vocabulary", "files", "lines", "functions", "seconds",
            "findings"] + codes
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["package"], r["version"], r["run"], str(r["files"]), f"{r['lines']:,}",
                 f"{r['functions']:,}", f"{r['seconds']:.1f}", str(r["findings"])]
        cells += [str(r["by_code"].get(c, 0)) for c in codes]
        out.append("| " + " | ".join(cells) + " |")
    total = {k: sum(r[k] for r in rows) for k in ("seconds", "findings")}
    out.append(f"\n{len(rows)} runs, {total['findings']} findings, "
               f"{total['seconds']:.1f} s of ordercheck")
    return "\n".join(out)


def print_sample(findings: list[dict], per_rule: int) -> None:
    by: dict[tuple, list] = {}
    for f in findings:
        by.setdefault((f["run"], f["code"]), []).append(f)
    for (run, code), items in sorted(by.items()):
        pick = items if len(items) <= per_rule else \
            sorted(random.Random(f"{run}{code}").sample(items, per_rule),
                   key=lambda r: (r["package"], r["path"], r["line"]))
        print(f"\n## {code} ({run} vocabulary): {len(pick)} of {len(items)}")
        for f in pick:
            print(f"- {f['package']} {f['path']}:{f['line']} [{f['function']}] {f['message']}")
            for w in f["witness"]:
                print(f"      {w['line']:>5}  {w['event']:<16} {w['text']}")
            for r in f["related"]:
                print(f"      related {r['path']}:{r['line']}: {r['message']}")


def report_from_cache(results: Path, corpus: list[dict], sample: int) -> int:
    summary = results / "summary.json"
    if not summary.exists():
        log(f"{summary}: no previous run")
        return 2
    data = json.loads(summary.read_text())
    names = {p["name"] for p in corpus}
    rows = [r for r in data["rows"] if r["package"] in names]
    print(table(rows))
    print(f"\n{data.get('ordercheck', '')}; from {summary}")
    if sample:
        findings = []
        for r in rows:
            with open(r["jsonl"], encoding="utf-8") as fh:
                findings.extend(json.loads(line) for line in fh if line.strip())
        print_sample(findings, sample)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE,
                    help="where wheels, sources and results go (default %(default)s)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="only this package (repeatable; fnmatch globs allowed)")
    ap.add_argument("--with-configs", action="store_true",
                    help="also run with each package's bench/configs/NAME.toml")
    ap.add_argument("--configs-only", action="store_true",
                    help="with --with-configs: skip the default-vocabulary runs")
    ap.add_argument("--corpus", type=Path, default=CORPUS, help=argparse.SUPPRESS)
    ap.add_argument("--ordercheck", default=None,
                    help="command to run (default: the ordercheck beside this Python)")
    ap.add_argument("--sample", type=int, default=0, metavar="N",
                    help="print up to N findings per run and rule, with witnesses")
    ap.add_argument("--from-cache", action="store_true",
                    help="run nothing: print the table (and --sample) of the last runs")
    args = ap.parse_args(argv)

    corpus = load_corpus(args.corpus)
    if args.only:
        corpus = [p for p in corpus
                  if any(fnmatch.fnmatch(p["name"].lower(), o.lower()) for o in args.only)]
        if not corpus:
            ap.error(f"--only {args.only}: no such package in {args.corpus}")

    cache = args.cache_dir.expanduser().resolve()
    wheels, sources, results = cache / "wheels", cache / "src", cache / "results"
    for d in (wheels, sources, results):
        d.mkdir(parents=True, exist_ok=True)

    if args.from_cache:
        return report_from_cache(results, corpus, args.sample)

    cmd = ordercheck_command(args.ordercheck)
    # probe from the folder the real runs use (not the repository: `-m` would find
    # the source tree there without its dependencies)
    probe = subprocess.run(cmd + ["--list-rules"], capture_output=True, text=True, cwd=results)
    if probe.returncode != 0:
        log(f"cannot run ordercheck as `{' '.join(cmd)}`: {probe.stderr.strip()[-300:]}\n"
            "run this script with the Python that has ordercheck installed "
            "(e.g. .venv/bin/python bench/realworld.py) or pass --ordercheck CMD")
        return 2
    version = subprocess.run(cmd + ["--version"], capture_output=True, text=True,
                             cwd=results).stdout.strip()
    extra = ["--no-cache"] if supports(cmd, "--no-cache", results) else []  # time cold runs
    revision = engine_revision()
    if revision:
        version += f" at {revision}"
    log(f"ordercheck: {' '.join(cmd)} ({version}); cache: {cache}")

    rows, all_findings, failures = [], [], []
    for pkg in corpus:
        label = f"{pkg['name']}=={pkg['version']}"
        log(f"{label}")
        try:
            whl = download(pkg, wheels)
            root = unpack(whl, sources / f"{norm_name(pkg['name'])}-{pkg['version']}")
        except Exception as exc:  # noqa: BLE001 - report and go on with the others
            failures.append(f"{label}: {exc}")
            log(f"  FAILED: {exc}")
            continue
        targets = [root / p for p in pkg["paths"]] or [root]
        missing = [str(t) for t in targets if not t.exists()]
        if missing:
            failures.append(f"{label}: paths not in the wheel: {missing}")
            log(f"  FAILED: paths not in the wheel: {missing}")
            continue
        counts = count_source(python_files(targets))
        runs = [] if (args.configs_only and args.with_configs) else [("default", None)]
        if args.with_configs:
            if not pkg.get("config"):
                log("  no `config` in the corpus entry: configured run skipped")
            else:
                runs.append(("config", (args.corpus.parent / pkg["config"]).resolve()))
        for run, config in runs:
            try:
                report, seconds = run_ordercheck(cmd, targets, config, results, extra)
            except Exception as exc:  # noqa: BLE001
                failures.append(f"{label} ({run}): {exc}")
                log(f"  FAILED ({run}): {exc}")
                continue
            findings = flatten(report, root, pkg, run)
            out = results / f"{norm_name(pkg['name'])}-{pkg['version']}.{run}.jsonl"
            with open(out, "w", encoding="utf-8") as fh:
                for f in findings:
                    fh.write(json.dumps(f, sort_keys=True) + "\n")
            summary = report.get("summary", {})
            by_code = dict(summary.get("by_code", {}))
            rows.append({"package": pkg["name"], "version": pkg["version"], "run": run,
                         "files": summary.get("files", counts["files"]),
                         "lines": counts["lines"], "functions": counts["functions"],
                         "bytes": counts["bytes"], "seconds": seconds,
                         "findings": summary.get("findings", len(findings)),
                         "by_code": by_code, "paths": pkg["paths"],
                         "jsonl": str(out)})
            all_findings.extend(findings)
            log(f"  {run}: {counts['files']} files, {counts['bytes'] / 1e6:.1f} MB, "
                f"{seconds:.1f} s, {summary.get('findings', 0)} findings {by_code}")

    # keep the rows of packages this run skipped (--only), so --from-cache shows them all
    summary_file = results / "summary.json"
    kept = []
    if summary_file.exists():
        try:
            done = {(r["package"], r["run"]) for r in rows}
            kept = [r for r in json.loads(summary_file.read_text()).get("rows", [])
                    if (r["package"], r["run"]) not in done]
        except (ValueError, KeyError, AttributeError):
            kept = []
    order = {p["name"]: i for i, p in enumerate(load_corpus(args.corpus))}
    merged = sorted(kept + rows, key=lambda r: (order.get(r["package"], len(order)),
                                                 r["package"], r["run"] != "default"))
    summary_file.write_text(json.dumps(
        {"ordercheck": version, "rows": merged, "failures": failures}, indent=2) + "\n")
    print(table(rows))
    print(f"\n{version}; findings (JSON lines) and summary.json in {results}")
    if args.sample:
        print_sample(all_findings, args.sample)
    for f in failures:
        print(f"FAILED: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
