"""Which file changes profile lines-of-code leave out, and why.

Raw line counts stay as git reports them (``commits.lines_added`` equals ``git log --numstat``);
this module only marks each file change with ``excluded`` and ``exclusion_reason`` so that
profile LOC can leave out what a person did not write by hand.

Rules (the data below is the documentation; first matching reason wins, in this order):

1. ``submodule``  -- a gitlink (mode 160000) update: ``is_submodule`` is true.
2. ``binary``     -- git reports the change as binary (``is_binary``; numstat ``- -``).
3. ``vendored``   -- some *directory* of the path is one of :data:`VENDORED_DIRS` (any case) or
   :data:`VENDORED_DIRS_EXACT_CASE`, anywhere in the path (``a/b/third_party/x/y.c``).
   ``external/``, ``extern/``, ``deps/`` and ``tools/`` are deliberately NOT vendored: in many
   projects they hold first-party code (GitHub Linguist treats them as vendored, which suits
   repository language bars but would hide real work from a profile).
4. ``lock_file``  -- the file name is one of :data:`LOCK_FILE_NAMES` (exact, case-sensitive),
   files that package managers write, not people.
5. ``generated``  -- the file name matches one of :data:`GENERATED_FILE_GLOBS` (any case; ``*``
   stays inside the name), or a directory is one of :data:`GENERATED_DIRS`, or the file is a
   JavaScript/CSS bundle or source map under a ``dist/`` directory
   (:data:`BUNDLE_DIRS` x :data:`BUNDLE_EXTENSIONS`). ``dist/`` is not excluded wholesale:
   Python projects keep packaging scripts there; only built web assets are.
5b. ``generated`` -- (with ``generated=``, from ``enrich.generated``, applied after the vendored
   trees) a path whose content, at the tip or when it was deleted, go-enry's ``is_generated``
   recognises as a generator's output (``// Code generated ... DO NOT EDIT.``).
5c. ``generated`` -- (with ``repo``) an HTML page in a site's folder (``docs/``, ``site/``,
   ``public/``, ...; or at the root) whose Markdown or reStructuredText source of the same name
   sits beside it in the repository's history (``docs/guide.html`` and ``docs/guide.md``): a
   site built from its sources and committed.

Repository-dependent rules (``exclusions.yaml``, applied by :func:`classify_exclusions` after the
path rules, only where the earlier ones gave no reason):

6. ``bulk_import`` -- the new files of a commit that copies in a large tree of existing code
   (at least ``min_files`` new text files and ``min_lines`` added lines in them, and those
   carrying ``min_new_share`` of the commit's added lines); and a single new text file of at
   least ``min_file_lines`` lines (an amalgamated or single-header library, a built bundle).
7. ``data_file`` / ``prose_file`` -- the file's Linguist language is of type data (JSON, YAML,
   CSV, XML, ...) or prose (Markdown, Text, reStructuredText, ...), unless that type is the
   repository's product (at least ``product_share`` of the distinct paths of its history that
   have a language, and of the lines changed in them). Needs the ``language`` column (``enrich.languages.with_language``);
   without it the rule is skipped. A file without a Linguist language whose extension is one
   of ``data_extensions`` (certificates, keys, vector artwork saved as text) is a data file too,
   and one whose name is one of ``prose_names`` (``AUTHORS``, ``NOTICE``, ``HACKING``) a prose file.

With the repository's commits (``commits=``, needs ``subject``), one more rule, applied right
after the path rule for ``vendored`` (same reason):

3b. ``vendored`` -- a *vendored tree*: a directory (not at the root) that a commit's subject
   names as copied in (``Update urllib3 to v1.21.1``, ``Vendor idna v2.1``, ``embed chardet``),
   holding most of that commit's changed lines and at least ``min_code_lines`` of them in
   code; and the subdirectories of a directory (not the root) holding two or more such trees
   (``deps/`` with jemalloc and lua: ``deps/hiredis`` too, not ``deps/Makefile``). Every change
   under them counts as vendored, in any commit (``exclusions.yaml``, ``vendored_tree``).
3c. ``vendored`` -- a JavaScript or CSS file whose name carries a version (``jquery-3.3.1.js``,
   ``bootstrap-2.3.2.css``, ``moment-2.29.1.min.js``): a library release copied in (:data:`VERSIONED_ASSET`).
   GitHub Linguist's own vendor list by file name is not used: it takes every TypeScript
   declaration file (``fastify.d.ts``, written by hand there), ``react.js`` or ``import.css``.
3d. ``vendored`` -- every change of a git-subtree squash (``Squashed 'docs/' changes from a..b``,
   ``exclusions.yaml`` ``subtree_squash``): a commit of the other history's tree, which the
   merge after it puts under the named directory; its work is the other project's.
5d. ``generated`` / ``vendored`` -- (with ``generated=``) the repository's own ``.gitattributes``
   at the tip: ``linguist-generated`` and ``linguist-vendored``, as git applies them
   (``enrich.generated.linguist_attributes``); ``-linguist-generated`` keeps a file rule 5b
   would leave out; also under the names the file had before a rename (jq's Bison output,
   `parser.c` before it moved to `src/`). Not so 5b: a generator's header can be younger than
   the file (hugo's template_embedded.go, written by hand for years before it was generated).
5e. ``generated`` -- the files autotools copy or write: :data:`AUTOTOOLS_FILES` anywhere, and
   (with ``repo``) a ``configure`` beside the ``configure.ac``/``configure.in`` it is built from,
   where a commit changed both (regenerated it); a ``configure`` without one is a hand-written
   script (ffmpeg's; tmux's before it moved to autoconf).
5g. ``generated`` -- (with ``repo``, ``sha`` and line counts) a *mirrored tree*: a folder (one or
   two levels down) whose files a program copies from another folder, changed with them in the
   same commits by the same line counts (zod's ``deno/lib/``, written from ``src/`` by a build
   script: 764 changes of 81 files in 389 commits; its 48,891 added lines had counted as its
   authors' work). At least ``MIRROR_MIN_COMMITS`` commits, ``MIRROR_MIN_FILES`` files and
   ``MIRROR_MIN_SHARE`` of the copy's changes (each of 3 lines or more) match; the copy is the
   folder that appeared later (with ``commits``' ``authored_at``; else none is marked).
5f. ``generated`` -- (with ``repo``) a file directly in a folder where at least
   ``GENERATED_FOLDER_SHARE`` of the files, and ``GENERATED_FOLDER_MIN`` or more, are generated by
   the rules above: the scripts and stylesheets a documentation generator writes beside its pages
   (not a package's own entry file there, `__init__.py` or `mod.rs`: :data:`PACKAGE_ENTRY`).

Only the path *after* the change (``path``) is classified. For a rename that means moving code
into ``vendor/`` counts as vendoring (excluded) and moving it out of ``vendor/`` counts as taking
ownership (kept); git's line counts for a rename are only the edits made alongside it anyway.
For a deletion ``path`` is the deleted file, so deleting a vendored tree is excluded too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import polars as pl

from exceeds_pipeline.common.globs import glob_to_regex
from exceeds_pipeline.common.yamlfile import load_yaml

RULES = load_yaml(Path(__file__).with_name("exclusions.yaml"))

__all__ = [
    "BUNDLE_DIRS",
    "BUNDLE_EXTENSIONS",
    "EXCLUSION_REASONS",
    "PATH_REASONS",
    "GENERATED_DIRS",
    "GENERATED_FILE_GLOBS",
    "LOCK_FILE_NAMES",
    "VENDORED_DIRS",
    "VENDORED_DIRS_EXACT_CASE",
    "classify_exclusions",
    "excluded_as",
    "exclusion_reason_expr",
    "source_text",
]

# Reasons in priority order (the first one that applies is recorded).
EXCLUSION_REASONS: tuple[str, ...] = (
    "submodule", "binary", "vendored", "lock_file", "generated", "bulk_import", "data_file", "prose_file",
)
# Reasons that follow from one commit (a bulk import), not from the file's path in the repository:
# the same path can count in another commit. Every other reason applies to all of a path's changes.
PER_COMMIT_REASONS: tuple[str, ...] = ("bulk_import",)
PATH_REASONS: tuple[str, ...] = tuple(r for r in EXCLUSION_REASONS if r not in PER_COMMIT_REASONS)

# Directory names that hold third-party code copied into the repository (case-insensitive).
VENDORED_DIRS: tuple[str, ...] = (
    "vendor",  # Go modules, PHP Composer, Ruby bundler
    "_vendor",  # Python: pip/_vendor, setuptools/_vendor
    "vendored",
    "vendors",
    "third_party",  # Chromium, PyTorch, TensorFlow
    "third-party",
    "thirdparty",
    "3rdparty",
    "3rd_party",
    "3rd-party",
    "node_modules",  # npm
    "bower_components",  # Bower
    "jspm_packages",  # jspm
    ".yarn",  # Yarn Berry: releases/, plugins/, sdks/, cache/
    "godeps",  # Godeps/_workspace
)
# Directory names that are vendored only with this exact spelling (lower-case forms are common
# first-party names, e.g. a Kubernetes ``pods/`` package).
VENDORED_DIRS_EXACT_CASE: tuple[str, ...] = (
    "Pods",  # CocoaPods
    "Carthage",  # Carthage/Checkouts, Carthage/Build
)

# File names written by package managers (exact, case-sensitive).
LOCK_FILE_NAMES: frozenset[str] = frozenset(
    {
        # JavaScript / TypeScript
        "package-lock.json",
        "npm-shrinkwrap.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "bun.lock",
        "bun.lockb",
        "deno.lock",
        # Python
        "poetry.lock",
        "Pipfile.lock",
        "pdm.lock",
        "uv.lock",
        "pixi.lock",
        "conda-lock.yml",
        # Rust, Go, Ruby, PHP, Elixir, Dart, Crystal, Haskell, Nix
        "Cargo.lock",
        "go.sum",
        "go.work.sum",
        "Gemfile.lock",
        "composer.lock",
        "mix.lock",
        "pubspec.lock",
        "shard.lock",
        "stack.yaml.lock",
        "cabal.project.freeze",
        "flake.lock",
        # JVM, .NET, Apple, Bazel, Terraform
        "gradle.lockfile",
        "packages.lock.json",
        "paket.lock",
        "Podfile.lock",
        "Package.resolved",
        "Cartfile.resolved",
        "MODULE.bazel.lock",
        ".terraform.lock.hcl",
    }
)

# File-name globs of machine-written files (case-insensitive; ``*`` never crosses a ``/``).
# A library release copied in: a JavaScript or CSS file whose name carries a version (rule 3c).
VERSIONED_ASSET = r"(?i)(?:^|/)[a-z][a-z0-9_]*(?:[-.][a-z][a-z0-9_]*)*[-.]v?\d+(?:\.\d+)+(?:[-.][a-z0-9]+)*\.(?:js|css)$"
# What autoconf, automake and libtool copy into a source tree or write there (rule 5e).
AUTOTOOLS_FILES: tuple[str, ...] = ("config.guess", "config.sub", "aclocal.m4", "ltmain.sh", "install-sh", "depcomp")

GENERATED_FILE_GLOBS: tuple[str, ...] = (
    # what a conflicted merge or a failed patch leaves behind (`models.py.orig`, `x.c.rej`)
    "*.orig",
    "*.rej",
    # minified web assets and their source maps
    "*.min.js",
    "*-min.js",
    "*.min.mjs",
    "*.min.css",
    "*-min.css",
    "*.js.map",
    "*.mjs.map",
    "*.cjs.map",
    "*.css.map",
    "*.ts.map",
    # Protocol Buffers / gRPC output
    "*_pb2.py",
    "*_pb2.pyi",
    "*_pb2_grpc.py",
    "*.pb.go",
    "*.pb.gw.go",
    "*.pb.validate.go",
    "*.pb.h",
    "*.pb.cc",
    "*.pb.swift",
    "*_pb.js",
    "*_pb.d.ts",
    "*_pb.ts",
    # code generators that mark their output in the file name
    "*.generated.*",  # Foo.generated.h, Api.generated.cs
    "*_generated.*",  # FlatBuffers schema_generated.h, foo_generated.go
    "zz_generated.*",  # Kubernetes deepcopy/conversion
    "*.gen.go",
    "*.g.dart",  # Dart build_runner
    "*.freezed.dart",
    "*.designer.cs",  # Visual Studio designers
    # the public API as the binary-compatibility validator dumps it (`apiDump`; coil's
    # coil-core/api/android/coil-core.api and *.klib.api: 6,448 lines had been its author's code)
    "*.api",
    # a test run's coverage report (zod's src/coverage/lcov.info: 9,750 lines in ten commits)
    "lcov.info",
    "*.lcov",
    "UpgradeLog*.htm",  # Visual Studio's project upgrade report (with _UpgradeReport_Files/)
    "UpgradeLog*.xml",
    # the build tools' wrapper scripts, written by `gradle wrapper` and `mvn wrapper:wrapper`
    # (gson's gradlew and gradlew.bat had been its author's only Shell and Batchfile)
    "gradlew",
    "gradlew.bat",
    "mvnw",
    "mvnw.cmd",
    *AUTOTOOLS_FILES,
)

# Directory names whose whole content is machine-written.
GENERATED_DIRS: tuple[str, ...] = (
    "__generated__",  # Relay, Apollo
    "__snapshots__",  # Jest, Vitest, syrupy snapshot files
    # the amalgamated header a script writes from include/ (nlohmann/json's
    # single_include/nlohmann/json.hpp: 43k of its author's 157k added lines; Catch2)
    "single_include",
    "_UpgradeReport_Files",  # Visual Studio's upgrade report: AutoMapper's HTML, CSS and XSLT "languages"
)

# Built web bundles: these extensions under these directories are generated (Phoenix and other
# Elixir/Erlang applications build their JavaScript into priv/static/: phoenix.js, phoenix.cjs.js,
# 6,195 of its author's 15,069 JavaScript lines).
BUNDLE_DIRS: tuple[str, ...] = ("dist", "priv/static")
BUNDLE_EXTENSIONS: tuple[str, ...] = ("js", "mjs", "cjs", "css", "map")

# A commit changing this many files by hand (machine-made files aside) sweeps over the tree (a
# formatter run, a directory moved, a copyright year bumped): a file it shares with another
# commit relates them no more than the tree does (work items), and its files show no skill.
SWEEP_FILES = 50


def _alternation(names) -> str:
    return "|".join(re.escape(n) for n in names)


# A path under a directory of third-party code (VENDORED_DIRS).
VENDORED_PATH = (
    f"(?:^|/)(?:(?i:{_alternation(VENDORED_DIRS)})|{_alternation(VENDORED_DIRS_EXACT_CASE)})/"
)
_GENERATED_RE = (
    "(?i)"
    f"(?:{'|'.join(glob_to_regex(g) for g in GENERATED_FILE_GLOBS)})"
    f"|(?:(?:^|/)(?:{_alternation(GENERATED_DIRS)})/)"
    f"|(?:(?:^|/)(?:{_alternation(BUNDLE_DIRS)})/(?:.*/)?[^/]*\\.(?:{_alternation(BUNDLE_EXTENSIONS)})$)"
)


def exclusion_reason_expr(
    path: str = "path", is_binary: str = "is_binary", is_submodule: str | None = "is_submodule"
) -> pl.Expr:
    """Polars expression giving the exclusion reason (String, null when the file counts)."""
    p = pl.col(path).fill_null("")
    base = p.str.extract(r"([^/]*)$", 1)
    submodule = pl.col(is_submodule).fill_null(False) if is_submodule else pl.lit(False)
    return (
        pl.when(submodule)
        .then(pl.lit("submodule"))
        .when(pl.col(is_binary).fill_null(False))
        .then(pl.lit("binary"))
        .when(p.str.contains(VENDORED_PATH) | p.str.contains(VERSIONED_ASSET))
        .then(pl.lit("vendored"))
        .when(base.is_in(sorted(LOCK_FILE_NAMES)))
        .then(pl.lit("lock_file"))
        .when(p.str.contains(_GENERATED_RE))
        .then(pl.lit("generated"))
        .otherwise(pl.lit(None, dtype=pl.String))
    )


@lru_cache(maxsize=4096)
def linguist_type(language: str) -> str | None:
    """Linguist's type of a language (programming, markup, data, prose), None if unknown."""
    try:
        import enry

        kind = enry.get_language_type(language)
    except Exception:  # no enry wheel on this platform, or an unknown name
        return None
    text = str(getattr(kind, "name", kind)).lower()
    return text if text in ("programming", "markup", "data", "prose") else None


