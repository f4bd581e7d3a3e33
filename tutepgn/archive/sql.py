"""Ad hoc SQL on an archive, read-only and under a time limit (``tute sql``; the service's queries too).

:func:`run_with_timeout` is public because every query a service runs needs
the same limit: one watchdog thread interrupts whichever query outlives it.
"""

from __future__ import annotations

import heapq
import itertools
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import duckdb

T = TypeVar("T")


def open_sql(path: str | os.PathLike[str], *, memory_limit: str = "1GB", threads: int = 2) -> duckdb.DuckDBPyConnection:
    """A read-only connection for ad hoc SQL: no files, no network, no extensions, configuration locked."""
    if not Path(path).exists():
        raise FileNotFoundError(f"no archive at {path}")
    con = duckdb.connect(str(path), read_only=True, config={
        "enable_external_access": False, "autoload_known_extensions": False, "autoinstall_known_extensions": False,
        "memory_limit": memory_limit, "threads": threads})
    con.execute("SET lock_configuration = true")
    return con


def run_sql(path: str | os.PathLike[str], query: str, *, timeout: float = 10.0,
            max_rows: int = 10_000) -> tuple[list[str], list[tuple[Any, ...]], bool]:
    """Run one query read-only with a time limit; return columns, at most ``max_rows`` rows, and whether cut."""
    con = open_sql(path)
    try:
        def work() -> tuple[list[str], list[tuple[Any, ...]], bool]:
            cursor = con.execute(query)
            if cursor.description is None:
                return [], [], False
            rows = cursor.fetchmany(max_rows + 1)
            return [d[0] for d in cursor.description], rows[:max_rows], len(rows) > max_rows
        return run_with_timeout(con, timeout, work)
    finally:
        con.close()


class _Watchdog:
    """One thread that interrupts the queries that outlive their time limit.

    A service runs hundreds of queries a second: one timer thread for all of
    them, rather than a thread started (and stopped) for each.
    """

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._deadlines: list[tuple[float, int]] = []  # a heap of (deadline, ticket)
        self._watched: dict[int, duckdb.DuckDBPyConnection] = {}
        self._tickets = itertools.count()
        self._thread: threading.Thread | None = None

    def watch(self, con: duckdb.DuckDBPyConnection, seconds: float) -> int:
        """Interrupt ``con`` in ``seconds`` unless :meth:`release` comes first; returns the ticket for it."""
        ticket = next(self._tickets)
        with self._ready:
            self._watched[ticket] = con
            heapq.heappush(self._deadlines, (time.monotonic() + seconds, ticket))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="tutepgn-query-watchdog", daemon=True)
                self._thread.start()
            self._ready.notify()
        return ticket

    def release(self, ticket: int) -> None:
        with self._ready:
            self._watched.pop(ticket, None)

    def _run(self) -> None:
        with self._ready:
            while True:
                now = time.monotonic()
                while self._deadlines and (self._deadlines[0][0] <= now or self._deadlines[0][1] not in self._watched):
                    _, ticket = heapq.heappop(self._deadlines)
                    con = self._watched.pop(ticket, None)
                    if con is not None:
                        con.interrupt()
                self._ready.wait(self._deadlines[0][0] - now if self._deadlines else None)


_WATCHDOG = _Watchdog()


def run_with_timeout(con: duckdb.DuckDBPyConnection, seconds: float, work: Callable[[], T]) -> T:
    """Run ``work`` on ``con``; interrupt the query if it takes longer than ``seconds``."""
    ticket = _WATCHDOG.watch(con, seconds)
    try:
        return work()
    finally:
        _WATCHDOG.release(ticket)
