"""Links between commits: which commit reverts, fixes or relands which.

`commit_links(commits)` returns one row per link with columns

    repo, sha, link_type, target_sha, evidence

`link_type` is `reverts`, `fixes` or `relands`; `target_sha` is always a full sha of a commit in
the same repository (abbreviated shas are resolved by unique prefix; references that match no
commit, or several, are dropped); `evidence` is the text that was matched.

Sources, all read from the full message:

- **reverts**: git's `This reverts commit <sha>.` (any number of them); without a sha,
  `Revert "<subject>"` names the latest earlier commit (by commit time) with exactly that subject
  (then, failing that, the same subject ignoring case, spacing and a trailing `(#123)`).
- **fixes**: Linux-kernel `Fixes: <sha> ("subject")` trailers and prose such as `fixes <sha>`,
  `fix for commit <sha>`, `fixup! ` is not a link (it is a work-in-progress marker).
- **relands**: `Reland "<subject>"`, `Re-land "<subject>"`, `Reland: <subject>`,
  `[reland] <subject>`, `Reland <subject>`, `Reapply "<subject>"` (git's wording for reverting a revert),
  `Reland <sha>` / `relands commit <sha>`, and `Relanding #N` / `Reland of #N` (the commit that
  carries pull request N). When the commit found is itself a revert (a `Reapply` is a revert of
  the revert), the link follows it to the original change.

Vectorised: regex extraction over the table, prefix resolution by one join per distinct
reference length, subject matches by an as-of join. No per-commit Python.
"""

from __future__ import annotations

import polars as pl

LINK_TYPES = ("reverts", "fixes", "relands")

LINKS_SCHEMA: dict[str, pl.DataType] = {
    "repo": pl.String,
    "sha": pl.String,
    "link_type": pl.String,
    "target_sha": pl.String,
    "evidence": pl.String,
}

_SHA = r"[0-9a-fA-F]{7,40}"

# (link_type, regex over the message; group 1 is the sha). Each yields all its matches.
SHA_PATTERNS: list[tuple[str, str]] = [
    ("reverts", rf"(?i)\bthis reverts commit ({_SHA})\b"),
    ("reverts", rf"(?i)^revert(?:s|ed)?:?\s+(?:commit\s+)?({_SHA})\b"),
    ("fixes", rf"(?im)^[ \t]*fixes:[ \t]*(?:commit[ \t]+)?({_SHA})\b(?:[ \t]*\(\"[^\n]*?\"\))?"),
    ("fixes", rf"(?i)\b(?:fix(?:es|ed)?|fix for|fixup for|regression (?:from|in|introduced (?:in|by)))\s+(?:commit\s+|revision\s+)?({_SHA})\b"),
    ("relands", rf"(?i)\b(?:re-?land(?:s|ed|ing)?|reapply|reapplies|reapplied)(?:\s+of)?\s+(?:commit\s+)?({_SHA})\b"),
]

# Subjects that name another commit by its subject: (link_type, regex over the subject; group 1
# is the named subject). Quoted forms take everything up to the last quote, so nested quotes
# (`Revert "Revert "x""`) keep their inner quotes.
SUBJECT_PATTERNS: list[tuple[str, str]] = [
    ("reverts", r'^\s*(?:\[[^\]]*\]\s*)*[Rr]evert\s+"(.+)"\s*(?:\(#\d+\))?\s*$'),
    ("relands", r'(?i)^\s*(?:\[[^\]]*\]\s*)*(?:re-?land(?:ing|ed)?|reapply|reapplied|re-apply|redo|recommit)\s*:?\s+"(.+)"\s*(?:\(#\d+\))?\s*$'),
    ("relands", r'(?i)^\s*(?:re-?land(?:ing|ed)?|reapply|re-apply)\s*:\s+([^"].*?)\s*$'),
    ("relands", r'(?i)^\s*\[\s*re-?land(?:ed|ing)?\s*\]\s*:?\s*(.+?)\s*$'),
    ("relands", r'(?i)^\s*re-?land(?:ed|ing)?\s+([^"#\s].*?)\s*$'),
]

# `Relanding #123`, `Reland of #123`, `Re-land PR #123`.
PR_RELAND = r"(?i)\bre-?land(?:s|ed|ing)?(?:\s+of)?\s+(?:pr\s*|pull request\s*)?#(\d+)\b"

# Pull-request numbers of a commit, as GitHub writes them.
PR_SUFFIX = r"\(#(\d+)\)\s*$"  # squash / rebase merges: `Subject (#123)`
PR_MERGE = r"^Merge pull request #(\d+) from "  # merge commits
PR_RESOLVED = r"(?m)^Pull Request resolved: https?://\S+/pull/(\d+)"  # ghstack / Phabricator export


