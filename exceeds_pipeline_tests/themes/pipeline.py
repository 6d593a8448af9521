"""Test helper: the pipeline's derive chain (no Dagster) over scripted repositories.

The same plain functions the history assets call, in the same order: ingest (git log), people,
languages and exclusions, AI tools, categories, links, work items.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from exceeds_pipeline.classify.categories import categorize_commits
from exceeds_pipeline.classify.links import commit_links
from exceeds_pipeline.classify.work_items import assign_work_items
from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.enrich.ai_tools import with_ai_tool
from exceeds_pipeline.enrich.exclusions import classify_exclusions
from exceeds_pipeline.enrich.languages import with_language
from exceeds_pipeline.history.tables import attach_people, finalize_commits
from exceeds_pipeline.identity.people import resolve_people
from exceeds_pipeline.ingest.git_log import log_commits


def git_dir(repo: GitScript) -> Path:
    return Path(repo.git("rev-parse", "--absolute-git-dir"))


def tables(*repos: tuple[GitScript, str]) -> dict[str, pl.DataFrame]:
    """{commits, work_items, file_changes, commit_links, people} for ``(repo, name)`` pairs."""
    raw_c, raw_f = [], []
    for repo, name in repos:
        shas = repo.git("rev-list", "HEAD").split()
        c, f = log_commits(git_dir(repo), name, shas)
        raw_c.append(c)
        raw_f.append(f)
    raw = pl.concat(raw_c)
    files = classify_exclusions(with_language(pl.concat(raw_f)))
    people, idmap = resolve_people(raw)
    links = commit_links(raw)
    commits = attach_people(raw, idmap, people, None, None)
    commits = categorize_commits(with_ai_tool(commits), files, links)
    commits, work_items = assign_work_items(commits, links, files)
    return {"commits": finalize_commits(commits), "work_items": work_items, "file_changes": files,
            "commit_links": links, "people": people}
