"""DMM on a repository GitPython cannot read: bounded failures, nothing poisoned in the cache."""

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.quality import dmm as dmm_module
from exceeds_pipeline.quality.dmm import compute_dmm


def test_unreadable_repository_stops_after_a_few_failures_and_caches_no_errors(tmp_path):
    work = GitScript.init(tmp_path / "work")
    shas = [
        work.commit(f"Add f{i}", files={f"f{i}.py": f"def f{i}(x):\n    return x + {i}\n"})
        for i in range(8)
    ]
    bare = GitScript.clone(work.path, tmp_path / "bare.git", bare=True)
    (bare.path / "config").unlink()  # a bare layout without config: git reads it, GitPython does not
    # Our own git calls read it fine...
    assert bare.git("--git-dir", str(bare.path), "rev-parse", "HEAD") == shas[-1]
    cache = tmp_path / "dmm.parquet"
    result = compute_dmm(bare.path, shas, cache)
    # ...but DMM gives up after MAX_FAILURES_IN_A_ROW and records nothing, so a later run retries.
    assert result.height == 0
    assert not cache.exists() or "error" not in set(
        __import__("polars").read_parquet(cache)["status"].to_list()
    )
    assert dmm_module.MAX_FAILURES_IN_A_ROW == 5


def test_readable_repository_still_measures_every_commit(tmp_path):
    work = GitScript.init(tmp_path / "work")
    shas = [
        work.commit(f"Add f{i}", files={f"f{i}.py": f"def f{i}(x):\n    return x + {i}\n"})
        for i in range(3)
    ]
    result = compute_dmm(work.path, shas, tmp_path / "dmm.parquet")
    assert result["sha"].to_list() == shas
    assert set(result["status"].to_list()) <= {"ok", "no_value"}
