"""Finding, cloning and fetching repositories, with clear errors, on real git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.ingest.gitcmd import GitError, redact
from exceeds_pipeline.ingest.incremental import ingest_repository
from exceeds_pipeline.ingest.raw_store import RawStore
from exceeds_pipeline.ingest.repository import (
    LocalRepository,
    clone_or_fetch,
    is_shallow,
    name_from_path,
    name_from_url,
    open_local,
    resolve_branch,
    storage_slug,
    validate_url,
)
from exceeds_pipeline_tests.conftest import git_out, rev_count

NAME = "acme/app"


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/pytorch/benchmark.git",
        "HTTPS://example.com/a/b",
        "ssh://git@github.com/owner/repo.git",
        "ssh://git@example.com:2222/owner/repo.git",
        "git://git.kernel.org/pub/scm/git/git.git",
        "file:///srv/git/repo.git",
        "git@github.com:owner/repo.git",
        "example.com:owner/repo",
        "https://user:token@example.com/org/repo.git",
    ],
)
def test_validate_url_accepts_allowed_transports(url):
    validate_url(url)


@pytest.mark.parametrize(
    "url, why",
    [
        ("ext::sh -c touch% /tmp/pwned", "remote helper"),
        ("ext::sh -c 'touch /tmp/pwned'", "remote helper"),
        ("fd::17", "remote helper"),
        ("fd::0,1/x", "remote helper"),
        ("http://example.com/repo.git", "'http'"),
        ("ftp://example.com/repo.git", "'ftp'"),
        ("rsync://example.com/repo.git", "'rsync'"),
        ("--upload-pack=touch /tmp/x", "must not start with '-'"),
        ("-oProxyCommand=touch /tmp/x", "must not start with '-'"),
        ("", "not a URL"),
        ("/srv/git/repo.git", "use `path:`"),
        ("https://example.com/a\nb", "control characters"),
    ],
)
def test_validate_url_refuses_other_transports(url, why):
    with pytest.raises(ValueError) as err:
        validate_url(url)
    assert why in str(err.value)


def test_refused_url_with_credentials_is_redacted():
    with pytest.raises(ValueError) as err:
        validate_url("ftp://user:secret@example.com/x.git")
    assert "secret" not in str(err.value) and "user:" not in str(err.value)


def test_redact():
    assert redact("fatal: https://user:tok3n@host/x.git and ssh://git:pw@h/y") == (
        "fatal: https://***@host/x.git and ssh://***@h/y"
    )
    assert redact("https://host/x.git") == "https://host/x.git"


def test_names_from_url_and_path(tmp_path):
    assert name_from_url("https://github.com/pytorch/benchmark.git") == "pytorch/benchmark"
    assert name_from_url("git@github.com:owner/repo.git") == "owner/repo"
    assert name_from_url("https://user:secret@127.0.0.1:9/x.git") == "x"
    assert "secret" not in name_from_url("https://user:secret@example.com")
    assert name_from_path("../checkouts/benchmark") == "benchmark"
    assert name_from_path(str(tmp_path / "proj.git")) == "proj"
    # storage folders: safe names, distinct for names that look alike
    assert storage_slug("a/b") != storage_slug("a_b")
    slug = storage_slug("../../etc/passwd")
    assert "/" not in slug and not slug.startswith(".")


@pytest.fixture
def remote(tmp_path) -> GitScript:
    """A bare repository with five commits on main, pushed from a developer clone."""
    dev = GitScript.init(tmp_path / "dev")
    for i in range(5):
        dev.commit(f"c{i}", date=f"2025-01-0{i + 1}T10:00:00+0000", files={"a.txt": f"{i}\n"})
    dev.branch("dev")
    dev.branch("feature/x")
    bare = GitScript.init(tmp_path / "remote.git", bare=True)
    for b in ("main", "dev", "feature/x"):
        dev.push(bare.path, b)
    bare.dev = dev
    return bare


def test_clone_file_url_then_fetch_follows_force_push(remote, tmp_path):
    repos = tmp_path / "data" / "repos"
    url = remote.path.as_uri()
    assert url.startswith("file:///")
    git_dir = clone_or_fetch(NAME, url, repos)
    assert git_dir.parent == repos and git_dir.name.endswith(".git")
    assert git_out(git_dir, "rev-parse", "--is-bare-repository").strip() == "true"
    branch, tip = resolve_branch(NAME, git_dir, None)
    assert (branch, tip) == ("main", remote.rev("main"))
    assert rev_count(git_dir, tip) == 5
    assert [p.name for p in repos.iterdir()] == [git_dir.name]  # no temporary folder left

    dev = remote.dev
    dev.reset_hard("HEAD~2")
    new_tip = dev.commit("rewritten", date="2025-02-01T10:00:00+0000", files={"a.txt": "new\n"})
    dev.push(remote.path, "main", force=True)
    dev.tag("v2.0")  # a release tagged later: the fetch brings the tag too
    dev.git("push", str(remote.path), "v2.0")
    assert clone_or_fetch(NAME, url, repos) == git_dir
    assert resolve_branch(NAME, git_dir, "main") == ("main", new_tip)
    assert rev_count(git_dir, "main") == 4
    assert git_out(git_dir, "rev-parse", "v2.0^{commit}").strip() == new_tip


def test_clone_failure_never_shows_credentials(tmp_path):
    repos = tmp_path / "repos"
    with pytest.raises(GitError) as err:
        clone_or_fetch(NAME, "https://user:secret@127.0.0.1:9/x.git", repos)
    message = str(err.value)
    assert message.startswith(f"[{NAME}]")
    assert "secret" not in message and "user:" not in message
    assert "could not clone" in message
    assert list(repos.iterdir()) == []  # nothing half-cloned left behind


def test_clone_refuses_hostile_urls_before_running_git(tmp_path):
    target = tmp_path / "pwned"
    for url in (f"ext::sh -c touch% {target}", f"--upload-pack=touch {target}"):
        with pytest.raises(ValueError):
            clone_or_fetch(NAME, url, tmp_path / "repos")
    # a host name that is really an ssh option: git itself refuses it
    with pytest.raises(GitError):
        clone_or_fetch(NAME, f"ssh://-oProxyCommand=touch%20{target}/x", tmp_path / "repos")
    assert not target.exists()


def test_open_local_bare_and_non_bare(remote, tmp_path):
    assert open_local(NAME, str(remote.path), tmp_path) == remote.path.resolve()
    dev = remote.dev
    assert open_local(NAME, str(dev.path), tmp_path) == (dev.path / ".git").resolve()
    # a relative path is relative to the config file's folder
    assert open_local(NAME, "dev", tmp_path) == (dev.path / ".git").resolve()


def test_missing_path(tmp_path):
    with pytest.raises(GitError) as err:
        open_local(NAME, str(tmp_path / "nope"), tmp_path)
    assert str(err.value).startswith(f"[{NAME}]") and "does not exist" in str(err.value)


def test_file_instead_of_directory(tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("x")
    with pytest.raises(GitError) as err:
        open_local(NAME, str(f), tmp_path)
    assert "is not a directory" in str(err.value)


def test_directory_that_is_not_a_repository(tmp_path):
    d = tmp_path / "plain"
    d.mkdir()
    with pytest.raises(GitError) as err:
        open_local(NAME, str(d), tmp_path)
    assert "is not a git repository" in str(err.value)


def test_subfolder_of_a_repository(remote, tmp_path):
    sub = remote.dev.path / "src"
    sub.mkdir()
    with pytest.raises(GitError) as err:
        open_local(NAME, str(sub), tmp_path)
    assert "inside the repository" in str(err.value) and "not its root" in str(err.value)


def test_empty_repository(tmp_path):
    empty = GitScript.init(tmp_path / "empty")
    git_dir = open_local(NAME, str(empty.path), tmp_path)
    with pytest.raises(GitError) as err:
        resolve_branch(NAME, git_dir, None)
    assert "no commits" in str(err.value)
    with pytest.raises(GitError):
        resolve_branch(NAME, git_dir, "main")


def test_nonexistent_branch_lists_the_available_ones(remote, tmp_path):
    git_dir = open_local(NAME, str(remote.path), tmp_path)
    with pytest.raises(GitError) as err:
        resolve_branch(NAME, git_dir, "mian")
    message = str(err.value)
    assert "'mian' does not exist" in message
    for b in ("main", "dev", "feature/x"):
        assert b in message
    assert resolve_branch(NAME, git_dir, "feature/x") == ("feature/x", remote.rev("main"))
    with pytest.raises(GitError):
        resolve_branch(NAME, git_dir, "--all")


def test_head_pointing_at_a_missing_branch(remote, tmp_path):
    remote.git("symbolic-ref", "HEAD", "refs/heads/master")
    git_dir = open_local(NAME, str(remote.path), tmp_path)
    with pytest.raises(GitError) as err:
        resolve_branch(NAME, git_dir, None)
    assert "set `branch:`" in str(err.value)


def test_shallow_clone_is_detected(remote, tmp_path):
    shallow = GitScript.clone(remote.path.as_uri(), tmp_path / "shallow", extra_args=["--depth", "3"])
    git_dir = open_local(NAME, str(shallow.path), tmp_path)
    assert is_shallow(NAME, git_dir) is True
    assert is_shallow(NAME, open_local(NAME, str(remote.path), tmp_path)) is False
    branch, tip = resolve_branch(NAME, git_dir, None)
    store = RawStore(tmp_path / "raw")
    result = ingest_repository(LocalRepository(NAME, git_dir, tip, branch, True), store)
    assert result.is_shallow is True and result.total_commits == 3
    assert store.state(NAME).is_shallow is True


def test_clone_of_a_path_that_is_not_a_repository(tmp_path):
    with pytest.raises(GitError) as err:
        clone_or_fetch(NAME, (tmp_path / "nothing-here").as_uri(), tmp_path / "repos")
    assert "could not clone" in str(err.value)
    assert not any((tmp_path / "repos").iterdir())


def test_fetch_failure_keeps_the_existing_clone(remote, tmp_path):
    repos = tmp_path / "repos"
    url = remote.path.as_uri()
    git_dir = clone_or_fetch(NAME, url, repos)
    tip = resolve_branch(NAME, git_dir, None)[1]
    remote.path.rename(tmp_path / "moved.git")
    with pytest.raises(GitError):
        clone_or_fetch(NAME, url, repos)
    assert resolve_branch(NAME, git_dir, None)[1] == tip
    assert isinstance(git_dir, Path)


def test_a_changed_url_is_fetched_from_the_new_location(remote, tmp_path):
    """The config's `url:` changed (moved to a fork/mirror) but the name stayed: the next fetch
    must come from the new URL, not silently from the first one ever cloned."""
    repos = tmp_path / "repos"
    git_dir = clone_or_fetch(NAME, remote.path.as_uri(), repos)
    mirror = GitScript.clone(remote.path, tmp_path / "mirror.git", bare=True)
    dev = GitScript.clone(mirror.path, tmp_path / "dev2")
    new_tip = dev.commit("only in the mirror", date="2025-03-01T10:00:00+0000", files={"m.txt": "m\n"})
    dev.push(mirror.path, "main")
    assert clone_or_fetch(NAME, mirror.path.as_uri(), repos) == git_dir
    assert resolve_branch(NAME, git_dir, "main")[1] == new_tip
