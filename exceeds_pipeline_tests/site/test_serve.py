"""serve_site: read-only, folder listings refused, nothing outside the site, a clear message when
there is no site yet; it follows the site when write_site swaps in a new one."""

from __future__ import annotations

import http.client
import threading

import pytest

from exceeds_pipeline.site import SiteNotFound, serve_site, write_site
from exceeds_pipeline.site.synthetic import synthetic_profiles


def _start(site, **kwargs):
    ready = threading.Event()
    box = {}

    def on_ready(server):
        box["server"] = server
        ready.set()

    lines: list[str] = []
    thread = threading.Thread(target=serve_site, args=(site, 0), kwargs={"on_ready": on_ready, "echo": lines.append,
                                                                          "quiet": True, **kwargs}, daemon=True)
    thread.start()
    assert ready.wait(10)
    return box["server"], thread, lines


def _get(server, path, method="GET"):
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request(method, path)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, response.getheader("Content-Type"), body


def test_no_site_yet_is_a_clear_message(tmp_path):
    with pytest.raises(SiteNotFound) as info:
        serve_site(tmp_path / "exports" / "site", 0)
    assert str(tmp_path / "exports" / "site") in str(info.value)
    assert "exceeds materialize" in str(info.value)


def test_serves_the_site_read_only(tmp_path):
    site = tmp_path / "exports" / "site"
    profiles = synthetic_profiles(3, seed=5)
    write_site(profiles, None, site)
    (tmp_path / "exports" / "secret.json").write_text("{}")
    server, thread, lines = _start(site)
    try:
        port = server.server_address[1]
        assert lines == [f"Serving the profile site {site} at http://127.0.0.1:{port}/ (Ctrl-C to stop)"]
        status, ctype, body = _get(server, "/")
        assert status == 200 and ctype.startswith("text/html") and b"<h1>Team</h1>" in body
        page = f"/people/{profiles[0]['id']}.html"
        status, _, body = _get(server, page)
        assert status == 200 and profiles[0]["name"].encode() in body
        assert _get(server, "/people/")[0] == 404  # no folder listing
        assert _get(server, "/../secret.json")[0] == 404
        assert _get(server, "/%2e%2e/secret.json")[0] == 404
        assert _get(server, "/", method="POST")[0] == 501
        assert _get(server, page, method="PUT")[0] == 501
        assert _get(server, page, method="DELETE")[0] == 501

        # a new site swapped in is served at once
        renamed = [dict(p, name=f"{p['name']} II") for p in profiles]
        write_site(renamed, None, site)
        assert f"{profiles[0]['name']} II".encode() in _get(server, page)[2]
    finally:
        server.shutdown()
        thread.join(10)
    assert not thread.is_alive()
