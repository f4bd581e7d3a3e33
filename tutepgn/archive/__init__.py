"""The archive: millions of deals in one DuckDB file, loaded fast, searched with parameters only.

* :mod:`.columns`: the tables, written once (SQL, Arrow and download columns come from it);
* :mod:`.rows`: a record's rows, built in worker processes; :mod:`.ingest`: importing;
* :mod:`.store`: :class:`Archive`, the queries; :mod:`.search`: :class:`SearchFilters` and page cursors;
* :mod:`.export`: files and downloads; :mod:`.sql`: ad hoc SQL, read-only and under a time limit;
* :mod:`.printing`: any table as PDF, XLSX or CSV; :mod:`.club_sheets`: the club's pages as those files;
* :mod:`.held`: who holds a file (a running service says so beside it); :mod:`.remote`: an archive a service
  holds, read and written through that service.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:  # what the lazy exports below give, seen by type checkers and editors
    from .club import MatchView, PlayerView, match_of, matches, player
    from .columns import CSV_COLUMNS, DEAL_COLUMNS, SCHEMA, SUMMARY_COLUMNS, TABLES, Column, deal_id
    from .defaults import BATCH_SIZE, EXPORT_FORMATS, SQL_MEMORY, SQL_MEMORY_ENV
    from .held import SERVICE_SUFFIX, announced, running_service, service_file, service_url
    from .ids import DealId
    from .ingest import WORK_SIZE, ImportItem, ImportSummary
    from .remote import KEY_ENV, ServiceArchive, open_reader, open_writer
    from .rows import arrow_batch
    from .names import SeatNames, name_words
    from .search import SORTS, DealPage, DealSummary, Emptied, SearchFilters, decode_cursor, encode_cursor
    from .sandbox import open_sql
    from .sql import run_sql, run_with_timeout, sql_memory
    from .store import ENV_VAR, STREAM_BATCH, Archive, checkpoint, default_path, fatal, rebuild_file

__getattr__, __dir__ = lazy_exports(__name__, {
    ".club": ("MatchView", "PlayerView", "match_of", "matches", "player"),
    ".columns": ("CSV_COLUMNS", "DEAL_COLUMNS", "SCHEMA", "SUMMARY_COLUMNS", "TABLES", "Column", "deal_id"),
    ".defaults": ("BATCH_SIZE", "EXPORT_FORMATS", "SQL_MEMORY", "SQL_MEMORY_ENV"),
    ".held": ("SERVICE_SUFFIX", "announced", "running_service", "service_file", "service_url"),
    ".ids": ("DealId",),
    ".ingest": ("WORK_SIZE", "ImportItem", "ImportSummary"),
    ".remote": ("KEY_ENV", "ServiceArchive", "open_reader", "open_writer"),
    ".rows": ("arrow_batch",),
    ".names": ("SeatNames", "name_words"),
    ".search": ("SORTS", "DealPage", "DealSummary", "Emptied", "SearchFilters", "decode_cursor", "encode_cursor"),
    ".sandbox": ("open_sql",),
    ".sql": ("run_sql", "run_with_timeout", "sql_memory"),
    ".store": ("ENV_VAR", "STREAM_BATCH", "Archive", "checkpoint", "default_path", "fatal", "rebuild_file"),
}, globals())
"""Imported on first use (:mod:`tutepgn.lazy`): the search filters without DuckDB and Arrow."""

__all__ = ["BATCH_SIZE", "CSV_COLUMNS", "DEAL_COLUMNS", "ENV_VAR", "EXPORT_FORMATS", "KEY_ENV", "SCHEMA",
           "SERVICE_SUFFIX", "SORTS", "SQL_MEMORY", "SQL_MEMORY_ENV", "STREAM_BATCH", "SUMMARY_COLUMNS", "TABLES",
           "WORK_SIZE", "Archive", "Column", "DealId", "DealPage", "DealSummary", "Emptied", "ImportItem", "ImportSummary", "MatchView",
           "PlayerView", "SearchFilters", "SeatNames", "ServiceArchive", "announced", "arrow_batch", "checkpoint", "decode_cursor", "default_path", "deal_id",
           "encode_cursor", "fatal", "match_of", "matches", "name_words", "open_reader", "open_sql", "open_writer",
           "player", "rebuild_file", "run_sql", "run_with_timeout", "running_service", "service_file", "service_url", "sql_memory"]
