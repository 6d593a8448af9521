"""Work items: the commits that belong to one change.

`assign_work_items(commits, links, file_changes) -> (commits, work_items)`

Input `commits` has RAW_COMMITS_SCHEMA columns plus `person_id` and `category` (and `is_bot`;
missing means no bots). `links` is `links.commit_links(commits)`; `file_changes` is
RAW_FILE_CHANGES_SCHEMA (may be empty).

Output: the commits (same rows, same order) with `work_item_id` (String) and `pr_number`
(Int64), and the work-item table with columns

    work_item_id, repo, person_id, category, title, first_at, last_at, commits,
    lines_added, lines_deleted, pr_number

**Which commits are work.** Non-merge commits by non-bots. Merge commits are not work: a merge
gets the work item of its pull request when that item exists, else null. Bot commits get null.
Copies of a change counted in another repository (`_copy`, from `history.counted_once`) are not
work either; `counted_once.inherit_work_items` gives them the item of the counting copy.

**What joins commits into one item** (connected components of these relations):

1. *Same pull request* in the same repo. A commit's PR number comes from a `(#123)` subject
   suffix (squash/rebase merges), a `Pull Request resolved: https://.../pull/123` line, or from
   the GitHub merge that brought it in: the commits reachable from the second parent of
   `Merge pull request #123 from ...` and not from the mainline. That set is computed for every
   merge at once by one walk of the first-parent chain, oldest first, visiting each commit once.
   `Differential Revision:` lines are reviews, not pull requests.
2. *Revert and reland*: a revert, what it reverts and the reland are one item (`reverts` and
   `relands` links; `fixes` links are not: a fix of an older change is its own bug-fix item).
3. *Numbered series* of one author in one repo: `[1/3]`, `[PATCH v2 2/5]`, `PATCH 2/5`,
   `2/5:`, `(part 3)`, `part 2 of 4`; parts of the same series (same total, or same subject
   once the part number is removed) no more than SERIES_GAP apart.
4. *Closely related consecutive commits* of one author in one repo: consecutive commits (by
   author time) of the same person, no more than RELATED_GAP (48 hours) apart, neither in a
   pull request (a PR is its own item), AND evidently related: the same component tag or
   conventional scope (`[dynamo]`, `feat(parser):`, `parser:`), or at least one changed file in
   common (ignoring changelogs, lock files and similar files everyone touches), or strongly
   overlapping subject words (at least two shared content words and a Jaccard overlap of at
   least 0.5). Two unrelated commits on the same day stay two items.

**Item fields.** `work_item_id` is `<repo>#pr-<N>` when the item has a pull request (the PR of
its earliest commit) and `<repo>@<first 12 hex of its earliest commit>` otherwise: stable across
runs and printable. `person_id` is the person with the most non-revert commits in the item (ties:
the earliest commit's author). `category`:

- revert commits are set aside (an item made only of reverts is `revert`); so a revert + reland
  item takes the category of the original change;
- if the earliest remaining commit is a feature or a bug fix, that is the item's category: what
  the change set out to do (a feature stays a feature when a fix follows inside it);
- otherwise the most common category among the remaining commits, ties broken by significance:
  feature, bug, perf, refactor, docs, test, build, chore, other.

`title`: the pull request's title when a GitHub merge carries it (the first body line of
`Merge pull request #N`), else the subject of the earliest non-revert commit with tags,
conventional prefix, series numbering and `(#N)` removed. `first_at`/`last_at`: earliest and
latest author time; `commits`, `lines_added`, `lines_deleted`: over the item's commits.
"""

from __future__ import annotations

from datetime import timedelta

import polars as pl

from exceeds_pipeline.classify.links import PR_MERGE, pr_number_expr

RELATED_GAP = timedelta(hours=48)
SERIES_GAP = timedelta(days=30)

SIGNIFICANCE = ("feature", "bug", "perf", "refactor", "docs", "test", "build", "chore", "other")

WORK_ITEMS_SCHEMA: dict[str, pl.DataType] = {
    "work_item_id": pl.String,
    "repo": pl.String,
    "person_id": pl.String,
    "category": pl.String,
    "title": pl.String,
    "first_at": pl.Datetime("us", "UTC"),
    "last_at": pl.Datetime("us", "UTC"),
    "commits": pl.Int64,
    "lines_added": pl.Int64,
    "lines_deleted": pl.Int64,
    "pr_number": pl.Int64,
}

