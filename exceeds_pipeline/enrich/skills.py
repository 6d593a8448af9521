"""Technical skills per commit, from a YAML rules file users can extend without code.

The rules ship as ``skills.yaml`` next to this module; its header documents the format, glob
syntax and merge semantics. :func:`load_skill_rules` reads it plus any user files on top, and
validates everything (:class:`SkillRulesError` names the file and the rule).

:func:`skills_per_commit` evaluates the rules over whole tables: path rules once per distinct
path, language rules once per distinct language, message rules as one regex per skill over the
message column; then a join back to commits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path

import polars as pl
import yaml

from exceeds_pipeline.classify.changelog import CHANGELOG_PATH
from exceeds_pipeline.common.globs import glob_to_regex
from exceeds_pipeline.common.yamlfile import load_yaml
from exceeds_pipeline.enrich.exclusions import SWEEP_FILES

__all__ = [
    "BUILTIN_RULES_RESOURCE",
    "SkillRule",
    "SkillRules",
    "SkillRulesError",
    "glob_to_regex",
    "load_skill_rules",
    "parse_skill_rules",
    "message_prose",
    "person_skills",
    "skills_per_commit",
]

BUILTIN_RULES_RESOURCE = "skills.yaml"

_LIST_KEYS = ("paths", "path_regex", "languages", "message_terms", "message_regex", "subject_terms", "imports",
              "code_terms")
_RULE_KEYS = frozenset(("name", "description", "replace", "enabled", "build_work", "practice", *_LIST_KEYS))
_TOP_KEYS = frozenset(("version", "skills"))


class SkillRulesError(ValueError):
    """A skills rules file is malformed; the message names the file and the rule."""


@dataclass(frozen=True)
class SkillRule:
    name: str
    description: str = ""
    paths: tuple[str, ...] = ()
    path_regex: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    message_terms: tuple[str, ...] = ()
    message_regex: tuple[str, ...] = ()
    subject_terms: tuple[str, ...] = ()
    imports: tuple[str, ...] = ()
    code_terms: tuple[str, ...] = ()
    build_work: bool = False  # the words of a change only to build/CI files can show it
    practice: bool = False  # a way of working every project has (testing), not a domain
    sources: tuple[str, ...] = ()  # files that defined or extended this rule

    @property
    def path_pattern(self) -> str | None:
        """One regex over the path for all globs and path regexes, or None."""
        parts = [glob_to_regex(g) for g in self.paths] + [f"(?:{r})" for r in self.path_regex]
        return "|".join(parts) if parts else None

    @property
    def message_pattern(self) -> str | None:
        """One regex over the message for all terms and message regexes, or None."""
        parts = []
        if self.message_terms:
            parts.append(_terms_regex(self.message_terms))
        parts += [f"(?:{r})" for r in self.message_regex]
        return "|".join(parts) if parts else None

    @property
    def subject_pattern(self) -> str | None:
        return _terms_regex(self.subject_terms) if self.subject_terms else None

    @property
    def import_pattern(self) -> str | None:
        """Over newline-joined imported modules: a module or anything below it."""
        return _prefix_regex(self.imports) if self.imports else None

    @property
    def code_pattern(self) -> str | None:
        """Over newline-joined API names used by added lines: a name or anything below it."""
        return _prefix_regex(self.code_terms) if self.code_terms else None


@dataclass(frozen=True)
class SkillRules:
    rules: tuple[SkillRule, ...]
    sources: tuple[str, ...] = field(default=())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.rules)

    def __getitem__(self, name: str) -> SkillRule:
        for r in self.rules:
            if r.name == name:
                return r
        raise KeyError(name)


# ---------------------------------------------------------------------------------------------
# Globs and terms -> regexes (Rust regex syntax, as Polars uses)


def _terms_regex(terms: Iterable[str]) -> str:
    """Whole-word, case-insensitive alternation of literal terms."""
    parts = []
    for term in sorted(set(terms), key=lambda t: (-len(t), t)):
        lead = r"(?-u:\b)" if re.match(r"\w", term[0]) else ""
        tail = r"(?-u:\b)" if re.match(r"\w", term[-1]) else ""
        parts.append(lead + re.escape(term) + tail)
    return "(?i:" + "|".join(parts) + ")"


def _prefix_regex(names: Iterable[str]) -> str:
    """Whole lines equal to a name or starting with it plus '.', '/' or '::'."""
    alts = "|".join(re.escape(n) for n in sorted(set(names), key=lambda t: (-len(t), t)))
    return f"(?m)^(?:{alts})(?:[./:]|$)"


def _check_regex(pattern: str) -> None:
    """Raise ValueError if Polars (Rust regex) cannot compile ``pattern``."""
    try:
        pl.Series([""], dtype=pl.String).str.contains(pattern)
    except Exception as exc:  # polars raises ComputeError; keep the message
        raise ValueError(f"invalid regex {pattern!r}: {exc}".splitlines()[0]) from None


# ---------------------------------------------------------------------------------------------
# Loading and validation


def _fail(source: str, where: str, message: str) -> SkillRulesError:
    return SkillRulesError(f"{source}: {where}: {message}")


def _string_list(value, source: str, where: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        raise _fail(source, where, f"'{key}' must be a list of strings, not a single string (write [{value!r}])")
    if not isinstance(value, list):
        raise _fail(source, where, f"'{key}' must be a list of strings, got {type(value).__name__}")
    out = []
    for item in value:
        if not isinstance(item, str) or not item.strip():
            raise _fail(source, where, f"'{key}' must contain non-empty strings, got {item!r}")
        out.append(item.strip() if key in ("languages", "message_terms", "subject_terms", "imports", "code_terms") else item)
    return tuple(out)


def _parse_rule(raw, index: int, source: str) -> tuple[SkillRule, bool, bool]:
    where = f"skills[{index}]"
    if not isinstance(raw, Mapping):
        raise _fail(source, where, f"each rule must be a mapping, got {type(raw).__name__}")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail(source, where, "rule needs a non-empty string 'name'")
    name = name.strip()
    where = f"skills[{index}] ({name!r})"
    unknown = sorted(set(map(str, raw)) - _RULE_KEYS)
    if unknown:
        raise _fail(source, where, f"unknown key(s) {unknown}; allowed: {sorted(_RULE_KEYS)}")
    flags = {}
    for key, default in (("replace", False), ("enabled", True), ("build_work", False), ("practice", False)):
        value = raw.get(key, default)
        if not isinstance(value, bool):
            raise _fail(source, where, f"'{key}' must be true or false, got {value!r}")
        flags[key] = value
    description = raw.get("description", "")
    if description is None:
        description = ""
    if not isinstance(description, str):
        raise _fail(source, where, "'description' must be a string")
    lists = {}
    for key in _LIST_KEYS:
        value = raw.get(key)
        lists[key] = () if value is None else _string_list(value, source, where, key)
    for glob in lists["paths"]:
        try:
            _check_regex(glob_to_regex(glob))
        except ValueError as exc:
            raise _fail(source, where, f"paths: {exc}") from None
    for key in ("path_regex", "message_regex"):
        for pattern in lists[key]:
            try:
                _check_regex(pattern)
            except ValueError as exc:
                raise _fail(source, where, f"{key}: {exc}") from None
    rule = SkillRule(name=name, description=description, sources=(source,), build_work=flags["build_work"],
                     practice=flags["practice"], **lists)
    return rule, flags["replace"], flags["enabled"]


def parse_skill_rules(text: str, source: str, base: SkillRules | None = None) -> SkillRules:
    """Parse one rules document (``source`` names it in errors) and merge it onto ``base``."""
    try:
        doc = load_yaml(text)
    except yaml.YAMLError as exc:
        raise SkillRulesError(f"{source}: not valid YAML: {exc}") from None
    if doc is None:
        doc = {}
    if not isinstance(doc, Mapping):
        raise SkillRulesError(f"{source}: top level must be a mapping with a 'skills' list")
    unknown = sorted(set(map(str, doc)) - _TOP_KEYS)
    if unknown:
        raise SkillRulesError(f"{source}: unknown top-level key(s) {unknown}; allowed: {sorted(_TOP_KEYS)}")
    version = doc.get("version", 1)
    if version != 1:
        raise SkillRulesError(f"{source}: unsupported version {version!r}; only 1 exists")
    raw_rules = doc.get("skills") or []
    if not isinstance(raw_rules, list):
        raise SkillRulesError(f"{source}: 'skills' must be a list of rules")

    merged: dict[str, SkillRule] = {r.name: r for r in (base.rules if base else ())}
    seen: set[str] = set()
    for index, raw in enumerate(raw_rules):
        rule, replace_flag, enabled = _parse_rule(raw, index, source)
        if rule.name in seen:
            raise _fail(source, f"skills[{index}] ({rule.name!r})", "skill defined twice in this file")
        seen.add(rule.name)
        if not enabled:
            merged.pop(rule.name, None)
            continue
        old = merged.get(rule.name)
        if old is None or replace_flag:
            if not any(getattr(rule, k) for k in _LIST_KEYS):
                raise _fail(source, f"skills[{index}] ({rule.name!r})",
                            f"rule has no matchers; give at least one of {list(_LIST_KEYS)}")
            # `replace` drops the old rule's matchers, not what kind of skill it is
            merged[rule.name] = rule if old is None else replace(
                rule, description=rule.description or old.description, build_work=old.build_work or rule.build_work,
                practice=old.practice or rule.practice, sources=old.sources + (source,))
            continue
        merged[rule.name] = replace(
            old,
            description=rule.description or old.description,
            build_work=old.build_work or rule.build_work,
            practice=old.practice or rule.practice,
            sources=old.sources + (source,),
            **{k: tuple(dict.fromkeys(getattr(old, k) + getattr(rule, k))) for k in _LIST_KEYS},
        )
    sources = (base.sources if base else ()) + (source,)
    return SkillRules(rules=tuple(merged.values()), sources=sources)


@cache
def _builtin_rules() -> SkillRules:
    # parsed once per process: the profiles' narrative and the commit_skills asset both ask
    builtin = resources.files("exceeds_pipeline.enrich").joinpath(BUILTIN_RULES_RESOURCE)
    return parse_skill_rules(builtin.read_text(encoding="utf-8"), f"<builtin {BUILTIN_RULES_RESOURCE}>")


def load_skill_rules(extra_paths: Iterable[Path | str] = ()) -> SkillRules:
    """The shipped rules (``skills.yaml``) with each file of ``extra_paths`` merged on top."""
    rules = _builtin_rules()
    for path in extra_paths:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SkillRulesError(f"{path}: cannot read skills rules file: {exc.strerror or exc}") from None
        rules = parse_skill_rules(text, str(path), base=rules)
    return rules


# ---------------------------------------------------------------------------------------------
# Evaluation

_PAIR_SCHEMA = {"repo": pl.String, "sha": pl.String, "skill": pl.String}


def _matches(values: pl.DataFrame, column: str, patterns: list[tuple[str, str]]) -> pl.DataFrame:
    """``values`` (one column) x rules -> rows [column, skill] where the skill's regex matches."""
    if values.height == 0 or not patterns:
        return pl.DataFrame(schema={column: pl.String, "skill": pl.String})
    flags = values.with_columns(
        pl.col(column).fill_null("").str.contains(pattern).alias(f"s{i}") for i, (_, pattern) in enumerate(patterns)
    )
    names = {f"s{i}": skill for i, (skill, _) in enumerate(patterns)}
    return (
        flags.unpivot(index=column, variable_name="flag", value_name="hit")
        .filter(pl.col("hit"))
        .select(column, pl.col("flag").replace_strict(names, return_dtype=pl.String).alias("skill"))
    )


