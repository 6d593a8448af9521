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
    """A run of one repository (UI, schedule or CLI: separate processes) waits while another
    process ingests it."""
    from dagster import DagsterInstance, execute_job

    from exceeds_pipeline.definitions import INGEST_JOB, reconstructable_job
    from exceeds_pipeline.defs.resources import settings_for

    repo = small_repo(tmp_path / "r")
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}])
    data = tmp_path / "data"
    holder = subprocess.Popen(
        [os.sys.executable, "-c",
         "import time; from exceeds_pipeline.locks import repository_lock\n"
         f"with repository_lock({str(data)!r}, 'r'):\n print('held', flush=True); time.sleep(10)"],
        stdout=subprocess.PIPE, text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    started = time.monotonic()
    with DagsterInstance.get() as instance:
        result = execute_job(reconstructable_job(INGEST_JOB, settings_for(config, data)), instance)
        assert result.success
        assert time.monotonic() - started >= 9  # it waited for the holder
        messages = [e.user_message for e in instance.all_logs(result.run_id)]
    holder.wait()
    assert any(f"another run is ingesting this repository (pid {holder.pid})" in m for m in messages)


def test_generated_dagster_yaml_is_valid_and_old_ones_are_upgraded_user_edits_kept(tmp_path):
    from dagster import DagsterInstance

    from exceeds_pipeline.runner import prepare_instance

    home = tmp_path / "dagster_home"
    prepare_instance()
    settings = yaml.safe_load((home / "dagster.yaml").read_text())
    assert settings["python_logs"]["python_log_level"] == "INFO"
    with DagsterInstance.get() as instance:  # Dagster accepts the file
        assert instance.run_coordinator is not None
    old = ("# Dagster instance of exceeds_pipeline (created by the `exceeds` CLI).\n"
           "telemetry:\n  enabled: false\nrun_queue:\n  max_concurrent_runs: 7\n"
           "  tag_concurrency_limits:\n    - key: \"exceeds/publish\"\n      limit: 1\n")
    (home / "dagster.yaml").write_text(old)
    prepare_instance()
    upgraded = yaml.safe_load((home / "dagster.yaml").read_text())
    assert upgraded["run_queue"] == {"max_concurrent_runs": 7}
    mine = "# my own instance settings\ntelemetry:\n  enabled: true\n"
    (home / "dagster.yaml").write_text(mine)
    prepare_instance()
    assert (home / "dagster.yaml").read_text() == mine
