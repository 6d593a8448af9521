"""The relations that join commits into one work item (pull request, branch, revert chain, series,
fixup, related, batch, follow-up, test, issue), each a frame of pairs of work-commit rows.
"""

from __future__ import annotations

from datetime import timedelta

import polars as pl

from exceeds_pipeline.classify.changelog import CHANGELOG_PATH
from exceeds_pipeline.classify.conventional import declared_type
from exceeds_pipeline.enrich.exclusions import SWEEP_FILES, VENDORED_PATH, excluded_as
from exceeds_pipeline.classify.work_items.releases import DEPENDENCY_WORDS, release_title
from exceeds_pipeline.classify.work_items.shared import (
    CLOSING_REFS, DECLARED_TYPE, GENERIC_FILES, MACHINE_MADE, PACKAGE_MANIFEST, RELATED_GAP, SERIES_GAP, _PAIRS, _SERIES, _SERIES_GROUPS,
    BARE_CHANGELOG_SUBJECT, VAGUE_SUBJECT, WEB_EDITOR_SUBJECT, _STOPWORDS, _consecutive_pairs, _no_pairs, _title,
    dependency_update,
)


def pr_edges(work: pl.DataFrame) -> pl.DataFrame:
    """Commits of the same pull request in the same repository. A number only the commits' own
    subjects carry (`... (#2)`, no merge brought them in) joins one author's commits: a squash
    makes one commit per pull request, so two people's `(#2)` are two changes (git/git's
    `combine-diff: diff-files fix (#2)` of 2006 and `l10n: pt_PT: ... (#2)` of 2021)."""
    own = pl.col("merge_pr").is_null() if "merge_pr" in work.columns else pl.lit(True)
    rows = (work.filter(pl.col("pr_number").is_not_null())
            .with_columns(pl.when(own).then(pl.col("person_id").fill_null("")).otherwise(pl.lit("")).alias("_by"))
            .sort("repo", "pr_number", "_by", "_t", "_n"))
    return _consecutive_pairs(rows, ["repo", "pr_number", "_by"]).select("_a", "_b")


def revert_chain_edges(work: pl.DataFrame, links: pl.DataFrame) -> pl.DataFrame:
    """A change with its reverts and relands, when they are by the change's own author: a revert
    or reland by someone else is a link to the item (commit_links), not part of it."""
    if links is None or links.height == 0:
        return _no_pairs()
    node = work.select("repo", "sha", "_n", "person_id")
    chain = links.filter(pl.col("link_type").is_in(["reverts", "relands"]))
    if "merge_sha" in work.columns:
        # a revert or reland of a merge names the commits that merge brought in (GitHub's revert
        # button reverts `Merge pull request #1636`)
        brought = work.select("repo", pl.col("merge_sha").alias("target_sha"), pl.col("sha").alias("_in")).drop_nulls("target_sha")
        chain = pl.concat([chain.select("repo", "sha", "target_sha"),
                           chain.join(brought, on=["repo", "target_sha"], how="inner")
                           .select("repo", "sha", pl.col("_in").alias("target_sha"))])
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
# the longest pause inside one topic branch's work, as inside a numbered series
BRANCH_GAP = SERIES_GAP


def _from_topic_branch() -> pl.Expr:
    """The work commit came in by a merge of a topic branch (not a pull request, not an
    integration branch, not a branch that itself merged others): `branch_edges`' commits."""
    return (pl.col("merge_sha").is_not_null() & pl.col("pr_number").is_null() & pl.col("merge_branch").is_not_null()
            & ~pl.col("merge_branch").str.contains(INTEGRATION_BRANCH) & ~pl.col("_merges_branches").fill_null(False))


def branch_edges(work: pl.DataFrame) -> pl.DataFrame:
    """Commits of one author that one merge of a topic branch brought in (`Merge branch
    'routes-list'`; git's `Merge branch 'ab/topic'`), outside pull requests, each at most
    RELATED_GAP after the one before, or at most BRANCH_GAP when both name the same component:
    the branch is one change, as a pull request is (antirez's `acl-log` and `csc2` of redis, `ACL
    LOG: ...` and `Tracking: ...`, went on after a weekend: 12 of his 26 branches had been cut at
    a gap of two days; a long-lived branch of unrelated fixes, docs and features is not one). A merge
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
        .with_columns(pl.col("_component").shift(1).alias("_prev_component"))
    )
    pairs = _consecutive_pairs(rows, ["repo", "merge_sha", "person_id"])
    same_component = (pl.col("_component") == pl.col("_prev_component")).fill_null(False)
    return pairs.filter((pl.col("_gap") <= RELATED_GAP) | (same_component & (pl.col("_gap") <= BRANCH_GAP))).select("_a", "_b")


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


# A commit that says it follows up or tests an earlier commit, naming it by its sha (curl's
# `Follow-up to a3aaca10` trailer, caddy's `Follow-up on 35c8c2d9 where I was a dum-dum`, `Add
# test for 5b727bde`): the rest of that change when its author makes it within FOLLOW_UP_SHA_GAP.
# Not a fix of it (`Fixes: <sha>`, `regression from <sha>`): that names it broken (commit_links).
FOLLOW_UP_SHA = (r"(?i)\b(?:follow[- ]?ups?(?:\s+(?:to|on|for|from|of))?|tests?\s+for|addendum\s+to)"
                 r"\s*:?\s+(?:commit\s+)?([0-9a-f]{7,40})\b")
FOLLOW_UP_SHA_GAP = timedelta(days=7)


def follow_up_sha_edges(work: pl.DataFrame) -> pl.DataFrame:
    """A commit that names an earlier commit of the same author in the same repository as what
    it follows up or tests (FOLLOW_UP_SHA; an abbreviated sha that resolves to one commit), at
    most FOLLOW_UP_SHA_GAP after it, neither a release commit: one change (a later follow-up, or
    someone else's, is a change of its own)."""
    from exceeds_pipeline.classify.links import resolve_prefixes

    text = pl.coalesce(pl.col("message"), pl.col("subject")) if "message" in work.columns else pl.col("subject")
    refs = (work.select("repo", pl.col("_n").alias("_b"), text.fill_null("").str.extract_all(FOLLOW_UP_SHA).alias("ref"))
            .explode("ref", empty_as_null=False).drop_nulls("ref")
            .with_columns(pl.col("ref").str.extract(FOLLOW_UP_SHA, 1)).unique())
    if refs.height == 0:
        return _no_pairs()
    step = ((pl.col("_release").fill_null(False) | pl.col("_release_step").fill_null(False))
            if {"_release", "_release_step"} <= set(work.columns) else pl.lit(False))
    ends = work.select("repo", "sha", "_n", "person_id", "_t", step.alias("_step"))
    found = resolve_prefixes(refs, work.select("repo", pl.col("sha").str.to_lowercase()))
    return (
        found.join(ends.rename({"sha": "target_sha", "_n": "_a", "person_id": "_pa", "_t": "_ta", "_step": "_sa"}),
                   on=["repo", "target_sha"])
        .join(ends.drop("repo", "sha").rename({"_n": "_b", "person_id": "_pb", "_t": "_tb", "_step": "_sb"}), on="_b")
        .filter((pl.col("_pa") == pl.col("_pb")) & (pl.col("_a") != pl.col("_b")) & (pl.col("_ta") <= pl.col("_tb"))
                & (pl.col("_tb") - pl.col("_ta") <= FOLLOW_UP_SHA_GAP) & ~pl.col("_sa") & ~pl.col("_sb"))
        .select("_a", "_b").unique()
    )


# A commit that points back at the one just made: it adds what that one forgot (click's `Added
# missing module` 49 seconds after `cf31c15` moved code into the module it forgot to add), or
# says so (`Forgot to add the tests`, `relaxes the restriction from the last commit`).
POINTS_BACK = (r"(?i)\b(?:forgot|(?:the\s+)?(?:last|previous|prior)\s+commit)\b"
               r"|^\W*(?:add|added|adds|adding)\s+(?:the\s+)?missing\s+(?:files?|modules?|sources?|headers?|imports?)\b"
               r"|^\W*(?:oops|whoops)\b")
POINTS_BACK_GAP = timedelta(minutes=10)


def points_back_edges(work: pl.DataFrame) -> pl.DataFrame:
    """An author's commit that points back at their commit just before (POINTS_BACK), at most
    POINTS_BACK_GAP after it, neither in a pull request nor a release commit, nor naming another
    component (redis's `Slave removal: add a few forgotten aliases` after `LOLWUT: ...`): one
    change, whatever files each touched."""
    step = (pl.col("_release").fill_null(False) | pl.col("_opening").fill_null(False)
            if {"_release", "_opening"} <= set(work.columns) else pl.lit(False))
    stream = work.sort("repo", "person_id", "_t", "_n").with_columns(
        pl.col("pr_number").shift(1).alias("_prev_pr"), step.shift(1).alias("_prev_step"), step.alias("_step"),
        pl.col("_component").shift(1).alias("_prev_component"))
    return _consecutive_pairs(stream, ["repo", "person_id"]).filter(
        (pl.col("_gap") <= POINTS_BACK_GAP) & pl.col("pr_number").is_null() & pl.col("_prev_pr").is_null()
        & ~pl.col("_step") & ~pl.col("_prev_step").fill_null(False)
        & ~(pl.col("_component") != pl.col("_prev_component")).fill_null(False)
        & pl.col("subject").fill_null("").str.contains(POINTS_BACK)).select("_a", "_b")


SAME_RECORD_GAP = timedelta(minutes=10)
# ... when the later one says nothing of its own: a file name, `Changelog`, `Typo`, `Formatting`
# (two specific subjects on one manifest, serde's `Make compiletest an optional dependency of the
# test suite` and `Set up clippy for serde_test`, are two changes)
TOUCH_UP_SUBJECT = (r"(?i)^\W*(?:(?:fix(?:e[sd])?\s+|more\s+|minor\s+)?(?:typos?|formatting|format|wording|spelling|"
                    r"spell(?:ing)?\s+fix(?:es)?|whitespace|indentation|links?)|tweaks?|polish)\W*$"
                    r"|^\W*[\w.-]+(?:/[\w.-]+)*\.[a-z][a-z0-9]{0,7}\W*$")  # a file name, not a version (`0.9.7`)


def same_record_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None) -> pl.DataFrame:
    """An author's commit outside pull requests that changes only files that relate nothing by
    themselves (GENERIC_FILES: a changelog, a package manifest, a version file), all of them
    changed by their commit just before, at most SAME_RECORD_GAP after it, and that says nothing
    of its own (TOUCH_UP_SUBJECT, VAGUE_SUBJECT, ...): one edit saved twice
    (httpie's `Update CHANGELOG.md` then `Update CHANGELOG.md` 17 s later, `Update links` then
    `Update setup.py` two minutes later on setup.py alone, a changelog touched up minutes after
    the version bump that wrote it). Not a release, nor when the two name different issues."""
    if file_changes is None or file_changes.height == 0:
        return _no_pairs()
    path = pl.col("path").fill_null("")
    paths = file_changes.join(work.select("repo", "sha", "_n"), on=["repo", "sha"]).select("_n", path.alias("_path")).unique()
    generic = paths.group_by("_n").agg(pl.col("_path").str.contains(GENERIC_FILES).all().alias("_generic"))
    release = pl.col("_release").fill_null(False) if "_release" in work.columns else pl.lit(False)
    says_nothing = pl.col("subject").fill_null("").str.contains(
        f"{TOUCH_UP_SUBJECT}|{VAGUE_SUBJECT}|{BARE_CHANGELOG_SUBJECT}|{WEB_EDITOR_SUBJECT}")
    stream = (work.select("repo", "person_id", "_t", "_n", "pr_number", (says_nothing & ~release).alias("_touch_up"))
              .join(generic, on="_n", how="left")
              .sort("repo", "person_id", "_t", "_n")
              .with_columns(pl.col("pr_number").shift(1).alias("_prev_pr")))
    pairs = _consecutive_pairs(stream, ["repo", "person_id"]).filter(
        (pl.col("_gap") <= SAME_RECORD_GAP) & pl.col("pr_number").is_null() & pl.col("_prev_pr").is_null()
        & pl.col("_touch_up") & pl.col("_generic").fill_null(False)).select("_a", "_b")
    # every file of the later commit is one the earlier changed
    elsewhere = (pairs.join(paths.rename({"_n": "_b"}), on="_b")
                 .join(paths.rename({"_n": "_a"}), on=["_a", "_path"], how="anti").select("_a", "_b"))
    return _apart_by_issue(work, pairs.join(elsewhere, on=["_a", "_b"], how="anti").cast(_PAIRS))


