"""Person x month and person x repository rollups of counted commits (plain Polars).

See :mod:`exceeds_pipeline.rollups.rollups` for the rules (which month a work item counts in,
profile lines of code).
"""

from exceeds_pipeline.rollups.rollups import (
    MONTHLY_ROLLUPS_SCHEMA,
    REPO_ROLLUPS_SCHEMA,
    WORK_ITEM_CREDIT_SCHEMA,
    commit_profile_loc,
    monthly_rollups,
    repo_rollups,
    work_item_credit,
)

__all__ = [
    "MONTHLY_ROLLUPS_SCHEMA",
    "REPO_ROLLUPS_SCHEMA",
    "WORK_ITEM_CREDIT_SCHEMA",
    "commit_profile_loc",
    "monthly_rollups",
    "repo_rollups",
    "work_item_credit",
]
