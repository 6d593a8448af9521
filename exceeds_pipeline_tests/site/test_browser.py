"""The demo's site in a real headless Chromium (Debian's `chromium`, driven by Playwright):
every page loads with no console error and no request leaving the machine, from file:// and
from serve_site; the figures it shows equal the profile JSON; the team table sorts and filters
from the keyboard; git text cannot run script; AA contrast in light and dark; screenshots at
420 and 1,400 px."""

from __future__ import annotations

import copy
import json
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from exceeds_pipeline.site import serve_site, write_site
from exceeds_pipeline.site.render import _pct

pytestmark = pytest.mark.slow

WIDTHS = (420, 1400)


@pytest.fixture(scope="module")
def site(demo_exports, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("browser") / "exports" / "site"
    write_site(demo_exports.profiles, demo_exports.index, folder)
    return folder


@pytest.fixture(scope="module")
def served(site):
    ready = threading.Event()
    box = {}

    def on_ready(server):
        box["server"] = server
        ready.set()

    thread = threading.Thread(target=serve_site, args=(site, 0),
                              kwargs={"on_ready": on_ready, "echo": lambda line: None, "quiet": True}, daemon=True)
    thread.start()
    assert ready.wait(10)
    host, port = box["server"].server_address[:2]
    yield f"http://{host}:{port}/"
    box["server"].shutdown()
    thread.join(10)


def _pages(site: Path) -> list[str]:
    return ["index.html", *sorted(f"people/{p.name}" for p in (site / "people").glob("*.html"))]


class Watch:
    """Console errors/warnings, page errors, dialogs and every request of one page."""

    def __init__(self, page):
        self.problems: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("dialog", lambda d: (self.problems.append(f"dialog: {d.message}"), d.dismiss()))
        page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url}"))
        page.on("request", lambda r: self.requests.append(r.url))


def _local(url: str, base: str) -> bool:
    if url.startswith("data:") or url == "about:blank":
        return True
    if base.startswith("file:"):
        return url.startswith("file:///")
    parts, own = urlsplit(url), urlsplit(base)
    return parts.scheme == "http" and parts.hostname == own.hostname and parts.port == own.port


@pytest.mark.parametrize("how", ["file", "server"])
def test_every_page_loads_clean_and_stays_local(browser, site, served, how):
    base = site.as_uri() + "/" if how == "file" else served
    context = browser.new_context()
    outside: list[str] = []

    def guard(route):
        if _local(route.request.url, base):
            route.continue_()
        else:  # never let it out; record it
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    watch = Watch(page)
    page.goto(base + "index.html")
    linked = page.eval_on_selector_all("#team tbody a", "els => els.map(a => a.getAttribute('href'))")
    assert sorted(linked) == _pages(site)[1:], "the index links to every person page"
    for name in _pages(site):
        response = page.goto(base + name)
        if how == "server":
            assert response.status == 200
        assert page.title()
        # back to the team from each person page
        if name != "index.html":
            assert page.eval_on_selector("nav a[href='../index.html']", "a => a.href").endswith("/index.html")
    context.close()
    assert not watch.problems
    assert not outside
    assert all(_local(url, base) for url in watch.requests), [u for u in watch.requests if not _local(u, base)]
    assert len(watch.requests) == len(_pages(site)) + 1  # one document per page, nothing else


_READ_PAGE = """() => {
  const text = el => el ? el.textContent.replace(/\\s+/g, ' ').trim() : null;
  const stats = {};
  document.querySelectorAll('[data-stat]').forEach(s => { stats[s.dataset.stat] = text(s.querySelector('dd')); });
  const cells = {};
  document.querySelectorAll('svg.heatmap [data-date]').forEach(c => {
    cells[c.getAttribute('data-date')] = [Number(c.getAttribute('data-count')), text(c.querySelector('title'))];
  });
  const months = [...document.querySelectorAll('#history article[data-month]')].map(a => [a.dataset.month, text(a.querySelector('h3'))]);
  const quality = {};
  document.querySelectorAll('[data-metric]').forEach(m => { quality[m.dataset.metric] = [text(m.querySelector('.value')), text(m.querySelector('[data-k=evidence]')), text(m.querySelector('details p'))]; });
  const repos = [...document.querySelectorAll('table.repos tbody tr')].map(r => [...r.cells].map(text));
  const langs = [...document.querySelectorAll('table.languages tbody tr')].map(r => [...r.cells].slice(0, 3).map(text));
  const skills = [...document.querySelectorAll('[data-skill]')].map(s => [s.dataset.skill, text(s.querySelector('.count'))]);
  return {name: text(document.querySelector('h1')), stats, cells, months, quality, repos, langs, skills,
          links: [...document.querySelectorAll('#history a.sha')].map(a => a.href),
          codes: [...document.querySelectorAll('#history code.sha')].map(c => c.textContent)};
}"""

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]


