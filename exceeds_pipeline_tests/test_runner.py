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


def test_a_quality_fact_that_failed_is_computed_again_by_the_next_run(tmp_path, monkeypatch):
    """sharkdp/bat: line survival failed once and every later run said 'nothing changed', so
    performance stayed null for good. A failed fact is retried by the next CLI run."""
    import polars as pl

    from exceeds_pipeline.ingest.raw_store import RawStore, read_side_table, write_side_table

    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Add parser", author=("Ann", "ann@example.com"), files={"p.py": "a = 1\nb = 2\n"})
    config = tmp_path / "exceeds.yaml"
    config.write_text("repositories:\n  - path: repo\n    name: acme/parser\n")
    data = tmp_path / "data"
    assert run_pipeline(config, data, echo=lambda _: None).ok
    store = RawStore(data / "raw")
    assert "_failed" not in read_side_table(store, "acme/parser", "quality_survival").columns
    write_side_table(store, "acme/parser", "quality_survival", pl.DataFrame({"_failed": ["surrogates not allowed"]}))

    retry: list[str] = []
    assert run_pipeline(config, data, echo=retry.append).ok
    assert any("quality facts failed last time" in line and "acme/parser (survival)" in line for line in retry)
    assert "_failed" not in read_side_table(store, "acme/parser", "quality_survival").columns
    again: list[str] = []
    assert run_pipeline(config, data, echo=again.append).ok
    assert any("nothing changed since the last publish" in line for line in again)
