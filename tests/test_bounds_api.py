"""Every route's work is bounded, and anonymous analysis has a budget of its own (issue 31, items 3 and 4).

The probes of the issue, against the real app: a share link whose 1,347
characters unpack to 340,000 comment lines (21 s and 39 MB of HTML before),
2 MB of records posted to /replay (64.7 MB of JSON), a record followed by
300,000 ``;`` lines (9 s in the reader); and, against a real ``tute serve``,
health asked while such links are, a key holder's import while anonymous
clients loop on ``POST /analyse`` (504 before), and searches while anonymous
clients poll a queued analysis (1.8-4.0 s before).
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from served import wait_until_healthy
from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.api.jobs import QUICK_SECONDS
from tutepgn.archive import Archive
from tutepgn.errors import Problem
from tutepgn.rules import preset
from tutepgn.notation.share import deal_link, encode_deal
from tutepgn.recording.simulate import deal_records

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
KEY = "tk_test_bounds"
BOMB = encode_deal(";x\n" * 340000)
"""The issue's share link: 1,347 characters that unpack to 1,020,000 bytes of comment lines."""


def four_player(count: int, seed: int = 5) -> list[str]:
    """Simulated 4-player deals: analysing a whole one takes from one to ten seconds."""
    return [r.tpgn() for r in deal_records(preset("torofun-4p"), count, seed=seed)]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bounds") / "archive.duckdb"
    with Archive(path) as archive:
        archive.import_sources(sorted(SAMPLES.glob("*.tpgn")))
        archive.import_sources(["\n".join(four_player(12, seed=31))])
    return path


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=db, read_only=True))
    yield TestClient(app)
    app.state.service.close()


def problem(answer: httpx.Response, status: int, *words: str) -> Problem:
    """The answer is a problem of ``status`` whose detail says each of ``words``."""
    assert answer.status_code == status, answer.text[:300]
    assert answer.headers["content-type"].startswith("application/problem+json")
    found = Problem.model_validate(answer.json())
    assert all(word in found.detail for word in words), found.detail
    return found


# -- Item 3: share links and /replay ---------------------------------------------------------------------

def test_the_issues_share_link_is_refused_at_once_and_a_real_one_still_shows(client: TestClient) -> None:
    start = time.monotonic()
    problem(client.get("/view", params={"d": BOMB}), 422, "TUTEPGN_MAX_LINK_BYTES")
    assert time.monotonic() - start < 2  # 21 s and 39 MB of HTML before
    problem(client.get("/view", params={"p": "torofun-4p N " + "x" * 9000}), 422, "TUTEPGN_MAX_LINK_BYTES")
    text = (SAMPLES / "torofun-3p.tpgn").read_text(encoding="utf-8")
    shown = client.get(deal_link(text))
    assert shown.status_code == 200 and "text/html" in shown.headers["content-type"]
    assert len(shown.content) < 1_000_000


