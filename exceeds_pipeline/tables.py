"""The one registry of published tables: what each is, and what its columns mean.

It drives publishing (which warehouse tables are copied into `exceeds.duckdb`, with these texts
as DuckDB comments), the `exceeds_database` asset's upstream list, and the column descriptions
the Dagster UI shows. A table name here is also the name of the asset that builds it.
"""

# Stable tables users query (SPEC §4), in dependency order.
PUBLISHED_TABLES: dict[str, str] = {
    "repositories": "configured repository: branch, ingested tip, stored commits, shallow or not, skipped commits",
    "people": "person (human or bot): e-mails joined by .mailmap, e-mail, GitHub noreply ids, config identities",
    "commits": "commit reachable from a configured branch: person, whether it counts, month, category, work item, AI tool",
    "file_changes": "file changed by a non-merge commit: git's line counts, Linguist language, profile exclusion",
    "work_items": "one change: a PR, a change with its reverts and relands, a numbered series, or related commits",
    "commit_links": "which commit reverts, relands or fixes which",
    "commit_skills": "technical skills each commit shows (YAML rules)",
    "monthly_rollups": "person x month (YYYY-MM): commits, features, bugs (per work item), profile LOC, repos",
    "repo_rollups": "person x repository: first/last month, months active, commits, features, bugs, LOC, languages, skills",
    "quality_metrics": "person x metric: value 0..1 or null, evidence count, method, evidence shas",
    "themes": "person x scope (all, month, repo) x theme: what they worked on, with the work items behind it",
    "profiles": "person: the exported profile JSON",
}

VIEWS: dict[str, str] = {
    "counted_commits": "SELECT * FROM commits WHERE is_counted",
}

# Column descriptions shown in the Dagster UI and written as DuckDB comments when published.
COLUMN_DOCS: dict[str, str] = {
    "repo": "repository name (config `name`, else derived from url/path)",
    "sha": "full commit sha",
    "person_id": "stable slug of the person (see `people`)",
    "authored_at": "author timestamp, UTC",
    "author_date": "the author's own calendar date (git log --date=short)",
    "committed_at": "committer timestamp, UTC",
    "month": "YYYY-MM of author_date",
    "is_merge": "more than one parent; recorded, never counted or credited with a diff",
    "is_bot": "author is a bot (built-in rules + config bots.extra_patterns), or the commit declares itself machine-made (`autogen:` type)",
    "is_counted": "non-merge, non-bot, author_date inside the configured window; a change in several repositories counts once",
    "counted_in": "repository whose copy of this change counts (first listed; = repo for the counting copy), null if none counts",
    "counted_sha": "sha of the counting copy of this change (differs from sha for a cherry-pick), null if none counts",
    "lines_added": "lines added, exactly as git log --numstat",
    "lines_deleted": "lines deleted, exactly as git log --numstat",
    "files_changed": "files in git log --numstat (binary files included)",
    "category": "feature, bug, refactor, perf, docs, test, build, revert, chore or other: the subject's declared type, "
                "else the section of the repository's changelog that lists the commit, else what its files and message say",
    "work_item_id": "the work item (PR, series, revert+reland, related commits) this commit belongs to",
    "ai_tool": "declared AI assistance (co-author trailer or agent identity), else null",
    "pr_number": "the pull request of this repository the change came in by, else null (never a number from a history merged in from another project)",
    "title": "what the change is: its pull request's title, `Release <version>` for a release, else its most telling commit subject",
    "reverted_by": "the reverts that undid the change after it last landed (only when later_reverted)",
    "relanded_by": "the commits that landed the change again after a revert",
    "later_reverted": "the reverts after its last landing undo most of the change (at least half its changed lines)",
    "excluded": "left out of profile lines of code",
    "exclusion_reason": "binary, vendored, generated, lock_file, submodule, bulk_import, data_file or prose_file",
    "emails": "e-mail addresses joined into this person",
    "commits": "commits: in `people` every commit of the identity (merges and other windows included, what names "
               "the person); in work items the item's commits; in rollups the counted commits",
    "tip": "sha of the branch tip that was ingested",
    "scope": "all, month or repo: what the theme summarises",
    "scope_key": "'all', the month (YYYY-MM) or the repository",
    "theme": "the area or topic, in words",
    "weight": "share of the person's work in this scope behind the theme (0..1)",
    "work_item_ids": "the work items behind the theme",
    "source": "path (code areas), tag (subject tags and scopes) or term (distinctive title words)",
    "skipped_commits": "commits git could not read (missing objects); retried on every run",
}
