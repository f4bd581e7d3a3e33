"""The HTTP service: a JSON API under ``/api/v1`` and server-rendered pages, over one archive.

Each route makes one library call; this module holds no game logic.  One
process owns the DuckDB file: each request reads on a cursor of its own (borrowed
from the idle ones), writes (imports) go through one lock; requests wait in line
for one of a few threads.  Every query runs under a time limit and
a row cap, on a connection with file and network access off and its
configuration locked.  Errors are RFC 9457 problem details, never stack traces.
"""


import asyncio
import csv
import hmac
import io
import os
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio.to_thread
import duckdb
from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tutepgn.archive import SUMMARY_COLUMNS, Archive, ImportSummary, PageCache, default_path, run_with_timeout
from tutepgn.convert import convert
from tutepgn.notation import RecordModel, record_to_model
from tutepgn.errors import ConvertError, NotationError
from tutepgn.notation import iter_raw_records, parse_record
from tutepgn.replay import frames
from tutepgn.rules import PRESETS, Ruleset, preset
from tutepgn.search import SORTS, DealPage, DealSummary, SearchFilters
from tutepgn.sheets import result_sentence
from tutepgn.sources import source_of
from tutepgn.validate import ReportModel, Summary, validate, validate_records

HERE = Path(__file__).resolve().parent
T = TypeVar("T")


def _cores() -> int:
    """The cores this process may run on (its CPU affinity, which containers narrow), else all of them."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class Settings(BaseModel):
    """How the service runs; from the command line and the environment, never from URLs."""

    db: Path = Field(default_factory=default_path)
    read_only: bool = False
    api_keys: frozenset[str] = Field(frozenset(), repr=False)
    cors_origins: list[str] = Field(default_factory=list)
    max_body_bytes: int = Field(2 * 1024 * 1024, ge=1, description="The largest request body, in bytes.")
    query_timeout: float = Field(5.0, gt=0, description="Time limit of each query, in seconds.")
    max_page: int = Field(500, ge=1, description="The largest `limit` of a page.")
    max_rows: int = Field(100_000, ge=1, description="Most rows a streamed answer gives.")
    search_cache: int = Field(4096, ge=0, description="Search pages kept in memory (0: none); cleared on import.")
    threads: int | None = Field(None, ge=1, description="DuckDB threads per query (default: one per core).")
    concurrency: int = Field(default_factory=_cores, ge=1,
                             description="Requests that run at once per process (default: one per core); "
                                         "the others wait in line.")

    @classmethod
    def from_env(cls, **overrides: Any) -> "Settings":
        """Settings from TUTEPGN_* variables: DB, READ_ONLY, API_KEYS (comma-separated), API_KEYS_FILE (one a
        line), CORS_ORIGINS, SEARCH_CACHE, THREADS, CONCURRENCY, MAX_BODY_BYTES, QUERY_TIMEOUT, MAX_PAGE,
        MAX_ROWS."""
        keys = {k.strip() for k in os.environ.get("TUTEPGN_API_KEYS", "").split(",") if k.strip()}
        key_file = os.environ.get("TUTEPGN_API_KEYS_FILE")
        if key_file:
            keys |= {line.strip() for line in Path(key_file).read_text(encoding="utf-8").splitlines() if line.strip()}
        data: dict[str, Any] = {"api_keys": frozenset(keys),
                                "cors_origins": [o.strip() for o in os.environ.get("TUTEPGN_CORS_ORIGINS", "").split(",")
                                                 if o.strip()]}
        if os.environ.get("TUTEPGN_DB"):
            data["db"] = Path(os.environ["TUTEPGN_DB"])
        if os.environ.get("TUTEPGN_READ_ONLY", "").lower() in ("1", "true", "yes"):
            data["read_only"] = True
        from_env: dict[str, str] = {}
        for name in _TUNABLE:
            value = os.environ.get(f"TUTEPGN_{name.upper()}")
            if value:
                data[name] = from_env[name] = value  # the model checks and converts it
        data.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls(**data)
        except ValidationError as exc:  # say which variable, not which field
            raise ValueError("; ".join(
                f"TUTEPGN_{e['loc'][0].upper()}={from_env[e['loc'][0]]!r}: {e['msg']}" if e["loc"][0] in from_env
                else f"{e['loc'][0]}: {e['msg']}" for e in exc.errors())) from None


_TUNABLE = ("search_cache", "threads", "concurrency", "max_body_bytes", "query_timeout", "max_page", "max_rows")
"""Settings read from TUTEPGN_<NAME> as they are."""


class Problem(BaseModel):
    """An error, as RFC 9457 problem details."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    instance: str | None = None
    errors: list[dict[str, Any]] = Field(default_factory=list, description="Located errors, when there are several.")


