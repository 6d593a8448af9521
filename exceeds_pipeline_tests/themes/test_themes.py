"""Themes from paths and titles, on real repositories built in the test."""

from __future__ import annotations

import polars as pl
import pytest

from exceeds_pipeline.themes.build import THEMES_SCHEMA, module_name, person_themes, theme_key
from exceeds_pipeline.themes.mirror import mirror_sources
from exceeds_pipeline.themes.text import clean_title, title_ngrams, title_terms
from exceeds_pipeline_tests.themes.pipeline import tables

ADA = ("Ada Lovelace", "ada@example.com")
BOB = ("Bob Byte", "bob@example.com")


@pytest.fixture(scope="module")
def compiler_repo(tmp_path_factory):
    """Ada works on the compiler's guards and graph breaks; Bob on the docs and the CLI."""
    from exceeds_pipeline_tests.gitscript import GitScript

    repo = GitScript.init(tmp_path_factory.mktemp("themes") / "compiler")
    day = iter(range(1, 60))

    def when():
        d = next(day)
        return f"2025-{1 + (d - 1) // 28:02d}-{1 + (d - 1) % 28:02d}T10:00:00+00:00"

    repo.commit("Initial layout", author=("Carl", "carl@example.com"), date=when(), files={
        "README.md": "# tc\n", "tc/_dynamo/guards.py": "x = 1\n", "tc/_dynamo/utils.py": "y = 1\n",
        "tc/cli/main.py": "print()\n", "docs/index.rst": "tc\n"})
    ada_titles = [
        ("[dynamo] Fix guard ordering on nn modules (#101)", {"tc/_dynamo/guards.py": "x = 2\n" * 40}),
        ("[dynamo] Support nested graph breaks in loops (#102)", {"tc/_dynamo/utils.py": "y = 2\n" * 30}),
        ("[dynamo] Graph break hint for dynamic shapes errors (#103)", {"tc/_dynamo/utils.py": "y = 3\n" * 35}),
        ("Reapply \"[dynamo] Cache guard source lookups (#104)\" (#105)", {"tc/_dynamo/guards.py": "x = 3\n" * 20}),
        ("[dynamo] Nested graph breaks for generators (#106)", {"tc/_dynamo/guards.py": "x = 4\n" * 25}),
    ]
    for title, files in ada_titles:
        repo.commit(title, author=ADA, date=when(), files=files)
    bob_titles = [
        ("docs: explain the install steps", {"docs/index.rst": "install\n" * 10}),
        ("fix(cli): parse --verbose flag", {"tc/cli/main.py": "import argparse\n" * 5}),
        ("Support config files in the CLI", {"tc/cli/main.py": "import argparse\nconfig = 1\n"}),
        ("Document the config file format", {"docs/index.rst": "config\n" * 12}),
        ("fix(cli): exit code on errors", {"tc/cli/main.py": "import sys\n" * 3}),
        ("Mention graph breaks in the FAQ", {"docs/index.rst": "graph breaks\n"}),
    ]
    for title, files in bob_titles:
        repo.commit(title, author=BOB, date=when(), files=files)
    return tables((repo, "acme/tc"))


def themes_of(frame, person, scope="all", key="all"):
    rows = frame.filter((pl.col("person_id") == person) & (pl.col("scope") == scope) & (pl.col("scope_key") == key))
    return {r["theme"]: r for r in rows.iter_rows(named=True)}


def test_themes_from_paths_tags_and_distinctive_title_terms(compiler_repo):
    t = compiler_repo
    themes = person_themes(t["commits"], t["work_items"], t["file_changes"])
    assert themes.schema == pl.Schema(THEMES_SCHEMA)
    ada_id = t["people"].filter(pl.col("display_name") == "Ada Lovelace")["person_id"][0]
    bob_id = t["people"].filter(pl.col("display_name") == "Bob Byte")["person_id"][0]
    ada = themes_of(themes, ada_id)
    # the subject tag and the path agree: one theme, every item of Ada's behind it
    assert ada["Dynamo"]["source"] == "tag"
    ada_items = set(t["work_items"].filter(pl.col("person_id") == ada_id)["work_item_id"])
    assert set(ada["Dynamo"]["work_item_ids"]) == ada_items and len(ada_items) == 5
    # a module named by path: guards.py -> "Dynamo guards", with the items that changed it
    guards = ada["Dynamo guards"]
    assert guards["source"] == "path"
    assert set(guards["work_item_ids"]) == {"acme/tc#pr-101", "acme/tc#pr-105", "acme/tc#pr-106"}
    # a title term that sets Ada apart from Bob (who mentions graph breaks only once)
    by_key = {theme_key(k): v for k, v in ada.items()}
    assert "nested graph break" in by_key or "graph break" in by_key
    term = by_key.get("nested graph break") or by_key["graph break"]
    assert term["source"] == "term" and len(term["work_item_ids"]) >= 2
    assert ada["Dynamo"]["weight"] > term["weight"]
    bob = themes_of(themes, bob_id)
    assert "CLI" in bob and len(bob["CLI"]["work_item_ids"]) >= 2  # fix(cli): scopes and tc/cli/ paths
    assert not any("dynamo" in k.lower() for k in bob), bob.keys()
    assert all(0 < r["weight"] <= 1 for r in ada.values())
    # per month and per repository
    months = themes.filter((pl.col("person_id") == ada_id) & (pl.col("scope") == "month"))["scope_key"].unique().sort()
    assert months.to_list() == ["2025-01"]
    assert themes_of(themes, ada_id, "repo", "acme/tc").keys() == ada.keys()
    # deterministic
    assert themes.equals(person_themes(t["commits"], t["work_items"], t["file_changes"]))


