"""What an edit made in a web editor changed, read from its diff, for a subject that only names the
file (`Update README.md`, `Update CHANGELOG.rst`, `Update requirements.txt`, `Update CHANGELOG`).

GitHub's web editor proposes such a subject and many people keep it: 97 of httpie's 1,670 counted
commits, 40 of httpx's, 22 of fzf's. Their work items were titled by the file's name, which tells
a reader nothing. :func:`summarize_patch` reads the changed lines of a one-file edit and names what
changed when the lines say it plainly:

* a dependency pinned to another version (`twine==5.1.0` -> `twine==5.1.1`): "Bump twine to 5.1.1";
* only links, dates, version numbers or badges changed: "Update links in README.md", "Fix the date
  in CHANGELOG.md", ...;
* a word or two of a document's line corrected: "Fix a typo in README.rst" (`in` -> `is`);
* a changelog's new entry: "Changelog: Added request details to connection error messages", or
  entries: "Add 3 entries to CHANGES.md";
* a new heading in a document: "Add Installation to README.md".

A subject that only says it edits the changelog, in a word of its own (`pro changes`, `latest
changes`, `doc(changes)`, `[ci skip]` aside: 170 of sidekiq's commits), is named by the entries the
edit adds to a changelog file, and by nothing else.

Anything else gives nothing (the title stays as it was). Beside the summary,
:func:`changelog_refs` keeps the pull requests and issues the entries added to a changelog cite
(`... dependency.  #465`): an entry that records its author's merged pull request is part of it
(`work_items`). :func:`update_edit_summaries` reads the candidates of a repository in one
``git log -p -U0 --no-walk --stdin`` pass, incrementally by sha (a summary is a function of the
sha and of :data:`READER`).
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import polars as pl

from exceeds_pipeline.classify.changelog import CHANGELOG_FILE
from exceeds_pipeline.classify.work_items.releases import BARE_BUMP
from exceeds_pipeline.classify.work_items.shared import BARE_CHANGELOG_SUBJECT, VERSION_FILE, WEB_EDITOR_SUBJECT
from exceeds_pipeline.ingest.gitcmd import run_git

__all__ = ["EDIT_SUMMARY_SCHEMA", "READER", "changelog_refs", "edit_candidates", "summarize_patch", "update_edit_summaries"]

EDIT_SUMMARY_SCHEMA = {"repo": pl.String, "sha": pl.String, "summary": pl.String, "refs": pl.List(pl.Int64),
                       "reader": pl.Int16}
# Raised when a rule below changes, so that stored summaries are read again.
READER = 5
# a subject that names a file and nothing else, or a document by its bare name (`Update README`)
NAMES_ONLY_A_FILE = (rf"{WEB_EDITOR_SUBJECT}|{BARE_CHANGELOG_SUBJECT}"
                     r"|(?i)^\W*(?:update[sd]?|edit(?:ed)?)\s+(?:the\s+)?(?:readme|contributing|authors|license)\W*$")
# a subject that says it edits the changelog in a word of its own (sidekiq's `pro changes`,
# `latest changes`, `doc(changes)`): a changelog's new entries name it, nothing else does
NAMES_THE_CHANGELOG = r"(?i)^\W*(?:\w+\s+)?(?:changes|changelog)\W*$|^\W*docs?\((?:changes|changelog)\)\W*$"
# a request to skip CI (`changes [ci skip]`) says nothing of the change
_CI_SKIP = r"(?i)\s*\[(?:ci\s*skip|skip\s*ci|ciskip|no\s*ci)\]"
MAX_PATCH_BYTES = 64 * 1024
MAX_TITLE = 80
_MARK = "\x1e\x1eEDIT\x1f"

_URL = re.compile(r"https?://\S+|www\.\S+")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\s+[A-Z][a-z]{2,8}\s+\d{4}\b|\b[A-Z][a-z]{2,8}\s+\d{1,2},\s+\d{4}\b")
_VERSION = re.compile(r"\bv?\d+(?:\.\d+)+(?:[-.]?(?:a|b|rc|dev|post)\d*)?\b")
_BADGE = re.compile(r"(?i)shields\.io|badge|\|\w[\w -]*\|\s*image::|\.svg\b")
_PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._\-\[\],]*)\s*(?:==|>=|~=|<=|===)\s*([0-9][\w.+-]*)")
_CHANGELOG_FILE = re.compile(CHANGELOG_FILE)  # CHANGES.md, Pro-Changes.md, HISTORY.rst, NEWS
_PIN_FILE = re.compile(r"(?i)requirements|constraints|pipfile")
_DOC_FILE = re.compile(r"(?i)\.(?:md|markdown|rst|txt|adoc)$|(?:^|/)readme$")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+(.*\S)")
_HEADING = re.compile(r"^\s*#{1,6}\s+(.*?)\s*#*\s*$")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
# a changelog line that opens a version's section: `# v0.14.0`, `Version 2.9.3`, `## [1.2.0] - 2024-01-02`
_VERSION_TITLE = re.compile(r"(?i)^\s*(?:#{1,6}\s*)?\[?(?:version\s+|release\s+|v)?\d+\.\d+")
# a pull request or issue an entry cites: `#465`, `(#12)`, `GH-12`, or its address (`.../pull/465`)
_CITED = re.compile(r"(?:(?<![\w&/])#|\bGH-|/pull/|/issues/)(\d{1,7})\b")


def edit_candidates(commits: pl.DataFrame) -> tuple[list[str], dict[str, str]]:
    """(the shas of the non-merge commits whose subject names only the file they edit, only says
    it edits the changelog, or only says `bump`; sha -> what alone names those of the latter two:
    "entries", a changelog's new entries, or "version", the version a version file is set to)."""
    merge = pl.col("is_merge").fill_null(False) if "is_merge" in commits.columns else pl.lit(False)
    subject = pl.col("subject").fill_null("").str.replace_all(_CI_SKIP, "")
    names_file = subject.str.contains(NAMES_ONLY_A_FILE)
    only = (pl.when(names_file).then(None)
            .when(subject.str.contains(NAMES_THE_CHANGELOG)).then(pl.lit("entries"))
            .when(subject.str.contains(BARE_BUMP)).then(pl.lit("version")))
    found = commits.filter(~merge & (names_file | only.is_not_null())).select("sha", only.alias("_only"))
    return found["sha"].to_list(), dict(found.drop_nulls("_only").rows())


def _inline(text: str) -> str:
    """Markdown and reStructuredText marks out of an entry's text: links keep their words."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"`([^`]*)`_?", r"\1", text)
    text = re.sub(r"\(\s*#?\d+\s*\)|\s*\(`#\d+`_\)|\s*\[#\d+\]", "", text)  # (#12), (`#12`_), [#12]
    return re.sub(r"\s+", " ", text.replace("**", "").replace("__", "")).strip(" .:;")


def _cut(text: str) -> str:
    if len(text) <= MAX_TITLE:
        return text
    return text[:MAX_TITLE].rsplit(" ", 1)[0].rstrip(",;:") + " ..."


def _only(pattern: re.Pattern, removed: list[str], added: list[str]) -> bool:
    """The lines differ, and only in what ``pattern`` matches."""
    strip = lambda lines: [pattern.sub("@", line).strip() for line in lines if line.strip()]  # noqa: E731
    return removed != added and strip(removed) == strip(added) and any(pattern.search(x) for x in removed + added)


def _typo(removed: list[str], added: list[str]) -> bool:
    """One line changed in a word or two, each word close to what it was (`in` -> `is`,
    `correspond` -> `corresponds`)."""
    if len(removed) != 1 or len(added) != 1:
        return False
    old, new = removed[0].split(), added[0].split()
    changed = [op for op in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not changed or len(changed) > 2:
        return False
    for tag, i1, i2, j1, j2 in changed:
        a, b = " ".join(old[i1:i2]), " ".join(new[j1:j2])
        if tag != "replace" or i2 - i1 > 2 or j2 - j1 > 2 or not _WORD.search(a + b):
            return False
        if difflib.SequenceMatcher(a=a.lower(), b=b.lower()).ratio() < 0.6 and len(a) > 3:
            return False
    return True


def summarize_patch(path: str, removed: list[str], added: list[str], only: str | None = None) -> str | None:
    """What a one-file edit changed (module doc), from its removed and added lines; None when the
    lines do not say it plainly. ``only``: "entries" (only a changelog's new entries name it) or
    "version" (only the version a version file is set to)."""
    name = path.rsplit("/", 1)[-1]
    removed = [x for x in removed if x.strip()]
    added = [x for x in added if x.strip()]
    if not removed and not added:
        return None
    version = _set_version(path, removed, added)
    if only == "version" or version:
        return version
    if only == "entries":
        return _changelog_entries(name, removed, added) if _CHANGELOG_FILE.search(path) else None
    old_pins = dict(m.groups() for x in removed if (m := _PIN.match(x)))
    new_pins = dict(m.groups() for x in added if (m := _PIN.match(x)))
    bumped = [(pkg, ver) for pkg, ver in new_pins.items() if old_pins.get(pkg) not in (None, ver)]
    if bumped and len(old_pins) == len(removed) and len(new_pins) == len(added):
        if len(bumped) == 1:
            return f"Bump {bumped[0][0]} to {bumped[0][1]}"
        if len(bumped) == 2:
            return f"Bump {bumped[0][0]} and {bumped[1][0]}"
        return f"Bump {len(bumped)} dependencies in {name}"
    if new_pins and not removed and len(new_pins) == len(added):
        return f"Add {', '.join(sorted(new_pins))} to {name}" if len(new_pins) <= 2 else None
    for pattern, said in ((_URL, "Update links in {}"), (_BADGE, "Update badges in {}"),
                          (_DATE, "Fix the date in {}"), (_VERSION, "Update version numbers in {}")):
        if removed and added and _only(pattern, removed, added):
            return said.format(name)
    if _DOC_FILE.search(path) and not _PIN_FILE.search(path) and _typo(removed, added):
        return f"Fix a typo in {name}"
    if _CHANGELOG_FILE.search(path):
        return _changelog_entries(name, removed, added)
    if _DOC_FILE.search(path):
        headings = [_inline(m.group(1)) for x in added if (m := _HEADING.match(x))]
        headings = [h for h in headings if _WORD.search(h)]
        if len(headings) == 1 and not any(_HEADING.match(x) for x in removed):
            return _cut(f"Add {headings[0]} to {name}")
    return None


def _changelog_entries(name: str, removed: list[str], added: list[str]) -> str | None:
    """A changelog edit named by the entries it adds (the headings beside them, a new version's,
    say nothing more); None when it adds none of three words or more."""
    entries = [_inline(m.group(1)) for x in added if (m := _BULLET.match(x))]
    entries = [e for e in entries if len(e.split()) >= 3]
    if entries and (not removed or len(entries) >= len(removed)):
        # (of several, none names the edit: sinatra's `update changes` of eight entries had
        # been titled by the first, another contributor's Rabl support)
        if len(entries) > 1:
            return f"Add {len(entries)} entries to {name}"
        return _cut(f"Changelog: {entries[0][0].upper()}{entries[0][1:]}")
    return None


def _set_version(path: str, removed: list[str], added: list[str]) -> str | None:
    """"Bump the version to X" when the edit only sets the version in the project's version file
    (sidekiq's lib/sidekiq/version.rb under the subject `bump`)."""
    if not re.search(VERSION_FILE, path) or len(removed) != 1 or len(added) != 1 or not _only(_VERSION, removed, added):
        return None
    return f"Bump the version to {_VERSION.findall(added[0])[-1]}"


def _section(body: str) -> tuple[str, list[str], list[str]] | None:
    """(path, removed lines, added lines) of one file's part of a ``-U0`` patch; None for a
    binary file, or one git names no path of."""
    target = re.search(r"(?m)^\+\+\+ (?:b/)?(.+)$", body) or re.search(r"(?m)^--- (?:a/)?(.+)$", body)
    if target is None or "\nBinary files " in body:
        return None
    lines = body.splitlines()
    return (target.group(1).strip(), [x[1:] for x in lines if x.startswith("-") and not x.startswith("--- ")],
            [x[1:] for x in lines if x.startswith("+") and not x.startswith("+++ ")])


def _summary(patch: str, only: str | None = None) -> str | None:
    """The summary of one commit's ``-U0`` patch: one text file edited, else None; a bump
    (``only`` "version") is named by its version file whatever else it edits (the changelog)."""
    sections = [_section(body) for body in re.split(r"(?m)^diff --git ", patch)[1:]]
    if len(sections) != 1:
        if only != "version":
            return None
        sections = [s for s in sections if s is not None and re.search(VERSION_FILE, s[0])]
    return summarize_patch(*sections[0], only) if sections and sections[0] is not None else None


def changelog_refs(patch: str) -> list[int]:
    """The pull requests and issues cited by the entries a ``-U0`` patch adds to changelog files
    (an entry: a bullet and the lines that continue it), in order, each once; 0 for an entry
    that cites none (a record of work with no pull request: `Fixed a bug that caused ...`), and
    -1 when the patch opens a version's section (`# v0.14.0`: a release's notes, not a
    change's record). An entry moved or reworded (its numbers or its text among the removed
    lines) records nothing new and is left out."""
    refs: list[int] = []
    for section in (_section(body) for body in re.split(r"(?m)^diff --git ", patch)[1:]):
        if section is None or not _CHANGELOG_FILE.search(section[0]):
            continue
        _, removed, added = section
        if -1 not in refs and any(_VERSION_TITLE.match(line) for line in added):
            refs.append(-1)
        gone = {line.strip() for line in removed}
        gone_refs = {int(n) for line in removed for n in _CITED.findall(line)}
        entries: list[list[str]] = []
        for line in added:
            if _BULLET.match(line):
                entries.append([line])
            elif entries and line.strip() and not _HEADING.match(line) and _WORD.search(line):
                entries[-1].append(line)
        for entry in entries:
            if all(line.strip() in gone for line in entry):
                continue
            named = [int(n) for line in entry for n in _CITED.findall(line)]
            cited = [n for n in named if n not in gone_refs]
            if named and not cited:
                continue
            refs.extend(n for n in (cited or [0]) if n not in refs)
    return refs


def read_edit_summaries(git_dir: Path, repo: str, shas: list[str], only: dict[str, str] | None = None) -> pl.DataFrame:
    """(repo, sha, summary, refs, reader) of ``shas``, read in one git pass (a summary may be
    null; ``only``: sha -> what alone names it, :func:`edit_candidates`; refs:
    :func:`changelog_refs`)."""
    only = only or {}
    if not shas:
        return pl.DataFrame(schema=EDIT_SUMMARY_SCHEMA)
    out = run_git(git_dir, ["log", "--no-walk=unsorted", "--stdin", f"--format={_MARK}%H", "-p", "-U0",
                            "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--diff-merges=off",
                            "--encoding=UTF-8"], repo, input=("\n".join(shas) + "\n").encode("ascii"), check=False)
    rows = []
    for record in out.stdout.decode("utf-8", "replace").split(_MARK)[1:]:
        sha, _, patch = record.partition("\n")
        sha = sha.strip()
        small = len(patch) <= MAX_PATCH_BYTES
        rows.append((repo, sha, _summary(patch, only.get(sha)) if small else None, changelog_refs(patch) if small else [], READER))
    return pl.DataFrame(rows, schema=EDIT_SUMMARY_SCHEMA, orient="row")


def update_edit_summaries(previous: pl.DataFrame | None, git_dir: Path, repo: str, commits: pl.DataFrame) -> pl.DataFrame:
    """The summaries of the repository's candidates (:func:`edit_candidates`): those of
    ``previous`` read by this READER kept, the others read."""
    wanted, only = edit_candidates(commits)
    kept = (previous.filter(pl.col("reader") == READER).filter(pl.col("sha").is_in(wanted))
            if previous is not None and set(EDIT_SUMMARY_SCHEMA) <= set(previous.columns) else pl.DataFrame(schema=EDIT_SUMMARY_SCHEMA))
    todo = sorted(set(wanted) - set(kept["sha"].to_list()))
    return pl.concat([kept.select(list(EDIT_SUMMARY_SCHEMA)).cast(EDIT_SUMMARY_SCHEMA),
                      read_edit_summaries(git_dir, repo, todo, only)]).sort("sha")