def _n(value: int) -> str:
    return f"{value:,}"


def test_figures_shown_equal_the_profile_json(browser, site, demo_exports):
    context = browser.new_context()
    page = context.new_page()
    files = {e["id"]: Path(e["file"]).stem for e in demo_exports.index["profiles"]}
    urls = demo_exports.repo_urls
    for profile in demo_exports.profiles:
        page.goto((site / "people" / f"{files[profile['id']]}.html").as_uri())
        shown = page.evaluate(_READ_PAGE)
        assert shown["name"] == profile["name"]
        s = profile["stats"]
        loc = s["lines_of_code"]
        assert shown["stats"]["commits"] == _n(s["commits"])
        assert shown["stats"]["features"] == _n(s["features"])
        assert shown["stats"]["bugs"] == _n(s["bugs"])
        assert shown["stats"]["lines_of_code"] == f"{_n(loc['total'])}+{_n(loc['added'])} −{_n(loc['deleted'])}"
        assert shown["stats"]["activity_months"] == _n(s["activity_months"])
        assert shown["stats"]["repositories"] == _n(s["repository_contributions"])
        assert shown["stats"]["feature_pct"].startswith(_pct(s["feature_pct"]))
        # heatmap: one square per day of each calendar year shown, counts from `activity`
        counts = {d: c for d, (c, _) in shown["cells"].items()}
        assert {d: c for d, c in counts.items() if c} == profile["activity"]
        years = {d[:4] for d in profile["activity"]}
        assert {d[:4] for d in counts} == set(map(str, range(int(min(years)), int(max(years)) + 1)))
        assert len(counts) == sum(366 if int(y) % 4 == 0 else 365 for y in {d[:4] for d in counts})
        for day, (count, tip) in shown["cells"].items():
            assert tip.startswith(f"{count} commit" if count else "No commits on"), (day, tip)
        # work history: months newest first, as in the profile
        assert [m for m, _ in shown["months"]] == [m["month"] for m in profile["work_history"]]
        for (month, heading), entry in zip(shown["months"], profile["work_history"]):
            year, mon = month.split("-")
            assert heading == f"{_MONTHS[int(mon) - 1]} {year}"
        # quality: value, evidence, method; "Not enough evidence" for null
        for key, metric in profile["quality"].items():
            value, evidence, method = shown["quality"][key]
            none = "Pending: not computed yet" if metric["method"].startswith("Pending:") else "Not enough evidence"
            expected = none if metric["value"] is None else _pct(round(100 * metric["value"], 1))
            assert (value, evidence, method) == (expected, _n(metric["evidence_count"]), metric["method"])
        assert [r[0] for r in shown["repos"]] == [r["name"] for r in profile["repositories"]]
        for row, repo in zip(shown["repos"], profile["repositories"]):
            assert row[2:6] == [_n(repo["months_active"]), _n(repo["commits"]), _n(repo["features"]), _n(repo["bugs"])]
        assert shown["langs"] == [[lang["name"], _n(lang["commits"]), _n(lang["lines_added"])]
                                  for lang in profile["skills"]["languages"]]
        # in the unit the summary uses ("Networking (722 work items)")
        assert shown["skills"] == [[t["name"], _n(t["work_items"])] for t in profile["skills"]["technical"]]
        # items of a repository on GitHub link to the commit there; the others show the short sha
        items = [i for m in profile["work_history"]
                 for i in m["key_features"] + m["bugs_fixed"] + m.get("performance", []) + m["reverts"]]
        shas = [(i["repo"], sha) for i in items for sha in i["shas"][:4] + i.get("reverted_by", [])[:2]]
        assert sorted(shown["links"]) == sorted(f"{urls[repo]}/commit/{sha}" for repo, sha in shas if urls.get(repo))
        assert sorted(shown["codes"]) == sorted(sha[:7] for repo, sha in shas if not urls.get(repo))
    context.close()


