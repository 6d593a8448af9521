"""Per-repository storage of the raw git tables, written atomically.

Each repository has a folder under `<data-dir>/raw/` with Parquet files of one *generation*
and a `state.json` naming that generation. A write puts the new generation's files beside the
old ones and then replaces `state.json` in one rename, so a run killed at any point leaves
either the old or the new state, never a mix; older generations are removed afterwards.
Separate folders let repositories be ingested by parallel processes without sharing a lock.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

import polars as pl

from exceeds_pipeline.ingest.repository import storage_slug
from exceeds_pipeline.schemas import RAW_COMMITS_SCHEMA, RAW_FILE_CHANGES_SCHEMA, empty_frame
from exceeds_pipeline.fsutil import fsync_path


@dataclass
class IngestState:
    repo: str
    branch: str
    tip: str | None
    generation: str
    commits: int
    is_shallow: bool = False
    mailmap_blob: str | None = None
    ingested_at: str = ""
    git_dir: str | None = None
    # Commits git could not read (missing or corrupt objects): not stored, retried every run.
    skipped: list[str] = field(default_factory=list)


class RawStore:
    def __init__(self, root: Path):
        self.root = Path(root)

    def folder(self, repo: str) -> Path:
        return self.root / storage_slug(repo)

    def state(self, repo: str) -> IngestState | None:
        folder = self.folder(repo)
        try:
            state = IngestState(**json.loads((folder / "state.json").read_text()))
        except FileNotFoundError:
            return None
        except (ValueError, TypeError):
            return None  # unreadable state: treated as never ingested, the next run rebuilds it
        for table in ("commits", "file_changes"):
            if not (folder / f"{table}-{state.generation}.parquet").is_file():
                return None  # its files are gone (deleted, partial restore): rebuilt, too
        return state

    def read(self, repo: str) -> tuple[pl.DataFrame, pl.DataFrame]:
        state = self.state(repo)
        if state is None:
            return empty_frame(RAW_COMMITS_SCHEMA), empty_frame(RAW_FILE_CHANGES_SCHEMA)
        folder = self.folder(repo)
        return (
            pl.read_parquet(folder / f"commits-{state.generation}.parquet"),
            pl.read_parquet(folder / f"file_changes-{state.generation}.parquet"),
        )

    def scan(self, repos: list[str], table: str) -> pl.LazyFrame:
        """All stored rows of `table` ('commits' or 'file_changes') for these repositories."""
        schema = RAW_COMMITS_SCHEMA if table == "commits" else RAW_FILE_CHANGES_SCHEMA
        files = []
        for repo in repos:
            state = self.state(repo)
            if state is not None:
                files.append(self.folder(repo) / f"{table}-{state.generation}.parquet")
        if not files:
            return empty_frame(schema).lazy()
        return pl.scan_parquet(files)

    def write(
        self, state: IngestState, commits: pl.DataFrame, file_changes: pl.DataFrame
    ) -> IngestState:
        folder = self.folder(state.repo)
        folder.mkdir(parents=True, exist_ok=True)
        previous = self.state(state.repo)
        state.generation = uuid.uuid4().hex[:12]
        state.commits = commits.height
        for name, frame in (("commits", commits), ("file_changes", file_changes)):
            tmp = folder / f".{name}-{state.generation}.parquet.tmp"
            frame.write_parquet(tmp, statistics=False)
            fsync_path(tmp)
            tmp.rename(folder / f"{name}-{state.generation}.parquet")
        tmp_state = folder / f".state-{state.generation}.json.tmp"
        tmp_state.write_text(json.dumps(asdict(state), indent=2))
        fsync_path(tmp_state)
        os.replace(tmp_state, folder / "state.json")
        # The previous generation stays until the next write: a reader (a publish run in another
        # process) that read the old state.json a moment ago can still open its files. Older
        # generations and leftovers of killed writes go.
        keep = {state.generation} | ({previous.generation} if previous else set())
        for old in folder.iterdir():
            if old.name != "state.json" and not (
                not old.name.startswith(".") and any(g and g in old.name for g in keep)
            ):
                old.unlink(missing_ok=True)
        return state



REPOSITORIES_SCHEMA: dict[str, pl.DataType] = {
    "repo": pl.String,
    "branch": pl.String,
    "tip": pl.String,
    "commits": pl.Int64,
    "is_shallow": pl.Boolean,
    "ingested_at": pl.String,
    "skipped_commits": pl.List(pl.String),
}


def repositories_table(store: RawStore, repos: list[tuple[str, str | None]]) -> pl.DataFrame:
    """Ingest state of each configured (name, branch): tip, when, shallow, and the commits
    skipped because git could not read them. Never ingested: no tip and 0 commits."""
    rows = []
    for name, branch in repos:
        state = store.state(name)
        rows.append(
            {
                "repo": name,
                "branch": state.branch if state else branch,
                "tip": state.tip if state else None,
                "commits": state.commits if state else 0,
                "is_shallow": state.is_shallow if state else False,
                "ingested_at": state.ingested_at if state else None,
                "skipped_commits": list(state.skipped) if state else [],
            }
        )
    return pl.DataFrame(rows, schema=REPOSITORIES_SCHEMA)