def test_a_revert_by_someone_else_is_not_their_theme(make_repo):
    repo = make_repo("rev")
    repo.commit("base", author=("Carl", "carl@example.com"), date="2024-06-01T10:00:00+00:00",
                files={"net/tcp.py": "a\n", "README": "x\n"})
    sha = repo.commit("net: tune the tcp window", author=ADA, date="2025-01-02T10:00:00+00:00",
                      files={"net/tcp.py": "a\nb\n"})
    repo.revert(sha, author=BOB, date="2025-01-03T10:00:00+00:00")
    t = tables((repo, "acme/stack"))
    themes = person_themes(t["commits"], t["work_items"], t["file_changes"])
    bob_id = t["people"].filter(pl.col("display_name") == "Bob Byte")["person_id"][0]
    ada_id = t["people"].filter(pl.col("display_name") == "Ada Lovelace")["person_id"][0]
    assert "Net" in themes_of(themes, ada_id)
    bob_items = {w for ids in themes.filter(pl.col("person_id") == bob_id)["work_item_ids"] for w in ids}
    ada_items = {w for ids in themes.filter(pl.col("person_id") == ada_id)["work_item_ids"] for w in ids}
    assert not bob_items & ada_items


def test_a_change_without_lines_gives_no_path_share(make_repo):
    """git/git's `pre-push.sample: Make the script executable` (a mode change, 0 lines) gave its
    author a path theme of weight NaN (0 / 0), which sorted above every real weight."""
    repo = make_repo("mode")
    repo.commit("base", author=("Carl", "carl@example.com"), date="2024-06-01T10:00:00+00:00",
                files={"hooks/pre-push.sample": "#!/bin/sh\n", "net/tcp.py": "a\n"})
    (repo.path / "hooks/pre-push.sample").chmod(0o755)
    repo.commit("pre-push.sample: make the script executable", author=ADA, date="2025-01-02T10:00:00+00:00")
    repo.commit("net: tune the tcp window", author=BOB, date="2025-01-03T10:00:00+00:00",
                files={"net/tcp.py": "a\nb\n"})
    t = tables((repo, "acme/stack"))
    assert t["file_changes"].filter(pl.col("lines_added") + pl.col("lines_deleted") == 0).height == 1
    themes = person_themes(t["commits"], t["work_items"], t["file_changes"])
    assert themes.filter(pl.col("weight").is_nan()).height == 0
    ada_id = t["people"].filter(pl.col("display_name") == "Ada Lovelace")["person_id"][0]
    bob_id = t["people"].filter(pl.col("display_name") == "Bob Byte")["person_id"][0]
    assert [r["source"] for r in themes_of(themes, ada_id).values()] == ["tag"]  # the subject's `pre-push.sample:`
    assert themes_of(themes, bob_id)["Net"]["weight"] == 1.0


