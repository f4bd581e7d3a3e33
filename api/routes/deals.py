"""Deals: search (a page, or every match streamed), and one deal as JSON, as Tute PGN, or as its score sheet."""

from collections.abc import Callable, Iterator, Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import PlainTextResponse, Response, StreamingResponse
from pydantic import BaseModel

from tutepgn.archive import STREAM_BATCH, SUMMARY_COLUMNS, Archive, DealPage, DealSummary, SearchFilters
from tutepgn.errors import Problem
from tutepgn.i18n import gettext as _
from tutepgn.notation import Record, parse_or_placeholder, record_to_model
from tutepgn.check.report_model import ReportModel
from tutepgn.check.validate import validate

from ..deps import DealIdPath, Service, SortParam, filter_parameters
from ..models import DealDetail

STREAMS = {"ndjson": "application/x-ndjson", "csv": "text/csv; charset=utf-8", "tpgn": "text/plain; charset=utf-8"}
"""The streamed forms of a search, by suffix, and their media types."""
CHUNK_BYTES = 64 * 1024
"""A streamed answer goes out in pieces of about this size: one trip to a thread each, not one a deal."""
DEAL_FORMS = ("application/json", "application/x-tute-pgn", "text/plain")
"""What ``GET /api/v1/deals/{id}`` answers, by the request's Accept: the JSON first (without Accept, and for
``*/*``), then the record as stored, under the notation's own type or as plain text."""
_STREAM_SUMMARIES = {"ndjson": "Matching deals as NDJSON, one summary a line (streamed)",
                     "csv": "Matching deals as CSV (streamed)", "tpgn": "Matching deals as Tute PGN (streamed)"}


def json_response(model: BaseModel) -> Response:
    """A model already built and checked by the library, serialised once (response_model still documents it)."""
    return Response(model.model_dump_json(), media_type="application/json")


def chunk(lines: Iterator[str]) -> str:
    """The next lines of ``lines``, joined, up to about :data:`CHUNK_BYTES` ("" at the end)."""
    pieces, size = [], 0
    for line in lines:
        pieces.append(line)
        size += len(line)
        if size >= CHUNK_BYTES:
            break
    return "".join(pieces)


def preferred(accept: str | None, offers: Sequence[str]) -> str | None:
    """The offer an Accept header prefers (RFC 9110, 12.5.1): each offer takes the quality of the most specific
    range that matches it (``type/sub``, then ``type/*``, then ``*/*``); the best quality wins, ties go to the
    first offer; None when none is acceptable.  No Accept (or an empty one) takes the first offer."""
    if not accept or not accept.strip():
        return offers[0]
    ranges: list[tuple[str, float]] = []
    for part in accept.split(","):
        media, *params = (p.strip() for p in part.split(";"))
        quality = 1.0
        for param in params:
            name, _eq, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = min(max(float(value), 0.0), 1.0)
                except ValueError:
                    quality = 0.0  # a range whose quality cannot be read counts for nothing
        if media:
            ranges.append((media.lower(), quality))
    best, best_quality = None, 0.0
    for offer in offers:
        kind = offer.split("/")[0]
        specific = [(rank, quality) for media, quality in ranges
                    for rank, form in enumerate(("*/*", f"{kind}/*", offer)) if media == form]
        quality = max(specific)[1] if specific else 0.0
        if quality > best_quality:
            best, best_quality = offer, quality
    return best


def deal_text(service: Service, view: Archive, deal_id: int) -> str:
    """One deal's stored text; 404 if there is no such deal."""
    text = service.timed(view, lambda: view.text(deal_id))
    if text is None:
        raise HTTPException(404, _("no deal {id} in the archive", id=deal_id))
    return text


def stored_record(text: str) -> Record:
    """A stored record read back: the archive keeps records with syntax errors too (flagged), which come
    as their tags and their located errors (``record.errors``) rather than as a failure."""
    return parse_or_placeholder(text)


