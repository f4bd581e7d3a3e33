"""The service's headers: a request id on every answer (kept from the client when well-formed, echoed in problems
and in the log lines), the headers CORS lets other origins read, gzip over a size (streamed answers too, never an
event stream), and the forms of a deal chosen by ``Accept``.

The request id's middleware sits outside the others, and the crash handler answers outside them all: what only
the order of middlewares (and uvicorn's logging) decides is tested on a real server in a process of its own,
started as ``tute serve`` starts it (``uvicorn.run`` with :func:`tutepgn.api.guards.uvicorn_options`).
"""

from __future__ import annotations

import ast
import gzip
import re
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from served import wait_until_healthy

with warnings.catch_warnings():  # starlette's TestClient asks for httpx2; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from threaded import states
from test_live_api import sample_start
from tutepgn.api.app import EXPOSED_HEADERS, GZIP_MIN_BYTES, Settings, create_app
from tutepgn.archive import Archive
from tutepgn.errors import Problem
from tutepgn.recording.simulate import deal_records
from tutepgn.rules import preset

ROOT = Path(__file__).resolve().parents[1]
API = "/api/v1"
KEY = "tk_headers_test"
ORIGIN = "https://club.example.org"
MAX_BODY = 4096
FRESH = re.compile(r"[0-9a-f]{32}")
"""A request id the service made (a UUID4 in hex)."""
SECURITY = ("content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples and 300 simulated 2-player deals: a page of 300 summaries is well over the gzip size."""
    db = tmp_path_factory.mktemp("headers") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources(sorted((ROOT / "samples").glob("*.tpgn")))
        archive.import_sources(["\n".join(r.tpgn() for r in deal_records(preset("playcard-2p"), 300, seed=36))])
    return db


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=db, api_keys=frozenset({KEY}), cors_origins=[ORIGIN], max_body_bytes=MAX_BODY,
                              max_page=500))
    yield TestClient(app, raise_server_exceptions=False)
    app.state.archive.close()


def a_deal(client: TestClient) -> int:
    return int(client.get(f"{API}/deals", params={"limit": 1}).json()["items"][0]["id"])


# -- The request id -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sent", ["3f2c0e9a-1b7d-4c55-9a57-1f0e2d3c4b5a", "0af3c9e1d2b44f5a8c7e6d5b4a392817",
                                  "nginx.17:req-42", "a"])
def test_a_well_formed_client_id_is_the_request_id(client: TestClient, sent: str) -> None:
    r = client.get(f"{API}/health", headers={"X-Request-ID": sent})
    assert r.headers["x-request-id"] == sent


@pytest.mark.parametrize("sent", ["two words", 'quote"d', "x" * 65, "a/b", "-leading-dash", "new\tline", ""])
def test_any_other_client_id_is_replaced_by_a_fresh_one(client: TestClient, sent: str) -> None:
    ids = [client.get(f"{API}/health", headers={"X-Request-ID": sent}).headers["x-request-id"] for _ in range(2)]
    assert all(FRESH.fullmatch(i) for i in ids) and ids[0] != ids[1], ids


def test_without_a_client_id_every_answer_gets_its_own(client: TestClient) -> None:
    ids = {client.get(path).headers["x-request-id"] for path in (f"{API}/health", f"{API}/rules", "/", f"{API}/x")}
    assert len(ids) == 4 and all(FRESH.fullmatch(i) for i in ids)


def test_every_problem_names_its_request(client: TestClient) -> None:
    answers = [client.get(f"{API}/deals/12345", headers={"X-Request-ID": "r404"}),
               client.get(f"{API}/deals", params={"limit": 0}, headers={"X-Request-ID": "r422"}),
               client.post(f"{API}/import", content="x", headers={"X-Request-ID": "r401"}),
               client.post(f"{API}/validate", content="x" * (MAX_BODY + 1), headers={"X-Request-ID": "r413"}),
               client.get(f"{API}/deals/1", headers={"X-Request-ID": "r406", "Accept": "image/png"})]
    for r, status in zip(answers, (404, 422, 401, 413, 406)):
        problem = Problem.model_validate(r.json())
        assert r.status_code == status and problem.request_id == r.headers["x-request-id"] == f"r{status}"
    page = client.get("/deals/12345", headers={"Accept": "text/html", "X-Request-ID": "page-404"})
    assert page.status_code == 404 and "page-404" in page.text  # the error page quotes it too


