"""Dagster resources: where things live, and how tables are stored in the working DuckDB.

Built once, in `exceeds_pipeline.definitions.build_definitions`, from an explicit config file
and data dir, and passed to every asset, check, sensor and schedule that needs them.
"""


from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl
from dagster import ConfigurableResource, InputContext, OutputContext
from pydantic import PrivateAttr
from dagster._core.storage.db_io_manager import DbIOManager, DbTypeHandler, TableSlice
from dagster_duckdb.io_manager import DuckDbClient
from dagster_duckdb_polars import DuckDBPolarsIOManager, DuckDBPolarsTypeHandler

from exceeds_pipeline import config as cfg
from exceeds_pipeline.ingest.raw_store import RawStore
from exceeds_pipeline.processes import die_with_parent


class ExceedsSettings(ConfigurableResource):
    """The config file and data directory of this deployment (SPEC §3)."""

    config_path: str
    data_dir: str
    _config: cfg.ExceedsConfig | None = PrivateAttr(default=None)
    _store: RawStore | None = PrivateAttr(default=None)

    def setup_for_execution(self, context) -> None:
        # A step in a process of the multiprocess executor dies with the run's process (a
        # `kill -9` of the CLI must not leave an ingest running for minutes).
        die_with_parent()

    @property
    def config(self) -> cfg.ExceedsConfig:
        """The parsed config (parsed once per process; ConfigError if it is invalid)."""
        if self._config is None:
            self._config = cfg.load_config(Path(self.config_path))
        return self._config

    @property
    def repository_names(self) -> list[str]:
        return [r.display_name for r in self.config.repositories]

    def repository(self, name: str) -> cfg.RepositoryConfig | None:
        return next((r for r in self.config.repositories if r.display_name == name), None)

    @property
    def config_dir(self) -> Path:
        return Path(self.config_path).parent

    @property
    def data(self) -> Path:
        return Path(self.data_dir)

    def raw_store(self) -> RawStore:
        """One store per process: it verifies each Parquet file's checksum once, not per call."""
        if self._store is None:
            self._store = RawStore(self.data / "raw")
        return self._store

    @property
    def repos_dir(self) -> Path:
        return self.data / "repos"

    @property
    def exports_dir(self) -> Path:
        return self.data / "exports"

    @property
    def cache_dir(self) -> Path:
        """Per-commit results kept between runs (quality facts, categories): rebuilt if lost."""
        return self.data / "cache"

    @property
    def published_database(self) -> Path:
        return self.data / "exceeds.duckdb"

    @property
    def warehouse(self) -> Path:
        return self.data / "warehouse.duckdb"


class ReplacingPolarsTypeHandler(DuckDBPolarsTypeHandler):
    """The stock Polars handler with three fixes for a pipeline that evolves.

    - Unpartitioned tables are replaced (`CREATE OR REPLACE`), so a new column in a later
      version does not break the insert into the old table.
    - Empty frames still create their (empty) table, so downstream assets can load them.
    - Loading uses `.pl()` and UTC, which works on DuckDB 1.x and 2.x alike (with duckdb 2.0
      `.arrow()` returns a reader the stock handler cannot turn into a frame).
    """

    def handle_output(self, context: OutputContext, table_slice: TableSlice, obj: pl.DataFrame, connection):
        if table_slice.partition_dimensions:
            return super().handle_output(context, table_slice, obj, connection)
        obj_arrow = obj.to_arrow()  # noqa: F841 (read by DuckDB's replacement scan)
        connection.execute(f"create schema if not exists {table_slice.schema};")
        connection.execute(
            f"create or replace table {table_slice.schema}.{table_slice.table} as select * from obj_arrow"
        )
        context.add_output_metadata({"dagster/row_count": obj.height})

    def load_input(self, context: InputContext, table_slice: TableSlice, connection) -> pl.DataFrame:
        if table_slice.partition_dimensions and len(context.asset_partition_keys) == 0:
            return pl.DataFrame()
        connection.execute("SET TimeZone = 'UTC'")
        return connection.execute(DuckDbClient.get_select_statement(table_slice=table_slice)).pl()


class _RunFramesIOManager(DbIOManager):
    """Stores every table in the warehouse, and hands a frame that a step of this run stored to
    the later steps of the same run in this process as it is, instead of reading it back from
    DuckDB (a connection and a conversion per input: on git/git about 5 s of a 40 s derive run,
    `commits` alone is loaded by 8 steps). The executor builds this manager once per run and
    process, so what it keeps is this run's; a step in another process (multiprocess, Dask)
    reads the table. Polars frames are immutable: a step cannot change what the next one gets."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._frames: dict[tuple[str, str], pl.DataFrame] = {}

    def handle_output(self, context: OutputContext, obj: object) -> None:
        super().handle_output(context, obj)
        table_slice = self._get_table_slice(context, context)
        if isinstance(obj, pl.DataFrame) and not table_slice.partition_dimensions:
            self._frames[(table_slice.schema, table_slice.table)] = obj

    def load_input(self, context: InputContext) -> object:
        table_slice = self._get_table_slice(context, context.upstream_output)
        kept = self._frames.get((table_slice.schema, table_slice.table))
        if kept is None or table_slice.partition_dimensions or context.dagster_type.typing_type not in (pl.DataFrame, Any):
            return super().load_input(context)
        return kept.select(table_slice.columns) if table_slice.columns else kept


class WarehouseIOManager(DuckDBPolarsIOManager):
    """Polars frames stored as tables of the working DuckDB file (`<data-dir>/warehouse.duckdb`)."""

    @staticmethod
    def type_handlers() -> Sequence[DbTypeHandler]:
        return [ReplacingPolarsTypeHandler()]

    def create_io_manager(self, context) -> DbIOManager:
        return _RunFramesIOManager(
            db_client=DuckDbClient(), database=self.database, schema=self.schema_,
            type_handlers=self.type_handlers(), default_load_type=self.default_load_type(),
            io_manager_name="WarehouseIOManager",
        )


def settings_for(
    config_path: str | Path | None = None, data_dir: str | Path | None = None,
    config: cfg.ExceedsConfig | None = None,
) -> ExceedsSettings:
    """Settings for explicit paths; None falls back to SPEC §3's defaults (env, then project).
    `config`: the already parsed config of `config_path`, so it is not parsed again."""
    settings = ExceedsSettings(config_path=str(cfg.config_path(config_path)), data_dir=str(cfg.data_dir(data_dir)))
    settings._config = config
    return settings


def warehouse_io_manager(settings: ExceedsSettings) -> WarehouseIOManager:
    settings.data.mkdir(parents=True, exist_ok=True)
    return WarehouseIOManager(database=str(settings.warehouse), schema="main")
