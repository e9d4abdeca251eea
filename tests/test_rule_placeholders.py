"""A rule's message may name only the fields its kind fills (``Rule.fields``): an
unknown placeholder is a bad rule file (exit 2 naming the file and ``message``), not
braces printed as written; an ``at-most-once`` rule, whose role is ``event``, may say
``{event_text}`` (a conformance probe, session 31)."""
from __future__ import annotations

import pytest
from cliutil import oc, write

from ordercheck.errors import UsageError
from ordercheck.rulebook import Rule, builtin_rules, parse_rule

BASE = {"id": "UR1", "name": "x", "severity": "warning"}


def _rule(kind, message, **roles):
    return parse_rule({**BASE, "kind": kind, "message": message, **roles}, "rules/ur1.toml")


def test_each_kind_accepts_its_own_fields():
    _rule("sequence", "`{then_text}` at {then_line} after {first_text} at {first_line}", first=["save"], then=["append"])
    _rule("at-most-once", "`{event_text}` again after line {first_line}", event=["append"])
    _rule("swallowed", "`{event_text}` into {handler} at {handler_line}", event=["save"])
    _rule("sequence", "literal {{braces}} and `{then_text!r:>10}`", first=["save"], then=["append"])


@pytest.mark.parametrize("kind, message, roles", [
    ("sequence", "`{then_txt}` after save", {"first": ["save"], "then": ["append"]}),
    ("swallowed", "`{then_text}` swallowed", {"event": ["save"]}),
    ("at-most-once", "`{error}` twice", {"event": ["append"]}),
])
def test_an_unknown_placeholder_names_the_file_and_the_key(kind, message, roles):
    with pytest.raises(UsageError) as err:
        _rule(kind, message, **roles)
    assert err.value.file == "rules/ur1.toml" and err.value.key == "message"
    assert "unknown placeholder" in str(err.value)


def test_a_template_format_cannot_read_is_a_bad_rule():
    with pytest.raises(UsageError) as err:
        _rule("sequence", "a { brace", first=["save"], then=["append"])
    assert err.value.key == "message" and "bad template" in str(err.value)


def test_the_shipped_rules_use_only_their_fields():
    for rule in builtin_rules():
        assert isinstance(rule, Rule)  # (parse_rule checked each message on load)


def test_an_at_most_once_rule_says_its_event(tmp_path):
    write(tmp_path, "ordercheck.toml", 'rules = ["ur.toml"]\n[events]\ncheckpoint = ["*.checkpoint"]\n')
    write(tmp_path, "ur.toml", """
id = "UR301"
name = "checkpoint-twice"
severity = "warning"
kind = "at-most-once"
event = ["checkpoint"]
message = "checkpoint `{event_text}` twice (first at line {first_line})"
""")
    write(tmp_path, "m.py", "def f(cp, run):\n    cp.checkpoint(run)\n    cp.checkpoint(run)\n")
    run = oc(tmp_path, "--no-cache", "--select", "UR301", "m.py")
    assert run.code == 1
    assert "UR301 checkpoint `cp.checkpoint(run)` twice (first at line 2)" in run.out


def test_a_bad_placeholder_in_a_user_rule_exits_2(tmp_path):
    write(tmp_path, "ordercheck.toml", 'rules = ["ur.toml"]\n')
    write(tmp_path, "ur.toml", 'id = "UR9"\nname = "x"\nseverity = "warning"\nkind = "sequence"\n'
                               'first = ["save"]\nthen = ["append"]\nmessage = "`{then_txt}`"\n')
    write(tmp_path, "m.py", "x = 1\n")
    run = oc(tmp_path, "--no-cache", "m.py")
    assert run.code == 2 and "ur.toml" in run.err and "`message`" in run.err and "{then_txt}" in run.err


def test_requires_before_has_no_earlier_event_to_name():
    _rule("requires-before", "`{then_text}` with no lease first", first=["save"], then=["append"])
    with pytest.raises(UsageError):
        _rule("requires-before", "`{then_text}` after {first_text}", first=["save"], then=["append"])


@pytest.mark.parametrize("kind, message, roles", [
    ("sequence", "`{then_text}` in {handler}", {"first": ["save"], "then": ["append"]}),  # never filled there
    ("sequence", "`{then_text:d}`", {"first": ["save"], "then": ["append"]}),  # a number's format for text
    ("sequence", "line {then_line:s}", {"first": ["save"], "then": ["append"]}),
    ("sequence", "`{then_text!z}`", {"first": ["save"], "then": ["append"]}),
    ("sequence", "`{then_text:>{width}}`", {"first": ["save"], "then": ["append"]}),  # nested, unknown
    # (a review, session 32) a text field as a spec: a sample text formed a valid one
    ("sequence", "{then_line:>{then_text}}", {"first": ["save"], "then": ["append"]}),
    ("at-most-once", "{event_line:{first_text}}", {"event": ["append"]}),
])
def test_a_template_the_kind_cannot_render_is_refused(kind, message, roles):
    # (an adversarial review, session 31: each was accepted, then printed as written)
    with pytest.raises(UsageError) as err:
        _rule(kind, message, **roles)
    assert err.value.key == "message"


def test_a_nested_known_field_in_a_format_spec_is_fine():
    _rule("sequence", "`{then_text:>{first_line}}`", first=["save"], then=["append"])
    _rule("silent-handler", "silent {handler} at {handler_line}")


@pytest.mark.parametrize("message", ["{then_line:>999999999}", "`{then_text:.5000}`", "{then_line:0{first_line}.9999}"])
def test_a_huge_format_width_is_a_bad_rule(message):
    """(A review, session 41.) `{then_line:>999999999}` passed, and built a gigabyte
    message per finding: a rule file in a pull request is data, and may not cost that."""
    with pytest.raises(UsageError) as err:
        _rule("sequence", message, first=["save"], then=["append"])
    assert err.value.file == "rules/ur1.toml" and err.value.key == "message"
    assert "at most 200" in str(err.value)


def test_a_modest_width_is_fine():
    _rule("sequence", "{then_line:>6} `{then_text:.80}`", first=["save"], then=["append"])


def test_a_message_written_over_several_lines_is_one_line():
    rule = _rule("sequence", "`{then_text}` after\n   the save at {first_line}\r\n", first=["save"], then=["append"])
    assert rule.message == "`{then_text}` after the save at {first_line}"


def test_a_width_built_of_fields_is_a_bad_rule():
    """(A review, session 41.) `{then_text:>{then_line}{then_line}}` passed the digit
    check and built 30 MB for one finding."""
    for message in ("{then_text:>{then_line}{then_line}}", "{then_text:>9{then_line}}"):
        with pytest.raises(UsageError) as err:
            _rule("sequence", message, first=["save"], then=["append"])
        assert err.value.key == "message"
    _rule("sequence", "{then_text:>{then_line}}", first=["save"], then=["append"])  # (one field: as before)
