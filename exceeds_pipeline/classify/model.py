"""A linear commit-category model: features of a commit, scored with shipped weights.

The weights (`category_model.json`, next to this file) come from `benchmarks/train_classifier.py`
(scikit-learn logistic regression, a training-only dependency); at run time scoring is Polars
joins and sums, no numpy or scikit-learn.

**Features** of one commit, each a (name, value) pair:

- the subject's *head* (tags, issue keys, Conventional-Commit and component prefixes removed;
  `categories.normalise_messages`): its first word `f:<w>`, first two words `f2:<w w>`, every
  word `w:<w>` and every pair of adjacent words `b:<w w>`;
- the first lines of the body, trailers, URLs and quoted logs removed: every word `body:<w>`
  (links, trailers and URLs are not evidence of what a change is);
- the rule scores of `categories` (the lexicon's leading verb, verb + object phrases and word
  families): `rule:<category>` = log(1 + score), and `top:<category>` for the best one;
- what the change touched (when file changes are known): `only:test`, `only:docs`,
  `only:build`, shares of test / docs / build files, `new_src` (new non-test source files),
  `new_test`, `del_files`, log(1 + lines added), log(1 + lines deleted), the deleted share,
  log(1 + files); `nofiles` when the diff is unknown.

**Score** per category = bias + sum(weight x value); the highest wins.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import polars as pl

MODEL_PATH = Path(__file__).with_name("category_model.json")

_WORD = r"[a-z][a-z0-9_']*[a-z0-9]|[a-z]"
_URL = r"https?://\S+|www\.\S+"
_QUOTED = r"(?m)^\s*(?:>|\$ |\| ).*$"  # quoted mail, shell prompts and table lines
BODY_WORDS = 60  # only the start of a long body describes the change


def _body_text(body: pl.Expr) -> pl.Expr:
    return body.str.replace_all(_URL, " ").str.replace_all(_QUOTED, " ").str.replace_all(r"```[\s\S]*?```", " ")


def text_features(frame: pl.DataFrame, scored: tuple[str, ...]) -> pl.DataFrame:
    """Long table (_i, feature, value) from `_i`, `_head`, `_body` and the `_s_<cat>` scores."""
    heads = frame.select(
        "_i",
        pl.col("_head").str.replace_all(_URL, " ").str.extract_all(_WORD).alias("_w"),
    )
    h = heads.explode("_w", empty_as_null=False).drop_nulls("_w").with_columns(
        pl.int_range(pl.len()).over("_i").alias("_p")
    )
    nxt = h.with_columns(pl.col("_w").shift(-1).over("_i").alias("_nx"))
    parts = [
        h.select("_i", (pl.lit("w:") + pl.col("_w")).alias("feature")),
        nxt.drop_nulls("_nx").select("_i", (pl.lit("b:") + pl.col("_w") + " " + pl.col("_nx")).alias("feature")),
        h.filter(pl.col("_p") == 0).select("_i", (pl.lit("f:") + pl.col("_w")).alias("feature")),
        nxt.filter(pl.col("_p") == 0).drop_nulls("_nx").select(
            "_i", (pl.lit("f2:") + pl.col("_w") + " " + pl.col("_nx")).alias("feature")
        ),
    ]
    body = frame.select(
        "_i", _body_text(pl.col("_body")).str.extract_all(_WORD).list.head(BODY_WORDS).alias("_w")
    ).explode("_w", empty_as_null=False).drop_nulls("_w")
    parts.append(body.select("_i", (pl.lit("body:") + pl.col("_w")).alias("feature")))
    words = pl.concat(parts).unique(["_i", "feature"]).with_columns(pl.lit(1.0).alias("value"))

    score_cols = [f"_s_{c}" for c in scored]
    rules = frame.select("_i", *score_cols).unpivot(index="_i", variable_name="feature", value_name="value")
    rules = rules.filter(pl.col("value") > 0).select(
        "_i",
        (pl.lit("rule:") + pl.col("feature").str.strip_prefix("_s_")).alias("feature"),
        pl.col("value").cast(pl.Float64).log1p().alias("value"),
    )
    best = pl.concat_list(score_cols).list.arg_max()
    top = frame.filter(pl.max_horizontal(score_cols) > 0).select(
        "_i",
        (pl.lit("top:") + best.replace_strict(list(range(len(scored))), list(scored), return_dtype=pl.String)).alias("feature"),
        pl.lit(1.0).alias("value"),
    )
    return pl.concat([words, rules, top])


def change_features(frame: pl.DataFrame) -> pl.DataFrame:
    """Long table (_i, feature, value) from the per-commit path counts of `categories`."""
    n = pl.col("_n").cast(pl.Float64)
    known = frame.filter(pl.col("_n").fill_null(0) > 0)
    unknown = frame.filter(pl.col("_n").fill_null(0) == 0).select("_i", pl.lit("nofiles").alias("feature"), pl.lit(1.0).alias("value"))
    added = pl.col("lines_added").fill_null(0).cast(pl.Float64) if "lines_added" in frame.columns else pl.lit(0.0)
    deleted = pl.col("lines_deleted").fill_null(0).cast(pl.Float64) if "lines_deleted" in frame.columns else pl.lit(0.0)
    feats = {
        "only:test": ((pl.col("_n_test") > 0) & (pl.col("_n_test") + pl.col("_n_docs") == pl.col("_n"))).cast(pl.Float64),
        "only:docs": (pl.col("_n_docs") == pl.col("_n")).cast(pl.Float64),
        "only:build": (pl.col("_n_build") == pl.col("_n")).cast(pl.Float64),
        "share:test": pl.col("_n_test") / n,
        "share:docs": pl.col("_n_docs") / n,
        "share:build": pl.col("_n_build") / n,
        "new_src": (pl.col("_n_new_src") > 0).cast(pl.Float64),
        "new_test": (pl.col("_n_new_test") > 0).cast(pl.Float64),
        "del_files": (pl.col("_n_del") > 0).cast(pl.Float64),
        "log_added": added.log1p(),
        "log_deleted": deleted.log1p(),
        "deleted_share": pl.when(added + deleted > 0).then(deleted / (added + deleted)).otherwise(0.0),
        "log_files": n.log1p(),
    }
    wide = known.select("_i", *[expr.cast(pl.Float64).alias(name) for name, expr in feats.items()])
    long = wide.unpivot(index="_i", variable_name="feature", value_name="value").filter(pl.col("value") != 0)
    return pl.concat([long, unknown])


def features(frame: pl.DataFrame, scored: tuple[str, ...]) -> pl.DataFrame:
    """All features of the commits in `frame` (the internal frame of `categories._classify`)."""
    return pl.concat([text_features(frame, scored), change_features(frame)])


@lru_cache(maxsize=1)
def load_model(path: str | None = None) -> tuple[list[str], pl.DataFrame, pl.DataFrame] | None:
    """(classes, bias table (cat, bias), weights table (feature, cat, w)) or None if absent."""
    file = Path(path) if path else MODEL_PATH
    if not file.exists():
        return None
    data = json.loads(file.read_text(encoding="utf-8"))
    classes = data["classes"]
    names = list(data["weights"])
    weights = pl.DataFrame({"feature": names, "_w": [data["weights"][f] for f in names]},
                           schema={"feature": pl.String, "_w": pl.List(pl.Float64)})
    weights = weights.with_columns(pl.lit(classes).alias("cat")).explode("_w", "cat").rename({"_w": "w"}).filter(pl.col("w") != 0)
    bias = pl.DataFrame({"cat": classes, "bias": [float(b) for b in data["bias"]]})
    return classes, bias, weights


def model_scores(feats: pl.DataFrame, ids: pl.Series) -> pl.DataFrame | None:
    """(_i, cat, score) for every commit in `ids` and every class, or None without a model."""
    model = load_model()
    if model is None:
        return None
    classes, bias, weights = model
    sums = feats.join(weights, on="feature", how="inner").group_by("_i", "cat").agg(
        (pl.col("value") * pl.col("w")).sum().alias("_sum")
    )
    grid = pl.DataFrame({"_i": ids}).join(bias, how="cross")
    return (
        grid.join(sums, on=["_i", "cat"], how="left")
        .select("_i", "cat", (pl.col("bias") + pl.col("_sum").fill_null(0.0)).alias("score"))
    )


def predict(feats: pl.DataFrame, ids: pl.Series) -> pl.DataFrame | None:
    """(_i, model_category, model_margin): the best class and its lead over the second."""
    scores = model_scores(feats, ids)
    if scores is None:
        return None
    ranked = scores.sort(["_i", "score"], descending=[False, True]).group_by("_i", maintain_order=True).agg(
        pl.col("cat").first().alias("model_category"),
        (pl.col("score").first() - pl.col("score").get(1, null_on_oob=True)).alias("model_margin"),
    )
    return ranked
