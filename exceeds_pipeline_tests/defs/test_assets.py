"""The Dagster wiring asset by asset, in process: `dagster.materialize([...], resources=...)` on a
real repository, a real warehouse DuckDB and the real resources (no CLI, no subprocess)."""

import duckdb
import polars as pl
import pytest
from dagster import AssetKey, instance_for_test, materialize

from exceeds_pipeline.defs.history.assets import (
    commit_links,
    commit_skills,
    commits_and_work_items,
    file_changes,
    people_and_identities,
)
from exceeds_pipeline.defs.ingest.assets import (
    code_evidence_asset,
    raw_history_asset,
    raw_history_key,
    repositories_asset,
)
from exceeds_pipeline.defs.profiles.assets import profile_site, profiles
from exceeds_pipeline.defs.publish.assets import PublishLock, exceeds_database
from exceeds_pipeline.defs.quality.assets import quality_assets
from exceeds_pipeline.defs.resources import settings_for, warehouse_io_manager
from exceeds_pipeline.defs.rollups.assets import monthly_rollups, repo_rollups, work_item_credit
from exceeds_pipeline.defs.themes.assets import themes
from exceeds_pipeline.publish.freshness import publish_fingerprint, publish_reason
from exceeds_pipeline_tests.conftest import git_numstat, rev_count
from exceeds_pipeline_tests.gitscript import GitScript

ANN = ("Ann Lee", "ann@example.com")
BO = ("Bo Chen", "bo@example.com")


def _one_repository(tmp_path):
    """(settings, resources) of a deployment of the repository at tmp_path/app as acme/app."""
    config = tmp_path / "exceeds.yaml"
    config.write_text("repositories:\n  - path: app\n    name: acme/app\n")
    settings = settings_for(config, tmp_path / "data")
    return settings, {"settings": settings, "io_manager": warehouse_io_manager(settings),
                      "publish_lock": PublishLock(data_dir=settings.data_dir)}


@pytest.fixture
def deployment(tmp_path):
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Add parser", author=ANN, date="2025-03-01T10:00:00+0100", files={"p.py": "a = 1\nb = 2\n"})
    repo.commit("Fix crash in parser on empty input", author=BO, date="2025-03-05T10:00:00+0100",
                files={"p.py": "a = 1\n"})
    repo.commit("Add README", author=ANN, date="2025-04-02T10:00:00+0100", files={"README.md": "# app\n"})
    settings, resources = _one_repository(tmp_path)
    return repo, settings, resources


def _up_to_commits(settings):
    """The assets from the raw history of the one configured repository to `commits`."""
    repo_cfg = settings.config.repositories[0]
    return [raw_history_asset(repo_cfg), code_evidence_asset(repo_cfg), repositories_asset(settings.config),
            people_and_identities, file_changes, commit_links, commits_and_work_items]


def _file_changes_of(tmp_path):
    """Materialize the repository at tmp_path/app up to `file_changes`; its settings."""
    settings, resources = _one_repository(tmp_path)
    repo_cfg = settings.config.repositories[0]
    with instance_for_test() as instance:
        assert materialize([raw_history_asset(repo_cfg), code_evidence_asset(repo_cfg),
                            repositories_asset(settings.config), file_changes],
                           resources=resources, instance=instance).success
    return settings


