"""Exclusion rules: each family, their priority, and that raw columns stay untouched."""

from __future__ import annotations

import polars as pl
import pytest

from exceeds_pipeline.enrich.exclusions import (
    EXCLUSION_REASONS,
    LOCK_FILE_NAMES,
    classify_exclusions,
)
from exceeds_pipeline.schemas import RAW_FILE_CHANGES_SCHEMA


def frame(paths, *, binary=None, submodule=None, old_paths=None) -> pl.DataFrame:
    n = len(paths)
    return pl.DataFrame(
        {
            "repo": ["r"] * n,
            "sha": [f"{i:040x}" for i in range(n)],
            "path": paths,
            "old_path": old_paths or [None] * n,
            "status": ["M"] * n,
            "lines_added": list(range(10, 10 + n)),
            "lines_deleted": list(range(n)),
            "is_binary": binary or [False] * n,
            "is_submodule": submodule or [False] * n,
        },
        schema=RAW_FILE_CHANGES_SCHEMA,
    )


def reasons(paths, **kw) -> dict[str, str | None]:
    out = classify_exclusions(frame(paths, **kw))
    return dict(zip(out["path"].to_list(), out["exclusion_reason"].to_list(), strict=True))


@pytest.mark.parametrize(
    "path",
    [
        "vendor/github.com/pkg/errors/errors.go",
        "src/vendor/lib.c",
        "Vendor/Thing.php",
        "third_party/pybind11/include/pybind11/pybind11.h",
        "deep/nested/third-party/x.js",
        "ThirdParty/zlib/inflate.c",
        "3rdparty/eigen/Core",
        "web/node_modules/left-pad/index.js",
        "static/bower_components/jquery/jquery.js",
        ".yarn/releases/yarn-4.1.0.cjs",
        "ios/Pods/Alamofire/Source/Request.swift",
        "Godeps/_workspace/src/x.go",
    ],
)
def test_vendored_directories_anywhere_in_the_path(path):
    assert reasons([path]) == {path: "vendored"}


@pytest.mark.parametrize(
    "path",
    [
        "external/api_client.py",  # decided: external/ is often first-party
        "tools/setup_helpers/cmake.py",
        "deps/build.sh",
        "src/vendoring_notes.md",  # 'vendor' only as a whole directory name
        "pkg/kubelet/pods/pod_manager.go",  # 'Pods' is vendored only with CocoaPods' spelling
        "docs/third_party.md",  # a file, not a directory
        "torch/distributed/run.py",  # 'dist' is not 'distributed'
    ],
)
def test_first_party_look_alikes_are_kept(path):
    assert reasons([path]) == {path: None}


@pytest.mark.parametrize(
    "path",
    [
        "package-lock.json",
        "frontend/yarn.lock",
        "pnpm-lock.yaml",
        "poetry.lock",
        "Pipfile.lock",
        "uv.lock",
        "rust/Cargo.lock",
        "Gemfile.lock",
        "composer.lock",
        "go.sum",
        "ios/Podfile.lock",
        "flake.lock",
        "MODULE.bazel.lock",
    ],
)
def test_lock_files(path):
    assert reasons([path]) == {path: "lock_file"}


def test_lock_file_names_are_exact():
    got = reasons(["yarn.lock.bak", "my-package-lock.json", "go.sum.txt", "cargo.lock", "docs/go.sum.md"])
    assert set(got.values()) == {None}
    assert "Cargo.lock" in LOCK_FILE_NAMES and "cargo.lock" not in LOCK_FILE_NAMES


@pytest.mark.parametrize(
    "path",
    [
        "static/js/app.min.js",
        "static/css/site.min.css",
        "requests/models.py.orig",  # left behind by a conflicted merge
        "src/parser.c.rej",  # left behind by a failed patch
        "static/js/jquery-min.js",
        "static/js/app.js.map",
        "static/css/site.css.map",
        "proto/service_pb2.py",
        "proto/service_pb2_grpc.py",
        "proto/service_pb2.pyi",
        "api/v1/service.pb.go",
        "api/v1/service.pb.gw.go",
        "src/messages.pb.h",
        "src/messages.pb.cc",
        "web/gen/service_pb.js",
        "include/Foo.generated.h",
        "flatbuffers/schema_generated.h",
        "pkg/apis/v1/zz_generated.deepcopy.go",
        "lib/model.g.dart",
        "src/components/__snapshots__/Button.test.tsx.snap",
        "src/__generated__/Query.graphql.ts",
        "single_include/nlohmann/json.hpp",
        "packages/ui/dist/index.js",
        "dist/styles.css",
        "APP.MIN.JS",
        # phoenix builds its JavaScript into priv/static/; Visual Studio's upgrade report
        "priv/static/phoenix.cjs.js",
        "src/_UpgradeReport_Files/UpgradeReport.xslt",
        "UpgradeLog.htm",
        # the build tools' wrapper scripts (gson: its author's only Shell and Batchfile)
        "gradlew", "gradlew.bat", "android/mvnw", "mvnw.cmd",
        # the binary-compatibility validator's public API dumps (coil: 6,448 lines of its author's)
        "coil-core/api/android/coil-core.api", "coil-core/api/coil-core.klib.api",
        # a test run's coverage data (zod's src/coverage/lcov.info)
        "src/coverage/lcov.info", "coverage/app.lcov",
    ],
)
def test_generated_files(path):
    assert reasons([path]) == {path: "generated"}


@pytest.mark.parametrize(
    "path",
    [
        "dist/setup.py",  # dist/ is excluded only for built web assets
        "tools/dist/package.sh",
        "src/minimal.js",
        "src/pb2_helpers.py",
        "src/generated_code_reader.py",  # '_generated.' must end the stem
        "src/map.py",
        "src/sitemap.xml",
        "priv/repo/migrations/add_users.exs",  # priv/ outside static/ is the application's own
        "installer/templates/phx_static/app.js",
        "scripts/gradlew-helper.sh",
    ],
)
def test_generated_look_alikes_are_kept(path):
    assert reasons([path]) == {path: None}


def test_binary_and_submodule_flags():
    got = reasons(["assets/logo.png", "libs/sub", "src/a.py"], binary=[True, False, False],
                  submodule=[False, True, False])
    assert got == {"assets/logo.png": "binary", "libs/sub": "submodule", "src/a.py": None}


