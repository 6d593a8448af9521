"""Find, clone or fetch a configured repository and resolve its branch, with clear errors.

Every failure raises GitError naming the repository and saying what to do about it.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from exceeds_pipeline.ingest.gitcmd import GitError, git_text, redact, run_git

ALLOWED_SCHEMES = ("https", "ssh", "git", "file")
_SCP_LIKE = re.compile(r"^(?:[A-Za-z0-9._~-]+@)?[A-Za-z0-9.-]+:(?!//)[^\s]+$")


@dataclass(frozen=True)
class LocalRepository:
    name: str
    git_dir: Path
    tip: str  # commit sha of the configured branch
    branch: str  # the ref that was resolved
    is_shallow: bool


def validate_url(url: str) -> None:
    """Refuse transports other than https, ssh, git and local files before git ever sees them."""
    shown = redact(url)
    if not url or url.startswith("-"):
        raise ValueError(f"repository url {shown!r} is not a URL (it must not start with '-')")
    if any(c in url for c in "\n\r\0"):
        raise ValueError(f"repository url {shown!r} contains control characters")
    if "::" in url.split("/", 1)[0] or url.startswith("ext::") or url.startswith("fd::"):
        raise ValueError(
            f"repository url {shown!r} uses a git remote helper transport; only "
            f"{', '.join(ALLOWED_SCHEMES)} URLs are allowed"
        )
    if "://" in url:
        scheme = url.split("://", 1)[0].lower()
        if scheme not in ALLOWED_SCHEMES:
            raise ValueError(
                f"repository url {shown!r} uses the '{scheme}' transport; only "
                f"{', '.join(ALLOWED_SCHEMES)} are allowed"
            )
        return
    if _SCP_LIKE.match(url):  # git@github.com:owner/repo.git (ssh)
        return
    raise ValueError(
        f"repository url {shown!r} is not an https://, ssh://, git://, file:// or "
        f"user@host:path URL; use `path:` for a local clone"
    )


def name_from_url(url: str) -> str:
    if "://" in url:
        path = urlsplit(url).path
    else:
        path = url.split(":", 1)[1] if ":" in url else url
    parts = [p for p in path.strip("/").split("/") if p]
    if not parts:
        return redact(url)
    parts[-1] = re.sub(r"\.git$", "", parts[-1])
    return "/".join(parts[-2:])


def name_from_path(path: str, base_dir: Path | None = None) -> str:
    """The folder's name; `.`/`..` are resolved against `base_dir` (the config file's folder,
    where relative paths point), not against whatever directory the process runs in."""
    p = Path(path).expanduser()
    if base_dir is not None and not p.is_absolute():
        p = Path(base_dir) / p
    name = p.resolve().name if p.name in ("", ".", "..") else p.name
    return re.sub(r"\.git$", "", name) or "repository"


def storage_slug(name: str) -> str:
    """A file-system-safe, collision-free folder name for a repository name."""
    readable = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")[:80] or "repo"
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    return f"{readable}-{digest}"


def asset_slug(name: str) -> str:
    """The repository name as a Dagster asset key part (letters, digits and `_` only); the
    config rejects two repositories whose names give the same one."""
    return re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_")[:100] or "repo"


def open_local(name: str, path: str, base_dir: Path) -> Path:
    """The git dir of an existing clone (bare or not)."""
    p = Path(path).expanduser()
    if not p.is_absolute():
        p = (base_dir / p).resolve()
    if not p.exists():
        raise GitError(name, f"path {p} does not exist; fix `path:` in the config or clone it there")
    if not p.is_dir():
        raise GitError(name, f"path {p} is not a directory; `path:` must point at a git clone")
    proc = run_git(None, ["rev-parse", "--absolute-git-dir"], name, check=False, cwd=p)
    if proc.returncode != 0:
        raise GitError(
            name, f"path {p} is not a git repository; point `path:` at a clone (bare or not)"
        )
    git_dir = Path(proc.stdout.decode().strip())
    # A folder nested inside some other repository is not the repository the user meant.
    top = run_git(None, ["rev-parse", "--show-toplevel"], name, check=False, cwd=p)
    if top.returncode == 0 and Path(top.stdout.decode().strip()).resolve() != p.resolve():
        raise GitError(
            name, f"path {p} is inside the repository {top.stdout.decode().strip()}, not its root"
        )
    return git_dir


# Lock files a killed git leaves behind; while one exists git refuses to update that file.
_GIT_LOCK_FILES = ("config.lock", "HEAD.lock", "packed-refs.lock", "shallow.lock", "FETCH_HEAD.lock")


def remove_interrupted_leftovers(dest: Path) -> list[Path]:
    """Remove what a killed clone or fetch left in a clone the pipeline owns (`dest`): temporary
    clone folders beside it and git's lock files inside it.

    Only for clones under the data dir, and only while holding the repository's lock (see
    exceeds_pipeline.locks), so no other process of ours can be using them. Never for a user's
    own clone (`path:`).
    """
    removed = [p for p in dest.parent.glob(f".{dest.name}.*") if p.is_dir()]
    for folder in removed:
        shutil.rmtree(folder, ignore_errors=True)
    if dest.is_dir():
        locks = [dest / n for n in _GIT_LOCK_FILES if (dest / n).exists()]
        locks += [p for p in (dest / "refs").rglob("*.lock") if p.is_file()]
        for lock in locks:
            lock.unlink(missing_ok=True)
        removed += locks
    return removed


def clone_or_fetch(name: str, url: str, repos_dir: Path) -> Path:
    """Clone a URL once (bare) into the data dir; later runs fetch, following force-pushes.

    Call it holding the repository's lock: leftovers of an interrupted clone/fetch are removed.
    """
    validate_url(url)
    dest = repos_dir / f"{storage_slug(name)}.git"
    if repos_dir.is_dir():
        remove_interrupted_leftovers(dest)
    if dest.exists():
        # The config's url may have changed since the clone (a mirror, a fork): fetch from it.
        run_git(dest, ["remote", "set-url", "origin", url], name)
        # (and its tags, moved or deleted ones too: a release is often tagged after its commit)
        run_git(
            dest,
            ["fetch", "--prune", "--force", "--no-tags", "--", "origin", "+refs/heads/*:refs/heads/*",
             "+refs/tags/*:refs/tags/*"],
            name,
        )
        return dest
    repos_dir.mkdir(parents=True, exist_ok=True)
    # Clone into a temporary folder and rename: a clone killed half-way leaves nothing behind.
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=repos_dir))
    try:
        proc = run_git(None, ["clone", "--bare", "--quiet", "--", url, str(tmp)], name, check=False)
        if proc.returncode != 0:
            raise GitError(
                name,
                f"could not clone {redact(url)}: {proc.stderr.decode('utf-8', 'replace').strip()} "
                f"(check the URL, your network and credentials)",
            )
        tmp.rename(dest)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return dest


def resolve_branch(name: str, git_dir: Path, branch: str | None) -> tuple[str, str]:
    """(ref, commit sha) of the configured branch, or of HEAD when none is configured."""
    if not git_text(git_dir, ["rev-list", "-n", "1", "--all"], name, check=False):
        raise GitError(
            name, "the repository has no commits yet; nothing to analyse (push a first commit, or "
            "remove it from the config)"
        )
    if branch is None:
        proc = run_git(git_dir, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], name, check=False)
        if proc.returncode != 0:
            raise GitError(name, "HEAD does not point at a commit; set `branch:` in the config")
        ref = git_text(git_dir, ["symbolic-ref", "-q", "--short", "HEAD"], name, check=False)
        return ref or "HEAD", proc.stdout.decode().strip()
    if branch.startswith("-"):
        raise GitError(name, f"branch {branch!r} is not a valid branch name")
    def commit_of(ref: str) -> str | None:
        proc = run_git(git_dir, ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], name, check=False)
        return proc.stdout.decode().strip() if proc.returncode == 0 else None

    # A local branch, else a tag, else an explicitly remote-tracking name (`origin/main`).
    for ref in (f"refs/heads/{branch}", f"refs/tags/{branch}", f"refs/remotes/{branch}"):
        sha = commit_of(ref)
        if sha:
            return branch, sha
    heads = git_text(git_dir, ["for-each-ref", "--format=%(refname:short)", "refs/heads"], name)
    available = ", ".join(heads.split()[:10]) or "none"
    if commit_of(f"refs/remotes/origin/{branch}"):
        # Never silently: a local branch renamed away leaves a stale remote-tracking copy.
        raise GitError(
            name, f"branch {branch!r} is not a local branch (branches: {available}); only the "
            f"remote-tracking origin/{branch} exists, as last fetched. Set `branch: origin/{branch}` "
            f"to analyse that, or fix `branch:` in the config"
        )
    raise GitError(
        name, f"branch {branch!r} does not exist (branches: {available}); fix `branch:` in the config"
    )


def is_shallow(name: str, git_dir: Path) -> bool:
    return git_text(git_dir, ["rev-parse", "--is-shallow-repository"], name) == "true"


def prepare_repository(repo_cfg, repos_dir: Path, config_dir: Path, fetch: bool = True) -> LocalRepository | None:
    """Clone/fetch (`url:`) or open (`path:`) a configured repository and resolve its branch.

    `repo_cfg` is a `config.RepositoryConfig`. With `fetch=False` a `url:` repository is not
    contacted and None is returned (only a fetch can tell whether it has new commits).
    """
    name = repo_cfg.display_name
    if repo_cfg.url:
        if not fetch:
            return None
        git_dir = clone_or_fetch(name, repo_cfg.url, repos_dir)
    else:
        git_dir = open_local(name, repo_cfg.path, config_dir)
    branch, tip = resolve_branch(name, git_dir, repo_cfg.branch)
    return LocalRepository(name, git_dir, tip, branch, is_shallow(name, git_dir))
