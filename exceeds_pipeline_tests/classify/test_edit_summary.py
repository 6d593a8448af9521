"""What a web-editor edit changed, read from its real diff, and the work-item title it gives."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from exceeds_pipeline.classify.categories import categorize_commits
from exceeds_pipeline.classify.edit_summary import READER, changelog_refs, summarize_patch, update_edit_summaries
from exceeds_pipeline.classify.links import commit_links
from exceeds_pipeline.classify.work_items import assign_work_items
from exceeds_pipeline_tests.classify.gitframes import read_repo
from exceeds_pipeline_tests.gitscript import GitScript

ADA = ("Ada Lovelace", "ada@example.com")
BEA = ("Bea Gallant", "bea@example.com")


def _items(commits: pl.DataFrame, files: pl.DataFrame, summaries: pl.DataFrame) -> tuple[dict, dict]:
    """(sha -> work item, work item -> title) as the pipeline makes them with these summaries."""
    links = commit_links(commits)
    out, items = assign_work_items(categorize_commits(commits, files, links), links, files, None, summaries)
    return dict(out.select("sha", "work_item_id").rows()), dict(items.select("work_item_id", "title").rows())


def test_summaries_say_what_plain_edits_changed():
    assert summarize_patch("requirements-dev.txt", ["twine==5.1.0"], ["twine==5.1.1"]) == "Bump twine to 5.1.1"
    assert summarize_patch("requirements.txt", ["a==1.0", "b==2.0"], ["a==1.1", "b==2.1"]) == "Bump a and b"
    assert summarize_patch("README.md", ["HTTPie is a CLI frontend for [x](http://a.org)."],
                           ["HTTPie is a CLI frontend for [x](https://a.org)."]) == "Update links in README.md"
    assert summarize_patch("CHANGELOG.md", ["## 3.0.2 (2022-01-23)"], ["## 3.0.2 (2022-01-24)"]) == "Fix the date in CHANGELOG.md"
    assert summarize_patch("README.rst", ["The syntax closely correspond to HTTP"],
                           ["The syntax closely corresponds to HTTP"]) == "Fix a typo in README.rst"
    assert summarize_patch("CHANGELOG.rst", [], ["* Added request details to connection error messages (`#12`_)"]) \
        == "Changelog: Added request details to connection error messages"
    # several entries: none of them names the edit (sinatra's `update changes` of eight)
    assert summarize_patch("CHANGES", [], ["* Add Rabl support. (Jesse Cooke)", "* Fix the ETag of HEAD requests. (Konstantin Haase)"]) \
        == "Add 2 entries to CHANGES"
    assert summarize_patch("docs/guide.md", [], ["## Installation", "", "pip install it"]) == "Add Installation to guide.md"
    # code, and rewritten prose, say nothing plain
    assert summarize_patch("src/client.py", ["timeout = 5"], ["timeout = 50"]) is None
    assert summarize_patch("README.md", ["HTTPX is a client."], ["HTTPX is a fully featured HTTP client for Python 3."]) is None
    assert summarize_patch("CHANGELOG.md", [], ["", "0.74.2"]) is None


def test_web_editor_edits_are_titled_by_what_they_changed(tmp_path):
    """httpie: 97 of 1,670 counted commits say only `Update README.md`, `Update CHANGELOG.rst`;
    their items were titled by the file's name. Read from the diff, they say what changed; an
    edit whose lines say nothing plain keeps its subject, and so does any other commit."""
    repo = GitScript.init(tmp_path / "repo")
    initial = repo.commit("Initial commit", author=ADA, date="2025-03-01T09:00:00+0000", files={
        "README.md": "HTTPie is a CLI frontend for python-requests.\n\nThe syntax closely correspond to HTTP.\n",
        "CHANGELOG.md": "# Changelog\n\n## 1.0.0\n\n* First release\n", "requirements-dev.txt": "twine==5.1.0\n",
        "src/app.py": "x = 1\n"})
    typo = repo.commit("Update README.md", author=ADA, date="2025-03-04T09:00:00+0000", files={
        "README.md": "HTTPie is a CLI frontend for python-requests.\n\nThe syntax closely corresponds to HTTP.\n"})
    entry = repo.commit("Update CHANGELOG.md", author=ADA, date="2025-03-07T09:00:00+0000", files={
        "CHANGELOG.md": "# Changelog\n\n## 1.1.0\n\n* Added request details to connection error messages (#12)\n\n"
                        "## 1.0.0\n\n* First release\n"})
    bump = repo.commit("Update requirements-dev.txt", author=ADA, date="2025-03-10T09:00:00+0000",
                       files={"requirements-dev.txt": "twine==5.1.1\n"})
    rewrite = repo.commit("Update README.md", author=ADA, date="2025-03-13T09:00:00+0000", files={
        "README.md": "HTTPie makes HTTP calls from the terminal, for people.\n\nThe syntax closely corresponds to HTTP.\n"})
    code = repo.commit("Update app.py", author=ADA, date="2025-03-16T09:00:00+0000", files={"src/app.py": "x = 2\n"})
    commits, files = read_repo(repo)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    summaries = update_edit_summaries(None, git_dir, "acme/app", commits)
    said = dict(summaries.select("sha", "summary").rows())
    assert set(said) == {typo, entry, bump, rewrite, code}  # the subjects that name only a file
    assert said[typo] == "Fix a typo in README.md"
    assert said[entry] == "Changelog: Added request details to connection error messages"
    assert said[bump] == "Bump twine to 5.1.1"
    assert said[rewrite] is None and said[code] is None
    # read once: a stored summary of this reading is kept, one of an older reading read again
    assert update_edit_summaries(summaries, tmp_path / "no-such-git-dir", "acme/app", commits).equals(summaries)
    older = summaries.with_columns(pl.lit(READER - 1, pl.Int16).alias("reader"))
    assert update_edit_summaries(older, git_dir, "acme/app", commits).equals(summaries)

    wid, titles = _items(commits, files, summaries)
    assert titles[wid[typo]] == "Fix a typo in README.md"
    assert titles[wid[entry]] == "Changelog: Added request details to connection error messages"
    assert titles[wid[bump]] == "Bump twine to 5.1.1"
    assert titles[wid[code]] == "Update app.py"
    assert wid[initial] != wid[typo]


def test_a_changelog_edit_that_says_only_that_it_is_one_is_titled_by_its_new_entries(tmp_path):
    """sidekiq: 170 commits say `changes`, `pro changes`, `latest changes`, `doc(changes)`, some
    with `[ci skip]`, and edit Changes.md, Pro-Changes.md or Ent-Changes.md; their items were
    titled so. The entries they add name them; a code commit that says `api changes` keeps its
    subject, whatever its diff."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date="2025-03-01T09:00:00+0000", files={
        "Changes.md": "# Changes\n\n8.0.0\n---------\n\n- First release of the new API\n",
        "Pro-Changes.md": "# Pro Changes\n\n8.0.0\n---------\n\n- First release of Pro\n",
        "lib/api.rb": "def api\n  1\nend\n"})
    pro = repo.commit("pro changes [ci skip]", author=ADA, date="2025-03-02T09:00:00+0000", files={
        "Pro-Changes.md": "# Pro Changes\n\n8.0.1\n---------\n\n- Coerce batch created_at to integer [#7049]\n"
                          "- Fix the batch total job count with autoflush\n\n8.0.0\n---------\n\n- First release of Pro\n"})
    latest = repo.commit("latest changes", author=ADA, date="2025-03-03T09:00:00+0000", files={
        "Changes.md": "# Changes\n\nHEAD\n---------\n\n- Forward compatibility with Active Job 8.1 [#7019]\n\n"
                      "8.0.0\n---------\n\n- First release of the new API\n"})
    api = repo.commit("api changes", author=ADA, date="2025-03-04T09:00:00+0000", files={"lib/api.rb": "def api\n  2\nend\n"})
    # bat's `Add CHANGELOG entry`, `Add changelog entry` (its entry: `Added Lean syntax, see #1446`)
    entry = repo.commit("Add changelog entry for #1446", author=ADA, date="2025-03-05T09:00:00+0000", files={
        "Changes.md": "# Changes\n\nHEAD\n---------\n\n- Added Lean syntax, see #1446\n"
                      "- Forward compatibility with Active Job 8.1 [#7019]\n\n8.0.0\n---------\n\n- First release of the new API\n"})
    commits, files = read_repo(repo)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    said = dict(update_edit_summaries(None, git_dir, "acme/app", commits).select("sha", "summary").rows())
    assert said[pro] == "Add 2 entries to Pro-Changes.md"
    assert said[latest] == "Changelog: Forward compatibility with Active Job 8.1"
    assert said[entry] == "Changelog: Added Lean syntax, see #1446"
    assert said.get(api) is None