# One dependency update carried through a repository's manifests, its author's next commit this soon.
DEPENDENCY_GAP = timedelta(minutes=30)


def dependency_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None) -> pl.DataFrame:
    """Consecutive commits of one author outside pull requests, at most DEPENDENCY_GAP apart,
    each changing only package manifests and lock files (no release), and each a dependency
    update by its lock file or its words: one dependency update carried through the tree
    (bubbletea's `Bump reflow, termenv and go-isatty` of go.mod, then `Examples and tutorials:
    update dependencies and go mod tidy` of examples/go.mod eleven minutes later; a manifest
    relates nothing by itself, GENERIC_FILES). Not a manifest's other settings (serde's `Set
    up clippy for serde_test` after `Make compiletest an optional dependency ...`)."""
    if file_changes is None or file_changes.height == 0:
        return _no_pairs()
    lock = excluded_as(file_changes, "lock_file")
    only_deps = (file_changes.join(work.select("repo", "sha", "_n"), on=["repo", "sha"])
                 .group_by("_n").agg((pl.col("path").fill_null("").str.contains(PACKAGE_MANIFEST) | lock).all().alias("_deps"),
                                     lock.any().alias("_locked")))
    subject = pl.col("subject").fill_null("")
    says_deps = dependency_update(subject) | subject.str.contains(DEPENDENCY_WORDS)
    release = pl.col("_release").fill_null(False) if "_release" in work.columns else pl.lit(False)
    stream = (work.select("repo", "person_id", "_t", "_n", "pr_number", release.alias("_release"), says_deps.alias("_says"))
              .join(only_deps, on="_n", how="left")
              .with_columns((pl.col("_deps").fill_null(False) & (pl.col("_locked").fill_null(False) | pl.col("_says"))
                             & pl.col("pr_number").is_null() & ~pl.col("_release")).alias("_dep"))
              .sort("repo", "person_id", "_t", "_n")
              .with_columns(pl.col("_dep").shift(1).over("repo", "person_id").alias("_prev_dep")))
    return _consecutive_pairs(stream, ["repo", "person_id"]).filter(
        pl.col("_dep") & pl.col("_prev_dep").fill_null(False) & (pl.col("_gap") <= DEPENDENCY_GAP)).select("_a", "_b").cast(_PAIRS)


def _subject_words(work: pl.DataFrame, column: str = "subject") -> pl.DataFrame:
    """``[_n, _w]``: the content words of each commit's title (three letters or more, lower case,
    no _STOPWORDS; a commit without any has no row), read from its subject or ``column`` (its
    title `_<column>_title` where the work frame has it)."""
    title = f"_{column.strip('_')}_title"
    return work.select(
        "_n",
        (pl.col(title) if title in work.columns else _title(pl.col(column))).str.to_lowercase().str.extract_all(r"[a-z][a-z0-9_]{2,}").list.unique().alias("_w"),
    ).explode("_w", empty_as_null=False).filter(~pl.col("_w").is_in(_STOPWORDS))


