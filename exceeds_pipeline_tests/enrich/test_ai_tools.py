"""Declared AI-assistance markers: each tool, the negatives, and a real git round trip."""

from __future__ import annotations

import re

import polars as pl
import pytest

from exceeds_pipeline.enrich.ai_tools import (
    AI_TOOL_MARKERS,
    AI_TOOLS,
    MARKER_KINDS,
    detect_ai_tool,
    with_ai_tool,
)
from exceeds_pipeline.schemas import RAW_COMMITS_SCHEMA

HUMAN = ("Ada Lovelace", "ada@example.com")


def commit(message, author=HUMAN, committer=None):
    committer = committer or author
    return {
        "message": message,
        "subject": message.split("\n", 1)[0],
        "author_name": author[0],
        "author_email": author[1],
        "committer_name": committer[0],
        "committer_email": committer[1],
    }


def detect(*commits) -> list[str | None]:
    return detect_ai_tool(pl.DataFrame(list(commits))).to_list()


CASES = [
    # Claude Code
    ("Claude Code", commit("Add parser\n\nCo-Authored-By: Claude <noreply@anthropic.com>")),
    ("Claude Code", commit("Add parser\n\nco-authored-by: Claude Opus 4 <NoReply@Anthropic.com>")),
    ("Claude Code", commit("Add parser\n\n🤖 Generated with [Claude Code](https://claude.ai/code)")),
    ("Claude Code", commit("Add parser\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)")),
    ("Claude Code", commit("Fix", author=("claude[bot]", "209825114+claude[bot]@users.noreply.github.com"))),
    ("Claude Code", commit("Remove the atexit hook", author=("Claude", "noreply@anthropic.com"))),
    # GitHub Copilot
    ("GitHub Copilot", commit("Initial plan", author=("Copilot", "198982749+Copilot@users.noreply.github.com"))),
    ("GitHub Copilot", commit("Fix (#12)\n\n---------\n\nCo-authored-by: copilot-swe-agent[bot] "
                              "<198982749+Copilot@users.noreply.github.com>")),
    ("GitHub Copilot", commit("Apply suggestions from code review\n\n"
                              "Co-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>")),
    ("GitHub Copilot", commit("Fix alert\n\nCo-authored-by: Copilot Autofix powered by AI "
                              "<175728472+Copilot@users.noreply.github.com>")),
    ("GitHub Copilot", commit("generate markdown tables of CPU profiles (#18059)\n\n---------\n\nCo-authored-by: "
                              "Copilot Autofix powered by AI <62310815+github-advanced-security[bot]@users.noreply.github.com>")),
    # Cursor
    ("Cursor", commit("Refactor", author=("Cursor Agent", "cursoragent@cursor.com"))),
    ("Cursor", commit("Refactor\n\nCo-authored-by: Cursor <cursoragent@cursor.com>")),
    # Aider
    ("Aider", commit("aider: Add retry to the client")),
    ("Aider", commit("feat: add retry\n\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>")),
    ("Aider", commit("feat: add retry", author=("Ada Lovelace (aider)", "ada@example.com"))),
    ("Aider", commit("feat: add retry", committer=("Ada Lovelace (aider)", "ada@example.com"))),
    # Devin
    ("Devin", commit("Add docs", author=("devin-ai-integration[bot]",
                                         "158243242+devin-ai-integration[bot]@users.noreply.github.com"))),
    ("Devin", commit("Add docs\n\nCo-Authored-By: Devin <158243242+devin-ai-integration[bot]@users.noreply.github.com>")),
    ("Devin", commit("Add docs\n\nGenerated with [Devin](https://devin.ai)")),
    # OpenAI Codex
    ("OpenAI Codex", commit("Fix", author=("chatgpt-codex-connector[bot]",
                                           "199175422+chatgpt-codex-connector[bot]@users.noreply.github.com"))),
    ("OpenAI Codex", commit("Fix\n\nCo-authored-by: Codex <199175422+chatgpt-codex-connector[bot]@users.noreply.github.com>")),
    # Jules, Gemini Code Assist, Amazon Q
    ("Jules", commit("Speed up\n\nCo-authored-by: google-labs-jules[bot] "
                     "<161369871+google-labs-jules[bot]@users.noreply.github.com>")),
    ("Jules", commit("Speed up", author=("google-labs-jules[bot]",
                                         "161369871+google-labs-jules[bot]@users.noreply.github.com"))),
    ("Gemini Code Assist", commit("Apply suggestion\n\nCo-authored-by: gemini-code-assist[bot] "
                                  "<176961590+gemini-code-assist[bot]@users.noreply.github.com>")),
    ("Amazon Q", commit("Fix", author=("amazon-q-developer[bot]",
                                       "208079219+amazon-q-developer[bot]@users.noreply.github.com"))),
    # Replit, OpenHands
    ("Replit", commit("Update layout\n\nReplit-Commit-Author: Agent\nReplit-Commit-Session-Id: 1c2d\n")),
    ("Replit", commit("Update layout\n\nReplit-Commit-Author: Assistant\n")),
    ("OpenHands", commit("Fix\n\nCo-authored-by: openhands <openhands@all-hands.dev>")),
    # Plain statements (ai_statements.yaml)
    ("Claude Code", commit("Add parser\n\nAuthored with Claude.")),
    ("Claude Code", commit("Add parser\n\nGenerated with Claude Code")),
    ("Claude Code", commit("Add parser\n\nAuthored with assistance from Claude Code.")),
    ("Claude Code", commit("Add parser\n\nwith assistance from Claude Code")),
    ("Claude Code", commit("Add parser\n\nWritten using Claude Code (claude-opus-4)")),
    ("OpenAI Codex", commit("Add parser\n\nAuthored by Codex.")),
    ("OpenAI Codex", commit("Add parser\n\nGenerated with Codex")),
    ("OpenAI Codex", commit("Add parser\n\nDrafted via Codex, reviewed by me.")),
    ("OpenAI Codex", commit("Add README for AI tools. (#3132)\n\nThis gives more context. Generated by ChatGPT codex `/init`.")),
    ("GitHub Copilot", commit("Add parser\n\nWritten with the help of GitHub Copilot and tests.")),
    ("Cursor", commit("Add parser\n\nMade with Cursor.")),
    ("Devin", commit("Add parser\n\nCo-authored by Devin AI.")),
    ("ChatGPT", commit("Add parser\n\nDrafted with ChatGPT")),
    ("Windsurf", commit("Add parser\n\nGenerated using Windsurf.")),
]


