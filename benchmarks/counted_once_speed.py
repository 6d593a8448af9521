"""What counting each change once costs: a repository and a mirror of it, the whole run vs the step.

    python benchmarks/counted_once_speed.py PATH_TO_REPO [--branch BRANCH] [--no-run]

Makes a local `git clone --mirror` copy of the repository (so every commit is reachable from two
configured repositories, as with a fork or mirror) and adds one cherry-pick of the newest
non-merge commit onto the copy's branch without `-x` (so the patch-id path runs too). Then:
a cold `run_pipeline` over both (the whole graph, through Dagster), and the counted-once step
(`history.counted_once.count_once`, patch ids included) timed alone over the published `commits`
rows of both repositories, best of 3. Prints both and the step's share of the whole run (target
< 5%). `--compare` also runs the original alone and compares every person's profile stats
(commits, features, bugs, lines, activity months) between the two runs: they must be equal.
Uses a temporary data dir, DAGSTER_HOME and copy.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import polars as pl

from exceeds_pipeline.history.counted_once import count_once, patch_id_candidates


def git(*args: str, cwd: Path | None = None, env: dict | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True,
                          env={**os.environ, **(env or {})}).stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("repo")
    parser.add_argument("--branch", default=None)
    parser.add_argument("--compare", action="store_true")
    args = parser.parse_args()
    src = Path(args.repo).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        os.environ["DAGSTER_HOME"] = str(tmp / "dagster_home")
        mirror = tmp / "mirror.git"
        git("clone", "-q", "--mirror", str(src), str(mirror))
        branch = args.branch or git("--git-dir", str(mirror), "symbolic-ref", "--short", "HEAD")
        # A cherry-pick without -x onto the copy: same patch, same author, new sha.
        work = tmp / "work"
        git("clone", "-q", "--branch", branch, str(mirror), str(work))
        newest = git("-C", str(work), "rev-list", "-n", "1", "--no-merges", "HEAD~1")
        env = {"GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}
        picked = subprocess.run(["git", "-C", str(work), "cherry-pick", "--allow-empty", newest],
                                capture_output=True, env={**os.environ, **env})
        if picked.returncode == 0:
            git("-C", str(work), "push", "-q", "origin", f"HEAD:{branch}")
        branch_line = f"\n    branch: {branch}"
        config = tmp / "exceeds.yaml"
        config.write_text(
            f"repositories:\n  - path: {src}\n    name: bench/original{branch_line}\n"
            f"  - path: {mirror}\n    name: bench/mirror{branch_line}\n"
        )
        data = tmp / "data"
        from exceeds_pipeline.runner import run_pipeline

        started = time.perf_counter()
        outcome = run_pipeline(config, data, echo=lambda line: None)
        whole = time.perf_counter() - started
        assert outcome.ok, (outcome.failed_repos, outcome.publish_error)
        with duckdb.connect(str(data / "exceeds.duckdb"), read_only=True) as con:
            commits = con.execute("select * from commits").pl()
            summary = con.execute(
                "select repo, count(*), count(*) filter (where is_counted), "
                "count(*) filter (where counted_in is not null and counted_in <> repo) "
                "from commits group by repo order by repo").fetchall()
        from exceeds_pipeline.config import load_config
        from exceeds_pipeline.ingest.raw_store import RawStore  # noqa: F401
        from exceeds_pipeline.defs.resources import settings_for

        settings = settings_for(config, data)
        store = settings.raw_store()
        git_dirs = {n: store.state(n).git_dir for n in settings.repository_names}
        order = [r.display_name for r in load_config(config).repositories]
        # The step's input: base is_counted (non-merge, non-bot, window), no counted_in yet.
        raw = commits.drop("counted_in", "counted_sha").with_columns(
            (~pl.col("is_merge") & ~pl.col("is_bot")).alias("is_counted"))
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            out = count_once(raw, order, git_dirs)
            best = min(best, time.perf_counter() - t0)
        cands = patch_id_candidates(raw).height
        if args.compare:
            alone = tmp / "alone.yaml"
            alone.write_text(f"repositories:\n  - path: {src}\n    name: bench/original{branch_line}\n")
            assert run_pipeline(alone, tmp / "data_alone", echo=lambda line: None).ok
            stats = {name: _stats(d) for name, d in (("pair", data), ("alone", tmp / "data_alone"))}
    print(f"repository: {src} (+ a mirror copy{' and one cherry-pick' if picked.returncode == 0 else ''})")
    for repo, n, counted, copies in summary:
        print(f"  {repo}: {n} commits, {counted} counted, {copies} copies counted elsewhere")
    print(f"whole cold run (both repositories): {whole:7.2f} s")
    print(f"counted-once step alone:            {best:7.3f} s  ({best / whole:.2%} of the run; "
          f"{raw.height} rows, {cands} patch-id candidates, {out['is_counted'].sum()} counted)")
    if args.compare:
        pair, alone = stats["pair"], stats["alone"]
        diff = [p for p in set(pair) | set(alone) if pair.get(p) != alone.get(p)]
        top = max(alone, key=lambda p: alone[p]["commits"])
        print(f"profiles: {len(alone)} alone, {len(pair)} with the mirror; {len(diff)} differ "
              f"(e.g. {top}: alone {alone[top]}, with the mirror {pair.get(top)})")
    return 0


def _stats(data: Path) -> dict:
    import json

    with duckdb.connect(str(data / "exceeds.duckdb"), read_only=True) as con:
        rows = con.execute("select person_id, profile from profiles").fetchall()
    keys = ("commits", "features", "bugs", "lines_of_code", "activity_months")
    return {pid: {k: json.loads(p)["stats"][k] for k in keys} for pid, p in rows}


if __name__ == "__main__":
    sys.exit(main())
