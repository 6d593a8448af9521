"""The static profile site (SPEC §2.4, §4): a team index and one page per person, rendered from
the profile JSON alone, and a read-only local server for it. No Dagster here."""

from exceeds_pipeline.site.forge import commit_url, forge_web_url, origin_remote_url
from exceeds_pipeline.site.render import write_site
from exceeds_pipeline.site.serve import SiteNotFound, serve_site

__all__ = ["SiteNotFound", "commit_url", "forge_web_url", "origin_remote_url", "serve_site", "write_site"]