def _new_text_file() -> pl.Expr:
    """A file the commit adds (status A), not binary: what a bulk import is made of."""
    return (pl.col("status").fill_null("") == "A") & ~pl.col("is_binary").fill_null(False)


def _bulk_import_expr(said: pl.Expr | None = None) -> pl.Expr:
    """``said``: the commit's subject says it brings a tree in (IMPORT_SUBJECT): then a smaller
    tree is one too (``said_min_files``, ``said_min_lines``)."""
    rule = RULES["bulk_import"]
    new = _new_text_file()
    added = pl.col("lines_added").fill_null(0)
    new_files = new.sum().over("repo", "sha")
    new_lines = pl.when(new).then(added).otherwise(0).sum().over("repo", "sha")
    all_lines = added.sum().over("repo", "sha")
    large = (new_files >= rule["min_files"]) & (new_lines >= rule["min_lines"])
    if said is not None:
        large = large | (said & (new_files >= rule["said_min_files"]) & (new_lines >= rule["said_min_lines"]))
    return new & large & (new_lines >= rule["min_new_share"] * all_lines)


def own_name(name: pl.Expr) -> pl.Expr:
    """A repository's or folder's name as compared for ownership: its last path part, lower
    case, without `-`, `_` or `.` (`psf/requests` -> "requests"). A folder at a repository's
    root named as the repository holds its own source, not a copy of another project's
    (`requests/` in psf/requests, `packaging/` in pypa/packaging)."""
    return name.str.extract(r"([^/]+)/?$", 1).str.to_lowercase().str.replace_all(r"[-_.]", "")


