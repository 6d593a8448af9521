"""Themes: what a person worked on, per scope (all, month, repository), from evidence.

:func:`person_themes` builds the SPEC ``themes`` table; :func:`mirror_sources` finds
repositories whose commits name another repository's pull requests; :func:`attach_story` adds
themes, skill evidence, mirrors and the narrative to built profiles.
"""

from exceeds_pipeline.themes.build import THEMES_SCHEMA, person_themes
from exceeds_pipeline.themes.mirror import mirror_sources

__all__ = ["THEMES_SCHEMA", "mirror_sources", "person_themes"]
