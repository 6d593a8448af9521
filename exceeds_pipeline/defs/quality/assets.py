"""Quality metrics per person, from repository facts (DMM and SZZ cached per commit)."""

import polars as pl
from dagster import AssetExecutionContext, Output, asset

from exceeds_pipeline.quality import quality_metrics as compute_quality_metrics
from exceeds_pipeline.quality import repository_quality_facts
from exceeds_pipeline.quality.git_facts import measured_tip_file
from exceeds_pipeline.defs.resources import ExceedsSettings
from exceeds_pipeline.defs.metadata import frame_metadata


@asset(group_name="quality")
def quality_metrics(
    context: AssetExecutionContext,
    settings: ExceedsSettings,
    commits: pl.DataFrame,
    work_items: pl.DataFrame,
    commit_links: pl.DataFrame,
    file_changes: pl.DataFrame,
) -> Output[pl.DataFrame]:
    """Person x metric: correctness, maintainability, architecture, performance, ai_usage, each
    with value (0..1 or null without evidence), evidence_count, method and evidence shas.
    DMM and SZZ facts are computed once per commit, cached under <data-dir>/cache/quality, and
    bounded per run (see exceeds_pipeline/quality); a run whose repository has no new commits
    measures nothing and reuses the cache."""
    store = settings.raw_store()
    cache_dir = settings.data / "cache" / "quality"
    dmm_parts, szz_parts = [], []
    for repo in settings.config.repositories:
        state = store.state(repo.display_name)
        if state is None or not state.git_dir:
            continue
        tip_file = measured_tip_file(cache_dir, repo.display_name)
        measured_tip = tip_file.read_text().strip() if tip_file.exists() else None
        try:
            dmm, szz = repository_quality_facts(
                repo.display_name, state.git_dir, commits, file_changes, cache_dir,
                measure_new=measured_tip != state.tip,
            )
            tip_file.parent.mkdir(parents=True, exist_ok=True)
            tip_file.write_text(state.tip or "")
        except Exception as exc:  # facts are optional evidence: a repo that fails gives none
            context.log.warning(f"[{repo.display_name}] quality facts unavailable: {exc}")
            continue
        dmm_parts.append(dmm)
        szz_parts.append(szz)
    table = compute_quality_metrics(
        commits,
        work_items,
        commit_links,
        file_changes,
        pl.concat(dmm_parts, how="diagonal_relaxed") if dmm_parts else None,
        pl.concat(szz_parts, how="diagonal_relaxed") if szz_parts else None,
    )
    return Output(table, metadata=frame_metadata(table))