def test_first_matching_reason_wins_in_documented_order():
    assert EXCLUSION_REASONS == ("submodule", "binary", "vendored", "lock_file", "generated",
                                 "bulk_import", "data_file", "prose_file")
    got = reasons(
        ["third_party/sub", "vendor/logo.png", "node_modules/x/yarn.lock", "vendor/x.min.js", "dist/yarn.lock"],
        binary=[False, True, False, False, False],
        submodule=[True, False, False, False, False],
    )
    assert got == {
        "third_party/sub": "submodule",
        "vendor/logo.png": "binary",
        "node_modules/x/yarn.lock": "vendored",
        "vendor/x.min.js": "vendored",
        "dist/yarn.lock": "lock_file",
    }


def test_rename_is_classified_by_its_new_path():
    out = classify_exclusions(
        frame(["third_party/zlib/inflate.c", "src/inflate.c"],
              old_paths=["src/inflate.c", "third_party/zlib/inflate.c"])
    )
    assert out["exclusion_reason"].to_list() == ["vendored", None]


def test_adds_two_columns_and_leaves_raw_columns_untouched():
    raw = frame(["src/a.py", "vendor/b.go", "yarn.lock", "img.png"], binary=[False, False, False, True])
    out = classify_exclusions(raw)
    assert out.columns == [*RAW_FILE_CHANGES_SCHEMA, "excluded", "exclusion_reason"]
    assert out.schema["excluded"] == pl.Boolean and out.schema["exclusion_reason"] == pl.String
    assert out.select(raw.columns).equals(raw)
    assert out["excluded"].to_list() == [False, True, True, True]
    # excluded is exactly "has a reason"
    assert out["excluded"].to_list() == out["exclusion_reason"].is_not_null().to_list()


def test_reclassifying_replaces_existing_columns():
    once = classify_exclusions(frame(["vendor/a.go"]))
    twice = classify_exclusions(once)
    assert twice.columns == once.columns and twice.equals(once)


def test_works_without_is_submodule_and_with_null_or_empty_input():
    raw = frame(["vendor/a.go", None]).drop("is_submodule")
    out = classify_exclusions(raw)
    assert out["exclusion_reason"].to_list() == ["vendored", None]
    empty = classify_exclusions(pl.DataFrame(schema=RAW_FILE_CHANGES_SCHEMA))
    assert empty.height == 0 and empty.schema["excluded"] == pl.Boolean


def _history_file_changes(repo, name="acme/app") -> pl.DataFrame:
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline.ingest.git_log import log_commits
    from exceeds_pipeline_tests.conftest import git_out

    shas = git_out(repo.path, "rev-list", "HEAD").split()
    commits, files = log_commits(repo.path / ".git", name, shas, repo.head())
    return classify_exclusions(with_language(files), commits.select("repo", "sha", "subject"))


def test_a_smaller_tree_a_commit_says_it_brings_in_is_a_bulk_import(make_repo):
    # svelte's `Bring svelte.technology source into main repo` (220 files, 16,333 lines) had
    # been Rich Harris's largest feature; the same tree under a subject that says nothing of
    # bringing it in is an ordinary change, and so is a small move
    repo = make_repo("site")
    repo.commit("Add app", files={"app/main.py": "x = 1\n"})
    tree = {f"site/src/page{i:02d}.html": "".join(f"<p>{i} {j}</p>\n" for j in range(120)) for i in range(30)}
    brought = repo.commit("Bring svelte.technology source into main repo", files=tree)
    same = repo.commit("Add the docs pages", files={k.replace("site/", "docs/"): v for k, v in tree.items()})
    small = repo.commit("Move the helpers into the repo", files={f"helpers/h{i}.py": "y = 1\n" for i in range(25)})
    reason = {(r["sha"], r["path"]): r["exclusion_reason"] for r in _history_file_changes(repo).iter_rows(named=True)}
    assert reason[(brought, "site/src/page00.html")] == "bulk_import"
    assert sum(1 for (s, _), v in reason.items() if s == brought and v == "bulk_import") == 30
    assert reason[(same, "docs/src/page00.html")] is None
    assert reason[(small, "helpers/h0.py")] is None


def test_bulk_import_and_data_files_from_a_real_history(make_repo):
    repo = make_repo("bulk")
    first = repo.commit("Add app", files={"app/main.py": "".join(f"x{i} = {i}\n" for i in range(50)),
                                          "app/util.py": "def f():\n    return 1\n"})
    # One commit copying in a large tree of existing code, plus a real edit alongside it.
    tree = {f"models/m{i:03d}/model.py": "".join(f"w{j} = {j}\n" for j in range(210)) for i in range(110)}
    tree["app/util.py"] = "def f():\n    return 2\n"
    bulk = repo.commit("Add copies of existing hub benchmark models", files=tree)
    # An ordinary large feature: many lines but few files, kept.
    feature = repo.commit("Add parser", files={f"app/p{i}.py": "".join(f"y{j} = {j}\n" for j in range(3000))
                                               for i in range(8)})
    # One file of a library copied in whole (an amalgamation: gtest-all.cc), beside a real edit;
    # and a long file that one commit can write (4,000 lines), kept.
    fused = repo.commit("Add a fused version of the test library",
                        files={"gtest/gtest-all.cc": "".join(f"int g{j};\n" for j in range(6000)),
                               "app/util.py": "def f():\n    return 3\n"})
    long = repo.commit("Add the grammar", files={"app/grammar.py": "".join(f"r{j} = {j}\n" for j in range(4000))})
    # Data and prose files: a big vocabulary, a config, a README.
    data = repo.commit("Add vocabulary", files={"app/vocab.json": "[\n" + "".join(f'"w{i}",\n' for i in range(5000)) + "]\n",
                                                 "app/config.yaml": "a: 1\n", "README.md": "# App\n"})
    # A release signature (Linguist: AGS Script, AsciiDoc or Public Key) is a key, not code.
    signed = repo.commit("Sign the release", files={"sig/v1.0/app.tar.gz.asc": "-----BEGIN PGP SIGNATURE-----\nxyz\n"})
    fc = _history_file_changes(repo)
    reason = {(r["sha"], r["path"]): r["exclusion_reason"] for r in fc.iter_rows(named=True)}
    assert reason[(bulk, "models/m000/model.py")] == "bulk_import"
    assert sum(1 for (s, _), v in reason.items() if s == bulk and v == "bulk_import") == 110
    assert reason[(bulk, "app/util.py")] is None  # the edit made alongside still counts
    assert all(reason[(feature, f"app/p{i}.py")] is None for i in range(8))
    assert reason[(first, "app/main.py")] is None
    assert reason[(fused, "gtest/gtest-all.cc")] == "bulk_import"
    assert reason[(fused, "app/util.py")] is None
    assert reason[(long, "app/grammar.py")] is None
    assert reason[(data, "app/vocab.json")] == "data_file"
    assert reason[(data, "app/config.yaml")] == "data_file"
    assert reason[(data, "README.md")] == "prose_file"
    assert reason[(signed, "sig/v1.0/app.tar.gz.asc")] == "data_file"
    counted = fc.filter(~pl.col("excluded"))["lines_added"].sum()
    raw = fc["lines_added"].sum()
    assert raw - counted == 110 * 210 + 6000 + 5002 + 1 + 1 + 2