def related_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None,
                  shared_files: tuple[pl.DataFrame, pl.DataFrame] | None = None,
                  subject_words: tuple[pl.DataFrame, pl.DataFrame] | None = None,
                  batches: pl.DataFrame | None = None) -> pl.DataFrame:
    """Consecutive commits of one author, at most RELATED_GAP apart, neither in a pull request,
    and evidently related: same component, a shared file, or strongly overlapping subjects (also
    with one commit between them, at most QUICK_FIX_GAP apart, when the later one says it
    continues: CONTINUES).
    (`shared_files`: `_shared_files(work, file_changes)`, `subject_words`:
    `_subject_word_sets(work)`, and `batches`: `batch_members(work)`, when the caller has them.)"""
    stream = work.sort("repo", "person_id", "_t", "_n").with_columns(
        pl.col("pr_number").shift(1).alias("_prev_pr"),
        pl.col("_component").shift(1).alias("_prev_component"),
    )
    # (a commit its author wrote minutes after their squashed pull request landed may finish
    # it: fzf's `Clear border text of the floating pane when no label is given`, 21 minutes
    # after #4853 `Set --border-label as the title of the tmux floating pane`, in the same code;
    # or rebased onto it and pushed with it, the same second: #4825 `Add 'wait' action` and the
    # three fixes its author wrote in the next three minutes; not a commit written while a
    # pull request waited to be merged)
    landed = pl.col("committed_at") if "committed_at" in work.columns else pl.col("_t")
    squashed = pl.col("merge_pr").is_null() if "merge_pr" in work.columns else pl.lit(True)
    stream = stream.with_columns(pl.when(squashed).then(landed).shift(1).alias("_prev_landed"),
                                 landed.alias("_landed"))
    since_landed = pl.col("_t") - pl.col("_prev_landed")
    follows_pr = (((since_landed >= timedelta(0)) & (since_landed <= PR_FOLLOW_UP_GAP))
                  | (((pl.col("_landed") - pl.col("_prev_landed")).abs() <= PUSHED_TOGETHER)
                     & (pl.col("_gap") <= PR_FOLLOW_UP_GAP))).fill_null(False)
    cand = _consecutive_pairs(stream, ["repo", "person_id"]).filter(
        (pl.col("_gap") <= RELATED_GAP) & pl.col("pr_number").is_null() & (pl.col("_prev_pr").is_null() | follows_pr)
    )
    # Written a day apart but committed weeks apart, two commits landed separately: a shared
    # component or file does not make them one change (htop's patches, applied one by one), a
    # repeated subject still does (a fix committed again on a stable branch).
    if cand.height == 0:
        return _no_pairs()
    # Nor does it join a commit to a batch its author committed together hours before or after
    # it landed on its own (ripgrep: `ignore: fix deadlock when visitor panics`, pushed alone
    # the evening before the six commits of `ignore: add incremental checking` were rebased and
    # pushed around it, had been part of that feature).
    apart = _no_pairs()
    if "committed_at" in work.columns:
        earlier = work.select(pl.col("_n").alias("_a"), pl.col("committed_at").alias("_ca"))
        gap = (pl.col("committed_at") - pl.col("_ca")).abs()
        pairs = cand.join(earlier, on="_a")
        apart = pairs.filter(gap > RELATED_GAP).select("_a", "_b")
        batches = batch_members(work) if batches is None else batches
        if batches.height:
            # (the lone commit written between two commits of the batch, landed apart from it)
            span = batches.group_by("_batch").agg(pl.col("_t").min().alias("_from"), pl.col("_t").max().alias("_to"))
            member = batches.select("_n", "_batch").join(span, on="_batch")
            lone = work.select("_n", "_t").join(batches.select("_n"), on="_n", how="anti")
            inside = (pl.col("_lt") > pl.col("_from")) & (pl.col("_lt") < pl.col("_to"))
            far = pairs.filter(gap > BATCH_APART)
            straddle = pl.concat([
                far.select("_a", "_b", pl.col("_a").alias("_m"), pl.col("_b").alias("_l")),
                far.select("_a", "_b", pl.col("_b").alias("_m"), pl.col("_a").alias("_l")),
            ]).join(member.rename({"_n": "_m"}), on="_m").join(lone.rename({"_n": "_l", "_t": "_lt"}), on="_l").filter(inside)
            apart = pl.concat([apart, straddle.select("_a", "_b")])
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
        fc_all = fc
        fc = fc.with_columns(pl.col("path").fill_null("").str.contains(DOCS_PATH).alias("_doc"),
                             pl.col("path").fill_null("").str.contains(TEST_PATH).alias("_test"))
        docs_only = fc.group_by("repo", "sha").agg(pl.col("_doc").all().alias("_docs_only"),
                                                   (~pl.col("_doc") & ~pl.col("_test")).any().alias("_code"))
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
            named = _sharing_word(hub_pairs, rare)
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
        wide, shallow = _sweeps(fc_all, file_changes)
        sweeps = wide.join(work.select("_n", "repo", "sha"), on=["repo", "sha"]).select("_n")
        if sweeps.height:
            files = files.join(sweeps.rename({"_n": "_a"}), on="_a", how="anti") \
                .join(sweeps.rename({"_n": "_b"}), on="_b", how="anti")
        files = _nearest_only(files.cast(_PAIRS), shallow, work)
        # A dependency update edits the pins wherever they are (workflows, tox.ini, requirements):
        # a file shared with it relates it to another update only (jinja's `update dev
        # dependencies` and `remove test pypi`, one minute apart in publish.yaml, are two changes)
        subject = pl.col("subject").fill_null("")
        updates = work.filter(dependency_update(subject) | subject.str.contains(DEPENDENCY_REFRESH))["_n"].cast(pl.UInt32).implode()
        files = files.cast(_PAIRS).filter(pl.col("_a").is_in(updates) == pl.col("_b").is_in(updates))
        files = pl.concat([files.cast(_PAIRS), _named_file_pairs(pa, file_changes, work)])
    counts = words.group_by("_n").agg(pl.len().alias("_cnt"))
    # ... and a subject that says it continues one with one other commit of the author between
    # them (Sidekiq's `Remove rack::utils usage, use CGI`, then `Rename example erb ...`, then
    # `remove more rack::utils usage` nine minutes after the first)
    skip_one = _consecutive_pairs(stream.with_columns(pl.col("pr_number").shift(2).alias("_pr_a")),
                                  ["repo", "person_id"], apart=2).filter(
        (pl.col("_gap") <= QUICK_FIX_GAP) & pl.col("pr_number").is_null()
        & pl.col("_pr_a").is_null() & pl.col("_prev_pr").is_null()
        & pl.col("subject").fill_null("").str.contains(CONTINUES)).select("repo", "_a", "_b", "_gap")
    shared = (
        pl.concat([pair_ids, skip_one.cast(pair_ids.schema)]).join(words.rename({"_n": "_a"}), on="_a", how="inner")
        .join(words.rename({"_n": "_b"}), on=["_b", "_w"], how="inner")
        .group_by("_a", "_b").agg(pl.len().alias("_shared"))
        .join(counts.rename({"_n": "_a", "_cnt": "_ca"}), on="_a")
        .join(counts.rename({"_n": "_b", "_cnt": "_cb"}), on="_b")
    )
    similar = shared.filter(
        (pl.col("_shared") >= 2)
        & (pl.col("_shared") / (pl.col("_ca") + pl.col("_cb") - pl.col("_shared")) >= 0.5)
    ).select("_a", "_b")
    landed_together = pl.concat([same_component.cast(_PAIRS), files.cast(_PAIRS)]).join(
        apart.cast(_PAIRS), on=["_a", "_b"], how="anti")
    related = pl.concat([landed_together, similar.cast(_PAIRS)]).unique()
    # ... and a commit after its author's pull request relates to it only when it also says so:
    # a word the repository rarely uses shared, or worded as a follow-up (zod's `perf(v4): mark
    # top-level factory calls as /*@__PURE__*/`, 23 minutes after #5889 `feat(core): share
    # globalConfig across module systems`, shared only core.ts with it)
    in_pr = work.filter(pl.col("pr_number").is_not_null()).select(pl.col("_n").cast(pl.UInt32).alias("_a"))
    after_pr = related.cast(_PAIRS).join(in_pr, on="_a", how="semi")
    if after_pr.height:
        says = work.filter(pl.col("subject").fill_null("").str.contains(f"{QUICK_FIX}|{CONTINUES}")).select(pl.col("_n").cast(pl.UInt32).alias("_b"))
        # ... or written within minutes of the pull request landing, in its files: its author
        # finishing it (insta's `Improved messaging and added changelog entry` 72 s after #346
        # `Add support for allow_duplicates!`, in its macro's file)
        landed_a = work.select(pl.col("_n").cast(pl.UInt32).alias("_a"), landed.alias("_la"))
        written_b = work.select(pl.col("_n").cast(pl.UInt32).alias("_b"), pl.col("_t").alias("_tb"))
        soon = (after_pr.join(files.cast(_PAIRS), on=["_a", "_b"], how="semi").join(landed_a, on="_a").join(written_b, on="_b")
                .filter(((pl.col("_tb") - pl.col("_la")) >= timedelta(0)) & ((pl.col("_tb") - pl.col("_la")) <= FINISHED_PR_GAP))
                .select("_a", "_b"))
        related = pl.concat([related.cast(_PAIRS).join(in_pr, on="_a", how="anti"),
                             _sharing_word(after_pr, rare).cast(_PAIRS),
                             after_pr.join(says, on="_b", how="semi"), soon]).unique()
    if file_changes is not None and file_changes.height:
        related = _apart_by_changelog(work, file_changes, related)
    return _one_declared_change_each(stream, _apart_by_credit(work, _apart_by_issue(work, _apart_by_release(work, related)), rare),
                                     rare)


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