# What in a commit message is not prose, so not evidence of a skill (SPEC §5): links, trailers,
# fenced and indented code, inline code, quoted logs and tracebacks, console prompts, and
# code-looking tokens (calls `x.cuda()`, dotted names `docs.python.org`, `torch.cuda`).
_NOT_PROSE = (
    r"(?s)```.*?(?:```|$)",  # fenced code blocks
    r"`[^`\n]*`",  # inline code
    r"(?m)^(?:    |\t).*$",  # indented blocks (code, logs)
    r"(?m)^\s*(?:>|\$ |>>>|\.\.\. |#|//|Traceback|File \"|\[\d|E +|[A-Za-z_.]*(?:Error|Exception|Warning):).*$",
    r"(?m)^[A-Za-z][A-Za-z0-9-]*(?: [A-Za-z][A-Za-z0-9-]*){0,3}:[ \t]*(?:\S*(?:https?://|@|[0-9a-f]{7,}|\bD\d+|#\d+)\S*[ ,]*)+$",
    r"(?m)^(?:Signed-off-by|Co-authored-by|Reviewed-by|Acked-by|Tested-by|Reported-by|Suggested-by|Helped-by|"
    r"Cc|Change-Id|ghstack-source-id|ghstack dependencies|fbshipit-source-id|Differential Revision|"
    r"Pull Request resolved|Approved by|Reviewed By|X-link|Test Plan|Reviewers|Subscribers|Tasks|Tags|Bug|"
    r"Fixes|Closes|Refs|See-also|Link)\b.*$",
    r"(?i)\b(?:https?|ftp)://\S+|\bwww\.\S+|\S+@\S+\.\w+",  # links and e-mail addresses
    # a directive to the CI, not CI work (lodash's `[ci skip]` on 919 of its author's commits;
    # categories.CI_DIRECTIVE, written out: categories reads enrich)
    r"(?i)\[(?:ci[\s-]*skip|skip[\s-]*ci|no[\s-]*ci|skip\s+actions)\]|\*\*\*NO_CI\*\*\*",
    # names of things that read as a skill's word: a compiler's "ui tests" (its expected
    # messages; serde's "Update ui tests to nightly-...", 44 commits, had made David Tolnay a
    # frontend developer) and Rust's Debug trait ("Implement Debug for public types")
    r"(?i)\bui[\s-]+tests?(?:[\s-]+suite)?\b"
    r"|(?-i:\b(?:[Ii]mpl(?:ement(?:s|ed|ing)?)?|[Dd]erive[sd]?|fmt::)\s*Debug\b|\bDebug\s+(?:impls?|trait|and\s+Display|for)\b"
    r"|\b(?:Display|Clone)\s+and\s+Debug\b)",
    r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*\([^()\n]*\)",  # calls
    r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+",  # dotted names, domains
    r"(?m)^.*(?: = |==|!=|\+=|->|=>|::|;\s*$|\{\s*$).*$",  # code-looking lines
)


