"""The graph is proven against execution: every generated function's executed line
sequence must be a walk in its graph (issue: "Graphs proven against execution").

CI runs 2,000 generated functions (each under 12 oracles); set
ORDERCHECK_TRACE_EXAMPLES=100000 to run more by hand.
"""
import os

import pytest
import tracecheck as tc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordercheck import cfg

EXAMPLES = int(os.environ.get("ORDERCHECK_TRACE_EXAMPLES", "2000"))


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_executed_lines_are_a_walk_in_the_graph(data):
    gen = tc.Gen(lambda lo, hi: data.draw(st.integers(lo, hi)))
    source = gen.function(depth=3)
    why = tc.check_source(source)
    assert why is None, why


# ---- regression tests: graph bugs the property test found, kept by name


def _ok(source: str) -> None:
    why = tc.check_source(source, seeds=40)
    assert why is None, why


def test_regression_with_exit_runs_on_return():
    # __exit__ runs (and is traced on the with line) on every way out of the body
    _ok("def f(o):\n    with contextlib.suppress(KeyError):\n        return o.c(1)\n    o.c(2)\n")


def test_regression_with_exit_on_exception_then_outer_finally():
    _ok(
        "def f(o):\n    try:\n        with o.cm():\n            with contextlib.suppress(Boom):\n"
        "                o.c(1)\n            raise Boom()\n    finally:\n        o.c(2)\n"
    )


def test_regression_suppressing_with_inside_loop_swallows_and_continues():
    _ok("def f(o):\n    for _ in o.it():\n        with best_effort():\n            o.c(1)\n            return o.c(2)\n    o.c(3)\n")


def test_regression_comprehension_with_condition():
    # facts once crashed on a comprehension's `if` (libcst's CompIf.test)
    _ok("def f(o):\n    x = [o.c(1) for _ in o.it() if o.b()]\n    return x\n")


def test_regression_break_in_finally_swallows_the_exception():
    _ok(
        "def f(o):\n    while o.b():\n        try:\n            o.c(1)\n        finally:\n"
        "            if o.b():\n                break\n    o.c(2)\n"
    )


# ---- the property test can fail: a broken edge is caught


def _mutant_catches(monkeypatch, mutate) -> bool:
    real_build = cfg.build

    def broken(fn, is_suppressor=lambda c: False, **kw):
        g = real_build(fn, is_suppressor, **kw)
        if not kw:  # the graph under test, not the summary pass's (prelude managers)
            mutate(g)
        return g

    monkeypatch.setattr(tc.cfg, "build", broken)
    for seed in range(300):
        if tc.check_source(tc.random_function(seed)) is not None:
            return True
    return False


def test_mutation_dropping_the_handler_chain_is_caught(monkeypatch):
    def mutate(g):
        for u, v, d in list(g.edges(data=True)):
            if g.nodes[u].get("kind") == "handler" and d["kind"] == "exception":
                g.remove_edge(u, v)

    assert _mutant_catches(monkeypatch, mutate)


def test_mutation_continue_to_after_loop_is_caught(monkeypatch):
    def mutate(g):
        for u, v, d in list(g.edges(data=True)):
            if g.nodes[u].get("stmt") == "continue":
                g.remove_edge(u, v)
                g.add_edge(u, cfg.EXIT, kind="normal")

    assert _mutant_catches(monkeypatch, mutate)


def test_mutation_finally_not_resuming_return_is_caught(monkeypatch):
    def mutate(g):
        for u, v, d in list(g.edges(data=True)):
            if d["kind"] == "finally" and v == cfg.EXIT:
                g.remove_edge(u, v)

    assert _mutant_catches(monkeypatch, mutate)


# ---- project context managers (semantics §Events): suppressing ones continue after the `with`


def test_regression_project_generator_manager_that_suppresses():
    _ok(tc.PRELUDE + "def f(o):\n    with gen_quiet():\n        o.c(1)\n        return o.c(2)\n    o.c(3)\n")


def test_regression_project_class_manager_that_suppresses_inside_loud_one():
    _ok(tc.PRELUDE + "def f(o):\n    with gen_loud(), ClsQuiet():\n        o.c(1)\n    with ClsLoud():\n        o.c(2)\n    o.c(3)\n")


def test_project_suppressing_manager_is_known_to_the_graph():
    # without the manager summaries the code after `with gen_quiet()` would be
    # unreachable from a raising body, and the traced walk would fail
    g = tc.graph_for(tc.PRELUDE + "def f(o):\n    with gen_quiet():\n        raise Boom()\n    o.c(3)\n")
    assert any(d.get("kind") == "call" and d["call"].callee == "o.c" for n, d in g.nodes(data=True)
               if n in cfg.nx.descendants(g, cfg.ENTRY))


def test_transaction_manager_walks():
    _ok(tc.PRELUDE + "def f(o):\n    with o.transaction():\n        o.c(1)\n        if o.b():\n            return o.c(2)\n    o.c(3)\n")


def test_a_transaction_decorator_walks():
    """A function decorated by a transaction is built as a ``with`` over the
    decorator around its body (docs/decisions.md, "A transaction as a decorator")."""
    source = tc.PRELUDE + ("@db.atomic\ndef f(o):\n    o.c(1)\n    if o.b():\n        return o.c(2)\n"
                           "    try:\n        o.c(3)\n    except Exception:\n        pass\n    o.c(4)\n")
    assert any(d.get("text") == "@db.atomic" for _, d in tc.graph_for(source).nodes(data=True))
    _ok(source)