def test_data_files_count_where_they_are_the_product():
    paths = [f"data/part{i}.csv" for i in range(6)] + ["load.py", "README.md"]
    n = len(paths)
    raw = pl.DataFrame({
        "repo": ["datasets"] * n, "sha": [f"{i:040x}" for i in range(n)], "path": paths,
        "old_path": [None] * n, "status": ["M"] * n, "lines_added": [5] * n, "lines_deleted": [0] * n,
        "is_binary": [False] * n, "is_submodule": [False] * n,
        "language": ["CSV"] * 6 + ["Python", "Markdown"],
    })
    out = classify_exclusions(raw)
    assert out["exclusion_reason"].to_list() == [None] * 7 + ["prose_file"]


def test_changelog_fragments_do_not_make_prose_the_product():
    """SQLAlchemy: one small changelog fragment per change (2,136 of them) outnumbers the Python
    modules by path, but most of the lines changed are code: its notes and call-count files
    are prose, not its product. A documentation repository, prose by paths and by lines, keeps
    its prose."""
    frags = [f"doc/changelog/unreleased/{i}.rst" for i in range(6)]
    paths = frags + ["lib/orm.py", "lib/sql.py", "test/profiles.txt"]
    n = len(paths)
    library = pl.DataFrame({
        "repo": ["library"] * n, "sha": [f"{i:040x}" for i in range(n)], "path": paths,
        "old_path": [None] * n, "status": ["A"] * 6 + ["M"] * 3, "lines_added": [8] * 6 + [400, 300, 90],
        "lines_deleted": [0] * 6 + [100, 50, 80], "is_binary": [False] * n, "is_submodule": [False] * n,
        "language": ["reStructuredText"] * 6 + ["Python", "Python", "Text"],
    })
    book = library.with_columns(pl.lit("book").alias("repo"),
                                pl.Series("lines_added", [300] * 6 + [40, 30, 9]))
    out = classify_exclusions(pl.concat([library, book]))
    reasons = out["exclusion_reason"].to_list()
    assert reasons[:n] == ["prose_file"] * 6 + [None, None, "prose_file"]
    assert reasons[n:] == [None] * n


def test_vendored_trees_named_by_the_history(make_repo):
    """`requests/packages/urllib3` updated by `Update urllib3 to v1.21.1`: every change under it,
    in any commit, is vendored; so are the subdirectories of its parent holding two such trees. A monorepo's version bump
    of its own package (a manifest and a changelog) is not."""
    from exceeds_pipeline.enrich.exclusions import vendored_trees
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline.ingest.git_log import log_commits
    from exceeds_pipeline_tests.conftest import git_out

    def code(n, tag):
        return "".join(f"def {tag}{i}(x):\n    return x + {i}\n" for i in range(n))

    repo = make_repo("vend")
    first = repo.commit("Add client", files={"lib/client.py": code(40, "c"), "packages/app/package.json": '{"version": "1.0.0"}\n'})
    imported = repo.commit("Import urllib3 and chardet", files={
        "lib/packages/urllib3/pool.py": code(80, "p"), "lib/packages/chardet/detect.py": code(80, "d"),
        "lib/packages/__init__.py": "from . import urllib3\n"})
    upd = repo.commit("Update urllib3 to v1.21.1", files={"lib/packages/urllib3/pool.py": code(90, "q"),
                                                           "lib/packages/urllib3/util.py": code(30, "u")})
    emb = repo.commit("embed chardet", files={"lib/packages/chardet/detect.py": code(85, "e")})
    mine = repo.commit("Fix a timeout in the client", files={"lib/client.py": code(41, "c"),
                                                             "lib/packages/urllib3/pool.py": code(91, "q")})
    bump = repo.commit("Bump app to 1.1.0", files={"packages/app/package.json": '{"version": "1.1.0"}\n',
                                                    "packages/app/CHANGELOG.md": "".join(f"- item {i}\n" for i in range(300))})
    cert = repo.commit("Add CA bundle", files={"lib/cacert.pem": "".join(f"QUJD{i:04d}\n" for i in range(500))})
    credits = repo.commit("Add Megan to the authors", files={"AUTHORS": "Megan\n", "docs/HACKING": "Run make.\n"})
    script = repo.commit("Always use latest version of pip", files={"scripts/install": "#!/bin/sh\npip install -U pip\n"})

    shas = git_out(repo.path, "rev-list", "HEAD").split()
    commits, files = log_commits(repo.path / ".git", "acme/app", shas, repo.head())
    files = with_language(files)
    assert sorted(vendored_trees(files, commits)["tree"]) == [
        "lib/packages", "lib/packages/chardet", "lib/packages/urllib3"]
    out = classify_exclusions(files, commits)
    reason = {(r["sha"], r["path"]): r["exclusion_reason"] for r in out.iter_rows(named=True)}
    assert reason[(imported, "lib/packages/urllib3/pool.py")] == "vendored"  # before the tree was named
    # the directory of the copies holds the project's own glue (redis: deps/Makefile, deps/README.md)
    assert reason[(imported, "lib/packages/__init__.py")] is None
    assert reason[(upd, "lib/packages/urllib3/util.py")] == "vendored"
    assert reason[(emb, "lib/packages/chardet/detect.py")] == "vendored"
    assert reason[(mine, "lib/packages/urllib3/pool.py")] == "vendored"
    assert reason[(mine, "lib/client.py")] is None  # the person's own edit alongside still counts
    assert reason[(first, "lib/client.py")] is None
    assert reason[(bump, "packages/app/package.json")] == "data_file"  # not vendored: a version bump
    assert reason[(cert, "lib/cacert.pem")] == "data_file"  # no Linguist language, a certificate
    assert reason[(credits, "AUTHORS")] == "prose_file"  # no Linguist language, a project's credits
    assert reason[(credits, "docs/HACKING")] == "prose_file"
    assert reason[(script, "scripts/install")] is None  # httpx: a shell script named by what it does
    # Without the commits the path rules alone apply (the old behaviour).
    plain = classify_exclusions(files)
    assert plain.filter(pl.col("path") == "lib/packages/urllib3/util.py")["exclusion_reason"].to_list() == [None]


