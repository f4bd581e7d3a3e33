"""Every error of the service in one shape: RFC 9457 problem details whose ``errors[]`` are ErrorItems.

Routes raise :class:`fastapi.HTTPException` with a sentence or a list of
:class:`~tutepgn.errors.ErrorItem`; the handlers here turn those, FastAPI's own
request errors, oversized bodies and crashes into a
:class:`~tutepgn.errors.Problem`, served as ``application/problem+json`` to API
clients, and as an HTML page (the same problem, in words) to a browser asking
for a page (:func:`wants_page`).
"""

from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tutepgn.archive import fatal
from tutepgn.errors import ErrorItem, Problem, TuteError
from tutepgn.i18n import N_, ngettext, pydantic_message
from tutepgn.i18n import gettext as _

from .language import PAGES, number
from .guards import security_headers
from .requestid import HEADER, request_id

TITLES = {400: N_("Bad request"), 401: N_("Unauthorized"), 403: N_("Forbidden"), 404: N_("Not found"),
          405: N_("Method not allowed"), 406: N_("Not acceptable"), 409: N_("Conflict"), 413: N_("Payload too large"),
          422: N_("Unprocessable content"), 429: N_("Too many requests"),
          500: N_("Internal error"), 503: N_("Service unavailable"), 504: N_("Took too long")}
"""The title of a problem, by status (in English: :func:`title` says it in the reader's language)."""
ROUTER_DETAILS = {404: N_("nothing here: no page and no API endpoint has this address"),
                  405: N_("this address does not take that method (see Allow)")}
"""What the service says of an address it does not serve, or a method it does not take there, where the router's
own detail is only the status's name in English ("Not Found")."""
OTHER_TITLE = N_("Error")
"""The title of a problem of a status without its own."""


def title(status: int) -> str:
    """The title of a problem of ``status``, in the language being spoken."""
    return _(TITLES.get(status, OTHER_TITLE))


def wants_page(request: Request) -> bool:
    """Whether the client is a browser asking for a page: it accepts HTML, and the path is not the API's."""
    path = request.url.path
    return "text/html" in request.headers.get("accept", "") and not path.startswith(("/api/", "/openapi.json"))


def problem_response(scope: Scope, status: int, detail: str, errors: Sequence[ErrorItem] = ()) -> JSONResponse:
    """A problem as the service answers it."""
    body = Problem(title=title(status), status=status, detail=detail, instance=scope.get("path"),
                   errors=list(errors), request_id=request_id())
    return JSONResponse(body.model_dump(), status_code=status, media_type="application/problem+json")


def problem_answer(request: Request, status: int, detail: str, errors: Sequence[ErrorItem] = ()) -> Response:
    """A problem for this client: problem JSON, or an HTML page with the same problem for a browser."""
    if not wants_page(request):
        return problem_response(request.scope, status, detail, errors)
    problem = Problem(title=title(status), status=status, detail=detail, instance=request.url.path,
                      errors=list(errors), request_id=request_id())
    return PAGES.TemplateResponse(request, "error.html", {"problem": problem}, status_code=status)


def unprocessable(errors: Sequence[ErrorItem | TuteError]) -> HTTPException:
    """A 422 naming every error (library errors give their located item)."""
    return HTTPException(422, [e.item() if isinstance(e, TuteError) else e for e in errors])


def parameter_errors(exc: ValidationError | RequestValidationError, prefix: str = "") -> list[ErrorItem]:
    """Pydantic's errors as items in words: the parameter at fault (e.g. ``query.limit``, or ``query`` for a
    rule between parameters) is the item's text, the message says what is wrong (:func:`pydantic_message`)."""
    return [ErrorItem(message=pydantic_message(e), text=(prefix + ".".join(map(str, e["loc"]))).rstrip("."),
                      expected=str(e.get("ctx", {}).get("expected", ""))) for e in exc.errors()]


def _summary(errors: list[ErrorItem]) -> str:
    """The detail of a problem with several errors: the first three, located where known."""
    located = "; ".join(_("line {line}:{column}: {message}", line=e.line, column=e.column, message=e.message)
                        if e.line is not None else e.message for e in errors[:3])
    if len(errors) <= 3:
        return located
    return ngettext("{errors} (and {n} more)", "{errors} (and {n} more)", len(errors) - 3, errors=located)


def install(app: FastAPI) -> None:
    """Answer every error of ``app`` as a problem."""

    @app.exception_handler(StarletteHTTPException)  # also the router's own 404 and 405
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        errors: list[Any] = exc.detail if isinstance(exc.detail, list) else []
        detail = exc.detail if isinstance(exc.detail, str) else _summary(errors)
        if exc.status_code in ROUTER_DETAILS and detail == HTTPStatus(exc.status_code).phrase:
            detail = _(ROUTER_DETAILS[exc.status_code])
        response = problem_answer(request, exc.status_code, detail, errors)
        response.headers.update(exc.headers or {})  # e.g. Allow, on a 405
        if exc.status_code == 401:
            response.headers["WWW-Authenticate"] = "X-API-Key"
        return response

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        errors = parameter_errors(exc)
        return problem_answer(request, 422, "; ".join(f"{e.text}: {e.message}" for e in errors), errors)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> Response:
        if fatal(exc):  # DuckDB invalidated the database (a full disk at a checkpoint): open it again
            service = request.app.state.service
            service.failed(exc)
            response = problem_answer(request, 503, _("the archive failed and was opened again: try again")
                                      if service.failure is None else
                                      _("{failure}; try again later", failure=service.failure_text()))
            response.headers["Retry-After"] = "1"
        else:
            response = problem_answer(request, 500, _("the server failed; the error was logged"))
        # Sent outside the middlewares that add these (the request's id is still known: the task's context).
        response.headers.update(security_headers(request.url.path))
        if (rid := request_id()) is not None:
            response.headers[HEADER] = rid
        return response


class BodyLimit:
    """Refuse request bodies over the limit (413), by Content-Length and while streaming."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            await self._refuse(scope, receive, send)
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
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        await problem_response(scope, 413, ngettext("the request body is over {limit} byte",
                                                    "the request body is over {limit} bytes", self.limit,
                                                    limit=number(self.limit)))(scope, receive, send)


class _TooLarge(Exception):
    """A streamed body passed the limit."""
