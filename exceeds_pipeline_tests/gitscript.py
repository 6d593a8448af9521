"""Build real git repositories from scripted commits (a test helper).

Plain Python on top of the ``git`` binary: every call runs git through the project's runner
(``exceeds_pipeline.ingest.gitcmd``) in its isolated environment (no user or system
configuration, the transport allow-list), and every commit carries explicit author/committer
names, e-mails and dates, so the same script always produces the same commit shas.

    repo = GitScript.init(tmp_path / "repo")
    sha = repo.commit("Add parser", author=("Ada", "ada@example.com"),
                      date="2025-03-04T10:00:00+0200", files={"src/parser.py": "..."})

Dates are ISO 8601 strings with an explicit UTC offset (``+0200`` or ``+02:00``), or aware
``datetime`` objects; naive dates are refused because they would depend on the machine's zone.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from pathlib import Path

from exceeds_pipeline.ingest import gitcmd
from exceeds_pipeline.ingest.gitcmd import ISOLATED_CONFIG, isolated_env

__all__ = ["GitError", "GitScript", "git_date", "isolated_env", "run_git"]

Who = tuple[str, str]  # (name, email)

DEFAULT_AUTHOR: Who = (ISOLATED_CONFIG["user.name"], ISOLATED_CONFIG["user.email"])
DEFAULT_DATE = "2025-01-02T10:00:00+0100"


class GitError(RuntimeError):
    """A git command failed; carries the command, exit code and stderr."""

    def __init__(self, args: list[str], returncode: int, stderr: str):
        self.args_ = args
        self.returncode = returncode
        self.stderr = stderr
        super().__init__(f"git {' '.join(args)} failed ({returncode}): {stderr.strip()}")


def run_git(
    args: Iterable[str | os.PathLike],
    cwd: str | os.PathLike | None = None,
    *,
    env: Mapping[str, str] | None = None,
    input: str | bytes | None = None,
    check: bool = True,
) -> str:
    """Run ``git *args`` isolated (gitcmd.isolated_env, ``env`` added); return stdout without
    its final newline.

    Output is decoded as UTF-8 with ``surrogateescape``, so non-UTF-8 bytes survive a round trip.
    """
    argv = [os.fspath(a) for a in args]
    data = input.encode("utf-8", "surrogateescape") if isinstance(input, str) else input
    proc = gitcmd.run_git(None, argv, os.fspath(cwd or "."), input=data, check=False,
                          cwd=Path(cwd) if cwd is not None else None, env=isolated_env(env))
    out = proc.stdout.decode("utf-8", "surrogateescape")
    if check and proc.returncode != 0:
        raise GitError(argv, proc.returncode, proc.stderr.decode("utf-8", "replace"))
    return out[:-1] if out.endswith("\n") else out


def git_date(value: str | datetime) -> str:
    """Normalise a date to git's internal ``<unix seconds> <+hhmm>`` form.

    Accepts aware datetimes and ISO 8601 strings with an explicit offset.
    """
    dt = datetime.fromisoformat(value) if isinstance(value, str) else value
    offset = dt.utcoffset()
    if offset is None:
        raise ValueError(f"date {value!r} has no UTC offset; give one, e.g. +0100")
    minutes = int(offset / timedelta(minutes=1))
    sign = "+" if minutes >= 0 else "-"
    hh, mm = divmod(abs(minutes), 60)
    return f"{int(dt.timestamp())} {sign}{hh:02d}{mm:02d}"


def _identity_env(author: Who, date, committer: Who | None, committer_date) -> dict[str, str]:
    committer = committer or author
    a_date = git_date(date)
    c_date = git_date(committer_date) if committer_date is not None else a_date
    return {
        "GIT_AUTHOR_NAME": author[0],
        "GIT_AUTHOR_EMAIL": author[1],
        "GIT_AUTHOR_DATE": a_date,
        "GIT_COMMITTER_NAME": committer[0],
        "GIT_COMMITTER_EMAIL": committer[1],
        "GIT_COMMITTER_DATE": c_date,
    }


class GitScript:
    """A git repository driven by scripted, deterministic commits."""

    def __init__(self, path: str | os.PathLike, *, bare: bool = False):
        self.path = Path(path)
        self.bare = bare

    # -- creation -------------------------------------------------------------------------

    @classmethod
    def init(cls, path: str | os.PathLike, branch: str = "main", bare: bool = False) -> GitScript:
        """``git init`` a new repository (created if missing) with ``branch`` as HEAD."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        run_git(["init", "-q", "-b", branch, *(["--bare"] if bare else []), path])
        return cls(path, bare=bare)

    @classmethod
    def clone(
        cls, source: str | os.PathLike, path: str | os.PathLike, *, bare: bool = False,
        extra_args: Iterable[str] = (),
    ) -> GitScript:
        """``git clone`` (e.g. of a local path) into ``path``; ``extra_args`` like ``--depth=1``."""
        path = Path(path)
        run_git(["clone", "-q", *(["--bare"] if bare else []), *extra_args, os.fspath(source), path])
        return cls(path, bare=bare)

    # -- plumbing ---------------------------------------------------------------------------

    def git(self, *args: str | os.PathLike, env: Mapping[str, str] | None = None,
            input: str | bytes | None = None, check: bool = True) -> str:
        """Run any git command in this repository (isolated env); return stdout."""
        return run_git(args, self.path, env=env, input=input, check=check)

    def head(self) -> str:
        """The full sha of HEAD."""
        return self.git("rev-parse", "HEAD")

    def rev(self, ref: str) -> str:
        """The full sha a ref or revision expression names."""
        return self.git("rev-parse", "--verify", f"{ref}^{{commit}}")

    def current_branch(self) -> str:
        return self.git("symbolic-ref", "--short", "HEAD")

    # -- working tree & commits -------------------------------------------------------------

    def _abs(self, rel: str) -> Path:
        p = Path(rel)
        if p.is_absolute() or ".." in p.parts:
            raise ValueError(f"path {rel!r} must be relative and stay inside the repository")
        return self.path / p

    def write(self, files: Mapping[str, str | bytes | None]) -> None:
        """Write (str: UTF-8 text as given, bytes: raw) or delete (None) files; no commit."""
        for rel, content in files.items():
            target = self._abs(rel)
            if content is None:
                target.unlink()
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, str):
                content = content.encode("utf-8", "surrogateescape")
            target.write_bytes(content)

    def write_mailmap(self, lines: Iterable[str]) -> Path:
        """Write ``.mailmap`` into the working tree (it lands in the next commit)."""
        text = "".join(line.rstrip("\n") + "\n" for line in lines)
        self.write({".mailmap": text})
        return self.path / ".mailmap"

    def commit(
        self,
        message: str | bytes,
        *,
        author: Who = DEFAULT_AUTHOR,
        date: str | datetime = DEFAULT_DATE,
        committer: Who | None = None,
        committer_date: str | datetime | None = None,
        files: Mapping[str, str | bytes | None] | None = None,
        renames: Mapping[str, str] | None = None,
        allow_empty: bool = False,
        encoding: str | None = None,
    ) -> str:
        """Apply ``renames`` (old -> new) then ``files``, stage everything, commit; return sha.

        The committer defaults to the author, the committer date to the author date. The message
        is kept as given apart from surrounding blank lines and trailing spaces (``#`` lines are
        kept). ``encoding`` (e.g. ``"latin-1"``) sets ``i18n.commitEncoding`` for a bytes message.
        """
        if self.bare:
            raise GitError(["commit"], 1, "cannot commit in a bare repository")
        for old, new in (renames or {}).items():
            self._abs(new).parent.mkdir(parents=True, exist_ok=True)
            self.git("mv", "--", old, new)
        if files:
            self.write(files)
        self.git("add", "-A")
        args = []
        if encoding:
            args += ["-c", f"i18n.commitEncoding={encoding}"]
        args += ["commit", "-q", "--no-verify", "--cleanup=whitespace", "-F", "-"]
        if allow_empty:
            args.append("--allow-empty")
        if not message:  # Subversion and CVS allowed commits without a log message
            args.append("--allow-empty-message")
        self.git(*args, env=_identity_env(author, date, committer, committer_date), input=message)
        return self.head()

    # -- branches -----------------------------------------------------------------------------

    def branch(self, name: str, start: str | None = None, *, checkout: bool = False) -> None:
        """Create branch ``name`` at ``start`` (default HEAD); optionally switch to it."""
        self.git("branch", name, *([start] if start else []))
        if checkout:
            self.checkout(name)

    def checkout(self, ref: str) -> None:
        self.git("checkout", "-q", ref)

    def tag(self, name: str, ref: str = "HEAD") -> None:
        """A lightweight tag."""
        self.git("tag", name, ref)

    def merge(
        self,
        branch: str,
        message: str | None = None,
        *,
        author: Who = DEFAULT_AUTHOR,
        date: str | datetime = DEFAULT_DATE,
        committer: Who | None = None,
        committer_date: str | datetime | None = None,
        allow_unrelated: bool = False,
    ) -> str:
        """Merge ``branch`` into the current branch, always as a merge commit (``--no-ff``).

        ``message`` defaults to git's own ("Merge branch 'x'"). Conflicts raise GitError.
        ``allow_unrelated``: ``branch`` may be a separate history (a subtree import).
        """
        args = ["merge", "-q", "--no-ff", "--no-verify", "--no-edit"]
        if allow_unrelated:
            args.append("--allow-unrelated-histories")
        if message is not None:
            args += ["--cleanup=whitespace", "-m", message]
        self.git(*args, branch, env=_identity_env(author, date, committer, committer_date))
        return self.head()

    def squash(
        self,
        branch: str,
        message: str,
        *,
        author: Who = DEFAULT_AUTHOR,
        date: str | datetime = DEFAULT_DATE,
        committer: Who | None = None,
        committer_date: str | datetime | None = None,
    ) -> str:
        """Squash-merge ``branch`` into the current branch as one ordinary commit."""
        self.git("merge", "-q", "--squash", branch)
        return self.commit(message, author=author, date=date, committer=committer,
                           committer_date=committer_date)

    def revert(
        self,
        sha: str,
        *,
        author: Who = DEFAULT_AUTHOR,
        date: str | datetime = DEFAULT_DATE,
        committer: Who | None = None,
        committer_date: str | datetime | None = None,
        reason: str | None = None,
        mainline: int | None = None,
    ) -> str:
        """``git revert`` with git's own message (``Revert "<subject>"`` / ``This reverts commit
        <sha>.``), optionally followed by a ``reason`` paragraph. ``mainline`` for merges."""
        env = _identity_env(author, date, committer, committer_date)
        m = ["-m", str(mainline)] if mainline else []
        if reason is None:
            self.git("revert", "--no-edit", *m, sha, env=env)
            return self.head()
        self.git("revert", "--no-commit", *m, sha, env=env)
        msg_path = self.path / self.git("rev-parse", "--git-path", "MERGE_MSG")
        message = msg_path.read_text("utf-8").rstrip("\n") + "\n\n" + reason.strip("\n") + "\n"
        sha_new = self.commit(message, author=author, date=date, committer=committer,
                              committer_date=committer_date)
        return sha_new

    def reset_hard(self, ref: str) -> None:
        """Move the current branch to ``ref`` and discard changes (history rewrites)."""
        self.git("reset", "-q", "--hard", ref)

    # -- remotes -------------------------------------------------------------------------------

    def push(self, remote: str | os.PathLike, branch: str | None = None, *, force: bool = False) -> None:
        """Push ``branch`` (default: current) to the same name at ``remote`` (a path or URL).

        ``force=True`` simulates a force-push after ``reset_hard``/rewritten commits.
        """
        branch = branch or self.current_branch()
        args = ["push", "-q", *(["--force"] if force else []), os.fspath(remote),
                f"refs/heads/{branch}:refs/heads/{branch}"]
        self.git(*args)

    def __repr__(self) -> str:
        return f"GitScript({str(self.path)!r}{', bare=True' if self.bare else ''})"