def _named_copies(file_changes: pl.DataFrame, commits: pl.DataFrame) -> pl.DataFrame:
    """(repo, sha) of the commits whose subject is a name and its version (`named_version_subject`)
    and that only add files, in a folder of that name: a copy of that release brought in (curl's
    `ares 1.1.1 with collected applied patches`, 70 new files under ares/, the c-ares library:
    11,352 lines had been Daniel Stenberg's largest feature). What is done to it afterwards is
    the work of whoever does it (c-ares grew inside curl's repository for seven years)."""
    named = (commits.select("repo", "sha", pl.col("subject").fill_null("").str.strip_chars().str.to_lowercase()
                            .str.extract(RULES["bulk_import"]["named_version_subject"], 1).alias("_name"))
             .drop_nulls("_name"))
    if named.height == 0:
        return named.select("repo", "sha")
    return (
        file_changes.join(named, on=["repo", "sha"])
        .group_by("repo", "sha").agg(
            (pl.col("lines_deleted").fill_null(0).sum() == 0).alias("_adds_only"),
            pl.col("path").fill_null("").str.to_lowercase().str.split("/").list.slice(0, pl.col("path").str.count_matches("/"))
            .list.contains(pl.col("_name")).any().alias("_in_folder"))
        .filter(pl.col("_adds_only") & pl.col("_in_folder")).select("repo", "sha")
    )


