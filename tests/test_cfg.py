"""Exact edge sets of small functions, one per construct of semantics §Graph.

Labels: ``name()@line`` is a call node, ``kind@line`` a statement node, ``handler@line``
an except clause, ``finally(way)`` the entry of one copy of a finally body, and
``point:...``/``reraise:...`` synthetic points where a statement raises after its calls.
The expected sets were checked by hand against Python's semantics.
"""
import os
from pathlib import Path

import pytest
from graphutil import edges, graph_of, label, show

SNAPSHOTS = Path(__file__).parent / "snapshots" / "cfg"
CASES = sorted(p.stem for p in SNAPSHOTS.glob("*.py"))


@pytest.mark.parametrize("name", CASES)
def test_exact_edges(name):
    """``snapshots/cfg/NAME.py`` is a function; ``NAME.edges`` its edge set, one
    ``source -[kind]-> target`` per line, checked by hand. After a deliberate change run
    ``ORDERCHECK_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_cfg.py`` and review the diff."""
    source = (SNAPSHOTS / f"{name}.py").read_text()
    got = edges(graph_of(source))
    snapshot = SNAPSHOTS / f"{name}.edges"
    if os.environ.get("ORDERCHECK_UPDATE_SNAPSHOTS"):
        snapshot.write_text("".join(f"{a} -[{kind}]-> {b}\n" for a, b, kind in sorted(got)))
    want = {tuple(_parse(line)) for line in snapshot.read_text().splitlines() if line}
    assert got == want, "\n" + show(graph_of(source))


def test_there_are_snapshots():
    assert len(CASES) >= 12


def _parse(line):
    left, rest = line.split(" -[", 1)
    kind, right = rest.split("]-> ", 1)
    return left, right, kind


def _nodes(g, text):
    return [n for n in g.nodes if label(g, n) == text]


FINALLY = '''
def f(xs):
    for x in xs:
        try:
            if a():
                return 1
            if b():
                break
            if c():
                continue
            d()
        finally:
            fin()
    after()
'''


def test_finally_is_walked_once_per_way_out():
    g = graph_of(FINALLY)
    copies = {g.nodes[n]["way"] for n in g.nodes if g.nodes[n]["kind"] == "finally"}
    assert copies == {"return", "break", "continue", "raise"}
    fins = _nodes(g, "fin()@13")
    assert len(fins) == 5  # normal + four ways out
    by_way = {}
    for entry in (n for n in g.nodes if g.nodes[n]["kind"] == "finally"):
        stmt = next(iter(g.successors(entry)))
        fin = next(iter(g.successors(stmt)))
        by_way[g.nodes[entry]["way"]] = {(label(g, s), g.edges[fin, s]["kind"]) for s in g.successors(fin)}
    assert by_way == {
        "return": {("EXIT", "finally"), ("RAISE", "exception")},
        "break": {("simple@14", "finally"), ("RAISE", "exception")},
        "continue": {("loop@3", "loop"), ("RAISE", "exception")},
        "raise": {("reraise:re-raise", "normal"), ("RAISE", "exception")},
    }
    normal = [n for n in fins if all(label(g, s) != "reraise:re-raise" for s in g.successors(n))]
    assert any(("loop@3", "loop") == (label(g, s), g.edges[n, s]["kind"]) for n in normal for s in g.successors(n))


def test_return_in_finally_swallows_and_resumes_nothing():
    g = graph_of('''
def f():
    try:
        a()
    finally:
        return 2
''')
    exc_copy = next(n for n in g.nodes if g.nodes[n]["kind"] == "finally" and g.nodes[n]["way"] == "raise")
    # the exception copy ends in a return: control reaches EXIT, never RAISE
    import networkx as nx

    assert "EXIT" in nx.descendants(g, exc_copy)
    assert "RAISE" not in nx.descendants(g, exc_copy)
    assert not any(g.nodes[n]["kind"] == "reraise" for n in g.nodes)


def test_unreachable_code_has_no_nodes():
    g = graph_of('''
def f():
    return 1
    store.save(r)
''')
    assert not any(g.nodes[n].get("kind") == "call" for n in g.nodes)


