"""lizard_delta: DMM risk-profile deltas from the changed regions equal PyDriller's whole-file ones."""

from __future__ import annotations

import difflib
import random

import pytest

from exceeds_pipeline.quality import lizard_delta
from exceeds_pipeline.quality.lizard_delta import delta_risk_profiles


def whole(filename, before, after):
    """PyDriller's own _delta_risk_profile for each property (the reference)."""
    from pydriller.domain.commit import DMMProperty, ModifiedFile

    class File(ModifiedFile):
        def __init__(self):
            super().__init__(diff=None)

        filename = property(lambda self: filename)
        language_supported = property(lambda self: True)
        source_code = property(lambda self: after or None)
        source_code_before = property(lambda self: before or None)

    f = File()
    return [f._delta_risk_profile(p) for p in
            (DMMProperty.UNIT_SIZE, DMMProperty.UNIT_COMPLEXITY, DMMProperty.UNIT_INTERFACING)]


def hunks_of(old: str, new: str) -> list[tuple[int, int, int, int]]:
    a, b = lizard_delta._lines(old), lizard_delta._lines(new)
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            out.append((i1 + 1 if i2 > i1 else i1, i2 - i1, j1 + 1 if j2 > j1 else j1, j2 - j1))
    return out


PIECES = [
    "static int f{n}(int a, int b)\n{{\n\tint x = a + b;\n\tif (x > {n})\n\t\treturn x;\n\treturn a * b;\n}}\n",
    "struct s{n} {{\n\tint a;\n\tchar *name;\n}};\n",
    "#define M{n}(x) \\\n\tdo {{ \\\n\t\tfoo(x); \\\n\t}} while (0)\n",
    "/* a comment with a brace }} and {{ */\nint g{n}(void);\n",
    "static const char *msg{n} = \"}}\\n{{\";\n",
    "int big{n}(int a, int b, int c, int d)\n{{\n\tint i, s = 0;\n\tfor (i = 0; i < a; i++) {{\n\t\tif (i % 2 && b)\n\t\t\ts += i;\n\t\telse if (c || d)\n\t\t\ts -= i;\n\t\tswitch (i) {{\n\t\tcase 1: s++; break;\n\t\tcase 2: s--; break;\n\t\t}}\n\t}}\n\treturn s ? s : -1;\n}}\n",
    "#if defined(X{n})\nint h{n}(int a) {{ return a; }}\n#else\nint h{n}(int a)\n{{\n\treturn -a;\n}}\n#endif\n",
    "int kr{n}(a, b)\nint a;\nint b;\n{{\n\treturn a + b;\n}}\n",
    "static struct s{n} table{n}[] = {{\n\t{{ 1, \"a\" }},\n\t{{ 2, \"b\" }},\n}};\n",
    "int q{n}(int a)\n{{\n\treturn a;\n}} /* the end of q\nint fake{n}(int a, int b, int c) {{ if (a) return b; return c; }}\n*/\n",
    "\n",
]


def c_file(rng: random.Random, count: int) -> list[str]:
    return [rng.choice(PIECES).format(n=i) for i in range(count)]


def edit(rng: random.Random, pieces: list[str]) -> list[str]:
    out = list(pieces)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(out))
        kind = rng.randrange(5)
        if kind == 0:  # grow a function body
            out[i] = out[i].replace("\treturn", "\tif (a > 3 && b < 2)\n\t\ta++;\n\treturn", 1)
        elif kind == 1:  # delete a piece
            del out[i]
        elif kind == 2:  # add a piece
            out.insert(i, rng.choice(PIECES).format(n=1000 + i))
        elif kind == 3:  # change a line in place
            out[i] = out[i].replace("a + b", "a - b", 1).replace("int a;", "long a;", 1)
        else:  # open a comment that swallows a closing brace line
            out[i] = out[i].replace("{\n", "{ /* begin\n}\n end */\n", 1)
    return out


