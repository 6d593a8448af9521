"""Revert / fix / reland links, on real repositories."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import polars as pl

from exceeds_pipeline.classify.links import LINKS_SCHEMA, commit_links
from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline_tests.classify.gitframes import read_repo

ADA = ("Ada Lovelace", "ada@example.com")
BOB = ("Bob Builder", "bob@example.org")


def _date(hour: int) -> str:
    return f"2025-02-01T{hour:02d}:00:00+0100"


def _links(repo: GitScript) -> pl.DataFrame:
    commits, _ = read_repo(repo)
    links = commit_links(commits)
    assert links.schema == pl.Schema(LINKS_SCHEMA)
    return links


def _as_set(links: pl.DataFrame) -> set[tuple[str, str, str]]:
    return {(r["sha"], r["link_type"], r["target_sha"]) for r in links.iter_rows(named=True)}


def test_git_revert_links_to_full_sha(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    original = repo.commit("Add uploader", author=ADA, date=_date(9), files={"up.py": "a\n"})
    revert = repo.revert(original, author=BOB, date=_date(10), reason="Breaks CI on Windows.")
    links = _links(repo)
    assert _as_set(links) == {(revert, "reverts", original)}
    assert links["evidence"][0] == f"This reverts commit {original}"
    assert links["repo"][0] == "acme/app"


def test_a_pull_request_backed_out_by_its_number_is_reverted(tmp_path):
    """black: "Back out #850 (#1079)" linked nothing, so #850 still counted as a fix that held."""
    repo = GitScript.init(tmp_path / "repo")
    change = repo.commit("Remove redundant parentheses (#850)", author=ADA, date=_date(9), files={"lines.py": "a\n"})
    backout = repo.commit("Back out #850 (#1079)", author=BOB, date=_date(10), files={"lines.py": "b\n"})
    rollback = repo.commit("Roll back #850", author=BOB, date=_date(11), files={"lines.py": "c\n"})
    assert {(backout, "reverts", change), (rollback, "reverts", change)} <= _as_set(_links(repo))


