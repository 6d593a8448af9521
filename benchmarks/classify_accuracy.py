"""Accuracy of the commit classifier against hand-labelled commit messages.

Usage: python benchmarks/classify_accuracy.py LABELS.csv [--errors N] [--by-project] [--time]

The CSV has columns project, sha, message, label (feature | bug | other). Each message is
classified by `exceeds_pipeline.classify.categorize_commits` with no file changes (the CSV has
none), the finer categories are folded (feature -> feature, bug -> bug, everything else ->
other), and the script prints accuracy, Cohen's kappa and the 3x3 confusion matrix (rows = label,
columns = prediction). `--errors N` also prints N misclassified messages.

`--by-project` adds the view used to keep rule changes honest: accuracy per project (projects
with fewer than 20 commits pooled), the two halves of the projects in alphabetical order
(case-insensitive; half A = 1st, 3rd, 5th, ..., half B = 2nd, 4th, ...), and leave-one-project-out
accuracy (the accuracy on all other projects, with the swing from the overall figure), which shows
how much any one project drives the total. A rule change is kept only when it helps both halves
(or helps one and leaves the other within 0.2 points).
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
        (pl.col("project").cast(pl.String) if "project" in labels.columns else pl.lit("")).alias("project"),
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


SMALL_PROJECT = 20


def _acc(frame: pl.DataFrame) -> float:
    return frame.select((pl.col("label") == pl.col("predicted")).mean()).item() if frame.height else 0.0


def project_halves(projects: list[str]) -> tuple[list[str], list[str]]:
    """Projects in alphabetical order (case-insensitive), split odd/even positions."""
    ordered = sorted(set(projects), key=lambda p: (p.lower(), p))
    return ordered[0::2], ordered[1::2]


def print_by_project(result: pl.DataFrame) -> None:
    overall = _acc(result)
    half_a, half_b = project_halves(result["project"].to_list())
    print("halves (projects alphabetical, odd/even positions):")
    for name, members in (("A", half_a), ("B", half_b)):
        part = result.filter(pl.col("project").is_in(members))
        print(f"  half {name}: {len(members):>3} projects {part.height:>5} commits  accuracy {_acc(part):.3f}")
    sizes = result.group_by("project").len()
    big = sizes.filter(pl.col("len") >= SMALL_PROJECT).sort("project")["project"].to_list()
    small = sizes.filter(pl.col("len") < SMALL_PROJECT)["project"].to_list()
    print(f"per project (leave-one-out = accuracy without it; overall {overall:.3f}):")
    print(f"  {'project':<32}{'commits':>8}{'accuracy':>10}{'without':>10}{'swing':>8}")
    groups = [(p, [p]) for p in big] + ([(f"({len(small)} small projects)", small)] if small else [])
    for name, members in groups:
        inside = result.filter(pl.col("project").is_in(members))
        rest = result.filter(~pl.col("project").is_in(members))
        without = _acc(rest)
        print(f"  {name[:32]:<32}{inside.height:>8}{_acc(inside):>10.3f}{without:>10.3f}{without - overall:>+8.3f}")
    loo = [_acc(result.filter(pl.col("project") != p)) for p in sorted(set(result["project"].to_list()))]
    if loo:
        print(f"  leave-one-project-out accuracy over {len(loo)} projects: min {min(loo):.3f} max {max(loo):.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--errors", type=int, default=0, help="print this many misclassified messages")
    parser.add_argument("--by-project", action="store_true", help="per-project, per-half and leave-one-project-out accuracy")
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
    if args.by_project:
        print_by_project(result)
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
