"""What a commit's added lines use: imported modules and API names, read by one streaming git pass.

:func:`code_evidence` runs ONE ``git log -p -U0`` process per call over the commits asked for
(``--no-walk --stdin``, like the ingest), and keeps per commit:

* ``imports``: the modules the added lines import, by the file's language (Python ``import`` /
  ``from … import``, JavaScript/TypeScript ``import … from`` / ``require``, C/C++/CUDA/Objective-C
  ``#include``, Go import specs, Rust ``use`` / ``extern crate``, Java/Kotlin/Scala ``import``,
  Ruby ``require``), normalised to dotted names (``torch._dynamo.guards``, ``cuda_runtime.h``).
* ``code_terms``: the distinct API names the added code lines use (dotted names such as
  ``torch.cuda.synchronize`` and identifiers such as ``PyObject``, ``__global__``), comments and
  string literals left out, at most :data:`MAX_TERMS` per commit, most used first.

Nothing is kept of the code itself. At most :data:`MAX_BYTES` of added lines are read per commit
(one huge generated commit cannot blow up memory or time). Only files of a known language are
read: lock files, JSON, SVG, CSV and the like have none, and minified and generated files
(:data:`_SKIPPED_SUFFIXES`) are skipped. The skipping happens here, not in a git pathspec: on
git/git a pathspec of excludes doubles the cost of git's diff; instead git is given an
attributes file that marks every other file binary, so it makes no text diff of them
(:func:`_diff_only_read_files`: git's time on git/git's sample falls threefold). The result is a pure function of
the sha, so a caller keeps the frame and asks only for new shas next time (incremental by sha).
Commits are best asked for in history order (as :func:`evidence_sample` returns them): git then
reads neighbouring trees and blobs together, about 10% faster than in sha order.

The rules in ``skills.yaml`` (``imports`` and ``code_terms``) read these two lists; changing the
rules needs no new git pass.
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Collection, Iterable, Sequence

import polars as pl

from exceeds_pipeline.common.chunks import contiguous_chunks
from exceeds_pipeline.enrich import docstrings
from exceeds_pipeline.enrich.inline_tests import INLINE_TEST_SUFFIXES, only_test_modules
from exceeds_pipeline.ingest.gitcmd import GitError, attributes_config, read_blobs, stream_git

__all__ = ["CODE_EVIDENCE_SCHEMA", "MAX_BYTES", "MAX_TERMS", "block_comment_sample", "code_evidence", "evidence_from_patch", "inline_test_paths",
           "update_code_evidence"]

MAX_BYTES = 256 * 1024  # added-line bytes read per commit
MAX_TERMS = 200  # code terms kept per commit
MAX_IMPORTS = 200
MIN_CHUNK = 1000  # commits per git process when several run at once

CODE_EVIDENCE_SCHEMA = {
    "repo": pl.String,
    "sha": pl.String,
    "imports": pl.List(pl.String),
    "code_terms": pl.List(pl.String),
    # the changed lines (added and deleted) of the files read that are comments, and that are
    # code (neither comments nor blank): a change of comments alone is documentation work.
    # Docstrings count as comments in a commit whose code lines could all be docstrings
    # (_docstring_candidates: Python and Elixir files, at most 400 lines, no plain statement;
    # or JavaScript/TypeScript block comments)
    "comment_lines": pl.Int32,
    "code_lines": pl.Int32,
    # the files whose changed lines all lie in tests kept inside the source (Rust's
    # `#[cfg(test)] mod tests`, enrich.inline_tests): test work, whatever the path says
    "test_paths": pl.List(pl.String),
    # the version of the reading (READER) a row was made by: rows of an older one are read again
    "reader": pl.Int16,
}
# Raised when what is read from a diff changes (a language added to _FAMILY, a comment syntax),
# so that stored evidence is read again with it.
READER = 8

_MISSING = re.compile(r"unable to read|missing (?:blob|tree|object)|bad object|could not read|invalid object")
_MARK = b"\x1e\x1eEXP\x1f"
_FORMAT = "%x1e%x1eEXP%x1f%H"
# Files of a known language that are generated, not written: their sections are skipped.
_SKIPPED_SUFFIXES = (b".min.js", b".pb.go", b".min.mjs")
_OPTIONS = ("-p", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--diff-merges=off",
            "--no-renames", "--encoding=UTF-8", "--diff-filter=AMT")

# file extension -> import syntax family
_FAMILY = {
    **dict.fromkeys(("py", "pyi", "pyx", "pxd"), "py"),
    **dict.fromkeys(("js", "jsx", "ts", "tsx", "mjs", "cjs", "vue", "svelte"), "js"),
    **dict.fromkeys(("c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "cu", "cuh", "m", "mm", "inl", "ipp"), "c"),
    "go": "go",
    "rs": "rs",
    **dict.fromkeys(("java", "kt", "kts", "scala", "groovy"), "java"),
    "rb": "rb",
    # read for their comments and code terms (no import syntax of theirs is parsed): guzzle's
    # `Fixing docblock` commits changed PHP comments alone
    **dict.fromkeys(("php", "swift", "cs", "dart"), "slash"),
    **dict.fromkeys(("ex", "exs"), "hash"),
    # R: roxygen's `#'` documentation lives in the code files (dplyr's `Add an example of
    # recode_values()` changed 13 `#'` lines and the Rd built from them: a feature by its verb)
    "r": "hash",
}
_COMMENT = {
    "py": re.compile(rb"#.*$"),
    "rb": re.compile(rb"#.*$"),
    "hash": re.compile(rb"#.*$"),
}
_SLASH_COMMENT = re.compile(rb"//.*$|/\*.*?(?:\*/|$)")
_STRINGS = re.compile(rb"'''.*?'''|\"\"\".*?\"\"\"|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'")
# An API name, not a prose word from a multi-line docstring: dotted, snake_case, camelCase,
# CamelCase or ALL-CAPS.
_API = re.compile(rb"[._]|[a-z][A-Z]|^[A-Z][a-z0-9]*[A-Z]|^[A-Z0-9]{3,}$")
_CALL = re.compile(rb"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\(")
_FROM_NAMES = re.compile(rb"^\s*from\s+([A-Za-z_][\w.]*)\s+import\s+\(?([\w\s,]+)")
_TERM = re.compile(rb"(?<![\w.])[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")

_PY_IMPORT = re.compile(rb"^\s*(?:from\s+([A-Za-z_][\w.]*)\s+import\b|import\s+([A-Za-z_][\w.]*(?:\s*(?:as\s+\w+)?\s*,\s*[A-Za-z_][\w.]*)*))")
_JS_IMPORT = re.compile(rb"""(?:\bfrom\s+|\bimport\s+|\brequire\s*\(\s*|\bimport\s*\(\s*)['"]([^'"\s]+)['"]""")
_C_INCLUDE = re.compile(rb"^\s*#\s*(?:include|import)\s*[<\"]([^>\"]+)[>\"]")
_GO_IMPORT = re.compile(rb"^\s*(?:import\s+)?(?:[\w.]+\s+)?\"([\w./-]+)\"\s*$")
_RS_USE = re.compile(rb"^\s*(?:pub\s+)?(?:use\s+(?:::)?([A-Za-z_][\w]*(?:::[A-Za-z_]\w*)*)|extern\s+crate\s+(\w+))")
_JAVA_IMPORT = re.compile(rb"^\s*import\s+(?:static\s+)?([A-Za-z_][\w.]*)")
_RB_REQUIRE = re.compile(rb"""^\s*require(?:_relative)?\s*\(?\s*['"]([^'"]+)['"]""")

_KEYWORDS = frozenset(
    b"""and as assert async await break case catch class const continue def default del do elif else
    enum except export extends false final finally for from function global if implements import in
    instanceof interface is lambda let new nil none not null or pass private protected public raise
    return self static struct super switch this throw throws true try type typeof var void while with
    yield int str float bool char long short unsigned signed double auto fn pub mut impl use mod crate
    let match loop where trait dyn ref move unsafe extern func package range defer chan go map select
    end begin then elsif unless until module require include define ifdef ifndef endif undef pragma
    print len list dict set tuple object args kwargs cls Self None True False""".split()
)


# The files whose diffs are read (a Polars/Rust regex over paths, case-insensitive): every
# changed line of a commit of only these (and pages) is in `comment_lines` or `code_lines`.
READ_PATHS = (r"(?i)\.(?:" + "|".join(sorted(_FAMILY)) + r")$")
UNREAD_SUFFIXES = r"(?i)(?:" + "|".join(re.escape(x.decode()) for x in _SKIPPED_SUFFIXES) + r")$"


def _family(path: bytes) -> str | None:
    name = path.rsplit(b"/", 1)[-1]
    if b"." not in name or name.endswith(_SKIPPED_SUFFIXES):
        return None
    return _FAMILY.get(name.rsplit(b".", 1)[-1].lower().decode("ascii", "replace"))


def _imports(family: str, line: bytes, out: list[str]) -> None:
    if family == "py":
        m = _PY_IMPORT.match(line)
        if m:
            if m.group(1):
                out.append(m.group(1).decode("ascii", "replace"))
            else:
                for part in m.group(2).split(b","):
                    out.append(part.split()[0].decode("ascii", "replace"))
    elif family == "js":
        for m in _JS_IMPORT.finditer(line):
            spec = m.group(1).decode("utf-8", "replace")
            if not spec.startswith("."):
                out.append(spec)
    elif family == "c":
        m = _C_INCLUDE.match(line)
        if m:
            out.append(m.group(1).decode("utf-8", "replace"))
    elif family == "go":
        m = _GO_IMPORT.match(line)
        if m:
            out.append(m.group(1).decode("utf-8", "replace"))
    elif family == "rs":
        m = _RS_USE.match(line)
        if m:
            out.append((m.group(1) or m.group(2)).decode("ascii", "replace").replace("::", "."))
    elif family == "java":
        m = _JAVA_IMPORT.match(line)
        if m:
            out.append(m.group(1).decode("ascii", "replace"))
    elif family == "rb":
        m = _RB_REQUIRE.match(line)
        if m:
            out.append(m.group(1).decode("utf-8", "replace"))


_SECTION = re.compile(rb"^\+\+\+ (?:b/)?(.*)$", re.M)
_ADDED = re.compile(rb"^\+(?!\+\+ )(.*)$", re.M)
_IMPORT_LINES = re.compile(
    rb"^[ \t]*(?:import|from|#[ \t]*(?:include|import)|use|pub[ \t]+use|extern|require|\"|[\w.]+[ \t]+\").*$"
    rb"|^.*(?:\bfrom[ \t]+['\"]|\brequire[ \t]*\(|\bimport[ \t]*\().*$", re.M)
_SKIP_LINE = re.compile(rb"^\s*(?:\*|//|/\*|#|>>>).*$", re.M)
# A changed line (added or deleted; not a file header) that is not blank, and one that is all
# comment by the file's comment syntax: `// x`, `/* x`, ` * x`, `x */` (a block's last line,
# no code before it), `# x`. A C line `*ptr = 0;` is code.
_CHANGED = re.compile(rb"^[+-](?!\+\+ |-- )[ \t]*\S", re.M)
_COMMENT_LINE = {
    # (a `#!` line names the interpreter: redis's "fix file permissions for scripts" added
    # `#!/usr/bin/env ruby` and was no documentation)
    "hash": re.compile(rb"^[+-](?!\+\+ |-- )[ \t]*#(?!!)", re.M),
    # (a block comment with code after it on its line is code: webpack's `/** @type {X} */ (expr),`)
    "slash": re.compile(rb"^[+-](?!\+\+ |-- )(?:[ \t]*(?://|/\*(?:[^*\n]|\*(?!/))*(?:\*/[ \t\r]*)?$|\*(?:[ \t]|/|$))"
                        rb"|(?:(?!/\*)[^\n])*\*/[ \t]*$)", re.M),
}
_COMMENT_STYLE = {"py": "hash", "rb": "hash", "hash": "hash"}


# A comment a test runner or coverage tool reads, not a person: PHPUnit's `@covers`,
# `@expectedExceptionMessage`, `@group`, `@dataProvider`, `@codeCoverageIgnore` (guzzle's `Fixing
# PHPUnit @covers annotation` changes what a test checks): code. (Linters' and type checkers'
# directives stay comments: RuboCop's cop documentation quotes `# rubocop:disable` in its examples.)
# So is one the Go toolchain reads: a build constraint (`//go:build !windows`, `// +build linux`)
# decides which platforms compile the file (bubbletea's `Add Windows support` tags), and
# `//go:generate`, `//go:embed`, `//go:linkname` generate, embed or link code.
_DIRECTIVE = re.compile(
    rb"@(?:covers\w*|expectedException\w*|group|dataProvider|depends|requires|runInSeparateProcess"
    rb"|runTestsInSeparateProcesses|preserveGlobalState|backupGlobals|doesNotPerformAssertions|codeCoverageIgnore\w*)\b"
    rb"|//go:[a-z]+\b|//[ \t]*\+build\b")


def _comment_counts(family: str, body: bytes) -> tuple[int, int]:
    """(comment lines, code lines) among the changed lines of one file section; a comment a
    test runner reads (_DIRECTIVE) is code."""
    changed = len(_CHANGED.findall(body))
    if not changed:
        return 0, 0
    comments = 0
    for m in _COMMENT_LINE[_COMMENT_STYLE.get(family, "slash")].finditer(body):
        end = body.find(b"\n", m.end())
        if not _DIRECTIVE.search(body, m.start(), end if end >= 0 else len(body)):
            comments += 1
    return comments, changed - comments


def evidence_from_patch(patch: bytes, max_bytes: int = MAX_BYTES) -> tuple[list[str], list[str], int, int]:
    """(imports, code_terms, comment_lines, code_lines) of one commit's ``git log -p -U0`` text.

    Per file section (``+++ b/path``) of a known language: the added lines, at most
    ``max_bytes`` over the commit; imports from the lines that look like imports; code terms
    from the lines left once comment lines, comments and string literals are removed, all
    with a few regex passes over the section (no per-line Python work for ordinary lines).
    Of the changed lines (added and deleted, every section): how many are comments and how
    many code (`_comment_counts`)."""
    imports: list[str] = []
    terms: Counter[bytes] = Counter()
    comment_lines = code_lines = 0
    budget = max_bytes
    heads = list(_SECTION.finditer(patch))
    for n, head in enumerate(heads):
        family = _family(head.group(1).rstrip(b"\r"))
        if family is None:
            continue
        body = patch[head.end(): heads[n + 1].start() if n + 1 < len(heads) else len(patch)]
        comments, code = _comment_counts(family, body)
        comment_lines += comments
        code_lines += code
        if budget <= 0:
            continue
        added = b"\n".join(_ADDED.findall(body))
        if len(added) > budget:
            added = added[:budget].rsplit(b"\n", 1)[0]
        budget -= len(added) + 1
        if not added:
            continue
        for line in _IMPORT_LINES.findall(added):
            if True:
                _imports(family, line, imports)
                if family == "py":
                    m = _FROM_NAMES.match(line)
                    if m:  # `from flask import Blueprint`: Blueprint and flask.Blueprint are used
                        for name in m.group(2).split(b","):
                            name = name.split()[0] if name.split() else b""
                            if name and name != b"as":
                                terms[name] += 1
                                terms[m.group(1) + b"." + name] += 1
        code = _SKIP_LINE.sub(b"", added)
        code = _STRINGS.sub(b" ", code)
        code = re.sub(_COMMENT.get(family, _SLASH_COMMENT).pattern, b"", code, flags=re.M)
        for term, count in Counter(_TERM.findall(code)).items():
            if len(term) >= 3 and term not in _KEYWORDS and _API.search(term):
                terms[term] += count
        for term, count in Counter(_CALL.findall(code)).items():  # a call is code whatever its case
            if len(term) >= 3 and term not in _KEYWORDS and not _API.search(term):
                terms[term] += count
    kept_imports = list(dict.fromkeys(imports))[:MAX_IMPORTS]
    ranked = sorted(terms.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_TERMS]
    return kept_imports, sorted(t.decode("ascii", "replace") for t, _ in ranked), comment_lines, code_lines


def inline_test_paths(patch: bytes) -> list[str]:
    """The files of one commit's ``git log -p -U0`` text whose changed lines all lie in test
    modules inside the source (:func:`~exceeds_pipeline.enrich.inline_tests.only_test_modules`)."""
    if not any(suffix in patch or suffix.upper() in patch for suffix in INLINE_TEST_SUFFIXES):
        return []  # (most commits: no such file at all)
    heads = list(_SECTION.finditer(patch))
    ends = [h.start() for h in heads[1:]] + [len(patch)]
    return [h.group(1).rstrip(b"\r").decode("utf-8", "replace") for h, end in zip(heads, ends)
            if h.group(1).rstrip(b"\r").lower().endswith(INLINE_TEST_SUFFIXES) and only_test_modules(patch[h.end(): end])]


def _records(pipe) -> Iterable[tuple[str, bytes]]:
    pending = b""
    while block := pipe.read(1 << 22):
        pending += block
        parts = pending.split(_MARK)
        pending = parts.pop()
        for part in parts:
            if part.strip():
                sha, _, body = part.partition(b"\n")
                yield sha.strip().decode("ascii"), body
    if pending.strip():
        sha, _, body = pending.partition(b"\n")
        yield sha.strip().decode("ascii"), body


def _case_free(suffix: str) -> str:
    """A gitattributes pattern part matching ``suffix`` in any letter case (`py` -> `[pP][yY]`)."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in suffix)


def _diff_only_read_files(folder: Path) -> dict[str, str]:
    """git config under which git diffs only the files read here (:data:`_FAMILY`) and treats
    every other file as binary (``Binary files ... differ``: no text diff is made).

    On git/git, 90% of ``git log -p``'s output for the sample is files no rule reads
    (translations, documentation, test scripts), and git's time falls from 7.5 s to 2.3 s per
    8,000 commits with the same evidence. (An include pathspec would do the same but costs git
    more than the diffs it saves.) The repository's own attributes still apply on top: they can
    only make git diff more, never change a result."""
    lines = ["* -diff"]
    lines += [f"*.{_case_free(ext)} diff" for ext in sorted(_FAMILY)]
    lines += [f"*{suffix.decode()} -diff" for suffix in _SKIPPED_SUFFIXES]
    return attributes_config(folder, "code-evidence.gitattributes", lines)


def _one_pass(git_dir: Path, shas: list[str], max_bytes: int, rows: dict,
              config: dict[str, str] | None = None, docs: dict | None = None,
              block_comments: Collection[str] = ()) -> tuple[int, str | None]:
    """Read ``shas`` in order into ``rows``, and into ``docs`` the changed lines of those whose
    code lines could all be docstrings (_docstring_candidates); (complete records, error text or
    None)."""
    args = ["log", "--no-walk=unsorted", "--stdin", f"--format={_FORMAT}", *_OPTIONS]
    proc = stream_git(git_dir, args, shas, config=config)
    # stderr drained on its own thread: a chatty git must not block on a full pipe.
    err: list[bytes] = []
    drain = threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)
    drain.start()
    seen: list[str] = []
    try:
        for sha, body in _records(proc.stdout):
            rows[sha] = (*evidence_from_patch(body, max_bytes), inline_test_paths(body))
            if docs is not None and rows[sha][3]:
                found = _docstring_candidates(body, blocks=sha in block_comments)
                if found:
                    docs[sha] = found
            seen.append(sha)
    finally:
        proc.stdout.close()
        code = proc.wait()
        drain.join()
    if code == 0:
        return len(seen), None
    # The last record may be cut short by the failure: it does not count as read.
    complete = max(0, len(seen) - 1)
    return complete, b"".join(err).decode("utf-8", "replace").strip() or f"exit {code}"


def _read_all(git_dir: Path, repo: str, todo: list[str], max_bytes: int, rows: dict,
              config: dict[str, str] | None = None, docs: dict | None = None, block_comments: Collection[str] = ()) -> None:
    while todo:
        done, error = _one_pass(git_dir, todo, max_bytes, rows, config, docs, block_comments)
        if error is None:
            break
        # git stops at a commit it cannot diff (a missing blob in a partial clone or a damaged
        # repository): output follows the input order, so that commit is the first one without
        # a complete record. It gets no evidence; the rest are read by a new pass.
        if done >= len(todo) or not _MISSING.search(error):
            raise GitError(repo, f"git log -p failed: {error}")
        rows.pop(todo[done], None)
        todo = todo[done + 1:]


# a commit git could not read
_NOTHING: tuple[list[str], list[str], int | None, int | None, list[str]] = ([], [], None, None, [])


# A commit with more changed code lines than this is not read for docstrings: a docstring edit
# is small, and reading the files of every large change would cost more than its diff.
MAX_DOCSTRING_LINES = 400
_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.M)


def _docstring_candidates(patch: bytes, max_lines: int = MAX_DOCSTRING_LINES, blocks: bool = False
                          ) -> list[tuple[str, list[int], list[int]]] | None:
    """For one commit's ``git log -p -U0`` text: (path, old line numbers, new line numbers) of the
    changed code lines (as _comment_counts counts them) of each Python or Elixir file, when every
    changed code line of the commit is in such a file, none of them docstrings.PLAIN_CODE, and
    there are at most ``max_lines`` of them; else None (no docstring can make the change
    documentation alone). With ``blocks`` (a commit whose subject speaks of documentation:
    :func:`block_comment_sample`), JavaScript and TypeScript files likewise, any of their lines
    one a block comment may hold (a JSDoc `@example`'s code)."""
    out: list[tuple[str, list[int], list[int]]] = []
    total = 0
    heads = list(_SECTION.finditer(patch))
    for n, head in enumerate(heads):
        raw = head.group(1).rstrip(b"\r")
        body = patch[head.end(): heads[n + 1].start() if n + 1 < len(heads) else len(patch)]
        language = docstrings.language_of(raw)
        if language in docstrings.BLOCK_COMMENTS and not blocks:
            language = None
        if language is None or raw.startswith(b'"'):  # (a quoted path: git escaped it)
            if _CHANGED.search(body):  # (its comments and code are counted by their own syntax)
                return None
            continue
        comment = _COMMENT_LINE["slash" if language in docstrings.BLOCK_COMMENTS else "hash"]
        old_lines: list[int] = []
        new_lines: list[int] = []
        for hunk in _HUNK.finditer(body):
            old, old_n = int(hunk.group(1)), int(hunk.group(2) or 1)
            new, new_n = int(hunk.group(3)), int(hunk.group(4) or 1)
            pos = body.find(b"\n", hunk.end()) + 1
            # -U0: the hunk's old_n deleted lines, then its new_n added ones ("\ No newline" aside)
            while (old_n or new_n) and 0 < pos < len(body):
                end = body.find(b"\n", pos)
                end = len(body) if end < 0 else end
                line = body[pos:end]
                pos = end + 1
                if line.startswith(b"-") and old_n:
                    if _CHANGED.match(line) and not comment.match(line):
                        if language not in docstrings.BLOCK_COMMENTS and docstrings.PLAIN_CODE.match(line[1:]):
                            return None
                        old_lines.append(old)
                    old, old_n = old + 1, old_n - 1
                elif line.startswith(b"+") and new_n:
                    if _CHANGED.match(line) and not comment.match(line):
                        if language not in docstrings.BLOCK_COMMENTS and docstrings.PLAIN_CODE.match(line[1:]):
                            return None
                        new_lines.append(new)
                    new, new_n = new + 1, new_n - 1
                elif not line.startswith(b"\\"):
                    break
        if not old_lines and not new_lines:
            continue
        total += len(old_lines) + len(new_lines)
        if total > max_lines:
            return None
        out.append((raw.decode("utf-8", "replace"), old_lines, new_lines))
    return out or None



MAX_DOC_FILE = 1 << 20  # bytes of a file read for its docstrings; lines past them count as code


def _count_docstrings_as_comments(git_dir: Path, rows: dict, docs: dict) -> None:
    """Changed lines inside docstrings (docstrings.docstring_lines of the file after the commit
    for added lines, before it for deleted ones) move from ``rows``' code lines to its comment
    lines, for the commits in ``docs``: one `git cat-file --batch` over their files."""
    names: list[str] = []
    wanted: list[tuple[str, str, bool]] = []  # (sha, path, before the commit)
    for sha, files in docs.items():
        for path, old_lines, new_lines in files:
            if old_lines:
                names.append(f"{sha}^:{path}")
                wanted.append((sha, path, True))
            if new_lines:
                names.append(f"{sha}:{path}")
                wanted.append((sha, path, False))
    if not names:
        return
    inside: dict[tuple[str, str, bool], set[int]] = {}
    for i, text, size in read_blobs(git_dir, names, MAX_DOC_FILE):
        if text is None:
            continue
        path = wanted[i][1]
        if size > len(text):  # (a cut file: its last, partial line is not judged)
            text = text.rsplit(b"\n", 1)[0]
        inside[wanted[i]] = docstrings.docstring_lines(docstrings.language_of(path.encode()), text)
    for sha, files in docs.items():
        moved = 0
        for path, old_lines, new_lines in files:
            moved += sum(n in inside.get((sha, path, True), ()) for n in old_lines)
            moved += sum(n in inside.get((sha, path, False), ()) for n in new_lines)
        if moved and sha in rows:  # (a commit git could not read, dropped from rows, has no evidence)
            imports, terms, comments, code, tests = rows[sha]
            rows[sha] = (imports, terms, comments + moved, code - moved, tests)


def code_evidence(
    git_dir: Path | str,
    repo: str,
    shas: Sequence[str],
    *,
    max_bytes: int = MAX_BYTES,
    workers: int | None = None,
    block_comments: Collection[str] = (),
) -> pl.DataFrame:
    """:data:`CODE_EVIDENCE_SCHEMA` rows for exactly ``shas``, in their order (merges give none);
    ``block_comments``: the shas whose JavaScript/TypeScript block comments are read from their
    files (:func:`block_comment_sample`).

    One streaming ``git log -p`` process per chunk of at least :data:`MIN_CHUNK` commits, up to
    ``workers`` (default: the CPU count) chunks read at once.

    Incremental use: keep the previous frame, pass only the shas it does not have, concatenate.
    """
    wanted = list(dict.fromkeys(shas))
    workers = max(1, min(workers or os.cpu_count() or 1, len(wanted) // MIN_CHUNK))
    chunks = contiguous_chunks(wanted, workers)  # runs of the history: git reads them fastest
    rows: dict[str, tuple[list[str], list[str], int, int, list[str]]] = {}
    docs: dict[str, list[tuple[str, list[int], list[int]]]] = {}
    with tempfile.TemporaryDirectory(prefix="exceeds-evidence-") as tmp:
        config = _diff_only_read_files(Path(tmp))
        if workers == 1:
            _read_all(Path(git_dir), repo, wanted, max_bytes, rows, config, docs, block_comments)
        else:  # git computes the diffs of each chunk in its own process, in parallel
            parts = [(dict(), dict()) for _ in chunks]
            with ThreadPoolExecutor(max_workers=workers) as pool:
                list(pool.map(lambda i: _read_all(Path(git_dir), repo, chunks[i], max_bytes, parts[i][0], config, parts[i][1],
                                                  block_comments),
                              range(len(chunks))))
            for part, part_docs in parts:
                rows.update(part)
                docs.update(part_docs)
    _count_docstrings_as_comments(Path(git_dir), rows, docs)
    return pl.DataFrame(
        {
            "repo": [repo] * len(wanted),
            "sha": wanted,
            "imports": [rows.get(s, _NOTHING)[0] for s in wanted],
            "code_terms": [rows.get(s, _NOTHING)[1] for s in wanted],
            "comment_lines": [rows.get(s, _NOTHING)[2] for s in wanted],
            "code_lines": [rows.get(s, _NOTHING)[3] for s in wanted],
            "test_paths": [rows.get(s, _NOTHING)[4] for s in wanted],
            "reader": [READER] * len(wanted),
        },
        schema=CODE_EVIDENCE_SCHEMA,
    )


def update_code_evidence(
    previous: pl.DataFrame | None, git_dir: Path | str, repo: str, shas: Sequence[str], **kwargs
) -> pl.DataFrame:
    """The evidence for exactly ``shas`` of ``repo``, reading git only for shas ``previous``
    does not have (incremental by sha); shas no longer listed (a rewritten history) drop out."""
    wanted = list(dict.fromkeys(shas))
    # a table stored before a column was added is read again, and rows of an older reading
    current = previous is not None and previous.height and set(CODE_EVIDENCE_SCHEMA) <= set(previous.columns)
    kept = (
        previous.filter((pl.col("repo") == repo) & pl.col("sha").is_in(wanted) & (pl.col("reader") == READER))
        .select(list(CODE_EVIDENCE_SCHEMA))
        .cast(CODE_EVIDENCE_SCHEMA)
        if current else pl.DataFrame(schema=CODE_EVIDENCE_SCHEMA)
    )
    have = set(kept["sha"].to_list())
    new = code_evidence(git_dir, repo, [s for s in wanted if s not in have], **kwargs)
    return pl.concat([kept, new]).unique("sha", keep="first", maintain_order=True)


SAMPLE_PER_AUTHOR = 200  # commits per author (and repository) whose added lines are read
# A change this small is read whatever its author and words: a comment edit is usually small.
# git/git: 10,606 commits beyond the sample, about 3 s of `git log -p`.
SMALL_CHANGE_LINES = 10
# A subject that speaks of comments or wording: whether the change touched only comments is
# read for each such commit (`Fix function names in zslDeleteNode() top comment` is
# documentation work, `Fixed a typo causing segfault on MIGRATE` is not). git/git: 1,249 of
# 60,751 commits, redis 595 of 10,839.
COMMENT_SUBJECT = (r"(?i)\b(?:comments?|commented|typos?|spelling|misspell\w*|grammar|grammatical|wording|reword\w*"
                   r"|docs?|docstrings?|javadoc|doxygen|clarif\w*|explain\w*|describe\w*|document\w*|annotat\w*|remarks?|notes?"
                   # (execa documents its API in the JSDoc of its .d.ts files: `Add user guides`,
                   # `Re-order sections in API reference`, `Improve examples used in types`)
                   r"|readme|guides?|reference|examples?|tutorials?|jsdoc|tsdoc)\b")
# A subject that speaks of tests: whether the change touched only tests kept inside the source
# (a Rust `mod tests`) is read for each such commit (axum's "Add websocket integration test").
# git/git: 1,389 commits beyond the sample.
TEST_SUBJECT = r"(?i)\b(?:tests?|testing|tested|unit-?tests?)\b"


def block_comment_sample(raw_commits: pl.DataFrame) -> set[str]:
    """The shas whose subject speaks of documentation or comments (:data:`COMMENT_SUBJECT`):
    their JavaScript/TypeScript files are read for the block comments the changed lines lie in
    (execa's `Add custom logging section to readme.md`: 28 lines of JSDoc, without the `*` that
    marks a comment line, in types/methods/main-async.d.ts). Not every commit's: reading the
    files of vite's sample took its code evidence from 2 s to 19 s."""
    if raw_commits.height == 0 or "subject" not in raw_commits.columns:
        return set()
    return set(raw_commits.filter(pl.col("subject").fill_null("").str.contains(COMMENT_SUBJECT))["sha"].to_list())


def evidence_sample(raw_commits: pl.DataFrame, per_author: int = SAMPLE_PER_AUTHOR, small_changes: bool = True) -> list[str]:
    """The non-merge commits whose diffs are read for code evidence: per author (mailmapped
    e-mail, case-insensitive), every commit up to `per_author`, beyond that the `per_author`
    with the smallest shas (a sha is a hash, so this is a fixed random sample that depends on
    the history alone). What someone's code uses shows in a few hundred of their commits;
    reading every diff of a 60k-commit history would cost several times the whole ingest.
    Besides, every commit whose subject speaks of comments or wording (:data:`COMMENT_SUBJECT`,
    with a ``subject`` column) or of tests (:data:`TEST_SUBJECT`: tests kept inside the source),
    and every small one (at most SMALL_CHANGE_LINES lines, with
    ``lines_added``/``lines_deleted``): whether it changed only comments decides if it is
    documentation, whatever its words say (antirez's `Add more info in the
    unblockClientFromModule() function`, a comment, had been a key feature). Without
    `small_changes`, the commits whose evidence speaks for skills: a prolific author's many
    one-line imports would outweigh the sample (requests' `import requests` in setup.py read as
    Networking).
    The shas come in the order of ``raw_commits`` (the history's), which git reads fastest."""
    if raw_commits.height == 0:
        return []
    # whether a change touched comments alone is read for these, whoever wrote them
    subject = pl.col("subject").fill_null("")
    read_for_comments = (subject.str.contains(COMMENT_SUBJECT) | subject.str.contains(TEST_SUBJECT)
                         if "subject" in raw_commits.columns else pl.lit(False))
    if small_changes and {"lines_added", "lines_deleted"} <= set(raw_commits.columns):
        read_for_comments = read_for_comments | (
            pl.col("lines_added").fill_null(0) + pl.col("lines_deleted").fill_null(0) <= SMALL_CHANGE_LINES)
    return (
        raw_commits.filter(~pl.col("is_merge"))
        .select("sha", pl.col("mailmap_email").str.to_lowercase().alias("_who"), read_for_comments.alias("_comments"))
        .filter((pl.col("sha").rank("ordinal").over("_who") <= per_author) | pl.col("_comments"))
        ["sha"].to_list()
    )
