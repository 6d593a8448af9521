"""GitScript builds real repositories: check what it scripted with git itself."""

from __future__ import annotations

import pytest

from exceeds_pipeline_tests.gitscript import GitError, GitScript, git_date, run_git

ADA = ("Ada Lovelace", "ada@example.com")
BOB = ("Bob Builder", "bob@example.org")


@pytest.fixture
def repo(tmp_path):
    return GitScript.init(tmp_path / "repo")


def test_git_date_normalises_offsets():
    assert git_date("2025-03-04T10:00:00+0200") == "1741075200 +0200"
    assert git_date("2025-03-04T10:00:00+02:00") == "1741075200 +0200"
    assert git_date("2025-03-04T03:00:00-0530") == f"{1741075200 + 1800} -0530"  # 08:30 UTC
    with pytest.raises(ValueError):
        git_date("2025-03-04T10:00:00")


def test_init_uses_requested_branch(tmp_path):
    r = GitScript.init(tmp_path / "r", branch="trunk")
    assert r.git("symbolic-ref", "HEAD") == "refs/heads/trunk"
    bare = GitScript.init(tmp_path / "b.git", bare=True)
    assert bare.git("rev-parse", "--is-bare-repository") == "true"
    assert GitScript.init(tmp_path / "d").current_branch() == "main"


def test_commit_records_author_committer_dates_and_offsets(repo):
    sha = repo.commit(
        "Add parser\n\nLonger body.\n# kept, not a comment\n",
        author=ADA,
        date="2025-03-04T10:00:00+0200",
        committer=BOB,
        committer_date="2025-03-05T09:30:00-0500",
        files={"src/parser.py": "def parse():\n    return 1\n"},
    )
    assert sha == repo.head() and len(sha) == 40
    fmt = "%an|%ae|%ad|%cn|%ce|%cd"
    out = repo.git("log", "-1", f"--format={fmt}", "--date=iso-strict", sha)
    assert out == (
        "Ada Lovelace|ada@example.com|2025-03-04T10:00:00+02:00|"
        "Bob Builder|bob@example.org|2025-03-05T09:30:00-05:00"
    )
    assert repo.git("log", "-1", "--format=%B", sha) == "Add parser\n\nLonger body.\n# kept, not a comment\n"
    assert repo.git("show", "HEAD:src/parser.py") == "def parse():\n    return 1"


def test_committer_defaults_to_author(repo):
    repo.commit("one", author=ADA, date="2025-01-01T23:30:00-0800", files={"a": "x\n"})
    out = repo.git("log", "-1", "--format=%an %ae %ad|%cn %ce %cd", "--date=raw")
    assert out == f"Ada Lovelace ada@example.com {1735803000} -0800|Ada Lovelace ada@example.com 1735803000 -0800"
    # author's local calendar date differs from the UTC date
    assert repo.git("log", "-1", "--format=%ad", "--date=short") == "2025-01-01"
    assert repo.git("log", "-1", "--format=%ad", "--date=short-local") == "2025-01-02"  # TZ=UTC


def test_same_script_same_shas(tmp_path):
    def build(p):
        r = GitScript.init(p)
        r.commit("a", author=ADA, date="2025-02-01T10:00:00+0000", files={"x.txt": "1\n"})
        return r.commit("b", author=BOB, date="2025-02-02T10:00:00+0100", files={"x.txt": "2\n"})

    assert build(tmp_path / "one") == build(tmp_path / "two")


def test_numstat_deletions_binary_and_renames(repo):
    body = "".join(f"line {i}\n" for i in range(20))
    repo.commit("add", author=ADA, files={"pkg/old_name.py": body, "logo.png": b"\x89PNG\r\n\x1a\n\x00\x01"})
    repo.commit(
        "rename with edit",
        author=ADA,
        renames={"pkg/old_name.py": "pkg/sub/new_name.py"},
        files={"pkg/sub/new_name.py": body + "extra\n", "logo.png": None},
    )
    numstat = repo.git("log", "-1", "--numstat", "--format=")
    lines = sorted(numstat.splitlines())
    assert lines == ["-\t-\tlogo.png", "1\t0\tpkg/{old_name.py => sub/new_name.py}"]
    assert repo.git("ls-files") == "pkg/sub/new_name.py"


def test_empty_commit_needs_allow_empty(repo):
    repo.commit("first", files={"a": "1\n"})
    with pytest.raises(GitError):
        repo.commit("nothing")
    sha = repo.commit("nothing", allow_empty=True)
    assert repo.git("show", "--format=", "--name-only", sha) == ""


