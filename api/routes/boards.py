"""Posted records on the table: each one's validation report and its frames, each finding with its frame (the
validate page shows the pasted deal on the board and jumps to the moment a finding names)."""

from fastapi import APIRouter, Request
from pydantic import BaseModel

from tutepgn.check.boards import Board, boards
from tutepgn.errors import Problem
from tutepgn.check.validate import ReportModel, Summary

from ..deps import Service
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
              responses={422: {"model": Problem, "description": "The text holds no record, or is not UTF-8 "
                                                              "(a record with syntax errors gets its report)."}})
    async def replay_text(request: Request) -> BoardsResponse:
        text = await text_body(request)
        reports, summary, errors, tables = await service.off_loop(lambda deadline: boards(text, deadline.check))
        if errors:
            raise unprocessable(errors)
        return BoardsResponse(summary=summary, reports=[ReportModel.model_validate(r) for r in reports],
                              boards=tables)

    return api