def _warehouse(settings, sql):
    with duckdb.connect(str(settings.warehouse), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_raw_history_asset_ingests_one_repository(deployment):
    repo, settings, resources = deployment
    config_repo = settings.config.repositories[0]
    with instance_for_test() as instance:
        result = materialize([raw_history_asset(config_repo)], resources=resources, instance=instance)
        assert result.success
        meta = result.asset_materializations_for_node(raw_history_key("acme/app").to_python_identifier())[0].metadata
        assert meta["mode"].value == "full" and meta["new_commits"].value == 3
        assert meta["dagster/row_count"].value == rev_count(repo.path)
        again = materialize([raw_history_asset(config_repo)], resources=resources, instance=instance)
        meta = again.asset_materializations_for_node(raw_history_key("acme/app").to_python_identifier())[0].metadata
        assert meta["mode"].value == "unchanged" and meta["new_commits"].value == 0
    assert raw_history_key("acme/app") == AssetKey(["raw_git_history", "acme_app"])


def test_derived_assets_from_the_raw_store_to_the_published_database(deployment):
    repo, settings, resources = deployment
    config = settings.config
    with instance_for_test() as instance:
        assert materialize([raw_history_asset(config.repositories[0])], resources=resources, instance=instance).success
        derived = [repositories_asset(config), people_and_identities, file_changes, commit_links,
                   commits_and_work_items, commit_skills, work_item_credit, monthly_rollups, repo_rollups,
                   *quality_assets(config), themes, profiles, profile_site, exceeds_database]
        result = materialize(derived, resources=resources, instance=instance)
        assert result.success

    # the warehouse tables are the assets' outputs, with git's numbers
    numstat = git_numstat(repo.path)
    rows = _warehouse(settings, "SELECT sha, lines_added, lines_deleted, files_changed FROM commits")
    assert {sha: (a, d, f) for sha, a, d, f in rows} == numstat
    assert _warehouse(settings, "SELECT repo, commits, tip FROM repositories") == [
        ("acme/app", 3, repo.git("rev-parse", "HEAD").strip())]
    assert _warehouse(settings, "SELECT person_id, month, commits FROM monthly_rollups ORDER BY 1, 2") == [
        ("ann-lee", "2025-03", 1), ("ann-lee", "2025-04", 1), ("bo-chen", "2025-03", 1)]
    # the published database has every table of the registry, and the publish rule is satisfied
    with duckdb.connect(str(settings.published_database), read_only=True) as con:
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        comment = con.execute("SELECT comment FROM duckdb_columns() WHERE table_name = 'commits' "
                              "AND column_name = 'lines_added'").fetchone()[0]
    from exceeds_pipeline.tables import PUBLISHED_TABLES

    assert tables == set(PUBLISHED_TABLES)
    assert "git log --numstat" in comment
    assert publish_reason(settings.data, publish_fingerprint(config, settings.raw_store())) is None
    profile_ids = pl.read_json(settings.exports_dir / "index.json")
    assert profile_ids.height >= 1
    pages = sorted(p.name for p in (settings.exports_dir / "site" / "people").glob("*.html"))
    assert pages == ["ann-lee.html", "bo-chen.html"]


def test_file_changes_asset_reads_vendored_trees_from_the_commit_subjects(tmp_path):
    # `Update minilib to v2.0.1` names app/packages/minilib as a copy of another project: every
    # change under it is vendored, in any commit; the app's own code stays counted.
    repo = GitScript.init(tmp_path / "app")
    lib = {f"app/packages/minilib/m{i}.py": "".join(f"def f{i}_{k}(x):\n    return x + {k}\n" for k in range(30))
           for i in range(3)}
    repo.commit("Add the app", author=ANN, date="2025-03-01T10:00:00+0100", files={"app/core.py": "a = 1\n"})
    repo.commit("Update minilib to v2.0.1", author=ANN, date="2025-03-02T10:00:00+0100", files=lib)
    repo.commit("Fix the app and its copy of minilib", author=BO, date="2025-03-03T10:00:00+0100",
                files={"app/core.py": "a = 2\n", "app/packages/minilib/m0.py": "x = 0\n"})
    settings, resources = _one_repository(tmp_path)
    with instance_for_test() as instance:
        assert materialize([raw_history_asset(settings.config.repositories[0]), repositories_asset(settings.config),
                            file_changes], resources=resources, instance=instance).success
    rows = _warehouse(settings, "SELECT path, exclusion_reason FROM file_changes ORDER BY path")
    assert {(p, r) for p, r in rows} == {
        ("app/core.py", None), *{(p, "vendored") for p in lib}}
    assert ("app/packages/minilib/m0.py", "vendored") in rows  # the later fix of the copy too


GENERATED_GO = "// Code generated by OpenAPI Generator (https://openapi-generator.tech); DO NOT EDIT.\n\npackage client\n\n"


def test_file_changes_asset_leaves_out_files_whose_first_lines_name_their_generator(tmp_path):
    # The client is generated (its header says so) under a name no path rule knows; it is moved
    # to pkg/, which deletes the old path: both paths are generated in every commit.
    repo = GitScript.init(tmp_path / "app")
    api = GENERATED_GO + "".join(f"func Call{i}() int {{\n\treturn {i}\n}}\n" for i in range(40))
    repo.commit("Add the client", author=ANN, date="2025-03-01T10:00:00+0100",
                files={"internal/client/api.go": api, "core.go": "package app\n", "old.go": "package app\n"})
    repo.commit("Move the client", author=ANN, date="2025-03-02T10:00:00+0100",
                renames={"internal/client/api.go": "pkg/client/api.go"}, files={"old.go": None})
    repo.commit("Regenerate the client", author=BO, date="2025-03-03T10:00:00+0100",
                files={"pkg/client/api.go": api + "func More() {}\n", "core.go": "package app\n\nvar x = 1\n"})
    settings = _file_changes_of(tmp_path)
    rows = _warehouse(settings, "SELECT path, exclusion_reason, lines_added + lines_deleted FROM file_changes")
    reasons = {}
    for path, reason, _ in rows:
        reasons.setdefault(path, set()).add(reason)
    assert reasons == {"internal/client/api.go": {"generated"}, "pkg/client/api.go": {"generated"},
                       "core.go": {None}, "old.go": {None}}
    assert sum(n for p, _, n in rows if "client" in p) == 125  # the lines that no longer count


def test_file_changes_asset_names_a_script_without_extension_by_its_shebang(tmp_path):
    # httpx's scripts/install (`#!/bin/sh -e`) had no language: its lines counted under none and
    # Shell was missing from its authors' languages. A deleted script keeps the language it had.
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Add the scripts", author=ANN, date="2025-03-01T10:00:00+0100",
                files={"scripts/install": "#!/bin/sh -e\npip install -e .\n",
                       "bin/serve": "#!/usr/bin/env python3\nimport app\n",
                       "scripts/old": "#!/usr/bin/env bash\necho old\n",
                       "NOTES": "remember the release\n", "app.py": "x = 1\n"})
    repo.commit("Drop the old script", author=ANN, date="2025-03-02T10:00:00+0100", files={"scripts/old": None})
    settings = _file_changes_of(tmp_path)
    language = dict(_warehouse(settings, "SELECT DISTINCT path, language FROM file_changes"))
    assert language == {"scripts/install": "Shell", "bin/serve": "Python", "scripts/old": "Shell",
                        "NOTES": None, "app.py": "Python"}


