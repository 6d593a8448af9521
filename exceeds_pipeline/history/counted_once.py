"""A change counts once (SPEC §3, §5): across forks, mirrors and cherry-picks, in the first
repository listed in the config.

:func:`count_once` takes the ``commits`` frame of :func:`exceeds_pipeline.history.tables.attach_people`
(``is_counted`` already says non-merge, non-bot, inside the window) and the repositories in
config order, and groups the rows that are *copies of one change*:

1. **Same sha** in several configured repositories (a fork, a mirror, a vendored copy): found by
   comparing sha sets, no git.
2. **Cherry-pick with a record**: the message has ``(cherry picked from commit <sha>)`` (what
   ``git cherry-pick -x`` writes) naming a commit present in any configured repository,
   including the same one.
3. **Same patch by the same author**: ``git patch-id --stable`` equal, computed only for
   *candidates*: non-merge commits of one person with the same subject (trailing ``(#N)``
   pull-request numbers aside: a backport has its own) and the same
   ``lines_added``/``lines_deleted`` under different shas, reachable from different sets of
   repositories, or from the same ones on parallel lines of history (neither an ancestor of the
   other: tmux applies a patch to its GitHub tree and to OpenBSD's and merges the two; a fix
   applied again to a stable branch that is merged back). The same patch made again on one line
   of history is two changes (a reland after a revert, cherry-picked back onto the branch: it
   descends from the first), unless both copies also carry the same author and committer times
   to the second: one commit written twice into the history (a converted or filtered history, a
   branch merged in twice), which counts once. One ``git diff-tree --stdin | git patch-id`` pair
   per repository that has candidates, and the commit graph as ingested for the ancestry of
   same-patch commits reachable from the same repositories; never a pass over every commit.

Within a group the copies are ordered by the config's repository order (repositories not in
it last, by name), then commit time, then sha. The first copy that would count on its own
(``is_counted``) is *the counting copy*: it keeps ``is_counted``; every other copy gets
``is_counted = false``. All copies get ``counted_in`` / ``counted_sha``: the repository and sha of
the counting copy (null when no copy counts: merges, bots, outside the window). A commit with no
copies has ``counted_in = repo`` when it counts.

Work items: a copy that is not the group's *primary* (the counting copy, else the first copy)
is not work of its own repository (``_copy``): ``assign_work_items`` leaves it out, and
:func:`inherit_work_items` then gives it the work item of its primary, so the same change is
one work item, listed once, with one id wherever it is reachable.

**Decision on per-repository figures** (``repo_rollups``, a profile's ``repositories``): they
count counted copies only, like every total. A repository where all of a person's commits are
copies of commits counted in an earlier-listed repository does not appear for that person, so
``repository_contributions``, per-repository commits, features, bugs, lines and months active
always add up to the person's totals and never show one change twice. Where the commits are
also reachable stays queryable: ``SELECT repo, count(*) FROM commits WHERE counted_in <> repo``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import polars as pl

from exceeds_pipeline.common.union_find import UnionFind
from exceeds_pipeline.ingest.gitcmd import GitError, run_git

__all__ = ["CHERRY_PICK", "count_once", "inherit_work_items", "patch_ids", "patch_id_candidates"]

CHERRY_PICK = r"\(cherry picked from commit ([0-9a-fA-F]{7,40})\)"
PR_SUFFIXES = r"(?:\s*\(#\d+\))+\s*$"

# Columns count_once adds (the underscored ones are internal, dropped by finalize_commits).
_ADDED = ("counted_in", "counted_sha", "_copy", "_primary_repo", "_primary_sha")


def patch_id_candidates(commits: pl.DataFrame) -> pl.DataFrame:
    """``[repo, sha, _key, _repos, _stamp]``: commits worth a patch id, one row per (repo, sha).

    Non-merge commits with a person whose (person, subject, lines added, lines deleted) appears
    under at least two shas (``_repos``: the repositories each is reachable from; a mirror's
    shared history is one sha, no candidate).
    """
    key = ["person_id", "_subject", "lines_added", "lines_deleted"]
    rows = commits.lazy().filter(~pl.col("is_merge").fill_null(False) & pl.col("person_id").is_not_null())
    # A backport merged through its own pull request gets another `(#N)`: not part of the subject.
    subject = pl.col("subject").fill_null("").str.replace(PR_SUFFIXES, "").alias("_subject")
    # The author and committer times: equal in both copies of one commit written twice.
    times = [c for c in ("authored_at", "committed_at") if c in commits.columns]
    stamp = (pl.struct(times).hash() if len(times) == 2 else pl.lit(None, pl.UInt64)).alias("_stamp")
    per_sha = (
        rows.with_columns(subject, stamp)
        .group_by("sha")
        .agg(*(pl.col(k).first() for k in key), pl.col("_stamp").first(),
             pl.col("repo").sort().str.join("\x1f").alias("_repos"))
        .filter(pl.len().over(key) >= 2)
        .with_columns(pl.struct(key).hash().alias("_key"))
        .select("sha", "_key", "_repos", "_stamp")
    )
    return rows.select("repo", "sha").join(per_sha, on="sha", how="inner").collect()


def patch_ids(git_dir: str | os.PathLike, shas: Sequence[str], repo: str) -> dict[str, str]:
    """{sha: stable patch id} for commits of one repository (two git processes in all)."""
    if not shas:
        return {}
    diff = run_git(
        git_dir,
        ["diff-tree", "--stdin", "-p", "--root", "--no-color", "--no-ext-diff", "--no-textconv",
         "--find-renames", "--diff-algorithm=myers", "--full-index"],
        repo,
        input=("\n".join(shas) + "\n").encode(),
    ).stdout
    out = run_git(git_dir, ["patch-id", "--stable"], repo, input=diff).stdout.decode()
    ids = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2:
            ids[parts[1]] = parts[0]
    return ids


def _cherry_pick_edges(commits: pl.DataFrame) -> pl.DataFrame:
    """``[sha, target]``: a commit and the commit its ``cherry picked from`` line names (when
    that commit is in ``commits``; abbreviated shas are matched by prefix)."""
    picks = (
        commits.lazy()
        .filter(pl.col("message").str.contains("(cherry picked from commit ", literal=True))
        .select("sha", pl.col("message").str.extract_all(CHERRY_PICK).alias("_t"))
        .explode("_t", empty_as_null=True)
        .drop_nulls("_t")
        .select("sha", pl.col("_t").str.extract(CHERRY_PICK, 1).str.to_lowercase().alias("_t"))
        .unique()
        .collect()
    )
    if picks.height == 0:
        return pl.DataFrame(schema={"sha": pl.String, "target": pl.String})
    known = commits.select(pl.col("sha").alias("target")).unique()
    full = picks.filter(pl.col("_t").str.len_chars() == 40).join(
        known, left_on="_t", right_on="target", how="inner", coalesce=False
    ).select("sha", "target")
    parts = [full]
    for n in picks.filter(pl.col("_t").str.len_chars() < 40)["_t"].str.len_chars().unique().to_list():
        short = picks.filter(pl.col("_t").str.len_chars() == n)
        parts.append(
            short.join(known.with_columns(pl.col("target").str.slice(0, n).alias("_t")), on="_t", how="inner")
            .select("sha", "target")
        )
    return pl.concat(parts).filter(pl.col("sha") != pl.col("target")).unique()


def _patch_edges(commits: pl.DataFrame, git_dirs: Mapping[str, str | os.PathLike]) -> pl.DataFrame:
    """``[sha, target]``: candidate commits with the same patch id within one candidate key."""
    empty = pl.DataFrame(schema={"sha": pl.String, "target": pl.String})
    cands = patch_id_candidates(commits)
    if cands.height == 0:
        return empty
    # One patch id per sha, computed in one repository (with a git dir) that has it.
    per_sha = cands.filter(pl.col("repo").is_in(list(git_dirs))).unique("sha", keep="first")
    ids: dict[str, str] = {}
    for (repo,), group in per_sha.group_by("repo"):
        try:
            ids.update(patch_ids(git_dirs[repo], group["sha"].to_list(), repo))
        except (GitError, OSError):  # a clone gone since ingest: its same-sha copies still count once
            continue
    if not ids:
        return empty
    pid = pl.DataFrame({"sha": list(ids), "_pid": list(ids.values())})
    tagged = cands.unique("sha").join(pid, on="sha", how="inner").select("sha", "_key", "_pid", "_repos", "_stamp")
    # Same candidate key and patch id, reachable from different repositories, or written twice
    # with the same times: one change.
    pairs = (
        tagged.join(tagged.rename({"sha": "target", "_repos": "_target_repos", "_stamp": "_target_stamp"}),
                    on=["_key", "_pid"])
        .filter(pl.col("sha") < pl.col("target"))
    )
    copies = (pl.col("_repos") != pl.col("_target_repos")) | (pl.col("_stamp") == pl.col("_target_stamp")).fill_null(False)
    # Reachable from the same repositories: one change when the two were made on parallel lines
    # of history (tmux applies a patch to its GitHub tree and to OpenBSD's, then merges the two;
    # a fix applied to a stable branch merged back); a change made again after the first (a
    # reland after a revert) descends from it and is two.
    same_line = pairs.filter(~copies).select("sha", "target")
    if same_line.height and "parents" in commits.columns:
        history = _History(commits)
        same_line = same_line.filter(pl.Series([not history.related(a, b) for a, b in same_line.iter_rows()],
                                               dtype=pl.Boolean))
    else:
        same_line = same_line.clear()
    found = pl.concat([pairs.filter(copies).select("sha", "target"), same_line])
    return pl.concat([found, found.select(pl.col("target").alias("sha"), pl.col("sha").alias("target"))]).unique()


class _History:
    """The commit graph as ingested (``parents``), with generation numbers (a commit's is one
    more than its parents' largest) that bound each ancestry walk: an ancestor of a commit has a
    smaller one. A walk costs the commits between the two, not the history."""

    def __init__(self, commits: pl.DataFrame):
        graph = commits.select("sha", "parents").unique("sha")
        self.index = {sha: i for i, sha in enumerate(graph["sha"].to_list())}
        index = self.index
        self.parents = [[index[p] for p in (ps or []) if p in index] for ps in graph["parents"].to_list()]
        self.generation = [0] * len(self.parents)
        for start in range(len(self.parents)):
            if self.generation[start]:
                continue
            stack = [start]
            while stack:
                node = stack[-1]
                todo = [p for p in self.parents[node] if not self.generation[p]]
                if todo:
                    stack.extend(todo)
                    continue
                stack.pop()
                if not self.generation[node]:
                    self.generation[node] = 1 + max((self.generation[p] for p in self.parents[node]), default=0)

    def related(self, a: str, b: str) -> bool:
        """Whether one of the two commits is an ancestor of the other (unknown commits: yes,
        so nothing is merged on a guess)."""
        if a not in self.index or b not in self.index:
            return True
        old, new = sorted((self.index[a], self.index[b]), key=lambda i: self.generation[i])
        floor = self.generation[old]
        if floor == self.generation[new]:
            return False
        seen, stack = {new}, [new]
        while stack:
            for p in self.parents[stack.pop()]:
                if p == old:
                    return True
                if p not in seen and self.generation[p] > floor:
                    seen.add(p)
                    stack.append(p)
        return False


def _clusters(edges: pl.DataFrame) -> pl.DataFrame:
    """``[sha, _cluster]`` for the shas in ``edges`` (connected components; small): the
    cluster is its smallest sha."""
    sets = UnionFind()
    for a, b in edges.iter_rows():
        sets.union(a, b)
    shas = list(sets.parent)
    return pl.DataFrame({"sha": shas, "_cluster": [sets.find(s) for s in shas]},
                        schema={"sha": pl.String, "_cluster": pl.String})


def count_once(
    commits: pl.DataFrame,
    repo_order: Sequence[str],
    git_dirs: Mapping[str, str | os.PathLike] | None = None,
) -> pl.DataFrame:
    """The commits (same rows) with ``is_counted`` true only in the counting copy of each
    change, and ``counted_in``, ``counted_sha``, ``_copy``, ``_primary_repo``, ``_primary_sha``.

    ``repo_order``: repository names in config order (precedence). ``git_dirs``: {repo: git
    dir} for the patch ids of candidates; without it (or for a repository missing from it) only
    same-sha copies and recorded cherry-picks are found.
    """
    commits = commits.drop([c for c in _ADDED if c in commits.columns])
    base = pl.col("is_counted").fill_null(False)
    if commits.height == 0:
        return commits.with_columns(
            pl.lit(None, pl.String).alias("counted_in"), pl.lit(None, pl.String).alias("counted_sha"),
            pl.lit(False).alias("_copy"), pl.lit(None, pl.String).alias("_primary_repo"),
            pl.lit(None, pl.String).alias("_primary_sha"),
        )
    edges = pl.concat([_cherry_pick_edges(commits), _patch_edges(commits, git_dirs or {})])
    clusters = _clusters(edges)
    rank = {name: i for i, name in enumerate(repo_order)}
    others = sorted(set(commits["repo"].unique().to_list()) - set(rank))
    rank.update({name: len(repo_order) + i for i, name in enumerate(others)})
    df = commits.with_row_index("_row").with_columns(
        pl.col("repo").replace_strict(rank, return_dtype=pl.Int64).alias("_rank")
    )
    if clusters.height:
        df = df.join(clusters, on="sha", how="left").with_columns(pl.coalesce("_cluster", "sha").alias("_cluster"))
    else:
        df = df.with_columns(pl.col("sha").alias("_cluster"))
    # Only groups with more than one row need ordering; the rest are their own counting copy.
    multi = pl.len().over("_cluster") > 1
    single = df.filter(~multi).with_columns(
        pl.when(base).then(pl.col("repo")).alias("counted_in"),
        pl.when(base).then(pl.col("sha")).alias("counted_sha"),
        pl.lit(False).alias("_copy"),
        pl.col("repo").alias("_primary_repo"),
        pl.col("sha").alias("_primary_sha"),
    )
    group = df.filter(multi).sort("_cluster", "_rank", "committed_at", "sha")
    if group.height:
        by = "_cluster"
        group = group.with_columns(
            pl.col("repo").filter(base).first().over(by).alias("counted_in"),
            pl.col("sha").filter(base).first().over(by).alias("counted_sha"),
        ).with_columns(
            pl.coalesce("counted_in", pl.col("repo").first().over(by)).alias("_primary_repo"),
            pl.coalesce("counted_sha", pl.col("sha").first().over(by)).alias("_primary_sha"),
        ).with_columns(
            (base & (pl.col("repo") == pl.col("counted_in")) & (pl.col("sha") == pl.col("counted_sha")))
            .fill_null(False).alias("is_counted"),
            ~((pl.col("repo") == pl.col("_primary_repo")) & (pl.col("sha") == pl.col("_primary_sha"))).alias("_copy"),
        )
    out = pl.concat([single, group.select(single.columns)], how="vertical_relaxed") if group.height else single
    return out.sort("_row").drop("_row", "_rank", "_cluster")


def inherit_work_items(commits: pl.DataFrame) -> pl.DataFrame:
    """Copies (``_copy``) take the ``work_item_id`` of their primary copy (same rows, order)."""
    if "_copy" not in commits.columns or not commits["_copy"].any():
        return commits
    primary = commits.filter(~pl.col("_copy")).select(
        pl.col("repo").alias("_primary_repo"), pl.col("sha").alias("_primary_sha"),
        pl.col("work_item_id").alias("_inherited"),
    )
    return (
        commits.join(primary, on=["_primary_repo", "_primary_sha"], how="left", maintain_order="left")
        .with_columns(
            pl.when(pl.col("_copy")).then(pl.col("_inherited")).otherwise(pl.col("work_item_id"))
            .alias("work_item_id")
        )
        .drop("_inherited")
    )
