"""Themes: the areas a person worked in, per scope (all, month, repo), each with its work items.

:func:`person_themes` reads the published tables and returns the SPEC ``themes`` table:
``person_id, scope, scope_key, theme, weight, work_item_ids`` (plus ``source``: path, tag or
term). Deterministic: the same tables give the same rows, in the same order.

Three kinds of evidence, all from the person's own counted commits of their own work items
(a revert by someone else is not their work; an item that only keeps the project's records, or
makes a release, names no area of work):

* **path**: every changed file (profile LOC only: not excluded) is named by its module: the
  deepest directory that is not generic plus the file's stem when the stem names something
  (``torch/_dynamo/guards.py`` -> "Dynamo guards", ``torch/_dynamo/utils.py`` -> "Dynamo",
  ``tests/test_blueprints.py`` -> "Blueprints"); word lists in ``lexicon.yaml``. Weight: the
  theme's share of the scope's ``log(1 + lines)`` per work item and module, so one huge change
  does not drown twenty careful ones.
* **tag**: subject tags and scopes (``[dynamo]``, ``fix(snowflake):``, ``net:``) of the item's
  commits, generic ones (``[WIP]``, ``fix(deps):``) left out. Weight: the share of the scope's
  work items carrying it. Strong evidence: a single tagged item is enough.
* **term**: word n-grams (1-3) of the clean work-item titles that set the person apart from the
  rest of the repository: used in at least :data:`MIN_TERM_ITEMS` of the person's items in
  that repository, and at least :data:`MIN_LIFT` times as often (per item) as in the
  repository's other people's items. A single plain lower-case word (`outdated`, `args`) is none: a
  name as written (`CodeQL`) or a phrase (`copy mode`) is. Weight: item share x lift factor (up to 0.8, so a tag or
  a module outweighs a term used as often). An n-gram inside a longer kept one with nearly the
  same items is dropped.

Themes with the same normalised name (case, punctuation, plural ``s``) merge: their work items
are united and the highest weight kept. Per scope at most :data:`MAX_THEMES`, highest weight
first (ties by name); weights are rounded to 4 decimals.
"""

from __future__ import annotations

import re
from functools import lru_cache

import polars as pl

from exceeds_pipeline.classify.categories import fragment_type, release_subject
from exceeds_pipeline.classify.changelog import CHANGELOG_FILE, CHANGELOG_FOLDER_FILE
from exceeds_pipeline.enrich.exclusions import RULES as EXCLUSION_RULES, excluded_as
from exceeds_pipeline.themes.text import clean_title, display_words, lexicon, title_ngrams

# A project's records: its changelog (HISTORY.rst, a changeset; and a news fragment of a known
# type, `changelog/12.feature`) and its prose files by name (AUTHORS, NOTICE, README). A work item
# that changes nothing else (or nothing but vendored copies of other projects) names no area of
# work: `history`, `AUTHORS` and a vendored `poster` are no themes of whoever keeps them current.
# The changelog, its changesets and the entries waiting for a release: where every change is
# recorded, so no area of anyone's work (SQLAlchemy's doc/build/changelog/unreleased_20/ had
# read "Changelog docs" and "Unreleased 20 docs" for its main author).
CHANGELOG_RECORD = "|".join(f"(?:{rx})" for rx in (
    CHANGELOG_FILE, CHANGELOG_FOLDER_FILE, r"(?i)(?:^|/)\.(?:changes?|changesets?)/[^/]+\.md$"))
RECORD_PATH = "|".join(f"(?:{rx})" for rx in (
    CHANGELOG_RECORD,
    r"(?i)(?:^|/)(?:" + "|".join(map(re.escape, EXCLUSION_RULES["prose_names"])) + r")(?:\.(?:md|markdown|rst|txt|adoc))?$",
))

__all__ = ["MAX_THEMES", "MIN_LIFT", "MIN_TERM_ITEMS", "THEMES_SCHEMA", "module_name", "person_themes", "theme_key"]

# A tool's configuration written as code: `vite.config.ts`, `jest.setup.js`, `.eslintrc.cjs`.
_CONFIG_FILE = re.compile(r"(?i)^[^.]+\.(?:config|conf|setup)\.\w+$")

# A subject tag that only points at a tracker: `[PR #2047]`, `[Issue #1809]`, `[#12]`, `GH-42:`.
TRACKER_TAG = r"(?i)^(?:(?:pr|pull|pull request|issue|issues|bug|ticket|gh|fix|fixes|closes|refs?|see)\s*[-#]?\s*|#)\d+$"

