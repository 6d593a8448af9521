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

Formulas (``method`` carries each as a sentence). Small evidence is handled as each says:
shrunk toward a base rate (correctness, the tests part of architecture) or null below a
minimum (DMM-based parts, performance). A metric whose git facts were not supplied (``None``)
is null with a ``Pending:`` method text, never a partial value.

* **correctness** = (unbroken + K * base) / (items + K) over the person's credited work items
  (:func:`exceeds_pipeline.rollups.work_item_credit`), K = :data:`CORRECTNESS_PRIOR_ITEMS`,
  base = the share of unbroken items over everyone's items (empirical-Bayes shrinkage: one or
  two items say little, many items speak for themselves). An item is *broken* when it was later
  reverted (the work items' ``later_reverted``: the reverts after its last landing undo most of
  it; a revert of one small part is not enough; where they do not say, when one of its commits is
  the target of a ``reverts`` link and it did not land again), or one of its commits is the
  target of a ``fixes`` link (``Fixes: <sha>``) or an
  SZZ trace (:mod:`.szz`; moves and whitespace-only changes are not traced) coming from a commit
  outside that work item; an SZZ trace counts only between commits that change files profile LOC
  keeps (not only vendored, generated or data files).
* **maintainability** = mean over the person's measured commits (the DMM sample, :mod:`.dmm`)
  of the mean of PyDriller's ``dmm_unit_size`` and ``dmm_unit_complexity``; null below
  :data:`MIN_MEASURED` measured commits.
* **architecture** = mean of the available parts of (a) the mean ``dmm_unit_interfacing`` of the
  person's measured commits (needs :data:`MIN_MEASURED`) and (b) tests beside code: over the
  person's code-changing work items (features, fixes, refactors and speed-ups that change
  source files, lizard's or of any programming language, other than build files, version files
  and glue scripts) in repositories that keep tests beside code (at least
  :data:`TESTS_BESIDE_CODE_MIN_RATE` of all their code-changing items also change a test file),
  (tested + K * base) / (items + K), K = :data:`TESTS_PRIOR_ITEMS`, base = those repositories'
  rate for the person's items; needs :data:`MIN_TEST_ITEMS` items. A repository that keeps
  tests elsewhere says nothing here.
* **performance** (21-day survival) = 1 - rewritten / added over the lines the person's counted
  commits added to non-excluded files, tracked line by line (:mod:`.survival`): a line is
  rewritten when it is deleted or replaced within 21 days; only commits at least 21 days older
  than the repository's newest commit count; null below :data:`MIN_PERFORMANCE_COMMITS`
  evaluated commits.
