"""Double-dummy analyses: of a stored deal (kept in the archive, a background job when it takes long), of a
posted record (within the request time limit), and the jobs' status."""

from concurrent.futures import wait
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response

from tutepgn.analysis_model import AnalysisModel
from tutepgn.archive import Archive
from tutepgn.archive.analysis import analysis_row, quick
from tutepgn.errors import Problem
from tutepgn.i18n import ngettext
from tutepgn.i18n import gettext as _
from tutepgn.notation import iter_records

from ..deps import Service
from ..jobs import MAX_RUNNING, QUICK_SECONDS, Job
from ..limits import Deadline
from ..models import AnalysisJob
from ..problems import unprocessable
from .records import TEXT_BODY, text_body

CantesParam = Annotated[bool, Query(description="Values count cantes (each side sings the most its rules allow).")]


def job_model(job: Job) -> AnalysisJob:
    """A job as the API shows it."""
    links = {"self": f"/api/v1/jobs/{job.id}"}
    if job.deal is not None:
        links["analysis"] = f"/api/v1/deals/{job.deal}/analysis" + ("?cantes=true" if job.cantes else "")
    analysis = job.analysis
    return AnalysisJob(id=job.id, status=job.status, deal=job.deal, cantes=job.cantes, error=job.error,
                       analysis=None if analysis is None else AnalysisModel.model_validate_json(analysis),
                       links=links)


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    api = APIRouter(prefix="/api/v1", tags=["analysis"])
    busy = {503: {"model": Problem, "description": "Too many analyses are waiting: try again shortly."}}

    def submitted(deal: int | None, rules: str | None, text: str, cantes: bool) -> Job:
        """A job of the analysis processes; 503 while too many are waiting."""
        job = service.jobs.submit(deal, rules, text, cantes)
        if job is None:
            raise HTTPException(503, ngettext("{n} analysis is waiting or under way: try again shortly",
                                              "{n} analyses are waiting or under way: try again shortly", MAX_RUNNING),
                                headers={"Retry-After": "5"})
        return job

    @api.get("/deals/{deal_id}/analysis", response_model=AnalysisModel,
             summary="One deal analysed under double dummy (kept; long work answers 202 with a job)",
             responses={202: {"model": AnalysisJob, "description": "The analysis takes longer than a second: "
                              "poll the job at `Location` (`links.self`)."},
                        422: {"model": Problem, "description": "The deal cannot be analysed (an unreadable "
                              "record, no starting position)."}, **busy})
    def deal_analysis(deal_id: int, view: Reader, cantes: CantesParam = False) -> Response:
        try:
            stored = service.timed(view, lambda: view.analysis(deal_id, cantes=cantes))
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from None
        if stored is not None:
            return JSONResponse(stored)
        row = service.timed(view, lambda: view.row(deal_id, ("id", "rules", "players", "text")))
        if row is None:
            raise HTTPException(404, _("no deal {id} in the archive", id=deal_id))
        if quick(row["players"]):  # milliseconds: on this request's thread
            analysed = analysis_row(deal_id, row["rules"], row["text"], cantes)
            service.store_analysis(analysed)
            if analysed[-1] is not None:
                raise HTTPException(422, _("deal {id} cannot be analysed: {why}", id=deal_id, why=analysed[-1]))
            return Response(analysed[-2], media_type="application/json")
        job = submitted(deal_id, row["rules"], row["text"], cantes)
        wait([job.future], timeout=QUICK_SECONDS)  # on this request's thread, never on the event loop
        if job.status == "running":
            return JSONResponse(job_model(job).model_dump(mode="json"), status_code=202,
                                headers={"Location": f"/api/v1/jobs/{job.id}"})
        if job.status == "failed":
            raise HTTPException(422, _("deal {id} cannot be analysed: {why}", id=deal_id, why=job.error))
        return Response(job.analysis, media_type="application/json")

    @api.get("/jobs/{job_id}", response_model=AnalysisJob, summary="A background analysis: its status, then "
             "its result")
    def analysis_job(job_id: str) -> AnalysisJob:
        job = service.jobs.get(job_id)
        if job is None:
            raise HTTPException(404, _("no job {id} (jobs are kept for a while after they end)", id=job_id))
        return job_model(job)

    @api.post("/analyse", response_model=AnalysisModel, openapi_extra=TEXT_BODY,
              summary="Analyse one posted record under double dummy (stores nothing; within the request time limit)",
              responses={422: {"model": Problem, "description": "Not one readable record, or it cannot be analysed."},
                         **busy})
    async def analyse_text(request: Request, cantes: CantesParam = False) -> Response:
        text = await text_body(request)

        def work(deadline: Deadline) -> tuple[Any, ...]:
            records = list(deadline.records(iter_records(deadline.stream(text))))
            if len(records) != 1:
                raise HTTPException(422, _("post one record to analyse, not {count}", count=len(records)))
            if records[0].errors:
                raise unprocessable(records[0].errors)
            job = submitted(None, None, text, cantes)
            done, _pending = wait([job.future], timeout=deadline.seconds)
            if not done:
                job.future.cancel()
            deadline.check()
            return job.future.result()

        row = await service.off_loop(work)
        if row[-1] is not None:
            raise HTTPException(422, _("the record cannot be analysed: {why}", why=row[-1]))
        return Response(row[-2], media_type="application/json")

    return api

