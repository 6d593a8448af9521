"""Publish the user-facing DuckDB file atomically (SPEC §4).

The pipeline works in `warehouse.duckdb`; users read `exceeds.duckdb`. Publishing copies the
stable tables into a new file beside the target and renames it over the target in one step. A
reader holding the old file open keeps reading its (unchanged) snapshot and never blocks the run;
the next connection sees the new data. A run killed at any point leaves the old file intact.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import duckdb

from exceeds_pipeline.fsutil import fsync_path
from exceeds_pipeline.tables import COLUMN_DOCS, PUBLISHED_TABLES, VIEWS

def _quote(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Delete `.exceeds.duckdb.<pid>.tmp[.wal]` files of publishes that were killed half-way.

    Call only while holding the publish lock (no other publish can be writing one).
    """
    removed = []
    if target.parent.is_dir():
        for path in target.parent.glob(f".{target.name}.*.tmp*"):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _comment(con: duckdb.DuckDBPyConnection, tables: list[str]) -> None:
    """The registry's descriptions as DuckDB comments (`duckdb_tables()`, `duckdb_columns()`)."""
    for table in tables:
        if table in PUBLISHED_TABLES:
            con.execute(f"COMMENT ON TABLE main.{table} IS {_sql_text(PUBLISHED_TABLES[table])}")
        columns = [r[0] for r in con.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = ?", [table]).fetchall()]
        for column in columns:
            if column in COLUMN_DOCS:
                con.execute(f'COMMENT ON COLUMN main.{table}."{column}" IS {_sql_text(COLUMN_DOCS[column])}')


def publish_database(
    warehouse: Path, target: Path, extra_tables: dict | None = None
) -> dict[str, int]:
    """Copy the warehouse's published tables into `target` atomically; returns row counts.

    `extra_tables` maps table names to Polars/Arrow frames written as they are.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    counts: dict[str, int] = {}
    con = duckdb.connect(str(tmp))
    try:
        con.execute(f"ATTACH {_quote(warehouse)} AS wh (READ_ONLY)")
        existing = {
            row[0]
            for row in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = 'wh' AND schema_name = 'main'"
            ).fetchall()
        }
        for name, frame in (extra_tables or {}).items():
            con.register("frame_to_publish", frame)
            con.execute(f"CREATE TABLE main.{name} AS SELECT * FROM frame_to_publish")
            con.unregister("frame_to_publish")
        for table in PUBLISHED_TABLES:
            if table in existing and table not in (extra_tables or {}):
                con.execute(f"CREATE TABLE main.{table} AS SELECT * FROM wh.main.{table}")
        con.execute("DETACH wh")
        tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        for table in tables:
            counts[table] = con.execute(f"SELECT count(*) FROM main.{table}").fetchone()[0]
        for view, sql in VIEWS.items():
            if "commits" in tables:
                con.execute(f"CREATE VIEW {view} AS {sql}")
        _comment(con, tables)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    fsync_path(tmp)
    os.replace(tmp, target)
    fsync_path(target.parent)
    return counts



class WarehouseBusy(RuntimeError):
    """Another process holds the working database open for writing."""


# A lock DuckDB finds taken but whose holder it can no longer name was let go in between: a
# process killed a moment ago (the workers of an interrupted run) releases it as it exits. Tried
# again this many times, this far apart, before the file counts as busy.
RELEASING_LOCK_TRIES = 20
RELEASING_LOCK_PAUSE = 0.1


def ensure_warehouse(path: Path) -> str | None:
    """Make sure the working DuckDB file can be opened for writing, at once (no minutes of
    retries): a damaged one is removed (everything in it is derived from the raw store and is
    rebuilt by the run) and the reason returned; one that another process holds open raises
    WarehouseBusy naming that process and what to do. A lock being released as its holder exits
    (RELEASING_LOCK_TRIES) is waited for, briefly."""
    for attempt in range(RELEASING_LOCK_TRIES):
        try:
            return _open_warehouse(path)
        except duckdb.IOException as exc:
            text = str(exc)
            if "lock" not in text.lower():
                return _damaged_warehouse(path, text)
            if "Conflicting" not in text and attempt + 1 < RELEASING_LOCK_TRIES:
                time.sleep(RELEASING_LOCK_PAUSE)
                continue
            holder = text.split("Conflicting lock is held in", 1)[-1].strip().rstrip(".") if "Conflicting" in text else "another process"
            raise WarehouseBusy(
                f"the working database {path} is held open by {holder}; close that program "
                f"(or wait for it) and run again"
            ) from None
        except duckdb.Error as exc:
            return _damaged_warehouse(path, str(exc))


def _open_warehouse(path: Path) -> None:
    con = duckdb.connect(str(path))
    try:
        con.execute("SELECT count(*) FROM duckdb_tables()").fetchone()
    finally:
        con.close()


def _damaged_warehouse(path: Path, text: str) -> str:
    """Remove a warehouse DuckDB cannot open, and say why (`text`: DuckDB's error)."""
    reason = text.splitlines()[0]
    for damaged in (path, path.with_name(path.name + ".wal")):
        damaged.unlink(missing_ok=True)
    return f"{path} could not be opened ({reason}); it was removed and is rebuilt from the raw store"
