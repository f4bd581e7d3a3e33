"""The club's pages as files to print or open in a spreadsheet: the statistics, a match's score sheet and a
player's deals, as CSV, XLSX or PDF (:mod:`tutepgn.archive.club_sheets`), in the request's language; an
event's standings the same way, and a round's table sheets as a PDF (:mod:`tutepgn.archive.event_sheets`).

The CSV here is the spreadsheet's, in the language's convention (Spanish ``;`` and a decimal comma); the
scripts' CSV is ``/api/v1/deals.csv`` (``,`` and a point, unless ``?lang=`` asks for a spreadsheet's).
"""

import unicodedata
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import Response

from tutepgn.archive import Archive, SearchFilters
from tutepgn.archive.club_sheets import match_download, player_download, stats_download
from tutepgn.archive.event_sheets import standings_download, table_sheets_pdf
from tutepgn.archive.events import load_event
from tutepgn.archive.printing import Download
from tutepgn.errors import EventError
from tutepgn.i18n import language
from tutepgn.tournament import Event

from ..deps import Service, filter_parameters
from .club import found_matches, found_player

Format = Literal["csv", "xlsx", "pdf"]
FILES: dict[int | str, dict[str, Any]] = {200: {"content": {"text/csv": {}, "application/pdf": {},
                           "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {}},
               "description": "The file, as an attachment."}}


def attachment(download: Download) -> Response:
    """A file to save (``Content-Disposition: attachment``) under the library's name for it: a name with
    accents as it is for the browsers that read RFC 6266's ``filename*``, without them for the others."""
    name = download.filename
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    disposition = f'attachment; filename="{plain}"'
    if plain != name:
        disposition += f"; filename*=UTF-8''{quote(name)}"
    return Response(download.body, media_type=download.media_type, headers={"Content-Disposition": disposition})


def found_event(view: Archive, name: str) -> Event:
    """The stored event ``name``; the problem 404 if there is none."""
    try:
        return load_event(view, name)
    except EventError as exc:
        raise HTTPException(404, str(exc)) from None


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    api = APIRouter(prefix="/api/v1", tags=["archive"])

    @api.get("/stats.{fmt}", response_class=Response, responses=FILES, openapi_extra=filter_parameters(),
             summary="The statistics over matching deals as a file: csv (the players), xlsx or pdf (every table)")
    def stats_file(fmt: Format, view: Reader, f: Annotated[SearchFilters, Depends(service.filters)]) -> Response:
        stats = service.timed(view, lambda: view.stats(f))
        return attachment(stats_download(stats, f.given(), fmt, language()))

    @api.get("/matches/{match_id}/sheet.{fmt}", response_class=Response, responses=FILES,
             summary="A match's score sheet as a file: each deal's points and the standing after it")
    def match_file(match_id: str, fmt: Format, view: Reader) -> Response:
        return attachment(match_download(found_matches(service, view, match_id), match_id, fmt, language()))

    @api.get("/players/{name}/sheet.{fmt}", response_class=Response, responses=FILES,
             summary="A player's page as a file: their newest deals (csv), partners and opponents (xlsx, pdf)")
    def player_file(name: str, fmt: Format, view: Reader) -> Response:
        return attachment(player_download(found_player(service, view, name), fmt, language()))

    events = APIRouter(prefix="/events", tags=["events"])

    @events.get("/{name}/standings.{fmt}", response_class=Response, responses=FILES,
                summary="An event's standings as a file, in the page's order: csv (the standings), xlsx or pdf "
                        "(the cross-table, or a duplicate event's boards, too)")
    def standings_file(name: str, fmt: Format, view: Reader) -> Response:
        return attachment(standings_download(found_event(view, name), fmt, language()))

    @events.get("/{name}/rounds/{round_no}/sheets.pdf", response_class=Response,
                responses={200: {"content": {"application/pdf": {}}, "description": "The file, as an attachment."}},
                summary="A round's table sheets to print: a page per table, its QR code the table's page here")
    def sheets_file(name: str, round_no: int, request: Request, view: Reader) -> Response:
        event = found_event(view, name)
        try:
            return attachment(table_sheets_pdf(event, round_no, str(request.base_url), language()))
        except EventError as exc:  # no such round
            raise HTTPException(404, str(exc)) from None

    both = APIRouter()
    both.include_router(api)
    both.include_router(events)
    return both
