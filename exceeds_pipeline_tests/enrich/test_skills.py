"""Skill rules: the shipped YAML, glob semantics, evaluation over tables, user extension, errors."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from exceeds_pipeline.enrich import languages as L
from exceeds_pipeline.enrich.exclusions import classify_exclusions
from exceeds_pipeline.enrich.languages import with_language
from exceeds_pipeline.enrich.skills import (
    SkillRulesError,
    glob_to_regex,
    load_skill_rules,
    parse_skill_rules,
    skills_per_commit,
)

BRIEF_SKILLS = {
    "Testing", "CI/CD", "Docker", "Kubernetes", "CUDA", "GPU Programming", "Caching",
    "Performance Optimization", "Documentation", "Debugging", "API Development", "Database/SQL",
    "Frontend", "Machine Learning", "Distributed Systems", "Security", "Build Systems", "Concurrency",
}


@pytest.fixture(scope="module")
def rules():
    return load_skill_rules()


def run(rules, commits: list[tuple[str, str]], files: list[tuple[str, str]], binary=()):
    """commits: (sha, message); files: (sha, path). Returns {sha: skills} via the real enrichers."""
    c = pl.DataFrame(
        {"repo": ["r"] * len(commits), "sha": [s for s, _ in commits], "message": [m for _, m in commits]}
    )
    f = pl.DataFrame(
        {
            "repo": ["r"] * len(files),
            "sha": [s for s, _ in files],
            "path": [p for _, p in files],
            "is_binary": [p in binary for _, p in files],
        },
        schema={"repo": pl.String, "sha": pl.String, "path": pl.String, "is_binary": pl.Boolean},
    )
    f = with_language(classify_exclusions(f))
    out = skills_per_commit(c, f, rules)
    assert out.columns == ["repo", "sha", "skills"]
    assert out.schema["skills"] == pl.List(pl.String)
    assert out["sha"].to_list() == c["sha"].to_list()
    return dict(zip(out["sha"].to_list(), out["skills"].to_list(), strict=True))


def skills_of(rules, path=None, message="Update"):
    files = [("c", path)] if path else []
    return set(run(rules, [("c", message)], files)["c"])


# --- the shipped rules ------------------------------------------------------------------------

def test_shipped_rules_cover_the_documented_skills(rules):
    assert BRIEF_SKILLS <= set(rules.names)
    assert len(rules.names) == len(set(rules.names))
    for rule in rules.rules:
        assert rule.path_pattern or rule.message_pattern or rule.languages, rule.name
        assert rule.sources == ("<builtin skills.yaml>",)


@pytest.mark.skipif(L.LANGUAGE_BACKEND != "enry", reason="needs enry to know Linguist's names")
def test_shipped_language_names_are_linguist_names(rules):
    import enry

    for rule in rules.rules:
        for language in rule.languages:
            assert enry.get_language_type(language), (rule.name, language)


@pytest.mark.parametrize(
    ("path", "skill"),
    [
        ("tests/test_api.py", "Testing"),
        ("pkg/server/handler_test.go", "Testing"),
        ("src/components/Button.test.tsx", "Testing"),
        ("src/test/java/FooTest.java", "Testing"),
        ("t/t4205-log-pretty-formats.sh", "Testing"),
        ("regress/new-pane-modal.sh", "Testing"),  # tmux
        ("conftest.py", "Testing"),
        (".github/workflows/ci.yml", "CI/CD"),
        (".circleci/config.yml", "CI/CD"),
        ("Jenkinsfile", "CI/CD"),
        ("docker/Dockerfile.gpu", "Docker"),
        ("deploy/Dockerfile", "Docker"),
        ("docker-compose.yml", "Docker"),
        ("deploy/k8s/deployment.yaml", "Kubernetes"),
        ("charts/api/templates/service.yaml", "Kubernetes"),
        ("aten/src/ATen/native/cuda/Loss.cu", "CUDA"),
        ("aten/src/ATen/native/cuda/Loss.cu", "GPU Programming"),
        ("kernels/softmax.metal", "GPU Programming"),
        ("torch/_inductor/codecache.py", "Caching"),
        ("benchmarks/dynamo/runner.py", "Performance Optimization"),
        ("docs/source/notes.rst", "Documentation"),
        ("Documentation/git-log.adoc", "Documentation"),
        ("README.md", "Documentation"),
        ("server/api/v1/users.py", "API Development"),
        ("proto/service.proto", "API Development"),
        ("db/migrations/0001_init.sql", "Database/SQL"),
        ("web/src/App.tsx", "Frontend"),
        ("web/styles/site.scss", "Frontend"),
        ("torch/nn/modules/linear.py", "Machine Learning"),
        ("notebooks/explore.ipynb", "Machine Learning"),
        ("torch/distributed/fsdp/api.py", "Distributed Systems"),
        ("src/auth/login.py", "Security"),
        ("SECURITY.md", "Documentation"),  # a policy page, no security work
        ("CMakeLists.txt", "Build Systems"),
        ("tools/build_defs.bzl", "Build Systems"),
        ("setup.py", "Build Systems"),
        ("app/build.gradle.kts", "Build Systems"),
        ("src/util/thread_pool.cc", "Concurrency"),
        ("packages/compiler-core/src/parse.ts", "Compilers & Bytecode"),  # vue's compiler packages
        ("infra/main.tf", "Infrastructure as Code"),
    ],
)
def test_path_and_language_rules(rules, path, skill):
    assert skill in skills_of(rules, path=path)


@pytest.mark.parametrize("path", ["go.mod", "package.json", "crates/core/Cargo.toml", "pyproject.toml", "setup.cfg"])
def test_a_package_manifest_is_no_build_work_by_its_name(rules, path):
    # it lists the dependencies: every bump edits it (caddy's ~100 `go.mod: Upgrade ...` had made
    # Build Systems Matthew Holt's first skill), and so does every change that uses a new library
    assert "Build Systems" not in skills_of(rules, path=path)


@pytest.mark.parametrize("message", [
    "Thanks to @Wernerina's LLM for finding this bug",
    "docs: Add a policy on LLM-generated contributions",
    "Fine-tune image display",  # caddy's file browser template
])
def test_naming_an_llm_or_fine_tuning_a_page_is_no_machine_learning_work(rules, message):
    assert "Machine Learning" not in skills_of(rules, message=message)


def test_a_form_or_multipart_parser_is_not_compiler_work(rules):
    assert "Compilers & Bytecode" not in skills_of(rules, path="selfservice/strategy/password/parser/form.go")
    assert "Compilers & Bytecode" in skills_of(rules, path="src/lexer/tokens.rs")


@pytest.mark.parametrize(
    ("message", "skill"),
    [
        ("Fix race condition in worker shutdown", "Concurrency"),
        ("Avoid deadlock when the queue is full", "Concurrency"),
        ("ci: pin runner image", "CI/CD"),
        ("Make CI green again", "CI/CD"),
        ("test(parser): cover empty input", "Testing"),
        ("Add unit tests for the scheduler", "Testing"),
        ("perf: avoid a copy in the hot path", "Performance Optimization"),
        ("2x speedup of layer norm", "Performance Optimization"),
        ("docs: explain the window option", "Documentation"),
        ("Fix segfault when the tensor is empty", "Debugging"),
        ("Fix CVE-2024-12345 in the tar reader", "Security"),
        ("Sanitize user input against XSS", "Security"),
        ("Cache compiled kernels", "Caching"),
        ("Use NCCL all-reduce for gradients", "Distributed Systems"),
        ("Port the kernel to CUDA graphs", "CUDA"),
        ("Switch the build to CMake presets", "Build Systems"),
        ("Add Postgres migration for users", "Database/SQL"),
        ("Write the database migration for the users table", "Database/SQL"),
        ("Detect the character encoding of responses", "Text Processing & Regex"),
        ("Bump helm chart to 1.2", "Kubernetes"),
        ("Build the Docker image for arm64", "Docker"),
        ("Add a REST endpoint for exports", "API Development"),
        ("Fine-tune the LLM on the new data", "Machine Learning"),
        ("Fix up window reference counting and don't crash", "Systems Programming"),
        ("Release the GIL around the blocking read", "CPython Internals"),
        ("Speed up batched inference of the transformer model", "Machine Learning"),
    ],
)
def test_message_rules(rules, message, skill):
    assert skill in skills_of(rules, message=message)


@pytest.mark.parametrize(
    ("message", "absent"),
    [
        ("Handle the special case", "CI/CD"),  # 'ci' inside a word
        ("Rename the docstrings_helper variable", "Documentation"),  # '_' joins words
        ("Update contest results", "Testing"),
        ("Test Plan: ran the suite", "Testing"),  # Phabricator's section header is not test work
        ("Fix typo", "Debugging"),
        ("Refactor helpers", "Performance Optimization"),
        # words that mean something else outside machine learning
        ("Fix media type inference for bytes responses", "Machine Learning"),
        # a migration of users to a new version, and an encoding of parameters (Alamofire)
        ("Added the Alamofire 4.0 Migration Guide", "Database/SQL"),
        ("Refactored ParameterEncoding to support JSON encoding of arrays", "Text Processing & Regex"),
        ("refactor: make embedding easier with internal sdk", "Machine Learning"),
        ("Add a gradient to the header", "Machine Learning"),
        # sinatra (Ruby): guards and C extensions of any language are no Python compiler work
        ("add some test guards for rbx", "Compilers & Bytecode"),
        ("RedCloth is a C extension", "Python C Extensions"),
        # tmux (C): counting a window's references is no CPython work
        ("Fix up window reference counting and don't crash", "CPython Internals"),
        # curl: a name, and generic words of numbers, are no skill terms
        ("- Gil Weber reported a peculiar flaw", "CPython Internals"),
        ("mention how to list numerical IPv6 addresses", "Data Science & Numerics"),
        ("show the transfer statistics at exit", "Data Science & Numerics"),
        # curl: fixing compiler warnings and parsing a URL are no compiler work
        ("use CURLcode, not int, prevents picky compilers to warn", "Compilers & Bytecode"),
        ("fix compiler warnings", "Compilers & Bytecode"),
        ("urlapi: make the parser reject a port above 65535", "Compilers & Bytecode"),
        # Sidekiq keeps every job in Redis: a data store, no cache ("Caching (87 work items)")
        ("One redis accessor to rule them all", "Caching"),
        ("flush redis so status is predictable", "Caching"),
    ],
)
def test_message_terms_match_whole_words_only(rules, message, absent):
    assert absent not in skills_of(rules, message=message)


def test_excluded_files_give_no_skills(rules):
    got = run(
        rules,
        [("a", "Update"), ("b", "Update"), ("c", "Update")],
        [
            ("a", "third_party/cutlass/gemm.cu"),  # vendored
            ("b", "web/dist/app.js"),  # generated bundle
            ("c", "docs/diagram.png"),  # binary
        ],
        binary={"docs/diagram.png"},
    )
    assert got == {"a": [], "b": [], "c": []}


def test_data_and_prose_files_left_out_of_lines_of_code_still_show_skills(rules):
    """vue: 12 of Evan You's items edit .github/workflows (YAML, a data file left out of lines
    of code), yet CI/CD had shown 1; a page (Markdown, prose) is documentation work. Files a
    program wrote still show nothing."""
    c = pl.DataFrame({"repo": ["r"] * 3, "sha": ["a", "b", "c"], "message": ["Update"] * 3})
    f = pl.DataFrame({"repo": ["r"] * 3, "sha": ["a", "b", "c"],
                      "path": [".github/workflows/release.yml", "docs/guide.md", ".github/workflows/gen.yml"],
                      "language": ["YAML", "Markdown", "YAML"], "excluded": [True, True, True],
                      "exclusion_reason": ["data_file", "prose_file", "generated"]})
    got = dict(skills_per_commit(c, f, rules).select("sha", "skills").iter_rows())
    assert "CI/CD" in got["a"]
    assert "Documentation" in got["b"]
    assert got["c"] == []
    # ... but a security policy page and a bot's settings are no security work (coil, urfave/cli)
    c2 = pl.DataFrame({"repo": ["r"] * 2, "sha": ["d", "e"], "message": ["Update"] * 2})
    f2 = pl.DataFrame({"repo": ["r"] * 2, "sha": ["d", "e"], "path": ["SECURITY.md", ".github/dependabot.yml"],
                       "language": ["Markdown", "YAML"], "excluded": [True, True],
                       "exclusion_reason": ["prose_file", "data_file"]})
    got2 = dict(skills_per_commit(c2, f2, rules).select("sha", "skills").iter_rows())
    assert "Security" not in got2["d"] and "Security" not in got2["e"]


def test_a_vendored_copy_dropped_in_shows_no_skill_by_its_words_either(rules):
    """requests: "Vendor idna v2.1" (all of it a vendored tree) read as Text Processing work
    by its words; a change of the project's own code that also updates the copy keeps them."""
    got = run(
        rules,
        [("a", "Vendor idna v2.1: unicode domain names"), ("b", "Handle unicode domain names")],
        [("a", "requests/vendor/idna/core.py"), ("a", "requests/vendor/idna/codec.py"),
         ("b", "requests/vendor/idna/core.py"), ("b", "requests/models.py")],
    )
    assert got == {"a": [], "b": ["Text Processing & Regex"]}


