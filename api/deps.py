"""What the routes share: the archive, its readers and page cache, the time limit, the threads, and the
dependencies that read a request (a reader, the search filters, the API key)."""

import asyncio
import hmac
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, TypeVar

import duckdb
from fastapi import Header, HTTPException, Query, Request
from pydantic import ValidationError

from tutepgn.archive import SORTS, Archive, DealPage, SearchFilters, run_with_timeout
from tutepgn.errors import ErrorItem

from .limits import Deadline
from .pool import PageCache, Readers
from .problems import parameter_errors
from .settings import Settings

T = TypeVar("T")

PAGING = frozenset({"sort", "limit", "cursor"})
"""Query parameters that go with the filters: the order and the page."""

SortParam = Annotated[str, Query(description=f"One of {', '.join(SORTS)}.", pattern="^(" + "|".join(
    s.replace("-", "\\-") for s in SORTS) + ")$")]


class Service:
    """One archive served: opened once, read on lent cursors, written under one lock."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.archive = Archive(settings.db, read_only=settings.read_only, secure=True, threads=settings.threads)
        self.readers = Readers(self.archive)
        self.cache = (PageCache(settings.search_cache, settings.page_cache_bytes)
                      if settings.search_cache and settings.page_cache_bytes else None)
        self.streams = threading.BoundedSemaphore(settings.max_streams)
        """A slot per streamed answer being sent: a cap on the memory and threads downloads take."""
        self.write_lock = threading.Lock()
        # Posted records (validate, convert, import) are worked on by threads of their own, so that a long
        # import holds up neither the reads nor the event loop.
        self.posted = ThreadPoolExecutor(max_workers=settings.concurrency, thread_name_prefix="tutepgn-posted")

    def close(self) -> None:
        self.readers.close()
        self.archive.close()

    # Cheap and async, so they run on the event loop: a search or a deal fetch takes one thread (for its route)
    # and waits in line for it once.
    async def reader(self) -> AsyncIterator[Archive]:
        """A reader for this request (a dependency)."""
        with self.readers.borrowed() as view:
            yield view

    async def stream_slot(self) -> AsyncIterator[None]:
        """A slot for one streamed answer, held until it is sent or its client goes (a dependency); 503 if
        ``max_streams`` are being sent."""
        if not self.streams.acquire(blocking=False):
            raise HTTPException(503, f"{self.settings.max_streams} downloads are under way; try again shortly",
                                headers={"Retry-After": "5"})
        try:
            yield
        finally:
            self.streams.release()

    async def filters(self, request: Request) -> SearchFilters:
        """Search filters from the query string (a dependency)."""
        return search_filters(request)

    async def require_key(self, x_api_key: Annotated[str | None, Header(
            description="An API key (write endpoints).")] = None) -> None:
        """Refuse a request without a valid API key (a dependency)."""
        if x_api_key is None:
            raise HTTPException(401, "this endpoint needs an API key in the X-API-Key header")
        if not any(hmac.compare_digest(x_api_key.encode(), key.encode()) for key in self.settings.api_keys):
            raise HTTPException(403, "that API key is not valid")

    def timed(self, view: Archive, work: Callable[[], T]) -> T:
        """``work`` on ``view`` under the query time limit (504 past it)."""
        try:
            return run_with_timeout(view.con, self.settings.query_timeout, work)
        except duckdb.InterruptException:
            raise HTTPException(504, f"the query ran over {self.settings.query_timeout:g} s and was stopped") from None

    async def off_loop(self, work: Callable[[Deadline], T]) -> T:
        """``work`` on a thread for posted records, under the request time limit (504 past it).

        ``work`` checks its :class:`~.limits.Deadline` as it goes and stops at
        the next check once the limit has passed; an import that has come to
        its commit is waited for instead, so its client is never told it failed.
        """
        deadline = Deadline(self.settings.request_timeout)
        future = asyncio.get_running_loop().run_in_executor(self.posted, work, deadline)
        try:
            return await asyncio.wait_for(asyncio.shield(future), deadline.seconds)
        except TimeoutError:
            if not deadline.expire():
                return await future
        future.add_done_callback(lambda done: done.exception())  # its LimitError, when it stops, is expected
        raise HTTPException(504, f"the request ran over {deadline.seconds:g} s and was stopped; nothing was stored")

    def deal_page(self, view: Archive, filters: SearchFilters, *, sort: str, limit: int,
                  after: str | None) -> DealPage:
        """A page of a search: from the page cache when there is one."""
        if self.cache is None:
            return view.deal_page(filters, sort=sort, limit=limit, after=after)
        return self.cache.deal_page(view, filters, sort=sort, limit=limit, after=after)


def search_filters(request: Request) -> SearchFilters:
    """Search filters from the query string (the same names as the fields of SearchFilters); 422 if wrong."""
    known = set(SearchFilters.model_fields)
    data: dict[str, Any] = {}
    for key, value in request.query_params.multi_items():
        if key == "held":
            data.setdefault("held", []).append(value)
        elif key in known and value != "":
            data[key] = value
        elif key not in known and key not in PAGING:  # a misspelt filter must not widen a search
            raise HTTPException(422, [ErrorItem(message="unknown parameter; the filters are "
                                                f"{', '.join(sorted(known))}, with {', '.join(sorted(PAGING))}",
                                                text=f"query.{key}")])
    try:
        return SearchFilters(**data)
    except ValidationError as exc:
        raise HTTPException(422, parameter_errors(exc, "query.")) from None


def filter_parameters() -> dict[str, Any]:
    """The search filters as OpenAPI query parameters (the `filters` dependency reads them by hand)."""
    params = []
    for name, prop in SearchFilters.model_json_schema()["properties"].items():
        description = prop.pop("description", None)
        prop.pop("default", None)
        prop.pop("title", None)
        options = [o for o in prop.pop("anyOf", []) if o.get("type") != "null"]
        schema = {**options[0], **prop} if len(options) == 1 else prop
        params.append({"name": name, "in": "query", "required": False, "description": description,
                       "schema": schema})
    return {"parameters": params}