def test_a_bare_bump_is_named_by_the_version_its_version_file_is_set_to(tmp_path):
    """sidekiq: `bump` and `bump [ciskip]` set lib/sidekiq/version.rb (with a changelog heading
    or not) and had been items titled "bump". The version the diff sets names them; not as a
    release: Mike Perham bumps the version right after a release, to open the next one, so a
    bump is no release of the version it sets (titled so, 23 releases had been named twice). A
    `bump` of the Gemfile is no version."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date="2025-03-01T09:00:00+0000", files={
        "lib/app/version.rb": "module App\n  VERSION = \"8.1.6\"\nend\n", "Changes.md": "# Changes\n",
        "Gemfile": "gem 'redis'\n", "lib/app/pager.rb": "x = 1\n"})
    repo.commit("Add the pager limit", author=ADA, date="2025-03-03T09:00:00+0000", files={"lib/app/pager.rb": "x = 2\n"})
    bump = repo.commit("bump [ciskip]", author=ADA, date="2025-03-06T09:00:00+0000", files={
        "lib/app/version.rb": "module App\n  VERSION = \"8.1.7\"\nend\n"})
    opening = repo.commit("bump", author=ADA, date="2025-03-09T09:00:00+0000", files={
        "lib/app/version.rb": "module App\n  VERSION = \"8.1.8\"\nend\n", "Changes.md": "# Changes\n\nHEAD\n----\n"})
    gems = repo.commit("bump", author=ADA, date="2025-03-12T09:00:00+0000", files={"Gemfile": "gem 'redis', '>= 5'\n"})
    commits, files = read_repo(repo)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    summaries = update_edit_summaries(None, git_dir, "acme/app", commits)
    said = dict(summaries.select("sha", "summary").rows())
    assert said[bump] == "Bump the version to 8.1.7" and said[opening] == "Bump the version to 8.1.8"
    assert said[gems] is None
    wid, titles = _items(commits, files, summaries)
    assert titles[wid[bump]] == "Bump the version to 8.1.7"
    assert titles[wid[opening]] == "Bump the version to 8.1.8"
    assert titles[wid[gems]] == "bump"


def _patch(path: str, removed: list[str], added: list[str]) -> str:
    """One file's part of a ``git log -p -U0`` patch."""
    return (f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,{len(removed)} +1,{len(added)} @@\n"
            + "".join(f"-{x}\n" for x in removed) + "".join(f"+{x}\n" for x in added))


