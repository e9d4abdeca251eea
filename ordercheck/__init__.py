"""ordercheck: a static ordering linter for persistence code (see docs/semantics.md)."""

__version__ = "0.1.0"
