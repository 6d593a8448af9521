"""People, commits and file changes across all configured repositories."""


import polars as pl
from dagster import AssetExecutionContext, AssetOut, Output, asset, multi_asset

from exceeds_pipeline.history.tables import attach_people, finalize_commits
from exceeds_pipeline.identity.people import ConfiguredIdentity, resolve_people
from exceeds_pipeline.resources import ExceedsSettings
from exceeds_pipeline.table_metadata import frame_metadata


def configured_repos(settings: ExceedsSettings) -> list[str]:
    return [r.display_name for r in settings.load_config().repositories]


@multi_asset(
    outs={
        "people": AssetOut(
            group_name="history",
            description="One row per person (human or bot) across all repositories: .mailmap, "
            "case-insensitive e-mail, GitHub noreply ids and config identities joined.",
        ),
        "identity_map": AssetOut(
            group_name="history",
            description="Which identity key (lower-cased mailmapped e-mail) belongs to which person.",
        ),
    },
    deps=["raw_commits"],
)
def people_and_identities(context: AssetExecutionContext, settings: ExceedsSettings):
    config = settings.load_config()
    raw = settings.raw_store().scan(configured_repos(settings), "commits")
    people, identity_map = resolve_people(
        raw,
        [ConfiguredIdentity(i.id, i.name, tuple(i.emails)) for i in config.identities],
        config.bots.extra_patterns,
    )
    yield Output(people, "people", metadata=frame_metadata(people))
    yield Output(identity_map, "identity_map", metadata=frame_metadata(identity_map))


@asset(group_name="history", deps=["raw_commits"])
def commits(
    context: AssetExecutionContext,
    settings: ExceedsSettings,
    people: pl.DataFrame,
    identity_map: pl.DataFrame,
) -> Output[pl.DataFrame]:
    """Every commit reachable from each configured branch, with its person, bot flag, month and
    whether it counts (non-merge, non-bot, inside the window)."""
    config = settings.load_config()
    raw = settings.raw_store().scan(configured_repos(settings), "commits").collect()
    table = finalize_commits(
        attach_people(raw, identity_map, people, config.window.since, config.window.until)
    )
    return Output(table, metadata=frame_metadata(table))


@asset(group_name="history", deps=["raw_file_changes"])
def file_changes(context: AssetExecutionContext, settings: ExceedsSettings) -> Output[pl.DataFrame]:
    """One row per file changed by a non-merge commit, with git's exact line counts."""
    table = settings.raw_store().scan(configured_repos(settings), "file_changes").collect()
    table = table.with_columns(
        pl.lit(None, pl.String).alias("language"),
        pl.lit(False).alias("excluded"),
        pl.lit(None, pl.String).alias("exclusion_reason"),
    )
    return Output(table, metadata=frame_metadata(table))
