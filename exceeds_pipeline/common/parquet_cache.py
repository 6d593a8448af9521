"""Small Parquet caches for per-commit results that are costly to compute (DMM, SZZ, categories).

A cache maps a commit sha to what was computed for it. A sha names a commit and its whole
ancestry, so a cached value never goes stale: the file can be shared by runs (and by
repositories) and only commits not in it cost anything. Writes are atomic (temporary file in the
same folder, then rename), so a killed run leaves the previous cache intact; a cache file that
cannot be read is treated as empty (everything in it is recomputed), never as an error.

Two processes writing the same cache file at once do not corrupt it, but the last writer wins
and the other's new entries are computed again next time: give each repository its own file.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

import polars as pl

log = logging.getLogger(__name__)


def read_cache(path: str | os.PathLike, schema: dict[str, pl.DataType],
               added: tuple[str, ...] = ()) -> pl.DataFrame:
    """The cached rows (empty frame with ``schema`` when the file is missing or unreadable).
    ``added``: columns a file written by an earlier version may lack (read as null)."""
    p = Path(path)
    if not p.exists():
        return pl.DataFrame(schema=schema)
    try:
        frame = pl.read_parquet(p)
        frame = frame.with_columns(pl.lit(None).alias(c) for c in added if c not in frame.columns)
        return frame.select(list(schema)).cast(schema)
    except Exception as exc:  # a damaged or foreign file: recompute rather than fail
        log.warning("cache %s is unreadable (%s); recomputing its entries", p, exc)
        return pl.DataFrame(schema=schema)


def write_cache(path: str | os.PathLike, frame: pl.DataFrame) -> None:
    """Replace the cache file atomically with ``frame``."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    os.close(fd)
    try:
        frame.write_parquet(tmp)
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