def _pair_ends(pairs: pl.DataFrame, work: pl.DataFrame) -> pl.DataFrame:
    """``[_n]``: the commits of `work` that the pairs (`_a`, `_b`) name, once each."""
    ends = pl.concat([pairs.select(pl.col("_a").alias("_n")), pairs.select(pl.col("_b").alias("_n"))])
    return ends.cast({"_n": work.schema["_n"]}).unique()


def _apart_by_release(work: pl.DataFrame, related: pl.DataFrame) -> pl.DataFrame:
    """The related pairs less those that join a release commit to anything but its release
    steps (`release_edges`): not the fix of the next day that touches the same version
    constant, nor the next release (nlohmann/json's `set version to 3.11.0` and `set version to
    3.11.1`). (The same version set twice is one release: json's two `set version to 3.3.0`.)"""
    if "_release" not in work.columns:
        return related
    # Files built again for a release, and the commits that finish one, count as its release
    # commits here: lodash's rebuild sets the version in lodash.js, which the fix before it
    # changed; composer's `Reverting release version changes` shares Composer.php with the next
    # release.
    rebuilt = pl.col("_rebuilt_for_release") if "_rebuilt_for_release" in work.columns else pl.lit(False)
    post = pl.col("_post_of").is_not_null() if "_post_of" in work.columns else pl.lit(False)
    # (and so does a development version set, the next release's opening: phoenix's `Prep
    # 1.0.0-dev` and the fixes of the next two days in mix.exs)
    opening = pl.col("_opening") if "_opening" in work.columns else pl.lit(False)
    # (read for the commits of the pairs alone: a release title is a long pattern)
    kind = (work.join(_pair_ends(related, work), on="_n", how="semi")
            .select("_n", pl.col("_release") | rebuilt | post | opening, "_release_step", release_title(pl.col("subject")).alias("_v")))
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


def batch_members(work: pl.DataFrame) -> pl.DataFrame:
    """(repo, _n, sha, _t, _batch) of the work commits outside pull requests that are in a batch:
    in the order the repository's commits were committed, a run of commits seconds apart is one
    replay, and each author's commits in it a batch, of 2 to BATCH_MAX_COMMITS committed later
    than written (two branches replayed minutes apart interleave by the dates they were written:
    Alamofire's redirect and response-cache handlers, Jan 22-29; a maintainer applies several
    people's patches at once)."""
    schema = {"repo": pl.String, "_n": pl.UInt32, "sha": pl.String, "_t": work.schema.get("_t", pl.Datetime("us", "UTC")),
              "_batch": pl.UInt32}
    if "committed_at" not in work.columns or work.height < 2:
        return pl.DataFrame(schema=schema)
    stream = work.filter(pl.col("pr_number").is_null()).sort("repo", "committed_at", "_t", "_n").select(
        "repo", "person_id", "_n", "sha", "_t", "committed_at")
    step = (pl.col("committed_at") - pl.col("committed_at").shift(1)).dt.total_seconds()
    new_run = ~((pl.col("repo") == pl.col("repo").shift(1)) & step.is_between(0, BATCH_SECONDS)).fill_null(False)
    stream = stream.with_columns(pl.struct(new_run.cum_sum(), "person_id").rank("dense").cast(pl.UInt32).alias("_batch"))
    batches = stream.group_by("_batch").agg(
        pl.len().alias("_size"), (pl.col("committed_at") > pl.col("_t")).any().alias("_later"))
    return stream.join(batches.filter((pl.col("_size") >= 2) & (pl.col("_size") <= BATCH_MAX_COMMITS)
                                      & pl.col("_later")), on="_batch", how="semi").select(list(schema)).cast(schema)


def sandwiched_edges(work: pl.DataFrame, members: pl.DataFrame, roots: pl.Series) -> pl.DataFrame:
    """In a batch, a commit alone in its item between two commits of one item (by when they were
    written) joins that item: the author wrote it in the middle of that change (bat: `Run
    --diagnostic on CI` between the commits of `Add --diagnostic option`, all pushed at once).
    Not a release step, nor a commit that names another issue than the item's. `roots`: each
    work commit's item (by `_n`) after the other relations."""
    if members.height < 3:
        return _no_pairs()
    root = pl.DataFrame({"_n": pl.Series(range(len(roots)), dtype=pl.UInt32), "_root": roots})
    alone = root.group_by("_root").len().filter(pl.col("len") == 1).select("_root")
    steps = work.filter(pl.col("_release_step")).select("_n") if "_release_step" in work.columns else work.clear().select("_n")
    seq = (members.join(root, on="_n").sort("_batch", "_t", "_n")
           .with_columns(pl.col("_root").shift(1).over("_batch").alias("_prev_root"),
                         pl.col("_root").shift(-1).over("_batch").alias("_next_root"),
                         pl.col("_n").shift(1).over("_batch").alias("_prev")))
    pairs = (seq.filter((pl.col("_prev_root") == pl.col("_next_root")) & (pl.col("_root") != pl.col("_prev_root")))
             .join(alone, on="_root", how="semi").join(steps, on="_n", how="anti")
             .select(pl.col("_prev").alias("_a"), pl.col("_n").alias("_b")).cast(_PAIRS))
    return _apart_by_issue(work, pairs)


def batch_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None,
                shared_files: tuple[pl.DataFrame, pl.DataFrame] | None = None,
                subject_words: tuple[pl.DataFrame, pl.DataFrame] | None = None,
                members: pl.DataFrame | None = None) -> pl.DataFrame:
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
    members = (batch_members(work) if members is None else members).select("repo", "_n", "sha", "_batch")
    if members.height == 0:
        return _no_pairs()
    pairs = (members.rename({"_n": "_a", "sha": "sha_a"}).join(members.rename({"_n": "_b", "sha": "sha_b"}),
                                                               on=["repo", "_batch"])
             .filter(pl.col("_a") < pl.col("_b")).select("repo", "_a", "_b", "sha_a", "sha_b"))
    from exceeds_pipeline.classify.categories import DOCS_PATH, TEST_PATH

    fc, hubs = shared_files or _shared_files(work, file_changes)
    fc = fc.join(members.select("repo", "sha"), on=["repo", "sha"], how="semi")
    sweeps, shallow = _sweeps(fc, file_changes)
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
    by_word = _sharing_word(
        pairs.join(hub_fc.rename({"sha": "sha_a"}).select("repo", "sha_a", "path"), on=["repo", "sha_a"])
        .join(hub_fc.rename({"sha": "sha_b"}).select("repo", "sha_b", "path"), on=["repo", "sha_b", "path"], how="semi"),
        rare)
    related = pl.concat([shared.select("_a", "_b"), by_test, by_word]).unique().cast(_PAIRS)
    return _apart_by_credit(work, _apart_by_issue(work, _apart_by_release(work, _nearest_only(related, shallow, work))), rare)


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


# A commit that writes only the changelog, made on top of its author's code change (its first
# parent) at most this much later, is that change's entry: nothing else landed in between.
CHANGELOG_GAP = timedelta(hours=1)
# ... when it adds at most this many lines: one or two entries (rsync's NEWS entries are two to
# three lines each; its "Mention latest fixes." added six entries in 16 lines, one of them the
# fix below it)
CHANGELOG_ENTRY_LINES = 6


def _record_files(work: pl.DataFrame, file_changes: pl.DataFrame) -> pl.DataFrame:
    """(repo, sha, _only, _added, _built) of the work commits: whether all their files are
    changelogs, the lines they add, and whether all their files are built (`generated`)."""
    return (file_changes.join(work.select("repo", "sha"), on=["repo", "sha"], how="semi")
            .group_by("repo", "sha")
            .agg(pl.col("path").fill_null("").str.contains(CHANGELOG_PATH).all().alias("_only"),
                 pl.col("lines_added").fill_null(0).sum().alias("_added"),
                 excluded_as(file_changes, "generated").all().alias("_built")))