MAX_THEMES = 8
MIN_TERM_ITEMS = 2
MIN_LIFT = 2.0
MIN_PATH_SHARE = 0.05
TERM_FACTOR = 0.8

THEMES_SCHEMA = {
    "person_id": pl.String,
    "scope": pl.String,
    "scope_key": pl.String,
    "theme": pl.String,
    "weight": pl.Float64,
    "work_item_ids": pl.List(pl.String),
    "source": pl.String,
}


def _words(segment: str) -> str:
    """A path segment as words: leading underscores off, snake/kebab case to spaces."""
    seg = segment.lstrip("_").strip()
    seg = re.sub(r"[_\-]+", " ", seg).strip()
    return seg


def _display(name: str) -> str:
    words = display_words()
    name = " ".join(words.get(w.lower(), w) for w in re.sub(r"\s+", " ", name).strip().split(" "))
    if re.fullmatch(r"[a-z][a-z0-9]*", name.split(" ")[0]):
        return name[0].upper() + name[1:]
    return name


@lru_cache(maxsize=1)
def _platform_suffix() -> re.Pattern[str]:
    """The `_<platform>` endings of a file stem (lexicon ``platform_suffixes``), any number."""
    words = "|".join(sorted(map(re.escape, lexicon()["platform_suffixes"]), key=len, reverse=True))
    return re.compile(rf"(?i)(?:_(?:{words}))+$")


@lru_cache(maxsize=1)
def _numbered_stem() -> re.Pattern[str]:
    """A file stem that numbers one of a series (lexicon ``numbered_stems``): `tutorial001`."""
    words = "|".join(sorted(map(re.escape, lexicon()["numbered_stems"]), key=len, reverse=True))
    return re.compile(rf"(?i)(?:{words})[_-]?\d+[a-z]?(?:_[a-z0-9]+)*")


def _names_nothing(stem: str) -> bool:
    """A file stem that names no area of its own: none, a generic one (`utils`, `__init__`), or
    one of a numbered series (`tutorial001`)."""
    generic = lexicon()["generic_stems"]
    return (not stem or stem.lower() in generic or stem.lower().strip("_") in generic
            or bool(_numbered_stem().fullmatch(stem)))


_CUCUMBER_SUPPORT = re.compile(r"(?:^|/)features/(?:step_definitions|support)/")


def module_name(path: str, repo: str = "") -> str | None:
    """The module a path belongs to, as a theme name, or None when it names nothing.

    Directories named like the repository itself (``src/flask`` in pallets/flask) are generic
    there: every file of the repository is in them."""
    lex = lexicon()
    own = _repo_words(repo)
    parts = [p for p in (path or "").split("/") if p]
    if not parts:
        return None
    file_name = parts[-1]
    dirs = parts[:-1]
    stem = file_name.split(".")[0] if not file_name.startswith(".") else ""
    # a platform's variant of a module names the module (Go's `light_unix.go`, `runeindex_x86`)
    stem = _platform_suffix().sub("", stem) or stem
    if ("." not in file_name or file_name.rsplit(".", 1)[-1].lower() not in lex["code_extensions"]
            or _CONFIG_FILE.match(file_name)):
        stem = ""  # configuration, data and docs name only their area (vite.config.ts too)
    # Cucumber's tests: `features/site_configuration.feature` (Gherkin) names the area it tests,
    # its step definitions and support code name nothing (jekyll's profile read "works mainly
    # on Site, Features and Commands")
    if _CUCUMBER_SUPPORT.search(path or ""):
        return None
    gherkin = file_name.lower().endswith(".feature")
    if gherkin:
        stem, dirs = file_name[: -len(".feature")], [d for d in dirs if d.lower() != "features"]
    in_tests = any(_is_test_dir(d) for d in dirs)
    is_test_file = gherkin or bool(re.match(r"(?i)^test_|.*_tests?$|.*\.test$|.*\.spec$", stem))
    if in_tests and not is_test_file:
        return None  # fixtures, data and cases inside a test tree name no module
    if is_test_file:
        stem = re.sub(r"(?i)^test_|_tests?$|\.(?:test|spec)$", "", stem)
        dirs = [d for d in dirs if not _is_test_dir(d)]
        if in_tests:
            # tests/unit/test_views.py names "views", the area it tests; a folder of such tests
            # names it when the file names nothing (FastAPI's
            # tests/test_tutorial/test_path_params/test_tutorial001.py: "path params")
            dirs = [d[len("test_"):] for d in dirs if d.lower().startswith("test_") and len(d) > len("test_")
                    and _names_nothing(stem)]
    dirs = [d.lstrip(".") for d in dirs]
    meaningful = _meaningful_dirs(dirs, own)
    area = _words(meaningful[-1]) if meaningful else ""
    stem_words = "" if _names_nothing(stem) else _words(stem)
    if stem_words.lower() in own:
        stem_words = ""
    if stem_words and area and stem_words.lower() == area.lower():
        stem_words = ""
    name = " ".join(w for w in (area, stem_words) if w)
    if not name or len(name) < 2:
        return None
    return _display(_docs_suffix(dirs, name))


