"""The split-summary `[[examples]]` (semantics §Events Summaries) are documented: every
example with a `doc` caption is shown by `--explain` and in docs/rules.md, and the
rules that the split summaries change have valid and invalid ones."""
import pytest

from ordercheck import docgen
from ordercheck.cli import explain
from ordercheck.rulebook import builtin_rules

RULES = {r.id: r for r in builtin_rules()}


@pytest.mark.parametrize("code", ["OC101", "OC102", "OC201", "OC202", "OC203"])
def test_split_summary_examples_are_valid_and_invalid(code):
    documented = [e for e in RULES[code].examples if e.get("doc")]
    assert any(e.get("expect") for e in documented), code
    assert any(not e.get("expect") for e in documented), code


def test_oc102_covers_on_raise_and_conditional_if_elif_while_not():
    text = "\n".join(e["code"] for e in RULES["OC102"].examples if e.get("doc"))
    for needle in ("raise SyncConflict", "return True", "return False", "elif self.revoked(run)",
                   "while not self.claimed(run)", "if not self.revoked(run)"):
        assert needle in text, needle


@pytest.mark.parametrize("code", sorted(RULES))
def test_documented_examples_render_in_explain_and_docs(code):
    rule = RULES[code]
    out = explain(code, RULES)
    page = docgen.render()
    for e in rule.examples:
        if e.get("doc"):
            assert e["doc"] in out and e["code"].rstrip() in out
            assert e["doc"] in page and e["code"].rstrip() in page


def test_flagged_lines_are_shown():
    out = explain("OC202", RULES)
    assert "*(flagged: OC202 at line 7)*" in out
    assert "*(not flagged)*" in out
