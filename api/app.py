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
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from tutepgn.limits import check_settings

from . import contract, language, problems
from .deps import Service
from .head import HeadAsGet
from .guards import SecurityHeaders
from .routes import (analysis, archive, boards, club, deals, downloads, events, pages, puzzles, ratings, recordings,
                     records, rules, view)
from .settings import Settings

__all__ = ["Settings", "app_from_env", "create_app"]

HERE = Path(__file__).resolve().parent


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
                           allow_methods=["GET", "POST"], allow_headers=["X-API-Key", "Content-Type"])
    app.add_middleware(language.Language)  # the reader's language, spoken while the request is answered
    app.add_middleware(HeadAsGet)  # HEAD answered as GET, without the body
    app.add_middleware(SecurityHeaders)  # the outermost: on every answer, a 413 or a CORS refusal too
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    problems.install(app)
    for router in (language.router(), deals.router(service), analysis.router(service), records.router(service), archive.router(service), rules.router(),
                   recordings.router(service), club.router(service), downloads.router(service), puzzles.router(service),
                   boards.router(service), pages.router(service), view.router(service), ratings.router(service),
                   events.router(service)):
        app.include_router(router)
    contract.install(app)  # the OpenAPI document as what the service answers
    return app


def app_from_env() -> FastAPI:
    """The app for ``uvicorn --factory tutepgn.api.app:app_from_env``."""
    return create_app(Settings.from_env())