def router(service: Service) -> APIRouter:
    settings = service.settings
    Reader = Annotated[Archive, Depends(service.reader)]
    Filters = Annotated[SearchFilters, Depends(service.filters)]
    api = APIRouter(prefix="/api/v1", tags=["deals"])

    @api.get("/deals", response_model=DealPage, openapi_extra=filter_parameters(),
             summary="Search deals (filters in the query string, keyset pagination)")
    def search_deals(view: Reader, f: Filters, sort: SortParam = "date",
                     limit: Annotated[int, Query(ge=1, le=settings.max_page)] = 50,
                     cursor: Annotated[str | None, Query(description="The `next` of the previous page.")] = None,
                     before: Annotated[str | None, Query(description="The `previous` of the page after.")] = None,
                     ) -> Response:
        try:
            return Response(service.timed(view, lambda: service.page_json(view, f, sort=sort, limit=limit,
                                                                          after=cursor, before=before)),
                            media_type="application/json")
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from None

    def stream(view: Archive, f: SearchFilters, sort: str, kind: str, limit: int, lang: str | None = None
               ) -> Iterator[str]:
        """The answer in pieces of about :data:`CHUNK_BYTES`, each made under the query time limit."""
        if kind != "ndjson":
            lines = view.download(f, kind, sort=sort, limit=limit, lang=lang if kind == "csv" else None)
        else:
            lines = (DealSummary.from_row(row).model_dump_json() + "\n"
                     for row in view.iter_rows(f, sort=sort, limit=limit, batch=STREAM_BATCH))
        while piece := service.timed(view, lambda: chunk(lines)):
            yield piece

    def streamed(kind: str) -> Callable[..., StreamingResponse]:
        def route(view: Reader, f: Filters, sort: SortParam = "date",
                  limit: Annotated[int | None, Query(ge=1, le=settings.max_rows, description=(
                      "At most this many deals (default and most: `max_rows`)."))] = None,
                  lang: Annotated[Literal["es", "en"] | None, Query(description=(
                      "The CSV for a spreadsheet in this language (es: `;` and a decimal comma; en: `,` and a "
                      "point; both with a byte-order mark); without it, the scripts' CSV. Also the language of "
                      "any error."))] = None) -> StreamingResponse:
            total = service.timed(view, lambda: view.count(f))  # fail fast, with the time limit, before streaming
            sent = min(total, limit or settings.max_rows)
            # The count says how many match, and whether the row cap (or the limit asked) cuts the stream.
            headers = {"X-Total-Count": str(total), "X-Row-Cap": str(settings.max_rows),
                       "X-Truncated": "true" if total > sent else "false",
                       "Content-Disposition": f'attachment; filename="tute-deals.{kind}"'}  # a file, not a page
            return StreamingResponse(stream(view, f, sort, kind, sent, lang), media_type=STREAMS[kind], headers=headers)
        return route

    for kind in STREAMS:
        api.get(f"/deals.{kind}", response_class=StreamingResponse, openapi_extra=filter_parameters(),
                summary=_STREAM_SUMMARIES[kind], dependencies=[Depends(service.stream_slot)], name=f"search_deals_{kind}",
                responses={503: {"model": Problem, "description": "`max_streams` downloads are under way."}},
                )(streamed(kind))

    @api.get("/deals/{deal_id}.tpgn", response_class=PlainTextResponse,
             summary="One deal in Tute PGN, exactly as stored")
    def get_deal_tpgn(deal_id: DealIdPath, view: Reader) -> PlainTextResponse:
        return PlainTextResponse(deal_text(service, view, deal_id), media_type="text/plain; charset=utf-8",
                                 headers={"Content-Disposition": f'attachment; filename="{deal_id}.tpgn"'})

    @api.get("/deals/{deal_id}/sheet", response_model=ReportModel,
             summary="One deal's validation report and score sheet")
    def get_deal_sheet(deal_id: DealIdPath, view: Reader) -> dict[str, Any]:
        return validate(stored_record(deal_text(service, view, deal_id))).to_dict()

    @api.get("/deals/{deal_id}", response_model=DealDetail, summary="One deal as JSON, or in Tute PGN by Accept",
             responses={200: {"content": {form: {"schema": {"type": "string"}} for form in DEAL_FORMS[1:]},
                              "description": "The deal as JSON; with `Accept: application/x-tute-pgn` or "
                                             "`text/plain`, the record as stored (what `.tpgn` answers)."},
                        406: {"model": Problem, "description": "The Accept header takes none of "
                                                               + ", ".join(DEAL_FORMS) + "."}})
    def get_deal(deal_id: DealIdPath, view: Reader, request: Request) -> Response:
        form = preferred(request.headers.get("accept"), DEAL_FORMS)
        if form is None:
            raise HTTPException(406, _("a deal is answered as {forms}: the Accept header takes none of them",
                                       forms=", ".join(DEAL_FORMS)), headers={"Vary": "Accept"})
        if form != DEAL_FORMS[0]:
            return PlainTextResponse(deal_text(service, view, deal_id), media_type=f"{form}; charset=utf-8",
                                     headers={"Content-Disposition": f'attachment; filename="{deal_id}.tpgn"',
                                              "Vary": "Accept"})
        row = service.timed(view, lambda: view.row(deal_id, (*SUMMARY_COLUMNS, "errors", "text")))  # one query
        if row is None:
            raise HTTPException(404, _("no deal {id} in the archive", id=deal_id))
        text, errors = row.pop("text"), row.pop("errors")
        record = stored_record(text)
        state = ("unreadable" if record.errors else "valid" if row["valid"]
                 else "result_only" if row["result_only"] and not errors else "invalid")
        answer = json_response(DealDetail(
            summary=DealSummary.from_row(row), state=state,
            record=None if record.errors else record_to_model(record),
            errors=[e.item() for e in record.errors], text=text if record.errors else None,
            links={"tpgn": f"/api/v1/deals/{deal_id}.tpgn", "sheet": f"/api/v1/deals/{deal_id}/sheet",
                   "page": f"/deals/{deal_id}"}))
        answer.headers["Vary"] = "Accept"
        return answer

    return api
