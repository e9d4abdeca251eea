"""What a run learns from the file system before it reads a file, remembered and
revalidated by ``stat`` (docs/performance.md, "Session 14"; docs/decisions.md,
"The stat snapshot").

Before any facts are read, a run walks the project's folders
(``sources.collect_files``), resolves and shows each path, names its modules (which
asks folders for an ``__init__.py``) and hashes every file's bytes for its content
key (``memos.run_key``). On 400 files that was 0.15 s of an editor's 0.5 s process,
on 3,900 files 0.9 s. A snapshot keeps those answers beside what they depend on:

* **The plan** (the files, in order, their resolved keys, shown names and module
  names) depends on the listing of every folder the run looked into: the folders
  walked, the folders checked for a virtual environment, the folders asked for an
  ``__init__.py`` and the folders resolved. Adding, removing or renaming an entry
  changes its folder's mtime, so the plan is reused while every one of those
  folders has the (mtime, inode, ctime) it had.
* **A file's content key** is reused while the file has the (mtime, size, inode,
  ctime) it had when it was read, under the same shown and module names.

Git's "racy" rule applies to both: a folder or file changed less than two seconds
before the run that wrote the snapshot began (by its ctime: a mtime can be set to
anything) is not trusted (a second change within the same timestamp tick
could keep its stat), and is looked at again. What the snapshot does
not see: a file rewritten with the same size, mtime and ctime (nothing but a tool
that resets both does that), and a folder above the project root replaced by a
symlink while the root's own resolution stays the same. The project's root and
``src`` roots are found afresh each run and must match.

An entry is JSON, validated when read like every cache entry (a planted or
truncated one is ignored), and written atomically.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from . import cache as cachemod

FORMAT = 2  # 2: a folder's ctime; the time the run began
RACY_NS = 2_000_000_000  # a change this close to the writing is not trusted

# (path, given path, shown name, module, aliases)
PlanRow = Tuple[str, str, str, str, List[str]]


def clock_ns() -> int:
    """Now, for the racy rule (``settled``): when a run that writes an entry begins, when
    the language server takes its stats. (A test moves it on to stand for a later run.)"""
    return time.time_ns()


def settled(changed_ns: int, seen_ns: int) -> bool:
    """Whether a stat taken at ``seen_ns`` says what the file holds: its last change
    (its ctime, a file's or a folder's: no tool sets it) is more than ``RACY_NS``
    before then, so that a second change in the same clock step, which could leave the
    same stat, would have come after the stat was taken. A change time in the future (a
    server's clock ahead of ours) is never settled. A file's *mtime* can be set to
    anything (`cp -p`, `tar x`, `touch -d`): a future one says nothing of when the file
    was written, so the rule reads the ctime (session 38: a future mtime was trusted, and
    a copy in the same second with the same stat was taken for the first)."""
    return changed_ns < seen_ns - RACY_NS


def _folder_stat(path: str) -> Optional[List[int]]:
    """A folder's (mtime, inode, ctime): adding, removing or renaming an entry moves
    both times, and an archive unpacked with fixed dates sets the mtime back, never the
    ctime (before session 38 such a file was in no later plan)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return [st.st_mtime_ns, st.st_ino, st.st_ctime_ns]


def file_stat(path: "str | Path") -> Optional[List[int]]:
    """A regular file's (mtime, size, inode, ctime), or None."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return [st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns]


def _read_json(path: Path) -> object:
    """An entry's JSON, or None when it cannot be read or parsed (a planted FIFO, a
    symlink, garbage: ``cache._read_entry``); the caller validates its shape."""
    try:
        raw = cachemod._read_entry(path)
        return json.loads(raw.decode("utf-8")) if raw is not None else None
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None


def _ints(v: object, n: int) -> bool:
    return type(v) is list and len(v) == n and all(type(x) is int for x in v)


_FILE_ROW = (int, int, int, int, str, str, str)  # mtime, size, inode, ctime; shown, module, digest
_PLAN_ROW = (str, str, str, str, list)  # key, given, shown, module; aliases


def _strs(v: object) -> bool:
    return type(v) is list and all(type(x) is str for x in v)


class Snapshot:
    """One project's snapshot under a cache folder, for one plan key (``key``: the
    working folder, the paths named, the buffers' names, the settings that choose
    files). Read when made; ``save`` writes it when something changed."""

    def __init__(self, cache_dir: Optional[Path], key: str) -> None:
        self.path = Path(cache_dir) / "snapshot" / key[:2] / f"{key}.json" if cache_dir is not None else None
        self.cache_dir = cache_dir
        self._imports: Optional[ImportsMemo] = None
        self.written = 0  # when the run that wrote the entry read began (ns)
        self.began = clock_ns()  # when this run began, before it looked at anything
        self.folders: Dict[str, List[int]] = {}
        self.roots: List[str] = []
        self.plan: Optional[List[PlanRow]] = None
        self.named: List[str] = []
        self.files: Dict[str, list] = {}  # path -> [mtime, size, inode, ctime, shown, module, digest]
        self.changed = False
        self._fresh: Dict[str, list] = {}
        if self.path is not None:
            self._load()

    # ------------------------------------------------------------------ reading

    def _load(self) -> None:
        assert self.path is not None
        data = _read_json(self.path)
        if not (type(data) is dict and data.get("format") == FORMAT and type(data.get("written")) is int):
            return
        folders, files, plan = data.get("folders"), data.get("files"), data.get("plan")
        if not (type(folders) is dict and all(_ints(v, 3) for v in folders.values())):
            return
        # (each row's types at once: an editor's run reads every row of the project)
        if not (type(files) is dict and all(
                type(v) is list and tuple(map(type, v)) == _FILE_ROW for v in files.values())):
            return
        if plan is not None and not (type(plan) is dict and _strs(plan.get("roots")) and _strs(plan.get("named"))
                                     and type(plan.get("rows")) is list and all(
                    type(r) is list and tuple(map(type, r)) == _PLAN_ROW and (not r[4] or _strs(r[4]))
                    for r in plan["rows"])):
            return
        self.written = data["written"]
        self.folders = folders
        self.files = files
        if plan is not None:
            self.roots, self.named = plan["roots"], plan["named"]
            self.plan = [tuple(r) for r in plan["rows"]]  # type: ignore[misc]

    def _trusted(self, changed_ns: int) -> bool:
        return settled(changed_ns, self.written)

    def plan_for(self, roots: Sequence[Path]) -> Optional[Tuple[List[PlanRow], List[str]]]:
        """The remembered plan (rows, named paths) when the project's ``roots`` are the
        remembered ones and every folder it looked into is as it was; else None."""
        if self.plan is None or [str(r) for r in roots] != self.roots:
            return None
        for folder, was in self.folders.items():
            now = _folder_stat(folder)
            if now is None or now != was or not self._trusted(now[2]):
                return None
        return self.plan, self.named

    def digest(self, path: str, shown: str, module: str) -> Tuple[Optional[str], Optional[List[int]]]:
        """The remembered content key of the file at ``path`` (shown and named as
        given) when its stat is unchanged and old enough; and its stat now (None:
        not a regular file, read it to say why)."""
        now = file_stat(path)
        if now is None:
            return None, None
        was = self.files.get(path)
        if (was is not None and was[:4] == now and was[4] == shown and was[5] == module
                and self._trusted(now[3])):  # (its ctime: ``settled``)
            self._fresh[path] = was
            return was[6], now
        return None, now

    def imports(self) -> "ImportsMemo":
        """The imports memo of the cache folder, read the first time it is asked for
        (a run with no marker, whose project is an import closure)."""
        if self._imports is None:
            self._imports = ImportsMemo(self.cache_dir)
        return self._imports

    # ------------------------------------------------------------------ writing

    def note_plan(self, rows: List[PlanRow], named: List[str], roots: Sequence[Path], folders: Sequence[str]) -> None:
        """A plan made afresh and the folders it looked into."""
        stats = {}
        for f in dict.fromkeys(folders):
            s = _folder_stat(f)
            if s is None:
                return  # a folder that vanished under the walk: nothing is remembered
            stats[f] = s
        self.plan, self.named, self.roots, self.folders = rows, named, [str(r) for r in roots], stats
        self.changed = True

    def note_file(self, path: str, before: List[int], shown: str, module: str, digest: str) -> None:
        """A file read afresh: its stat taken before it was read, and its content key."""
        self._fresh[path] = [*before, shown, module, digest]
        if not self._trusted(before[3]):
            self.changed = True  # (so that it is trusted after the next writing)
        if self.files.get(path) != self._fresh[path]:
            self.changed = True

    def save(self) -> None:
        """Write the snapshot if anything changed: the plan (if one may be
        remembered), and the files seen by this run (a file no longer planned is
        forgotten)."""
        if self._imports is not None:
            self._imports.save()
        if set(self._fresh) != set(self.files):
            self.changed = True
        if self.path is None or not self.changed:
            return
        plan = None if self.plan is None else {
            "roots": self.roots, "named": self.named, "rows": [list(r) for r in self.plan]}
        # ("written": when this run began: a change after a folder was listed or a file
        # stat'ed, however long the run then took, is within the window or after it)
        data = {"format": FORMAT, "written": self.began, "folders": self.folders, "plan": plan,
                "files": self._fresh}
        try:
            cachemod.prepare(self.path.parent.parent.parent)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            cachemod.write_atomically(self.path, json.dumps(data, separators=(",", ":")).encode("utf-8"))
        except OSError:
            return


_IMPORTS_ROW = (int, int, int, int, int, str, bool, list)  # mtime, size, inode, ctime, seen; module, package, names


class ImportsMemo:
    """The imports each file names, remembered by its stat, for a run whose project is
    the import closure of the files named (no marker, no config: ``project.import_closure``).

    No plan can be remembered for such a run, since which files it reads depends on
    their text; each run read the imports of every file it reached again (held-out set
    99: 5.4 s of a 7.4 s one-file run on litellm's 2,752 files). The memo is one entry
    per cache folder, shared by the runs that name different files (an editor's, a
    pre-commit hook's): a file's row is reused while it has the (mtime, size, inode,
    ctime) it had when it was read, under the same module name, by the racy rule of
    ``settled`` (its ``seen``: when the run that read it began). The entry is named by
    the cache's salt, the user's secret with it. A file's imports are
    a list of absolute module names; which of them exist is looked up afresh each run.
    Rows of files no run reaches any more are dropped once the memo holds more than
    ``LIMIT`` of them."""

    LIMIT = 50_000

    def __init__(self, cache_dir: Optional[Path]) -> None:
        # (named by the salt, which holds the user's secret: a cache folder written by
        # another user or machine is never read, as every entry's key says)
        name = hashlib.sha256(("imports\0" + cachemod.salt()).encode("utf-8", "surrogatepass")).hexdigest()
        self.path = Path(cache_dir) / "imports" / f"{name}.json" if cache_dir is not None else None
        self.began = clock_ns()
        self.rows: Dict[str, list] = {}
        self.fresh: Dict[str, list] = {}
        self.changed = False
        if self.path is not None:
            self._load()

    def _load(self) -> None:
        assert self.path is not None
        data = _read_json(self.path)
        if not (type(data) is dict and data.get("format") == FORMAT and type(data.get("rows")) is dict):
            return
        rows = data["rows"]
        if all(type(v) is list and tuple(map(type, v)) == _IMPORTS_ROW and _strs(v[7]) for v in rows.values()):
            self.rows = rows

    def imports(self, path: str, module: str, package: bool, read: Callable[[], List[str]]) -> List[str]:
        """The imports of the file at ``path`` (named ``module``; ``package``: an
        ``__init__.py``): remembered, or ``read()`` and remembered."""
        now = file_stat(path)
        if now is None:
            return read()
        was = self.rows.get(path)
        if (was is not None and was[:4] == now and was[5] == module and was[6] is package
                and settled(now[3], was[4])):
            self.fresh[path] = was
            return list(was[7])
        names = read()
        self.fresh[path] = [*now, self.began, module, package, names]
        self.changed = True
        return names

    def renew(self) -> None:
        """A new analysis by the same process (the language server, which keeps the
        memo in memory): what the last one read is remembered, and what this one reads
        is seen now."""
        self.rows.update(self.fresh)
        self.fresh = {}
        self.began = clock_ns()

    def save(self) -> None:
        """Write the memo if a file was read afresh: this run's rows over the ones read,
        or this run's alone past ``LIMIT``."""
        if self.path is None or not self.changed:
            return
        rows = {**self.rows, **self.fresh}
        if len(rows) > self.LIMIT:
            rows = self.fresh
        try:
            cachemod.prepare(self.path.parent.parent)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            cachemod.write_atomically(self.path, json.dumps({"format": FORMAT, "rows": rows},
                                                            separators=(",", ":")).encode("utf-8"))
        except OSError:
            return
        self.rows, self.changed = rows, False
