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
    js_before = "".join(f"function f{i}(a, b) {{\n  if (a) {{\n    return b;\n  }}\n  return a;\n}}\n" for i in range(60))
    js_after = js_before.replace("return b;\n", "if (b) {\n      b++;\n    }\n    return b;\n", 3)
    assert not lizard_delta.region_reader_applies("x.js") and not lizard_delta.chunk_reader_applies("x.js")
    assert delta_risk_profiles("x.js", js_before, js_after) == whole("x.js", js_before, js_after) != [(0, 0)] * 3
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


PY_PIECES = [
    "def f{n}(a, b):\n    x = a + b\n    if x > {n}:\n        return x\n    return a * b\n\n\n",
    "@decorator({n})\n@other\ndef g{n}(a, b, c=(1,\n        2), *args):\n    return [i for i in args if i and a or b]\n\n",
    "class C{n}(Base):\n    \"\"\"A class.\"\"\"\n\n    def m(self, a):\n        for i in a:\n            if i:\n                yield i\n\n"
    "    @property\n    def p(self):\n        return self._p\n\n",
    "TEXT{n} = \"\"\"\ndef not_a_function(a, b, c, d):\n    if a: pass\nclass NotAClass:\n\"\"\"\n",
    "CALL{n} = call(\n    1,\n    2,\n)\n",
    "def h{n}(a):\n    return (a\n\n            if a else None)\n\n",
    "async def k{n}(a, b, c, d):\n    async with a as x:\n        while b and c:\n            await d\n    \"\"\"a note\n\n    \"\"\"\n    return x\n\n",
    "# a comment: def fake(a, b, c): ( [\nVALUE{n} = {{'k': [1, 2]}}\n",
    "def one{n}(a): return a\n",
    "if __name__ == '__main__':\n    main({n})\n",
    "\n",
]


def py_edit(rng: random.Random, pieces: list[str]) -> list[str]:
    out = list(pieces)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(out))
        kind = rng.randrange(5)
        if kind == 0:  # grow a function body
            out[i] = out[i].replace("    return", "    if a and b:\n        a += 1\n    return", 1)
        elif kind == 1:  # delete a piece
            del out[i]
        elif kind == 2:  # add a piece
            out.insert(i, rng.choice(PY_PIECES).format(n=1000 + i))
        elif kind == 3:  # change a line in place
            out[i] = out[i].replace("a + b", "a - b", 1).replace("(a, b)", "(a, b, c)", 1)
        else:  # open a string that swallows the definitions below it, up to its end
            out[i] = out[i].replace("\n", '\nS = """\n', 1) + '"""\n'
    return out


@pytest.mark.parametrize("seed", range(60))
def test_chunk_deltas_equal_pydriller_on_random_python_edits(seed):
    rng = random.Random(seed)
    pieces = [rng.choice(PY_PIECES).format(n=i) for i in range(60)]
    before = "".join(pieces)
    after = "".join(py_edit(rng, pieces))
    assert delta_risk_profiles("x.py", before, after) == whole("x.py", before, after)


def test_python_reads_only_the_changed_top_level_chunks():
    pieces = [PY_PIECES[i % 3].format(n=i) for i in range(60)]
    before = "".join(pieces)
    changed = list(pieces)
    changed[31] = changed[31].replace("return [i", "return a if b else [i")  # one function grows a branch
    after = "".join(changed)
    old, new = lizard_delta._changed_chunk_functions("x.py", before, after)
    assert [f.name for f in old] == [f.name for f in new] == ["g31"]  # not the file's ~80 functions
    expected = whole("x.py", before, after)
    assert expected != [(0, 0)] * 3
    assert delta_risk_profiles("x.py", before, after) == expected
    # the cuts: top-level definitions and decorators after an indented line, not what strings,
    # brackets or comments hold, and not after a line at column 0 (`def one5(a): return a` is
    # pending until the next indented line: f6's body)
    text = "".join(PY_PIECES[i].format(n=n) for n, i in enumerate([3, 7, 0, 1, 8, 0, 2], start=1))
    chunks = lizard_delta._python_chunks(text)
    assert [c.split("\n")[0] for c in chunks] == ['TEXT1 = """', "@decorator(4)", "def one5(a): return a", "class C7(Base):"]
    assert "".join(chunks) == text
    # a lizard directive, or a CR, keeps the whole reading
    assert lizard_delta._changed_chunk_functions("x.py", "#lizard forgive\n" + before, "#lizard forgive\n" + after) is None


