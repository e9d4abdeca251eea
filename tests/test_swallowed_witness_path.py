"""A swallowed failure's witness is one shortest path, and a path ``--graph`` can
draw (held-out set 58: evennia's ``to_pickle``, a narrow clause inside a broad one;
the OC203 went through the narrow clause's body, where a new exception reaches the
broad clause, and ``--graph`` drew the witness with a gap)."""
import re

import pytest
from cliutil import oc, write

NARROW = '''\
def h(store, item):
    try:
        try:
            return store.save(item)
        except (AttributeError, TypeError):
            return {k: 1 for k in item.items()}
    except Exception:
        return [item]
'''

RERAISE = '''\
def h(store, item):
    try:
        try:
            return store.save(item)
        except Exception:
            x = 1
            raise
    except Exception:
        return [item]
'''


def _steps(r):
    return [line.split()[0] for line in r.out.splitlines()[1:] if re.match(r"^\s+\d+\s+\w", line)]


def _red_path_is_connected(tmp_path):
    dot = oc(tmp_path, "--isolated", "--no-cache", "--graph", "m.py:h").out
    red = [tuple(e) for e in re.findall(r'"(\w+)" -> "(\w+)" \[[^]]*red', dot)]
    node = "ENTRY"
    seen = {node}
    while True:
        nxt = [b for a, b in red if a == node]
        if not nxt:
            return node == "EXIT" and len(seen) == len(red) + 1, red
        node = nxt[0]
        seen.add(node)


def test_the_failure_passes_an_unmatched_clause_straight_on(tmp_path):
    write(tmp_path, "m.py", NARROW)
    r = oc(tmp_path, "--isolated", "--no-cache", "m.py")
    assert r.findings() == [("m.py", 4, 20, "OC203")], r
    assert _steps(r) == ["4", "5", "7", "8"], r  # save, the narrow clause passed, the broad one, its way out
    ok, red = _red_path_is_connected(tmp_path)
    assert ok, red


FINALLY = '''\
def h(store, item):
    try:
        try:
            store.save(item)
        finally:
            cleanup()
    except Exception:
        pass
'''


# a quiet re-raise through a clause's body; a `finally` copy's body (`cleanup()`)
# between its entry and its re-raise (a review)
@pytest.mark.parametrize("source, col", [(RERAISE, 20), (FINALLY, 13)], ids=["clause", "finally"])
def test_a_way_through_a_body_is_drawn_as_a_path(tmp_path, source, col):
    write(tmp_path, "m.py", source)
    r = oc(tmp_path, "--isolated", "--no-cache", "m.py")
    assert r.findings() == [("m.py", 4, col, "OC203")], r
    ok, red = _red_path_is_connected(tmp_path)
    assert ok, red


def test_the_failure_handed_on_by_a_raise_is_the_way_shown(tmp_path):
    # a review: `range(3)` can raise on the way to the bare `raise`; the witness shows
    # the save's own failure handed on, not a new one
    write(tmp_path, "m.py", """\
def h(store, item):
    try:
        try:
            store.save(item)
        except Exception:
            for i in range(3):
                d = i
            raise
    except Exception:
        pass
""")
    r = oc(tmp_path, "--isolated", "--no-cache", "m.py")
    assert r.findings() == [("m.py", 4, 13, "OC203")], r
    assert "8  raise   raise" in r.out and "raises           range(3)" not in r.out, r


def test_a_failure_swallowed_by_a_finally_shows_the_finally():
    # held-out set 60 (cinder's `extend_volume`): a `return` in a `finally` swallowed a
    # failed save, and the witness went from the save to the `return` with no step at
    # the `finally` (an `except` handler has one)
    from checkutil import check_source

    [f] = check_source("""\
        def extend(store, volume):
            try:
                store.save(volume)
            finally:
                notify(volume)
                return volume
        """, select=["OC203"])
    assert [(s.span.line, s.kind, s.text) for s in f.witness] == [
        (3, "save", "store.save(volume) (raises)"),
        (4, "finally", "finally:  (with the failure in flight)"),
        (6, "silent", "return volume  (leaves the handler silently)")]
