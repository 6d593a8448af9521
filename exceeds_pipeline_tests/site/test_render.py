"""write_site: pages equal the profiles they come from, escaping, content-hash rewrites, atomic
swaps, stale pages removed, damage healed. Fast tests on synthetic profiles (schema-valid);
the demo's real profiles in the slow ones."""

from __future__ import annotations

import copy
import json
import os
import re
import threading
from datetime import date, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest

from exceeds_pipeline.profiles.export import safe_file_stem, validate_profile
from exceeds_pipeline.site import render
from exceeds_pipeline.site.render import MANIFEST, write_site
from exceeds_pipeline.site.synthetic import synthetic_profiles


@pytest.fixture(scope="module")
def team() -> list[dict]:
    return synthetic_profiles(12, seed=3)


class _Cells(HTMLParser):
    """data-date -> data-count of every heatmap square; data-month of every history entry."""

    def __init__(self):
        super().__init__()
        self.cells: dict[str, int] = {}
        self.months: list[str] = []
        self.scripts = 0
        self.stats: dict[str, str] = {}
        self._stat = None
        self._in_dd = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-date" in a:
            assert a["data-date"] not in self.cells, f"two squares for {a['data-date']}"
            self.cells[a["data-date"]] = int(a["data-count"])
        if tag == "article" and "data-month" in a:
            self.months.append(a["data-month"])
        if tag == "script":
            self.scripts += 1
        if "data-stat" in a:
            self._stat = a["data-stat"]
        if tag == "dd" and self._stat:
            self._in_dd = True
            self.stats[self._stat] = ""

    def handle_endtag(self, tag):
        if tag == "dd" and self._in_dd:
            self._in_dd = False
            self._stat = None

    def handle_data(self, data):
        if self._in_dd and self._stat:
            self.stats[self._stat] += data


def parse(html: str) -> _Cells:
    p = _Cells()
    p.feed(html)
    return p


def test_synthetic_profiles_are_schema_valid(team):
    for profile in team:
        validate_profile(profile)
    assert len({p["id"] for p in team}) == len(team)


def test_person_page_shows_the_profile(team):
    for profile in team:
        page = parse(render.render_person(profile))
        # every day of every year from the first to the last active year has one square ...
        years = sorted({int(d[:4]) for d in profile["activity"]})
        days = (date(years[-1], 12, 31) - date(years[0], 1, 1)).days + 1
        assert len(page.cells) == days
        first = date(years[0], 1, 1)
        assert set(page.cells) == {(first + timedelta(days=i)).isoformat() for i in range(days)}
        # ... and carries that day's count from the profile, 0 elsewhere
        assert {d: n for d, n in page.cells.items() if n} == profile["activity"]
        assert page.months == [m["month"] for m in profile["work_history"]]
        stats = profile["stats"]
        shown = {k: re.sub(r"\s+", " ", v).strip() for k, v in page.stats.items()}
        assert shown["commits"] == f"{stats['commits']:,}"
        assert shown["features"] == f"{stats['features']:,}"
        assert shown["bugs"] == f"{stats['bugs']:,}"
        assert shown["activity_months"] == str(stats["activity_months"])
        assert shown["repositories"] == str(stats["repository_contributions"])
        loc = stats["lines_of_code"]
        assert shown["lines_of_code"].startswith(f"{loc['total']:,}+{loc['added']:,} −{loc['deleted']:,}")
        if stats["feature_pct"] is not None:
            assert shown["feature_pct"].startswith(render._pct(stats["feature_pct"]))
        assert page.scripts == 1  # ours only


def test_a_person_page_points_to_the_profiles_under_the_same_name(team):
    """requests' Kenneth Reitz was four profiles: each page says where the rest of that name's
    work is, and that a config entry joins them; a page without namesakes says nothing."""
    person = copy.deepcopy(team[0])
    person["same_name"] = [{"id": "kenneth-reitz-96ed14", "commits": 717}, {"id": "kenneth-reitz-7def72", "commits": 1}]
    validate_profile(person)
    html = render.render_person(person)
    assert '<a href="kenneth-reitz-96ed14.html">kenneth-reitz-96ed14</a> (717 commits)' in html
    assert '<a href="kenneth-reitz-7def72.html">kenneth-reitz-7def72</a> (1 commit).' in html
    assert "<code>identities</code>" in html
    person["same_name"] = []
    assert 'id="same-name"' not in render.render_person(person)


