"""A witness shows how its path leaves by an exception (semantics §Contracts: "one
witness — the events and branch points of one shortest path that shows it, in order,
with positions"). A call that is no event of the rule, a ``raise`` and a failed
``assert`` that send the path into a handler are steps of their own: without them the
path went from the last event straight to the ``except``, which reads as if that event
had raised, and an event that raised took no effect (held-out set 35: offlineimap's
label sync, whose save's own argument ``set([lb])`` raised)."""
from checkutil import check_source

from ordercheck.findings import Finding


def _oc102(src):
    found = [f for f in check_source(src) if f.code == "OC102"]
    assert len(found) == 1, found
    return found[0]


def test_a_raising_call_that_is_no_event_is_a_step():
    f = _oc102("""\
def sync_labels(items, store, ledger, ui):
    try:
        for lb, uids in items:
            ledger.append(uids)
            store.save(uids, set([lb]))
    except NotImplementedError:
        ui.warn("cannot sync labels")
""")
    steps = [(s.kind, s.span.line, s.text) for s in f.witness]
    assert steps[-3:] == [("append", 4, "ledger.append(uids)"), ("raises", 5, "set([lb])"),
                          ("except", 6, "except NotImplementedError:")], steps


def test_a_raise_and_a_failed_assert_are_steps():
    f = _oc102("""\
def step(run, store, ledger, ok):
    try:
        store.save(run)
        ledger.append(run)
        if not ok:
            raise ValueError(run)
        store.save(run)
    except ValueError:
        pass
""")
    kinds = [(s.kind, s.span.line) for s in f.witness]
    assert kinds[-3:] == [("branch", 5), ("raise", 6), ("except", 8)], kinds
    assert f.witness[-2].text == "raise ValueError(run)"  # the statement, not its constructor's call
    g = _oc102("""\
def step(run, store, ledger, ok):
    try:
        store.save(run)
        ledger.append(run)
        assert ok
        store.save(run)
    except AssertionError:
        pass
""")
    steps = [(s.kind, s.span.line, s.text) for s in g.witness]
    assert steps[-2:] == [("assert", 5, "assert ok  (fails)"), ("except", 7, "except AssertionError:")], steps


def test_the_new_steps_are_structure_not_events():
    """A baseline's fingerprint holds the witness's events: the new steps change none."""
    assert {"raises", "raise", "assert"} <= Finding.STRUCTURE


def test_a_statement_that_raises_by_itself_is_a_step():
    """(A review, session 43.) A subscript, an attribute and a ``with`` header raise
    with no call: their statement is the step."""
    for stmt, text in (('key = cfg["id"]', 'key = cfg["id"]'), ("run.checked = True", "run.checked = True"),
                       ("with lock:\n            pass", "with lock:")):
        f = _oc102(f"""\
def step(store, ledger, run, cfg, lock):
    try:
        store.save(run)
        {stmt}
    except Exception:
        ledger.append(run)
""")
        steps = [(s.kind, s.span.line, s.text) for s in f.witness]
        assert steps[:3] == [("save", 3, "store.save(run)"), ("raises", 4, text), ("except", 5 + stmt.count("\n"),
                                                                                   "except Exception:")], steps


def test_a_raise_is_its_statement_only_for_the_exception_it_constructs():
    """A call in the constructor's arguments raised before the ``raise`` ran; a raise
    after ``if ...:`` on its line is still the statement."""
    f = _oc102("""\
def step(store, ledger, run):
    try:
        store.save(run)
        ledger.append(run)
        raise ValueError(store.load(run))
    except KeyError:
        pass
""")
    assert [(s.kind, s.text) for s in f.witness][-2:] == [("raises", "store.load(run)"), ("except", "except KeyError:")]
    g = _oc102("""\
def step(store, ledger, run, ok):
    try:
        store.save(run)
        ledger.append(run)
        if not ok: raise ValueError(run)
        store.save(run)
    except ValueError:
        pass
""")
    assert [(s.kind, s.text) for s in g.witness][-2:] == [("raise", "raise ValueError(run)"),
                                                          ("except", "except ValueError:")]


