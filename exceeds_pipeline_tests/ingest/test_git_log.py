"""The streaming `git log` reader gives exactly git's numbers, on real repositories."""

from __future__ import annotations

import os
from datetime import date, datetime, timezone
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.ingest import git_log
from exceeds_pipeline.ingest.git_log import log_commits, log_commits_parallel
from exceeds_pipeline.ingest.gitcmd import GitError
from exceeds_pipeline.schemas import RAW_COMMITS_SCHEMA, RAW_FILE_CHANGES_SCHEMA
from exceeds_pipeline_tests.conftest import git_numstat, git_out, rev_count

ADA = ("Ada Lovelace", "ada@example.com")
BOB = ("Bob Builder", "bob@example.org")
BODY = "".join(f"line {i}\n" for i in range(40))
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
# Two versions of a file whose line counts differ between git's default (myers) diff and the
# histogram algorithm: 6/2 with myers, 10/6 with histogram.
MYERS_A = "e\nd\na\nc\ne\n}\nd\nc\na\nb\nb\n}\nc\n}\ne\n}\nb\nc\nd\nb\nc\n{\na\n}\nd\ne\nc\n}\n{\ne\n"
MYERS_B = (
    "e\nd\na\na\nc\ne\nd\nc\na\ne\nb\nb\n}\nc\n}\n}\nb\nb\nc\ne\na\nd\nb\nc\n{\na\n}\nd\ne\nc\nb\n}\n{\ne\n"
)
HUGE = 3000


class History:
    """A repository with every awkward case, and the shas of the interesting commits."""

    def __init__(self, root: Path):
        sub = GitScript.init(root / "sub")
        sub.commit("sub 1", files={"x": "1\n"}, date="2025-01-01T09:00:00+0000")
        r = self.repo = GitScript.init(root / "repo")
        d = "2025-01-0{}T10:00:00+0100"
        self.root = r.commit(
            "Initial import\n\nWith a body.\n", author=ADA, date=d.format(1),
            files={
                "src/old.py": BODY, "docs/guide.md": BODY, "logo.png": PNG, "gone.txt": "bye\n",
                "algo.txt": MYERS_A, "orig.py": BODY, "mode.sh": "echo hi\n", "link_me": "a\nb\n",
            },
        )
        self.rename_edit = r.commit(
            "Move parser", author=ADA, date=d.format(2),
            renames={"src/old.py": "src/pkg/new.py"},
            files={"src/pkg/new.py": BODY.replace("line 3\n", "LINE three\n") + "extra\n"},
        )
        self.rename_space = r.commit(
            "Rename guide", author=BOB, date=d.format(3),
            renames={"docs/guide.md": "docs/user guide/the guide.md"},
            files={"docs/user guide/the guide.md": BODY + "one more\n"},
        )
        self.binary = r.commit(
            "New logo", author=BOB, date=d.format(4),
            files={"logo.png": PNG[::-1], "assets/icon.bin": b"\x00\x01\x02\xff" * 50,
                   "gone.txt": None, "algo.txt": MYERS_B},
        )
        r.branch("feature", checkout=True)
        self.feature = r.commit("Feature work", author=BOB, date=d.format(5),
                                files={"feature.py": "x = 1\ny = 2\n"})
        r.checkout("main")
        self.main_side = r.commit("Main side", author=ADA, date=d.format(6), files={"main.txt": "m\n"})
        self.merge = r.merge("feature", "Merge branch 'feature'", author=ADA, date=d.format(7))
        self.empty = r.commit("Nothing changed", author=ADA, date=d.format(8), allow_empty=True)
        # Latin-1 bytes stored raw: no encoding header, git assumes UTF-8 and passes them through.
        self.latin1_raw = r.commit(
            "Caf\xe9 cr\xe8me\n\nD\xe9tails.".encode("latin-1"),
            author=("Jos\udce9 Mart\udced", "jose@example.com"), date=d.format(9),
            files={"caf\udce9.txt": "bonjour\n"},
        )
        # Latin-1 with the encoding declared (i18n.commitEncoding=latin-1): git re-encodes.
        self.latin1_declared = r.commit(
            "Na\xefve r\xe9sum\xe9".encode("latin-1"), encoding="latin-1",
            author=("Fran\udce7ois", "francois@example.com"), date="2025-01-10T10:00:00+0100",
            files={"caf\udce9.txt": "bonjour\nsalut\n"},
        )
        # 23:30 at UTC-5 on March 9th is already March 10th in UTC.
        self.late = r.commit("Late night fix", author=ADA, date="2025-03-09T23:30:00-0500",
                             committer=BOB, committer_date="2025-03-11T08:00:00+0000",
                             files={"main.txt": "m\nlate\n"})
        self.early = r.commit("Early in Kolkata", author=BOB, date="2025-03-10T00:15:00+0530",
                              files={"main.txt": "m\nlate\nearly\n"})
        os.chmod(r.path / "mode.sh", 0o755)
        self.chmod = r.commit("Make executable", author=ADA, date="2025-03-11T10:00:00+0000")
        (r.path / "link_me").unlink()
        os.symlink("main.txt", r.path / "link_me")
        self.typechange = r.commit("File to symlink", author=ADA, date="2025-03-12T10:00:00+0000")
        r.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub.path), "vendor/sub")
        self.submodule = r.commit("Add submodule", author=ADA, date="2025-03-13T10:00:00+0000")
        self.huge = r.commit(
            "Generate fixtures", author=BOB, date="2025-03-14T10:00:00+0000",
            files={f"fixtures/f{i:04d}.txt": f"row {i}\n" * (1 + i % 3) for i in range(HUGE)},
        )
        self.huge_edit = r.commit(
            "Regenerate fixtures", author=BOB, date="2025-03-15T10:00:00+0000",
            files={f"fixtures/f{i:04d}.txt": f"row {i}\nnew\n" for i in range(0, HUGE, 2)},
        )
        self.tip = r.head()
        self.git_dir = r.path / ".git"
        self.shas = git_out(r.path, "rev-list", "HEAD").split()


