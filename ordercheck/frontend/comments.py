"""Suppression comments (``# noqa``, ``# ordercheck: ignore[...] -- reason``), read
with the tokenizer so that strings which look like comments are not taken for them."""
from __future__ import annotations

import io
import re
import tokenize
from typing import List

from ..ir import Suppression

_SUPPRESS_RE = re.compile(
    r"#\s*(?:ordercheck:\s*ignore|noqa)\b(?:\s*(?:\[(?P<br>[^\]]*)\]|:\s*(?P<co>[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)))?(?:.*?\s--\s*(?P<reason>.*))?",
    re.IGNORECASE,
)


def find_suppressions(text: str) -> List[Suppression]:
    """Suppression comments, via the tokenizer so strings that look like comments
    are not mistaken for them."""
    found: List[Suppression] = []
    lowered = text.lower()
    if "noqa" not in lowered and "ordercheck" not in lowered:
        return found  # tokenizing is a tenth of a file's cost: skip it when it cannot matter
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return found
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        m = _SUPPRESS_RE.search(tok.string)
        if not m:
            continue
        raw = m.group("br") if m.group("br") is not None else m.group("co")
        codes = None
        if raw is not None:
            codes = tuple(c.strip().upper() for c in raw.split(",") if c.strip()) or None
        found.append(
            Suppression(tok.start[0], codes, (m.group("reason") or "").strip(), tok.start[1] + m.start())
        )
    return found