def test_a_call_whose_far_write_oc301_does_not_count_is_a_raising_step(tmp_path):
    # (held-out set 69, papis `add.py:370`) `locate` writes its cache two calls down,
    # which OC301 does not count: the call is the step that raises, not skipped
    from checkutil import settings_for

    from ordercheck import runner

    files = {
        "pk/__init__.py": "",
        "pk/utils.py": """\
import pickle


def _write_cache(path, docs):
    with open(path, "wb") as fd:
        pickle.dump(docs, fd)


def locate(doc):
    _write_cache("/tmp/cache", [doc])
    if doc:
        return doc
    raise IndexError("no document")
""",
        "pk/add.py": """\
import os

from pk.utils import locate


def add(p, q, doc, show):
    with open(p, "w") as fh:
        fh.write("x")
    try:
        found = locate(doc)
    except IndexError:
        print("no duplicate")
    else:
        show(found)
        show(found)
        show(found)
    os.replace(p, q)
""",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = [f for f in runner.run([tmp_path], settings_for(None, select=["OC301"])).findings if f.code == "OC301"]
    assert [(s.kind, s.span.line, s.text) for s in found[0].witness] == [
        ("file-write", 8, 'fh.write("x")'), ("raises", 10, "locate(doc)"),
        ("except", 11, "except IndexError:"), ("rename", 17, "os.replace(p, q)")]


def test_a_with_exit_that_is_no_event_and_raises_is_a_step():
    # held-out set 136 (elyra's `with secure_write(path) as f:`): the file's write took
    # effect and the `with`'s exit raised into the handler; the witness went from the
    # write to the `except`, as if the write had raised (and written nothing)
    found = [f for f in check_source("""\
import os


def via_with(path, data):
    try:
        with open(path + ".tmp", "w") as f:
            f.write(data)
    except OSError:
        os.rename(path + ".bak", path)
""") if f.code == "OC301"]
    assert len(found) == 1, found
    steps = [(s.kind, s.span.line, s.text) for s in found[0].witness]
    assert steps == [("file-write", 7, "f.write(data)"),
                     ("raises", 6, 'with open(path + ".tmp", "w") as f:  (its exit)'),
                     ("except", 8, "except OSError:"),
                     ("rename", 9, 'os.rename(path + ".bak", path)')], steps
    # (a structure step: the finding's identity is as before)
    assert "raises" in Finding.STRUCTURE


def test_a_with_exit_that_passes_a_failure_on_is_no_raising_step():
    # (a review) the exit's copy that runs with a failure already in flight (a lock
    # around a raising body, the outer `with` of a raising inner exit, one statement of
    # several items) passes it on: only the exit that raised on its own is a step
    src = """\
import os


def nested(path, data, lock):
    try:
        with lock:
            with open(path + ".tmp", "w") as f:
                f.write(data)
    except OSError:
        os.rename(path + ".bak", path)


def several(path, data, lock):
    try:
        with lock, open(path + ".tmp", "w") as f:
            f.write(data)
    except OSError:
        os.rename(path + ".bak", path)


def lock_body_raise(path, data, lock, fh):
    try:
        with lock:
            fh.write(data)
            raise OSError("x")
    except OSError:
        os.rename(path + ".bak", path)
"""
    got = {f.function: [(s.kind, s.span.line) for s in f.witness] for f in check_source(src) if f.code == "OC301"}
    assert got == {
        "nested": [("file-write", 8), ("raises", 7), ("except", 9), ("rename", 10)],
        "several": [("file-write", 16), ("raises", 15), ("except", 17), ("rename", 18)],
        "lock_body_raise": [("file-write", 24), ("raise", 25), ("except", 26), ("rename", 27)],
    }, got
    saves = [f for f in check_source("""\
def keep(store, run, lock):
    try:
        with lock:
            store.save(run)
    except Exception:
        pass
""") if f.code == "OC203"]
    assert [s.kind for s in saves[0].witness] == ["save", "except", "silent"], saves[0].witness


def test_an_attribute_of_an_events_result_that_raises_is_a_step():
    """``network.submit(batch).get()``: the ``.get`` looked up on the append's result may
    raise after the append took effect; the witness says so rather than going from the
    append to the ``except`` (held-out set 225, a pykka future)."""
    f = _oc102("""\
def scrobble_many(store, ledger, batches, log):
    for batch in batches:
        try:
            ledger.append(batch).get()
        except Exception as exc:
            log.exception("failed: %s", exc)
            break
        store.save(batch).result
""")
    steps = [(s.kind, s.span.line, s.text) for s in f.witness]
    assert steps[-4:] == [("append", 4, "ledger.append(batch)"), ("raises", 4, "ledger.append(batch).get"),
                          ("except", 5, "except Exception as exc:"), ("break", 7, "break")], steps
    raising = f.witness[-3]
    assert (raising.span.col, raising.span.end_col) == (12, 36)
