"""Files CPython compiles whose expressions nest deeper than the default recursion
limit lets libcst and the front end's recursive walks go (a few hundred terms of a
flat concatenation, `+` chain, method chain or subscript chain; CPython's own
``Lib/pydoc_data/topics.py``): read again in a thread with a deep stack and a higher
limit (``depth.deeply``), not an OC900 "nests too deeply" (the sixteenth
set's robustness sweep, session 35)."""
from __future__ import annotations

import sys

import pytest
from checkutil import check_source

from ordercheck import depth, frontend

SHAPES = {
    "strings": lambda n: "(\n" + "\n".join(f"            'part {i} '" for i in range(n)) + "\n        )",
    "plus": lambda n: " + ".join(f"a{i}" for i in range(n)),
    "or": lambda n: " or ".join(f"a{i}" for i in range(n)),
    "calls": lambda n: "q" + ".f()" * n,
    "subscripts": lambda n: "x" + "[0]" * n,
}


def program(body: str) -> str:
    return f"""
class Runtime:
    def complete(self, run):
        msg = {body}
        self._store.save(run)
        self._ledger.append_terminal(run.id, msg)
"""


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_deeply_nested_expression_is_read_and_checked(shape):
    src = program(SHAPES[shape](700))
    compile(src, "deep.py", "exec")  # (CPython takes it)
    found = check_source(src, select=["OC101"])
    assert [f.code for f in found] == ["OC101"], [f.message for f in found]
    assert found[0].span.line == src.count("\n")  # the append, the last line


def test_the_recursion_limit_and_stack_are_restored():
    import threading

    limit, stack = sys.getrecursionlimit(), threading.stack_size()
    facts = frontend.extract("deep.py", program(SHAPES["plus"](700)).encode())
    assert facts.error is None and "complete" in [fn.name for fn in facts.functions]
    assert (sys.getrecursionlimit(), threading.stack_size()) == (limit, stack)


def test_deeply_raises_what_the_function_raised():
    def boom():
        raise KeyError("x")

    with pytest.raises(KeyError):
        depth.deeply(boom)


def test_deeper_than_the_deep_stack_is_still_one_oc900(monkeypatch):
    monkeypatch.setattr(depth, "DEEP_LIMIT", 1500)  # (a limit that 700 terms exceed too)
    assert sys.getrecursionlimit() <= 1500
    facts = frontend.extract("deep.py", program(SHAPES["calls"](700)).encode())
    assert facts.error is not None and "nests too deeply to analyse" in facts.error.message
    assert not facts.error.internal  # (a limit, not a bug)


def elif_chain(n: int) -> str:
    branches = "".join(f"    elif x == {i}:\n        pass\n" for i in range(1, n))
    return (f"def f(store, ledger, run, x):\n    if x == 0:\n        pass\n{branches}"
            "    store.save(run)\n    ledger.append_terminal(run.id)\n")


@pytest.mark.parametrize("cache", [False, True])
def test_a_thousand_branch_elif_chain_is_checked_with_the_cache_and_without(tmp_path, cache):
    """(Session 35's review.) The statement tree nests as deep as the chain: the graph
    builder, the summaries and the cache's light facts ran out of recursion after the
    front end had read it deeply (an OC901, or the whole run's exit 2 with the cache)."""
    from cliutil import oc, write

    src = elif_chain(1100)
    write(tmp_path, "e.py", src)
    args = [] if cache else ["--no-cache"]
    for _ in range(2 if cache else 1):  # (cold, then warm)
        r = oc(tmp_path, "--isolated", *args, "e.py")
        assert r.codes() == [("e.py", src.count("\n"), "OC101")], r


def test_a_deep_stack_that_cannot_start_falls_back(monkeypatch):
    """(A `ulimit -v`.) No thread with a deep stack: the shallow attempt's answer, one
    OC900, not a failed run."""
    import threading

    def refuse(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    limit, stack = sys.getrecursionlimit(), threading.stack_size()
    facts = frontend.extract("deep.py", program(SHAPES["calls"](700)).encode())
    assert facts.error is not None and "nests too deeply to analyse" in facts.error.message
    assert (sys.getrecursionlimit(), threading.stack_size()) == (limit, stack)


def test_deeply_inside_deeply_runs_in_place():
    """(No deadlock: the outer call holds the lock while its thread runs.)"""
    import threading

    names = []

    def inner():
        names.append(threading.current_thread().name)
        return 2

    assert depth.deeply(lambda: depth.deeply(inner) + 1) == 3
    assert names == [depth.DEEP_THREAD]
