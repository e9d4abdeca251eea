"""The text format's excerpt and the quoted code, on lines that are not plain ASCII
and code wrapped with a backslash (session 42, a review of the surfaces)."""
from __future__ import annotations

import json

from cliutil import oc, write

WRAPPED = """
def f(store, ledger, run):
    store.save(run)
    ledger.append(run, \\
        1)
"""


def test_a_backslash_continuation_is_quoted_as_one_line(tmp_path):
    write(tmp_path, "m.py", WRAPPED)
    run = oc(tmp_path, "--no-cache", "--format", "json", "m.py")
    diag = json.loads(run.out)["files"][0]["diagnostics"][0]
    assert "`ledger.append(run, 1)`" in diag["message"]
    assert diag["data"]["witness"][-1]["text"] == "ledger.append(run, 1)"


def test_a_baselined_call_rewrapped_from_a_backslash_to_brackets_stays_hidden(tmp_path):
    write(tmp_path, "m.py", WRAPPED)
    assert oc(tmp_path, "--no-cache", "--write-baseline", "b.json", "m.py").code == 0
    write(tmp_path, "m.py", """
        def f(store, ledger, run):
            store.save(run)
            ledger.append(run,
                          1)
    """)
    run = oc(tmp_path, "--no-cache", "--baseline", "b.json", "m.py")
    assert (run.code, run.codes()) == (0, []), run


def test_the_carets_stand_under_the_anchor_after_wide_characters(tmp_path):
    write(tmp_path, "m.py", """
        def f(store, ledger, run):
            store.save(run); x = "\N{GRINNING FACE}\u65e5\u672c"; ledger.append(run)
    """)
    out = oc(tmp_path, "--no-cache", "--color", "never", "m.py").out.splitlines()
    code = next(i for i, line in enumerate(out) if "| " in line and "ledger.append(run)" in line and "x =" in line)
    source, carets = out[code], out[code + 1]
    # three wide characters take two columns each: the carets are three columns to the
    # right of where counting characters puts them
    shown = source.index("ledger.append(run)") + 3
    assert carets.index("^") == shown, (source, carets)
    assert carets.count("^") == len("ledger.append(run)")


def test_marks_and_joiners_take_no_column():
    from ordercheck.reporters.text import _width

    assert _width("\u0e17\u0e35\u0e48\u0e19\u0e35\u0e48") == 2  # Thai: two letters, four marks
    assert _width("a\u200db\ufe0f") == 2  # a zero-width joiner, a variation selector
    assert _width("\u65e5\u672c") == 4 and _width("e\u0301") == 1
