"""Raw git history: one asset per configured repository, so that each repository's fetch and
ingest is its own step, run in parallel by the executor (processes here, or a Dask cluster)."""

import os
import socket
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl
from dagster import AssetExecutionContext, AssetKey, AssetsDefinition, MaterializeResult, MetadataValue, Output, asset

from exceeds_pipeline.config import ExceedsConfig, RepositoryConfig
from exceeds_pipeline.defs.metadata import frame_metadata
from exceeds_pipeline.defs.resources import ExceedsSettings
from exceeds_pipeline.ingest.gitcmd import GitError
from exceeds_pipeline.ingest.incremental import ingest_repository
from exceeds_pipeline.enrich.code_evidence import block_comment_sample, evidence_sample, update_code_evidence
from exceeds_pipeline.classify.changelog import update_changelog_entries
from exceeds_pipeline.classify.edit_summary import update_edit_summaries
from exceeds_pipeline.enrich.generated import update_generated_paths
from exceeds_pipeline.ingest.raw_store import read_side_table, repositories_table, write_side_table
from exceeds_pipeline.ingest.repository import LocalRepository, asset_slug
from exceeds_pipeline.ingest.repository import prepare_repository as prepare_local_repository
from exceeds_pipeline.locks import repository_lock

RAW_PREFIX = "raw_git_history"
CODE_EVIDENCE_PREFIX = "code_evidence"
GROUP = "ingest"


def raw_history_key(repo_name: str) -> AssetKey:
    return AssetKey([RAW_PREFIX, asset_slug(repo_name)])


def code_evidence_key(repo_name: str) -> AssetKey:
    return AssetKey([CODE_EVIDENCE_PREFIX, asset_slug(repo_name)])


def prepare_repository(settings: ExceedsSettings, repo_name: str) -> LocalRepository:
    repo_cfg = settings.repository(repo_name)
    if repo_cfg is None:
        raise GitError(repo_name, "is not in the config any more; add it back or reload the definitions")
    return prepare_local_repository(repo_cfg, settings.repos_dir, settings.config_dir)


def skipped_message(repo: LocalRepository, skipped: dict[str, str]) -> str:
    shas = sorted(skipped)
    shown = ", ".join(s[:12] for s in shas[:5]) + (f" and {len(shas) - 5} more" if len(shas) > 5 else "")
    return (
        f"[{repo.name}] {len(shas)} commit(s) skipped because git cannot read them "
        f"({skipped[shas[0]]}): {shown}. Objects are missing from {repo.git_dir}: run `git fsck` "
        f"there and fetch again (or re-clone); skipped commits are retried on every run"
    )


def ingest_one_repository(context: AssetExecutionContext, settings: ExceedsSettings, name: str) -> MaterializeResult:
    # The repository lock keeps runs of other processes (the UI's, the schedule's and the CLI's
    # are separate processes, and Dagster does not serialise them) from fetching into or
    # writing the same clone and raw store at once.
    with repository_lock(settings.data, name, log=context.log.info):
        store = settings.raw_store()
        _, damage = store.check(name)
        if damage:
            context.log.warning(f"[{name}] the stored history cannot be trusted ({damage}): "
                                f"reading the whole history again")
        repo = prepare_repository(settings, name)
        if repo.is_shallow:
            context.log.warning(
                f"[{repo.name}] is a shallow clone: only the commits present are counted; "
                f"run `git fetch --unshallow` for the full history"
            )
        result = ingest_repository(repo, store)
    context.log.info(
        f"[{repo.name}] {result.mode}: {result.new_commits} new, {result.removed_commits} removed, "
        f"{result.total_commits} stored commits ({result.seconds:.2f}s)"
    )
    if result.skipped:
        context.log.warning(skipped_message(repo, result.skipped))
    metadata = {
        "repo": repo.name,
        "branch": repo.branch,
        "tip": repo.tip,
        "mode": result.mode,
        "new_commits": result.new_commits,
        "removed_commits": result.removed_commits,
        "is_shallow": repo.is_shallow,
        "ingest_seconds": MetadataValue.float(round(result.seconds, 3)),
        "skipped_commits": len(result.skipped),
        "rebuilt_damaged_store": damage or "",
        "dagster/row_count": result.total_commits,
        "file_changes": result.total_file_changes,
        # where the step ran: a process of this machine, or a worker of the Dask cluster
        "worker": f"{socket.gethostname()}:{os.getpid()}",
    }
    if result.skipped:
        metadata["skipped_shas"] = MetadataValue.json(
            [{"sha": sha, "reason": why} for sha, why in sorted(result.skipped.items())[:100]]
        )
    return MaterializeResult(metadata=metadata)


def raw_history_asset(repo: RepositoryConfig) -> AssetsDefinition:
    name = repo.display_name

    @asset(
        key=raw_history_key(name),
        group_name=GROUP,
        description=f"Raw git history of {name}: every commit reachable from the configured branch "
        "and the per-file line counts of every non-merge commit, from one streaming "
        "`git log --raw --numstat` pass (incremental; force-pushes re-ingested). Stored as "
        "Parquet in <data-dir>/raw.",
        kinds={"git", "parquet"},
        metadata={"repo": name},
        tags={"exceeds/repository": "true"},
    )
    def raw_git_history(context: AssetExecutionContext, settings: ExceedsSettings) -> MaterializeResult:
        return ingest_one_repository(context, settings, name)

    return raw_git_history


