"""A negated class of a rule (OC301's `then = ["rename", "!file-write"]`) reads the
whole call, not one branch of it: an atomic-write helper called as an `if` test, whose
rename travels only along the branch where it returns True (conditional effects), is
still a call that writes and renames, so it is no rename end at its caller, as when it
is called as a statement (a session-38 held-out set: praisonaiagents'
`if _repair_via_online_backup(path):` paired with an earlier backup copy)."""
from __future__ import annotations

import pytest

from checkutil import check_source

RENAMES_WHEN_TRUE = '''
import os
import shutil


def promote(path, snap, ok):
    with open(snap, "w") as fh:
        fh.write("data")
    if not ok:
        return False
    os.replace(snap, path)
    return True
'''

WRITES_WHEN_TRUE = '''
import os
import shutil


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

RENAMES_ONLY_WHEN_TRUE = '''
import os
import shutil


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


@pytest.mark.parametrize("helper", [RENAMES_WHEN_TRUE, WRITES_WHEN_TRUE], ids=["renames-when-true", "writes-when-true"])
def test_a_helper_that_writes_and_renames_is_no_rename_end_on_either_branch(helper):
    assert _callers(helper) == []


def test_a_helper_that_only_renames_is_still_a_rename_end_on_its_branch():
    """The control: no write in the helper, so its rename (on the True branch) pairs
    with the caller's copy, called as a test or as a statement."""
    assert _callers(RENAMES_ONLY_WHEN_TRUE) == [("OC301", "repair_if"), ("OC301", "repair_not"),
                                                ("OC301", "repair_stmt")]
