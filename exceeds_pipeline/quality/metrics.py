"""The `quality_metrics` table: person x metric, each a documented formula over repository facts.

:func:`quality_metrics` is a pure function of frames. The two measurements that need git (DMM
per commit, SZZ per fix commit) are computed beforehand, bounded and cached, by
:mod:`exceeds_pipeline.quality.dmm` and :mod:`exceeds_pipeline.quality.szz`; pass their results
in (or ``None``: the metrics that need them then rest on the other evidence, or are null).

Every person with at least one counted commit gets one row per metric in :data:`METRICS`.
``value`` is in 0..1, or null when there is no evidence (never a made-up number);
``evidence_count`` says how many things the value rests on (its unit is in ``method``);
``evidence_shas`` lists the person's commits behind it, those that lower the value first, then
the rest newest first, at most ``evidence_cap`` (default 50) of them.

Formulas (``method`` carries each as a sentence):

* **correctness** = 1 - broken / items over the person's credited work items (see
  :func:`exceeds_pipeline.rollups.work_item_credit`). An item is *broken* when one of its
  commits is the target of a ``reverts`` link (any reverting commit), or of a ``fixes`` link
  (``Fixes: <sha>``) or an SZZ trace (a bug fix whose deleted lines were last touched by the
  commit) coming from a commit outside that work item (follow-up commits inside one change are
  iteration, not breakage).
* **maintainability** = mean over the person's measured commits of the mean of PyDriller's
  ``dmm_unit_size`` and ``dmm_unit_complexity`` (each commit counts once; a commit with only one
  of the two uses that one). Commits are measured on the sample of :func:`dmm_sample`.
* **architecture** = mean of the available parts of (a) the mean ``dmm_unit_interfacing`` of the
  person's measured commits and (b) the share of the person's code-changing work items (items
  whose commits change a non-excluded, non-test source file lizard can read) that also change a
  test file (``classify.categories.TEST_PATH``). Each part counts once whatever its size;
  ``evidence_count`` = measured commits + code-changing items.
* **performance** (21-day survival, the inverse of rework) = surviving / added lines over the
  person's counted commits' additions to non-excluded files. File-level approximation, not a
  line-exact blame: an addition of ``a`` lines to file F at commit time t is "rewritten" up to
  min(a, lines deleted from F by any later commits with commit time in (t, t + 21 days]); a
  rename's deletions count against its old path. Only additions at least 21 days older than the
  repository's newest commit are evaluated (younger ones have not had the chance to survive).
* **ai_usage** = share of the person's counted commits with a declared ``ai_tool``.
"""

from __future__ import annotations

from datetime import timedelta

import polars as pl

from exceeds_pipeline.classify.categories import TEST_PATH
from exceeds_pipeline.quality.dmm import lizard_supported
from exceeds_pipeline.rollups.rollups import counted_commits, work_item_credit

__all__ = ["METHODS", "METRICS", "QUALITY_SCHEMA", "REWORK_DAYS", "quality_metrics"]

METRICS = ("correctness", "maintainability", "architecture", "performance", "ai_usage")
REWORK_DAYS = 21
EVIDENCE_CAP = 50

QUALITY_SCHEMA: dict[str, pl.DataType] = {
    "person_id": pl.String,
    "metric": pl.String,
    "value": pl.Float64,
    "evidence_count": pl.Int64,
    "method": pl.String,
    "evidence_shas": pl.List(pl.String),
}

METHODS = {
    "correctness": (
        "1 - broken/items over the person's work items, where an item is broken if a commit of it "
        "was later reverted (Revert / This reverts commit), or was named by a 'Fixes: <sha>' "
        "trailer or traced by SZZ (git blame of the lines a bug fix deletes) from a commit outside "
        "the item; evidence_count = work items."
    ),
    "maintainability": (
        "Mean over the person's measured commits of the average of PyDriller's DMM unit size and "
        "unit complexity (share of changed method volume that is low-risk: <= 15 lines, "
        "cyclomatic complexity <= 5), measured on at most {k} commits per person-month; "
        "evidence_count = measured commits."
    ),
    "architecture": (
        "Average of (a) the mean PyDriller DMM unit interfacing (methods with <= 2 parameters) of "
        "the person's measured commits and (b) the share of their work items changing source code "
        "that also change tests, using whichever parts have evidence; evidence_count = measured "
        "commits + code-changing work items."
    ),
    "performance": (
        "Share of the lines the person added that were not rewritten within {days} days: per "
        "commit and file, added lines minus (capped at them) lines deleted from the same file by "
        "later commits within {days} days (file-level approximation, no line-exact blame), over "
        "additions at least {days} days older than the repository's newest commit; "
        "evidence_count = commits evaluated."
    ),
    "ai_usage": (
        "Share of the person's counted commits that carry a declared AI-assistance marker "
        "(co-author trailer or bot identity of an AI coding tool); evidence_count = counted commits."
    ),
}

