"""Accuracy of the commit classifier: hand-labelled CSVs and Conventional-Commit repositories.

Usage:
    python benchmarks/classify_accuracy.py SOURCE [SOURCE ...] [--errors N] [--by-project]
        [--humans-only] [--cache DIR] [--time]

Each SOURCE is either
- a CSV with columns project, sha, message, label (feature | bug | other): every message is
  classified by `categorize_commits` with no file changes (the CSV has none); or
- a git repository (bare or not) whose history follows Conventional Commits: it is read by the
  pipeline's own ingest (`log_commits`: commits and file changes with git's numstat), the typed
  prefix of every subject is taken as the label and stripped from the message, and from the
  typed bullets of a squash body (`* fix: ...`), through which the label would leak
  (`classify.conventional.label_conventional`; the diffs stay the real ones), then the real
  derive code runs on it: identities and bots, languages and exclusions, commit links,
  `categorize_commits`, `assign_work_items`. Only typed non-merge commits are scored
  (`--humans-only`: also leave out bot accounts).

Printed per source: commits, feature/bug/other accuracy and Cohen's kappa, the 10-way agreement
(categories as the pipeline names them; CSV labels are 3-way only), the feature/bug/other
confusion matrix (rows = label, columns = predicted) and, for repositories, the 10-way confusion.
`--by-project` (CSV) adds per-project figures, halves and leave-one-project-out accuracy.
`--cache DIR` keeps each repository's ingested frames as Parquet (keyed by its HEAD) so reruns
skip git.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import polars as pl

from exceeds_pipeline.classify.categories import categorize_commits
from exceeds_pipeline.classify.conventional import fold3, label_conventional
from exceeds_pipeline.schemas import RAW_FILE_CHANGES_SCHEMA, empty_frame

CLASSES = ("feature", "bug", "other")
CATEGORIES = ("feature", "bug", "refactor", "perf", "docs", "test", "build", "chore", "revert", "other")

fold = fold3

# The plain keyword rule every report is compared with (what a grep over messages gives): a
# bug word anywhere in the message -> bug, else a feature word -> feature, else other. The
# classifier is only worth its model if it is clearly above this on every source.
_KEYWORD_BUG = (r"(?i)\b(fix\w*|bug\w*|error\w*|issue\w*|defect\w*|fault\w*|crash\w*|wrong|"
                r"incorrect|problem\w*|npe|exception\w*)\b")
_KEYWORD_FEATURE = r"(?i)\b(add\w*|new|implement\w*|support\w*|feature\w*|introduc\w*|creat\w*|allow\w*|enabl\w*)\b"


def keyword_rule(text: pl.Expr) -> pl.Expr:
    """feature | bug | other of a message by the plain keyword rule (the baseline)."""
    return (
        pl.when(text.str.contains(_KEYWORD_BUG)).then(pl.lit("bug"))
        .when(text.str.contains(_KEYWORD_FEATURE)).then(pl.lit("feature"))
        .otherwise(pl.lit("other"))
    )


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------


def confusion(result: pl.DataFrame, truth: str, pred: str, classes: tuple[str, ...]) -> list[list[int]]:
    counts = result.group_by(truth, pred).len()
    look = {(a, b): n for a, b, n in counts.iter_rows()}
    return [[look.get((a, b), 0) for b in classes] for a in classes]


def kappa_of(matrix: list[list[int]]) -> tuple[float, float]:
    n = sum(map(sum, matrix))
    k = len(matrix)
    observed = sum(matrix[i][i] for i in range(k)) / n if n else 0.0
    expected = sum(sum(matrix[i]) * sum(row[i] for row in matrix) for i in range(k)) / (n * n) if n else 0.0
    kappa = (observed - expected) / (1 - expected) if expected < 1 else 1.0
    return observed, kappa


def print_matrix(matrix: list[list[int]], classes: tuple[str, ...], width: int = 9) -> None:
    print(f"{'':>{width}}" + "".join(f"{c[:width - 1]:>{width}}" for c in classes))
    for name, row in zip(classes, matrix):
        print(f"{name[:width - 1]:>{width}}" + "".join(f"{v:>{width}}" for v in row))


def report(name: str, result: pl.DataFrame, ten_way: bool) -> dict:
    """Print the figures of one source; `result` has label, category (10-way) and predicted."""
    label3 = "label3" if "label3" in result.columns else "label"
    matrix = confusion(result, label3, "predicted", CLASSES)
    accuracy, kappa = kappa_of(matrix)
    print(f"== {name}")
    print(f"commits:  {result.height}")
    text = pl.col("message" if "message" in result.columns else "subject").fill_null("")
    base_matrix = confusion(result.with_columns(keyword_rule(text).alias("_keyword")), label3, "_keyword", CLASSES)
    base_accuracy, base_kappa = kappa_of(base_matrix)
    print(f"feature/bug/other accuracy: {accuracy:.3f}   kappa: {kappa:.3f}   "
          f"(plain keyword rule: {base_accuracy:.3f}, kappa {base_kappa:.3f})")
    out = {"source": name, "commits": result.height, "accuracy3": accuracy, "kappa3": kappa,
           "keyword3": base_accuracy}
    if ten_way:
        agree10 = result.select((pl.col("label") == pl.col("category")).mean()).item()
        out["agreement10"] = agree10
        print(f"10-way agreement: {agree10:.3f}")
    print("feature/bug/other confusion (rows = label, columns = predicted):")
    print_matrix(matrix, CLASSES, 10)
    if ten_way:
        print("10-way confusion (rows = label, columns = predicted):")
        print_matrix(confusion(result, "label", "category", CATEGORIES), CATEGORIES)
    return out


# --------------------------------------------------------------------------------------------
# Labelled CSV
# --------------------------------------------------------------------------------------------


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
    matrix = confusion(result, "label", "predicted", CLASSES)
    observed, kappa = kappa_of(matrix)
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


def run_csv(path: str, args: argparse.Namespace) -> dict:
    labels = pl.read_csv(path, schema_overrides={"message": pl.String, "label": pl.String})
    result, _, _, _ = evaluate(labels)
    out = report(path, result, ten_way=False)
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
    return out


# --------------------------------------------------------------------------------------------
# Conventional-Commit repository
# --------------------------------------------------------------------------------------------


def repo_name(path: Path) -> str:
    """`/x/.mirror/owner+name/repo` -> owner/name; else the directory's name."""
    path = path.resolve()
    for part in (path.name, path.parent.name):
        if "+" in part:
            return part.replace("+", "/", 1)
    return path.name[:-4] if path.name.endswith(".git") else path.name


