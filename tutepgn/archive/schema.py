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
"""The archive file's facts about itself, key and value: ``schema_version``, ``archive_id``, ``generation``."""
VERSION_KEY = "schema_version"
ARCHIVE_KEY = "archive_id"
"""A random id given to the file when it is made (or at its first write, for a file made before): two archives
served at one address never share a :func:`generation`."""
GENERATION_KEY = "generation"
"""A counter every committed write (an import's transaction, analyses stored, an event's change) adds one to,
in the write's own transaction: what a service's answers that depend on the whole archive revalidate by."""


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
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?), (?, '0')", [ARCHIVE_KEY, uuid.uuid4().hex, GENERATION_KEY])
    con.execute(comments_sql())
    con.execute("COMMENT ON TABLE meta IS 'what the file says of itself: schema_version, the version of its tables; "
                "archive_id, the file''s own random id; generation, a counter every committed write adds one to'")
    con.execute("COMMIT")


def stored_version(con: duckdb.DuckDBPyConnection) -> int | None:
    """The schema version the file on ``con`` stores (None: none, as in a file made before it was stored)."""
    if con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'meta' AND schema_name = 'main'"
                   ).fetchone() == (0,):
        return None
    row = con.execute("SELECT value FROM meta WHERE key = ?", [VERSION_KEY]).fetchone()
    return int(row[0]) if row and str(row[0]).isdigit() else None


def bump(con: duckdb.DuckDBPyConnection) -> None:
    """Add one to the file's :data:`GENERATION_KEY`, inside the write's open transaction (so that the count and
    the write commit together); a file made before it was kept gets it, and its :data:`ARCHIVE_KEY`, now."""
    con.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", [ARCHIVE_KEY, uuid.uuid4().hex])
    con.execute("INSERT INTO meta VALUES (?, '1') ON CONFLICT (key) DO UPDATE SET value = "
                "CAST(CAST(meta.value AS BIGINT) + 1 AS VARCHAR)", [GENERATION_KEY])


def generation(con: duckdb.DuckDBPyConnection, path: str | os.PathLike[str]) -> str:
    """The file's identity and write count as one token, ``<archive_id>.<generation>``: it changes with every
    committed write and differs between files.  A file no write has stamped yet (made before these were kept,
    and opened read-only since) is named by its inode, size and modification time, which stay put while a
    reader holds it (DuckDB lets no process write a file another holds read-only)."""
    found = dict(con.execute("SELECT key, value FROM meta WHERE key IN (?, ?)", [ARCHIVE_KEY, GENERATION_KEY]
                             ).fetchall())
    if ARCHIVE_KEY not in found:
        stat = os.stat(path)
        found[ARCHIVE_KEY] = f"{stat.st_ino:x}-{stat.st_size:x}-{stat.st_mtime_ns:x}"
    return f"{found[ARCHIVE_KEY]}.{found.get(GENERATION_KEY, '0')}"


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
