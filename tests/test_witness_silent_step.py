"""The witness of a swallowed failure says where the walk leaves the handler silently
right after that point, before what the walk does once out of it (held-out set 13: the
``silent`` step was printed after the ``return`` that followed the handler)."""
from checkutil import check_source


def test_the_silent_step_follows_the_point_it_names():
    src = """
        def process(store, run, flag):
            try:
                store.save(run)
            except Exception:
                if flag:
                    raise
            return True
    """
    [f] = check_source(src, select=["OC203"])
    steps = [(s.kind, s.span.line) for s in f.witness]
    assert steps == [("save", 4), ("except", 5), ("branch", 6), ("silent", 6), ("return", 8)], steps


def test_a_plain_statement_around_the_last_call_is_named_whole():
    # held-out set 102 (klepto): the handler `"error in populating %s" % str(filename)`
    # was left at `str(filename)`, which reads as if `str` were the point
    src = """
        import os


        def dump(filename, tmp, store, run):
            try:
                store.save(run)
            except Exception:
                "error in populating %s" % str(filename)
            try:
                store.save(run)
            except Exception:
                msg = describe(
                    run,
                )
    """
    found = check_source(src, select=["OC203"])
    silent = [(s.span.line, s.text) for f in found for s in f.witness if s.kind == "silent"]
    assert silent == [(9, '"error in populating %s" % str(filename)  (leaves the handler silently)'),
                      (13, "msg = describe(run)  (leaves the handler silently)")], silent


def test_a_statement_that_goes_round_the_loop_is_one_step():
    # the measured corpora (prefect's `states.py:121`): the handler's last statement,
    # `await asyncio.sleep(d)`, is where the walk leaves it and goes round the loop:
    # one silent step, not a loop step of its call before it
    src = """
        import asyncio


        async def load(store, run, n):
            for i in range(n):
                try:
                    store.save(run)
                except Exception:
                    await asyncio.sleep(1)
    """
    [f] = check_source(src, select=["OC203"])
    assert [(s.kind, s.span.line, s.text) for s in f.witness][-2:] == [
        ("except", 9, "except Exception:"),
        ("silent", 10, "await asyncio.sleep(1)  (leaves the handler silently)")], f.witness
