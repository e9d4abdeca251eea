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


def test_tqdm_and_click_print_to_a_file_as_print_does():
    """tqdm's ``write`` is the console (held back from ``file-write``) unless it is handed
    a file; click's ``echo`` likewise (a review of session 59; session 60)."""
    src = """\
import os

import click
from tqdm import tqdm


def tq(rows, path):
    with open(path + ".tmp", "w") as fh:
        for r in rows:
            tqdm.write(r, file=fh)
    os.replace(path + ".tmp", path)


def tq_console(rows, a, b):
    for r in rows:
        tqdm.write(r)
    os.replace(a, b)


def echo(rows, path):
    with open(path + ".tmp", "w") as fh:
        click.echo("x", file=fh)
    os.replace(path + ".tmp", path)


def echo_console(a, b):
    click.echo("moved")
    os.replace(a, b)
"""
    assert cl(src, ["OC301"]) == [("OC301", 11), ("OC301", 23)]


def test_file_none_is_standard_output():
    """A review: `print(s, file=None)` (and click's, tqdm's) writes standard output."""
    src = """\
import os

import click
from tqdm import tqdm


def f(rows, a, b):
    print("x", file=None)
    click.echo("x", file=None)
    tqdm.write("x", file=None)
    os.replace(a, b)
"""
    assert cl(src, ["OC301"]) == []



def test_a_download_into_a_file_is_a_file_write():
    """Held-out set 238: `urlretrieve(url, tmp)` then `os.replace(tmp, path)`, unsynced."""
    src = """\
import os
import urllib.request
from urllib.request import urlretrieve


def get(url, path):
    urllib.request.urlretrieve(url, path + ".tmp")
    os.replace(path + ".tmp", path)


def get2(url, path):
    urlretrieve(url, path + ".tmp")
    with open(path + ".tmp", "rb") as f:
        os.fsync(f.fileno())
    os.replace(path + ".tmp", path)
"""
    assert cl(src, ["OC301"]) == [("OC301", 8)]
