"""Line survival: which added lines are rewritten or deleted within 21 days, line by line.

SPEC §5 performance: "share of the person's added lines that survive 21 days without being
rewritten or deleted, tracked line by line through the history (another person's edit
elsewhere in the same file does not count against them)".

Method (hercules-style line ownership, one streaming pass)
-----------------------------------------------------------
The *mainline* is the first-parent chain of the branch tip. Every line of every file on the
mainline carries an *origin*: the (commit, path) that added it. One ``git log -p --unified=0``
stream (git's default Myers diff and rename detection, :data:`DIFF_OPTIONS`) walks all commits in
topological order, oldest first:

* a mainline non-merge commit's hunks are applied to the line lists of its files: the lines a
  hunk removes die (their origins lose them), the lines it adds get the commit as origin;
* a commit off the mainline (on a topic branch) is not applied; the text of the lines it adds is
  remembered;
* a mainline merge is applied as its diff against its first parent (what it brings into the
  mainline). Each line it adds is given to the branch commit brought in by that merge that
  added the same text (same path first, the latest such commit); lines no branch commit added
  (conflict resolutions) belong to the merge, which is never a counted commit.

So a line's survival depends only on edits to *that line*: another person's change elsewhere in
the file moves it but does not touch it. On a linear history the ownership at any commit is
exactly ``git blame`` (no -w/-M/-C) at that commit: tests compare them line by line, and on
pytorch/benchmark (linear) every sampled file whose history git can read is identical to
``git blame`` at the tip. Lines merged from topic branches are matched to their branch commits by
text, which is blame's answer for most lines but not all (several branch lines with the same
text, e.g. blank lines, go to the latest of them): on 60 sampled files at the tip, 86% of
flask's lines and 90% of git/git's have the commit ``git blame`` names (the same author: 91%, 99%).

For every (commit, path) the result counts ``lines_added`` (the lines the commit's own diff
adds to the path: ``git log --numstat`` for text files) and ``lines_rewritten``: its lines that
were deleted or replaced on the mainline within :data:`REWORK_DAYS` days of the commit's
committer time (measured with committer times on the mainline), plus, for a branch commit, its
lines that never reached the mainline (rewritten on the branch) when the merge came within the
window. A (commit, path) is ``final`` once the repository's newest commit is at least 21 days
younger than the commit; younger ones are ``pending`` (their value may still change).

Files whose lines never count (documentation, translations, data: every change of their
suffix in the history is excluded by a path rule, :func:`untracked_suffixes`) are not tracked:
git is given an attributes file that marks them binary, so it makes no text diff of them. On
git/git they are 61% of all changed lines; the rows of the other files stay the same, except
that a merged line is no longer matched by text to a branch commit's line in such a file.

Incremental cache
-----------------
The ownership state at the processed tip (line origins of every file, per-origin counters) is
kept under ``cache_dir`` in Parquet files named by the tip sha, with a small JSON manifest
written last (atomically). A nightly run continues from the cached tip when the new tip's
first-parent chain contains it, reading only ``old_tip..new_tip``; anything else (first run,
force-push, a damaged or inconsistent cache, another format version) rebuilds from scratch.
The result is identical either way: a function of the history alone.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile

from pathlib import Path

import polars as pl

from exceeds_pipeline.ingest.repository import storage_slug

from exceeds_pipeline.common.chunks import contiguous_chunks
from exceeds_pipeline.enrich.exclusions import PATH_REASONS
from exceeds_pipeline.ingest.gitcmd import HUNK_HEADER, GitError, attributes_config, decode, git_text, resolve_git_dir, run_git, stream_git_chunks

log = logging.getLogger(__name__)

__all__ = ["REWORK_DAYS", "SURVIVAL_SCHEMA", "line_owners_at_tip", "survival_for_repository"]

REWORK_DAYS = 21
MAX_UNREADABLE = 200
FORMAT_VERSION = 1
SURVIVAL_SCHEMA: dict[str, pl.DataType] = {
    "repo": pl.String,
    "sha": pl.String,
    "path": pl.String,
    "lines_added": pl.Int64,
    "lines_rewritten": pl.Int64,
    "final": pl.Boolean,
}

# git's defaults whatever the user's config says (the same choices as ingest's LOG_OPTIONS).
DIFF_OPTIONS = (
    "-p",
    "--unified=0",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--find-renames",
    "--diff-algorithm=myers",
    "--diff-merges=first-parent",
    "--root",
    "--no-abbrev",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--no-show-signature",
)
_MARK = b"\x1e\x1eSURV "
_HUNK = re.compile(HUNK_HEADER.encode())


def _unquote(path: bytes) -> str:
    """A path from a diff header (C-quoted when git had to) as text, decoded as ingest decodes
    `file_changes.path` (bytes that are not UTF-8 as Latin-1), so the two join."""
    if path.startswith(b'"') and path.endswith(b'"'):
        from exceeds_pipeline.quality.szz import _unquote as unq

        path = unq(path)
    return decode(path)


class _State:
    """Line ownership on the mainline and the per-origin counters."""

    def __init__(self) -> None:
        self.files: dict[str, list[int]] = {}
        self.origin_sha: list[str] = []
        self.origin_path: list[str] = []
        self.origin_time: list[int] = []
        self.added: list[int] = []
        self.rewritten: list[int] = []
        self._index: dict[tuple[str, str], int] = {}

    def origin(self, sha: str, path: str, time: int) -> int:
        key = (sha, path)
        o = self._index.get(key)
        if o is None:
            o = len(self.origin_sha)
            self._index[key] = o
            self.origin_sha.append(sha)
            self.origin_path.append(path)
            self.origin_time.append(time)
            self.added.append(0)
            self.rewritten.append(0)
        return o

    # -- persistence ------------------------------------------------------------------------
    def origins_frame(self) -> pl.DataFrame:
        return pl.DataFrame(
            {"sha": self.origin_sha, "path": self.origin_path, "time": self.origin_time,
             "added": self.added, "rewritten": self.rewritten},
            schema={"sha": pl.String, "path": pl.String, "time": pl.Int64, "added": pl.Int64,
                    "rewritten": pl.Int64},
        )

    def files_frame(self) -> pl.DataFrame:
        return pl.DataFrame(
            {"path": list(self.files), "origins": list(self.files.values())},
            schema={"path": pl.String, "origins": pl.List(pl.Int64)},
        )

    @classmethod
    def load(cls, origins: pl.DataFrame, files: pl.DataFrame) -> _State:
        st = cls()
        st.origin_sha = origins["sha"].to_list()
        st.origin_path = origins["path"].to_list()
        st.origin_time = origins["time"].to_list()
        st.added = origins["added"].to_list()
        st.rewritten = origins["rewritten"].to_list()
        st._index = {(s, p): i for i, (s, p) in enumerate(zip(st.origin_sha, st.origin_path))}
        n = len(st.origin_sha)
        for path, lst in zip(files["path"].to_list(), files["origins"].to_list()):
            lst = list(lst)
            if any(o is None or o >= n or o < -1 for o in lst):
                raise ValueError("line origin out of range")
            st.files[path] = lst
        return st


def _tip_of(commits: pl.DataFrame) -> str | None:
    """The branch tip: the newest commit that no other commit has as a parent."""
    if commits.height == 0:
        return None
    parents = set(commits["parents"].explode(empty_as_null=True).drop_nulls().to_list()) if "parents" in commits.columns else set()
    heads = commits.filter(~pl.col("sha").is_in(list(parents)))
    frame = heads if heads.height else commits
    return frame.sort(["committed_at", "sha"], descending=[True, False])["sha"][0]


def _graph(git_dir: Path, repo: str, tip: str) -> pl.DataFrame:
    """``[sha, parents]`` of every commit reachable from ``tip``, from git itself: commits the
    pipeline could not read (missing blobs) still have their place in the graph, so the
    first-parent chain does not break at them."""
    out = git_text(resolve_git_dir(git_dir), ["rev-list", "--parents", tip], repo)
    shas, parents = [], []
    for line in out.splitlines():
        parts = line.split()
        if parts:
            shas.append(parts[0])
            parents.append(parts[1:])
    return pl.DataFrame({"sha": shas, "parents": parents}, schema={"sha": pl.String, "parents": pl.List(pl.String)})


STREAM_CHUNK = 10_000  # commits per git process at most (what one read-ahead holds in memory)
MIN_SPLIT = 2_000  # histories shorter than this are read by one process


def _stream(git_dir: Path, repo: str, shas: list[str], config: dict[str, str] | None = None):
    """Yield the raw lines of ``git log -p`` for exactly ``shas``, in the order given: one git
    process per contiguous chunk, the next chunks computed (one per core) while the walker
    applies the current one, since the walk itself must go in order. ``config``: more git
    config (:func:`_untracked_config`)."""
    git_dir = resolve_git_dir(git_dir)
    args = ["log", "--no-walk=unsorted", "--stdin", "--format=%x1e%x1eSURV %H %ct", *DIFF_OPTIONS]
    cores = os.cpu_count() or 1
    parts = 1 if len(shas) < MIN_SPLIT else max(cores, -(-len(shas) // STREAM_CHUNK))
    yield from stream_git_chunks(git_dir, args, contiguous_chunks(shas, parts), repo,
                                 config={"core.quotePath": "false", **(config or {})}, parallel=cores)


def _readable(git_dir: Path, repo: str, sha: str, config: dict[str, str] | None) -> bool:
    """Whether git can show ``sha``'s diff as :func:`_stream` asks for it."""
    args = ["log", "--no-walk=unsorted", "--format=%H", *DIFF_OPTIONS, sha]
    config = {"core.quotePath": "false", **(config or {})}
    return run_git(resolve_git_dir(git_dir), args, repo, config=config, check=False).returncode == 0