# Numbered series: (regex over the subject; group "k" = part, "n" = total when given).
_SERIES = (
    r"(?i)\[(?:[a-z ]*patch[a-z ]*\s+)?(?:v\d+\s+)?(?P<k1>\d{1,3})\s*/\s*(?P<n1>\d{1,3})\]"
    r"|^\s*patch\s+(?:v\d+\s+)?(?P<k2>\d{1,3})/(?P<n2>\d{1,3})\b"
    r"|^\s*(?P<k3>\d{1,3})/(?P<n3>\d{1,3})\s*[:\-]"
    r"|\(\s*(?:part|pt\.?)\s*(?P<k4>\d{1,3})(?:\s*(?:of|/)\s*(?P<n4>\d{1,3}))?\s*\)"
    r"|\bpart\s+(?P<k5>\d{1,3})(?:\s+of\s+(?P<n5>\d{1,3}))?\b"
)
_SERIES_STRIP = (
    r"(?i)\[(?:[a-z ]*patch[a-z ]*\s+)?(?:v\d+\s+)?\d{1,3}\s*/\s*\d{1,3}\]\s*"
    r"|^\s*patch\s+(?:v\d+\s+)?\d{1,3}/\d{1,3}\s*:?\s*"
    r"|^\s*\d{1,3}/\d{1,3}\s*[:\-]\s*"
    r"|\s*\(\s*(?:part|pt\.?)\s*\d{1,3}(?:\s*(?:of|/)\s*\d{1,3})?\s*\)"
    r"|,?\s*\bpart\s+\d{1,3}(?:\s+of\s+\d{1,3})?\b"
)

_GENERIC_TAGS = r"(?i)^(?:wip|rfc|draft|patch.*|v\d+|\d+\s*/\s*\d+|resend|reland|re-land|revert|nfc|nfci|skip ci|ci skip|minor|trivial|hotfix|fix|bug|feature|test|tests|docs?)$"
_CONV_SCOPE = r"^\s*[A-Za-z]+\(([^)\n]{1,60})\)!?:"
_COMPONENT_PREFIX = r"^\s*([A-Za-z0-9_][A-Za-z0-9_./-]{0,40}):\s"
_NOT_COMPONENT = r"(?i)^(?:feat|feature|fix|bugfix|hotfix|perf|refactor|style|docs?|tests?|build|ci|deps|chore|release|revert|wip|merge|reland|reapply|note|todo|fixes|closes|see|bug|issue)$"

# Files that unrelated changes touch alike.
GENERIC_FILES = (
    r"(?i)(?:^|/)(?:CHANGELOG|CHANGES|NEWS|HISTORY|RELEASE[-_]?NOTES|AUTHORS|CONTRIBUTORS|VERSION)"
    r"(?:\.[a-z]+)?$|(?:^|/)(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|uv\.lock|"
    r"Cargo\.lock|go\.sum|Gemfile\.lock|composer\.lock|Pipfile\.lock)$"
)

_STOPWORDS = (
    "the a an and or of to in on for with from into by at as is are be it its this that these "
    "those when if not no do does via per than then so also only all any some more less new "
    "add adds added adding fix fixes fixed fixing update updates updated remove removes removed "
    "use uses used using make makes made change changes changed support supports improve "
    "improves improved refactor refactored test tests move moved rename renamed initial minor "
    "small some other revert reland reapply part patch wip"
).split()


def _title(subject: pl.Expr) -> pl.Expr:
    """A subject without `(#N)`, bracket tags, conventional/component prefixes (`feat(x):`,
    `net: tcp:`) and series numbering."""
    return (
        subject.str.replace(r"\s*\(#\d+\)\s*$", "")
        .str.replace_all(_SERIES_STRIP, "")
        .str.replace(r"^\s*(?:\[[^\]\n]*\]\s*)+", "")
        .str.replace(r"^(?:\s*[A-Za-z0-9_][A-Za-z0-9_./-]{0,40}(?:\([^)\n]{0,60}\))?!?:\s+){1,3}", "")
        .str.strip_chars()
    )