def test_a_changelog_per_release_series_gives_no_documentation(rules):
    """vue: changelogs/CHANGELOG-3.4.md, one changelog per minor series, had made Evan You's
    changelog edits documentation work."""
    assert "Documentation" not in skills_of(rules, path="changelogs/CHANGELOG-3.4.md")
    assert "Documentation" in skills_of(rules, path="docs/changelog-guide.md")


def test_changelog_entries_give_no_skills(rules):
    # nearly every pull request of a towncrier project adds a fragment: that is no documentation work
    got = run(
        rules,
        [("a", "Update"), ("b", "Update"), ("c", "Update"), ("d", "Update")],
        [("a", "changelog/2528.feature.rst"), ("b", "CHANGELOG.md"), ("c", "newsfragments/13.bugfix"),
         ("d", "docs/usage.rst")],
    )
    assert got == {"a": [], "b": [], "c": [], "d": ["Documentation"]}


def test_one_row_per_commit_sorted_skills_and_empty_lists(rules):
    got = run(
        rules,
        [("z", "Fix race condition"), ("a", "Initial import"), ("m", "Fix race condition")],
        [("z", "tests/test_pool.py"), ("z", "src/pool.cu"), ("z", "tests/test_more.py"), ("m", "README.md")],
    )
    assert got["z"] == sorted(got["z"]) and {"Testing", "CUDA", "Concurrency"} <= set(got["z"])
    assert got["a"] == []
    assert set(got["m"]) == {"Concurrency", "Documentation"}


