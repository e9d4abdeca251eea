"""Helpers for the Conformance to the contract (docs/semantics.md, version 2) cases (tests/test_v2_conformance*.py).

A case is source text whose expected findings are written next to the line they are
anchored at, as a corpus author reading only the contract would write them:
``self._ledger.append(rec)  # !OC102``. The case runs through the engine with the
default rule set (plus any rule named by a marker), and the findings must be exactly
those marked: a missing one is a recall failure, an extra one a precision failure.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from checkutil import check_source, settings_for

from ordercheck import runner
from ordercheck.rulebook import builtin_rules

MARK = re.compile(r"#.*?!(OC\d{3})")
DEFAULTS = sorted(r.id for r in builtin_rules() if r.default)


def expected(text: str) -> List[Tuple[str, int]]:
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r"!(OC\d{3})", line.partition("#")[2] if "#" in line else ""):
            out.append((m.group(1), i))
    return sorted(out)


def select_for(marks, extra=()) -> List[str]:
    return sorted(set(DEFAULTS) | {c for c, _ in marks} | set(extra))


def run_case(src: str, table: Optional[dict] = None, extra=()) -> Tuple[list, list, str]:
    text = textwrap.dedent(src)
    want = expected(text)
    findings = check_source(text, table=table, select=select_for(want, extra), dedent=False)
    got = sorted((f.code, f.span.line) for f in findings)
    detail = "\n".join(f"{f.code} {f.span.line}: {f.message}" for f in findings)
    return got, want, detail


def run_files(root: Path, files: Dict[str, str], table: Optional[dict] = None, extra=()):
    """A small project on disk; marks are read from every file."""
    want = []
    for name, src in files.items():
        text = textwrap.dedent(src)
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        want += [(name, line, code) for code, line in expected(text)]
    codes = {c for _, _, c in want}
    s = settings_for(table, select=select_for([(c, 0) for c in codes], extra))
    findings = runner.run([root], s).findings
    got = sorted((Path(f.path).resolve().relative_to(root.resolve()).as_posix(), f.span.line, f.code)
                 for f in findings)
    detail = "\n".join(f"{f.path}:{f.span.line} {f.code}: {f.message}" for f in findings)
    return got, sorted(want), detail