def test_file_changes_asset_names_a_file_by_its_content_where_its_extension_is_shared(tmp_path):
    # babashka's `.bb` scripts (Clojure) had made BitBake its author's third language; an
    # extension several languages share is read as Linguist reads it, by its `#!` line or its
    # heuristics. A header keeps its repository's language whatever its content looks like.
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Add the scripts", author=ANN, date="2025-03-01T10:00:00+0100",
                files={"script/release.bb": "#!/usr/bin/env bb\n(println :release)\n",
                       "test/scripts/csv.bb": "(ns csv)\n(defn parse [s] s)\n",
                       "meta/recipes/app.bb": "inherit cmake\nDESCRIPTION = \"app\"\n",
                       "src/app.c": "int main(void) { return 0; }\n",
                       "src/app.h": "#import <Foundation/Foundation.h>\n@interface App\n@end\n"})
    settings = _file_changes_of(tmp_path)
    language = dict(_warehouse(settings, "SELECT DISTINCT path, language FROM file_changes"))
    assert language == {"script/release.bb": "Clojure", "test/scripts/csv.bb": "Clojure",
                        "meta/recipes/app.bb": "BitBake", "src/app.c": "C", "src/app.h": "C"}


def test_commits_asset_takes_the_kind_the_tip_changelog_lists_a_change_under(tmp_path):
    # "Allow a custom port (#7)" reads as a feature; the project's changelog files it as a fix.
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Add the server", author=ANN, date="2025-03-01T10:00:00+0100",
                files={"server.py": "def serve():\n    pass\n"})
    repo.commit("Allow a custom port (#7)", author=BO, date="2025-03-02T10:00:00+0100",
                files={"server.py": "def serve(port=80):\n    pass\n"})
    settings, resources = _one_repository(tmp_path)
    assets = _up_to_commits(settings)
    sql = "SELECT c.category, w.category FROM commits c JOIN work_items w USING (work_item_id) WHERE c.subject LIKE 'Allow%'"
    with instance_for_test() as instance:
        assert materialize(assets, resources=resources, instance=instance).success
        assert _warehouse(settings, sql) == [("feature", "feature")]
        repo.commit("Release 1.0", author=ANN, date="2025-03-03T10:00:00+0100",
                    files={"CHANGELOG.md": "## 1.0\n\n### Bug Fixes\n\n- allow a custom port (#7)\n"})
        result = materialize(assets, resources=resources, instance=instance)
        assert result.success
        meta = result.asset_materializations_for_node("code_evidence__acme_app")[0].metadata
        assert meta["changelog_entries"].value == 1
        assert _warehouse(settings, sql) == [("bug", "bug")]


