import logging
import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# the cache's secret (ordercheck.cache.secret) is kept under the user's cache home:
# the tests' own, never the developer's, and none handed in from outside
os.environ["XDG_CACHE_HOME"] = str(Path(tempfile.gettempdir()) / "ordercheck-tests-cache-home")
os.environ.pop("ORDERCHECK_CACHE_SECRET", None)


class _Failures(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def _engine_never_fails(request):
    """An exception inside the engine is an OC901 finding, and the run goes on
    (rules/OC901.toml). Tests must still see it as the failure it is: any function
    the engine failed on during a test (in this process) fails that test, unless it
    is marked ``internal_errors`` (it made the engine fail on purpose)."""
    if request.node.get_closest_marker("internal_errors"):
        yield
        return
    log = logging.getLogger("ordercheck")
    handler, level = _Failures(), log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
    if handler.records:
        first = handler.records[0]
        text = logging.Formatter().format(first)
        pytest.fail(f"the engine failed on {len(handler.records)} function(s) (OC901):\n{text}", pytrace=False)
