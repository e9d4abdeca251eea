"""Where the shipped rule and vocabulary TOML files live.

In a wheel they are package data at ``ordercheck/rules``; in a source checkout (or an
editable install) they are the repository's top-level ``rules/`` folder.
"""
from __future__ import annotations

from pathlib import Path


def rules_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "rules", here.parent / "rules"):
        if (candidate / "vocab").is_dir():
            return candidate
    raise FileNotFoundError("ordercheck's rules/ folder is missing from this installation")


def vocab_dir() -> Path:
    return rules_dir() / "vocab"
