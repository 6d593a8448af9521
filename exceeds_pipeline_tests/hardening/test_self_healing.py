"""Every fault of the pipeline's own files heals by running again (the published database and
exports then equal a clean run's, row for row), and what is outside them gets a clear message
at once: real repositories, real files truncated and bit-flipped, a real tmpfs filled up, real
processes holding the database, real signals."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import duckdb
import pytest

from exceeds_pipeline_tests.hardening.helpers import (
    cli_env,
    exceeds_argv,
    fast_import_repo,
    run_exceeds,
    small_repo,
    write_config,
)


def published(data: Path) -> dict:
    """Every published table, rows sorted; the profiles' `generated_at` aside."""
    out = {}
    with duckdb.connect(str(data / "exceeds.duckdb"), read_only=True) as con:
        for (table,) in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall():
            if table == "repositories":
                rows = con.execute("SELECT repo, branch, tip, commits, is_shallow, skipped_commits "
                                   "FROM repositories ORDER BY ALL").fetchall()
            elif table == "profiles":
                rows = sorted(
                    (pid, json.dumps({k: v for k, v in json.loads(p).items() if k != "generated_at"}, sort_keys=True))
                    for pid, p in con.execute("SELECT person_id, profile FROM profiles").fetchall()
                )
            else:
                rows = con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
            out[table] = rows
    exports = data / "exports"
    out["exports"] = sorted(p.relative_to(exports).as_posix() for p in exports.rglob("*.json"))
    return out


@pytest.fixture(scope="module")
def clean_two_repos(tmp_path_factory):
    """Two repositories and what a clean run publishes for them (built once per module)."""
    root = tmp_path_factory.mktemp("two_repos")
    a = small_repo(root / "alpha", commits=4)
    b = small_repo(root / "beta", commits=3, author=("Bo Chen", "bo@example.com"))
    config = write_config(root / "c.yaml", [{"path": str(a.path), "name": "acme/alpha"},
                                            {"path": str(b.path), "name": "acme/beta"}])
    clean = root / "clean"
    env = cli_env(root / "dagster_home")
    assert run_exceeds("materialize", "--config", str(config), "--data-dir", str(clean), env=env).returncode == 0
    return config, clean, published(clean)


@pytest.fixture
def two_repos(clean_two_repos, tmp_path):
    """The config, a copy of the clean run's data dir (a test damages its own copy: one cold run
    per module, not one per case) and what the clean run published."""
    config, clean, tables = clean_two_repos
    data = tmp_path / "data"
    shutil.copytree(clean, data)
    return config, data, tables


def _materialize(config: Path, data: Path) -> subprocess.CompletedProcess:
    return run_exceeds("materialize", "--config", str(config), "--data-dir", str(data))


def _raw_files(data: Path, repo_slug_start: str) -> list[Path]:
    folder = next(p for p in (data / "raw").iterdir() if p.name.startswith(repo_slug_start))
    return sorted(folder.glob("commits-*.parquet"))


