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


class PageCache:
    """Search pages by their query, kept as the JSON the service sends, for a service that answers the same
    searches again.

    A page costs a scan of the archive (milliseconds on a million deals); a hit
    costs a look-up, and the JSON route sends the kept bytes as they are.  The
    pages are kept as JSON, not as models: a page's objects take 9 times its
    JSON (1.2 MB for a page of 500 deals), so the same memory holds 9 times the
    pages.  The service clears it whenever an import commits deals, so a hit is
    always what the query would return.  Thread-safe; least recently used pages
    go first, so that at most ``size`` pages and ``max_bytes`` bytes of JSON are
    kept.
    """

    def __init__(self, size: int, max_bytes: int | None = None) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        """The length of the pages kept."""
        self.hits = self.misses = 0
        self.generation = 0
        """Counts the clears: a page read before a clear is not kept after it."""
        self._pages: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        with self._lock:
            kept = self._pages.get(key)
            if kept is None:
                self.misses += 1
                return None
            self.hits += 1
            self._pages.move_to_end(key)
            return kept

    def put(self, key: tuple[Any, ...], page: bytes, generation: int) -> None:
        """Keep ``page``, read when :attr:`generation` was ``generation`` (dropped if deals came in since)."""
        with self._lock:
            if generation != self.generation or (self.max_bytes is not None and len(page) > self.max_bytes):
                return
            old = self._pages.pop(key, None)
            if old is not None:
                self.bytes -= len(old)
            self._pages[key] = page
            self.bytes += len(page)
            while len(self._pages) > self.size or (self.max_bytes is not None and self.bytes > self.max_bytes):
                self.bytes -= len(self._pages.popitem(last=False)[1])

    def __len__(self) -> int:
        return len(self._pages)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self.bytes = 0
            self.generation += 1

    def page_json(self, view: Archive, filters: SearchFilters, *, sort: str = "date", limit: int = 50,
                  after: str | None = None, before: str | None = None) -> bytes:
        """:meth:`Archive.deal_page` as JSON, from the cache when the same search was answered since the last
        import."""
        return self._page(view, filters, sort, limit, after, before)[0]

    def deal_page(self, view: Archive, filters: SearchFilters, *, sort: str = "date", limit: int = 50,
                  after: str | None = None, before: str | None = None) -> DealPage:
        """:meth:`Archive.deal_page`, from the cache when the same search was answered since the last import
        (read back from its JSON)."""
        data, page = self._page(view, filters, sort, limit, after, before)
        return page if page is not None else DealPage.model_validate_json(data)

    def _page(self, view: Archive, filters: SearchFilters, sort: str, limit: int, after: str | None,
              before: str | None) -> tuple[bytes, DealPage | None]:
        """The page's JSON, and its model when it was not in the cache."""
        key = (filters.model_dump_json(), sort, limit, after, before)
        data = self.get(key)
        if data is not None:
            return data, None
        generation = self.generation
        page = view.deal_page(filters, sort=sort, limit=limit, after=after, before=before)
        data = page.model_dump_json().encode()
        self.put(key, data, generation)
        return data, page
