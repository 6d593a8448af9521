"""Test helper: read a scripted repository into the raw frames the classifiers take.

Uses the project's own ingest (`exceeds_pipeline.ingest.git_log.log_commits`) so the tests see
exactly what the pipeline sees; people are identified by e-mail (enough for these tests) and
bots by a `[bot]` name suffix.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.ingest.git_log import log_commits


def read_repo(repo: GitScript, name: str = "acme/app", branch: str = "HEAD") -> tuple[pl.DataFrame, pl.DataFrame]:
    """(commits, file_changes) for every commit reachable from `branch`, newest first, with
    `person_id` (the e-mail's local part) and `is_bot` added."""
    shas = repo.git("rev-list", branch).split()
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    commits, files = log_commits(git_dir, name, shas)
    order = {sha: i for i, sha in enumerate(shas)}
    commits = (
        commits.with_columns(pl.col("sha").replace_strict(order, return_dtype=pl.Int64).alias("_o"))
        .sort("_o")
        .drop("_o")
        .with_columns(
            pl.col("author_email").str.extract(r"^([^@]+)", 1).str.to_lowercase().alias("person_id"),
            pl.col("author_name").str.ends_with("[bot]").alias("is_bot"),
        )
    )
    return commits, files


def by_subject(frame: pl.DataFrame, column: str) -> dict[str, object]:
    """{subject: value of `column`} (subjects must be unique in the frame)."""
    subjects = frame["subject"].to_list()
    assert len(set(subjects)) == len(subjects), "test repository subjects must be unique"
    return dict(zip(subjects, frame[column].to_list()))