def test_heatmap_tooltip_and_keyboard(browser, site, demo_exports):
    profile = max(demo_exports.profiles, key=lambda p: len(p["activity"]))
    stem = next(Path(e["file"]).stem for e in demo_exports.index["profiles"] if e["id"] == profile["id"])
    page = browser.new_page()
    page.goto((site / "people" / f"{stem}.html").as_uri())
    day, count = sorted(profile["activity"].items())[-1]
    cell = page.locator(f'svg.heatmap [data-date="{day}"]')
    cell.hover()
    tip = page.locator("#tip")
    assert tip.is_visible() and tip.text_content().startswith(f"{count} commit")
    # keyboard: focus the newest calendar (selects the last active day), then move a week back
    page.keyboard.press("Escape")
    page.locator("svg.heatmap").first.focus()
    assert page.locator("#heat-live").text_content().startswith(f"{count} commit")
    page.keyboard.press("ArrowLeft")
    week_before = page.evaluate("d => { const t = new Date(d + 'T12:00:00Z'); t.setUTCDate(t.getUTCDate() - 7);"
                                " return t.toISOString().slice(0, 10); }", day)
    if week_before[:4] == day[:4]:
        expected = profile["activity"].get(week_before, 0)
        live = page.locator("#heat-live").text_content()
        assert live.startswith(f"{expected} commit" if expected else "No commits")
    page.close()


def test_team_table_sorts_and_filters_from_the_keyboard(browser, site, demo_exports):
    page = browser.new_page()
    page.goto((site / "index.html").as_uri())
    ids = lambda: page.eval_on_selector_all("#team tbody tr:not([hidden])", "rs => rs.map(r => r.dataset.id)")  # noqa: E731
    by_id = {p["id"]: p for p in demo_exports.profiles}
    # default: most commits first
    assert [by_id[i]["stats"]["commits"] for i in ids()] == sorted((p["stats"]["commits"] for p in by_id.values()),
                                                                    reverse=True)
    page.locator("th[data-key=loc] button").focus()
    page.keyboard.press("Enter")
    lines = [by_id[i]["stats"]["lines_of_code"]["total"] for i in ids()]
    assert lines == sorted(lines, reverse=True)
    assert page.get_attribute("th[data-key=loc]", "aria-sort") == "descending"
    page.keyboard.press("Enter")
    lines = [by_id[i]["stats"]["lines_of_code"]["total"] for i in ids()]
    assert lines == sorted(lines)
    page.locator("th[data-key=name] button").focus()
    page.keyboard.press("Space")
    names = [by_id[i]["name"].lower() for i in ids()]
    assert names == sorted(names)
    # filter: keyboard focus reaches the box; typing keeps the matching people only
    page.locator("#q").focus()
    page.keyboard.type("cuda")
    expected = {p["id"] for p in demo_exports.profiles
                if any(lang["name"].lower() == "cuda" for lang in p["skills"]["languages"][:3])
                or "cuda" in p["name"].lower()}
    assert set(ids()) == expected and expected
    assert page.text_content("#shown") == f"{len(expected)} of {len(by_id)}"
    page.fill("#q", "demo/mlkit")
    assert set(ids()) == {p["id"] for p in demo_exports.profiles
                          if "demo/mlkit" in [r["name"] for r in p["repositories"]]}
    page.close()


def test_git_text_cannot_run_script(browser, demo_exports, tmp_path):
    evil = copy.deepcopy(demo_exports.profiles[0])
    evil["name"] = "<script>alert('name')</script><img src=x onerror=alert('img')>"
    evil["work_history"][0]["key_features"] = [
        {"title": "<script>alert('title')</script>", "repo": "<svg onload=alert('repo')>", "shas": ["abc1234"]}]
    evil["repositories"][0]["name"] = "\"><script>alert('repo')</script>"
    evil["repositories"][0]["url"] = None
    site = tmp_path / "site"
    write_site([evil], None, site)
    page = browser.new_page()
    watch = Watch(page)
    for name in _pages(site):
        page.goto((site / name).as_uri())
        assert page.evaluate("document.scripts.length") == 1
        assert page.evaluate("document.querySelectorAll('img, iframe').length") == 0
    page.goto((site / _pages(site)[1]).as_uri())
    assert page.text_content("h1") == evil["name"]
    assert "<script>alert('title')</script>" in page.text_content("#history")
    page.close()
    assert not [p for p in watch.problems if p.startswith("dialog")]
    assert not watch.problems