# -- CORS ------------------------------------------------------------------------------------------------------

SAFELISTED = {"cache-control", "content-language", "content-length", "content-type", "expires", "last-modified",
              "pragma"}
"""Response headers every script reads without CORS exposing them (the Fetch standard)."""
NOT_FOR_SCRIPTS = {"x-accel-buffering": "tells a proxy in front not to buffer the event stream",
                   "vary": "for caches", "set-cookie": "never readable by a script"}


def headers_sent_by_the_code() -> set[str]:
    """Every header name the service's code puts on an answer: keys of ``headers=`` dicts and of dicts assigned
    to ``headers``, and ``....headers["Name"] = ...`` stores (read from api/ by its syntax tree)."""
    names: set[str] = set()
    for path in (ROOT / "api").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            dicts = []
            if isinstance(node, ast.keyword) and node.arg == "headers":
                dicts.append(node.value)
            elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "headers"
                                                      for t in node.targets):
                dicts.append(node.value)
            elif (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Attribute) and node.value.attr == "headers"):
                names.add(ast.literal_eval(node.slice) if isinstance(node.slice, ast.Constant) else "?")
            for d in dicts:
                if isinstance(d, ast.Dict):
                    names.update(k.value for k in d.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
    return {n.lower() for n in names} - {"?"}


def test_cors_exposes_every_header_the_service_sends(client: TestClient) -> None:
    sent = headers_sent_by_the_code()
    assert {"x-total-count", "location", "retry-after", "content-disposition"} <= sent  # the walk finds them
    exposed = {h.lower() for h in EXPOSED_HEADERS}
    assert sent - SAFELISTED - set(NOT_FOR_SCRIPTS) <= exposed, sent - exposed
    r = client.get(f"{API}/deals.csv", params={"limit": 1}, headers={"Origin": ORIGIN})
    assert {h.strip().lower() for h in r.headers["access-control-expose-headers"].split(",")} == exposed
    preflight = client.options(f"{API}/recordings", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "X-API-Key, Content-Type, X-Request-ID"})
    assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] == ORIGIN
    put = client.options(f"{API}/events/x/rounds/1/tables/1/result",
                         headers={"Origin": ORIGIN, "Access-Control-Request-Method": "PUT"})
    assert put.status_code == 200  # the events' results are PUT
    refused = client.get(f"{API}/health", headers={"Origin": "https://elsewhere.example"})
    assert "access-control-allow-origin" not in refused.headers  # Starlette lists the exposed ones to any origin


# -- Accept ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("accept", "form"), [
    (None, "application/json"), ("*/*", "application/json"), ("application/*", "application/json"),
    ("application/json", "application/json"), ("application/x-tute-pgn", "application/x-tute-pgn"),
    ("text/plain", "text/plain"), ("text/*", "text/plain"),
    ("application/json;q=0.4, text/plain;q=0.5", "text/plain"),
    ("text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8", "application/json"),  # a browser's
    ("application/x-tute-pgn, application/json", "application/json"),  # a tie goes to the JSON
    ("*/*;q=0.1, application/x-tute-pgn;q=0.2", "application/x-tute-pgn"),
    ("application/json;q=0, */*", "application/x-tute-pgn"),
])
def test_a_deal_answers_the_form_accept_prefers(client: TestClient, accept: str | None, form: str) -> None:
    deal = a_deal(client)
    r = client.get(f"{API}/deals/{deal}", headers={"Accept": accept} if accept else {})
    assert r.status_code == 200 and r.headers["content-type"].split(";")[0] == form
    assert "accept" in {v.strip().lower() for h in r.headers.get_list("vary") for v in h.split(",")}
    if form == "application/json":
        assert int(r.json()["summary"]["id"]) == deal
    else:
        assert r.text == client.get(f"{API}/deals/{deal}.tpgn").text and r.text.startswith("[")


