"""Analyses: of a stored deal (kept in the archive by its parameters, a background job when it takes long), of a
posted record (within the request time limit), and the jobs' status.  The parameters' defaults are the library's
(:func:`tutepgn.analysis.analyse`): cantes counted, PIMC's 20 worlds, seed 0."""

import asyncio
from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response

from tutepgn.analysis.model import AnalysisModel
from tutepgn.analysis.version import DEFAULT_WORLDS
from tutepgn.archive import Archive
from tutepgn.archive.analyses import AnalysisKey, analysis_row, quick
from tutepgn.errors import Problem
from tutepgn.i18n import ngettext
from tutepgn.i18n import gettext as _
from tutepgn.notation import iter_records

from ..deps import DealIdPath, Service
from ..guards import Deadline
from ..jobs import MAX_RUNNING, QUICK_SECONDS, Job, Row
from ..models import AnalysisJob
from ..problems import unprocessable
from .records import TEXT_BODY, text_body

CantesParam = Annotated[bool, Query(description="Values count cantes, as the score sheet does (false: card points "
                                                "and the last ten).")]
WorldsParam = Annotated[int, Query(ge=0, le=200, description="PIMC's worlds per decision made with hidden cards (0: "
                                                           "double dummy only).")]
SeedParam = Annotated[int, Query(ge=0, le=2**31 - 1, description="The seed of the PIMC worlds.")]
InferenceParam = Annotated[bool, Query(description="Weight the worlds by the likelihood of the plays made.")]
RETRY_SECONDS = 2
"""What a 429 tells an anonymous client to wait before asking again."""


async def finished(job: Job, seconds: float) -> bool:
    """Wait up to ``seconds`` for a job on the event loop, holding no thread; whether it is done.  The job is
    never cancelled by the wait (others may be polling it)."""
    await asyncio.wait([asyncio.wrap_future(job.future)], timeout=max(0.0, seconds))
    return job.future.done()


def job_model(job: dict[str, Any]) -> AnalysisJob:
    """A job as the API shows it, from its state (:meth:`Job.state`, or the shared store's copy of it)."""
    links = {"self": f"/api/v1/jobs/{job['id']}"}
    if job["deal"] is not None:
        links["analysis"] = (f"/api/v1/deals/{job['deal']}/analysis?cantes={str(job['cantes']).lower()}"
                             f"&pimc={job['worlds']}&seed={job['seed']}&inference={str(job['inference']).lower()}")
    analysis = job["analysis"]
    return AnalysisJob(**{name: job[name] for name in ("id", "status", "deal", "cantes", "worlds", "seed",
                                                       "inference", "error")},
                       analysis=None if analysis is None else AnalysisModel.model_validate_json(analysis),
                       links=links)


def accepted(job: dict[str, Any]) -> JSONResponse:
    """202: the job under way, and where to poll it."""
    return JSONResponse(job_model(job).model_dump(mode="json"), status_code=202,
                        headers={"Location": f"/api/v1/jobs/{job['id']}"})