def test_forge_links_or_short_shas(team):
    profile = next(p for p in team if any(r["url"] for r in p["repositories"])
                   and any(r["url"] is None for r in p["repositories"]))
    html = render.render_person(profile)
    urls = {r["name"]: r["url"] for r in profile["repositories"]}
    for month in profile["work_history"]:
        for item in month["key_features"] + month["bugs_fixed"]:
            sha = item["shas"][0]
            url = urls.get(item["repo"])
            if url and "github.com" in url:
                assert f'href="{url}/commit/{sha}"' in html
            elif url:
                assert f'href="{url}/-/commit/{sha}"' in html
            else:
                assert f'<code class="sha" title="{sha}">{sha[:7]}</code>' in html


def test_everything_from_git_is_escaped(team):
    evil = copy.deepcopy(team[0])
    evil["name"] = "<script>alert('name')</script>"
    evil["summary"] = "</p><img src=x onerror=alert(1)>"
    evil["repositories"][0]["name"] = '"><script>alert("repo")</script>'
    evil["skills"]["technical"] = [{"name": "<b onmouseover=alert(2)>SQL</b>", "commits": 1}]
    evil["quality"]["correctness"]["method"] = '"><svg onload=alert(3)>'
    month = evil["work_history"][0]
    month["key_features"] = [{"title": "<script>alert('title')</script>", "repo": "<i>r</i>", "shas": ["abcdef1"]}]
    month["summary"] = "<iframe src=//evil.example>"
    validate_profile(evil)
    # a hand-edited export the schema would reject must not become a link either
    evil["repositories"][1:2] = [dict(evil["repositories"][0], name="x", url="javascript:alert(4)")]
    html = render.render_person(evil)
    index = render.render_index([evil], {evil["id"]: "evil"})
    for page in (html, index):
        assert "<script>alert" not in page and "<img src=x" not in page and "<iframe" not in page
        assert "onmouseover=alert" not in page.replace("&lt;b onmouseover=alert", "")
        assert page.count("<script") == 1
        assert "javascript:" not in page
    assert "&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;" in html
    assert "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;" in html
    assert "&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;" in index


def test_backtick_spans_in_titles_show_as_code_and_stay_escaped(team):
    """httpx: "Fix `verify=False`, `cert=...` case." showed its backticks; a span holding markup
    stays text."""
    person = copy.deepcopy(team[0])
    month = person["work_history"][0]
    month["key_features"] = [
        {"title": "Fix `verify=False`, `cert=...` case.", "repo": "encode/httpx", "shas": ["abcdef1"]},
        {"title": "Document ``Client.send()`` and `<script>alert(1)</script>`", "repo": "encode/httpx", "shas": ["abcdef2"]},
        {"title": "Unbalanced ` tick stays", "repo": "encode/httpx", "shas": ["abcdef3"]},
    ]
    html = render.render_person(person)
    assert "Fix <code>verify=False</code>, <code>cert=...</code> case." in html
    assert "Document <code>Client.send()</code> and <code>&lt;script&gt;alert(1)&lt;/script&gt;</code>" in html
    assert "Unbalanced ` tick stays" in html
    assert html.count("<script") == 1


def test_csp_allows_only_the_inline_script():
    static = render._static()
    assert "default-src 'none'" in static["csp"]
    assert "script-src 'sha256-" in static["csp"] and "unsafe-inline" not in static["csp"].split("style-src")[0]
    assert "http" not in static["css"] and "url(" not in static["css"]
    assert "http" not in static["js"] and "fetch(" not in static["js"] and "XMLHttpRequest" not in static["js"]


