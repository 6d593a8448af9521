"""Declared AI assistance on a commit: which AI coding tool, from markers the tools write.

Only explicit, tool-written markers count: exact e-mail addresses (GitHub bot accounts with their
numeric ids, the tools' no-reply addresses), the tools' own trailer and signature texts, and
aider's documented name/subject conventions. A bare word such as "Claude", "Copilot" or
"cursor" in prose never counts.

Marker kinds (:data:`MARKER_KINDS`); e-mail comparisons ignore case, texts are matched exactly:

- ``coauthor_email``: a ``Co-authored-by:`` trailer line (any case, at the start of a line)
  whose address in ``<...>`` is exactly the pattern.
- ``identity_email``: the author or committer e-mail is exactly the pattern.
- ``identity_name_suffix``: the author or committer name ends with the pattern.
- ``subject_prefix``: the subject starts with the pattern (case-sensitive).
- ``message_line_prefix``: some message line starts with the pattern (case-sensitive).
- ``message_text``: the message contains the pattern verbatim (used only for tool signatures
  with markdown link syntax, e.g. ``Generated with [Claude Code](``).
- ``statement``: a plain statement of AI authorship in the message, a *phrase* (verb +
  preposition + tool name + an end: "Authored with Claude.", "Generated with Codex", "Drafted
  via Codex", "with assistance from Claude Code"). The phrase grammar and tool names are data,
  in ``ai_statements.yaml`` next to this module (see its header); :func:`statement_regex` builds
  the regular expression. A bare tool name never counts.

Several tools on one commit: their names joined with ``", "`` in :data:`AI_TOOLS` order (the
order of the table). No marker: null.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import polars as pl

from exceeds_pipeline.common.yamlfile import load_yaml

STATEMENTS_FILE = Path(__file__).with_name("ai_statements.yaml")

__all__ = [
    "AI_TOOLS",
    "AI_TOOL_MARKERS",
    "AiToolMarker",
    "MARKER_KINDS",
    "detect_ai_tool",
    "statement_regex",
    "with_ai_tool",
]

MARKER_KINDS = (
    "coauthor_email",
    "identity_email",
    "identity_name_suffix",
    "subject_prefix",
    "message_line_prefix",
    "message_text",
    "statement",
)


@dataclass(frozen=True)
class AiToolMarker:
    tool: str
    kind: str
    pattern: str
    note: str = ""


def _gh_bot(user_id: int, login: str) -> str:
    """GitHub's no-reply address of an account: ``<id>+<login>@users.noreply.github.com``."""
    return f"{user_id}+{login}@users.noreply.github.com"


