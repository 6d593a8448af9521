"""The YAML configuration (SPEC §3): loading, validation with messages that name the key.

Where things are:
- config file: `--config`, else env EXCEEDS_CONFIG, else `exceeds.yaml` at the project root;
- data dir: `--data-dir`, else env EXCEEDS_DATA_DIR, else `data/` at the project root.
"""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from exceeds_pipeline.ingest.gitcmd import redact
from exceeds_pipeline.ingest.repository import (
    _SCP_LIKE,
    asset_slug,
    name_from_path,
    name_from_url,
    validate_url,
)

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class ConfigError(ValueError):
    pass


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RepositoryConfig(_Strict):
    url: str | None = None
    path: str | None = None
    name: str | None = None
    branch: str | None = None
    _base_dir: Path | None = PrivateAttr(default=None)  # the config file's folder

    # Field validators, so that the message names the key (`repositories[0].url: ...`).
    @field_validator("url")
    @classmethod
    def _url(cls, url: str | None) -> str | None:
        if url:
            validate_url(url)
        return url

    @field_validator("branch")
    @classmethod
    def _branch(cls, branch: str | None) -> str | None:
        if branch is not None and (not branch.strip() or branch.startswith("-")):
            raise ValueError(f"branch {branch!r} is not a valid branch name")
        return branch

    @model_validator(mode="after")
    def _one_source(self) -> "RepositoryConfig":
        if bool(self.url) == bool(self.path):
            raise ValueError("give exactly one of `url` or `path`")
        if self.name is not None and not _valid_name(self.name):
            raise ValueError(f"name {self.name!r} must be printable text without '...'")
        return self

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        return name_from_url(self.url) if self.url else name_from_path(self.path or "", self._base_dir)


def _valid_name(name: str) -> bool:
    return bool(name.strip()) and "..." not in name and not re.search(r"[\x00-\x1f]", name)


class WindowConfig(_Strict):
    since: date | None = None
    until: date | None = None

    @model_validator(mode="after")
    def _ordered(self) -> "WindowConfig":
        if self.since and self.until and self.since > self.until:
            raise ValueError(f"since ({self.since}) is after until ({self.until})")
        return self


class IdentityConfig(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,79}$")
    name: str | None = None
    emails: list[str] = Field(min_length=1)

    @field_validator("emails")
    @classmethod
    def _emails(cls, emails: list[str]) -> list[str]:
        for e in emails:
            if "@" not in e:
                raise ValueError(f"{e!r} is not an e-mail address")
        return emails


class BotsConfig(_Strict):
    extra_patterns: list[str] = []

    @field_validator("extra_patterns")
    @classmethod
    def _regexes(cls, patterns: list[str]) -> list[str]:
        for p in patterns:
            try:
                re.compile(p)
            except re.error as exc:
                raise ValueError(f"{p!r} is not a valid regular expression: {exc}") from None
        return patterns


class ExportsConfig(_Strict):
    include_emails: bool = False


class ScheduleConfig(_Strict):
    enabled: bool = False  # one line in config turns the nightly refresh on
    cron: str = "0 2 * * *"
    timezone: str | None = None  # default: the machine's local time zone

    @field_validator("cron")
    @classmethod
    def _cron(cls, cron: str) -> str:
        # the check Dagster's own schedules apply (else the code location would fail to load)
        from dagster._utils.schedules import is_valid_cron_string

        if len(cron.split()) != 5 or not is_valid_cron_string(cron):
            raise ValueError(f"{cron!r} is not a 5-field cron expression (e.g. \"0 2 * * *\")")
        return cron

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, tz: str | None) -> str | None:
        from zoneinfo import ZoneInfo

        if tz is not None:
            try:
                ZoneInfo(tz)
            except (ValueError, KeyError, OSError):
                raise ValueError(f"{tz!r} is not an IANA time zone (e.g. Europe/Warsaw)") from None
        return tz


class DaskConfig(_Strict):
    scheduler: str  # address of an existing Dask scheduler, e.g. tcp://10.0.0.5:8786

    @field_validator("scheduler")
    @classmethod
    def _address(cls, address: str) -> str:
        if not re.fullmatch(r"(tcp|tls|inproc|ucx)://\S+", address):
            raise ValueError(f"{address!r} is not a Dask scheduler address (e.g. tcp://host:8786)")
        return address


class ExecutionConfig(_Strict):
    # None: per-repository work runs in parallel processes on this machine
    dask: DaskConfig | None = None


class SkillsConfig(_Strict):
    extra_rules: list[str] = []  # YAML files with more skill rules, same format as the built-in


