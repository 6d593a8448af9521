"""What a web-editor edit changed, read from its real diff, and the work-item title it gives."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from exceeds_pipeline.classify.categories import categorize_commits
from exceeds_pipeline.classify.edit_summary import READER, summarize_patch, update_edit_summaries
from exceeds_pipeline.classify.links import commit_links
from exceeds_pipeline.classify.work_items import assign_work_items
from exceeds_pipeline_tests.classify.gitframes import read_repo
from exceeds_pipeline_tests.gitscript import GitScript

ADA = ("Ada Lovelace", "ada@example.com")


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
