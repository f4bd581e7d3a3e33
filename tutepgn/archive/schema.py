"""What makes the archive's data describe itself: the schema version an archive file stores (table ``meta``) and
a Parquet dataset's manifests carry, checked on open, and the comments on its tables and columns.

The version is :data:`.columns.SCHEMA_VERSION`.  A file made by this tutepgn gets it, and the comments, when
its tables are created; a file without it (written before versions were stored) or with another is refused
with the way out: ``tute archive rebuild`` re-imports its stored records into a file of this schema.
"""

from __future__ import annotations

import os
import uuid
from typing import TYPE_CHECKING

from ..errors import SchemaVersionError
from ..i18n import gettext as _
from .columns import SCHEMA_VERSION, comments_sql

if TYPE_CHECKING:
    import duckdb

META = "CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);\n"
"""The archive file's facts about itself, key and value: ``schema_version``."""
VERSION_KEY = "schema_version"
WRITES = "archive_writes"
"""The table that counts the file's committed writes, a row each (:func:`bump`): its generation."""


def created(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the file on ``con`` has its tables yet (no table ``deals``: a new file)."""
    return con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'deals' AND schema_name = 'main'"
                       ).fetchone() != (0,)


def describe(con: duckdb.DuckDBPyConnection) -> None:
    """Stamp a new file (its tables just created) with this schema's version and its comments, in one
    transaction."""
    con.execute("BEGIN")
    con.execute(META)
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [VERSION_KEY, str(SCHEMA_VERSION)])
    con.execute(comments_sql())
    con.execute("COMMENT ON TABLE meta IS 'what the file says of itself: schema_version, the version of its tables'")
    con.execute("COMMIT")


def stored_version(con: duckdb.DuckDBPyConnection) -> int | None:
    """The schema version the file on ``con`` stores (None: none, as in a file made before it was stored)."""
    if con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'meta' AND schema_name = 'main'"
                   ).fetchone() == (0,):
        return None
    row = con.execute("SELECT value FROM meta WHERE key = ?", [VERSION_KEY]).fetchone()
    return int(row[0]) if row and str(row[0]).isdigit() else None


def has_writes(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the file has its :data:`WRITES` table."""
    return con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND schema_name = 'main'",
                       [WRITES]).fetchone() != (0,)


def make_writes(con: duckdb.DuckDBPyConnection) -> None:
    """Make :data:`WRITES`, with generation 0 and the file's own random id (in the caller's transaction)."""
    con.execute(f"CREATE TABLE {WRITES} (generation BIGINT PRIMARY KEY, archive_id VARCHAR NOT NULL, "
                "written TIMESTAMP DEFAULT current_timestamp)")
    con.execute(f"COMMENT ON TABLE {WRITES} IS 'one row per committed write: the archive''s generation, which a "
                "service''s ETags follow, and the file''s own random id'")
    con.execute(f"INSERT INTO {WRITES} (generation, archive_id) VALUES (0, ?)", [uuid.uuid4().hex])


def count_writes(con: duckdb.DuckDBPyConnection) -> None:
    """Make :data:`WRITES` in a file opened for writing that has none (new, or made before writes were
    counted).  At the open, before any reader: a table made while a reader holds a result keeps DuckDB from
    checkpointing until it lets go."""
    if not has_writes(con):
        con.execute("BEGIN")
        make_writes(con)
        con.execute("COMMIT")


def bump(con: duckdb.DuckDBPyConnection) -> None:
    """Count a write in the file's generation, inside the write's open transaction, so that the count and the
    write commit together (an import's transaction, analyses stored, an event's change): a row added to
    :data:`WRITES` with the next generation.  Rows are only ever added: an ``UPDATE`` would keep DuckDB from
    checkpointing after the write while a service's idle readers hold their last results."""
    if not has_writes(con):  # a connection that did not open the file through Archive, which makes the table
        make_writes(con)
    con.execute(f"INSERT INTO {WRITES} (generation, archive_id) SELECT max(generation) + 1, any_value(archive_id) "
                f"FROM {WRITES}")


def generation(con: duckdb.DuckDBPyConnection, path: str | os.PathLike[str]) -> str:
    """The file's identity and write count as one token, ``<archive_id>.<generation>``: changed by every
    committed write (:func:`bump`), and different for another file.  A file no write has been counted in yet
    (new, or made before writes were counted) is named by its inode, size and modification time, which stay
    put while it is open read-only (DuckDB then lets no process write it) and until its first counted write."""
    import duckdb

    try:
        count, archive_id = con.execute(f"SELECT max(generation), any_value(archive_id) FROM {WRITES}").fetchone()  # type: ignore[misc]
    except duckdb.CatalogException:
        count = archive_id = None
    if count is None:
        stat = os.stat(path)
        return f"{stat.st_ino:x}-{stat.st_size:x}-{stat.st_mtime_ns:x}.0"
    return f"{archive_id}.{count}"


def refused(path: str | os.PathLike[str], found: int | None) -> SchemaVersionError:
    """The error for an archive file of schema ``found``: the way out is a rebuild from its stored records."""
    return SchemaVersionError(
        _("{path} is an archive of schema {found}, and this tutepgn reads schema {version}: rebuild it from its "
          "stored records with `tute archive rebuild --db {path} -o NEW.duckdb` (or in place, without -o: the "
          "old file is kept as {path}.bak)", path=path, version=SCHEMA_VERSION, found=found) if found is not None
        else _("{path} is an archive written before schema versions were stored, and this tutepgn reads schema "
               "{version}: rebuild it from its stored records with `tute archive rebuild --db {path} -o "
               "NEW.duckdb` (or in place, without -o: the old file is kept as {path}.bak)",
               path=path, version=SCHEMA_VERSION),
        path=str(path), found=found, expected=SCHEMA_VERSION)


def check(con: duckdb.DuckDBPyConnection, path: str | os.PathLike[str]) -> None:
    """Refuse the archive file on ``con`` unless it stores this schema's version (:func:`refused`)."""
    found = stored_version(con)
    if found != SCHEMA_VERSION:
        raise refused(path, found)


def dataset_version(manifests: list[dict[str, object]]) -> int | None:
    """The schema version a dataset's manifests commit its files under: this one only if every manifest says it
    (else the first other one found; None for a manifest that says none, as before versions were stored)."""
    for manifest in manifests:
        found = manifest.get(VERSION_KEY)
        if found != SCHEMA_VERSION:
            return found if isinstance(found, int) else None
    return SCHEMA_VERSION


def check_dataset(dest: str, manifests: list[dict[str, object]]) -> None:
    """Refuse a Parquet dataset whose files are of another schema version: the way out is to make it again."""
    found = dataset_version(manifests)
    if found != SCHEMA_VERSION:
        raise SchemaVersionError(
            _("{dest} is a dataset of schema {found}, and this tutepgn reads schema {version}: make it again, from "
              "its archive file (`tute export --format parquet -o NEW`) or its records (`tute import FILES --to "
              "parquet NEW`)", dest=dest, found=found if found is not None else _("unknown"),
              version=SCHEMA_VERSION), path=dest, found=found, expected=SCHEMA_VERSION)
