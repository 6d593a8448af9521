"""Path globs as regular expressions (Rust regex syntax, so Polars and `re` read them alike):
the one translator for skill rules, exclusion rules and anything else matching paths."""

from __future__ import annotations

import re


def glob_to_regex(glob: str) -> str:
    """Translate a path glob (see skills.yaml) into a case-insensitive regex over the path."""
    if "/" not in glob.rstrip("/"):
        prefix, body = "(?:^|/)", glob
    elif glob.startswith("**/"):
        prefix, body = "(?:^|/)", glob[3:]
    else:
        prefix, body = "^", glob.lstrip("/")
    out: list[str] = []
    i, depth = 0, 0
    while i < len(body):
        ch = body[i]
        if body.startswith("/**", i) and (i + 3 == len(body)):
            out.append("/.*")
            i += 3
            continue
        if body.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if body.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "{":
            depth += 1
            out.append("(?:")
        elif ch == "}" and depth:
            depth -= 1
            out.append(")")
        elif ch == "," and depth:
            out.append("|")
        elif ch in "[]":
            raise ValueError(f"glob {glob!r}: character classes [...] are not supported; use path_regex")
        else:
            out.append(re.escape(ch))
        i += 1
    if depth:
        raise ValueError(f"glob {glob!r}: unbalanced '{{'")
    return f"(?i:{prefix}{''.join(out)}$)"
