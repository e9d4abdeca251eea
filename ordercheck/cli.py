"""The command line (semantics §Surfaces): a thin click layer over ``runner``.

Exit codes: 0 no findings, 1 findings, 2 usage, config or internal error (one line on
stderr naming the file and the key or argument; a traceback only with ``--verbose``).
The engine failing on one function is that function's OC901 (``runner.check_file``),
not an exit 2; ``--verbose`` shows its traceback (``runner.LOG``).
"""
from __future__ import annotations

import dataclasses
import functools
import json
import logging
import os
import signal
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, AbstractSet, Callable, Dict, List, Optional, Sequence, Set, Tuple

import click

from . import __version__, errors, lazy, resources, runner
from . import baseline as baselinemod
from . import config as configmod
from .atomic import atomic_write
from .errors import UsageError
from .filepaths import location
from .project import common_start, explicit_config_root, find_root, is_marked
from .reporters import FORMATS
from .reporters.text import json_statistics, summary_line
from .reporters.text import statistics as text_statistics

# libcst and networkx stay unimported unless a run needs them (a warm run does not)
if TYPE_CHECKING:  # the real modules, for the type checker
    from . import diagnose
    from . import fixes as fixesmod
    from .findings import Finding
    from .reporters import dot
else:
    diagnose = lazy.module("ordercheck.diagnose", globals(), "diagnose")
    fixesmod = lazy.module("ordercheck.fixes", globals(), "fixesmod")
    dot = lazy.module("ordercheck.reporters.dot", globals(), "dot")

CONTEXT = {"help_option_names": ["-h", "--help"]}


def _codes(value: Optional[str], option: str = "") -> Optional[List[str]]:
    """The codes of a comma-separated option; None when it was not given. Given but
    empty (``--select ""``, an unset ``$RULES`` in CI) is an error, as an unknown
    code is: it would otherwise check nothing and pass."""
    if value is None:
        return None
    codes = [c.strip().upper() for c in value.split(",") if c.strip()]
    if not codes and option:
        raise UsageError("no rule code given (an empty value would check nothing)", key=option)
    return codes


def _globs(values: Sequence[str]) -> Optional[List[str]]:
    """Globs of a repeatable, comma-separated option; None when it was not given."""
    if not values:
        return None
    return [g.strip() for v in values for g in v.split(",") if g.strip()]


def _use_color(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    # (no stdout at all, `ordercheck src >&-`: nothing to colour)
    return sys.stdout is not None and sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def explain(code: str, rules) -> str:
    rule = rules.get(code.upper())
    if rule is None:
        raise UsageError(f"unknown rule code {code!r} (see --list-rules)", key="--explain")
    default = "on by default" if rule.default else "off by default (select it to use it)"
    return (
        f"# {rule.id} {rule.name}\n\n"
        f"Severity: {rule.severity}; {default}.\n"
        f"Contract: {rule.summary()}\n\n"
        f"{rule.explanation}\n"
        + ("\n" + rule.documented_examples() if rule.documented_examples() else "")
    )


class _PathArg(click.Path):
    """A path argument; an empty one (a variable that expanded to nothing) is an
    error, not the working folder."""

    def convert(self, value, param, ctx):
        if isinstance(value, (str, bytes)) and not value:
            self.fail("an empty path names no file", param, ctx)
        return super().convert(value, param, ctx)


def other_configs(paths: Sequence[Path], in_force: Optional[Path], said: Optional[set] = None) -> List[str]:
    """A warning per configuration file that a named path lies under but the run does
    not use: one run uses one configuration, the one found from the first path, so a
    pre-commit hook that names files of a nested project (`sub/ordercheck.toml`) checks
    them under the outer one. Said, never silent (docs/configuration.md)."""
    nearest: Dict[Path, Optional[Path]] = {}  # folder -> its config, or the nearest above it

    def config_of(folder: Path) -> Optional[Path]:
        chain = []
        while folder not in nearest:
            chain.append(folder)
            try:
                found = configmod.config_in(folder)
            except UsageError:  # (a broken nested config: said when that project is checked)
                found = None
            if found is not None or folder.parent == folder:
                nearest[folder] = found[0] if found else None
                break
            folder = folder.parent
        for f in chain:
            nearest[f] = nearest[folder]
        return nearest[folder]

    unused: Dict[Path, str] = {}
    for p in paths:
        real = Path(os.path.realpath(p)) if os.path.isdir(p) else location(p).parent  # (a link: where it is named)
        cfg = config_of(real)
        if cfg is not None and cfg != in_force and cfg not in unused and (said is None or cfg not in said):
            unused[cfg] = str(p)
    if said is not None:
        said.update(unused)  # (``said``: the configuration files warned about already)
    used = runner.display_path(in_force) if in_force is not None else "none"
    return [f"ordercheck: warning: {shown} is under {runner.display_path(cfg)}, which this run does not use (one run "
            f"uses one configuration, the one found from the first path: {used}); check that project in a run "
            "of its own" for cfg, shown in unused.items()]


def rules_json(rules) -> str:
    """``--list-rules --format json``: one object per rule."""
    return json.dumps([{"code": r.id, "name": r.name, "severity": r.severity, "default": r.default,
                        "kind": r.kind, "contract": r.summary()} for r in rules.values()], indent=2) + "\n"


def rules_table(rules) -> str:
    rows = [(r.id, r.name, r.severity, "on" if r.default else "off", r.summary()) for r in rules.values()]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    out = []
    for row in rows:
        out.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + "  " + row[4])
    return "\n".join(out) + "\n"