def test_a_subtree_squash_is_the_other_historys_work(make_repo):
    """hugo: `git subtree pull --squash` of its docs repository, 155 commits `Squashed 'docs/'
    changes from a..b` whose bodies list the docs authors' commits, had counted as bep's lines,
    skills and themes, and read as docs, chore, bug, build, refactor and feature. As git writes
    it, the squash holds the docs repository's own tree (its files at the root) and a merge
    puts it under docs/: every change of the squash is vendored and the commit is chore; the
    project's own edits under docs/ still count."""
    from exceeds_pipeline.classify.categories import categorize_commits
    from exceeds_pipeline.ingest.git_log import log_commits
    from exceeds_pipeline_tests.conftest import git_out

    repo = make_repo("subtree")
    own = repo.commit("Add the site generator", files={"hugolib/site.go": "package hugolib\n\nfunc Build() {}\n"})
    # the squash, as `git subtree pull --prefix=docs --squash` writes it: a commit of its own
    # (no parent here) holding the docs repository's tree, then merged under docs/
    repo.git("checkout", "-q", "--orphan", "docs-squash")
    repo.git("rm", "-rq", "--cached", ".")
    for leftover in ("hugolib/site.go",):
        (repo.path / leftover).unlink()
    squash = repo.commit(
        "Squashed 'docs/' changes from e17426e2b6..c85af679bf\n\nc85af679bf Fix the shortcode page\n"
        "1a2b3c4d5e Add a page on partials\n\ngit-subtree-dir: docs\ngit-subtree-split: c85af679bf\n",
        files={"content/en/partials.md": "# Partials\n" + "A partial is a template.\n" * 40,
               "layouts/shortcodes/note.html": "<div class=note>{{ .Inner }}</div>\n",
               "main.go": "package main\n\nfunc main() {}\n"})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "-s", "ours", "--no-commit", "--allow-unrelated-histories", "docs-squash")
    repo.git("read-tree", "--prefix=docs/", "-u", "docs-squash")
    repo.git("commit", "-q", "-m", "Merge commit 'c23d97904f' as 'docs'")
    edit = repo.commit("docs: Fix a link", files={"docs/main.go": "package main\n\nfunc main() { run() }\n"})
    shas = git_out(repo.path, "rev-list", "HEAD").split()
    commits, files = log_commits(repo.path / ".git", "acme/site", shas, repo.head())
    assert squash in shas  # reachable through the merge
    out = classify_exclusions(files, commits)
    reason = {(r["sha"], r["path"]): r["exclusion_reason"] for r in out.iter_rows(named=True)}
    assert {p: reason[(squash, p)] for p in ("content/en/partials.md", "layouts/shortcodes/note.html", "main.go")} == \
        dict.fromkeys(("content/en/partials.md", "layouts/shortcodes/note.html", "main.go"), "vendored")
    assert reason[(edit, "docs/main.go")] is None
    assert reason[(own, "hugolib/site.go")] is None
    category = dict(categorize_commits(commits, out).select("sha", "category").iter_rows())
    assert category[squash] == "chore"


@pytest.mark.parametrize("subject", [
    "Update docs", "Update urllib3 handling in the client", "Bump urllib3 requirement",
    "New urllib3 adapter", "Vendor-neutral transport",
])
def test_vendored_tree_look_alikes_are_kept(make_repo, subject):
    from exceeds_pipeline.enrich.exclusions import vendored_trees
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline.ingest.git_log import log_commits
    from exceeds_pipeline_tests.conftest import git_out

    repo = make_repo("look")
    body = "".join(f"def f{i}(x):\n    return x * {i}\n" for i in range(120))
    repo.commit(subject, files={"lib/urllib3/adapter.py": body, "lib/docs/conf.py": body})
    shas = git_out(repo.path, "rev-list", "HEAD").split()
    commits, files = log_commits(repo.path / ".git", "acme/app", shas, repo.head())
    assert vendored_trees(with_language(files), commits).height == 0


@pytest.mark.parametrize("subject, vendored", [
    ("Bundle create-vite (#9034)", False),  # builds the project's own package with a bundler
    ("Bundle create-vite 2.1.0", True),  # a version after the name: a copy of a release
    ("Embed create-vite", True),
])
def test_bundle_names_a_copy_only_with_a_version(make_repo, subject, vendored):
    from exceeds_pipeline.enrich.exclusions import vendored_trees
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline.ingest.git_log import log_commits
    from exceeds_pipeline_tests.conftest import git_out

    repo = make_repo("bundle")
    body = "".join(f"export const f{i} = (x) => x * {i}\n" for i in range(150))
    repo.commit(subject, files={"packages/create-vite/index.js": body})
    shas = git_out(repo.path, "rev-list", "HEAD").split()
    commits, files = log_commits(repo.path / ".git", "acme/app", shas, repo.head())
    trees = vendored_trees(with_language(files), commits)
    assert trees["tree"].to_list() == (["packages/create-vite"] if vendored else [])


@pytest.mark.parametrize("subject, edits_existing, imported", [
    ("ares 1.1.1 with collected applied patches", False, True),  # curl's copy of c-ares
    ("ares 1.1.1 with collected applied patches", True, False),  # changes what is there: no copy
    ("Add an asynchronous resolver", False, False),  # says nothing of a release of another project
    ("resolver 1.1.1", False, False),  # a name with no folder of that name
])
def test_a_commit_that_adds_a_folder_its_subject_names_with_a_version_is_a_bulk_import(
        make_repo, subject, edits_existing, imported):
    repo = make_repo("app")
    repo.commit("Add the tool", files={"src/main.c": "int main(void) { return 0; }\n", "ares/ares.h": "#define OLD 1\n"})
    files = {f"ares/ares_{i}.c": "".join(f"int f{i}_{j}(int x) {{ return x * {j}; }}\n" for j in range(100))
             for i in range(25)}
    if edits_existing:
        files["ares/ares.h"] = "#define NEW 1\n"
    sha = repo.commit(subject, files=files)
    later = repo.commit("ares: handle an empty answer", files={"ares/ares_0.c": "int f(void) { return 1; }\n"})
    reason = {(r["sha"], r["path"]): r["exclusion_reason"] for r in _history_file_changes(repo).iter_rows(named=True)}
    assert [reason[(sha, f"ares/ares_{i}.c")] for i in range(25)] == ["bulk_import" if imported else None] * 25
    assert reason[(later, "ares/ares_0.c")] is None  # what is done to the copy afterwards is work


