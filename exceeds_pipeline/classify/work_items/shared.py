"""What the relations and the item fields share: time gaps, subject and file patterns, the item
table's schema, and pairs of consecutive work commits.
"""

from __future__ import annotations

from datetime import timedelta

import polars as pl

from exceeds_pipeline.classify.categories import (
    CI_DIRECTIVE, KIND_PREFIX, LEAD_VERB, LEADING_MARK, MIN_TYPED_TITLE_WORDS, PACKAGE_MANIFEST,
)
from exceeds_pipeline.classify.changelog import RECORD_EXT
from exceeds_pipeline.history.counted_once import PR_SUFFIXES


RELATED_GAP = timedelta(hours=48)
SERIES_GAP = timedelta(days=30)

SIGNIFICANCE = ("feature", "bug", "perf", "refactor", "docs", "test", "build", "chore", "other")

WORK_ITEMS_SCHEMA: dict[str, pl.DataType] = {
    "work_item_id": pl.String,
    "repo": pl.String,
    "person_id": pl.String,
    "category": pl.String,
    "title": pl.String,
    "first_at": pl.Datetime("us", "UTC"),
    "last_at": pl.Datetime("us", "UTC"),
    "commits": pl.Int64,
    "lines_added": pl.Int64,
    "lines_deleted": pl.Int64,
    "pr_number": pl.Int64,
    "reverted_by": pl.List(pl.String),
    "relanded_by": pl.List(pl.String),
    "later_reverted": pl.Boolean,
}

# Numbered series: (regex over the subject; group "k" = part, "n" = total when given).
_SERIES = (
    r"(?i)\[(?:[a-z ]*patch[a-z ]*\s+)?(?:v\d+\s+)?(?P<k1>\d{1,3})\s*/\s*(?P<n1>\d{1,3}|n)\]"
    r"|^\s*patch\s+(?:v\d+\s+)?(?P<k2>\d{1,3})/(?P<n2>\d{1,3})\b"
    r"|^\s*(?P<k3>\d{1,3})/(?P<n3>\d{1,3}|n)\s*[:\-]"
    r"|\(\s*(?:part|pt\.?)\s*(?P<k4>\d{1,3})(?:\s*(?:of|/)\s*(?P<n4>\d{1,3}))?\s*\)"
    r"|\bpart\s+(?P<k5>\d{1,3})(?:\s+of\s+(?P<n5>\d{1,3}))?\b"
    r"|\(\s*(?P<k6>\d{1,3})\s*/\s*(?P<n6>\d{1,3}|n)\s*\)"
    r"|\b(?P<k7>\d{1,3})\s*/\s*(?P<n7>n)\b"
)
_SERIES_STRIP = (
    r"(?i)\[(?:[a-z ]*patch[a-z ]*\s+)?(?:v\d+\s+)?\d{1,3}\s*/\s*(?:\d{1,3}|n)\]\s*"
    r"|^\s*patch\s+(?:v\d+\s+)?\d{1,3}/\d{1,3}\s*:?\s*"
    r"|^\s*\d{1,3}/(?:\d{1,3}|n)\s*[:\-]\s*"
    r"|\s*\(\s*(?:part|pt\.?)\s*\d{1,3}(?:\s*(?:of|/)\s*\d{1,3})?\s*\)"
    r"|,?\s*\bpart\s+\d{1,3}(?:\s+of\s+\d{1,3})?\b"
    r"|\s*\(\s*\d{1,3}\s*/\s*(?:\d{1,3}|n)\s*\)"
    r"|\s*\b\d{1,3}\s*/\s*n\b"
)
_SERIES_GROUPS = 7

_GENERIC_TAGS = r"(?i)^(?:wip|rfc|draft|patch.*|v\d+|\d+\s*/\s*\d+|resend|reland|re-land|revert|nfc|nfci|skip ci|ci skip|minor|trivial|hotfix|fix|bug|feature|test|tests|docs?)$"
_CONV_SCOPE = r"^\s*[A-Za-z]+\(([^)\n]{1,60})\)!?:"
# (or two words in capitals: redis's `ACL LOG: ...`, `CONFIG REWRITE: ...`)
_COMPONENT_PREFIX = r"^\s*([A-Za-z0-9_][A-Za-z0-9_./-]{0,40}|[A-Z][A-Z0-9_]+ [A-Z][A-Z0-9_]+):\s"
_NOT_COMPONENT = r"(?i)^(?:feat|feature|fix|bugfix|hotfix|perf|refactor|style|docs?|tests?|build|ci|deps|chore|release|revert|wip|merge|reland|reapply|note|todo|fixes|closes|see|bug|issue)$"

