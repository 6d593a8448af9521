"""What a repository's own changelog says each change was.

Many projects keep a changelog that sorts their changes under headings: `### Bug Fixes`,
`### Features` (conventional-changelog, release-please, semantic-release), `### 🩹 Fixes`
(changelogen), `### Fixed` / `### Added` (Keep a Changelog), `### New Features` (covector),
`### :bug: (Bug Fix)` (lerna-changelog), reStructuredText sections (towncrier), a table with a
`Type` column (Angular's release tooling), or Sphinx `.. change::` blocks with `:type: bugfix`
(litestar) or `:tags: bug, orm` and `:tickets: 13227` (SQLAlchemy).
Each entry names its change by a pull-request number (`#123`), a commit
(`[3ba026d](…/commit/3ba026d…)`) or its subject. That is the project's own label of the change,
written when it was released: the evidence a careful reader looks up first, ahead of any
reading of the message.

`changelog_entries(files)` parses the changelog files of the branch tip into one row per
categorised entry; `changelog_categories(commits, entries)` gives a commit the category its
entries agree on, matched by commit hash or by the pull-request number its subject ends with
(`… (#123)`, GitHub's squash subject) or by an issue the commit says it closes (`Fixes: #123`),
either when the entry shares words with the subject, or by its subject's exact words; `pull_request_categories` does the same for merged pull requests
by number. The headings a category
is read from are data (`changelog.yaml`). A commit whose entries
disagree, an entry under a heading that names no kind of change (`Breaking Changes`,
`Dependencies`, a version number) and a subject that several commits share give nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from exceeds_pipeline.classify.conventional import PREFIX, TYPE_LABELS
from exceeds_pipeline.common.fingerprint import source_fingerprint
from exceeds_pipeline.common.yamlfile import load_yaml
from exceeds_pipeline.ingest.gitcmd import read_blobs, tree_blobs

_RULES = load_yaml(Path(__file__).with_name("changelog.yaml"))
# heading words (lower-case letters and spaces) -> category
SECTIONS: dict[str, str] = {
    heading: category for category, headings in _RULES["changelog_sections"].items() for heading in headings
}
IGNORED_WORDS = _RULES["changelog_ignore_words"]
QUALIFIERS = tuple(_RULES["changelog_qualifiers"])
# The kind an `Enhancements` heading gives: a feature, unless the change reads as another kind
# of work or its subject says it fixes something (`listed_category`).
ENHANCEMENT = "enhancement"
# A subject that says it repairs something: `Fix symlinked static files not being built`.
# (a gitmoji's variation selector, U+FE0F, is a mark: a word character to the regex)
STATED_FIX = r"(?i)^[\W\p{M}]*(?:bug\s*)?fix(?:e[sd]|ing)?\b"
# A subject that says it moves something: an `added` listing in the crate it moved to names no
# new feature (axum's `Move TypedHeader to axum-extra`, listed as added there).
_STATED_MOVE = r"(?i)^[\W\p{M}]*mov(?:e|es|ed|ing)\b"


def listed_category(listed: pl.Expr, reading: pl.Expr, subject: pl.Expr) -> pl.Expr:
    """The kind a changelog's listing gives a change read as ``reading``: an enhancement is a
    feature when the change reads as a feature, a fix its subject does not state, a chore or
    nothing; a refactoring, a speed-up, a dependency bump (jekyll's `bump i18n`), tests or docs
    keep their reading. A speed-up listed under refactorings or fixes stays a speed-up: a
    changelog without a performance heading files it there (FastAPI's `⚡️ Reduce memory usage in
    dependencies` under `Refactors`, axum's `Make Router cheaper to clone` under `fixed`, unless
    its subject says it fixes something), and a speed-up is a refactoring of a narrower kind. A
    refactoring whose subject says it moves code keeps its reading where it is listed as added.
    Every other listing is its own kind."""
    stated_fix = subject.fill_null("").str.contains(STATED_FIX)
    keeps = ~reading.is_in(["feature", "bug", "chore", "other"]) | ((reading == "bug") & stated_fix)
    moved = subject.fill_null("").str.contains(_STATED_MOVE)
    return (pl.when(((listed == "refactor") | ((listed == "bug") & ~stated_fix)) & (reading == "perf")).then(reading)
            .when((listed == "feature") & (reading == "refactor") & moved).then(reading)
            .when(listed.is_null() | (listed != ENHANCEMENT)).then(listed)
            .when(keeps.fill_null(False)).then(reading)
            .otherwise(pl.lit("feature")))
# The share of the shorter text's words an entry and a subject matched by number must share.
MIN_SHARED_WORDS = 0.25
# A changelog file: CHANGELOG.md, CHANGES.rst, HISTORY.md, NEWS, docs/release-notes/2.x-changelog.rst
# (a text file: `history.py` or `news.js` is code)
CHANGELOG_FILE = (r"(?i)(?:^|/)(?:[a-z0-9_.]*[-_.])?(?:changelog|changes|history|news|release[-_]?notes)"
                  r"(?:(?:[-_.][a-z0-9_.-]*)?\.(?:md|markdown|mdx|qmd|rst|txt|adoc)|(?:[-_][a-z0-9_-]*)?)$")
# Changelogs inside test data, examples and templates describe made-up changes.
_NOT_THE_PROJECTS = r"(?i)(?:^|/)(?:tests?|__tests__|spec|fixtures?|testdata|examples?|templates?|vendor|node_modules|third[-_]party)/"
MAX_CHANGELOG_BYTES = 8 << 20
# A change's entry in the changelog (CHANGELOG.md, a changeset, a news fragment): it records a
# code change and is no documentation work (the classifier's path shares, technical skills).
# The folders news fragments are written to, and the text extensions a fragment may carry.
_FRAGMENT_DIR = r"(?:^|/)(?:changelog|changes|news|newsfragments|changelog\.d)/"
_FRAGMENT_EXT = r"\.(?:rst|md|txt|markdown)"
FRAGMENT_TEXT = rf"(?i){_FRAGMENT_EXT}$"
# The kinds a news fragment's name gives (categories.yaml `changelog_fragment_types`).
_FRAGMENT_KINDS = "|".join(sorted({k for kinds in load_yaml(Path(__file__).with_name("categories.yaml"))[
    "changelog_fragment_types"].values() for k in kinds}, key=len, reverse=True))
# The extensions a record file (CHANGELOG.md, NEWS, AUTHORS.txt) may carry: text, not code
# (goreleaser's internal/pipe/changelog/changelog.go, a router's history.js are code).
RECORD_EXT = r"(?:\.(?:md|markdown|mdown|mkd|mdx|rst|txt|text|adoc|asciidoc|org|textile|rdoc|pod|html?|xml|ya?ml|json|old|in))?"
# (and one per release series: vue's changelogs/CHANGELOG-3.4.md; in a fragments folder, a
# text file or a fragment named by its type: `1234.bugfix`, not the code of a package named
# changelog)
CHANGELOG_PATH = (rf"(?i)(?:^|/)(?:OLD[-_]?)?(?:CHANGELOG|CHANGES|NEWS|HISTORY|RELEASE[-_]?NOTES|UPDATING){RECORD_EXT}$|(?:^|/)\.(?:changes?|changesets?)/"
                  r"|(?:^|/)CHANGELOG[-_]v?\d[\w.-]*\.(?:md|markdown|rst|txt|adoc)$"
                  rf"|{_FRAGMENT_DIR}(?:[^/]+{_FRAGMENT_EXT}|[^/.]+|[^/]+\.(?:{_FRAGMENT_KINDS})(?:\.\d+)?)$")
# A news fragment (towncrier: `changelog/1234.bugfix.rst`, `newsfragments/1234.feature`,
# `CHANGES/1234.feature.md`): its type is the last dotted word of the name before an optional
# counter and extension.
FRAGMENT_PATH = rf"(?i){_FRAGMENT_DIR}[^/]*?\.([a-z]+)(?:\.\d+)?(?:{_FRAGMENT_EXT})?$"
# RuboCop's form names the type first: `changelog/fix_an_infinite_loop_for_x_20260821163919.md`,
# `changelog/new_add_lint_cop_20260821.md`.
FRAGMENT_PREFIX_PATH = rf"(?i){_FRAGMENT_DIR}([a-z]+)_[^/]*{_FRAGMENT_EXT}$"

# (`linked_prs`: the repository's own pull requests an entry names by address, unmistakably)
ENTRIES_SCHEMA = {"category": pl.String, "prs": pl.List(pl.Int64), "shas": pl.List(pl.String), "text": pl.String,
                  "linked_prs": pl.List(pl.Int64)}

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_BULLET = re.compile(r"^\s*[-*+]\s+(.*\S)\s*$")
# A line that is only emphasis is a subheading (requests' HISTORY.md: `**Bugfixes**`,
# `**Improvements**` under each version's underlined heading), below every real heading.
_EMPHASIS_HEADING = re.compile(r"^\s*(\*\*|__|\*|_)([^*_\n]{2,60}?)\1\s*:?\s*$")
_EMPHASIS_LEVEL = 7
_RST_CHANGE = re.compile(r"^(\s*)\.\.\s+change::\s*(.*\S)?\s*$")
_RST_FIELD = re.compile(r"^\s+:([a-z]+):\s*(.*?)\s*$")
# The fields of a `.. change::` block that number the change's pull requests and tickets
# (Sphinx changelog extensions: `:pr:`, `:issue:` (litestar), `:tickets:`, `:pullreq:`
# (SQLAlchemy)). On GitHub an issue and a pull request never share a number.
_RST_NUMBER_FIELDS = ("pr", "prs", "pullreq", "issue", "issues", "ticket", "tickets")
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`*+#])\1{2,}\s*$")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_COMMIT_URL = re.compile(r"/commits?/([0-9a-f]{7,40})\b")
_SHA_TOKEN = re.compile(r"(?<![\w/.#@-])`?([0-9a-f]{7,40})`?(?![\w/.-])")
_PR_REF = re.compile(r"(?<![\w/&])#(\d{1,7})\b")
# ... or by its address, when the address is the repository's own (rich: `- Added support for ...
# https://github.com/Textualize/rich/pull/3930`; another project's pull request is not its)
_PR_URL = re.compile(r"([\w.-]+/[\w.-]+)/pulls?/(\d{1,7})\b")
# A commit's own word that it closes an issue: a `Fixes: #12` / `Closes #12` / `Resolves #12`
# line (GitHub's closing keywords, Gerrit trailers) or Trac's `[ticket:12]` / `(ticket #12)`.
CLOSES_ISSUE = (r"(?im)^[ \t]*(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)[ \t]*:?[ \t]*#\d{1,7}\b"
                r"|\[ticket:\d{1,7}\]|\bticket\s*#\d{1,7}\b")


def heading_category(heading: str) -> str | None:
    """`### 🩹 Fixes` -> bug, `### :bug: (Bug Fix)` -> bug, `## Bug Fixes` -> bug, `### Minor
    Enhancements` -> feature, `## v2.9.5` -> None."""
    words = re.sub(r"[^a-z ]+", " ", re.sub(r":[a-z0-9_+-]+:", " ", heading.lower())).split()
    if " ".join(words) not in SECTIONS:
        while len(words) > 1 and words[0] in QUALIFIERS:
            words = words[1:]
    return SECTIONS.get(" ".join(words))


def _entry(category: str, line: str, repo: str | None = None) -> dict:
    shas = _COMMIT_URL.findall(line)
    visible = _LINK.sub(r"\1", line)
    shas += [s for s in _SHA_TOKEN.findall(visible) if not s.isdigit() and any(c.isdigit() for c in s)]
    linked = [n for slug, n in _PR_URL.findall(line) if repo is not None and slug.lower() == repo.lower()]
    return {"category": category, "prs": sorted({int(n) for n in [*_PR_REF.findall(visible), *linked]}),
            "shas": sorted(set(shas)), "text": visible, "linked_prs": sorted({int(n) for n in linked})}


def parse_changelog(text: str, repo: str | None = None) -> list[dict]:
    """The categorised entries of one changelog file (Markdown headings and bullets, Markdown
    tables with a `Type` column as Angular's release tooling writes them, Sphinx `.. change::`
    blocks with `:type:` or `:tags:` and their numbers, reStructuredText underlined headings,
    a line of emphasis alone as a subheading, and a bullet that is a heading's words with
    bullets nested under it: fzf's `- Bug fixes` / `- Performance optimization`)."""
    entries: list[dict] = []
    current: str | None = None
    nested: tuple[int, str] | None = None  # (indent, category) of a bullet that heads its nested bullets
    parent: tuple[int, int] | None = None  # (indent, index) of the entry a deeper bullet belongs to
    type_column: int | None = None  # of the Markdown table being read
    level = 0
    rst_levels: list[str] = []
    change: dict | None = None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if change is not None:
            if not line.strip():
                continue
            if len(line) - len(line.lstrip()) > indent:  # inside the block: fields, then the text
                field = _RST_FIELD.match(line)
                if field and not body:
                    name, value = field.group(1), field.group(2)
                    if name == "type":
                        change["category"] = SECTIONS.get(value.lower())
                    elif name == "tags" and change["category"] is None:
                        # `:tags: bug, orm`: the first tag naming a kind of change
                        change["category"] = next((SECTIONS[t] for t in (w.strip().lower() for w in value.split(","))
                                                   if t in SECTIONS), None)
                    elif name in _RST_NUMBER_FIELDS:
                        change["prs"] = sorted({*change["prs"], *(int(n) for n in re.findall(r"\d+", value))})
                    continue
                body.append(line.strip())
                continue
            _close_change(change, body, entries)
            change = None
        if line.lstrip().startswith("|"):
            cells = [c.strip().strip("`*").lower() for c in line.strip().strip("|").split("|")]
            if type_column is None and "type" in cells:
                type_column = cells.index("type")  # `| Commit | Type | Description |`
            elif type_column is not None and len(cells) > type_column:
                kind = TYPE_LABELS.get(cells[type_column]) or SECTIONS.get(cells[type_column])
                if kind and kind != "revert":
                    entries.append(_entry(kind, line, repo))
            continue
        type_column = None
        block = _RST_CHANGE.match(line)
        if block:
            change = {"category": None, "prs": [], "shas": [], "text": block.group(2) or "", "linked_prs": []}
            indent, body = len(block.group(1)), []
            continue
        heading = _MD_HEADING.match(line)
        if heading is None and i + 1 < len(lines) and line.strip() and _RST_UNDERLINE.match(lines[i + 1]) \
                and len(lines[i + 1].strip()) >= len(line.strip()):
            mark = lines[i + 1].strip()[0]
            if mark not in rst_levels:
                rst_levels.append(mark)
            heading_level, heading_text = rst_levels.index(mark) + 1, line.strip()
        elif heading is not None:
            heading_level, heading_text = len(heading.group(1)), heading.group(2)
        elif emphasis := _EMPHASIS_HEADING.match(line):
            heading_level, heading_text = _EMPHASIS_LEVEL, emphasis.group(2)
        else:
            heading_level = 0
        if heading_level:
            nested = parent = None
            category = heading_category(heading_text)
            if category is not None:
                current, level = category, heading_level
            elif heading_level <= level or current is None:
                current, level = None, 0
            continue
        bullet = _MD_BULLET.match(line)
        if bullet is None:
            continue
        indent = len(line) - len(line.lstrip())
        if nested is not None and indent <= nested[0]:
            nested = None
        following = next((later for later in lines[i + 1:] if later.strip()), "")
        heads = heading_category(bullet.group(1).strip("*_: ")) if _MD_BULLET.match(following) else None
        if heads is not None and len(following) - len(following.lstrip()) > indent:
            nested, parent = (indent, heads), None
        elif nested is not None:
            entries.append(_entry(nested[1], _item_text(bullet.group(1), lines, i), repo))
        elif parent is not None and indent > parent[0] and _ATTRIBUTION.match(bullet.group(1)):
            # a bullet nested under an entry that says who made it, and in which pull request,
            # is part of it (Alamofire's `- Fixed by [Jon Shier](...) in Pull Request
            # [#4030](...)` under each entry: 604 of 1,024 entries had read without a number);
            # other nested bullets are changes of their own (fzf's `- Vim plugin` and its items)
            _merge(entries[parent[1]], _entry(entries[parent[1]]["category"], _item_text(bullet.group(1), lines, i), repo))
        elif (said := _bullet_kind(bullet.group(1))) is not None or current is not None:
            entries.append(_entry(said or current, _item_text(bullet.group(1), lines, i), repo))
            parent = (indent, len(entries) - 1)
    if change is not None:
        _close_change(change, body, entries)
    return entries


# An entry that says its kind first, under a version's heading or another kind's (okhttp's and
# retrofit's `* Fix: Limit each HTTP/2 response ...`, `* New: RxJava 3 adapter!`, express's `*
# perf: use loop for acceptParams`, jekyll's `Perf: Markdown#matches should avoid regexp`, axum's
# `- **added:** Implement IntoResponseParts for ()`, the colon inside the emphasis)
_BULLET_KIND = re.compile(r"^\W*(?:\*\*|__)?([A-Za-z]+)(?:(?:\*\*|__)?\s*:|:(?:\*\*|__))\s+\S")


def _bullet_kind(text: str) -> str | None:
    m = _BULLET_KIND.match(text)
    if m is None:
        return None
    word = m.group(1).lower()
    kind = TYPE_LABELS.get(word) or SECTIONS.get(word)
    return kind if kind in ("feature", "bug", "perf", "refactor", "docs", "test", "build") else None


# who made a change: `Fixed by [Jon Shier](...) in Pull Request [#4030](...)`, `Added by @x in #12`
_ATTRIBUTION = re.compile(r"(?i)^\W*(?:[a-z]+\s+){0,2}by\s+\S")


def _merge(entry: dict, detail: dict) -> None:
    """Fold a nested bullet's numbers, hashes and text into the entry it belongs to."""
    for key in ("prs", "shas", "linked_prs"):
        entry[key] = sorted({*entry[key], *detail[key]})
    entry["text"] = f"{entry['text']} {detail['text']}"


def _item_text(first: str, lines: list[str], i: int) -> str:
    """A list item's text: its first line and the lines that continue it, indented or not, up to
    a blank line, the next item, a heading or a table (black's CHANGES.md wraps its entries at
    88 columns: `(#3877)` sits on the second line of 38 of its 65 categorised entries)."""
    text = [first]
    for j in range(i + 1, len(lines)):
        line = lines[j]
        if (not line.strip() or _MD_BULLET.match(line) or _MD_HEADING.match(line) or line.lstrip().startswith("|")
                or _EMPHASIS_HEADING.match(line) or _RST_CHANGE.match(line) or _RST_UNDERLINE.match(line)
                or (j + 1 < len(lines) and _RST_UNDERLINE.match(lines[j + 1]) and lines[j + 1].strip())):
            break
        text.append(line.strip())
    return " ".join(text)


def _close_change(change: dict, body: list[str], entries: list[dict]) -> None:
    """Keep a finished `.. change::` block that names a kind; one without a title (SQLAlchemy's)
    is known by its text."""
    if change["category"]:
        change["text"] = change["text"] or " ".join(body)
        entries.append(change)


_REVERT_ENTRY = re.compile(r"(?i)^\W*(?:\*\*[^*]*\*\*:?\s*)?revert")


def changelog_entries(files: dict[str, str], repo: str | None = None) -> pl.DataFrame:
    """One row per categorised entry of these changelog files (path -> text): category, the
    pull-request numbers (`repo`'s own, for pull requests named by address) and commit hashes
    it names, and its words. An entry that reverts
    something (`Revert "…" (#6767)`) names the reverted change, not its kind: left out."""
    rows = [e for path, text in files.items() if is_changelog(path) for e in parse_changelog(text, repo)
            if not _REVERT_ENTRY.match(e["text"])]
    return pl.DataFrame(rows, schema=ENTRIES_SCHEMA)


def read_changelogs(git_dir: Path, repo: str, tip: str) -> pl.DataFrame:
    """The categorised entries of the changelog files of the tree at ``tip`` (ENTRIES_SCHEMA)."""
    wanted = [(path, blob) for path, blob, size in tree_blobs(git_dir, tip, repo)
              if size <= MAX_CHANGELOG_BYTES and is_changelog(path)]
    files = {wanted[i][0]: data.decode("utf-8", "replace")
             for i, data, _ in read_blobs(git_dir, [b for _, b in wanted], MAX_CHANGELOG_BYTES)
             if data is not None and b"\0" not in data[:8000]}
    return changelog_entries(files, repo)


def parser_fingerprint() -> str:
    """A hash of this parser's code and headings: entries read by another version are read again."""
    here = Path(__file__)
    return source_fingerprint(here, here.with_name("changelog.yaml"))


def update_changelog_entries(previous: pl.DataFrame | None, git_dir: Path, repo: str, tip: str) -> pl.DataFrame:
    """The entries at ``tip`` with `tip` and `parser` columns: read again only when the tip
    moved (a changelog is rewritten in place, so the tip's version is the whole truth) or the
    parser changed."""
    parser = parser_fingerprint()
    if previous is not None and {"tip", "parser"} <= set(previous.columns) and previous.height \
            and previous["tip"][0] == tip and previous["parser"][0] == parser:
        return previous
    return read_changelogs(git_dir, repo, tip).with_columns(pl.lit(tip).alias("tip"), pl.lit(parser).alias("parser"))


# A text file anywhere under a changelog folder: the entries of changes not released yet
# (SQLAlchemy's doc/build/changelog/unreleased_21/13227.rst, a `.. change::` block each).
CHANGELOG_FOLDER_FILE = rf"(?i){_FRAGMENT_DIR}(?:[^/]+/)*[^/]+{_FRAGMENT_EXT}$"


def is_changelog(path: str) -> bool:
    return bool(re.search(CHANGELOG_FILE, path) or re.search(CHANGELOG_FOLDER_FILE, path)) \
        and not re.search(_NOT_THE_PROJECTS, path)


def _words(text: pl.Expr) -> pl.Expr:
    """A subject or an entry reduced to its words: no type prefix, no `**scope:**`, no
    trailing references (`(#12)`, `([abc1234](…))`, `closes #4`), lower-case."""
    return (
        text.str.replace(PREFIX, "")
        .str.replace(r"^\*\*[^*\n]{1,60}\*\*:?\s*", "")
        .str.replace_all(r"\s*\((?:[^()]*(?:#\d+|\b[0-9a-f]{7,40}\b)[^()]*)\)", "")
        .str.replace(r"(?i)[\s,;]+(?:closes?|fix(?:es)?|ref|resolves?)\s+#\d+.*$", "")
        .str.replace_all(r"\s+", " ")
        .str.strip_chars(" .")
        .str.to_lowercase()
    )


def _terms(text: pl.Expr) -> pl.Expr:
    """The distinct content words of a text (3+ letters, not in `changelog_ignore_words`)."""
    return (text.str.to_lowercase().str.extract_all(r"[a-z][a-z0-9_]{2,}").list.unique()
            .list.set_difference(pl.lit(IGNORED_WORDS)))


def _by_number(entries: pl.DataFrame, targets: pl.DataFrame, key: list[str]) -> pl.DataFrame:
    """(key..., category) for the `targets` (repo, pr, words) an entry names by number.

    A number names the change only when the entry also shares some of its words: a history
    imported from another repository carries that repository's numbers (nitro's early entries
    name nitropack's pull requests; 164 such pairs share no word, and 39% of them agree). A
    pull request the entry links by the repository's own address is named whatever the words
    (rich's `Added support for some multi-codepoint glyphs .../rich/pull/3930`, merged as
    "Handle graphemes")."""
    linked = pl.col("linked_prs") if "linked_prs" in entries.columns else pl.lit([], pl.List(pl.Int64))
    return (
        entries.select("repo", "category", pl.col("prs").alias("pr"), linked.alias("_linked"), _terms(pl.col("text")).alias("_e"))
        .explode("pr", empty_as_null=False).drop_nulls("pr")
        .join(targets.with_columns(_terms(pl.col("words")).alias("_c")), on=["repo", "pr"])
        .filter((pl.col("_e").list.set_intersection("_c").list.len()
                 >= MIN_SHARED_WORDS * pl.min_horizontal(pl.col("_e").list.len(), pl.col("_c").list.len()))
                | pl.col("_linked").list.contains(pl.col("pr")))
        .select(*key, "category")
    )


def _agreed(matches: pl.DataFrame, key: list[str], name: str) -> pl.DataFrame:
    """One row per key whose matches all say the same category."""
    return (
        matches.unique().group_by(key).agg(pl.col("category").first(), pl.len().alias("_n"))
        .filter(pl.col("_n") == 1).select(*key, pl.col("category").alias(name))
    )


def pull_request_categories(prs: pl.DataFrame, entries: pl.DataFrame | None) -> pl.DataFrame:
    """(repo, pr_number, changelog_category) for the pull requests of `prs` (repo, pr_number,
    title: its merge's title) that `entries` name by number, with one category."""
    key = ["repo", "pr_number"]
    if entries is None or entries.is_empty() or prs.is_empty():
        return pl.DataFrame(schema={"repo": pl.String, "pr_number": pl.Int64, "changelog_category": pl.String})
    targets = prs.select("repo", pl.col("pr_number").cast(pl.Int64), pl.col("pr_number").cast(pl.Int64).alias("pr"),
                         _words(pl.col("title")).alias("words"))
    return _agreed(_by_number(entries, targets, key), key, "changelog_category")


def changelog_categories(commits: pl.DataFrame, entries: pl.DataFrame) -> pl.DataFrame:
    """(repo, sha, changelog_category) for the commits of `commits` (repo, sha, subject; message
    and is_merge when present) that `entries` (ENTRIES_SCHEMA plus repo) name with one category."""
    out_schema = {"repo": pl.String, "sha": pl.String, "changelog_category": pl.String}
    if entries.is_empty():
        return pl.DataFrame(schema=out_schema)
    merge = pl.col("is_merge").fill_null(False) if "is_merge" in commits.columns else pl.lit(False)
    own = commits.filter(~merge).select(
        "repo", "sha",
        pl.col("subject").str.extract(r"\(#(\d+)\)\s*$", 1).cast(pl.Int64).alias("pr"),
        _words(pl.col("subject")).alias("words"),
        (pl.col("message") if "message" in commits.columns else pl.lit(None, pl.String)).alias("_message"),
    )
    # A hash names its commit, as long as the entry speaks of it at all: a hand-written entry
    # can cite the wrong commit (httpx credits a `.netrc` fix to "Drop
    # MessageLoggerASGIMiddleware"), and then the two share no word.
    by_sha = (
        entries.select("repo", "category", pl.col("shas").alias("prefix"), _terms(pl.col("text")).alias("_e"))
        .explode("prefix", empty_as_null=False).drop_nulls("prefix")
        .with_columns(pl.col("prefix").str.slice(0, 7).alias("_k"))
        .join(own.select("repo", "sha", pl.col("sha").str.slice(0, 7).alias("_k"), _terms(pl.col("words")).alias("_c")),
              on=["repo", "_k"])
        .filter(pl.col("sha").str.starts_with(pl.col("prefix"))
                & ((pl.col("_e").list.set_intersection("_c").list.len() > 0) | (pl.col("_c").list.len() == 0)))
        .select("repo", "sha", "category")
    )
    # The numbers a commit is the change of: its squash subject's pull request, and the issues
    # it says it closes (`Fixes: #13227`, `Closes #88`, Trac's `[ticket:2345]`), which a
    # changelog that lists tickets names (SQLAlchemy's `:tickets: 13227`).
    # (Such a claim is checked against the whole message: its body is often the entry's text.)
    closed = own.select("repo", "sha", pl.col("_message").alias("words"),
                        pl.col("_message").str.extract_all(CLOSES_ISSUE).alias("pr")) \
        .explode("pr", empty_as_null=True).drop_nulls("pr") \
        .select("repo", "sha", pl.col("pr").str.extract(r"(\d+)\D*$", 1).cast(pl.Int64), "words")
    numbered = pl.concat([own.select("repo", "sha", "pr", "words").drop_nulls("pr"), closed]).unique()
    by_pr = _by_number(entries, numbered, ["repo", "sha"])
    # Words alone match only a subject that no other commit of the repository has.
    unique_words = own.filter(pl.col("words").str.len_chars() >= 12).filter(
        pl.len().over("repo", "words") == 1)
    by_words = (
        entries.select("repo", "category", _words(pl.col("text")).alias("words"))
        .join(unique_words, on=["repo", "words"]).select("repo", "sha", "category")
    )
    return _agreed(pl.concat([by_sha, by_pr, by_words]), ["repo", "sha"], "changelog_category")
