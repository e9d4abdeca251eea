"""Small helpers the reporters share."""
from __future__ import annotations

import json
from typing import Any, Dict, List

from ..filepaths import location
from ..findings import Finding


def file_uri(path: str) -> str:
    return location(path).as_uri()


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


def dump_json(doc: Any) -> str:
    """A JSON report as text: non-ASCII as itself, unless some string holds a lone
    surrogate (a file name that is not UTF-8, decoded with ``surrogateescape``); then
    every non-ASCII character is escaped, so the report stays one valid UTF-8 JSON
    document (``"bad\\udcffname.py"``) instead of carrying the raw byte."""
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(doc, indent=2, ensure_ascii=True)
    return text + "\n"