_PLAIN_SUFFIX = re.compile(r"^[A-Za-z0-9_+-]{1,20}$")


def untracked_suffixes(file_changes: pl.DataFrame | None) -> list[str]:
    """File name suffixes (``txt``, ``po``) every change of which, in this history, is excluded
    by a rule on the path: their lines are never counted in performance, so they are not
    tracked (on git/git documentation and translations are 61% of all changed lines)."""
    if file_changes is None or file_changes.height == 0 or "exclusion_reason" not in file_changes.columns:
        return []
    return sorted(
        file_changes.select(
            pl.col("path").str.extract(r"\.([^./]+)$", 1).alias("_suffix"),
            pl.col("exclusion_reason").is_in(list(PATH_REASONS)).fill_null(False).alias("_path_rule"),
        )
        .drop_nulls("_suffix")
        .group_by("_suffix").agg(pl.col("_path_rule").all())
        .filter(pl.col("_path_rule") & pl.col("_suffix").str.contains(_PLAIN_SUFFIX.pattern))
        ["_suffix"].to_list()
    )


def _untracked_config(folder: Path, suffixes: list[str]) -> dict[str, str] | None:
    """git config marking files with these suffixes binary, so that git makes no text diff of
    them and the walk keeps no lines for them (their rows are simply absent)."""
    return attributes_config(folder, "survival.gitattributes", [f"*.{s} -diff" for s in suffixes]) if suffixes else None


