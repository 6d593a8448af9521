"""Per-row enrichment of the raw git tables, as plain Polars functions (no Dagster here).

- :mod:`.exclusions`: which file changes profile LOC leaves out (binary, vendored, generated,
  lock files, submodules) and why.
- :mod:`.languages`: GitHub Linguist language names for paths.
- :mod:`.skills`: technical skills per commit from a user-extensible YAML rules file.
- :mod:`.ai_tools`: declared AI-assistance markers (co-author trailers, bot identities).

Every function works on whole tables with Polars expressions; any Python work per path is done
once per distinct file name or extension, never per row.
"""

from exceeds_pipeline.enrich.ai_tools import AI_TOOL_MARKERS, detect_ai_tool, with_ai_tool
from exceeds_pipeline.enrich.exclusions import classify_exclusions
from exceeds_pipeline.enrich.languages import language_for_paths, with_language
from exceeds_pipeline.enrich.skills import (
    SkillRules,
    SkillRulesError,
    load_skill_rules,
    skills_per_commit,
)

__all__ = [
    "AI_TOOL_MARKERS",
    "SkillRules",
    "SkillRulesError",
    "classify_exclusions",
    "detect_ai_tool",
    "language_for_paths",
    "load_skill_rules",
    "skills_per_commit",
    "with_ai_tool",
    "with_language",
]
