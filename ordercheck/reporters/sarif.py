"""``--format sarif``: SARIF 2.1.0, one run; the witness is a code flow so code
scanning shows the path."""
from __future__ import annotations

import json
from pathlib import Path
from typing import List

from .. import __version__
from ..facts import Span
from ..findings import Finding

LEVEL = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str) -> str:
    p = Path(path)
    return p.as_posix() if not p.is_absolute() else p.as_uri()


def _region(span: Span) -> dict:
    region = {"startLine": span.line, "startColumn": span.col + 1}
    if span.end_line >= span.line:
        region["endLine"] = span.end_line
        region["endColumn"] = max(span.end_col + 1, 1)
    return region


def _location(path: str, span: Span, message: str = "") -> dict:
    loc = {"physicalLocation": {"artifactLocation": {"uri": _uri(path)}, "region": _region(span)}}
    if message:
        loc["message"] = {"text": message}
    return loc


def render(findings: List[Finding], files: List[str], rules=None, **_) -> str:
    rules = rules or {}
    ids = list(rules)
    driver_rules = []
    for rid, r in rules.items():
        driver_rules.append({
            "id": rid,
            "name": r.name,
            "shortDescription": {"text": r.name.replace("-", " ")},
            "fullDescription": {"text": r.summary()},
            "help": {"text": r.explanation or r.name, "markdown": r.explanation or r.name},
            "defaultConfiguration": {"level": LEVEL.get(r.severity, "warning"), "enabled": bool(r.default)},
        })
    results = []
    for f in findings:
        res = {
            "ruleId": f.code,
            "level": LEVEL.get(f.severity, "warning"),
            "message": {"text": f.message},
            "locations": [_location(f.path, f.span)],
            "partialFingerprints": {"ordercheck/v1": f.fingerprint or "0"},
        }
        if f.code in rules:
            res["ruleIndex"] = ids.index(f.code)
        steps = [s for s in f.witness if s.span is not None]
        if steps:
            res["codeFlows"] = [{"threadFlows": [{"locations": [
                {"location": _location(f.path, s.span, f"{s.kind}: {s.text}" + (f" (via {s.via})" if s.via else ""))}
                for s in steps
            ]}]}]
        if f.related:
            res["relatedLocations"] = [
                dict(_location(r.path or f.path, r.span, r.message), id=i) for i, r in enumerate(f.related)
            ]
        results.append(res)
    doc = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "ordercheck", "version": __version__, "semanticVersion": __version__, "rules": driver_rules}},
            "results": results,
            "columnKind": "unicodeCodePoints",
        }],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
