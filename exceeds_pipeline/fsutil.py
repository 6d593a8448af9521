"""Small file-system helpers shared by the stores that replace files atomically."""

import os
from pathlib import Path


def fsync_path(path: Path) -> None:
    """Flush a file (or a directory entry list) to disk before it is renamed into place."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
