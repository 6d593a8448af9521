"""The demo generator is deterministic and what its manifest claims is really in git."""

from __future__ import annotations

import json
import re
import time

import pytest
import yaml

from exceeds_pipeline.demo.generate import (
    BOT,
    CONFIG_IDENTITIES,
    NAME_ONLY_NOT_MERGED,
    PEOPLE,
    build_demo_repositories,
    manifest,
    write_demo_config,
)
from exceeds_pipeline_tests.gitscript import run_git
from exceeds_pipeline.schemas import COMMIT_CATEGORIES


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    dest = tmp_path_factory.mktemp("demo")
    start = time.monotonic()
    repos = build_demo_repositories(dest)
    elapsed = time.monotonic() - start
    return dest, repos, elapsed


@pytest.fixture(scope="module")
def repos(built):
    return {r.name: r for r in built[1]}


def git(repo, *args):
    return run_git(args, repo.path)


def log(repo, fmt, *args):
    return git(repo, "log", f"--format={fmt}", *args).splitlines()


def test_deterministic_and_fast(built, tmp_path):
    dest, first, elapsed = built
    second = build_demo_repositories(tmp_path)
    assert elapsed < 5
    for a, b in zip(first, second, strict=True):
        assert a.name == b.name
        assert git(a, "rev-list", "--all") == git(b, "rev-list", "--all")
        assert [c.sha for c in a.commits] == [c.sha for c in b.commits]
    strip = lambda m: json.loads(json.dumps(m).replace(str(dest), "X").replace(str(tmp_path), "X"))  # noqa: E731
    assert strip(manifest(first)) == strip(manifest(second))


# The shas the demo had when it was a git script (before its history moved to data files). A
# different build (another git version, machine or zone, or a builder change) must not move
# them; change them only with the demo data, on purpose.
PINNED_HEADS = {
    "demo/webapp": "9cbadb8b822e92ce5214ac37a5c881a9e742ffb5",
    "demo/mlkit": "93341a864766106ea5feeca127afe345e45ad1de",
}


def test_shas_are_pinned(repos):
    assert {name: r.head for name, r in repos.items()} == PINNED_HEADS
    assert {name: git(r, "rev-parse", "HEAD") for name, r in repos.items()} == PINNED_HEADS


def test_user_git_config_and_zone_do_not_change_shas(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[core]\n\tautocrlf = true\n[commit]\n\tgpgsign = true\n"
                                      "[init]\n\tdefaultBranch = trunk\n[user]\n\tname = Mallory\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TZ", "America/New_York")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Mallory")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2001-01-01T00:00:00+0000")
    repos = build_demo_repositories(tmp_path / "demo")
    assert {r.name: r.head for r in repos} == PINNED_HEADS


def test_refuses_to_clobber_without_overwrite(built):
    dest, repos, _ = built
    with pytest.raises(FileExistsError):
        build_demo_repositories(dest)


def test_manifest_matches_history(repos):
    assert set(repos) == {"demo/webapp", "demo/mlkit"}
    total = 0
    for r in repos.values():
        shas = git(r, "rev-list", "main").splitlines()
        assert set(shas) == {c.sha for c in r.commits}
        assert git(r, "rev-parse", "HEAD") == r.head
        assert git(r, "status", "--porcelain") == ""
        total += len(shas)
        for c in r.commits:
            parents = git(r, "log", "-1", "--format=%P", c.sha).split()
            assert (len(parents) == 2) == c.is_merge
            assert c.subject == git(r, "log", "-1", "--format=%s", c.sha)
            assert git(r, "log", "-1", "--format=%aI", c.sha) == c.author_date[:-2] + ":" + c.author_date[-2:]
            assert (c.category is None) == c.is_merge
            assert c.is_merge or c.category in COMMIT_CATEGORIES
    assert 60 <= total <= 150
    json.dumps(manifest(list(repos.values())))  # plain data


