"""semantics §Contracts, correlated tests: no finding rests on a walk that takes two branches
that contradict each other. Cases through the engine (findings), then the pruned
graph itself (bound, handler copies, --graph) and a trace check that a real
execution is always a walk in the pruned graph."""
import random
import textwrap

import pytest
import tracecheck as tc
from checkutil import check_source, codes_lines
from cliutil import oc

from ordercheck import cfg, feasible, frontend
from ordercheck.frontend import expressions as exprmod

SEQ = ["OC101", "OC102"]

SAVE = "self._store.save(run)"
TERM = 'self._ledger.append_terminal(run.id, "COMPLETED")'


def seq(src, select=SEQ):
    return codes_lines(check_source(src, select=select))


def save_then_term(first_test: str, second_test: str, between: str = "pass", params: str = "x") -> list:
    """Save under ``first_test``, terminal append under ``second_test``: OC101 unless
    the two tests contradict each other."""
    src = f"""
def complete(self, run, {params}):
    if {first_test}:
        {SAVE}
    {between}
    if {second_test}:
        {TERM}
"""
    return seq(src, ["OC101"])


def test_the_spec_example_is_one_path():
    src = f"""
    def complete(self, run, dry_run):
        if dry_run:
            return
        {SAVE}
        if not dry_run:
            return
        {TERM}
    """
    assert seq(src) == []
    # `dry_run` is falsy after the first return: the second `if dry_run:` never returns
    assert seq(src.replace("if not dry_run:", "if dry_run:")) == [("OC101", 8)]
    # without the correlation the append would follow the save
    assert seq(src.replace("if not dry_run:", "if run.dry_run:")) == [("OC101", 8)]


@pytest.mark.parametrize("first,second,pruned", [
    ("x", "not x", True),
    ("not x", "x", True),
    ("x", "x", False),
    ("x is None", "x is not None", True),
    ("x is not None", "x is None", True),
    ("None is x", "x is not None", True),
    ("x is None", "x", True),          # None is falsy
    ("x", "x is None", True),
    ("not x", "x is None", False),     # falsy may be None
    ("x is not None", "x", False),     # not None may be truthy
    ("x is not None", "not x", False),
    ("x == 1", "x != 1", False),       # any other test tells nothing
    ("x.ready", "not x.ready", False),  # not a plain name
    ("f(x)", "not f(x)", False),
])
def test_facts_of_a_test(first, second, pruned):
    assert save_then_term(first, second) == ([] if pruned else [("OC101", 7)])


@pytest.mark.parametrize("first,second,pruned", [
    ("x and y", "not x", True),        # a true `and` tells both
    ("x and y", "not y", True),
    ("not (x and y)", "x", False),     # a false `and` tells nothing
    ("not (x or y)", "y", True),       # a false `or` tells both false
    ("not (x or y)", "x", True),
    ("x or y", "not x", False),        # a true `or` tells nothing
    ("not x and y is None", "x or y", False),  # a true `or` tells nothing, even here
    ("not x and y is None", "y", True),
    ("not (not x or y)", "not x", True),
])
def test_and_or_not(first, second, pruned):
    got = save_then_term(first, second, params="x, y")
    assert got == ([] if pruned else [("OC101", 7)])


@pytest.mark.parametrize("between", [
    "x = run.flag",
    "x, y = run.pair",
    "x: bool = run.flag",
    "x += 1",
    "del x",
    "print(x := run.flag)",
    "for x in run.items: pass",
    "with run.lock() as x: pass",
    "import x",
    "def x(): pass",
    "x.append(1)",
    "x[0] = 1",
    "try:\n        run.go()\n    except Exception as x:\n        pass",
])
def test_a_write_forgets(between):
    assert save_then_term("x", "not x") == []
    assert save_then_term("x", "not x", between=between) == [("OC101", 7 + between.count("\n"))]