def test_files_of_other_repositories_do_not_leak(rules):
    c = pl.DataFrame({"repo": ["r1", "r2"], "sha": ["s", "s"], "message": ["x", "x"]})
    f = pl.DataFrame(
        {"repo": ["r2"], "sha": ["s"], "path": ["Dockerfile"], "language": ["Dockerfile"], "excluded": [False]}
    )
    out = skills_per_commit(c, f, rules)
    assert out.rows() == [("r1", "s", []), ("r2", "s", ["Docker"])]


def test_empty_inputs(rules):
    c = pl.DataFrame(schema={"repo": pl.String, "sha": pl.String, "message": pl.String})
    f = pl.DataFrame(
        schema={"repo": pl.String, "sha": pl.String, "path": pl.String, "language": pl.String, "excluded": pl.Boolean}
    )
    out = skills_per_commit(c, f, rules)
    assert out.height == 0 and out.schema["skills"] == pl.List(pl.String)


# --- glob semantics ----------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("test_*.py", "test_a.py", True),
        ("test_*.py", "deep/dir/test_a.py", True),  # no '/' -> file name anywhere
        ("test_*.py", "test_dir/a.py", False),
        ("docs/**", "docs/a/b.md", True),
        ("docs/**", "src/docs/a.md", False),  # with '/' -> anchored at the root
        ("**/docs/**", "src/docs/a.md", True),
        ("**/docs/**", "docs/a.md", True),
        ("src/*.py", "src/a.py", True),
        ("src/*.py", "src/sub/a.py", False),  # '*' stays in one directory
        ("src/**/*.py", "src/a.py", True),
        ("src/**/*.py", "src/x/y/a.py", True),
        ("*.{js,ts}", "a/b.ts", True),
        ("*.{js,ts}", "a/b.tsx", False),
        ("file?.txt", "file1.txt", True),
        ("file?.txt", "file10.txt", False),
        ("Dockerfile", "deploy/dockerfile", True),  # case-insensitive
        ("a+b(c).txt", "a+b(c).txt", True),  # regex metacharacters are literal
    ],
)
def test_glob_semantics(glob, path, matches):
    assert bool(re.search(glob_to_regex(glob), path)) is matches
    assert pl.Series([path]).str.contains(glob_to_regex(glob)).item() is matches  # same in Polars


