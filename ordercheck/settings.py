"""Settings: the config file, the rules it loads and the command line's overrides,
resolved once into what a run reads (``Settings``), and the fingerprint of
everything in them that a finding can depend on (the incremental memos' keys).

This is the step before the pipeline's first phase: ``runner`` and the surfaces
load the settings, every phase reads them.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from . import config as configmod
from .errors import UsageError
from .rulebook import Rule, load_rules
from .vocabulary import BUILTIN_CLASSES, Vocabulary, argument_form


@dataclass
class Overrides:
    """What the command line says on top of the config file."""

    select: Optional[List[str]] = None
    ignore: List[str] = field(default_factory=list)
    extend_select: List[str] = field(default_factory=list)
    #: ``--exclude`` (replaces the config's ``exclude``) and ``--extend-exclude`` (adds
    #: to it): globs relative to the working directory, as a shell user writes them
    exclude: Optional[List[str]] = None
    extend_exclude: List[str] = field(default_factory=list)


@dataclass
class Settings:
    config: configmod.Config
    rules: Dict[str, Rule]
    vocab: Vocabulary
    selected: List[str]  # rule ids in force (before per-file ignores)
    project_root: Optional[Path] = None  # the discovered config's folder; None: found from the paths


    def rule_list(self) -> List[Rule]:
        return [self.rules[c] for c in self.selected]


def specificity(code: str, selectors: Sequence[str]) -> int:
    """How specifically ``selectors`` name ``code``: the longest matching prefix
    (``ALL``: 0), -1 when none does."""
    best = -1
    for s in selectors:
        if s == "ALL":
            best = max(best, 0)
        elif code.startswith(s):
            best = max(best, len(s))
    return best


Layer = Tuple[Optional[Sequence[str]], Sequence[str], Sequence[str]]  # (select, extend-select, ignore)


def select_codes(rules: Dict[str, Rule], select: Optional[Sequence[str]], extend: Sequence[str], ignore: Sequence[str]) -> List[str]:
    """ruff's rule within one layer: the more specific of a select and an ignore wins; ties ignore."""
    return layered_codes(rules, [(select, extend, ignore)])


def layered_codes(rules: Dict[str, Rule], layers: Sequence[Layer]) -> List[str]:
    """The rules in force from ``layers`` (the config's, then the command line's), as
    ruff resolves them: the highest layer that has a ``select`` is the basis (the
    default set when none has one; it counts as unspecific as ``ALL``, so any ignore
    removes a default rule), and it and each higher layer then add what their
    ``select``/``extend-select`` name and remove what their ``ignore`` names, the more
    specific prefix winning within a layer (ties: ignore). So ``--select OC101`` turns
    OC101 on whatever the config ignores, and ``--ignore OC1`` turns off a rule the
    config selects (a review, session 41). OC900 is turned off only by its exact code."""
    base = max((i for i, (select, _, _) in enumerate(layers) if select is not None), default=-1)
    chosen = {code for code, rule in rules.items() if rule.default} if base < 0 else set()
    for i, (select, extend, ignore) in enumerate(layers):
        if i < base:
            continue  # (below the basis: its modifiers are the basis's to replace)
        add = [*(select or []), *extend] if i == base else list(extend)
        for code in rules:
            a, d = specificity(code, add), specificity(code, ignore)
            if a < 0 and d < 0:
                continue
            if a > d:
                chosen.add(code)
            else:
                chosen.discard(code)
    out = []
    for code, rule in rules.items():
        if rule.always_on:  # parse errors: only its exact code turns it off, and naming it again on
            on = True
            for i, (select, extend, ignore) in enumerate(layers):
                if i >= base:
                    if code in ignore:
                        on = False
                    elif code in [*(select or []), *extend] or (i > base and specificity(code, extend) > 0):
                        on = True
            if on:
                out.append(code)
        elif code in chosen:
            out.append(code)
    return out


def load_settings(config_file: Optional[Path], start: Path, overrides: Overrides = Overrides(), isolated: bool = False) -> Settings:
    discovered = False
    path: Optional[Path]
    if config_file is not None:
        if config_file.is_dir():
            raise UsageError("is a folder; --config names a file (ordercheck.toml or pyproject.toml)",
                             str(config_file))
        if not config_file.is_file():
            raise UsageError("config file does not exist", str(config_file))
        path, table, tool_layout = configmod.load_file(config_file)
    else:
        found = None if isolated else configmod.discover(start)
        path, table = found if found else (None, {})
        tool_layout = path is not None and path.name == "pyproject.toml"
        discovered = found is not None
    config = configmod.parse(table, path, tool_layout)
    rules = load_rules(configmod.rule_files(config))
    known = list(rules)
    configmod.validate_codes(config, known)
    for key, codes in (("--select", overrides.select or []), ("--ignore", overrides.ignore), ("--extend-select", overrides.extend_select)):
        configmod.check_codes(codes, known, None, key)
    config = _with_excludes(_above_root(config), overrides)
    selected = layered_codes(rules, [(config.select, config.extend_select, config.ignore + config.extend_ignore),
                                     (overrides.select, overrides.extend_select, overrides.ignore)])
    vocab = Vocabulary.build(config.events, config.extend_events, config.terminal_markers, config.exclude_events,
                             config.transaction_functions)
    root = path.parent if discovered and path is not None else None
    check_event_classes(config, rules, vocab)
    return Settings(config, rules, vocab, selected, root)


