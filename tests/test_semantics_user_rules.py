"""Rules a user writes: barrier, requires-before, at-most-once (docs/semantics.md §Contracts).

Corner cases written from the contract alone: every expectation was decided from the
semantics before running ordercheck.
"""
from pathlib import Path

from checkutil import cl

# ====================================================================== user rules
REQ_RULE = '''\
id = "XY200"
name = "save-without-append"
severity = "warning"
kind = "requires-before"
first = ["append"]
then = ["save"]
message = "save without an append before it"
explanation = """
A save that no ledger append precedes.
"""
'''

ONCE_RULE = '''\
id = "XY300"
name = "one-terminal-per-commit"
severity = "warning"
kind = "at-most-once"
event = ["terminal-append"]
barrier = ["save"]
message = "second terminal append before a save"
explanation = """
Two terminal appends with no save between them.
"""
'''


def test_requires_before_first_event_that_raised_does_not_count(tmp_path):
    (tmp_path / "xy200.toml").write_text(REQ_RULE)
    table = {"rules": [str(tmp_path / "xy200.toml")]}
    assert cl("""\
        def resume(self, run, rec):
            try:
                self._ledger.append(rec)
            except LedgerError:
                logger.warning("append failed")
            self._store.save(run)

        def advance(self, run, rec):
            self._ledger.append(rec)
            self._store.save(run)

        def maybe(self, run, rec):
            if rec:
                self._ledger.append(rec)
            self._store.save(run)
        """, select=["XY200"], table=table) == [("XY200", 6), ("XY200", 15)]


def test_at_most_once_user_rule_with_barrier(tmp_path):
    (tmp_path / "xy300.toml").write_text(ONCE_RULE)
    table = {"rules": [str(tmp_path / "xy300.toml")]}
    assert cl("""\
        def a(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self._store.save(run)
            self._ledger.append_terminal(run.id, Status.ENDED)

        def b(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            self._ledger.append_terminal(run.id, Status.ENDED)
            self._store.save(run)
        """, select=["XY300"], table=table) == [("XY300", 8)]


# ====================================================================== shared definitions (second round)
REQ_RULE_XZ = '''\
id = "XZ200"
name = "save-without-append"
severity = "warning"
kind = "requires-before"
first = ["append"]
then = ["save"]
message = "save without an append before it"
explanation = """
A save that no ledger append precedes.
"""
'''

ONCE_RULE_XZ = '''\
id = "XZ300"
name = "one-terminal-per-commit"
severity = "warning"
kind = "at-most-once"
event = ["terminal-append"]
barrier = ["save"]
message = "second terminal append before a save"
explanation = """
Two terminal appends with no save between them.
"""
'''


def _rule(tmp_path: Path, text: str, name: str) -> dict:
    p = tmp_path / name
    p.write_text(text)
    return {"rules": [str(p)]}


# ====================================================================== user rules: barrier, requires-before
def test_at_most_once_barrier_on_one_branch_only(tmp_path):
    table = _rule(tmp_path, ONCE_RULE_XZ, "xz300.toml")
    assert cl("""\
        def a(self, run, flag):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            if flag:
                self._store.save(run)
            self._ledger.append_terminal(run.id, Status.ENDED)
        """, select=["XZ300"], table=table) == [("XZ300", 5)]


def test_at_most_once_barrier_that_raised_is_not_a_barrier(tmp_path):
    table = _rule(tmp_path, ONCE_RULE_XZ, "xz300.toml")
    assert cl("""\
        def b(self, run):
            self._ledger.append_terminal(run.id, Status.COMPLETED)
            try:
                self._store.save(run)
            except StoreError:
                logger.warning("save failed")
            self._ledger.append_terminal(run.id, Status.ENDED)
        """, select=["XZ300"], table=table) == [("XZ300", 7)]


def test_requires_before_first_only_in_loop_body(tmp_path):
    table = _rule(tmp_path, REQ_RULE_XZ, "xz200.toml")
    assert cl("""\
        def f(self, run, recs):
            for r in recs:
                self._ledger.append(r)
            self._store.save(run)
        """, select=["XZ200"], table=table) == [("XZ200", 4)]


def test_requires_before_first_in_both_branches_is_clean(tmp_path):
    table = _rule(tmp_path, REQ_RULE_XZ, "xz200.toml")
    assert cl("""\
        def f(self, run, rec, kind):
            match kind:
                case "a":
                    self._ledger.append(rec)
                case _:
                    self._ledger.append_event(rec)
            self._store.save(run)
        """, select=["XZ200"], table=table) == []


def test_requires_before_first_in_one_match_case_only(tmp_path):
    table = _rule(tmp_path, REQ_RULE_XZ, "xz200.toml")
    assert cl("""\
        def f(self, run, rec, kind):
            match kind:
                case "a":
                    self._ledger.append(rec)
                case "b":
                    pass
            self._store.save(run)
        """, select=["XZ200"], table=table) == [("XZ200", 7)]


def test_requires_before_save_in_finally_after_append_that_raised(tmp_path):
    table = _rule(tmp_path, REQ_RULE_XZ, "xz200.toml")
    assert cl("""\
        def g(self, run, rec):
            try:
                self._ledger.append(rec)
            finally:
                self._store.save(run)
        """, select=["XZ200"], table=table) == [("XZ200", 5)]


