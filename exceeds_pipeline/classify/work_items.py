"""Work items: the commits that belong to one change.

`assign_work_items(commits, links, file_changes) -> (commits, work_items)`

Input `commits` has RAW_COMMITS_SCHEMA columns plus `person_id` and `category` (and `is_bot`;
missing means no bots). `links` is `links.commit_links(commits)`; `file_changes` is
RAW_FILE_CHANGES_SCHEMA (may be empty).

Output: the commits (same rows, same order) with `work_item_id` (String) and `pr_number`
(Int64), and the work-item table with columns

    work_item_id, repo, person_id, category, title, first_at, last_at, commits,
    lines_added, lines_deleted, pr_number, reverted_by, relanded_by, later_reverted

**Which commits are work.** Non-merge commits by non-bots that change at least one file. Merge
commits are not work: a merge gets the work item of its pull request when that item exists, else
null. Bot commits get null, and so do empty commits (`git commit --allow-empty`: a release pin, a
CI trigger, the empty follow-ups of a security-advisory merge): they change nothing, so they are
neither a feature nor a fix.

**What joins commits into one item** (connected components of these relations):

1. *Same pull request* in the same repo. A commit's PR number comes from a `(#123)` subject
   suffix (squash/rebase merges), a `Pull Request resolved: https://.../pull/123` line, or from
   the merge that brought it in (`merge_pr_membership`): `Merge pull request #123` (with or
   without `from ...`) or a merge titled `<PR title> (#123)`, also when the pull request was
   merged into another branch first and reached the mainline by a later `Merge branch
   'stable'` (merges nest; the innermost numbered one wins). `Differential Revision:` lines
   are reviews, not pull requests; the `(#N)` ending a Phabricator revert names the reverted
   change's PR. (`pr_edges`) Likewise one author's commits that one merge of a topic branch
   brought in (`Merge branch 'routes-list'`, git's `Merge branch 'ab/topic'`: a patch series),
   each at most RELATED_GAP after the one before; not a merge of an integration branch
   (`next`, `maint`, a release line such as `3.3-rc`: INTEGRATION_BRANCH) or of several
   people's work. (`branch_edges`)
2. *Revert and reland chains* (`reverts` / `relands` links, every form `links` knows), when
   the revert or reland is by the change's own author: a revert by someone else (a sync
   account, a colleague) is a link to the item, not part of its work or its lines. `fixes`
   links do not join: a fix of an older change is its own item. (`revert_chain_edges`)
3. *Numbered series* of one author in one repo: `[1/3]`, `[PATCH v2 2/5]`, `PATCH 2/5`,
   `2/5:`, `(part 3)`, `part 2 of 4`, `(72/92)`; parts of the same series (same total, or same
   subject once the part number is removed) no more than SERIES_GAP apart; open-ended `[k/N]`
   parts join when each is the next number. (`series_edges`) A `fixup! <subject>` (`squash!`,
   `amend!`) joins the latest earlier commit of its author with that subject. (`fixup_edges`)
4. *Closely related consecutive commits* of one author in one repo: consecutive commits (by
   author time) of the same person, no more than RELATED_GAP (48 hours) apart, neither in a
   pull request (a PR is its own item), AND evidently related: the same component tag or
   conventional scope (`[dynamo]`, `feat(parser):`, `parser:`), or at least one changed file in
   common (ignoring changelogs, lock files, generated and vendored files and similar files
   everyone touches or no one writes by hand; a shared
   documentation file relates two documentation-only commits, not a code change to a README
   edit), or the later one's subject naming a file the earlier one added, removed or renamed
   (`Remove README.ja from EXTRA_DIST.`; not a name several folders use), or strongly
   overlapping subject words (at least two shared content words and a Jaccard overlap of at
   least 0.5). Two unrelated commits on the same day stay two items. An author who declares
   each commit's kind (`feat:`, `fix:`) declares each feature or fix a change of its own: a
   run of related commits splits before every declared feature or fix after its first, and
   the commits in between stay with the change before them. (`related_edges`)
   A shared package manifest (package.json, Cargo.toml, ...) relates nothing either, nor does
   a hub: a file in at least HUB_SHARE (10%) of a repository's work commits (of at least 200;
   sinatra's lib/sinatra/base.rb), unless the two subjects also share a word the repository
   rarely uses (`Add 'transform' action`, `Change transform action ...`). Two commits that each
   name issues (`fixes #608`, `#495`) and share none are two changes, whatever else they share;
   a release commit relates only to its release steps. A commit of tests alone no more than
   TEST_GAP (10 minutes) from a code change of its author is that change's test when the
   subjects share a word or an issue, or the test's names nothing (`Update test.`): tmux's
   fixes and their regress tests. (`test_edges`)
5. *One release* of one author in one repo: consecutive release steps (commits that change only
   changelogs, package manifests, lock files and version files, except a dependency update
   with its own changelog line, `deps: qs@6.9.7`; or whose subject makes a release: `1.2.0`,
   `1.4.3 release`, `Release 3.4.1`, `grep-cli-0.1.10`, `Git 2.38`), each at most RELEASE_GAP
   (24 hours) after the one before, outside pull requests, up to and including a release
   commit (an empty one too), and the changelog opened for the next version within
   POST_RELEASE_GAP (an hour) after it; such an item is `chore`. (`release_flags`,
   `release_edges`)
6. *The same issue*: commits of one author outside pull requests that name the same issue no
   more than RELATED_GAP apart (`fixes #608`, then `refs #608`, `GitHub issue 5511`, `[ticket:
   2345]`, `CVE-2026-43894`: ISSUE_REF). (`issue_edges`)

A separate history merged in (`git subtree add`: another project's commits from its own root)
is imported: its commits take no pull request number from this repository's merges or from
their own (`merge_pr_membership`).

One union-find over the six edge kinds gives the items.

**Item fields.** `work_item_id` is `<repo>#pr-<N>` when the item has a pull request (the PR of
its earliest commit) and `<repo>@<first 12 hex of its earliest commit>` otherwise: stable across
runs and printable. `person_id` is the person with the most non-revert commits in the item (ties:
the earliest commit's author). `category`:

- revert commits are set aside (an item made only of reverts is `revert`); so a revert + reland
  item takes the category of the original change;
- a Conventional type the pull request's title declares (`feat: ...`, `refactor(x): ...`)
  decides (unless a feature or fix whose commits only touched docs, tests or build files);
- a pull request titled as a release (`Release 3.4.1`) is `chore`;
- then the section of the repository's changelog that names the pull request (`### Fixed`),
  with the same exception; then a project label on its commits (a declared type, a news
  fragment, a changelog entry: `categories.project_labels`) when all of them that the commits
  follow agree on feature or on fix;
- then a merged branch whose name is a label (`fix/...`, `hotfix-...`, `feature/...`, `docs/...`;
  read past the prefix: `fix-linting-errors` is chore, `fix-readme-typo` docs)
  decides, when that merge of the branch brought in this one item (a long-lived branch that
  collected many items labels none of them; a pull request's branch name that later pull
  requests reuse labels each of them), unless a feature or fix label meets an item whose every
  commit is docs, test or build work; then the pull request's title when it reads as a feature
  or a fix (with the same exception);
- if the earliest remaining commit is a feature or a bug fix, that is the item's category: what
  the change set out to do (a feature stays a feature when a fix follows inside it);
- otherwise the kind of its code change: a feature or fix that changed code (not tests, docs,
  release records or machine-made files: `_with_code_lines`), whatever reformatting rides
  along; else the category with the most lines changed in code, then the most commits, ties
  broken by significance: feature, bug, perf, refactor, docs, test, build, chore, other.

`title`: the pull request's title when a merge carries it (the first body line of `Merge pull
request #N`, or a merge titled `<title> (#N)`), else for a release item `Release <version>` read
from its (last) release commit (`Release grep-cli 0.1.10` when the subject names a package,
`Release rack-protection 1.4.0` when the commit releases the package of one folder:
`release_title`), else for most of a topic branch the first sentence of its merge's description
(git's `Merge branch 'ab/topic'` bodies: `_topic_titles`), else the subject of the earliest non-revert
commit of the item's category that has two words of three letters or more if any has (`first`,
`by @someone` name nothing; else of the earliest non-revert commit) with tags,
conventional prefix, series numbering and `(#N)` removed. `first_at`/`last_at`: earliest and
latest author time; `commits`, `lines_added`, `lines_deleted`: over the item's commits.

`reverted_by` / `later_reverted` (`chain_status`): the change is later reverted when the reverts
that come after its last landing (the original or a reland, by anyone) undo most of it: the
item's non-revert commits they name carry at least half of its changed lines (added + deleted;
by commit count when it changed no lines). A revert of a merge names the commits the merge
brought in (a reverted `Merge pull request #N` undoes the pull request), a revert of a reland
the change it landed again. `reverted_by` lists those reverts when the change is later
reverted; a revert of a small part of it stays a `commit_links` row only; empty / false when
the change landed again in the end. `relanded_by`: the relands of the change.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import polars as pl

from exceeds_pipeline.common.union_find import components

from exceeds_pipeline.classify.categories import (
    HEADLINE_MAX, KIND_PREFIX, LEADING_MARK, MIN_TYPED_TITLE_WORDS, RELEASE_TITLE, headline, project_labels,
    release_subject, squash_merge_titled_otherwise, stated_subject,
)
from exceeds_pipeline.classify.changelog import CHANGELOG_PATH, pull_request_categories
from exceeds_pipeline.classify.conventional import declared_type
from exceeds_pipeline.classify.links import PR_MERGE, pr_number_expr, undoing_commits
from exceeds_pipeline.enrich.exclusions import SWEEP_FILES, excluded_as
from exceeds_pipeline.history.counted_once import PR_SUFFIXES
from exceeds_pipeline.history.tables import empty_commit_expr

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
    "reverted_by": pl.List(pl.String),
    "relanded_by": pl.List(pl.String),
    "later_reverted": pl.Boolean,
}

# Numbered series: (regex over the subject; group "k" = part, "n" = total when given).
_SERIES = (
    r"(?i)\[(?:[a-z ]*patch[a-z ]*\s+)?(?:v\d+\s+)?(?P<k1>\d{1,3})\s*/\s*(?P<n1>\d{1,3}|n)\]"
    r"|^\s*patch\s+(?:v\d+\s+)?(?P<k2>\d{1,3})/(?P<n2>\d{1,3})\b"
    r"|^\s*(?P<k3>\d{1,3})/(?P<n3>\d{1,3}|n)\s*[:\-]"
    r"|\(\s*(?:part|pt\.?)\s*(?P<k4>\d{1,3})(?:\s*(?:of|/)\s*(?P<n4>\d{1,3}))?\s*\)"
    r"|\bpart\s+(?P<k5>\d{1,3})(?:\s+of\s+(?P<n5>\d{1,3}))?\b"
    r"|\(\s*(?P<k6>\d{1,3})\s*/\s*(?P<n6>\d{1,3}|n)\s*\)"
    r"|\b(?P<k7>\d{1,3})\s*/\s*(?P<n7>n)\b"
)
_SERIES_STRIP = (
    r"(?i)\[(?:[a-z ]*patch[a-z ]*\s+)?(?:v\d+\s+)?\d{1,3}\s*/\s*(?:\d{1,3}|n)\]\s*"
    r"|^\s*patch\s+(?:v\d+\s+)?\d{1,3}/\d{1,3}\s*:?\s*"
    r"|^\s*\d{1,3}/(?:\d{1,3}|n)\s*[:\-]\s*"
    r"|\s*\(\s*(?:part|pt\.?)\s*\d{1,3}(?:\s*(?:of|/)\s*\d{1,3})?\s*\)"
    r"|,?\s*\bpart\s+\d{1,3}(?:\s+of\s+\d{1,3})?\b"
    r"|\s*\(\s*\d{1,3}\s*/\s*(?:\d{1,3}|n)\s*\)"
    r"|\s*\b\d{1,3}\s*/\s*n\b"
)
_SERIES_GROUPS = 7

_GENERIC_TAGS = r"(?i)^(?:wip|rfc|draft|patch.*|v\d+|\d+\s*/\s*\d+|resend|reland|re-land|revert|nfc|nfci|skip ci|ci skip|minor|trivial|hotfix|fix|bug|feature|test|tests|docs?)$"
_CONV_SCOPE = r"^\s*[A-Za-z]+\(([^)\n]{1,60})\)!?:"
_COMPONENT_PREFIX = r"^\s*([A-Za-z0-9_][A-Za-z0-9_./-]{0,40}):\s"
_NOT_COMPONENT = r"(?i)^(?:feat|feature|fix|bugfix|hotfix|perf|refactor|style|docs?|tests?|build|ci|deps|chore|release|revert|wip|merge|reland|reapply|note|todo|fixes|closes|see|bug|issue)$"

# A package's manifest: package.json, Cargo.toml, pyproject.toml, a gemspec, ...
PACKAGE_MANIFEST = (r"(?:^|/)(?:package\.json|Cargo\.toml|go\.mod|pyproject\.toml|setup\.py|setup\.cfg|Gemfile|"
                    r"[^/]*\.gemspec|composer\.json|pom\.xml|build\.gradle(?:\.kts)?|requirements[^/]*\.txt)$")
# A file that only holds the version: lib/sinatra/version.rb, _version.py, GIT-VERSION-GEN.
VERSION_FILE = r"(?i)(?:^|/)(?:_{0,2}version_?_{0,2}\.(?:py|rb|go|js|ts|txt)|[A-Z0-9-]*VERSION-GEN)$"
# A dependency updated by name: `deps: body-parser@1.19.2`, `build(deps): bump qs from 6.9.6 to
# 6.9.7`, `Update mocha to 10.2.0` (the project's own `Bump version to 2.0` is a release).
DEPENDENCY_UPDATE = (
    r"(?i)^\s*(?:deps?|dependencies)\s*:|^\s*[a-z]+\((?:deps?|dependencies)(?:-dev)?\)!?:"
    r"|^\s*(?:bump|update|upgrade|downgrade|pin)(?:s|ed|d)?\s+(?:dependency\s+|the\s+)?[@\w./-]+\s+(?:from\s+\S+\s+)?to\s+v?\d"
    r"|(?:^|\s)@?[a-z0-9][\w.-]*(?:/[\w.-]+)?@v?\d+\.\d+"
)
_OWN_VERSION = r"(?i)^\s*\w+\s+(?:the\s+)?(?:package\s+|project\s+)?(?:version|release)\b"


def dependency_update(subject: pl.Expr) -> pl.Expr:
    """The subject updates a dependency by name (DEPENDENCY_UPDATE), not the project's own version."""
    subject = subject.fill_null("")
    return subject.str.contains(DEPENDENCY_UPDATE) & ~subject.str.contains(_OWN_VERSION)