def _with_excludes(config: configmod.Config, overrides: Overrides) -> configmod.Config:
    """The config's ``exclude`` with the command line's on top. A command-line glob is
    written from the working directory (``--extend-exclude 'tests/**'`` in the
    project's root, or in one of its folders), while ``exclude`` globs are relative
    to the config's folder: one with a ``/`` is re-anchored there (a glob without one
    matches a name at any depth, as in the config)."""
    if overrides.exclude is None and not overrides.extend_exclude:
        return config
    for key, globs in (("--exclude", overrides.exclude or []), ("--extend-exclude", overrides.extend_exclude)):
        for g in globs:
            try:
                configmod.compile_glob(g)
            except ValueError as exc:
                raise UsageError(f"bad glob {g!r}: {exc}", None, key) from None
    base = list(config.exclude) if overrides.exclude is None else []
    here = Path.cwd()
    added = [a for g in (overrides.exclude or []) + overrides.extend_exclude for a in anchor_glob(g, here, config.root)]
    return dataclasses.replace(config, exclude=base + added)


def _above_root(config: configmod.Config) -> configmod.Config:
    """The config's ``exclude`` and ``per-file-ignores`` globs that climb out of its
    folder (``..``, ``../legacy/**``) anchored as the command line's are
    (``anchor_glob`` from the config's folder): a path outside the project is matched
    absolute, so such a glob written relative matched nothing (held-out set 268;
    docs/decisions.md "A configuration's glob above its folder")."""
    def climbs(g: str) -> bool:
        return g.rstrip("/") == ".." or g.startswith("../")

    if not any(climbs(g) for g in (*config.exclude, *config.per_file_ignores)):
        return config
    exclude = [a for g in config.exclude for a in (anchor_glob(g, config.root, config.root) if climbs(g) else [g])]
    ignores: Dict[str, List[str]] = {}
    for g, codes in config.per_file_ignores.items():
        for a in (anchor_glob(g, config.root, config.root) if climbs(g) else [g]):
            ignores[a] = list(dict.fromkeys(ignores.get(a, []) + list(codes)))
    return dataclasses.replace(config, exclude=exclude, per_file_ignores=ignores)


def anchor_glob(glob: str, here: Path, root: Path) -> List[str]:
    """``glob``, written relative to ``here`` (or absolute), as ``exclude`` globs are
    matched: relative to ``root``, or absolute for a folder outside it
    (``sources.relative_path``). A glob that names a place (one with a ``/`` inside,
    ``.``, ``..``, a leading ``./`` or ``../``, or an absolute one) comes back
    anchored: ``./tests`` (``sources.path_matches``), so that ``$PWD/tests`` is this
    ``tests`` and not every folder of that name (a review, session 31); a bare name
    (``tests``, ``tests/``) still means that name at any depth. The root itself, or a
    folder holding it, is ``./**``, everything in the project (and, for a folder above
    it, that folder's files outside the project, by their absolute paths)."""
    trailing = glob.endswith("/") and glob.rstrip("/") != ""
    bare = glob.rstrip("/")
    if glob.startswith("/"):
        whole = _real_prefix(posixpath.normpath(glob))
    elif ("/" not in bare and bare not in (".", "..")) or glob.startswith("**"):
        return [glob]
    else:
        whole = _real_prefix(posixpath.normpath(Path(os.path.realpath(here)).as_posix() + "/" + glob))
    real_root = Path(os.path.realpath(root)).as_posix().rstrip("/")
    if whole == real_root:
        return ["./**"]  # the project folder itself (`$PWD`, `.` from the root)
    if real_root.startswith(whole.rstrip("/") + "/"):
        return ["./**", whole]  # a folder above the project (`..` from the root)
    if not whole.startswith(real_root + "/"):
        return [whole]  # outside the project: matched against absolute paths
    return ["./" + whole[len(real_root) + 1:] + ("/" if trailing else "")]


