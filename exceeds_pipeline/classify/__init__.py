"""Commit classification: categories, revert/fix/reland links and work items.

Plain Polars code (no Dagster imports) so that it can be tested and benchmarked on its own:

- `categories.categorize_commits` adds a `category` (one of `schemas.COMMIT_CATEGORIES`);
- `links.commit_links` finds which commits revert, fix or reland which;
- `work_items.assign_work_items` groups commits into work items (one change each).
"""

from exceeds_pipeline.classify.categories import categorize_commits
from exceeds_pipeline.classify.links import commit_links
from exceeds_pipeline.classify.work_items import assign_work_items

__all__ = ["assign_work_items", "categorize_commits", "commit_links"]
