"""The run cache: a whole run's findings, keyed by everything they depend on.

A run that finds nothing changed since a run it remembers — the same engine, Python,
configuration, rules and vocabulary, the same files under the same names and module
names with the same bytes, the same files reported — returns that run's findings
without reading any file's facts, building a graph or importing libcst and networkx.
Anything else misses, and the run is computed as usual (and remembered): the key
holds every input of ``runner.run``, so a hit gives what a cold run gives.

The entry is JSON checked against the findings dataclasses by the same allow-list
codec as the facts cache (``cache.Codec``): no pickle, an entry that does not
validate is a miss, and it is written by temporary file, fsync and rename.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from . import cache as cachemod
from . import findings as findingsmod
from .findings import Finding, Related, Step
from .ir import Span

RUN_FORMAT = 3  # 2: a witness step's ``via_path``; 3: its ``key``
KEEP = 16  # run entries kept (the most recent); each is a few kB per finding


class Key:
    """An incremental SHA-256 over length-prefixed parts (no two part lists collide)."""

    def __init__(self, *parts: str) -> None:
        self._h = hashlib.sha256(b"ordercheck-run\0")
        for p in parts:
            self.add(p)

    def add(self, part: str) -> None:
        data = part.encode("utf-8", "surrogatepass")
        self._h.update(len(data).to_bytes(8, "little"))
        self._h.update(data)

    def hexdigest(self) -> str:
        return self._h.hexdigest()


@dataclass
class RunRecord:
    findings: List[Finding]
    suppressed: List[Finding]
    files: List[str]
    event_classes: List[str] = field(default_factory=list)
    project_files: int = 0


_CODEC: Optional[cachemod.Codec] = None


def codec() -> cachemod.Codec:
    global _CODEC
    if _CODEC is None:
        classes = {"Finding": Finding, "Step": Step, "Related": Related, "Span": Span, "RunRecord": RunRecord}
        namespace: Dict[str, Any] = dict(vars(findingsmod))
        namespace.update(classes)
        _CODEC = cachemod.Codec(classes, namespace)
    return _CODEC


def to_json(record: RunRecord) -> str:
    return json.dumps(cachemod.encode(record), separators=(",", ":"), check_circular=False)


def from_json(text: str) -> RunRecord:
    try:
        return codec().decode(json.loads(text), RunRecord)
    except cachemod.Invalid:
        raise
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:
        raise cachemod.Invalid(type(exc).__name__) from None


class RunCache:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def _path(self, k: str) -> Path:
        return self.folder / "runs" / f"{k}.json"

    def get(self, k: str) -> Optional[RunRecord]:
        try:
            raw = cachemod._read_entry(self._path(k))
        except OSError:
            return None
        if raw is None:
            return None
        try:
            text = raw.decode("utf-8")
            head, sep, body = text.partition("\n")
            if not sep or head != json.dumps({"run": k, "format": RUN_FORMAT}):
                return None
            return from_json(body)
        except (cachemod.Invalid, UnicodeDecodeError):
            return None

    def put(self, k: str, record: RunRecord) -> None:
        try:
            body = to_json(record)
        except (TypeError, ValueError, RecursionError):
            return
        data = (json.dumps({"run": k, "format": RUN_FORMAT}) + "\n" + body).encode("ascii")
        p = self._path(k)
        try:
            cachemod.prepare(self.folder)
            p.parent.mkdir(parents=True, exist_ok=True)
            cachemod.write_atomically(p, data)
            self._prune(p.parent)
        except OSError:
            return  # a cache that cannot be written only costs time

    @staticmethod
    def _prune(folder: Path) -> None:
        """Keep the ``KEEP`` most recent entries."""
        try:
            entries = [(e.stat().st_mtime_ns, e.path) for e in os.scandir(folder)
                       if e.name.endswith(".json") and e.is_file(follow_symlinks=False)]
        except OSError:
            return
        entries.sort(reverse=True)
        for _, path in entries[KEEP:]:
            try:
                os.unlink(path)
            except OSError:
                pass