# Files that unrelated changes touch alike.
GENERIC_FILES = (
    r"(?i)(?:^|/)(?:CHANGELOG|CHANGES|NEWS|HISTORY|RELEASE[-_]?NOTES|AUTHORS|CONTRIBUTORS|VERSION)"
    r"(?:\.[a-z]+)?$|(?:^|/)(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|uv\.lock|"
    r"Cargo\.lock|go\.sum|Gemfile\.lock|composer\.lock|Pipfile\.lock)$"
    # a package's manifest: every dependency bump and release edits it (express's package.json
    # is in a third of one author's commits), so sharing it relates nothing
    + r"|" + PACKAGE_MANIFEST
    # a file that only holds the version (lib/sinatra/version.rb, _version.py, GIT-VERSION-GEN)
    + r"|" + VERSION_FILE
)

# Exclusion reasons (enrich.exclusions) of files no one writes by hand.
MACHINE_MADE = ("generated", "vendored", "lock_file")

_STOPWORDS = (
    "the a an and or of to in on for with from into by at as is are be it its this that these "
    "those when if not no do does via per than then so also only all any some more less new "
    "add adds added adding fix fixes fixed fixing update updates updated remove removes removed "
    "use uses used using make makes made change changes changed support supports improve "
    "improves improved refactor refactored test tests move moved rename renamed initial minor "
    "small some other revert reland reapply part patch wip"
).split()


# A subject about the review or the branch, not the change: it names an item only when no other
# subject of it says anything (`Address comments on PR #950`, `Apply suggestions from code review`).
VAGUE_SUBJECT = (
    r"(?i)^\s*(?:(?:address(?:ed|es|ing)?|appl(?:y|ied|ies)|incorporat(?:e|ed|es)|resolv(?:e|ed|es))"
    r"\s+(?:(?:the|some|more|all|a\s+few|remaining|latest|pr|code|review(?:er)?'?s?|[\w.-]+'s)\s+)*"
    r"(?:review\s+)?(?:comments?|feedback|suggestions?|nits?|remarks?)\b"
    r"|fix(?:ed|es)?\s+(?:the\s+|some\s+)?(?:(?:code\s+)?review|pr)\s+(?:comments?|feedback|nits?)\b"
    r"|fix(?:ed|es)?\s+(?:the\s+|some\s+)?nits?\s*[.!]*\s*$"
    r"|(?:wip|fixup!?|squash!?|oops|more|updates?|changes|tweaks?|cleanup|minor|misc|stuff|progress|save|temp|tmp)\s*[.!]*\s*$"
    # gin's "Cosmetic changes" beside "Using uint64 for ErrorType"
    r"|cosmetics?(?:\s+(?:changes?|fix(?:es)?|clean-?ups?|tweaks?))?\s*[.!]*\s*$"
    r"|(?:fixup|squash|amend)!\s)"
)


# The pull request numbers a squash merge or a merge titled with them ends in: `Title (#123)`,
# `Title (#4816) (#4817)` (a pull request that carried another).
PR_SUFFIX = PR_SUFFIXES


def _title(subject: pl.Expr) -> pl.Expr:
    """A subject without `(#N)`, a leading list bullet, bracket tags, series numbering and a
    Conventional-Commit type of a kind of change (`feat(x):`, `fix:`) when MIN_TYPED_TITLE_WORDS
    words or more follow (`feat: add retry option` is "add retry option", `feat: caveats`
    stays). A component prefix stays: it names where the change is (redis's `LPOS: implement
    the final design.`, `Cluster: support to read from slave nodes.`, ripgrep's `printer: fix
    --stats for --json`), and so does a type that names an area (`ci: fix binary discovery`).
    (The words themes are read from drop a component before a long phrase: see
    themes.text.clean_title.)"""
    base = (
        subject.str.replace(PR_SUFFIX, "").str.replace(LEADING_MARK, "")
        .str.replace_all(_SERIES_STRIP, "")
        .str.replace(r"^\s*(?:\[[^\]\n]*\]\s*)+", "")
        .str.strip_chars()
    )
    # a subject that is nothing but a mark (`:hammer:`) is its own name
    base = pl.when(base == "").then(subject.str.replace(PR_SUFFIX, "").str.strip_chars()).otherwise(base)
    bare = base.str.replace(KIND_PREFIX, "").str.strip_chars()
    return pl.when(bare.str.count_matches(r"\S+") >= MIN_TYPED_TITLE_WORDS).then(bare).otherwise(base)


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


# The branch a merge brings in: `Merge pull request #N from owner/branch`, `Merge branch 'x'`,
# `Merge remote-tracking branch 'origin/x'`.
MERGED_BRANCH = (
    r"^Merge pull request #\d+ from [^/\s]+/(\S+)"
    r"|^Merge (?:remote-tracking )?branch '(?:origin/)?([^']+)'"
)


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
                    inner_number = pr_of[node] if pr_of[node] is not None else number
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


# --------------------------------------------------------------------------------------------
# Connected components
# --------------------------------------------------------------------------------------------


