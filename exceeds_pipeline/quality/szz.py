"""SZZ: which earlier commits a bug fix repairs, by blaming the lines it deletes.

For a fix commit F with one parent P, every line F deletes or changes is blamed in P
(``git blame -w``, whitespace-only changes ignored); the commits that last touched those lines
are the ones the fix traces back to. Blank lines and lines that start like a comment (``#``,
``//``, ``/*``, ``*``, ``'''``, ``\"\"\"``) are ignored. These are the rules of PyDriller's
``Git.get_commits_last_modified_lines`` (which the tests compare against), with one addition: a
line that only sets a version string (``_VERSION_LINE``) is ignored too; this implementation
runs git directly so that each changed file costs one ``git blame`` restricted to the deleted
line ranges (``-L``) instead of a blame of the whole file plus an object lookup per line, and so
that the user's repository config is never written (PyDriller sets
``blame.markUnblamableLines`` in it). In a shallow clone, lines blamed on the shallow boundary
are dropped: their real origin is not in the clone.

:func:`szz_for_repository` leaves out the files profile LOC leaves out (lock files, generated
and vendored code, data files: ``file_changes.excluded``): a deleted line of ``pnpm-lock.yaml``
is not where a defect was written, and blaming such files was most of SZZ's cost where they
occur (vitest: 56% of the blame time on pnpm-lock.yaml). So are tests (a fix updates the
expectation of the behaviour it changes: the test's author wrote no defect), in files of their
own or in a Rust file's `#[cfg(test)] mod tests` (:func:`_deleted_lines`), changelogs and
files that only hold the version (a fix that sets the version string does not make the last
version bump a bug).

Moves and reformatting are not changes (SPEC §5 correctness): the fix's diff is read with
``-w`` (a line whose only change is whitespace is neither deleted nor added), a deleted line
whose text (whitespace ignored) the same fix adds again elsewhere is a move and is not blamed,
and the blame itself runs with ``-w -M`` so that lines a commit only re-indented or moved within
the file are passed through to the commit that wrote them.

Sample (documented rule, a function of the history alone; no per-run cap):

* :func:`szz_candidates` picks the fix commits: non-merge commits with one parent, category
  ``bug`` whose message states a repair (a word or phrase of ``szz.yaml``: fix, bug, crash,
  wrong, don't, prevent, ...; in the subject or the body's prose, not in a squash merge's
  bullet list of the pull request's own commits such as ``* Fix lint``; the classifier's ``bug`` also covers terse or feature-like
  subjects whose deletions are rewrites, not repairs), at least one deleted line, at most :data:`MAX_SZZ_DELETED_LINES` deleted lines and
  :data:`MAX_SZZ_FILES` files (larger "fixes" are mostly moves and reformatting).
* :func:`szz_for_repository` traces the :data:`SZZ_SAMPLE` candidates with the smallest shas
  (all of them in most repositories), caching each result per fix sha (Parquet, one file per
  repository; a damaged file is read as empty and rebuilt). A nightly run traces only new
  fixes that enter the sample.

Sweeps are not charged (:func:`sweep_commits`): a commit that changed more than
:data:`MAX_SZZ_FILES` files as chore, build, docs or test work (a lint or format pass, a
dependency update with its lint fixes), or as a light rewrite in place (a rename of the project,
an import clean-up: added and deleted lines within :data:`SWEEP_BALANCE` of each other and at
most :data:`SWEEP_LINES_PER_FILE` changed lines per file), or that copied in existing code (a
bulk import), is where lines were last touched, not where a defect was written: the fixes that
trace to it are not counted against its author. A wide rewrite of real logic (`feat!: rewrite
pools`, 47 changed lines per file) is no sweep. On the 5-repository run these were the most-blamed commits
(`chore: always require curly braces`, 386 files: blamed by 127 fixes; `Rename Starlite`,
771 files: 45).

Horizon: a fix is traced to the commits of the :data:`SZZ_HORIZON_DAYS` days before it (by
committer time; ``git blame --since``); a line older than that is not blamed on anyone. A
defect found years later says little about the change that wrote the line, and the walk back
through decades of a busy file's history is what makes blame costly: on git/git the horizon
cuts the cost of a fix about threefold.

Speed: what a blame costs is its walk back through the history, one tree diff per commit to
see whether it touched the file. :func:`szz_for_repository` keeps a commit-graph with
changed-path Bloom filters of the fixes' history beside its cache (written once, then only for
new commits; never in the repository, :func:`~exceeds_pipeline.ingest.gitcmd.commit_graph_env`),
with which git skips most of those diffs: the same answers, on git/git 2.3x faster.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Container, Iterable, Mapping
from pathlib import Path

import polars as pl

from exceeds_pipeline.common.parquet_cache import read_cache, write_cache
from exceeds_pipeline.common.yamlfile import load_yaml
from exceeds_pipeline.enrich.inline_tests import INLINE_TEST_SUFFIXES, hunk_opens_test_module, in_test_module
from exceeds_pipeline.ingest.gitcmd import HUNK_HEADER, commit_graph_env, resolve_git_dir, run_git

log = logging.getLogger(__name__)

__all__ = [
    "MAX_SZZ_DELETED_LINES",
    "MAX_SZZ_FILES",
    "FIX_STATEMENT",
    "SZZ_CACHE_SCHEMA",
    "SZZ_HORIZON_DAYS",
    "SZZ_MAX_NEW_PER_RUN",
    "SZZ_SCHEMA",
    "blame_deleted_lines",
    "compute_szz",
    "szz_candidates",
    "sweep_commits",
    "szz_for_repository",
]

MAX_SZZ_DELETED_LINES = 2000
MAX_SZZ_FILES = 100
SZZ_MAX_NEW_PER_RUN = None  # no per-run cap: values never depend on how many runs happened
SZZ_SAMPLE = 3000  # fix commits traced per repository: the smallest shas
SZZ_DIFF_BATCH = 64  # fixes whose diffs one git process reads (then blamed one by one)
SZZ_HORIZON_DAYS = 365  # a fix is traced to commits at most this much older (committer time)

# A light rewrite in place: added and deleted lines within this ratio of each other, and few
# changed lines per file.
SWEEP_BALANCE = 0.75
SWEEP_LINES_PER_FILE = 20
_RULES = load_yaml(Path(__file__).with_name("szz.yaml"))
# A message that states a repair (see szz.yaml); whole words, any case.
FIX_STATEMENT = r"(?i)\b(?:" + "|".join(f"(?:{w})" for w in _RULES["fix_statement"]) + r")\b"

BULLET_LINE = r"(?m)^[ \t]*[*+\-][ \t][^\n]*$"

SZZ_CACHE_SCHEMA: dict[str, pl.DataType] = {
    "fix_sha": pl.String,
    "status": pl.String,  # ok | error
    "blamed_shas": pl.List(pl.String),
    "horizon_days": pl.Int32,  # the horizon it was traced with (null: none); others are retraced
    "skipped": pl.String,  # skipped_key: the trace rules and the files left out; others are retraced
}
SZZ_SCHEMA: dict[str, pl.DataType] = {"fix_sha": pl.String, "blamed_sha": pl.String}

_HUNK = re.compile(HUNK_HEADER.encode())
_BLAME_HEADER = re.compile(rb"^([0-9a-f]{40}(?:[0-9a-f]{24})?) \d+ \d+")
_COMMITTER_TIME = re.compile(rb"^committer-time (\d+)$")


def sweep_commits(commits: pl.DataFrame, file_changes: pl.DataFrame | None = None) -> pl.Series:
    """Shas of the sweeps (see module doc): more than MAX_SZZ_FILES files changed as chore,
    build, docs or test work or as a light rewrite in place; or a bulk import."""
    added, deleted = pl.col("lines_added").fill_null(0), pl.col("lines_deleted").fill_null(0)
    light_rewrite = (
        (pl.min_horizontal(added, deleted) >= SWEEP_BALANCE * pl.max_horizontal(added, deleted))
        & (added + deleted <= SWEEP_LINES_PER_FILE * pl.col("files_changed").fill_null(0))
    )
    mechanical = (
        pl.col("category").is_in(["chore", "build", "docs", "test"]).fill_null(False) | light_rewrite
        if "category" in commits.columns else light_rewrite
    )
    wide = commits.filter((pl.col("files_changed").fill_null(0) > MAX_SZZ_FILES) & mechanical)["sha"]
    if file_changes is not None and "exclusion_reason" in file_changes.columns:
        imports = file_changes.filter(pl.col("exclusion_reason") == "bulk_import")["sha"]
        wide = pl.concat([wide, imports])
    return wide.unique()


def szz_candidates(
    commits: pl.DataFrame,
    *,
    max_deleted_lines: int = MAX_SZZ_DELETED_LINES,
    max_files: int = MAX_SZZ_FILES,
) -> pl.DataFrame:
    """``[repo, sha]`` of the fix commits SZZ should trace, newest first within each repo."""
    one_parent = (
        pl.col("parents").list.len() == 1 if "parents" in commits.columns else pl.lit(True)
    )
    # A copy of a fix that counts in another repository (history.counted_once) is traced there.
    copy = (
        pl.col("counted_sha").is_not_null()
        & ((pl.col("counted_in") != pl.col("repo")) | (pl.col("counted_sha") != pl.col("sha")))
        if {"counted_in", "counted_sha"} <= set(commits.columns) else pl.lit(False)
    )
    # The subject and the body's prose: a squash merge lists the pull request's own commits as
    # bullets ("* Fix tests", "* Fix lint"), which say how the change was made, not what it repairs.
    text = [
        pl.col("message").str.replace_all(BULLET_LINE, "") if "message" in commits.columns else None,
        pl.col("subject") if "subject" in commits.columns else None,
    ]
    text = [t for t in text if t is not None]
    states_repair = pl.coalesce(*text).fill_null("").str.contains(FIX_STATEMENT) if text else pl.lit(True)  # no text: no judgement
    return (
        commits.filter(
            ~pl.col("is_merge").fill_null(False)
            & ~copy
            & (pl.col("category") == "bug")
            & states_repair
            & one_parent
            & (pl.col("lines_deleted").fill_null(0) > 0)
            & (pl.col("lines_deleted").fill_null(0) <= max_deleted_lines)
            & (pl.col("files_changed").fill_null(0) <= max_files)
        )
        .sort(["repo", "committed_at", "sha"], descending=[False, True, False])
        .select("repo", "sha")
    )


# A line that only sets a version string (`const VERSION = '6.2.1';`, `__version__ = "1.2"`,
# `"version": "2.0.0",`): the release that wrote it broke nothing when a later commit moves it
# on (guzzle's `Fix VERSION for 6.3.0 release` charged the 6.2.1 release as broken).
_VERSION_LINE = re.compile(
    rb"(?i)^(?:(?:public|private|protected|static|final|export|pub|const|var|let|val)\s+)*"
    rb"[\"']?[\w.$]*version\w*[\"']?\s*(?::\s*&?[\w.<>]+\s*)?(?:=>?|:=?)\s*[\"']v?\d+(?:\.\d+)+[\w.+-]*[\"']"
    rb"(?:\.freeze)?\s*[,;]?$")
# The trace rules a cached trace was made with: a trace of other rules is traced again.
BLAME_RULES = "3"


def _useless(line: bytes) -> bool:
    s = line.strip()
    return (not s or s.startswith((b"//", b"#", b"/*", b"'''", b'"""', b"*"))
            or bool(_VERSION_LINE.match(s)))


