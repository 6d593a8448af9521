"""Incremental ingestion on real repositories: full, unchanged, fast-forward, force-push."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import polars as pl
import pytest

from exceeds_pipeline_tests.gitscript import GitScript
from exceeds_pipeline.ingest import incremental
from exceeds_pipeline.ingest.git_log import log_commits
from exceeds_pipeline.ingest.gitcmd import GitError
from exceeds_pipeline.ingest.incremental import ingest_repository
from exceeds_pipeline.ingest.raw_store import RawStore, read_side_table
from exceeds_pipeline.config import ExceedsConfig
from exceeds_pipeline.publish.freshness import publish_fingerprint
from exceeds_pipeline.ingest.repository import LocalRepository, is_shallow, open_local, resolve_branch
from exceeds_pipeline_tests.conftest import git_numstat, git_out, rev_count

ADA = ("Ada Lovelace", "ada@example.com")
ADA_OLD = ("ada", "ada@old.example.com")
BOB = ("Bob Builder", "bob@example.org")
NAME = "acme/app"


class Setup:
    """A developer clone pushing to a bare "remote"; the pipeline reads the remote."""

    def __init__(self, root: Path):
        self.remote = GitScript.init(root / "remote.git", bare=True)
        self.dev = GitScript.init(root / "dev")
        self.store = RawStore(root / "data" / "raw")
        self.day = 0

    def commit(self, msg: str, author=ADA, **files: str) -> str:
        self.day += 1
        files = files or {f"f{self.day}.txt": f"{msg}\n" * self.day}
        return self.dev.commit(msg, author=author, date=f"2025-02-{self.day:02d}T12:00:00+0000",
                               files={k.replace("__", "/"): v for k, v in files.items()})

    def push(self, force: bool = False) -> None:
        self.dev.push(self.remote.path, "main", force=force)

    def local(self) -> LocalRepository:
        git_dir = open_local(NAME, str(self.remote.path), self.remote.path.parent)
        branch, tip = resolve_branch(NAME, git_dir, "main")
        return LocalRepository(NAME, git_dir, tip, branch, is_shallow(NAME, git_dir))

    def ingest(self):
        return ingest_repository(self.local(), self.store)

    def check_against_git(self) -> pl.DataFrame:
        """Stored commits are exactly what git says is reachable, with git's numbers."""
        commits, files = self.store.read(NAME)
        assert commits["sha"].n_unique() == commits.height == rev_count(self.remote.path, "main")
        expected = git_numstat(self.remote.path, "main")
        got = {s: (a, d, f) for s, a, d, f in
               commits.select("sha", "lines_added", "lines_deleted", "files_changed").iter_rows()}
        assert got == expected
        assert set(files["sha"].unique().to_list()) <= set(expected)
        assert files.height == sum(v[2] for v in expected.values())
        return commits


@pytest.fixture
def s(tmp_path) -> Setup:
    return Setup(tmp_path)


@pytest.fixture
def reads(monkeypatch) -> list[list[str]]:
    """Every list of shas the ingest asks git log to read."""
    calls: list[list[str]] = []
    real = incremental.log_commits_parallel

    def spy(git_dir, repo, shas, mailmap_rev=None, workers=None):
        calls.append(list(shas))
        return real(git_dir, repo, shas, mailmap_rev, workers)

    monkeypatch.setattr(incremental, "log_commits_parallel", spy)
    return calls


