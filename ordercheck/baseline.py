"""Baselines (semantics §Surfaces ``--write-baseline FILE`` / ``--baseline FILE``): adopt
ordercheck on a codebase with old findings.

A baseline is a JSON file that records each current finding by a fingerprint that
survives edits elsewhere — the rule, the file relative to the project root, the
function's qualified name, the anchored text and the normalised text of the witness
events (``Finding.stable_fingerprint``), never a line number — with a count, so that a
second identical finding beyond the recorded count is still reported. The file is
sorted and carries no timestamps, so re-recording an unchanged project gives the same
bytes (a clean diff in review).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from .atomic import atomic_write
from .config import relative_to_root
from .errors import UsageError
from .findings import Finding

FORMAT_VERSION = 1


@dataclass
class Entry:
    fingerprint: str
    rule: str
    path: str
    function: str
    text: str
    count: int


@dataclass
class Baseline:
    source: Path
    entries: List[Entry] = field(default_factory=list)

    def counts(self) -> Dict[str, int]:
        out: Dict[str, int] = {}
        for e in self.entries:
            out[e.fingerprint] = out.get(e.fingerprint, 0) + e.count
        return out


def fingerprint(f: Finding, root: Path) -> str:
    return f.stable_fingerprint(relative_to_root(f.path, root))


def record(findings: Sequence[Finding], root: Path) -> List[Entry]:
    """One entry per distinct fingerprint, with how many findings share it."""
    by_fp: Dict[str, Entry] = {}
    for f in findings:
        fp = fingerprint(f, root)
        e = by_fp.get(fp)
        if e is None:
            by_fp[fp] = Entry(fp, f.code, relative_to_root(f.path, root), f.function, f.anchor_text or f.message, 1)
        else:
            e.count += 1
    return sorted(by_fp.values(), key=lambda e: (e.path, e.rule, e.function, e.text, e.fingerprint))


def dumps(entries: Sequence[Entry]) -> str:
    doc = {
        "tool": "ordercheck",
        "version": FORMAT_VERSION,
        "findings": [
            {"fingerprint": e.fingerprint, "rule": e.rule, "path": e.path, "function": e.function,
             "text": e.text, "count": e.count}
            for e in entries
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def write(path: Path, findings: Sequence[Finding], root: Path) -> int:
    """Record ``findings`` in ``path``; returns how many findings were recorded."""
    entries = record(findings, root)
    try:
        # (a file name that is no UTF-8 is a lone surrogate here: written as JSON's
        # `\udcff` escape, which reads back as the same name; a surfaces probe)
        atomic_write(path, dumps(entries).encode("utf-8", "backslashreplace"))
    except OSError as exc:
        raise UsageError(f"cannot write the baseline: {exc.strerror or exc}", str(path), "--write-baseline") from None
    return sum(e.count for e in entries)


def load(path: Path) -> Baseline:
    """Read a baseline; a missing or malformed file is a usage error naming it."""
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError("baseline file does not exist (create it with --write-baseline)", file, "--baseline") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the baseline: {getattr(exc, 'strerror', None) or exc}", file, "--baseline") from None
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"malformed baseline (not JSON: {exc})", file, "--baseline") from None
    if not isinstance(doc, dict) or doc.get("tool") != "ordercheck" or not isinstance(doc.get("findings"), list):
        raise UsageError("malformed baseline (expected an ordercheck baseline written by --write-baseline)", file, "--baseline")
    if doc.get("version") != FORMAT_VERSION:
        raise UsageError(f"unsupported baseline version {doc.get('version')!r} (expected {FORMAT_VERSION}; "
                         "re-create it with --write-baseline)", file, "--baseline")
    entries = []
    for i, item in enumerate(doc["findings"]):
        ok = (
            isinstance(item, dict)
            and isinstance(item.get("fingerprint"), str)
            and isinstance(item.get("count", 1), int)
            and not isinstance(item.get("count", 1), bool)
            and item.get("count", 1) >= 1
        )
        if not ok:
            raise UsageError(f"malformed baseline entry {i} (needs a fingerprint and a positive count)", file, f"findings[{i}]")
        entries.append(Entry(item["fingerprint"], str(item.get("rule", "")), str(item.get("path", "")),
                             str(item.get("function", "")), str(item.get("text", "")), item.get("count", 1)))
    return Baseline(path, entries)


def apply(findings: Sequence[Finding], base: Baseline, root: Path) -> Tuple[List[Finding], List[Entry]]:
    """Hide the findings the baseline records, at most its count of each fingerprint
    (in file and line order: the first ones are the old ones), then, among the
    findings left, those whose rule, file, function and anchored text an unused entry
    records (its witness changed). Returns what is left and the stale entries
    (recorded findings that are gone), with the count missing."""
    left = base.counts()
    unmatched: List[Finding] = []
    for f in findings:
        fp = fingerprint(f, root)
        if left.get(fp, 0) > 0:
            left[fp] -= 1
            continue
        unmatched.append(f)
    # a finding whose witness reads differently (an edit on its path, or a newer
    # ordercheck that words a step otherwise) still matches an entry left unused with
    # its rule, file, function and anchored text: the same finding, not a new one
    spare: Dict[Tuple[str, str, str, str], List[str]] = {}
    for e in base.entries:
        if left.get(e.fingerprint, 0) > 0:
            spare.setdefault((e.rule, e.path, e.function, e.text), []).append(e.fingerprint)
    kept: List[Finding] = []
    for f in unmatched:
        fps = spare.get((f.code, relative_to_root(f.path, root), f.function, f.anchor_text or f.message), [])
        spent = next((x for x in fps if left.get(x, 0) > 0), None)
        if spent is not None:
            left[spent] -= 1
            continue
        kept.append(f)
    stale = []
    seen = set()
    for e in base.entries:
        if e.fingerprint in seen or left.get(e.fingerprint, 0) <= 0:
            continue
        seen.add(e.fingerprint)
        stale.append(Entry(e.fingerprint, e.rule, e.path, e.function, e.text, left[e.fingerprint]))
    return kept, stale


def stale_lines(stale: Sequence[Entry], file: Path) -> List[str]:
    out = []
    for e in stale:
        times = f" ({e.count} times)" if e.count > 1 else ""
        where = f"{e.path}: {e.function}" if e.function else e.path
        out.append(f"ordercheck: stale baseline entry in {file}: {e.rule} in {where}: {e.text}{times} is gone")
    return out