def changelog_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None, releases: pl.DataFrame) -> pl.DataFrame:
    """A commit outside pull requests that changes only changelogs, adding at most
    CHANGELOG_ENTRY_LINES, or only files built from others (all `generated`: a rebuilt bundle),
    joins the change it was committed on top of, by the same author, at most CHANGELOG_GAP
    later: bat's "Add ChangeLog entry" nine minutes after "Add gnuplot syntax", rsync's NEWS
    line after its fix, phoenix's "Bump build" (priv/static) 45 s after its author's squashed
    pull request #5688 and "Bump changelog" on top of that. The change may be its author's own
    squashed pull request, or such a rebuild. Not when the commit is a step of a release
    (`releases`: `release_edges`' pairs: a release would take in the change), nor when the two
    name different issues. An entry for someone else's change comes after their commit or
    merge, not right on top of the author's own."""
    if file_changes is None or file_changes.height == 0 or not {"parents", "committed_at"} <= set(work.columns):
        return _no_pairs()
    per_commit = _record_files(work, file_changes)
    records = per_commit.filter((pl.col("_only") & (pl.col("_added") <= CHANGELOG_ENTRY_LINES)) | pl.col("_built"))
    in_release = pl.concat([releases["_a"], releases["_b"]]).unique()
    entries = (
        work.join(records.select("repo", "sha"), on=["repo", "sha"], how="semi")
        .filter(pl.col("pr_number").is_null() & ~pl.col("_release") & ~pl.col("_n").is_in(in_release.implode()))
        .select("repo", "person_id", pl.col("_n").alias("_b"), pl.col("committed_at").alias("_cb"),
                pl.col("parents").list.first().alias("_parent"))
    )
    if entries.height == 0:
        return _no_pairs()
    code = ~pl.col("_release_step") & ((pl.col("_code_lines") > 0) | pl.col("_built").fill_null(False))
    changes = (
        work.join(per_commit.select("repo", "sha", "_built"), on=["repo", "sha"], how="left")
        # (or a dependency bumped in the manifests alone, whose line says nothing else or names
        # it: babashka's `Bump transit`, then `changelog` of `Bump transit-clj to 1.1.357` 32 s
        # later; not ripgrep's `changelog: add bug fix for \b` on top of `deps: update various crates`)
        .filter(code | dependency_update(pl.col("subject").fill_null("")))
        .select("repo", "person_id", pl.col("sha").alias("_parent"), pl.col("_n").alias("_a"), pl.col("committed_at").alias("_ca"),
                code.alias("_changes_code"))
    )
    pairs = (entries.join(changes, on=["repo", "person_id", "_parent"])
             .filter((pl.col("_cb") - pl.col("_ca")) <= CHANGELOG_GAP))
    if pairs.filter(~pl.col("_changes_code")).height:
        shared = _sharing_word(pairs, _subject_words(work))
        bare = work.filter(pl.col("subject").fill_null("").str.contains(BARE_CHANGELOG_SUBJECT)).select(pl.col("_n").alias("_b"))
        named = pl.concat([shared, pairs.join(bare, on="_b", how="semi").select("_a", "_b")])
        pairs = pl.concat([pairs.filter("_changes_code").select("_a", "_b"),
                           pairs.filter(~pl.col("_changes_code")).select("_a", "_b").join(named, on=["_a", "_b"], how="semi")])
    return _apart_by_issue(work, pairs.select("_a", "_b").cast(_PAIRS))



# A changelog line for a merged pull request, committed this soon after it (jekyll's `Update
# history to reflect merge of #5925 [ci skip]`).
PR_CHANGELOG_GAP = timedelta(days=30)


def pr_changelog_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None) -> pl.DataFrame:
    """A commit outside pull requests that changes only changelogs and names one merged pull
    request (`#N`) of its own author joins that pull request, when committed after it and at
    most PR_CHANGELOG_GAP later: the change's record, not a change of its own (jekyll's `Update
    history to reflect merge of #5919` after Parker Moore's #5919). A line for someone else's
    pull request stays its writer's (as a revert by someone else does): read as part of that
    pull request, 605 of Parker Moore's commits had left his profile, and his one-line records
    had made others' one-commit pull requests his.

    Under a subject that names no pull request (`Add changelog entry`), the entries it adds name
    them (`_entry_refs`, `classify.edit_summary.changelog_refs`), when each entry cites one: one
    pull request of its own author merged before it (or an issue their commit names), and no
    one else's, joins it (insta's `Vendored old yaml-rust dependency ... #465`, a minute after
    #465, had been a step of the next release); only other people's pull requests make it the
    record of their work, related to no change of its writer's (insta's entry for Andrew
    Gallant's #469 had joined Armin Ronacher's commit before it, and through it the release
    after it, into one item): such a row has a null `_a`."""
    if file_changes is None or file_changes.height == 0 or not {"committed_at", "pr_number"} <= set(work.columns):
        return _no_pairs()
    only_changelog = _record_files(work, file_changes).filter("_only").select("repo", "sha")
    named = pl.col("subject").fill_null("").str.extract_all(r"#(\d+)\b")
    by_subject = named.list.len() == 1
    cited = (pl.when(by_subject).then(named.list.eval(pl.element().str.strip_chars("#").cast(pl.Int64, strict=False)))
             .otherwise(pl.col("_entry_refs") if "_entry_refs" in work.columns else pl.lit(None, pl.List(pl.Int64))))
    # (an entry citing nothing, 0, records work of no pull request, and a version's section
    # opened, -1, is a release's notes: the rule says nothing then; nor does a commit that
    # makes a release, sidekiq's tagged `Bump, prep` of Changes.md)
    release = pl.col("_release").fill_null(False) if "_release" in work.columns else pl.lit(False)
    entries = (work.join(only_changelog, on=["repo", "sha"], how="semi")
               .filter(pl.col("pr_number").is_null() & (named.list.len() <= 1) & ~release
                       & (by_subject | ~(cited.list.contains(0) | cited.list.contains(-1)).fill_null(False)))
               .select("repo", "person_id", pl.col("_n").alias("_b"), "committed_at", by_subject.alias("_by_subject"),
                       cited.alias("_pr"))
               .explode("_pr", empty_as_null=True).drop_nulls("_pr"))
    prs = (work.filter(pl.col("pr_number").is_not_null())
           .group_by("repo", "pr_number", "person_id").agg(pl.col("_n").min().alias("_a"), pl.col("_t").max().alias("_last"))
           .rename({"pr_number": "_pr", "person_id": "_pr_person"}).with_columns(pl.col("_pr").cast(pl.Int64)))
    # (an issue the author's own commit names, `fixes #5406`, is theirs too: sidekiq's entry
    # for it beside two for other people's pull requests records no one else's work alone)
    issues = (work.filter((pl.col("_refs").list.len() > 0) & ~pl.col("_n").is_in(entries["_b"].implode()))
              .select("repo", pl.col("person_id").alias("_pr_person"), pl.col("_n").alias("_a"), pl.col("_t").alias("_last"),
                      pl.col("_refs").alias("_pr")).explode("_pr", empty_as_null=True).with_columns(pl.col("_pr").cast(pl.Int64, strict=False))
              .join(entries.select("repo", pl.col("person_id").alias("_pr_person"), "_pr").unique(), on=["repo", "_pr_person", "_pr"], how="semi")) \
        if "_refs" in work.columns and entries.height else prs.clear()
    merged = (entries.join(pl.concat([prs, issues.select(prs.columns).cast(prs.schema)]), on=["repo", "_pr"], how="inner")
              .filter((pl.col("committed_at") >= pl.col("_last")) & ((pl.col("committed_at") - pl.col("_last")) <= PR_CHANGELOG_GAP))
              .with_columns((pl.col("_pr_person") == pl.col("person_id")).alias("_own")))
    # (a pull request of several people is the entry's author's when some of its commits are)
    per_pr = merged.group_by("_b", "_pr").agg(pl.col("_a").filter("_own").max(), pl.col("_by_subject").first())
    counted = entries.group_by("_b").agg(pl.col("_pr").n_unique().alias("_cited"))
    per_entry = per_pr.group_by("_b").agg(pl.col("_a").drop_nulls().unique().alias("_mine"),
                                          pl.col("_a").is_null().sum().alias("_others"),
                                          pl.col("_by_subject").first()).join(counted, on="_b")
    own = per_entry.filter((pl.col("_mine").list.len() == 1) & (pl.col("_others") == 0)).select(pl.col("_mine").list.first().alias("_a"), "_b")
    # (every number it cites another's pull request: not an issue, nor one of the author's)
    others = per_entry.filter((pl.col("_mine").list.len() == 0) & ~pl.col("_by_subject") & (pl.col("_others") == pl.col("_cited"))) \
        .select(pl.lit(None, pl.UInt32).alias("_a"), "_b")
    return pl.concat([own.cast(_PAIRS), others.cast(_PAIRS)])


# A subject that refreshes the dependencies without naming one (`update dev dependencies`,
# `Update requirements`, `bump all deps`).
DEPENDENCY_REFRESH = (r"(?i)^\W*(?:update[sd]?|bump(?:ed|s)?|upgrade[sd]?|refresh(?:ed|es)?|pin(?:ned|s)?)\s+"
                      r"(?:(?:all|the|our|dev|development|test|testing|build|ci|docs|python|js|npm|pip|cargo|go)\s+)*"
                      r"(?:dependencies|deps|requirements|pins|lock\s*files?)\b")


