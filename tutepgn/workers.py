"""Work on pieces of records in worker processes, answers in order: the pipeline of imports and validations."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from importlib.machinery import ModuleSpec
from itertools import islice
from types import ModuleType
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

PR_SET_PDEATHSIG = 1
"""Linux's prctl option: a signal the kernel sends a process when its parent dies."""
WATCH_SECONDS = 0.5
"""How often a worker checks that the process that started it is still there."""


KEPT_OUT = ("pandas",)
"""Modules no worker uses that a library would import on its own when installed: pyarrow's ``pa.array`` probes
for pandas (to take its objects) and imports it, 48 MiB of memory in every worker of an import
(docs/performance.md)."""


class KeepOut:
    """A finder, first on a worker's ``sys.meta_path``, that answers an import of :data:`KEPT_OUT` as a missing
    module: a library that probes for one goes on without it, as where it is not installed."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name.partition(".")[0] in KEPT_OUT:
            raise ModuleNotFoundError(f"No module named {name!r} (kept out of tutepgn's workers)", name=name)
        return None


def started(parent: int, by_main_thread: bool) -> None:
    """A worker's initializer: its :func:`lifeline`, and :data:`KEPT_OUT` kept out (unless the main module the
    worker imported first had imported one already)."""
    if not any(name in sys.modules for name in KEPT_OUT):
        sys.meta_path.insert(0, KeepOut())
    lifeline(parent, by_main_thread)


def lifeline(parent: int, by_main_thread: bool) -> None:
    """A worker's initializer: the worker dies with the process that started it.

    Killed with SIGKILL, a process cannot stop its workers, which would then
    wait for work for good.  On Linux the kernel kills the worker when its
    parent dies (``PR_SET_PDEATHSIG``; only when the pool was started by the main
    thread, since the kernel watches the starting thread, not the process); on
    every system a daemon thread sees the worker adopted by another process
    and ends it within :data:`WATCH_SECONDS`.
    """
    if by_main_thread and sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # it died before the line above
        os.kill(os.getpid(), signal.SIGKILL)
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="tutepgn-lifeline").start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os.kill(os.getpid(), signal.SIGKILL)


def ordered_map(work: Callable[[T], R], pieces: Iterator[T], jobs: int, *, ahead: int) -> Iterator[R]:
    """``work(piece)`` for every piece, in order: here when ``jobs`` <= 1, else in ``jobs`` worker processes.

    At most ``ahead`` pieces are out at once, so memory stays flat however long
    the input.  Workers are spawned: fresh interpreters, not copies of a main
    process that may hold DuckDB's buffers, and children of this process, so
    they die with it (:func:`lifeline`; a fork server would outlive it, and so
    would its workers), without the modules they never use (:data:`KEPT_OUT`).
    ``work`` must be picklable (a module-level function, or a
    ``functools.partial`` of one).
    """
    if jobs <= 1:
        for piece in pieces:
            yield work(piece)
        return
    by_main_thread = threading.current_thread() is threading.main_thread()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                             initializer=started, initargs=(os.getpid(), by_main_thread)) as pool:
        pending = deque(pool.submit(work, piece) for piece in islice(pieces, ahead))
        while pending:
            done = pending.popleft()
            following = next(pieces, None)
            if following is not None:
                pending.append(pool.submit(work, following))
            yield done.result()