def test_full_unchanged_fast_forward_rewritten(s, reads):
    for i in range(3):
        s.commit(f"c{i}")
    s.push()
    r = s.ingest()
    assert (r.mode, r.new_commits, r.removed_commits, r.total_commits) == ("full", 3, 0, 3)
    assert sorted(reads[0]) == sorted(git_out(s.remote.path, "rev-list", "main").split())
    s.check_against_git()
    state = s.store.state(NAME)
    assert state.tip == s.dev.head() and state.commits == 3 and state.branch == "main"

    # no change: nothing read from git, nothing rewritten
    reads.clear()
    r = s.ingest()
    assert (r.mode, r.new_commits, r.removed_commits, r.total_commits) == ("unchanged", 0, 0, 3)
    assert reads == []
    assert s.store.state(NAME).generation == state.generation

    # new commits, including a merged branch whose commits are older than the old tip
    old_tip = s.dev.head()
    s.dev.branch("topic", "HEAD~1", checkout=True)
    s.commit("topic work", author=BOB)
    s.dev.checkout("main")
    s.commit("c3")
    s.dev.merge("topic", "Merge topic", author=ADA, date="2025-02-20T12:00:00+0000")
    s.push()
    reads.clear()
    r = s.ingest()
    new = git_out(s.remote.path, "rev-list", "main", f"^{old_tip}").split()
    assert len(new) == 3
    assert (r.mode, r.new_commits, r.removed_commits, r.total_commits) == ("fast-forward", 3, 0, 6)
    assert len(reads) == 1 and sorted(reads[0]) == sorted(new)  # only the new commits
    s.check_against_git()

    # force-push: drop the last two commits (the merge and c3), add two new ones
    s.dev.reset_hard("HEAD~2")
    gone = set(git_out(s.dev.path, "rev-list", "ORIG_HEAD", "^HEAD").split())
    assert len(gone) == 3  # c3, the merge and topic work (only reachable through the merge)
    s.commit("c3 rewritten")
    s.commit("c4")
    s.push(force=True)
    reads.clear()
    r = s.ingest()
    assert (r.mode, r.new_commits, r.removed_commits) == ("rewritten", 2, 3)
    assert r.total_commits == rev_count(s.remote.path, "main") == 5
    assert len(reads) == 1 and len(reads[0]) == 2  # the stored commits are not read again
    commits = s.check_against_git()
    assert not gone & set(commits["sha"].to_list())
    _, files = s.store.read(NAME)
    assert not gone & set(files["sha"].to_list())


def test_force_push_to_an_older_commit_after_gc(s, reads):
    for i in range(4):
        s.commit(f"c{i}")
    s.push()
    assert s.ingest().mode == "full"
    s.dev.reset_hard("HEAD~2")
    s.push(force=True)
    # the old tip no longer exists at all
    s.remote.git("reflog", "expire", "--expire=now", "--all")
    s.remote.git("gc", "-q", "--prune=now")
    reads.clear()
    r = s.ingest()
    assert (r.mode, r.new_commits, r.removed_commits, r.total_commits) == ("rewritten", 0, 2, 2)
    assert reads in ([], [[]])
    s.check_against_git()


def test_mailmap_added_later_remaps_old_commits(s):
    s.commit("old address", author=ADA_OLD)
    s.commit("new address", author=ADA)
    s.push()
    s.ingest()
    commits, _ = s.store.read(NAME)
    assert sorted(commits["mailmap_email"].to_list()) == ["ada@example.com", "ada@old.example.com"]

    s.dev.write_mailmap(["Ada Lovelace <ada@example.com> <ada@old.example.com>"])
    s.commit("add mailmap", author=BOB, **{"README": "hi\n"})
    s.push()
    r = s.ingest()
    assert r.mode == "fast-forward"
    commits = s.check_against_git()
    rows = {r["subject"]: r for r in commits.iter_rows(named=True)}
    assert (rows["old address"]["mailmap_name"], rows["old address"]["mailmap_email"]) == (
        "Ada Lovelace", "ada@example.com")
    assert (rows["old address"]["author_name"], rows["old address"]["author_email"]) == ADA_OLD
    assert rows["add mailmap"]["mailmap_email"] == "bob@example.org"
    # matches what git itself prints with the mailmap
    git_map = dict(line.split("|") for line in git_out(
        s.remote.path, "log", "--format=%H|%aE", "main").split("\n") if line)
    assert {r["sha"]: r["mailmap_email"] for r in rows.values()} == git_map

    # removing the mailmap again restores the raw identities of every stored commit
    s.dev.git("rm", "-q", ".mailmap")
    s.commit("drop mailmap", author=BOB, **{"README": "bye\n"})
    s.push()
    s.ingest()
    commits, _ = s.store.read(NAME)
    assert sorted(set(commits["mailmap_email"].to_list())) == [
        "ada@example.com", "ada@old.example.com", "bob@example.org"]


