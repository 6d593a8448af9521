"""Content that trips naive git analytics: submodules, huge commits, binary-only commits, and
text that is not UTF-8 (messages, author names, paths). The whole pipeline runs through them and
every line count still equals `git log --numstat`."""

from __future__ import annotations

import subprocess
import time

from exceeds_pipeline_tests.gitscript import GitScript, isolated_env
from exceeds_pipeline_tests.conftest import git_numstat
from exceeds_pipeline_tests.hardening.helpers import (
    outcome_of,
    query,
    run_pipeline_quietly,
    small_repo,
    write_config,
)

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4


def _published_counts(db, repo: str) -> dict[str, tuple[int, int, int]]:
    rows = query(db, "SELECT sha, lines_added, lines_deleted, files_changed FROM commits "
                     "WHERE repo = ? AND NOT is_merge", [repo])
    return {sha: (a, d, f) for sha, a, d, f in rows}


def _assert_matches_git(db, repo: str, path) -> None:
    expected = {sha: c for sha, c in git_numstat(path).items()}
    published = _published_counts(db, repo)
    merges = {sha for (sha,) in query(db, "SELECT sha FROM commits WHERE repo = ? AND is_merge", [repo])}
    assert published == {sha: c for sha, c in expected.items() if sha not in merges}


def test_submodules_are_recorded_as_gitlinks_without_crashing(tmp_path):
    lib = small_repo(tmp_path / "lib", commits=2)
    app = GitScript.init(tmp_path / "app")
    app.commit("Initial", files={"README.md": "app\n"})
    app.git("submodule", "add", "-q", lib.path.as_uri(), "vendor/lib")
    added = app.commit("Add lib as a submodule")
    lib.commit("Lib change", files={"src/new.py": "x = 1\n"})
    app.git("-C", "vendor/lib", "pull", "-q", "origin", "main")
    bumped = app.commit("Bump lib")
    app.git("rm", "-q", "vendor/lib")
    removed = app.commit("Drop the submodule")
    config = write_config(tmp_path / "c.yaml", [{"path": str(app.path)}])
    data = tmp_path / "data"

    outcome, lines = run_pipeline_quietly(config, data)

    assert outcome.ok, lines
    db = data / "exceeds.duckdb"
    _assert_matches_git(db, "app", app.path)
    gitlinks = query(db, "SELECT sha, path, lines_added, lines_deleted, is_binary FROM file_changes "
                         "WHERE path = 'vendor/lib' ORDER BY 1")
    assert {row[0] for row in gitlinks} == {added, bumped, removed}
    # the raw table keeps the gitlink flag
    import polars as pl

    from exceeds_pipeline.ingest.raw_store import RawStore

    store = RawStore(data / "raw")
    _, files = store.read("app")
    flags = files.filter(pl.col("path") == "vendor/lib")["is_submodule"].to_list()
    assert flags == [True, True, True]
    assert not files.filter(pl.col("path") != "vendor/lib")["is_submodule"].any()


def _fast_import(path, commands: bytes) -> None:
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=commands, env=isolated_env(),
                   check=True, capture_output=True)
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=path, env=isolated_env(), check=True)


def _commit_cmd(n: int, message: str, body: list[bytes], parent: bool = True) -> bytes:
    msg = message.encode()
    return (b"commit refs/heads/main\nmark :%d\n" % n
            + b"author Huge Maker <huge@example.com> %d +0000\n" % (1736000000 + n * 60)
            + b"committer Huge Maker <huge@example.com> %d +0000\n" % (1736000000 + n * 60)
            + b"data %d\n%s\n" % (len(msg), msg)
            + (b"from :%d\n" % (n - 1) if parent else b"")
            + b"".join(body) + b"\n")


def test_huge_commits_of_20k_files_are_ingested_exactly(tmp_path):
    n = 20_000
    repo = GitScript.init(tmp_path / "huge")
    blob = lambda text: b"data %d\n%s\n" % (len(text), text)  # noqa: E731
    add = [b"M 100644 inline gen/f%05d.txt\n" % i + blob(b"line %d\n" % i) for i in range(n)]
    edit = [b"M 100644 inline gen/f%05d.txt\n" % i + blob(b"line %d\nmore\n" % i) for i in range(n)]
    move = [b"R gen tree/gen\n"]
    _fast_import(repo.path, _commit_cmd(1, "Add 20k generated files", add, parent=False)
                 + _commit_cmd(2, "Touch every generated file", edit)
                 + _commit_cmd(3, "Move the generated tree", move))
    small = small_repo(tmp_path / "small")
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}, {"path": str(small.path)}])
    data = tmp_path / "data"

    started = time.monotonic()
    outcome, lines = run_pipeline_quietly(config, data)
    elapsed = time.monotonic() - started

    assert outcome.ok, lines
    db = data / "exceeds.duckdb"
    _assert_matches_git(db, "huge", repo.path)
    files = dict(query(db, "SELECT subject, files_changed FROM commits WHERE repo = 'huge'"))
    assert files == {"Add 20k generated files": n, "Touch every generated file": n,
                     "Move the generated tree": n}
    assert query(db, "SELECT count(*) FROM file_changes WHERE repo = 'huge'") == [(3 * n,)]
    assert query(db, "SELECT count(*) FROM commits WHERE repo = 'small'") == [(3,)]
    assert elapsed < 300, f"{elapsed:.0f}s for three 20k-file commits"