_M = AiToolMarker
AI_TOOL_MARKERS: tuple[AiToolMarker, ...] = (
    # --- Claude Code / Claude GitHub app --------------------------------------------------
    _M("Claude Code", "coauthor_email", "noreply@anthropic.com",
       "Claude Code's default trailer: Co-Authored-By: Claude <noreply@anthropic.com>"),
    _M("Claude Code", "identity_email", "noreply@anthropic.com",
       "Claude Code committing as its own author: Claude <noreply@anthropic.com>"),
    _M("Claude Code", "message_text", "Generated with [Claude Code](",
       "Claude Code's signature line: 🤖 Generated with [Claude Code](https://claude.ai/code)"),
    _M("Claude Code", "identity_email", _gh_bot(209825114, "claude[bot]"), "Claude GitHub app"),
    _M("Claude Code", "coauthor_email", _gh_bot(209825114, "claude[bot]"), "Claude GitHub app"),
    # --- GitHub Copilot ---------------------------------------------------------------------
    _M("GitHub Copilot", "identity_email", _gh_bot(198982749, "Copilot"),
       "Copilot coding agent (copilot-swe-agent[bot]) as author"),
    _M("GitHub Copilot", "coauthor_email", _gh_bot(198982749, "Copilot"),
       "Co-authored-by: copilot-swe-agent[bot] on squash merges of agent PRs"),
    _M("GitHub Copilot", "identity_email", _gh_bot(175728472, "Copilot"),
       "Copilot account used for applied review suggestions and Copilot Autofix"),
    _M("GitHub Copilot", "coauthor_email", _gh_bot(175728472, "Copilot"),
       "Co-authored-by: Copilot <...> after applying Copilot review suggestions / Autofix"),
    _M("GitHub Copilot", "coauthor_email", _gh_bot(223556219, "Copilot"),
       "Co-authored-by trailer written by the Copilot CLI / app"),
    # (svelte: `Co-authored-by: Copilot Autofix powered by AI <62310815+github-advanced-security[bot]@...>`,
    # an Autofix suggestion for a code-scanning alert applied; the bot alone, as author, is no AI)
    _M("GitHub Copilot", "coauthor_email", _gh_bot(62310815, "github-advanced-security[bot]"),
       "Co-authored-by: Copilot Autofix powered by AI, the code-scanning account"),
    # --- Cursor -------------------------------------------------------------------------------
    _M("Cursor", "identity_email", "cursoragent@cursor.com", "Cursor background/cloud agent"),
    _M("Cursor", "coauthor_email", "cursoragent@cursor.com",
       "Co-authored-by: Cursor <cursoragent@cursor.com> (also 'Cursor Agent')"),
    # --- Aider --------------------------------------------------------------------------------
    _M("Aider", "coauthor_email", "noreply@aider.chat",
       "Co-authored-by: aider (<model>) <noreply@aider.chat>"),
    _M("Aider", "identity_name_suffix", " (aider)",
       "aider's --attribute-author/--attribute-committer (on by default) append ' (aider)'"),
    _M("Aider", "subject_prefix", "aider: ", "aider's --attribute-commit-message-* prefix"),
    # --- Devin ----------------------------------------------------------------------------------
    _M("Devin", "identity_email", _gh_bot(158243242, "devin-ai-integration[bot]"), "Devin app"),
    _M("Devin", "coauthor_email", _gh_bot(158243242, "devin-ai-integration[bot]"),
       "Co-Authored-By: Devin <...devin-ai-integration[bot]...>"),
    _M("Devin", "message_text", "Generated with [Devin](", "Devin's signature line"),
    # --- OpenAI Codex -----------------------------------------------------------------------
    _M("OpenAI Codex", "identity_email", _gh_bot(199175422, "chatgpt-codex-connector[bot]"),
       "Codex cloud GitHub connector"),
    _M("OpenAI Codex", "coauthor_email", _gh_bot(199175422, "chatgpt-codex-connector[bot]"),
       "Co-authored-by: chatgpt-codex-connector[bot] / Codex"),
    # --- Jules ------------------------------------------------------------------------------------
    _M("Jules", "identity_email", _gh_bot(161369871, "google-labs-jules[bot]"), "Jules app"),
    _M("Jules", "coauthor_email", _gh_bot(161369871, "google-labs-jules[bot]"),
       "Co-authored-by: google-labs-jules[bot]"),
    # --- Gemini Code Assist ---------------------------------------------------------------------
    _M("Gemini Code Assist", "identity_email", _gh_bot(176961590, "gemini-code-assist[bot]"),
       "Gemini Code Assist app"),
    _M("Gemini Code Assist", "coauthor_email", _gh_bot(176961590, "gemini-code-assist[bot]"),
       "Co-authored-by: gemini-code-assist[bot] after applying its review suggestions"),
    # --- Amazon Q Developer -------------------------------------------------------------------
    _M("Amazon Q", "identity_email", _gh_bot(208079219, "amazon-q-developer[bot]"),
       "Amazon Q Developer app"),
    _M("Amazon Q", "coauthor_email", _gh_bot(208079219, "amazon-q-developer[bot]"),
       "Co-authored-by: amazon-q-developer[bot]"),
    # --- Replit Agent -----------------------------------------------------------------------
    _M("Replit", "message_line_prefix", "Replit-Commit-Author: Agent",
       "trailer Replit writes on Agent checkpoints"),
    _M("Replit", "message_line_prefix", "Replit-Commit-Author: Assistant",
       "trailer Replit writes on Assistant edits"),
    # --- OpenHands ----------------------------------------------------------------------------
    _M("OpenHands", "identity_email", "openhands@all-hands.dev", "OpenHands agent identity"),
    _M("OpenHands", "coauthor_email", "openhands@all-hands.dev",
       "Co-authored-by: openhands <openhands@all-hands.dev>"),
)
del _M


