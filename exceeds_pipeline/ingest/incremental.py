"""Incremental ingestion: read only commits not stored yet, follow force-pushes exactly.

- Same tip as last time: nothing to read (a no-change run costs one `git rev-parse`).
- New tip descends from the stored tip: read `stored..new` only.
- Anything else (force-push, first run, a changed branch): list what is reachable now, read the
  commits not stored, and drop stored commits that are no longer reachable, so nothing is
  double counted and nothing stale remains.

A commit git cannot read (an object missing from a damaged clone) does not fail the repository:
the commits are re-read in small batches, split until the unreadable ones are isolated; those
are skipped, named in the state (`skipped`) and retried on every later run, and the rest is
stored. Past MAX_UNREADABLE such commits the clone is treated as broken and the run fails.

The repository's tags (name and the commit each points at) are stored beside the history, as
the side table `tags`: a tag pushed after its commit was ingested (the release is often tagged
minutes later) changes the tags alone, and that is a change too.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

import polars as pl

from exceeds_pipeline.ingest.git_log import log_commits, log_commits_parallel
from exceeds_pipeline.ingest.gitcmd import GitError, decode, git_text, run_git
from exceeds_pipeline.ingest.raw_store import IngestState, RawStore, read_side_table, write_side_table
from exceeds_pipeline.ingest.repository import LocalRepository


@dataclass
class IngestResult:
    repo: str
    tip: str
    mode: str  # 'unchanged' | 'fast-forward' | 'full' | 'rewritten'
    new_commits: int
    removed_commits: int
    total_commits: int
    total_file_changes: int
    is_shallow: bool
    seconds: float
    skipped: dict[str, str] = field(default_factory=dict)  # unreadable commit -> git's error


ISOLATE_BATCH = 256  # commits per git process while looking for unreadable ones
MAX_UNREADABLE = 200  # more than this: the clone is broken, not a few objects missing


def _git_reason(exc: GitError) -> str:
    text = str(exc).split("): ", 1)[-1].strip()
    return text.splitlines()[0] if text else "git log failed"


def read_commits(
    repo: LocalRepository, shas: list[str], mailmap_rev: str | None
) -> tuple[pl.DataFrame, pl.DataFrame, dict[str, str]]:
    """(commits, file changes, {unreadable sha: reason}) for `shas`.

    One fast parallel pass; only if git fails, batches of ISOLATE_BATCH commits are read one
    git process each and failing batches are halved until the failing commits stand alone.
    """
    try:
        commits, files = log_commits_parallel(repo.git_dir, repo.name, shas, mailmap_rev)
        return commits, files, {}
    except GitError:
        pass
    parts: list[tuple[pl.DataFrame, pl.DataFrame]] = []
    skipped: dict[str, str] = {}
    stack = [shas[i:i + ISOLATE_BATCH] for i in range(0, len(shas), ISOLATE_BATCH)][::-1]
    while stack:
        batch = stack.pop()
        try:
            parts.append(log_commits(repo.git_dir, repo.name, batch, mailmap_rev))
        except GitError as exc:
            if len(batch) > 1:
                half = len(batch) // 2
                stack += [batch[half:], batch[:half]]
                continue
            skipped[batch[0]] = _git_reason(exc)
            if len(skipped) > MAX_UNREADABLE:
                raise GitError(
                    repo.name,
                    f"more than {MAX_UNREADABLE} commits cannot be read ({_git_reason(exc)}); the "
                    f"clone at {repo.git_dir} is damaged: run `git fsck` there, then fetch again "
                    f"or re-clone it. Its stored data was kept",
                ) from None
    if not parts:
        commits, files = log_commits(repo.git_dir, repo.name, [], mailmap_rev)
    else:
        commits = pl.concat([p[0] for p in parts])
        files = pl.concat([p[1] for p in parts])
    return commits, files, skipped


def _rev_list(repo: LocalRepository, *revs: str) -> list[str]:
    return git_text(repo.git_dir, ["rev-list", *revs, "--"], repo.name).split()


def _is_ancestor(repo: LocalRepository, old: str, new: str) -> bool:
    proc = run_git(repo.git_dir, ["merge-base", "--is-ancestor", old, new], repo.name, check=False)
    return proc.returncode == 0


def _has_commit(repo: LocalRepository, sha: str) -> bool:
    proc = run_git(
        repo.git_dir, ["cat-file", "-e", f"{sha}^{{commit}}"], repo.name, check=False
    )
    return proc.returncode == 0


TAGS_TABLE = "tags"
TAGS_SCHEMA = {"tag": pl.String, "sha": pl.String}


def read_tags(repo: LocalRepository) -> pl.DataFrame:
    """(tag, sha) of every tag of the clone that points at a commit (an annotated tag peeled to
    its commit), sorted; one `git for-each-ref`."""
    out = run_git(repo.git_dir, ["for-each-ref", "--format=%(refname:strip=2)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00%(*objectname)",
                                 "refs/tags"], repo.name).stdout
    rows = []
    for line in out.splitlines():
        name, kind, sha, peeled_kind, peeled = (decode(f) for f in line.split(b"\0"))
        if kind == "commit":
            rows.append((name, sha))
        elif peeled_kind == "commit":
            rows.append((name, peeled))
    return pl.DataFrame(rows, schema=TAGS_SCHEMA, orient="row").sort("tag")


def _tags_changed(repo: LocalRepository, store: RawStore, tags: pl.DataFrame) -> bool:
    stored = read_side_table(store, repo.name, TAGS_TABLE)
    return stored is None or not stored.equals(tags)


def is_up_to_date(repo: LocalRepository, store: RawStore) -> bool:
    """True when ingesting `repo` now would read nothing (what `ingest_repository` calls
    'unchanged' with no unreadable commits to retry, and the same tags)."""
    state = store.state(repo.name)
    return (
        state is not None
        and not (state.is_shallow and not repo.is_shallow)
        and state.tip == repo.tip
        and state.branch == repo.branch
        and not state.skipped
        and not _tags_changed(repo, store, read_tags(repo))
    )


def ingest_repository(repo: LocalRepository, store: RawStore) -> IngestResult:
    started = time.perf_counter()
    state = store.state(repo.name)
    unshallowed = state is not None and state.is_shallow and not repo.is_shallow
    if unshallowed:
        # Unshallowed (`git fetch --unshallow`, as the shallow warning advises): older history
        # appeared at the same tip, and the old boundary commit, read as a root that added the
        # whole tree, now has parents. Read everything again.
        state = None
    # The mailmap is read from the analysed branch itself, so bare and non-bare clones agree.
    mailmap_rev = repo.tip

    retry = list(state.skipped) if state is not None else []  # unreadable last time
    same_tip = state is not None and state.tip == repo.tip and state.branch == repo.branch
    tags = read_tags(repo)
    if _tags_changed(repo, store, tags):
        write_side_table(store, repo.name, TAGS_TABLE, tags)
    if same_tip and not retry:
        # Nothing to read: count the stored rows from the Parquet footers, not by loading them,
        # so a no-change run costs the same whatever the size of the history.
        return IngestResult(
            repo.name, repo.tip, "unchanged", 0, 0,
            store.scan([repo.name], "commits").select(pl.len()).collect().item(),
            store.scan([repo.name], "file_changes").select(pl.len()).collect().item(),
            repo.is_shallow, time.perf_counter() - started,
        )

    stored_commits, stored_files = store.read(repo.name)
    if unshallowed:
        stored_commits, stored_files = stored_commits.clear(), stored_files.clear()

    stored = set(stored_commits["sha"].to_list())
    removed: set[str] = set()
    if same_tip:
        mode = "unchanged"
        new = [s for s in retry if s not in stored]
    elif state is not None and state.tip and _has_commit(repo, state.tip) and _is_ancestor(
        repo, state.tip, repo.tip
    ):
        mode = "fast-forward"
        new = [s for s in _rev_list(repo, repo.tip, f"^{state.tip}") if s not in stored]
        listed = set(new)
        new += [s for s in retry if s not in stored and s not in listed]
    else:
        mode = "full" if state is None else "rewritten"
        reachable = _rev_list(repo, repo.tip)
        reachable_set = set(reachable)
        new = [s for s in reachable if s not in stored]
        removed = stored - reachable_set

    new_commits, new_files, skipped = read_commits(repo, new, mailmap_rev)
    if same_tip and new_commits.height == 0:  # still unreadable: nothing to write
        return IngestResult(
            repo.name, repo.tip, mode, 0, 0, stored_commits.height, stored_files.height,
            repo.is_shallow, time.perf_counter() - started, skipped,
        )
    if removed:
        keep = pl.col("sha").is_in(list(removed)).not_()
        stored_commits = stored_commits.filter(keep)
        stored_files = stored_files.filter(keep)
    commits = pl.concat([stored_commits, new_commits]) if stored_commits.height else new_commits
    files = pl.concat([stored_files, new_files]) if stored_files.height else new_files
    mailmap_blob = _mailmap_blob(repo)
    if state is not None and stored_commits.height and state.mailmap_blob != mailmap_blob:
        # An edited .mailmap applies to the whole history, as it does in git.
        commits = _remap_identities(repo, commits, mailmap_rev)

    store.write(
        IngestState(
            repo=repo.name,
            branch=repo.branch,
            tip=repo.tip,
            generation="",
            commits=commits.height,
            is_shallow=repo.is_shallow,
            mailmap_blob=mailmap_blob,
            git_dir=str(repo.git_dir),
            ingested_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            skipped=sorted(skipped),
        ),
        commits,
        files,
    )
    return IngestResult(
        repo.name, repo.tip, mode, new_commits.height, len(removed), commits.height,
        files.height, repo.is_shallow, time.perf_counter() - started, skipped,
    )


def _mailmap_blob(repo: LocalRepository) -> str | None:
    proc = run_git(repo.git_dir, ["rev-parse", "--verify", "--quiet", f"{repo.tip}:.mailmap"], repo.name, check=False)
    return proc.stdout.decode().strip() or None


def _remap_identities(repo: LocalRepository, commits: pl.DataFrame, mailmap_rev: str) -> pl.DataFrame:
    """Re-read mailmapped author names/emails for every stored commit (metadata only: fast)."""
    out = run_git(
        repo.git_dir,
        # --no-show-signature: log.showSignature=true would print verification lines too
        ["log", "--no-walk=unsorted", "--stdin", "--no-show-signature", "--encoding=UTF-8",
         "--format=%H%x1f%aN%x1f%aE"],
        repo.name,
        config={"mailmap.blob": f"{mailmap_rev}:.mailmap"},
        input=("\n".join(commits["sha"].to_list()) + "\n").encode(),
    ).stdout
    rows = [[decode(f) for f in line.split(b"\x1f")] for line in out.splitlines() if line]
    mapped = pl.DataFrame(
        {"sha": [r[0] for r in rows], "mailmap_name": [r[1] for r in rows], "mailmap_email": [r[2] for r in rows]}
    )
    columns = commits.columns
    return commits.drop("mailmap_name", "mailmap_email").join(mapped, on="sha", how="left").select(columns)
