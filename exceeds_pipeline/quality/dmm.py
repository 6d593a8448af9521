"""Delta Maintainability Model per commit, as PyDriller computes it, with a Parquet cache.

PyDriller's ``Commit.dmm_unit_size``, ``dmm_unit_complexity`` and ``dmm_unit_interfacing`` (DMM,
Di Biase et al. 2019; methods measured by lizard) give the share of a commit's change in method
volume that is "good": low-risk methods grown or high-risk methods shrunk. Risk thresholds are
PyDriller's: a method is low risk for unit size at <= 15 lines of code, for unit complexity at
cyclomatic complexity <= 5, for unit interfacing at <= 2 parameters. A commit that touches no
file lizard can read, or whose method volume does not change, has no DMM (null).

Cost and bounds. Measuring a commit means diffing it and parsing every changed file twice
(before and after) with lizard: about 30-80 ms. So:

* **Cache.** :func:`compute_dmm` stores one row per sha (three values, null where PyDriller has
  none, and a status) in a Parquet file the caller names, and only measures shas not in it.
  A commit that cannot be measured (missing object, parse failure) is stored with status
  ``error`` and not retried.
* **Sampling.** :func:`dmm_sample` picks which commits to measure, as a function of the
  history alone: counted commits (reverts left out: they restore earlier code) that change at
  least one non-excluded file lizard can read,
  with at most :data:`MAX_DMM_LINES` changed lines and :data:`MAX_DMM_FILES` files; of those,
  for every person with at least :data:`DMM_MIN_COMMITS` such commits, the *wanted* number
  with the smallest shas (a sha is a hash: a fixed, content-independent, uniform choice): the
  square root of their eligible commits, rounded, from :data:`DMM_MIN_SAMPLE` to
  :data:`DMM_MAX_SAMPLE` (:func:`dmm_wanted`; a caller may fix it with ``per_person``), so a
  prolific person's figure rests on more of their work. Many commits give no DMM (they change
  no method volume: a struct, a macro, a constant), so :func:`dmm_for_repository` goes further
  down each person's sha order until the wanted number have a value, trying at most
  :data:`DMM_TRIED_FACTOR` times as many: the measured set is the shortest sha-ordered prefix
  of the person's eligible commits holding that many values. The sample is the same whatever
  the number of earlier runs; a new commit enters it only if its sha is among its author's
  smallest (or their count crosses a square), so a nightly run measures few commits per new
  commit. The number of commits with a value is each person's evidence count.
* **Per repository.** :func:`dmm_for_repository` is the per-repository fact (one cache file per
  repository, keyed by sha; a damaged cache is read as empty and rebuilt); it measures the
  uncached part of the sample in parallel processes (one per core).

The three values are computed from one diff and one lizard pass per file (PyDriller's public
properties redo both for each property); the arithmetic is PyDriller's own
(``ModifiedFile._delta_risk_profile`` summed over the commit's lizard-readable files, then
``Commit._good_change_proportion``), so the numbers equal the public properties. For C and C++
files lizard reads only the changed regions, and for Python and Go files only the top-level
chunks that differ (:mod:`exceeds_pipeline.quality.lizard_delta`: the methods outside them are the
same before and after and cancel), with the same values: this halves the cost on git/git and
cuts it about threefold on Python histories.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable
from functools import cached_property, lru_cache

import polars as pl

from exceeds_pipeline.common.chunks import contiguous_chunks
from exceeds_pipeline.ingest.gitcmd import HUNK_HEADER
from exceeds_pipeline.common.parquet_cache import read_cache, write_cache
from exceeds_pipeline.quality.lizard_delta import delta_risk_profiles

log = logging.getLogger(__name__)

__all__ = [
    "DMM_CACHE_SCHEMA",
    "DMM_MAX_NEW_PER_RUN",
    "DMM_MAX_TRIED",
    "DMM_MIN_COMMITS",
    "DMM_MAX_SAMPLE",
    "DMM_MIN_SAMPLE",
    "DMM_PER_PERSON",
    "DMM_PER_PERSON_MONTH",
    "dmm_for_repository",
    "MAX_DMM_FILES",
    "MAX_DMM_LINES",
    "compute_dmm",
    "dmm_sample",
    "dmm_wanted",
    "lizard_supported",
]

# Commits with a DMM value wanted per person: the square root of their eligible commits, at
# least DMM_MIN_SAMPLE and at most DMM_MAX_SAMPLE (ripgrep's main author, 1,512 commits, had a
# maintainability figure from 5 of them; git/git has 3,654 measured values instead of 3,119)
DMM_MIN_SAMPLE = 3
DMM_MAX_SAMPLE = 40
DMM_TRIED_FACTOR = 2  # eligible commits tried per person at most: this many times the wanted
DMM_PER_PERSON = 5  # a fixed sample size some callers ask for
DMM_MAX_TRIED = DMM_TRIED_FACTOR * DMM_PER_PERSON
DMM_MIN_COMMITS = 3  # people with fewer eligible commits get no DMM-based value (null)
DMM_PER_PERSON_MONTH = DMM_PER_PERSON  # old name, kept for callers
MAX_DMM_LINES = 2000  # raw lines added + deleted
MAX_DMM_FILES = 50
DMM_MAX_NEW_PER_RUN = None  # no per-run cap: values never depend on how many runs happened

DMM_CACHE_SCHEMA: dict[str, pl.DataType] = {
    "sha": pl.String,
    "dmm_unit_size": pl.Float64,
    "dmm_unit_complexity": pl.Float64,
    "dmm_unit_interfacing": pl.Float64,
    "status": pl.String,  # ok | no_value | error
}


@lru_cache(maxsize=4096)
def _lizard_reads_extension(ext: str) -> bool:
    import lizard_languages

    return lizard_languages.get_reader_for(f"file{ext}") is not None


def lizard_supported(paths: pl.Series) -> pl.Series:
    """Whether lizard (hence PyDriller's DMM) can read each path; asked once per extension."""
    ext = paths.cast(pl.String).str.extract(r"(\.[^./]+)$", 1)
    distinct = [e for e in ext.unique().to_list() if e is not None]
    table = {e: _lizard_reads_extension(e) for e in distinct}
    return ext.replace_strict(table, default=False, return_dtype=pl.Boolean).fill_null(False).alias("lizard")


def dmm_wanted(eligible: pl.Expr) -> pl.Expr:
    """Commits with a DMM value wanted of a person with ``eligible`` such commits: the square
    root, rounded, at least DMM_MIN_SAMPLE and at most DMM_MAX_SAMPLE."""
    root = eligible.cast(pl.Float64).sqrt().round().cast(pl.Int64)
    return pl.min_horizontal(pl.lit(DMM_MAX_SAMPLE), pl.max_horizontal(pl.lit(DMM_MIN_SAMPLE), root))


def dmm_sample(
    commits: pl.DataFrame,
    file_changes: pl.DataFrame,
    per_person: int | None = None,
    min_commits: int = DMM_MIN_COMMITS,
    *,
    tried_factor: int = 1,
    per_person_month: int | None = None,
) -> pl.DataFrame:
    """``[repo, sha, person_id, month, wanted]``: the commits whose DMM is measured (see module
    doc), ordered by person and sha: each person's ``wanted`` (``per_person``, else
    :func:`dmm_wanted` of their eligible commits) times ``tried_factor`` smallest shas.
    (``per_person_month`` is an old alias of ``per_person``.)"""
    if per_person_month is not None:
        per_person = per_person_month
    files = file_changes.filter(~pl.col("excluded").fill_null(False)).select("repo", "sha", "path")
    readable = (
        files.with_columns(lizard_supported(files["path"]))
        .filter(pl.col("lizard"))
        .select("repo", "sha")
        .unique()
    )
    size = pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0)
    # A revert restores earlier code: its DMM measures the change it undoes, not its author's.
    not_revert = pl.col("category").fill_null("") != "revert" if "category" in commits.columns else pl.lit(True)
    return (
        commits.lazy()
        .filter(
            pl.col("is_counted").fill_null(False)
            & not_revert
            & pl.col("person_id").is_not_null()
            & (size > 0)
            & (size <= MAX_DMM_LINES)
            & (pl.col("files_changed").fill_null(0) <= MAX_DMM_FILES)
        )
        .select("repo", "sha", "person_id", "month")
        .unique(["repo", "sha"])
        .join(readable.lazy(), on=["repo", "sha"], how="semi")
        .filter(pl.len().over("person_id") >= min_commits)
        .with_columns((pl.lit(per_person, pl.Int64) if per_person is not None
                       else dmm_wanted(pl.len().over("person_id"))).alias("wanted"))
        .sort("person_id", "sha", "repo")
        .filter(pl.int_range(pl.len()).over("person_id") < pl.col("wanted") * tried_factor)
        .collect()
    )


