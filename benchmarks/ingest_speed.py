"""Ingest benchmark: our streaming ingest vs one `git log --no-merges --numstat`, same run.

    python benchmarks/ingest_speed.py PATH_TO_REPO [--branch BRANCH]

Prints seconds for both, the ratio, commit counts, and checks that the line totals equal git's.
The SPEC target is a ratio <= 1.0 on a large history such as git/git.
"""

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from exceeds_pipeline.ingest.incremental import ingest_repository
from exceeds_pipeline.ingest.raw_store import RawStore
from exceeds_pipeline.ingest.repository import is_shallow, open_local, resolve_branch
from exceeds_pipeline.ingest.repository import LocalRepository


def derive(commits, file_changes):
    """The derive stage on the ingested tables: identities, languages, exclusions, links, AI
    markers, categories, work items, skills (what the `history` assets compute)."""
    from exceeds_pipeline.classify.categories import categorize_commits
    from exceeds_pipeline.classify.links import commit_links
    from exceeds_pipeline.classify.work_items import assign_work_items
    from exceeds_pipeline.enrich.ai_tools import with_ai_tool
    from exceeds_pipeline.enrich.exclusions import classify_exclusions
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline.enrich.skills import load_skill_rules, skills_per_commit
    from exceeds_pipeline.history.tables import attach_people, finalize_commits
    from exceeds_pipeline.identity.people import resolve_people

    people, identity_map = resolve_people(commits.lazy())
    files = classify_exclusions(with_language(file_changes))
    links = commit_links(commits)
    table = categorize_commits(with_ai_tool(attach_people(commits, identity_map, people)), files, links)
    table, work_items = assign_work_items(table, links, files)
    table = finalize_commits(table)
    skills_per_commit(table, files, load_skill_rules())
    return table, work_items


def git_log_baseline(git_dir: Path, tip: str) -> tuple[float, int, int, int]:
    started = time.perf_counter()
    proc = subprocess.Popen(
        ["git", "--git-dir", str(git_dir), "log", "--no-merges", "--numstat", "--format=%x00%H", tip],
        stdout=subprocess.PIPE,
    )
    commits = added = deleted = 0
    for line in proc.stdout:
        if line.startswith(b"\x00"):
            commits += 1
        elif b"\t" in line:
            a, d, _ = line.split(b"\t", 2)
            if a != b"-":
                added += int(a)
                deleted += int(d)
    proc.wait()
    return time.perf_counter() - started, commits, added, deleted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("repo")
    parser.add_argument("--branch")
    args = parser.parse_args()
    name = Path(args.repo).resolve().name
    git_dir = open_local(name, args.repo, Path.cwd())
    branch, tip = resolve_branch(name, git_dir, args.branch)
    repo = LocalRepository(name, git_dir, tip, branch, is_shallow(name, git_dir))

    baseline, base_commits, base_added, base_deleted = git_log_baseline(git_dir, tip)
    with tempfile.TemporaryDirectory() as tmp:
        store = RawStore(Path(tmp))
        result = ingest_repository(repo, store)
        commits, files = store.read(name)
        again = ingest_repository(repo, store)
    started = time.perf_counter()
    _, work_items = derive(commits, files)
    derive_s = time.perf_counter() - started
    counted = commits.filter(~commits["is_merge"])
    exact = (int(counted["lines_added"].sum()), int(counted["lines_deleted"].sum())) == (base_added, base_deleted)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"repository:            {args.repo} ({branch} @ {tip[:12]})")
    print(f"git log --numstat:     {baseline:8.2f} s  ({base_commits} non-merge commits)")
    print(f"ingest (cold):         {result.seconds:8.2f} s  ({result.new_commits} commits, "
          f"{counted.height} non-merge, {result.total_file_changes} file changes)")
    print(f"ratio ingest/git log:  {result.seconds / baseline:8.2f}x")
    print(f"derive stage:          {derive_s:8.2f} s  ({derive_s / result.seconds:.0%} of ingest; "
          f"{work_items.height} work items)")
    print(f"no-change re-run:      {again.seconds:8.2f} s  (mode {again.mode})")
    print(f"lines equal git log:   {exact} (+{base_added} -{base_deleted})")
    print(f"peak RSS (this proc):  {peak_mb:8.0f} MB")
    return 0 if exact and base_commits == counted.height else 1


if __name__ == "__main__":
    sys.exit(main())