def code_evidence_asset(repo: RepositoryConfig) -> AssetsDefinition:
    name = repo.display_name

    @asset(
        key=code_evidence_key(name),
        group_name=GROUP,
        deps=[raw_history_key(name)],
        description=f"What the added lines of commits of {name} use (imported modules, API "
        "names), from one streaming `git log -p -U0` pass over the commits not read before: "
        "every commit of an author up to 200, beyond that a fixed sample of 200 (smallest shas), "
        "and every commit whose subject speaks of comments or wording; evidence for technical "
        "skills, and how many of each commit's changed lines are comments and how many code (a "
        "change of comments alone is documentation work). With it, the paths whose content says a program wrote "
        "them (`// Code generated ... DO NOT EDIT.`; tip and deleted versions), which profile "
        "LOC leaves out, the categorised entries of the tip's changelog files (`### Bug "
        "Fixes`, `### Added`), which commit categories use, and what the edits whose subject "
        "names only their file changed (`Update README.md`: \"Fix a typo in README.md\"), which "
        "titles them. Stored beside the raw history.",
        kinds={"git", "parquet"},
        metadata={"repo": name},
    )
    def code_evidence(context: AssetExecutionContext, settings: ExceedsSettings) -> MaterializeResult:
        store = settings.raw_store()
        state = store.state(name)
        if state is None or not state.git_dir:
            return MaterializeResult(metadata={"commits": 0, "new_commits": 0})
        raw = store.scan([name], "commits").select("sha", "is_merge", "mailmap_email", "subject", "lines_added", "lines_deleted").collect()
        shas = evidence_sample(raw)
        previous = read_side_table(store, name, "code_evidence")
        known = set(previous["sha"].to_list()) if previous is not None else set()
        with repository_lock(settings.data, name, log=context.log.info), ThreadPoolExecutor(1) as pool:
            # all mostly wait on git processes: the generated paths, the changelog entries and
            # the web-editor edits are read meanwhile
            generated = pool.submit(update_generated_paths, read_side_table(store, name, "generated_paths"),
                                    Path(state.git_dir), name, state.tip) if state.tip else None
            changelog = pool.submit(update_changelog_entries, read_side_table(store, name, "changelog_entries"),
                                    Path(state.git_dir), name, state.tip) if state.tip else None
            edits = pool.submit(update_edit_summaries, read_side_table(store, name, "edit_summaries"), Path(state.git_dir),
                                name, raw)
            table = update_code_evidence(previous, state.git_dir, name, shas, block_comments=block_comment_sample(raw))
            write_side_table(store, name, "code_evidence", table)

            def stored(future, side_table: str, what: str, without: str) -> pl.DataFrame | None:
                """The side table a thread read, written beside the raw history; a failure only
                warns (the step does not fail: the pipeline then does without it)."""
                if future is None:
                    return None
                try:
                    frame = future.result()
                    write_side_table(store, name, side_table, frame)
                    return frame
                except Exception as exc:
                    context.log.warning(f"[{name}] {what} not read ({exc}): {without}")
                    return None

            generated = stored(generated, "generated_paths", "generated files",
                               "profile LOC leaves out only what path rules name")
            changelog = stored(changelog, "changelog_entries", "changelog", "categories come from the commits alone")
            edits = stored(edits, "edit_summaries", "what web-editor edits changed", "they are titled by their subjects")
        return MaterializeResult(metadata={"commits": table.height,
                                           "new_commits": len(set(shas) - known),
                                           "generated_paths": generated.filter("generated").height
                                           if generated is not None else 0,
                                           "changelog_entries": changelog.height if changelog is not None else 0,
                                           "edit_summaries": edits.filter(pl.col("summary").is_not_null()).height
                                           if edits is not None else 0,
                                           "worker": f"{socket.gethostname()}:{os.getpid()}"})

    return code_evidence


def raw_history_assets(config: ExceedsConfig | None) -> list[AssetsDefinition]:
    repos = config.repositories if config else []
    return [raw_history_asset(r) for r in repos] + [code_evidence_asset(r) for r in repos]


def repositories_asset(config: ExceedsConfig | None) -> AssetsDefinition:
    """The `repositories` table: every configured repository with its ingest state. The derived
    tables all start from it, so it is the one asset that depends on every repository's raw
    history (a repository added to the config is one more upstream here, nothing else)."""
    repos = config.repositories if config else []

    @asset(
        name="repositories",
        group_name=GROUP,
        deps=[key for r in repos for key in (raw_history_key(r.display_name), code_evidence_key(r.display_name))],
        description="One row per configured repository: branch, ingested tip, stored commits, "
        "shallow or not, when it was ingested and the commits git could not read.",
        kinds={"duckdb"},
    )
    def repositories(settings: ExceedsSettings) -> Output[pl.DataFrame]:
        table = repositories_table(
            settings.raw_store(), [(r.display_name, r.branch) for r in settings.config.repositories]
        )
        return Output(table, metadata=frame_metadata(table))

    return repositories