def dmm_for_repository(
    repo_name: str,
    git_dir: str | os.PathLike,
    commits_of_repo: pl.DataFrame,
    file_changes_of_repo: pl.DataFrame,
    cache_dir: str | os.PathLike,
    *,
    per_person: int | None = None,
    max_tried: int | None = None,
    workers: int | None = None,
) -> pl.DataFrame:
    """DMM of the repository's sample (:data:`DMM_CACHE_SCHEMA` rows plus ``repo``): per person,
    the shortest sha-ordered prefix of their eligible commits (at most ``max_tried``, default
    DMM_TRIED_FACTOR times the wanted) in which ``per_person`` commits (default: :func:`dmm_wanted`
    of their eligible commits) have a value (see module doc).

    Cached per sha under ``cache_dir`` (one file per repository); only uncached sample commits
    cost anything, measured by ``workers`` processes (default: one per core).
    """
    from exceeds_pipeline.quality.git_facts import cache_files

    commits = commits_of_repo.filter(pl.col("repo") == repo_name)
    files = file_changes_of_repo.filter(pl.col("repo") == repo_name)
    if per_person is None:
        candidates = dmm_sample(commits, files, tried_factor=DMM_TRIED_FACTOR)
        if max_tried is not None:
            candidates = candidates.filter(pl.int_range(pl.len()).over("person_id") < max_tried)
    else:
        tried = max_tried if max_tried is not None else DMM_TRIED_FACTOR * per_person
        candidates = dmm_sample(commits, files, per_person=max(tried, per_person)).with_columns(
            pl.lit(per_person, pl.Int64).alias("wanted"))
    grouped = candidates.group_by("person_id", maintain_order=True).agg("sha", pl.col("wanted").first())
    people = list(zip(grouped["sha"].to_list(), grouped["wanted"].to_list()))
    dmm_cache, _ = cache_files(cache_dir, repo_name)
    cached = read_cache(dmm_cache, DMM_CACHE_SCHEMA)
    known = dict(zip(cached["sha"].to_list(), cached["status"].to_list()))
    # One job per person whose prefix still holds an unmeasured commit; a worker walks the
    # person's candidates in sha order, measuring until `per_person` have a value.
    jobs = [(shas, {s: known[s] for s in shas if s in known}, wanted) for shas, wanted in people
            if any(s not in known for s in _prefix(shas, known, wanted))]
    if jobs:
        rows = _run_jobs(os.fspath(git_dir), jobs, workers or os.cpu_count() or 1)
        if rows:
            new = pl.DataFrame(rows, schema=DMM_CACHE_SCHEMA, orient="row")
            cached = pl.concat([cached, new]).unique("sha", keep="last", maintain_order=True)
            write_cache(dmm_cache, cached)
            known = dict(zip(cached["sha"].to_list(), cached["status"].to_list()))
        log.info("DMM: measured %d commits of %d people in %s", len(rows), len(jobs), repo_name)
    taken = [s for shas, wanted in people for s in _prefix(shas, known, wanted) if s in known]
    return (
        pl.DataFrame({"sha": taken}, schema={"sha": pl.String})
        .join(cached, on="sha", how="inner", maintain_order="left")
        .select(pl.lit(repo_name).alias("repo"), *DMM_CACHE_SCHEMA)
    )


