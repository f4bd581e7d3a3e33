"""The HTTP service: a JSON API under ``/api/v1`` and server-rendered pages, over one archive.

Each route parses its request, makes one library call and maps its errors to
a problem (:mod:`.problems`); the routes live by resource in :mod:`.routes`.
One process owns the DuckDB file: each request reads on a cursor of its own
(lent by :class:`.pool.Readers`), writes (imports) go through one lock;
requests wait in line for one of a few threads.  Every query runs under a time
limit and a row cap, on a connection with file and network access off and its
configuration locked.  Errors are RFC 9457 problem details, never stack traces.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from tutepgn.limits import check_settings

from . import contract, language, problems, requestid
from .caching import Caching, open_shared
from .deps import Service
from .head import HeadAsGet
from .guards import SecurityHeaders
from .routes import (analysis, archive, boards, club, deals, downloads, events, ladder, pages, play, puzzles,
                     ratings, recordings, records, rules, view)
from .settings import Settings

__all__ = ["Settings", "app_from_env", "create_app"]

HERE = Path(__file__).resolve().parent
EXPOSED_HEADERS = ["X-Total-Count", "X-Row-Cap", "X-Truncated", "Location", "Retry-After", "Content-Disposition",
                   requestid.HEADER, "Allow", "WWW-Authenticate", "ETag"]
"""Every header of the service's answers that a script of another origin may read (CORS ``expose_headers``):
those the API documents, past the few a browser shows any script (Content-Type, Content-Language...)."""
GZIP_MIN_BYTES = 1000
"""Answers of at least this many bytes go gzipped to clients that take gzip (a page of 500 deals, 145 KB, goes in
16 KB); a smaller one would gain less than the time spent."""


def create_app(settings: Settings | None = None) -> FastAPI:
    """The service over one archive file."""
    check_settings()
    service = Service(settings or Settings.from_env())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Requests past the limit wait in line for a thread, first come first served: on a busy service a few
        # threads finish each request sooner than many threads fighting for the GIL (docs/service.md).
        anyio.to_thread.current_default_thread_limiter().total_tokens = service.settings.concurrency
        yield
        service.jobs.close()  # the analysis processes end with the app (tute serve then closes the archive)

    # /docs (Swagger UI) and /redoc with their scripts and styles served from the package fastapi-offline
    # ships them in (/static-offline-docs), never from a CDN: the docs work offline.
    # The operationIds are the routes' names (api/contract.py), for the clients generated from the document.
    app: FastAPI = FastAPIOffline(title="tutepgn", version=contract.package_version(),
                                  summary="Tute deals: search, validate, convert, replay.",
                                  description="The archive of Tute deals in Tute PGN. Errors are RFC 9457 problem "
                                              "details.", lifespan=lifespan,
                                  generate_unique_id_function=contract.operation_id)
    app.state.service = service
    app.state.archive = service.archive
    app.state.settings = service.settings
    app.add_middleware(problems.BodyLimit, limit=service.settings.max_body_bytes)
    if service.settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=service.settings.cors_origins,
                           allow_methods=["GET", "HEAD", "POST", "PUT"],
                           allow_headers=["X-API-Key", "Content-Type", requestid.HEADER],
                           expose_headers=EXPOSED_HEADERS)
    app.add_middleware(language.Language)  # the reader's language, spoken while the request is answered
    # Streamed answers too, piece by piece; never an event stream (text/event-stream: Starlette leaves it as is),
    # whose events must go out as they come.  Inside HeadAsGet, so a HEAD says what its GET sends.
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES, compresslevel=6)
    # ETags and Cache-Control, and 304 before any work when the client's copy is current; outside gzip, so
    # that a gzipped answer's ETag says so (api/caching.py).
    settings = service.settings
    app.add_middleware(Caching, generation=lambda: service.generation, keep_bytes=settings.answer_cache_bytes,
                       shared=open_shared(settings.shared_answers, settings.shared_answer_bytes))
    app.add_middleware(HeadAsGet)  # HEAD answered as GET, without the body
    requestid.install(app)  # outside all but the security headers: a 413 and a CORS refusal carry the id too
    app.add_middleware(SecurityHeaders)  # the outermost: on every answer, a 413 or a CORS refusal too
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    problems.install(app)
    for router in (language.router(), deals.router(service), analysis.router(service), records.router(service), archive.router(service), rules.router(),
                   recordings.router(service), club.router(service), downloads.router(service), puzzles.router(service),
                   boards.router(service), pages.router(service), view.router(service), ratings.router(service),
                   events.router(service), play.router(service), ladder.router(service)):
        app.include_router(router)
    contract.install(app)  # the OpenAPI document as what the service answers
    return app


def app_from_env() -> FastAPI:
    """The app for ``uvicorn --factory tutepgn.api.app:app_from_env``."""
    return create_app(Settings.from_env())
