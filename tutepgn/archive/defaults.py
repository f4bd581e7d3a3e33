"""The archive's defaults that a command line shows before any work is done, in a module that imports
nothing, so that ``tute --help`` builds its options without loading DuckDB or Arrow."""

from __future__ import annotations

ROW_GROUP_ROWS = 122_880
"""Rows in one of DuckDB's row groups (its default ``ROW_GROUP_SIZE``)."""
BATCH_SIZE = ROW_GROUP_ROWS
"""Records per transaction by default: one DuckDB row group of deals.  A whole row group is written
straight into the file at the commit instead of through the write-ahead log (twice as slow when
measured), and a batch that fills its row groups exactly leaves no part-filled one behind, which a
later checkpoint would merge with its neighbours by rewriting them: with batches of 128,000, a
checkpoint rewrote every deal written before it (see docs/performance.md)."""
EXPORT_FORMATS = ("tpgn", "json", "jsonl", "csv", "parquet")
"""The formats of :func:`tutepgn.archive.download.export` (parquet only to a directory)."""
SQL_MEMORY_ENV = "TUTEPGN_SQL_MEMORY"
"""Environment variable: the memory limit of :func:`tutepgn.archive.sql.run_sql` (``tute sql``), in bytes."""
SQL_MEMORY = 2 * 2**30
"""The memory limit of :func:`tutepgn.archive.sql.run_sql` by default: 2 GiB of address space, DuckDB's buffer
pool half of it."""
