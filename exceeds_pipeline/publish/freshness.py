"""The one rule for "does the published database need rebuilding?", used by the CLI and by the
`publish_after_ingest` sensor alike.

A published database (with its exports) is a function of the config, the ingested state of each
repository (its tip, stored generation and tags) and the code. Its fingerprint is written beside it after a successful publish; a
rebuild is needed when the fingerprint differs, or when anything published is missing or
unreadable (a deleted export, a truncated database file).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import duckdb
import polars as pl

from exceeds_pipeline.config import ExceedsConfig
from exceeds_pipeline.ingest.incremental import TAGS_TABLE
from exceeds_pipeline.ingest.raw_store import FAILED_COLUMN, SIDE_SUFFIX, RawStore, read_side_table

MARKER = ".published_fingerprint"
_PACKAGE = Path(__file__).resolve().parent.parent


@functools.cache
def code_digest() -> str:
    """Digest of the package's files as this process loaded them (once per process)."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def publish_fingerprint(config: ExceedsConfig, store: RawStore) -> str:
    digest = hashlib.sha256(config.model_dump_json().encode())
    for repo in config.repositories:
        state = store.state(repo.display_name)
        tags = read_side_table(store, repo.display_name, TAGS_TABLE)
        tagged = "\0".join(f"{t}={s}" for t, s in tags.select("tag", "sha").iter_rows()) if tags is not None else ""
        digest.update(
            f"{repo.display_name}\0{state.tip if state else ''}\0{state.generation if state else ''}\0{tagged}\n".encode()
        )
    digest.update(code_digest().encode())
    return digest.hexdigest()


def published_problem(data_dir: Path) -> str | None:
    """What is missing or broken in what was published, or None when it is all there."""
    database = data_dir / "exceeds.duckdb"
    if not database.is_file():
        return f"{database} does not exist"
    try:
        con = duckdb.connect(str(database), read_only=True)
        try:
            con.execute("SELECT count(*) FROM profiles").fetchone()
        finally:
            con.close()
    except duckdb.Error as exc:
        return f"{database} cannot be read ({str(exc).splitlines()[0]})"
    for needed in (data_dir / "exports" / "index.json", data_dir / "exports" / "site" / "index.html"):
        if not needed.is_file():
            return f"{needed} does not exist"
    return None


def failed_facts(config: ExceedsConfig, store: RawStore) -> list[str]:
    """`repo (fact)` for every quality fact whose last computation failed (its side table
    records why): a run of `exceeds materialize` computes them again."""
    failed = []
    for repo in config.repositories:
        for path in sorted(store.folder(repo.display_name).glob(f"quality_*{SIDE_SUFFIX}")):
            try:
                if FAILED_COLUMN in pl.read_parquet_schema(path):
                    failed.append(f"{repo.display_name} ({path.name.removeprefix('quality_').removesuffix(SIDE_SUFFIX)})")
            except Exception:  # noqa: BLE001 - unreadable: the quality step computes it again anyway
                continue
    return failed


def publish_reason(data_dir: Path, fingerprint: str, failed: list[str] | None = None) -> str | None:
    """Why the database must be rebuilt and published, or None if it is up to date. `failed`:
    quality facts that failed last time (the CLI retries them; the UI's sensor does not, so a
    fact that always fails does not publish at every tick)."""
    marker = data_dir / MARKER
    if not marker.is_file():
        return "never published"
    problem = published_problem(data_dir)
    if problem:
        return problem
    if failed:
        return f"quality facts failed last time, computing them again: {', '.join(failed)}"
    if marker.read_text().strip() != fingerprint:
        return "the config, an ingested repository or the code changed since the last publish"
    return None


def record_published(data_dir: Path, fingerprint: str) -> None:
    (data_dir / MARKER).write_text(fingerprint)


def forget_published(data_dir: Path) -> None:
    (data_dir / MARKER).unlink(missing_ok=True)