class ExceedsConfig(_Strict):
    repositories: list[RepositoryConfig] = Field(min_length=1)
    window: WindowConfig = WindowConfig()
    identities: list[IdentityConfig] = []
    bots: BotsConfig = BotsConfig()
    exports: ExportsConfig = ExportsConfig()
    schedule: ScheduleConfig = ScheduleConfig()
    skills: SkillsConfig = SkillsConfig()
    execution: ExecutionConfig = ExecutionConfig()

    @model_validator(mode="after")
    def _unique(self, info: ValidationInfo) -> "ExceedsConfig":
        base_dir = (info.context or {}).get("base_dir")
        for repo in self.repositories:
            repo._base_dir = base_dir
        _no_repository_twice(self.repositories, base_dir)
        seen: dict[str, int] = {}
        for i, repo in enumerate(self.repositories):
            if repo.display_name in seen:
                raise ValueError(
                    f"repositories[{i}]: name {repo.display_name!r} is already used by "
                    f"repositories[{seen[repo.display_name]}]; set a distinct `name:`"
                )
            seen[repo.display_name] = i
        slugs: dict[str, int] = {}
        for i, repo in enumerate(self.repositories):
            slug = asset_slug(repo.display_name)
            if slug in slugs:
                raise ValueError(
                    f"repositories[{i}]: name {repo.display_name!r} is too close to "
                    f"{self.repositories[slugs[slug]].display_name!r} (repositories[{slugs[slug]}]): both "
                    f"give the asset key {slug!r}; set a distinct `name:`"
                )
            slugs[slug] = i
        ids = [i.id for i in self.identities]
        if len(ids) != len(set(ids)):
            raise ValueError("identities: each `id` must be unique")
        return self


def _canonical_url(url: str) -> str | None:
    """`host/path` of a remote URL (any scheme, user, port; host case, trailing `/` and `.git`
    ignored); None for a local one (file:// or a plain path)."""
    if url.startswith("file://") or url.startswith(("/", ".", "~")):
        return None
    if "://" in url:
        try:
            parts = urlsplit(url)
            host, path = (parts.hostname or "").lower(), parts.path
        except ValueError:  # e.g. an unclosed IPv6 bracket: git will say what is wrong with it
            return None
    elif _SCP_LIKE.match(url):
        authority, path = url.split(":", 1)
        host = authority.rsplit("@", 1)[-1].lower()
    else:
        return None
    path = re.sub(r"(?:\.git)?/*$", "", path.strip("/"))
    return f"{host}/{path}"


def _git_dir_of(folder: Path) -> Path | None:
    """The git dir of a repository root (a `.git` folder, a `gitdir:` file, or a bare repository),
    found without running git; None for anything else (the ingest names that error)."""
    dot = folder / ".git"
    if dot.is_dir():
        return dot.resolve()
    if dot.is_file():
        try:
            text = dot.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            return None
        if text.startswith("gitdir:"):
            target = Path(text[len("gitdir:"):].strip())
            return (target if target.is_absolute() else folder / target).resolve()
        return None
    if (folder / "HEAD").is_file() and (folder / "objects").is_dir() and (folder / "refs").is_dir():
        return folder
    return None


def _local_identity(path: Path, want_origin: bool = True) -> tuple[Path, Path | None, str | None]:
    """(resolved folder, git dir, remote.origin.url if `want_origin`) of a local repository; git
    dir and origin are None when the folder is not a repository root (ingest names that error).
    Runs git (`git config`) only for the origin."""
    from exceeds_pipeline.ingest.gitcmd import run_git

    folder = path.expanduser().resolve()
    git_dir = _git_dir_of(folder) if folder.is_dir() else None
    if git_dir is None or not want_origin:
        return folder, git_dir, None
    proc = run_git(git_dir, ["config", "--get", "remote.origin.url"], str(folder), check=False)
    return folder, git_dir, (proc.stdout.decode().strip() or None) if proc.returncode == 0 else None


