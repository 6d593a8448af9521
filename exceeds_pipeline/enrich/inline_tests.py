"""Tests written inside a source file: which files of a diff changed only their test modules.

Rust keeps unit tests in the file they test, in a ``#[cfg(test)] mod tests { … }`` block; a
change of only those lines is test work, however its subject reads (axum's "Add websocket
integration test" and "Use tower-http's `TimeoutLayer`", both in ``mod tests`` of
``src/*.rs``, had read as a feature and a fix). The file's path says nothing of it.

The reading is of ``git log -p -U0`` text, where each hunk header ends with the nearest line
above the hunk that starts a top-level item (git's default "function" line: a line that
starts with a letter, ``_`` or ``$``). rustfmt indents everything inside a module, so a hunk
inside a test module is headed by the module's own ``mod tests {`` line. Within a hunk, a
changed ``mod tests {`` line opens the module and a changed ``}`` at the start of a line closes
it. Anything else at the start of a line is a top-level item outside the tests. Where a
repository's own attributes give Rust files another diff driver (``diff=rust``), headers name
functions instead and nothing is found: the rule then says nothing, never something wrong.
"""

from __future__ import annotations

import re

__all__ = ["INLINE_TEST_SUFFIXES", "hunk_opens_test_module", "in_test_module", "only_test_modules"]

# The files read for inline tests: Rust sources.
INLINE_TEST_SUFFIXES = (b".rs",)

_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$")
# `mod tests {`, `pub(crate) mod test_utils {`, `mod parser_tests {`; `mod tests;` declares one
# kept in its own file (whose path says test).
_TEST_MODULE = re.compile(rb"^(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+(?:tests?|\w+_tests?|tests?_\w+)[ \t]*(\{|;)")
_TEST_ATTRIBUTE = re.compile(rb"^#\[cfg\((?:all\(|any\()?test\b")


def hunk_opens_test_module(context: bytes) -> bool:
    """Whether a hunk whose header ends with ``context`` (the text after its second ``@@``)
    starts inside a test module."""
    m = _TEST_MODULE.match(context.lstrip(b" "))
    return m is not None and m.group(1) == b"{"


def in_test_module(inside: bool, text: bytes) -> tuple[bool, bool]:
    """(whether the changed line ``text``, not blank, is test code; whether the lines after it
    on its side of the diff are inside a test module), given whether the line before was."""
    if (m := _TEST_MODULE.match(text)):
        return True, m.group(1) == b"{"
    if _TEST_ATTRIBUTE.match(text):
        return True, inside  # the attribute of a test module (what follows it decides)
    if inside:
        if text[:1] == b"}":  # the module's closing brace
            return True, False
        if text[:1] in (b" ", b"\t"):
            return True, True
    return False, False  # a top-level line outside every test module


def only_test_modules(section: bytes) -> bool:
    """Whether every changed line (added or deleted, not blank) of one file's section of a
    ``-U0`` diff lies in a test module, and there is at least one."""
    changed = 0
    inside: dict[bytes, bool] | None = None  # per side of the diff: in a test module
    for line in section.split(b"\n"):
        hunk = _HUNK.match(line)
        if hunk:
            opened = hunk_opens_test_module(hunk.group(1))
            inside = {b"-": opened, b"+": opened}
            continue
        side = line[:1]
        if inside is None or side not in (b"+", b"-"):
            if line.startswith(b"diff "):
                inside = None  # the next file's headers
            continue
        text = line[1:]
        if not text.strip():
            continue
        changed += 1
        test, inside[side] = in_test_module(inside[side], text)
        if not test:
            return False
    return changed > 0
