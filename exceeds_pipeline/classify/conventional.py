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

import polars as pl

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


def declared_type(subject: pl.Expr) -> pl.Expr:
    """The category a subject's Conventional-Commit type declares (`fix(x): ...` -> bug), else null."""
    return subject.str.extract(PREFIX, 1).str.to_lowercase().replace_strict(
        TYPE_LABELS, default=None, return_dtype=pl.String)


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
