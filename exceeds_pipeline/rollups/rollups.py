"""Person x month (`monthly_rollups`) and person x repository (`repo_rollups`) tables.

Plain Polars over whole tables. Rules (SPEC §4-§5):

**Counted commits only.** Every figure comes from commits with ``is_counted`` (non-merge, non-bot,
author date inside the window, and only the counting copy of a change reachable from several
repositories: :mod:`exceeds_pipeline.history.counted_once`) and a ``person_id``. So a
repository appears in ``repo_rollups`` for a person only where some of their commits count. Months are the ``month`` column of
``commits``: ``YYYY-MM`` of the author's own local date.

**Features and bugs are counted per work item, once, in one month and one repository.**
A work item is credited to its owner (``work_items.person_id``) when that person has at least
one counted commit in it. It counts in the month of the owner's *last* counted commit of the
item (latest ``authored_at``, ties broken by sha): the month the change was finished, so a
feature worked on from March to May counts once, in May. A revert of the change is not its
finishing: an item that ends in its owner's own revert counts in the month of its last other
commit (jq's fix of November 2024, reverted in June 2025, read as "fixed in June 2025"). Its
repository is ``work_items.repo``.
A counted commit without a ``work_item_id`` (or whose id is missing from ``work_items``) is
treated as a work item of its own, with the commit's category and subject, unless it is empty
(no file changed: work items leave those out, so they are no feature and no fix). See
:func:`work_item_credit`.

**Lines of code.** ``lines_added`` / ``lines_deleted`` in both rollups are *profile* lines of
code: the sum of ``file_changes.lines_added/lines_deleted`` over the counted commits' files with
``excluded = false`` (binary, vendored, generated, lock files and submodules left out, see
:mod:`exceeds_pipeline.enrich.exclusions`). The raw ``git log --numstat`` totals of the same
commits are kept beside them as ``raw_lines_added`` / ``raw_lines_deleted``; ``commits`` keeps
raw numbers per commit.

**Lists.** ``repos`` is ordered by the person's counted commits in that repository that month
(most first, then by name); ``languages`` by profile lines changed (added + deleted) in that
language, most first, then by name (files with no Linguist language, and housekeeping
dot-files such as ``.gitignore``, are left out); ``skills``
by the number of counted commits showing the skill, most first, then by name.
"""

from __future__ import annotations

import polars as pl

from exceeds_pipeline.enrich.languages import profile_language_expr
from exceeds_pipeline.history.tables import empty_commit_expr

__all__ = [
    "MONTHLY_ROLLUPS_SCHEMA",
    "REPO_ROLLUPS_SCHEMA",
    "WORK_ITEM_CREDIT_SCHEMA",
    "commit_profile_loc",
    "counted_commits",
    "profile_language_lines",
    "ranked_list",
    "monthly_rollups",
    "repo_rollups",
    "work_item_credit",
]

MONTHLY_ROLLUPS_SCHEMA: dict[str, pl.DataType] = {
    "person_id": pl.String,
    "month": pl.String,
    "commits": pl.Int64,
    "features": pl.Int64,
    "bugs": pl.Int64,
    "lines_added": pl.Int64,  # profile LOC (excluded files left out)
    "lines_deleted": pl.Int64,
    "repos": pl.List(pl.String),
    "work_items": pl.Int64,  # work items credited in this month, any category
    "raw_lines_added": pl.Int64,  # git log --numstat totals of the same commits
    "raw_lines_deleted": pl.Int64,
    "languages": pl.List(pl.String),  # by profile lines changed this month
    "skills": pl.List(pl.String),  # by commits this month
}

REPO_ROLLUPS_SCHEMA: dict[str, pl.DataType] = {
    "person_id": pl.String,
    "repo": pl.String,
    "first_month": pl.String,
    "last_month": pl.String,
    "months_active": pl.Int64,
    "commits": pl.Int64,
    "features": pl.Int64,
    "bugs": pl.Int64,
    "lines_added": pl.Int64,  # profile LOC
    "lines_deleted": pl.Int64,
    "languages": pl.List(pl.String),
    "skills": pl.List(pl.String),
    "work_items": pl.Int64,
    "raw_lines_added": pl.Int64,
    "raw_lines_deleted": pl.Int64,
}

WORK_ITEM_CREDIT_SCHEMA: dict[str, pl.DataType] = {
    "work_item_id": pl.String,
    "person_id": pl.String,
    "repo": pl.String,
    "category": pl.String,
    "title": pl.String,
    "month": pl.String,  # month the item counts in (owner's last counted commit)
    "first_at": pl.Datetime("us", "UTC"),
    "landed_at": pl.Datetime("us", "UTC"),
    "commits": pl.Int64,  # owner's counted commits in the item
    "shas": pl.List(pl.String),  # those commits, oldest first
}