def _graphed_function(functions, qual: str, file: str):
    """The function ``QUALNAME`` names, or ``QUALNAME@LINE`` of several of that name (a
    property's getter and setter, a function defined twice: a blind probe, session 60),
    by a line of its own (its ``def`` to its last statement)."""
    line: Optional[int] = None
    if "@" in qual and qual.rsplit("@", 1)[1].isdigit():
        qual, at = qual.rsplit("@", 1)
        line = int(at)
    named = [f for f in functions if f.qualname == qual]
    if not named:
        every = [f.qualname for f in functions]
        # (the first twenty, and how many more: a held-out set read the cut list as all)
        names = ", ".join(every[:20]) + (f", and {len(every) - 20} more" if len(every) > 20 else "")
        raise UsageError(f"no function {qual!r} in {file} (there are: {names})", key="--graph")
    if line is not None:
        def holds(f) -> bool:
            end = max([f.span.end_line] + [st.span.end_line for st in f.body])
            return f.span.line <= line <= end
        named = [f for f in named if holds(f)][-1:]
        if not named:
            raise UsageError(f"no function {qual!r} in {file} holds line {line}", key="--graph")
    if len(named) > 1:
        lines = ", ".join(str(f.span.line) for f in named)
        raise UsageError(f"{qual!r} is defined {len(named)} times in {file} (lines {lines}): name one as "
                         f"{qual}@LINE", key="--graph")
    return named[0]


def graph_dot(spec: str, paths: List[Path], settings: runner.Settings) -> str:
    """The DOT of ``FILE:QUALNAME`` with the witness edges of its findings: the
    pipeline's phases 1-5 (``runner``) for one function, on the graph the contracts
    ran on (infeasible walks pruned, so the witness paths are paths in it)."""
    if ":" not in spec:
        raise UsageError("expected FILE:QUALNAME (e.g. src/run.py:Runtime.complete)", key="--graph")
    file, qual = spec.rsplit(":", 1)
    path = Path(file)
    if not path.is_file():
        raise UsageError(f"no such file {file!r}", key="--graph")
    project, reported, _ = runner.project_facts([path], settings)  # summaries see the whole project
    target = next(f for f in project if f.path in reported)
    if target.error is not None:
        raise UsageError(f"{file} cannot be parsed: {target.error.message}", key="--graph")
    summ = runner.project_summaries(project, settings)
    fn = _graphed_function(target.functions, qual, file)
    checked = runner.check_function(fn, target.path, settings, summ, runner.contract_rules(settings.rule_list()))
    classes, callees = checked.sets.performs, checked.sets.callees
    via = {}
    for n, callee in callees.items():
        if n in classes:
            call = checked.graph.nodes[n].get("call") if n in checked.graph else None
            flags = call.flags if call is not None else ()
            # (one chain once: a call that appends and writes a file through one helper
            # call names it for both; held-out set 265)
            text = "; ".join(dict.fromkeys(filter(None, (diagnose.via_text(summ, callee, c, flags=flags)[0]
                                                         for c in sorted(classes[n])))))
            if text:
                via[n] = text
    return dot.render(checked.graph, classes, [h.path for h in checked.hits], via)


NOTHING_MATCHED_CLASSES = frozenset({"save", "append", "terminal-append"})


def nothing_matched_note(files: int, unread: int = 0, table: str = "[tool.ordercheck.extend-events]",
                         also: Sequence[str] = ()) -> str:
    """semantics §Surfaces: no `save` and no `append` event in the files checked. A
    text run prints it on stderr; the machine formats carry it in their output (JSON's
    ``notes``, SARIF's tool notifications, a GitHub ``::notice::``), so a run with an
    empty vocabulary never looks like a clean one (held-out set 13). It names the
    contracts that read those classes: OC301 (files) and OC204 (handlers) did check,
    and their findings may stand beside it (session 35's sweep). ``unread``: files
    that could not be parsed or read (OC900, OC901), which may hold events: the claim
    is about the others (``files`` counts them too). ``table``: the extend-events
    table as the configuration's file spells it (``Config.table``). ``also``: the
    project's own selected rules that read those classes, named beside the built-in
    range (held-out set 299: a `notify` rule's `then = ["save"]` had nothing to check
    either, unsaid)."""
    read = files - unread
    what = "the file checked holds" if read == 1 else f"the {read} files checked hold"
    more = ""
    if unread:
        what = "the file read holds" if read == 1 else f"the {read} files read hold"
        more = f" ({unread} more could not be read)"
    return (
        f"{what} no `save` and no `append` event{more}, so the state and ledger contracts "
        f"({', '.join(['OC101-OC203', *also])}) had nothing to check; `ordercheck suggest` shows which calls "
        f"to map under {table}"
    )


def own_rules_reading(settings: runner.Settings, classes: AbstractSet[str]) -> List[str]:
    """The selected rules of the project's own files (not shipped) that read one of
    ``classes``, by code."""
    shipped = resources.rules_dir()
    return [r.id for r in settings.rule_list()
            if r.source and Path(r.source).resolve().parent != shipped and classes & r.shown_classes()]


#: the classes of a ledger append (``one_sided_note``)
APPEND_CLASSES = frozenset({"append", "terminal-append"})


