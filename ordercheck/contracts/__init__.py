"""Stage 4 — ordering contracts evaluated as path properties (semantics §Contracts).

One module per contract kind, each a subclass of ``base.Rule`` registered under its
TOML name (``Rule.KINDS``); ``rulebook`` turns a rule file into an instance of its
kind's class. Adding a kind is one module here, its import below, and a rule file
(docs/architecture.md, "Adding a contract kind"). The imports below are in the order
an unknown kind's error lists the kinds.
"""
from __future__ import annotations

# (each registers its kind, in this order: not sorted)
# isort: off
from . import sequence, swallowed, at_most_once, requires_before  # noqa: F401
from . import silent_handler, unused_suppression, parse_error, internal_error  # noqa: F401
# isort: on
from .base import (
    ROLE_KEYS,
    SEVERITIES,
    ClassExpr,
    GraphInput,
    Hit,
    Ordering,
    Rule,
    call_text,
    evaluate,
    exit_text,
    expr_matches,
    expr_text,
    message_text,
    node_span,
    node_text,
    short,
)
from .paths import KEEP, MAX_SEGMENT, Gap, Reach

KINDS = Rule.KINDS

__all__ = [
    "KEEP", "KINDS", "MAX_SEGMENT", "ROLE_KEYS", "SEVERITIES", "ClassExpr", "Gap", "GraphInput", "Hit", "Ordering",
    "Reach", "Rule", "evaluate", "exit_text", "expr_matches", "expr_text", "message_text", "node_span", "node_text",
    "call_text",
    "short",
]
