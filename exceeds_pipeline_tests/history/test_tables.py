"""Counted commits and months (SPEC §5), on a real repository with awkward time zones."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.history.tables import COMMIT_COLUMNS, attach_people, finalize_commits
from exceeds_pipeline.identity.people import resolve_people
from exceeds_pipeline.ingest.git_log import log_commits
from exceeds_pipeline_tests.conftest import git_out

ADA = ("Ada Lovelace", "ada@example.com")
BOB = ("Bob Builder", "bob@example.org")
DEPENDABOT = ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com")
GENERATED = ("generatedunixname4242", "generatedunixname4242@fb.com")
SINCE, UNTIL = date(2024, 10, 1), date(2026, 4, 30)


class History:
    def __init__(self, root):
        r = self.repo = GitScript.init(root / "repo")
        n = iter(range(1000))

        def c(author, when, msg=None):
            i = next(n)
            return r.commit(msg or f"change {i}", author=author, date=when, files={f"f{i}.txt": f"{i}\n"})

        # the day before the window in the author's zone, although already inside it in UTC
        self.before_local = c(ADA, "2024-09-30T23:30:00-0500")
        # first day of the window in the author's zone, still the day before in UTC
        self.first_local = c(BOB, "2024-10-01T00:30:00+0200")
        self.jan_end = c(ADA, "2025-01-31T23:00:00-0800")  # February in UTC, January for Ada
        self.bot = c(DEPENDABOT, "2025-02-10T10:00:00+0000")
        self.generated = c(GENERATED, "2025-02-11T10:00:00+0000")
        # CI output committed under the person who triggered it declares itself by its type
        self.autogen = c(ADA, "2025-02-12T10:00:00+0000", "autogen(docs): regenerate and update changelog")
        self.autogenerate = c(ADA, "2025-02-13T10:00:00+0000", "feat: autogenerate the API reference")
        # ... and so does a deploy action's commit (fzf: 123 of them made a second "person")
        self.deploy = c(ADA, "2025-02-14T10:00:00+0000",
                        "Deploying to master from @ acme/app@55d5b153e627784fa43982fa3c01d0ab86ef0224 🚀")
        # ... and so does what a CI workflow commits under the person who triggered it (laravel's
        # `Update facade docblocks` under Taylor Otwell); another app landing a person's own
        # change (mergify) leaves it theirs
        self.workflow = r.commit("Update facade docblocks", author=ADA, date="2025-02-15T10:00:00+0000",
                                 committer=("github-actions[bot]", "41898282+github-actions[bot]@users.noreply.github.com"),
                                 files={"docblocks.txt": "x\n"})
        # ... but a release a workflow cuts is the release its maintainer started (laravel's
        # `Update version to v13.26.1`)
        self.release = r.commit("Update version to v13.26.1", author=ADA, date="2025-02-15T12:00:00+0000",
                                committer=("github-actions[bot]", "41898282+github-actions[bot]@users.noreply.github.com"),
                                files={"VERSION": "13.26.1\n"})
        self.styled = r.commit("Apply fixes from StyleCI", author=ADA, date="2025-02-15T11:00:00+0000",
                               committer=("StyleCI Bot", "bot@styleci.io"), files={"docblocks.txt": "x;\n"})
        # (and StyleCI's own pull request, squashed by GitHub under the person)
        self.styled_pr = r.commit("[10.x] Apply fixes from StyleCI (#48021)", author=ADA, date="2025-02-15T11:30:00+0000",
                                  committer=("GitHub", "noreply@github.com"), files={"docblocks.txt": "x; \n"})
        self.landed = r.commit("Fix the docblock of Cache::get", author=ADA, date="2025-02-16T10:00:00+0000",
                               committer=("mergify[bot]", "37929162+mergify[bot]@users.noreply.github.com"),
                               files={"cache.txt": "y\n"})
        r.branch("topic", checkout=True)
        self.topic = c(BOB, "2025-03-01T10:00:00+0000")
        r.checkout("main")
        self.main_side = c(ADA, "2025-03-02T10:00:00+0000")
        self.merge = r.merge("topic", "Merge topic", author=ADA, date="2025-03-03T10:00:00+0000")
        self.last_local = c(ADA, "2026-04-30T23:59:00-1200")  # May 1st in UTC
        self.after_local = c(BOB, "2026-05-01T00:01:00+1400")  # April 30th in UTC
        shas = git_out(r.path, "rev-list", "HEAD").split()
        self.raw, _ = log_commits(r.path / ".git", "acme/app", shas, r.head())


@pytest.fixture(scope="module")
def hist(tmp_path_factory):
    return History(tmp_path_factory.mktemp("tables"))


def build(hist, since=SINCE, until=UNTIL, patterns=("^generatedunixname",)):
    people, idmap = resolve_people(hist.raw, bot_patterns=list(patterns))
    return finalize_commits(attach_people(hist.raw, idmap, people, since, until))


def rows(table: pl.DataFrame) -> dict[str, dict]:
    return {r["sha"]: r for r in table.iter_rows(named=True)}


def test_is_counted_window_edges_on_author_local_date(hist):
    t = rows(build(hist))
    assert t[hist.before_local]["is_counted"] is False
    assert t[hist.before_local]["author_date"] == date(2024, 9, 30)
    assert t[hist.first_local]["is_counted"] is True
    assert t[hist.first_local]["author_date"] == date(2024, 10, 1)
    assert t[hist.last_local]["is_counted"] is True
    assert t[hist.last_local]["author_date"] == date(2026, 4, 30)
    assert t[hist.after_local]["is_counted"] is False
    assert t[hist.after_local]["author_date"] == date(2026, 5, 1)


def test_merges_and_bots_are_recorded_but_not_counted(hist):
    t = rows(build(hist))
    assert t[hist.merge]["is_merge"] is True and t[hist.merge]["is_counted"] is False
    assert t[hist.merge]["lines_added"] == 0
    for sha in (hist.bot, hist.generated, hist.autogen, hist.deploy, hist.workflow, hist.styled, hist.styled_pr):
        assert t[sha]["is_bot"] is True and t[sha]["is_counted"] is False
    for sha in (hist.topic, hist.main_side, hist.jan_end, hist.autogenerate, hist.landed, hist.release):
        assert t[sha]["is_counted"] is True and t[sha]["is_bot"] is False
    counted = {s for s, r in t.items() if r["is_counted"]}
    assert counted == {hist.first_local, hist.jan_end, hist.autogenerate, hist.landed, hist.release, hist.topic,
                       hist.main_side, hist.last_local}
    assert t[hist.workflow]["person_id"] == "ada-lovelace"
    # the machine-made commit stays Ada's (recorded under her), and Ada is no bot
    assert t[hist.autogen]["person_id"] == "ada-lovelace"
    # Meta's generatedunixname service accounts are bots by default (SPEC §5), config or not
    assert rows(build(hist, patterns=()))[hist.generated]["is_counted"] is False


def test_no_window_counts_every_human_non_merge_commit(hist):
    t = build(hist, since=None, until=None)
    assert t.filter("is_counted").height == t.height - 8  # merge, dependabot, generated, autogen, deploy, workflow, styled x2
    only_since = rows(build(hist, since=SINCE, until=None))
    assert only_since[hist.after_local]["is_counted"] is True
    assert only_since[hist.before_local]["is_counted"] is False


def test_month_is_the_authors_local_month(hist):
    t = build(hist)
    r = rows(t)
    assert r[hist.jan_end]["month"] == "2025-01"
    assert r[hist.before_local]["month"] == "2024-09"
    assert r[hist.last_local]["month"] == "2026-04"
    assert r[hist.after_local]["month"] == "2026-05"
    # what git prints in each author's own offset
    out = git_out(hist.repo.path, "log", "--format=%H %ad", "--date=format:%Y-%m")
    assert dict(line.split() for line in out.splitlines()) == dict(t.select("sha", "month").iter_rows())


def test_published_columns_and_people(hist):
    t = build(hist)
    assert t.columns == COMMIT_COLUMNS
    assert t.height == hist.raw.height and t["sha"].n_unique() == t.height
    assert t["person_id"].null_count() == 0
    r = rows(t)
    assert r[hist.jan_end]["person_id"] == r[hist.merge]["person_id"] == "ada-lovelace"
    assert r[hist.first_local]["person_id"] == "bob-builder"
    assert t["category"].null_count() == t.height  # derived later by classification
    assert t.sort("authored_at")["sha"].to_list() == t["sha"].to_list()
    assert t.schema["author_date"] == pl.Date and t.schema["month"] == pl.String
