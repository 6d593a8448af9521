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
   change's PR. A pull request that merges an integration branch (`develop`, `release-4.5.3`:
   INTEGRATION_BRANCH) bringing in the work of more than BRANCH_MAX_PEOPLE people gives its
   number to none of it. (`pr_edges`) A changelog line for a merged pull request of its own
   author (a commit outside pull requests of changelogs alone naming one `#N`, at most
   PR_CHANGELOG_GAP after it: jekyll's `Update history to reflect merge of #5919`; or, under a
   subject that names none, whose entries cite it or an issue the author's commit names)
   joins it and relates to nothing else; a line for someone else's stays its writer's, and
   one that records only other people's pull requests relates to no change of its writer's.
   (`pr_changelog_edges`) Likewise one author's commits that one merge of a topic branch
   brought in (`Merge branch 'routes-list'`, git's `Merge branch 'ab/topic'`: a patch series),
   each at most RELATED_GAP after the one before; not a merge of an integration branch
   (`next`, `maint`, a release line such as `3.3-rc`: INTEGRATION_BRANCH) or of several
   people's work. (`branch_edges`)
2. *Revert and reland chains* (`reverts` / `relands` links, every form `links` knows), when
   the revert or reland is by the change's own author: a revert by someone else (a sync
   account, a colleague) is a link to the item, not part of its work or its lines. A revert or
   reland of a merge names the commits that merge brought in. `fixes`
   links do not join: a fix of an older change is its own item. (`revert_chain_edges`)
3. *Numbered series* of one author in one repo: `[1/3]`, `[PATCH v2 2/5]`, `PATCH 2/5`,
   `2/5:`, `(part 3)`, `part 2 of 4`, `(72/92)`; parts of the same series (same total, or same
   subject once the part number is removed) no more than SERIES_GAP apart; open-ended `[k/N]`
   parts join when each is the next number. (`series_edges`) A `fixup! <subject>` (`squash!`,
   `amend!`) joins the latest earlier commit of its author with that subject. (`fixup_edges`)
   Tries of a CI workflow, which can only run once it has landed: an author's commit at most
   CI_TRY_GAP (three hours) after their previous one, one of them in a pull request, that
   changes a file written by hand the previous one changed (and otherwise only build files),
   when it changes a CI service's configuration or the previous one did and it is build,
   chore or test work (axios's `Add action to update sponsor list` and four `fix sponsors
   action` pull requests); two merged pull requests only when the later one is worded as
   another go (`fix ...`, `try ... again`) or shares a rare subject word with the earlier; not
   a release step. (`ci_try_edges`)
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
   least 0.5; also with one other commit of the author between them, at most QUICK_FIX_GAP
   apart, when the later subject says it carries on: `remove more rack::utils usage`). A
   component or a file relates two commits only when they also landed together
   (committed at most RELATED_GAP apart): written a day apart and applied weeks apart, they
   are two changes. Two unrelated commits on the same day stay two items. An author who declares
   each commit's kind (`feat:`, `fix:`) declares each feature or fix a change of its own: a
   run of related commits splits before every declared feature or fix after its first, and
   the commits in between stay with the change before them. (`related_edges`)
   A shared package manifest (package.json, Cargo.toml, ...) relates nothing either (but
   commits of manifests and lock files alone, one author's, at most DEPENDENCY_GAP (30
   minutes) apart, are one dependency update carried through the tree: `dependency_edges`), nor does
   a hub: a file in at least HUB_SHARE (10%) of a repository's work commits (of at least 200;
   sinatra's lib/sinatra/base.rb), unless the two subjects also share a word the repository
   rarely uses (`Add 'transform' action`, `Change transform action ...`). Two commits that each
   name issues (`fixes #608`, `#495`) and share none are two changes, whatever else they share;
   a release commit relates only to its release steps. A commit of tests alone no more than
   TEST_GAP (10 minutes) from a code change of its author is that change's test when the
   subjects share a word or an issue, or the test's names nothing (`Update test.`): tmux's
   fixes and their regress tests; a repair of the tests that names nothing (`Fix tests`) is,
   up to QUICK_FIX_GAP (an hour) after the author's code change just before it. (`test_edges`)
   A commit that changes only changelogs, adding
   one or two entries (at most CHANGELOG_ENTRY_LINES lines), or only built files (a rebuilt
   bundle), made on top of its author's code change (its first parent; a squashed pull request
   of theirs, or such a rebuild) at most CHANGELOG_GAP (an hour) later, is that change's entry,
   unless it is a step of a release: bat's `Add ChangeLog entry`, rsync's `Mention the latest
   bugfix.`, phoenix's `Bump build` and `Bump changelog` after #5688. (`changelog_edges`)
5. *One release* of one author in one repo: consecutive release steps (commits that change only
   changelogs, package manifests, lock files and version files, except a dependency update
   with its own changelog line, `deps: qs@6.9.7`; or whose subject makes a release: `1.2.0`,
   `1.4.3 release`, `Release 3.4.1`, `grep-cli-0.1.10`, `Git 2.38`, or that a version tag
   points at and changes only such records, no dependency update, feature or fix (curl's
   `RELEASE-NOTES: synced` tagged curl-8_21_0: `Release 8.21.0`; not a pre-release's tag), or
   the last such record that sets or names the version at most three days before a tag on a
   change (jq's `Update NEWS.md and AUTHORS for 1.8.2`, the tag on a bot's bump); or that builds files again,
   `Rebuild lodash and docs.`, as the author's last commit before a release commit, which
   relates it to nothing else), each at most RELEASE_GAP
   (24 hours) after the one before, outside pull requests, up to and including a release
   commit (an empty one too), and the changelog opened for the next version as the author's
   next commit within OPENING_GAP (four hours, a pull request or not), or a commit that undoes
   the release commit's lines (the version set back to a dev version) within POST_RELEASE_GAP
   (an hour) after it; such an item is `chore`. Commits written the same
   second read in their parents' order, not by sha (a release script). Two release commits of one
   author that release the same version at most RELEASE_GAP apart (by commit time) are one
   release, whatever came between (`Bump version to 0.16.0`, `Update syntaxes`, the empty
   `v0.16.0` that tags it). (`release_flags`, `release_edges`)
6. *The same issue*: commits of one author outside pull requests that name the same issue no
   more than RELATED_GAP apart (`fixes #608`, then `refs #608`, `GitHub issue 5511`, `[ticket:
   2345]`, `CVE-2026-43894`: ISSUE_REF). (`issue_edges`)

A separate history merged in (`git subtree add`: another project's commits from its own root)
is imported: its commits take no pull request number from this repository's merges or from
their own (`merge_pr_membership`).

One union-find over the six edge kinds gives the items. Then, in a batch (one author's commits
committed together, seconds apart: `batch_edges`), a commit alone in its item between two commits
of one item, by when they were written, joins that item (`sandwiched_edges`).

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

**Modules.** `shared` (gaps, subject and file patterns, the item table's schema), `merges` (the
pull request each commit belongs to, from the merges), `edges` (the relations 1-4 and 6),
`releases` (relation 5 and release titles), `chains` (reverted / relanded status), `items`
(`assign_work_items`: the union-find over the relations and the item fields).
"""

from exceeds_pipeline.classify.work_items.items import assign_work_items
from exceeds_pipeline.classify.work_items.merges import merge_pr_membership
from exceeds_pipeline.classify.work_items.edges import INTEGRATION_BRANCH
from exceeds_pipeline.classify.work_items.releases import makes_release, release_title
from exceeds_pipeline.classify.work_items.shared import VERSION_FILE, WORK_ITEMS_SCHEMA

__all__ = [
    "INTEGRATION_BRANCH",
    "VERSION_FILE",
    "WORK_ITEMS_SCHEMA",
    "assign_work_items",
    "makes_release",
    "merge_pr_membership",
    "release_title",
]
