"""The `exceeds` command end to end: real repositories, real Dagster runs, a real database."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
from pathlib import Path

import duckdb
import pytest

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline_tests.conftest import VENV_BIN, git_numstat, rev_count

ADA_OLD = ("ada", "ada@old.example.com")
ADA = ("Ada Lovelace", "ada@example.com")
BOB_WORK = ("Bob Builder", "bob@example.org")
BOB_HOME = ("bob", "bob@home.example.com")
DEPENDABOT = ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com")
PNG = b"\x89PNG\r\n\x1a\n\x00\x00" + bytes(range(200))
SECRET_URL = "https://someuser:s3cr3t-t0ken@127.0.0.1:9/org/private.git"  # nothing listens on 9


def exceeds(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(VENV_BIN / "exceeds"), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=300
    )


class Project:
    """A config with one good repository and one whose path is missing, and a data dir."""

    def __init__(self, root: Path):
        self.root = root
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("EXCEEDS_")}
        self.env["DAGSTER_HOME"] = str(root / "dagster_home")
        good = self.good = GitScript.init(root / "checkouts" / "good")
        good.write_mailmap(["Ada Lovelace <ada@example.com> <ada@old.example.com>"])
        good.commit("Add parser", author=ADA_OLD, date="2025-01-02T10:00:00+0000",
                    files={"src/parser.py": "def parse():\n    return 1\n", "logo.png": PNG})
        good.branch("fix", checkout=True)
        good.commit("Fix parser edge case", author=BOB_WORK, date="2025-01-03T10:00:00+0000",
                    files={"src/parser.py": "def parse():\n    return 2\n"})
        good.checkout("main")
        good.commit("Document parser", author=ADA, date="2025-01-03T23:30:00-0500",
                    files={"docs/parser.md": "# Parser\n\nParses.\n"})
        good.merge("fix", "Merge pull request #2 from bob/fix", author=BOB_WORK,
                   date="2025-01-05T10:00:00+0000")
        good.commit("Move parser", author=BOB_HOME, date="2025-01-06T10:00:00+0000",
                    renames={"src/parser.py": "src/core/parser.py"},
                    files={"src/core/parser.py": "def parse():\n    return 2\n# moved\n"})
        good.commit("Bump deps", author=DEPENDABOT, date="2025-01-07T10:00:00+0000",
                    files={"requirements.txt": "polars==1.0\n"})
        self.config = root / "conf" / "exceeds.yaml"
        self.config.parent.mkdir()
        self.config.write_text(
            "repositories:\n"
            "  - path: ../checkouts/good\n"
            "    name: acme/good\n"
            "  - path: ../checkouts/missing\n"
            "    name: acme/missing\n"
            f"  - url: {SECRET_URL}\n"
            "identities:\n"
            "  - id: bob-the-builder\n"
            "    name: Bob B.\n"
            "    emails: [bob@example.org, BOB@home.example.com]\n"
        )
        self.data = root / "data"
        self.cwd = root / "elsewhere"
        self.cwd.mkdir()

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return exceeds(*args, env=self.env, cwd=self.cwd)

    def materialize(self) -> subprocess.CompletedProcess[str]:
        return self.run("materialize", "--config", str(self.config), "--data-dir", str(self.data))

    def db(self):
        return duckdb.connect(str(self.data / "exceeds.duckdb"), read_only=True)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    p = Project(tmp_path_factory.mktemp("cli"))
    p.first = p.materialize()
    p.reruns = []
    return p


def test_failed_repository_is_reported_and_exit_is_non_zero(project):
    out = project.first.stdout + project.first.stderr
    assert project.first.returncode != 0, out
    assert "acme/missing: FAILED" in out
    assert "does not exist" in out
    failed_line = next(line for line in out.splitlines() if line.startswith("failed repositories:"))
    assert "acme/missing" in failed_line and "org/private" in failed_line
    assert "org/private: FAILED" in out and "could not clone" in out
    assert "acme/good: ok - full: 6 new commits" in out


def test_good_repository_is_published_with_gits_numbers(project):
    con = project.db()
    try:
        rows = con.execute(
            "SELECT sha, lines_added, lines_deleted, files_changed FROM commits WHERE repo = 'acme/good'"
        ).fetchall()
        repos = con.execute("SELECT DISTINCT repo FROM commits").fetchall()
    finally:
        con.close()
    assert repos == [("acme/good",)]
    assert len(rows) == rev_count(project.good.path) == 6
    assert {sha: (a, d, f) for sha, a, d, f in rows} == git_numstat(project.good.path)


def test_people_loaded_through_the_io_manager_give_person_ids(project):
    """`commits` gets `people`/`identity_map` as Dagster inputs from DuckDB: the person ids in
    the published commits come from there (mailmap join, config identity, bot)."""
    con = project.db()
    try:
        by_subject = dict(con.execute("SELECT subject, person_id FROM commits").fetchall())
        people = {r[0]: r[1:] for r in con.execute(
            "SELECT person_id, display_name, is_bot FROM people").fetchall()}
        counted = con.execute("SELECT count(*) FROM counted_commits").fetchone()[0]
        date = con.execute(
            "SELECT author_date::VARCHAR FROM commits WHERE subject = 'Document parser'").fetchone()[0]
    finally:
        con.close()
    assert by_subject["Add parser"] == by_subject["Document parser"] == "ada-lovelace"
    assert by_subject["Fix parser edge case"] == by_subject["Move parser"] == "bob-the-builder"
    assert by_subject["Merge pull request #2 from bob/fix"] == "bob-the-builder"
    assert people["bob-the-builder"] == ("Bob B.", False)
    assert people["ada-lovelace"] == ("Ada Lovelace", False)
    assert people[by_subject["Bump deps"]][1] is True
    assert len(people) == 3
    assert counted == 4  # six commits minus the merge and the bot
    assert date == "2025-01-03"  # the author's local day (UTC: January 4th)


def test_query_prints_the_count(project):
    result = project.run("query", "select count(*) from commits", "--data-dir", str(project.data))
    assert result.returncode == 0, result.stderr
    assert "count_star()" in result.stdout
    assert re.search(r"│\s+6\s+│", result.stdout), result.stdout
    result = project.run("query", "select count(*) AS n from commits", "--format", "csv",
                         "--data-dir", str(project.data))
    assert result.returncode == 0, result.stderr
    assert list(csv.DictReader(io.StringIO(result.stdout))) == [{"n": "6"}]
    bad = project.run("query", "select * from no_such_table", "--data-dir", str(project.data))
    assert bad.returncode != 0 and "no_such_table" in bad.stderr


def test_query_is_read_only(project):
    result = project.run("query", "delete from commits", "--data-dir", str(project.data))
    assert result.returncode != 0
    con = project.db()
    try:
        assert con.execute("SELECT count(*) FROM commits").fetchone()[0] == 6
    finally:
        con.close()


def test_runs_are_recorded_in_the_given_dagster_home(project):
    home = Path(project.env["DAGSTER_HOME"])
    assert (home / "dagster.yaml").is_file()
    assert any(home.rglob("*.db"))  # run storage lives in this instance


def test_rerun_unchanged_then_fast_forward(project):
    second = project.materialize()
    project.reruns.append(second)
    out = second.stdout + second.stderr
    assert "acme/good: ok - unchanged: 0 new commits, 0 removed, 6 stored" in out, out
    assert second.returncode != 0 and "acme/missing: FAILED" in out

    project.good.commit("Add tokenizer", author=ADA, date="2025-01-08T10:00:00+0000",
                        files={"src/core/tokenizer.py": "TOKENS = []\n"})
    third = project.materialize()
    project.reruns.append(third)
    out = third.stdout + third.stderr
    assert "acme/good: ok - fast-forward: 1 new commits, 0 removed, 7 stored" in out, out
    con = project.db()
    try:
        rows = con.execute("SELECT sha, lines_added, lines_deleted, files_changed FROM commits").fetchall()
        assert con.execute("SELECT person_id FROM commits WHERE subject = 'Add tokenizer'").fetchone() == (
            "ada-lovelace",)
    finally:
        con.close()
    assert {sha: (a, d, f) for sha, a, d, f in rows} == git_numstat(project.good.path)


def test_invalid_config_names_the_key_before_running_anything(tmp_path):
    config = tmp_path / "bad.yaml"
    config.write_text("repositories:\n  - path: x\n    branhc: main\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("EXCEEDS_")}
    env["DAGSTER_HOME"] = str(tmp_path / "dh")
    result = exceeds("materialize", "--config", str(config), "--data-dir", str(tmp_path / "data"),
                     env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert "repositories[0].branhc" in result.stderr and "Traceback" not in result.stderr


def test_query_without_a_database(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("EXCEEDS_")}
    result = exceeds("query", "select 1", "--data-dir", str(tmp_path / "empty"), env=env, cwd=tmp_path)
    assert result.returncode != 0
    assert "no published database" in result.stdout + result.stderr


def test_credentials_in_a_url_never_reach_output_runs_or_data(project):
    """Every run's output and every file the runs wrote (last in the file: after the re-runs)."""
    outputs = [r.stdout + r.stderr for r in (project.first, *project.reruns)]
    assert "org/private: FAILED" in outputs[0]
    for secret in ("s3cr3t-t0ken", "someuser:"):
        for out in outputs:
            assert secret not in out
        for folder in (Path(project.env["DAGSTER_HOME"]), project.data):
            for f in folder.rglob("*"):
                if f.is_file():
                    assert secret.encode() not in f.read_bytes(), f
