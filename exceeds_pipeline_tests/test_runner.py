"""run_pipeline: a no-change run skips the rebuild; new commits rebuild and publish them."""

import duckdb

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.runner import run_pipeline


def test_no_change_run_skips_publish_and_new_commits_are_published(tmp_path, monkeypatch):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Add parser", author=("Ann", "ann@example.com"), files={"p.py": "a = 1\nb = 2\n"})
    config = tmp_path / "exceeds.yaml"
    config.write_text("repositories:\n  - path: repo\n")
    data = tmp_path / "data"

    first_lines: list[str] = []
    assert run_pipeline(config, data, echo=first_lines.append).ok
    assert any("deriving tables" in line for line in first_lines)

    again: list[str] = []
    assert run_pipeline(config, data, echo=again.append).ok
    assert any("nothing changed since the last publish" in line for line in again)
    assert not any("deriving tables" in line for line in again)

    repo.commit("Fix parser crash on empty input", author=("Ann", "ann@example.com"), files={"p.py": "a = 1\n"})
    later: list[str] = []
    assert run_pipeline(config, data, echo=later.append).ok
    assert any("deriving tables" in line for line in later)
    with duckdb.connect(str(data / "exceeds.duckdb"), read_only=True) as con:
        assert con.execute("select count(*), sum(lines_deleted) from commits").fetchone() == (2, 1)
