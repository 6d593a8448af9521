"""DMM on repositories GitPython finds awkward: bounded failures, nothing poisoned in the cache."""

import shutil

import polars as pl

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.quality import dmm as dmm_module
from exceeds_pipeline.quality.dmm import compute_dmm


def _history(tmp_path, n):
    work = GitScript.init(tmp_path / "work")
    shas = [
        work.commit(f"Add f{i}", files={f"f{i}.py": f"def f{i}(x, y, z):\n    return x + {i}\n"})
        for i in range(n)
    ]
    return work, shas


def test_bare_clone_without_core_bare_is_measured(tmp_path):
    # A mirror copied by hand: git knows it is a repository, but without `core.bare` GitPython
    # takes its parent folder for the work tree and used to run git there.
    work, shas = _history(tmp_path, 4)
    bare = GitScript.clone(work.path, tmp_path / "mirror" / "repo", bare=True)
    (bare.path / "config").unlink()
    assert bare.git("--git-dir", str(bare.path), "rev-parse", "HEAD") == shas[-1]
    result = compute_dmm(bare.path, shas, tmp_path / "dmm.parquet")
    assert result["sha"].to_list() == shas
    assert result["status"].to_list() == ["ok"] * 4  # every commit adds a method
    # Each commit adds one 1-line method with 3 parameters: good for size and complexity,
    # bad for interfacing (PyDriller's thresholds: <= 15 lines, CC <= 5, <= 2 parameters).
    assert result["dmm_unit_size"].to_list() == [1.0] * 4
    assert result["dmm_unit_interfacing"].to_list() == [0.0] * 4


def test_unreadable_repository_stops_after_a_few_failures_and_caches_no_errors(tmp_path):
    work, shas = _history(tmp_path, 8)
    bare = GitScript.clone(work.path, tmp_path / "bare.git", bare=True)
    shutil.rmtree(bare.path / "objects")  # every object gone: no commit can be read
    (bare.path / "objects" / "pack").mkdir(parents=True)
    cache = tmp_path / "dmm.parquet"
    result = compute_dmm(bare.path, shas, cache)
    # DMM gives up after MAX_FAILURES_IN_A_ROW and records nothing, so a later run retries.
    assert result.height == 0
    assert not cache.exists() or "error" not in set(pl.read_parquet(cache)["status"].to_list())
    assert dmm_module.MAX_FAILURES_IN_A_ROW == 5


def test_readable_repository_still_measures_every_commit(tmp_path):
    work, shas = _history(tmp_path, 3)
    result = compute_dmm(work.path, shas, tmp_path / "dmm.parquet")
    assert result["sha"].to_list() == shas
    assert set(result["status"].to_list()) <= {"ok", "no_value"}


def test_sample_goes_down_the_sha_order_until_enough_commits_have_a_value(tmp_path):
    """Commits that change no method volume give no DMM: the person's sample takes the next
    commits in sha order until `per_person` have a value, at most `max_tried`."""
    from exceeds_pipeline.quality.dmm import dmm_for_repository
    from exceeds_pipeline_tests.themes.pipeline import git_dir, tables

    repo = GitScript.init(tmp_path / "app")
    ada = ("Ada", "ada@example.com")
    body = ["LIMIT = 0\n"]
    shas = []
    for i in range(8):
        if i % 2:  # a constant only: no method changes, no DMM value
            body[0] = f"LIMIT = {i}\n"
        else:
            body.append(f"def f{i}(x):\n    return x + {i}\n")
        shas.append(repo.commit(f"Change {i}", author=ada, date=f"2025-03-{i + 1:02d}T10:00:00+00:00",
                                files={"app.py": "".join(body)}))
    t = tables((repo, "acme/app"))
    every = compute_dmm(git_dir(repo), shas, tmp_path / "all.parquet")
    ok = dict(zip(every["sha"], every["status"]))
    assert sorted(ok.values()) == ["no_value"] * 4 + ["ok"] * 4
    ordered = sorted(shas)  # the person's candidates in sha order

    def expected(per_person, max_tried):
        out, values = [], 0
        for sha in ordered[:max_tried]:
            if values == per_person:
                break
            out.append(sha)
            values += ok[sha] == "ok"
        return out

    for per_person, max_tried, workers in ((2, 8, 1), (3, 8, 2), (4, 5, 1), (5, 8, 2)):
        got = dmm_for_repository("acme/app", git_dir(repo), t["commits"], t["file_changes"],
                                 tmp_path / f"c{per_person}{max_tried}", per_person=per_person,
                                 max_tried=max_tried, workers=workers)
        assert sorted(got["sha"]) == sorted(expected(per_person, max_tried)), (per_person, max_tried)
        assert dict(zip(got["sha"], got["status"])) == {s: ok[s] for s in got["sha"]}
    # A warm cache measures nothing more and gives the same sample.
    again = dmm_for_repository("acme/app", git_dir(repo), t["commits"], t["file_changes"], tmp_path / "c58",
                               per_person=5, max_tried=8, workers=1)
    assert again.equals(got)
    # 4 values exist: asking for 2 never measures all 8, asking for 5 tries them all.
    assert len(expected(2, 8)) < 8 and len(expected(5, 8)) == 8