def _real_prefix(glob: str) -> str:
    """An absolute glob with its literal folders resolved (a symlinked project path
    means the folder it points to, as the walk's paths do): the folders before the
    first component with a glob character."""
    parts = glob.split("/")
    literal = 0
    for part in parts[1:]:
        if any(c in part for c in "*?["):
            break
        literal += 1
    if literal == 0:
        return glob
    head = os.path.realpath("/".join(parts[:literal + 1]) or "/")
    rest = parts[literal + 1:]
    return "/".join([Path(head).as_posix().rstrip("/")] + rest) if rest else Path(head).as_posix()


def check_event_classes(config: configmod.Config, rules: Dict[str, Rule], vocab: Vocabulary) -> None:
    """A rule must name classes that exist (an error naming the rule file), and a
    class named in config must be a built-in class or one a loaded rule uses: any
    other is an unknown key of ``events``/``extend-events`` (semantics §Configuration:
    an error, exit 2, naming the file and the key, with a suggestion). As a warning
    it let a typo (``sav``) leave the defaults in force while CI passed
    (docs/decisions.md "Session 19")."""
    import difflib

    used = {c.lstrip("!") for r in rules.values() for role in (r.first, r.then, r.barrier, r.unless_after, r.event) for c in role}
    known = set(vocab.patterns)  # classes that have patterns (defaults or config)
    file = str(config.path) if config.path else "<config>"
    # the rules first: a rule naming `notifyy` where the config defines `notify` is the
    # rule file's typo, not the config's (a review, session 41)
    for r in rules.values():
        for role, expr in (("first", r.first), ("then", r.then), ("barrier", r.barrier),
                           ("unless-after", r.unless_after), ("event", r.event)):
            for c in expr:
                name = c.lstrip("!")
                if name not in known:
                    close = difflib.get_close_matches(name, sorted(known), n=1)
                    hint = f"did you mean `{close[0]}`?" if close else "define it under [events]"
                    if close and close[0] not in used and close[0] not in BUILTIN_CLASSES:
                        # (which of the two is the typo only the user knows: name both files)
                        hint = (f"did you mean `{close[0]}`, which {file} defines and no rule uses? "
                                "one of the two names is a typo")
                    raise UsageError(f"unknown event class {name!r} ({hint})", r.source, role)
    for key, table in (("events", config.events), ("extend-events", config.extend_events),
                       ("exclude-events", config.exclude_events)):
        for name, patterns in table.items():
            for pattern in patterns:
                # `*.execute("COMMIT*` (the closing `")` left out) is no argument part and
                # no callee a call renders: it would match nothing, silently (a review)
                if pattern.startswith("!"):
                    # `transaction = ["!*"]`: `!` negates a class in a rule's class list,
                    # never a pattern; the pattern would match nothing, silently (set 468)
                    raise UsageError(f"bad pattern {pattern!r}: a pattern is never negated with `!`; to take calls "
                                     "out of a class, list them under [exclude-events]", file, f"{key}.{name}")
                if re.search(r"""\(["']""", pattern) and argument_form(pattern) is None:
                    raise UsageError(f"bad pattern {pattern!r}: an argument part is a glob in quotes inside "
                                     "parentheses at the pattern's end, `*.execute(\"COMMIT*\")`", file,
                                     f"{key}.{name}")
            if name not in used and name not in BUILTIN_CLASSES:
                close = difflib.get_close_matches(name, sorted(used | set(BUILTIN_CLASSES)), n=1)
                hint = f" (did you mean `{close[0]}`?)" if close else ""
                if name in configmod.KNOWN_KEYS:  # (a top-level key written below the table)
                    hint = configmod.top_level_hint(name, key)
                else:
                    # `transaction-function = [...]`: a top-level key misspelt below the
                    # table, not the class it resembles (held-out set 315)
                    top = difflib.get_close_matches(name, configmod.KNOWN_KEYS, n=1, cutoff=0.85)
                    if top and (not close or difflib.SequenceMatcher(None, name, top[0]).ratio()
                                > difflib.SequenceMatcher(None, name, close[0]).ratio()):
                        hint = (f" (did you mean `{top[0]}`? it is a top-level setting, and every line after"
                                f" a table's header belongs to that table: write it before the `{key}` table)")
                raise UsageError(f"unknown event class {name!r}: no built-in class and no rule uses it{hint}",
                                 file, f"{key}.{name}")


def cache_folder(config: configmod.Config, base: Path) -> Path:
    """The cache's folder: the config's ``cache-dir``, relative to the config's folder
    as every path in it is, else ``base/.ordercheck_cache`` (``base``: the project
    root)."""
    if config.cache_dir:
        return (config.root if config.path is not None else base) / config.cache_dir
    return base / ".ordercheck_cache"


def settings_fingerprint(settings: Settings) -> str:
    """Everything of the settings a finding can depend on: the configuration, the
    rules loaded (shipped or the config's own files, by content), the codes in force
    and the vocabulary."""
    h = hashlib.sha256()
    for part in (repr(settings.config), repr(settings.rules), repr(settings.selected), repr(settings.vocab)):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()