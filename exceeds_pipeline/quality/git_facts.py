"""The git-backed inputs of the quality metrics for one repository.

Three per-repository facts, each a plain function with the same signature
``<fact>_for_repository(repo_name, git_dir, commits_of_repo, file_changes_of_repo, cache_dir)
-> pl.DataFrame``, each incremental (cached per commit sha under ``cache_dir``, one file per
repository; a damaged cache is detected and rebuilt) and each a function of the history alone
(no per-run caps; where a sample is taken it is deterministic, by sha):

* :func:`exceeds_pipeline.quality.dmm.dmm_for_repository` -> ``[repo, sha, dmm_unit_size,
  dmm_unit_complexity, dmm_unit_interfacing, status]``;
* :func:`exceeds_pipeline.quality.szz.szz_for_repository` -> ``[repo, fix_sha, blamed_sha]``;
* :func:`exceeds_pipeline.quality.survival.survival_for_repository` -> ``[repo, sha, path,
  lines_added, lines_rewritten, final]``.

The orchestration layer runs them once per repository (in parallel processes, or on Dask),
concatenates each fact over repositories and passes the three frames to
:func:`exceeds_pipeline.quality.quality_metrics`. :func:`repository_facts` runs all three for
one repository in one call.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import polars as pl

from exceeds_pipeline.ingest.repository import storage_slug
from exceeds_pipeline.quality.dmm import dmm_for_repository
from exceeds_pipeline.quality.survival import survival_for_repository
from exceeds_pipeline.quality.szz import szz_for_repository

__all__ = ["cache_files", "fact_computations", "repository_facts"]


# The per-repository quality facts, each stored beside the raw history as `quality_<fact>`.
QUALITY_FACTS = ("dmm", "szz", "survival")


def cache_files(cache_dir: str | os.PathLike, repo: str) -> tuple[Path, Path]:
    """(dmm, szz) cache paths of repository ``repo`` under ``cache_dir`` (safe file names)."""
    base = Path(cache_dir) / storage_slug(repo)
    return base.with_name(base.name + ".dmm.parquet"), base.with_name(base.name + ".szz.parquet")


def fact_computations(
    repo: str,
    git_dir: str | os.PathLike,
    commits: pl.DataFrame,
    file_changes: pl.DataFrame,
    cache_dir: str | os.PathLike,
    tip: str | None = None,
) -> dict[str, Callable[[], pl.DataFrame]]:
    """``{"dmm": ..., "szz": ..., "survival": ...}``: each fact of repository ``repo`` as a call
    to make, so a caller can run and handle them one by one (``tip``: the ingested branch tip
    that line survival is measured at; None: the repository's HEAD)."""
    mine = commits.filter(pl.col("repo") == repo)
    files = file_changes.filter(pl.col("repo") == repo)
    return {
        "dmm": lambda: dmm_for_repository(repo, git_dir, mine, files, cache_dir),
        "szz": lambda: szz_for_repository(repo, git_dir, mine, files, cache_dir),
        "survival": lambda: survival_for_repository(repo, git_dir, mine, files, cache_dir, tip=tip),
    }


def repository_facts(
    repo: str,
    git_dir: str | os.PathLike,
    commits: pl.DataFrame,
    file_changes: pl.DataFrame,
    cache_dir: str | os.PathLike,
    tip: str | None = None,
) -> dict[str, pl.DataFrame]:
    """``{"dmm": ..., "szz": ..., "survival": ...}`` for repository ``repo``."""
    return {fact: compute() for fact, compute in
            fact_computations(repo, git_dir, commits, file_changes, cache_dir, tip).items()}
