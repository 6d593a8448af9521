"""A change counts once (SPEC §3, §5): forks, mirrors and cherry-picks across configured
repositories count in the first one listed; the same repository listed twice is a config error.

Real repositories built here, the real pipeline (`run_pipeline`), the published database read back.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import duckdb
import polars as pl
import pytest

from exceeds_pipeline.config import ConfigError, load_config
from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.history.counted_once import count_once, patch_id_candidates
from exceeds_pipeline.runner import run_pipeline
from exceeds_pipeline_tests.conftest import VENV_BIN

ANN = ("Ann Example", "ann@example.com")
BOB = ("Bob Builder", "bob@example.com")
COMMITTER = {"GIT_COMMITTER_NAME": "Rel Eng", "GIT_COMMITTER_EMAIL": "releng@example.com",
             "GIT_COMMITTER_DATE": "1743500000 +0000"}

LEXER = "".join(f"TOKEN_{i} = {i}\n" for i in range(10))


def _upstream(root: Path) -> tuple[GitScript, dict[str, str]]:
    up = GitScript.init(root / "up")
    c = {}
    c["parser"] = up.commit("Add parser", author=ANN, date="2025-01-06T10:00:00+0000",
                            files={"src/parser.py": "def parse(text):\n    return text.split()\n"})
    c["crash"] = up.commit("Fix crash in parser on empty input", author=ANN, date="2025-01-13T10:00:00+0000",
                           files={"src/parser.py": "def parse(text):\n    return (text or '').split()\n"})
    c["docs"] = up.commit("Add docs for the parser", author=BOB, date="2025-01-20T10:00:00+0000",
                          files={"docs/parser.md": "# Parser\n\nSplits words.\n"})
    c["lexer"] = up.commit("Add lexer", author=ANN, date="2025-02-03T10:00:00+0000",
                           files={"src/lexer.py": LEXER})
    c["offbyone"] = up.commit("Fix off-by-one in lexer token table", author=ANN, date="2025-02-10T10:00:00+0000",
                              files={"src/lexer.py": LEXER.replace("TOKEN_9 = 9", "TOKEN_9 = 10")})
    c["cache"] = up.commit("Add cache for parsed files", author=ANN, date="2025-03-03T10:00:00+0000",
                           files={"src/cache.py": "CACHE = {}\n\ndef get(key):\n    return CACHE.get(key)\n"})
    return up, c


def _project(root: Path):
    """up (6 commits), fork (a clone of up + 1 commit), rel (a clone of up at its 2nd commit +
    a `cherry-pick -x`, a plain cherry-pick, and a commit of the same author, subject and line
    counts as one of up's, but another patch)."""
    up, c = _upstream(root)
    fork = GitScript.clone(up.path, root / "fork")
    c["plugins"] = fork.commit("Add plugin loader", author=ANN, date="2025-03-20T10:00:00+0000",
                               files={"src/plugins.py": "PLUGINS = []\n"})
    rel = GitScript.clone(up.path, root / "rel")
    rel.reset_hard(c["crash"])
    rel.git("cherry-pick", "-x", c["lexer"], env=COMMITTER)
    c["lexer_x"] = rel.head()
    rel.git("cherry-pick", c["cache"], env=COMMITTER)
    c["cache_pick"] = rel.head()
    # Same author, subject and +1/-1 as up's off-by-one fix, but another line: not the same patch.
    c["lookalike"] = rel.commit("Fix off-by-one in lexer token table", author=ANN, date="2025-04-14T10:00:00+0000",
                                files={"src/lexer.py": LEXER.replace("TOKEN_0 = 0", "TOKEN_0 = -1")})
    return up, fork, rel, c


def _config(root: Path, name: str, *entries: str) -> Path:
    path = root / name
    path.write_text("repositories:\n" + "".join(f"  - {e}\n" for e in entries))
    return path


def _run(config: Path, data: Path) -> dict:
    outcome = run_pipeline(config, data, echo=lambda _: None)
    assert outcome.ok, (outcome.failed_repos, outcome.publish_error)
    with duckdb.connect(str(data / "exceeds.duckdb"), read_only=True) as con:
        tables = {t: con.execute(f"select * from {t}").pl() for t in
                  ("commits", "work_items", "repo_rollups", "monthly_rollups", "quality_metrics", "profiles")}
    tables["profile"] = {r["person_id"]: json.loads(r["profile"]) for r in tables["profiles"].iter_rows(named=True)}
    return tables


def _fb(profile: dict) -> int:
    return profile["stats"]["features"] + profile["stats"]["bugs"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("counted_once")
    home = root / "dagster_home"
    home.mkdir()
    old = os.environ.get("DAGSTER_HOME")
    os.environ["DAGSTER_HOME"] = str(home)
    try:
        up, fork, rel, c = _project(root)
        alone = _run(_config(root, "alone.yaml", "path: up"), root / "data_alone")
        full = _run(_config(root, "full.yaml", "path: up", "path: fork", "path: rel"), root / "data_full")
        reordered = _run(_config(root, "reordered.yaml", "path: rel", "path: fork", "path: up"),
                         root / "data_reordered")
    finally:
        if old is None:
            os.environ.pop("DAGSTER_HOME", None)
        else:
            os.environ["DAGSTER_HOME"] = old
    return {"alone": alone, "full": full, "reordered": reordered, "c": c}


def _person(tables: dict, email: str) -> str:
    return tables["commits"].filter(pl.col("author_email") == email)["person_id"][0]


def test_fork_and_mirror_copies_count_once_in_the_first_listed_repository(runs):
    alone, full, c = runs["alone"], runs["full"], runs["c"]
    ann, bob = _person(full, ANN[1]), _person(full, BOB[1])
    commits = full["commits"]
    # every copy is kept: up 6 + fork 7 + rel (2 shared + 2 picks + 1 lookalike)
    assert commits.group_by("repo").len().sort("repo").rows() == [("fork", 7), ("rel", 5), ("up", 6)]
    # Ann: 5 in up + the fork's own commit + the lookalike in rel; naively 16.
    assert full["profile"][ann]["stats"]["commits"] == 7
    assert full["profile"][bob]["stats"]["commits"] == 1
    assert alone["profile"][ann]["stats"]["commits"] == 5
    counted = commits.filter(pl.col("is_counted"))
    assert sorted(counted.select("repo", "sha").rows()) == sorted(
        [("up", c[k]) for k in ("parser", "crash", "docs", "lexer", "offbyone", "cache")]
        + [("fork", c["plugins"]), ("rel", c["lookalike"])]
    )
    assert (counted["counted_in"] == counted["repo"]).all() and (counted["counted_sha"] == counted["sha"]).all()
    fork_copies = commits.filter((pl.col("repo") == "fork") & (pl.col("sha") != c["plugins"]))
    assert fork_copies["counted_in"].to_list() == ["up"] * 6
    assert (fork_copies["counted_sha"] == fork_copies["sha"]).all()
    assert not fork_copies["is_counted"].any()

    # features + bugs: up's alone, plus the fork's and the lookalike's own items; nothing twice
    extra = full["repo_rollups"].filter(pl.col("person_id") == ann, pl.col("repo") != "up")
    assert extra.select("repo", "commits").sort("repo").rows() == [("fork", 1), ("rel", 1)]
    assert _fb(full["profile"][ann]) == _fb(alone["profile"][ann]) + int(extra["features"].sum() + extra["bugs"].sum())
    up_row = lambda t: t["repo_rollups"].filter(pl.col("person_id") == ann, pl.col("repo") == "up").drop("repo")  # noqa: E731
    assert up_row(full).rows() == up_row(alone).rows()
    # LOC once: profile totals = up's alone + the two own commits (file_changes-based)
    own = commits.filter(pl.col("sha").is_in([c["plugins"], c["lookalike"]]))
    loc = full["profile"][ann]["stats"]["lines_of_code"]
    assert loc["added"] == alone["profile"][ann]["stats"]["lines_of_code"]["added"] + own["lines_added"].sum()
    assert full["monthly_rollups"].filter(pl.col("person_id") == ann)["commits"].sum() == 7
    ai = full["quality_metrics"].filter(pl.col("person_id") == ann, pl.col("metric") == "ai_usage")
    assert ai["evidence_count"].to_list() == [7]

    # work items: a copy is no item of its own; it carries the item of the counting copy
    items = full["work_items"]
    assert items.filter(pl.col("repo") == "fork")["commits"].to_list() == [1]
    assert items.height == alone["work_items"].height + 2
    up_items = commits.filter(pl.col("repo") == "up").select("sha", "work_item_id")
    joined = fork_copies.select("sha", "work_item_id").join(up_items, on="sha", suffix="_up")
    assert joined.height == 6 and (joined["work_item_id"] == joined["work_item_id_up"]).all()
    assert joined["work_item_id"].null_count() == 0


def test_cherry_picks_with_and_without_a_record_count_once(runs):
    full, c = runs["full"], runs["c"]
    rel = full["commits"].filter(pl.col("repo") == "rel")
    row = {r["sha"]: r for r in rel.iter_rows(named=True)}
    assert "(cherry picked from commit" in row[c["lexer_x"]]["message"]
    # -x: the record names up's commit
    assert (row[c["lexer_x"]]["is_counted"], row[c["lexer_x"]]["counted_in"], row[c["lexer_x"]]["counted_sha"]) == (
        False, "up", c["lexer"])
    # no record, same patch by the same author: git patch-id
    assert (row[c["cache_pick"]]["is_counted"], row[c["cache_pick"]]["counted_in"],
            row[c["cache_pick"]]["counted_sha"]) == (False, "up", c["cache"])
    # same author, subject and line counts, another patch: its own change
    assert (row[c["lookalike"]]["is_counted"], row[c["lookalike"]]["counted_in"]) == (True, "rel")
    # shared history of the clone (same sha)
    assert (row[c["parser"]]["counted_in"], row[c["parser"]]["is_counted"]) == ("up", False)
    # the picks have no work item of their own in rel
    rel_items = full["work_items"].filter(pl.col("repo") == "rel")
    assert rel_items["commits"].to_list() == [1]


def test_the_first_listed_repository_wins(runs):
    full, reordered, c = runs["full"], runs["reordered"], runs["c"]
    ann = _person(reordered, ANN[1])
    assert reordered["profile"][ann]["stats"]["commits"] == 7
    assert _fb(reordered["profile"][ann]) == _fb(full["profile"][ann])
    counted = dict(reordered["commits"].filter(pl.col("is_counted")).select("sha", "repo").iter_rows())
    # rel listed first: its picks count there, up's originals are the copies
    assert counted[c["parser"]] == "rel" and counted[c["lexer_x"]] == "rel" and counted[c["cache_pick"]] == "rel"
    assert c["lexer"] not in counted and c["cache"] not in counted
    # fork before up: the rest of up's history counts in the fork
    assert counted[c["offbyone"]] == "fork" and counted[c["docs"]] == "fork"
    up = reordered["commits"].filter(pl.col("repo") == "up")
    assert not up["is_counted"].any()
    lexer = up.filter(pl.col("sha") == c["lexer"]).row(0, named=True)
    assert (lexer["counted_in"], lexer["counted_sha"]) == ("rel", c["lexer_x"])


def test_patch_ids_only_for_candidates():
    frame = pl.DataFrame({
        "repo": ["a", "b", "a", "b", "b", "a", "b", "a", "b"],
        "sha": ["1", "2", "3", "4", "5", "6", "6", "7", "7"],
        "person_id": ["ann", "ann", "ann", "bob", "ann", "cy", "cy", "cy", "cy"],
        "subject": ["Fix x", "Fix x", "Add y", "Add y", "Fix x", "Reland z", "Reland z", "Reland z", "Reland z"],
        "lines_added": [1, 1, 5, 5, 2, 3, 3, 3, 3],
        "lines_deleted": [1, 1, 0, 0, 1, 0, 0, 0, 0],
        "is_merge": [False] * 9,
    })
    # 1/2: same person, subject and counts in two repos; 3/4 differ by person; 5 by counts;
    # 6/7: the same change twice, both reachable from a and b (a mirror): candidates too (the
    # commit graph says whether one was made again after the other, or on a parallel line)
    assert sorted(patch_id_candidates(frame)["sha"].unique().to_list()) == ["1", "2", "6", "7"]
    # a backport through its own pull request: `(#N)` suffixes aside, the same subject
    backport = pl.DataFrame({
        "repo": ["a", "b", "b"], "sha": ["8", "9", "10"], "person_id": ["dee"] * 3,
        "subject": ["Fix w (#10)", "Fix w (#10) (#12)", "Fix w more (#13)"],
        "lines_added": [4] * 3, "lines_deleted": [0] * 3, "is_merge": [False] * 3,
    })
    assert sorted(patch_id_candidates(backport)["sha"].to_list()) == ["8", "9"]


def test_count_once_without_copies_changes_nothing():
    from datetime import datetime, timezone

    t = datetime(2025, 1, 1, tzinfo=timezone.utc)
    frame = pl.DataFrame({
        "repo": ["a", "b", "b"], "sha": ["1", "2", "3"], "person_id": ["ann", "ann", None],
        "subject": ["x", "y", "Merge"], "message": ["x", "y", "Merge"], "lines_added": [1, 2, 0],
        "lines_deleted": [0, 0, 0], "is_merge": [False, False, True], "is_counted": [True, True, False],
        "committed_at": [t, t, t],
    })
    out = count_once(frame, ["b", "a"])
    assert out["is_counted"].to_list() == [True, True, False]
    assert out["counted_in"].to_list() == ["a", "b", None]
    assert out["_copy"].to_list() == [False, False, False]


# -- the same repository listed twice -----------------------------------------------------------


def _same_repo_error(config: Path) -> str:
    with pytest.raises(ConfigError) as exc:
        load_config(config)
    return str(exc.value)


def test_the_same_repository_twice_is_a_config_error(tmp_path):
    up, _ = _upstream(tmp_path)
    GitScript.clone(up.path, tmp_path / "fork")
    conf = tmp_path / "conf"
    conf.mkdir()
    cases = {
        "paths.yaml": ["path: ../up", "path: ../up/.git\n    name: again"],
        "dots.yaml": ["path: ../up", f"path: {tmp_path}/conf/../up\n    name: again"],
        "file_url.yaml": ["path: ../up", f"url: file://{up.path}\n    name: again"],
        "origin.yaml": [f"url: file://{up.path}", "path: ../fork"],
        "hosts.yaml": ["url: https://github.com/Org/Repo.git", "url: https://GitHub.com/Org/Repo/\n    name: again"],
        "ssh.yaml": ["url: https://github.com/org/repo", "url: git@github.com:org/repo.git\n    name: again"],
    }
    for name, entries in cases.items():
        text = _same_repo_error(_config(conf, name, *entries))
        assert "repositories[1] is the same repository as repositories[0]" in text, (name, text)
        first, second = (e.split("\n")[0].split(": ", 1)[1] for e in entries)
        assert first in text and second in text, (name, text)
    # a clone of a listed path is a fork, not the same repository; other owners are other repos;
    # another branch of one repository is other history (shared commits count once)
    load_config(_config(conf, "fork.yaml", "path: ../up", "path: ../fork"))
    load_config(_config(conf, "branch.yaml", "path: ../up", "path: ../up\n    name: rel\n    branch: rel"))
    load_config(_config(conf, "other.yaml", "url: https://github.com/org/repo", "url: https://github.com/org/repo2"))


def test_cli_exits_2_naming_both_entries(tmp_path):
    up, _ = _upstream(tmp_path)
    config = _config(tmp_path, "exceeds.yaml", "path: up", f"url: file://{up.path}\n    name: mirror")
    env = {k: v for k, v in os.environ.items() if not k.startswith("EXCEEDS_")}
    proc = subprocess.run(
        [str(VENV_BIN / "exceeds"), "materialize", "--config", str(config), "--data-dir", str(tmp_path / "data")],
        env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "repositories[1] is the same repository as repositories[0]" in proc.stderr
    assert f"file://{up.path}" in proc.stderr and "path 'up'" in proc.stderr
    assert not (tmp_path / "data" / "exceeds.duckdb").exists()


def test_szz_traces_a_fix_only_where_it_counts():
    from exceeds_pipeline.quality.szz import szz_candidates

    frame = pl.DataFrame({
        "repo": ["up", "fork", "rel", "rel"], "sha": ["f1", "f1", "f2", "f3"],
        "is_merge": [False] * 4, "category": ["bug"] * 4, "parents": [["p"]] * 4,
        "lines_deleted": [2] * 4, "files_changed": [1] * 4,
        "committed_at": [1, 1, 2, 3],
        # f1 counts in up (the fork's row is its copy), f2 is a cherry-pick of f1, f3 a bot's fix
        "counted_in": ["up", "up", "up", None], "counted_sha": ["f1", "f1", "f1", None],
    })
    assert szz_candidates(frame).rows() == [("rel", "f3"), ("up", "f1")]


def test_one_commit_written_twice_into_one_history_counts_once(tmp_path):
    # The same commit (author, times, message, patch) on two parents, both merged: a converted
    # or filtered history does this. A reland cherry-picked later (a new committer time) is a
    # change made twice and stays two.
    from exceeds_pipeline_tests.classify.gitframes import read_repo

    repo = GitScript.init(tmp_path / "app")
    repo.commit("Initial commit", author=ANN, date="2025-01-01T10:00:00+0000", files={"app.py": "x = 1\n"})
    repo.branch("one", checkout=True)
    twice = dict(author=ANN, date="2025-01-02T10:00:00+0000", committer=ANN, committer_date="2025-01-02T10:00:00+0000",
                 files={"src/index.py": "PAGES = ['a', 'b']\n"})
    first = repo.commit("Generate the plugin index", **twice)
    repo.checkout("main")
    repo.branch("two", checkout=True)
    repo.commit("Add notes", author=BOB, date="2025-01-02T09:00:00+0000", files={"NOTES.md": "notes\n"})
    second = repo.commit("Generate the plugin index", **twice)
    repo.checkout("main")
    repo.merge("one", "Merge branch 'one'", author=BOB, date="2025-01-03T10:00:00+0000")
    repo.merge("two", "Merge branch 'two'", author=BOB, date="2025-01-03T11:00:00+0000")
    repo.commit("Revert the plugin index", author=ANN, date="2025-01-04T10:00:00+0000",
                files={"src/index.py": None})
    reland = repo.commit("Generate the plugin index", author=ANN, date="2025-01-02T10:00:00+0000",
                         committer=ANN, committer_date="2025-01-05T10:00:00+0000",
                         files={"src/index.py": "PAGES = ['a', 'b']\n"})
    assert first != second
    commits, _ = read_repo(repo)
    commits = commits.with_columns((~pl.col("is_merge")).alias("is_counted"))
    git_dir = repo.git("rev-parse", "--absolute-git-dir")
    out = count_once(commits, ["acme/app"], {"acme/app": git_dir})
    counted = dict(zip(out["sha"], out["is_counted"]))
    assert counted[first] != counted[second]  # one of the two copies counts
    assert counted[reland]
    assert out.filter(pl.col("subject") == "Generate the plugin index")["is_counted"].sum() == 2


def test_the_same_patch_on_two_parallel_lines_of_one_history_counts_once(tmp_path):
    """tmux: Nicholas Marriott applies a patch to the GitHub tree ("Check if args_strtonum
    argument is NULL or not a string", 2022-05-14) and again to OpenBSD's (2022-05-30), whose
    branch is merged in: 344 of his counted commits were such second copies. Neither copy is an
    ancestor of the other; a reland after a revert descends from the first and stays a change
    of its own."""
    from exceeds_pipeline_tests.classify.gitframes import read_repo

    repo = GitScript.init(tmp_path / "tmux")
    repo.commit("Initial commit", author=ANN, date="2022-05-01T10:00:00+0000",
                files={"arguments.c": "int args;\n", "grid.c": "int grid;\n"})
    repo.branch("obsd-master")
    fix = dict(files={"arguments.c": "int args;\nif (arg == NULL) return;\n"})
    github = repo.commit("Check if args_strtonum argument is NULL or not a string.", author=ANN,
                         date="2022-05-14T20:13:52+0100", **fix)
    repo.checkout("obsd-master")
    repo.commit("Grid cleanup", author=BOB, date="2022-05-20T10:00:00+0000", files={"grid.c": "int grid2;\n"})
    openbsd = repo.commit("Check if args_strtonum argument is NULL or not a string.", author=ANN,
                          date="2022-05-30T13:04:24+0000", **fix)
    repo.checkout("main")
    repo.merge("obsd-master", "Merge branch 'obsd-master'", author=BOB, date="2022-05-31T10:00:00+0000")
    repo.commit("Revert the NULL check", author=ANN, date="2022-06-02T10:00:00+0000",
                files={"arguments.c": "int args;\n"})
    reland = repo.commit("Check if args_strtonum argument is NULL or not a string.", author=ANN,
                         date="2022-06-03T10:00:00+0000", **fix)
    commits, _ = read_repo(repo)
    commits = commits.with_columns((~pl.col("is_merge")).alias("is_counted"))
    git_dir = repo.git("rev-parse", "--absolute-git-dir")
    out = count_once(commits, ["acme/app"], {"acme/app": git_dir})
    counted = dict(zip(out["sha"], out["is_counted"]))
    assert counted[github] and not counted[openbsd]
    assert dict(zip(out["sha"], out["counted_sha"]))[openbsd] == github
    assert counted[reland]
