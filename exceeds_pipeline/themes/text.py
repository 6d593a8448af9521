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

import polars as pl

from exceeds_pipeline.classify.categories import CI_DIRECTIVE, COMPONENT_NAMES, LEADING_MARK, MIN_TITLE_WORDS, MIN_TYPED_TITLE_WORDS
from exceeds_pipeline.classify.links import PR_MERGE_HEAD
from exceeds_pipeline.common.yamlfile import load_yaml

__all__ = ["CleanTitle", "clean_title", "display_words", "lexicon", "title_ngrams", "title_terms"]

# (`Revert back to an OnSubscribe-based adapter`, `Revert to the old parser` go back to an
# approach: no commit's subject is wrapped, and the verb stays)
_WRAPPER = re.compile(
    r"""^\s*(?P<kind>revert|reapply|re-apply|reland|re-land|relanding|back\s*out|unrevert)(?:ing)?\b
        \s*(?:D\d+\s*:\s*|\#\d+\s*:?\s*)?                      # Phabricator `Revert D123:` / `#12:`
        (?:(?P<q>["'“‘`]{1,2})(?P<inner>.*?)(?P=q)?|(?![\s:]*(?:back|to)\b)\s*:?\s*(?P<bare>.*?))\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_QUOTED = re.compile(r"""^\s*["'“‘`]+(?P<inner>.*?)["'”’`]+\s*$""")
_PR_SUFFIX = re.compile(r"\s*\((?:#|PR\s*#?|GH-)\d+\)\s*")
# Credit and tracker clauses that end a subject: `..., reported by David C.`, `GitHub issue 2996`,
# `..., as reported by X` (curl's "default proxy port set, as reported by ..." had read "Default
# proxy port set, as"; a subject that opens with the credit keeps all of it).
_CREDIT = re.compile(r"(?:[,.;:]|\s-)?\s*(?:\b(?:as\s+)?(?:reported|suggested|requested|noticed|diagnosed|found|prompted|pointed out)"
                     r"\s+by\b.*|\b(?:GitHub|GH)\s+issue\s+#?\d+.*)$"
                     # whose patch it is (tmux: "Handle focus events from the terminal, from Aaron
                     # Jensen.", "..., based on work by Aaron Jensen"): a name, not an area
                     r"|(?:[,;]\s*|[,;]?\s+(?:based\s+on|extracted\s+from)\s+(?:work|a\s+diff|a\s+patch|code)\s+)"
                     r"(?-i:(?:from|by)\s+[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)+)\s*\.?$"
                     # ... or an address spelled out against spam ("from shik dot chen at gmail dot com")
                     r"|[,.;]?\s*\b(?:from|by)\s+(?:\S+\s+){1,4}at\s+\S+(?:\s+dot\s+\S+)+\s*\.?$", re.I)
_IN_PATH = re.compile(r"\s+in\s+[\w.+-]*(?:/[\w.+-]+)+\s*$|\s+in\s+[\w+-]+\.[A-Za-z0-9]{1,6}\s*$")
_PR_REFS = re.compile(r"\s*(?:[(\[](?:fixes|closes|refs?|see)\s+#\d+(?:\s*,\s*#\d+)*[)\]]|" + CI_DIRECTIVE +
                      r"|\b(?:fixes|closes|refs?)\s+#\d+\.?"
                      r"|,?\s*\[ticket:\d+\]|\(ticket\s*#\d+\))\s*", re.I)  # and Trac's `[ticket:742]`
_TAGS = re.compile(r"^\s*\[(?P<tag>[^\]\n]{1,40})\]\s*")
_CONVENTIONAL = re.compile(r"^\s*(?P<type>[A-Za-z]+)(?:\((?P<scope>[^)\n]{1,60})\))?!?:\s+")
_COMPONENT = re.compile(rf"^\s*(?P<comp>{COMPONENT_NAMES}):\s+")
# A component that names every component (tornado's `*: Finish adding type annotations`)
_EVERY_COMPONENT = re.compile(r"^\s*\*+\s*:\s+")
_SERIES = re.compile(r"^\s*(?:\[?\s*(?:PATCH\s*)?(?:v\d+\s+)?\d{1,3}\s*/\s*\d{1,3}\s*\]?\s*:?\s*)", re.I)
_MERGE_PR = re.compile(rf"^{PR_MERGE_HEAD}\d+ from \S+\s*", re.I)
_CONVENTIONAL_TYPES = frozenset(
    "feat feature fix bugfix hotfix perf refactor style doc docs test tests build ci chore revert "
    "deps release wip improvement enhancement security".split()
)
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[.+#-][A-Za-z0-9_]+)*[+#]*|\d+(?:\.\d+)+")
# compiled once: clean_title runs for every distinct subject and title of a run
_SPACES = re.compile(r"\s+")
_TAG_SPLIT = re.compile(r"[,|]\s*")
_SCOPE_SPLIT = re.compile(r"[,/|]\s*")
_SERIES_MARK = re.compile(r"\s*[\[(]\s*(?:\d{1,3}|[a-z])\s*/\s*(?:\d{1,3}|n)\s*[\])]\s*", re.I)
_CODE_START = re.compile(r"^[a-z]+[A-Z_.(]")
_NUMBERS_ONLY = re.compile(r"[\d\s/v.]+")
# What prose never repeats from a subject: e-mail addresses (`Paul M <pm@example.com> fixed`),
# links, and the bullet of a CHANGES-style first line (`- Fixed ...`).
_ADDRESS = re.compile(r"\s*(?:<[^<>\s]+@[^<>\s]+>|\(?\bhttps?://[^\s)]+\)?|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b)")
_BULLET = re.compile(LEADING_MARK)
# ... but a link to an issue says which issue: `Fixed https://github.com/google/gson/issues/1310`
# is "Fixed issue 1310" (gson's had read "Fixed" alone; "fixed and issue 1242" in a month's list)
_ISSUE_LINK = re.compile(r"\(?\bhttps?://\S*?/(?:issues?/(?:detail\?id=)?|show_bug\.cgi\?id=)(\d+)[^\s)]*\)?")
_PULL_LINK = re.compile(r"\(?\bhttps?://\S*?/(?:pull|pulls|merge_requests)/(\d+)[^\s)]*\)?")
_DOUBLED_ISSUE = re.compile(r"(?i)\b(issue|bug|ticket)\s+issue\b")  # `Fixed issue <link>`


@lru_cache(maxsize=1)
def lexicon() -> dict[str, frozenset[str]]:
    """The word lists of ``lexicon.yaml`` (lower-cased sets)."""
    text = resources.files("exceeds_pipeline.themes").joinpath("lexicon.yaml").read_text(encoding="utf-8")
    doc = load_yaml(text)
    return {key: frozenset(str(v).lower() for v in (values or [])) for key, values in doc.items() if key != "display"}


@lru_cache(maxsize=1)
def display_words() -> dict[str, str]:
    """``lexicon.yaml`` display: how a word is written in a theme name (``cli`` -> ``CLI``)."""
    text = resources.files("exceeds_pipeline.themes").joinpath("lexicon.yaml").read_text(encoding="utf-8")
    return {str(k).lower(): str(v) for k, v in (load_yaml(text).get("display") or {}).items()}


@dataclass(frozen=True)
class CleanTitle:
    text: str  # the words of the change, its component dropped before a long phrase (themes' terms)
    tags: tuple[str, ...]  # subject tags and conventional / component scopes, lower-case
    wrapper: str | None  # "revert" / "reapply" / "reland" when the title wraps another
    prose: str = ""  # for prose: `text` with its component, as work-item titles keep it


@lru_cache(maxsize=1 << 18)  # themes, work items and narratives of one run ask for the same texts
def clean_title(raw: str | None) -> CleanTitle:
    """Strip `Revert "…"`/`Reapply "…"` wrappers, quotes, PR numbers, tags and prefixes."""
    linked = _PULL_LINK.sub(r"pull request \1", _ISSUE_LINK.sub(r"issue \1", raw or ""))
    linked = _DOUBLED_ISSUE.sub(r"\1", linked)
    text = _SPACES.sub(" ", _ADDRESS.sub("", linked)).strip()
    text = _BULLET.sub("", _MERGE_PR.sub("", text))
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
    component = ""  # the component prefix taken off `text`, which prose keeps
    generic = lexicon()["generic_tags"]
    for _ in range(6):
        before = text
        text = _PR_SUFFIX.sub(" ", text).strip()
        text = _PR_REFS.sub(" ", text).strip()
        text = _CREDIT.sub("", text).strip() or text
        m = _QUOTED.match(text)
        if m:
            text = m.group("inner").strip()
        text = _EVERY_COMPONENT.sub("", _SERIES.sub("", text))
        m = _TAGS.match(text)
        if m:
            for tag in _TAG_SPLIT.split(m.group("tag")):
                tags.append(tag.strip().lower())
            text = text[m.end():]
        m = _CONVENTIONAL.match(text)
        if m and m.group("type").lower() in _CONVENTIONAL_TYPES:
            if m.group("scope"):
                tags.extend(s.strip().lower() for s in _SCOPE_SPLIT.split(m.group("scope")))
            text = text[m.end():]
        else:
            m = _COMPONENT.match(text)
            words = len(text[m.end():].split()) if m else 0
            if m and m.group("comp").lower() not in _CONVENTIONAL_TYPES and words >= MIN_TYPED_TITLE_WORDS:
                # the area is a tag before a phrase; it stays in the text before a short one
                tags.extend(c.strip().lower() for c in m.group("comp").split(","))
                if words >= MIN_TITLE_WORDS:
                    component = component + text[:m.end()]
                    text = text[m.end():]
        if text == before:
            break
    text = _SERIES_MARK.sub(" ", text)
    text = _SPACES.sub(" ", text).strip()
    # `…, fixes #608` leaves a comma, `… — fixes #910` a dash (svelte's summary had ended
    # "implement bind:indeterminate —."); a path pattern keeps its dots (`Run go fix ./...`)
    text = (text if text.endswith("/...") else re.sub(r"(?:\s+[-–—]+|[.,;:])+$", "", text)).strip()
    as_written = text
    # a component kept before a short phrase stays as the project writes it (`cli: add --foo`)
    if text and text[0].islower() and not _CODE_START.match(text) and not _COMPONENT.match(text):
        text = text[0].upper() + text[1:]
    kept = tuple(dict.fromkeys(t for t in tags if t and t not in generic and not _NUMBERS_ONLY.fullmatch(t)))
    text = text or _SPACES.sub(" ", raw or "").strip()
    # prose names the change with its area, as its title does (redis's "LPOS: implement the
    # final design.", not "Implement the final design")
    prose = _SPACES.sub(" ", component + as_written).strip() if component and as_written else text
    # the file a title names as where it changed things (`Fix #14610 in lib/dependencies/X.js`)
    # is no theme: webpack's "lib dependencies" had become a theme of 20 items
    text = _IN_PATH.sub("", text).strip() or text
    return CleanTitle(text=text, tags=kept, wrapper=wrapper, prose=prose)


def _file_name(lex: dict[str, frozenset[str]]) -> pl.Expr:
    """A title word that names a file (`stale.yml`, `_utils.py`): no part of a theme term. A
    capitalised `Node.js` names a product, not a file."""
    extensions = "|".join(sorted(map(re.escape, lex["code_extensions"] | lex["data_extensions"])))
    named = pl.col("_low").str.contains(rf"^[\w./+-]*\w\.(?:{extensions})$")
    return named & ~pl.col("word").str.contains(r"^[A-Z][\w.]*\.js$")


def title_ngrams(frame: pl.DataFrame, id_col: str, text_col: str, max_n: int = 3) -> pl.DataFrame:
    """Every word n-gram (1..max_n) of each text: ``[id_col, pos, written, gram, is_term]``.

    ``written`` is the n-gram as written (a sentence-initial capital lowered: "Add" -> "add"),
    ``gram`` lower-cased; ``is_term`` says whether it is a title term: it neither starts nor ends
    with (nor holds) a stopword or a file name, a single word is not generic and has at least 3 letters, and
    it is not only numbers. A version like ``3.14`` counts as a word. Vectorised: one row per
    n-gram, no per-text Python."""
    lex = lexicon()
    stop = sorted(lex["stopwords"])
    words = (
        frame.select(pl.col(id_col), pl.col(text_col).str.extract_all(_TOKEN.pattern).alias("word"))
        .explode("word", empty_as_null=False).drop_nulls("word")
        .with_columns(pl.col("word").str.to_lowercase().alias("_low"))
    )
    if words.height == 0:
        return pl.DataFrame(schema={id_col: frame.schema[id_col], "pos": pl.Int64, "written": pl.String,
                                    "gram": pl.String, "is_term": pl.Boolean})
    same = [pl.col(id_col).shift(-k) == pl.col(id_col) for k in range(max_n)]
    words = words.with_columns(
        pl.int_range(pl.len()).over(id_col).alias("pos"),
        # (an issue written as one word, urfave/cli's `issue_1916`, names the tracker)
        (pl.col("_low").is_in(stop) | _file_name(lex)
         | pl.col("_low").str.contains(r"^(?:issues?|gh|pr|bug|ticket)[_#-]?\d+$")).alias("_stop"),
        pl.col("_low").str.contains(r"^[\d.]+$").alias("_num"),
    )
    lowered_first = pl.when((pl.col("pos") == 0) & pl.col("word").str.contains(r"^[A-Z][a-z0-9]+$")) \
        .then(pl.col("_low")).otherwise(pl.col("word"))
    parts = []
    for n in range(1, max_n + 1):
        complete = pl.all_horizontal(same[:n]) if n > 1 else pl.lit(True)
        word, low, stopped, numeric = ([pl.col(c).shift(-k) for k in range(n)]
                                       for c in ("word", "_low", "_stop", "_num"))
        single_ok = (~pl.col("_low").is_in(sorted(lex["generic_terms"])) & (pl.col("_low").str.len_chars() >= 3)
                     & ~pl.col("_low").str.contains(r"^\d+$")) if n == 1 else pl.lit(True)
        parts.append(
            words.select(
                id_col, "pos",
                pl.concat_str([lowered_first, *word[1:]], separator=" ").alias("written"),
                pl.concat_str(low, separator=" ").alias("gram"),
                (~pl.any_horizontal(stopped) & single_ok & ~pl.all_horizontal(numeric)).alias("is_term"),
                complete.alias("_complete"),
            ).filter(pl.col("_complete").fill_null(False)).drop("_complete")
        )
    return pl.concat(parts)


def title_terms(text: str, max_n: int = 3) -> set[str]:
    """Lower-cased word n-grams (1..max_n) of a clean title that are title terms
    (:func:`title_ngrams`)."""
    grams = title_ngrams(pl.DataFrame({"id": [0], "text": [text]}), "id", "text", max_n)
    return set(grams.filter("is_term")["gram"].to_list())
