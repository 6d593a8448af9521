"""Revert and reland chains: whether an item was later reverted, and by which commits; relanded by
which.
"""

from __future__ import annotations

import polars as pl


# A revert of a revert, a merge or a reland goes this many steps down to the commits it names.
MAX_NAMING_DEPTH = 8
# The share of an item's changed lines (of its commits, when it changed no lines) that the
# reverts after its last landing must name for the item to be later reverted.
REVERTED_SHARE = 0.5


def named_commits(named: pl.DataFrame, links: pl.DataFrame, everything: pl.DataFrame,
                  through_relands: bool = True) -> pl.DataFrame:
    """`named` (repo, target_sha, ...) with a row for every commit each row names in effect:
    a merge names the commits it brought in (`merge_sha`, from `merge_pr_membership`: a
    revert of `Merge pull request #N` undoes the pull request's commits, nested merges
    included), and, with `through_relands`, a reland names the change it landed again (a revert
    of the reland undoes that change)."""
    steps = []
    if "merge_sha" in everything.columns:
        steps.append(everything.select("repo", pl.col("merge_sha").alias("target_sha"), pl.col("sha").alias("_next"))
                     .drop_nulls("target_sha"))
    if through_relands and links is not None and links.height:
        steps.append(links.filter(pl.col("link_type") == "relands")
                     .select("repo", pl.col("sha").alias("target_sha"), pl.col("target_sha").alias("_next")))
    if not steps:
        return named
    step = pl.concat(steps).unique()
    out = frontier = named
    for _ in range(MAX_NAMING_DEPTH):
        frontier = (frontier.join(step, on=["repo", "target_sha"], how="inner")
                    .drop("target_sha").rename({"_next": "target_sha"}).select(named.columns)
                    .join(out, on=named.columns, how="anti"))
        if frontier.height == 0:
            break
        out = pl.concat([out, frontier])
    return out


