"""A repository's own changelog as evidence of each change's kind: the common formats parsed, and
commits of a real repository matched by hash, by squash pull-request number and by subject."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from exceeds_pipeline.classify.categories import categorize_commits, debug_scores
from exceeds_pipeline.classify.links import commit_links
from exceeds_pipeline.classify.work_items import assign_work_items
from exceeds_pipeline.classify.changelog import (
    changelog_entries,
    heading_category,
    is_changelog,
    parse_changelog,
    read_changelogs,
    update_changelog_entries,
)
from exceeds_pipeline_tests.classify.gitframes import by_subject, read_repo
from exceeds_pipeline_tests.gitscript import GitScript

ANN = ("Ann Lee", "ann@example.com")

CONVENTIONAL_CHANGELOG = """\
# Changelog

## [5.1.0](https://github.com/acme/app/compare/v5.0.0...v5.1.0) (2025-06-01)

### Bug Fixes

* **css:** don't pass empty targets ([#23295](https://github.com/acme/app/issues/23295)) ([2804636](https://github.com/acme/app/commit/2804636ff608d105928009d274ffba7cfbe55340))
* respect preserveSymlinks (fix [#23197](https://github.com/acme/app/issues/23197)) ([#23198](https://github.com/acme/app/issues/23198))

### Features

* **ssr:** stream the response ([#23300](https://github.com/acme/app/issues/23300))

### Breaking Changes

* drop Node 18 ([#23301](https://github.com/acme/app/issues/23301))

## 5.0.0

* an entry under a version heading says nothing ([#23302](https://github.com/acme/app/issues/23302))
"""

CHANGELOGEN = """\
## v2.9.5

[compare changes](https://github.com/unjs/app/compare/v2.9.4...v2.9.5)

### 🚀 Enhancements

- **openapi:** Add experimental endpoint ([#2252](https://github.com/unjs/app/pull/2252))

### 🩹 Fixes

- **openapi:** Avoid double slash for base ([fdf7e70a](https://github.com/unjs/app/commit/fdf7e70a))

### ❤️ Contributors

- Pooya Parsa ([@pi0](http://github.com/pi0))
"""

KEEP_A_CHANGELOG = """\
## [Unreleased]

### Added
- Export to CSV (#41)

### Fixed
- Crash on empty input, see acme/other#7 for the upstream report

### Changed
- Rename the `--out` flag (#43)
"""

SPHINX_CHANGES = """\
.. changelog:: 3.0.0
    :date: 2025-01-27

    .. change:: Fix ``TypeError`` for a union of enums
        :type: bugfix
        :pr: 4997
        :issue: 4439

        Annotating a handler with a union of enums crashed.

    .. change:: Remove the RapiDoc plugin
        :type: feature
        :breaking:
        :pr: 4977, 4978

        The plugin has been removed.

    .. change:: Tidy the docs
        :type: misc
        :pr: 4980
"""

# SQLAlchemy's changelog extension: no title, the kind among `:tags:`, tickets not pull requests
SPHINX_TAGGED_CHANGES = """\
.. changelog::
    :version: 2.0.52
    :released: August 11, 2026

    .. change::
        :tags: bug, postgresql, reflection
        :tickets: 13157

        Fixed reflection of PostgreSQL CHECK constraints where an expression made
        up of parenthesized sub-expressions lost its parentheses.

    .. change::
      :tags: orm, usecase
      :tickets: 13227, 13228

      Added support for ``default_factory=list`` on write only relationships.

    .. change::
        :tags: orm, typing
        :tickets: 13300

        Improved the typing of ``Session.get()``.

.. changelog::
    :version: 2.0.51
"""

ANGULAR_TABLES = """\
<a name="22.1.3"></a>
# 22.1.3 "hydrogen-harp" (2026-08-19)
### cdk
| Commit | Type | Description |
| -- | -- | -- |
| [72a496882](https://github.com/angular/components/commit/72a496882db5874e15ca9d4cb3e5b7bb6dc452e1) | fix | **a11y:** move focus to root ([#33654](https://github.com/angular/components/pull/33654)) |
| [c87e3a57e7](https://github.com/angular/components/commit/c87e3a57e7f90a93b003d1e5913b96904b8b8adf) | feat | **overlay:** add a scroll strategy ([#33635](https://github.com/angular/components/pull/33635)) |
| [9582c5f301](https://github.com/angular/components/commit/9582c5f301b8da23061f444de9083f358fafd630) | revert | undo the overlay change ([#33660](https://github.com/angular/components/pull/33660)) |

| Package | Version |
| -- | -- |
| fix | 1.0 |
"""

RST_HEADINGS = """\
Release 1.2
===========

Bug fixes
---------

* Stop leaking file handles (`#310 <https://github.com/acme/app/pull/310>`_)

Features
--------

* Add ``--quiet`` (#311)

Release 1.1
===========

* Something unsorted (#300)
"""


def categories(text: str) -> list[tuple[str, list[int], list[str]]]:
    return [(e["category"], e["prs"], e["shas"]) for e in parse_changelog(text)]


def test_conventional_changelog_sections_numbers_and_hashes():
    assert categories(CONVENTIONAL_CHANGELOG) == [
        # (the link's text, all digits, could be a number: its URL names the commit)
        ("bug", [23295], ["2804636ff608d105928009d274ffba7cfbe55340"]),
        # the issue it fixes is named too: a commit of a pull request #23197 does not exist
        ("bug", [23197, 23198], []),
        ("feature", [23300], []),
    ]  # Breaking Changes and a version's own bullets name no kind of change


def test_changelogen_emoji_headings_and_short_hashes():
    assert categories(CHANGELOGEN) == [("feature", [2252], []), ("bug", [], ["fdf7e70a"])]


def test_keep_a_changelog_and_references_to_other_repositories():
    # `acme/other#7` is another repository's number; `Changed` names no kind of change
    assert categories(KEEP_A_CHANGELOG) == [("feature", [41], []), ("bug", [], [])]


def test_a_pull_request_named_by_its_address_is_the_repositorys_own_only():
    # rich links its pull requests by address; a link to another project's pull request names none here
    text = ("## [14.1.0]\n\n### Added\n\n- Added support for some multi-codepoint glyphs "
            "https://github.com/Textualize/rich/pull/3930\n\n### Fixed\n\n- Fixed a crash, "
            "upstream in https://github.com/python/cpython/pull/3931\n")
    got = [(e["category"], e["prs"]) for e in parse_changelog(text, "Textualize/rich")]
    assert got == [("feature", [3930]), ("bug", [])]
    assert [e["prs"] for e in parse_changelog(text)] == [[], []]


def test_sphinx_change_blocks():
    # `:issue:` numbers name the change too (a commit says it closes the issue)
    assert categories(SPHINX_CHANGES) == [("bug", [4439, 4997], []), ("feature", [4977, 4978], [])]


def test_sphinx_change_blocks_with_tags_and_tickets():
    # the first tag naming a kind of change; a block with none (`orm, typing`) gives nothing
    entries = parse_changelog(SPHINX_TAGGED_CHANGES)
    assert [(e["category"], e["prs"]) for e in entries] == [("bug", [13157]), ("feature", [13227, 13228])]
    # untitled: the block's text stands for it, and the next block or version ends it
    assert entries[0]["text"].startswith("Fixed reflection of PostgreSQL CHECK constraints where")
    assert entries[1]["text"] == "Added support for ``default_factory=list`` on write only relationships."


def test_markdown_tables_with_a_type_column():
    # a revert names no kind; a table without a Type column is not a list of changes
    assert categories(ANGULAR_TABLES) == [
        ("bug", [33654], ["72a496882", "72a496882db5874e15ca9d4cb3e5b7bb6dc452e1"]),
        ("feature", [33635], ["c87e3a57e7", "c87e3a57e7f90a93b003d1e5913b96904b8b8adf"]),
    ]


def test_restructuredtext_underlined_headings():
    assert categories(RST_HEADINGS) == [("bug", [310], []), ("feature", [311], [])]


REQUESTS_HISTORY = """Release History
===============

2.34.1 (2026-05-13)
-------------------

**Bugfixes**
- Widened `json` input type from `dict` and `list` to `Mapping`. (#7436)

2.34.0 (2026-05-11)
-------------------

**Improvements**
- Requests added support for Python 3.14t. (#7419)

__Bugfixes__
- ``Response.history`` no longer contains a reference to itself. (#7328)

**Deprecations**:
- Dropped support for Python 3.8. (#7401)
- **Note** this is a bullet, not a heading (#7402)
"""


def test_a_line_of_emphasis_alone_is_a_subheading():
    """requests' HISTORY.md sorts each version's entries under `**Bugfixes**` and the like;
    a heading that names no kind (`**Other**`) ends the one before."""
    assert categories(REQUESTS_HISTORY) == [("bug", [7436], []), ("enhancement", [7419], []), ("bug", [7328], []),
                                            ("refactor", [7401], []), ("refactor", [7402], [])]
    assert categories(REQUESTS_HISTORY.replace("**Improvements**", "**Other**")) == [
        ("bug", [7436], []), ("bug", [7328], []), ("refactor", [7401], []), ("refactor", [7402], [])]


FZF_CHANGELOG = """CHANGELOG
=========

0.73.1
------
- Bug fixes
    - Skip the export when the item contains a NUL byte (#4806)
    * Fixed O(n^2) body accumulation in `--listen` (#4807)
- Performance optimization:
    - Faster scanning of short queries (#4810)
- New `--track=NTH` option (#4808)
- **Bug fixes**
- Bug fixes in the preview window (#4809)

0.73.0
------
### Added
- Reload action (#4800)
- Vim plugin
    - New option for the popup (#4801)
- Bug fixes
  - Fixed gutter display (#4802)
- Back to the heading's kind (#4803)
"""


def test_a_bullet_of_heading_words_heads_its_nested_bullets():
    """fzf's CHANGELOG sorts a version's entries under bullets (`- Bug fixes` with nested
    bullets); a bullet of heading words with nothing nested is an entry like any other."""
    assert categories(FZF_CHANGELOG) == [("bug", [4806], []), ("bug", [4807], []), ("perf", [4810], []),
                                         ("feature", [4800], []), ("feature", [], []), ("feature", [4801], []),
                                         ("bug", [4802], []), ("feature", [4803], [])]


def test_a_wrapped_entry_keeps_its_numbers_and_hashes_from_every_line():
    """black wraps its CHANGES.md entries at 88 columns, so `(#3877)` sits on the second line of
    38 of its 65 categorised entries ("Pickle raw tuples in FileData cache", under Performance,
    had read as a fix); prettier puts kratos's commit links on a line of their own. An item ends
    at a blank line, the next item or a heading."""
    text = ("## 23.9.0\n\n### Performance\n\n- Store raw tuples instead of NamedTuples in Black's cache, improving\n"
            "  performance and decreasing the size of the cache (#3877)\n- Speed up the parser\n"
            "(#3880)\n\nSee #3000 for more.\n\n### Bug Fixes\n\n- **login:** Dry up login.NewFlow\n"
            "  ([f261c44](https://github.com/ory/kratos/commit/f261c442dbe74e3b9887193b74e36fe70306f9d8))\n"
            "### Features\n\n- Add `--line-ranges` (#3881)\n")
    assert categories(text) == [("perf", [3877], []), ("perf", [3880], []),
                                ("bug", [], ["f261c44", "f261c442dbe74e3b9887193b74e36fe70306f9d8"]), ("feature", [3881], [])]
    assert parse_changelog(text)[0]["text"].endswith("decreasing the size of the cache (#3877)")


@pytest.mark.parametrize("heading, category", [
    ("Bug Fixes", "bug"), ("🩹 Fixes", "bug"), ("Fixed", "bug"), ("Security", "bug"),
    ("Features", "feature"), ("🚀 Enhancements", "feature"), ("New Features", "feature"), ("Added", "feature"),
    # jekyll's History.markdown: a heading's rank is no kind; its site is its documentation
    ("Minor Enhancements", "enhancement"), ("Major Enhancements", "enhancement"), ("Improvements", "enhancement"),
    ("Development Fixes", "chore"), ("Site Enhancements", "docs"), ("Bugs fixed", "bug"), ("Other Changes", None),
    ("Performance Improvements", "perf"), ("Code Refactoring", "refactor"), ("📖 Documentation", "docs"),
    ("Build System", "build"), ("Miscellaneous Chores", "chore"),
    (":bug: (Bug Fix)", "bug"), (":rocket: (Enhancement)", "feature"), (":house: (Internal)", "chore"),
    ("Removed", "refactor"), ("Deprecations", "refactor"),
    ("Breaking Changes", None), ("Changed", None), ("Dependencies", None), ("What's Changed", None),
    ("v2.9.5", None), ("[5.1.0](https://x) (2025-06-01)", None), ("Reverts", None),
])
def test_heading_words(heading, category):
    assert heading_category(heading) == category


@pytest.mark.parametrize("path, listed", [
    ("CHANGELOG.md", True), ("packages/vite/CHANGELOG.md", True), ("CHANGES.rst", True),
    ("HISTORY.md", True), ("NEWS", True), ("docs/release-notes/2.x-changelog.rst", True),
    ("docs/release-notes/changelog.rst", True), ("RELEASE_NOTES.md", True),
    ("tests/data/CHANGELOG.md", False), ("commitizen/templates/CHANGELOG.md.j2", False),
    ("examples/demo/CHANGELOG.md", False), ("src/changelog.py", False), ("lib/news.js", False),
    ("CHANGELOG-2.x.md", True), ("docs/changes.txt", True), ("docs/release_notes.qmd", True),
    ("src/history/model.py", False), ("README.md", False),
    # entries not released yet, one file each, anywhere under a changelog folder
    ("doc/build/changelog/unreleased_21/13227.rst", True), ("changelog/1234.bugfix.rst", True),
    ("doc/build/changelog/unreleased_21/build.py", False), ("tests/changelog/unreleased/1.rst", False),
])
def test_which_files_are_changelogs(path, listed):
    assert is_changelog(path) is listed


def test_an_entry_that_reverts_a_change_does_not_label_it():
    text = "### Bug Fixes\n\n- Revert \"tmpdir: clean up indirection\" (#6767)\n- **core:** revert the cache change (#7)\n- Fix the cache (#8)\n"
    assert changelog_entries({"CHANGELOG.md": text})["prs"].to_list() == [[8]]


def test_a_source_file_named_like_a_changelog_gives_no_entries():
    # its comments look like Markdown headings and bullets
    code = "# Bug fixes\n- x = 1  # (#12)\n"
    assert changelog_entries({"src/changelog.py": code}).is_empty()
    assert changelog_entries({"CHANGELOG.md": code}).height == 1


@pytest.fixture
def listed_repo(tmp_path):
    """Untyped subjects, the changelog of the tip sorting some of them."""
    repo = GitScript.init(tmp_path / "app")
    shas = {}
    for i, (subject, files) in enumerate([
        ("Handle the empty config (#12)", {"src/config.py": "def load():\n    return {}\n"}),
        ("Make the parser stream its input", {"src/parser.py": "def parse(s):\n    yield from s\n"}),
        ("Tidy the loader", {"src/loader.py": "def load():\n    pass\n"}),
        ("Improve the README (#14)", {"README.md": "# app\n\nUsage.\n"}),
        ("feat: add the exporter (#15)", {"src/export.py": "def export():\n    pass\n"}),
        ("Update the loader", {"src/loader.py": "def load():\n    return 1\n"}),
        ("Update the loader", {"src/loader.py": "def load():\n    return 2\n"}),
        ("Add retries to the client (#16)", {"src/client.py": "def get():\n    pass\n"}),
        ("Speed up the cache lookups (#17)", {"src/cache.py": "def get():\n    return 1\n"}),
        ("Drop the logging middleware", {"src/middleware.py": "def wrap(app):\n    return app\n"}),
    ]):
        shas[subject] = repo.commit(subject, author=ANN, date=f"2025-03-{i + 1:02d}T10:00:00+0000", files=files)
    parser = shas["Make the parser stream its input"]
    dropped = shas["Drop the logging middleware"]
    changelog = f"""# Changelog

## 1.0.0

### Features

* handle the empty config ([#12](https://github.com/acme/app/issues/12))
* **docs:** improve the README ([#14](https://github.com/acme/app/issues/14))
* update the loader
* add retries to the client (#16)

### Bug Fixes

* use std-env to detect the provider (#17)
* Authorization headers take priority over netrc (Commit {dropped})
* **parser:** make the parser stream its input ([{parser[:7]}](https://github.com/acme/app/commit/{parser}))
* tidy the loader.
* add the exporter (#15)
* add retries to the client (#16)
"""
    repo.commit("Release 1.0.0", author=ANN, date="2025-04-01T10:00:00+0000",
                files={"CHANGELOG.md": changelog,
                       "tests/fixtures/CHANGELOG.md": "### Bug Fixes\n\n* release 1.0.0\n"})
    return repo


def test_commits_take_the_kind_their_changelog_entries_agree_on(listed_repo):
    commits, files = read_repo(listed_repo)
    git_dir = Path(listed_repo.git("rev-parse", "--absolute-git-dir"))
    entries = read_changelogs(git_dir, "acme/app", listed_repo.git("rev-parse", "HEAD")).with_columns(
        pl.lit("acme/app").alias("repo"))
    assert entries.height == 10  # the test fixture's changelog is not the project's
    before = by_subject(commits.filter(pl.col("subject") != "Update the loader")
                        .pipe(categorize_commits, files), "category")
    after = categorize_commits(commits, files, changelog=entries)
    got = by_subject(after.filter(pl.col("subject") != "Update the loader"), "category")
    assert got == {
        "Handle the empty config (#12)": "feature",  # by its squash number
        "Make the parser stream its input": "bug",  # by its hash
        "Tidy the loader": "bug",  # by its words
        # a docs-only change listed as a feature is documentation work
        "Improve the README (#14)": before["Improve the README (#14)"],
        # the subject's own type outranks the changelog
        "feat: add the exporter (#15)": "feature",
        # listed under both kinds: the changelog does not say
        "Add retries to the client (#16)": before["Add retries to the client (#16)"],
        # the number is the same, the words are another change's (an imported history's numbers)
        "Speed up the cache lookups (#17)": before["Speed up the cache lookups (#17)"],
        # the entry cites a commit it does not speak of (a hand-written changelog's slip)
        "Drop the logging middleware": before["Drop the logging middleware"],
        "Release 1.0.0": before["Release 1.0.0"],
    }
    assert before["Speed up the cache lookups (#17)"] != "bug" and before["Drop the logging middleware"] != "bug"
    assert before["Handle the empty config (#12)"] != "feature"
    assert before["Make the parser stream its input"] != "bug"
    assert before["Tidy the loader"] != "bug"
    # two commits share the subject: words alone do not say which one the entry means
    loader = after.filter(pl.col("subject") == "Update the loader")["category"].to_list()
    assert "feature" not in loader and len(loader) == 2


def test_entries_are_read_again_only_for_a_new_tip(listed_repo):
    git_dir = Path(listed_repo.git("rev-parse", "--absolute-git-dir"))
    tip = listed_repo.git("rev-parse", "HEAD")
    table = update_changelog_entries(None, git_dir, "acme/app", tip)
    assert table.height == 10 and table["tip"].unique().to_list() == [tip]
    assert update_changelog_entries(table, git_dir, "acme/app", tip) is table
    # entries an earlier parser read are read again
    stale = table.with_columns(pl.lit("0" * 16).alias("parser"))
    assert update_changelog_entries(stale, git_dir, "acme/app", tip) is not stale
    assert update_changelog_entries(table.drop("parser"), git_dir, "acme/app", tip).equals(table)
    newer = listed_repo.commit("Drop the changelog", author=ANN, date="2025-04-02T10:00:00+0000",
                               files={"CHANGELOG.md": None})
    assert update_changelog_entries(table, git_dir, "acme/app", newer).is_empty()


def test_a_news_fragment_the_change_adds_is_its_label(tmp_path):
    # towncrier: a pull request adds `changelog/<number>.<type>.rst`; the release deletes them
    repo = GitScript.init(tmp_path / "app")
    subjects = {
        "Handle the empty config": {"src/config.py": "def load():\n    return {}\n",
                                    "changelog/12.feature.rst": "Empty configs load.\n"},
        "Allow a custom port": {"src/server.py": "def serve(port=80):\n    pass\n",
                                "newsfragments/13.bugfix": "The port option works again.\n"},
        "Update the loader": {"src/loader.py": "def load():\n    return 2\n",
                              "changelog/14.breaking.rst": "The old loader is gone.\n"},
        "Tidy the docs": {"docs/index.rst": "Index\n=====\n", "changelog/15.bugfix.rst": "Typo.\n"},
    }
    for i, (subject, files) in enumerate(subjects.items()):
        repo.commit(subject, author=ANN, date=f"2025-03-{i + 1:02d}T10:00:00+0000", files=files)
    repo.commit("Prepare release 1.0", author=ANN, date="2025-04-01T10:00:00+0000",
                files={"changelog/12.feature.rst": None, "changelog/14.breaking.rst": None,
                       "changelog/15.bugfix.rst": None, "newsfragments/13.bugfix": None,
                       "CHANGES.rst": "1.0\n===\n\nFeatures\n--------\n\n- Empty configs load. (#12)\n"})
    commits, files = read_repo(repo)
    scores = debug_scores(commits, files)
    # `breaking` names no kind; deleting the fragments is the release's work, not a fix
    assert by_subject(scores, "_fragment") == {
        "Handle the empty config": "feature", "Allow a custom port": "bug", "Update the loader": None,
        "Tidy the docs": "bug", "Prepare release 1.0": None}
    got = by_subject(categorize_commits(commits, files), "category")
    # a docs-only change with a bugfix fragment is documentation work
    assert [got[s] for s in subjects] == ["feature", "bug", got["Update the loader"], "docs"]
    without = files.filter(~pl.col("path").str.contains("changelog/|newsfragments/"))
    plain = by_subject(categorize_commits(commits, without), "category")
    assert plain["Handle the empty config"] != "feature" and plain["Allow a custom port"] != "bug"


def test_a_fragment_named_type_first_is_its_label(tmp_path):
    # RuboCop: `changelog/<type>_<what>_<timestamp>.md`, the type first (new, fix, change)
    repo = GitScript.init(tmp_path / "app")
    subjects = {
        "Make the cop aware of endless methods": {
            "lib/cop.rb": "def check = 1\n", "changelog/new_make_the_cop_aware_20250301100000.md": "* New.\n"},
        "Skip runtime hooks in the cop": {
            "lib/hooks.rb": "def hooks = []\n", "changelog/fix_skip_runtime_hooks_20250302100000.md": "* Fixed.\n"},
        "Disable the cop by default": {
            "config/default.yml": "Cop:\n  Enabled: false\n",
            "changelog/change_disable_the_cop_20250303100000.md": "* Changed.\n"},
    }
    for i, (subject, files) in enumerate(subjects.items()):
        repo.commit(subject, author=ANN, date=f"2025-03-{i + 1:02d}T10:00:00+0000", files=files)
    commits, files = read_repo(repo)
    # `change` names no kind of change
    assert by_subject(debug_scores(commits, files), "_fragment") == {
        "Make the cop aware of endless methods": "feature", "Skip runtime hooks in the cop": "bug",
        "Disable the cop by default": None}
    got = by_subject(categorize_commits(commits, files), "category")
    assert got["Make the cop aware of endless methods"] == "feature" and got["Skip runtime hooks in the cop"] == "bug"
    plain = by_subject(categorize_commits(commits, files.filter(~pl.col("path").str.starts_with("changelog/"))), "category")
    assert plain["Make the cop aware of endless methods"] != "feature" and plain["Skip runtime hooks in the cop"] != "bug"


def test_a_merged_pull_request_takes_the_kind_its_changelog_entry_is_filed_under(tmp_path):
    # A merge-commit workflow: the branch's commits carry no number; the changelog names the
    # pull request, the merge carries its title.
    bob = ("Bob Stone", "bob@example.com")
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Initial commit", author=ANN, date="2025-03-01T09:00:00+0000", files={"app.py": "x = 1\n"})
    for pr, branch, title, work in [
        (42, "bob/proxy", "Support proxies given as URLs with credentials", "Parse credentials out of proxy URLs"),
        (43, "bob/timeouts", "Pool timeouts", "Raise PoolTimeout when the pool is exhausted"),
    ]:
        repo.branch(branch, checkout=True)
        repo.commit(work, author=bob, date=f"2025-03-0{pr - 40}T10:00:00+0000",
                    files={f"src/{branch.split('/')[1]}.py": "def f():\n    return 1\n"})
        repo.checkout("main")
        repo.merge(branch, f"Merge pull request #{pr} from {branch}\n\n{title}", author=ANN,
                   date=f"2025-03-0{pr - 40}T12:00:00+0000")
    repo.commit("Release 1.1", author=ANN, date="2025-03-09T10:00:00+0000", files={"CHANGELOG.md": (
        "## 1.1\n\n### Fixed\n\n- Proxy URLs with credentials work again. (#42)\n"
        # the number of another project's pull request: no word in common with PR 43's title
        "- Vendored certifi updated, see upstream (#43)\n")})
    commits, files = read_repo(repo)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    entries = read_changelogs(git_dir, "acme/app", repo.git("rev-parse", "HEAD")).with_columns(
        pl.lit("acme/app").alias("repo"))
    links = commit_links(commits)
    table = categorize_commits(commits, files, links, changelog=entries)
    _, without = assign_work_items(table, links, files)
    _, items = assign_work_items(table, links, files, entries)
    kinds = dict(zip(items["work_item_id"], items["category"]))
    before = dict(zip(without["work_item_id"], without["category"]))
    assert before["acme/app#pr-42"] != "bug" and kinds["acme/app#pr-42"] == "bug"
    assert kinds["acme/app#pr-43"] == before["acme/app#pr-43"] != "bug"


def test_a_bot_merged_pull_request_is_listed_by_its_commits_under_ranked_headings(tmp_path):
    """jekyll: jekyllbot merges pull requests with the body `Merge pull request 6342` (no title);
    History.markdown files them under `Minor Enhancements`, `Development Fixes`, `Bug Fixes`.
    The entry is matched by the pull request's own commits; an enhancement is a feature unless
    the change reads as another kind of work (a refactoring stays one), and a heading of tooling
    work recasts a fix as a chore."""
    bot = ("jekyllbot", "jekyllbot@example.com")
    bob = ("Bob Stone", "bob@example.com")
    repo = GitScript.init(tmp_path / "site")
    repo.commit("Initial commit", author=ANN, date="2025-03-01T09:00:00+0000",
                files={"lib/site.rb": "class Site\n  def pages\n    @pages\n  end\nend\n"})
    prs = [
        (44, "bob/sort", "Handle documents without a date when sorting", {"lib/sort.rb": "def sort_docs(d)\n  d.sort_by { |x| x.date }\nend\n"}),
        (45, "bob/rubocop", "Fix offenses in the reader", {"lib/reader.rb": "def read\n  []\nend\n"}),
        (46, "bob/reader", "Refactor the page reader", {"lib/page_reader.rb": "class PageReader\n  def call\n    []\n  end\nend\n"}),
    ]
    for n, (pr, branch, work, files) in enumerate(prs):
        repo.branch(branch, checkout=True)
        repo.commit(work, author=bob, date=f"2025-03-0{n + 2}T10:00:00+0000", files=files)
        repo.checkout("main")
        repo.merge(branch, f"Merge pull request #{pr} from {branch}\n\nMerge pull request {pr}", author=bot,
                   date=f"2025-03-0{n + 2}T12:00:00+0000")
    repo.commit("Release 1.1", author=ANN, date="2025-03-09T10:00:00+0000", files={"History.markdown": (
        "## 1.1.0 / 2025-03-09\n\n### Minor Enhancements\n\n"
        "  * Sort documents without a date (#44)\n  * Refactor page reading (#46)\n\n"
        "### Development Fixes\n\n  * Appease RuboCop in the reader (#45)\n")})
    commits, files = read_repo(repo)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    entries = read_changelogs(git_dir, "acme/app", repo.git("rev-parse", "HEAD")).with_columns(pl.lit("acme/app").alias("repo"))
    _, before = _kinds(commits, files)
    _, after = _kinds(commits, files, entries)
    assert before["acme/app#pr-44"] != "feature" and after["acme/app#pr-44"] == "feature"
    assert before["acme/app#pr-45"] == "bug" and after["acme/app#pr-45"] == "chore"
    assert before["acme/app#pr-46"] == after["acme/app#pr-46"] == "refactor"


def test_a_refactorings_heading_keeps_a_speed_up_and_a_change_of_docs_or_tests_only(tmp_path):
    """FastAPI's release notes have no performance heading: `⚡️ Reduce memory usage in
    dependencies` is filed under `Refactors`, and so are a split of Markdown pages and a
    simplification of tests. A speed-up is a refactoring of a narrower kind; a change of only
    docs or only tests is that work, whatever heading lists it."""
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Initial commit", author=ANN, date="2025-03-01T09:00:00+0000",
                files={"app/deps.py": "def solve(d):\n    return list(d)\n", "docs/guide.md": "# Guide\n",
                       "tests/test_forms.py": "def test_form():\n    assert True\n"})
    for i, (subject, files) in enumerate([
        ("⚡️ Reduce memory usage of the dependency cache (#17)", {"app/deps.py": "def solve(d):\n    yield from d\n"}),
        ("♻️ Split the guide into reference pages (#18)", {"docs/guide.md": "# Guide\n\nSee the references.\n",
                                                          "docs/references/forms.md": "# Forms\n\nFields.\n"}),
        ("♻️ Simplify tests for the forms (#19)", {"tests/test_forms.py": "def test_form():\n    assert 1\n"}),
        ("♻️ Extract the cache into its own module (#20)", {"app/cache.py": "CACHE = {}\n", "app/deps.py": "from app.cache import CACHE\n"}),
    ]):
        repo.commit(subject, author=ANN, date=f"2025-03-0{i + 2}T10:00:00+0000", files=files)
    repo.commit("🔖 Release 0.2.0", author=ANN, date="2025-03-09T10:00:00+0000", files={"docs/release-notes.md": (
        "## 0.2.0\n\n### Refactors\n\n* ⚡️ Reduce memory usage of the dependency cache. PR #17.\n"
        "* ♻️ Split the guide into reference pages. PR #18.\n* ♻️ Simplify tests for the forms. PR #19.\n"
        "* ♻️ Extract the cache into its own module. PR #20.\n")})
    commits, files = read_repo(repo)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    entries = read_changelogs(git_dir, "acme/app", repo.git("rev-parse", "HEAD")).with_columns(pl.lit("acme/app").alias("repo"))
    assert entries.filter(pl.col("category") == "refactor").height == 4
    subjects, items = _kinds(commits, files, entries)
    assert [items[f"acme/app#pr-{n}"] for n in (17, 18, 19, 20)] == ["perf", "docs", "test", "refactor"]
    assert subjects["⚡️ Reduce memory usage of the dependency cache (#17)"] == "perf"


def test_a_fixes_heading_keeps_a_speed_up_and_a_change_its_subject_says_documents(tmp_path):
    """axum files `Make Router cheaper to clone` under `fixed` and `Expand the docs for
    Router::with_state` (doc comments and an example in code) under `added`: a speed-up the
    subject does not call a fix stays one, and so does documentation work. A speed-up the
    subject calls a fix is the fix its listing says; code moved to another crate, listed as added
    there (axum's `Move TypedHeader to axum-extra`), stays a refactoring."""
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Initial commit", author=ANN, date="2025-03-01T09:00:00+0000",
                files={"src/router.rs": "pub struct Router { routes: Vec<Route> }\n",
                       "src/state.rs": "pub fn with_state() {}\n", "src/path.rs": "pub fn parse() {}\n"})
    for i, (subject, files) in enumerate([
        ("Make `Router` faster to clone (#17)", {"src/router.rs": "pub struct Router { routes: Arc<Vec<Route>> }\n"}),
        ("Expand the docs for `Router::with_state` (#18)",
         {"src/state.rs": "/// Provide the state.\n///\n/// ```\n/// let app = Router::new().with_state(3);\n/// ```\n"
                          "pub fn with_state() { let _example = 3; }\n"}),
        ("Fix slow path parsing of long paths (#19)", {"src/path.rs": "pub fn parse() { let _fast = true; }\n"}),
        ("Move `TypedHeader` to acme-extra (#20)", {"src/path.rs": None, "extra/src/path.rs": "pub fn parse() { let _fast = true; }\n"}),
    ]):
        repo.commit(subject, author=ANN, date=f"2025-03-0{i + 2}T10:00:00+0000", files=files)
    repo.commit("Release 0.2.0", author=ANN, date="2025-03-09T10:00:00+0000", files={"CHANGELOG.md": (
        "# 0.2.0\n\n- **fixed:** Make `Router` cheaper to clone ([#17])\n"
        "- **added:** Expand the docs for `Router::with_state` ([#18])\n"
        "- **fixed:** Fix slow path parsing of long paths ([#19])\n- **added:** `TypedHeader`, which used to be in acme ([#20])\n")})
    commits, files = read_repo(repo)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    entries = read_changelogs(git_dir, "acme/app", repo.git("rev-parse", "HEAD")).with_columns(pl.lit("acme/app").alias("repo"))
    assert sorted(entries["category"]) == ["bug", "bug", "feature", "feature"]
    subjects, items = _kinds(commits, files, entries)
    assert subjects["Make `Router` faster to clone (#17)"] == "perf"
    assert subjects["Expand the docs for `Router::with_state` (#18)"] == "docs"
    assert subjects["Fix slow path parsing of long paths (#19)"] == "bug"
    assert subjects["Move `TypedHeader` to acme-extra (#20)"] == "refactor"
    assert [items[f"acme/app#pr-{n}"] for n in (17, 18, 19, 20)] == ["perf", "docs", "bug", "refactor"]


def _kinds(commits: pl.DataFrame, files: pl.DataFrame, changelog: pl.DataFrame | None = None) -> tuple[dict, dict]:
    """({subject: category} of the non-merge commits, {work_item_id: category}), as the
    pipeline derives them."""
    links = commit_links(commits)
    table = categorize_commits(commits, files, links, changelog=changelog)
    _, items = assign_work_items(table, links, files, changelog)
    return by_subject(table.filter(~pl.col("is_merge")), "category"), dict(zip(items["work_item_id"], items["category"]))


def _without_fragments(files: pl.DataFrame) -> pl.DataFrame:
    return files.filter(~pl.col("path").str.starts_with("changelog/"))


def test_a_labelled_commit_speaks_for_its_pull_request(tmp_path):
    # The branch is named fix-…, the title reads as a fix; the commit that adds the `.feature`
    # fragment says what the project calls the change.
    bob = ("Bob Stone", "bob@example.com")
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Initial commit", author=ANN, date="2025-03-01T09:00:00+0000", files={"app.py": "x = 1\n"})
    repo.branch("fix-staticmethod-collection", checkout=True)
    repo.commit("Fix collection of staticmethod tests", author=bob, date="2025-03-02T10:00:00+0000",
                files={"src/collect.py": "def collect(obj):\n    return staticmethod(obj)\n"})
    repo.commit("Add changelog entry", author=bob, date="2025-03-02T11:00:00+0000",
                files={"src/collect.py": "def collect(obj):\n    return [staticmethod(obj)]\n",
                       "changelog/2528.feature.rst": "Tests declared as staticmethod are collected.\n"})
    repo.checkout("main")
    repo.merge("fix-staticmethod-collection", "Merge pull request #2700 from bob/fix-staticmethod-collection\n\nFix collection of staticmethod tests",
               author=ANN, date="2025-03-03T12:00:00+0000")
    commits, files = read_repo(repo)
    commit_kinds, item_kinds = _kinds(commits, files)
    assert commit_kinds["Add changelog entry"] == "feature"
    assert item_kinds["acme/app#pr-2700"] == "feature"
    # without the fragment the branch name and the title decide
    assert _kinds(commits, _without_fragments(files))[1]["acme/app#pr-2700"] == "bug"


def test_a_removal_fragment_on_every_commit_makes_the_pull_request_a_refactor(tmp_path):
    # The title reads as a fix ("... error"); the project files the change as a removal.
    bob = ("Bob Stone", "bob@example.com")
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Initial commit", author=ANN, date="2025-03-01T09:00:00+0000",
                files={"src/fixtures.py": "def cached_setup():\n    pass\n\ndef run():\n    pass\n"})
    repo.branch("remove-cached-setup", checkout=True)
    repo.commit("Remove cached_setup", author=bob, date="2025-03-02T10:00:00+0000",
                files={"src/fixtures.py": "def run():\n    pass\n",
                       "changelog/4489.removal.rst": "cached_setup is gone.\n"})
    repo.checkout("main")
    repo.merge("remove-cached-setup", "Merge pull request #4561 from bob/remove-cached-setup\n\n"
               "Fix the error when calling the removed cached_setup", author=ANN, date="2025-03-03T12:00:00+0000")
    commits, files = read_repo(repo)
    commit_kinds, item_kinds = _kinds(commits, files)
    assert commit_kinds["Remove cached_setup"] == "refactor"
    assert item_kinds["acme/app#pr-4561"] == "refactor"
    assert _kinds(commits, _without_fragments(files))[1]["acme/app#pr-4561"] == "bug"


def test_a_commit_takes_the_kind_of_the_ticket_it_closes(tmp_path):
    """A changelog that lists tickets (SQLAlchemy's `:tickets:`) names the commits that say they
    close them (`Fixes: #N`, `Closes #N`, Trac's `[ticket:N]`), when the two speak of one change."""
    repo = GitScript.init(tmp_path / "app")
    for i, (message, files) in enumerate([
        ("Support default_factory=list for write only relationships\n\nLists are accepted now.\n\n"
         "Fixes: #13227\nChange-Id: I8091", {"lib/orm.py": "def factory():\n    return list\n"}),
        ("Add a CHECK constraint pattern to reflection\n\nFixes #13157", {"lib/reflect.py": "CHECK = 1\n"}),
        ("Reflect PostgreSQL CHECK constraints in parentheses [ticket:13158]", {"lib/pg.py": "PARENS = 1\n"}),
        # the number is listed, the words are another change's
        ("Tidy the connection pool\n\nFixes: #13300", {"lib/pool.py": "SIZE = 5\n"}),
        ("Detect the reverse condition for the loader strategy\n\nChained joinedload options now apply on a "
         "subclass path.\n\nFixes: #13301", {"lib/strategies.py": "REVERSE = True\n"}),
        # a number in passing is no claim to be the change
        ("Add caching of compiled statements\n\nSee #13157 for the reflection fix.", {"lib/cache.py": "C = {}\n"}),
    ]):
        repo.commit(message, author=ANN, date=f"2025-03-{i + 1:02d}T10:00:00+0000", files=files)
    repo.commit("Release 2.0.52", author=ANN, date="2025-04-01T10:00:00+0000", files={
        "doc/build/changelog/changelog_20.rst": SPHINX_TAGGED_CHANGES.replace(":tickets: 13157", ":tickets: 13157, 13158")
        + "\n    .. change::\n        :tags: bug, pool\n        :tickets: 13300\n\n"
        "        Fixed an overflow of the queue when every checkout timed out.\n",
        # not released yet: its own file; the commit's subject shares no word with it, its body does
        "doc/build/changelog/unreleased_21/13301.rst": ".. change::\n    :tags: usecase, orm\n    :tickets: 13301\n\n"
        "    Chained joinedload options now apply on a subclass path.\n"})
    commits, files = read_repo(repo)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    entries = read_changelogs(git_dir, "acme/app", repo.git("rev-parse", "HEAD")).with_columns(pl.lit("acme/app").alias("repo"))
    before = by_subject(categorize_commits(commits, files), "category")
    after = by_subject(categorize_commits(commits, files, changelog=entries), "category")
    assert after["Support default_factory=list for write only relationships"] == "feature"
    assert after["Add a CHECK constraint pattern to reflection"] == "bug"
    assert after["Reflect PostgreSQL CHECK constraints in parentheses [ticket:13158]"] == "bug"
    assert after["Detect the reverse condition for the loader strategy"] == "feature"
    assert before["Add a CHECK constraint pattern to reflection"] != "bug"
    assert before["Detect the reverse condition for the loader strategy"] != "feature"
    for subject in ("Tidy the connection pool", "Add caching of compiled statements"):
        assert after[subject] == before[subject] != "bug"


def test_a_bullet_nested_under_an_entry_is_part_of_it():
    """Alamofire writes who made each change, and in which pull request, as a bullet nested under
    the entry (`  - Fixed by [Jon Shier](...) in Pull Request [#4030](...)`): 604 of its 1,024
    entries had read as two, neither with both the change and its number."""
    text = ("## [5.12.0](https://github.com/Alamofire/Alamofire/releases/tag/5.12.0)\n\n### Added\n"
            "- FreeBSD compilation support.\n"
            "  - Added by [Al Hoang](https://github.com/hoanga) in Pull Request "
            "[#4029](https://github.com/Alamofire/Alamofire/pull/4029).\n\n### Fixed\n"
            "- Rare race in `Request.suspend()`.\n"
            "  - Fixed by [Jon Shier](https://github.com/jshier) in Pull Request "
            "[#4030](https://github.com/Alamofire/Alamofire/pull/4030).\n"
            "- Thread-safety issue in `Session.deinit` (#4031).\n")
    entries = parse_changelog(text, "Alamofire/Alamofire")
    assert [(e["category"], e["prs"]) for e in entries] == [("feature", [4029]), ("bug", [4030]), ("bug", [4031])]
    assert entries[1]["text"].startswith("Rare race in `Request.suspend()`. Fixed by Jon Shier")


def test_an_entry_that_says_its_kind_first_is_that_kind():
    """okhttp's and retrofit's `* Fix: ...` / `* New: ...` under each version's heading, express's
    `* perf: ...`, and jekyll's `Perf: ...` under `Minor Enhancements`: the entry's own word."""
    text = ("## Version 5.4.0\n\n *  New: Add tags to `Call`, including computable tags.\n"
            " *  Fix: Limit each HTTP/2 response to 256 KiB of total headers (#8812)\n"
            " *  Upgrade: [Okio 3.16.0][okio_3_16_0].\n\n"
            "### Minor Enhancements\n\n  * Perf: Markdown#matches should avoid regexp (#3321)\n"
            "  * Add a `--profile` flag (#3322)\n")
    assert categories(text) == [("feature", [], []), ("bug", [8812], []), ("perf", [3321], []), ("enhancement", [3322], [])]
    # axum's CHANGELOG.md: the colon inside the emphasis, `**breaking:**` naming no kind
    axum = ("# 0.7.3\n\n- **added:** Implement `IntoResponseParts` for `()` ([#2471])\n"
            "- **fixed:** Make `Router` cheaper to clone ([#1123])\n- **breaking:** Remove `B` type param ([#1751])\n"
            "- **added**: `DefaultBodyLimit::max` ([#2875])\n")
    assert categories(axum) == [("feature", [2471], []), ("bug", [1123], []), ("feature", [2875], [])]


def test_an_item_no_commit_of_its_kind_names_is_named_by_its_code_change(tmp_path):
    """jekyll pr-5920: the changelog files it under Bug Fixes, no commit of it reads as a fix,
    and it was named by its first worded commit, `Failing test: abbreviated post dates are no
    longer read.`; the commit that changes the code names it."""
    bot = ("jekyllbot", "jekyllbot@example.com")
    bob = ("Bob Stone", "bob@example.com")
    repo = GitScript.init(tmp_path / "site")
    repo.commit("Initial commit", author=ANN, date="2025-03-01T09:00:00+0000",
                files={"lib/document.rb": "MATCHER = %r!^(\\d+-\\d+-\\d+)-(.*)!\n", "test/test_document.rb": "x = 1\n"})
    repo.branch("bob/dates", checkout=True)
    repo.commit("Failing test: abbreviated post dates are no longer read.", author=bob, date="2025-03-02T10:00:00+0000",
                files={"test/test_document.rb": "x = 1\ny = 2\n"})
    repo.commit("Document::DATE_FILENAME_MATCHER: allow abbreviated dates in post filenames", author=bob,
                date="2025-03-02T10:30:00+0000", files={"lib/document.rb": "MATCHER = %r!^(\\d{2,4}-\\d{1,2}-\\d{1,2})-(.*)!\n"})
    repo.checkout("main")
    repo.merge("bob/dates", "Merge pull request #5920 from bob/dates\n\nMerge pull request 5920", author=bot,
               date="2025-03-02T12:00:00+0000")
    repo.commit("Release 3.4.3", author=ANN, date="2025-03-09T10:00:00+0000", files={"History.markdown": (
        "## 3.4.3 / 2025-03-09\n\n### Bug Fixes\n\n  * Allow abbreviated post dates (#5920)\n")})
    commits, files = read_repo(repo)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    entries = read_changelogs(git_dir, "acme/app", repo.git("rev-parse", "HEAD")).with_columns(pl.lit("acme/app").alias("repo"))
    links = commit_links(commits)
    _, items = assign_work_items(categorize_commits(commits, files, links, changelog=entries), links, files, entries)
    item = items.filter(pl.col("work_item_id") == "acme/app#pr-5920").row(0, named=True)
    assert item["category"] == "bug"
    assert item["title"].startswith("Document::DATE_FILENAME_MATCHER: allow abbreviated dates")
