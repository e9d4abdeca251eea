"""What a contract found: plain data that every reporter reads."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import List, Optional

from .facts import Span


@dataclass
class Step:
    """One step of a witness path: an event or a branch point, with its position."""

    span: Span
    kind: str  # an event class ("save"), or "branch", "except", "finally", "exit"...
    text: str
    via: str = ""  # "Runtime._finish → self._store.save(run) at store.py:12" for events carried by a summary


@dataclass
class Related:
    span: Span
    message: str
    path: Optional[str] = None


@dataclass
class Finding:
    code: str
    name: str
    severity: str  # error / warning / info
    path: str
    span: Span
    message: str
    function: str = ""
    witness: List[Step] = field(default_factory=list)
    related: List[Related] = field(default_factory=list)
    anchor_text: str = ""
    stmt_lines: tuple = ()
    fingerprint: str = ""

    def sort_key(self):
        return (self.path, self.span.line, self.span.col, self.code)

    def compute_fingerprint(self, line_text: str) -> str:
        """Stable across unrelated edits: rule, file, function and the anchored text,
        not the line number."""
        h = hashlib.sha256()
        for part in (self.code, self.path.replace("\\", "/"), self.function, line_text.strip()):
            h.update(part.encode("utf-8", "surrogatepass"))
            h.update(b"\0")
        self.fingerprint = h.hexdigest()[:32]
        return self.fingerprint