@pytest.mark.parametrize("accept", ["image/png", "application/json;q=0, text/*;q=0", "text/html",
                                    "application/xml, text/csv", "*/*;q=0"])
def test_a_deal_in_no_form_accept_takes_is_a_406_problem(client: TestClient, accept: str) -> None:
    r = client.get(f"{API}/deals/{a_deal(client)}", headers={"Accept": accept})
    assert r.status_code == 406 and r.headers["content-type"] == "application/problem+json"
    problem = Problem.model_validate(r.json())
    assert problem.title == "Not acceptable" and "application/x-tute-pgn" in problem.detail
    assert "Accept" in r.headers["vary"]


def test_an_unknown_deal_is_404_in_every_form(client: TestClient) -> None:
    for accept in ("application/json", "text/plain", "application/x-tute-pgn"):
        assert client.get(f"{API}/deals/12345", headers={"Accept": accept}).status_code == 404


# -- gzip ------------------------------------------------------------------------------------------------------

def test_a_large_page_goes_gzipped_and_a_small_answer_does_not(client: TestClient) -> None:
    plain = client.get(f"{API}/deals", params={"limit": 300}, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and int(plain.headers["content-length"]) == len(plain.content)
    with client.stream("GET", f"{API}/deals", params={"limit": 300}, headers={"Accept-Encoding": "gzip"}) as r:
        raw = b"".join(r.iter_raw())
        assert r.headers["content-encoding"] == "gzip" and "Accept-Encoding" in r.headers["vary"]
    assert gzip.decompress(raw) == plain.content and len(raw) * 5 < len(plain.content)
    small = client.get(f"{API}/health", headers={"Accept-Encoding": "gzip"})
    assert len(small.content) < GZIP_MIN_BYTES and "content-encoding" not in small.headers


def test_a_head_says_what_its_get_sends_without_a_body(client: TestClient) -> None:
    for path in (f"{API}/deals?limit=300", f"{API}/deals.ndjson"):
        head = client.head(path, headers={"Accept-Encoding": "gzip"})
        get = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-encoding"] == get.headers["content-encoding"] == "gzip"
        assert head.headers.get("x-total-count") == get.headers.get("x-total-count")


# -- A real server: the id through every middleware and into the log; gzip and the event stream on the wire ---

SERVE = """
import sys
from pathlib import Path

import uvicorn

from tutepgn.api.app import Settings, create_app
from tutepgn.api.guards import uvicorn_options
from tutepgn.archive import Archive


def crash(*args, **kwargs):
    raise RuntimeError("the crash the test asked for")


Archive.players = crash  # GET /api/v1/players: a 500
db, port, origin, key, most = sys.argv[1:]
settings = Settings(db=Path(db), cors_origins=[origin], api_keys=frozenset({key}), max_body_bytes=int(most))
uvicorn.run(create_app(settings), host="127.0.0.1", port=int(port), log_level="info", **uvicorn_options(settings))
"""
"""The service as ``tute serve`` runs it (``uvicorn.run`` with its options), with one route made to crash."""


@pytest.fixture(scope="module")
def server(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    work = tmp_path_factory.mktemp("served")
    served = work / "archive.duckdb"
    served.write_bytes(db.read_bytes())  # the module's client holds the other file open
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out, err = work / "access.log", work / "error.log"
    process = subprocess.Popen([sys.executable, "-c", SERVE, str(served), str(port), ORIGIN, KEY, str(MAX_BODY)],
                               stdout=out.open("wb"), stderr=err.open("wb"))
    url = f"http://127.0.0.1:{port}"
    wait_until_healthy(url, process, 60, err.read_text)
    try:
        yield {"url": url, "access": out, "error": err}
    finally:
        process.terminate()
        process.wait(timeout=30)


def logged(path: Path, *words: str) -> list[str]:
    """The lines of a log that say every one of ``words`` (waiting a little for the server to write them)."""
    deadline = time.monotonic() + 10
    while not (lines := [line for line in path.read_text(errors="replace").splitlines()
                         if all(w in line for w in words)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return lines


def test_a_real_server_sends_the_id_on_413_cors_refusal_and_500_and_logs_it(server: dict[str, Any]) -> None:
    url = server["url"]  # a connection each: uvicorn closes one after a crash
    too_big = httpx.post(f"{url}{API}/validate", content="x" * (MAX_BODY + 1), headers={"X-Request-ID": "too-big-1"})
    refused = httpx.options(f"{url}{API}/import", headers={"X-Request-ID": "cors-refused-1",
                                                          "Origin": "https://elsewhere.example",
                                                          "Access-Control-Request-Method": "POST"})
    crash = httpx.get(f"{url}{API}/players", headers={"X-Request-ID": "crash-1"})
    fresh = httpx.get(f"{url}{API}/deals/12345", headers={"X-Request-ID": 'forged" 200 -'})
    for answer, status, rid in ((too_big, 413, "too-big-1"), (refused, 400, "cors-refused-1"), (crash, 500, "crash-1")):
        assert answer.status_code == status and answer.headers["x-request-id"] == rid, answer.headers
        assert all(answer.headers.get(h) for h in SECURITY)
        if status != 400:  # the CORS refusal is Starlette's own plain text
            assert Problem.model_validate(answer.json()).request_id == rid
        assert len(logged(server["access"], f"[{rid}]", f" {status}")) == 1  # the access line
    assert "the crash the test asked for" not in crash.text
    failed = logged(server["error"], "[crash-1]", "Exception in ASGI application")
    assert len(failed) == 1  # the traceback's first line names the request
    made = fresh.headers["x-request-id"]
    assert FRESH.fullmatch(made) and fresh.json()["request_id"] == made
    assert logged(server["access"], f"[{made}]", "GET /api/v1/deals/12345", " 404")
    assert not logged(server["access"], "forged")  # a client's text never reaches the log as an id
    assert logged(server["error"], "Generated new request ID", made)


def test_a_real_server_gzips_a_streamed_download_piece_by_piece(server: dict[str, Any]) -> None:
    with httpx.Client(base_url=server["url"], timeout=30) as http:
        plain = http.get(f"{API}/deals.ndjson", headers={"Accept-Encoding": "identity"})
        with http.stream("GET", f"{API}/deals.ndjson", headers={"Accept-Encoding": "gzip"}) as r:
            raw = b"".join(r.iter_raw())
            assert r.headers["content-encoding"] == "gzip" and r.headers["transfer-encoding"] == "chunked"
            assert r.headers["x-total-count"] == plain.headers["x-total-count"]
    lines = gzip.decompress(raw).decode().splitlines()
    assert lines == plain.text.splitlines() and len(lines) == int(plain.headers["x-total-count"])
    assert len(raw) * 4 < len(plain.content)


def test_a_real_server_never_gzips_the_live_event_stream(server: dict[str, Any]) -> None:
    write = {"X-API-Key": KEY}
    start, entries = sample_start()
    with httpx.Client(base_url=server["url"], timeout=10) as http:
        rid = http.post(f"{API}/recordings", json=start, headers=write).json()["id"]
        with http.stream("GET", f"{API}/recordings/{rid}/events", headers={"Accept-Encoding": "gzip"}) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            assert "content-encoding" not in stream.headers
            seen = states(stream.iter_lines())
            assert next(seen)["entries"] == 0
            for n, text in enumerate(entries[:2], 1):  # each change arrives while the stream stays open
                assert http.post(f"{API}/recordings/{rid}/entries", json={"entry": text},
                                 headers=write).status_code == 200
                assert next(seen)["entries"] == n

