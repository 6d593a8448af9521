"""Links between commits: which commit reverts, fixes or relands which.

`commit_links(commits)` returns one row per link with columns

    repo, sha, link_type, target_sha, evidence

`link_type` is `reverts`, `fixes` or `relands`; `target_sha` is always a full sha of a commit in
the same repository (abbreviated shas are resolved by unique prefix; references that match no
commit, or several, are dropped); `evidence` is the text that was matched.

Sources, all read from the full message:

- **reverts**: git's `This reverts commit <sha>.` (any number of them); without a sha,
  `Revert "<subject>"` names the latest earlier commit (by commit time) with exactly that subject
  (then, failing that, the same subject ignoring case, spacing and a trailing `(#123)`, then
  also a Conventional-Commit type on either side: `revert(oidc): use the new issuer` names
  `fix: use the new issuer`).
- **fixes**: Linux-kernel `Fixes: <sha> ("subject")` trailers and prose such as `fixes <sha>`,
  `fix for commit <sha>`, `broken by <sha>`, a subject `Fix ... for <sha>`; `fixup! ` is not a
  link (it is a work-in-progress marker).
- **relands**: `Reland "<subject>"`, `Re-land "<subject>"`, `Reland: <subject>`,
  `[reland] <subject>`, `Reland <subject>`, `Reapply "<subject>"` (git's wording for reverting a revert),
  `Reland <sha>` / `relands commit <sha>`, and `Relanding #N` / `Reland of #N` (the commit that
  carries pull request N). When the commit found is itself a revert (a `Reapply` is a revert of
  the revert), the link follows it to the original change. And without any wording: the first
  commit after a revert whose subject is the reverted change's own (ignoring case, spacing,
  tags and `(#N)`; at least MIN_RELAND_SUBJECT_WORDS words) lands it again.

Vectorised: regex extraction over the table, prefix resolution by one join per distinct
reference length, subject matches by an as-of join. No per-commit Python.
"""

from __future__ import annotations

import polars as pl

from exceeds_pipeline.classify.conventional import PREFIX

LINK_TYPES = ("reverts", "fixes", "relands")

LINKS_SCHEMA: dict[str, pl.DataType] = {
    "repo": pl.String,
    "sha": pl.String,
    "link_type": pl.String,
    "target_sha": pl.String,
    "evidence": pl.String,
    "author_email": pl.String,
}

_SHA = r"[0-9a-fA-F]{7,40}"

# (link_type, regex over the message; group 1 is the sha). Each yields all its matches.
SHA_PATTERNS: list[tuple[str, str]] = [
    ("reverts", rf"(?i)\bthis reverts commit ({_SHA})\b"),
    ("reverts", rf"(?i)^revert(?:s|ed)?:?\s+(?:commit\s+)?({_SHA})\b"),
    ("fixes", rf"(?im)^[ \t]*fixes:[ \t]*(?:commit[ \t]+)?({_SHA})\b(?:[ \t]*\(\"[^\n]*?\"\))?"),
    ("fixes", rf"(?i)\b(?:fix(?:es|ed)?|fix for|fixup for|regression (?:from|in|introduced (?:in|by)))\s+(?:commit\s+|revision\s+)?({_SHA})\b"),
    # jq's `Fix tests/shtest broken by 2b4d51f`, `Fix tests/jq.test for c72ed135`
    ("fixes", rf"(?i)\b(?:broken|introduced|caused|regressed)\s+(?:by|in)\s+(?:commit\s+|revision\s+)?({_SHA})\b"),
    ("fixes", rf"(?i)^\W*fix(?:es|ed)?\b[^\n]{{0,80}}?\s(?:for|after)\s+(?:commit\s+)?({_SHA})\b"),
    ("relands", rf"(?i)\b(?:re-?land(?:s|ed|ing)?|reapply|reapplies|reapplied)(?:\s+of)?\s+(?:commit\s+)?({_SHA})\b"),
]

