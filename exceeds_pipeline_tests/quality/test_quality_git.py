"""Quality metrics on a real scripted repository: SZZ, DMM (cached), correctness."""

from __future__ import annotations

import polars as pl
import pytest
from pydriller import Git

import exceeds_pipeline.quality.dmm as dmm_mod
import exceeds_pipeline.quality.szz as szz_mod
from exceeds_pipeline.quality import compute_dmm, compute_szz, dmm_sample, quality_metrics, szz_candidates
from exceeds_pipeline_tests.quality.gitframes import revert_links
from exceeds_pipeline_tests.rollups.frames import items_frame, wi


def work_items_of(commits):
    return items_frame([
        wi(r["work_item_id"], r["person_id"], r["category"], r["subject"], repo=r["repo"])
        for r in commits.iter_rows(named=True)
    ])


def metric(table, person, name):
    return table.filter((pl.col("person_id") == person) & (pl.col("metric") == name)).row(0, named=True)


def test_szz_traces_the_fix_to_the_commit_that_wrote_the_lines(story, tmp_path):
    repo, s, commits, _ = story
    cands = szz_candidates(commits)
    assert cands["sha"].to_list() == [s["fix"]]  # the only bug commit; it deletes a line
    out = compute_szz(repo.path, cands["sha"], tmp_path / "szz.parquet")
    assert out.rows() == [(s["fix"], s["lexer"])]


def test_szz_agrees_with_pydriller(story, tmp_path):
    repo, s, _, _ = story
    clone = repo.clone(repo.path, tmp_path / "clone")  # PyDriller writes to the repo config
    git = Git(str(clone.path))
    expected = set().union(*git.get_commits_last_modified_lines(git.get_commit(s["fix"])).values())
    git.clear()
    assert szz_mod.blame_deleted_lines(repo.path, s["fix"]) == sorted(expected) == [s["lexer"]]


