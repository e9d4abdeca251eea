"""Two witness steps of the sixteenth held-out set (maestral, session 35): a call left
by its exceptional edge whose ``raised`` point carries the event is one step ("saves,
then raises"), not also "(raises)" at the call; and a suppressing manager's exit that
performs the finding's event shows that event (and its "via"), then the suppression,
not only the suppression."""
from checkutil import check_source

SRC = '''
    from contextlib import contextmanager


    class Runtime:
        @contextmanager
        def recording(self, run):
            try:
                yield
            except Exception:
                self._ledger.append(run.id, "step-error")

        def _sync(self, run):
            self._store.save(run)
            if run.conflict:
                raise RuntimeError(run.id)

        def step(self, run):
            with self.recording(run):
                self._sync(run)
'''


def steps(f):
    return [(s.kind, s.span.line, s.text) for s in f.witness]


def test_a_suppressing_exit_shows_its_event_and_a_raising_helper_is_one_step():
    [f] = check_source(SRC, select=["OC102"])
    assert (f.code, f.span.line) == ("OC102", 19)
    got = steps(f)
    assert got == [
        ("save", 20, "self._sync(run) (saves, then raises)"),
        ("append", 19, "`self.recording(run)` exits: append"),
        ("suppress", 19, "with self.recording(run):"),
    ], got
    assert "Runtime.recording" in f.witness[1].via and ":11" in f.witness[1].via


def test_a_swallowed_witness_still_shows_the_calls_own_failure():
    """(`swallowed`: the event is the call's failure, at the call: session 34's rule.)"""
    src = '''
        import logging
        log = logging.getLogger(__name__)


        def _sync(store, run):
            store.save(run)
            if run.conflict:
                raise RuntimeError(run.id)


        def step(store, run):
            try:
                _sync(store, run)
            except Exception:
                log.debug("later")
    '''
    [f] = check_source(src, select=["OC203"])
    assert steps(f)[0][:2] == ("save", 14) and steps(f)[0][2].endswith("(raises)"), steps(f)
    assert [s for s in steps(f) if s[1] == 14 and s[0] == "save"] == [steps(f)[0]]


RENAMING = '''
    import shutil
    from pathlib import Path


    def render(path):
        p = Path(path)
        p.rename(path + ".x")
        p.write_text("content")


    def caller(src, dst):
        shutil.copyfile(src, dst)
        render(dst)
'''


def test_a_finding_at_a_raised_point_names_the_call_and_takes_one_step():
    """(The robustness sweep's scrapy, session 35.) `render` renames, then writes: a
    call that raised out of its write cannot rename after it, so the step is the
    rename the callee did before raising; and the message names the call's code, not
    the graph's label "`render(dst)  (raised)`"."""
    [f] = check_source(RENAMING, select=["OC301"])
    assert f.message.startswith("rename `render(dst)` after the file write at line 13"), f.message
    assert steps(f) == [("file-write", 13, "shutil.copyfile(src, dst)"),
                        ("rename", 14, "render(dst) (renames, then raises)")], steps(f)
    assert f.anchor_text == "render(dst)"


def test_a_witness_edge_in_dot_has_one_colour(tmp_path):
    from cliutil import oc, write

    write(tmp_path, "t.py", RENAMING)
    r = oc(tmp_path, "--isolated", "--no-cache", "--graph", "t.py:caller")
    edges = [line for line in r.out.splitlines() if "->" in line]
    assert any("color=red" in e for e in edges)
    assert all(e.count("color=") <= 1 for e in edges), [e for e in edges if e.count("color=") > 1]


def test_a_long_helper_chain_names_the_call_that_performs_the_event():
    """(The sweep's pandas, session 35.) A chain of eight helpers was cut after six
    and named a helper's call as the event; now it names the call that performs it
    (here an append, which OC102 sees at every depth) and says how many helpers it
    leaves out."""
    helpers = "".join(f"\n\ndef h{i}(p):\n    h{i + 1}(p)\n" for i in range(7))
    src = ("import os\n" + helpers + "\n\ndef h7(p):\n    ledger.append(p)\n"
           "\n\ndef main(p):\n    store.save(p)\n    h0(p)\n")
    [f] = check_source(src, select=["OC102"])
    append_line = src.splitlines().index("    ledger.append(p)") + 1
    via = f.witness[-1].via
    assert via.startswith("h0 → h1 → … (5 more) → h7 → ledger.append(p) at "), via
    assert via.endswith(f":{append_line}"), via
    assert any(r.span.line == append_line for r in f.related), f.related


def test_a_handler_left_by_a_tests_branch_is_left_at_its_end_not_at_the_tests_call():
    """(The seventeenth held-out set's google-adk.) The silent step named the
    `isinstance(...)` call of the test whose false branch leaves the handler."""
    src = ("import asyncio\n\ndef worker(ledger, q, closed_early):\n    try:\n"
           "        ledger.append_event('step')\n    except BaseException as e:\n"
           "        if not (isinstance(e, asyncio.CancelledError) and closed_early):\n            q.put(e)\n")
    [f] = check_source(src, select=["OC202"])
    silent = [s for s in f.witness if s.kind == "silent"]
    assert [s.text for s in silent] == ["(the handler's end)  (leaves the handler silently)"], f.witness
    branch = [s for s in f.witness if s.kind == "branch"]
    assert branch and branch[-1].text.endswith("(false)")


