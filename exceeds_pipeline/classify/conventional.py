"""Conventional-Commit histories as labelled data: the typed prefix is the label.

`label_conventional(commits)` keeps the commits whose subject starts with a Conventional-Commit
type (`feat:`, `fix(parser)!:`, `Revert "feat: x"`), records the type's category as `label`
and strips the prefix from `subject`, from the first line of `message` and from the typed bullets of
a squash merge's body (`* fix(x): ...`), so a classifier sees
what a repository without the convention would write. The diff (file changes) is untouched.

Used by the accuracy benchmark and the training script; the pipeline uses `PREFIX` and `TYPE_LABELS`
(links match a typed `revert: <subject>` without the types; a PR title's declared type labels its
work item).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from exceeds_pipeline.common.yamlfile import load_yaml

# type -> category (what a reader of the project calls it).
TYPE_LABELS: dict[str, str] = {
    "feat": "feature", "feature": "feature",
    "fix": "bug", "bugfix": "bug", "hotfix": "bug",
    "perf": "perf",
    "refactor": "refactor", "style": "refactor",
    "docs": "docs", "doc": "docs",
    "test": "test", "tests": "test",
    "build": "build", "ci": "build", "deps": "build",
    "chore": "chore", "release": "chore",
    "revert": "revert",
}
_TYPES = "|".join(sorted(TYPE_LABELS, key=len, reverse=True))
PREFIX = rf"^\s*(?i:({_TYPES}))(?:\([^)\n]{{0,80}}\))?!?:\s*"
# A typed bullet of a squash merge's body (`* fix(parser): handle tabs`): the branch's commits
# carry the label too, so it is stripped there as well, or the label would leak to the model.
_TYPED_BULLET = rf"(?m)^([ \t]*[*+-][ \t]+)(?i:{_TYPES})(?:\([^)\n]{{0,80}}\))?!?:[ \t]*"
_REVERT_QUOTED = r'^\s*Revert\s+"'


_GITMOJI = load_yaml(Path(__file__).with_name("gitmoji.yaml"))
# gitmoji code (`:bug:`) or emoji (`🐛`) -> category
GITMOJI_LABELS: dict[str, str] = {
    key: category for category, codes in _GITMOJI.items() for code, emoji in codes.items() for key in (f":{code}:", emoji)
}
# Emoji, as characters so that Polars and `re` read the class alike (arrows, symbols, pictographs).
EMOJI_CHARS = "\u2190-\u21ff\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\U0001f300-\U0001faff"
# one mark: a gitmoji code or an emoji (with its variation selector or joiner)
_MARK = r"(?::[a-z0-9_+-]+:|[" + EMOJI_CHARS + r"][\ufe0f\u200d]*)"
# the marks opening a subject, after a list bullet
_LEADING_MARKS = rf"^\s*(?:[-*•]\s+)?((?:{_MARK}\s*)+)"


def declared_type(subject: pl.Expr) -> pl.Expr:
    """The category a subject's Conventional-Commit type declares (`fix(x): ...` -> bug), or else
    its opening gitmoji (`:zap: avoid string in case of empty objects` -> perf), else null."""
    typed = subject.str.extract(PREFIX, 1).str.to_lowercase().replace_strict(
        TYPE_LABELS, default=None, return_dtype=pl.String)
    return pl.coalesce(typed, gitmoji_type(subject))


def gitmoji_type(subject: pl.Expr) -> pl.Expr:
    """The category the gitmoji opening a subject declare (`:zap: ...` -> perf, `🐛 ...` -> bug,
    `:heavy_minus_sign: :heavy_plus_sign: ...` -> build; gitmoji.yaml), else null. Marks that
    decorate are no type: one of no kind among them (black's `✨ 🍰 ✨ ...`), or the same mark at
    both ends (requests' `:sparkles: 2012 :sparkles:`)."""
    leading = subject.str.extract(_LEADING_MARKS, 1).str.extract_all(_MARK).list.eval(
        pl.element().str.replace_all("[\ufe0f\u200d]", ""))
    marks = leading.list.eval(pl.element().replace_strict(GITMOJI_LABELS, default="", return_dtype=pl.String))
    # the same mark at the end as at the start frames the subject; another one at the end is a
    # flourish (FastAPI's `:bookmark: Release 0.44.0, with support for Pydantic v1 and above! :tada:`)
    trailing = subject.str.extract(rf"({_MARK})\s*$", 1).str.replace_all("[\ufe0f\u200d]", "")
    decorated = leading.list.contains(trailing).fill_null(False) & ~subject.str.contains(rf"^(?:\s*{_MARK})+\s*$")
    one = (marks.list.n_unique() == 1) & (marks.list.first() != "") & ~decorated
    return pl.when(one).then(marks.list.first())


def fold3(category: pl.Expr) -> pl.Expr:
    """feature -> feature, bug -> bug, anything else -> other."""
    return pl.when(category.is_in(["feature", "bug"])).then(category).otherwise(pl.lit("other"))


def label_conventional(commits: pl.DataFrame) -> pl.DataFrame:
    """Typed commits only, with `label` (category of the type; `Revert "…"` -> revert) and the
    prefix stripped from `subject` and `message` (also inside `Revert "type: …"`)."""
    subject = pl.col("subject").fill_null("")
    revert = subject.str.contains(_REVERT_QUOTED)
    inner = subject.str.replace(_REVERT_QUOTED, "")
    typ = pl.when(revert).then(inner.str.extract(PREFIX, 1)).otherwise(subject.str.extract(PREFIX, 1))
    out = commits.with_columns(typ.str.to_lowercase().alias("conventional_type")).filter(
        pl.col("conventional_type").is_not_null()
    )
    label = pl.when(subject.str.contains(_REVERT_QUOTED)).then(pl.lit("revert")).otherwise(
        pl.col("conventional_type").replace_strict(TYPE_LABELS, default="other", return_dtype=pl.String)
    )
    strip_subject = (
        pl.when(subject.str.contains(_REVERT_QUOTED))
        .then(pl.lit('Revert "') + subject.str.replace(_REVERT_QUOTED, "").str.replace(PREFIX, ""))
        .otherwise(subject.str.replace(PREFIX, ""))
    )
    message = pl.col("message").fill_null("")
    first_line = message.str.extract(r"^([^\n]*)", 1)
    rest = message.str.slice(first_line.str.len_chars())
    return out.with_columns(label.alias("label")).with_columns(
        strip_subject.alias("subject"),
        # The message's first line is the subject: replace it with the stripped one.
        pl.when(first_line == subject).then(strip_subject + rest).otherwise(message)
        .str.replace_all(_TYPED_BULLET, "$1").alias("message"),
    )
