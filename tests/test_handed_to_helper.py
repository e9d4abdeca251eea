"""A callable handed to a project helper that calls its first parameter runs there:
``self._run_safely(os.replace, tmp, dst)`` is a rename, ``self._retry(self._write,
path)`` carries what ``_write`` does (docs/decisions.md "A callable handed to a project
helper"; held-out set 179, cachelib's ``FileSystemCache``)."""
from __future__ import annotations

import pytest
from checkutil import cl, write_tree
from cliutil import oc

TABLE = {"extend-events": {"save": ["*store.save"], "append": ["*ledger.append"]}}

CACHE = """
import os


class Cache:
    {helper}

    def _write(self, tmp, data):
        with open(tmp, "w") as f:
            f.write(data)

    def put(self, tmp, dst, data):
        with open(tmp, "w") as f:
            f.write(data)
        self._run_safely(os.replace, tmp, dst)

    def put2(self, tmp, dst, data):
        self._run_safely(self._write, tmp, data)
        os.replace(tmp, dst)

    def put3(self, store, ledger, run):
        self._run_safely(store.save, run)
        ledger.append(run)
"""

RUNS = """def _run_safely(self, fn, *args):
        for _ in range(3):
            try:
                return fn(*args)
            except PermissionError:
                pass
        return None"""


def _codes(helper: str):
    return cl(CACHE.replace("{helper}", helper), select=["OC102", "OC301"], table=TABLE)


def test_the_handed_callable_runs_at_the_helpers_call():
    # (`put2`: a project function handed is matched by its names only; its summary is
    # not carried, the helper's is: decisions.md)
    assert _codes(RUNS) == [("OC102", 29), ("OC301", 21)]


@pytest.mark.parametrize("helper", [
    # kept for later, not run
    "def _run_safely(self, fn, *args):\n        self._later.append((fn, args))",
    # the callable is its second parameter
    "def _run_safely(self, name, fn, *args):\n        return fn(*args)",
    # run by a function it makes, not by the helper
    "def _run_safely(self, fn, *args):\n        def go():\n            return fn(*args)\n        return go",
    # `*args` first: no first positional parameter (a review)
    "def _run_safely(self, *args):\n        return args[0](*args[1:])",
])
def test_a_helper_that_does_not_run_its_first_parameter_carries_nothing_of_it(helper):
    assert _codes(helper) == []


def test_a_module_function_and_a_staticmethod_run_what_they_are_handed():
    src = """
import os


def retry(fn, *args):
    return fn(*args)


class Box:
    @staticmethod
    def safely(fn, *args):
        return fn(*args)

    def put(self, tmp, dst):
        with open(tmp, "w") as f:
            f.write("x")
        retry(os.replace, tmp, dst)

    def put2(self, tmp, dst):
        with open(tmp, "w") as f:
            f.write("x")
        Box.safely(os.rename, tmp, dst)
"""
    assert cl(src, select=["OC301"]) == [("OC301", 17), ("OC301", 22)]


FILES = {
    "pyproject.toml": '[tool.ordercheck.extend-events]\nsave = ["*store.save"]\nappend = ["*ledger.append"]\n',
    "util.py": """\
        def retrying(fn, *args):
            for _ in range(3):
                try:
                    return fn(*args)
                except OSError:
                    continue
        """,
    "main.py": """\
        from util import retrying


        def step(store, ledger, run):
            retrying(store.save, run)
            ledger.append(run)
        """,
}


def test_across_files_alone_and_warm_as_in_a_whole_run(tmp_path):
    write_tree(tmp_path, FILES)
    cache = str(tmp_path / "cache")
    assert oc(tmp_path, "--no-cache", ".").codes() == [("main.py", 6, "OC102")]
    assert oc(tmp_path, "--cache-dir", cache, ".").codes() == [("main.py", 6, "OC102")]
    assert oc(tmp_path, "--cache-dir", cache, "main.py").codes() == [("main.py", 6, "OC102")]
    assert oc(tmp_path, "--no-cache", "main.py").codes() == [("main.py", 6, "OC102")]
    # the helper no longer runs what it is handed: the warm run of the caller follows
    (tmp_path / "util.py").write_text("def retrying(fn, *args):\n    return None\n")
    assert oc(tmp_path, "--cache-dir", cache, "main.py").codes() == []
    assert oc(tmp_path, "--cache-dir", cache, ".").codes() == []


REVIEW = """
import logging

logger = logging.getLogger(__name__)


class Runner:
    def _logged(self, fn, *args):
        try:
            return fn(*args)
        except Exception:
            logger.error("persisting failed")
            return None

    async def _retry(self, fn, *args):
        return fn(*args)

    def _with_commit(self, fn, run):
        fn(run)
        self.store.save(run)

    def _mark(self, run):
        run.state = "done"

    def caught(self, run):
        try:
            self._logged(self.store.save, run)
        except Exception:
            pass

    async def dropped(self, run):
        self._retry(self.store.save, run)
        self.ledger.append(run)

    def own_save(self, run):
        self._with_commit(self._mark, run)
        self.ledger.append_terminal(run, "COMPLETED")
"""


def test_what_the_helper_catches_and_reports_and_what_it_never_runs():
    # (a review): a helper that catches every failure of the callable and logs it
    # fails nothing into its caller's handler; an `async def` helper not awaited runs
    # nothing; a helper's own save stays when it is handed a project function
    assert cl(REVIEW, select=["OC101", "OC102", "OC203"], table=TABLE) == [("OC101", 37)]


HELPERS = """
import contextlib
import logging
import os

logger = logging.getLogger(__name__)


class Runner:
    def _retry(self, fn, *args):
        try:
            return fn(*args)
        except Exception:
            logger.warning("retrying")
            raise

    def _quiet(self, fn, *args):
        with contextlib.suppress(Exception):
            return fn(*args)

    def _logged(self, fn, *args):
        try:
            return fn(*args)
        except Exception:
            logger.error("persisting failed")

    def rename(self, tmp, dst):
        with open(tmp, "w") as f:
            f.write("x")
        self._retry(os.replace, tmp, dst)

    def reraised(self, run):
        try:
            self._retry(self.store.save, run)
        except Exception:
            pass

    def suppressed(self, run):
        try:
            self._quiet(self.store.save, run)
        except Exception:
            pass

    def logged(self, run):
        self._logged(self.store.save, run)
        self.ledger.append_terminal(run, "COMPLETED")
"""


def test_a_helper_that_reraises_lets_the_failure_out_and_one_that_reports_keeps_the_event():
    # (a second and a third review): the retry helper re-raises, so the rename is one and
    # the save's failure reaches the caller's silent handler; a helper that logs every
    # failure raises none, and what the callable does on return still counts. One that
    # wraps the call in `suppress(Exception)` is not read as stopping every failure (a
    # `suppress` lets what is no `Exception` through): its caller's OC203 stands
    assert cl(HELPERS, select=["OC101", "OC203", "OC301"], table=TABLE) == [
        ("OC101", 46), ("OC203", 34), ("OC203", 40), ("OC301", 30)]
