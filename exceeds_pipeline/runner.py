"""Run the whole asset graph through Dagster from the command line.

One Dagster run per repository ingests its new commits (in parallel processes, one per core);
a failed repository is reported and never stops the others. Then one run derives every table
from all repositories and publishes the database. Every run is recorded in the Dagster instance
(DAGSTER_HOME), so the UI shows what the CLI did.
"""

import multiprocessing
import os
import re
import socket
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from exceeds_pipeline import config as cfg

# Failures are reported by the CLI itself, in one line each; the full logs stay in the UI.
QUIET_LOGS = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}

# Tags on every CLI run: which process runs it, so that a run whose process was killed
# can be marked failed later (the publish job tags itself: definitions.PUBLISH_RUN_TAGS).
CLI_PID_TAG = "exceeds/cli-pid"
CLI_HOST_TAG = "exceeds/cli-host"

DAGSTER_YAML = """\
# Dagster instance of exceeds_pipeline (created by the `exceeds` CLI).
telemetry:
  enabled: false
run_queue:
  max_concurrent_runs: {runs}
  tag_concurrency_limits:
    # one build_and_publish run at a time (they rebuild the same warehouse and database)
    - key: "exceeds/publish"
      limit: 1
    # one run per repository partition at a time (UI and schedule runs of one repository)
    - key: "dagster/partition"
      value:
        applyLimitPerUniqueValue: true
      limit: 1
"""

# What earlier versions wrote: upgraded in place (anything else is the user's and left alone).
_OLD_DAGSTER_YAML = re.compile(
    r"# Dagster instance of exceeds_pipeline \(created by the `exceeds` CLI\)\.\n"
    r"telemetry:\n  enabled: false\nrun_queue:\n  max_concurrent_runs: (\d+)\n"
)


@dataclass
class RepoOutcome:
    repo: str
    ok: bool
    message: str
    seconds: float


@dataclass
class PipelineOutcome:
    repos: list[RepoOutcome] = field(default_factory=list)
    published: bool = False
    publish_error: str = ""
    seconds: float = 0.0

    @property
    def failed_repos(self) -> list[str]:
        return [r.repo for r in self.repos if not r.ok]

    @property
    def ok(self) -> bool:
        return self.published and not self.failed_repos


def prepare_environment(config_path: Path, data_dir: Path) -> None:
    """Point the code location at this config and data dir; make DAGSTER_HOME persistent."""
    os.environ["EXCEEDS_CONFIG"] = str(config_path)
    os.environ["EXCEEDS_DATA_DIR"] = str(data_dir)
    home = cfg.dagster_home()
    home.mkdir(parents=True, exist_ok=True)
    os.environ["DAGSTER_HOME"] = str(home)
    dagster_yaml = home / "dagster.yaml"
    if not dagster_yaml.exists():
        dagster_yaml.write_text(DAGSTER_YAML.format(runs=max(2, os.cpu_count() or 2)))
    else:
        old = _OLD_DAGSTER_YAML.fullmatch(dagster_yaml.read_text())
        if old:
            dagster_yaml.write_text(DAGSTER_YAML.format(runs=old.group(1)))
    data_dir.mkdir(parents=True, exist_ok=True)


def _failure_message(result) -> str:
    """The user-facing message of the first failed step (Dagster's wrappers unwrapped)."""
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data:
            error = event.step_failure_data.error
            while error.cause is not None and error.cls_name.startswith("Dagster"):
                error = error.cause
            text = error.message.strip().splitlines()[0] if error.message.strip() else error.cls_name
            head, sep, rest = text.partition(": ")
            return rest if sep and head.endswith(error.cls_name) else text
    return "run failed"


def cli_run_tags() -> dict[str, str]:
    return {CLI_PID_TAG: str(os.getpid()), CLI_HOST_TAG: socket.gethostname()}


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed process not reaped yet (a zombie) is not running anything
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat[stat.rindex(")") + 2:].split()[0] not in ("Z", "X")
    except (OSError, ValueError, IndexError):
        return True


def fail_abandoned_runs(instance) -> list[str]:
    """Mark runs of killed `exceeds` processes (on this host) as failed; returns their run ids.

    A CLI run killed half-way stays "started" in the instance for ever: the UI would show it as
    in progress and the publish sensor would wait for it. Its process is gone, so it is failed.
    """
    from dagster import DagsterRunStatus, RunsFilter

    in_flight = [DagsterRunStatus.NOT_STARTED, DagsterRunStatus.STARTING, DagsterRunStatus.STARTED]
    failed = []
    runs = instance.get_runs(
        RunsFilter(statuses=in_flight, tags={CLI_HOST_TAG: socket.gethostname()})
    )
    for run in runs:
        try:
            pid = int(run.tags.get(CLI_PID_TAG, ""))
        except ValueError:
            continue
        if pid != os.getpid() and not _pid_alive(pid):
            instance.report_run_failed(
                run, f"the exceeds process running it (pid {pid}) ended before the run finished"
            )
            failed.append(run.run_id)
    return failed


def _current_definitions():
    """The code location for the config and data dir set by prepare_environment *now*.

    `definitions.defs` is built once, at import, from the environment of that moment; a process
    that runs the pipeline twice (a test-suite, a notebook) with another config would reuse it.
    """
    from exceeds_pipeline.definitions import build_definitions

    return build_definitions()


