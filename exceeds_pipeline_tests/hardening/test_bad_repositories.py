"""Repositories that cannot be analysed: each fails with a message naming it and saying what to
do, the good ones in the same run are processed, and nothing stored before is lost."""

from __future__ import annotations

import shutil

from exceeds_pipeline_tests.gitscript import GitScript, run_git
from exceeds_pipeline_tests.conftest import rev_count
from exceeds_pipeline_tests.hardening.helpers import (
    outcome_of,
    query,
    run_exceeds,
    run_pipeline_quietly,
    small_repo,
    write_config,
)


def test_each_bad_repository_fails_clearly_and_the_good_one_is_processed(tmp_path):
    good = small_repo(tmp_path / "good")
    (tmp_path / "plain").mkdir()
    GitScript.init(tmp_path / "empty")
    GitScript.init(tmp_path / "emptybare.git", bare=True)
    config = write_config(tmp_path / "c.yaml", [
        {"path": str(good.path)},
        {"path": str(tmp_path / "missing")},
        {"path": str(tmp_path / "plain")},
        {"path": str(good.path / "src"), "name": "subdir"},
        {"url": (tmp_path / "nowhere.git").as_uri(), "name": "nowhere"},
        {"url": "https://127.0.0.1:1/x.git", "name": "unreachable"},
        {"path": str(tmp_path / "empty")},
        {"url": (tmp_path / "emptybare.git").as_uri(), "name": "emptyurl"},
        {"path": str(good.path), "name": "badbranch", "branch": "nosuch"},
    ])
    data = tmp_path / "data"
    proc = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data))

    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    lines = {line.split(":", 1)[0].split("] ", 1)[1]: line for line in out.splitlines()
             if line.startswith("  [") and "/9] " in line}
    assert lines["good"].startswith("  [") and ": ok - full: 3 new commits" in lines["good"]
    expected = {
        "missing": [f"[missing] path {tmp_path / 'missing'} does not exist", "fix `path:` in the config"],
        "plain": [f"[plain] path {tmp_path / 'plain'} is not a git repository", "point `path:` at a clone"],
        "subdir": [f"[subdir] path {good.path / 'src'} is inside the repository {good.path}, not its root"],
        "nowhere": ["[nowhere] could not clone", "does not appear to be a git repository",
                    "(check the URL, your network and credentials)"],
        "unreachable": ["[unreachable] could not clone https://127.0.0.1:1/x.git", "Failed to connect",
                        "(check the URL, your network and credentials)"],
        "empty": ["[empty] the repository has no commits yet", "push a first commit, or remove it"],
        "emptyurl": ["[emptyurl] the repository has no commits yet", "push a first commit, or remove it"],
        "badbranch": ["[badbranch] branch 'nosuch' does not exist (branches: main)", "fix `branch:` in the config"],
    }
    for name, parts in expected.items():
        assert ": FAILED - " in lines[name], lines[name]
        for part in parts:
            assert part in lines[name], (name, lines[name])
    failed = next(line for line in out.splitlines() if line.startswith("failed repositories: "))
    assert set(failed.split(": ", 1)[1].split(" (")[0].split(", ")) == set(expected)
    assert "Traceback" not in out + proc.stderr
    # the good repository was published
    db = data / "exceeds.duckdb"
    assert query(db, "SELECT repo, count(*) FROM commits GROUP BY 1") == [("good", 3)]
    assert {r for (r,) in query(db, "SELECT repo FROM repositories")} == set(expected) | {"good"}


def test_a_repository_that_breaks_keeps_its_published_data(tmp_path):
    one = small_repo(tmp_path / "one", commits=4)
    two = small_repo(tmp_path / "two", commits=2)
    config = write_config(tmp_path / "c.yaml", [
        {"path": str(one.path)}, {"path": str(two.path), "branch": "feature"},
    ])
    two.branch("feature")
    data = tmp_path / "data"
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    db = data / "exceeds.duckdb"
    before = query(db, "SELECT repo, sha, lines_added FROM commits ORDER BY 1, 2")
    assert len(before) == 6

    shutil.move(one.path, tmp_path / "moved-away")  # the path disappears
    two.git("branch", "-D", "feature")  # the configured branch is deleted
    outcome, lines = run_pipeline_quietly(config, data)

    assert sorted(outcome.failed_repos) == ["one", "two"]
    assert "does not exist" in outcome_of(outcome, "one").message
    assert "branch 'feature' does not exist" in outcome_of(outcome, "two").message
    assert outcome.published  # the database is rebuilt from what was stored
    assert query(db, "SELECT repo, sha, lines_added FROM commits ORDER BY 1, 2") == before

    shutil.move(tmp_path / "moved-away", one.path)  # fixed: back to normal, nothing doubled
    two.branch("feature")
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    assert query(db, "SELECT repo, sha, lines_added FROM commits ORDER BY 1, 2") == before


def test_an_empty_repository_is_analysed_once_it_has_commits(tmp_path):
    remote = GitScript.init(tmp_path / "remote.git", bare=True)
    config = write_config(tmp_path / "c.yaml", [{"url": remote.path.as_uri(), "name": "new"}])
    data = tmp_path / "data"
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.failed_repos == ["new"] and outcome.published, lines
    work = small_repo(tmp_path / "work")
    work.push(remote.path, "main")
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    assert query(data / "exceeds.duckdb", "SELECT count(*) FROM commits") == [(3,)]


def test_shallow_clones_say_so_and_count_what_is_there(tmp_path):
    source = small_repo(tmp_path / "source", commits=6)
    run_git(["clone", "-q", "--depth", "2", source.path.as_uri(), tmp_path / "shallow"])
    # (another shallow clone: the same repository listed twice is a config error)
    run_git(["clone", "-q", "--depth", "2", source.path.as_uri(), tmp_path / "shallow2"])
    config = write_config(tmp_path / "c.yaml", [
        {"path": str(tmp_path / "shallow")},
        {"url": (tmp_path / "shallow2").as_uri(), "name": "shallow-url"},  # a clone of a shallow clone
    ])
    data = tmp_path / "data"
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    for name in ("shallow", "shallow-url"):
        message = outcome_of(outcome, name).message
        assert "2 stored (shallow clone: only the commits present are counted; `git fetch --unshallow`)" in message
    db = data / "exceeds.duckdb"
    assert query(db, "SELECT repo, count(*) FROM commits GROUP BY 1 ORDER BY 1") == [
        ("shallow", rev_count(tmp_path / "shallow")), ("shallow-url", 2)]
    assert query(db, "SELECT repo, is_shallow FROM repositories ORDER BY 1") == [
        ("shallow", True), ("shallow-url", True)]
