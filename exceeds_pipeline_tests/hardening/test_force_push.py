"""History rewritten by force-push between runs: re-ingested, never double counted, and the rows
of commits no longer reachable removed from every published table."""

from __future__ import annotations

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline_tests.conftest import git_numstat, git_out
from exceeds_pipeline_tests.hardening.helpers import outcome_of, query, run_pipeline_quietly, write_config

ADA = ("Ada Lovelace", "ada@example.com")
BOB = ("Bob Byte", "bob@example.com")


def _published(db) -> dict:
    return {
        "commits": query(db, "SELECT sha, lines_added, lines_deleted FROM commits WHERE repo = 'app' ORDER BY sha"),
        "file_changes": query(db, "SELECT DISTINCT sha FROM file_changes WHERE repo = 'app' ORDER BY sha"),
        "counted": query(db, "SELECT person_id, count(*) FROM counted_commits GROUP BY 1 ORDER BY 1"),
        "monthly": query(db, "SELECT person_id, sum(commits) FROM monthly_rollups GROUP BY 1 ORDER BY 1"),
        "dups": query(db, "SELECT count(*) - count(DISTINCT sha) FROM commits"),
    }


def _assert_equals_git(db, remote) -> None:
    reachable = sorted(git_out(remote.path, "rev-list", "main").split())
    numstat = git_numstat(remote.path, "main")
    state = _published(db)
    assert [sha for sha, _, _ in state["commits"]] == reachable
    assert {sha: (a, d) for sha, a, d in state["commits"]} == {s: v[:2] for s, v in numstat.items()}
    assert state["dups"] == [(0,)]
    assert state["monthly"] == state["counted"]  # rollups agree with the commits, once each
    stale = query(db, "SELECT count(*) FROM file_changes WHERE repo = 'app' AND sha NOT IN "
                      "(SELECT sha FROM commits WHERE repo = 'app')")
    assert stale == [(0,)]
    items = query(db, "SELECT count(*) FROM work_items WHERE repo = 'app' AND last_at > "
                      "(SELECT max(authored_at) FROM commits WHERE repo = 'app')")
    assert items == [(0,)]


def test_force_push_is_reingested_without_double_counting(tmp_path):
    remote = GitScript.init(tmp_path / "remote.git", bare=True)
    dev = GitScript.init(tmp_path / "dev")
    for i in range(5):
        dev.commit(f"Add feature {i}", author=ADA if i % 2 else BOB,
                   date=f"2025-03-{i + 1:02d}T10:00:00+0000", files={f"f{i}.py": "x\n" * (i + 1)})
    dev.push(remote.path)
    config = write_config(tmp_path / "c.yaml", [{"url": remote.path.as_uri(), "name": "app"}])
    data = tmp_path / "data"
    db = data / "exceeds.duckdb"
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    _assert_equals_git(db, remote)
    before = {sha for sha, _, _ in _published(db)["commits"]}

    # Rewrite the last two commits (amended content, new shas) and add one; force-push.
    dev.reset_hard("HEAD~2")
    dev.commit("Add feature 3, reworked", author=ADA, date="2025-03-04T11:00:00+0000",
               files={"f3.py": "y\n" * 7})
    dev.commit("Add feature 5", author=BOB, date="2025-04-01T10:00:00+0000", files={"f5.py": "z\n"})
    dev.push(remote.path, force=True)
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    assert outcome_of(outcome, "app").message.startswith("rewritten: 2 new commits, 2 removed, 5 stored")
    _assert_equals_git(db, remote)
    after = {sha for sha, _, _ in _published(db)["commits"]}
    assert len(before - after) == 2 and len(after - before) == 2

    # An unrelated history replaces the branch (orphan force-push): everything old goes.
    dev.git("checkout", "-q", "--orphan", "fresh")
    dev.git("rm", "-rq", "--cached", ".")
    dev.commit("Start over", author=ADA, date="2025-05-01T10:00:00+0000", files={"new.py": "n\n"})
    dev.push(remote.path, "fresh")
    dev.git("push", "-q", "--force", str(remote.path), "fresh:main")
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    _assert_equals_git(db, remote)
    assert query(db, "SELECT subject FROM commits WHERE repo = 'app'") == [("Start over",)]
    assert _published(db)["counted"] == [("ada-lovelace", 1)]

    # And a plain fast-forward after that is incremental again.
    dev.commit("Grow", author=BOB, date="2025-05-02T10:00:00+0000", files={"new.py": "n\nm\n"})
    dev.git("push", "-q", str(remote.path), "fresh:main")
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    assert outcome_of(outcome, "app").message.startswith("fast-forward: 1 new commits, 0 removed, 2 stored")
    _assert_equals_git(db, remote)
