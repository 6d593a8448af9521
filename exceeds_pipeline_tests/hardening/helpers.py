"""Helpers for the hardening tests: configs, the real `exceeds` CLI, the published database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import yaml

from exceeds_pipeline_tests.gitscript import GitScript, isolated_env

PROJECT_ROOT = Path(__file__).resolve().parents[2]
EXCEEDS = PROJECT_ROOT / ".venv" / "bin" / "exceeds"


def write_config(path: Path, repositories: list[dict], **extra) -> Path:
    path.write_text(yaml.safe_dump({"repositories": repositories, **extra}, sort_keys=False))
    return path


def cli_env(dagster_home: Path | None = None, **extra: str) -> dict[str, str]:
    """The environment of an `exceeds` subprocess: the test's DAGSTER_HOME, no EXCEEDS_*."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXCEEDS_", "GIT_"))}
    env["DAGSTER_HOME"] = str(dagster_home or os.environ["DAGSTER_HOME"])
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def exceeds_argv(*args: str) -> list[str]:
    return [str(EXCEEDS), *args]


def run_exceeds(*args: str, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run the `exceeds` console script; text output (undecodable bytes replaced)."""
    return subprocess.run(
        exceeds_argv(*args), env=env or cli_env(), capture_output=True, timeout=timeout,
        text=True, errors="replace", cwd=PROJECT_ROOT,
    )


def query(db: Path, sql: str, params=None) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def run_pipeline_quietly(config: Path, data_dir: Path, **kwargs):
    """`runner.run_pipeline` with its progress lines collected; returns (outcome, lines)."""
    from exceeds_pipeline.runner import run_pipeline

    lines: list[str] = []
    outcome = run_pipeline(config, data_dir, echo=lines.append, **kwargs)
    return outcome, lines


def outcome_of(outcome, repo: str):
    matches = [r for r in outcome.repos if r.repo == repo]
    assert matches, f"no outcome for {repo!r} in {[r.repo for r in outcome.repos]}"
    return matches[0]


def small_repo(path: Path, commits: int = 3, author=("Ada Lovelace", "ada@example.com")) -> GitScript:
    repo = GitScript.init(path)
    for i in range(commits):
        repo.commit(
            f"Add module {i}", author=author, date=f"2025-01-{i + 2:02d}T10:00:00+0100",
            files={f"src/m{i}.py": "".join(f"line {j}\n" for j in range(i + 1))},
        )
    return repo


def fast_import_repo(path: Path, commits: int, files_per_commit: int = 3, lines: int = 20,
                     branch: str = "main") -> Path:
    """A non-bare repository with `commits` linear commits, made in one `git fast-import`."""
    GitScript.init(path, branch=branch)
    chunks = []
    for i in range(commits):
        msg = f"Change {i}: update modules\n".encode()
        ts = 1735689600 + i * 3600
        chunks.append(
            b"commit refs/heads/%s\nmark :%d\n" % (branch.encode(), i + 1)
            + b"author Dev %d <dev%d@example.com> %d +0000\n" % (i % 7, i % 7, ts)
            + b"committer Dev %d <dev%d@example.com> %d +0000\n" % (i % 7, i % 7, ts)
            + b"data %d\n%s" % (len(msg), msg)
            + (b"from :%d\n" % i if i else b"")
        )
        for f in range(files_per_commit):
            body = "".join(f"value {i} {f} {k}\n" for k in range(lines)).encode()
            chunks.append(b"M 100644 inline pkg/mod_%d/file_%d.py\ndata %d\n%s\n"
                          % (f, (i + f) % 50, len(body), body))
        chunks.append(b"\n")
    subprocess.run(
        ["git", "fast-import", "--quiet"], cwd=path, input=b"".join(chunks),
        env=isolated_env(), check=True, capture_output=True,
    )
    subprocess.run(["git", "reset", "-q", "--hard", branch], cwd=path, env=isolated_env(), check=True)
    return path


def python() -> str:
    return sys.executable
