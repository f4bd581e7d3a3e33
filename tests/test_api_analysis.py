"""Analyses through the real app: a stored deal's (kept in the archive; a 202 job when slow), a posted
record's (within the request time limit), the jobs, and the analysis filters as query parameters."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tutepgn.analysis.annotate import analyse_record
from tutepgn.api import jobs
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.archive.analyses import AnalysisKey
from tutepgn.errors import Problem
from tutepgn.notation import parse_record

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
UNREADABLE = '[Event "broken"]\n[Rules "torofun-4p"]\n\n1. 1O 3O {\n'
DD = {"pimc": 0}
"""Double dummy alone (cantes counted, the default): the quick parameters most tests ask with."""


def expected(text: str, cantes: bool = True, pimc: int = 0) -> dict[str, Any]:
    """The library's own analysis of a record, as the API must answer it."""
    return analyse_record(parse_record(text), cantes=cantes, pimc=pimc, up_to_illegal=True).to_dict()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("api-analysis") / "archive.duckdb"
    with Archive(path) as archive:
        archive.import_sources([SAMPLES / "tutes.tpgn", SAMPLES / "torofun-4p-lost-cante.tpgn", UNREADABLE])
    return path


@pytest.fixture
def app(db: Path, tmp_path: Path) -> Iterator[Any]:
    copy = tmp_path / "archive.duckdb"
    copy.write_bytes(db.read_bytes())
    app = create_app(Settings(db=copy))
    yield app
    app.state.service.close()


def deals(client: TestClient, **params: Any) -> dict[str, dict[str, Any]]:
    """The valid deals' summaries by rules, with their text."""
    items = client.get("/api/v1/deals", params={"limit": 50, "valid": True, **params}).json()["items"]
    return {d["rules"]: d | {"text": client.get(f"/api/v1/deals/{d['id']}.tpgn").text} for d in items}


def poll(client: TestClient, url: str) -> dict[str, Any]:
    for _ in range(600):
        job = client.get(url).json()
        if job["status"] != "running":
            return job
        time.sleep(0.1)
    raise AssertionError("the job never ended")


def test_a_quick_deal_is_answered_and_kept(app: Any) -> None:
    client = TestClient(app)
    two = deals(client)["playcard-2p"]
    assert client.get("/api/v1/deals", params={"analysed": True}).json()["items"] == []
    r = client.get(f"/api/v1/deals/{two['id']}/analysis", params=DD)
    assert r.status_code == 200 and r.json() == expected(two["text"])
    with Archive(app.state.settings.db, read_only=True, connection=app.state.archive.con.cursor()) as view:
        assert view.analysis(int(two["id"]), AnalysisKey(worlds=0)) == r.json()  # kept in the archive, by its key
        assert view.analysis(int(two["id"])) is None  # the default key (20 worlds) is another row
    found = [d["id"] for d in client.get("/api/v1/deals", params={"analysed": True}).json()["items"]]
    assert found == [two["id"]]  # the search cache was cleared when it was stored
    assert client.get(f"/api/v1/deals/{two['id']}/analysis", params=DD).json() == r.json()


def test_the_defaults_are_the_librarys(app: Any) -> None:
    """Without parameters: cantes counted and PIMC's 20 worlds, seed 0, as `tute analyse` (a job: seconds)."""
    client = TestClient(app)
    two = deals(client)["playcard-2p"]
    r = client.get(f"/api/v1/deals/{two['id']}/analysis")
    data = r.json() if r.status_code == 200 else poll(client, r.headers["location"])["analysis"]
    assert data == analyse_record(parse_record(two["text"]), up_to_illegal=True).to_dict()
    assert (data["cantes"], data["worlds"], data["seed"], data["inference"]) == (True, 20, 0, False)


