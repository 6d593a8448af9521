"""Small hand-written frames following the pipeline's column contracts (shared by tests)."""

from __future__ import annotations

from datetime import date, datetime, timezone

import polars as pl

from exceeds_pipeline.history.tables import COMMIT_COLUMNS

UTC = pl.Datetime("us", "UTC")

COMMITS_SCHEMA = {
    "repo": pl.String, "sha": pl.String, "person_id": pl.String, "author_name": pl.String,
    "author_email": pl.String, "authored_at": UTC, "author_date": pl.Date, "committed_at": UTC,
    "subject": pl.String, "message": pl.String, "is_merge": pl.Boolean, "is_bot": pl.Boolean,
    "lines_added": pl.Int64, "lines_deleted": pl.Int64, "files_changed": pl.Int64,
    "category": pl.String, "work_item_id": pl.String, "ai_tool": pl.String, "month": pl.String,
    "is_counted": pl.Boolean, "pr_number": pl.Int64, "parents": pl.List(pl.String),
}
FILE_CHANGES_SCHEMA = {
    "repo": pl.String, "sha": pl.String, "path": pl.String, "old_path": pl.String,
    "status": pl.String, "lines_added": pl.Int64, "lines_deleted": pl.Int64,
    "is_binary": pl.Boolean, "is_submodule": pl.Boolean, "language": pl.String,
    "excluded": pl.Boolean, "exclusion_reason": pl.String,
}
WORK_ITEMS_SCHEMA = {
    "work_item_id": pl.String, "repo": pl.String, "person_id": pl.String, "category": pl.String,
    "title": pl.String, "first_at": UTC, "last_at": UTC, "commits": pl.Int64,
    "lines_added": pl.Int64, "lines_deleted": pl.Int64, "pr_number": pl.Int64,
}
LINKS_SCHEMA = {"repo": pl.String, "sha": pl.String, "link_type": pl.String, "target_sha": pl.String,
                "evidence": pl.String}
SKILLS_SCHEMA = {"repo": pl.String, "sha": pl.String, "skills": pl.List(pl.String)}
PEOPLE_SCHEMA = {
    "person_id": pl.String, "display_name": pl.String, "emails": pl.List(pl.String),
    "names": pl.List(pl.String), "is_bot": pl.Boolean, "commits": pl.Int64, "first_at": UTC,
    "last_at": UTC,
}

assert set(COMMITS_SCHEMA) <= set(COMMIT_COLUMNS)


def ts(text: str) -> datetime:
    """'2025-03-04T10:00' (UTC) -> aware datetime."""
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


def commit(sha: str, person: str | None, at: str, *, repo: str = "acme/api", local_date: str | None = None,
           category: str = "other", item: str | None = None, merge: bool = False, bot: bool = False,
           counted: bool | None = None, added: int = 10, deleted: int = 0, subject: str | None = None,
           ai_tool: str | None = None, pr: int | None = None, parents: list[str] | None = None) -> dict:
    t = ts(at)
    d = date.fromisoformat(local_date) if local_date else t.date()
    if counted is None:
        counted = not merge and not bot
    subject = subject or f"commit {sha}"
    return {
        "repo": repo, "sha": sha, "person_id": person, "author_name": person, "author_email": f"{person}@x.org",
        "authored_at": t, "author_date": d, "committed_at": t, "subject": subject, "message": subject + "\n",
        "is_merge": merge, "is_bot": bot, "lines_added": added, "lines_deleted": deleted, "files_changed": 1,
        "category": category, "work_item_id": item, "ai_tool": ai_tool, "month": d.strftime("%Y-%m"),
        "is_counted": counted, "pr_number": pr, "parents": parents or [],
    }


def fc(sha: str, path: str, added: int = 10, deleted: int = 0, *, repo: str = "acme/api",
       language: str | None = "Python", excluded: bool = False, reason: str | None = None,
       status: str = "M", old_path: str | None = None) -> dict:
    return {
        "repo": repo, "sha": sha, "path": path, "old_path": old_path, "status": status, "lines_added": added,
        "lines_deleted": deleted, "is_binary": False, "is_submodule": False, "language": language,
        "excluded": excluded, "exclusion_reason": reason if excluded else None,
    }


def wi(item: str, person: str, category: str, title: str, *, repo: str = "acme/api") -> dict:
    return {
        "work_item_id": item, "repo": repo, "person_id": person, "category": category, "title": title,
        "first_at": None, "last_at": None, "commits": None, "lines_added": None, "lines_deleted": None,
        "pr_number": None,
    }


def frame(rows: list[dict], schema: dict) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def commits_frame(rows):
    return frame(rows, COMMITS_SCHEMA)


def files_frame(rows):
    return frame(rows, FILE_CHANGES_SCHEMA)


def items_frame(rows):
    return frame(rows, WORK_ITEMS_SCHEMA)


def links_frame(rows):
    return frame(rows, LINKS_SCHEMA)


def skills_frame(rows):
    return frame(rows, SKILLS_SCHEMA)


def people_frame(rows):
    return frame(rows, PEOPLE_SCHEMA)
