"""A walk stays inside ``include`` (docs/decisions.md "A walk stays inside `include`",
session 20). With ``include = ["src"]``, ``ordercheck .`` walked ``tools/`` too and
used its helpers' summaries, so a finding in ``src`` appeared in CI's ``ordercheck .``
and not in a pre-commit run of the one file, whose project is what ``include`` admits
(semantics §Surfaces: a one-file run "reports in that file exactly what ordercheck on
the whole project reports there"; found by a session-20 differential fuzzer)."""
from pathlib import Path

import pytest
from cliutil import oc, write

CONFIG = """\
include = ["src"]
[extend-events]
terminal-append = ["ledger.append_terminal"]
"""
HELPER = """\
def finish(store, run):
    store.save(run)
"""
MAIN = """\
from tools.helpers import finish
from app.local import close


def go(store, ledger, run):
    finish(store, run)
    ledger.append_terminal(run)


def stop(store, ledger, run):
    close(store, run)
    ledger.append_terminal(run)
"""
LOCAL = """\
def close(store, run):
    store.save(run)
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, "ordercheck.toml", CONFIG)
    write(tmp_path, "src/app/__init__.py", "")
    write(tmp_path, "src/app/main.py", MAIN)
    write(tmp_path, "src/app/local.py", LOCAL)
    write(tmp_path, "tools/helpers.py", HELPER)
    write(tmp_path, "tools/script.py", "def f(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run)\n")
    return tmp_path


WANT = [("src/app/main.py", 12, "OC101")]  # `close` is in the project; `finish` is not


@pytest.mark.parametrize("args", [(), (".",), ("src",), ("src/app/main.py",), ("--force-exclude", "src/app/main.py",
                                                                              "tools/helpers.py", "tools/script.py")])
def test_every_way_of_running_agrees(project, args):
    r = oc(project, "--no-cache", *args)
    assert r.codes() == WANT, r


def test_a_folder_named_apart_from_include_is_walked_whole(project):
    # asked for by name, as a file named is (tests/test_config.py: paths override include)
    r = oc(project, "--no-cache", "tools")
    assert r.codes() == [("tools/script.py", 3, "OC101")], r


def test_under_force_exclude_a_folder_apart_from_include_is_skipped_and_said(project):
    r = oc(project, "--no-cache", "--force-exclude", "tools", proc=True)
    assert r.code == 0 and r.codes() == [], r
    assert "outside `include`" in r.err, r


def test_a_folder_holding_include_is_walked_inside_it(project):
    write(project, "src/app/sub/__init__.py", "")
    write(project, "src/app/sub/job.py", "def f(store, ledger, run):\n    store.save(run)\n    ledger.append_terminal(run)\n")
    r = oc(project, "--no-cache", ".")
    assert r.codes() == sorted(WANT + [("src/app/sub/job.py", 3, "OC101")]), r


def test_a_file_named_outside_include_is_still_checked(project):
    r = oc(project, "--no-cache", "tools/script.py")
    assert r.codes() == [("tools/script.py", 3, "OC101")], r


def test_without_include_the_walk_takes_everything(project):
    write(project, "ordercheck.toml", CONFIG.replace('include = ["src"]\n', ""))
    r = oc(project, "--no-cache", ".")
    assert ("tools/script.py", 3, "OC101") in r.codes(), r


def test_a_file_named_through_a_symlink_is_the_included_file(project, tmp_path_factory):
    # editors and pre-commit pass absolute paths, and /tmp is a symlink on macOS
    link = tmp_path_factory.mktemp("links") / "proj"
    link.symlink_to(project, target_is_directory=True)
    main = str(link / "src" / "app" / "main.py")
    r = oc(project, "--no-cache", "--force-exclude", main)
    assert [(f[1], f[2]) for f in r.codes()] == [(12, "OC101")], r
    r = oc(project, "--no-cache", "--force-exclude", "--stdin-filename", main,
           stdin=(project / "src/app/main.py").read_bytes())
    assert [(f[1], f[2]) for f in r.codes()] == [(12, "OC101")], r


@pytest.mark.parametrize("pattern", ["src/*", "src/app/*.py", "src/**"])
def test_a_glob_include_is_matched_not_expanded(project, pattern):
    write(project, "ordercheck.toml", CONFIG.replace('include = ["src"]', f'include = ["{pattern}"]'))
    for args in [(), (".",), ("src/app/main.py",)]:
        r = oc(project, "--no-cache", *args)
        assert r.codes() == WANT, (args, r)