def test_people_months_and_offsets(repos):
    raw = set()
    months, offsets = set(), set()
    for r in repos.values():
        raw |= {tuple(x.split("|")) for x in log(r, "%an|%ae")}
        months |= set(x[:7] for x in log(r, "%ad", "--date=short"))
        offsets |= set(x.split()[1] for x in log(r, "%ad", "--date=raw"))
    known = {(n, e) for p in (*PEOPLE, BOT) for n in p.names for e in p.emails}
    assert raw <= known
    humans = [p for p in PEOPLE if not p.is_bot]
    assert len(humans) >= 5
    assert len(months) >= 12 and min(months) == "2025-01" and max(months) == "2026-02"
    assert len(offsets) >= 5
    # every person really appears in each repository the manifest lists for them
    for p in (*PEOPLE, BOT):
        for name in p.repos:
            emails = {e.lower() for e in log(repos[name], "%ae")}
            assert emails & {e.lower() for e in p.emails}, (p.key, name)


def test_mailmap_joins_maya(repos):
    web = repos["demo/webapp"]
    assert git(web, "check-mailmap", "maya <maya.chen@gmail.com>") == "Maya Chen <maya@nimbuslabs.io>"
    mapped = {tuple(x.split("|")) for x in log(web, "%ae|%aE|%aN") if "maya" in x.lower()}
    assert mapped == {("maya.chen@gmail.com", "maya@nimbuslabs.io", "Maya Chen"),
                      ("maya@nimbuslabs.io", "maya@nimbuslabs.io", "Maya Chen")}
    # in mlkit the same person writes her address once in another case
    ml = repos["demo/mlkit"]
    assert "Maya@NimbusLabs.io" in log(ml, "%ae")
    assert git(ml, "log", "-1", "--format=%ae", ml.sha("maya_upper")) == "Maya@NimbusLabs.io"


def test_noreply_ids_and_name_only_trap(repos):
    web_emails = set(log(repos["demo/webapp"], "%ae"))
    noreply = {e for e in web_emails if e.endswith("@users.noreply.github.com") and "[bot]" not in e}
    assert {re.match(r"(\d+)\+", e).group(1) for e in noreply} == {"48213"}
    assert len(noreply) == 2  # login renamed, same id
    gh, plain = (next(p for p in PEOPLE if p.key == k) for k in NAME_ONLY_NOT_MERGED)
    assert gh.name == plain.name and not set(gh.emails) & set(plain.emails)
    assert "Diego Ramírez|diego@ramirez.dev" in log(repos["demo/mlkit"], "%an|%ae")
    assert git(repos["demo/mlkit"], "check-mailmap", "Diego Ramírez <diego@ramirez.dev>") == \
        "Diego Ramírez <diego@ramirez.dev>"


def test_config_identity_joins_sam(repos, tmp_path):
    web_sam = {x for x in log(repos["demo/webapp"], "%an|%ae") if "okafor" in x.lower()}
    ml_sam = {x for x in log(repos["demo/mlkit"], "%an|%ae") if "okafor" in x.lower()}
    assert web_sam == {"Sam Okafor|sam.okafor@nimbuslabs.io"}
    assert ml_sam == {"Samuel Okafor|sam@okafor.me"}
    cfg = yaml.safe_load(write_demo_config(tmp_path / "c.yaml", list(repos.values())).read_text())
    assert cfg["identities"] == CONFIG_IDENTITIES
    assert [(x["name"], x["branch"]) for x in cfg["repositories"]] == [("demo/webapp", "main"), ("demo/mlkit", "main")]
    for entry in cfg["repositories"]:
        assert run_git(["rev-parse", "--is-inside-work-tree"], entry["path"]) == "true"
    assert "identities" not in yaml.safe_load(
        write_demo_config(tmp_path / "d.yaml", list(repos.values()), include_identities=False).read_text())


def test_bot_bumps_lock_files(repos):
    for r in repos.values():
        assert r.bot_commits
        for sha in r.bot_commits:
            assert git(r, "log", "-1", "--format=%an <%ae>", sha) == \
                "dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>"
            paths = git(r, "show", "--format=", "--name-only", sha).splitlines()
            assert any(p in ("package-lock.json", "uv.lock") for p in paths)
            assert git(r, "log", "-1", "--format=%s", sha).startswith("Bump ")


