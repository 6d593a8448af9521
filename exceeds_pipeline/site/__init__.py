"""The static profile site (SPEC §2.4, §4): a team index and one page per person, rendered from
the profile JSON alone (:mod:`.render`), a read-only local server for it (:mod:`.serve`) and the
forge addresses its links use (:mod:`.forge`). No Dagster here.

Names are loaded on first use, so that ``profiles.build`` can use :mod:`.forge` without pulling
in the templates and the HTTP server.
"""

from __future__ import annotations

import importlib

__all__ = ["SiteNotFound", "commit_url", "forge_web_url", "origin_remote_url", "repository_web_urls", "serve_site",
           "write_site"]

_HOME = {
    "commit_url": "forge", "forge_web_url": "forge", "origin_remote_url": "forge", "repository_web_urls": "forge",
    "write_site": "render", "serve_site": "serve", "SiteNotFound": "serve",
}


def __getattr__(name: str):
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