# A quick follow-up of a change: at most FOLLOW_UP_GAP later, and worded as one (a small size
# alone is no evidence: tmux's small commits of one hour are as often separate changes).
FOLLOW_UP_GAP = timedelta(minutes=30)
# A direct commit this soon after its author's pull request may be related to it like any two
# consecutive commits (`related_edges`); later, it is a change of its own.
PR_FOLLOW_UP_GAP = timedelta(minutes=30)
# A commit landed this long before or after a batch of its author's commits is not of it.
BATCH_APART = timedelta(hours=6)
PUSHED_TOGETHER = timedelta(minutes=1)
FOLLOW_UP = r"(?i)\b(?:oops|typos?|undo|leftovers?|forgot|forgotten|missed|fixup|fix-up|thinko|brown paper bag)\b"


# A CI workflow can only be tried once it has landed: its author's next pull requests on the same
# files, this close, are tries of one change (axios: `Add action to update sponsor list` then four
# `fix sponsors action` within three hours; FastAPI: `Test PR regressions against base code`,
# then `Preserve pytest exit code in regression check` 15 minutes later and `Accept any base
# test failure as regression` 16 minutes after that).
CI_TRY_GAP = timedelta(hours=3)
# A subject that says it has another go at what was just tried.
CI_RETRY = r"(?i)\b(?:try|tries|retry|attempt|again|another|tweak|tweaks|adjust|adjusts|rework|reworks|reworked)\b|^\s*(?:make|get)\s+\S+(?:\s+\S+)?\s+(?:work|pass|green)\b"


def ci_try_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None,
                 shared_files: tuple[pl.DataFrame, pl.DataFrame] | None = None,
                 subject_words: tuple[pl.DataFrame, pl.DataFrame] | None = None) -> pl.DataFrame:
    """An author's commit at most CI_TRY_GAP after their previous one, one of them in a pull
    request (the other's or none: consecutive commits outside pull requests are
    `related_edges`'), that changes a file written by hand the previous one changed and no
    other files but build files, when it changes a CI service's configuration
    (CI_CONFIG_PATH), or the previous one did and it is build, chore or test work itself
    (`bin/sponsors.js` of the sponsors workflow); not a release step (phoenix's `Bump to
    v1.6.0-dev` four minutes after `Remove Cowboy v1 support (#3780)`). A relation the
    history states: each pull request's own number is no issue that keeps the tries apart. A
    pull request's commit is a try of what came before it (another pull request, or its
    author's commit outside one) only when it says so (worded as a repair or another go: `fix
    sponsors action`, CI_RETRY) or names what the earlier one did with a word the repository
    rarely uses; otherwise each is its own change (urfave/cli's `Switch branch references from
    master to main` and `Update dependencies and go.mod spec`, Newtonsoft.Json's nullable
    annotations and `Move dependency version numbers to shared file`, both touching a project
    file beside the CI's; click's `remove slsa provenance` in #2973, two minutes after `update
    dev dependencies` on main)."""
    if file_changes is None or file_changes.height == 0 or work.height < 2:
        return _no_pairs()
    from exceeds_pipeline.classify.categories import BUILD_PATH, CI_CONFIG_PATH

    hand, _ = shared_files or _shared_files(work, file_changes)
    fc = hand.join(work.select("repo", "sha", "_n"), on=["repo", "sha"]).select("_n", "path").unique()
    ci = fc.filter(pl.col("path").str.contains(CI_CONFIG_PATH)).select("_n").unique()
    step = pl.col("_release_step").fill_null(False) if "_release_step" in work.columns else pl.lit(False)
    stream = work.sort("repo", "person_id", "_t", "_n").select(
        "repo", "person_id", "_n", "_t", "pr_number", "category", "subject", step.alias("_step"),
        pl.col("pr_number").shift(1).over("repo", "person_id").alias("_prev_pr"),
        step.shift(1).over("repo", "person_id").alias("_prev_step"))
    cand = _consecutive_pairs(stream, ["repo", "person_id"]).filter(
        (pl.col("_gap") <= CI_TRY_GAP) & ~pl.col("_step") & ~pl.col("_prev_step").fill_null(False)
        & (pl.col("pr_number").is_not_null() | pl.col("_prev_pr").is_not_null())
        & ~(pl.col("pr_number") == pl.col("_prev_pr")).fill_null(False)
        & (pl.col("_b").is_in(ci["_n"].implode())
           | (pl.col("_a").is_in(ci["_n"].implode()) & pl.col("category").is_in(["build", "chore", "test"])))
    )
    into_pr = cand.filter(pl.col("pr_number").is_not_null())
    if into_pr.height:
        _, rare = subject_words or _subject_word_sets(work)
        named = _sharing_word(into_pr, rare)
        unsaid = (into_pr.filter(~pl.col("subject").fill_null("").str.replace(DECLARED_TYPE, "")
                                   .str.contains(f"{QUICK_FIX}|{CI_RETRY}"))
                  .select("_a", "_b").join(named, on=["_a", "_b"], how="anti"))
        cand = cand.join(unsaid, on=["_a", "_b"], how="anti")
    cand = cand.select("_a", "_b")
    if cand.height == 0:
        return _no_pairs()
    # the later one shares a file with the earlier one, and its other files are build files
    files_b = cand.join(fc.rename({"_n": "_b"}), on="_b")
    shared = files_b.join(fc.rename({"_n": "_a"}), on=["_a", "path"], how="semi").select("_a", "_b").unique()
    outside = (files_b.join(fc.rename({"_n": "_a"}), on=["_a", "path"], how="anti")
               .filter(~pl.col("path").str.contains(BUILD_PATH)).select("_a", "_b").unique())
    return shared.join(outside, on=["_a", "_b"], how="anti")


# A subject that says it carries on with what its author did just before: `remove more
# rack::utils usage`, `Fix the remaining warnings`, `... again`.
CONTINUES = r"(?i)\b(?:more|again|also|another|remaining|rest\s+of|further|leftovers?|lingering|additional)\b"
# A subject that states a new capability: its lead verb adds or implements something.
NEW_CAPABILITY = r"(?i)^\W*(?:add(?:s|ed)?|implement(?:s|ed)?|introduce[sd]?|support)\s+\w"


# A quick fix of a change made with one other commit in between: worded as a repair of what
# was just done (`Fixed compilation of new rio.c changes`, `Fix the BITFIELD_RO test`).
QUICK_FIX = r"(?i)^\s*(?:fix(?:e[sd])?|repair(?:s|ed)?|correct(?:s|ed)?)\b|" + FOLLOW_UP
# (an hour: redis's "Fix BITFIELD_RO test" came 33 minutes after the change it fixes)
QUICK_FIX_GAP = timedelta(minutes=60)
# A direct commit written this soon after its author's pull request landed, in its files, finishes it.
FINISHED_PR_GAP = timedelta(minutes=5)
# Two edits of one document this close, one other commit between them, are one piece of work.
BRIDGE_GAP = timedelta(minutes=15)


