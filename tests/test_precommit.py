"""End to end with the real pre-commit (semantics §Surfaces, §7): a hook run names only the staged
files, yet a helper in another file still carries its save.

The hook is this repository's ``.pre-commit-hooks.yaml``, served from a temporary git
repository (``repo: <path>``, as a user would point at a clone) with ``language:
system`` overridden in the user's config: ``language: python`` would make pre-commit
build a virtualenv and pip-install ordercheck and its dependencies from an index,
which needs the network; ``system`` runs the ``ordercheck`` already installed (on
PATH), so nothing is downloaded.
"""
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

HELPER = """\
def finish(store, run):
    store.save(run)
"""
BUGGY = """\
from helpers import finish


def complete(store, ledger, run):
    finish(store, run)
    ledger.append_terminal(run.id)
"""
FIXED = """\
from helpers import finish


def complete(store, ledger, run):
    ledger.append_terminal(run.id)
    finish(store, run)
"""


def _git(cwd, *args, check=True):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    env.pop("GIT_INDEX_FILE", None)
    return subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
                          cwd=cwd, env=env, capture_output=True, text=True, check=check)


@pytest.fixture
def env(tmp_path):
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    ordercheck = shutil.which("ordercheck", path=str(Path(sys.executable).parent))
    assert pre_commit and ordercheck, "the test extra installs pre-commit; ordercheck must be installed"
    e = dict(os.environ)
    e["PATH"] = str(Path(sys.executable).parent) + os.pathsep + e.get("PATH", "")
    e["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    e.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
             GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    for k in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        e.pop(k, None)
    return e, pre_commit


def _hook_repo(tmp_path) -> str:
    hooks = tmp_path / "hookrepo"
    hooks.mkdir()
    shutil.copy(REPO / ".pre-commit-hooks.yaml", hooks / ".pre-commit-hooks.yaml")
    _git(hooks, "init", "-q")
    _git(hooks, "add", ".")
    _git(hooks, "commit", "-q", "-m", "hooks")
    return _git(hooks, "rev-parse", "HEAD").stdout.strip()


def test_hook_fails_on_the_staged_caller_of_a_helper_in_another_file_and_passes_when_fixed(tmp_path, env):
    e, pre_commit = env
    rev = _hook_repo(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    (project / ".pre-commit-config.yaml").write_text(textwrap.dedent(f"""\
        repos:
          - repo: {(tmp_path / 'hookrepo').as_posix()}
            rev: {rev}
            hooks:
              - id: ordercheck
                language: system
                args: [--select, OC101, --no-cache]
        """))
    (project / "pyproject.toml").write_text("[tool.ordercheck]\nexclude = ['generated/**']\n")
    (project / "helpers.py").write_text(HELPER)
    _git(project, "init", "-q")
    _git(project, "add", ".")
    _git(project, "commit", "-q", "-m", "helper")
    installed = subprocess.run([pre_commit, "install"], cwd=project, env=e, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    (project / "worker.py").write_text(BUGGY)
    _git(project, "add", "worker.py")  # only the caller is staged
    commit = subprocess.run(["git", "commit", "-m", "worker"], cwd=project, env=e, capture_output=True, text=True)
    out = commit.stdout + commit.stderr
    assert commit.returncode != 0, out
    assert "worker.py:6:5: OC101" in out, out
    assert "helpers.py:2" in out, out  # the witness names the helper's save

    (project / "worker.py").write_text(FIXED)
    _git(project, "add", "worker.py")
    commit = subprocess.run(["git", "commit", "-m", "worker"], cwd=project, env=e, capture_output=True, text=True)
    assert commit.returncode == 0, commit.stdout + commit.stderr

    # --force-exclude (from the hook's entry): a staged file under `exclude` is skipped
    gen = project / "generated"
    gen.mkdir()
    (gen / "out.py").write_text(BUGGY)
    _git(project, "add", "generated/out.py")
    run = subprocess.run([pre_commit, "run"], cwd=project, env=e, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
