"""The archive: millions of deals in one DuckDB file, loaded fast, searched with parameters only.

* :mod:`.columns`: the tables, written once (SQL, Arrow and download columns come from it);
* :mod:`.rows`: a record's rows, built in worker processes; :mod:`.ingest`: importing;
* :mod:`.store`: :class:`Archive`, the queries; :mod:`.search`: :class:`SearchFilters` and page cursors;
* :mod:`.export`: files and downloads; :mod:`.sql`: ad hoc SQL, read-only and under a time limit.
"""

from .columns import CSV_COLUMNS, DEAL_COLUMNS, SCHEMA, SUMMARY_COLUMNS, TABLES, Column
from .export import EXPORT_FORMATS
from .ingest import BATCH_SIZE, WORK_SIZE, ImportSummary
from .rows import arrow_batch, deal_id
from .search import SORTS, DealPage, DealSummary, SearchFilters, decode_cursor, encode_cursor
from .sandbox import open_sql
from .sql import SQL_MEMORY, SQL_MEMORY_ENV, run_sql, run_with_timeout, sql_memory
from .store import ENV_VAR, STREAM_BATCH, Archive, checkpoint, default_path, fatal, rebuild_file

__all__ = ["BATCH_SIZE", "CSV_COLUMNS", "DEAL_COLUMNS", "ENV_VAR", "EXPORT_FORMATS", "SCHEMA", "SORTS",
           "SQL_MEMORY", "SQL_MEMORY_ENV", "STREAM_BATCH", "SUMMARY_COLUMNS", "TABLES", "WORK_SIZE", "Archive",
           "Column", "DealPage", "DealSummary", "ImportSummary", "SearchFilters", "arrow_batch", "checkpoint",
           "decode_cursor", "default_path", "deal_id", "encode_cursor", "fatal", "open_sql", "rebuild_file", "run_sql",
           "run_with_timeout", "sql_memory"]
