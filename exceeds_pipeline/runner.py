"""Run the asset graph from the command line, through Dagster's own execution.

Two Dagster runs, recorded in the instance (DAGSTER_HOME) like the UI's and the schedule's:
`ingest_repositories` (one step per repository; the job's executor runs them in parallel
processes, or on a Dask cluster when the config says so; a failing repository fails its step
only), then `build_and_publish`, when the published database is not already this result (the
rule of `exceeds_pipeline.publish.freshness`, which the `publish_after_ingest` sensor applies
too). The CLI manages no processes of its own; it prints each repository's outcome as its step
ends.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from exceeds_pipeline import config as cfg

# Failures are reported by the CLI itself, in one line each; the full logs stay in the UI.
QUIET_LOGS = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}

# Tags on every CLI run: which process runs it, so that a run whose process was killed
# can be marked failed later.
CLI_PID_TAG = "exceeds/cli-pid"
CLI_HOST_TAG = "exceeds/cli-host"
INVOCATION_TAG = "exceeds/cli-invocation"

DAGSTER_YAML = """\
# Dagster instance of exceeds_pipeline (created by the `exceeds` CLI).
telemetry:
  enabled: false
run_queue:
  max_concurrent_runs: {runs}
python_logs:
  python_log_level: INFO
"""

# What earlier versions wrote: upgraded in place (anything else is the user's and left alone).
_OLD_DAGSTER_YAML = re.compile(
    r"# Dagster instance of exceeds_pipeline \(created by the `exceeds` CLI\)\.\n"
    r"telemetry:\n  enabled: false\nrun_queue:\n  max_concurrent_runs: (\d+)\n.*",
    re.DOTALL,
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


def prepare_instance() -> Path:
    """DAGSTER_HOME (the user's, else `.dagster_home/` in the project) with a dagster.yaml."""
    home = cfg.dagster_home()
    home.mkdir(parents=True, exist_ok=True)
    dagster_yaml = home / "dagster.yaml"
    if not dagster_yaml.exists():
        dagster_yaml.write_text(DAGSTER_YAML.format(runs=max(2, os.cpu_count() or 2)))
    else:
        old = _OLD_DAGSTER_YAML.fullmatch(dagster_yaml.read_text())
        if old:
            dagster_yaml.write_text(DAGSTER_YAML.format(runs=old.group(1)))
    return home


def check_data_dir(data_dir: Path) -> None:
    """An unusable data dir is a config error (exit 2), before anything runs."""
    if data_dir.exists() and not data_dir.is_dir():
        raise cfg.ConfigError(f"data dir {data_dir} is a file, not a folder; use --data-dir PATH")
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cfg.ConfigError(f"data dir {data_dir} cannot be created: {exc.strerror or exc}") from None
    if not os.access(data_dir, os.W_OK | os.X_OK):
        raise cfg.ConfigError(f"data dir {data_dir} is not writable; use --data-dir PATH or fix its permissions")


def error_message(error) -> str:
    """The user-facing line of a Dagster error (its wrappers unwrapped)."""
    while error.cause is not None and error.cls_name.startswith("Dagster"):
        error = error.cause
    text = error.message.strip().splitlines()[0] if error.message.strip() else error.cls_name
    head, sep, rest = text.partition(": ")
    return rest if sep and head.endswith(error.cls_name) else text


def _failure_message(result) -> str:
    """The first failure of a run: a step's, else a resource's (e.g. the warehouse check), else
    the run's own."""
    from dagster import DagsterEventType

    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data:
            return error_message(event.step_failure_data.error)
    for event in result.all_events:
        data = event.event_specific_data
        error = getattr(data, "error", None)
        if event.event_type in (DagsterEventType.RESOURCE_INIT_FAILURE, DagsterEventType.ENGINE_EVENT,
                                DagsterEventType.RUN_FAILURE) and error is not None:
            return error_message(error)
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


def _repo_message(metadata: dict) -> str:
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
    return msg


class _IngestProgress:
    """Follows the ingest run in the instance and reports each repository as its step ends."""

    def __init__(self, instance, invocation: str, steps: dict[str, tuple[str, str]], echo: Callable[[str], None]):
        """`steps`: {step key: (repository, kind)}; a repository is reported when its steps
        have ended (at once when its raw history failed: the rest is skipped)."""
        self.instance, self.invocation, self.steps, self.echo = instance, invocation, steps, echo
        self.repos = sorted({repo for repo, _ in steps.values()})
        self.kinds_per_repo = len({kind for _, kind in steps.values()})
        self.outcomes: dict[str, RepoOutcome] = {}
        self.started: dict[str, float] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._follow, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.poll()  # whatever happened after the last tick

    def _follow(self):
        while not self._stop.wait(0.5):
            try:
                self.poll()
            except Exception:  # noqa: BLE001 - progress is best effort; the result is authoritative
                pass

    def poll(self):
        from dagster import DagsterEventType, RunsFilter

        with self._lock:
            runs = self.instance.get_runs(RunsFilter(tags={INVOCATION_TAG: self.invocation}), limit=1)
            if not runs:
                return
            records = self.instance.get_records_for_run(
                runs[0].run_id,
                of_type={DagsterEventType.STEP_START, DagsterEventType.STEP_SUCCESS,
                         DagsterEventType.STEP_FAILURE, DagsterEventType.ASSET_MATERIALIZATION},
            ).records
            metadata: dict[str, dict] = {}
            ended: dict[str, dict[str, tuple[bool, str, float]]] = {}
            for record in records:
                entry = record.event_log_entry
                event = entry.dagster_event
                repo, kind = self.steps.get(event.step_key or "", (None, None))
                if repo is None or repo in self.outcomes:
                    continue
                if event.event_type == DagsterEventType.STEP_START:
                    self.started.setdefault(repo, entry.timestamp)
                elif event.event_type == DagsterEventType.ASSET_MATERIALIZATION:
                    if kind == "raw":
                        mat = event.step_materialization_data.materialization
                        metadata[repo] = {k: v.value for k, v in mat.metadata.items()}
                elif event.event_type == DagsterEventType.STEP_SUCCESS:
                    ended.setdefault(repo, {})[kind] = (True, "", entry.timestamp)
                else:
                    message = error_message(event.step_failure_data.error)
                    if kind != "raw":
                        message = f"{kind}: {message}"
                    ended.setdefault(repo, {})[kind] = (False, message, entry.timestamp)
            for repo, kinds in ended.items():
                raw_ok = kinds.get("raw", (True,))[0]
                if raw_ok and len(kinds) < self.kinds_per_repo:
                    continue  # its other steps are still running
                failures = [m for ok, m, _ in kinds.values() if not ok]
                ended_at = max(t for _, _, t in kinds.values())
                seconds = ended_at - self.started.get(repo, ended_at)
                message = "; ".join(failures) if failures else _repo_message(metadata.get(repo, {}))
                outcome = RepoOutcome(repo, not failures, message, seconds)
                self.outcomes[repo] = outcome
                status = "ok" if outcome.ok else "FAILED"
                self.echo(f"  [{len(self.outcomes)}/{len(self.repos)}] {repo}: {status} - "
                          f"{outcome.message} ({outcome.seconds:.1f}s)")


def run_pipeline(
    config_path: Path,
    data_dir: Path,
    echo: Callable[[str], None] = print,
    lock_timeout: float | None = None,
    prepare: Callable[[], Path] | None = None,
) -> PipelineOutcome:
    """Ingest every configured repository, then derive and publish; one run per data dir at a
    time (a second one waits for `pipeline.lock`, or raises LockTimeout after `lock_timeout`).

    `prepare`, if given, runs first while the lock is held and returns the config path to use
    (`exceeds demo` builds its repositories there, so a second demo cannot rebuild them under
    a running one)."""
    from exceeds_pipeline.locks import pipeline_lock

    started = time.perf_counter()
    data_dir = cfg.data_dir(data_dir)
    # invalid config: ConfigError before anything runs (a demo's config is written in the lock)
    config = None if prepare is not None else cfg.load_config(cfg.config_path(config_path))
    check_data_dir(data_dir)
    home = prepare_instance()
    # The pipeline lock keeps two `exceeds` commands on one data dir (processes Dagster does not
    # know about: `exceeds demo` rebuilds repositories before any run starts) from interleaving.
    with pipeline_lock(data_dir, echo=echo, timeout=lock_timeout), _interrupts() as interrupted:
        if prepare is not None:
            config_path = prepare()
        config_path = cfg.config_path(config_path)
        config = config or cfg.load_config(config_path)
        outcome = _nothing_to_do(config, config_path, data_dir, echo)
        if outcome is None:
            from exceeds_pipeline.defs.resources import settings_for

            outcome = _run_locked(settings_for(config_path, data_dir, config), home, echo, interrupted)
    outcome.seconds = time.perf_counter() - started
    return outcome


def _nothing_to_do(config: cfg.ExceedsConfig, config_path: Path, data_dir: Path,
                   echo: Callable[[str], None]) -> PipelineOutcome | None:
    """The outcome of a run that would change nothing, found without starting one (and
    without importing Dagster): every repository is a local clone whose branch tip is the one
    ingested, and the published database and exports are this result. Decided by the same
    functions the ingest asset and the publish rule use; anything else (a `url:` repository
    needs a fetch) goes to Dagster."""
    from exceeds_pipeline.ingest.gitcmd import GitError
    from exceeds_pipeline.ingest.incremental import is_up_to_date
    from exceeds_pipeline.ingest.raw_store import RawStore
    from exceeds_pipeline.ingest.repository import prepare_repository
    from exceeds_pipeline.publish.freshness import failed_facts, publish_fingerprint, publish_reason

    store = RawStore(data_dir / "raw")
    try:
        for repo_cfg in config.repositories:
            repo = prepare_repository(repo_cfg, data_dir / "repos", config_path.parent, fetch=False)
            if repo is None or not is_up_to_date(repo, store):
                return None
    except GitError:
        return None  # the ingest run reports it
    if publish_reason(data_dir, publish_fingerprint(config, store), failed_facts(config, store)) is not None:
        return None
    outcome = PipelineOutcome(published=True)
    names = [r.display_name for r in config.repositories]
    for n, name in enumerate(names, 1):
        state = store.state(name)
        outcome.repos.append(RepoOutcome(name, True, f"unchanged: 0 new commits, {state.commits} stored", 0.0))
        echo(f"  [{n}/{len(names)}] {name}: ok - unchanged at {state.tip[:12]}, {state.commits} stored commits")
    echo("nothing changed since the last publish: the database and exports are up to date")
    return outcome


@contextmanager
def _interrupts():
    """Ctrl-C (SIGINT) or SIGTERM stop the whole command. Dagster turns the interrupt of a run
    into a failed run and returns; the flag makes sure nothing after it (publishing) runs."""
    flag = threading.Event()
    previous = {}

    def handler(signum, frame):
        flag.set()
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, handler)
    try:
        yield flag
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _was_interrupted(result, interrupted) -> bool:
    """Ctrl-C during a run: Dagster's own handler turns it into failed steps and a failed run
    (DagsterExecutionInterruptedError) and returns, instead of raising."""
    if interrupted is not None and interrupted.is_set():
        return True
    for event in result.all_events:
        error = None
        if event.is_step_failure and event.step_failure_data:
            error = event.step_failure_data.error
        elif event.is_failure and getattr(event, "job_failure_data", None):
            error = event.job_failure_data.error
        while error is not None:
            if error.cls_name in ("DagsterExecutionInterruptedError", "KeyboardInterrupt"):
                return True
            error = error.cause
    return False