def test_abbreviated_shas_resolve_by_prefix(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    first = repo.commit("Add parser", author=ADA, date=_date(9), files={"p.py": "a\n"})
    second = repo.commit("Add lexer", author=ADA, date=_date(10), files={"l.py": "a\n"})
    revert = repo.commit(f'Revert "Add parser"\n\nThis reverts commit {first[:7]}.\n',
                         author=BOB, date=_date(11), files={"p.py": None})
    fix = repo.commit(
        f"lexer: fix handling of tabs\n\nFixes: {second[:12]} (\"Add lexer\")\nSigned-off-by: Ada <ada@example.com>\n",
        author=ADA, date=_date(12), files={"l.py": "b\n"},
    )
    prose = repo.commit(f"Follow-up that fixes {second[:9]} for empty input", author=ADA, date=_date(13),
                        files={"l.py": "c\n"})
    unknown = repo.commit("Fixes: 0badc0ffee12 (\"not in this repository\")\n\nThis reverts commit deadbeef.",
                          author=ADA, date=_date(14), files={"x.py": "x\n"})
    # jq: `Fix tests/shtest broken by 2b4d51f`, `Fix tests/jq.test for c72ed135`
    broken = repo.commit(f"Fix tests/shtest broken by {first[:7]}", author=ADA, date=_date(15), files={"t.sh": "1\n"})
    named = repo.commit(f"Fix tests/jq.test for {second[:8]}", author=ADA, date=_date(16), files={"t.sh": "2\n"})
    count = repo.commit("Fix the overflow for 10000000 rows", author=ADA, date=_date(17), files={"t.sh": "3\n"})
    links = _links(repo)
    got = _as_set(links)
    assert (revert, "reverts", first) in got
    assert (fix, "fixes", second) in got
    assert (prose, "fixes", second) in got
    assert (broken, "fixes", first) in got and (named, "fixes", second) in got
    assert not [r for r in got if r[0] == count]
    assert not [r for r in got if r[0] == unknown]  # unresolvable references are dropped
    assert all(len(target) == 40 for _, _, target in got)
    evidence = dict(zip(links["sha"], links["evidence"]))
    assert evidence[fix] == f'Fixes: {second[:12]} ("Add lexer")'


def test_revert_by_subject_picks_latest_earlier_commit(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Enable the cache", author=ADA, date=_date(8), files={"c.py": "1\n"})
    repo.commit("Disable the cache", author=ADA, date=_date(9), files={"c.py": "0\n"})
    second_enable = repo.commit("Enable the cache", author=ADA, date=_date(10), files={"c.py": "2\n"})
    # Squash-merge tools often drop git's sha line and keep only the subject.
    revert = repo.commit('Revert "Enable the cache" (#88)', author=BOB, date=_date(11), files={"c.py": "0\n"})
    repo.commit("Enable the cache", author=ADA, date=_date(12), files={"c.py": "3\n"})  # later: not it
    assert _as_set(_links(repo)) == {(revert, "reverts", second_enable)}


def test_reland_and_reapply_link_to_the_original(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    original = repo.commit("[inductor] Fuse pointwise ops (#120)", author=ADA, date=_date(8),
                           files={"fuse.py": "1\n"})
    revert = repo.revert(original, author=BOB, date=_date(9))
    reland = repo.commit('Reland "[inductor] Fuse pointwise ops (#120)"', author=ADA, date=_date(10),
                         files={"fuse.py": "1\n"})
    revert2 = repo.revert(reland, author=BOB, date=_date(11))
    # git >= 2.43 words a revert of a revert as `Reapply "<subject>"`.
    reapply = repo.commit(
        f'Reapply "Reland "[inductor] Fuse pointwise ops (#120)""\n\nThis reverts commit {revert2}.\n',
        author=ADA, date=_date(12), files={"fuse.py": "1\n"},
    )
    relanding = repo.commit("[inductor] Fuse pointwise ops, take 3\n\nRelanding #120 with the fix for ROCm.",
                            author=ADA, date=_date(13), files={"fuse.py": "2\n"})
    bracketed = repo.commit("[Reland] [inductor] Fuse pointwise ops (#131)", author=ADA, date=_date(14),
                            files={"fuse.py": "3\n"})
    got = _as_set(_links(repo))
    assert (bracketed, "relands", original) in got  # same subject once tags and PR numbers go
    assert (revert, "reverts", original) in got
    assert (reland, "relands", original) in got
    assert (revert2, "reverts", reland) in got
    assert (reapply, "reverts", revert2) in got
    assert (reapply, "relands", reland) in got  # through the revert it undoes
    assert (relanding, "relands", original) in got


def test_old_git_revert_of_a_revert_is_a_reland(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    original = repo.commit("Add feature flag", author=ADA, date=_date(8), files={"f.py": "1\n"})
    revert = repo.revert(original, author=BOB, date=_date(9))
    again = repo.revert(revert, author=ADA, date=_date(10))  # `Revert "Revert "Add feature flag""`
    got = _as_set(_links(repo))
    assert {(revert, "reverts", original), (again, "reverts", revert), (again, "relands", original)} <= got


def test_prefix_resolution_is_per_repo_and_rejects_ambiguity():
    t0 = datetime(2025, 1, 1, tzinfo=timezone.utc)
    frame = pl.DataFrame(
        {
            "repo": ["a", "a", "a", "b", "b"],
            "sha": ["abcdef1" + "0" * 33, "abcdef1" + "9" * 33, "1234567" + "a" * 33, "fedcba9" + "1" * 33,
                    "7777777" + "2" * 33],
            "subject": ["one", "two", "three", "four", "five"],
            "message": ["one", "two", "three\n\nThis reverts commit abcdef1.",  # ambiguous in repo a
                        "four", "five\n\nThis reverts commit 1234567."],  # 1234567 lives in repo a only
            "committed_at": [t0 + timedelta(hours=i) for i in range(5)],
        }
    )
    assert commit_links(frame).height == 0
    frame2 = frame.with_columns(pl.col("message").str.replace("abcdef1\\.", "abcdef19999."))
    links = commit_links(frame2)
    assert _as_set(links) == {("1234567" + "a" * 33, "reverts", "abcdef1" + "9" * 33)}


def test_no_links_and_empty_input():
    empty = pl.DataFrame(schema={"repo": pl.String, "sha": pl.String, "subject": pl.String,
                                 "message": pl.String, "committed_at": pl.Datetime("us", "UTC")})
    assert commit_links(empty).schema == pl.Schema(LINKS_SCHEMA)
    plain = pl.DataFrame({"repo": ["r"], "sha": ["a" * 40], "subject": ["Add x"], "message": ["Add x"],
                          "committed_at": [datetime(2025, 1, 1, tzinfo=timezone.utc)]})
    assert commit_links(plain).height == 0


def test_a_typed_revert_names_its_change_without_the_types(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    fix = repo.commit("fix: use updated appleid issuer", author=ADA, date=_date(8), files={"a.go": "1\n"})
    feat = repo.commit("feat(totp): support account name (#12)", author=ADA, date=_date(9), files={"t.go": "1\n"})
    repo.commit("docs: use updated appleid issuer guide", author=ADA, date=_date(10), files={"d.md": "x\n"})
    plain = repo.commit("revert: use updated appleid issuer", author=ADA, date=_date(11), files={"a.go": "0\n"})
    scoped = repo.commit("revert(totp): support account name", author=BOB, date=_date(12), files={"t.go": "0\n"})
    unknown = repo.commit("revert: something nobody wrote", author=BOB, date=_date(13), files={"a.go": "2\n"})
    links = _as_set(_links(repo))
    assert {(plain, "reverts", fix), (scoped, "reverts", feat)} <= links
    assert not any(sha == unknown for sha, _, _ in links)


def test_a_typed_revert_may_quote_its_change_and_name_pull_requests_without_brackets(tmp_path):
    repo = GitScript.init(tmp_path / "repo")
    docs = repo.commit("docs: add debugging instructions (#2085)", author=ADA, date=_date(8), files={"d.md": "x\n"})
    perf = repo.commit("perf: close pool early (#4623)", author=ADA, date=_date(9), files={"p.ts": "1\n"})
    quoted = repo.commit('revert: "docs: add debugging instructions" (#2869)', author=BOB, date=_date(10),
                         files={"d.md": ""})
    bare = repo.commit("revert: close pool early #4623", author=ADA, date=_date(11), files={"p.ts": "0\n"})
    assert _as_set(_links(repo)) == {(quoted, "reverts", docs), (bare, "reverts", perf)}


def test_a_commit_reverting_a_change_and_its_revert_links_the_same_in_any_row_order(tmp_path):
    # laravel's `[5.6] Revert #22517 (#22533)` names the change and the revert of it: which of
    # the two its chain followed (a reland of the change, or a revert of it) had depended on the
    # order the links were found in, and its category changed between runs.
    repo = GitScript.init(tmp_path / "repo")
    original = repo.commit("Add uploader (#22517)", author=ADA, date=_date(9), files={"up.py": "a\n"})
    revert = repo.revert(original, author=BOB, date=_date(10), reason="Breaks CI.")
    both = repo.commit(f"Revert #22517 (#22533)\n\nThis reverts commit {revert}.\n\nThis reverts commit {original}.\n",
                       author=ADA, date=_date(11), files={"up.py": "b\n"})
    commits, _ = read_repo(repo)
    answers = {frozenset(_as_set(commit_links(commits.sample(fraction=1.0, shuffle=True, seed=seed))))
               for seed in range(8)}
    assert answers == {frozenset({(revert, "reverts", original), (both, "reverts", revert), (both, "reverts", original)})}