* **ai_usage** = share of the person's counted commits with a declared ``ai_tool``.
"""

from __future__ import annotations

import polars as pl

from exceeds_pipeline.classify.categories import BUILD_PATH, TEST_PATH
from exceeds_pipeline.classify.work_items import VERSION_FILE
from exceeds_pipeline.quality.dmm import lizard_supported
from exceeds_pipeline.rollups.rollups import counted_commits, work_item_credit

__all__ = ["METHODS", "METRICS", "QUALITY_SCHEMA", "REWORK_DAYS", "quality_metrics"]

METRICS = ("correctness", "maintainability", "architecture", "performance", "ai_usage")
REWORK_DAYS = 21
EVIDENCE_CAP = 50
CORRECTNESS_PRIOR_ITEMS = 5
TESTS_PRIOR_ITEMS = 5
TESTS_BESIDE_CODE_MIN_RATE = 0.10
MIN_MEASURED = 3
MIN_TEST_ITEMS = 3  # code-changing items needed for the tests-beside-code part
# the kinds of work item that change the product (and so are asked to keep tests beside them)
PRODUCT_CATEGORIES = ("feature", "bug", "refactor", "perf")
MIN_PERFORMANCE_COMMITS = 3

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
        "(unbroken + 5 x base) / (items + 5) over the person's work items, base = share of unbroken "
        "items over everyone's items (small evidence is shrunk toward it); an item is broken if it "
        "was later reverted (Revert / This reverts commit, after its last landing, naming commits "
        "that carry at least half of its changed lines), a commit of it is named by a 'Fixes: <sha>' "
        "trailer, or traced by SZZ (git blame -w -M of the lines a bug fix deletes, moved, "
        "whitespace-only and version-string lines ignored; only bug commits whose message states a repair are traced, "
        "and a trace counts only between commits that change files outside vendored, generated "
        "and data files; fixes sampled as the {szz} smallest shas per repository; a fix "
        "is traced to commits of the {horizon} days before it; a sweep, a commit of more than 100 "
        "files of chore/build/docs/test work or of light in-place rewrites such as a project rename, "
        "or a bulk import, is not charged) from a commit outside the item; "
        "evidence_count = work items."
    ),
    "maintainability": (
        "Mean over the person's measured commits of the average of PyDriller's DMM unit size and "
        "unit complexity (share of changed method volume that is low-risk: <= 15 lines, "
        "cyclomatic complexity <= 5); measured on the person's commits that change lizard-readable "
        "code (<= 2000 lines, <= 50 files, not reverts; people with >= 3 such commits), in sha order until {k} "
        "have a DMM value (at most {tried}); null below 3 measured commits; evidence_count = "
        "measured commits with a value."
    ),
    "architecture": (
        "Average of the available parts: (a) mean PyDriller DMM unit interfacing (methods with <= 2 "
        "parameters) of the person's measured commits (>= 3 needed; sample as for maintainability) "
        "and (b) (tested + 5 x base) / (items + 5) over their code-changing work items (features, "
        "fixes, refactors and speed-ups changing source files other than build and version files) in "
        "repositories where >= 10% of all code-changing items also change tests (base = those "
        "repositories' rate; >= 3 such items needed); null when neither part has enough evidence; "
        "evidence_count = measured commits + those items."
    ),
    "performance": (
        "Share of the lines the person added (counted commits, non-excluded files) still present "
        "{days} days later, tracked line by line through the history (git log -p, line ownership "
        "as git blame assigns it; a line deleted or replaced within {days} days is rewritten, edits "
        "to other lines of the file do not count); commits younger than {days} days before the "
        "repository's newest commit are not judged; null below 3 evaluated commits; "
        "evidence_count = commits evaluated."
    ),
    "ai_usage": (
        "Share of the person's counted commits that carry a declared AI-assistance marker "
        "(co-author trailer or bot identity of an AI coding tool, or a plain statement such as "
        "'Authored with Claude' / 'Generated with Codex'); evidence_count = counted commits."
    ),
}
PENDING = "Pending: the repository facts this metric needs ({fact}) are not computed yet."
FAILED = ("Pending: the repository facts this metric needs ({fact}) could not be computed ({why}); "
          "the next `exceeds materialize` tries again.")

_SURVIVAL_SCHEMA = {"repo": pl.String, "sha": pl.String, "path": pl.String, "lines_added": pl.Int64,
                    "lines_rewritten": pl.Int64, "final": pl.Boolean}
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


def _correctness(commits, work_items, commit_links, szz, cap, credit=None,
                 file_changes=None) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    credit = credit if credit is not None else work_item_credit(commits, work_items)
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
        traced = szz.lazy().select(pl.col("fix_sha").alias("breaker"), pl.col("blamed_sha").alias("target_sha"),
                                   pl.lit("szz").alias("kind"))
        if file_changes is not None:
            # Lines of vendored, generated or data files are nobody's work here: a fix that only
            # touches such files, or a commit that only wrote such files, is no SZZ evidence.
            own = file_changes.lazy().filter(~pl.col("excluded").fill_null(False)).select("sha").unique()
            traced = traced.join(own, left_on="breaker", right_on="sha", how="semi") \
                           .join(own, left_on="target_sha", right_on="sha", how="semi")
        signals.append(traced)
    items_of = commits.lazy().select("sha", _item_key().alias("breaker_item")).unique("sha")
    if {"later_reverted", "relanded_by"} <= set(work_items.columns):
        # The work items say whether the change was later reverted (`classify.work_items.
        # chain_status`: the reverts after its last landing undo most of it); a reland heals.
        landed = work_items.lazy().select(
            "work_item_id",
            pl.col("later_reverted").alias("_later"),
            (~pl.col("later_reverted").fill_null(False) & (pl.col("relanded_by").list.len() > 0)).alias("_relanded"),
        ).unique("work_item_id")
    else:
        landed = pl.LazyFrame(schema={"work_item_id": pl.String, "_later": pl.Boolean, "_relanded": pl.Boolean})
    # Items later reverted: every commit of them is what lowers the value (a revert of a pull
    # request's merge names none of them by sha).
    reverted_items = (
        item_commits.join(landed.filter(pl.col("_later").fill_null(False)), on="work_item_id", how="semi")
        .select("person_id", "work_item_id", "sha")
    )
    if signals:
        broken_commits = (
            pl.concat(signals)
            .join(items_of, left_on="breaker", right_on="sha", how="left")
            .join(item_commits, left_on="target_sha", right_on="sha", how="inner")
            .filter((pl.col("kind") == "reverts") | (pl.col("breaker_item") != pl.col("work_item_id"))
                    | pl.col("breaker_item").is_null())
            .join(landed, on="work_item_id", how="left")
            # a revert breaks a change the work items judge (later_reverted, above); elsewhere
            # only if it did not land again in the end (a reland heals it)
            .filter((pl.col("kind") != "reverts")
                    | (pl.col("_later").is_null() & ~pl.col("_relanded").fill_null(False)))
            .select("person_id", "work_item_id", pl.col("target_sha").alias("sha"))
        )
        broken_commits = pl.concat([broken_commits, reverted_items]).unique()
    else:
        broken_commits = reverted_items.unique()
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
    )
    base = per_person.select(1.0 - pl.col("_n_broken").sum() / pl.col("evidence_count").sum()).collect().item()
    base = 1.0 if base is None else base
    k = CORRECTNESS_PRIOR_ITEMS
    per_person = per_person.select(
        "person_id",
        ((pl.col("evidence_count") - pl.col("_n_broken") + k * base) / (pl.col("evidence_count") + k)).alias("value"),
        "evidence_count",
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
    ).with_columns(
        pl.when(pl.col("evidence_count") >= MIN_MEASURED).then(pl.col("value")).otherwise(None).alias("value")
    )
    return per_person, _evidence(scored, ["_score", "authored_at", "sha"], [False, True, False], cap)


# Languages of glue around a program, not of the program: their scripts need no test beside them.
_GLUE_LANGUAGES = ("Shell", "Batchfile", "PowerShell", "Dockerfile", "Makefile", "CMake", "Nix", "Just")


def _programming(files: pl.DataFrame) -> pl.Series:
    """Whether each file is in a programming language by Linguist's types (Elixir, Haskell,
    OCaml: source that lizard cannot read still asks for tests beside it; ecto's 2,300-commit
    maintainer had no architecture value at all), glue scripts left out."""
    from exceeds_pipeline.enrich.exclusions import linguist_type

    if "language" not in files.columns:
        return pl.Series([False] * files.height, dtype=pl.Boolean)
    language = files["language"]
    table = {lang: linguist_type(lang) == "programming" and lang not in _GLUE_LANGUAGES
             for lang in language.drop_nulls().unique().to_list()}
    return language.replace_strict(table, default=False, return_dtype=pl.Boolean).fill_null(False)


def _architecture(measured, commits, work_items, file_changes, cap, credit=None) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    inter = measured.filter(pl.col("dmm_unit_interfacing").is_not_null())
    part_i = inter.group_by("person_id").agg(
        pl.col("dmm_unit_interfacing").mean().alias("_v_i"), pl.len().cast(pl.Int64).alias("_n_i")
    ).with_columns(pl.when(pl.col("_n_i") >= MIN_MEASURED).then(pl.col("_v_i")).otherwise(None).alias("_v_i"))
    credit = credit if credit is not None else work_item_credit(commits, work_items)
    # A release, a dependency bump or a CI change needs no test of its own: only product
    # changes are asked to keep tests beside them (requests' version bumps in __version__.py
    # and setup.py pins had counted as untested code).
    item_commits = (
        credit.filter(pl.col("category").is_in(PRODUCT_CATEGORIES)).select("work_item_id", "person_id", "repo", "shas")
        .explode("shas", empty_as_null=False).rename({"shas": "sha"}).drop_nulls("sha")
    )
    files = file_changes.filter(~pl.col("excluded").fill_null(False)).select(
        "repo", "sha", "path", *(["language"] if "language" in file_changes.columns else []))
    is_test = pl.col("path").fill_null("").str.contains(TEST_PATH)
    not_code = pl.col("path").fill_null("").str.contains(BUILD_PATH) | pl.col("path").fill_null("").str.contains(VERSION_FILE)
    files = files.with_columns(is_test.alias("_test"),
                               ((lizard_supported(files["path"]) | _programming(files)) & ~not_code).alias("_src"))
    per_item = (
        item_commits.lazy()
        .join(files.lazy(), on=["repo", "sha"], how="inner")
        .group_by("person_id", "work_item_id", "repo")
        .agg(
            (pl.col("_src") & ~pl.col("_test")).any().alias("_code"),
            pl.col("_test").any().alias("_tested"),
            pl.col("sha").unique().alias("_shas"),
        )
        .filter(pl.col("_code"))
        .with_columns(pl.col("_tested").cast(pl.Float64).mean().over("repo").alias("_base"))
        .filter(pl.col("_base") >= TESTS_BESIDE_CODE_MIN_RATE)
    )
    k = TESTS_PRIOR_ITEMS
    part_t = per_item.group_by("person_id").agg(
        pl.col("_tested").sum().cast(pl.Float64).alias("_t"), pl.col("_base").sum().alias("_b"),
        pl.len().cast(pl.Int64).alias("_n_t"),
    ).select(
        "person_id",
        pl.when(pl.col("_n_t") >= MIN_TEST_ITEMS)
        .then((pl.col("_t") + k * pl.col("_b") / pl.col("_n_t")) / (pl.col("_n_t") + k)).alias("_v_t"),
        "_n_t",
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


def _performance(counted, file_changes, survival, cap) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    kept = file_changes.lazy().filter(~pl.col("excluded").fill_null(False)).select("repo", "sha", "path")
    rows = (
        survival.lazy()
        .filter(pl.col("final") & (pl.col("lines_added") > 0))
        .join(kept, on=["repo", "sha", "path"], how="semi")
        .join(counted.lazy().select("repo", "sha", "person_id", pl.col("committed_at").alias("_t")),
              on=["repo", "sha"], how="inner")
    )
    per_commit = rows.group_by("person_id", "repo", "sha").agg(
        pl.col("lines_added").sum().alias("_a"), pl.col("lines_rewritten").sum().alias("_rw"), pl.col("_t").first()
    )
    per_person = per_commit.group_by("person_id").agg(
        (1.0 - pl.col("_rw").sum() / pl.col("_a").sum()).alias("value"),
        pl.len().cast(pl.Int64).alias("evidence_count"),
    ).with_columns(
        pl.when(pl.col("evidence_count") >= MIN_PERFORMANCE_COMMITS).then(pl.col("value")).otherwise(None).alias("value")
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
    survival: pl.DataFrame | None = None,
    *,
    rework_days: int = REWORK_DAYS,
    evidence_cap: int = EVIDENCE_CAP,
    dmm_per_person_month: int | None = None,
    credit: pl.DataFrame | None = None,
    failures: dict[str, str] | None = None,
) -> pl.DataFrame:
    """Person x metric table (:data:`QUALITY_SCHEMA`), one row per person and metric.
    ``failures``: fact (``dmm``, ``survival``) -> why it could not be computed, for the method
    text of the metrics it leaves pending.

    ``dmm``: ``[sha, dmm_unit_size, dmm_unit_complexity, dmm_unit_interfacing]`` from
    :func:`dmm_for_repository`; ``szz``: ``[fix_sha, blamed_sha]`` from
    :func:`szz_for_repository`; ``survival``: ``[repo, sha, path, lines_added, lines_rewritten,
    final]`` from :func:`survival_for_repository`. A fact given as None makes the metrics that
    need it null with a ``Pending:`` method (maintainability/architecture: dmm; performance:
    survival); correctness without szz rests on reverts and Fixes: links only.
    ``dmm_per_person_month`` is only quoted in the method text (default: the sampling default).
    """
    from exceeds_pipeline.quality.dmm import DMM_MAX_SAMPLE, DMM_MIN_SAMPLE, DMM_TRIED_FACTOR
    from exceeds_pipeline.quality.szz import SZZ_HORIZON_DAYS, SZZ_SAMPLE

    counted = counted_commits(commits)
    persons = counted.select("person_id").unique().sort("person_id")
    if persons.height == 0:
        return pl.DataFrame(schema=QUALITY_SCHEMA)
    measured = _measured(counted, dmm)
    parts = {
        "correctness": _correctness(commits, work_items, commit_links, szz, evidence_cap, credit, file_changes),
        "maintainability": _maintainability(measured, evidence_cap),
        "architecture": _architecture(measured, commits, work_items, file_changes, evidence_cap, credit),
        "performance": _performance(
            counted, file_changes,
            survival if survival is not None else pl.DataFrame(schema=_SURVIVAL_SCHEMA), evidence_cap),
        "ai_usage": _ai_usage(counted, evidence_cap),
    }
    methods = {
        name: text.format(k=dmm_per_person_month or f"the square root of the n such commits (rounded, "
                                                       f"{DMM_MIN_SAMPLE} to {DMM_MAX_SAMPLE})",
                          days=rework_days, szz=SZZ_SAMPLE, horizon=SZZ_HORIZON_DAYS,
                          tried=f"{dmm_per_person_month * DMM_TRIED_FACTOR} tried" if dmm_per_person_month
                          else f"{DMM_TRIED_FACTOR} times as many tried")
        for name, text in METHODS.items()
    }
    failures = failures or {}

    def pending(fact: str, name: str) -> str:
        return FAILED.format(fact=name, why=failures[fact]) if fact in failures else PENDING.format(fact=name)

    if dmm is None:
        methods["maintainability"] = methods["architecture"] = pending("dmm", "DMM")
    if survival is None:
        methods["performance"] = pending("survival", "line survival")
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
    # Pending facts: no partial values.
    pending = pl.col("method").str.starts_with("Pending:")
    out = out.with_columns(
        pl.when(pending).then(None).otherwise(pl.col("value")).alias("value"),
        pl.when(pending).then(0).otherwise(pl.col("evidence_count")).alias("evidence_count"),
        pl.when(pending).then(pl.lit([], dtype=pl.List(pl.String))).otherwise(pl.col("evidence_shas")).alias("evidence_shas"),
    )
    # No evidence, no number.
    out = out.with_columns(
        pl.when(pl.col("evidence_count") > 0).then(pl.col("value")).otherwise(None).alias("value")
    )
    order = {m: i for i, m in enumerate(METRICS)}
    return (
        out.with_columns(pl.col("metric").replace_strict(order, return_dtype=pl.Int32).alias("_o"))
        .sort("person_id", "_o").drop("_o").cast(QUALITY_SCHEMA)
    )
