"""Per-repository storage of the raw git tables, written atomically.

Each repository has a folder under `<data-dir>/raw/` with Parquet files of one *generation*
and a `state.json` naming that generation. A write puts the new generation's files beside the
old ones and then replaces `state.json` in one rename, so a run killed at any point leaves
either the old or the new state, never a mix; older generations are removed afterwards.
Separate folders let repositories be ingested by parallel processes without sharing a lock.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

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
    # {file name: [size, blake2b]} of this generation's files: a damaged file (truncated, a
    # flipped bit) is found before it is read, and the repository is ingested again.
    files: dict[str, list] = field(default_factory=dict)


def file_digest(path: Path) -> list:
    with open(path, "rb") as f:
        return [os.fstat(f.fileno()).st_size, hashlib.file_digest(f, "blake2b").hexdigest()]


class RawStore:
    def __init__(self, root: Path):
        self.root = Path(root)
        self._verified: dict[tuple, str | None] = {}  # (path, size, mtime) -> problem

    def folder(self, repo: str) -> Path:
        return self.root / storage_slug(repo)

    def state(self, repo: str) -> IngestState | None:
        """The stored state, or None when there is none or it cannot be trusted (unreadable
        state.json, a missing or damaged Parquet file): the next ingest rebuilds it."""
        return self.check(repo)[0]

    def check(self, repo: str) -> tuple[IngestState | None, str | None]:
        """(state or None, what is damaged or None)."""
        folder = self.folder(repo)
        try:
            state = IngestState(**json.loads((folder / "state.json").read_text()))
        except FileNotFoundError:
            return None, None
        except (ValueError, TypeError, OSError):
            return None, f"{folder / 'state.json'} is unreadable"
        for table in ("commits", "file_changes"):
            name = f"{table}-{state.generation}.parquet"
            problem = self._verify(folder / name, state.files.get(name))
            if problem:
                return None, problem
        return state, None

    def _verify(self, path: Path, expected: list | None) -> str | None:
        try:
            stat = path.stat()
        except OSError:
            return f"{path} is missing"
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key in self._verified:
            return self._verified[key]
        problem = None
        if expected is not None:  # states of older versions carry no digests: footer check
            if stat.st_size != expected[0] or file_digest(path) != list(expected):
                problem = f"{path} is damaged (its checksum differs from the one stored when it was written)"
        else:
            try:
                pq.read_metadata(path)
            except Exception as exc:  # noqa: BLE001 - any unreadable footer
                problem = f"{path} is damaged ({exc})"
        self._verified[key] = problem
        return problem

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
        state.files = {}
        written: list[Path] = []
        try:
            for name, frame in (("commits", commits), ("file_changes", file_changes)):
                final = folder / f"{name}-{state.generation}.parquet"
                tmp = folder / f".{final.name}.tmp"
                written += [tmp, final]
                frame.write_parquet(tmp, statistics=False)
                fsync_path(tmp)
                state.files[final.name] = file_digest(tmp)
                tmp.rename(final)
            tmp_state = folder / f".state-{state.generation}.json.tmp"
            written.append(tmp_state)
            tmp_state.write_text(json.dumps(asdict(state), indent=2))
            fsync_path(tmp_state)
            os.replace(tmp_state, folder / "state.json")
        except Exception as exc:
            # Disk full or the like: nothing of this write stays behind, the previous state is
            # untouched, and the message says what to do.
            for path in written:
                path.unlink(missing_ok=True)
            if not isinstance(exc, OSError) and "space" not in str(exc).lower():
                raise
            raise OSError(
                getattr(exc, "errno", None) or 28, f"[{state.repo}] cannot write the raw store in {folder}: "
                f"{getattr(exc, 'strerror', None) or exc}; free space (or fix permissions) and run again — the "
                f"previously stored history is kept"
            ) from exc
        # The previous generation stays until the next write: a reader (a publish run in another
        # process) that read the old state.json a moment ago can still open its files. Older
        # generations and leftovers of killed writes go.
        keep = {state.generation} | ({previous.generation} if previous else set())
        for old in folder.iterdir():
            if old.name != "state.json" and not old.name.endswith(SIDE_SUFFIX) and not (
                not old.name.startswith(".") and any(g and g in old.name for g in keep)
            ):
                old.unlink(missing_ok=True)
        return state



SIDE_SUFFIX = ".side.parquet"
# A side table that could not be computed is stored as one row of this column saying why: the
# pipeline then does without it, and the next `exceeds materialize` computes it again.
FAILED_COLUMN = "_failed"


def failed_side_table(why: str) -> pl.DataFrame:
    return pl.DataFrame({FAILED_COLUMN: [why[:500]]})


def side_table_failure(frame: pl.DataFrame) -> str | None:
    """Why this side table could not be computed, or None when it holds its rows."""
    return frame[FAILED_COLUMN][0] if FAILED_COLUMN in frame.columns else None


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


def read_side_table(store: RawStore, repo: str, name: str) -> pl.DataFrame | None:
    """A per-repository table derived from git beside the raw history (e.g. code evidence);
    None when it is missing or unreadable (it is then computed again)."""
    path = store.folder(repo) / f"{name}{SIDE_SUFFIX}"
    try:
        return pl.read_parquet(path)
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - damaged: recomputed from git
        return None


def write_side_table(store: RawStore, repo: str, name: str, frame: pl.DataFrame) -> None:
    folder = store.folder(repo)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{name}{SIDE_SUFFIX}.tmp"
    try:
        frame.write_parquet(tmp)
        fsync_path(tmp)
        os.replace(tmp, folder / f"{name}{SIDE_SUFFIX}")
    finally:
        tmp.unlink(missing_ok=True)