@pytest.mark.parametrize("path,name", [
    ("torch/_dynamo/guards.py", "Dynamo guards"),
    ("torch/_dynamo/utils.py", "Dynamo"),
    ("src/flask/blueprints.py", "Flask blueprints"),
    (".github/workflows/tests.yaml", "Workflows"),
    ("requirements/dev.txt", None),
    ("tests/data/cases/pep_572.py", None),
    ("tests/unit/test_views.py", "Views"),
    ("docs/usage_and_configuration/the_basics.md", "Usage and configuration docs"),
    ("docs/index.rst", "Docs"),
    ("tests/test_blueprints.py", "Blueprints"),
    ("src/flask/__init__.py", "Flask"),
    ("setup.py", None),
    ("README.md", None),
    # a build tool's file or configuration names no module (httpx: "Noxfile" was a theme)
    ("noxfile.py", None),
    ("src/httpx/__version__.py", "Httpx"),  # a dunder module is its stem: generic (was "Httpx version")
    ("packages/editor/vite.config.ts", "Editor"),
    ("web/profile.py", "Web profile"),
    # a platform's variant names its module (fzf's months read "TUI light unix", "Algo runeindex x86")
    ("src/tui/light_unix.go", "TUI light"),
    ("src/algo/runeindex_x86.go", "Algo runeindex"),
    ("src/tui/tcell_windows_amd64.go", "TUI tcell"),
    # Elixir/Erlang's priv/ holds an application's private files: no area (phoenix's "Priv")
    ("priv/static/app.css", None),
    ("priv/gettext/errors.pot", "Gettext"),
    # Cucumber's tests name the area they test, their steps nothing (jekyll's "Features")
    ("features/site_configuration.feature", "Site configuration"),
    ("features/step_definitions/jekyll_steps.rb", None),
    ("features/support/helpers.rb", None),
    ("src/features/auth/login.ts", "Auth login"),
    # one of a numbered series names nothing; its folder does (FastAPI's "Tutorial001")
    ("docs_src/path_params/tutorial001.py", "Path params"),
    ("docs_src/path_params/tutorial002_py310.py", "Path params"),
    ("docs_src/path_params/tutorial002_an_py39.py", "Path params"),
    ("docs_src/path_params/tutorial008b.py", "Path params"),
    ("fastapi/openapi/utils.py", "OpenAPI"),
    ("tests/test_tutorial/test_path_params/test_tutorial001.py", "Path params"),
    ("src/encoding/base64.py", "Encoding base64"),
])
def test_module_names(path, name):
    assert module_name(path) == name


@pytest.mark.parametrize("raw,text,tags,wrapper", [
    ('Reapply "[dynamo] Support type inspection on unrealized LazyConstantVariables (#169513)" (#180856)',
     "Support type inspection on unrealized LazyConstantVariables", ("dynamo",), "reapply"),
    ('Revert "Support x (#1)" (#2)', "Support x", (), "revert"),
    ("fix(snowflake): handle NULL in merge", "Handle NULL in merge", ("snowflake",), None),
    ("Revert D117045746: support min, max in maybe mark dynamic (#194091)",
     "Support min, max in maybe mark dynamic", (), "revert"),
    ("[inductor][cpu] Fuse 3.14 opcodes", "Fuse 3.14 opcodes", ("inductor", "cpu"), None),
    ("[WIP] fix(deps): bump foo", "Bump foo", (), None),
    ("tp_richcompare followups (#184606)", "tp_richcompare followups", (), None),
    # sinatra: the issue reference cut from the end leaves no comma for a sentence to carry
    ("resetting body should drop Content-Length, fixes #608", "Resetting body should drop Content-Length", (), None),
    # svelte: nor a dash (its summary had ended "... implement bind:indeterminate —."); a
    # decrement stays
    ("combine bindings in one handler, implement bind:indeterminate — fixes #910",
     "Combine bindings in one handler, implement bind:indeterminate", (), None),
    ("Stop counting at i--", "Stop counting at i--", (), None),
    # tmux: who reported or suggested it, and the tracker's number, are no part of the change
    ("Zombie windows, requested by Will Maier.", "Zombie windows", (), None),
    ("Fix resize of panes, GitHub issue 2996.", "Fix resize of panes", (), None),
    ("Found by fuzzing: fix overflow", "Found by fuzzing: fix overflow", (), None),
    # curl: a component before a fragment is what names the change
    ("RELEASE-NOTES: synced", "RELEASE-NOTES: synced", (), None),
    ("mailmap: Ralf Mueller", "mailmap: Ralf Mueller", (), None),
    ("net: tcp: fix the window in the stack", "Fix the window in the stack", ("net", "tcp"), None),
    # ripgrep: a short phrase keeps its area ("start next section" alone names nothing); the
    # area is still a tag, and a list of areas is several
    ("changelog: start next section", "changelog: start next section", (), None),  # (a generic tag)
    ("globset: support backslash escaping", "globset: support backslash escaping", ("globset",), None),
    ("ignore,globset: increase pool capacity", "ignore,globset: increase pool capacity", ("ignore", "globset"), None),
    ("net: tcp: fix the window", "tcp: fix the window", ("net", "tcp"), None),
    # a project's record file is no area of work (curl's summary: 'works mainly on URL, Docs and known_bugs')
    ("KNOWN_BUGS: remove the mention of the proxy bug", "Remove the mention of the proxy bug", (), None),
    # CHANGES-style first lines: no bullet, no address, no link in prose
    ("- Paul Marquis <pmarquis@iname.com> fixed the config parsing",
     "Paul Marquis fixed the config parsing", (), None),
    ("- Fixed return types, bug report #1823487 (http://curl.haxx.se/bug/view.cgi?id=1823487) pointed out",
     "Fixed return types, bug report #1823487 pointed out", (), None),
    # Trac's ticket references name the tracker, not the change (SQLAlchemy)
    ("engine.url cleanups [ticket:742]", "engine.url cleanups", (), None),  # (code stays as written)
    ("Fix the pool size (ticket #12)", "Fix the pool size", (), None),
    # a gitmoji opening a subject is no word of it, nor a tag (nlohmann/json, express)
    (":rotating_light: fixed warning", "Fixed warning", (), None),
    ("💚 add legacy CI, clean up", "Add legacy CI, clean up", (), None),
    ("♻️ [parser] simplify the lexer", "Simplify the lexer", ("parser",), None),
    ("⬆️ bump pytest to 8", "Bump pytest to 8", (), None),
    # tmux: whose patch it is names no area of work
    ("Handle focus events from the terminal, from Aaron Jensen.", "Handle focus events from the terminal", (), None),
    # curl: "..., as reported by X" had left "as" behind; a subject that opens with the credit keeps it all
    ("default proxy port set, as reported by Sebastien Willemijns", "Default proxy port set", (), None),
    ("As reported by nodak sodak we should check for a NULL pointer",
     "As reported by nodak sodak we should check for a NULL pointer", (), None),
    ("Add focus notifications, based on work by Aaron Jensen", "Add focus notifications", (), None),
    ("Don't error if renaming a session to its current name, from shik dot chen at gmail dot com",
     "Don't error if renaming a session to its current name", (), None),
    ("Import from Visual Studio Code", "Import from Visual Studio Code", (), None),
    ("Build binaries by GitHub Actions", "Build binaries by GitHub Actions", (), None),
    # tornado: a change of every module names none
    ("*: Finish adding type annotations", "Finish adding type annotations", (), None),
    # lodash: an issue closed in brackets, and a CI directive, left `[ ]` in the summary
    ("Ensure _.throttle nulls the timeoutId. [closes #3189]", "Ensure _.throttle nulls the timeoutId", (), None),
    ("Rebuild dist. [ci skip]", "Rebuild dist", (), None),
    # retrofit: going back to an approach wraps no commit's subject ("Shipped: back to an
    # OnSubscribe-based RxJava adapter"); a wrapped subject still unwraps
    ("Revert back to an OnSubscribe-based RxJava adapter.", "Revert back to an OnSubscribe-based RxJava adapter", (), None),
    ("Revert to the old parser", "Revert to the old parser", (), None),
    ("revert map/zip changes", "Map/zip changes", (), "revert"),
    # webpack: the file a title names as where it changed things is no theme ("lib dependencies")
    ("fix #14610 in lib/dependencies/CommonJsFullRequireDependency.js", "Fix #14610", (), None),
    ("Fix #549 in builtin.c", "Fix #549", (), None),
    ("Support tabs in the grid", "Support tabs in the grid", (), None),
])
def test_clean_titles(raw, text, tags, wrapper):
    clean = clean_title(raw)
    assert (clean.text, clean.tags, clean.wrapper) == (text, tags, wrapper)


