"""Work items on real repositories: PRs, merges, reverts + relands, series, related commits."""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import polars as pl
import pytest

from exceeds_pipeline.classify.categories import categorize_commits
from exceeds_pipeline.classify.links import commit_links
from exceeds_pipeline.classify.work_items import (
    WORK_ITEMS_SCHEMA,
    assign_work_items,
    makes_release,
    merge_pr_membership,
)
from exceeds_pipeline.classify.work_items.shared import _title
from exceeds_pipeline.ingest.incremental import read_tags
from exceeds_pipeline.ingest.repository import LocalRepository
from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline_tests.classify.gitframes import by_subject, read_repo

ADA = ("Ada Lovelace", "ada@example.com")
BOB = ("Bob Builder", "bob@example.org")
CAT = ("Cat Coder", "cat@example.net")
BOT = ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com")

PRINTABLE_ID = re.compile(r"^[\x21-\x7e]+$")


def _at(day: int, hour: int) -> str:
    return f"2025-03-{day:02d}T{hour:02d}:00:00+0000"


def _run(repo: GitScript, name: str = "acme/app", tags: bool = False):
    """(commits, work items) of `repo`; with `tags`, its tags read as the ingest reads them."""
    commits, files = read_repo(repo, name)
    links = commit_links(commits)
    commits = categorize_commits(commits, files, links)  # as the pipeline does
    tag_frame = None
    if tags:
        git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
        tag_frame = read_tags(LocalRepository(name, git_dir, commits["sha"][0], "HEAD", False)).with_columns(pl.lit(name).alias("repo"))
    out, items = assign_work_items(commits, links, files, tags=tag_frame)
    assert out.height == commits.height
    assert out["sha"].to_list() == commits["sha"].to_list()
    assert out.columns == [*commits.columns, "work_item_id", "pr_number"]
    assert items.schema == pl.Schema(WORK_ITEMS_SCHEMA)
    assert items["work_item_id"].is_unique().all()
    assert all(PRINTABLE_ID.match(i) for i in items["work_item_id"])
    # Every work commit (an empty commit changes nothing) is in exactly one item, and the
    # item counts add up.
    # An empty commit that marks a release (`1.4.3 release`) is its release's last step.
    work = out.filter(~pl.col("is_merge") & ~pl.col("is_bot") & ((pl.col("files_changed") > 0) | makes_release()))
    assert work["work_item_id"].null_count() == 0
    empty = out.filter(~pl.col("is_merge") & (pl.col("files_changed") == 0) & ~makes_release())
    assert empty["work_item_id"].null_count() == empty.height
    assert items["commits"].sum() == work.height
    assert items["lines_added"].sum() == work["lines_added"].sum()
    return out, items


def _item(items: pl.DataFrame, work_item_id: str) -> dict:
    rows = items.filter(pl.col("work_item_id") == work_item_id).to_dicts()
    assert len(rows) == 1, work_item_id
    return rows[0]


def test_github_merge_pr_commits_are_one_item(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"app.py": "x = 1\n"})
    repo.branch("feature/export", checkout=True)
    repo.commit("Add CSV exporter", author=BOB, date=_at(2, 9), files={"export.py": "def csv(): ...\n"})
    repo.checkout("main")
    repo.commit("Fix crash on empty config", author=ADA, date=_at(2, 10), files={"app.py": "x = 2\n"})
    repo.checkout("feature/export")
    # The PR branch catches up with main: main's commit must NOT become part of the PR.
    repo.merge("main", "Merge branch 'main' into feature/export", author=BOB, date=_at(2, 11))
    repo.commit("Handle quoting in CSV exporter", author=BOB, date=_at(2, 12),
                files={"export.py": "def csv(): quote()\n"})
    repo.checkout("main")
    repo.merge("feature/export", "Merge pull request #42 from bob/feature/export\n\nExport reports as CSV",
               author=ADA, date=_at(3, 9))
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    prs = by_subject(out, "pr_number")
    assert wid["Add CSV exporter"] == wid["Handle quoting in CSV exporter"] == "acme/app#pr-42"
    assert wid["Merge pull request #42 from bob/feature/export"] == "acme/app#pr-42"  # merge: its PR
    assert wid["Merge branch 'main' into feature/export"] == "acme/app#pr-42"  # inside the PR
    assert prs["Add CSV exporter"] == 42
    assert wid["Fix crash on empty config"] != "acme/app#pr-42"  # came from the mainline
    assert prs["Fix crash on empty config"] is None
    item = _item(items, "acme/app#pr-42")
    assert item["commits"] == 2 and item["person_id"] == "bob" and item["pr_number"] == 42
    assert item["title"] == "Export reports as CSV"  # the PR title from the merge body
    assert item["category"] == "feature"
    assert item["first_at"] == datetime(2025, 3, 2, 9, tzinfo=timezone.utc)
    assert item["last_at"] == datetime(2025, 3, 2, 12, tzinfo=timezone.utc)


def test_pr_numbers_from_squash_suffix_and_pull_request_resolved(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Add rate limiter (#101)", author=ADA, date=_at(1, 9), files={"rl.py": "1\n"})
    repo.commit("[dynamo] Support tracing of dataclasses\n\nPull Request resolved: "
                "https://github.com/pytorch/pytorch/pull/1234\nApproved by: https://github.com/x\n",
                author=BOB, date=_at(1, 10), files={"dyn.py": "1\n"})
    repo.commit("Fix tracing of frozen dataclasses\n\nPull Request resolved: "
                "https://github.com/pytorch/pytorch/pull/1234\n",
                author=BOB, date=_at(1, 11), files={"dyn2.py": "1\n"})
    repo.commit("Speed up the rate limiter\n\nDifferential Revision: D12345678\n",
                author=ADA, date=_at(5, 9), files={"rl2.py": "1\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    prs = by_subject(out, "pr_number")
    assert wid["Add rate limiter (#101)"] == "acme/app#pr-101"
    assert prs["[dynamo] Support tracing of dataclasses"] == 1234
    assert wid["[dynamo] Support tracing of dataclasses"] == wid["Fix tracing of frozen dataclasses"]
    assert prs["Speed up the rate limiter"] is None  # a Phabricator diff is not a PR
    assert wid["Speed up the rate limiter"].startswith("acme/app@")
    assert _item(items, "acme/app#pr-101")["title"] == "Add rate limiter"
    # A feature item stays a feature when a fix follows inside it.
    assert _item(items, "acme/app#pr-1234")["category"] == "feature"
    assert _item(items, "acme/app#pr-1234")["title"] == "Support tracing of dataclasses"


def test_two_peoples_squash_subjects_with_one_number_are_two_items(tmp_path):
    """git/git: `combine-diff: diff-files fix (#2)` (2006) and `l10n: pt_PT: cleaning duplicate
    translations (#2)` (2021) had been one item of three people. A squash makes one commit per
    pull request: the same `(#N)` on two people's own subjects is two changes. A pull request a
    merge brought in keeps every author's commits together."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("combine-diff: diff-files fix (#2)", author=ADA, date="2006-02-14T09:00:00+0000",
                files={"combine-diff.c": "a\n"})
    repo.commit("Log message printout cleanups (#2)", author=BOB, date="2006-04-17T23:00:00+0000",
                files={"log-tree.c": "b\n"})
    repo.commit("l10n: pt_PT: cleaning duplicate translations (#2)", author=CAT,
                date="2021-08-11T18:00:00+0000", files={"po/pt_PT.po": "c\n"})
    repo.branch("topic", checkout=True)
    repo.commit("Add CSV exporter", author=BOB, date=_at(2, 9), files={"export.py": "def csv(): ...\n"})
    repo.commit("Handle quoting in CSV exporter", author=CAT, date=_at(2, 12), files={"export.py": "q\n"})
    repo.checkout("main")
    repo.merge("topic", "Merge pull request #42 from bob/topic\n\nExport reports as CSV", author=ADA, date=_at(3, 9))
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    prs = by_subject(out, "pr_number")
    squashes = ["combine-diff: diff-files fix (#2)", "Log message printout cleanups (#2)",
                "l10n: pt_PT: cleaning duplicate translations (#2)"]
    assert len({wid[s] for s in squashes}) == 3
    assert wid[squashes[0]] == "acme/app#pr-2"  # the earliest keeps the pull request's id
    assert all(prs[s] == 2 for s in squashes)
    assert wid["Add CSV exporter"] == wid["Handle quoting in CSV exporter"] == "acme/app#pr-42"
    assert wid["Merge pull request #42 from bob/topic"] == "acme/app#pr-42"
    assert _item(items, "acme/app#pr-2")["person_id"] == "ada"


def test_a_pull_request_merging_an_integration_branch_into_another_brings_no_change_of_its_own(tmp_path):
    """click: "Merge `stable` into `main`; Release 8.2.0 (#2873)" brought in 9 commits of Kevin
    Deldycke's and 4 of David Lord's (by an inner merge), which had been one feature of David's.
    A merge titled as merging an integration branch into another syncs branches: the commits it
    brings keep their own items. A topic branch merged into another (`Merge branch
    origin/missing into origin/errors`) stays part of the pull request that brings it."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"parser.py": "p\n", "CHANGES.md": "# 1.0\n"})
    repo.branch("stable", checkout=True)
    repo.commit("Fix the parser crash on empty input", author=BOB, date=_at(2, 9), files={"parser.py": "p\nif not s: return\n"})
    repo.commit("Add the parser fix to the changelog", author=BOB, date=_at(2, 10),
                files={"CHANGES.md": "# 1.0.1\n- parser fix\n# 1.0\n"})
    repo.branch("sync", checkout=True)
    repo.commit("Update the CI cache action", author=CAT, date=_at(5, 9), files={".github/workflows/ci.yml": "cache: v4\n"})
    repo.checkout("main")
    repo.commit("Add the exporter", author=ADA, date=_at(4, 9), files={"export.py": "def export(): ...\n"})
    repo.merge("sync", "Merge `stable` into `main` (#50)\n\nReconcile the branches.", author=CAT, date=_at(6, 9))
    # a topic branch merged into the pull request's branch before it landed
    repo.branch("errors", checkout=True)
    repo.commit("Rework the error type", author=BOB, date=_at(7, 9), files={"errors.py": "class E: ...\n"})
    repo.branch("missing", checkout=True)
    repo.commit("Report missing fields by name", author=BOB, date=_at(7, 10), files={"fields.py": "def missing(): ...\n"})
    repo.checkout("errors")
    repo.merge("missing", "Merge branch origin/missing into origin/errors", author=BOB, date=_at(7, 11))
    repo.checkout("main")
    repo.merge("errors", "Merge pull request #51 from bob/errors\n\nErrors redesign", author=ADA, date=_at(8, 9))
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    prs = by_subject(out, "pr_number")
    for subject in ("Fix the parser crash on empty input", "Add the parser fix to the changelog", "Update the CI cache action"):
        assert prs[subject] is None, subject
    assert _item(items, wid["Fix the parser crash on empty input"])["person_id"] == "bob"
    assert _item(items, wid["Update the CI cache action"])["person_id"] == "cat"
    assert "acme/app#pr-50" not in set(items["work_item_id"])
    assert wid["Rework the error type"] == wid["Report missing fields by name"] == "acme/app#pr-51"


def test_a_change_of_a_maintenance_line_merged_by_its_tag_is_apart_from_the_branchs_own(tmp_path):
    """express: the 5.0 branch merges each 4.x release (`Merge tag '4.17.2'`). A 4.x example
    change and the 5.0 branch's `deps: router@2.0.0-beta.1` 29 minutes later, both in the
    example's file, had been one item. One change made on both lines (the same subject, the
    same author time: a cherry-pick) stays one item."""
    lines = [f"line {i}\n" for i in range(10)]
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"examples/downloads/index.js": "".join(lines), "package.json": '{"version": "4.17.1"}\n',
                       "lib/response.js": "jsonp\n", "lib/router.js": "router 1\n"})
    repo.branch("4.x", checkout=True)
    example = repo.commit("examples: demonstrate sub directory download", author=BOB, date="2025-03-02T09:00:00+0000",
                          files={"examples/downloads/index.js": "".join(["sub directory\n", *lines[1:]]),
                                 "test/acceptance/downloads.js": "it('sub dir')\n"})
    picked = repo.commit("Keep previous Content-Type for res.jsonp", author=BOB, date="2025-03-02T11:00:00+0000",
                         files={"lib/response.js": "jsonp\nkeep type\n"})
    repo.commit("4.17.2", author=BOB, date="2025-03-02T12:00:00+0000", files={"package.json": '{"version": "4.17.2"}\n'})
    repo.tag("4.17.2")
    repo.checkout("main")
    router = repo.commit("deps: router@2.0.0-beta.1", author=BOB, date="2025-03-02T09:29:00+0000",
                         files={"examples/downloads/index.js": "".join([*lines[:9], "router 2\n"]), "lib/router.js": "router 2\n"})
    port = repo.commit("Keep previous Content-Type for res.jsonp", author=BOB, date="2025-03-02T11:00:00+0000",
                       files={"lib/response.js": "jsonp\nkeep type\n"})
    repo.merge("4.17.2", "Merge tag '4.17.2'", author=BOB, date=_at(3, 9))
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[example] != wid[router]
    assert wid[picked] == wid[port]


def test_a_commit_written_just_after_its_authors_squashed_pull_request_landed_finishes_it(tmp_path):
    """fzf: #4853 `Set --border-label as the title of the tmux floating pane`, squashed by
    GitHub, then 21 minutes later `Clear border text of the floating pane when no label is
    given` in the same file: one change. So are fixes rebased onto a pull request and pushed
    with it the same second (#4825 `Add 'wait' action` and three fixes written minutes after
    it). Such a commit says so: a rare word shared or a repair's wording. A commit written
    while the pull request waited, two hours after it landed, or saying nothing of it is
    another change."""
    gh = ("GitHub", "noreply@github.com")
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"src/tmux.go": "a\n", "src/other.go": "o\n"})
    pr = repo.commit("Set --border-label as the title of the tmux floating pane (#4853)", author=ADA,
                     date="2025-03-05T10:00:00+0000", committer=gh, committer_date="2025-03-05T10:30:00+0000",
                     files={"src/tmux.go": "a\nlabel\n"})
    follow = repo.commit("Clear border text of the floating pane when no label is given", author=ADA,
                         date="2025-03-05T10:51:00+0000", files={"src/tmux.go": "a\nlabel\nclear\n"})
    wait = repo.commit("Add 'wait' action to block until search completion (#4825)", author=ADA,
                       date="2025-03-06T11:05:00+0000", committer_date="2025-03-06T11:22:02+0000",
                       files={"src/other.go": "o\nwait\n"})
    rebased = repo.commit("Pass bracketed paste actions through wait block", author=ADA,
                          date="2025-03-06T11:08:00+0000", committer_date="2025-03-06T11:22:02+0000",
                          files={"src/other.go": "o\nwait\npaste\n"})
    # written while #4870 waited (landed at 15:00), then one written two hours after it landed
    pending = repo.commit("Implement respond command (#4870)", author=ADA, date="2025-03-07T10:00:00+0000",
                          committer=gh, committer_date="2025-03-07T15:00:00+0000", files={"src/tmux.go": "r\n"})
    meanwhile = repo.commit("Fix the respond command's exit status", author=ADA, date="2025-03-07T15:10:00+0000",
                            files={"src/tmux.go": "r\ntidy\n"})
    landed = repo.commit("Add preview border (#4950)", author=ADA, date="2025-03-08T10:00:00+0000",
                         committer=gh, files={"src/tmux.go": "b\n"})
    late = repo.commit("Clear the preview border on resize", author=ADA, date="2025-03-08T12:30:00+0000",
                       files={"src/tmux.go": "b\nresize\n"})
    pending2 = repo.commit("Add popup option (#4900)", author=ADA, date="2025-03-09T10:00:00+0000",
                           committer=gh, committer_date="2025-03-09T12:00:00+0000", files={"src/other.go": "p\n"})
    before = repo.commit("Handle popup sizes", author=ADA, date="2025-03-09T10:20:00+0000",
                         files={"src/other.go": "p\nsize\n"})
    # a change of its own in the same file, minutes after: zod's `perf(v4): mark top-level
    # factory calls as /*@__PURE__*/` after #5889 `feat(core): share globalConfig ...`
    shared = repo.commit("Share globalConfig across module systems (#5889)", author=ADA, date="2025-03-10T17:39:00+0000",
                         committer=gh, files={"src/core.go": "cfg\n"})
    pure = repo.commit("Mark top-level factory calls as pure for tree-shaking", author=ADA,
                       date="2025-03-10T18:02:00+0000", files={"src/core.go": "cfg\npure\n"})
    # ... but one written in its files within minutes of it landing finishes it, whatever its
    # words: insta's `Improved messaging and added changelog entry` 72 s after #346
    dups = repo.commit("Add support for allow_duplicates! (#346)", author=ADA, date="2025-03-11T07:07:17+0000",
                       files={"src/macros.go": "dup\n"})
    messaging = repo.commit("Improved messaging and added changelog entry", author=ADA, date="2025-03-11T07:08:29+0000",
                            files={"src/macros.go": "dup\nwrap your assertions\n", "CHANGELOG.md": "- allow_duplicates (#346)\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[pure] != wid[shared]
    assert wid[messaging] == wid[dups] == "acme/app#pr-346"
    assert wid[pr] == wid[follow] == "acme/app#pr-4853"
    assert wid[wait] == wid[rebased] == "acme/app#pr-4825"
    assert wid[meanwhile] == wid[pending]  # ten minutes after it landed, worded as its repair
    assert wid[late] != wid[landed]  # two and a half hours after it landed
    assert wid[before] != wid[pending2]  # written while #4900 waited to be merged


def test_an_issue_number_on_a_topic_branchs_commit_is_not_its_pull_request(tmp_path):
    # svelte 2017: `add crossfade and flip functions (#2140)` on branch gh-2140, merged by
    # #2154 with its follow-up: one change, #2154's, not two items.
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"core.py": "0\n"})
    repo.branch("gh-2140", checkout=True)
    repo.commit("add crossfade and flip functions (#2140)", author=ADA, date=_at(2, 9),
                files={"animate.py": "def crossfade(): ...\ndef flip(): ...\n", "tmp.txt": "x\n"})
    repo.commit("remove tmp file that snuck into the commit", author=ADA, date=_at(2, 10),
                files={"tmp.txt": None, "animate.py": "def crossfade(): ...\ndef flip(): return 1\n"})
    repo.checkout("main")
    repo.merge("gh-2140", "Merge pull request #2154 from acme/gh-2140", author=ADA, date=_at(3, 9))
    # A squash GitHub made onto a topic branch (a stacked pull request) keeps its own number.
    repo.branch("stack", checkout=True)
    repo.commit("Add easing curves (#2160)", author=BOB, date=_at(4, 9), files={"easing.py": "1\n"},
                committer=("GitHub", "noreply@github.com"))
    repo.commit("Document easing curves", author=BOB, date=_at(4, 10), files={"easing.md": "e\n"})
    repo.checkout("main")
    repo.merge("stack", "Merge pull request #2170 from acme/stack", author=ADA, date=_at(5, 9))
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    prs = by_subject(out, "pr_number")
    assert prs["add crossfade and flip functions (#2140)"] == 2154
    assert wid["add crossfade and flip functions (#2140)"] == wid["remove tmp file that snuck into the commit"] \
        == "acme/app#pr-2154"
    assert _item(items, "acme/app#pr-2154")["commits"] == 2
    assert prs["Add easing curves (#2160)"] == 2160
    assert prs["Document easing curves"] == 2170