def follow_up_edges(work: pl.DataFrame, file_changes: pl.DataFrame | None,
                    shared_files: tuple[pl.DataFrame, pl.DataFrame] | None = None) -> pl.DataFrame:
    """A quick fix (QUICK_FIX, at most QUICK_FIX_GAP after) of the author's change before last,
    neither in a pull request, when the two share a file written by hand that the commit
    between them does not touch (redis: "Fixed compilation of new rio.c changes (typos and so
    forth.)" three minutes after "Add checksum computation to rio.c", "dump/restore fixed to
    use the new crc64 API" between them); so is a change of documents alone at most BRIDGE_GAP
    after another one (requests: a README rewrite of 110 web-editor commits in three hours was
    cut at every image uploaded between two edits, 25 items; between changes of code, one
    commit in between says more: express's first weeks, a feature every ten minutes in one
    file, would run together). Consecutive commits are `related_edges`'."""
    if file_changes is None or file_changes.height == 0 or work.height < 3:
        return _no_pairs()
    from exceeds_pipeline.classify.categories import BUILD_PATH, DOCS_PATH, TEST_PATH

    path = pl.col("path").fill_null("")
    page = path.str.contains(DOCS_PATH) & ~path.str.contains(BUILD_PATH) & ~path.str.contains(TEST_PATH)  # not CMakeLists.txt
    pages = (file_changes.join(work.select("repo", "sha"), on=["repo", "sha"], how="semi")
             .group_by("repo", "sha").agg(page.all().alias("_pages")))
    stream = (work.sort("repo", "person_id", "_t", "_n").select("repo", "person_id", "_n", "_t", "pr_number", "sha", "subject")
              .join(pages, on=["repo", "sha"], how="left", maintain_order="left").with_columns(pl.col("_pages").fill_null(False)))
    cand = _consecutive_pairs(stream.with_columns(
        pl.col("_n").shift(1).alias("_m"), pl.col("pr_number").shift(2).alias("_pr_a"),
        (pl.col("_pages") & pl.col("_pages").shift(2)).alias("_both_pages"),
    ), ["repo", "person_id"], apart=2).filter(
        pl.col("pr_number").is_null() & pl.col("_pr_a").is_null()
        & (((pl.col("_gap") <= QUICK_FIX_GAP) & pl.col("subject").fill_null("").str.contains(QUICK_FIX))
           | ((pl.col("_gap") <= BRIDGE_GAP) & pl.col("_both_pages").fill_null(False))))
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
    # A repair of the tests that names nothing (`Fix tests`), up to QUICK_FIX_GAP after the
    # author's code change just before it, repairs what that change broke (composer's `Fix
    # tests`, the new cipher in the expected list, 20 minutes after the cipher change).
    subject = work.select("_n", pl.col("subject").fill_null("").alias("_s"))
    repairs = (stream.with_columns(pl.col("_n").shift(1).alias("_prev"), code_prev.alias("_cp"), gap_prev.alias("_gap_p"))
               .filter(pl.col("_tests_only") & pl.col("pr_number").is_null() & pl.col("_cp")
                       & (pl.col("_gap_p") > TEST_GAP) & (pl.col("_gap_p") <= QUICK_FIX_GAP))
               .join(subject, on="_n").filter(pl.col("_s").str.contains(TEST_REPAIR))
               .join(specific, on="_n", how="anti").join(refs.select("_n").unique(), on="_n", how="anti")
               .select(pl.col("_prev").alias("_a"), pl.col("_n").alias("_b")))
    return _apart_by_issue(work, pl.concat([pairs.select(pl.col("_code").alias("_a"), pl.col("_test").alias("_b")).cast(_PAIRS),
                                            named.cast(_PAIRS), repairs.cast(_PAIRS)]).unique())


# A subject that repairs tests, not saying which: `Fix tests`, `Fix the unit tests.` (not `Update
# test.`, which says nothing was broken).
TEST_REPAIR = r"(?i)^\s*(?:fix(?:e[sd]|ing)?|repair(?:s|ed)?|correct(?:s|ed)?)\s+(?:the\s+|some\s+|broken\s+|failing\s+)?(?:unit\s+)?tests?\b"


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


def _sharing_word(pairs: pl.DataFrame, words: pl.DataFrame) -> pl.DataFrame:
    """``[_a, _b]``: the pairs whose two commits' subjects share a word of ``words`` (``[_n,
    _w]``: `_subject_words`, or the ones the repository rarely uses, `_rare_words`)."""
    return (pairs.select("_a", "_b").join(words.rename({"_n": "_a"}), on="_a")
            .join(words.rename({"_n": "_b"}), on=["_b", "_w"], how="semi").select("_a", "_b").unique())


# A file in this share of a repository's work commits (of at least HUB_MIN_COMMITS) is a hub.
HUB_SHARE = 0.1
HUB_MIN_COMMITS = 200


def _shared_files(work: pl.DataFrame, file_changes: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(the files each commit changes that can relate it to another, `[repo, sha, path]`; the
    hubs among them, `_hub_files`). Files no one writes by hand (generated, vendored, lock
    files: `file_changes` says so) change with every regeneration, and generic files
    (GENERIC_FILES) with every change: sharing one relates nothing. A vendored file is such a
    copy only in a third-party folder (`vendor/`, `third_party/`); elsewhere the mark may be the
    repository's `.gitattributes` keeping its own files off GitHub's language bar (bat's
    `tests/benchmarks/**`: eight commits reworking its benchmark script in one evening had been
    eight items)."""
    machine_made = (excluded_as(file_changes, *(r for r in MACHINE_MADE if r != "vendored"))
                    | (excluded_as(file_changes, "vendored") & pl.col("path").fill_null("").str.contains(VENDORED_PATH)))
    hand = (
        file_changes.filter(~machine_made).select("repo", "sha", "path")
        .filter(~pl.col("path").fill_null("").str.contains(GENERIC_FILES))
        .unique()
    )
    return hand, _hub_files(work, file_changes)


# A commit of this many files or more that changes at most this many lines in each, on average,
# is a shallow sweep (a formatter or an edition migration): it may join the change nearest to it,
# not relay between others (`_nearest_only`).
SHALLOW_SWEEP_FILES = 10
SHALLOW_LINES_PER_FILE = 8


def _sweeps(fc: pl.DataFrame, file_changes: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(``[repo, sha]`` of the commits whose files `fc` (`_shared_files`) sweep over the tree,
    SWEEP_FILES or more; ``[repo, sha]`` of the shallow sweeps among the rest of them, judged by
    all the files they change: ripgrep's `rust: move to Rust 2024` edits 14 files, 10 of them
    Cargo.toml)."""
    wide = fc.group_by("repo", "sha").len().filter(pl.col("len") >= SWEEP_FILES).select("repo", "sha")
    shallow = (
        file_changes.join(fc.select("repo", "sha").unique(), on=["repo", "sha"], how="semi")
        .join(wide, on=["repo", "sha"], how="anti")
        .group_by("repo", "sha").agg(pl.col("path").n_unique().alias("_files"),
                                     (pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0)).sum().alias("_lines"))
        .filter((pl.col("_files") >= SHALLOW_SWEEP_FILES) & (pl.col("_lines") <= SHALLOW_LINES_PER_FILE * pl.col("_files")))
        .select("repo", "sha")
    )
    return wide, shallow


