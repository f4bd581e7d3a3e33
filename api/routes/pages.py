"""The HTML pages: a search, a deal (its replay and report), a validator, and the live recorder and view."""

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse

from tutepgn.archive import SORTS, Archive, DealPage, SearchFilters, match_of

from ..deps import DealIdPath, Service, search_filters
from ..language import PAGES
from .deals import deal_text
from .recordings import found, start_form
from .view import deal_context

PAGE_SORT = "-date"
"""The search page's order unless another is chosen: the newest deals first."""
PAGE_SIZE = 50


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    pages = APIRouter(include_in_schema=False)

    @pages.get("/", response_class=HTMLResponse)
    def search_page(request: Request, view: Reader, sort: str = PAGE_SORT, cursor: str | None = None,
                    before: str | None = None, start: int = 1) -> HTMLResponse:
        """Newest deals first, PAGE_SIZE a page, with the rows' numbers ("51-100 of 294") and links to the pages
        before and after (keyset cursors: a page stays right while deals are imported)."""
        error = None
        page = DealPage(items=[])
        total = 0
        try:
            f = search_filters(request)
            page = service.timed(view, lambda: service.deal_page(view, f, sort=sort if sort in SORTS else PAGE_SORT,
                                                                 limit=PAGE_SIZE, after=cursor, before=before))
            total = service.timed(view, lambda: view.count(f))
        except HTTPException as exc:
            error = exc.detail
        except ValueError as exc:
            error = str(exc)
        start = max(1, start) if (cursor or before) and page.previous else 1
        query = {k: v for k, v in request.query_params.items() if k not in ("cursor", "before", "start")}
        return PAGES.TemplateResponse(request, "search.html", {
            "rows": page.items, "next": page.next, "previous": page.previous, "start": start, "total": total,
            "size": PAGE_SIZE, "query": query, "emptied": page.emptied, "error": error, "sorts": list(SORTS),
            "sort": sort if sort in SORTS else PAGE_SORT, "fields": SearchFilters.model_fields})

    @pages.get("/deals/{deal_id}", response_class=HTMLResponse)
    def deal_page(request: Request, deal_id: DealIdPath, view: Reader) -> HTMLResponse:
        context = deal_context(deal_text(service, view, deal_id), deal_id)
        context["match"] = service.timed(view, lambda: match_of(view, deal_id))
        return PAGES.TemplateResponse(request, "deal.html", context)

    @pages.get("/validate", response_class=HTMLResponse)
    def validate_page(request: Request) -> HTMLResponse:
        return PAGES.TemplateResponse(request, "validate.html", {})

    @pages.get("/record", response_class=HTMLResponse)
    def record_start_page(request: Request, view: Reader, event: str | None = None, round: int | None = None,
                          table: int | None = None, board: int | None = None) -> HTMLResponse:
        return PAGES.TemplateResponse(request, "record_start.html", start_form(view, event, round, table, board))

    @pages.get("/record/{recording_id}", response_class=HTMLResponse)
    def record_page(request: Request, recording_id: str) -> HTMLResponse:
        return PAGES.TemplateResponse(request, "record.html", {"state": found(service, recording_id).state()})

    @pages.get("/live/{recording_id}", response_class=HTMLResponse)
    def live_page(request: Request, recording_id: str) -> HTMLResponse:
        return PAGES.TemplateResponse(request, "live.html", {"state": found(service, recording_id).state()})

    return pages
