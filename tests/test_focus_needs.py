"""What the outline pre-pass asks of the call graph (``focus.Question``): a function is
hot only when it reaches what some selected rule's finding needs. A ``sequence``
finding needs a node of its ``first`` classes and one of its ``then`` classes in one
graph, so a function that reaches only a ``file-write`` can hold no OC301; a
``requires-before`` finding needs only its ``then`` (docs/performance.md, "Session 27").

Nothing is lost: every case below finds the same with the pre-pass on and forced off,
and the hot sets are checked on the rows themselves.
"""
from __future__ import annotations

from pathlib import Path

from checkutil import settings_for, write_tree

from ordercheck import focus as focusmod
from ordercheck import runner
from ordercheck.kinds import HOLDS_HANDLER
from ordercheck.rulebook import builtin_rules

RULES = {r.id: r for r in builtin_rules()}


def _rows(**functions):
    """One file's rows: name -> (classes its own calls match, the functions it calls)."""
    return {"m.py": [(f"m.py::{name}", frozenset(classes), tuple(f"m.py::{t}" for t in targets))
                     for name, (classes, targets) in functions.items()]}


def _hot(rows, *rule_ids):
    question = focusmod.question_for([RULES[r] for r in rule_ids])
    assert question is not None
    return {k.split("::")[1] for k in focusmod.from_rows(rows, question).hot}


def test_a_sequence_needs_both_of_its_classes_reached():
    rows = _rows(
        writes_only=({"file-write"}, ()),
        renames_only=({"rename"}, ()),
        both_here=({"file-write", "rename"}, ()),
        both_through_callees=((), ("writes_only", "renames_only")),
        write_then_helper=({"file-write"}, ("renames_only",)),
        caller_of_writer=((), ("writes_only",)),
        unrelated=((), ()),
    )
    assert _hot(rows, "OC301") == {"both_here", "both_through_callees", "write_then_helper"}
    # the old question (any class of the rule) made every one of them hot but the last
    question = focusmod.question_for([RULES["OC301"]])
    assert question is not None and question.classes >= {"file-write", "rename"}


def test_each_rule_asks_its_own_question():
    rows = _rows(
        saves=({"save"}, ()),
        appends=({"append"}, ()),
        writes=({"file-write"}, ()),
        saves_and_appends=((), ("saves", "appends")),
    )
    # OC203 (swallowed save) needs a save only; OC101 a save and a (terminal) append,
    # an append made terminal by its markers included (outlines keep no markers)
    assert _hot(rows, "OC203") == {"saves", "saves_and_appends"}
    assert _hot(rows, "OC101") == {"saves_and_appends"}
    assert _hot(rows, "OC101", "OC203", "OC301") == {"saves", "saves_and_appends"}
    assert _hot(rows, "OC202") == {"appends", "saves_and_appends"}


def test_the_question_is_remembered_with_its_answer():
    one = focusmod.question_for([RULES["OC301"]])
    two = focusmod.question_for([RULES["OC301"], RULES["OC203"]])
    assert one is not None and two is not None
    assert one.key() != two.key() and one.key() == sorted(one.key())
    # (OC204: any broad handler can be a finding, but only where a function holds one)
    silent = focusmod.question_for([RULES["OC204"]])
    assert silent is not None and silent.own == {HOLDS_HANDLER} and silent.key() != one.key()


def _run(root: Path, select, prepass: bool, monkeypatch):
    monkeypatch.setattr(runner, "PREPASS", prepass)
    result = runner.run([root], settings_for(None, select=list(select)))
    return sorted((Path(f.path).name, f.code, f.span.line, f.message) for f in result.findings)


def test_findings_are_the_same_with_the_prepass_on_and_off(tmp_path, monkeypatch):
    write_tree(tmp_path, {
        "pyproject.toml": "",
        "store.py": '''
            import json
            import os


            def write_json(path, data):
                with open(path, "w") as f:
                    json.dump(data, f)


            def move(src, dst):
                os.replace(src, dst)


            def log_line(stream, text):
                stream.write(text)
        ''',
        "app.py": '''
            from store import log_line, move, write_json


            def save_state(path, data):
                write_json(path + ".tmp", data)
                move(path + ".tmp", path)


            def report(stream):
                log_line(stream, "done")


            def only_moves(a, b):
                move(a, b)
        ''',
    })
    select = ["OC301", "OC101", "OC102", "OC201", "OC202", "OC203"]
    on = _run(tmp_path, select, True, monkeypatch)
    off = _run(tmp_path, select, False, monkeypatch)
    assert on == off
    assert [(name, code, line) for name, code, line, _ in on] == [("app.py", "OC301", 7)]


# --------------------------------------------------------------------------- found by an adversarial probe

def _cli_codes(root: Path, monkeypatch, prepass: bool, *args):
    from cliutil import oc

    monkeypatch.setattr(runner, "PREPASS", prepass)
    r = oc(root, "-q", "--no-cache", *args, ".")
    return r.codes()


