"""People, commits, file changes, links, work items and skills across all repositories.

Thin wiring: every computation is a plain function in identity/, history/, classify/ or enrich/.
"""

import polars as pl
from dagster import AssetExecutionContext, AssetOut, Output, asset, multi_asset

from exceeds_pipeline.classify.categories import categorize_commits
from exceeds_pipeline.classify.changelog import ENTRIES_SCHEMA as CHANGELOG_ENTRIES
from exceeds_pipeline.classify.links import commit_links as find_commit_links
from exceeds_pipeline.classify.work_items import assign_work_items
from exceeds_pipeline.enrich.ai_tools import with_ai_tool
from exceeds_pipeline.enrich.code_evidence import evidence_sample
from exceeds_pipeline.enrich.exclusions import classify_exclusions
from exceeds_pipeline.enrich.languages import with_language
from exceeds_pipeline.enrich.skills import load_skill_rules, skills_per_commit
from exceeds_pipeline.history.counted_once import count_once, inherit_work_items
from exceeds_pipeline.history.tables import attach_people, finalize_commits
from exceeds_pipeline.ingest.incremental import TAGS_TABLE
from exceeds_pipeline.ingest.raw_store import read_side_table
from exceeds_pipeline.identity.people import ConfiguredIdentity, resolve_people
from exceeds_pipeline.defs.resources import ExceedsSettings
from exceeds_pipeline.defs.metadata import frame_metadata


def _raw(settings: ExceedsSettings, table: str) -> pl.DataFrame:
    return settings.raw_store().scan(settings.repository_names, table).collect()


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
    deps=["repositories"],
)
def people_and_identities(context: AssetExecutionContext, settings: ExceedsSettings):
    config = settings.config
    raw = settings.raw_store().scan(settings.repository_names, "commits")
    people, identity_map = resolve_people(
        raw,
        [ConfiguredIdentity(i.id, i.name, tuple(i.emails)) for i in config.identities],
        config.bots.extra_patterns,
    )
    yield Output(people, "people", metadata=frame_metadata(people))
    yield Output(identity_map, "identity_map", metadata=frame_metadata(identity_map))


@asset(group_name="history", deps=["repositories"])
def file_changes(context: AssetExecutionContext, settings: ExceedsSettings) -> Output[pl.DataFrame]:
    """One row per file changed by a non-merge commit, with git's exact line counts, its
    Linguist language (a script without an extension by its `#!` line), and whether (and why)
    profile lines of code leave it out (the commits' subjects name vendored trees: `Update
    urllib3 to v1.21.1`; the files' first lines name their generator: `// Code generated ...
    DO NOT EDIT.`; the repository's `.gitattributes` marks files `linguist-generated` or
    `linguist-vendored`)."""
    store = settings.raw_store()
    raw_commits = store.scan(settings.repository_names, "commits").select("repo", "sha", "subject", "authored_at").collect()
    generated = [frame.select("path", "generated", *[c for c in ("shebang_language", "content_language", "linguist_generated",
                                                               "linguist_vendored") if c in frame.columns])
                 .with_columns(pl.lit(name).alias("repo"))
                 for name in settings.repository_names
                 if (frame := read_side_table(store, name, "generated_paths")) is not None]
    generated = pl.concat(generated, how="diagonal_relaxed") if generated else None
    shebangs = generated if generated is not None and "shebang_language" in generated.columns else None
    table = classify_exclusions(with_language(_raw(settings, "file_changes"), shebangs=shebangs), raw_commits,
                                generated)
    return Output(table, metadata=frame_metadata(table))


@asset(group_name="history", deps=["repositories"])
def commit_links(context: AssetExecutionContext, settings: ExceedsSettings) -> Output[pl.DataFrame]:
    """Which commit reverts, relands or fixes which (git's revert wording, `Fixes: <sha>`)."""
    table = find_commit_links(_raw(settings, "commits"))
    return Output(table, metadata=frame_metadata(table))