def _component(subject: pl.Expr) -> pl.Expr:
    """The component a subject names: first bracket tag, conventional scope or `name:` prefix."""
    tag = subject.str.extract(r"^\s*\[([^\]\n]{1,40})\]", 1).str.strip_chars().str.to_lowercase()
    tag = pl.when(tag.str.contains(_GENERIC_TAGS)).then(None).otherwise(tag)
    scope = subject.str.extract(_CONV_SCOPE, 1).str.strip_chars().str.to_lowercase()
    prefix = subject.str.replace(r"^\s*(?:\[[^\]\n]*\]\s*)+", "").str.extract(_COMPONENT_PREFIX, 1).str.to_lowercase()
    prefix = pl.when(prefix.str.contains(_NOT_COMPONENT)).then(None).otherwise(prefix)
    return pl.coalesce(tag, scope, prefix)


# --------------------------------------------------------------------------------------------
# Pull requests brought in by GitHub merges: one walk over the first-parent chain.
# --------------------------------------------------------------------------------------------


def merge_pr_membership(commits: pl.DataFrame) -> pl.DataFrame:
    """(repo, sha, merge_pr): for every commit brought in by a `Merge pull request #N` merge
    (reachable from its second parent and not from the mainline), N.

    One walk per repository over the first-parent chain from the tip, oldest first; each
    commit is visited once (O(commits + parent edges)). Only repositories that have such merges
    are walked. Parents outside the frame (shallow clones, windows) are ignored.
    """
    out_schema = {"repo": pl.String, "sha": pl.String, "merge_pr": pl.Int64}
    prs = commits.select(
        "repo", "sha", "parents", "is_merge",
        pl.col("subject").str.extract(PR_MERGE, 1).cast(pl.Int64, strict=False).alias("_pr"),
        pl.col("committed_at"),
    )
    repos = prs.filter(pl.col("is_merge") & pl.col("_pr").is_not_null())["repo"].unique().to_list()
    rows_repo: list[str] = []
    rows_sha: list[str] = []
    rows_pr: list[int] = []
    for repo in repos:
        part = prs.filter(pl.col("repo") == repo).sort("committed_at", nulls_last=False)
        shas = part["sha"].to_list()
        index = {sha: i for i, sha in enumerate(shas)}
        parents = [[index[p] for p in (ps or []) if p in index] for ps in part["parents"].to_list()]
        pr_of = part["_pr"].to_list()
        has_child = bytearray(len(shas))
        for ps in parents:
            for p in ps:
                has_child[p] = 1
        seen = bytearray(len(shas))
        # Tips oldest first, so a newer tip's walk stops where an older one's began.
        for tip in (i for i in range(len(shas)) if not has_child[i]):
            chain = []
            node = tip
            while node is not None and not seen[node]:
                chain.append(node)
                node = parents[node][0] if parents[node] else None
            for node in reversed(chain):
                seen[node] = 1
                number = pr_of[node]
                for side in parents[node][1:]:
                    stack = [side]
                    while stack:
                        x = stack.pop()
                        if seen[x]:
                            continue
                        seen[x] = 1
                        if number is not None:
                            rows_repo.append(repo)
                            rows_sha.append(shas[x])
                            rows_pr.append(number)
                        stack.extend(parents[x])
    return pl.DataFrame({"repo": rows_repo, "sha": rows_sha, "merge_pr": rows_pr}, schema=out_schema)


# --------------------------------------------------------------------------------------------
# Connected components
# --------------------------------------------------------------------------------------------


