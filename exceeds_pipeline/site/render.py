"""The profile site: ``<site>/index.html`` (the team) and ``<site>/people/<person>.html``.

Pages are rendered from the profile JSON alone (the dictionaries of
:func:`exceeds_pipeline.profiles.build.build_profiles`, valid against ``profile.schema.json``)
through the Jinja2 templates in ``templates/``, with autoescaping on: names, titles, repository
names and every other text that comes from git is escaped. Each page is self-contained: CSS,
JavaScript and charts (SVG) are inline, and a Content-Security-Policy (``default-src 'none'``,
the one script allowed by its hash) stops the browser from fetching anything.

:func:`write_site` writes the whole site atomically: the new site is built in a folder beside
the old one (unchanged pages are hard links to the old files), then the two folders are swapped
(``renameat2(RENAME_EXCHANGE)`` on Linux, two renames elsewhere), so a reader sees the old site
or the new one, never a mix. A page is rendered again only when its profile (without
``generated_at``) or the renderer (templates, this code) changed: ``.site-manifest.json`` keeps a
content hash per page (so a page's "Profile generated" time is that of the run that last changed
it). People who are no longer in the profiles lose their page. With many pages to render (a
first build, a template change), pages are rendered by forked worker processes.
"""

from __future__ import annotations

import base64
import calendar
import ctypes
import ctypes.util
import gc
import hashlib
import json
import multiprocessing
import os
import re
import secrets
import shutil
import signal
import sys
import warnings
from datetime import date, timedelta
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jinja2
from markupsafe import Markup

from exceeds_pipeline.profiles.export import profile_json, safe_file_stem
from exceeds_pipeline.profiles.narrative import percent_text
from exceeds_pipeline.site.forge import commit_url, forge_web_url

__all__ = ["MANIFEST", "METRIC_LABELS", "page_stems", "render_index", "render_person", "write_site"]

MANIFEST = ".site-manifest.json"
MANIFEST_VERSION = 1
PEOPLE = "people"
SHORT_SHA = 7
SHAS_SHOWN = 4
TOP_LANGUAGES = 3

