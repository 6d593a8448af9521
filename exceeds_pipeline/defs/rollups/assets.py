"""Monthly and per-repository rollups per person (features and bugs counted per work item)."""

import polars as pl
from dagster import AssetExecutionContext, Output, asset

from exceeds_pipeline.rollups import rollups
from exceeds_pipeline.defs.metadata import frame_metadata


@asset(group_name="rollups", kinds={"duckdb"})
def work_item_credit(commits: pl.DataFrame, work_items: pl.DataFrame) -> Output[pl.DataFrame]:
    """One row per credited work item: whose it is (its author's, never a reverter's), its
    category, the month and repository it landed in, its counted commits. Rollups, quality
    metrics and profiles all count features and bugs from this one table."""
    table = rollups.work_item_credit(commits, work_items)
    return Output(table, metadata=frame_metadata(table))


@asset(group_name="rollups")
def monthly_rollups(
    context: AssetExecutionContext, commits: pl.DataFrame, work_items: pl.DataFrame, file_changes: pl.DataFrame,
    work_item_credit: pl.DataFrame,
    commit_skills: pl.DataFrame,
) -> Output[pl.DataFrame]:
    """Person x month (YYYY-MM of the author's local date): counted commits, features and bugs
    (work items, in the month they landed), profile lines of code, repositories."""
    table = rollups.monthly_rollups(commits, work_items, file_changes, credit=work_item_credit,
                                    commit_skills=commit_skills)
    return Output(table, metadata=frame_metadata(table))


@asset(group_name="rollups")
def repo_rollups(
    context: AssetExecutionContext,
    commits: pl.DataFrame,
    work_items: pl.DataFrame,
    file_changes: pl.DataFrame,
    commit_skills: pl.DataFrame,
    work_item_credit: pl.DataFrame,
) -> Output[pl.DataFrame]:
    """Person x repository: first/last month, months active, commits, features, bugs, profile
    lines of code, languages and skills."""
    table = rollups.repo_rollups(commits, work_items, file_changes, commit_skills, credit=work_item_credit)
    return Output(table, metadata=frame_metadata(table))
