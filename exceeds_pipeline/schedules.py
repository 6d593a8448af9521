"""Nightly refresh: ingest every configured repository, then rebuild and publish once.

The schedule starts one ingest run per repository (they run in parallel, and a failing one does
not hold up the others). The `publish_after_ingest` sensor then launches one
`build_and_publish` run as soon as no ingest run is queued or running and some repository was
ingested after the database was last published; runs started from the UI are followed the same
way. Turn the schedule on with one click in the UI, or with `schedule: {enabled: true}` in the
config (`cron` and `timezone` set when; default 02:00 local time).
"""

from datetime import datetime

from dagster import (
    AssetKey,
    AssetRecordsFilter,
    DagsterRunStatus,
    DefaultScheduleStatus,
    DefaultSensorStatus,
    RunRequest,
    RunsFilter,
    ScheduleDefinition,
    ScheduleEvaluationContext,
    SensorEvaluationContext,
    SkipReason,
    sensor,
)

from exceeds_pipeline.config import ExceedsConfig
from exceeds_pipeline.sync import sync_partitions

IN_FLIGHT = [
    DagsterRunStatus.QUEUED,
    DagsterRunStatus.NOT_STARTED,
    DagsterRunStatus.STARTING,
    DagsterRunStatus.STARTED,
]


def nightly_run_requests(context: ScheduleEvaluationContext, config: ExceedsConfig):
    repos = [r.display_name for r in config.repositories]
    sync_partitions(context.instance, repos)  # new repositories are picked up the same night
    day = (context.scheduled_execution_time or datetime.now()).strftime("%Y-%m-%d")
    return [
        RunRequest(run_key=f"nightly-{day}-{repo}", partition_key=repo, tags={"exceeds/trigger": "nightly"})
        for repo in repos
    ]


def build_nightly_schedule(ingest_job, config: ExceedsConfig | None) -> ScheduleDefinition:
    schedule = config.schedule if config else None

    def evaluate(context: ScheduleEvaluationContext):
        from exceeds_pipeline.resources import default_settings

        yield from nightly_run_requests(context, default_settings().load_config())

    return ScheduleDefinition(
        name="nightly_refresh",
        cron_schedule=schedule.cron if schedule else "0 2 * * *",
        execution_timezone=schedule.timezone if schedule and schedule.timezone else None,
        job=ingest_job,
        execution_fn=evaluate,
        default_status=DefaultScheduleStatus.RUNNING if schedule and schedule.enabled else DefaultScheduleStatus.STOPPED,
        description="Refresh every configured repository incrementally (then publish_after_ingest "
        "rebuilds and publishes the database).",
    )


def needs_publish(instance) -> tuple[bool, str]:
    """(launch?, why): publish when ingest is idle and newer than the last published database."""
    if instance.get_runs_count(RunsFilter(job_name="ingest_repository", statuses=IN_FLIGHT)):
        return False, "ingest runs are still in progress"
    if instance.get_runs_count(RunsFilter(job_name="build_and_publish", statuses=IN_FLIGHT)):
        return False, "a publish run is already in progress"
    ingested = instance.get_latest_materialization_event(AssetKey("raw_commits"))
    if ingested is None:
        return False, "nothing ingested yet"
    published = instance.get_latest_materialization_event(AssetKey("exceeds_database"))
    if published is None:
        return True, "never published"
    if published.timestamp >= ingested.timestamp:
        return False, "the database is up to date with the last ingest"
    # Ingests since the publish that found no new commits change nothing: skip the rebuild, so
    # a nightly run over unchanged repositories costs only the ingest checks.
    since = instance.fetch_materializations(
        AssetRecordsFilter(asset_key=AssetKey("raw_commits"), after_timestamp=published.timestamp),
        limit=1000,
    ).records
    modes = {
        (r.asset_materialization.metadata.get("mode").value if r.asset_materialization.metadata.get("mode") else None)
        for r in since
    }
    if modes and modes <= {"unchanged"}:
        return False, "no repository had new commits since the last publish"
    return True, "ingested new commits after the last publish"


def build_publish_sensor(publish_job):
    @sensor(
        name="publish_after_ingest",
        job=publish_job,
        minimum_interval_seconds=30,
        default_status=DefaultSensorStatus.RUNNING,
        description="Rebuilds and publishes the database once all ingest runs have finished.",
    )
    def publish_after_ingest(context: SensorEvaluationContext):
        launch, why = needs_publish(context.instance)
        if not launch:
            return SkipReason(why)
        ingested = context.instance.get_latest_materialization_event(AssetKey("raw_commits"))
        return RunRequest(run_key=f"publish-after-{ingested.run_id}")

    return publish_after_ingest
