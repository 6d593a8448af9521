"""A malformed `.mailmap` (git ignores the garbage, so do we) and malformed configs (exit code 2,
the key named, nothing run)."""

from __future__ import annotations

import pytest

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline_tests.conftest import git_out
from exceeds_pipeline_tests.hardening.helpers import outcome_of, query, run_exceeds, run_pipeline_quietly, small_repo

ADA_OLD = ("ada", "ada@old.example")
ADA = ("Ada Lovelace", "ada@example.com")

GARBAGE_MAILMAP = b"""\
# a comment
this line has no brackets at all
<>
Name <unterminated@example.com
> stray > brackets <
<only-one@example.com>
\xff\xfe binary junk \x01\x02
Ada Lovelace <ada@example.com> <ada@old.example>
""" + b"x" * 100_000 + b"\n"


def test_malformed_mailmap_is_ignored_like_git_and_valid_entries_still_apply(tmp_path):
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Start", author=ADA_OLD, files={"a.py": "a\n"})
    repo.commit("Continue", author=ADA, files={"b.py": "b\n"})
    repo.commit("Add a mailmap", author=ADA, files={".mailmap": GARBAGE_MAILMAP})
    # git itself maps the old address and ignores the rest
    assert git_out(repo.path, "log", "--format=%aE", "--use-mailmap").split() == ["ada@example.com"] * 3
    config = tmp_path / "c.yaml"
    config.write_text(f"repositories:\n  - path: {repo.path}\n")
    data = tmp_path / "data"

    outcome, lines = run_pipeline_quietly(config, data)

    assert outcome.ok, lines
    db = data / "exceeds.duckdb"
    assert query(db, "SELECT person_id, display_name FROM people") == [("ada-lovelace", "Ada Lovelace")]
    assert query(db, "SELECT DISTINCT person_id FROM commits") == [("ada-lovelace",)]


def test_mailmap_with_a_nul_byte_does_not_crash(tmp_path):
    """git reads a .mailmap blob only up to a NUL byte (what `git log` does in a bare clone, and
    what the pipeline does for every clone): entries after it are ignored, nothing breaks."""
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Start", author=ADA_OLD, files={"a.py": "a\n"})
    repo.commit("Add a mailmap", author=ADA, files={".mailmap": b"junk \x00 junk\n" + GARBAGE_MAILMAP})
    config = tmp_path / "c.yaml"
    config.write_text(f"repositories:\n  - path: {repo.path}\n")
    outcome, lines = run_pipeline_quietly(config, tmp_path / "data")
    assert outcome.ok, lines
    db = tmp_path / "data" / "exceeds.duckdb"
    assert query(db, "SELECT count(*) FROM commits WHERE person_id IS NULL") == [(0,)]
    assert sorted(n for (n,) in query(db, "SELECT display_name FROM people")) == ["Ada Lovelace", "ada"]


def test_mailmap_that_is_a_directory(tmp_path):
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Start", author=ADA_OLD, files={".mailmap/README": "not a mailmap\n"})
    repo.commit("Continue", author=ADA, files={"b.py": "b\n"})
    good = small_repo(tmp_path / "good")
    config = tmp_path / "c.yaml"
    config.write_text(f"repositories:\n  - path: {repo.path}\n  - path: {good.path}\n")
    data = tmp_path / "data"
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    # a directory is no mailmap: two people (different e-mails, no mapping)
    people = {p for (p,) in query(data / "exceeds.duckdb", "SELECT display_name FROM people")}
    assert {"ada", "Ada Lovelace"} <= people
    assert outcome_of(outcome, "app").ok


def _config_case(tmp_path, text: str | bytes):
    config = tmp_path / "bad.yaml"
    config.write_bytes(text if isinstance(text, bytes) else text.encode())
    data = tmp_path / "never-created"
    proc = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data))
    return proc, data


@pytest.mark.parametrize(
    "text, expected",
    [
        ("repositorys:\n  - path: .\n", "repositorys: unknown key"),
        ("repositories:\n  - path: .\n    brnach: main\n", "repositories[0].brnach: unknown key"),
        ("repositories:\n  - path: .\nwindow:\n  since: 2024-13-45\n", "window.since: "),
        ("repositories:\n  - path: .\nexports:\n  include_emails: maybe\n", "exports.include_emails: "),
        ("repositories:\n  - path: .\nbots:\n  extra_patterns: ['(']\n", "bots.extra_patterns: '(' is not a valid regular expression"),
        ("repositories:\n  - path: .\nschedule:\n  cron: every night\n", "schedule.cron: 'every night' is not a 5-field cron"),
        ("repositories:\n  - path: .\nidentities:\n  - id: ../evil\n    emails: [a@b.c]\n", "identities[0].id: "),
        ("repositories: []\n", "repositories: List should have at least 1 item"),
        ("repositories:\n  - path: .\n    url: https://example.com/x.git\n", "repositories[0]: give exactly one of `url` or `path`"),
        ("repositories:\n  - path: .\n    branch: --force\n", "repositories[0].branch: branch '--force' is not a valid branch name"),
        ("repositories:\n  - path: .\n  - path: .\n", "repositories[1] is the same repository as repositories[0]"),
        ("repositories:\n  - path: [unclosed\n", "is not valid YAML"),
        ("", "expected a mapping with `repositories:`"),
        ("- just a list\n", "expected a mapping with `repositories:`"),
        (b"repositories:\n  - path: \xff\xfe\n", "bad.yaml"),
    ],
)
def test_malformed_config_exits_2_naming_the_key_and_runs_nothing(tmp_path, text, expected):
    proc, data = _config_case(tmp_path, text)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert expected in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    assert not data.exists()  # nothing created, nothing run


def test_missing_config_file_exits_2(tmp_path):
    data = tmp_path / "never-created"
    proc = run_exceeds("materialize", "--config", str(tmp_path / "nope.yaml"), "--data-dir", str(data))
    assert proc.returncode == 2
    assert f"config file {tmp_path / 'nope.yaml'} not found" in proc.stderr
    assert not data.exists()
