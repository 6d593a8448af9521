"""The nightly schedule, the publish-after-ingest sensor, and the UI, schedule and CLI sharing
one Dagster instance: on a real instance, real repositories and real runs."""

from datetime import datetime

import pytest
from dagster import (
    DagsterRunStatus,
    DefaultScheduleStatus,
    DynamicPartitionsDefinition,
    RunsFilter,
    SkipReason,
    build_schedule_context,
    build_sensor_context,
    execute_job,
    instance_for_test,
)

from exceeds_pipeline.config import parse_config
from exceeds_pipeline.definitions import INGEST_JOB, PUBLISH_JOB, build_definitions, reconstructable_job
from exceeds_pipeline.defs.ingest.schedules import build_nightly_schedule
from exceeds_pipeline.defs.resources import settings_for
from exceeds_pipeline.runner import run_pipeline
from exceeds_pipeline_tests.gitscript import GitScript


def _deployment(tmp_path, name: str, repos: list[str]):
    """A config with its own repositories and data dir (as a separate user would have)."""
    root = tmp_path / name
    root.mkdir()
    for repo_name in repos:
        repo = GitScript.init(root / repo_name)
        repo.commit(f"Add {repo_name}", author=("Ann", "ann@example.com"), files={"a.py": "x = 1\n"})
    config_file = root / "exceeds.yaml"
    config_file.write_text("repositories:\n" + "".join(f"  - path: {r}\n" for r in repos))
    return settings_for(config_file, root / "data")


def test_nightly_schedule_requests_one_run_of_every_repository(tmp_path):
    settings = _deployment(tmp_path, "a", ["alpha", "beta"])
    defs = build_definitions(settings)
    schedule = defs.resolve_schedule_def("nightly_refresh")
    assert schedule.cron_schedule == "0 2 * * *"
    assert schedule.default_status == DefaultScheduleStatus.STOPPED
    assert schedule.job_name == INGEST_JOB
    with instance_for_test() as instance:
        context = build_schedule_context(
            instance=instance, scheduled_execution_time=datetime(2026, 1, 2, 2, 0),
            repository_def=defs.get_repository_def(),
        )
        requests = schedule.evaluate_tick(context).run_requests
        assert [r.run_key for r in requests] == ["nightly-2026-01-02"]
        # one step per repository in that run, and no instance-wide partitions to keep in sync
        job = defs.resolve_job_def(INGEST_JOB)
        assert sorted(job.graph.node_dict) == ["code_evidence__alpha", "code_evidence__beta",
                                               "raw_git_history__alpha", "raw_git_history__beta"]
        assert not any(isinstance(a.partitions_def, DynamicPartitionsDefinition)
                       for a in defs.resolve_asset_graph().assets_defs)


def test_schedule_enabled_cron_and_timezone_from_config():
    config = parse_config({"repositories": [{"path": "alpha"}],
                           "schedule": {"enabled": True, "cron": "30 3 * * *", "timezone": "Europe/Warsaw"}})
    from dagster import define_asset_job

    schedule = build_nightly_schedule(define_asset_job(INGEST_JOB), config.schedule)
    assert schedule.default_status == DefaultScheduleStatus.RUNNING
    assert schedule.cron_schedule == "30 3 * * *"
    assert schedule.execution_timezone == "Europe/Warsaw"


def _sensor_tick(defs, instance):
    sensor = defs.resolve_sensor_def("publish_after_ingest")
    context = build_sensor_context(instance=instance, definitions=defs,
                                   resources={"settings": defs.resources["settings"]})
    return sensor.evaluate_tick(context)


def test_publish_sensor_fires_after_ingest_and_not_when_up_to_date(tmp_path):
    settings = _deployment(tmp_path, "a", ["alpha"])
    defs = build_definitions(settings)
    with instance_for_test() as instance:
        assert "nothing ingested yet" in _sensor_tick(defs, instance).skip_message
        assert execute_job(reconstructable_job(INGEST_JOB, settings), instance).success
        requests = _sensor_tick(defs, instance).run_requests
        assert len(requests) == 1 and requests[0].tags["exceeds/publish-reason"] == "never published"
        assert execute_job(reconstructable_job(PUBLISH_JOB, settings), instance,
                           tags=requests[0].tags).success
        assert "up to date" in _sensor_tick(defs, instance).skip_message
        # a nightly ingest that finds no new commits does not trigger a rebuild...
        assert execute_job(reconstructable_job(INGEST_JOB, settings), instance).success
        assert "up to date" in _sensor_tick(defs, instance).skip_message
        # ...a new commit does, and so does a deleted export (the same rule as the CLI's)
        GitScript(tmp_path / "a" / "alpha").commit("Fix alpha", author=("Ann", "ann@example.com"),
                                                   files={"a.py": "x = 2\n"})
        assert execute_job(reconstructable_job(INGEST_JOB, settings), instance).success
        assert len(_sensor_tick(defs, instance).run_requests) == 1
        assert execute_job(reconstructable_job(PUBLISH_JOB, settings), instance).success
        (settings.data / "exports" / "index.json").unlink()
        assert "index.json" in _sensor_tick(defs, instance).run_requests[0].tags["exceeds/publish-reason"]


def test_ui_schedule_and_cli_with_other_configs_share_one_instance(tmp_path, monkeypatch):
    """The UI (config A, its sensor ticking) and CLI runs of config B on one DAGSTER_HOME: B's
    runs succeed, A's sensor is neither held up nor triggered by them, A's runs succeed too."""
    home = tmp_path / "dagster_home"
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    ui = _deployment(tmp_path, "ui", ["alpha"])
    cli = _deployment(tmp_path, "cli", ["benchmark", "vision"])
    ui_defs = build_definitions(ui)
    assert run_pipeline(cli.config_path, cli.data, echo=lambda _: None).ok
    from dagster import DagsterInstance

    with DagsterInstance.get() as instance:
        assert "nothing ingested yet" in _sensor_tick(ui_defs, instance).skip_message
        # the UI's scheduled run of A, while the CLI runs B again with a new commit
        assert execute_job(reconstructable_job(INGEST_JOB, ui), instance, tags={"exceeds/trigger": "nightly"}).success
        GitScript(tmp_path / "cli" / "vision").commit("Add more", author=("Bo", "bo@example.com"), files={"b.py": "y = 1\n"})
        assert run_pipeline(cli.config_path, cli.data, echo=lambda _: None).ok
        assert len(_sensor_tick(ui_defs, instance).run_requests) == 1
        failed = instance.get_runs(RunsFilter(statuses=[DagsterRunStatus.FAILURE]))
        assert failed == []
        assert instance.get_dynamic_partitions("repositories") == []
    import duckdb

    with duckdb.connect(str(cli.data / "exceeds.duckdb"), read_only=True) as con:
        assert con.execute("select repo, count(*) from commits group by 1 order by 1").fetchall() == [
            ("benchmark", 1), ("vision", 2)]
    assert not (ui.data / "exceeds.duckdb").exists()
