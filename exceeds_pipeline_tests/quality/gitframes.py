"""Commits / file_changes frames read straight from a small scripted repository (tests only)."""

from __future__ import annotations

from datetime import datetime, timezone

import polars as pl

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline_tests.rollups.frames import commits_frame, files_frame

SEP = "\x1f"


def read_repo(repo: GitScript, name: str, people: dict[str, str], categories: dict[str, str],
              items: dict[str, str] | None = None, ai: dict[str, str] | None = None):
    """(commits, file_changes) of every commit on HEAD. `people`: e-mail -> person_id;
    `categories`/`items`/`ai`: sha -> value (default 'other' / own item / none)."""
    items, ai = items or {}, ai or {}
    log = repo.git("log", "--reverse", f"--format=%H{SEP}%P{SEP}%ae{SEP}%aI{SEP}%cI{SEP}%ad{SEP}%s",
                   "--date=short")
    rows, files = [], []
    for line in log.splitlines():
        sha, parents, email, a_iso, c_iso, a_date, subject = line.split(SEP)
        parents = parents.split()
        added = deleted = 0
        numstat = repo.git("show", "--numstat", "--format=", "-M", sha) if len(parents) <= 1 else ""
        for entry in numstat.splitlines():
            a, d, path = entry.split("\t")
            a, d = int(a), int(d)
            added, deleted = added + a, deleted + d
            old = None
            if " => " in path:
                old, path = path.split(" => ")
            files.append({
                "repo": name, "sha": sha, "path": path, "old_path": old, "status": "M", "lines_added": a,
                "lines_deleted": d, "is_binary": False, "is_submodule": False,
                "language": "Python" if path.endswith(".py") else None, "excluded": False,
                "exclusion_reason": None,
            })
        a_at = datetime.fromisoformat(a_iso).astimezone(timezone.utc)
        rows.append({
            "repo": name, "sha": sha, "person_id": people[email], "author_name": people[email],
            "author_email": email, "authored_at": a_at, "author_date": datetime.fromisoformat(a_date).date(),
            "committed_at": datetime.fromisoformat(c_iso).astimezone(timezone.utc), "subject": subject,
            "message": repo.git("log", "-1", "--format=%B", sha), "is_merge": len(parents) > 1, "is_bot": False,
            "lines_added": added, "lines_deleted": deleted, "files_changed": len(numstat.splitlines()),
            "category": categories.get(sha, "other"), "work_item_id": items.get(sha), "ai_tool": ai.get(sha),
            "month": a_date[:7], "is_counted": len(parents) <= 1, "pr_number": None, "parents": parents,
        })
    return commits_frame(rows), files_frame(files)


def revert_links(commits: pl.DataFrame) -> pl.DataFrame:
    """`reverts` links from git's own revert wording (what classify.links finds)."""
    return (
        commits.select("repo", "sha", pl.col("message").str.extract(r"This reverts commit ([0-9a-f]{40})", 1)
                       .alias("target_sha"))
        .drop_nulls("target_sha")
        .with_columns(pl.lit("reverts").alias("link_type"), pl.lit("This reverts commit").alias("evidence"))
        .select("repo", "sha", "link_type", "target_sha", "evidence")
    )
