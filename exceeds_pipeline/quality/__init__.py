"""Quality metrics per person (SPEC §5): correctness, maintainability, architecture,
performance and AI usage, each a documented formula with its evidence.

- :mod:`.metrics`: :func:`quality_metrics`, a pure function of frames;
- :mod:`.dmm`: Delta Maintainability Model per commit (PyDriller/lizard), sampled and cached;
- :mod:`.szz`: SZZ traces of bug fixes (git blame of the deleted lines), bounded and cached;
- :mod:`.git_facts`: both of the above for one repository, in one call;
- :mod:`.cache`: the atomic Parquet caches both use.
"""

from exceeds_pipeline.quality.dmm import DMM_CACHE_SCHEMA, compute_dmm, dmm_sample
from exceeds_pipeline.quality.git_facts import repository_quality_facts
from exceeds_pipeline.quality.metrics import METHODS, METRICS, QUALITY_SCHEMA, quality_metrics
from exceeds_pipeline.quality.szz import SZZ_SCHEMA, compute_szz, szz_candidates

__all__ = [
    "DMM_CACHE_SCHEMA",
    "METHODS",
    "METRICS",
    "QUALITY_SCHEMA",
    "SZZ_SCHEMA",
    "compute_dmm",
    "compute_szz",
    "dmm_sample",
    "quality_metrics",
    "repository_quality_facts",
    "szz_candidates",
]