def one_sided_note(result: "runner.Result", unread: int, table: str) -> Optional[str]:
    """A whole project's run that recognised state saves but no ledger append, or
    appends but no save (held-out sets: a configuration that names one side and
    misses the other checked nothing of what pairs them, silently): which of the
    selected rules had nothing to check, and what to do. None when both sides or
    neither were seen (``nothing_matched_note``), or no selected rule reads the
    missing side."""
    seen = result.event_classes
    has_save, has_append = "save" in seen, bool(APPEND_CLASSES & seen)
    if has_save == has_append:
        return None
    missing = APPEND_CLASSES if has_save else frozenset({"save"})
    codes = [r.id for r in result.settings.rule_list() if missing & set(r.shown_classes())]
    if not codes:
        return None
    read = len(result.files) - unread
    what = "the file checked holds" if read == 1 else f"the {read} files checked hold"
    more = ""
    if unread:  # (the other side may stand in a file that could not be read: a review)
        what = "the file read holds" if read == 1 else f"the {read} files read hold"
        more = f" ({unread} more could not be read)"
    have, lack = ("a `save` event", "no ledger `append`") if has_save else ("a ledger `append`", "no `save` event")
    return (f"{what} {have} but {lack}{more}, so {', '.join(codes)} had nothing to check; "
            f"`ordercheck suggest` shows which calls to map under {table}")


def unmatched_hint(result: "runner.Result", classes: AbstractSet[str]) -> str:
    """The configured patterns of ``classes`` that matched no call of the files checked,
    as a clause of the note that says those classes had nothing to check (held-out set
    373: `*.storage.put_object` never matched `storage.put_object(...)` on a handler's
    parameter, and the run said only that no append was seen; `suggest` said why).
    Read only when such a note is given: it reads every file's facts."""
    from . import (
        frontend,  # (only here: a rare, misconfigured run)
        summaries,
    )
    from . import suggest as suggestmod

    # (each file's outline, read again: the facts a cold run keeps of a file the pre-pass
    # found nothing in hold no calls, and the hint would depend on the cache; a review)
    # (and the run's own facts beside them: a call typed across files, `*.RunStore.save`,
    # has its class's names only there)
    facts = [result.facts[p] for p in result.files if p in result.facts]
    outlines = []
    for p in result.files:
        own = result.facts.get(p)
        try:
            outlines.append(frontend.outline(p, Path(p).read_bytes(), own.module if own is not None else None))
        except (OSError, SyntaxError, ValueError):
            pass
    # the outlines typed by the project as the run typed its calls (``Call.typed``: a
    # receiver a project factory's annotation types, `s = open_store()`), which a warm
    # run's own facts may not hold: the project phase typed only what it had to
    # compute again (a review, session 74)
    read_again = {o.path for o in outlines}
    index = summaries.ProjectIndex.of([f for p, f in result.facts.items() if p not in read_again] + outlines)
    for o in outlines:
        if o.error is None:
            index.with_typed_names(o)
    facts += outlines
    missed = [u for u in suggestmod.unmatched_patterns(facts, result.settings)
              if u.kind in classes and not u.partly]
    if not missed:
        return ""
    parts = []
    for u in missed[:3]:
        part = f"`{u.pattern}` ({u.kind})"
        if u.self_call is not None:  # (held-out set 389: `*.Device.save` and `self.save()`)
            text = u.self_call[2]
            method = text.split("(", 1)[0]
            part += (f", called as `{text}` at {u.self_call[0]}:{u.self_call[1]} (a qualified pattern never"
                     f" matches a call through `self`/`cls`: add `{method}` too)")
        elif u.bare_call is not None:
            part += f", which misses `{u.bare_call[2]}` at {u.bare_call[0]}:{u.bare_call[1]}: add `{u.bare_pattern}`"
        elif u.untyped_call is not None:
            part += (f", which misses `{u.untyped_call[2]}` at {u.untyped_call[0]}:{u.untyped_call[1]}"
                     f" (no known receiver type): add `{u.untyped_pattern}`")
        elif "(" in u.pattern and u.pattern.endswith(("\")", "')")):
            # (held-out sets 385, 386: `'NOTIFY "%s";' % ch`, `cur.execute(QUERIES.ACK)`)
            part += (" (an argument part reads a statement written in the call, a name bound once"
                     " to one, a class-level `self.X` or a project module's constant imported; never a"
                     " parameter, an attribute set in a method or another object's attribute)")
        parts.append(part)
    more = f" and {len(missed) - 3} more" if len(missed) > 3 else ""
    return f"; configured pattern(s) matching no call in the files checked: {'; '.join(parts)}{more}"


def unread_files(result: "runner.Result") -> Set[str]:
    """The files checked that could not be parsed or read: those of an OC900 or a
    whole-file OC901, and, when either code may be off for some file (`--ignore`,
    `per-file-ignores`), those whose facts say so (read only then: a warm run reads
    the facts of a file on demand)."""
    unread = {f.path for f in result.findings if f.code == "OC900" or (f.code == "OC901" and f.function == "<module>")}
    settings = result.settings
    if (NOTHING_MATCHED_CLASSES & result.event_classes or not settings.config.per_file_ignores
            and {"OC900", "OC901"} <= set(settings.selected)):
        return unread
    return unread | {p for p in result.files if p in result.facts and result.facts[p].error is not None}


