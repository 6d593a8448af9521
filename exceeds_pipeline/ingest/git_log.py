"""Read commits and per-file line counts from git in one streaming pass.

One `git log -z --raw --numstat` process per chunk of commits (chunks run in parallel, one per
core) replaces the per-commit `git diff` subprocesses that make most git analytics slow. The
numbers are git's own: `lines_added`/`lines_deleted` are exactly what `git log --numstat` prints,
with git's default rename detection; merge commits carry no diff, as in plain `git log`.

The output is parsed as bytes: records start with RECORD_MARK, the header fields are separated
by \\x1f and end at the NUL that `-z` writes after the format; the file entries follow as
NUL-separated tokens (first the `--raw` entries, then the matching `--numstat` entries).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import polars as pl

from exceeds_pipeline.common.chunks import contiguous_chunks
from exceeds_pipeline.ingest.gitcmd import GitError, decode, stream_git
from exceeds_pipeline.schemas import RAW_COMMITS_SCHEMA, RAW_FILE_CHANGES_SCHEMA

RECORD_MARK = b"\x1e\x1eEXC\x1f"
_FIELDS = ("%H", "%P", "%an", "%ae", "%aN", "%aE", "%cn", "%ce", "%aI", "%cI", "%B")
LOG_FORMAT = "%x1e%x1eEXC%x1f" + "%x1f".join(_FIELDS)

# Options that make the numbers git's defaults whatever the user's config says.
LOG_OPTIONS = (
    "-z",
    "--raw",
    "--numstat",
    "--no-abbrev",
    "--find-renames",  # git's default rename detection (diff.renames=true, 50%)
    "--diff-algorithm=myers",  # git's default; diff.algorithm=histogram changes the counts
    "--root",  # the root commit is a creation event, even with log.showRoot=false
    "--diff-merges=off",  # merges carry no diff, as in plain `git log`
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--no-show-signature",
    "--encoding=UTF-8",
)

READ_BLOCK = 1 << 22
MIN_CHUNK = 4000  # below this many commits one git process is faster than several



def _parse_iso(value: str) -> tuple[datetime, date, int]:
    """Git's strict ISO date -> (UTC instant, author's local date, UTC offset in minutes)."""
    local = datetime.fromisoformat(value)
    offset = local.utcoffset() or timedelta(0)
    return local.astimezone(timezone.utc), local.date(), int(offset.total_seconds() // 60)


@dataclass
class _Columns:
    """Column lists filled while parsing; turned into frames once at the end."""

    repo: str
    commits: dict[str, list] = field(default_factory=lambda: {k: [] for k in RAW_COMMITS_SCHEMA})
    files: dict[str, list] = field(default_factory=lambda: {k: [] for k in RAW_FILE_CHANGES_SCHEMA})

    def add_record(self, record: bytes) -> None:
        header, _, body = record.partition(b"\x00")
        parts = header.split(b"\x1f", len(_FIELDS) - 1)
        if len(parts) != len(_FIELDS):
            raise ValueError(f"unexpected git log record: {header[:200]!r}")
        sha = parts[0].decode("ascii")
        parents = parts[1].decode("ascii").split() if parts[1] else []
        authored_at, author_date, offset = _parse_iso(parts[8].decode("ascii"))
        committed_at, _, _ = _parse_iso(parts[9].decode("ascii"))
        message = decode(parts[10]).rstrip("\n")
        added, deleted, nfiles = self._add_files(sha, body)
        c = self.commits
        c["repo"].append(self.repo)
        c["sha"].append(sha)
        c["parents"].append(parents)
        c["author_name"].append(decode(parts[2]))
        c["author_email"].append(decode(parts[3]))
        c["mailmap_name"].append(decode(parts[4]))
        c["mailmap_email"].append(decode(parts[5]))
        c["committer_name"].append(decode(parts[6]))
        c["committer_email"].append(decode(parts[7]))
        c["authored_at"].append(authored_at)
        c["author_date"].append(author_date)
        c["author_utc_offset_minutes"].append(offset)
        c["committed_at"].append(committed_at)
        c["subject"].append(message.split("\n", 1)[0].strip())
        c["message"].append(message)
        c["is_merge"].append(len(parents) > 1)
        c["lines_added"].append(added)
        c["lines_deleted"].append(deleted)
        c["files_changed"].append(nfiles)

    def _add_files(self, sha: str, body: bytes) -> tuple[int, int, int]:
        tokens = body.lstrip(b"\n").split(b"\x00")
        i, n = 0, len(tokens)
        raw: list[tuple[str, bool]] = []  # (status letter, is_submodule) per file, in order
        while i < n and tokens[i][:1] == b":":
            meta = tokens[i].split(b" ")
            status = meta[4][:1].decode("ascii")
            raw.append((status, meta[0] == b":160000" or meta[1] == b"160000"))
            i += 2 if status in ("R", "C") else 1
            i += 1
        added_total = deleted_total = 0
        f = self.files
        for status, is_submodule in raw:
            if i >= n:
                raise ValueError(f"commit {sha}: numstat entries missing")
            counts = tokens[i].split(b"\t", 2)
            if len(counts) != 3:
                raise ValueError(f"commit {sha}: bad numstat entry {tokens[i][:200]!r}")
            if counts[2]:
                old_path, path = None, decode(counts[2])
                i += 1
            else:  # rename/copy: "a\tb\t" NUL old NUL new
                old_path, path = decode(tokens[i + 1]), decode(tokens[i + 2])
                i += 3
            is_binary = counts[0] == b"-"
            added = 0 if is_binary else int(counts[0])
            deleted = 0 if is_binary else int(counts[1])
            added_total += added
            deleted_total += deleted
            f["repo"].append(self.repo)
            f["sha"].append(sha)
            f["path"].append(path)
            f["old_path"].append(old_path)
            f["status"].append(status)
            f["lines_added"].append(added)
            f["lines_deleted"].append(deleted)
            f["is_binary"].append(is_binary)
            f["is_submodule"].append(is_submodule)
        return added_total, deleted_total, len(raw)

    def frames(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        return (
            pl.DataFrame(self.commits, schema=RAW_COMMITS_SCHEMA),
            pl.DataFrame(self.files, schema=RAW_FILE_CHANGES_SCHEMA),
        )


def iter_records(stream: Iterable[bytes]) -> Iterator[bytes]:
    """Split a byte stream of git log output into one record per commit."""
    pending = b""
    for block in stream:
        pending += block
        parts = pending.split(RECORD_MARK)
        pending = parts.pop()
        for part in parts:
            if part:
                yield part
    if pending:
        yield pending


def _read_blocks(pipe) -> Iterator[bytes]:
    while block := pipe.read(READ_BLOCK):
        yield block


def log_commits(
    git_dir: Path, repo: str, shas: Sequence[str], mailmap_rev: str | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Commits and file changes for exactly `shas` (any order), read by one git process."""
    columns = _Columns(repo)
    if not shas:
        return columns.frames()
    args = ["log", "--no-walk=unsorted", "--stdin", f"--format={LOG_FORMAT}", *LOG_OPTIONS]
    config = {"mailmap.blob": f"{mailmap_rev}:.mailmap"} if mailmap_rev else {}
    proc = stream_git(git_dir, args, shas, config=config)
    parse_error: ValueError | None = None
    try:
        for record in iter_records(_read_blocks(proc.stdout)):
            columns.add_record(record)
    except ValueError as exc:  # usually output cut short by a failing git: reported below
        parse_error = exc
    finally:
        proc.stdout.close()
        stderr = proc.stderr.read().decode("utf-8", "replace").strip()
        proc.stderr.close()
        returncode = proc.wait()
    if returncode != 0 and (stderr or parse_error is None):
        raise GitError(repo, f"git log failed ({returncode}): {stderr}")
    if parse_error is not None:
        raise GitError(repo, f"unexpected git log output: {parse_error}") from parse_error
    # Exactly one record per commit asked for: a message or name holding the record separator
    # must not split a commit in two and forge a record (another sha, author and diff).
    got = columns.commits["sha"]
    if len(got) != len(set(got)) or set(got) != set(shas):
        extra = sorted(set(got) - set(shas)) or sorted({s for s in got if got.count(s) > 1})
        raise GitError(
            repo,
            f"unexpected git log output: {len(got)} records for {len(set(shas))} commits "
            f"(unexpected: {', '.join(s[:12] for s in extra[:5]) or 'none'}); a commit message or "
            f"author name contains the record separator",
        )
    return columns.frames()


def log_commits_parallel(
    git_dir: Path,
    repo: str,
    shas: Sequence[str],
    mailmap_rev: str | None = None,
    workers: int | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Split `shas` into contiguous chunks and read them with one git process per core.

    Contiguous runs of the history keep each git reading neighbouring trees and blobs
    (:func:`contiguous_chunks`). Threads suffice: the work happens in the git processes, and parsing one chunk's
    output is much faster than git produces it. Rows come back in the order of `shas`.
    """
    workers = workers or max(1, min(os.cpu_count() or 1, len(shas) // MIN_CHUNK))
    if workers <= 1:
        return log_commits(git_dir, repo, shas, mailmap_rev)
    chunks = contiguous_chunks(shas, workers)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(lambda c: log_commits(git_dir, repo, c, mailmap_rev), chunks))
    commits = pl.concat([r[0] for r in results])
    files = pl.concat([r[1] for r in results])
    return commits, files
