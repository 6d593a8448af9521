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
