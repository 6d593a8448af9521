"""What each person worked on: themes per person, month and repository."""

import polars as pl
from dagster import Output, asset

from exceeds_pipeline.defs.metadata import frame_metadata
from exceeds_pipeline.themes import person_themes


@asset(group_name="themes", kinds={"duckdb"})
def themes(commits: pl.DataFrame, work_items: pl.DataFrame, file_changes: pl.DataFrame) -> Output[pl.DataFrame]:
    """Person x scope (all, month, repo) x theme: the areas of code (paths and modules weighted
    by lines), subject tags and scopes, and the terms that set a person's work-item titles apart
    from the rest of the repository; each with the work items behind it."""
    table = person_themes(commits, work_items, file_changes)
    return Output(table, metadata=frame_metadata(table))
