"""Asset checks that guard the figures; they show beside the assets in the Dagster UI."""

import polars as pl
from dagster import AssetCheckResult, AssetCheckSeverity, AssetIn, asset_check

from exceeds_pipeline.ingest.gitcmd import run_git
from exceeds_pipeline.defs.resources import ExceedsSettings


def commit_count_mismatches(commits: pl.DataFrame, expected: dict[str, int]) -> dict[str, tuple[int, int]]:
    """{repo: (stored, expected)} for every repository whose stored commit count is off."""
    stored = dict(commits.group_by("repo").agg(pl.len()).iter_rows())
    return {
        repo: (stored.get(repo, 0), count)
        for repo, count in expected.items()
        if stored.get(repo, 0) != count
    }


def line_total_mismatches(commits: pl.DataFrame, file_changes: pl.DataFrame) -> pl.DataFrame:
    """Commits whose lines differ from the sum over their files (should be none)."""
    per_file = file_changes.group_by("repo", "sha").agg(
        pl.col("lines_added").sum().alias("file_added"),
        pl.col("lines_deleted").sum().alias("file_deleted"),
        pl.len().alias("files"),
    )
    return (
        commits.filter(~pl.col("is_merge"))
        .join(per_file, on=["repo", "sha"], how="left")
        .with_columns(pl.col("file_added", "file_deleted", "files").fill_null(0))
        .filter(
            (pl.col("lines_added") != pl.col("file_added"))
            | (pl.col("lines_deleted") != pl.col("file_deleted"))
            | (pl.col("files_changed") != pl.col("files"))
        )
        .select("repo", "sha")
    )


@asset_check(asset="commits", description="Stored commits per repository equal `git rev-list --count` of the ingested tip.")
def commits_match_git_count(settings: ExceedsSettings, commits: pl.DataFrame) -> AssetCheckResult:
    store = settings.raw_store()
    expected = {}
    unavailable = []  # clone moved away or rewritten since it was ingested: its ingest failed
    for repo in settings.config.repositories:
        state = store.state(repo.display_name)
        if state and state.tip and state.git_dir:
            proc = run_git(None, ["--git-dir", state.git_dir, "rev-list", "--count", state.tip],
                           repo.display_name, check=False)
            if proc.returncode != 0:
                unavailable.append(repo.display_name)
                continue
            # commits git could not read (missing objects) are skipped on purpose, and logged
            expected[repo.display_name] = int(proc.stdout.decode().strip()) - len(state.skipped)
    mismatches = commit_count_mismatches(commits, expected)
    return AssetCheckResult(
        passed=not mismatches,
        metadata={"repositories_checked": len(expected), "mismatches": str(mismatches),
                  "repositories_unavailable": str(unavailable)},
    )


@asset_check(
    asset="file_changes",
    additional_ins={"commits": AssetIn("commits")},
    description="Each commit's lines and files equal the sum over its file changes.",
)
def file_lines_add_up(file_changes: pl.DataFrame, commits: pl.DataFrame) -> AssetCheckResult:
    bad = line_total_mismatches(commits, file_changes)
    return AssetCheckResult(
        passed=bad.height == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={"commits_checked": commits.height, "mismatching_commits": bad.head(20)["sha"].to_list()},
    )