def _unquote(path: bytes) -> bytes:
    """Undo git's C-style quoting of a path in diff headers."""
    if not (path.startswith(b'"') and path.endswith(b'"')):
        return path
    body, out, i = path[1:-1], bytearray(), 0
    simple = {ord("n"): 10, ord("t"): 9, ord('"'): 34, ord("\\"): 92, ord("a"): 7, ord("b"): 8,
              ord("f"): 12, ord("r"): 13, ord("v"): 11}
    while i < len(body):
        c = body[i]
        if c == 92 and i + 1 < len(body):
            n = body[i + 1]
            if 48 <= n <= 55 and i + 4 <= len(body):
                out.append(int(body[i + 1 : i + 4], 8))
                i += 4
                continue
            out.append(simple.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def _deleted_lines(diff: bytes) -> dict[bytes, list[int]]:
    """Old path -> old line numbers of the meaningful lines a ``diff -U0`` deletes.

    A deleted line whose text (blanks removed) the diff also adds, in any file, is a move and
    is left out; so is a line of a test module kept inside the source (Rust's `#[cfg(test)] mod
    tests`, :mod:`exceeds_pipeline.enrich.inline_tests`), as a test file's lines are: axum's
    `Use IntoFuture for test RequestBuilder` had been charged by a later fix of an assertion.
    """
    out: dict[bytes, list[tuple[int, bytes]]] = {}
    added: set[bytes] = set()
    old_path: bytes | None = None
    line_no = 0
    old_left = new_left = 0  # lines still to come in the current hunk
    inline_tests = False  # the old file keeps tests inside the source (a Rust file)
    in_tests = False  # the deleted line before was in such a test module
    for line in diff.split(b"\n"):
        if old_left > 0 or new_left > 0:  # inside a hunk: '--- x' here is a deleted line
            if line.startswith(b"-"):
                test = False
                if inline_tests and line[1:].strip():
                    test, in_tests = in_test_module(in_tests, line[1:])
                if old_path is not None and not test and not _useless(line[1:]):
                    out.setdefault(old_path, []).append((line_no, b"".join(line[1:].split())))
                line_no += 1
                old_left -= 1
            elif line.startswith(b"+"):
                added.add(b"".join(line[1:].split()))
                new_left -= 1
            elif line.startswith(b"\\"):  # "\ No newline at end of file"
                pass
            continue
        if line.startswith(b"diff --git "):
            old_path = None
        elif line.startswith(b"--- "):
            name = _unquote(line[4:].rstrip(b"\t"))
            old_path = name[2:] if name.startswith(b"a/") else None  # /dev/null: a new file
            inline_tests = old_path is not None and old_path.lower().endswith(INLINE_TEST_SUFFIXES)
        elif line.startswith(b"@@"):
            m = _HUNK.match(line)
            if m:
                in_tests = inline_tests and hunk_opens_test_module(line[line.find(b"@@", 2) + 2:])
                line_no = int(m.group(1))
                old_left = int(m.group(2)) if m.group(2) is not None else 1
                new_left = int(m.group(4)) if m.group(4) is not None else 1
    result = {path: [n for n, text in rows if text not in added] for path, rows in out.items()}
    return {path: numbers for path, numbers in result.items() if numbers}


def _git(git_dir, args: list[str], env: Mapping[str, str] | None = None, input: bytes | None = None):
    """git on the repository (the pipeline's one runner), exit status left to the caller."""
    return run_git(git_dir, args, str(git_dir), config={"core.quotePath": "false"}, check=False, env=env, input=input)


def _ranges(numbers: list[int]) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for n in sorted(set(numbers)):
        if ranges and n == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], n)
        else:
            ranges.append((n, n))
    return ranges