def test_replay_of_2_mb_of_records_is_refused_before_it_is_replayed(client: TestClient) -> None:
    ten = "\n".join(four_player(10, seed=7)) + "\n"
    body = ten * ((2 * 1024 * 1024 - 1) // len(ten.encode()))  # under the body limit, 2 MiB
    start = time.monotonic()
    problem(client.post("/api/v1/replay", content=body.encode()), 413, "100", "TUTEPGN_MAX_REPLAY_RECORDS")
    assert time.monotonic() - start < 5  # 64.7 MB of JSON before
    kept = client.post("/api/v1/replay", content="\n".join(four_player(3)).encode())
    assert kept.status_code == 200 and len(kept.json()["boards"]) == 3


def test_a_replay_answer_over_its_bytes_is_never_sent(tmp_path: Path) -> None:
    app = create_app(Settings(db=tmp_path / "empty.duckdb", max_answer_bytes=30_000, max_replay_records=5))
    try:
        client = TestClient(app)
        assert client.post("/api/v1/replay", content=four_player(1)[0].encode()).status_code == 200
        problem(client.post("/api/v1/replay", content="\n".join(four_player(2)).encode()), 413,
                "TUTEPGN_MAX_ANSWER_BYTES")
        problem(client.post("/api/v1/replay", content="\n".join(four_player(6)).encode()), 413,
                "5", "TUTEPGN_MAX_REPLAY_RECORDS")
    finally:
        app.state.service.close()


def test_comment_lines_after_a_record_are_read_in_linear_time(client: TestClient) -> None:
    text = four_player(1)[0] + "\n" + ";x\n" * 300000  # 0.9 MB: under TUTEPGN_MAX_RECORD_BYTES
    start = time.monotonic()
    answer = client.post("/api/v1/validate", content=text.encode())
    assert answer.status_code == 200 and answer.json()["summary"]["records"] == 1
    assert time.monotonic() - start < 4  # 9 to 14 s before: the reader copied the tail at each line


# -- Item 4: the anonymous budget, in the app -----------------------------------------------------------

class HeldPool:
    """A stand-in for the analysis processes whose jobs never end until released: the budget is full for
    as long as the test needs."""

    def __init__(self) -> None:
        self.futures: list[Future[Any]] = []

    def submit(self, *args: Any) -> Future[Any]:
        self.futures.append(Future())
        return self.futures[-1]

    def release(self) -> None:
        for future in self.futures:
            future.set_result(("", "released by the test"))  # an analysis row: (..., analysis, why not)


def test_past_the_anonymous_budget_an_analysis_gets_429_and_key_holders_do_not_wait(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "archive.duckdb"
    copy.write_bytes(db.read_bytes())
    app = create_app(Settings(db=copy, api_keys=frozenset({KEY}), anon_analyses=2, concurrency=2,
                              request_timeout=4))
    service, pool = app.state.service, HeldPool()
    monkeypatch.setattr(service.jobs, "pool", lambda: pool)
    client = TestClient(app)
    text = four_player(1, seed=8)[0]
    answers: list[httpx.Response] = []
    waiting = [threading.Thread(target=lambda: answers.append(client.post("/api/v1/analyse", content=text)))
               for _ in range(4)]  # two take the budget, two wait for a place
    try:
        for thread in waiting:
            thread.start()
        while len(pool.futures) < 2:
            time.sleep(0.01)
        start = time.monotonic()
        refused = client.post("/api/v1/analyse", content=text)
        problem(refused, 429, "TUTEPGN_ANON_ANALYSES")
        assert refused.headers["retry-after"] == "2"
        assert time.monotonic() - start < QUICK_SECONDS + 2
        start = time.monotonic()
        imported = client.post("/api/v1/import", content=four_player(5, seed=9)[0], headers={"X-API-Key": KEY})
        searched = client.get("/api/v1/deals", params={"limit": 50})
        assert imported.status_code == 200 and searched.status_code == 200
        assert time.monotonic() - start < 2  # before: behind the anonymous analyses' posted threads, then 504
        taken = len(pool.futures)
        keyed = threading.Thread(target=lambda: answers.append(
            client.post("/api/v1/analyse", content=text, headers={"X-API-Key": KEY})))
        waiting.append(keyed)
        keyed.start()
        until = time.monotonic() + QUICK_SECONDS + 2
        while len(pool.futures) == taken and time.monotonic() < until:
            time.sleep(0.01)
        assert len(pool.futures) == taken + 1  # a key holder's job is taken with the anonymous budget full
    finally:
        pool.release()
        for thread in waiting:
            thread.join(timeout=30)
        service.close()
    assert sorted(a.status_code for a in answers) == [422, 422, 422, 429, 429]  # released, or refused


# -- Against a real server: the reads and a key holder's import while anonymous clients abuse ---------------

class Server:
    """``tute serve`` over a copy of the archive, with a key, two request threads and a short request limit."""

    def __init__(self, db: Path, log: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.url = f"http://127.0.0.1:{s.getsockname()[1]}"
        env = {**os.environ, "TUTEPGN_API_KEYS": KEY, "TUTEPGN_CONCURRENCY": "2", "TUTEPGN_REQUEST_TIMEOUT": "8"}
        self.process = subprocess.Popen([str(Path(sys.executable).with_name("tute")), "serve", "--db", str(db),
                                         "--port", self.url.rsplit(":", 1)[1]],
                                        env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"))
        wait_until_healthy(self.url, self.process, 60, lambda: log.read_text()[-2000:])

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def server(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("bounds-served")
    copy = folder / "archive.duckdb"
    copy.write_bytes(db.read_bytes())
    served = Server(copy, folder / "serve.log")
    yield served
    served.stop()


def abusing(url: str, count: int, seconds: float, ask: Callable[[httpx.Client], httpx.Response]) -> tuple[
        list[threading.Thread], list[httpx.Response]]:
    """``count`` anonymous clients asking in a closed loop for ``seconds`` (they stop by themselves)."""
    answers: list[httpx.Response] = []

    def loop() -> None:
        until = time.monotonic() + seconds
        with httpx.Client(base_url=url, timeout=30) as http:
            while time.monotonic() < until:
                answers.append(ask(http))

    threads = [threading.Thread(target=loop) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads, answers


def timed(http: httpx.Client, method: str, path: str, **kwargs: Any) -> tuple[float, httpx.Response]:
    start = time.monotonic()
    answer = http.request(method, path, **kwargs)
    return time.monotonic() - start, answer


def test_health_answers_while_the_issues_share_links_are_asked(server: Server) -> None:
    threads, answers = abusing(server.url, 4, 4, lambda http: http.get("/view", params={"d": BOMB}))
    with httpx.Client(base_url=server.url, timeout=30) as http:
        time.sleep(0.5)
        waited, health = timed(http, "GET", "/api/v1/health")
    for thread in threads:
        thread.join()
    assert health.status_code == 200 and waited < 2  # 75 s before, behind four such links
    assert answers and all(a.status_code == 422 for a in answers)


def test_a_key_holders_import_is_unhurt_by_anonymous_clients_looping_on_analyse(server: Server) -> None:
    text = four_player(3, seed=5)[1]  # about ten seconds of analysis
    records = "\n".join(four_player(5, seed=41))
    with httpx.Client(base_url=server.url, timeout=30) as http:
        idle, _ = timed(http, "POST", "/api/v1/validate", content=records)
        threads, answers = abusing(server.url, 16, 4, lambda a: a.post("/api/v1/analyse", content=text))
        time.sleep(1.5)
        took, imported = timed(http, "POST", "/api/v1/import", content=records, headers={"X-API-Key": KEY})
    for thread in threads:
        thread.join()
    assert imported.status_code == 200, imported.text  # 504 before, behind 24 such clients
    assert took < max(3.0, 10 * idle)
    refused = [a for a in answers if a.status_code == 429]
    assert refused and all(a.headers["retry-after"] for a in refused)


def test_searches_stay_quick_while_anonymous_clients_poll_a_queued_analysis(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        ids = [d["id"] for d in http.get("/api/v1/deals", params={"rules": "torofun-4p", "limit": 8}).json()["items"]]
        asked = [(deal, cantes) for deal in ids for cantes in ("false", "true")]

        def ask(job: tuple[int, str]) -> int:  # a key holder's 16 jobs at once: the analysis process is busy
            return httpx.get(f"{server.url}/api/v1/deals/{job[0]}/analysis", params={"cantes": job[1]},
                             headers={"X-API-Key": KEY}, timeout=30).status_code

        with ThreadPoolExecutor(len(asked)) as pool:
            statuses = list(pool.map(ask, asked))
        queued = [deal for (deal, _cantes), status in zip(asked, statuses) if status == 202]
        assert queued, statuses  # one process works on them in turn: the later ones wait past a second
        idle = [timed(http, "GET", "/api/v1/deals", params={"limit": 50, "sort": sort})[0]
                for sort in ("date", "-points", "id") * 4]
        threads, _answers = abusing(server.url, 6, 4, lambda a: a.get(f"/api/v1/deals/{queued[-1]}/analysis"))
        time.sleep(0.5)
        busy = [timed(http, "GET", "/api/v1/deals", params={"limit": 50, "sort": sort})[0]
                for sort in ("date", "-points", "id") * 4]
    for thread in threads:
        thread.join()
    # Before, each poll held a request thread for up to a second, so searches queued behind the pollers: 1.8-4.0 s
    # (3.0 s here). The median, not the slowest, is asserted: one search slowed by the machine is not the fault.
    assert statistics.median(busy) < max(0.5, 10 * statistics.median(idle)), (busy, idle)