def _docs_suffix(dirs: list[str], name: str) -> str:
    """A directory inside the documentation names a part of the docs: "Usage and configuration docs"."""
    lex = lexicon()
    if dirs and dirs[0].lower() in lex["docs_dirs"] and name.lower() not in lex["docs_dirs"]:
        return name + " docs"
    return name


@lru_cache(maxsize=1)
def _bundle_dir() -> re.Pattern[str]:
    return re.compile(r"(?i)^.+\.(?:" + "|".join(map(re.escape, lexicon()["bundle_extensions"])) + r")$")


def _meaningful_dirs(dirs: list[str], own: frozenset[str]) -> list[str]:
    """The directories of a path that can name an area of work.

    Not: generic and test directories, the repository's own name (with a version number too:
    okhttp's `okhttp3/`), the organisation of a JVM package (`java/com/squareup/`: every file of
    square/okhttp sat in "Squareup"), and anything in a tool's bundle (`Alamofire.xcodeproj/`,
    where Xcode keeps the build settings and schemes every new source file touches)."""
    lex = lexicon()
    roots, domains, bundle = lex["jvm_source_roots"], lex["package_domains"], _bundle_dir()
    if any(bundle.match(d) for d in dirs):
        return []
    lower = [d.lower() for d in dirs]
    organisation = {i + 1 for i in range(len(lower) - 1)
                    if lower[i] in domains and i > 0 and lower[i - 1] in roots}
    # a Gradle source set (`src/jvmMain/kotlin/`, `src/commonJvmAndroid/kotlin/`) is no area either
    source_set = {i for i in range(1, len(lower) - 1) if lower[i - 1] == "src" and lower[i + 1] in roots}
    return [d for i, (d, low) in enumerate(zip(dirs, lower))
            if low not in lex["generic_dirs"] and not _is_test_dir(d)
            and low not in own and low.rstrip("0123456789") not in own and not _named_as_repo(low, own)
            and i not in organisation and i not in source_set]


def _named_as_repo(low: str, own: frozenset[str]) -> bool:
    """A directory named by the repository's words alone, in any punctuation: .NET's project
    folder `Newtonsoft.Json/` in JamesNK/Newtonsoft.Json ("works mainly on ... Newtonsoft.Json")."""
    words = [w for w in re.split(r"[^a-z0-9]+", low) if w]
    return len(words) > 1 and all(w in own for w in words)


def _is_test_dir(name: str) -> bool:
    """A directory of tests: by name (`tests/`), a Gradle test source set (`jvmTest/`,
    `androidUnitTest/`: camel case ending in Test, so `latest/` is none), or a .NET test project
    (`Newtonsoft.Json.Tests/`, `Foo.UnitTests/`)."""
    return (name.lower() in lexicon()["test_dirs"] or bool(re.fullmatch(r"[a-z][A-Za-z0-9]*Test", name))
            or bool(re.fullmatch(r"(?i).+\.(?:unit|integration)?tests?", name)))


def _repo_words(repo: str) -> frozenset[str]:
    """The words of a repository's name (three letters or more), and its name itself however
    short (rq/rq's package folder rq/ had made "Rq" Selwin Ong's first theme)."""
    name = (repo or "").lower().rsplit("/", 1)[-1]
    return frozenset(w for w in re.split(r"[^a-z0-9]+", (repo or "").lower()) if len(w) >= 3) | ({name} if name else frozenset())


