"""Suppression comments (``# noqa``, ``# ordercheck: ignore[...] -- reason``), read
with the tokenizer so that strings which look like comments are not taken for them.

Tokenizing a whole file was a tenth of an outline's cost on real code (a file that
holds one ``# noqa`` is tokenized whole to find it). With the file's ``ast`` at hand,
only the lines that can hold one are tokenized, each from the start of the innermost
statement that holds it: a statement's first token starts a logical line, so the
tokenizer reads from there exactly what it reads in the whole file
(docs/performance.md, "Suppression comments")."""
from __future__ import annotations

import ast
import bisect
import io
import re
import tokenize
from typing import Dict, List, Optional, Sequence, Tuple

from ..ir import Suppression

_SUPPRESS_RE = re.compile(
    r"#\s*(?:ordercheck:\s*ignore|noqa)\b(?:\s*(?:\[(?P<br>[^\]]*)\]|:\s*(?P<co>[A-Z]+[0-9]+(?:(?:\s*,\s*|[ \t]+)[A-Z]+[0-9]+\b)*)))?(?:.*?\s--\s*(?P<reason>.*))?",
    re.IGNORECASE,
)
#: where a suppression comment can be: every one matches here (``_SUPPRESS_RE`` starts so)
_CANDIDATE_RE = re.compile(r"#\s*(?:ordercheck:\s*ignore|noqa)\b", re.IGNORECASE)

Token = Tuple[int, int, str]  # (line, column, comment text)


def find_suppressions(text: str, tree: Optional[ast.Module] = None) -> List[Suppression]:
    """Suppression comments, via the tokenizer so strings that look like comments
    are not mistaken for them. With ``tree`` (the ``ast`` of ``text``), only the
    regions that can hold one are tokenized; the answer is the same."""
    lowered = text.lower()
    if "noqa" not in lowered and "ordercheck" not in lowered:
        return []  # tokenizing is a tenth of a file's cost: skip it when it cannot matter
    comments: Optional[List[Token]] = None
    if tree is not None and "\r" not in text:  # (a lone CR: the tokenizer's lines and the ast's differ)
        comments = _comments_near(text, tree)
    if comments is None:
        comments = _comments(io.StringIO(text).readline)
    if comments is None:
        return []
    found: List[Suppression] = []
    for line, col, string in comments:
        # one comment may hold several directives (`# noqa: E501  # ordercheck:
        # ignore[OC102] -- why`): each is read up to where the next one starts; the
        # reason of one of ours (after ` -- `) runs to the comment's end, whatever it
        # mentions (`-- not a bare # noqa`), another tool's does not (`# noqa: E501 --
        # long line  # ordercheck: ignore[OC102]`)
        starts = [m.start() for m in _CANDIDATE_RE.finditer(string)]
        for at, end in zip(starts, starts[1:] + [len(string)]):
            m = _SUPPRESS_RE.match(string, at, end)
            if not m:
                continue
            raw = m.group("br") if m.group("br") is not None else m.group("co")
            codes = None
            if raw is not None:
                codes = _codes(raw) or None
            ours = codes is None or any(c.startswith("OC") for c in codes)
            if ours and m.group("reason") is not None:
                m = _SUPPRESS_RE.match(string, at)  # (the reason: to the end)
                assert m is not None
            found.append(Suppression(line, codes, (m.group("reason") or "").strip(), col + at))
            if ours and m.group("reason") is not None:
                break  # (a `# noqa` inside our reason is words)
    return found


def _codes(raw: str) -> Tuple[str, ...]:
    """The codes of a directive, separated by commas or spaces (`# noqa: OC101 OC102`,
    as flake8 and ruff read them; a review, session 41)."""
    return tuple(c.upper() for c in re.split(r"[\s,]+", raw) if c)