def _no_repository_twice(repositories: list[RepositoryConfig], base_dir: Path | None) -> None:
    """The same repository listed twice is an error (SPEC §7): the same resolved path or git
    dir, the same remote URL (host case, trailing `/` and `.git`, scheme and user aside), a
    file:// URL of a listed path, or a `path:` whose `remote.origin.url` is another entry's
    `url:`, each with the same `branch:`. No network; git runs only to read a path's origin when
    a `url:` entry is listed. A clone of another listed *path* is a different repository (a fork
    or mirror: its commits count once, SPEC §5), and so is another `branch:` of one repository
    (other history; the commits the branches share count once, in the first listed)."""
    if len(repositories) < 2:
        return
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    keys: list[dict[str, str]] = []  # per entry: identity key -> what it is, for the message
    origins: list[dict[str, str]] = []  # per `path:` entry: its origin's keys
    any_url = any(r.url for r in repositories)  # a path's origin only matters next to a `url:`
    for repo in repositories:
        mine: dict[str, str] = {}
        theirs: dict[str, str] = {}
        local = None
        if repo.url:
            canonical = _canonical_url(repo.url)
            if canonical is not None:
                mine[f"url:{canonical}"] = f"both are {canonical}"
            elif repo.url.startswith("file://"):
                local = Path(unquote(urlsplit(repo.url).path))
        else:
            local = Path(repo.path or "")
            if not local.expanduser().is_absolute():
                local = base / local
        if local is not None:
            folder, git_dir, origin = _local_identity(local, want_origin=any_url and bool(repo.path))
            mine[f"dir:{folder}"] = f"both are {folder}"
            if git_dir is not None:
                mine[f"git:{git_dir}"] = f"both are the git dir {git_dir}"
            if origin and repo.path:
                canonical = _canonical_url(origin)
                if canonical is not None:
                    theirs[f"url:{canonical}"] = f"the remote.origin.url of {folder} is {redact(origin)}"
                else:
                    target = (Path(unquote(urlsplit(origin).path)) if origin.startswith("file://")
                              else folder / origin)  # an absolute path stays itself
                    o_folder, o_git, _ = _local_identity(target, want_origin=False)
                    why = f"the remote.origin.url of {folder} is {origin}"
                    theirs[f"dir:{o_folder}"] = why
                    if o_git is not None:
                        theirs[f"git:{o_git}"] = why
        keys.append(mine)
        origins.append(theirs)

    def source(i: int) -> str:
        r = repositories[i]
        return f"url {redact(r.url)!r}" if r.url else f"path {r.path!r}"

    for j in range(1, len(repositories)):
        for i in range(j):
            if repositories[i].branch != repositories[j].branch:
                continue
            why = next((keys[j][k] for k in keys[j] if k in keys[i]), None)
            # A path's origin names an earlier `url:` entry, or an earlier path's origin names this `url:`.
            if why is None and repositories[i].url:
                why = next((origins[j][k] for k in origins[j] if k in keys[i]), None)
            if why is None and repositories[j].url:
                why = next((origins[i][k] for k in origins[i] if k in keys[j]), None)
            if why is not None:
                raise ValueError(
                    f"repositories[{j}] is the same repository as repositories[{i}] ({source(j)} and "
                    f"{source(i)}: {why}); list each repository once (a fork or mirror is its own "
                    f"clone, with its own url or path)"
                )


def _format_error(source: str, exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        loc = ""
        for part in err["loc"]:
            loc += f"[{part}]" if isinstance(part, int) else (f".{part}" if loc else str(part))
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        lines.append(f"  {loc or '(top level)'}: {msg}")
    return f"invalid config {source}:\n" + "\n".join(lines)


def parse_config(data: Any, source: str = "<config>", base_dir: Path | None = None) -> ExceedsConfig:
    """`base_dir`: where relative repository paths point (the config file's folder)."""
    if not isinstance(data, dict):
        raise ConfigError(f"invalid config {source}: expected a mapping with `repositories:`")
    try:
        return ExceedsConfig.model_validate(data, context={"base_dir": base_dir})
    except ValidationError as exc:
        raise ConfigError(_format_error(source, exc)) from None


def load_config(path: Path) -> ExceedsConfig:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {path} not found (use --config or EXCEEDS_CONFIG)") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {path} is not UTF-8 text ({exc.reason} at byte {exc.start}); "
                          f"save it as UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"config file {path} cannot be read: {exc.strerror or exc}") from None
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise ConfigError(f"config {path} is not valid YAML: {exc}") from None
    return parse_config(data, str(path), Path(path).resolve().parent)


class _Loader(yaml.SafeLoader):
    """SafeLoader that leaves dates as text: PyYAML turns `2025-13-01` into a bare ValueError
    (no key named); as text it reaches validation, which names the key (`window.since`).
    A key given twice in one mapping is an error (PyYAML would silently keep the last)."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} appears twice in one mapping", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def config_path(explicit: str | Path | None = None) -> Path:
    value = explicit or os.environ.get("EXCEEDS_CONFIG") or PROJECT_ROOT / "exceeds.yaml"
    return Path(value).expanduser().resolve()


def data_dir(explicit: str | Path | None = None) -> Path:
    value = explicit or os.environ.get("EXCEEDS_DATA_DIR") or PROJECT_ROOT / "data"
    return Path(value).expanduser().resolve()


def dagster_home() -> Path:
    """DAGSTER_HOME if set, else a git-ignored folder in the project that survives restarts."""
    value = os.environ.get("DAGSTER_HOME") or PROJECT_ROOT / ".dagster_home"
    return Path(value).expanduser().resolve()
