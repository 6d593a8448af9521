"""Accuracy of the commit classifier against hand-labelled commit messages.

Usage: python benchmarks/classify_accuracy.py LABELS.csv [--errors N] [--time]

The CSV has columns project, sha, message, label (feature | bug | other). Each message is
classified by `exceeds_pipeline.classify.categorize_commits` with no file changes (the CSV has
none), the finer categories are folded (feature -> feature, bug -> bug, everything else ->
other), and the script prints accuracy, Cohen's kappa and the 3x3 confusion matrix (rows = label,
columns = prediction). `--errors N` also prints N misclassified messages.
"""

from __future__ import annotations

import argparse
import sys
import time

import polars as pl

from exceeds_pipeline.classify.categories import categorize_commits
from exceeds_pipeline.schemas import RAW_FILE_CHANGES_SCHEMA, empty_frame

CLASSES = ("feature", "bug", "other")


def fold(category: pl.Expr) -> pl.Expr:
    return pl.when(category.is_in(["feature", "bug"])).then(category).otherwise(pl.lit("other"))


def evaluate(labels: pl.DataFrame) -> tuple[pl.DataFrame, float, float, list[list[int]]]:
    commits = labels.select(
        pl.lit("bench").alias("repo"),
        pl.col("sha").cast(pl.String),
        pl.col("message").cast(pl.String),
        pl.col("message").cast(pl.String).str.extract(r"^([^\n]*)", 1).alias("subject"),
        pl.lit(False).alias("is_merge"),
        pl.col("label"),
    )
    result = categorize_commits(commits, empty_frame(RAW_FILE_CHANGES_SCHEMA))
    result = result.with_columns(fold(pl.col("category")).alias("predicted"))
    n = result.height
    matrix = [
        [result.filter((pl.col("label") == a) & (pl.col("predicted") == b)).height for b in CLASSES]
        for a in CLASSES
    ]
    observed = sum(matrix[i][i] for i in range(3)) / n if n else 0.0
    expected = sum(sum(matrix[i]) * sum(row[i] for row in matrix) for i in range(3)) / (n * n) if n else 0.0
    kappa = (observed - expected) / (1 - expected) if expected < 1 else 1.0
    return result, observed, kappa, matrix


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--errors", type=int, default=0, help="print this many misclassified messages")
    parser.add_argument("--time", action="store_true", help="also time classification of 100k commits")
    args = parser.parse_args(argv)

    labels = pl.read_csv(args.csv, schema_overrides={"message": pl.String, "label": pl.String})
    result, accuracy, kappa, matrix = evaluate(labels)
    print(f"commits:  {result.height}")
    print(f"accuracy: {accuracy:.3f}")
    print(f"kappa:    {kappa:.3f}")
    print("confusion (rows = label, columns = predicted):")
    print(f"{'':>10}" + "".join(f"{c:>10}" for c in CLASSES))
    for name, row in zip(CLASSES, matrix):
        print(f"{name:>10}" + "".join(f"{v:>10}" for v in row))
    if args.errors:
        wrong = result.filter(pl.col("label") != pl.col("predicted")).head(args.errors)
        for row in wrong.iter_rows(named=True):
            text = row["message"].replace("\n", " | ")[:150]
            print(f"{row['label']:>8} <- {row['category']:<8} {text}")
    if args.time:
        big = pl.concat([labels] * (100_000 // max(labels.height, 1) + 1)).head(100_000)
        start = time.perf_counter()
        evaluate(big)
        print(f"100k messages classified in {time.perf_counter() - start:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
