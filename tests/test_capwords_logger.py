"""A logger kept in a CapWords name (django-silk's `Logger = logging.getLogger(...)`,
held-out set 137) is a logger: its warnings and errors make a handler loud, its debug
and info leave it silent (rules/vocab/surface.toml, quiet.toml)."""
import pytest
from checkutil import cl

SRC = """\
import logging

Logger = logging.getLogger(__name__)


def persist(store, run):
    try:
        store.save(run)
    except Exception:
        Logger.{level}("could not save %s", run.id)
"""


@pytest.mark.parametrize("level", ["warning", "error", "exception", "critical"])
def test_a_capwords_loggers_warning_makes_the_handler_loud(level):
    assert cl(SRC.format(level=level)) == []


@pytest.mark.parametrize("level", ["debug", "info"])
def test_a_capwords_loggers_info_leaves_the_save_lost(level):
    assert cl(SRC.format(level=level)) == [("OC203", 8)]
