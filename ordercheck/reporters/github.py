"""``--format github``: GitHub Actions workflow commands (annotations)."""
from __future__ import annotations

from typing import List, Sequence

from ..findings import Finding

LEVEL = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}


def _data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(s: str) -> str:
    return _data(s).replace(":", "%3A").replace(",", "%2C")


def _why_terminal(f: Finding) -> str:
    """What made the anchored call terminal, as its witness step says ("terminal by
    "failed" in `self._dump_failed_trace(...)`"): an annotation shows the message
    alone (held-out set 126: a pull request read a flush called a terminal ledger
    append with nothing to say why)."""
    for s in reversed(f.witness):
        if s.kind != "terminal-append" or s.span is None or s.span.line != f.span.line:
            continue  # (a plain append's own text may say "terminal by": a review)
        at = max(s.text.rfind("(terminal by "), s.text.rfind("; terminal by "))
        if at > 0 and s.text.endswith(")"):  # (the step's last parenthesis: `(...; terminal by "x")`)
            return f" ({s.text[at:-1].lstrip('(; ')})"
    return ""


def render(findings: List[Finding], files: List[str], notes: Sequence[str] = (), **_) -> str:
    lines = [f"::notice title=ordercheck::{_data(n)}" for n in notes]
    for f in findings:
        lines.append(
            f"::{LEVEL.get(f.severity, 'warning')} file={_prop(f.path)},line={f.span.line},"
            f"col={f.span.col + 1},endLine={f.span.end_line},endColumn={f.span.end_col + 1},"
            f"title={_prop(f.code)}::{_data(f.message + _why_terminal(f))}"
        )
    return "\n".join(lines) + ("\n" if lines else "")
