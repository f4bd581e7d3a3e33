"""Posted records: validate them, convert them, or import them into the archive (with an API key)."""

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

import anyio.to_thread

from fastapi import APIRouter, Depends, HTTPException, Request, Response

from tutepgn.archive import ImportSummary
from tutepgn.notation.convert import convert
from tutepgn.errors import ConvertError, ErrorItem, NotationError, Problem
from tutepgn.i18n import gettext as _
from tutepgn.notation import iter_raw_records
from tutepgn.check import validate as validation
from tutepgn.check.report_model import ReportModel

from ..deps import Service
from ..language import number
from ..guards import Deadline
from ..models import ValidationResponse
from ..problems import unprocessable

RECORD_TYPES = ("application/x-tute-pgn", "text/plain")
"""The media types of posted Tute PGN text: the notation's own, and plain text (still taken)."""
JSON_TYPES = {"application/json": "json", "application/x-ndjson": "jsonl"}
"""The media types of posted records in their JSON form (``tute convert --to json`` or ``--to jsonl``), and the
form each says."""
TEXT_BODY: dict[str, Any] = {"requestBody": {
    "required": True, "description": "Records as Tute PGN text (UTF-8), or in their JSON form: an array of records "
                                     "as `tute convert --to json` writes them (docs/json.md), or JSON lines.",
    "content": {**{t: {"schema": {"type": "string"}} for t in RECORD_TYPES},
                "application/json": {"schema": {"type": "array",
                                                "items": {"$ref": "#/components/schemas/RecordModel"}}},
                "application/x-ndjson": {"schema": {"type": "string"}}}}}  # JSON lines: one record a line
"""The OpenAPI of posted records (the routes read the raw body, so FastAPI cannot see it)."""
MEDIA = {"tpgn": "text/plain", "json": "application/json", "jsonl": "application/x-ndjson"}
CONVERTED = {"description": "The records in the form asked (`to`).",
             "content": {"application/json": {"schema": {"type": "array",
                                                         "items": {"$ref": "#/components/schemas/RecordModel"}}},
                         "application/x-ndjson": {"schema": {"type": "string"}},
                         "text/plain": {"schema": {"type": "string"}}}}
"""What /convert answers, by ``to``."""
To = Literal["tpgn", "json", "jsonl"]
CardStyle = Literal["es", "es-letters", "it", "fr", "en", "names"]
"""The card styles of :data:`tutepgn.cards.CARD_STYLES` (a test holds them equal)."""
TokenStyle = Literal["es", "es-letters", "it", "fr"]
"""The styles a .tpgn text may write its cards in (:data:`tutepgn.cards.TOKEN_STYLES`)."""


async def utf8_body(request: Request) -> str:
    """The request body as UTF-8 text; 422 if it is not."""
    body = await request.body()
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = body.count(b"\n", 0, exc.start) + 1
        raise HTTPException(422, [ErrorItem(line=line, column=exc.start - body.rfind(b"\n", 0, exc.start),
                                            message=_("the body must be UTF-8 text: byte {byte} at offset {offset} "
                                                      "is not", byte=format(body[exc.start], "#04x"),
                                                      offset=number(exc.start)))]) from None


async def text_body(request: Request) -> str:
    """The posted records as Tute PGN text: the body itself, or its JSON records written as text (off the event
    loop); 422 if it is not UTF-8, or a JSON record cannot be read."""
    text = await utf8_body(request)
    form = posted_form(request)
    return text if form is None else await anyio.to_thread.run_sync(tpgn_text, text, form)


def posted_form(request: Request) -> str | None:
    """The form of records its media type says the body is in: json or jsonl (None: Tute PGN text, or a body
    whose form is told by its content)."""
    return JSON_TYPES.get(request.headers.get("content-type", "").split(";")[0].strip().lower())


def tpgn_text(text: str, form: str) -> str:
    """Records in their JSON form (``form``: json or jsonl) as Tute PGN text
    (:func:`~tutepgn.notation.convert.convert`); 422 naming every record that cannot be read."""
    with conversion_problems():
        conversion = convert(io.StringIO(text), to="tpgn", from_format=form)
        output = "".join(conversion)
    if conversion.errors:
        raise unprocessable(conversion.errors)
    return output


@contextmanager
def conversion_problems() -> Iterator[None]:
    """A conversion's failures as the service's 422s: a bad option's sentence, or the located error of a JSON
    document that cannot be decoded at all."""
    try:
        yield
    except ConvertError as exc:
        raise HTTPException(422, str(exc)) from None
    except NotationError as exc:
        raise unprocessable([exc]) from None


def router(service: Service) -> APIRouter:
    api = APIRouter(prefix="/api/v1", tags=["records"])

    @api.post("/validate", response_model=ValidationResponse,
              summary="Validate posted Tute PGN text (stores nothing)", openapi_extra=TEXT_BODY,
              responses={422: {"model": Problem, "description": "The text holds no record, or is not UTF-8 "
                                                              "(a record with syntax errors gets its report)."}})
    async def validate_records(request: Request) -> ValidationResponse:
        text = await text_body(request)
        reports, summary, errors = await service.off_loop(lambda deadline: validation.validate_text(text, deadline.check))
        if errors:
            raise unprocessable(errors)
        return ValidationResponse(summary=summary, reports=[ReportModel.model_validate(r) for r in reports])

    @api.post("/convert", response_class=Response, responses={200: CONVERTED},
              summary="Convert posted records between tpgn, json and jsonl, and between card styles",
              openapi_extra=TEXT_BODY)
    async def convert_records(request: Request, to: To = "json", cards: CardStyle = "es",
                              from_cards: TokenStyle | None = None) -> Response:
        text, form = await utf8_body(request), posted_form(request)  # any form: convert reads JSON too

        def work(deadline: Deadline) -> tuple[Any, str]:
            conversion = convert(deadline.stream(text), to=to, cards=cards, from_cards=from_cards,  # never a path
                                 from_format=form)
            return conversion, "".join(deadline.records(conversion))

        with conversion_problems():
            conversion, output = await service.off_loop(work)
        if conversion.errors:
            raise unprocessable(conversion.errors)
        return Response(output, media_type=f"{MEDIA[to]}; charset=utf-8")

    @api.post("/import", response_model=ImportSummary,
              summary="Import posted records into the archive (needs an API key)", openapi_extra=TEXT_BODY,
              dependencies=[Depends(service.require_key)],
              responses={503: {"model": Problem, "description": "The archive could not be written (a full disk): "
                               "`detail` says how many records were committed before that."}})
    async def import_records(request: Request) -> ImportSummary:
        if service.settings.read_only:
            raise HTTPException(405, _("this service runs read-only"))
        text = await text_body(request)

        def work(deadline: Deadline) -> ImportSummary:
            records, progress = deadline.watch_import(iter_raw_records([io.StringIO(text)]))
            return service.import_raw(records, ["<api>"], progress=progress,
                                      locked=deadline.check)  # the time waiting for the lock counts

        return await service.off_loop(work)  # parsing, validating and writing

    return api
