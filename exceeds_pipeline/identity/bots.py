"""Which identities are bots: recorded in `people.is_bot`, never profiled.

Built-in rules (any match makes the whole person a bot):
1. GitHub App identities: `[bot]` in the name or e-mail (`dependabot[bot]`, `claude[bot]`).
2. Known automation accounts below (exact e-mails, or logins with GitHub's numeric ids).
3. A name or e-mail local part that ends in a separate `bot`/`robot` word (`k8s-ci-robot`,
   `facebook-github-bot`, `ci_bot`), never a name merely ending in the letters (`Talbot`).
4. The config's `bots.extra_patterns` (regular expressions searched in the name and e-mail).
"""

from __future__ import annotations

import re
from typing import Iterable

KNOWN_BOT_EMAILS = frozenset(
    {
        "49699333+dependabot[bot]@users.noreply.github.com",
        "support@dependabot.com",
        "41898282+github-actions[bot]@users.noreply.github.com",
        "action@github.com",
        "actions@github.com",
        "bot@renovateapp.com",
        "29139614+renovate[bot]@users.noreply.github.com",
        "66853113+pre-commit-ci[bot]@users.noreply.github.com",
        "snyk-bot@snyk.io",
        "facebook-github-bot@users.noreply.github.com",
        "6422482+facebook-github-bot@users.noreply.github.com",
        "pytorchmergebot@users.noreply.github.com",
        "97764156+pytorchmergebot@users.noreply.github.com",
        "pytorchbot@users.noreply.github.com",
        "21957446+pytorchbot@users.noreply.github.com",
        "gardener@tensorflow.org",
        "copybara-worker@google.com",
        "198982749+copilot@users.noreply.github.com",  # GitHub Copilot coding agent
        "cursoragent@cursor.com",  # Cursor background agent
        "noreply@weblate.org",
        "greenkeeper[bot]@users.noreply.github.com",
    }
)
KNOWN_BOT_NAMES = frozenset(
    {"dependabot", "renovate", "github actions", "pytorchmergebot", "pytorchbot", "tensorflower-gardener", "copybara-service", "greenkeeper", "mergify"}
)

_APP = re.compile(r"\[bot\]", re.IGNORECASE)
_BOT_WORD = re.compile(r"(?:^|[-_.\s])(?:ro)?bot$", re.IGNORECASE)


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
    return any(p.search(name) or p.search(email) for p in extra)