_CODE_TOKENS = 3  # the last patterns: calls, dotted names, code-looking lines


def message_prose(message: pl.Expr, code_tokens: bool = True) -> pl.Expr:
    """The prose of a commit message: :data:`_NOT_PROSE` removed (Polars expression). With
    ``code_tokens=False`` calls, dotted names and code-looking lines stay (for message_regex
    rules, which anchor on forms such as ``test(parser):``)."""
    out = message.fill_null("")
    for pattern in _NOT_PROSE if code_tokens else _NOT_PROSE[:-_CODE_TOKENS]:
        out = out.str.replace_all(pattern, " ")
    return out


def _repo_words(repo: str) -> list[str]:
    """Words of the repository's own name (`pytorch/benchmark` -> pytorch, benchmark): every
    commit of a repository names it, in links and prose alike, so they are no evidence."""
    return sorted({w for w in re.split(r"[^A-Za-z0-9]+", repo.lower()) if len(w) >= 3})


def _without_repo_words(frame: pl.DataFrame, column: str) -> pl.DataFrame:
    parts = []
    for (repo,), group in frame.group_by("repo", maintain_order=True):
        words = _repo_words(repo or "")
        if words:
            pattern = "(?i)(?-u:\\b)(?:" + "|".join(re.escape(w) for w in words) + ")(?-u:\\b)"
            group = group.with_columns(pl.col(column).str.replace_all(pattern, " "))
        parts.append(group)
    return pl.concat(parts) if parts else frame


