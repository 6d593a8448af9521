"""What the demo generator planted: the types of its manifest (see demo.generate)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["DemoCommit", "DemoPerson", "DemoRepo", "PullRequest"]


@dataclass(frozen=True)
class DemoPerson:
    """One expected person after identity resolution (``key`` is the generator's, not a slug).

    ``emails`` are the addresses exactly as written in commits; ``names`` the author names used;
    ``merged_by`` the rules that must join them: ``mailmap``, ``email`` (case-insensitive
    equality, across repositories too), ``noreply_id`` (same GitHub user id), ``config``.
    """

    key: str
    name: str
    emails: tuple[str, ...]
    names: tuple[str, ...]
    repos: tuple[str, ...]
    merged_by: tuple[str, ...] = ()
    is_bot: bool = False




@dataclass(frozen=True)
class DemoCommit:
    """One scripted commit. ``category`` is what the generator meant (None for merges)."""

    sha: str
    subject: str
    person: str
    author_date: str  # ISO 8601 with the author's offset, as given to git
    category: str | None
    label: str | None = None
    pr: int | None = None
    ai_tool: str | None = None  # declared AI tool, named as enrich.ai_tools names it
    is_merge: bool = False
    is_bot: bool = False


@dataclass
class PullRequest:
    number: int
    title: str
    merge_sha: str | None  # merge commit (webapp); None when squash-merged
    shas: list[str] = field(default_factory=list)  # the non-merge commits of the change


@dataclass
class DemoRepo:
    """A built demo repository and the facts planted in it (all shas are full 40-hex)."""

    name: str
    path: Path
    branch: str = "main"
    commits: list[DemoCommit] = field(default_factory=list)  # in creation order
    pull_requests: dict[int, PullRequest] = field(default_factory=dict)
    reverts: list[tuple[str, str]] = field(default_factory=list)  # (revert, reverted)
    relands: list[tuple[str, str]] = field(default_factory=list)  # (reland, original)
    series: list[list[str]] = field(default_factory=list)  # [1/N] .. [N/N] shas in order
    fixes_trailers: list[tuple[str, str]] = field(default_factory=list)  # (fix, named by Fixes:)
    szz: list[tuple[str, str]] = field(default_factory=list)  # (fix, commit its deleted lines blame to)
    rework: list[tuple[str, str]] = field(default_factory=list)  # (original, rewrite < 21 days later)
    renames: list[tuple[str, str, str]] = field(default_factory=list)  # (sha, old path, new path)
    binaries: list[tuple[str, str]] = field(default_factory=list)  # (sha, path) binary changes
    excluded_paths: dict[str, str] = field(default_factory=dict)  # path -> binary/vendored/lock_file/generated
    local_date_differs: list[tuple[str, str, str]] = field(default_factory=list)  # (sha, local, UTC date)
    mailmap: list[str] = field(default_factory=list)

    @property
    def head(self) -> str:
        return self.commits[-1].sha if self.commits else ""

    def sha(self, label: str) -> str:
        """The sha of the commit planted under ``label`` (KeyError if none)."""
        for c in self.commits:
            if c.label == label:
                return c.sha
        raise KeyError(label)

    def by_sha(self, sha: str) -> DemoCommit:
        return next(c for c in self.commits if c.sha == sha)

    @property
    def merges(self) -> list[str]:
        return [c.sha for c in self.commits if c.is_merge]

    @property
    def ai_commits(self) -> dict[str, str]:
        return {c.sha: c.ai_tool for c in self.commits if c.ai_tool}

    @property
    def bot_commits(self) -> list[str]:
        return [c.sha for c in self.commits if c.is_bot]
