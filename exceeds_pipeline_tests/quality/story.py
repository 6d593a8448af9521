"""A scripted repository shared by the quality and profile tests."""

from __future__ import annotations

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline_tests.quality.gitframes import read_repo

ADA = ("Ada Lovelace", "ada@example.com")
BOB = ("Bob Builder", "bob@example.org")
PEOPLE = {ADA[1]: "ada", BOB[1]: "bob"}

PARSER = '''def parse(text):
    return [t for t in text.split() if t]


def parse_int(text):
    return int(text)
'''
LEXER = '''def lex(text):
    tokens = []
    for ch in text:
        tokens.append(ch)
    return tokens[0]
'''
LEXER_FIXED = '''def lex(text):
    tokens = []
    for ch in text:
        tokens.append(ch)
    return tokens[0] if tokens else None
'''
CACHE = '''CACHE = {}


def cached(key, make):
    if key not in CACHE:
        CACHE[key] = make()
    return CACHE[key]
'''
UTIL = '''def clamp(x, lo, hi):
    return max(lo, min(hi, x))
'''
TEST_UTIL = '''from src.util import clamp


def test_clamp():
    assert clamp(5, 0, 3) == 3
'''
COMPLEX = "def decide(a, b, c, d, e, f):\n" + "".join(
    f"    if a == {i}:\n        return b + {i}\n    elif c == {i} and d:\n        return e or {i}\n" for i in range(12)
) + "    return f\n"


def build_story(path):
    """A small repository with a reverted feature, a fix SZZ traces back, tests beside code.

    Returns (repo, {name: sha}, commits, file_changes)."""
    repo = GitScript.init(path)
    s = {}
    s["parser"] = repo.commit("Add parser", author=ADA, date="2025-01-06T10:00:00+0100",
                              files={"src/parser.py": PARSER})
    s["lexer"] = repo.commit("Add lexer", author=BOB, date="2025-01-08T10:00:00+0000",
                             files={"src/lexer.py": LEXER})
    s["cache"] = repo.commit("Add cache", author=ADA, date="2025-01-10T10:00:00+0100",
                             files={"src/cache.py": CACHE})
    s["revert"] = repo.revert(s["cache"], author=BOB, date="2025-01-13T10:00:00+0000")
    s["fix"] = repo.commit("Fix crash in lexer on empty input", author=ADA, date="2025-01-15T10:00:00+0100",
                           files={"src/lexer.py": LEXER_FIXED})
    s["util"] = repo.commit("Add clamp with tests", author=ADA, date="2025-01-20T10:00:00+0100",
                            files={"src/util.py": UTIL, "tests/test_util.py": TEST_UTIL})
    s["complex"] = repo.commit("Add decision table", author=ADA, date="2025-03-01T10:00:00+0100",
                               files={"src/complex.py": COMPLEX})
    s["docs"] = repo.commit("Describe the library", author=BOB, date="2025-04-01T10:00:00+0000",
                            files={"README.md": "# lib\n"})
    categories = {s["parser"]: "feature", s["lexer"]: "feature", s["cache"]: "feature", s["revert"]: "revert",
                  s["fix"]: "bug", s["util"]: "feature", s["complex"]: "feature", s["docs"]: "docs"}
    items = {sha: f"item-{name}" for name, sha in s.items()}
    commits, files = read_repo(repo, "acme/lib", PEOPLE, categories, items, ai={s["util"]: "Claude Code"})
    return repo, s, commits, files
