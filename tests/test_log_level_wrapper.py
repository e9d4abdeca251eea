"""A project wrapper that hands its first parameter on as a ``log`` call's level logs
at the level its caller gives (docs/decisions.md "A logging wrapper's level", session
44): ``self.log(ERROR, "...", exc_info=True)`` with ``def log(self, level, msg, ...):
logger.log(level, ...)`` is as loud as ``logger.log(ERROR, ...)``, and ``self.log(DEBUG,
"lost %s", e)`` as quiet as ``logger.log(DEBUG, ...)`` (held-out set 38:
django-tasks-scheduler's worker, whose handlers log through such a wrapper, gave a
false OC201 and OC203)."""
from __future__ import annotations

import pytest
from checkutil import cl, run_tree, write_tree
from cliutil import oc, write

WORKER = """
import logging
from logging import DEBUG, ERROR

logger = logging.getLogger(__name__)


class Worker:
    def log(self, level, message, *args, **kwargs):
        logger.log(level, f"[worker] {{message}}", *args, **kwargs)

    @staticmethod
    def slog(level, message):
        logging.log(level, message)

    def fixed(self, level, message):
        logger.log(logging.DEBUG, message)

    def work(self, ledger, run):
        try:
            ledger.append_terminal(run)
        except Exception as exc:
            {body}
"""


@pytest.mark.parametrize("body", [
    "self.log(ERROR, 'unhandled exception, quitting', exc_info=True)",
    "self.log(logging.WARNING, 'append failed')",
    "self.log(level=logging.ERROR, message='append failed')",
    "Worker.slog(logging.ERROR, 'append failed')",
])
def test_a_wrapper_given_a_loud_level_is_loud(body):
    assert cl(WORKER.format(body=body), ["OC201"]) == []


@pytest.mark.parametrize("body", [
    "self.log(DEBUG, 'append failed: %s', exc)",
    "self.log(logging.INFO, f'append failed: {{exc}}')",
    "self.fixed(ERROR, str(exc))",
])
def test_a_wrapper_given_a_quiet_level_hands_the_exception_nowhere(body):
    assert cl(WORKER.format(body=body), ["OC201"]) == [("OC201", 21)]


def test_a_level_the_caller_computes_is_no_level():
    body = "self.log(self.level, 'append failed: %s', exc)"  # handed on to a call that is not quiet
    assert cl(WORKER.format(body=body), ["OC201"]) == []
    body = "self.log(self.level, 'append failed')"  # handed nothing, and nothing surfaced
    assert cl(WORKER.format(body=body), ["OC201"]) == [("OC201", 21)]


LOGS = """
    import logging

    LOG = logging.getLogger("jobs")


    def emit(level, message, *args):
        LOG.log(level, message, *args)
"""

JOBS = """
    import logging

    from .logs import emit


    def finish(ledger, run):
        try:
            ledger.append_terminal(run)
        except Exception:
            emit(logging.ERROR, "could not record the end of %s", run)


    def lose(ledger, run):
        try:
            ledger.append_terminal(run)
        except Exception as exc:
            emit(logging.DEBUG, "could not record the end of %s: %s", run, exc)
"""


def test_across_files_and_in_every_way_of_running(tmp_path):
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/logs.py": LOGS, "pkg/jobs.py": JOBS})
    assert run_tree(tmp_path, select=["OC201"]) == [("pkg/jobs.py", 16, "OC201")]
    write(tmp_path, "ordercheck.toml", "")
    assert oc(tmp_path, "--no-cache", "pkg/jobs.py").codes() == [("pkg/jobs.py", 16, "OC201")]
    assert oc(tmp_path, "pkg").codes() == [("pkg/jobs.py", 16, "OC201")]
    assert oc(tmp_path, "pkg/jobs.py").codes() == [("pkg/jobs.py", 16, "OC201")]  # warm
    # the wrapper stops handing its level on: both handlers log through a call that is
    # no logger method (the first is silent; the second hands the exception on)
    write(tmp_path, "pkg/logs.py", LOGS.replace("LOG.log(level,", "LOG.log(logging.DEBUG if level else 0,"))
    assert oc(tmp_path, "pkg/jobs.py").codes() == [("pkg/jobs.py", 9, "OC201")]