@pytest.fixture(scope="module")
def hist(tmp_path_factory) -> History:
    return History(tmp_path_factory.mktemp("git_log"))


@pytest.fixture(scope="module")
def frames(hist):
    return log_commits(hist.git_dir, "acme/repo", hist.shas)


def _by_sha(commits: pl.DataFrame) -> dict[str, dict]:
    return {row["sha"]: row for row in commits.iter_rows(named=True)}


def test_every_commit_matches_git_numstat(hist, frames):
    commits, _ = frames
    expected = git_numstat(hist.repo.path)
    got = {
        sha: (a, d, f)
        for sha, a, d, f in commits.select("sha", "lines_added", "lines_deleted", "files_changed").iter_rows()
    }
    assert got == expected
    assert commits.height == rev_count(hist.repo.path) == len(hist.shas)
    assert commits["sha"].n_unique() == commits.height
    assert commits.schema == pl.Schema(RAW_COMMITS_SCHEMA)


def test_file_rows_add_up_to_commit_totals(frames):
    commits, files = frames
    assert files.schema == pl.Schema(RAW_FILE_CHANGES_SCHEMA)
    sums = files.group_by("sha").agg(
        pl.col("lines_added").sum(), pl.col("lines_deleted").sum(), pl.len().alias("files_changed")
    )
    joined = commits.join(sums, on="sha", how="left", suffix="_f").fill_null(0)
    for col in ("lines_added", "lines_deleted", "files_changed"):
        assert (joined[col] == joined[f"{col}_f"]).all(), col


def test_renames_with_edits_including_spaces(hist, frames):
    _, files = frames
    rows = files.filter(pl.col("sha") == hist.rename_edit).drop("repo", "sha").rows(named=True)
    assert rows == [
        {"path": "src/pkg/new.py", "old_path": "src/old.py", "status": "R", "lines_added": 2,
         "lines_deleted": 1, "is_binary": False, "is_submodule": False},
    ]
    rows = files.filter(pl.col("sha") == hist.rename_space).select("path", "old_path", "status", "lines_added",
                                                                    "lines_deleted").rows()
    assert rows == [("docs/user guide/the guide.md", "docs/guide.md", "R", 1, 0)]
    # what git prints for the same commit, in its own words
    assert git_out(hist.repo.path, "show", "--numstat", "--format=", hist.rename_space).strip() == (
        "1\t0\tdocs/{guide.md => user guide/the guide.md}"
    )


