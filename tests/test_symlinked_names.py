"""A symlinked file has one name everywhere (docs/decisions.md, "Symlinked files"):
the name it was found by, its folder resolved. Reports always used it; baseline
fingerprints, ``exclude``, ``include`` and ``per-file-ignores`` resolved the file's
own link, so a link to a file outside the project was matched by no glob of the
config, and a baseline written in the project's root did not match a run from
``src/``."""
from __future__ import annotations

import os

from cliutil import oc, write

BAD = """
def step(store, ledger, run):
    store.save(run)
    ledger.append(run)
"""


def _linked(tmp_path, config: str = ""):
    """``proj/src/run.py -> ../../outside/run.py`` (a file kept outside the project)."""
    write(tmp_path, "outside/run.py", BAD)
    proj = tmp_path / "proj"
    write(proj, "pyproject.toml", "[tool.ordercheck]\n" + config)
    (proj / "src").mkdir()
    os.symlink("../../outside/run.py", proj / "src" / "run.py")
    write(proj, "src/other.py", BAD)
    return proj


def _paths(run):
    return sorted({p for p, _line, _code in run.codes()})


def test_a_baseline_matches_a_linked_file_from_any_folder(tmp_path):
    proj = _linked(tmp_path)
    written = oc(proj, "--no-cache", "src", "--write-baseline", "b.json")
    assert written.code == 0
    for cwd, target, baseline in ((proj, "src", "b.json"), (proj / "src", ".", "../b.json"),
                                  (tmp_path, "proj/src", "proj/b.json")):
        run = oc(cwd, "--no-cache", target, "--baseline", baseline)
        assert (run.code, run.codes()) == (0, []), (cwd, run)


def test_per_file_ignores_match_a_linked_file_by_its_own_name(tmp_path):
    proj = _linked(tmp_path, 'per-file-ignores = {"src/run.py" = ["OC102"]}\n')
    assert _paths(oc(proj, "--no-cache", "src")) == ["src/other.py"]
    assert _paths(oc(proj / "src", "--no-cache", ".")) == ["other.py"]
    # named alone, the link finds its own project's config (not its target's folder's)
    assert _paths(oc(proj, "--no-cache", "src/run.py")) == []


def test_exclude_and_include_match_a_linked_file_by_its_own_name(tmp_path):
    proj = _linked(tmp_path, 'exclude = ["src/run.py"]\n')
    assert _paths(oc(proj, "--no-cache")) == ["src/other.py"]
    assert _paths(oc(proj, "--no-cache", "--force-exclude", "src/run.py")) == []
    proj2 = _linked(tmp_path / "two", 'include = ["src"]\n')
    assert _paths(oc(proj2, "--no-cache")) == ["src/other.py", "src/run.py"]


def test_a_linked_file_named_alone_draws_no_warning_of_its_targets_config(tmp_path):
    proj = _linked(tmp_path)
    write(tmp_path, "outside/pyproject.toml", "[tool.ordercheck]\n")
    run = oc(proj, "--no-cache", "src/run.py")
    assert run.code == 1 and "which this run does not use" not in run.err, run


def test_the_language_server_names_a_linked_document_as_the_cli_does(tmp_path):
    """A document opened as ``proj/src/run.py`` belongs to ``proj`` (its config, its
    globs), not to the folder its target is in."""
    from ordercheck import lsp

    proj = _linked(tmp_path, 'exclude = ["src/run.py"]\n')
    write(tmp_path, "outside/pyproject.toml", "[tool.ordercheck]\n")
    doc = proj / "src" / "run.py"
    assert lsp.document_root(doc, [proj]) == proj.resolve()
    assert lsp.guess_root(doc) == proj.resolve()
    assert lsp.Project(proj).excluded(doc)
    assert not lsp.Project(proj).excluded(proj / "src" / "other.py")


def test_a_linked_folder_and_its_files_answer_alike(tmp_path):
    """A folder is resolved whole, so ``exclude = ["link"]`` for ``link -> real``
    drops neither the folder named nor a file named in it: the folder and its files
    are judged by the same place."""
    write(tmp_path, "pyproject.toml", '[tool.ordercheck]\nexclude = ["link"]\n')
    write(tmp_path, "real/x.py", BAD)
    os.symlink("real", tmp_path / "link")
    named_folder = oc(tmp_path, "--no-cache", "--force-exclude", "link")
    named_file = oc(tmp_path, "--no-cache", "--force-exclude", "link/x.py")
    assert len(named_folder.codes()) == len(named_file.codes()) == 1, (named_folder, named_file)


def test_a_dot_dot_after_a_link_is_taken_after_the_link():
    """``lnk/../m.py`` is the file beside ``lnk``'s target, as the system opens it (a
    textual ``abspath`` would take ``lnk/..`` away first)."""
    import tempfile
    from pathlib import Path

    from ordercheck.filepaths import location

    with tempfile.TemporaryDirectory() as d:
        base = Path(d).resolve()
        (base / "other" / "deep").mkdir(parents=True)
        (base / "proj").mkdir()
        (base / "other" / "m.py").write_text("x = 1\n")
        os.symlink("../other/deep", base / "proj" / "lnk")
        assert location(base / "proj" / "lnk" / ".." / "m.py") == base / "other" / "m.py"
