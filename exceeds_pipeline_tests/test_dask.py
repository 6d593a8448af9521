"""Scale-out by configuration only: with `execution.dask.scheduler`, every repository's ingest
runs as a task on that (real, separately started) Dask cluster, and the result equals a plain
run's."""

import socket
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from exceeds_pipeline.runner import run_pipeline
from exceeds_pipeline_tests.gitscript import GitScript

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def dask_cluster(tmp_path):
    """A `dask scheduler` and two `dask worker` processes from the project's environment."""
    dask = str(Path(sys.executable).with_name("dask"))
    address = f"tcp://127.0.0.1:{_free_port()}"
    logs = tmp_path / "dask-logs"
    logs.mkdir()
    procs = [subprocess.Popen(
        [dask, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
         "--no-dashboard"], stdout=open(logs / "scheduler.log", "w"), stderr=subprocess.STDOUT)]
    workers = []
    try:
        for n in range(2):
            worker = subprocess.Popen(
                [dask, "worker", address, "--no-nanny", "--nthreads", "1", "--no-dashboard",
                 "--name", f"w{n}", "--local-directory", str(tmp_path / f"w{n}")],
                stdout=open(logs / f"worker{n}.log", "w"), stderr=subprocess.STDOUT,
            )
            procs.append(worker)
            workers.append(worker)
        from distributed import Client

        deadline = time.monotonic() + 120
        while True:
            try:
                with Client(address, timeout=10) as client:
                    client.wait_for_workers(2, timeout=60)
                break
            except (OSError, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(1)
        yield address, {w.pid for w in workers}
    finally:
        # workers first, while their scheduler still answers: a worker told to stop after its
        # scheduler is gone waits out its reconnection attempts (40 s of teardown, 20 s each)
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def _repos(root: Path) -> list[str]:
    names = []
    for n, name in enumerate(["alpha", "beta", "gamma"]):
        repo = GitScript.init(root / name)
        for i in range(3):
            repo.commit(f"Add feature {i} to {name}", author=(f"Dev {n}", f"dev{n}@example.com"),
                        date=f"2025-0{i + 1}-0{n + 1}T10:00:00+0100",
                        files={f"src/{name}_{i}.py": "x = 1\n" * (i + 1)})
        names.append(name)
    return names


def test_ingest_runs_on_an_existing_dask_cluster_and_equals_a_plain_run(tmp_path, dask_cluster):
    address, worker_pids = dask_cluster
    names = _repos(tmp_path)
    plain = tmp_path / "plain.yaml"
    plain.write_text("repositories:\n" + "".join(f"  - path: {n}\n" for n in names))
    on_dask = tmp_path / "dask.yaml"
    on_dask.write_text(plain.read_text() + f"execution:\n  dask:\n    scheduler: {address}\n")

    lines: list[str] = []
    assert run_pipeline(on_dask, tmp_path / "data-dask", echo=lines.append).ok, lines
    assert any(f"on the Dask cluster at {address}" in line for line in lines)
    assert run_pipeline(plain, tmp_path / "data-plain", echo=lambda _: None).ok

    # every repository's ingest step ran in one of the two worker processes
    from dagster import DagsterInstance

    from exceeds_pipeline.defs.ingest.assets import raw_history_key

    with DagsterInstance.get() as instance:
        ran_on = set()
        for name in names:
            events = instance.fetch_materializations(raw_history_key(name), limit=10).records
            workers = [e.asset_materialization.metadata["worker"].value for e in events]
            ran_on |= {int(w.rsplit(":", 1)[1]) for w in workers}
            assert any(int(w.rsplit(":", 1)[1]) in worker_pids for w in workers), (name, workers)
        assert ran_on & worker_pids

    def tables(data: Path):
        with duckdb.connect(str(data / "exceeds.duckdb"), read_only=True) as con:
            return {
                table: con.execute(f"SELECT * EXCLUDE (profile) FROM {table} ORDER BY ALL"
                                   if table == "profiles" else f"SELECT * FROM {table} ORDER BY ALL").fetchall()
                for table in ("commits", "file_changes", "work_items", "monthly_rollups", "repo_rollups")
            }

    assert tables(tmp_path / "data-dask") == tables(tmp_path / "data-plain")
