"""Two runs at once on one data dir: the second waits (or refuses after a timeout), nothing breaks.

Real `exceeds materialize` processes and real flock(2) locks; no mocks.
"""

from __future__ import annotations

import os
import re
import subprocess
import time

import pytest
import yaml

from exceeds_pipeline.locks import (
    LockTimeout,
    file_lock,
    locks_dir,
    pipeline_lock,
    publish_lock,
    read_holder,
    repository_lock,
    repository_lock_path,
)
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

LOCK_ERRORS = re.compile(r"could not set lock|conflicting lock|database is locked|lock file|\.lock'", re.I)


def test_two_concurrent_materialize_runs_both_succeed(tmp_path):
    big = fast_import_repo(tmp_path / "big", commits=1500)
    small = small_repo(tmp_path / "small")
    config = write_config(tmp_path / "c.yaml", [{"path": str(big)}, {"path": str(small.path)}])
    data = tmp_path / "data"
    env = cli_env()
    argv = exceeds_argv("materialize", "--config", str(config), "--data-dir", str(data))
    first = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # Start the second once the first holds the pipeline lock.
    lock = locks_dir(data) / "pipeline.lock"
    deadline = time.monotonic() + 60
    while read_holder(lock).get("pid") != first.pid:
        assert time.monotonic() < deadline, "the first run never took the pipeline lock"
        time.sleep(0.05)
    second = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out1, _ = first.communicate(timeout=600)
    out2, _ = second.communicate(timeout=600)

    assert first.returncode == 0, out1
    assert second.returncode == 0, out2
    assert f"another exceeds run is in progress on {data} (pid {first.pid}); waiting…" in out2
    for out in (out1, out2):
        assert not LOCK_ERRORS.search(out), out
        assert "Traceback" not in out, out
    # The second found nothing new to ingest and published the same, correct database.
    assert "big: ok - unchanged" in out2
    counts = dict(query(data / "exceeds.duckdb", "SELECT repo, count(*) FROM commits GROUP BY 1"))
    assert counts == {"big": rev_count(big), "small": rev_count(small.path)}
    dup = query(data / "exceeds.duckdb", "SELECT count(*) - count(DISTINCT (repo, sha)) FROM commits")
    assert dup == [(0,)]


def test_second_run_with_lock_timeout_refuses_clearly_and_runs_nothing(tmp_path):
    repo = small_repo(tmp_path / "r")
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}])
    data = tmp_path / "data"
    with pipeline_lock(data):  # this test process is "the other run"
        started = time.monotonic()
        proc = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data),
                           "--lock-timeout", "1")
        waited = time.monotonic() - started
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert f"another exceeds run is in progress on {data} (pid {os.getpid()}); waiting…" in proc.stdout
    assert f"still in progress on {data} (pid {os.getpid()})" in proc.stderr
    assert "nothing was run" in proc.stderr
    assert waited >= 1
    assert not (data / "exceeds.duckdb").exists()
    assert not (data / "raw").exists()


def test_lock_is_released_when_its_holder_is_killed(tmp_path):
    lock = tmp_path / "data" / ".locks" / "pipeline.lock"
    holder = subprocess.Popen(
        [os.sys.executable, "-c",
         "import sys, time; from exceeds_pipeline.locks import pipeline_lock\n"
         f"with pipeline_lock({str(tmp_path / 'data')!r}):\n print('held', flush=True); time.sleep(600)"],
        stdout=subprocess.PIPE, text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(LockTimeout, match=f"pid {holder.pid}"):
        with pipeline_lock(tmp_path / "data", echo=lambda _: None, timeout=0.3):
            pass
    holder.kill()
    holder.wait()
    with pipeline_lock(tmp_path / "data", echo=lambda _: None, timeout=5):
        assert read_holder(lock)["pid"] == os.getpid()


def test_repository_and_publish_locks_are_separate_files(tmp_path):
    """A repository lock never blocks another repository's, nor publishing."""
    data = tmp_path / "data"
    with repository_lock(data, "acme/one"), repository_lock(data, "acme/two"), publish_lock(data):
        with pytest.raises(LockTimeout):
            with file_lock(repository_lock_path(data, "acme/one"), "x", timeout=0.2):
                pass
    assert repository_lock_path(data, "acme/one").parent == locks_dir(data)
    assert repository_lock_path(data, "../../etc").parent == locks_dir(data)


def test_ingest_of_a_repository_waits_for_its_lock(tmp_path):
    """A run of one partition (UI or schedule) waits while another run ingests it."""
    from exceeds_pipeline.runner import ingest_one, prepare_environment

    repo = small_repo(tmp_path / "r")
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}])
    data = tmp_path / "data"
    prepare_environment(config, data)
    from dagster import DagsterInstance

    from exceeds_pipeline.sync import sync_partitions

    with DagsterInstance.get() as instance:
        sync_partitions(instance, ["r"])
    holder = subprocess.Popen(
        [os.sys.executable, "-c",
         "import time; from exceeds_pipeline.locks import repository_lock\n"
         f"with repository_lock({str(data)!r}, 'r'):\n print('held', flush=True); time.sleep(3)"],
        stdout=subprocess.PIPE, text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    started = time.monotonic()
    outcome = ingest_one("r")
    assert outcome.ok, outcome.message
    assert time.monotonic() - started >= 2  # it waited for the holder
    holder.wait()
    with DagsterInstance.get() as instance:
        run = instance.get_runs(limit=1)[0]
        messages = [e.user_message for e in instance.all_logs(run.run_id)]
    assert any(f"another run is ingesting this repository (pid {holder.pid})" in m for m in messages)


def test_dagster_yaml_limits_publish_runs_and_partitions(tmp_path):
    from dagster import DagsterInstance

    from exceeds_pipeline.definitions import PUBLISH_RUN_TAGS, defs
    from exceeds_pipeline.runner import prepare_environment

    repo = small_repo(tmp_path / "r")
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}])
    prepare_environment(config, tmp_path / "data")
    home = os.environ["DAGSTER_HOME"]
    settings = yaml.safe_load(open(os.path.join(home, "dagster.yaml")))
    limits = settings["run_queue"]["tag_concurrency_limits"]
    (key, value), = PUBLISH_RUN_TAGS.items()
    assert {"key": key, "limit": 1} in limits
    assert {"key": "dagster/partition", "value": {"applyLimitPerUniqueValue": True}, "limit": 1} in limits
    assert defs.resolve_job_def("build_and_publish").tags[key] == value
    with DagsterInstance.get() as instance:  # Dagster accepts the file
        assert instance.run_coordinator is not None


def test_old_generated_dagster_yaml_is_upgraded_user_edits_are_kept(tmp_path):
    from exceeds_pipeline.runner import prepare_environment

    repo = small_repo(tmp_path / "r")
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}])
    home = tmp_path / "dagster_home"
    old = ("# Dagster instance of exceeds_pipeline (created by the `exceeds` CLI).\n"
           "telemetry:\n  enabled: false\nrun_queue:\n  max_concurrent_runs: 7\n")
    (home / "dagster.yaml").write_text(old)
    prepare_environment(config, tmp_path / "data")
    upgraded = yaml.safe_load((home / "dagster.yaml").read_text())
    assert upgraded["run_queue"]["max_concurrent_runs"] == 7
    assert upgraded["run_queue"]["tag_concurrency_limits"]
    mine = old + "# my own setting\n"
    (home / "dagster.yaml").write_text(mine)
    prepare_environment(config, tmp_path / "data")
    assert (home / "dagster.yaml").read_text() == mine
