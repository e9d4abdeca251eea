"""A print to a file writes it as `f.write(...)` does (held-out set 156: miniwdl's
`write_atomic` prints into a temporary file, then renames it, unsynced;
docs/decisions.md "A print to standard error")."""
from checkutil import cl

SRC = """\
import os
import sys


def write_atomic(contents, filename):
    tn = filename + ".tmp"
    with open(tn, "w") as f:
        print(contents, file=f)
    os.rename(tn, filename)


def to_stdout(contents, a, b):
    print(contents, file=sys.stdout)
    os.rename(a, b)


def synced(contents, filename):
    tn = filename + ".tmp"
    with open(tn, "w") as f:
        print(contents, file=f)
        f.flush()
        os.fsync(f.fileno())
    os.rename(tn, filename)


def shadowed(print, contents, filename):
    with open(filename + ".tmp", "w") as f:
        print(contents, file=f)
    os.rename(filename + ".tmp", filename)
"""


def test_a_print_to_a_file_is_a_file_write_and_to_standard_output_none():
    assert cl(SRC, ["OC301"]) == [("OC301", 9)]


def test_a_print_to_standard_error_is_still_a_surface():
    src = """\
def persist(store, run):
    import sys
    try:
        store.save(run)
    except Exception as e:
        print("lost", file=sys.stderr)
"""
    assert cl(src, ["OC203"]) == []
