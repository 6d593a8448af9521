"""Skills from code and message prose, on real repositories built in the test."""

from __future__ import annotations

import polars as pl
import pytest

from exceeds_pipeline.enrich.code_evidence import code_evidence, evidence_from_patch
from exceeds_pipeline.enrich.skills import load_skill_rules, parse_skill_rules, person_skills, skills_per_commit
from exceeds_pipeline_tests.themes.pipeline import git_dir, tables

ADA = ("Ada Lovelace", "ada@example.com")


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    from exceeds_pipeline_tests.gitscript import GitScript

    r = GitScript.init(tmp_path_factory.mktemp("skills") / "app")
    shas = {}

    def c(key, message, files, day):
        shas[key] = r.commit(message, author=ADA, date=f"2025-02-{day:02d}T10:00:00+00:00", files=files)

    c("base", "Initial commit", {"app/core.py": "x = 1\n", "README.txt": "app\n"}, 1)
    c("link", "Speed up the row parser\n\nPorted from https://github.com/pytorch/pytorch/pull/123 and\n"
              "https://github.com/pallets/flask/pull/9; see https://docs.python.org/3/library/dis.html\n\n"
              "Pull Request resolved: https://github.com/pytorch/pytorch/pull/123\n"
              "Reviewed By: someone\nDifferential Revision: D42",
      {"app/core.py": "x = 2\n"}, 2)
    c("ci", "Make the row parser tolerate blank lines\n\nThis showed up as failures in CI on Windows.",
      {"app/core.py": "x = 3\n"}, 3)
    c("repro", "Handle empty tensors in the row parser\n\nRepro:\n\n    import torch\n    x = torch.zeros(0).cuda()\n"
               "    parse(x)\n\nor `model.cuda()` in a notebook.",
      {"app/core.py": "x = 4\n"}, 4)
    c("flask", "Serve rows over HTTP", {"app/web.py": "from flask import Flask, Blueprint\n"
                                                      "import pandas as pd\n\nbp = Blueprint('rows', __name__)\n"}, 5)
    c("kernel", "Add the reduction kernel", {"kernels/reduce.cu": "#include <cuda_runtime.h>\n"
                                                                  "__global__ void reduce(float* x) {}\n"}, 6)
    c("bytecode", "Rewrite jump targets", {"app/rewrite.py": "import dis\n\ndef f(code):\n"
                                                               "    return [i for i in dis.get_instructions(code)]\n"}, 7)
    c("subject_ci", "ci: run the tests on Python 3.13", {".github/workflows/test.yml": "on: push\n"}, 8)
    t = tables((r, "acme/app"))
    return r, shas, t


def skills_by_key(repo, evidence=None):
    r, shas, t = repo
    out = skills_per_commit(t["commits"], t["file_changes"], load_skill_rules(), evidence)
    got = dict(zip(out["sha"], out["skills"].to_list()))
    return {k: set(got[s]) for k, s in shas.items()}


def test_a_link_naming_a_framework_gives_no_skill(repo):
    skills = skills_by_key(repo)
    # "pytorch" and "flask" appear only in links, "docs" only in docs.python.org: nothing
    assert skills["link"] & {"Machine Learning", "Web Frameworks", "Documentation"} == set()
    assert "Performance Optimization" in skills["link"]  # "speed up" is prose


def test_ci_mentioned_in_passing_and_pasted_repros_give_no_skill(repo):
    skills = skills_by_key(repo)
    assert "CI/CD" not in skills["ci"]  # "failures in CI"
    assert skills["repro"] & {"CUDA", "GPU Programming", "Machine Learning"} == set()  # .cuda() in a repro
    assert "CI/CD" in skills["subject_ci"]  # a ci: subject and a workflow file are evidence


