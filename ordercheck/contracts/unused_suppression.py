"""``unused-suppression``: a suppression comment that suppressed nothing
(``suppression.apply`` reports it; message field ``{codes}``)."""
from __future__ import annotations

from .base import Rule


class UnusedSuppression(Rule, kind="unused-suppression"):
    on_graph = False
    on_suppressions = True
    fields = ("codes",)