def test_a_slow_deal_is_a_job_with_a_status_url(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tutepgn.api.routes.analysis.QUICK_SECONDS", 0.0)
    client = TestClient(app)
    four = deals(client)["torofun-4p"]
    r = client.get(f"/api/v1/deals/{four['id']}/analysis", params={"cantes": True, **DD})
    assert r.status_code == 202 and r.json()["status"] == "running" and r.json()["analysis"] is None
    assert r.headers["location"] == r.json()["links"]["self"] and r.json()["deal"] == four["id"]
    again = client.get(f"/api/v1/deals/{four['id']}/analysis", params={"cantes": True, **DD})
    assert again.status_code == 200 or again.json()["id"] == r.json()["id"]  # the same job, not a second one
    job = poll(client, r.headers["location"])
    assert job["status"] == "done" and job["error"] is None and job["cantes"] is True, job["error"]
    assert (job["worlds"], job["seed"], job["inference"]) == (0, 0, False)
    assert job["analysis"] == expected(four["text"], cantes=True)
    stored = client.get(job["links"]["analysis"])
    assert stored.status_code == 200 and stored.json() == job["analysis"]
    other = client.get(f"/api/v1/deals/{four['id']}/analysis", params={"cantes": False, **DD})
    assert other.status_code == 202  # without cantes: another key


def test_an_unreadable_deal_cannot_be_analysed(app: Any) -> None:
    client = TestClient(app)
    broken = next(d for d in client.get("/api/v1/deals", params={"valid": False}).json()["items"]
                  if d["event"] == "broken")
    first = client.get(f"/api/v1/deals/{broken['id']}/analysis", params=DD)
    if first.status_code == 202:  # its players are unknown, so it is worked on as a job
        job = poll(client, first.headers["location"])
        assert job["status"] == "failed" and "unexpected token" in job["error"] and job["analysis"] is None
    else:
        assert first.status_code == 422
    r = client.get(f"/api/v1/deals/{broken['id']}/analysis", params=DD)  # its error was stored
    assert r.status_code == 422 and "cannot be analysed" in Problem.model_validate(r.json()).detail
    assert client.get("/api/v1/jobs/0123456789abcdef").status_code == 404


def test_a_read_only_service_answers_without_storing(db: Path) -> None:
    app = create_app(Settings(db=db, read_only=True))
    try:
        client = TestClient(app)
        two = deals(client)["playcard-2p"]
        assert client.get(f"/api/v1/deals/{two['id']}/analysis", params=DD).json() == expected(two["text"])
        assert client.get("/api/v1/deals", params={"analysed": True}).json()["items"] == []
    finally:
        app.state.service.close()


def test_a_posted_record_is_analysed(app: Any) -> None:
    client = TestClient(app)
    text = (SAMPLES / "torofun-2p-exchange-7-and-2.tpgn").read_text(encoding="utf-8")
    r = client.post("/api/v1/analyse", content=text, params=DD)
    assert r.status_code == 200 and r.json() == expected(text) and r.json()["plays"]
    plain = client.post("/api/v1/analyse", content=text, params={"cantes": False, **DD})
    assert plain.json() == expected(text, False)
    several = client.post("/api/v1/analyse", content=(SAMPLES / "tutes.tpgn").read_text(encoding="utf-8"))
    assert several.status_code == 422 and "not 3" in several.json()["detail"]
    located = client.post("/api/v1/analyse", content=UNREADABLE)
    assert located.status_code == 422 and located.json()["errors"][0]["line"] == 4
    assert client.get("/api/v1/deals", params={"analysed": True}).json()["items"] == []  # stores nothing


def test_a_posted_record_past_the_time_limit_answers_504(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "archive.duckdb"
    copy.write_bytes(db.read_bytes())
    app = create_app(Settings(db=copy, request_timeout=0.05))
    try:
        text = (SAMPLES / "torofun-4p-lost-cante.tpgn").read_text(encoding="utf-8")
        start = time.monotonic()
        r = TestClient(app).post("/api/v1/analyse", content=text)
        assert r.status_code == 504 and "ran over 0.05 s" in r.json()["detail"]
        assert time.monotonic() - start < 2.0
    finally:
        app.state.service.close()


def test_the_analysis_is_documented_in_openapi(app: Any) -> None:
    spec = TestClient(app).get("/openapi.json").json()
    get = spec["paths"]["/api/v1/deals/{deal_id}/analysis"]["get"]
    assert {"200", "202", "422"} <= set(get["responses"])
    assert "requestBody" in spec["paths"]["/api/v1/analyse"]["post"]
    names = {p["name"] for p in spec["paths"]["/api/v1/deals"]["get"]["parameters"]}
    assert {"blunders", "par_diff_max", "max_cost", "cost_seat", "analysed"} <= names
    assert json.dumps(spec["components"]["schemas"]["PlayAnalysisModel"]).count("mark") >= 1


def test_too_many_waiting_analyses_answer_503(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "MAX_RUNNING", 0)
    client = TestClient(app)
    four = deals(client)["torofun-4p"]
    r = client.get(f"/api/v1/deals/{four['id']}/analysis")
    assert r.status_code == 503 and r.headers["retry-after"] == "5"
    assert "waiting" in Problem.model_validate(r.json()).detail
    text = (SAMPLES / "torofun-2p-italian-cards.tpgn").read_text(encoding="utf-8")
    assert client.post("/api/v1/analyse", content=text).status_code == 503


def test_analysis_processes_defer_to_the_requests_for_the_cpu() -> None:
    """A solve in an analysis process runs niced, so the searches and imports answered meanwhile get the cores
    first (bench/abuse.py: search p95 under 50 anonymous clients)."""
    pool = jobs.Jobs(1).pool()
    try:
        assert pool.submit(os.nice, 0).result(timeout=60) >= os.nice(0) + jobs.NICENESS
    finally:
        pool.shutdown()


def test_closing_the_jobs_stops_an_analysis_under_way() -> None:
    """The service's end ends its analyses: a job under way does not go on using a core for no one."""
    work = jobs.Jobs(1)
    pool = work.pool()
    pool.submit(time.sleep, 600)
    worker = next(iter(pool._processes.values()))  # type: ignore[attr-defined]
    work.close()
    # The pool's own thread reaps the worker too: a join racing it can come back before the exit code is
    # recorded, so the test waits for the code itself.
    deadline = time.monotonic() + 60
    while worker.exitcode is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert worker.exitcode is not None and not worker.is_alive()