GO_PIECES = [
    "// F{n} does a thing.\nfunc F{n}(a, b int) int {{\n\tx := a + b\n\tif x > {n} {{\n\t\treturn x\n\t}}\n\treturn a * b\n}}\n\n",
    "func (r *Repo) M{n}(ctx context.Context, id string) (*Item, error) {{\n\tfor _, i := range r.items {{\n\t\tif i.ID == id && ctx != nil {{\n\t\t\treturn i, nil\n\t\t}}\n\t}}\n\treturn nil, errors.New(\"}} not found\")\n}}\n\n",
    "type T{n} struct {{\n\tA int `json:\"a\"`\n\tB func(int) int\n}}\n\n",
    "type I{n} interface {{\n\tGet(id string) (int, error)\n}}\n\n",
    "var tmpl{n} = `\n}}\nfunc fake{n}(a, b, c, d int) {{ if a > b {{ return }} }}\n`\n\n",
    "/* a block comment\n}}\nfunc fake{n}() {{\n*/\nconst C{n} = {n}\n\n",
    "var handler{n} = func(a, b, c int) int {{\n\tswitch {{\n\tcase a > b:\n\t\treturn a\n\tcase b > c:\n\t\treturn b\n\t}}\n\treturn c\n}}\n\n",
    "func Generic{n}[T any](xs []T, f func(T) bool) []T {{\n\tvar out []T\n\tfor _, x := range xs {{\n\t\tif f(x) {{\n\t\t\tout = append(out, x)\n\t\t}}\n\t}}\n\treturn out\n}}\n\n",
    "var (\n\tv{n} = map[string]int{{\n\t\t\"a\": 1,\n\t}}\n\tw{n} = func() int {{ return {n} }}\n)\n\n",
    "func init() {{ register({n}, func(x int) int {{\n\tif x > 0 {{\n\t\treturn x\n\t}}\n\treturn -x\n}}) }}\n\n",
    "\n",
]


def go_edit(rng: random.Random, pieces: list[str]) -> list[str]:
    out = list(pieces)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(out))
        kind = rng.randrange(5)
        if kind == 0:  # grow a function body
            out[i] = out[i].replace("\treturn", "\tif a > 3 && b < 2 {\n\t\ta++\n\t}\n\treturn", 1)
        elif kind == 1:  # delete a piece
            del out[i]
        elif kind == 2:  # add a piece
            out.insert(i, rng.choice(GO_PIECES).format(n=1000 + i))
        elif kind == 3:  # change a line in place
            out[i] = out[i].replace("a + b", "a - b", 1).replace("(a, b int)", "(a, b, c int)", 1)
        else:  # open a raw string that swallows what follows, up to its end
            out[i] = out[i].replace("\n", "\nvar s = `\n", 1) + "`\n"
    return out


@pytest.mark.parametrize("seed", range(60))
def test_chunk_deltas_equal_pydriller_on_random_go_edits(seed):
    rng = random.Random(seed)
    pieces = ["package p\n\n"] + [rng.choice(GO_PIECES).format(n=i) for i in range(60)]
    before = "".join(pieces)
    after = "".join(go_edit(rng, pieces))
    assert delta_risk_profiles("x.go", before, after) == whole("x.go", before, after)


def test_go_reads_only_the_changed_top_level_chunks():
    pieces = ["package p\n\n"] + [GO_PIECES[i % 3].format(n=i) for i in range(60)]
    before = "".join(pieces)
    changed = list(pieces)
    changed[32] = changed[32].replace("\treturn nil, errors", "\tif r == nil {\n\t\treturn nil, nil\n\t}\n\treturn nil, errors")
    after = "".join(changed)
    old, new = lizard_delta._changed_chunk_functions("x.go", before, after)
    assert [f.name for f in old] == [f.name for f in new] == ["M31"]  # not the file's 40 functions
    expected = whole("x.go", before, after)
    assert expected != [(0, 0)] * 3
    assert delta_risk_profiles("x.go", before, after) == expected
    # cuts only after a top-level block's `}`: not inside raw strings or comments
    # and not after a line that is not a lone `}` (a raw string's end, a constant, a `)`)
    text = "package p\n\n" + "".join(GO_PIECES[i].format(n=n) for n, i in enumerate([0, 4, 1, 0, 5, 2, 3, 8, 7]))
    assert [c.split("\n")[0] for c in lizard_delta._go_chunks(text)] == [
        "package p", "func F3(a, b int) int {", "type I6 interface {"]
    assert "".join(lizard_delta._go_chunks(text)) == text
    # a `}` that closes nothing: no chunks at all (lizard's reader is then in a state of its own)
    assert lizard_delta._go_chunks("package p\n}\n" + text) is None


# Texts found by fuzzing the chunk rules, each at the end of a file long enough to be chunked. The
# edit adds an `if` to the last function `g`, below the case.
PY_PAD = "".join(f"def pad{i}(a):\n    return a\n\n" for i in range(60))
GO_PAD = "package p\n\n" + "".join(f"func pad{i}(a int) int {{\n\treturn a\n}}\n\n" for i in range(40))
PY_G, GO_G = "def g(x):\n    return x\n", "func g(x int) int {\n\treturn x\n}\n"
PY_IF = ("    return x\n", "    if x:\n        x += 1\n    return x\n")
GO_IF = ("\treturn x\n", "\tif x > 0 {\n\t\tx++\n\t}\n\treturn x\n")

