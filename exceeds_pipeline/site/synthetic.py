"""Synthetic but realistic profiles (valid against ``profile.schema.json``) for the site
benchmark and tests: a deterministic team of any size, shaped like a large organisation's
(most people active a year or two over a few repositories, a few for many years and many
repositories; bursty days; some quality metrics without evidence).
"""

from __future__ import annotations

import hashlib
import random
from datetime import date, timedelta

__all__ = ["synthetic_profiles"]

_FIRST = ["Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Frances", "Guido", "Radia",
          "Bjarne", "Hedy", "Yukihiro", "Anita", "Tim", "Katherine", "José", "Zoë", "Łukasz", "Søren",
          "Nguyễn", "Amélie", "Chidi", "Priya", "Wei", "Olga", "Mateus", "Aiko", "Fatima", "Diego"]
_LAST = ["Lovelace", "Hopper", "Torvalds", "Hamilton", "Thompson", "Liskov", "Ritchie", "Allen", "van Rossum",
         "Perlman", "Stroustrup", "Lamarr", "Matsumoto", "Borg", "Berners-Lee", "Johnson", "Valim", "Müller",
         "Langa", "Kierkegaard", "Văn An", "Poulain", "Okafor", "Natarajan", "Zhang", "Petrova", "Silva",
         "Tanaka", "Haddad", "Ramírez"]
_LANGUAGES = ["Python", "TypeScript", "C++", "Go", "Rust", "Java", "JavaScript", "Cuda", "Shell", "SQL",
              "Kotlin", "Swift", "C", "Ruby", "HCL", "Dockerfile", "CMake", "Markdown", "YAML", "reStructuredText",
              "Jupyter Notebook", "Protocol Buffer Text Format"]
_SKILLS = ["API Development", "Testing", "Documentation", "Build Systems", "Caching", "Database/SQL",
           "Performance Optimization", "Machine Learning", "GPU Programming", "Security", "CI/CD",
           "Frontend", "Concurrency", "Networking", "Observability", "Infrastructure as Code"]
_VERBS = ["Add", "Support", "Implement", "Introduce", "Enable", "Expose", "Refine", "Speed up"]
_BUG_VERBS = ["Fix", "Handle", "Avoid", "Prevent", "Correct"]
_THINGS = ["pagination for list endpoints", "streaming reader for JSONL", "retry with backoff on 503",
           "dark mode in the settings page", "fused attention kernel", "incremental ingest of refs",
           "rate limiter per API token", "schema migration for user tables", "Unicode file names",
           "crash when the config is empty", "off-by-one in the window end", "race in the cache eviction",
           "memory leak in the websocket handler", "wrong time zone in monthly rollups",
           "<script>alert('x')</script> in commit subjects", "timeouts on large diffs"]
_METHODS = {
    "correctness": "Share of the person's work items not later reverted or named as broken (Revert, "
                   "This reverts commit, Fixes: <sha>, SZZ).",
    "maintainability": "Delta Maintainability Model (unit size and complexity) over the person's changes.",
    "architecture": "DMM unit interfacing, and how changes keep tests beside code.",
    "performance": "Share of added lines that survive 21 days without being rewritten or deleted.",
    "ai_usage": "Share of commits carrying a declared AI-assistance marker.",
}


def _sha(*parts) -> str:
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()


def _months_between(first: date, count: int) -> list[str]:
    out = []
    y, m = first.year, first.month
    for _ in range(count):
        out.append(f"{y:04d}-{m:02d}")
        m += 1
        if m == 13:
            y, m = y + 1, 1
    return out