def test_binary_files_count_as_files_with_no_lines(hist, frames):
    commits, files = frames
    rows = {r["path"]: r for r in files.filter(pl.col("sha") == hist.binary).iter_rows(named=True)}
    assert set(rows) == {"logo.png", "assets/icon.bin", "gone.txt", "algo.txt"}
    for path in ("logo.png", "assets/icon.bin"):
        assert rows[path]["is_binary"] is True
        assert (rows[path]["lines_added"], rows[path]["lines_deleted"]) == (0, 0)
    assert rows["logo.png"]["status"] == "M" and rows["assets/icon.bin"]["status"] == "A"
    assert (rows["gone.txt"]["status"], rows["gone.txt"]["lines_deleted"]) == ("D", 1)
    assert rows["algo.txt"]["is_binary"] is False
    c = _by_sha(commits)[hist.binary]
    assert (c["lines_added"], c["lines_deleted"], c["files_changed"]) == (6, 3, 4)


def test_merge_commits_carry_no_diff(hist, frames):
    commits, files = frames
    c = _by_sha(commits)[hist.merge]
    assert c["is_merge"] is True
    assert c["parents"] == [hist.main_side, hist.feature]
    assert (c["lines_added"], c["lines_deleted"], c["files_changed"]) == (0, 0, 0)
    assert files.filter(pl.col("sha") == hist.merge).height == 0
    assert commits.filter(pl.col("is_merge")).height == 1
    assert _by_sha(commits)[hist.root]["parents"] == []


def test_empty_commit(hist, frames):
    commits, files = frames
    c = _by_sha(commits)[hist.empty]
    assert (c["is_merge"], c["lines_added"], c["lines_deleted"], c["files_changed"]) == (False, 0, 0, 0)
    assert c["subject"] == "Nothing changed"
    assert files.filter(pl.col("sha") == hist.empty).height == 0


def test_latin1_message_and_author_stored_raw(hist, frames):
    commits, _ = frames
    raw = git_out(hist.repo.path, "cat-file", "commit", hist.latin1_raw)
    assert "encoding" not in raw  # really stored without an encoding header
    c = _by_sha(commits)[hist.latin1_raw]
    assert c["subject"] == "Café crème"
    assert c["message"] == "Café crème\n\nDétails."
    assert c["author_name"] == c["mailmap_name"] == "José Martí"
    assert c["author_email"] == "jose@example.com"


def test_latin1_message_with_declared_encoding(hist, frames):
    commits, _ = frames
    assert git_out(hist.repo.path, "log", "-1", "--format=%e", hist.latin1_declared).strip() == "latin-1"
    c = _by_sha(commits)[hist.latin1_declared]
    assert c["subject"] == c["message"] == "Naïve résumé"
    assert c["author_name"] == c["committer_name"] == "François"


def test_non_utf8_path(hist, frames):
    _, files = frames
    paths = files.filter(pl.col("sha") == hist.latin1_raw)["path"].to_list()
    assert paths == ["café.txt"]
    rows = files.filter(pl.col("sha") == hist.latin1_declared).select("path", "status", "lines_added").rows()
    assert rows == [("café.txt", "M", 1)]


def test_huge_commit(hist, frames):
    commits, files = frames
    c = _by_sha(commits)[hist.huge]
    assert c["files_changed"] == HUGE
    assert c["lines_added"] == sum(1 + i % 3 for i in range(HUGE))
    assert files.filter(pl.col("sha") == hist.huge).height == HUGE
    assert files.filter(pl.col("sha") == hist.huge)["path"].n_unique() == HUGE
    e = _by_sha(commits)[hist.huge_edit]
    assert e["files_changed"] == HUGE // 2


