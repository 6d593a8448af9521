"""Deterministic prose for profiles, written only from facts already in the profile.

Both summaries read the profile dictionary they describe (not the tables): counts from
``stats`` and ``work_history``, what was built and fixed from ``key_features`` / ``bugs_fixed``
(clean titles: no ``Reapply "…"``, PR numbers, tags or quotes; the raw title stays in the
item), the areas from ``themes``, where from ``repositories`` (with ``mirror_of`` when a
repository's commits name another repository's pull requests), skills from ``skills``.

Every sentence is returned with the work items behind it (:func:`month_sentences`,
:func:`profile_sentences`: ``[{"text", "work_item_ids"}]``), and the profile carries them as
``summary_evidence`` beside the prose. The wording depends on the facts: a month with one
change reads as that change; a busy month leads with its areas and counts. Sentence shapes are
picked by a stable hash of the month, and a sentence already used for another month of the
same person is rephrased, so no sentence repeats across months by template. Same profile,
same text.
"""

from __future__ import annotations

import calendar
import hashlib
import re
import statistics
from functools import lru_cache

from exceeds_pipeline.themes.text import clean_title

__all__ = ["month_sentences", "month_summary", "profile_sentences", "profile_summary", "title_text", "write_story"]

MAX_TITLES = 3  # work items named per sentence
MAX_NAMES = 3  # repositories / themes / skills named per sentence
MAX_PERF_TITLES = 2  # performance work items named beside the other kinds of work
TITLE_CHARS = 90


def _n(value: int) -> str:
    return f"{value:,}"


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{_n(count)} {word if count == 1 else (plural or word + 's')}"


def _join(items: list[str]) -> str:
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if any("," in i for i in items):  # titles with commas of their own: semicolons between them
        return "; ".join(items[:-1]) + "; and " + items[-1]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _join_more(items: list[str], more: str) -> str:
    """A list cut short: `A, B, C and 2 more features` (one "and", before what was left out)."""
    items = [i for i in items if i]
    if not more:
        return _join(items)
    sep = "; " if any("," in i for i in items) else ", "
    return sep.join(items) + " and " + more


def _names(items: list[str], limit: int = MAX_NAMES) -> str:
    if len(items) <= limit:
        return _join(items)
    return ", ".join(items[:limit]) + f" and {len(items) - limit} more"


@lru_cache(maxsize=4096)  # called for every month of every profile; strftime is slow
def month_name(month: str) -> str:
    year, mon = month.split("-")
    return f"{calendar.month_name[int(mon)]} {year}"


# a string literal in code: after `=` or `(`, up to 40 characters without spaces
_CODE_STRING = re.compile(r'([=(])"([^"\s]{0,40})"')


# where one phrase of a title ends and the next begins: "Fix v0 config. Clear cache"
# (not after an abbreviation: FastAPI's "... used to use router.routes (e.g. Jupyverse)" had been
# cut at "(e.g." and run into the next sentence)
_PHRASE_END = re.compile(r"(?<=[a-z0-9)])(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bcf)\.\s+(?=[A-Z])")
_ISSUE_ONLY = re.compile(r"(?i)\W*(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|re|refs?|see|for)\W*)?"
                         r"(?:issue[\s_#-]*|gh-|#)\d+\W*")


