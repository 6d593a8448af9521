"""The published database users query, replaced atomically at the end of each run."""


import polars as pl
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset

from exceeds_pipeline.publish.database import publish_database
from exceeds_pipeline.resources import ExceedsSettings

PUBLISHED_ASSETS = ["people", "commits", "file_changes", "work_items", "commit_links", "commit_skills", "monthly_rollups", "repo_rollups"]


def repositories_table(settings: ExceedsSettings) -> pl.DataFrame:
    """Ingest state of each configured repository (tip, branch, when, shallow)."""
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
            }
        )
    return pl.DataFrame(
        rows,
        schema={"repo": pl.String, "branch": pl.String, "tip": pl.String, "commits": pl.Int64,
                "is_shallow": pl.Boolean, "ingested_at": pl.String},
    )


@asset(group_name="publish", deps=PUBLISHED_ASSETS)
def exceeds_database(context: AssetExecutionContext, settings: ExceedsSettings) -> MaterializeResult:
    """`<data-dir>/exceeds.duckdb`: the stable tables, published atomically (readers holding the
    old file keep a consistent snapshot)."""
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