def _prefix(shas: list[str], status: dict[str, str], wanted: int) -> list[str]:
    """The shortest prefix of ``shas`` holding ``wanted`` commits with a value (status ok); an
    unmeasured commit counts as none, so the prefix reaches every commit still to measure."""
    out, valued = [], 0
    for sha in shas:
        if valued >= wanted:
            break
        out.append(sha)
        valued += status.get(sha) == "ok"
    return out


def _measure_people(repo_path: str, jobs: list[tuple[list[str], dict[str, str], int]]) -> list[tuple]:
    """Worker: for each (shas, known statuses, wanted), measure the unknown commits of the
    shortest prefix of ``shas`` holding ``wanted`` values (:func:`_prefix`, the one rule), one
    at a time: each result may end the prefix."""
    measurer = _Measurer(repo_path)
    rows: list[tuple] = []
    try:
        for shas, known, wanted in jobs:
            status = dict(known)
            while (sha := next((s for s in _prefix(shas, status, wanted) if s not in status), None)) is not None:
                row = measurer.measure(sha)
                if row is None:  # the repository is unreadable: cache no errors, stop
                    return [r for r in rows if r[4] != "error"]
                rows.append(row)
                status[sha] = row[4]
    finally:
        measurer.close()
    return rows


def _measure_all(repo_path: str, shas: list[str]) -> list[tuple]:
    """Worker: measure every one of ``shas`` on one repository handle; when the repository
    turns out unreadable, stop and keep no error rows (a later run retries)."""
    return _measure_people(repo_path, [(shas, {}, len(shas) + 1)])