_PART_SCHEMA = {"person_id": pl.String, "value": pl.Float64, "evidence_count": pl.Int64}


def _item_key() -> pl.Expr:
    return pl.coalesce(
        pl.col("work_item_id"), pl.lit("commit:") + pl.col("repo") + pl.lit(":") + pl.col("sha")
    )


def _evidence(rows: pl.LazyFrame, order: list[pl.Expr | str], descending: list[bool], cap: int) -> pl.LazyFrame:
    """``[person_id, evidence_shas]``: distinct shas per person in the given order, at most `cap`."""
    return (
        rows.sort(["person_id", *order], descending=[False, *descending])
        .unique(["person_id", "sha"], keep="first", maintain_order=True)
        .group_by("person_id", maintain_order=True)
        .agg(pl.col("sha").head(cap).alias("evidence_shas"))
    )


def _correctness(commits, work_items, commit_links, szz, cap) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    credit = work_item_credit(commits, work_items)
    item_commits = (
        credit.lazy()
        .select("work_item_id", "person_id", "shas")
        .explode("shas", empty_as_null=False)
        .rename({"shas": "sha"})
        .drop_nulls("sha")
    )
    signals = []
    if commit_links is not None and commit_links.height:
        signals.append(
            commit_links.lazy()
            .filter(pl.col("link_type").is_in(["reverts", "fixes"]))
            .select(pl.col("sha").alias("breaker"), "target_sha", pl.col("link_type").alias("kind"))
        )
    if szz is not None and szz.height:
        signals.append(
            szz.lazy().select(pl.col("fix_sha").alias("breaker"), pl.col("blamed_sha").alias("target_sha"),
                              pl.lit("szz").alias("kind"))
        )
    items_of = commits.lazy().select("sha", _item_key().alias("breaker_item")).unique("sha")
    if signals:
        broken_commits = (
            pl.concat(signals)
            .join(items_of, left_on="breaker", right_on="sha", how="left")
            .join(item_commits, left_on="target_sha", right_on="sha", how="inner")
            .filter((pl.col("kind") == "reverts") | (pl.col("breaker_item") != pl.col("work_item_id"))
                    | pl.col("breaker_item").is_null())
            .select("person_id", "work_item_id", pl.col("target_sha").alias("sha"))
            .unique()
        )
    else:
        broken_commits = pl.LazyFrame(schema={"person_id": pl.String, "work_item_id": pl.String, "sha": pl.String})
    broken_items = broken_commits.select("person_id", "work_item_id").unique()
    per_person = (
        credit.lazy()
        .select("person_id", "work_item_id")
        .join(broken_items.with_columns(pl.lit(True).alias("_broken")), on=["person_id", "work_item_id"], how="left")
        .group_by("person_id")
        .agg(
            pl.len().cast(pl.Int64).alias("evidence_count"),
            pl.col("_broken").fill_null(False).sum().alias("_n_broken"),
        )
        .select("person_id", (1.0 - pl.col("_n_broken") / pl.col("evidence_count")).alias("value"), "evidence_count")
    )
    times = commits.lazy().select("sha", "authored_at").unique("sha")
    ev_rows = (
        item_commits.select("person_id", "sha")
        .join(broken_commits.select("person_id", "sha", pl.lit(True).alias("_neg")), on=["person_id", "sha"], how="left")
        .with_columns(pl.col("_neg").fill_null(False))
        .join(times, on="sha", how="left")
    )
    return per_person, _evidence(ev_rows, ["_neg", "authored_at", "sha"], [True, True, False], cap)


def _measured(counted: pl.DataFrame, dmm: pl.DataFrame | None) -> pl.LazyFrame:
    cols = {"person_id": pl.String, "sha": pl.String, "authored_at": pl.Datetime("us", "UTC"),
            "dmm_unit_size": pl.Float64, "dmm_unit_complexity": pl.Float64, "dmm_unit_interfacing": pl.Float64}
    if dmm is None or dmm.height == 0:
        return pl.LazyFrame(schema=cols)
    values = dmm.lazy().select("sha", "dmm_unit_size", "dmm_unit_complexity", "dmm_unit_interfacing").unique("sha")
    return counted.lazy().select("person_id", "sha", "authored_at").join(values, on="sha", how="inner")


