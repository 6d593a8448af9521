"""Nightly refresh: one run of `ingest_repositories` (every configured repository, one step
each, in parallel); the `publish_after_ingest` sensor then rebuilds and publishes once.

Turn it on with one click in the UI, or with `schedule: {enabled: true}` in the config (`cron`
and `timezone` set when; default 02:00 local time).
"""

from datetime import datetime

from dagster import DefaultScheduleStatus, RunRequest, ScheduleDefinition, ScheduleEvaluationContext

from exceeds_pipeline.config import ScheduleConfig


def build_nightly_schedule(ingest_job, schedule: ScheduleConfig) -> ScheduleDefinition:
    def evaluate(context: ScheduleEvaluationContext):
        day = (context.scheduled_execution_time or datetime.now()).strftime("%Y-%m-%d")
        return RunRequest(run_key=f"nightly-{day}", tags={"exceeds/trigger": "nightly"})

    return ScheduleDefinition(
        name="nightly_refresh",
        cron_schedule=schedule.cron,
        execution_timezone=schedule.timezone,
        job=ingest_job,
        execution_fn=evaluate,
        default_status=DefaultScheduleStatus.RUNNING if schedule.enabled else DefaultScheduleStatus.STOPPED,
        description="Refresh every configured repository incrementally (then publish_after_ingest "
        "rebuilds and publishes the database).",
    )