def _components(n: int, a: list[int], b: list[int]) -> list[int]:
    """Union-find over n nodes and edges (a[i], b[i]); returns each node's root (smallest index)."""
    parent = list(range(n))

    def find(x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for x, y in zip(a, b):
        rx, ry = find(x), find(y)
        if rx != ry:
            if rx < ry:
                parent[ry] = rx
            else:
                parent[rx] = ry
    return [find(i) for i in range(n)]


def _consecutive_pairs(df: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """Pairs (_a, _b) of consecutive rows within `by` groups of a frame sorted by `by` + time."""
    same = pl.all_horizontal([pl.col(c) == pl.col(c).shift(1) for c in by])
    return df.with_columns(
        pl.col("_n").shift(1).alias("_a"),
        pl.col("_n").alias("_b"),
        (pl.col("_t") - pl.col("_t").shift(1)).alias("_gap"),
        same.fill_null(False).alias("_same"),
    ).filter(pl.col("_same"))


def assign_work_items(
    commits: pl.DataFrame, links: pl.DataFrame, file_changes: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Group commits into work items; see the module docstring for the rules."""
    cols = commits.columns
    is_bot = pl.col("is_bot").fill_null(False) if "is_bot" in cols else pl.lit(False)
    # A copy of a change that counts in another repository (history.counted_once) is not work here.
    is_copy = pl.col("_copy").fill_null(False) if "_copy" in cols else pl.lit(False)
    df = commits.with_row_index("_row").with_columns(
        pr_number_expr(pl.col("subject"), pl.col("message")).alias("_own_pr"),
        (~pl.col("is_merge").fill_null(False) & ~is_bot & ~is_copy).alias("_work"),
        pl.col("authored_at").alias("_t"),
    )
    members = merge_pr_membership(commits)
    df = df.join(members, on=["repo", "sha"], how="left").sort("_row")
    # A commit's own claim first, else the PR merge that brought it in (merges inside a PR
    # branch, such as `Merge branch 'main' into topic`, belong to that PR too).
    df = df.with_columns(pl.coalesce("_own_pr", "merge_pr").alias("pr_number"))

    work = (
        df.filter(pl.col("_work"))
        .sort("repo", "_t", "sha")
        .with_row_index("_n")
        .with_columns(_component(pl.col("subject")).alias("_component"))
    )
    n = work.height
    edges_a: list[int] = []
    edges_b: list[int] = []

    def add(pairs: pl.DataFrame) -> None:
        if pairs.height:
            edges_a.extend(pairs["_a"].to_list())
            edges_b.extend(pairs["_b"].to_list())

    # 1. Same pull request.
    pr_rows = work.filter(pl.col("pr_number").is_not_null()).sort("repo", "pr_number", "_t", "_n")
    add(_consecutive_pairs(pr_rows, ["repo", "pr_number"]))

    # 2. Reverts and relands.
    if links.height:
        node = work.select("repo", "sha", "_n")
        rl = links.filter(pl.col("link_type").is_in(["reverts", "relands"]))
        pairs = (
            rl.join(node.rename({"_n": "_a"}), on=["repo", "sha"], how="inner")
            .join(node.rename({"sha": "target_sha", "_n": "_b"}), on=["repo", "target_sha"], how="inner")
        )
        add(pairs)

    # 3. Numbered series.
    series = work.with_columns(pl.col("subject").str.extract_groups(_SERIES).alias("_s")).unnest("_s")
    k = pl.coalesce([pl.col(f"k{i}") for i in range(1, 6)]).cast(pl.Int64, strict=False)
    total = pl.coalesce([pl.col(f"n{i}") for i in range(1, 6)]).cast(pl.Int64, strict=False)
    stem = pl.col("subject").str.replace_all(_SERIES_STRIP, "").str.to_lowercase().str.strip_chars()
    series = series.with_columns(k.alias("_k"), total.alias("_total"), stem.alias("_stem")).filter(
        pl.col("_k").is_not_null() & ((pl.col("_total").is_null()) | ((pl.col("_total") >= 2) & (pl.col("_k") <= pl.col("_total"))))
    )
    series = series.with_columns(
        pl.when(pl.col("_total").is_not_null()).then(pl.format("of {}", pl.col("_total"))).otherwise(pl.col("_stem")).alias("_series")
    ).sort("repo", "person_id", "_series", "_t", "_n")
    add(_consecutive_pairs(series, ["repo", "person_id", "_series"]).filter(pl.col("_gap") <= SERIES_GAP))

    # 4. Closely related consecutive commits of one author.
    stream = work.sort("repo", "person_id", "_t", "_n")
    stream = stream.with_columns(
        pl.col("pr_number").shift(1).alias("_prev_pr"),
        pl.col("_component").shift(1).alias("_prev_component"),
    )
    cand = _consecutive_pairs(stream, ["repo", "person_id"]).filter(
        (pl.col("_gap") <= RELATED_GAP) & pl.col("pr_number").is_null() & pl.col("_prev_pr").is_null()
    )
    if cand.height:
        same_component = cand.filter(
            pl.col("_component").is_not_null() & (pl.col("_component") == pl.col("_prev_component"))
        ).select("_a", "_b")
        pair_ids = cand.select("repo", "_a", "_b")
        sha_of = work.select("_n", "sha")
        files = pl.DataFrame(schema={"_a": pl.UInt32, "_b": pl.UInt32})
        if file_changes is not None and file_changes.height:
            fc = (
                file_changes.select("repo", "sha", "path")
                .filter(~pl.col("path").fill_null("").str.contains(GENERIC_FILES))
                .unique()
            )
            pa = pair_ids.join(sha_of.rename({"_n": "_a", "sha": "sha_a"}), on="_a").join(
                sha_of.rename({"_n": "_b", "sha": "sha_b"}), on="_b"
            )
            left = pa.join(fc.rename({"sha": "sha_a"}), on=["repo", "sha_a"], how="inner")
            files = left.join(
                fc.rename({"sha": "sha_b"}), on=["repo", "sha_b", "path"], how="semi"
            ).select("_a", "_b").unique()
        words = work.select(
            "_n",
            _title(pl.col("subject")).str.to_lowercase().str.extract_all(r"[a-z][a-z0-9_]{2,}").list.unique().alias("_w"),
        ).explode("_w", empty_as_null=False).filter(~pl.col("_w").is_in(_STOPWORDS))
        counts = words.group_by("_n").agg(pl.len().alias("_cnt"))
        shared = (
            pair_ids.join(words.rename({"_n": "_a"}), on="_a", how="inner")
            .join(words.rename({"_n": "_b"}), on=["_b", "_w"], how="inner")
            .group_by("_a", "_b").agg(pl.len().alias("_shared"))
            .join(counts.rename({"_n": "_a", "_cnt": "_ca"}), on="_a")
            .join(counts.rename({"_n": "_b", "_cnt": "_cb"}), on="_b")
        )
        similar = shared.filter(
            (pl.col("_shared") >= 2)
            & (pl.col("_shared") / (pl.col("_ca") + pl.col("_cb") - pl.col("_shared")) >= 0.5)
        ).select("_a", "_b")
        add(pl.concat([same_component, files.cast({"_a": pl.UInt32, "_b": pl.UInt32}), similar.cast({"_a": pl.UInt32, "_b": pl.UInt32})]))

    roots = _components(n, edges_a, edges_b)
    work = work.with_columns(pl.Series("_root", roots, dtype=pl.UInt32))
    items, work = _items(work, df, links)

    # Merge commits: the item of their pull request, when there is one.
    merge_items = (
        df.filter(pl.col("is_merge").fill_null(False) & pl.col("pr_number").is_not_null() & ~is_bot)
        .select("_row", "repo", "pr_number")
        .join(items.select("repo", "pr_number", "work_item_id").drop_nulls("pr_number").unique(["repo", "pr_number"]),
              on=["repo", "pr_number"], how="inner")
        .select("_row", "work_item_id")
    )
    assigned = pl.concat([work.select("_row", "work_item_id"), merge_items])
    out = (
        df.join(assigned, on="_row", how="left")
        .sort("_row")
        .select(*[c for c in cols if c not in ("work_item_id", "pr_number")], "work_item_id", "pr_number")
    )
    return out, items


def _items(work: pl.DataFrame, df: pl.DataFrame, links: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Item table from `work` (with `_root`); returns (items, work with work_item_id)."""
    if work.height == 0:
        return pl.DataFrame(schema=WORK_ITEMS_SCHEMA), work.with_columns(pl.lit(None, pl.String).alias("work_item_id"))
    reverting: set[str] = set()
    if links.height:
        # A reland (git's `Reapply`) also reverts a revert; it re-does the change, so it counts.
        reverting = set(links.filter(pl.col("link_type") == "reverts")["sha"].to_list()) - set(
            links.filter(pl.col("link_type") == "relands")["sha"].to_list()
        )
    work = work.with_columns(
        (pl.col("sha").is_in(list(reverting)) | (pl.col("category") == "revert")).alias("_is_revert")
    ).sort("_root", "_t", "_n")

    # Id: the PR of the earliest commit that has one, else the earliest commit.
    first = work.group_by("_root", maintain_order=True).agg(
        pl.col("repo").first(),
        pl.col("sha").first().alias("_first_sha"),
        pl.col("pr_number").drop_nulls().first().alias("pr_number"),
        pl.col("_t").min().alias("first_at"),
        pl.col("_t").max().alias("last_at"),
        pl.len().cast(pl.Int64).alias("commits"),
        pl.col("lines_added").fill_null(0).sum().cast(pl.Int64).alias("lines_added"),
        pl.col("lines_deleted").fill_null(0).sum().cast(pl.Int64).alias("lines_deleted"),
        pl.col("_is_revert").all().alias("_all_reverts"),
    )
    first = first.with_columns(
        pl.when(pl.col("pr_number").is_not_null())
        .then(pl.format("{}#pr-{}", pl.col("repo"), pl.col("pr_number")))
        .otherwise(pl.format("{}@{}", pl.col("repo"), pl.col("_first_sha").str.slice(0, 12)))
        .alias("work_item_id")
    )

    # Category, person and title from the non-revert commits.
    core = work.filter(~pl.col("_is_revert"))
    lead = core.group_by("_root", maintain_order=True).agg(
        pl.col("category").first().alias("_first_cat"),
        pl.col("subject").first().alias("_first_subject"),
        pl.col("person_id").first().alias("_first_person"),
    )
    rank = {c: i for i, c in enumerate(SIGNIFICANCE)}
    counts = (
        core.group_by("_root", "category").agg(pl.len().alias("_c"))
        .with_columns(pl.col("category").replace_strict(rank, default=len(rank), return_dtype=pl.Int32).alias("_rank"))
        .sort("_root", "_c", "_rank", descending=[False, True, False])
        .group_by("_root", maintain_order=True).first()
        .select("_root", pl.col("category").alias("_common_cat"))
    )
    people = (
        core.group_by("_root", "person_id").agg(pl.len().alias("_c"), pl.col("_t").min().alias("_pt"))
        .sort("_root", "_c", "_pt", descending=[False, True, False])
        .group_by("_root", maintain_order=True).first()
        .select("_root", pl.col("person_id").alias("_main_person"))
    )
    everyone = work.group_by("_root", maintain_order=True).agg(
        pl.col("person_id").first().alias("_any_person"), pl.col("subject").first().alias("_any_subject")
    )
    # PR titles from GitHub merge bodies: `Merge pull request #N from x\n\n<title>`.
    pr_titles = (
        df.filter(pl.col("is_merge").fill_null(False) & pl.col("_own_pr").is_not_null())
        .select(
            "repo", pl.col("_own_pr").alias("pr_number"),
            pl.col("message").str.extract(r"^[^\n]*\n\s*\n([^\n]+)", 1).str.strip_chars().alias("_pr_title"),
        )
        .drop_nulls("_pr_title")
        .unique(["repo", "pr_number"], keep="first")
    )
    items = (
        first.join(lead, on="_root", how="left")
        .join(counts, on="_root", how="left")
        .join(people, on="_root", how="left")
        .join(everyone, on="_root", how="left")
        .join(pr_titles, on=["repo", "pr_number"], how="left")
        .with_columns(
            pl.when(pl.col("_all_reverts")).then(pl.lit("revert"))
            .when(pl.col("_first_cat").is_in(["feature", "bug"])).then(pl.col("_first_cat"))
            .otherwise(pl.coalesce("_common_cat", pl.lit("other")))
            .alias("category"),
            pl.coalesce("_main_person", "_any_person").alias("person_id"),
            pl.coalesce(
                "_pr_title",
                _title(pl.coalesce("_first_subject", "_any_subject")),
            ).alias("title"),
        )
    )
    ids = items.select("_root", "work_item_id")
    items = items.select(list(WORK_ITEMS_SCHEMA)).cast(WORK_ITEMS_SCHEMA).sort("first_at", "work_item_id")
    return items, work.join(ids, on="_root", how="left")
