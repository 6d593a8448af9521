"""Quality formulas recomputed by hand on small frames."""

from __future__ import annotations

import polars as pl
import pytest

from exceeds_pipeline.quality import METRICS, QUALITY_SCHEMA, quality_metrics
from exceeds_pipeline_tests.rollups.frames import commit, commits_frame, fc, files_frame, items_frame, links_frame


def metric(table, person, name):
    return table.filter((pl.col("person_id") == person) & (pl.col("metric") == name)).row(0, named=True)


def rework_story():
    commits = commits_frame([
        commit("c1", "ada", "2025-01-01T10:00", added=60),
        commit("c2", "bob", "2025-01-10T10:00", added=0, deleted=4),  # rewrites 4 of c1's lines
        commit("c3", "ada", "2025-01-01T11:00", added=6),
        commit("c4", "bob", "2025-02-01T10:00", added=0, deleted=6),  # 31 days later: survived
        commit("c5", "ada", "2025-01-01T12:00", added=5),
        commit("c6", "bob", "2025-01-05T10:00", added=0, deleted=5),  # renames c.py and rewrites it
        commit("c7", "ada", "2025-03-20T10:00", added=100),  # too young to judge
        commit("c8", "ada", "2025-01-02T10:00", added=0, deleted=3),  # own rework counts too
        commit("c9", "bob", "2025-04-01T10:00", added=1),  # newest commit of the repository
        commit("m1", "ada", "2025-01-03T10:00", merge=True, added=0),
    ])
    files = files_frame([
        fc("c1", "a.py", 10), fc("c1", "package-lock.json", 50, excluded=True, reason="lock_file"),
        fc("c2", "a.py", 0, 4),
        fc("c3", "b.py", 6), fc("c4", "b.py", 0, 6),
        fc("c5", "c.py", 5), fc("c6", "d.py", 0, 5, status="R", old_path="c.py"),
        fc("c7", "e.py", 100), fc("c8", "a.py", 0, 3), fc("c9", "README.md", 1, language="Markdown"),
    ])
    return commits, files


def survival_rows(rows):
    return pl.DataFrame(
        [dict(zip(("repo", "sha", "path", "lines_added", "lines_rewritten", "final"), r)) for r in rows],
        schema={"repo": pl.String, "sha": pl.String, "path": pl.String, "lines_added": pl.Int64,
                "lines_rewritten": pl.Int64, "final": pl.Boolean},
    )


def test_performance_from_line_survival_facts():
    commits, files = rework_story()
    repo = commits["repo"][0]
    surv = survival_rows([
        (repo, "c1", "a.py", 10, 7, True), (repo, "c1", "package-lock.json", 50, 50, True),  # excluded file
        (repo, "c3", "b.py", 6, 0, True), (repo, "c5", "c.py", 5, 5, True),
        (repo, "c7", "e.py", 100, 0, False),  # too young: not judged
        (repo, "c9", "README.md", 1, 0, False),
    ])
    q = quality_metrics(commits, items_frame([]), None, files, survival=surv)
    assert q.schema == pl.Schema(QUALITY_SCHEMA)
    p = metric(q, "ada", "performance")
    assert p["value"] == pytest.approx(1 - (7 + 0 + 5) / (10 + 6 + 5))
    assert p["evidence_count"] == 3
    assert p["evidence_shas"] == ["c1", "c5", "c3"]  # most rework first
    assert "21 days" in p["method"] and "line by line" in p["method"]
    bob = metric(q, "bob", "performance")
    assert bob["value"] is None and bob["evidence_count"] == 0  # only a change too young to judge
    # fewer than 3 evaluated commits: null, the evidence still shown
    two = quality_metrics(commits, items_frame([]), None, files, survival=surv.filter(pl.col("sha") != "c3"))
    assert metric(two, "ada", "performance")["value"] is None
    assert metric(two, "ada", "performance")["evidence_count"] == 2


def test_missing_facts_are_pending_never_partial():
    commits, files = rework_story()
    q = quality_metrics(commits, items_frame([]), None, files)
    for name in ("maintainability", "architecture", "performance"):
        m = metric(q, "ada", name)
        assert m["value"] is None and m["evidence_count"] == 0 and m["method"].startswith("Pending:")
        assert "not computed yet" in m["method"]
    assert metric(q, "ada", "ai_usage")["value"] is not None
    # a fact that failed says so, and why: it is not merely "not computed yet"
    failed = quality_metrics(commits, items_frame([]), None, files, failures={"survival": "acme/lib: bad path"})
    perf = metric(failed, "ada", "performance")
    assert perf["value"] is None and "could not be computed (acme/lib: bad path)" in perf["method"]
    assert "not computed yet" in metric(failed, "ada", "maintainability")["method"]


def test_every_person_gets_every_metric_in_order():
    commits, files = rework_story()
    q = quality_metrics(commits, items_frame([]), links_frame([]), files)
    assert q["person_id"].to_list() == ["ada"] * 5 + ["bob"] * 5
    assert q["metric"].to_list() == list(METRICS) * 2
    assert all(q["method"].str.len_chars() > 40)
    # Every counted commit is its own work item here; nothing was reverted.
    c = metric(q, "ada", "correctness")
    assert (c["value"], c["evidence_count"]) == (1.0, 5)  # base rate 1: shrinking changes nothing


