"""Quality: per-repository facts (DMM, SZZ, line survival), one asset per repository, cached
per commit so a nightly run pays only for new commits; then the metrics per person."""

import polars as pl
from dagster import AssetExecutionContext, AssetKey, AssetsDefinition, MaterializeResult, Output, asset

from exceeds_pipeline.config import ExceedsConfig, RepositoryConfig
from exceeds_pipeline.defs.metadata import frame_metadata
from exceeds_pipeline.defs.resources import ExceedsSettings
from exceeds_pipeline.ingest.raw_store import failed_side_table, read_side_table, side_table_failure, write_side_table
from exceeds_pipeline.ingest.repository import asset_slug
from exceeds_pipeline.quality import quality_metrics as compute_quality_metrics
from exceeds_pipeline.quality.git_facts import QUALITY_FACTS, fact_computations

FACTS_PREFIX = "quality_facts"


def quality_facts_key(repo_name: str) -> AssetKey:
    return AssetKey([FACTS_PREFIX, asset_slug(repo_name)])


def quality_facts_asset(repo: RepositoryConfig) -> AssetsDefinition:
    name = repo.display_name

    @asset(
        key=quality_facts_key(name),
        group_name="quality",
        deps=["commits", "file_changes"],
        description=f"Quality facts of {name}: Delta Maintainability Model of a fixed sample of "
        "each person's commits, SZZ traces of bug fixes, and line-by-line 21-day survival of added "
        "lines. Cached per commit (a nightly run computes only new commits); stored beside the "
        "raw history. A fact that cannot be computed is left out, and the metrics built on it "
        "show as pending, never as a partial value.",
        kinds={"git", "parquet"},
        metadata={"repo": name},
    )
    def quality_facts(context: AssetExecutionContext, settings: ExceedsSettings, commits: pl.DataFrame,
                      file_changes: pl.DataFrame) -> MaterializeResult:
        store = settings.raw_store()
        state = store.state(name)
        if state is None or not state.git_dir:
            return MaterializeResult(metadata={"available": False})
        compute = fact_computations(name, state.git_dir, commits, file_changes,
                                    settings.cache_dir / "quality", tip=state.tip)
        metadata = {}
        for fact, run in compute.items():
            try:
                frame = run()
            except Exception as exc:  # evidence is optional: a fact that fails is pending, not fatal
                context.log.warning(f"[{name}] {fact} facts unavailable: {exc}")
                write_side_table(store, name, f"quality_{fact}", failed_side_table(str(exc)))
                metadata[fact] = "unavailable"
                continue
            write_side_table(store, name, f"quality_{fact}", frame)
            metadata[fact] = frame.height
        return MaterializeResult(metadata=metadata)

    return quality_facts


def _facts(settings: ExceedsSettings, fact: str) -> tuple[pl.DataFrame | None, str | None]:
    """One fact over every repository, or None (pending) if any repository lacks it; and why
    it failed where it did."""
    parts = []
    for name in settings.repository_names:
        if settings.raw_store().state(name) is None:
            continue  # nothing ingested: nothing to measure
        frame = read_side_table(settings.raw_store(), name, f"quality_{fact}")
        if frame is None:
            return None, None
        if (why := side_table_failure(frame)) is not None:
            return None, f"{name}: {why}"
        parts.append(frame)
    return (pl.concat(parts, how="diagonal_relaxed") if parts else None), None


def quality_metrics_asset(config: ExceedsConfig) -> AssetsDefinition:
    @asset(name="quality_metrics", group_name="quality",
           deps=[quality_facts_key(r.display_name) for r in config.repositories], kinds={"duckdb"})
    def quality_metrics(
        context: AssetExecutionContext,
        settings: ExceedsSettings,
        commits: pl.DataFrame,
        work_items: pl.DataFrame,
        commit_links: pl.DataFrame,
        file_changes: pl.DataFrame,
        work_item_credit: pl.DataFrame,
    ) -> Output[pl.DataFrame]:
        """Person x metric: correctness, maintainability, architecture, performance, ai_usage,
        each with value (0..1 or null without evidence), evidence_count, method and evidence shas;
        a function of the history and the config alone (facts sampled deterministically)."""
        read = {fact: _facts(settings, fact) for fact in QUALITY_FACTS}
        facts = {fact: frame for fact, (frame, _) in read.items()}
        failures = {fact: why for fact, (_, why) in read.items() if why}
        pending = [f for f, frame in facts.items() if frame is None]
        if pending:
            context.log.warning(f"quality facts pending: {', '.join(pending)}")
        table = compute_quality_metrics(commits, work_items, commit_links, file_changes, **facts,
                                        credit=work_item_credit, failures=failures)
        return Output(table, metadata={**frame_metadata(table), "pending_facts": ", ".join(pending)})

    return quality_metrics


def quality_assets(config: ExceedsConfig) -> list[AssetsDefinition]:
    return [*(quality_facts_asset(r) for r in config.repositories), quality_metrics_asset(config)]