def test_write_site_rewrites_only_changed_pages(team, tmp_path):
    site = tmp_path / "exports" / "site"
    first = write_site(team, None, site)
    assert first | {"site": None} == {"pages": 12, "written": 12, "unchanged": 0, "removed": 0,
                                      "index_written": True, "swapped": True, "site": None}
    files = {p.name for p in (site / "people").iterdir()}
    assert files == {f"{safe_file_stem(p['id'])}.html" for p in team}
    inodes = {p.name: p.stat().st_ino for p in (site / "people").iterdir()}

    # a new run stamps a new generated_at: not a change
    again = [dict(p, generated_at="2030-01-01T00:00:00Z") for p in team]
    second = write_site(again, None, site)
    assert (second["written"], second["unchanged"], second["removed"], second["swapped"]) == (0, 12, 0, False)

    changed = copy.deepcopy(again)
    changed[3]["summary"] = "A different summary."
    gone = changed.pop(5)
    third = write_site(changed, None, site)
    assert (third["written"], third["unchanged"], third["removed"], third["index_written"]) == (1, 10, 1, True)
    assert not (site / "people" / f"{safe_file_stem(gone['id'])}.html").exists()
    assert "A different summary." in (site / "people" / f"{safe_file_stem(changed[3]['id'])}.html").read_text()
    after = {p.name: p.stat().st_ino for p in (site / "people").iterdir()}
    untouched = [n for n in after if n != f"{safe_file_stem(changed[3]['id'])}.html"]
    assert all(after[n] == inodes[n] for n in untouched), "unchanged pages are the same files (hard links)"
    assert gone["name"] not in (site / "index.html").read_text()
    assert sorted(os.listdir(tmp_path / "exports")) == ["site"], "no build folder left beside"


def test_write_site_heals_damage(team, tmp_path):
    site = tmp_path / "site"
    write_site(team, None, site)
    victim = site / "people" / f"{safe_file_stem(team[0]['id'])}.html"
    victim.unlink()
    (site / "people" / "stray.html").write_text("not ours")
    healed = write_site(team, None, site)
    assert healed["written"] == 1 and victim.is_file()
    assert not (site / "people" / "stray.html").exists()

    (site / MANIFEST).write_text("{ broken")
    rebuilt = write_site(team, None, site)
    assert rebuilt["written"] == 12
    assert json.loads((site / MANIFEST).read_text())["pages"].keys() == {p["id"] for p in team}


def test_failed_write_keeps_the_old_site(team, tmp_path, monkeypatch):
    tmp_path = tmp_path / "out"  # beside the autouse dagster_home
    site = tmp_path / "site"
    write_site(team, None, site)
    before = {p.name: p.read_bytes() for p in sorted((site / "people").iterdir())}
    index_before = (site / "index.html").read_bytes()
    calls = {"n": 0}
    real = render.render_person

    def flaky(profile):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("killed half-way")
        return real(profile)

    monkeypatch.setattr(render, "render_person", flaky)
    changed = [dict(p, summary=f"new {i}") for i, p in enumerate(team)]
    with pytest.raises(RuntimeError):
        write_site(changed, None, site, workers=1)
    assert {p.name: p.read_bytes() for p in sorted((site / "people").iterdir())} == before
    assert (site / "index.html").read_bytes() == index_before
    assert sorted(os.listdir(tmp_path)) == ["site"]

    # a run killed without cleanup leaves a build folder: the next run removes it
    (tmp_path / ".site.new-deadbeef" / "people").mkdir(parents=True)
    monkeypatch.setattr(render, "render_person", real)
    write_site(changed, None, site)
    assert sorted(os.listdir(tmp_path)) == ["site"]


