"""Errors that end a run with exit code 2 and one line on stderr."""
from __future__ import annotations

from typing import Optional


class UsageError(Exception):
    """A bad config file, rule file or argument. ``str()`` is the one-line message."""

    def __init__(self, message: str, file: Optional[str] = None, key: Optional[str] = None) -> None:
        self.file = file
        self.key = key
        where = ""
        if file and key:
            where = f"{file}: `{key}`: "
        elif file:
            where = f"{file}: "
        elif key:
            where = f"`{key}`: "
        super().__init__(f"{where}{message}")
