"""Line survival (performance): ownership equals git blame; others' edits elsewhere don't count."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import polars as pl
import pytest

from exceeds_pipeline.quality.survival import line_owners_at_tip, survival_for_repository
from exceeds_pipeline_tests.conftest import git_dir_of

T0 = datetime(2025, 1, 1, 12, tzinfo=timezone.utc)
ADA = ("Ada", "ada@example.com")
BOB = ("Bob", "bob@example.com")
CY = ("Cy", "cy@example.com")


def frame(repo, name="acme/lib") -> pl.DataFrame:
    rows = []
    for line in repo.git("log", "--format=%H %ct %P", "HEAD").splitlines():
        sha, ct, *parents = line.split()
        rows.append({"repo": name, "sha": sha, "parents": parents,
                     "committed_at": datetime.fromtimestamp(int(ct), timezone.utc)})
    return pl.DataFrame(rows, schema={"repo": pl.String, "sha": pl.String, "parents": pl.List(pl.String),
                                      "committed_at": pl.Datetime("us", "UTC")})


def blame(repo, path) -> list[str]:
    out = repo.git("blame", "--porcelain", "HEAD", "--", path)
    owners = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and len(parts[0]) == 40 and all(c in "0123456789abcdef" for c in parts[0]) \
                and parts[1].isdigit() and parts[2].isdigit():
            owners.append(parts[0])
    return owners


def tracked(repo) -> list[str]:
    return repo.git("ls-files").split()


def test_ownership_equals_git_blame_on_a_random_linear_history(make_repo):
    rng = random.Random(7)
    repo = make_repo("linear")
    files = {f"src/f{i}.py": [f"line {i}-{j}" for j in range(30)] for i in range(3)}
    repo.commit("init", author=ADA, date=T0, files={p: "\n".join(v) + "\n" for p, v in files.items()})
    people = [ADA, BOB, CY]
    for n in range(60):
        path = rng.choice(sorted(files))
        lines = files[path]
        for _ in range(rng.randint(1, 3)):
            op = rng.random()
            i = rng.randrange(len(lines) + 1)
            if op < 0.4 or len(lines) < 5:
                lines[i:i] = [f"new {n} {k} {rng.random():.6f}" for k in range(rng.randint(1, 4))]
            elif op < 0.7:
                del lines[i:i + rng.randint(1, 3)]
            else:
                lines[i:i + 2] = [f"edit {n} {rng.random():.6f}"]
        renames = {}
        if n == 30:  # a rename with an edit, followed through like blame does
            new = "src/renamed.py"
            renames = {path: new}
            files[new] = files.pop(path)
            path = new
        repo.commit(f"change {n}", author=rng.choice(people), date=T0 + timedelta(days=n),
                    files={path: "\n".join(files[path]) + "\n"}, renames=renames)
    owners = line_owners_at_tip(git_dir_of(repo), frame(repo))
    for path in tracked(repo):
        assert owners[path] == blame(repo, path), path


def test_merged_topic_branches_give_lines_to_their_branch_commits_as_blame_does(make_repo):
    repo = make_repo("branches")
    base = "\n".join(f"base {i}" for i in range(20)) + "\n"
    repo.commit("init", author=ADA, date=T0, files={"a.py": base, "b.py": base})
    repo.branch("topic", checkout=True)
    repo.commit("topic 1", author=BOB, date=T0 + timedelta(days=1),
                files={"b.py": base.replace("base 3\n", "bob 3\nbob 3b\n")})
    repo.commit("topic 2", author=BOB, date=T0 + timedelta(days=2),
                files={"b.py": base.replace("base 3\n", "bob 3\nbob 3b\n").replace("base 9\n", "bob 9\n"),
                       "c.py": "new\nfile\n"})
    repo.checkout("main")
    repo.commit("main edit", author=CY, date=T0 + timedelta(days=3),
                files={"a.py": base.replace("base 15\n", "cy 15\n")})
    repo.merge("topic", date=T0 + timedelta(days=4)) if _merge_takes_date(repo) else repo.merge("topic")
    repo.commit("after", author=ADA, date=T0 + timedelta(days=5),
                files={"b.py": repo.path.joinpath("b.py").read_text().replace("base 12\n", "ada 12\n")})
    owners = line_owners_at_tip(git_dir_of(repo), frame(repo))
    for path in tracked(repo):
        assert owners[path] == blame(repo, path), path


def _merge_takes_date(repo) -> bool:
    import inspect

    return "date" in inspect.signature(repo.merge).parameters


def test_another_persons_edit_elsewhere_in_the_file_does_not_count_against_you(make_repo):
    repo = make_repo("others")
    body = [f"x{i} = {i}" for i in range(40)]
    repo.commit("init", author=CY, date=T0, files={"m.py": "\n".join(body) + "\n"})
    ada_lines = [f"ada{i} = {i}" for i in range(10)]
    body[10:10] = ada_lines
    ada = repo.commit("ada adds 10", author=ADA, date=T0 + timedelta(days=1), files={"m.py": "\n".join(body) + "\n"})
    # Bob edits the same busy file many times, never Ada's lines, within the 21 days.
    for k in range(5):
        body[30 + k] = f"bob{k} = 1"
        body.insert(0, f"# bob {k}")
        repo.commit(f"bob {k}", author=BOB, date=T0 + timedelta(days=2 + k), files={"m.py": "\n".join(body) + "\n"})
    # Cy rewrites 3 of Ada's lines on day 10 (within 21 days) ...
    i = body.index("ada0 = 0")
    body[i:i + 3] = ["cy = 1"]
    cy = repo.commit("cy rewrites", author=CY, date=T0 + timedelta(days=10), files={"m.py": "\n".join(body) + "\n"})
    # ... and deletes 2 more on day 40 (after the window: they survived 21 days).
    i = body.index("ada5 = 5")
    del body[i:i + 2]
    repo.commit("late cleanup", author=CY, date=T0 + timedelta(days=40), files={"m.py": "\n".join(body) + "\n"})
    out = survival_for_repository("acme/lib", git_dir_of(repo), frame(repo), None, None)
    row = out.filter(pl.col("sha") == ada).row(0, named=True)
    assert (row["path"], row["lines_added"], row["lines_rewritten"], row["final"]) == ("m.py", 10, 3, True)
    bob_rows = out.filter(pl.col("sha") != ada)
    assert bob_rows.filter(pl.col("sha") == cy)["lines_rewritten"].item() == 0
    # the file-level approximation would have charged Ada for Bob's 10 deleted/changed lines


def test_cache_continues_from_the_cached_tip_and_equals_a_cold_pass(make_repo, tmp_path):
    repo = make_repo("incremental")
    body = [f"l{i}" for i in range(20)]
    repo.commit("init", author=ADA, date=T0, files={"f.py": "\n".join(body) + "\n"})
    for n in range(5):
        body[n * 3] = f"bob {n}"
        repo.commit(f"b{n}", author=BOB, date=T0 + timedelta(days=n + 1), files={"f.py": "\n".join(body) + "\n"})
    cache = tmp_path / "cache"
    first = survival_for_repository("acme/lib", git_dir_of(repo), frame(repo), None, cache)
    for n in range(5):
        body[n * 3 + 1] = f"cy {n}"
        repo.commit(f"c{n}", author=CY, date=T0 + timedelta(days=n + 8), files={"f.py": "\n".join(body) + "\n"})
    warm = survival_for_repository("acme/lib", git_dir_of(repo), frame(repo), None, cache)
    cold = survival_for_repository("acme/lib", git_dir_of(repo), frame(repo), None, None)
    assert warm.sort("sha", "path").equals(cold.sort("sha", "path"))
    assert first.height == 6 and warm.height == 11
    # a damaged cache is detected and rebuilt, with the same result
    for f in cache.glob("*.parquet"):
        f.write_bytes(b"garbage")
    again = survival_for_repository("acme/lib", git_dir_of(repo), frame(repo), None, cache)
    assert again.sort("sha", "path").equals(cold.sort("sha", "path"))
    # same tip again: no git work (a bogus git dir proves it)
    same = survival_for_repository("acme/lib", tmp_path / "nowhere", frame(repo), None, cache)
    assert same.sort("sha", "path").equals(cold.sort("sha", "path"))


def test_a_history_read_by_several_git_processes_gives_the_same_result(make_repo, monkeypatch):
    # git/git-sized histories are read in chunks by parallel git processes while the walk applies
    # them in order; here chunks of 4 commits, against one process.
    from exceeds_pipeline.quality import survival

    rng = random.Random(11)
    repo = make_repo("chunked")
    body = [f"b{i}" for i in range(40)]
    repo.commit("init", author=ADA, date=T0, files={"m.py": "\n".join(body) + "\n"})
    repo.branch("topic", checkout=True)
    repo.commit("topic", author=BOB, date=T0 + timedelta(days=1), files={"t.py": "t1\nt2\n"})
    repo.checkout("main")
    for n in range(25):
        i = rng.randrange(len(body))
        body[i:i + rng.randint(0, 2)] = [f"n{n}-{k}" for k in range(rng.randint(1, 3))]
        repo.commit(f"c{n}", author=rng.choice([ADA, BOB, CY]), date=T0 + timedelta(days=2 + n),
                    files={"m.py": "\n".join(body) + "\n"})
        if n == 10:
            repo.merge("topic")
    one = survival_for_repository("acme/lib", git_dir_of(repo), frame(repo), None, None)
    monkeypatch.setattr(survival, "MIN_SPLIT", 1)
    monkeypatch.setattr(survival, "STREAM_CHUNK", 4)
    chunked = survival_for_repository("acme/lib", git_dir_of(repo), frame(repo), None, None)
    assert one.height >= 25 and one["lines_rewritten"].sum() > 0
    assert chunked.sort("sha", "path").equals(one.sort("sha", "path"))
    assert line_owners_at_tip(git_dir_of(repo), frame(repo))["m.py"] == blame(repo, "m.py")


def test_files_always_excluded_by_a_path_rule_are_not_tracked(make_repo, tmp_path):
    # Documentation lines never count in performance: git is told not to diff them and the walk
    # keeps no lines for them; every other row is what a full pass gives.
    repo = make_repo("untracked")
    code = [f"c{i}" for i in range(20)]
    doc = [f"d{i}" for i in range(20)]
    repo.commit("init", author=ADA, date=T0, files={"m.py": "\n".join(code) + "\n", "guide.md": "\n".join(doc) + "\n"})
    for n in range(6):
        code[n * 2] = f"edit {n}"
        doc[n] = f"doc {n}"
        repo.commit(f"c{n}", author=[BOB, CY][n % 2], date=T0 + timedelta(days=n + 1),
                    files={"m.py": "\n".join(code) + "\n", "guide.md": "\n".join(doc) + "\n"})
    commits = frame(repo)
    files = pl.DataFrame([
        {"repo": "acme/lib", "sha": sha, "path": path, "exclusion_reason": "prose_file" if path.endswith(".md") else None}
        for sha in commits["sha"] for path in ("m.py", "guide.md")
    ])
    full = survival_for_repository("acme/lib", git_dir_of(repo), commits, None, None)
    assert set(full["path"]) == {"m.py", "guide.md"}
    cache = tmp_path / "cache"
    lean = survival_for_repository("acme/lib", git_dir_of(repo), commits, files, cache)
    assert set(lean["path"]) == {"m.py"}
    assert lean.sort("sha").equals(full.filter(pl.col("path") == "m.py").sort("sha"))
    # one .md change that counts (no path rule): the suffix is tracked again, the cache is not reused
    counted_doc = files.with_columns(
        pl.when(pl.col("sha") == commits["sha"][0]).then(None).otherwise(pl.col("exclusion_reason")).alias("exclusion_reason"))
    again = survival_for_repository("acme/lib", git_dir_of(repo), commits, counted_doc, cache)
    assert again.sort("sha", "path").equals(full.sort("sha", "path"))


def test_a_path_that_is_not_utf8_is_tracked_under_the_name_ingest_gives_it(make_repo, tmp_path):
    """sharkdp/bat has `tests/examples/test-invalid-utf8-\\303(.rs`: survival failed writing its
    cache ('surrogates not allowed') and performance stayed null for all 499 people."""
    from exceeds_pipeline.ingest.gitcmd import decode

    repo = make_repo("bytes")
    odd = "tests/bad-\udcc3(.rs"  # the bytes b"\xc3(" on disk, as the filesystem encodes it
    repo.commit("init", author=ADA, date=T0, files={odd: "a\nb\n", "f.py": "x\n"})
    repo.commit("more", author=BOB, date=T0 + timedelta(days=1), files={odd: "a\nb\nc\n"})
    out = survival_for_repository("acme/lib", git_dir_of(repo), frame(repo), None, tmp_path / "cache")
    assert decode(b"tests/bad-\xc3(.rs") in set(out["path"])
    assert out.filter(pl.col("path") == decode(b"tests/bad-\xc3(.rs"))["lines_added"].sum() == 3


def test_commits_git_cannot_read_are_skipped_and_the_rest_is_measured(make_repo):
    # svelte's mirror misses one blob. The commit that added it is not in the table (ingest
    # could not read it); the next commit that needs it renames its file, and git reads blobs
    # for rename detection before it prints the commit's header, so the failure shows while the
    # commit before is the last one begun. That one is readable and measured; only the commit
    # that needs the blob is skipped, and the history after it is still read.
    repo = make_repo("damaged")
    shas = []
    for i in range(10):
        files = {f"f{i}.txt": f"file {i}\n"}
        if i == 4:
            files["a.txt"] = "".join(f"line {k}\n" for k in range(20))
        if i == 5:  # a.txt renamed to b.txt with one line changed
            files = {"a.txt": None, "b.txt": "".join(f"line {k}\n" for k in range(19)) + "changed\n"}
        shas.append(repo.commit(f"Commit {i}", author=ADA, date=T0 + timedelta(days=i), files=files))
    blob = repo.git("rev-parse", f"{shas[4]}:a.txt").strip()
    (git_dir_of(repo) / "objects" / blob[:2] / blob[2:]).unlink()
    commits = frame(repo).filter(pl.col("sha") != shas[4])
    out = survival_for_repository("acme/lib", git_dir_of(repo), commits)
    measured = set(out["sha"].to_list())
    assert measured == set(shas) - {shas[4], shas[5]}
    assert out.filter(pl.col("sha") == shas[3])["lines_added"].to_list() == [1]