def _maintainability(measured: pl.LazyFrame, cap: int) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    scored = measured.with_columns(
        pl.mean_horizontal("dmm_unit_size", "dmm_unit_complexity").alias("_score")
    ).filter(pl.col("_score").is_not_null())
    per_person = scored.group_by("person_id").agg(
        pl.col("_score").mean().alias("value"), pl.len().cast(pl.Int64).alias("evidence_count")
    )
    return per_person, _evidence(scored, ["_score", "authored_at", "sha"], [False, True, False], cap)


def _architecture(measured, commits, work_items, file_changes, cap) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    inter = measured.filter(pl.col("dmm_unit_interfacing").is_not_null())
    part_i = inter.group_by("person_id").agg(
        pl.col("dmm_unit_interfacing").mean().alias("_v_i"), pl.len().cast(pl.Int64).alias("_n_i")
    )
    credit = work_item_credit(commits, work_items)
    item_commits = (
        credit.select("work_item_id", "person_id", "repo", "shas")
        .explode("shas", empty_as_null=False).rename({"shas": "sha"}).drop_nulls("sha")
    )
    files = file_changes.filter(~pl.col("excluded").fill_null(False)).select("repo", "sha", "path")
    is_test = pl.col("path").fill_null("").str.contains(TEST_PATH)
    files = files.with_columns(is_test.alias("_test"), lizard_supported(files["path"]).alias("_src"))
    per_item = (
        item_commits.lazy()
        .join(files.lazy(), on=["repo", "sha"], how="inner")
        .group_by("person_id", "work_item_id")
        .agg(
            (pl.col("_src") & ~pl.col("_test")).any().alias("_code"),
            pl.col("_test").any().alias("_tested"),
            pl.col("sha").unique().alias("_shas"),
        )
        .filter(pl.col("_code"))
    )
    part_t = per_item.group_by("person_id").agg(
        pl.col("_tested").mean().alias("_v_t"), pl.len().cast(pl.Int64).alias("_n_t")
    )
    per_person = (
        pl.concat([part_i.select("person_id"), part_t.select("person_id")]).unique()
        .join(part_i, on="person_id", how="left")
        .join(part_t, on="person_id", how="left")
        .select(
            "person_id",
            pl.mean_horizontal("_v_i", "_v_t").alias("value"),
            (pl.col("_n_i").fill_null(0) + pl.col("_n_t").fill_null(0)).alias("evidence_count"),
        )
    )
    times = commits.lazy().select("sha", "authored_at").unique("sha")
    ev_rows = pl.concat([
        per_item.explode("_shas", empty_as_null=False).select(
            "person_id", pl.col("_shas").alias("sha"), pl.lit(0).alias("_rank"),
            pl.col("_tested").cast(pl.Float64).alias("_score"),
        ),
        inter.select("person_id", "sha", pl.lit(1).alias("_rank"), pl.col("dmm_unit_interfacing").alias("_score")),
    ]).join(times, on="sha", how="left")
    # Untested items and low-interfacing commits first.
    return per_person, _evidence(ev_rows, ["_score", "_rank", "authored_at", "sha"], [False, False, True, False], cap)


def _performance(counted, commits, file_changes, days, cap) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    window = timedelta(days=days)
    when = commits.lazy().select("repo", "sha", pl.col("committed_at").alias("_t")).unique(["repo", "sha"])
    horizon = commits.lazy().group_by("repo").agg(pl.col("committed_at").max().alias("_horizon"))
    fc = file_changes.lazy().join(when, on=["repo", "sha"], how="inner")
    deletions = (
        fc.filter(pl.col("lines_deleted").fill_null(0) > 0)
        .select("repo", pl.coalesce("old_path", "path").alias("_key"), "_t", pl.col("lines_deleted").alias("_d"))
        .group_by("repo", "_key", "_t").agg(pl.col("_d").sum())
        .sort("_t")
        .with_columns(pl.col("_d").cum_sum().over("repo", "_key").alias("_cum"))
        .select("repo", "_key", "_t", "_cum")
    )
    adds = (
        fc.join(counted.lazy().select("repo", "sha", "person_id"), on=["repo", "sha"], how="inner")
        .filter(~pl.col("excluded").fill_null(False) & (pl.col("lines_added").fill_null(0) > 0))
        .join(horizon, on="repo", how="left")
        .filter(pl.col("_t") + window <= pl.col("_horizon"))
        .select("person_id", "repo", "sha", pl.col("path").alias("_key"), "_t",
                (pl.col("_t") + window).alias("_t_end"), pl.col("lines_added").alias("_a"))
        .sort("_t")
    )
    at_start = adds.join_asof(deletions.rename({"_cum": "_c0"}), on="_t", by=["repo", "_key"], strategy="backward",
                                  check_sortedness=False)
    at_end = (
        at_start.sort("_t_end")
        .join_asof(deletions.rename({"_t": "_t_end", "_cum": "_c1"}), on="_t_end", by=["repo", "_key"],
                   strategy="backward", check_sortedness=False)
    )
    rows = at_end.with_columns(
        pl.min_horizontal(pl.col("_a"), (pl.col("_c1").fill_null(0) - pl.col("_c0").fill_null(0)).clip(0)).alias("_rw")
    )
    per_commit = rows.group_by("person_id", "sha").agg(
        pl.col("_a").sum(), pl.col("_rw").sum(), pl.col("_t").first()
    )
    per_person = per_commit.group_by("person_id").agg(
        (1.0 - pl.col("_rw").sum() / pl.col("_a").sum()).alias("value"),
        pl.len().cast(pl.Int64).alias("evidence_count"),
    )
    return per_person, _evidence(per_commit, ["_rw", "_t", "sha"], [True, True, False], cap)