def _copied_file_expr() -> pl.Expr:
    """A single new text file of at least ``min_file_lines`` lines (a bulk import of one file);
    applied after the data and prose rules, so a long data file keeps that reason."""
    return _new_text_file() & (pl.col("lines_added").fill_null(0) >= RULES["bulk_import"]["min_file_lines"])


def source_text(path: pl.Expr) -> pl.Expr:
    """A plain text file in a source tree that is no prose by name (RULES `source_text`): no
    documentation (a change to it is no docs work: black's grammar), though, as text, it stays
    out of lines of code (phoenix's lib/phoenix/mime/mimes.txt, a copied table of 685 lines)."""
    path = path.fill_null("")
    return path.str.contains(RULES["source_text"]) & ~path.str.contains(RULES["source_text_prose"])


def _data_type_reason(frame: pl.DataFrame) -> pl.Series:
    """``data_file`` / ``prose_file`` / null per row (see module doc, rule 7)."""
    langs = [lang for lang in frame.get_column("language").unique().to_list() if lang is not None]
    types = {lang: linguist_type(lang) for lang in langs}
    kinds = frame.get_column("language").replace_strict(types, default=None, return_dtype=pl.String)
    has_lines = {"lines_added", "lines_deleted"} <= set(frame.columns)
    lines = [(pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0)).alias("_lines")] if has_lines else []
    tagged = frame.select("repo", "path", *lines).with_columns(kinds.alias("_type"))
    typed = tagged.filter(pl.col("_type").is_not_null())

    def holding(rows: pl.DataFrame, measure: pl.Expr) -> pl.DataFrame:
        """(repo, _type) of the types holding at least `product_share` of `measure`."""
        return (
            rows.group_by("repo", "_type").agg(measure.alias("_m"))
            .filter(pl.col("_m") / pl.col("_m").sum().over("repo") >= RULES["product_share"])
            .select("repo", "_type")
        )

    product = holding(typed.unique(["repo", "path"]), pl.len())
    if has_lines:
        # ... and of the lines changed: one small file per change (SQLAlchemy's 2,136 changelog
        # fragments beside 1,382 Python modules) makes many paths of a library's notes.
        product = product.join(holding(typed, pl.col("_lines").sum()), on=["repo", "_type"], how="semi")
    product = product.with_columns(pl.lit(True).alias("_product"))
    reasons = RULES["excluded_types"]
    return (
        tagged.with_row_index("_i")
        .join(product, on=["repo", "_type"], how="left")
        .sort("_i")
        .select(
            pl.when(pl.col("_product").is_null())
            .then(pl.col("_type").replace_strict(reasons, default=None, return_dtype=pl.String))
            .otherwise(None)
        )
        .to_series()
    )


