"""The archive's defaults that a command line shows before any work is done, in a module that imports
nothing, so that ``tute --help`` builds its options without loading DuckDB or Arrow."""

from __future__ import annotations

BATCH_SIZE = 16 * 8000
"""Records per transaction by default: more than one DuckDB row group (122,880 rows), so that DuckDB
writes the rows of a batch straight into the file instead of through its write-ahead log, which
measured as twice as slow (see docs/performance.md)."""
EXPORT_FORMATS = ("tpgn", "json", "jsonl", "csv", "parquet")
"""The formats of :func:`tutepgn.archive.export.export` (parquet only to a directory)."""
SQL_MEMORY_ENV = "TUTEPGN_SQL_MEMORY"
"""Environment variable: the memory limit of :func:`tutepgn.archive.sql.run_sql` (``tute sql``), in bytes."""
SQL_MEMORY = 2 * 2**30
"""The memory limit of :func:`tutepgn.archive.sql.run_sql` by default: 2 GiB of address space, DuckDB's buffer
pool half of it."""