def test_a_reader_never_sees_half_a_site(team, tmp_path):
    """Readers loop over the site while it is rewritten. The site folder always exists with its
    index; the folder a reader opened holds one whole version (the index and every page it links
    to, all of the same version) until a newer one has taken its place."""
    site = tmp_path / "site"
    write_site(team, None, site)
    stop = threading.Event()
    problems: list[str] = []
    whole_reads = [0]

    def read(fd: int, name: str) -> str:
        with open(name, encoding="utf-8", opener=lambda path, flags: os.open(path, flags, dir_fd=fd)) as fh:
            return fh.read()

    def reader():
        while not stop.is_set():
            try:
                fd = os.open(site, os.O_RDONLY | os.O_DIRECTORY)
            except FileNotFoundError:
                problems.append("the site folder was missing")
                continue
            try:
                index = read(fd, "index.html")
                version = re.search(r"window: ([^<]*)<", index).group(1)
                for href in re.findall(r'href="(people/[^"]+)"', index):
                    if f"window: {version}<" not in read(fd, href):
                        problems.append(f"{href} is not from the version of its index ({version})")
                whole_reads[0] += 1
            except FileNotFoundError as exc:
                if os.stat(site).st_ino == os.fstat(fd).st_ino:  # still the current site
                    problems.append(f"missing in the current site: {exc.filename}")
            finally:
                os.close(fd)

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    try:
        for k in range(8):
            window = {"since": f"20{10 + k}-01-01", "until": None}
            write_site([dict(p, window=window) for p in team], None, site, workers=1)
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not problems[:5]
    assert whole_reads[0] > 0


def test_page_names_follow_the_json_export(team, tmp_path):
    odd = copy.deepcopy(team[:2])
    odd[0]["id"] = "../../etc/passwd"
    odd[1]["id"] = "Ada"
    index = {"profiles": [{"id": "../../etc/passwd", "file": f"profiles/{safe_file_stem('../../etc/passwd')}.json"},
                          {"id": "Ada", "file": "profiles/Ada.json"}]}
    result = write_site(odd, index, tmp_path / "site")
    assert result["written"] == 2
    names = sorted(p.name for p in (tmp_path / "site" / "people").iterdir())
    assert names == sorted([f"{safe_file_stem('../../etc/passwd')}.html", "Ada.html"])
    assert not (tmp_path / "etc").exists()


def test_parallel_and_serial_pages_are_identical(tmp_path, monkeypatch):
    profiles = synthetic_profiles(40, seed=11)
    monkeypatch.setattr(render, "PARALLEL_MIN_PAGES", 10)
    write_site(profiles, None, tmp_path / "serial", workers=1)
    write_site(profiles, None, tmp_path / "parallel", workers=2)
    for page in (tmp_path / "serial" / "people").iterdir():
        assert page.read_bytes() == (tmp_path / "parallel" / "people" / page.name).read_bytes()
    assert (tmp_path / "serial" / "index.html").read_bytes() == (tmp_path / "parallel" / "index.html").read_bytes()


@pytest.mark.slow
def test_demo_site_matches_the_demo_profiles(demo_exports, tmp_path):
    site = tmp_path / "site"
    result = write_site(demo_exports.profiles, demo_exports.index, site)
    assert result["pages"] == len(demo_exports.profiles) == demo_exports.index["count"] > 0
    index_html = (site / "index.html").read_text("utf-8")
    for entry, profile in zip(demo_exports.index["profiles"], demo_exports.profiles):
        stem = Path(entry["file"]).stem
        page = site / "people" / f"{stem}.html"
        assert f'href="people/{stem}.html"' in index_html
        parsed = parse(page.read_text("utf-8"))
        assert {d: n for d, n in parsed.cells.items() if n} == profile["activity"]
        assert parsed.months == [m["month"] for m in profile["work_history"]]
        assert parsed.stats["commits"].strip() == f"{profile['stats']['commits']:,}"
    html = "".join(p.read_text("utf-8") for p in (site / "people").iterdir())
    assert "ghp_secretToken123" not in html and "octo:" not in html
    assert "https://github.com/nimbus-labs/webapp/commit/" in html  # demo/webapp has a GitHub remote