METRIC_LABELS = {
    "correctness": "Correctness",
    "maintainability": "Maintainability",
    "architecture": "Architecture",
    "performance": "Performance (code survival)",  # not runtime speed: how much of the added code stays
    "ai_usage": "AI usage",
}
MONTHS = ["", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

# heatmap geometry (SVG user units)
CELL = 11
STEP = 14
LEFT = 32
TOP = 20


# --------------------------------------------------------------------------- templates


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("exceeds_pipeline.site", "templates"),
        auto_reload=False,  # templates ship with the package: no stat() per page
        autoescape=True,  # every template is HTML: escape every value
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["num"] = _num
    env.filters["month_label"] = _month_label
    env.filters["pct"] = _pct
    env.filters["code_spans"] = _code_spans
    return env


# `code` and ``code`` in a commit's title (Markdown and reStructuredText): shown as code, not
# as backticks (httpx: "Fix `verify=False`, `cert=...` case.")
_CODE_SPAN = re.compile(r"(`{1,2})([^`]+?)\1")


def _code_spans(text: str) -> Markup:
    """The title escaped, its backtick spans as <code>."""
    escaped = str(Markup.escape(text))
    return Markup(_CODE_SPAN.sub(lambda m: f"<code>{m.group(2)}</code>", escaped))


def _asset(name: str) -> str:
    return resources.files("exceeds_pipeline.site").joinpath("templates", name).read_text("utf-8")


@lru_cache(maxsize=1)
def _static() -> dict:
    """Inline CSS and JS, and the Content-Security-Policy that allows exactly that script."""
    css = _asset("site.css")
    js = _asset("site.js")
    digest = base64.b64encode(hashlib.sha256(js.encode("utf-8")).digest()).decode()
    csp = (
        "default-src 'none'; "
        f"script-src 'sha256-{digest}'; "
        "style-src 'unsafe-inline'; "
        "img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )
    return {"css": Markup(css), "js": Markup(js), "csp": csp}


@lru_cache(maxsize=1)
def renderer_fingerprint() -> str:
    """Hash of everything besides the profile that decides what a page looks like."""
    h = hashlib.sha256()
    h.update(f"manifest{MANIFEST_VERSION};jinja{jinja2.__version__}".encode())
    folder = resources.files("exceeds_pipeline.site")
    for name in ("render.py", "forge.py"):
        h.update(folder.joinpath(name).read_bytes())
    templates = folder.joinpath("templates")
    for entry in sorted(templates.iterdir(), key=lambda e: e.name):
        if entry.is_file():
            h.update(entry.name.encode())
            h.update(entry.read_bytes())
    return h.hexdigest()[:16]


# --------------------------------------------------------------------------- formatting


def _num(value) -> str:
    return "–" if value is None else f"{value:,}"


def _month_label(month: str, long: bool = False) -> str:
    """'2024-05' -> 'May 2024' (or 'May 2024' with the full name when ``long``)."""
    try:
        year, mon = month.split("-")
        m = int(mon)
        return f"{calendar.month_name[m] if long else MONTHS[m]} {year}"
    except (ValueError, IndexError, AttributeError):
        return str(month)


# the profile's own percentage writer: the page and its prose write a figure alike
_pct = percent_text


def _range(first: str | None, last: str | None) -> str:
    if not first:
        return "–"
    return _month_label(first) if first == last or not last else f"{_month_label(first)} – {_month_label(last)}"


def _window_text(window: dict | None) -> str:
    since = (window or {}).get("since")
    until = (window or {}).get("until")
    if since and until:
        return f"{since} to {until}"
    if since:
        return f"since {since}"
    if until:
        return f"up to {until}"
    return "all history"


# --------------------------------------------------------------------------- heatmap


def _day_cell(x: int, y: int, iso: str, count: int, level: int, label: str) -> Markup:
    """One heatmap square, rendered by the ``day_cell`` macro of ``macros.html``."""
    return _macros().day_cell(x, y, iso, count, level, label)


@lru_cache(maxsize=1)
def _macros():
    return _environment().get_template("macros.html").module


@lru_cache(maxsize=200_000)
def _active_cell(year: int, index: int, count: int, level: int) -> Markup:
    x, y, iso, label = _year_layout(year)[0][index]
    return _day_cell(x, y, iso, count, level, f"{count:,} commit{'' if count == 1 else 's'} on {label}")


@lru_cache(maxsize=128)
def _year_layout(year: int) -> tuple:
    """Per day of ``year`` (x, y, iso date, long date); the empty squares (rendered once);
    month labels; svg width."""
    first = date(year, 1, 1)
    offset = (first.weekday() + 1) % 7  # Sunday-first rows, as GitHub draws them
    days = []
    months = []
    day = first
    index = 0
    while day.year == year:
        slot = index + offset
        col, row = divmod(slot, 7)
        x, y = LEFT + col * STEP, TOP + row * STEP
        if day.day == 1:
            months.append((x, MONTHS[day.month]))
        days.append((x, y, day.isoformat(), f"{WEEKDAYS[row]} {day.day} {MONTHS[day.month]} {year}"))
        day += timedelta(days=1)
        index += 1
    empty = tuple(_day_cell(x, y, iso, 0, 0, f"No commits on {label}") for x, y, iso, label in days)
    columns = (index - 1 + offset) // 7 + 1
    width = LEFT + columns * STEP
    return tuple(days), empty, tuple(months), width


@lru_cache(maxsize=128)
def _day_index(year: int) -> dict[str, int]:
    """'YYYY-MM-DD' -> day of the year (0-based) for the days of ``year``."""
    return {iso: i for i, (_x, _y, iso, _label) in enumerate(_year_layout(year)[0])}


def _level(count: int, top: int) -> int:
    if count <= 0:
        return 0
    ratio = count / top
    return 1 if ratio <= 0.25 else 2 if ratio <= 0.5 else 3 if ratio <= 0.75 else 4


def _heatmap(activity: dict) -> dict:
    """One calendar per year from the first to the last active year, newest first; every day of
    the year has a square (``data-date``, ``data-count``, a ``<title>`` tooltip).

    The squares are rendered by a macro and memoised (an empty day looks the same on every
    page), so a page costs one dictionary pass over its active days, not a template call per day.
    """
    if not activity:
        return {"years": [], "max": 0, "days": 0}
    top = max(int(n) for n in activity.values())
    by_year: dict[int, dict[int, int]] = {}
    for iso, n in activity.items():
        year = int(iso[:4])
        by_year.setdefault(year, {})[_day_index(year)[iso]] = int(n)
    first_year, last_year = min(by_year), max(by_year)
    years = []
    for year in range(last_year, first_year - 1, -1):
        _days, empty, months, width = _year_layout(year)
        counts = by_year.get(year, {})
        cells = list(empty)
        for index, n in counts.items():
            cells[index] = _active_cell(year, index, n, _level(n, top))
        years.append({"year": year, "cells": Markup("\n".join(cells)), "months": months, "width": width,
                      "height": TOP + 7 * STEP, "total": sum(counts.values()), "active": len(counts)})
    return {"years": years, "max": top, "days": len(activity)}


# --------------------------------------------------------------------------- view models


def _feature_chart(features: int, bugs: int, pct) -> dict:
    total = features + bugs
    width = 200
    fw = round(width * features / total, 1) if total else 0
    return {"width": width, "features_w": fw, "bugs_w": round(width - fw, 1) if total else 0,
            "features": features, "bugs": bugs, "pct": pct, "empty": not total}


def _safe_url(url) -> str | None:
    """A repository address fit for a link: https on GitHub/GitLab, nothing else."""
    return url if isinstance(url, str) and forge_web_url(url) == url else None


def _shas(shas, url: str | None, limit: int) -> tuple[list[tuple], int]:
    """((short, forge url or None, full sha), ...) for the first ``limit`` shas, and how many more."""
    shown = [(sha[:SHORT_SHA], commit_url(url, sha), sha) for sha in shas[:limit]]
    return shown, max(0, len(shas) - limit)


def _items(items: list[dict], repo_urls: dict) -> list[tuple]:
    """Work items as (title, repo, shas, more, lines added, lines deleted, reverted_by) tuples
    (tuples: the template unpacks them without an attribute lookup per field)."""
    out = []
    for item in items or ():
        repo = item.get("repo") or ""
        url = repo_urls.get(repo)
        shas, more = _shas(item.get("shas") or [], url, SHAS_SHOWN)
        reverted, _ = _shas(item.get("reverted_by") or [], url, 2)
        out.append((" ".join(str(item.get("title") or "").split()) or "(untitled)", repo, shas, more,
                    item.get("lines_added"), item.get("lines_deleted"), reverted))
    return out


def _person_view(profile: dict) -> dict:
    stats = profile["stats"]
    repos = profile.get("repositories") or []
    repo_urls = {r["name"]: _safe_url(r.get("url")) for r in repos}
    loc = stats["lines_of_code"]
    history = []
    for m in profile.get("work_history") or []:
        history.append({
            "month": m["month"],
            "label": _month_label(m["month"], long=True),
            "commits": m["commits"], "features": m["features"], "bugs": m["bugs"],
            "lines_added": m["lines_added"], "lines_deleted": m["lines_deleted"],
            "repos": m.get("repos") or [], "languages": m.get("languages") or [],
            "summary": m.get("summary") or "",
            "key_features": _items(m.get("key_features"), repo_urls),
            "bugs_fixed": _items(m.get("bugs_fixed"), repo_urls),
            "reverts": _items(m.get("reverts"), repo_urls),
            "performance": _items(m.get("performance"), repo_urls),
        })
    quality = []
    for key, label in METRIC_LABELS.items():
        metric = (profile.get("quality") or {}).get(key)
        if metric is None:
            continue
        value = metric.get("value")
        quality.append({
            "key": key, "label": label, "value": value,
            "shown": None if value is None else _pct(round(100 * value, 1)),
            "evidence": metric.get("evidence_count", 0),
            "method": metric.get("method") or "",
            # a fact that could not be computed yet is no lack of evidence (AutoMapper's line
            # survival, whose git log failed on a missing object, read "Not enough evidence")
            "pending": (metric.get("method") or "").startswith("Pending:"),
        })
    languages = (profile.get("skills") or {}).get("languages") or []
    # languages are ranked by the lines the person added in them (profiles.build): the table
    # shows that figure, so its order reads right (tmux: Makefile's 5,487 changed lines sat
    # below M4Sugar's 3,045)
    top_lines = max((lang["lines_added"] for lang in languages), default=0)
    technical = (profile.get("skills") or {}).get("technical") or []
    return {
        "id": profile["id"],
        "name": profile.get("name") or profile["id"],
        "summary": profile.get("summary") or "",
        "generated_at": profile.get("generated_at") or "",
        "window": _window_text(profile.get("window")),
        "emails": profile.get("emails") or [],
        # the other profiles under this name (pages named by their ids, as page_stems does
        # when no two ids collide)
        "same_name": [{**o, "href": f"{safe_file_stem(o['id'])}.html"} for o in profile.get("same_name") or []],
        "stats": {
            "commits": stats["commits"],
            "features": stats["features"],
            "bugs": stats["bugs"],
            "feature_pct": stats.get("feature_pct"),
            "loc_total": loc["total"], "loc_added": loc["added"], "loc_deleted": loc["deleted"],
            "activity_months": stats["activity_months"],
            "repositories": stats["repository_contributions"],
            "range": _range(stats.get("first_month"), stats.get("last_month")),
        },
        "chart": _feature_chart(stats["features"], stats["bugs"], stats.get("feature_pct")),
        "history": history,
        "heatmap": _heatmap(profile.get("activity") or {}),
        "quality": quality,
        "languages": [
            {**lang, "bar": round(100 * lang["lines_added"] / top_lines, 1) if top_lines else 0}
            for lang in languages
        ],
        "technical": technical,
        "repositories": [
            {**r, "range": _range(r.get("first_month"), r.get("last_month")), "url": repo_urls[r["name"]]}
            for r in repos
        ],
        "definitions": profile.get("definitions") or {},
    }


def _index_row(profile: dict, stem: str) -> dict:
    stats = profile["stats"]
    languages = [lang["name"] for lang in ((profile.get("skills") or {}).get("languages") or [])[:TOP_LANGUAGES]]
    repos = [r["name"] for r in profile.get("repositories") or []]
    name = profile.get("name") or profile["id"]
    return {
        "id": profile["id"],
        "name": name,
        "href": f"{PEOPLE}/{stem}.html",
        "commits": stats["commits"],
        "features": stats["features"],
        "bugs": stats["bugs"],
        "feature_pct": stats.get("feature_pct"),
        "loc": stats["lines_of_code"]["total"],
        "months": stats["activity_months"],
        "repositories": stats["repository_contributions"],
        "repo_names": repos,
        "languages": languages,
        "last_month": stats.get("last_month") or "",
        "filter": " ".join([name, profile["id"], *languages, *repos]).lower(),
    }


# --------------------------------------------------------------------------- rendering


def render_person(profile: dict) -> str:
    """The HTML page of one profile."""
    return _environment().get_template("person.html").render(
        p=_person_view(profile), static=_static(), root="../", page="person",
    )


def render_index(profiles: list[dict], stems: dict[str, str], index: dict | None = None) -> str:
    """The team index: every profile, sortable and filterable."""
    rows = [_index_row(p, stems[p["id"]]) for p in profiles]
    rows.sort(key=lambda r: (-r["commits"], r["name"].lower(), r["id"]))
    seen: dict[str, int] = {}
    for r in rows:
        seen[r["name"].casefold()] = seen.get(r["name"].casefold(), 0) + 1
    for r in rows:  # two people may share a name (never merged on a name alone): show the id
        r["same_name"] = seen[r["name"].casefold()] > 1
    windows = {_window_text(p.get("window")) for p in profiles}
    last = max((r["last_month"] for r in rows if r["last_month"]), default="")
    first = min((p["stats"].get("first_month") or "" for p in profiles if p["stats"].get("first_month")), default="")
    team = {
        "people": len(rows),
        "commits": sum(r["commits"] for r in rows),
        "features": sum(r["features"] for r in rows),
        "bugs": sum(r["bugs"] for r in rows),
        "repositories": len({name for r in rows for name in r["repo_names"]}),
        "range": _range(first or None, last or None),
        "window": windows.pop() if len(windows) == 1 else "per profile",
    }
    return _environment().get_template("index.html").render(
        rows=rows, team=team, static=_static(), root="", page="index",
    )


def page_stems(profiles: list[dict], index: dict | None = None) -> dict[str, str]:
    """Person id -> page file stem: the stem of the profile's JSON file in ``index.json`` when
    given (same names for ``profiles/x.json`` and ``people/x.html``), else
    :func:`safe_file_stem`, with the same collision rule as the JSON export."""
    from_index = {}
    for entry in (index or {}).get("profiles") or []:
        file = str(entry.get("file") or "")
        stem = file.rsplit("/", 1)[-1].removesuffix(".json")
        if stem and stem == safe_file_stem(stem):
            from_index[entry.get("id")] = stem
    stems: dict[str, str] = {}
    taken: dict[str, str] = {}
    for profile in profiles:
        pid = profile["id"]
        if pid in stems:
            raise ValueError(f"two profiles have the id {pid!r}")
        stem = from_index.get(pid) or safe_file_stem(pid)
        if stem.lower() in taken:
            stem = f"{stem}-{hashlib.sha256(pid.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}"
            if stem.lower() in taken:
                raise ValueError(f"ids {taken[stem.lower()]!r} and {pid!r} map to the same page name")
        taken[stem.lower()] = pid
        stems[pid] = stem
    return stems


def _profile_hash(profile: dict) -> str:
    body = {k: v for k, v in profile.items() if k != "generated_at"}
    # build_profiles writes keys in a fixed order: no sort_keys (twice as fast; a reordering
    # would only cost a needless rewrite)
    h = hashlib.sha256(renderer_fingerprint().encode())
    h.update(profile_json(body))
    return h.hexdigest()[:32]


# --------------------------------------------------------------------------- writing


def _encode(text: str) -> bytes:
    return text.encode("utf-8", errors="replace")  # a lone surrogate must not abort the site


def _read_manifest(site: Path) -> dict:
    try:
        data = json.loads((site / MANIFEST).read_text("utf-8"))
        if data.get("version") == MANIFEST_VERSION and isinstance(data.get("pages"), dict):
            return data
    except (OSError, ValueError, AttributeError):
        pass
    return {"version": MANIFEST_VERSION, "pages": {}}


def _link_or_copy(src: Path, dst: Path) -> bool:
    try:
        os.link(src, dst)
        return True
    except FileNotFoundError:
        return False
    except OSError:
        try:
            shutil.copy2(src, dst)
            return True
        except OSError:
            return False


PARALLEL_MIN_PAGES = 300
_JOB: tuple | None = None  # (pages to render, folder): inherited by forked workers, never pickled


def _write_page(target: Path, profile: dict) -> str:
    """Render and write one page; return its profile hash."""
    with open(target, "wb") as fh:
        fh.write(_encode(render_person(profile)))
    return _profile_hash(profile)


def _render_chunk(bounds: tuple[int, int]) -> list[str]:
    todo, folder = _JOB
    start, stop = bounds
    return [_write_page(folder / f"{stem}.html", profile) for profile, stem in todo[start:stop]]


def _worker_signals() -> None:
    """Workers leave Ctrl-C to the parent (which stops them) and die plainly on SIGTERM, whatever
    handlers the parent had installed (Dagster turns SIGTERM into KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _default_workers() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus))


def _render_pages(todo: list[tuple[dict, str]], folder: Path, workers: int | None) -> list[str]:
    """Render and write ``todo`` into ``folder`` (in forked processes when it pays); return the
    profile hash of each, in order."""
    global _JOB
    workers = _default_workers() if workers is None else max(1, int(workers))
    if workers > 1 and len(todo) >= PARALLEL_MIN_PAGES and "fork" in multiprocessing.get_all_start_methods():
        _environment(), _macros(), _static(), renderer_fingerprint()  # warm before forking
        step = max(25, len(todo) // (workers * 8))
        chunks = [(i, min(i + step, len(todo))) for i in range(0, len(todo), step)]
        _JOB = (todo, folder)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads: workers only render
                pool = multiprocessing.get_context("fork").Pool(workers, initializer=_worker_signals)
            try:
                hashes = pool.map(_render_chunk, chunks, chunksize=1)
                pool.close()  # workers end normally (terminate() would signal them)
            except BaseException:
                pool.terminate()
                raise
            finally:
                pool.join()
            return [h for chunk in hashes for h in chunk]
        finally:
            _JOB = None
    return [_write_page(folder / f"{stem}.html", profile) for profile, stem in todo]


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


@lru_cache(maxsize=1)
def _renameat2():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


def _swap_in(new: Path, site: Path) -> Path | None:
    """Put ``new`` in place of ``site``; return the folder that now holds the old site."""
    if not site.exists():
        os.rename(new, site)
        return None
    fn = _renameat2()
    if fn is not None and fn(_AT_FDCWD, os.fsencode(new), _AT_FDCWD, os.fsencode(site), _RENAME_EXCHANGE) == 0:
        return new  # atomic exchange: the old site is now at `new`
    old = site.with_name(f".{site.name}.old-{secrets.token_hex(4)}")
    os.rename(site, old)
    os.rename(new, site)
    return old


def _cleanup_leftovers(site: Path) -> None:
    """Remove build folders of a run killed half-way; bring back a site left aside."""
    parent = site.parent
    if not parent.is_dir():
        return
    olds = sorted(parent.glob(f".{site.name}.old-*"), key=lambda p: p.stat().st_mtime, reverse=True)
    if not site.exists() and olds:
        os.rename(olds.pop(0), site)
    for leftover in [*olds, *parent.glob(f".{site.name}.new-*")]:
        shutil.rmtree(leftover, ignore_errors=True)


def write_site(profiles: list[dict], index: dict | None, site_dir: str | os.PathLike,
               workers: int | None = None) -> dict:
    """Render the site for ``profiles`` into ``site_dir`` atomically (see module doc).

    ``index`` is the ``index.json`` document of :func:`exceeds_pipeline.profiles.export.write_exports`
    (or None): pages take the file names of the JSON files. Returns counts for metadata:
    ``pages`` (people), ``written``, ``unchanged``, ``removed`` (pages), ``index_written``
    (bool), ``swapped`` (False when nothing changed and the site was left as it was).

    ``workers``: processes that render pages (default: the CPUs this process may use, at most
    4); used where ``fork`` exists and at least :data:`PARALLEL_MIN_PAGES` pages change.
    """
    # Rendering allocates millions of short-lived objects next to the long-lived profiles; the
    # cyclic GC would rescan all of them again and again (a third of the time on 2,500 people).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _write_site(profiles, index, Path(site_dir), workers)
    finally:
        if enabled:
            gc.enable()


def _write_site(profiles: list[dict], index: dict | None, site: Path, workers: int | None) -> dict:
    site.parent.mkdir(parents=True, exist_ok=True)
    _cleanup_leftovers(site)
    stems = page_stems(profiles, index)
    old_manifest = _read_manifest(site) if site.is_dir() else {"version": MANIFEST_VERSION, "pages": {}}
    old_pages = old_manifest["pages"]

    plan = []  # (profile, stem, hash or None, reuse); hashed here only where a page may be reused
    for profile in profiles:
        pid = profile["id"]
        before = old_pages.get(pid)
        digest = None
        reuse = False
        if isinstance(before, dict) and before.get("file") == f"{stems[pid]}.html":
            digest = _profile_hash(profile)
            reuse = before.get("hash") == digest and (site / PEOPLE / before["file"]).is_file()
        plan.append((profile, stems[pid], digest, reuse))
    removed = sum(1 for pid in old_pages if pid not in stems)
    index_html = _encode(render_index(profiles, stems, index))
    try:
        index_same = (site / "index.html").read_bytes() == index_html
    except OSError:
        index_same = False
    # leftover files not in the manifest (a hand-made file, a damaged site) force a rebuild too
    listed = {f"{stem}.html" for _, stem, _, _ in plan}
    try:
        extra = any(entry.name not in listed for entry in os.scandir(site / PEOPLE))
    except OSError:
        extra = False
    if (all(reuse for *_, reuse in plan) and removed == 0 and index_same and not extra
            and old_manifest.get("renderer") == renderer_fingerprint() and len(old_pages) == len(plan)):
        return {"pages": len(plan), "written": 0, "unchanged": len(plan), "removed": 0,
                "index_written": False, "swapped": False, "site": str(site)}

    new = site.with_name(f".{site.name}.new-{secrets.token_hex(4)}")
    people = new / PEOPLE
    people.mkdir(parents=True)
    try:
        todo = []
        hashes = {}
        for profile, stem, digest, reuse in plan:
            if reuse and _link_or_copy(site / PEOPLE / f"{stem}.html", people / f"{stem}.html"):
                hashes[profile["id"]] = digest
                continue
            todo.append((profile, stem))
        for (profile, _stem), digest in zip(todo, _render_pages(todo, people, workers)):
            hashes[profile["id"]] = digest
        written = len(todo)
        manifest = {
            "version": MANIFEST_VERSION,
            "renderer": renderer_fingerprint(),
            "pages": {p["id"]: {"file": f"{stem}.html", "hash": hashes[p["id"]]} for p, stem, _, _ in plan},
        }
        (new / "index.html").write_bytes(index_html)
        (new / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, sort_keys=True), "utf-8")
        old = _swap_in(new, site)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return {"pages": len(plan), "written": written, "unchanged": len(plan) - written, "removed": removed,
            "index_written": not index_same, "swapped": True, "site": str(site)}
