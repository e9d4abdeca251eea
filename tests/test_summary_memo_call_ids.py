"""A remembered summary's origins are call ids of its function, and a file read again
with other functions whole numbers its calls anew (the outline pre-pass reads only the
functions a run needs; ``frontend.extract``'s units). The summary memo keys on those ids,
so a warm run never names another call as a finding's origin (a differential fuzz,
session 45: after ``store.py`` began to call ``note``, ``helpers.py`` was read with
``note`` whole too, and the cached ``record`` summary pointed its terminal append at the
``Record(...)`` call beside it)."""
from __future__ import annotations

import json

from cliutil import oc, write

HELPERS = """\
    import logging

    logger = logging.getLogger(__name__)


    def note(store, ledger, run):
        logger.warning("lost %s", run.id)


    def record(store, ledger, run):
        ledger.append_terminal(Record(run.id, "run_failed"))
    """

RUNTIME = """\
    from .helpers import record
    from .store import RunStore


    class Runtime:
        def __init__(self, store: RunStore, ledger):
            self.store = store
            self.ledger = ledger

        def m0(self, run):
            self.ledger.append_terminal(Record(run.id, Status.COMPLETED))
            record(self.store, self.ledger, run)

        def m1(self, run):
            try:
                self.store.commit(run)
            except Exception:
                self.store.save(run)
    """

STORE_A = "class RunStore:\n    def commit(self, run):\n        self._dirty = False\n"
STORE_B = "from .helpers import note\n\n\nclass RunStore:\n    def commit(self, run):\n        note(self, self._ledger, run)\n"


def _vias(run) -> list:
    got = json.loads(run.out)
    return [(f["path"], d["code"], w["via"]) for f in got["files"] for d in f["diagnostics"]
            for w in d["data"]["witness"] if w.get("via")]


def test_a_warm_run_names_the_origin_a_cold_run_does(tmp_path):
    write(tmp_path, "ordercheck.toml", "")
    write(tmp_path, "app/__init__.py", "")
    write(tmp_path, "app/helpers.py", HELPERS)
    write(tmp_path, "app/runtime.py", RUNTIME)
    write(tmp_path, "app/store.py", STORE_A)
    oc(tmp_path, "--format", "json", ".")  # the cache of the first state
    write(tmp_path, "app/store.py", STORE_B)
    cold = _vias(oc(tmp_path, "--format", "json", "--no-cache", "."))
    assert cold and all("ledger.append_terminal(" in via for _, _, via in cold), cold
    assert _vias(oc(tmp_path, "--format", "json", ".")) == cold
    assert _vias(oc(tmp_path, "--format", "json", "app/runtime.py")) == cold