def _consecutive_pairs(df: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """Pairs (_a, _b) of consecutive rows within `by` groups of a frame sorted by `by` + time."""
    same = pl.all_horizontal([pl.col(c) == pl.col(c).shift(1) for c in by])
    return df.with_columns(
        pl.col("_n").shift(1).alias("_a"),
        pl.col("_n").alias("_b"),
        (pl.col("_t") - pl.col("_t").shift(1)).alias("_gap"),
        same.fill_null(False).alias("_same"),
    ).filter(pl.col("_same"))


_PAIRS = {"_a": pl.UInt32, "_b": pl.UInt32}


def _no_pairs() -> pl.DataFrame:
    return pl.DataFrame(schema=_PAIRS)


def pr_edges(work: pl.DataFrame) -> pl.DataFrame:
    """Commits of the same pull request in the same repository."""
    rows = work.filter(pl.col("pr_number").is_not_null()).sort("repo", "pr_number", "_t", "_n")
    return _consecutive_pairs(rows, ["repo", "pr_number"]).select("_a", "_b")


def revert_chain_edges(work: pl.DataFrame, links: pl.DataFrame) -> pl.DataFrame:
    """A change with its reverts and relands, when they are by the change's own author: a revert
    or reland by someone else is a link to the item (commit_links), not part of it."""
    if links is None or links.height == 0:
        return _no_pairs()
    node = work.select("repo", "sha", "_n", "person_id")
    chain = links.filter(pl.col("link_type").is_in(["reverts", "relands"]))
    return (
        chain.join(node.rename({"_n": "_a", "person_id": "_pa"}), on=["repo", "sha"], how="inner")
        .join(node.rename({"sha": "target_sha", "_n": "_b", "person_id": "_pb"}), on=["repo", "target_sha"], how="inner")
        .filter(pl.col("_pa") == pl.col("_pb"))
        .select("_a", "_b")
    )


# A branch everyone's work passes through, not one change's: merging it brings in many changes
# (`Merge branch 'master' of github.com:...`, `Merge branch 'next'`, `Merge branch 'stable'`).
# A release line named by its version (tmux's `3.3-rc`, `tmux-3.6a`, SQLAlchemy's `rel_0_9`,
# `branch4.0`, express's `3.x`), not a topic that names one (`https-proxy-2.0`).
INTEGRATION_BRANCH = (r"(?i)^(?:master|main|trunk|default|develop|devel|dev|development|next|maint|maintenance|"
                      r"stable|unstable|testing|nightly|canary|latest|staging|production|prod|integration|upstream|"
                      r"release(?:s|[-_/].*)?|hotfix(?:es)?|gh-pages|HEAD)$|^(?:origin|upstream)/"
                      r"|^(?:[a-z]+[-_])?(?:(?:v|rel|release|branch|stable|maint)[-_]?\d+(?:[._](?:\d+|x))*|\d+(?:[._](?:\d+|x))+)"
                      r"(?:[-_.]?(?:x|[a-z]|rc\d*|alpha\d*|beta\d*|stable|maint))?$")
# A merge that brings in the work of this many people merges an integration branch, whatever
# its name (redis's `1906-merge`: 28 authors).
BRANCH_MAX_PEOPLE = 3


def _from_topic_branch() -> pl.Expr:
    """The work commit came in by a merge of a topic branch (not a pull request, not an
    integration branch, not a branch that itself merged others): `branch_edges`' commits."""
    return (pl.col("merge_sha").is_not_null() & pl.col("pr_number").is_null() & pl.col("merge_branch").is_not_null()
            & ~pl.col("merge_branch").str.contains(INTEGRATION_BRANCH) & ~pl.col("_merges_branches").fill_null(False))


def branch_edges(work: pl.DataFrame) -> pl.DataFrame:
    """Commits of one author that one merge of a topic branch brought in (`Merge branch
    'routes-list'`; git's `Merge branch 'ab/topic'`), outside pull requests, each at most
    RELATED_GAP after the one before: the branch is one change, as a pull request is. A merge
    of an integration branch (INTEGRATION_BRANCH, one bringing in the work of BRANCH_MAX_PEOPLE
    people or more, or one whose branch itself merged pull requests or topic branches:
    `_merges_branches`; requests' feature/urllib3-backup, 175 commits of 8 people) brings in
    many changes, and groups none."""
    if "merge_sha" not in work.columns or "_merges_branches" not in work.columns:
        return _no_pairs()
    rows = (
        work.filter(_from_topic_branch())
        .filter(pl.col("person_id").n_unique().over("repo", "merge_sha") < BRANCH_MAX_PEOPLE)
        .sort("repo", "merge_sha", "person_id", "_t", "_n")
    )
    pairs = _consecutive_pairs(rows, ["repo", "merge_sha", "person_id"])
    return pairs.filter(pl.col("_gap") <= RELATED_GAP).select("_a", "_b")


def series_edges(work: pl.DataFrame) -> pl.DataFrame:
    """Parts of a numbered series (`[2/5]`, `PATCH 2/5`, `(part 3)`) of one author in one repo:
    same total (or same subject once the number is removed), at most SERIES_GAP apart."""
    series = work.with_columns(pl.col("subject").str.extract_groups(_SERIES).alias("_s")).unnest("_s")
    k = pl.coalesce([pl.col(f"k{i}") for i in range(1, _SERIES_GROUPS + 1)]).cast(pl.Int64, strict=False)
    total_text = pl.coalesce([pl.col(f"n{i}") for i in range(1, _SERIES_GROUPS + 1)]).str.to_lowercase()
    stem = _title(pl.col("subject")).str.to_lowercase().str.strip_chars()
    series = series.with_columns(
        k.alias("_k"), total_text.cast(pl.Int64, strict=False).alias("_total"),
        (total_text == "n").fill_null(False).alias("_open"), stem.alias("_stem"),
    ).filter(
        pl.col("_k").is_not_null()
        & (pl.col("_total").is_null() | ((pl.col("_total") >= 2) & (pl.col("_k") <= pl.col("_total"))))
    )
    # `[k/N]` (length not known yet): parts of one author in order, each the next number.
    series = series.with_columns(
        pl.when(pl.col("_total").is_not_null()).then(pl.format("of {}", pl.col("_total")))
        .when(pl.col("_open")).then(pl.lit("of n"))
        .otherwise(pl.col("_stem")).alias("_series")
    ).sort("repo", "person_id", "_series", "_t", "_n")
    pairs = _consecutive_pairs(
        series.with_columns(pl.col("_k").shift(1).over("repo", "person_id", "_series").alias("_prev_k")),
        ["repo", "person_id", "_series"],
    ).filter(pl.col("_gap") <= SERIES_GAP)
    pairs = pairs.filter(~pl.col("_open") | (pl.col("_k") == pl.col("_prev_k") + 1))
    return pairs.select("_a", "_b")


# git's autosquash markers: `fixup! <subject>` / `squash! <subject>` / `amend! <subject>` name the
# commit they complete by its subject.
_AUTOSQUASH = r"^(?:(?:fixup|squash|amend)!\s*)+(.+?)\s*$"


def fixup_edges(work: pl.DataFrame) -> pl.DataFrame:
    """A `fixup! <subject>` (`squash!`, `amend!`) and the latest earlier commit of the same author
    in the same repository with that subject (click: `fixup! add gha-update` was an item of its
    own, a bug fix)."""
    marked = work.select("repo", "person_id", pl.col("_n").alias("_b"), pl.col("_t").alias("_tb"),
                         pl.col("subject").str.extract(_AUTOSQUASH, 1).alias("_target")).drop_nulls("_target")
    if marked.height == 0:
        return _no_pairs()
    targets = work.select("repo", "person_id", pl.col("_n").alias("_a"), pl.col("_t").alias("_ta"),
                          pl.col("subject").str.strip_chars().alias("_target"))
    return (
        marked.join(targets, on=["repo", "person_id", "_target"], how="inner")
        .filter((pl.col("_ta") <= pl.col("_tb")) & (pl.col("_a") != pl.col("_b")))
        .sort("_b", "_ta", "_a").group_by("_b", maintain_order=True).last()
        .select("_a", "_b")
    )


def _subject_words(work: pl.DataFrame, column: str = "subject") -> pl.DataFrame:
    """``[_n, _w]``: the content words of each commit's title (three letters or more, lower case,
    no _STOPWORDS; a commit without any has no row), read from its subject or ``column``."""
    return work.select(
        "_n",
        _title(pl.col(column)).str.to_lowercase().str.extract_all(r"[a-z][a-z0-9_]{2,}").list.unique().alias("_w"),
    ).explode("_w", empty_as_null=False).filter(~pl.col("_w").is_in(_STOPWORDS))


def related_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None,
                  shared_files: tuple[pl.DataFrame, pl.DataFrame] | None = None,
                  subject_words: tuple[pl.DataFrame, pl.DataFrame] | None = None) -> pl.DataFrame:
    """Consecutive commits of one author, at most RELATED_GAP apart, neither in a pull request,
    and evidently related: same component, a shared file, or strongly overlapping subjects.
    (`shared_files`: `_shared_files(work, file_changes)`, and `subject_words`:
    `_subject_word_sets(work)`, when the caller has them.)"""
    stream = work.sort("repo", "person_id", "_t", "_n").with_columns(
        pl.col("pr_number").shift(1).alias("_prev_pr"),
        pl.col("_component").shift(1).alias("_prev_component"),
    )
    cand = _consecutive_pairs(stream, ["repo", "person_id"]).filter(
        (pl.col("_gap") <= RELATED_GAP) & pl.col("pr_number").is_null() & pl.col("_prev_pr").is_null()
    )
    if cand.height == 0:
        return _no_pairs()
    same_component = cand.filter(
        pl.col("_component").is_not_null() & (pl.col("_component") == pl.col("_prev_component"))
    ).select("_a", "_b")
    pair_ids = cand.select("repo", "_a", "_b", "_gap")
    sha_of = work.select("_n", "sha")
    words, rare = subject_words or _subject_word_sets(work)
    files = _no_pairs()
    if file_changes is not None and file_changes.height:
        from exceeds_pipeline.classify.categories import DOCS_PATH, TEST_PATH

        fc, hubs = shared_files or _shared_files(work, file_changes)
        fc = fc.with_columns(pl.col("path").fill_null("").str.contains(DOCS_PATH).alias("_doc"),
                             pl.col("path").fill_null("").str.contains(TEST_PATH).alias("_test"))
        docs_only = fc.group_by("repo", "sha").agg(pl.col("_doc").all().alias("_docs_only"),
                                                   (~pl.col("_doc") & ~pl.col("_test")).any().alias("_code"))
        files_per_commit = fc.group_by("repo", "sha").len()
        hub_fc = fc.join(hubs, on=["repo", "path"], how="semi").drop("_doc", "_test")
        fc = fc.join(hubs, on=["repo", "path"], how="anti")
        pa = pair_ids.join(sha_of.rename({"_n": "_a", "sha": "sha_a"}), on="_a").join(
            sha_of.rename({"_n": "_b", "sha": "sha_b"}), on="_b"
        )
        pa = (
            pa.join(docs_only.rename({"sha": "sha_a", "_docs_only": "_da", "_code": "_ca"}), on=["repo", "sha_a"], how="left")
            .join(docs_only.rename({"sha": "sha_b", "_docs_only": "_db", "_code": "_cb"}), on=["repo", "sha_b"], how="left")
            .with_columns((pl.col("_da").fill_null(False) & pl.col("_db").fill_null(False)).alias("_both_docs"),
                          (pl.col("_ca").fill_null(False) & pl.col("_cb").fill_null(False)).alias("_both_code"))
        )
        # A documentation file (README, docs/) everyone edits relates two documentation
        # changes, not a code change to the README edit next to it (`Reorganise structure`
        # and `Update README`): between those, only a shared non-documentation file counts.
        # Likewise a test file relates a change to its tests, not two changes of code that both
        # add a case to it (fzf's test/test_core.rb joined a highlight fix and a fast path).
        left = pa.join(fc.rename({"sha": "sha_a"}), on=["repo", "sha_a"], how="inner").filter(
            (pl.col("_both_docs") | ~pl.col("_doc")) & ~(pl.col("_both_code") & pl.col("_test"))
        )
        files = left.join(fc.rename({"sha": "sha_b"}).drop("_doc", "_test"), on=["repo", "sha_b", "path"],
                          how="semi").select("_a", "_b").unique()
        if hub_fc.height:
            # A hub relates a follow-up to its change when their subjects also share a word the
            # repository rarely uses (`Add 'transform' action`, `Change transform action to ...`).
            hub_pairs = pa.join(hub_fc.rename({"sha": "sha_a"}), on=["repo", "sha_a"]).join(
                hub_fc.rename({"sha": "sha_b"}), on=["repo", "sha_b", "path"], how="semi") \
                .select("_a", "_b", "_gap", "_both_docs").unique(["_a", "_b"])
            named = hub_pairs.join(rare.rename({"_n": "_a"}), on="_a").join(
                rare.rename({"_n": "_b"}), on=["_b", "_w"], how="semi").select("_a", "_b").unique()
            # ... or when both only document (a man page written over an hour), or the later
            # one is a quick follow-up worded as one (`Typo in man page.`, `Undo this and ...`)
            later = work.select(pl.col("_n").alias("_b"),
                                pl.col("subject").fill_null("").str.contains(FOLLOW_UP).alias("_follow"))
            quick = hub_pairs.join(later, on="_b").filter(
                pl.col("_both_docs") | ((pl.col("_gap") <= FOLLOW_UP_GAP) & pl.col("_follow"))
            ).select("_a", "_b")
            files = pl.concat([files, named, quick])
        # A sweep over the tree (a reformat, a copyright-year bump, a branch merged by hand)
        # shares a file with every neighbour and relates to none by it: SQLAlchemy's "happy new
        # year" (254 files) had joined a MariaDB split and a docs fix into one item.
        sweeps = (files_per_commit.filter(pl.col("len") >= SWEEP_FILES)
                  .join(sha_of, on="sha").select("_n"))
        if sweeps.height:
            files = files.join(sweeps.rename({"_n": "_a"}), on="_a", how="anti") \
                .join(sweeps.rename({"_n": "_b"}), on="_b", how="anti")
        files = pl.concat([files.cast(_PAIRS), _named_file_pairs(pa, file_changes, work)])
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
    related = pl.concat([same_component.cast(_PAIRS), files.cast(_PAIRS), similar.cast(_PAIRS)]).unique()
    if file_changes is not None and file_changes.height:
        related = _apart_by_changelog(work, file_changes, related)
    return _one_declared_change_each(stream, _apart_by_issue(work, _apart_by_release(work, related)))


def _apart_by_changelog(work: pl.DataFrame, file_changes: pl.DataFrame, related: pl.DataFrame) -> pl.DataFrame:
    """The related pairs less those of two code changes that each add to the changelog: their
    author recorded each as a change of its own (rack: `Cache Rack::Request#POST result ...`
    and, a day later, `Remove rack.multithread/...`, each with its CHANGELOG.md line, shared
    lib/rack/request.rb)."""
    from exceeds_pipeline.classify.categories import DOCS_PATH, TEST_PATH

    path = pl.col("path").fill_null("")
    recorded = (
        file_changes.join(work.select("repo", "sha"), on=["repo", "sha"], how="semi")
        .group_by("repo", "sha").agg(
            (path.str.contains(CHANGELOG_PATH) & (pl.col("lines_added").fill_null(0) > 0)).any().alias("_entry"),
            (~path.str.contains(DOCS_PATH) & ~path.str.contains(TEST_PATH)).any().alias("_code"))
        .filter(pl.col("_entry") & pl.col("_code"))
        .join(work.select("repo", "sha", "_n"), on=["repo", "sha"]).select("_n")
    )
    both = related.join(recorded.rename({"_n": "_a"}), on="_a", how="semi").join(recorded.rename({"_n": "_b"}), on="_b", how="semi")
    return related.join(both, on=["_a", "_b"], how="anti")


def _apart_by_release(work: pl.DataFrame, related: pl.DataFrame) -> pl.DataFrame:
    """The related pairs less those that join a release commit to anything but its release
    steps (`release_edges`): not the fix of the next day that touches the same version
    constant, nor the next release (nlohmann/json's `set version to 3.11.0` and `set version to
    3.11.1`). (The same version set twice is one release: json's two `set version to 3.3.0`.)"""
    if "_release" not in work.columns:
        return related
    kind = work.select("_n", "_release", "_release_step", release_title(pl.col("subject")).alias("_v"))
    return (
        related.join(kind.rename({"_n": "_a", "_release": "_ra", "_release_step": "_sa", "_v": "_va"}), on="_a")
        .join(kind.rename({"_n": "_b", "_release": "_rb", "_release_step": "_sb", "_v": "_vb"}), on="_b")
        .filter(~((pl.col("_ra") & ~pl.col("_sb")) | (pl.col("_rb") & ~pl.col("_sa"))
                  | (pl.col("_ra") & pl.col("_rb") & ~pl.col("_va").eq_missing(pl.col("_vb")))))
        .select("_a", "_b")
    )


# A run: a repository's commits each committed at most BATCH_SECONDS after the one before; one
# author's commits in a run are a batch, of at most BATCH_MAX_COMMITS. A longer batch is a
# history rewritten or a long branch replayed whole (guzzle's Guzzle 4 rewrite: months of
# commits re-committed in four minutes), and says nothing of which of its commits form one change.
BATCH_MAX_COMMITS = 12
BATCH_SECONDS = 2
# A test file's name less its test affixes (`RetryPolicyTests.swift`, `test_views.py`,
# `parser_test.go`, `app.spec.ts` -> `retrypolicy`, `views`, `parser`, `app`).
_TEST_AFFIXES = r"(?i)^test_|(?:_?tests?|_?spec|testcase|_?it)$"


