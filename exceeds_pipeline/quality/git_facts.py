"""The git-backed inputs of the quality metrics for one repository, in one call.

:func:`repository_quality_facts` samples the commits worth measuring, measures DMM and traces
SZZ for them (each bounded per run and cached under ``cache_dir``), and returns the two frames
:func:`exceeds_pipeline.quality.quality_metrics` takes. Plain Python; the orchestration layer
calls it once per repository (in parallel if it likes: each repository has its own cache files)
and concatenates the results.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import polars as pl

from exceeds_pipeline.quality.dmm import DMM_MAX_NEW_PER_RUN, DMM_PER_PERSON_MONTH, compute_dmm, dmm_sample
from exceeds_pipeline.quality.szz import SZZ_MAX_NEW_PER_RUN, compute_szz, szz_candidates

__all__ = ["cache_files", "measured_tip_file", "repository_quality_facts"]


def cache_files(cache_dir: str | os.PathLike, repo: str) -> tuple[Path, Path]:
    """(dmm, szz) cache paths of repository ``repo`` under ``cache_dir`` (safe file names)."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", repo).strip("._")[:80] or "repo"
    tag = hashlib.sha256(repo.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    base = Path(cache_dir) / f"{slug}-{tag}"
    return base.with_name(base.name + ".dmm.parquet"), base.with_name(base.name + ".szz.parquet")


def measured_tip_file(cache_dir: str | os.PathLike, repo: str) -> Path:
    """Where the tip whose new commits were last measured is recorded."""
    dmm, _ = cache_files(cache_dir, repo)
    return dmm.with_name(dmm.name.replace(".dmm.parquet", ".tip"))


def repository_quality_facts(
    repo: str,
    repo_path: str | os.PathLike,
    commits: pl.DataFrame,
    file_changes: pl.DataFrame,
    cache_dir: str | os.PathLike,
    *,
    dmm_per_person_month: int = DMM_PER_PERSON_MONTH,
    dmm_max_new: int | None = DMM_MAX_NEW_PER_RUN,
    szz_max_new: int | None = SZZ_MAX_NEW_PER_RUN,
    measure_new: bool = True,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``(dmm, szz)`` for repository ``repo`` (its rows of ``commits``/``file_changes`` are used).

    With ``measure_new=False`` only cached facts are returned (nothing is measured): callers
    pass it when the repository has no new commits, so a no-change run costs no git work.
    """
    if not measure_new:
        dmm_max_new = szz_max_new = 0
    mine = commits.filter(pl.col("repo") == repo)
    files = file_changes.filter(pl.col("repo") == repo)
    dmm_cache, szz_cache = cache_files(cache_dir, repo)
    sample = dmm_sample(mine, files, per_person_month=dmm_per_person_month)
    dmm = compute_dmm(repo_path, sample["sha"], dmm_cache, max_new=dmm_max_new)
    szz = compute_szz(repo_path, szz_candidates(mine)["sha"], szz_cache, max_new=szz_max_new)
    return dmm, szz
