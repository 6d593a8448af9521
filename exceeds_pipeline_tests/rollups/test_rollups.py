"""Rollups recomputed by hand on small frames."""

from __future__ import annotations

import polars as pl

from exceeds_pipeline.rollups import (
    MONTHLY_ROLLUPS_SCHEMA,
    REPO_ROLLUPS_SCHEMA,
    monthly_rollups,
    repo_rollups,
    work_item_credit,
)
from exceeds_pipeline_tests.rollups.frames import (
    commit, commits_frame, fc, files_frame, items_frame, skills_frame, wi,
)

WEB = "acme/web"


def scenario():
    commits = commits_frame([
        # out of the window: not counted, so its item F0 is never credited
        commit("a0", "ada", "2025-02-10T10:00", category="feature", item="F0", counted=False),
        # F1: three commits by Ada; the last one is 23:30 UTC on 31 March but 1 April at home
        commit("a1", "ada", "2025-03-10T10:00", category="feature", item="F1", added=1010),
        commit("a2", "ada", "2025-03-20T10:00", category="feature", item="F1", added=5, deleted=2),
        commit("a3", "ada", "2025-03-31T23:30", local_date="2025-04-01", category="docs", item="F1", added=3),
        commit("a4", "ada", "2025-04-05T10:00", repo=WEB, category="bug", item="B1", added=7, deleted=1),
        # no work item: a work item of its own
        commit("a5", "ada", "2025-04-06T10:00", category="bug", added=1, deleted=1),
        # merges and bots never count
        commit("m1", "ada", "2025-04-07T10:00", merge=True, added=500, parents=["a5", "x"]),
        commit("bot1", "dependabot", "2025-04-07T11:00", bot=True, category="build", item="BOT", added=99),
        # Bob's commit inside Ada's item counts as Bob's commit, but the item stays Ada's
        commit("b1", "bob", "2025-05-02T10:00", category="feature", item="F1", added=4),
    ])
    files = files_frame([
        fc("a0", "src/old.py", 10),
        fc("a1", "src/x.py", 10),
        fc("a1", "package-lock.json", 1000, language="JSON", excluded=True, reason="lock_file"),
        fc("a2", "src/x.py", 5, 2),
        fc("a3", "README.md", 3, language="Markdown"),
        fc("a4", "web/y.ts", 7, 1, repo=WEB, language="TypeScript"),
        fc("a5", "src/z.py", 1, 1),
        fc("bot1", "requirements.txt", 99, language="Text"),
        fc("b1", "src/x.py", 4),
    ])
    items = items_frame([
        wi("F0", "ada", "feature", "Old feature"),
        wi("F1", "ada", "feature", "Add parser"),
        wi("B1", "ada", "bug", "Fix crash", repo=WEB),
        wi("BOT", "dependabot", "build", "Bump deps"),
    ])
    skills = skills_frame([
        {"repo": "acme/api", "sha": "a1", "skills": ["Parsing", "Testing"]},
        {"repo": "acme/api", "sha": "a2", "skills": ["Parsing"]},
        {"repo": "acme/api", "sha": "a5", "skills": []},
        {"repo": WEB, "sha": "a4", "skills": ["Frontend"]},
    ])
    return commits, files, items, skills


def test_work_item_credit_counts_each_item_once_in_month_of_last_commit():
    commits, _, items, _ = scenario()
    credit = work_item_credit(commits, items).sort("work_item_id")
    assert credit["work_item_id"].to_list() == ["B1", "F1", "commit:acme/api:a5"]
    f1 = credit.filter(pl.col("work_item_id") == "F1").row(0, named=True)
    assert f1["person_id"] == "ada"
    assert f1["month"] == "2025-04"  # a3's local date, not its UTC date
    assert f1["commits"] == 3
    assert f1["shas"] == ["a1", "a2", "a3"]  # Bob's commit is not Ada's work
    assert f1["category"] == "feature" and f1["title"] == "Add parser"
    own = credit.filter(pl.col("work_item_id") == "commit:acme/api:a5").row(0, named=True)
    assert own["category"] == "bug" and own["title"] == "commit a5" and own["month"] == "2025-04"


