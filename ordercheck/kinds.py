"""Kinds are values, not strings scattered through modules.

Every family of kinds the pipeline dispatches on is one ``str``-valued enum here, at
the ground of the house, so that a misspelt kind is an ``AttributeError`` at import
time and a kind nobody handles is a loud error in the stage that dispatches on it.
Members compare and hash equal to their string values, so DOT output, JSON caches and
tests keep reading the same text.
"""
from __future__ import annotations

from enum import Enum


class StrEnum(str, Enum):
    """``str`` mix-in enum whose ``str()`` and ``format()`` are the bare value (the
    standard library's ``enum.StrEnum`` is Python 3.11+ only)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class StmtKind(StrEnum):
    """A statement of the facts' statement tree (``ir.Stmt.kind``): one row each in
    the extractor and in the graph builder's handler tables."""

    SIMPLE = "simple"  # expressions, assignments, imports, deletes, ...
    PASS = "pass"
    CLASS = "class"  # a nested class body (its statements run where it stands)
    RETURN = "return"
    RAISE = "raise"
    ASSERT = "assert"
    BREAK = "break"
    CONTINUE = "continue"
    IF = "if"
    WHILE = "while"
    FOR = "for"
    TRY = "try"
    WITH = "with"
    MATCH = "match"