def test_nested_function_and_lambda_events_stay_out():
    g = graph_of('''
def f():
    def inner():
        store.save(r)
    cb = lambda: ledger.append(r)
    return cb
''')
    assert not any(g.nodes[n].get("kind") == "call" for n in g.nodes)


def test_exception_from_finally_copy_propagates_to_outer_handler():
    g = graph_of('''
def f():
    try:
        try:
            a()
        finally:
            fin()
    except Exception:
        h()
''')
    reraise = next(n for n in g.nodes if g.nodes[n]["kind"] == "reraise")
    assert {label(g, s) for s in g.successors(reraise)} == {"handler@8"}
    for n in _nodes(g, "fin()@7"):
        assert "handler@8" in {label(g, s) for s in g.successors(n)}


def test_await_and_yield_do_not_change_flow():
    g = graph_of('''
async def f():
    x = await store.save(r)
    yield ledger.append(x)
''')
    assert ("store.save()@3", "simple@4", "normal") in edges(g)


def test_fast_positions_agree_with_libcst_public_api():
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    from ordercheck.frontend.positions import codegen_positions

    source = (Path(__file__).resolve().parent.parent / "fixtures" / "runtime" / "runtime.py").read_text()
    tree = cst.parse_module(source)
    fast = codegen_positions(tree)
    public = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    assert len(fast) == len(public) > 1000
    assert all(fast[node] == public[node] for node in public)


def test_a_statement_kind_nobody_handles_fails_loudly():
    """A new statement kind must get its row in the builder; it never passes silently
    as a simple statement (the way a misspelt kind once did)."""
    import textwrap

    from ordercheck import cfg, frontend

    ff = frontend.extract("t.py", textwrap.dedent("""\
        def f(store):
            store.save(1)
        """).encode(), "t")
    fn = next(f for f in ff.functions if f.qualname == "f")
    fn.body[0].kind = "bogus"
    with pytest.raises(ValueError, match="no handler for the statement kind 'bogus'"):
        cfg.build(fn, lambda call: False)
    # nested too: inside a ``finally`` copy built on the way out of a ``return``
    ff = frontend.extract("t.py", textwrap.dedent("""\
        def f(store):
            try:
                return 1
            finally:
                store.save(1)
        """).encode(), "t")
    fn = next(f for f in ff.functions if f.qualname == "f")
    fn.body[0].finalbody[0].kind = "bogus"
    with pytest.raises(ValueError, match="no handler for the statement kind 'bogus'"):
        cfg.build(fn, lambda call: False)


def test_every_statement_kind_and_frame_kind_has_its_row():
    """Adding a statement kind is one ``StmtKind`` member, one row of ``_Builder.STMT``
    (and one row in the extractor); adding a frame kind one row of ``_Builder.CROSS``."""
    from ordercheck import cfg
    from ordercheck.kinds import FrameKind, StmtKind

    assert set(cfg._Builder.STMT) == set(StmtKind)
    assert set(cfg._Builder.CROSS) == set(FrameKind)


def test_graph_kinds_are_the_kinds_enums():
    """Every node, edge and region kind the builder makes is a member of its enum (and
    still reads as the same string)."""
    from ordercheck.kinds import EdgeKind, NodeKind, RegionKind

    g = graph_of('''
from contextlib import suppress

def g(store, xs):
    with open("p") as fh, suppress(OSError):
        try:
            for x in xs:
                store.save(x)
        except ValueError:
            raise
        finally:
            fh.flush()
''', qualname="g")
    for graph in (g, graph_of(FINALLY)):
        assert {type(d["kind"]) for _, d in graph.nodes(data=True)} == {NodeKind}
        assert {type(d["kind"]) for _, _, d in graph.edges(data=True)} == {EdgeKind}
        assert all(type(r.kind) is RegionKind for r in graph.graph["handlers"].values())
    assert {d["kind"] for _, d in g.nodes(data=True)} >= {"entry", "exit", "raise", "stmt", "call", "loop", "handler", "with-exit"}
    assert {r.kind for r in g.graph["handlers"].values()} == {"except", "finally", "with"}
