"""Repositories that mirror work done elsewhere: their commits name another repository's PRs.

pytorch/benchmark carries commits exported from pytorch/pytorch (``X-link:`` / ``Pull Request
resolved: https://github.com/pytorch/pytorch/pull/N``): the change was made and reviewed in
pytorch/pytorch. A repository is a mirror of ``source`` when at least :data:`MIRROR_SHARE` of
its counted commits name pull requests of ``source`` and ``source`` is not the repository itself.
"""

from __future__ import annotations

import polars as pl

__all__ = ["MIRROR_SHARE", "mirror_sources"]

MIRROR_SHARE = 0.5
_PR_URL = r"https?://(?:www\.)?github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/pull/\d+"


def _same(repo: pl.Expr, source: pl.Expr) -> pl.Expr:
    """The configured name equals the URL's owner/name, or (a name without owner) its name."""
    r, s = repo.str.to_lowercase(), source.str.to_lowercase()
    return (r == s) | (~r.str.contains("/") & (s.str.split("/").list.last() == r))


def mirror_sources(commits: pl.DataFrame, per_person: bool = False) -> pl.DataFrame:
    """``[repo, mirror_of, commits, total]``: per repository, the source it mirrors (if any).

    With ``per_person`` the shares are of each person's commits in the repository (a
    repository where only some people's work is exported from elsewhere), and the frame starts
    with ``person_id``."""
    counted = commits.filter(pl.col("is_counted").fill_null(False)) if "is_counted" in commits.columns else commits
    keys = ["person_id", "repo"] if per_person else ["repo"]
    totals = counted.group_by(keys).agg(pl.len().alias("total"))
    named = (
        counted.select(*keys, "sha", pl.col("message").fill_null("").str.extract_all(_PR_URL).alias("url"))
        .explode("url", empty_as_null=False).drop_nulls("url")
        .with_columns(pl.col("url").str.extract(_PR_URL, 1).alias("mirror_of"))
        .filter(~_same(pl.col("repo"), pl.col("mirror_of")))
        .unique([*keys, "sha", "mirror_of"])
        .group_by(*keys, "mirror_of").agg(pl.len().alias("commits"))
    )
    return (
        named.join(totals, on=keys)
        .filter(pl.col("commits") >= MIRROR_SHARE * pl.col("total"))
        .sort([*keys, "commits", "mirror_of"], descending=[*([False] * len(keys)), True, False])
        .unique(keys, keep="first", maintain_order=True)
        .select(*keys, "mirror_of", pl.col("commits").cast(pl.Int64), pl.col("total").cast(pl.Int64))
    )
