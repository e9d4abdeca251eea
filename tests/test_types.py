"""The package type-checks: ``python -m mypy ordercheck`` (default strictness, the
``[tool.mypy]`` section of pyproject.toml) reports nothing. mypy and the networkx
stubs come with the ``test`` extra, so a missing mypy is a failure, not a skip."""
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_is_clean() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed: install the test extra (pip install '.[test]')")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "ordercheck"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600,
    )
    assert proc.returncode == 0, f"mypy ordercheck exited {proc.returncode}:\n{proc.stdout}"


def test_ruff_is_clean() -> None:
    """``ruff check ordercheck tests bench`` with the ``[tool.ruff]`` section (pyflakes' checks and import
    order): unused imports and undefined names are caught before review."""
    if importlib.util.find_spec("ruff") is None:
        pytest.fail("ruff is not installed: install the test extra (pip install '.[test]')")
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "ordercheck", "tests", "bench"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300,
    )
    assert proc.returncode == 0, f"ruff check exited {proc.returncode}:\n{proc.stdout}"
