"""Two defaults from held-out set 45 (langflow-base): structlog's async methods are
logger levels (``await logger.aerror(...)`` is loud, ``await logger.adebug(..., e)``
quiet), and a function's own fresh dict named ``metrics`` is no counter
(``metrics.get("chunks", 0)`` matched ``*metrics.*``)."""
from __future__ import annotations

import pytest
from checkutil import cl

HANDLER = """
    import structlog

    logger = structlog.get_logger()


    async def finish(jobs, job_id):
        try:
            await jobs.ledger.append_event(job_id, "run_failed")
        except Exception as exc:
            {body}
"""


@pytest.mark.parametrize("call", ["awarning", "awarn", "aerror", "aexception", "acritical"])
def test_structlogs_async_levels_from_warning_up_are_loud(call):
    assert cl(HANDLER.format(body=f"await logger.{call}('could not record %s', job_id)"), ["OC201"]) == []


@pytest.mark.parametrize("call", ["adebug", "ainfo"])
def test_structlogs_async_levels_below_warning_are_quiet(call):
    # the exception handed only to a quiet call is still lost
    assert cl(HANDLER.format(body=f"await logger.{call}('lost: %s', exc)"), ["OC201"]) == [("OC201", 9)]


def test_a_fresh_dict_named_metrics_is_no_counter():
    src = """
        def sync(svc, rec):
            metrics = {}
            try:
                svc.store.save(rec)
            except Exception:
                return metrics.get("chunks", 0)


        def counted(svc, rec, metrics):
            try:
                svc.store.save(rec)
            except Exception:
                metrics.incr("lost_saves")
    """
    assert cl(src, ["OC203"]) == [("OC203", 5)]
