"""Analyses as background jobs: worked on in processes of their own, polled by their id.

A deal's analysis takes from milliseconds (2 players, double dummy alone)
to about half a minute of CPU (a whole 4-player deal with PIMC's 20 worlds, the
library's default).  The solver holds the GIL, so it runs in
worker processes (spawned, tied to the service's life: :func:`tutepgn.workers.lifeline`),
never on the event loop nor on the threads that answer requests.  A route
waits for a job up to :data:`QUICK_SECONDS` and answers with the analysis, or
answers 202 with the job's URL.  Jobs are kept by id (at most :data:`KEPT`,
the oldest finished ones dropped first), and a deal asked for again while its
job is kept gets that job, not a second one (jobs are keyed by the deal and
the analysis's parameters, :class:`~tutepgn.archive.analyses.AnalysisKey`).  Anonymous clients' jobs have a
small budget of their own (``TUTEPGN_ANON_ANALYSES``): however many of them ask,
they keep at most that many jobs waiting or under way, and key holders' jobs
never wait behind more than that many of theirs.  A stored deal's job is also
written to a folder every worker process of the service reads
(:class:`.jobstore.JobStore`), so that a poll answered by another worker finds it.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from tutepgn.archive.analyses import AnalysisKey, analysis_row
from tutepgn.workers import lifeline

from .jobstore import JobStore

QUICK_SECONDS = 1.0
"""How long a route waits for an analysis before it answers 202 with the job instead."""
KEPT = 1000
"""Jobs kept to be polled (the oldest finished ones go first)."""
MAX_RUNNING = 100
"""Jobs waiting or under way at most: past it a new one is refused (the service answers 503)."""

NICENESS = 10
"""How much the analysis processes defer to the service's own threads for the CPU (``nice``)."""

SWEEP_SECONDS = 60.0
"""How often, at most, a process removes the shared store's old job files (as it starts a job)."""

Row = tuple[Any, ...]


@dataclass
class Job:
    """One analysis under way or done."""

    id: str
    deal: int | None
    """The archive's deal (None for a posted record)."""
    key: AnalysisKey
    """The cantes flag and the analysis's parameters."""
    future: Future[Row] = field(repr=False)
    created: float = field(default_factory=time.time)
    anonymous: bool = False
    """Asked for without an API key: counted in the anonymous budget while it runs."""

    @property
    def status(self) -> str:
        """running, done (the analysis is there) or failed (the deal cannot be analysed)."""
        if not self.future.done():
            return "running"
        return "failed" if self.error is not None else "done"

    @property
    def error(self) -> str | None:
        """Why the deal cannot be analysed (None while running or when done)."""
        if not self.future.done():
            return None
        if self.future.exception() is not None:
            return f"the analysis failed: {type(self.future.exception()).__name__}"
        return self.future.result()[-1]

    @property
    def analysis(self) -> str | None:
        """The analysis as JSON text, once done."""
        if not self.future.done() or self.error is not None:
            return None
        return self.future.result()[-2]

    def state(self) -> dict[str, Any]:
        """The job as the shared store keeps it and the API shows it (the analysis as JSON text)."""
        return {"id": self.id, "deal": self.deal, "cantes": self.key.cantes, "worlds": self.key.worlds,
                "seed": self.key.seed, "inference": self.key.inference, "status": self.status, "error": self.error,
                "analysis": self.analysis}


def analyst(parent: int, by_main_thread: bool) -> None:
    """An analysis process's initializer: tied to the service's life (:func:`~tutepgn.workers.lifeline`), and
    niced by :data:`NICENESS`, so that a solve yields the cores to the requests answered meanwhile (searches,
    imports): analyses are long work that waits well, answers are short work that must not."""
    lifeline(parent, by_main_thread)
    os.nice(NICENESS)


