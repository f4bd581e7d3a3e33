"""What the routes share: the archive, its readers and page cache, the time limit, the threads, and the
dependencies that read a request (a reader, the search filters, the API key)."""

import asyncio
import contextvars
import hmac
import logging
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, Literal, TypeVar

import duckdb
from fastapi import HTTPException, Path, Query, Request, Security
from fastapi.security import APIKeyHeader
from pydantic import ValidationError

from tutepgn.archive import SORTS, Archive, DealPage, ImportSummary, SearchFilters, deal_id, fatal, run_with_timeout
from tutepgn.archive.analyses import store_rows
from tutepgn.archive.rows import Raw
from tutepgn.cards import SUIT_LETTERS
from tutepgn.errors import ArchiveError, ArchiveWriteError, ErrorItem
from tutepgn.i18n import N_, ngettext
from tutepgn.i18n import gettext as _
from tutepgn.recording.live import Recording, Recordings

from .language import number
from .jobs import Jobs
from .jobstore import JobStore
from .local import from_this_machine
from .guards import Deadline
from .pool import PageCache, Readers
from .problems import parameter_errors
from .settings import Settings

T = TypeVar("T")
log = logging.getLogger("tutepgn.api")

PAGING = frozenset({"sort", "limit", "cursor", "before", "start"})
"""Query parameters that go with the filters: the order and the page (``start``: the search page's number of
its first row, for "51-100 of 294")."""
LANG = "lang"
"""The query parameter that chooses the language (:mod:`.i18n`): every URL takes it, a search's too."""

Sort = Literal["date", "-date", "points", "-points", "margin", "-margin", "id"]
"""The orders of a search (:data:`tutepgn.archive.SORTS`: a test holds them equal); ``-`` for descending."""
SortParam = Annotated[Sort, Query(description=f"One of {', '.join(SORTS)}.")]
SUIT_FILTERS = ("trump", "cante_suit")
"""Search filters whose values are a suit's letter (any case is read; the document names the upper case)."""


DealIdPath = Annotated[int, Path(description="A deal's id: the digits of the `id` a search answers (a string in "
                                             "JSON answers, an integer of up to 63 bits).",
                                 json_schema_extra={"format": "int64"})]
"""A deal's id in a path: digits, as every JSON answer writes it (``"123"``) or as a number reads (``123``)."""


API_KEY = APIKeyHeader(name="X-API-Key", scheme_name="APIKey", auto_error=False, description=(
    "An API key: needed to write, except from the service's own machine while no key is configured "
    "(docs/security.md); on an analysis, a place outside the anonymous budget; on a recording's read, adds the "
    "legal declarations."))
"""The key as an OpenAPI security scheme; ``auto_error=False``: the service says itself what is wrong
(:meth:`Service.check_key`)."""
KeyHeader = Annotated[str | None, Security(API_KEY)]

ONE_TRANSACTION = sys.maxsize
"""The batch size of an import of the service: one transaction, so that it is stored whole or not at all."""
REOPEN_SECONDS = 1.0
"""While the archive cannot be used, requests try to open it again at most this often."""


