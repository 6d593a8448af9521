"""Web addresses of repositories on GitHub / GitLab, for links from the profile pages.

:func:`forge_web_url` turns a git remote (what the config's ``url`` says, or a clone's
``remote.origin.url``) into the https address of the project on its forge, with credentials,
ports and ``.git`` removed, or ``None`` when the remote is not on GitHub or GitLab (a local path,
another host, something unparseable). :func:`commit_url` builds the address of one commit there.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from functools import lru_cache
from urllib.parse import urlsplit

__all__ = ["commit_url", "forge_kind", "forge_web_url", "origin_remote_url", "repository_web_urls"]

_SCP_LIKE = re.compile(r"^(?:[^@/\s]+@)?(?P<host>[A-Za-z0-9.-]+):(?!//)(?P<path>[^\s]+)$")
_SEGMENT = re.compile(r"^[A-Za-z0-9_.~-]+$")
_SHA = re.compile(r"^[0-9a-f]{4,64}$")


def forge_kind(host: str) -> str | None:
    """``"github"``, ``"gitlab"`` or ``None`` for a host name."""
    host = host.lower().rstrip(".")
    if host in ("github.com", "www.github.com"):
        return "github"
    if host in ("gitlab.com", "www.gitlab.com") or host.startswith("gitlab."):
        return "gitlab"
    return None


def forge_web_url(remote_url: str | None) -> str | None:
    """``https://github.com/owner/repo`` (or the GitLab equivalent, subgroups kept) for a remote
    such as ``https://user:token@github.com/owner/repo.git``, ``git@github.com:owner/repo.git``,
    ``ssh://git@gitlab.com:22/group/sub/repo.git`` or ``git://github.com/owner/repo``.
    ``None`` when the remote is empty, local or not on GitHub/GitLab."""
    if not remote_url or not isinstance(remote_url, str):
        return None
    text = remote_url.strip()
    if "://" in text:
        try:
            parts = urlsplit(text)
            host = parts.hostname or ""  # drops user:password@ and :port
        except ValueError:
            return None
        if parts.scheme.lower() not in ("https", "http", "ssh", "git", "git+ssh", "ssh+git"):
            return None
        path = parts.path
    else:
        match = _SCP_LIKE.match(text)
        if not match:
            return None
        host, path = match.group("host"), match.group("path")
    kind = forge_kind(host)
    if kind is None:
        return None
    segments = [s for s in path.split("/") if s]
    if segments:
        segments[-1] = re.sub(r"\.git$", "", segments[-1])
    segments = [s for s in segments if s]
    if len(segments) < 2 or (kind == "github" and len(segments) != 2):
        return None
    if not all(_SEGMENT.match(s) and s not in (".", "..") for s in segments):
        return None
    return f"https://{host.lower()}/" + "/".join(segments)


@lru_cache(maxsize=4096)
def _kind_of_url(repo_url: str) -> str | None:
    try:
        parts = urlsplit(repo_url)
        if parts.scheme != "https" or parts.username or parts.password:
            return None  # only plain https addresses become links
        return forge_kind(parts.hostname or "")
    except ValueError:
        return None


def commit_url(repo_url: str | None, sha: str) -> str | None:
    """The forge page of commit ``sha`` of the repository at ``repo_url`` (a :func:`forge_web_url`
    result), or ``None`` when there is no known forge or the sha is not a hex id."""
    if not repo_url or not _SHA.match(sha or ""):
        return None
    kind = _kind_of_url(repo_url)
    if kind == "github":
        return f"{repo_url}/commit/{sha}"
    if kind == "gitlab":
        return f"{repo_url}/-/commit/{sha}"
    return None


def origin_remote_url(git_dir: str | Path) -> str | None:
    """``remote.origin.url`` of a clone (bare or not), or ``None``. Read with ``git config``
    (no network); pass the result to :func:`forge_web_url`, never print it (credentials)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(git_dir), "config", "--get", "remote.origin.url"],
            capture_output=True, text=True, timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    value = out.stdout.strip()
    return value if out.returncode == 0 and value else None


def repository_web_urls(repositories) -> dict[str, str | None]:
    """Repository name -> forge web URL (or ``None``) for the configured repositories
    (``ExceedsConfig.repositories``): from the config's ``url``, else from the ``path`` clone's
    ``remote.origin.url`` (a path relative to the config file's folder, as the config reads it).
    Pass the result to ``build_profiles(..., repo_urls=...)``."""
    out: dict[str, str | None] = {}
    for repo in repositories:
        remote = getattr(repo, "url", None)
        path = getattr(repo, "path", None)
        if not remote and path:
            folder = Path(path).expanduser()
            base = getattr(repo, "_base_dir", None)
            if base is not None and not folder.is_absolute():
                folder = Path(base) / folder
            remote = origin_remote_url(folder)
        out[repo.display_name] = forge_web_url(remote)
    return out
