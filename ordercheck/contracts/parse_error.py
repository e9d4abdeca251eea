"""``parse-error``: a file that cannot be read or parsed (the reader reports it:
``diagnose.parse_error_finding``; message field ``{error}``). It is on whatever the
selection says: only its exact code in an ignore turns it off."""
from __future__ import annotations

from .base import Rule


class ParseError(Rule, kind="parse-error"):
    on_graph = False
    always_on = True
    fields = ("error",)