def test_remap_ignores_a_mailmap_in_the_current_directory(s, tmp_path, monkeypatch):
    s.commit("one", author=ADA_OLD)
    s.push()
    s.ingest()
    s.dev.write_mailmap(["Ada Lovelace <ada@example.com> <ada@old.example.com>"])
    s.commit("mailmap", author=BOB, **{"README": "x\n"})
    s.push()
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    (cwd / ".mailmap").write_text("Evil <evil@example.com> <bob@example.org>\n")
    monkeypatch.chdir(cwd)
    # a non-bare clone of the remote, read in place
    clone = GitScript.clone(s.remote.path, tmp_path / "clone")
    git_dir = open_local(NAME, str(clone.path), tmp_path)
    branch, tip = resolve_branch(NAME, git_dir, None)
    store = RawStore(tmp_path / "raw2")
    ingest_repository(LocalRepository(NAME, git_dir, clone.rev("HEAD~1"), branch, False), store)
    ingest_repository(LocalRepository(NAME, git_dir, tip, branch, False), store)
    commits, _ = store.read(NAME)
    assert sorted(commits["mailmap_email"].to_list()) == ["ada@example.com", "bob@example.org"]


@pytest.mark.parametrize("content", ["{not json", "", "null", "[]", '{"repo": "acme/app"}',
                                     '{"unexpected": 1}'])
def test_corrupt_state_is_treated_as_never_ingested(s, reads, content):
    for i in range(3):
        s.commit(f"c{i}")
    s.push()
    s.ingest()
    folder = s.store.folder(NAME)
    (folder / "state.json").write_text(content)
    assert s.store.state(NAME) is None
    reads.clear()
    r = s.ingest()
    assert (r.mode, r.new_commits, r.total_commits) == ("full", 3, 3)
    s.check_against_git()
    # the orphaned generation of the corrupt state is cleaned up
    assert len(list(folder.glob("commits-*.parquet"))) == 1


def test_missing_state_is_treated_as_never_ingested(s):
    s.commit("c0")
    s.push()
    s.ingest()
    (s.store.folder(NAME) / "state.json").unlink()
    r = s.ingest()
    assert (r.mode, r.total_commits) == ("full", 1)
    s.check_against_git()


def test_state_naming_missing_files_is_rebuilt(s):
    """state.json survived but its Parquet files did not (disk cleanup, partial restore)."""
    s.commit("c0")
    s.commit("c1")
    s.push()
    s.ingest()
    for f in s.store.folder(NAME).glob("*.parquet"):
        f.unlink()
    s.commit("c2")
    s.push()
    r = s.ingest()
    assert r.total_commits == 3
    s.check_against_git()


def test_leftovers_of_a_killed_write_are_ignored_and_cleaned(s):
    s.commit("c0")
    s.push()
    s.ingest()
    folder = s.store.folder(NAME)
    # a write killed before state.json was replaced: its files exist, state.json is the old one
    (folder / ".commits-deadbeef0000.parquet.tmp").write_bytes(b"partial")
    (folder / "file_changes-deadbeef0000.parquet").write_bytes(b"PAR1 broken")
    (folder / ".state-deadbeef0000.json.tmp").write_text("{")
    commits, _ = s.store.read(NAME)
    assert commits.height == 1
    previous = s.store.state(NAME).generation
    s.commit("c1")
    s.push()
    assert s.ingest().mode == "fast-forward"
    s.check_against_git()
    names = sorted(p.name for p in folder.iterdir())
    gen = s.store.state(NAME).generation
    # the killed write's leftovers are gone; the previous generation stays for readers that
    # opened the old state.json a moment ago (removed by the next write); the tags beside them
    assert names == sorted(
        ["state.json", f"commits-{gen}.parquet", f"file_changes-{gen}.parquet",
         f"commits-{previous}.parquet", f"file_changes-{previous}.parquet", "tags.side.parquet"]
    )
    s.commit("c2")
    s.push()
    s.ingest()
    names = sorted(p.name for p in folder.iterdir())
    assert not any(previous in n for n in names)