def test_revert_by_someone_else_is_a_link_and_the_reland_joins_the_item(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"core.py": "0\n"})
    original = repo.commit("Add streaming decoder (#7)", author=ADA, date=_at(1, 9),
                           files={"decode.py": "stream = True\n"})
    repo.commit("Update copyright year", author=CAT, date=_at(2, 9), files={"NOTICE": "2025\n"})
    revert = repo.revert(original, author=BOB, date=_at(3, 9), reason="Breaks the ARM build.")
    reland = repo.commit('Reland "Add streaming decoder (#7)" (#9)', author=ADA, date=_at(10, 9),
                         files={"decode.py": "stream = True  # arm ok\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    one = wid["Add streaming decoder (#7)"]
    assert one == "acme/app#pr-7"
    assert wid['Reland "Add streaming decoder (#7)" (#9)'] == one
    # Bob's revert is his own (revert) item, linked to Ada's, and adds nothing to hers.
    bobs = wid['Revert "Add streaming decoder (#7)"']
    assert bobs != one
    assert _item(items, bobs)["category"] == "revert" and _item(items, bobs)["person_id"] == "bob"
    assert wid["Update copyright year"] != one
    item = _item(items, one)
    assert item["commits"] == 2
    assert item["lines_added"] == 2 and item["lines_deleted"] == 0  # original +1, reland (new file) +1
    assert item["category"] == "feature"  # the original change, not "revert"
    assert item["person_id"] == "ada"
    assert item["title"] == "Add streaming decoder"
    # It landed again in the end: not later reverted; the reland is named.
    assert item["later_reverted"] is False and item["reverted_by"] == []
    assert item["relanded_by"] == [reland]
    links = commit_links(out)
    assert links.filter(pl.col("sha") == revert).select("link_type", "target_sha", "author_email").rows() == [
        ("reverts", original, BOB[1])]


def test_a_revert_with_the_small_fix_up_it_needed_is_a_revert_named_by_it(tmp_path):
    """hugo: bep reverted Joe's deprecation and, minutes later, put back the one import the
    revert had taken away (`commands: Add missing import`); the item was a bug fix titled by
    the one-line fix-up."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"commands/env.go": "package commands\n\nimport \"os\"\n\nfunc Env() { os.Exit(0) }\n"})
    original = repo.commit("common/hugo: Deprecate extended editions", author=CAT, date=_at(2, 9),
                           files={"common/hugo/edition.go": "".join(f"// deprecated {i}\nfunc E{i}() {{}}\n" for i in range(20)),
                                  "commands/env.go": "package commands\n\nfunc Env() { exit() }\n"})
    revert = repo.revert(original, author=ADA, date=_at(3, 9), reason="It broke the release.")
    fixup = repo.commit("commands: Add missing import", author=ADA, date="2025-03-03T09:10:00+0000",
                        files={"commands/env.go": "package commands\n\nimport \"os\"\n\nfunc Env() { os.Exit(0) }\n// ok\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["commands: Add missing import"] == wid['Revert "common/hugo: Deprecate extended editions"']
    item = _item(items, wid["commands: Add missing import"])
    assert (item["category"], item["title"], item["commits"]) == (
        "revert", 'Revert "common/hugo: Deprecate extended editions"', 2)
    assert revert and fixup


def test_a_reverted_change_landed_again_under_its_own_subject_is_relanded(tmp_path):
    """fzf: "[shell][zsh] Don't resolve symlinks in ALT-c (#4816) (#4817)" was reverted, then
    landed again by its co-author as "... (#4816)": it read "later reverted". A short subject
    said again (`Update README`) relands nothing."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"shell/key-bindings.zsh": "0\n", "README.md": "r\n"})
    original = repo.commit("[shell][zsh] Don't resolve symlinks in ALT-c (#4816) (#4817)", author=ADA,
                           date=_at(2, 9), files={"shell/key-bindings.zsh": "cd -P\n"})
    repo.revert(original, author=ADA, date=_at(3, 9))
    again = repo.commit("[shell][zsh] Don't resolve symlinks in ALT-c (#4816)", author=BOB, date=_at(5, 9),
                        files={"shell/key-bindings.zsh": "cd -L\n"})
    readme = repo.commit("Update README", author=ADA, date=_at(6, 9), files={"README.md": "r2\n"})
    repo.revert(readme, author=ADA, date=_at(7, 9))
    repo.commit("Update README", author=ADA, date=_at(9, 9), files={"README.md": "r3\n"})
    out, items = _run(repo)
    links = commit_links(out)
    assert links.filter((pl.col("sha") == again) & (pl.col("link_type") == "relands"))["target_sha"].to_list() == [original]
    wid = dict(out.select("sha", "work_item_id").rows())
    item = _item(items, wid[original])
    assert item["later_reverted"] is False and item["relanded_by"] == [again]
    assert item["title"] == "Don't resolve symlinks in ALT-c"  # every `(#N)` off, not only the last
    assert links.filter(pl.col("link_type") == "relands").height == 1  # not the README


def test_reverted_and_never_relanded_is_later_reverted(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"core.py": "0\n"})
    first = repo.commit("Add retry budget", author=ADA, date=_at(1, 9), files={"retry.py": "budget = 3\n"})
    revert1 = repo.revert(first, author=BOB, date=_at(2, 9))
    # git's revert of the revert: `Reapply "..."`, by the author.
    reapply = repo.revert(revert1, author=ADA, date=_at(3, 9))
    revert2 = repo.revert(reapply, author=BOB, date=_at(4, 9))
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    ada = _item(items, wid["Add retry budget"])
    assert wid[out.filter(pl.col("sha") == reapply)["subject"].item()] == ada["work_item_id"]
    assert ada["commits"] == 2  # the change and its reapply; Bob's reverts are links
    assert ada["relanded_by"] == [reapply]
    assert ada["later_reverted"] is True and ada["reverted_by"] == [revert2]  # the last word was a revert


def test_a_change_that_backs_out_its_own_first_attempt_and_keeps_the_second_is_not_reverted(tmp_path):
    """ripgrep: two fixes for #3184 (a read loop of 21 lines, then a 6-line buffer tweak), and
    five days later `searcher: fix regression with --line-buffered`, which reverts the first
    and keeps the second: the change landed, it is not "later reverted". Reverting the whole
    change is."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"searcher/buffer.rs": "read();\n", "searcher/core.rs": "keep();\n", "cli/flags.rs": "f();\n"})
    loop = "".join(f"read_more({i});\n" for i in range(20))
    first = repo.commit("searcher: fix performance bug when searching stdin", author=ADA, date=_at(2, 9),
                        files={"searcher/buffer.rs": "read();\n" + loop})
    second = repo.commit("searcher: fix a performance bug with after-context", author=ADA, date=_at(2, 10),
                         files={"searcher/core.rs": "keep_less();\n"})
    back = repo.commit(f"searcher: fix regression with --line-buffered\n\nThis reverts commit {first}.\n", author=ADA, date=_at(7, 9), files={"searcher/buffer.rs": "read();\n"})
    flag = repo.commit("cli: add a --max-files flag", author=BOB, date=_at(9, 9),
                       files={"cli/flags.rs": "f();\n" + "".join(f"max_files({i});\n" for i in range(10))})
    whole = repo.revert(flag, author=CAT, date=_at(12, 9))
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[first] == wid[second] == wid[back]
    fix = _item(items, wid[first])
    assert fix["later_reverted"] is False and fix["reverted_by"] == []
    flagged = _item(items, wid[flag])
    assert flagged["later_reverted"] is True and flagged["reverted_by"] == [whole]


def test_phabricator_and_free_form_revert_reland_chains(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"core.py": "0\n"})
    spec = repo.commit("pipe dynamic spec in dynamo compile (#181995)\n\nDifferential Revision: D105603961",
                       author=ADA, date=_at(1, 9), files={"spec.py": "dynamic = 1\n"})
    phab = repo.commit("Revert D105603961: pipe dynamic spec in dynamo compile (#181995)\n\n"
                       "Original Phabricator Diff: D105603961", author=BOB, date=_at(2, 9),
                       files={"spec.py": ""})
    again = repo.commit("reland pipe dynamic spec in dynamo compile (#2691)", author=ADA, date=_at(3, 9),
                        files={"spec.py": "dynamic = 2\n"})
    guards = repo.commit("Skip guards on unused constant ops (#189642)\n\nDifferential Revision:\nD113643215",
                         author=CAT, date=_at(4, 9), files={"guards.py": "skip = 1\n"})
    bare = repo.commit("Revert D113643215", author=BOB, date=_at(5, 9), files={"guards.py": ""})
    zipped = repo.commit("revert map/zip iterator related changes (#132528)", author=CAT, date=_at(6, 9),
                         files={"iter.py": "old = 1\n"})
    rezip = repo.commit("reland map/zip iterator related changes (#135074)", author=CAT, date=_at(7, 9),
                        files={"iter.py": "new = 1\n"})
    # A `This reverts commit` naming a sha from another repository: matched by its subject.
    cache = repo.commit("Enable model caching on shared cache (#174596)", author=ADA, date=_at(8, 9),
                        files={"cache.py": "on = 1\n"})
    foreign = repo.commit('Revert "Enable model caching on shared cache (#174596)"\n\n'
                          "This reverts commit 47b744d0e57cbfd69708c5bbd871f7df02a59e9c.",
                          author=BOB, date=_at(9, 9), files={"cache.py": ""})
    out, items = _run(repo)
    links = commit_links(out)
    pairs = set(links.select("sha", "link_type", "target_sha").rows())
    assert (phab, "reverts", spec) in pairs
    assert (again, "relands", spec) in pairs
    assert (bare, "reverts", guards) in pairs
    assert (rezip, "relands", zipped) in pairs
    assert (foreign, "reverts", cache) in pairs
    wid = dict(out.select("sha", "work_item_id").rows())
    spec_item = _item(items, wid[spec])
    assert wid[again] == wid[spec] and wid[phab] != wid[spec]
    assert spec_item["later_reverted"] is False and spec_item["relanded_by"] == [again]
    assert _item(items, wid[guards])["later_reverted"] is True
    assert _item(items, wid[guards])["reverted_by"] == [bare]
    assert _item(items, wid[cache])["reverted_by"] == [foreign]
    assert wid[zipped] == wid[rezip]  # one author's revert and reland of the same changes
    # Every revert the links find is a revert, however it is worded; a reland is not.
    category = dict(out.select("sha", "category").rows())
    assert [category[s] for s in (phab, bare, foreign)] == ["revert"] * 3
    assert category[again] != "revert" and category[rezip] != "revert"


def test_numbered_series_of_one_author_is_one_item(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"README.md": "x\n"})
    a = repo.commit("[PATCH 1/3] mm: introduce page pool helpers", author=ADA, date=_at(2, 9),
                    files={"mm/pool.c": "1\n"})
    repo.commit("Bump version to 1.2.0", author=BOB, date=_at(2, 10), files={"VERSION.txt": "1.2.0\n"})
    repo.commit("[PATCH 2/3] net: use page pool for rx buffers", author=ADA, date=_at(3, 9),
                files={"net/rx.c": "1\n"})
    repo.commit("[PATCH 3/3] docs: describe the page pool", author=ADA, date=_at(6, 9),
                files={"Documentation/pool.rst": "1\n"})
    repo.commit("Refactor scheduler (part 1)", author=BOB, date=_at(7, 9), files={"sched/a.c": "1\n"})
    repo.commit("Refactor scheduler (part 2)", author=BOB, date=_at(9, 9), files={"sched/b.c": "1\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    series = {wid[s] for s in ("[PATCH 1/3] mm: introduce page pool helpers",
                               "[PATCH 2/3] net: use page pool for rx buffers",
                               "[PATCH 3/3] docs: describe the page pool")}
    assert series == {f"acme/app@{a[:12]}"}
    assert wid["Bump version to 1.2.0"] not in series
    assert wid["Refactor scheduler (part 1)"] == wid["Refactor scheduler (part 2)"]
    item = _item(items, f"acme/app@{a[:12]}")
    assert item["commits"] == 3 and item["person_id"] == "ada"
    assert item["title"] == "mm: introduce page pool helpers"  # without tags and numbering; its area stays


def test_unrelated_commits_on_the_same_day_are_two_items(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Add login page", author=ADA, date=_at(4, 9), files={"web/login.py": "1\n"})
    repo.commit("Fix typo in the billing report", author=ADA, date=_at(4, 11),
                files={"reports/billing.py": "2\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["Add login page"] != wid["Fix typo in the billing report"]
    assert items.height == 2


def test_a_commit_landed_on_its_own_inside_a_rebased_batch_is_not_of_it(tmp_path):
    """ripgrep: `ignore: fix deadlock when visitor panics` (Fixes #3009) was pushed alone in the
    evening; the next day the six commits of `ignore: add incremental checking`, written before
    and after it, were rebased and pushed together. The fix had been part of the feature. A
    commit of the same component after the batch was written still relates to it."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"ignore/walk.rs": "a\n", "ignore/dir.rs": "d\n"})
    pushed = "2025-03-05T13:10:32+0000"
    first = repo.commit("ignore: add incremental checking", author=ADA, date=_at(3, 10), committer_date=pushed,
                        files={"ignore/walk.rs": "a\nincr\n"})
    second = repo.commit("ignore: refactor is_hidden", author=ADA, date=_at(3, 14), committer_date=pushed,
                         files={"ignore/dir.rs": "d\nhidden\n"})
    fix = repo.commit("ignore: fix deadlock when visitor panics", author=ADA, date=_at(3, 16),
                      committer_date="2025-03-03T21:33:06+0000", files={"ignore/walk.rs": "a\nincr\nlock\n"})
    third = repo.commit("ignore: more pathutil clean-up", author=ADA, date=_at(4, 11), committer_date=pushed,
                        files={"ignore/dir.rs": "d\nhidden\nclean\n"})
    after = repo.commit("ignore: document incremental checking", author=ADA, date=_at(5, 18),
                        files={"ignore/walk.rs": "a\nincr\nlock\n// doc\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[first] == wid[second] == wid[third] == wid[after]
    assert wid[fix] != wid[first]
    assert _item(items, wid[fix])["category"] == "bug"


def test_related_consecutive_commits_join_within_the_window(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    # Same files, a few hours apart: one item.
    repo.commit("Add retry policy to HTTP client", author=ADA, date=_at(1, 9), files={"http/client.py": "1\n"})
    repo.commit("Handle timeouts", author=ADA, date=_at(1, 15), files={"http/client.py": "2\n"})
    # Same component tag, different files, next day: one item.
    repo.commit("[cache] Add LRU eviction", author=BOB, date=_at(2, 9), files={"cache/lru.py": "1\n"})
    repo.commit("[cache] Expose hit ratio metric", author=BOB, date=_at(3, 8), files={"metrics/cache.py": "1\n"})
    # Strongly overlapping subject words: one item.
    repo.commit("Add dark mode theme switcher", author=CAT, date=_at(2, 10), files={"ui/theme.css": "1\n"})
    repo.commit("Dark mode theme switcher: remember choice", author=CAT, date=_at(2, 12),
                files={"ui/settings.js": "1\n"})
    # Same file but a week later: two items.
    repo.commit("Fix redirect loop in HTTP client", author=ADA, date=_at(9, 9), files={"http/client.py": "3\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["Add retry policy to HTTP client"] == wid["Handle timeouts"]
    assert wid["[cache] Add LRU eviction"] == wid["[cache] Expose hit ratio metric"]
    assert wid["Add dark mode theme switcher"] == wid["Dark mode theme switcher: remember choice"]
    assert wid["Fix redirect loop in HTTP client"] != wid["Add retry policy to HTTP client"]
    assert _item(items, wid["[cache] Add LRU eviction"])["title"] == "Add LRU eviction"
    assert items.height == 4


def test_bots_and_plain_merges_get_no_item_and_ids_are_stable(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"app.py": "1\n"})
    repo.commit("Bump requests from 2.31.0 to 2.32.0", author=BOT, date=_at(1, 10),
                files={"requirements.txt": "requests==2.32.0\n"})
    repo.branch("topic", checkout=True)
    repo.commit("Add health check endpoint", author=BOB, date=_at(1, 11), files={"health.py": "1\n"})
    repo.checkout("main")
    repo.commit("Fix crash on shutdown", author=ADA, date=_at(1, 12), files={"app.py": "2\n"})
    repo.merge("topic", "Merge branch 'topic'", author=ADA, date=_at(1, 13))
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["Bump requests from 2.31.0 to 2.32.0"] is None
    assert wid["Merge branch 'topic'"] is None
    assert wid["Add health check endpoint"] is not None
    again, items_again = _run(repo)
    assert again["work_item_id"].to_list() == out["work_item_id"].to_list()
    assert items_again.equals(items)


def test_merge_walk_is_linear_in_commits():
    """100k commits with a PR merge every 5 commits: one walk, seconds not minutes."""
    t0 = datetime(2020, 1, 1, tzinfo=timezone.utc)
    root = "f" * 40
    rows = [(root, [], False, "Initial commit")]
    main_tip = root
    n_prs = 20_000
    for pr in range(n_prs):
        base = branch_tip = main_tip
        for j in range(4):
            sha = f"{pr:08x}{j:02x}".ljust(40, "a")
            rows.append((sha, [branch_tip], False, None))
            branch_tip = sha
        merge = f"{pr:08x}ff".ljust(40, "b")
        rows.append((merge, [base, branch_tip], True, f"Merge pull request #{pr} from x/y"))
        main_tip = merge
    frame = pl.DataFrame(
        {
            "repo": ["r"] * len(rows),
            "sha": [r[0] for r in rows],
            "parents": [r[1] for r in rows],
            "is_merge": [r[2] for r in rows],
            "subject": [r[3] or "Add thing" for r in rows],
            "committed_at": [t0 + timedelta(minutes=i) for i in range(len(rows))],
        }
    )
    # CPU time of this process (all its threads), not wall time: other tests share the
    # machine; per-row Python would take minutes
    start = time.process_time()
    members = merge_pr_membership(frame)
    elapsed = time.process_time() - start
    assert members.height == 4 * n_prs
    assert members.filter(pl.col("sha") == "0000000701".ljust(40, "a"))["merge_pr"].to_list() == [7]
    assert elapsed < 20, f"merge walk took {elapsed:.1f} CPU-s"


def test_open_ended_series_with_pull_requests_is_one_item(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"README.md": "x\n"})
    one = repo.commit("improved graph break messages for common sites [1/N] (#146525)", author=ADA,
                      date=_at(2, 9), files={"dynamo/a.py": "1\n"})
    repo.commit("Update copyright year", author=BOB, date=_at(3, 9), files={"NOTICE": "2025\n"})
    two = repo.commit("make some more graph break messages readable in English [2/N] (#147385)", author=ADA,
                      date=_at(9, 9), files={"dynamo/b.py": "1\n"})
    three = repo.commit("more better error messages [3/N] (#147494)", author=ADA, date=_at(10, 9),
                        files={"dynamo/c.py": "1\n"})
    other = repo.commit("Clean up assert in dynamo [2/N] (#165745)", author=BOB, date=_at(11, 9),
                        files={"dynamo/d.py": "1\n"})
    cut = repo.commit("apply Black style in fbcode (72/92)", author=CAT, date=_at(12, 9), files={"x.py": "1\n"})
    cut2 = repo.commit("apply Black style in fbcode (73/92)", author=CAT, date=_at(12, 10), files={"y.py": "1\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[one] == wid[two] == wid[three] == "acme/app#pr-146525"
    assert _item(items, wid[one])["commits"] == 3
    assert wid[other] != wid[one]  # another author's series
    assert wid[cut] == wid[cut2]


def test_pull_requests_merged_into_stable_keep_their_numbers_on_main(tmp_path):
    """flask: PRs merge into `stable`, `stable` merges into `main` by `Merge branch 'stable'`."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"app.py": "x = 1\n"})
    repo.branch("stable")
    repo.commit("Start 3.2 development", author=ADA, date=_at(1, 9), files={"CHANGES.rst": "3.2\n"})
    repo.checkout("stable")
    repo.branch("fix-session-cookie", checkout=True)
    fix = repo.commit("Fix session cookie domain", author=BOB, date=_at(2, 9), files={"sessions.py": "d = 1\n"})
    test = repo.commit("Test session cookie domain", author=BOB, date=_at(2, 10),
                       files={"tests/test_sessions.py": "ok\n"})
    repo.checkout("stable")
    repo.merge("fix-session-cookie", "Merge pull request #5010 from bob/fix-session-cookie\n\n"
               "Session cookie ignores SERVER_NAME", author=ADA, date=_at(3, 9))
    repo.branch("docs-typo", checkout=True)
    typo = repo.commit("Fix typo in quickstart", author=CAT, date=_at(3, 10), files={"docs/quick.rst": "ok\n"})
    repo.checkout("stable")
    # GitHub's wording without `from <branch>` (web-UI merges of some eras).
    repo.merge("docs-typo", "Merge pull request #5011\n\nquickstart typo", author=ADA, date=_at(3, 11))
    on_stable = repo.commit("Release 3.1.1", author=ADA, date=_at(4, 9), files={"VERSION.txt": "3.1.1\n"})
    repo.checkout("main")
    repo.merge("stable", "Merge branch 'stable'", author=ADA, date=_at(5, 9))
    out, items = _run(repo)
    prs = dict(out.select("sha", "pr_number").rows())
    wid = dict(out.select("sha", "work_item_id").rows())
    assert prs[fix] == prs[test] == 5010
    assert wid[fix] == wid[test] == "acme/app#pr-5010"
    assert prs[typo] == 5011 and wid[typo] == "acme/app#pr-5011"
    assert prs[on_stable] is None  # a direct commit on stable is in no pull request
    assert _item(items, "acme/app#pr-5010")["title"] == "Session cookie ignores SERVER_NAME"
    assert _item(items, "acme/app#pr-5011")["title"] == "quickstart typo"
    members = merge_pr_membership(out)
    assert dict(members.select("sha", "merge_branch").rows())[fix] == "fix-session-cookie"


def test_a_separate_history_merged_in_is_imported_not_the_pull_requests_work(tmp_path):
    """sinatra: rack-protection's own history (its root, its PRs) came in through PR #1167 by a
    subtree merge; its commits are not that PR's work, and its PR numbers are not sinatra's."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"app.py": "x = 1\n"})
    repo.commit("Add routing", author=ADA, date=_at(1, 9), files={"routes.py": "r = 1\n"})
    # the other project: its own root, its own pull requests
    repo.git("checkout", "-q", "--orphan", "protection")
    repo.git("rm", "-rq", "--cached", ".")
    for name in ("app.py", "routes.py"):
        (repo.path / name).unlink()
    old_root = repo.commit("Initial protection", author=CAT, date=_at(2, 8), files={"protection/base.py": "p = 1\n"})
    repo.branch("csrf", checkout=True)
    csrf = repo.commit("Add CSRF token check", author=CAT, date=_at(2, 9), files={"protection/csrf.py": "c = 1\n"})
    repo.checkout("protection")
    repo.merge("csrf", "Merge pull request #12 from cat/csrf", author=CAT, date=_at(2, 10))
    squashed = repo.commit("Escape params (#7)", author=CAT, date=_at(2, 11), files={"protection/escape.py": "e = 1\n"})
    # the import, as a pull request of this repository by Bob
    repo.checkout("main")
    repo.branch("import-protection", checkout=True)
    repo.merge("protection", "Merge protection into the repository", author=BOB, date=_at(3, 9),
               allow_unrelated=True)
    gemspec = repo.commit("Build protection with the app", author=BOB, date=_at(3, 10), files={"setup.py": "p\n"})
    repo.checkout("main")
    repo.merge("import-protection", "Merge pull request #1167 from bob/import-protection", author=ADA, date=_at(3, 12))
    out, items = _run(repo)
    prs = dict(out.select("sha", "pr_number").rows())
    wid = dict(out.select("sha", "work_item_id").rows())
    assert prs[gemspec] == 1167 and wid[gemspec] == "acme/app#pr-1167"
    assert [prs[s] for s in (old_root, csrf, squashed)] == [None, None, None]
    pr_item = _item(items, "acme/app#pr-1167")
    assert pr_item["commits"] == 1 and pr_item["person_id"] == out.filter(pl.col("sha") == gemspec)["person_id"][0]
    assert all(not wid[s].endswith(("#pr-1167", "#pr-12", "#pr-7")) for s in (old_root, csrf, squashed))
    members = merge_pr_membership(out)
    assert members.filter(pl.col("imported"))["sha"].sort().to_list() == sorted(
        [old_root, csrf, squashed, repo.rev("protection~1")])


def test_item_category_from_pr_title_and_branch_name(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"app.py": "x = 1\n"})
    # The commits say little; the PR title says it is a fix.
    repo.branch("session-domain", checkout=True)
    vague = repo.commit("Update sessions.py", author=BOB, date=_at(2, 9), files={"sessions.py": "d = 2\n"})
    repo.checkout("main")
    repo.merge("session-domain", "Merge pull request #12 from bob/session-domain\n\n"
               "Fix crash when the session cookie domain is empty", author=ADA, date=_at(2, 12))
    # The branch name is the repository's own label.
    repo.branch("feature/csv-export", checkout=True)
    tidy = repo.commit("Tidy exporter module", author=CAT, date=_at(3, 9), files={"export.py": "def csv(): ...\n"})
    repo.checkout("main")
    repo.merge("feature/csv-export", "Merge pull request #13 from cat/feature/csv-export", author=ADA,
               date=_at(3, 12))
    repo.branch("hotfix-timeout", checkout=True)
    hot = repo.commit("Raise the default timeout", author=BOB, date=_at(4, 9), files={"net.py": "t = 30\n"})
    repo.checkout("main")
    repo.merge("hotfix-timeout", "Merge branch 'hotfix-timeout'", author=ADA, date=_at(4, 12))
    # A type the PR title declares outranks the branch name: `feat:` from a branch `fix-385`.
    repo.branch("fix-385", checkout=True)
    flows = repo.commit("Add API flows", author=CAT, date=_at(5, 9), files={"flows.py": "def api(): ...\n"})
    repo.checkout("main")
    repo.merge("fix-385", "Merge pull request #14 from cat/fix-385\n\nfeat: implement API-based self-service flows",
               author=ADA, date=_at(5, 12))
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert _item(items, wid[vague])["category"] == "bug"
    assert _item(items, wid[vague])["title"] == "Fix crash when the session cookie domain is empty"
    assert _item(items, wid[tidy])["category"] == "feature"
    assert _item(items, wid[hot])["category"] == "bug"
    assert _item(items, wid[flows])["category"] == "feature"


def test_requirements_files_are_the_build_work_of_a_pull_request_not_pages(tmp_path):
    """jinja's "update requirements" pull requests (pip-compile output in requirements/*.txt,
    pre-commit settings) carried a one-line lint commit in code; the `.txt` files counted as
    documents, not code, so that line was all the item's code and named it a fix."""
    repo = GitScript.init(tmp_path / "repo")
    pinned = "".join(f"package{i}==1.{i}.0\n    # via -r requirements/dev.in\n" for i in range(30))
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/jinja2/bccache.py": "import os\n", "requirements/dev.txt": pinned})
    repo.branch("update-requirements", checkout=True)
    reqs = repo.commit("update requirements", author=ADA, date=_at(2, 9),
                       files={"requirements/dev.txt": pinned.replace("1.", "2."),
                              ".pre-commit-config.yaml": "repos:\n  - repo: https://github.com/asottile/pyupgrade\n    rev: v3.0.0\n"})
    lint = repo.commit("Fix a crash when the bytecode cache directory is missing", author=ADA, date=_at(2, 10),
                       files={"src/jinja2/bccache.py": "import os.path\n"})
    repo.checkout("main")
    repo.merge("update-requirements", "Merge pull request #1504 from pallets/update-requirements\n\nupdate requirements",
               author=ADA, date=_at(2, 12))
    out, items = _run(repo)
    category = dict(out.select("sha", "category").rows())
    assert category[lint] == "bug" and category[reqs] == "build"
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[reqs] == wid[lint] == "acme/app#pr-1504"
    assert _item(items, wid[reqs])["category"] == "build"


def test_a_persons_commit_in_a_pull_request_a_bot_opened_is_named_by_its_own_words(tmp_path):
    """jinja: David Lord's "fix mypy findings", pushed onto dependabot's pull request, was
    titled "Bump the python-requirements group in /requirements with 5 updates". A pull request
    a person opened keeps its title, whatever bot commits join it later (pre-commit.ci's fixes)."""
    bot = ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com")
    fixer = ("pre-commit-ci[bot]", "66853113+pre-commit-ci[bot]@users.noreply.github.com")
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"src/env.py": "x = 1\n", "requirements/dev.txt": "mypy==1.0\n"})
    repo.branch("dependabot/pip/python-requirements", checkout=True)
    repo.commit("Bump the python-requirements group", author=bot, date=_at(2, 9), files={"requirements/dev.txt": "mypy==1.1\n"})
    mine = repo.commit("fix mypy findings", author=ADA, date=_at(2, 10), files={"src/env.py": "x: int = 1\n"})
    repo.checkout("main")
    repo.merge("dependabot/pip/python-requirements", "Merge pull request #1973 from pallets/dependabot/pip/python-requirements\n\n"
               "Bump the python-requirements group in /requirements with 5 updates", author=ADA, date=_at(2, 12))
    repo.branch("cache-loader", checkout=True)
    own = repo.commit("Cache compiled templates", author=ADA, date=_at(3, 9), files={"src/cache.py": "cache = {}\n"})
    repo.commit("[pre-commit.ci] auto fixes from pre-commit.com hooks", author=fixer, date=_at(3, 10),
                files={"src/cache.py": "cache: dict = {}\n"})
    repo.checkout("main")
    repo.merge("cache-loader", "Merge pull request #1974 from ada/cache-loader\n\nAdd a bytecode cache for compiled templates",
               author=ADA, date=_at(3, 12))
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert _item(items, wid[mine])["title"] == "fix mypy findings"
    assert _item(items, wid[own])["title"] == "Add a bytecode cache for compiled templates"


def test_a_quick_fix_joins_the_change_before_last_that_it_repairs(tmp_path):
    """redis: "Fixed compilation of new rio.c changes (typos and so forth.)" came three minutes
    after "Add checksum computation to rio.c", with another commit of the same author between
    them, and was an item of its own (the same shape is scripted here; "Fix BITFIELD_RO test"
    came 33 minutes later). A fix that shares no file with that change, or comes more than
    QUICK_FIX_GAP later, stays apart."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"tests/unit/propagate.tcl": "test 0\n", "src/rax.c": "int r;\n", "src/t_list.c": "int l;\n"})
    test = repo.commit("Test propagation of MULTI/EXEC", author=ADA, date="2025-03-02T10:00:00+0000",
                       files={"tests/unit/propagate.tcl": "test 0\ntest multi\n"})
    rax = repo.commit("Rax: remove dead branch in raxSeek()", author=ADA, date="2025-03-02T10:02:00+0000",
                      files={"src/rax.c": "int r2;\n"})
    fix = repo.commit("Fix the propagate Tcl test", author=ADA, date="2025-03-02T10:40:00+0000",
                      files={"tests/unit/propagate.tcl": "test 0\ntest multi exec\n"})
    repo.commit("LPOS: implement the final design", author=ADA, date="2025-03-02T10:42:00+0000",
                files={"src/t_list.c": "int l2;\n"})
    late = repo.commit("Fix the rax seek test", author=ADA, date="2025-03-02T11:30:00+0000",
                       files={"src/rax.c": "int r3;\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[fix] == wid[test]
    assert wid[rax] != wid[test] and wid[late] != wid[rax]


def test_a_test_made_minutes_from_its_change_joins_it_when_it_says_so(tmp_path):
    """tmux: "Use correct X position when combining characters, GitHub issue 5511" and
    "Regress for GitHub issue 5511." 54 s earlier; "Add a -K flag to new-pane ..." and
    "new-pane -K test bits."; "Add a menu on empty areas ..." and "Update test." were items of
    their own (a regress/ file shares no file with the code it tests). A test that names
    something else, or comes later than TEST_GAP, stays apart; so does a test-only commit next
    to another test-only commit."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"screen.c": "int s;\n", "cmd-new-pane.c": "int p;\n", "menu.c": "int m;\n", "grid.c": "int g;\n",
                       "regress/combine.sh": "#!/bin/sh\n", "regress/new-pane.sh": "#!/bin/sh\n",
                       "regress/menu.sh": "#!/bin/sh\n", "regress/grid.sh": "#!/bin/sh\n", "regress/copy.sh": "#!/bin/sh\n"})
    issue_test = repo.commit("Regress for GitHub issue 5511 from Francesc Rosas.", author=ADA,
                             date="2025-03-02T10:00:00+0000", files={"regress/combine.sh": "#!/bin/sh\ncombine\n"})
    issue_fix = repo.commit("Use correct X position when combining characters, GitHub issue 5511", author=ADA,
                            date="2025-03-02T10:00:54+0000", files={"screen.c": "int s2;\n"})
    flag = repo.commit("Add a -K flag to new-pane to make a modal pane capture all keys", author=ADA,
                       date="2025-03-03T09:00:00+0000", files={"cmd-new-pane.c": "int p2;\n"})
    flag_test = repo.commit("new-pane -K test bits.", author=ADA, date="2025-03-03T09:00:17+0000",
                            files={"regress/new-pane.sh": "#!/bin/sh\nK\n"})
    menu = repo.commit("Add a menu on empty areas to allow a new pane to be created", author=ADA,
                       date="2025-03-04T09:00:00+0000", files={"menu.c": "int m2;\n"})
    menu_test = repo.commit("Update test.", author=ADA, date="2025-03-04T09:00:22+0000",
                            files={"regress/menu.sh": "#!/bin/sh\nmenu\n"})
    other = repo.commit("Test copy mode searches", author=ADA, date="2025-03-04T09:01:00+0000",
                        files={"regress/copy.sh": "#!/bin/sh\nsearch\n"})
    grid = repo.commit("Clear the grid when resizing", author=ADA, date="2025-03-05T09:00:00+0000",
                       files={"grid.c": "int g2;\n"})
    late = repo.commit("Update test.", author=ADA, date="2025-03-05T09:30:00+0000",
                       files={"regress/grid.sh": "#!/bin/sh\ngrid\n"})
    # the word they share is in the wrapped rest of the code change's first sentence
    padding = repo.commit("Store background colour in padding cells and correctly clear adjacent\n"
                          "cells when tabs are overwritten, GitHub issue 5441 from Ayman Bagabas.\n",
                          author=ADA, date="2025-03-06T12:58:53+0000", files={"screen.c": "int s3;\n"})
    padding_test = repo.commit("Add regress test from Ayman Bagabas.", author=ADA, date="2025-03-06T12:59:27+0000",
                               files={"regress/tab-cell-background.sh": "#!/bin/sh\ntab\n"})
    # redis: a test that names its issue tests the change that names it, not its neighbour
    comment = repo.commit("Comment in the call() function clarified a bit.", author=ADA,
                          date="2025-03-07T10:00:00+0000", files={"menu.c": "int m3; /* call */\n"})
    issue_only = repo.commit("Test: added regression for issue #872.", author=ADA, date="2025-03-07T10:04:00+0000",
                             files={"regress/call.sh": "#!/bin/sh\ncall\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    category = dict(out.select("sha", "category").rows())
    assert wid[issue_test] == wid[issue_fix]
    assert wid[flag_test] == wid[flag]
    assert wid[menu_test] == wid[menu]
    assert wid[other] not in (wid[menu], wid[menu_test])
    assert wid[late] != wid[grid]
    assert wid[padding_test] == wid[padding]
    assert wid[issue_only] != wid[comment]
    # a regress/ tree holds tests
    assert category[issue_test] == category[flag_test] == category[other] == "test"


def test_every_revert_wording_is_a_revert_and_look_alikes_are_not(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"core.py": "0\n"})
    loader = repo.commit("Load plugins lazily (#12)", author=ADA, date=_at(1, 9), files={"load.py": "lazy = 1\n"})
    reverts = [
        repo.commit("Revert #12", author=BOB, date=_at(2, 9), files={"load.py": ""}),
        repo.commit("Backout D4242: speed up the loader", author=BOB, date=_at(2, 10), files={"core.py": "1\n"}),
        repo.commit('Back out "Cache the loader"', author=BOB, date=_at(2, 11), files={"core.py": "2\n"}),
        repo.commit("Revert changes to the plugin loader", author=BOB, date=_at(2, 12), files={"core.py": "3\n"}),
    ]
    look_alikes = [
        repo.commit("Add a revert button to the settings page", author=ADA, date=_at(3, 9), files={"ui.py": "b = 1\n"}),
        repo.commit("Fix the backout script when the tree is dirty", author=ADA, date=_at(3, 10), files={"tools.py": "x = 1\n"}),
    ]
    out, _ = _run(repo)
    category = dict(out.select("sha", "category").rows())
    assert [category[s] for s in reverts] == ["revert"] * 4
    assert all(category[s] != "revert" for s in look_alikes)
    assert category[loader] != "revert"


def test_a_long_lived_branch_name_does_not_label_each_item_it_brought(tmp_path):
    """requests: `Merge branch 'feature/urllib3-backup'` brought in 103 commits (fixes, docs,
    releases); the branch's name labels one change, not every item it collected."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"app.py": "x = 1\n"})
    repo.branch("feature/urllib3", checkout=True)
    fix = repo.commit("Fix crash on empty header", author=ADA, date=_at(2, 9), files={"headers.py": "h = 1\n"})
    docs = repo.commit("Explain proxies in the guide", author=ADA, date=_at(5, 9),
                       files={"docs/proxies.rst": "Proxies\n=======\n"})
    pool = repo.commit("Add connection pooling", author=ADA, date=_at(9, 9), files={"pool.py": "class Pool: ...\n"})
    repo.checkout("main")
    repo.merge("feature/urllib3", "Merge branch 'feature/urllib3'", author=ADA, date=_at(10, 12))
    # A short branch that brought one change keeps its label.
    repo.branch("fix/timeout", checkout=True)
    raise_t = repo.commit("Raise the default timeout", author=BOB, date=_at(11, 9), files={"net.py": "t = 30\n"})
    repo.checkout("main")
    repo.merge("fix/timeout", "Merge branch 'fix/timeout'", author=ADA, date=_at(11, 12))
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert len({wid[fix], wid[docs], wid[pool]}) == 3
    assert _item(items, wid[fix])["category"] == "bug"
    assert _item(items, wid[docs])["category"] == "docs"
    assert _item(items, wid[pool])["category"] == "feature"
    assert _item(items, wid[raise_t])["category"] == "bug"


def test_an_item_is_named_by_its_first_commit_of_its_own_category(tmp_path):
    """httpx: `Tweak test naming`, then `Add response.json()` and `Add json interfaces` on the
    same files the same afternoon: one feature, named by the feature, not by the test tweak."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"httpx/models.py": "class Response:\n    pass\n", "tests/test_models.py": "def test_a():\n    pass\n"})
    tweak = repo.commit("Tweak test naming", author=BOB, date=_at(2, 9),
                        files={"tests/test_models.py": "def test_response():\n    pass\n"})
    repo.commit("Add response.json()", author=BOB, date=_at(2, 10),
                files={"httpx/models.py": "class Response:\n    def json(self):\n        return {}\n",
                       "tests/test_models.py": "def test_response():\n    pass\ndef test_json():\n    pass\n"})
    repo.commit("Add json interfaces", author=BOB, date=_at(2, 11),
                files={"httpx/models.py": "class Response:\n    def json(self, **kw):\n        return {}\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    item = _item(items, wid[tweak])
    assert item["commits"] == 3
    assert item["category"] == "feature"
    assert item["title"] == "Add response.json()"


def test_an_item_is_named_by_a_subject_that_says_something(tmp_path):
    """requests: `first` (a comment tweak), then `actually cleanup url authentication` on the same
    file within the hour: one item, named by the subject with words, not by `first`."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"lib/auth.py": "def auth():\n    pass\n"})
    first = repo.commit("first", author=BOB, date=_at(2, 9),
                        files={"lib/auth.py": "def auth():\n    # url auth\n    pass\n"})
    repo.commit("Add url authentication helpers", author=BOB, date=_at(2, 10),
                files={"lib/auth.py": "def auth():\n    # url auth\n    pass\ndef url_auth(u):\n    return u\n"})
    out, items = _run(repo)
    item = _item(items, dict(out.select("sha", "work_item_id").rows())[first])
    assert item["commits"] == 2
    assert item["title"] == "Add url authentication helpers"


def test_a_shared_package_manifest_relates_nothing(tmp_path):
    """express: `change res.sendfile() to use send() module` and `update connect dep` an hour
    apart both edit package.json, as every dependency bump does: two changes, not one item
    titled by the bump."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"lib/response.js": "exports.sendfile = function () {}\n",
                       "package.json": '{"dependencies": {"connect": "2.0.0"}}\n'})
    send = repo.commit("change res.sendfile() to use send() module", author=BOB, date=_at(2, 9),
                       files={"lib/response.js": "var send = require('send')\nexports.sendfile = send\n",
                              "package.json": '{"dependencies": {"connect": "2.0.0", "send": "0.1.0"}}\n'})
    bump = repo.commit("update connect dep", author=BOB, date=_at(2, 10),
                       files={"package.json": '{"dependencies": {"connect": "2.1.0", "send": "0.1.0"}}\n'})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[send] != wid[bump]
    assert _item(items, wid[send])["title"] == "change res.sendfile() to use send() module"


def test_the_commits_of_one_release_are_one_release_item(tmp_path):
    """ripgrep: a release is 10-20 commits of one author in a day (dependency bumps, the
    changelog heading, the version): one release item (chore), not ten build and docs items.
    Two releases of one day are two items; code work in between is its own."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/parse.rs": "fn parse() {}\n", "Cargo.toml": 'version = "1.1.0"\n', "CHANGELOG.md": "# 1.1.0\n"})
    code = repo.commit("Add a streaming parser", author=BOB, date=_at(3, 9),
                       files={"src/parse.rs": "fn parse() {}\nfn stream() {}\n"})
    bump = repo.commit("deps: bump memchr", author=BOB, date=_at(3, 10),
                       files={"Cargo.toml": 'version = "1.1.0"\nmemchr = "2.7"\n'})
    heading = repo.commit("changelog: 1.2.0", author=BOB, date=_at(3, 11), files={"CHANGELOG.md": "# 1.2.0\n# 1.1.0\n"})
    release = repo.commit("1.2.0", author=BOB, date=_at(3, 12), files={"Cargo.toml": 'version = "1.2.0"\nmemchr = "2.7"\n'})
    heading2 = repo.commit("changelog: 1.2.1", author=BOB, date=_at(3, 13), files={"CHANGELOG.md": "# 1.2.1\n# 1.2.0\n# 1.1.0\n"})
    release2 = repo.commit("1.2.1", author=BOB, date=_at(3, 14), files={"Cargo.toml": 'version = "1.2.1"\nmemchr = "2.7"\n'})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[bump] == wid[heading] == wid[release]
    assert wid[heading2] == wid[release2] != wid[release]
    assert wid[code] != wid[bump]
    assert _item(items, wid[release])["category"] == "chore"
    assert _item(items, wid[release])["commits"] == 3


def test_a_monorepos_release_session_is_one_release_item(tmp_path):
    """ripgrep 15.0.0: each crate released in turn (`globset-0.4.17`, `deps: bump to globset
    0.4.17`, `ignore-0.4.24`, ...), then the whole (`changelog: 15.0.0`, `15.0.0`), minutes
    apart: one release item, not one per crate. The same crate released again an hour later is another release."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "Cargo.toml": 'version = "14.0.0"\nglobset = "0.4.16"\nignore = "0.4.23"\n',
        "crates/globset/Cargo.toml": 'version = "0.4.16"\n', "crates/ignore/Cargo.toml": 'version = "0.4.23"\nglobset = "0.4.16"\n'})
    minute = lambda m: f"2025-03-05T10:{m:02d}:00+0000"  # noqa: E731
    globset = repo.commit("globset-0.4.17", author=ADA, date=minute(0), files={"crates/globset/Cargo.toml": 'version = "0.4.17"\n'})
    bump = repo.commit("deps: bump to globset 0.4.17", author=ADA, date=minute(2),
                       files={"crates/ignore/Cargo.toml": 'version = "0.4.23"\nglobset = "0.4.17"\n'})
    ignore = repo.commit("ignore-0.4.24", author=ADA, date=minute(3),
                         files={"crates/ignore/Cargo.toml": 'version = "0.4.24"\nglobset = "0.4.17"\n'})
    heading = repo.commit("changelog: 15.0.0", author=ADA, date=minute(5), files={"CHANGELOG.md": "15.0.0\n======\n"})
    whole = repo.commit("15.0.0", author=ADA, date=minute(6),
                        files={"Cargo.toml": 'version = "15.0.0"\nglobset = "0.4.17"\nignore = "0.4.24"\n'})
    again = repo.commit("ignore-0.4.25", author=ADA, date="2025-03-05T11:30:00+0000",
                        files={"crates/ignore/Cargo.toml": 'version = "0.4.25"\nglobset = "0.4.17"\n'})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[globset] == wid[bump] == wid[ignore] == wid[heading] == wid[whole] != wid[again]
    session = _item(items, wid[whole])
    assert (session["category"], session["title"]) == ("chore", "Release 15.0.0")


def test_a_releases_notes_and_man_page_date_before_its_session_are_its_steps(tmp_path):
    """ripgrep 15.0.0: `changelog: 15.0.0`, `deps: update everything`, `doc: update date in man
    page template` (one line), `doc: move CHANGELOG update before dependency updates` (its
    RELEASE-CHECKLIST.md), then each crate released (`globset-0.4.17`, ...) and 15.0.0, in
    ten minutes; 15.2.0: `changelog: 15.2.0` wrote the notes and the man page's date a minute
    before `globset-0.4.19`. Each had been split from its release. A date set a day before
    the release, and a fix of date parsing before it, are no steps."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "Cargo.toml": 'version = "14.0.0"\n', "Cargo.lock": "a\n", "CHANGELOG.md": "14.0.0\n",
        "RELEASE-CHECKLIST.md": "* cargo update\n* Update the changelog.\n",
        "doc/rg.1": ".TH RG 1 2025-01-01\nrg\n", "crates/globset/Cargo.toml": 'version = "0.4.16"\n',
        "src/date.rs": "fn parse() {}\n"})
    at = lambda d, h, m: f"2025-03-{d:02d}T{h:02d}:{m:02d}:00+0000"  # noqa: E731
    notes = repo.commit("changelog: 15.0.0", author=ADA, date=at(5, 10, 0), files={"CHANGELOG.md": "15.0.0\n14.0.0\n"})
    deps = repo.commit("deps: update everything", author=ADA, date=at(5, 10, 1), files={"Cargo.lock": "b\n"})
    dated = repo.commit("doc: update date in man page template", author=ADA, date=at(5, 10, 8),
                        files={"doc/rg.1": ".TH RG 1 2025-03-05\nrg\n"})
    checklist = repo.commit("doc: move CHANGELOG update before dependency updates", author=ADA, date=at(5, 10, 9),
                            files={"RELEASE-CHECKLIST.md": "* Update the changelog.\n* cargo update\n"})
    globset = repo.commit("globset-0.4.17", author=ADA, date=at(5, 10, 10), files={"crates/globset/Cargo.toml": 'version = "0.4.17"\n'})
    whole = repo.commit("15.0.0", author=ADA, date=at(5, 10, 12), files={"Cargo.toml": 'version = "15.0.0"\n'})
    # 15.2.0: the notes with the man page's date, then the crates' session
    notes2 = repo.commit("changelog: 15.2.0", author=ADA, date=at(12, 10, 0), files={
        "CHANGELOG.md": "15.2.0\n15.0.0\n14.0.0\n", "doc/rg.1": ".TH RG 1 2025-03-12\nrg\n"})
    globset2 = repo.commit("globset-0.4.18", author=ADA, date=at(12, 10, 1), files={"crates/globset/Cargo.toml": 'version = "0.4.18"\n'})
    whole2 = repo.commit("15.2.0", author=ADA, date=at(12, 10, 5), files={"Cargo.toml": 'version = "15.2.0"\n'})
    # not steps: a date set the day before, a fix of date parsing
    early = repo.commit("doc: update date in man page template", author=ADA, date=at(19, 9, 0),
                        files={"doc/rg.1": ".TH RG 1 2025-03-19\nrg\n"})
    fix = repo.commit("Fix date parsing", author=ADA, date=at(20, 9, 59), files={"src/date.rs": "fn parse() { 1 }\n"})
    whole3 = repo.commit("15.3.0", author=ADA, date=at(20, 10, 0), files={"Cargo.toml": 'version = "15.3.0"\n'})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[notes] == wid[deps] == wid[dated] == wid[checklist] == wid[globset] == wid[whole]
    assert _item(items, wid[whole])["title"] == "Release 15.0.0"
    assert wid[notes2] == wid[globset2] == wid[whole2]
    assert _item(items, wid[whole2])["title"] == "Release 15.2.0"
    assert len({wid[early], wid[fix], wid[whole3]}) == 3


def test_the_homebrew_formula_and_the_next_section_after_a_release_finish_it(tmp_path):
    """ripgrep: `15.2.0`, then half an hour later `pkg/brew: update tap` (the formula alone) and
    `changelog: start next section`: the release's last steps, not an item titled "pkg/brew:
    update tap" (nine of Andrew Gallant's items). A formula changed two hours after the
    release is a change of its own."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "Cargo.toml": 'version = "15.1.0"\n', "CHANGELOG.md": "15.1.0\n", "pkg/brew/ripgrep-bin.rb": "v15.1.0\n"})
    release = repo.commit("15.2.0", author=ADA, date=_at(5, 10), files={"Cargo.toml": 'version = "15.2.0"\n'})
    tap = repo.commit("pkg/brew: update tap", author=ADA, date="2025-03-05T10:30:00+0000",
                      files={"pkg/brew/ripgrep-bin.rb": "v15.2.0\n"})
    section = repo.commit("changelog: start next section", author=ADA, date="2025-03-05T10:31:00+0000",
                          files={"CHANGELOG.md": "TBD\n===\n15.1.0\n"})
    later = repo.commit("pkg/brew: add arm64 bottle", author=ADA, date=_at(6, 13),
                        files={"pkg/brew/ripgrep-bin.rb": "v15.2.0 arm\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[release] == wid[tap] == wid[section] != wid[later]
    assert _item(items, wid[release])["title"] == "Release 15.2.0"
    assert _item(items, wid[later])["category"] == "build"


def test_a_version_tag_on_the_release_notes_makes_the_release(tmp_path):
    """curl tags its releases on `RELEASE-NOTES: synced` (curl-8_21_0): Daniel Stenberg's profile
    had read "60 releases, the latest 7.64.1" in 2026. A commit a version tag points at that
    changes only the release's records is that release, named by the tag, and the contributors
    thanked minutes later finish it. Not a release: the same sync untagged, or tagged as a release
    candidate (rc-8_22_0-1); a dependency upgrade or a code change that happens to be tagged."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "lib/url.c": "int url;\n", "RELEASE-NOTES": "8.20.0\n", "docs/THANKS": "Ada\n", "go.mod": "module curl\n"})
    fix = repo.commit("url: fix the port parser", author=ADA, date=_at(2, 9), files={"lib/url.c": "int url = 1;\n"})
    synced = repo.commit("RELEASE-NOTES: synced", author=ADA, date=_at(3, 8),  # (and the list of versions)
                         files={"RELEASE-NOTES": "8.21.0\n - url: fix the port parser\n", "docs/VERSIONS.md": "8.21.0\n"})
    repo.git("tag", "-a", "-m", "curl 8.21.0", "curl-8_21_0")  # annotated, as curl's are
    thanks = repo.commit("THANKS: names from the 8.21.0 release", author=ADA, date="2025-03-03T08:03:00+0000",
                         files={"docs/THANKS": "Ada\nBob\n"})
    later = repo.commit("RELEASE-NOTES: synced again", author=ADA, date=_at(6, 8),
                        files={"RELEASE-NOTES": "8.22.0\n - next\n"})
    candidate = repo.commit("RELEASE-NOTES: synced for the candidate", author=ADA, date=_at(9, 8),
                            files={"RELEASE-NOTES": "8.22.0\n - next\n - more\n"})
    repo.tag("rc-8_22_0-1")
    upgrade = repo.commit("go.mod: Upgrade dependencies", author=ADA, date=_at(12, 8), files={"go.mod": "module curl\nrequire x v2\n"})
    repo.tag("v9.0.0")
    feature = repo.commit("url: add IPv6 zone ids", author=ADA, date=_at(15, 8), files={"lib/url.c": "int url = 2;\n"})
    repo.tag("curl-9_1_0")
    # goreleaser tags whatever its main branch holds: a page of the docs, the code of its
    # changelog package (no changelog: code)
    docs = repo.commit("docs: semver docs improvements", author=ADA, date=_at(18, 8), files={"docs/semver.md": "semver\n"})
    repo.tag("v9.2.0")
    code = repo.commit("changelog: first release defaults to the git changelogger", author=ADA, date=_at(21, 8),
                       files={"internal/pipe/changelog/changelog.go": "package changelog\n"})
    repo.tag("v9.3.0")
    # the notes name the version the tag names (9.5 is 9.5.0), or another one (a tag moved:
    # angular/components' `bump version to 6.0.0-beta.4 w/ changelog` carries 5.2.4)
    named = repo.commit("RELEASE-NOTES: cleaned up for 9.5", author=ADA, date=_at(24, 8), files={"RELEASE-NOTES": "9.5\n"})
    repo.tag("curl-9_5_0")
    other = repo.commit("RELEASE-NOTES: cleaned up for 9.7", author=ADA, date=_at(27, 8), files={"RELEASE-NOTES": "9.7\n"})
    repo.tag("curl-9_6_1")
    out, items = _run(repo, name="curl/curl", tags=True)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[synced] == wid[thanks] != wid[fix]
    assert _item(items, wid[synced])["title"] == "Release 8.21.0"
    assert _item(items, wid[synced])["category"] == "chore"
    assert _item(items, wid[named])["title"] == "Release 9.5"
    for sha in (later, candidate, upgrade, feature, docs, code, other):
        assert not _item(items, wid[sha])["title"].startswith("Release"), sha
    assert _item(items, wid[feature])["category"] == "feature"
    # without the tags, the sync is docs work like any other
    out, items = _run(repo, name="curl/curl")
    assert _item(items, dict(out.select("sha", "work_item_id").rows())[synced])["title"] == "RELEASE-NOTES: synced"


def test_a_tag_on_a_change_names_the_release_prepared_just_before_it(tmp_path):
    """jq tags 1.8.2 on a dependabot bump three days after `Update NEWS.md and AUTHORS for
    1.8.2`; fd tags 8.4.0 on `Update jemalloc to 5.3`, twenty minutes after `Bump version`:
    the release is the record prepared last before the tag (it sets the version or names it).
    fd's `Update CHANGELOG` nine minutes after `Updates for fd 8.5.1` is that release's, not a
    step of 8.5.2 the next day. A Go module's `Run go.mod tidy` sets no version: a tag on the
    change after it makes it no release. ripgrep's `grep-cli: release 0.1.2`, tagged
    grep-cli-0.1.2, is named with its package."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "NEWS.md": "1.8.1\n", "AUTHORS": "Ada\n", "Cargo.toml": 'version = "8.3.0"\n', "Cargo.lock": "a\n",
        "CHANGELOG.md": "8.3.0\n", "README.md": "fd 8.3.0\n", "src/main.rs": "fn main() {}\n", "go.mod": "module x\n",
        "main.go": "package main\n"})
    news = repo.commit("Update NEWS.md and AUTHORS for 1.8.2", author=ADA, date=_at(2, 8),
                       files={"NEWS.md": "1.8.2\n1.8.1\n", "AUTHORS": "Ada\nBob\n"})
    bot = repo.commit("build(deps): bump actions/checkout from 6 to 7", author=BOT, date=_at(4, 20),
                      files={".github/workflows/ci.yml": "uses: actions/checkout@v7\n"})
    repo.tag("v1.8.2")
    bump = repo.commit("Bump version", author=ADA, date=_at(7, 21), files={"Cargo.toml": 'version = "8.4.0"\n', "Cargo.lock": "b\n"})
    deps = repo.commit("Update dependencies", author=ADA, date="2025-03-07T21:11:00+0000", files={"Cargo.lock": "c\n"})
    jemalloc = repo.commit("Update jemalloc to 5.3 (jemallocator 0.5)", author=ADA, date="2025-03-07T21:20:00+0000",
                           files={"Cargo.toml": 'version = "8.4.0"\njemalloc = "0.5"\n', "Cargo.lock": "d\n"})
    repo.tag("v8.4.0")
    first = repo.commit("Updates for fd 8.5.1", author=ADA, date=_at(10, 12), files={
        "Cargo.toml": 'version = "8.5.1"\njemalloc = "0.5"\n', "CHANGELOG.md": "8.5.1\n8.3.0\n", "README.md": "fd 8.5.1\n"})
    repo.tag("v8.5.1")
    touch_up = repo.commit("Update CHANGELOG", author=ADA, date="2025-03-10T12:09:00+0000",
                           files={"CHANGELOG.md": "8.5.1 (2025-03-10)\n8.3.0\n"})
    second = repo.commit("Updates for fd 8.5.2", author=ADA, date=_at(11, 8), files={
        "Cargo.toml": 'version = "8.5.2"\njemalloc = "0.5"\n', "CHANGELOG.md": "8.5.2\n8.5.1 (2025-03-10)\n8.3.0\n"})
    repo.tag("v8.5.2")
    tidy = repo.commit("Run go.mod tidy", author=ADA, date=_at(14, 8), files={"go.mod": "module x\n\ngo 1.22\n"})
    change = repo.commit("reverseproxy: retry dial errors", author=ADA, date=_at(15, 8), files={"main.go": "package main\n// retry\n"})
    repo.tag("v2.6.3")
    crate = repo.commit("grep-cli: release 0.1.2", author=ADA, date=_at(20, 8), files={"grep-cli/Cargo.toml": 'version = "0.1.2"\n'})
    repo.tag("grep-cli-0.1.2")
    # fd's `Prepare 8.1.0 release` (the version, with the README's and the man page's), three
    # minutes before `Update dependencies`, tagged v8.1.0: the release, named by its tag
    prepare = repo.commit("Prepare 8.1.0 release", author=ADA, date=_at(24, 8), files={
        "Cargo.toml": 'version = "8.1.0"\njemalloc = "0.5"\n', "README.md": "fd 8.1.0\n", "doc/fd.1": ".TH FD 1 8.1.0\n"})
    repo.commit("Update dependencies", author=ADA, date="2025-03-24T08:03:00+0000", files={"Cargo.lock": "e\n"})
    repo.tag("v8.1.0")
    out, items = _run(repo, name="sharkdp/fd", tags=True)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert _item(items, wid[news])["title"] == "Release 1.8.2"
    assert wid[bot] is None or wid[bot] != wid[news]
    assert _item(items, wid[bump])["title"] == "Release 8.4.0"
    assert wid[deps] != wid[bump] and wid[jemalloc] != wid[bump]
    assert wid[first] == wid[touch_up] != wid[second]
    assert _item(items, wid[first])["title"] == "Release 8.5.1"
    assert _item(items, wid[second])["title"] == "Release 8.5.2"
    assert not _item(items, wid[tidy])["title"].startswith("Release")
    assert _item(items, wid[change])["title"] == "reverseproxy: retry dial errors"
    assert _item(items, wid[crate])["title"] == "Release grep-cli 0.1.2"
    assert _item(items, wid[prepare])["title"] == "Release 8.1.0"


def test_a_pull_request_named_by_a_version_that_changes_the_code_is_that_change(tmp_path):
    """zod's `Zod 4.1 (#5130)` squashed 3,803 lines of new code under the version's name: a
    feature, not release work; readers of httpx and zod had found such squashes filed as
    releases. A release pull request that only sets the version, or a maintainer's release
    commit with a rebuilt bundle, stays a release."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "package.json": '{"version": "4.0.0"}\n', "src/schemas.ts": "export const a = 1;\n"})
    code = "".join(f"export function check{i}(value: unknown): boolean {{ return typeof value === 'string'; }}\n" for i in range(120))
    big = repo.commit("Zod 4.1 (#5130)\n\n* Add z.codec for bidirectional transforms\n* Add .overwrite() method\n",
                      author=ADA, date=_at(3, 9),
                      files={"package.json": '{"version": "4.1.0"}\n', "src/schemas.ts": "export const a = 1;\n" + code,
                             "src/codec.ts": code})
    small = repo.commit("Zod 4.1.1 (#5140)", author=ADA, date=_at(6, 9),
                        files={"package.json": '{"version": "4.1.1"}\n', "src/schemas.ts": "export const a = 2;\n" + code})
    bundle = repo.commit("v4.1.2", author=ADA, date=_at(9, 9), files={
        "package.json": '{"version": "4.1.2"}\n', "packages/treeshake/out.js": code.replace("export ", "") * 3})
    out, items = _run(repo, name="colinhacks/zod")
    wid = dict(out.select("sha", "work_item_id").rows())
    assert _item(items, wid[big])["title"] == "Zod 4.1"
    assert _item(items, wid[big])["category"] == "feature"
    assert _item(items, wid[small])["title"] == "Release Zod 4.1.1"
    assert _item(items, wid[bundle])["title"] == "Release 4.1.2"


def test_a_dependency_update_the_changelog_lists_is_no_release_step(tmp_path):
    """express: `deps: body-parser@1.19.2` and `deps: qs@6.9.7` (package.json and a line in
    History.md each) the night before `4.17.3` are changes the release lists, not steps of it;
    a bump of the lock file alone on release day stays a step (ripgrep's `deps: update
    everything`)."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "index.js": "module.exports = 1\n", "package.json": '{"version": "4.17.2"}\n',
        "package-lock.json": "{}\n", "History.md": "4.17.2\n"})
    body_parser = repo.commit("deps: body-parser@1.19.2", author=ADA, date=_at(3, 9), files={
        "package.json": '{"version": "4.17.2", "body-parser": "1.19.2"}\n',
        "History.md": "unreleased\n  * deps: body-parser@1.19.2\n4.17.2\n"})
    qs = repo.commit("deps: qs@6.9.7", author=ADA, date=_at(3, 10), files={
        "package.json": '{"version": "4.17.2", "body-parser": "1.19.2", "qs": "6.9.7"}\n',
        "History.md": "unreleased\n  * deps: body-parser@1.19.2\n  * deps: qs@6.9.7\n4.17.2\n"})
    lock = repo.commit("deps: update everything", author=ADA, date=_at(3, 20),
                       files={"package-lock.json": '{"qs": "6.9.7"}\n'})
    release = repo.commit("4.17.3", author=ADA, date=_at(3, 21), files={
        "package.json": '{"version": "4.17.3", "body-parser": "1.19.2", "qs": "6.9.7"}\n',
        "History.md": "4.17.3\n  * deps: body-parser@1.19.2\n  * deps: qs@6.9.7\n4.17.2\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[lock] == wid[release]
    assert wid[body_parser] != wid[release] and wid[qs] != wid[release]
    assert _item(items, wid[release])["title"] == "Release 4.17.3"
    assert _item(items, wid[release])["commits"] == 2
    assert _item(items, wid[qs])["category"] == "build"


def test_two_releases_are_two_items_however_alike(tmp_path):
    """nlohmann/json: `:bookmark: set version to 3.11.0` and, a day later, `:bookmark: set
    version to 3.11.1` (the same 150 files, the same words) were one item titled 3.11.0."""
    repo = GitScript.init(tmp_path / "repo")
    files = ["include/json.hpp", "meson.build", "CMakeLists.txt"]
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={f: "3.10.5\n" for f in files})
    first = repo.commit(":bookmark: set version to 3.11.0", author=ADA, date=_at(2, 23),
                        files={f: "3.11.0\n" for f in files})
    second = repo.commit(":bookmark: set version to 3.11.1", author=ADA, date=_at(3, 22),
                         files={f: "3.11.1\n" for f in files})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[first] != wid[second]
    assert _item(items, wid[first])["title"] == "Release 3.11.0"
    assert _item(items, wid[second])["title"] == "Release 3.11.1"
    assert _item(items, wid[second])["category"] == "chore"


def test_the_changelog_opened_for_the_next_version_is_the_releases_last_step(tmp_path):
    """requests: `v2.18.3`, then two minutes later "Prepare changelog for next release" (an
    empty section in HISTORY.rst) had been an item of its own, and one such stub joined the
    next release, 2.18.4, two hours after it."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "requests/__version__.py": "__version__ = '2.18.2'\n", "HISTORY.rst": "2.18.2\n", "requests/api.py": "x = 1\n"})
    release = repo.commit("v2.18.3", author=ADA, date="2025-03-03T10:00:00+0000", files={
        "requests/__version__.py": "__version__ = '2.18.3'\n", "HISTORY.rst": "2.18.3\n2.18.2\n"})
    stub = repo.commit("Prepare changelog for next release", author=ADA, date="2025-03-03T10:02:00+0000",
                       files={"HISTORY.rst": "dev\n2.18.3\n2.18.2\n"})
    heading = repo.commit("Changelog for 2.18.4", author=ADA, date="2025-03-03T12:00:00+0000",
                          files={"HISTORY.rst": "2.18.4\n2.18.3\n2.18.2\n"})
    release2 = repo.commit("v2.18.4", author=ADA, date="2025-03-03T12:05:00+0000",
                           files={"requests/__version__.py": "__version__ = '2.18.4'\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[stub] == wid[release] != wid[release2]
    assert wid[heading] == wid[release2]
    assert _item(items, wid[release])["title"] == "Release 2.18.3"
    assert _item(items, wid[release])["category"] == "chore"


def test_a_readme_edit_does_not_pull_a_code_change_into_a_docs_item(tmp_path):
    """httpx: `Update README`, then `Reorganise structure` (code and the README), then `Fix
    docstrings` in the moved module: the README relates documentation edits to each other, not
    the reorganisation to them; the code files relate the reorganisation to its follow-up."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"README.md": "# app\n", "app/models.py": "class Response:\n    pass\n"})
    readme1 = repo.commit("Update README", author=ADA, date=_at(2, 9), files={"README.md": "# app\n\nUsage.\n"})
    readme2 = repo.commit("Add usage examples", author=ADA, date=_at(2, 10),
                          files={"README.md": "# app\n\nUsage.\n\n    app.get()\n"})
    reorg = repo.commit("Reorganise structure", author=ADA, date=_at(2, 11),
                        files={"README.md": "# app\n\nUsage.\n\n    app.core.get()\n",
                               "app/core/models.py": "class Response:\n    pass\n", "app/models.py": None})
    docstrings = repo.commit("Fix docstrings", author=ADA, date=_at(2, 12),
                             files={"app/core/models.py": "class Response:\n    '''A response.'''\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[readme1] == wid[readme2]
    assert wid[reorg] == wid[docstrings]
    assert wid[readme2] != wid[reorg]
    assert _item(items, wid[readme1])["category"] == "docs"
    assert _item(items, wid[readme1])["commits"] == 2
    assert _item(items, wid[reorg])["commits"] == 2


def test_a_shared_test_file_relates_a_change_to_its_tests_not_two_changes(tmp_path):
    """fzf: a highlight fix and "Add fast path for single-character patterns", each with a case
    in test/test_core.rb, were one item; a commit of tests alone still joins the change."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/terminal.go": "package fzf\n", "src/algo.go": "package algo\n", "test/test_core.rb": "t0\n"})
    fix = repo.commit("Fix highlight offset after a wide character", author=ADA, date=_at(2, 9),
                      files={"src/terminal.go": "package fzf\n// wide\n", "test/test_core.rb": "t0\nt1\n"})
    fast = repo.commit("Add fast path for single-character patterns", author=ADA, date=_at(2, 11),
                       files={"src/algo.go": "package algo\n// fast\n", "test/test_core.rb": "t0\nt1\nt2\n"})
    more = repo.commit("More cases for the fast path", author=ADA, date=_at(2, 12),
                       files={"test/test_core.rb": "t0\nt1\nt2\nt3\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[fix] != wid[fast]
    assert wid[more] == wid[fast]


def test_an_advisory_merge_is_a_fix_named_by_what_it_fixed(tmp_path):
    # GitHub's wording before 2024 (`Merge pull request from GHSA-...`, one parent): vapor's three
    # crash and DoS fixes had been chores titled by the advisory's id; their branches open with
    # the test (`* Add test for crash`).
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"app.py": "x = 1\n"})
    repo.commit("Merge pull request from GHSA-vj2m-9f5j-mpr5\n\n* Add failing test for crash\n\n"
                "* The sensible option\n\n* Throw an error if the range start is negative\n\n* Fix test\n",
                author=ADA, date=_at(3, 9), files={"range.py": "def check(r): assert r >= 0\n",
                                                   "test_range.py": "def test(): ...\n"})
    repo.commit("Merge pull request from GHSA-qvxg-wjxc-r4gg", author=BOB, date=_at(6, 9),
                files={"forms.py": "LIMIT = 32\n"})
    out, items = _run(repo)
    got = by_subject(out, "work_item_id")
    first = _item(items, got["Merge pull request from GHSA-vj2m-9f5j-mpr5"])
    assert (first["category"], first["title"]) == ("bug", "Throw an error if the range start is negative")
    second = _item(items, got["Merge pull request from GHSA-qvxg-wjxc-r4gg"])
    assert (second["category"], second["title"]) == ("bug", "Fix security advisory GHSA-qvxg-wjxc-r4gg")


def test_an_advisory_merge_that_lists_nothing_says_it_fixed_a_vulnerability(tmp_path):
    """caddy: three `Merge commit from fork` items (GitHub's advisory merge since 2024, a body
    that explains the fix and lists no commit) were titled `Merge commit from fork`."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=BOB, date=_at(1, 9), files={"matchers.go": "package http\n"})
    repo.commit("Merge commit from fork\n\nNecessary as otherwise the early-bail in `until` can cause a\n"
                "case-insensitive mismatch\n\nCo-authored-by: Bob <bob@example.com>\n",
                author=ADA, date=_at(3, 9), files={"matchers.go": "package http\nvar lower = true\n",
                                                   "matchers_test.go": "package http\n"})
    out, items = _run(repo)
    advisory = _item(items, by_subject(out, "work_item_id")["Merge commit from fork"])
    assert (advisory["category"], advisory["title"]) == ("bug", "Fix a security vulnerability")


def test_a_web_editors_default_subject_gives_way_to_the_body_that_says_what_changed(tmp_path):
    # vapor's `Update api-docs.yml` said "Fix API docs permissions" in its body; a body that
    # opens with no statement (`To prevent the following compiler message:`) says nothing
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"app.py": "x = 1\n", "format.h": "int f();\n"})
    repo.commit("Update api-docs.yml\n\nFix API docs permissions", author=ADA, date=_at(3, 9),
                files={".github/workflows/api-docs.yml": "permissions: {contents: read}\n"})
    repo.commit("Update format.h\n\nTo prevent the following compiler message:\n  warning: unused", author=BOB,
                date=_at(6, 9), files={"format.h": "int f(void);\n"})
    repo.commit("Add image.Exif\n\nImplemented by most Resource objects.", author=ADA, date=_at(9, 9),
                files={"image.py": "def exif(): ...\n"})
    out, items = _run(repo)
    got = by_subject(out, "work_item_id")
    assert _item(items, got["Update api-docs.yml"])["title"] == "Fix API docs permissions"
    assert _item(items, got["Update format.h"])["title"] == "Update format.h"
    assert _item(items, got["Add image.Exif"])["title"] == "Add image.Exif"


def test_a_submodule_moved_under_a_terse_subject_is_named_by_the_submodule(tmp_path):
    # babashka: `SCI`, `fs` (gitlink bumps alone) had been items titled so; a subject that says
    # something stays (`1.13 destructuring`)
    repo = GitScript.init(tmp_path / "repo")
    first = repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"app.py": "x = 1\n"})
    second = repo.commit("Add the reader", author=ADA, date=_at(1, 10), files={"reader.py": "y = 1\n"})
    (repo.path / "sci").mkdir()  # a submodule not checked out: `git add -A` keeps its gitlink
    for day, (subject, target) in enumerate([("SCI", first), ("1.13 destructuring", second)], start=3):
        repo.git("update-index", "--add", "--cacheinfo", f"160000,{target},sci")
        repo.commit(subject, author=ADA, date=_at(day * 3, 9))
    out, items = _run(repo)
    got = by_subject(out, "work_item_id")
    assert _item(items, got["SCI"])["title"] == "Update sci submodule"
    assert _item(items, got["1.13 destructuring"])["title"] == "1.13 destructuring"


def test_empty_commits_are_no_work_item(tmp_path):
    # A security-advisory squash ("Merge commit from fork") followed by two empty commits that
    # repeat its commits' subjects, and an empty release pin: nothing changed, nothing fixed.
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"app.py": "x = 1\n"})
    repo.commit("Merge commit from fork\n\n* fix(security): code credential does not respect the setting\n\n"
                "Details in the advisory.\n\n* fix: normalize code credentials\n",
                author=ADA, date=_at(5, 9), files={"auth.py": "def check(): return False\n"})
    for hour, subject in ((10, "fix(security): code credential does not respect the setting"),
                          (11, "chore: pin v1.2.0 release commit")):
        repo.commit(subject, author=ADA, date=_at(5, hour), allow_empty=True)
    repo.commit("fix: reject empty passwords", author=ADA, date=_at(9, 9), files={"passwords.py": "MIN = 1\n"})
    out, items = _run(repo)
    got = by_subject(out, "work_item_id")
    assert got["fix(security): code credential does not respect the setting"] is None
    assert got["chore: pin v1.2.0 release commit"] is None
    assert got["fix: reject empty passwords"] is not None
    assert items["commits"].sum() == 3  # the initial commit, the advisory merge, the fix
    # the advisory merge reads as the first commit it lists, not as GitHub's placeholder
    advisory = _item(items, got["Merge commit from fork"])
    assert advisory["title"] == "code credential does not respect the setting"
    assert advisory["category"] == "bug"
    # the profile's credit (features, bugs fixed) does not turn them into items of their own
    from exceeds_pipeline.history.tables import month_expr
    from exceeds_pipeline.rollups.rollups import work_item_credit

    counted = out.with_columns(pl.lit(True).alias("is_counted"), month_expr().alias("month"))
    credit = work_item_credit(counted, items)
    assert sorted(credit["work_item_id"].to_list()) == sorted(items["work_item_id"].to_list())
    assert credit.filter(pl.col("category") == "bug").height == 2  # the advisory merge, the password fix


def test_declared_features_and_fixes_stay_apart_and_machine_made_files_relate_nothing(tmp_path):
    from exceeds_pipeline.enrich.exclusions import classify_exclusions

    repo = GitScript.init(tmp_path / "repo")
    steps = [
        # one afternoon of typed commits on the same file: each feat/fix is a change of its own,
        # the commits in between stay with the change before them
        ("feat: add MFA for non-browser clients", {"mfa.go": "package mfa\n// v1\n"}),
        ("test: cover MFA for non-browser clients", {"mfa.go": "package mfa\n// v2\n", "mfa_test.go": "package mfa\n"}),
        ("feat: add authenticators after set up", {"mfa.go": "package mfa\n// v3\n"}),
        ("fix: typo in the authenticator label", {"mfa.go": "package mfa\n// v4\n"}),
        ("chore: format", {"mfa.go": "package mfa\n// v5\n"}),
        # the same fix declared again is that fix tried again (json's `:ambulance: fix
        # documentation job` twice)
        ("fix: documentation job", {"docs/Makefile": "all:\n\tmkdocs build\n"}),
        ("fix: documentation job.", {"docs/Makefile": "all:\n\tpip install -U pip\n\tmkdocs build\n"}),
        # two changes that share only a generated file (regenerated by each) are unrelated
        ("Add CSV export", {"export.py": "def csv(): ...\n", "api/client.pb.go": "package api\n// 1\n"}),
        ("Tweak the login page", {"login.py": "TITLE = 'Sign in'\n", "api/client.pb.go": "package api\n// 2\n"}),
    ]
    for i, (subject, files) in enumerate(steps):
        repo.commit(subject, author=ADA, date=_at(4, 9 + i), files=files)
    commits, files = read_repo(repo)
    files = classify_exclusions(files)
    assert files.filter(pl.col("path") == "api/client.pb.go")["exclusion_reason"].to_list() == ["generated", "generated"]
    links = commit_links(commits)
    out, items = assign_work_items(categorize_commits(commits, files, links), links, files)
    item = by_subject(out, "work_item_id")
    assert item["test: cover MFA for non-browser clients"] == item["feat: add MFA for non-browser clients"]
    assert item["feat: add authenticators after set up"] != item["feat: add MFA for non-browser clients"]
    assert item["fix: typo in the authenticator label"] != item["feat: add authenticators after set up"]
    assert item["chore: format"] == item["fix: typo in the authenticator label"]
    assert item["fix: documentation job"] == item["fix: documentation job."] != item["chore: format"]
    assert item["Tweak the login page"] != item["Add CSV export"]
    cats = dict(items.select("work_item_id", "category").iter_rows())
    assert [cats[item[s]] for s in ("feat: add MFA for non-browser clients", "feat: add authenticators after set up",
                                     "fix: typo in the authenticator label")] == ["feature", "feature", "bug"]


def test_capabilities_stated_one_by_one_on_one_file_are_changes_of_their_own(tmp_path):
    """sidekiq: Mike Perham's eleven commits on bin/tui over three days (`Add support for table
    pagination ...`, `Implement table row selection`, `Implement set row deletion`, `Add id method
    to API models ...`, fixes between them) had been one item, related by the file alone. Each
    stated capability is a change of its own, its fixes stay with it; one that names what the one
    before named in a rare word continues it (curl's `added memory debugging include file`, then
    `added memory debugging support`), and so does one that says it adds more."""
    repo = GitScript.init(tmp_path / "repo")
    steps = [
        ("Add support for pagination, use vim keys for movement", "# 1\n"),
        ("fix queues tab", "# 2\n"),
        ("Implement row selection", "# 3\n"),
        ("Implement set deletion", "# 4\n"),
        ("metrics graph display fix", "# 5\n"),
        ("Added profiler include file", "# 6\n"),
        ("Added profiler support", "# 7\n"),
        ("Add more keys", "# 8\n"),
    ]
    for i, (subject, text) in enumerate(steps):
        repo.commit(subject, author=ADA, date=_at(4, 9 + i), files={"bin/tui": text})
    out, _ = _run(repo)
    item = by_subject(out, "work_item_id")
    assert item["fix queues tab"] == item["Add support for pagination, use vim keys for movement"]
    assert item["Implement row selection"] != item["fix queues tab"]
    assert item["Implement set deletion"] != item["Implement row selection"]
    assert item["metrics graph display fix"] == item["Implement set deletion"]
    assert item["Added profiler include file"] != item["metrics graph display fix"]
    assert item["Added profiler support"] == item["Added profiler include file"]
    assert item["Add more keys"] == item["Added profiler support"]


def test_a_reused_pr_branch_name_still_labels_each_pr_and_a_fix_branch_of_only_docs_is_docs(tmp_path):
    """litestar: `doc-update` was the branch of several pull requests (each its own item), and
    pr-370 from it (2 chore, 2 docs and 2 small fix commits) was a bug by a vote tie; a branch
    `fix-readme-example` that only edits the README is documentation work; a `fixes` branch whose
    test commits outnumber its code fixes is still a fix."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"app.py": "x = 1\n", "README.md": "# app\n"})

    def pr(number, branch, day, commits):
        repo.branch(branch, checkout=True)
        shas = [repo.commit(subject, author=BOB, date=_at(day, 9 + i), files=files)
                for i, (subject, files) in enumerate(commits)]
        repo.checkout("main")
        repo.merge(branch, f"Merge pull request #{number} from bob/{branch}", author=ADA, date=_at(day, 20))
        repo.git("branch", "-D", branch)
        return shas

    first = pr(30, "doc-update", 2, [("Describe the config", {"docs/config.md": "# config\n"})])
    second = pr(37, "doc-update", 4, [
        ("updated configs", {"app.py": "x = 2\n"}), ("updated route docs", {"app.py": "x = 3\n"}),
        ("add doc formatting", {"docs/config.md": "# Config\n"}), ("add doc formatting", {"docs/routes.md": "# Routes\n"}),
        ("address validation issues", {"app.py": "x = 4\n"}), ("fix py 3.7 comp", {"app.py": "x = 5\n"})])
    readme = pr(55, "fix-readme-example", 6, [('Remove "]" in README code block', {"README.md": "# the app\n"})])
    # urfave/cli's `cleanup_docs_...` branch of documentation pages alone had read as a refactoring
    cleanup = pr(58, "cleanup_docs_value_source", 7, [("Add docs for advanced value source", {"docs/sources.md": "# Sources\n"}),
                                                      ("Cleanup docs", {"docs/sources.md": "# Value sources\n"})])
    fixes = pr(61, "fixes", 8, [
        ("Add failing test", {"tests/test_app.py": "def test_a(): ...\n"}),
        ("Handle return annotations", {"app.py": "x = 6\n"}),
        ("Add failing test", {"tests/test_app.py": "def test_b(): ...\n"}),
        ("Improve test quality", {"tests/test_app.py": "def test_c(): ...\n"})])
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert _item(items, wid[first[0]])["category"] == "docs"
    assert _item(items, wid[second[0]])["category"] == "docs"
    assert _item(items, wid[readme[0]])["category"] == "docs"
    assert _item(items, wid[cleanup[0]])["category"] == "docs"
    assert _item(items, wid[fixes[0]])["category"] == "bug"


def test_a_branch_name_is_read_past_its_fix_prefix(tmp_path):
    # `fix-linting-errors` names lint work; `fix-empty-config` a repair: both merged by pull request
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"app.py": "x = 1\n", "cfg.py": "y = 1\n"})
    for pr, branch, work, files in [
        (7, "fix-linting-errors", "Rename the ambiguous variable l", {"app.py": "value = 1\n"}),
        (8, "fix-empty-config", "Return defaults for an empty config", {"cfg.py": "y = 2\n"}),
    ]:
        repo.branch(branch, checkout=True)
        repo.commit(work, author=BOB, date=_at(pr - 5, 10), files=files)
        repo.checkout("main")
        repo.merge(branch, f"Merge pull request #{pr} from bob/{branch}\n\n{work}", author=ADA, date=_at(pr - 5, 12))
    _, items = _run(repo)
    kinds = dict(zip(items["work_item_id"], items["category"]))
    assert kinds["acme/app#pr-7"] == "chore"
    assert kinds["acme/app#pr-8"] == "bug"


def test_a_branch_prefix_one_person_puts_on_every_branch_is_no_label(tmp_path):
    """nlohmann/json: Niels Lohmann names nearly every branch `feature/…` (`feature/issue2863`),
    fixes too; 15 of his 16 such pull requests had read as features. A prefix all of one
    person's named branches share is a habit: the titles and commits decide. Who names
    branches of several kinds (`fix/…` beside `feature/…`) labels each with its prefix."""
    carol = ("Carol Reed", "carol@example.com")
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"src/parse.c": "int x;\n"})
    prs = [(11, BOB, "feature/issue11", "Fix overflow in the parser"), (12, BOB, "feature/stream", "Add a streaming reader"),
           (13, BOB, "feature/issue13", "Fix a crash on empty input"), (14, BOB, "feature/comments", "Support comments in the config"),
           (15, BOB, "feature/issue15", "Fix the wrong offset in errors"),
           (21, carol, "feature/retry", "Fix retries after a timeout"), (22, carol, "fix/offsets", "Report offsets in bytes"),
           (23, carol, "feature/a", "Add an array reader"), (24, carol, "feature/b", "Add a binary reader"),
           (25, carol, "feature/c", "Add a CBOR reader")]
    for n, (pr, who, branch, title) in enumerate(prs):
        repo.branch(branch, checkout=True)
        repo.commit(title, author=who, date=_at(2 + n, 10), files={f"src/m{pr}.c": f"int f{pr}(void) {{ return {pr}; }}\n"})
        repo.checkout("main")
        repo.merge(branch, f"Merge pull request #{pr} from x/{branch}\n\n{title}", author=ADA, date=_at(2 + n, 12))
    _, items = _run(repo)
    kinds = dict(zip(items["work_item_id"], items["category"]))
    assert [kinds[f"acme/app#pr-{pr}"] for pr in (11, 12, 13, 14, 15)] == ["bug", "feature", "bug", "feature", "bug"]
    assert kinds["acme/app#pr-21"] == "feature" and kinds["acme/app#pr-22"] == "bug"


def test_a_commit_that_points_back_at_the_one_just_made_joins_it(tmp_path):
    """click: `Added missing module` adds, 49 seconds later, the module `Print out supported
    locales ...` moved code into and forgot; `Forgot to add the hooks sub-package` likewise. No
    file is shared. Another component's `forgotten` work (redis's `Slave removal: add a few
    forgotten aliases` after `LOLWUT: ...`) and a release commit before it stay apart."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"click/core.py": "x = 1\n", "src/config.c": "int a;\n"})
    change = repo.commit("Print out supported locales in the python 3 error", author=ADA, date="2025-03-02T11:01:00+0000",
                         files={"click/core.py": "from ._unicodefun import verify\nx = 1\n"})
    missing = repo.commit("Added missing module", author=ADA, date="2025-03-02T11:01:49+0000",
                          files={"click/_unicodefun.py": "def verify():\n    pass\n"})
    lolwut = repo.commit("LOLWUT: add Redis version in the output.", author=ADA, date="2025-03-03T19:36:00+0000",
                         files={"src/lolwut.c": "int v;\n"})
    aliases = repo.commit("Slave removal: add a few forgotten aliases for CONFIG SET.", author=ADA,
                          date="2025-03-03T19:43:00+0000", files={"src/config.c": "int a;\nint b;\n"})
    release = repo.commit("Prepare version 2.0.3.", author=ADA, date="2025-03-05T04:10:00+0000",
                          files={"CHANGELOG.md": "# 2.0.3\n"})
    oops = repo.commit("Oops, add the missing import", author=ADA, date="2025-03-05T04:14:00+0000",
                       files={"click/core.py": "import os\nfrom ._unicodefun import verify\nx = 1\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[change] == wid[missing]
    assert wid[lolwut] != wid[aliases]
    assert wid[release] != wid[oops]


def test_a_record_file_saved_again_minutes_later_with_nothing_new_to_say_is_one_edit(tmp_path):
    """httpie: `Update CHANGELOG.md` twice 17 s apart, `Update links` then `Update setup.py` two
    minutes later on setup.py alone, `Typo` in the changelog two minutes after the release that
    wrote it. Two changes that say what they do on one manifest (serde's `Make compiletest an
    optional dependency of the test suite`, `Set up clippy for serde_test`), an edit 20 minutes
    later, another author's, and a release after a change (`0.9.7`: a version, not a file name)
    stay apart."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"httpie/core.py": "x = 1\n", "CHANGELOG.md": "# log\n", "setup.py": "setup()\n",
                       "Cargo.toml": "[package]\n", "httpie/__init__.py": "v = '0.9.6'\n"})
    log1 = repo.commit("Update CHANGELOG.md", author=ADA, date="2025-03-02T10:32:07+0000", files={"CHANGELOG.md": "# log\n- a\n"})
    log2 = repo.commit("Update CHANGELOG.md", author=ADA, date="2025-03-02T10:32:24+0000", files={"CHANGELOG.md": "# log\n- b\n"})
    late = repo.commit("Update CHANGELOG.md", author=ADA, date="2025-03-02T10:52:24+0000", files={"CHANGELOG.md": "# log\n- c\n"})
    other = repo.commit("Update CHANGELOG.md", author=BOB, date="2025-03-02T10:53:00+0000", files={"CHANGELOG.md": "# log\n- d\n"})
    links = repo.commit("Update links", author=ADA, date="2025-03-03T11:25:13+0000", files={"setup.py": "setup(url=1)\n"})
    setup = repo.commit("Update setup.py", author=ADA, date="2025-03-03T11:27:12+0000", files={"setup.py": "setup(url=2)\n"})
    optional = repo.commit("Make compiletest an optional dependency of the test suite", author=ADA,
                           date="2025-03-04T09:00:00+0000", files={"Cargo.toml": "[package]\n[deps]\n"})
    clippy = repo.commit("Set up clippy for serde_test", author=ADA, date="2025-03-04T09:05:00+0000",
                         files={"Cargo.toml": "[package]\n[deps]\n[lints]\n"})
    feature = repo.commit("Added `ExitStatus.PLUGIN_ERROR` (7)", author=ADA, date="2025-03-05T09:00:00+0000",
                          files={"httpie/core.py": "x = 7\n", "CHANGELOG.md": "# log\n- e\n", "httpie/__init__.py": "v = '0.9.6'\nE = 7\n"})
    release = repo.commit("0.9.7", author=ADA, date="2025-03-05T09:03:00+0000",
                          files={"CHANGELOG.md": "# log\n## 0.9.7\n- e\n", "httpie/__init__.py": "v = '0.9.7'\nE = 7\n"})
    typo = repo.commit("Typo", author=ADA, date="2025-03-05T09:05:00+0000", files={"CHANGELOG.md": "# log\n## 0.9.7\n- E\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[log1] == wid[log2]
    assert len({wid[log2], wid[late], wid[other]}) == 3
    assert wid[links] == wid[setup]
    assert wid[optional] != wid[clippy]
    assert wid[feature] != wid[release]
    assert wid[release] == wid[typo]


def test_a_release_stays_a_release_with_its_touch_ups_and_apart_from_the_fix_it_ships(tmp_path):
    """httpie: `v1.0.2` (`Close #729`) 26 minutes after `Fix tests for installation with pyOpenSSL
    #729` is a release that ships the fix, not part of it; `Fixed Makefile` six minutes after
    `v0.9.5` (its formula updated between them) is a touch-up of that release, which stays a
    release ("Release 0.9.5")."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"httpie/__init__.py": "__version__ = '0.9.4'\n", "CHANGELOG.rst": "0.9.4\n",
                       "Makefile": "all:\n\ttrue\n", "tests/test_ssl.py": "def test_ssl():\n    pass\n"})
    release = repo.commit("v0.9.5", author=ADA, date="2025-03-02T20:51:42+0000",
                          files={"httpie/__init__.py": "__version__ = '0.9.5'\n", "CHANGELOG.rst": "0.9.5\n0.9.4\n",
                                 "Makefile": "all:\n\tpython setup.py sdist\n"})
    repo.commit("Homebrew formula for v0.9.5", author=ADA, date="2025-03-02T20:54:00+0000",
                files={"extras/httpie.rb": "class Httpie < Formula\nend\n"})
    makefile = repo.commit("Fixed Makefile", author=ADA, date="2025-03-02T20:57:44+0000",
                           files={"Makefile": "all:\n\tpython -m build\n", "extras/get-homebrew-formula-vars.py": "print(1)\n"})
    fix = repo.commit("Fix tests for installation with pyOpenSSL #729", author=ADA, date="2025-03-10T15:10:08+0000",
                      files={"tests/test_ssl.py": "def test_ssl():\n    assert True\n"})
    shipped = repo.commit("v1.0.2\n\nClose #729", author=ADA, date="2025-03-10T15:36:00+0000",
                          files={"httpie/__init__.py": "__version__ = '1.0.2'\n", "CHANGELOG.rst": "1.0.2\n0.9.5\n0.9.4\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[release] == wid[makefile]
    assert _item(items, wid[release])["title"] == "Release 0.9.5"
    assert wid[fix] != wid[shipped]
    assert _item(items, wid[shipped])["title"] == "Release 1.0.2"
    assert _item(items, wid[fix])["category"] != "chore"


def test_tries_of_a_ci_workflow_in_pull_requests_are_one_change(tmp_path):
    """axios: `Add action to update sponsor list in Readme.md (#6552)`, then four `fix sponsors
    action` pull requests within three hours on the same workflow and its script: a workflow can
    only be tried once it has landed. A pull request on other files between them, a try more
    than CI_TRY_GAP later and a release step stay apart."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"lib/client.js": "let a = 1\n", "package.json": '{"version": "1.0.0"}\n'})
    wf = ".github/workflows/sponsors.yml"
    add = repo.commit("chore(actions): Add action to update sponsor list in Readme.md; (#6552)", author=ADA,
                      date="2025-03-02T17:13:00+0000", files={wf: "on: push\n", "bin/sponsors.js": "run()\n", "README.md": "# x\n"})
    fix1 = repo.commit("chore(action): fix sponsors action; (#6554)", author=ADA, date="2025-03-02T17:46:00+0000",
                       files={wf: "on: [push]\n", "bin/sponsors.js": "run(1)\n", ".gitignore": "tmp/\n"})
    fix2 = repo.commit("chore(action): fix sponsors action; (#6556)", author=ADA, date="2025-03-02T19:07:00+0000",
                       files={"bin/sponsors.js": "run(2)\n"})
    client = repo.commit("fix: retry the request on reset (#6558)", author=ADA, date="2025-03-02T19:30:00+0000",
                         files={"lib/client.js": "let a = 2\n"})
    late = repo.commit("chore(action): fix sponsors action; (#6570)", author=ADA, date="2025-03-03T09:00:00+0000",
                       files={wf: "on: [push, schedule]\n"})
    release = repo.commit("Release 1.0.1 (#6571)", author=ADA, date="2025-03-03T09:20:00+0000",
                          files={wf: "on: [push, schedule]\nenv: {}\n", "package.json": '{"version": "1.0.1"}\n', "CHANGELOG.md": "# 1.0.1\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[add] == wid[fix1] == wid[fix2]
    assert len({wid[add], wid[client], wid[late], wid[release]}) == 4
    assert items.filter(pl.col("work_item_id") == wid[add])["commits"].item() == 3


def test_two_pull_requests_on_the_ci_config_are_tries_only_when_the_later_says_so(tmp_path):
    """urfave/cli: `Switch branch references from master to main (#1358)`, then `Update
    dependencies and go.mod spec (#1359)` an hour later, both editing the CI workflow: two merged
    pull requests, two changes. A later one worded as another go (`fix ...`, `chore(ci): try
    ...`) is a try of the first; so is one that names what the first did by a rare word."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"cli.go": "package cli\n", "go.mod": "module cli\n"})
    wf = ".github/workflows/cli.yml"
    switch = repo.commit("Switch branch references from master to main (#1358)", author=ADA,
                         date="2025-03-02T10:00:00+0000", files={wf: "on: [push]\nbranches: [main]\n", "README.md": "main\n"})
    deps = repo.commit("Update dependencies and go.mod spec (#1359)", author=ADA, date="2025-03-02T11:00:00+0000",
                       files={wf: "on: [push]\nbranches: [main]\ngo: 1.18\n", "go.mod": "module cli\ngo 1.18\n"})
    retry = repo.commit("chore(ci): try the go 1.18 matrix again (#1360)", author=ADA, date="2025-03-02T11:40:00+0000",
                        files={wf: "on: [push]\nbranches: [main]\ngo: [1.18]\n"})
    gate = repo.commit("Add semver approval gate (#1400)", author=ADA, date="2025-03-05T10:00:00+0000",
                       files={wf: "on: [push]\njobs: {gate: {}}\n"})
    named = repo.commit("Run the semver gate on tags only (#1401)", author=ADA, date="2025-03-05T11:30:00+0000",
                        files={wf: "on: [push]\njobs: {gate: {if: tag}}\n"})
    # click: `update dev dependencies` on main, then `remove slsa provenance (#2973)` three
    # minutes later: a pull request's commit after its author's outside one says nothing of it
    direct = repo.commit("Update dev dependencies", author=ADA, date="2025-03-08T11:14:00+0000",
                         files={wf: "on: [push]\njobs: {gate: {if: tag}, lint: {}}\n", "requirements-dev.txt": "pytest==8\n"})
    provenance = repo.commit("Remove slsa provenance (#1410)", author=ADA, date="2025-03-08T11:17:00+0000",
                             files={wf: "on: [push]\njobs: {lint: {}}\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[switch] != wid[deps]
    assert wid[deps] == wid[retry]
    assert wid[gate] == wid[named]
    assert wid[gate] != wid[retry]
    assert wid[direct] != wid[provenance]


def test_a_commit_that_continues_the_one_before_last_joins_it(tmp_path):
    """Sidekiq: `Remove rack::utils usage, use CGI`, then `Rename example erb ...`, then `remove
    more rack::utils usage` nine minutes after the first, in another file. Without a word that
    says it carries on, a like subject one commit further is another change of its own."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=BOB, date=_at(1, 8), files={"lib/web/helpers.rb": "x = 1\n", "lib/web/router.rb": "y = 1\n",
                                                                 "lib/web/app.rb": "z = 1\n", "examples/a.erb": "a\n"})
    first = repo.commit("Remove rack::utils usage, use CGI", author=ADA, date="2025-03-02T20:24:00+0000",
                        files={"lib/web/helpers.rb": "x = CGI\n"})
    other = repo.commit("Rename example erb to follow the naming scheme", author=ADA, date="2025-03-02T20:29:00+0000",
                        files={"examples/a.erb": None, "examples/a.html.erb": "a\n"})
    more = repo.commit("remove more rack::utils usage", author=ADA, date="2025-03-02T20:33:00+0000",
                       files={"lib/web/router.rb": "y = CGI\n"})
    apart = repo.commit("Drop rack::utils from the app's views", author=ADA, date="2025-03-05T10:00:00+0000",
                        files={"examples/b.erb": "b\n"})
    between = repo.commit("Tidy the example index", author=ADA, date="2025-03-05T10:10:00+0000",
                          files={"examples/index.erb": "i\n"})
    later = repo.commit("Drop rack::utils from the app's router", author=ADA, date="2025-03-05T10:20:00+0000",
                        files={"lib/web/app.rb": "z = CGI\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[first] == wid[more] != wid[other]
    assert len({wid[apart], wid[between], wid[later], wid[first]}) == 4


def test_a_bare_bump_of_the_version_file_makes_a_release(tmp_path):
    """Sidekiq: Mike Perham writes `changes [ciskip]` (Changes.md), then `bump [ciskip]` a minute
    later (lib/sidekiq/version.rb alone): one release, not a docs item beside a build item. A
    bare `bump` of the Gemfile is a dependency, no release; a requirement that closes an issue
    just before the bump is a change of its own."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"lib/app/pager.rb": "x = 1\n", "lib/app/version.rb": "VERSION = '8.1.4'\n",
                       "Changes.md": "## 8.1.4\n", "Gemfile": "gem 'redis'\n"})
    feature = repo.commit("Add the pager limit, fixes #6992", author=ADA, date=_at(2, 9), files={"lib/app/pager.rb": "x = 2\n"})
    # a requirement that closes an issue, of the package's manifest alone: a change, no release step
    require = repo.commit("Require redis-rb 4.5.0, fixes #5394", author=ADA, date="2025-03-02T14:30:00+0000",
                          files={"app.gemspec": "s.add_dependency 'redis', '>= 4.5.0'\n"})
    changes = repo.commit("changes [ciskip]", author=ADA, date="2025-03-02T14:41:00+0000",
                          files={"Changes.md": "## 8.1.5\n- pager limit\n## 8.1.4\n"})
    bump = repo.commit("bump [ciskip]", author=ADA, date="2025-03-02T14:42:00+0000",
                       files={"lib/app/version.rb": "VERSION = '8.1.5'\n"})
    deps = repo.commit("bump", author=ADA, date=_at(4, 9), files={"Gemfile": "gem 'redis', '>= 5'\n"})
    # a step that names the version names the release its bare bump makes
    named = repo.commit("time for 8.1.6", author=ADA, date=_at(6, 9), files={"Changes.md": "## 8.1.6\n## 8.1.5\n"})
    bump2 = repo.commit("bump", author=ADA, date="2025-03-06T09:01:00+0000", files={"lib/app/version.rb": "VERSION = '8.1.6'\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[named] == wid[bump2] and _item(items, wid[bump2])["title"] == "Release 8.1.6"
    release = _item(items, wid[bump])
    assert wid[changes] == wid[bump] != wid[feature]
    assert (release["commits"], release["category"]) == (2, "chore")
    assert wid[require] != wid[bump]
    assert wid[deps] != wid[bump]


def test_a_version_set_alone_makes_a_release_and_build_scripts_are_build_work(tmp_path):
    """Newtonsoft.Json: `Update to 13.0.4` and `Remove prerelease for 13.0.3` (Build/version.json
    alone, the commits its tags name) had been build work, not releases; `Add code and package
    signing` (Build/Sign-Package.ps1, the pipeline) a feature. `Update to 2.0` of code is no
    release, nor is a dependency named before `to`."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"Build/version.json": '{"Major": 13, "Release": 2, "Prerelease": "beta1"}\n',
                       "Build/build.ps1": "Invoke-Build\n", "azure-pipelines.yml": "steps: []\n",
                       "Src/JsonReader.cs": "class JsonReader {}\n", "Src/Json.csproj": "<Project />\n"})
    prerelease = repo.commit("Remove prerelease for 13.0.3", author=ADA, date=_at(2, 9),
                             files={"Build/version.json": '{"Major": 13, "Release": 3}\n'})
    update = repo.commit("Update to 13.0.4", author=ADA, date=_at(4, 9),
                         files={"Build/version.json": '{"Major": 13, "Release": 4}\n', "Build/build.ps1": "Invoke-Build -v 13.0.4\n"})
    signing = repo.commit("Add code and package signing (#1895)", author=ADA, date=_at(6, 9),
                          files={"Build/Sign-Package.ps1": "Sign-File $args\n", "azure-pipelines.yml": "steps: [sign]\n"})
    code = repo.commit("Update to 2.0", author=ADA, date=_at(8, 9), files={"Src/JsonReader.cs": "class JsonReader { int v2; }\n"})
    dep = repo.commit("Update Newtonsoft.Json.Schema to 3.0.1", author=ADA, date=_at(10, 9),
                      files={"Src/Json.csproj": '<Project><PackageReference Version="3.0.1" /></Project>\n'})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert _item(items, wid[prerelease])["title"] == "Release 13.0.3"
    assert _item(items, wid[update])["title"] == "Release 13.0.4"
    assert _item(items, wid[update])["category"] == "chore"
    assert _item(items, wid[signing])["category"] == "build"
    assert _item(items, wid[code])["title"] != "Release 2.0"
    assert _item(items, wid[dep])["title"] != "Release 3.0.1"


def test_a_repair_or_a_revert_just_before_a_release_is_a_change_of_its_own(tmp_path):
    """vue: `fix(deps): move @babel/types back to dependencies` (package.json alone) 52 s before
    `release: v3.0.0-rc.4`, and `fix(build): revert "build: add export conditions"` 33 minutes
    before `release: v3.4.6`, had been hidden inside the releases (the revert no longer said in
    its month); a plain dependency bump before a release is still its step."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"package.json": '{"version": "3.0.0", "dependencies": {}}\n', "CHANGELOG.md": "# 3.0.0\n", "src/a.ts": "x\n"})
    fix = repo.commit("fix(deps): move @babel/types back to dependencies", author=ADA, date="2025-03-02T19:39:00+0000",
                      files={"package.json": '{"version": "3.0.0", "dependencies": {"@babel/types": "1"}}\n'})
    rel = repo.commit("release: v3.0.1", author=ADA, date="2025-03-02T19:40:00+0000",
                      files={"package.json": '{"version": "3.0.1", "dependencies": {"@babel/types": "1"}}\n', "CHANGELOG.md": "# 3.0.1\n# 3.0.0\n"})
    bump = repo.commit("chore: bump deps", author=ADA, date="2025-03-05T10:00:00+0000",
                       files={"package.json": '{"version": "3.0.1", "dependencies": {"@babel/types": "2"}}\n'})
    rel2 = repo.commit("release: v3.0.2", author=ADA, date="2025-03-05T10:10:00+0000",
                       files={"package.json": '{"version": "3.0.2", "dependencies": {"@babel/types": "2"}}\n', "CHANGELOG.md": "# 3.0.2\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[fix] != wid[rel]
    assert _item(items, wid[rel])["title"] == "Release 3.0.1"
    assert wid[bump] == wid[rel2] and _item(items, wid[rel2])["title"] == "Release 3.0.2"


def test_a_small_typed_commit_does_not_speak_for_a_large_change(tmp_path):
    """nlohmann/json: an 8-line `:bug:` commit inside a 4,075-line UBJSON implementation made
    the item a fix. A type its subject declares speaks for the item only with a real share of
    its code; a typed commit that carries the change still does."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"src/core.c": "int x;\n"})
    body = "".join(f"int ubjson_{i}(int v) {{ return v + {i}; }}\n" for i in range(120))
    for pr, branch, first, second in [
        (31, "ubjson", ("Write UBJSON values", {"src/ubjson.c": body}), (":bug: fix off-by-one", {"src/ubjson.c": body + "int z;\n"})),
        (32, "parser", (":bug: fix the parser's buffer overrun", {"src/parse.c": body}), ("Add a test", {"tests/t.c": "int t;\n"})),
    ]:
        repo.branch(branch, checkout=True)
        repo.commit(first[0], author=BOB, date=_at(pr - 28, 10), files=first[1])
        repo.commit(second[0], author=BOB, date=_at(pr - 28, 11), files=second[1])
        repo.checkout("main")
        repo.merge(branch, f"Merge pull request #{pr} from bob/{branch}\n\nUBJSON support" if pr == 31 else
                   f"Merge pull request #{pr} from bob/{branch}\n\nParser changes", author=ADA, date=_at(pr - 28, 12))
    _, items = _run(repo)
    kinds = dict(zip(items["work_item_id"], items["category"]))
    assert kinds["acme/app#pr-31"] == "feature"
    assert kinds["acme/app#pr-32"] == "bug"


def test_a_release_pull_request_is_release_work(tmp_path):
    # the small change that rides along with the version bump does not make it a feature
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"app.py": "x = 1\n", "CHANGELOG.md": "# 1.0\n"})
    _pr(repo, 3239, "release-3.4.1", 2, [
        ("Add --yes to towncrier to automatically remove files", {"tasks/release.py": "def release(yes=True):\n    pass\n"}),
        ("Preparing release version 3.4.1", {"CHANGELOG.md": "# 3.4.1\n\n- fixes\n\n# 1.0\n"})],
        author=BOB, merger=ADA, title="Release 3.4.1")
    # mdBook's release pull requests say `Update to 0.5.2`: the version bump in Cargo.toml and
    # Cargo.lock with the changelog's heading; the item is titled by the release, and release work
    _pr(repo, 2993, "update-0.5.2", 3, [("Update to 0.5.2", {
        "Cargo.toml": '[package]\nname = "mdbook"\nversion = "0.5.2"\n', "Cargo.lock": "[[package]]\nname = \"mdbook\"\nversion = \"0.5.2\"\n",
        "CHANGELOG.md": "# 0.5.2\n\n# 3.4.1\n\n- fixes\n\n# 1.0\n"})], merger=ADA)
    # bat's #1649 is titled `bat 0.18.1`, the repository's package at a version; no commit of it
    # names the version. `Python 3.12` names another package: a pull request of that title is
    # no release of this one
    _pr(repo, 1649, "v0.18.1", 4, [
        ("Bump version, update dependencies", {
            "Cargo.toml": '[package]\nname = "app"\nversion = "0.18.1"\n', "Cargo.lock": "[[package]]\nname = \"app\"\nversion = \"0.18.1\"\n"}),
        ("Update binary assets", {"assets/syntaxes.bin": b"\x00\x01bin\x00"})], merger=ADA, title="app 0.18.1")
    _pr(repo, 1650, "py312", 5, [("Update the CI image", {".github/workflows/ci.yml": "python: ['3.12']\n"})],
        merger=ADA, title="Python 3.12")
    # bat's #2514 `Updates for bat 0.23`: the release checklist mended, then the version bumped,
    # in one pull request, makes 0.23; serde's #446 renamed a feature, then released 0.8.0-rc2:
    # a change of its own that the release rode along with
    _pr(repo, 2514, "bat-0.23", 6, [
        ("release checklist: fix command to find MSRV", {"doc/release-checklist.md": "- [ ] cargo msrv\n"}),
        ("Bump version to 0.23", {"Cargo.toml": '[package]\nname = "app"\nversion = "0.23.0"\n'})],
        merger=ADA, title="Updates for app 0.23")
    _pr(repo, 446, "unstable", 7, [
        ("Rename feature nightly-testing to unstable-testing", {"app.py": "x = 1\nUNSTABLE_TESTING = True\n"}),
        ("Release 0.8.0-rc2", {"Cargo.toml": '[package]\nname = "app"\nversion = "0.8.0-rc2"\n'})],
        merger=ADA, title="Rename nightly-testing")
    out, items = _run(repo)
    assert by_subject(out, "category")["Add --yes to towncrier to automatically remove files"] == "feature"
    assert dict(zip(items["work_item_id"], items["category"]))["acme/app#pr-3239"] == "chore"
    assert _item(items, "acme/app#pr-2514")["title"] == "Release 0.23"
    assert _item(items, "acme/app#pr-2514")["category"] == "chore"
    assert _item(items, "acme/app#pr-446")["title"] != "Release 0.8.0-rc2"
    assert _item(items, "acme/app#pr-2993")["title"] == "Release 0.5.2"
    assert _item(items, "acme/app#pr-2993")["category"] == "chore"
    assert _item(items, "acme/app#pr-1649")["title"] == "Release app 0.18.1"
    assert _item(items, "acme/app#pr-1649")["category"] == "chore"
    assert _item(items, "acme/app#pr-1650")["title"] == "Python 3.12"


def _lines(tag: str, n: int) -> str:
    return "".join(f"{tag} line {i}\n" for i in range(n))


def _pr(repo: GitScript, number: int, branch: str, day: int, commits, author=ADA, merger=BOB,
        title: str | None = None) -> tuple[list[str], str]:
    """A pull request: `commits` [(subject, files)] on `branch`, merged by GitHub's merge commit
    (titled `title`, else by its first commit's subject)."""
    repo.branch(branch, checkout=True)
    shas = [repo.commit(subject, author=author, date=_at(day, 9 + i), files=files)
            for i, (subject, files) in enumerate(commits)]
    repo.checkout("main")
    merge = repo.merge(branch, f"Merge pull request #{number} from ada/{branch}\n\n{title or commits[0][0]}",
                       author=merger, date=_at(day, 20))
    return shas, merge


def test_a_revert_of_a_small_part_of_a_change_is_not_a_revert_of_the_change(tmp_path):
    """An item is later reverted when the reverts after its last landing undo most of it (the
    commits they name carry at least half of its changed lines; by commit count when it has no
    lines): a 5-line follow-up of an 800-line pull request reverted is a link, not a change that
    did not land. A revert of the pull request's merge commit reverts all of it."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"README.md": "# app\n"})
    big, _ = _pr(repo, 12, "search-index", 2, [
        ("Add the search index", {"index/core.py": _lines("core", 300)}),
        ("Add index persistence", {"index/store.py": _lines("store", 200)}),
        ("Add index queries", {"index/query.py": _lines("query", 150)}),
        ("Add index tests", {"tests/test_index.py": _lines("test", 100)}),
        ("Document the search index", {"docs/index.md": _lines("doc", 45)}),
        ("Log slow index queries", {"index/slow.py": _lines("slow", 5)}),
    ])
    small_revert = repo.revert(big[5], author=BOB, date=_at(3, 9), reason="Too noisy in production.")
    most, _ = _pr(repo, 13, "rate-limit", 4, [
        ("Add a rate limiter", {"limit/core.py": _lines("limit", 120)}),
        ("Add rate limiter metrics", {"limit/metrics.py": _lines("metrics", 30)}),
        ("Tune rate limiter defaults", {"limit/defaults.py": _lines("defaults", 10)}),
    ])
    revert_core = repo.revert(most[0], author=BOB, date=_at(5, 9))
    _pr(repo, 14, "cache-warmup", 6, [
        ("Warm the cache on start", {"cache/warm.py": _lines("warm", 40)}),
        ("Warm the cache in the background", {"cache/bg.py": _lines("bg", 20)}),
    ])
    merge14 = repo.rev("HEAD")
    revert_merge = repo.revert(merge14, author=BOB, date=_at(7, 9), mainline=1)
    icons, _ = _pr(repo, 15, "icons", 8, [
        ("Add the toolbar icons", {"icons/a.png": b"\x89PNG\x00\x01"}),
        ("Add the menu icons", {"icons/b.png": b"\x89PNG\x00\x02"}),
        ("Add the status icons", {"icons/c.png": b"\x89PNG\x00\x03"}),
    ])
    revert_icon = repo.revert(icons[2], author=BOB, date=_at(9, 9))
    out, items = _run(repo)
    links = commit_links(out)
    assert (small_revert, "reverts", big[5]) in set(links.select("sha", "link_type", "target_sha").rows())
    big_item = _item(items, "acme/app#pr-12")
    assert big_item["commits"] == 6 and big_item["lines_added"] == 800
    assert big_item["later_reverted"] is False and big_item["reverted_by"] == []  # 5 of 800 lines
    limiter = _item(items, "acme/app#pr-13")
    assert limiter["later_reverted"] is True and limiter["reverted_by"] == [revert_core]  # 120 of 160
    # `This reverts commit <merge>, reversing changes made to ...`: every commit the merge brought in
    assert out.filter(pl.col("sha") == revert_merge)["message"].item().count(merge14) == 1
    warmup = _item(items, "acme/app#pr-14")
    assert warmup["later_reverted"] is True and warmup["reverted_by"] == [revert_merge]
    # no changed lines (binary files): by commit count, 1 of 3
    assert _item(items, "acme/app#pr-15")["lines_added"] == 0
    assert _item(items, "acme/app#pr-15")["later_reverted"] is False
    assert (revert_icon, "reverts", icons[2]) in set(links.select("sha", "link_type", "target_sha").rows())


def test_a_release_item_is_titled_by_the_release_it_makes(tmp_path):
    """ripgrep: a release item read as its first worded step ('changelog: prep for 14.1.1');
    it is titled `Release <version>` from its release commit, with the package it names."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/main.rs": "fn main() {}\n", "Cargo.toml": 'version = "14.1.0"\n', "CHANGELOG.md": "# 14.1.0\n",
                       "crates/cli/Cargo.toml": 'version = "0.1.9"\n', "package.json": '{"version": "3.4.0"}\n'})
    releases = [
        [("changelog: prep for 14.1.1", {"CHANGELOG.md": "# 14.1.1\n# 14.1.0\n"}),
         ("deps: update everything", {"Cargo.toml": 'version = "14.1.0"\nregex = "1.10"\n'}),
         ("14.1.1", {"Cargo.toml": 'version = "14.1.1"\nregex = "1.10"\n'})],
        [("cli: bump the version", {"crates/cli/Cargo.toml": 'version = "0.1.10"\n'}),
         ("grep-cli-0.1.10", {"crates/cli/Cargo.toml": 'version = "0.1.10"\nedition = "2021"\n'})],
        # a squashed release pull request
        [("Release v3.4.1 (#88)", {"package.json": '{"version": "3.4.1"}\n', "CHANGELOG.md": "# 3.4.1\n# 14.1.0\n"})],
        # sinatra: a release of the package in its own folder, named by the subject's version alone
        [("v1.4.0", {"rack-protection/rack-protection.gemspec": "s.version = '1.4.0'\n",
                     "rack-protection/lib/rack/protection/version.rb": "VERSION = '1.4.0'\n"})],
        # ... and one of the root package, whose version file is under lib/
        [("v2.0.0", {"lib/app/version.rb": "VERSION = '2.0.0'\n"})],
        # ... and one of that package's folder alone, its manifest untouched (sinatra's `v1.1.0`
        # of rack-protection/README.md had been a second "Release 1.1.0" of Sinatra)
        [("v1.4.1", {"rack-protection/README.md": "# rack-protection 1.4.1\n"})],
    ]
    firsts = []
    for day, steps in enumerate(releases, start=3):
        shas = [repo.commit(subject, author=BOB, date=_at(day, 9 + i), files=files) for i, (subject, files) in enumerate(steps)]
        firsts.append(shas[0])
    # click: a release pull request says it as its commit does (`release version 3.5.0 (#90)`)
    (merged,), _ = _pr(repo, 90, "release-3.5.0", 8, [
        ("release version 3.5.0", {"package.json": '{"version": "3.5.0"}\n', "CHANGELOG.md": "# 3.5.0\n# 3.4.1\n# 14.1.0\n"})])
    firsts.append(merged)
    code = repo.commit("Add --json output", author=BOB, date=_at(9, 9), files={"src/main.rs": "fn main() { json() }\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    titles = [_item(items, wid[sha])["title"] for sha in firsts]
    assert titles == ["Release 14.1.1", "Release grep-cli 0.1.10", "Release 3.4.1", "Release rack-protection 1.4.0",
                      "Release 2.0.0", "Release rack-protection 1.4.1", "Release 3.5.0"]
    assert wid[merged] == "acme/app#pr-90"
    assert [_item(items, wid[sha])["category"] for sha in firsts] == ["chore"] * 7
    assert _item(items, wid[firsts[0]])["commits"] == 3
    assert _item(items, wid[code])["title"] == "Add --json output"


def test_a_release_of_version_file_changelog_steps_and_an_empty_marker_is_one_item(tmp_path):
    """sinatra: `bump version` (lib/<name>/version.rb), `update changes` and `set date` (CHANGES)
    minutes apart, then an empty `1.4.3 release` commit: one release item, not three docs and
    build items beside a marker in no item; git/git's `Git 2.38` (two numbers) makes a release."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"lib/app/base.rb": "x = 1\n", "lib/app/version.rb": "VERSION = '1.4.2'\n",
                       "CHANGES": "= 1.4.2\n", "GIT-VERSION-GEN": "DEF_VER=v2.37\n"})
    feature = repo.commit("add x_cascade option", author=ADA, date=_at(2, 9), files={"lib/app/base.rb": "x = 2\n"})
    bump = repo.commit("bump version", author=ADA, date=_at(2, 10), files={"lib/app/version.rb": "VERSION = '1.4.3'\n"})
    changes = repo.commit("update changes", author=ADA, date=_at(2, 11), files={"CHANGES": "= 1.4.3\n= 1.4.2\n"})
    date = repo.commit("set date", author=ADA, date=_at(2, 12), files={"CHANGES": "= 1.4.3 / 2025-03-02\n= 1.4.2\n"})
    marker = repo.commit("1.4.3 release", author=ADA, date=_at(2, 13), allow_empty=True)
    later = repo.commit("fix route parsing", author=ADA, date=_at(3, 9), files={"lib/app/base.rb": "x = 3\n"})
    # git/git: the version file, then the release commit named by two numbers
    gen = repo.commit("Start the 2.38 cycle", author=BOB, date=_at(5, 9), files={"GIT-VERSION-GEN": "DEF_VER=v2.38-rc0\n"})
    git = repo.commit("Git 2.38", author=BOB, date=_at(5, 10), files={"CHANGES": "= 2.38\n= 1.4.3\n",
                                                                     "GIT-VERSION-GEN": "DEF_VER=v2.38\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    release = _item(items, wid[bump])
    assert {wid[bump], wid[changes], wid[date], wid[marker]} == {release["work_item_id"]}
    assert (release["commits"], release["category"], release["title"]) == (4, "chore", "Release 1.4.3")
    assert wid[feature] != release["work_item_id"] != wid[later]
    assert wid[gen] == wid[git] and _item(items, wid[git])["category"] == "chore"
    assert _item(items, wid[git])["title"] == "Release Git 2.38"


def test_a_release_said_as_prepping_tagging_or_release_prep(tmp_path):
    """guzzle: `Prepping for 3.7.0` (CHANGELOG.md and the version constant), `Tagging 3.1.2
    release`, `Guzzle 3.7.4 release prep`, `Tagging for 3.0.7`, `Tagging 2.8.1 (small release
    mainly for composer.json fixes)` read as fixes and were titled by their words."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/Client.php": "<?php\nclass Client {}\n", "src/Version.php": "<?php\nconst VERSION = '3.6.0';\n",
                       "CHANGELOG.md": "# 3.6.0\n"})
    shas = {}
    for day, (subject, version) in enumerate([("Prepping for 3.7.0", "3.7.0"), ("Tagging 3.1.2 release", "3.1.2"),
                                              ("Guzzle 3.7.4 release prep", "3.7.4"),
                                              ("Tagging for 3.0.8 (small release mainly for composer.json fixes)", "3.0.8")],
                                             start=3):
        repo.commit(f"Fix the client on day {day}", author=ADA, date=_at(day, 9),
                    files={"src/Client.php": f"<?php\nclass Client {{ public $day = {day}; }}\n"})
        shas[subject] = repo.commit(subject, author=ADA, date=_at(day, 15),
                                    files={"src/Version.php": f"<?php\nconst VERSION = '{version}';\n",
                                           "CHANGELOG.md": f"# {version}\n\n* Fixed the client\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert [(_item(items, wid[sha])["category"], _item(items, wid[sha])["title"]) for sha in shas.values()] == [
        ("chore", "Release 3.7.0"), ("chore", "Release 3.1.2"), ("chore", "Release Guzzle 3.7.4"), ("chore", "Release 3.0.8")]


def test_an_r_packages_description_versions_and_dependencies(tmp_path):
    """dplyr: usethis's `Increment version number to 1.1.3` (DESCRIPTION's Version and NEWS.md's
    heading) is the release, `... to 1.1.3.9000` opens the next development version; `Require
    vctrs 0.7.1` (DESCRIPTION alone) is build work, as is a tool's ignore file; vignettes and the
    pkgdown site's settings are documentation. All five had read as fixes or features."""
    repo = GitScript.init(tmp_path / "repo")
    description = "Package: dplyr\nVersion: {}\nImports: vctrs (>= {})\n"
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"DESCRIPTION": description.format("1.1.2.9000", "0.6.0"), "R/join.R": "join <- function(x) x\n",
                       "NEWS.md": "# dplyr (development version)\n"})
    repo.commit("Fix joins on empty frames", author=ADA, date=_at(2, 9), files={"R/join.R": "join <- function(x) if (nrow(x)) x\n"})
    repo.commit("Require vctrs 0.7.1", author=ADA, date=_at(4, 9),
                files={"DESCRIPTION": description.format("1.1.2.9000", "0.7.1")})
    repo.commit("Add .claude/ to .Rbuildignore", author=ADA, date=_at(5, 9), files={".Rbuildignore": "^\\.claude$\n"})
    repo.commit("Add recoding vignette", author=ADA, date=_at(6, 9),
                files={"vignettes/recoding.Rmd": "---\ntitle: Recoding\n---\n", "_pkgdown.yml": "articles: [recoding]\n"})
    repo.commit("Increment version number to 1.1.3", author=ADA, date=_at(8, 9),
                files={"DESCRIPTION": description.format("1.1.3", "0.7.1"), "NEWS.md": "# dplyr 1.1.3\n"})
    repo.commit("Increment version number to 1.1.3.9000", author=ADA, date=_at(12, 9),
                files={"DESCRIPTION": description.format("1.1.3.9000", "0.7.1"),
                       "NEWS.md": "# dplyr (development version)\n\n# dplyr 1.1.3\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")

    def read(subject):
        item = _item(items, wid[subject])
        return item["category"], item["title"]

    assert read("Require vctrs 0.7.1")[0] == "build"
    assert read("Add .claude/ to .Rbuildignore")[0] == "build"
    assert read("Add recoding vignette")[0] == "docs"
    assert read("Increment version number to 1.1.3") == ("chore", "Release 1.1.3")
    assert read("Increment version number to 1.1.3.9000") == ("chore", "Start 1.1.3.9000 development")


def test_a_package_at_its_version_is_a_release_only_of_this_repositorys_code(tmp_path):
    """babashka's `Jline 4.3.1` (deps.edn, project.clj) had been titled "Release Jline 4.3.1",
    one of 25 dependency bumps among Michiel Borkent's 246 releases; `app 1.4.0` (the repository),
    `grep-cli-0.1.10` (its folder crates/cli), `bb v0.0.35` (the version file) and `RC 1.5.0`
    (a release candidate) are releases. `Bump rewrite-clj` with its changelog line, 7 minutes
    before a release, is a change of its own, and a bare `changelog` commit 30 seconds after
    `Bump transit` is its line."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"project.clj": "(defproject app \"1.3.0\" :dependencies [[jline \"4.3.0\"]])\n",
                       "deps.edn": "{:deps {jline {:mvn/version \"4.3.0\"}}}\n", "src/app/core.clj": "(ns app.core)\n",
                       "crates/cli/Cargo.toml": "[package]\nname = \"grep-cli\"\nversion = \"0.1.9\"\n",
                       "resources/APP_VERSION": "1.3.0\n", "CHANGELOG.md": "## 1.3.0\n"})
    repo.commit("Jline 4.3.1 (#1998)", author=ADA, date=_at(2, 9),
                files={"project.clj": "(defproject app \"1.3.0\" :dependencies [[jline \"4.3.1\"]])\n",
                       "deps.edn": "{:deps {jline {:mvn/version \"4.3.1\"}}}\n"})
    repo.commit("grep-cli-0.1.10", author=ADA, date=_at(3, 9),
                files={"crates/cli/Cargo.toml": "[package]\nname = \"grep-cli\"\nversion = \"0.1.10\"\n"})
    repo.commit("Bump rewrite-clj", author=ADA, date="2025-03-04T09:00:00+0000",
                files={"deps.edn": "{:deps {jline {:mvn/version \"4.3.1\"} rewrite-clj {:mvn/version \"1.1\"}}}\n",
                       "CHANGELOG.md": "## Unreleased\n- Bump rewrite-clj to 1.1\n\n## 1.3.0\n"})
    repo.commit("bb v1.4.0", author=ADA, date="2025-03-04T09:07:00+0000",
                files={"resources/APP_VERSION": "1.4.0\n", "CHANGELOG.md": "## 1.4.0\n- Bump rewrite-clj to 1.1\n\n## 1.3.0\n"})
    repo.commit("Bump transit", author=ADA, date="2025-03-06T09:00:00+0000",
                files={"project.clj": "(defproject app \"1.4.0\" :dependencies [[jline \"4.3.1\"] [transit \"1.1\"]])\n"})
    repo.commit("changelog", author=ADA, date="2025-03-06T09:00:30+0000",
                files={"CHANGELOG.md": "## Unreleased\n- Bump transit-clj to 1.1\n\n## 1.4.0\n- Bump rewrite-clj to 1.1\n\n## 1.3.0\n"})
    # a dependency at its version a minute before a release, with the README: no step of it
    repo.commit("jline 4.3.2", author=ADA, date="2025-03-09T08:59:00+0000",
                files={"project.clj": "(defproject app \"1.4.0\" :dependencies [[jline \"4.3.2\"] [transit \"1.1\"]])\n",
                       "README.md": "Uses jline 4.3.2\n"})
    repo.commit("RC 1.5.0", author=ADA, date=_at(9, 9), files={"resources/APP_VERSION": "1.5.0\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")

    def title(subject):
        return _item(items, wid[subject])["title"]

    assert title("Jline 4.3.1 (#1998)") == "Jline 4.3.1"
    assert title("grep-cli-0.1.10") == "Release grep-cli 0.1.10"
    assert title("bb v1.4.0") == "Release bb 1.4.0"
    assert title("RC 1.5.0") == "Release 1.5.0"
    assert wid["Bump rewrite-clj"] != wid["bb v1.4.0"]
    assert wid["changelog"] == wid["Bump transit"]
    assert title("Bump transit") == "Bump transit"  # not its bare line's `changelog`
    assert wid["jline 4.3.2"] != wid["RC 1.5.0"] and _item(items, wid["RC 1.5.0"])["commits"] == 1


def test_a_release_said_as_this_is_and_its_development_version_opening(tmp_path):
    """click: `Release date is today` (CHANGES), then `This is 6.0` (the version in
    click/__init__.py) 32 seconds later: one release, chore, titled by its version, not a fix;
    `This is 3.0 (clonk clonk)` is release 3.0. `This is 6.1-dev` the next morning opens the next
    release and makes none: it is no release of its own, and the fix made beside it the next day
    (in the same file) stays apart from it."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"click/__init__.py": "__version__ = '5.1'\n", "click/core.py": "x = 1\n", "CHANGES": "Version 6.0\n"})
    date = repo.commit("Release date is today", author=ADA, date="2025-03-02T21:53:00+0000",
                       files={"CHANGES": "Version 6.0\n(released on November 24th 2015)\n"})
    release = repo.commit("This is 6.0", author=ADA, date="2025-03-02T21:53:32+0000",
                          files={"click/__init__.py": "__version__ = '6.0'\n"})
    opening = repo.commit("This is 6.1-dev", author=ADA, date=_at(3, 9),
                          files={"click/__init__.py": "__version__ = '6.1-dev'\n",
                                 "CHANGES": "Version 6.1\n\nVersion 6.0\n(released on November 24th 2015)\n"})
    fix = repo.commit("Fixed a crash on empty parameter lists", author=ADA, date=_at(4, 10),
                      files={"click/__init__.py": "__version__ = '6.1-dev'\nimport os\n", "click/core.py": "x = 2\n"})
    clonk = repo.commit("This is 3.0 (clonk clonk)", author=BOB, date=_at(6, 9), files={"VERSION": "3.0\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    made = _item(items, wid[release])
    assert wid[date] == wid[release] and (made["commits"], made["category"], made["title"]) == (2, "chore", "Release 6.0")
    assert wid[opening] not in {wid[release], wid[fix]}
    assert _item(items, wid[opening])["category"] == "chore" and _item(items, wid[fix])["category"] == "bug"
    assert _item(items, wid[opening])["title"] == "Start 6.1 development"
    assert _item(items, wid[clonk])["title"] == "Release 3.0"


def test_a_commit_writing_the_changelog_for_the_release_made_next_is_its_step(tmp_path):
    """click: `Corrected changelog for 2.2` (CHANGES and the version in click/__init__.py), then
    52 seconds later `This is 2.2`: one release, not a fix beside it. A fix that names the
    version but writes no changelog stays a change of its own."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"click/__init__.py": "__version__ = '2.1'\n", "click/core.py": "x = 1\n", "CHANGES": "Version 2.1\n"})
    fix = repo.commit("Fix a crash in the 2.2 option parser", author=ADA, date="2025-03-02T10:40:00+0000",
                      files={"click/core.py": "x = 2\n"})
    corrected = repo.commit("Corrected changelog for 2.2", author=ADA, date="2025-03-02T11:29:07+0000",
                            files={"CHANGES": "Version 2.2\n\nVersion 2.1\n", "click/__init__.py": "__version__ = '2.2-dev'\n"})
    release = repo.commit("This is 2.2", author=ADA, date="2025-03-02T11:29:59+0000",
                          files={"CHANGES": "Version 2.2\n(released June 26th 2014)\n\nVersion 2.1\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[corrected] == wid[release] != wid[fix]
    made = _item(items, wid[release])
    assert (made["commits"], made["category"], made["title"]) == (2, "chore", "Release 2.2")


def test_a_maven_release_with_its_prepared_changelog_is_one_item(tmp_path):
    """retrofit: `Prepare version 2.2.0.` (the changelog), then three minutes later the Maven
    release plugin's `[maven-release-plugin] prepare release parent-2.2.0` and `... prepare for
    next development iteration` (the poms): one release, not a docs item beside a build item."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"pom.xml": "<version>2.2.0-SNAPSHOT</version>\n", "CHANGELOG.md": "# Change Log\n",
                       "src/main/java/Call.java": "class Call {}\n"})
    feature = repo.commit("Add Call.defer", author=ADA, date=_at(2, 9), files={"src/main/java/Call.java": "class Call { defer() }\n"})
    notes = repo.commit("Prepare version 2.2.0.", author=ADA, date="2025-03-03T16:21:00+0000",
                        files={"CHANGELOG.md": "# Change Log\n## Version 2.2.0\n * New: Call.defer\n"})
    plugin = repo.commit("[maven-release-plugin] prepare release parent-2.2.0", author=ADA, date="2025-03-03T16:24:00+0000",
                         files={"pom.xml": "<version>2.2.0</version>\n"})
    nxt = repo.commit("[maven-release-plugin] prepare for next development iteration", author=ADA,
                      date="2025-03-03T16:24:30+0000", files={"pom.xml": "<version>2.3.0-SNAPSHOT</version>\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[notes] == wid[plugin] == wid[nxt] != wid[feature]
    release = _item(items, wid[plugin])
    assert (release["commits"], release["category"], release["title"]) == (3, "chore", "Release 2.2.0")


def test_commits_naming_different_issues_are_separate_changes(tmp_path):
    """sinatra: four fixes and features of one afternoon in base.rb, each `fixes #N`, were one
    'bug' item; commits that name issues (or vulnerabilities) and share none are separate
    changes."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"lib/base.rb": "a\n", "lib/cookies.rb": "c\n"})
    body = repo.commit("resetting body should drop Content-Length, fixes #608", author=ADA, date=_at(2, 9),
                       files={"lib/base.rb": "a\nb\n"})
    layout = repo.commit("add layout_options, fixes #495", author=ADA, date=_at(2, 10), files={"lib/base.rb": "a\nb\nl\n"})
    again = repo.commit("also reset the body on HEAD requests\n\nrefs #608", author=ADA, date=_at(2, 11),
                        files={"lib/base.rb": "a\nb\nl\nh\n"})
    plain = repo.commit("tidy the layout code", author=ADA, date=_at(2, 12), files={"lib/base.rb": "a\nb\nL\nh\n"})
    # jq: two security fixes in src/jv.c a day apart, each fixing its own CVE
    merge_depth = repo.commit("Limit recursive object merge depth to prevent stack overflow\n\nThis fixes CVE-2026-43896.",
                              author=ADA, date=_at(5, 9), files={"lib/cookies.rb": "c\nd\n"})
    literals = repo.commit("Reject numeric literals longer than DEC_MAX_DIGITS\n\nFixes CVE-2026-43894.",
                           author=ADA, date=_at(5, 20), files={"lib/cookies.rb": "c\nd\ne\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[merge_depth] != wid[literals]
    assert wid[body] != wid[layout]
    assert wid[again] == wid[body]  # the same issue: one change
    assert wid[plain] == wid[again]  # a commit naming no issue still joins by the shared file


def test_a_commit_that_closes_an_issue_is_about_that_issue(tmp_path):
    """ripgrep: "printer: fix panic in replacements ... Fixes #3180" also said "update the
    CHANGELOG to include the fix for #2111", which "core: don't build decompression reader"
    had closed two hours before: the two fixes were one item."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"core/search.rs": "a\n", "printer/util.rs": "p\n"})
    core = repo.commit("core: don't build decompression reader unless we intend to use it\n\nFixes #2111",
                       author=ADA, date=_at(2, 9), files={"core/search.rs": "a\nb\n"})
    printer = repo.commit("printer: fix panic in replacements in look-around corner case\n\nAlso, update the "
                          "CHANGELOG to include the fix for #2111.\n\nFixes #3180",
                          author=ADA, date=_at(2, 11), files={"printer/util.rs": "p\nq\n", "CHANGELOG.md": "x\n"})
    stdin = repo.commit("core: also skip the reader for stdin\n\ncloses: #2112 and #2113",
                        author=ADA, date=_at(2, 13), files={"core/search.rs": "a\nb\nc\n"})
    test = repo.commit("tests: cover stdin without a decompression reader\n\nFixes #2113",
                       author=ADA, date=_at(2, 14), files={"tests/stdin.rs": "t\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[core] != wid[printer]
    assert wid[stdin] != wid[core]  # it closes other issues, in the same file and area
    assert wid[test] == wid[stdin]  # the second of the issues it closes


def test_a_file_nearly_every_commit_touches_relates_nothing(tmp_path, monkeypatch):
    """sinatra: lib/sinatra/base.rb is in 21% of the commits; two commits an hour apart that
    share only it ('add multi route extension', 'add cookies extension') are two changes."""
    import exceeds_pipeline.classify.work_items.edges as wi

    monkeypatch.setattr(wi, "HUB_MIN_COMMITS", 10)
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"lib/base.rb": "0\n"})
    # others' history: the hub is in every commit, other files are not
    for i in range(20):
        # "extension" is a word this repository uses often: it names nothing specific
        repo.commit(f"Change number {i}" + (" of an extension" if i % 4 == 0 else ""), author=BOB,
                    date=_at(2 + i // 4, 9 + i % 4),
                    files={"lib/base.rb": f"{i}\n", f"lib/part{i}.rb": "x\n", "app.1": f".Sh {i}\n"})
    multi = repo.commit("add multi route extension", author=ADA, date=_at(12, 9),
                        files={"lib/base.rb": "m\n", "lib/multi_route.rb": "m\n"})
    cookies = repo.commit("add cookies extension", author=ADA, date=_at(12, 10),
                          files={"lib/base.rb": "c\n", "lib/cookies.rb": "c\n"})
    cookie_test = repo.commit("test cookie expiry", author=ADA, date=_at(12, 11),
                              files={"lib/cookies.rb": "c2\n", "test/cookies_test.rb": "t\n"})
    # fzf: a follow-up that touches only the hub still joins the change its subject names
    transform = repo.commit("Add 'transform' action", author=ADA, date=_at(14, 9), files={"lib/base.rb": "t\n"})
    follow = repo.commit("Keep the query when a transform runs", author=ADA, date=_at(14, 10),
                         files={"lib/base.rb": "t2\n"})
    # tmux: a quick follow-up minutes later joins its change; a small change hours later does not
    key = repo.commit("Add the e key binding", author=ADA, date=_at(16, 9),
                      files={"lib/base.rb": "".join(f"k{i}\n" for i in range(30))})
    typo = repo.commit("Typo in man page", author=ADA, date="2025-03-16T09:10:00+0000",
                       files={"lib/base.rb": "".join(f"k{i}\n" for i in range(29)) + "K\n"})
    later = repo.commit("Tweak the default status colour", author=ADA, date=_at(16, 12),
                        files={"lib/base.rb": "".join(f"k{i}\n" for i in range(28)) + "c\nK\n"})
    # tmux: a man page (a hub too) written over an hour is one documentation change
    page = repo.commit("Initial man page", author=ADA, date=_at(18, 9), files={"app.1": ".Sh NAME\n.Nm app\n"})
    page2 = repo.commit("Describe the status line", author=ADA, date=_at(18, 10),
                        files={"app.1": ".Sh NAME\n.Nm app\n.Sh STATUS LINE\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[page] == wid[page2] and _item(items, wid[page])["category"] == "docs"
    assert wid[multi] != wid[cookies]
    assert wid[cookie_test] == wid[cookies]  # a file of their own still relates them
    assert wid[follow] == wid[transform]
    assert wid[typo] == wid[key] != wid[later]


def test_an_item_is_the_kind_of_its_code_change_not_of_its_many_test_tweaks(tmp_path):
    """sinatra: 'integration test for logging', then 'prevent double-logging only on webrick,
    fixes #454' (+163/-77 in base.rb) and four test tweaks was a 'test' item titled by its
    first commit; it is a fix, named by the fix."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"lib/base.rb": "x = 1\n"})
    first = repo.commit("integration test for logging", author=ADA, date=_at(2, 9),
                        files={"test/integration/logging_test.rb": "t1\n"})
    fix = repo.commit("prevent double-logging only on webrick, fixes #454", author=ADA, date=_at(2, 10),
                      files={"lib/base.rb": "".join(f"line {i}\n" for i in range(160)),
                             "test/integration/logging_test.rb": "t1\nt2\n"})
    for i in range(4):
        repo.commit(f"adjust logging test {i}", author=ADA, date=_at(2, 11 + i),
                    files={"test/integration/logging_test.rb": f"t1\nt2\nt{i + 3}\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[first] == wid[fix]
    item = _item(items, wid[fix])
    assert (item["commits"], item["category"]) == (6, "bug")
    assert item["title"] == "prevent double-logging only on webrick, fixes #454"


def test_a_feature_in_code_names_its_item_over_a_larger_reformat_and_a_release_stays_apart(tmp_path):
    """fzf: 'Reformat comments to adhere to gofmt' (more lines) beside 'Support colon delimiter'
    named the item a chore (a feature or fix with a real share, 10%, of the code lines names
    it); and '0.13.4' joined the next day's fix through the version constant both touch."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=BOB, date=_at(1, 8), files={"src/options.go": "a\n", "src/constants.go": "v0.13.3\n"})
    fmt = repo.commit("Reformat comments to adhere to gofmt", author=ADA, date=_at(2, 9),
                      files={"src/options.go": "".join(f"// c{i}\n" for i in range(50))})
    colon = repo.commit("Support colon delimiter in --nth", author=ADA, date=_at(2, 10),
                        files={"src/options.go": "".join(f"// c{i}\n" for i in range(50))
                               + "".join(f"colon{i}\n" for i in range(20))})
    release = repo.commit("0.13.4", author=ADA, date=_at(3, 9), files={"src/constants.go": "v0.13.4\n"})
    fix = repo.commit("Fix read buffer handling", author=ADA, date=_at(4, 8),
                      files={"src/constants.go": "v0.13.4\nbuf = 64\n", "src/reader.go": "r\n"})
    # tmux: a one-line fix inside a 300-line rewrite does not name it
    rewrite = repo.commit("Refactor command handling into cmd-queue", author=CAT, date=_at(6, 9),
                          files={"src/cmd.go": "".join(f"q{i}\n" for i in range(300))})
    tiny = repo.commit("Fix progname in an error message", author=CAT, date=_at(6, 10),
                       files={"src/cmd.go": "".join(f"q{i}\n" for i in range(299)) + "p\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[rewrite] == wid[tiny]
    assert (_item(items, wid[tiny])["category"], _item(items, wid[tiny])["title"]) == (
        "refactor", "Refactor command handling into cmd-queue")
    assert wid[fmt] == wid[colon]
    assert (_item(items, wid[colon])["category"], _item(items, wid[colon])["title"]) == (
        "feature", "Support colon delimiter in --nth")
    assert wid[release] != wid[fix]
    assert _item(items, wid[fix])["category"] == "bug"


@pytest.mark.parametrize(("subject", "release", "title"), [
    ("3.4.", True, "Release 3.4"),  # tmux: the commit tag 3.4 points at
    ("3.0a.", True, "Release 3.0a"),
    ("2.9a", True, "Release 2.9a"),
    ("3.7-rc2", True, "Release 3.7-rc2"),
    ("tmux 3.7", True, "Release tmux 3.7"),
    ("Bumped v5.11.3", True, "Release 5.11.3"),  # fastify: the verb is no package
    ("Bumped 6.0.0-alpha.2", True, "Release 6.0.0-alpha.2"),
    ("release version 8.1.7", True, "Release 8.1.7"),  # click: 24 of David Lord's 51 bug items were releases
    ("start version 8.1.8", False, None),
    ("next-3.5", False, None),  # the bump after a release names what comes next
    ("For 3.0", False, None),
    ("Update to 2.3", False, None),
    ("5.0.0-beta.1", True, "Release 5.0.0-beta.1"),  # express: prereleases are releases
    ("2.0.0rc1", True, "Release 2.0.0rc1"),
    # requests: release work, named as written (nlohmann/json's "Prepare 3.11.0 release" only
    # added license headers the day before the release)
    ("Prepare 2.12.1", True, None),
    ("Prepare for 2.11 release.", True, None),
    ("Prepare for 2.11.1 bugfix release.", True, None),
    ("Prepare for Python 3.12", False, None),
    ("2.0.0.rc6 release", True, "Release 2.0.0.rc6"),  # sinatra
    (":bookmark: set version to 3.11.0", True, "Release 3.11.0"),  # nlohmann/json
    ("Update version to 1.2.3", True, "Release 1.2.3"),
    # Alamofire: its release commits and pull requests
    ("Prep 5.0.0-beta.4 Release (#2776)", True, "Release 5.0.0-beta.4"),
    ("Release - Prep for 5.0.0-beta.6 (#2815)", True, "Release 5.0.0-beta.6"),
    ("Added release notes to the CHANGELOG and bumped the version to 4.5.1.", True, "Release 4.5.1"),
    ("Updated the CHANGELOG and bumped the version to 1.2.3.", True, "Release 1.2.3"),
    # sinatra: a feature that also bumps the version is no release
    ("added a method for content_for? in sinatra/content_for, and bumped the version to 1.3.2", False, None),
    # rich's and AutoMapper's own version bumps
    ("bump to 14.0.0", True, "Release 14.0.0"),
    ("version bump 13.5.0", True, "Release 13.5.0"),
    ("version bump", True, None),
    ("new version", True, None),
    ("Marking 7.0.1", True, "Release 7.0.1"),
    ("Marking 5.3 alpha", True, None),
    ("Bump to Python 3.14", False, None),
    # sinatra's and fmt's bare bumps of their own version; retrofit's release steps
    ("bump version", True, None),
    ("Bump version.", True, None),
    ("bump version, regenerate gemspec", True, None),
    ("Prepare version 2.2.0.", True, None),
    ("[maven-release-plugin] prepare release parent-2.2.0", True, "Release 2.2.0"),
    ("[maven-release-plugin] prepare release gson-parent-2.8.0", True, "Release 2.8.0"),
    ("Bump version of lodash to 4.17", False, None),
    # rack's bumps of a version part (its 3.0.x releases were split from their changelogs)
    ("Bump patch version.", True, None),
    ("Bump minor version.", True, None),
    ("Bump patch verison.", True, None),
    ("Bump minor version of lodash", False, None),
    ("Prepare version bump", False, None),
    ("[release] fix the build", False, None),
    # a release said by its Conventional-Commit type or scope (vue, webpack, axios, ripgrep)
    ("release: v3.5.41", True, "Release 3.5.41"),
    ("chore(release): 5.94.0", True, "Release 5.94.0"),
    ("chore(release): v2.0.0 [skip ci]", True, "Release 2.0.0"),
    ("chore: release v1.1.0", True, "Release 1.1.0"),
    ("release: globset 0.4.3", True, "Release globset 0.4.3"),
    ("release: fix the publish script", False, None),
    # with the changelog written beside it (pandoc's 28 releases since 2024, ecto's, rich's)
    ("Bump to 3.10.2, update changelog", True, "Release 3.10.2"),
    ("Bump to 3.1 and update changelog.", True, "Release 3.1"),
    ("Update changelog, bump to 3.2", True, "Release 3.2"),
    ("Fix the parser and update changelog", False, None),
    ("chore: bump deps", False, None),
    ("Bump to version 2.0", True, "Release 2.0"),  # rq
    ("Bump to version 2 of the parser", False, None),
])
def test_release_subjects(subject, release, title):
    from exceeds_pipeline.classify.work_items import release_title

    got = pl.DataFrame({"subject": [subject]}).select(makes_release().alias("r"), release_title(pl.col("subject")).alias("t"))
    assert got["r"][0] is release
    if release:
        assert got["t"][0] == title


def test_an_item_is_titled_by_the_sentence_a_wrapped_first_line_starts(tmp_path):
    """CVS-era histories wrap the first sentence over several lines with no blank line (git's
    own subject joins them): the title is that sentence, not a first line cut mid-phrase; a
    first line that is a heading stays as it is; a sentence that is a paragraph is cut short."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Add an option menu-selected-style to configure the currently selected\n"
                "menu item, from Alexis. Also fix a typo.\n\nMore words.", author=ADA, date=_at(3, 9),
                files={"menu.c": "1\n"})
    repo.commit("Fix mouse_word format now word-separators has no space and position of\n"
                "menu if too close to the bottom.\n", author=ADA, date=_at(5, 9), files={"format.c": "2\n"})
    repo.commit("Update the billing report\nThis was wrong since March.\n", author=ADA, date=_at(7, 9),
                files={"reports/billing.py": "3\n"})
    repo.commit("Rework the scheduler so that\nevery queue drains in its own thread and the workers never wait on one "
                "another while a queue is being resized, so that a slow consumer can no longer hold up the fast ones "
                "and the latency stays flat under load\n",
                author=ADA, date=_at(9, 9), files={"sched.c": "4\n"})
    # a short first line was not wrapped: the lines are a list (curl, 2000)
    repo.commit("removed handles and states from the main structs\nrenamed prefixes from curl_ to Curl_\n",
                author=ADA, date=_at(11, 9), files={"urldata.h": "5\n"})
    # tmux: the next line goes on with a symbol; a sentence too long with its aside fits without it
    repo.commit("Queue control mode notifications rather than emitting them inside\n"
                "%begin/%end, GitHub issue 5458 from George Nachman.\n", author=ADA, date=_at(13, 9),
                files={"control.c": "6\n"})
    repo.commit("Change %% to escape single quotes (%1 remains with no quoting and %%\n"
                "with double quotes) to avoid a single quote being able to terminate\n"
                "quoted sections of commands. Fixes unexpected behaviour with session\n"
                "names containing single quotes reported by Aliz Hammond.\n", author=ADA, date=_at(15, 9),
                files={"cmd.c": "7\n"})
    # a long first line that wraps into a sentence too long for a title: cut at a clause
    repo.commit("Add a format window_linked which is 1 if a window has been linked\n"
                "multiple times, also remove the default space in window_flags and use a\n"
                "conditional to add it in window-status-format (this means additional\n"
                "flags can be added in the option without extra spaces). From Thomas Adam\n"
                "with tweaks by me.\n", author=ADA, date=_at(17, 9), files={"format.c": "8\n"})
    out, items = _run(repo)
    titles = set(items["title"].to_list())
    assert titles == {
        "Add a format window_linked which is 1 if a window has been linked multiple times…",
        "Queue control mode notifications rather than emitting them inside %begin/%end, GitHub issue 5458 from "
        "George Nachman",
        "Change %% to escape single quotes to avoid a single quote being able to terminate quoted sections of commands",
        "Add an option menu-selected-style to configure the currently selected menu item, from Alexis",
        "Fix mouse_word format now word-separators has no space and position of menu if too close to the bottom",
        "Update the billing report",
        # a sentence too long for a title after a line that stops on "that": cut at a clause
        "Rework the scheduler so that every queue drains in its own thread and the workers never wait on one "
        "another while a queue is being resized…",
        "removed handles and states from the main structs",
    }
    # the commit's own subject stays its first line, as GitHub shows it
    assert "Update the billing report" in out["subject"].to_list()


def test_a_cvsps_patchset_is_read_by_its_log(tmp_path):
    """cvsps conversions say `PatchSet 871` (or `|PatchSet 871`) and give the real message after
    `Log:`: that message names and classifies the item."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("|PatchSet 875\n|Date: 2011/03/27 21:31:25\n|Author: nicm\n|Branch: HEAD\n|Tag: (none)\n|Log:\n"
                "|Add -a and -s options to lsp to list all panes in the server or session\n|respectively.\n|\n"
                "|Members:\n|\tcmd-list-panes.c:1.7->1.8\n", author=ADA, date=_at(3, 9), files={"cmd-list-panes.c": "1\n"})
    repo.commit("PatchSet 890\nDate: 2011/04/01 10:00:00\nAuthor: nicm\nLog:\nFix character position check, from Tiago.\n\n"
                "Members:\n\tstatus.c:1.1->1.2\n", author=ADA, date=_at(9, 9), files={"status.c": "2\n"})
    out, items = _run(repo)
    assert set(items.select("title", "category").iter_rows()) == {
        ("Add -a and -s options to lsp to list all panes in the server or session respectively", "feature"),
        ("Fix character position check, from Tiago.", "bug"),
    }


def test_a_pull_request_titled_by_its_branch_name_is_titled_in_words(tmp_path):
    """GitHub titles a pull request by its branch when nobody writes one: rq's `Fancyweb/fix/get
    status raises (#2168)`, fastify's `Fix/1932 Add version field to the route options (#1933)`,
    `Feature/add retry option`. A path with a component's words (`docs/INSTALL: minor polish`)
    and a one-word branch (`chore/licenses`) stay as written."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Fancyweb/fix/get status raises (#2168)", author=ADA, date=_at(3, 9), files={"rq/job.py": "1\n"})
    repo.commit("Fix/1932 Add version field to the route options (#1933)", author=ADA, date=_at(6, 9), files={"route.js": "2\n"})
    repo.commit("Feature/add retry option", author=ADA, date=_at(9, 9), files={"retry.py": "3\n"})
    repo.commit("docs/INSTALL: minor polish", author=ADA, date=_at(12, 9), files={"docs/INSTALL": "4\n"})
    repo.commit("chore/licenses (#1461)", author=ADA, date=_at(15, 9), files={"LICENSE": "5\n"})
    _, items = _run(repo)
    assert set(items["title"]) == {"Fix get status raises", "Add version field to the route options",
                                   "Add retry option", "docs/INSTALL: minor polish", "chore/licenses"}


def test_a_component_prefix_stays_in_a_title(tmp_path):
    """A title keeps the area its subject opens with: redis's `LPOS: implement the final
    design.` read as "implement the final design.", ripgrep's `changelog: start next section`
    as "start next section". A Conventional-Commit type of a kind of change names no area and
    gives way before a phrase of 3 words or more; a type that names an area (CI, dependencies,
    docs, tests) stays like a component."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("RELEASE-NOTES: synced", author=ADA, date=_at(3, 9), files={"RELEASE-NOTES": "1\n"})
    repo.commit("cookie: trim trailing dots when checking PSL", author=ADA, date=_at(6, 9), files={"lib/cookie.c": "2\n"})
    repo.commit("changelog: start next section", author=ADA, date=_at(9, 9), files={"CHANGELOG.md": "3\n"})
    repo.commit("ignore,globset: increase pool capacity", author=ADA, date=_at(12, 9), files={"pool.rs": "4\n"})
    repo.commit("feat(pool): add retry option", author=ADA, date=_at(15, 9), files={"retry.rs": "5\n"})
    repo.commit("LPOS: implement the final design.", author=ADA, date=_at(18, 9), files={"t_list.c": "6\n"})
    repo.commit("ci: fix binary discovery", author=ADA, date=_at(21, 9), files={"tests/util.rs": "7\n"})
    repo.commit("fix: handle empty patterns", author=ADA, date=_at(24, 9), files={"glob.rs": "8\n"})
    repo.commit("feat: caveats", author=ADA, date=_at(27, 9), files={"caveats.rs": "9\n"})
    _, items = _run(repo)
    assert set(items["title"]) == {"RELEASE-NOTES: synced", "cookie: trim trailing dots when checking PSL",
                                   "changelog: start next section", "ignore,globset: increase pool capacity",
                                   "add retry option", "LPOS: implement the final design.",
                                   "ci: fix binary discovery", "handle empty patterns", "feat: caveats"}


def test_a_type_gives_way_before_a_two_word_verb_phrase_and_a_draft_mark_is_dropped(tmp_path):
    """`chore: fix typos` and axum's `feat: Add \`RawPathParams::from_request_extensions\`` are
    titled by their phrase: the verb says what the type said. Before a two-word noun phrase the
    type is what tells a reader what happened (composer's `fix: missing parentheses`), so it
    stays. A pull request's draft mark goes (rich's `WIP report fine grained error locations`,
    retrofit's `WIP: Client Agnostic`); a subject about a draft keeps its word."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("chore: fix typos", author=ADA, date=_at(3, 9), files={"README.md": "1\n"})
    repo.commit("feat: Add `RawPathParams::from_request_extensions`", author=ADA, date=_at(6, 9), files={"path.rs": "2\n"})
    repo.commit("fix: missing parentheses", author=ADA, date=_at(9, 9), files={"calc.rs": "3\n"})
    repo.commit("WIP report fine grained error locations", author=ADA, date=_at(12, 9), files={"trace.py": "4\n"})
    repo.commit("WIP: Client Agnostic", author=ADA, date=_at(15, 9), files={"client.java": "5\n"})
    repo.commit("Draft of LinkedTreeMap", author=ADA, date=_at(18, 9), files={"tree.java": "6\n"})
    _, items = _run(repo)
    assert set(items["title"]) == {"fix typos", "Add `RawPathParams::from_request_extensions`", "fix: missing parentheses",
                                   "report fine grained error locations", "Client Agnostic", "Draft of LinkedTreeMap"}


def test_a_pull_request_number_that_several_forks_merged_is_not_the_repositorys(tmp_path):
    """redis: forks' own `Merge pull request #1 from ...` came in with their branches, so
    `redis#pr-1` glued 12 commits of 2016-2020 by different people under one owner. A number
    merged more than once belongs to this repository only where its merge is on the branch's
    own first-parent line; elsewhere the commits keep the pull request that brought them in."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"server.c": "x\n"})
    for n, (who, login, day) in enumerate([(BOB, "bob", 2), (CAT, "cat", 6)]):
        repo.checkout("main")
        repo.branch(f"{login}-fork", checkout=True)
        repo.branch(f"{login}-patch", checkout=True)
        own = repo.commit(f"Fix the {login} path in the benchmark", author=who, date=_at(day, 9),
                          files={f"{login}.c": "y\n"})
        repo.checkout(f"{login}-fork")
        repo.merge(f"{login}-patch", f"Merge pull request #1 from {login}/{login}-patch", author=who, date=_at(day, 10))
        repo.checkout("main")
        repo.merge(f"{login}-fork", f"Merge pull request #{20 + n} from {login}/{login}-fork", author=ADA,
                   date=_at(day + 1, 9))
        if login == "bob":
            bob_sha = own
        else:
            cat_sha = own
    # the repository's own pull request #1, merged on its main line, keeps its number
    repo.branch("dan-fix", checkout=True)
    dan = repo.commit("Fix the reply buffer", author=BOB, date=_at(10, 9), files={"reply.c": "z\n"})
    repo.checkout("main")
    repo.merge("dan-fix", "Merge pull request #1 from bob/dan-fix", author=ADA, date=_at(10, 10))
    out, _ = _run(repo)
    prs = dict(out.select("sha", "pr_number").rows())
    assert prs[bob_sha] == 20 and prs[cat_sha] == 21
    assert prs[dan] == 1


def test_a_pull_request_number_merged_twice_on_the_main_line_from_different_branches_is_nobodys(tmp_path):
    """okhttp: `Merge pull request #1 from square/jwilson/initialimport` (2012) and, a year later on
    the same line, `Merge pull request #1 from io2013/jw/website-skeleton` (another repository's
    history) made one item of Jesse Wilson's import and Jake Wharton's website. The same branch
    merged twice is still one pull request."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"a.c": "x\n"})
    shas = {}
    for name, who, day, branch in [("import", ADA, 2, "ada/initialimport"), ("site", BOB, 9, "bob/website"),
                                   ("again", CAT, 15, "cat/fix"), ("again2", CAT, 17, "cat/fix")]:
        repo.checkout("main")
        local = f"{name}-branch"
        repo.branch(local, checkout=True)
        shas[name] = repo.commit(f"Change {name}", author=who, date=_at(day, 9), files={f"{name}.c": "y\n"})
        repo.checkout("main")
        number = 1 if name in ("import", "site") else 7
        repo.merge(local, f"Merge pull request #{number} from {branch}", author=ADA, date=_at(day, 10))
    out, _ = _run(repo)
    prs = dict(out.select("sha", "pr_number").rows())
    wid = dict(out.select("sha", "work_item_id").rows())
    assert prs[shas["import"]] is None and prs[shas["site"]] is None
    assert wid[shas["import"]] != wid[shas["site"]]
    assert prs[shas["again"]] == prs[shas["again2"]] == 7


def test_an_item_opened_by_a_small_fix_and_built_by_features_is_a_feature(tmp_path):
    """redis: 56 ACL commits opened with a 72-line `ACL: subcommand matching.` (a fix by its
    words) and went on with 17 features (856 lines): the item is the feature. A fix followed by
    one larger helper stays a fix: the other kind must be several commits and twice the lines."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"acl.c": "x\n", "auth.c": "y\n"})
    lines = lambda n, tag: "".join(f"int {tag}{i};\n" for i in range(n))  # noqa: E731
    repo.commit("ACL: fix subcommand matching", author=ADA, date=_at(3, 9), files={"acl.c": lines(10, "a")})
    repo.commit("ACL: add the setuser command", author=ADA, date=_at(3, 11), files={"acl.c": lines(10, "a") + lines(40, "b")})
    repo.commit("ACL: implement command categories", author=ADA, date=_at(3, 14),
                files={"acl.c": lines(10, "a") + lines(40, "b") + lines(60, "c")})
    repo.commit("Fix the password check", author=BOB, date=_at(10, 9), files={"auth.c": lines(20, "p")})
    repo.commit("Add a helper to compare the hashes", author=BOB, date=_at(10, 10),
                files={"auth.c": lines(20, "p") + lines(30, "h")})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["ACL: fix subcommand matching"] == wid["ACL: implement command categories"]
    assert _item(items, wid["ACL: fix subcommand matching"])["category"] == "feature"
    assert wid["Fix the password check"] == wid["Add a helper to compare the hashes"]
    assert _item(items, wid["Fix the password check"])["category"] == "bug"


def test_a_sliver_of_an_item_neither_names_it_nor_sets_its_kind(tmp_path):
    """ripgrep: a 7-line `disable hyperlinks by default` fix opened the 18,865-line move from clap
    to lexopt (the profile's "largest fix"), and a 1-line `core: add index module` named the
    562-line indexing scaffolding. A first step with a real share of the code still names it."""
    repo = GitScript.init(tmp_path / "repo")
    lines = lambda n, tag: "".join(f"let {tag}{i} = {i};\n" for i in range(n))  # noqa: E731
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"cli/flags.rs": lines(5, "f"), "core/search.rs": lines(3, "m"), "auth/hash.rs": lines(4, "h")})
    repo.commit("cli: fix hyperlinks shown by default", author=ADA, date=_at(3, 9),
                files={"cli/flags.rs": lines(5, "f") + "let hyperlinks = false;\n"})
    repo.commit("cli: replace clap with lexopt", author=ADA, date=_at(3, 10),
                files={"cli/flags.rs": lines(5, "f") + "let hyperlinks = false;\n" + lines(200, "lexopt")})
    repo.commit("core: add index module", author=ADA, date=_at(6, 9),
                files={"core/search.rs": lines(3, "m") + "mod index;\n"})
    repo.commit("index: add some initial indexing scaffolding", author=ADA, date=_at(6, 10),
                files={"core/search.rs": lines(3, "m") + "mod index;\nuse index::Index;\n", "core/index.rs": lines(150, "ix")})
    repo.commit("Fix the password check", author=BOB, date=_at(10, 9), files={"auth/hash.rs": lines(4, "h") + lines(20, "p")})
    repo.commit("Simplify the hash loop", author=BOB, date=_at(10, 10), files={"auth/hash.rs": lines(4, "h") + lines(21, "p")})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["cli: fix hyperlinks shown by default"] == wid["cli: replace clap with lexopt"]
    lexopt = _item(items, wid["cli: replace clap with lexopt"])
    assert (lexopt["category"], lexopt["title"]) == ("refactor", "cli: replace clap with lexopt")
    assert wid["core: add index module"] == wid["index: add some initial indexing scaffolding"]
    index = _item(items, wid["core: add index module"])
    assert (index["category"], index["title"]) == ("feature", "index: add some initial indexing scaffolding")
    assert wid["Fix the password check"] == wid["Simplify the hash loop"]
    fix = _item(items, wid["Fix the password check"])
    assert (fix["category"], fix["title"]) == ("bug", "Fix the password check")


def test_a_subject_about_the_review_never_names_an_item_that_has_a_better_one(tmp_path):
    """jq: 'Improve invalid object key error message' was titled 'Address comments on PR #950'
    once the item's kind came from its second commit."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"src/jv.c": "x\n"})
    repo.commit("Improve invalid object key error message", author=ADA, date=_at(3, 9),
                files={"tests/jq.test": "t\n", "docs/manual.yml": "m\n"})
    repo.commit("Address comments on PR #950", author=ADA, date=_at(3, 11),
                files={"tests/jq.test": "t\nu\n", "src/jv.c": "x\n" + "".join(f"err{i}\n" for i in range(30))})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["Improve invalid object key error message"] == wid["Address comments on PR #950"]
    assert _item(items, wid["Address comments on PR #950"])["title"] == "Improve invalid object key error message"


def test_cosmetic_changes_name_an_item_only_when_nothing_else_does(tmp_path):
    """gin: an item of "Cosmetic changes" and "Using uint64 for ErrorType" was titled "Cosmetic
    changes". ("Fix for #310" at least says it fixes an issue: a commit's "more tests" beside it
    would name it worse; a pull request's title of that kind gives way, its commits say more.)"""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"errors.go": "package gin\n"})
    repo.commit("Cosmetic changes", author=ADA, date=_at(3, 9), files={"errors.go": "package gin\n\n"})
    repo.commit("Simplify the error types", author=ADA, date=_at(3, 10), files={"errors.go": "package gin\ntype E uint64\n"})
    repo.commit("Fix for #310", author=ADA, date=_at(9, 9), files={"context.go": "package gin\n"})
    repo.commit("Context.Bind() returns an error when the body is empty", author=ADA, date=_at(9, 10),
                files={"context.go": "package gin\nvar ErrEmpty error\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["Cosmetic changes"] == wid["Simplify the error types"]
    assert _item(items, wid["Cosmetic changes"])["title"] == "Simplify the error types"
    assert _item(items, wid["Fix for #310"])["title"] == "Fix for #310"


def test_a_report_of_where_the_work_stands_or_a_step_of_the_workflow_names_no_item(tmp_path):
    """axum: five commits of its routing work ("More error handling of layered handlers",
    "checkpoint", "not quite working", ...) were titled "not quite working", which the profile
    listed among its largest fixes."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"src/routing.rs": "pub fn route() {}\n"})
    repo.commit("not quite working", author=ADA, date=_at(3, 9),
                files={"src/routing.rs": "pub fn route() {}\npub fn layer() { todo!() }\n"})
    repo.commit("checkpoint", author=ADA, date=_at(3, 10),
                files={"src/routing.rs": "pub fn route() {}\npub fn layer() { handle() }\n"})
    repo.commit("Handle errors of layered handlers", author=ADA, date=_at(3, 11),
                files={"src/routing.rs": "pub fn route() {}\npub fn layer() -> Result<(), E> { handle() }\n"})
    # ... nor does a step of the author's workflow (urfave/cli's #1498 had been titled by its
    # `Initial cut`, #1568 by `Rebase of generics changes`)
    repo.commit("Initial cut", author=ADA, date=_at(5, 9),
                files={"src/command.rs": "pub fn run() {}\n"})
    repo.commit("Add run_as_subcommand to keep the API unchanged", author=ADA, date=_at(5, 10),
                files={"src/command.rs": "pub fn run() {}\npub fn run_as_subcommand() { run() }\n"})
    repo.commit("Rebase of generics changes", author=ADA, date=_at(5, 11),
                files={"src/command.rs": "pub fn run() {}\npub fn run_as_subcommand() { run() }\n// generic\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["not quite working"] == wid["checkpoint"] == wid["Handle errors of layered handlers"]
    assert _item(items, wid["not quite working"])["title"] == "Handle errors of layered handlers"
    assert wid["Initial cut"] == wid["Rebase of generics changes"] == wid["Add run_as_subcommand to keep the API unchanged"]
    assert _item(items, wid["Initial cut"])["title"] == "Add run_as_subcommand to keep the API unchanged"


def test_a_fixup_joins_the_commit_it_names(tmp_path):
    """click: `fixup! add gha-update`, pushed a day later, was a bug item of its own."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"app.py": "x\n"})
    target = repo.commit("add gha-update", author=ADA, date=_at(3, 9), files={".github/workflows/update.yaml": "on: push\n"})
    other = repo.commit("Fix the parser on empty input", author=ADA, date=_at(4, 9), files={"parser.py": "p\n"})
    fix = repo.commit("fixup! add gha-update", author=ADA, date=_at(5, 12),
                      files={".github/workflows/update.yaml": "on: schedule\n"})
    foreign = repo.commit("fixup! add gha-update", author=BOB, date=_at(5, 13), files={"tools/x.sh": "y\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[fix] == wid[target] != wid[other]
    assert wid[foreign] != wid[target]  # another person's marker names their own commit, not Ada's
    assert _item(items, wid[target])["title"] == "add gha-update"


def test_a_commit_without_a_message_is_named_by_a_file_of_its_own(tmp_path):
    """Newtonsoft.Json's first commit, no message, had been titled "Change to
    Src/Lib/nunit.framework.xml and 42 other files" (a copied tool's data, its largest file): a
    file left out of lines of code names it only when nothing else does."""
    from exceeds_pipeline.enrich.exclusions import classify_exclusions

    repo = GitScript.init(tmp_path / "r")
    lock = "".join(f'"dep{i}": "1.0.{i}",\n' for i in range(400))
    repo.commit("", author=ADA, date=_at(1, 9), files={"package-lock.json": lock, "src/reader.js": "export const read = 1\n"})
    repo.commit("", author=ADA, date=_at(3, 9), files={"package-lock.json": lock + '"x": "2",\n'})
    commits, files = read_repo(repo)
    links = commit_links(commits)
    files = classify_exclusions(files, commits)
    _, items = assign_work_items(categorize_commits(commits, files, links), links, files)
    titles = set(items["title"].to_list())
    assert "Change to src/reader.js and 1 other file" in titles
    assert "Change to package-lock.json" in titles


def test_titles_of_subversion_era_commits(tmp_path):
    """A log copied from a CHANGES file opens with a list bullet, which names nothing; a commit
    without a message is named by what it changed."""
    repo = GitScript.init(tmp_path / "r")
    repo.commit("- the raw 2to3 run\n\n- and the compat module", author=ADA, date=_at(1, 9),
                files={"lib/compat.py": "PY3 = True\n"})
    repo.commit("", author=ADA, date=_at(3, 9), files={"lib/orm/query.py": "class Query:\n    pass\n\n\n",
                                                        "lib/orm/util.py": "X = 1\n"})
    repo.commit("", author=BOB, date=_at(5, 9), files={"doc/notes.txt": "notes\n"})
    repo.commit("- 2.1.0b3", author=ADA, date=_at(7, 9), files={"lib/__init__.py": "__version__ = '2.1.0b3'\n"})
    out, items = _run(repo)
    titles = set(items["title"].to_list())
    assert "The raw 2to3 run" in titles or "the raw 2to3 run" in titles
    assert "Change to lib/orm/query.py and 1 other file" in titles
    assert "Change to doc/notes.txt" in titles
    assert "Release 2.1.0b3" in titles
    assert not any(t.startswith("-") or not t.strip() for t in titles)


def test_a_reland_that_reverts_the_revert_is_the_change_not_a_revert(tmp_path):
    """SQLAlchemy's "modernize annotationlib approach": `This reverts commit <the revert>, which
    reverted this change originally, so it restores the change`. It re-does a fix: the item is
    the fix, named by it, landed in the end."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"core.py": "0\n"})
    original = repo.commit("Restore annotations after building the dataclass", author=ADA, date=_at(1, 9),
                           files={"dc.py": "def restore(cls):\n    return cls.__annotations__\n"})
    revert = repo.revert(original, author=ADA, date=_at(2, 9), reason="New tests fail on GH actions.")
    reland = repo.commit(f"modernize annotationlib approach\n\nThis reverts commit {revert} which reverted this "
                         "change originally, so it restores the change.", author=ADA, date=_at(5, 9),
                         files={"dc.py": "def restore(cls):\n    return get_annotations(cls)\n"})
    out, items = _run(repo)
    cat = dict(zip(out["sha"], out["category"]))
    assert cat[revert] == "revert"
    assert cat[reland] == cat[original] != "revert"
    item = _item(items, by_subject(out, "work_item_id")["Restore annotations after building the dataclass"])
    assert item["commits"] == 3  # the change, its own revert and its reland: one chain
    assert item["title"] == "Restore annotations after building the dataclass"
    assert item["category"] == cat[original]
    assert item["later_reverted"] is False and item["relanded_by"] == [reland]


def test_a_sweep_over_the_tree_relates_to_no_neighbour_by_a_shared_file(tmp_path):
    """SQLAlchemy: "happy new year" (a copyright line in 254 files) joined the MariaDB split of
    the hour before and a docs fix of the hour after into one item."""
    repo = GitScript.init(tmp_path / "repo")
    modules = [f"lib/m{i:02d}.py" for i in range(60)]
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={m: f"# (c) 2024\nX{i} = {i}\n" for i, m in enumerate(modules)})
    repo.commit("Separate out the MariaDB dialect", author=ADA, date=_at(2, 9),
                files={"lib/m00.py": "# (c) 2024\nX0 = 0\nMARIADB = True\n", "lib/mariadb.py": "NAME = 'mariadb'\n"})
    repo.commit("happy new year", author=ADA, date=_at(2, 10),
                files={m: f"# (c) 2025\nX{i} = {i}\n" + ("MARIADB = True\n" if i == 0 else "")
                       for i, m in enumerate(modules)})
    repo.commit("Clarify how the pool recycles connections", author=ADA, date=_at(2, 11),
                files={"lib/m01.py": "# (c) 2025\nX1 = 1\n# recycled after an hour\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    three = {wid["Separate out the MariaDB dialect"], wid["happy new year"], wid["Clarify how the pool recycles connections"]}
    assert len(three) == 3


def test_a_shallow_sweep_joins_at_most_its_nearest_change(tmp_path):
    """ripgrep: eight commits written over two months and pushed together, five fixes among them,
    were one item through `style: apply rustfmt` (40 files, 6 lines each) and `rust: move to Rust
    2024`, each sharing a file with several fixes. A sweep relays nothing: it joins the change
    nearest to it at most. A commit of few files relates by them as before."""
    repo = GitScript.init(tmp_path / "repo")
    modules = [f"src/m{i:02d}.rs" for i in range(12)]
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={m: f"let x{i} = {i};\n" for i, m in enumerate(modules)})
    push = "2025-03-09T01:08:19+0000"
    first = repo.commit("stats: fix case where bytes searched could be wrong", author=ADA, date=_at(2, 9), committer_date=push,
                        files={"src/m00.rs": "let x0 = 0;\nlet bytes = 0;\n"})
    second = repo.commit("globset: fix trailing dot in file names", author=ADA, date=_at(4, 9), committer_date=push,
                         files={"src/m01.rs": "let x1 = 1;\nlet dot = true;\n"})
    sweep = repo.commit("style: apply rustfmt", author=ADA, date=_at(6, 9), committer_date=push,
                        files={m: f"let x{i} = {i};\n" + ("let bytes = 0;\n" if i == 0 else "let dot = true;\n" if i == 1 else "")
                               + "// fmt\n" for i, m in enumerate(modules)})
    third = repo.commit("printer: fix has_match for the summary printer", author=ADA, date=_at(7, 9), committer_date=push,
                        files={"src/m02.rs": "let x2 = 2;\n// fmt\nlet has_match = true;\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert len({wid[first], wid[second], wid[third]}) == 3
    assert wid[sweep] == wid[third]  # written the day before it


def test_a_commit_beside_a_revert_in_its_pull_request_does_not_land_the_change_again(tmp_path):
    """tornado: "asyncio: Remove atexit hook" (PR #3295) was reverted three months later by PR
    #3339, which also closed a thread pool in a test. The test fix joins the chain through its
    pull request, but it is not the change landed again: the change stays later reverted."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"asyncio.py": "import atexit\natexit.register(close)\n", "tests/t.py": "pool = Pool()\n"})
    repo.branch("remove-atexit", checkout=True)
    original = repo.commit("asyncio: Remove atexit hook", author=ADA, date=_at(2, 9),
                           files={"asyncio.py": "def close():\n    pass\n"})
    repo.checkout("main")
    repo.merge("remove-atexit", "Merge pull request #3295 from ada/remove-atexit", author=ADA, date=_at(2, 10))
    repo.branch("revert-atexit", checkout=True)
    revert = repo.revert(original, author=ADA, date=_at(20, 9))
    repo.commit("test: Close the thread pool in run_on_executor test", author=ADA, date=_at(21, 9),
                files={"tests/t.py": "pool = Pool()\npool.shutdown()\nassert pool.closed\n" + "check()\n" * 30})
    repo.checkout("main")
    repo.merge("revert-atexit", "Merge pull request #3339 from ada/revert-atexit", author=ADA, date=_at(21, 10))
    out, items = _run(repo)
    item = _item(items, by_subject(out, "work_item_id")["asyncio: Remove atexit hook"])
    assert item["later_reverted"] is True and item["reverted_by"] == [revert]
    assert item["relanded_by"] == []


def test_a_commit_that_names_a_file_its_authors_last_commit_added_or_removed_is_that_change(tmp_path):
    """tmux: "Remove README.ja which has not been updated since 2018 ..." and, a minute later,
    "Remove README.ja from EXTRA_DIST." (Makefile.am); curl: "example using multiple threads to
    get URLs" (adds docs/examples/multithread.c), then "Added multithread.c" (the examples'
    Makefile). A name several folders use (each package's Makefile.am) relates nothing."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial import", author=ADA, date=_at(1, 8), files={
        "README.ja": "古い\n", "Makefile.am": "EXTRA_DIST = README.ja\n", "src/main.c": "int main;\n",
        "docs/examples/Makefile.am": "noinst = simple\n", "lib/Makefile.am": "SRC = a.c\n"})
    repo.commit("Remove README.ja which has not been updated since 2018 and is out of date.", author=ADA,
                date="2025-03-02T10:39:46+0000", files={"README.ja": None})
    repo.commit("Remove README.ja from EXTRA_DIST.", author=ADA, date="2025-03-02T10:40:47+0000",
                files={"Makefile.am": "EXTRA_DIST =\n"})
    repo.commit("example using multiple threads to get URLs", author=ADA, date=_at(3, 9),
                files={"docs/examples/multithread.c": "int threads;\n"})
    repo.commit("Added multithread.c", author=ADA, date=_at(3, 10),
                files={"docs/examples/Makefile.am": "noinst = simple multithread\n"})
    # A new package brings its own Makefile.am; "Makefile.am: ..." the next day is another change.
    repo.commit("New package for the SSH backend", author=ADA, date=_at(5, 9),
                files={"ssh/Makefile.am": "SRC = ssh.c\n", "ssh/ssh.c": "int ssh;\n"})
    repo.commit("Makefile.am: build the library with -O2", author=ADA, date=_at(6, 9),
                files={"lib/Makefile.am": "SRC = a.c\nCFLAGS = -O2\n"})
    # Named by another author: not the change of the one who removed it.
    repo.commit("Drop the old multithread example", author=ADA, date=_at(8, 9),
                files={"docs/examples/multithread.c": None})
    repo.commit("multithread.c is gone: take it off the examples page", author=BOB, date=_at(8, 10),
                files={"docs/index.html": "examples\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["Remove README.ja from EXTRA_DIST."] == wid[
        "Remove README.ja which has not been updated since 2018 and is out of date."]
    assert wid["Added multithread.c"] == wid["example using multiple threads to get URLs"]
    assert wid["Makefile.am: build the library with -O2"] != wid["New package for the SSH backend"]
    assert wid["multithread.c is gone: take it off the examples page"] != wid["Drop the old multithread example"]


def test_a_title_is_what_follows_a_gitmoji_or_a_tag_and_more_than_an_issue_number(tmp_path):
    """nlohmann/json opens 1,633 of 3,700 subjects with a gitmoji (`:memo: document Drone CI`);
    requests' pull request titles carry `[WIP]`, or name only an issue (`Fix #2180.`). Titles are
    the words after the mark, or the commits' words; a subject that is nothing but a mark keeps it."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"src/a.c": "int a;\n"})
    repo.commit(":memo: document Drone CI", author=ADA, date=_at(2, 9), files={"docs/ci.md": "Drone\n"})
    repo.commit("🐛 fix the overflow in the lexer", author=ADA, date=_at(4, 9), files={"src/a.c": "int a = 0;\n"})
    repo.commit(":hammer:", author=ADA, date=_at(8, 9), files={"tools/x.sh": "echo\n"})
    repo.branch("appveyor", checkout=True)
    repo.commit("Add appveyor.yml", author=BOB, date=_at(12, 9), files={"appveyor.yml": "build: off\n"})
    repo.checkout("main")
    repo.merge("appveyor", "Merge pull request #7 from bob/appveyor\n\n[WIP] Fix up appveyor testing.",
               author=ADA, date=_at(12, 12))
    # a pull request titled by its issue alone is named by its commit
    repo.branch("fix-2180", checkout=True)
    repo.commit("Honour the timeout on redirects", author=BOB, date=_at(14, 9), files={"src/a.c": "int a = 1;\n"})
    repo.checkout("main")
    repo.merge("fix-2180", "Merge pull request #8 from bob/fix-2180\n\nFix #2180.", author=ADA, date=_at(14, 12))
    out, items = _run(repo)
    titles = set(items["title"])
    assert {"document Drone CI", "fix the overflow in the lexer", ":hammer:", "Fix up appveyor testing.",
            "Honour the timeout on redirects"} <= titles


def test_a_topic_branch_merged_by_name_is_one_change_and_an_integration_branch_is_not(tmp_path):
    """gin: `Merge branch 'routes-list'` brought in "List of routes", "gofmt" and "Routes()
    returns the function name" (three items before); git/git merges each patch series as
    `Merge branch 'ab/topic'`. A merge of `next`, of a release line (`3.3-rc`, `3.x`) or of a
    branch that merged other branches is many changes; a pull request stays one item, whatever
    its branch (SPEC: one pull request number, one item)."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"gin.go": "package gin\n"})
    repo.branch("routes-list", checkout=True)
    listed = repo.commit("List of routes", author=ADA, date=_at(2, 9), files={"routes.go": "package gin\n"})
    fmt = repo.commit("gofmt", author=ADA, date=_at(2, 11), files={"context.go": "package gin\n"})
    names = repo.commit("Routes() returns the function name of the main handler", author=ADA, date=_at(3, 9),
                        files={"utils.go": "package gin\n"})
    repo.checkout("main")
    repo.merge("routes-list", author=ADA, date=_at(3, 10))
    repo.branch("next", checkout=True)
    a1 = repo.commit("Add a cookie jar", author=BOB, date=_at(5, 9), files={"jar.go": "package gin\n"})
    a2 = repo.commit("Support HEAD in the router", author=BOB, date=_at(5, 11), files={"head.go": "package gin\n"})
    repo.checkout("main")
    repo.merge("next", author=ADA, date=_at(5, 12))
    repo.branch("develop", checkout=True)
    d_ada = repo.commit("Render protobuf", author=ADA, date=_at(7, 9), files={"protobuf.go": "package gin\n"})
    d_bob = repo.commit("Bind form arrays", author=BOB, date=_at(7, 10), files={"form.go": "package gin\n"})
    d_cat = repo.commit("Fix the logger colours", author=CAT, date=_at(7, 11), files={"logger.go": "package gin\n"})
    repo.checkout("main")
    repo.merge("develop", "Merge pull request #871 from gin-gonic/develop\n\nv1.2", author=ADA, date=_at(8, 9))
    # requests: feature/urllib3-backup had itself merged other branches: it collects changes
    repo.branch("feature/rewrite", checkout=True)
    r1 = repo.commit("Testimonials", author=ADA, date=_at(10, 9), files={"docs/people.rst": "ok\n"})
    repo.branch("fix-slash")
    repo.checkout("fix-slash")
    repo.commit("Keep the trailing slash", author=BOB, date=_at(10, 10), files={"url.go": "package gin\n"})
    repo.checkout("feature/rewrite")
    repo.merge("fix-slash", author=ADA, date=_at(10, 11))
    r2 = repo.commit("Makefile: add a coverage target", author=ADA, date=_at(10, 12), files={"Makefile": "cov:\n"})
    repo.checkout("main")
    repo.merge("feature/rewrite", author=ADA, date=_at(11, 9))
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    prs = dict(out.select("sha", "pr_number").rows())
    assert wid[listed] == wid[fmt] == wid[names]
    assert _item(items, wid[listed])["title"] == "List of routes"
    assert wid[a1] != wid[a2]
    assert wid[d_ada] == wid[d_bob] == wid[d_cat] == "acme/app#pr-871" and prs[d_ada] == 871
    assert wid[r1] != wid[r2]


def test_a_topic_branch_stays_one_change_over_a_pause_of_days(tmp_path):
    """redis: antirez's `acl-log` went on after five days and was merged as one branch; it had
    been two items, the second a "bug" by its `log failed auth attempts`. Over a pause of days
    the commits name one component (`ACL LOG: ...`); a pause longer than a series' still ends
    the change."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date="2025-01-01T08:00:00+0000", files={"acl.c": "int acl;\n"})
    repo.branch("acl-log", checkout=True)
    log1 = repo.commit("ACL LOG: data structures and initial functions", author=ADA, date="2025-01-02T09:00:00+0000",
                       files={"acllog.c": "int log;\n"})
    log2 = repo.commit("ACL LOG: log failed auth attempts", author=ADA, date="2025-01-08T09:00:00+0000",
                       files={"auth.c": "int auth;\n"})
    log3 = repo.commit("ACL LOG: make max log entries configurable", author=ADA, date="2025-01-08T11:00:00+0000",
                       files={"config.c": "int max;\n"})
    late = repo.commit("ACL LOG: group similar entries", author=ADA, date="2025-02-20T09:00:00+0000",
                       files={"group.c": "int group;\n"})
    repo.checkout("main")
    repo.merge("acl-log", author=ADA, date="2025-02-21T09:00:00+0000")
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[log1] == wid[log2] == wid[log3]
    assert wid[late] != wid[log1]
    assert _item(items, wid[log1])["category"] == "feature"


def test_edits_of_one_page_minutes_apart_stay_one_change_across_an_upload_between_them(tmp_path):
    """requests: a README rewrite in GitHub's web editor, 110 commits in three hours, was cut
    into 25 items at every image uploaded between two edits. Between two changes of code one
    commit in between still says they are two (express's first weeks: a feature every ten
    minutes in one file)."""
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date="2025-01-01T08:00:00+0000",
                files={"README.md": "# app\n", "lib/app.js": "exports.a = 1\n", "lib/util.js": "exports.u = 1\n"})
    first = repo.commit("Update README.md", author=ADA, date="2025-01-02T07:17:00+0000", files={"README.md": "# app\nintro\n"})
    image = repo.commit("flourish", author=ADA, date="2025-01-02T07:19:00+0000", files={"ext/flourish.png": png})
    second = repo.commit("Update README.md", author=ADA, date="2025-01-02T07:20:00+0000",
                         files={"README.md": "# app\nintro\n![](ext/flourish.png)\n"})
    cookie = repo.commit("Added parseCookie()", author=ADA, date="2025-01-03T16:43:00+0000",
                         files={"lib/app.js": "exports.a = 1\nexports.parseCookie = 1\n"})
    repo.commit("Added logger", author=ADA, date="2025-01-03T16:47:00+0000", files={"lib/log.js": "exports.log = 1\n"})
    hook = repo.commit("Added hook()", author=ADA, date="2025-01-03T16:55:00+0000",
                       files={"lib/app.js": "exports.a = 1\nexports.parseCookie = 1\nexports.hook = 1\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[first] == wid[second] != wid[image]
    assert wid[cookie] != wid[hook]


@pytest.mark.parametrize(("branch", "integration"), [
    ("next", True), ("3.3-rc", True), ("tmux-3.6a", True), ("rel_0_9", True), ("branch4.0", True),
    ("3.x", True), ("release/2.6.1", True), ("master", True),
    ("routes-list", False), ("ab/topic", False), ("https-proxy-2.0", False), ("fix-2180", False),
    ("feature/manual_lexer", False),
])
def test_which_merged_branches_are_integration_lines(branch, integration):
    from exceeds_pipeline.classify.work_items import INTEGRATION_BRANCH

    assert bool(re.search(INTEGRATION_BRANCH, branch)) is integration


def test_a_topic_branch_is_named_by_what_its_merge_says_it_did(tmp_path):
    """git/git: `Merge branch 'hn/branch-delete-merged'` describes the topic ("The 'git branch'
    command has been taught the '--delete-merged' option ..."); its first commit reads "branch:
    add --forked filter for --list mode". A merge without a description, or with only the
    branch's list of commits, leaves the commits to name it."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"branch.c": "int b;\n"})
    repo.branch("hn/branch-delete-merged", checkout=True)
    first = repo.commit("branch: add --forked filter for --list mode", author=BOB, date=_at(2, 9),
                        files={"branch.c": "int b;\nint forked;\n"})
    repo.commit("branch: add --delete-merged <pattern>", author=BOB, date=_at(2, 10),
                files={"branch.c": "int b;\nint forked;\nint merged;\n"})
    repo.checkout("main")
    repo.merge("hn/branch-delete-merged",
               "Merge branch 'hn/branch-delete-merged'\n\n"
               "The 'git branch' command has been taught the '--delete-merged' option\n"
               "to remove local branches that are already merged into their upstream.\n\n"
               "* hn/branch-delete-merged:\n  branch: add --delete-merged <pattern>\n"
               "  branch: add --forked filter for --list mode\n", author=ADA, date=_at(3, 9))
    repo.branch("cat/listed", checkout=True)
    listed = repo.commit("refs: introduce a ref iterator", author=CAT, date=_at(4, 9), files={"refs.c": "int r;\n"})
    repo.commit("refs: expose the peeled object ID", author=CAT, date=_at(4, 10), files={"refs.c": "int r;\nint p;\n"})
    repo.checkout("main")
    repo.merge("cat/listed", "Merge branch 'cat/listed'\n\n* cat/listed:\n  refs: expose the peeled object ID\n"
               "  refs: introduce a ref iterator\n", author=ADA, date=_at(5, 9))
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert _item(items, wid[first])["title"] == ("The 'git branch' command has been taught the '--delete-merged' option "
                                                 "to remove local branches that are already merged into their upstream")
    assert _item(items, wid[listed])["title"] == "refs: introduce a ref iterator"


def test_commits_written_over_days_and_committed_together_are_one_change_when_related(tmp_path):
    """Alamofire: Christian Noon rebased each feature onto the main line and pushed it: `Added
    retry support ...` (Jan 31) and `Added unit tests for retry policy ...` (Feb 6), committed
    the same second on Feb 7, were two items. Committed together and related (a test file named
    for the source file, a shared file), they are one change; unrelated commits of the same push
    stay apart, and so do related commits committed separately, days apart."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"Source/Session.swift": "a\n", "README.md": "x\n"})
    push = "2025-03-20T10:02:03+0000"
    policy = repo.commit("Added retry support per request as well as retry policies", author=BOB, date=_at(3, 9),
                         committer_date=push, files={"Source/RetryPolicy.swift": "p\n", "Source/Session.swift": "b\n"})
    tests = repo.commit("Added unit tests for the connection lost policy", author=BOB, date=_at(9, 9),
                        committer_date=push, files={"Tests/RetryPolicyTests.swift": "t\n"})
    session = repo.commit("Renamed originError to originalError for request failures", author=BOB, date=_at(12, 9),
                          committer_date="2025-03-20T10:02:04+0000", files={"Source/Session.swift": "c\n"})
    readme = repo.commit("Updated the supported versions in the README", author=BOB, date=_at(14, 9),
                         committer_date="2025-03-20T10:02:04+0000", files={"README.md": "y\n"})
    # the same kind of relation, committed as written, a week apart: two changes
    later = repo.commit("Added the backoff policy", author=BOB, date=_at(22, 9), files={"Source/Backoff.swift": "b\n"})
    later_tests = repo.commit("Added tests for the jitter", author=BOB, date=_at(29, 9), files={"Tests/BackoffTests.swift": "t\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[policy] == wid[tests] == wid[session]
    assert wid[readme] != wid[policy]
    assert wid[later] != wid[later_tests]


def test_opening_the_next_version_ends_a_run_of_release_steps(tmp_path):
    """okhttp: `Prepare for release .` (its script wrote no version), `Prepare next development
    version.` a minute later, then `Prepare for release 5.0.0-alpha.16.` four hours later: the
    opening of the next version had joined the later release."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"version.txt": "1-SNAPSHOT\n", "a.kt": "x\n"})
    failed = repo.commit("Prepare for release .", author=ADA, date="2025-03-05T12:27:38+0000", files={"version.txt": "\n", "CHANGELOG.md": "## \n"})
    opened = repo.commit("Prepare next development version.", author=ADA, date="2025-03-05T12:28:45+0000",
                         files={"version.txt": "2-SNAPSHOT\n"})
    release = repo.commit("Prepare for release 5.0.0-alpha.16.", author=ADA, date="2025-03-05T16:55:43+0000",
                          files={"version.txt": "5.0.0-alpha.16\n", "CHANGELOG.md": "## 5.0.0-alpha.16\n"})
    after = repo.commit("Prepare next development version.", author=ADA, date="2025-03-05T16:55:57+0000",
                        files={"version.txt": "5.0.0-SNAPSHOT\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[release] == wid[after]
    assert wid[opened] != wid[release] and wid[failed] != wid[release]


def test_the_next_development_version_set_in_a_build_script_is_the_releases_last_step(tmp_path):
    """okhttp 5.4.0: `Prepare for release 5.4.0.` (the changelog, the READMEs and the version in
    build-logic's convention plugin), then `Prepare next development version.` 13 s later, the
    SNAPSHOT version in that plugin alone, were two items (5.3.0, whose version sat in
    build.gradle.kts, was one). A build change right after that opens no version stays apart."""
    repo = GitScript.init(tmp_path / "repo")
    plugin = "build-logic/src/main/kotlin/okhttp.base-conventions.gradle.kts"
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        plugin: 'version = "5.4.0-SNAPSHOT"\n', "CHANGELOG.md": "# Change Log\n", "README.md": "5.3.0\n", "a.kt": "x\n"})
    release = repo.commit("Prepare for release 5.4.0.", author=ADA, date="2025-03-05T15:34:43+0000", files={
        plugin: 'version = "5.4.0"\n', "CHANGELOG.md": "# Change Log\n## 5.4.0\n * New: x\n", "README.md": "5.4.0\n"})
    opened = repo.commit("Prepare next development version.", author=ADA, date="2025-03-05T15:34:56+0000",
                         files={plugin: 'version = "5.5.0-SNAPSHOT"\n'})
    build = repo.commit("Build with Gradle 9", author=ADA, date="2025-03-05T15:40:00+0000",
                        files={"gradle/libs.versions.toml": "gradle = 9\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[release] == wid[opened] != wid[build]
    assert _item(items, wid[release])["category"] == "chore"


def test_the_changelog_opened_after_a_squashed_release_is_its_last_step(tmp_path):
    """black: `Prepare release 24.3.0 (#4279)`, a squashed pull request, then `Add new change
    template` (CHANGES.md's empty `## Unreleased` skeleton) 23 minutes later had been a docs
    item of its own (10 of Jelle Zijlstra's 47 docs items)."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"CHANGES.md": "# Change Log\n", "src/black/__init__.py": "x = 1\n"})
    release = repo.commit("Prepare release 24.3.0 (#4279)", author=ADA, date="2025-03-05T10:00:00+0000",
                          files={"CHANGES.md": "# Change Log\n\n## 24.3.0\n\n- Fix a crash (#4270)\n"})
    opened = repo.commit("Add new change template", author=ADA, date="2025-03-05T10:23:00+0000",
                         files={"CHANGES.md": "# Change Log\n\n## Unreleased\n\n### Stable style\n\n## 24.3.0\n\n- Fix a crash (#4270)\n"})
    fix = repo.commit("Fix the docs link (#4281)", author=ADA, date="2025-03-05T10:40:00+0000",
                      files={"CHANGES.md": "# Change Log\n\n## Unreleased\n\n- Fix the docs link (#4281)\n\n## 24.3.0\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[release] == wid[opened] != wid[fix]
    assert _item(items, wid[release])["category"] == "chore"


def test_a_title_that_only_points_at_a_pull_request_says_what_it_was(tmp_path):
    """serde: `Touch up PR 2879`, pushed to master after merging another author's pull request,
    told a reader nothing; the pull request's title (its merge body) says what was touched up."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"derive/src/de.rs": "fn de() {}\n"})
    repo.branch("allow-deprecated", checkout=True)
    repo.commit("Allow deprecated in derives", author=BOB, date=_at(2, 9), files={"derive/src/deprecated.rs": "// allow\n"})
    repo.checkout("main")
    # (serde's merge of it reads `Merge pull request 2879 from ...`, no `#`)
    repo.merge("allow-deprecated", "Merge pull request 2879 from bob/allow-deprecated\n\n"
               "add #[allow(deprecated)] to derive implementations", author=ADA, date=_at(3, 9))
    touch = repo.commit("Touch up PR 2879", author=ADA, date=_at(4, 9),
                        files={"derive/src/internals/deprecated.rs": "// allow\n", "derive/src/deprecated.rs": None})
    other = repo.commit("Touch up PR 3000", author=ADA, date=_at(6, 9), files={"derive/src/de.rs": "fn de() { }\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert _item(items, "acme/app#pr-2879")["title"] == "add #[allow(deprecated)] to derive implementations"
    assert _item(items, wid[touch])["title"] == "Touch up PR 2879: add #[allow(deprecated)] to derive implementations"
    assert _item(items, wid[other])["title"] == "Touch up PR 3000"  # no such pull request here


def test_a_merge_body_of_conflicted_files_is_no_pull_request_title(tmp_path):
    """serde: `Merge pull request 963 from sfackler/u64-identifier` with the body `Conflicts:` and
    a file name had titled the pull request "Conflicts:"; its commit names it."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"de.rs": "fn de() {}\n"})
    repo.branch("u64-identifier", checkout=True)
    repo.commit("Fix identifier deserialization from non-u32", author=BOB, date=_at(2, 9), files={"de.rs": "fn de() { u64 }\n"})
    repo.checkout("main")
    repo.merge("u64-identifier", "Merge pull request 963 from bob/u64-identifier\n\nConflicts:\n\tde.rs",
               author=ADA, date=_at(3, 9))
    _, items = _run(repo)
    assert _item(items, "acme/app#pr-963")["title"] == "Fix identifier deserialization from non-u32"


def test_a_test_named_for_the_changed_source_file_joins_the_change_up_to_two_hours_later(tmp_path):
    """guzzle: `Test fix` (tests/Handler/CurlFactoryTest.php) 42 minutes after `Removing
    content-length guessing from curl` (src/Handler/CurlFactory.php) was an item of its own.
    A test named for the file of the change after it, or three hours later, stays apart."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/Handler/CurlFactory.php": "<?php\n", "src/Client.php": "<?php\n", "src/Pool.php": "<?php\n"})
    change = repo.commit("Removing content-length guessing from curl", author=ADA, date=_at(3, 4),
                         files={"src/Handler/CurlFactory.php": "<?php // no guessing\n"})
    test = repo.commit("Test fix", author=ADA, date="2025-03-03T04:42:00+0000",
                       files={"tests/Handler/CurlFactoryTest.php": "<?php // test\n"})
    early = repo.commit("One more time trying to fix the client test", author=ADA, date=_at(5, 9),
                        files={"tests/ClientTest.php": "<?php // client\n"})
    client = repo.commit("Adding more late static binding", author=ADA, date="2025-03-05T09:40:00+0000",
                         files={"src/Client.php": "<?php // static\n"})
    pool = repo.commit("Batching the pool", author=ADA, date=_at(7, 9), files={"src/Pool.php": "<?php // batch\n"})
    late = repo.commit("Pool test", author=ADA, date=_at(7, 12), files={"tests/PoolTest.php": "<?php // pool\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[change] == wid[test]
    assert wid[early] != wid[client]
    assert wid[pool] != wid[late]


def test_two_changes_each_with_its_changelog_entry_are_two_items(tmp_path):
    """rack: `Cache Rack::Request#POST result ...` and, a day later, `Remove rack.multithread/...`
    shared lib/rack/request.rb and made one item, though each added its own CHANGELOG.md line.
    A follow-up that adds no entry of its own still joins its change."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"lib/rack/request.rb": "a\n", "CHANGELOG.md": "# Changes\n"})
    cache = repo.commit("Cache Rack::Request#POST result if input content type is not parseable", author=ADA,
                        date=_at(3, 9), files={"lib/rack/request.rb": "a\nb\n", "CHANGELOG.md": "# Changes\n- Cache POST\n"})
    remove = repo.commit("Remove rack.multithread/rack.multiprocess/rack.run_once", author=ADA, date=_at(4, 12),
                         files={"lib/rack/request.rb": "a\nb\nc\n", "lib/rack/lint.rb": "l\n",
                                "CHANGELOG.md": "# Changes\n- Cache POST\n- Remove multithread\n"})
    follow = repo.commit("Handle a nil input in the POST cache", author=ADA, date=_at(4, 15),
                         files={"lib/rack/request.rb": "a\nb\nc\nd\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[cache] != wid[remove]
    assert wid[follow] == wid[remove]


def test_a_batchs_change_of_tests_alone_joins_only_the_nearest_change_whose_test_file_it_shares(tmp_path):
    """rack: `Add specs to get coverage back to 100%` (five spec files), pushed with two
    deprecations and a quoting fix that each touched one of those specs, made one item of all."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"lib/auth.rb": "a\n", "lib/parser.rb": "p\n", "test/spec_auth.rb": "t\n", "test/spec_parser.rb": "t\n"})
    push = "2025-03-05T14:36:59+0000"
    deprecate = repo.commit("Deprecate Auth#request", author=ADA, date=_at(5, 12), committer_date=push,
                            files={"lib/auth.rb": "a\nwarn\n", "test/spec_auth.rb": "t\nwarned\n"})
    quoting = repo.commit("Do not remove escaped quotes from filenames", author=ADA, date=_at(5, 13), committer_date=push,
                          files={"lib/parser.rb": "p\nq\n", "test/spec_parser.rb": "t\nquoted\n"})
    specs = repo.commit("Add specs to get coverage back to 100%", author=ADA, date=_at(5, 14), committer_date=push,
                        files={"test/spec_auth.rb": "t\nwarned\nmore\n", "test/spec_parser.rb": "t\nquoted\nmore\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[specs] == wid[quoting]
    assert wid[deprecate] != wid[quoting]


def test_a_changelog_entry_committed_on_top_of_its_authors_change_joins_it(tmp_path):
    """bat: "Add ChangeLog entry" nine minutes after "Add gnuplot syntax", on top of it, is that
    change's entry; rsync: "Mention the latest bugfix." two minutes after the fix. Not an entry
    written after someone else's commit landed, nor one that is a step of a release, nor one
    written hours later."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/syntax.rs": "a\n", "src/parser.rs": "p\n", "CHANGELOG.md": "# Unreleased\n", "Cargo.toml": "version = \"0.1.0\"\n"})
    gnuplot = repo.commit("Add gnuplot syntax", author=ADA, date="2025-03-02T21:54:00+0000",
                          files={"src/syntax.rs": "a\ngnuplot\n"})
    entry = repo.commit("Add ChangeLog entry", author=ADA, date="2025-03-02T22:03:00+0000",
                        files={"CHANGELOG.md": "# Unreleased\n- Add gnuplot syntax\n"})
    # Bob's change lands between Ada's fix and her changelog entry: the entry may be his
    fix = repo.commit("Fix the parser's crash on empty input", author=ADA, date=_at(4, 10), files={"src/parser.rs": "p\nq\n"})
    repo.commit("Support Lean", author=BOB, date="2025-03-04T10:05:00+0000", files={"src/lean.rs": "l\n"})
    after_bob = repo.commit("Update CHANGELOG", author=ADA, date="2025-03-04T10:10:00+0000",
                            files={"CHANGELOG.md": "# Unreleased\n- Add gnuplot syntax\n- Support Lean\n"})
    # hours later
    late_fix = repo.commit("Fix highlighting of comments", author=ADA, date=_at(6, 9), files={"src/syntax.rs": "a\ngnuplot\n#\n"})
    late = repo.commit("Update the changelog", author=ADA, date=_at(6, 12),
                       files={"CHANGELOG.md": "# Unreleased\n- Add gnuplot syntax\n- Support Lean\n- Comments\n"})
    # an entry of several changes at once (rsync's "Mention latest fixes.", six entries)
    backup = repo.commit("Don't create so many empty backup dirs", author=ADA, date=_at(7, 9), files={"src/syntax.rs": "a\nbackup\n"})
    several = repo.commit("Mention latest fixes.", author=ADA, date="2025-03-07T09:09:00+0000",
                          files={"CHANGELOG.md": "# Unreleased\n- Add gnuplot syntax\n- Support Lean\n- Comments\n"
                                                 + "".join(f"- Fix number {i}\n  in two lines\n" for i in range(4))})
    # a release: the changelog and the version bump are its steps, not the feature's
    feature = repo.commit("Add the --diagnostic option", author=ADA, date=_at(8, 9), files={"src/parser.rs": "p\nq\nd\n"})
    notes = repo.commit("Update CHANGELOG", author=ADA, date="2025-03-08T09:20:00+0000",
                        files={"CHANGELOG.md": "# 0.2.0\n- Add gnuplot syntax\n- Support Lean\n- Comments\n- Diagnostics\n"})
    release = repo.commit("Release 0.2.0", author=ADA, date="2025-03-08T09:30:00+0000", files={"Cargo.toml": "version = \"0.2.0\"\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[entry] == wid[gnuplot]
    assert wid[after_bob] != wid[fix]
    assert wid[late] != wid[late_fix]
    assert wid[several] != wid[backup]
    assert wid[notes] == wid[release] != wid[feature]


def test_a_rebuild_and_an_entry_on_top_of_the_authors_squashed_pull_request_join_it(tmp_path):
    """phoenix: Chris McCord's `Bump build` (priv/static, rebuilt from the JS) 45 s after his
    squashed #5688, and `Bump changelog` on top of it, were two items apart from it; so was
    `Bump changelog` 53 s after #5283. A rebuild on top of someone else's pull request, or an
    hour and more later, stays apart."""
    from exceeds_pipeline.enrich.exclusions import classify_exclusions

    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"assets/js/socket.js": "s\n", "priv/static/phoenix.min.js": "m\n", "priv/static/phoenix.js.map": "{}\n",
                       "CHANGELOG.md": "# Changelog\n"})
    pr = repo.commit("Add longpoll fallback (#5688)", author=ADA, date="2025-03-02T14:37:21+0000",
                     files={"assets/js/socket.js": "s\nfallback\n"})
    build = repo.commit("Bump build", author=ADA, date="2025-03-02T14:38:06+0000",
                        files={"priv/static/phoenix.min.js": "m2\n", "priv/static/phoenix.js.map": "{2}\n"})
    entry = repo.commit("Bump changelog", author=ADA, date="2025-03-02T14:40:00+0000",
                        files={"CHANGELOG.md": "# Changelog\n* Enable longpoll fallback\n"})
    bob = repo.commit("Batch longpoll messages (#5283)", author=BOB, date=_at(3, 9), files={"assets/js/socket.js": "s\nbatch\n"})
    other = repo.commit("Bump build again", author=ADA, date="2025-03-03T09:01:00+0000",
                        files={"priv/static/phoenix.min.js": "m3\n", "priv/static/phoenix.js.map": "{3}\n"})
    own = repo.commit("Use x-ndjson (#5290)", author=ADA, date=_at(4, 9), files={"assets/js/socket.js": "s\nndjson\n"})
    late = repo.commit("Rebuild", author=ADA, date=_at(4, 11),
                       files={"priv/static/phoenix.min.js": "m4\n", "priv/static/phoenix.js.map": "{4}\n"})
    commits, files = read_repo(repo)
    files = classify_exclusions(files, commits)
    links = commit_links(commits)
    out, _ = assign_work_items(categorize_commits(commits, files, links), links, files)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[pr] == wid[build] == wid[entry] == "acme/app#pr-5688"
    assert wid[other] != wid[bob]
    assert wid[late] != wid[own]


def test_two_release_commits_of_one_version_are_one_release_whatever_came_between(tmp_path):
    """bat: `Bump version to 0.16.0` (with its changelog), then `Update syntaxes`, then the empty
    `v0.16.0` that tags it made two `Release 0.16.0` items. The next version is another release."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/main.rs": "a\n", "CHANGELOG.md": "# Unreleased\n", "Cargo.toml": "version = \"0.15.0\"\n",
                       "assets/syntaxes.bin": "s\n"})
    notes = repo.commit("Update CHANGELOG for 0.16", author=ADA, date=_at(2, 22),
                        files={"CHANGELOG.md": "# 0.16.0\n- Things\n"})
    bump = repo.commit("Bump version to 0.16.0", author=ADA, date="2025-03-02T22:05:00+0000",
                       files={"Cargo.toml": "version = \"0.16.0\"\n"})
    syntaxes = repo.commit("Update syntaxes", author=ADA, date="2025-03-02T22:53:00+0000",
                           files={"assets/syntaxes.bin": "s2\n", "src/main.rs": "a\nb\n"})
    tag = repo.commit("v0.16.0", author=ADA, date="2025-03-02T23:27:00+0000", files={}, allow_empty=True)
    fix = repo.commit("Fix the pager", author=ADA, date=_at(3, 9), files={"src/main.rs": "a\nb\nc\n"})
    nxt = repo.commit("Bump version to 0.16.1", author=ADA, date=_at(3, 10), files={"Cargo.toml": "version = \"0.16.1\"\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[notes] == wid[bump] == wid[tag] != wid[syntaxes]
    assert wid[nxt] not in (wid[tag], wid[fix])
    assert _item(items, wid[tag])["title"] == "Release 0.16.0"


def test_a_commit_of_a_batch_written_in_the_middle_of_a_change_joins_it(tmp_path):
    """bat: `Run --diagnostic on CI`, written between two commits of `Add --diagnostic option`
    and pushed with them, was an item of its own. Commits pushed one by one stay apart."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/diagnostic.rs": "a\n", ".github/workflows/ci.yml": "on: push\n", "src/pager.rs": "p\n"})
    push = "2025-03-06T22:53:00+0000"
    option = repo.commit("Add --diagnostic option", author=ADA, date=_at(4, 9), committer_date=push,
                         files={"src/diagnostic.rs": "a\nb\n"})
    ci = repo.commit("Run --diagnostic on CI", author=ADA, date=_at(4, 10), committer_date=push,
                     files={".github/workflows/ci.yml": "on: push\nrun: bat --diagnostic\n"})
    more = repo.commit("Print the pager in the diagnostic output", author=ADA, date=_at(5, 9), committer_date=push,
                       files={"src/diagnostic.rs": "a\nb\nc\n"})
    # the same, committed as written
    pager = repo.commit("Add --pager option, see #12", author=ADA, date=_at(10, 9), files={"src/pager.rs": "p\nq\n"})
    ci2 = repo.commit("Test on the beta toolchain", author=ADA, date=_at(10, 10),
                      files={".github/workflows/ci.yml": "on: push\nrun: bat --diagnostic\ntoolchain: beta\n"})
    pager2 = repo.commit("Document the --pager option's default, fixes #12", author=ADA, date=_at(11, 9),
                         files={"src/pager.rs": "p\nq\nr\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[option] == wid[more] == wid[ci]
    assert wid[pager] == wid[pager2] != wid[ci2]


def test_mutts_release_script_makes_one_release_with_its_upgrading_notes(tmp_path):
    """mutt: `Update UPDATING file for 2.4.1 release.`, then `automatic post-release commit for
    mutt-2.4.1` (ChangeLog and VERSION) four minutes later were two items, the second a bug fix
    (56 of Kevin McCarthy's releases read as fixes)."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"main.c": "int main(void) { return 0; }\n", "UPDATING": "2.4.0:\n", "ChangeLog": "2025\n", "VERSION": "2.4.0\n"})
    fix = repo.commit("Fix the pager's crash on empty messages.", author=ADA, date=_at(3, 9),
                      files={"main.c": "int main(void) { return 1; }\n"})
    notes = repo.commit("Update UPDATING file for 2.4.1 release.", author=ADA, date="2025-03-04T13:34:00+0000",
                        files={"UPDATING": "2.4.1:\n  Fixed the pager.\n\n2.4.0:\n"})
    post = repo.commit("automatic post-release commit for mutt-2.4.1", author=ADA, date="2025-03-04T13:38:00+0000",
                       files={"ChangeLog": "2025\n* Fix the pager's crash on empty messages.\n  fix fix fix\n", "VERSION": "2.4.1\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[notes] == wid[post] != wid[fix]
    item = _item(items, wid[post])
    assert (item["category"], item["title"]) == ("chore", "Release 2.4.1")


def test_a_pull_request_merging_an_integration_branch_of_several_people_is_no_one_change(tmp_path):
    """gin's `Merge pull request #871 from gin-gonic/develop` brought in 22 commits of a dozen
    people pushed to `develop` over months, and made them one item, owned by one of them. A pull
    request from a contributor's own `master` stays one change."""
    dan = ("Dan Dev", "dan@example.com")
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 9), files={"app.go": "package app\n"})
    repo.branch("develop", checkout=True)
    for i, (who, subject, path) in enumerate([(ADA, "Fix for #630", "render.go"), (BOB, "Honor the write contract for JSON", "json.go"),
                                              (CAT, "Support testing on the latest Go", ".travis.yml"),
                                              (dan, "Add instructions for pulling latest changes", "README.md")]):
        repo.commit(subject, author=who, date=_at(2 + 3 * i, 9), files={path: f"{i}\n"})
    repo.checkout("main")
    repo.merge("develop", "Merge pull request #871 from gin-gonic/develop\n\nv1.1.4", author=ADA, date=_at(20, 9))
    # a contributor's pull request from the master branch of their fork: one change
    repo.branch("fork-master", checkout=True)
    repo.commit("Add a context timeout", author=dan, date=_at(21, 9), files={"context.go": "timeout\n"})
    repo.commit("Test the context timeout", author=dan, date=_at(21, 10), files={"context_test.go": "test\n"})
    repo.checkout("main")
    repo.merge("fork-master", "Merge pull request #900 from dan/master", author=ADA, date=_at(22, 9))
    out, _ = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert len({wid[s] for s in ("Fix for #630", "Honor the write contract for JSON", "Support testing on the latest Go",
                                 "Add instructions for pulling latest changes")}) == 4
    assert "acme/app#pr-871" not in wid.values()
    assert wid["Add a context timeout"] == wid["Test the context timeout"] == "acme/app#pr-900"


def test_commits_written_a_day_apart_and_committed_weeks_apart_are_two_changes(tmp_path):
    """htop: patches written the same day landed one by one, weeks apart (applied or rebased onto
    the main line), and a shared file made them one item: a one-line fix of Action.c committed on
    Jan 10 joined `Add support for scheduling policies`, committed on Feb 4. Landed separately,
    a shared file or component relates nothing; a subject committed again (a fix picked onto a
    stable line later) still does, and so do related commits that landed together."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"Action.c": "a\n", "Meter.c": "m\n"})
    fix = repo.commit("Action: do not crash on an empty selection", author=BOB, date=_at(2, 9),
                      committer=ADA, committer_date=_at(10, 9), files={"Action.c": "b\n"})
    policies = repo.commit("Add support for scheduling policies", author=BOB, date=_at(2, 15),
                           committer=ADA, committer_date=_at(27, 9), files={"Action.c": "c\n", "Sched.c": "s\n"})
    meter = repo.commit("Meter: draw the bar in the header", author=BOB, date=_at(28, 9), files={"Meter.c": "n\n"})
    meter_fix = repo.commit("Meter: round the bar width", author=BOB, date=_at(28, 16), files={"Meter.c": "o\n"})
    leak = repo.commit("Fix a memory leak in Meter_delete", author=BOB, date=_at(29, 9), files={"Meter.c": "p\n"})
    picked = repo.commit("Fix a memory leak in Meter_delete", author=BOB, date=_at(29, 10),
                         committer=ADA, committer_date="2025-04-04T11:00:00+0000", files={"Meter.c": "q\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[fix] != wid[policies]
    assert wid[meter] == wid[meter_fix]
    assert wid[leak] == wid[picked]


def test_a_release_scripts_version_set_and_set_back_in_one_second_is_one_release(tmp_path):
    """composer's release script: `Update changelog`, then `Release 2.10.2` (the version in
    Composer.php) and `Reverting release version changes` (back to the dev version) written the
    same second. Ordered by sha, the set-back often came first and broke the release; and it
    never joined: each release was two or three items (25 of Jordi Boggiano's 120). Written the
    same second, commits read in their parents' order; a commit undoing the release commit's
    lines right after it is that release's last step. A change after it stays apart."""
    repo = GitScript.init(tmp_path / "repo")
    version = lambda v: {"src/Composer.php": f"<?php\nconst VERSION = '{v}';\nconst BRANCH = 'main';\n"}
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={**version("@package_version@"), "CHANGELOG.md": "# 2.10.0\n"})
    releases = []
    for n, day in enumerate((3, 9, 15, 21), start=1):
        changelog = repo.commit("Update changelog", author=ADA, date=_at(day, 9),
                                files={"CHANGELOG.md": "".join(f"# 2.10.{k}\n* fix {k}\n" for k in range(n, 0, -1)) + "# 2.10.0\n"})
        same_second = _at(day, 10)
        release = repo.commit(f"Release 2.10.{n}", author=ADA, date=same_second, files=version(f"2.10.{n}"))
        back = repo.commit("Reverting release version changes", author=ADA, date=same_second, files=version("@package_version@"))
        fix = repo.commit(f"Fix the lock file reader for case {n}", author=ADA, date=_at(day, 11),
                          files={"src/Lock.php": f"<?php\n// case {n}\n"})
        releases.append((changelog, release, back, fix))
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    for changelog, release, back, fix in releases:
        assert wid[changelog] == wid[release] == wid[back] != wid[fix]
    assert _item(items, wid[releases[-1][1]])["title"] == "Release 2.10.4"


def test_a_title_that_only_points_elsewhere_gives_way_to_what_the_commits_did(tmp_path):
    """serde: PR 2989, titled `PR 2987 followup`, renamed the deserialize generator functions;
    composer: a security fix merged as GitHub's `Merge commit from fork` (no body) opened an item
    its next commit names (`Escape the arguments passed to p4`). A title that only points to
    another pull request, or GitHub's placeholder, names an item only when nothing else does."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"src/de.rs": "fn a() {}\n", "src/Perforce.php": "<?php\n"})
    repo.branch("followup", checkout=True)
    repo.commit("Rename the deserialize generator functions", author=BOB, date=_at(2, 9), files={"src/de.rs": "fn b() {}\n"})
    repo.checkout("main")
    repo.merge("followup", "Merge pull request #2989 from bob/followup\n\nPR 2987 followup", author=BOB, date=_at(2, 10))
    repo.commit("Merge commit from fork", author=ADA, date=_at(4, 9), files={"src/Perforce.php": "<?php\n// escape\n"})
    repo.commit("Escape the arguments passed to p4", author=ADA, date="2025-03-04T09:05:00+0000",
                files={"src/Perforce.php": "<?php\n// escape\n// args\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert _item(items, wid["Rename the deserialize generator functions"])["title"] == "Rename the deserialize generator functions"
    assert wid["Merge commit from fork"] == wid["Escape the arguments passed to p4"]
    assert _item(items, wid["Merge commit from fork"])["title"] == "Escape the arguments passed to p4"


def test_a_pull_request_titled_as_a_revert_of_mostly_reverts_is_a_revert(tmp_path):
    """serde: PR 2857 `Revert the colliding aliases hard error (PRs #2562 & #2853)`: two
    `Revert "…"` commits of others' changes and the ui tests' update, read as test work (the
    reverts are left out when the kind is chosen). Mostly reverts under a revert's title, it is
    a revert; one revert beside a feature's commits is not."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/de.rs": "fn a() {}\n", "src/attr.rs": "fn b() {}\n", "tests/ui/alias.stderr": "ok\n"})
    error = repo.commit("Make colliding aliases a hard error", author=ADA, date=_at(2, 9),
                        files={"src/de.rs": "fn a() { check(); }\n"})
    span = repo.commit("Report the span of the colliding alias", author=CAT, date=_at(5, 9),
                       files={"src/attr.rs": "fn b() { span(); }\n"})
    deprecate = repo.commit("Deprecate the old alias syntax", author=CAT, date=_at(6, 9),
                            files={"src/old.rs": "fn old() {}\n"})
    repo.branch("revert-aliases", checkout=True)
    repo.revert(error, author=BOB, date=_at(9, 9))
    repo.revert(span, author=BOB, date=_at(9, 9).replace(":00:00", ":01:00"))
    repo.commit("Update ui test output", author=BOB, date=_at(9, 10), files={"tests/ui/alias.stderr": "ok\nwarn\n"})
    repo.checkout("main")
    repo.merge("revert-aliases", "Merge pull request #2857 from bob/revert-aliases\n\n"
               "Revert the colliding aliases hard error (PRs #2562 & #2853)", author=BOB, date=_at(9, 11))
    repo.branch("warn", checkout=True)
    repo.revert(deprecate, author=BOB, date=_at(12, 9))
    repo.commit("Warn on colliding aliases instead", author=BOB, date=_at(12, 10), files={"src/de.rs": "fn a() { warn(); }\n"})
    repo.commit("Add a note for each colliding alias", author=BOB, date=_at(12, 11), files={"src/de.rs": "fn a() { warn(); note(); }\n"})
    repo.checkout("main")
    repo.merge("warn", "Merge pull request #2860 from bob/warn\n\nRevert the hard error and warn instead", author=BOB, date=_at(12, 12))
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert _item(items, wid["Update ui test output"])["category"] == "revert"
    assert _item(items, wid["Warn on colliding aliases instead"])["category"] != "revert"


def test_files_built_again_right_before_a_release_are_its_first_step(tmp_path):
    """lodash: `Rebuild lodash and docs.` (the built files, the docs and the new version), then
    `Bump to v4.17.15.` a minute later were two items, the first a refactor (20 of John-David
    Dalton's 120). A rebuild right before a release commit (minutes or hours, nothing of the
    author's between) is that release's first step, not part of the fix before it that shares a
    file; a rebuild the author went on working after is not."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"lodash.js": "var VERSION = '4.17.14';\nfunction a() {}\n", "dist/lodash.js": "var VERSION = '4.17.14';\n",
                       "doc/README.md": "# v4.17.14\n", "README.md": "v4.17.14\n", "package.json": '{"version": "4.17.14"}\n'})
    fix = repo.commit("Fix `_.merge` for prototype properties.", author=ADA, date=_at(3, 9),
                      files={"lodash.js": "var VERSION = '4.17.14';\nfunction a() { guard(); }\n"})
    rebuild = repo.commit("Rebuild lodash and docs.", author=ADA, date=_at(3, 10),
                          files={"lodash.js": "var VERSION = '4.17.15';\nfunction a() { guard(); }\n",
                                 "dist/lodash.js": "var VERSION = '4.17.15';\nguard();\n",
                                 "doc/README.md": "# v4.17.15\n", "package.json": '{"version": "4.17.15"}\n'})
    bump = repo.commit("Bump to v4.17.15.", author=ADA, date="2025-03-03T10:01:00+0000", files={"README.md": "v4.17.15\n"})
    early = repo.commit("Rebuild lodash and docs.", author=ADA, date=_at(5, 9),
                        files={"lodash.js": "var VERSION = '4.17.16';\nfunction a() { guard(); }\n", "doc/README.md": "# v4.17.16\n"})
    repo.commit("Fix `_.deburr` for combining marks.", author=ADA, date=_at(5, 10),
                files={"deburr.js": "function deburr() {}\n"})
    later = repo.commit("Bump to v4.17.16.", author=ADA, date=_at(5, 11), files={"README.md": "v4.17.16\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[rebuild] == wid[bump] != wid[fix]
    assert (_item(items, wid[bump])["title"], _item(items, wid[bump])["category"]) == ("Release 4.17.15", "chore")
    assert wid[early] != wid[later]


@pytest.mark.parametrize("subject, title", [
    # lodash: what a subject ends with for its tools stayed in the titles its lists show
    ("Add comments to `baseBind` use of `arguments`. [ci skip] [closes #416]", "Add comments to `baseBind` use of `arguments`."),
    ("Ensure `_.throttle` nulls the `timeoutId`. [closes #3189]", "Ensure `_.throttle` nulls the `timeoutId`."),
    ("Fix the lock file reader (fixes #12, #13)", "Fix the lock file reader"),
    ("Add [closes #3] syntax to the parser", "Add [closes #3] syntax to the parser"),
    # urfave/cli: a YubiKey's one-time password pasted into the subject
    ("Fix:(issue_1071) Add non duplicated flag checkeikdcclkkujufrdvecfbjgjjcuchtvbvuefriijgehvh",
     "Fix:(issue_1071) Add non duplicated flag check"),
])
def test_a_title_leaves_out_ci_directives_and_the_issues_it_closes(subject, title):
    assert pl.select(_title(pl.lit(subject))).item() == title


def test_a_repair_of_the_tests_that_names_nothing_joins_the_change_just_before_it(tmp_path):
    """composer: `Fix tests` (the new cipher added to a test's expected list) 20 minutes after
    `Remove 3DES from the default ciphers` was an item of its own. A tests-only commit that only
    says it repairs tests, up to an hour after its author's code change with nothing between,
    repairs what that change broke; later, or after other work, it stays apart."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"src/StreamContext.php": "<?php\n", "tests/DefaultsTest.php": "<?php\n",
                       "src/Lock.php": "<?php\n", "tests/FunctionalTest.php": "<?php\n"})
    ciphers = repo.commit("Remove 3DES from the default ciphers", author=ADA, date=_at(3, 9),
                          files={"src/StreamContext.php": "<?php\n$c = '!3DES';\n"})
    fix_tests = repo.commit("Fix tests", author=ADA, date="2025-03-03T09:20:00+0000",
                            files={"tests/DefaultsTest.php": "<?php\n$expected = '!3DES';\n"})
    lock = repo.commit("Read the lock file lazily", author=ADA, date=_at(5, 9), files={"src/Lock.php": "<?php\nlazy();\n"})
    late = repo.commit("Fix tests", author=ADA, date="2025-03-05T10:30:00+0000",
                       files={"tests/FunctionalTest.php": "<?php\nlazy();\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[ciphers] == wid[fix_tests]
    assert wid[lock] != wid[late]


def test_a_merge_body_that_restates_the_merge_is_no_title(tmp_path):
    """jekyll: its bot merged pull requests as `Merge pull request #5925 from jekyll/backport`
    with the body `Merge pull request 5925`, and 93 of Parker Moore's items were titled so. The
    commits name such an item."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"script/release": "#!/bin/sh\n"})
    repo.branch("backport", checkout=True)
    repo.commit("Add script/backport-pr to backport a merged pull request", author=BOB, date=_at(2, 9),
                files={"script/backport-pr": "#!/bin/sh\ngit cherry-pick\n"})
    repo.checkout("main")
    repo.merge("backport", "Merge pull request #5925 from jekyll/backport\n\nMerge pull request 5925", author=BOT, date=_at(2, 10))
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    item = _item(items, wid["Add script/backport-pr to backport a merged pull request"])
    assert item["work_item_id"].endswith("#pr-5925")
    assert item["title"] == "Add script/backport-pr to backport a merged pull request"


def test_commits_naming_the_version_just_released_are_that_release(tmp_path):
    """jekyll: `Release :gem: 3.5.2` (read as a fix: the gem mark hid the release), then `Update
    site for v3.5.2`, `Add release post for v3.5.2` and `3.5.2: thank the contributors` within 14
    minutes were three items. A commit naming the version its author just released, within an
    hour, is that release's; a fix naming it is a change of its own, and so is a later one."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"lib/jekyll/version.rb": "VERSION = '3.5.1'\n", "History.markdown": "## 3.5.1\n",
                       "docs/latest_version.txt": "3.5.1\n", "lib/jekyll/site.rb": "class Site; end\n"})
    release = repo.commit("Release :gem: 3.5.2", author=ADA, date="2025-03-03T16:28:00+0000",
                          files={"lib/jekyll/version.rb": "VERSION = '3.5.2'\n", "History.markdown": "## 3.5.2\n* fix\n\n## 3.5.1\n"})
    site = repo.commit("Update site for v3.5.2", author=ADA, date="2025-03-03T16:30:00+0000",
                       files={"docs/latest_version.txt": "3.5.2\n"})
    post = repo.commit("Add release post for v3.5.2", author=ADA, date="2025-03-03T16:36:00+0000",
                       files={"docs/_posts/2025-03-03-jekyll-3-5-2-released.markdown": "Jekyll 3.5.2 is out.\n"})
    fix = repo.commit("Fix a crash in 3.5.2 when the site has no pages", author=ADA, date="2025-03-03T16:50:00+0000",
                      files={"lib/jekyll/site.rb": "class Site; def pages; []; end; end\n"})
    late = repo.commit("Link the 3.5.2 post from the home page", author=ADA, date="2025-03-03T19:00:00+0000",
                       files={"docs/index.html": "<a href='/news/3.5.2'>3.5.2</a>\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[release] == wid[site] == wid[post]
    assert (_item(items, wid[release])["title"], _item(items, wid[release])["category"]) == ("Release 3.5.2", "chore")
    assert wid[fix] != wid[release] and wid[late] != wid[release]


def test_two_release_lines_released_one_after_the_other_are_two_releases(tmp_path):
    """composer released 2.2.16 and 2.3.9 minutes apart, each `Release x` and `Reverting release
    version changes` (2.2.16 with an `Update changelog` first): the set-back finishes the first
    release, and shares Composer.php with the second, which stays a release of its own."""
    repo = GitScript.init(tmp_path / "repo")
    version = lambda v: {"src/Composer.php": f"<?php\nconst VERSION = '{v}';\n"}
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={**version("@dev@"), "CHANGELOG.md": "# 2.2.15\n"})
    shas = []
    for n, (v, minute) in enumerate((("2.2.16", 0), ("2.3.9", 20))):
        log = repo.commit("Update changelog", author=ADA, date=f"2025-03-03T10:{minute:02d}:00+0000",
                          files={"CHANGELOG.md": f"# {v}\n* fix {n}\n# 2.2.16\n"}) if n == 0 else None
        rel = repo.commit(f"Release {v}", author=ADA, date=f"2025-03-03T10:{minute + 5:02d}:00+0000", files=version(v))
        back = repo.commit("Reverting release version changes", author=ADA, date=f"2025-03-03T10:{minute + 5:02d}:00+0000",
                           files=version("@dev@"))
        shas.append((log, rel, back))
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    (log1, rel1, back1), (log2, rel2, back2) = shas
    assert wid[log1] == wid[rel1] == wid[back1]
    assert wid[rel2] == wid[back2]
    assert wid[rel1] != wid[rel2]


def test_githubs_revert_button_reverts_the_pull_request_its_branch_names(tmp_path):
    """urfave/cli: #1636 from dearchap/issue_1071 was reverted by #1637 from
    urfave/revert-1636-issue_1071, whose `Revert "Feature:(issue_1071) Add check for duplicated
    flags"` quotes the pull request's title, which no commit has, and relanded by #1638 from the
    same branch the next day: three items with no link between them. The revert branch names the
    pull request it reverts; the next pull request from the reverted branch lands it again; and
    by one author, the three are one change."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"flag.go": "package cli\n"})
    repo.branch("issue_1071", checkout=True)
    original = repo.commit("Add bool flag interface", author=BOB, date=_at(2, 9), files={"flag.go": "package cli\nfunc Dup() {}\n"})
    repo.checkout("main")
    landed = repo.merge("issue_1071", "Merge pull request #1636 from bob/issue_1071\n\nFeature:(issue_1071) Add check for duplicated flags",
                        author=BOB, date=_at(2, 10))
    repo.branch("revert-1636-issue_1071", checkout=True)
    revert = repo.commit('Revert "Feature:(issue_1071) Add check for duplicated flags"', author=BOB, date=_at(3, 9),
                         files={"flag.go": "package cli\n"})
    repo.checkout("main")
    repo.merge("revert-1636-issue_1071", "Merge pull request #1637 from acme/revert-1636-issue_1071", author=BOB, date=_at(3, 10))
    repo.checkout("issue_1071")
    repo.merge("main", "Merge branch 'main' into issue_1071", author=BOB, date=_at(4, 8))
    reland = repo.commit("Add support for duplicated flag check", author=BOB, date=_at(4, 9),
                         files={"flag.go": "package cli\nfunc Dup() { check() }\n"})
    repo.checkout("main")
    repo.merge("issue_1071", "Merge pull request #1638 from bob/issue_1071\n\nFix:(issue_1071) Add support for duplicated flag check",
               author=BOB, date=_at(4, 10))
    commits, _ = read_repo(repo)
    links = commit_links(commits)
    got = set(links.select("sha", "link_type", "target_sha").iter_rows())
    assert (revert, "reverts", landed) in got and (reland, "relands", landed) in got
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    item = _item(items, wid[original])
    assert item["later_reverted"] is False and item["relanded_by"] == [reland]
    # one author's change, its revert and its reland are one item (a revert names the merge;
    # the merge names the commits it brought in)
    assert wid[original] == wid[revert] == wid[reland]


def test_a_changelog_line_for_its_authors_merged_pull_request_is_part_of_it(tmp_path):
    """jekyll: Parker Moore's `Update history to reflect merge of #5919 [ci skip]`, History.markdown
    alone, was an item apart from his #5919. A changelog line that names its author's merged
    pull request joins it and relates to nothing else (the next line, worded alike), nor to the
    release after it; a line for someone else's pull request stays its writer's (read as part of
    it, 605 of Parker Moore's commits had left his profile)."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8),
                files={"lib/site.rb": "class Site; end\n", "lib/url.rb": "class Url; end\n", "History.markdown": "## HEAD\n",
                       "lib/version.rb": "VERSION = '3.5.1'\n"})
    shas = {}
    for n, (pr, path, who) in enumerate(((5919, "lib/site.rb", ADA), (5926, "lib/url.rb", BOB))):
        repo.branch(f"topic-{pr}", checkout=True)
        shas[pr] = repo.commit(f"Change {path}", author=who, date=_at(2 + n, 9), files={path: f"# {pr}\n"})
        repo.checkout("main")
        repo.merge(f"topic-{pr}", f"Merge pull request #{pr} from someone/topic-{pr}", author=ADA, date=_at(2 + n, 10))
        shas[f"history-{pr}"] = repo.commit(f"Update history to reflect merge of #{pr} [ci skip]", author=ADA,
                                            date=_at(2 + n, 11), files={"History.markdown": f"## HEAD\n* {pr}\n" * (n + 1)})
    release = repo.commit("Release 3.5.2", author=ADA, date="2025-03-03T11:10:00+0000",
                          files={"lib/version.rb": "VERSION = '3.5.2'\n", "History.markdown": "## 3.5.2\n* 5919\n* 5926\n"})
    out, items = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[shas[5919]] == wid[shas["history-5919"]] == "acme/app#pr-5919"
    assert wid[shas["history-5926"]] not in (wid[shas[5926]], wid[shas["history-5919"]])
    assert wid[release] != wid[shas[5919]]
    assert _item(items, "acme/app#pr-5926")["person_id"] != _item(items, wid[shas["history-5926"]])["person_id"]


def test_a_chain_of_relations_never_joins_two_changes_that_name_different_issues(tmp_path):
    """hugo: `Fix some recently introduced Position issues` (Fixes #14710) and `markup/goldmark:
    Fix double-escaping` (Fixes #14715), written the same day, were one item through an
    issueless test migration that shared a test file with each; each pair was allowed, the
    chain was not checked. Commits naming one issue still join through such a commit."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "markup/pos.go": "package markup\n\nfunc Pos() {}\n", "markup/md.go": "package markup\n\nfunc Md() {}\n",
        "markup/pos_test.go": "package markup\n\nfunc TestPos() {}\n", "markup/md_test.go": "package markup\n\nfunc TestMd() {}\n"})
    pos = repo.commit("Fix some recently introduced Position issues\n\nFixes #14710\n", author=ADA, date=_at(2, 9), files={
        "markup/pos.go": "package markup\n\nfunc Pos() { line() }\n",
        "markup/pos_test.go": "package markup\n\nfunc TestPos() { check() }\n"})
    migrate = repo.commit("all: Replace the test builder with Test", author=ADA, date=_at(2, 10), files={
        "markup/pos_test.go": "package markup\n\nfunc TestPos() { Test(check) }\n",
        "markup/md_test.go": "package markup\n\nfunc TestMd() { Test() }\n"})
    md = repo.commit("markup/goldmark: Fix double-escaping of attributes\n\nFixes #14715\n", author=ADA, date=_at(2, 11), files={
        "markup/md.go": "package markup\n\nfunc Md() { escape() }\n",
        "markup/md_test.go": "package markup\n\nfunc TestMd() { Test(escaped) }\n"})
    again = repo.commit("Fix the Position of a shortcode too\n\nFixes #14710\n", author=ADA, date=_at(2, 12), files={
        "markup/pos.go": "package markup\n\nfunc Pos() { line(); shortcode() }\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["markup/goldmark: Fix double-escaping of attributes"] != wid["Fix some recently introduced Position issues"]
    assert wid["Fix the Position of a shortcode too"] == wid["Fix some recently introduced Position issues"]
    assert pos and migrate and md and again


def test_a_speed_up_with_its_small_fix_is_performance_work(tmp_path):
    """hugo: `Switch to go-toml v2` (measured faster, a benchmark table) and its follow-up fix
    an hour later were one item read as a fix and titled by the follow-up: a speed-up is a
    change of its own kind, like a feature or a fix, and the larger one names the item."""
    table = ("\n\n```\nname           old time/op  new time/op  delta\n"
             "Frontmatter-10  23.2µs ± 1%   8.5µs ± 1%  -63.19%\n```\n")
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"parser/toml.go": "package parser\n\nfunc A() {}\n"})
    repo.commit("Switch the TOML parser to v2" + table, author=ADA, date=_at(2, 9),
                files={"parser/toml.go": "package parser\n\n" + "".join(f"func T{i}() {{ v2() }}\n" for i in range(60))})
    repo.commit("Fix a nil map in the TOML parser", author=ADA, date=_at(2, 10),
                files={"parser/toml.go": "package parser\n\n" + "".join(f"func T{i}() {{ v2() }}\n" for i in range(60))
                       + "".join(f"func N{i}() {{ if m == nil {{ return }} }}\n" for i in range(8))})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["Fix a nil map in the TOML parser"] == wid["Switch the TOML parser to v2"]
    item = _item(items, wid["Switch the TOML parser to v2"])
    assert (item["category"], item["title"]) == ("perf", "Switch the TOML parser to v2")


def test_a_web_editors_default_subject_names_no_item():
    """gson: items were titled `Update README.md` and `Update pom.xml`, GitHub's web editor's
    default subjects, where another commit of the item said what changed."""
    from exceeds_pipeline.classify.work_items.shared import VAGUE_SUBJECT

    # (`Create README.md` says what was written: gson's 26-line README, most of its item)
    vague = pl.Series(["Update README.md", "Update pom.xml", "Update gson/src/main/java/Foo.java", "Add files via upload",
                       "Update the README for 2.8", "Update dependencies", "Create README.md"])
    assert vague.str.contains(VAGUE_SUBJECT).to_list() == [True, True, True, True, False, False, False]
    # bat: `Update README` (the document by its bare name) had titled the item whose other
    # commit said `Remove sponsors`; `Minor README change` and `Wording` say as little
    bare = pl.Series(["Update README", "Minor README change", "Wording", "Wording of the --help text", "Update README with the new flags"])
    assert bare.str.contains(VAGUE_SUBJECT).to_list() == [True, True, True, False, False]


def test_an_item_is_named_by_the_commit_that_says_what_changed(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=BOB, date=_at(1, 8), files={"README.md": "# Gson\n"})
    repo.commit("Update README.md", author=ADA, date=_at(2, 9), files={"README.md": "# Gson\n\nA JSON library.\n"})
    repo.commit("Document the JsonAdapter annotation", author=ADA, date="2025-03-02T09:05:00+0000",
                files={"README.md": "# Gson\n\nA JSON library.\n\n## JsonAdapter\n\nUse it on fields.\n"})
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["Update README.md"] == wid["Document the JsonAdapter annotation"]
    assert _item(items, wid["Update README.md"])["title"] == "Document the JsonAdapter annotation"


def test_a_commit_its_own_item_reverted_neither_names_nor_decides_it(tmp_path):
    """Alamofire: `Making SessionDelegate private`, reverted two days later inside its item,
    named the item; a change undone for good within the item is not what the item did. A
    change reverted and then relanded still names its item (the reland test above)."""
    repo = GitScript.init(tmp_path / "repo")
    lines = [f"    func task{i}() {{}}\n" for i in range(16)]
    repo.commit("Initial commit", author=BOB, date=_at(1, 8),
                files={"Source/Session.swift": "class Session {\n" + "".join(lines) + "}\n"})
    top = lines[:]
    top[0] = "    let delegate = SessionDelegate()\n    func task0() { delegate.start() }\n"
    undone = repo.commit("Add a delegate for every session", author=ADA, date=_at(2, 9), files={
        "Source/Session.swift": "class Session {\n" + "".join(top) + "}\n",
        "Source/SessionDelegate.swift": "class SessionDelegate {\n" + "".join(f"    func on{i}() {{}}\n" for i in range(8)) + "}\n"})
    bottom = top[:]
    bottom[-1] = "".join(f"    func stream{i}() {{}}\n" for i in range(40))
    repo.commit("Support streaming downloads in sessions", author=ADA, date=_at(2, 10), files={
        "Source/Session.swift": "class Session {\n" + "".join(bottom) + "}\n"})
    repo.revert(undone, author=ADA, date=_at(3, 9), reason="The delegate leaked.")
    out, items = _run(repo)
    wid = by_subject(out, "work_item_id")
    assert wid["Add a delegate for every session"] == wid["Support streaming downloads in sessions"]
    assert _item(items, wid["Add a delegate for every session"])["title"] == "Support streaming downloads in sessions"


def test_a_pull_request_belongs_to_who_opened_it_not_to_who_added_most_commits(tmp_path):
    """webpack: tanhauhau's "show which singleton loaded version" with two follow-ups of the
    maintainer's was the maintainer's feature, and tanhauhau had no work item. The owner of a
    pull request is the author of its first commit; an item of pushed commits is still its most
    frequent author's."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"lib/share.js": "module.exports = 1;\n"})
    repo.branch("singleton-version", checkout=True)
    repo.commit("Show which singleton version was loaded", author=CAT, date=_at(2, 9),
                files={"lib/share.js": "module.exports = 2;\nconst version = 'x';\n"})
    repo.commit("Update the snapshot", author=BOB, date=_at(2, 12), files={"lib/share.js": "module.exports = 2;\nconst version = 'y';\n"})
    repo.commit("Fix the lint", author=BOB, date=_at(2, 13), files={"lib/share.js": "module.exports = 2;\nconst version = 'z';\n"})
    repo.checkout("main")
    repo.merge("singleton-version", "Merge pull request #14782 from cat/singleton-version\n\nshow which singleton loaded version",
               author=BOB, date=_at(2, 20))
    out, items = _run(repo)
    item = _item(items, "acme/app#pr-14782")
    assert item["person_id"] == "cat" and item["commits"] == 3


def test_an_item_titled_by_the_issue_it_closes_alone_says_where_it_changed_things(tmp_path):
    """jq's `Fix #549`, `Fix #702` and fmt's `Fix https://github.com/cppformat/cppformat/issues/55.`
    told a reader nothing of the change: the title names the file the item changed most. A
    subject that says more keeps its words."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"src/builtin.c": "int a;\n", "src/lexer.c": "int b;\n"})
    repo.commit("Fix #549", author=ADA, date=_at(8, 9), files={"src/builtin.c": "int a = 1;\n"})
    repo.commit("Fix https://github.com/acme/app/issues/55.", author=ADA, date=_at(15, 9),
                files={"src/lexer.c": "int b = 2;\n", "src/builtin.c": "int a = 3;\nint c;\nint d;\n"})
    repo.commit("Fix #60: the lexer skips a quote", author=ADA, date=_at(22, 9), files={"src/lexer.c": "int b = 4;\n"})
    # (the code it changed, not the longer CHANGELOG line beside it)
    repo.commit("Fix #937", author=ADA, date=_at(29, 9), files={"src/lexer.c": "int b = 5;\n",
                                                                "CHANGELOG.md": "- the lexer reads a quote inside a comment\n"})
    out, items = _run(repo)
    titles = set(items["title"].to_list())
    assert {"Fix #549 in src/builtin.c", "Fix https://github.com/acme/app/issues/55 in src/builtin.c",
            "Fix #60: the lexer skips a quote", "Fix #937 in src/lexer.c"} <= titles, titles


def test_patches_a_maintainer_committed_for_different_people_are_different_changes(tmp_path):
    """tmux (OpenBSD's convention): "Do not log when logging is off, from Michael Grant." and
    "Add pane_private_modes format ..., from George Nachman." were committed together and share
    format.c: they were one item, and so was the maintainer's own change with a patch 21 hours
    later that shared key-bindings.c. The maintainer completing a patch stays with it, and so does
    a quick touch-up; an issue's reporter ("GitHub issue 5441 from X") is no patch's author."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial import", author=ADA, date=_at(1, 8),
                files={"format.c": "int f;\n", "options.c": "int o;\n", "tmux.1": ".Sh NAME\n", "tty.c": "int t;\n"})
    repo.commit("Do not log when logging is off, from Michael Grant.", author=ADA, date=_at(5, 7),
                files={"format.c": "int f;\nint log_off;\n"})
    repo.commit("Add pane_private_modes format with list of DEC private modes. From George Nachman.",
                author=ADA, date="2025-03-05T07:03:00+0000", files={"format.c": "int f;\nint log_off;\nint modes;\n"})
    repo.commit("Add an option (scroll-on-clear) to scroll on clear, from Robert Lange.", author=ADA,
                date=_at(10, 12), files={"options.c": "int o;\nint scroll_on_clear;\n"})
    repo.commit("Check scroll-on-clear for ED also.", author=ADA, date=_at(10, 14),
                files={"options.c": "int o;\nint scroll_on_clear = 1;\n"})
    repo.commit("Add a refresh-now command and change the r binding back to it in copy mode.", author=ADA,
                date=_at(15, 12), files={"options.c": "int o;\nint scroll_on_clear = 1;\nint refresh_now;\n"})
    repo.commit("Add T key to change pane title, from Fouad Wahabi in GitHub issue 5461.", author=ADA,
                date="2025-03-16T09:05:00+0000", files={"options.c": "int o;\nint scroll_on_clear = 1;\nint refresh_now;\nint t;\n"})
    repo.commit("More man page updates from Tiago Cunha.", author=ADA, date=_at(20, 9), files={"tmux.1": ".Sh NAME\n.Sh SYNOPSIS\n"})
    repo.commit("Tweak.", author=ADA, date="2025-03-20T09:02:00+0000", files={"tmux.1": ".Sh NAME\n.Sh SYNOPSIS\n.Nm\n"})
    repo.commit("Redraw the cursor after tabs, GitHub issue 5441 from Ayman Bagabas.", author=ADA, date=_at(25, 9),
                files={"tty.c": "int t;\nint tabs;\n"})
    repo.commit("Also redraw after a clear, from Ben Boeckel.", author=ADA, date="2025-03-25T09:20:00+0000",
                files={"tty.c": "int t;\nint tabs;\nint clear;\n"})
    out, items = _run(repo)
    item = by_subject(out, "work_item_id")
    assert item["Do not log when logging is off, from Michael Grant."] != item[
        "Add pane_private_modes format with list of DEC private modes. From George Nachman."]
    assert item["Add an option (scroll-on-clear) to scroll on clear, from Robert Lange."] == item["Check scroll-on-clear for ED also."]
    assert item["More man page updates from Tiago Cunha."] == item["Tweak."]
    assert item["Add a refresh-now command and change the r binding back to it in copy mode."] != item[
        "Add T key to change pane title, from Fouad Wahabi in GitHub issue 5461."]
    assert item["Redraw the cursor after tabs, GitHub issue 5441 from Ayman Bagabas."] == item[
        "Also redraw after a clear, from Ben Boeckel."]


def test_a_follow_up_naming_its_authors_commit_by_sha_joins_it(tmp_path):
    """caddy: `Set local_ip, not remote_ip` (body: `Follow-up on 35c8c2d9... where I was a
    dum-dum`, four days later) and `Add test for 5b727bde...` (the next day) were items of their
    own; curl writes `Follow-up to <sha>` under most of its follow-ups. Not someone else's
    follow-up, not one more than a week later, and not a fix that names it broken."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={"app.go": "package app\n"})
    target = repo.commit("caddytls: Add remote_ip to HTTP cert manager", author=ADA, date=_at(3, 9),
                         files={"tls.go": "package app\nvar remote = 1\n"})
    repo.commit("Fix the parser on empty input", author=ADA, date=_at(4, 9), files={"parser.go": "package app\n"})
    own = repo.commit(f"caddytls: Set local_ip, not remote_ip\n\nFollow-up on {target} where I was a dum-dum",
                      author=ADA, date=_at(7, 12), files={"tls.go": "package app\nvar local = 1\n"})
    test = repo.commit(f"Add test for {target[:8]}", author=ADA, date=_at(8, 10), files={"tls_test.go": "package app\n"})
    foreign = repo.commit(f"docs: describe remote_ip\n\nFollow-up to {target[:10]}", author=BOB, date=_at(8, 11),
                          files={"README.md": "remote_ip\n"})
    late = repo.commit(f"caddytls: log the remote_ip\n\nFollow-up to {target[:10]}", author=ADA, date=_at(12, 9),
                       files={"log.go": "package app\n"})
    out, items = _run(repo)
    wid = dict(zip(out["sha"].to_list(), out["work_item_id"].to_list()))
    assert wid[own] == wid[target] == wid[test]
    assert len({wid[target], wid[foreign], wid[late]}) == 3
    assert by_subject(out, "work_item_id")["Fix the parser on empty input"] != wid[target]


def test_submodules_added_one_after_the_other_are_changes_of_their_own(tmp_path):
    """bat: `Add elixir sublime syntax` and, eight minutes later, `Add TOML sublime syntax, closes
    #37` each add a submodule of syntaxes, so both edit .gitmodules, as every such change does:
    they had been one item. A later change of one of them (its own path) still joins it."""
    repo = GitScript.init(tmp_path / "repo")
    modules = '[submodule "assets/syntaxes/{0}"]\n\tpath = assets/syntaxes/{0}\n\turl = https://github.com/x/{0}.git\n'
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={".gitmodules": modules.format("Rust"), "src/main.rs": "fn main() {}\n"})
    elixir = repo.commit("Add elixir sublime syntax", author=ADA, date=_at(2, 12),
                         files={".gitmodules": modules.format("Rust") + modules.format("Elixir"),
                                "assets/syntaxes/Elixir.sublime-syntax": "name: Elixir\n"})
    toml = repo.commit("Add TOML sublime syntax, closes #37", author=ADA, date="2025-03-02T12:08:00+0000",
                       files={".gitmodules": modules.format("Rust") + modules.format("Elixir") + modules.format("TOML"),
                              "assets/syntaxes/TOML.sublime-syntax": "name: TOML\n"})
    fix = repo.commit("Fix the TOML scope name", author=ADA, date="2025-03-02T12:30:00+0000",
                      files={"assets/syntaxes/TOML.sublime-syntax": "name: TOML\nscope: source.toml\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[elixir] != wid[toml]
    assert wid[toml] == wid[fix]


def test_the_built_files_the_release_tag_points_at_are_the_releases_last_step(tmp_path):
    """bat: `Bump version to v0.22`, then, two minutes later, `Update binary assets` (the syntax
    cache built again for the release), which carries the tag v0.22.0: one release, not a
    release and a chore. Not so a change that was at the tip when its author tagged (zod's
    `Test deploy`, fd's `Update jemalloc to 5.3` minutes after a bump), nor built files the
    tag of another version points at."""
    from exceeds_pipeline.enrich.exclusions import classify_exclusions

    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "Cargo.toml": '[package]\nname = "bat"\nversion = "0.21.0"\n', "src/main.rs": "fn main() {}\n",
        "assets/syntaxes.bin": b"\x00\x01syntaxes-0.21\x00"})
    bump = repo.commit("Bump version to v0.22", author=ADA, date="2025-03-02T20:22:00+0000",
                       files={"Cargo.toml": '[package]\nname = "bat"\nversion = "0.22.0"\n'})
    assets = repo.commit("Update binary assets", author=ADA, date="2025-03-02T20:24:00+0000",
                         files={"assets/syntaxes.bin": b"\x00\x01syntaxes-0.22\x00"})
    repo.tag("v0.22.0")
    bump2 = repo.commit("Bump version to v0.23", author=ADA, date="2025-03-09T20:22:00+0000",
                        files={"Cargo.toml": '[package]\nname = "bat"\nversion = "0.23.0"\n'})
    tip = repo.commit("Update the allocator", author=ADA, date="2025-03-09T20:30:00+0000", files={"src/main.rs": "fn main() { alloc(); }\n"})
    repo.tag("v0.23.0")
    bump3 = repo.commit("Bump version to v0.24", author=ADA, date="2025-03-16T20:22:00+0000",
                        files={"Cargo.toml": '[package]\nname = "bat"\nversion = "0.24.0"\n'})
    other = repo.commit("Update binary assets for the next release", author=ADA, date="2025-03-16T20:24:00+0000",
                        files={"assets/syntaxes.bin": b"\x00\x01syntaxes-0.25\x00"})
    repo.tag("v0.25.0-rc.1")
    commits, files = read_repo(repo, "sharkdp/bat")
    files = classify_exclusions(files)
    assert files.filter(pl.col("path") == "assets/syntaxes.bin")["exclusion_reason"].unique().to_list() == ["binary"]
    links = commit_links(commits)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    tags = read_tags(LocalRepository("sharkdp/bat", git_dir, commits["sha"][0], "HEAD", False)).with_columns(pl.lit("sharkdp/bat").alias("repo"))
    out, items = assign_work_items(categorize_commits(commits, files, links), links, files, tags=tags)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[bump] == wid[assets]
    assert _item(items, wid[bump])["title"] == "Release 0.22"
    assert wid[bump2] != wid[tip]
    assert wid[bump3] != wid[other]


def test_a_dependency_update_carried_through_the_examples_is_one_change(tmp_path):
    """bubbletea: `Bump reflow, termenv and go-isatty` (go.mod, go.sum), then eleven minutes
    later `Examples and tutorials: update dependencies and go mod tidy` (examples/go.mod and
    go.sum): two items, as a manifest relates nothing by itself. Manifests and lock files alone,
    committed minutes apart by one author, are one update; not hours apart, nor with code."""
    repo = GitScript.init(tmp_path / "repo")
    mod = "module tea\n\nrequire (\n\treflow {0}\n\ttermenv {0}\n)\n"
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "go.mod": mod.format("v0.1.0"), "go.sum": "reflow v0.1.0 h1:a=\n", "tea.go": "package tea\n",
        "examples/go.mod": mod.format("v0.1.0"), "examples/go.sum": "reflow v0.1.0 h1:a=\n"})
    bump = repo.commit("Bump reflow, termenv and go-isatty", author=ADA, date="2025-03-02T13:23:00+0000",
                       files={"go.mod": mod.format("v0.2.0"), "go.sum": "reflow v0.2.0 h1:b=\n"})
    tidy = repo.commit("Examples and tutorials: update dependencies and go mod tidy", author=ADA, date="2025-03-02T13:35:00+0000",
                       files={"examples/go.mod": mod.format("v0.2.0"), "examples/go.sum": "reflow v0.2.0 h1:b=\n"})
    later = repo.commit("Bump termenv", author=ADA, date="2025-03-02T17:00:00+0000",
                        files={"go.mod": mod.format("v0.3.0"), "go.sum": "reflow v0.3.0 h1:c=\n"})
    code = repo.commit("Use the new termenv profile", author=ADA, date="2025-03-02T17:10:00+0000",
                       files={"go.mod": mod.format("v0.3.1"), "tea.go": "package tea\n\nvar profile = 1\n"})
    from exceeds_pipeline.enrich.exclusions import classify_exclusions

    commits, files = read_repo(repo)
    files = classify_exclusions(files)  # (go.sum: a lock file)
    links = commit_links(commits)
    out, _ = assign_work_items(categorize_commits(commits, files, links), links, files)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[bump] == wid[tidy]
    assert wid[later] != wid[tidy]
    assert wid[code] != wid[later]


def test_a_file_shared_with_a_dependency_update_relates_it_only_to_another_update(tmp_path):
    """jinja: David Lord's `update dev dependencies` (the pinned requirements and the actions'
    versions in the workflows) and `remove test pypi` a minute later in publish.yaml had been one
    item, and so had the next `update dev dependencies` with two `update test workflow trigger`
    commits through tests.yaml. A dependency update edits pins wherever they are: a file shared
    with it says nothing. The two trigger edits stay one change."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date=_at(1, 8), files={
        "requirements/dev.txt": "tox==4.0\n", ".github/workflows/publish.yaml": "uses: actions/checkout@v3\npypi: test\n",
        ".github/workflows/tests.yaml": "uses: actions/checkout@v3\non: push\n", "src/jinja2/lexer.py": "x = 1\n"})
    deps = repo.commit("update dev dependencies", author=ADA, date="2025-03-02T10:00:00+0000", files={
        "requirements/dev.txt": "tox==4.1\n", ".github/workflows/publish.yaml": "uses: actions/checkout@v4\npypi: test\n"})
    pypi = repo.commit("remove test pypi", author=ADA, date="2025-03-02T10:01:00+0000", files={
        ".github/workflows/publish.yaml": "uses: actions/checkout@v4\n"})
    again = repo.commit("update dev dependencies", author=ADA, date="2025-03-09T10:00:00+0000", files={
        "requirements/dev.txt": "tox==4.2\n", ".github/workflows/tests.yaml": "uses: actions/checkout@v4\non: push\n"})
    trigger = repo.commit("update test workflow trigger", author=ADA, date="2025-03-09T10:05:00+0000", files={
        ".github/workflows/tests.yaml": "uses: actions/checkout@v4\non: [push, pull_request]\n"})
    trigger2 = repo.commit("update test workflow trigger", author=ADA, date="2025-03-09T10:09:00+0000", files={
        ".github/workflows/tests.yaml": "uses: actions/checkout@v4\non:\n  push:\n  pull_request:\n"})
    out, _ = _run(repo)
    wid = dict(out.select("sha", "work_item_id").rows())
    assert wid[deps] != wid[pypi]
    assert wid[trigger] == wid[trigger2] != wid[again]
