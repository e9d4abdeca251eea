"""Faults and gaps the held-out sets of session 64 found (docs/evaluation.md)."""
from __future__ import annotations

import pytest
from checkutil import cl, witness_of

IN_TRANSACTION = '''
    from django.db import transaction

    def a(store, ledger, runs):
        with transaction.atomic():
            {head}
                for run in runs:
                    store.save(run)
            {tail}
        ledger.append(runs)
'''


@pytest.mark.parametrize("head, tail", [
    ("try:", "except KeyError:\n                pass"),  # a handler inside the body
    ("if runs:", ""),                                      # (no handler: the body is split)
])
def test_a_witness_through_a_transaction_takes_the_walk_that_saved(head, tail):
    # held-out set 285: `with atomic(): try: for run in runs: store.save(run)`; the
    # witness reached the commit by the loop's "no more items", a walk that saved nothing
    steps = witness_of(IN_TRANSACTION.format(head=head, tail=tail), "OC102")
    loop = [(k, line, text) for k, line, text in steps if line in (7, 8)]
    assert [(k, line) for k, line, _ in loop] == [("branch", 7), ("loop", 8), ("branch", 7)]
    assert loop[0][2].endswith("(takes an item)") and loop[2][2].endswith("(no more items)")
    assert steps[-2][0] == "save" and "commits: save `store.save(run)` at line 8" in steps[-2][2]
