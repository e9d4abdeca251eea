"""A pattern may name a subscript as the callee renders it (``task_record[].set_result``):
``[]`` after a name, ``)`` or ``]`` is that literal text, not an empty character class
(``ordercheck.patterns``; docs/configuration.md, "Event classes")."""
from __future__ import annotations

import pytest
from checkutil import cl
from cliutil import oc, write

from ordercheck.suggest import matches

SRC = """
    def finish(store, task_record, run):
        store.save(run)
        task_record["app_fu"].set_result(run)
"""


@pytest.mark.parametrize("pattern", ["task_record[].set_result", "*task_record[].set_result", "*[].set_result",
                                     "task_record[[]].set_result"])  # (the fnmatch spelling still works)
def test_the_rendered_subscript_is_a_pattern(pattern):
    assert cl(SRC, ["OC102"], {"extend-events": {"append": [pattern]}}) == [("OC102", 4)]


def test_a_character_class_still_reads_as_one():
    assert matches("x[ab].save", ["xa.save"]) and not matches("x[ab].save", ["x[].save"])
    assert matches("x[].save", ["x[].save"]) and not matches("x[].save", ["xa.save"])
    assert matches("a[][].b", ["a[][].b"]) and matches("f()[].save", ["f()[].save"])


def test_a_config_with_it_is_accepted_and_a_bad_class_is_still_named(tmp_path):
    write(tmp_path, "m.py", SRC)
    write(tmp_path, "ordercheck.toml", '[extend-events]\nappend = ["task_record[].set_result"]\n')
    run = oc(tmp_path, "--no-cache", "m.py")
    assert run.code == 1 and run.line_codes() == [(4, "OC102")]
    write(tmp_path, "ordercheck.toml", '[extend-events]\nappend = ["task_record[.set_result"]\n')
    run = oc(tmp_path, "--no-cache", "m.py")
    assert run.code == 2 and "task_record[.set_result" in run.err and "extend-events.append" in run.err


def test_suggest_does_not_call_such_a_pattern_unmatched(tmp_path):
    import json
    write(tmp_path, "m.py", SRC)
    write(tmp_path, "ordercheck.toml", '[extend-events]\nappend = ["task_record[].set_result", "nope[].x"]\n')
    rows = json.loads(oc(tmp_path, "suggest", "--format", "json", ".").out)["unmatched"]
    assert [r["pattern"] for r in rows] == ["nope[].x"]