# --- user extension ------------------------------------------------------------------------------

def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_user_files_add_extend_replace_and_disable(tmp_path):
    first = write(tmp_path, "team.yaml", """
skills:
  - name: Rust Async
    languages: [Rust]
    message_terms: [tokio]
  - name: Testing
    paths: ["qa/**"]
  - name: Kubernetes
    enabled: false
""")
    second = write(tmp_path, "more.yaml", """
version: 1
skills:
  - name: Docker
    replace: true
    paths: ["containers/**"]
""")
    rules = load_skill_rules([first, second])
    assert "Kubernetes" not in rules.names
    assert rules.names[-1] == "Rust Async"
    assert rules["Testing"].sources == ("<builtin skills.yaml>", str(first))
    assert "qa/**" in rules["Testing"].paths and "**/tests/**" in rules["Testing"].paths
    assert rules["Docker"].paths == ("containers/**",) and rules["Docker"].languages == ()
    assert rules.sources == ("<builtin skills.yaml>", str(first), str(second))

    got = run(
        rules,
        [("a", "Use tokio for IO"), ("b", "x"), ("c", "x"), ("d", "Bump helm chart")],
        [("b", "qa/smoke.sh"), ("c", "containers/api/Dockerfile"), ("c", "Dockerfile.old")],
    )
    assert "Rust Async" in got["a"]
    assert "Testing" in got["b"]
    assert "Docker" in got["c"]
    assert "Kubernetes" not in got["d"]
    # the replaced Docker rule no longer matches by language or file name
    assert "Docker" not in run(rules, [("e", "x")], [("e", "deploy/Dockerfile")])["e"]


