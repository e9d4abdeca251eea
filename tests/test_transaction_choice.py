"""A ``with`` over a conditional expression is no transaction (docs/decisions.md,
"A ``with`` over a choice of managers").

The contract's transaction is a ``with`` over a call of the ``transaction`` class.
``with (conn.transaction() if wrap else nullcontext()):`` (piccolo's migration runner,
held-out set 90) commits at once on one way only: on the other the body's writes take
effect one by one, so the order between them still matters and is checked.
"""
from __future__ import annotations

import pytest
from checkutil import cl


def _finish(item: str, is_async: bool = False) -> str:
    a = "async " if is_async else ""
    return (
        "from contextlib import nullcontext\n\n\n"
        f"{a}def finish(conn, store, ledger, run, wrap):\n"
        f"    {a}with {item}:\n"
        "        store.save(run)\n"
        "        ledger.append_terminal(run)\n")


def test_a_plain_transaction_commits_the_body_at_once():
    assert cl(_finish("conn.transaction()")) == []


@pytest.mark.parametrize("is_async", [False, True])
@pytest.mark.parametrize("item", [
    "(conn.transaction() if wrap else nullcontext())",
    "(nullcontext() if not wrap else conn.transaction())",
])
def test_a_transaction_on_one_way_only_leaves_the_order(item, is_async):
    assert cl(_finish(item, is_async)) == [("OC101", 7)]
