"""Faults and gaps the held-out sets of session 61 found (docs/evaluation.md)."""
from __future__ import annotations

from checkutil import check_source


def test_an_inner_for_that_runs_out_says_so_going_round_the_outer_loop():
    # held-out set 239 (odoo-addon-hotel-restaurant): an inner `for` ending the outer
    # loop's body went round it as "(false, again)", an `if`'s words
    src = '''
def f(orders):
    for order in orders:
        for line in order.lines:
            order.update({"x": 1})
            ledger_append(line)
    return True
'''
    table = {"extend-events": {"save": ["order.update"], "append": ["ledger_append"]}}
    [f] = check_source(src, table=table, select=["OC102"])
    inner = [s.text for s in f.witness if s.span.line == 4 and s.kind == "branch"]
    assert inner == ["for line in order.lines:  (takes an item)",
                     "for line in order.lines:  (no more items, then round the loop)  "
                     "(then on to the exit with no save after it)"], inner


def test_python_dash_m_never_imports_the_checked_folders_modules(tmp_path):
    # held-out set 242 (quartet-epcis's `parsing/json.py`): `python -m ordercheck` run
    # in a folder whose `json.py` shadows the standard library's ran that file
    import subprocess
    import sys
    (tmp_path / "json.py").write_text('print("PROJECT CODE RAN")\nraise SystemExit(3)\n')
    (tmp_path / "enum.py").write_text('raise SystemExit(4)\n')
    (tmp_path / "t.py").write_text("def f(store, run):\n    store.save(run)\n")
    r = subprocess.run([sys.executable, "-m", "ordercheck", "--isolated", "--no-cache", "t.py"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "PROJECT CODE RAN" not in r.stdout, (r.stdout, r.stderr)
    assert "All checks passed" in r.stdout
