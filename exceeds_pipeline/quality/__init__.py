"""Quality metrics per person (SPEC §5): correctness, maintainability, architecture,
performance and AI usage, each a documented formula with its evidence.

- :mod:`.metrics`: :func:`quality_metrics`, a pure function of frames;
- :mod:`.dmm`: Delta Maintainability Model per commit (PyDriller/lizard), sampled by sha and cached;
- :mod:`.szz`: SZZ traces of bug fixes (git blame of the deleted lines), sampled by sha and cached;
- :mod:`.survival`: line-by-line 21-day survival, one streaming pass, cached ownership state;
- :mod:`.git_facts`: the three per-repository facts and how they are wired;
- :mod:`.cache`: the atomic Parquet caches both use.
"""

from exceeds_pipeline.quality.dmm import DMM_CACHE_SCHEMA, compute_dmm, dmm_for_repository, dmm_sample
from exceeds_pipeline.quality.git_facts import fact_computations, repository_facts
from exceeds_pipeline.quality.metrics import METHODS, METRICS, QUALITY_SCHEMA, quality_metrics
from exceeds_pipeline.quality.survival import SURVIVAL_SCHEMA, survival_for_repository
from exceeds_pipeline.quality.szz import SZZ_SCHEMA, compute_szz, szz_candidates, szz_for_repository

__all__ = [
    "DMM_CACHE_SCHEMA",
    "METHODS",
    "METRICS",
    "QUALITY_SCHEMA",
    "SURVIVAL_SCHEMA",
    "SZZ_SCHEMA",
    "compute_dmm",
    "compute_szz",
    "dmm_for_repository",
    "dmm_sample",
    "quality_metrics",
    "fact_computations",
    "repository_facts",
    "survival_for_repository",
    "szz_candidates",
    "szz_for_repository",
]
