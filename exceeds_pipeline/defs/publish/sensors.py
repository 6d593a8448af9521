"""Publish after ingest: the UI and the schedule ingest; this sensor then rebuilds and publishes
once, by the same rule the CLI uses (`exceeds_pipeline.publish.freshness`)."""

from dagster import (
    DagsterRunStatus,
    DefaultSensorStatus,
    RunRequest,
    RunsFilter,
    SensorEvaluationContext,
    SkipReason,
    sensor,
)

from exceeds_pipeline.config import ConfigError
from exceeds_pipeline.defs.resources import ExceedsSettings
from exceeds_pipeline.publish.freshness import publish_fingerprint, publish_reason

IN_FLIGHT = [
    DagsterRunStatus.QUEUED,
    DagsterRunStatus.NOT_STARTED,
    DagsterRunStatus.STARTING,
    DagsterRunStatus.STARTED,
]


def build_publish_sensor(publish_job, data_dir_tag: dict[str, str]):
    @sensor(
        name="publish_after_ingest",
        job=publish_job,
        minimum_interval_seconds=30,
        default_status=DefaultSensorStatus.RUNNING,
        description="Rebuilds and publishes the database when no run on this data dir is in "
        "progress and the published one is missing, damaged or older than the ingested history.",
    )
    def publish_after_ingest(context: SensorEvaluationContext, settings: ExceedsSettings):
        # Only runs on this data dir matter: a CLI run with another config on the same
        # DAGSTER_HOME neither holds this one up nor triggers it.
        if context.instance.get_runs_count(RunsFilter(statuses=IN_FLIGHT, tags=data_dir_tag)):
            return SkipReason("a run on this data dir is in progress")
        try:
            fingerprint = publish_fingerprint(settings.config, settings.raw_store())
        except ConfigError as exc:
            return SkipReason(f"config is invalid: {exc}")
        if not any(settings.raw_store().state(r) for r in settings.repository_names):
            return SkipReason("nothing ingested yet")
        why = publish_reason(settings.data, fingerprint)
        if why is None:
            return SkipReason("the published database is up to date")
        # A publish of this very state that failed is not retried every 30 s: it needs a fix
        # (or a new ingest, which changes the fingerprint) first.
        tag = {**data_dir_tag, "exceeds/fingerprint": fingerprint[:32]}
        last = context.instance.get_runs(RunsFilter(job_name=publish_job.name, tags=tag), limit=1)
        if last and last[0].status == DagsterRunStatus.FAILURE:
            return SkipReason(f"the last publish of this state failed (run {last[0].run_id}); fix it and re-run")
        return RunRequest(tags={**tag, "exceeds/publish-reason": why[:200]})

    return publish_after_ingest
