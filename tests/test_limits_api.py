"""The service's limits (issue 13): downloads stream and honour ``limit``, at most ``max_streams`` at once, the
page cache bounded in bytes, posted requests bounded in time, security headers on every answer, slow clients
cut (against a real ``tute serve``)."""

from __future__ import annotations

import csv
import io
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from served import wait_until_healthy
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.api.guards import Deadline
from tutepgn.api.pool import PageCache
from tutepgn.archive import CSV_COLUMNS, Archive, SearchFilters
from tutepgn.errors import LimitError, Problem
from tutepgn.rules import preset
from tutepgn.recording.simulate import deal_records

ROOT = Path(__file__).resolve().parent.parent
KEY = "tk_test_limits"
SECURITY = ("x-content-type-options", "x-frame-options", "referrer-policy", "content-security-policy")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("limits") / "archive.duckdb"
    with Archive(path) as archive:
        archive.import_sources(sorted((ROOT / "samples").rglob("*.tpgn")))
    return path


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    # The page cache under the kept answers is what these searches look at (the kept answers, a repeated
    # request's whole answer sent again: tests/test_api_caching.py), and the crash below must reach its route.
    app = create_app(Settings(db=db, api_keys=frozenset({KEY}), answer_cache_bytes=0))
    yield TestClient(app)
    app.state.archive.close()


@pytest.fixture(scope="module")
def many_deals() -> str:
    """Enough records that validating them takes well over 10 ms (about 40 ms on a fast, idle machine)."""
    return "\n".join(r.tpgn() for r in deal_records(preset("torofun-4p"), 600, seed=13))


# -- Downloads ---------------------------------------------------------------------------------------------

def test_the_library_streams_the_same_rows_in_batches(client: TestClient) -> None:
    with client.app.state.archive.reader() as archive:  # type: ignore[attr-defined]
        f = SearchFilters(rules="torofun-4p")
        for sort in ("date", "-points", "id"):
            whole = list(archive.iter_rows(f, sort=sort, columns=CSV_COLUMNS))
            assert list(archive.iter_rows(f, sort=sort, columns=CSV_COLUMNS, batch=7)) == whole
            assert list(archive.iter_rows(f, sort=sort, columns=("text",), batch=7, limit=9, offset=3)) == [
                {"text": r["text"]} for r in archive.iter_rows(f, sort=sort, columns=("id", "text"), limit=9, offset=3)]
        assert len(whole) > 7 and [r["id"] for r in whole] == archive.ids(f, sort="id").to_pylist()


def test_downloads_are_complete_and_honour_limit(client: TestClient) -> None:
    with client.app.state.archive.reader() as archive:  # type: ignore[attr-defined]
        total = archive.count()
        tpgn, csv_text = io.StringIO(), io.StringIO()
        archive.export(None, "tpgn", tpgn, sort="-points")
        archive.export(None, "csv", csv_text, sort="-points")
        ids = [r["id"] for r in archive.search(None, sort="-points", limit=None)]
    answers = {kind: client.get(f"/api/v1/deals.{kind}", params={"sort": "-points"}) for kind in ("tpgn", "csv", "ndjson")}
    assert answers["tpgn"].text == tpgn.getvalue() and answers["csv"].text == csv_text.getvalue()
    assert [int(json.loads(line)["id"]) for line in answers["ndjson"].text.splitlines()] == ids
    for kind, r in answers.items():
        assert r.headers["x-total-count"] == str(total) and r.headers["x-truncated"] == "false", kind
    r = client.get("/api/v1/deals.ndjson", params={"sort": "-points", "limit": 5})
    assert [int(json.loads(line)["id"]) for line in r.text.splitlines()] == ids[:5] and r.headers["x-truncated"] == "true"
    rows = list(csv.reader(io.StringIO(client.get("/api/v1/deals.csv", params={"sort": "-points", "limit": 3}).text)))
    assert rows[0] == list(CSV_COLUMNS) and [int(row[0]) for row in rows[1:]] == ids[:3]
    assert client.get("/api/v1/deals.tpgn", params={"sort": "-points", "limit": 2}).text.count("[Event ") == 2
    assert client.get("/api/v1/deals.csv", params={"limit": 0}).status_code == 422


def _copy(db: Path, tmp_path: Path) -> Path:
    """A copy of the archive for an app of its own (DuckDB allows one configuration per file and process)."""
    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(db.read_bytes())
    return copy