def _flag_pairs(frame: pl.DataFrame, column: str, patterns: list[tuple[str, str]]) -> pl.DataFrame | None:
    if not patterns or frame.height == 0:
        return None
    flags = frame.select(
        "repo", "sha", *(pl.col(column).str.contains(p).alias(f"s{i}") for i, (_, p) in enumerate(patterns))
    )
    names = {f"s{i}": skill for i, (skill, _) in enumerate(patterns)}
    return (
        flags.unpivot(index=["repo", "sha"], variable_name="flag", value_name="hit")
        .filter(pl.col("hit"))
        .select("repo", "sha", pl.col("flag").replace_strict(names, return_dtype=pl.String).alias("skill"))
    )


def skills_per_commit(
    commits: pl.DataFrame,
    file_changes: pl.DataFrame,
    rules: SkillRules,
    code_evidence: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """``[repo, sha, skills: List(String)]``: one row per row of ``commits``, in its order.

    ``commits`` needs ``repo``, ``sha`` and ``message`` (``subject`` is used if ``message`` is
    absent). ``file_changes`` needs ``repo``, ``sha``, ``path``, ``language`` and ``excluded``;
    excluded files and changelog entries give no skills. ``code_evidence`` (optional, from
    :func:`exceeds_pipeline.enrich.code_evidence.code_evidence`: ``repo, sha, imports,
    code_terms``) lets ``imports`` and ``code_terms`` rules see what the added lines use.
    Message terms match the message's prose only (:func:`message_prose`), never the words of
    the repository's own name, and not for a commit whose ``category`` (when given) is build;
    ``subject_terms`` match the subject line only. A commit of SWEEP_FILES files or more, or of
    category chore, shows no skill by its files, and a revert or a commit of vendored files
    only (``exclusion_reason``, when given) none at all. Skills are sorted
    by name; a commit without any has ``[]``.
    """
    from exceeds_pipeline.classify.categories import BUILD_PATH, DOCS_PATH, DOCS_TREE, TEST_PATH  # (categories reads enrich's exclusions)

    keys = commits.select("repo", "sha")
    pairs: list[pl.DataFrame] = []

    # --- files: paths and languages, each evaluated once per distinct value -----------------
    # a changelog entry records the change; writing one is no documentation skill
    # Data and prose files are left out of lines of code, not out of what a person worked on: a
    # CI workflow (YAML) shows CI/CD, a page (Markdown) Documentation (vue: 12 of Evan You's items
    # edit .github/workflows, CI/CD had shown 1).
    written = pl.col("exclusion_reason").is_in(["data_file", "prose_file"]).fill_null(False) \
        if "exclusion_reason" in file_changes.columns else pl.lit(False)
    files = file_changes.filter((~pl.col("excluded").fill_null(False) | written) & ~pl.col("path").str.contains(CHANGELOG_PATH)) \
        .select("repo", "sha", "path", "language")
    # A sweep over the tree (a formatter run, a package renamed, a directory moved) touches every
    # area and shows none: jinja's "apply black" and "rename directory to jinja" made David Lord
    # a Caching and a Web Frameworks person. Its files are no evidence (its words and code may be).
    sweeps = files.group_by("repo", "sha").len().filter(pl.col("len") >= SWEEP_FILES).select("repo", "sha")
    # ... and so does housekeeping (a linter's findings fixed across modules, a release): jinja's
    # "fix ruff pyupgrade findings" (21 files) gave May 2025 Caching, Concurrency and Debugging
    if "category" in commits.columns:
        sweeps = pl.concat([sweeps, commits.filter(pl.col("category") == "chore").select("repo", "sha")])
    files = files.join(sweeps, on=["repo", "sha"], how="anti")
    path_rules = [(r.name, r.path_pattern) for r in rules.rules if r.path_pattern]
    path_hits = _matches(files.select("path").unique(), "path", path_rules)
    # A build file's name says what the build checks for, not what the person built (jq's
    # m4/ax_pthread.m4, changed to fix autoreconf warnings, is no concurrency work): it shows
    # only the skills of such work (`build_work`).
    build_skills = [r.name for r in rules.rules if r.build_work]
    path_hits = path_hits.filter(~pl.col("path").str.contains(BUILD_PATH) | pl.col("skill").is_in(build_skills))
    # ... and a page or an example names what it shows, not what its writer built (express's
    # examples/auth/ had made "examples: use strict mode" Security work): in a documentation tree
    # a path shows only a practice (Documentation, Testing)
    practices = [r.name for r in rules.rules if r.practice]
    path_hits = path_hits.filter(~pl.col("path").str.contains(DOCS_TREE) | pl.col("skill").is_in(practices))
    if path_hits.height:
        pairs.append(files.join(path_hits, on="path").select(_PAIR_SCHEMA.keys()))
    lang_rows = [(lang.lower(), r.name) for r in rules.rules for lang in r.languages]
    if lang_rows:
        lang_skills = pl.DataFrame(lang_rows, schema={"lang": pl.String, "skill": pl.String}, orient="row")
        # the language of a file in a documentation tree is no skill: curl's docs/*.html pages,
        # retrofit's website/ are no frontend work (the Documentation rule's paths take the tree); nor is it in a
        # test tree: lodash's test/index.html, the page its tests run in, made 233 of John-David
        # Dalton's items frontend work (the Testing rule's paths take the tree)
        pairs.append(
            files.filter(~pl.col("path").str.contains(DOCS_TREE) & ~pl.col("path").str.contains(TEST_PATH))
            .with_columns(pl.col("language").str.to_lowercase().alias("lang"))
            .join(lang_skills, on="lang")
            .select(_PAIR_SCHEMA.keys())
        )

    # --- messages: prose only, repository name words removed --------------------------------
    text_col = "message" if "message" in commits.columns else "subject"
    msg_rules = [(r.name, _terms_regex(r.message_terms)) for r in rules.rules if r.message_terms]
    re_rules = [(r.name, "|".join(f"(?:{x})" for x in r.message_regex)) for r in rules.rules if r.message_regex]
    subj_rules = [(r.name, r.subject_pattern) for r in rules.rules if r.subject_pattern]
    if (msg_rules or subj_rules or re_rules) and commits.height:
        messages = commits.select(
            "repo", "sha",
            message_prose(pl.col(text_col)).alias("text"),
            message_prose(pl.col(text_col), code_tokens=False).alias("raw"),
            message_prose(pl.col(text_col).fill_null("").str.split("\n").list.first()).alias("subj"),
        )
        messages = _without_repo_words(_without_repo_words(messages, "text"), "subj")
        # The words of a build practice (CI/CD, build systems) show it only in a change to build
        # or CI files (or files of its paths), where the files are known: phoenix's "Fix CI",
        # templates reformatted and no CI file touched, is no CI/CD work. (A tool's words still
        # show it: phoenix's generator that picks the best Docker image is Docker.)
        build_practices = [r.name for r in rules.rules if r.build_work and r.practice]
        path = pl.col("path").fill_null("")
        build_file = pl.any_horizontal(path.str.contains(BUILD_PATH),
                                       *(path.str.contains(pattern) for name, pattern in path_rules if name in build_practices))
        per_commit = file_changes.group_by("repo", "sha").agg(
            build_file.any().alias("_b"), (build_file | path.str.contains(DOCS_PATH)).all().alias("_only_build"))
        no_build_file = per_commit.filter(~pl.col("_b")).select("repo", "sha")
        # ... and a change only to build and CI configuration says what that configuration does,
        # not what the person built (click: 'cache mypy in ci' is no caching work, 'add lock
        # threads workflow' no concurrency): its words show only the skills of such work
        # (`build_work`); so does a change of build files with a page at most, whatever its
        # category (click's "fix azure config" of .azure-pipelines.yml and the README)
        only_build_files = per_commit.filter(pl.col("_b") & pl.col("_only_build")).select("repo", "sha")
        build_only = pl.concat([commits.filter(pl.col("category") == "build").select("repo", "sha"), only_build_files]).unique() \
            if "category" in commits.columns else only_build_files
        for found in (_flag_pairs(messages, "text", msg_rules), _flag_pairs(messages, "subj", subj_rules),
                      _flag_pairs(messages, "raw", re_rules)):
            if found is not None:
                if build_only is not None and build_only.height:
                    found = pl.concat([
                        found.join(build_only, on=["repo", "sha"], how="anti"),
                        found.join(build_only, on=["repo", "sha"], how="semi").filter(pl.col("skill").is_in(build_skills)),
                    ])
                found = found.join(no_build_file.with_columns(pl.lit(True).alias("_nb")), on=["repo", "sha"], how="left") \
                    .filter(~(pl.col("_nb").fill_null(False) & pl.col("skill").is_in(build_practices))).drop("_nb")
                pairs.append(found)

    # --- code: what the added lines import and use -------------------------------------------
    if code_evidence is not None and code_evidence.height:
        evidence = code_evidence.join(keys, on=["repo", "sha"], how="semi").select(
            "repo", "sha",
            pl.col("imports").list.join("\n").fill_null("").alias("imp"),
            pl.col("code_terms").list.join("\n").fill_null("").alias("api"),
        )
        for column, attr in (("imp", "import_pattern"), ("api", "code_pattern")):
            found = _flag_pairs(evidence, column, [(r.name, getattr(r, attr)) for r in rules.rules if getattr(r, attr)])
            if found is not None:
                pairs.append(found)

    if pairs and "category" in commits.columns:
        # a revert undoes a change: it shows no skill of its own
        reverts = commits.filter(pl.col("category") == "revert").select("repo", "sha")
        pairs = [p.join(reverts, on=["repo", "sha"], how="anti") for p in pairs]
    if pairs and "exclusion_reason" in file_changes.columns:
        # a copy of another project dropped in (requests' "Vendor idna v2.1", "Update urllib3 to
        # 1.19": every file under requests/packages/) is that project's work: its words and
        # code show no skill of the person who updated it
        vendoring = (file_changes.join(keys, on=["repo", "sha"], how="semi")
                     .group_by("repo", "sha").agg((pl.col("exclusion_reason") == "vendored").fill_null(False).all().alias("_v"))
                     .filter(pl.col("_v")).select("repo", "sha"))
        pairs = [p.join(vendoring, on=["repo", "sha"], how="anti") for p in pairs]
    if pairs:
        per_commit = (
            pl.concat([p.cast(_PAIR_SCHEMA) for p in pairs])
            .unique()
            .group_by("repo", "sha")
            .agg(pl.col("skill").sort().alias("skills"))
        )
    else:
        per_commit = pl.DataFrame(schema={"repo": pl.String, "sha": pl.String, "skills": pl.List(pl.String)})
    return keys.join(per_commit, on=["repo", "sha"], how="left", maintain_order="left").with_columns(
        pl.col("skills").fill_null(pl.lit([], dtype=pl.List(pl.String)))
    )


def person_skills(
    commit_skills: pl.DataFrame, commits: pl.DataFrame, max_examples: int = 3
) -> pl.DataFrame:
    """``[person_id, skill, commits, work_items, examples]`` over counted commits: how many
    commits and work items show the skill, and up to ``max_examples`` work item ids (largest
    number of the person's commits first, then id), the skill of most work items first per person."""
    counted = commits.filter(pl.col("is_counted").fill_null(False)) if "is_counted" in commits.columns else commits
    rows = (
        commit_skills.select("repo", "sha", "skills")
        .join(counted.select("repo", "sha", "person_id",
                             pl.coalesce(pl.col("work_item_id"), pl.col("repo") + pl.lit("@") + pl.col("sha").str.slice(0, 12)).alias("item")),
              on=["repo", "sha"])
        .explode("skills", empty_as_null=False).drop_nulls("skills").rename({"skills": "skill"})
    )
    per_item = rows.group_by("person_id", "skill", "item").agg(pl.len().alias("n"))
    return (
        per_item.sort(["person_id", "skill", "n", "item"], descending=[False, False, True, False])
        .group_by("person_id", "skill", maintain_order=True)
        .agg(pl.col("n").sum().alias("commits"), pl.len().alias("work_items"),
             pl.col("item").head(max_examples).alias("examples"))
        .sort(["person_id", "work_items", "commits", "skill"], descending=[False, True, True, False])
    )
