"""Contracts are reachability, never path enumeration (docs/performance.md): 300 sequential
``if``s are 2^300 paths, and the answer still comes back, right."""
from checkutil import check_source, codes_lines


def test_three_hundred_sequential_ifs():
    body = "\n".join(f"    if run.flag_{i}:\n        run.n{i} = {i}" for i in range(300))
    source = (
        "def f(store, ledger, run):\n"
        "    store.save(run)\n"
        f"{body}\n"
        "    ledger.append_terminal(run.id)\n"
        "    try:\n"
        "        ledger.append_event(run.id)\n"
        "    except Exception:\n"
        "        pass\n"
    )
    findings = check_source(source, dedent=False, select=["OC101", "OC102", "OC202"])
    last = 2 + 2 * 300 + 1
    assert codes_lines(findings) == [("OC101", last), ("OC102", last + 2), ("OC202", last + 2)]


def test_many_events_in_one_function_stay_linear():
    # 400 appends after one save: every one is its own finding, each found once
    lines = ["def f(store, ledger, run):", "    store.save(run)"]
    lines += [f"    ledger.append_event({i})" for i in range(400)]
    findings = check_source("\n".join(lines) + "\n", dedent=False, select=["OC102"])
    assert len(findings) == 400
    assert {f.span.line for f in findings} == set(range(3, 403))


# --------------------------------------------------------------------------- big inputs
# (issue: a 100,000-line function, 5,000 functions in a file; bench/scale.py measures
# time and memory, docs/performance.md "Scale: big functions and files". These tests
# check the shape of the work, never its speed.)

import ast

import pytest

from ordercheck import contracts, frontend
from ordercheck.frontend import source as sourcemod
from ordercheck.frontend import statements


def sequential_ifs(blocks: int) -> str:
    """One function of ``2 * blocks`` statements: every 5th ``if`` saves, the others
    append (so every append after the first save is an OC102)."""
    out = ["def big(store, ledger, run):\n"]
    for i in range(blocks):
        call = "store.save(run)" if i % 5 == 0 else f"ledger.append_event(run.id, {i})"
        out.append(f"    if run.flag_{i}:\n        {call}\n")
    return "".join(out)


def expected_ifs(blocks: int) -> list:
    return [("OC102", 3 + 2 * i) for i in range(1, blocks) if i % 5]


def mixed_function(blocks: int) -> str:
    out = ["import os\n\n# a comment\n@decorate(1)\ndef big(store, ledger, run,\n        xs, ys=compute()):\n    \"\"\"doc\"\"\"\n"]
    for i in range(blocks):
        out.append(
            f"    try:\n        ledger.append_event(run.id, {i})\n        store.save(run)\n"
            f"    except KeyError:\n        log.warning('k')\n    finally:\n        run.done = {i}\n"
            f"    for a in xs:\n        while run.more:\n            ledger.append_event(a)\n"
            f"    # between statements\n"
            f"    with open(p) as fh:\n        fh.write('é{i}')\n"
        )
    out.append("    def inner():\n        store.save(run)\n    return inner\n# after\n\n")
    out.append("async def other(store):\n    await store.save(1)\n")
    return "".join(out)


def test_huge_function_is_parsed_in_chunks_with_the_same_facts(monkeypatch):
    source = mixed_function(60)
    data = source.encode()
    whole = frontend.extract("x.py", data, "x")
    assert whole.error is None
    monkeypatch.setattr(sourcemod, "CHUNK_LINES", 40)
    huge = sourcemod.huge_functions(ast.parse(source), sourcemod.split_lines(source), 40)
    assert [len(h.body) > 10 for h in huge.values()] == [True]  # the function is split
    parsed = []
    real = statements.cst.parse_module
    monkeypatch.setattr(statements.cst, "parse_module", lambda text: parsed.append(text.count("\n")) or real(text))
    chunked = frontend.extract("x.py", data, "x")
    assert max(parsed) < 60  # no libcst tree holds the whole function
    assert chunked == whole


def test_long_witnesses_are_cut_and_every_finding_kept():
    blocks = 400  # 800 statements: segments far past contracts.MAX_SEGMENT
    findings = check_source(sequential_ifs(blocks), dedent=False, select=["OC102"])
    assert codes_lines(findings) == expected_ifs(blocks)
    limit = 3 * (contracts.MAX_SEGMENT + 1)  # three segments, each cut past MAX_SEGMENT nodes
    for f in findings:
        assert len(f.witness) <= limit
        kinds = [s.kind for s in f.witness]
        assert "save" in kinds and kinds.count("append") >= 1
        assert any(s.kind == "append" and s.span.line == f.span.line for s in f.witness)
    # the first finding's way to the exit is long: its tail is elided
    assert any(s.kind == "elided" for s in findings[0].witness)


def test_short_witnesses_are_whole():
    findings = check_source(sequential_ifs(20), dedent=False, select=["OC102"])
    assert codes_lines(findings) == expected_ifs(20)
    assert all(s.kind != "elided" for f in findings for s in f.witness)
    # the last finding's witness ends with the remaining branch points to the exit
    last = findings[-1]
    assert [s.kind for s in last.witness].count("branch") >= 3


def test_witness_volume_grows_linearly():
    """Quadrupling the function quadruples the findings; the witness steps in all
    must not grow faster than that (they grew with the square before)."""
    small, big = 200, 800
    total = {}
    for blocks in (small, big):
        findings = check_source(sequential_ifs(blocks), dedent=False, select=["OC102"])
        assert len(findings) == len(expected_ifs(blocks))
        total[blocks] = sum(len(f.witness) for f in findings)
    assert total[big] <= 4.5 * total[small]


@pytest.mark.slow
def test_twenty_thousand_statement_function():
    blocks = 10_000
    findings = check_source(sequential_ifs(blocks), dedent=False, select=["OC102"])
    assert codes_lines(findings) == expected_ifs(blocks)
    assert max(len(f.witness) for f in findings) <= 3 * (contracts.MAX_SEGMENT + 1)