def test_at_most_max_streams_downloads_at_once(db: Path, tmp_path: Path) -> None:
    app = create_app(Settings(db=_copy(db, tmp_path), max_streams=2))
    try:
        client, slots = TestClient(app), app.state.service.streams
        assert client.get("/api/v1/deals.ndjson").status_code == 200
        assert slots.acquire(blocking=False) and slots.acquire(blocking=False)  # the slot was given back: both are free
        r = client.get("/api/v1/deals.csv")
        assert r.status_code == 503 and r.headers["retry-after"] == "5"
        assert Problem.model_validate(r.json()).detail.startswith("2 downloads are under way")
        slots.release()
        assert client.get("/api/v1/deals.csv").status_code == 200
        slots.release()
    finally:
        app.state.archive.close()


# -- The page cache ------------------------------------------------------------------------------------------

def test_the_page_cache_is_bounded_in_bytes(client: TestClient) -> None:
    with client.app.state.archive.reader() as archive:  # type: ignore[attr-defined]
        pages = [archive.deal_page(None, sort="id", limit=n).model_dump_json().encode() for n in (10, 20, 30, 40)]
        weights = [len(p) for p in pages]
        assert weights == sorted(weights)
        cache = PageCache(100, max_bytes=weights[2] + weights[3])
        for i, page in enumerate(pages):
            cache.put(("page", i), page, cache.generation)
        assert cache.bytes <= cache.max_bytes  # type: ignore[operator]
        assert cache.get(("page", 3)) is pages[3] and cache.get(("page", 2)) is pages[2]
        assert cache.get(("page", 0)) is None and cache.get(("page", 1)) is None  # the least recently used went first
        cache.put(("page", 1), pages[1], cache.generation)  # room for it: the least recently used (3) goes
        assert cache.get(("page", 3)) is None and cache.bytes == weights[1] + weights[2]
        huge = PageCache(100, max_bytes=weights[0] - 1)
        huge.put(("page", 0), pages[0], huge.generation)  # larger than the whole budget: not kept
        assert len(huge) == 0 and huge.bytes == 0
        cache.clear()
        assert len(cache) == 0 and cache.bytes == 0


def test_a_cached_search_answers_the_same_json(client: TestClient) -> None:
    """The cache keeps the page's JSON: a repeated search sends the same bytes, the search page reads the
    same page back from them."""
    service = client.app.state.service  # type: ignore[attr-defined]
    url = "/api/v1/deals?sort=-points&limit=7"
    first = client.get(url)
    hits = service.cache.hits
    again = client.get(url)
    assert service.cache.hits == hits + 1
    assert again.content == first.content and again.headers["content-type"] == "application/json"
    with client.app.state.archive.reader() as view:  # type: ignore[attr-defined]
        fresh = view.deal_page(SearchFilters(), sort="-points", limit=7)
        assert first.json() == fresh.model_dump(mode="json")
        assert service.cache.deal_page(view, SearchFilters(), sort="-points", limit=7) == fresh  # a hit, parsed


# -- Posted requests under a time limit --------------------------------------------------------------------

def test_posted_requests_past_the_time_limit_answer_504(db: Path, many_deals: str, tmp_path: Path) -> None:
    app = create_app(Settings(db=_copy(db, tmp_path), api_keys=frozenset({KEY}), request_timeout=0.01))
    service = app.state.service
    try:
        client = TestClient(app)
        before = service.archive.count()
        for path, params in (("/api/v1/validate", {}), ("/api/v1/convert", {"to": "jsonl"}), ("/api/v1/import", {})):
            start = time.monotonic()
            r = client.post(path, content=many_deals, params=params, headers={"X-API-Key": KEY})
            assert r.status_code == 504, (path, r.text)
            assert time.monotonic() - start < 2.0
            problem = Problem.model_validate(r.json())
            assert problem.title == "Took too long" and "ran over 0.01 s" in problem.detail
        assert service.write_lock.acquire(timeout=60)  # the import stops at its next record, before its commit
        service.write_lock.release()
        assert service.archive.count() == before
        service.settings.request_timeout = 600.0
        r = client.post("/api/v1/import", content=many_deals, headers={"X-API-Key": KEY})
        assert r.status_code == 200 and r.json()["added"] == 600 and service.archive.count() == before + 600
    finally:
        app.state.archive.close()


def test_a_deadline_never_stops_an_import_that_is_committing() -> None:
    deadline = Deadline(1.0)
    records, progress = deadline.watch_import(iter(["a", "b", "c"]))
    assert list(records) == ["a", "b", "c"]  # read to the end; the last piece is not inserted yet
    assert deadline.expire()  # so the bound may still stop it...
    with pytest.raises(LimitError):
        progress(3, 3)  # ...before its commit
    committing = Deadline(1.0)
    records, progress = committing.watch_import(iter(["a", "b"]))
    progress(0, 0)
    assert list(records) == ["a", "b"]
    progress(2, 2)  # every record read is inserted: the commit comes next
    assert not committing.expire()
    committing.check()  # and nothing stops it now


