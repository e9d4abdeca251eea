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
