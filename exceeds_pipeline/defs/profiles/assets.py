"""Profile JSON per person: the `profiles` table and <data-dir>/exports."""

from datetime import datetime, timezone

import polars as pl
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, Output, asset

from exceeds_pipeline.profiles.build import build_profiles
from exceeds_pipeline.profiles.export import parse_profile, profile_json, write_exports
from exceeds_pipeline.site.forge import repository_web_urls
from exceeds_pipeline.site.render import write_site
from exceeds_pipeline.defs.resources import ExceedsSettings
from exceeds_pipeline.defs.metadata import frame_metadata


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
    themes: pl.DataFrame,
    work_item_credit: pl.DataFrame,
) -> Output[pl.DataFrame]:
    """One profile JSON per non-bot person with counted commits (schema-validated), written to
    <data-dir>/exports/profiles/<person_id>.json with exports/index.json."""
    config = settings.config
    built = build_profiles(
        people, commits, work_items, monthly_rollups, repo_rollups, quality_metrics, file_changes,
        commit_skills,
        {"since": config.window.since, "until": config.window.until},
        datetime.now(timezone.utc),
        include_emails=config.exports.include_emails,
        commit_links=commit_links,
        themes=themes,
        repo_urls=repository_web_urls(config.repositories),
        credit=work_item_credit,
    )
    write_exports(built, settings.exports_dir)
    table = pl.DataFrame(
        {"person_id": [p["id"] for p in built], "profile": [profile_json(p).decode("utf-8") for p in built]},
        schema={"person_id": pl.String, "profile": pl.String},
    )
    return Output(table, metadata={**frame_metadata(table), "exports": str(settings.exports_dir)})


@asset(group_name="profiles", kinds={"html"})
def profile_site(context: AssetExecutionContext, settings: ExceedsSettings, profiles: pl.DataFrame) -> MaterializeResult:
    """<data-dir>/exports/site: the team index and one self-contained page per person, rendered
    from the profile JSON alone; written atomically, and only pages whose profile changed are
    rewritten."""
    built = [parse_profile(text) for text in profiles["profile"]]
    index = parse_profile((settings.exports_dir / "index.json").read_bytes())
    site = settings.exports_dir / "site"
    counts = write_site(built, index, site)
    return MaterializeResult(metadata={
        "path": MetadataValue.path(str(site / "index.html")),
        **{k: v for k, v in counts.items() if isinstance(v, (int, float, str, bool))},
    })
