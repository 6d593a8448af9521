"""Checks on the profiles: schema-valid, and one for every counted person."""

import polars as pl
from dagster import AssetCheckResult, AssetIn, asset_check

from exceeds_pipeline.profiles.export import parse_profile, validate_profile


@asset_check(asset="profiles", description="Every profile is valid against the shipped JSON Schema.")
def profiles_match_schema(profiles: pl.DataFrame) -> AssetCheckResult:
    invalid = []
    for person_id, text in profiles.iter_rows():
        try:
            validate_profile(parse_profile(text))
        except Exception as exc:  # report, don't crash the check
            invalid.append(f"{person_id}: {str(exc).splitlines()[0]}")
    return AssetCheckResult(passed=not invalid, metadata={"profiles": profiles.height, "invalid": invalid[:20]})


@asset_check(
    asset="profiles",
    additional_ins={"commits": AssetIn("commits")},
    description="Every non-bot person with counted commits has a profile.",
)
def every_counted_person_has_profile(profiles: pl.DataFrame, commits: pl.DataFrame) -> AssetCheckResult:
    expected = set(commits.filter(pl.col("is_counted"))["person_id"].drop_nulls().to_list())
    missing = sorted(expected - set(profiles["person_id"].to_list()))
    return AssetCheckResult(passed=not missing, metadata={"expected": len(expected), "missing": missing[:20]})
