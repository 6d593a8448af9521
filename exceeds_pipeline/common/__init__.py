"""Small helpers shared by the domain modules: one of each (union-find, globs, contiguous chunks,
source fingerprints, Parquet caches of per-commit results)."""
