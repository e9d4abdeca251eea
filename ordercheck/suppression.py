"""Stage 6 — suppression comments (semantics §Surfaces): ``# ordercheck: ignore[CODE] -- reason``
and ``# noqa: CODE`` at the end of the anchor's line, or of the first or last line of
the statement that holds it; with OC001 selected, the ones that suppressed nothing."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from .findings import Finding
from .ir import FileFacts, Span, Suppression, utf16_col
from .rulebook import Rule


def _names(codes: Optional[Tuple[str, ...]], code: str) -> bool:
    return codes is None or any(code.startswith(c) for c in codes)


def apply(findings: List[Finding], facts: FileFacts, known: Sequence[str], report_unused: Optional[Rule],
          suppressed: Optional[List[Finding]] = None) -> List[Finding]:
    """Drop suppressed findings; with OC001 selected, report each suppression (or
    each code of one) that suppressed nothing. ``# noqa`` codes of other tools are
    not ours to judge. Each dropped finding goes to ``suppressed`` (when given) with
    ``Finding.suppressed`` set to the comment's reason (``--show-suppressed``, SARIF)."""
    by_line: Dict[int, List[Suppression]] = {}
    for s in facts.suppressions:
        by_line.setdefault(s.line, []).append(s)
    used: Dict[int, set] = {}
    kept = []
    for f in findings:
        hit = None
        near = {f.span.line, *f.stmt_lines, *f.inner_lines}
        if f.within and f.stmt_lines:
            lines = sorted(ln for ln in by_line if f.stmt_lines[0] <= ln <= f.stmt_lines[-1])
        else:
            lines = sorted(near)
        for ln in lines:
            # (a bare `# noqa` on any other line of a `within` range is another tool's,
            # a flake8 `import *  # noqa`: only one naming the code reaches that far)
            hit = next((s for s in by_line.get(ln, ())
                        if _names(s.codes, f.code) and (ln in near or s.codes is not None)), None)
            if hit:
                break
        if hit is None:
            kept.append(f)
            continue
        if suppressed is not None:
            f.suppressed = hit.reason or ""
            suppressed.append(f)
        codes = used.setdefault(id(hit), set())
        codes.update(c for c in (hit.codes or ("*",)) if c == "*" or f.code.startswith(c))
    if report_unused is None:
        return kept
    for s in facts.suppressions:
        got = used.get(id(s), set())
        if s.codes is None:
            if got or not _is_ordercheck_comment(facts, s):
                continue
            unused = ["all codes"]
        else:
            # a ``# noqa`` code of another tool is not ours to judge; in our own
            # comment a code no rule has (a typo: `OC1O1`) suppresses nothing either
            ours = _starts_ordercheck(facts, s)
            unused = [c for c in s.codes if c not in got and (ours or any(k.startswith(c) for k in known))]
            if not unused:
                continue
        text = facts.lines[s.line - 1] if s.line <= len(facts.lines) else ""
        c16 = utf16_col(text, s.col)
        kept.append(Finding(
            code=report_unused.id, name=report_unused.name, severity=report_unused.severity,
            path=facts.path, span=Span(s.line, s.col, s.line, len(text), c16, utf16_col(text, len(text))),
            message=report_unused.format_message({"codes": ", ".join(unused)}), stmt_lines=(s.line, s.line),
        ))
    return kept


def _starts_ordercheck(facts: FileFacts, s: Suppression) -> bool:
    """Whether the suppression is written ``# ordercheck: ignore[...]`` (not ``# noqa``)."""
    text = facts.lines[s.line - 1][s.col:] if s.line <= len(facts.lines) else ""
    return text.lstrip("#").lstrip().lower().startswith("ordercheck")


def _is_ordercheck_comment(facts: FileFacts, s: Suppression) -> bool:
    text = facts.lines[s.line - 1][s.col:] if s.line <= len(facts.lines) else ""
    return "ordercheck" in text.lower()


