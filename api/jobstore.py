"""Analysis jobs on disk, so that every worker process of a service finds them.

``tute serve --workers N`` runs N processes, each with its own jobs
(:class:`.jobs.Jobs`); a client's polls reach any of them.  Each process
writes its jobs here, one JSON file a job named by its id (written whole to a
file of its own, then renamed over the old: a reader sees the old state or the
new, never half of one): while it runs, then done with its analysis or failed
with the reason.  A process that does not hold a job answers it from its file;
a job whose process has ended without finishing it (the service stopped) reads
as failed.  Files of finished jobs go after :data:`KEPT_SECONDS`.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from tutepgn.archive.held import alive

log = logging.getLogger("tutepgn.api")

KEPT_SECONDS = 24 * 3600
"""How long a finished job's file is kept (a process keeps the jobs it ran in memory apart: :data:`.jobs.KEPT`)."""
JOB_ID = re.compile(r"^[0-9a-f]{32}$")
"""A job's id as :class:`.jobs.Jobs` makes them: no other name is ever a path."""
STOPPED = "the service process that ran the analysis stopped before it ended"
"""The error of a job whose process ended while it was running."""


class JobStore:
    """The jobs' folder every worker process of a service shares (``<archive>.jobs`` unless configured)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        """Made at the first job written: a service that analyses nothing leaves no folder."""

    def path(self, job_id: str) -> Path | None:
        """A job's file, None for what is not a job id."""
        return self.folder / f"{job_id}.json" if JOB_ID.match(job_id) else None

    def write(self, job: dict[str, Any]) -> None:
        """Store a job's state (its ``id`` names the file), replacing the one before at once."""
        target = self.path(job["id"])
        assert target is not None
        partial = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:  # a read-only disk or a full one: the job goes on, found by this process alone
            self.folder.mkdir(parents=True, exist_ok=True)
            partial.write_text(json.dumps({**job, "pid": os.getpid(), "written": time.time()}), encoding="utf-8")
            os.replace(partial, target)
        except OSError as exc:
            log.warning("the analysis job %s could not be written to %s: %s", job["id"], self.folder, exc)
            with suppress(OSError):
                partial.unlink()

    def read(self, job_id: str) -> dict[str, Any] | None:
        """A job's last state, None when no process wrote it (or it was dropped); a running job of a process that
        has ended reads as failed."""
        target = self.path(job_id)
        if target is None:
            return None
        try:
            job: dict[str, Any] = json.loads(target.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if job.get("status") == "running" and not alive(int(job.get("pid", 0))):
            job.update(status="failed", error=STOPPED)
        return job

    def drop(self, job_id: str) -> None:
        """Forget a job (its process no longer keeps it)."""
        target = self.path(job_id)
        if target is not None:
            with suppress(OSError):
                target.unlink()

    def name_key(self, key: str, job_id: str) -> None:
        """Note that the job ``job_id`` analyses ``key`` (a deal and the analysis's parameters)."""
        target = self.folder / f"key-{key}"
        partial = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        with suppress(OSError):
            partial.write_text(job_id, encoding="ascii")
            os.replace(partial, target)

    def key_job(self, key: str) -> str | None:
        """The id of the last job that analysed ``key``, by whichever process (None: none)."""
        try:
            return (self.folder / f"key-{key}").read_text(encoding="ascii").strip() or None
        except OSError:
            return None

    def sweep(self, now: float | None = None) -> None:
        """Remove the files of jobs finished over :data:`KEPT_SECONDS` ago, and of jobs whose process ended."""
        limit = (now or time.time()) - KEPT_SECONDS
        with suppress(OSError):
            for entry in os.scandir(self.folder):
                if entry.name.endswith(".json") and entry.stat().st_mtime < limit:
                    job = self.read(entry.name.removesuffix(".json"))
                    if job is None or job.get("status") != "running":
                        self.drop(entry.name.removesuffix(".json"))
                elif entry.name.startswith("key-") and entry.stat().st_mtime < limit:
                    with suppress(OSError):
                        os.unlink(entry.path)
