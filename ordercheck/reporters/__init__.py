"""Reporters: findings in, text out. One module per format (semantics §Surfaces)."""
from __future__ import annotations

from typing import Callable, Dict

from . import github, lsp_json, sarif, text

FORMATS: Dict[str, Callable] = {
    "text": text.render,
    "json": lsp_json.render,
    "sarif": sarif.render,
    "github": github.render,
}
