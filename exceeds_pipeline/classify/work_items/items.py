"""The work-item table: grouping the relations into items, and each item's person, category and
title.
"""

from __future__ import annotations

import polars as pl

from exceeds_pipeline.classify.categories import (
    ADVISORY_MERGE, HEADLINE_MAX, LEAD_VERB, RELEASE_TITLE, headline, project_labels, release_subject,
    squash_merge_titled_otherwise, stated_subject,
)
from exceeds_pipeline.classify.changelog import listed_category, pull_request_categories
from exceeds_pipeline.classify.conventional import declared_type
from exceeds_pipeline.classify.links import pr_number_expr, undoing_commits
from exceeds_pipeline.common.union_find import components_kept_apart
from exceeds_pipeline.enrich.exclusions import excluded_as
from exceeds_pipeline.history.tables import empty_commit_expr
from exceeds_pipeline.classify.work_items.chains import chain_status
from exceeds_pipeline.classify.work_items.edges import (
    BRANCH_MAX_PEOPLE, INTEGRATION_BRANCH, _apart_by_line, _from_topic_branch, _record_files, _shared_files, _subject_word_sets, batch_edges, batch_members,
    branch_edges, changelog_edges, ci_try_edges, fixup_edges, follow_up_edges, follow_up_sha_edges, issue_edges, issue_refs, points_back_edges, pr_changelog_edges, pr_edges,
    dependency_edges, related_edges, revert_chain_edges, same_record_edges, sandwiched_edges, series_edges, test_edges,
)
from exceeds_pipeline.classify.work_items.merges import merge_pr_membership, merged_branch
from exceeds_pipeline.classify.work_items.releases import (
    DEV_VERSION, makes_release, opening_title, release_edges, release_flags, release_package, release_title, release_version,
)
from exceeds_pipeline.classify.work_items.shared import (
    GENERIC_FILES, GITHUB_COMMITTER, MACHINE_MADE, PR_SUFFIX, SIGNIFICANCE, VAGUE_SUBJECT, WEB_EDITOR_SUBJECT, WORK_ITEMS_SCHEMA,
    _PAIRS, _component, _title, dependency_update,
)


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


def _with_tie_order(work: pl.DataFrame) -> pl.DataFrame:
    """`work` with `_tie`: among commits written the same second, how many of them come before it
    on its first-parent line (a release script's `Release 2.10.2`, then `Reverting release
    version changes`, same second: by sha they read in the wrong order)."""
    tie = pl.lit(0, pl.UInt32).alias("_tie")
    if "parents" not in work.columns:
        return work.with_columns(tie)
    ties = (work.filter(pl.len().over("repo", "_t") > 1)
            .select("repo", "sha", "_t", pl.col("parents").list.first().alias("_p")))
    # the tie commits whose first parent is written the same second: depth = parent's + 1
    on_parent = ties.join(ties.select("repo", pl.col("sha").alias("_p"), "_t"), on=["repo", "_p", "_t"], how="semi")
    depth = ties.select("repo", "sha", tie)
    for _ in range(on_parent.height):
        stepped = depth.join(
            on_parent.join(depth.rename({"sha": "_p", "_tie": "_pd"}), on=["repo", "_p"])
            .select("repo", "sha", (pl.col("_pd") + 1).alias("_new")), on=["repo", "sha"], how="left",
            maintain_order="left").with_columns(pl.max_horizontal("_tie", pl.col("_new").fill_null(0)).cast(pl.UInt32).alias("_tie"))
        if stepped["_tie"].equals(depth["_tie"]):
            break
        depth = stepped.drop("_new")
    return work.join(depth, on=["repo", "sha"], how="left", maintain_order="left") \
        .with_columns(pl.col("_tie").fill_null(0))


