"""Analysis jobs found by every worker process: ``tute serve --workers 2 --read-only`` answers a job's poll the same
whichever worker takes it (a job lived in the process that ran it, so polls answered 200, 404, 200, 404...), and the
shared store (api/jobstore.py) reads as its writer left it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from served import wait_until_healthy

from test_live_crash import TUTE, free_port
from tutepgn.api.jobstore import STOPPED, JobStore
from tutepgn.archive import Archive

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
POLLS = 30
"""Polls at least, each on a connection of its own (the kernel hands connections to either worker)."""


@pytest.fixture()
def two_workers(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``tute serve --workers 2 --read-only`` over an archive of one 4-player deal; its URL and archive."""
    db = tmp_path / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLES / "torofun-4p-lost-cante.tpgn"])
    port = free_port()
    env = {**os.environ, "TUTEPGN_ANALYSIS_WORKERS": "1"}
    process = subprocess.Popen([str(TUTE), "serve", "--db", str(db), "--read-only", "--workers", "2",
                                "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, process, 90,
                           lambda: process.stderr.read().decode()[-2000:] if process.stderr else "")
        yield url, db
    finally:
        process.send_signal(signal.SIGTERM)  # the supervisor stops its workers
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its own session: the workers and their analysis processes
            process.wait(timeout=30)


def test_every_worker_answers_a_job_until_it_is_done(two_workers: tuple[str, Path]) -> None:
    url, db = two_workers
    deal = httpx.get(f"{url}/api/v1/deals", params={"limit": 1}, timeout=30).json()["items"][0]["id"]
    params = {"pimc": 0}  # double dummy alone: a job of seconds on a 4-player deal
    started = httpx.get(f"{url}/api/v1/deals/{deal}/analysis", params=params, timeout=60)
    assert started.status_code == 202, started.text
    job = started.json()
    assert job["deal"] == deal and job["status"] == "running" and started.headers["location"] == job["links"]["self"]
    answers: list[tuple[int, str]] = []
    again: set[str] = set()
    deadline = time.monotonic() + 300
    while not answers or answers[-1][1] != "done" or len(answers) < POLLS:
        assert time.monotonic() < deadline, answers[-5:]
        polled = httpx.get(f"{url}{started.headers['location']}", timeout=30)  # a new connection each time
        answers.append((polled.status_code, polled.json().get("status", polled.text)))
        assert polled.status_code == 200, (len(answers), polled.text)
        if len(answers) % 5 == 0:  # the deal asked again, of either worker: the same job, never a second one
            asked = httpx.get(f"{url}/api/v1/deals/{deal}/analysis", params=params, timeout=60)
            assert asked.status_code in (200, 202), asked.text
            again.add(asked.json()["id"] if asked.status_code == 202 else "answered")
        time.sleep(0.1)
    assert {status for _, status in answers} <= {"running", "done"}
    done = polled.json()
    assert done["id"] == job["id"] and done["deal"] == deal and done["error"] is None
    assert done["analysis"]["worlds"] == 0 and done["analysis"]["plays"]
    assert again <= {job["id"], "answered"}
    assert (db.with_name(db.name + ".jobs") / f"{job['id']}.json").exists()  # the store beside the archive
    answered = httpx.get(f"{url}/api/v1/deals/{deal}/analysis", params=params, timeout=60)
    assert answered.status_code == 200 and answered.json() == done["analysis"]


def test_the_store_reads_what_its_writer_left(tmp_path: Path) -> None:
    store = JobStore(tmp_path / "jobs")
    job = {"id": "a" * 32, "deal": 7, "cantes": True, "worlds": 0, "seed": 0, "inference": False,
           "status": "running", "error": None, "analysis": None}
    assert store.read(job["id"]) is None and not store.folder.exists()  # made at the first job written
    store.write(job)
    assert store.read(job["id"]) == {**job, "pid": os.getpid(), "written": store.read(job["id"])["written"]}  # type: ignore[index]
    for name in ("../../etc/passwd", "A" * 32, "a" * 31, ""):  # what is not a job id is never a path
        assert store.path(name) is None and store.read(name) is None
    ended = subprocess.Popen(["true"])
    ended.wait()
    target = store.path(job["id"])
    assert target is not None
    target.write_text(target.read_text().replace(f'"pid": {os.getpid()}', f'"pid": {ended.pid}'))
    stopped = store.read(job["id"])
    assert stopped is not None and (stopped["status"], stopped["error"]) == ("failed", STOPPED)
    store.write({**job, "status": "done", "analysis": "{}"})
    store.sweep(now=time.time() + 10)
    assert store.read(job["id"]) is not None  # finished a moment ago: kept
    store.sweep(now=time.time() + 2 * 24 * 3600)
    assert store.read(job["id"]) is None and list(store.folder.iterdir()) == []