class Jobs:
    """The analysis processes and the jobs kept for polling; thread-safe."""

    def __init__(self, workers: int, on_done: Callable[[Row], None] | None = None, anonymous: int = 1,
                 store: JobStore | None = None) -> None:
        self.workers = workers
        self.anonymous = anonymous
        """Jobs of anonymous clients waiting or under way at most."""
        self.on_done = on_done
        """Called with the row of a stored deal's job that is done, on a pool thread (the service stores it)."""
        self._pool: ProcessPoolExecutor | None = None
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._by_key: dict[tuple[int, AnalysisKey], str] = {}
        self._lock = threading.RLock()
        self.store = store
        """Where a stored deal's jobs are written for the other worker processes (None: this process alone)."""
        self._swept = 0.0

    def pool(self) -> ProcessPoolExecutor:
        """The worker processes, started at the first job."""
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=analyst, initargs=(os.getpid(), threading.current_thread() is threading.main_thread()))
            return self._pool

    def submit(self, deal: int | None, rules: str | None, text: str, analysis: AnalysisKey, *,
               anonymous: bool = False) -> Job | None:
        """A job analysing one record (a stored deal's job already kept is given back instead); None when
        :data:`MAX_RUNNING` jobs are waiting or under way, or, for an anonymous client, when
        :attr:`anonymous` of theirs are (:meth:`running` tells which)."""
        key = (deal, analysis) if deal is not None else None
        with self._lock:
            known = self._jobs.get(self._by_key.get(key, "")) if key else None
            if known is not None and known.status != "failed":
                return known
            if self.busy() or anonymous and len(self.running(True)) >= self.anonymous:
                return None
            try:
                future = self.pool().submit(analysis_row, deal or 0, rules, text, analysis)
            except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
                self.close()
                future = self.pool().submit(analysis_row, deal or 0, rules, text, analysis)
            job = Job(id=uuid.uuid4().hex, deal=deal, key=analysis, future=future, anonymous=anonymous)
            self._jobs[job.id] = job
            if key:
                self._by_key[key] = job.id
            self._trim()
        if deal is not None and self.store is not None:
            self._share(job)
            future.add_done_callback(lambda _: self._share(job))
        if deal is not None and self.on_done is not None:
            on_done = self.on_done

            def finished(done: Future[Row]) -> None:
                if not done.cancelled() and done.exception() is None:
                    on_done(done.result())

            future.add_done_callback(finished)
        return job

    def _share(self, job: Job) -> None:
        """Write a stored deal's job to the shared store (as it starts, and as it ends), and its key, so that
        every worker process finds it; now and then, the store's old files go."""
        assert self.store is not None and job.deal is not None
        if job.future.cancelled():
            return
        self.store.write(job.state())
        self.store.name_key(self.store_key(job.deal, job.key), job.id)
        if time.time() - self._swept > SWEEP_SECONDS:
            self._swept = time.time()
            self.store.sweep()

    @staticmethod
    def store_key(deal: int, key: AnalysisKey) -> str:
        """A deal's analysis with these parameters, as the shared store names it (the analysis's version in it:
        a service upgraded never answers an analysis of the version before)."""
        return f"{deal}-{int(key.cantes)}-{key.version.replace(':', '-')}"

    def shared(self, job_id: str) -> dict[str, Any] | None:
        """A job this process does not hold, as another worker process wrote it (None: unknown)."""
        return self.store.read(job_id) if self.store is not None else None

    def shared_for(self, deal: int, key: AnalysisKey) -> dict[str, Any] | None:
        """Another worker process's job on this deal with these parameters, running or done (None: none, or it
        failed: this process tries again)."""
        if self.store is None:
            return None
        job_id = self.store.key_job(self.store_key(deal, key))
        if job_id is None or self.get(job_id) is not None:
            return None
        job = self.store.read(job_id)
        return job if job is not None and job["status"] != "failed" else None

    def _trim(self) -> None:
        """Drop the oldest finished jobs past :data:`KEPT` (running ones stay: their clients poll them)."""
        for job_id in [j for j, job in self._jobs.items() if job.future.done()][:max(0, len(self._jobs) - KEPT)]:
            job = self._jobs.pop(job_id)
            if self.store is not None:
                self.store.drop(job_id)
            if job.deal is not None and self._by_key.get((job.deal, job.key)) == job_id:
                del self._by_key[(job.deal, job.key)]

    def busy(self) -> bool:
        """Whether :data:`MAX_RUNNING` jobs are waiting or under way: no job is taken, with a key or without."""
        return len(self.running()) >= MAX_RUNNING

    def running(self, anonymous: bool = False) -> list[Future[Row]]:
        """The futures of the jobs waiting or under way (only anonymous clients' with ``anonymous``)."""
        with self._lock:
            return [job.future for job in self._jobs.values()
                    if not job.future.done() and (job.anonymous or not anonymous)]

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def close(self) -> None:
        """Stop the worker processes, jobs under way with them: a pool's shutdown alone cancels the waiting jobs
        but lets a running analysis (up to minutes of CPU) finish for no one."""
        with self._lock:
            if self._pool is not None:
                workers = list((getattr(self._pool, "_processes", None) or {}).values())  # terminate_workers() from 3.14
                self._pool.shutdown(wait=False, cancel_futures=True)
                for process in workers:
                    process.terminate()
                self._pool = None