def test_a_profile_with_nothing_yet_still_renders(tmp_path):
    bare = {
        "schema_version": "1.0.0", "id": "nobody", "name": "", "generated_at": "2026-01-01T00:00:00Z",
        "window": {"since": "2025-01-01", "until": "2025-12-31"}, "summary": "",
        "stats": {"commits": 0, "repository_contributions": 0, "features": 0, "bugs": 0, "feature_pct": None,
                  "lines_of_code": {"added": 0, "deleted": 0, "total": 0}, "activity_months": 0},
        "work_history": [], "activity": {},
        "quality": {k: {"value": None, "evidence_count": 0, "method": "Not computed."} for k in render.METRIC_LABELS},
        "skills": {"languages": [], "technical": []}, "repositories": [],
    }
    validate_profile(bare)
    html = render.render_person(bare)
    assert html.count("Not enough evidence") == 5
    # a fact that could not be computed is pending, not short of evidence
    failed = {**bare, "quality": {**bare["quality"], "performance": {
        "value": None, "evidence_count": 0,
        "method": "Pending: the repository facts this metric needs (line survival) could not be computed (git log failed)."}}}
    validate_profile(failed)
    shown = render.render_person(failed)
    assert shown.count("Not enough evidence") == 4 and shown.count("Pending: not computed yet") == 1
    assert "No activity in the window." in html and "No counted commits in the window." in html
    assert "<h1 id=\"person-name\">nobody</h1>" in html  # an empty name falls back to the id
    assert "window: 2025-01-01 to 2025-12-31" in html
    result = write_site([bare], None, tmp_path / "site")
    assert result["written"] == 1 and "nobody" in (tmp_path / "site" / "index.html").read_text()
    assert write_site([], None, tmp_path / "site")["removed"] == 1
    assert "No profiles yet" in (tmp_path / "site" / "index.html").read_text()


def test_a_month_list_cut_short_says_it_shows_the_largest(team):
    """A month's heading counts every bug fixed; its list names at most ten: the heading of the
    list says so instead of leaving '12 bugs fixed' above ten titles."""
    profile = copy.deepcopy(next(p for p in team if any(m["bugs_fixed"] for m in p["work_history"])))
    month = next(m for m in profile["work_history"] if m["bugs_fixed"])
    month["bugs_fixed"] = (month["bugs_fixed"] * 10)[:10]
    month["bugs"] = 12
    month["key_features"] = month["key_features"][:1] or [month["bugs_fixed"][0]]
    month["features"] = len(month["key_features"])
    html = render.render_person(profile)
    article = re.search(rf'<article class="month" data-month="{month["month"]}".*?</article>', html, re.S).group(0)
    headings = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", h)).strip() for h in re.findall(r"<h4>(.*?)</h4>", article, re.S)]
    assert headings[:2] == ["Key features", "Bugs fixed · the 10 largest of 12"]


def test_a_months_performance_work_is_listed(team):
    """A month's performance items are listed under their own heading, as features and fixes are."""
    profile = copy.deepcopy(next(p for p in team if any(m["bugs_fixed"] for m in p["work_history"])))
    month = next(m for m in profile["work_history"] if m["bugs_fixed"])
    month["performance"] = [dict(month["bugs_fixed"][0], title="Cache compiled `patterns`")]
    validate_profile(profile)
    html = render.render_person(profile)
    article = re.search(rf'<article class="month" data-month="{month["month"]}".*?</article>', html, re.S).group(0)
    assert "<h4>Performance</h4>" in article
    assert '<ul class="items performance">' in article and "Cache compiled <code>patterns</code>" in article


def test_a_month_without_lines_of_code_says_so(team):
    """requests and express: a month of only documentation or configuration read '3 commits ·
    +0 −0', as if nothing was done; it says there were no lines of code."""
    profile = copy.deepcopy(team[0])
    month = profile["work_history"][0]
    month["lines_added"] = month["lines_deleted"] = 0
    html = render.render_person(profile)
    article = re.search(rf'<article class="month" data-month="{month["month"]}".*?</article>', html, re.S).group(0)
    assert "+0" not in article and "no lines of code" in article
    figures = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.search(r'<p class="figures">(.*?)</p>', article, re.S).group(1)))
    assert "no lines of code ·" in figures  # express: "no lines of code· expressjs/express"
    other = profile["work_history"][1]
    article = re.search(rf'<article class="month" data-month="{other["month"]}".*?</article>', html, re.S).group(0)
    assert f'+{other["lines_added"]:,}' in article and "no lines of code" not in article
