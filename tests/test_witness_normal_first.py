"""Of two shortest witnesses, the one that does not fail is shown (held-out set 59:
trac's, mercurial's and breezy's OC301 witnesses went through a raising call and its
handler, as long as the way that did not raise, and showed a rename an
``AtomicFile``'s exit never makes after a failure). ``cfg.normal_first`` puts each
node's normal edges before its exceptional ones, and every witness search takes
successors in that order. Which findings exist does not change."""
from __future__ import annotations

import textwrap

from checkutil import check_source

from ordercheck import frontend
from ordercheck.cfg import build
from ordercheck.kinds import EdgeKind


def witness(src: str, select=("OC102",)):
    [f] = check_source(src, select=list(select))
    return [(s.span.line, s.kind) for s in f.witness]


def test_a_tie_takes_the_way_that_did_not_raise():
    assert witness("""\
        def g(store, ledger, run):
            try:
                prep(run)
                more(run)
            except OSError:
                pass
            store.save(run)
            ledger.append(run.id)
        """) == [(7, "save"), (8, "append")]


def test_a_tie_on_the_way_out_takes_the_way_that_did_not_raise():
    # the way from the append to the end (OC102's "no save after it") ties too
    assert witness("""\
        def g(store, ledger, run):
            store.save(run)
            ledger.append(run.id)
            try:
                tidy(run)
                more(run)
            except OSError:
                pass
        """) == [(2, "save"), (3, "append")]


def test_a_shorter_way_through_a_handler_is_still_the_witness():
    # (shortest first: the handler's way is shorter, as docs/decisions.md says)
    assert (3, "raises") in witness("""\
        def g(store, ledger, run):
            try:
                prep(run)
                more(run)
                again(run)
            except OSError:
                pass
            store.save(run)
            ledger.append(run.id)
        """)


def test_every_node_lists_its_normal_edges_first():
    text = textwrap.dedent("""\
        def f(store, ledger, run):
            with lock():
                for item in run.items:
                    try:
                        store.save(item)
                    except (OSError, ValueError) as e:
                        if e:
                            continue
                        raise
                    finally:
                        ledger.append(item)
            return run
        """)
    facts = frontend.extract("m.py", text.encode(), "m")
    g = build(facts.functions[0])
    for u, nbrs in g.adjacency():
        kinds = [d["kind"] == EdgeKind.EXCEPTION or bool(d.get("exception")) for d in nbrs.values()]
        assert kinds == sorted(kinds), (u, list(nbrs.items()))
    assert any(any(d["kind"] == EdgeKind.EXCEPTION for d in nbrs.values()) and len(nbrs) > 1 for _, nbrs in g.adjacency())