@pytest.mark.parametrize("damage", ["truncate", "bitflip", "state"])
def test_damaged_raw_store_is_rebuilt_by_the_next_run(two_repos, damage):
    config, data, clean = two_repos
    newest = max(_raw_files(data, "acme_alpha"), key=lambda p: p.stat().st_mtime)
    if damage == "truncate":
        newest.write_bytes(newest.read_bytes()[:100])
    elif damage == "bitflip":
        raw = bytearray(newest.read_bytes())
        raw[len(raw) // 2] ^= 0x10
        newest.write_bytes(bytes(raw))
    else:
        (newest.parent / "state.json").write_text("{not json")
    proc = _materialize(config, data)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "acme/alpha: ok - full" in proc.stdout  # read again, the other repository untouched
    assert "acme/beta: ok - unchanged" in proc.stdout
    assert published(data) == clean


@pytest.mark.parametrize("damage", ["truncate_database", "delete_exports", "truncate_warehouse",
                                    "delete_marker"])
def test_damaged_outputs_are_rebuilt_by_the_next_run(two_repos, damage):
    config, data, clean = two_repos
    if damage == "truncate_database":
        db = data / "exceeds.duckdb"
        db.write_bytes(db.read_bytes()[:4096])
    elif damage == "delete_exports":
        shutil.rmtree(data / "exports")
    elif damage == "truncate_warehouse":
        wh = data / "warehouse.duckdb"
        wh.write_bytes(wh.read_bytes()[:5000])
        # a change, so that the warehouse is needed again
        (data / ".published_fingerprint").unlink()
    else:
        (data / ".published_fingerprint").unlink()
    started = time.monotonic()
    proc = _materialize(config, data)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "deriving tables and publishing" in proc.stdout
    assert time.monotonic() - started < 120
    assert published(data) == clean
    # and a run after that has nothing to do
    again = _materialize(config, data)
    assert "nothing changed since the last publish" in again.stdout


def test_warehouse_held_by_another_process_is_named_at_once(two_repos):
    config, data, _ = two_repos
    (data / ".published_fingerprint").unlink()
    holder = subprocess.Popen(
        [os.sys.executable, "-c", "import duckdb, sys, time\n"
         f"con = duckdb.connect({str(data / 'warehouse.duckdb')!r})\nprint('open', flush=True)\ntime.sleep(120)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        started = time.monotonic()
        proc = _materialize(config, data)
        assert time.monotonic() - started < 60
        assert proc.returncode == 1
        assert "warehouse.duckdb is held open by" in proc.stdout and str(holder.pid) in proc.stdout
        assert "close that program" in proc.stdout
    finally:
        holder.kill()
        holder.wait()
    assert _materialize(config, data).returncode == 0


def test_disk_full_leaves_nothing_behind_and_the_next_run_heals(tmp_path, two_repos):
    config, _, clean = two_repos
    mount = tmp_path / "small"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        data = mount / "data"
        (data / "raw").mkdir(parents=True)
        # fill the disk almost completely, then ingest: the raw store cannot be written
        filler = mount / "filler"
        with open(filler, "wb") as f:
            try:
                f.write(b"x" * (64 * 1024))
            except OSError:
                pass
        proc = _materialize(config, data)
        assert proc.returncode != 0
        text = proc.stdout + proc.stderr
        assert "No space left on device" in text or "free space" in text
        assert not [p for p in (data / "raw").rglob("*") if p.name.startswith(".") and p.is_file()]
        filler.unlink()
        subprocess.run(["mount", "-o", "remount,size=64m", str(mount)], check=True)
        proc = _materialize(config, data)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert published(data) == clean
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def _descendants(pid: int) -> set[int]:
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout
    children: dict[int, list[int]] = {}
    for line in out.splitlines():
        p, pp = map(int, line.split())
        children.setdefault(pp, []).append(p)
    found, stack = set(), [pid]
    while stack:
        for c in children.get(stack.pop(), []):
            found.add(c)
            stack.append(c)
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat[stat.rindex(")") + 2] not in "ZX":
            alive.add(pid)
    return alive


@pytest.fixture
def big_repo(tmp_path):
    """Two repositories (so the ingest steps run in processes of the multiprocess executor),
    one big enough that its ingest is still running when the test interrupts it."""
    path = fast_import_repo(tmp_path / "big", commits=6000, files_per_commit=4, lines=30)
    small = small_repo(tmp_path / "small")
    return write_config(tmp_path / "big.yaml", [{"path": str(path), "name": "acme/big"},
                                                {"path": str(small.path), "name": "acme/small"}])


def _start(config: Path, data: Path) -> subprocess.Popen:
    return subprocess.Popen(exceeds_argv("materialize", "--config", str(config), "--data-dir", str(data)),
                            env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _wait_for_ingest_step(proc: subprocess.Popen, timeout: float = 120) -> set[int]:
    """Until git is running under the command's step process; returns the whole process tree."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tree = _descendants(proc.pid)
        names = {Path(f"/proc/{p}/comm").read_text().strip() for p in _alive(tree)
                 if Path(f"/proc/{p}/comm").exists()}
        if "git" in names:
            return tree
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    raise AssertionError("the ingest never started")


def test_sigkill_of_the_cli_leaves_no_worker_behind(tmp_path, big_repo):
    proc = _start(big_repo, tmp_path / "data")
    tree = _wait_for_ingest_step(proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 15
    while _alive(tree) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _alive(tree) == set()
    assert not (tmp_path / "data" / "exceeds.duckdb").exists()


def test_ctrl_c_stops_the_whole_run_and_publishes_nothing(tmp_path, big_repo):
    proc = _start(big_repo, tmp_path / "data")
    tree = _wait_for_ingest_step(proc)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal sends to the whole foreground group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert "nothing from it was published" in err
    assert "deriving tables" not in out
    assert not (tmp_path / "data" / "exceeds.duckdb").exists()
    time.sleep(1)
    assert _alive(tree) == set()
    # the next run finishes the job
    assert _materialize(big_repo, tmp_path / "data").returncode == 0


@pytest.mark.parametrize("schedule, key", [({"cron": "99 99 * * *"}, "schedule.cron: '99 99 * * *' is not a 5-field cron"),
                                           ({"timezone": "Mars/Olympus"}, "schedule.timezone")])
def test_malformed_schedule_is_a_config_error(tmp_path, schedule, key):
    repo = small_repo(tmp_path / "r")
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}], schedule={"enabled": False, **schedule})
    proc = _materialize(config, tmp_path / "data")
    assert proc.returncode == 2
    assert key in proc.stderr
    assert not (tmp_path / "data" / "raw").exists()


def test_duplicate_yaml_key_and_unusable_data_dir_are_config_errors(tmp_path):
    repo = small_repo(tmp_path / "r")
    config = tmp_path / "dup.yaml"
    config.write_text(f"repositories:\n  - path: {repo.path}\nrepositories:\n  - path: {repo.path}\n")
    proc = _materialize(config, tmp_path / "data")
    assert proc.returncode == 2 and "'repositories' appears twice" in proc.stderr
    good = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}])
    a_file = tmp_path / "file"
    a_file.write_text("x")
    proc = _materialize(good, a_file)
    assert proc.returncode == 2 and "is a file" in proc.stderr
    read_only = tmp_path / "ro"
    read_only.mkdir()
    read_only.chmod(0o500)
    try:
        if os.access(read_only, os.W_OK):
            pytest.skip("running as a user that can write anywhere")
        proc = _materialize(good, read_only / "data")
        assert proc.returncode == 2
    finally:
        read_only.chmod(0o700)


def test_renamed_local_branch_is_named_not_silently_replaced(tmp_path):
    origin = small_repo(tmp_path / "origin")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(origin.path), str(clone)], check=True, capture_output=True)
    subprocess.run(["git", "-C", str(clone), "branch", "-m", "main", "trunk"], check=True)
    config = write_config(tmp_path / "c.yaml", [{"path": str(clone), "branch": "main"}])
    proc = _materialize(config, tmp_path / "data")
    assert proc.returncode == 1
    assert "only the remote-tracking origin/main exists" in proc.stdout
    assert "branch: origin/main" in proc.stdout


def test_two_demos_on_one_data_dir_take_turns(tmp_path):
    data = tmp_path / "data"
    first = subprocess.Popen(exceeds_argv("demo", "--data-dir", str(data)), env=cli_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    second = subprocess.Popen(exceeds_argv("demo", "--data-dir", str(data)), env=cli_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out1, err1 = first.communicate(timeout=600)
    out2, err2 = second.communicate(timeout=600)
    assert first.returncode == 0 and second.returncode == 0, (err1, err2)
    assert "another exceeds run is in progress" in out1 + out2
    with duckdb.connect(str(data / "exceeds.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM commits").fetchone()[0] == 83


def test_quality_values_depend_on_the_history_alone(tmp_path):
    """An incremental run equals a fresh run over the same history, and a garbage quality cache
    is rebuilt: the published tables (quality metrics included) are the same row for row."""
    from exceeds_pipeline_tests.gitscript import GitScript

    repo = GitScript.init(tmp_path / "app")
    for i in range(6):
        repo.commit(f"Add handler {i}", author=("Ann Lee", "ann@example.com"),
                    date=f"2025-02-{i + 1:02d}T10:00:00+0100",
                    files={f"src/h{i}.py": "".join(f"def f{j}(x):\n    return x + {j}\n" for j in range(i + 3))})
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path), "name": "acme/app"}])
    incremental = tmp_path / "incremental"
    assert _materialize(config, incremental).returncode == 0
    for i in range(4):
        repo.commit(f"Fix crash in handler {i} on empty input", author=("Bo Chen", "bo@example.com"),
                    date=f"2025-03-{i + 1:02d}T10:00:00+0100",
                    files={f"src/h{i}.py": "".join(f"def f{j}(x):\n    return (x or 0) + {j}\n" for j in range(i + 3))})
    assert _materialize(config, incremental).returncode == 0
    fresh = tmp_path / "fresh"
    assert _materialize(config, fresh).returncode == 0
    assert published(incremental) == published(fresh)
    with duckdb.connect(str(fresh / "exceeds.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(value) FROM quality_metrics").fetchone()[0] > 0
    # garbage in every quality cache file: the next run rebuilds them, same values
    for path in (incremental / "cache").rglob("*"):
        if path.is_file():
            path.write_bytes(b"garbage")
    (incremental / ".published_fingerprint").unlink()
    assert _materialize(config, incremental).returncode == 0
    assert published(incremental) == published(fresh)