def test_what_the_added_lines_use_gives_skills(repo):
    r, shas, t = repo
    ev = code_evidence(git_dir(r), "acme/app", list(shas.values()))
    by_sha = {row["sha"]: row for row in ev.iter_rows(named=True)}
    assert by_sha[shas["flask"]]["imports"] == ["flask", "pandas"]
    assert "Blueprint" in by_sha[shas["flask"]]["code_terms"]
    assert by_sha[shas["kernel"]]["imports"] == ["cuda_runtime.h"]
    assert "__global__" in by_sha[shas["kernel"]]["code_terms"]
    assert "dis.get_instructions" in by_sha[shas["bytecode"]]["code_terms"]
    assert by_sha[shas["link"]]["imports"] == []
    without = skills_by_key(repo)
    skills = skills_by_key(repo, ev)
    assert {"Web Frameworks", "Data Engineering"} <= skills["flask"]
    assert not without["flask"] & {"Web Frameworks", "Data Engineering"}
    assert {"CUDA", "GPU Programming"} <= skills["kernel"]
    assert "Compilers & Bytecode" in skills["bytecode"] and "Compilers & Bytecode" not in without["bytecode"]
    # the pasted repro's `import torch` is in the message, not in the code
    assert "Machine Learning" not in skills["repro"]


def test_person_skills_count_evidence_and_name_examples(repo):
    r, shas, t = repo
    ev = code_evidence(git_dir(r), "acme/app", list(shas.values()))
    cs = skills_per_commit(t["commits"], t["file_changes"], load_skill_rules(), ev)
    ps = person_skills(cs, t["commits"]).filter(pl.col("skill") == "CUDA").to_dicts()
    (row,) = ps
    kernel_item = t["commits"].filter(pl.col("sha") == shas["kernel"])["work_item_id"][0]
    assert row["commits"] == 1 and row["work_items"] == 1 and row["examples"] == [kernel_item]


def test_users_extend_imports_and_code_terms_without_code(repo):
    r, shas, t = repo
    extra = parse_skill_rules(
        "skills:\n  - name: Tabular Data\n    imports: [pandas]\n  - name: Flask Blueprints\n"
        "    code_terms: [Blueprint]\n", "user.yaml", base=load_skill_rules())
    ev = code_evidence(git_dir(r), "acme/app", [shas["flask"]])
    out = skills_per_commit(t["commits"], t["file_changes"], extra, ev)
    got = set(out.filter(pl.col("sha") == shas["flask"])["skills"][0])
    assert {"Tabular Data", "Flask Blueprints"} <= got


def test_evidence_from_patch_skips_comments_strings_and_prose():
    patch = (b"+++ b/a.py\n+# import torch\n+s = 'torch.cuda is great'\n+from torch._dynamo import guards\n"
             b"+import os, sys as system\n+the plain words stay out\n+y = torch.cuda.synchronize()\n"
             b"+++ b/b.md\n+import flask\n")
    imports, terms, comments, code = evidence_from_patch(patch)
    assert imports == ["torch._dynamo", "os", "sys"]
    assert (comments, code) == (1, 5)  # the changed lines of a.py (b.md is read by no rule)
    assert "torch.cuda.synchronize" in terms and "plain" not in terms and "flask" not in imports


def test_generated_and_data_files_give_no_evidence(tmp_path):
    from exceeds_pipeline_tests.gitscript import GitScript

    r = GitScript.init(tmp_path / "gen")
    sha = r.commit("Vendor assets", author=ADA, files={
        "static/app.min.js": "import React from 'react';\n",
        "api/v1/service.pb.go": 'import "google.golang.org/grpc"\n',
        "package-lock.json": '{"import": "lodash"}\n',
        "web/app.js": "import lodash from 'lodash';\n",
    })
    ev = code_evidence(git_dir(r), "acme/gen", [sha])
    assert ev["imports"].to_list() == [["lodash"]]  # only the hand-written file


def test_code_evidence_reads_a_capped_number_of_bytes(repo):
    r, shas, _ = repo
    ev = code_evidence(git_dir(r), "acme/app", [shas["flask"]], max_bytes=10)
    assert ev["imports"].to_list() == [[]]


