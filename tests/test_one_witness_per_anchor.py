"""A call with several copies in the graph (a ``finally`` body copied per way out)
is one finding (the copy whose witness is shortest, then the first): the contracts
build the witness of that copy only, not one per copy that is thrown away (the
session 35 sweep: one aiohttp method with every call a terminal append took 30 s,
most of it in witnesses dropped later)."""
from __future__ import annotations

from checkutil import check_source

from ordercheck.contracts import at_most_once, sequence, silent_handler, swallowed

SRC = '''
    import logging
    log = logging.getLogger(__name__)


    def finish(store, ledger, run, flag):
        ledger.append_terminal(run.id, "failed")
        try:
            if flag:
                return 1
            if run.x:
                raise ValueError(run)
            for item in run.items:
                if item:
                    break
        finally:
            store.save(run)
            ledger.append_terminal(run.id, "completed")
            try:
                ledger.append_terminal(run.id, "again")
            except Exception:
                pass
'''


def test_each_contract_builds_one_witness_per_anchor(monkeypatch):
    calls = []
    for module in (at_most_once, sequence, swallowed, silent_handler):
        real = module.head_path

        def counting(g, reach, node, real=real, name=module.__name__):
            calls.append(name)
            return real(g, reach, node)

        monkeypatch.setattr(module, "head_path", counting)
    found = check_source(SRC, select=["OC101", "OC103", "OC201", "OC204"])
    by_rule = {}
    for f in found:
        by_rule[f.code] = by_rule.get(f.code, 0) + 1
    assert by_rule.get("OC103", 0) >= 2 and by_rule.get("OC101", 0) >= 1 and by_rule.get("OC201", 0) >= 1, by_rule
    # one witness built per finding, though the `finally` body stands in the graph once
    # per way out (normal, return, raise, break)
    assert len(calls) == len(found), (calls, [(f.code, f.span.line) for f in found])
