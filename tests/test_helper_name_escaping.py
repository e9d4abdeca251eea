"""A project helper whose name also matches an event pattern: its body is known, so only
its escaping failures raise into the caller's handler (semantics §Events Summaries: "a
helper that catches and reports its own append failures cannot fail an append into its
caller's handler"), and a project context manager's own code decides whether it
swallows, whatever its name (docs/decisions.md, "A helper's name and its escaping
failures")."""
from __future__ import annotations

import pytest
from cliutil import oc, write


def _tree(root, files):
    for rel, text in files.items():
        write(root, rel, text)
    return root


HELPER = """\
    import logging

    logger = logging.getLogger(__name__)


    class Runtime:
        def {name}(self, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                {handler}

        def step(self, rec):
            try:
                self.{name}(rec)
            except Exception:
                pass
    """


@pytest.mark.parametrize("name", ["_note", "append_event"])
def test_a_helper_that_reports_its_own_append_failure_raises_nothing(tmp_path, name):
    """``append_event`` matches the default ``append`` vocabulary by its name; so does
    its body's ``self._ledger.append``, whose failure it catches and logs."""
    root = _tree(tmp_path, {"ordercheck.toml": "", "jobs/__init__.py": "",
                            "jobs/rt.py": HELPER.format(name=name, handler='logger.warning("lost", exc_info=True)')})
    assert oc(root, "--no-cache", "jobs").codes() == []


@pytest.mark.parametrize("name", ["_note", "append_event"])
def test_a_helper_that_lets_its_append_failure_escape_raises_it(tmp_path, name):
    root = _tree(tmp_path, {"ordercheck.toml": "", "jobs/__init__.py": "",
                            "jobs/rt.py": HELPER.format(name=name, handler="raise")})
    assert oc(root, "--no-cache", "jobs").codes() == [("jobs/rt.py", 15, "OC202")]


def test_a_helper_whose_body_shows_no_event_and_stops_every_failure_raises_nothing(tmp_path):
    """Nothing in the body explains the class the name gives, but nothing can fail out
    of it either (``Effects.contained``): its name's append cannot fail into the
    caller's handler. Until session 23 this was a known limit (it did)."""
    root = _tree(tmp_path, {"ordercheck.toml": "", "jobs/__init__.py": "",
                            "jobs/rt.py": HELPER.format(name="append_event", handler="pass").replace(
                                "self._ledger.append(rec)", "self._buffer.put(rec)")})
    assert oc(root, "--no-cache", "jobs").codes() == []


@pytest.mark.parametrize("body", [
    "self._buffer.put(rec)\n            try:\n                pass",  # a call before the try
    "if rec is None:\n                raise ValueError(rec)\n            try:\n                pass",  # a raise of its own
])
def test_a_helper_whose_body_shows_no_event_but_can_fail_is_its_name(tmp_path, body):
    """A body that can fail out (a call outside the try, a ``raise`` of its own): the
    call stays an append that can fail into the caller's handler, as any matched call."""
    text = HELPER.format(name="append_event", handler="pass").replace(
        "try:\n                self._ledger.append(rec)", body)
    assert body.split("\n")[0].strip() in text
    root = _tree(tmp_path, {"ordercheck.toml": "", "jobs/__init__.py": "", "jobs/rt.py": text})
    (line,) = [i for i, t in enumerate(text.splitlines(), 1) if "self.append_event(rec)" in t]
    assert oc(root, "--no-cache", "jobs").codes() == [("jobs/rt.py", line, "OC202")]


STORE = """\
    import logging

    logger = logging.getLogger(__name__)


    class Repo:
        def __init__(self, session):
            self.session = session

        def save_job(self, job):
            try:
                self.session.commit()
            except Exception:
                {handler}
    """
TICK = """\
    from .repo import Repo


    def tick(repo: Repo, job):
        try:
            repo.save_job(job)
        except Exception:
            pass
    """


@pytest.mark.parametrize("handler,expected", [
    ('logger.error("commit failed for %s", job.id)', []),
    ("raise", [("jobs/tick.py", 6, "OC203")]),
])
@pytest.mark.parametrize("target", ["jobs", "jobs/tick.py"])
def test_a_typed_receiver_across_files(tmp_path, handler, expected, target):
    root = _tree(tmp_path, {"ordercheck.toml": '[events]\nsave = ["*.save_job", "*session.commit"]\n',
                            "jobs/__init__.py": "", "jobs/repo.py": STORE.format(handler=handler),
                            "jobs/tick.py": TICK})
    assert oc(root, "--no-cache", target).codes() == expected


MANAGER = """\
    import logging
    from contextlib import contextmanager

    logger = logging.getLogger(__name__)


    @contextmanager
    def best_effort():
        try:
            yield
        except Exception:
            logger.debug("failed")
            {end}


    def tick(store, job):
        with best_effort():
            store.save_job(job)
    """


@pytest.mark.parametrize("end,expected", [("raise", []), ("pass", [("jobs/u.py", 18, "OC203")])])
def test_a_project_manager_named_like_a_suppressor_is_judged_by_its_code(tmp_path, end, expected):
    root = _tree(tmp_path, {"ordercheck.toml": '[events]\nsave = ["*.save_job"]\n', "jobs/__init__.py": "",
                            "jobs/u.py": MANAGER.format(end=end)})
    assert oc(root, "--no-cache", "jobs").codes() == expected


def test_an_outside_suppressor_still_swallows_everything(tmp_path):
    root = _tree(tmp_path, {"ordercheck.toml": '[events]\nsave = ["*.save_job"]\n', "jobs/__init__.py": "",
                            "jobs/u.py": """\
        from helpers import best_effort


        def tick(store, job):
            with best_effort():
                store.save_job(job)
        """})
    assert oc(root, "--no-cache", "jobs").codes() == [("jobs/u.py", 6, "OC203")]
