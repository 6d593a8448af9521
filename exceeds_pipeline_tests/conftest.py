"""Shared fixtures: real git repositories (never mocks) and an isolated environment per test."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from exceeds_pipeline_tests.gitscript import GitScript, isolated_env

PROJECT_ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = PROJECT_ROOT / ".venv" / "bin"

_SHA = re.compile(r"^[0-9a-f]{40}$")


@pytest.fixture(autouse=True)
def isolated_environment(tmp_path, monkeypatch):
    """Each test gets its own DAGSTER_HOME; no EXCEEDS_* setting leaks in from the shell."""
    home = tmp_path / "dagster_home"
    home.mkdir()
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    monkeypatch.delenv("EXCEEDS_CONFIG", raising=False)
    monkeypatch.delenv("EXCEEDS_DATA_DIR", raising=False)
    yield


@pytest.fixture
def make_repo(tmp_path):
    """Factory: `make_repo("name", branch="main", bare=False)` -> a new GitScript in tmp_path."""

    def factory(name: str = "repo", branch: str = "main", bare: bool = False) -> GitScript:
        return GitScript.init(tmp_path / name, branch=branch, bare=bare)

    return factory


def git_out(path: Path | str, *args: str) -> str:
    """stdout of plain `git -C path ...` with git's defaults (user/system config ignored)."""
    proc = subprocess.run(
        ["git", "-C", str(path), *args], capture_output=True, env=isolated_env(), check=True
    )
    return proc.stdout.decode("utf-8", "surrogateescape")


def git_numstat(path: Path | str, rev: str = "HEAD") -> dict[str, tuple[int, int, int]]:
    """{sha: (lines added, lines deleted, files)} parsed from plain `git log --numstat`.

    Deliberately independent of the pipeline's parser: no -z, no --raw, git's default options;
    a binary file ("-\t-\tpath") counts as a file with 0 lines, and a merge has no entries.
    """
    out = git_out(path, "log", "--numstat", "--format=%H", rev)
    result: dict[str, list[int]] = {}
    current = None
    for line in out.splitlines():
        if _SHA.match(line):
            current = line
            result[current] = [0, 0, 0]
        elif "\t" in line:
            added, deleted, _ = line.split("\t", 2)
            counts = result[current]
            counts[0] += 0 if added == "-" else int(added)
            counts[1] += 0 if deleted == "-" else int(deleted)
            counts[2] += 1
        else:
            assert line == "", f"unexpected numstat line {line!r}"
    return {sha: tuple(v) for sha, v in result.items()}


def rev_count(path: Path | str, rev: str = "HEAD") -> int:
    return int(git_out(path, "rev-list", "--count", rev).strip())


def git_dir_of(repo: GitScript) -> Path:
    return repo.path if repo.bare else repo.path / ".git"


# End-to-end tests: whole CLI runs, subprocesses, clusters. `./dev test -m 'not slow'` skips
# them for a quick loop; CI runs everything.
_SLOW = ("hardening/", "test_cli.py", "test_demo_end_to_end.py", "test_dask.py", "test_runner.py")


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = item.path.as_posix()
        if any(f"exceeds_pipeline_tests/{part}" in path for part in _SLOW):
            item.add_marker(pytest.mark.slow)