# The committer of what GitHub writes itself (a squash or rebase merge from its web UI).
GITHUB_COMMITTER = "noreply@github.com"
# A gitmoji or a Conventional-Commit type before what a subject says (`chore(action): fix ...`,
# `ci: fix the playground build`).
DECLARED_TYPE = r"^\W*(?:[A-Za-z]+(?:\([^)\n]*\))?!?:\s*)?"
# A file that only holds the version: lib/sinatra/version.rb, _version.py, GIT-VERSION-GEN.
VERSION_FILE = r"(?i)(?:^|/)(?:_{0,2}version_?_{0,2}\.(?:py|rb|go|js|ts|php|txt|json|props)|[A-Z0-9-]*VERSION-GEN|(?-i:VERSION))$"
# A dependency updated by name: `deps: body-parser@1.19.2`, `build(deps): bump qs from 6.9.6 to
# 6.9.7`, `Update mocha to 10.2.0` (the project's own `Bump version to 2.0` is a release).
DEPENDENCY_UPDATE = (
    r"(?i)^\s*(?:deps?|dependencies)\s*:|^\s*[a-z]+\((?:deps?|dependencies)(?:-dev)?\)!?:"
    r"|^\s*(?:bump|update|upgrade|downgrade|pin)(?:s|ed|d)?\s+(?:dependency\s+|the\s+)?[@\w./-]+\s+(?:from\s+\S+\s+)?to\s+v?\d"
    r"|(?:^|\s)@?[a-z0-9][\w.-]*(?:/[\w.-]+)?@v?\d+\.\d+"
    # a dependency bumped by its name alone (babashka's `Bump rewrite-clj`, `Upgrade edamame`,
    # with its changelog line, 7 minutes before a release)
    r"|^\s*(?:bump|upgrade)(?:s|ed)?\s+[@\w./-]+\s*$"
)
_OWN_VERSION = r"(?i)^\s*\w+\s+(?:the\s+)?(?:package\s+|project\s+)?(?:version|release)\b"


def dependency_update(subject: pl.Expr) -> pl.Expr:
    """The subject updates a dependency by name (DEPENDENCY_UPDATE), not the project's own version."""
    subject = subject.fill_null("")
    return subject.str.contains(DEPENDENCY_UPDATE) & ~subject.str.contains(_OWN_VERSION)


# Files that unrelated changes touch alike.
GENERIC_FILES = (
    r"(?i)(?:^|/)(?:OLD[-_]?)?(?:CHANGELOG|CHANGES|NEWS|UPDATING|HISTORY|RELEASE[-_]?NOTES|AUTHORS|CONTRIBUTORS|VERSION)"
    + RECORD_EXT + r"$|(?:^|/)(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|uv\.lock|"
    r"Cargo\.lock|go\.sum|Gemfile\.lock|composer\.lock|Pipfile\.lock)$"
    # a package's manifest: every dependency bump and release edits it (express's package.json
    # is in a third of one author's commits), so sharing it relates nothing
    + r"|" + PACKAGE_MANIFEST
    # a file that only holds the version (lib/sinatra/version.rb, _version.py, GIT-VERSION-GEN)
    + r"|" + VERSION_FILE
    # the list of submodules: every one added or moved edits it (bat's `Add elixir sublime
    # syntax` and `Add TOML sublime syntax`); a submodule's own path still relates its changes
    + r"|(?:^|/)\.gitmodules$"
)

# A closing clause: `Fixes #3180`, `closes: #12, #13`, `Resolves GH-7 and #8`.
CLOSING_REFS = (r"(?i)\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\b\s*:?\s*"
                r"(?:(?:#|gh-)\d{1,7}\b(?:\s*(?:,|and|&)\s*)?)+")