def _run_locked(settings, home: Path, echo: Callable[[str], None], interrupted=None) -> PipelineOutcome:
    from dagster import DagsterInstance, execute_job
    from dagster._core.instance.ref import InstanceRef

    from exceeds_pipeline.definitions import INGEST_JOB, PUBLISH_JOB, reconstructable_job
    from exceeds_pipeline.defs.ingest.assets import code_evidence_key, raw_history_key
    from exceeds_pipeline.publish.freshness import failed_facts, forget_published, publish_fingerprint, publish_reason

    repos = settings.repository_names
    steps = {raw_history_key(r).to_python_identifier(): (r, "raw") for r in repos}
    steps.update({code_evidence_key(r).to_python_identifier(): (r, "code evidence") for r in repos})
    outcome = PipelineOutcome()
    with DagsterInstance.from_ref(InstanceRef.from_dir(str(home))) as instance:
        abandoned = fail_abandoned_runs(instance)
        if abandoned:
            echo(f"marked {len(abandoned)} run(s) of an earlier, interrupted exceeds process as failed")

        dask = settings.config.execution.dask
        parallel = min(os.cpu_count() or 1, len(repos))
        where = f"on the Dask cluster at {dask.scheduler}" if dask else f"up to {parallel} in parallel"
        echo(f"ingesting {len(repos)} repositories ({where})")
        invocation = uuid.uuid4().hex
        with _IngestProgress(instance, invocation, steps, echo) as progress:
            result = execute_job(
                reconstructable_job(INGEST_JOB, settings), instance, run_config=QUIET_LOGS,
                tags={**cli_run_tags(), INVOCATION_TAG: invocation}, raise_on_error=False,
            )
        if _was_interrupted(result, interrupted):
            raise KeyboardInterrupt
        for repo in repos:
            outcome.repos.append(
                progress.outcomes.get(repo)
                or RepoOutcome(repo, False, f"not run: {_failure_message(result)}", 0.0)
            )

        fingerprint = publish_fingerprint(settings.config, settings.raw_store())
        reason = publish_reason(settings.data, fingerprint, failed_facts(settings.config, settings.raw_store()))
        if reason is None:
            echo("nothing changed since the last publish: the database and exports are up to date")
            outcome.published = True
            return outcome

        echo(f"deriving tables and publishing the database ({reason})")
        forget_published(settings.data)
        result = execute_job(
            reconstructable_job(PUBLISH_JOB, settings), instance, run_config=QUIET_LOGS,
            tags=cli_run_tags(), raise_on_error=False,
        )
        if _was_interrupted(result, interrupted):
            raise KeyboardInterrupt
        outcome.published = result.success
        if result.success:
            for event in result.get_asset_materialization_events():
                mat = event.step_materialization_data.materialization
                rows = mat.metadata.get("dagster/row_count")
                if rows is not None:
                    echo(f"  {mat.asset_key.to_user_string()}: {rows.value} rows")
        else:
            outcome.publish_error = _failure_message(result)
            echo(f"  FAILED: {outcome.publish_error}")
    return outcome
