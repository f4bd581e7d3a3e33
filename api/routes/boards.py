"""Posted records on the table: each one's validation report and its frames, each finding with its frame (the
validate page shows the pasted deal on the board and jumps to the moment a finding names)."""

import io
from itertools import islice

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel

from tutepgn.check.boards import Board, boards
from tutepgn.errors import Problem
from tutepgn.check.report_model import ReportModel
from tutepgn.check.validate import Summary
from tutepgn.i18n import gettext as _
from tutepgn.i18n import ngettext
from tutepgn.notation import iter_raw_records

from ..deps import Service
from ..language import number
from ..guards import Deadline
from ..problems import unprocessable
from .records import TEXT_BODY, text_body


class BoardsResponse(BaseModel):
    """What POST /replay answers: what POST /validate answers, and one board per record."""

    summary: Summary
    reports: list[ReportModel]
    boards: list[Board]


def router(service: Service) -> APIRouter:
    api = APIRouter(prefix="/api/v1", tags=["records"])

    @api.post("/replay", response_model=BoardsResponse, openapi_extra=TEXT_BODY,
              summary="Validate posted Tute PGN text and replay each record: its report, its frames, and the "
                      "frame of each finding (stores nothing)",
              responses={413: {"model": Problem, "description": "More records than `TUTEPGN_MAX_REPLAY_RECORDS`, "
                                                              "or an answer over `TUTEPGN_MAX_ANSWER_BYTES`."},
                         422: {"model": Problem, "description": "The text holds no record, or is not UTF-8 "
                                                              "(a record with syntax errors gets its report)."}})
    async def replay_records(request: Request) -> Response:
        text = await text_body(request)
        most, largest = service.settings.max_replay_records, service.settings.max_answer_bytes

        def work(deadline: Deadline) -> bytes:
            """The answer's JSON, made on the posted thread (never on the event loop), and refused past its
            bounds: each record's frames take about 40 times its text."""
            if len(list(islice(iter_raw_records([io.StringIO(text)]), most + 1))) > most:  # framed, not parsed
                raise HTTPException(413, ngettext(
                    "post at most {limit} record to replay (TUTEPGN_MAX_REPLAY_RECORDS)",
                    "post at most {limit} records to replay (TUTEPGN_MAX_REPLAY_RECORDS)", most, limit=number(most)))
            reports, summary, errors, tables = boards(text, deadline.check)
            if errors:
                raise unprocessable(errors)
            answer = BoardsResponse(summary=summary, reports=[ReportModel.model_validate(r) for r in reports],
                                    boards=tables).model_dump_json().encode()
            if len(answer) > largest:
                raise HTTPException(413, _("the answer would be {size} bytes, over the {limit} an answer may be "
                                           "(TUTEPGN_MAX_ANSWER_BYTES): post fewer records",
                                           size=number(len(answer)), limit=number(largest)))
            return answer

        return Response(await service.off_loop(work), media_type="application/json")

    return api