@lru_cache(maxsize=1 << 16)  # a title is rendered in several sentences of several months
def title_text(title: str | None) -> str:
    """A work item title for prose: wrappers, tags, PR numbers and quotes removed, one line,
    at most TITLE_CHARS characters."""
    # quotation marks go; a string literal in code stays (rack's `disallow PATH_INFO="" SCRIPT_NAME=""`
    # had read "disallow PATH_INFO= SCRIPT_NAME=")
    text = _CODE_STRING.sub(lambda m: m.group(1) + "\0" + m.group(2) + "\0", clean_title(title).prose)
    text = re.sub(r"[\"“”`]", "", text).replace("\0", '"').strip() or "(untitled)"
    # one phrase: "Fix v0 config. Clear cache" -> first; a first phrase that only names an issue
    # gives way to the next (urfave/cli's "Fix:(issue_1288). Add windows specific env format")
    phrases = _PHRASE_END.split(text, maxsplit=1)
    text = phrases[1] if len(phrases) > 1 and _ISSUE_ONLY.fullmatch(phrases[0]) else phrases[0]
    text = _PHRASE_END.split(text, maxsplit=1)[0]
    if len(text) <= TITLE_CHARS:
        return text
    # cut at a clause, else a word, never inside one (sinatra: "... makes yield_content usage con…")
    cut = text[: TITLE_CHARS - 1]
    at = max(cut.rfind(", "), cut.rfind("; "))
    if at < TITLE_CHARS // 2:
        at = cut.rfind(" ")
    cut = cut[:at] if at > 0 else cut
    # a parenthesis the cut leaves open goes with it (FastAPI's "... router.routes (e.g.…")
    if cut.count("(") > cut.count(")") and cut.rfind(" (") > TITLE_CHARS // 2:
        cut = cut[: cut.rfind(" (")]
    return cut.rstrip(" ,;:-") + "…"


def _release_name(title: str | None) -> str:
    """What a release item released: `Release 5.75.0` -> "5.75.0", `Release grep-cli 0.1.10` ->
    "grep-cli 0.1.10"."""
    return re.sub(r"^Release\s+", "", title or "").strip() or "a release"


def _inline(title: str | None, revert_word: bool = True) -> str:
    """A clean title inside a sentence: first letter lower-cased unless it is an acronym or a name.
    A title that reverts something keeps its word (jekyll's fix `Revert Commands::Serve#server_address
    signature change.` had read "New features: Commands::Serve#server_address signature change.")
    unless the sentence says it reverted (`revert_word=False`)."""
    text = title_text(title)
    if revert_word and clean_title(title).wrapper == "revert" and text != "(untitled)":
        text = "Revert " + text
    first = text.split(" ")[0]
    if re.fullmatch(r"[A-Z][a-z]+(?:[-/][a-z]+)*", first):
        return text[0].lower() + text[1:]
    return text


# A title that only says a history began (redis's "first commit", the 2009 import, was
# antirez's largest feature): it names nothing that was built, so it heads no list of the largest.
INITIAL_COMMIT = re.compile(r"(?i)^\s*(?:the\s+)?(?:initial|first|init)(?:ial)?(?:\s+(?:commit|import|version|revision|check-?in|upload))?\s*[.!]*\s*$")

# (with a bare "bug," or "," after it: FastAPI's "Fix bug, allow empty path ..." and "Fix, avoid
# yield from a TaskGroup ..." had read "Fixed: bug, allow ..." and "On the fixing side: Fix, avoid ...")
_FIX_VERB = re.compile(r"(?i)^(?:fix(?:es|ed)?|bugfix|hotfix)(?:\s+(?:a\s+|the\s+)?bugs?\s*,|\s*,)?\s*:?\s+(?:for\s+|to\s+)?")


def _fix_text(title: str | None) -> str:
    """A bug-fix title after the word "Fixed": its own leading fix verb dropped."""
    text = _inline(title)
    stripped = _FIX_VERB.sub("", text)
    # "fixed and adapted for ASN1tostr unit testing": the verb is one of two, not the lead;
    # "Fix up appveyor testing": the verb is "fix up" (tidy), and "up appveyor testing" no fix;
    # "Fix it so we never auto-fallback to page resources": the object is a pronoun, the
    # sentence needs its verb (hugo's "Fixed: it so we never ...")
    if re.match(r"(?i)(?:and|or|&|,|up|it|this|that|these|those|them|things)(?:\s|$)", stripped):
        return text
    # tig's "Fix #164 by catching SIGHUP": what was fixed is the issue ("Fixed: issue #164 by
    # catching SIGHUP", not "#164 by catching SIGHUP")
    if re.match(r"#\d", stripped):
        return "issue " + stripped
    return stripped if stripped and stripped != text else text


@lru_cache(maxsize=1)
def _practice_skills() -> frozenset[str]:
    """The skills the shipped rules mark as practices (`practice: true` in skills.yaml)."""
    from exceeds_pipeline.enrich.skills import load_skill_rules

    return frozenset(r.name for r in load_skill_rules().rules if r.practice)