# Exclusion reasons (enrich.exclusions) of files no one writes by hand.
MACHINE_MADE = ("generated", "vendored", "lock_file")

_STOPWORDS = (
    "the a an and or of to in on for with from into by at as is are be it its this that these "
    "those when if not no do does via per than then so also only all any some more less new "
    "add adds added adding fix fixes fixed fixing update updates updated remove removes removed "
    "use uses used using make makes made change changes changed support supports improve "
    "improves improved refactor refactored test tests move moved rename renamed initial minor "
    "small some other revert reland reapply part patch wip"
).split()


# A changelog commit's subject that says nothing but that it is one (`changelog`, `Update CHANGES.md`,
# bat's `Add CHANGELOG entry`, `Add changelog entry for #1421`, insta's `Added another changelog entry`).
_BARE_CHANGELOG = (r"(?:(?:update[sd]?|bump(?:ed)?|add(?:ed)?)\s+)?(?:the\s+|an?\s+|another\s+|more\s+|missing\s+)?"
                   r"(?:changelogs?|changes|news|history)(?:\.(?:md|rst|txt))?"
                   r"(?:\s+(?:entry|entries|items?|notes?|lines?)(?:\s+for\s+(?:pr\s*)?#?\d+)?)?")
BARE_CHANGELOG_SUBJECT = rf"(?i)^\W*{_BARE_CHANGELOG}\W*$"


# GitHub's web editor's default subjects: `Update README.md`, `Create ci.yml`, `Add files via upload`.
_EDITED_FILE = r"[\w.-]+(?:/[\w.-]+)*\.[a-z0-9]{1,8}\s*$"
_UPLOADED = r"add\s+files\s+via\s+upload\s*$"
WEB_EDITOR_SUBJECT = rf"(?i)^\s*(?:(?:update|create|delete|rename)\s+{_EDITED_FILE}|{_UPLOADED})"


# A subject about the review or the branch, not the change: it names an item only when no other
# subject of it says anything (`Address comments on PR #950`, `Apply suggestions from code review`).
VAGUE_SUBJECT = (
    r"(?i)^\s*(?:(?:address(?:ed|es|ing)?|appl(?:y|ied|ies)|incorporat(?:e|ed|es)|resolv(?:e|ed|es))"
    r"\s+(?:(?:the|some|more|all|a\s+few|remaining|latest|pr|code|review(?:er)?'?s?|[\w.-]+'s)\s+)*"
    r"(?:review\s+)?(?:comments?|feedback|suggestions?|nits?|remarks?)\b"
    r"|fix(?:ed|es)?\s+(?:the\s+|some\s+)?(?:(?:code\s+)?review|pr)\s+(?:comments?|feedback|nits?)\b"
    r"|fix(?:ed|es)?\s+(?:the\s+|some\s+)?nits?\s*[.!]*\s*$"
    r"|(?:wip|fixup!?|squash!?|oops|more|updates?|changes|tweaks?|cleanup|minor|misc|stuff|progress|save|temp|tmp)\s*[.!]*\s*$"
    # gin's "Cosmetic changes" beside "Using uint64 for ErrorType"
    r"|cosmetics?(?:\s+(?:changes?|fix(?:es)?|clean-?ups?|tweaks?))?\s*[.!]*\s*$"
    # a report of where the work stands, not what it does (axum's "not quite working" and
    # "checkpoint" beside "More error handling of layered handlers")
    r"|(?:check-?\s?point|not\s+(?:quite\s+|yet\s+|really\s+)?work(?:ing|s)(?:\s+yet)?|(?:almost|nearly|kinda|partially)\s+work(?:ing|s)"
    r"|(?:it\s+)?works(?:\s+now)?|still\s+(?:broken|failing))\s*[.!]*\s*$"
    # ... or a step of the author's workflow (urfave/cli's pull request #1498 titled by its
    # `Initial cut`, #1568 by `Rebase of generics changes`: persistent flags)
    r"|(?:initial|first|rough)\s+(?:cut|pass|draft|attempt|stab)\s*[.!]*\s*$"
    r"|rebased?(?:\s+(?:of|on|onto|with|against|to|from)\b[^\n]{0,60})?\s*[.!]*\s*$"
    # a pointer to another pull request, not a change (serde's `PR 2987 followup`, `Touch up PR
    # 2879`: the renames they made are in their commits)
    r"|(?:touch(?:\s+|-)?ups?|follow(?:\s+|-)?ups?|tweaks?|polish(?:es)?|clean(?:\s+|-)?ups?)\s+(?:(?:to|for|of|on|after)\s+)?"
    r"(?:pr|pull\s+request)?\s*#?\d+(?:\s*(?:[/,&]|and)\s*(?:pr\s*)?#?\d+)*\s*[.!]*\s*$"
    r"|(?:pr|pull\s+request)\s*#?\d+\s+(?:follow(?:\s+|-)?ups?|touch(?:\s+|-)?ups?|fix(?:es|up)?|tweaks?)\s*[.!]*\s*$"
    # GitHub's subject for a security advisory's fix merged from its private fork, with no body
    r"|merge\s+(?:commit\s+from\s+fork|pull\s+request\s+from\s+ghsa(?:-[a-z0-9]{4}){3})\s*$"
    # GitHub's web editor's default subjects (gson: `Update README.md`, `Update pom.xml` had
    # titled items whose other commits said what changed)
    r"|update\s+" + _EDITED_FILE + r"|" + _UPLOADED +
    # ... or a document by its bare name, or its words touched up (bat's `Update README` had
    # titled the item whose other commit said `Remove sponsors`; `Minor README change`, `Wording`)
    r"|(?:update[sd]?|edit(?:ed)?)\s+(?:the\s+)?(?:readme|contributing|authors|license)\s*[.!]*\s*$"
    r"|(?:minor\s+|small\s+)?(?:readme|doc|docs)\s+(?:changes?|tweaks?|updates?)\s*[.!]*\s*$|wording\s*[.!]*\s*$" +
    r"|(?:fixup|squash|amend)!\s"
    # a changelog commit that says only that it is one (babashka's `changelog` beside `Bump transit`)
    r"|" + _BARE_CHANGELOG + r"\s*[.!]*\s*$)"
)