def test_a_web_editor_edit_is_titled_by_what_its_diff_changed(tmp_path):
    # httpie's `Update README.md`: its item was titled by the file's name. The code evidence step
    # reads what the edit changed; the work item says it. Read once: the next run keeps it.
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Add the server", author=ANN, date="2025-03-01T10:00:00+0100",
                files={"server.py": "def serve():\n    pass\n", "README.md": "The server listen on port 80.\n"})
    repo.commit("Update README.md", author=BO, date="2025-03-05T10:00:00+0100",
                files={"README.md": "The server listens on port 80.\n"})
    settings, resources = _one_repository(tmp_path)
    assets = _up_to_commits(settings)
    sql = "SELECT w.title FROM commits c JOIN work_items w USING (work_item_id) WHERE c.subject = 'Update README.md'"
    with instance_for_test() as instance:
        result = materialize(assets, resources=resources, instance=instance)
        assert result.success
        assert result.asset_materializations_for_node("code_evidence__acme_app")[0].metadata["edit_summaries"].value == 1
        assert _warehouse(settings, sql) == [("Fix a typo in README.md",)]
        stored = settings.raw_store().folder("acme/app")
        assert any(p.name.startswith("edit_summaries") for p in stored.iterdir())


def test_commits_asset_reads_a_change_of_comments_alone_as_documentation(tmp_path):
    # redis: "Fix function names in zslDeleteNode() top comment" read as a fix and "Simplify
    # comment in ..." as a refactoring; their diffs change comments alone. A typo fixed in code
    # stays a fix, and so does a declared `fix:`.
    repo = GitScript.init(tmp_path / "app")
    zset = "/* Delete the node x from zsl: zslDelete() */\nvoid zslDeleteNode(zskiplist *zsl) {\n    *zsl->tail = 0;\n}\n"
    repo.commit("Add skiplists", author=ANN, date="2025-03-01T10:00:00+0100",
                files={"src/t_zset.c": zset, "src/util.py": "# helpers\nx = 1\n", "src/zero.c": "int zero = 0;\n"})
    commented = zset.replace(": zslDelete() */", " used by\n * zslDelete, zslDeleteByScore and\n * zslDeleteByRank */")
    repo.commit("Fix function names in zslDeleteNode() top comment", author=ANN, date="2025-03-02T10:00:00+0100",
                files={"src/t_zset.c": commented})
    repo.commit("Simplify comment in util", author=BO, date="2025-03-03T10:00:00+0100",
                files={"src/util.py": "# small helpers\nx = 1\n", "README.md": "# app\n"})
    repo.commit("Fix crash in zslDeleteNode, see the comment", author=ANN,
                date="2025-03-04T10:00:00+0100", files={"src/t_zset.c": commented.replace("= 0", "= NULL")})
    repo.commit("fix: correct the comment on zero", author=BO, date="2025-03-05T10:00:00+0100",
                files={"src/zero.c": "/* zero */\nint zero = 0;\n"})
    # guzzle's `Fixing docblock argument order`: PHP comments are read as C's are
    client = "<?php\n/**\n * @param array $options\n * @param string $uri\n */\nfunction send($uri, $options) {}\n"
    repo.commit("Add the client", author=ANN, date="2025-03-06T10:00:00+0100", files={"src/Client.php": client})
    repo.commit("Fixing docblock argument order", author=ANN, date="2025-03-07T10:00:00+0100",
                files={"src/Client.php": client.replace("array $options\n * @param string $uri", "string $uri\n * @param array $options")})
    repo.commit("Fixing argument order", author=ANN, date="2025-03-08T10:00:00+0100",
                files={"src/Client.php": client.replace("send($uri, $options)", "send($options, $uri)")})
    # ... but PHPUnit's annotations are read by the test runner: `@covers` says what a test checks
    test = "<?php\n/**\n * @covers Client::get\n */\nfunction testSend() { send('/', []); }\n"
    repo.commit("Add a client test", author=ANN, date="2025-03-09T10:00:00+0100", files={"tests/ClientTest.php": test})
    repo.commit("Fixing PHPUnit @covers annotation", author=ANN, date="2025-03-10T10:00:00+0100",
                files={"tests/ClientTest.php": test.replace("Client::get", "Client::send")})
    # rich's `ws` ("in to" -> "into" in two docstrings) and ecto's `@doc` rewrites: documentation
    # written as strings is documentation; a string the code uses is code, and so is a comment
    # with code after it on its line (webpack's `/** @type {X} */ (expr)` casts)
    console = ('"""The console."""\nQUERY = """\nselect 1\n"""\n\n\nclass Console:\n'
               '    """Write to the terminal.\n\n    Call print in to the console.\n    """\n\n'
               '    def print(self):\n        "Print in to the file."\n        return QUERY\n')
    repo.commit("Add the console", author=BO, date="2025-03-11T10:00:00+0100",
                files={"rich/console.py": console,
                       "lib/repo.ex": 'defmodule Repo do\n  @moduledoc """\n  The repo.\n  """\n\n'
                                      '  @doc """\n  Inserts a row.\n  """\n  def insert(row), do: {:ok, row}\n\n'
                                      '  def sql, do: """\n  insert\n  """\nend\n',
                       "lib/group.js": "const c = /** @type {Child} */ (group.children);\n"})
    repo.commit("ws", author=BO, date="2025-03-12T10:00:00+0100",
                files={"rich/console.py": console.replace("in to", "into")})
    repo.commit("Tweak the query", author=BO, date="2025-03-13T10:00:00+0100",
                files={"rich/console.py": console.replace("into", "in to").replace("select 1", "select 2")})
    repo.commit("Polish the repo", author=BO, date="2025-03-14T10:00:00+0100",
                files={"lib/repo.ex": 'defmodule Repo do\n  @moduledoc """\n  The repository of rows.\n  """\n\n'
                                      '  @doc """\n  Inserts a row, or fails.\n  """\n  def insert(row), do: {:ok, row}\n\n'
                                      '  def sql, do: """\n  insert\n  """\nend\n'})
    repo.commit("Polish the sql", author=BO, date="2025-03-15T10:00:00+0100",
                files={"lib/repo.ex": 'defmodule Repo do\n  @moduledoc """\n  The repository of rows.\n  """\n\n'
                                      '  @doc """\n  Inserts a row, or fails.\n  """\n  def insert(row), do: {:ok, row}\n\n'
                                      '  def sql, do: """\n  insert into t\n  """\nend\n'})
    repo.commit("Tidy the cast", author=BO, date="2025-03-16T10:00:00+0100",
                files={"lib/group.js": "const c = /** @type {Child[]} */ (group.children);\n"})
    # dplyr's roxygen documentation (`#'` lines in R/*.R): an example added is documentation
    recode = "#' Recode values\n#' @export\nrecode_values <- function(x) x\n"
    repo.commit("Add recode_values()", author=BO, date="2025-03-17T10:00:00+0100", files={"R/recode.R": recode})
    repo.commit("Add an example of recode_values() + across()", author=BO, date="2025-03-18T10:00:00+0100",
                files={"R/recode.R": recode.replace("#' @export", "#' @examples\n#' recode_values(1)\n#' @export")})
    # bubbletea's `Add missing Go 1.17 build tags in Windows files`: a build constraint is written
    # as a comment, but the Go toolchain reads it to decide where the file compiles
    tty = "// +build windows\n\n// Package tea opens the terminal.\npackage tea\n\nfunc open() {}\n"
    repo.commit("Add the Windows terminal", author=ANN, date="2025-03-19T10:00:00+0100", files={"tty_windows.go": tty})
    repo.commit("Add missing Go 1.17 build tags in Windows files", author=ANN, date="2025-03-20T10:00:00+0100",
                files={"tty_windows.go": "//go:build windows\n" + tty})
    repo.commit("Reword the terminal package comment", author=ANN, date="2025-03-21T10:00:00+0100",
                files={"tty_windows.go": "//go:build windows\n" + tty.replace("opens", "opens and closes")})
    # commander's `Rework option inline doc`: 94 lines of JSDoc and the parameter renamed to
    # match, 12 lines of code; a fix that also documents stays a fix
    option = "".join(f"  /**\n   * Define option {i} with its flags.\n   * The flags name the option.\n   * Its value is parsed by fn.\n   *\n"
                     f"   * @param {{string}} flags\n   * @param {{Function}} fn\n   */\n  option{i}(flags, fn) {{ return fn(flags); }}\n"
                     for i in range(4))
    repo.commit("Add the options", author=ANN, date="2025-03-22T10:00:00+0100", files={"lib/command.js": option})
    repo.commit("Rework option inline doc", author=ANN, date="2025-03-23T10:00:00+0100",
                files={"lib/command.js": option.replace("flags", "names").replace("fn", "parseArg")})
    repo.commit("Fix the flag parser and document it", author=ANN, date="2025-03-24T10:00:00+0100",
                files={"lib/parse.js": "// Split the flags.\nfunction parse(f) {\n  return f.split(/[ ,|]+/);\n}\nmodule.exports = parse;\n"})
    # execa documents its API in the JSDoc of its .d.ts files without the `*` that marks a
    # comment line: an `@example` of plain code lines, read from the file when the subject
    # speaks of documentation (`Add custom logging section to readme.md`); a type is code
    types = ("/**\nRun a command.\n\n@example\n```\nawait execa`npm run build`;\n```\n*/\n"
             "export function execa(file: string): Promise<void>;\n")
    repo.commit("Add the types", author=BO, date="2025-03-25T10:00:00+0100", files={"types/main.d.ts": types})
    logging = types.replace("```\n*/", "```\n\n@example <caption>Custom logging</caption>\n\n```\n"
                            "import {createLogger} from 'winston';\nconst logger = createLogger({level: 'info'});\n```\n*/")
    repo.commit("Add custom logging section to `readme.md`", author=BO, date="2025-03-26T10:00:00+0100",
                files={"types/main.d.ts": logging, "README.md": "# app\n\n## Custom logging\n\nUse winston.\n"})
    repo.commit("Return the output, as the readme says", author=BO, date="2025-03-27T10:00:00+0100",
                files={"types/main.d.ts": logging.replace("Promise<void>", "Promise<string>")})
    settings, resources = _one_repository(tmp_path)
    assets = _up_to_commits(settings)
    with instance_for_test() as instance:
        assert materialize(assets, resources=resources, instance=instance).success
    category = dict(_warehouse(settings, "SELECT subject, category FROM commits"))
    assert category["Rework option inline doc"] == "docs"
    assert category["Fix the flag parser and document it"] != "docs"
    assert category["Add missing Go 1.17 build tags in Windows files"] != "docs"
    assert category["Reword the terminal package comment"] == "docs"
    assert category["ws"] == "docs" and category["Polish the repo"] == "docs"
    assert category["Tweak the query"] != "docs" and category["Polish the sql"] != "docs"
    assert category["Tidy the cast"] != "docs"
    assert category["Fix function names in zslDeleteNode() top comment"] == "docs"
    assert category["Simplify comment in util"] == "docs"
    assert category["Fix crash in zslDeleteNode, see the comment"] == "bug"
    assert category["fix: correct the comment on zero"] == "bug"
    assert category["Fixing docblock argument order"] == "docs"
    assert category["Fixing argument order"] == "bug"
    assert category["Fixing PHPUnit @covers annotation"] == "test"
    assert category["Add an example of recode_values() + across()"] == "docs"
    assert category["Add recode_values()"] == "feature"
    assert category["Add custom logging section to `readme.md`"] == "docs"
    assert category["Return the output, as the readme says"] != "docs"


