"""The nightly schedule and the publish-after-ingest sensor, on a real instance and real repos."""

from datetime import datetime

import pytest
from dagster import DefaultScheduleStatus, build_schedule_context, instance_for_test

from exceeds_pipeline.config import parse_config
from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.schedules import build_nightly_schedule, needs_publish


@pytest.fixture
def two_repos(tmp_path, monkeypatch):
    for name in ("alpha", "beta"):
        repo = GitScript.init(tmp_path / name)
        repo.commit(f"Add {name}", author=("Ann", "ann@example.com"), files={"a.py": "x = 1\n"})
    config_file = tmp_path / "exceeds.yaml"
    config_file.write_text("repositories:\n  - path: alpha\n  - path: beta\n    name: team/beta\n")
    monkeypatch.setenv("EXCEEDS_CONFIG", str(config_file))
    monkeypatch.setenv("EXCEEDS_DATA_DIR", str(tmp_path / "data"))
    return config_file


def _definitions():
    # Built after the env points at the test config, as the UI would load it.
    from exceeds_pipeline.definitions import build_definitions

    return build_definitions()


def test_nightly_schedule_requests_one_ingest_run_per_repository(two_repos):
    defs = _definitions()
    schedule = defs.get_schedule_def("nightly_refresh")
    assert schedule.cron_schedule == "0 2 * * *"
    assert schedule.default_status == DefaultScheduleStatus.STOPPED
    with instance_for_test() as instance:
        context = build_schedule_context(
            instance=instance,
            scheduled_execution_time=datetime(2026, 1, 2, 2, 0),
            repository_def=defs.get_repository_def(),
        )
        requests = schedule.evaluate_tick(context).run_requests
        assert sorted(r.partition_key for r in requests) == ["alpha", "team/beta"]
        assert {r.run_key for r in requests} == {"nightly-2026-01-02-alpha", "nightly-2026-01-02-team/beta"}
        # the schedule also registered the partitions, so the runs can start
        assert sorted(instance.get_dynamic_partitions("repositories")) == ["alpha", "team/beta"]


def test_schedule_enabled_and_cron_from_config(two_repos):
    config = parse_config(
        {"repositories": [{"path": "alpha"}], "schedule": {"enabled": True, "cron": "30 3 * * *"}}
    )
    from exceeds_pipeline.definitions import ingest_job

    schedule = build_nightly_schedule(ingest_job, config)
    assert schedule.default_status == DefaultScheduleStatus.RUNNING
    assert schedule.cron_schedule == "30 3 * * *"


def test_publish_sensor_waits_for_ingest_then_fires_once(two_repos):
    defs = _definitions()
    with instance_for_test() as instance:
        instance.add_dynamic_partitions("repositories", ["alpha", "team/beta"])
        assert needs_publish(instance) == (False, "nothing ingested yet")
        ingest = defs.resolve_job_def("ingest_repository")
        assert ingest.execute_in_process(instance=instance, partition_key="alpha").success
        launch, why = needs_publish(instance)
        assert launch, why
        publish = defs.resolve_job_def("build_and_publish")
        assert publish.execute_in_process(instance=instance).success
        assert needs_publish(instance) == (False, "the database is up to date with the last ingest")
        # a nightly ingest that finds no new commits does not trigger a rebuild...
        assert ingest.execute_in_process(instance=instance, partition_key="alpha").success
        assert needs_publish(instance) == (False, "no repository had new commits since the last publish")
        # ...a new commit does
        GitScript(two_repos.parent / "alpha").commit("Fix alpha", author=("Ann", "ann@example.com"), files={"a.py": "x = 2\n"})
        assert ingest.execute_in_process(instance=instance, partition_key="alpha").success
        assert needs_publish(instance) == (True, "ingested new commits after the last publish")