def test_the_pull_requests_a_changelog_edit_cites_are_read_from_the_entries_it_adds():
    """insta's entries cite their pull request after the text (`...  #465`), sometimes on the
    entry's second line; one entry cites none (work of no pull request: 0); an entry moved to
    another version's section or reworded records nothing new (jinja's `Moved a changelog entry
    to the right release`, httpie's entry reworded a month later); a version's section opened is
    a release's notes (-1); another repository's `owner/repo#12` and code files are no entries."""
    added = ["- Vendored old `yaml-rust` dependency to avoid rustsec warnings.  #465",
             "- Fixed a bug that caused `cargo insta test` not to report test failures.",
             "- Change `std` macro calls to be fully qualified.  This fixes issues where",
             "  the prelude was not used or the macros were overridden.  #469",
             "- Bump the pinned toolchain, see rust-lang/rust#12 ([#470](https://github.com/a/b/pull/470))"]
    assert changelog_refs(_patch("CHANGELOG.md", [], added)) == [465, 0, 469, 470]
    assert changelog_refs(_patch("src/lib.rs", [], added)) == []
    moved = "- Restored the use of blocks in macros. (#645)"
    assert changelog_refs(_patch("CHANGES.rst", [moved], [moved])) == []
    assert changelog_refs(_patch("CHANGELOG.md", ["- Added support for keeping `://` in URLs. (#1195)"],
                                 ["- Added support for quick conversions of pasted URLs. (#1195)"])) == []
    assert changelog_refs(_patch("CHANGELOG.md", [], ["## 1.31.0", "", "- Suppress a clippy lint.  (#390)"])) == [-1, 390]
    assert changelog_refs(_patch("CHANGES.rst", [], ["Version 2.9.3", "-------------", "", "- Fix the scoping. (#641)"])) == [-1, 641]