def test_mode_change_typechange_and_submodule(hist, frames):
    _, files = frames
    by = lambda sha: files.filter(pl.col("sha") == sha).select(  # noqa: E731
        "path", "status", "lines_added", "lines_deleted", "is_submodule").rows()
    assert by(hist.chmod) == [("mode.sh", "M", 0, 0, False)]
    assert by(hist.typechange) == [("link_me", "T", 1, 2, False)]
    assert sorted(by(hist.submodule)) == [(".gitmodules", "A", 3, 0, False), ("vendor/sub", "A", 1, 0, True)]


def test_author_local_date_and_offset(hist, frames):
    commits, _ = frames
    late = _by_sha(commits)[hist.late]
    assert late["author_date"] == date(2025, 3, 9)  # the author's own calendar day
    assert late["authored_at"] == datetime(2025, 3, 10, 4, 30, tzinfo=timezone.utc)
    assert late["author_utc_offset_minutes"] == -300
    assert late["committed_at"] == datetime(2025, 3, 11, 8, 0, tzinfo=timezone.utc)
    assert late["committer_name"] == "Bob Builder" and late["author_name"] == "Ada Lovelace"
    early = _by_sha(commits)[hist.early]
    assert early["author_date"] == date(2025, 3, 10)
    assert early["authored_at"] == datetime(2025, 3, 9, 18, 45, tzinfo=timezone.utc)
    assert early["author_utc_offset_minutes"] == 330
    # agrees with what git prints for every commit
    out = git_out(hist.repo.path, "log", "--format=%H %ad", "--date=short").split("\n")
    git_dates = dict(line.split(" ") for line in out if line)
    assert {s: d.isoformat() for s, d in commits.select("sha", "author_date").iter_rows()} == git_dates


def test_subject_and_message(hist, frames):
    commits, _ = frames
    root = _by_sha(commits)[hist.root]
    assert root["subject"] == "Initial import"
    assert root["message"] == "Initial import\n\nWith a body."


def _sorted(frames_):
    commits, files = frames_
    return commits.sort("sha"), files.sort("sha", "path")


def test_parallel_split_gives_identical_frames(hist, frames, monkeypatch):
    calls = []
    real = git_log.log_commits

    def spy(git_dir, repo, shas, mailmap_rev=None):
        calls.append(len(shas))
        return real(git_dir, repo, shas, mailmap_rev)

    monkeypatch.setattr(git_log, "log_commits", spy)
    single = _sorted(frames)
    raw_two = log_commits_parallel(hist.git_dir, "acme/repo", hist.shas, workers=2)
    assert raw_two[0]["sha"].to_list() == list(hist.shas)  # contiguous chunks: the order asked for
    two = _sorted(raw_two)
    assert len(calls) == 2 and sum(calls) == len(hist.shas)
    assert_frame_equal(two[0], single[0])
    assert_frame_equal(two[1], single[1])
    # automatic split: small MIN_CHUNK, one process per core
    calls.clear()
    monkeypatch.setattr(git_log, "MIN_CHUNK", 2)
    monkeypatch.setattr(git_log.os, "cpu_count", lambda: 3)
    auto = _sorted(log_commits_parallel(hist.git_dir, "acme/repo", hist.shas))
    assert len(calls) == 3 and sum(calls) == len(hist.shas)
    assert_frame_equal(auto[0], single[0])
    assert_frame_equal(auto[1], single[1])
    # more workers than commits: empty chunks are fine
    few = hist.shas[:2]
    many = _sorted(log_commits_parallel(hist.git_dir, "acme/repo", few, workers=5))
    assert_frame_equal(many[0], single[0].filter(pl.col("sha").is_in(few)))


def test_tiny_read_blocks_split_records_anywhere(hist, frames, monkeypatch):
    monkeypatch.setattr(git_log, "READ_BLOCK", 7)  # record marks split across reads
    shas = [s for s in hist.shas if s not in (hist.huge, hist.huge_edit)]
    small = _sorted(log_commits(hist.git_dir, "acme/repo", shas))
    single = _sorted(frames)
    assert_frame_equal(small[0], single[0].filter(pl.col("sha").is_in(shas)))
    assert_frame_equal(small[1], single[1].filter(pl.col("sha").is_in(shas)))