def codes_slot(comment: str) -> Optional[Tuple[int, Tuple[str, ...]]]:
    """The first directive of ours in ``comment`` (a line's comment, from its ``#``) as
    ``find_suppressions`` reads it: where a code can be added to it (the offset just
    after its codes) and its codes; ``(-1, ())`` for a bare one, which suppresses
    everything already (``ignore[]`` has a place for a code, and no codes); None when the comment holds none (another tool's directive
    is not ours). An editor's quick fix adds its code there: a directive appended
    after one of ours with a reason would be words of that reason."""
    starts = [m.start() for m in _CANDIDATE_RE.finditer(comment)]
    for at, end in zip(starts, starts[1:] + [len(comment)]):
        m = _SUPPRESS_RE.match(comment, at, end)
        if not m:
            continue
        group = "br" if m.group("br") is not None else ("co" if m.group("co") is not None else None)
        if group is None:
            return (-1, ())
        codes = _codes(m.group(group))
        if not codes:
            return (m.end(group), ())  # (`ignore[]`: read as bare; a code can go in)
        if any(c.startswith("OC") for c in codes):
            return (m.end(group), codes)
    return None


def _comments(readline, first_line: int = 1, last_line: Optional[int] = None) -> Optional[List[Token]]:
    """The comment tokens read from ``readline`` (whose first line is ``first_line``
    of the file) up to ``last_line``; None if the tokenizer fails."""
    out: List[Token] = []
    shift = first_line - 1
    try:
        for tok in tokenize.generate_tokens(readline):
            line = tok.start[0] + shift
            if last_line is not None and line > last_line:
                break
            if tok.type == tokenize.COMMENT:
                out.append((line, tok.start[1], tok.string))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return out


def _comments_near(text: str, tree: ast.Module) -> Optional[List[Token]]:
    """The comment tokens of the lines that can hold a suppression, each line
    tokenized from the start of the innermost statement holding it (``_region_start``);
    None (tokenize the whole file) when a region does not tokenize."""
    lines = text.split("\n")
    wanted: List[int] = []
    at, line = 0, 1
    for m in _CANDIDATE_RE.finditer(text):
        line += text.count("\n", at, m.start())
        at = m.start()
        if not wanted or wanted[-1] != line:
            wanted.append(line)
    if not wanted:
        return []
    regions: Dict[int, int] = {}  # region start -> last wanted line in it
    for line in wanted:
        start = _region_start(tree.body, line, lines)
        regions[start] = max(regions.get(start, 0), line)
    found: Dict[Tuple[int, int], Token] = {}
    want = set(wanted)
    for start, last in regions.items():
        chunk = iter(lines[start - 1:last + 1])

        def readline(chunk=chunk) -> str:
            for s in chunk:
                return s + "\n"
            return ""

        got = _comments(readline, start, last)
        if got is None:
            return None
        for tok in got:
            if tok[0] in want:
                found[tok[:2]] = tok
    return [found[k] for k in sorted(found)]


def _region_start(body: Sequence[ast.stmt], line: int, lines: List[str]) -> int:
    """A line to start tokenizing at for ``line``: the first line of the innermost
    statement that holds it and starts its own line (nothing but indentation before
    it; a statement after a ``;`` or a ``:`` may start inside another's string). A
    line between statements of a block (a comment, an ``except``/``else`` header)
    starts at the block's statement, so that the tokenizer never meets a dedent below
    where it started; at module level, the statement before it (column 0) will do."""
    best = 1
    while body:
        i = bisect.bisect_right(body, line, key=lambda s: s.lineno) - 1 if _KEYED else _bisect(body, line)
        if i < 0:
            return best
        s = body[i]
        text = lines[s.lineno - 1] if s.lineno - 1 < len(lines) else ""
        own_line = len(text) - len(text.lstrip(" \t\f")) == s.col_offset
        inside = line <= (s.end_lineno or s.lineno)
        if own_line and (inside or s.col_offset == 0):
            best = s.lineno
        if not inside:
            return best
        body = _inner(s)
    return best


def _inner(s: ast.stmt) -> List[ast.stmt]:
    """The statements directly inside ``s``'s blocks, in source order."""
    out: List[ast.stmt] = list(getattr(s, "body", ()))
    for h in getattr(s, "handlers", ()) or ():
        out.extend(h.body)
    for c in getattr(s, "cases", ()) or ():
        out.extend(c.body)
    out.extend(getattr(s, "orelse", ()) or ())
    out.extend(getattr(s, "finalbody", ()) or ())
    return out


_KEYED = True
try:
    bisect.bisect_right([], 0, key=lambda s: s)
except TypeError:  # (Python < 3.10)
    _KEYED = False


def _bisect(body: Sequence[ast.stmt], line: int) -> int:
    return bisect.bisect_right([s.lineno for s in body], line) - 1