def area_name(path: str, repo: str = "") -> str | None:
    """The area a path belongs to: its deepest directory that is not generic (or None)."""
    lex = lexicon()
    own = _repo_words(repo)
    dirs = [p.lstrip(".") for p in (path or "").split("/")[:-1] if p]
    if any(_is_test_dir(d) for d in dirs) or _CUCUMBER_SUPPORT.search(path or "") or (path or "").lower().endswith(".feature"):
        return None  # a test tree is named by the modules its test files test
    meaningful = _meaningful_dirs(dirs, own)
    if not meaningful:
        return None
    name = _words(meaningful[-1])
    return _display(_docs_suffix(dirs, name)) if len(name) >= 2 else None


def theme_key_expr(name: pl.Expr) -> pl.Expr:
    """Normalised theme name: lower case, letters and digits only, a plural 's' dropped."""
    word = pl.element()
    plural = (word.str.len_chars() > 3) & word.str.ends_with("s") & ~word.str.ends_with("ss")
    return name.str.to_lowercase().str.extract_all(r"[a-z0-9]+") \
        .list.eval(pl.when(plural).then(word.str.head(-1)).otherwise(word)).list.join(" ")


def theme_key(name: str) -> str:
    """:func:`theme_key_expr` of one name."""
    return pl.select(theme_key_expr(pl.lit(name, dtype=pl.String))).item()


def _scoped(frame: pl.DataFrame) -> pl.DataFrame:
    """Each row three times: scope all, its month and its repository."""
    return pl.concat([
        frame.with_columns(pl.lit("all").alias("scope"), pl.lit("all").alias("scope_key")),
        frame.with_columns(pl.lit("month").alias("scope"), pl.col("month").alias("scope_key")),
        frame.with_columns(pl.lit("repo").alias("scope"), pl.col("repo").alias("scope_key")),
    ])


_KEYS = ["person_id", "scope", "scope_key"]


def _own_commits(commits: pl.DataFrame, work_items: pl.DataFrame) -> pl.DataFrame:
    """Counted, non-bot commits of their work item's owner: person_id, repo, sha, month, item, subject."""
    counted = commits.filter(pl.col("is_counted").fill_null(False) & ~pl.col("is_bot").fill_null(False)) \
        if "is_counted" in commits.columns else commits.filter(~pl.col("is_merge").fill_null(False))
    counted = counted.with_columns(
        pl.coalesce(pl.col("work_item_id"), pl.col("repo") + pl.lit("@") + pl.col("sha").str.slice(0, 12)).alias("item")
    )
    owners = work_items.select(pl.col("work_item_id").alias("item"), pl.col("person_id").alias("_owner"),
                               pl.col("title").alias("_title")).unique("item", keep="first")
    return (
        counted.join(owners, on="item", how="left")
        .filter(pl.col("person_id") == pl.coalesce(pl.col("_owner"), pl.col("person_id")))
        .select("person_id", "repo", "sha", "month", "item", "subject",
                pl.coalesce(pl.col("_title"), pl.col("subject")).alias("title"))
    )


def _path_themes(own: pl.DataFrame, file_changes: pl.DataFrame) -> pl.DataFrame:
    kept = file_changes.filter(~pl.col("excluded").fill_null(False)) if "excluded" in file_changes.columns else file_changes
    kept = kept.filter(~pl.col("path").fill_null("").str.contains(CHANGELOG_RECORD))
    rows = kept.select("repo", "sha", "path", (pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0)).alias("lines")) \
        .join(own.select("person_id", "repo", "sha", "month", "item"), on=["repo", "sha"], how="inner")
    if rows.height == 0:
        return pl.DataFrame(schema=THEMES_SCHEMA)
    paths = rows.select("repo", "path").unique()
    names = pl.concat([
        paths.with_columns(pl.struct("path", "repo").map_elements(lambda r: fn(r["path"], r["repo"]),
                                                                  return_dtype=pl.String).alias("theme"))
        for fn in (module_name, area_name)
    ]).drop_nulls("theme").unique()
    per_item = (
        rows.join(names, on=["repo", "path"])
        .group_by("person_id", "repo", "month", "item", "theme").agg(pl.col("lines").sum())
        .with_columns(pl.col("lines").log1p().alias("w"))
    )
    scoped = _scoped(per_item)
    # The share of the scope's changes in a module (a path counts once for its module and once
    # for its area, so the total is per path, not per name).
    total = _scoped(
        rows.group_by("person_id", "repo", "month", "item", "path").agg(pl.col("lines").sum())
        .group_by("person_id", "repo", "month", "item").agg(pl.col("lines").sum().log1p().alias("w"))
    ).group_by(_KEYS).agg(pl.col("w").sum().alias("_total"))
    return (
        scoped.group_by([*_KEYS, "theme"])
        .agg(pl.col("w").sum(), pl.col("item").unique().sort().alias("work_item_ids"))
        .join(total, on=_KEYS)
        .with_columns((pl.col("w") / pl.col("_total")).alias("weight"), pl.lit("path").alias("source"))
        # a scope whose changes have no lines (a mode change only) has no shares: 0/0 is NaN,
        # which Polars orders above every number
        .filter((pl.col("_total") > 0) & (pl.col("weight") >= MIN_PATH_SHARE))
        .select(list(THEMES_SCHEMA))
    )


