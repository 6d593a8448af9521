"""run_pipeline: a no-change run skips the rebuild; new commits rebuild and publish them."""

import duckdb

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.runner import run_pipeline


def _project(tmp_path, monkeypatch, entry: str = "  - path: repo\n"):
    """(repo with one commit, config, data dir) under tmp_path, with its own DAGSTER_HOME."""
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Add parser", author=("Ann", "ann@example.com"), files={"p.py": "a = 1\nb = 2\n"})
    config = tmp_path / "exceeds.yaml"
    config.write_text("repositories:\n" + entry)
    return repo, config, tmp_path / "data"


def test_no_change_run_skips_publish_and_new_commits_are_published(tmp_path, monkeypatch):
    repo, config, data = _project(tmp_path, monkeypatch)

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


def test_a_quality_fact_that_failed_is_computed_again_by_the_next_run(tmp_path, monkeypatch):
    """sharkdp/bat: line survival failed once and every later run said 'nothing changed', so
    performance stayed null for good. A failed fact is retried by the next CLI run."""
    from exceeds_pipeline.ingest.raw_store import (
        RawStore, failed_side_table, read_side_table, side_table_failure, write_side_table,
    )

    _, config, data = _project(tmp_path, monkeypatch, "  - path: repo\n    name: acme/parser\n")
    assert run_pipeline(config, data, echo=lambda _: None).ok
    store = RawStore(data / "raw")
    assert side_table_failure(read_side_table(store, "acme/parser", "quality_survival")) is None
    write_side_table(store, "acme/parser", "quality_survival", failed_side_table("surrogates not allowed"))

    retry: list[str] = []
    assert run_pipeline(config, data, echo=retry.append).ok
    assert any("quality facts failed last time" in line and "acme/parser (survival)" in line for line in retry)
    assert side_table_failure(read_side_table(store, "acme/parser", "quality_survival")) is None
    again: list[str] = []
    assert run_pipeline(config, data, echo=again.append).ok
    assert any("nothing changed since the last publish" in line for line in again)
