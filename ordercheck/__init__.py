"""ordercheck: a static ordering linter for persistence code (see SPEC.md)."""

__version__ = "0.1.0"
