"""Small helpers shared by the domain modules: one of each (union-find, globs, contiguous chunks,
Parquet caches of per-commit results)."""
