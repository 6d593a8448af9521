"""Profile documents: building (:mod:`.build`), prose (:mod:`.narrative`), JSON export and
validation against the shipped schema ``profile.schema.json`` (:mod:`.export`)."""

from exceeds_pipeline.profiles.build import SCHEMA_VERSION, build_profiles
from exceeds_pipeline.profiles.export import load_schema, safe_file_stem, validate_profile, write_exports
from exceeds_pipeline.profiles.narrative import month_summary, profile_summary

__all__ = [
    "SCHEMA_VERSION",
    "build_profiles",
    "load_schema",
    "month_summary",
    "profile_summary",
    "safe_file_stem",
    "validate_profile",
    "write_exports",
]
