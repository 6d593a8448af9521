"""The published database users query, replaced atomically at the end of each run."""


from contextlib import contextmanager

import polars as pl
from dagster import (
    AssetExecutionContext,
    ConfigurableResource,
    InitResourceContext,
    MaterializeResult,
    MetadataValue,
    asset,
)

from exceeds_pipeline.locks import publish_lock
from exceeds_pipeline.publish.database import publish_database, remove_stale_temporaries
from exceeds_pipeline.resources import ExceedsSettings

PUBLISHED_ASSETS = ["people", "commits", "file_changes", "work_items", "commit_links", "commit_skills", "monthly_rollups", "repo_rollups", "quality_metrics", "profiles"]


class PublishLock(ConfigurableResource):
    """Holds `<data-dir>/.locks/publish.lock` from the start to the end of the run using it.

    `exceeds_database` requires it, so a `build_and_publish` run (in-process executor: resources
    are set up once per run) holds the lock while it rebuilds the warehouse and publishes: a UI
    run and a CLI run never write the warehouse or the database at the same time; the second
    waits and says so in its log.
    """

    data_dir: str

    @contextmanager
    def yield_for_execution(self, context: InitResourceContext):
        log = context.log.info if context.log is not None else None
        with publish_lock(self.data_dir, log=log):
            yield self


def repositories_table(settings: ExceedsSettings) -> pl.DataFrame:
    """Ingest state of each configured repository (tip, branch, when, shallow, and the commits
    skipped because git could not read them)."""
    store = settings.raw_store()
    rows = []
    for repo in settings.load_config().repositories:
        state = store.state(repo.display_name)
        rows.append(
            {
                "repo": repo.display_name,
                "branch": state.branch if state else repo.branch,
                "tip": state.tip if state else None,
                "commits": state.commits if state else 0,
                "is_shallow": state.is_shallow if state else False,
                "ingested_at": state.ingested_at if state else None,
                "skipped_commits": list(state.skipped) if state else [],
            }
        )
    return pl.DataFrame(
        rows,
        schema={"repo": pl.String, "branch": pl.String, "tip": pl.String, "commits": pl.Int64,
                "is_shallow": pl.Boolean, "ingested_at": pl.String,
                "skipped_commits": pl.List(pl.String)},
    )


@asset(group_name="publish", deps=PUBLISHED_ASSETS)
def exceeds_database(
    context: AssetExecutionContext, settings: ExceedsSettings, publish_lock: PublishLock
) -> MaterializeResult:
    """`<data-dir>/exceeds.duckdb`: the stable tables, published atomically (readers holding the
    old file keep a consistent snapshot)."""
    # Holding the publish lock: leftovers of a publish that was killed half-way can go.
    for leftover in remove_stale_temporaries(settings.published_database):
        context.log.info(f"removed {leftover.name}, left by an interrupted publish")
    counts = publish_database(
        settings.warehouse,
        settings.published_database,
        extra_tables={"repositories": repositories_table(settings)},
    )
    return MaterializeResult(
        metadata={
            "path": MetadataValue.path(str(settings.published_database)),
            **{f"rows/{table}": n for table, n in counts.items()},
        }
    )