def _nearest_only(related: pl.DataFrame, shallow: pl.DataFrame, work: pl.DataFrame) -> pl.DataFrame:
    """The pairs less those by which a shallow sweep would relay: of each sweep's pairs only the
    one nearest in time stays. ripgrep's `style: apply rustfmt` (40 files, 6 lines each) shared a
    file with each of five fixes pushed with it and had made one item of them."""
    if related.height == 0 or shallow.height == 0:
        return related
    ends_of = work.join(shallow, on=["repo", "sha"], how="semi").select(pl.col("_n").alias("_s"))
    t = work.select("_n", "_t")
    p = (related.join(t.rename({"_n": "_a", "_t": "_ta"}), on="_a").join(t.rename({"_n": "_b", "_t": "_tb"}), on="_b")
         .with_columns((pl.col("_tb") - pl.col("_ta")).abs().alias("_d")))
    ends = pl.concat([p.select("_a", "_b", "_d", pl.col("_a").alias("_s")), p.select("_a", "_b", "_d", pl.col("_b").alias("_s"))]
                     ).join(ends_of, on="_s", how="semi")
    nearest = ends.sort("_s", "_d", "_a", "_b").group_by("_s", maintain_order=True).first()
    relaying = ends.join(nearest.select("_s", "_a", "_b"), on=["_s", "_a", "_b"], how="anti").select("_a", "_b").unique()
    return related.join(relaying, on=["_a", "_b"], how="anti")


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
    longer, or an issue named for months (`part of #1`, a roadmap) would glue them all. Not a
    release commit: it names the issues it ships (httpie's `v1.0.2`, `Close #729`, after `Fix
    tests for installation with pyOpenSSL #729`: a fix, then a release)."""
    release = pl.col("_release").fill_null(False) if "_release" in work.columns else pl.lit(False)
    rows = (
        work.filter(pl.col("pr_number").is_null() & ~release).select("_n", "repo", "person_id", "_t")
        .join(work.select("_n", "_refs"), on="_n").explode("_refs", empty_as_null=False).drop_nulls("_refs")
        .sort("repo", "person_id", "_refs", "_t", "_n")
    )
    pairs = _consecutive_pairs(rows, ["repo", "person_id", "_refs"])
    return pairs.filter(pl.col("_gap") <= RELATED_GAP).select("_a", "_b")


def _apart_by_line(work: pl.DataFrame, related: pl.DataFrame) -> pl.DataFrame:
    """The related pairs less those of a commit of a maintenance line merged by its release tags
    (`_line`) and one of the branch's own: a 4.x example change and the 5.0 branch's router
    update 29 minutes later in the same file are two changes. One change made on both lines
    stays one (`Keep previous Content-Type for res.jsonp` picked onto 3.x and 4.x: the same
    subject, or the same author time)."""
    if "_line" not in work.columns:
        return related
    title = pl.col("_subject_title") if "_subject_title" in work.columns else _title(pl.col("subject"))
    line = work.select("_n", "_line", "_t", title.str.to_lowercase().alias("_s"))
    pairs = (related.join(line.rename({"_n": "_a", "_line": "_la", "_t": "_ta", "_s": "_sa"}), on="_a", how="left")
             .join(line.rename({"_n": "_b", "_line": "_lb", "_t": "_tb", "_s": "_sb"}), on="_b", how="left"))
    ported = (pl.col("_ta") == pl.col("_tb")) | (pl.col("_sa") == pl.col("_sb"))
    return pairs.filter((pl.col("_la") == pl.col("_lb")) | ported.fill_null(False)).select("_a", "_b")


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


# Whose patch a maintainer committed, in the words of the message (tmux's and OpenBSD's "Add T key
# to change pane title, from Fouad Wahabi in GitHub issue 5461.", "Do not log when logging is
# off, from Michael Grant."; "patch by Jane Doe"): a name of two or three capitalised words
# ending the clause.
CREDITED = (r"(?i:\bfrom|\b(?:patch|diff|fix|based\s+on\s+a\s+(?:patch|diff))\s+(?:by|from))\s+"
            r"((?-i:\p{Lu}\p{Ll}[\p{Ll}'-]*(?:\s+(?:\p{Lu}[\p{L}'-]*|de|van|von|der|da|di|le)){1,2}))"
            r"\s*(?:[.,;)]|$|\s+(?:in|on|at|for|via)\s+(?:GitHub|GitLab|bug|issue|PR|pull|the\s+mailing)\b)")


def _apart_by_credit(work: pl.DataFrame, related: pl.DataFrame, rare: pl.DataFrame) -> pl.DataFrame:
    """The related pairs less those whose commits credit different people's patches: tmux's
    "Do not log when logging is off, from Michael Grant." and "Add pane_private_modes format
    ..., from George Nachman." three minutes apart in format.c are two people's changes. So are
    a credited patch and the committer's own commit more than FOLLOW_UP_GAP apart whose subjects
    share no word the repository rarely uses ("Add a refresh-now command ..." and "Add T key to
    change pane title, from Fouad Wahabi ...", 21 hours apart in key-bindings.c); not the
    committer completing the patch ("Add an option (scroll-on-clear) ..., from Robert Lange."
    then "Check scroll-on-clear for ED also." two hours later) or touching it up at once ("More
    man page updates from Tiago Cunha." then "Tweak."). (`rare`: `_n, _w` of
    _subject_word_sets.)"""
    if "message" not in work.columns:
        return related
    # (its first paragraph: the subject wrapped over lines, not a story of who proposed what:
    # redis's "Yoav Steinberg from Redis Labs, that proposed ..." deep in a body; and not who
    # reported an issue: "GitHub issue 5441 from Ayman Bagabas")
    text = (pl.coalesce("message", "subject").fill_null("").str.replace(r"\r?\n[ \t]*\r?\n[\s\S]*$", "")
            .str.replace_all(r"\s+", " ").str.replace_all(r"(?i)\b(?:issue|bug|ticket)\s+#?\d+\s+from\s+", "issue "))
    credit = work.join(_pair_ends(related, work), on="_n", how="semi").select("_n", "_t", text.str.extract(CREDITED, 1).alias("_who"))
    pairs = (related.join(credit.rename({"_n": "_a", "_who": "_wa", "_t": "_ta"}), on="_a", how="left")
             .join(credit.rename({"_n": "_b", "_who": "_wb", "_t": "_tb"}), on="_b", how="left"))
    named = _sharing_word(pairs, rare).with_columns(pl.lit(True).alias("_named"))
    pairs = pairs.join(named, on=["_a", "_b"], how="left")
    both = pl.col("_wa").is_not_null() & pl.col("_wb").is_not_null()
    one = pl.col("_wa").is_not_null() ^ pl.col("_wb").is_not_null()
    apart = ((both & (pl.col("_wa") != pl.col("_wb")))
             | (one & ((pl.col("_tb") - pl.col("_ta")).abs() > FOLLOW_UP_GAP) & pl.col("_named").is_null())).fill_null(False)
    return pairs.filter(~apart).select("_a", "_b")


def _one_declared_change_each(stream: pl.DataFrame, related: pl.DataFrame, rare: pl.DataFrame | None = None) -> pl.DataFrame:
    """The related pairs, less those that would put two declared features or fixes in one item.

    An author who types `feat:` / `fix:` on each commit says each is a change of its own: a
    run of related commits (`feat: add MFA enforcement`, `test: ...`, `feat: add authenticators
    after set up`) splits before every declared feature or fix after the first; the commits in
    between stay with the change before them. The same subject declared again is the same
    change tried again (nlohmann/json's `:ambulance: fix documentation job` twice, 38 hours
    apart, on one failing job)."""
    typed = declared_type(pl.col("subject")).is_in(["feature", "bug"]).fill_null(False)
    stated = pl.lit(False)
    if "category" in stream.columns:
        # ... and so does one who states each new capability in words (`Implement table row
        # selection`, `Implement set row deletion`, `Add support for filter/paging to
        # Retry/Dead tables`: Mike Perham's eleven commits on bin/tui over three days had been
        # one item), unless the subject says it continues or repairs what came before, or names
        # a thing the one before named in a word the repository rarely uses (curl's `added
        # memory debugging include file`, then `added memory debugging support`)
        subject = pl.col("subject").fill_null("")
        stated = ((pl.col("category") == "feature") & subject.str.contains(NEW_CAPABILITY)
                  & ~subject.str.contains(f"{CONTINUES}|{QUICK_FIX}"))
    declared = typed | stated
    said = pl.col("subject").fill_null("").str.to_lowercase().str.strip_chars(" .")
    # (the verbs that state a capability are no thing named)
    words = (rare.filter(~pl.col("_w").str.contains(r"^(?:add|implement|introduce|support)(?:s|e?d)?$"))
             .group_by("_n").agg(pl.col("_w").alias("_words")) if rare is not None and rare.height
             else pl.DataFrame(schema={"_n": pl.UInt32, "_words": pl.List(pl.String)}))
    # Related pairs join consecutive commits (`_a` just before `_b` in the stream): a commit
    # with no pair to its predecessor starts a run.
    runs = (
        stream.select("_n", declared.alias("_declared"), typed.alias("_typed"), (stated & ~typed).alias("_stated"), said.alias("_said"))
        .with_row_index("_order")
        .join(related.select("_a", pl.col("_b").alias("_n")), on="_n", how="left")
        .join(words.cast({"_n": stream.schema["_n"]}), on="_n", how="left")
        .sort("_order")
        .with_columns(pl.col("_a").is_not_null().alias("_rel"))
        .with_columns((~pl.col("_rel")).cum_sum().alias("_run"))
        .with_columns(
            (pl.col("_declared").cast(pl.UInt32).cum_sum().over("_run") - pl.col("_declared").cast(pl.UInt32)).alias("_before"),
            (pl.col("_typed").cast(pl.UInt32).cum_sum().over("_run") - pl.col("_typed").cast(pl.UInt32)).alias("_typed_before"),
            pl.when(pl.col("_declared")).then(pl.col("_said")).forward_fill().shift(1).over("_run").alias("_said_before"),
            pl.when(pl.col("_typed")).then(pl.col("_said")).forward_fill().shift(1).over("_run").alias("_said_typed_before"),
            pl.when(pl.col("_declared")).then(pl.col("_words")).forward_fill().shift(1).over("_run").alias("_words_before"),
        )
    )
    # (a typed change splits from the typed one before it; a stated one from any declared before it)
    cut_typed = pl.col("_typed") & (pl.col("_typed_before") > 0) & ~(pl.col("_said") == pl.col("_said_typed_before")).fill_null(False)
    cut_stated = (pl.col("_stated") & (pl.col("_before") > 0)
                  & ~((pl.col("_said") == pl.col("_said_before"))
                      | (pl.col("_words").list.set_intersection(pl.col("_words_before")).list.len() > 0)).fill_null(False))
    keep = runs.filter(pl.col("_rel") & ~cut_typed & ~cut_stated)
    return keep.select(pl.col("_a").cast(pl.UInt32), pl.col("_n").cast(pl.UInt32).alias("_b"))
