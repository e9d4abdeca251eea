"""The per-file cache (SPEC §9): a file's facts, keyed by what they depend on.

Facts depend only on the file's bytes, the name it is shown under, its module name
and ordercheck's version — not on the configuration — so a changed config never
needs a re-parse, and findings (graphs, contracts) are always recomputed from facts:
the cache cannot hide a finding. Entries are pickles written atomically; an entry
that cannot be read is recomputed.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Optional

from . import __version__
from . import facts as factsmod
from .facts import FileFacts


def _schema() -> str:
    """The shape of the cached data: any change to a facts dataclass is a new key,
    so an old pickle is never read into new code."""
    shapes = sorted(
        (name, tuple(f.name for f in fields(obj)))
        for name, obj in vars(factsmod).items()
        if isinstance(obj, type) and is_dataclass(obj) and obj.__module__ == factsmod.__name__
    )
    return hashlib.sha256(repr(shapes).encode()).hexdigest()[:16]


FORMAT = _schema()


def key(shown: str, module: str, data: bytes) -> str:
    h = hashlib.sha256()
    for part in (__version__, FORMAT, sys.version.split()[0], shown, module):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    h.update(data)
    return h.hexdigest()


class Cache:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.hits = 0
        self.misses = 0

    def _path(self, k: str) -> Path:
        return self.folder / "facts" / k[:2] / f"{k}.pickle"

    def get(self, k: str) -> Optional[FileFacts]:
        p = self._path(k)
        try:
            with open(p, "rb") as fh:
                facts = pickle.load(fh)
        except FileNotFoundError:
            self.misses += 1
            return None
        except Exception:  # a torn or foreign entry: recompute
            self.misses += 1
            return None
        if not isinstance(facts, FileFacts):
            self.misses += 1
            return None
        self.hits += 1
        return facts

    def put(self, k: str, facts: FileFacts) -> None:
        p = self._path(k)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            tag = self.folder / "CACHEDIR.TAG"
            if not tag.exists():
                tag.write_text("Signature: 8a477f597d28d172789f06886806bc55\n# ordercheck cache\n")
                (self.folder / ".gitignore").write_text("*\n")
            fd, tmp = tempfile.mkstemp(dir=p.parent, suffix=".tmp")
        except OSError:
            return  # a cache that cannot be written only costs time
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(facts, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, p)
        except (OSError, pickle.PicklingError, RecursionError):
            try:
                os.unlink(tmp)
            except OSError:
                pass
