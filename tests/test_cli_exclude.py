"""``--exclude`` and ``--extend-exclude`` (docs/configuration.md "Command line"):
globs from the command line, relative to the working directory, that replace or add
to the config's ``exclude``; they apply under ``--isolated`` too, and to ``suggest``."""
from __future__ import annotations

import json
import os

from cliutil import oc, write

BAD = """
def step(store, ledger, run):
    store.save(run)
    ledger.append(run)
"""


def _tree(tmp_path):
    for rel in ("pkg/a.py", "pkg/tests/t.py", "pkg/sub/s.py", "docs/d.py"):
        write(tmp_path, rel, BAD)
    return tmp_path


def _paths(run):
    return sorted({p for p, _line, _code in run.codes()})


def test_extend_exclude_adds_to_the_walk_under_isolated(tmp_path):
    root = _tree(tmp_path)
    assert _paths(oc(root, "--isolated", "--no-cache", ".")) == \
        ["docs/d.py", "pkg/a.py", "pkg/sub/s.py", "pkg/tests/t.py"]
    run = oc(root, "--isolated", "--no-cache", "--extend-exclude", "pkg/tests/**", ".")
    assert _paths(run) == ["docs/d.py", "pkg/a.py", "pkg/sub/s.py"]


def test_globs_are_comma_separated_and_repeatable_and_a_bare_name_matches_at_any_depth(tmp_path):
    root = _tree(tmp_path)
    run = oc(root, "--isolated", "--no-cache", "--extend-exclude", "tests,sub", "--extend-exclude", "docs/", ".")
    assert _paths(run) == ["pkg/a.py"]


def test_a_glob_is_written_from_the_working_directory(tmp_path):
    root = _tree(tmp_path)
    write(root, "ordercheck.toml", "")
    # in pkg/ the user writes `tests/**` for pkg/tests: the config's globs are
    # relative to its own folder, the command line's to where it is typed
    run = oc(root / "pkg", "--no-cache", "--extend-exclude", "tests/**", ".")
    assert _paths(run) == ["a.py", "sub/s.py"]
    run = oc(root / "pkg", "--no-cache", "--extend-exclude", "../docs/**", "..")
    assert "../docs/d.py" not in _paths(run) and "a.py" in _paths(run)


def test_exclude_replaces_the_configs_and_extend_exclude_keeps_it(tmp_path):
    root = _tree(tmp_path)
    write(root, "ordercheck.toml", 'exclude = ["docs/**"]\n')
    assert _paths(oc(root, "--no-cache", ".")) == ["pkg/a.py", "pkg/sub/s.py", "pkg/tests/t.py"]
    assert _paths(oc(root, "--no-cache", "--extend-exclude", "sub", ".")) == ["pkg/a.py", "pkg/tests/t.py"]
    assert _paths(oc(root, "--no-cache", "--exclude", "sub", ".")) == ["docs/d.py", "pkg/a.py", "pkg/tests/t.py"]


def test_a_file_named_on_the_command_line_is_checked_unless_force_exclude(tmp_path):
    root = _tree(tmp_path)
    args = ("--isolated", "--no-cache", "--extend-exclude", "tests")
    assert _paths(oc(root, *args, "pkg/tests/t.py")) == ["pkg/tests/t.py"]
    assert _paths(oc(root, *args, "--force-exclude", "pkg/tests/t.py")) == []


def test_force_exclude_drops_a_file_below_a_folder_a_bare_name_excludes(tmp_path):
    # (a fault found with these options: a walk prunes `tests/`, but a pre-commit
    # run naming pkg/tests/t.py checked it, the glob matching no file name)
    root = _tree(tmp_path)
    write(root, "ordercheck.toml", 'exclude = ["tests"]\n')
    assert _paths(oc(root, "--no-cache", "--force-exclude", "pkg/tests/t.py", "pkg/a.py")) == ["pkg/a.py"]


def test_a_bad_glob_names_the_option_and_exits_2(tmp_path):
    root = _tree(tmp_path)
    run = oc(root, "--isolated", "--no-cache", "--extend-exclude", "pkg/[", ".")
    assert run.code == 2
    assert "--extend-exclude" in run.err and "bad glob" in run.err and "Traceback" not in run.err


def test_suggest_takes_them_too(tmp_path):
    root = tmp_path
    write(root, "pkg/a.py", "def f(db, run):\n    db.persist_job(run)\n    db.persist_job(run)\n")
    write(root, "pkg/tests/t.py", "def g(db, run):\n    db.persist_job(run)\n    db.persist_job(run)\n")
    full = json.loads(oc(root, "suggest", "--isolated", "--format", "json", ".").out)
    cut = json.loads(oc(root, "suggest", "--isolated", "--format", "json", "--extend-exclude", "tests", ".").out)
    assert (full["files"], full["suggestions"][0]["calls"]) == (2, 4)
    assert (cut["files"], cut["suggestions"][0]["calls"]) == (1, 2)