# -- Security headers ------------------------------------------------------------------------------------------

def _routes(routes: list[Any]) -> Iterator[APIRoute]:
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _routes(included.routes)


def test_every_answer_has_the_security_headers(client: TestClient, db: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    deal = client.get("/api/v1/deals", params={"limit": 1}).json()["items"][0]["id"]
    requests = [(method, route.path.replace("{deal_id}", str(deal)).replace("{name}", "torofun-4p")
                 .replace("{job_id}", "no-such-job").replace("{recording_id}", "no-such-recording").replace("{lang}", "es")
                 .replace("{match_id}", "SanJose2025-R3-M2").replace("{puzzle_id}", "no-such-puzzle")
                 .replace("{table_id}", "no-such-table"))
                for route in _routes(client.app.routes) for method in route.methods]  # type: ignore[attr-defined]
    assert len(requests) == 77
    requests += [("GET", "/docs"), ("GET", "/redoc"), ("GET", "/openapi.json"), ("GET", "/static/style.css"),
                 ("GET", "/nothing-here"), ("DELETE", "/api/v1/deals"), ("GET", "/api/v1/deals?limit=0")]
    seen = set()
    for method, path in requests:
        r = client.request(method, path, content="x" * (3 * 2**20) if path.endswith("validate") else "",
                           headers={"X-API-Key": KEY})
        seen.add(r.status_code)
        assert all(r.headers.get(h) for h in SECURITY), (method, path, r.status_code, r.headers)
        assert r.headers["x-request-id"], (method, path)  # every answer names its request
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
        csp = r.headers["content-security-policy"]
        assert "https:" not in csp and ("'unsafe-inline'" in csp) == path.startswith(("/docs", "/redoc")), path
    assert {200, 404, 405, 413, 422} <= seen
    monkeypatch.setattr(Archive, "players", lambda *a, **k: 1 / 0)
    crash = TestClient(client.app, raise_server_exceptions=False).get("/api/v1/players")  # type: ignore[arg-type]
    assert crash.status_code == 500 and all(crash.headers.get(h) for h in SECURITY)
    assert crash.headers["x-request-id"] == crash.json()["request_id"]  # answered outside every middleware


# -- Slow clients, against a real server -------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    served = _copy(db, tmp_path_factory.mktemp("served"))  # this process holds the other one open
    port = _free_port()
    env = {**os.environ, "TUTEPGN_HEADER_TIMEOUT": "1", "TUTEPGN_BODY_TIMEOUT": "1", "TUTEPGN_API_KEYS": ""}
    process = subprocess.Popen([sys.executable, "-m", "tutepgn.cli", "serve", "--db", str(served), "--read-only",
                                "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_healthy(f"http://127.0.0.1:{port}", process, 60, lambda: "tute serve did not start")
        yield "127.0.0.1", port
    finally:
        process.terminate()
        process.wait(timeout=30)


def _cut_after(sock: socket.socket, send: list[bytes], pause: float, limit: float = 10.0) -> float:
    """Send ``send`` a piece every ``pause`` seconds (then nothing); the seconds until the server closed."""
    start = time.monotonic()
    sock.settimeout(pause)
    pieces = iter(send)
    while time.monotonic() - start < limit:
        piece = next(pieces, None)
        try:
            if piece is not None:
                sock.sendall(piece)
            if sock.recv(4096) == b"":
                return time.monotonic() - start
            return time.monotonic() - start  # an answer (a 408) then the close
        except TimeoutError:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return time.monotonic() - start
    raise AssertionError(f"the connection was still open after {limit} s")


def test_slow_clients_are_cut(server: tuple[str, int]) -> None:
    headers = b"GET /api/v1/rules HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
    body = b"POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + b"x" * 10
    with socket.create_connection(server) as silent, socket.create_connection(server) as slowloris, \
            socket.create_connection(server) as dribble:
        assert _cut_after(silent, [], 0.2) < 5  # connected, never a byte
        assert _cut_after(slowloris, [headers[i:i + 1] for i in range(len(headers))], 0.1) < 5  # a byte at a time
        assert _cut_after(dribble, [body], 0.2) < 5  # headers, then not the whole body
    with socket.create_connection(server) as silent:
        silent.settimeout(5)
        assert silent.recv(4096).startswith(b"HTTP/1.1 408 ")
    r = httpx.get(f"http://{server[0]}:{server[1]}/api/v1/rules", timeout=10)  # a client in time is served
    assert r.status_code == 200 and r.headers["x-frame-options"] == "DENY"
