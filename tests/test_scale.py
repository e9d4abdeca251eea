"""Contracts are reachability, never path enumeration (SPEC §9): 300 sequential
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