def _work_frame(commits: pl.DataFrame, edit_summaries: pl.DataFrame | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(all commits with _row, _own_pr, pr_number, merge_branch, _work; the work commits sorted
    by repo and time with _n and _component). `edit_summaries`: (repo, sha, summary[, refs]) of
    the edits whose subject names only their file (`classify.edit_summary`)."""
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
    # A pull request that merges an integration branch and brings in several people's work
    # (gin's "Merge pull request #871 from gin-gonic/develop": 22 commits of a dozen people) is
    # no one change: the commits it brought in keep no number of it (their own, or inner
    # merges', stay). Read at the innermost merge that brought each commit in.
    people = pl.col("person_id").filter(pl.col("_work")).n_unique().over("repo", "merge_sha")
    integration = (pl.col("merge_pr").is_not_null() & pl.col("merge_branch").fill_null("").str.contains(INTEGRATION_BRANCH)
                   & (people > BRANCH_MAX_PEOPLE))
    df = df.with_columns(pl.when(integration).then(pl.lit(None, pl.Int64)).otherwise(pl.col("merge_pr")).alias("merge_pr"))
    # A `(#N)` its author wrote on a commit of a topic branch that pull request #M (M > N)
    # merged names the issue it works on, not a pull request (svelte's `add crossfade and flip
    # functions (#2140)` on branch gh-2140, merged by #2154): the commit is #M's. A squash
    # GitHub made (committed by GitHub) or a branch merged from another's main keeps its own.
    issue_ref = (pl.col("_own_pr").is_not_null() & pl.col("merge_pr").is_not_null() & ~pl.col("is_merge").fill_null(False)
                 & (pl.col("_own_pr") < pl.col("merge_pr"))
                 & ~pl.col("merge_branch").fill_null("").str.contains(INTEGRATION_BRANCH)
                 & (pl.col("committer_email").fill_null("").str.to_lowercase() != GITHUB_COMMITTER
                    if "committer_email" in cols else pl.lit(True)))
    df = df.with_columns(pl.when(issue_ref).then(pl.lit(None, pl.Int64)).otherwise(pl.col("_own_pr")).alias("_own_pr"))
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
    # A maintenance line merged by its release tags (express's 5.0 branch merging `Merge tag
    # '4.17.3'`; not a tag pulled from another repository, `Merge tag 'l10n-2.45.0' of https://...`)
    # is another line of development than the branch's own: `_line`.
    line = (df.filter(pl.col("is_merge").fill_null(False) & pl.col("subject").str.contains(r"^Merge tag '[^']+'\s*$"))
            .select("repo", pl.col("sha").alias("merge_sha"), pl.lit(True).alias("_line")))
    df = df.join(line, on=["repo", "merge_sha"], how="left", maintain_order="left").with_columns(
        pl.col("_line").fill_null(False) & pl.col("merge_pr").is_null())
    work = (
        _with_tie_order(df.filter(pl.col("_work")))
        .sort("repo", "_t", "_tie", "sha")
        .drop("_tie")
        .with_row_index("_n")
        # `Merge commit from fork` says nothing: the item reads as the first commit it lists
        .with_columns(stated_subject(pl.col("subject"), pl.col("message") if "message" in cols else pl.lit(None, pl.String)).alias("subject"))
        .with_columns(_component(pl.col("subject")).alias("_component"))
    )
    # What names an item: the subject, or the first sentence its first line starts (`headline`)
    first_line = pl.col("message").str.extract(r"^([^\n]*)", 1).str.strip_chars()
    # ... or, under GitHub's web editor's default subject (vapor's `Update api-docs.yml`), the
    # first line of the body when it says what changed ("Fix API docs permissions")
    said = (pl.when(pl.col("subject").str.contains(WEB_EDITOR_SUBJECT))
            .then(pl.col("message")).otherwise(None)
            .str.extract(r"^[^\n]*\n\s*\n[ \t]*(?:[*-][ \t]+)?([^\n]+)", 1).str.strip_chars())
    # (a statement that opens with a verb: not `To prevent the following compiler message:`)
    said = pl.when((said.str.count_matches(r"\S+") >= 3) & said.str.to_lowercase().str.contains(LEAD_VERB)
                   & ~said.str.contains(r"^[\w-]+:\s|://|:\s*$")).then(headline(said))
    # ... or else what its diff shows it changed (`Bump twine to 5.1.1`, `Fix a typo in README.md`)
    if edit_summaries is not None and edit_summaries.height:
        work = work.join(edit_summaries.select("repo", "sha", pl.col("summary").alias("_edit")).drop_nulls("_edit").unique(["repo", "sha"]),
                         on=["repo", "sha"], how="left", maintain_order="left")
        said = pl.coalesce(said, pl.col("_edit"))
        # (and the pull requests its changelog lines cite: `pr_changelog_edges`)
        if "refs" in edit_summaries.columns:
            work = work.join(edit_summaries.select("repo", "sha", pl.col("refs").alias("_entry_refs")).unique(["repo", "sha"]),
                             on=["repo", "sha"], how="left", maintain_order="left")
    work = work.with_columns(
        pl.coalesce(said, pl.when(pl.col("subject") == first_line).then(headline(pl.col("message"))).otherwise(pl.col("subject"))).alias("_headline")
        if "message" in cols else pl.col("subject").alias("_headline"))
    return df, work.drop("_edit", strict=False)


def _with_submodule_headline(work: pl.DataFrame, file_changes: pl.DataFrame | None) -> pl.DataFrame:
    """A commit that only moves submodules, under a subject of one word or none (babashka's
    `SCI`, `fs`, `dpes`: gitlink bumps had been items titled so, several "Bugs fixed"), is named
    by what it moved: `Update sci submodule`, `Update fs and process submodules`."""
    if file_changes is None or file_changes.height == 0 or "is_submodule" not in file_changes.columns:
        return work
    moved = (file_changes.group_by("repo", "sha")
             .agg(pl.col("is_submodule").fill_null(False).all().alias("_only"),
                  pl.col("path").str.extract(r"([^/]+)$", 1).sort().alias("_names"))
             .filter("_only").drop("_only"))
    if moved.height == 0:
        return work
    names = pl.col("_names").list.head(2).list.join(" and ")
    named = pl.when(pl.col("_names").list.len() == 1).then(pl.format("Update {} submodule", names)) \
        .when(pl.col("_names").list.len() == 2).then(pl.format("Update {} submodules", names)) \
        .otherwise(pl.lit("Update submodules"))
    terse = _title(pl.col("_headline")).fill_null("").str.count_matches(r"\S+") <= 1
    return (work.join(moved, on=["repo", "sha"], how="left", maintain_order="left")
            .with_columns(pl.when(pl.col("_names").is_not_null() & terse).then(named).otherwise(pl.col("_headline")).alias("_headline"))
            .drop("_names"))



# The kinds of work on code: a branch or title that names one of them says nothing of an item
# of docs, tests or build files alone.
CODE_WORK = ("feature", "bug", "refactor", "perf")


def assign_work_items(
    commits: pl.DataFrame, links: pl.DataFrame, file_changes: pl.DataFrame, changelog: pl.DataFrame | None = None,
    edit_summaries: pl.DataFrame | None = None, tags: pl.DataFrame | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Group commits into work items; see the module docstring for the rules. `changelog`: the
    repositories' changelog entries (`classify.changelog`), which label merged pull requests;
    `edit_summaries`: what edits whose subject names only their file changed
    (`classify.edit_summary`), which names them, and the pull requests their changelog entries
    cite (`refs`); `tags`: the repositories' tags (repo, sha, tag), whose versions mark
    releases (`releases.release_flags`).

    Returns (commits with work_item_id and pr_number, work items)."""
    cols = commits.columns
    df, work = _work_frame(commits, edit_summaries)
    if tags is not None and tags.height:  # when each tagged commit of the branch was written (a merge's too)
        tags = tags.join(df.select("repo", "sha", pl.col("_t").alias("_tag_t")), on=["repo", "sha"], how="inner")
    work = _with_submodule_headline(_with_code_lines(release_flags(work, file_changes, tags), file_changes), file_changes)
    work = work.with_columns(issue_refs(work.columns).alias("_refs"),
                             # the titles' words, read once for every rule (long patterns)
                             _title(pl.col("subject")).alias("_subject_title"), _title(pl.col("_headline")).alias("_headline_title"))
    # the files that can relate two commits, and the hubs among them: one reading for both rules
    shared = _shared_files(work, file_changes) if file_changes is not None and file_changes.height else None
    # the words of the subjects, and the rare ones among them: one reading for both rules too
    words = _subject_word_sets(work)
    # a pull request's changelog line is part of it, not a step of the next release; a line
    # for other people's pull requests (null `_a`) may be a release's step, but is no part of
    # its writer's change before it
    pr_changelog = pr_changelog_edges(work, file_changes).cast(_PAIRS)
    others_records = pr_changelog.filter(pl.col("_a").is_null())["_b"].implode()
    pr_changelog = pr_changelog.drop_nulls("_a")
    if pr_changelog.height:
        work = work.with_columns(pl.when(pl.col("_n").is_in(pr_changelog["_b"].implode()))
                                 .then(False).otherwise(pl.col("_release_step")).alias("_release_step"))
    releases = release_edges(work).cast(_PAIRS)
    batches = batch_members(work)  # each author's commits committed together, seconds apart
    # What the history says joins commits (a pull request, a branch, a revert, a series, a
    # fixup, one issue, a release) ...
    edges = pl.concat([
        pr_edges(work).cast(_PAIRS),
        branch_edges(work).cast(_PAIRS),
        revert_chain_edges(work, links).cast(_PAIRS),
        series_edges(work).cast(_PAIRS),
        fixup_edges(work).cast(_PAIRS),
        follow_up_sha_edges(work).cast(_PAIRS),
        points_back_edges(work).cast(_PAIRS),
        issue_edges(work).cast(_PAIRS),
        releases,
        changelog_edges(work, file_changes, releases).cast(_PAIRS).filter(~pl.col("_b").is_in(others_records)),
        ci_try_edges(work, file_changes, shared, words).cast(_PAIRS),
    ])
    # ... and what only relates them (files, words, time): such a chain never joins two changes
    # that each name issues and share none (hugo: `Fix some recently introduced Position issues,
    # Fixes #14710` and `markup/goldmark: Fix double-escaping, Fixes #14715` had been one item
    # through a test migration between them)
    related = pl.concat([
        related_edges(work, file_changes, shared, words, batches).cast(_PAIRS),
        batch_edges(work, file_changes, shared, words, batches).cast(_PAIRS),
        follow_up_edges(work, file_changes, shared).cast(_PAIRS),
        test_edges(work, file_changes).cast(_PAIRS),
        same_record_edges(work, file_changes).cast(_PAIRS),
        dependency_edges(work, file_changes),
    ])
    # ... nor two lines of development (express: a 4.x example of a `Merge tag '4.17.2'` and the
    # 5.0 branch's `deps: router@2.0.0-beta.1` 29 minutes later, both in the example's file)
    related = _apart_by_line(work, related)
    if others_records.list.len().item():
        # ... nor a record of other people's pull requests with a change of its writer's (its
        # other records beside it, one changelog edited three times in ten minutes, stay one)
        records = work.join(_record_files(work, file_changes).filter("_only"), on=["repo", "sha"], how="semi")["_n"].implode()
        change = (pl.col("_a").is_in(others_records) & ~pl.col("_b").is_in(records)) \
            | (pl.col("_b").is_in(others_records) & ~pl.col("_a").is_in(records))
        related = related.filter(~change)
    if pr_changelog.height:
        # ... and relates to nothing else (the next `Update history to reflect merge of #N`)
        recorded = pr_changelog["_b"].implode()
        edges = pl.concat([edges.filter(~pl.col("_a").is_in(recorded) & ~pl.col("_b").is_in(recorded)), pr_changelog])
        related = related.filter(~pl.col("_a").is_in(recorded) & ~pl.col("_b").is_in(recorded))
    issues = [frozenset(r) if r else frozenset() for r in work["_refs"].to_list()]

    def grouped(weak: pl.DataFrame) -> pl.Series:
        # earlier relations first: the first change a commit relates to keeps it
        weak = weak.sort(pl.max_horizontal("_a", "_b"), pl.min_horizontal("_a", "_b"))
        return pl.Series(components_kept_apart(work.height, edges["_a"].to_list(), edges["_b"].to_list(),
                                               weak["_a"].to_list(), weak["_b"].to_list(), issues), dtype=pl.UInt32)

    roots = grouped(related)
    # a commit of a batch written in the middle of a change joins it (after the other relations)
    sandwiched = sandwiched_edges(work, batches, roots)
    if sandwiched.height:
        related = pl.concat([related, sandwiched])
        roots = grouped(related)
    work = work.with_columns(roots.alias("_root"))
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
        .join(items.select("repo", "pr_number", "work_item_id").drop_nulls("pr_number")
              .filter(pl.col("work_item_id").str.contains("#pr-", literal=True)),
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
    """(_root, _files_title, _main_path) for the items of `work` none of whose commits has a
    message, or whose messages only name an issue (`Fix #549`): the file the item changed most
    (`Change to lib/orm/query.py and 3 other files`; jq's `Fix #549` is "Fix #549 in builtin.c")."""
    schema = {"_root": pl.UInt32, "_files_title": pl.String, "_main_path": pl.String}
    if work.height == 0 or "_root" not in work.columns or file_changes is None or file_changes.height == 0:
        return pl.DataFrame(schema=schema)
    headline = pl.col("_headline").fill_null("").str.strip_chars()
    silent = work.group_by("_root").agg(
        ((headline == "") | pl.col("_headline_title").str.contains(ISSUE_ONLY_NAME)).all().alias("_silent")).filter("_silent")
    if silent.height == 0:
        return pl.DataFrame(schema=schema)
    from exceeds_pipeline.classify.categories import DOCS_PATH, TEST_PATH

    # (code first: fzf's `Fix #937` is named by src/, not by the CHANGELOG line beside it; and
    # the person's own files before those lines of code leave out: Newtonsoft.Json's first
    # commit had been "Change to Src/Lib/nunit.framework.xml", a copied tool's data)
    kept = (pl.col("exclusion_reason").is_null() if "exclusion_reason" in file_changes.columns else pl.lit(True)).alias("_kept")
    files = (
        work.join(silent, on="_root", how="semi").select("repo", "sha", "_root")
        .join(file_changes.select("repo", "sha", "path", "lines_added", "lines_deleted", kept), on=["repo", "sha"])
        .group_by("_root", "path").agg((pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0)).sum().alias("_n"),
                                       pl.col("_kept").all())
        .with_columns((~pl.col("path").str.contains(TEST_PATH) & ~pl.col("path").str.contains(DOCS_PATH)).alias("_code"))
        .sort("_root", "_kept", "_code", "_n", "path", descending=[False, True, True, True, False])
        .group_by("_root", maintain_order=True).agg(pl.col("path").first().alias("_path"), pl.len().alias("_files"))
    )
    others = pl.col("_files") - 1
    return files.select(
        "_root",
        pl.concat_str(pl.lit("Change to "), pl.col("_path"),
                      pl.when(others == 1).then(pl.lit(" and 1 other file"))
                      .when(others > 1).then(pl.format(" and {} other files", others)).otherwise(pl.lit(""))).alias("_files_title"),
        pl.col("_path").alias("_main_path"),
    ).cast(schema)


def _items(work: pl.DataFrame, df: pl.DataFrame, links: pl.DataFrame,
           changelog: pl.DataFrame | None = None, unnamed: pl.DataFrame | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Item table from `work` (with `_root`); returns (items, work with work_item_id).
    `unnamed`: (_root, _files_title, _main_path) of items none of whose commits has a message or
    says more than the issue it closes (unnamed_titles)."""
    if unnamed is None:
        unnamed = pl.DataFrame(schema={"_root": pl.UInt32, "_files_title": pl.String, "_main_path": pl.String})
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
        pl.col("_is_revert").mean().alias("_revert_share"),
        # a revert of someone else's change with the one-line fix-up it needed (hugo: the revert
        # of a deprecation and `commands: Add missing import`) is a revert, named by it
        (pl.col("_is_revert").any() & (pl.col("_code_lines").filter(~pl.col("_is_revert")).sum()
                                       < CODE_SHARE * pl.col("_code_lines").sum())).alias("_mostly_revert"),
        pl.col("_headline").filter(pl.col("_is_revert")).first().alias("_revert_subject"),
    )
    # (two people's squashes of one number are two items: pr_edges; the earliest keeps the PR id)
    first = first.with_columns(
        pl.when(pl.col("pr_number").is_not_null()
                & (pl.col("first_at").rank("ordinal").over("repo", "pr_number") == 1))
        .then(pl.format("{}#pr-{}", pl.col("repo"), pl.col("pr_number")))
        .otherwise(pl.format("{}@{}", pl.col("repo"), pl.col("_first_sha").str.slice(0, 12)))
        .alias("work_item_id")
    )

    # Category, person and title from the non-revert commits, less those a revert in the same
    # item undid (Alamofire: `Making SessionDelegate private`, reverted two days later inside
    # its item, had named it), unless the item is nothing else (a change and its revert).
    rev = pl.DataFrame(schema={"repo": pl.String, "_by": pl.String, "sha": pl.String})
    if links.height:
        # (a revert that was itself reverted, or whose change was relanded, undid nothing for good)
        targets = links.select("repo", "link_type", pl.col("target_sha").alias("sha"))
        rev = (links.filter(pl.col("link_type") == "reverts").select("repo", pl.col("sha").alias("_by"), pl.col("target_sha").alias("sha"))
               .join(targets.filter(pl.col("link_type").is_in(["reverts", "relands"])).select("repo", pl.col("sha").alias("_by")),
                     on=["repo", "_by"], how="anti")
               .join(targets.filter(pl.col("link_type") == "relands").select("repo", "sha"), on=["repo", "sha"], how="anti"))
    roots = work.select("repo", "sha", "_root")
    undone = (rev.join(roots, on=["repo", "sha"]).join(roots.rename({"sha": "_by", "_root": "_by_root"}), on=["repo", "_by"])
              .filter(pl.col("_root") == pl.col("_by_root")).select("repo", "sha").unique()
              .with_columns(pl.lit(True).alias("_undone")))
    work = work.join(undone, on=["repo", "sha"], how="left", maintain_order="left").with_columns(pl.col("_undone").fill_null(False))
    kept = ~pl.col("_is_revert") & ~pl.col("_undone")
    # (what stays must carry code: a reverted feature with its `Fix tests` is still that feature,
    # later reverted)
    code = pl.col("_code_lines").fill_null(0)
    kept_code = code.filter(kept).sum().over("_root")
    stays = (kept_code > 0) & (kept_code >= CODE_SHARE * code.filter(~pl.col("_is_revert")).sum().over("_root"))
    core = work.filter(~pl.col("_is_revert") & (kept | ~stays))
    lead = core.group_by("_root", maintain_order=True).agg(
        pl.col("category").first().alias("_first_cat"),
        pl.col("_headline").first().alias("_first_subject"),
        pl.col("person_id").first().alias("_first_person"),
        # every commit of the item is docs, test or build work
        pl.col("category").is_in(["docs", "test", "build"]).all().alias("_paths_only"),
        # (its author's touch-ups after the release commit, httpie's `Fixed Makefile` six
        # minutes after `v0.9.5`, leave it a release)
        (pl.col("_release_step").filter(pl.col("_t") <= pl.col("_t").filter(pl.col("_release")).max()).all()
         & pl.col("_release").any()).alias("_is_release"),
        pl.col("_release").any().alias("_makes_release"),
        # the release it makes: its (last) release commit, or when that names no version (Mike
        # Perham's `bump`), the version a step names (`time for 4.0.2`), not a dependency's
        pl.coalesce(
            release_title(pl.col("_release_name").filter(pl.col("_release")).last(),
                          pl.col("_release_dir").filter(pl.col("_release")).last()
                          if "_release_dir" in work.columns else None),
            pl.when(release_version(pl.col("_release_name").filter(pl.col("_release")).last()).is_null())
            .then(release_title(pl.col("subject").filter(~dependency_update(pl.col("subject").fill_null("")))).drop_nulls().last()),
        ).alias("_release_title"),
        # ... or, of release steps that make no release, the development they open (`This is
        # 7.0-dev`: "Start 7.0 development")
        pl.when(pl.col("_release_step").all() & pl.col("_opening").any())
        .then(opening_title(pl.col("subject").filter(pl.col("_opening")).last())).alias("_opening_title"),
    )
    # The project's own label on a commit (a declared type, a news fragment, a changelog entry)
    # that the commit's category follows speaks for the whole item when all such labels agree
    # on feature or on fix: a PR's `fix-…` branch, its title's wording or its first commit do
    # not outvote the `.feature` fragment it adds.
    # Another kind (a `.removal` fragment: refactor) speaks for the item when every commit of
    # it carries that one label; `misc`/`trivial` (chore: "needs no description") does not.
    follows = pl.col("_label").is_not_null() & (pl.col("category") == pl.col("_label"))
    # (a type a subject declares speaks for its own commit's share: nlohmann/json's 8-line
    # `:bug:` commit in a 4,075-line UBJSON implementation does not make it a fix; a fragment or
    # a changelog entry names the whole change whatever commit adds it)
    if "_code_lines" in core.columns:
        item_code = pl.col("_code_lines").fill_null(0).sum().over("_root")
        weighty = ((declared_type(pl.col("subject")) != pl.col("_label")).fill_null(True)
                   | (pl.col("_code_lines").fill_null(0) >= CODE_SHARE * item_code))
    else:
        weighty = pl.lit(True)
    labelled = (
        core.group_by("_root").agg(
            pl.col("_label").filter(follows & weighty & pl.col("_label").is_in(["feature", "bug"])).unique().alias("_labels"),
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
    text = pl.col("_headline_title")
    words = (text.str.replace_all(r"@\S+", "").str.count_matches(r"[A-Za-z]{3,}")
             + 2 * text.str.contains(r"\d+\.\d+").cast(pl.UInt32)).clip(upper_bound=2)
    # a subject about the review, not the change (`Address comments on PR #950`), names nothing
    words = pl.when(text.str.contains(VAGUE_SUBJECT)).then(pl.lit(0, pl.UInt32)).otherwise(words)
    # (naming by the largest of them instead read better in 9 of 25 changed bat items and worse
    # in 8: the first step of a change usually names it), of those that carry a real share of
    # the item's code: ripgrep's 562-line index scaffolding was named by its 1-line first step,
    # `core: add index module`.
    item_code = pl.col("_code_lines").sum().over("_root") if "_code_lines" in core.columns else pl.lit(0)
    share = ((pl.col("_code_lines") >= CODE_SHARE * item_code) if "_code_lines" in core.columns else pl.lit(True)).cast(pl.UInt32)
    # (the words are read once: the title's patterns are long)
    core = core.with_columns(words.alias("_words")).with_columns((2 * pl.col("_words") + share).alias("_naming"))
    cat_subjects = core.group_by("_root", "category", maintain_order=True).agg(
        pl.col("_headline").filter(pl.col("_naming") == pl.col("_naming").max()).first().alias("_cat_subject"),
        pl.col("_words").max().alias("_cat_words"),
    )
    # ... and an item whose own kind has only such subjects is named by its best other one, of
    # those that say as much one that carries the code (jekyll's pr-5920, a fix by its changelog,
    # had been named by its `Failing test: abbreviated post dates are no longer read.`)
    best_subjects = core.group_by("_root", maintain_order=True).agg(
        pl.col("_headline").filter(pl.col("_naming") == pl.col("_naming").max()).first().alias("_best_subject"),
    )
    rank = {c: i for i, c in enumerate(SIGNIFICANCE)}
    # Else the kind of its code change: a feature, fix or speed-up in code, whatever reformatting
    # or renaming rides along (of several, the one with the most code lines: hugo's `Switch to
    # go-toml v2`, measured faster, had been a fix named by its follow-up), else the category
    # with the most lines changed in code (a fix of 240 lines with five test tweaks is a fix),
    # then the most commits.
    code_lines = pl.col("_code_lines").sum() if "_code_lines" in core.columns else pl.lit(0)
    per_category = core.group_by("_root", "category").agg(code_lines.alias("_cl"), pl.len().alias("_c"))
    # The first commit's feature or fix names the item, unless the other kind is most of its
    # code, in several commits: antirez's 56 ACL commits of 11 days opened with a 72-line
    # `ACL: subcommand matching.` (a fix by its words) and went on with 17 features of 856 lines.
    kinds = per_category.group_by("_root").agg(
        *[pl.col(col).filter(pl.col("category") == kind).sum().alias(f"_{col}_{kind}")
          for col in ("_cl", "_c") for kind in ("feature", "bug")],
        # (commits that change the code's behaviour or shape: no release's steps)
        pl.col("_c").filter(pl.col("category").is_in(["feature", "bug", "refactor", "perf"])).sum().alias("__c_change"),
        pl.col("_cl").sum().alias("_item_cl"))
    counts = (
        per_category
        .with_columns(pl.col("category").replace_strict(rank, default=len(rank), return_dtype=pl.Int32).alias("_rank"),
                      # a real share of the code: a one-line fix does not name a 2,300-line rewrite
                      (pl.col("category").is_in(["feature", "bug", "perf"]) & (pl.col("_cl") > 0)
                       & (pl.col("_cl") >= CODE_SHARE * pl.col("_cl").sum().over("_root"))).alias("_change"))
        .sort("_root", "_change", "_cl", "_c", "_rank", descending=[False, True, True, True, False])
        .group_by("_root", maintain_order=True).first()
        .select("_root", pl.col("category").alias("_common_cat"))
    )
    # The owner: of a pull request, who wrote its first commit (who opened it: tanhauhau's
    # webpack PR with two follow-ups of the maintainer's is tanhauhau's feature); of other items,
    # who wrote most of its commits.
    opened = pl.col("pr_number").is_not_null().any().over("_root") if "pr_number" in core.columns else pl.lit(False)
    people = (
        core.with_columns(opened.alias("_opened"))
        .group_by("_root", "person_id").agg(pl.len().alias("_c"), pl.col("_t").min().alias("_pt"), pl.col("_opened").first())
        .with_columns(pl.when(pl.col("_opened")).then(pl.lit(0, pl.UInt32)).otherwise(pl.col("_c")).alias("_c"))
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
        # a body that only restates the merge (jekyll's bot merges `Merge pull request #5989
        # from ...` with the body `Merge pull request 5989`) is no title
        .filter((pl.col("_pr_title").str.len_chars() > 0) & ~pl.col("_pr_title").str.contains(MERGE_RESTATED))
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
    # the section of the repository's changelog that lists the pull request (`### Fixed`),
    # matched by its title's words, or for a merge with no title (jekyll's bot merges) by its
    # commits' subjects (`Use a Schwartzian transform with custom sorting (#6342)` under
    # `### Minor Enhancements`, merged as `Merge pull request 6342`)
    titled = pr_titles.select("repo", "pr_number", pl.col("_pr_title").alias("title"))
    untitled = (
        df.filter(~pl.col("is_merge").fill_null(False) & pl.col("pr_number").is_not_null() & ~pl.col("_bot"))
        .join(opened_by_bot, on=["repo", "pr_number"], how="anti")
        .group_by("repo", "pr_number").agg(pl.col("subject").fill_null("").str.join(" ").alias("title"))
        .join(titled, on=["repo", "pr_number"], how="anti")
        .select("repo", pl.col("pr_number").cast(titled.schema["pr_number"]), "title")
    )
    listed = pull_request_categories(pl.concat([titled, untitled]), changelog).select(
        "repo", pl.col("pr_number").cast(df.schema["pr_number"]), pl.col("changelog_category").alias("_listed_cat"))
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
            .group_by("_root").agg(pl.col("merge_branch").drop_nulls().first().alias("_branch"),
                                   pl.col("repo").first(), pl.col("person_id").first().alias("_branch_person"))
            .with_columns(branch_category(pl.col("_branch")).alias("_branch_cat"))
        )
        # A prefix one person puts on every branch is a habit, not a label: nlohmann/json's
        # `feature/issue2863`, `feature/travis_clang` (15 of Niels Lohmann's 16 pull requests from
        # `feature/` branches read as features, 12 of them with no feature commit). Who names
        # branches of several kinds (`fix/…` beside `feature/…`) labels each.
        habit = (
            branches.filter(pl.col("_branch_cat").is_not_null())
            .group_by("repo", "_branch_person").agg(pl.len().alias("_named"), pl.col("_branch_cat").n_unique().alias("_kinds"))
            .filter((pl.col("_named") >= HABIT_BRANCHES) & (pl.col("_kinds") == 1))
            .select("repo", "_branch_person", pl.lit(True).alias("_habit"))
        )
        branches = branches.join(habit, on=["repo", "_branch_person"], how="left", nulls_equal=True).with_columns(
            pl.when(pl.col("_habit").is_null()).then(pl.col("_branch_cat")).alias("_branch_cat")).drop("_habit")
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
    listed_kind = listed_category(pl.col("_listed_cat"), pl.col("_common_cat"), pl.coalesce("_pr_title", "_first_subject"))
    topics = _topic_titles(work, df)
    items = (
        first.join(lead, on="_root", how="left")
        .join(topics, on="_root", how="left")
        .join(counts, on="_root", how="left")
        .join(people, on="_root", how="left")
        .join(everyone, on="_root", how="left")
        .join(pr_titles, on=["repo", "pr_number"], how="left")
        .join(listed, on=["repo", "pr_number"], how="left")
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
        # A pull request titled as a release of this repository, or with a release commit among
        # its commits, makes that release when none of its commits changes the code (bat's
        # #1649 `bat 0.18.1`: `Bump version, update dependencies` and `Update binary assets`, no
        # commit naming the version), named by its release commit, else by its title
        .with_columns(_titled_release().alias("_pr_release"))
        .with_columns(pl.when(~pl.col("_is_release").fill_null(False) & pl.col("_pr_release"))
                      .then(pl.coalesce("_release_title", release_title(pl.col("_pr_title"))))
                      .otherwise(pl.col("_release_title")).alias("_release_title"),
                      (pl.col("_is_release").fill_null(False) | pl.col("_pr_release")).alias("_is_release"))
        .with_columns(
            # A repository's own label (the merged branch's `fix/`, `feature/`) first, then
            # the pull request's title when it reads as a feature or a fix, then the commits.
            pl.when(pl.col("_all_reverts") | (pl.col("_mostly_revert") & pl.col("_pr_title").is_null())).then(pl.lit("revert"))
            # a pull request titled as a revert whose commits are mostly reverts, with the tests
            # or docs they needed (serde's `Revert the colliding aliases hard error`: two
            # `Revert "…"` commits and the ui tests' update, read as test work)
            .when(pl.col("_pr_title").fill_null("").str.contains(r"(?i)^\s*revert(?:s|ed|ing)?\b")
                  & (pl.col("_revert_share") >= 0.5)).then(pl.lit("revert"))
            # a release made of several commits (`release_edges`) is release work, and so is a
            # pull request whose commits make a release, as its title says (`Release 0.5.2`),
            # whatever the pull request's own words (mdBook's `Update to 0.5.2`: 51 of Eric
            # Huss's release items had been build work, and his profile had counted 14 releases)
            .when(pl.col("_is_release") & (pl.col("_pr_title").is_null() | pl.col("_title_type").is_null())).then(pl.lit("chore"))
            # A type the PR's title declares outranks its branch's name (`feat: …` from `fix-385`),
            # unless it names code work (a feature, fix, refactoring or speed-up) and every
            # commit is docs, tests or build work
            .when(pl.col("_title_type").is_not_null() & (pl.col("_title_type") != "revert")
                  & ~(pl.col("_title_type").is_in(CODE_WORK) & paths_only))
            .then(pl.col("_title_type"))
            # A pull request that makes a release (`Release 3.4.1`) is release work, whatever
            # small change rides along with the version bump.
            .when(pl.col("_pr_title").str.contains(RELEASE_TITLE)).then(pl.lit("chore"))
            # The project's changelog files the pull request under one kind of change (an
            # enhancement is a feature as `listed_category` says; a heading of tooling work
            # recasts only a feature or fix; a change of only docs, tests or build files is no
            # code work a heading names).
            .when(listed_kind.is_not_null() & ~(listed_kind.is_in(["feature", "bug", "chore", "refactor", "perf"]) & paths_only)
                  & ((listed_kind != "chore") | pl.col("_common_cat").is_in(["feature", "bug", "other", "chore"]).fill_null(True)))
            .then(listed_kind)
            .when(pl.col("_label_cat").is_not_null()).then(pl.col("_label_cat"))
            # A branch named as a feature or fix (`fix-readme-example`) of only docs, tests or
            # build files is that kind of work, as for the title's type (and so is one named as
            # a clean-up, a refactoring: urfave/cli's `cleanup_docs_...` of documentation alone).
            .when(pl.col("_branch_cat").is_not_null() & ~(pl.col("_branch_cat").is_in(CODE_WORK) & paths_only))
            .then(pl.col("_branch_cat"))
            # ... unless its commits only touched docs, tests or build files.
            .when(pl.col("_title_cat").is_in(["feature", "bug"]) & ~paths_only)
            .then(pl.col("_title_cat"))
            .when(pl.col("_other_wins")).then(pl.col("_other_cat"))
            # (a kind with a real share of the code: ripgrep's 7-line `disable hyperlinks by
            # default` fix opened the 18,865-line move from clap to lexopt)
            .when(pl.col("_first_cat").is_in(["feature", "bug"])
                  & (pl.col("_first_cl") >= CODE_SHARE * pl.col("_item_cl").fill_null(0))).then(pl.col("_first_cat"))
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
                # a release item is named by the release it makes, not its first worded step, nor
                # its pull request's wording (click's `release version 8.4.1 (#3496)`: "Release 8.4.1")
                pl.when(pl.col("_is_release")).then(pl.col("_release_title")),
                # read as a commit's subject is: `[WIP] Fix up appveyor testing.`, `:memo: ...`;
                # a title that only names an issue (`Fix #2180.`) gives way to the commits'
                # (or that only points to another, or to the review: `PR 2987 followup`)
                pl.when(~pl.col("_pr_title").fill_null("").str.contains(ISSUE_ONLY_TITLE)
                        & ~_title(pl.col("_pr_title")).fill_null("").str.contains(VAGUE_SUBJECT)).then(_title(pl.col("_pr_title"))),
                "_opening_title",
                pl.when(pl.col("_mostly_revert") & (pl.col("category") == "revert")).then(_title(pl.col("_revert_subject"))),
                # a topic branch by what its merge says the branch did (git/git)
                "_topic_title",
                _title(pl.coalesce(pl.when(pl.col("_cat_words") > 0).then(pl.col("_cat_subject")), "_best_subject",
                                   "_cat_subject", "_first_subject", "_any_subject")),
            ).alias("title"),
        )
    )
    # Commits without a message (Subversion allowed them: 333 of SQLAlchemy's early items): the
    # item is named by what it changed.
    # ... and an item titled by the issue it closes alone says where it changed things
    items = items.join(unnamed, on="_root", how="left").with_columns(
        pl.when(pl.col("title").fill_null("").str.strip_chars() == "")
        .then(pl.coalesce("_files_title", pl.lit("Change without a message")))
        .when(pl.col("title").str.contains(ISSUE_ONLY_NAME) & pl.col("_main_path").is_not_null())
        .then(pl.format("{} in {}", pl.col("title").str.strip_chars().str.strip_chars_end(".!"), pl.col("_main_path")))
        # GitHub's advisory merge with nothing else to name it by (caddy: three `Merge commit
        # from fork` titles, bodies that explain and list no commit) says a vulnerability was fixed
        .when(pl.col("title").fill_null("").str.to_lowercase().str.contains(ADVISORY_MERGE))
        .then(pl.lit("Fix a security vulnerability"))
        .otherwise(pl.col("title")).alias("title")
    ).drop("_files_title", "_main_path")
    items = _with_pointed_titles(items)
    ids = items.select("_root", "work_item_id")
    items = items.join(chain_status(work, links, df), on="_root", how="left").with_columns(
        pl.col("reverted_by").fill_null(pl.lit([], pl.List(pl.String))),
        pl.col("relanded_by").fill_null(pl.lit([], pl.List(pl.String))),
        pl.col("later_reverted").fill_null(False),
    )
    items = items.select(list(WORK_ITEMS_SCHEMA)).cast(WORK_ITEMS_SCHEMA).sort("first_at", "work_item_id")
    return items, work.join(ids, on="_root", how="left")


# A title that only points at another pull request: serde's `Touch up PR 2879`, `Follow-up to
# #4521`, `PR 2987 followup`, `Update ui tests from PR 2558`.
def _titled_release() -> pl.Expr:
    """The item is a pull request with no feature, fix, refactoring or speed-up among its commits
    (`__c_change`: serde's #446 renamed a feature, then released 0.8.0-rc2) whose title makes a
    release of this repository (its package, when it names one, is the repository: `bat
    0.18.1`, not `Python 3.12`), or one of whose commits does (`_makes_release`: bat's #2514
    `Updates for bat 0.23`, the release checklist mended before `Bump version to 0.23`)."""
    title = pl.col("_pr_title").fill_null("")
    package = release_package(title).str.to_lowercase()
    own = package.is_null() | (package == pl.col("repo").str.extract(r"([^/]+)$", 1).str.to_lowercase())
    # (not a development version set, click's `Bump version to 8.4.dev`: the next one's opening)
    titled = release_subject(title) & release_title(title).is_not_null() & own & ~title.str.contains(DEV_VERSION)
    made = pl.col("pr_number").is_not_null() & pl.col("_makes_release").fill_null(False) & pl.col("_release_title").is_not_null()
    return ((titled | made) & (pl.col("__c_change").fill_null(0) == 0)).fill_null(False)


POINTER_TITLE = (
    r"(?i)^\s*(?:(?:touch(?:es|ed)?\s+up|follow[- ]?ups?(?:\s+(?:to|on|for|of))?|(?:small\s+)?fix(?:es|ed)?\s+(?:for|to|after)"
    r"|tweaks?(?:\s+(?:to|for|on))?|polish(?:es|ed)?|clean(?:s|ed)?\s+up(?:\s+after)?|update(?:s|d)?(?:\s+(?:\S+\s+){0,2}?(?:from|for|after))?)"
    r"\s+(?:pr|pull\s+request)?\s*#?(\d+)|(?:pr|pull\s+request)\s*#?(\d+)\s+follow[- ]?up)\s*[.!]*\s*$"
)


def _with_pointed_titles(items: pl.DataFrame) -> pl.DataFrame:
    """An item titled only by the pull request it follows up (POINTER_TITLE) says what that pull
    request was: `Touch up PR 2879: add #[allow(deprecated)] to derive implementations` (the
    pull request's item title, from its merge or squash commit, in the same repository)."""
    pointed = pl.coalesce(pl.col("title").fill_null("").str.extract(POINTER_TITLE, 1),
                          pl.col("title").fill_null("").str.extract(POINTER_TITLE, 2)).cast(pl.Int64, strict=False)
    prs = (items.filter(pl.col("pr_number").is_not_null() & ~pl.col("title").fill_null("").str.contains(POINTER_TITLE))
           .sort("first_at").unique(["repo", "pr_number"], keep="first", maintain_order=True)
           .select("repo", pl.col("pr_number").cast(pl.Int64).alias("_pointed"), pl.col("title").alias("_pointed_title")))
    return (
        items.with_columns(pointed.alias("_pointed"))
        .join(prs, on=["repo", "_pointed"], how="left", maintain_order="left")
        .with_columns(pl.when(pl.col("_pointed_title").is_not_null() & (pl.col("_pointed") != pl.col("pr_number").fill_null(-1)))
                      .then(pl.concat_str([pl.col("title").str.strip_chars().str.strip_chars_end(".!"), pl.lit(": "),
                                           pl.col("_pointed_title")]))
                      .otherwise(pl.col("title")).alias("title"))
        .drop("_pointed", "_pointed_title")
    )


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


# A merge's words for itself, not a title: `Merge pull request 5989`, `Merge branch 'main'`.
# (or only git's note of the files that conflicted: serde's `Merge pull request 963 from ...`
# with the body `Conflicts:` and the file names)
MERGE_RESTATED = (r"(?i)^\s*merge\s+(?:pull\s+request|pr|branch|remote-tracking\s+branch|tag)\b[^\n]*$"
                  r"|^\s*#?\s*conflicts:\s*$")
# A title that names nothing but the issue it is about: `Fix #2180.`, `Issue #526`, `Fixes: #11083`.
ISSUE_ONLY_TITLE = r"(?i)^\s*(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|issue|for|re|gh)\s*:?\s*)?#?\d+[.!]?\s*$"
# ... or its link (fmt's `Fix https://github.com/cppformat/cppformat/issues/55.`)
ISSUE_ONLY_NAME = (ISSUE_ONLY_TITLE + r"|^\s*(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s*)?"
                   r"https?://\S+/(?:issues|pull)/\d+[.!]?\s*$")


# A merged branch's name as a label: `fix/…`, `bugfix-…`, `hotfix/…`, `feature/…`, `feat-…`.
BRANCH_LABELS = (
    (r"(?i)^(?:[^/]+/)?(?:fix|fixes|bugfix|bug|hotfix)(?:[/_-]|$)", "bug"),
    (r"(?i)^(?:[^/]+/)?(?:feat|feature|features)(?:[/_-]|$)", "feature"),
    (r"(?i)^(?:[^/]+/)?(?:docs?)(?:[/_-]|$)", "docs"),
    (r"(?i)^(?:[^/]+/)?(?:refactor|cleanup)(?:[/_-]|$)", "refactor"),
    (r"(?i)^(?:[^/]+/)?(?:perf)(?:[/_-]|$)", "perf"),
)


# One person's branches, all named with a prefix of one kind, this many or more: the prefix is a
# habit (`branches` in `assign_work_items`).
HABIT_BRANCHES = 5


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