def test_title_terms_skip_stopwords_and_keep_versions():
    terms = title_terms("Support nested graph breaks on Python 3.14")
    assert {"nested graph breaks", "graph breaks", "python 3.14"} <= terms
    assert not any(t.split()[0] in ("support", "on") or t.split()[-1] == "on" for t in terms)


def test_a_contraction_without_its_apostrophe_and_an_issue_as_one_word_are_no_theme_terms():
    """urfave/cli: Naveen Gogineni's months went into "Dont" (6 of them) and "issue_1916"."""
    terms = title_terms("Dont show help for hidden flags issue_1916")
    assert "hidden flags" in terms
    assert not any(w in ("dont", "issue_1916") for t in terms for w in t.split())


def test_file_names_in_titles_are_no_theme_terms():
    # httpx months read "Update stale.yml", "test_url.py" as themes
    terms = title_terms("Update stale.yml and test_url.py cases for Node.js in Response.next")
    assert not [t for t in terms if ".yml" in t or ".py" in t]
    assert {"node.js", "response.next"} <= terms


def test_words_for_everything_are_no_themes_and_acronyms_are_written_as_such():
    # ripgrep months read "dealt with everything" and "went into Pcre2, CLI and Msrv"
    assert not [t for t in title_terms("update everything else in various places") if "everything" in t]
    assert module_name("crates/pcre2/src/matcher.rs", "BurntSushi/ripgrep") == "PCRE2 matcher"
    # serde's summary read "works mainly on De, Serde derive and Ser" (Rust's de/ and ser/ modules)
    assert module_name("serde/src/de/mod.rs", "serde-rs/serde") == "Deserialization"
    # a short name is the repository's too (rq/rq's package folder had been Selwin Ong's first theme)
    assert module_name("rq/worker.py", "rq/rq") == "Worker"
    assert module_name("rq/utils.py", "rq/rq") is None
    assert module_name("serde/src/ser/impls.rs", "serde-rs/serde") == "Serialization impls"