def _test_named_pairs(pairs: pl.DataFrame, fc: pl.DataFrame) -> pl.DataFrame:
    """``[_a, _b]``: the pairs (with repo, sha_a, sha_b) where one commit changes a test file named
    for a source file the other changes (`RetryPolicyTests.swift`, `RetryPolicy.swift`;
    `CurlFactoryTest.php`, `CurlFactory.php`). A test file's name says so by its affix: tmux's
    regress/grid.sh tests a behaviour, not grid.c. `fc`: file changes with `_test`."""
    stem = pl.col("path").str.extract(r"([^/]+?)(?:\.[^./]+)?$", 1).str.to_lowercase()
    names = fc.select("repo", "sha", pl.col("_test"), stem.alias("_name")).with_columns(
        pl.when(pl.col("_test")).then(pl.col("_name").str.replace(_TEST_AFFIXES, "")).otherwise(pl.col("_name")).alias("_stem")
    ).filter((pl.col("_stem").str.len_chars() >= 3) & (~pl.col("_test") | (pl.col("_stem") != pl.col("_name")))).unique()
    tested = names.filter("_test").select("repo", "sha", "_stem")
    source = names.filter(~pl.col("_test")).select("repo", "sha", "_stem")
    return pl.concat([
        pairs.join(tested.rename({"sha": "sha_a"}), on=["repo", "sha_a"]).join(source.rename({"sha": "sha_b"}), on=["repo", "sha_b", "_stem"], how="semi"),
        pairs.join(tested.rename({"sha": "sha_b"}), on=["repo", "sha_b"]).join(source.rename({"sha": "sha_a"}), on=["repo", "sha_a", "_stem"], how="semi"),
    ]).select("_a", "_b").unique()


def batch_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None,
                shared_files: tuple[pl.DataFrame, pl.DataFrame] | None = None,
                subject_words: tuple[pl.DataFrame, pl.DataFrame] | None = None) -> pl.DataFrame:
    """Commits one author wrote over days and that were committed together, seconds apart and
    later than written (a branch replayed onto the main line: GitHub's "Rebase and merge", a
    rebase before a push, `git am` of a series), are related whatever time lies between them
    when they evidently are: a shared file (no hub, no sweep; documents only between two
    documentation changes; a test file only between a change of tests alone and the nearest
    change it shares one with: rack's `Add specs to get coverage back to 100%`, five spec files,
    had joined two deprecations and a quoting fix that each touched one of them), a test file
    named for a source file the other changes (`RetryPolicyTests.swift` and `RetryPolicy.swift`),
    or a hub file and a subject word the repository rarely uses. Alamofire's Christian Noon
    pushed each feature that way: `Added RedirectHandler protocol ...` (Jan 22), `Added
    Redirector type ...` (Jan 23) and `Added test suite for request and session redirect
    handlers` (Jan 29), all committed Feb 7 09:40:08, were two items."""
    if file_changes is None or file_changes.height == 0 or "committed_at" not in work.columns or work.height < 2:
        return _no_pairs()
    # In the order the repository's commits were committed: a run of commits seconds apart is
    # one replay, and each author's commits in it a batch (two branches replayed minutes apart
    # interleave by the dates they were written: Alamofire's redirect and response-cache
    # handlers, Jan 22-29; a maintainer applies several people's patches at once).
    stream = work.filter(pl.col("pr_number").is_null()).sort("repo", "committed_at", "_t", "_n").select(
        "repo", "person_id", "_n", "sha", "_t", "committed_at")
    step = (pl.col("committed_at") - pl.col("committed_at").shift(1)).dt.total_seconds()
    new_run = ~((pl.col("repo") == pl.col("repo").shift(1)) & step.is_between(0, BATCH_SECONDS)).fill_null(False)
    stream = stream.with_columns(pl.struct(new_run.cum_sum(), "person_id").rank("dense").alias("_batch"))
    batches = stream.group_by("_batch").agg(
        pl.len().alias("_size"), (pl.col("committed_at") > pl.col("_t")).any().alias("_later"))
    members = stream.join(batches.filter((pl.col("_size") >= 2) & (pl.col("_size") <= BATCH_MAX_COMMITS)
                                         & pl.col("_later")), on="_batch", how="semi").select("repo", "_n", "sha", "_batch")
    if members.height == 0:
        return _no_pairs()
    pairs = (members.rename({"_n": "_a", "sha": "sha_a"}).join(members.rename({"_n": "_b", "sha": "sha_b"}),
                                                               on=["repo", "_batch"])
             .filter(pl.col("_a") < pl.col("_b")).select("repo", "_a", "_b", "sha_a", "sha_b"))
    from exceeds_pipeline.classify.categories import DOCS_PATH, TEST_PATH

    fc, hubs = shared_files or _shared_files(work, file_changes)
    fc = fc.join(members.select("repo", "sha"), on=["repo", "sha"], how="semi")
    sweeps = fc.group_by("repo", "sha").len().filter(pl.col("len") >= SWEEP_FILES).select("repo", "sha")
    fc = fc.join(sweeps, on=["repo", "sha"], how="anti").with_columns(
        pl.col("path").str.contains(DOCS_PATH).alias("_doc"), pl.col("path").str.contains(TEST_PATH).alias("_test"))
    hub_fc = fc.join(hubs, on=["repo", "path"], how="semi")
    fc = fc.join(hubs, on=["repo", "path"], how="anti")
    kinds = fc.group_by("repo", "sha").agg(pl.col("_doc").all().alias("_docs_only"), pl.col("_test").all().alias("_tests_only"))
    own = fc.join(kinds, on=["repo", "sha"]).select("repo", "sha", "path", "_doc", "_test", "_docs_only", "_tests_only")
    shared = (
        pairs.join(own.rename({"sha": "sha_a", "_docs_only": "_da", "_tests_only": "_ta"}), on=["repo", "sha_a"])
        .join(own.rename({"sha": "sha_b", "_docs_only": "_db", "_tests_only": "_tb"}).drop("_doc", "_test"),
              on=["repo", "sha_b", "path"])
        .filter(~pl.col("_doc") | (pl.col("_da") & pl.col("_db")))
    )
    by_code = shared.filter(~pl.col("_test")).select("_a", "_b")
    # a change of tests alone and, of the changes it shares a test file with, the nearest
    tests = shared.filter(pl.col("_test") & (pl.col("_ta") | pl.col("_tb"))).select(
        "_a", "_b", pl.when(pl.col("_tb")).then(pl.col("_b")).otherwise(pl.col("_a")).alias("_t_only"),
        (pl.col("_b").cast(pl.Int64) - pl.col("_a").cast(pl.Int64)).alias("_d")).unique()
    nearest = tests.sort("_t_only", "_d", "_a").group_by("_t_only", maintain_order=True).first().select("_a", "_b")
    shared = pl.concat([by_code, nearest])
    by_test = _test_named_pairs(pairs, fc)
    _, rare = subject_words or _subject_word_sets(work)
    by_word = (pairs.join(hub_fc.rename({"sha": "sha_a"}).select("repo", "sha_a", "path"), on=["repo", "sha_a"])
               .join(hub_fc.rename({"sha": "sha_b"}).select("repo", "sha_b", "path"), on=["repo", "sha_b", "path"], how="semi")
               .select("_a", "_b").unique()
               .join(rare.rename({"_n": "_a"}), on="_a").join(rare.rename({"_n": "_b"}), on=["_b", "_w"], how="semi"))
    related = pl.concat([shared.select("_a", "_b"), by_test, by_word.select("_a", "_b")]).unique().cast(_PAIRS)
    return _apart_by_issue(work, _apart_by_release(work, related))


# A file's name as a subject writes it: `README.ja`, `format.c`, `INTERNALS`, `test524`; a plain
# lower-case word (`configure`, `gitview`) is as likely an English word as the file.
_FILE_NAME = r"^(?:[^/]*\.[^/]*[A-Za-z0-9][^/]*|[A-Za-z0-9_+-]*(?:[A-Z0-9])[A-Za-z0-9_+-]*)$"
# A file moved once has two paths; a name on more is one several folders use.
SAME_NAME_PATHS = 2


def _named_file_pairs(pairs: pl.DataFrame, file_changes: pl.DataFrame, work: pl.DataFrame) -> pl.DataFrame:
    """The candidate ``pairs`` (``repo, _a, _b, sha_a``) whose later commit's subject names a file
    the earlier one added, deleted or renamed: the rest of that change (tmux: "Remove README.ja
    which has not been updated since 2018", then "Remove README.ja from EXTRA_DIST."; curl:
    "Test case for sending insanely big HTTP requests", then "added test56"). A file whose
    existence changed is specific even where everyone edits it (a hub), or in a sweep. A name
    that several folders use (`Makefile.am`, `__init__.py`, `README`) is not."""
    base = pl.col("_p").str.extract(r"([^/]+)$").alias("_tok")
    changed = (file_changes.select("repo", pl.col("sha").alias("sha_a"), "status", pl.concat_list("path", "old_path").alias("_p"))
               .explode("_p", empty_as_null=True).drop_nulls("_p"))
    common = (changed.select("repo", "_p").unique().group_by("repo", base).len()
              .filter(pl.col("len") > SAME_NAME_PATHS).select("repo", "_tok"))
    born = (
        changed.filter(pl.col("status").fill_null("").str.slice(0, 1).is_in(["A", "D", "R"]))
        .filter(~pl.col("_p").str.contains(GENERIC_FILES))
        .select("repo", "sha_a", base)
        .filter((pl.col("_tok").str.len_chars() >= 4) & pl.col("_tok").str.contains(_FILE_NAME))
        .join(common, on=["repo", "_tok"], how="anti")
        .unique()
    )
    named = work.select(
        pl.col("_n").alias("_b"),
        pl.col("subject").fill_null("").str.extract_all(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*").alias("_tok"),
    ).explode("_tok", empty_as_null=False).drop_nulls("_tok").with_columns(
        pl.col("_tok").str.strip_chars_end(".")).unique()
    return (pairs.select("repo", "_a", "_b", "sha_a").join(born, on=["repo", "sha_a"])
            .join(named, on=["_b", "_tok"], how="semi").select("_a", "_b").unique().cast(_PAIRS))


# A quick follow-up of a change: at most FOLLOW_UP_GAP later, and worded as one (a small size
# alone is no evidence: tmux's small commits of one hour are as often separate changes).
FOLLOW_UP_GAP = timedelta(minutes=30)
FOLLOW_UP = r"(?i)\b(?:oops|typos?|undo|leftovers?|forgot|forgotten|missed|fixup|fix-up|thinko|brown paper bag)\b"


# A quick fix of a change made with one other commit in between: worded as a repair of what
# was just done (`Fixed compilation of new rio.c changes`, `Fix the BITFIELD_RO test`).
QUICK_FIX = r"(?i)^\s*(?:fix(?:e[sd])?|repair(?:s|ed)?|correct(?:s|ed)?)\b|" + FOLLOW_UP
# (an hour: redis's "Fix BITFIELD_RO test" came 33 minutes after the change it fixes)
QUICK_FIX_GAP = timedelta(minutes=60)


def follow_up_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None,
                    shared_files: tuple[pl.DataFrame, pl.DataFrame] | None = None) -> pl.DataFrame:
    """A quick fix (QUICK_FIX, at most QUICK_FIX_GAP after) of the author's change before last,
    neither in a pull request, when the two share a file written by hand that the commit
    between them does not touch (redis: "Fixed compilation of new rio.c changes (typos and so
    forth.)" three minutes after "Add checksum computation to rio.c", "dump/restore fixed to
    use the new crc64 API" between them). Consecutive commits are `related_edges`'."""
    if file_changes is None or file_changes.height == 0 or work.height < 3:
        return _no_pairs()
    stream = work.sort("repo", "person_id", "_t", "_n").select("repo", "person_id", "_n", "_t", "pr_number", "sha", "subject")
    same = (pl.col("repo") == pl.col("repo").shift(2)) & (pl.col("person_id") == pl.col("person_id").shift(2))
    cand = stream.with_columns(
        pl.col("_n").shift(2).alias("_a"), pl.col("_n").shift(1).alias("_m"), pl.col("_n").alias("_b"),
        (pl.col("_t") - pl.col("_t").shift(2)).alias("_gap"),
        pl.col("pr_number").shift(2).alias("_pr_a"),
    ).filter(same.fill_null(False) & (pl.col("_gap") <= QUICK_FIX_GAP) & pl.col("pr_number").is_null()
             & pl.col("_pr_a").is_null() & pl.col("subject").fill_null("").str.contains(QUICK_FIX))
    if cand.height == 0:
        return _no_pairs()
    hand, hubs = shared_files or _shared_files(work, file_changes)
    fc = (hand.join(hubs, on=["repo", "path"], how="anti")
          .join(work.select("repo", "sha", "_n"), on=["repo", "sha"]).select("_n", "path").unique())
    shared = (
        cand.select("_a", "_m", "_b")
        .join(fc.rename({"_n": "_a"}), on="_a")
        .join(fc.rename({"_n": "_b"}), on=["_b", "path"], how="semi")
        .join(fc.rename({"_n": "_m"}), on=["_m", "path"], how="anti")
    )
    return shared.select("_a", "_b").unique()


# A commit of tests alone this close to a code change of its author is that change's test when
# it says so: tmux commits a fix and its regress test seconds apart ("Use correct X position ...,
# GitHub issue 5511", "Regress for GitHub issue 5511"; "Add a -K flag to new-pane ...",
# "new-pane -K test bits."; "Add a menu on empty areas ...", "Update test."), and a test file
# shares no file with the code it tests.
TEST_GAP = timedelta(minutes=10)
NAMED_TEST_GAP = timedelta(hours=2)
# Words that say a commit is about tests or an issue, not which: "Update test.", "Fix some
# tests.", "Regress for GitHub issue 5511" (the issue's number says which).
_UNSPECIFIC_WORDS = (
    "test tests testing tested testcase testcases regress regression regressions case cases spec specs "
    "bit bits few more output expected result results extend extended another missing "
    "github issue issues bug bugs ticket tickets reported"
).split()


