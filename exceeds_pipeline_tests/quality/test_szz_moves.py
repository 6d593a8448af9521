"""SZZ ignores commits that only moved or reformatted lines (real repositories built here)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from exceeds_pipeline.quality.szz import blame_deleted_lines

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
