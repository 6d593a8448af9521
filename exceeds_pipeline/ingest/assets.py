"""Raw git history, one partition per configured repository."""


from dagster import (
    AssetExecutionContext,
    AssetSpec,
    DynamicPartitionsDefinition,
    MaterializeResult,
    MetadataValue,
    multi_asset,
)

from exceeds_pipeline.ingest.gitcmd import GitError
from exceeds_pipeline.ingest.incremental import ingest_repository
from exceeds_pipeline.ingest.repository import (
    LocalRepository,
    clone_or_fetch,
    is_shallow,
    open_local,
    resolve_branch,
)
from exceeds_pipeline.locks import repository_lock
from exceeds_pipeline.resources import ExceedsSettings

repository_partitions = DynamicPartitionsDefinition(name="repositories")


def prepare_repository(settings: ExceedsSettings, repo_name: str) -> LocalRepository:
    """Clone/fetch or open the configured repository and resolve its branch."""
    config = settings.load_config()
    matches = [r for r in config.repositories if r.display_name == repo_name]
    if not matches:
        raise GitError(
            repo_name, "is not in the config any more; remove the partition or add the repository back"
        )
    repo_cfg = matches[0]
    if repo_cfg.url:
        git_dir = clone_or_fetch(repo_name, repo_cfg.url, settings.repos_dir)
    else:
        git_dir = open_local(repo_name, repo_cfg.path, settings.config_dir)
    branch, tip = resolve_branch(repo_name, git_dir, repo_cfg.branch)
    return LocalRepository(repo_name, git_dir, tip, branch, is_shallow(repo_name, git_dir))


def skipped_message(repo: LocalRepository, skipped: dict[str, str]) -> str:
    shas = sorted(skipped)
    shown = ", ".join(s[:12] for s in shas[:5]) + (f" and {len(shas) - 5} more" if len(shas) > 5 else "")
    return (
        f"[{repo.name}] {len(shas)} commit(s) skipped because git cannot read them "
        f"({skipped[shas[0]]}): {shown}. Objects are missing from {repo.git_dir}: run `git fsck` "
        f"there and fetch again (or re-clone); skipped commits are retried on every run"
    )


@multi_asset(
    specs=[
        AssetSpec(
            "raw_commits",
            group_name="ingest",
            description="Every commit reachable from the configured branch, straight from one "
            "streaming `git log --raw --numstat` pass (incremental; force-pushes re-ingested).",
            partitions_def=repository_partitions,
        ),
        AssetSpec(
            "raw_file_changes",
            group_name="ingest",
            description="Per-file line counts of every non-merge commit, exactly as "
            "`git log --numstat` reports them (renames detected as git does by default).",
            partitions_def=repository_partitions,
        ),
    ],
    partitions_def=repository_partitions,
)
def raw_git_history(context: AssetExecutionContext, settings: ExceedsSettings):
    # One fetch + ingest of a repository at a time (UI, schedule and CLI runs alike).
    with repository_lock(settings.data, context.partition_key, log=context.log.info):
        repo = prepare_repository(settings, context.partition_key)
        if repo.is_shallow:
            context.log.warning(
                f"[{repo.name}] is a shallow clone: only the commits present are counted; "
                f"run `git fetch --unshallow` for the full history"
            )
        result = ingest_repository(repo, settings.raw_store())
    context.log.info(
        f"[{repo.name}] {result.mode}: {result.new_commits} new, {result.removed_commits} removed, "
        f"{result.total_commits} stored commits ({result.seconds:.2f}s)"
    )
    if result.skipped:
        context.log.warning(skipped_message(repo, result.skipped))
    common = {
        "branch": repo.branch,
        "tip": repo.tip,
        "mode": result.mode,
        "new_commits": result.new_commits,
        "removed_commits": result.removed_commits,
        "is_shallow": repo.is_shallow,
        "ingest_seconds": MetadataValue.float(round(result.seconds, 3)),
        "skipped_commits": len(result.skipped),
    }
    if result.skipped:
        common["skipped_shas"] = MetadataValue.json(
            [{"sha": sha, "reason": why} for sha, why in sorted(result.skipped.items())[:100]]
        )
    yield MaterializeResult(
        asset_key="raw_commits", metadata={**common, "dagster/row_count": result.total_commits}
    )
    yield MaterializeResult(
        asset_key="raw_file_changes", metadata={**common, "dagster/row_count": result.total_file_changes}
    )