def test_an_absolute_glob_inside_the_project_is_made_relative(tmp_path):
    # (an adversarial review, session 31: it was silently a no-op)
    root = _tree(tmp_path)
    run = oc(root, "--isolated", "--no-cache", "--extend-exclude", f"{root.as_posix()}/pkg/tests/**", ".")
    assert _paths(run) == ["docs/d.py", "pkg/a.py", "pkg/sub/s.py"]
    run = oc(root / "pkg", "--isolated", "--no-cache", "--extend-exclude", f"{root.as_posix()}/pkg/sub", ".")
    assert _paths(run) == ["a.py", "tests/t.py"]


def test_a_path_names_one_folder_and_a_bare_name_every_folder_of_that_name(tmp_path):
    # (a review, session 32) `$PWD/tests` made relative was the bare `tests`: it
    # dropped pkg/tests as well
    root = _tree(tmp_path)
    write(root, "tests/t.py", BAD)
    every = ["docs/d.py", "pkg/a.py", "pkg/sub/s.py"]
    one = ["docs/d.py", "pkg/a.py", "pkg/sub/s.py", "pkg/tests/t.py"]
    for glob, kept in ((f"{root.as_posix()}/tests", one), (f"{root.as_posix()}/tests/", one),
                       ("./tests", one), ("tests", every), ("tests/", every)):
        assert _paths(oc(root, "--isolated", "--no-cache", "--extend-exclude", glob, ".")) == kept, glob
    # from a folder below, `../tests` is the top one
    run = oc(root / "pkg", "--isolated", "--no-cache", "--extend-exclude", "../tests", "..")
    assert "../tests/t.py" not in _paths(run) and "tests/t.py" in _paths(run)


def test_a_config_glob_with_a_leading_dot_slash_is_anchored(tmp_path):
    root = _tree(tmp_path)
    write(root, "tests/t.py", BAD)
    write(root, "ordercheck.toml", 'exclude = ["./tests"]\n')
    assert _paths(oc(root, "--no-cache", ".")) == ["docs/d.py", "pkg/a.py", "pkg/sub/s.py", "pkg/tests/t.py"]


def test_an_absolute_glob_is_normalised_and_read_through_symlinks(tmp_path):
    root = _tree(tmp_path / "real")
    link = tmp_path / "link"
    link.symlink_to(root, target_is_directory=True)
    p = root.as_posix()
    run = oc(root, "--isolated", "--no-cache", "--extend-exclude", f"{p}/pkg//sub", ".")
    assert _paths(run) == ["docs/d.py", "pkg/a.py", "pkg/tests/t.py"]
    # the project spelled through a symlink is the same project
    run = oc(link, "--isolated", "--no-cache", "--extend-exclude", f"{link.as_posix()}/pkg/sub", ".")
    assert _paths(run) == ["docs/d.py", "pkg/a.py", "pkg/tests/t.py"]
    # the project folder itself, with or without its slash, excludes everything
    for glob in (p, p + "/"):
        run = oc(root, "--isolated", "--no-cache", "--extend-exclude", glob, ".")
        assert _paths(run) == [] and "no Python files" in run.err, glob


def test_dot_and_dot_dot_name_places_and_a_folder_above_the_root_holds_it(tmp_path):
    # (a review, session 32) `.` and `./` from the root are the project; from `pkg`
    # under --isolated (the working directory is the root) `..` is a folder above it:
    # it excludes the project and its own files outside it, while the root's own path
    # excludes only the project, not `../docs`
    root = _tree(tmp_path)
    for glob in (".", "./"):
        run = oc(root, "--isolated", "--no-cache", "--extend-exclude", glob, ".")
        assert _paths(run) == [] and "no Python files" in run.err, glob
    pkg = root / "pkg"
    run = oc(pkg, "--isolated", "--no-cache", "..")
    # (a file outside the working folder is shown by its absolute path: session 64)
    docs = os.path.abspath(root / "docs" / "d.py")
    assert _paths(run) == [docs, "a.py", "sub/s.py", "tests/t.py"]
    for glob in ("..", "../", root.as_posix()):
        run = oc(pkg, "--isolated", "--no-cache", "--extend-exclude", glob, "..")
        assert _paths(run) == [], glob
    run = oc(pkg, "--isolated", "--no-cache", "--extend-exclude", pkg.as_posix(), "..")
    assert _paths(run) == [docs]