class ValidationResponse(BaseModel):
    """What POST /validate answers: the counts and one report per record."""

    summary: Summary
    reports: list[ReportModel]


class DealDetail(BaseModel):
    """One deal: its summary, its record as JSON, and links to its other forms."""

    summary: DealSummary
    record: RecordModel
    links: dict[str, str]


class RulesetInfo(BaseModel):
    """A preset: its options and, per option, the source sentence or decision behind its value."""

    name: str
    options: Ruleset
    sources: dict[str, str]


class _BodyLimit:
    """Refuse request bodies over the limit (413), by Content-Length and while streaming."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            await _problem_response(scope, 413, "Payload too large",
                                    f"the request body is over {self.limit:,} bytes")(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _problem_response(scope, 413, "Payload too large",
                                    f"the request body is over {self.limit:,} bytes")(scope, receive, send)


class _TooLarge(Exception):
    """A streamed body passed the limit."""


def _problem_response(scope: Scope, status: int, title: str, detail: str,
                      errors: list[dict[str, Any]] | None = None) -> JSONResponse:
    body = Problem(title=title, status=status, detail=detail, instance=scope.get("path"), errors=errors or [])
    return JSONResponse(body.model_dump(), status_code=status, media_type="application/problem+json")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The service over one archive file."""
    settings = settings or Settings.from_env()
    archive = Archive(settings.db, read_only=settings.read_only, secure=True, threads=settings.threads)
    if settings.search_cache:
        archive.cache = PageCache(settings.search_cache)
    write_lock = threading.Lock()
    # Posted records (validate, convert, import) are worked on by threads of their own, so that a long
    # import holds up neither the reads nor the event loop.
    posted = ThreadPoolExecutor(max_workers=settings.concurrency, thread_name_prefix="tutepgn-posted")

    async def off_loop(work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(posted, work)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Requests past the limit wait in line for a thread, first come first served: on a busy service a few
        # threads finish each request sooner than many threads fighting for the GIL (docs/service.md).
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.concurrency
        yield

    app = FastAPI(title="tutepgn", version="1", summary="Tute deals: search, validate, convert, replay.",
                  description="The archive of Tute deals in Tute PGN. Errors are RFC 9457 problem details.",
                  lifespan=lifespan)
    app.state.archive = archive
    app.state.settings = settings
    app.add_middleware(_BodyLimit, limit=settings.max_body_bytes)  # type: ignore[arg-type]
    if settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_methods=["GET", "POST"],
                           allow_headers=["X-API-Key", "Content-Type"])
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    # -- Errors: one shape for all of them ------------------------------------------
    @app.exception_handler(StarletteHTTPException)  # also the router's own 404 and 405
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        titles = {401: "Unauthorized", 403: "Forbidden", 404: "Not found", 405: "Method not allowed",
                  413: "Payload too large", 422: "Unprocessable content", 504: "Query took too long"}
        errors = exc.detail if isinstance(exc.detail, list) else []
        detail = exc.detail if isinstance(exc.detail, str) else "; ".join(
            f"line {e['line']}:{e['column']}: {e['message']}" if "line" in e else str(e.get("message", e))
            for e in errors[:3]) + (f" (and {len(errors) - 3} more)" if len(errors) > 3 else "")
        response = _problem_response(request.scope, exc.status_code, titles.get(exc.status_code, "Error"),
                                     detail, errors)
        response.headers.update(exc.headers or {})  # e.g. Allow, on a 405
        if exc.status_code == 401:
            response.headers["WWW-Authenticate"] = "X-API-Key"
        return response

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"location": ".".join(map(str, e["loc"])), "message": e["msg"]} for e in exc.errors()]
        return _problem_response(request.scope, 422, "Unprocessable content",
                                 "; ".join(f"{e['location']}: {e['message']}" for e in errors), errors)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        return _problem_response(request.scope, 500, "Internal error", "the server failed; the error was logged")

    # -- Dependencies --------------------------------------------------------------
    # Cheap and async, so they run on the event loop: a search or a deal fetch takes one thread (for its route)
    # and waits in line for it once.
    async def reader() -> AsyncIterator[Archive]:
        with archive.borrowed() as view:
            yield view

    def timed(view: Archive, work: Callable[[], T]) -> T:
        try:
            return run_with_timeout(view.con, settings.query_timeout, work)
        except duckdb.InterruptException:
            raise HTTPException(504, f"the query ran over {settings.query_timeout:g} s and was stopped") from None

    async def filters(request: Request) -> SearchFilters:
        """Search filters from the query string (the same names as the fields of SearchFilters)."""
        return search_filters(request)

    def search_filters(request: Request) -> SearchFilters:
        known = set(SearchFilters.model_fields)
        data: dict[str, Any] = {}
        for key, value in request.query_params.multi_items():
            if key == "held":
                data.setdefault("held", []).append(value)
            elif key in known and value != "":
                data[key] = value
            elif key not in known and key not in _PAGING:  # a misspelt filter must not widen a search
                raise HTTPException(422, [{"location": f"query.{key}", "message": "unknown parameter; the filters "
                                           f"are {', '.join(sorted(known))}, with {', '.join(sorted(_PAGING))}"}])
        try:
            return SearchFilters(**data)
        except (ValidationError, ValueError) as exc:
            errors = ([{"location": "query." + ".".join(map(str, e["loc"])), "message": e["msg"]}
                       for e in exc.errors()] if isinstance(exc, ValidationError) else [])
            raise HTTPException(422, errors or str(exc)) from None

    async def require_key(x_api_key: Annotated[str | None, Header(description="An API key (write endpoints).")] = None) -> None:
        if x_api_key is None:
            raise HTTPException(401, "this endpoint needs an API key in the X-API-Key header")
        if not any(hmac.compare_digest(x_api_key.encode(), key.encode()) for key in settings.api_keys):
            raise HTTPException(403, "that API key is not valid")

    Reader = Annotated[Archive, Depends(reader)]
    Filters = Annotated[SearchFilters, Depends(filters)]
    SortParam = Annotated[str, Query(description=f"One of {', '.join(SORTS)}.", pattern="^(" + "|".join(
        s.replace("-", "\\-") for s in SORTS) + ")$")]

    # -- JSON API ---------------------------------------------------------------------
    @app.get("/api/v1/deals", response_model=DealPage, tags=["deals"], openapi_extra=_filter_parameters(),
             summary="Search deals (filters in the query string, keyset pagination)")
    def search_deals(view: Reader, f: Filters, sort: SortParam = "date",
                     limit: Annotated[int, Query(ge=1, le=settings.max_page)] = 50,
                     cursor: Annotated[str | None, Query(description="The `next` of the previous page.")] = None,
                     ) -> Response:
        try:
            return _json(timed(view, lambda: view.deal_page(f, sort=sort, limit=limit, after=cursor)))
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from None

    def _stream(view: Archive, f: SearchFilters, sort: str, kind: str) -> Iterator[str]:
        if kind == "tpgn":
            for i, text in enumerate(view.texts(f, sort=sort, limit=settings.max_rows)):
                yield ("\n" if i else "") + text
            return
        rows = view.search(f, sort=sort, limit=settings.max_rows)
        if kind == "ndjson":
            for row in rows:
                yield DealSummary.from_row(row).model_dump_json() + "\n"
            return
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["id", "date", "event", "site", "rules", "N", "W", "S", "E", "dealer", "trump", "sides",
                         "score", "result", "valid"])
        for row in rows:
            writer.writerow([row["id"], row["date_text"], row["event"], row["site"], row["rules"], row["north"],
                             row["west"], row["south"], row["east"], row["dealer"], row["trump"],
                             " ".join(row["sides"] or ()), " ".join(map(str, row["score"] or ())), row["result"],
                             row["valid"]])
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()

    def _streamed(kind: str, media: str) -> Callable[..., StreamingResponse]:
        def route(view: Reader, f: Filters, sort: SortParam = "date") -> StreamingResponse:
            total = timed(view, lambda: view.count(f))  # fail fast, with the time limit, before streaming
            # The count says how many match, and whether the row cap cuts the stream.
            headers = {"X-Total-Count": str(total), "X-Row-Cap": str(settings.max_rows),
                       "X-Truncated": "true" if total > settings.max_rows else "false"}
            return StreamingResponse(_stream(view, f, sort, kind), media_type=media, headers=headers)
        return route

    app.get("/api/v1/deals.ndjson", tags=["deals"], response_class=StreamingResponse, openapi_extra=_filter_parameters(),
            summary="Matching deals as NDJSON, one summary a line (streamed)")(_streamed("ndjson", "application/x-ndjson"))
    app.get("/api/v1/deals.csv", tags=["deals"], response_class=StreamingResponse, openapi_extra=_filter_parameters(),
            summary="Matching deals as CSV (streamed)")(_streamed("csv", "text/csv; charset=utf-8"))
    app.get("/api/v1/deals.tpgn", tags=["deals"], response_class=StreamingResponse, openapi_extra=_filter_parameters(),
            summary="Matching deals as Tute PGN (streamed)")(_streamed("tpgn", "text/plain; charset=utf-8"))

    def _deal_text(view: Archive, deal_id: int) -> str:
        text = timed(view, lambda: view.text(deal_id))
        if text is None:
            raise HTTPException(404, f"no deal {deal_id} in the archive")
        return text

    @app.get("/api/v1/deals/{deal_id}.tpgn", response_class=PlainTextResponse, tags=["deals"],
             summary="One deal in Tute PGN, exactly as stored")
    def deal_tpgn(deal_id: int, view: Reader) -> PlainTextResponse:
        return PlainTextResponse(_deal_text(view, deal_id), media_type="text/plain; charset=utf-8",
                                 headers={"Content-Disposition": f'attachment; filename="{deal_id}.tpgn"'})

    @app.get("/api/v1/deals/{deal_id}/sheet", response_model=ReportModel, tags=["deals"],
             summary="One deal's validation report and score sheet")
    def deal_sheet(deal_id: int, view: Reader) -> dict[str, Any]:
        return validate(parse_record(_deal_text(view, deal_id))).to_dict()

    @app.get("/api/v1/deals/{deal_id}", response_model=DealDetail, tags=["deals"], summary="One deal as JSON")
    def deal_json(deal_id: int, view: Reader) -> Response:
        row = timed(view, lambda: view.row(deal_id, (*SUMMARY_COLUMNS, "text")))  # one query for both
        if row is None:
            raise HTTPException(404, f"no deal {deal_id} in the archive")
        text = row.pop("text")
        return _json(DealDetail(summary=DealSummary.from_row(row), record=record_to_model(parse_record(text)),
                                links={"tpgn": f"/api/v1/deals/{deal_id}.tpgn",
                                       "sheet": f"/api/v1/deals/{deal_id}/sheet", "page": f"/deals/{deal_id}"}))

    @app.post("/api/v1/validate", response_model=ValidationResponse, tags=["records"],
              summary="Validate posted Tute PGN text (stores nothing)", openapi_extra=_TEXT_BODY,
              responses={422: {"model": Problem, "description": "A record has syntax errors (located)."}})
    async def validate_text(request: Request) -> ValidationResponse:
        text = await _text_body(request)
        return await off_loop(lambda: _validate(text))

    def _validate(text: str) -> ValidationResponse:
        records = []
        errors: list[dict[str, Any]] = []
        for name, index, line, chunk in iter_raw_records([io.StringIO(text)]):  # a stream: never a path
            try:
                records.append(parse_record(chunk, first_line=line, index=index, strict=True))
            except NotationError as exc:
                errors.append(exc.to_dict())
        if errors:
            raise HTTPException(422, errors)
        if not records:
            raise HTTPException(422, [{"line": 1, "column": 1, "message": "no record found"}])
        summary = Summary()
        reports = []
        for report in validate_records(records):
            data = report.to_dict()
            summary.add(data)
            reports.append(ReportModel.model_validate(data))
        return ValidationResponse(summary=summary, reports=reports)

    @app.post("/api/v1/convert", response_class=PlainTextResponse, tags=["records"],
              summary="Convert posted records between tpgn, json and jsonl, and between card styles",
              openapi_extra=_TEXT_BODY)
    async def convert_text(request: Request,
                           to: Annotated[str, Query(pattern="^(tpgn|json|jsonl)$")] = "json",
                           cards: Annotated[str, Query(pattern="^(es|es-letters|it|fr|en|names)$")] = "es",
                           from_cards: Annotated[str | None, Query(pattern="^(es|es-letters|it|fr)$")] = None,
                           ) -> PlainTextResponse:
        text = await _text_body(request)

        def work() -> tuple[Any, str]:
            conversion = convert(io.StringIO(text), to=to, cards=cards, from_cards=from_cards)  # never a path
            return conversion, "".join(conversion)

        try:
            conversion, output = await off_loop(work)
        except ConvertError as exc:
            raise HTTPException(422, str(exc)) from None
        if conversion.errors:
            raise HTTPException(422, [e.to_dict() for e in conversion.errors])
        media = {"tpgn": "text/plain", "json": "application/json", "jsonl": "application/x-ndjson"}[to]
        return PlainTextResponse(output, media_type=f"{media}; charset=utf-8")

    @app.post("/api/v1/import", response_model=ImportSummary, tags=["records"],
              summary="Import posted records into the archive (needs an API key)", openapi_extra=_TEXT_BODY,
              dependencies=[Depends(require_key)])
    async def import_text(request: Request) -> ImportSummary:
        if settings.read_only:
            raise HTTPException(405, "this service runs read-only")
        text = await _text_body(request)

        def work() -> ImportSummary:
            with write_lock:
                return archive.import_raw(iter_raw_records([io.StringIO(text)]), names=["<api>"])

        return await off_loop(work)  # parsing, validating and writing

    @app.get("/api/v1/stats", tags=["archive"], summary="Statistics over matching deals",
             openapi_extra=_filter_parameters())
    def stats(view: Reader, f: Filters) -> dict[str, Any]:
        return timed(view, lambda: view.stats(f))

    @app.get("/api/v1/players", tags=["archive"], summary="Players with their deal and win counts")
    def players(view: Reader, limit: Annotated[int, Query(ge=1, le=settings.max_page)] = 100) -> list[dict[str, Any]]:
        cursor = timed(view, lambda: view.con.execute(
            "SELECT name, deals, wins FROM players ORDER BY deals DESC, name LIMIT ?", [limit]))
        return [{"name": n, "deals": d, "wins": w} for n, d, w in cursor.fetchall()]

    @app.get("/api/v1/rules", response_model=list[RulesetInfo], tags=["rules"], summary="The rules presets")
    def rules_list() -> list[RulesetInfo]:
        return [_ruleset_info(name) for name in PRESETS]

    @app.get("/api/v1/rules/{name}", response_model=RulesetInfo, tags=["rules"], summary="One preset")
    def rules_one(name: str) -> RulesetInfo:
        try:
            return _ruleset_info(preset(name).preset)
        except ValueError:
            raise HTTPException(404, f"no preset {name!r}; presets are {', '.join(PRESETS)}") from None

    # -- Pages ----------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def search_page(request: Request, view: Reader, sort: str = "date", cursor: str | None = None) -> HTMLResponse:
        error = None
        try:
            f = search_filters(request)
            page = timed(view, lambda: view.deal_page(f, sort=sort if sort in SORTS else "date", limit=50,
                                                      after=cursor))
            rows, following = page.items, page.next
            total = timed(view, lambda: view.count(f))
        except HTTPException as exc:
            error, rows, following, total = exc.detail, [], None, 0
        except ValueError as exc:
            error, rows, following, total = str(exc), [], None, 0
        query = {k: v for k, v in request.query_params.items() if k != "cursor"}
        return templates.TemplateResponse(request, "search.html", {
            "rows": rows, "next": following, "total": total, "query": query,
            "error": error, "sorts": list(SORTS), "fields": SearchFilters.model_fields})

    @app.get("/deals/{deal_id}", response_class=HTMLResponse, include_in_schema=False)
    def deal_page(request: Request, deal_id: int, view: Reader) -> HTMLResponse:
        text = _deal_text(view, deal_id)
        record = parse_record(text)
        report = validate(record).to_dict()
        try:
            steps = [_frame_json(f) for f in frames(record)]
        except NotationError as exc:
            steps, report["explanation"] = [], [*report["explanation"], str(exc)]
        return templates.TemplateResponse(request, "deal.html", {
            "deal_id": deal_id, "tags": record.tags, "frames": steps, "report": report, "text": text,
            "sentence": result_sentence(report) if report.get("sheet") else None})

    @app.get("/validate", response_class=HTMLResponse, include_in_schema=False)
    def validate_page(request: Request) -> HTMLResponse:
        return templates.TemplateResponse(request, "validate.html", {})

    return app


