"""A linear commit-category model: features of a commit, scored with shipped weights.

The weights (`category_model.json`, next to this file) come from `benchmarks/train_classifier.py`
(scikit-learn logistic regression, a training-only dependency); at run time scoring is Polars
joins and sums, no numpy or scikit-learn.

**Features** of one commit, each a (name, value) pair:

- the subject's *head* (tags, issue keys, Conventional-Commit and component prefixes removed;
  `categories.normalise_messages`): every word `w:<w>` and every pair of adjacent words
  `b:<w w>`, except the lexicon's leading verbs (see `text_features`), which speak through
  the rule scores;
- the first lines of the body, trailers, URLs and quoted logs removed: every word `body:<w>`
  (links, trailers and URLs are not evidence of what a change is);
- the rule scores of `categories` (the lexicon's leading verb, verb + object phrases and word
  families): `rule:<category>` = log(1 + score), and `top:<category>` for the best one;
- what the change touched (when file changes are known): `only:test`, `only:docs`,
  `only:build`, shares of test / docs / build files, `new_src` (new non-test source files),
  `new_test`, `del_files`, log(1 + lines added), log(1 + lines deleted), the deleted share,
  log(1 + files), a size bin `size:xs..xl` of the lines changed, the kinds of files changed
  `ext:<extension>`; `nofiles` when the diff is unknown.

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


def _verbs() -> pl.Series:
    from exceeds_pipeline.classify.categories import lead_words

    return pl.Series(sorted(lead_words()), dtype=pl.String)


def text_features(frame: pl.DataFrame, scored: tuple[str, ...]) -> pl.DataFrame:
    """Long table (_i, feature, value) from `_i`, `_head`, `_body` and the `_s_<cat>` scores.

    Words of the lexicon's leading verbs (fix, add, refactor, ...) are left to the rule
    scores: in Conventional-Commit histories, the data the weights are learnt from, a subject
    rarely repeats its type (`fix: fix x`), so learnt weights for those words would say the
    opposite of what they say in a repository without the convention."""
    verbs = _verbs().implode()
    heads = frame.select(
        "_i",
        pl.col("_head").str.replace_all(_URL, " ").str.extract_all(_WORD).alias("_w"),
    )
    h = heads.explode("_w", empty_as_null=False).drop_nulls("_w").with_columns(
        pl.col("_w").is_in(verbs).alias("_verb")
    )
    nxt = h.with_columns(
        pl.col("_w").shift(-1).over("_i").alias("_nx"), pl.col("_verb").shift(-1).over("_i").alias("_nverb")
    )
    parts = [
        h.filter(~pl.col("_verb")).select("_i", (pl.lit("w:") + pl.col("_w")).alias("feature")),
        nxt.drop_nulls("_nx").filter(~pl.col("_verb") & ~pl.col("_nverb")).select(
            "_i", (pl.lit("b:") + pl.col("_w") + " " + pl.col("_nx")).alias("feature")
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
    # Shares leave out changelog entries (they go with any change); `only:docs` keeps them.
    changelog = pl.col("_n_changelog").fill_null(0).cast(pl.Float64) if "_n_changelog" in frame.columns else pl.lit(0.0)
    n_real = pl.max_horizontal(n - changelog, pl.lit(1.0))
    known = frame.filter(pl.col("_n").fill_null(0) > 0)
    unknown = frame.filter(pl.col("_n").fill_null(0) == 0).select("_i", pl.lit("nofiles").alias("feature"), pl.lit(1.0).alias("value"))
    added = pl.col("lines_added").fill_null(0).cast(pl.Float64) if "lines_added" in frame.columns else pl.lit(0.0)
    deleted = pl.col("lines_deleted").fill_null(0).cast(pl.Float64) if "lines_deleted" in frame.columns else pl.lit(0.0)
    feats = {
        "only:test": ((pl.col("_n_test") > 0) & (pl.col("_n_test") + pl.col("_n_docs") == pl.col("_n"))).cast(pl.Float64),
        "only:docs": (pl.col("_n_docs") == pl.col("_n")).cast(pl.Float64),
        "only:build": (pl.col("_n_build") == pl.col("_n")).cast(pl.Float64),
        "share:test": pl.col("_n_test") / n_real,
        "share:docs": (pl.col("_n_docs") - changelog) / n_real,
        "share:build": pl.col("_n_build") / n_real,
        "changelog": (changelog > 0).cast(pl.Float64),
        "new_src": (pl.col("_n_new_src") > 0).cast(pl.Float64),
        "new_test": (pl.col("_n_new_test") > 0).cast(pl.Float64),
        "del_files": (pl.col("_n_del") > 0).cast(pl.Float64),
        "log_added": added.log1p(),
        "log_deleted": deleted.log1p(),
        "deleted_share": pl.when(added + deleted > 0).then(deleted / (added + deleted)).otherwise(0.0),
        "log_files": n.log1p(),
    }
    changed = added + deleted
    bins = (
        pl.when(changed <= 5).then(pl.lit("size:xs")).when(changed <= 30).then(pl.lit("size:s"))
        .when(changed <= 150).then(pl.lit("size:m")).when(changed <= 600).then(pl.lit("size:l"))
        .otherwise(pl.lit("size:xl"))
    )
    wide = known.select("_i", *[expr.cast(pl.Float64).alias(name) for name, expr in feats.items()])
    long = wide.unpivot(index="_i", variable_name="feature", value_name="value").filter(pl.col("value") != 0)
    sizes = known.select("_i", bins.alias("feature"), pl.lit(1.0).alias("value"))
    exts = (
        known.select("_i", pl.col("_exts")).explode("_exts", empty_as_null=False).drop_nulls("_exts")
        .select("_i", (pl.lit("ext:") + pl.col("_exts")).alias("feature"), pl.lit(1.0).alias("value"))
    ) if "_exts" in known.columns else sizes.head(0)
    return pl.concat([long, sizes, exts, unknown])


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
    weights = weights.with_columns(pl.lit(classes).alias("cat")).explode("_w", "cat", empty_as_null=False).rename({"_w": "w"}).filter(pl.col("w") != 0)
    bias = pl.DataFrame({"cat": classes, "bias": [float(b) for b in data["bias"]]})
    return classes, bias, weights


def model_scores(feats: pl.DataFrame, ids: pl.Series) -> pl.DataFrame | None:
    """(_i, cat, score) for every commit in `ids` and every class, or None without a model."""
    model = load_model()
    if model is None:
        return None
    classes, bias, weights = model
    # One row per (commit, feature) against a weight column per class: the join and the sums
    # run over as many rows as the commits have features, not eight times that.
    wide = _wide_weights()
    sums = feats.join(wide, on="feature", how="inner").group_by("_i").agg(
        (pl.col("value") * pl.col(f"w:{c}")).sum().alias(c) for c in classes
    )
    grid = pl.DataFrame({"_i": ids}).join(sums, on="_i", how="left").unpivot(
        index="_i", variable_name="cat", value_name="_sum")
    return (
        grid.join(bias, on="cat", how="left")
        .select("_i", "cat", (pl.col("bias") + pl.col("_sum").fill_null(0.0)).alias("score"))
    )


@lru_cache(maxsize=1)
def _wide_weights() -> pl.DataFrame:
    """(feature, w:<class> for every class): the weights table pivoted, zeros filled."""
    classes, _, weights = load_model()
    present = set(weights["cat"].to_list())
    return (
        weights.with_columns((pl.lit("w:") + pl.col("cat")).alias("cat"))  # a class is "feature"
        .pivot(on="cat", index="feature", values="w")
        .select("feature", *[pl.col(f"w:{c}").fill_null(0.0) if c in present
                             else pl.lit(0.0).alias(f"w:{c}") for c in classes])
    )


def predict(feats: pl.DataFrame, ids: pl.Series) -> pl.DataFrame | None:
    """(_i, model_category, model_p): the model's category and its probability.

    Features and fixes are what a profile counts, so the decision is made in two steps: the
    probabilities of every other category are pooled, the most probable of feature, bug and
    "the rest" wins, and "the rest" is then the most probable of its members."""
    scores = model_scores(feats, ids)
    if scores is None:
        return None
    probs = scores.with_columns((pl.col("score") - pl.col("score").max().over("_i")).exp().alias("_e")).with_columns(
        (pl.col("_e") / pl.col("_e").sum().over("_i")).alias("p")
    )
    group = pl.when(pl.col("cat").is_in(["feature", "bug"])).then(pl.col("cat")).otherwise(pl.lit("rest"))
    pooled = probs.with_columns(group.alias("_g")).group_by("_i", "_g").agg(
        pl.col("p").sum().alias("_gp"),
        pl.col("cat").sort_by("p", descending=True).first().alias("_best"),
    )
    return (
        pooled.sort(["_i", "_gp"], descending=[False, True])
        .group_by("_i", maintain_order=True)
        .agg(pl.col("_best").first().alias("model_category"), pl.col("_gp").first().alias("model_p"))
    )
