"""``exceeds serve``: the profile site on a local port, read-only (GET and HEAD only).

The server resolves every request against the site folder by its path, so after
:func:`exceeds_pipeline.site.render.write_site` swaps in a new site the next request sees it.
Folders are never listed and nothing outside the site folder is served.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

__all__ = ["SiteNotFound", "SiteRequestHandler", "make_server", "serve_site"]


class SiteNotFound(FileNotFoundError):
    """There is no profile site in the folder yet."""


class SiteRequestHandler(SimpleHTTPRequestHandler):
    """Static files of the site; no folder listings, no writes, quiet unless asked."""

    server_version = "exceeds-site"
    sys_version = ""
    quiet = True

    def list_directory(self, path):  # noqa: D401 - SimpleHTTPRequestHandler hook
        self.send_error(404, "Not found")
        return None

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        super().end_headers()

    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        if not self.quiet:
            super().log_message(format, *args)


def _check_site(site_dir: Path) -> Path:
    site = Path(site_dir)
    if not (site / "index.html").is_file():
        raise SiteNotFound(
            f"no profile site at {site} yet: run `exceeds materialize` (or `exceeds demo`) first; "
            f"it writes the site after the profiles"
        )
    return site


def make_server(site_dir: str | os.PathLike, port: int = 8000, host: str = "127.0.0.1",
                quiet: bool = True) -> ThreadingHTTPServer:
    """A bound (not yet serving) HTTP server for the site; ``port=0`` picks a free port."""
    site = _check_site(Path(site_dir))
    handler = functools.partial(type("Handler", (SiteRequestHandler,), {"quiet": quiet}), directory=str(site))
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve_site(site_dir: str | os.PathLike, port: int = 8000, host: str = "127.0.0.1",
               echo: Callable[[str], None] = print,
               on_ready: Callable[[ThreadingHTTPServer], None] | None = None, quiet: bool = False) -> None:
    """Serve the site until Ctrl-C (or ``server.shutdown()`` from ``on_ready``'s caller).

    Raises :class:`SiteNotFound` (a clear message) when the site does not exist yet, and
    ``OSError`` when the port is taken.
    """
    server = make_server(site_dir, port, host, quiet=quiet)
    try:
        bound_host, bound_port = server.server_address[:2]
        shown = f"[{bound_host}]" if ":" in str(bound_host) else bound_host
        echo(f"Serving the profile site {Path(site_dir)} at http://{shown}:{bound_port}/ (Ctrl-C to stop)")
        if on_ready is not None:
            on_ready(server)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    finally:
        server.server_close()
