"""Linguist language names from paths (go-enry, with the documented ambiguity choices)."""

from __future__ import annotations

import polars as pl
import pytest

from exceeds_pipeline.enrich import languages as L
from exceeds_pipeline.enrich.languages import (
    AMBIGUOUS_EXTENSION_CHOICE,
    header_language_by_repo,
    language_for_name,
    language_for_paths,
    with_language,
)

needs_enry = pytest.mark.skipif(L.LANGUAGE_BACKEND != "enry", reason="enry-python not installed here")

LINGUIST_NAMES = {
    "torch/nn/modules/linear.py": "Python",
    "torch/_C/__init__.pyi": "Python",
    "aten/src/ATen/native/Linear.cpp": "C++",
    "c10/core/Device.cc": "C++",
    "c10/util/Optional.hpp": "C++",
    "compat/regex/regex.c": "C",
    "aten/src/ATen/native/cuda/Loss.cu": "Cuda",
    "aten/src/ATen/cuda/Atomic.cuh": "Cuda",
    "README.md": "Markdown",
    "docs/source/index.rst": "reStructuredText",
    "scripts/build.sh": "Shell",
    ".github/workflows/ci.yml": "YAML",
    "config/app.yaml": "YAML",
    "package.json": "JSON",
    "pyproject.toml": "TOML",
    "docker/Dockerfile": "Dockerfile",
    "Makefile": "Makefile",
    "CMakeLists.txt": "CMake",
    "cmake/Modules/FindCUDA.cmake": "CMake",
    "web/src/index.js": "JavaScript",
    "web/src/index.ts": "TypeScript",
    "web/src/App.tsx": "TSX",
    "src/main/java/Foo.java": "Java",
    "cmd/server/main.go": "Go",
    "src/lib.rs": "Rust",
    "site/index.html": "HTML",
    "site/style.css": "CSS",
    "requirements/notes.txt": "Text",
    "notebooks/demo.ipynb": "Jupyter Notebook",
    "BUILD.bazel": "Starlark",
    "tools/defs.bzl": "Starlark",
    "requirements.txt": "Pip Requirements",
    "go.mod": "Go Module",
    "src/App.cs": "C#",
    "lib/app.ex": "Elixir",
    "ios/ViewController.m": "Objective-C",
    "ios/Bridge.mm": "Objective-C++",
    "lib/Foo.php": "PHP",
    "script.pl": "Perl",
    "analysis.R": "R",
    "packaging/lsb/rsync.spec": "RPM Spec",
}


@needs_enry
@pytest.mark.parametrize(("path", "expected"), sorted(LINGUIST_NAMES.items()))
def test_linguist_names(path, expected):
    assert language_for_name(path) == expected


@needs_enry
def test_series_api_matches_single_names_and_keeps_order_and_nulls():
    paths = [*LINGUIST_NAMES, None, "LICENSE", "bin/tool", "data/blob.unknownext", "A.PY"]
    out = language_for_paths(pl.Series("path", paths))
    assert out.name == "language" and out.dtype == pl.String and out.len() == len(paths)
    assert out.to_list() == [
        *LINGUIST_NAMES.values(),
        None,  # null path
        "Text",  # Linguist knows LICENSE by name
        None,  # no extension, unknown name
        None,  # unknown extension
        "Python",  # extensions ignore case
    ]


@needs_enry
def test_multi_part_extensions_follow_linguist():
    assert language_for_name("types/index.d.ts") == "TypeScript"
    assert language_for_name("web/app.test.ts") == "TypeScript"
    assert language_for_name("views/home.blade.php") == "Blade"  # a longer Linguist extension wins
    assert language_for_name("cmake/config.cmake.in") == "CMake"
    assert language_for_name("src/generated.pb.h") == "C++"  # falls back to the last extension
    assert language_for_name("src/weird.name.rs") == "Rust"


@needs_enry
def test_every_ambiguity_choice_is_one_of_linguists_candidates():
    import enry

    for ext, language in AMBIGUOUS_EXTENSION_CHOICE.items():
        assert ext in enry.get_language_extensions(language), (ext, language)


@needs_enry
def test_an_extension_linguist_cannot_tell_apart_gets_the_same_name_every_time(monkeypatch):
    """go-enry lists `.jq`'s candidates (jq, JSONiq) in either order from one call to the next:
    jq's own files were jq in one run and JSONiq in the next."""
    from exceeds_pipeline.enrich import languages

    assert language_for_name("src/builtin.jq") == "jq"
    calls = iter([["JSONiq", "jq", "Zz"], ["Zz", "jq", "JSONiq"]])
    fake = type("FakeEnry", (), {"get_languages": staticmethod(lambda *a: next(calls)),
                                 "get_language_extensions": staticmethod(lambda lang: [".qq"])})
    monkeypatch.setattr(languages, "_enry", lambda: fake)
    names = []
    for _ in range(2):
        languages._enry_language_for_extension.cache_clear()
        names.append(languages._enry_language_for_extension(".qq"))
    languages._enry_language_for_extension.cache_clear()
    assert names == ["JSONiq", "JSONiq"]