def ingest_one(repo: str) -> RepoOutcome:
    """Worker: one Dagster run ingesting one repository partition."""
    from dagster import DagsterInstance

    started = time.perf_counter()
    defs = _current_definitions()
    job = defs.resolve_job_def("ingest_repository")
    with DagsterInstance.get() as instance:
        result = job.execute_in_process(
            instance=instance, partition_key=repo, raise_on_error=False, run_config=QUIET_LOGS,
            tags=cli_run_tags(),
        )
    elapsed = time.perf_counter() - started
    if result.success:
        metadata = {}
        for event in result.get_asset_materialization_events():
            mat = event.step_materialization_data.materialization
            if mat.asset_key.path == ["raw_commits"]:
                metadata = {k: v.value for k, v in mat.metadata.items()}
        msg = (
            f"{metadata.get('mode', '?')}: {metadata.get('new_commits', 0)} new commits, "
            f"{metadata.get('removed_commits', 0)} removed, {metadata.get('dagster/row_count', 0)} stored"
        )
        if metadata.get("is_shallow"):
            msg += " (shallow clone: only the commits present are counted; `git fetch --unshallow`)"
        if metadata.get("skipped_commits"):
            msg += (
                f"; WARNING: {metadata['skipped_commits']} unreadable commit(s) skipped (objects "
                f"missing: run `git fsck` in the clone and fetch again; see the run log)"
            )
        return RepoOutcome(repo, True, msg, elapsed)
    return RepoOutcome(repo, False, _failure_message(result), elapsed)


def run_pipeline(
    config_path: Path,
    data_dir: Path,
    echo: Callable[[str], None] = print,
    workers: int | None = None,
    lock_timeout: float | None = None,
) -> PipelineOutcome:
    """Ingest every configured repository, then derive and publish; one run per data dir at a
    time (a second one waits for `pipeline.lock`, or raises LockTimeout after `lock_timeout`)."""
    from exceeds_pipeline.locks import pipeline_lock

    started = time.perf_counter()
    config = cfg.load_config(config_path)  # invalid config: ConfigError before anything runs
    prepare_environment(config_path, data_dir)
    with pipeline_lock(data_dir, echo=echo, timeout=lock_timeout):
        outcome = _run_locked(config, echo, workers)
    outcome.seconds = time.perf_counter() - started
    return outcome


def publish_fingerprint(config: cfg.ExceedsConfig) -> str:
    """What a published database is a function of: config, ingested tips and the code itself."""
    import hashlib

    from exceeds_pipeline.ingest.raw_store import RawStore

    digest = hashlib.sha256(config.model_dump_json().encode())
    store = RawStore(cfg.data_dir() / "raw")
    for repo in config.repositories:
        state = store.state(repo.display_name)
        digest.update(f"{repo.display_name}\0{state.tip if state else ''}\0{state.generation if state else ''}\n".encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".yaml", ".json") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _run_locked(config: cfg.ExceedsConfig, echo: Callable[[str], None], workers: int | None) -> PipelineOutcome:
    repos = [r.display_name for r in config.repositories]

    from dagster import DagsterInstance

    from exceeds_pipeline.sync import sync_partitions

    with DagsterInstance.get() as instance:
        abandoned = fail_abandoned_runs(instance)
        if abandoned:
            echo(f"marked {len(abandoned)} run(s) of an earlier, interrupted exceeds process as failed")
        sync_partitions(instance, repos)

    outcome = PipelineOutcome()
    workers = workers or max(1, min(len(repos), os.cpu_count() or 1))
    echo(f"ingesting {len(repos)} repositories ({workers} in parallel)")
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(ingest_one, repo): repo for repo in repos}
        for n, future in enumerate(as_completed(futures), 1):
            repo = futures[future]
            try:
                result = future.result()
            except Exception as exc:  # a crashed worker fails its repository only
                result = RepoOutcome(repo, False, f"{type(exc).__name__}: {exc}", 0.0)
            outcome.repos.append(result)
            status = "ok" if result.ok else "FAILED"
            echo(f"  [{n}/{len(repos)}] {repo}: {status} - {result.message} ({result.seconds:.1f}s)")

    fingerprint = publish_fingerprint(config)
    marker = cfg.data_dir() / ".published_fingerprint"
    published_db = cfg.data_dir() / "exceeds.duckdb"
    if (
        not outcome.failed_repos
        and published_db.exists()
        and marker.exists()
        and marker.read_text() == fingerprint
    ):
        # Same config, same tips, same code: the published database is already this result.
        echo("nothing changed since the last publish: the database and exports are up to date")
        outcome.published = True
        return outcome

    echo("deriving tables and publishing the database")
    marker.unlink(missing_ok=True)
    defs = _current_definitions()
    job = defs.resolve_job_def("build_and_publish")
    with DagsterInstance.get() as instance:
        result = job.execute_in_process(
            instance=instance, raise_on_error=False, run_config=QUIET_LOGS, tags=cli_run_tags()
        )
    outcome.published = result.success
    if result.success:
        marker.write_text(fingerprint)
        for event in result.get_asset_materialization_events():
            mat = event.step_materialization_data.materialization
            rows = mat.metadata.get("dagster/row_count")
            if rows is not None:
                echo(f"  {mat.asset_key.to_user_string()}: {rows.value} rows")
    else:
        outcome.publish_error = _failure_message(result)
        echo(f"  FAILED: {outcome.publish_error}")
    return outcome