def router(service: Service) -> APIRouter:
    Reader = Annotated[Archive, Depends(service.reader)]
    Caller = Annotated[str | None, Depends(service.caller)]  # without a key, a place of the anonymous clients' few
    api = APIRouter(prefix="/api/v1", tags=["analysis"])
    busy: dict[int | str, dict[str, Any]] = {503: {"model": Problem, "description": "Too many analyses are waiting: try again shortly."},
            429: {"model": Problem, "description": "Without an API key: the analyses anonymous clients may have "
                                                   "under way at once (`TUTEPGN_ANON_ANALYSES`) are all taken; "
                                                   "try again after `Retry-After` seconds."}}

    async def submitted(deal: int | None, rules: str | None, text: str, key: AnalysisKey, anonymous: bool) -> Job:
        """A job of the analysis processes.  An anonymous client waits on the event loop (no thread) up to
        :data:`QUICK_SECONDS` for a place of the anonymous budget, then gets 429; 503 while too many jobs wait."""
        loop = asyncio.get_running_loop()
        until = loop.time() + QUICK_SECONDS
        while (job := service.jobs.submit(deal, rules, text, key, anonymous=anonymous)) is None:
            theirs = service.jobs.running(anonymous=True)
            if not anonymous or service.jobs.busy():
                raise HTTPException(503, ngettext("{n} analysis is waiting or under way: try again shortly",
                                                  "{n} analyses are waiting or under way: try again shortly",
                                                  MAX_RUNNING), headers={"Retry-After": "5"})
            if loop.time() >= until or not theirs:
                raise HTTPException(429, ngettext(
                    "{n} analysis without an API key is under way, as many as may be (TUTEPGN_ANON_ANALYSES): "
                    "try again shortly", "{n} analyses without an API key are under way, as many as may be "
                    "(TUTEPGN_ANON_ANALYSES): try again shortly", len(theirs)),
                    headers={"Retry-After": str(RETRY_SECONDS)})
            await asyncio.wait([asyncio.wrap_future(f) for f in theirs], timeout=until - loop.time(),
                               return_when=asyncio.FIRST_COMPLETED)
        return job

    @api.get("/deals/{deal_id}/analysis", response_model=AnalysisModel,
             summary="One deal analysed (kept per parameters; long work answers 202 with a job)",
             responses={202: {"model": AnalysisJob, "description": "The analysis takes longer than a second: "
                              "poll the job at `Location` (`links.self`)."},
                        422: {"model": Problem, "description": "The deal cannot be analysed (an unreadable "
                              "record, no starting position)."}, **busy})
    async def analyse_deal(deal_id: DealIdPath, view: Reader, x_api_key: Caller, cantes: CantesParam = True,
                            pimc: WorldsParam = DEFAULT_WORLDS, seed: SeedParam = 0, inference: InferenceParam = False) -> Response:
        key = AnalysisKey(cantes=cantes, worlds=pimc, seed=seed, inference=inference)
        # On the event loop: the queries and a quick analysis take a request thread for milliseconds each, and
        # a job is waited for holding none, so pollers never keep searches waiting for a thread.
        def look() -> tuple[Any, dict[str, Any] | None]:
            try:
                stored = service.timed(view, lambda: view.analysis(deal_id, key))
            except ValueError as exc:
                raise HTTPException(422, str(exc)) from None
            if stored is not None:
                return stored, None
            return None, service.timed(view, lambda: view.row(deal_id, ("id", "rules", "players", "text")))

        stored, row = await anyio.to_thread.run_sync(look)
        if stored is not None:
            return JSONResponse(stored)
        if row is None:
            raise HTTPException(404, _("no deal {id} in the archive", id=deal_id))
        if quick(row["players"], key):  # milliseconds: on a request thread
            def analyse() -> Row:
                analysed = analysis_row(deal_id, row["rules"], row["text"], key)
                service.store_analysis(analysed)
                return analysed

            analysed = await anyio.to_thread.run_sync(analyse)
            if analysed[-1] is not None:
                raise HTTPException(422, _("deal {id} cannot be analysed: {why}", id=deal_id, why=analysed[-1]))
            return Response(analysed[-2], media_type="application/json")
        elsewhere = service.jobs.shared_for(deal_id, key)  # another worker process's job on it: no second one
        if elsewhere is not None:
            return (Response(elsewhere["analysis"], media_type="application/json") if elsewhere["status"] == "done"
                    else accepted(elsewhere))
        job = await submitted(deal_id, row["rules"], row["text"], key, not service.holds_key(x_api_key))
        if not await finished(job, QUICK_SECONDS):
            return accepted(job.state())
        if job.status == "failed":
            raise HTTPException(422, _("deal {id} cannot be analysed: {why}", id=deal_id, why=job.error))
        return Response(job.analysis, media_type="application/json")

    @api.get("/jobs/{job_id}", response_model=AnalysisJob, summary="A background analysis: its status, then "
             "its result")
    async def get_job(job_id: str) -> AnalysisJob:
        job = service.jobs.get(job_id)
        # A job another worker process runs (tute serve --workers N) is read from the store they share.
        state = job.state() if job is not None else await anyio.to_thread.run_sync(service.jobs.shared, job_id)
        if state is None:
            raise HTTPException(404, _("no job {id} (jobs are kept for a while after they end)", id=job_id))
        return job_model(state)

    @api.post("/analyse", response_model=AnalysisModel, openapi_extra=TEXT_BODY,
              summary="Analyse one posted record (stores nothing; within the request time limit)",
              responses={422: {"model": Problem, "description": "Not one readable record, or it cannot be analysed."},
                         504: {"model": Problem, "description": "The analysis ran over the request time limit."},
                         **busy})
    async def analyse_record(request: Request, x_api_key: Caller, cantes: CantesParam = True, pimc: WorldsParam = DEFAULT_WORLDS,
                           seed: SeedParam = 0, inference: InferenceParam = False) -> Response:
        key = AnalysisKey(cantes=cantes, worlds=pimc, seed=seed, inference=inference)
        until = asyncio.get_running_loop().time() + service.settings.request_timeout
        text = await text_body(request)

        def read(deadline: Deadline) -> None:
            records = list(deadline.records(iter_records(deadline.stream(text))))
            if len(records) != 1:
                raise HTTPException(422, _("post one record to analyse, not {count}", count=len(records)))
            if records[0].errors:
                raise unprocessable(records[0].errors)

        await service.off_loop(read)
        job = await submitted(None, None, text, key, not service.holds_key(x_api_key))
        if not await finished(job, until - asyncio.get_running_loop().time()):
            job.future.cancel()  # if it has not started: nobody else waits for a posted record's job
            raise HTTPException(504, _("the request ran over {seconds} s and was stopped; nothing was stored",
                                       seconds=format(service.settings.request_timeout, "g")))
        row = job.future.result()
        if row[-1] is not None:
            raise HTTPException(422, _("the record cannot be analysed: {why}", why=row[-1]))
        return Response(row[-2], media_type="application/json")

    return api