@lru_cache(maxsize=4)
def _statement_data(path: str = str(STATEMENTS_FILE)) -> dict:
    return load_yaml(Path(path))


def _words(items) -> str:
    # Longest first so that "Claude Code" wins over "Claude"; spaces match any blank run.
    return "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in sorted(items, key=len, reverse=True))


def statement_regex(tool: str, data: dict | None = None) -> str | None:
    """The (Rust-regex) pattern of plain authorship statements naming ``tool``, or None."""
    data = data or _statement_data()
    names = [t["name"] for t in data["tools"] if t["tool"] == tool]
    if not names:
        return None
    verbs, preps = _words(data["verbs"]), _words(data["prepositions"])
    helps, conts = _words(data["help_forms"]), _words(data["continuations"])
    lead = (
        rf"(?i:\b(?:{verbs})[ \t]+(?:{preps})[ \t]+(?:(?:the[ \t]+)?(?:{helps})[ \t]+)?"
        rf"|\b(?:with|by|through)[ \t]+(?:the[ \t]+)?(?:{helps})[ \t]+)"
    )
    # (or one of the tool's slash commands: coil's "Generated by ChatGPT codex `/init`.")
    end = rf"[ \t]*(?:$|[.,;:!)\]]|\([^)]|`/|(?i:(?:{conts}))(?:[ \t]|$))"
    return rf"(?m){lead}(?:{_words(names)}){end}"


_STATEMENT_TOOLS = tuple(dict.fromkeys(t["tool"] for t in _statement_data()["tools"]))
AI_TOOL_MARKERS = AI_TOOL_MARKERS + tuple(
    AiToolMarker(tool, "statement", statement_regex(tool), "plain statement (ai_statements.yaml)")
    for tool in _STATEMENT_TOOLS
)

for _marker in AI_TOOL_MARKERS:  # the table is data; keep it well-formed
    assert _marker.kind in MARKER_KINDS, _marker

# Tool names in priority order (order of first appearance in the table).
AI_TOOLS: tuple[str, ...] = tuple(dict.fromkeys(m.tool for m in AI_TOOL_MARKERS))


_COAUTHORS = "__coauthor_lines"
_SEPARATOR = ", "


def _col_or_null(columns: set[str], name: str) -> pl.Expr:
    return pl.col(name) if name in columns else pl.lit(None, dtype=pl.String)


def _coauthor_lines(commits: pl.DataFrame) -> pl.Series:
    """Per commit, its ``Co-authored-by:`` lines, lower-cased and joined by newlines ("" if none).

    A cheap literal pre-filter picks the few messages with such a trailer; the line-anchored
    regex then runs on those only (anchored case-insensitive regexes are slow on long texts).
    """
    if "message" not in commits.columns or commits.height == 0:
        return pl.Series(_COAUTHORS, [""] * commits.height, dtype=pl.String)
    message = commits.get_column("message").cast(pl.String).fill_null("")
    mask = message.str.contains("(?i)co-authored-by:")
    lines = (
        message.filter(mask)
        .str.extract_all(r"(?im)^[ \t]*co-authored-by:[^\n]*")
        .list.join("\n")
        .str.to_lowercase()
    )
    out = pl.Series(_COAUTHORS, [""] * commits.height, dtype=pl.String)
    return out.scatter(mask.arg_true(), lines) if lines.len() else out