def _person(rng: random.Random, i: int, repos: list[tuple[str, str | None]], end: date) -> dict:
    first, last = rng.choice(_FIRST), rng.choice(_LAST)
    name = f"{first} {last}"
    pid = f"{first}-{last}-{i}".lower().replace(" ", "-")
    pid = "".join(c if c.isascii() and (c.isalnum() or c == "-") else "x" for c in pid)
    span = min(96, max(1, int(rng.lognormvariate(2.6, 0.8))))  # months between first and last
    start_back = span + rng.randint(0, 24)
    first_day = date(end.year, end.month, 1) - timedelta(days=31 * start_back)
    all_months = _months_between(date(first_day.year, first_day.month, 1), span)
    active = sorted(rng.sample(all_months, max(1, int(len(all_months) * rng.uniform(0.4, 1.0)))))
    mine = rng.sample(repos, min(len(repos), max(1, int(rng.expovariate(0.6)) + 1)))
    langs = rng.sample(_LANGUAGES, rng.randint(1, 6))
    skills = rng.sample(_SKILLS, rng.randint(0, 7))
    rate = rng.uniform(0.1, 1.2)  # commits per working day when active

    activity: dict[str, int] = {}
    history = []
    repo_facts = {r: {"months": set(), "commits": 0, "features": 0, "bugs": 0, "added": 0, "deleted": 0}
                  for r, _ in mine}
    for month in reversed(active):  # newest first
        y, m = map(int, month.split("-"))
        day = date(y, m, 1)
        commits = 0
        while day.month == m:
            if day.weekday() < 5 and rng.random() < min(0.95, rate):
                n = 1 + int(rng.expovariate(0.7))
                activity[day.isoformat()] = n
                commits += n
            day += timedelta(days=1)
        if commits == 0:
            activity[f"{y:04d}-{m:02d}-15"] = 1
            commits = 1
        features = rng.randint(0, max(1, commits // 4))
        bugs = rng.randint(0, max(1, commits // 5))
        added = commits * rng.randint(5, 120)
        deleted = int(added * rng.uniform(0.05, 0.6))
        month_repos = [r for r, _ in rng.sample(mine, rng.randint(1, len(mine)))]
        for r in month_repos:
            f = repo_facts[r]
            f["months"].add(month)
        share = len(month_repos)
        for k, r in enumerate(month_repos):
            f = repo_facts[r]
            f["commits"] += commits // share + (1 if k < commits % share else 0)
            f["features"] += features // share + (1 if k < features % share else 0)
            f["bugs"] += bugs // share + (1 if k < bugs % share else 0)
            f["added"] += added // share
            f["deleted"] += deleted // share

        def items(kind: str, count: int) -> list[dict]:
            verbs = _VERBS if kind == "f" else _BUG_VERBS
            return [
                {"title": f"{rng.choice(verbs)} {rng.choice(_THINGS)}", "repo": rng.choice(month_repos),
                 "shas": [_sha(pid, month, kind, j, s) for s in range(1 + int(rng.expovariate(1.5)))],
                 "lines_added": rng.randint(1, 400), "lines_deleted": rng.randint(0, 120)}
                for j in range(min(10, count))
            ]

        key_features, bugs_fixed = items("f", features), items("b", bugs)
        history.append({
            "month": month, "commits": commits, "features": features, "bugs": bugs,
            "lines_added": added, "lines_deleted": deleted, "repos": month_repos,
            "languages": rng.sample(langs, min(len(langs), 3)), "skills": rng.sample(skills, min(len(skills), 3)),
            "work_items": {k: v for k, v in (("feature", features), ("bug", bugs)) if v},
            "summary": f"In {month}, {name} made {commits} commits to {', '.join(month_repos)}, finishing "
                       f"{features} features and fixing {bugs} bugs.",
            "key_features": key_features, "bugs_fixed": bugs_fixed,
            "reverts": [],
        })
    # months whose commits all landed on one repo may have left another repo without months
    repo_facts = {r: f for r, f in repo_facts.items() if f["months"]}
    total_commits = sum(h["commits"] for h in history)
    features = sum(h["features"] for h in history)
    bugs = sum(h["bugs"] for h in history)
    added = sum(h["lines_added"] for h in history)
    deleted = sum(h["lines_deleted"] for h in history)
    months = [h["month"] for h in history]
    url_of = dict(mine)
    quality = {}
    for metric, method in _METHODS.items():
        evidence = 0 if rng.random() < 0.15 else rng.randint(1, max(1, total_commits))
        quality[metric] = {"value": round(rng.uniform(0.3, 1.0), 4) if evidence else None,
                           "evidence_count": evidence, "method": method, "evidence_shas": []}
    lang_lines = sorted(((rng.randint(10, 5000), lang) for lang in langs), reverse=True)
    return {
        "schema_version": "1.0.0",
        "id": pid,
        "name": name,
        "generated_at": "2026-11-23T00:00:00Z",
        "window": {"since": None, "until": None},
        "summary": f"{name} made {total_commits:,} counted commits to {len(repo_facts)} repositories between "
                   f"{min(months)} and {max(months)}, finishing {features} features and fixing {bugs} bugs.",
        "stats": {
            "commits": total_commits, "repository_contributions": len(repo_facts),
            "features": features, "bugs": bugs,
            "feature_pct": round(100.0 * features / (features + bugs), 1) if features + bugs else None,
            "lines_of_code": {"added": added, "deleted": deleted, "total": added + deleted},
            "activity_months": len(history), "first_month": min(months), "last_month": max(months),
        },
        "work_history": history,
        "activity": dict(sorted(activity.items())),
        "quality": quality,
        "skills": {
            "languages": [{"name": lang, "lines_added": n, "lines_deleted": n // 3,
                           "commits": max(1, total_commits * n // 20000)} for n, lang in lang_lines],
            "technical": sorted(({"name": s, "commits": rng.randint(1, max(1, total_commits))} for s in skills),
                                key=lambda s: (-s["commits"], s["name"])),
        },
        "repositories": sorted(
            ({"name": r, "first_month": min(f["months"]), "last_month": max(f["months"]),
              "months_active": len(f["months"]), "commits": f["commits"], "features": f["features"],
              "bugs": f["bugs"], "lines_added": f["added"], "lines_deleted": f["deleted"],
              "languages": langs[:3], "skills": skills[:3], "url": url_of[r]}
             for r, f in repo_facts.items()),
            key=lambda r: (-r["commits"], r["name"]),
        ),
    }


def synthetic_profiles(count: int, seed: int = 7, end: date = date(2026, 10, 31)) -> list[dict]:
    """``count`` deterministic profiles with distinct ids, over a pool of repositories (half of
    them on GitHub or GitLab)."""
    rng = random.Random(seed)
    pool = []
    for k in range(max(4, count // 40)):
        name = f"org/service-{k:03d}"
        url = (f"https://github.com/{name}" if k % 3 == 0 else
               f"https://gitlab.com/{name}" if k % 3 == 1 else None)
        pool.append((name, url))
    return [_person(rng, i, pool, end) for i in range(count)]