def test_user_rules_can_use_regexes(tmp_path):
    extra = write(tmp_path, "re.yaml", r"""
skills:
  - name: Git Internals
    path_regex: ['^(builtin|refs)/[^/]+\.c$']
    message_regex: ['\bpack-?objects?\b']
""")
    rules = load_skill_rules([extra])
    got = run(rules, [("a", "x"), ("b", "Speed up pack-objects"), ("c", "x")],
              [("a", "builtin/log.c"), ("c", "src/builtin/log.c")])
    assert "Git Internals" in got["a"] and "Git Internals" in got["b"]
    assert "Git Internals" not in got["c"]


# --- validation -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("skills:\n  - name: X\n    pathz: ['a']\n", r"skills\[0\] \('X'\): unknown key\(s\) \['pathz'\]"),
        ("skills:\n  - name: X\n    paths: 'a/**'\n", r"skills\[0\] \('X'\): 'paths' must be a list of strings"),
        ("skills:\n  - name: X\n    path_regex: ['(unclosed']\n", r"skills\[0\] \('X'\): path_regex: invalid regex '\(unclosed'"),
        ("skills:\n  - name: X\n    message_regex: ['(?<=lookbehind)x']\n", r"skills\[0\] \('X'\): message_regex: invalid regex"),
        ("skills:\n  - name: X\n    paths: ['a/{b,c']\n", r"skills\[0\] \('X'\): paths: glob 'a/\{b,c': unbalanced"),
        ("skills:\n  - name: X\n    paths: ['t/t[0-9]*']\n", r"character classes"),
        ("skills:\n  - paths: ['a']\n", r"skills\[0\]: rule needs a non-empty string 'name'"),
        ("skills:\n  - name: X\n    languages: [Python, 3]\n", r"'languages' must contain non-empty strings, got 3"),
        ("skills:\n  - name: X\n    replace: yes please\n", r"'replace' must be true or false"),
        ("skills:\n  - name: New\n    description: nothing to match\n", r"skills\[0\] \('New'\): rule has no matchers"),
        ("skills:\n  - name: X\n    paths: ['a']\n  - name: X\n    paths: ['b']\n", r"skills\[1\] \('X'\): skill defined twice"),
        ("skills:\n  - just a string\n", r"skills\[0\]: each rule must be a mapping"),
        ("skill:\n  - name: X\n", r"unknown top-level key\(s\) \['skill'\]"),
        ("version: 2\nskills: []\n", r"unsupported version 2"),
        ("skills: {name: X}\n", r"'skills' must be a list"),
        ("skills: [\n", r"not valid YAML"),
        ("- name: X\n", r"top level must be a mapping"),
    ],
)
def test_invalid_rules_name_the_file_and_the_rule(tmp_path, text, expected):
    bad = write(tmp_path, "bad-rules.yaml", text)
    with pytest.raises(SkillRulesError) as err:
        load_skill_rules([bad])
    message = str(err.value)
    assert message.startswith(f"{bad}: "), message
    assert re.search(expected, message), message


