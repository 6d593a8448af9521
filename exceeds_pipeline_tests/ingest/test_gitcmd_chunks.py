"""stream_git_chunks: several git processes read ahead, the output is one process's, in order."""

from __future__ import annotations

import subprocess
from datetime import datetime, timedelta, timezone

import psutil
import pytest

from exceeds_pipeline.common.chunks import contiguous_chunks
from exceeds_pipeline.ingest.gitcmd import GitError, isolated_env, stream_git_chunks
from exceeds_pipeline_tests.conftest import git_dir_of

T0 = datetime(2025, 3, 1, 9, tzinfo=timezone.utc)
ARGS = ["log", "--no-walk=unsorted", "--stdin", "--format=%x1e%H", "-p", "--unified=0", "--no-color"]


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    from exceeds_pipeline_tests.gitscript import GitScript

    repo = GitScript.init(tmp_path_factory.mktemp("chunks") / "repo")
    body = [f"line {i}" for i in range(50)]
    for n in range(40):
        body[(n * 7) % 50] = f"edit {n}" + ("\r" if n % 5 == 0 else "")  # CR inside a line: not a line end
        repo.commit(f"c{n}", date=T0 + timedelta(hours=n),
                    files={"a.txt": "\n".join(body) + "\n", f"f{n % 3}.txt": f"{n}\n" * (n + 1)})
    shas = repo.git("rev-list", "--reverse", "HEAD").split()
    return repo, shas


def one_process(repo, shas: list[str]) -> bytes:
    """Plain git, one process, git's defaults (independent of the code under test)."""
    return subprocess.run(["git", "--git-dir", str(git_dir_of(repo)), *ARGS], input=("\n".join(shas) + "\n").encode(),
                          capture_output=True, env=isolated_env(), check=True).stdout


def git_children() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if p.name() == "git"]


@pytest.mark.parametrize("parts,parallel,block", [(1, 1, 1 << 20), (5, 2, 1 << 20), (7, 3, 37), (40, 2, 5)])
def test_chunks_give_one_processs_output_in_order(history, parts, parallel, block):
    repo, shas = history
    whole = one_process(repo, shas)
    assert whole.count(b"\x1e") == 40 and b"\r\n" in whole
    lines = list(stream_git_chunks(git_dir_of(repo), ARGS, contiguous_chunks(shas, parts), "acme/x",
                                   parallel=parallel, block=block))
    assert b"".join(lines) == whole
    assert all(line.endswith(b"\n") and line.count(b"\n") == 1 for line in lines)  # \r is not a line end
    assert not git_children()


def test_a_failing_chunk_raises_after_the_chunks_before_it(history):
    repo, shas = history
    chunks = contiguous_chunks(shas, 4)
    bad = [*chunks[:2], ["0" * 40], *chunks[2:]]
    got: list[bytes] = []
    with pytest.raises(GitError, match=r"\[acme/x\]"):
        for line in stream_git_chunks(git_dir_of(repo), ARGS, bad, "acme/x", parallel=2):
            got.append(line)
    assert b"".join(got) == one_process(repo, chunks[0] + chunks[1])
    assert not git_children()


def test_stopping_early_leaves_no_git_running(history):
    repo, shas = history
    stream = stream_git_chunks(git_dir_of(repo), ARGS, contiguous_chunks(shas, 8), "acme/x", parallel=3, block=64)
    next(stream)
    assert git_children()  # read-ahead processes are running
    stream.close()
    assert not git_children()