_LOC_SCHEMA = {"repo": pl.String, "sha": pl.String, "loc_added": pl.Int64, "loc_deleted": pl.Int64}


def counted_commits(commits: pl.DataFrame) -> pl.DataFrame:
    """The commits that count (``is_counted``) and have a person."""
    return commits.filter(pl.col("is_counted").fill_null(False) & pl.col("person_id").is_not_null())


def commit_profile_loc(file_changes: pl.DataFrame, code: pl.Expr | None = None) -> pl.DataFrame:
    """``[repo, sha, loc_added, loc_deleted]``: per commit, lines over files not excluded; with
    ``code`` (a condition on a file change), also ``code_added``: the lines added to those of
    them it holds for, in the same pass."""
    extra = [] if code is None else [
        pl.col("lines_added").fill_null(0).filter(code).sum().cast(pl.Int64).alias("code_added")]
    if file_changes.height == 0:
        return pl.DataFrame(schema={**_LOC_SCHEMA, **({} if code is None else {"code_added": pl.Int64})})
    kept = ~pl.col("excluded").fill_null(False) if "excluded" in file_changes.columns else pl.lit(True)
    return (
        file_changes.lazy()
        .filter(kept)
        .group_by("repo", "sha")
        .agg(
            pl.col("lines_added").fill_null(0).sum().cast(pl.Int64).alias("loc_added"),
            pl.col("lines_deleted").fill_null(0).sum().cast(pl.Int64).alias("loc_deleted"),
            *extra,
        )
        .collect()
    )


def _item_key() -> pl.Expr:
    return pl.coalesce(
        pl.col("work_item_id"), pl.lit("commit:") + pl.col("repo") + pl.lit(":") + pl.col("sha")
    ).alias("_item")


def work_item_credit(commits: pl.DataFrame, work_items: pl.DataFrame) -> pl.DataFrame:
    """One row per credited work item: who it counts for, in which month and repository.

    See the module docstring for the rule. Columns: :data:`WORK_ITEM_CREDIT_SCHEMA`.
    """
    counted = counted_commits(commits)
    if counted.height == 0:
        return pl.DataFrame(schema=WORK_ITEM_CREDIT_SCHEMA)
    wi_cols = {"work_item_id", "person_id", "category", "title", "repo"}
    wi = (
        work_items.select(
            pl.col("work_item_id").alias("_item"),
            pl.col("person_id").alias("_owner"),
            pl.col("category").alias("_wi_category"),
            pl.col("title").alias("_wi_title"),
            pl.col("repo").alias("_wi_repo"),
        )
        if wi_cols <= set(work_items.columns) and work_items.height
        else pl.DataFrame(
            schema={"_item": pl.String, "_owner": pl.String, "_wi_category": pl.String,
                    "_wi_title": pl.String, "_wi_repo": pl.String}
        )
    ).unique("_item", keep="first")
    # An empty commit is in no work item by design (classify.work_items): not an item of its own.
    empty = (
        pl.col("work_item_id").is_null() & empty_commit_expr()
        if "files_changed" in counted.columns else pl.lit(False)
    )
    rows = (
        counted.lazy()
        .filter(~empty)
        .select("repo", "sha", "person_id", "authored_at", "month", "category", "subject", "work_item_id")
        .with_columns(_item_key())
        .join(wi.lazy(), on="_item", how="left")
        # The owner of a listed item is the work item's person; an unlisted commit owns itself.
        .filter(pl.col("person_id") == pl.coalesce(pl.col("_owner"), pl.col("person_id")))
        .sort("authored_at", "sha")
    )
    # the commits that undo the item rather than finish it
    undoing = pl.col("category").fill_null("") == "revert"
    return (
        rows.group_by("_item")
        .agg(
            pl.col("person_id").first(),
            pl.coalesce(pl.col("_wi_repo"), pl.col("repo")).first().alias("repo"),
            pl.coalesce(pl.col("_wi_category"), pl.col("category")).first().alias("category"),
            pl.coalesce(pl.col("_wi_title"), pl.col("subject")).first().alias("title"),
            pl.coalesce(pl.col("month").filter(~undoing).last(), pl.col("month").last()).alias("month"),
            pl.col("authored_at").first().alias("first_at"),
            pl.coalesce(pl.col("authored_at").filter(~undoing).last(), pl.col("authored_at").last()).alias("landed_at"),
            pl.len().cast(pl.Int64).alias("commits"),
            pl.col("sha").alias("shas"),
        )
        .rename({"_item": "work_item_id"})
        .select(list(WORK_ITEM_CREDIT_SCHEMA))
        .sort("person_id", "landed_at", "work_item_id")
        .collect()
        .cast(WORK_ITEM_CREDIT_SCHEMA)
    )


