"""Run ordercheck in-process on source text (no config discovery)."""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import List, Optional, Tuple

from ordercheck import config as configmod
from ordercheck import runner
from ordercheck.findings import Finding
from ordercheck.rulebook import load_rules
from ordercheck.vocabulary import Vocabulary


def settings_for(table: Optional[dict] = None, select: Optional[List[str]] = None) -> runner.Settings:
    cfg = configmod.parse(table or {}, None)
    rules = load_rules(configmod.rule_files(cfg))
    configmod.validate_codes(cfg, list(rules))
    chosen = select if select is not None else (cfg.select or ["ALL"])
    selected = runner.select_codes(rules, chosen, cfg.extend_select, cfg.ignore)
    vocab = Vocabulary.build(cfg.events, cfg.extend_events, cfg.terminal_markers)
    return runner.Settings(cfg, rules, vocab, selected)


def check_source(source: str, table: Optional[dict] = None, select: Optional[List[str]] = None,
                 dedent: bool = True, path: str = "example.py") -> List[Finding]:
    text = textwrap.dedent(source) if dedent else source
    s = settings_for(table, select)
    facts = runner.read_facts(Path(path), text.encode("utf-8"), path)
    return runner.analyse([facts], s)


def codes_lines(findings: List[Finding]) -> List[Tuple[str, int]]:
    return sorted((f.code, f.span.line) for f in findings)
