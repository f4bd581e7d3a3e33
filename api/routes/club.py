"""What a club reads beside a deal: a match, a player and the statistics, each as JSON and as a page.

The JSON and the page of each come from the same library call (:mod:`tutepgn.archive.club`,
:meth:`~tutepgn.archive.Archive.stats`); the rules page is ``routes/rules.py``'s.
"""

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse

from tutepgn.archive import Archive, MatchView, PlayerView, SearchFilters, matches, player
from tutepgn.archive.ratings import player_rating
from tutepgn.i18n import gettext as _

from ..deps import Service, search_filters
from ..language import PAGES
from .ratings import history_chart

SUITS = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
"""The suits' names, as the pages write a suit letter (the same in Spanish and English)."""


def found_matches(service: Service, view: Archive, match_id: str) -> list[MatchView]:
    """Every match stored under ``match_id``; 404 if none is."""
    told = service.timed(view, lambda: matches(view, match_id))
    if not told:
        raise HTTPException(404, _("no match {id} in the archive", id=repr(match_id)))
    return told


def found_player(service: Service, view: Archive, name: str) -> PlayerView:
    """A player by the name the records give; 404 if no deal names them."""
    told = service.timed(view, lambda: player(view, name))
    if told is None:
        raise HTTPException(404, _("no player {name} in the archive", name=repr(name)))
    return told


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    api = APIRouter(prefix="/api/v1", tags=["archive"])
    pages = APIRouter(include_in_schema=False)

    @api.get("/matches/{match_id}", response_model=list[MatchView],
             summary="A match: its deals in order, the standing after each, and its winner (every match stored "
                     "under this id: ids are chosen by whoever recorded them)")
    def get_match(match_id: str, view: Reader) -> list[MatchView]:
        return found_matches(service, view, match_id)

    @api.get("/players/{name}", response_model=PlayerView,
             summary="A player (by the name the records give): deals, results, cantes, partners and opponents")
    def get_player(name: str, view: Reader) -> PlayerView:
        return found_player(service, view, name)

    @pages.get("/matches/{match_id}", response_class=HTMLResponse)
    def match_page(request: Request, match_id: str, view: Reader) -> HTMLResponse:
        return PAGES.TemplateResponse(request, "match.html", {"matches": found_matches(service, view, match_id),
                                                              "match_id": match_id, "suits": SUITS})

    @pages.get("/players/{name}", response_class=HTMLResponse)
    def player_page(request: Request, name: str, view: Reader) -> HTMLResponse:
        found = found_player(service, view, name)
        rating = service.timed(view, lambda: player_rating(view, name))
        return PAGES.TemplateResponse(request, "player.html", {"player": found, "suits": SUITS, "rating": rating,
                                                               "chart": history_chart(rating)})

    @pages.get("/stats", response_class=HTMLResponse)
    def stats_page(request: Request, view: Reader) -> HTMLResponse:
        """The statistics of /api/v1/stats over the deals the search's filters match."""
        error, stats, given = None, None, {}
        try:
            filters = search_filters(request)
            given = filters.given()
            stats = service.timed(view, lambda: view.stats(filters))
        except HTTPException as exc:
            error = exc.detail
        query = {k: v for k, v in request.query_params.items() if k in SearchFilters.model_fields}
        return PAGES.TemplateResponse(request, "stats.html", {"stats": stats, "error": error, "given": given,
                                                              "query": query, "suits": SUITS})

    both = APIRouter()
    both.include_router(api)
    both.include_router(pages)
    return both
