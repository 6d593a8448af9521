"""Column contracts shared by the domain modules.

Raw tables come straight from git (one streaming `git log` pass per repository); every later
table is derived from them. Keeping the schemas in one place lets each domain module build
empty frames and lets tests assert on exact dtypes.
"""

import polars as pl

UTC_TIMESTAMP = pl.Datetime("us", "UTC")

# One row per commit reachable from the configured branch (merges included).
RAW_COMMITS_SCHEMA: dict[str, pl.DataType] = {
    "repo": pl.String,
    "sha": pl.String,
    "parents": pl.List(pl.String),
    "author_name": pl.String,  # as written in the commit (%an)
    "author_email": pl.String,  # as written in the commit (%ae)
    "mailmap_name": pl.String,  # after the repository's .mailmap (%aN)
    "mailmap_email": pl.String,  # after the repository's .mailmap (%aE)
    "committer_name": pl.String,
    "committer_email": pl.String,
    "authored_at": UTC_TIMESTAMP,
    "author_date": pl.Date,  # the author's local calendar date (git log --date=short)
    "author_utc_offset_minutes": pl.Int32,
    "committed_at": UTC_TIMESTAMP,
    "subject": pl.String,
    "message": pl.String,  # full message (%B), decoded UTF-8 (latin-1 fallback)
    "is_merge": pl.Boolean,
    "lines_added": pl.Int64,  # == git log --numstat, summed over text files
    "lines_deleted": pl.Int64,
    "files_changed": pl.Int64,  # numstat entries, binary files included
}

# One row per file a non-merge commit touches (merges carry no diff, as in git log).
RAW_FILE_CHANGES_SCHEMA: dict[str, pl.DataType] = {
    "repo": pl.String,
    "sha": pl.String,
    "path": pl.String,  # path after the change
    "old_path": pl.String,  # path before a rename/copy, else null
    "status": pl.String,  # git's raw status letter: A M D R C T
    "lines_added": pl.Int64,  # 0 for binary files
    "lines_deleted": pl.Int64,
    "is_binary": pl.Boolean,
    "is_submodule": pl.Boolean,  # gitlink (mode 160000)
}

COMMIT_CATEGORIES = (
    "feature",
    "bug",
    "refactor",
    "perf",
    "docs",
    "test",
    "build",
    "revert",
    "chore",
    "other",
)


def empty_frame(schema: dict[str, pl.DataType]) -> pl.DataFrame:
    return pl.DataFrame(schema=schema)
