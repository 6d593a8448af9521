"""Documentation written as strings: Python docstrings and Elixir's ``@doc``/``@moduledoc``; and
JavaScript/TypeScript block comments, whose JSDoc lines need no leading `*` (execa's API reference
in its .d.ts files: `@example` blocks of plain code lines).

A change of a docstring alone is documentation work, as a change of comments alone is (rich's
`ws`, "in to" -> "into" in two docstrings, read as a fix; ecto's `@doc` rewrites read as
refactorings). A ``-U0`` diff does not show whether a changed line lies inside a docstring (its
opening quotes are usually out of the hunk), so the file itself is read: code_evidence picks,
from one commit's patch, the changed code lines of the files that can hold such strings
(:func:`language_of`, none of them PLAIN_CODE), and :func:`docstring_lines` says which lines of
a file's text lie inside one.

Only the strings a reader takes for documentation count: in Python a string that is a statement
of its own (a module, class or function docstring, an attribute's docstring) and opens its line;
not a string assigned or passed (`query = \"\"\"...`), whose change is code. In Elixir the
strings of ``@moduledoc``, ``@doc``, ``@typedoc`` and ``@shortdoc``. In JavaScript and TypeScript
the lines of a `/* ... */` block (outside strings, template literals and line comments).
"""

from __future__ import annotations

import re

__all__ = ["BLOCK_COMMENTS", "PLAIN_CODE", "docstring_lines", "language_of"]

_LANGUAGE = {b"py": "python", b"pyi": "python", b"ex": "elixir", b"exs": "elixir",
             **dict.fromkeys((b"js", b"jsx", b"ts", b"tsx", b"mjs", b"cjs", b"mts", b"cts"), "js")}
# Languages whose documentation is a block comment: an example's code lines inside it are no
# plain code (PLAIN_CODE is not asked of them).
BLOCK_COMMENTS = frozenset({"js"})


def language_of(path: bytes) -> str | None:
    """python | elixir | js for a path whose files can hold documentation strings or block
    comments, else None."""
    name = path.rsplit(b"/", 1)[-1]
    return _LANGUAGE.get(name.rsplit(b".", 1)[-1].lower()) if b"." in name else None


# A line no docstring holds: a definition, a statement or an assignment (`def f(x):`, `return x`,
# `self.x = 1`, `end`, `|> Repo.all()`). A commit with one is not read for docstrings: most
# commits are code, and reading their files would cost more than their diffs.
PLAIN_CODE = re.compile(
    rb"^[ \t]*(?:(?:async[ \t]+)?def[ \t]+\w+[ \t]*\(|class[ \t]+\w+[ \t]*[(:]|(?:if|elif|while|for|with|try|except|else|finally)\b[^\n]*:[ \t]*$"
    rb"|(?:return|import|from|raise|yield|assert|del|pass|break|continue|defp?|defmodule|defmacrop?|alias|use|require)\b"
    rb"|end[ \t]*$|[\w.]+(?:\[[^\]\n]*\])?[ \t]*(?:[-+*/|&^%]|//|\*\*)?=(?!=)|\|>|[\w.]+\([^\n]*\)[ \t]*,?[ \t]*$|@\w+(?:\.\w+)*(?:\(|[ \t]*$))"
)


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


def _block_comments(text: bytes) -> set[int]:
    """The lines of a JavaScript/TypeScript text inside `/* ... */` blocks, the opening and
    closing lines included (a `/*` inside a string, a template literal or a `//` comment opens
    none)."""
    inside: set[int] = set()
    line, i, n = 1, 0, len(text)
    quote: int | None = None
    while i < n:
        c = text[i]
        if c == 0x0A:
            line += 1
            if quote in (0x22, 0x27):  # (an unclosed quote ends with its line)
                quote = None
        elif quote is not None:
            if c == 0x5C:
                i += 1
            elif c == quote:
                quote = None
        elif c in (0x22, 0x27, 0x60):
            quote = c
        elif c == 0x2F and text[i + 1:i + 2] == b"/":
            end = text.find(b"\n", i)
            i = n if end < 0 else end
            continue
        elif c == 0x2F and text[i + 1:i + 2] == b"*":
            end = text.find(b"*/", i + 2)
            end = n if end < 0 else end + 2
            last = line + text.count(b"\n", i, end)
            inside.update(range(line, last + 1))
            line, i = last, end
            continue
        i += 1
    return inside


def docstring_lines(language: str, text: bytes) -> set[int]:
    """The 1-based numbers of the lines of ``text`` (a python, elixir or js file) that lie inside
    a documentation string or block comment, its opening and closing lines included."""
    if language == "js":
        return _block_comments(text)
    lines = text.split(b"\n")
    return _python(lines) if language == "python" else _elixir(lines)
