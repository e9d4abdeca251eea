"""Modules imported on first use.

A warm run that finds nothing changed reads no source and builds no graph, so it
must not pay for importing libcst and networkx either (``python -X importtime``: a
few hundred milliseconds together). Modules that use them at call time only hold a
``LazyModule`` in their place; the first attribute access imports the real module
and puts it into the importing module's globals, so hot code pays the proxy once.
"""
from __future__ import annotations

import importlib
from typing import Any, Dict


class LazyModule:
    def __init__(self, name: str, owner: Dict[str, Any], alias: str) -> None:
        self._name = name
        self._owner = owner
        self._alias = alias

    def load(self) -> Any:
        mod = importlib.import_module(self._name)
        if self._owner.get(self._alias) is self:
            self._owner[self._alias] = mod
        return mod

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):
            raise AttributeError(attr)
        return getattr(self.load(), attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def module(name: str, owner: Dict[str, Any], alias: str) -> Any:
    """``alias = module("libcst", globals(), "alias")``: ``name``, imported on first use."""
    return LazyModule(name, owner, alias)