def _item_counts(own: pl.DataFrame) -> pl.DataFrame:
    items = own.select("person_id", "repo", "month", "item").unique(["person_id", "item", "month"])
    return _scoped(items).group_by(_KEYS).agg(pl.col("item").n_unique().alias("_n"))


def _test_dirs() -> str:
    """The lexicon's test directory names as one regex alternation."""
    return "|".join(map(re.escape, sorted(lexicon()["test_dirs"])))


def _test_script_ids(file_changes: pl.DataFrame) -> pl.DataFrame:
    """``[repo, tag]``: numbered test scripts' ids, the subject tags that name one test ("t5551:"
    for t/t5551-http-fetch-smart.sh): the leading letters-and-digits token of a file in a test
    directory of the repository."""
    return (
        file_changes.lazy().select("repo", "path").unique()
        .filter(pl.col("path").str.contains(rf"(?i)(?:^|/)(?:{_test_dirs()})/"))
        .select("repo", pl.col("path").str.extract(r"([^/]+)$", 1).str.to_lowercase()
                .str.extract(r"^([a-z]+[0-9]+)(?:[-_.]|$)", 1).alias("tag"))
        .drop_nulls().unique().collect()
    )


def _tag_themes(own: pl.DataFrame, file_changes: pl.DataFrame) -> pl.DataFrame:
    # a title's tags, worked out once per distinct subject or title (each is many commits' text)
    # (a tag needs a `[…]` or a `…:` prefix: other texts have none and are not parsed at all)
    texts = pl.concat([own.select(pl.col("subject").alias("_text")), own.select(pl.col("title").alias("_text"))]) \
        .unique().drop_nulls().filter(pl.col("_text").str.contains(r"[\[:]"))
    tags = texts.with_columns(pl.Series("tag", ["\x1f".join(clean_title(t).tags) for t in texts["_text"]],
                                        dtype=pl.String).str.split("\x1f"))
    rows = pl.concat([
        own.select("person_id", "repo", "month", "item", pl.col(column).alias("_text")) for column in ("subject", "title")
    ]).join(tags, on="_text").drop("_text").explode("tag", empty_as_null=False).filter(pl.col("tag") != "").unique()
    # Tags that name a test are no area: a test directory ("t:"), a path into one
    # ("t/lib-httpd:"), a numbered test script ("t5551:").
    # ... nor does a tracker's number (Alamofire's `[PR #2047]`, `[Issue #1809]` led its months)
    rows = rows.join(_test_script_ids(file_changes), on=["repo", "tag"], how="anti").filter(
        ~pl.col("tag").str.contains(rf"^(?:{_test_dirs()})(?:/|$)") & ~pl.col("tag").str.contains(TRACKER_TAG))
    # ... nor is the repository's own name ("curl:" in curl/curl): everything there is curl
    own_names = pl.DataFrame([(r, w) for r in rows["repo"].unique().to_list() for w in _repo_words(r)],
                             schema={"repo": pl.String, "tag": pl.String}, orient="row")
    rows = rows.join(own_names, on=["repo", "tag"], how="anti")
    if rows.height == 0:
        return pl.DataFrame(schema=THEMES_SCHEMA)
    return (
        _scoped(rows).group_by([*_KEYS, "tag"])
        .agg(pl.col("item").unique().sort().alias("work_item_ids"))
        .join(_item_counts(own), on=_KEYS)
        .with_columns(
            pl.col("tag").map_elements(_display_tag, return_dtype=pl.String).alias("theme"),
            (pl.col("work_item_ids").list.len() / pl.col("_n")).alias("weight"),
            pl.lit("tag").alias("source"),
        )
        .select(list(THEMES_SCHEMA))
    )