def _ai_usage(counted, cap) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    lf = counted.lazy().with_columns(pl.col("ai_tool").is_not_null().alias("_ai"))
    per_person = lf.group_by("person_id").agg(
        pl.col("_ai").mean().cast(pl.Float64).alias("value"), pl.len().cast(pl.Int64).alias("evidence_count")
    )
    return per_person, _evidence(lf.filter(pl.col("_ai")), ["authored_at", "sha"], [True, False], cap)


def quality_metrics(
    commits: pl.DataFrame,
    work_items: pl.DataFrame,
    commit_links: pl.DataFrame | None,
    file_changes: pl.DataFrame,
    dmm: pl.DataFrame | None = None,
    szz: pl.DataFrame | None = None,
    *,
    rework_days: int = REWORK_DAYS,
    evidence_cap: int = EVIDENCE_CAP,
    dmm_per_person_month: int | None = None,
) -> pl.DataFrame:
    """Person x metric table (:data:`QUALITY_SCHEMA`), one row per person and metric.

    ``dmm``: ``[sha, dmm_unit_size, dmm_unit_complexity, dmm_unit_interfacing]`` from
    :func:`compute_dmm`; ``szz``: ``[fix_sha, blamed_sha]`` from :func:`compute_szz`.
    ``dmm_per_person_month`` is only quoted in the method text (default: the sampling default).
    """
    from exceeds_pipeline.quality.dmm import DMM_PER_PERSON_MONTH

    counted = counted_commits(commits)
    persons = counted.select("person_id").unique().sort("person_id")
    if persons.height == 0:
        return pl.DataFrame(schema=QUALITY_SCHEMA)
    measured = _measured(counted, dmm)
    parts = {
        "correctness": _correctness(commits, work_items, commit_links, szz, evidence_cap),
        "maintainability": _maintainability(measured, evidence_cap),
        "architecture": _architecture(measured, commits, work_items, file_changes, evidence_cap),
        "performance": _performance(counted, commits, file_changes, rework_days, evidence_cap),
        "ai_usage": _ai_usage(counted, evidence_cap),
    }
    methods = {
        name: text.format(k=dmm_per_person_month or DMM_PER_PERSON_MONTH, days=rework_days)
        for name, text in METHODS.items()
    }
    frames = []
    for metric in METRICS:
        values, evidence = parts[metric]
        frames.append(
            persons.lazy()
            .join(values.select(list(_PART_SCHEMA)).cast(_PART_SCHEMA), on="person_id", how="left")
            .join(evidence, on="person_id", how="left")
            .select(
                "person_id",
                pl.lit(metric).alias("metric"),
                pl.col("value").cast(pl.Float64),
                pl.col("evidence_count").fill_null(0),
                pl.lit(methods[metric]).alias("method"),
                pl.col("evidence_shas").fill_null(pl.lit([], dtype=pl.List(pl.String))),
            )
        )
    out = pl.concat(frames).collect()
    # No evidence, no number.
    out = out.with_columns(
        pl.when(pl.col("evidence_count") > 0).then(pl.col("value")).otherwise(None).alias("value")
    )
    order = {m: i for i, m in enumerate(METRICS)}
    return (
        out.with_columns(pl.col("metric").replace_strict(order, return_dtype=pl.Int32).alias("_o"))
        .sort("person_id", "_o").drop("_o").cast(QUALITY_SCHEMA)
    )
