"""The classifiers find what the demo generator planted (demo/webapp and demo/mlkit)."""

from __future__ import annotations

import polars as pl
import pytest

from exceeds_pipeline.classify.categories import categorize_commits
from exceeds_pipeline.classify.links import commit_links
from exceeds_pipeline.classify.work_items import assign_work_items
from exceeds_pipeline.demo.generate import build_demo_repositories
from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline_tests.classify.gitframes import read_repo


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    repos = build_demo_repositories(tmp_path_factory.mktemp("demo"))
    results = {}
    for repo in repos:
        commits, files = read_repo(GitScript(repo.path), name=repo.name)
        commits = categorize_commits(commits, files)
        links = commit_links(commits)
        out, items = assign_work_items(commits, links, files)
        results[repo.name] = (repo, out, links, items)
    return results


def test_links_are_the_planted_ones(demo):
    for repo, _, links, _ in demo.values():
        got = {(r["sha"], r["link_type"], r["target_sha"]) for r in links.iter_rows(named=True)}
        want = (
            {(a, "reverts", b) for a, b in repo.reverts}
            | {(a, "relands", b) for a, b in repo.relands}
            | {(a, "fixes", b) for a, b in repo.fixes_trailers}
        )
        assert got == want, repo.name


def test_pull_requests_series_and_revert_reland_items(demo):
    for repo, out, _, items in demo.values():
        planted_pr = {c.sha: c.pr for c in repo.commits if not c.is_merge and not c.is_bot}
        got_pr = dict(zip(out["sha"], out["pr_number"]))
        assert {s: got_pr[s] for s in planted_pr} == planted_pr, repo.name
        wid = dict(zip(out["sha"], out["work_item_id"]))
        for number in repo.pull_requests:
            item_id = f"{repo.name}#pr-{number}"
            work = [c.sha for c in repo.commits if c.pr == number and not c.is_bot and not c.is_merge]
            merges = [c.sha for c in repo.commits if c.pr == number and c.is_merge]
            assert {wid[s] for s in work} <= {item_id}, (repo.name, number)
            # A merge takes its PR's item; a PR with only bot commits has none.
            assert {wid[s] for s in merges} <= ({item_id} if work else {None}), (repo.name, number)
        for series in repo.series:
            assert len({wid[s] for s in series}) == 1, repo.name
        person = dict(zip(out["sha"], out["person_id"]))
        # A revert or reland joins the change's item only when its author made the change: a
        # revert by someone else is a link (commit_links), not part of the author's work.
        for revert, original in repo.reverts:
            assert (wid[revert] == wid[original]) == (person[revert] == person[original])
        for reland, original in repo.relands:
            assert (wid[reland] == wid[original]) == (person[reland] == person[original])
            item = items.filter(pl.col("work_item_id") == wid[original]).row(0, named=True)
            planted = {c.sha: c.category for c in repo.commits}
            assert item["category"] == planted[original]


def test_categories_mostly_match_what_the_generator_meant(demo):
    """The demo's intended categories are one reading of each message; the classifier must agree
    on nearly all of them and never confuse a feature with a bug fix."""
    total = agree = 0
    for repo, out, _, _ in demo.values():
        got = dict(zip(out["sha"], out["category"]))
        for c in repo.commits:
            if c.is_merge or c.category is None:
                continue
            total += 1
            agree += got[c.sha] == c.category
            assert {got[c.sha], c.category} != {"feature", "bug"}, c.subject
    assert agree / total >= 0.9, f"{agree}/{total}"