def _display_tag(tag: str) -> str:
    return _display(tag) if re.fullmatch(r"[a-z][a-z0-9 ]*", tag) else tag


def _term_themes(own: pl.DataFrame, commits: pl.DataFrame, work_items: pl.DataFrame) -> pl.DataFrame:
    # Background: every work item of the repository (everybody's), one title each.
    if work_items.height == 0:
        return pl.DataFrame(schema=THEMES_SCHEMA)
    items = work_items.select(pl.col("work_item_id").alias("item"), "repo", "person_id", "title").unique("item", maintain_order=True)
    items = items.with_columns(pl.col("title").map_elements(lambda t: clean_title(t).text, return_dtype=pl.String)
                               .alias("_text")).with_columns(pl.col("_text").str.to_lowercase().alias("_clean"))
    ngrams = title_ngrams(items, "item", "_text").with_columns(theme_key_expr(pl.col("gram")).alias("term"))
    verbs = _verb_like(items)
    grams = (
        ngrams.filter(pl.col("is_term") & (pl.col("term") != "")
                      & ~pl.col("term").str.split(" ").list.first().is_in(verbs))
        .select("item", "term").unique()
        .join(items.select("item", "repo", "person_id"), on="item")
        .select("item", "repo", "person_id", "term")
    )
    # Counted per distinct clean title: a change, its revert and its reland are one title.
    distinct = items.sort("item").unique(["repo", "person_id", "_clean"], keep="first", maintain_order=True).select("item")
    counted_grams = grams.join(distinct, on="item", how="semi")
    n_repo = items.group_by("repo").agg(pl.col("_clean").n_unique().alias("_nr"))
    n_person = items.group_by("repo", "person_id").agg(pl.col("_clean").n_unique().alias("_np"))
    df_repo = counted_grams.group_by("repo", "term").agg(pl.len().alias("_dr"))
    df_person = counted_grams.group_by("repo", "person_id", "term").agg(pl.len().alias("_dp"))
    lift = (
        df_person.join(df_repo, on=["repo", "term"]).join(n_repo, on="repo").join(n_person, on=["repo", "person_id"])
        # the person's rate against everybody else's (add-one smoothed)
        .with_columns(((pl.col("_dp") / pl.col("_np"))
                       / ((pl.col("_dr") - pl.col("_dp") + 1) / (pl.col("_nr") - pl.col("_np") + 1))).alias("lift"))
        .filter((pl.col("_dp") >= MIN_TERM_ITEMS) & (pl.col("lift") >= MIN_LIFT))
        .select("repo", "person_id", "term", "lift")
    )
    if lift.height == 0:
        return pl.DataFrame(schema=THEMES_SCHEMA)
    written = _written_forms(
        ngrams.join(grams.join(lift.select("repo", "person_id", "term"), on=["repo", "person_id", "term"])
                    .select("item").unique(), on="item"),
        lift.select("term").unique())
    # Subsumption: drop an n-gram when a longer kept one has at least 80% of its items.
    item_terms = grams.join(lift, on=["repo", "person_id", "term"])
    drop = _subsumed(item_terms)
    if drop.height:
        item_terms = item_terms.join(drop, on=["repo", "person_id", "term"], how="anti")
    scoped_items = own.select("person_id", "repo", "month", "item").unique()
    rows = scoped_items.join(item_terms.select("item", "person_id", "term", "lift"), on=["item", "person_id"])
    if rows.height == 0:
        return pl.DataFrame(schema=THEMES_SCHEMA)
    return (
        _scoped(rows).group_by([*_KEYS, "term"])
        .agg(pl.col("item").unique().sort().alias("work_item_ids"), pl.col("lift").max())
        .join(_item_counts(own), on=_KEYS)
        .join(written, on="term", how="left")
        # A plain lower-case word alone names no area (gson's "obsolete", "outdated", "local",
        # "args"); a name written as one (GitHub, CodeQL, JDK) or a phrase does.
        .filter(~pl.coalesce(pl.col("written"), pl.col("term")).str.contains(r"^[a-z]+$"))
        .with_columns(
            pl.coalesce(pl.col("written"), pl.col("term")).alias("theme"),
            (pl.col("work_item_ids").list.len() / pl.col("_n")
             * TERM_FACTOR * (pl.col("lift").log(2) / 4).clip(0.25, 1.0)).alias("weight"),
            pl.lit("term").alias("source"),
        )
        .select(list(THEMES_SCHEMA))
    )


