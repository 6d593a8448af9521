"""Pull requests brought in by GitHub merges: which pull request each commit belongs to, read from
the merges on the first-parent line.
"""

from __future__ import annotations

from collections import Counter

import polars as pl

from exceeds_pipeline.classify.links import PR_MERGE_HEAD, pr_number_expr
from exceeds_pipeline.classify.work_items.edges import INTEGRATION_BRANCH


# --------------------------------------------------------------------------------------------
# Pull requests brought in by GitHub merges: one walk over the first-parent chain.
# --------------------------------------------------------------------------------------------


# The branch a merge brings in: `Merge pull request #N from owner/branch`, `Merge branch 'x'`,
# `Merge remote-tracking branch 'origin/x'`.
MERGED_BRANCH = (
    rf"^{PR_MERGE_HEAD}\d+ from [^/\s]+/(\S+)"
    r"|^Merge (?:remote-tracking )?branch '(?:origin/)?([^']+)'"
)


# A merge titled as one branch merged into another (click's pull request "Merge `stable` into
# `main`; Release 8.2.0 (#2873)", git's "Merge branch 'main' into topic"): the branch merged.
_MERGED_INTO = r"(?i)^\s*Merge\s+(?:(?:remote-tracking\s+)?branch\s+)?[`'\"]?([\w./-]+?)[`'\"]?\s+into\s+\S"


def merged_into(subject: pl.Expr) -> pl.Expr:
    """The branch a merge's subject says it merged into another (`Merge X into Y`), else null."""
    return subject.str.extract(_MERGED_INTO, 1)


def merged_branch(subject: pl.Expr) -> pl.Expr:
    """The branch a merge's subject names (MERGED_BRANCH), else null."""
    return pl.coalesce(subject.str.extract(MERGED_BRANCH, 1), subject.str.extract(MERGED_BRANCH, 2))


def merge_pr_membership(commits: pl.DataFrame) -> pl.DataFrame:
    """(repo, sha, merge_pr, merge_branch, merge_sha, imported): for every commit brought in by a merge
    (reachable from one of its other parents and not from the chain it was merged into), the
    pull request number and the branch name of the innermost merge that brought it in (null for
    a merge that names neither), and that merge's sha.

    Merges nest: a pull request merged into `stable` (`Merge pull request #N from x/fix`) and
    `stable` merged into `main` later (`Merge branch 'stable'`) keep N for the pull request's
    commits. Each side branch is walked as its own first-parent chain, oldest first; commits
    inside a pull request branch that no inner merge claims (a `Merge branch 'main' into topic`
    brings nothing new: main's commits were seen first) inherit the enclosing number.

    A merge can bring in a separate history (`git subtree add`, `--allow-unrelated-histories`:
    another project's commits from its own root). Those commits are *imported*: they belong to
    no pull request of this repository (not the one whose merge brought them in, and not the
    numbers their own merges and subjects name, which are the other project's), and they are
    returned with `imported` true and no number.

    A number that several merges name is this repository's only where its merge is on a tip's
    first-parent line (`_own_numbers`): forks merge their own `#1` and bring it in with their
    branch, whose commits then keep the number of the pull request that merged the fork.

    Every commit is visited once (O(commits + parent edges)). Parents outside the frame
    (shallow clones, windows) are ignored.
    """
    out_schema = {"repo": pl.String, "sha": pl.String, "merge_pr": pl.Int64, "merge_branch": pl.String,
                  "merge_sha": pl.String, "imported": pl.Boolean}
    prs = commits.select(
        "repo", "sha", "parents", "is_merge",
        # `Merge pull request #N ...`, or a merge titled with its pull request (`Title (#N)`).
        pl.when(pl.col("is_merge").fill_null(False))
        .then(pr_number_expr(pl.col("subject"), pl.col("message") if "message" in commits.columns
                             else pl.lit(None, pl.String))).alias("_pr"),
        merged_branch(pl.col("subject")).alias("_branch"),
        # a merge titled as merging an integration branch into another syncs branches: what it
        # brings is no change of its own (click's pull request "Merge `stable` into `main`;
        # Release 8.2.0 (#2873)": 9 commits of Kevin Deldycke's and 4 of David Lord's had been
        # one feature of David's)
        (pl.col("is_merge").fill_null(False)
         # (the branch as named on its remote: serde's `Merge branch origin/missing into
         # origin/errors` merges a topic branch)
         & merged_into(pl.col("subject")).fill_null("").str.replace(r"^(?:origin|upstream)/", "")
         .str.contains(INTEGRATION_BRANCH)).alias("_sync"),
        pl.col("committed_at"),
    )
    repos = prs.filter(pl.col("is_merge").fill_null(False))["repo"].unique().to_list()
    rows_repo: list[str] = []
    rows_sha: list[str] = []
    rows_pr: list[int | None] = []
    rows_branch: list[str | None] = []
    rows_merge: list[str | None] = []
    rows_imported: list[bool] = []
    for repo in repos:
        part = prs.filter(pl.col("repo") == repo).sort("committed_at", nulls_last=False)
        shas = part["sha"].to_list()
        index = {sha: i for i, sha in enumerate(shas)}
        parents = [[index[p] for p in (ps or []) if p in index] for ps in part["parents"].to_list()]
        pr_of = part["_pr"].to_list()
        branch_of = part["_branch"].to_list()
        sync = part["_sync"].to_list()
        has_child = bytearray(len(shas))
        for ps in parents:
            for p in ps:
                has_child[p] = 1
        seen = bytearray(len(shas))
        tips = [i for i in range(len(shas)) if not has_child[i]]
        mainline = _first_parent_line(parents, tips)
        imported = _imported(parents, [len(ps or []) for ps in part["parents"].to_list()], mainline)
        pr_of = _own_numbers(pr_of, mainline, branch_of)

        def chain(start: int) -> list[int]:
            """First-parent chain from `start` down to the first seen commit, oldest first."""
            out = []
            node = start
            while node is not None and not seen[node]:
                out.append(node)
                node = parents[node][0] if parents[node] else None
            out.reverse()
            return out

        # Tips oldest first, so a newer tip's walk stops where an older one's began. A stack of
        # (chain, position, number, branch, merge) replaces recursion into side branches.
        for tip in (i for i in range(len(shas)) if not has_child[i]):
            stack = [(chain(tip), 0, None, None, None)]
            while stack:
                nodes, pos, number, branch, merge = stack.pop()
                if pos >= len(nodes):
                    continue
                node = nodes[pos]
                stack.append((nodes, pos + 1, number, branch, merge))
                if seen[node]:
                    continue
                seen[node] = 1
                if merge is not None or imported[node]:
                    rows_repo.append(repo)
                    rows_sha.append(shas[node])
                    rows_pr.append(None if imported[node] else number)
                    rows_branch.append(None if imported[node] else branch)
                    rows_merge.append(shas[merge] if merge is not None else None)
                    rows_imported.append(bool(imported[node]))
                sides = parents[node][1:]
                if sides:
                    inner_number = None if sync[node] else pr_of[node] if pr_of[node] is not None else number
                    inner_branch = branch_of[node] if branch_of[node] is not None else branch
                    # Last side first on the stack's top... push in reverse so the first side
                    # is walked first.
                    for side in reversed(sides):
                        stack.append((chain(side), 0, inner_number, inner_branch, node))
    return pl.DataFrame(
        {"repo": rows_repo, "sha": rows_sha, "merge_pr": rows_pr, "merge_branch": rows_branch,
         "merge_sha": rows_merge, "imported": rows_imported}, schema=out_schema
    )


