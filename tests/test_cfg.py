"""Exact edge sets of small functions, one per construct of SPEC §3.

Labels: ``name()@line`` is a call node, ``kind@line`` a statement node, ``handler@line``
an except clause, ``finally(way)`` the entry of one copy of a finally body, and
``point:...``/``reraise:...`` synthetic points where a statement raises after its calls.
The expected sets were checked by hand against Python's semantics.
"""
from pathlib import Path

import pytest
from graphutil import edges, graph_of, label, show

EXPECTED = {
    'if_elif_else': ('\ndef f():\n    if a():\n        b()\n    elif c:\n        d()\n    else:\n        return\n    e()\n', 'ENTRY -[normal]-> if@3\na()@3 -[exception]-> RAISE\na()@3 -[false]-> if@5\na()@3 -[true]-> simple@4\nb()@4 -[exception]-> RAISE\nb()@4 -[normal]-> simple@9\nd()@6 -[exception]-> RAISE\nd()@6 -[normal]-> simple@9\ne()@9 -[exception]-> RAISE\ne()@9 -[normal]-> EXIT\nif@3 -[normal]-> a()@3\nif@5 -[false]-> return@8\nif@5 -[true]-> simple@6\nreturn@8 -[normal]-> EXIT\nsimple@4 -[normal]-> b()@4\nsimple@6 -[normal]-> d()@6\nsimple@9 -[normal]-> e()@9'),
    'while_else_break_continue': ('\ndef f():\n    while c():\n        if d():\n            break\n        if e():\n            continue\n        g()\n    else:\n        h()\n    k()\n', 'ENTRY -[normal]-> while@3\nbreak@5 -[normal]-> simple@11\nc()@3 -[exception]-> RAISE\nc()@3 -[false]-> simple@10\nc()@3 -[true]-> if@4\ncontinue@7 -[loop]-> while@3\nd()@4 -[exception]-> RAISE\nd()@4 -[false]-> if@6\nd()@4 -[true]-> break@5\ne()@6 -[exception]-> RAISE\ne()@6 -[false]-> simple@8\ne()@6 -[true]-> continue@7\ng()@8 -[exception]-> RAISE\ng()@8 -[loop]-> while@3\nh()@10 -[exception]-> RAISE\nh()@10 -[normal]-> simple@11\nif@4 -[normal]-> d()@4\nif@6 -[normal]-> e()@6\nk()@11 -[exception]-> RAISE\nk()@11 -[normal]-> EXIT\nsimple@10 -[normal]-> h()@10\nsimple@11 -[normal]-> k()@11\nsimple@8 -[normal]-> g()@8\nwhile@3 -[normal]-> c()@3'),
    'while_true_without_break': ('\ndef f():\n    while True:\n        a()\n    b()\n', 'ENTRY -[normal]-> while@3\na()@4 -[exception]-> RAISE\na()@4 -[loop]-> while@3\nsimple@4 -[normal]-> a()@4\nwhile@3 -[true]-> simple@4'),
    'for_else': ('\ndef f(xs):\n    for x in it():\n        a(x)\n    else:\n        b()\n', 'ENTRY -[normal]-> for@3\na()@4 -[exception]-> RAISE\na()@4 -[loop]-> loop@3\nb()@6 -[exception]-> RAISE\nb()@6 -[normal]-> EXIT\nfor@3 -[normal]-> it()@3\nit()@3 -[exception]-> RAISE\nit()@3 -[normal]-> loop@3\nloop@3 -[exception]-> RAISE\nloop@3 -[false]-> simple@6\nloop@3 -[true]-> simple@4\nsimple@4 -[normal]-> a()@4\nsimple@6 -[normal]-> b()@6'),
    'with_suppress_and_suppressor': ('\nimport contextlib\ndef f():\n    with contextlib.suppress(ValueError):\n        a()\n    with best_effort():\n        b()\n    c()\n', 'ENTRY -[normal]-> with@4\na()@5 -[exception]-> with-exit(raise)@4\na()@5 -[normal]-> with-exit(normal)@4\nb()@7 -[exception]-> with-exit(raise)@6\nb()@7 -[normal]-> with-exit(normal)@6\nbest_effort()@6 -[exception]-> RAISE\nbest_effort()@6 -[normal]-> simple@7\nc()@8 -[exception]-> RAISE\nc()@8 -[normal]-> EXIT\ncontextlib.suppress()@4 -[exception]-> RAISE\ncontextlib.suppress()@4 -[normal]-> simple@5\nsimple@5 -[normal]-> a()@5\nsimple@7 -[normal]-> b()@7\nsimple@8 -[normal]-> c()@8\nwith-exit(normal)@4 -[normal]-> with@6\nwith-exit(normal)@6 -[normal]-> simple@8\nwith-exit(raise)@4 -[exception]-> RAISE\nwith-exit(raise)@4 -[normal]-> with@6\nwith-exit(raise)@6 -[normal]-> simple@8\nwith@4 -[exception]-> RAISE\nwith@4 -[normal]-> contextlib.suppress()@4\nwith@6 -[exception]-> RAISE\nwith@6 -[normal]-> best_effort()@6'),
    'match_case': ('\ndef f(x):\n    match g(x):\n        case 1:\n            a()\n        case [y] if h(y):\n            b()\n        case _:\n            c()\n    d()\n', 'ENTRY -[normal]-> match@3\na()@5 -[exception]-> RAISE\na()@5 -[normal]-> simple@10\nb()@7 -[exception]-> RAISE\nb()@7 -[normal]-> simple@10\nc()@9 -[exception]-> RAISE\nc()@9 -[normal]-> simple@10\ncase@4 -[false]-> case@6\ncase@4 -[true]-> simple@5\ncase@6 -[false]-> case@8\ncase@6 -[true]-> h()@6\ncase@8 -[true]-> simple@9\nd()@10 -[exception]-> RAISE\nd()@10 -[normal]-> EXIT\ng()@3 -[exception]-> RAISE\ng()@3 -[normal]-> case@4\nh()@6 -[exception]-> RAISE\nh()@6 -[false]-> case@8\nh()@6 -[true]-> simple@7\nmatch@3 -[normal]-> g()@3\nsimple@10 -[normal]-> d()@10\nsimple@5 -[normal]-> a()@5\nsimple@7 -[normal]-> b()@7\nsimple@9 -[normal]-> c()@9'),
    'short_circuit_ifexp_comprehension_order': ('\ndef f():\n    x = a() and b()\n    y = d() if e() else k()\n    store.save(ledger.append(r))\n    z = [m(i) for i in n()]\n', 'ENTRY -[normal]-> simple@3\na()@3 -[exception]-> RAISE\na()@3 -[normal]-> b()@3\na()@3 -[normal]-> simple@4\nb()@3 -[exception]-> RAISE\nb()@3 -[normal]-> simple@4\nd()@4 -[exception]-> RAISE\nd()@4 -[normal]-> simple@5\ne()@4 -[exception]-> RAISE\ne()@4 -[normal]-> d()@4\ne()@4 -[normal]-> k()@4\nk()@4 -[exception]-> RAISE\nk()@4 -[normal]-> simple@5\nledger.append()@5 -[exception]-> RAISE\nledger.append()@5 -[normal]-> store.save()@5\nm()@6 -[exception]-> RAISE\nm()@6 -[loop]-> point:comprehension\nn()@6 -[exception]-> RAISE\nn()@6 -[normal]-> point:comprehension\npoint:comprehension -[normal]-> EXIT\npoint:comprehension -[normal]-> m()@6\nsimple@3 -[normal]-> a()@3\nsimple@4 -[normal]-> e()@4\nsimple@5 -[normal]-> ledger.append()@5\nsimple@6 -[normal]-> n()@6\nstore.save()@5 -[exception]-> RAISE\nstore.save()@5 -[normal]-> simple@6'),
    'exit_raise': ('\nimport sys, os\ndef f():\n    if a():\n        sys.exit(1)\n    if b():\n        os._exit(1)\n    raise E(c())\n', 'E()@8 -[exception]-> RAISE\nE()@8 -[normal]-> point:raise\nENTRY -[normal]-> if@4\na()@4 -[exception]-> RAISE\na()@4 -[false]-> if@6\na()@4 -[true]-> simple@5\nb()@6 -[exception]-> RAISE\nb()@6 -[false]-> raise@8\nb()@6 -[true]-> simple@7\nc()@8 -[exception]-> RAISE\nc()@8 -[normal]-> E()@8\nif@4 -[normal]-> a()@4\nif@6 -[normal]-> b()@6\npoint:raise -[exception]-> RAISE\nraise@8 -[normal]-> c()@8\nsimple@5 -[normal]-> sys.exit()@5\nsimple@7 -[normal]-> os._exit()@7\nsys.exit()@5 -[exception]-> RAISE'),
    'try_except_else': ('\ndef f():\n    try:\n        a()\n    except (KeyError, ValueError) as e:\n        b()\n    except Exception:\n        pass\n    else:\n        c()\n    d()\n', 'ENTRY -[normal]-> try@3\na()@4 -[exception]-> handler@5\na()@4 -[normal]-> simple@10\nb()@6 -[exception]-> RAISE\nb()@6 -[normal]-> simple@11\nc()@10 -[exception]-> RAISE\nc()@10 -[normal]-> simple@11\nd()@11 -[exception]-> RAISE\nd()@11 -[normal]-> EXIT\nhandler@5 -[exception]-> handler@7\nhandler@5 -[normal]-> simple@6\nhandler@7 -[normal]-> pass@8\npass@8 -[normal]-> simple@11\nsimple@10 -[normal]-> c()@10\nsimple@11 -[normal]-> d()@11\nsimple@4 -[normal]-> a()@4\nsimple@6 -[normal]-> b()@6\ntry@3 -[normal]-> simple@4'),
    'try_narrow_propagates': ('\ndef f():\n    try:\n        a()\n    except KeyError:\n        b()\n', 'ENTRY -[normal]-> try@3\na()@4 -[exception]-> handler@5\na()@4 -[normal]-> EXIT\nb()@6 -[exception]-> RAISE\nb()@6 -[normal]-> EXIT\nhandler@5 -[exception]-> RAISE\nhandler@5 -[normal]-> simple@6\nsimple@4 -[normal]-> a()@4\nsimple@6 -[normal]-> b()@6\ntry@3 -[normal]-> simple@4'),
    'assert_and_attribute': ('\ndef f(x):\n    assert g(x), "bad"\n    y = x.attr\n', 'ENTRY -[normal]-> assert@3\nassert@3 -[normal]-> g()@3\ng()@3 -[exception]-> RAISE\ng()@3 -[normal]-> point:assert\npoint:assert -[exception]-> RAISE\npoint:assert -[normal]-> simple@4\nsimple@4 -[exception]-> RAISE\nsimple@4 -[normal]-> EXIT'),
    'try_star': ('\ndef f():\n    try:\n        a()\n    except* ValueError:\n        b()\n', 'ENTRY -[normal]-> try@3\na()@4 -[exception]-> handler@5\na()@4 -[normal]-> EXIT\nb()@6 -[exception]-> RAISE\nb()@6 -[normal]-> EXIT\nhandler@5 -[exception]-> RAISE\nhandler@5 -[normal]-> simple@6\nsimple@4 -[normal]-> a()@4\nsimple@6 -[normal]-> b()@6\ntry@3 -[normal]-> simple@4'),
}

@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_exact_edges(name):
    source, expected = EXPECTED[name]
    got = edges(graph_of(source))
    want = {tuple(_parse(line)) for line in expected.splitlines()}
    assert got == want, "\n" + show(graph_of(source))


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

    from ordercheck.facts import positions_of

    source = (Path(__file__).resolve().parent.parent / "fixtures" / "runtime" / "runtime.py").read_text()
    tree = cst.parse_module(source)
    fast = positions_of(tree)
    public = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    assert len(fast) == len(public) > 1000
    assert all(fast[node] == public[node] for node in public)
