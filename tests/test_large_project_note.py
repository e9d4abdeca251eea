"""A config named with ``--config`` in a folder that holds the paths makes that folder
the project root (docs/decisions.md, "The project root"); kept in ``/tmp`` or a home
folder, it made every Python file there part of the summaries, minutes of reading with
nothing said (a held-out set, session 42). The run says so before reading."""
from __future__ import annotations

from cliutil import oc, write

BAD = """
def f(store, ledger, run):
    store.save(run)
    ledger.append(run)
"""


def _tree(tmp_path, marker: bool = False):
    for i in range(4):
        write(tmp_path, f"other{i}.py", "x = 1\n")
    write(tmp_path, "proj/m.py", BAD)
    write(tmp_path, "cfg.toml", "")
    if marker:
        write(tmp_path, "pyproject.toml", "")


def test_a_large_project_under_an_unmarked_config_folder_is_named(tmp_path, monkeypatch):
    from ordercheck import cli

    monkeypatch.setattr(cli, "LARGE_PROJECT", 5)
    _tree(tmp_path)
    run = oc(tmp_path, "--no-cache", "--config", "cfg.toml", "proj")
    assert run.code == 1
    assert f"reading 5 Python files under {tmp_path.resolve()}" in run.err and "--config cfg.toml" in run.err, run
    assert "note" not in oc(tmp_path, "--no-cache", "--config", "cfg.toml", "-q", "proj").err
    # a machine format's reader takes stderr for an error: said in text only
    assert oc(tmp_path, "--no-cache", "--config", "cfg.toml", "--format", "json", "proj").err == ""


def test_no_note_for_a_small_project_or_a_marked_one(tmp_path, monkeypatch):
    from ordercheck import cli

    _tree(tmp_path)
    assert "reading" not in oc(tmp_path, "--no-cache", "--config", "cfg.toml", "proj").err  # (1000 by default)
    monkeypatch.setattr(cli, "LARGE_PROJECT", 5)
    write(tmp_path, "pyproject.toml", "")
    run = oc(tmp_path, "--no-cache", "--config", "cfg.toml", "proj")
    assert run.code == 1 and "reading" not in run.err, run


def test_no_note_when_the_run_names_the_root_itself(tmp_path, monkeypatch):
    """(Held-out set 46.) `ordercheck --config ordercheck.toml .` in an unpacked wheel reads
    the folder it was asked to read; the note told the user to move a config that was
    already in the project's folder."""
    from ordercheck import cli

    monkeypatch.setattr(cli, "LARGE_PROJECT", 5)
    _tree(tmp_path)
    for args in ((".",), (str(tmp_path),), ()):
        run = oc(tmp_path, "--no-cache", "--config", "cfg.toml", *args)
        assert run.code == 1 and "reading" not in run.err, (args, run)
    assert "reading 5 Python files" in oc(tmp_path, "--no-cache", "--config", "cfg.toml", "proj").err


def test_an_editor_buffer_from_the_root_is_still_told(tmp_path, monkeypatch):
    """(A review.) An editor's buffer names one file; from the root folder as from
    elsewhere, the run reads the whole root for the summaries and says so."""
    from ordercheck import cli

    monkeypatch.setattr(cli, "LARGE_PROJECT", 5)
    _tree(tmp_path)
    run = oc(tmp_path, "--no-cache", "--config", "cfg.toml", "--stdin-filename", "proj/m.py", stdin=BAD.encode())
    assert "reading 5 Python files" in run.err, run
