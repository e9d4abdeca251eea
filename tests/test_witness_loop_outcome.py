"""A test that ends a loop's body (`if b.more:` as its last statement, a `while`
whose false way goes round an outer loop) decides the walk on the loop's back edge.
The witness says which way it went, and that the loop goes round (a held-out set,
session 41: the step read "loop  if b.more:  (again)", which hid the branch)."""
from checkutil import check_source
from cliutil import oc, write

SRC = '''
    def k(store, ledger, batches):
        for b in batches:
            if b.refresh:
                ledger.append_event(b)
            if b.more:
                store.save(b)
        return 0


    def h(store, ledger, batches):
        for b in batches:
            if b.refresh:
                ledger.append_event(b)
            while b.more:
                store.save(b)
        return 0
'''


def steps(f):
    return [(s.kind, s.span.line, s.text) for s in f.witness]


def test_an_if_that_ends_a_loops_body_says_its_way_and_that_the_loop_goes_round():
    k, h = check_source(SRC, select=["OC102"])
    assert (k.span.line, h.span.line) == (5, 14)
    got = steps(k)
    assert ("branch", 6, "if b.more:  (false, then round the loop)") in got
    assert not [s for s in got if s[0] == "loop" and s[1] == 6]
    # the round that saved took it true
    assert ("branch", 6, "if b.more:  (true)") in got


def test_a_while_whose_false_way_goes_round_the_outer_loop_says_so():
    _, h = check_source(SRC, select=["OC102"])
    got = steps(h)
    assert ("branch", 15, "while b.more:  (false, then round the loop)") in got
    assert not [s for s in got if s[0] == "loop" and s[1] == 15]


def test_the_graph_labels_a_back_edge_that_is_a_tests_way(tmp_path):
    write(tmp_path, "m.py", SRC)
    r = oc(tmp_path, "--isolated", "--no-cache", "--graph", "m.py:k")
    assert r.code == 0, r
    back = [ln for ln in r.out.splitlines() if "style=dashed" in ln]
    assert back and all('label="F"' in ln for ln in back if ln.strip().startswith('"6"')), back
    assert any(ln.strip().startswith('"6"') for ln in back), back


def test_the_graph_names_classes_not_the_engines_marks(tmp_path):
    """(A review, session 41.) Node labels showed `own-terminal-append` and
    `unguarded-terminal-append`, marks the engine keeps beside a class."""
    write(tmp_path, "t.py", """
        def f(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run)
    """)
    r = oc(tmp_path, "--isolated", "--no-cache", "--graph", "t.py:f")
    assert r.code == 0, r
    assert "[append, terminal-append]" in r.out, r.out
    assert "own-" not in r.out and "unguarded" not in r.out and "near-" not in r.out, r.out


def test_an_event_call_that_ends_the_loops_body_says_its_way_and_a_handlers_last_if_is_one_step():
    """(A review, session 41.) `if store.save(b):` ending the body had no branch step
    on the back edge; a handler whose last statement is such an `if` had two steps on
    its line (the branch, and where the handler is left)."""
    src = '''
        def call_back(store, ledger, b):
            while b.more:
                if b.first:
                    ledger.append_event(b)
                    continue
                if store.save(b):
                    print(b)


        def handler_if_last(store, items):
            for r in items:
                try:
                    store.save(r)
                except Exception:
                    if r.verbose:
                        print(r)
    '''
    append, swallowed = sorted(check_source(src, select=["OC102", "OC203"]), key=lambda f: f.code)
    assert ("branch", 7, "if store.save(b):  (false, then round the loop)") in steps(append), steps(append)
    lines = [s[1] for s in steps(swallowed)]
    assert lines.count(16) == 1, steps(swallowed)


def test_a_plain_statement_that_ends_a_loops_body_says_the_loop_goes_round():
    """(Held-out set 36, session 43.) The step read `loop  followup.save()  (again)`,
    which a reader took for the save running again; it says the body ends there and
    the loop goes round."""
    (f,) = check_source('''
        def close_all(store, ledger, tickets):
            for t in tickets:
                if t.new:
                    ledger.append_event(t)
                else:
                    store.save(t)
                t.note = "closed"
            return 0
    ''', select=["OC102"])
    assert ("loop", 8, 't.note = "closed"  (then round the loop)') in steps(f), steps(f)


def test_a_with_that_ends_a_loops_body_goes_round_from_its_exit():
    """(Held-out set 146, kolibri's `finalize_file`.) The loop step stood on the inner
    `with` line as if it were the loop; it says the walk goes round from its exit."""
    (f,) = check_source('''
        import os, shutil

        def finalize(chunks, tmp, target):
            with open(tmp, "wb") as out:
                for chunk in chunks:
                    with open(chunk, "rb") as part:
                        shutil.copyfileobj(part, out)
            os.replace(tmp, target)
    ''', select=["OC301"])
    assert ("loop", 7, 'with open(chunk, "rb") as part:  (its exit, then round the loop)') in steps(f), steps(f)
