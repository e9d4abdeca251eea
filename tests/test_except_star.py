"""``try``/``except*`` (semantics §Graph "Edges follow Python exactly"): every clause
whose type matches part of the group runs, in order, and what no clause matched is
raised again after the last. Proven against execution, and through the contracts."""
import sys

import pytest
from conformance import run_case

needs_311 = pytest.mark.skipif(sys.version_info < (3, 11), reason="except* is Python 3.11 syntax")


def check(src):
    got, want, detail = run_case(src)
    assert got == want, detail


def admits_every_execution(source, seeds, p):
    """Each seeded execution of ``f`` under ``sys.settrace`` is a walk of its graph,
    and both a return and a raise were walked."""
    import tracecheck as tc

    g = tc.graph_for(source)
    ns = dict(tc.NAMESPACE)
    exec(compile(source, "gen.py", "exec"), ns)
    finals = tc.finally_ranges(source)
    outcomes = set()
    for seed in seeds:
        lines, how = tc.trace_lines(ns["f"], tc.Oracle(seed, p))
        outcomes.add(how)
        why = tc.is_walk(g, lines, how, finals)
        assert why is None, f"seed {seed}: {why}"
    assert len(outcomes) == 2


@needs_311
def test_two_matching_clauses_run_one_after_the_other():
    check("""\
async def finish(self, run):
    try:
        await self._run_tasks(run)
    except* TaskCancelled:
        self._store.save(run)
    except* Exception:
        self._ledger.append(Record(run.id, "task-error"))   # !OC102
""")


@needs_311
@pytest.mark.parametrize("then", ["", "\n        raise RuntimeError(\"gave up\")", "\n        raise"])
def test_two_terminal_appends_in_two_clauses_are_one_path(then):
    """Also when the first clause raises: what it raises is kept for the end, and the
    rest of the group still tries the later clauses (Python 3.11 runs them, then raises)."""
    check(f"""\
def finish(self, run):
    try:
        self._run_tasks(run)
    except* TimeoutError:
        self._ledger.append(Record(run.id, Status.FAILED)){then}
    except* ValueError:
        self._ledger.append(Record(run.id, Status.CANCELLED))   # !OC103
""")


@needs_311
def test_plain_except_clauses_stay_alternatives():
    check("""\
def finish(self, run):
    try:
        self._run_tasks(run)
    except TimeoutError:
        self._ledger.append(Record(run.id, Status.FAILED))
    except ValueError:
        self._ledger.append(Record(run.id, Status.CANCELLED))
""")


@needs_311
@pytest.mark.parametrize("seed_base", [0, 100])
@pytest.mark.parametrize("first_clause", [
    "o.tick()",
    # a clause that raises: the later clauses still run, then it is raised
    "o.tick()\n        if o.b():\n            raise Boom(7)\n        o.c(8)",
])
def test_except_star_graph_admits_every_execution(seed_base, first_clause):
    import tracecheck as tc

    source = tc.PRELUDE + f"""

def f(o):
    try:
        o.c(1)
        if o.b():
            raise ExceptionGroup("g", [Boom(2), KeyError(3)])
        if o.b():
            raise ExceptionGroup("h", [KeyError(4)])
        if o.b():
            raise ExceptionGroup("i", [OSError(5), Boom(6)])
    except* Boom:
        {first_clause}
    except* KeyError:
        o.tick()
    o.tick()
"""
    admits_every_execution(source, range(seed_base, seed_base + 60), 0.3)


@needs_311
def test_a_clause_that_raises_lets_the_later_clauses_run():
    """A sequence rule across a clause that raises (OC301): the later clause runs."""
    check("""\
import os
def publish(fh, data, tmp, dst, work):
    try:
        work()
    except* KeyError:
        fh.write(data)
        raise
    except* ValueError:
        os.replace(tmp, dst)   # !OC301
""")


@needs_311
def test_what_a_clause_raises_is_not_caught_by_a_later_clause():
    """The later clause runs for the rest of the group, not for what was raised: a
    save that fails in the first clause is not swallowed by a silent second one."""
    check("""\
def finish(self, run):
    try:
        self._run_tasks(run)
    except* TimeoutError:
        self._store.save(run)
    except* Exception:
        pass
""")