def pr_number_expr(subject: pl.Expr, message: pl.Expr) -> pl.Expr:
    """The GitHub pull-request number a commit names for itself (Int64, null when none).

    `Merge pull request #N from ...` (merge subject), a `(#N)` suffix on the subject, or a
    `Pull Request resolved: https://github.com/o/r/pull/N` line. `Differential Revision` (a
    Phabricator review) is not a pull request.
    """
    return pl.coalesce(
        subject.str.extract(PR_MERGE, 1),
        subject.str.extract(PR_SUFFIX, 1),
        message.str.extract(PR_RESOLVED, 1),
    ).cast(pl.Int64, strict=False)


def _normalise_subject(subject: pl.Expr) -> pl.Expr:
    return (
        subject.str.replace(r"\s*\(#\d+\)\s*$", "")
        .str.replace_all(r"\s+", " ")
        .str.strip_chars()
        .str.to_lowercase()
    )


def _empty() -> pl.DataFrame:
    return pl.DataFrame(schema=LINKS_SCHEMA)


def _base(commits: pl.DataFrame) -> pl.DataFrame:
    cols = commits.columns
    time = (
        pl.col("committed_at") if "committed_at" in cols
        else pl.col("authored_at") if "authored_at" in cols
        else pl.lit(None, pl.Datetime("us", "UTC"))
    )
    message = pl.col("message") if "message" in cols else pl.lit(None, pl.String)
    subject = pl.col("subject") if "subject" in cols else message.str.extract(r"^([^\n]*)", 1)
    return commits.select(
        pl.col("repo"),
        pl.col("sha").str.to_lowercase(),
        pl.coalesce(subject, message.str.extract(r"^([^\n]*)", 1), pl.lit("")).alias("subject"),
        pl.coalesce(message, subject, pl.lit("")).alias("message"),
        time.alias("time"),
    )


def resolve_prefixes(refs: pl.DataFrame, shas: pl.DataFrame) -> pl.DataFrame:
    """Resolve `refs` (repo, ref, ...) to `target_sha`: the one commit whose sha starts with ref.

    `shas` has repo and sha (full, lower case). Ambiguous or unknown references are dropped.
    One join per distinct reference length.
    """
    if refs.height == 0:
        return refs.with_columns(pl.lit(None, pl.String).alias("target_sha")).head(0)
    refs = refs.with_columns(pl.col("ref").str.to_lowercase(), pl.col("ref").str.len_chars().alias("_len"))
    parts = []
    for length in refs["_len"].unique().to_list():
        prefixes = (
            shas.select("repo", pl.col("sha").str.slice(0, length).alias("ref"), pl.col("sha").alias("target_sha"))
            .group_by("repo", "ref")
            .agg(pl.col("target_sha").first(), pl.len().alias("_n"))
            .filter(pl.col("_n") == 1)
            .drop("_n")
        )
        parts.append(refs.filter(pl.col("_len") == length).join(prefixes, on=["repo", "ref"], how="inner"))
    return pl.concat(parts).drop("_len")


def _latest_earlier(named: pl.DataFrame, base: pl.DataFrame, key: str) -> pl.DataFrame:
    """For rows of `named` (repo, sha, time, link_type, evidence, key): the latest commit of the
    same repo, committed no later than the naming commit, whose `key` equals the row's."""
    out_cols = ["repo", "sha", "link_type", "evidence", "target_sha"]
    if named.height == 0:
        return pl.DataFrame(schema={c: pl.String for c in out_cols})
    candidates = base.filter(pl.col(key).is_in(named[key].unique().implode())).select(
        "repo", pl.col(key), pl.col("sha").alias("target_sha"), pl.col("time").alias("_t")
    )
    joined = named.join(candidates, on=["repo", key], how="inner").filter(
        (pl.col("target_sha") != pl.col("sha"))
        & ((pl.col("_t") <= pl.col("time")) | pl.col("_t").is_null() | pl.col("time").is_null())
    )
    return (
        joined.sort("_t", "target_sha", nulls_last=False)
        .group_by("repo", "sha", "link_type", "evidence", maintain_order=True)
        .last()
        .select(out_cols)
    )


