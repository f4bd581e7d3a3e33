"""The process ``tute sql`` runs its query in: run as a script (``python -I sandbox.py``) by :func:`.sql.run_sql`.

It imports DuckDB and the standard library only, so it starts in a fraction
of the time the package takes, and it limits its own address space before the
query starts, so that a query that builds huge strings or lists outside
DuckDB's buffer pool fails (or dies) here, not in the caller.

It reads one request (path, query, row cap, memory in bytes, and for a Parquet
dataset the statements that make its views: :func:`.dataset.view_statements`)
from stdin and answers on stdout, both as :class:`multiprocessing.connection.Connection`
messages: ``("ready", None)`` once the archive is open and the limit set, then
``("rows", (columns, rows, cut))`` or ``("error", (exception name, message))``.
"""

from __future__ import annotations

import os
import resource
from multiprocessing.connection import Connection
from pathlib import Path

import duckdb


def open_sql(path: str | os.PathLike[str], *, memory_limit: str = "1GB", threads: int = 2) -> duckdb.DuckDBPyConnection:
    """A read-only connection for ad hoc SQL: no files, no network, no extensions, configuration locked."""
    if not Path(path).exists():
        raise FileNotFoundError(f"no archive at {path}")
    con = duckdb.connect(str(path), read_only=True, config={
        "enable_external_access": False, "autoload_known_extensions": False, "autoinstall_known_extensions": False,
        "memory_limit": memory_limit, "threads": threads})
    con.execute("SET lock_configuration = true")
    return con


def open_dataset_sql(root: str, statements: list[str], *, memory_limit: str = "1GB",
                     threads: int = 2) -> duckdb.DuckDBPyConnection:
    """An in-memory connection whose tables are views of a dataset's files (``statements`` make them), then
    reaching no file outside ``root``, no network, no extensions, configuration locked."""
    con = duckdb.connect(":memory:", config={"autoload_known_extensions": False, "autoinstall_known_extensions": False,
                                             "memory_limit": memory_limit, "threads": threads})
    for statement in statements:
        con.execute(statement)
    con.execute("SET allowed_directories = ?", [[root + "/"]])
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


def only_reads(con: duckdb.DuckDBPyConnection, query: str) -> None:
    """Refuse all but SELECT statements: the views' folder stays reachable, and ``COPY ... TO`` could write
    into it (an archive file's connection reaches no folder, so it needs no such check)."""
    for statement in con.extract_statements(query):
        if statement.type != duckdb.StatementType.SELECT:
            raise duckdb.PermissionException(
                f"a dataset is read-only: SQL over it runs SELECT statements (and DESCRIBE, SHOW, SUMMARIZE), "
                f"not {statement.type.name}")


def address_space() -> int:
    """This process's virtual memory size (VmSize), in bytes."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


def answer(requests: Connection, answers: Connection) -> None:
    """Run the one query asked on ``requests``; send the rows or the error on ``answers``."""
    path, query, max_rows, memory, views = requests.recv()
    limit = f"{memory // 2 // 2**20}MB"  # DuckDB's pool: half the budget
    try:
        con = open_sql(path, memory_limit=limit) if views is None else open_dataset_sql(*views, memory_limit=limit)
        resource.setrlimit(resource.RLIMIT_AS, (address_space() + memory, resource.RLIM_INFINITY))
        answers.send(("ready", None))
        if views is not None:
            only_reads(con, query)
        cursor = con.execute(query)
        if cursor.description is None:
            answers.send(("rows", ([], [], False)))
            return
        rows = cursor.fetchmany(max_rows + 1)
        answers.send(("rows", ([d[0] for d in cursor.description], rows[:max_rows], len(rows) > max_rows)))
    except (duckdb.Error, MemoryError, OSError) as exc:
        answers.send(("error", (type(exc).__name__, str(exc))))


if __name__ == "__main__":
    answer(Connection(0, writable=False), Connection(1, readable=False))
