"""The club's pages as files to print or open in a spreadsheet: the statistics, a match's score sheet and a
player's deals, as CSV, XLSX or PDF (:mod:`tutepgn.archive.club_sheets`), in the request's language.

The CSV here is the spreadsheet's, in the language's convention (Spanish ``;`` and a decimal comma); the
scripts' CSV is ``/api/v1/deals.csv`` (``,`` and a point, unless ``?lang=`` asks for a spreadsheet's).
"""

import unicodedata
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from tutepgn.archive import Archive, SearchFilters
from tutepgn.archive.club_sheets import match_download, player_download, stats_download
from tutepgn.archive.printing import Download
from tutepgn.i18n import language

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

    return api