def test_a_write_to_another_name_or_an_argument_use_does_not_forget():
    assert save_then_term("x", "not x", between="y = run.flag") == []
    assert save_then_term("x", "not x", between="run.use(x)") == []
    # mutation changes truthiness but not None-ness
    assert save_then_term("x is None", "x is not None", between="x.append(1)") == []


@pytest.mark.parametrize("method", ["save", "delete", "refresh_from_db", "items", "get", "sort"])
def test_a_method_call_that_is_no_container_change_is_no_write(method):
    """Contract §4 lists the writes; a method call is not among them. ``task.save()``
    between ``if task:`` and ``if not task:`` leaves ``task`` as truthy as it was (a
    held-out package's `bg_runner`: four false findings when its persistence went
    through the tested name's own methods)."""
    assert save_then_term("x", "not x", between=f"x.{method}()") == []
    assert save_then_term("x", "not x", between=f"x.child.{method}()") == []


def test_a_container_change_through_an_alias_forgets_truthiness():
    # `add = x.append` renders, matches and resolves as `x.append` (semantics §Events)
    assert save_then_term("x", "not x", between="add = x.append\n    add(1)") == [("OC101", 8)]


@pytest.mark.parametrize("method", sorted(exprmod.CONTAINER_MUTATORS))
def test_a_container_change_forgets_truthiness(method):
    assert save_then_term("x", "not x", between=f"x.{method}(1)") == [("OC101", 7)]


def test_global_and_nonlocal_names_are_not_tracked():
    src = f"""
    def complete(self, run):
        global x
        if x:
            {SAVE}
        if not x:
            {TERM}
    """
    assert seq(src) == [("OC101", 7)]
    nested = f"""
    def outer(self, run, x):
        def flip():
            nonlocal x
            x = not x
        if x:
            {SAVE}
        flip()
        if not x:
            {TERM}
    """
    assert seq(nested) == [("OC101", 10)]


def test_the_module_body_is_not_pruned():
    src = """
    if x:
        store.save(run)
    if not x:
        ledger.append_terminal(run.id, "COMPLETED")
    """
    assert seq(src) == [("OC101", 5)]


def test_elif_while_and_assert():
    elif_src = f"""
    def complete(self, run, x, y):
        if y:
            pass
        elif x:
            {SAVE}
        if not x:
            {TERM}
        if y:
            pass
    """
    assert seq(elif_src) == []
    while_src = f"""
    def complete(self, run, pending):
        if pending:
            {SAVE}
        while pending:
            pending = run.step()
        if pending:
            {TERM}
    """
    # after the loop `pending` is falsy; the append needs it truthy
    assert seq(while_src) == []
    while_break = while_src.replace("pending = run.step()", "pending = run.step()\n            if run.x:\n                break")
    assert seq(while_break) == [("OC101", 10)]
    assert_src = f"""
    def complete(self, run, x):
        if not x:
            {SAVE}
        assert x
        {TERM}
    """
    assert seq(assert_src) == []
    assert seq(assert_src.replace("assert x", "assert x, 'x must be set'")) == []
    assert seq(assert_src.replace("assert x", "assert run.x")) == [("OC101", 6)]


def test_conditional_expressions():
    src = f"""
    def complete(self, run, x):
        saved = {SAVE} if x else None
        done = None if x else {TERM}
    """
    assert seq(src) == []
    assert seq(src.replace("None if x", "None if run.x")) == [("OC101", 4)]
    written = src.replace("        done =", "        x = run.flag\n        done =")
    assert seq(written) == [("OC101", 5)]
    # mixed with statements
    mixed = f"""
    def complete(self, run, x):
        if not x:
            {SAVE}
        done = {TERM} if not x else None
    """
    assert seq(mixed) == [("OC101", 5)]
    assert seq(mixed.replace("if not x else", "if x else")) == []


