"""One reader for the project's YAML data files (rules, lexicons, word lists)."""

from __future__ import annotations

from pathlib import Path

import yaml

# libyaml's parser is ~10x faster than PyYAML's pure-Python one: the data files are read by every
# process that imports the package (each CLI run, each test worker), ~0.3 s with the Python one.
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(source: str | Path):
    """The document of a YAML text, or of the file at ``source`` when it is a Path."""
    text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - a safe loader (C or Python)