def test_a_dotnet_project_named_as_the_repository_and_its_test_project_name_no_theme():
    """Newtonsoft.Json: "works mainly on Serialization, Linq and Newtonsoft.Json", with themes
    "Newtonsoft.Json.Tests" and "Serialization JsonSerializerTest": the project folder is the
    repository, the test project's files are tests, Properties/ is where .NET keeps assembly info."""
    repo = "JamesNK/Newtonsoft.Json"
    assert module_name("Src/Newtonsoft.Json/JsonReader.cs", repo) == "JsonReader"
    assert module_name("Src/Newtonsoft.Json/Serialization/JsonSerializerInternalReader.cs", repo).startswith("Serialization")
    assert module_name("Src/Newtonsoft.Json.Tests/Serialization/JsonSerializerTest.cs", repo) is None
    assert module_name("Src/Newtonsoft.Json.Tests/Issues/Issue2504.cs", repo) is None
    assert module_name("Src/Newtonsoft.Json/Properties/AssemblyInfo.cs", repo) == "AssemblyInfo"
    # a folder with one word of the repository's and others of its own is an area
    assert module_name("Src/Json.Schema/Validator.cs", repo) == "Json.Schema Validator"


def test_a_neovim_plugins_lua_folder_names_no_theme():
    """lazy.nvim: every Neovim plugin keeps its code in lua/; Folke Lemaitre's themes read "Lua"."""
    assert module_name("lua/lazy/manage/git.lua", "folke/lazy.nvim") == "Manage git"
    assert module_name("lua/lazy/view/float.lua", "folke/lazy.nvim").startswith("View")
    assert module_name("lua/lazy/init.lua", "folke/lazy.nvim") is None
    assert module_name("lua/lazy/loader.lua", "folke/lazy.nvim") == "Loader"


def test_title_ngrams_per_text_positions_written_forms_and_terms():
    frame = pl.DataFrame({"id": [1, 2], "text": ["Speed up CUDA graphs", "Cygwin: CUDA graphs on Python 3.14"]})
    grams = title_ngrams(frame, "id", "text")
    rows = {(r["id"], r["pos"], r["written"]): (r["gram"], r["is_term"]) for r in grams.to_dicts()}
    # n-grams never cross texts; a sentence-initial capital is lowered, other case kept
    assert (1, 0, "speed up CUDA") in rows and (1, 1, "up CUDA graphs") in rows
    assert not any(w.endswith("Cygwin") or w.startswith("graphs Cygwin") for _, _, w in rows)
    assert (2, 0, "cygwin") in rows and rows[(2, 1, "CUDA graphs")] == ("cuda graphs", True)
    assert rows[(2, 3, "on Python 3.14")] == ("on python 3.14", False)  # starts with a stopword
    assert rows[(2, 4, "Python 3.14")] == ("python 3.14", True)
    assert grams.filter(pl.col("id") == 1)["pos"].max() == 3


def test_mirror_sources_from_named_pull_requests(make_repo):
    repo = make_repo("mirror")
    for i in range(3):
        repo.commit(f"change {i} (#{10 + i})\n\nSummary: x\n\nX-link: https://github.com/pytorch/pytorch/pull/{10 + i}\n"
                    f"Approved by: https://github.com/someone", author=ADA, date=f"2025-01-0{i + 1}T10:00:00+00:00",
                    files={f"f{i}.py": "x\n"})
    repo.commit("own change\n\nSee https://github.com/pytorch/benchmark/pull/5", author=BOB,
                date="2025-01-05T10:00:00+00:00", files={"g.py": "y\n"})
    t = tables((repo, "pytorch/benchmark"))
    m = mirror_sources(t["commits"])
    assert m.to_dicts() == [{"repo": "pytorch/benchmark", "mirror_of": "pytorch/pytorch", "commits": 3, "total": 4}]
    per = mirror_sources(t["commits"], per_person=True)
    assert per["mirror_of"].to_list() == ["pytorch/pytorch"] and per["total"].to_list() == [3]


def test_directories_named_like_the_repository_are_generic_there():
    assert module_name("src/flask/app.py", "pallets/flask") == "App"
    assert module_name("src/flask/sansio/app.py", "pallets/flask") == "Sansio app"
    assert module_name("src/flask/app.py", "acme/web") == "Flask app"


