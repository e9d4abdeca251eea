"""Configuration (semantics §Surfaces): discovery, validation, and the merged settings of a run.

Discovered from the first path (or the current directory) upward: ``ordercheck.toml``,
``.ordercheck.toml``, or ``pyproject.toml`` with a ``[tool.ordercheck]`` table; the
first found wins. Every problem is a ``UsageError`` naming the file and the key
(exit 2), with a suggestion where a close key exists.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .errors import UsageError, read_toml
from .filepaths import location, root_relative
from .kinds import EventClass
from .patterns import literal_subscripts

LIST_KEYS = (
    "include", "exclude", "select", "ignore", "extend-select", "extend-ignore",
    "rules", "swallow-types", "terminal-markers", "src", "transaction-functions",
)
TABLE_KEYS = ("events", "extend-events", "exclude-events", "per-file-ignores")
SCALAR_KEYS = {"cache-dir": str}
_SCALAR_NAMES = {str: "a string (a folder's path)"}
KNOWN_KEYS = LIST_KEYS + TABLE_KEYS + tuple(SCALAR_KEYS)
#: the tables keyed by event class
EVENT_TABLES = ("events", "extend-events", "exclude-events")
CODE_KEYS = ("select", "ignore", "extend-select", "extend-ignore")
GLOB_KEYS = ("include", "exclude", "swallow-types", "transaction-functions")


@dataclass
class Config:
    """Settings after the file, before the command line overrides them."""

    path: Optional[Path] = None  # the config file, if any
    root: Path = field(default_factory=Path.cwd)  # its folder: relative paths start here
    include: List[str] = field(default_factory=list)
    src: List[str] = field(default_factory=list)  # roots for module names (semantics §Surfaces); empty: root and root/src
    exclude: List[str] = field(default_factory=list)
    select: Optional[List[str]] = None
    ignore: List[str] = field(default_factory=list)
    extend_select: List[str] = field(default_factory=list)
    extend_ignore: List[str] = field(default_factory=list)
    rules: List[str] = field(default_factory=list)
    swallow_types: List[str] = field(default_factory=list)
    # functions (``module.qualname`` globs) whose body a framework runs inside a
    # transaction (a request's, a hook's): as under ``@transaction.atomic``
    transaction_functions: List[str] = field(default_factory=list)
    terminal_markers: Optional[List[str]] = None
    events: Dict[str, List[str]] = field(default_factory=dict)
    extend_events: Dict[str, List[str]] = field(default_factory=dict)
    exclude_events: Dict[str, List[str]] = field(default_factory=dict)  # calls never of the class
    per_file_ignores: Dict[str, List[str]] = field(default_factory=dict)
    cache_dir: Optional[str] = None
    # the keys were read from a `[tool.ordercheck]` table (a pyproject, or a named
    # TOML file that holds only that table): how the file spells its tables
    tool_layout: bool = False

    def table(self, name: str) -> str:
        """How this configuration's file spells the table ``name``: ``[extend-events]``
        in an ``ordercheck.toml``, ``[tool.ordercheck.extend-events]`` under a
        ``[tool.ordercheck]`` (or where there is no file yet: where most projects keep it)."""
        if self.path is not None and not self.tool_layout:
            return f"[{name}]"
        return f"[tool.ordercheck.{name}]"


CONFIG_NAMES = ("ordercheck.toml", ".ordercheck.toml", "pyproject.toml")


def discover(start: Path) -> Optional[Tuple[Path, dict]]:
    """The first config file from ``start`` upward, with its ordercheck table: from a
    folder's real place, or from the folder a file is named in (a symlinked file's
    config is its link's project's, not its target's: ``filepaths.location``)."""
    folder = Path(os.path.realpath(start)) if start.is_dir() else location(start).parent
    for d in [folder, *folder.parents]:
        found = config_in(d)
        if found is not None:
            return found
    return None


def config_in(d: Path) -> Optional[Tuple[Path, dict]]:
    """The config file of folder ``d`` itself (the first of ``CONFIG_NAMES`` there; a
    ``pyproject.toml`` only with a ``[tool.ordercheck]`` table), or None."""
    for name in CONFIG_NAMES:
        p = d / name
        if not p.is_file():
            continue
        data = read_toml(p, "config")
        if name == "pyproject.toml":
            table = _tool_table(data, p)
            if table is None:
                continue
            return p, table
        return p, data
    return None


def load_file(path: Path) -> Tuple[Path, dict, bool]:
    """An explicitly named config: ``pyproject.toml`` (its ``[tool.ordercheck]``),
    or any other TOML file with the keys at the top level — or, when it holds only a
    ``[tool.ordercheck]`` table, that table. The last item: whether the keys were
    read from ``[tool.ordercheck]`` (``Config.tool_layout``)."""
    data = read_toml(path, "config")
    if path.name == "pyproject.toml":
        return path, _tool_table(data, path) or {}, True
    tool = data.get("tool")
    if isinstance(tool, dict) and "ordercheck" in tool and set(data) == {"tool"}:
        return path, tool["ordercheck"], True
    return path, data, False


