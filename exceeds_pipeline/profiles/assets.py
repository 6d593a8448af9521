"""Profile JSON per person: the `profiles` table and <data-dir>/exports."""

import json
from datetime import datetime, timezone

import polars as pl
from dagster import AssetCheckResult, AssetExecutionContext, AssetIn, Output, asset, asset_check

from exceeds_pipeline.profiles.build import build_profiles
from exceeds_pipeline.profiles.export import validate_profile, write_exports
from exceeds_pipeline.resources import ExceedsSettings
from exceeds_pipeline.table_metadata import frame_metadata


@asset(group_name="profiles")
def profiles(
    context: AssetExecutionContext,
    settings: ExceedsSettings,
    people: pl.DataFrame,
    commits: pl.DataFrame,
    work_items: pl.DataFrame,
    monthly_rollups: pl.DataFrame,
    repo_rollups: pl.DataFrame,
    quality_metrics: pl.DataFrame,
    file_changes: pl.DataFrame,
    commit_skills: pl.DataFrame,
    commit_links: pl.DataFrame,
) -> Output[pl.DataFrame]:
    """One profile JSON per non-bot person with counted commits (schema-validated), written to
    <data-dir>/exports/profiles/<person_id>.json with exports/index.json."""
    config = settings.load_config()
    built = build_profiles(
        people, commits, work_items, monthly_rollups, repo_rollups, quality_metrics, file_changes,
        commit_skills,
        {"since": config.window.since, "until": config.window.until},
        datetime.now(timezone.utc),
        include_emails=config.exports.include_emails,
        commit_links=commit_links,
    )
    write_exports(built, settings.exports_dir)
    table = pl.DataFrame(
        {"person_id": [p["id"] for p in built], "profile": [json.dumps(p, ensure_ascii=False) for p in built]},
        schema={"person_id": pl.String, "profile": pl.String},
    )
    return Output(table, metadata={**frame_metadata(table), "exports": str(settings.exports_dir)})


@asset_check(asset="profiles", description="Every profile is valid against the shipped JSON Schema.")
def profiles_match_schema(profiles: pl.DataFrame) -> AssetCheckResult:
    invalid = []
    for person_id, text in profiles.iter_rows():
        try:
            validate_profile(json.loads(text))
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