@click.command(context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=_PathArg(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(sorted(FORMATS)), default="text", show_default=True, help="Output format.")
@click.option("--config", "config_file", type=click.Path(path_type=Path), help="Config file (default: discovered upward).")
@click.option("--isolated", is_flag=True, help="Ignore every config file.")
@click.option("--select", help="Comma-separated codes or prefixes to check (replaces the default set).")
@click.option("--ignore", help="Comma-separated codes or prefixes to skip.")
@click.option("--extend-select", help="Comma-separated codes or prefixes to add.")
@click.option("--stdin-filename", help="Read the source from standard input and report it as this path.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--exclude", "exclude", metavar="GLOBS", multiple=True, help="Comma-separated globs to skip while walking folders (replaces the config's `exclude`), relative to the working directory.")
@click.option("--extend-exclude", "extend_exclude", metavar="GLOBS", multiple=True, help="Comma-separated globs to skip as well (`tests/**,docs/**`).")
@click.option("--force-exclude", is_flag=True, help="Skip files named on the command line that a walk of the project would skip: `exclude`, `build`, `.venv` and the like (for pre-commit).")
@click.option("--statistics", is_flag=True, help="Print counts per rule instead of findings (with --format json: a JSON list).")
@click.option("--explain", "explain_code", metavar="CODE", help="Explain a rule and exit.")
@click.option("--list-rules", is_flag=True, help="List every rule and exit.")
@click.option("--graph", "graph_spec", metavar="FILE:QUALNAME", help="Print a function's control-flow graph as DOT "
              "(QUALNAME@LINE: the one of several of that name that holds LINE).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes (default: CPU count).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the per-file cache.")
@click.option("--cache-dir", type=click.Path(path_type=Path), help="Cache folder (default .ordercheck_cache/ in the project root: the discovered config's folder, else the nearest folder above the paths with pyproject.toml or .git; a config's cache-dir is relative to its folder).")
@click.option("--baseline", "baseline_file", type=click.Path(path_type=Path), metavar="FILE",
              help="Hide the findings recorded in FILE (see --write-baseline).")
@click.option("--write-baseline", "write_baseline_file", type=click.Path(path_type=Path), metavar="FILE",
              help="Record the current findings in FILE and exit 0.")
@click.option("--show-suppressed", is_flag=True, help="Also list findings silenced by a suppression comment (text, json).")
@click.option("--fix", is_flag=True, help="Apply fixes (only unsafe ones exist: add --unsafe-fixes).")
@click.option("--unsafe-fixes", is_flag=True, help="Let --fix and --diff apply unsafe fixes.")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff instead of applying them.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("-q", "--quiet", is_flag=True, help="Findings only, one line each, no summary.")
@click.option("-v", "--verbose", is_flag=True, help="Timings on stderr; tracebacks for internal errors (and OC901s).")
@click.version_option(__version__, "--version", prog_name="ordercheck", message="%(prog)s %(version)s")
def cli(paths, fmt, config_file, isolated, select, ignore, extend_select, stdin_filename, exit_zero,
        exclude, extend_exclude, force_exclude, statistics, explain_code, list_rules, graph_spec, jobs, no_cache, cache_dir, baseline_file,
        write_baseline_file, show_suppressed, fix, unsafe_fixes, diff, color, quiet, verbose):
    """Check that persistence code keeps the durable-runtime invariant:
    ledger appends before the save that commits them, and no silent failures.

    `ordercheck suggest [PATHS]` proposes [extend-events] patterns for your runtime's
    own names of saves and appends."""
    started = time.perf_counter()
    if "-" in [str(p) for p in paths]:  # `-` reads the source from standard input
        paths = tuple(p for p in paths if str(p) != "-")
        stdin_filename = stdin_filename or "<stdin>"
    overrides = runner.Overrides(_codes(select, "--select"), _codes(ignore) or [], _codes(extend_select) or [],
                                 _globs(exclude), _globs(extend_exclude) or [])
    start = Path(stdin_filename) if stdin_filename else (paths[0] if paths else Path.cwd())
    settings = runner.load_settings(config_file, start, overrides, isolated)
    if explain_code:
        click.echo(explain(explain_code, settings.rules), nl=False)
        return 0
    if list_rules:
        click.echo(rules_json(settings.rules) if fmt == "json" else rules_table(settings.rules), nl=False)
        return 0
    from_config = not paths and not stdin_filename
    if not paths and not stdin_filename:
        paths = tuple(runner.default_paths(settings.config, Path(".")))
    elif not paths and stdin_filename:
        paths = ()
    graph_paths = (list(paths) or [Path(graph_spec.rsplit(':', 1)[0]).parent]) if graph_spec else list(paths)
    common = common_start(graph_paths) if graph_paths else start
    if config_file is not None and settings.config.path is not None:
        # one root for the walk, SARIF, the baseline and the cache (docs/configuration.md)
        settings = dataclasses.replace(settings, project_root=explicit_config_root(settings.config.path, common))
    if graph_spec:
        click.echo(graph_dot(graph_spec, graph_paths, settings), nl=False)
        return 0
    for p in paths:
        if not str(p) or not os.path.lexists(p):  # a symlink loop exists: its OC900 says why
            raise _missing(p, settings.config if from_config else None)
    if paths and not from_config and not quiet and fmt == "text" and settings.config.path is not None:
        # (the paths named are checked, but the project whose summaries they read is what
        # `include` admits: an entry that names nothing leaves their helpers out; without
        # paths the same entry is an error; held-out set 43, a config kept outside)
        for entry in settings.config.include:
            if not any(ch in entry for ch in "*?[") and not os.path.lexists(settings.config.root / entry):
                click.echo(f"ordercheck: warning: {settings.config.path}: `include` names no such path: "
                           f"{entry} (relative to the config's folder), so the project the summaries cover "
                           f"may lack the files it was meant to hold", err=True)
    warned = not config_file and not isolated and not quiet
    said: set = set()
    if warned:
        for line in other_configs(paths, settings.config.path, said):
            click.echo(line, err=True)
    if baseline_file and write_baseline_file:
        raise UsageError("give either --baseline or --write-baseline, not both", key="--write-baseline")
    if statistics and fmt not in ("text", "json"):
        raise UsageError(f"prints a table (text) or a JSON list (json), not {fmt}", key="--statistics")
    if (fix or diff) and stdin_filename:
        raise UsageError("fixes apply to files on disk, not to standard input", key="--fix" if fix else "--diff")
    root = find_root(common, settings.project_root)
    if settings.project_root is None and not is_marked(root):
        # no config and no marker: the current directory (semantics §Surfaces), never a
        # folder outside it that a named file happens to be in
        root = Path.cwd().resolve()
    base = baselinemod.load(baseline_file) if baseline_file else None
    stdin = None
    if stdin_filename:
        stdin = (stdin_filename, sys.stdin.buffer.read())
    if no_cache:
        cache_dir = None
    elif cache_dir is None:
        cache_dir = runner.cache_folder(settings.config, root)  # (the project root: no config, the folder with `.git`)
    if cache_dir is not None:
        cache_dir = _usable_cache(cache_dir, quiet)
    announce = None
    # (text only: a machine format's reader takes anything on stderr for an error,
    # as for the nothing-matched note, docs/decisions.md)
    # (a run that names the root itself reads what it asked for: nothing to say, held-out
    # set 46; an editor's buffer names one file, whatever its folder; realpath, since a
    # path that loops on itself is said later, as a finding, not raised here)
    whole = False if stdin_filename else (any(Path(os.path.realpath(p)) == root for p in paths) if paths
                                          else Path.cwd().resolve() == root)
    if (config_file is not None and fmt == "text" and not quiet and settings.project_root is not None
            and not is_marked(root) and not whole):
        announce = functools.partial(_say_large_project, root, config_file)
    result = runner.run(list(paths), settings, stdin, jobs=jobs or os.cpu_count() or 1, cache_dir=cache_dir,
                        force_exclude=force_exclude, announce=announce)
    if fix or diff:
        # (a finding the baseline hides is left alone, as a suppressed one is)
        hidden = (lambda found: baselinemod.apply(found, base, root)[0]) if base is not None else None
        changed, result = apply_fixes(result, settings, unsafe_fixes, write=not diff, reported=hidden, quiet=quiet)
        if diff:
            # (the files' own bytes: a diff of a latin-1 file applies to it)
            patch = b"".join(fixesmod.unified_diff(p, before, after) for p, (before, after) in sorted(changed.items()))
            click.echo(patch, nl=False)
            left = hidden(result.findings) if hidden is not None else result.findings
            if not patch and left and unsafe_fixes and not quiet:
                # (an empty diff read as "nothing found"; held-out set 70)
                many = len(left) != 1
                click.echo(f"ordercheck: nothing to fix: the {len(left)} finding{'s' if many else ''} left "
                           f"{'have' if many else 'has'} no automatic fix (run without --diff to see them)", err=True)
            return 1 if patch and not exit_zero else 0
    if root != settings.config.root:
        # the JSON's `data.fingerprint` over the root SARIF and the baseline use (without
        # a configuration, the marked folder, not the working one: held-out set 261)
        runner.fingerprint(result.findings, root)
        runner.fingerprint(result.suppressed, root)
    if warned and any(p.is_dir() for p in paths):
        # a folder walked into a nested project's files: said as for a named path
        folders = sorted({str(Path(f).parent) or "." for f in result.files if f != stdin_filename})
        for line in other_configs([Path(d) for d in folders], settings.config.path, said):
            click.echo(line, err=True)
    findings = result.findings
    if write_baseline_file:
        n = baselinemod.write(write_baseline_file, findings, root)
        click.echo(f"ordercheck: recorded {n} finding{'s' if n != 1 else ''} in {write_baseline_file}", err=True)
        findings = []
    elif base is not None:
        findings, stale = baselinemod.apply(findings, base, root)
        # (an entry of a file this run did not check is not known to be gone: a
        # pre-commit hook or an editor checks a few files against the whole baseline;
        # a file deleted or renamed is gone whatever the run checked)
        checked = {configmod.relative_to_root(f, root) for f in result.files}
        stale = [e for e in stale if e.path in checked or _gone(root, e.path)]
        if verbose:
            for line in baselinemod.stale_lines(stale, baseline_file):
                click.echo(line, err=True)
    shown_suppressed = result.suppressed if show_suppressed and fmt in ("text", "json") else []
    if fmt == "sarif":
        shown_suppressed = result.suppressed
    # (a file that could not be parsed or read, an OC900 or a whole-file OC901, may hold
    # events: the claim is about the others, and there is none when no file was read)
    unread = len(unread_files(result))
    nothing = (len(result.files) > unread and not (NOTHING_MATCHED_CLASSES & result.event_classes))
    configured = bool(settings.config.events or settings.config.extend_events)
    if nothing and configured and not (whole or from_config or (paths and all(p.is_dir() for p in paths))):
        # a hook's or an editor's files, named one by one, in a project whose
        # configuration names its events: most files hold none (held-out set 325: a
        # pre-commit run on a file with no persistence pointed to `suggest`)
        nothing = False
    notes = [nothing_matched_note(len(result.files), unread, settings.config.table("extend-events"),
                                  own_rules_reading(settings, NOTHING_MATCHED_CLASSES))
             + (unmatched_hint(result, NOTHING_MATCHED_CLASSES) if configured else "")] if nothing else []  # (text: the summary line says so, the note goes to stderr)
    # (only over the whole project or folders named: a hook's or an editor's files, named
    # one by one, may hold one side; held-out set 269: a folder without a marker)
    one_sided = (one_sided_note(result, unread, settings.config.table("extend-events"))
                 if (whole or from_config or (paths and all(p.is_dir() for p in paths)))
                 and not nothing and len(result.files) > unread else None)
    if one_sided:
        # (both sides' dead patterns: a dead save beside a live one leaves saves unseen
        # as well; held-out set 383)
        one_sided += unmatched_hint(result, NOTHING_MATCHED_CLASSES)
    if statistics and fmt == "json":  # as ruff: one object per rule, most frequent first
        click.echo(json.dumps(json_statistics(findings, settings.rules), indent=2))
    elif statistics:
        click.echo(text_statistics(findings, settings.rules), nl=False)
        if not findings and not quiet:
            # (an empty table said nothing: two held-out sets took it for a failed run;
            # stderr, so stdout stays the table a script reads)
            click.echo(summary_line(findings, len(result.files), nothing,
                                    "" if not one_sided else "ledger append" if "save" in result.event_classes
                                    else "state save"), err=True)
    else:
        render = FORMATS[fmt]
        # the lines of the files with something to show (the facts of a run answered
        # by the run cache are read on demand)
        wanted = {f.path for f in findings} | {f.path for f in shown_suppressed}
        sources = {p: result.facts[p].lines for p in sorted(wanted) if p in result.facts}
        out = render(findings, result.files, rules=settings.rules, sources=sources,
                     color=_use_color(color), quiet=quiet, always=[stdin_filename] if stdin_filename else [],
                     suppressed=shown_suppressed, root=root,
                     notes=notes + [one_sided] if one_sided and fmt != "text" else notes,
                     lacking=("" if not one_sided else "ledger append" if "save" in result.event_classes
                              else "state save"))
        if out and not (write_baseline_file and fmt == "text"):  # ("recorded N findings" says it, not "All checks passed")
            click.echo(out, nl=False, color=_use_color(color))
    if fmt == "text" and not quiet and nothing:
        click.echo(f"ordercheck: note: {notes[0]}", err=True)
    if fmt == "text" and not quiet and one_sided:
        click.echo(f"ordercheck: note: {one_sided}", err=True)
    if not quiet and not result.files and not stdin_filename:  # as ruff: a path with nothing to check says so
        outside = " or outside `include`" if settings.config.include else ""
        click.echo(f"ordercheck: warning: no Python files found under the paths given (or all are excluded{outside})",
                   err=True)
    if verbose:
        click.echo(
            f"ordercheck: {len(result.files)} files checked, {result.project_files} read for the summaries "
            f"({result.cache_hits} from the cache), "
            f"{len(findings)} findings in {time.perf_counter() - started:.2f}s",
            err=True,
        )
    return 1 if findings and not exit_zero else 0


#: a project of at least this many files, under the folder of a ``--config`` that holds
#: no ``pyproject.toml`` or ``.git``, is named on stderr before it is read
LARGE_PROJECT = 1000


def _say_large_project(root: Path, config_file: Path, count: int) -> None:
    """A config named with ``--config`` makes its folder the project when that folder
    holds the paths (docs/decisions.md, "The project root"): one kept in ``/tmp`` or a
    home folder makes every Python file there part of the summaries, a run of
    minutes with nothing said (a held-out set, session 42). Say so before reading."""
    if count >= LARGE_PROJECT:
        click.echo(f"ordercheck: note: reading {count} Python files under {root} for the summaries: the folder "
                   f"of --config {config_file} is the project root, as it holds the paths (keep the config in the "
                   "project's own folder to make that folder the project)", err=True)


def apply_fixes(result: "runner.Result", settings: runner.Settings, unsafe: bool, write: bool, rounds: int = 10,
                reported: Optional[Callable[[List[Finding]], List[Finding]]] = None, quiet: bool = False):
    """semantics §Surfaces: apply the fixes the findings offer, re-check, and repeat while fixes
    apply (a swap can bring the next append directly after the save). Files are
    written atomically when ``write``; otherwise only the returned contents change.
    Returns ``{path: (before, after)}`` for every changed file and the final result
    (whose findings are what is left). Without ``unsafe`` nothing is applied and the
    number of unsafe fixes available is said on stderr. ``reported``: the findings a
    run shows of those it found (a baseline's): only those are fixed. ``quiet``
    (``-q``): the notes of fixes available and applied are not said."""
    changed: Dict[str, Tuple[bytes, bytes]] = {}
    current: Dict[str, bytes] = {}
    fixed = 0
    for _ in range(rounds):
        by_path: Dict[str, List[Finding]] = {}
        for f in (reported(result.findings) if reported is not None else result.findings):
            by_path.setdefault(f.path, []).append(f)
        available = 0
        edits = {}
        for path, found in by_path.items():
            facts = result.facts.get(path)
            if facts is None or facts.error is not None:
                continue
            source = current.get(path)
            if source is None:
                try:
                    source = Path(path).read_bytes()
                except OSError:
                    continue
            offered = fixesmod.plan(source, found)
            available += len(offered)
            if not offered or not unsafe:
                continue
            after, applied = fixesmod.apply(source, offered)
            if applied and after != source:
                edits[path] = (source, after)
                fixed += len(applied)
        if not unsafe:
            if available and not quiet:
                click.echo(f"ordercheck: {available} unsafe fix{'es' if available != 1 else ''} available "
                           "(apply with --fix --unsafe-fixes, review with --diff --unsafe-fixes)", err=True)
            break
        if not edits:
            break
        for path, (before, after) in edits.items():
            changed[path] = (changed.get(path, (before,))[0], after)
            current[path] = after
        # every file read (the project's too: the summaries need them), the fixed ones read anew
        # (the modules named as the run named them: by its `src` roots)
        rechecked = [result.facts[p] if p not in current else runner.read_facts(Path(p), current[p], p, roots=result.roots)
                     for p in list(dict.fromkeys([*result.facts, *result.files]))]
        # as the run did: files read as outlines stay outlines unless a needed function lives there
        focused = runner.focus_of(rechecked, settings)
        if focused is not None:
            rechecked = [runner.read_facts(Path(f.path), None, f.path, roots=result.roots)
                         if (f.outline or f.outlined) and f.path in focused.need_files else f for f in rechecked]
        suppressed: List[Finding] = []
        seen: set = set()
        findings = runner.analyse(rechecked, settings, suppressed, only=set(result.files), seen=seen, focused=focused)
        result = runner.Result(findings, result.files, {f.path: f for f in rechecked}, settings, result.cache_hits,
                               suppressed, seen, result.project_files, result.roots)
    if write:
        written: List[str] = []
        for path, (_, after) in changed.items():
            try:
                atomic_write(Path(path), after)
            except OSError as exc:
                if written:  # (each file is written whole or not at all; say which were)
                    click.echo(f"ordercheck: fixed before the error: {', '.join(written)}", err=True)
                raise UsageError(f"cannot write the fixed file: {exc.strerror or exc}", path, "--fix") from None
            written.append(path)
    if unsafe and write and changed and not quiet:
        n = len(changed)
        click.echo(f"ordercheck: applied {fixed} fix{'es' if fixed != 1 else ''} in {n} file{'s' if n != 1 else ''}", err=True)
    return changed, result




def _interrupted() -> None:
    """Ctrl-C: exit 130 (128 + SIGINT) as shells expect; workers are already gone
    (``runner.read_all`` terminates its pool) and cache entries are written by
    rename, so nothing half-done is left."""
    try:
        sys.stderr.write("ordercheck: interrupted\n")
        sys.stderr.flush()
    except Exception:  # a closed stderr must not turn 130 into a traceback
        pass
    # leave now: the process pool's shutdown hooks would write to pipes whose
    # workers are gone ("Exception ignored in <module 'threading'>")
    os._exit(130)


@click.command(context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=_PathArg(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format.")
@click.option("--config", "config_file", type=click.Path(path_type=Path), help="Config file (default: discovered upward).")
@click.option("--isolated", is_flag=True, help="Ignore every config file.")
@click.option("--limit", type=click.IntRange(min=1), default=30, show_default=True, help="How many patterns to show.")
@click.option("--exclude", "exclude", metavar="GLOBS", multiple=True, help="As for a check: globs to skip (replaces the config's `exclude`).")
@click.option("--extend-exclude", "extend_exclude", metavar="GLOBS", multiple=True, help="As for a check: globs to skip as well.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes (default: CPU count).")
@click.option("--no-cache", is_flag=True, help="Use no cache (the default; kept for scripts that pass it).")
@click.option("--cache-dir", type=click.Path(path_type=Path),
              help="Read and fill the per-file cache in this folder (by default suggest writes no file).")
def suggest_cmd(paths, fmt, config_file, isolated, limit, exclude, extend_exclude, jobs, no_cache, cache_dir):
    """List the calls that look like state saves, ledger appends and transactions,
    ranked, with a ready [extend-events] block to keep or trim. Writes no file."""
    from . import suggest as suggestmod

    start = paths[0] if paths else Path.cwd()
    overrides = runner.Overrides(exclude=_globs(exclude), extend_exclude=_globs(extend_exclude) or [])
    settings = runner.load_settings(config_file, start, overrides, isolated)
    from_config = not paths
    if not paths:
        paths = tuple(runner.default_paths(settings.config, Path(".")))
    for p in paths:
        if not p.exists():
            raise _missing(p, settings.config if from_config else None)
    if no_cache:
        cache_dir = None
    # (no default cache: semantics §Configuration, suggest "never writes a file";
    # a folder named with --cache-dir is the user's own request)
    unread: List[str] = []
    found, files, unmatched, saving = suggestmod.run(list(paths), settings, jobs=jobs or os.cpu_count() or 1,
                                             cache_dir=cache_dir, unread=unread)
    if unread:  # (they suggest nothing: said, not skipped in silence; a review, session 41)
        shown = ", ".join(unread[:3]) + (f" and {len(unread) - 3} more" if len(unread) > 3 else "")
        click.echo(f"ordercheck suggest: {len(unread)} file(s) could not be read or parsed and suggest nothing: "
                   f"{shown} (`ordercheck` on them says why)", err=True)
    if fmt == "json":
        click.echo(suggestmod.render_json(found, files, limit, unmatched, saving, unread), nl=False)
    else:
        click.echo(suggestmod.render_text(found, settings, files, limit, unmatched, saving), nl=False)
    return 0


def _gone(root: Path, rel: str) -> bool:
    """Whether a baseline entry's file is no longer there (deleted or renamed); a path
    the system cannot even look up (too long, a NUL) is not known to be gone."""
    try:
        return not (root / rel).exists()
    except (OSError, ValueError):
        return False


def _missing(path: Path, config) -> UsageError:
    """A path that is not there: the command line's, or (no paths given) the config's
    ``include``, named by its file and key (a review, session 41)."""
    if config is not None and config.include and config.path is not None:
        return UsageError(f"no such file or directory: {path}", file=str(config.path), key="include")
    return UsageError(f"no such file or directory: {path}", key="PATHS")


def _usable_cache(folder: Path, quiet: bool) -> Optional[Path]:
    """The cache folder, made and marked now; one that cannot be (read-only, a file
    in the way) runs without a cache, said once on stderr rather than at every entry
    the run would fail to write."""
    from . import cache as cachemod

    problem = cachemod.secret_problem()
    if problem is not None:
        if not quiet:
            advice = ("--no-cache says so quietly" if problem.startswith("cannot keep")
                      else "remove it, and the next run makes a new one; --no-cache says so quietly")
            click.echo(f"ordercheck: warning: {problem}; running without a cache ({advice})", err=True)
        return None
    try:
        cachemod.prepare(folder)
    except OSError as exc:
        if not quiet:
            why = exc.strerror or type(exc).__name__
            click.echo(f"ordercheck: warning: cannot use the cache folder {folder} ({why}); "
                       "running without a cache (--no-cache says so quietly)", err=True)
        return None
    return folder


def main(argv: Optional[List[str]] = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    verbose = "-v" in argv or "--verbose" in argv
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, errors.on_sigint)
    shown = _show_log() if verbose else None  # an OC901's traceback (``runner.LOG``)
    try:
        _main(argv, verbose)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if shown is not None:
            logging.getLogger("ordercheck").removeHandler(shown)


def _show_log() -> logging.Handler:
    """With -v, the engine's log on stderr: the traceback of a function it failed on."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("ordercheck: %(message)s"))
    log = logging.getLogger("ordercheck")
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    return handler


def _valued_options() -> Set[str]:
    """The spellings of every option of either command that takes a value."""
    return {name for command in (cli, suggest_cmd) for p in command.params
            if isinstance(p, click.Option) and not p.is_flag and not p.count for name in p.opts}


def subcommand_first(argv: List[str]) -> List[str]:
    """``ordercheck --isolated suggest .`` is ``ordercheck suggest --isolated .``, as in
    ruff (``ruff --isolated check``): options written before the subcommand are its
    own (held-out set 55: a user's ``--jobs 1 suggest .`` said "no such file:
    suggest"). The subcommand is the first argument that is not an option or an
    option's value; ``--`` ends the options, and after it ``suggest`` is a path."""
    valued = _valued_options()
    its_own = {name for p in suggest_cmd.params if isinstance(p, click.Option) for name in (*p.opts, *p.secondary_opts)}
    its_own |= {"--help", "-h"}  # (click adds them outside ``params``: `--help suggest` is suggest's, a review)
    i, own = 0, True
    while i < len(argv):
        arg = argv[i]
        if arg == "--" or not arg.startswith("-") or arg == "-":
            break
        name = arg.split("=", 1)[0] if arg.startswith("--") else arg[:2]
        own = own and name in its_own
        i += 2 if arg in valued else 1
    # (an option only a check has, `--select OC1 suggest`, `-q suggest`: a folder named
    # `suggest` is checked, as before; a review)
    if 0 < i < len(argv) and argv[i] == "suggest" and own:
        return [argv[i], *argv[:i], *argv[i + 1:]]
    return argv


def _main(argv: List[str], verbose: bool) -> None:
    try:
        if argv[:1] == ["lsp"]:  # `ordercheck lsp`: the language server on stdio (needs the `lsp` extra: pygls)
            from . import lsp

            if any(a in ("-h", "--help") for a in argv[1:]):
                click.echo("Usage: ordercheck lsp\n\n  Run the language server on stdio (needs pygls 2.x: `pip install 'pygls>=2,<3'`, or `pip install '.[lsp]'` in a clone).")
                sys.exit(0)
            extra = [a for a in argv[1:] if a != "--stdio"]  # what vscode-languageclient appends
            if extra:
                raise UsageError(f"unexpected argument {extra[0]!r} (the server talks on stdio)", key="lsp")
            sys.exit(lsp.serve())
        argv = subcommand_first(argv)
        if argv[:1] == ["suggest"]:
            code = suggest_cmd.main(args=argv[1:], prog_name="ordercheck suggest", standalone_mode=False)
        else:
            code = cli.main(args=argv, prog_name="ordercheck", standalone_mode=False)
    except UsageError as exc:
        click.echo(f"ordercheck: error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.UsageError as exc:  # one line, naming the argument (semantics §Command line)
        hint = f"; see `{exc.ctx.command_path} --help`" if exc.ctx is not None else ""
        click.echo(f"ordercheck: error: {exc.format_message().rstrip('.')}{hint}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2)
    except click.exceptions.Abort as exc:  # click turns Ctrl-C into Abort
        if isinstance(exc.__context__, KeyboardInterrupt):
            _interrupted()
        sys.exit(2)
    except KeyboardInterrupt:
        _interrupted()
    except BrokenPipeError:
        sys.exit(1)
    except BaseException as exc:  # an internal error: one line, the traceback on -v
        if isinstance(exc, (SystemExit, KeyboardInterrupt)):
            raise
        if errors.interrupted():  # whatever a Ctrl-C turned into on its way up
            _interrupted()
        if verbose:
            traceback.print_exc()
        try:
            detail = f"{type(exc).__name__}: {exc}"[:300]
        except Exception:
            detail = type(exc).__name__
        sys.stderr.write(f"ordercheck: internal error: {detail} (run with -v for the traceback)\n")
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