def test_generated_paths_are_read_again_only_for_a_new_tip_and_its_deletions(tmp_path):
    from exceeds_pipeline.enrich.generated import update_generated_paths
    from exceeds_pipeline_tests.gitscript import GitScript

    repo = GitScript.init(tmp_path / "app")
    marker = "// Code generated by mockgen. DO NOT EDIT.\npackage mocks\n"
    first = repo.commit("Add mocks", files={"mocks/a.go": marker, "mocks/b.go": marker, "a.go": "package a\n"})
    git_dir = tmp_path / "app" / ".git"
    table = update_generated_paths(None, git_dir, "acme/app", first)
    assert set(table.filter("generated")["path"]) == {"mocks/a.go", "mocks/b.go"}
    assert update_generated_paths(table, git_dir, "acme/app", first) is table  # same tip: nothing read
    second = repo.commit("Drop a mock, hand-write b", files={"mocks/a.go": None, "mocks/b.go": "package mocks\n"})
    again = update_generated_paths(table, git_dir, "acme/app", second)
    verdict = dict(zip(again["path"], again["generated"]))
    assert verdict == {"mocks/a.go": True, "mocks/b.go": False, "a.go": False}  # deleted: as it was
    assert set(again["tip"]) == {second}


def test_pages_a_documentation_generator_wrote_are_generated_and_a_new_reader_reads_again(tmp_path):
    """gson committed its Javadoc output (gson/docs/javadocs/, `<!-- Generated by javadoc ...
    -->`); one commit deleting it counted 27,729 lines. A table read by an older version of the
    rules is read again in full."""
    from exceeds_pipeline.enrich.generated import update_generated_paths
    from exceeds_pipeline_tests.gitscript import GitScript

    repo = GitScript.init(tmp_path / "lib")
    javadoc = ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">\n<!--NewPage-->\n<HTML>\n<HEAD>\n'
               "<!-- Generated by javadoc (build 1.6.0_65) on Thu Nov 20 01:11:55 PST 2014 -->\n<TITLE>Gson</TITLE>\n")
    sphinx = '<html>\n<head>\n<meta name="generator" content="Docutils 0.17.1: http://docutils.sourceforge.net/" />\n'
    # jazzy's Swift API pages (Alamofire), a PHPUnit coverage report's pages (guzzle's coverage/)
    jazzy = '<html lang="en">\n  <head>\n    <title>Classes  Reference</title>\n    <link rel="stylesheet" type="text/css" href="css/jazzy.css" />\n'
    report = ('<html lang="en">\n  <head>\n    <link rel="stylesheet" type="text/css" href="style.css">\n  </head>\n  <body>\n'
              '    <table><tr><td class="coverBar"><img src="glass.png" alt=""></td><td class="coverPerHi">100.00%</td></tr></table>\n')
    prose = "# Coverage\n\nRun `make coverage` for a code coverage report: open <title>coverage/index.html.\n"
    # rich's tables, named by the script that writes them; a Django migration names no script
    table = "# Auto generated by tools/make_width_tables.py\n\nCELL_WIDTHS = [(0, 0, 0)]\n"
    migration = "# Generated by Django 4.2 on 2023-01-01 10:00\nfrom django.db import migrations\n"
    # httpie's man pages, a roff comment naming the script that writes them
    manpage = ('.\\" This file is auto-generated from the parser declaration in httpie/cli/definition.py by '
               'extras/scripts/generate_man_pages.py.\n.TH http 1 "2024-11-01" "HTTPie 3.2.4" "HTTPie Manual"\n')
    first = repo.commit("Add docs", files={"docs/javadocs/Gson.html": javadoc, "site/index.html": sphinx,
                                           "site/about.html": "<html><head><title>About us</title></head>\n",
                                           "docs/Classes.html": jazzy, "coverage/Cache.php.html": report,
                                           "docs/coverage.md": prose, "rich/_unicode_data/unicode15.py": table,
                                           "app/migrations/0001_initial.py": migration, "extras/man/http.1": manpage})
    tip = repo.commit("Remove unused files", files={"docs/javadocs/Gson.html": None, "coverage/Cache.php.html": None})
    git_dir = tmp_path / "lib" / ".git"
    table = update_generated_paths(None, git_dir, "acme/lib", tip)
    verdict = dict(zip(table["path"], table["generated"]))
    assert verdict == {"docs/javadocs/Gson.html": True, "site/index.html": True, "site/about.html": False,
                       "docs/Classes.html": True, "coverage/Cache.php.html": True, "docs/coverage.md": False,
                       "rich/_unicode_data/unicode15.py": True, "app/migrations/0001_initial.py": False,
                       "extras/man/http.1": True}
    stale = table.with_columns(pl.lit("an older reader").alias("reader"), pl.lit(False).alias("generated"))
    assert update_generated_paths(stale, git_dir, "acme/lib", tip)["generated"].to_list() == table["generated"].to_list()
    assert first != tip


def test_a_script_that_opens_with_a_minified_library_is_written_by_hand(tmp_path):
    """Sidekiq's web/assets/javascripts/application.js opens with the minified timeago library
    (3 lines, 21,614 characters) before 201 lines of its own code; read from its first 4 KB it
    looked minified, and a decade of hand edits to the web UI read as chore, their lines left
    out. A file that is minified all through stays a minifier's output, small or large."""
    from exceeds_pipeline.enrich.generated import update_generated_paths
    from exceeds_pipeline_tests.gitscript import GitScript

    library = "!function(e,t){" + ";".join(f"var a{i}=function(n){{return n+{i}}}" for i in range(400)) + "}(this);\n"
    own = "".join(f"function update{i}(el) {{\n  el.textContent = 'poll {i}';\n}}\n" for i in range(80))
    repo = GitScript.init(tmp_path / "web")
    tip = repo.commit("Add the web UI", files={
        "web/assets/javascripts/application.js": "/* timeago.js */\n" + library * 3 + own,
        "web/assets/javascripts/vendor.js": library * 12,
        "web/assets/javascripts/small.js": library,
        # a library by its name, a bundle: the minified start still says what they are
        "web/assets/stylesheets/bootstrap.css": "/*! Bootstrap */.a{b:c}" * 300 + "\n" + ".btn {\n  color: red;\n}\n" * 60,
        "web/assets/javascripts/katex.bundle.js": library + own})
    table = update_generated_paths(None, tmp_path / "web" / ".git", "acme/web", tip)
    verdict = dict(zip(table["path"], table["generated"]))
    assert verdict == {"web/assets/javascripts/application.js": False, "web/assets/javascripts/vendor.js": True,
                       "web/assets/javascripts/small.js": True, "web/assets/stylesheets/bootstrap.css": True,
                       "web/assets/javascripts/katex.bundle.js": True}


