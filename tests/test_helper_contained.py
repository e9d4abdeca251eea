"""A project helper matched by its own name whose body stops every failure outside its
``except`` clauses (``Effects.contained``) raises into its caller's handler only what
its handlers' own events let escape (docs/decisions.md, "A helper's name and its
escaping failures"). Found on agno 3.1.10 by a triage of held-out packages: its
``save_run`` matches the default ``*.save_run`` and catches its real save's failure
inside, and every caller with a silent handler was an OC203."""
from __future__ import annotations

import pytest
from cliutil import oc, write

CONFIG = '[extend-events]\nsave = ["*.save_job"]\n'

REPO = """\
    import logging

    logger = logging.getLogger(__name__)


    class Repo:
        def __init__(self, session, ledger):
            self.session = session
            self._ledger = ledger

        def save_job(self, job):
            try:
                self.session.add(job)
                self.session.commit()
            except Exception:
                {handler}
    """

WORKER = """\
    from .repo import Repo


    def finish(repo: Repo, job):
        try:
            repo.save_job(job)
        except Exception:
            pass
    """


def _project(root, handler):
    write(root, "ordercheck.toml", CONFIG)
    write(root, "jobs/__init__.py", "")
    write(root, "jobs/repo.py", REPO.format(handler=handler))
    write(root, "jobs/worker.py", WORKER)
    return root


@pytest.mark.parametrize("handler,expected", [
    ('logger.warning("could not save %s", job.id)', []),
    ("pass", []),
    ("raise", [("jobs/worker.py", 6, "OC203")]),
    ('raise RuntimeError("save failed")', [("jobs/worker.py", 6, "OC203")]),
    # the handler's own append can fail out: it still raises, the save does not
    ('self._ledger.append_event({"event": "save-lost", "job": job.id})', [("jobs/worker.py", 6, "OC202")]),
])
def test_what_a_contained_helper_raises_into_its_caller(tmp_path, handler, expected):
    _project(tmp_path, handler)
    assert oc(tmp_path, "--no-cache", "jobs").codes() == expected


@pytest.mark.parametrize("handler", ['logger.warning("could not save %s", job.id)', "raise"])
def test_a_warm_run_and_one_file_agree_with_the_cold_run(tmp_path, handler):
    """The mark travels through the summary cache: a warm run, a run of the caller's
    file alone and a run after an edit of the helper give the cold run's findings."""
    _project(tmp_path, handler)
    cold = oc(tmp_path, "--no-cache", "jobs").codes()
    cache = tmp_path / "cache"
    assert oc(tmp_path, "--cache-dir", cache, "jobs").codes() == cold
    assert oc(tmp_path, "--cache-dir", cache, "jobs").codes() == cold
    assert oc(tmp_path, "--cache-dir", cache, "jobs/worker.py").codes() == cold
    other = "raise" if handler != "raise" else 'logger.warning("could not save %s", job.id)'
    write(tmp_path, "jobs/repo.py", REPO.format(handler=other))
    assert oc(tmp_path, "--cache-dir", cache, "jobs").codes() == oc(tmp_path, "--no-cache", "jobs").codes()
    assert oc(tmp_path, "--cache-dir", cache, "jobs").codes() != cold


@pytest.mark.parametrize("body", ["pass", "...", '"""Saves the job."""', "return job"])
def test_a_stub_shows_nothing_stopped_and_stays_its_name(tmp_path, body):
    """A body with nothing that can fail (a stub, a placeholder) stops nothing: the
    call matched by its name can still fail into the caller's handler."""
    write(tmp_path, "ordercheck.toml", CONFIG)
    write(tmp_path, "jobs/__init__.py", "")
    write(tmp_path, "jobs/repo.py", f"class Repo:\n    def save_job(self, job):\n        {body}\n")
    write(tmp_path, "jobs/worker.py", WORKER)
    assert oc(tmp_path, "--no-cache", "jobs").codes() == [("jobs/worker.py", 6, "OC203")]