def _pick(key: str, options: list, used: set[str] | None, render, family: str | None = None) -> str:
    """The first rendering of the options, starting at a stable hash of ``key``, not in ``used``.

    With a ``family``, the shape the previous month took in that family is passed over (months
    are written one after another with one ``used`` set): consecutive months never open alike
    ("... was a busy month" twice in a row, in blocks, read as a template)."""
    start = int(hashlib.sha1(key.encode()).hexdigest()[:8], 16) % len(options)
    order = [options[(start + i) % len(options)] for i in range(len(options))]
    if family is not None and used is not None:
        last = f"\x00{family}\x00"
        previous = {u[len(last):] for u in used if u.startswith(last)}
        order = [o for o in order if o not in previous] + [o for o in order if o in previous]
    first = None
    chosen = None
    for option in order:  # rendered one at a time: the first unused one ends the search
        text = render(option)
        if used is None or text not in used:
            chosen = (option, text)
            break
        first = (option, text) if first is None else first
    option, text = chosen or first
    if family is not None and used is not None:
        used.difference_update({u for u in used if u.startswith(f"\x00{family}\x00")})
        used.add(f"\x00{family}\x00{option}")
    return text


def _ids(items: list[dict]) -> list[str]:
    out = []
    for item in items:
        wid = item.get("work_item_id") or (item["repo"] + "@" + item["shas"][0][:12] if item.get("shas") else None)
        if wid:
            out.append(wid)
    return out


def _sentence(text: str, ids: list[str]) -> dict:
    return {"text": text, "work_item_ids": sorted(dict.fromkeys(ids))}


def _named_themes(themes: list[dict], limit: int) -> list[dict]:
    """The first `limit` themes, less one that only narrows or widens a theme named before it
    (nlohmann/json's September 2023: "Input, Examples docs and Input JSON sax")."""
    chosen: list[dict] = []
    for theme in themes:
        words = theme["name"].lower().split()
        if any(words[:len(w)] == w or w[:len(words)] == words for w in (c["name"].lower().split() for c in chosen)):
            continue
        chosen.append(theme)
        if len(chosen) == limit:
            break
    return chosen


def _theme_names(themes: list[dict], limit: int = MAX_NAMES) -> list[str]:
    return [t["name"] for t in _named_themes(themes, limit)]


def _theme_ids(themes: list[dict], limit: int = MAX_NAMES) -> list[str]:
    return [w for t in _named_themes(themes, limit) for w in t.get("work_item_ids", [])]


def _where(repos: list[str], mirrors: dict[str, str]) -> str:
    named = [f"{r} (mirroring {mirrors[r]})" if r in mirrors else r for r in repos]
    return _names(named)


MIN_LANGUAGE_SHARE = 0.1  # "mostly in X, Y": a language with a few lines is not where the work was


def _main_languages(languages: list[dict]) -> list[str]:
    """The first languages (by lines changed) holding at least MIN_LANGUAGE_SHARE of the lines
    added and deleted; the first one always."""
    size = [lang.get("lines_added", 0) + lang.get("lines_deleted", 0) for lang in languages]
    total = sum(size)
    return [lang["name"] for i, (lang, n) in enumerate(zip(languages, size))
            if i == 0 or (total and n >= MIN_LANGUAGE_SHARE * total)][:MAX_NAMES]


# A month is busy or quiet for the person: against their own median active month (composer's
# Jordi Boggiano, 22 commits in a median month, had "a busy month" of 10), never below the
# absolute floors (10 commits busy, 3 light) that a median of a few commits would set.
BUSY, LIGHT = 10, 3
BUSY_FACTOR, LIGHT_FACTOR = 1.5, 0.4