TERMINAL_NEEDS_APPEND = '''\
id = "XY210"
name = "terminal-without-start"
severity = "warning"
kind = "requires-before"
first = ["append"]
then = ["terminal-append"]
message = "terminal append without an append before it"
explanation = """
A terminal append that no earlier ledger append precedes.
"""
'''


def test_requires_before_a_then_event_that_is_also_first_needs_one_before_it(tmp_path):
    """A terminal append is an append, but not one made before itself: it needs an
    earlier append. A call carrying a helper's append and terminal append is the
    helper's order (semantics §Events "a node never produces a finding from the order
    of its own classes")."""
    (tmp_path / "xy210.toml").write_text(TERMINAL_NEEDS_APPEND)
    table = {"rules": [str(tmp_path / "xy210.toml")]}
    assert cl("""\
        def finish(self, run):
            self._ledger.append_terminal(run.id)

        def fail(self, run):
            self._ledger.append(run.id, Status.FAILED)

        def complete(self, run):
            self._ledger.append(run.id, "started")
            self._ledger.append_terminal(run.id)

        def _close(self, run):
            self._ledger.append(run.id, "closing")
            self._ledger.append(run.id, Status.COMPLETED)

        def close(self, run):
            self._close(run)
        """, select=["XY210"], table=table) == [("XY210", 2), ("XY210", 5)]


def test_requires_before_with_one_class_on_both_sides_reports_the_first(tmp_path):
    rule = REQ_RULE.replace('first = ["append"]', 'first = ["save"]').replace('"XY200"', '"XY220"')
    (tmp_path / "xy220.toml").write_text(rule)
    table = {"rules": [str(tmp_path / "xy220.toml")]}
    assert cl("""\
        def twice(self, run):
            self._store.save(run)
            self._store.save(run)
        """, select=["XY220"], table=table) == [("XY220", 2)]


REMOVAL_RULE = '''\
id = "UR101"
name = "metadata-after-data-removed"
severity = "warning"
kind = "sequence"
first = ["data-removal"]
then = ["save"]
message = "metadata saved by `{then_text}` after data removed at line {first_line}"
explanation = """
A metadata write after the data it names was removed.
"""
'''


def _removals(tmp_path, caller: str) -> dict:
    """UR101's findings, by line, on a helper that removes and then saves (lines 1-3)
    and ``caller`` below it (from line 6)."""
    from checkutil import check_source
    (tmp_path / "ur101.toml").write_text(REMOVAL_RULE)
    table = {"rules": [str(tmp_path / "ur101.toml")], "events": {"data-removal": ["remove_with"]}}
    src = ("def remove_and_commit(remove_with, store, files, fmd):\n"
           "    remove_with(files)\n"
           "    store.save(fmd)\n"
           "\n\n" + caller)
    return {f.span.line: f for f in check_source(src, table=table, select=["UR101"])}


def test_an_anchor_that_performs_both_classes_is_named_by_its_role(tmp_path):
    """(Session 53, held-out set 118, fastparquet with a user rule.) A helper that
    removes and then saves, called after a removal: the finding stands at the helper
    as the `then` save, and its step said `data-removal` with a "via" to the helper's
    removal, so the witness never showed the save the message names."""
    found = _removals(tmp_path, "def overwrite(remove_with, store, old, files, fmd):\n"
                                "    remove_with(old)\n"
                                "    remove_and_commit(remove_with, store, files, fmd)\n")
    f = found[8]
    assert [(s.span.line, s.kind) for s in f.witness] == [(7, "data-removal"), (8, "save")], f.witness
    assert f.witness[-1].via.endswith("store.save(fmd) at example.py:3"), f.witness[-1].via
    assert any(r.span.line == 3 and r.message.startswith("save performed via") for r in f.related), f.related


def test_an_earlier_event_that_performs_both_classes_is_named_by_its_role(tmp_path):
    """(A review, session 53.) Its related place said "state saved here" whenever
    the call also saved, whatever the rule's `first` role; its witness step said
    the role's class. Also OC301's file-write end in a helper that saves."""
    from checkutil import check_source
    found = _removals(tmp_path, "def first_both(remove_with, store, files, fmd):\n"
                                "    remove_and_commit(remove_with, store, files, fmd)\n"
                                "    store.save(fmd)\n")
    assert [r.message.split(":")[0] for r in found[8].related if r.span.line == 7] == ["data-removal here"]
    assert found[8].witness[0].kind == "data-removal"
    oc301 = (
        "import os\n\n\n"
        "def write_and_save(store, path, data, run):\n"
        "    with open(path, \"w\") as f:\n"
        "        f.write(data)\n"
        "    store.save(run)\n\n\n"
        "def publish(store, path, data, run):\n"
        "    write_and_save(store, path + \".tmp\", data, run)\n"
        "    os.rename(path + \".tmp\", path)\n")
    [f] = check_source(oc301, select=["OC301"])
    assert [r.message.split(":")[0] for r in f.related if r.span.line == 11] == ["file-write here"], f.related