def test_merges_and_squashes(repos):
    web = repos["demo/webapp"]
    assert len(web.merges) >= 4
    for sha in web.merges:
        subject = git(web, "log", "-1", "--format=%s", sha)
        m = re.fullmatch(r"Merge pull request #(\d+) from \S+/\S+", subject)
        assert m
        pr = web.pull_requests[int(m.group(1))]
        assert pr.merge_sha == sha
        assert set(git(web, "rev-list", f"{sha}^1..{sha}^2").splitlines()) == set(pr.shas)
        assert git(web, "log", "-1", "--format=%cn", sha) == "GitHub"
    ml = repos["demo/mlkit"]
    squashes = [c for c in ml.commits if re.search(r" \(#\d+\)$", c.subject)]
    assert len(squashes) >= 10
    for c in squashes:
        assert git(ml, "log", "-1", "--format=%cn|%P", c.sha).split("|")[0] == "GitHub"
        assert ml.pull_requests[c.pr].shas == [c.sha]
    assert not ml.merges


def test_renames_with_edits(repos):
    n = 0
    for r in repos.values():
        for sha, old, new in r.renames:
            status = git(r, "show", "--format=", "--name-status", sha).splitlines()
            [row] = [s.split("\t") for s in status if s.split("\t")[1:] == [old, new]]
            assert row[0].startswith("R") and int(row[0][1:]) < 100  # detected, and edited too
            numstat = git(r, "show", "--format=", "--numstat", sha)
            assert "=>" in numstat
            n += 1
    assert n >= 5


def test_binaries(repos):
    n = 0
    for r in repos.values():
        for sha, path in r.binaries:
            line = next(x for x in git(r, "show", "--format=", "--numstat", sha).splitlines() if x.endswith(path))
            assert line.startswith("-\t-\t")
            blob = run_git(["cat-file", "-p", f"{sha}:{path}"], r.path)
            assert blob.startswith("\udc89PNG")  # surrogate-escaped 0x89
            n += 1
    assert n >= 3  # webapp logo added + updated, mlkit diagram


def test_excluded_paths_exist(repos):
    reasons = set()
    for r in repos.values():
        files = set(git(r, "ls-files").splitlines())
        for path, reason in r.excluded_paths.items():
            assert path in files
            reasons.add(reason)
    assert reasons == {"lock_file", "vendored", "generated", "binary"}
    assert any(p.endswith(".min.js") for r in repos.values() for p in r.excluded_paths)
    assert any(p.startswith("third_party/") for r in repos.values() for p in r.excluded_paths)


def test_revert_and_reland(repos):
    ml = repos["demo/mlkit"]
    [(revert, reverted)] = ml.reverts
    assert reverted == ml.sha("softmax") and revert == ml.sha("revert")
    body = git(ml, "log", "-1", "--format=%B", revert)
    assert body.startswith(f'Revert "Add fused softmax CUDA kernel (#10)"\n\nThis reverts commit {reverted}.\n')
    assert git(ml, "rev-parse", f"{revert}^{{tree}}") == git(ml, "rev-parse", f"{reverted}^^{{tree}}")
    [(reland, original)] = ml.relands
    assert original == reverted
    assert git(ml, "log", "-1", "--format=%s", reland) == 'Reland "Add fused softmax CUDA kernel"'
    assert f"This is a reland of commit {original[:12]}" in git(ml, "log", "-1", "--format=%B", reland)


def test_numbered_series(repos):
    [series] = repos["demo/webapp"].series
    subjects = [git(repos["demo/webapp"], "log", "-1", "--format=%s", s) for s in series]
    assert [s[:5] for s in subjects] == ["[1/3]", "[2/3]", "[3/3]"]
    people = {git(repos["demo/webapp"], "log", "-1", "--format=%ae", s) for s in series}
    assert len(people) == 1


