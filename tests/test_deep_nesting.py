"""Files CPython compiles whose expressions nest deeper than the default recursion
limit lets libcst and the front end's recursive walks go (a few hundred terms of a
flat concatenation, `+` chain, method chain or subscript chain; CPython's own
``Lib/pydoc_data/topics.py``): read again in a thread with a deep stack and a higher
limit (``frontend.source.deeply``), not an OC900 "nests too deeply" (the sixteenth
set's robustness sweep, session 35)."""
from __future__ import annotations

import sys

import pytest
from checkutil import check_source

from ordercheck import frontend
from ordercheck.frontend import source

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
        source.deeply(boom)


def test_deeper_than_the_deep_stack_is_still_one_oc900(monkeypatch):
    monkeypatch.setattr(source, "DEEP_LIMIT", 1500)  # (a limit that 700 terms exceed too)
    assert sys.getrecursionlimit() <= 1500
    facts = frontend.extract("deep.py", program(SHAPES["calls"](700)).encode())
    assert facts.error is not None and "nests too deeply to analyse" in facts.error.message
    assert not facts.error.internal  # (a limit, not a bug)
