"""Deterministic demo repositories: two small but realistic projects with planted facts.

``build_demo_repositories(dest)`` builds two git repositories (``demo/webapp`` and
``demo/mlkit``) from the data in ``data/``, with fixed people, dates, offsets and content, so
every build produces the same commit shas. Each returned :class:`DemoRepo` is also a manifest of
what was planted (which commit is the revert, the reland, the numbered series, the AI-assisted
commits, the renames, ...), and :data:`PEOPLE` lists the humans and the bot with the identity
rule that should join their e-mails. Tests elsewhere assert the pipeline finds these facts; the
generator's tests check git agrees.

The story, January 2025 to February 2026:

* ``demo/webapp`` -- "Nimbus Tasks", a Flask API with a TypeScript client. Pull requests land as
  ``Merge pull request #N from login/branch`` merge commits. Has a ``.mailmap``, a lock file with
  dependabot bumps, a vendored ``third_party/`` file, a generated ``*.min.js``, a PNG logo, a
  ``[1/3]..[3/3]`` series, Claude and Copilot co-author trailers and a ``Fixes:`` trailer.
* ``demo/mlkit`` -- a tensor-ops library with CUDA kernels. Pull requests are squash-merged
  (``Subject (#N)``, committed by GitHub). Has a ``git revert`` and its ``Reland "..."``, Aider
  commits (``aider:`` prefix and co-author trailer), a kernel directory move, a ``uv.lock``.

Identity traps: Maya commits with a personal address joined by ``.mailmap`` and once with an
upper-case address; Diego uses two GitHub noreply addresses with the same numeric id in webapp
and a plain address in mlkit (same name, but nothing else joins them: two people); Sam uses
different names and addresses in the two repositories, joined only by the config's identities.

The history lives in data files (``data/``, see :mod:`exceeds_pipeline.demo.builder`); this
module holds the cast's expected identities and the entry points.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from exceeds_pipeline.demo.builder import CAST, build_repository
from exceeds_pipeline.demo.model import DemoCommit, DemoPerson, DemoRepo, PullRequest

__all__ = [
    "BOT",
    "CONFIG_IDENTITIES",
    "DemoCommit",
    "DemoPerson",
    "DemoRepo",
    "PEOPLE",
    "PullRequest",
    "build_demo_repositories",
    "manifest",
    "write_demo_config",
]


def _person(entry: dict, is_bot: bool = False) -> DemoPerson:
    return DemoPerson(entry["key"], entry["name"], tuple(entry["emails"]), tuple(entry["names"]),
                      tuple(entry["repos"]), tuple(entry.get("merged_by", ())), is_bot)


PEOPLE: tuple[DemoPerson, ...] = tuple(_person(p) for p in CAST["people"])
BOT = _person(CAST["bot"], is_bot=True)
# Same display name, nothing else in common: must stay two people (never merge on a name alone).
NAME_ONLY_NOT_MERGED: tuple[str, ...] = tuple(CAST["name_only_not_merged"])
# The demo config's manual identities (SPEC section 3); without them "sam" is two people.
CONFIG_IDENTITIES: list[dict] = CAST["config_identities"]


# ---------------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------------


def build_demo_repositories(dest: str | Path, *, overwrite: bool = False) -> list[DemoRepo]:
    """Build ``dest/webapp`` and ``dest/mlkit``; the same bytes (and shas) on every run.

    Refuses to touch an existing non-empty target unless ``overwrite`` (which deletes only those
    two directories).
    """
    dest = Path(dest)
    repos = []
    for dirname in CAST["repositories"]:
        target = dest / dirname
        if target.exists() and any(target.iterdir()):
            if not overwrite:
                raise FileExistsError(f"{target} exists; pass overwrite=True to rebuild the demo")
            shutil.rmtree(target)
        repos.append(build_repository(dirname, target))
    return repos


def write_demo_config(dest_config_path: str | Path, repos: list[DemoRepo], *,
                      include_identities: bool = True) -> Path:
    """Write an exceeds config (SPEC section 3) pointing at the built repos (absolute paths)."""
    config: dict = {
        "repositories": [
            {"path": str(Path(r.path).resolve()), "name": r.name, "branch": r.branch} for r in repos
        ]
    }
    if include_identities:
        config["identities"] = [dict(i, emails=list(i["emails"])) for i in CONFIG_IDENTITIES]
    path = Path(dest_config_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    header = "# Demo repositories built by exceeds_pipeline.demo.generate (exceeds demo).\n"
    path.write_text(header + yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _to_plain(value):
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {k: _to_plain(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


def manifest(repos: list[DemoRepo]) -> dict:
    """Everything planted, as plain JSON-able data (people, bot, identities, per-repo facts)."""
    return {
        "people": _to_plain(list(PEOPLE)),
        "bots": _to_plain([BOT]),
        "name_only_not_merged": list(NAME_ONLY_NOT_MERGED),
        "config_identities": _to_plain(CONFIG_IDENTITIES),
        "repositories": [
            {**_to_plain(r), "head": r.head, "merges": r.merges, "ai_commits": r.ai_commits,
             "bot_commits": r.bot_commits}
            for r in repos
        ],
    }


if __name__ == "__main__":  # python -m exceeds_pipeline.demo.generate DEST
    import sys

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "demo-repos")
    built = build_demo_repositories(out, overwrite=True)
    write_demo_config(out / "exceeds-demo.yaml", built)
    for repo in built:
        print(f"{repo.name}: {len(repo.commits)} commits, head {repo.head[:12]} at {repo.path}")