def skipped_key(paths: Iterable[str]) -> str:
    """What the cache records of a fix's trace: the trace rules (BLAME_RULES) and the files it
    left out."""
    paths = sorted(set(paths))
    if not paths:
        return f"rules {BLAME_RULES}"
    return f"rules {BLAME_RULES}:" + hashlib.sha1("\0".join(paths).encode("utf-8", "surrogateescape")).hexdigest()[:16]


# How a fix's diff is read: whitespace-only changes are no change (-w), renames followed.
_DIFF_ARGS = ["-U0", "-w", "--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/", "-M"]


_COMMIT_MARK = re.compile(rb"^\0([0-9a-f]{40,64})\n", re.M)


def fix_diffs(git_dir, shas: list[str], env: Mapping[str, str] | None = None) -> dict[str, bytes] | None:
    """sha -> its diff against its (one) parent, for every one of ``shas``: the same bytes as
    ``git diff <sha>^ <sha>`` with the same options, from one ``git log --no-walk`` instead of
    a git process per fix (a fifth of SZZ's cost on git/git was starting those). None when git
    cannot read one of them: the caller then asks per fix, to learn which one fails."""
    if not shas:
        return {}
    # Each commit's diff follows a line holding NUL and its sha: no diff line starts with NUL.
    proc = _git(git_dir, ["log", "--no-walk=unsorted", "--stdin", "--format=%x00%H", "-p", *_DIFF_ARGS], env,
                input="".join(f"{s}\n" for s in shas).encode("ascii"))
    if proc.returncode != 0:
        return None
    parts = _COMMIT_MARK.split(proc.stdout)
    out = {sha.decode("ascii"): body.removeprefix(b"\n") for sha, body in zip(parts[1::2], parts[2::2])}
    return out if set(out) == set(shas) else None