def vendored_trees(file_changes: pl.DataFrame, commits: pl.DataFrame) -> pl.DataFrame:
    """``[repo, tree, whole, files]``: directories (``a/b``, no trailing slash) the history names
    as copies of other projects (module doc, rule 3b); ``whole`` is false for a directory holding
    several of them, where only its subdirectories are copies. With ``files`` true, ``tree`` is
    a folder and a file name's start, lower-case (``compat/utf8proc``: tig's copy of utf8proc as
    ``compat/utf8proc.c``, ``utf8proc.h``, ``utf8proc_data.c`` beside its own files), and the copy
    is the files whose names continue it with ``.``, ``_`` or ``-``."""
    rule = RULES["vendored_tree"]
    empty = pl.DataFrame(schema={"repo": pl.String, "tree": pl.String, "whole": pl.Boolean, "files": pl.Boolean})
    if not {"repo", "sha", "subject"} <= set(commits.columns) or file_changes.height == 0:
        return empty
    vendor, update = rule["vendor_verbs"], rule["update_verbs"]
    version = r"(?:v?\d+(?:\.[0-9x]+)+\S*|[0-9a-f]{7,40})"
    name = r"([a-z0-9][a-z0-9_.-]*)"
    said = (
        commits.select("repo", "sha", pl.col("subject").fill_null("").str.strip_chars().str.to_lowercase().alias("_s"))
        .with_columns(
            pl.coalesce(
                pl.col("_s").str.extract(rf"^(?:{vendor})\s+(?:in\s+|the\s+)?{name}", 1),
                pl.col("_s").str.extract(rf"^(?:{update})\s+(?:the\s+)?(?:vendored|bundled|embedded)\s+{name}", 1),
                pl.col("_s").str.extract(
                    rf"^(?:{update})\s+(?:the\s+)?{name}(?:\s+(?:to|at|from))?\s*(?:-\s*)?\(?(?:version\s+)?{version}(?:\W|$)", 1),
                pl.col("_s").str.extract(rf"^(?:{update})\s+(?:to\s+)?{name}\s+{version}(?:\W|$)", 1),
                # `jemalloc updated to 3.0.0`
                pl.col("_s").str.extract(rf"^{name}\s+(?:{update})\s+to\s+(?:version\s+)?{version}(?:\W|$)", 1),
            ).alias("_name")
        )
        .drop_nulls("_name")
        .select("repo", "sha", "_name")
    )
    if said.height == 0:
        return empty
    if "language" in file_changes.columns:
        langs = [x for x in file_changes.get_column("language").unique().to_list() if x is not None]
        kind = pl.col("language").replace_strict({x: linguist_type(x) for x in langs}, default=None,
                                                 return_dtype=pl.String)
    else:
        kind = pl.lit(None, dtype=pl.String)
    changed = pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0)
    files = (
        file_changes.join(said, on=["repo", "sha"], how="inner")
        .with_columns(
            changed.alias("_lines"),
            pl.col("path").fill_null("").str.split("/").alias("_parts"),
            kind.alias("_type"),
        )
        .with_columns(pl.col("_lines").sum().over("repo", "sha").alias("_total"))
    )
    if files.height == 0:  # the commits that name a copy changed no file (a merge: `Sync with 2.49.1`)
        return empty
    # The deepest directory of each path named as the commit says: not at the root when it is
    # the project's own (`requests/` in psf/requests), at the root when it is another's (rsync's
    # `zlib/`, updated by "Upgrading zlib to 1.2.8.").
    own = own_name(pl.col("repo"))
    per_dir = (
        files.with_row_index("_row")
        .with_columns(pl.col("_parts").list.slice(0, pl.col("_parts").list.len() - 1).alias("_dirs"))
        .with_columns(pl.int_ranges(0, pl.col("_dirs").list.len()).alias("_depth"))
        .explode("_depth", empty_as_null=True)
        .drop_nulls("_depth")
        .filter(pl.col("_dirs").list.get(pl.col("_depth")).str.to_lowercase() == pl.col("_name"))
        .sort("_depth")
        .group_by("_row").last()
        .filter((pl.col("_depth") >= 1) | (pl.col("_name").str.replace_all(r"[-_.]", "") != own))
    )
    per_dir = per_dir.with_columns(
        (pl.col("_dirs").cast(pl.List(pl.String)).list.slice(0, pl.col("_depth") + 1).list.join("/") if per_dir.height
         else pl.lit(None, pl.String)).alias("tree"),
        pl.lit(False).alias("files"))
    # ... or, in a folder, the files whose names start with the name (`compat/utf8proc.c`,
    # `compat/utf8proc_data.c` for "Update utf8proc to v2.4.0")
    base = pl.col("_parts").list.last().str.to_lowercase()
    named_files = (
        files.with_row_index("_row").join(per_dir.select("_row"), on="_row", how="anti")
        .filter((pl.col("_parts").list.len() >= 2) & base.str.starts_with(pl.col("_name"))
                & base.str.slice(pl.col("_name").str.len_chars(), 1).is_in([".", "_", "-"]))
        .with_columns(pl.concat_str(pl.col("path").str.extract(r"^(.*)/[^/]*$", 1), pl.lit("/"), pl.col("_name"))
                      .str.to_lowercase().alias("tree"), pl.lit(True).alias("files"))
    )
    per_dir = pl.concat([per_dir.select(named_files.columns), named_files])
    if per_dir.height == 0:
        return empty
    found_frame = (
        per_dir.group_by("repo", "sha", "tree", "files")
        .agg(
            pl.col("_lines").sum().alias("_l"),
            pl.when(pl.col("_type") == "programming").then(pl.col("_lines")).otherwise(0).sum().alias("_code"),
            pl.col("_total").first(),
        )
        .filter((pl.col("_code") >= rule["min_code_lines"])
                & (pl.col("_l") >= rule["min_share"] * pl.max_horizontal(pl.col("_total"), pl.lit(1))))
        .select("repo", "tree", "files").unique()
    )
    found = {(repo, tree, True, in_files) for repo, tree, in_files in found_frame.iter_rows()}
    parents: dict[tuple[str, str], int] = {}
    for repo, tree, _, in_files in found:
        if not in_files:
            parent = tree.rsplit("/", 1)[0] if "/" in tree else ""
            parents[(repo, parent)] = parents.get((repo, parent), 0) + 1
    # a directory of copies (redis's deps/ with jemalloc, lua, hiredis): the trees in it, not
    # the files of its own (deps/Makefile, deps/README.md are the project's)
    found |= {(repo, parent, False, False) for (repo, parent), n in parents.items()
              if n >= 2 and parent and (repo, parent, True, False) not in found}
    if not found:
        return empty
    return pl.DataFrame(sorted(found), schema=empty.schema, orient="row")


def excluded_as(file_changes: pl.DataFrame, *reasons: str) -> pl.Expr:
    """True where a file change's ``exclusion_reason`` is one of ``reasons`` (false for a frame
    without the column: nothing was classified)."""
    if "exclusion_reason" not in file_changes.columns:
        return pl.lit(False)
    return pl.col("exclusion_reason").is_in(list(reasons)).fill_null(False)


