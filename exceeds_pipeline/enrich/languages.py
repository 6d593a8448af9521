"""Language of a file from its path, named as GitHub Linguist names it.

Library: go-enry (``enry-python`` on PyPI), the Go port of GitHub Linguist whose data is
generated from Linguist's own ``languages.yml`` (extensions, file names, heuristics). It gives
Linguist's exact names: ``Python``, ``C++``, ``Cuda``, ``Shell``, ``Markdown``, ``Dockerfile``,
``CMake``, ``TSX``, ``Jupyter Notebook``, ``Starlark``... (Linguist spells CUDA ``Cuda``.)

The pipeline only has paths (``git log --numstat``), not file contents, so:

1. A file name Linguist knows (``Dockerfile``, ``Makefile``, ``CMakeLists.txt``, ``go.mod``,
   ``requirements.txt``, ``.bashrc``...) decides first.
2. Otherwise the extension. Linguist matches the longest known dotted suffix
   (``x.blade.php`` -> Blade, ``x.cmake.in`` -> CMake) and is case-insensitive.
3. Where Linguist lists several languages for an extension and would read the content to
   choose, :data:`AMBIGUOUS_EXTENSION_CHOICE` picks the one real repositories mostly mean
   (go-enry's content-free guess is e.g. XML for ``.rs`` and Smalltalk for ``.cs``). Each choice is
   one of Linguist's own candidates for that extension (a test checks it). A ``.pro`` file is a
   Qt project, unless its path names ProGuard or R8 (:data:`PROGUARD_PATH`), or (in
   :func:`with_language`) another path of its repository does.
4. ``.h`` headers (Linguist: C, C++ or Objective-C) are ``C++`` in :func:`language_for_paths`
   unless told otherwise; :func:`with_language` decides per repository from the repository's
   other C-family files (see :func:`header_language_by_repo`), so git/git's headers are C and
   PyTorch's are C++.
5. Anything else (no extension, unknown extension) is null.

Fallback: where no ``enry-python`` wheel exists (it ships for Linux x86_64 and macOS), Pygments
is used with :data:`PYGMENTS_TO_LINGUIST` renaming the lexers whose names differ from Linguist's.
That path is approximate (Pygments knows fewer file names) and is reported by
:data:`LANGUAGE_BACKEND`.

Cost: the library is asked once per distinct file name (and once per distinct extension), never
per file row; the mapping back to rows is a Polars ``replace_strict``.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache

import polars as pl

from exceeds_pipeline.classify.changelog import FRAGMENT_PATH, FRAGMENT_TEXT

__all__ = [
    "AMBIGUOUS_EXTENSION_CHOICE",
    "C_FAMILY_EVIDENCE",
    "DEFAULT_HEADER_LANGUAGE",
    "LANGUAGE_BACKEND",
    "PYGMENTS_TO_LINGUIST",
    "header_language_by_repo",
    "language_for_name",
    "language_for_paths",
    "with_language",
]

LANGUAGE_BACKEND = "enry" if importlib.util.find_spec("enry") is not None else "pygments"


@lru_cache(maxsize=1)
def _enry():
    """go-enry, imported on first use. Loading it starts a Go runtime, whose threads a fork does
    not copy: imported at module level it ran in the step executor's fork server (which preloads
    the definitions), and a forked step then hung forever in Go's garbage collector (kratos's
    generated-file read, 2026-11-25). Every module imports it lazily, in the process that uses it."""
    import enry

    return enry

# Extension -> Linguist language, for extensions Linguist resolves by content. Lower-case keys.
AMBIGUOUS_EXTENSION_CHOICE: dict[str, str] = {
    ".h": "C++",  # C / C++ / Objective-C; with_language() decides per repository
    ".rs": "Rust",  # RenderScript / Rust / XML
    ".php": "PHP",  # Hack / PHP
    ".cs": "C#",  # C# / Smalltalk
    ".fs": "F#",  # F# / Filterscript / Forth / GLSL
    ".ex": "Elixir",  # Elixir / Euphoria
    ".m": "Objective-C",  # Objective-C / MATLAB / Mercury / M / Limbo / MUF / Wolfram Language
    ".mm": "Objective-C++",  # Objective-C++ / XML
    ".pl": "Perl",  # Perl / Prolog / Raku
    ".r": "R",  # R / Rebol / Rez
    ".sol": "Solidity",  # Solidity / Gerber Image
    ".spec": "RPM Spec",  # Python (a PyInstaller spec) / RPM Spec: rsync's packaging/lsb/rsync.spec read as Python
    ".frag": "GLSL",  # GLSL / JavaScript
    ".jq": "jq",  # jq / JSONiq
    ".asc": "Public Key",  # AGS Script / AsciiDoc / Public Key: release signatures (jq's sig/*.asc)
    ".l": "Lex",  # Common Lisp / Lex / PicoLisp / Roff: a flex scanner (jq's src/lexer.l)
    ".pro": "QMake",  # IDL / INI / Prolog / Proguard / QMake: a Qt project; see PROGUARD_PATH
}
# ... and a `.pro` file its path names for ProGuard or R8 holds shrinker rules (gson's
# META-INF/proguard/gson.pro, shrinker-test/r8.pro: 169 lines read as IDL).
PROGUARD_PATH = r"(?i)(?:^|[/_.-])(?:proguard|r8)(?:[/_.-][^/]*)?(?:/[^/]*)*\.pro$"

DEFAULT_HEADER_LANGUAGE = "C++"

# Which languages of a repository's non-header files vote for what its ``.h`` files are.
# Ties go to the earlier entry; no evidence at all gives DEFAULT_HEADER_LANGUAGE. A Swift
# project's headers are Objective-C, the umbrella and bridging headers through which Swift
# meets Objective-C (Alamofire's Source/Alamofire.h, `#import <Foundation/Foundation.h>`, was C++).
C_FAMILY_EVIDENCE: dict[str, tuple[str, ...]] = {
    "C++": ("C++", "Cuda"),
    "C": ("C",),
    "Objective-C": ("Objective-C", "Objective-C++", "Swift"),
}

# Pygments lexer name -> Linguist name, where they differ (fallback backend only).
PYGMENTS_TO_LINGUIST: dict[str, str] = {
    "Bash": "Shell",
    "CUDA": "Cuda",
    "Docker": "Dockerfile",
    "EmacsLisp": "Emacs Lisp",
    "Fortran": "Fortran Free Form",
    "FortranFixed": "Fortran",
    "GAS": "Unix Assembly",
    "JSX": "JavaScript",
    "LessCss": "Less",
    "NASM": "Assembly",
    "Nimrod": "Nim",
    "Terraform": "HCL",
    "Text only": "Text",
    "Transact-SQL": "SQL",
    "VimL": "Vim Script",
    "verilog": "Verilog",
}

# Internal marker for a ``.h`` resolved by extension alone (replaced before returning).
_HEADER = "\x00c-header"


def _extension_key(name: str) -> str | None:
    """Everything from the first dot of the name (leading dots ignored), lower-cased."""
    stripped = name.lstrip(".")
    dot = stripped.find(".")
    if dot < 0:
        return None
    return stripped[dot:].lower()


def _suffixes(key: str) -> list[str]:
    """``.a.b.c`` -> [``.a.b.c``, ``.b.c``, ``.c``]."""
    out = []
    while key:
        out.append(key)
        nxt = key.find(".", 1)
        if nxt < 0:
            break
        key = key[nxt:]
    return out


@lru_cache(maxsize=4096)
def _enry_language_for_extension(key: str) -> str | None:
    candidates = _enry().get_languages("x" + key, b"")
    if not candidates:
        return None
    # The suffix Linguist actually matched: the longest one that some candidate lists.
    known = {ext.lower() for lang in candidates for ext in _enry().get_language_extensions(lang)}
    effective = next((s for s in _suffixes(key) if s in known), None)
    if effective == ".h":
        return _HEADER
    choice = AMBIGUOUS_EXTENSION_CHOICE.get(effective) if effective else None
    if choice is not None:
        return choice
    # go-enry lists tied candidates in no fixed order (`.jq`: jq or JSONiq from one run to the
    # next): the same name every time
    return min(candidates)


@lru_cache(maxsize=1)
def _pygments_exact_names() -> dict[str, str]:
    from pygments.lexers import get_all_lexers

    exact: dict[str, str] = {}
    for name, _aliases, filenames, _mimes in get_all_lexers():
        for pattern in filenames:
            if not any(ch in pattern for ch in "*?["):
                exact.setdefault(pattern, name)
    return exact


@lru_cache(maxsize=4096)
def _pygments_language_for_extension(ext: str) -> str | None:
    from pygments.lexers import find_lexer_class_for_filename

    if ext == ".h":
        return _HEADER
    if ext in AMBIGUOUS_EXTENSION_CHOICE:
        return AMBIGUOUS_EXTENSION_CHOICE[ext]
    try:
        cls = find_lexer_class_for_filename("x" + ext)
    except Exception:  # pragma: no cover - defensive: a lexer plugin failing to load
        cls = None
    return None if cls is None else PYGMENTS_TO_LINGUIST.get(cls.name, cls.name)


def _pygments_language(name: str) -> str | None:
    exact = _pygments_exact_names().get(name)
    if exact is not None:
        return PYGMENTS_TO_LINGUIST.get(exact, exact)
    key = _extension_key(name)
    if key is None:
        return None
    return _pygments_language_for_extension("." + key.rsplit(".", 1)[-1])


@lru_cache(maxsize=1 << 16)
def _language_for_name_raw(name: str) -> str | None:
    if not name:
        return None
    if LANGUAGE_BACKEND != "enry":
        return _pygments_language(name)
    by_name = _enry().get_language_by_filename(name).language
    if by_name:
        return by_name
    key = _extension_key(name)
    return _enry_language_for_extension(key) if key else None


def language_for_name(name: str, *, c_header: str = DEFAULT_HEADER_LANGUAGE) -> str | None:
    """Linguist language of one file name (the last path component), or None."""
    lang = _language_for_name_raw(name.rsplit("/", 1)[-1])
    return c_header if lang == _HEADER else lang


def _raw_languages(paths: pl.Series) -> pl.Series:
    base = paths.cast(pl.String).str.extract(r"([^/]*)$", 1)
    names = base.drop_nulls().unique().to_list()
    langs = [_language_for_name_raw(n) for n in names]
    return base.replace_strict(
        pl.Series(names, dtype=pl.String),
        pl.Series(langs, dtype=pl.String),
        default=None,
        return_dtype=pl.String,
    )


def _proguard(raw: pl.Series, paths: pl.Series) -> pl.Series:
    """Where a `.pro` file (QMake by its name) is ProGuard's or R8's by its path (PROGUARD_PATH)."""
    return (raw == "QMake") & paths.str.contains(PROGUARD_PATH)


def language_for_paths(paths: pl.Series, *, c_header: str = DEFAULT_HEADER_LANGUAGE) -> pl.Series:
    """Linguist language for each path (String Series named ``language``, null when unknown).

    ``c_header`` is the language given to ``.h`` files (see the module docstring).
    """
    raw = _raw_languages(paths)
    return (
        pl.select(
            pl.when(raw == _HEADER).then(pl.lit(c_header))
            .when(_proguard(raw, paths.cast(pl.String))).then(pl.lit("Proguard"))
            .otherwise(raw).alias("language")
        )
        .to_series()
        .alias("language")
    )


def header_language_by_repo(file_changes: pl.DataFrame) -> pl.DataFrame:
    """``[repo, header_language]``: what ``.h`` files are in each repository.

    Input: ``repo`` and ``path``. Each distinct non-header path votes through :data:`C_FAMILY_EVIDENCE`; the language with most
    distinct paths wins, ties in the table's order; repositories with no C-family evidence are
    absent (callers use :data:`DEFAULT_HEADER_LANGUAGE`). For incremental runs, compute this over
    the repository's whole stored history, not one batch, so a repository's headers do not
    change language from one night to the next.
    """
    frame = file_changes.select("repo", "path").unique()
    raw = _raw_languages(frame.get_column("path"))
    votes = {lang: group for group, langs in C_FAMILY_EVIDENCE.items() for lang in langs}
    order = {group: i for i, group in enumerate(C_FAMILY_EVIDENCE)}
    counted = (
        frame.with_columns(raw.replace_strict(votes, default=None, return_dtype=pl.String).alias("vote"))
        .drop_nulls("vote")
        .group_by("repo", "vote")
        .agg(pl.len().alias("n"))
        .with_columns(pl.col("vote").replace_strict(order, return_dtype=pl.Int32).alias("rank"))
        .sort(["repo", "n", "rank"], descending=[False, True, False])
    )
    return counted.group_by("repo", maintain_order=True).first().select(
        "repo", pl.col("vote").alias("header_language")
    )


def with_language(
    file_changes: pl.DataFrame, header_languages: pl.DataFrame | None = None,
    shebangs: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Add (or replace) ``language: String`` on a file-changes frame (``repo``, ``path``).

    ``.h`` files get their repository's language from ``header_languages`` (``[repo,
    header_language]``, e.g. from :func:`header_language_by_repo` over the stored history);
    when it is None it is computed from ``file_changes`` itself. A file the name does not name
    takes the language of its `#!` line from ``shebangs`` (``[repo, path, shebang_language]``:
    ``enrich.generated``), as Linguist does, and a file whose content names another language
    than its extension takes that one (``content_language``: its `#!` line, or Linguist's
    heuristics for an extension several languages share).
    """
    if header_languages is None:
        header_languages = header_language_by_repo(file_changes)
    raw = _raw_languages(file_changes.get_column("path"))
    lookup = dict(
        zip(
            header_languages.get_column("repo").to_list(),
            header_languages.get_column("header_language").to_list(),
            strict=True,
        )
    )
    header = (
        file_changes.get_column("repo")
        .replace_strict(lookup, default=DEFAULT_HEADER_LANGUAGE, return_dtype=pl.String)
        if lookup
        else pl.repeat(DEFAULT_HEADER_LANGUAGE, file_changes.height, dtype=pl.String, eager=True)
    )
    path = file_changes.get_column("path").cast(pl.String)
    repo = file_changes.get_column("repo")
    # a repository whose paths name ProGuard rules keeps its other `.pro` files for ProGuard
    # too (gson's shrinker-test/common.pro beside proguard.pro and r8.pro)
    proguard = _proguard(raw, path)
    proguard_repos = repo.filter(proguard).unique().implode()
    # an `.inc` file (Linguist: Assembly, C++, PHP, Pascal, SQL, ...; go-enry's content-free
    # guess is Assembly) is an include of its repository's language: PHP where the repository
    # has PHP files, the headers' language where it has C-family files (elinks' options.inc,
    # codepage.inc made Assembly a language of a C project's author)
    # (unless its name decides: curl's `lib/Makefile.inc` is a Makefile, Linguist says, not the PHP
    # of its old php/examples/)
    include = path.str.to_lowercase().str.ends_with(".inc") & (raw == _language_for_name_raw("x.inc")).fill_null(False)
    php_repos = repo.filter(raw == "PHP").unique().implode()
    c_family_repos = pl.Series(list(lookup), dtype=pl.String).implode()
    language = pl.select(
        pl.when(raw == _HEADER).then(header)
        .when(include & repo.is_in(php_repos)).then(pl.lit("PHP"))
        .when(include & repo.is_in(c_family_repos)).then(header)
        # a news fragment is prose whatever its name ends with (`changelog/1234.feature` is no Gherkin)
        .when(path.str.contains(FRAGMENT_PATH) & ~path.str.contains(FRAGMENT_TEXT)).then(pl.lit("Text"))
        .when(proguard | ((raw == "QMake") & repo.is_in(proguard_repos))).then(pl.lit("Proguard"))
        .otherwise(raw)
    ).to_series()
    # (where the repository decides, `.h` headers and `.inc` includes, the content does not)
    out = file_changes.with_columns(language.alias("language"), ((raw == _HEADER) | include).alias("_decided"))
    if shebangs is not None and shebangs.height and out.height:
        named = shebangs.select("repo", "path", "shebang_language").drop_nulls("shebang_language")
        out = out.join(named, on=["repo", "path"], how="left").with_columns(
            pl.coalesce("language", "shebang_language").alias("language")).drop("shebang_language")
        if "content_language" in shebangs.columns:
            # what the content says beats the extension
            read = shebangs.select("repo", "path", "content_language").drop_nulls("content_language")
            out = (out.join(read, on=["repo", "path"], how="left", maintain_order="left")
                   .with_columns(pl.when(~pl.col("_decided") & pl.col("content_language").is_not_null())
                                 .then(pl.col("content_language")).otherwise(pl.col("language")).alias("language"))
                   .drop("content_language"))
    return out.drop("_decided")


def profile_language_expr() -> pl.Expr:
    """True where a file change's language counts in profiles and rollups.

    Linguist names every file, including repository housekeeping dot-files (`.gitignore` is
    "Ignore List", `.gitattributes` "Git Attributes", `.editorconfig` "EditorConfig"): those are
    not languages anyone writes in, so top-level dot-files give no profile language. The
    `file_changes.language` column keeps Linguist's name for them.
    """
    return pl.col("language").is_not_null() & ~pl.col("path").fill_null("").str.contains(r"(?:^|/)\.[^/]+$")