class Service:
    """One archive served: opened once, read on lent cursors, written under one lock; opened again after a
    fatal error (a full disk at a checkpoint) once the file can be used, without a restart."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        if settings.dataset is not None:
            from tutepgn.archive.dataset import dataset_archive
            self.archive = dataset_archive(settings.dataset, secure=True, threads=settings.threads)
        else:
            self.archive = Archive(settings.db, read_only=settings.read_only, secure=True, threads=settings.threads)
        self.readers = Readers(self.archive)
        self.failure: tuple[str, str] | None = None
        """Why the archive cannot be used now: a message with ``{error}`` and the error's name, said in the
        reader's language by :meth:`failure_text` (None while it can be used)."""
        self.write_failure: str | None = None
        """The last import the archive could not write, and when (None since one succeeded)."""
        self.reopen_lock = threading.Lock()
        self.last_reopen = 0.0
        self.cache = (PageCache(settings.search_cache, settings.page_cache_bytes)
                      if settings.search_cache and settings.page_cache_bytes else None)
        self.streams = threading.BoundedSemaphore(settings.max_streams)
        """A slot per streamed answer being sent: a cap on the memory and threads downloads take."""
        self.event_streams = threading.BoundedSemaphore(settings.max_event_streams)
        """A slot per live recording's event stream: a budget of their own, so that followers never take the
        places of downloads."""
        self.write_lock = threading.Lock()
        self.generation = self.current_generation()
        """The archive's generation (:func:`tutepgn.archive.schema.generation`), read at the start and after each
        write: what the answers over the whole archive are revalidated by (:mod:`.caching`); None for a
        dataset, which keeps none."""
        # Posted records (validate, convert, import) are worked on by threads of their own, so that a long
        # import holds up neither the reads nor the event loop.
        self.posted = ThreadPoolExecutor(max_workers=settings.concurrency, thread_name_prefix="tutepgn-posted")
        self.jobs = Jobs(settings.analysis_workers, on_done=self.store_analysis, anonymous=settings.anon_analyses,
                         store=JobStore(settings.jobs_folder))
        self.closed = False
        self.recordings = None if settings.read_only else Recordings(settings.recordings_folder)
        """The deals being recorded live (None when read-only: nothing can be written)."""
        for recording in self.recordings.unfinished_imports() if self.recordings else ():
            self.import_recording(recording)  # the server stopped between a deal's last card and its import

    def close(self) -> None:
        """End the service's work and close the archive, its write-ahead log folded into the file first: the
        commands that open the file next find it whole, with no ``.wal`` beside it."""
        self.closed = True
        self.jobs.close()
        self.posted.shutdown(wait=False, cancel_futures=True)  # posted work not yet started never starts
        with self.write_lock:  # an import still under way ends first (its time limit bounds it)
            self.readers.reset()  # a reader still lent is closed when given back: DuckDB closes with the last
            if not self.settings.read_only and self.failure is None:
                try:
                    self.archive.con.execute("CHECKPOINT")
                except duckdb.Error as exc:  # a full disk: the log stays, and the next open replays it
                    log.warning("the archive could not be checkpointed as the service stopped: %s", exc)
            self.archive.close()

    def store_analysis(self, row: tuple[Any, ...]) -> None:
        """Keep a stored deal's analysis row in the archive (not read-only), so it is worked on once;
        cached search pages go, since the analysis filters may now match the deal."""
        if self.settings.read_only or self.closed:  # a job that ends after the service
            return
        try:
            with self.write_lock:
                self.usable()
                con = self.archive.con
                con.execute("BEGIN TRANSACTION")  # the row and the archive's generation together
                try:
                    store_rows(con, [row])
                except BaseException:
                    con.execute("ROLLBACK")
                    raise
                con.execute("COMMIT")
                self.written()
        except (duckdb.Error, HTTPException) as exc:  # the answer is given all the same
            log.warning("an analysis could not be stored: %s", exc)

    def current_generation(self) -> str | None:
        """The archive's generation as its file stores it (None for a dataset, or while it cannot be read)."""
        if self.settings.dataset is not None:
            return None
        try:
            return self.archive.generation()
        except duckdb.Error as exc:
            log.warning("the archive's generation could not be read: %s", exc)
            return None

    def written(self) -> None:
        """After a write (under the write lock): the cached search pages go, and the generation is read again,
        so that every ETag over the whole archive changes."""
        if self.cache is not None:
            self.cache.clear()
        self.generation = self.current_generation()

    def import_raw(self, raw: Iterable[Raw], names: list[str], *, progress: Callable[[int, int], None] | None = None,
                   locked: Callable[[], None] | None = None) -> ImportSummary:
        """Import records in one transaction, under the write lock (``locked`` runs once it is held); 503 when
        the archive cannot be written, and nothing of the import is stored then."""
        with self.write_lock:  # cached pages are dropped as the import commits
            if locked is not None:
                locked()
            self.usable()
            try:
                summary = self.archive.import_raw(raw, names=names, batch_size=ONE_TRANSACTION, progress=progress,
                                                  items=True,  # the answer names each record's id and state
                                                  on_commit=self.written)
            except ArchiveWriteError as exc:  # one transaction: nothing of it is stored
                self.write_failure = f"{time.strftime('%Y-%m-%d %H:%M:%S')}: {type(exc.__cause__).__name__}"
                log.error("an import could not be written: %s", exc)
                raise HTTPException(503, ngettext(
                    "the archive could not be written (a full disk or an I/O error); {count} record was committed "
                    "before that: import again to finish (stored records are skipped)",
                    "the archive could not be written (a full disk or an I/O error); {count} records were "
                    "committed before that: import again to finish (stored records are skipped)",
                    exc.committed, count=number(exc.committed))) from None
            finally:
                self.check_connection()  # a fatal error after the commit: opened again now
            self.write_failure = None
            return summary  # committed: a success, whatever failed after the commit

    def import_recording(self, recording: Recording) -> None:
        """Import a recorded deal once it is over (validated, stored valid or not) and close its recording;
        left for later (the next entry, or a restart) if the archive cannot be written now."""
        if not recording.importing.acquire(blocking=False):  # another request is importing it
            return
        try:
            record = recording.finished()
            if record is None:
                return
            text = record.tpgn()
            self.import_raw([(f"<live {recording.id}>", 0, 1, text)], names=[f"<live {recording.id}>"])
            recording.imported(deal_id(text)[0])
        except (HTTPException, duckdb.Error, ArchiveError, OSError) as exc:
            log.error("the recorded deal %s could not be imported yet: %s", recording.id, exc)
        finally:
            recording.importing.release()

    # -- Faults: a database DuckDB invalidated is opened again, at most once a REOPEN_SECONDS ----------------
    def failed(self, exc: BaseException) -> None:
        """Note a fatal error of the archive (:func:`tutepgn.archive.fatal`) and try to open it again."""
        self.failure = (N_("the archive failed: {error}"), type(exc).__name__)
        log.error("the archive failed and will be opened again: %s", exc)
        self.recover(force=True)

    def recover(self, *, force: bool = False) -> bool:
        """Open the archive again if it failed (at most once a :data:`REOPEN_SECONDS` unless ``force``);
        True when it can be used."""
        if self.failure is None:
            return True
        with self.reopen_lock:
            if self.failure is None:
                return True
            if not force and time.monotonic() - self.last_reopen < REOPEN_SECONDS:
                return False
            self.last_reopen = time.monotonic()
            self.readers.reset()
            try:
                self.archive.reopen()
            except (duckdb.Error, ArchiveError, OSError) as exc:
                self.failure = (N_("the archive cannot be opened again yet: {error}"), type(exc).__name__)
                log.error("the archive cannot be opened again yet: %s", exc)
                return False
            self.failure = None
            self.written()  # what the log replayed may be newer than what was answered
            log.warning("the archive was opened again and is in use")
            return True

    def check_connection(self) -> None:
        """After an import: a fatal error at its checkpoint invalidates the database though every record was
        committed; find out now and open it again, rather than at the next request."""
        try:
            self.archive.con.execute("SELECT 1").fetchone()
        except duckdb.Error as exc:
            if fatal(exc):
                self.failed(exc)

    def failure_text(self) -> str:
        """Why the archive cannot be used, in the language being spoken ("" while it can be)."""
        return _(self.failure[0], error=self.failure[1]) if self.failure else ""

    def usable(self) -> None:
        """Answer 503 while the archive cannot be used (after trying to open it again)."""
        if not self.recover():
            raise HTTPException(503, _("{failure}; it is opened again as soon as it can be: try again later",
                                       failure=self.failure_text()),
                                headers={"Retry-After": str(max(1, round(REOPEN_SECONDS)))})

    # Cheap and async, so they run on the event loop: a search or a deal fetch takes one thread (for its route)
    # and waits in line for it once.
    async def reader(self) -> AsyncIterator[Archive]:
        """A reader for this request (a dependency): 503 while the archive cannot be used."""
        self.usable()
        with self.readers.borrowed() as view:
            yield view

    async def stream_slot(self) -> AsyncIterator[None]:
        """A slot for one streamed answer, held until it is sent or its client goes (a dependency); 503 if
        ``max_streams`` are being sent."""
        if not self.streams.acquire(blocking=False):
            raise HTTPException(503, ngettext("{n} download is under way; try again shortly",
                                              "{n} downloads are under way; try again shortly",
                                              self.settings.max_streams),
                                headers={"Retry-After": "5"})
        try:
            yield
        finally:
            self.streams.release()

    async def event_slot(self) -> AsyncIterator[None]:
        """A slot for one live recording's event stream, held until its client goes (a dependency); 503 if
        ``max_event_streams`` are open."""
        if not self.event_streams.acquire(blocking=False):
            raise HTTPException(503, ngettext("{n} event stream is open, the most this service holds; try again "
                                              "shortly", "{n} event streams are open, the most this service holds; "
                                              "try again shortly", self.settings.max_event_streams),
                                headers={"Retry-After": "5"})
        try:
            yield
        finally:
            self.event_streams.release()

    async def filters(self, request: Request) -> SearchFilters:
        """Search filters from the query string (a dependency)."""
        return search_filters(request)

    async def caller(self, request: Request, x_api_key: KeyHeader) -> str | None:
        """The key a request writes with (a dependency): its ``X-API-Key``, else the local admin key for a request
        from this machine while that is trusted (:mod:`.local`), else None.  Every check of a key starts here."""
        if x_api_key is None and self.settings.local_writes and from_this_machine(request):
            return self.settings.local_key
        return x_api_key

    async def require_key(self, request: Request, x_api_key: KeyHeader) -> None:
        """Refuse a request without a valid API key (a dependency)."""
        self.check_key(await self.caller(request, x_api_key))

    def check_key(self, key: str | None) -> None:
        """401 without a key, 403 with one that is not a write key."""
        if key is None:
            raise HTTPException(401, _("this endpoint needs an API key in the X-API-Key header"))
        if not self.key_in(key, self.settings.write_keys):
            raise HTTPException(403, _("that API key is not valid"))

    def holds_key(self, key: str | None) -> bool:
        """Whether a request comes with a valid API key: anonymous analyses have a budget of their own."""
        return key is not None and self.key_in(key, self.settings.write_keys)

    def is_admin(self, key: str | None) -> bool:
        """Whether ``key`` is an admin key (the local one too): it may undo any scorer's recording."""
        return key is not None and self.key_in(key, self.settings.all_admin_keys)

    @staticmethod
    def key_in(key: str, keys: Iterable[str]) -> bool:
        """Whether ``key`` is one of ``keys``, compared in constant time."""
        return any(hmac.compare_digest(key.encode(), k.encode()) for k in keys)

    def timed(self, view: Archive, work: Callable[[], T]) -> T:
        """``work`` on ``view`` under the query time limit (504 past it)."""
        try:
            return run_with_timeout(view.con, self.settings.query_timeout, work)
        except duckdb.InterruptException:
            raise HTTPException(504, _("the query ran over {seconds} s and was stopped",
                                       seconds=format(self.settings.query_timeout, "g"))) from None

    async def off_loop(self, work: Callable[[Deadline], T]) -> T:
        """``work`` on a thread for posted records, under the request time limit (504 past it).

        ``work`` checks its :class:`~.limits.Deadline` as it goes and stops at
        the next check once the limit has passed; an import that has come to
        its commit is waited for instead, so its client is never told it failed.
        """
        deadline = Deadline(self.settings.request_timeout)
        run = contextvars.copy_context().run  # the request's language (tutepgn.i18n): run_in_executor drops it
        future = asyncio.get_running_loop().run_in_executor(self.posted, run, work, deadline)
        try:
            return await asyncio.wait_for(asyncio.shield(future), deadline.seconds)
        except TimeoutError:
            if not deadline.expire():
                return await future
        future.add_done_callback(lambda done: done.exception())  # its LimitError, when it stops, is expected
        raise HTTPException(504, _("the request ran over {seconds} s and was stopped; nothing was stored",
                                   seconds=format(deadline.seconds, "g")))

    def deal_page(self, view: Archive, filters: SearchFilters, *, sort: str, limit: int,
                  after: str | None, before: str | None = None) -> DealPage:
        """A page of a search: from the page cache when there is one."""
        if self.cache is None:
            return view.deal_page(filters, sort=sort, limit=limit, after=after, before=before)
        return self.cache.deal_page(view, filters, sort=sort, limit=limit, after=after, before=before)

    def page_json(self, view: Archive, filters: SearchFilters, *, sort: str, limit: int,
                  after: str | None, before: str | None = None) -> bytes:
        """A page of a search as the JSON the service sends: from the page cache when there is one."""
        if self.cache is None:
            return view.deal_page(filters, sort=sort, limit=limit, after=after, before=before).model_dump_json().encode()
        return self.cache.page_json(view, filters, sort=sort, limit=limit, after=after, before=before)


REPEATED = frozenset(name for name, field in SearchFilters.model_fields.items() if field.default_factory is list)
"""The filters a query string may repeat (``held``, ``tag``): the model's list fields."""


def search_filters(request: Request) -> SearchFilters:
    """Search filters from the query string (the same names as the fields of SearchFilters); 422 if wrong."""
    known = set(SearchFilters.model_fields)
    data: dict[str, Any] = {}
    for key, value in request.query_params.multi_items():
        if key in REPEATED:  # held, tag: each given is one more that must match
            data.setdefault(key, []).append(value)
        elif key in known and value != "":
            data[key] = value
        elif key not in known and key not in PAGING and key != LANG:  # a misspelt filter must not widen a search
            raise HTTPException(422, [ErrorItem(message=_("unknown parameter; the filters are {filters}, with "
                                                          "{paging}", filters=", ".join(sorted(known)),
                                                          paging=", ".join(sorted(PAGING))),
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
        if name in SUIT_FILTERS:
            schema["enum"] = list(SUIT_LETTERS)
        params.append({"name": name, "in": "query", "required": False, "description": description,
                       "schema": schema, "allowEmptyValue": True})  # empty: no filter (a form's blank field)
    return {"parameters": params}