def month_sentences(name: str, entry: dict, used: set[str] | None = None,
                    mirrors: dict[str, str] | None = None, typical: float | None = None) -> list[dict]:
    """The sentences of one month's summary, each with its work items. `typical`: the person's
    median commits in an active month."""
    mirrors = mirrors or {}
    used = used if used is not None else set()
    month = month_name(entry["month"])
    key = entry["month"]
    repos = entry.get("repos") or []
    themes = entry.get("themes") or []
    features = entry.get("key_features") or []
    bugs = entry.get("bugs_fixed") or []
    commits = entry["commits"]
    out: list[dict] = []
    where = _names(repos)  # a mirror is named once, in the profile summary
    areas = _join(_theme_names(themes))
    only = (features + bugs + (entry.get("reverts") or []))

    if commits == 1 and len(only) == 1:
        item = only[0]
        reverted = item not in bugs and item not in features
        kind = "a bug fix" if item in bugs else ("a revert" if reverted else "a new feature")
        title = _fix_text(item["title"]) if item in bugs else _inline(item["title"], revert_word=not reverted)
        # a revert's title names the change it undid: the sentence says so (sinatra: "only
        # commit was a revert in sinatra/sinatra: added PROPFIND verb support" read as added)
        lead = _pick(key, [
            "A single change in {m}: {name} reverted a change in {r}, {t}.",
            "{m} saw one commit from {name}, reverting a change in {r}: {t}.",
            "In {m} {name}'s only commit reverted a change in {r}: {t}.",
        ] if reverted else [
            "A single change in {m}, {k} in {r}: {t}.",
            "{m} saw one commit from {name}, {k} in {r}: {t}.",
            "In {m} {name}'s only commit was {k} in {r}: {t}.",
        ], used, lambda s: s.format(m=month, name=name, k=kind, t=title, r=item["repo"]), family="single")
        out.append(_sentence(lead, _ids([item])))
        only_one = True
    else:
        only_one = False
        n_items = sum((entry.get("work_items") or {}).values())
        busy = max(BUSY, BUSY_FACTOR * (typical or 0))
        light = max(LIGHT, LIGHT_FACTOR * (typical or 0))
        size = "busy" if commits >= busy else "light" if commits <= light else "steady"
        options = {
            "busy": [
                "{m} was a busy month for {name}: {c} across {i} in {w}, centred on {a}.",
                # (no superlative: a sentence of one month cannot know it was their busiest)
                "{name} kept busy in {m}, with {c} in {w}; most of it went into {a}.",
                "In {m} {name} landed {c} in {w}, the bulk of it on {a}.",
            ],
            "steady": [
                "In {m} {name} worked mainly on {a}, with {c} in {w}.",
                "{m}: {c} by {name} in {w}, focused on {a}.",
                "{name}'s {m} went into {a}: {c} in {w}.",
            ],
            "light": [
                "A quiet {m}: {c} by {name} in {w}, touching {a}.",
                "{name} made {c} in {m}, in {w}, on {a}.",
                "In {m}, {c} from {name} in {w} dealt with {a}.",
            ],
        }[size]
        if not areas:
            options = [o.replace(", centred on {a}", "").replace("; most of it went into {a}", "")
                       .replace(", the bulk of it on {a}", "").replace(" worked mainly on {a}, with", " made")
                       .replace(", focused on {a}", "").replace("went into {a}: ", "work: ").replace(", touching {a}", "")
                       .replace(", on {a}", "")
                       .replace(" dealt with {a}", " was a small change" if commits == 1 else " were small changes")
                       for o in options]
        lead = _pick(key, options, used, lambda s: s.format(
            m=month, name=name, c=_plural(commits, "commit"), i=_plural(n_items or len(only) or 1, "work item"),
            w=where, a=areas), family=size)
        out.append(_sentence(lead, _theme_ids(themes)))

    if not only_one:
        if features:
            shown = features[:MAX_TITLES]
            extra = entry["features"] - len(shown)
            more = _plural(extra, "more feature") if extra > 0 else ""
            text = _pick(key + "f", [
                "Built: {t}.", "New work: {t}.", "Shipped: {t}.", "New features: {t}.", "Built in {m}: {t}.",
            ], used, lambda s: s.format(t=_join_more([_inline(i["title"]) for i in shown], more), m=month),
                family="features")
            out.append(_sentence(text, _ids(shown)))
        if bugs:
            shown = bugs[:MAX_TITLES]
            extra = entry["bugs"] - len(shown)
            # "fixes", not "bugs": "On the fixing side: X and 1 more bug" read as adding one
            more = _plural(extra, "more fix", "more fixes") if extra > 0 else ""
            # label shapes only: a title is not always a noun phrase (`also fixed preserve wrap state`)
            text = _pick(key + "b", [
                "Fixed: {t}.", "Bug fixes: {t}.", "On the fixing side: {t}.", "Fixed in {m}: {t}.",
            ], used, lambda s: s.format(t=_join_more([_fix_text(i["title"]) for i in shown], more), m=month),
                family="bugs")
            out.append(_sentence(text, _ids(shown)))
        other = {c: n for c, n in (entry.get("work_items") or {}).items()
                 if c not in ("feature", "bug", "revert") and n}
        # (the releases named below are chore items: "1 chore change. Released 1.9.0." said it twice)
        other["chore"] = other.get("chore", 0) - len(entry.get("releases") or [])
        other = {c: n for c, n in other.items() if n > 0}
        if other:
            label = {"perf": "performance"}
            # performance work is named, as features and fixes are (ripgrep, August 2026: "1
            # performance change" said nothing of a pool made 1.45x faster)
            perf = (entry.get("performance") or [])[:MAX_PERF_TITLES]
            left = other.get("perf", 0) - len(perf)
            named = {"perf": " (" + _join_more([_inline(i["title"]) for i in perf], f"{left} more" if left > 0 else "")
                     + ")"} if perf else {}
            listed = _join([f"{_n(n)} {label.get(c, c)} change" + ("s" if n > 1 else "") + named.get(c, "")
                            for c, n in sorted(other.items(), key=lambda kv: (-kv[1], kv[0]))])
            if not features and not bugs:
                text = _pick(key + "o", ["The work was {l}, with no new feature or bug fix.",
                                         "No feature or fix this month; the work was {l}.",
                                         "It was maintenance work: {l}.",
                                         "{m} brought no feature or fix; the work was {l}."],
                             used, lambda s: s.format(l=listed, m=month))
            else:
                plural = sum(other.values()) > 1
                text = _pick(key + "o", ["Besides that: {l}.", "There " + ("were" if plural else "was") + " also {l}.",
                                         "Alongside: {l}.", "Plus {l}.", "{m} also saw {l}."],
                             used, lambda s: s.format(l=listed, m=month))
            out.append(_sentence(text, _ids(perf)))
        elif not features and not bugs and not entry.get("reverts") and not entry.get("releases"):
            # its commits belong to items that landed in another month (click, 2024-12: "4 commits"
            # above "No work item was finished this month." read as a contradiction)
            out.append(_sentence("These commits are part of work finished in another month.", []))
    # a release is work a reader wants named (hyper's 109 releases had read "1 chore change")
    releases = entry.get("releases") or []
    if releases:
        names = _join([_release_name(i["title"]) for i in releases[:MAX_TITLES]])
        more = f" and {len(releases) - MAX_TITLES} more" if len(releases) > MAX_TITLES else ""
        out.append(_sentence(f"Released {names}{more}.", _ids(releases[:MAX_TITLES])))
    reverted = [i for i in features + bugs if i.get("reverted_by")]
    if reverted:
        names = _join([_inline(i["title"]) for i in reverted[:MAX_TITLES]])
        one = len(reverted) == 1
        text = _pick(key + "r", [
            "{n} " + ("was" if one else "were") + " later reverted.",
            "Later reverted: {n}.",
            "Of these, {n} " + ("did" if one else "did") + " not stick and " + ("was" if one else "were") + " reverted.",
        ], used, lambda s: s.format(n=names))
        out.append(_sentence(text[0].upper() + text[1:], _ids(reverted[:MAX_TITLES])))
    reverts = entry.get("reverts") or []
    if reverts and not only_one:
        # a revert titled in its own words names why, not what it undid (hyper's "fix consuming
        # extra CPU from previous change" had read "Reverted 1 change: fix consuming extra CPU
        # ...", as if a CPU fix had been undone): those are listed as reverts, by their titles
        wrapped = [i for i in reverts if clean_title(i["title"]).wrapper == "revert"]
        worded = [i for i in reverts if clean_title(i["title"]).wrapper != "revert"]
        for part, text in ((wrapped, f"Reverted {_plural(len(wrapped), 'change')}: "),
                           (worded, f"{_plural(len(worded), 'more revert' if wrapped else 'revert')}: ")):
            if part:
                more = f" and {len(part) - MAX_TITLES} more" if len(part) > MAX_TITLES else ""
                names = _join([_inline(i["title"], revert_word=False) for i in part[:MAX_TITLES]])
                out.append(_sentence(text[0].upper() + text[1:] + names + more + ".", _ids(part[:MAX_TITLES])))
    for s in out:
        if s["text"] in used:  # every shape already used for another month: say which month
            text = s["text"]
            s["text"] = f"In {month}, " + (text[0].lower() + text[1:] if re.match(r"[A-Z][a-z]+ ", text) and not text.startswith(name) else text)
        used.add(s["text"])
    return out


