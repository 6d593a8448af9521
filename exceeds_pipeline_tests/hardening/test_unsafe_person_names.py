"""Author names that are unsafe as file names (`../`, `/`, `\\`, dots only, empty, reserved
device names, emoji, very long): person ids stay slugs and every export file stays inside the
exports folder. NUL cannot occur: git has no way to store it in a name."""

from __future__ import annotations

import json
import re
import subprocess

from exceeds_pipeline_tests.gitscript import GitScript, isolated_env
from exceeds_pipeline_tests.hardening.helpers import query, run_exceeds, run_pipeline_quietly, write_config

HOSTILE_NAMES = [
    "../../etc/passwd",
    "..",
    "...",
    "/",
    "a/b\\c",
    "",  # fast-import allows an empty name (git commit does not)
    "日本語",
    "😀😀",
    "CON",
    ".hidden",
    "-rf",
    "index",
    "A" * 5000,
    "ü" * 300,
    "José",
    "Jose",
    "%2e%2e%2fescape",
    "name\twith\ttabs",
]


def _repo_with_authors(path, names) -> GitScript:
    repo = GitScript.init(path)
    chunks = []
    for i, name in enumerate(names):
        msg = f"Change {i}\n".encode()
        ident = name.encode() + b" <person%d@example.com> %d +0000\n" % (i, 1736000000 + i * 3600)
        body = b"content %d\n" % i
        chunks.append(
            b"commit refs/heads/main\nmark :%d\n" % (i + 1)
            + b"author " + ident + b"committer " + ident
            + b"data %d\n%s" % (len(msg), msg)
            + (b"from :%d\n" % i if i else b"")
            + b"M 100644 inline f%d.txt\ndata %d\n%s\n\n" % (i, len(body), body)
        )
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=b"".join(chunks),
                   env=isolated_env(), check=True, capture_output=True)
    repo.git("reset", "-q", "--hard", "main")
    return repo


def test_hostile_author_names_give_safe_ids_and_exports_stay_inside(tmp_path):
    repo = _repo_with_authors(tmp_path / "repo", HOSTILE_NAMES)
    stored = repo.git("log", "--format=%an").split("\n")
    assert len(stored) == len(HOSTILE_NAMES) and "../../etc/passwd" in stored  # git kept them
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}])
    data = tmp_path / "data"

    outcome, lines = run_pipeline_quietly(config, data)

    assert outcome.ok, lines
    db = data / "exceeds.duckdb"
    people = query(db, "SELECT person_id, display_name FROM people")
    assert len(people) == len(HOSTILE_NAMES)  # one person per e-mail, none lost
    ids = [pid for pid, _ in people]
    assert len(set(ids)) == len(ids)
    for pid in ids:
        assert re.fullmatch(r"[a-z0-9][a-z0-9._-]{0,79}", pid), pid
        assert ".." not in pid
    assert query(db, "SELECT count(*) FROM commits WHERE person_id IS NULL") == [(0,)]

    exports = data / "exports"
    inside = (exports / "profiles").resolve()
    site = (exports / "site").resolve()
    files = [p for p in exports.rglob("*") if p.is_file()]
    assert {f.name for f in (site / "people").iterdir()} == {f.stem + ".html" for f in inside.iterdir()}
    for f in files:
        assert f.resolve().parent in (inside, exports.resolve(), site, site / "people"), f
        assert len(f.name.encode()) <= 255
    # nothing escaped the data dir: no etc/passwd, no stray files next to it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml", "dagster_home", "data", "repo"]
    index = json.loads((exports / "index.json").read_text())
    profiled = query(db, "SELECT count(*) FROM profiles")[0][0]
    assert index["count"] == profiled == len(list((exports / "profiles").glob("*.json"))) == len(HOSTILE_NAMES)
    for entry in index["profiles"]:
        target = (exports / entry["file"]).resolve()
        assert target.parent == inside and target.is_file()
        assert json.loads(target.read_text())["id"] == entry["id"]


def test_profile_lookup_by_a_hostile_name_prints_only_that_profile(tmp_path):
    repo = _repo_with_authors(tmp_path / "repo", ["../../etc/passwd", "Plain Person"])
    config = write_config(tmp_path / "c.yaml", [{"path": str(repo.path)}])
    data = tmp_path / "data"
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    proc = run_exceeds("profile", "../../etc/passwd", "--data-dir", str(data))
    assert proc.returncode == 0, proc.stderr
    profile = json.loads(proc.stdout)
    assert profile["name"] == "../../etc/passwd"
    assert re.fullmatch(r"[a-z0-9][a-z0-9._-]*", profile["id"])