def _built_pages(file_changes: pl.DataFrame) -> pl.Series:
    """Whether each path is an HTML page built from a source of the same name beside it (rule 5c)."""
    path = pl.col("path").fill_null("")
    stems = file_changes.select("repo", path.str.extract(r"^(.*)\.(?:md|markdown|rst)$", 1).alias("_stem")) \
        .drop_nulls("_stem").unique()
    # only in a site's folders (or at the root): beside its `.md` documentation, a component's
    # `select.html` is a hand-written template
    site = path.str.contains(r"(?i)^[^/]+$|(?:^|/)(?:docs?|documentation|site|_site|public|www|website)/")
    pages = file_changes.select("repo", pl.when(site).then(path.str.extract(r"^(.*)\.html?$", 1)).alias("_stem"))
    return pages.join(stems.with_columns(pl.lit(True).alias("_built")), on=["repo", "_stem"], how="left",
                      maintain_order="left")["_built"].fill_null(False)


# A folder a generator writes: this share of the files directly in it, and at least this many,
# generated (gson's gson/docs/javadocs/: 11 pages there that say Javadoc wrote them, beside
# the script.js, stylesheet.css and package-list it wrote too).
GENERATED_FOLDER_SHARE = 0.75
GENERATED_FOLDER_MIN = 10
# ... but not a package's own entry file there, written by hand to expose the tables (rich's
# rich/_unicode_data/__init__.py beside its generated unicode*.py)
PACKAGE_ENTRY = r"(?:^|/)(?:__init__\.py|mod\.rs)$"


def _in_generated_folder(file_changes: pl.DataFrame) -> pl.Series:
    """Whether each path lies directly in a folder most of whose files are generated (rule 5f)."""
    folder = pl.col("path").fill_null("").str.extract(r"^(.*)/[^/]+$", 1)
    # (files left out for another reason, a bulk import or a binary, count neither way)
    reason = pl.col("exclusion_reason")
    paths = (file_changes.filter(reason.is_null() | (reason == "generated"))
             .select("repo", "path", folder.alias("_dir"), (reason == "generated").fill_null(False).alias("_g"))
             .group_by("repo", "path", "_dir").agg(pl.col("_g").any()))
    folders = (paths.drop_nulls("_dir").group_by("repo", "_dir")
               .agg(pl.col("_g").sum().alias("_n_g"), pl.len().alias("_n"))
               .filter((pl.col("_n_g") >= GENERATED_FOLDER_MIN) & (pl.col("_n_g") >= GENERATED_FOLDER_SHARE * pl.col("_n")))
               .select("repo", "_dir", pl.lit(True).alias("_gen_dir")))
    return (file_changes.select("repo", folder.alias("_dir"))
            .join(folders, on=["repo", "_dir"], how="left", maintain_order="left")["_gen_dir"].fill_null(False))


# (a whole tree copied, not sibling packages sharing a manifest and generated bindings: oxc's
# napi/minify and napi/transform, 15 files in 100 commits; nor example apps: tauri's examples)
MIRROR_MIN_COMMITS = 50
MIRROR_MIN_FILES = 20
MIRROR_MIN_SHARE = 0.25
_MIRROR_MIN_LINES = 3  # a one-line version bump in each crate's lib.rs is no copy


def mirrored_trees(file_changes: pl.DataFrame, commits: pl.DataFrame) -> pl.DataFrame:
    """(repo, tree): the folders that mirror another folder of their repository (rule 5g)."""
    schema = {"repo": pl.String, "tree": pl.String}
    if not {"repo", "sha", "lines_added", "lines_deleted"} <= set(file_changes.columns) or "authored_at" not in commits.columns:
        return pl.DataFrame(schema=schema)
    sized = file_changes.filter(pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0) >= _MIRROR_MIN_LINES)
    parts = pl.col("path").fill_null("").str.split("/")
    under = pl.concat([
        sized.filter(parts.list.len() > depth).select(
            "repo", "sha", "lines_added", "lines_deleted",
            parts.list.head(depth).list.join("/").alias("_root"), parts.list.slice(depth).list.join("/").alias("_rel"))
        for depth in (1, 2)])
    key = ["repo", "sha", "_rel", "lines_added", "lines_deleted"]
    pairs = (under.join(under.rename({"_root": "_copy"}), on=key)
             .filter((pl.col("_root") != pl.col("_copy"))
                     & ~pl.col("_root").str.starts_with(pl.col("_copy") + "/")
                     & ~pl.col("_copy").str.starts_with(pl.col("_root") + "/")))
    if pairs.height == 0:
        return pl.DataFrame(schema=schema)
    changes = under.group_by("repo", pl.col("_root").alias("_copy")).agg(pl.len().alias("_changes"))
    when = commits.select("repo", "sha", "authored_at")
    first = (under.join(when, on=["repo", "sha"]).group_by("repo", "_root")
             .agg(pl.col("authored_at").min().alias("_first")))
    return (
        pairs.group_by("repo", "_root", "_copy")
        .agg(pl.len().alias("_n"), pl.col("sha").n_unique().alias("_commits"), pl.col("_rel").n_unique().alias("_files"))
        .join(changes, on=["repo", "_copy"])
        .join(first, on=["repo", "_root"])
        .join(first.rename({"_root": "_copy", "_first": "_copy_first"}), on=["repo", "_copy"])
        .filter((pl.col("_commits") >= MIRROR_MIN_COMMITS) & (pl.col("_files") >= MIRROR_MIN_FILES)
                & (pl.col("_n") >= MIRROR_MIN_SHARE * pl.col("_changes")) & (pl.col("_copy_first") > pl.col("_first")))
        .select("repo", pl.col("_copy").alias("tree")).unique().sort("repo", "tree")
    )


