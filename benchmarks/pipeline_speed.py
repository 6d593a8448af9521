"""Whole-graph benchmark: `exceeds materialize` vs one `git log --no-merges --numstat`, same run.

    python benchmarks/pipeline_speed.py PATH_TO_REPO [--branch BRANCH]

Prints: the git log baseline; a cold run of the whole asset graph (ingest + derive + rollups +
profiles + publish, through Dagster) and its ratio to git log (target <= 1.3x); the whole
`exceeds materialize` command with no new commits, as a user runs it (target <= 3 s); and the
peak RSS of the pipeline processes (target < 2 GB). Uses a temporary data dir and DAGSTER_HOME,
or with ``--keep DIR`` that (empty) folder, left in place to inspect or to feed
``quality_speed.py --data-dir DIR/data``.
"""

import argparse
import contextlib
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ingest_speed import git_log_baseline  # noqa: E402

from exceeds_pipeline.ingest.repository import open_local, resolve_branch  # noqa: E402


class RssSampler(threading.Thread):
    """Samples the summed RSS of this process and its descendants every 0.25 s."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.samples: list[tuple[float, float, float]] = []  # (time, largest process MB, sum MB)
        self.done = threading.Event()

    def run(self) -> None:
        import psutil

        me = psutil.Process()
        while not self.done.wait(0.25):
            sizes = []
            for proc in [me, *me.children(recursive=True)]:
                try:
                    sizes.append(proc.memory_info().rss / 2**20)
                except psutil.Error:
                    pass
            self.samples.append((time.time(), max(sizes), sum(sizes)))

    def peak(self, start: float, end: float) -> tuple[float, float]:
        inside = [(big, total) for t, big, total in self.samples if start <= t <= end]
        return (max(b for b, _ in inside), max(t for _, t in inside)) if inside else (0.0, 0.0)


def step_windows() -> dict[str, tuple[float, float]]:
    """(start, end) wall-clock time of each step of the runs in this DAGSTER_HOME."""
    from dagster import DagsterEventType, DagsterInstance

    out: dict[str, tuple[float, float]] = {}
    with DagsterInstance.get() as instance:
        for run in instance.get_runs():
            starts: dict[str, float] = {}
            for record in instance.get_records_for_run(
                run.run_id, of_type={DagsterEventType.STEP_START, DagsterEventType.STEP_SUCCESS,
                                     DagsterEventType.STEP_FAILURE}).records:
                entry = record.event_log_entry
                key = entry.dagster_event.step_key
                if entry.dagster_event.event_type == DagsterEventType.STEP_START:
                    starts[key] = entry.timestamp
                elif key in starts:
                    out[key] = (starts[key], entry.timestamp)
    return out


def step_seconds() -> dict[str, float]:
    """Seconds of each step of the runs in this DAGSTER_HOME (start to success/failure)."""
    return {key: end - start for key, (start, end) in step_windows().items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("repo")
    parser.add_argument("--branch")
    parser.add_argument("--keep", type=Path, help="an empty folder to run in and keep")
    args = parser.parse_args()
    repo_path = Path(args.repo).resolve()
    git_dir = open_local(repo_path.name, str(repo_path), Path.cwd())
    branch, tip = resolve_branch(repo_path.name, git_dir, args.branch)
    baseline, commits, _, _ = git_log_baseline(git_dir, tip)
    print(f"git log --no-merges --numstat: {baseline:7.2f} s ({commits} non-merge commits)")

    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        if any(args.keep.iterdir()):
            parser.error(f"--keep {args.keep}: not empty")
    with (contextlib.nullcontext(str(args.keep.resolve())) if args.keep else tempfile.TemporaryDirectory()) as tmp:
        os.environ["DAGSTER_HOME"] = str(Path(tmp) / "dagster_home")
        config = Path(tmp) / "exceeds.yaml"
        branch_line = f"\n    branch: {args.branch}" if args.branch else ""
        config.write_text(f"repositories:\n  - path: {repo_path}\n    name: bench/{repo_path.name}{branch_line}\n")
        from exceeds_pipeline.runner import run_pipeline

        quiet = lambda line: None  # noqa: E731
        sampler = RssSampler()
        sampler.start()
        started = time.perf_counter()
        cold = run_pipeline(config, Path(tmp) / "data", echo=quiet)
        cold_s = time.perf_counter() - started
        sampler.done.set()
        steps = step_seconds()
        windows = step_windows()
        exceeds = Path(sys.executable).with_name("exceeds")
        started = time.perf_counter()
        warm = subprocess.run([str(exceeds), "materialize", "--config", str(config), "--data-dir",
                               str(Path(tmp) / "data")], capture_output=True, text=True)
        warm_s = time.perf_counter() - started
    rss_mb = max(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    ) / 1024
    print(f"cold run, whole graph:         {cold_s:7.2f} s  ratio {cold_s / baseline:.2f}x  ok={cold.ok}")
    costly = sum(v for k, v in steps.items() if k.startswith("quality_facts"))
    rest = cold_s - costly
    print(f"  without the quality facts:    {rest:7.2f} s  ratio {rest / baseline:.2f}x "
          f"(quality facts steps {costly:.2f} s, {costly / baseline:.2f}x)")
    for key, secs in sorted(steps.items(), key=lambda kv: -kv[1])[:10]:
        big, total = sampler.peak(*windows[key]) if key in windows else (0.0, 0.0)
        print(f"    step {key}: {secs:.2f} s, peak RSS {big:.0f} MB (all processes {total:.0f} MB)")
    for r in cold.repos:
        print(f"  ingest {r.repo}: {r.seconds:.2f} s ({r.message})")
    print(f"no-change `exceeds materialize`: {warm_s:5.2f} s  exit={warm.returncode}")
    for line in warm.stdout.splitlines():
        print(f"  {line}")
    print(f"peak RSS (largest process):    {rss_mb:7.0f} MB")
    return 0 if cold.ok and warm.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
