"""A run killed half-way (SIGKILL of the whole `exceeds materialize` process tree) during ingest
and during publish: the published database stays a valid old or new file, and the next run
finishes the job."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from dagster import DagsterInstance, DagsterRunStatus, RunsFilter

from exceeds_pipeline.locks import locks_dir, read_holder, repository_lock_path
from exceeds_pipeline_tests.conftest import rev_count
from exceeds_pipeline_tests.hardening.helpers import (
    cli_env,
    exceeds_argv,
    fast_import_repo,
    query,
    run_exceeds,
    small_repo,
    write_config,
)

BIG_COMMITS = 6000


def _group_cmdlines(pgid: int) -> list[str]:
    """Command lines of the live processes in a process group."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] != "Z" and int(fields[2]) == pgid:
                found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace"))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _start(config: Path, data: Path) -> subprocess.Popen:
    return subprocess.Popen(
        exceeds_argv("materialize", "--config", str(config), "--data-dir", str(data)),
        env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )


def _kill_when(proc: subprocess.Popen, condition, what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if proc.poll() is not None:
            pytest.fail(f"the run ended before {what}: {proc.stdout.read().decode(errors='replace')}")
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while _group_cmdlines(proc.pid) and time.monotonic() < deadline:  # git children die too
        time.sleep(0.05)
    assert not _group_cmdlines(proc.pid)


def _published_repos(db: Path) -> dict[str, int]:
    return dict(query(db, "SELECT repo, count(*) FROM commits GROUP BY 1"))


@pytest.fixture
def setup(tmp_path):
    """A published database of one small repository; then a big repository joins the config."""
    small = small_repo(tmp_path / "small")
    big = fast_import_repo(tmp_path / "big", commits=BIG_COMMITS)
    data = tmp_path / "data"
    config = write_config(tmp_path / "c.yaml", [{"path": str(small.path)}])
    first = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data))
    assert first.returncode == 0, first.stdout + first.stderr
    old = {"small": rev_count(small.path)}
    assert _published_repos(data / "exceeds.duckdb") == old
    write_config(config, [{"path": str(small.path)}, {"path": str(big)}])
    new = {**old, "big": rev_count(big)}
    return config, data, old, new


def _assert_next_run_finishes(config: Path, data: Path, new: dict, killed_pid: int) -> None:
    again = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data))
    assert again.returncode == 0, again.stdout + again.stderr
    assert "interrupted exceeds process as failed" in again.stdout
    db = data / "exceeds.duckdb"
    assert _published_repos(db) == new
    assert query(db, "SELECT count(*) - count(DISTINCT (repo, sha)) FROM commits") == [(0,)]
    assert query(db, "SELECT count(*) - count(DISTINCT (repo, sha, path)) FROM file_changes") == [(0,)]
    assert not list(data.glob(".exceeds.duckdb.*"))  # no temporary left behind
    with DagsterInstance.get() as instance:
        stuck = instance.get_runs(RunsFilter(statuses=[DagsterRunStatus.STARTED, DagsterRunStatus.STARTING]))
        assert not stuck, [r.job_name for r in stuck]


def test_sigkill_during_ingest_keeps_the_old_database_and_the_next_run_completes(setup):
    config, data, old, new = setup
    proc = _start(config, data)
    # (git log reading the big repository, or its ingest holding the repository's lock: a scan
    # of /proc on a loaded machine can miss a git process of half a second, which once let the
    # run finish first)
    lock = repository_lock_path(data, "big")
    _kill_when(
        proc,
        lambda: bool(read_holder(lock)) or any("--no-walk=unsorted" in c for c in _group_cmdlines(proc.pid)),
        "the big repository's ingest has started",
    )
    db = data / "exceeds.duckdb"
    assert _published_repos(db) == old  # the old database, intact and queryable
    assert query(db, "SELECT count(*) FROM people") == [(1,)]
    _assert_next_run_finishes(config, data, new, proc.pid)


def test_sigkill_while_the_warehouse_is_rebuilt_then_the_next_run_completes(setup):
    config, data, old, new = setup
    proc = _start(config, data)
    lock = locks_dir(data) / "publish.lock"
    before = read_holder(lock).get("since")
    started = {}

    def publishing() -> bool:
        holder = read_holder(lock)
        if holder.get("pid") == proc.pid and holder.get("since") != before:
            started.setdefault("at", time.monotonic())
            return time.monotonic() - started["at"] > 0.3
        return False

    _kill_when(proc, publishing, "the publish job has started")
    assert _published_repos(data / "exceeds.duckdb") in (old, new)
    _assert_next_run_finishes(config, data, new, proc.pid)


def test_sigkill_while_the_database_file_is_written_then_the_next_run_completes(setup):
    config, data, old, new = setup
    proc = _start(config, data)
    _kill_when(proc, lambda: any(data.glob(".exceeds.duckdb.*.tmp")), "the new database file is written")
    db = data / "exceeds.duckdb"
    assert _published_repos(db) in (old, new)  # old or new, never broken
    _assert_next_run_finishes(config, data, new, proc.pid)


def test_sigkill_during_clone_and_stale_git_locks_do_not_block_the_next_run(tmp_path):
    """A clone killed half-way leaves a temporary folder; a fetch killed half-way leaves git's
    lock files (simulated: git refuses to fetch while they exist). The next run cleans up."""
    from exceeds_pipeline_tests.gitscript import GitScript

    source = fast_import_repo(tmp_path / "source", commits=BIG_COMMITS)
    remote = GitScript.clone(source, tmp_path / "remote.git", bare=True)
    config = write_config(tmp_path / "c.yaml", [{"url": remote.path.as_uri(), "name": "remote"}])
    data = tmp_path / "data"
    proc = _start(config, data)
    _kill_when(proc, lambda: any(" clone " in c for c in _group_cmdlines(proc.pid)), "git clone runs")
    repos = data / "repos"
    assert not list(repos.glob("*.git"))  # no half clone where a finished one would be

    again = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data))
    assert again.returncode == 0, again.stdout + again.stderr
    assert [p.name for p in repos.iterdir()] == [next(repos.glob("*.git")).name]  # temp folder gone
    clone = next(repos.glob("*.git"))

    # a fetch killed half-way: its lock files stay
    for lock in ("refs/heads/main.lock", "packed-refs.lock", "config.lock", "shallow.lock"):
        (clone / lock).write_text("")
    work = GitScript.clone(remote.path, tmp_path / "work")
    work.commit("One more", files={"more.txt": "more\n"})
    work.push(remote.path, "main")
    third = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data))
    assert third.returncode == 0, third.stdout + third.stderr
    assert "remote: ok - fast-forward: 1 new commits" in third.stdout
    assert not list(clone.rglob("*.lock"))
    assert _published_repos(data / "exceeds.duckdb") == {"remote": BIG_COMMITS + 1}