def test_the_projects_own_files_marked_vendored_for_the_language_bar_are_read_as_what_they_are(tmp_path):
    # bat's tests/.gitattributes marks `benchmarks/** linguist-vendored` and assets/.gitattributes
    # `* linguist-vendored`, to keep them off GitHub's language bar: their lines stay out of the
    # profile, but its eight commits reworking the benchmark script one evening had been eight
    # items, and its man page (assets/manual/bat.1.in) build work. A copy in vendor/ still
    # relates nothing; an example's dependencies alone (bubbletea's `go mod tidy` of
    # examples/go.mod and go.sum) are build work, an example with its go.mod documentation.
    script = "#!/usr/bin/env bash\nset -e\n" + "".join(f"hyperfine 'bat file{i}'\n" for i in range(12))
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Add the benchmarks", author=ANN, date="2025-03-01T10:00:00+0100",
                files={"tests/.gitattributes": "benchmarks/** linguist-vendored\n", "tests/benchmarks/run.sh": script,
                       "assets/.gitattributes": "* linguist-vendored\n", "assets/manual/app.1.in": ".TH APP 1\n.SH NAME\napp\n",
                       "src/main.rs": "fn main() {}\n", "vendor/zlib/inflate.c": "int inflate(void) { return 0; }\n",
                       "examples/go.mod": "module example\n\nrequire tea v1.0.0\n", "examples/go.sum": "tea v1.0.0 h1:abc=\n"})
    simplified = repo.commit("Simplify cargo-target-dir extraction", author=ANN, date="2025-03-05T19:00:00+0100",
                             files={"tests/benchmarks/run.sh": script.replace("set -e", "set -eu")})
    reports = repo.commit("Markdown (and JSON) reports", author=ANN, date="2025-03-05T20:00:00+0100",
                          files={"tests/benchmarks/run.sh": script.replace("set -e", "set -eu") + "hyperfine --export-markdown r.md x\n"})
    manual = repo.commit("Update man page regarding --nonprintable-notation", author=ANN, date="2025-03-08T10:00:00+0100",
                         files={"assets/manual/app.1.in": ".TH APP 1\n.SH NAME\napp \\- print files\n"})
    update = repo.commit("Update zlib to 1.3.1", author=BO, date="2025-03-10T10:00:00+0100",
                         files={"vendor/zlib/inflate.c": "int inflate(void) { return 1; }\n"})
    patch = repo.commit("Use inflate in main", author=BO, date="2025-03-10T11:00:00+0100",
                        files={"vendor/zlib/inflate.c": "int inflate(void) { return 2; }\n", "src/main.rs": "fn main() { inflate(); }\n"})
    tidy = repo.commit("chore(examples): go mod tidy", author=BO, date="2025-03-12T10:00:00+0100",
                       files={"examples/go.mod": "module example\n\nrequire tea v1.1.0\n", "examples/go.sum": "tea v1.1.0 h1:def=\n"})
    example = repo.commit("Add a spinner example", author=BO, date="2025-03-14T10:00:00+0100",
                          files={"examples/go.mod": "module example\n\nrequire (\n\ttea v1.1.0\n\tspinner v0.1.0\n)\n",
                                 "examples/spinner/main.go": "package main\n\nfunc main() { spin() }\n"})
    settings, resources = _one_repository(tmp_path)
    with instance_for_test() as instance:
        assert materialize(_up_to_commits(settings), resources=resources, instance=instance).success
    reason = dict(_warehouse(settings, "SELECT DISTINCT path, exclusion_reason FROM file_changes"))
    assert reason["tests/benchmarks/run.sh"] == reason["assets/manual/app.1.in"] == reason["vendor/zlib/inflate.c"] == "vendored"
    item = dict(_warehouse(settings, "SELECT sha, work_item_id FROM commits"))
    category = dict(_warehouse(settings, "SELECT sha, category FROM commits"))
    assert item[simplified] == item[reports]
    assert item[update] != item[patch]
    assert category[manual] == "docs"
    assert category[tidy] == "build" and category[example] == "docs"