def test_binary_only_commits_count_no_lines(tmp_path):
    repo = GitScript.init(tmp_path / "art")
    repo.commit("Add the logo", files={"assets/logo.png": PNG, "assets/icon.ico": PNG[::-1]})
    repo.commit("Recolour the logo", files={"assets/logo.png": PNG + b"\x00\x01"})
    repo.commit("Drop the icon", files={"assets/icon.ico": None})
    repo.commit("Add docs", files={"README.md": "# Art\n"})
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}])
    data = tmp_path / "data"

    outcome, lines = run_pipeline_quietly(config, data)

    assert outcome.ok, lines
    db = data / "exceeds.duckdb"
    _assert_matches_git(db, "art", repo.path)
    rows = query(db, "SELECT c.subject, c.lines_added, c.lines_deleted, c.files_changed, c.is_counted "
                     "FROM commits c ORDER BY authored_at, subject")
    by_subject = {r[0]: r[1:] for r in rows}
    assert by_subject["Add the logo"] == (0, 0, 2, True)
    assert by_subject["Recolour the logo"] == (0, 0, 1, True)
    assert by_subject["Drop the icon"] == (0, 0, 1, True)
    binaries = query(db, "SELECT DISTINCT is_binary, excluded FROM file_changes WHERE path LIKE 'assets/%'")
    assert {b for b, _ in binaries} == {True}
    assert all(excluded for _, excluded in binaries)


def test_non_utf8_messages_names_and_paths(tmp_path):
    repo = GitScript.init(tmp_path / "legacy")
    # Latin-1 message declared as such (git re-encodes it), and one with no declaration at all.
    # (a Latin-1 commit has its author in Latin-1 too: git re-encodes the whole commit)
    declared = repo.commit("Corrige l'accent de Café".encode("latin-1"), encoding="ISO-8859-1",
                           author=("Zo\udceb Declared", "zoe@example.com"), files={"a.txt": "a\n"})
    raw = repo.commit(b"Ajoute le r\xe9sum\xe9", author=("Ren\udce9 Raw", "rene@example.com"),
                      files={"caf\udce9.txt": "b\n"})  # Latin-1 bytes in the name and the path
    sjis = repo.commit("日本語のコミット".encode("shift_jis"), encoding="Shift_JIS",
                       author=("Taro", "taro@example.com"), files={"日本/ファイル.txt": "c\n"})
    bogus = repo.commit(b"Unknown encoding \xff\xfe", encoding="x-no-such-charset",
                        author=("Bogus", "bogus@example.com"), files={"d.txt": "d\n"})
    good = small_repo(tmp_path / "good")
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}, {"path": str(good.path)}])
    data = tmp_path / "data"

    outcome, lines = run_pipeline_quietly(config, data)

    assert outcome.ok, lines
    assert outcome_of(outcome, "legacy").ok
    db = data / "exceeds.duckdb"
    _assert_matches_git(db, "legacy", repo.path)
    subjects = dict(query(db, "SELECT sha, subject FROM commits WHERE repo = 'legacy'"))
    assert subjects[declared] == "Corrige l'accent de Café"
    assert subjects[raw] == "Ajoute le résumé"
    assert subjects[sjis] == "日本語のコミット"
    assert subjects[bogus].startswith("Unknown encoding")
    names = dict(query(db, "SELECT sha, author_name FROM commits WHERE repo = 'legacy'"))
    assert names[raw] == "René Raw" and names[declared] == "Zoë Declared"
    paths = {p for (p,) in query(db, "SELECT path FROM file_changes WHERE repo = 'legacy'")}
    assert {"café.txt", "日本/ファイル.txt"} <= paths
    people = {n for (n,) in query(db, "SELECT display_name FROM people")}
    assert {"René Raw", "Zoë Declared", "Taro"} <= people
    person_ids = [p for (p,) in query(db, "SELECT person_id FROM people")]
    assert all(p.isascii() and p for p in person_ids)
