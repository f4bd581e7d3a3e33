"""The HTTP service (api/) end to end, with FastAPI's TestClient over a real DuckDB archive.

One archive is built per module: every sample record plus 200 simulated deals
(40 per preset).  Copies of the file serve the read-only app and the apps
that are made to fail (a DuckDB file is opened once per process).
"""

from __future__ import annotations

import asyncio
import base64
import csv
import io
import json
import logging
import os
import shutil
import threading
import warnings
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio.to_thread
import duckdb
import httpx
import pytest

with warnings.catch_warnings():  # starlette's TestClient asks for httpx2; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app

from tutepgn.archive import CSV_COLUMNS, Archive, SearchFilters, encode_cursor
from tutepgn.errors import ErrorItem
from tutepgn.notation import iter_raw_records
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import deal_records

ROOT = Path(__file__).resolve().parent.parent
KEY = "tk_live_9f2c1e7b44d0a8s3cr3t"
OTHER_KEY = "tk_live_0000wrongwrongwrong"
ORIGIN = "https://tute.example.org"
MAX_BODY = 64 * 1024
PROBLEM_KEYS = {"type", "title", "status", "detail", "instance", "errors", "request_id"}
API = "/api/v1"


def _simulated() -> list[str]:
    return [r.tpgn() for i, name in enumerate(PRESETS) for r in deal_records(preset(name), 40, seed=100 + i)]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The archive file (samples + 200 simulated deals) and two copies of it."""
    base = tmp_path_factory.mktemp("api")
    db = base / "archive.duckdb"
    simulated = _simulated()
    with Archive(db) as archive:
        archive.import_sources(sorted((ROOT / "samples").rglob("*.tpgn")))
        archive.import_sources([io.StringIO("\n".join(simulated))])
        total = archive.count()
    copies = {}
    for name in ("readonly", "spare"):
        (base / name).mkdir()
        copies[name] = base / name / "archive.duckdb"
        shutil.copy(db, copies[name])
    return {"db": db, "simulated": simulated, "total": total, **copies}


@pytest.fixture(scope="module")
def app(files: dict[str, Any]) -> Iterator[Any]:
    app = create_app(Settings(db=files["db"], api_keys=frozenset({KEY}), cors_origins=[ORIGIN],
                              max_body_bytes=MAX_BODY, max_page=200))
    yield app
    app.state.archive.close()


@pytest.fixture(scope="module")
def client(app: Any) -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture(scope="module")
def ro_client(files: dict[str, Any]) -> Iterator[TestClient]:
    app = create_app(Settings(db=files["readonly"], read_only=True, api_keys=frozenset({KEY})))
    yield TestClient(app, raise_server_exceptions=False)
    app.state.archive.close()


@pytest.fixture()
def spare_app(files: dict[str, Any]) -> Iterator[Any]:
    """An app on the spare copy with a short time limit, for tests that break things."""
    app = create_app(Settings(db=files["spare"], api_keys=frozenset({KEY}), query_timeout=0.3))
    yield app
    app.state.archive.close()


def _library(app: Any, filters: SearchFilters | None = None, sort: str = "date") -> list[int]:
    """Ids of every matching deal straight from the library, unpaginated."""
    view = app.state.archive.reader()
    try:
        return [r["id"] for r in view.search(filters, sort=sort, limit=None, columns=("id",))]
    finally:
        view.close()


def _walk(client: TestClient, params: dict[str, Any], limit: int) -> tuple[list[dict[str, Any]], int]:
    """Every item of a search, page by page through `next`; and the number of pages."""
    items: list[dict[str, Any]] = []
    cursor = None
    pages = 0
    while True:
        r = client.get(f"{API}/deals", params={**params, "limit": limit, **({"cursor": cursor} if cursor else {})})
        assert r.status_code == 200, r.text
        body = r.json()
        assert set(body) == {"items", "next", "previous", "emptied"}
        assert len(body["items"]) <= limit
        items += body["items"]
        pages += 1
        cursor = body["next"]
        if cursor is None:
            return items, pages
        assert len(body["items"]) == limit
        assert pages < 1000


def _assert_problem(r: Any, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json"), r.headers
    body = r.json()
    assert set(body) == PROBLEM_KEYS, body
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert isinstance(body["errors"], list)
    assert body["type"] == "about:blank"
    for leak in ("Traceback", 'File "', "duckdb", ".py", "Error:"):
        assert leak not in r.text, (leak, r.text)
    return body


# -- Search ---------------------------------------------------------------------------

@pytest.mark.parametrize("params, check", [
    ({"player": "Ana"}, lambda d: any("ana" in n.lower().split() for n in d["seats"].values())),
    ({"player": "Ana", "seat": "S"}, lambda d: "ana" in d["seats"]["S"].lower().split()),
    ({"trump": "o"}, lambda d: d["trump"] == "O"),
    ({"rules": "torofun-3p"}, lambda d: d["rules"].startswith("torofun-3p") and set(d["seats"]) == {"N", "W", "E"}),
    ({"event": "simulated"}, lambda d: "Simulated" in d["event"]),
    ({"since": "2026-01-01", "until": "2026-06-30"}, lambda d: "2026.01.01" <= d["date"] <= "2026.06.30"),
    ({"min_points": 100}, lambda d: max(d["score"]) >= 100),
    ({"valid": "true", "rules": "playcard-2p"}, lambda d: d["valid"] and d["rules"].startswith("playcard-2p")),
])
def test_search_filters_match_the_library(app: Any, client: TestClient, params: dict[str, Any], check: Any) -> None:
    r = client.get(f"{API}/deals", params={**params, "limit": 200})
    assert r.status_code == 200, r.text
    items = r.json()["items"]
    assert items, params
    assert all(check(d) for d in items), params
    assert [int(d["id"]) for d in items] == _library(app, SearchFilters(**params))[:200]


def test_search_with_repeated_held_and_cante_filters(app: Any, client: TestClient) -> None:
    params = [("held", "N:1O"), ("held", "S:3O"), ("cante", "any")]
    r = client.get(f"{API}/deals", params=params + [("limit", "200")])
    assert r.status_code == 200, r.text
    ids = [int(d["id"]) for d in r.json()["items"]]
    assert ids == _library(app, SearchFilters(held=["N:1O", "S:3O"], cante="any"))[:200]
    assert ids


@pytest.mark.parametrize("sort", ["date", "-points", "margin", "id"])
def test_keyset_pagination_walks_every_deal_once(app: Any, client: TestClient, files: dict[str, Any],
                                                 sort: str) -> None:
    items, pages = _walk(client, {"sort": sort}, limit=37)
    ids = [int(d["id"]) for d in items]
    assert len(ids) == len(set(ids)) >= files["total"]
    assert pages == -(-len(ids) // 37)
    assert ids == _library(app, sort=sort)
    # the same order as the unpaginated stream
    stream = client.get(f"{API}/deals.ndjson", params={"sort": sort})
    assert [int(json.loads(line)["id"]) for line in stream.text.splitlines()] == ids


def test_pagination_with_filters_and_page_sizes(app: Any, client: TestClient) -> None:
    params = {"trump": "E", "sort": "-date"}
    whole = client.get(f"{API}/deals", params={**params, "limit": 200}).json()
    assert whole["next"] is None
    for limit in (1, 7, 50):
        items, _ = _walk(client, params, limit)
        assert items == whole["items"]
    assert [int(d["id"]) for d in whole["items"]] == _library(app, SearchFilters(trump="E"), sort="-date")


def test_search_refuses_a_page_over_the_cap(client: TestClient) -> None:
    body = _assert_problem(client.get(f"{API}/deals", params={"limit": 201}), 422)
    assert body["errors"] == [ErrorItem(text="query.limit", message=body["errors"][0]["message"]).model_dump()]
    assert "200" in body["detail"]
    _assert_problem(client.get(f"{API}/deals", params={"limit": 0}), 422)
    assert client.get(f"{API}/deals", params={"limit": 200}).status_code == 200


@pytest.mark.parametrize("cursor, sort", [
    ("not-a-cursor", "date"),
    ("!!!", "date"),
    (base64.urlsafe_b64encode(b'{"a": 1}').decode(), "date"),
    (encode_cursor("nosuchsort", 1, 2), "date"),
    (encode_cursor("date", "yesterday", 5), "date"),
    (encode_cursor("date", "2025-1-1", 5), "date"),
    (encode_cursor("date", 20250101, 5), "date"),
    (encode_cursor("points", "lots", 5), "points"),
    (encode_cursor("points", 10**30, 5), "points"),
    (encode_cursor("points", True, 5), "points"),
    (encode_cursor("id", 1, 10**30), "id"),
    (encode_cursor("-points", 50, 5), "points"),  # a cursor of another sort order
])
def test_search_refuses_a_forged_cursor(client: TestClient, cursor: str, sort: str) -> None:
    body = _assert_problem(client.get(f"{API}/deals", params={"cursor": cursor, "sort": sort}), 422)
    assert "cursor" in body["detail"]
    assert client.get("/", params={"cursor": cursor, "sort": sort}).status_code == 200  # the page says so


@pytest.mark.parametrize("params, location", [
    ({"trump": "X"}, "query.trump"),
    ({"seat": "Q", "player": "Ana"}, "query.seat"),
    ({"since": "yesterday"}, "query.since"),
    ({"min_points": "many"}, "query.min_points"),
    ({"held": "S:99Z"}, "query.held"),
    ({"tute_rank": "13"}, "query.tute_rank"),
    ({"sort": "height"}, "query.sort"),
])
def test_search_refuses_bad_filters_with_located_errors(client: TestClient, params: dict[str, str],
                                                        location: str) -> None:
    body = _assert_problem(client.get(f"{API}/deals", params=params), 422)
    assert [e["text"] for e in body["errors"]] == [location]  # the parameter at fault


def test_search_refuses_filters_that_need_another(client: TestClient) -> None:
    body = _assert_problem(client.get(f"{API}/deals", params={"partner": "Ana"}), 422)
    assert "partner needs player" in body["detail"]


# -- Streams ----------------------------------------------------------------------------

def test_ndjson_stream(app: Any, client: TestClient) -> None:
    r = client.get(f"{API}/deals.ndjson", params={"rules": "torofun-4p"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/x-ndjson")
    rows = [json.loads(line) for line in r.text.splitlines()]
    assert [int(d["id"]) for d in rows] == _library(app, SearchFilters(rules="torofun-4p"))
    page = client.get(f"{API}/deals", params={"rules": "torofun-4p", "limit": 200}).json()["items"]
    assert rows == page


def test_csv_stream(app: Any, client: TestClient) -> None:
    r = client.get(f"{API}/deals.csv", params={"trump": "B", "sort": "id"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(r.text)))
    assert table[0] == list(CSV_COLUMNS)  # the columns of `tute export --format csv`, and its very bytes
    assert [int(row[0]) for row in table[1:]] == _library(app, SearchFilters(trump="B"), sort="id")
    assert {row[CSV_COLUMNS.index("trump")] for row in table[1:]} == {"B"}
    exported = io.StringIO()
    view = app.state.archive.reader()
    try:
        view.export(SearchFilters(trump="B"), "csv", exported, sort="id")
    finally:
        view.close()
    assert r.text == exported.getvalue()


def test_tpgn_stream_is_the_stored_texts(app: Any, client: TestClient, files: dict[str, Any]) -> None:
    r = client.get(f"{API}/deals.tpgn", params={"event": "Simulated deals", "site": "simulator"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    view = app.state.archive.reader()
    try:
        stored = list(view.texts(SearchFilters(event="Simulated deals", site="simulator")))
    finally:
        view.close()
    assert r.text == "\n".join(stored)
    texts = [text.rstrip("\n") + "\n" for *_, text in iter_raw_records([io.StringIO(r.text)])]
    assert texts == stored
    assert set(files["simulated"]) <= set(texts)


def test_streams_refuse_bad_filters(client: TestClient) -> None:
    for kind in ("ndjson", "csv", "tpgn"):
        _assert_problem(client.get(f"{API}/deals.{kind}", params={"trump": "Z"}), 422)
        _assert_problem(client.get(f"{API}/deals.{kind}", params={"sort": "nope"}), 422)


# -- One deal ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def one(client: TestClient) -> dict[str, Any]:
    return client.get(f"{API}/deals", params={"rules": "ludoteka-pairs", "valid": "true", "limit": 1}
                      ).json()["items"][0]


def test_one_deal_as_json(app: Any, client: TestClient, one: dict[str, Any]) -> None:
    r = client.get(f"{API}/deals/{one['id']}")
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"summary", "state", "record", "errors", "text", "links"}
    assert body["summary"] == one
    assert body["state"] == "valid" and body["errors"] == [] and body["text"] is None
    record = body["record"]
    assert record["tags"]["Rules"].startswith("ludoteka-pairs")
    assert record["tags"]["North"] == one["seats"]["N"]
    assert record["events"]
    assert body["links"] == {"tpgn": f"{API}/deals/{one['id']}.tpgn", "sheet": f"{API}/deals/{one['id']}/sheet",
                             "page": f"/deals/{one['id']}"}


def test_one_deal_as_tpgn_is_the_stored_text(app: Any, client: TestClient, one: dict[str, Any]) -> None:
    r = client.get(f"{API}/deals/{one['id']}.tpgn")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    assert f'filename="{one["id"]}.tpgn"' in r.headers["content-disposition"]
    assert r.text == app.state.archive.reader().text(int(one["id"]))
    # and the links of the JSON form lead there
    assert client.get(client.get(f"{API}/deals/{one['id']}").json()["links"]["tpgn"]).text == r.text


def test_one_deal_sheet(client: TestClient, one: dict[str, Any]) -> None:
    r = client.get(f"{API}/deals/{one['id']}/sheet")
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["valid"] is True
    assert report["computed_score"] == one["score"]
    assert report["computed_result"] == one["result"]
    assert report["sides"] == one["sides"]
    assert report["sheet"]["tricks"]


@pytest.mark.parametrize("path", ["/deals/1", "/deals/1.tpgn", "/deals/1/sheet"])
def test_unknown_deal_is_a_404_problem(client: TestClient, path: str) -> None:
    body = _assert_problem(client.get(API + path), 404)
    assert body["detail"] == "no deal 1 in the archive"
    assert body["instance"] == API + path


def test_deal_ids_that_are_not_numbers_or_too_big(client: TestClient) -> None:
    body = _assert_problem(client.get(f"{API}/deals/abc"), 422)
    assert body["errors"][0]["text"] == "path.deal_id"
    _assert_problem(client.get(f"{API}/deals/{2**70}"), 404)
    _assert_problem(client.get(f"{API}/deals/-1"), 404)


# -- Validate ---------------------------------------------------------------------------

GOOD = (ROOT / "samples" / "tie-decided-by-last-trick.tpgn").read_text(encoding="utf-8")


def test_validate_a_good_record(client: TestClient) -> None:
    r = client.post(f"{API}/validate", content=GOOD, headers={"Content-Type": "text/plain"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["summary"]["records"] == 1 and body["summary"]["valid"] == 1 and body["summary"]["invalid"] == 0
    (report,) = body["reports"]
    assert report["valid"] is True and report["findings"] == [] and report["parse_errors"] == []
    assert report["computed_score"] == [75, 75] and report["score_ok"] is True
    assert report["computed_result"] == "NS+1"
    assert report["sheet"]["tricks"] and len(report["sheet"]["tricks"]) == 10


def test_validate_several_records_and_an_invalid_one(client: TestClient) -> None:
    tampered = GOOD.replace('[Score "NS:75 WE:75"]', '[Score "NS:80 WE:70"]')
    assert tampered != GOOD
    r = client.post(f"{API}/validate", content=GOOD + "\n" + tampered)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["summary"]["records"] == 2 and body["summary"]["invalid"] == 1
    assert body["summary"]["score_mismatches"] == 1
    first, second = body["reports"]
    assert first["valid"] and not second["valid"]
    assert second["score_ok"] is False
    assert "score_mismatch" in {f["code"] for f in second["findings"]}
    assert second["line"] == GOOD.count("\n") + 2


def test_validate_reports_each_record_on_its_own(client: TestClient) -> None:
    """Issue 16: one syntax error gave a 422 and no report for the other records, and only its first error.
    Now a record with syntax errors gets its report with every error located, the others their full report."""
    lines = GOOD.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("3. "))
    lines[at] = lines[at].replace("3. ", "3. Q ", 1)  # an error the reader cannot read past
    bad = "\n".join(lines) + "\n"
    at4 = next(i for i, line in enumerate(lines) if line.startswith("4. "))
    cards = lines[at4].split()
    typos = GOOD.splitlines()
    typos[at] = typos[at].replace(typos[at].split()[2], "13O", 1)
    typos[at4] = typos[at4].replace(cards[3], "1Z", 1)
    two = "\n".join(typos) + "\n"
    r = client.post(f"{API}/validate", content=GOOD + "\n" + bad + "\n" + two)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["summary"]["records"] == 3 and body["summary"]["valid"] == 1 and body["summary"]["invalid"] == 2
    good, first, second = body["reports"]
    assert good["valid"] and good["sheet"] and good["parse_errors"] == []
    offset = GOOD.count("\n") + 1
    (error,) = first["parse_errors"]
    assert (error["line"], error["column"]) == (offset + at + 1, 4) and error["message"]
    assert [(f["code"], f["line"]) for f in first["findings"] if f["severity"] == "error"] == [
        ("syntax", offset + at + 1)]
    offset += bad.count("\n") + 1
    assert [(e["line"], e["column"], e["text"]) for e in second["parse_errors"]] == [
        (offset + at + 1, 4 + len(typos[at].split()[1]) + 1, "13O"),
        (offset + at4 + 1, lines[at4].index(cards[3]) + 1, "1Z")]
    assert all("is not a card of the Spanish pack" in e["message"] for e in second["parse_errors"])


@pytest.mark.parametrize("body, detail", [
    (b"", "no record found"),
    (b"   \n\n", "no record found"),
    (b"\xff\xfe\x00garbage", "UTF-8"),
])
def test_validate_refuses_empty_and_non_utf8_bodies(client: TestClient, body: bytes, detail: str) -> None:
    assert detail in _assert_problem(client.post(f"{API}/validate", content=body), 422)["detail"]


def test_posted_text_is_never_taken_for_a_server_path(client: TestClient, tmp_path: Path) -> None:
    """A body that names a file on the server is text like any other, never read from disk."""
    secret = tmp_path / "secret.tpgn"
    secret.write_text(GOOD.replace("Torneo", "SECRETO"), encoding="utf-8")
    for url in (f"{API}/validate", f"{API}/convert", f"{API}/convert?to=tpgn"):
        for body in (str(secret), "/etc/passwd", "nonexistent"):
            r = client.post(url, content=body)
            if "validate" in url:  # read as a record's text: a record with a syntax error at its first line
                assert r.status_code == 200 and r.json()["reports"][0]["parse_errors"][0]["line"] == 1, r.text
            else:
                _assert_problem(r, 422)
            assert "SECRETO" not in r.text and "root:" not in r.text


# -- Convert ----------------------------------------------------------------------------

def test_convert_to_json_and_jsonl(client: TestClient) -> None:
    two = GOOD + "\n" + (ROOT / "samples" / "torofun-3p.tpgn").read_text(encoding="utf-8")
    r = client.post(f"{API}/convert", params={"to": "json"}, content=two)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    records = r.json()
    assert [rec["tags"]["Rules"] for rec in records] == ["ludoteka-pairs", "torofun-3p"]
    assert records[0]["cards"] == "es"
    r = client.post(f"{API}/convert", params={"to": "jsonl", "cards": "en"}, content=two)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in r.text.splitlines()]
    assert [rec["cards"] for rec in lines] == ["en", "en"]
    # and back: JSON in, the original Tute PGN out
    back = client.post(f"{API}/convert", params={"to": "tpgn"}, content=r.text)
    assert back.status_code == 200, back.text
    assert back.text == two


@pytest.mark.parametrize("cards", ["it", "fr", "es-letters"])
def test_convert_card_styles_round_trip(client: TestClient, cards: str) -> None:
    r = client.post(f"{API}/convert", params={"to": "tpgn", "cards": cards}, content=GOOD)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    assert f'[Cards "{cards}"]' in r.text and r.text != GOOD
    back = client.post(f"{API}/convert", params={"to": "tpgn", "cards": "es"}, content=r.text)
    assert back.text == GOOD


def test_convert_refusals(client: TestClient) -> None:
    body = _assert_problem(client.post(f"{API}/convert", params={"to": "tpgn", "cards": "names"}, content=GOOD), 422)
    assert "names" in body["detail"] and "spaces" in body["detail"]
    assert client.post(f"{API}/convert", params={"to": "json", "cards": "names"}, content=GOOD).status_code == 200
    body = _assert_problem(client.post(f"{API}/convert", params={"to": "pdf"}, content=GOOD), 422)
    assert body["errors"][0]["text"] == "query.to"
    body = _assert_problem(client.post(f"{API}/convert", params={"cards": "klingon"}, content=GOOD), 422)
    assert body["errors"][0]["text"] == "query.cards"
    body = _assert_problem(client.post(f"{API}/convert", content="[Event \"x\"]\n1. N 1O\n"), 422)
    assert body["errors"] and {"line", "column", "message"} <= set(body["errors"][0])


# -- Import -----------------------------------------------------------------------------

NEW_DEAL = next(iter(deal_records(preset("torofun-2p"), 1, seed=777))).tpgn().replace(
    '[Event "Simulated deals"]', '[Event "Posted through the API"]')


def test_import_needs_a_key(client: TestClient) -> None:
    r = client.post(f"{API}/import", content=NEW_DEAL)
    _assert_problem(r, 401)
    assert r.headers["www-authenticate"] == "X-API-Key"
    r = client.post(f"{API}/import", content=NEW_DEAL, headers={"X-API-Key": OTHER_KEY})
    _assert_problem(r, 403)
    assert OTHER_KEY not in r.text
    assert client.get(f"{API}/deals", params={"event": "Posted through"}).json()["items"] == []


def test_import_with_the_key_then_search(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    cache = client.app.state.service.cache  # type: ignore[attr-defined]
    assert client.get(f"{API}/deals", params={"event": "Posted through"}).json()["items"] == []
    hits = cache.hits
    # Asked again without gzip, so that the kept answer (api/caching.py, keyed by the encoding too) is passed by
    # and the route reads the page cache.
    identity = {"Accept-Encoding": "identity"}
    assert client.get(f"{API}/deals", params={"event": "Posted through"}, headers=identity).json()["items"] == []
    assert cache.hits == hits + 1  # the empty page is cached now: the import must clear it, and the kept answers go
    r = client.post(f"{API}/import", content=NEW_DEAL, headers={"X-API-Key": KEY})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["records"] == 1 and body["added"] == 1 and body["invalid"] == 0
    found = client.get(f"{API}/deals", params={"event": "Posted through"}).json()["items"]
    assert len(found) == 1 and found[0]["rules"] == "torofun-2p"
    assert client.get(f"{API}/deals/{found[0]['id']}.tpgn").text == NEW_DEAL
    again = client.post(f"{API}/import", content=NEW_DEAL, headers={"X-API-Key": KEY})
    assert again.json()["records"] == 1 and again.json()["added"] == 0
    for response in (r, again):
        assert KEY not in response.text and KEY not in str(response.headers)
    assert KEY not in caplog.text
    assert all(KEY not in str(rec.__dict__) for rec in caplog.records)


def test_read_only_service(ro_client: TestClient, files: dict[str, Any]) -> None:
    r = ro_client.post(f"{API}/import", content=NEW_DEAL, headers={"X-API-Key": KEY})
    body = _assert_problem(r, 405)
    assert "read-only" in body["detail"]
    _assert_problem(ro_client.post(f"{API}/import", content=NEW_DEAL), 401)
    assert len(_walk(ro_client, {}, 500)[0]) == files["total"]
    assert ro_client.post(f"{API}/validate", content=GOOD).status_code == 200


# -- Body limit ---------------------------------------------------------------------------

def test_oversized_body_with_content_length(client: TestClient) -> None:
    big = (GOOD + "\n") * (MAX_BODY // len(GOOD) + 1)
    assert len(big.encode()) > MAX_BODY
    r = client.post(f"{API}/validate", content=big)
    body = _assert_problem(r, 413)
    assert f"{MAX_BODY:,}" in body["detail"]
    _assert_problem(client.post(f"{API}/import", content=big, headers={"X-API-Key": KEY}), 413)
    _assert_problem(client.post(f"{API}/convert", content=big), 413)


def test_oversized_body_streamed_in_chunks(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BODY // 4096 + 2):
            yield b"x" * 4096

    r = client.post(f"{API}/validate", content=chunks())
    assert "content-length" not in r.request.headers and r.request.headers["transfer-encoding"] == "chunked"
    _assert_problem(r, 413)

    def small() -> Iterator[bytes]:
        yield GOOD.encode()[:100]
        yield GOOD.encode()[100:]

    assert client.post(f"{API}/validate", content=small()).status_code == 200


# -- Archive, rules -------------------------------------------------------------------------

def test_stats(client: TestClient) -> None:
    r = client.get(f"{API}/stats")
    assert r.status_code == 200
    body = r.json()
    assert {"totals", "players", "rulesets", "trumps", "points", "cuarenta_sung", "cuarenta_dealt", "mano"} <= set(body)
    assert body["totals"]["deals"] >= 400
    assert {row["preset"] for row in body["rulesets"]} == set(PRESETS)
    only = client.get(f"{API}/stats", params={"rules": "torofun-3p"}).json()
    assert [row["preset"] for row in only["rulesets"]] == ["torofun-3p"]
    _assert_problem(client.get(f"{API}/stats", params={"trump": "Q"}), 422)


def test_players(client: TestClient) -> None:
    r = client.get(f"{API}/players", params={"limit": 5})
    assert r.status_code == 200
    rows = r.json()
    assert len(rows) == 5
    assert all(set(row) == {"name", "deals", "wins"} and 0 <= row["wins"] <= row["deals"] for row in rows)
    assert [row["deals"] for row in rows] == sorted((row["deals"] for row in rows), reverse=True)
    _assert_problem(client.get(f"{API}/players", params={"limit": 10_000}), 422)


def test_rules(client: TestClient) -> None:
    r = client.get(f"{API}/rules")
    assert r.status_code == 200
    presets = r.json()
    assert [p["name"] for p in presets] == list(PRESETS)
    for p in presets:
        assert p["options"]["preset"] == p["name"]
        assert p["sources"] and set(p["sources"]) <= set(p["options"])
    one = client.get(f"{API}/rules/torofun-3p").json()
    assert one == next(p for p in presets if p["name"] == "torofun-3p")
    assert one["options"]["players"] == 3
    body = _assert_problem(client.get(f"{API}/rules/nope"), 404)
    assert "torofun-3p" in body["detail"]


# -- Pages -----------------------------------------------------------------------------------

def test_pages(client: TestClient, one: dict[str, Any]) -> None:
    for path in ("/", "/?player=Ana&trump=O", f"/deals/{one['id']}", "/validate", "/?trump=Q",
                 "/?cursor=forged", "/?sort=nonsense"):
        r = client.get(path)
        assert r.status_code == 200, (path, r.text[:300])
        assert r.headers["content-type"].startswith("text/html")
        assert "<html" in r.text.lower()
    assert one["seats"]["N"] in client.get(f"/deals/{one['id']}").text
    _assert_problem(client.get("/deals/1"), 404)
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/openapi.json").status_code == 200


# -- One error shape ----------------------------------------------------------------------------

def test_every_error_has_one_shape(client: TestClient, ro_client: TestClient, spare_app: Any,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(self: Archive, filters: SearchFilters | None = None) -> Any:
        return self.con.execute("SELECT sum(a.range * b.range) FROM range(1000000) a, range(1000000) b").fetchall()

    def crash(self: Archive, filters: SearchFilters | None = None) -> Any:
        raise RuntimeError("internal secret: /srv/tute/archive.duckdb")

    spare = TestClient(spare_app, raise_server_exceptions=False)
    seen: dict[int, dict[str, Any]] = {}

    def check(r: Any, status: int) -> None:
        seen.setdefault(status, _assert_problem(r, status))

    check(client.post(f"{API}/import", content=GOOD), 401)
    check(client.post(f"{API}/import", content=GOOD, headers={"X-API-Key": OTHER_KEY}), 403)
    check(client.get(f"{API}/deals/12345"), 404)
    check(client.get(f"{API}/no/such/route"), 404)
    check(ro_client.post(f"{API}/import", content=GOOD, headers={"X-API-Key": KEY}), 405)
    wrong_method = client.delete(f"{API}/deals")
    check(wrong_method, 405)
    assert wrong_method.headers["allow"] == "GET"
    check(client.post(f"{API}/validate", content=b"x" * (MAX_BODY + 1)), 413)
    check(client.get(f"{API}/deals", params={"limit": 10**6}), 422)
    check(client.post(f"{API}/validate", content="\n\n"), 422)
    monkeypatch.setattr(Archive, "stats", slow)
    r = spare.get(f"{API}/stats")
    check(r, 504)
    assert "0.3 s" in r.json()["detail"]
    monkeypatch.setattr(Archive, "stats", crash)
    r = spare.get(f"{API}/stats")
    check(r, 500)
    assert "secret" not in r.text and "RuntimeError" not in r.text
    assert set(seen) == {401, 403, 404, 405, 413, 422, 500, 504}
    titles = {status: body["title"] for status, body in seen.items()}
    assert len(set(titles.values())) == len(titles), titles
    # after a stopped query, the service answers again
    monkeypatch.undo()
    assert spare.get(f"{API}/stats").status_code == 200


# -- Keys, CORS, DuckDB ---------------------------------------------------------------------------

def test_keys_never_leak(client: TestClient, app: Any) -> None:
    for r in (client.get("/openapi.json"), client.get("/docs"), client.get("/"), client.get(f"{API}/stats")):
        assert KEY not in r.text and KEY not in str(r.headers)
    assert "x-api-key" in client.get("/openapi.json").text.lower()  # the header is documented, no key is


def test_cors_only_for_configured_origins(client: TestClient, ro_client: TestClient) -> None:
    r = client.get(f"{API}/rules", headers={"Origin": ORIGIN})
    assert r.headers["access-control-allow-origin"] == ORIGIN
    r = client.options(f"{API}/import", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
                                                 "Access-Control-Request-Headers": "X-API-Key, Content-Type"})
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] == ORIGIN
    assert "POST" in r.headers["access-control-allow-methods"]
    assert "x-api-key" in r.headers["access-control-allow-headers"].lower()
    assert "access-control-allow-credentials" not in r.headers
    for other in ("https://evil.example", "null", ORIGIN + ".evil.example", "http://tute.example.org"):
        r = client.get(f"{API}/rules", headers={"Origin": other})
        assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
        r = client.options(f"{API}/import", headers={"Origin": other, "Access-Control-Request-Method": "POST"})
        assert "access-control-allow-origin" not in r.headers
    r = ro_client.get(f"{API}/rules", headers={"Origin": ORIGIN})  # no origins configured: none allowed
    assert "access-control-allow-origin" not in r.headers
    # error responses carry it for allowed origins too (the browser would hide them otherwise)
    r = client.get(f"{API}/deals/1", headers={"Origin": ORIGIN})
    assert r.status_code == 404 and r.headers["access-control-allow-origin"] == ORIGIN


def test_duckdb_connection_is_locked_down(app: Any) -> None:
    for con in (app.state.archive.con, app.state.archive.reader().con):
        assert con.execute("SELECT current_setting('enable_external_access')").fetchone() == (False,)
        assert con.execute("SELECT current_setting('lock_configuration')").fetchone() == (True,)
        with pytest.raises(duckdb.Error):
            con.execute("SET enable_external_access = true")
        with pytest.raises(duckdb.Error):
            con.execute("SET lock_configuration = false")
        with pytest.raises(duckdb.Error):
            con.execute("SELECT * FROM read_csv('/etc/passwd')").fetchall()
        with pytest.raises(duckdb.Error):
            con.execute("INSTALL httpfs")
        assert con.execute("SELECT current_setting('enable_external_access')").fetchone() == (False,)


def test_a_misspelt_filter_is_refused_not_ignored(client: TestClient) -> None:
    r = client.get(f"{API}/deals", params={"plyer": "Ana"})  # ignored, it would list every deal
    body = _assert_problem(r, 422)
    assert body["errors"][0]["text"] == "query.plyer" and "player" in body["errors"][0]["message"]
    for path in (f"{API}/deals.csv", f"{API}/stats"):
        _assert_problem(client.get(path, params={"trumps": "O"}), 422)
    assert client.get(f"{API}/deals", params={"player": "Ana", "sort": "id", "limit": 5}).status_code == 200


def test_a_stream_says_when_the_row_cap_cuts_it(files: dict[str, Any], tmp_path: Path) -> None:
    db = tmp_path / "capped.duckdb"  # a file of its own: DuckDB shares one locked instance per file in a process
    shutil.copy(files["readonly"], db)
    app = create_app(Settings(db=db, read_only=True, max_rows=3))
    try:
        client = TestClient(app)
        for shape in ("ndjson", "csv", "tpgn"):
            r = client.get(f"{API}/deals.{shape}", params={"sort": "id"})
            assert r.status_code == 200
            assert (r.headers["x-total-count"], r.headers["x-row-cap"], r.headers["x-truncated"]) == (
                str(files["total"]), "3", "true")
        rows = client.get(f"{API}/deals.ndjson").text.splitlines()
        assert len(rows) == 3
        few = client.get(f"{API}/deals.ndjson", params={"event": "Posted through"})
        assert few.headers["x-truncated"] == "false" and few.headers["x-total-count"] == "0"
    finally:
        app.state.archive.close()


def test_requests_wait_in_line_for_the_configured_threads(files: dict[str, Any], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The service runs `concurrency` reads at once per process (TUTEPGN_CONCURRENCY), set when it starts; the
    others wait for a thread and are then answered.  Posted records have threads of their own: a validation is
    answered while every read thread is busy."""
    monkeypatch.setenv("TUTEPGN_CONCURRENCY", "1")
    assert Settings.from_env().concurrency == 1
    assert Settings().concurrency == len(os.sched_getaffinity(0))
    running, most, gate = 0, 0, threading.Event()
    lock = threading.Lock()
    page = Archive.deal_page

    def watched(self: Archive, *args: Any, **kwargs: Any) -> Any:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        try:
            gate.wait(10)  # the first search holds its thread until the validation below is answered
            return page(self, *args, **kwargs)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(Archive, "deal_page", watched)
    db = tmp_path / "lined-up.duckdb"
    shutil.copy(files["readonly"], db)
    app = create_app(Settings.from_env(db=db, read_only=True))
    try:
        with TestClient(app) as client:
            assert client.portal is not None
            tokens = client.portal.call(lambda: anyio.to_thread.current_default_thread_limiter().total_tokens)
            assert tokens == 1
            pages, validated = client.portal.call(_searches_and_a_validation, client, 6, gate)
            assert validated.status_code == 200 and validated.json()["summary"]["valid"] == 1
            assert [r.status_code for r in pages] == [200] * 6
            assert len({tuple(i["id"] for i in r.json()["items"]) for r in pages}) == 1
            assert most == 1  # never two searches at once
    finally:
        app.state.archive.close()


