"""commit_graph_env: a commit-graph with Bloom filters kept outside the repository; same blames."""

from __future__ import annotations

import subprocess
from datetime import datetime, timedelta, timezone

from exceeds_pipeline.ingest.gitcmd import commit_graph_env, isolated_env
from exceeds_pipeline.quality.szz import blame_deleted_lines
from exceeds_pipeline_tests.conftest import git_dir_of
from exceeds_pipeline_tests.gitscript import GitScript

T0 = datetime(2025, 3, 1, 9, tzinfo=timezone.utc)
ADA = ("Ada", "ada@example.com")
BOB = ("Bob", "bob@example.com")


def build(repo: GitScript, start: int, count: int) -> list[str]:
    shas = []
    for n in range(start, start + count):
        body = [f"value_{i} = {i}" for i in range(30)]
        for k in range(n + 1):
            body[(k * 7) % 30] = f"value_{(k * 7) % 30} = {k}  # edit {k}"
        shas.append(repo.commit(f"Fix value {n}", author=(ADA, BOB)[n % 2], date=T0 + timedelta(days=n),
                                files={"a.py": "\n".join(body) + "\n", f"other{n % 3}.py": f"x = {n}\n"}))
    return shas


def test_the_graph_lives_outside_the_repository_and_changes_no_blame(make_repo, tmp_path):
    repo = make_repo("graph")
    shas = build(repo, 0, 12)
    git_dir = git_dir_of(repo)
    before = {p.relative_to(git_dir) for p in git_dir.rglob("*")}
    plain = {sha: blame_deleted_lines(repo.path, sha) for sha in shas[1:]}
    assert any(plain.values())  # the fixes do trace back to something

    env = commit_graph_env(git_dir, tmp_path / "g", shas[-1:], "acme/graph")
    assert env["GIT_OBJECT_DIRECTORY"] == str((tmp_path / "g" / "objects").resolve())
    chain = tmp_path / "g" / "objects" / "info" / "commit-graphs" / "commit-graph-chain"
    assert chain.exists() and len(chain.read_text().split()) == 1
    # git itself reads the graph with its Bloom filters
    check = subprocess.run(["git", "--git-dir", str(git_dir), "commit-graph", "verify"], env=env,
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert {sha: blame_deleted_lines(repo.path, sha, env=env) for sha in shas[1:]} == plain
    # nothing was written into the repository
    assert {p.relative_to(git_dir) for p in git_dir.rglob("*")} == before

    # new commits: a new layer for them only, the same blames
    more = build(repo, 12, 4)
    env2 = commit_graph_env(git_dir, tmp_path / "g", more[-1:], "acme/graph")
    assert env2 == env
    assert len(chain.read_text().split()) == 2
    assert blame_deleted_lines(repo.path, more[-1], env=env2) == blame_deleted_lines(repo.path, more[-1])


def test_a_damaged_graph_is_rewritten_and_a_shallow_clone_gets_no_graph(make_repo, tmp_path):
    repo = make_repo("damaged")
    shas = build(repo, 0, 6)
    git_dir = git_dir_of(repo)
    commit_graph_env(git_dir, tmp_path / "g", shas[-1:], "acme/damaged")
    chain = tmp_path / "g" / "objects" / "info" / "commit-graphs" / "commit-graph-chain"
    chain.write_text("not a hash\n")
    env = commit_graph_env(git_dir, tmp_path / "g", shas[-1:], "acme/damaged")
    assert "GIT_OBJECT_DIRECTORY" in env
    assert blame_deleted_lines(repo.path, shas[-1], env=env) == blame_deleted_lines(repo.path, shas[-1])

    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "--quiet", "--bare", "--depth", "2", f"file://{git_dir}", str(shallow)],
                   env=isolated_env(), check=True)
    # git writes no graph for a shallow clone (its history is cut): the same blames, no error
    env = commit_graph_env(shallow, tmp_path / "s", shas[-1:], "acme/shallow")
    assert not list((tmp_path / "s").rglob("commit-graph*"))
    assert blame_deleted_lines(shallow, shas[-1], env=env, shallow=True) == blame_deleted_lines(
        shallow, shas[-1], shallow=True)
