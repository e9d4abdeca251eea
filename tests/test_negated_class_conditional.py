"""A negated class of a rule (OC301's `then = ["rename", "!file-write"]`) reads the
call on the branch taken: at the point where a helper's conditional effects travel (one
branch of the `if` test it is), what the call node performs on every way back counts
too, so an atomic-write helper that writes and then renames only when it returns True
is no rename end at its caller on that branch, as when it is called as a statement (a
session-38 held-out set: praisonaiagents' `if _repair_via_online_backup(path):` paired
with an earlier backup copy). The call node itself is read alone: what it performs
besides depends on the branch that follows."""
from __future__ import annotations

import json

from checkutil import check_source
from cliutil import oc, write

HEADER = '''
import os
import shutil


'''

RENAMES_WHEN_TRUE = HEADER + '''
def promote(path, snap, ok):
    with open(snap, "w") as fh:
        fh.write("data")
    if not ok:
        return False
    os.replace(snap, path)
    return True
'''

WRITES_WHEN_TRUE = HEADER + '''
def promote(path, snap, ok):
    if ok:
        with open(snap, "w") as fh:
            fh.write("data")
        os.fsync(fh.fileno())
        os.replace(snap, path)
        return True
    os.replace(path + ".old", path)
    return False
'''

RENAMES_ONLY_WHEN_TRUE = HEADER + '''
def promote(path, snap, ok):
    if not ok:
        return False
    os.replace(snap, path)
    return True
'''

CALLERS = '''

def repair_if(path, snap, ok):
    shutil.copy2(path, path + ".bak")
    if promote(path, snap, ok):
        return True
    return False


def repair_not(path, snap, ok):
    shutil.copy2(path, path + ".bak")
    while not promote(path, snap, ok):
        ok = True


def repair_stmt(path, snap, ok):
    shutil.copy2(path, path + ".bak")
    promote(path, snap, ok)
'''


def _callers(src):
    return sorted((f.code, f.function) for f in check_source(src + CALLERS, select=["OC301"])
                  if f.function.startswith("repair"))


def test_a_helper_that_writes_then_renames_when_true_is_no_rename_end():
    assert _callers(RENAMES_WHEN_TRUE) == []


def test_the_call_node_is_read_alone_what_follows_depends_on_the_branch():
    """A helper that renames on every way back and writes only when it returns True is
    a rename without a write on its False way: called as a test, the call is a rename
    end there (what the call performs besides depends on the branch after it); called
    as a statement it is one call that may write and renames, no rename end."""
    assert _callers(WRITES_WHEN_TRUE) == [("OC301", "repair_if"), ("OC301", "repair_not")]


def test_a_write_whose_rename_is_on_the_other_branch_still_starts_a_pair():
    """(A review of the first version, which read the whole call.) `publish` writes on
    every way back and fsyncs and renames only when it returns True: on its False way
    the caller renames the unsynced file, a true OC301 the call's True-branch rename
    must not hide."""
    src = """
import os


def publish(tmp, final, data):
    with open(tmp, "w") as fh:
        fh.write(data)
        if not data.endswith("\\n"):
            return False
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, final)
    return True


def save_state(tmp, final, fallback, data):
    if not publish(tmp, final, data):
        os.replace(tmp, fallback)
"""
    found = [(f.code, f.function, f.span.line) for f in check_source(src, select=["OC301"])]
    assert found == [("OC301", "save_state", 18)], found


RULE = """
id = "UR503"
name = "append-then-save"
severity = "warning"
kind = "sequence"
first = ["append"]
then = ["save"]
barrier = ["surface", "!append"]
message = "save `{then_text}` after the append at line {first_line}"
"""


def test_a_negated_barrier_class_on_the_other_branch_does_not_unmake_the_barrier(tmp_path):
    """(The same review.) A user rule's `barrier = ["surface", "!append"]`: a helper
    that warns when it returns True and appends when it returns False is a barrier on
    its True branch."""
    write(tmp_path, "ordercheck.toml", 'rules = ["r.toml"]\nselect = ["UR"]\n')
    write(tmp_path, "r.toml", RULE)
    write(tmp_path, "m.py", """
class R:
    def note(self, run):
        if run.ok:
            self.logger.warning("x")
            return True
        self._ledger.append("y")
        return False

    def c(self, run):
        self._ledger.append("z")
        if self.note(run):
            self._store.save(run)

    def d(self, run):
        self._ledger.append("z")
        if not self.note(run):
            self._store.save(run)
""")
    r = oc(tmp_path, "--no-cache", "--format", "json", "m.py")
    found = [(d["code"], d["range"]["start"]["line"] + 1) for f in json.loads(r.out)["files"] for d in f["diagnostics"]]
    assert found == [("UR503", 18)], found  # `d`: the False branch appended, no surface
