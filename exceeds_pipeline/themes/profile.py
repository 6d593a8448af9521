"""Themes, skill evidence, mirrors and the narrative, added to built profile documents.

:func:`attach_story` is the one call :func:`exceeds_pipeline.profiles.build.build_profiles`
makes into this package: it adds ``themes`` (top level and per month), ``mirror_of`` on
repositories, the evidence of each technical skill (work items and examples), and rewrites the
summaries with :func:`exceeds_pipeline.profiles.narrative.write_story`.
"""

from __future__ import annotations

import polars as pl

from exceeds_pipeline.enrich.skills import person_skills
from exceeds_pipeline.profiles.narrative import write_story
from exceeds_pipeline.themes.build import person_themes
from exceeds_pipeline.themes.mirror import mirror_sources

__all__ = ["attach_story"]

PROFILE_THEMES = 8
MONTH_THEMES = 5


def _themes_by_scope(themes: pl.DataFrame, limit: int) -> dict[tuple[str, str, str], list[dict]]:
    """(person_id, scope, scope_key) -> the scope's top ``limit`` themes as profile dicts,
    heaviest first, in one pass over the rows (tens of thousands of scopes on a large history:
    a frame per scope would cost seconds)."""
    keys = ["person_id", "scope", "scope_key"]
    top = (
        themes.sort([*keys, "weight", "theme"], descending=[False, False, False, True, False])
        .filter(pl.int_range(pl.len()).over(keys) < limit)
    )
    out: dict[tuple[str, str, str], list[dict]] = {}
    for r in top.iter_rows(named=True):
        out.setdefault((r["person_id"], r["scope"], r["scope_key"]), []).append(
            {"name": r["theme"], "weight": float(r["weight"]), "source": r["source"],
             "work_item_ids": list(r["work_item_ids"])})
    return out


def attach_story(
    profiles: list[dict],
    commits: pl.DataFrame,
    work_items: pl.DataFrame,
    file_changes: pl.DataFrame,
    commit_skills: pl.DataFrame | None,
    themes: pl.DataFrame | None = None,
) -> list[dict]:
    """Complete ``profiles`` in place (and return them); ``themes`` is the themes table, computed
    here when not given."""
    if not profiles:
        return profiles
    if themes is None:
        themes = person_themes(commits, work_items, file_changes)
    if "source" not in themes.columns:
        themes = themes.with_columns(pl.lit(None, pl.String).alias("source"))
    by_scope = _themes_by_scope(themes, max(PROFILE_THEMES, MONTH_THEMES))
    mirrors = {(pid, repo): src for pid, repo, src in
               mirror_sources(commits, per_person=True).select("person_id", "repo", "mirror_of").iter_rows()} \
        if commits.height else {}
    skills = person_skills(commit_skills, commits) if commit_skills is not None and commit_skills.height else None
    # each person's rows in person_skills' order: the skill of most work items first
    skill_rows = {k[0]: g for k, g in skills.partition_by("person_id", as_dict=True).items()} \
        if skills is not None and skills.height else {}
    for profile in profiles:
        pid = profile["id"]
        profile["themes"] = by_scope.get((pid, "all", "all"), [])[:PROFILE_THEMES]
        for entry in profile["work_history"]:
            entry["themes"] = by_scope.get((pid, "month", entry["month"]), [])[:MONTH_THEMES]
        for repo in profile["repositories"]:
            if (pid, repo["name"]) in mirrors:
                repo["mirror_of"] = mirrors[(pid, repo["name"])]
            repo["themes"] = [t["name"] for t in by_scope.get((pid, "repo", repo["name"]), [])[:MONTH_THEMES]]
        rows = skill_rows.get(pid)
        if rows is not None:
            profile["skills"]["technical"] = [
                {"name": r["skill"], "commits": int(r["commits"]), "work_items": int(r["work_items"]),
                 "examples": list(r["examples"])}
                for r in rows.iter_rows(named=True)
            ]
        write_story(profile)
    return profiles