def test_headers_default_to_cpp_and_can_be_told_otherwise():
    assert language_for_name("include/foo.h") == "C++"
    assert language_for_name("include/foo.h", c_header="C") == "C"
    out = language_for_paths(pl.Series(["a.h", "b.H", "c.py"]), c_header="Objective-C")
    assert out.to_list() == ["Objective-C", "Objective-C", "Python"]


def test_a_news_fragment_is_prose_whatever_its_name_ends_with():
    frame = pl.DataFrame({"repo": ["r"] * 4, "path": [
        "changelog/2528.feature", "changelog/2529.feature.rst", "newsfragments/13.bugfix", "tests/login.feature"]})
    # a Gherkin scenario outside a fragment folder stays Gherkin
    assert L.with_language(frame)["language"].to_list() == ["Text", "reStructuredText", "Text", "Gherkin"]


def _fc(rows):
    return pl.DataFrame(rows, schema={"repo": pl.String, "path": pl.String}, orient="row")


def test_an_include_file_is_of_its_repositorys_language():
    """elinks: `src/config/options.inc`, `codepage.inc` (C includes) made Assembly a language of
    a C project's author: go-enry's content-free guess for `.inc`."""
    fc = _fc([("elinks", "src/main.c"), ("elinks", "src/config/options.inc"), ("elinks", "src/intl/codepage.h"),
              ("site", "lib/page.php"), ("site", "inc/config.inc"), ("boot", "boot/start.inc"), ("boot", "boot/start.asm")])
    langs = dict(zip(with_language(fc)["path"], with_language(fc)["language"], strict=True))
    assert langs["src/config/options.inc"] == "C"
    assert langs["inc/config.inc"] == "PHP"
    assert langs["boot/start.inc"] == "Assembly"


def test_an_include_named_by_linguist_keeps_its_name_s_language():
    """curl: `lib/Makefile.inc`, `tests/data/Makefile.inc` (Linguist: Makefile, by the name) read as
    PHP, the language of the repository's old php/examples/: 1,889 file changes."""
    fc = _fc([("curl", "php/examples/simpleget.php"), ("curl", "lib/Makefile.inc"), ("curl", "lib/vtls/config.inc"),
              ("elinks", "src/main.c"), ("elinks", "src/Makefile.inc")])
    langs = {(r, p): lang for r, p, lang in with_language(fc).select("repo", "path", "language").iter_rows()}
    assert langs[("curl", "lib/Makefile.inc")] == "Makefile"
    assert langs[("curl", "lib/vtls/config.inc")] == "PHP"
    assert langs[("elinks", "src/Makefile.inc")] == "Makefile"


def test_header_language_is_decided_per_repository():
    fc = _fc(
        [
            # git/git-like: C sources
            ("git", "builtin/log.c"), ("git", "revision.c"), ("git", "cache.h"), ("git", "t/helper/x.c"),
            ("git", "contrib/foo.cpp"),
            # PyTorch-like: C++ and CUDA
            ("torch", "aten/a.cpp"), ("torch", "aten/b.cu"), ("torch", "aten/c.c"), ("torch", "aten/a.h"),
            # iOS app: Objective-C
            ("app", "App/View.m"), ("app", "App/Model.m"), ("app", "App/View.h"),
            # tie between C and C++ -> C++ (table order)
            ("tie", "x.c"), ("tie", "y.cc"), ("tie", "z.h"),
            # no C-family evidence at all
            ("py", "setup.py"), ("py", "ext/fast.h"),
            # a Swift framework: its umbrella header is Objective-C (Alamofire's read C++)
            ("swift", "Source/Request.swift"), ("swift", "Source/Session.swift"), ("swift", "Source/Alamofire.h"),
        ]
    )
    got = dict(header_language_by_repo(fc).iter_rows())
    assert got == {"git": "C", "torch": "C++", "app": "Objective-C", "tie": "C++", "swift": "Objective-C"}

    out = with_language(fc)
    langs = dict(zip(out["path"], out["language"], strict=True))
    assert langs["cache.h"] == "C"
    assert langs["aten/a.h"] == "C++"
    assert langs["App/View.h"] == "Objective-C"
    assert langs["z.h"] == "C++"
    assert langs["ext/fast.h"] == "C++"  # default
    assert langs["builtin/log.c"] == "C" and langs["aten/b.cu"] == "Cuda"


