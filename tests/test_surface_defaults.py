"""Default `surface` patterns for error trackers and bound loggers (session 24;
rules/vocab/surface.toml): a handler that reports to Sentry with no argument, or logs
at warning or above through a structlog/loguru chain, is loud; the same at debug is
still silent."""
from __future__ import annotations

import pytest
from checkutil import cl

HANDLER = """
import sentry_sdk
import structlog
from loguru import logger as loguru_logger
from sentry_sdk import capture_exception

logger = structlog.get_logger()


def finish(store, ledger, run):
    store.save(run)
    try:
        ledger.append_terminal(run)
    except Exception:
        {report}
"""


@pytest.mark.parametrize("report", [
    "sentry_sdk.capture_exception()",
    "capture_exception()",
    'sentry_sdk.capture_message("terminal record lost")',
    'logger.bind(run_id=run.id).error("terminal record lost")',
    'logger.bind(run_id=run.id).warning("terminal record lost")',
    'loguru_logger.opt(exception=True).error("terminal record lost")',
])
def test_a_report_makes_the_handler_loud(report):
    assert cl(HANDLER.format(report=report), select=["OC201"]) == []


@pytest.mark.parametrize("report", [
    'logger.bind(run_id=run.id).debug("terminal record lost")',
    'loguru_logger.opt(exception=True).info("terminal record lost")',
    "pass",
])
def test_below_warning_it_stays_silent(report):
    assert cl(HANDLER.format(report=report), select=["OC201"]) == [("OC201", 13)]


def test_a_bound_debug_log_of_the_exception_does_not_hand_it_on():
    """`quiet` holds the chains below warning: the exception passed to them reaches
    no one (semantics §Contracts, handing the exception on)."""
    src = HANDLER.replace("    except Exception:\n", "    except Exception as e:\n")
    for report in ('logger.bind(run_id=run.id).debug("lost: %s", e)', 'loguru_logger.opt(exception=e).info("lost")'):
        assert cl(src.format(report=report), select=["OC201"]) == [("OC201", 13)]
    assert cl(src.format(report='logger.bind(run_id=run.id).warn("lost: %s", e)'), select=["OC201"]) == []
    assert cl(src.format(report="capture(e)").replace("from sentry_sdk import capture_exception",
                                                      "from sentry_sdk.api import capture_exception as capture"),
              select=["OC201"]) == []


@pytest.mark.parametrize("report, found", [
    ('print("terminal record lost", file=sys.stderr)', []),
    ('print("terminal record lost", file=stderr)', []),
    ('print("terminal record lost", run.id, sep=": ", file=sys.stderr, flush=True)', []),
    ('print("terminal record lost")', [("OC201", 15)]),
    ('print("terminal record lost", file=sys.stdout)', [("OC201", 15)]),
    ('print("terminal record lost", file=out)', [("OC201", 15)]),
])
def test_a_print_to_standard_error_is_loud(report, found):
    """(Held-out set 62) ``print(..., file=sys.stderr)`` writes where
    ``sys.stderr.write`` does, a default surface (docs/decisions.md "A print to
    standard error"); a print anywhere else is not."""
    src = "import sys\nfrom sys import stderr\n" + HANDLER
    assert cl(src.format(report=report), select=["OC201"]) == found


def test_a_local_print_is_not_the_builtin():
    src = "import sys\n" + HANDLER.replace("def finish(store, ledger, run):",
                                           "def finish(store, ledger, run, print):")
    assert cl(src.format(report='print("lost", file=sys.stderr)'), select=["OC201"]) == [("OC201", 14)]


def test_only_the_builtin_print_is_a_write_to_standard_error():
    # (a review, session 48) `builtins.print` is it; a module's own `def print`, or an
    # imported `print`, is another function
    builtin = "import builtins\nimport sys\n" + HANDLER
    assert cl(builtin.format(report='builtins.print("lost", file=sys.stderr)'), select=["OC201"]) == []
    own = "import sys\n\ndef print(*args, **kwargs):\n    pass\n" + HANDLER
    assert cl(own.format(report='print("lost", file=sys.stderr)'), select=["OC201"]) == [("OC201", 17)]
    rich = "import sys\nfrom rich import print\n" + HANDLER
    assert cl(rich.format(report='print("lost", file=sys.stderr)'), select=["OC201"]) == [("OC201", 15)]