def test_a_handler_left_by_a_wrapped_tests_branch_is_left_at_its_end():
    """(Held-out set 140's zigpy-deconz.) With the test wrapped over lines, its call
    stands below the `if` line, and the silent step named it."""
    src = ("\n\n\n\ndef a(store, info):\n    try:\n        store.save(info)\n"
           "    except Exception:\n        if not (\n            info.get('quick', False)\n"
           "            or info.counter == 0\n        ):\n            raise\n")
    [f] = check_source(src, select=["OC203"])
    silent = [s for s in f.witness if s.kind == "silent"]
    assert [s.text for s in silent] == ["(the handler's end)  (leaves the handler silently)"], f.witness
    assert silent[0].span.line == 9, f.witness


def test_a_statement_that_leaves_the_handler_is_one_step():
    """(A conformance probe, session 36.) A `return` in a `finally` was shown twice:
    as a `return` step and as the `silent` step at the same line."""
    src = ("def finish(store, ledger, run):\n    try:\n        store.save(run)\n"
           "        ledger.append('x')\n    finally:\n        return run\n")
    [f] = check_source(src, select=["OC203"])
    # (session 47: the `finally` a failure runs is a step of its own, as an `except` is)
    assert [(s.kind, s.span.line) for s in f.witness] == [("save", 3), ("finally", 5), ("silent", 6)], f.witness


def test_a_handler_that_ends_a_loops_body_is_left_in_one_step():
    """(The twentieth held-out set's beets `titlecase.py`.) The handler's last line
    going round the loop was a `loop ... (again)` step before the `silent` step at the
    same line: it read as if the call ran twice."""
    src = ("def imported(store, items, log):\n    for item in items:\n        try:\n"
           "            store.save(item)\n        except Exception as e:\n            log.debug(f'x {e}')\n")
    [f] = check_source(src, select=["OC203"])
    assert [(s.kind, s.span.line) for s in f.witness] == [("branch", 2), ("save", 4), ("except", 5),
                                                          ("silent", 6)], f.witness


def test_a_conditional_event_of_a_tests_call_comes_before_the_branch():
    """(A session-37 probe.) `if self.try_claim(run):` false, where `try_claim` saves
    only on its False way: the witness said the branch, then the save; Python runs the
    call (which saves) and then takes the branch."""
    src = ("class R:\n    def try_claim(self, run):\n        if run.taken:\n            return True\n"
           "        self._store.save(run)\n        return False\n\n    def step(self, run, rec):\n"
           "        if self.try_claim(run):\n            self._ledger.append(rec)\n        else:\n"
           "            self._ledger.append(rec)\n")
    [f] = check_source(src, select=["OC102"])
    assert [(s.kind, s.span.line) for s in f.witness] == [("save", 9), ("branch", 9), ("append", 12)], f.witness
    assert f.witness[1].text.endswith("(false)")


def test_a_tests_call_with_an_event_and_a_conditional_event_shows_both_before_the_branch():
    """(Session 37's open limit.) `try_claim` appends on every way out and saves only on
    its False way: the witness showed the call's append, then the branch, then the save;
    Python runs the call (append, save) and then takes the branch."""
    src = ("class R:\n    def try_claim(self, run):\n        self._ledger.append(run.id)\n"
           "        if run.taken:\n            return True\n"
           "        self._store.save(run)\n        return False\n\n    def step(self, run, rec):\n"
           "        if self.try_claim(run):\n            self._ledger.append(rec)\n        else:\n"
           "            self._ledger.append(rec)\n")
    [f] = check_source(src, select=["OC102"])
    assert [(s.kind, s.span.line) for s in f.witness] == [("append", 10), ("save", 10), ("branch", 10),
                                                          ("append", 13)], f.witness
    assert f.witness[2].text.endswith("(false)")


EXIT_RAISES = '''
    class Batch:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self._store.save(self)


    def complete(store, ledger, run):
        batch = Batch()
        try:
            store.save(run)
            with batch:
                ledger.append(run)
            return True
        except Exception:
            return False
'''


def test_a_with_exit_that_raises_says_so():
    """(The thirtieth held-out set, openhands-sdk, session 40.) The finding rests on the
    exit's save raising (a save that raised saved nothing, §3): its step says
    "(raises)", as a call's does, and does not read as the save that covers the append."""
    [f] = check_source(EXIT_RAISES, select=["OC102"])
    got = steps(f)
    assert ("save", 14, "`batch` exits: save (raises)") in got, got
    assert got.index(("save", 14, "`batch` exits: save (raises)")) > got.index(("append", 15, "ledger.append(run)"))


EXIT_LOUD_AND_WRITES = '''
    class State:
        def __exit__(self, *exc):
            try:
                self.fh.write("x")
            finally:
                self.count += 1

        def __enter__(self):
            return self


    def probe(ledger, run):
        st = State()
        try:
            with st:
                ledger.append(run)
            return True
        except Exception:
            return False
'''


def test_a_with_exit_step_names_the_class_its_text_shows():
    """(The same set.) An exit that writes a file and is loud (`+=` on an attribute):
    the step of an OC202 witness is "surface", the class its text and its "via" name,
    not "file-write", which the rule does not relate."""
    [f] = check_source(EXIT_LOUD_AND_WRITES, select=["OC202"])
    exits = [s for s in f.witness if "exits" in s.text]
    assert [(s.kind, s.text) for s in exits] == [("surface", "`st` exits: surface")]
    assert "self.count += 1" in exits[0].via