_CONTRAST = """() => {
  const parse = c => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const back = el => { for (; el; el = el.parentElement) { const c = parse(getComputedStyle(el).backgroundColor);
    if (c && c.a > 0.99) return c; } return parse(getComputedStyle(document.documentElement).backgroundColor) || {r: 255, g: 255, b: 255}; };
  const bad = []; let checked = 0;
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode; if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (el.closest('title, script, style, [hidden], .sr, .tip')) continue;
    const box = el.getBoundingClientRect(); if (!box.width || !box.height) continue;
    const cs = getComputedStyle(el); if (cs.visibility === 'hidden') continue;
    const svg = el instanceof SVGElement;
    const fg = parse(svg ? cs.fill : cs.color), bg = back(svg ? el.closest('svg') : el);
    const a = lum(fg), b = lum(bg), ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(cs.fontSize), bold = parseInt(cs.fontWeight, 10) >= 700;
    const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
    checked += 1;
    if (ratio < need) bad.push([node.textContent.trim().slice(0, 30), ratio.toFixed(2), need]);
  }
  return {bad, checked};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_is_aa(browser, site, scheme):
    context = browser.new_context(viewport={"width": 1400, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    for name in _pages(site):
        page.goto((site / name).as_uri())
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        result = page.evaluate(_CONTRAST)
        assert result["checked"] > 50
        assert not result["bad"], (name, result["bad"][:10])
    context.close()


def test_layouts_print_and_screenshots(browser, site, demo_exports, screenshot_dir):
    person = max(demo_exports.profiles, key=lambda p: p["stats"]["commits"])
    stem = next(Path(e["file"]).stem for e in demo_exports.index["profiles"] if e["id"] == person["id"])
    shots = []
    for scheme in ("light", "dark"):
        for width in WIDTHS:
            context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
            page = context.new_page()
            for name in ("index.html", f"people/{stem}.html"):
                page.goto((site / name).as_uri())
                # nothing wider than the window but the scrolling table/calendar boxes
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0, (name, width, overflow)
                target = screenshot_dir / f"{Path(name).stem}-{width}-{scheme}.png"
                page.screenshot(path=str(target), full_page=True)
                shots.append(target)
            context.close()
    assert all(p.stat().st_size > 10_000 for p in shots)
    print(f"\nscreenshots: {screenshot_dir}")

    page = browser.new_page()
    page.goto((site / "people" / f"{stem}.html").as_uri())
    page.emulate_media(media="print")
    hidden = page.evaluate("['.topbar', '.toc'].map(s => getComputedStyle(document.querySelector(s)).display)")
    assert hidden == ["none", "none"]
    pdf = page.pdf(format="A4")
    assert pdf[:4] == b"%PDF" and len(pdf) > 20_000
    (screenshot_dir / f"{stem}.pdf").write_bytes(pdf)
    page.close()


def test_no_page_is_wider_than_the_window(browser, tmp_path):
    """Long names, long language names, many years and repositories: tables and calendars
    scroll inside their boxes, the page itself never scrolls sideways."""
    from exceeds_pipeline.site.synthetic import synthetic_profiles

    profiles = synthetic_profiles(6, seed=21)
    profiles[0]["name"] = "🇺🇦 Sviatoslav Sydorenko (Святослав Сидоренко) Maximilian-Alexander von Habsburg"
    profiles[0]["skills"]["languages"].insert(
        0, {"name": "Protocol Buffer Text Format Language Server Definitions", "lines_added": 10**6,
            "lines_deleted": 1, "commits": 10**4})
    site = tmp_path / "site"
    write_site(profiles, None, site)
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        for name in _pages(site):
            page.goto((site / name).as_uri())
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, (name, width, overflow)
        context.close()


def test_a_prolific_persons_figures_fit_their_cards(browser, tmp_path):
    """curl's Daniel Stenberg: 'Lines of code 1,198,23' cut at the card's edge at 1200 px."""
    from exceeds_pipeline.site import render
    from exceeds_pipeline.site.synthetic import synthetic_profiles

    profile = synthetic_profiles(1, seed=9)[0]
    loc = profile["stats"]["lines_of_code"]
    loc.update(added=654_562, deleted=543_675, total=1_198_237)
    profile["stats"]["commits"] = 20_575
    page_file = tmp_path / "person.html"
    page_file.write_text(render.render_person(profile), encoding="utf-8")
    for width in (420, 1200, 1400):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto(page_file.as_uri())
        cut = page.evaluate("""[...document.querySelectorAll('.stat dd')]
            .filter(dd => dd.scrollWidth > dd.clientWidth + 1).map(dd => dd.parentElement.dataset.stat)""")
        assert cut == [], (width, cut)
        context.close()
