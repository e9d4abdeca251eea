"""A branch step shows the test of an ``if``/``while``/``for`` wrapped over lines
(held-out set 53: langgraph-checkpoint-redis's ``if (`` ... ``):`` read as ``if (``
alone, saying nothing of the branch the witness took)."""
import json

from cliutil import oc, write

SOURCE = '''\
def finish(store, ledger, run, a, b):
    if (
        a.ready  # a comment inside
        and b.ok
    ):
        store.save(run)
    elif (a.x or
          b.y):
        return
    while (a.more(
        1)
    ):
        break
    for item in [
        run.items,
    ]:
        pass
    ledger.append_event("run.completed")
'''


def _steps(tmp_path):
    write(tmp_path, "m.py", SOURCE)
    r = oc(tmp_path, "--isolated", "--no-cache", "--format", "json", "m.py")
    diags = [d for f in json.loads(r.out)["files"] for d in f["diagnostics"]]
    assert [d["code"] for d in diags] == ["OC101"], r
    return [(s["line"], s["text"]) for s in diags[0]["data"]["witness"] if s["event"] == "branch"]


def test_a_wrapped_test_is_joined_up_to_its_colon(tmp_path):
    assert _steps(tmp_path) == [
        (1, "if (a.ready and b.ok):  (true)"),  # (0-based lines, as in an editor's range)
        (9, "while (a.more(1)):  (false)"),  # a call decides the test: still the header
        # (a display of one item takes it at the first test, then runs out: session 69)
        (13, "for item in [run.items]:  (takes an item)"),
        (13, "for item in [run.items]:  (no more items)"),
    ]


def test_a_one_line_header_reads_as_written(tmp_path):
    write(tmp_path, "m.py", "def f(store, ledger, run, a):\n    if a.ok:  # why\n        store.save(run)\n"
                            "    ledger.append_event('run.completed')\n")
    r = oc(tmp_path, "--isolated", "--no-cache", "--format", "json", "m.py")
    steps = json.loads(r.out)["files"][0]["diagnostics"][0]["data"]["witness"]
    assert steps[0]["text"] == "if a.ok:  (true)", steps


def test_a_test_ending_on_the_first_line_is_joined_to_its_colon(tmp_path):
    # `if (run.ready` then `):` on the next line (a review)
    write(tmp_path, "m.py", "def finish(store, ledger, run):\n    store.save(run)\n    if (run.ready  # checked\n"
                            "            ):\n        ledger.append_event('run.completed')\n")
    r = oc(tmp_path, "--isolated", "--no-cache", "--format", "json", "m.py")
    steps = json.loads(r.out)["files"][0]["diagnostics"][0]["data"]["witness"]
    assert [s["text"] for s in steps if s["event"] == "branch"] == ["if (run.ready):  (true)"], steps