@pytest.mark.parametrize(("tool", "row"), CASES, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CASES)])
def test_each_marker_family(tool, row):
    assert detect(row) == [tool]


def test_every_tool_has_a_test_case():
    assert {t for t, _ in CASES} == set(AI_TOOLS)


NEGATIVES = [
    "Ask Claude to review the parser next time",
    "Fix cursor position after paste",
    "Disable GitHub Copilot suggestions in the editor settings",
    "Document the aider: prefix used by some tools",  # prefix only counts at the start
    "Mention noreply@anthropic.com in the docs",  # address outside a trailer
    "See the thread\n\nCo-authored-by: Claude Shannon <claude@example.com>",
    "Pair work\n\nCo-authored-by: Alice <alice@example.com>",
    "Quote: not Co-authored-by: Claude <noreply@anthropic.com> here",  # not at line start
    "Reviewed-by: Claude <noreply@anthropic.com>",  # other trailers do not count
    "Co-authored-by: Copilot <99999999+Copilot@users.noreply.github.com>",  # unknown id
    # Bare tool names, look-alikes and people (plain statements need verb + preposition + tool).
    "Fix the cursor module: rows generated by cursor.fetchall()",
    "cursor: generated with cursor() helper",
    "Devin fixed the flaky test",
    "Authored by Devin Smith",
    "Co-authored by Devin",  # a first name, not the tool (the tool is 'Devin AI')
    "Reviewed with Jules",
    "Written by Claude Shannon in 1948",
    "Bug generated by Cursor pagination in the results view",
    "Add Codex support to the model registry",
    "Use Claude to summarise logs",
    "Authored with care",
    "Replit-Commit-Author: Human",
    "Subject\n\nAs Replit-Commit-Author: Agent said",  # not at line start
]


@pytest.mark.parametrize("message", NEGATIVES)
def test_prose_and_look_alikes_do_not_count(message):
    assert detect(commit(message)) == [None]


def test_identities_must_match_exactly():
    rows = [
        commit("x", author=("Claude", "claude@anthropic.com")),
        commit("x", author=("Cursor fan", "me@cursor.com")),
        commit("x", author=("Copilot", "copilot@github.com")),
        commit("x", author=("Aider Smith", "aider@example.com")),  # name does not END with ' (aider)'
        commit("x", author=("bot", "41898282+github-actions[bot]@users.noreply.github.com")),
    ]
    assert detect(*rows) == [None] * 5


