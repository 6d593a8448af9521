"""Running git safely: arguments only (never a shell), a fixed environment, clear errors."""

from __future__ import annotations

import io
import codecs
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Iterator, Mapping, Sequence

# Transports git may use for anything we run (git enforces it for clones, fetches and
# submodules alike): no ext::, fd::, http:// or others.
ALLOWED_PROTOCOLS = "https:ssh:git:file"

# A unified diff's hunk header: old start, old count, new start, new count (a count left out
# is 1). Text, for str (re.compile(HUNK_HEADER)) and bytes (re.compile(HUNK_HEADER.encode())).
HUNK_HEADER = r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@"

# Everything up to the last '@' of the authority: a password may contain '@' itself.
_CREDENTIALS = re.compile(r"(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)[^/\s]*@")


class GitError(RuntimeError):
    """A git command failed for a named repository; the message says what to do."""

    def __init__(self, repo: str, message: str):
        self.repo = repo
        # One line: git's stderr spans several, and the CLI and the UI's run list show only the
        # first, which would cut off what to do about it.
        text = " ".join(line.strip() for line in redact(message).splitlines() if line.strip())
        super().__init__(f"[{repo}] {text}")


def redact(text: str) -> str:
    """Hide credentials embedded in URLs (https://user:token@host -> https://***@host)."""
    return _CREDENTIALS.sub(lambda m: f"{m.group('scheme')}***@", text)


# What every git we run sees, whatever else its environment holds.
FIXED_ENV = {
    "GIT_ALLOW_PROTOCOL": ALLOWED_PROTOCOLS,
    "GIT_TERMINAL_PROMPT": "0",  # never hang waiting for a password
    "GIT_ASKPASS": "true",
    "SSH_ASKPASS": "true",
    "GIT_OPTIONAL_LOCKS": "0",  # reading must not take locks in the user's repo
    "LC_ALL": "C",
}

# The configuration an isolated git sees instead of the user's and the system's (see isolated_env).
ISOLATED_CONFIG = {
    "init.defaultBranch": "main",
    "commit.gpgsign": "false",
    "tag.gpgsign": "false",
    "user.name": "Test Author",
    "user.email": "author@example.com",
    "core.autocrlf": "false",
    "gc.auto": "0",
    "maintenance.auto": "false",
    "advice.detachedHead": "false",
}


def _latin1_fallback(error: UnicodeDecodeError) -> tuple[str, int]:
    return error.object[error.start : error.end].decode("latin-1"), error.end


codecs.register_error("exceeds-latin1", _latin1_fallback)


def decode(raw: bytes) -> str:
    """Text of git output (a message, a path): UTF-8 where the bytes are valid UTF-8, Latin-1 (the usual legacy encoding) for each byte
    that is not: never fails, never drops, and one stray byte does not garble the rest."""
    return raw.decode("utf-8", errors="exceeds-latin1")


def git_env() -> dict[str, str]:
    """The environment for reading the user's repositories: theirs, made safe."""
    env = dict(os.environ)
    env.update(FIXED_ENV)
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env


def isolated_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for writing repositories that must come out the same on every machine.

    Like git_env() (same transport allow-list), but ignoring the user's and the system's git
    configuration and every inherited GIT_* variable, with ISOLATED_CONFIG instead (fixed
    identity, branch name, no signing), untranslated messages and TZ=UTC. Used by the demo
    builder and the tests' scripted repositories; ``extra`` is added last (e.g. GIT_AUTHOR_*).
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(FIXED_ENV)
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_EDITOR="true",
        GIT_PAGER="cat",
        LANGUAGE="C",
        TZ="UTC",
        GIT_CONFIG_COUNT=str(len(ISOLATED_CONFIG)),
    )
    for i, (key, value) in enumerate(ISOLATED_CONFIG.items()):
        env[f"GIT_CONFIG_KEY_{i}"] = key
        env[f"GIT_CONFIG_VALUE_{i}"] = value
    env.update(extra or {})
    return env


def neutral_cwd(git_dir: Path | None) -> Path | None:
    """Where to run git on `git_dir`: the git dir itself.

    With `--git-dir` and a non-bare repository git takes the current directory as the work
    tree, so a `.mailmap` or `.gitattributes` in whatever folder the pipeline runs from would
    change identities and line counts. Inside the git dir there are none.
    """
    return git_dir


def git_command(
    git_dir: Path | None, args: Sequence[str], config: Mapping[str, str] | None = None
) -> list[str]:
    cmd = ["git"]
    if git_dir is not None:
        cmd += ["--git-dir", os.path.abspath(git_dir)]  # absolute: git runs in neutral_cwd
    for key, value in (config or {}).items():
        cmd += ["-c", f"{key}={value}"]
    return cmd + list(args)