class _Walker:
    """Applies one ``git log -p`` stream to a :class:`_State` (see module doc)."""

    def __init__(self, st: _State, mainline: set[str], merge_group: dict[str, str], window: int):
        self.st = st
        self.mainline = mainline
        self.merge_group = merge_group
        self.window = window
        self.groups: dict[str, dict[bytes, list[int]]] = {}
        self.commits = 0
        self.last_sha: str | None = None
        self.unreadable: list[str] = []

    def run_all(self, git_dir: Path, repo: str, order: list[str], config: dict[str, str] | None = None) -> None:
        """Stream ``order``; a commit git cannot read (missing objects) is skipped, the rest
        is read by a new stream (at most :data:`MAX_UNREADABLE` skips)."""
        index = {sha: i for i, sha in enumerate(order)}
        start = 0
        while start < len(order):
            self.last_sha = None
            try:
                self.run(_stream(git_dir, repo, order[start:], config))
                return
            except GitError:
                # git reads a commit's blobs (rename detection) before it prints its header: the
                # commit it failed on is the last one begun if that one cannot be read alone,
                # else the next (svelte: a missing blob in the commit after a chunk's last).
                failed = start if self.last_sha is None else index[self.last_sha]
                if self.last_sha is not None and _readable(git_dir, repo, self.last_sha, config):
                    failed += 1
                if failed >= len(order) or len(self.unreadable) >= MAX_UNREADABLE:
                    raise
                self.unreadable.append(order[failed])
                log.warning("survival: %s: commit %s unreadable, skipped", repo, order[failed])
                start = failed + 1

    def _kill(self, origins: list[int], time: int) -> None:
        st, window = self.st, self.window
        for o in origins:
            if o >= 0 and time - st.origin_time[o] <= window:
                st.rewritten[o] += 1

    def run(self, lines) -> None:  # noqa: C901 - one state machine, kept in one place for speed
        st = self.st
        sha, time, on_main, consume = "", 0, False, False
        group: dict[bytes, list[int]] | None = None
        # current file section
        in_file = opened = False
        old_path = new_path = rename_from = rename_to = None
        path: str | None = None
        lst: list[int] | None = None
        origin = -1
        offset = cursor = add_left = del_left = 0
        births: list[int] = []

        def open_file():
            nonlocal opened, path, lst, origin, offset
            opened = True
            src = rename_from if rename_from is not None else old_path
            dst = rename_to if rename_to is not None else new_path
            path = dst if dst is not None else src
            offset = 0
            # a merge owns the lines no branch commit added (conflict resolutions), as in blame
            origin = st.origin(sha, dst, time) if dst is not None else -1
            if not on_main:
                lst = None
                return
            if src is not None and dst is not None and src != dst:
                moved = st.files.pop(src, [])
                old = st.files.get(dst)
                if old:
                    self._kill(old, time)
                st.files[dst] = moved
            elif src is None and dst is not None:
                old = st.files.get(dst)
                if old:
                    self._kill(old, time)
                st.files[dst] = []
            lst = st.files.setdefault(path, []) if path is not None else None

        def close_file():
            nonlocal in_file
            if in_file and on_main:
                if not opened and (rename_from is not None or old_path is not None or new_path is not None):
                    open_file()
                src = rename_from if rename_from is not None else old_path
                if src is not None and new_path is None and rename_to is None and old_path is not None:
                    gone = st.files.pop(src, None)  # a deletion
                    if gone:
                        self._kill(gone, time)
            in_file = False

        for raw in lines:
            if add_left or del_left:
                c = raw[:1]
                if c == b"-" and del_left:
                    del_left -= 1
                    continue
                if c == b"+" and add_left:
                    add_left -= 1
                    if on_main:
                        o = origin
                        if consume and group:
                            cands = group.get(raw[1:])
                            if cands:
                                pick = -1
                                for i in range(len(cands) - 1, -1, -1):
                                    if st.origin_path[cands[i]] == path:
                                        pick = i
                                        break
                                o = cands.pop(pick)
                        births.append(o)
                        if not add_left:
                            if lst is not None:
                                lst[cursor:cursor] = births
                            births = []
                    elif group is not None and origin >= 0:
                        group.setdefault(raw[1:], []).append(origin)
                    continue
                if c == b"\\":  # "\\ No newline at end of file"
                    continue
                add_left = del_left = 0  # malformed: leave the hunk
            if raw.startswith(_MARK):
                close_file()
                self._end_commit(sha, time, consume, group)
                parts = raw[len(_MARK):].split()
                sha, time = parts[0].decode(), int(parts[1])
                self.commits += 1
                self.last_sha = sha
                on_main = sha in self.mainline
                key = self.merge_group.get(sha)
                consume = on_main and key == sha
                if consume:
                    group = self.groups.pop(sha, None)
                elif not on_main and key is not None:
                    group = self.groups.setdefault(key, {})
                else:
                    group = None
                continue
            if raw.startswith(b"diff --git "):
                close_file()
                in_file, opened = True, False
                old_path = new_path = rename_from = rename_to = None
                path, lst = None, None
                continue
            if not in_file:
                continue
            if raw.startswith(b"@@"):
                m = _HUNK.match(raw)
                if not m:
                    continue
                if not opened:
                    open_file()
                a = int(m.group(1))
                b = 1 if m.group(2) is None else int(m.group(2))
                d = 1 if m.group(4) is None else int(m.group(4))
                if origin >= 0:
                    st.added[origin] += d
                add_left, del_left = d, b
                if on_main:
                    start = (a if b == 0 else a - 1) + offset
                    offset += d - b
                    if lst is not None and b:
                        self._kill(lst[start:start + b], time)
                        del lst[start:start + b]
                    cursor = start
                    births = []
                continue
            if raw.startswith(b"--- "):
                name = raw[4:].rstrip(b"\n").rstrip(b"\t")
                old_path = None if name == b"/dev/null" else _strip_prefix(_unquote(name), "a/")
                continue
            if raw.startswith(b"+++ "):
                name = raw[4:].rstrip(b"\n").rstrip(b"\t")
                new_path = None if name == b"/dev/null" else _strip_prefix(_unquote(name), "b/")
                continue
            if raw.startswith(b"rename from "):
                rename_from = _unquote(raw[12:].rstrip(b"\n"))
                continue
            if raw.startswith(b"rename to "):
                rename_to = _unquote(raw[10:].rstrip(b"\n"))
                continue
        close_file()
        self._end_commit(sha, time, consume, group)

    def _end_commit(self, sha: str, time: int, consume: bool, group) -> None:
        """After a merge: branch lines it did not bring in were rewritten on the branch."""
        if not consume or not group:
            return
        st, window = self.st, self.window
        for origins in group.values():
            for o in origins:
                if time - st.origin_time[o] <= window:
                    st.rewritten[o] += 1


