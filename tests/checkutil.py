"""Run ordercheck in-process on source text (no config discovery)."""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import List, Optional, Tuple

from ordercheck import config as configmod
from ordercheck import frontend, runner
from ordercheck.findings import Finding
from ordercheck.rulebook import load_rules
from ordercheck.vocabulary import Vocabulary


def settings_for(table: Optional[dict] = None, select: Optional[List[str]] = None) -> runner.Settings:
    cfg = configmod.parse(table or {}, None)
    rules = load_rules(configmod.rule_files(cfg))
    configmod.validate_codes(cfg, list(rules))
    chosen = select if select is not None else (cfg.select or ["ALL"])
    selected = runner.select_codes(rules, chosen, cfg.extend_select, cfg.ignore)
    vocab = Vocabulary.build(cfg.events, cfg.extend_events, cfg.terminal_markers, cfg.exclude_events,
                             cfg.transaction_functions)
    return runner.Settings(cfg, rules, vocab, selected)


def check_source(source: str, table: Optional[dict] = None, select: Optional[List[str]] = None,
                 dedent: bool = True, path: str = "example.py") -> List[Finding]:
    text = textwrap.dedent(source) if dedent else source
    s = settings_for(table, select)
    facts = runner.read_facts(Path(path), text.encode("utf-8"), path)
    # as a run does: the outline pre-pass says which functions can hold a finding
    # (``runner.PREPASS``; ORDERCHECK_PREPASS=0 runs the suite without it)
    focused = runner.focus_of([frontend.outline(path, text.encode("utf-8"))], s)
    return runner.analyse([facts], s, focused=focused)


def codes_lines(findings: List[Finding]) -> List[Tuple[str, int]]:
    return sorted((f.code, f.span.line) for f in findings)


# Rule selections the corner-case tests use most.
SEQ = ["OC101", "OC102"]
SWL = ["OC201", "OC202", "OC203"]
ALL_DEFAULT = ["OC101", "OC102", "OC103", "OC201", "OC202", "OC203", "OC301"]


def witness_of(src: str, code: str) -> List[Tuple[str, int, str]]:
    """``(kind, line, text)`` of each step of the one ``code`` finding in ``src``."""
    found = [f for f in check_source(src) if f.code == code]
    assert len(found) == 1, found
    return [(s.kind, s.span.line, s.text) for s in found[0].witness]


def cl(src: str, select: Optional[List[str]] = None, table: Optional[dict] = None,
       path: str = "example.py") -> List[Tuple[str, int]]:
    """``(code, line)`` of every finding in one dedented source text."""
    return codes_lines(check_source(src, table=table, select=select or ALL_DEFAULT, path=path))


def write_tree(root: Path, files: dict) -> None:
    """Write ``{relative path: dedented text}`` under ``root``."""
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))


def tree_findings(root: Path, select=ALL_DEFAULT, table: Optional[dict] = None) -> List[Finding]:
    """Run the whole pipeline over a folder, in process."""
    s = settings_for(table, select=list(select))
    return runner.run([root], s).findings


def run_tree(root: Path, select=ALL_DEFAULT, table: Optional[dict] = None) -> List[Tuple[str, int, str]]:
    """Sorted ``(root-relative path, line, code)`` of every finding under ``root``."""
    return sorted((Path(f.path).resolve().relative_to(root.resolve()).as_posix(), f.span.line, f.code)
                  for f in tree_findings(root, select, table))


def fail_on(monkeypatch, name: str, error: type = RuntimeError, message: str = "injected fault in {name}",
            target: str = "check_function") -> None:
    """Make the engine fail on the functions called ``name``: ``runner.check_function``
    (or ``effects.summary_graph`` with ``target="summary_graph"``) raises ``error`` for
    them (OC901, rules/OC901.toml; a rule example's ``fault``)."""
    from ordercheck import effects

    module = runner if target == "check_function" else effects
    real = getattr(module, target)

    def failing(fn, *args, **kwargs):
        if fn.name == name:
            raise error(message.format(name=fn.name))
        return real(fn, *args, **kwargs)

    monkeypatch.setattr(module, target, failing)

