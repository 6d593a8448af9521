"""Cost of the per-repository quality facts (DMM, SZZ, line survival), cold and nightly, as
ratios of one `git log --no-merges --numstat` over the same history measured in the same run;
and the distribution of every quality metric over the repository's people.

Usage:
    python benchmarks/quality_speed.py --data-dir DATA --repo NAME [--git-dir PATH] [--nightly N]

DATA is the data dir of an `exceeds materialize` run over the repository (its published
`exceeds.duckdb` gives `commits`, `file_changes`, `work_items`, `commit_links`); the git dir
defaults to the configured path recorded there. Steps:

1. baseline: `git log --no-merges --numstat` over the branch tip (output discarded);
2. cold: every fact with an empty cache (dmm_for_repository, szz_for_repository,
   survival_for_repository), each timed;
3. nightly: the facts computed with the cache of the history as it was N first-parent commits
   earlier (default 20), then for the full history: only the new commits cost anything;
4. no change: the full history again (cache hit everywhere);
5. the metrics (`quality_metrics`) from those facts: per metric, count of values, zeros, ones,
   median value and median evidence count, over people with a counted commit.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import duckdb
import polars as pl

from exceeds_pipeline.ingest.gitcmd import git_command, git_env
from exceeds_pipeline.quality import quality_metrics
from exceeds_pipeline.quality.dmm import dmm_for_repository
from exceeds_pipeline.quality.survival import survival_for_repository
from exceeds_pipeline.quality.szz import szz_for_repository

FACTS = {
    "dmm": dmm_for_repository,
    "szz": szz_for_repository,
    "survival": survival_for_repository,
}


def timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t


def git_log_seconds(git_dir: Path, tip: str, shas: list[str]) -> float:
    """One `git log --no-merges --numstat` over the history; where the clone misses objects
    (git stops at the first), over the readable commits the pipeline stored (--stdin)."""
    t = time.perf_counter()
    proc = subprocess.run(git_command(git_dir, ["log", "--no-merges", "--numstat", "--format=%H", tip]),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=git_env())
    if proc.returncode == 0:
        return time.perf_counter() - t
    t = time.perf_counter()
    subprocess.run(git_command(git_dir, ["log", "--no-walk=unsorted", "--stdin", "--numstat", "--format=%H"]),
                   input=("\n".join(shas) + "\n").encode(), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=git_env(), check=True)
    print("(clone misses objects: git log timed over the stored readable non-merge commits)")
    return time.perf_counter() - t


def facts(name, git_dir, commits, files, cache) -> tuple[dict, dict]:
    out, secs = {}, {}
    for key, fn in FACTS.items():
        out[key], secs[key] = timed(fn, name, git_dir, commits, files, cache)
    return out, secs


def distribution(table: pl.DataFrame) -> pl.DataFrame:
    return (
        table.group_by("metric", maintain_order=True)
        .agg(
            pl.len().alias("people"),
            pl.col("value").is_not_null().sum().alias("values"),
            (pl.col("value") == 0).sum().alias("zeros"),
            (pl.col("value") == 1).sum().alias("ones"),
            pl.col("value").median().round(3).alias("median_value"),
            pl.col("value").quantile(0.1).round(3).alias("p10"),
            pl.col("value").quantile(0.9).round(3).alias("p90"),
            pl.col("evidence_count").filter(pl.col("value").is_not_null()).median().alias("median_evidence"),
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", required=True, type=Path)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--git-dir", type=Path)
    ap.add_argument("--nightly", type=int, default=20, help="first-parent commits held back for the nightly run")
    args = ap.parse_args()

    con = duckdb.connect(str(args.data_dir / "exceeds.duckdb"), read_only=True)
    commits = con.execute("select * from commits where repo = ?", [args.repo]).pl()
    files = con.execute("select * from file_changes where repo = ?", [args.repo]).pl()
    work_items = con.execute("select * from work_items").pl()
    links = con.execute("select * from commit_links").pl()
    con.close()
    if "parents" not in commits.columns:
        raise SystemExit("commits has no parents column")
    git_dir = args.git_dir
    if git_dir is None:  # the clone the pipeline ingested, as its raw store records it
        from exceeds_pipeline.ingest.raw_store import RawStore

        state = RawStore(args.data_dir / "raw").state(args.repo)
        if state is None or not state.git_dir:
            raise SystemExit(f"{args.repo}: no git dir recorded under {args.data_dir / 'raw'}; pass --git-dir")
        git_dir = Path(state.git_dir)
    tip = commits.sort("committed_at", descending=True)["sha"][0]
    parents = set(commits["parents"].explode(empty_as_null=True).drop_nulls().to_list())
    heads = commits.filter(~pl.col("sha").is_in(list(parents))).sort("committed_at", descending=True)
    tip = heads["sha"][0] if heads.height else tip

    base = git_log_seconds(git_dir, tip, commits.filter(~pl.col("is_merge"))["sha"].to_list())
    print(f"{args.repo}: {commits.height} commits, git log --no-merges --numstat {base:.1f} s")
    work = Path(tempfile.mkdtemp(prefix="quality-speed-"))
    try:
        cold_cache = work / "cold"
        cold, secs = facts(args.repo, git_dir, commits, files, cold_cache)
        total = sum(secs.values())
        print("cold: " + ", ".join(f"{k} {v:.1f} s ({v / base:.2f}x)" for k, v in secs.items())
              + f"; all quality facts {total:.1f} s = {total / base:.2f}x git log")

        # Nightly: the cache of the history N first-parent commits ago, then the full history.
        chain, c = [], tip
        by_sha = dict(zip(commits["sha"].to_list(), commits["parents"].to_list()))
        while c in by_sha and len(chain) <= args.nightly:
            chain.append(c)
            ps = by_sha[c] or []
            c = ps[0] if ps else None
        old_tip = chain[-1]
        old = set(subprocess.run(git_command(git_dir, ["rev-list", old_tip]), capture_output=True, text=True,
                                 env=git_env(), check=True).stdout.split())
        nightly_cache = work / "nightly"
        facts(args.repo, git_dir, commits.filter(pl.col("sha").is_in(list(old))), files, nightly_cache)
        new_commits = commits.height - len(old & set(by_sha))
        warm, secs_n = facts(args.repo, git_dir, commits, files, nightly_cache)
        total_n = sum(secs_n.values())
        print(f"nightly ({new_commits} new commits): " + ", ".join(f"{k} {v:.2f} s" for k, v in secs_n.items())
              + f"; all {total_n:.2f} s = {total_n / base:.3f}x git log")
        for key in FACTS:
            sort = [c for c in ("sha", "fix_sha", "blamed_sha", "path") if c in cold[key].columns]
            same = warm[key].sort(sort).equals(cold[key].sort(sort))
            print(f"  {key}: nightly result {'==' if same else '!='} cold result")
        _, secs_0 = facts(args.repo, git_dir, commits, files, nightly_cache)
        print(f"no change: all facts {sum(secs_0.values()):.2f} s")

        table = quality_metrics(commits, work_items.filter(pl.col("repo") == args.repo), links, files,
                                cold["dmm"], cold["szz"], cold["survival"])
        people = set(commits.filter(pl.col("is_counted") & ~pl.col("is_bot").fill_null(False))["person_id"].to_list())
        with pl.Config(tbl_rows=20, tbl_cols=20, tbl_width_chars=200):
            print(distribution(table.filter(pl.col("person_id").is_in(list(people)))))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
