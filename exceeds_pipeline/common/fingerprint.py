"""A hash of source, rule and weight files: the key of a cache that must be rebuilt when the
code or the data deciding it changes (commit categories, parsed changelog entries)."""

from __future__ import annotations

import hashlib
from pathlib import Path


def source_fingerprint(*paths: Path) -> str:
    """A hash of these files and of the code, rule and weight files (.py, .yaml, .json) of
    these folders."""
    digest = hashlib.sha256()
    for given in paths:
        files = sorted(p for p in given.iterdir() if p.suffix in (".py", ".yaml", ".json")) if given.is_dir() else [given]
        for path in files:
            digest.update(f"{path.parent.name}/{path.name}".encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]