def month_summary(name: str, entry: dict, used: set[str] | None = None, mirrors: dict[str, str] | None = None) -> str:
    """A monthly report paragraph for one ``work_history`` entry."""
    return " ".join(s["text"] for s in month_sentences(name, entry, used, mirrors))


def percent_text(percent: float | None, digits: int = 1) -> str:
    """A percentage (0-100) as a profile writes it, in its prose and on its page: `digits`
    decimals, trailing zeros dropped (`93.5%`, `40%`); `–` when there is none. One writer for
    both, so the prose never disagrees with the panel beside it (`93%` above 93.5%)."""
    if percent is None:
        return "–"
    text = f"{percent:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + "%"


def _pct(value: float) -> str:
    """A share (0-1) as a percentage, rounded as the page's quality panels round it."""
    return percent_text(round(value * 100, 1))


def profile_sentences(profile: dict) -> list[dict]:
    """The opening paragraph's sentences, each with its work items."""
    name, stats = profile["name"], profile["stats"]
    repos = profile["repositories"]
    mirrors = {r["name"]: r["mirror_of"] for r in repos if r.get("mirror_of")}
    months = [e["month"] for e in profile["work_history"]]
    themes = profile.get("themes") or []
    out: list[dict] = []
    span = (f"between {month_name(min(months))} and {month_name(max(months))}" if len(set(months)) > 1
            else f"in {month_name(months[0])}" if months else "")
    where = _where([r["name"] for r in repos], mirrors)
    if themes:
        out.append(_sentence(
            f"{name} works mainly on {_join(_theme_names(themes))}"
            + (f" in {_names([r['name'] for r in repos])}" if repos else "") + ".", _theme_ids(themes)))
    out.append(_sentence(
        f"{'They' if themes else name} made {_plural(stats['commits'], 'counted commit')} to "
        f"{_plural(stats['repository_contributions'], 'repository', 'repositories')}"
        + (f" ({where})" if where and not themes else "") + (f" {span}" if span else "")
        + f", active in {_plural(stats['activity_months'], 'month')}.", []))
    for repo, source in sorted(mirrors.items()):
        out.append(_sentence(
            f"Their commits in {repo} mirror work done in {source}: they name {source} pull requests, so "
            "the changes were made and reviewed there.", []))
    items = [(i, e["month"]) for e in profile["work_history"] for i in e.get("key_features", [])]
    fixes = [(i, e["month"]) for e in profile["work_history"] for i in e.get("bugs_fixed", [])]
    size = lambda pair: (-(pair[0].get("lines_added", 0) + pair[0].get("lines_deleted", 0)), pair[1])  # noqa: E731
    # a feature or a fix is as large as what it wrote: redis's "enable kqueue/kevent only for Mac
    # OS X 10.6.x" changed one line of config.h and deleted 3,169 lines of pages by accident;
    # guzzle's "removing third party services from main repository" (+485 -21,818) moved code out;
    # and by the code it wrote, not its tests or pages (webpack's 10-line fix with a 3,105-line
    # test file pasted in)
    built = lambda pair: (-pair[0].get("code_lines_added", pair[0].get("lines_added", 0)),  # noqa: E731
                          -pair[0].get("lines_added", 0), size(pair))
    features, bugs = stats["features"], stats["bugs"]
    if features or bugs:
        def top(pairs, key=size):
            seen, out_ = set(), []
            for i, _ in sorted(pairs, key=key):
                if INITIAL_COMMIT.match(title_text(i["title"])):
                    continue  # "first commit" names no change a reader can picture
                if title_text(i["title"]).lower() not in seen:
                    seen.add(title_text(i["title"]).lower())
                    out_.append(i)
            return out_[:2]
        top_f, top_b = top(items, built), top(fixes, built)
        out.append(_sentence(
            f"They finished {_plural(features, 'feature')} and {_plural(bugs, 'bug fix', 'bug fixes')}"
            f" ({percent_text(stats['feature_pct'])} features).", []))
        if top_f:
            out.append(_sentence(f"The largest features: {_join([_inline(i['title']) for i in top_f])}.", _ids(top_f)))
        if top_b:
            out.append(_sentence(f"The largest fixes: {_join([_fix_text(i['title']) for i in top_b])}.", _ids(top_b)))
    else:
        out.append(_sentence("No feature or bug-fix work item is credited to them.", []))
    releases = [i for e in profile["work_history"] for i in e.get("releases", [])]  # newest first
    if releases:
        out.append(_sentence(
            f"They made {_plural(len(releases), 'release')}" + (f", the latest {_release_name(releases[0]['title'])}"
                                                               if len(releases) > 1 else f": {_release_name(releases[0]['title'])}")
            + ".", _ids(releases[:1])))
    loc = stats["lines_of_code"]
    langs = _main_languages(profile["skills"]["languages"])
    out.append(_sentence(
        f"They added {_plural(loc['added'], 'line')} of code and removed {_n(loc['deleted'])}"
        + (f", mostly in {_join(langs)}" if langs else "") + ".", []))
    # what the person worked on before how (curl's author read "Testing, Build Systems,
    # Documentation and Networking"): domains first, each group by how much it shows
    # The two groups are named as such: in one list, "Command-Line Tools (5), Performance (1),
    # Text Processing (1) and Testing (3)" read as unsorted (ripgrep's and fzf's readers).
    practices = _practice_skills()
    skills = sorted(profile["skills"]["technical"], key=lambda s: s["name"] in practices)[:MAX_NAMES + 1]
    if skills:
        def listed(group: list[dict]) -> str:
            return _join([f"{s['name']} ({_plural(s.get('work_items', s['commits']), 'work item')})" for s in group])

        domains = [s for s in skills if s["name"] not in practices]
        habits = [s for s in skills if s["name"] in practices]
        text = ("Skills shown in their changes: " + listed(domains) + ("; practices: " + listed(habits) if habits else "")
                if domains else "Practices shown in their changes: " + listed(habits))
        out.append(_sentence(text + ".", [w for s in skills for w in s.get("examples", [])]))
    q = profile["quality"]
    corr = q["correctness"]
    if corr["value"] is not None:
        out.append(_sentence(
            f"Correctness is {_pct(corr['value'])} over {_plural(corr['evidence_count'], 'work item')} "
            "(work items later reverted or fixed by another change count against it).", []))
    ai = q["ai_usage"]
    if ai["value"] is not None and ai["value"] > 0:
        declared = round(ai["value"] * ai["evidence_count"])
        out.append(_sentence(f"AI assistance is declared on {_n(declared)} of {_plural(ai['evidence_count'], 'commit')}.", []))
    return out


def profile_summary(profile: dict) -> str:
    """The profile's opening paragraph."""
    return " ".join(s["text"] for s in profile_sentences(profile))


def write_story(profile: dict) -> dict:
    """Fill ``summary`` / ``summary_evidence`` of the profile and of each month (oldest month
    first, so rephrasing to avoid repeats is stable as new months arrive)."""
    mirrors = {r["name"]: r["mirror_of"] for r in profile["repositories"] if r.get("mirror_of")}
    used: set[str] = set()
    typical = statistics.median(e["commits"] for e in profile["work_history"]) if profile["work_history"] else None
    for entry in sorted(profile["work_history"], key=lambda e: e["month"]):
        sentences = month_sentences(profile["name"], entry, used, mirrors, typical)
        entry["summary"] = " ".join(s["text"] for s in sentences)
        entry["summary_evidence"] = sentences
    sentences = profile_sentences(profile)
    profile["summary"] = " ".join(s["text"] for s in sentences)
    profile["summary_evidence"] = sentences
    return profile