def test_ai_trailers(repos):
    found = {}
    for r in repos.values():
        for sha, tool in r.ai_commits.items():
            trailers = git(r, "log", "-1", "--format=%(trailers:key=Co-authored-by,valueonly)", sha).strip()
            subject = git(r, "log", "-1", "--format=%s|%an", sha)
            found.setdefault(tool, []).append(trailers + "|" + subject)
    assert set(found) == {"Claude Code", "GitHub Copilot", "Aider"}  # enrich.ai_tools names
    assert all("Claude <noreply@anthropic.com>" in x for x in found["Claude Code"])
    assert found["GitHub Copilot"] == ["Copilot <175728472+Copilot@users.noreply.github.com>|"
                                "feat(api): Add pagination to GET /tasks|Maya Chen"]
    assert any(x.startswith("|aider: ") and x.endswith("(aider)") for x in found["Aider"])
    assert any("<noreply@aider.chat>" in x for x in found["Aider"])
    # commits not in the manifest carry no co-author trailer
    for r in repos.values():
        for c in r.commits:
            if c.sha not in r.ai_commits:
                assert not git(r, "log", "-1", "--format=%(trailers:key=Co-authored-by)", c.sha)


def test_fixes_trailers_name_earlier_commits(repos):
    n = 0
    for r in repos.values():
        for fix, target in r.fixes_trailers:
            body = git(r, "log", "-1", "--format=%B", fix)
            m = re.search(r'^Fixes: ([0-9a-f]{12}) \("(.*)"\)$', body, re.M)
            assert m and target.startswith(m.group(1))
            assert m.group(2) == git(r, "log", "-1", "--format=%s", target)
            assert git(r, "merge-base", "--is-ancestor", target, fix) == ""
            n += 1
    assert n >= 2


def _blamed_commits_of_deleted_lines(r, fix):
    out = set()
    diff = git(r, "diff", "-U0", "--no-color", "-M", f"{fix}^", fix)
    path = None
    for line in diff.splitlines():
        if line.startswith("--- "):
            path = None if line == "--- /dev/null" else line[6:]
        m = re.match(r"@@ -(\d+)(?:,(\d+))? ", line)
        if m and path:
            start, count = int(m.group(1)), int(m.group(2) or 1)
            if count:
                porcelain = git(r, "blame", "--porcelain", "-L", f"{start},+{count}", f"{fix}^", "--", path)
                out |= set(re.findall(r"^([0-9a-f]{40}) ", porcelain, re.M))
    return out


def test_szz_pairs_blame_back(repos):
    n = 0
    for r in repos.values():
        for fix, inducing in r.szz:
            assert r.by_sha(fix).category == "bug"
            assert inducing in _blamed_commits_of_deleted_lines(r, fix), (r.name, r.by_sha(fix).subject)
            n += 1
    assert n >= 6


def test_rework_within_21_days(repos):
    web = repos["demo/webapp"]
    [(orig, rewrite)] = web.rework
    assert orig in _blamed_commits_of_deleted_lines(web, rewrite)
    t0, t1 = (int(git(web, "log", "-1", "--format=%at", s)) for s in (orig, rewrite))
    assert 0 < t1 - t0 < 21 * 86400


def test_local_date_differs_from_utc(repos):
    all_pairs = []
    for r in repos.values():
        for sha, local, utc in r.local_date_differs:
            assert git(r, "log", "-1", "--format=%ad", "--date=short", sha) == local
            assert git(r, "log", "-1", "--format=%ad", "--date=format-local:%Y-%m-%d", sha) == utc  # TZ=UTC
            all_pairs.append((local, utc))
    assert ("2025-07-31", "2025-08-01") in all_pairs  # month differs too (US evening)
    assert ("2025-09-01", "2025-08-31") in all_pairs  # and the other way (India early morning)


def test_feature_and_bug_subjects(repos):
    subjects = [c.subject for r in repos.values() for c in r.commits]
    assert any(s.startswith("Add support for ") for s in subjects)
    assert any(s.startswith("feat(") for s in subjects)
    assert any(s.startswith("Fix crash when ") for s in subjects)
    assert any(s.startswith("fix: ") for s in subjects)
    cats = {c.category for r in repos.values() for c in r.commits if c.category}
    assert {"feature", "bug", "refactor", "perf", "docs", "test", "build", "revert", "chore"} <= cats
