"""The bots' ladder: the levels in order of strength, each with the arena's difference to the one below it, read
from the boards ``tute arena --store`` and ``bench/arena.py`` keep in the archive (docs/play.md).

One library call: :func:`tutepgn.play.ladder.ladders` over :func:`tutepgn.archive.arena_boards.arena_boards`.
"""

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from tutepgn.archive import Archive
from tutepgn.archive.arena_boards import arena_boards
from tutepgn.play.ladder import ladders

from ..deps import Service
from ..language import PAGES


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    pages = APIRouter(include_in_schema=False)

    @pages.get("/ladder", response_class=HTMLResponse)
    def ladder_page(request: Request, view: Reader) -> HTMLResponse:
        """Each ruleset's ladder of levels, on a phone too."""
        found = service.timed(view, lambda: ladders(arena_boards(view)))
        return PAGES.TemplateResponse(request, "ladder.html", {"ladders": found})

    return pages
