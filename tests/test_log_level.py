"""A log call with a constant level is, for matching, the logger method of that level
(docs/decisions.md "A log call with a constant level"): ``logger.log(logging.ERROR,
...)`` makes a failure loud as ``logger.error(...)`` does, and ``logger.log(
logging.DEBUG, "lost %s", e)`` is a ``quiet`` call as ``logger.debug`` is. A level the
code computes (a parameter) is no level: the call matches as written, as before."""
from __future__ import annotations

import pytest
from checkutil import cl

HANDLER = """\
    import logging
    from logging import ERROR, WARNING, log

    logger = logging.getLogger(__name__)


    def f(run, ledger, level):
        try:
            ledger.append_terminal(run)
        except Exception as exc:
            {body}
    """

LOUD = [
    "logger.log(logging.ERROR, 'append failed')",
    "logger.log(ERROR, 'append failed')",
    "logger.log(WARNING, 'append failed')",
    "logger.log(logging.CRITICAL, 'append failed')",
    "logger.log(40, 'append failed')",
    "logger.log(45, 'append failed')",  # above ERROR, as logging ranks it
    "logger.log('ERROR', 'append failed')",  # loguru names its levels
    "logger.log(level=logging.ERROR, msg='append failed')",
    "logging.log(logging.WARNING, 'append failed')",
    "log(WARNING, 'append failed')",  # `from logging import log`: `logging.log`
    "logger.bind(run=run.id).log('ERROR', 'append failed')",
]

SILENT = [
    "logger.log(logging.DEBUG, 'append failed')",
    "logger.log(logging.INFO, 'append failed: %s', exc)",  # handed on to a quiet call only
    "logger.log(20, 'append failed: %s', str(exc))",
    "logger.log(25, 'append failed: %s', exc)",
    "logger.log(level, 'append failed')",  # a level the code computes says nothing
]


@pytest.mark.parametrize("body", LOUD)
def test_a_constant_level_from_warning_up_is_loud(body):
    assert cl(HANDLER.format(body=body), select=["OC201"]) == []


@pytest.mark.parametrize("body", SILENT)
def test_below_warning_or_unknown_is_silent(body):
    assert cl(HANDLER.format(body=body), select=["OC201"]) == [("OC201", 9)]


def test_a_computed_level_that_gets_the_exception_hands_it_on():
    body = "logger.log(level, 'append failed: %s', exc)"
    assert cl(HANDLER.format(body=body), select=["OC201"]) == []


def test_a_configured_surface_pattern_matches_through_the_level():
    """A team's own logger: ``audit.error`` configured as surface covers
    ``audit.log(logging.ERROR, ...)`` too."""
    src = HANDLER.replace("logger = logging.getLogger(__name__)", "audit = make_audit()").format(
        body="audit.log(logging.ERROR, 'append failed')")
    assert cl(src, select=["OC201"]) == [("OC201", 9)]
    assert cl(src, select=["OC201"], table={"extend-events": {"surface": ["audit.error"]}}) == []


def test_the_level_maps_the_names_a_receiver_type_adds(tmp_path):
    """``rl.log(logging.ERROR, ...)`` for ``rl`` of a subclass of ``logging.Logger``,
    and ``self.log.log(40, ...)`` typed by a base in another file, match
    ``logging.Logger.error`` as ``rl.error(...)`` does (names the project phase adds
    are mapped by the level too)."""
    from checkutil import run_tree, write_tree

    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/m.py": """\
            import logging


            class RunLogger(logging.Logger):
                pass


            def f(run, ledger, rl: RunLogger):
                try:
                    ledger.append(run.id, "x")
                except Exception:
                    rl.log(logging.ERROR, "append failed")


            def g(run, ledger, rl: RunLogger):
                try:
                    ledger.append(run.id, "x")
                except Exception as exc:
                    rl.log(logging.DEBUG, "append failed: %s", exc)
            """,
        "pkg/base.py": """\
            import logging


            class Service:
                def __init__(self, log: logging.Logger):
                    self.log = log
            """,
        "pkg/worker.py": """\
            from .base import Service


            class Worker(Service):
                def go(self, run, ledger):
                    try:
                        ledger.append(run.id, "x")
                    except Exception:
                        self.log.log(40, "append failed")
            """,
    })
    table = {"events": {"surface": ["logging.Logger.error"], "quiet": ["logging.Logger.debug"]}}
    assert run_tree(tmp_path, select=["OC202"], table=table) == [("pkg/m.py", 17, "OC202")]