def test_update_code_evidence_reads_only_new_commits(repo, monkeypatch):
    from exceeds_pipeline.enrich import code_evidence as ce

    r, shas, _ = repo
    first = ce.update_code_evidence(None, git_dir(r), "acme/app", [shas["flask"], shas["kernel"]])
    asked = []
    real = ce.code_evidence
    monkeypatch.setattr(ce, "code_evidence", lambda g, name, todo, **k: asked.append(list(todo)) or real(g, name, todo, **k))
    second = ce.update_code_evidence(first, git_dir(r), "acme/app", [shas["kernel"], shas["bytecode"]])
    assert asked == [[shas["bytecode"]]]
    assert second["sha"].to_list() == [shas["kernel"], shas["bytecode"]]  # flask no longer listed
    assert second.filter(pl.col("sha") == shas["kernel"])["imports"].to_list() == [["cuda_runtime.h"]]


def test_evidence_of_an_older_reading_is_read_again(repo, monkeypatch):
    """Rows stored by an older reading of the diffs (a language it did not read: PHP) are read
    again; rows of this reading are kept."""
    from exceeds_pipeline.enrich import code_evidence as ce

    r, shas, _ = repo
    first = ce.update_code_evidence(None, git_dir(r), "acme/app", [shas["flask"], shas["kernel"]])
    older = first.with_columns(pl.when(pl.col("sha") == shas["kernel"]).then(ce.READER - 1).otherwise(pl.col("reader"))
                               .cast(pl.Int16).alias("reader"))
    asked = []
    real = ce.code_evidence
    monkeypatch.setattr(ce, "code_evidence", lambda g, name, todo, **k: asked.append(list(todo)) or real(g, name, todo, **k))
    again = ce.update_code_evidence(older, git_dir(r), "acme/app", [shas["flask"], shas["kernel"]])
    assert asked == [[shas["kernel"]]]
    assert again["reader"].to_list() == [ce.READER, ce.READER]
    assert again.filter(pl.col("sha") == shas["kernel"])["imports"].to_list() == [["cuda_runtime.h"]]


def test_evidence_sample_is_per_author_and_a_function_of_the_history_alone():
    import polars as pl

    from exceeds_pipeline.enrich.code_evidence import evidence_sample

    shas = [f"{i:040x}" for i in range(10)]
    frame = pl.DataFrame({
        "sha": shas[::-1],
        "is_merge": [False] * 9 + [True],
        "mailmap_email": ["A@x"] * 6 + ["b@x"] * 4,
    })
    sample = evidence_sample(frame, per_author=3)
    # A wrote shas 9..4 (smallest three: 4, 5, 6); b wrote 3..0 with 0 a merge (1, 2, 3)
    assert sorted(sample) == [shas[i] for i in (1, 2, 3, 4, 5, 6)]
    assert sorted(evidence_sample(frame.reverse(), per_author=3)) == sorted(sample)
    assert sample == [shas[i] for i in (6, 5, 4, 3, 2, 1)]  # in the history's order, git's fastest
    # beyond the sample, a small change is read too (a comment edit is documentation, whatever
    # its words: antirez's "Add more info in the unblockClientFromModule() function")
    sized = frame.with_columns(pl.Series("lines_added", [40, 3, 40, 40, 40, 40, 40, 40, 2, 1]),
                               pl.Series("lines_deleted", [40, 7, 40, 40, 40, 40, 40, 40, 9, 0]))
    assert sorted(evidence_sample(sized, per_author=3)) == [shas[i] for i in (1, 2, 3, 4, 5, 6, 8)]
    # ... but its imports do not speak for skills: a prolific author's one-line imports would
    # outweigh the sample (requests' `import requests` in setup.py read as Networking)
    assert sorted(evidence_sample(sized, per_author=3, small_changes=False)) == sorted(sample)


