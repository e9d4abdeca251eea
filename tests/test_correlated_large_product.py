"""Correlated tests in a function whose product with the tests' facts is too large to
build for every function (semantics §Contracts: "at most eight per function; beyond
that, walks are not pruned", and no finding rests on an infeasible walk). The product
is capped for speed (``feasible.FLOOR``); a function past the cap whose unpruned graph
gives a finding is pruned again with a larger cap before the finding is kept
(``feasible.MAX_PRODUCT_FOR_FINDING``; docs/decisions.md "Correlated tests", "The
graph"). Found by a probe of file-state runtimes: eight option flags, each tested
twice, and twenty statements between the two tests gave a false OC102."""
from __future__ import annotations

import pytest
from checkutil import SEQ, cl

from ordercheck import feasible

FLAGS = ["verbose", "force", "compress", "notify", "archive", "strict", "trace"]


def _job(filler: int, append_when: str = "dry_run") -> str:
    params = ", ".join(f"{f}=False" for f in ["dry_run", *FLAGS])
    lines = ["class Job:", f"    def run(self, run, {params}):"]
    lines += [f"        if {f}: self._out.write_line({f!r})" for f in FLAGS]
    lines += ["        if not dry_run:", "            self._store.save(run)"]
    lines += [f"        run[{i}] = self._out.compute({i})" for i in range(filler)]
    lines += [f"        if not {f}: self._out.write_line({f!r})" for f in FLAGS]
    lines += [f"        if {append_when}:", '            self._ledger.append({"event": "dry"})']
    return "\n".join(lines) + "\n"


def _append_line(src: str) -> int:
    return next(i for i, text in enumerate(src.splitlines(), 1) if "_ledger.append" in text)


@pytest.mark.parametrize("filler", [0, 20, 60])
def test_a_contradicting_walk_gives_no_finding_whatever_the_functions_size(filler):
    assert cl(_job(filler), select=SEQ, table={"extend-events": {"append": ["*._ledger.append"]}}) == []


@pytest.mark.parametrize("filler", [0, 20, 60])
def test_a_feasible_walk_still_gives_its_finding(filler):
    src = _job(filler, append_when="not dry_run")
    table = {"extend-events": {"append": ["*._ledger.append"]}}
    assert cl(src, select=SEQ, table=table) == [("OC102", _append_line(src))]


def test_the_first_product_is_capped_for_such_a_function():
    """The larger cap is what decides here: the product of the 20-statement function
    is past the one every function gets."""
    from checkutil import settings_for

    from ordercheck import frontend, runner, summaries

    src = _job(20)
    facts = frontend.extract("example.py", src.encode(), "example")
    fn = next(f for f in facts.functions if f.name == "run")
    s = settings_for({"extend-events": {"append": ["*._ledger.append"]}}, select=SEQ)
    summ = runner.project_summaries([facts], s)
    g = runner.function_graph(fn, "example.py", s, summ)
    limit = min(max(feasible.BOUND * g.number_of_nodes(), feasible.FLOOR), feasible.MAX_PRODUCT)
    assert feasible.prune_within(g, limit) is None
    assert feasible.prune_within(g, feasible.MAX_PRODUCT_FOR_FINDING) is not None
    assert isinstance(summ, summaries.Summaries)


def test_past_the_larger_cap_the_finding_is_kept(monkeypatch):
    """Where even the larger product cannot be built, the walk is not pruned (the
    finding stays, as before; docs/decisions.md)."""
    monkeypatch.setattr(feasible, "MAX_PRODUCT_FOR_FINDING", 1)
    src = _job(20)
    assert cl(src, select=SEQ, table={"extend-events": {"append": ["*._ledger.append"]}}) == [
        ("OC102", _append_line(src))]