def test_commits_asset_reads_a_change_of_inline_rust_tests_alone_as_test_work(tmp_path):
    # axum: "Add websocket integration test" and "Use tower-http's `TimeoutLayer`" changed only
    # the `#[cfg(test)] mod tests` of src/*.rs (and crate-internal test_helpers/) and had read as
    # a feature and a fix. Code outside the module, or an example's own tests, are not tests.
    repo = GitScript.init(tmp_path / "app")
    ws = ("use std::io;\n\npub fn upgrade(x: u32) -> u32 {\n    x + 1\n}\n\n"
          "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn upgrades() {\n"
          "        assert_eq!(upgrade(1), 2);\n    }\n}\n")
    example = "fn main() {\n    println!(\"hi\");\n}\n"
    repo.commit("Add websocket upgrades", author=ANN, date="2025-03-01T10:00:00+0100",
                files={"src/ws.rs": ws, "src/test_helpers/client.rs": "pub fn client() {}\n",
                       "examples/hello/src/main.rs": example})
    with_test = ws.replace("    }\n}\n", "    }\n\n    #[test]\n    fn integration() {\n"
                                      "        assert_eq!(upgrade(2), 3);\n    }\n}\n")
    repo.commit("Add websocket integration test", author=ANN, date="2025-03-02T10:00:00+0100",
                files={"src/ws.rs": with_test, "src/test_helpers/client.rs": "pub fn client() -> u8 { 0 }\n"})
    repo.commit("Use the TimeoutLayer", author=ANN, date="2025-03-03T10:00:00+0100",
                files={"src/ws.rs": with_test.replace("upgrade(2), 3", "upgrade(3), 4")})
    repo.commit("Use the TimeoutLayer in upgrades", author=BO, date="2025-03-04T10:00:00+0100",
                files={"src/ws.rs": with_test.replace("x + 1", "x.saturating_add(1)").replace("upgrade(2), 3", "upgrade(4), 5")})
    repo.commit("Add tests to the hello example", author=BO, date="2025-03-05T10:00:00+0100",
                files={"examples/hello/src/main.rs": example + "\n#[cfg(test)]\nmod tests {\n    #[test]\n"
                                                                 "    fn runs() {\n        super::main();\n    }\n}\n"})
    repo.commit("Add a parser", author=BO, date="2025-03-06T10:00:00+0100",
                files={"src/parse.rs": "pub fn parse() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n"
                                       "    fn parses() {\n        super::parse();\n    }\n}\n"})
    settings, resources = _one_repository(tmp_path)
    with instance_for_test() as instance:
        assert materialize(_up_to_commits(settings), resources=resources, instance=instance).success
    category = dict(_warehouse(settings, "SELECT subject, category FROM commits"))
    assert category["Add websocket integration test"] == "test"
    assert category["Use the TimeoutLayer"] == "test"
    assert category["Use the TimeoutLayer in upgrades"] != "test"
    assert category["Add tests to the hello example"] == "docs"
    assert category["Add a parser"] == "feature"