def test_szz_cache_is_reused_and_bounded(story, tmp_path, monkeypatch):
    repo, s, _, _ = story
    cache = tmp_path / "szz.parquet"
    calls = []
    real = szz_mod.blame_deleted_lines
    monkeypatch.setattr(szz_mod, "blame_deleted_lines", lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    fixes = [s["fix"], s["util"], s["complex"]]
    first = compute_szz(repo.path, fixes, cache, max_new=2)
    assert sorted(calls) == sorted([s["fix"], s["util"]])  # max_new (tests only) bounds the call
    assert first["fix_sha"].to_list() == [s["fix"]]  # util deletes nothing: no pairs
    calls.clear()
    compute_szz(repo.path, fixes, cache, max_new=2)
    assert calls == [s["complex"]]  # only what the cache lacks
    calls.clear()
    again = compute_szz(repo.path, fixes, cache)
    assert calls == [] and again.rows() == first.rows()
    # a cache written by other trace rules (here: before traces recorded them at all) is traced
    # again, once
    pl.read_parquet(cache).drop("skipped").write_parquet(cache)
    calls.clear()
    assert compute_szz(repo.path, fixes, cache).rows() == again.rows() and sorted(calls) == sorted(fixes)
    calls.clear()
    assert compute_szz(repo.path, fixes, cache).rows() == again.rows() and calls == []
    # a fix whose trace now leaves a file out is traced again
    lexer_file = repo.git("diff-tree", "--no-commit-id", "--name-only", "-r", s["fix"]).split()
    skipped = compute_szz(repo.path, fixes, cache, skip_paths={s["fix"]: lexer_file})
    assert calls == [s["fix"]] and skipped.height == 0  # its only deleted line is in the left-out file
    calls.clear()
    assert compute_szz(repo.path, fixes, cache, skip_paths={s["fix"]: lexer_file}).height == 0 and calls == []
    assert compute_szz(repo.path, fixes, cache).rows() == first.rows() and calls == [s["fix"]]


def test_szz_reads_deleted_lines_that_look_like_diff_headers():
    diff = (b"diff --git a/q.sql b/q.sql\nindex 1..2 100644\n--- a/q.sql\n+++ b/q.sql\n"
            b"@@ -3,2 +3 @@ x\n--- drop\n-select 1;\n+select 2;\n"
            b"diff --git \"a/t\\303\\251st.py\" \"b/t\\303\\251st.py\"\n--- \"a/t\\303\\251st.py\"\n"
            b"+++ \"b/t\\303\\251st.py\"\n@@ -7 +6,0 @@\n-x = 1\n")
    assert szz_mod._deleted_lines(diff) == {b"q.sql": [3, 4], "tést.py".encode(): [7]}


def test_reverted_item_and_szz_trace_lower_correctness(story):
    _, s, commits, files = story
    links = revert_links(commits)
    assert links["target_sha"].to_list() == [s["cache"]]
    items = work_items_of(commits)
    szz = pl.DataFrame({"fix_sha": [s["fix"]], "blamed_sha": [s["lexer"]]})

    without = quality_metrics(commits, items, None, files)
    assert metric(without, "ada", "correctness")["value"] == 1.0

    q = quality_metrics(commits, items, links, files, szz=szz)
    ada = metric(q, "ada", "correctness")
    assert ada["evidence_count"] == 5  # parser, cache, fix, util, complex
    base = 6 / 8  # 8 items in all, 2 broken (Ada's cache, Bob's lexer); shrunk with 5 prior items
    assert ada["value"] == pytest.approx((4 + 5 * base) / (5 + 5))  # the cache was reverted
    assert ada["evidence_shas"][0] == s["cache"]  # what lowers the value comes first
    bob = metric(q, "bob", "correctness")
    assert bob["evidence_count"] == 3  # lexer, revert, docs
    assert bob["value"] == pytest.approx((2 + 5 * base) / (3 + 5))  # Ada's fix traces back to the lexer
    assert bob["value"] < ada["value"] < 1.0
    assert bob["evidence_shas"][0] == s["lexer"]

    # A fix inside the same work item is iteration, not breakage.
    same = items.with_columns(
        pl.when(pl.col("work_item_id") == "item-fix").then(pl.lit("item-lexer"))
        .otherwise(pl.col("work_item_id")).alias("work_item_id")
    )
    merged = commits.with_columns(
        pl.when(pl.col("sha") == s["fix"]).then(pl.lit("item-lexer")).otherwise(pl.col("work_item_id"))
        .alias("work_item_id")
    )
    q2 = quality_metrics(merged, same, links, files, szz=szz)
    bob2 = metric(q2, "bob", "correctness")
    assert bob2["value"] > ada["value"] and bob2["evidence_shas"][0] != s["lexer"]


def test_dmm_matches_pydriller_and_cache_is_reused(story, tmp_path, monkeypatch):
    repo, s, commits, files = story
    sample = dmm_sample(commits, files, per_person=5, min_commits=1)
    # README-only commits are not measured, nor a revert (it restores earlier code: its DMM is
    # the undone change's, not its author's).
    assert s["docs"] not in sample["sha"].to_list() and s["revert"] not in sample["sha"].to_list()
    assert set(sample["sha"]) == {s[k] for k in ("parser", "lexer", "cache", "fix", "util", "complex")}

    calls = []
    real = dmm_mod._measure_commit
    monkeypatch.setattr(dmm_mod, "_measure_commit", lambda c: calls.append(c.hash) or real(c))
    cache = tmp_path / "cache" / "dmm.parquet"
    first = compute_dmm(repo.path, sample["sha"], cache)
    assert sorted(calls) == sorted(sample["sha"]) and cache.exists()

    clone = repo.clone(repo.path, tmp_path / "clone")
    git = Git(str(clone.path))
    for row in first.iter_rows(named=True):
        c = git.get_commit(row["sha"])
        assert (row["dmm_unit_size"], row["dmm_unit_complexity"], row["dmm_unit_interfacing"]) == (
            c.dmm_unit_size, c.dmm_unit_complexity, c.dmm_unit_interfacing)
    git.clear()
    cx = first.filter(pl.col("sha") == s["complex"]).row(0, named=True)
    assert cx["dmm_unit_complexity"] == 0.0 and cx["dmm_unit_interfacing"] == 0.0  # one risky method
    assert first.filter(pl.col("sha") == s["parser"])["dmm_unit_size"].item() == 1.0

    calls.clear()
    second = compute_dmm(repo.path, sample["sha"], cache)
    assert calls == []  # everything came from the cache
    assert second.equals(first)

    more = compute_dmm(repo.path, [*sample["sha"], s["docs"]], cache)
    assert calls == [s["docs"]]
    assert more.filter(pl.col("sha") == s["docs"])["status"].item() == "no_value"


def test_dmm_leaves_repository_config_alone(story, tmp_path):
    repo, s, _, _ = story
    compute_dmm(repo.path, [s["parser"]], tmp_path / "d.parquet")
    assert repo.git("config", "--local", "--get", "blame.markUnblamableLines", check=False) == ""


def test_dmm_sample_is_the_smallest_shas_per_person_and_deterministic(story):
    _, s, commits, files = story
    sample = dmm_sample(commits, files, per_person=1, min_commits=1)
    ada = sorted([s["parser"], s["cache"], s["fix"], s["util"], s["complex"]])[0]  # smallest sha wins
    assert sorted(sample["sha"]) == sorted([ada, s["lexer"]])  # bob's revert is not his design
    # Bob has only 1 measurable commit: below the minimum, nobody measures him by default.
    # Ada has 5: the square root, rounded (2), raised to the minimum of 3.
    default = dmm_sample(commits, files)
    ada_shas = sorted([s["parser"], s["cache"], s["fix"], s["util"], s["complex"]])
    assert set(default["person_id"]) == {"ada"} and sorted(default["sha"]) == ada_shas[:3]
    # The same sample whatever the row order (no run history, no caps).
    assert dmm_sample(commits.reverse(), files.reverse()).equals(default)


def test_a_prolific_persons_dmm_rests_on_more_of_their_commits():
    """ripgrep's main author had a maintainability figure from 5 of his 1,512 commits: the
    sample grows with the square root of a person's eligible commits, from 3 to 40."""
    from exceeds_pipeline.quality.dmm import dmm_wanted

    eligible = pl.Series("n", [3, 5, 9, 20, 100, 1000, 1512, 5000])
    assert pl.select(dmm_wanted(pl.lit(eligible))).to_series().to_list() == [3, 3, 3, 4, 10, 32, 39, 40]


def test_maintainability_and_architecture_from_measured_commits(story, tmp_path):
    repo, s, commits, files = story
    items = work_items_of(commits)
    dmm = compute_dmm(repo.path, dmm_sample(commits, files, per_person=5)["sha"], tmp_path / "dmm.parquet")
    q = quality_metrics(commits, items, None, files, dmm=dmm)
    ada_rows = dmm.join(commits.select("sha", "person_id"), on="sha").filter(pl.col("person_id") == "ada")
    scores = [
        sum(v for v in (r["dmm_unit_size"], r["dmm_unit_complexity"]) if v is not None)
        / len([v for v in (r["dmm_unit_size"], r["dmm_unit_complexity"]) if v is not None])
        for r in ada_rows.iter_rows(named=True)
        if (r["dmm_unit_size"], r["dmm_unit_complexity"]) != (None, None)
    ]
    m = metric(q, "ada", "maintainability")
    assert m["evidence_count"] == len(scores) and m["value"] == pytest.approx(sum(scores) / len(scores))
    assert m["evidence_shas"][0] == s["complex"]  # the lowest score first

    inter = [r["dmm_unit_interfacing"] for r in ada_rows.iter_rows(named=True) if r["dmm_unit_interfacing"] is not None]
    # Ada's code-changing items: parser, cache, fix, util, complex; only util changes tests.
    a = metric(q, "ada", "architecture")
    assert a["evidence_count"] == len(inter) + 5
    # Tests part: the repository's 6 product changes (Ada's 5, Bob's lexer; his revert is
    # none) have 1 tested: base 1/6 >= 10%, so it counts, shrunk toward 1/6 with 5 prior items.
    tests_part = (1 + 5 * (1 / 6)) / (5 + 5)
    assert a["value"] == pytest.approx((sum(inter) / len(inter) + tests_part) / 2)


def test_ai_usage_and_no_evidence_is_null(story):
    _, s, commits, files = story
    q = quality_metrics(commits, work_items_of(commits), None, files)
    ai = metric(q, "ada", "ai_usage")
    assert ai["value"] == pytest.approx(1 / 5) and ai["evidence_count"] == 5 and ai["evidence_shas"] == [s["util"]]
    assert metric(q, "bob", "ai_usage")["value"] == 0.0
    # No DMM given: nothing to say about maintainability.
    mt = metric(q, "ada", "maintainability")
    assert mt["value"] is None and mt["evidence_count"] == 0 and mt["evidence_shas"] == []


def test_repository_facts_are_incremental_and_need_no_tip_file(story, tmp_path, monkeypatch):
    from exceeds_pipeline.quality.git_facts import cache_files, repository_facts

    repo, s, commits, files = story
    facts = repository_facts("acme/lib", repo.path, commits, files, tmp_path)
    assert set(facts) == {"dmm", "szz", "survival"}
    assert sorted(facts["dmm"]["sha"]) == sorted(dmm_sample(commits, files)["sha"])
    assert facts["szz"].select("fix_sha", "blamed_sha").rows() == [(s["fix"], s["lexer"])]
    assert facts["survival"].height > 0
    dmm_path, szz_path = cache_files(tmp_path, "acme/lib")
    assert dmm_path.exists() and szz_path.exists() and dmm_path.parent == tmp_path
    assert not list(tmp_path.glob("*.tip"))
    assert cache_files(tmp_path, "../x")[0].parent == tmp_path
    # A second run measures nothing (everything cached by sha) and gives the same facts.
    calls = []
    monkeypatch.setattr(dmm_mod, "_measure_commit", lambda c: calls.append(c.hash))
    monkeypatch.setattr(szz_mod, "blame_deleted_lines", lambda *a, **k: calls.append(a[1]))
    again = repository_facts("acme/lib", repo.path, commits, files, tmp_path)
    assert calls == []
    for name in facts:
        assert again[name].equals(facts[name]), name
    # A damaged cache is detected and rebuilt with the same values.
    monkeypatch.undo()
    dmm_path.write_bytes(b"not parquet")
    rebuilt = repository_facts("acme/lib", repo.path, commits, files, tmp_path)
    assert rebuilt["dmm"].sort("sha").equals(facts["dmm"].sort("sha"))


def test_bare_and_shallow_clones(story, tmp_path):
    from exceeds_pipeline_tests.gitscript import GitScript

    repo, s, _, _ = story
    bare = GitScript.clone(repo.path, tmp_path / "bare.git", bare=True)
    assert compute_szz(bare.path, [s["fix"]], tmp_path / "a.parquet").rows() == [(s["fix"], s["lexer"])]
    dmm = compute_dmm(bare.path, [s["parser"]], tmp_path / "b.parquet")
    assert dmm["status"].to_list() == ["ok"]
    # A shallow clone whose boundary is the fix's parent: the deleted line's real origin is not
    # in the clone, so nothing is blamed (never the boundary commit).
    shallow = GitScript.clone(f"file://{repo.path}", tmp_path / "shallow", extra_args=["--depth=5"])
    assert shallow.git("rev-parse", "--is-shallow-repository") == "true"
    assert shallow.git("rev-parse", "--verify", f"{s['fix']}^") == s["revert"]  # the boundary
    assert compute_szz(shallow.path, [s["fix"]], tmp_path / "c.parquet").height == 0
    import polars as pl
    assert pl.read_parquet(tmp_path / "c.parquet")["status"].to_list() == ["ok"]


def test_a_partly_reverted_change_is_not_broken_and_a_reverted_merge_is(tmp_path):
    """Correctness follows the work items' `later_reverted`: a revert of one 5-line commit of a
    400-line pull request leaves the change standing; a revert of a pull request's merge
    commit undoes all of it, though it names none of the pull request's commits."""
    from exceeds_pipeline.classify.categories import categorize_commits
    from exceeds_pipeline.classify.links import commit_links
    from exceeds_pipeline.classify.work_items import assign_work_items
    from exceeds_pipeline.enrich.exclusions import classify_exclusions
    from exceeds_pipeline.history.tables import month_expr
    from exceeds_pipeline_tests.classify.gitframes import read_repo as read_frames
    from exceeds_pipeline_tests.gitscript import GitScript

    ada, bob = ("Ada Lovelace", "ada@example.com"), ("Bob Builder", "bob@example.org")
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ada, date="2025-03-01T08:00:00+0000", files={"README.md": "# app\n"})

    def pr(number, branch, day, commits):
        repo.branch(branch, checkout=True)
        shas = [repo.commit(subject, author=ada, date=f"2025-03-{day:02d}T{9 + i:02d}:00:00+0000",
                            files={path: "".join(f"{path} {k}\n" for k in range(n))})
                for i, (subject, path, n) in enumerate(commits)]
        repo.checkout("main")
        merge = repo.merge(branch, f"Merge pull request #{number} from ada/{branch}\n\n{commits[0][0]}",
                           author=bob, date=f"2025-03-{day:02d}T20:00:00+0000")
        return shas, merge

    parser, _ = pr(1, "parser", 2, [("Add the config parser", "parse.py", 250), ("Test the config parser", "test_parse.py", 145),
                                    ("Log parse timings", "timing.py", 5)])
    repo.revert(parser[2], author=bob, date="2025-03-03T09:00:00+0000")
    cache, merge = pr(2, "cache", 4, [("Add a response cache", "cache.py", 80), ("Expire cached responses", "expire.py", 20)])
    repo.revert(merge, author=bob, date="2025-03-05T09:00:00+0000", mainline=1)
    commits, files = read_frames(repo)
    files = classify_exclusions(files)
    links = commit_links(commits)
    out, items = assign_work_items(categorize_commits(commits, files, links), links, files)
    out = out.with_columns(pl.lit(True).alias("is_counted"), month_expr().alias("month"), pl.lit(None, pl.String).alias("ai_tool"))
    ada_row = metric(quality_metrics(out, items, links, files), "ada", "correctness")
    assert ada_row["evidence_count"] == 3  # the initial commit, the parser, the cache
    assert set(ada_row["evidence_shas"][:2]) == set(cache)  # what lowers the value: the reverted cache
    assert ada_row["value"] == pytest.approx((2 + 5 * 4 / 5) / (3 + 5))  # Bob's two reverts are unbroken
