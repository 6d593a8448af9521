"""Advisory file locks under `<data-dir>/.locks/`, so runs that share a data dir take turns.

- `pipeline.lock`: held by `exceeds materialize` / `exceeds demo` for the whole run; a second
  run on the same data dir waits for it (or gives up after an optional timeout).
- `repo-<slug>.lock`: held while one repository is fetched and ingested, so a run from the UI
  and a scheduled run of the same partition never fetch into or write the same store at once.
- `publish.lock`: held while the derived tables are rebuilt and the database is published.

The locks are `flock(2)` locks: the kernel releases them when the holding process ends, even
when it is killed, so a crash never leaves a stale lock behind. The lock files themselves stay
(deleting a lock file another process is waiting on would let two processes "hold" it); each
holds the pid, host and start time of its current holder, for the waiting message.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

LOCKS_DIR = ".locks"
POLL_SECONDS = 0.2


class LockTimeout(RuntimeError):
    """The lock stayed taken for longer than the caller was willing to wait."""


def locks_dir(data_dir: Path | str) -> Path:
    return Path(data_dir) / LOCKS_DIR


def read_holder(path: Path | str) -> dict:
    """{pid, host, since, what} of the current (or last) holder of a lock file; {} if unknown."""
    try:
        return json.loads(Path(path).read_text() or "{}")
    except (OSError, ValueError):
        return {}


def _describe(holder: dict) -> str:
    pid = holder.get("pid", "?")
    host = holder.get("host")
    return f"pid {pid}" + (f" on {host}" if host and host != socket.gethostname() else "")


@contextmanager
def file_lock(
    path: Path | str,
    what: str,
    *,
    on_wait: Callable[[str], None] | None = None,
    timeout: float | None = None,
) -> Iterator[None]:
    """Hold an exclusive lock on `path` for the duration of the block.

    If another process holds it, `on_wait` is called once with the holder's description
    ("pid N") and the call waits; after `timeout` seconds (None: wait as long as it takes) it
    raises LockTimeout instead.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _describe(read_holder(path))
            if on_wait is not None:
                on_wait(holder)
            deadline = None if timeout is None else time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if deadline is not None and time.monotonic() >= deadline:
                        holder = _describe(read_holder(path))
                        raise LockTimeout(
                            f"{what} is still locked by {holder} after {timeout:g}s ({path})"
                        ) from None
                    time.sleep(POLL_SECONDS)
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "what": what,
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


@contextmanager
def pipeline_lock(
    data_dir: Path | str, echo: Callable[[str], None] = print, timeout: float | None = None
) -> Iterator[None]:
    """The whole-run lock of `exceeds materialize` on one data dir."""
    data_dir = Path(data_dir)

    def waiting(holder: str) -> None:
        limit = f" (up to {timeout:g}s)" if timeout is not None else ""
        echo(f"another exceeds run is in progress on {data_dir} ({holder}); waiting…{limit}")

    try:
        with file_lock(locks_dir(data_dir) / "pipeline.lock", f"data dir {data_dir}",
                       on_wait=waiting, timeout=timeout):
            yield
    except LockTimeout:
        holder = _describe(read_holder(locks_dir(data_dir) / "pipeline.lock"))
        raise LockTimeout(
            f"another exceeds run is still in progress on {data_dir} ({holder}) after "
            f"{timeout:g}s; nothing was run. Try again when it has finished"
        ) from None


def repository_lock_path(data_dir: Path | str, repo: str) -> Path:
    from exceeds_pipeline.ingest.repository import storage_slug

    return locks_dir(data_dir) / f"repo-{storage_slug(repo)}.lock"


@contextmanager
def repository_lock(
    data_dir: Path | str, repo: str, log: Callable[[str], None] | None = None,
    timeout: float | None = None,
) -> Iterator[None]:
    """Held while one repository is fetched and ingested."""

    def waiting(holder: str) -> None:
        if log is not None:
            log(f"[{repo}] another run is ingesting this repository ({holder}); waiting for it")

    with file_lock(repository_lock_path(data_dir, repo), f"repository {repo}",
                   on_wait=waiting, timeout=timeout):
        yield


@contextmanager
def publish_lock(
    data_dir: Path | str, log: Callable[[str], None] | None = None, timeout: float | None = None
) -> Iterator[None]:
    """Held while the derived tables are rebuilt and the database is published."""

    def waiting(holder: str) -> None:
        if log is not None:
            log(f"another run is publishing the database in {data_dir} ({holder}); waiting for it")

    with file_lock(locks_dir(data_dir) / "publish.lock", f"publishing in {data_dir}",
                   on_wait=waiting, timeout=timeout):
        yield