def test_any_order_and_empty_input(hist):
    picked = [hist.late, hist.root, hist.merge]
    commits, _ = log_commits(hist.git_dir, "r", picked)
    assert sorted(commits["sha"].to_list()) == sorted(picked)
    commits, files = log_commits(hist.git_dir, "r", [])
    assert commits.height == files.height == 0
    assert commits.schema == pl.Schema(RAW_COMMITS_SCHEMA)


def test_unknown_commit_is_a_git_error_naming_the_repo(hist):
    with pytest.raises(GitError) as err:
        log_commits(hist.git_dir, "acme/repo", [hist.root, "0" * 40])
    assert str(err.value).startswith("[acme/repo]")


HOSTILE_GITCONFIG = """\
[diff]
\talgorithm = histogram
\trenames = copies
\tnoprefix = true
\texternal = false
[log]
\tshowRoot = false
\tshowSignature = true
\tdecorate = full
[core]
\tquotePath = true
[i18n]
\tlogOutputEncoding = latin-1
[format]
\tpretty = oneline
"""


def test_user_git_config_does_not_change_the_numbers(hist, frames, tmp_path, monkeypatch):
    """A user's ~/.gitconfig (diff algorithm, log.showRoot, ...) must not change any number."""
    config = tmp_path / "gitconfig"
    config.write_text(HOSTILE_GITCONFIG)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    commits, files = _sorted(log_commits(hist.git_dir, "acme/repo", hist.shas))
    single = _sorted(frames)
    assert_frame_equal(commits, single[0])
    assert_frame_equal(files, single[1])
    algo = files.filter((pl.col("sha") == hist.binary) & (pl.col("path") == "algo.txt"))
    assert algo.select("lines_added", "lines_deleted").row(0) == (6, 2)  # myers, as git's default
    root = commits.filter(pl.col("sha") == hist.root).row(0, named=True)
    assert root["files_changed"] == 8  # the root commit is a creation event, as by default


def test_files_in_the_current_directory_do_not_leak_in(hist, frames, tmp_path, monkeypatch):
    """A .mailmap or .gitattributes wherever the pipeline happens to run must not apply to
    the analysed repository (git treats the cwd as the work tree when given --git-dir)."""
    (tmp_path / ".mailmap").write_text("Evil Person <evil@example.com> <ada@example.com>\n")
    (tmp_path / ".gitattributes").write_text("* binary\n")
    monkeypatch.chdir(tmp_path)
    commits, files = _sorted(log_commits(hist.git_dir, "acme/repo", hist.shas, hist.tip))
    single = _sorted(frames)
    assert "Evil Person" not in commits["mailmap_name"].to_list()
    assert_frame_equal(commits, single[0])
    assert_frame_equal(files, single[1])


def forge(sha: str) -> str:
    """Text that, inside a commit message, looks like the reader's record of commit `sha`."""
    who = "Mallory\x1fmallory@evil.example"
    return (git_log.RECORD_MARK.decode() + sha + "\x1f\x1f" + "\x1f".join([who] * 3)
            + "\x1f2020-01-01T00:00:00+00:00\x1f2020-01-01T00:00:00+00:00\x1fforged")


def test_a_record_forged_in_a_commit_message_is_refused(tmp_path):
    r = GitScript.init(tmp_path / "forge")
    root = r.commit("root", author=ADA, files={"a.txt": "1\n"})
    crafted = r.commit("Innocent subject\n\n" + forge(root), author=BOB,
                       files={"b.txt": "".join(f"{i}\n" for i in range(500))})
    assert git_out(r.path, "cat-file", "commit", crafted).count("\x1e\x1eEXC\x1f") == 1
    with pytest.raises(GitError) as err:
        log_commits(r.path / ".git", "acme/repo", [root, crafted])
    assert "record separator" in str(err.value)
    commits, _ = log_commits(r.path / ".git", "acme/repo", [root])
    assert commits.select("author_name", "lines_added").rows() == [("Ada Lovelace", 1)]


def test_decode_keeps_valid_utf8_around_a_stray_latin1_byte():
    from exceeds_pipeline.ingest.gitcmd import decode

    assert decode("Renée ".encode() + b"caf\xe9") == "Renée café"
    assert decode(b"caf\xe9") == "café"
    assert decode("naïve".encode()) == "naïve"
