"""Publishing `exceeds.duckdb` atomically: readers keep their snapshot, new ones see new data."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import polars as pl
import pytest

from exceeds_pipeline.publish.database import publish_database


def make_warehouse(path: Path, version: int, commits: int) -> None:
    """A warehouse whose tables say which version they are."""
    path.unlink(missing_ok=True)
    con = duckdb.connect(str(path))
    try:
        con.execute(
            f"CREATE TABLE commits AS SELECT {version} AS version, i AS n, i % 2 = 0 AS is_counted "
            f"FROM range({commits}) t(i)"
        )
        con.execute(f"CREATE TABLE people AS SELECT 'p{version}' AS person_id")
        con.execute("CREATE TABLE scratch AS SELECT 1 AS internal")  # not a published table
    finally:
        con.close()


def query(path: Path, sql: str):
    """Run `sql` on `path` from a new process (a new reader, as a user would open one)."""
    code = f"import duckdb; print(duckdb.connect({str(path)!r}, read_only=True).execute({sql!r}).fetchall())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return eval(out.stdout)  # noqa: S307 (our own repr of ints and strings)


@pytest.fixture
def dirs(tmp_path):
    data = tmp_path / "it's data"  # a quote in the path, too
    data.mkdir()
    return data / "warehouse.duckdb", data / "exceeds.duckdb"


def test_publishes_the_stable_tables_and_views(dirs):
    warehouse, target = dirs
    make_warehouse(warehouse, 1, 10)
    repos = pl.DataFrame({"repo": ["acme/app"], "commits": [10]})
    counts = publish_database(warehouse, target, extra_tables={"repositories": repos})
    assert counts == {"commits": 10, "people": 1, "repositories": 1}
    con = duckdb.connect(str(target), read_only=True)
    try:
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        assert tables == {"commits", "people", "repositories"}  # no internal tables
        assert con.execute("SELECT count(*) FROM counted_commits").fetchone()[0] == 5
        assert con.execute("SELECT repo FROM repositories").fetchall() == [("acme/app",)]
    finally:
        con.close()
    assert sorted(p.name for p in target.parent.iterdir()) == ["exceeds.duckdb", "warehouse.duckdb"]


def test_open_reader_keeps_its_snapshot_and_new_connections_see_new_data(dirs):
    warehouse, target = dirs
    make_warehouse(warehouse, 1, 10)
    publish_database(warehouse, target)
    # a user's session in another process, holding the published file open during the run
    reader = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import duckdb, sys
            con = duckdb.connect({str(target)!r}, read_only=True)
            q = "SELECT max(version), count(*) FROM commits"
            print(con.execute(q).fetchone(), flush=True)
            sys.stdin.readline()
            print(con.execute(q).fetchone(), flush=True)
            print(con.execute("SELECT person_id FROM people").fetchone(), flush=True)
        """)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert reader.stdout.readline().strip() == "(1, 10)"
        make_warehouse(warehouse, 2, 25)
        assert publish_database(warehouse, target)["commits"] == 25  # not blocked by the reader
        # a new connection sees the new data ...
        assert query(target, "SELECT max(version), count(*) FROM commits") == [(2, 25)]
        # ... while the open one still reads its consistent old snapshot
        reader.stdin.write("\n")
        reader.stdin.flush()
        assert reader.stdout.readline().strip() == "(1, 10)"
        assert reader.stdout.readline().strip() == "('p1',)"
        assert reader.wait(timeout=30) == 0, reader.stderr.read()
    finally:
        if reader.poll() is None:
            reader.kill()
    # and in this process, once nothing holds the old file, a new connection sees version 2
    con = duckdb.connect(str(target), read_only=True)
    try:
        assert con.execute("SELECT max(version) FROM commits").fetchone()[0] == 2
    finally:
        con.close()


def test_leftovers_of_a_killed_publish_do_not_break_the_next_one(dirs):
    warehouse, target = dirs
    make_warehouse(warehouse, 1, 3)
    publish_database(warehouse, target)
    # a publish killed half-way, with the very same temporary name (pids are reused, e.g. in
    # containers): a database file and its write-ahead log, with a conflicting `commits` table
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import duckdb, os
        con = duckdb.connect({str(tmp)!r})
        con.execute("CREATE TABLE commits AS SELECT 42 AS version")
        con.execute("CREATE TABLE junk AS SELECT 1 AS x")
        os._exit(9)
    """)], check=False)
    assert tmp.exists()
    # and garbage left by another process
    other = target.with_name(f".{target.name}.999999.tmp")
    other.write_bytes(b"not a database")
    make_warehouse(warehouse, 2, 7)
    counts = publish_database(warehouse, target)
    assert counts == {"commits": 7, "people": 1}
    assert query(target, "SELECT max(version), count(*) FROM commits") == [(2, 7)]
    assert query(target, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'junk'") == [(0,)]
    assert not tmp.exists() and not Path(f"{tmp}.wal").exists()


def test_a_failed_publish_leaves_the_published_file_intact(dirs):
    warehouse, target = dirs
    make_warehouse(warehouse, 1, 4)
    publish_database(warehouse, target)
    warehouse.write_bytes(b"this is not a duckdb file")
    with pytest.raises(duckdb.Error):
        publish_database(warehouse, target)
    assert query(target, "SELECT max(version), count(*) FROM commits") == [(1, 4)]


def test_a_lock_let_go_while_its_holder_exits_is_waited_for(tmp_path, monkeypatch):
    """A run started right after another was killed found the working database's lock taken by
    a worker on its way out, unnamed by DuckDB because it was let go in between, and failed
    with 'held open by another process'. Such a lock is tried again; one a live process holds
    is named at once (test_self_healing), and a lock that never frees still fails."""

    from exceeds_pipeline.publish import database

    path = tmp_path / "warehouse.duckdb"
    duckdb.connect(str(path)).close()
    real = duckdb.connect
    failures = {"left": 3}

    def connect(target, *args, **kwargs):
        if failures["left"]:
            failures["left"] -= 1
            raise duckdb.IOException(f'IO Error: Could not set lock on file "{target}": Resource temporarily unavailable')
        return real(target, *args, **kwargs)

    monkeypatch.setattr(database.duckdb, "connect", connect)
    monkeypatch.setattr(database, "RELEASING_LOCK_PAUSE", 0.01)
    assert database.ensure_warehouse(path) is None and failures["left"] == 0
    failures["left"] = database.RELEASING_LOCK_TRIES
    with pytest.raises(database.WarehouseBusy, match="held open by another process"):
        database.ensure_warehouse(path)
    assert path.exists()