def test_an_item_that_ends_in_its_own_revert_counts_in_the_month_it_landed():
    """jq: a fix of November 2024 and its author's revert of June 2025 are one item; it was
    listed as "fixed in June 2025". A revert is not the finishing of a change."""
    from datetime import datetime, timezone

    t = lambda y, m: datetime(y, m, 5, tzinfo=timezone.utc)  # noqa: E731
    commits = pl.DataFrame({
        "repo": ["jq"] * 3, "sha": ["f1", "r1", "g1"], "person_id": ["itchyny"] * 3,
        "authored_at": [t(2024, 11), t(2025, 6), t(2025, 6)], "month": ["2024-11", "2025-06", "2025-06"],
        "category": ["bug", "revert", "revert"], "subject": ["Fix x", 'Revert "Fix x"', 'Revert "Add y"'],
        "work_item_id": ["W1", "W1", "W2"], "is_counted": [True] * 3, "files_changed": [1] * 3,
    })
    items = pl.DataFrame({"work_item_id": ["W1", "W2"], "person_id": ["itchyny"] * 2, "category": ["bug", "revert"],
                          "title": ["Fix x", 'Revert "Add y"'], "repo": ["jq"] * 2})
    credit = {r["work_item_id"]: r for r in work_item_credit(commits, items).iter_rows(named=True)}
    assert credit["W1"]["month"] == "2024-11" and credit["W1"]["landed_at"] == t(2024, 11)
    assert credit["W1"]["commits"] == 2
    # an item of reverts alone is finished by its last one
    assert credit["W2"]["month"] == "2025-06"


def test_monthly_rollups_by_hand():
    commits, files, items, _ = scenario()
    out = monthly_rollups(commits, items, files)
    assert out.schema == pl.Schema(MONTHLY_ROLLUPS_SCHEMA)
    rows = {(r["person_id"], r["month"]): r for r in out.iter_rows(named=True)}
    assert set(rows) == {("ada", "2025-03"), ("ada", "2025-04"), ("bob", "2025-05")}  # no bot, no Feb

    march = rows[("ada", "2025-03")]
    assert (march["commits"], march["features"], march["bugs"], march["work_items"]) == (2, 0, 0, 0)
    assert (march["lines_added"], march["lines_deleted"]) == (15, 2)  # lock file left out
    assert (march["raw_lines_added"], march["raw_lines_deleted"]) == (1015, 2)
    assert march["repos"] == ["acme/api"]
    # languages by profile lines of the month (the lock file is not a language of the profile)
    assert march["languages"] and "Python" in march["languages"]

    april = rows[("ada", "2025-04")]
    assert (april["commits"], april["features"], april["bugs"], april["work_items"]) == (3, 1, 2, 3)
    assert (april["lines_added"], april["lines_deleted"]) == (11, 2)  # merge m1 not credited
    assert april["repos"] == ["acme/api", WEB]  # two commits in api, one in web

    bob = rows[("bob", "2025-05")]
    assert (bob["commits"], bob["features"], bob["bugs"], bob["lines_added"]) == (1, 0, 0, 4)

    # A feature with three commits is one feature.
    assert out.filter(pl.col("person_id") == "ada")["features"].sum() == 1


def test_repo_rollups_by_hand():
    commits, files, items, skills = scenario()
    out = repo_rollups(commits, items, files, skills)
    assert out.schema == pl.Schema(REPO_ROLLUPS_SCHEMA)
    rows = {(r["person_id"], r["repo"]): r for r in out.iter_rows(named=True)}
    assert set(rows) == {("ada", "acme/api"), ("ada", WEB), ("bob", "acme/api")}

    api = rows[("ada", "acme/api")]
    assert (api["first_month"], api["last_month"], api["months_active"]) == ("2025-03", "2025-04", 2)
    assert (api["commits"], api["features"], api["bugs"]) == (4, 1, 1)
    assert (api["lines_added"], api["lines_deleted"]) == (19, 3)
    assert api["languages"] == ["Python", "Markdown"]  # 19 lines of Python changed, 3 of Markdown
    assert api["skills"] == ["Parsing", "Testing"]  # Parsing in 2 commits, Testing in 1

    web = rows[("ada", WEB)]
    assert (web["commits"], web["features"], web["bugs"], web["months_active"]) == (1, 0, 1, 1)
    assert web["languages"] == ["TypeScript"] and web["skills"] == ["Frontend"]

    bob = rows[("bob", "acme/api")]
    assert bob["skills"] == [] and bob["languages"] == ["Python"] and bob["features"] == 0