def run_git(
    git_dir: Path | None,
    args: Sequence[str],
    repo: str,
    *,
    config: Mapping[str, str] | None = None,
    input: bytes | None = None,
    check: bool = True,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run git (``env``: the whole environment, default git_env(); see isolated_env())."""
    proc = subprocess.run(
        git_command(git_dir, args, config),
        input=input,
        capture_output=True,
        env=dict(env) if env is not None else git_env(),
        cwd=cwd if cwd is not None else neutral_cwd(git_dir),
    )
    if check and proc.returncode != 0:
        stderr = proc.stderr.decode("utf-8", "replace").strip()
        raise GitError(repo, f"git {args[0]} failed: {stderr}")
    return proc


def resolve_git_dir(path: str | os.PathLike) -> Path:
    """A work tree's ``.git`` folder, or the path itself (a bare repository / git dir)."""
    dot = Path(path) / ".git"
    return dot if dot.is_dir() else Path(path)


def git_text(git_dir: Path | None, args: Sequence[str], repo: str, **kwargs) -> str:
    return run_git(git_dir, args, repo, **kwargs).stdout.decode("utf-8", "replace").strip()


def stream_git(
    git_dir: Path | None,
    args: Sequence[str],
    stdin_lines: Sequence[str],
    *,
    config: Mapping[str, str] | None = None,
    bufsize: int = -1,
) -> subprocess.Popen:
    """Start a streaming git command (`git log --stdin ...`) whose output the caller reads from
    `proc.stdout`; its stdin gets `stdin_lines` from a thread, because git starts writing before
    it has read all of its input (feeding first would deadlock on a full pipe)."""
    import threading

    proc = subprocess.Popen(
        git_command(git_dir, args, config), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=git_env(), cwd=neutral_cwd(git_dir), bufsize=bufsize,
    )
    payload = ("\n".join(stdin_lines) + "\n").encode("ascii")

    def feed() -> None:
        try:
            proc.stdin.write(payload)
        except BrokenPipeError:
            pass
        finally:
            proc.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    return proc


def tree_blobs(git_dir: Path, revision: str, repo: str) -> list[tuple[str, str, int]]:
    """(path, blob, size) of the files of the tree of ``revision`` (submodules left out)."""
    out = run_git(git_dir, ["ls-tree", "-r", "-z", "-l", "--full-tree", revision], repo).stdout
    blobs = []
    for record in out.split(b"\0"):
        meta, _, path = record.partition(b"\t")
        fields = meta.split()
        if len(fields) == 4 and fields[1] == b"blob" and fields[3].isdigit():
            blobs.append((decode(path), fields[2].decode(), int(fields[3])))
    return blobs


def read_blobs(git_dir: Path, object_ids: Sequence[str], keep: int) -> Iterator[tuple[int, bytes | None, int]]:
    """(index in ``object_ids``, first ``keep`` bytes, size) of each blob, in one `git cat-file
    --batch` stream; (i, None, -1) for an object that is missing or not a blob. The rest of a
    larger blob is skipped without being kept."""
    if not object_ids:
        return
    proc = stream_git(git_dir, ["cat-file", "--batch"], list(object_ids))
    try:
        for i in range(len(object_ids)):
            header = proc.stdout.readline().split()
            if len(header) < 3 or header[1] == b"missing":
                yield i, None, -1  # (a missing object prints no content)
                continue
            size = int(header[2])
            head = proc.stdout.read(min(size, keep))
            rest = size - len(head)
            while rest > 0:
                rest -= len(proc.stdout.read(min(rest, 1 << 20)))
            proc.stdout.read(1)  # the newline after the content
            yield (i, head, size) if header[1] == b"blob" else (i, None, -1)
    finally:
        proc.stdout.close()
        proc.wait()


def attributes_config(folder: Path, name: str, lines: Sequence[str]) -> dict[str, str]:
    """Config that gives git the gitattributes ``lines`` (written to ``folder/name``) as
    ``core.attributesFile``: the repository's own attributes still take precedence, and nothing
    is written into the repository. Used to mark files binary whose text diff a reader does not
    need (git then makes none)."""
    path = Path(folder) / name
    path.write_text("".join(f"{line}\n" for line in lines), encoding="ascii")
    return {"core.attributesFile": str(path)}


def commit_graph_env(git_dir: Path, folder: Path, commits: Sequence[str], repo: str) -> dict[str, str]:
    """git_env() for history walks (``git blame``) that reads a commit-graph with changed-path
    Bloom filters of the history of ``commits``, kept in ``folder``: the pipeline's own, never
    the repository (which git's own maintenance writes without Bloom filters, if at all).

    git is pointed at ``folder/objects`` as its object directory, with the repository's objects
    as an alternate: git finds the graph there, every object in the repository. The graph
    changes no answer, only how fast a walk that follows one path skips the commits that do not
    touch it (git/git: ``git blame`` of a fix 2.3x faster). It is written incrementally (a split
    graph: a later call adds the new commits only). Where git cannot write one (a shallow clone,
    a damaged graph twice in a row), the plain environment is returned.
    """
    env = git_env()
    own = git_text(git_dir, ["rev-parse", "--git-path", "objects"], repo)
    own_dir = Path(own) if os.path.isabs(own) else (Path(git_dir) / own).resolve()
    objects = Path(folder).resolve() / "objects"
    alternates = [_quote_alternate(str(own_dir)), *filter(None, [env.get("GIT_ALTERNATE_OBJECT_DIRECTORIES")])]
    env.update(GIT_OBJECT_DIRECTORY=str(objects), GIT_ALTERNATE_OBJECT_DIRECTORIES=os.pathsep.join(alternates))
    args = ["commit-graph", "write", "--stdin-commits", "--changed-paths", "--split", "--no-progress"]
    payload = "".join(f"{sha}\n" for sha in commits).encode("ascii")
    for _ in range(2):
        (objects / "info").mkdir(parents=True, exist_ok=True)
        proc = run_git(git_dir, args, repo, input=payload, check=False, env=env)
        if proc.returncode == 0:
            return env
        shutil.rmtree(folder, ignore_errors=True)  # damaged: the next attempt starts afresh
    return git_env()


def _quote_alternate(path: str) -> str:
    """An entry of GIT_ALTERNATE_OBJECT_DIRECTORIES: C-quoted when it holds the separator."""
    if os.pathsep not in path and not path.startswith('"'):
        return path
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def stream_git_chunks(
    git_dir: Path | None,
    args: Sequence[str],
    chunks: Sequence[Sequence[str]],
    repo: str,
    *,
    config: Mapping[str, str] | None = None,
    parallel: int = 2,
    block: int = 1 << 20,
) -> Iterator[bytes]:
    """The output lines of ``git <args>`` (a ``--stdin`` command) run once per chunk of stdin
    lines, chunk after chunk, as if one process had read them all.

    Up to ``parallel`` git processes run at once, each drained into memory by a thread, so git
    computes the next chunks while the caller consumes the current one: a consumer that must
    read the history in order (line survival) gets git's work on several cores. Memory holds
    at most the output of the ``parallel`` chunks in flight beyond what the caller has read.
    A chunk whose git fails raises :class:`GitError` after its last complete output, so the
    caller knows how far it got; nothing is left running whatever the caller does.
    """
    import threading
    from collections import deque

    class _Chunk:
        def __init__(self, lines: Sequence[str]):
            self.proc = stream_git(git_dir, args, lines, config=config, bufsize=0)
            self.blocks: deque[bytes] = deque()
            self.err = b""
            self.done = False
            self.ready = threading.Condition()
            self.err_reader = threading.Thread(target=self._drain_err, daemon=True)
            self.err_reader.start()
            threading.Thread(target=self._read, daemon=True).start()

        def _drain_err(self) -> None:
            self.err = self.proc.stderr.read()

        def _read(self) -> None:
            try:
                while data := self.proc.stdout.read(block):
                    with self.ready:
                        self.blocks.append(data)
                        self.ready.notify()
            except (OSError, ValueError):
                pass  # closed by close(): the caller stopped early
            finally:
                with self.ready:
                    self.done = True
                    self.ready.notify()

        def pieces(self) -> Iterator[bytes]:
            while True:
                with self.ready:
                    while not self.blocks and not self.done:
                        self.ready.wait()
                    if not self.blocks:
                        return
                    data = self.blocks.popleft()
                yield data

        def close(self) -> None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.err_reader.join(timeout=5)
            for pipe in (self.proc.stdout, self.proc.stderr):
                try:
                    pipe.close()
                except (OSError, ValueError):
                    pass

    todo = deque(chunks)
    running: deque[_Chunk] = deque()
    try:
        while todo or running:
            while todo and len(running) < max(1, parallel):
                running.append(_Chunk(todo.popleft()))
            current = running[0]
            rest = b""
            for data in current.pieces():
                cut = data.rfind(b"\n") + 1  # whole lines now, the tail with the next block
                if cut:
                    yield from io.BytesIO(rest + data[:cut])  # split on b"\n" only, ends kept
                    rest = data[cut:]
                else:
                    rest += data
            if rest:
                yield rest
            code = current.proc.wait()
            running.popleft()
            current.close()
            if code != 0:
                raise GitError(repo, f"git {args[0]} failed ({code}): {current.err.decode('utf-8', 'replace')}")
    finally:
        for chunk in running:
            chunk.close()
