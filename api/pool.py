"""What a busy service keeps between requests: lent cursors and search pages.

A library user opens an :class:`~tutepgn.archive.Archive` and queries it; a
service answering hundreds of requests a second over one archive also wants
to reuse cursors (:class:`Readers`) and answer repeated searches from memory
(:class:`PageCache`).
"""

import threading
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tutepgn.archive import Archive, DealPage, SearchFilters

IDLE_READERS = 64
"""Readers (DuckDB cursors) :meth:`Readers.borrowed` keeps for the next requests; more are closed when given back."""


class Readers:
    """Readers of one archive, lent one per request and given back after.

    Opening and closing a cursor for each request takes DuckDB's locks while
    the GIL is held.  A reader whose work raised (any error: a query
    interrupted by its time limit, a deal not found) is closed, not given
    back, so no request inherits the state of a failed one.
    """

    def __init__(self, archive: Archive, keep: int = IDLE_READERS) -> None:
        self.archive = archive
        self.keep = keep
        self.idle: deque[Archive] = deque()
        """The readers waiting for a request (deques are thread-safe)."""
        self.generation = 0
        """Counts :meth:`reset`: a reader lent before one is closed when given back, never lent again."""

    @contextmanager
    def borrowed(self) -> Iterator[Archive]:
        """A reader for one request: the most recently given back one, or a new one."""
        generation = self.generation
        try:
            view = self.idle.pop()
        except IndexError:
            view = self.archive.reader()
        try:
            yield view
        except BaseException:
            view.close()
            raise
        if generation != self.generation:  # the archive was opened again meanwhile
            view.close()
        elif len(self.idle) < self.keep:
            self.idle.append(view)
        else:  # a burst of requests is over: keep no more than a busy service needs
            view.close()

    def close(self) -> None:
        """Close the idle readers."""
        while self.idle:
            self.idle.pop().close()

    def reset(self) -> None:
        """Close the idle readers and every lent one when it is given back: before the archive is opened
        again, since DuckDB keeps a database open while any cursor of it is."""
        self.generation += 1
        self.close()


PAGE_OBJECT_BYTES = 9
"""Bytes of memory a page's objects take per byte of its JSON (measured: 1.18 MB for a page of 500 deals
whose JSON is 129 KB).  A page is weighed as its JSON times this."""


class PageCache:
    """Pages of search results by their query, for a service that answers the same searches again.

    A page costs a scan of the archive (milliseconds on a million deals); a hit
    costs a look-up.  The service clears it whenever an import commits deals,
    so a hit is always what the query would return.  Thread-safe; least
    recently used pages go first, so that at most ``size`` pages and
    ``max_bytes`` bytes (each page weighed by :func:`page_bytes`) are kept.
    Pages are frozen models, shared by every hit.
    """

    def __init__(self, size: int, max_bytes: int | None = None) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        """The weight of the pages kept."""
        self.hits = self.misses = 0
        self.generation = 0
        """Counts the clears: a page read before a clear is not kept after it."""
        self._pages: OrderedDict[tuple[Any, ...], tuple[DealPage, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> DealPage | None:
        with self._lock:
            kept = self._pages.get(key)
            if kept is None:
                self.misses += 1
                return None
            self.hits += 1
            self._pages.move_to_end(key)
            return kept[0]

    def put(self, key: tuple[Any, ...], page: DealPage, generation: int) -> None:
        """Keep ``page``, read when :attr:`generation` was ``generation`` (dropped if deals came in since)."""
        weight = page_bytes(page)
        with self._lock:
            if generation != self.generation or (self.max_bytes is not None and weight > self.max_bytes):
                return
            old = self._pages.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._pages[key] = (page, weight)
            self.bytes += weight
            while len(self._pages) > self.size or (self.max_bytes is not None and self.bytes > self.max_bytes):
                self.bytes -= self._pages.popitem(last=False)[1][1]

    def __len__(self) -> int:
        return len(self._pages)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self.bytes = 0
            self.generation += 1

    def deal_page(self, view: Archive, filters: SearchFilters, *, sort: str = "date", limit: int = 50,
                  after: str | None = None, before: str | None = None) -> DealPage:
        """:meth:`Archive.deal_page`, from the cache when the same search was answered since the last import."""
        key = (filters.model_dump_json(), sort, limit, after, before)
        page = self.get(key)
        if page is None:
            generation = self.generation
            page = view.deal_page(filters, sort=sort, limit=limit, after=after, before=before)
            self.put(key, page, generation)
        return page


def page_bytes(page: DealPage) -> int:
    """About the memory ``page`` takes: its JSON's length times :data:`PAGE_OBJECT_BYTES`."""
    return len(page.model_dump_json()) * PAGE_OBJECT_BYTES