def test_subject_tags_that_name_tests_are_not_themes(make_repo):
    repo = make_repo("gitlike")
    repo.commit("base", author=("Carl", "carl@example.com"), date="2024-06-01T10:00:00+00:00",
                files={"http.c": "a\n", "t/t5551-http-fetch-smart.sh": "t\n", "t/lib-httpd.sh": "l\n"})
    days = iter(range(2, 20))
    for subject, files in [
        ("t5551: drop flaky timeout", {"t/t5551-http-fetch-smart.sh": "t\nu\n"}),
        ("t5551: cover the redirect case", {"t/t5551-http-fetch-smart.sh": "t\nu\nv\n"}),
        ("t: use test_grep in httpd helpers", {"t/lib-httpd.sh": "l\nm\n"}),
        ("t/lib-httpd: quote the port", {"t/lib-httpd.sh": "l\nm\nn\n"}),
        ("http: fix leak of the curl handle", {"http.c": "a\nb\n"}),
        ("http: retry on 429", {"http.c": "a\nb\nc\n"}),
        # the repository's own name as a tag ("gitlike:" in acme/gitlike) names no area of it
        ("gitlike: show the progress meter", {"http.c": "a\nb\nc\nd\n"}),
        ("gitlike: accept a proxy option", {"http.c": "a\nb\nc\nd\ne\n"}),
        # a tracker's number as a tag (Alamofire's `[PR #2047]`) names no area either
        ("[PR #2047] Added the retry count to the request", {"http.c": "a\nb\nc\nd\ne\nf\n"}),
        ("[Issue #1809] Fixed the redirect of the request", {"http.c": "a\nb\nc\nd\ne\nf\ng\n"}),
    ]:
        repo.commit(subject, author=ADA, date=f"2025-01-{next(days):02d}T10:00:00+00:00", files=files)
    t = tables((repo, "acme/gitlike"))
    themes = person_themes(t["commits"], t["work_items"], t["file_changes"])
    ada_id = t["people"].filter(pl.col("display_name") == "Ada Lovelace")["person_id"][0]
    names = set(themes_of(themes, ada_id))
    assert "HTTP" in names or "Http" in names
    assert not {"T", "T5551", "t/lib-httpd", "Gitlike"} & names
    assert not [n for n in themes["theme"].to_list() if "#" in n]


def test_keeping_the_changelog_and_credits_up_to_date_is_no_theme(make_repo):
    """requests: Kenneth Reitz's summary opened 'works mainly on Models, Sessions and history':
    57 items titled `history` edit HISTORY.rst, 32 edit AUTHORS, and `poster` was a vendored
    library. Items that change only a project's records or vendored code name no area of work;
    the code work of the same days still does."""
    repo = make_repo("records")
    carl = ("Carl", "carl@example.com")
    repo.commit("base", author=carl, date="2024-06-01T10:00:00+00:00",
                files={"net/tcp.py": "a\n", "HISTORY.rst": "History\n", "AUTHORS": "Carl\n"})
    lead = ["updated", "makin'", "beautiful", "latest", "more", "new", "changing", "tidy"]
    for k, day in enumerate(range(1, 25, 3)):  # days apart: eight items of each, not one chain
        repo.commit(f"{lead[k]} history", author=ADA, date=f"2025-01-{day:02d}T10:00:00+00:00",
                    files={"HISTORY.rst": f"History\n{'-' * day}\n"})
        repo.commit(f"{lead[k]} AUTHORS", author=ADA, date=f"2025-01-{day:02d}T14:00:00+00:00",
                    files={"AUTHORS": "Carl\n" + "".join(f"P{i}\n" for i in range(day))})
        repo.commit(f"{lead[k]} poster", author=ADA, date=f"2025-01-{day:02d}T16:00:00+00:00",
                    files={"vendor/poster/encode.py": "".join(f"x{i} = {i}\n" for i in range(day))})
        repo.commit(f"retransmit timer step {day}", author=ADA, date=f"2025-01-{day:02d}T18:00:00+00:00",
                    files={"net/tcp.py": "a\n" + "".join(f"t{i}\n" for i in range(day))})
        repo.commit(f"tweak the window {day}", author=BOB, date=f"2025-02-{day:02d}T10:00:00+00:00",
                    files={"net/tcp.py": "a\n" + "".join(f"w{i}\n" for i in range(day))})
    t = tables((repo, "acme/stack"))
    themes = person_themes(t["commits"], t["work_items"], t["file_changes"])
    ada_id = t["people"].filter(pl.col("display_name") == "Ada Lovelace")["person_id"][0]
    names = {name.lower() for name in themes_of(themes, ada_id)}
    assert "history" not in names and "authors" not in names and "poster" not in names
    assert "timer step" in names  # the code work of the same days still is


