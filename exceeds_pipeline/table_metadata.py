"""Dagster metadata for a table output: row count and column schema (with descriptions)."""

from __future__ import annotations

import polars as pl
from dagster import TableColumn, TableSchema

# Column descriptions shown in the Dagster UI and written as DuckDB comments when published.
COLUMN_DOCS: dict[str, str] = {
    "repo": "repository name (config `name`, else derived from url/path)",
    "sha": "full commit sha",
    "person_id": "stable slug of the person (see `people`)",
    "authored_at": "author timestamp, UTC",
    "author_date": "the author's own calendar date (git log --date=short)",
    "committed_at": "committer timestamp, UTC",
    "month": "YYYY-MM of author_date",
    "is_merge": "more than one parent; recorded, never counted or credited with a diff",
    "is_bot": "author is a bot (built-in rules + config bots.extra_patterns)",
    "is_counted": "non-merge, non-bot, author_date inside the configured window",
    "lines_added": "lines added, exactly as git log --numstat",
    "lines_deleted": "lines deleted, exactly as git log --numstat",
    "files_changed": "files in git log --numstat (binary files included)",
    "category": "feature, bug, refactor, perf, docs, test, build, revert, chore or other",
    "work_item_id": "the work item (PR, series, revert+reland, related commits) this commit belongs to",
    "ai_tool": "declared AI assistance (co-author trailer or agent identity), else null",
    "excluded": "left out of profile lines of code",
    "exclusion_reason": "binary, vendored, generated, lock_file or submodule",
    "emails": "e-mail addresses joined into this person",
}


def frame_metadata(frame: pl.DataFrame) -> dict:
    columns = [
        TableColumn(name=name, type=str(dtype), description=COLUMN_DOCS.get(name))
        for name, dtype in frame.schema.items()
    ]
    return {"dagster/row_count": frame.height, "dagster/column_schema": TableSchema(columns=columns)}