def test_several_definitions_of_one_name_reach_what_each_reaches(tmp_path, monkeypatch):
    """A property's getter, setter and deleter (and `if`/`else` definitions, a
    `singledispatch`'s `_`s) are one key of the call graph: what it reaches is what
    any of them reaches. The setter writes and renames, the deleter only renames: the
    setter's OC301 stands."""
    write_tree(tmp_path, {
        "pyproject.toml": "",
        "a.py": '''
            import json
            import os


            class StateFile:
                def __init__(self, path):
                    self.path = path

                @property
                def state(self):
                    with open(self.path) as fh:
                        return json.load(fh)

                @state.setter
                def state(self, value):
                    tmp = self.path + ".tmp"
                    with open(tmp, "w") as fh:
                        json.dump(value, fh)
                    os.replace(tmp, self.path)

                @state.deleter
                def state(self):
                    os.replace(self.path, self.path + ".bak")
        ''',
    })
    on = _cli_codes(tmp_path, monkeypatch, True)
    assert on == _cli_codes(tmp_path, monkeypatch, False)
    assert on == [("a.py", 20, "OC301")]


USER_RULES = {
    "U1.toml": '''
        id = "U301"
        name = "append-after-save"
        severity = "error"
        kind = "sequence"
        first = ["save"]
        then = ["append"]
        message = "append after save"
        explanation = "x"
    ''',
    "U2.toml": '''
        id = "U302"
        name = "append-once"
        severity = "error"
        kind = "at-most-once"
        event = ["append"]
        message = "second append"
        explanation = "x"
    ''',
    "U3.toml": '''
        id = "U304"
        name = "append-needs-save"
        severity = "error"
        kind = "requires-before"
        first = ["save"]
        then = ["append"]
        message = "append without save"
        explanation = "x"
    ''',
}


def test_a_rule_on_append_sees_terminal_appends(tmp_path, monkeypatch):
    """Every terminal append is an append (``Vocabulary.classify``): a rule that names
    `append` finds a call that matches only a `terminal-append` pattern, with the
    pre-pass as without it."""
    write_tree(tmp_path, {
        "ordercheck.toml": 'rules = ["myrules/*.toml"]\n\n[extend-events]\nsave = ["store.save"]\n'
                           'terminal-append = ["events.record_terminal"]\n',
        **{f"myrules/{name}": text for name, text in USER_RULES.items()},
        "a.py": '''
            def finish(store, events, run):
                store.save(run)
                events.record_terminal(run)


            def twice(events, run):
                events.record_terminal(run)
                events.record_terminal(run.parent)
        ''',
    })
    for select in ("U301", "U302", "U304"):
        on = _cli_codes(tmp_path, monkeypatch, True, "--select", select)
        assert on == _cli_codes(tmp_path, monkeypatch, False, "--select", select), select
        assert on, select


def test_a_silent_handler_rule_makes_hot_only_the_functions_that_hold_a_handler():
    # (session 65: OC204 turned the pre-pass off, so `--extend-select OC204` read every
    # file whole; held-out sets 285 and 299 measured it at two to four times the run)
    rows = _rows(
        handles=({HOLDS_HANDLER}, ("helper",)),
        helper=((), ()),
        caller_of_handler=((), ("handles",)),
        saves=({"save"}, ()),
    )
    assert _hot(rows, "OC204") == {"handles"}
    assert _hot(rows, "OC204", "OC203") == {"handles", "saves"}
    question = focusmod.question_for([RULES["OC204"]])
    assert question is not None
    focused = focusmod.from_rows(rows, question)
    assert {k.split("::")[1] for k in focused.needed} == {"handles", "helper"}  # (its helper's summary)
    assert HOLDS_HANDLER not in focused.seen["m.py"]  # (no event class a run saw)


def test_silent_handler_findings_are_the_same_with_the_prepass_on_and_off(tmp_path, monkeypatch):
    write_tree(tmp_path, {
        "pyproject.toml": "",
        "util.py": '''
            import logging

            log = logging.getLogger(__name__)


            def loud(exc):
                log.warning("failed: %s", exc)


            def quiet(exc):
                log.debug("failed: %s", exc)
        ''',
        "conf.py": '''
            class Config:
                try:
                    import yaml
                except Exception:
                    yaml = None
        ''',
        "app.py": '''
            from util import loud, quiet

            try:
                import fast
            except Exception:
                fast = None


            class Config:
                try:
                    import yaml
                except Exception:
                    yaml = None


            def a(run):
                try:
                    run()
                except Exception as e:
                    loud(e)


            def b(run):
                try:
                    run()
                except Exception as e:
                    quiet(e)


            def c(run):
                def inner():
                    try:
                        run()
                    except BaseException:
                        pass
                return inner


            def d(run):
                run()
        ''',
    })
    on = _run(tmp_path, ["OC204"], True, monkeypatch)
    off = _run(tmp_path, ["OC204"], False, monkeypatch)
    assert on == off
    assert [(name, line) for name, _, line, _ in on] == [("app.py", 6), ("app.py", 13), ("app.py", 27), ("app.py", 35),
                                                         ("conf.py", 5)]  # (a class body's, alone in its file)
