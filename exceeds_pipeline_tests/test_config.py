"""The YAML configuration: valid files load; invalid ones are rejected naming the key."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from exceeds_pipeline import config as cfg
from exceeds_pipeline.config import ConfigError, load_config, parse_config

FULL = """\
repositories:
  - url: https://github.com/pytorch/benchmark.git
    branch: main
  - path: ../checkouts/benchmark
    name: local/benchmark
  - url: git@github.com:owner/tool.git
window:
  since: 2024-10-01
  until: 2026-04-30
identities:
  - id: william-wen
    name: William Wen
    emails: [williamwen@meta.com, WW@example.com]
bots:
  extra_patterns: ['^generatedunixname']
exports:
  include_emails: true
"""


def write(tmp_path: Path, text: str, name: str = "exceeds.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def error_of(text_or_data) -> str:
    with pytest.raises(ConfigError) as err:
        if isinstance(text_or_data, str):
            import yaml

            parse_config(yaml.safe_load(text_or_data), "test.yaml")
        else:
            parse_config(text_or_data, "test.yaml")
    return str(err.value)


def test_full_example_loads(tmp_path):
    c = load_config(write(tmp_path, FULL))
    assert [r.display_name for r in c.repositories] == ["pytorch/benchmark", "local/benchmark", "owner/tool"]
    assert c.repositories[0].branch == "main" and c.repositories[1].branch is None
    assert (c.window.since, c.window.until) == (date(2024, 10, 1), date(2026, 4, 30))
    assert c.identities[0].id == "william-wen"
    assert c.identities[0].emails == ["williamwen@meta.com", "WW@example.com"]
    assert c.bots.extra_patterns == ["^generatedunixname"]
    assert c.exports.include_emails is True


def test_defaults(tmp_path):
    c = load_config(write(tmp_path, "repositories:\n  - path: .\n"))
    assert c.window.since is None and c.window.until is None
    assert c.identities == [] and c.bots.extra_patterns == [] and c.exports.include_emails is False
    assert c.repositories[0].display_name == tmp_path.name


def test_repository_name_of_dot_paths_does_not_depend_on_the_cwd(tmp_path, monkeypatch):
    """`path: .`/`..` point relative to the config file; so must the derived repository name
    (it is the partition key and the `repo` column), wherever `exceeds` is started from."""
    conf = tmp_path / "proj" / "conf"
    conf.mkdir(parents=True)
    path = write(conf, "repositories:\n  - path: ..\n  - path: .\n  - path: ../other/.\n")
    for cwd in (tmp_path, conf, Path("/")):
        monkeypatch.chdir(cwd)
        names = [r.display_name for r in load_config(path).repositories]
        assert names == ["proj", "conf", "other"], cwd


def test_unknown_key_in_a_repository():
    msg = error_of("repositories:\n  - url: https://h/a/b.git\n    branhc: main\n")
    assert "repositories[0].branhc" in msg and "unknown key" in msg


def test_unknown_top_level_key():
    msg = error_of("repositories:\n  - path: x\nwindw:\n  since: 2024-01-01\n")
    assert "windw" in msg and "unknown key" in msg


def test_unknown_nested_key():
    msg = error_of("repositories:\n  - path: x\nwindow:\n  sinse: 2024-01-01\n")
    assert "window.sinse" in msg


@pytest.mark.parametrize("repo", [{"url": "https://h/a.git", "path": "x"}, {"name": "x"}, {}])
def test_url_and_path_both_or_neither(repo):
    msg = error_of({"repositories": [{"path": "ok"}, repo]})
    assert "repositories[1]" in msg and "exactly one of `url` or `path`" in msg


def test_window_order():
    msg = error_of("repositories:\n  - path: x\nwindow:\n  since: 2025-01-02\n  until: 2025-01-01\n")
    assert "window" in msg and "since (2025-01-02) is after until (2025-01-01)" in msg
    # a one-day window is fine
    c = parse_config({"repositories": [{"path": "x"}], "window": {"since": "2025-01-01", "until": "2025-01-01"}})
    assert c.window.since == c.window.until == date(2025, 1, 1)


def test_invalid_date_names_the_key(tmp_path):
    """PyYAML itself fails on 2025-13-01 with a bare ValueError; the message must name the key."""
    path = write(tmp_path, "repositories:\n  - path: x\nwindow:\n  since: 2025-13-01\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "window.since" in str(err.value)
    path = write(tmp_path, "repositories:\n  - path: x\nwindow:\n  until: 2025-02-30\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "window.until" in str(err.value)
    path = write(tmp_path, "repositories:\n  - path: x\nwindow:\n  since: '2025-01-31'\n")
    assert load_config(path).window.since == date(2025, 1, 31)


def test_invalid_regex_in_bot_patterns():
    msg = error_of({"repositories": [{"path": "x"}], "bots": {"extra_patterns": ["ok", "(unclosed"]}})
    assert "bots.extra_patterns" in msg and "'(unclosed' is not a valid regular expression" in msg


@pytest.mark.parametrize("url", ["ext::sh -c touch% /tmp/pwned", "fd::3", "http://h/a.git",
                                 "--upload-pack=touch /tmp/x"])
def test_disallowed_urls(url):
    msg = error_of({"repositories": [{"url": url}]})
    assert "repositories[0]" in msg


def test_credentials_never_appear_in_config_errors():
    msg = error_of({"repositories": [{"url": "ftp://user:secret@example.com/x.git"}]})
    assert "secret" not in msg and "user:" not in msg


def test_duplicate_repository_names():
    msg = error_of({"repositories": [
        {"url": "https://github.com/a/tool.git"},
        {"path": "elsewhere/tool", "name": "a/tool"},
    ]})
    assert "repositories[1]" in msg and "'a/tool'" in msg and "repositories[0]" in msg


def test_duplicate_identity_ids_and_bad_identities():
    msg = error_of({"repositories": [{"path": "x"}], "identities": [
        {"id": "ada", "emails": ["a@x.com"]}, {"id": "ada", "emails": ["b@x.com"]}]})
    assert "identities" in msg and "unique" in msg
    msg = error_of({"repositories": [{"path": "x"}], "identities": [{"id": "Ada Lovelace", "emails": ["a@x.com"]}]})
    assert "identities[0].id" in msg
    msg = error_of({"repositories": [{"path": "x"}], "identities": [{"id": "ada", "emails": ["not-an-email"]}]})
    assert "identities[0].emails" in msg
    msg = error_of({"repositories": [{"path": "x"}], "identities": [{"id": "ada", "emails": []}]})
    assert "identities[0].emails" in msg


def test_empty_and_non_mapping_configs(tmp_path):
    assert "repositories" in error_of({"repositories": []})
    assert "repositories" in error_of({})
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, ""))
    assert "expected a mapping" in str(err.value)
    with pytest.raises(ConfigError):
        load_config(write(tmp_path, "- just\n- a list\n"))


def test_wrong_types_name_the_key():
    msg = error_of({"repositories": [{"path": "x"}], "exports": {"include_emails": "sometimes"}})
    assert "exports.include_emails" in msg
    msg = error_of({"repositories": "https://github.com/a/b.git"})
    assert "repositories" in msg


def test_invalid_yaml(tmp_path):
    path = write(tmp_path, "repositories:\n  - url: [unclosed\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "is not valid YAML" in str(err.value) and str(path) in str(err.value)


def test_missing_file(tmp_path):
    path = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(path) in str(err.value) and "not found" in str(err.value)


def test_error_names_the_file(tmp_path):
    path = write(tmp_path, "repositories:\n  - path: x\nwindw: {}\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(path) in str(err.value)


def test_config_and_data_dir_resolution(tmp_path, monkeypatch):
    assert cfg.config_path() == cfg.PROJECT_ROOT / "exceeds.yaml"
    assert cfg.data_dir() == cfg.PROJECT_ROOT / "data"
    monkeypatch.setenv("EXCEEDS_CONFIG", str(tmp_path / "env.yaml"))
    monkeypatch.setenv("EXCEEDS_DATA_DIR", str(tmp_path / "env-data"))
    assert cfg.config_path() == tmp_path / "env.yaml"
    assert cfg.data_dir() == tmp_path / "env-data"
    # the command line wins over the environment
    assert cfg.config_path(tmp_path / "cli.yaml") == tmp_path / "cli.yaml"
    assert cfg.data_dir(str(tmp_path / "cli-data")) == tmp_path / "cli-data"


def test_dagster_home_respects_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dh"))
    assert cfg.dagster_home() == tmp_path / "dh"
    monkeypatch.delenv("DAGSTER_HOME")
    assert cfg.dagster_home() == cfg.PROJECT_ROOT / ".dagster_home"


def test_project_default_config_is_valid():
    path = cfg.PROJECT_ROOT / "exceeds.yaml"
    if not path.exists():
        pytest.skip("no exceeds.yaml at the project root yet")
    load_config(path)


def test_unreadable_config_files_are_config_errors(tmp_path):
    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes("repositories:\n  - path: x\nidentities:\n  - id: m\n    name: M\xfcller\n"
                       "    emails: [m@example.com]\n".encode("latin-1"))
    with pytest.raises(ConfigError) as err:
        load_config(latin1)
    assert str(latin1) in str(err.value) and "UTF-8" in str(err.value)
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path)  # a directory
    assert str(tmp_path) in str(err.value)