def _with_loc(counted: pl.DataFrame, file_changes: pl.DataFrame) -> pl.LazyFrame:
    return (
        counted.lazy()
        .join(commit_profile_loc(file_changes).lazy(), on=["repo", "sha"], how="left")
        .with_columns(pl.col("loc_added").fill_null(0), pl.col("loc_deleted").fill_null(0))
    )


def _item_counts(credit: pl.DataFrame, keys: list[str]) -> pl.LazyFrame:
    return (
        credit.lazy()
        .group_by(keys)
        .agg(
            (pl.col("category") == "feature").sum().cast(pl.Int64).alias("features"),
            (pl.col("category") == "bug").sum().cast(pl.Int64).alias("bugs"),
            pl.len().cast(pl.Int64).alias("work_items"),
        )
    )


def ranked_list(frame: pl.LazyFrame, keys: list[str], value: str, weight: str, alias: str,
                limit: int | None = None) -> pl.LazyFrame:
    """Per `keys`, the list of `value` ordered by summed `weight` desc, then name (its first
    `limit` when given)."""
    listed = pl.col(value) if limit is None else pl.col(value).head(limit)
    return (
        frame.group_by([*keys, value])
        .agg(pl.col(weight).sum().alias("_w"))
        .sort([*keys, "_w", value], descending=[*([False] * len(keys)), True, False])
        .group_by(keys, maintain_order=True)
        .agg(listed.alias(alias))
    )


def profile_language_lines(file_changes: pl.DataFrame) -> pl.LazyFrame:
    """``[repo, sha, language, lines_added, lines_deleted]``: the lines of each commit's files in
    a profile language, over the files profile LOC keeps. A person's languages are ranked by
    the lines they added: a language only deleted from (an obsolete page or script removed)
    is none they write in. Nor is a markup language of files among the tests or specs: those
    are fixtures (express's three one-line `.tmpl` views made its maintainer a Go Template
    author; sinatra's test views Haml and Stylus, sinatra-contrib's spec/ views Slim and
    HTML+ERB), nor is any language of a documentation tree, which Linguist leaves out of a
    repository's languages (redis's doc/*.html: antirez wrote "mostly in C and HTML";
    requests' docs/_static scripts made Kenneth Reitz a JavaScript author), nor the language of
    a distribution package (ripgrep's pkg/brew formula, bumped with each release, had made
    Andrew Gallant a Ruby author in 43 commits)."""
    from exceeds_pipeline.classify.categories import DOCS_TREE, TEST_PATH, distribution_package
    from exceeds_pipeline.enrich.exclusions import linguist_type

    kept = ~pl.col("excluded").fill_null(False) if "excluded" in file_changes.columns else pl.lit(True)
    languages = file_changes["language"].drop_nulls().unique().to_list() if "language" in file_changes.columns else []
    markup = [lang for lang in languages if linguist_type(lang) == "markup"]
    path = pl.col("path").fill_null("")
    not_written = (pl.col("language").is_in(markup) & (path.str.contains(TEST_PATH) | path.str.contains(r"(?i)(?:^|/)specs?/"))
                   | path.str.contains(DOCS_TREE)
                   | distribution_package(path, pl.col("repo") if "repo" in file_changes.columns else None))
    return (
        file_changes.lazy()
        .filter(kept & profile_language_expr() & ~not_written)
        .select("repo", "sha", "language", pl.col("lines_added").fill_null(0), pl.col("lines_deleted").fill_null(0))
    )