def ingest(path: Path, name: str, cache: Path | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Commits and file changes reachable from HEAD, read by the pipeline's ingest."""
    from types import SimpleNamespace

    from exceeds_pipeline.ingest.incremental import read_commits

    git_dir = Path(subprocess.run(["git", "-C", str(path), "rev-parse", "--absolute-git-dir"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    head = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    if cache is not None:
        key = cache / f"{name.replace('/', '+')}-{head[:12]}"
        if (key / "commits.parquet").exists():
            return pl.read_parquet(key / "commits.parquet"), pl.read_parquet(key / "files.parquet")
    shas = subprocess.run(["git", "--git-dir", str(git_dir), "rev-list", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.split()
    # The pipeline's reader: commits git cannot read (objects missing from a snapshot) are skipped.
    commits, files, skipped = read_commits(SimpleNamespace(git_dir=git_dir, name=name), shas, None)
    if skipped:
        print(f"({name}: {len(skipped)} unreadable commits skipped)")
    if cache is not None:
        key.mkdir(parents=True, exist_ok=True)
        commits.write_parquet(key / "commits.parquet")
        files.write_parquet(key / "files.parquet")
    return commits, files


def diff_lines(path: Path, name: str, commits: pl.DataFrame, cache: Path | None) -> pl.DataFrame:
    """What the code_evidence asset reads of the diffs for the categories: the changed lines
    that are comments and code, and the files that changed only inline tests, of each commit it samples (`evidence_sample`, by the subjects
    the classifier sees), cached by the list of commits read and the version of the reading."""
    import hashlib

    from exceeds_pipeline.enrich.code_evidence import READER, block_comment_sample, code_evidence, evidence_sample

    git_dir = Path(subprocess.run(["git", "-C", str(path), "rev-parse", "--absolute-git-dir"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    shas = evidence_sample(commits.select("sha", "is_merge", "mailmap_email", "subject", "lines_added", "lines_deleted"))
    key = cache / f"{name.replace('/', '+')}-diff{READER}-{hashlib.sha1(' '.join(shas).encode()).hexdigest()[:12]}.parquet" \
        if cache is not None else None
    if key is not None and key.exists():
        return pl.read_parquet(key)
    frame = code_evidence(git_dir, name, shas, block_comments=block_comment_sample(commits)).select(
        "repo", "sha", "comment_lines", "code_lines", "test_paths")
    if key is not None:
        key.parent.mkdir(parents=True, exist_ok=True)
        frame.write_parquet(key)
    return frame


def derive(commits: pl.DataFrame, file_changes: pl.DataFrame, changelog: pl.DataFrame | None = None,
           diff_lines: pl.DataFrame | None = None) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """What the `history` assets compute: people and bots, languages and exclusions, links,
    categories (with the changelog's entries and the comment and code lines of the diffs read,
    when given) and work items. Returns (commits, work_items, links)."""
    from exceeds_pipeline.classify.links import commit_links
    from exceeds_pipeline.classify.work_items import assign_work_items
    from exceeds_pipeline.enrich.exclusions import classify_exclusions
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline.history.tables import attach_people
    from exceeds_pipeline.identity.people import resolve_people

    people, identity_map = resolve_people(commits.lazy())
    files = classify_exclusions(with_language(file_changes), commits)  # as the file_changes asset does
    links = commit_links(commits)
    table = categorize_commits(attach_people(commits, identity_map, people), files, links, changelog=changelog,
                               diff_lines=diff_lines)
    table, work_items = assign_work_items(table, links, files, changelog)
    return table, work_items, links


def tip_changelog(path: Path, name: str) -> pl.DataFrame:
    """The changelog entries of the repository's HEAD tree, as the code_evidence asset reads
    them. In a Conventional-Commit repository a generated changelog sorts the commits by the
    very prefixes taken as labels: `--no-changelog` measures the classifier without it."""
    from exceeds_pipeline.classify.changelog import read_changelogs

    git_dir = Path(subprocess.run(["git", "-C", str(path), "rev-parse", "--absolute-git-dir"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    head = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    return read_changelogs(git_dir, name, head).with_columns(pl.lit(name).alias("repo"))


def stripped_history(path: Path, cache: Path | None) -> tuple[str, pl.DataFrame, pl.DataFrame]:
    """(name, commits with the prefixes stripped and `label`/`conventional_type` (null for
    untyped commits), file changes)."""
    name = repo_name(path)
    commits, files = ingest(path, name, cache)
    labelled = label_conventional(commits).select("repo", "sha", "subject", "message", "label", "conventional_type")
    commits = (
        commits.join(labelled, on=["repo", "sha"], how="left", suffix="_stripped")
        .with_columns(
            pl.coalesce("subject_stripped", "subject").alias("subject"),
            pl.coalesce("message_stripped", "message").alias("message"),
        )
        .drop("subject_stripped", "message_stripped")
    )
    return name, commits, files


def run_repo(path: str, args: argparse.Namespace) -> dict:
    started = time.perf_counter()
    name, commits, files = stripped_history(Path(path), Path(args.cache) if args.cache else None)
    changelog = None if args.no_changelog else tip_changelog(Path(path), name)
    diffs = diff_lines(Path(path), name, commits, Path(args.cache) if args.cache else None)
    table, work_items, _ = derive(commits, files, changelog, diffs)
    scored = table.filter(pl.col("label").is_not_null() & ~pl.col("is_merge"))
    if args.humans_only:
        scored = scored.filter(~pl.col("is_bot"))
    scored = scored.with_columns(fold(pl.col("category")).alias("predicted"), fold(pl.col("label")).alias("label3"))
    typed = table.filter(~pl.col("is_merge")).select(pl.col("label").is_not_null().mean()).item()
    print(f"({name}: {typed:.0%} of non-merge commits typed; {time.perf_counter() - started:.1f} s)")
    out = report(name, scored, ten_way=True)
    if args.errors:
        wrong = scored.filter(pl.col("label3") != pl.col("predicted"))
        wrong = wrong.sample(min(args.errors, wrong.height), seed=1, shuffle=True)
        print("label <- predicted   subject (prefix stripped)")
        for row in wrong.iter_rows(named=True):
            print(f"{row['label']:>8} <- {row['category']:<8} {row['subject'][:110]}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="+", help="labelled CSV files and/or Conventional-Commit repositories")
    parser.add_argument("--errors", type=int, default=0, help="print this many misclassified commits")
    parser.add_argument("--by-project", action="store_true", help="CSV: per-project, halves, leave-one-project-out")
    parser.add_argument("--humans-only", action="store_true", help="repositories: leave out bot accounts")
    parser.add_argument("--cache", help="directory for ingested repositories (Parquet, keyed by HEAD)")
    parser.add_argument("--no-changelog", action="store_true",
                        help="repositories: do not read the changelog of HEAD (the classifier alone)")
    parser.add_argument("--time", action="store_true", help="CSV: also time classification of 100k commits")
    parser.add_argument("--model", help="score with these weights instead of the shipped category_model.json "
                        "(a training repository's leave-one-out model from train_classifier --fold-models)")
    args = parser.parse_args(argv)
    if args.model:
        from exceeds_pipeline.classify import model as category_model

        category_model.MODEL_PATH = Path(args.model)
        category_model.load_model.cache_clear()
        category_model._wide_weights.cache_clear()
    results = []
    for source in args.sources:
        try:
            results.append(run_csv(source, args) if Path(source).is_file() else run_repo(source, args))
        except Exception as exc:  # one unreadable repository (missing objects, ...) is reported, not fatal
            print(f"== {source}: not measured: {exc}"[:400])
        print()
    if len(results) > 1:
        print(f"{'source':<48}{'commits':>8}{'acc3':>8}{'kappa3':>8}{'agree10':>9}{'keyword3':>9}")
        for r in results:
            ten = f"{r['agreement10']:.3f}" if "agreement10" in r else "-"
            print(f"{r['source'][:48]:<48}{r['commits']:>8}{r['accuracy3']:>8.3f}{r['kappa3']:>8.3f}{ten:>9}{r['keyword3']:>9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