def _tool_table(data: dict, path: Path) -> Optional[dict]:
    """``[tool.ordercheck]`` of a pyproject, or None; a non-table is an error."""
    tool = data.get("tool")
    if tool is None:
        return None
    if not isinstance(tool, dict):
        raise UsageError("must be a table", str(path), "tool")
    table = tool.get("ordercheck")
    if table is not None and not isinstance(table, dict):
        raise UsageError("must be a table", str(path), "tool.ordercheck")
    return table


def top_level_hint(name: str, table: str) -> str:
    """What a top-level setting written below an events table is told (held-out set 70:
    every line after a table's header belongs to that table)."""
    return (f" (`{name}` is a top-level setting, and every line after a table's header "
            f"belongs to that table: write it before the `{table}` table)")


def _check_list(value: object, file: str, key: str) -> List[str]:
    if isinstance(value, str):
        raise UsageError(f"must be a list of strings, not a string (write [{value!r}])", file, key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UsageError("must be a list of strings", file, key)
    return list(value)


# A compiled path glob: a tuple of tokens, each ("lit", ch), ("any",) for ``?``,
# ("class", negated, ((lo, hi), ...)) for ``[...]``, ("star",) for ``*``,
# ("dstar",) for ``**`` and ("dstardir",) for ``**/``.
GlobTokens = Tuple[tuple, ...]


def compile_glob(pattern: str) -> GlobTokens:
    """Tokens of a path glob (``**`` crosses folders, ``*``, ``?`` and ``[...]`` do
    not); raises ``ValueError`` naming what is wrong (unclosed or empty ``[``, a
    reversed range)."""
    if not pattern:
        raise ValueError("empty glob")
    out: List[tuple] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            if not out or out[-1] != ("dstardir",):
                out.append(("dstardir",))
            i += 3
            continue
        if pattern.startswith("**", i):
            while i < n and pattern[i] == "*":
                i += 1
            out.append(("dstar",))
            continue
        if c == "*":
            if not out or out[-1] != ("star",):
                out.append(("star",))
        elif c == "?":
            out.append(("any",))
        elif c == "[":
            j = i + 1
            negated = j < n and pattern[j] in "!^"
            if negated:
                j += 1
            start = j
            if j < n and pattern[j] == "]" and pattern.find("]", j + 1) != -1:
                j += 1  # a leading `]` is a member, as in fnmatch
            end = pattern.find("]", j)
            if end == -1:
                raise ValueError("unclosed `[`")
            body = pattern[start:end]
            if not body:
                raise ValueError("empty character class `[]`")
            ranges = []
            k = 0
            while k < len(body):
                if k + 2 < len(body) and body[k + 1] == "-":
                    lo, hi = body[k], body[k + 2]
                    if lo > hi:
                        raise ValueError(f"reversed range `{lo}-{hi}`")
                    ranges.append((lo, hi))
                    k += 3
                else:
                    ranges.append((body[k], body[k]))
                    k += 1
            out.append(("class", negated, tuple(ranges)))
            i = end
        else:
            out.append(("lit", c))
        i += 1
    return tuple(out)


def check_glob(pattern: str, file: str, key: str, written: Optional[str] = None) -> None:
    try:
        compile_glob(pattern)
    except ValueError as exc:
        raise UsageError(f"bad glob {written or pattern!r}: {exc}", file, key) from None


def check_codes(codes: Sequence[str], known: Sequence[str], file: Optional[str], key: str) -> List[str]:
    out = []
    for code in codes:
        c = code.strip().upper()
        if not c:
            continue
        if c != "ALL" and not any(k.startswith(c) for k in known):
            close = difflib.get_close_matches(c, list(known), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise UsageError(f"unknown rule code {code!r}{hint}", file, key)
        out.append(c)
    return out


def _looks_like_patterns(value: object) -> bool:
    """Whether an unknown key's value reads as call patterns: a non-empty list of strings."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def parse(table: dict, path: Optional[Path], tool_layout: Optional[bool] = None) -> Config:
    """Validate a config table (the keys of ``[tool.ordercheck]``). ``tool_layout``:
    whether they came from a ``[tool.ordercheck]`` table (by default: a pyproject's)."""
    file = str(path) if path else "<config>"
    if tool_layout is None:
        tool_layout = path is not None and path.name == "pyproject.toml"
    config = Config(path=path, root=path.parent if path else Path.cwd(), tool_layout=tool_layout)
    for key, value in table.items():
        if key not in KNOWN_KEYS:
            close = difflib.get_close_matches(key, KNOWN_KEYS, n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else ""
            if key in {c.value for c in EventClass}:
                # `transaction = [...]` at the top level: an event class's patterns go in
                # a table (held-out set 306: the hint said `transaction-functions`)
                events = "[tool.ordercheck.extend-events]" if tool_layout else "[extend-events]"
                hint = f" (an event class's patterns go under {events}: `{key} = [...]` there)"
            elif not close and _looks_like_patterns(value):
                # `notify = ["*.send_mail"]`: a project's own event class, written at the
                # top level (its rule file is read later, so the name cannot be checked here)
                events = "[tool.ordercheck.extend-events]" if tool_layout else "[extend-events]"
                hint = (f" (if `{key}` is an event class of your rules, its patterns go under"
                        f" {events}: `{key} = [...]` there)")
            elif key == "tool" and path is not None and path.name != "pyproject.toml":
                hint = (f" (in {path.name} the keys stand at the top level: write `select = [...]`,"
                        " `[events]`, ... without `[tool.ordercheck]`)")
            raise UsageError(f"unknown key{hint}", file, key)
        attr = key.replace("-", "_")
        if key in LIST_KEYS:
            items = _check_list(value, file, key)
            if key in CODE_KEYS:
                items = [c.strip().upper() for c in items if c.strip()]
            if key in GLOB_KEYS:
                for p in items:
                    check_glob(p, file, key)
            setattr(config, attr, items)
        elif key in TABLE_KEYS:
            if not isinstance(value, dict):
                raise UsageError("must be a table", file, key)
            parsed: Dict[str, List[str]] = {}
            for sub, pats in value.items():
                if key in EVENT_TABLES and sub in KNOWN_KEYS and not isinstance(pats, list):
                    raise UsageError(top_level_hint(sub, key).strip(" ()"), file, f"{key}.{sub}")
                items = _check_list(pats, file, f"{key}.{sub}")
                if key == "per-file-ignores":
                    check_glob(sub, file, f"{key}.{sub}")
                    items = [c.strip().upper() for c in items if c.strip()]
                else:
                    for p in items:  # (`x[].m`: the rendered subscript, ``patterns``)
                        check_glob(literal_subscripts(p), file, f"{key}.{sub}", p)
                parsed[sub] = items
            setattr(config, attr, parsed)
        else:
            typ = SCALAR_KEYS[key]
            if not isinstance(value, typ):
                raise UsageError(f"must be {_SCALAR_NAMES.get(typ, typ.__name__)}", file, key)
            setattr(config, attr, value)
    return config


def rule_files(config: Config) -> List[Path]:
    """The extra rule files named by ``rules``: globs relative to the config's folder."""
    out: List[Path] = []
    for pattern in config.rules:
        p = Path(pattern)
        base = p if p.is_absolute() else config.root / p
        if any(ch in pattern for ch in "*?["):
            anchor = Path(base.anchor) if base.is_absolute() else config.root
            rel = str(base.relative_to(anchor)) if base.is_absolute() else pattern
            matches = sorted(anchor.glob(rel))
            if not matches:
                raise UsageError(f"no rule file matches {pattern!r} (looked for {base})",
                                 str(config.path or "<config>"), "rules")
            out.extend(matches)
        else:
            if not base.is_file():
                # (where it was looked for: relative to the config's folder, which a
                # `--config` elsewhere makes another than the working one; held-out set 192)
                raise UsageError(f"rule file {pattern!r} does not exist (looked for {base})",
                                 str(config.path or "<config>"), "rules")
            out.append(base)
    return out


def validate_codes(config: Config, known: Sequence[str]) -> None:
    """Codes named in the config must name a rule (once the rule files are loaded)."""
    file = str(config.path) if config.path else "<config>"
    for key in CODE_KEYS:
        check_codes(getattr(config, key.replace("-", "_")) or [], known, file, key)
    for glob, codes in config.per_file_ignores.items():
        try:
            check_codes(codes, known, file, f"per-file-ignores.{glob}")
        except UsageError as exc:
            if glob not in KNOWN_KEYS:
                raise
            # `rules = [...]` written below `[per-file-ignores]` (held-out set 315: "unknown
            # rule code 'X.TOML'")
            raise UsageError(top_level_hint(glob, "per-file-ignores").strip(" ()"), file,
                             f"per-file-ignores.{glob}") from exc


def relative_to_root(path: str, root: Path) -> str:
    """``path`` (as displayed, relative to the current directory) relative to the
    project root, with ``/``, a symlinked file by its own name (``filepaths.location``:
    a baseline written in one folder matches a run from another); a path outside the
    root stays as it is, with ``/``."""
    try:
        rel = root_relative(path, root)
    except OSError:
        rel = None
    return Path(path).as_posix() if rel is None else rel

