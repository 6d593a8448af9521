"""The Dagster code location: raw history per repository -> history -> rollups, quality ->
profiles -> published database and exports.

`build_definitions(settings)` builds everything from an explicit config file and data dir, parsed
once and handed to assets, checks, sensors and schedules as the `settings` resource. `defs` is
what `dagster dev -w workspace.yaml` (and the pyproject target) load: the config and data dir of
SPEC §3 (EXCEEDS_CONFIG / EXCEEDS_DATA_DIR, else `exceeds.yaml` and `data/`), read once at load.
The CLI builds its own definitions for the paths it was given (`job_for`), and so do the
processes and Dask workers that execute its steps.
"""

import hashlib
import os

from dagster import (
    AssetSelection,
    Definitions,
    build_reconstructable_job,
    define_asset_job,
    definitions,
    in_process_executor,
    multiprocess_executor,
)

from exceeds_pipeline.config import ExceedsConfig
from exceeds_pipeline.defs.history.assets import (
    commit_links,
    commit_skills,
    commits_and_work_items,
    file_changes,
    people_and_identities,
)
from exceeds_pipeline.defs.history.checks import commits_match_git_count, file_lines_add_up
from exceeds_pipeline.defs.ingest.assets import (
    CODE_EVIDENCE_PREFIX,
    RAW_PREFIX,
    raw_history_assets,
    repositories_asset,
)
from exceeds_pipeline.defs.ingest.schedules import build_nightly_schedule
from exceeds_pipeline.defs.profiles.assets import profile_site, profiles
from exceeds_pipeline.defs.profiles.checks import every_counted_person_has_profile, profiles_match_schema
from exceeds_pipeline.defs.publish.assets import PublishLock, exceeds_database
from exceeds_pipeline.defs.publish.sensors import build_publish_sensor
from exceeds_pipeline.defs.quality.assets import quality_assets
from exceeds_pipeline.defs.resources import ExceedsSettings, settings_for, warehouse_io_manager
from exceeds_pipeline.defs.rollups.assets import monthly_rollups, repo_rollups, work_item_credit
from exceeds_pipeline.defs.themes.assets import themes

INGEST_JOB = "ingest_repositories"
PUBLISH_JOB = "build_and_publish"
# per-repository assets: one step each, run in parallel by the ingest job's executor
RAW_ASSETS = AssetSelection.key_prefixes([RAW_PREFIX], [CODE_EVIDENCE_PREFIX])
DATA_DIR_TAG = "exceeds/data-dir"


def data_dir_tags(settings: ExceedsSettings) -> dict[str, str]:
    """Tags every run on this data dir carries, so that sensors of one deployment ignore the
    runs of another that shares the same DAGSTER_HOME."""
    return {DATA_DIR_TAG: hashlib.sha1(str(settings.data.resolve()).encode()).hexdigest()[:16]}


def ingest_executor(config: ExceedsConfig):
    """Per-repository steps: parallel processes here, or tasks on an existing Dask cluster."""
    if config.execution.dask is not None:
        from dagster_dask import dask_executor

        return dask_executor.configured(
            {"cluster": {"existing": {"address": config.execution.dask.scheduler}}}
        )
    if len(config.repositories) == 1:
        # One repository: its steps depend on each other, so processes would only add start-up
        # time (git itself still reads the history in parallel processes).
        return in_process_executor
    # forkserver: one server process imports the code once; each step forks from it in
    # milliseconds instead of starting a fresh interpreter (~2 s of imports per step).
    return multiprocess_executor.configured({
        "max_concurrent": max(1, min(os.cpu_count() or 1, len(config.repositories))),
        "start_method": {"forkserver": {"preload_modules": [
            "exceeds_pipeline.forkserver_init", "exceeds_pipeline.definitions"]}},
    })


def build_definitions(settings: ExceedsSettings) -> Definitions:
    config = settings.config  # ConfigError (naming the key) if the config is invalid
    tags = data_dir_tags(settings)
    ingest_job = define_asset_job(
        INGEST_JOB,
        selection=RAW_ASSETS,
        executor_def=ingest_executor(config),
        tags=tags,
        description="Clone/fetch every configured repository and ingest its new commits: one step "
        "per repository, in parallel (processes, or a Dask cluster: `execution.dask`).",
    )
    # Everything downstream of the raw history works on all repositories at once: vectorised
    # steps that share the warehouse DuckDB file (one writer), so they run in one process.
    publish_job = define_asset_job(
        PUBLISH_JOB,
        selection=AssetSelection.all() - RAW_ASSETS,
        executor_def=in_process_executor,
        tags=tags,
        description="Derive tables, rollups, quality metrics and profiles for all repositories "
        "and publish the database and exports.",
    )
    return Definitions(
        assets=[
            *raw_history_assets(config),
            repositories_asset(config),
            people_and_identities,
            file_changes,
            commit_links,
            commits_and_work_items,
            commit_skills,
            work_item_credit,
            monthly_rollups,
            repo_rollups,
            *quality_assets(config),
            themes,
            profiles,
            profile_site,
            exceeds_database,
        ],
        asset_checks=[
            commits_match_git_count,
            file_lines_add_up,
            profiles_match_schema,
            every_counted_person_has_profile,
        ],
        jobs=[ingest_job, publish_job],
        schedules=[build_nightly_schedule(ingest_job, config.schedule)],
        sensors=[build_publish_sensor(publish_job, tags)],
        resources={
            "settings": settings,
            "io_manager": warehouse_io_manager(settings),
            "publish_lock": PublishLock(data_dir=settings.data_dir, warehouse=str(settings.warehouse)),
        },
    )


def job_for(job_name: str, config_path: str, data_dir: str):
    """One job of the definitions for these paths (what every step process rebuilds)."""
    return build_definitions(settings_for(config_path, data_dir)).resolve_job_def(job_name)


def reconstructable_job(job_name: str, settings: ExceedsSettings):
    """The job in a form other processes (the multiprocess executor, Dask workers) rebuild."""
    return build_reconstructable_job(
        "exceeds_pipeline.definitions", "job_for",
        reconstructable_args=(job_name, settings.config_path, settings.data_dir),
    )


@definitions
def defs() -> Definitions:
    return build_definitions(settings_for())