def test_a_walrus_in_the_test_itself_tells_nothing_about_its_name():
    # `x and (x := g()) is None`: true says nothing about the new x
    assert save_then_term("x and (x := run.g()) is None", "not x") == [("OC101", 7)]
    assert save_then_term("x and (y := run.g()) is None", "not x", params="x, y") == []
    src = f"""
    def complete(self, run, x):
        if x:
            {SAVE}
        done = ((x := 0), {TERM}) if x else None
        if x:
            {TERM}
    """
    # the first append follows the save on a feasible walk; the walrus rebinds x, so
    # what the tests told is forgotten (line 7 is reported too: forgetting only adds)
    assert seq(src) == [("OC101", 5), ("OC101", 7)]


def test_unless_after_respects_correlation():
    # the append's only way to EXIT without a save is infeasible: no finding
    src = f"""
    def complete(self, run, final):
        {SAVE}
        {TERM}
        if final:
            {SAVE}
        if not final:
            raise Incomplete(run)
    """
    assert seq(src) == []
    assert seq(src.replace("if not final:", "if run.bad:")) == [("OC101", 4)]


def test_a_handler_is_copied_per_state():
    src = """
    def complete(self, run, verbose):
        if not verbose:
            return
        try:
            self._ledger.append_terminal(run.id, "FAILED")
        except Exception:
            if verbose:
                logger.warning("lost")
    """
    assert seq(src, ["OC201"]) == []
    # reached with both states: the silent copy is a finding, once
    both = src.replace("            return\n", "            run.note()\n")
    assert both != src
    found = check_source(both, select=["OC201"])
    assert codes_lines(found) == [("OC201", 6)]
    branches = [s.text for s in found[0].witness if s.kind == "branch"]
    assert any("if not verbose:  (true)" in b for b in branches), branches


def test_one_finding_per_call_site_over_copies():
    src = f"""
    def complete(self, run, x):
        if x:
            run.a()
        {SAVE}
        if not x:
            run.b()
        {TERM}
        if x:
            run.c()
    """
    found = check_source(src, select=["OC101"])
    assert codes_lines(found) == [("OC101", 8)]


def test_only_names_tested_twice_at_most_eight():
    """"Only names tested at least twice in a function are tracked, and at most eight
    per function; beyond that, walks are not pruned": a function with nine such names
    is not pruned at all (docs/decisions.md, "Which names")."""
    names = [f"n{i}" for i in range(10)]

    def tracked(count: int):
        body = "".join(f"    if {n}:\n        pass\n    if {n}:\n        pass\n" for n in names[:count])
        src = f"def f({', '.join(names)}, once):\n{body}    if once:\n        pass\n"
        fn = next(f for f in frontend.extract("a.py", src.encode()).functions if f.name == "f")
        return feasible.tracked_names(cfg.build(fn))

    assert tracked(8) == names[:8]
    assert tracked(9) == [] and tracked(10) == []
    template = """
def complete(self, run, {params}):
{head}    if {name}:
        {save}
    if not {name}:
        {term}
"""
    for count, pruned in ((8, True), (9, False)):
        every = " and ".join(names[:count])
        head = f"    if {every}:\n        pass\n    if {every}:\n        pass\n"
        for name in (names[0], names[count - 1]):
            src = template.format(params=", ".join(names), head=head, save=SAVE, term=TERM, name=name)
            assert seq(src, ["OC101"]) == ([] if pruned else [("OC101", 10)]), (count, name)


def _graph(src: str, name: str = "f"):
    fn = next(f for f in frontend.extract("a.py", textwrap.dedent(src).encode()).functions if f.name == name)
    return cfg.build(fn)


def test_the_bound_falls_back_to_the_graph():
    g = _graph("""
    def f(x):
        if x:
            a()
        if not x:
            b()
    """)
    p = feasible.prune_correlated(g)
    assert p is not g and p.graph.get("pruned")
    assert feasible.prune_correlated(g, bound=0, floor=0) is g
    # nothing to prune: the graph itself
    g2 = _graph("def f(x):\n    if x:\n        a()\n    x = c()\n    if x:\n        b()\n")
    assert feasible.prune_correlated(g2) is g2