def _strip_prefix(path: str, prefix: str) -> str:
    return path[len(prefix):] if path.startswith(prefix) else path


def _mainline_and_groups(commits: pl.DataFrame, tip: str, stop: str | None = None
                         ) -> tuple[list[str], set[str], dict[str, str]]:
    """(commits to stream in topological order, mainline set, {commit: merge that brings it in}).

    Only commits after ``stop`` (exclusive; its ancestors are done) are listed. Non-mainline
    merges are left out (their lines come with their own branch commits).
    """
    parents = dict(zip(commits["sha"].to_list(), commits["parents"].to_list()))
    done: set[str] = set()
    if stop is not None:  # everything reachable from stop is processed
        todo = [stop]
        while todo:
            c = todo.pop()
            if c in done or c not in parents:
                continue
            done.add(c)
            todo.extend(parents[c] or ())
    main_chain = []
    c = tip
    while c is not None and c in parents and c not in done:
        main_chain.append(c)
        ps = parents[c] or []
        c = ps[0] if ps else None
    main_chain.reverse()
    mainline = set(main_chain)
    group: dict[str, str] = {}
    order: list[str] = []
    for m in main_chain:
        ps = parents[m] or []
        if len(ps) > 1:
            group[m] = m
            side: list[str] = []
            todo = list(ps[1:])
            seen_local: set[str] = set()
            while todo:
                x = todo.pop()
                if x in seen_local or x in mainline or x in done or x in group or x not in parents:
                    continue
                seen_local.add(x)
                side.append(x)
                todo.extend(parents[x] or ())
            # topological order of the side commits (parents first)
            side_set = set(side)
            ordered: list[str] = []
            state: dict[str, int] = {}
            for root in side:
                stack = [(root, False)]
                while stack:
                    x, post = stack.pop()
                    if post:
                        state[x] = 2
                        ordered.append(x)
                        continue
                    if state.get(x):
                        continue
                    state[x] = 1
                    stack.append((x, True))
                    for p in parents[x] or ():
                        if p in side_set and not state.get(p):
                            stack.append((p, False))
            for x in ordered:
                group[x] = m
                if len(parents[x] or []) <= 1:
                    order.append(x)
        order.append(m)
    return order, mainline, group


