"""Speed of the code-evidence pass (imports and API names of added lines) against git itself.

Usage: python benchmarks/code_evidence_speed.py GIT_DIR [GIT_DIR ...]

For each repository, in the same run: `git log --no-merges --numstat` (what the ingest reads),
`git log --no-merges -p -U0` (the diff text the evidence pass reads), and
`exceeds_pipeline.enrich.code_evidence.code_evidence` over every non-merge commit. Prints the
seconds and the ratios to both git commands. Repositories with missing objects (partial
clones) make git stop early, so their git times are lower bounds.
"""

from __future__ import annotations

import subprocess
import sys
import time

from exceeds_pipeline.enrich.code_evidence import code_evidence


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(git_dirs: list[str]) -> None:
    print(f"{'repository':40} {'commits':>8} {'numstat s':>10} {'-p -U0 s':>9} {'evidence s':>11} "
          f"{'x numstat':>10} {'x -p':>6}")
    for git_dir in git_dirs:
        shas = subprocess.run(["git", "--git-dir", git_dir, "rev-list", "--no-merges", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.split()
        numstat = timed(lambda: subprocess.run(["git", "--git-dir", git_dir, "log", "--no-merges", "--numstat", "HEAD"],
                                               capture_output=True))
        patch = timed(lambda: subprocess.run(["git", "--git-dir", git_dir, "log", "--no-merges", "-p", "-U0", "HEAD"],
                                             capture_output=True))
        evidence = timed(lambda: code_evidence(git_dir, git_dir, shas))
        print(f"{git_dir[-40:]:40} {len(shas):>8} {numstat:>10.2f} {patch:>9.2f} {evidence:>11.2f} "
              f"{evidence / numstat:>10.2f} {evidence / patch:>6.2f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