SUBSUMED_SHARE = 0.8


def _subsumed(item_terms: pl.DataFrame) -> pl.DataFrame:
    """``[repo, person_id, term]`` of the terms to drop: a term is dropped when a longer term of
    the same person and repository that is itself kept contains it (as whole words) and has at
    least :data:`SUBSUMED_SHARE` of its items. Decided from the longest terms down, one length
    at a time, so "kept" is known for every longer term when a shorter one is judged."""
    keys = ["repo", "person_id"]
    support = (
        item_terms.group_by(*keys, "term").agg(pl.col("item").n_unique().alias("_n"))
        .with_columns(pl.col("term").str.count_matches(" ").add(1).alias("_len"))
    )
    dropped = support.head(0).select(*keys, "term")
    lengths = sorted(support["_len"].unique().to_list(), reverse=True)
    for length in lengths[1:]:
        kept_longer = support.filter(pl.col("_len") > length).join(dropped, on=[*keys, "term"], how="anti")
        pairs = (
            support.filter(pl.col("_len") == length)
            .join(kept_longer.select(*keys, pl.col("term").alias("_longer"), pl.col("_n").alias("_ln")), on=keys)
            .filter((pl.lit(" ") + pl.col("_longer") + pl.lit(" ")).str.contains(pl.lit(" ") + pl.col("term") + pl.lit(" "), literal=True)
                    & (pl.col("_ln") >= SUBSUMED_SHARE * pl.col("_n")))
        )
        dropped = pl.concat([dropped, pairs.select(*keys, "term").unique()])
    return dropped


VERB_SHARE = 0.5


def _verb_like(items: pl.DataFrame) -> list[str]:
    """Words used mostly as the first word of titles (imperative verbs: "harden", "mimic",
    "prepare"), learnt from the repository's own titles: a term starting with one names an
    action, not an area."""
    # a negated imperative leads with its verb too: "do not rely on to_ary", "don't cache ..."
    lead = pl.col("_clean").str.replace(r"(?i)^(?:do not|does not|don't|dont|doesn't|never|no longer)\s+", "")
    keys = items.select(lead.str.extract_all(r"[A-Za-z_][A-Za-z0-9_]*")
                        .list.eval(theme_key_expr(pl.element())).alias("k"))
    first = keys.select(pl.col("k").list.first().alias("w")).drop_nulls().group_by("w").len("first")
    total = keys.select(pl.col("k").list.unique().alias("w")).explode("w", empty_as_null=False).drop_nulls().group_by("w").len("total")
    verbs = first.join(total, on="w").filter((pl.col("first") >= 2) & (pl.col("first") >= VERB_SHARE * pl.col("total")))
    return sorted(verbs["w"].to_list())


def _written_forms(ngrams: pl.DataFrame, terms: pl.DataFrame) -> pl.DataFrame:
    """``[term, written]``: terms are matched lower-case; prose shows each as most often written
    in these titles' n-grams (ties: the first in code-point order)."""
    return (
        ngrams.join(terms, on="term", how="semi")
        .group_by("term", "written").len()
        .sort(["term", "len", "written"], descending=[False, True, False])
        .unique("term", keep="first")
        .select("term", "written")
    )


def _drop_narrower(frame: pl.DataFrame) -> pl.DataFrame:
    """Drop a theme that only extends another one's name with the same work items
    ("Model tracing run" beside "Model tracing", both from the same changes): it adds words,
    not information. Each name is joined with its own word prefixes, not with every name of
    its scope."""
    words = pl.col("_key").cast(pl.String).str.split(" ")
    prefixes = (
        frame.select(*_KEYS, "_key", "work_item_ids", words.alias("_w"))
        .filter(pl.col("_w").list.len() > 1)
    )
    if prefixes.height == 0:
        return frame
    prefixes = (
        prefixes.with_columns(pl.int_ranges(1, pl.col("_w").list.len()).alias("_n"))
        .explode("_n", empty_as_null=False)
        .with_columns(pl.col("_w").list.head(pl.col("_n")).list.join(" ").alias("_broad"))
    )
    narrower = prefixes.join(
        frame.select(*_KEYS, pl.col("_key").alias("_broad"), pl.col("work_item_ids").alias("_ids")),
        on=[*_KEYS, "_broad"],
    ).filter(pl.col("work_item_ids") == pl.col("_ids")).select(*_KEYS, "_key").unique()
    return frame.join(narrower, on=[*_KEYS, "_key"], how="anti")


