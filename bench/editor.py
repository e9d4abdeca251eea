#!/usr/bin/env python3
"""What an editor pays per edit through the LSP server's own analysis (no LSP I/O).

    python bench/editor.py PROJECT FILE [--cache-dir D] [--edits 5]

``ordercheck lsp`` keeps one ``lsp.Project`` per workspace: the imports are paid once
and ``runner.run_buffers`` keeps a memo of the unchanged files between analyses.
This script makes that object for PROJECT (a folder with a config or a marker),
checks FILE's text once (the first analysis after the server starts), then appends
a comment to it EDITS times and times each analysis, as a keystroke pause would
trigger it. The cache folder is the project's (or ``--cache-dir``); fill it first
with one ``ordercheck`` run for a warm start. Prints wall seconds per analysis.
Nothing here is a test; results belong in docs/performance.md.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's ordercheck


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("project", type=Path)
    ap.add_argument("file", type=Path)
    ap.add_argument("--cache-dir", type=Path)
    ap.add_argument("--edits", type=int, default=5)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    from ordercheck import lsp  # the server's imports, paid once per server

    imported = time.perf_counter() - t0
    project = lsp.Project(args.project.resolve())
    project.current()
    if args.cache_dir is not None:
        project.cache_dir = lambda: args.cache_dir.resolve()  # type: ignore[method-assign]
    path = args.file.resolve()
    text = path.read_text()
    uri = path.as_uri()
    t = time.perf_counter()
    found = project.check({uri: (path, text)})
    first = time.perf_counter() - t
    times = []
    for i in range(args.edits):
        edited = text + f"\n# edit {i}\n"
        t = time.perf_counter()
        project.check({uri: (path, edited)})
        times.append(time.perf_counter() - t)
    print(f"imports {imported:.2f} s; first analysis {first:.2f} s ({len(found[uri])} diagnostics); "
          f"each edit: median {statistics.median(times):.2f} s, min {min(times):.2f} s, max {max(times):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