@pytest.mark.parametrize("seed", range(60))
def test_region_deltas_equal_pydriller_on_random_c_edits(seed):
    rng = random.Random(seed)
    pieces = c_file(rng, 60)
    before = "".join(pieces)
    after = "".join(edit(rng, pieces))
    expected = whole("x.c", before, after)
    assert delta_risk_profiles("x.c", before, after) == expected
    assert delta_risk_profiles("x.c", before, after, hunks_of(before, after)) == expected


def test_the_region_reading_reads_less_and_bad_hunks_fall_back():
    rng = random.Random(7)
    pieces = c_file(rng, 80)
    before = "".join(pieces)
    changed = list(pieces)
    changed[40] = PIECES[5].format(n=999)  # one function replaced in the middle
    after = "".join(changed)
    region = lizard_delta._changed_region_functions("x.c", before, after, hunks_of(before, after))
    assert region is not None
    old_region, new_region = region
    assert 0 < len(old_region) < 10 and 0 < len(new_region) < 10  # not the file's ~50 functions
    expected = whole("x.c", before, after)
    assert expected != [(0, 0)] * 3
    assert delta_risk_profiles("x.c", before, after) == expected
    # hunks that do not fit the texts are checked and ignored
    assert delta_risk_profiles("x.c", before, after, [(3, 1, 3, 1)]) == expected
    assert delta_risk_profiles("x.c", before, after, [(41, 2, 41, 9), (70, 0, 78, 4)]) == expected


def test_other_languages_small_files_and_missing_sides_are_read_whole():
    py_before = "".join(f"def f{i}(a, b):\n    if a:\n        return b\n    return a\n\n" for i in range(60))
    py_after = py_before.replace("return b\n", "return b + 1 if a and b else b\n", 3)
    assert not lizard_delta.region_reader_applies("x.py")
    assert delta_risk_profiles("x.py", py_before, py_after) == whole("x.py", py_before, py_after)
    small_before = "int f(int a)\n{\n\treturn a;\n}\n"
    small_after = "int f(int a)\n{\n\tif (a)\n\t\treturn 1;\n\treturn a;\n}\n"
    assert delta_risk_profiles("x.c", small_before, small_after) == whole("x.c", small_before, small_after) != [(0, 0)] * 3
    assert delta_risk_profiles("x.c", None, small_after) == whole("x.c", None, small_after)
    assert delta_risk_profiles("x.c", small_before, "") == whole("x.c", small_before, "")
    crlf = "".join(PIECES[0].format(n=i) for i in range(40)).replace("\n", "\r\n")
    assert delta_risk_profiles("x.c", crlf, crlf.replace("a * b", "a / b", 1)) == whole("x.c", crlf, crlf.replace("a * b", "a / b", 1))


def test_the_reading_starts_after_the_last_top_level_block_of_the_shared_top():
    lines = lizard_delta._lines(
        "int f(int a)\n{\n\treturn a;\n}\n"                      # 0-3: a top-level block ends at 3
        "/* a comment\n}\n */\n"                                  # 4-6: a brace line in a comment
        "static const char *s = \"\\n}\\n\";\n"                  # 7: braces in a string
        "struct t {\n\tint a;\n};\n"                              # 8-10: ends at 10
        "int g(void)\n{\n\tif (x) {\n\t\ty();\n\t}\n\treturn 0;\n}\n"  # 11-17: an inner `}` at 15
    )
    assert lizard_delta._top_level_start(lines, 4) == 4
    assert lizard_delta._top_level_start(lines, 10) == 4  # the comment's and the string's braces do not count
    assert lizard_delta._top_level_start(lines, 11) == 11
    assert lizard_delta._top_level_start(lines, 17) == 11  # inside g: its inner block is not top level
    assert lizard_delta._top_level_start(lines, len(lines)) == 18
    # #if/#else branches that each open the block: nothing after them qualifies
    branches = lizard_delta._lines("#if X\nint h(void) {\n#else\nint h(int a) {\n#endif\n\treturn 1;\n}\nint k;\n")
    assert lizard_delta._top_level_start(branches, len(branches)) == 0
    assert lizard_delta._top_level_start(lizard_delta._lines("}\nint a;\n"), 2) == 0
