"""A clone with objects missing from its object store (a blob's loose file deleted): the commits
git cannot read are skipped, named and retried; the rest of the repository is ingested."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from dagster import DagsterEventType, DagsterInstance

from exceeds_pipeline_tests.gitscript import GitScript, isolated_env
from exceeds_pipeline_tests.conftest import git_out, rev_count
from exceeds_pipeline_tests.hardening.helpers import (
    fast_import_repo,
    outcome_of,
    query,
    run_pipeline_quietly,
    small_repo,
    write_config,
)


def _delete_object(git_dir: Path, sha: str) -> bytes:
    path = git_dir / "objects" / sha[:2] / sha[2:]
    data = path.read_bytes()
    path.unlink()
    return data


def _damaged_repo(tmp_path: Path) -> tuple[GitScript, list[str], str, bytes]:
    """10 commits; the blob of a.txt v2 is deleted, so commits 4 (adds v2) and 5 (v2 -> v3)
    cannot be diffed. Returns (repo, all shas oldest first, blob sha, blob file bytes)."""
    repo = GitScript.init(tmp_path / "source")
    shas = []
    for i in range(10):
        files = {f"f{i}.txt": f"file {i}\n"}
        if i in (3, 4, 5):
            files["a.txt"] = f"version {i}\n"
        shas.append(repo.commit(f"Commit {i}", date=f"2025-02-{i + 1:02d}T10:00:00+0000", files=files))
    shutil.copytree(repo.path, tmp_path / "damaged")
    damaged = GitScript(tmp_path / "damaged")
    blob = git_out(damaged.path, "rev-parse", f"{shas[4]}:a.txt").strip()
    data = _delete_object(damaged.path / ".git", blob)
    return damaged, shas, blob, data


def test_unreadable_commits_are_skipped_named_and_the_rest_ingested(tmp_path):
    damaged, shas, blob, data = _damaged_repo(tmp_path)
    good = small_repo(tmp_path / "good")
    config = write_config(tmp_path / "c.yaml", [{"path": str(damaged.path)}, {"path": str(good.path)}])
    data_dir = tmp_path / "data"

    outcome, lines = run_pipeline_quietly(config, data_dir)

    assert outcome.ok, lines
    result = outcome_of(outcome, "damaged")
    assert "WARNING: 2 unreadable commit(s) skipped" in result.message
    assert "git fsck" in result.message
    db = data_dir / "exceeds.duckdb"
    stored = {sha for (sha,) in query(db, "SELECT sha FROM commits WHERE repo = 'damaged'")}
    assert stored == set(shas) - {shas[4], shas[5]}
    assert query(db, "SELECT count(*) FROM commits WHERE repo = 'good'") == [(rev_count(good.path),)]
    skipped = query(db, "SELECT skipped_commits FROM repositories WHERE repo = 'damaged'")
    assert sorted(skipped[0][0]) == sorted([shas[4], shas[5]])

    # The Dagster run says so: a warning naming the repository, the shas and git's reason, and
    # the materialization metadata; the commit-count check allows for the skipped commits.
    with DagsterInstance.get() as instance:
        ingest_runs = [r for r in instance.get_runs() if r.job_name == "ingest_repositories"]
        logs = instance.all_logs(ingest_runs[0].run_id)
        warnings = [e.user_message for e in logs if e.level >= 30 and "skipped" in e.user_message]
        assert warnings and "[damaged] 2 commit(s) skipped" in warnings[0]
        assert shas[4][:12] in warnings[0] and blob in warnings[0]
        mats = [e.dagster_event.step_materialization_data.materialization for e in logs
                if e.dagster_event and e.dagster_event.event_type == DagsterEventType.ASSET_MATERIALIZATION]
        meta = next(m.metadata for m in mats if m.asset_key.path == ["raw_git_history", "damaged"])
        assert meta["skipped_commits"].value == 2
        assert {row["sha"] for row in meta["skipped_shas"].value} == {shas[4], shas[5]}
        publish_run = next(r for r in instance.get_runs() if r.job_name == "build_and_publish")
        checks = [e.dagster_event.event_specific_data for e in instance.all_logs(publish_run.run_id)
                  if e.dagster_event and e.dagster_event.event_type == DagsterEventType.ASSET_CHECK_EVALUATION]
        count_check = next(c for c in checks if c.check_name == "commits_match_git_count")
        assert count_check.passed, count_check.metadata

    # The object comes back (re-fetched / restored): the next run reads the skipped commits.
    path = damaged.path / ".git" / "objects" / blob[:2] / blob[2:]
    path.write_bytes(data)
    outcome, lines = run_pipeline_quietly(config, data_dir)
    assert outcome.ok and "WARNING" not in outcome_of(outcome, "damaged").message, lines
    assert query(db, "SELECT count(*) FROM commits WHERE repo = 'damaged'") == [(10,)]
    assert query(db, "SELECT skipped_commits FROM repositories WHERE repo = 'damaged'") == [([],)]
    lines_added = query(db, "SELECT lines_added FROM commits WHERE sha = ?", [shas[5]])
    assert lines_added == [(2,)]  # f5.txt + a.txt, exactly as git log --numstat says


def test_a_still_damaged_repository_is_not_rewritten_on_every_run(tmp_path):
    from exceeds_pipeline.ingest.incremental import ingest_repository
    from exceeds_pipeline.ingest.raw_store import RawStore
    from exceeds_pipeline.ingest.repository import LocalRepository, open_local, resolve_branch

    damaged, shas, _, _ = _damaged_repo(tmp_path)
    git_dir = open_local("damaged", str(damaged.path), tmp_path)
    branch, tip = resolve_branch("damaged", git_dir, None)
    repo = LocalRepository("damaged", git_dir, tip, branch, False)
    store = RawStore(tmp_path / "raw")
    first = ingest_repository(repo, store)
    assert (first.total_commits, sorted(first.skipped)) == (8, sorted([shas[4], shas[5]]))
    generation = store.state("damaged").generation
    again = ingest_repository(repo, store)
    assert (again.mode, again.new_commits, sorted(again.skipped)) == ("unchanged", 0, sorted(first.skipped))
    assert store.state("damaged").generation == generation


def _unpack_all(git_dir: Path) -> None:
    """Turn a packed object store into loose objects (so single objects can be deleted)."""
    for pack in list((git_dir / "objects" / "pack").glob("*.pack")):
        moved = git_dir.parent / pack.name
        pack.rename(moved)
        pack.with_suffix(".idx").unlink()
        with open(moved, "rb") as f:
            subprocess.run(["git", "unpack-objects", "-q"], cwd=git_dir.parent, stdin=f,
                           env=isolated_env(), check=True)
        moved.unlink()


def test_a_badly_damaged_clone_fails_clearly_and_keeps_its_stored_data(tmp_path):
    src = fast_import_repo(tmp_path / "src", commits=250, files_per_commit=1, lines=3)
    data_dir = tmp_path / "data"
    config = write_config(tmp_path / "c.yaml", [{"path": str(src), "name": "broken"}])
    outcome, lines = run_pipeline_quietly(config, data_dir)
    assert outcome.ok, lines
    db = data_dir / "exceeds.duckdb"
    assert query(db, "SELECT count(*) FROM commits WHERE repo = 'broken'") == [(250,)]

    # The history is rewritten, and the new clone has lost every blob.
    rewritten = fast_import_repo(tmp_path / "rewritten", commits=250, files_per_commit=1, lines=4)
    _unpack_all(rewritten / ".git")
    blobs = git_out(rewritten, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
    for line in blobs.splitlines():
        sha, kind = line.split()
        if kind == "blob":
            _delete_object(rewritten / ".git", sha)
    write_config(config, [{"path": str(rewritten), "name": "broken"}])
    outcome, lines = run_pipeline_quietly(config, data_dir)

    result = outcome_of(outcome, "broken")
    assert not result.ok
    assert result.message.startswith("[broken] more than 200 commits cannot be read")
    assert "git fsck" in result.message and "re-clone" in result.message
    assert outcome.failed_repos == ["broken"] and outcome.published
    # what was stored before is still there, and still published
    assert query(db, "SELECT count(*) FROM commits WHERE repo = 'broken'") == [(250,)]
    old_tip = git_out(src, "rev-parse", "HEAD").strip()
    assert query(db, "SELECT tip FROM repositories WHERE repo = 'broken'") == [(old_tip,)]
