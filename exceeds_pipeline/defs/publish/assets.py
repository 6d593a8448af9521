"""The published database users query, replaced atomically at the end of each build."""

from contextlib import contextmanager
from pathlib import Path

from dagster import (
    AssetExecutionContext,
    ConfigurableResource,
    InitResourceContext,
    MaterializeResult,
    MetadataValue,
    asset,
)

from exceeds_pipeline.defs.resources import ExceedsSettings
from exceeds_pipeline.locks import publish_lock
from exceeds_pipeline.publish.database import ensure_warehouse, publish_database, remove_stale_temporaries
from exceeds_pipeline.publish.freshness import publish_fingerprint, record_published
from exceeds_pipeline.tables import PUBLISHED_TABLES


class PublishLock(ConfigurableResource):
    """Holds `<data-dir>/.locks/publish.lock` from the start to the end of the run using it.

    Runs of the UI, the schedule and the CLI are separate processes that Dagster does not
    serialise, and each rebuilds the same warehouse file: `exceeds_database` requires this
    resource, so a `build_and_publish` run (in-process executor: resources are set up once per
    run) holds the lock for its whole length; a second run waits and says so in its log.
    """

    data_dir: str

    warehouse: str = ""

    @contextmanager
    def yield_for_execution(self, context: InitResourceContext):
        log = context.log.info if context.log is not None else None
        with publish_lock(self.data_dir, log=log):
            # Holding the lock, no run of ours has the warehouse open: if it cannot be opened
            # now, it is damaged (removed, rebuilt) or another program holds it (said at once).
            rebuilt = ensure_warehouse(Path(self.warehouse)) if self.warehouse else None
            if rebuilt and context.log is not None:
                context.log.warning(rebuilt)
            yield self


@asset(group_name="publish", deps=[*PUBLISHED_TABLES, "profile_site"], kinds={"duckdb"})
def exceeds_database(
    context: AssetExecutionContext, settings: ExceedsSettings, publish_lock: PublishLock
) -> MaterializeResult:
    """`<data-dir>/exceeds.duckdb`: the stable tables, published atomically (readers holding the
    old file keep a consistent snapshot)."""
    # Holding the publish lock: leftovers of a publish that was killed half-way can go.
    for leftover in remove_stale_temporaries(settings.published_database):
        context.log.info(f"removed {leftover.name}, left by an interrupted publish")
    fingerprint = publish_fingerprint(settings.config, settings.raw_store())
    counts = publish_database(settings.warehouse, settings.published_database)
    record_published(settings.data, fingerprint)
    return MaterializeResult(
        metadata={
            "path": MetadataValue.path(str(settings.published_database)),
            "fingerprint": fingerprint,
            **{f"rows/{table}": n for table, n in counts.items()},
        }
    )