def test_the_pruned_graph_keeps_entry_exit_raise_and_copies_regions():
    g = _graph("""
    def f(x):
        if x:
            a()
        try:
            b()
        except Exception:
            if x:
                c()
        if not x:
            d()
    """)
    p = feasible.prune_correlated(g)
    assert {cfg.ENTRY, cfg.EXIT, cfg.RAISE} <= set(p)
    regions = list(p.graph["handlers"].values())
    assert len(regions) == 2 and len({r.entry for r in regions}) == 2
    for r in regions:
        assert p.nodes[r.entry]["kind"] == "handler" and r.id in p.nodes[r.entry]["ctx"]
    # a() then d() is infeasible; c() inside the handler needs x
    texts = {}
    for n, d in p.nodes(data=True):
        texts.setdefault(d.get("text"), []).append(n)
    import networkx as nx
    for a in texts["a()"]:
        assert not any(nx.has_path(p, a, d) for d in texts["d()"])


def test_graph_output_shows_the_pruned_graph(tmp_path):
    src = tmp_path / "run.py"
    src.write_text(textwrap.dedent(f"""
    def complete(self, run, dry_run):
        if not dry_run:
            {SAVE}
        if dry_run:
            return
        {TERM}
    """))
    r = oc(tmp_path, "--isolated", "--no-cache", "--graph", f"{src}:complete")
    assert r.code == 0, r.err
    assert r.out.startswith("digraph") and "append_terminal" in r.out


# ---- soundness: an execution is a walk in the pruned graph


def _gen(rng: random.Random, depth: int = 2) -> list:
    names = ["a", "b"]
    out = []
    for _ in range(rng.randint(1, 4)):
        k = rng.randint(0, 9)
        n = rng.choice(names)
        m = rng.choice(names)
        tests = [n, f"not {n}", f"{n} is None", f"{n} is not None", f"{n} and {m}", f"not ({n} or {m})",
                 f"{n} or o.b()"]
        if k <= 3 and depth:
            out.append(f"if {rng.choice(tests)}:")
            out += ["    " + s for s in _gen(rng, depth - 1)]
            if rng.random() < 0.5:
                out.append("else:")
                out += ["    " + s for s in _gen(rng, depth - 1)]
        elif k == 4:
            out.append(f"{n} = o.c(1) if o.b() else (None if o.b() else 0)")
        elif k == 5 and depth:
            out.append(f"while {rng.choice(tests)}:")
            out.append(f"    {n} = None if o.b() else o.b()")
            out += ["    " + s for s in _gen(rng, depth - 1)]
        elif k == 6:
            out.append(f"assert {rng.choice(tests)}")
        elif k == 7 and depth:
            out.append("try:")
            out += ["    " + s for s in _gen(rng, depth - 1)]
            out.append("except Boom:")
            out.append(f"    {n} = o.b()")
        elif k == 8:
            out.append(f"o.c({rng.randint(0, 9)})" if rng.random() < 0.5 else
                       f"{n} = o.c(2) if {rng.choice(tests)} else (o.c(3) if {m} else None)")
        else:
            out.append("return" if rng.random() < 0.3 else "o.tick()")
    return out


def test_executions_are_walks_in_the_pruned_graph():
    checked = 0
    for seed in range(300):
        rng = random.Random(seed)
        body = ["a = None if o.b() else o.b()", "b = None if o.b() else o.b()"] + _gen(rng)
        source = "def f(o):\n" + "\n".join("    " + s for s in body) + "\n"
        g = tc.graph_for(source)
        p = feasible.prune_correlated(g)
        if p is g:
            continue
        checked += 1
        ns = dict(tc.NAMESPACE)
        exec(compile(source, "gen.py", "exec"), ns)
        for oracle_seed in range(8):
            lines, how = tc.trace_lines(ns["f"], tc.Oracle(oracle_seed, 0.2))
            why = tc.is_walk(p, lines, how, tc.finally_ranges(source))
            assert why is None, f"{why}\n{source}"
    assert checked > 50


