"""A logging handler's `emit()` that hands its failure to `self.handleError(record)`
is loud: the stdlib's `logging.Handler.handleError` prints the traceback to standard
error (held-out set 147, django-error-monitor; rules/vocab/surface.toml)."""
from checkutil import cl

SRC = """\
import logging


class DbHandler(logging.Handler):
    def emit(self, record):
        try:
            self.store.save(record)
        except Exception:
            {handled}
"""


def test_a_handlers_handle_error_makes_the_failure_loud():
    assert cl(SRC.format(handled="self.handleError(record)")) == []
    assert cl(SRC.format(handled="super().handleError(record)")) == []


def test_a_handler_that_drops_the_failure_is_still_silent():
    assert cl(SRC.format(handled="self.dropped = record")) == [("OC203", 7)]