# A spawned process spends ~1 s importing GitPython, PyDriller and lizard before it measures
# anything (~30 ms a commit): fewer commits than this per process are measured here instead.
MIN_COMMITS_PER_PROCESS = 50


def _processes(todo: int, workers: int) -> int:
    """How many processes to measure ``todo`` commits in (1: this one)."""
    return max(1, min(workers, todo // MIN_COMMITS_PER_PROCESS))


def _run_jobs(repo_path: str, jobs: list, workers: int) -> list[tuple]:
    """Run :func:`_measure_people` over ``jobs``: in this process, or in up to ``workers``
    spawned processes taking small batches of people, the largest first, so they finish together."""
    todo = sum(sum(1 for s in shas if s not in known) for shas, known, _ in jobs)
    workers = _processes(todo, workers)
    if workers <= 1:
        return _measure_people(repo_path, jobs)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    batches = contiguous_chunks(sorted(jobs, key=lambda job: -len(job[0])), workers * 8)
    # spawn: never fork a process that holds threads (Dagster, pytest, GitPython pipes)
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        return [row for part in pool.map(_measure_people, [repo_path] * len(batches), batches) for row in part]


_HUNK_HEADER = re.compile(HUNK_HEADER, re.M)


def _hunks(diff: str) -> list[tuple[int, int, int, int]]:
    """``(old_start, old_count, new_start, new_count)`` of a unified diff's ``@@`` headers."""
    return [(int(a), int(b) if b else 1, int(c), int(d) if d else 1)
            for a, b, c, d in _HUNK_HEADER.findall(diff)]


def _measure_commit(commit) -> tuple[float | None, float | None, float | None]:
    """(unit size, unit complexity, unit interfacing) of a PyDriller commit: PyDriller's
    ``_delta_risk_profile`` of each lizard-readable file, with each file read once per side and
    only its changed regions where lizard's C reader allows (:mod:`.lizard_delta`)."""
    from pydriller.domain.commit import Commit

    mods = [m for m in commit.modified_files if m.language_supported]
    if not mods:
        return None, None, None
    deltas = [delta_risk_profiles(m.filename, m.source_code_before, m.source_code, _hunks(m.diff))
              for m in mods]
    return tuple(Commit._good_change_proportion(sum(d[prop][0] for d in deltas),
                                                sum(d[prop][1] for d in deltas))
                 for prop in range(3))


def _open_git(repo_path: str | os.PathLike):
    """A PyDriller ``Git`` that does not write to the repository's config.

    ``pydriller.Git`` sets ``blame.markUnblamableLines`` in the repository's own config when it
    opens it; the pipeline reads users' clones and must leave them as they are. Every git that
    GitPython starts gets the pipeline's environment (transport allow-list, no prompts) and an
    explicit ``GIT_DIR``: GitPython runs git in what it takes for the work tree, which for a bare
    clone without ``core.bare`` (a mirror copied by hand) is the parent folder, not a repository.
    """
    from git import Repo
    from pydriller import Git

    from exceeds_pipeline.ingest.gitcmd import FIXED_ENV

    class _Repo(Repo):
        # GitPython reads HEAD's .gitmodules again for every file of every diff (to find a
        # submodule's own repository): 13% of DMM's time on git/git. HEAD does not move while
        # commits are measured, so the list is read once per handle.
        @cached_property
        def submodules(self):
            return Repo.submodules.fget(self)

    class _ReadOnlyGit(Git):
        def _open_repository(self):
            self._repo = _Repo(str(self.path))
            self._repo.git.update_environment(GIT_DIR=os.path.abspath(self._repo.git_dir), **FIXED_ENV)
            if self._conf.get("main_branch") is None:
                self._discover_main_branch(self._repo)

    return _ReadOnlyGit(os.fspath(repo_path))


MAX_FAILURES_IN_A_ROW = 5


class _Measurer:
    """Measures commits one at a time on one repository handle. A failing commit is recorded
    with status ``error`` (one bad commit must not stop the others); after
    :data:`MAX_FAILURES_IN_A_ROW` failures in a row the repository itself is unreadable and
    :meth:`measure` returns None from then on."""

    def __init__(self, repo_path: str | os.PathLike):
        self.repo_path = repo_path
        self.git = _open_git(repo_path)
        self.failures_in_a_row = 0
        self.gave_up = False

    def measure(self, sha: str) -> tuple | None:
        if self.gave_up:
            return None
        try:
            size, complexity, interfacing = _measure_commit(self.git.get_commit(sha))
        except Exception as exc:
            log.warning("DMM of %s in %s failed: %s", sha, self.repo_path, exc)
            self.failures_in_a_row += 1
            # A failure can leave GitPython's cat-file process dead: reopen.
            self.git.clear()
            if self.failures_in_a_row >= MAX_FAILURES_IN_A_ROW:
                log.warning("DMM: %d failures in a row in %s; stopping for this run",
                            self.failures_in_a_row, self.repo_path)
                self.gave_up = True
                return None
            self.git = _open_git(self.repo_path)
            return (sha, None, None, None, "error")
        self.failures_in_a_row = 0
        status = "no_value" if size is None and complexity is None and interfacing is None else "ok"
        return (sha, size, complexity, interfacing, status)

    def close(self) -> None:
        self.git.clear()


def compute_dmm(
    repo_path: str | os.PathLike,
    shas: Iterable[str],
    cache_path: str | os.PathLike,
    *,
    max_new: int | None = None,
    workers: int | None = 1,
) -> pl.DataFrame:
    """DMM values of ``shas`` (``DMM_CACHE_SCHEMA`` columns), measuring only shas not cached.

    The repository is opened once per process. ``max_new`` (tests only; the pipeline never caps)
    bounds how many uncached shas are measured; ``workers`` > 1 (None: one per core) measures
    them in that many processes. The cache file is rewritten only when something new was
    measured.
    """
    wanted = list(dict.fromkeys(s for s in shas if s))
    cached = read_cache(cache_path, DMM_CACHE_SCHEMA)
    known = set(cached["sha"].to_list())
    todo = [s for s in wanted if s not in known]
    if max_new is not None:
        todo = todo[: max(0, max_new)]
    if todo:
        workers = _processes(len(todo), workers or os.cpu_count() or 1)
        if workers > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            chunks = contiguous_chunks(todo, workers)
            # spawn: never fork a process that holds threads (Dagster, pytest, GitPython pipes)
            with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
                rows = [r for part in pool.map(_measure_all, [os.fspath(repo_path)] * len(chunks), chunks)
                        for r in part]
        else:
            rows = _measure_all(os.fspath(repo_path), todo)
        new = pl.DataFrame(rows, schema=DMM_CACHE_SCHEMA, orient="row")
        cached = pl.concat([cached, new]).unique("sha", keep="last", maintain_order=True)
        write_cache(cache_path, cached)
        log.info("DMM: measured %d commits in %s, %d from cache", len(todo), repo_path, len(wanted) - len(todo))
    return (
        pl.DataFrame({"sha": wanted}, schema={"sha": pl.String})
        .join(cached, on="sha", how="inner", maintain_order="left")
    )
