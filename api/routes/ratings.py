"""The ratings: the ranking of players or pairs as JSON and as a page, and a player's history drawn as a chart.

One library call each (:func:`tutepgn.archive.ratings.current`): the stored ratings while they are the
archive's, else reckoned again in memory (a page writes nothing; ``tute ratings`` stores them).
"""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from tutepgn.archive import Archive
from tutepgn.i18n import gettext as _
from tutepgn.archive.ratings import RatingHistory, RatingRow, current, player_rating, ranking

from ..deps import Service
from ..language import PAGES

CHART = {"width": 640, "height": 220, "left": 40, "right": 12, "top": 12, "bottom": 28}
"""The history chart's size and margins, in SVG units (scaled to the screen's width by the page's CSS)."""

Pairs = Annotated[bool, Query(description="The pairs of four-player matches (each pair's own rating, and its two "
                                          "players' as a team) instead of the players.")]


def history_chart(rating: RatingHistory | None) -> dict[str, Any] | None:
    """A player's history as the page's SVG draws it: the rating after each match as a line, its uncertainty
    (± sigma) as a band, and the gridlines' values (None without two points to join)."""
    if rating is None or len(rating.history) < 2:
        return None
    ratings = [p.rating for p in rating.history]
    sigmas = [p.sigma for p in rating.history]
    low = min(r - s for r, s in zip(ratings, sigmas))
    high = max(r + s for r, s in zip(ratings, sigmas))
    c = CHART
    inner_w, inner_h = c["width"] - c["left"] - c["right"], c["height"] - c["top"] - c["bottom"]
    step = inner_w / (len(ratings) - 1)

    def y(value: float) -> float:
        return round(c["top"] + (high - value) / (high - low) * inner_h, 1)

    xs = [round(c["left"] + at * step, 1) for at in range(len(ratings))]
    line = " ".join(f"{x},{y(r)}" for x, r in zip(xs, ratings))
    band = " ".join([f"{x},{y(r + s)}" for x, r, s in zip(xs, ratings, sigmas)]
                    + [f"{x},{y(r - s)}" for x, r, s in reversed(list(zip(xs, ratings, sigmas)))])
    ticks = [{"y": y(v), "label": f"{v:.0f}"} for v in (high, (high + low) / 2, low)]
    dots = [{"x": x, "y": y(r), "title": f"{p.date or '?'} · {p.match} · {r:.1f} ± {s:.1f}"}
            for x, r, s, p in zip(xs, ratings, sigmas, rating.history)]
    return {**c, "line": line, "band": band, "ticks": ticks, "dots": dots, "bottom_y": c["height"] - 8,
            "matches": len(ratings)}


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    api = APIRouter(prefix="/api/v1", tags=["archive"])
    pages = APIRouter(include_in_schema=False)

    @api.get("/ratings", response_model=list[RatingRow],
             summary="The ranking of players (or pairs) by their OpenSkill rating over every finished match, best "
                     "first, with its uncertainty: docs/ratings.md")
    def get_ratings(view: Reader, pairs: Pairs = False) -> list[RatingRow]:
        return service.timed(view, lambda: ranking(current(view), pairs))

    @api.get("/players/{name}/rating", response_model=RatingHistory,
             summary="A player's rating (their line of the ranking) and its history: after each of their matches, "
                     "its date, match, mu, sigma and rating; 404 if no rated match names them")
    def get_player_rating(name: str, view: Reader) -> RatingHistory:
        rated = service.timed(view, lambda: player_rating(view, name))
        if rated is None:
            raise HTTPException(404, _("no rated match of {name} in the archive", name=repr(name)))
        return rated

    @pages.get("/ratings", response_class=HTMLResponse)
    def ratings_page(request: Request, view: Reader, pairs: Pairs = False) -> HTMLResponse:
        """The ranking of /api/v1/ratings, on a phone too."""
        rated = service.timed(view, lambda: current(view))
        return PAGES.TemplateResponse(request, "ranking.html", {"rows": ranking(rated, pairs), "pairs": pairs,
                                                                "matches": rated.matches})

    both = APIRouter()
    both.include_router(api)
    both.include_router(pages)
    return both
