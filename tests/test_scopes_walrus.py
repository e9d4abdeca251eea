"""The scope scan enters expressions only when the module has a ``:=`` (session 20,
for speed): without a walrus no expression binds a name of the scope, since a
lambda's and a comprehension's names are their own. These tests hold the pruned scan
to the whole one, and show that a walrus still counts where it is written."""
import ast
from pathlib import Path

import pytest
from conformance import run_case

from ordercheck import scopes
from ordercheck.frontend.source import decode_source

ROOT = Path(__file__).resolve().parent.parent


def _parses(path: Path) -> bool:
    try:
        ast.parse(decode_source(path.read_bytes()))
    except (SyntaxError, ValueError):
        return False  # (the OC900 fixtures)
    return True


SOURCES = sorted(p for d in ("ordercheck", "fixtures") for p in (ROOT / d).rglob("*.py") if _parses(p))


def _tables(s: scopes.Scopes):
    return {k: v for k, v in vars(s).items()}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_pruned_scan_equals_the_whole_one(path):
    text = decode_source(path.read_bytes())
    tree = ast.parse(text)
    assert _tables(scopes.scan(tree, text)) == _tables(scopes.scan(tree))


def test_a_walrus_in_an_expression_rebinds_the_name():
    text = "def f(store, other):\n    save = store.save\n    if (save := other.save) is not None:\n        save(run)\n"
    table = scopes.scan(ast.parse(text), text).functions[1]
    assert table.bound["save"] == 2 and table.alias("save") is None


def test_a_walrus_inside_a_comprehension_binds_in_the_function():
    text = "def f(store, rows):\n    save = store.save\n    [(save := r) for r in rows]\n    save(run)\n"
    table = scopes.scan(ast.parse(text), text).functions[1]
    assert table.bound["save"] == 2 and table.alias("save") is None


def test_a_walrus_spoils_an_alias_in_a_whole_run():
    # `save` is bound twice, so it is no alias: `save(run)` is no save of `store`
    src = """\
def finish(store, ledger, run, other):
    save = store.save
    if (save := other.save) is None:
        return
    save(run)
    ledger.append_terminal(run)
"""
    got, want, detail = run_case(src, table={"extend-events": {"terminal-append": ["ledger.append_terminal"],
                                                               "save": ["store.save"]}})
    assert got == want, detail