def test_a_release_is_no_area_of_work(make_repo):
    """phoenix: "Release 1.8.0-rc.3" made "rc.3" a theme of Chris McCord's May 2025, and the
    version strings of each release in installer/mix.exs and mix.exs made "Installer and Mix"
    what he dealt with in months of little else. The code work of the same days still names its
    area."""
    repo = make_repo("releases")
    repo.commit("base", author=BOB, date="2024-06-01T10:00:00+00:00",
                files={"mix.exs": "@version \"1.7.0\"\n", "installer/mix.exs": "@version \"1.7.0\"\n",
                       "lib/phoenix/socket.ex": "a\n", "CHANGELOG.md": "# Changelog\n"})
    for k, day in enumerate(range(1, 25, 3)):
        version = f"1.8.0-rc.{k}"
        repo.commit(f"Release {version}", author=ADA, date=f"2025-01-{day:02d}T10:00:00+00:00",
                    files={"mix.exs": f"@version \"{version}\"\n", "installer/mix.exs": f"@version \"{version}\"\n",
                           "CHANGELOG.md": f"# Changelog\n## {version}\n"})
        repo.commit(f"Track socket transports {day}", author=ADA, date=f"2025-01-{day:02d}T18:00:00+00:00",
                    files={"lib/phoenix/socket.ex": "a\n" + "".join(f"t{i}\n" for i in range(day))})
        repo.commit(f"Tune the socket {day}", author=BOB, date=f"2025-02-{day:02d}T10:00:00+00:00",
                    files={"lib/phoenix/socket.ex": "a\n" + "".join(f"w{i}\n" for i in range(day))})
    t = tables((repo, "acme/phoenix"))
    assert t["work_items"].filter(pl.col("title").str.starts_with("Release"))["category"].unique().to_list() == ["chore"]
    themes = person_themes(t["commits"], t["work_items"], t["file_changes"])
    ada_id = t["people"].filter(pl.col("display_name") == "Ada Lovelace")["person_id"][0]
    names = {name.lower() for name in themes_of(themes, ada_id)}
    assert not {n for n in names if "rc" in n.split() or "installer" in n or "mix" in n.split() or "release" in n}, names
    assert "socket transports" in names or "socket" in names, names


def test_a_theme_that_only_adds_words_to_another_with_the_same_items_is_dropped():
    from exceeds_pipeline.themes.build import _drop_narrower

    ids = pl.List(pl.String)
    frame = pl.DataFrame(
        {
            "person_id": ["p"] * 5 + ["q"],
            "scope": ["all"] * 6,
            "scope_key": [""] * 6,
            "_key": ["model tracing", "model tracing run", "model tracing run fast", "model tracingx",
                     "model", "model tracing run"],
            "work_item_ids": [["a", "b"], ["a", "b"], ["a"], ["a", "b"], ["a", "b", "c"], ["a", "b"]],
        },
        schema_overrides={"work_item_ids": ids},
    )
    kept = _drop_narrower(frame).sort("person_id", "_key")
    # "model tracing run" extends "model tracing" with the same items; "model tracingx" is no
    # extension by words; "model tracing run fast" has other items; q has no broader theme
    assert kept.select("person_id", "_key").rows() == [
        ("p", "model"), ("p", "model tracing"), ("p", "model tracing run fast"), ("p", "model tracingx"),
        ("q", "model tracing run"),
    ]


def test_phrase_halves_and_negated_verbs_are_no_themes():
    """sinatra: Konstantin Haase's themes read 'longer', 'sure' and 'rely' (from 'no longer',
    'make sure', 'do not rely on ...')."""
    from exceeds_pipeline.themes.build import _verb_like

    terms = title_terms("Make sure the session cache is no longer stale")
    assert not {"sure", "longer"} & terms and "session cache" in terms
    items = pl.DataFrame({"_clean": ["do not rely on to_ary", "don't rely on each", "cookies that rely on rack",
                                     "cookies for sessions"]})
    verbs = _verb_like(items)
    assert "rely" in verbs and "cookies" not in verbs


def test_contraction_halves_and_release_numbering_are_no_themes():
    """click: David Lord's themes read 'Options, doesn and type cast' and 'Options, Docs and dev0'."""
    terms = title_terms("Option prompt doesn't show the default for 8.0.0.dev0")
    assert not {"doesn", "dev0", "t"} & terms
    assert "option prompt" in terms


def test_pointing_words_of_prose_are_no_themes():
    """SQLAlchemy: Mike Bayer's term themes read 'ticket', 'here' and 'whereby'."""
    terms = title_terms("Add a check here for the ticket whereby the pool resets")
    assert not {"here", "ticket", "whereby"} & terms and "pool resets" in terms
    terms = title_terms("Options would not be applied to the subclass loader")
    assert "would" not in terms and "subclass loader" in terms
    terms = title_terms("Drop unneccessary optional fixture from the proxy transport")
    assert not {"unneccessary", "optional", "fixture"} & terms and "proxy transport" in terms


def test_a_kind_of_defect_is_no_area_of_work():
    """rubocop: Koichi Ito's months 'went into Style, Lint and incorrect autocorrect', with 'false
    positive' (112 work items) among the departments."""
    terms = title_terms("Fix a false positive for the hash alignment cop")
    assert not {"false positive", "false", "positive"} & terms and "hash alignment cop" in terms
    terms = title_terms("Fix an incorrect autocorrect for the hash syntax cop")
    assert "incorrect autocorrect" not in terms and "hash syntax cop" in terms