def test_a_module_that_is_a_long_table_of_literals_is_generated(tmp_path):
    """rich's _emoji_codes.py: 3,600 lines of `"smile": "😄",` that tools/make_emoji.py wrote,
    with no header saying so, had been Will McGugan's largest file (8,825 of his lines). A short
    table, and a long module of code with a table in it, are written by hand."""
    from exceeds_pipeline.enrich.generated import update_generated_paths
    from exceeds_pipeline_tests.gitscript import GitScript

    table = "EMOJI = {\n" + "".join(f'    "emoji_{i}": "\\U0001f{i % 1000:03x}",\n' for i in range(1500)) + "}\n"
    code = "".join(f"def render_{i}(console, options):\n    return console.render(options, width={i})\n\n" for i in range(500))
    repo = GitScript.init(tmp_path / "lib")
    tip = repo.commit("Add emoji", files={
        "rich/_emoji_codes.py": table, "rich/_palettes.py": table[:3000] + "}\n",
        "rich/console.py": code[:2000] + table + code[2000:], "benchmarks/list_huge.py": "DATA = [\n" + "    1,\n" * 9000 + "]\n",
        # a table of records: its lines of brackets alone say nothing either way
        "rich/colors.py": "TERM_COLORS = [\n" + "".join(f'    {{\n        "colorId": {i},\n        "rgb": {{"r": {i}, "g": 0}},\n'
                                                       f'        "name": "Grey{i}",\n    }},\n' for i in range(600)) + "]\n"})
    verdict = dict(zip(*update_generated_paths(None, tmp_path / "lib" / ".git", "acme/lib", tip).select("path", "generated")))
    assert verdict == {"rich/_emoji_codes.py": True, "rich/_palettes.py": False, "rich/console.py": False,
                       "benchmarks/list_huge.py": True, "rich/colors.py": True}


def test_html_pages_built_from_sources_beside_them_are_generated():
    """express commits docs/guide.html, which its Makefile builds from docs/guide.md (27% of TJ
    Holowaychuk's added lines); a component's template beside its .md documentation is code."""
    got = reasons(["docs/guide.md", "docs/guide.html", "docs/index.html", "README.md", "README.html",
                   "src/lib/select/select.md", "src/lib/select/select.html"])
    assert got["docs/guide.html"] == "generated"
    assert got["README.html"] == "generated"
    assert got["docs/index.html"] is None  # no source beside it
    assert got["src/lib/select/select.html"] is None


def test_a_merge_worded_as_an_update_names_no_vendored_tree(make_repo):
    """git/git: `Sync with 2.49.1` is a merge (no file changes of its own); a history whose only
    update-worded commits changed no file has no vendored trees, and is not an error."""
    from exceeds_pipeline.enrich.exclusions import vendored_trees
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline.ingest.git_log import log_commits
    from exceeds_pipeline_tests.conftest import git_out

    repo = make_repo("sync")
    repo.commit("Add client", files={"lib/client.py": "x = 1\n"})
    repo.branch("maint", checkout=True)
    repo.commit("Fix the client", files={"lib/client.py": "x = 2\n"})
    repo.checkout("main")
    repo.commit("Add server", files={"lib/server.py": "y = 1\n"})
    repo.merge("maint", "Sync with 2.49.1")
    shas = git_out(repo.path, "rev-list", "HEAD").split()
    commits, files = log_commits(repo.path / ".git", "acme/app", shas, repo.head())
    assert vendored_trees(with_language(files), commits).height == 0
    assert classify_exclusions(with_language(files), commits)["exclusion_reason"].null_count() == files.height


def test_the_repositorys_own_gitattributes_say_what_is_generated_or_vendored(make_repo):
    """jq marks its bison output `linguist-generated=true` and `vendor/** linguist-vendored` in
    .gitattributes; its 25,330 lines counted in profiles. The attributes are read by git at the
    tip for every path ever changed (a vendored file deleted since included); `-linguist-generated`
    keeps a file its first lines would leave out."""
    from exceeds_pipeline.enrich.generated import update_generated_paths
    from exceeds_pipeline_tests.classify.gitframes import read_repo

    repo = make_repo("jqlike")
    marker = "// Code generated by mockgen. DO NOT EDIT.\npackage mocks\n"
    # jq's first layout: the parser and the copied library at the root and under src/, moved
    # (renamed) to where the attributes name them in 2015
    parser_c, dec_c = "int yyparse(void);\n" * 50, "int dec;\n" * 40
    # ... and hugo's hand-written templates, later rewritten into a generated file of another name
    templates = "".join(f'var t{i} = "<p>{i}</p>"\n' for i in range(30))
    first = repo.commit("Add the parser", files={"parser.y": "%token A\n", "parser.c": parser_c,
                                                 "src/decNumber/decNumber.c": dec_c, "tpl/embedded.go": templates})
    regen = repo.commit("Regenerate the parser", files={"parser.c": parser_c + "int yylex(void);\n"})
    repo.commit("Move sources", files={"parser.y": None, "parser.c": None, "src/decNumber/decNumber.c": None,
                                       "src/parser.y": "%token A\n", "src/parser.c": parser_c + "int yylex(void);\n",
                                       "vendor/decNumber/decNumber.c": dec_c})
    repo.commit("Add the mocks", files={"vendor/old/old.c": "int old;\n" * 10, "mocks/keep.go": marker})
    repo.commit("Generate the templates", files={"tpl/embedded.go": None, "tpl/templates.autogen.go": templates + "// gen\n"})
    repo.commit("Drop the old library", files={"vendor/old/old.c": None})
    tip = repo.commit("Mark generated and vendored files", files={".gitattributes": (
        "src/parser.[ch] linguist-generated=true\n/vendor/** linguist-vendored\nmocks/keep.go -linguist-generated\n"
        "*.autogen.go linguist-generated=true\n")})
    git_dir = repo.path / ".git"
    table = update_generated_paths(None, git_dir, "acme/jq", tip)
    _, files = read_repo(repo, "acme/jq")
    out = classify_exclusions(files, generated=table.with_columns(pl.lit("acme/jq").alias("repo")))
    reason = {(r["path"], r["sha"][:7]): r["exclusion_reason"] for r in out.iter_rows(named=True)}
    by_path = {p: v for (p, _), v in reason.items()}
    assert by_path["src/parser.c"] == "generated"
    assert by_path["src/parser.y"] is None
    assert by_path["vendor/decNumber/decNumber.c"] == "vendored"
    assert {v for (p, _), v in reason.items() if p == "vendor/old/old.c"} == {"vendored"}  # deleted since
    assert by_path["mocks/keep.go"] is None  # its header says generated; the project says not
    assert by_path[".gitattributes"] is None
    # ... and under the names they had before a move
    assert reason[("parser.c", first[:7])] == reason[("parser.c", regen[:7])] == "generated"
    assert reason[("src/decNumber/decNumber.c", first[:7])] == "vendored"
    assert reason[("parser.y", first[:7])] is None
    assert reason[("tpl/embedded.go", first[:7])] is None  # written by hand under its old name