def chain_status(work: pl.DataFrame, links: pl.DataFrame, everything: pl.DataFrame) -> pl.DataFrame:
    """Per item (`_root`): reverted_by, relanded_by, later_reverted.

    The reverts that name one of the item's commits and the relands of the item's change (by
    anyone: `relands` links to an item commit, and the item's own reland commits) are ordered by
    commit time; a revert or reland of a merge names the commits that merge brought in, and a
    revert of a reland names the change it landed again (`named_commits`). The change is
    *later reverted* when the reverts after its last landing (the original or a reland) undo
    most of it: the item's non-revert commits they name carry at least REVERTED_SHARE of the
    item's changed lines (added + deleted of its non-revert commits; of its commits when they
    changed no lines). A revert of one small commit of a large change is a link
    (`commit_links`), not a change that did not land. `reverted_by` lists the reverts after
    the last landing when the change is later reverted, else nothing. Reverts that are all the
    item's own commits and keep its last commit of code revise it. A revert of a revert
    (git's `Reapply`) is a reland, not a revert. `relanded_by` lists the relands.
    """
    empty = pl.DataFrame(schema={"_root": pl.UInt32, "reverted_by": pl.List(pl.String),
                                 "relanded_by": pl.List(pl.String), "later_reverted": pl.Boolean})
    if links is None or links.height == 0 or work.height == 0:
        return empty
    time = pl.col("committed_at") if "committed_at" in work.columns else pl.col("_t")
    is_revert = pl.col("_is_revert") if "_is_revert" in work.columns else pl.lit(False)
    size = (pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0)) \
        if {"lines_added", "lines_deleted"} <= set(work.columns) else pl.lit(0)
    pr = pl.col("pr_number") if "pr_number" in work.columns else pl.lit(None, pl.Int64)
    code = (pl.col("_code_lines").fill_null(0) > 0) if "_code_lines" in work.columns else pl.lit(True)
    members = work.select("repo", "sha", "_root", time.alias("_ct"), is_revert.alias("_rev"),
                          size.cast(pl.Int64).alias("_size"), pr.alias("_pr"), code.alias("_code"))
    relanders = links.filter(pl.col("link_type") == "relands").select("repo", "sha").unique()
    reverts = links.filter(pl.col("link_type") == "reverts").join(relanders, on=["repo", "sha"], how="anti")
    relands = links.filter(pl.col("link_type") == "relands")
    # Commit time of every linking commit (it may be a bot's: `everything` has all commits).
    etime = pl.col("committed_at") if "committed_at" in everything.columns else pl.col("_t")
    times = everything.select("repo", "sha", etime.alias("_et"))
    events = pl.concat([
        named_commits(reverts.select("repo", pl.col("sha").alias("_by"), "target_sha",
                                     pl.lit("revert").alias("_kind")), links, everything),
        named_commits(relands.select("repo", pl.col("sha").alias("_by"), "target_sha",
                                     pl.lit("reland").alias("_kind")), links, everything, through_relands=False),
    ]).join(members.rename({"sha": "target_sha"}).select("repo", "target_sha", "_root", "_rev", "_size"),
            on=["repo", "target_sha"], how="inner")
    events = events.join(links_times(links, times), on=["repo", "_by"], how="left")
    # A commit that came in with a revert, in the revert's own pull request (tornado #3339: the
    # revert of "Remove atexit hook" and a test fix), is that pull request's work: neither the
    # change landed again nor part of what the revert undoes. A pull request that also holds
    # commits the reverts name is the change's own (a revert, then a new attempt, in one PR).
    revert_prs = (
        members.filter(pl.col("_rev") & pl.col("_pr").is_not_null()).select("repo", "_root", "_pr").unique()
        .join(events.filter(pl.col("_kind") == "revert").select("repo", "target_sha").unique()
              .join(members.rename({"sha": "target_sha"}), on=["repo", "target_sha"], how="inner")
              .select("repo", "_root", "_pr").drop_nulls(), on=["repo", "_root", "_pr"], how="anti")
    )
    change = members.join(revert_prs, on=["repo", "_root", "_pr"], how="anti")
    # The item's own landings: its non-revert commits (the original and relands inside it).
    landed = (
        change.join(reverts.select("repo", "sha").unique(), on=["repo", "sha"], how="anti")
        .group_by("_root").agg(pl.col("_ct").max().alias("_landed"))
    )
    whole = change.filter(~pl.col("_rev")).group_by("_root").agg(
        pl.col("_size").sum().alias("_lines"), pl.len().alias("_commits"))
    per = events.group_by("_root").agg(
        pl.col("_by").filter(pl.col("_kind") == "reland").unique().sort().alias("relanded_by"),
        pl.col("_et").filter(pl.col("_kind") == "reland").max().alias("_reland_t"),
        pl.struct("_by", "_et", "target_sha", "_rev", "_size").filter(pl.col("_kind") == "revert").alias("_reverts"),
    )
    per = per.join(landed, on="_root", how="left").with_columns(
        pl.max_horizontal("_landed", "_reland_t").alias("_last_landing")
    )
    after = (
        per.select("_root", "_last_landing", "_reverts").explode("_reverts", empty_as_null=False)
        .unnest("_reverts")
        .filter(pl.col("_by").is_not_null()
                & (pl.col("_et").is_null() | pl.col("_last_landing").is_null() | (pl.col("_et") >= pl.col("_last_landing"))))
    )
    # What those reverts undo: the item's non-revert commits they name, each once.
    undone = (
        after.filter(~pl.col("_rev")).unique(["_root", "target_sha"])
        .group_by("_root").agg(pl.col("_size").sum().alias("_undone_lines"), pl.len().alias("_undone_commits"))
    )
    # Reverts that are all the item's own commits and keep its last commit of code revise the
    # change, they do not take it back: ripgrep's `searcher: fix regression with --line-buffered`
    # backed out the first of two fixes for #3184 and kept the second. (Someone else's revert of
    # a pull request's core leaves its small follow-ups behind: that is the change reverted.)
    last_code = (change.filter(~pl.col("_rev") & pl.col("_code")).sort("_ct", "sha")
                 .group_by("_root").agg(pl.col("sha").last().alias("target_sha")))
    outside = after.join(members.select("_root", pl.col("sha").alias("_by")), on=["_root", "_by"], how="anti").select("_root")
    kept_last = (last_code.join(after.select("_root", "target_sha").unique(), on=["_root", "target_sha"], how="anti")
                 .join(outside, on="_root", how="anti").select("_root"))
    reverted = (
        after.group_by("_root").agg(pl.col("_by").unique().sort().alias("_after"))
        .join(undone, on="_root", how="left").join(whole, on="_root", how="left")
        .with_columns(
            # an item of reverts only (nothing of its own to weigh): any revert after it
            pl.when(pl.col("_commits").fill_null(0) == 0).then(True)
            .when(pl.col("_root").is_in(kept_last["_root"].implode())).then(False)
            .when(pl.col("_lines") > 0)
            .then(pl.col("_undone_lines").fill_null(0) >= REVERTED_SHARE * pl.col("_lines"))
            .otherwise(pl.col("_undone_commits").fill_null(0) >= REVERTED_SHARE * pl.col("_commits"))
            .alias("later_reverted"))
        .select("_root", "later_reverted",
                pl.when(pl.col("later_reverted")).then(pl.col("_after"))
                .otherwise(pl.lit([], pl.List(pl.String))).alias("reverted_by"))
    )
    return (
        per.select("_root", "relanded_by")
        .join(reverted, on="_root", how="full", coalesce=True)
        .with_columns(
            pl.col("reverted_by").fill_null(pl.lit([], pl.List(pl.String))),
            pl.col("relanded_by").fill_null(pl.lit([], pl.List(pl.String))),
            pl.col("later_reverted").fill_null(False),
        )
        .select("_root", "reverted_by", "relanded_by", "later_reverted")
        .cast({"_root": pl.UInt32})
    )


def links_times(links: pl.DataFrame, times: pl.DataFrame) -> pl.DataFrame:
    """(repo, _by, _et): commit time of each linking commit, from `times` (repo, sha, _et)."""
    return links.select("repo", pl.col("sha").alias("_by")).unique().join(
        times.rename({"sha": "_by"}), on=["repo", "_by"], how="left"
    )