def test_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None) -> pl.DataFrame:
    """A commit that changes only tests, joined to the nearer of its author's previous and next
    commit when that one changes code and is at most TEST_GAP away, neither in a pull request
    (a pull request is one item already) and not naming different issues."""
    if file_changes is None or file_changes.height == 0 or work.height < 2:
        return _no_pairs()
    from exceeds_pipeline.classify.categories import DOCS_PATH, TEST_PATH

    path = pl.col("path").fill_null("")
    test = path.str.contains(TEST_PATH)
    kinds = file_changes.join(work.select("repo", "sha"), on=["repo", "sha"], how="semi").group_by("repo", "sha").agg(
        test.all().alias("_tests_only"), (~test & ~path.str.contains(DOCS_PATH)).any().alias("_code"))
    stream = (
        work.sort("repo", "person_id", "_t", "_n").select("repo", "person_id", "_n", "_t", "sha", "pr_number")
        .join(kinds, on=["repo", "sha"], how="left", maintain_order="left")
        .with_columns(pl.col("_tests_only").fill_null(False), pl.col("_code").fill_null(False))
    )
    same = pl.col("repo").eq(pl.col("repo").shift(-1)) & pl.col("person_id").eq(pl.col("person_id").shift(-1))
    code_next = (same & pl.col("_code").shift(-1) & pl.col("pr_number").shift(-1).is_null()).fill_null(False)
    gap_next = (pl.col("_t").shift(-1) - pl.col("_t"))
    same_prev = pl.col("repo").eq(pl.col("repo").shift(1)) & pl.col("person_id").eq(pl.col("person_id").shift(1))
    code_prev = (same_prev & pl.col("_code").shift(1) & pl.col("pr_number").shift(1).is_null()).fill_null(False)
    gap_prev = (pl.col("_t") - pl.col("_t").shift(1))
    # A test file named for a source file of the code commit just before says which change it
    # tests, up to NAMED_TEST_GAP later (guzzle's `Test fix` of CurlFactoryTest.php, 42 minutes
    # after `Removing content-length guessing from curl` in CurlFactory.php).
    near = stream.with_columns(
        pl.col("_n").shift(1).alias("_a"), pl.col("sha").shift(1).alias("sha_a"),
        code_prev.alias("_cp"), gap_prev.alias("_gap_p"),
    ).filter(pl.col("_tests_only") & pl.col("pr_number").is_null() & pl.col("_cp") & (pl.col("_gap_p") <= NAMED_TEST_GAP)) \
        .select("repo", "_a", pl.col("_n").alias("_b"), "sha_a", pl.col("sha").alias("sha_b"))
    named = _no_pairs()
    if near.height:
        both = pl.concat([near.select("repo", pl.col("sha_a").alias("sha")), near.select("repo", pl.col("sha_b").alias("sha"))])
        fc = file_changes.join(both.unique(), on=["repo", "sha"], how="semi").select("repo", "sha", "path", test.alias("_test"))
        named = _test_named_pairs(near, fc)
    cand = stream.with_columns(
        pl.when(code_prev & (gap_prev <= TEST_GAP)).then(gap_prev).alias("_gp"),
        pl.when(code_next & (gap_next <= TEST_GAP)).then(gap_next).alias("_gn"),
        pl.col("_n").shift(1).alias("_prev"), pl.col("_n").shift(-1).alias("_next"),
    ).filter(pl.col("_tests_only") & pl.col("pr_number").is_null()
             & (pl.col("_gp").is_not_null() | pl.col("_gn").is_not_null()))
    prev_nearer = pl.col("_gn").is_null() | (pl.col("_gp") <= pl.col("_gn"))
    pairs = cand.select(
        pl.col("_n").alias("_test"), pl.when(prev_nearer).then("_prev").otherwise("_next").alias("_code"),
    )
    # ... and when the two say they go together: a word of the change (`new-pane`, `sync`) or
    # an issue in both subjects, or a test subject that names nothing ("Update test."; redis's
    # "Test: added regression for issue #872." had joined "Comment in the call() function
    # clarified a bit.").
    # (the whole first sentence: tmux wraps "... when tabs are overwritten, GitHub issue 5441
    # from Ayman Bagabas." over two lines, and "Add regress test from Ayman Bagabas." names him)
    words = _subject_words(work, "_headline" if "_headline" in work.columns else "subject").filter(
        ~pl.col("_w").is_in(_UNSPECIFIC_WORDS))
    specific = words.select("_n").unique()
    refs = work.select("_n", "_refs").explode("_refs", empty_as_null=False).drop_nulls("_refs")
    shared_word = pairs.join(words.rename({"_n": "_test"}), on="_test").join(
        words.rename({"_n": "_code"}), on=["_code", "_w"], how="semi").select("_test").unique()
    shared_ref = pairs.join(refs.rename({"_n": "_test"}), on="_test").join(
        refs.rename({"_n": "_code"}), on=["_code", "_refs"], how="semi").select("_test").unique()
    # (a test that names an issue says which change it tests: it joins one naming that issue)
    vague = (pairs.join(specific.rename({"_n": "_test"}), on="_test", how="anti")
             .join(refs.rename({"_n": "_test"}).select("_test").unique(), on="_test", how="anti").select("_test"))
    said = pl.concat([shared_word, shared_ref, vague]).unique()
    pairs = pairs.join(said, on="_test", how="semi")
    return _apart_by_issue(work, pl.concat([pairs.select(pl.col("_code").alias("_a"), pl.col("_test").alias("_b")).cast(_PAIRS),
                                            named.cast(_PAIRS)]).unique())


# A subject word in at most this share of a repository's work commits (or in 3) names something
# specific.
RARE_WORD_SHARE = 0.01