def test_branch_merge_is_always_a_merge_commit(repo):
    base = repo.commit("base", author=ADA, files={"a.txt": "a\n"})
    repo.branch("feature/x", checkout=True)
    f1 = repo.commit("feature work", author=BOB, date="2025-02-01T10:00:00+0000", files={"b.txt": "b\n"})
    repo.checkout("main")
    m = repo.merge("feature/x", "Merge pull request #7 from bob/feature-x\n\nFeature X",
                   author=BOB, date="2025-02-02T10:00:00+0000")
    parents = repo.git("log", "-1", "--format=%P", m).split()
    assert parents == [base, f1]  # fast-forward was possible but --no-ff made a merge
    assert repo.git("log", "-1", "--format=%s|%an", m) == "Merge pull request #7 from bob/feature-x|Bob Builder"
    assert repo.git("rev-list", "--count", "--merges", "HEAD") == "1"
    # default message is git's own
    repo.branch("topic", checkout=True)
    repo.commit("t", files={"c": "c\n"})
    repo.checkout("main")
    m2 = repo.merge("topic")
    assert repo.git("log", "-1", "--format=%s", m2) == "Merge branch 'topic'"


def test_squash_merge_is_single_parent(repo):
    repo.commit("base", files={"a": "1\n"})
    repo.branch("pr", checkout=True)
    repo.commit("wip 1", files={"b": "1\n"})
    repo.commit("wip 2", files={"b": "2\n"})
    repo.checkout("main")
    sha = repo.squash("pr", "Add b (#12)", author=ADA, date="2025-03-01T10:00:00+0000")
    assert len(repo.git("log", "-1", "--format=%P", sha).split()) == 1
    assert repo.git("log", "--format=%s") == "Add b (#12)\nbase"
    assert repo.git("show", "HEAD:b") == "2"


def test_revert_uses_git_wording(repo):
    repo.commit("base", files={"a": "1\n"})
    bad = repo.commit("Make things faster", author=ADA, files={"a": "2\n"})
    rev = repo.revert(bad, author=BOB, date="2025-04-01T10:00:00+0000")
    assert repo.git("log", "-1", "--format=%B", rev) == f'Revert "Make things faster"\n\nThis reverts commit {bad}.\n'
    assert repo.git("log", "-1", "--format=%an %ad", "--date=iso-strict", rev) == "Bob Builder 2025-04-01T10:00:00+00:00"
    assert repo.git("show", "HEAD:a") == "1"
    rev2 = repo.revert(rev, author=ADA, reason="Broke the nightly build.")
    msg = repo.git("log", "-1", "--format=%B", rev2)
    # git >= 2.43 words a revert of a revert as 'Reapply "..."'
    assert msg in (f'{title}\n\nThis reverts commit {rev}.\n\nBroke the nightly build.\n'
                   for title in ('Revert "Revert "Make things faster""', 'Reapply "Make things faster"'))
    assert repo.git("status", "--porcelain") == ""


def test_reset_hard_and_force_push(tmp_path, repo):
    remote = GitScript.init(tmp_path / "remote.git", bare=True)
    repo.commit("c1", files={"a": "1\n"})
    c2 = repo.commit("c2", files={"a": "2\n"})
    repo.push(remote.path, "main")
    assert remote.rev("main") == c2
    repo.reset_hard("HEAD~1")
    c2b = repo.commit("c2 rewritten", files={"a": "3\n"})
    with pytest.raises(GitError):
        repo.push(remote.path, "main")
    repo.push(remote.path, "main", force=True)
    assert remote.rev("main") == c2b
    clone = GitScript.clone(remote.path, tmp_path / "clone")
    assert clone.head() == c2b


def test_mailmap_and_isolation(repo, monkeypatch):
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Leaky")  # inherited GIT_* never leak in
    monkeypatch.setenv("GIT_DIR", "/nonexistent")
    repo.write_mailmap(["Ada Lovelace <ada@example.com> <ada@old.example.com>"])
    repo.commit("mailmap", author=("ada", "ada@old.example.com"), files={"a": "1\n"})
    assert repo.git("log", "-1", "--format=%an|%aN|%aE") == "ada|Ada Lovelace|ada@example.com"
    assert repo.git("check-mailmap", "x <ADA@old.example.com>") == "Ada Lovelace <ada@example.com>"
    assert repo.git("config", "--get", "commit.gpgsign") == "false"
    assert run_git(["config", "--global", "--list"], repo.path, check=False) == ""


def test_non_utf8_message_and_path(repo):
    sha = repo.commit("Caf\xe9 latin-1".encode("latin-1"), encoding="latin-1",
                      files={"caf\udce9.txt": "x\n"})
    assert repo.git("log", "-1", "--format=%e", sha) == "latin-1"
    assert repo.git("log", "-1", "--format=%s", sha) == "Caf\xe9 latin-1"  # re-encoded to UTF-8
    assert repo.git("-c", "core.quotePath=false", "ls-files") == "caf\udce9.txt"


def test_paths_must_stay_inside(repo):
    with pytest.raises(ValueError):
        repo.commit("x", files={"../escape": "no"})
