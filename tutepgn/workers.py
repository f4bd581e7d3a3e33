"""Work on pieces of records in worker processes, answers in order: the pipeline of imports and validations."""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def ordered_map(work: Callable[[T], R], pieces: Iterator[T], jobs: int, *, ahead: int) -> Iterator[R]:
    """``work(piece)`` for every piece, in order: here when ``jobs`` <= 1, else in ``jobs`` worker processes.

    At most ``ahead`` pieces are out at once, so memory stays flat however long
    the input.  Workers start by forkserver: small, not copies of a main process
    that may hold DuckDB's buffers.  ``work`` must be picklable (a module-level
    function, or a ``functools.partial`` of one).
    """
    if jobs <= 1:
        for piece in pieces:
            yield work(piece)
        return
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("forkserver")) as pool:
        pending = deque(pool.submit(work, piece) for piece in islice(pieces, ahead))
        while pending:
            done = pending.popleft()
            following = next(pieces, None)
            if following is not None:
                pending.append(pool.submit(work, following))
            yield done.result()