_TEXT_BODY: dict[str, Any] = {"requestBody": {"required": True, "description": "Records as text (UTF-8).",
                                               "content": {"text/plain": {"schema": {"type": "string"}}}}}
"""The OpenAPI of a posted text body (the routes read the raw body, so FastAPI cannot see it)."""


_PAGING = frozenset({"sort", "limit", "cursor"})
"""Query parameters that go with the filters: the order and the page."""


def _filter_parameters() -> dict[str, Any]:
    """The search filters as OpenAPI query parameters (the `filters` dependency reads them by hand)."""
    params = []
    for name, prop in SearchFilters.model_json_schema()["properties"].items():
        description = prop.pop("description", None)
        prop.pop("default", None)
        prop.pop("title", None)
        options = [o for o in prop.pop("anyOf", []) if o.get("type") != "null"]
        schema = {**options[0], **prop} if len(options) == 1 else prop
        params.append({"name": name, "in": "query", "required": False, "description": description,
                       "schema": schema})
    return {"parameters": params}


def _json(model: BaseModel) -> Response:
    """A model already built and checked by the library, serialised once (response_model still documents it)."""
    return Response(model.model_dump_json(), media_type="application/json")


async def _text_body(request: Request) -> str:
    """The request body as UTF-8 text; 422 if it is not."""
    body = await request.body()
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise HTTPException(422, "the body must be UTF-8 text") from None


def _ruleset_info(name: str) -> RulesetInfo:
    r = PRESETS[name]
    return RulesetInfo(name=name, options=r, sources={k: source_of(name, k) for k in type(r).model_fields
                                                      if k != "preset"})


def _frame_json(frame: Any) -> dict[str, Any]:
    data = asdict(frame)
    data.pop("event", None)
    data["points"] = list(frame.points)
    return data


def app_from_env() -> FastAPI:
    """The app for ``uvicorn --factory tutepgn.api.app:app_from_env``."""
    return create_app(Settings.from_env())