def _with_languages_and_skills(
    base: pl.LazyFrame, counted: pl.DataFrame, file_changes: pl.DataFrame,
    commit_skills: pl.DataFrame | None, keys: list[str],
) -> pl.LazyFrame:
    """`base` (one row per `keys`) with `languages` (by profile lines added: a language only
    deleted from, an obsolete page or script removed, is none the person writes in) and `skills`
    (by commits), each a ranked list over the counted commits of the group."""
    people_of = counted.lazy().select("repo", "sha", "person_id", "month")
    out = base
    if {"language", "excluded"} <= set(file_changes.columns):
        lang_rows = (
            profile_language_lines(file_changes).filter(pl.col("lines_added") > 0)
            .join(people_of, on=["repo", "sha"], how="inner")
        )
        out = out.join(ranked_list(lang_rows, keys, "language", "lines_added", "languages"), on=keys, how="left")
    else:
        out = out.with_columns(pl.lit(None, pl.List(pl.String)).alias("languages"))
    if commit_skills is not None and commit_skills.height:
        skill_rows = (
            commit_skills.lazy()
            .select("repo", "sha", "skills")
            .join(people_of, on=["repo", "sha"], how="inner")
            .explode("skills", empty_as_null=False)
            .drop_nulls("skills")
            .unique(["repo", "sha", "skills"])
            .rename({"skills": "skill"})
            .with_columns(pl.lit(1).alias("_one"))
        )
        out = out.join(ranked_list(skill_rows, keys, "skill", "_one", "skills"), on=keys, how="left")
    else:
        out = out.with_columns(pl.lit(None, pl.List(pl.String)).alias("skills"))
    empty = pl.lit([], dtype=pl.List(pl.String))
    return out.with_columns(pl.col("languages").fill_null(empty), pl.col("skills").fill_null(empty))


def monthly_rollups(
    commits: pl.DataFrame, work_items: pl.DataFrame, file_changes: pl.DataFrame,
    credit: pl.DataFrame | None = None, commit_skills: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Person x month rollup of counted commits. Columns: :data:`MONTHLY_ROLLUPS_SCHEMA`."""
    counted = counted_commits(commits)
    if counted.height == 0:
        return pl.DataFrame(schema=MONTHLY_ROLLUPS_SCHEMA)
    keys = ["person_id", "month"]
    lf = _with_loc(counted, file_changes)
    base = lf.group_by(keys).agg(
        pl.len().cast(pl.Int64).alias("commits"),
        pl.col("loc_added").sum().cast(pl.Int64).alias("lines_added"),
        pl.col("loc_deleted").sum().cast(pl.Int64).alias("lines_deleted"),
        pl.col("lines_added").fill_null(0).sum().cast(pl.Int64).alias("raw_lines_added"),
        pl.col("lines_deleted").fill_null(0).sum().cast(pl.Int64).alias("raw_lines_deleted"),
    )
    repos = ranked_list(lf.with_columns(pl.lit(1).alias("_one")), keys, "repo", "_one", "repos")
    items = _item_counts(credit if credit is not None else work_item_credit(commits, work_items), keys)
    base = _with_languages_and_skills(base, counted, file_changes, commit_skills, keys)
    return (
        base.join(repos, on=keys, how="left")
        .join(items, on=keys, how="left")
        .with_columns(pl.col(c).fill_null(0) for c in ("features", "bugs", "work_items"))
        .select(list(MONTHLY_ROLLUPS_SCHEMA))
        .sort(keys)
        .collect()
        .cast(MONTHLY_ROLLUPS_SCHEMA)
    )


def repo_rollups(
    commits: pl.DataFrame,
    work_items: pl.DataFrame,
    file_changes: pl.DataFrame,
    commit_skills: pl.DataFrame | None = None,
    credit: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Person x repository rollup of counted commits. Columns: :data:`REPO_ROLLUPS_SCHEMA`."""
    counted = counted_commits(commits)
    if counted.height == 0:
        return pl.DataFrame(schema=REPO_ROLLUPS_SCHEMA)
    keys = ["person_id", "repo"]
    lf = _with_loc(counted, file_changes)
    base = lf.group_by(keys).agg(
        pl.col("month").min().alias("first_month"),
        pl.col("month").max().alias("last_month"),
        pl.col("month").n_unique().cast(pl.Int64).alias("months_active"),
        pl.len().cast(pl.Int64).alias("commits"),
        pl.col("loc_added").sum().cast(pl.Int64).alias("lines_added"),
        pl.col("loc_deleted").sum().cast(pl.Int64).alias("lines_deleted"),
        pl.col("lines_added").fill_null(0).sum().cast(pl.Int64).alias("raw_lines_added"),
        pl.col("lines_deleted").fill_null(0).sum().cast(pl.Int64).alias("raw_lines_deleted"),
    )
    out = _with_languages_and_skills(base, counted, file_changes, commit_skills, keys)
    items = _item_counts(credit if credit is not None else work_item_credit(commits, work_items), keys)
    empty = pl.lit([], dtype=pl.List(pl.String))
    return (
        out.join(items, on=keys, how="left")
        .with_columns(
            *(pl.col(c).fill_null(0) for c in ("features", "bugs", "work_items")),
            pl.col("languages").fill_null(empty),
            pl.col("skills").fill_null(empty),
        )
        .select(list(REPO_ROLLUPS_SCHEMA))
        .sort(keys)
        .collect()
        .cast(REPO_ROLLUPS_SCHEMA)
    )