def test_empty_inputs_give_empty_tables_with_schema():
    commits, files, items, skills = scenario()
    none = commits.clear()
    assert monthly_rollups(none, items, files).schema == pl.Schema(MONTHLY_ROLLUPS_SCHEMA)
    assert repo_rollups(none, items.clear(), files.clear(), None).height == 0
    # no file_changes at all: profile LOC is 0, raw LOC still there
    out = monthly_rollups(commits, items, files.clear())
    assert out["lines_added"].sum() == 0 and out["raw_lines_added"].sum() == 1015 + 11 + 4


def test_housekeeping_dot_files_give_no_language_but_keep_their_lines():
    commits = commits_frame([commit("c1", "ada", "2025-03-10T10:00", category="chore", added=30)])
    files = files_frame([
        fc("c1", ".gitignore", 20, language="Ignore List"),
        fc("c1", "docs/.editorconfig", 5, language="EditorConfig"),
        fc("c1", "src/app.py", 5),
    ])
    (row,) = repo_rollups(commits, items_frame([]), files).iter_rows(named=True)
    assert row["languages"] == ["Python"]
    assert row["lines_added"] == 30  # lines of code still count every non-excluded file


def test_markup_among_the_tests_is_a_fixture_not_a_language():
    """express: three one-line `.tmpl` views under test/fixtures made its maintainer a Go
    Template author; sinatra's test views made Konstantin Haase a Haml and Stylus one. A
    template outside the tests, and the test code itself, are languages."""
    commits = commits_frame([commit("c1", "ada", "2025-03-10T10:00", category="test", added=40)])
    files = files_frame([
        fc("c1", "test/fixtures/user.tmpl", 3, language="Go Template"),
        fc("c1", "test/views/hello.haml", 9, language="Haml"),
        fc("c1", "test/app.test.js", 20, language="JavaScript"),
        fc("c1", "views/layout.haml", 8, language="Haml"),
    ])
    (row,) = repo_rollups(commits, items_frame([]), files).iter_rows(named=True)
    assert row["languages"] == ["JavaScript", "Haml"]
    assert row["lines_added"] == 40
    # sinatra-contrib's spec/ views, redis's doc/*.html pages, requests' docs/_static scripts:
    # fixtures and documentation, not languages written (Linguist leaves documentation trees
    # out too); the C beside them stays
    commits = commits_frame([commit("c2", "ada", "2025-03-11T10:00", category="docs", added=50)])
    files = files_frame([
        fc("c2", "sinatra-contrib/spec/content_for/layout.slim", 6, language="Slim"),
        fc("c2", "doc/SetCommand.html", 30, language="HTML"),
        fc("c2", "src/server.c", 4, language="C"),
        fc("c2", "public/index.html", 10, language="HTML"),
        fc("c2", "docs/_static/carbon-ads.js", 40, language="JavaScript"),  # requests' docs scripts
    ])
    (row,) = repo_rollups(commits, items_frame([]), files).iter_rows(named=True)
    assert row["languages"] == ["HTML", "C"]


def test_a_distribution_package_is_no_language_written():
    """ripgrep: pkg/brew/ripgrep-bin.rb, its Homebrew formula bumped with each release, had made
    Andrew Gallant a Ruby author in 43 commits (httpie: extras/packaging's formula). The lines
    still count; a repository's own root folder named `packaging` (pypa/packaging) is its code."""
    commits = commits_frame([commit("c1", "ada", "2025-03-10T10:00", category="build", added=30)])
    files = files_frame([
        fc("c1", "pkg/brew/ripgrep-bin.rb", 20, language="Ruby"),
        fc("c1", "debian/rules", 4, language="Makefile"),
        fc("c1", "src/main.rs", 6, language="Rust"),
    ])
    (row,) = repo_rollups(commits, items_frame([]), files).iter_rows(named=True)
    assert row["languages"] == ["Rust"]
    assert row["lines_added"] == 30
    commits = commits_frame([commit("c2", "ada", "2025-03-11T10:00", category="feature", added=12, repo="pypa/packaging")])
    files = files_frame([fc("c2", "packaging/version.py", 12, language="Python", repo="pypa/packaging")])
    (row,) = repo_rollups(commits, items_frame([]), files).iter_rows(named=True)
    assert row["languages"] == ["Python"]