def _subject_word_sets(work: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(`_subject_words(work)`, `_rare_words` of them): what `related_edges` and `batch_edges` read."""
    words = _subject_words(work)
    return words, _rare_words(work, words)


def _rare_words(work: pl.DataFrame, words: pl.DataFrame) -> pl.DataFrame:
    """``[_n, _w]``: the subject words of each commit that the repository's subjects rarely use."""
    per_repo = words.join(work.select("_n", "repo"), on="_n")
    total = work.group_by("repo").agg(pl.len().alias("_total"))
    rare = (
        per_repo.group_by("repo", "_w").agg(pl.col("_n").n_unique().alias("_k"))
        .join(total, on="repo").filter(pl.col("_k") <= pl.max_horizontal(RARE_WORD_SHARE * pl.col("_total"), 3))
        .select("repo", "_w")
    )
    return per_repo.join(rare, on=["repo", "_w"], how="semi").select("_n", "_w")


# A file in this share of a repository's work commits (of at least HUB_MIN_COMMITS) is a hub.
HUB_SHARE = 0.1
HUB_MIN_COMMITS = 200


def _shared_files(work: pl.DataFrame, file_changes: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(the files each commit changes that can relate it to another, `[repo, sha, path]`; the
    hubs among them, `_hub_files`). Files no one writes by hand (generated, vendored, lock
    files: `file_changes` says so) change with every regeneration, and generic files
    (GENERIC_FILES) with every change: sharing one relates nothing."""
    machine_made = excluded_as(file_changes, *MACHINE_MADE)
    hand = (
        file_changes.filter(~machine_made).select("repo", "sha", "path")
        .filter(~pl.col("path").fill_null("").str.contains(GENERIC_FILES))
        .unique()
    )
    return hand, _hub_files(work, file_changes)


def _hub_files(work: pl.DataFrame, file_changes: pl.DataFrame) -> pl.DataFrame:
    """``[repo, path]``: the files nearly every change touches (sinatra's lib/sinatra/base.rb is
    in 21% of its commits): sharing one relates two commits no more than sharing the
    repository does."""
    total = work.group_by("repo").agg(pl.len().alias("_total")).filter(pl.col("_total") >= HUB_MIN_COMMITS)
    return (
        file_changes.join(work.select("repo", "sha"), on=["repo", "sha"], how="semi")
        .group_by("repo", "path").agg(pl.col("sha").n_unique().alias("_k"))
        .join(total, on="repo")
        .filter(pl.col("_k") >= HUB_SHARE * pl.col("_total"))
        .select("repo", "path")
    )


# An issue or pull request a message refers to: `fixes #608`, `(#12)`, `GH-42`, `issues/12`, and
# in words: `GitHub issue 5511` (tmux), `bug 1234` (curl), `[ticket:2345]` (SQLAlchemy's Trac);
# and a vulnerability's id (jq's "Fixes CVE-2026-43894": each CVE is a change of its own).
ISSUE_REF = (r"(?i)(?:^|[^\w&/#])(?:#|gh-|issues/|pull/|cve-\d{4}-|(?:github\s+)?(?:issue|bug|ticket)(?:\s*:\s*|\s+)#?)"
             r"(\d{1,7})\b")


# A closing clause: `Fixes #3180`, `closes: #12, #13`, `Resolves GH-7 and #8`.
CLOSING_REFS = (r"(?i)\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\b\s*:?\s*"
                r"(?:(?:#|gh-)\d{1,7}\b(?:\s*(?:,|and|&)\s*)?)+")


def issue_refs(columns: list[str]) -> pl.Expr:
    """The issue numbers a commit's message (its subject without one) names: `assign_work_items`
    keeps them as `_refs` for `issue_edges` and `_apart_by_issue`. A message that says which
    issues it closes is about those: ripgrep's "printer: fix panic ... Fixes #3180" also says
    "update the CHANGELOG to include the fix for #2111", another change's issue."""
    text = pl.col("message") if "message" in columns else pl.col("subject")
    text = text.fill_null("")
    named = text.str.extract_all(ISSUE_REF).list.eval(pl.element().str.extract(r"(\d+)$", 1))
    closed = text.str.extract_all(CLOSING_REFS).list.join(" ").str.extract_all(r"\d+")
    return pl.when(closed.list.len() > 0).then(closed).otherwise(named).list.unique()


def issue_edges(work: pl.DataFrame) -> pl.DataFrame:
    """Commits of one author, outside pull requests, that name the same issue within
    RELATED_GAP of each other (`fixes #608`, then `also reset the body on HEAD, refs #608`): not
    longer, or an issue named for months (`part of #1`, a roadmap) would glue them all."""
    rows = (
        work.filter(pl.col("pr_number").is_null()).select("_n", "repo", "person_id", "_t")
        .join(work.select("_n", "_refs"), on="_n").explode("_refs", empty_as_null=False).drop_nulls("_refs")
        .sort("repo", "person_id", "_refs", "_t", "_n")
    )
    pairs = _consecutive_pairs(rows, ["repo", "person_id", "_refs"])
    return pairs.filter(pl.col("_gap") <= RELATED_GAP).select("_a", "_b")


def _apart_by_issue(work: pl.DataFrame, related: pl.DataFrame) -> pl.DataFrame:
    """The related pairs less those whose commits each name issues and share none: `resetting
    body should drop Content-Length, fixes #608` and `add layout_options, fixes #495` an hour
    apart in the same file are two changes."""
    refs = work.select("_n", "_refs")
    pairs = (
        related.join(refs.rename({"_n": "_a", "_refs": "_ra"}), on="_a", how="left")
        .join(refs.rename({"_n": "_b", "_refs": "_rb"}), on="_b", how="left")
    )
    apart = (
        (pl.col("_ra").list.len() > 0) & (pl.col("_rb").list.len() > 0)
        & (pl.col("_ra").list.set_intersection(pl.col("_rb")).list.len() == 0)
    ).fill_null(False)
    return pairs.filter(~apart).select("_a", "_b")


def makes_release() -> pl.Expr:
    """The commit's subject makes a release (categories.release_subject)."""
    return release_subject(pl.col("subject"))


def release_flags(work: pl.DataFrame, file_changes: pl.DataFrame | None) -> pl.DataFrame:
    """`work` with `_release` (its subject makes a release), `_release_step` (that, or it
    changes only changelogs, package manifests, lock files and version files: GENERIC_FILES,
    and is not a dependency update the changelog lists as a change of its own: express's
    `deps: qs@6.9.7` with its line in History.md, the night before 4.17.3; ripgrep's `deps:
    update everything` of Cargo.lock on release day is a step)
    and `_release_dir`: the one top-level folder all its files are in when it changes the
    package manifest at its top (sinatra's `v1.4.0` of rack-protection/ with
    rack-protection/rack-protection.gemspec: a release of rack-protection, not of Sinatra)."""
    release = makes_release()
    if file_changes is None or file_changes.height == 0:
        return work.with_columns(release.alias("_release"), release.alias("_release_step"),
                                 pl.lit(None, pl.String).alias("_release_dir"))
    path = pl.col("path").fill_null("")
    top = path.str.extract(r"^([^/]+)/", 1)
    steps = (
        file_changes.select("repo", "sha", path.str.contains(GENERIC_FILES).alias("_g"), top.alias("_top"),
                            (path.str.contains(PACKAGE_MANIFEST) & path.str.count_matches("/").eq(1)).alias("_manifest"),
                            path.str.contains(CHANGELOG_PATH).alias("_changelog"))
        .group_by("repo", "sha").agg(
            pl.col("_g").all().alias("_only_records"),
            pl.col("_changelog").any().alias("_announced"),
            pl.when((pl.col("_top").n_unique() == 1) & pl.col("_top").is_not_null().all() & pl.col("_manifest").any())
            .then(pl.col("_top").first()).alias("_release_dir"))
    )
    return (
        work.join(steps, on=["repo", "sha"], how="left", maintain_order="left")
        .with_columns(release.alias("_release"))
        .with_columns((pl.col("_release") | (pl.col("_only_records").fill_null(False) & ~(
            pl.col("_announced").fill_null(False) & dependency_update(pl.col("subject"))))).alias("_release_step"))
        .drop("_only_records", "_announced")
    )


def release_edges(work: pl.DataFrame) -> pl.DataFrame:
    """A release made of several commits by one author, each at most RELEASE_GAP after the one
    before (the version bump, the changelog heading, each package's manifest and lock file):
    one release item. A run of consecutive release steps (`release_flags`) outside pull
    requests joins when it holds a release commit; other work in between ends the run. The
    changelog opened for the next version (NEXT_SECTION) within POST_RELEASE_GAP after a
    release is its last step, and ends the run too."""
    outside = pl.col("pr_number").is_null() & pl.col("_prev_pr").is_null()
    stream = work.sort("repo", "person_id", "_t", "_n").with_columns(
        pl.col("_release_step").shift(1).alias("_prev_step"),
        pl.col("_release").shift(1).alias("_prev_release"),
        pl.col("pr_number").shift(1).alias("_prev_pr"),
        pl.col("subject").fill_null("").str.contains(NEXT_SECTION).alias("_opens_next"),
    ).with_columns(pl.col("_opens_next").shift(1).alias("_prev_opens_next"))
    pairs = _consecutive_pairs(stream, ["repo", "person_id"])
    # The changelog opened for the next version minutes after a release closes it (requests'
    # "Prepare changelog for next release", ripgrep's "changelog: start next section").
    post = (pl.col("_release_step") & ~pl.col("_release") & pl.col("_opens_next") & pl.col("_prev_release").fill_null(False)
            & (pl.col("_gap") <= POST_RELEASE_GAP) & outside)
    after_post = pairs.filter(post).select(pl.col("_b").alias("_a"))
    # A step links to the one before it; a release commit ends its run (two releases of one
    # day, 4.9.0 and 3.17.1, are two items), and so does the next version's opening, after a
    # release or not (okhttp's `Prepare next development version.` after a failed `Prepare for
    # release .` had joined the 5.0.0-alpha.16 release four hours later).
    links = pairs.join(after_post.with_columns(pl.lit(True).alias("_after_post")), on="_a", how="left").with_columns(
        (pl.col("_release_step") & pl.col("_prev_step").fill_null(False) & ~pl.col("_prev_release").fill_null(False)
         & ~pl.col("_after_post").fill_null(False) & ~pl.col("_prev_opens_next").fill_null(False)
         & (pl.col("_gap") <= RELEASE_GAP) & outside)
        .alias("_link"), post.alias("_post"))
    runs = stream.join(links.select(pl.col("_b").alias("_n"), "_link"), on="_n", how="left", maintain_order="left") \
        .with_columns((~pl.col("_link").fill_null(False)).cum_sum().alias("_run"))
    # only a run that makes a release is joined
    releasing = runs.filter(pl.col("_link").fill_null(False) & pl.col("_release").any().over("_run"))
    return pl.concat([links.join(releasing.select(pl.col("_n").alias("_b")), on="_b", how="semi"),
                      links.filter(pl.col("_post"))]) \
        .select(pl.col("_a").cast(pl.UInt32), pl.col("_b").cast(pl.UInt32))


# The share of an item's code lines a feature or fix must carry to name the item.
CODE_SHARE = 0.1
# The other of feature and fix names an item its first commit opened as one kind when it is at
# least this many commits and this many times the first kind's code lines.
OTHER_KIND_COMMITS = 2
OTHER_KIND_FACTOR = 2


def _with_code_lines(work: pl.DataFrame, file_changes: pl.DataFrame | None) -> pl.DataFrame:
    """`work` with `_code_lines`: the lines each commit changes in code or build files, not in
    tests, docs, release records or files no one writes by hand (what the change itself is;
    `requirements/dev.txt` is a build file, not a page)."""
    if file_changes is None or file_changes.height == 0:
        return work.with_columns(pl.lit(0, pl.Int64).alias("_code_lines"))
    from exceeds_pipeline.classify.categories import BUILD_PATH, DOCS_PATH, TEST_PATH

    path = pl.col("path").fill_null("")
    code = (
        file_changes.filter(~excluded_as(file_changes, *MACHINE_MADE) & ~path.str.contains(TEST_PATH)
                            & (~path.str.contains(DOCS_PATH) | path.str.contains(BUILD_PATH))
                            & ~path.str.contains(GENERIC_FILES))
        .group_by("repo", "sha")
        .agg((pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0)).sum().cast(pl.Int64).alias("_code_lines"))
    )
    return work.join(code, on=["repo", "sha"], how="left", maintain_order="left").with_columns(
        pl.col("_code_lines").fill_null(0))


def _one_declared_change_each(stream: pl.DataFrame, related: pl.DataFrame) -> pl.DataFrame:
    """The related pairs, less those that would put two declared features or fixes in one item.

    An author who types `feat:` / `fix:` on each commit says each is a change of its own: a
    run of related commits (`feat: add MFA enforcement`, `test: ...`, `feat: add authenticators
    after set up`) splits before every declared feature or fix after the first; the commits in
    between stay with the change before them."""
    declared = declared_type(pl.col("subject")).is_in(["feature", "bug"]).fill_null(False)
    # Related pairs join consecutive commits (`_a` just before `_b` in the stream): a commit
    # with no pair to its predecessor starts a run.
    runs = (
        stream.select("_n", declared.alias("_declared")).with_row_index("_order")
        .join(related.select("_a", pl.col("_b").alias("_n")), on="_n", how="left")
        .sort("_order")
        .with_columns(pl.col("_a").is_not_null().alias("_rel"))
        .with_columns((~pl.col("_rel")).cum_sum().alias("_run"))
        .with_columns(
            (pl.col("_declared").cast(pl.UInt32).cum_sum().over("_run") - pl.col("_declared").cast(pl.UInt32)).alias("_before")
        )
    )
    keep = runs.filter(pl.col("_rel") & ~(pl.col("_declared") & (pl.col("_before") > 0)))
    return keep.select(pl.col("_a").cast(pl.UInt32), pl.col("_n").cast(pl.UInt32).alias("_b"))


def _work_frame(commits: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(all commits with _row, _own_pr, pr_number, merge_branch, _work; the work commits sorted
    by repo and time with _n and _component)."""
    cols = commits.columns
    is_bot = pl.col("is_bot").fill_null(False) if "is_bot" in cols else pl.lit(False)
    # A copy of a change that counts in another repository (history.counted_once) is not work
    # here; counted_once.inherit_work_items gives it the item of the counting copy.
    is_copy = pl.col("_copy").fill_null(False) if "_copy" in cols else pl.lit(False)
    is_empty = empty_commit_expr() if "files_changed" in cols else pl.lit(False)
    df = commits.drop([c for c in ("work_item_id", "pr_number", "merge_branch", "merge_sha") if c in cols]).with_row_index("_row").with_columns(
        pr_number_expr(pl.col("subject"), pl.col("message")).alias("_own_pr"),
        # an empty commit changes nothing, unless it marks a release (`1.4.3 release`, made with
        # --allow-empty after the version bump): then it is the release item's last step
        (~pl.col("is_merge").fill_null(False) & ~is_bot & ~is_copy & (~is_empty | makes_release())).alias("_work"),
        pl.col("authored_at").alias("_t"),
        is_bot.alias("_bot"),
    )
    members = merge_pr_membership(commits)
    df = df.join(members, on=["repo", "sha"], how="left").sort("_row")
    # A commit's own claim first, else the PR merge that brought it in (merges inside a PR
    # branch, such as `Merge branch 'main' into topic`, belong to that PR too). An imported
    # history's numbers are another project's.
    df = df.with_columns(
        pl.when(pl.col("imported").fill_null(False)).then(None)
        .otherwise(pl.coalesce("_own_pr", "merge_pr")).alias("pr_number")
    ).drop("imported")
    # A branch that itself merged a pull request or a topic branch (not its base, `Merge branch
    # 'master' into topic`) collects several changes: `branch_edges` groups nothing it brings in.
    branch = merged_branch(pl.col("subject"))
    collecting = (
        df.filter(pl.col("is_merge").fill_null(False) & pl.col("merge_sha").is_not_null()
                  & (pl.col("_own_pr").is_not_null()
                     | (branch.is_not_null() & ~branch.fill_null("").str.contains(INTEGRATION_BRANCH))))
        .select("repo", "merge_sha", pl.lit(True).alias("_merges_branches")).unique()
    )
    df = df.join(collecting, on=["repo", "merge_sha"], how="left", maintain_order="left")
    work = (
        df.filter(pl.col("_work"))
        .sort("repo", "_t", "sha")
        .with_row_index("_n")
        # `Merge commit from fork` says nothing: the item reads as the first commit it lists
        .with_columns(stated_subject(pl.col("subject"), pl.col("message") if "message" in cols else pl.lit(None, pl.String)).alias("subject"))
        .with_columns(_component(pl.col("subject")).alias("_component"))
    )
    # What names an item: the subject, or the first sentence its first line starts (`headline`)
    first_line = pl.col("message").str.extract(r"^([^\n]*)", 1).str.strip_chars()
    work = work.with_columns(
        pl.when(pl.col("subject") == first_line).then(headline(pl.col("message"))).otherwise(pl.col("subject")).alias("_headline")
        if "message" in cols else pl.col("subject").alias("_headline"))
    return df, work


def assign_work_items(
    commits: pl.DataFrame, links: pl.DataFrame, file_changes: pl.DataFrame, changelog: pl.DataFrame | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Group commits into work items; see the module docstring for the rules. `changelog`: the
    repositories' changelog entries (`classify.changelog`), which label merged pull requests.

    Returns (commits with work_item_id and pr_number, work items)."""
    cols = commits.columns
    df, work = _work_frame(commits)
    work = _with_code_lines(release_flags(work, file_changes), file_changes)
    work = work.with_columns(issue_refs(work.columns).alias("_refs"))
    # the files that can relate two commits, and the hubs among them: one reading for both rules
    shared = _shared_files(work, file_changes) if file_changes is not None and file_changes.height else None
    # the words of the subjects, and the rare ones among them: one reading for both rules too
    words = _subject_word_sets(work)
    edges = pl.concat([
        pr_edges(work).cast(_PAIRS),
        branch_edges(work).cast(_PAIRS),
        revert_chain_edges(work, links).cast(_PAIRS),
        series_edges(work).cast(_PAIRS),
        fixup_edges(work).cast(_PAIRS),
        related_edges(work, file_changes, shared, words).cast(_PAIRS),
        batch_edges(work, file_changes, shared, words).cast(_PAIRS),
        follow_up_edges(work, file_changes, shared).cast(_PAIRS),
        test_edges(work, file_changes).cast(_PAIRS),
        issue_edges(work).cast(_PAIRS),
        release_edges(work).cast(_PAIRS),
    ])
    roots = components(work.height, edges["_a"].to_list(), edges["_b"].to_list())
    work = work.with_columns(pl.Series("_root", roots, dtype=pl.UInt32))
    if work.height:
        labels = project_labels(work, file_changes, changelog)
        work = work.join(labels.rename({"label": "_label"}), on=["repo", "sha"], how="left")
    else:
        work = work.with_columns(pl.lit(None, pl.String).alias("_label"))
    items, work = _items(work, df, links, changelog, unnamed_titles(work, file_changes))

    # Merge commits: the item of their pull request, when there is one.
    merge_items = (
        df.filter(pl.col("is_merge").fill_null(False) & pl.col("pr_number").is_not_null() & ~pl.col("_bot"))
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


def unnamed_titles(work: pl.DataFrame, file_changes: pl.DataFrame | None) -> pl.DataFrame:
    """(_root, _files_title) for the items of `work` none of whose commits has a message: the
    file the item changed most (`Change to lib/orm/query.py and 3 other files`)."""
    schema = {"_root": pl.UInt32, "_files_title": pl.String}
    if work.height == 0 or "_root" not in work.columns or file_changes is None or file_changes.height == 0:
        return pl.DataFrame(schema=schema)
    silent = work.group_by("_root").agg(
        (pl.col("_headline").fill_null("").str.strip_chars() == "").all().alias("_silent")).filter("_silent")
    if silent.height == 0:
        return pl.DataFrame(schema=schema)
    files = (
        work.join(silent, on="_root", how="semi").select("repo", "sha", "_root")
        .join(file_changes.select("repo", "sha", "path", "lines_added", "lines_deleted"), on=["repo", "sha"])
        .group_by("_root", "path").agg((pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0)).sum().alias("_n"))
        .sort("_root", "_n", "path", descending=[False, True, False])
        .group_by("_root", maintain_order=True).agg(pl.col("path").first().alias("_path"), pl.len().alias("_files"))
    )
    others = pl.col("_files") - 1
    return files.select(
        "_root",
        pl.concat_str(pl.lit("Change to "), pl.col("_path"),
                      pl.when(others == 1).then(pl.lit(" and 1 other file"))
                      .when(others > 1).then(pl.format(" and {} other files", others)).otherwise(pl.lit(""))).alias("_files_title"),
    ).cast(schema)


def _items(work: pl.DataFrame, df: pl.DataFrame, links: pl.DataFrame,
           changelog: pl.DataFrame | None = None, unnamed: pl.DataFrame | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Item table from `work` (with `_root`); returns (items, work with work_item_id).
    `unnamed`: (_root, _files_title) of items none of whose commits has a message."""
    if unnamed is None:
        unnamed = pl.DataFrame(schema={"_root": pl.UInt32, "_files_title": pl.String})
    if work.height == 0:
        return pl.DataFrame(schema=WORK_ITEMS_SCHEMA), work.with_columns(pl.lit(None, pl.String).alias("work_item_id"))
    reverting = set(undoing_commits(links)["sha"].to_list())
    # (a squash merge that lists a revert among its commits is what its title says)
    listed = squash_merge_titled_otherwise() if "message" in work.columns else pl.lit(False)
    work = work.with_columns(
        ((pl.col("sha").is_in(list(reverting)) & ~listed) | (pl.col("category") == "revert")).alias("_is_revert")
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
        pl.col("_headline").first().alias("_first_subject"),
        pl.col("person_id").first().alias("_first_person"),
        # every commit of the item is docs, test or build work
        pl.col("category").is_in(["docs", "test", "build"]).all().alias("_paths_only"),
        (pl.col("_release_step").all() & pl.col("_release").any()).alias("_is_release"),
        # the release it makes: its (last) release commit
        release_title(pl.col("subject").filter(pl.col("_release")).last(),
                      pl.col("_release_dir").filter(pl.col("_release")).last()
                      if "_release_dir" in work.columns else None).alias("_release_title"),
    )
    # The project's own label on a commit (a declared type, a news fragment, a changelog entry)
    # that the commit's category follows speaks for the whole item when all such labels agree
    # on feature or on fix: a PR's `fix-…` branch, its title's wording or its first commit do
    # not outvote the `.feature` fragment it adds.
    # Another kind (a `.removal` fragment: refactor) speaks for the item when every commit of
    # it carries that one label; `misc`/`trivial` (chore: "needs no description") does not.
    follows = pl.col("_label").is_not_null() & (pl.col("category") == pl.col("_label"))
    labelled = (
        core.group_by("_root").agg(
            pl.col("_label").filter(follows & pl.col("_label").is_in(["feature", "bug"])).unique().alias("_labels"),
            pl.col("_label").filter(follows).unique().alias("_all"),
            follows.all().alias("_every"),
        )
        .with_columns(
            pl.when(pl.col("_labels").list.len() == 1).then(pl.col("_labels").list.first())
            .when(pl.col("_every") & (pl.col("_all").list.len() == 1) & (pl.col("_all").list.first() != "chore"))
            .then(pl.col("_all").list.first())
            .alias("_label_cat"))
        .select("_root", "_label_cat")
    )
    # ... its earliest subject that says something: `first`, `by @someone` or `gah` name nothing
    # when a later commit of the item reads `actually cleanup url authentication` (a version
    # number names a release)
    text = _title(pl.col("_headline"))
    words = (text.str.replace_all(r"@\S+", "").str.count_matches(r"[A-Za-z]{3,}")
             + 2 * text.str.contains(r"\d+\.\d+").cast(pl.UInt32)).clip(upper_bound=2)
    # a subject about the review, not the change (`Address comments on PR #950`), names nothing
    words = pl.when(text.str.contains(VAGUE_SUBJECT)).then(pl.lit(0, pl.UInt32)).otherwise(words)
    # (naming by the largest of them instead read better in 9 of 25 changed bat items and worse
    # in 8: the first step of a change usually names it)
    cat_subjects = core.group_by("_root", "category", maintain_order=True).agg(
        pl.col("_headline").filter(words == words.max()).first().alias("_cat_subject"),
        words.max().alias("_cat_words"),
    )
    # ... and an item whose own kind has only such subjects is named by its best other one
    best_subjects = core.group_by("_root", maintain_order=True).agg(
        pl.col("_headline").filter(words == words.max()).first().alias("_best_subject"),
    )
    rank = {c: i for i, c in enumerate(SIGNIFICANCE)}
    # Else the kind of its code change: a feature or fix in code, whatever reformatting or
    # renaming rides along, else the category with the most lines changed in code (a fix of 240
    # lines with five test tweaks is a fix), then the most commits.
    code_lines = pl.col("_code_lines").sum() if "_code_lines" in core.columns else pl.lit(0)
    per_category = core.group_by("_root", "category").agg(code_lines.alias("_cl"), pl.len().alias("_c"))
    # The first commit's feature or fix names the item, unless the other kind is most of its
    # code, in several commits: antirez's 56 ACL commits of 11 days opened with a 72-line
    # `ACL: subcommand matching.` (a fix by its words) and went on with 17 features of 856 lines.
    kinds = per_category.filter(pl.col("category").is_in(["feature", "bug"])).group_by("_root").agg(
        *[pl.col(col).filter(pl.col("category") == kind).sum().alias(f"_{col}_{kind}")
          for col in ("_cl", "_c") for kind in ("feature", "bug")])
    counts = (
        per_category
        .with_columns(pl.col("category").replace_strict(rank, default=len(rank), return_dtype=pl.Int32).alias("_rank"),
                      # a real share of the code: a one-line fix does not name a 2,300-line rewrite
                      (pl.col("category").is_in(["feature", "bug"]) & (pl.col("_cl") > 0)
                       & (pl.col("_cl") >= CODE_SHARE * pl.col("_cl").sum().over("_root"))).alias("_change"))
        .sort("_root", "_change", "_cl", "_c", "_rank", descending=[False, True, True, True, False])
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
        pl.col("person_id").first().alias("_any_person"), pl.col("_headline").first().alias("_any_subject")
    )
    # PR titles from GitHub merge bodies: `Merge pull request #N from x\n\n<title>`.
    # PR titles: `Merge pull request #N from x\n\n<title>`, or a merge titled `<title> (#N)`.
    merges = df.filter(pl.col("is_merge").fill_null(False) & pl.col("_own_pr").is_not_null())
    pr_titles = (
        merges.select(
            "repo", pl.col("_own_pr").alias("pr_number"),
            pl.when(pl.col("subject").str.contains(r"^Merge\b"))
            .then(pl.col("message").str.extract(r"^[^\n]*\n\s*\n([^\n]+)", 1))
            .otherwise(pl.col("subject").str.replace(PR_SUFFIX, ""))
            .str.strip_chars().alias("_pr_title"),
        )
        .filter(pl.col("_pr_title").str.len_chars() > 0)
        .unique(["repo", "pr_number"], keep="first")
    )
    # A pull request a bot opened (its first commit is the bot's: a dependency bump, a hook
    # update) is titled for the bot's change: a person's commits in it ("fix mypy findings" in
    # jinja's "Bump the python-requirements group ...") are named and judged by their own words.
    opened_by_bot = (
        df.filter(~pl.col("is_merge").fill_null(False) & pl.col("pr_number").is_not_null())
        .sort("_t", "sha").group_by("repo", "pr_number").agg(pl.col("_bot").first())
        .filter(pl.col("_bot")).select("repo", "pr_number")
    )
    pr_titles = pr_titles.join(opened_by_bot, on=["repo", "pr_number"], how="anti")
    pr_titles = pr_titles.with_columns(
        _text_categories(pl.col("_pr_title"), pr_titles).alias("_title_cat"),
        # `feat: …` / `fix(x): …` as the PR's title: the author's own label for the change
        declared_type(pl.col("_pr_title")).alias("_title_type"),
    )
    # the section of the repository's changelog that lists the pull request (`### Fixed`)
    listed = pull_request_categories(pr_titles.select("repo", "pr_number", pl.col("_pr_title").alias("title")), changelog)
    pr_titles = pr_titles.join(listed.select("repo", pl.col("pr_number").cast(pr_titles.schema["pr_number"]),
                                             pl.col("changelog_category").alias("_listed_cat")),
                               on=["repo", "pr_number"], how="left")
    # A branch's name labels one change: when the branch brought in several work items (a
    # long-lived `feature/x` branch that collected months of unrelated commits), it says
    # nothing about each of them.
    if "merge_branch" in work.columns:
        # A branch is one merge of it: a pull request's branch name (`doc-update`) that later
        # pull requests reuse labels each of them; a branch merged without a pull request number
        # is judged over all its merges.
        merge_key = ["repo", "merge_branch", "merge_pr"]
        single = (
            work.filter(~pl.col("_is_revert") & pl.col("merge_branch").is_not_null())
            .group_by(merge_key).agg(pl.col("_root").n_unique().alias("_roots"))
            .filter(pl.col("_roots") == 1).select(merge_key)
        )
        branches = (
            work.filter(~pl.col("_is_revert")).join(single, on=merge_key, how="semi", nulls_equal=True)
            .group_by("_root").agg(pl.col("merge_branch").drop_nulls().first().alias("_branch"))
            .with_columns(branch_category(pl.col("_branch")).alias("_branch_cat"))
        )
        # The rest of the name can say more than its prefix: `fix-linting-errors` is lint work,
        # `fix/readme-typo` documentation; read as a subject, a name that names another kind of
        # work than a feature or fix wins over its `fix`/`feature` prefix.
        said = branches.filter(pl.col("_branch_cat").is_in(["feature", "bug"]))
        if said.height:
            words = pl.col("_branch").str.replace_all(r"[/_.-]+", " ")
            said = said.with_columns(_text_categories(words, said).alias("_words_cat"))
            branches = branches.join(said.select("_root", "_words_cat"), on="_root", how="left").with_columns(
                pl.when(pl.col("_words_cat").is_in(["chore", "docs", "test", "build", "refactor", "perf"]))
                .then(pl.col("_words_cat")).otherwise(pl.col("_branch_cat")).alias("_branch_cat"))
    else:
        branches = pl.DataFrame(schema={"_root": pl.UInt32, "_branch_cat": pl.String})
    # every commit of the item is docs, test or build work: a feature/fix label yields
    paths_only = pl.col("_paths_only").fill_null(False)
    topics = _topic_titles(work, df)
    items = (
        first.join(lead, on="_root", how="left")
        .join(topics, on="_root", how="left")
        .join(counts, on="_root", how="left")
        .join(people, on="_root", how="left")
        .join(everyone, on="_root", how="left")
        .join(pr_titles, on=["repo", "pr_number"], how="left")
        .join(branches.select("_root", "_branch_cat"), on="_root", how="left")
        .join(labelled, on="_root", how="left")
        .join(kinds, on="_root", how="left")
        .with_columns(
            pl.when(pl.col("_first_cat") == "feature").then(pl.lit("bug")).otherwise(pl.lit("feature")).alias("_other_cat"),
            pl.when(pl.col("_first_cat") == "feature").then(pl.col("__cl_bug")).otherwise(pl.col("__cl_feature")).fill_null(0).alias("_other_cl"),
            pl.when(pl.col("_first_cat") == "feature").then(pl.col("__c_bug")).otherwise(pl.col("__c_feature")).fill_null(0).alias("_other_c"),
            pl.when(pl.col("_first_cat") == "feature").then(pl.col("__cl_feature")).otherwise(pl.col("__cl_bug")).fill_null(0).alias("_first_cl"),
        )
        .with_columns(
            (pl.col("_first_cat").is_in(["feature", "bug"]) & (pl.col("_other_c") >= OTHER_KIND_COMMITS)
             & (pl.col("_other_cl") > 0) & (pl.col("_other_cl") >= OTHER_KIND_FACTOR * pl.col("_first_cl"))).alias("_other_wins"))
        .with_columns(
            # A repository's own label (the merged branch's `fix/`, `feature/`) first, then
            # the pull request's title when it reads as a feature or a fix, then the commits.
            pl.when(pl.col("_all_reverts")).then(pl.lit("revert"))
            # a release made of several commits (`release_edges`) is release work
            .when(pl.col("_is_release") & pl.col("_pr_title").is_null()).then(pl.lit("chore"))
            # A type the PR's title declares outranks its branch's name (`feat: …` from `fix-385`).
            .when(pl.col("_title_type").is_not_null() & (pl.col("_title_type") != "revert")
                  & ~(pl.col("_title_type").is_in(["feature", "bug"]) & paths_only))
            .then(pl.col("_title_type"))
            # A pull request that makes a release (`Release 3.4.1`) is release work, whatever
            # small change rides along with the version bump.
            .when(pl.col("_pr_title").str.contains(RELEASE_TITLE)).then(pl.lit("chore"))
            # The project's changelog files the pull request under one kind of change.
            .when(pl.col("_listed_cat").is_not_null() & ~(pl.col("_listed_cat").is_in(["feature", "bug"]) & paths_only))
            .then(pl.col("_listed_cat"))
            .when(pl.col("_label_cat").is_not_null()).then(pl.col("_label_cat"))
            # A branch named as a feature or fix (`fix-readme-example`) of only docs, tests or
            # build files is that kind of work, as for the title's type.
            .when(pl.col("_branch_cat").is_not_null() & ~(pl.col("_branch_cat").is_in(["feature", "bug"]) & paths_only))
            .then(pl.col("_branch_cat"))
            # ... unless its commits only touched docs, tests or build files.
            .when(pl.col("_title_cat").is_in(["feature", "bug"]) & ~paths_only)
            .then(pl.col("_title_cat"))
            .when(pl.col("_other_wins")).then(pl.col("_other_cat"))
            .when(pl.col("_first_cat").is_in(["feature", "bug"])).then(pl.col("_first_cat"))
            .otherwise(pl.coalesce("_common_cat", pl.lit("other")))
            .alias("category"),
            pl.coalesce("_main_person", "_any_person").alias("person_id"),
        )
        # Without a pull request title, the item is named by its earliest commit of the item's
        # own category (`Tweak test naming` then `Add response.json()`: a feature named by the
        # feature) that has two words or more if one has, else by its earliest commit.
        .join(cat_subjects, on=["_root", "category"], how="left")
        .join(best_subjects, on="_root", how="left")
        .with_columns(
            pl.coalesce(
                # read as a commit's subject is: `[WIP] Fix up appveyor testing.`, `:memo: ...`;
                # a title that only names an issue (`Fix #2180.`) gives way to the commits'
                pl.when(~pl.col("_pr_title").fill_null("").str.contains(ISSUE_ONLY_TITLE)).then(_title(pl.col("_pr_title"))),
                # a release item is named by the release it makes, not its first worded step
                pl.when(pl.col("_is_release")).then(pl.col("_release_title")),
                # a topic branch by what its merge says the branch did (git/git)
                "_topic_title",
                _title(pl.coalesce(pl.when(pl.col("_cat_words") > 0).then(pl.col("_cat_subject")), "_best_subject",
                                   "_cat_subject", "_first_subject", "_any_subject")),
            ).alias("title"),
        )
    )
    # Commits without a message (Subversion allowed them: 333 of SQLAlchemy's early items): the
    # item is named by what it changed.
    items = items.join(unnamed, on="_root", how="left").with_columns(
        pl.when(pl.col("title").fill_null("").str.strip_chars() == "")
        .then(pl.coalesce("_files_title", pl.lit("Change without a message"))).otherwise(pl.col("title")).alias("title")
    ).drop("_files_title")
    ids = items.select("_root", "work_item_id")
    items = items.join(chain_status(work, links, df), on="_root", how="left").with_columns(
        pl.col("reverted_by").fill_null(pl.lit([], pl.List(pl.String))),
        pl.col("relanded_by").fill_null(pl.lit([], pl.List(pl.String))),
        pl.col("later_reverted").fill_null(False),
    )
    items = items.select(list(WORK_ITEMS_SCHEMA)).cast(WORK_ITEMS_SCHEMA).sort("first_at", "work_item_id")
    return items, work.join(ids, on="_root", how="left")


def _topic_titles(work: pl.DataFrame, df: pl.DataFrame) -> pl.DataFrame:
    """``[_root, _topic_title]``: an item of two commits or more, at least half of what one
    merge of a topic branch brought in (`branch_edges`'s branches), is named by the first
    sentence of that merge's description, where it has one and that sentence is whole and at
    most HEADLINE_MAX long (git/git: `Merge branch 'hn/branch-delete-merged'` says "The
    'git branch' command has been taught the '--delete-merged' option to remove local branches
    ...", where the item's first commit reads "branch: add --forked filter for --list mode")."""
    if "merge_sha" not in work.columns or "_merges_branches" not in work.columns:
        return pl.DataFrame(schema={"_root": pl.UInt32, "_topic_title": pl.String})
    topic = _from_topic_branch()
    # ... when the item is most of what the merge brought in (two doc typo fixes of a topic
    # are not its change of the tag rules)
    brought = work.group_by("merge_sha").agg(pl.len().alias("_brought"))
    roots = (work.group_by("_root").agg(topic.all().alias("_topic"), pl.col("merge_sha").n_unique().alias("_merges"),
                                        pl.col("merge_sha").first(), pl.len().alias("_n"))
             .join(brought, on="merge_sha", how="left")
             .filter(pl.col("_topic") & (pl.col("_merges") == 1) & (pl.col("_n") >= 2)
                     & (2 * pl.col("_n") >= pl.col("_brought")))
             .select("_root", "merge_sha"))
    if roots.height == 0 or "message" not in df.columns:
        return pl.DataFrame(schema={"_root": pl.UInt32, "_topic_title": pl.String})
    # the paragraph after the merge's subject, unless it is the branch's list of commits
    described = (
        df.filter(pl.col("is_merge").fill_null(False))
        .select(pl.col("sha").alias("merge_sha"),
                pl.col("message").fill_null("").str.extract(r"^[^\n]*\n[ \t]*\n((?:[^\n]*\S[^\n]*(?:\n|$))+)", 1).alias("_p"))
        .filter(pl.col("_p").is_not_null() & ~pl.col("_p").str.contains(r"^\s*(?:\*|-|#|Conflicts:|Signed-off-by:)"))
        # its whole first sentence, short enough for a title: a sentence cut short, or one
        # that leads into what follows (`This topic addresses two CVEs:`), names nothing done
        .with_columns(pl.col("_p").str.replace_all(r"\s*\n\s*", " ").str.strip_chars()
                      .str.extract(r"^(.+?[.!?])(?:\s+[A-Z(\"']|$)", 1).alias("_topic_title"))
        .filter((pl.col("_topic_title").str.len_chars() <= HEADLINE_MAX)
                & (pl.col("_topic_title").str.count_matches(r"[A-Za-z]{3,}") >= 3))
        .with_columns(pl.col("_topic_title").str.replace(r"\.$", ""))
        .select("merge_sha", "_topic_title")
    )
    return roots.join(described, on="merge_sha").select(pl.col("_root").cast(pl.UInt32), "_topic_title")


RELEASE_GAP = timedelta(hours=24)
# A title that names nothing but the issue it is about: `Fix #2180.`, `Issue #526`, `Fixes: #11083`.
ISSUE_ONLY_TITLE = r"(?i)^\s*(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|issue|for|re|gh)\s*:?\s*)?#?\d+[.!]?\s*$"
# A release's last step: the changelog opened for the next version, this soon after it.
POST_RELEASE_GAP = timedelta(hours=1)
NEXT_SECTION = (r"(?i)\b(?:next|new|upcoming)\s+(?:release|version|section|dev(?:elopment)?|cycle)\b"
                r"|\bunreleased\b|\bback\s+to\s+dev(?:elopment)?\b")
# The version a release subject ends with (`v` and trailing punctuation left out), and the
# package it names before it (`grep-cli-0.1.10`, `create-vite@5.2.1`, `ripgrep 14.1.1`).
_RELEASE_VERSION = r"v?(\d+(?:\.\d+)+(?:[-+.]?[0-9A-Za-z][0-9A-Za-z.+-]*?)?)[.,;:!]?\s*$"
_RELEASE_PACKAGE = r"(?i)^\s*([a-z0-9_.@/-]+?)[ @-]v?\d+(?:\.\d+)+\S*\s*$"
# words of a release subject that are no package's name (`Bumped v5.11.3`, `Tagged 2.0`,
# AutoMapper's `Marking 7.0.1`)
_NOT_PACKAGE = r"(?i)^(?:v|ver|version|release[sd]?|releasing|tag|tagged|bump(?:s|ed|ing)?|publish(?:es|ed|ing)?|prep(?:are[sd]?|aring)?|mark(?:s|ed|ing)?|almost|cut|for|next|now|to)$"


def release_title(subject: pl.Expr, folder: pl.Expr | None = None) -> pl.Expr:
    """`Release <version>` (`Release <package> <version>` when the subject names a package, or
    else `folder`: the package folder whose manifest the release commit changes) of a
    release commit's subject (RELEASE_SUBJECT): `14.1.1` or `14.1.1 release` -> `Release 14.1.1`, `grep-cli-0.1.10`
    -> `Release grep-cli 0.1.10`, `Release v3.4.1 (#88)` -> `Release 3.4.1`; null when no
    version can be read, or when the subject prepares the release (`Prepare 3.11.0 release`:
    nlohmann/json's license headers the day before 3.11.0, named as its author named them)."""
    # `1.4.3 release`: the version before the word
    text = subject.str.replace(PR_SUFFIX, "").str.replace(LEADING_MARK, "").str.replace(r"(?i)\s+release[.!]?\s*$", "")
    version = pl.when(~text.str.contains(r"(?i)^\s*prepar")).then(text.str.extract(_RELEASE_VERSION, 1))
    package = (pl.when(text.str.contains(RELEASE_TITLE)).then(pl.lit(None, pl.String))
               .otherwise(text.str.extract(_RELEASE_PACKAGE, 1)))
    package = pl.when(package.str.contains(_NOT_PACKAGE)).then(pl.lit(None, pl.String)).otherwise(package)
    if folder is not None:
        package = pl.coalesce(package, folder)
    return pl.when(version.is_not_null()).then(
        pl.concat_str(pl.lit("Release "), pl.coalesce(package + pl.lit(" "), pl.lit("")), version))


# A merged branch's name as a label: `fix/…`, `bugfix-…`, `hotfix/…`, `feature/…`, `feat-…`.
BRANCH_LABELS = (
    (r"(?i)^(?:[^/]+/)?(?:fix|fixes|bugfix|bug|hotfix)(?:[/_-]|$)", "bug"),
    (r"(?i)^(?:[^/]+/)?(?:feat|feature|features)(?:[/_-]|$)", "feature"),
    (r"(?i)^(?:[^/]+/)?(?:docs?)(?:[/_-]|$)", "docs"),
    (r"(?i)^(?:[^/]+/)?(?:refactor|cleanup)(?:[/_-]|$)", "refactor"),
    (r"(?i)^(?:[^/]+/)?(?:perf)(?:[/_-]|$)", "perf"),
)


def branch_category(branch: pl.Expr) -> pl.Expr:
    """The category a merged branch's name declares, else null."""
    out = pl.lit(None, pl.String)
    for pattern, cat in reversed(BRANCH_LABELS):
        out = pl.when(branch.str.contains(pattern)).then(pl.lit(cat)).otherwise(out)
    return out


def _text_categories(text: pl.Expr, frame: pl.DataFrame) -> pl.Series:
    """The category of each row's text (a PR title) read as a commit subject."""
    from exceeds_pipeline.classify.categories import categorize_commits

    if frame.height == 0:
        return pl.Series([], dtype=pl.String)
    titles = frame.select(text.alias("subject"), text.alias("message"))
    return categorize_commits(titles, None)["category"]


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
    the last landing when the change is later reverted, else nothing. A revert of a revert
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
    members = work.select("repo", "sha", "_root", time.alias("_ct"), is_revert.alias("_rev"),
                          size.cast(pl.Int64).alias("_size"), pr.alias("_pr"))
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
    reverted = (
        after.group_by("_root").agg(pl.col("_by").unique().sort().alias("_after"))
        .join(undone, on="_root", how="left").join(whole, on="_root", how="left")
        .with_columns(
            # an item of reverts only (nothing of its own to weigh): any revert after it
            pl.when(pl.col("_commits").fill_null(0) == 0).then(True)
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