def test_a_file_whose_header_says_a_program_wrote_it_is_generated_and_regenerating_it_is_chore(tmp_path):
    # redis: src/help.h opens "/* Automatically generated by utils/generate-command-help.rb, do
    # not edit. */"; Linguist's rules know such headers in Go files only. Its regenerations
    # ("Update help.h again before Redis 6 GA") read as fixes and their lines counted.
    header = "/* Automatically generated by utils/generate-command-help.rb, do not edit. */\n\n"
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Add the server", author=ANN, date="2025-03-01T10:00:00+0100",
                files={"src/server.c": "int main(void) { return 0; }\n",
                       "src/help.h": header + "".join(f'{{ "CMD{i}", "help" }},\n' for i in range(40))})
    repo.commit("Update help.h again before Redis 6 GA", author=ANN, date="2025-03-02T10:00:00+0100",
                files={"src/help.h": header + "".join(f'{{ "CMD{i}", "more help" }},\n' for i in range(45))})
    # a file that only talks about generated files is no generated file, nor is a generator
    # writing the warning in a string, nor a template whose header is its output's
    repo.commit("Fix the generator's output path", author=ANN, date="2025-03-03T10:00:00+0100",
                files={"utils/gen.rb": "# Writes src/help.h; do not edit the output by hand.\nputs 1\n",
                       "build/gradle.rs": 'let head = "// THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.";\n',
                       "pipe/brew/templates/formula.rb":
                           "# This file was generated by GoReleaser. DO NOT EDIT.\nclass {{ .Name }} < Formula\nend\n",
                       # webpack's types.d.ts says it over two lines; a comment that only says
                       # where a generated file comes from says nothing of its own file
                       "types.d.ts": "/*\n * This file was automatically generated.\n * DO NOT MODIFY BY HAND.\n */\n"
                                     "export type A = string;\n",
                       "lib/types.js": "/*\n * The types are automatically generated.\n */\nconst x = 1;\n"})
    settings, resources = _one_repository(tmp_path)
    assets = _up_to_commits(settings)
    with instance_for_test() as instance:
        assert materialize(assets, resources=resources, instance=instance).success
    reasons = dict(_warehouse(settings, "SELECT DISTINCT path, exclusion_reason FROM file_changes"))
    assert reasons["src/help.h"] == "generated" and reasons["src/server.c"] is None
    assert reasons["utils/gen.rb"] is None and reasons["build/gradle.rs"] is None
    assert reasons["pipe/brew/templates/formula.rb"] is None
    assert reasons["types.d.ts"] == "generated" and reasons["lib/types.js"] is None
    category = dict(_warehouse(settings, "SELECT subject, category FROM commits"))
    assert category["Update help.h again before Redis 6 GA"] == "chore"
