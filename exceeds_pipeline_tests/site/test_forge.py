"""Forge web addresses: GitHub/GitLab remotes in every spelling git accepts, credentials never
kept, anything else None; remote.origin.url read from real clones."""

from __future__ import annotations

import pytest

from exceeds_pipeline.config import parse_config
from exceeds_pipeline.site.forge import commit_url, forge_web_url, origin_remote_url, repository_web_urls


@pytest.mark.parametrize(
    ("remote", "web"),
    [
        ("https://github.com/pytorch/benchmark.git", "https://github.com/pytorch/benchmark"),
        ("https://github.com/pytorch/benchmark", "https://github.com/pytorch/benchmark"),
        ("https://github.com/pytorch/benchmark/", "https://github.com/pytorch/benchmark"),
        ("https://user:ghp_token@github.com/pytorch/benchmark.git", "https://github.com/pytorch/benchmark"),
        ("https://x-access-token:abc@GitHub.com/Org/Repo.git", "https://github.com/Org/Repo"),
        ("git@github.com:git/git.git", "https://github.com/git/git"),
        ("ssh://git@github.com/git/git.git", "https://github.com/git/git"),
        ("ssh://git@github.com:22/git/git", "https://github.com/git/git"),
        ("git://github.com/git/git.git", "https://github.com/git/git"),
        ("https://gitlab.com/gitlab-org/gitlab.git", "https://gitlab.com/gitlab-org/gitlab"),
        ("https://oauth2:glpat-xyz@gitlab.com/group/sub/project.git", "https://gitlab.com/group/sub/project"),
        ("git@gitlab.com:group/sub/project.git", "https://gitlab.com/group/sub/project"),
        ("https://gitlab.gnome.org/GNOME/gtk.git", "https://gitlab.gnome.org/GNOME/gtk"),
    ],
)
def test_forge_web_url_of_github_and_gitlab_remotes(remote, web):
    assert forge_web_url(remote) == web
    assert forge_web_url(web) == web  # idempotent: a web address stays as it is


@pytest.mark.parametrize(
    "remote",
    [
        None, "", "/home/me/src/repo", "file:///srv/git/repo.git", "../checkouts/benchmark",
        "https://bitbucket.org/team/repo.git", "https://git.kernel.org/pub/scm/git/git.git",
        "https://github.com/onlyowner", "https://github.com/a/b/c",  # not a GitHub repository
        "https://github.com/a/..", "https://github.com/a/b c", "ftp://github.com/a/b",
        "github.com:a/b\nrm", "ext::sh -c touch% /tmp/pwned",
    ],
)
def test_forge_web_url_is_none_elsewhere(remote):
    assert forge_web_url(remote) is None


def test_commit_url_per_forge():
    sha = "0123456789abcdef0123456789abcdef01234567"
    assert commit_url("https://github.com/git/git", sha) == f"https://github.com/git/git/commit/{sha}"
    assert commit_url("https://gitlab.com/g/s/p", sha) == f"https://gitlab.com/g/s/p/-/commit/{sha}"
    assert commit_url(None, sha) is None
    assert commit_url("https://github.com/git/git", "not-a-sha") is None
    assert commit_url("https://example.com/git/git", sha) is None
    assert commit_url("javascript://github.com/%0aalert(1)", sha) is None
    assert commit_url("http://github.com/git/git", sha) is None


def test_remote_of_real_clones(make_repo, tmp_path):
    with_remote = make_repo("with-remote")
    with_remote.commit("one", files={"a.txt": "a\n"})
    with_remote.git("remote", "add", "origin", "https://bot:s3cret@gitlab.com/team/app.git")
    without = make_repo("without")
    without.commit("one", files={"a.txt": "a\n"})
    bare = make_repo("bare.git", bare=True)
    bare.git("remote", "add", "origin", "git@github.com:team/lib.git")

    assert origin_remote_url(with_remote.path) == "https://bot:s3cret@gitlab.com/team/app.git"
    assert origin_remote_url(without.path) is None
    assert origin_remote_url(tmp_path / "missing") is None

    config = parse_config(
        {"repositories": [
            {"path": "with-remote"}, {"path": str(without.path)}, {"path": "bare.git", "name": "team/lib"},
            {"url": "https://user:tok@github.com/org/service.git"},
        ]},
        base_dir=tmp_path,
    )
    assert repository_web_urls(config.repositories) == {
        "with-remote": "https://gitlab.com/team/app",  # credentials stripped
        "without": None,
        "team/lib": "https://github.com/team/lib",
        "org/service": "https://github.com/org/service",
    }


def test_build_profiles_exports_the_web_url_of_each_repository():
    from datetime import datetime, timezone

    from exceeds_pipeline.profiles import build_profiles, validate_profile
    from exceeds_pipeline.quality import quality_metrics
    from exceeds_pipeline.rollups import monthly_rollups, repo_rollups
    from exceeds_pipeline_tests.rollups.frames import commit, commits_frame, fc, files_frame, items_frame, people_frame, wi

    commits = commits_frame([
        commit("a1" * 20, "ada", "2025-03-01T10:00:00+00:00", repo="acme/api", category="feature", item="w1"),
        commit("b2" * 20, "ada", "2025-04-01T10:00:00+00:00", repo="acme/web", category="bug", item="w2"),
        commit("c3" * 20, "ada", "2025-04-02T10:00:00+00:00", repo="acme/lab", category="bug", item="w3"),
    ])
    files = files_frame([fc("a1" * 20, "api.py", repo="acme/api"), fc("b2" * 20, "web.ts", repo="acme/web"),
                         fc("c3" * 20, "lab.py", repo="acme/lab")])
    items = items_frame([wi("w1", "ada", "feature", "Add API", repo="acme/api"),
                         wi("w2", "ada", "bug", "Fix web", repo="acme/web"),
                         wi("w3", "ada", "bug", "Fix lab", repo="acme/lab")])
    monthly = monthly_rollups(commits, items, files)
    repos = repo_rollups(commits, items, files, None)
    quality = quality_metrics(commits, items, None, files)
    remotes = {"acme/api": "https://ci:tok@github.com/acme/api.git", "acme/web": "git@gitlab.com:acme/web.git",
               "acme/lab": "/srv/git/lab"}
    (profile,) = build_profiles(people_frame([]), commits, items, monthly, repos, quality, files, None,
                                None, datetime(2025, 5, 1, tzinfo=timezone.utc), repo_urls=remotes)
    validate_profile(profile)
    assert {r["name"]: r["url"] for r in profile["repositories"]} == {
        "acme/api": "https://github.com/acme/api", "acme/web": "https://gitlab.com/acme/web", "acme/lab": None}
    (unwired,) = build_profiles(people_frame([]), commits, items, monthly, repos, quality, files, None,
                                None, datetime(2025, 5, 1, tzinfo=timezone.utc))
    validate_profile(unwired)
    assert all(r["url"] is None for r in unwired["repositories"])
    for bad in ("javascript:alert(1)", "http://github.com/a/b", "https://user:pw@github.com/a/b"):
        broken = dict(profile, repositories=[dict(profile["repositories"][0], url=bad)])
        with pytest.raises(Exception, match="url"):
            validate_profile(broken)