def test_state_records_the_state_as_json(s):
    s.commit("c0")
    s.push()
    s.ingest()
    data = json.loads((s.store.folder(NAME) / "state.json").read_text())
    assert data["repo"] == NAME and data["tip"] == s.dev.head() and data["commits"] == 1
    assert data["is_shallow"] is False and data["mailmap_blob"] is None


def test_mailmap_remap_with_signed_commits_and_log_show_signature(s, tmp_path, monkeypatch):
    """Many users set log.showSignature=true, and GitHub signs web-UI commits: the re-read of
    identities after a .mailmap change must not mistake signature output for commits."""
    key = tmp_path / "signing_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    s.commit("unsigned", author=ADA_OLD)
    s.dev.git("-c", "gpg.format=ssh", "-c", f"user.signingkey={key}", "commit", "-q", "-S",
              "--allow-empty", "-m", "signed", env={"GIT_AUTHOR_NAME": ADA_OLD[0],
                                                    "GIT_AUTHOR_EMAIL": ADA_OLD[1]})
    s.push()
    user_config = tmp_path / "gitconfig"
    user_config.write_text("[log]\n\tshowSignature = true\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user_config))
    s.ingest()
    s.dev.write_mailmap(["Ada Lovelace <ada@example.com> <ada@old.example.com>"])
    s.commit("mailmap", author=BOB, **{"README": "x\n"})
    s.push()
    assert s.ingest().mode == "fast-forward"
    commits = s.check_against_git()
    assert sorted(commits["mailmap_email"].to_list()) == [
        "ada@example.com", "ada@example.com", "bob@example.org"]


def test_malformed_mailmap_lines_are_ignored_like_git_does(s):
    s.dev.write({".mailmap": b"garbage without brackets\n<unterminated\n\xff\xfe binary\n"
                             b"Ada Lovelace <ada@example.com> <ada@old.example.com>\n>< ><\n"})
    s.commit("old address", author=ADA_OLD)
    s.push()
    assert s.ingest().mode == "full"
    commits = s.check_against_git()
    assert commits["mailmap_email"].to_list() == ["ada@example.com"]
    assert commits["mailmap_name"].to_list() == ["Ada Lovelace"]


def test_missing_objects_skip_the_commit_and_are_retried(s):
    """A damaged clone: the unreadable commit is skipped and named (git's reason, repository),
    the rest is stored, and it is read as soon as the object is back."""
    s.commit("c0", **{"a.txt": "one\n"})
    s.push()
    s.ingest()
    c1 = s.commit("c1", **{"a.txt": "two\n"})
    c2 = s.commit("c2", **{"b.txt": "fine\n"})
    s.push()
    blob = git_out(s.remote.path, "rev-parse", f"{c1}:a.txt").strip()
    loose = Path("objects") / blob[:2] / blob[2:]
    (s.remote.path / loose).unlink()  # a corrupt repository
    r = s.ingest()
    assert r.mode == "fast-forward"
    assert list(r.skipped) == [c1]
    assert blob in r.skipped[c1]  # git's own explanation: the object it could not read
    commits, _ = s.store.read(NAME)
    assert sorted(commits["subject"].to_list()) == ["c0", "c2"]
    assert s.store.state(NAME).skipped == [c1]
    # the object comes back (fetched again): the next run reads the skipped commit
    (s.remote.path / loose).write_bytes((s.dev.path / ".git" / loose).read_bytes())
    r = s.ingest()
    assert (r.new_commits, r.skipped) == (1, {})
    s.check_against_git()
    assert s.store.state(NAME).skipped == []
    assert s.ingest().mode == "unchanged"


def test_log_commits_reports_missing_objects_as_a_git_error(s):
    s.commit("c0", **{"a.txt": "one\n"})
    sha = s.commit("c1", **{"a.txt": "two\n"})
    s.push()
    blob = git_out(s.remote.path, "rev-parse", f"{sha}:a.txt").strip()
    (s.remote.path / "objects" / blob[:2] / blob[2:]).unlink()
    with pytest.raises(GitError) as err:
        log_commits(s.remote.path, NAME, [sha])
    assert str(err.value).startswith(f"[{NAME}] git log failed") and blob in str(err.value)


def test_unshallowing_a_clone_re_reads_the_whole_history(s, tmp_path):
    """The warning says `git fetch --unshallow`; after it the next run must read the full history
    (and re-read the old boundary commit, which a shallow clone shows as adding the whole tree)."""
    for i in range(6):
        s.commit(f"c{i}", **{"a.txt": "".join(f"{j}\n" for j in range(i + 1))})
    s.push()
    shallow = GitScript.clone(s.remote.path.as_uri(), tmp_path / "shallow", extra_args=["--depth", "2"])

    def local():
        git_dir = open_local(NAME, str(shallow.path), tmp_path)
        branch, tip = resolve_branch(NAME, git_dir, None)
        return LocalRepository(NAME, git_dir, tip, branch, is_shallow(NAME, git_dir))

    store = RawStore(tmp_path / "raw-shallow")
    first = ingest_repository(local(), store)
    assert (first.is_shallow, first.total_commits) == (True, 2)
    shallow.git("fetch", "-q", "--unshallow")
    second = ingest_repository(local(), store)
    assert second.is_shallow is False
    assert second.mode != "unchanged"
    assert second.total_commits == 6
    commits, _ = store.read(NAME)
    got = {s_: (a, d, f) for s_, a, d, f in
           commits.select("sha", "lines_added", "lines_deleted", "files_changed").iter_rows()}
    assert got == git_numstat(shallow.path)
    assert store.state(NAME).is_shallow is False


def test_a_commit_forging_another_commits_record_is_skipped_not_stored(s):
    """A crafted message that imitates the reader's record separator must neither double count
    nor re-attribute another commit: the crafted commit is skipped, everything else is right."""
    from exceeds_pipeline_tests.ingest.test_git_log import forge

    root = s.commit("root", **{"a.txt": "1\n"})
    s.push()
    s.ingest()
    crafted = s.commit("Innocent subject\n\n" + forge(root), author=BOB,
                       **{"b.txt": "".join(f"{i}\n" for i in range(500))})
    after = s.commit("after", author=BOB, **{"c.txt": "c\n"})
    s.push()
    r = s.ingest()
    assert list(r.skipped) == [crafted]
    commits, _ = s.store.read(NAME)
    assert sorted(commits["sha"].to_list()) == sorted([root, after])
    rows = {row["sha"]: row for row in commits.iter_rows(named=True)}
    assert (rows[root]["author_name"], rows[root]["lines_added"]) == ("Ada Lovelace", 1)


def test_tags_are_stored_and_a_new_tag_alone_is_a_change(s, reads):
    """The repository's tags are stored beside its history (annotated ones peeled to their
    commit): a release tagged after its commit was ingested changes nothing but the tags, and
    a no-change run must still see it (the published profile names releases by their tags)."""
    first = s.commit("c0")
    s.dev.git("tag", "-a", "-m", "release 1.0", "v1.0")
    s.commit("c1")
    s.push()
    s.dev.git("push", "--tags", str(s.remote.path))
    s.ingest()
    stored = read_side_table(s.store, NAME, incremental.TAGS_TABLE)
    assert stored.rows() == [("v1.0", first)]
    fingerprint = publish_fingerprint(ExceedsConfig(repositories=[{"path": str(s.remote.path), "name": NAME}]), s.store)
    assert incremental.is_up_to_date(s.local(), s.store)

    # tagged later, no new commit: not up to date, and the unchanged ingest stores the tag
    s.dev.tag("v1.1")
    s.dev.git("push", "--tags", str(s.remote.path))
    assert not incremental.is_up_to_date(s.local(), s.store)
    reads.clear()
    r = s.ingest()
    assert r.mode == "unchanged" and reads == []
    tip = s.dev.head()
    assert read_side_table(s.store, NAME, incremental.TAGS_TABLE).rows() == [("v1.0", first), ("v1.1", tip)]
    assert incremental.is_up_to_date(s.local(), s.store)
    # ... and what was published from the old tags is out of date
    assert publish_fingerprint(ExceedsConfig(repositories=[{"path": str(s.remote.path), "name": NAME}]), s.store) != fingerprint