@pytest.mark.parametrize("subject, vendored", [
    ("jemalloc updated to 3.0.0", True),  # redis: deps/jemalloc, 159,767 lines in one profile
    ("jemalloc updated to handle the new arena", False),  # no version: an edit of the project's own
])
def test_a_copy_named_before_its_update_verb(make_repo, subject, vendored):
    from exceeds_pipeline.enrich.exclusions import vendored_trees
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline_tests.classify.gitframes import read_repo

    repo = make_repo("redislike")
    body = "".join(f"int arena_{i}(void) {{ return {i}; }}\n" for i in range(150))
    repo.commit(subject, files={"deps/jemalloc/src/arena.c": body})
    commits, files = read_repo(repo, "acme/redis")
    assert vendored_trees(with_language(files), commits)["tree"].to_list() == (["deps/jemalloc"] if vendored else [])


def test_library_releases_and_autotools_output_are_left_out(make_repo):
    """bat's tests/benchmarks/test-src/jquery-3.3.1.js (10,364 lines) made JavaScript its author's
    first language; curl's and redis's autotools output (configure, config.guess, aclocal.m4)
    counted as written by hand. A hand-written TypeScript declaration file (fastify.d.ts), a
    `configure` with no autoconf source (ffmpeg's) or replaced by one (tmux's of 2009) count."""
    from exceeds_pipeline_tests.classify.gitframes import read_repo

    got = reasons(["tests/benchmarks/test-src/jquery-3.3.1.js", "web/css/bootstrap-2.3.2.css", "config.guess",
                   "m4/aclocal.m4", "build-aux/ltmain.sh", "fastify.d.ts", "src/app-2.js", "src/es2015.js", "web/react.js"])
    assert {p: r for p, r in got.items() if r in ("vendored", "generated")} == {
        "tests/benchmarks/test-src/jquery-3.3.1.js": "vendored", "web/css/bootstrap-2.3.2.css": "vendored",
        "config.guess": "generated", "m4/aclocal.m4": "generated", "build-aux/ltmain.sh": "generated"}

    repo = make_repo("autotools")
    script = "".join(f"echo step {i}\n" for i in range(40))
    repo.commit("Add a configure script", files={"configure": "#!/bin/sh\n" + script, "ffm/configure": script})
    repo.commit("Move to autoconf", files={"configure": None, "configure.ac": "AC_INIT([t], [1])\n"})
    repo.commit("Vendor jemalloc", files={"deps/jemalloc/configure.ac": "AC_INIT([j], [3])\n",
                                          "deps/jemalloc/configure": "#!/bin/sh\n" + script + "# generated\n"})
    regen = repo.commit("Regenerate", files={"deps/jemalloc/configure": "#!/bin/sh\n" + script + "# again\n",
                                             "ffm/configure": script + "echo more\n"})
    _, files = read_repo(repo, "acme/t")
    out = classify_exclusions(files)
    reason = {(r["sha"], r["path"]): r["exclusion_reason"] for r in out.iter_rows(named=True)}
    assert reason[(regen, "deps/jemalloc/configure")] == "generated"
    assert reason[(regen, "ffm/configure")] is None
    assert {r for (_, p), r in reason.items() if p == "configure"} == {None}



def test_a_directory_of_copies_leaves_out_its_trees_not_its_own_files(make_repo):
    """redis's deps/ holds jemalloc and lua (each named by an update) and hiredis; deps/Makefile
    and deps/README.md are redis's own."""
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline_tests.classify.gitframes import read_repo

    repo = make_repo("deps")
    body = lambda tag: "".join(f"int {tag}_{i}(void) {{ return {i}; }}\n" for i in range(150))  # noqa: E731
    repo.commit("jemalloc updated to 3.0.0", files={"deps/jemalloc/src/arena.c": body("a")})
    repo.commit("lua updated to 5.1.5", files={"deps/lua/src/lua.c": body("l")})
    own = repo.commit("Build hiredis with the deps Makefile", files={
        "deps/hiredis/hiredis.c": "int h;\n", "deps/Makefile": "all:\n\tmake -C hiredis\n", "deps/README.md": "How\n"})
    commits, files = read_repo(repo, "acme/redis")
    out = classify_exclusions(with_language(files), commits)
    reason = {r["path"]: r["exclusion_reason"] for r in out.filter(pl.col("sha") == own).iter_rows(named=True)}
    assert reason == {"deps/hiredis/hiredis.c": "vendored", "deps/Makefile": None, "deps/README.md": "prose_file"}


def test_the_other_files_of_a_folder_a_generator_wrote_are_generated_too():
    """gson's gson/docs/javadocs/: 98 pages that say Javadoc wrote them, and beside them the
    script.js and stylesheet.css it wrote too (a Frontend skill from deleting them). A folder
    with a few generated files keeps its hand-written ones."""
    pages = [f"gson/docs/javadocs/p{i}.html" for i in range(12)]
    few = ["src/api/client.go", "src/api/models.go", "src/api/zz_generated.deepcopy.go"]
    # rich: the package's own __init__.py beside its generated tables is hand-written
    tables = [f"rich/_unicode_data/unicode{i}.py" for i in range(12)]
    paths = [*pages, "gson/docs/javadocs/script.js", "gson/docs/javadocs/stylesheet.css", *few, *tables,
             "rich/_unicode_data/__init__.py"]
    fc = pl.DataFrame({"repo": ["acme/lib"] * len(paths), "sha": ["a"] * len(paths), "path": paths,
                       "is_binary": [False] * len(paths)})
    generated = pl.DataFrame({"repo": ["acme/lib"] * (len(pages) + len(tables)), "path": [*pages, *tables],
                              "generated": [True] * (len(pages) + len(tables))})
    out = dict(zip(classify_exclusions(fc, generated=generated)["path"], classify_exclusions(fc, generated=generated)["exclusion_reason"]))
    assert out["gson/docs/javadocs/script.js"] == out["gson/docs/javadocs/stylesheet.css"] == "generated"
    assert out["src/api/client.go"] is None and out["src/api/zz_generated.deepcopy.go"] == "generated"
    assert out["rich/_unicode_data/unicode3.py"] == "generated" and out["rich/_unicode_data/__init__.py"] is None