def test_the_changelog_folder_is_no_area_of_work(make_repo):
    """SQLAlchemy: every change adds its entry under doc/build/changelog/unreleased_20/, and its
    author's summary read 'works mainly on ORM, SQL and Changelog docs'."""
    repo = make_repo("changelog-folder")
    for day in range(1, 25, 3):
        repo.commit(f"retransmit timer step {day}", author=ADA, date=f"2025-01-{day:02d}T18:00:00+00:00",
                    files={"lib/net/tcp.py": "a\n" + "".join(f"t{i}\n" for i in range(day)),
                           f"doc/build/changelog/unreleased_20/{100 + day}.rst":
                           ".. change::\n    :tags: bug\n\n" + "".join(f"    Line {i}.\n" for i in range(3 * day)),
                           "doc/build/changelog/changelog_20.rst": "".join(f"- entry {i}\n" for i in range(day))})
    t = tables((repo, "acme/stack"))
    themes = person_themes(t["commits"], t["work_items"], t["file_changes"])
    ada_id = t["people"].filter(pl.col("display_name") == "Ada Lovelace")["person_id"][0]
    names = {name.lower() for name in themes_of(themes, ada_id)}
    assert not any("changelog" in n or "unreleased" in n for n in names), names
    assert names  # the code work still names areas


def test_a_plain_word_alone_is_no_theme_but_a_name_or_a_phrase_is(make_repo):
    """gson: Marcono1234's months read "outdated", "regarding", "args"; jq's "overflow", "raw",
    "bounds". A single plain lower-case word names no area; a name as written (GitHub,
    CodeQL) or a phrase ("copy mode") does."""
    repo = make_repo("lib")
    repo.commit("Initial commit", author=("Carl", "carl@example.com"), date="2025-01-01T10:00:00+00:00",
                files={"README.md": "lib\n", "src/a.py": "a = 1\n"})
    titles = ["Remove outdated comment in the copy mode code", "Remove outdated CodeQL config",
              "Fix outdated copy mode docs", "Update CodeQL workflow for copy mode",
              "Drop outdated args from the CodeQL job"]
    for i, title in enumerate(titles):  # five changes, days apart
        repo.commit(title, author=ADA, date=f"2025-01-{2 + 4 * i:02d}T10:00:00+00:00", files={f"src/a{i}.py": f"a = {i}\n"})
    for i in range(6):
        repo.commit(f"Tune the parser pass {i}", author=BOB, date=f"2025-02-{2 + 4 * i:02d}T10:00:00+00:00",
                    files={f"src/b{i}.py": f"b = {i}\n"})
    t = tables((repo, "acme/lib"))
    frame = person_themes(t["commits"], t["work_items"], t["file_changes"])
    terms = {r["theme"] for r in frame.filter((pl.col("person_id") == "ada-lovelace") & (pl.col("source") == "term"))
             .iter_rows(named=True)}
    assert "CodeQL" in terms and "copy mode" in terms
    assert not {"outdated", "args"} & terms


def test_a_jvm_packages_organisation_a_versioned_repository_name_and_a_tools_bundle_name_no_area():
    # square/okhttp: every file sat in "Squareup" (com/squareup/okhttp/) or "Okhttp3" (okhttp3/)
    assert module_name("okhttp/src/main/java/com/squareup/okhttp/Cache.java", "square/okhttp") == "Cache"
    assert module_name("okhttp/src/main/java/okhttp3/Cache.java", "square/okhttp") == "Cache"
    assert module_name("okhttp/src/main/java/okhttp3/internal/http2/Hpack.java", "square/okhttp") == "Http2 Hpack"
    assert module_name("src/main/kotlin/org/acme/billing/Invoice.kt", "acme/shop") == "Billing Invoice"
    # a Gradle source set is no area, and a test source set is a test tree
    assert module_name("okhttp/src/jvmMain/kotlin/okhttp3/internal/tls/CertificateChainCleaner.kt",
                       "square/okhttp") == "TLS CertificateChainCleaner"
    assert module_name("okhttp/src/jvmTest/kotlin/okhttp3/CacheTest.kt", "square/okhttp") is None
    assert module_name("web/latest/Hooks.java", "acme/shop") == "Latest Hooks"
    # a package outside a source root keeps its names: only `java/<domain>/<org>` is an organisation
    assert module_name("server/com/squareup/Hooks.java", "acme/shop") == "Squareup Hooks"
    # Alamofire: "Alamofire.xcodeproj" led its author's themes (project.pbxproj, the schemes)
    assert module_name("Alamofire.xcodeproj/project.pbxproj", "Alamofire/Alamofire") is None
    assert module_name("Example/iOS Example.xcodeproj/xcshareddata/xcschemes/iOS.xcscheme", "Alamofire/Alamofire") is None