@multi_asset(
    outs={
        "commits": AssetOut(
            group_name="history",
            description="Every commit reachable from each configured branch: person, bot flag, "
            "month, whether it counts (once, in the first listed repository: counted_in), "
            "category, work item and declared AI tool.",
        ),
        "work_items": AssetOut(
            group_name="history",
            description="Changes grouped from commits: one PR, a revert and its reland, a "
            "numbered series, or closely related commits of one author.",
        ),
    },
    deps=["repositories"],
)
def commits_and_work_items(
    context: AssetExecutionContext,
    settings: ExceedsSettings,
    people: pl.DataFrame,
    identity_map: pl.DataFrame,
    file_changes: pl.DataFrame,
    commit_links: pl.DataFrame,
):
    window = settings.config.window
    table = attach_people(_raw(settings, "commits"), identity_map, people, window.since, window.until)
    # A change reachable from several repositories counts once, in the first listed (SPEC §5).
    store = settings.raw_store()
    states = {name: store.state(name) for name in settings.repository_names}
    git_dirs = {name: s.git_dir for name, s in states.items() if s is not None and s.git_dir}
    table = count_once(table, settings.repository_names, git_dirs)
    changelog = [frame.select(list(CHANGELOG_ENTRIES)).with_columns(pl.lit(name).alias("repo"))
                 for name in settings.repository_names
                 if (frame := read_side_table(store, name, "changelog_entries")) is not None and frame.height]
    changelog = pl.concat(changelog) if changelog else None
    # how many changed lines of each commit read for code evidence are comments, how many code,
    # and which files changed only their inline tests
    diff_lines = [frame.select("repo", "sha", "comment_lines", "code_lines",
                               *(["test_paths"] if "test_paths" in frame.columns else []))
                  for name in settings.repository_names
                  if (frame := read_side_table(store, name, "code_evidence")) is not None
                  and {"comment_lines", "code_lines"} <= set(frame.columns)]
    diff_lines = pl.concat(diff_lines, how="diagonal_relaxed") if diff_lines else None
    table = categorize_commits(with_ai_tool(table), file_changes, commit_links, cache=settings.cache_dir / "categories",
                               changelog=changelog, diff_lines=diff_lines)
    edits = [frame.select("repo", "sha", "summary", *(["refs"] if "refs" in frame.columns else []))
             for name in settings.repository_names
             if (frame := read_side_table(store, name, "edit_summaries")) is not None and frame.height]
    # the tags of each repository: a version tag marks the release its commit makes
    tags = [frame.with_columns(pl.lit(name).alias("repo")) for name in settings.repository_names
            if (frame := read_side_table(store, name, TAGS_TABLE)) is not None and frame.height]
    table, work_items = assign_work_items(table, commit_links, file_changes, changelog,
                                          pl.concat(edits, how="diagonal_relaxed") if edits else None, pl.concat(tags) if tags else None)
    table = finalize_commits(inherit_work_items(table))
    yield Output(table, "commits", metadata=frame_metadata(table))
    yield Output(work_items, "work_items", metadata=frame_metadata(work_items))


@asset(group_name="history")
def commit_skills(
    context: AssetExecutionContext,
    settings: ExceedsSettings,
    commits: pl.DataFrame,
    file_changes: pl.DataFrame,
) -> Output[pl.DataFrame]:
    """Technical skills each commit shows, from the YAML rules shipped in the package plus the
    config's `skills.extra_rules` files (paths, languages and message terms)."""
    extra = [settings.config_dir / p for p in settings.config.skills.extra_rules]
    store = settings.raw_store()
    # what the code uses, from each author's sample (not the small changes read beside it)
    evidence = [e.filter(pl.col("sha").is_in(evidence_sample(
                    store.scan([r], "commits").select("sha", "is_merge", "mailmap_email", "subject").collect(), small_changes=False)))
                for r in settings.repository_names if (e := read_side_table(store, r, "code_evidence")) is not None]
    code_evidence = pl.concat(evidence, how="diagonal_relaxed") if evidence else None
    table = skills_per_commit(commits, file_changes, load_skill_rules(extra), code_evidence=code_evidence)
    return Output(table, metadata=frame_metadata(table))