CHUNKED_AS_LIZARD_READS = {
    # a backslash continuation inside brackets, before a def inside a triple-quoted string
    "x.py": [PY_PAD + 'def test_x():\n    check(\n        """\ndef f(x):\n    return x\n""", \\\n        1)\n' + PY_G,
             # a backslash-newline inside a one-quote string: the string goes on (as in lizard)
             PY_PAD + 'HELP = "usage: \\\n[opts]" + """\n    text\ndef f(x):\n    return x\n"""\n' + PY_G],
    # a declaration without a body (assembly) waits for the next `{` not after `interface`
    "x.go": [GO_PAD + "func memmove(dst, src unsafe.Pointer, n uintptr)\n\ntype I interface {\n\tM()\n}\n\n" + GO_G,
             GO_PAD + "func memmove(dst, src unsafe.Pointer, n uintptr)\n\ntype T struct {\n\tx int\n}\n\n" + GO_G,
             # `interface{}` in a return type is not the body
             GO_PAD + "func f() map[string]interface{} {\n\treturn nil\n}\n\n" + GO_G],
}

NOT_CHUNKED = {
    "x.py": [
        "# AUTO-GENERATED CODE, edit with care\n" + PY_PAD + PY_G,  # lizard stops reading there
        PY_PAD + "class A:\n    def m(self)\n" + PY_G,  # a def header without its colon
        PY_PAD + "def f(a: List[int)):\n    return a\n\n" + PY_G,  # a bracket closing another kind
        PY_PAD + "def f(a):\n    return 'it\n\n" + PY_G,  # a quote that opens no string
        PY_PAD + "def f(a):\n    return a)\n\n" + PY_G,  # a bracket closing none
    ],
    "x.go": [
        "// AUTO-GENERATED CODE, edit with care\n" + GO_PAD + GO_G,
        GO_PAD + "// see C:\\dir\\\n" + GO_G,  # the comment goes on over the func line: its } closes none
        GO_PAD + "type T struct {\n}\n}\n\nfunc (r *R) M() {\n}\n\n" + GO_G,  # a stray }
        GO_PAD + "type I interface {\n)\n\nfunc a() {\n}\n\n" + GO_G,
        GO_PAD + "func f(a int) int {\n\treturn a\nfunc h()\n}\n\n" + GO_G,  # a declaration inside a body
        GO_PAD + "func memmove(n uintptr)\n\ntype I interface {\n\tM(x struct{})\n}\n\n" + GO_G,
    ],
}


@pytest.mark.parametrize("filename,before", [(f, t) for f, ts in CHUNKED_AS_LIZARD_READS.items() for t in ts])
def test_the_chunks_follow_lizards_strings_continuations_and_waiting_declarations(filename, before):
    after = before.replace(*(PY_IF if filename.endswith(".py") else GO_IF))
    assert lizard_delta._changed_chunk_functions(filename, before, after) is not None
    expected = whole(filename, before, after)
    assert delta_risk_profiles(filename, before, after) == expected


@pytest.mark.parametrize("filename,before", [(f, t) for f, ts in NOT_CHUNKED.items() for t in ts])
def test_texts_the_chunk_rules_cannot_vouch_for_are_read_whole(filename, before):
    after = before.replace(*(PY_IF if filename.endswith(".py") else GO_IF))
    assert before != after
    assert lizard_delta._changed_chunk_functions(filename, before, after) is None
    assert delta_risk_profiles(filename, before, after) == whole(filename, before, after)


def test_one_line_defs_ending_in_a_call_and_struct_parameters_are_still_chunked():
    text = PY_PAD + "class A:\n    def m(self): return self.n()\n\n" + PY_G
    assert len(lizard_delta._python_chunks(text)) > 50
    assert lizard_delta._python_chunks(PY_PAD + "def f(a)\\\n:\n    return a\n" + PY_G) is not None
    assert lizard_delta._python_chunks(PY_PAD + "def f(\n    a,\n)\n" + PY_G) is None
    go = GO_PAD + "func wait(done chan struct{})\n\ntype I interface {\n\tM()\n}\n\n" + GO_G + "\nfunc h() {\n}\n"
    chunks = lizard_delta._go_chunks(go)
    # no cut while `wait` waits for its body (lizard reads it on to g's `{`), then cuts again
    assert [c.split("\n")[0] for c in chunks[-2:]] == ["func wait(done chan struct{})", "func h() {"]
    after = go.replace(*GO_IF)
    assert delta_risk_profiles("x.go", go, after) == whole("x.go", go, after)