def blame_deleted_lines(repo_path: str | os.PathLike, fix_sha: str, *, shallow: bool = False,
                        since: int | None = None, env: Mapping[str, str] | None = None,
                        skip: Container[str] = (), diff: bytes | None = None) -> list[str]:
    """Sorted shas of the commits that last touched the lines ``fix_sha`` deletes (see module).

    ``since`` (a Unix time): look no further back than commits committed at or after it; a
    line older than that is blamed on no one. ``env``: git's environment (default: the plain one;
    :func:`compute_szz` passes one with a commit-graph, which makes the same blame faster).
    ``skip``: paths (in the parent) whose deleted lines are not blamed. ``diff``: the fix's
    diff against its parent as :func:`fix_diffs` gives it (None: read here).
    """
    parent = f"{fix_sha}^"
    git_dir = resolve_git_dir(repo_path)
    if diff is None:
        proc = _git(git_dir, ["diff", *_DIFF_ARGS, parent, fix_sha], env)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.decode("utf-8", "replace").strip())
        diff = proc.stdout
    blamed: set[str] = set()
    for path, numbers in _deleted_lines(diff).items():
        if os.fsdecode(path) in skip:
            continue
        args = ["blame", "-w", "-M", "--porcelain"]
        if since is not None:
            args.append(f"--since={since}")
        for a, b in _ranges(numbers):
            args += ["-L", f"{a},{b}"]
        proc = _git(git_dir, [*args, parent, "--", os.fsdecode(path)], env)
        if proc.returncode != 0:  # e.g. a submodule or a path git cannot blame: skip the file
            log.debug("blame of %r at %s failed: %s", path, parent, proc.stderr[:200])
            continue
        current = None
        boundary: set[str] = set()
        found: set[str] = set()
        times: dict[str, int] = {}
        for line in proc.stdout.split(b"\n"):
            m = _BLAME_HEADER.match(line)
            if m:
                current = m.group(1).decode()
                found.add(current)
            elif line == b"boundary" and current is not None:
                boundary.add(current)
            elif current is not None and (t := _COMMITTER_TIME.match(line)):
                times[current] = int(t.group(1))
        # The boundary of a shallow clone, or the commit where the horizon stopped the walk, is
        # not where the lines come from; a root commit inside the horizon is.
        if shallow:
            found -= boundary
        elif since is not None:
            found -= {c for c in boundary if times.get(c, since) < since}
        blamed |= found
    return sorted(blamed)


