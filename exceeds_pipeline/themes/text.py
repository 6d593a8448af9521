"""Work-item titles as prose and as evidence: wrappers, tags and scopes taken apart.

``Reapply "[dynamo] Support type inspection on unrealized LazyConstantVariables (#169513)" (#180856)``
gives the clean title ``Support type inspection on unrealized LazyConstantVariables``, the tags
``["dynamo"]`` and the wrapper ``reapply``. The raw title stays in the data; only prose uses
the clean one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import yaml

__all__ = ["CleanTitle", "clean_title", "display_words", "lexicon", "title_terms"]

_WRAPPER = re.compile(
    r"""^\s*(?P<kind>revert|reapply|re-apply|reland|re-land|relanding|back\s*out|unrevert)(?:ing)?\b
        \s*(?:D\d+\s*:\s*|\#\d+\s*:?\s*)?                      # Phabricator `Revert D123:` / `#12:`
        (?:(?P<q>["'“‘`]{1,2})(?P<inner>.*?)(?P=q)?|\s*:?\s*(?P<bare>.*?))\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_QUOTED = re.compile(r"""^\s*["'“‘`]+(?P<inner>.*?)["'”’`]+\s*$""")
_PR_SUFFIX = re.compile(r"\s*\((?:#|PR\s*#?|GH-)\d+\)\s*")
_PR_REFS = re.compile(r"\s*(?:\((?:fixes|closes|refs?|see)\s+#\d+\)|\b(?:fixes|closes|refs?)\s+#\d+\.?)\s*", re.I)
_TAGS = re.compile(r"^\s*\[(?P<tag>[^\]\n]{1,40})\]\s*")
_CONVENTIONAL = re.compile(r"^\s*(?P<type>[A-Za-z]+)(?:\((?P<scope>[^)\n]{1,60})\))?!?:\s+")
_COMPONENT = re.compile(r"^\s*(?P<comp>[A-Za-z0-9_][A-Za-z0-9_./-]{0,40}):\s+")
_SERIES = re.compile(r"^\s*(?:\[?\s*(?:PATCH\s*)?(?:v\d+\s+)?\d{1,3}\s*/\s*\d{1,3}\s*\]?\s*:?\s*)", re.I)
_MERGE_PR = re.compile(r"^Merge pull request #\d+ from \S+\s*", re.I)
_CONVENTIONAL_TYPES = frozenset(
    "feat feature fix bugfix hotfix perf refactor style doc docs test tests build ci chore revert "
    "deps release wip improvement enhancement security".split()
)
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[.+#-][A-Za-z0-9_]+)*[+#]*|\d+(?:\.\d+)+")


@lru_cache(maxsize=1)
def lexicon() -> dict[str, frozenset[str]]:
    """The word lists of ``lexicon.yaml`` (lower-cased sets)."""
    text = resources.files("exceeds_pipeline.themes").joinpath("lexicon.yaml").read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    return {key: frozenset(str(v).lower() for v in (values or [])) for key, values in doc.items() if key != "display"}


@lru_cache(maxsize=1)
def display_words() -> dict[str, str]:
    """``lexicon.yaml`` display: how a word is written in a theme name (``cli`` -> ``CLI``)."""
    text = resources.files("exceeds_pipeline.themes").joinpath("lexicon.yaml").read_text(encoding="utf-8")
    return {str(k).lower(): str(v) for k, v in (yaml.safe_load(text).get("display") or {}).items()}


@dataclass(frozen=True)
class CleanTitle:
    text: str  # for prose
    tags: tuple[str, ...]  # subject tags and conventional / component scopes, lower-case
    wrapper: str | None  # "revert" / "reapply" / "reland" when the title wraps another


@lru_cache(maxsize=1 << 18)  # themes, work items and narratives of one run ask for the same texts
def clean_title(raw: str | None) -> CleanTitle:
    """Strip `Revert "…"`/`Reapply "…"` wrappers, quotes, PR numbers, tags and prefixes."""
    text = re.sub(r"\s+", " ", raw or "").strip()
    text = _MERGE_PR.sub("", text)
    wrapper = None
    for _ in range(4):  # Revert "Reapply "…"" nests
        m = _WRAPPER.match(text)
        if not m or not (m.group("inner") or m.group("bare")):
            break
        kind = m.group("kind").lower().replace("-", "").replace(" ", "")
        wrapper = wrapper or ("reapply" if kind in ("reapply", "reland", "relanding", "unrevert") else "revert")
        text = (m.group("inner") or m.group("bare") or "").strip()
        text = _PR_SUFFIX.sub(" ", text).strip().strip("\"'“”‘’`").strip()
    tags: list[str] = []
    generic = lexicon()["generic_tags"]
    for _ in range(6):
        before = text
        text = _PR_SUFFIX.sub(" ", text).strip()
        text = _PR_REFS.sub(" ", text).strip()
        m = _QUOTED.match(text)
        if m:
            text = m.group("inner").strip()
        text = _SERIES.sub("", text)
        m = _TAGS.match(text)
        if m:
            for tag in re.split(r"[,|]\s*", m.group("tag")):
                tags.append(tag.strip().lower())
            text = text[m.end():]
        m = _CONVENTIONAL.match(text)
        if m and m.group("type").lower() in _CONVENTIONAL_TYPES:
            if m.group("scope"):
                tags.extend(s.strip().lower() for s in re.split(r"[,/|]\s*", m.group("scope")))
            text = text[m.end():]
        else:
            m = _COMPONENT.match(text)
            if m and m.group("comp").lower() not in _CONVENTIONAL_TYPES and " " in text[m.end():].strip():
                tags.append(m.group("comp").lower())
                text = text[m.end():]
        if text == before:
            break
    text = re.sub(r"\s*[\[(]\s*(?:\d{1,3}|[a-z])\s*/\s*(?:\d{1,3}|n)\s*[\])]\s*", " ", text, flags=re.I)
    text = re.sub(r"\s+", " ", text).strip().rstrip(".").strip()
    if text and text[0].islower() and not re.match(r"^[a-z]+[A-Z_.(]", text):
        text = text[0].upper() + text[1:]
    kept = tuple(dict.fromkeys(t for t in tags if t and t not in generic and not re.fullmatch(r"[\d\s/v.]+", t)))
    return CleanTitle(text=text or re.sub(r"\s+", " ", raw or "").strip(), tags=kept, wrapper=wrapper)


def title_terms(text: str, max_n: int = 3) -> set[str]:
    """Lower-cased word n-grams (1..max_n) of a clean title that neither start nor end with a
    stopword; a version like ``3.14`` counts as a word."""
    lex = lexicon()
    stop = lex["stopwords"]
    words = [w.lower() for w in _TOKEN.findall(text)]
    out: set[str] = set()
    for n in range(1, max_n + 1):
        for i in range(len(words) - n + 1):
            gram = words[i:i + n]
            if any(g in stop for g in gram):
                continue
            if n == 1 and (gram[0] in lex["generic_terms"] or len(gram[0]) < 3 or gram[0].isdigit()):
                continue
            if all(re.fullmatch(r"[\d.]+", g) for g in gram):
                continue
            out.add(" ".join(gram))
    return out