def test_several_tools_join_in_table_order():
    row = commit(
        "Port kernel\n\nCo-authored-by: Cursor <cursoragent@cursor.com>\n"
        "Co-Authored-By: Claude <noreply@anthropic.com>",
        author=("Copilot", "198982749+Copilot@users.noreply.github.com"),
    )
    assert detect(row) == ["Claude Code, GitHub Copilot, Cursor"]
    assert AI_TOOLS.index("Claude Code") < AI_TOOLS.index("GitHub Copilot") < AI_TOOLS.index("Cursor")


def test_row_order_nulls_and_missing_columns():
    frame = pl.DataFrame(
        {"message": ["plain", None, "x\n\nCo-authored-by: Claude <noreply@anthropic.com>", "aider: y"]}
    )
    out = detect_ai_tool(frame)
    assert out.name == "ai_tool" and out.dtype == pl.String
    assert out.to_list() == [None, None, "Claude Code", "Aider"]  # subject falls back to line 1
    assert detect_ai_tool(pl.DataFrame(schema=RAW_COMMITS_SCHEMA)).len() == 0


def test_with_ai_tool_adds_or_replaces_the_column():
    frame = pl.DataFrame([commit("a"), commit("b\n\nCo-authored-by: Cursor <cursoragent@cursor.com>")])
    once = with_ai_tool(frame)
    assert once.columns == [*frame.columns, "ai_tool"]
    assert once["ai_tool"].to_list() == [None, "Cursor"]
    assert with_ai_tool(once).equals(once)


def test_marker_table_is_well_formed():
    assert set(AI_TOOLS) == {
        "Claude Code", "GitHub Copilot", "Cursor", "Aider", "Devin", "OpenAI Codex", "Jules",
        "Gemini Code Assist", "Amazon Q", "Replit", "OpenHands", "ChatGPT", "Windsurf",
    }
    github = re.compile(r"^\d+\+[A-Za-z0-9-]+(\[bot\])?@users\.noreply\.github\.com$")
    for marker in AI_TOOL_MARKERS:
        assert marker.kind in MARKER_KINDS
        assert marker.pattern.strip() and marker.note, marker
        if marker.kind == "statement":
            pl.Series([""]).str.contains(marker.pattern)  # a valid Rust regex
        if marker.pattern.endswith("@users.noreply.github.com"):
            assert github.match(marker.pattern), marker  # GitHub accounts always with their id


def test_trailer_read_back_from_a_real_git_repository(make_repo):
    repo = make_repo("ai")
    human = repo.commit("Add reader", author=HUMAN, files={"src/reader.py": "print('hi')\n"})
    assisted = repo.commit(
        "Add retries to the reader\n\nWrap the call in a retry loop.\n\n"
        "Co-authored-by: Claude <noreply@anthropic.com>\n"
        "Co-authored-by: Cursor Agent <cursoragent@cursor.com>\n",
        author=HUMAN,
        files={"src/reader.py": "print('hi')\nprint('retry')\n"},
    )
    bot = repo.commit(
        "Initial plan",
        author=("Copilot", "198982749+Copilot@users.noreply.github.com"),
        committer=("GitHub", "noreply@github.com"),
        files={"PLAN.md": "plan\n"},
    )
    aider = repo.commit(
        "aider: Add a README", author=("Ada Lovelace (aider)", "ada@example.com"), files={"README.md": "x\n"}
    )
    log = repo.git("log", "--reverse", "--format=%H%x00%an%x00%ae%x00%cn%x00%ce%x00%s%x00%B%x1e")
    rows = []
    for record in log.split("\x1e"):
        record = record.lstrip("\n")
        if not record:
            continue
        sha, an, ae, cn, ce, subject, body = record.split("\x00")
        rows.append(dict(sha=sha, author_name=an, author_email=ae, committer_name=cn,
                         committer_email=ce, subject=subject, message=body))
    frame = with_ai_tool(pl.DataFrame(rows))
    assert frame["sha"].to_list() == [human, assisted, bot, aider]
    assert "Co-authored-by: Claude <noreply@anthropic.com>" in frame["message"][1]  # git kept the trailer
    assert frame["ai_tool"].to_list() == [None, "Claude Code, Cursor", "GitHub Copilot", "Aider"]