# The pull request numbers a squash merge or a merge titled with them ends in: `Title (#123)`,
# `Title (#4816) (#4817)` (a pull request that carried another).
PR_SUFFIX = PR_SUFFIXES


# What a subject ends with for its tools, not its reader: a CI directive (`[ci skip]`) and the
# issue it closes in brackets (lodash's `... use of `arguments`. [ci skip] [closes #416]`).
_TRAILING_DIRECTIVES = (
    r"(?i)(?:\s*(?:" + CI_DIRECTIVE + r"|[\[(](?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|see|refs?|re)\s*:?\s*#?\d+(?:\s*(?:,|and)\s*#?\d+)*[\])]))+\s*$"
)


# A pull request's draft mark left in its title (rich's `WIP report fine grained error
# locations`, `Draft: ...`), before a phrase of two words or more (`Draft of LinkedTreeMap`
# names a draft: it stays).
_WORK_IN_PROGRESS = r"^\s*(?:(?i:wip)\b\s*[:-]?|(?i:draft):)\s+(\S+\s+\S)"


# A pull request titled by GitHub from its branch's name (`fancyweb/fix/get-status-raises` ->
# rq's `Fancyweb/fix/get status raises`, fastify's `Fix/hook env vars`, `Bugfix/streamline
# fastify request to be generic`): the name's words, a fix said as one; not a path with a
# component's words after it (git's `docs/INSTALL: minor polish`) or a one-word branch.
_BRANCH_TITLE = r"(?i)^(?:[\w.-]+/)?(?:(bug-?fix|hot-?fix|fix|bug)|feat|features?|chore|refactor|improvements?|enhancements?)/([^/:\s][^/:]*\s[^:]*)$"


def _from_branch_name(title: pl.Expr) -> pl.Expr:
    """A title GitHub made from a branch name (_BRANCH_TITLE) said in words (`Fix get status raises`)."""
    kind = title.str.extract(_BRANCH_TITLE, 1)
    rest = title.str.extract(_BRANCH_TITLE, 2).str.strip_chars().str.replace(r"^#?\d+\s+(\S)", "${1}")  # (an issue's number)
    said = (pl.when(kind.is_not_null() & ~rest.str.contains(f"(?i){LEAD_VERB}")).then(pl.lit("fix ") + rest).otherwise(rest))
    return pl.when(rest.is_not_null()).then(said.str.slice(0, 1).str.to_uppercase() + said.str.slice(1)).otherwise(title)