def test_fixes_link_from_another_item_marks_item_broken():
    commits = commits_frame([
        commit("x1", "ada", "2025-01-01T10:00", item="F", category="feature"),
        commit("x2", "ada", "2025-01-02T10:00", item="F", category="feature"),
        commit("y1", "bob", "2025-01-05T10:00", item="B", category="bug"),
        commit("z1", "ada", "2025-01-06T10:00", item="G", category="feature"),
    ])
    items = items_frame([
        {"work_item_id": i, "repo": "acme/api", "person_id": p, "category": c, "title": t, "first_at": None,
         "last_at": None, "commits": None, "lines_added": None, "lines_deleted": None, "pr_number": None}
        for i, p, c, t in [("F", "ada", "feature", "F"), ("B", "bob", "bug", "B"), ("G", "ada", "feature", "G")]
    ])
    links = links_frame([{"repo": "acme/api", "sha": "y1", "link_type": "fixes", "target_sha": "x1",
                          "evidence": "Fixes: x1"},
                         {"repo": "acme/api", "sha": "x2", "link_type": "fixes", "target_sha": "x1",
                          "evidence": "Fixes: x1"}])
    q = quality_metrics(commits, items, links, files_frame([]), dmm=pl.DataFrame())
    c = metric(q, "ada", "correctness")
    # F broken (once, though named twice), G fine; base rate 2/3 over the 3 items, prior 5 items
    assert c["evidence_count"] == 2
    assert c["value"] == pytest.approx((1 + 5 * 2 / 3) / (2 + 5))
    assert 0.5 < c["value"] < metric(q, "bob", "correctness")["value"] < 1.0
    assert c["evidence_shas"][0] == "x1"
    # No source files at all: architecture has no evidence.
    assert metric(q, "ada", "architecture")["value"] is None


def test_no_counted_commits_gives_empty_table():
    commits, files = rework_story()
    none = commits.with_columns(pl.lit(False).alias("is_counted"))
    assert quality_metrics(none, items_frame([]), None, files).height == 0


def test_only_product_changes_are_asked_for_tests_beside_them():
    """requests: version bumps (`requests/__version__.py`, a Python file) and setup.py pins had
    counted as code-changing items without tests. A release, a dependency pin and a revert need
    no test of their own; features, fixes, refactors and speed-ups do."""
    from exceeds_pipeline_tests.rollups.frames import wi

    commits = commits_frame([
        commit("a", "ada", "2025-01-01T10:00", item="A", category="feature"),
        commit("b", "ada", "2025-01-02T10:00", item="B", category="bug"),
        commit("c", "ada", "2025-01-03T10:00", item="C", category="chore"),
        commit("d", "ada", "2025-01-04T10:00", item="D", category="build"),
        commit("e", "ada", "2025-01-05T10:00", item="E", category="refactor"),
    ])
    files = files_frame([
        fc("a", "src/pkg/a.py", 10), fc("a", "tests/test_a.py", 10),
        fc("b", "src/pkg/a.py", 2),
        fc("c", "src/pkg/__version__.py", 1),
        fc("d", "setup.py", 1),
        fc("e", "src/pkg/b.py", 5),
    ])
    items = items_frame([wi(i, "ada", cat, i) for i, cat in
                         [("A", "feature"), ("B", "bug"), ("C", "chore"), ("D", "build"), ("E", "refactor")]])
    dmm = pl.DataFrame(schema={"sha": pl.String, "dmm_unit_size": pl.Float64, "dmm_unit_complexity": pl.Float64,
                               "dmm_unit_interfacing": pl.Float64})
    a = metric(quality_metrics(commits, items, None, files, dmm=dmm), "ada", "architecture")
    # A, B and E: one tested of three, shrunk toward the repository's 1/3 with 5 prior items
    assert a["evidence_count"] == 3
    assert a["value"] == pytest.approx((1 + 5 * (1 / 3)) / (3 + 5))
    assert sorted(a["evidence_shas"]) == ["a", "b", "e"]


def test_source_that_lizard_cannot_read_still_asks_for_tests_beside_it():
    """ecto: Elixir, which lizard cannot read, left its 2,300-commit maintainer without any
    architecture value, though the tests-beside-code part needs no parser. A shell script of
    the tooling asks for no test."""
    from exceeds_pipeline_tests.rollups.frames import wi

    commits = commits_frame([
        commit("a", "ada", "2025-01-01T10:00", item="A", category="feature"),
        commit("b", "ada", "2025-01-02T10:00", item="B", category="bug"),
        commit("c", "ada", "2025-01-03T10:00", item="C", category="bug"),
        commit("d", "ada", "2025-01-04T10:00", item="D", category="refactor"),
    ])
    files = files_frame([
        fc("a", "lib/ecto/repo.ex", 10, language="Elixir"), fc("a", "test/ecto/repo_test.exs", 10, language="Elixir"),
        fc("b", "lib/ecto/query.ex", 2, language="Elixir"),
        fc("c", "scripts/release.sh", 3, language="Shell"),
        fc("d", "lib/ecto/schema.ex", 4, language="Elixir"),
    ])
    items = items_frame([wi(i, "ada", cat, i) for i, cat in [("A", "feature"), ("B", "bug"), ("C", "bug"), ("D", "refactor")]])
    dmm = pl.DataFrame(schema={"sha": pl.String, "dmm_unit_size": pl.Float64, "dmm_unit_complexity": pl.Float64,
                               "dmm_unit_interfacing": pl.Float64})
    a = metric(quality_metrics(commits, items, None, files, dmm=dmm), "ada", "architecture")
    # A, B and D: one tested of three, shrunk toward the repository's 1/3 with 5 prior items
    assert a["evidence_count"] == 3
    assert a["value"] == pytest.approx((1 + 5 * (1 / 3)) / (3 + 5))
    assert sorted(a["evidence_shas"]) == ["a", "b", "d"]
