"""Hostile repository URLs: remote-helper transports refused before git runs, option-like values
never reach git as options, and credentials in URLs never leave the user's own clone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from dagster import DagsterInstance

from exceeds_pipeline.ingest.gitcmd import redact, run_git
from exceeds_pipeline.ingest.repository import clone_or_fetch
from exceeds_pipeline_tests.hardening.helpers import (
    cli_env,
    outcome_of,
    query,
    run_exceeds,
    run_pipeline_quietly,
    small_repo,
    write_config,
)

SECRET = "s3cret"

HTTPS_SERVER = r"""
import base64, http.server, ssl, sys, functools
root, cert, key, userinfo = sys.argv[1:5]
expected = "Basic " + base64.b64encode(userinfo.encode()).decode()

class Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):
        if self.headers.get("Authorization") != expected:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="git"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_GET()
    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=root))
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
"""


def _no_file_created(target: Path) -> None:
    assert not target.exists(), f"{target} was created: a hostile URL ran a command"


@pytest.mark.parametrize("url", [
    "ext::sh -c touch% {target}",
    "ext::sh -c 'touch {target}'",
    "fd::0,1/{target}",
    "--upload-pack=touch {target}",
    "-u touch {target}",
    "http://127.0.0.1:1/{target}",
])
def test_hostile_urls_in_the_config_are_refused_before_git_runs(tmp_path, url):
    target = tmp_path / "pwned"
    config = write_config(tmp_path / "c.yaml", [{"url": url.format(target=target)}])
    data = tmp_path / "data"
    proc = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "repositories[0].url: repository url" in proc.stderr
    assert not data.exists()
    _no_file_created(target)


def test_transports_are_refused_by_git_too_if_validation_were_bypassed(tmp_path):
    """Defence in depth: git runs with GIT_ALLOW_PROTOCOL=https:ssh:git:file."""
    target = tmp_path / "pwned"
    proc = run_git(None, ["clone", "--bare", "--", f"ext::sh -c touch% {target}", str(tmp_path / "x")],
                   "test", check=False)
    assert proc.returncode != 0 and b"transport 'ext' not allowed" in proc.stderr
    with pytest.raises(ValueError):
        clone_or_fetch("test", f"ext::sh -c touch% {target}", tmp_path / "repos")
    _no_file_created(target)


def test_option_like_values_never_reach_git_as_options(tmp_path):
    target = tmp_path / "pwned"
    good = small_repo(tmp_path / "good")
    other = small_repo(tmp_path / "other")  # (the same repository twice is a config error)
    # values that pass validation but try to smuggle options: git must see them as data
    config = write_config(tmp_path / "c.yaml", [
        {"path": str(good.path)},
        {"url": f"ssh://-oProxyCommand=touch%20{target}/x", "name": "ssh-option-host"},
        {"url": f"ssh://-oProxyCommand=touch%20{target}@127.0.0.1:1/x", "name": "ssh-option-user"},
        {"path": f"--upload-pack=touch {target}", "name": "option-path"},
        {"path": str(other.path), "name": "--option-name"},
    ])
    data = tmp_path / "data"
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome_of(outcome, "good").ok
    assert outcome_of(outcome, "--option-name").ok  # a name is only a label
    for name in ("ssh-option-host", "ssh-option-user", "option-path"):
        result = outcome_of(outcome, name)
        assert not result.ok and result.message.startswith(f"[{name}] "), result.message
    _no_file_created(target)
    # a submodule whose URL is an ext:: command is never followed
    app = small_repo(tmp_path / "app")
    app.write({".gitmodules": f'[submodule "evil"]\n\tpath = evil\n\turl = ext::sh -c touch% {target}\n'})
    app.git("update-index", "--add", "--cacheinfo", f"160000,{app.head()},evil")
    app.commit("Add an evil submodule")
    write_config(config, [{"path": str(app.path)}])
    outcome, lines = run_pipeline_quietly(config, data)
    assert outcome.ok, lines
    _no_file_created(target)


def test_redact_hides_passwords_even_with_at_signs():
    assert redact("https://user:p@ss@example.com/x.git") == "https://***@example.com/x.git"
    assert redact("see https://example.com/x and mail a@b.c") == "see https://example.com/x and mail a@b.c"
    assert redact(f"'file://user:{SECRET}@localhost/srv/x.git'") == "'file://***@localhost/srv/x.git'"


@pytest.fixture
def https_remote(tmp_path):
    """A bare repository served over HTTPS (self-signed certificate, trusted through
    GIT_SSL_CAINFO) that requires the credentials user:s3cret."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a certificate")
    work = small_repo(tmp_path / "work", commits=3)
    served = tmp_path / "served"
    served.mkdir()
    bare = served / "private.git"
    run_git(None, ["clone", "-q", "--bare", str(work.path), str(bare)], "test")
    run_git(bare, ["update-server-info"], "test")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    server = subprocess.Popen([sys.executable, "-c", HTTPS_SERVER, str(served), str(cert), str(key),
                               f"user:{SECRET}"], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    yield work, bare, port, cert
    server.kill()
    server.wait()


def _files_with_secret(folder: Path, allowed: set[Path] = frozenset()) -> list[Path]:
    found = []
    for f in folder.rglob("*"):
        if f.is_file() and f not in allowed and SECRET.encode() in f.read_bytes():
            found.append(f)
    return found


def test_credentials_in_urls_are_used_but_never_shown_or_stored(tmp_path, https_remote):
    work, bare, port, cert = https_remote
    url = f"https://user:{SECRET}@127.0.0.1:{port}/private.git"
    # without the credentials the server refuses: the clone below really uses them
    denied = run_git(None, ["ls-remote", f"https://127.0.0.1:{port}/private.git"], "t", check=False)
    assert denied.returncode != 0
    file_url = f"file://user:{SECRET}@localhost{bare}"
    config = write_config(tmp_path / "c.yaml", [
        {"url": url, "name": "private"},
        {"url": file_url, "name": "private-file"},
        {"url": f"https://user:{SECRET}@127.0.0.1:1/gone.git", "name": "unreachable"},
    ])
    data = tmp_path / "data"
    home = Path(os.environ["DAGSTER_HOME"])
    env = cli_env(GIT_SSL_CAINFO=str(cert))
    outputs = []
    for _ in range(2):  # a clone, then a fetch
        work.commit("More", files={"more.txt": f"{len(outputs)}\n"})
        run_git(bare, ["fetch", "-q", str(work.path), "+main:main"], "t")
        run_git(bare, ["update-server-info"], "t")
        proc = run_exceeds("materialize", "--config", str(config), "--data-dir", str(data), env=env)
        outputs.append(proc.stdout + proc.stderr)
        assert proc.returncode == 1, outputs[-1]  # only `unreachable` fails
        assert "private: ok" in outputs[-1] and "private-file: ok" in outputs[-1]
        assert "unreachable: FAILED - [unreachable] could not clone https://***@127.0.0.1:1/gone.git" in outputs[-1]
    assert query(data / "exceeds.duckdb", "SELECT repo, count(*) FROM commits GROUP BY 1 ORDER BY 1") == [
        ("private", 5), ("private-file", 5)]

    # Nowhere: not the CLI output, not the Dagster event logs or metadata, not the data dir or
    # exports, except each bare clone's own git config (it is the user's clone of that URL).
    for out in outputs:
        assert SECRET not in out
    with DagsterInstance.get() as instance:
        for run in instance.get_runs():
            assert SECRET not in str(run.tags) and SECRET not in str(run.run_config)
            for event in instance.all_logs(run.run_id):
                assert SECRET not in event.user_message
                assert SECRET not in repr(event.dagster_event)
    clone_configs = {p / "config" for p in (data / "repos").iterdir()}
    assert _files_with_secret(data, clone_configs) == []
    assert _files_with_secret(home) == []
    assert all(SECRET in c.read_text() for c in clone_configs)  # the user's clones work later