def _title(subject: pl.Expr) -> pl.Expr:
    """A subject without `(#N)`, a leading list bullet, bracket tags, trailing CI directives and
    closed issues (`[ci skip]`, `[closes #416]`), series numbering and a
    Conventional-Commit type of a kind of change (`feat(x):`, `fix:`) when MIN_TYPED_TITLE_WORDS
    words or more follow (`feat: add retry option` is "add retry option", `feat: caveats`
    stays). A component prefix stays: it names where the change is (redis's `LPOS: implement
    the final design.`, `Cluster: support to read from slave nodes.`, ripgrep's `printer: fix
    --stats for --json`), and so does a type that names an area (`ci: fix binary discovery`).
    (The words themes are read from drop a component before a long phrase: see
    themes.text.clean_title.)"""
    base = (
        _from_branch_name(subject.str.replace(PR_SUFFIX, "").str.strip_chars()).str.replace(LEADING_MARK, "")
        .str.replace_all(_SERIES_STRIP, "")
        .str.replace(r"^\s*(?:\[[^\]\n]*\]\s*)+", "")
        .str.replace(_WORK_IN_PROGRESS, "${1}")
        .str.replace(_TRAILING_DIRECTIVES, "")
        # a YubiKey's one-time password typed into the subject by accident (44 modhex letters:
        # urfave/cli's `Add non duplicated flag checkeikdcclkkujufrdvecfbjgjjcuchtvbvuefriijgehvh`)
        .str.replace(r"[cbdefghijklnrtuv]{44}\s*$", "")
        .str.strip_chars()
    )
    # a subject that is nothing but a mark (`:hammer:`) is its own name
    base = pl.when(base == "").then(subject.str.replace(PR_SUFFIX, "").str.strip_chars()).otherwise(base)
    bare = base.str.replace(KIND_PREFIX, "").str.strip_chars()
    words = bare.str.count_matches(r"\S+")
    return (pl.when((words >= MIN_TYPED_TITLE_WORDS) | ((words == 2) & bare.str.contains(f"(?i){LEAD_VERB}")))
            .then(bare).otherwise(base))


def _component(subject: pl.Expr) -> pl.Expr:
    """The component a subject names: first bracket tag, conventional scope or `name:` prefix."""
    tag = subject.str.extract(r"^\s*\[([^\]\n]{1,40})\]", 1).str.strip_chars().str.to_lowercase()
    tag = pl.when(tag.str.contains(_GENERIC_TAGS)).then(None).otherwise(tag)
    scope = subject.str.extract(_CONV_SCOPE, 1).str.strip_chars().str.to_lowercase()
    prefix = subject.str.replace(r"^\s*(?:\[[^\]\n]*\]\s*)+", "").str.extract(_COMPONENT_PREFIX, 1).str.to_lowercase()
    prefix = pl.when(prefix.str.contains(_NOT_COMPONENT)).then(None).otherwise(prefix)
    return pl.coalesce(tag, scope, prefix)


# --------------------------------------------------------------------------------------------
# Pairs of consecutive work commits: what every relation is made of
# --------------------------------------------------------------------------------------------


def _consecutive_pairs(df: pl.DataFrame, by: list[str], apart: int = 1) -> pl.DataFrame:
    """Pairs (_a, _b) of consecutive rows within `by` groups of a frame sorted by `by` + time
    (with `apart=2`, of rows with one other row between them)."""
    same = pl.all_horizontal([pl.col(c) == pl.col(c).shift(apart) for c in by])
    return df.with_columns(
        pl.col("_n").shift(apart).alias("_a"),
        pl.col("_n").alias("_b"),
        (pl.col("_t") - pl.col("_t").shift(apart)).alias("_gap"),
        same.fill_null(False).alias("_same"),
    ).filter(pl.col("_same"))


_PAIRS = {"_a": pl.UInt32, "_b": pl.UInt32}


def _no_pairs() -> pl.DataFrame:
    return pl.DataFrame(schema=_PAIRS)
