"""The archive as a whole: statistics over matching deals, the players, and its health."""

from typing import Annotated, Any

import duckdb
from fastapi import APIRouter, Depends, Query

from tutepgn.archive import Archive, SearchFilters, fatal
from tutepgn.errors import Problem

from ..deps import Service, filter_parameters
from ..models import Health, PlayerCount, Stats


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    api = APIRouter(prefix="/api/v1", tags=["archive"])

    @api.get("/stats", response_model=Stats, summary="Statistics over matching deals",
             openapi_extra=filter_parameters())
    def get_stats(view: Reader, f: Annotated[SearchFilters, Depends(service.filters)]) -> dict[str, Any]:
        return service.timed(view, lambda: view.stats(f))

    @api.get("/players", response_model=list[PlayerCount], summary="Players with their deal and win counts")
    def list_players(view: Reader, limit: Annotated[int, Query(ge=1, le=service.settings.max_page)] = 100
                ) -> list[dict[str, Any]]:
        return service.timed(view, lambda: view.players(limit))

    @api.get("/health", response_model=Health, summary="The archive's state: ok, degraded or read-only (200), or "
             "why it cannot be used (503)", responses={503: {"model": Problem, "description": "The archive cannot be "
                                                     "used now (`detail` says why); it is opened again when it can."},
                                                504: {"model": Problem, "description": "Counting the deals ran over "
                                                      "`query_timeout`."}})
    def get_health() -> Health:
        for attempt in range(2):  # a fatal error found here is answered after opening the archive again
            service.usable()
            try:
                with service.readers.borrowed() as view:
                    deals = service.timed(view, view.count)
                break
            except duckdb.Error as exc:
                if not fatal(exc) or attempt:
                    raise
                service.failed(exc)
        set_aside = service.recordings.set_aside() if service.recordings else 0
        return Health(status="read-only" if service.settings.read_only else "degraded" if set_aside else "ok",
                      deals=deals, write_failure=service.write_failure, set_aside=set_aside)

    return api
