"""A transaction's commit stands for the calls of its body (docs/decisions.md, "What a
transaction commits"): a finding's message names the call in the body that performed
the event and its line, and a related place says which manager commits it; the
finding still stands where it stood (the commit's `with`, or the call after it)."""
from __future__ import annotations

from checkutil import check_source

PRELUDE = "from django.db import transaction\n\n\n"


def one(src: str, code: str):
    found = [f for f in check_source(PRELUDE + src, select=["ALL"]) if f.code == code]
    assert len(found) == 1, [(f.code, f.span.line, f.message) for f in found]
    return found[0]


def related(f):
    return [(r.span.line, r.message) for r in f.related]


def test_a_second_terminal_append_names_the_first_inside_the_transaction():
    f = one('''\
def finish(self, run, failed):
    with transaction.atomic():
        self._ledger.append_terminal(run.id, "completed")
        self.store.save(run)
    if failed:
        self._ledger.append_terminal(run.id, "failed")
''', "OC103")
    assert f.span.line == 9
    assert 'already appended `self._ledger.append_terminal(run.id, "completed")` at line 6' in f.message
    assert "transaction.atomic()" not in f.message
    assert related(f) == [(6, 'terminal-append here: self._ledger.append_terminal(run.id, "completed")'),
                          (5, "terminal-append committed here, by `transaction.atomic()`")]


def test_a_committed_append_after_a_save_is_named_and_stands_at_the_commit():
    f = one('''\
def finish(self, run):
    self.store.save(run)
    with transaction.atomic():
        self._ledger.append_terminal(run.id, "completed")
''', "OC101")
    assert (f.span.line, f.span.col) == (6, 9)  # (the commit: the manager's call)
    assert f.message.startswith('terminal ledger append `self._ledger.append_terminal(run.id, "completed")` '
                                "after the state save at line 5")
    assert (6, "terminal-append committed here, by `transaction.atomic()`") in related(f)


def test_a_split_body_names_the_save_its_walk_made():
    f = one('''\
def settle(self, run, flag):
    with transaction.atomic():
        if flag:
            self.store.save(run)
        self._ledger.append(run.id, "step")
    self._ledger.append(run.id, "more")
''', "OC102")
    assert f.span.line == 9
    assert "after the state save at line 7" in f.message
    assert related(f)[0] == (7, "state saved here: self.store.save(run)")


def test_a_save_outside_any_transaction_is_named_as_before():
    f = one('''\
def settle(self, run):
    self.store.save(run)
    self._ledger.append(run.id, "more")
''', "OC102")
    assert "after the state save at line 5" in f.message
    assert related(f) == [(5, "state saved here: self.store.save(run)")]


def test_a_split_body_names_the_call_on_the_witnesss_walk():
    """(A review, session 34.) Each copy of a split commit lists the calls of every
    walk; the message names the one the witness passes, not the first in the body
    (here the first is followed by its fsync)."""
    src = '''\
import os


def publish(path, tmp, data, flag):
    with transaction.atomic():
        if flag:
            fh = open(tmp, "w")
            fh.write(data)
            os.fsync(fh.fileno())
        else:
            other = open(tmp, "a")
            other.write(data)
    os.replace(tmp, path)
'''
    f = one(src, "OC301")
    assert "after the file write at line 15" in f.message, f.message
    assert related(f)[0][0] == 15


def test_a_commit_is_named_by_the_class_of_its_role(tmp_path):
    """A configured rule relating two classes a commit both carries: the anchor is
    named by its `then` class's call, the earlier event by its `first` class's."""
    rule = tmp_path / "OC951.toml"
    rule.write_text('id = "OC951"\nname = "save-after-audit"\nseverity = "warning"\nkind = "sequence"\n'
                    'first = ["append"]\nthen = ["save"]\n'
                    'message = "save `{then_text}` at line {then_line} after the append at line {first_line}"\n'
                    'explanation = "x"\n[[examples]]\ncode = "x = 1"\nexpect = []\n'
                    '[[examples]]\ncode = "x = 1"\nexpect = [{ code = "OC951", line = 1 }]\n')
    src = PRELUDE + '''\
def settle(self, run):
    self._ledger.append(run.id, "start")
    with transaction.atomic():
        self._ledger.append(run.id, "step")
        self.store.save(run)
'''
    [f] = [f for f in check_source(src, table={"rules": [str(rule)]}, select=["OC951"])]
    assert f.message == "save `self.store.save(run)` at line 8 after the append at line 5"
    assert (6, "save committed here, by `transaction.atomic()`") in related(f)