def test_missing_file_and_empty_file(tmp_path):
    with pytest.raises(SkillRulesError, match=r"nope\.yaml: cannot read skills rules file"):
        load_skill_rules([tmp_path / "nope.yaml"])
    empty = write(tmp_path, "empty.yaml", "")
    assert load_skill_rules([empty]).names == load_skill_rules().names


def test_parse_skill_rules_standalone():
    rules = parse_skill_rules("skills:\n  - name: Only\n    message_terms: [widget]\n", "inline")
    assert rules.names == ("Only",) and rules["Only"].sources == ("inline",)
    with pytest.raises(KeyError):
        rules["Missing"]


def test_a_documentation_tree_gives_no_language_skill(rules):
    """curl's docs/*.html pages made its author a frontend developer; the same page outside a
    documentation tree is frontend work, and the tree stays documentation."""
    assert "Frontend" not in skills_of(rules, path="docs/index.html")
    assert "Documentation" in skills_of(rules, path="docs/index.html")
    assert "Frontend" in skills_of(rules, path="web/index.html")
    assert "Documentation" in skills_of(rules, path="docs/libcurl/curl_easy_setopt.md")
    # retrofit's project site and an example's page are documentation too
    assert "Frontend" not in skills_of(rules, path="website/index.html")
    assert "Frontend" not in skills_of(rules, path="examples/chat/index.html")


def test_a_documentation_tree_gives_no_domain_skill_by_its_paths(rules):
    """express's examples/auth/ made "examples: use strict mode" Security work (10 of Douglas
    Christopher Wilson's 11 Security items): a page or an example names what it shows. The same
    folder in the code is evidence, and a docs tree stays documentation."""
    assert "Security" not in skills_of(rules, path="examples/auth/index.js")
    assert "Security" not in skills_of(rules, path="docs/auth/tokens.md")
    assert "Documentation" in skills_of(rules, path="docs/auth/tokens.md")
    assert "Security" in skills_of(rules, path="lib/auth/index.js")


def test_a_directive_to_the_ci_is_no_ci_work(rules):
    """lodash: `[ci skip]` on 919 of John-David Dalton's commits made CI/CD his third skill."""
    c = pl.DataFrame({"repo": ["r", "r"], "sha": ["a", "b"], "category": ["docs", "build"],
                      "message": ["Update the README example. [ci skip]", "Run the CI on Node 20"]})
    f = with_language(classify_exclusions(pl.DataFrame(
        {"repo": ["r", "r"], "sha": ["a", "b"], "path": ["README.md", ".travis.yml"], "is_binary": [False, False]})))
    got = dict(zip(*skills_per_commit(c, f, rules).select("sha", "skills").to_dict(as_series=False).values()))
    assert "CI/CD" not in got["a"] and "CI/CD" in got["b"]


def test_a_test_tree_gives_no_language_skill(rules):
    """lodash's test/index.html, the page its tests run in, made 233 of John-David Dalton's items
    frontend work; a component's test in TSX still is (by its path), and the tree is testing."""
    assert "Frontend" not in skills_of(rules, path="test/index.html")
    assert "Testing" in skills_of(rules, path="test/index.html")
    assert "Frontend" in skills_of(rules, path="src/components/Button.test.tsx")


