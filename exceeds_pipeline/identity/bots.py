"""Which identities are bots: recorded in `people.is_bot`, never profiled.

Built-in rules (any match makes the whole person a bot):
1. GitHub App identities: `[bot]` in the name or e-mail (`dependabot[bot]`, `claude[bot]`).
2. Known automation accounts below (exact e-mails, or logins with GitHub's numeric ids).
3. A name or e-mail local part that ends in a separate `bot`/`robot` word (`k8s-ci-robot`,
   `facebook-github-bot`, `ci_bot`), never a name merely ending in the letters (`Talbot`).
4. Service, sync and release accounts (`bots.yaml` `service_accounts`): Meta's
   `generatedunixname<digits>` users and numbered no-reply addresses, `facebook-github-bot`,
   `meta-codesync[bot]`, release tools' handles (`hugoreleaser`, `name+hugoreleaser@...`).
5. Sync accounts replayed by a bot: an author whose name is a machine handle (no space, a run of
   digits, :data:`SYNC_HANDLE`) and every one of whose commits was committed by a bot identity
   (:func:`is_sync_account`; applied per person by `people.resolve_people`). A human whose
   commits a bot lands (Meta's ShipIt commits everyone's work as `Facebook GitHub Bot`) has a
   real name and stays a person.
6. The config's `bots.extra_patterns` (regular expressions searched in the name and e-mail).

One rule is per commit, not per person: a commit whose Conventional-Commit type declares it
machine-made (`autogen(docs): regenerate the changelog`; `bots.yaml` `automation_types`), or
whose subject a deploy action wrote (`Deploying to master from @ junegunn/fzf@<sha>`;
`automation_subjects`), or whose committer is a CI workflow (`github-actions[bot]`:
`automation_committers`), is a bot's commit (`commits.is_bot`) whoever its author is: CI
pipelines commit their output under the identity of the person who triggered them.

The lists are data: `bots.yaml` next to this module.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

from exceeds_pipeline.common.yamlfile import load_yaml

_DATA = load_yaml(Path(__file__).with_name("bots.yaml"))
KNOWN_BOT_EMAILS = frozenset(e.lower() for e in _DATA["known_emails"])
KNOWN_BOT_NAMES = frozenset(n.lower() for n in _DATA["known_names"])
SERVICE_ACCOUNTS = tuple(re.compile(p, re.IGNORECASE) for p in _DATA["service_accounts"])
SYNC_HANDLE = re.compile(rf"^[^\s]*\d{{{int(_DATA['sync_handle_min_digits'])},}}[^\s]*$")

# A subject whose Conventional-Commit type declares automation (`autogen(sdk): bump to 0f7be9e`),
# or that a deploy action writes (`Deploying to master from @ owner/repo@<sha>`).
AUTOMATED_SUBJECT = "|".join([
    r"^\s*(?i:" + "|".join(re.escape(t) for t in _DATA["automation_types"]) + r")(?:\([^)\n]{0,80}\))?!?:",
    *(f"(?i:{p})" for p in _DATA["automation_subjects"]),
])

# A commit a CI workflow made (its committer), whoever its author is (`automation_committers`).
AUTOMATION_COMMITTER = "|".join(f"(?i:{p})" for p in _DATA["automation_committers"])

_APP = re.compile(r"\[bot\]", re.IGNORECASE)
_BOT_WORD = re.compile(r"(?:^|[-_.\s])(?:ro)?bot$", re.IGNORECASE)
# A handle run together with "bot", as both its name and its address (jekyll's `jekyllbot
# <jekyllbot@jekyllrb.com>`, whose changelog lines titled people's pull requests); a longer
# stem than a surname's (Talbot, Abbot).
_HANDLE_BOT = re.compile(r"^[a-z][a-z0-9]{4,}bot$")


def compile_patterns(extra_patterns: Iterable[str]) -> list[re.Pattern[str]]:
    return [re.compile(p) for p in extra_patterns]


def is_bot_identity(name: str, email: str, extra: list[re.Pattern[str]] = ()) -> bool:
    name = (name or "").strip()
    email = (email or "").strip().lower()
    if _APP.search(name) or _APP.search(email):
        return True
    if email in KNOWN_BOT_EMAILS or name.lower() in KNOWN_BOT_NAMES:
        return True
    local = email.split("@", 1)[0].split("+", 1)[-1]
    if _BOT_WORD.search(local) or (" " not in name and _BOT_WORD.search(name)):
        return True
    if _HANDLE_BOT.match(name) and local == name:
        return True
    if any(p.search(name) or p.search(email) for p in SERVICE_ACCOUNTS):
        return True
    return any(p.search(name) or p.search(email) for p in extra)


def is_sync_account(names: Iterable[str], committed_by_bot_only: bool) -> bool:
    """Rule 5: every name of the identity is a machine handle and a bot committed all its commits."""
    names = [n.strip() for n in names if n and n.strip()]
    return bool(committed_by_bot_only and names and all(SYNC_HANDLE.match(n) for n in names))
