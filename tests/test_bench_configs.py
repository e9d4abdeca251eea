"""The worked-example configs of bench/configs (docs/evaluation.md: the six packages of the
contract v2 triage, the three job queues of session 14, and the held-out set of session 20).

They are read by bench/realworld.py against real packages, which the test suite does not
download; here each one is checked to load, and the mapping decisions the evaluation
relies on are checked on small stand-ins for the code they were written for.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cliutil import oc, write

CONFIGS = Path(__file__).resolve().parent.parent / "bench" / "configs"
NAMES = ["apache-airflow-core", "arq", "celery", "dagster", "dbos", "django-q2", "dramatiq", "huey",
         "langgraph-checkpoint", "luigi", "prefect", "rq", "temporalio"]


def project(tmp_path: Path, name: str, files: dict) -> Path:
    """A project whose ordercheck.toml is bench/configs/NAME.toml."""
    root = tmp_path / "proj"
    root.mkdir()
    shutil.copy(CONFIGS / f"{name}.toml", root / "ordercheck.toml")
    for rel, text in files.items():
        write(root, rel, text)
    return root


def test_every_bench_config_is_listed():
    assert sorted(p.stem for p in CONFIGS.glob("*.toml")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_bench_config_loads(tmp_path, name):
    root = project(tmp_path, name, {"a.py": "x = 1\n"})
    r = oc(root, "a.py")
    assert r.code == 0, r
    assert "error" not in r.err.lower(), r


def test_dagster_in_memory_preload_is_not_a_save(tmp_path):
    # the in-memory storages preload an ephemeral instance through their own
    # self.add_run(); the config names the run storage by its receiver instead
    root = project(tmp_path, "dagster", {"storage.py": """\
        class InMemoryRunStorage:
            def __init__(self, preload, log):
                for run in preload:
                    self.add_run(run)
                    log.log_dagster_event(run)


        def import_run(instance, run, event):
            instance.add_run(run)
            instance.store_event(event)


        def store(self, run, event):
            self._run_storage_impl.add_run(run)
            self._event_storage_impl.store_event(event)
        """})
    r = oc(root, "storage.py")
    assert r.line_codes() == [(10, "OC102"), (15, "OC102")], r


def test_dagster_terminal_markers_are_the_run_statuses(tmp_path):
    root = project(tmp_path, "dagster", {"events.py": """\
        def report(instance, run, context):
            instance.add_run_tags(run.run_id, {})
            instance.report_engine_event("x", run, DagsterEventType.RUN_FAILURE)


        def hook(instance, run, context):
            instance.add_run_tags(run.run_id, {})
            context.log.log_dagster_event(DagsterEventType.HOOK_COMPLETED)
        """})
    r = oc(root, "events.py")
    assert r.line_codes() == [(3, "OC101"), (8, "OC102")], r


def test_prefect_server_model_setter_is_not_a_commit(tmp_path):
    root = project(tmp_path, "prefect", {"api.py": """\
        async def create(session, client, flow_run, events_client, event):
            await models.flow_runs.set_flow_run_state(session, flow_run)
            await events_client.emit(event)


        async def propose(client, flow_run, events_client, event):
            await client.set_flow_run_state(flow_run.id, flow_run.state)
            await events_client.emit(event)
        """})
    r = oc(root, "api.py")
    assert r.line_codes() == [(8, "OC102")], r


def test_temporalio_command_buffer_is_not_a_ledger(tmp_path):
    root = project(tmp_path, "temporalio", {"wf.py": """\
        def activate(self, job):
            try:
                self._add_command()
            except Exception:
                return


        def signal_all(handles):
            for h in handles:
                try:
                    h.signal_workflow("go")
                except Exception:
                    pass
        """})
    r = oc(root, "wf.py")
    assert r.line_codes() == [(11, "OC202")], r


def test_celery_alias_loggers_are_loud(tmp_path):
    # no `surface` list in the config: the module-level aliases are followed
    root = project(tmp_path, "celery", {"request.py": """\
        logger = get_logger(__name__)
        debug, info, warn, error = (logger.debug, logger.info,
                                    logger.warning, logger.error)


        def on_failure(self, exc):
            try:
                self.send_event("task-failed")
            except Exception:
                error("could not send: %r", exc)


        def on_retry(self, exc):
            try:
                self.send_event("task-retried")
            except Exception:
                debug("could not send")
        """})
    r = oc(root, "request.py")
    assert r.line_codes() == [(15, "OC202")], r


def test_dramatiq_nack_before_the_stored_failure(tmp_path):
    # worker.py's post_process_message: the message is dead-lettered (a save) before
    # the `nack` hook, whose Results middleware stores the exception (terminal)
    root = project(tmp_path, "dramatiq", {"worker.py": """\
        class _WorkerThread:
            def post_process_message(self, message):
                if message.failed:
                    self.consumer.nack(message)
                    self.broker.emit_after("nack", message)
                else:
                    self.broker.emit_after("process_message", message)
                    self.consumer.ack(message)
        """})
    r = oc(root, "worker.py")
    assert r.line_codes() == [(5, "OC101")], r


def test_arq_pipeline_is_one_transaction(tmp_path):
    # finish_job: the result and the queue's removal commit in one MULTI/EXEC
    root = project(tmp_path, "arq", {"worker.py": """\
        async def finish_job(self, job_id, result_data):
            async with self.pool.pipeline(transaction=True) as tr:
                tr.zrem(self.queue_name, job_id)
                tr.delete(job_id)
                tr.set(result_key_prefix + job_id, result_data)
                await tr.execute()
        """})
    r = oc(root, "worker.py")
    assert r.line_codes() == [], r
