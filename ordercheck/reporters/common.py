"""Small helpers the reporters share."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, List

from ..findings import Finding


def file_uri(path: str) -> str:
    return Path(os.path.realpath(path)).as_uri()  # realpath: a symlink loop does not raise


def by_file(findings: List[Finding]) -> Dict[str, List[Finding]]:
    out: Dict[str, List[Finding]] = {}
    for f in findings:
        out.setdefault(f.path, []).append(f)
    return out


def counts(findings: List[Finding]) -> Dict[str, int]:
    out: Dict[str, int] = {}
    for f in findings:
        out[f.code] = out.get(f.code, 0) + 1
    return dict(sorted(out.items()))