def _tool_condition(markers: list[AiToolMarker], columns: set[str]) -> pl.Expr:
    message = _col_or_null(columns, "message").fill_null("")
    if "subject" in columns:
        subject = pl.col("subject").fill_null("")
    else:
        subject = message.str.extract(r"^([^\n]*)", 1).fill_null("")
    emails = [
        _col_or_null(columns, c).fill_null("").str.to_lowercase()
        for c in ("author_email", "committer_email")
    ]
    names = [_col_or_null(columns, c).fill_null("") for c in ("author_name", "committer_name")]

    conds: list[pl.Expr] = []
    by_kind: dict[str, list[str]] = {}
    for m in markers:
        by_kind.setdefault(m.kind, []).append(m.pattern)
    if addrs := by_kind.get("coauthor_email"):
        alternation = "|".join(re.escape(a.lower()) for a in addrs)
        conds.append(
            pl.col(_COAUTHORS).str.contains(
                rf"(?m)^[ \t]*co-authored-by:[^\n<]*<[ \t]*(?:{alternation})[ \t]*>"
            )
        )
    if addrs := by_kind.get("identity_email"):
        lowered = [a.lower() for a in addrs]
        conds.extend(e.is_in(lowered) for e in emails)
    for suffix in by_kind.get("identity_name_suffix", []):
        conds.extend(n.str.ends_with(suffix) for n in names)
    for prefix in by_kind.get("subject_prefix", []):
        conds.append(subject.str.starts_with(prefix))
    if prefixes := by_kind.get("message_line_prefix"):
        alternation = "|".join(re.escape(p) for p in prefixes)
        conds.append(message.str.contains(rf"(?:^|\n)[ \t]*(?:{alternation})"))
    for text in by_kind.get("message_text", []):
        conds.append(message.str.contains(text, literal=True))
    for pattern in by_kind.get("statement", []):
        conds.append(message.str.contains(pattern))
    return pl.any_horizontal(conds) if conds else pl.lit(False)


def _ai_tool_expr(columns: set[str]) -> pl.Expr:
    # "Tool A, Tool B, " -> "Tool A, Tool B"; string concatenation is much cheaper than lists.
    parts = [
        pl.when(_tool_condition([m for m in AI_TOOL_MARKERS if m.tool == tool], columns))
        .then(pl.lit(tool + _SEPARATOR))
        .otherwise(pl.lit(""))
        for tool in AI_TOOLS
    ]
    joined = pl.concat_str(parts).str.strip_suffix(_SEPARATOR)
    return pl.when(joined != "").then(joined).otherwise(pl.lit(None, dtype=pl.String)).alias("ai_tool")


def detect_ai_tool(commits: pl.DataFrame) -> pl.Series:
    """``ai_tool`` (String, null when no marker) for each commit, in row order.

    Reads ``message``, ``subject``, ``author_name``, ``author_email``, ``committer_name`` and
    ``committer_email`` where present (a missing column simply never matches; without
    ``subject`` the message's first line is used).
    """
    columns = set(commits.columns) - {_COAUTHORS}
    frame = commits.with_columns(_coauthor_lines(commits))
    if "message" in columns and frame.height:
        # The message markers are regexes, slow over long texts: one literal scan (Aho-Corasick)
        # finds the few messages that can match any of them; the others are blanked first.
        if "subject" not in columns:
            frame = frame.with_columns(pl.col("message").str.extract(r"^([^\n]*)", 1).alias("subject"))
            columns.add("subject")
        message = pl.col("message").cast(pl.String).fill_null("")
        frame = frame.with_columns(
            pl.when(message.str.contains_any(list(_message_literals()))).then(message)
            .otherwise(pl.lit("")).alias("message")
        )
    return frame.select(_ai_tool_expr(columns)).to_series()


@lru_cache(maxsize=1)
def _message_literals() -> tuple[str, ...]:
    """Texts at least one of which every message-based marker contains: the first word of
    each statement tool name (the names are case-sensitive) and of each message marker."""
    names = [t["name"] for t in _statement_data()["tools"]]
    patterns = [m.pattern for m in AI_TOOL_MARKERS if m.kind in ("message_line_prefix", "message_text")]
    return tuple(sorted({text.split()[0] for text in names + patterns}))


def with_ai_tool(commits: pl.DataFrame) -> pl.DataFrame:
    """``commits`` with an ``ai_tool`` column added (or replaced)."""
    return commits.with_columns(detect_ai_tool(commits))