def _items_of_no_area(commits: pl.DataFrame, file_changes: pl.DataFrame, work_items: pl.DataFrame) -> pl.DataFrame:
    """``[work_item_id]``: the items whose every commit changes only the project's records or
    vendored code, and the releases (release work, `chore`, with a commit that makes a release:
    phoenix's "Release 1.8.0-rc.3" made "rc.3" a theme of its month, and the version strings of
    "Release 1.8.4" in installer/mix.exs made February's "Installer and Mix")."""
    if "work_item_id" not in commits.columns:
        return pl.DataFrame(schema={"work_item_id": pl.String})
    chores = work_items.filter(pl.col("category") == "chore").select("work_item_id")
    releases = (commits.filter(release_subject(pl.col("subject").fill_null(""))).select("work_item_id").drop_nulls()
                .join(chores, on="work_item_id", how="semi").unique())
    if file_changes.height == 0:
        return releases
    vendored = excluded_as(file_changes, "vendored")
    only_records = (
        file_changes.with_columns(pl.col("path").fill_null("").alias("_p"))
        .group_by("repo", "sha").agg((pl.col("_p").str.contains(RECORD_PATH)
                                      | fragment_type(pl.col("_p")).is_not_null()
                                      | vendored).all().alias("_r"))
    )
    return pl.concat([
        commits.drop_nulls("work_item_id").select("repo", "sha", "work_item_id")
        .join(only_records, on=["repo", "sha"], how="left")
        .group_by("work_item_id").agg(pl.col("_r").fill_null(False).all())
        .filter("_r").select("work_item_id"),
        releases,
    ]).unique(maintain_order=True)


def person_themes(
    commits: pl.DataFrame, work_items: pl.DataFrame, file_changes: pl.DataFrame, max_themes: int = MAX_THEMES
) -> pl.DataFrame:
    """The SPEC ``themes`` table (plus ``source``) for every person with counted commits."""
    records = _items_of_no_area(commits, file_changes, work_items)
    work_items = work_items.join(records, on="work_item_id", how="anti")
    own = _own_commits(commits, work_items).join(records.rename({"work_item_id": "item"}), on="item", how="anti")
    if own.height == 0:
        return pl.DataFrame(schema=THEMES_SCHEMA)
    found = pl.concat([
        _path_themes(own, file_changes).cast(THEMES_SCHEMA),
        _tag_themes(own, file_changes).cast(THEMES_SCHEMA),
        _term_themes(own, commits, work_items).cast(THEMES_SCHEMA),
    ])
    if found.height == 0:
        return pl.DataFrame(schema=THEMES_SCHEMA)
    order = {"tag": 0, "path": 1, "term": 2}
    merged = (
        # rounded before ranking: sums of logs in another order must not flip a tie
        found.with_columns(pl.col("weight").clip(0.0, 1.0).round(4)).with_columns(
            theme_key_expr(pl.col("theme")).alias("_key"),
            pl.col("source").replace_strict(order, return_dtype=pl.Int8).alias("_rank"),
        )
        .sort([*_KEYS, "_key", "weight", "_rank", "theme"], descending=[False, False, False, False, True, False, False])
        .group_by([*_KEYS, "_key"], maintain_order=True)
        .agg(
            pl.col("theme").first(),
            pl.col("weight").first(),
            pl.col("work_item_ids").list.explode(keep_nulls=False, empty_as_null=False).unique().sort(),
            pl.col("source").first(),
        )
        .with_columns(pl.col("weight").round(4))
    )
    merged = _drop_narrower(  # among the leading candidates only: the pairs are per scope
        merged.sort([*_KEYS, "weight", "theme"], descending=[False, False, False, True, False])
        .filter(pl.int_range(pl.len()).over(_KEYS) < 3 * max_themes)
    )
    merged = (
        merged.sort([*_KEYS, "weight", "theme"], descending=[False, False, False, True, False])
        .filter(pl.int_range(pl.len()).over(_KEYS) < max_themes)
    )
    return merged.select(list(THEMES_SCHEMA)).sort(["person_id", "scope", "scope_key", "weight", "theme"],
                                                   descending=[False, False, False, True, False])
