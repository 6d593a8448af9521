"""The published `commits` and `file_changes` tables, derived from the raw git tables.

A *counted* commit (SPEC §5) is a non-merge commit by a person who is not a bot, with its
author date (the author's own calendar date) inside the configured window, both ends inclusive.
A commit that declares itself machine-made (`autogen: ...`, :mod:`exceeds_pipeline.identity.bots`)
is a bot's commit whoever its author is.
Every commit reachable from the branch is kept in `commits`; `is_counted` says which count.
A change reachable from several configured repositories counts once, in the first listed
(`counted_in`, see :mod:`exceeds_pipeline.history.counted_once`).
"""

from __future__ import annotations

from datetime import date

import polars as pl

from exceeds_pipeline.identity.bots import AUTOMATED_SUBJECT, AUTOMATION_COMMITTER
from exceeds_pipeline.identity.people import identity_key_expr

COMMIT_COLUMNS = [
    "repo", "sha", "person_id", "author_name", "author_email", "authored_at", "author_date",
    "committed_at", "subject", "message", "is_merge", "is_bot", "lines_added", "lines_deleted",
    "files_changed", "category", "work_item_id", "ai_tool",
    # beyond the stable interface: evidence and conveniences for queries
    "month", "is_counted", "counted_in", "counted_sha", "pr_number", "parents", "mailmap_name", "mailmap_email",
    "committer_name", "committer_email", "author_utc_offset_minutes",
]


def month_expr(date_col: str = "author_date") -> pl.Expr:
    """`YYYY-MM` of the author's local date (what `git log --date=short` prints)."""
    return pl.col(date_col).dt.strftime("%Y-%m")


def empty_commit_expr() -> pl.Expr:
    """A commit that changed no file (`git commit --allow-empty`; numstat lists nothing). A merge
    has no diff of its own either: callers that mean non-merge commits say so. Unknown: not empty."""
    return pl.col("files_changed").fill_null(1) == 0


def in_window_expr(since: date | None, until: date | None) -> pl.Expr:
    cond = pl.lit(True)
    if since is not None:
        cond = cond & (pl.col("author_date") >= pl.lit(since))
    if until is not None:
        cond = cond & (pl.col("author_date") <= pl.lit(until))
    return cond


def _committed_by_workflow(columns: list[str]) -> pl.Expr:
    """The commit's committer is a CI workflow (bots.AUTOMATION_COMMITTER), by name or e-mail, and
    it makes no release: a release workflow (laravel's `Update version to v13.26.1`, run by Taylor
    Otwell) cuts the release its maintainer started, and the release is theirs."""
    from exceeds_pipeline.classify.categories import release_subject  # (classify reads history's modules)

    found = [pl.col(c).fill_null("").str.contains(AUTOMATION_COMMITTER) for c in ("committer_name", "committer_email")
             if c in columns]
    return (pl.any_horizontal(found) & ~release_subject(pl.col("subject").fill_null(""))) if found else pl.lit(False)


def attach_people(
    raw_commits: pl.DataFrame, identity_map: pl.DataFrame, people: pl.DataFrame,
    since: date | None = None, until: date | None = None,
) -> pl.DataFrame:
    """Raw commits with person_id, is_bot, month and is_counted."""
    return (
        raw_commits.with_columns(identity_key_expr().alias("identity_key"))
        .join(identity_map, on="identity_key", how="left")
        .join(people.select("person_id", "is_bot"), on="person_id", how="left")
        .with_columns(
            (pl.col("is_bot").fill_null(False) | pl.col("subject").fill_null("").str.contains(AUTOMATED_SUBJECT)
             | _committed_by_workflow(raw_commits.columns)).alias("is_bot"),
            month_expr().alias("month"),
        )
        .with_columns(
            (~pl.col("is_merge") & ~pl.col("is_bot") & in_window_expr(since, until)).alias("is_counted")
        )
        .drop("identity_key")
    )


def finalize_commits(commits: pl.DataFrame) -> pl.DataFrame:
    """Order and complete the columns of the published table (missing derived ones as null)."""
    defaults = {
        "category": pl.String, "work_item_id": pl.String, "ai_tool": pl.String, "pr_number": pl.Int64,
    }
    missing = [pl.lit(None, dtype=t).alias(c) for c, t in defaults.items() if c not in commits.columns]
    # Without count_once every counted commit counts where it is.
    counted = pl.col("is_counted").fill_null(False)
    missing += [pl.when(counted).then(pl.col(src)).alias(c)
                for c, src in (("counted_in", "repo"), ("counted_sha", "sha")) if c not in commits.columns]
    return commits.with_columns(missing).select(COMMIT_COLUMNS).sort(["repo", "authored_at", "sha"])