def test_the_trace_check_can_fail_on_a_wrong_pruning(monkeypatch):
    # a pruning that drops the feasible side is caught by the same check
    source = "def f(o):\n    a = o.b()\n    if a is not None:\n        o.c(1)\n    if not a:\n        o.c(2)\n"
    g = tc.graph_for(source)
    wrong = dict(feasible._FACT_MASK)
    wrong[("truth", False)] = feasible.NONE  # forgets that False is falsy without being None
    monkeypatch.setattr(feasible, "_FACT_MASK", wrong)
    p = feasible.prune_correlated(g)
    ns = dict(tc.NAMESPACE)
    exec(compile(source, "gen.py", "exec"), ns)
    bad = [tc.is_walk(p, *tc.trace_lines(ns["f"], tc.Oracle(s, 0.0)), tc.finally_ranges(source)) for s in range(10)]
    assert any(bad)


# ------------------------------------------------ session 10: which names, when a write happens

def _marked(src):
    from conformance import run_case
    got, want, detail = run_case(src)
    assert got == want, detail


def test_a_module_global_is_not_tracked_a_call_may_rebind_it():
    _marked("""\
DRY_RUN = False

def reload_config(cfg):
    global DRY_RUN
    DRY_RUN = cfg.dry_run

class Runtime:
    def finish(self, run, cfg):
        if not DRY_RUN:
            self._store.save(run)
        reload_config(cfg)
        if DRY_RUN:
            self._ledger.append(Record(run.id, Status.COMPLETED))   # !OC101
""")


def test_an_imported_constant_and_a_closure_variable_are_not_tracked():
    _marked("""\
from config import DRY_RUN

class Runtime:
    def finish(self, run):
        if not DRY_RUN:
            self._store.save(run)
        if DRY_RUN:
            self._ledger.append(Record(run.id, Status.COMPLETED))   # !OC101

def outer(store, ledger, run, dry):
    def inner():
        if not dry:
            store.save(run)
        if dry:
            ledger.append(Record(run.id, Status.COMPLETED))   # !OC101
    return inner
""")


def test_a_parameter_is_still_tracked():
    _marked("""\
def finish(store, ledger, run, dry):
    if not dry:
        store.save(run)
    if dry:
        ledger.append(Record(run.id, Status.COMPLETED))
""")


_PROBE = """\
class Runtime:
    def finish(self, run, ok):
        if not ok:
            self._store.save(run)
        try:
            {body}
        except ProbeError:
            if ok:
                self._ledger.append(Record(run.id, Status.FAILED)){mark}
            return
"""


@pytest.mark.parametrize("body, found", [
    # the call raised: `ok` was never rebound, so `if ok` contradicts `if not ok`
    ("ok = self._probe(run)", False),
    # it returned and a later call raised: `ok` was rebound
    ("ok = self._probe(run)\n            self._check(run)", True),
    # a walrus binds while its statement runs, before the outer call can raise
    ("self._report((ok := self._probe(run)))", True),
], ids=["call-raised", "returned-then-raised", "walrus"])
def test_an_assignment_binds_on_its_statements_normal_way_out(body, found):
    _marked(_PROBE.format(body=body, mark="   # !OC101" if found else ""))


def test_five_independent_flags_in_a_small_function_are_all_pruned():
    _marked("""\
class Runtime:
    def finish(self, run, dry_run, notify, archive, verbose, force):
        if verbose:
            self._log(run)
        if force:
            self._unlock(run)
        if notify:
            self._notify(run)
        if archive:
            self._archive(run)
        if not dry_run:
            self._store.save(run)
        if notify:
            self._notify(run)
        if archive:
            self._archive(run)
        if verbose:
            self._log(run)
        if force:
            self._unlock(run)
        if dry_run:
            self._ledger.append(Record(run.id, Status.COMPLETED))
""")
