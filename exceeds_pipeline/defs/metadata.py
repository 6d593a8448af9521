"""Dagster metadata for a table output: row count and column schema (with descriptions)."""

from __future__ import annotations

import polars as pl
from dagster import TableColumn, TableSchema

from exceeds_pipeline.tables import COLUMN_DOCS

def frame_metadata(frame: pl.DataFrame) -> dict:
    columns = [
        TableColumn(name=name, type=str(dtype), description=COLUMN_DOCS.get(name))
        for name, dtype in frame.schema.items()
    ]
    return {"dagster/row_count": frame.height, "dagster/column_schema": TableSchema(columns=columns)}
