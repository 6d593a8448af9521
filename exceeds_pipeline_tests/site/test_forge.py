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
