"""The archive as a whole: statistics over matching deals, and the players."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from tutepgn.archive import Archive, SearchFilters

from ..deps import Service, filter_parameters


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    api = APIRouter(prefix="/api/v1", tags=["archive"])

    @api.get("/stats", summary="Statistics over matching deals", openapi_extra=filter_parameters())
    def stats(view: Reader, f: Annotated[SearchFilters, Depends(service.filters)]) -> dict[str, Any]:
        return service.timed(view, lambda: view.stats(f))

    @api.get("/players", summary="Players with their deal and win counts")
    def players(view: Reader, limit: Annotated[int, Query(ge=1, le=service.settings.max_page)] = 100
                ) -> list[dict[str, Any]]:
        return service.timed(view, lambda: view.players(limit))

    return api
