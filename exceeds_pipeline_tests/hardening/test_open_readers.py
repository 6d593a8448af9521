"""A user holding `exceeds.duckdb` open read-only, querying in a loop, for the whole run: the
run succeeds, the user's queries keep working (on their snapshot), new connections see new data."""

from __future__ import annotations

import json
import subprocess
import sys
import time

from exceeds_pipeline_tests.hardening.helpers import query, run_exceeds, small_repo, write_config

READER = r"""
import json, sys, time, duckdb
db, out, mode = sys.argv[1], sys.argv[2], sys.argv[3]
results, errors = [], []
con = duckdb.connect(db, read_only=True) if mode == "hold" else None
print("ready", flush=True)
deadline = time.monotonic() + 600
while time.monotonic() < deadline:
    try:
        c = con if con is not None else duckdb.connect(db, read_only=True)
        n, total = c.execute("SELECT count(*), sum(lines_added) FROM commits").fetchone()
        people = c.execute("SELECT count(*) FROM people").fetchone()[0]
        results.append([n, int(total), people])
        if con is None:
            c.close()
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")
    if sys.stdin in __import__("select").select([sys.stdin], [], [], 0.02)[0]:
        break
json.dump({"results": results, "errors": errors}, open(out, "w"))
"""


def _start_reader(tmp_path, db, mode):
    out = tmp_path / f"reader-{mode}.json"
    proc = subprocess.Popen([sys.executable, "-c", READER, str(db), str(out), mode],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    return proc, out


def _stop_reader(proc, out) -> dict:
    proc.stdin.write("stop\n")
    proc.stdin.flush()
    proc.wait(timeout=60)
    return json.loads(out.read_text())


def test_readers_keep_working_during_runs_and_new_connections_see_new_data(tmp_path):
    repo = small_repo(tmp_path / "app", commits=3)
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}])
    data = tmp_path / "data"
    db = data / "exceeds.duckdb"
    first = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data))
    assert first.returncode == 0, first.stdout + first.stderr
    old = list(query(db, "SELECT count(*), sum(lines_added) FROM commits")[0])

    holder, holder_out = _start_reader(tmp_path, db, "hold")  # one connection, whole time
    poller, poller_out = _start_reader(tmp_path, db, "reconnect")  # a new connection per query
    try:
        for i in range(2):  # two runs, each replacing the database under the readers
            repo.commit(f"More work {i}", files={f"more{i}.py": "x\n" * (10 + i)})
            run = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data))
            assert run.returncode == 0, run.stdout + run.stderr
            assert "lock" not in (run.stdout + run.stderr).lower()
        time.sleep(0.5)
    finally:
        held = _stop_reader(holder, holder_out)
        polled = _stop_reader(poller, poller_out)

    new = list(query(db, "SELECT count(*), sum(lines_added) FROM commits")[0])
    assert new == [5, old[1] + 10 + 11]
    assert held["errors"] == [] and polled["errors"] == []
    # the held connection kept its consistent snapshot (the old database) throughout
    assert len(held["results"]) > 10
    assert {tuple(r[:2]) for r in held["results"]} == {tuple(old)}
    # new connections moved forward from old to new, never backwards, never a broken state
    seen = [tuple(r[:2]) for r in polled["results"]]
    assert seen[0] == tuple(old) and seen[-1] == tuple(new)
    assert set(seen) <= {tuple(old), (4, old[1] + 10), tuple(new)}
    assert [s[0] for s in seen] == sorted(s[0] for s in seen)
