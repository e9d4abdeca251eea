"""``except T as e`` makes ``e`` an instance of ``T`` for receiver types (docs/decisions.md
"Receiver types", a caught exception): ``e.log()`` runs ``T.log``, and its summary says
what the handler does. Held-out set 49: rss2email's ``except RSS2EmailError as e:
e.log()`` logs at error level through the exception's own method, and the handler
read as silent (an OC202)."""
from __future__ import annotations

import pytest
from cliutil import oc, write

CONFIG = 'swallow-types = ["*FeedError"]\n[extend-events]\nappend = ["feed.run"]\n'

ERRORS = """\
    import logging

    _LOG = logging.getLogger(__name__)


    class FeedError(Exception):
        def log(self):
            _LOG.{level}(str(self))


    class OtherError(Exception):
        def log(self):
            pass
    """

RUN = """\
    from .errors import FeedError, OtherError


    def run(feed, send):
        try:
            feed.run(send=send)
        except {clause} as e:
            e.log()
    """


@pytest.mark.parametrize("level, clause, found", [
    ("error", "FeedError", False),  # the method logs at error level: loud
    ("debug", "FeedError", True),  # at debug level: quiet, the append is lost
    ("error", "(FeedError, OtherError)", True),  # a tuple names no one class
])
@pytest.mark.parametrize("args", [("--no-cache", "pkg"), ("--no-cache", "pkg/run.py"), ("pkg/run.py",)])
def test_a_caught_exception_runs_its_own_method(tmp_path, level, clause, found, args):
    write(tmp_path, "ordercheck.toml", CONFIG)
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/errors.py", ERRORS.format(level=level))
    write(tmp_path, "pkg/run.py", RUN.format(clause=clause))
    assert oc(tmp_path, *args).codes() == ([("pkg/run.py", 6, "OC202")] if found else [])


def test_an_edit_of_the_exception_class_reaches_a_warm_run(tmp_path):
    write(tmp_path, "ordercheck.toml", CONFIG)
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/errors.py", ERRORS.format(level="error"))
    write(tmp_path, "pkg/run.py", RUN.format(clause="FeedError"))
    assert oc(tmp_path, "pkg").codes() == []
    write(tmp_path, "pkg/errors.py", ERRORS.format(level="debug"))
    assert oc(tmp_path, "pkg/run.py").codes() == [("pkg/run.py", 6, "OC202")]


@pytest.mark.parametrize("second, found", [
    ("except OtherError as e:\n            e.log()", True),  # two classes: no type, the first handler is silent
    ("except FeedError as e:\n            e.log()", False),  # the same class twice: still typed
])
def test_two_clauses_binding_one_name(tmp_path, second, found):
    write(tmp_path, "ordercheck.toml", CONFIG)
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/errors.py", ERRORS.format(level="error"))
    write(tmp_path, "pkg/run.py", RUN.format(clause="FeedError").rstrip(" ") + (
        "        try:\n            feed.run(send=send)\n        " + second + "\n"))
    assert oc(tmp_path, "--no-cache", "pkg").codes() == ([("pkg/run.py", 6, "OC202")] if found else [])


def test_a_later_binding_of_the_name_keeps_its_own_type(tmp_path):
    """(A review.) `except Exception as error:` then `error = FailureRecord(...)`: the
    handler's class does not join the constructor's, so `error.persist()` still runs
    `FailureRecord.persist` and its save."""
    write(tmp_path, "ordercheck.toml", "")
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/run.py", """\
        class FailureRecord:
            def __init__(self, run):
                self.run = run

            def persist(self, store):
                store.save(self.run)


        def finish(store, ledger, run):
            try:
                run.step()
            except Exception as error:
                run.note(error)
            error = FailureRecord(run)
            error.persist(store)
            ledger.append_terminal(run, "failed")
        """)
    assert oc(tmp_path, "--no-cache", "pkg").codes() == [("pkg/run.py", 16, "OC101")]


@pytest.mark.parametrize("old, new, found", [
    # a reassigned name is no longer the caught exception: no type, the handler is silent
    ("e.log()", "e = make_error()\n        e.log()", True),
    # (a second review) `del e` binds no value: the type stays
    ("e.log()", "e.log()\n        del e", False),
    # (a second review) `except*` binds an exception group, no `FeedError`
    ("except FeedError", "except* FeedError", True),
])
def test_what_else_binds_the_caught_name(tmp_path, old, new, found):
    write(tmp_path, "ordercheck.toml", CONFIG)
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/errors.py", ERRORS.format(level="error"))
    write(tmp_path, "pkg/run.py", RUN.format(clause="FeedError").replace(old, new))
    assert oc(tmp_path, "--no-cache", "pkg").codes() == ([("pkg/run.py", 6, "OC202")] if found else [])
