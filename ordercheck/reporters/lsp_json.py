"""``--format json``: LSP-shaped diagnostics an editor can hand straight to
``textDocument/publishDiagnostics`` (0-based lines, UTF-16 characters)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from .. import __version__
from ..findings import Finding
from ..ir import Span
from .common import by_file, counts, dump_json, file_uri

SEVERITY = {"error": 1, "warning": 2, "info": 3, "hint": 4}
SUPPRESSED_WITHOUT_REASON = "suppressed by a comment that gives no reason"


def lsp_range(span: Span) -> Dict[str, Dict[str, int]]:
    return {
        "start": {"line": span.line - 1, "character": span.col16},
        "end": {"line": span.end_line - 1, "character": span.end_col16},
    }


def diagnostic(f: Finding, rule_uri: Optional[str]) -> dict:
    d: Dict[str, Any] = {
        "range": lsp_range(f.span),
        "severity": SEVERITY.get(f.severity, 2),
        "code": f.code,
        "source": "ordercheck",
        "message": f.message,
    }
    if rule_uri:
        d["codeDescription"] = {"href": rule_uri}
    if f.related:
        d["relatedInformation"] = [
            {"location": {"uri": file_uri(r.path or f.path), "range": lsp_range(r.span)}, "message": r.message}
            for r in f.related
        ]
    d["data"] = {
        "rule": f.name,
        "function": f.function,
        "witness": [
            dict(
                {"line": s.span.line - 1, "character": s.span.col16, "event": s.kind, "text": s.text},
                **({"via": s.via} if s.via else {}),
            )
            for s in f.witness
            if s.span is not None
        ],
        "fingerprint": f.fingerprint,
    }
    if f.stmt_lines:  # (0-based) where a suppression comment covers it: the editor's quick fix
        d["data"]["statement"] = [f.stmt_lines[0] - 1, f.stmt_lines[-1] - 1]
    if f.suppressed is not None:  # --show-suppressed: the comment's reason
        d["data"]["suppressed"] = f.suppressed or SUPPRESSED_WITHOUT_REASON
    return d


def document(findings: List[Finding], files: List[str], rules, always: Sequence[str] = (),
             suppressed: Sequence[Finding] = ()) -> dict:
    """``suppressed`` (``--show-suppressed``) are listed among the diagnostics with
    ``data.suppressed``; the summary counts only the findings."""
    grouped = by_file(sorted([*findings, *suppressed], key=Finding.sort_key) if suppressed else findings)
    names = list(grouped)
    for extra in always:
        if extra not in grouped:
            names.append(extra)
    out_files = []
    for path in names:
        out_files.append({
            "uri": file_uri(path),
            "path": path,
            "diagnostics": [diagnostic(f, _rule_uri(rules, f.code)) for f in grouped.get(path, [])],
        })
    return {
        "tool": {"name": "ordercheck", "version": __version__},
        "files": out_files,
        "summary": dict({"files": len(files), "findings": len(findings), "by_code": counts(findings)},
                        **({"suppressed": len(suppressed)} if suppressed else {})),
    }


def _rule_uri(rules, code: str) -> Optional[str]:
    rule = rules.get(code) if rules else None
    if rule is None or not rule.source:
        return None
    return file_uri(rule.source)


def render(findings: List[Finding], files: List[str], rules=None, always: Sequence[str] = (),
           suppressed: Sequence[Finding] = (), notes: Sequence[str] = (), **_) -> str:
    doc = document(findings, files, rules, always, suppressed)
    if notes:  # (the key only when there is one: a clean run's document is unchanged)
        doc["notes"] = list(notes)
    return dump_json(doc)