@pytest.mark.parametrize("repo_name, vendored", [("acme/rsync", True), ("madler/zlib", False)])
def test_a_copy_at_the_root_or_beside_the_projects_own_files_is_vendored(make_repo, repo_name, vendored):
    """rsync's root-level `zlib/` ("Upgrading zlib to 1.2.8.": its largest fix had been the
    upgrade of the bundled zlib, +4,375 -2,871) and tig's `compat/utf8proc*` beside its own
    `compat/wcwidth.c` ("Update utf8proc to v2.4.0"; imported by "Add utf8proc for handling
    character properties", +16,101). In zlib's own repository, `zlib/` is the project's."""
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline.ingest.git_log import log_commits
    from exceeds_pipeline_tests.conftest import git_out

    def code(n, tag):
        return "".join(f"int {tag}{i}(int x) {{ return x + {i}; }}\n" for i in range(n))

    repo = make_repo("copies")
    add = repo.commit("Add utf8proc for handling character properties", files={
        "compat/utf8proc.c": code(150, "u"), "compat/utf8proc_data.c": code(300, "d"), "compat/wcwidth.c": code(20, "w"),
        "zlib/deflate.c": code(200, "z"), "main.c": code(10, "m")})
    repo.commit("Update utf8proc to v2.4.0", files={"compat/utf8proc.c": code(160, "v"), "compat/utf8proc_data.c": code(310, "e")})
    zlib = repo.commit("Upgrading zlib to 1.2.8.", files={"zlib/deflate.c": code(220, "y"), "zlib/inflate.c": code(120, "i")})
    mine = repo.commit("Fix the wide-character width", files={"compat/wcwidth.c": code(21, "w"), "main.c": code(11, "m")})
    shas = git_out(repo.path, "rev-list", "HEAD").split()
    commits, files = log_commits(repo.path / ".git", repo_name, shas, repo.head())
    out = classify_exclusions(with_language(files), commits)
    reason = {(r["sha"], r["path"]): r["exclusion_reason"] for r in out.iter_rows(named=True)}
    assert reason[(add, "compat/utf8proc.c")] == reason[(add, "compat/utf8proc_data.c")] == "vendored"
    assert reason[(add, "compat/wcwidth.c")] is None and reason[(mine, "compat/wcwidth.c")] is None
    assert reason[(mine, "main.c")] is None
    assert (reason[(zlib, "zlib/deflate.c")] == "vendored") == vendored
    assert (reason[(add, "zlib/deflate.c")] == "vendored") == vendored


def test_a_tree_a_build_script_copies_from_the_source_is_generated(make_repo):
    """zod's deno/lib/, written from src/ by a build script in the same commits: its 48,891 added
    lines had counted as its authors' work. A folder of sibling code that shares a few files
    with another (oxc's napi/minify and napi/transform) is not a copy; nor is the source. A
    tool's log is data."""
    from exceeds_pipeline.enrich.exclusions import mirrored_trees
    from exceeds_pipeline.enrich.languages import with_language
    from exceeds_pipeline.ingest.git_log import log_commits
    from exceeds_pipeline_tests.conftest import git_out

    def code(i, n):
        return "".join(f"export const f{i}_{k} = (x: number) => x + {k};\n" for k in range(n))

    repo = make_repo("mirror")
    day = lambda n: f"2025-01-01T00:00:00+0000" if n < 0 else f"2025-02-{1 + n // 2:02d}T{10 + n % 2}:00:00+0000"  # noqa: E731
    repo.commit("Add the library", date=day(-1), files={f"src/m{i}.ts": code(i, 3) for i in range(22)}
                | {"napi/a/index.ts": code(90, 3), "napi/b/index.ts": code(91, 3)})
    repo.commit("Add the Deno build", date="2025-01-15T00:00:00+0000", files={f"deno/lib/m{i}.ts": code(i, 3) for i in range(22)} | {"deno/mod.ts": "export * from './lib/m0.ts';\n"})
    for n in range(55):
        i = n % 22
        # each change written in src/ and copied to deno/lib/ by the build, same lines
        repo.commit(f"Extend module {i} ({n})", date=day(n), files={f"src/m{i}.ts": code(i, 4 + n), f"deno/lib/m{i}.ts": code(i, 4 + n),
                                                      # sibling packages: one shared file, changed alike at times
                                                      **({"napi/a/index.ts": code(90, 4 + n), "napi/b/index.ts": code(91, 4 + n)}
                                                         if n % 5 == 0 else {})})
    # a package manager's log committed by mistake (zod's yarn-error.log, 4,109 lines) is no one's code
    repo.commit("implemented Record", date="2025-03-01T00:00:00+0000",
                files={"yarn-error.log": "".join(f"Trace: {k}\n" for k in range(400))})
    shas = git_out(repo.path, "rev-list", "HEAD").split()
    commits, files = log_commits(repo.path / ".git", "acme/app", shas, repo.head())
    assert mirrored_trees(files, commits).rows() == [("acme/app", "deno/lib")]
    out = classify_exclusions(with_language(files), commits)
    reasons = dict(out.group_by(pl.col("path").str.extract(r"^([a-z]+(?:/[a-z]+)?)/", 1)).agg(pl.col("exclusion_reason").unique()).rows())
    assert reasons["deno/lib"] == ["generated"]
    assert reasons["src"] == [None] and reasons["napi/a"] == [None] and reasons["napi/b"] == [None]
    assert out.filter(pl.col("path") == "deno/mod.ts")["exclusion_reason"].to_list() == [None]
    assert out.filter(pl.col("path") == "yarn-error.log")["exclusion_reason"].to_list() == ["data_file"]
    # without the commits' dates no folder is known to be the copy
    assert mirrored_trees(files, commits.drop("authored_at")).height == 0