# Subjects that name another commit by its subject: (link_type, regex over the subject; group 1
# is the named subject). Quoted forms take everything up to the last quote, so nested quotes
# (`Revert "Revert "x""`) keep their inner quotes.
SUBJECT_PATTERNS: list[tuple[str, str]] = [
    ("reverts", r'^\s*(?:\[[^\]]*\]\s*)*[Rr]evert(?:\s+|!?:\s*)"(.+)"(?:\s*\(?#\d+\)?)*\s*$'),
    # Phabricator: `Revert D123: <subject>`.
    ("reverts", r'(?i)^\s*(?:\[[^\]]*\]\s*)*revert\s+D\d+\s*:\s*(.+?)\s*$'),
    # Conventional Commits: `revert(auth): <subject>` (`revert: <subject>` is the free form below).
    ("reverts", r'(?i)^\s*revert\([^)\n]{0,80}\)!?:\s*"?(.+?)"?\s*$'),
    # Free-form: `revert map/zip iterator related changes`, `Revert: <subject>`.
    ("reverts", r'(?i)^\s*(?:\[[^\]]*\]\s*)*revert(?:s|ed|ing)?\s*:?\s+([^"\'#\s].*?)\s*$'),
    ("relands", r'(?i)^\s*(?:\[[^\]]*\]\s*)*(?:re-?land(?:ing|ed)?|reapply|reapplied|re-apply|redo|recommit)\s*:?\s+"(.+)"\s*(?:\(#\d+\))?\s*$'),
    ("relands", r'(?i)^\s*(?:re-?land(?:ing|ed)?|reapply|re-apply)\s*:\s+([^"].*?)\s*$'),
    ("relands", r'(?i)^\s*\[\s*re-?land(?:ed|ing)?\s*\]\s*:?\s*(.+?)\s*$'),
    ("relands", r'(?i)^\s*re-?land(?:ed|ing)?\s+([^"#\s].*?)\s*$'),
]

# `Revert D123` (no subject): the commit whose `Differential Revision:` names D123.
PHAB_REVERT = r"(?i)^\s*(?:\[[^\]]*\]\s*)*revert\s+(D\d+)\b"
PHAB_DIFF = r"(?im)^differential revision:\s*(?:\n\s*)?(?:https?://\S*/)?(D\d+)\b"
# `Revert #123`, `Revert #1, #2, #3`, `Revert PR #12`, black's `Back out #850 (#1079)`, `Roll back
# #12`: the commits that carry those pull requests.
PR_REVERT = (r"(?i)^\s*(?:revert(?:s|ed)?|back(?:s|ed)?[\s-]?out|roll(?:s|ed)?[\s-]?back)\s+(?:pr\s*|pull request\s*)?"
             r"(#\d+(?:\s*(?:,|and)\s*#\d+)*)\s*(?:\(#\d+\))?\s*$")
# `Relanding #123`, `Reland of #123`, `Re-land PR #123`.
PR_RELAND = r"(?i)\bre-?land(?:s|ed|ing)?(?:\s+of)?\s+(?:pr\s*|pull request\s*)?#(\d+)\b"

# Pull-request numbers of a commit, as GitHub writes them.
PR_SUFFIX = r"\(#(\d+)\)\s*$"  # squash / rebase merges: `Subject (#123)`
# GitHub's merge of a pull request, up to its number, with or without `#` (18 of serde's merges
# read `Merge pull request 2879 from ...`): every rule that reads such a merge starts with it
PR_MERGE_HEAD = r"Merge pull request #?"
PR_MERGE = rf"^{PR_MERGE_HEAD}(\d+)\b"  # merge commits, with or without `from <branch>`
PR_RESOLVED = r"(?m)^Pull Request resolved: https?://\S+/pull/(\d+)"  # ghstack / Phabricator export