def _autoconf_output(file_changes: pl.DataFrame) -> pl.Series:
    """Whether each path is a `configure` built from the `configure.ac`/`.in` beside it (rule 5e):
    some commit changes both and leaves a `configure` (regenerates it). tmux's hand-written
    `configure` of 2009 was deleted by the commit that added its configure.ac."""
    path = pl.col("path").fill_null("")
    by_dir = file_changes.select(
        "repo", "sha",
        path.str.extract(r"^(.*?)configure\.(?:ac|in)$", 1).alias("_source"),
        pl.when(pl.col("status").fill_null("") != "D" if "status" in file_changes.columns else pl.lit(True))
        .then(path.str.extract(r"^(.*?)configure$", 1)).alias("_script"),
    )
    sources = (
        by_dir.drop_nulls("_source").select("repo", "sha", pl.col("_source").alias("_dir"))
        .join(by_dir.drop_nulls("_script").select("repo", "sha", pl.col("_script").alias("_dir")),
              on=["repo", "sha", "_dir"], how="semi")
        .select("repo", "_dir").unique()
    )
    scripts = file_changes.select("repo", path.str.extract(r"^(.*?)configure$", 1).alias("_dir"))
    return scripts.join(sources.with_columns(pl.lit(True).alias("_built")), on=["repo", "_dir"], how="left",
                        maintain_order="left")["_built"].fill_null(False)


def _under_trees(file_changes: pl.DataFrame, trees: pl.DataFrame) -> pl.Series:
    """Whether each path lies under one of its repository's trees (``repo``, ``tree``; ``whole``:
    every file under it, else only those in its subfolders; ``files``: the files beside it named
    as it): vendored or mirrored."""
    if trees.height == 0:
        return pl.Series("_v", [False] * file_changes.height, dtype=pl.Boolean)
    hit = pl.lit(False)
    path = pl.col("path").fill_null("")
    for repo, tree, whole, in_files in trees.select("repo", "tree", "whole", "files").iter_rows():
        if in_files:  # the files of a folder whose names start with the copy's name
            under = path.str.to_lowercase().str.starts_with(tree) & path.str.slice(len(tree)).str.contains(r"^[._-][^/]*$")
            hit = hit | ((pl.col("repo") == repo) & under)
            continue
        under = path.str.starts_with(tree + "/")
        if not whole:
            under = under & path.str.slice(len(tree) + 1).str.contains("/")
        hit = hit | ((pl.col("repo") == repo) & under)
    return file_changes.select(hit.alias("_v")).to_series()


def _subtree_squashes(file_changes: pl.DataFrame, commits: pl.DataFrame) -> pl.Series:
    """Per file change: its commit is a git-subtree squash (rule 3d). Such a commit holds the
    other repository's own tree (`content/en/...`, not `docs/content/en/...`): the merge that
    follows puts it under the directory, so every change in it is the other history's."""
    squashes = commits.filter(pl.col("subject").fill_null("").str.contains(RULES["subtree_squash"])).select("repo", "sha")
    if squashes.height == 0:
        return pl.Series([False] * file_changes.height)
    return file_changes.select("repo", "sha").join(
        squashes.with_columns(pl.lit(True).alias("_squash")), on=["repo", "sha"], how="left", maintain_order="left"
    )["_squash"].fill_null(False)


# Renames followed back from a marked path: a chain of moves is short.
MAX_RENAME_STEPS = 8


def _through_renames(marked: pl.DataFrame, file_changes: pl.DataFrame) -> pl.DataFrame:
    """``marked`` (repo, path, _generated, _vendored) with the paths each marked path had before
    a rename the history records: a file is what it was under its old name (jq's Bison output
    `parser.c`, moved to `src/parser.c` in 2015, which `.gitattributes` marks generated; its
    regenerations before the move had counted 14,647 lines of code)."""
    if "old_path" not in file_changes.columns or "status" not in file_changes.columns:
        return marked
    # a move that keeps the file's name (a folder moved: `parser.c` -> `src/parser.c`), not one
    # into another file (hugo's hand-written template_embedded.go became templates.autogen.go)
    name = r"([^/]+)$"
    moves = (file_changes.filter(pl.col("status").fill_null("").str.starts_with("R") & pl.col("old_path").is_not_null()
                                 & (pl.col("old_path") != pl.col("path"))
                                 & (pl.col("old_path").str.extract(name, 1) == pl.col("path").str.extract(name, 1)))
             .select("repo", "path", "old_path").unique())
    if moves.height == 0:
        return marked
    for _ in range(MAX_RENAME_STEPS):
        before = (marked.join(moves, on=["repo", "path"]).select("repo", pl.col("old_path").alias("path"), "_generated", "_vendored")
                  .join(marked, on=["repo", "path"], how="anti")
                  .group_by("repo", "path").agg(pl.col("_generated").any(), pl.col("_vendored").any()))
        if before.height == 0:
            break
        marked = pl.concat([marked, before.select(marked.columns)])
    return marked


