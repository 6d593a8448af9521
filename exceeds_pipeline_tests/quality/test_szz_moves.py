"""SZZ ignores commits that only moved or reformatted lines (real repositories built here)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import polars as pl
import pytest

from exceeds_pipeline.quality.szz import blame_deleted_lines
from exceeds_pipeline_tests.gitscript import GitScript

T0 = datetime(2025, 1, 1, 12, tzinfo=timezone.utc)
ADA = ("Ada", "ada@example.com")
BOB = ("Bob", "bob@example.com")
CY = ("Cy", "cy@example.com")

FUNCS = {
    "alpha": ["def alpha(x):", "    y = x + 1", "    return y * 2"],
    "beta": ["def beta(x):", "    z = x - 1", "    return z // 3"],
    "gamma": ["def gamma(x):", "    w = x * 5", "    return w % 7"],
}


def text(order, indent="    ", extra=None):
    lines = []
    for name in order:
        body = [ln.replace("    ", indent) for ln in FUNCS[name]]
        if extra and name in extra:
            body = extra[name]
        lines += body + [""]
    return "\n".join(lines)


def test_fix_after_a_reformat_blames_the_author_not_the_reformatter(make_repo):
    repo = make_repo("reformat")
    ada = repo.commit("Add math", author=ADA, date=T0, files={"m.py": text(["alpha", "beta", "gamma"])})
    # Bob re-indents the whole file (whitespace only) and moves gamma to the top.
    repo.commit("Reformat: 2-space indent, reorder", author=BOB, date=T0 + timedelta(days=1),
                files={"m.py": text(["gamma", "alpha", "beta"], indent="  ")})
    fixed = dict(FUNCS)
    fix = repo.commit("Fix beta rounding", author=CY, date=T0 + timedelta(days=2), files={"m.py": text(
        ["gamma", "alpha", "beta"], indent="  ",
        extra={"beta": ["def beta(x):", "  z = x - 1", "  return round(z / 3)"]})})
    assert fixed  # (unchanged helper data)
    assert blame_deleted_lines(repo.path, fix) == [ada]


def test_a_reformat_only_fix_traces_nothing_and_a_moved_block_is_not_a_deletion(make_repo):
    repo = make_repo("moves")
    repo.commit("Add math", author=ADA, date=T0, files={"m.py": text(["alpha", "beta", "gamma"])})
    # a "fix" that only changes whitespace deletes nothing
    ws = repo.commit("Fix indentation", author=CY, date=T0 + timedelta(days=1),
                     files={"m.py": text(["alpha", "beta", "gamma"], indent="\t")})
    assert blame_deleted_lines(repo.path, ws) == []
    # a "fix" that only moves a function deletes nothing either
    mv = repo.commit("Fix ordering of helpers", author=CY, date=T0 + timedelta(days=2),
                     files={"m.py": text(["gamma", "alpha", "beta"], indent="\t")})
    assert blame_deleted_lines(repo.path, mv) == []


def test_horizon_blames_recent_lines_only_and_keeps_a_root_commit_inside_it(make_repo, tmp_path):
    from exceeds_pipeline.quality.szz import compute_szz

    repo = make_repo("horizon")
    old = repo.commit("Add math", author=ADA, date=T0, files={"m.py": text(["alpha", "beta", "gamma"])})
    two_years = T0 + timedelta(days=730)
    recent = repo.commit("Tune gamma", author=BOB, date=two_years, files={"m.py": text(
        ["alpha", "beta", "gamma"], extra={"gamma": ["def gamma(x):", "    w = x * 6", "    return w % 7"]})})
    fix_at = two_years + timedelta(days=30)
    # The fix rewrites one line of Ada's (two years old) and one of Bob's (a month old).
    fix = repo.commit("Fix beta and gamma", author=CY, date=fix_at, files={"m.py": text(
        ["alpha", "beta", "gamma"], extra={
            "beta": ["def beta(x):", "    z = x - 2", "    return z // 3"],
            "gamma": ["def gamma(x):", "    w = x * 7", "    return w % 7"]})})
    assert blame_deleted_lines(repo.path, fix) == sorted([old, recent])
    since = int(fix_at.timestamp()) - 365 * 86400
    assert blame_deleted_lines(repo.path, fix, since=since) == [recent]
    # Through the cache, by committer time; entries traced without the horizon are retraced.
    cache = tmp_path / "szz.parquet"
    times = {fix: int(fix_at.timestamp())}
    assert compute_szz(repo.path, [fix], cache)["blamed_sha"].sort().to_list() == sorted([old, recent])
    assert compute_szz(repo.path, [fix], cache, fix_times=times, horizon_days=365)["blamed_sha"].to_list() == [recent]
    # A young repository: its root commit is inside the horizon and is blamed.
    young = make_repo("young")
    root = young.commit("Add math", author=ADA, date=T0, files={"m.py": text(["alpha", "beta", "gamma"])})
    f2 = young.commit("Fix beta", author=CY, date=T0 + timedelta(days=10), files={"m.py": text(
        ["alpha", "beta", "gamma"], extra={"beta": ["def beta(x):", "    z = x - 2", "    return z // 3"]})})
    assert blame_deleted_lines(young.path, f2, since=int(T0.timestamp()) + 10 * 86400 - 365 * 86400) == [root]


def test_szz_traces_only_bug_commits_that_state_a_repair(tmp_path):
    """The classifier's `bug` on a terse or feature-like subject is not a repair: its deletions
    are rewrites, and SZZ would name the commits that wrote those lines as broken."""
    from exceeds_pipeline.quality import quality_metrics, szz_candidates
    from exceeds_pipeline.quality.szz import szz_for_repository
    from exceeds_pipeline_tests.quality.gitframes import read_repo
    from exceeds_pipeline_tests.rollups.frames import items_frame, wi

    ada, bob = ("Ada", "ada@example.com"), ("Bob", "bob@example.org")
    repo = GitScript.init(tmp_path / "r")
    s = {}
    s["parse"] = repo.commit("Add parser", author=bob, date="2025-01-01T10:00:00+0000",
                             files={"src/parse.py": "def parse(t):\n    return t.split(',')\n"})
    s["color"] = repo.commit("Add colors", author=bob, date="2025-01-02T10:00:00+0000",
                             files={"src/color.py": "def color(c):\n    return c.upper()\n"})
    s["fix"] = repo.commit("Fix parse of an empty string", author=ada, date="2025-01-05T10:00:00+0000",
                           files={"src/parse.py": "def parse(t):\n    return t.split(',') if t else []\n"})
    s["terse"] = repo.commit("colors!", author=ada, date="2025-01-06T10:00:00+0000",
                             files={"src/color.py": "def color(c):\n    return c.lower()\n"})
    cats = {s["parse"]: "feature", s["color"]: "feature", s["fix"]: "bug", s["terse"]: "bug"}
    items = {sha: f"item-{name}" for name, sha in s.items()}
    commits, files = read_repo(repo, "acme/x", {ada[1]: "ada", bob[1]: "bob"}, cats, items)

    assert szz_candidates(commits)["sha"].to_list() == [s["fix"]]
    szz = szz_for_repository("acme/x", repo.path, commits, files, tmp_path / "cache")
    assert szz.select("fix_sha", "blamed_sha").rows() == [(s["fix"], s["parse"])]

    work_items = items_frame([wi(r["work_item_id"], r["person_id"], r["category"], r["subject"], repo="acme/x")
                              for r in commits.iter_rows(named=True)])
    q = quality_metrics(commits, work_items, None, files, szz=szz.drop("repo"))
    bob_c = q.filter((pl.col("person_id") == "bob") & (pl.col("metric") == "correctness")).row(0, named=True)
    # one of bob's two items is broken (the parser), not two; shrunk toward the base rate 3/4
    assert bob_c["evidence_count"] == 2
    assert bob_c["value"] == pytest.approx((1 + 5 * 0.75) / (2 + 5))
    assert bob_c["evidence_shas"][0] == s["parse"]


def test_szz_reads_the_body_prose_not_a_squash_merges_bullets_and_skips_vendored_code(tmp_path):
    """`Fixes #1859` in a body states a repair; a squash merge's `* Fix tests` bullet describes the
    pull request's own iterations. A fix to vendored code blames nobody's work."""
    from exceeds_pipeline.quality import quality_metrics, szz_candidates
    from exceeds_pipeline.quality.szz import szz_for_repository
    from exceeds_pipeline_tests.quality.gitframes import read_repo
    from exceeds_pipeline_tests.rollups.frames import items_frame, wi

    ada, bob = ("Ada", "ada@example.com"), ("Bob", "bob@example.org")
    repo = GitScript.init(tmp_path / "r")
    s = {}
    s["cookie"] = repo.commit("Add cookie expiry", author=bob, date="2025-01-01T10:00:00+0000",
                              files={"src/cookie.py": "def expiry(t):\n    return t.timestamp()\n",
                                     "src/names.py": "def name(m):\n    return m.lower()\n"})
    s["vendor"] = repo.commit("Add the vendored parser", author=bob, date="2025-01-02T10:00:00+0000",
                              files={"lib/vendor/parse.py": "def parse(t):\n    return t.split()\n"})
    s["prose"] = repo.commit("Use calendar.timegm for cookie expiry\n\nFixes #1859", author=ada,
                             date="2025-01-05T10:00:00+0000",
                             files={"src/cookie.py": "def expiry(t):\n    return calendar.timegm(t)\n"})
    s["squash"] = repo.commit("Switch to private names (#785)\n\n* Switch names\n\n* Fix tests\n\n* Fix lint",
                              author=ada, date="2025-01-06T10:00:00+0000",
                              files={"src/names.py": "def name(m):\n    return m.casefold()\n"})
    s["vfix"] = repo.commit("Fix the vendored parser on tabs", author=ada, date="2025-01-07T10:00:00+0000",
                            files={"lib/vendor/parse.py": "def parse(t):\n    return t.split(None)\n"})
    cats = {s["cookie"]: "feature", s["vendor"]: "feature", s["prose"]: "bug", s["squash"]: "bug", s["vfix"]: "bug"}
    items = {sha: f"item-{name}" for name, sha in s.items()}
    commits, files = read_repo(repo, "acme/x", {ada[1]: "ada", bob[1]: "bob"}, cats, items)
    files = files.with_columns(pl.col("path").str.starts_with("lib/vendor/").alias("excluded"))

    assert sorted(szz_candidates(commits)["sha"]) == sorted([s["prose"], s["vfix"]])
    szz = szz_for_repository("acme/x", repo.path, commits, files, tmp_path / "cache")
    # the vendored file's deleted lines are not blamed at all (only the cookie fix traces back)
    assert szz.select("fix_sha", "blamed_sha").rows() == [(s["prose"], s["cookie"])]
    unexcluded = szz_for_repository("acme/x", repo.path, commits, files.with_columns(excluded=False), tmp_path / "cache")
    assert sorted(unexcluded.select("fix_sha", "blamed_sha").rows()) == sorted([(s["prose"], s["cookie"]),
                                                                              (s["vfix"], s["vendor"])])
    # the cache keeps what each trace left out: the same cache, with exclusions again, gives the first answer
    again = szz_for_repository("acme/x", repo.path, commits, files, tmp_path / "cache")
    assert again.select("fix_sha", "blamed_sha").rows() == [(s["prose"], s["cookie"])]
    work_items = items_frame([wi(r["work_item_id"], r["person_id"], r["category"], r["subject"], repo="acme/x")
                              for r in commits.iter_rows(named=True)])
    q = quality_metrics(commits, work_items, None, files, szz=szz.drop("repo"))
    bob_c = q.filter((pl.col("person_id") == "bob") & (pl.col("metric") == "correctness")).row(0, named=True)
    # the cookie item is broken; the vendored parser's lines are nobody's work: 1 of 5 items broken
    assert bob_c["value"] == pytest.approx((1 + 5 * 0.8) / (2 + 5))
    assert bob_c["evidence_shas"][0] == s["cookie"]


def test_a_fix_that_traces_to_a_sweep_does_not_charge_the_sweep(tmp_path):
    """A project-wide rename (101 files, a few lines each, as many added as deleted) is where
    the lines were last touched, not where the defect was written; a wide rewrite of real
    logic stays chargeable."""
    from exceeds_pipeline.quality.szz import MAX_SZZ_FILES, sweep_commits, szz_for_repository
    from exceeds_pipeline_tests.quality.gitframes import read_repo

    ada, bob, cy = ("Ada", "ada@example.com"), ("Bob", "bob@example.org"), ("Cy", "cy@example.com")
    repo = GitScript.init(tmp_path / "r")
    n = MAX_SZZ_FILES + 1
    s = {}
    s["write"] = repo.commit("Add the modules", author=ada, date="2025-01-01T10:00:00+0000",
                             files={f"src/m{i}.py": f"import starlite\nLIMIT_{i} = starlite.limit({i})\n" for i in range(n)})
    s["rename"] = repo.commit("Rename Starlite (#1453)", author=bob, date="2025-01-02T10:00:00+0000",
                              files={f"src/m{i}.py": f"import litestar\nLIMIT_{i} = litestar.limit({i})\n" for i in range(n)})
    s["fix"] = repo.commit("Fix the limit of module 7", author=cy, date="2025-01-03T10:00:00+0000",
                           files={"src/m7.py": "import litestar\nLIMIT_7 = litestar.limit(8)\n"})
    s["rewrite"] = repo.commit("Rewrite the limits", author=bob, date="2025-01-04T10:00:00+0000",
                               files={f"src/m{i}.py": "import litestar\n" + "".join(
                                   f"LIMIT_{i}_{k} = litestar.limit({i} * {k})\n" for k in range(25)) for i in range(n)})
    s["fix2"] = repo.commit("Fix the limit of module 9", author=cy, date="2025-01-05T10:00:00+0000",
                            files={"src/m9.py": "import litestar\n" + "".join(
                                f"LIMIT_9_{k} = litestar.limit(9 * {k} + 1)\n" for k in range(25))})
    cats = {s["write"]: "feature", s["rename"]: "refactor", s["fix"]: "bug", s["rewrite"]: "refactor", s["fix2"]: "bug"}
    commits, files = read_repo(repo, "acme/x", {ada[1]: "ada", bob[1]: "bob", cy[1]: "cy"}, cats)

    assert sweep_commits(commits).to_list() == [s["rename"]]
    szz = szz_for_repository("acme/x", repo.path, commits, files, tmp_path / "cache")
    # the first fix's line was last touched by the rename: nobody is charged
    assert szz.filter(pl.col("fix_sha") == s["fix"]).height == 0
    # the rewrite of real logic is charged
    assert szz.filter(pl.col("fix_sha") == s["fix2"])["blamed_sha"].to_list() == [s["rewrite"]]


def test_szz_does_not_blame_the_tests_and_version_a_fix_updates(tmp_path):
    """sinatra: a fix that also set lib/sinatra/version.rb's version string charged the version
    bumps before it; a fix that updates a test's expectation charged the test's author. Only the
    code a fix repairs is traced."""
    from exceeds_pipeline.quality.szz import szz_for_repository
    from exceeds_pipeline_tests.quality.gitframes import read_repo

    ada, bob, cy = ("Ada", "ada@example.com"), ("Bob", "bob@example.org"), ("Cy", "cy@example.net")
    repo = GitScript.init(tmp_path / "r")
    s = {}
    s["code"] = repo.commit("Add the router", author=bob, date="2025-01-01T10:00:00+0000",
                            files={"lib/app/router.rb": "def route(p)\n  p.downcase\nend\n"})
    s["test"] = repo.commit("Test the router", author=cy, date="2025-01-02T10:00:00+0000",
                            files={"test/router_test.rb": "assert_equal 'a', route('A')\n"})
    s["bump"] = repo.commit("Bump version", author=cy, date="2025-01-03T10:00:00+0000",
                            files={"lib/app/version.rb": "VERSION = '1.0.1'\n", "CHANGES": "= 1.0.1\n"})
    s["fix"] = repo.commit("Fix routing of mixed-case paths", author=ada, date="2025-01-05T10:00:00+0000",
                           files={"lib/app/router.rb": "def route(p)\n  p\nend\n",
                                  "test/router_test.rb": "assert_equal 'A', route('A')\n",
                                  "lib/app/version.rb": "VERSION = '1.0.2'\n", "CHANGES": "= 1.0.2\n* routing fix\n"})
    cats = {s["code"]: "feature", s["test"]: "test", s["bump"]: "build", s["fix"]: "bug"}
    commits, files = read_repo(repo, "acme/x", {ada[1]: "ada", bob[1]: "bob", cy[1]: "cy"}, cats,
                               {sha: f"item-{name}" for name, sha in s.items()})
    files = files.with_columns(pl.lit(False).alias("excluded"))
    szz = szz_for_repository("acme/x", repo.path, commits, files, tmp_path / "cache")
    assert szz.select("fix_sha", "blamed_sha").rows() == [(s["fix"], s["code"])]


def test_szz_does_not_blame_a_version_string_set_in_code(tmp_path):
    """guzzle: `[ClientInterface] Fix VERSION for 6.3.0 release` moved `const VERSION = '6.2.1';`
    in src/ClientInterface.php on, and charged the 6.2.1 release as broken; a fix of real code in
    the same file still charges who wrote that code."""
    from exceeds_pipeline.quality.szz import szz_for_repository
    from exceeds_pipeline_tests.quality.gitframes import read_repo

    ada, bob = ("Ada", "ada@example.com"), ("Bob", "bob@example.org")
    repo = GitScript.init(tmp_path / "r")

    def client(version: str, timeout: int) -> dict[str, str]:
        return {"src/ClientInterface.php": f"<?php\ninterface ClientInterface\n{{\n    const VERSION = '{version}';\n"
                                           f"    const TIMEOUT = {timeout};\n}}\n"}

    s = {}
    s["code"] = repo.commit("Add the client", author=bob, date="2025-01-01T10:00:00+0000", files=client("6.2.0", 0))
    s["release"] = repo.commit("6.2.1 release", author=bob, date="2025-01-03T10:00:00+0000", files=client("6.2.1", 0))
    s["fix"] = repo.commit("Fix VERSION for 6.3.0 release", author=ada, date="2025-01-05T10:00:00+0000",
                           files=client("6.3.0", 0))
    s["fix2"] = repo.commit("Fix the default timeout", author=ada, date="2025-01-06T10:00:00+0000",
                            files=client("6.3.0", 30))
    cats = {s["code"]: "feature", s["release"]: "chore", s["fix"]: "bug", s["fix2"]: "bug"}
    commits, files = read_repo(repo, "acme/x", {ada[1]: "ada", bob[1]: "bob"}, cats,
                               {sha: f"item-{name}" for name, sha in s.items()})
    files = files.with_columns(pl.lit(False).alias("excluded"))
    szz = szz_for_repository("acme/x", repo.path, commits, files, tmp_path / "cache")
    assert szz.select("fix_sha", "blamed_sha").rows() == [(s["fix2"], s["code"])]


def test_fix_diffs_read_in_one_git_process_equal_git_diff_of_each_fix(make_repo):
    """SZZ reads its fixes' diffs in one `git log --no-walk` per batch: byte for byte what
    `git diff <fix>^ <fix>` gives, a rename, a whitespace-only fix (an empty diff) and a quoted
    path included; a sha git cannot read makes the batch fall back to one diff per fix."""
    from exceeds_pipeline.ingest.gitcmd import resolve_git_dir
    from exceeds_pipeline.quality.szz import _DIFF_ARGS, _git, fix_diffs

    repo = make_repo("batched-diffs")
    repo.commit("Add math", author=ADA, date=T0, files={"m.py": text(["alpha", "beta", "gamma"]),
                                                          "caf\u00e9 file.py": "x = 1\ny = 2\n"})
    fixes = [
        repo.commit("Fix beta", author=BOB, date=T0 + timedelta(days=1), files={"m.py": text(
            ["alpha", "beta", "gamma"], extra={"beta": ["def beta(x):", "    return x"]})}),
        repo.commit("Fix indentation", author=CY, date=T0 + timedelta(days=2),
                    files={"m.py": text(["alpha", "beta", "gamma"], indent="\t",
                                        extra={"beta": ["def beta(x):", "\treturn x"]})}),
        repo.commit("Fix y", author=CY, date=T0 + timedelta(days=3), files={"caf\u00e9 file.py": "x = 1\ny = 3\n"}),
    ]
    repo.git("mv", "m.py", "maths.py")
    fixes.append(repo.commit("Fix alpha while renaming", author=ADA, date=T0 + timedelta(days=4), files={
        "maths.py": text(["alpha", "beta", "gamma"], indent="\t",
                         extra={"alpha": ["def alpha(x):", "\treturn x"], "beta": ["def beta(x):", "\treturn x"]})}))
    git_dir = resolve_git_dir(repo.path)
    diffs = fix_diffs(git_dir, fixes)
    expected = {sha: _git(git_dir, ["diff", *_DIFF_ARGS, f"{sha}^", sha]).stdout for sha in fixes}
    assert diffs == expected
    assert diffs[fixes[1]] == b"" and b"rename from m.py" in diffs[fixes[3]]
    assert b"-y = 2" in diffs[fixes[2]]
    assert fix_diffs(git_dir, [fixes[0], "f" * 40]) is None
    # and the blame reads the same either way
    for sha in fixes:
        assert blame_deleted_lines(repo.path, sha, diff=diffs[sha]) == blame_deleted_lines(repo.path, sha)


def test_szz_does_not_blame_the_lines_of_a_test_module_kept_inside_the_source(tmp_path):
    """axum: `Use IntoFuture for test RequestBuilder` (only `mod tests` of src/*.rs) was charged as
    broken when a later fix updated an assertion there. A Rust file's `#[cfg(test)] mod tests` is
    tests like a file under tests/; the code above it still charges who wrote it, and so does
    code below the module (whose hunk header names the module)."""
    ada, bob, cy = ("Ada", "ada@example.com"), ("Bob", "bob@example.org"), ("Cy", "cy@example.net")
    repo = GitScript.init(tmp_path / "r")

    def lib(value: int, expected: int, limit: int) -> dict[str, str]:
        return {"src/lib.rs": f"pub fn route() -> u8 {{\n    {value}\n}}\n\n#[cfg(test)]\nmod tests {{\n"
                              f"    #[test]\n    fn routes() {{\n        assert_eq!(super::route(), {expected});\n    }}\n}}\n\n"
                              f"pub const LIMIT: u8 = {limit};\n"}

    code = repo.commit("Add the router", author=bob, date="2025-01-01T10:00:00+0000", files=lib(1, 0, 8))
    test = repo.commit("Test the router", author=cy, date="2025-01-02T10:00:00+0000", files=lib(1, 1, 8))
    fix = repo.commit("Fix the route", author=ada, date="2025-01-05T10:00:00+0000", files=lib(2, 2, 8))
    fix_below = repo.commit("Fix the limit", author=ada, date="2025-01-06T10:00:00+0000", files=lib(2, 2, 9))
    assert blame_deleted_lines(repo.path, fix) == [code]
    assert blame_deleted_lines(repo.path, fix_below) == [code]
    assert test not in blame_deleted_lines(repo.path, fix)