def pr_number_expr(subject: pl.Expr, message: pl.Expr) -> pl.Expr:
    """The GitHub pull-request number a commit names for itself (Int64, null when none).

    `Merge pull request #N ...` (merge subject), a `(#N)` suffix on the subject, or a
    `Pull Request resolved: https://github.com/o/r/pull/N` line. `Differential Revision` (a
    Phabricator review) is not a pull request, and the `(#N)` that ends a Phabricator revert's
    subject (`Revert D123: <subject> (#N)`) is the reverted change's, not the revert's.
    """
    suffix = pl.when(subject.str.contains(PHAB_REVERT)).then(pl.lit(None, pl.String)).otherwise(
        subject.str.extract(PR_SUFFIX, 1)
    )
    return pl.coalesce(
        subject.str.extract(PR_MERGE, 1),
        suffix,
        message.str.extract(PR_RESOLVED, 1),
    ).cast(pl.Int64, strict=False)


def _normalise_subject(subject: pl.Expr) -> pl.Expr:
    return (
        subject.str.replace(r"(?:\s*\(?#\d+\)?)+\s*$", "")
        .str.replace(r'^\s*"(.*)"\s*$', "$1")
        .str.replace(r"^(?:\s*\[[^\]\n]*\])+\s*", "")
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
    email = pl.col("author_email") if "author_email" in cols else pl.lit(None, pl.String)
    return commits.select(
        pl.col("repo"),
        pl.col("sha").str.to_lowercase(),
        pl.coalesce(subject, message.str.extract(r"^([^\n]*)", 1), pl.lit("")).alias("subject"),
        pl.coalesce(message, subject, pl.lit("")).alias("message"),
        time.alias("time"),
        email.alias("author_email"),
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


def _by_sha(base: pl.DataFrame) -> pl.DataFrame:
    """Shas written in the message (`This reverts commit <sha>`, `Fixes: <sha>`, ...), resolved
    to commits of the repository; shas from elsewhere are dropped (subjects may still match)."""
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
    if not found:
        return pl.DataFrame(schema={c: pl.String for c in ("repo", "sha", "link_type", "target_sha", "evidence")})
    return resolve_prefixes(pl.concat(found), base.select("repo", "sha")).select(
        "repo", "sha", "link_type", "target_sha", "evidence"
    )


def _named_subjects(base: pl.DataFrame) -> pl.DataFrame:
    """Subjects that name another commit's subject: (repo, sha, time, link_type, evidence, _named);
    the first pattern of SUBJECT_PATTERNS that matches, per commit and link type."""
    named = []
    for link_type, pattern in SUBJECT_PATTERNS:
        named.append(
            base.filter(pl.col("subject").str.contains(pattern)).select(
                "repo", "sha", "time",
                pl.lit(link_type).alias("link_type"),
                pl.col("subject").alias("evidence"),
                pl.col("subject").str.extract(pattern, 1).alias("_named"),
            )
        )
    return pl.concat(named).unique(["repo", "sha", "link_type"], keep="first", maintain_order=True)


def _by_subject(named: pl.DataFrame, base: pl.DataFrame) -> pl.DataFrame:
    """The latest earlier commit with the named subject: exactly, else ignoring case, spacing,
    surrounding quotes and trailing `(#N)`, else also ignoring a Conventional-Commit type on
    either side (`revert: use the new issuer` names `fix: use the new issuer`)."""
    key = ["repo", "sha", "link_type"]
    exact = _latest_earlier(named.rename({"_named": "subject"}), base, "subject")
    missing = named.join(exact.select(key), on=key, how="anti")
    base_norm = base.with_columns(_normalise_subject(pl.col("subject")).alias("_norm"))
    loose = _latest_earlier(
        missing.with_columns(_normalise_subject(pl.col("_named")).alias("_norm")).drop("_named"),
        base_norm, "_norm",
    )
    missing = missing.join(loose.drop_nulls("target_sha").select(key), on=key, how="anti")
    untyped = _latest_earlier(
        missing.with_columns(_normalise_subject(pl.col("_named").str.replace(PREFIX, "")).alias("_norm"))
        .drop("_named").filter(pl.col("_norm") != ""),
        base.with_columns(_normalise_subject(pl.col("subject").str.replace(PREFIX, "")).alias("_norm")),
        "_norm",
    )
    return pl.concat([exact, loose, untyped]).drop_nulls("target_sha")


def _pr_carriers(base: pl.DataFrame) -> pl.DataFrame:
    """(repo, _pr, target_sha): the earliest commit that names pull request N (its landing)."""
    prs = base.select("repo", "sha", "time", pr_number_expr(pl.col("subject"), pl.col("message")).alias("_pr"))
    return (
        prs.drop_nulls("_pr")
        .sort("time", nulls_last=False)
        .group_by("repo", "_pr", maintain_order=True)
        .first()
        .select("repo", "_pr", pl.col("sha").alias("target_sha"))
    )


def _by_pr(base: pl.DataFrame) -> pl.DataFrame:
    """`Relanding #N` -> relands, `Revert #N, #M` -> reverts: the commits carrying those PRs."""
    carriers = _pr_carriers(base)
    relanding = base.select(
        "repo", "sha", pl.lit("relands").alias("link_type"),
        pl.col("message").str.extract(PR_RELAND, 0).alias("evidence"),
        pl.col("message").str.extract(PR_RELAND, 1).cast(pl.Int64, strict=False).alias("_pr"),
    ).drop_nulls("_pr")
    reverting = (
        base.filter(pl.col("subject").str.contains(PR_REVERT))
        .select(
            "repo", "sha", pl.lit("reverts").alias("link_type"), pl.col("subject").alias("evidence"),
            pl.col("subject").str.extract(PR_REVERT, 1).str.extract_all(r"\d+").alias("_pr"),
        )
        .explode("_pr", empty_as_null=False)
        .with_columns(pl.col("_pr").cast(pl.Int64, strict=False))
    )
    return pl.concat([relanding, reverting]).join(carriers, on=["repo", "_pr"], how="inner").select(
        "repo", "sha", "link_type", "target_sha", "evidence"
    )


# GitHub's revert button: a branch `revert-<N>-<branch>` whose pull request reverts pull request N.
REVERT_BRANCH = rf"(?i)^{PR_MERGE_HEAD}\d+ from [^/\s]+/revert-(\d+)-\S*"


def _by_revert_branch(commits: pl.DataFrame, base: pl.DataFrame, found: pl.DataFrame) -> pl.DataFrame:
    """The revert on a `revert-<N>-...` branch that GitHub's revert button made reverts pull
    request N (its landing, `_pr_carriers`), when its subject names none of the commits:
    urfave/cli's `Revert "Feature:(issue_1071) Add check for duplicated flags"` quotes the pull
    request's title, which no commit has. The next pull request from pull request N's branch
    relands it."""
    cols = ["repo", "sha", "link_type", "target_sha", "evidence"]
    if "parents" not in commits.columns:
        return pl.DataFrame(schema={c: pl.String for c in cols})
    time = pl.col("committed_at") if "committed_at" in commits.columns else pl.col("authored_at")
    # every pull request merge, once: its branch's tip (second parent), its number and branch,
    # and the pull request it reverts when GitHub's revert button named the branch
    pull_merges = (commits.filter(pl.col("parents").list.len() >= 2)
                   .select("repo", pl.col("subject").alias("evidence"), time.alias("_mt"),
                           pl.col("parents").list.get(1).str.to_lowercase().alias("_tip"),
                           pl.col("subject").str.extract(REVERT_BRANCH, 1).cast(pl.Int64, strict=False).alias("_reverted"),
                           pl.col("subject").str.extract_groups(rf"(?i)^{PR_MERGE_HEAD}(?<_pr>\d+) from (?<_branch>\S+)")
                           .struct.unnest())
                   .with_columns(pl.col("_pr").cast(pl.Int64, strict=False)))
    tips = (pull_merges.drop_nulls("_reverted")
            .select("repo", "evidence", pl.col("_tip").alias("sha"), pl.col("_reverted").alias("_pr"), pl.col("_mt").alias("_rt"))
            .join(base.filter(pl.col("subject").str.contains(r"(?i)^\s*revert\b")).select("repo", "sha"),
                  on=["repo", "sha"], how="semi")
            .join(found.filter(pl.col("link_type") == "reverts").select("repo", "sha"), on=["repo", "sha"], how="anti"))
    reverts = tips.join(_pr_carriers(base), on=["repo", "_pr"], how="inner")
    # ... and the next pull request merged from the reverted one's branch, after the revert,
    # lands it again (urfave/cli's #1638 from dearchap/issue_1071, after #1636 from it was reverted)
    branches = pull_merges.drop_nulls(["_pr", "_branch"]).select("repo", "_pr", "_branch", "_mt", "_tip")
    relands = (reverts.join(branches.select("repo", "_pr", "_branch"), on=["repo", "_pr"], how="inner")
               .join(branches.rename({"_pr": "_next_pr"}), on=["repo", "_branch"], how="inner")
               .filter((pl.col("_next_pr") != pl.col("_pr")) & (pl.col("_mt") > pl.col("_rt")))
               .sort("_mt").group_by("repo", "_pr", maintain_order=True).first()
               .select("repo", pl.col("_tip").alias("sha"), pl.lit("relands").alias("link_type"), "target_sha",
                       pl.format("Merge pull request #{} from {}", pl.col("_next_pr"), pl.col("_branch")).alias("evidence")))
    return pl.concat([reverts.select("repo", "sha", pl.lit("reverts").alias("link_type"), "target_sha", "evidence"),
                      relands.join(base.select("repo", "sha"), on=["repo", "sha"], how="semi")])


def _by_phabricator(base: pl.DataFrame) -> pl.DataFrame:
    """`Revert D123` -> the commit whose `Differential Revision:` is D123 (the earliest)."""
    reverting = base.select(
        "repo", "sha", pl.col("subject").alias("evidence"),
        pl.col("subject").str.extract(PHAB_REVERT, 1).str.to_uppercase().alias("_diff"),
    ).drop_nulls("_diff")
    if reverting.height == 0:
        return pl.DataFrame(schema={c: pl.String for c in ("repo", "sha", "link_type", "target_sha", "evidence")})
    diffs = (
        base.filter(~pl.col("subject").str.contains(r"(?i)^\s*revert\b"))
        .select("repo", pl.col("sha").alias("target_sha"), "time",
                pl.col("message").str.extract(PHAB_DIFF, 1).str.to_uppercase().alias("_diff"))
        .drop_nulls("_diff")
        .sort("time", nulls_last=False)
        .unique(["repo", "_diff"], keep="first", maintain_order=True)
    )
    return reverting.join(diffs, on=["repo", "_diff"], how="inner").select(
        "repo", "sha", pl.lit("reverts").alias("link_type"), "target_sha", "evidence"
    )


def _reland_of_revert(named: pl.DataFrame, found: pl.DataFrame) -> pl.DataFrame:
    """A reland that matched no commit but names what an earlier revert named (`revert X
    changes` ... `reland X changes`) relands what that revert reverted, or the revert itself
    when that is unknown."""
    relands = named.filter(pl.col("link_type") == "relands").join(
        found.filter(pl.col("link_type") == "relands").select("repo", "sha"), on=["repo", "sha"], how="anti"
    )
    reverts = named.filter(pl.col("link_type") == "reverts").select(
        "repo", pl.col("sha").alias("_rsha"), pl.col("time").alias("_rt"),
        _normalise_subject(pl.col("_named")).alias("_norm"),
    )
    if relands.height == 0 or reverts.height == 0:
        return pl.DataFrame(schema={c: pl.String for c in ("repo", "sha", "link_type", "target_sha", "evidence")})
    joined = (
        relands.with_columns(_normalise_subject(pl.col("_named")).alias("_norm"))
        .join(reverts, on=["repo", "_norm"], how="inner")
        .filter((pl.col("_rsha") != pl.col("sha")) & ((pl.col("_rt") <= pl.col("time")) | pl.col("_rt").is_null()))
        .sort("_rt", nulls_last=False)
        .group_by("repo", "sha", maintain_order=True)
        .last()
    )
    return joined.select("repo", "sha", "link_type", pl.col("_rsha").alias("target_sha"), "evidence")


# A reland by subject alone names its change in at least this many words (`Update README`, said
# again after a revert, is no reland of it).
MIN_RELAND_SUBJECT_WORDS = 4


def _same_subject_relands(links: pl.DataFrame, base: pl.DataFrame) -> pl.DataFrame:
    """A change that was reverted and then landed again under the same subject (ignoring case,
    spacing, tags and `(#N)`), without reland wording: the first such commit after the revert
    relands it (fzf: `[shell][zsh] Don't resolve symlinks in ALT-c (#4816) (#4817)`, reverted,
    then landed again by its co-author as `... (#4816)`)."""
    cols = ["repo", "sha", "link_type", "target_sha", "evidence"]
    reverts = links.filter(pl.col("link_type") == "reverts").select("repo", pl.col("sha").alias("_by"), "target_sha")
    if reverts.height == 0:
        return pl.DataFrame(schema={c: pl.String for c in cols})
    norm = base.select("repo", "sha", "time", _normalise_subject(pl.col("subject")).alias("_norm"))
    linked = links.filter(pl.col("link_type").is_in(["reverts", "relands"])).select("repo", "sha").unique()
    targets = (
        reverts.join(linked.rename({"sha": "target_sha"}), on=["repo", "target_sha"], how="anti")  # not a revert itself
        .join(norm.select("repo", pl.col("sha").alias("target_sha"), "_norm"), on=["repo", "target_sha"])
        .join(norm.select("repo", pl.col("sha").alias("_by"), pl.col("time").alias("_rt")), on=["repo", "_by"])
        .filter(pl.col("_norm").str.count_matches(r"\S+") >= MIN_RELAND_SUBJECT_WORDS)
    )
    return (
        targets.join(norm, on=["repo", "_norm"])
        .join(linked, on=["repo", "sha"], how="anti")
        .filter((pl.col("sha") != pl.col("target_sha")) & (pl.col("time") > pl.col("_rt")))
        .sort("time", "sha")
        .group_by("repo", "target_sha", maintain_order=True).first()
        .select("repo", "sha", pl.lit("relands").alias("link_type"), "target_sha",
                pl.lit("the reverted change's subject, landed again").alias("evidence"))
    )


def undoing_commits(links: pl.DataFrame) -> pl.DataFrame:
    """(repo, sha) of the commits that undo a change: they revert one and reland nothing. A
    reland (git's `Reapply "…"`, `This reverts commit <the revert>`) also reverts a revert; it
    re-does the change, so it is the change, not a revert."""
    if links.height == 0:
        return pl.DataFrame(schema={"repo": pl.String, "sha": pl.String})
    return (
        links.filter(pl.col("link_type") == "reverts").select("repo", "sha").unique()
        .join(links.filter(pl.col("link_type") == "relands").select("repo", "sha"), on=["repo", "sha"], how="anti")
    )


MAX_REVERT_DEPTH = 8


def revert_depths(links: pl.DataFrame) -> pl.DataFrame:
    """(repo, sha, evidence, _original, _depth) for every reverting commit: follow `reverts`
    links down to a commit that reverts nothing (the original change); depth 1 is a plain
    revert, 2 a revert of a revert (a reland), 3 a revert of that, and so on."""
    reverts = links.filter(pl.col("link_type") == "reverts")
    # A commit that reverts several (laravel's `[5.6] Revert #22517 (#22533)` names a change and
    # the revert of it) follows the one that is no revert itself, then the smallest sha: one
    # answer whatever order the links were found in (its category had changed between runs).
    is_revert = pl.struct("repo", "target_sha").is_in(reverts.select("repo", pl.col("sha").alias("target_sha")).to_struct().implode())
    step = (reverts.with_columns(is_revert.alias("_target_reverts"))
            .sort("repo", "sha", "_target_reverts", "target_sha")
            .unique(["repo", "sha"], keep="first", maintain_order=True).drop("_target_reverts"))
    nxt = step.select("repo", pl.col("sha").alias("_original"), pl.col("target_sha").alias("_next"))
    cur = step.select("repo", "sha", "evidence", pl.col("target_sha").alias("_original"), pl.lit(1).alias("_depth"))
    for _ in range(MAX_REVERT_DEPTH):
        moved = cur.join(nxt, on=["repo", "_original"], how="left")
        if moved["_next"].null_count() == moved.height:
            break
        cur = moved.with_columns(
            pl.coalesce("_next", "_original").alias("_original"),
            (pl.col("_depth") + pl.col("_next").is_not_null().cast(pl.Int32)).alias("_depth"),
        ).drop("_next")
    return cur


def commit_links(commits: pl.DataFrame) -> pl.DataFrame:
    """Links found in `commits` (needs repo, sha, message and/or subject; committed_at or
    authored_at orders subject matches). Columns: repo, sha, link_type, target_sha, evidence,
    author_email (of the commit that reverts, fixes or relands)."""
    if commits.height == 0:
        return _empty()
    base = _base(commits)
    cols = ["repo", "sha", "link_type", "target_sha", "evidence"]
    schema = {c: pl.String for c in cols}

    by_sha = _by_sha(base)
    found = pl.concat([by_sha.select(cols).cast(schema), _by_phabricator(base).cast(schema), _by_pr(base).cast(schema)])
    # Subjects naming another commit: only where no sha/number of that kind was resolved.
    named = _named_subjects(base)
    unresolved = named.join(found.select("repo", "sha", "link_type").unique(), on=["repo", "sha", "link_type"], how="anti")
    by_subject = _by_subject(unresolved, base)
    found = pl.concat([found, by_subject.select(cols).cast(schema)])
    found = pl.concat([found, _reland_of_revert(named, found).cast(schema)])
    found = pl.concat([found, _by_revert_branch(commits, base, found).cast(schema)])
    links = found.filter(pl.col("sha") != pl.col("target_sha"))

    # Reverts of reverts: a revert at even depth (git's `Reapply`: a revert of a revert) relands
    # the original change; at odd depth (a revert of a reapply) it reverts it again. A reland
    # that names a revert relands what that revert reverted.
    depth = revert_depths(links)
    links = (
        links.join(depth.select("repo", pl.col("sha").alias("target_sha"), "_original", "_depth"),
                   on=["repo", "target_sha"], how="left")
        .with_columns(
            pl.when((pl.col("link_type") == "relands") & pl.col("_original").is_not_null()
                    & (pl.col("_depth") % 2 == 1))
            .then(pl.col("_original")).otherwise(pl.col("target_sha")).alias("target_sha")
        )
        .select(cols)
    )
    reapply = depth.filter(pl.col("_depth") % 2 == 0).select(
        "repo", "sha", pl.lit("relands").alias("link_type"), pl.col("_original").alias("target_sha"), "evidence"
    )
    links = pl.concat([links.select(cols), reapply.select(cols)]).filter(pl.col("sha") != pl.col("target_sha"))
    links = pl.concat([links, _same_subject_relands(links, base).cast(schema)])
    authors = base.select("repo", "sha", "author_email").unique(["repo", "sha"])
    return (
        links.unique(["repo", "sha", "link_type", "target_sha"], keep="first", maintain_order=True)
        .join(authors, on=["repo", "sha"], how="left")
        .select(list(LINKS_SCHEMA))
        .cast(LINKS_SCHEMA)
    )
