"""Monthly and per-repository rollups per person (features and bugs counted per work item)."""

import polars as pl
from dagster import AssetExecutionContext, Output, asset

from exceeds_pipeline.rollups import rollups
from exceeds_pipeline.defs.metadata import frame_metadata


@asset(group_name="rollups")
def monthly_rollups(
    context: AssetExecutionContext, commits: pl.DataFrame, work_items: pl.DataFrame, file_changes: pl.DataFrame
) -> Output[pl.DataFrame]:
    """Person x month (YYYY-MM of the author's local date): counted commits, features and bugs
    (work items, in the month they landed), profile lines of code, repositories."""
    table = rollups.monthly_rollups(commits, work_items, file_changes)
    return Output(table, metadata=frame_metadata(table))


@asset(group_name="rollups")
def repo_rollups(
    context: AssetExecutionContext,
    commits: pl.DataFrame,
    work_items: pl.DataFrame,
    file_changes: pl.DataFrame,
    commit_skills: pl.DataFrame,
) -> Output[pl.DataFrame]:
    """Person x repository: first/last month, months active, commits, features, bugs, profile
    lines of code, languages and skills."""
    table = rollups.repo_rollups(commits, work_items, file_changes, commit_skills)
    return Output(table, metadata=frame_metadata(table))