def test_the_words_of_a_build_change_are_no_skill_evidence(rules):
    """click: 'cache mypy in ci' made David Lord a caching worker, 'add lock threads workflow' a
    concurrency one: a change only to build and CI files shows the skills of its files."""
    c = pl.DataFrame({"repo": ["r", "r"], "sha": ["a", "b"], "message": ["cache mypy in ci", "Cache the parsed config"],
                      "category": ["build", "feature"]})
    f = with_language(classify_exclusions(pl.DataFrame(
        {"repo": ["r", "r"], "sha": ["a", "b"], "path": [".github/workflows/tests.yaml", "src/config.py"],
         "is_binary": [False, False]})))
    got = dict(zip(*skills_per_commit(c, f, rules).select("sha", "skills").to_dict(as_series=False).values()))
    assert "Caching" not in got["a"] and "CI/CD" in got["a"]
    assert "Caching" in got["b"]
    # a ci: subject on a workflow file (a data file, left out of LOC) still shows CI/CD
    c2 = c.with_columns(pl.Series("message", ["ci: run the tests on 3.13", "x"]))
    got2 = dict(zip(*skills_per_commit(c2, f, rules).select("sha", "skills").to_dict(as_series=False).values()))
    assert "CI/CD" in got2["a"]
    # ... whatever its category: click's "fix azure config" (a bug by its words) of the CI file and the README
    c4 = pl.DataFrame({"repo": ["r"], "sha": ["c"], "message": ["fix azure config"], "category": ["bug"]})
    f4 = with_language(classify_exclusions(pl.DataFrame(
        {"repo": ["r", "r"], "sha": ["c", "c"], "path": [".azure-pipelines.yml", "README.rst"], "is_binary": [False, False]})))
    got4 = skills_per_commit(c4, f4, rules)["skills"].to_list()[0]
    assert "Cloud Infrastructure" not in got4 and "CI/CD" in got4
    # a user's rule can say its words count for build changes too
    extra = parse_skill_rules("skills:\n  - name: Caching\n    build_work: true\n", "extra.yaml", rules)
    got3 = dict(zip(*skills_per_commit(c, f, extra).select("sha", "skills").to_dict(as_series=False).values()))
    assert "Caching" in got3["a"]


def test_build_words_on_a_change_to_no_build_file_show_no_build_skill(rules):
    """phoenix: "Fix CI" commits that reformat templates and touch no CI file made CI/CD a skill
    of Chris McCord's; "Fix CI" on a workflow shows it, and so do a tool's words in code
    (phoenix's release generator picking a Docker image). Words alone (files unknown) still do."""
    c = pl.DataFrame({"repo": ["r"] * 4, "sha": ["a", "b", "c", "d"], "category": ["bug", "build", "bug", "feature"],
                      "message": ["Fix CI", "Fix CI", "Fix the cmake build", "Find the best docker image in phx.gen.release"]})
    f = with_language(classify_exclusions(pl.DataFrame(
        {"repo": ["r"] * 4, "sha": ["a", "b", "c", "d"], "is_binary": [False] * 4,
         "path": ["installer/templates/phx_web/router.ex", ".github/workflows/ci.yml", "include/fmt/core.h",
                  "lib/mix/tasks/phx.gen.release.ex"]})))
    got = dict(zip(*skills_per_commit(c, f, rules).select("sha", "skills").to_dict(as_series=False).values()))
    assert "CI/CD" not in got.get("a", [])
    assert "CI/CD" in got["b"]
    assert "Build Systems" not in got.get("c", [])
    assert "Docker" in got["d"]
    assert "CI/CD" in skills_of(rules, message="Make CI green again")


def test_a_compilers_ui_tests_and_rusts_debug_trait_are_no_skill_words(rules):
    """serde: "Update ui tests to nightly-2019-12-19" (44 commits) made David Tolnay's top skill
    Frontend, and "Implement Debug for public types" showed Debugging."""
    assert "Frontend" not in skills_of(rules, message="Update ui tests to nightly-2019-12-19")
    assert "Frontend" not in skills_of(rules, message="Ui test changes for trybuild 1.0.66")
    assert "Debugging" not in skills_of(rules, message="Implement Debug for public types")
    assert "Debugging" not in skills_of(rules, message="Keep Debug and Display as supertraits even in no_std")
    assert "Frontend" in skills_of(rules, message="Redesign the settings UI")
    assert "Debugging" in skills_of(rules, message="Debug the hang on shutdown")