def test_repeated_paths_vote_once_and_explicit_header_table_wins():
    # one C++ file touched many times does not outvote two C files
    fc = _fc([("r", "a.cpp")] * 5 + [("r", "b.c"), ("r", "c.c"), ("r", "d.h")])
    assert dict(header_language_by_repo(fc).iter_rows()) == {"r": "C"}
    table = pl.DataFrame({"repo": ["r"], "header_language": ["C++"]})
    out = with_language(fc, header_languages=table)
    assert out.filter(pl.col("path") == "d.h")["language"].item() == "C++"


def test_with_language_keeps_columns_and_handles_empty_frames():
    fc = pl.DataFrame({"repo": ["r", "r"], "sha": ["a", "b"], "path": ["x.py", "y.h"], "language": ["old", "old"]})
    out = with_language(fc)
    assert out.columns == fc.columns and out["language"].to_list() == ["Python", "C++"]
    empty = with_language(pl.DataFrame(schema={"repo": pl.String, "path": pl.String}))
    assert empty.height == 0 and empty.schema["language"] == pl.String


@needs_enry
def test_library_is_asked_once_per_distinct_file_name(monkeypatch):
    import enry

    calls = []
    real = enry.get_language_by_filename
    monkeypatch.setattr(enry, "get_language_by_filename", lambda name: calls.append(name) or real(name))
    L._language_for_name_raw.cache_clear()
    paths = pl.Series(["a/x.py", "b/x.py", "c/y.py", "a/x.py"] * 5000)
    out = language_for_paths(paths)
    assert out.unique().to_list() == ["Python"]
    assert sorted(calls) == ["x.py", "y.py"]
    calls.clear()
    language_for_paths(paths)  # cached across calls too
    assert calls == []


def test_pygments_fallback_uses_linguist_names():
    # The fallback backend (platforms without an enry wheel) renames Pygments lexers.
    cases = {
        "a.py": "Python",
        "run.sh": "Shell",
        "Dockerfile": "Dockerfile",
        "kernel.cu": "Cuda",
        "notes.txt": "Text",
        "CMakeLists.txt": "CMake",
        "Makefile": "Makefile",
        "lib.rs": "Rust",
        "main.tf": "HCL",
        "App.cs": "C#",
        "query.sql": "SQL",
        "foo.unknownext": None,
        "noext": None,
    }
    got = {name: L._pygments_language(name) for name in cases}
    assert got == cases
    assert L._pygments_language("x.h") == L._HEADER


def test_go_enry_works_in_a_step_forked_from_the_preloaded_definitions():
    """The multiprocess executor forks each step from a server that preloaded the definitions.
    go-enry starts a Go runtime when it loads, and a fork does not copy that runtime's threads:
    loaded before the fork, the child hung in Go's garbage collector (kratos's generated-file
    read). The definitions must not load it; a forked child loads its own and finishes."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import os, sys
        import exceeds_pipeline.forkserver_init, exceeds_pipeline.definitions
        assert not [m for m in sys.modules if m.split(".")[0] == "enry"], "definitions loaded go-enry"
        pid = os.fork()
        if pid == 0:
            from exceeds_pipeline.enrich.languages import language_for_paths  # noqa: F401
            import enry
            flagged = sum(enry.is_generated(f"x{i}.go", b"// Code generated by x. DO NOT EDIT.\\n" * 200)
                          for i in range(20000))
            os._exit(0 if flagged == 20000 else 3)
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


@needs_enry
def test_a_pro_file_is_a_qt_project_unless_its_path_names_proguard_or_r8():
    """gson's META-INF/proguard/gson.pro and shrinker-test/r8.pro were IDL (go-enry's first
    candidate); a `.pro` file is most often a Qt project."""
    paths = ["gson/src/main/resources/META-INF/proguard/gson.pro",
             "gson/src/main/resources/META-INF/com.android.tools/r8-from-3.0.0/gson.pro",
             "shrinker-test/r8.pro", "app/proguard-rules.pro", "src/app/app.pro"]
    expected = ["Proguard", "Proguard", "Proguard", "Proguard", "QMake"]
    assert language_for_paths(pl.Series(paths)).to_list() == expected
    frame = pl.DataFrame({"repo": ["acme/lib"] * len(paths), "path": paths})
    assert with_language(frame)["language"].to_list() == ["Proguard"] * 5  # the repository uses ProGuard
    # gson's shrinker-test/common.pro, beside proguard.pro; a Qt project's .pro stays QMake
    two = pl.DataFrame({"repo": ["google/gson", "google/gson", "qt/app"],
                        "path": ["shrinker-test/common.pro", "shrinker-test/proguard.pro", "src/app/app.pro"]})
    assert with_language(two)["language"].to_list() == ["Proguard", "Proguard", "QMake"]
    assert language_for_paths(pl.Series(paths)).to_list() == expected
