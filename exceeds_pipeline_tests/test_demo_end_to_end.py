"""`exceeds demo` end to end: profiles are complete, schema-valid, and their numbers equal what
git itself says about each person's commits (recomputed here from `git log`, not from our tables).
"""

import json
import re
import subprocess
from collections import defaultdict

import duckdb
import jsonschema
import pytest

from exceeds_pipeline.demo.generate import build_demo_repositories, write_demo_config
from exceeds_pipeline.profiles.export import load_schema
from exceeds_pipeline.runner import run_pipeline


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo")
    mp = pytest.MonkeyPatch()
    mp.setenv("DAGSTER_HOME", str(root / "dagster_home"))
    repos = build_demo_repositories(root / "repos")
    config = write_demo_config(root / "exceeds.yaml", repos)
    outcome = run_pipeline(config, root / "data", echo=lambda line: None)
    assert outcome.ok, outcome
    yield root, repos
    mp.undo()


def _git_facts(repos, email_to_person):
    """Per person, from git alone: non-merge commits, local months, raw numstat lines."""
    facts = defaultdict(lambda: {"commits": 0, "months": set(), "added": 0, "deleted": 0, "repos": set()})
    for repo in repos:
        out = subprocess.run(
            ["git", "-C", str(repo.path), "log", "--no-merges", "--numstat", "--date=short",
             "--format=%x00%ae%x09%ad", repo.branch],
            capture_output=True, text=True, check=True,
        ).stdout
        person = None
        for line in out.splitlines():
            if line.startswith("\x00"):
                email, day = line[1:].split("\t")
                person = email_to_person.get(email.lower())
                if person is not None:
                    f = facts[person]
                    f["commits"] += 1
                    f["months"].add(day[:7])
                    f["repos"].add(repo.name)
            elif line and person is not None:
                added, deleted, _ = line.split("\t", 2)
                if added != "-":
                    facts[person]["added"] += int(added)
                    facts[person]["deleted"] += int(deleted)
    return facts


def test_demo_profiles_are_schema_valid_and_match_git(demo):
    root, repos = demo
    data = root / "data"
    with duckdb.connect(str(data / "exceeds.duckdb"), read_only=True) as con:
        people = con.execute("select person_id, emails, is_bot from people").fetchall()
        monthly = con.execute(
            "select person_id, sum(raw_lines_added), sum(raw_lines_deleted) from monthly_rollups group by 1"
        ).fetchall()
    email_to_person = {e: pid for pid, emails, is_bot in people if not is_bot for e in emails}
    bots = {pid for pid, _, is_bot in people if is_bot}
    expected = _git_facts(repos, email_to_person)
    raw_lines = {pid: (a, d) for pid, a, d in monthly}

    index = json.loads((data / "exports" / "index.json").read_text())
    exported = {entry["id"] for entry in index["profiles"]}
    assert exported == set(expected), "every human with commits has a profile, and no bot has one"
    assert not exported & bots

    validator = jsonschema.Draft202012Validator(load_schema())
    for pid, facts in expected.items():
        profile = json.loads((data / "exports" / "profiles" / f"{pid}.json").read_text())
        validator.validate(profile)
        assert profile["stats"]["commits"] == facts["commits"], pid
        assert profile["stats"]["activity_months"] == len(facts["months"]), pid
        assert profile["stats"]["repository_contributions"] == len(facts["repos"]), pid
        assert {m["month"] for m in profile["work_history"]} == facts["months"], pid
        assert sum(m["commits"] for m in profile["work_history"]) == facts["commits"], pid
        assert sum(profile["activity"].values()) == facts["commits"], pid
        assert raw_lines[pid] == (facts["added"], facts["deleted"]), pid
        # profile LOC leaves excluded files out, so it can only be smaller than git's raw total
        assert profile["stats"]["lines_of_code"]["added"] <= facts["added"], pid
        months = [m["month"] for m in profile["work_history"]]
        assert months == sorted(months, reverse=True), "work history is newest first"
        # work item ids (`<repo>@<sha>`) carry an '@'; an e-mail address never appears
        assert not re.search(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}", json.dumps(profile)), \
            "no e-mail in exports unless asked"


def test_demo_planted_facts_show_in_the_database(demo):
    root, repos = demo
    with duckdb.connect(str(root / "data" / "exceeds.duckdb"), read_only=True) as con:
        ai = dict(con.execute("select sha, ai_tool from commits where ai_tool is not null").fetchall())
        reverts = con.execute("select count(*) from commit_links where link_type = 'reverts'").fetchone()[0]
        relands = con.execute("select count(*) from commit_links where link_type = 'relands'").fetchone()[0]
        bot_counted = con.execute("select count(*) from commits where is_bot and is_counted").fetchone()[0]
        categories = {r[0] for r in con.execute("select distinct category from counted_commits").fetchall()}
    planted_ai = {sha: tool for repo in repos for sha, tool in repo.ai_commits.items()}
    assert ai == planted_ai
    assert reverts >= 1 and relands >= 1
    assert bot_counted == 0
    assert {"feature", "bug", "docs", "test", "refactor"} <= categories


def test_a_relanded_change_is_not_later_reverted_in_the_profile(demo):
    """mlkit's fused softmax kernel was reverted and relanded: one feature, landed in the end."""
    root, _ = demo
    profile = json.loads((root / "data" / "exports" / "profiles" / "priya-natarajan.json").read_text())
    items = [i for m in profile["work_history"] for i in m["key_features"]
             if "fused softmax" in i["title"].lower()]
    assert len(items) == 1
    assert items[0].get("relanded_by") and not items[0].get("reverted_by")