def test_a_changelog_entry_joins_the_pull_request_it_records_and_not_the_next_release(tmp_path):
    """insta: Armin Ronacher's `Add changelog entry` (`- Vendored old yaml-rust dependency ...
    #465`), a minute after his squashed #465 and 54 minutes before `1.37.0`, had been a step of
    that release; his `Add changelog entry` for Andrew Gallant's #469, between his own commit
    `Make Filters constructible from IntoIterator` and `1.38.0`, had joined the two into one
    bug item, and the profile had lost release 1.38.0. The entries say which pull request
    they record: his own is part of it, someone else's of none of his changes."""
    repo = GitScript.init(tmp_path / "repo")
    repo.commit("Initial commit", author=ADA, date="2025-03-01T09:00:00+0000", files={
        "Cargo.toml": "[package]\nname = \"insta\"\nversion = \"1.36.0\"\n", "src/lib.rs": "pub fn a() {}\n",
        "CHANGELOG.md": "# Changelog\n\n## 1.37.0\n\n- Older entry.  #460\n"})
    vendor = repo.commit("Vendor yaml (#465)", author=ADA, date="2025-03-26T10:08:17+0000", files={
        "src/yaml.rs": "pub fn parse() {}\n", "src/lib.rs": "pub fn a() {}\nmod yaml;\n"})
    entry = repo.commit("Add changelog entry", author=ADA, date="2025-03-26T10:09:11+0000", files={
        "CHANGELOG.md": "# Changelog\n\n## 1.37.0\n\n- Older entry.  #460\n"
                        "- Vendored old `yaml-rust` dependency to avoid rustsec warnings.  #465\n"})
    release = repo.commit("1.37.0", author=ADA, date="2025-03-26T11:03:00+0000", files={
        "Cargo.toml": "[package]\nname = \"insta\"\nversion = \"1.37.0\"\n"})
    repo.tag("1.37.0")
    other = repo.commit("Change std macro calls to be fully qualified (#469)", author=BEA, date="2025-03-27T16:00:00+0000",
                        files={"src/macros.rs": "macro_rules! m { () => { ::std::println!() } }\n"})
    commas = repo.commit("Support trailing commas in inline snapshots (#470)", author=BEA, date="2025-03-27T16:05:00+0000",
                         files={"src/inline.rs": "fn parse() {}\n"})
    # two entries for other people's work, minutes apart, are one edit of the changelog
    first = repo.commit("Added changelog entry", author=ADA, date="2025-03-27T16:10:00+0000", files={
        "CHANGELOG.md": "# Changelog\n\n## 1.37.0\n\n- Older entry.  #460\n"
                        "- Vendored old `yaml-rust` dependency to avoid rustsec warnings.  #465\n"
                        "- Qualify the standard macros.  #469\n"})
    another = repo.commit("Added another changelog entry", author=ADA, date="2025-03-27T16:14:00+0000", files={
        "CHANGELOG.md": "# Changelog\n\n## 1.37.0\n\n- Older entry.  #460\n"
                        "- Vendored old `yaml-rust` dependency to avoid rustsec warnings.  #465\n"
                        "- Qualify the standard macros.  #469\n"
                        "- Support trailing commas in inline snapshots.  #470\n"})
    filters = repo.commit("Make Filters constructible from IntoIterator", author=ADA, date="2025-03-28T10:27:29+0000", files={
        "src/filters.rs": "impl FromIterator for Filters {}\n",
        "CHANGELOG.md": "# Changelog\n\n## 1.38.0\n\n- `Filters` is now constructible from `IntoIterator`.\n\n"
                        "## 1.37.0\n\n- Older entry.  #460\n"
                        "- Vendored old `yaml-rust` dependency to avoid rustsec warnings.  #465\n"
                        "- Qualify the standard macros.  #469\n"
                        "- Support trailing commas in inline snapshots.  #470\n"})
    note = repo.commit("Add changelog entry", author=ADA, date="2025-03-28T10:29:08+0000", files={
        "CHANGELOG.md": "# Changelog\n\n## 1.38.0\n\n- `Filters` is now constructible from `IntoIterator`.\n"
                        "- Change `std` macro calls to be fully qualified.  This fixes issues where\n"
                        "  the prelude was not used or the macros were overridden.  #469\n\n"
                        "## 1.37.0\n\n- Older entry.  #460\n"
                        "- Vendored old `yaml-rust` dependency to avoid rustsec warnings.  #465\n"
                        "- Qualify the standard macros.  #469\n"
                        "- Support trailing commas in inline snapshots.  #470\n"})
    second = repo.commit("1.38.0", author=ADA, date="2025-03-28T10:32:32+0000", files={
        "Cargo.toml": "[package]\nname = \"insta\"\nversion = \"1.38.0\"\n"})
    repo.tag("1.38.0")
    commits, files = read_repo(repo)
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir"))
    summaries = update_edit_summaries(None, git_dir, "acme/app", commits)
    refs = dict(summaries.select("sha", "refs").rows())
    assert refs[entry] == [465] and refs[note] == [469] and refs[another] == [470]
    links = commit_links(commits)
    tags = pl.DataFrame({"repo": ["acme/app", "acme/app"], "sha": [release, second], "tag": ["1.37.0", "1.38.0"]})
    out, items = assign_work_items(categorize_commits(commits, files, links), links, files, None, summaries, tags)
    wid = dict(out.select("sha", "work_item_id").rows())
    titles = dict(items.select("work_item_id", "title").rows())
    assert wid[entry] == wid[vendor] == "acme/app#pr-465"
    assert titles[wid[release]] == "Release 1.37.0" and wid[release] != wid[vendor]
    assert wid[filters] not in (wid[note], wid[second], wid[other])
    assert titles[wid[filters]] == "Make Filters constructible from IntoIterator"
    assert titles[wid[second]] == "Release 1.38.0"
    assert wid[first] == wid[another] != wid[commas]
