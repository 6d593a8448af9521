"""Deterministic prose for profiles, written only from facts already in the profile.

Both functions read the profile dictionary they describe (not the tables), so every sentence is
backed by a field of the same profile: counts from ``stats`` and ``work_history``, titles from
``key_features`` / ``bugs_fixed`` / ``reverts``, languages and skills from the lists, quality
figures from ``quality``. Nothing is ranked or judged unless the ranking is a field (lists are
already ordered by a documented measure), and no adjective is used that is not a computed fact.
The same profile always gives the same text (English, fixed wording).
"""

from __future__ import annotations

import calendar
import re

__all__ = ["month_summary", "profile_summary", "title_text"]

MAX_TITLES = 3  # work items named per sentence
MAX_NAMES = 3  # repositories / languages / skills named per sentence
TITLE_CHARS = 90


def _n(value: int) -> str:
    return f"{value:,}"


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{_n(count)} {word if count == 1 else (plural or word + 's')}"


def _join(items: list[str]) -> str:
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _names(items: list[str], limit: int = MAX_NAMES) -> str:
    """'a, b and c' or 'a, b, c and 2 more'."""
    if len(items) <= limit:
        return _join(items)
    return ", ".join(items[:limit]) + f" and {len(items) - limit} more"


def month_name(month: str) -> str:
    """'2025-03' -> 'March 2025'."""
    year, mon = month.split("-")
    return f"{calendar.month_name[int(mon)]} {year}"


def title_text(title: str | None) -> str:
    """A work item title on one line, at most TITLE_CHARS characters."""
    text = re.sub(r"\s+", " ", title or "").strip() or "(untitled)"
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1].rstrip() + "…"


def _quoted(item: dict) -> str:
    return "“" + title_text(item["title"]) + "” (" + item["repo"] + ")"


def _items(items: list[dict], total: int) -> str:
    named = [_quoted(i) for i in items[:MAX_TITLES]]
    if total > len(named):
        return ", including " + _join(named)
    return ": " + _join(named)


def month_summary(name: str, entry: dict) -> str:
    """A monthly report paragraph for one ``work_history`` entry."""
    month = month_name(entry["month"])
    repos = entry.get("repos") or []
    parts = [
        f"In {month}, {name} made {_plural(entry['commits'], 'commit')}"
        + (f" to {_names(repos)}" if repos else "")
        + f", adding {_plural(entry['lines_added'], 'line')} and removing {_n(entry['lines_deleted'])}."
    ]
    features, bugs = entry["features"], entry["bugs"]
    if features:
        parts.append(f"Finished {_plural(features, 'feature')}{_items(entry['key_features'], features)}.")
    if bugs:
        parts.append(f"Fixed {_plural(bugs, 'bug')}{_items(entry['bugs_fixed'], bugs)}.")
    other = {c: n for c, n in (entry.get("work_items") or {}).items()
             if c not in ("feature", "bug", "revert") and n}
    listed = _join([f"{_n(n)} {c}" for c, n in sorted(other.items(), key=lambda kv: (-kv[1], kv[0]))])
    if features or bugs:
        if other:
            parts.append(f"Other work items finished: {listed}.")
    elif other:
        parts.append(f"Work items finished: {listed} (no feature or bug fix).")
    elif not entry.get("reverts"):
        parts.append("No work item was finished this month.")
    reverted = [i for i in entry["key_features"] + entry["bugs_fixed"] if i.get("reverted_by")]
    if reverted:
        parts.append(
            "Later reverted: " + _join([_quoted(i) for i in reverted[:MAX_TITLES]])
            + (f" and {len(reverted) - MAX_TITLES} more" if len(reverted) > MAX_TITLES else "")
            + "."
        )
    reverts = entry.get("reverts") or []
    if reverts:
        parts.append(
            f"Reverted {_plural(len(reverts), 'change')}: "
            + _join([title_text(i["title"]) + " (" + i["repo"] + ")" for i in reverts[:MAX_TITLES]])
            + (f" and {len(reverts) - MAX_TITLES} more" if len(reverts) > MAX_TITLES else "")
            + "."
        )
    if entry.get("languages"):
        parts.append(f"Languages by lines changed: {_names(entry['languages'])}.")
    if entry.get("skills"):
        parts.append(f"Skills by commits: {_names(entry['skills'])}.")
    return " ".join(parts)


def _pct(value: float) -> str:
    return f"{round(value * 100):d}%"


def profile_summary(profile: dict) -> str:
    """The profile's opening paragraph."""
    name, stats = profile["name"], profile["stats"]
    repos = [r["name"] for r in profile["repositories"]]
    months = [e["month"] for e in profile["work_history"]]
    loc = stats["lines_of_code"]
    parts = [
        f"{name} made {_plural(stats['commits'], 'counted commit')} to "
        f"{_plural(stats['repository_contributions'], 'repository', 'repositories')}"
        + (f" ({_names(repos)})" if repos else "")
        + (
            f" between {month_name(min(months))} and {month_name(max(months))}" if len(set(months)) > 1
            else f" in {month_name(months[0])}" if months else ""
        )
        + f", active in {_plural(stats['activity_months'], 'month')}."
    ]
    features, bugs = stats["features"], stats["bugs"]
    if features or bugs:
        parts.append(
            f"They finished {_plural(features, 'feature')} and {_plural(bugs, 'bug fix', 'bug fixes')}"
            f" ({stats['feature_pct']:g}% features)."
        )
    else:
        parts.append("No feature or bug-fix work item is credited to them.")
    parts.append(
        f"They added {_plural(loc['added'], 'line')} of code and removed {_n(loc['deleted'])} "
        "(binary, vendored, generated and lock files not counted)."
    )
    langs = [lang["name"] for lang in profile["skills"]["languages"]]
    if langs:
        parts.append(f"Languages by lines changed: {_names(langs)}.")
    skills = [s["name"] for s in profile["skills"]["technical"]]
    if skills:
        parts.append(f"Technical skills by commits: {_names(skills)}.")
    q = profile["quality"]
    corr = q["correctness"]
    if corr["value"] is not None:
        parts.append(
            f"Correctness is {_pct(corr['value'])} over {_plural(corr['evidence_count'], 'work item')} "
            "(work items later reverted or fixed by another change count against it)."
        )
    ai = q["ai_usage"]
    if ai["value"] is not None and ai["value"] > 0:
        declared = round(ai["value"] * ai["evidence_count"])
        parts.append(f"AI assistance is declared on {_n(declared)} of {_plural(ai['evidence_count'], 'commit')}.")
    return " ".join(parts)
