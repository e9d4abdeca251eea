"""Every ``[[examples]]`` of every rule file runs here (the Fixit pattern): the
documentation cannot drift from the behaviour."""
import pytest
from checkutil import check_source, codes_lines, fail_on

from ordercheck.rulebook import builtin_rules

CASES = [
    pytest.param(rule, i, ex, id=f"{rule.id}-{i}", marks=[pytest.mark.internal_errors] if ex.get("fault") else [])
    for rule in builtin_rules()
    for i, ex in enumerate(rule.examples)
]


def test_every_rule_has_valid_and_invalid_examples():
    for rule in builtin_rules():
        valid = [e for e in rule.examples if not e.get("expect")]
        invalid = [e for e in rule.examples if e.get("expect")]
        assert valid and invalid, f"{rule.id} needs valid and invalid examples"
        assert rule.explanation.strip(), f"{rule.id} has no explanation"


@pytest.mark.parametrize("rule,index,example", CASES)
def test_example(rule, index, example, monkeypatch):
    if example.get("fault"):
        fail_on(monkeypatch, example["fault"])
    expect = example.get("expect", [])
    codes = {rule.id} | {e["code"] for e in expect}
    # the default rule set plus the rule itself: suppressions and OC001 see real findings
    defaults = [r.id for r in builtin_rules() if r.default]
    findings = check_source(example["code"], example.get("config"), select=sorted(codes | set(defaults)), dedent=False)
    got = [(c, l) for c, l in codes_lines(findings) if c in codes]
    want = sorted((e["code"], e["line"]) for e in expect)
    assert got == want, "\n".join(f"{f.code} {f.span.line}: {f.message}" for f in findings)


def test_docs_rules_md_is_generated_from_the_rule_files():
    from pathlib import Path

    from ordercheck import docgen

    committed = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()
    assert committed == docgen.render(), "run: python -m ordercheck.docgen > docs/rules.md"


def test_explain_uses_the_same_explanation():
    from ordercheck.cli import explain

    rules = {r.id: r for r in builtin_rules()}
    for rule in rules.values():
        assert rule.explanation in explain(rule.id, rules)


def test_shipped_rules_read_their_examples_later_as_the_whole_file_gives_them():
    """A run parses a shipped rule file only up to its first ``[[examples]]``
    (``rulebook.ExamplesLater``); the rule, and its examples once asked for, are the
    whole file's."""
    from pathlib import Path

    from ordercheck.rulebook import ExamplesLater, load_rule_file

    for rule in builtin_rules():
        assert isinstance(rule.examples, ExamplesLater), rule.id
        whole = load_rule_file(Path(rule.source))
        assert rule == whole and repr(rule) == repr(whole)
        assert (rule.explanation, rule.help, rule.message) == (whole.explanation, whole.help, whole.message)
        assert list(rule.examples) == list(whole.examples) and len(rule.examples) == len(whole.examples)


def test_a_header_inside_a_string_makes_the_shipped_rule_read_whole(tmp_path):
    from ordercheck.rulebook import _shipped_rule

    text = ('id = "OC999"\nname = "n"\nseverity = "info"\nkind = "sequence"\nfirst = ["save"]\n'
            'then = ["append"]\nmessage = "m"\nexplanation = """\nbefore\n[[examples]]\nafter\n"""\n'
            '[[examples]]\ncode = "x = 1\\n"\n')
    (tmp_path / "OC999.toml").write_text(text)
    rule = _shipped_rule(tmp_path / "OC999.toml")
    assert rule.explanation == "before\n[[examples]]\nafter"
    assert list(rule.examples) == [{"code": "x = 1\n"}]