def line_owners_at_tip(git_dir: str | os.PathLike, commits_of_repo: pl.DataFrame, tip: str | None = None
                       ) -> dict[str, list[str | None]]:
    """{path: [sha owning each line]} on the tip after a full pass (for tests against blame)."""
    tip = tip or _tip_of(commits_of_repo)
    order, mainline, groups = _mainline_and_groups(_graph(Path(git_dir), "test", tip), tip)
    known = set(commits_of_repo["sha"].to_list())
    order = [s for s in order if s in known]
    st = _State()
    walker = _Walker(st, mainline, groups, REWORK_DAYS * 86400)
    walker.run_all(Path(git_dir), "test", order)
    return {p: [st.origin_sha[o] if o >= 0 else None for o in lst] for p, lst in st.files.items()}


def _cache_paths(cache_dir: str | os.PathLike, repo: str) -> tuple[Path, str]:
    return Path(cache_dir), f"{storage_slug(repo)}.survival"


def _load_cache(cache_dir, repo: str, window: int, untracked: list[str] | None = None):
    folder, base = _cache_paths(cache_dir, repo)
    manifest = folder / f"{base}.json"
    if not manifest.exists():
        return None, None
    try:
        meta = json.loads(manifest.read_text())
        if (meta.get("version") != FORMAT_VERSION or meta.get("window") != window
                or meta.get("untracked", []) != (untracked or [])):
            return None, None  # another method or another set of untracked files: a full pass
        origins = pl.read_parquet(folder / meta["origins"])
        files = pl.read_parquet(folder / meta["files"])
        if origins.height != meta["origins_rows"] or files.height != meta["files_rows"]:
            raise ValueError("row counts differ from the manifest")
        return meta["tip"], _State.load(origins, files)
    except Exception as exc:  # damaged: rebuild
        log.warning("survival cache of %s is damaged (%s); rebuilding", repo, exc)
        return None, None


