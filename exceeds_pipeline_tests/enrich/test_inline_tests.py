"""Which files of a real commit changed only their inline (Rust `mod tests`) tests, read from
git's own `-U0` diff of a scripted repository."""

import subprocess

from exceeds_pipeline.enrich.code_evidence import code_evidence, inline_test_paths
from exceeds_pipeline.ingest.gitcmd import isolated_env
from exceeds_pipeline_tests.conftest import git_dir_of as git_dir
from exceeds_pipeline_tests.gitscript import GitScript

ANN = ("Ann Lee", "ann@example.com")

LIB = ("use std::fmt;\n\npub struct Router;\n\nimpl Router {\n    pub fn route(&self) -> u8 {\n        1\n    }\n}\n\n"
       "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn routes() {\n"
       "        assert_eq!(Router.route(), 1);\n    }\n}\n")


def _diff(repo, sha: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git_dir(repo)), "log", "-1", "-p", "-U0", "--format=", sha],
                          capture_output=True, env=isolated_env(), check=True).stdout


def test_only_the_files_whose_changes_all_lie_in_a_test_module(tmp_path):
    repo = GitScript.init(tmp_path / "app")
    repo.commit("Add the router", author=ANN, files={"src/lib.rs": LIB, "src/util.rs": "pub fn util() {}\n"})
    inside = repo.commit("Check the route again", author=ANN, files={
        "src/lib.rs": LIB.replace("        assert_eq!(Router.route(), 1);\n",
                                  "        assert_eq!(Router.route(), 1);\n        assert!(Router.route() > 0);\n"),
        "src/util.rs": "pub fn util() -> u8 { 0 }\n"})
    both = repo.commit("Route twice", author=ANN, files={
        "src/lib.rs": LIB.replace("        1\n", "        2\n").replace("route(), 1)", "route(), 2)")})
    # a new test module at the end of a file, attribute and all; and one removed again
    added = repo.commit("Add util tests", author=ANN, files={
        "src/util.rs": "pub fn util() -> u8 { 0 }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n"
                       "    fn zero() {\n        assert_eq!(super::util(), 0);\n    }\n}\n"})
    removed = repo.commit("Drop util tests", author=ANN, files={"src/util.rs": "pub fn util() -> u8 { 0 }\n"})
    # a top-level item below the test module is outside it, though the hunk's header names the module
    below = repo.commit("Add a helper", author=ANN, files={"src/lib.rs": LIB.replace("        2\n", "        1\n") + "\npub fn helper() {}\n"})
    assert inline_test_paths(_diff(repo, inside)) == ["src/lib.rs"]
    assert inline_test_paths(_diff(repo, both)) == []
    assert inline_test_paths(_diff(repo, added)) == ["src/util.rs"]
    assert inline_test_paths(_diff(repo, removed)) == ["src/util.rs"]
    assert inline_test_paths(_diff(repo, below)) == []
    # the evidence the categories read, from the one streaming git pass
    ev = code_evidence(git_dir(repo), "acme/app", [inside, both, added])
    assert ev["test_paths"].to_list() == [["src/lib.rs"], [], ["src/util.rs"]]