def commit_links(commits: pl.DataFrame) -> pl.DataFrame:
    """Links found in `commits` (needs repo, sha, message and/or subject; committed_at or
    authored_at orders subject matches). Columns: repo, sha, link_type, target_sha, evidence."""
    if commits.height == 0:
        return _empty()
    base = _base(commits)
    shas = base.select("repo", "sha")

    # 1. Shas written in the message.
    found = []
    for link_type, pattern in SHA_PATTERNS:
        hits = base.select(
            "repo", "sha",
            pl.col("message").str.extract_all(pattern).alias("evidence"),
        ).explode("evidence", empty_as_null=False).drop_nulls("evidence")
        if hits.height:
            found.append(
                hits.with_columns(
                    pl.lit(link_type).alias("link_type"),
                    pl.col("evidence").str.extract(pattern, 1).alias("ref"),
                )
            )
    by_sha = resolve_prefixes(pl.concat(found), shas) if found else _empty().with_columns(pl.lit(None, pl.String).alias("ref"))
    by_sha = by_sha.select("repo", "sha", "link_type", "target_sha", "evidence")

    # 2. Subjects naming another commit's subject (only when no sha of that kind was given).
    named = []
    for link_type, pattern in SUBJECT_PATTERNS:
        hits = base.filter(pl.col("subject").str.contains(pattern)).select(
            "repo", "sha", "time",
            pl.lit(link_type).alias("link_type"),
            pl.col("subject").alias("evidence"),
            pl.col("subject").str.extract(pattern, 1).alias("_named"),
        )
        named.append(hits)
    named_df = pl.concat(named).unique(["repo", "sha", "link_type"], keep="first", maintain_order=True)
    have = by_sha.select("repo", "sha", "link_type").unique()
    named_df = named_df.join(have, on=["repo", "sha", "link_type"], how="anti")
    exact = _latest_earlier(named_df.rename({"_named": "subject"}), base, "subject")
    missing = named_df.join(exact.select("repo", "sha", "link_type"), on=["repo", "sha", "link_type"], how="anti")
    base_norm = base.with_columns(_normalise_subject(pl.col("subject")).alias("_norm"))
    loose = _latest_earlier(
        missing.with_columns(_normalise_subject(pl.col("_named")).alias("_norm")).drop("_named"),
        base_norm, "_norm",
    )
    by_subject = pl.concat([exact, loose]).drop_nulls("target_sha")

    # 3. `Relanding #N`: the commit that carries pull request N.
    prs = base.select("repo", "sha", "time", pr_number_expr(pl.col("subject"), pl.col("message")).alias("_pr"))
    carriers = (
        prs.drop_nulls("_pr")
        .sort("time", nulls_last=False)
        .group_by("repo", "_pr", maintain_order=True)
        .first()  # the earliest commit that names the PR (the original landing)
        .select("repo", "_pr", pl.col("sha").alias("target_sha"))
    )
    relanding = base.select(
        "repo", "sha",
        pl.col("message").str.extract(PR_RELAND, 0).alias("evidence"),
        pl.col("message").str.extract(PR_RELAND, 1).cast(pl.Int64, strict=False).alias("_pr"),
    ).drop_nulls("_pr")
    by_pr = relanding.join(carriers, on=["repo", "_pr"], how="inner").select(
        "repo", "sha", pl.lit("relands").alias("link_type"), "target_sha", "evidence"
    )

    cols = list(LINKS_SCHEMA)
    links = pl.concat([df.select(cols).cast(LINKS_SCHEMA) for df in (by_sha, by_subject, by_pr)]).filter(pl.col("sha") != pl.col("target_sha"))

    # A reland that names a revert (a Reapply is a revert of the revert) relands what that
    # revert reverted.
    reverts = links.filter(pl.col("link_type") == "reverts").select(
        "repo", pl.col("sha").alias("target_sha"), pl.col("target_sha").alias("_original")
    ).unique(["repo", "target_sha"], keep="first")
    links = (
        links.join(reverts, on=["repo", "target_sha"], how="left")
        .with_columns(
            pl.when((pl.col("link_type") == "relands") & pl.col("_original").is_not_null())
            .then(pl.col("_original")).otherwise(pl.col("target_sha")).alias("target_sha")
        )
        .drop("_original")
    )
    # `Reapply "x"` written by git also says `This reverts commit <revert>`: that is a revert of
    # the revert, reported as both; the reland row carries the original.
    reapply = (
        links.filter(pl.col("link_type") == "reverts")
        .join(reverts.rename({"_original": "_orig2"}), on=["repo", "target_sha"], how="inner")
        .select("repo", "sha", pl.lit("relands").alias("link_type"), pl.col("_orig2").alias("target_sha"), "evidence")
    )
    links = pl.concat([links.select(cols), reapply.select(cols)]).filter(pl.col("sha") != pl.col("target_sha"))
    return (
        links.unique(["repo", "sha", "link_type", "target_sha"], keep="first", maintain_order=True)
        .select(list(LINKS_SCHEMA))
        .cast(LINKS_SCHEMA)
    )
