"""The Dagster code location: raw (per repository) -> history -> ... -> published database.

Loaded by `dagster dev -w workspace.yaml`, by the pyproject `[tool.dagster]` target and by the
`exceeds` CLI. The config file and data directory come from EXCEEDS_CONFIG / EXCEEDS_DATA_DIR
(defaults: `exceeds.yaml` and `data/` at the project root).
"""


from dagster import AssetSelection, Definitions, define_asset_job, in_process_executor

from exceeds_pipeline.history.assets import (
    commit_links,
    commit_skills,
    commits_and_work_items,
    file_changes,
    people_and_identities,
)
from exceeds_pipeline.ingest.assets import raw_git_history
from exceeds_pipeline.profiles.assets import every_counted_person_has_profile, profiles, profiles_match_schema
from exceeds_pipeline.publish.assets import PublishLock, exceeds_database
from exceeds_pipeline.quality.assets import quality_metrics
from exceeds_pipeline.rollups.assets import monthly_rollups, repo_rollups
from exceeds_pipeline.resources import default_settings, warehouse_io_manager
from exceeds_pipeline.schedules import build_nightly_schedule, build_publish_sensor
from exceeds_pipeline.sync import sync_repository_partitions_sensor
from exceeds_pipeline.checks import CHECKS
from exceeds_pipeline.config import ConfigError

INGEST_ASSETS = AssetSelection.assets(raw_git_history)

ingest_job = define_asset_job(
    "ingest_repository",
    selection=INGEST_ASSETS,
    description="Clone/fetch one repository and ingest its new commits (one run per repository).",
)

# Everything downstream of the raw tables works on all repositories at once, in one process:
# the steps are vectorised and sequential, so per-step subprocesses would only add start-up time.
# Its runs carry PUBLISH_RUN_TAGS: the dagster.yaml the CLI writes (runner.DAGSTER_YAML) limits
# the UI's run queue to one of them at a time; the publish lock serialises them with CLI runs.
PUBLISH_RUN_TAGS = {"exceeds/publish": "true"}
publish_job = define_asset_job(
    "build_and_publish",
    selection=AssetSelection.all() - INGEST_ASSETS,
    executor_def=in_process_executor,
    tags=PUBLISH_RUN_TAGS,
    description="Derive tables, rollups and profiles for all repositories and publish the database.",
)


def build_definitions() -> Definitions:
    settings = default_settings()
    try:
        config = settings.load_config()
    except ConfigError:
        config = None  # the UI still loads; runs report the config error
    return Definitions(
        # Steps of one run share the warehouse DuckDB file (one writer at a time): run them in
        # one process. Parallelism comes from runs: one per repository partition. Another
        # executor (multiprocess, celery, k8s...) is a run-config/dagster.yaml change.
        executor=in_process_executor,
        assets=[
            raw_git_history,
            people_and_identities,
            file_changes,
            commit_links,
            commits_and_work_items,
            commit_skills,
            monthly_rollups,
            repo_rollups,
            quality_metrics,
            profiles,
            exceeds_database,
        ],
        asset_checks=[*CHECKS, profiles_match_schema, every_counted_person_has_profile],
        jobs=[ingest_job, publish_job],
        schedules=[build_nightly_schedule(ingest_job, config)],
        sensors=[sync_repository_partitions_sensor, build_publish_sensor(publish_job)],
        resources={
            "settings": settings,
            "io_manager": warehouse_io_manager(settings),
            "publish_lock": PublishLock(data_dir=settings.data_dir),
        },
    )


defs = build_definitions()