async def _searches_and_a_validation(client: TestClient, count: int, gate: threading.Event) -> tuple[list[Any], Any]:
    """``count`` searches sent together, then a validation while they wait; the searches go on once it is
    answered.  Through the app, in the client's event loop."""
    transport = httpx.ASGITransport(app=client.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        searches = [asyncio.create_task(http.get(f"{API}/deals", params={"sort": "id"})) for _ in range(count)]
        await asyncio.sleep(0.2)
        try:
            validated = await asyncio.wait_for(http.post(f"{API}/validate", content=GOOD), 5)
        finally:
            gate.set()
        return list(await asyncio.gather(*searches)), validated


def test_a_streamed_answer_keeps_its_cursor_until_it_is_sent(files: dict[str, Any], tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A borrowed cursor goes back only after the last row of a stream (FastAPI 0.118 and later)."""
    events: list[str] = []
    texts = Archive.texts

    def watched(self: Archive, *args: Any, **kwargs: Any) -> Iterator[str]:
        yield from texts(self, *args, **kwargs)
        events.append("stream sent")

    class Idle(deque):  # type: ignore[type-arg]
        def append(self, view: Any) -> None:
            events.append("cursor given back")
            super().append(view)

    monkeypatch.setattr(Archive, "texts", watched)
    db = tmp_path / "streamed.duckdb"
    shutil.copy(files["readonly"], db)
    app = create_app(Settings(db=db, read_only=True))
    app.state.service.readers.idle = Idle()
    try:
        r = TestClient(app).get(f"{API}/deals.tpgn")
        assert r.status_code == 200 and r.text.count("[Event ") == files["total"]
        assert events == ["stream sent", "cursor given back"]
    finally:
        app.state.archive.close()