def _save_cache(cache_dir, repo: str, tip: str, st: _State, window: int, untracked: list[str] | None = None) -> None:
    from exceeds_pipeline.common.parquet_cache import write_cache

    folder, base = _cache_paths(cache_dir, repo)
    folder.mkdir(parents=True, exist_ok=True)
    origins, files = st.origins_frame(), st.files_frame()
    names = {"origins": f"{base}.{tip}.origins.parquet", "files": f"{base}.{tip}.files.parquet"}
    write_cache(folder / names["origins"], origins)
    write_cache(folder / names["files"], files)
    meta = {"version": FORMAT_VERSION, "tip": tip, "window": window, "untracked": untracked or [], **names,
            "origins_rows": origins.height, "files_rows": files.height}
    tmp = folder / f".{base}.json.tmp"
    tmp.write_text(json.dumps(meta))
    os.replace(tmp, folder / f"{base}.json")
    for old in folder.glob(f"{base}.*.parquet"):  # earlier tips
        if old.name not in names.values():
            old.unlink(missing_ok=True)


def survival_for_repository(
    repo_name: str,
    git_dir: str | os.PathLike,
    commits_of_repo: pl.DataFrame,
    file_changes_of_repo: pl.DataFrame | None = None,
    cache_dir: str | os.PathLike | None = None,
    *,
    tip: str | None = None,
    rework_days: int = REWORK_DAYS,
) -> pl.DataFrame:
    """Per (commit, path): lines added and lines rewritten within ``rework_days`` (module doc).

    ``commits_of_repo``: the repository's rows of ``commits`` (``sha``, ``parents``,
    ``committed_at``), merges included; ``file_changes_of_repo`` (with ``exclusion_reason``):
    files of a suffix always excluded by a path rule are not tracked (:func:`untracked_suffixes`;
    None: every file is); ``cache_dir``: where the ownership state is kept (None: no cache, a
    full pass every time). Returns :data:`SURVIVAL_SCHEMA` rows.
    """
    commits = commits_of_repo.filter(pl.col("repo") == repo_name) if "repo" in commits_of_repo.columns else commits_of_repo
    window = int(rework_days) * 86400
    if commits.height == 0:
        return pl.DataFrame(schema=SURVIVAL_SCHEMA)
    tip = tip or _tip_of(commits)
    known = set(commits["sha"].to_list())
    untracked = untracked_suffixes(
        file_changes_of_repo.filter(pl.col("repo") == repo_name)
        if file_changes_of_repo is not None and "repo" in file_changes_of_repo.columns else file_changes_of_repo)
    cached_tip, st = (None, None) if cache_dir is None else _load_cache(cache_dir, repo_name, window, untracked)
    stop = None
    graph = None
    if st is not None and cached_tip != tip:
        # continue only if the cached tip is on the new tip's first-parent chain
        graph = _graph(Path(git_dir), repo_name, tip)
        parents = dict(zip(graph["sha"].to_list(), graph["parents"].to_list()))
        c, on_chain = tip, False
        while c is not None and c in parents:
            if c == cached_tip:
                on_chain = True
                break
            ps = parents[c] or []
            c = ps[0] if ps else None
        if on_chain:
            stop = cached_tip
        else:
            st = None
    if st is not None and cached_tip == tip:
        pass  # nothing new since the cached tip: no git work at all
    else:
        if st is None:
            st, stop = _State(), None
        if graph is None:
            graph = _graph(Path(git_dir), repo_name, tip)
        order, mainline, groups = _mainline_and_groups(graph, tip, stop)
        order = [s for s in order if s in known]
        walker = _Walker(st, mainline, groups, window)
        with tempfile.TemporaryDirectory(prefix="exceeds-survival-") as tmp:
            walker.run_all(Path(git_dir), repo_name, order, _untracked_config(Path(tmp), untracked))
        log.info("survival: %d commits streamed for %s", walker.commits, repo_name)
        if cache_dir is not None:
            _save_cache(cache_dir, repo_name, tip, st, window, untracked)
    horizon = int(commits["committed_at"].max().timestamp())
    out = st.origins_frame().filter(pl.col("sha").is_in(list(known)))
    return out.select(
        pl.lit(repo_name).alias("repo"),
        "sha",
        "path",
        pl.col("added").alias("lines_added"),
        pl.col("rewritten").clip(upper_bound=pl.col("added")).alias("lines_rewritten"),
        (pl.col("time") + window <= horizon).alias("final"),
    ).cast(SURVIVAL_SCHEMA)