def test_async_in_a_name_and_mutually_exclusive_flags_are_no_concurrency(rules):
    """vue's async components (`hmr reload should work with async component`: 105 of Evan You's
    commits), coil's AsyncImage, webpack's async chunks and urfave/cli's flag_mutex_test.go
    (mutually exclusive flags) had made Concurrency a top skill; threads in a path and locks in
    the code still say it."""
    assert "Concurrency" not in skills_of(rules, message="fix(hmr): hmr reload should work with async component")
    assert "Concurrency" not in skills_of(rules, path="packages/runtime-core/src/apiAsyncComponent.ts")
    assert "Concurrency" not in skills_of(rules, path="flag_mutex_test.go")
    assert "Concurrency" in skills_of(rules, path="src/util/thread_pool.cc")
    assert "Concurrency" in skills_of(rules, message="Make the cache thread-safe")


def test_the_name_of_a_build_file_is_no_skill_evidence(rules):
    """jq: "Fix autoreconf warnings" changed configure.ac and m4/ax_pthread.m4 and showed
    Concurrency (the `*thread*` glob): a build file's name says what the build checks for. The
    same name in code still shows it."""
    c = pl.DataFrame({"repo": ["r", "r"], "sha": ["a", "b"], "message": ["Fix autoreconf warnings", "Add a worker pool"],
                      "category": ["build", "feature"]})
    f = with_language(classify_exclusions(pl.DataFrame(
        {"repo": ["r", "r", "r"], "sha": ["a", "a", "b"], "path": ["configure.ac", "m4/ax_pthread.m4", "src/thread_pool.c"],
         "is_binary": [False, False, False]})))
    got = dict(zip(*skills_per_commit(c, f, rules).select("sha", "skills").to_dict(as_series=False).values()))
    assert "Concurrency" not in got["a"] and "Build Systems" in got["a"]
    assert "Concurrency" in got["b"]


def test_a_sweep_over_the_tree_and_a_revert_show_no_skill_by_their_files(rules):
    """jinja: "apply black" (every module, bccache.py among them) and "rename directory to jinja"
    with its revert made David Lord a Caching person; a change to the cache module alone does."""
    tree = [f"src/jinja2/mod{i}.py" for i in range(60)] + ["src/jinja2/bccache.py"]
    c = pl.DataFrame({"repo": ["r"] * 5, "sha": ["black", "cache", "rename", "undo", "lint"],
                      "message": ["apply black", "increment bytecode cache version", "rename module to jinja",
                                  'Revert "rename module to jinja"', "fix ruff pyupgrade findings"],
                      "category": ["refactor", "build", "refactor", "revert", "chore"]})
    paths = ([("black", p) for p in tree] + [("cache", "src/jinja2/bccache.py")]
             + [("rename", "src/jinja2/bccache.py"), ("undo", "src/jinja2/bccache.py"),
                ("lint", "src/jinja2/bccache.py")])
    f = with_language(classify_exclusions(pl.DataFrame(
        {"repo": ["r"] * len(paths), "sha": [s for s, _ in paths], "path": [p for _, p in paths],
         "is_binary": [False] * len(paths)})))
    got = dict(zip(*skills_per_commit(c, f, rules).select("sha", "skills").to_dict(as_series=False).values()))
    assert "Caching" not in got["black"] and "Caching" in got["cache"] and "Caching" in got["rename"]
    assert got["undo"] == [] and "Caching" not in got["lint"]  # housekeeping shows none by its files


def test_rs_s3_objects_and_a_code_migration_tool_are_no_cloud_or_database_work(rules):
    # dplyr's "Register S3 method for group_by" had shown Cloud Infrastructure (R's S3 is its
    # object system); svelte's compiler/migrate (Svelte 4 -> 5 rewrites) Database/SQL
    assert "Cloud Infrastructure" not in skills_of(rules, "R/group-by.R", "Register S3 method for group_by")
    assert "Cloud Infrastructure" in skills_of(rules, "src/Filesystem.php", "Add missing port when replacing S3 temporary_url")
    assert "Cloud Infrastructure" in skills_of(rules, "deploy.sh", "Upload the site to S3")
    assert "Database/SQL" not in skills_of(rules, "packages/svelte/src/compiler/migrate/index.js", "migrate snippets")
    assert "Database/SQL" in skills_of(rules, "app/migrations/0002_user.py", "Add the user table")
