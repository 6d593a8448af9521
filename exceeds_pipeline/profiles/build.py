"""Profile documents (SPEC §4 profile JSON), one per person, from the published tables.

:func:`build_profiles` joins the tables once for everybody (Polars), then assembles one
dictionary per person: a loop over people and their months, never over commits.

Who gets a profile: every person who is not a bot (``people.is_bot``) with at least one counted
commit. Figures:

* ``stats.commits``: counted commits; ``repository_contributions``: distinct repositories with a
  counted commit; ``activity_months``: distinct months with a counted commit.
* ``stats.features`` / ``bugs``: work items, each counted once, in the month of the person's
  last counted commit of the item (:func:`exceeds_pipeline.rollups.work_item_credit`).
* ``stats.feature_pct``: a **percent** (0-100, one decimal) = 100 * features / (features + bugs),
  null when both are 0.
* lines of code everywhere in the profile are *profile* LOC: file changes with
  ``excluded = false`` (see :mod:`exceeds_pipeline.rollups.rollups`).
* ``work_history``: one entry per active month, newest first; ``key_features`` /
  ``bugs_fixed`` / ``reverts`` list that month's work items of that category, largest first
  (profile lines changed, then newest; a change later reverted for good after the rest), at most :data:`MAX_ITEMS_PER_MONTH` each (the counts are
  the full numbers); ``releases`` lists every release item of the month, newest first. ``reverted_by`` lists commits that reverted one of the item's commits
  (from ``commit_links``).
* ``work_history[].work_items``: that month's work items by category (all categories).
* ``activity``: counted commits per author-local date.
* ``quality``: the ``quality_metrics`` rows, values rounded to 4 decimals.
* ``skills.languages``: Linguist languages the person added lines in, by profile lines added; ``skills.technical``: skills
  by the number of work items showing them (then of counted commits).
* ``emails`` only when ``include_emails`` is true.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timezone

import polars as pl

from exceeds_pipeline.identity.people import slugify
from exceeds_pipeline.quality.metrics import METRICS
from exceeds_pipeline.themes.profile import attach_story
from exceeds_pipeline.rollups.rollups import (
    commit_profile_loc, counted_commits, profile_language_lines, ranked_list, work_item_credit,
)
from exceeds_pipeline.site.forge import forge_web_url

__all__ = ["DEFINITIONS", "MAX_ITEMS_PER_MONTH", "SCHEMA_VERSION", "build_profiles", "normalize_window"]

SCHEMA_VERSION = "1.0.0"
MAX_ITEMS_PER_MONTH = 10
MAX_MONTH_NAMES = 10
# The title work items give a release (classify.work_items.releases.release_title)
RELEASE_ITEM_TITLE = r"^Release \S"

DEFINITIONS = {
    "counted_commit": "A non-merge commit by a person who is not a bot, with its author date inside the window.",
    "month": "Calendar month (YYYY-MM) of the author date in the author's own UTC offset.",
    "work_item": "The commits of one change (same PR, revert and reland, numbered series, or closely related "
                 "commits of one author); features and bugs are counted per work item, in the month of the "
                 "person's last counted commit of it.",
    "lines_of_code": "Lines added and deleted in counted commits, leaving out binary, vendored, generated and "
                     "lock files, submodules, data and prose files (unless the repository's product) and bulk "
                     "imports (file_changes.excluded/exclusion_reason); raw_added/raw_deleted are git's numstat "
                     "totals with nothing left out.",
    "feature_pct": "Percent: 100 * features / (features + bugs), one decimal; null when both are 0.",
    "activity_months": "Distinct months with at least one counted commit.",
}

_EMPTY_STR_LIST = pl.List(pl.String)


def normalize_window(window) -> dict:
    """``{"since": "YYYY-MM-DD" | None, "until": ...}`` from a mapping, a pair or an object."""
    if window is None:
        since = until = None
    elif isinstance(window, Mapping):
        since, until = window.get("since"), window.get("until")
    elif isinstance(window, (tuple, list)):
        since, until = window
    else:
        since, until = getattr(window, "since", None), getattr(window, "until", None)

    def fmt(value):
        if value is None:
            return None
        if isinstance(value, datetime):
            return value.date().isoformat()
        if isinstance(value, date):
            return value.isoformat()
        return date.fromisoformat(str(value)).isoformat()

    return {"since": fmt(since), "until": fmt(until)}


def _timestamp(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")
    raise TypeError(f"generated_at must be a datetime or an ISO string, not {type(value).__name__}")


def _ranked(frame: pl.DataFrame, keys: list[str], value: str, weight: str, alias: str) -> pl.DataFrame:
    return ranked_list(frame.lazy(), keys, value, weight, alias, limit=MAX_MONTH_NAMES).collect()


def _code_file() -> pl.Expr:
    """A file change of neither tests nor pages: what a change built, by which the largest are
    named (webpack's "largest fix" had been a 10-line fix with a 3,105-line test file pasted in;
    ecto's largest feature a 4,729-line copy of integration tests)."""
    from exceeds_pipeline.classify.categories import BENCHMARKS_PATH, DOCS_PATH, TEST_PATH

    path = pl.col("path").fill_null("")
    return ~path.str.contains(TEST_PATH) & ~path.str.contains(BENCHMARKS_PATH) & ~path.str.contains(DOCS_PATH)


def _month_items(credit: pl.DataFrame, loc: pl.DataFrame, links: pl.DataFrame | None,
                 work_items: pl.DataFrame | None = None) -> dict:
    """(person, month, category) -> list of item dicts, largest first. `reverted_by` only for a
    change that did not land again in the end (work_items.later_reverted); `relanded_by` names
    the commits that landed it again."""
    if credit.height == 0:
        return {}
    per_sha = credit.select("work_item_id", "shas").explode("shas", empty_as_null=False).rename({"shas": "sha"})
    item_loc = (
        per_sha.join(loc.select("sha", "loc_added", "loc_deleted", "code_added").unique("sha"), on="sha", how="left")
        .group_by("work_item_id")
        .agg(pl.col("loc_added").fill_null(0).sum().alias("lines_added"),
             pl.col("loc_deleted").fill_null(0).sum().alias("lines_deleted"),
             pl.col("code_added").fill_null(0).sum().alias("code_lines_added"))
    )
    items = credit.join(item_loc, on="work_item_id", how="left")
    if work_items is not None and {"later_reverted", "reverted_by", "relanded_by"} <= set(work_items.columns):
        items = items.join(
            work_items.select(
                "work_item_id",
                pl.when(pl.col("later_reverted").fill_null(False)).then(pl.col("reverted_by"))
                .otherwise(pl.lit(None, _EMPTY_STR_LIST)).alias("reverted_by"),
                pl.col("relanded_by"),
            ).unique("work_item_id"),
            on="work_item_id", how="left",
        )
    elif links is not None and links.height:
        reverted = (
            per_sha.join(
                links.filter(pl.col("link_type") == "reverts").select(pl.col("target_sha").alias("sha"),
                                                                      pl.col("sha").alias("_by")),
                on="sha", how="inner",
            )
            .group_by("work_item_id")
            .agg(pl.col("_by").unique().sort().alias("reverted_by"))
        )
        items = items.join(reverted, on="work_item_id", how="left")
    else:
        items = items.with_columns(pl.lit(None, _EMPTY_STR_LIST).alias("reverted_by"))
    # releases are listed too (hyper's 109 release items had read "1 chore change" a month):
    # the chore items titled `Release <version>`, newest first (their size says nothing)
    released = (pl.col("category") == "chore") & pl.col("title").fill_null("").str.contains(RELEASE_ITEM_TITLE)
    items = (
        items.filter(pl.col("category").is_in(["feature", "bug", "revert", "perf"]) | released)
        .with_columns(pl.when(released).then(pl.lit("release")).otherwise(pl.col("category")).alias("category"),
                      pl.when(released).then(pl.lit(0, pl.Int64))
                      .otherwise(pl.col("lines_added") + pl.col("lines_deleted")).alias("_size"),
                      # a change that did not stay comes after those that did, whatever its size
                      # (zod: a feature its author reverted 11 minutes later had led April's list)
                      (pl.col("reverted_by").list.len().fill_null(0) > 0).alias("_undone"))
        .sort(["person_id", "month", "category", "_undone", "_size", "landed_at", "work_item_id"],
              descending=[False, False, False, False, True, True, False])
        # (every release: the month and the summary count them from this list; vue's September
        # 2024, eleven releases, had read "and 7 more" and "27 releases" for 28)
        .filter((pl.int_range(pl.len()).over("person_id", "month", "category") < MAX_ITEMS_PER_MONTH)
                | (pl.col("category") == "release"))
    )
    out: dict = {}
    for row in items.iter_rows(named=True):  # at most MAX_ITEMS_PER_MONTH per person-month-category
        item = {
            "work_item_id": row["work_item_id"],
            "title": row["title"] or "",
            "repo": row["repo"],
            "shas": list(row["shas"]),
            "lines_added": int(row["lines_added"] or 0),
            "lines_deleted": int(row["lines_deleted"] or 0),
            "code_lines_added": int(row["code_lines_added"] or 0),
        }
        if row["reverted_by"]:
            item["reverted_by"] = list(row["reverted_by"])
        if row.get("relanded_by"):
            item["relanded_by"] = list(row["relanded_by"])
        out.setdefault((row["person_id"], row["month"], row["category"]), []).append(item)
    return out


def _groups(frame: pl.DataFrame, key: str) -> dict:
    return {k[0]: g for k, g in frame.group_by(key, maintain_order=True)} if frame.height else {}


def _link_same_names(profiles: list[dict]) -> None:
    """Give each profile `same_name`: the other profiles under the same full name (two words or
    more, compared as their slugs), most commits first. They stay apart (a name alone merges
    no one: SPEC §5), but a reader of one sees where the rest of that name's work is: requests'
    Kenneth Reitz and retrofit's Jake Wharton were four profiles each, one of them seemingly idle
    for years; the config's `identities` joins them when they are one person."""
    by_name: dict[str, list[dict]] = {}
    for profile in profiles:
        key = slugify(profile["name"])
        if "-" in key:  # two words or more
            by_name.setdefault(key, []).append(profile)
    for profile in profiles:
        others = [o for o in by_name.get(slugify(profile["name"]), []) if o is not profile]
        profile["same_name"] = [{"id": o["id"], "commits": o["stats"]["commits"]}
                                for o in sorted(others, key=lambda o: (-o["stats"]["commits"], o["id"]))]


def build_profiles(
    people: pl.DataFrame,
    commits: pl.DataFrame,
    work_items: pl.DataFrame,
    monthly: pl.DataFrame,
    repo_rollups: pl.DataFrame,
    quality: pl.DataFrame,
    file_changes: pl.DataFrame,
    commit_skills: pl.DataFrame | None,
    window,
    generated_at,
    include_emails: bool = False,
    commit_links: pl.DataFrame | None = None,
    themes: pl.DataFrame | None = None,
    repo_urls: Mapping[str, str | None] | None = None,
    credit: pl.DataFrame | None = None,
) -> list[dict]:
    """One profile dictionary per non-bot person with a counted commit, ordered by person id.

    ``monthly`` / ``repo_rollups`` / ``quality`` are the outputs of :func:`monthly_rollups`,
    :func:`repo_rollups` and :func:`quality_metrics` over the same ``commits``. ``repo_urls``
    maps repository names to their remote (:func:`exceeds_pipeline.site.forge.repository_web_urls`);
    ``repositories[].url`` is the GitHub/GitLab web address, credentials stripped, else null.
    """
    counted = counted_commits(commits)
    bots = set(people.filter(pl.col("is_bot").fill_null(False))["person_id"].to_list()) if people.height else set()
    person_ids = sorted(set(counted["person_id"].unique().to_list()) - bots)
    if not person_ids:
        return []
    win = normalize_window(window)
    stamp = _timestamp(generated_at)
    counted = counted.filter(pl.col("person_id").is_in(person_ids))
    loc = commit_profile_loc(file_changes, code=_code_file())
    credit = credit if credit is not None else work_item_credit(commits, work_items)
    month_items = _month_items(credit, loc, commit_links, work_items)
    month_categories: dict = {}
    for pid_, month_, category_, n_ in (
        credit.group_by("person_id", "month", "category").agg(pl.len()).sort("person_id", "month", "category").iter_rows()
    ):
        month_categories.setdefault((pid_, month_), {})[category_ or "other"] = int(n_)

    who = counted.select("repo", "sha", "person_id", "month")
    lang_rows = (
        profile_language_lines(file_changes)
        .select("repo", "sha", "language", pl.col("lines_added").alias("_a"), pl.col("lines_deleted").alias("_d"))
        .join(who.lazy(), on=["repo", "sha"], how="inner")
        .with_columns(pl.col("_a").alias("_lines"))
        .collect()
    ) if "language" in file_changes.columns else pl.DataFrame(
        schema={"repo": pl.String, "sha": pl.String, "language": pl.String, "_a": pl.Int64, "_d": pl.Int64,
                "person_id": pl.String, "month": pl.String, "_lines": pl.Int64})
    # A language the person wrote lines in, by lines added: one only deleted from (an obsolete
    # page, a Vim script or a TeX file removed) is none they write in.
    month_langs = None if "languages" in monthly.columns else _ranked(
        lang_rows.filter(pl.col("_lines") > 0), ["person_id", "month"], "language", "_lines", "languages")
    languages = (
        lang_rows.group_by("person_id", "language")
        .agg(pl.col("_a").sum().alias("lines_added"), pl.col("_d").sum().alias("lines_deleted"),
             pl.col("sha").filter(pl.col("_a") > 0).n_unique().alias("commits"), pl.col("_lines").sum().alias("_w"))
        .filter(pl.col("_w") > 0)
        .sort(["person_id", "_w", "lines_deleted", "language"], descending=[False, True, True, False])
    )
    if commit_skills is not None and commit_skills.height:
        skill_rows = (
            commit_skills.select("repo", "sha", "skills")
            .join(who, on=["repo", "sha"], how="inner")
            .explode("skills", empty_as_null=False)
            .drop_nulls("skills")
            .unique(["repo", "sha", "skills"])
            .rename({"skills": "skill"})
            .with_columns(pl.lit(1).alias("_one"))
        )
    else:
        skill_rows = pl.DataFrame(schema={"repo": pl.String, "sha": pl.String, "skill": pl.String,
                                          "person_id": pl.String, "month": pl.String, "_one": pl.Int32})
    month_skills = None if "skills" in monthly.columns else _ranked(
        skill_rows, ["person_id", "month"], "skill", "_one", "skills")
    skills = (
        skill_rows.group_by("person_id", "skill").agg(pl.len().alias("commits"))
        .sort(["person_id", "commits", "skill"], descending=[False, True, False])
    )
    activity = (
        counted.group_by("person_id", "author_date").agg(pl.len().alias("n")).sort("person_id", "author_date")
    )
    month_facts = monthly.filter(pl.col("person_id").is_in(person_ids))
    if "languages" not in monthly.columns:  # rollups of an older version
        month_facts = (month_facts.join(month_langs, on=["person_id", "month"], how="left")
                       .join(month_skills, on=["person_id", "month"], how="left"))
    month_facts = month_facts.sort(["person_id", "month"], descending=[False, True])
    repos = repo_rollups.filter(pl.col("person_id").is_in(person_ids)).sort(
        ["person_id", "commits", "repo"], descending=[False, True, False]
    )

    by_person = {
        "months": _groups(month_facts, "person_id"),
        "repos": _groups(repos, "person_id"),
        "languages": _groups(languages, "person_id"),
        "skills": _groups(skills, "person_id"),
        "activity": _groups(activity, "person_id"),
        "quality": _groups(quality, "person_id"),
    }
    people_rows = {r["person_id"]: r for r in people.iter_rows(named=True)} if people.height else {}
    names = (
        counted.group_by("person_id", "author_name").agg(pl.len().alias("n"))
        .sort(["person_id", "n", "author_name"], descending=[False, True, False])
        .unique("person_id", keep="first")
    )
    fallback_names = dict(zip(names["person_id"], names["author_name"]))
    raw_loc = {
        r[0]: (int(r[1] or 0), int(r[2] or 0))
        for r in counted.group_by("person_id").agg(pl.col("lines_added").sum(), pl.col("lines_deleted").sum()).iter_rows()
    }

    def rows(kind: str, pid: str) -> list[dict]:
        g = by_person[kind].get(pid)
        return g.to_dicts() if g is not None else []

    profiles = []
    for pid in person_ids:
        person = people_rows.get(pid, {})
        name = person.get("display_name") or fallback_names.get(pid) or pid
        months = rows("months", pid)
        work_history = []
        for m in months:
            entry = {
                "month": m["month"],
                "commits": int(m["commits"]),
                "features": int(m["features"]),
                "bugs": int(m["bugs"]),
                "lines_added": int(m["lines_added"]),
                "lines_deleted": int(m["lines_deleted"]),
                "repos": list(m["repos"] or []),
                "languages": list(m.get("languages") or []),
                "skills": list(m.get("skills") or []),
                "work_items": month_categories.get((pid, m["month"]), {}),
                "summary": "",
                "key_features": month_items.get((pid, m["month"], "feature"), []),
                "bugs_fixed": month_items.get((pid, m["month"], "bug"), []),
                "reverts": month_items.get((pid, m["month"], "revert"), []),
                "performance": month_items.get((pid, m["month"], "perf"), []),
                "releases": month_items.get((pid, m["month"], "release"), []),
            }
            work_history.append(entry)
        features = sum(e["features"] for e in work_history)
        bugs = sum(e["bugs"] for e in work_history)
        added = sum(e["lines_added"] for e in work_history)
        deleted = sum(e["lines_deleted"] for e in work_history)
        repo_rows = rows("repos", pid)
        quality_rows = {q["metric"]: q for q in rows("quality", pid)}
        quality_out = {}
        for metric in METRICS:
            q = quality_rows.get(metric)
            value = q["value"] if q else None
            quality_out[metric] = {
                "value": None if value is None else round(float(value), 4),
                "evidence_count": int(q["evidence_count"]) if q else 0,
                "method": q["method"] if q else "Not computed.",
                "evidence_shas": list(q.get("evidence_shas") or []) if q else [],
            }
        profile = {
            "schema_version": SCHEMA_VERSION,
            "id": pid,
            "name": name,
            **({"emails": sorted(set(person.get("emails") or []))} if include_emails else {}),
            "generated_at": stamp,
            "window": win,
            "summary": "",
            "stats": {
                "commits": sum(e["commits"] for e in work_history),
                "repository_contributions": len(repo_rows),
                "features": features,
                "bugs": bugs,
                "feature_pct": round(100.0 * features / (features + bugs), 1) if features + bugs else None,
                "lines_of_code": {"added": added, "deleted": deleted, "total": added + deleted,
                                  "raw_added": raw_loc.get(pid, (0, 0))[0], "raw_deleted": raw_loc.get(pid, (0, 0))[1]},
                "activity_months": len(work_history),
                "first_month": min((e["month"] for e in work_history), default=None),
                "last_month": max((e["month"] for e in work_history), default=None),
            },
            "work_history": work_history,
            "activity": {r["author_date"].isoformat(): int(r["n"]) for r in rows("activity", pid)},
            "quality": quality_out,
            "skills": {
                "languages": [
                    {"name": r["language"], "lines_added": int(r["lines_added"]),
                     "lines_deleted": int(r["lines_deleted"]), "commits": int(r["commits"])}
                    for r in rows("languages", pid)
                ],
                "technical": [{"name": r["skill"], "commits": int(r["commits"])} for r in rows("skills", pid)],
            },
            "repositories": [
                {
                    "name": r["repo"], "first_month": r["first_month"], "last_month": r["last_month"],
                    "months_active": int(r["months_active"]), "commits": int(r["commits"]),
                    "features": int(r["features"]), "bugs": int(r["bugs"]),
                    "lines_added": int(r["lines_added"]), "lines_deleted": int(r["lines_deleted"]),
                    "languages": list(r["languages"] or []), "skills": list(r["skills"] or []),
                    "url": forge_web_url((repo_urls or {}).get(r["repo"])),
                }
                for r in repo_rows
            ],
            "definitions": dict(DEFINITIONS),
        }
        profiles.append(profile)
    _link_same_names(profiles)
    # Themes, skill evidence, mirrors and the narrative: the month and profile summaries are
    # written there, once the themes they name are known (exceeds_pipeline.themes.profile).
    return attach_story(profiles, commits, work_items, file_changes, commit_skills, themes)