def classify_exclusions(file_changes: pl.DataFrame, commits: pl.DataFrame | None = None,
                        generated: pl.DataFrame | None = None) -> pl.DataFrame:
    """Add ``excluded: Boolean`` and ``exclusion_reason: String`` (null when kept).

    Input: a frame with at least ``path`` and ``is_binary`` (``RAW_FILE_CHANGES_SCHEMA``);
    ``is_submodule`` is used when present, ``repo``/``sha``/``status``/``lines_added`` for bulk
    imports and ``language`` for data and prose files. ``commits`` (``repo``, ``sha``,
    ``subject``; e.g. the raw commits) enables the vendored-tree rule (and, with ``authored_at``,
    the mirrored-tree rule); ``generated`` (``repo``,
    ``path``, ``generated``: ``enrich.generated``) the generated-by-content rule. Every other
    column is returned unchanged; existing ``excluded``/``exclusion_reason`` columns are replaced.
    """
    has_submodule = "is_submodule" in file_changes.columns
    reason = exclusion_reason_expr(is_submodule="is_submodule" if has_submodule else None)
    out = file_changes.with_columns(reason.alias("exclusion_reason"))
    if commits is not None and "repo" in out.columns and out.height:
        under = _under_trees(out, vendored_trees(out, commits))
        out = out.with_columns(
            pl.when(under & (pl.col("exclusion_reason").is_null()
                             | ~pl.col("exclusion_reason").is_in(["submodule", "binary"])))
            .then(pl.lit("vendored")).otherwise(pl.col("exclusion_reason")).alias("exclusion_reason")
        )
    if commits is not None and "repo" in out.columns and out.height:
        squashed = _subtree_squashes(out, commits)
        out = out.with_columns(
            pl.when(squashed & (pl.col("exclusion_reason").is_null()
                                | ~pl.col("exclusion_reason").is_in(["submodule", "binary"])))
            .then(pl.lit("vendored")).otherwise(pl.col("exclusion_reason")).alias("exclusion_reason")
        )
    if commits is not None and "repo" in out.columns and out.height:
        mirrors = mirrored_trees(out, commits).with_columns(pl.lit(True).alias("whole"), pl.lit(False).alias("files"))
        if mirrors.height:
            out = out.with_columns(
                pl.when(pl.col("exclusion_reason").is_null() & _under_trees(out, mirrors)).then(pl.lit("generated"))
                .otherwise(pl.col("exclusion_reason")).alias("exclusion_reason"))
    if "repo" in out.columns and out.height:
        built = _autoconf_output(out)
        out = out.with_columns(
            pl.when(pl.col("exclusion_reason").is_null() & built).then(pl.lit("generated"))
            .otherwise(pl.col("exclusion_reason")).alias("exclusion_reason"))
    if generated is not None and "repo" in out.columns and out.height:
        # the repository's own `.gitattributes` first (`linguist-generated=false` keeps a file
        # its first lines would leave out), then the content
        attr = [c for c in ("linguist_generated", "linguist_vendored") if c in generated.columns]
        marked = generated.select(
            "repo", "path",
            pl.coalesce(*([pl.col("linguist_generated")] if attr else []), pl.col("generated")).fill_null(False).alias("_generated"),
            (pl.col("linguist_vendored") if "linguist_vendored" in attr else pl.lit(None, pl.Boolean)).fill_null(False).alias("_vendored"),
        ).filter(pl.col("_generated") | pl.col("_vendored"))
        # the project's own word holds under a file's older names too; a generator's header
        # may be younger than the file (hugo's template_embedded.go was written by hand for
        # years, moved twice, and only then generated)
        if attr:
            def said(column: str) -> pl.Expr:
                return (pl.col(column) if column in attr else pl.lit(None, pl.Boolean)).fill_null(False)
            stated = generated.select("repo", "path", said("linguist_generated").alias("_generated"),
                                      said("linguist_vendored").alias("_vendored")).filter(pl.col("_generated") | pl.col("_vendored"))
            marked = pl.concat([marked, _through_renames(stated, out).join(marked, on=["repo", "path"], how="anti")])
        out = out.join(marked, on=["repo", "path"], how="left", maintain_order="left").with_columns(
            pl.when(pl.col("exclusion_reason").is_null() & pl.col("_vendored").fill_null(False)).then(pl.lit("vendored"))
            .when(pl.col("exclusion_reason").is_null() & pl.col("_generated").fill_null(False)).then(pl.lit("generated"))
            .otherwise(pl.col("exclusion_reason")).alias("exclusion_reason")
        ).drop("_generated", "_vendored")
    if "repo" in out.columns and out.height:
        built = _built_pages(out)
        out = out.with_columns(
            pl.when(pl.col("exclusion_reason").is_null() & built).then(pl.lit("generated"))
            .otherwise(pl.col("exclusion_reason")).alias("exclusion_reason")
        )
        out = out.with_columns(
            pl.when(pl.col("exclusion_reason").is_null() & _in_generated_folder(out)
                    & ~pl.col("path").fill_null("").str.contains(PACKAGE_ENTRY)).then(pl.lit("generated"))
            .otherwise(pl.col("exclusion_reason")).alias("exclusion_reason")
        )
    if {"repo", "sha", "status", "lines_added"} <= set(out.columns) and out.height:
        said = None
        if commits is not None and "subject" in commits.columns:
            importing = pl.concat([
                commits.filter(pl.col("subject").fill_null("").str.contains(RULES["bulk_import"]["import_subject"]))
                .select("repo", "sha"),
                _named_copies(out, commits)])
            said = pl.struct("repo", "sha").is_in(importing.to_struct().implode())
        out = out.with_columns(
            pl.when(pl.col("exclusion_reason").is_null() & _bulk_import_expr(said))
            .then(pl.lit("bulk_import")).otherwise(pl.col("exclusion_reason")).alias("exclusion_reason")
        )
    if "language" in out.columns and "repo" in out.columns and out.height:
        out = out.with_columns(pl.coalesce(pl.col("exclusion_reason"), _data_type_reason(out)).alias("exclusion_reason"))
    if "language" in out.columns and out.height:
        ext = pl.col("path").fill_null("").str.extract(r"\.([^./]+)$", 1).str.to_lowercase()
        name = pl.col("path").fill_null("").str.extract(r"([^/]+)$", 1).str.to_lowercase()
        unknown = pl.col("exclusion_reason").is_null() & pl.col("language").is_null()
        out = out.with_columns(
            pl.when(unknown & ext.is_in(RULES["data_extensions"])).then(pl.lit("data_file"))
            # ... but `scripts/install` or `bin/changelog` is a program named by what it does
            .when(unknown & name.is_in(RULES["prose_names"])
                  & ~pl.col("path").fill_null("").str.contains(RULES["script_dirs"])).then(pl.lit("prose_file"))
            .otherwise(pl.col("exclusion_reason")).alias("exclusion_reason")
        )
    if {"status", "lines_added"} <= set(out.columns) and out.height:
        out = out.with_columns(
            pl.when(pl.col("exclusion_reason").is_null() & _copied_file_expr())
            .then(pl.lit("bulk_import")).otherwise(pl.col("exclusion_reason")).alias("exclusion_reason")
        )
    return out.with_columns(
        pl.col("exclusion_reason").is_not_null().alias("excluded")
    ).select(
        [c for c in file_changes.columns if c not in ("excluded", "exclusion_reason")]
        + ["excluded", "exclusion_reason"]
    )