def compute_szz(
    repo_path: str | os.PathLike,
    fix_shas: Iterable[str],
    cache_path: str | os.PathLike,
    *,
    max_new: int | None = SZZ_MAX_NEW_PER_RUN,
    fix_times: Mapping[str, int] | None = None,
    horizon_days: int | None = None,
    graph_dir: str | os.PathLike | None = None,
    skip_paths: Mapping[str, Iterable[str]] | None = None,
) -> pl.DataFrame:
    """``[fix_sha, blamed_sha]`` for the fixes in ``fix_shas`` that are (now) in the cache.

    Blames at most ``max_new`` uncached fixes, in the order given. A fix that cannot be traced
    (missing objects, ...) is cached with status ``error`` and no blamed commits. With
    ``horizon_days`` and ``fix_times`` (fix sha -> committer Unix time), each fix is traced only
    to commits of the ``horizon_days`` before it; cached entries of another horizon are retraced.
    ``graph_dir``: a folder of the pipeline's where a commit-graph of the fixes' history is kept
    (:func:`~exceeds_pipeline.ingest.gitcmd.commit_graph_env`): the same blames, faster.
    ``skip_paths``: fix sha -> paths whose deleted lines are not blamed; a cached trace that
    left out other files is retraced.
    """
    wanted = list(dict.fromkeys(s for s in fix_shas if s))
    if horizon_days is not None and fix_times is None:
        raise ValueError("horizon_days needs fix_times")
    skip = {sha: frozenset(paths) for sha, paths in (skip_paths or {}).items()}
    keys = pl.DataFrame({"fix_sha": wanted, "_skipped": [skipped_key(skip.get(s, ())) for s in wanted]},
                        schema={"fix_sha": pl.String, "_skipped": pl.String})
    cached = read_cache(cache_path, SZZ_CACHE_SCHEMA, added=("skipped",))
    valid = cached.join(keys, on="fix_sha", how="left").filter(
        pl.col("horizon_days").eq_missing(pl.lit(horizon_days, dtype=pl.Int32))
        & pl.col("skipped").eq_missing(pl.col("_skipped"))).drop("_skipped")
    known = set(valid["fix_sha"].to_list())
    todo = [s for s in wanted if s not in known]
    if max_new is not None:
        todo = todo[: max(0, max_new)]
    if todo:
        probe = _git(resolve_git_dir(repo_path), ["rev-parse", "--is-shallow-repository"])
        if probe.returncode != 0:
            raise RuntimeError(f"{repo_path}: not a git repository: {probe.stderr.decode('utf-8', 'replace').strip()}")
        shallow = probe.stdout.strip() == b"true"
        git_dir = resolve_git_dir(repo_path)
        env = (commit_graph_env(git_dir, Path(graph_dir), todo, str(repo_path))
               if graph_dir is not None and not shallow else None)
        def trace(sha: str, diff: bytes | None) -> tuple:
            when = fix_times.get(sha) if horizon_days is not None else None
            since = when - horizon_days * 86400 if when is not None else None  # no date: no horizon
            try:
                return (sha, "ok", blame_deleted_lines(repo_path, sha, shallow=shallow, since=since, env=env,
                                                       skip=skip.get(sha, ()), diff=diff),
                        horizon_days, skipped_key(skip.get(sha, ())))
            except Exception as exc:
                log.warning("SZZ of %s in %s failed: %s", sha, repo_path, exc)
                return (sha, "error", [], horizon_days, skipped_key(skip.get(sha, ())))

        def trace_batch(shas: list[str]) -> list[tuple]:
            diffs = fix_diffs(git_dir, shas, env) or {}
            return [trace(sha, diffs.get(sha)) for sha in shas]

        # The work happens in git processes: threads keep every core busy.
        workers = max(1, min(os.cpu_count() or 1, len(todo)))
        size = min(SZZ_DIFF_BATCH, -(-len(todo) // workers))
        batches = [todo[i:i + size] for i in range(0, len(todo), size)]
        if len(batches) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=workers) as pool:
                rows = [row for part in pool.map(trace_batch, batches) for row in part]
        else:
            rows = trace_batch(todo)
        new = pl.DataFrame(rows, schema=SZZ_CACHE_SCHEMA, orient="row")
        cached = pl.concat([cached, new]).unique("fix_sha", keep="last", maintain_order=True)
        write_cache(cache_path, cached)
        valid = pl.concat([valid, new])
        log.info("SZZ: traced %d fixes in %s, %d from cache", len(todo), repo_path, len(wanted) - len(todo))
    return (
        pl.DataFrame({"fix_sha": wanted}, schema={"fix_sha": pl.String})
        .join(valid, on="fix_sha", how="inner", maintain_order="left")
        .explode("blamed_shas", empty_as_null=False)
        .drop_nulls("blamed_shas")
        .select("fix_sha", pl.col("blamed_shas").alias("blamed_sha"))
        .cast(SZZ_SCHEMA)
    )


def szz_for_repository(
    repo_name: str,
    git_dir: str | os.PathLike,
    commits_of_repo: pl.DataFrame,
    file_changes_of_repo: pl.DataFrame | None,
    cache_dir: str | os.PathLike,
    *,
    sample: int = SZZ_SAMPLE,
    horizon_days: int | None = SZZ_HORIZON_DAYS,
) -> pl.DataFrame:
    """``[repo, fix_sha, blamed_sha]`` for the repository's fix sample (see module doc)."""
    from exceeds_pipeline.quality.git_facts import cache_files

    commits = commits_of_repo.filter(pl.col("repo") == repo_name)
    fixes = szz_candidates(commits).sort("sha").head(sample)["sha"]
    times = commits.filter(pl.col("sha").is_in(fixes.implode())).select(
        "sha", pl.col("committed_at").dt.epoch("s"))
    # Lines of a lock file, generated or vendored code or a data file are not where a defect
    # was written: files profile LOC leaves out are not blamed (and their blames, of files
    # like a 10,000-line pnpm-lock.yaml, were most of SZZ's cost where they occur).
    # Nor is a test a fix updates (the expectation of a behaviour the fix changes), nor a
    # release record (sinatra: the fix that rewrote lib/sinatra/version.rb's version string
    # charged the three version bumps before it).
    skip_paths: dict[str, set[str]] = {}
    if file_changes_of_repo is not None and "excluded" in file_changes_of_repo.columns:
        from exceeds_pipeline.classify.categories import TEST_PATH
        from exceeds_pipeline.classify.changelog import CHANGELOG_PATH
        from exceeds_pipeline.classify.work_items import VERSION_FILE

        path = pl.col("path").fill_null("")
        not_blamed = (pl.col("excluded").fill_null(False) | path.str.contains(TEST_PATH)
                      | path.str.contains(CHANGELOG_PATH) | path.str.contains(VERSION_FILE))
        left_out = file_changes_of_repo.filter(
            (pl.col("repo") == repo_name) & pl.col("sha").is_in(fixes.implode()) & not_blamed)
        names = [c for c in ("path", "old_path") if c in left_out.columns]
        for sha, *paths in left_out.select("sha", *names).iter_rows():
            skip_paths.setdefault(sha, set()).update(p for p in paths if p)
    _, szz_cache = cache_files(cache_dir, repo_name)
    out = compute_szz(git_dir, fixes, szz_cache, max_new=None, horizon_days=horizon_days,
                      fix_times=dict(times.iter_rows()), skip_paths=skip_paths,
                      graph_dir=szz_cache.with_name(szz_cache.name.removesuffix(".szz.parquet") + ".commit-graph"))
    sweeps = sweep_commits(commits, None if file_changes_of_repo is None
                           else file_changes_of_repo.filter(pl.col("repo") == repo_name))
    out = out.filter(~pl.col("blamed_sha").is_in(sweeps.implode()))
    return out.select(pl.lit(repo_name).alias("repo"), "fix_sha", "blamed_sha")
