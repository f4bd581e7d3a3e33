"""Puzzles from a player's own mistakes (:mod:`tutepgn.archive.puzzles`): the list without answers, a chosen card
judged, and the page that asks them one at a time.

The list never carries the answer (the card played, the best cards, the best line): the page and a client
learn it only by posting a card.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from tutepgn.archive import Archive
from tutepgn.archive.puzzles import PUZZLES, Puzzle, Verdict, check_answer, puzzles
from tutepgn.errors import IllegalAction, NotAnalysed, Problem, UnknownPlayer, UnknownPuzzle

from ..deps import Service
from ..language import PAGES
from ..problems import unprocessable

MAX_PUZZLES = 100
"""The most puzzles one request lists."""


class AnswerBody(BaseModel):
    """A card chosen for a puzzle."""

    card: str = Field(max_length=8, description="A card code, e.g. 12C.", examples=["12C"])


class PuzzleList(BaseModel):
    """A player's puzzles, the costliest first, without their answers."""

    player: str
    puzzles: list[Puzzle]


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    api = APIRouter(prefix="/api/v1", tags=["puzzles"])
    pages = APIRouter(include_in_schema=False)
    missing: dict[int | str, dict[str, Any]] = {404: {"model": Problem, "description": "No such player, or none of their deals is analysed "
                                                      "(`tute archive analyse`)."}}

    def listed(view: Archive, name: str, limit: int) -> list[Puzzle]:
        try:
            return service.timed(view, lambda: puzzles(view, name, limit=limit))
        except (UnknownPlayer, NotAnalysed) as exc:
            raise HTTPException(404, str(exc)) from None

    @api.get("/players/{name}/puzzles", response_model=PuzzleList, responses=missing,
             summary="A player's puzzles: the positions of their archived deals where their card lost the most "
                     "(without the answers: post a card to /api/v1/puzzles/{id}/answer)")
    def list_puzzles(name: str, view: Reader,
                     limit: Annotated[int, Query(ge=1, le=MAX_PUZZLES)] = PUZZLES) -> PuzzleList:
        return PuzzleList(player=name, puzzles=listed(view, name, limit))

    @api.post("/puzzles/{puzzle_id}/answer", response_model=Verdict,
              responses={404: {"model": Problem, "description": "No such puzzle."},
                         422: {"model": Problem, "description": "Not a card code, or a card the mover may not "
                                                               "play there."}},
              summary="Judge a card for a puzzle: right or wrong, the best cards, the card played, the best line")
    def answer_puzzle(puzzle_id: str, view: Reader, body: Annotated[AnswerBody, Body()]) -> Verdict:
        try:
            return service.timed(view, lambda: check_answer(view, puzzle_id, body.card))
        except UnknownPuzzle as exc:
            raise HTTPException(404, str(exc)) from None
        except IllegalAction as exc:
            raise unprocessable([exc]) from None
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from None

    @pages.get("/players/{name}/puzzles", response_class=HTMLResponse)
    def puzzles_page(request: Request, name: str, view: Reader) -> HTMLResponse:
        """One puzzle at a time: the board as the player saw it, the legal cards as buttons (puzzle.js asks for
        the answer once a card is chosen)."""
        shown = [p.model_dump(mode="json") for p in listed(view, name, PUZZLES)]  # the answers stay out
        return PAGES.TemplateResponse(request, "puzzle.html", {"name": name, "puzzles": shown})

    both = APIRouter()
    both.include_router(api)
    both.include_router(pages)
    return both