def test_code_evidence_of_no_commits_is_empty(repo):
    r, _, _ = repo
    ev = code_evidence(git_dir(r), "acme/app", [])
    assert ev.height == 0 and ev.columns == ["repo", "sha", "imports", "code_terms", "comment_lines", "code_lines", "test_paths", "reader"]


def test_git_makes_no_text_diff_of_files_no_rule_reads_and_the_evidence_is_the_same(tmp_path):
    # code_evidence gives git an attributes file under which only files of a known language are
    # diffed as text; the evidence must equal what the full patch of plain git gives.
    import subprocess

    from exceeds_pipeline.enrich.code_evidence import _FORMAT, _MARK, _OPTIONS
    from exceeds_pipeline.ingest.gitcmd import isolated_env
    from exceeds_pipeline_tests.gitscript import GitScript

    r = GitScript.init(tmp_path / "mixed")
    shas = [
        r.commit("Mixed change", author=ADA, files={
            "src/Tool.PY": "import numpy as np\nvalue = np.zeros(3)\n",  # upper-case suffix: still read
            "po/de.po": 'msgid "import os"\nmsgstr "importiere os"\n',
            "Documentation/guide.md": "import pandas is how you start\n",
            "lib/x.js": "const fs = require('fs');\nfs.readFileSync(p)\n",
            "static/app.min.js": "import React from 'react';\n",
        }),
        r.commit("More", author=ADA, files={"src/Tool.PY": "import numpy as np\nimport scipy.linalg\n",
                                            "po/de.po": 'msgid "x"\n'}),
    ]
    ev = code_evidence(git_dir(r), "acme/mixed", shas)
    plain = subprocess.run(
        ["git", "--git-dir", str(git_dir(r)), "log", "--no-walk=unsorted", "--stdin", f"--format={_FORMAT}", *_OPTIONS],
        input=("\n".join(shas) + "\n").encode(), capture_output=True, env=isolated_env(), check=True).stdout
    expected = {}
    for record in plain.split(_MARK)[1:]:
        sha, _, body = record.partition(b"\n")
        expected[sha.decode().strip()] = evidence_from_patch(body)
    got = {row["sha"]: (row["imports"], row["code_terms"], row["comment_lines"], row["code_lines"])
           for row in ev.iter_rows(named=True)}
    assert got == expected
    assert got[shas[0]][0] == ["fs", "numpy"] and got[shas[1]][0] == ["scipy.linalg"]
    assert got[shas[0]][3] > 0
    assert not (git_dir(r) / "info" / "attributes").exists()  # nothing written into the repository


def test_person_skills_rank_by_work_items_the_count_the_page_shows():
    """httpx: the page listed "Documentation 56" above "Concurrency 57": ranked by commits
    while showing work items. Six commits of one item do not outrank three items."""
    commits = pl.DataFrame({
        "repo": ["r"] * 9, "sha": [f"{i:040x}" for i in range(9)], "person_id": ["tom"] * 9,
        "work_item_id": ["r#pr-1"] * 6 + ["r#pr-2", "r#pr-3", "r#pr-4"], "is_counted": [True] * 9,
    })
    cs = commits.select("repo", "sha", pl.Series("skills", [["Documentation"]] * 6 + [["Concurrency"]] * 3))
    ps = person_skills(cs, commits)
    assert ps.select("skill", "commits", "work_items").rows() == [("Concurrency", 3, 3), ("Documentation", 6, 1)]


def test_an_interpreter_line_is_code_not_a_comment():
    """redis: "fix file permissions for scripts" made a Ruby script executable and added its
    `#!/usr/bin/env ruby`: no change of comments alone, so no documentation work."""
    from exceeds_pipeline.enrich.code_evidence import _comment_counts

    assert _comment_counts("rb", b"+#!/usr/bin/env ruby\n+# coding: utf-8\n") == (1, 1)
    assert _comment_counts("py", b"-# old words\n+# new words\n") == (2, 0)
