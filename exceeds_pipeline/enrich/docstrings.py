"""Documentation written as strings: Python docstrings and Elixir's ``@doc``/``@moduledoc``.

A change of a docstring alone is documentation work, as a change of comments alone is (rich's
`ws`, "in to" -> "into" in two docstrings, read as a fix; ecto's `@doc` rewrites read as
refactorings). A ``-U0`` diff does not show whether a changed line lies inside a docstring (its
opening quotes are usually out of the hunk), so the file itself is read: :func:`candidates`
picks, from one commit's patch, the changed code lines of the files that can hold such strings,
and :func:`docstring_lines` says which lines of a file's text lie inside one.

Only the strings a reader takes for documentation count: in Python a string that is a statement
of its own (a module, class or function docstring, an attribute's docstring) and opens its line;
not a string assigned or passed (`query = \"\"\"...`), whose change is code. In Elixir the
strings of ``@moduledoc``, ``@doc``, ``@typedoc`` and ``@shortdoc``.
"""

from __future__ import annotations

import re

__all__ = ["MAX_CANDIDATE_LINES", "candidates", "docstring_lines", "language_of"]

# A commit with more changed code lines than this is not read for docstrings: a docstring edit
# is small, and reading the files of every large change would cost more than its diff.
MAX_CANDIDATE_LINES = 200

_LANGUAGE = {b"py": "python", b"pyi": "python", b"ex": "elixir", b"exs": "elixir"}
_SECTION = re.compile(rb"^\+\+\+ (?:b/)?(.*)$", re.M)
_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.M)
_COMMENT = re.compile(rb"^\s*#(?!!)")
_CHANGED = re.compile(rb"^[+-](?!\+\+ |-- )[ \t]*\S", re.M)


def language_of(path: bytes) -> str | None:
    """python | elixir for a path whose files can hold documentation strings, else None."""
    name = path.rsplit(b"/", 1)[-1]
    return _LANGUAGE.get(name.rsplit(b".", 1)[-1].lower()) if b"." in name else None


def _code(line: bytes) -> bool:
    """A changed line that counts as code where comments are `#` lines (code_evidence's rule)."""
    return bool(line.strip()) and not _COMMENT.match(line)


# A line no docstring holds: a definition, a statement or an assignment (`def f(x):`, `return x`,
# `self.x = 1`, `end`, `|> Repo.all()`). A commit with one is not read for docstrings: most
# commits are code, and reading their files would cost more than their diffs.
_PLAIN_CODE = re.compile(
    rb"^[ \t]*(?:(?:async[ \t]+)?def[ \t]+\w+[ \t]*\(|class[ \t]+\w+[ \t]*[(:]|(?:if|elif|while|for|with|try|except|else|finally)\b[^\n]*:[ \t]*$"
    rb"|(?:return|import|from|raise|yield|assert|del|pass|break|continue|defp?|defmodule|defmacrop?|alias|use|require)\b"
    rb"|end[ \t]*$|[\w.]+(?:\[[^\]\n]*\])?[ \t]*(?:[-+*/|&^%]|//|\*\*)?=(?!=)|\|>|[\w.]+\([^\n]*\)[ \t]*,?[ \t]*$|@\w+(?:\.\w+)*(?:\(|[ \t]*$))"
)


def candidates(patch: bytes, max_lines: int = MAX_CANDIDATE_LINES) -> list[tuple[str, list[int], list[int]]] | None:
    """For one commit's ``git log -p -U0`` text: (path, old line numbers, new line numbers) of the
    changed code lines of each Python or Elixir file, when every changed code line of the commit
    is in such a file and there are at most ``max_lines`` of them; else None (no docstring can
    make the change documentation alone)."""
    out: list[tuple[str, list[int], list[int]]] = []
    total = 0
    heads = list(_SECTION.finditer(patch))
    for n, head in enumerate(heads):
        raw = head.group(1).rstrip(b"\r")
        body = patch[head.end(): heads[n + 1].start() if n + 1 < len(heads) else len(patch)]
        if language_of(raw) is None or raw.startswith(b'"'):  # (a quoted path: git escaped it)
            if _CHANGED.search(body):  # (its comments and code are code_evidence's to count)
                return None
            continue
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
                    if _code(line[1:]):
                        if _PLAIN_CODE.match(line[1:]):
                            return None
                        old_lines.append(old)
                    old, old_n = old + 1, old_n - 1
                elif line.startswith(b"+") and new_n:
                    if _code(line[1:]):
                        if _PLAIN_CODE.match(line[1:]):
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


_PY_DOC_OPEN = re.compile(rb"^[ \t]*[rRuU]?(\"\"\"|''')")
_PY_TRIPLE = re.compile(rb"\"\"\"|'''")
_PY_DEF = re.compile(rb"^[ \t]*(?:async[ \t]+def|def|class)\b.*:[ \t]*(?:#.*)?$")
_PY_ONE_LINE = re.compile(rb"^[ \t]*[rRuU]?(\"|')(?:[^\\\n]|\\.)*?\1[ \t]*$")
_EX_DOC = re.compile(rb"^[ \t]*@(?:moduledoc|doc|typedoc|shortdoc)[ \t]+(?:~[sS])?(\"\"\"|'''|\"|')")
_EX_HEREDOC = re.compile(rb"(\"\"\"|''')[ \t]*$")


def _python(lines: list[bytes]) -> set[int]:
    doc: set[int] = set()
    quote: bytes | None = None  # inside a triple-quoted string: its quotes
    inside_doc = False
    previous = b""
    for i, line in enumerate(lines, 1):
        if quote is not None:
            if inside_doc:
                doc.add(i)
            if quote in line:
                quote = None
            continue
        opened = _PY_DOC_OPEN.match(line)
        if opened:
            doc.add(i)
            q = opened.group(1)
            if q not in line[opened.end():]:
                quote, inside_doc = q, True
        elif _PY_ONE_LINE.match(line) and _PY_DEF.match(previous):
            doc.add(i)  # `def f():` then `"Return the frame."`
        else:
            code = line.split(b"#", 1)[0] if b"#" in line and not _PY_TRIPLE.search(line.split(b"#", 1)[0]) else line
            found = _PY_TRIPLE.findall(code)
            for q in (b'"""', b"'''"):
                if found and found[0] == q and found.count(q) % 2 == 1:
                    quote, inside_doc = q, False  # a string assigned or passed, left open
        if line.strip():
            previous = line
    return doc


def _elixir(lines: list[bytes]) -> set[int]:
    doc: set[int] = set()
    quote: bytes | None = None
    inside_doc = False
    for i, line in enumerate(lines, 1):
        if quote is not None:
            if inside_doc:
                doc.add(i)
            if line.lstrip().startswith(quote):
                quote = None
            continue
        opened = _EX_DOC.match(line)
        if opened:
            doc.add(i)
            if opened.group(1) in (b'"""', b"'''"):
                quote, inside_doc = opened.group(1), True
        else:
            heredoc = _EX_HEREDOC.search(line)
            if heredoc:
                quote, inside_doc = heredoc.group(1), False
    return doc


def docstring_lines(language: str, text: bytes) -> set[int]:
    """The 1-based numbers of the lines of ``text`` (a python or elixir file) that lie inside a
    documentation string, its opening and closing lines included."""
    lines = text.split(b"\n")
    return _python(lines) if language == "python" else _elixir(lines)
