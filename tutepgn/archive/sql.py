"""Ad hoc SQL on an archive, read-only, in a process of its own under a time and a memory limit (``tute sql``),
and the time limit of the service's queries.

:func:`run_with_timeout` is public because every query a service runs needs
the same limit: one watchdog thread interrupts whichever query outlives it.
"""

from __future__ import annotations

import heapq
import itertools
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

import duckdb

from ..errors import LimitError
from ..i18n import gettext as _
from . import sandbox
from .defaults import SQL_MEMORY, SQL_MEMORY_ENV
from .held import held_error

T = TypeVar("T")

START_TIMEOUT = 60.0
"""Seconds the process of :func:`run_sql` may take to start and open the archive (a loaded machine)."""


def run_sql(path: str | os.PathLike[str], query: str, *, timeout: float = 10.0, max_rows: int = 10_000,
            memory: int | None = None, dataset: bool = False) -> tuple[list[str], list[tuple[Any, ...]], bool]:
    """Run one query read-only in a process of its own; return columns, at most ``max_rows`` rows, and whether cut.

    ``path`` is an archive file, or with ``dataset`` a Parquet dataset's folder
    (its tables are views of the committed files; only SELECT statements run).

    The process may take ``memory`` bytes of address space beyond what it holds
    when the query starts (default :func:`sql_memory`; DuckDB's own limit is half
    of it), and is killed ``timeout`` seconds after the query starts: DuckDB's
    limits alone do not hold for every query (a string built by ``repeat``, a
    list by ``list_concat``, lives outside its buffer pool, and an interrupt is
    only seen between its steps).  Raises :class:`~tutepgn.errors.LimitError`
    past either limit, ``duckdb.Error`` for a query DuckDB refuses, and
    ``FileNotFoundError`` without an archive.
    """
    views = None
    if dataset:
        from .dataset import view_statements  # Arrow loads for a dataset only

        views = view_statements(path)
    elif not Path(path).exists():
        raise FileNotFoundError(f"no archive at {path}")
    memory = sql_memory() if memory is None else memory
    child = subprocess.Popen([sys.executable, "-I", sandbox.__file__], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdin is not None and child.stdout is not None
    requests = Connection(os.dup(child.stdin.fileno()), readable=False)
    answers = Connection(os.dup(child.stdout.fileno()), writable=False)
    started = False
    try:
        requests.send((str(path), query, max_rows, memory, views))
        if not answers.poll(START_TIMEOUT):
            raise LimitError(_("the query's process did not start within {seconds:g} s", seconds=START_TIMEOUT))
        kind, payload = answers.recv()  # ready: the archive is open and the limit set; the query starts now
        if kind == "ready":  # else the error of opening the archive (another process holds it)
            started = True
            if not answers.poll(timeout):
                raise LimitError(_("the query ran over {seconds:g} s and was stopped", seconds=timeout))
            kind, payload = answers.recv()
    except (EOFError, BrokenPipeError):  # the process died without a word: a failed allocation, the kernel
        child.wait()
        raise LimitError(_("the query's process ended with status {status} (over its memory limit of {memory:,} "
                           "bytes?)", status=child.returncode, memory=memory) if started else
                         _("the query's process ended with status {status} before the query started",
                           status=child.returncode)) from None
    finally:
        child.kill()  # a no-op once it has ended
        child.wait()
        for end in (requests, answers, child.stdin, child.stdout):
            end.close()
    if kind == "rows":
        rows: tuple[list[str], list[tuple[Any, ...]], bool] = payload  # the child's (columns, rows, cut short)
        return rows
    name, message = payload
    if name in ("OutOfMemoryException", "MemoryError"):
        raise LimitError(_("the query needs more than its memory limit of {memory:,} bytes: {reason}", memory=memory,
                           reason=message.splitlines()[0]))
    if name == "IOException" and "Could not set lock" in message:  # another process holds the file
        raise held_error(path, duckdb.IOException(message))
    error = getattr(duckdb, name, None)
    raise (error if isinstance(error, type) and issubclass(error, duckdb.Error) else duckdb.Error)(message)


def sql_memory() -> int:
    """The memory limit of :func:`run_sql`, in bytes: $TUTEPGN_SQL_MEMORY, else :data:`SQL_MEMORY`."""
    value = os.environ.get(SQL_MEMORY_ENV, "")
    if not value:
        return SQL_MEMORY
    if not value.isdigit() or int(value) < 64 * 2**20:
        raise ValueError(_("{name}={value!r}: give a number of bytes, at least 64 MiB (67108864)", name=SQL_MEMORY_ENV,
                           value=value))
    return int(value)


class _Watchdog:
    """One thread that interrupts the queries that outlive their time limit.

    A service runs hundreds of queries a second: one timer thread for all of
    them, rather than a thread started (and stopped) for each.  The thread is
    woken only when a new deadline comes before every other one (with one time
    limit for all queries, only when none is waiting), not for each query, which
    cost a thread switch and a turn of the GIL each.  A released query's
    deadline stays in the heap until it passes.
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
            elif self._deadlines[0][1] == ticket:  # the thread sleeps until a later deadline, or for good
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