def _first_parent_line(parents: list[list[int]], tips: list[int]) -> set[int]:
    """The commits on the first-parent chains of the tips: the repository's own line (each
    commit walked once)."""
    line: set[int] = set()
    for tip in tips:
        node = tip
        while node is not None and node not in line:
            line.add(node)
            node = parents[node][0] if parents[node] else None
    return line


def _own_numbers(pr_of: list[int | None], mainline: set[int], branch_of: list[str | None]) -> list[int | None]:
    """The pull request numbers of merges, without those that are not this repository's: a
    number that several merges name (forks merge their own `#1`, `#2` and bring them in with
    their branches) is kept only for the merges on the first-parent line (`mainline`); and not
    there either when those merges name different branches, as when another repository's
    history came in on the main line (okhttp's `#1 from io2013/jw/website-skeleton` beside its
    own `#1 from square/jwilson/initialimport`, a year apart: one item of two people's work)."""
    claims = Counter(n for n in pr_of if n is not None)
    shared = {n for n, k in claims.items() if k > 1}
    if not shared:
        return pr_of
    branches: dict[int, set[str]] = {}
    for i, n in enumerate(pr_of):
        if n in shared and i in mainline and branch_of[i]:
            branches.setdefault(n, set()).add(branch_of[i])
    ambiguous = {n for n, names in branches.items() if len(names) > 1}
    return [None if n in shared and (i not in mainline or n in ambiguous) else n for i, n in enumerate(pr_of)]


def _imported(parents: list[list[int]], parent_counts: list[int], mainline: set[int]) -> list[bool]:
    """Per commit: whether its whole ancestry lies in a separate history, one that starts at a
    root commit (no parents) other than the root(s) of the repository's own line (`mainline`,
    the first-parent chains of the tips). A commit whose parents are outside the frame (a
    shallow clone's edge) counts as the repository's own. Parents before children (Kahn's
    order)."""
    n = len(parents)
    own_roots = {node for node in mainline if not parents[node]}
    children: list[list[int]] = [[] for _ in range(n)]
    waiting = [len(ps) for ps in parents]
    for child, ps in enumerate(parents):
        for p in ps:
            children[p].append(child)
    native = bytearray(n)
    queue = [i for i in range(n) if not parents[i]]
    for i in queue:
        # a root of the frame: the repository's own root, a shallow edge, or another history
        native[i] = i in own_roots or parent_counts[i] > 0
    while queue:
        node = queue.pop()
        for child in children[node]:
            if native[node]:
                native[child] = 1
            waiting[child] -= 1
            if waiting[child] == 0:
                # a child whose parents are partly outside the frame is the repository's own
                if parent_counts[child] > len(parents[child]):
                    native[child] = 1
                queue.append(child)
    return [not v for v in native]
