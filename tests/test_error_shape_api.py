"""One shape of error for every route of the service (like Datasette's test_error_shape.py).

Every route of the app is driven into an error (404, 422, 413, 401/403, 405
where nothing else applies); each answer must be ``application/problem+json``
and parse as :class:`tutepgn.errors.Problem` whose items are exactly
:class:`tutepgn.errors.ErrorItem`.  The routes are enumerated from the app: a
new route without a case here fails :func:`test_every_route_has_an_error_case`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.errors import ErrorItem, Problem

ROOT = Path(__file__).resolve().parent.parent
KEY = "tk_test_error_shape"
MAX_BODY = 4096
BAD_RECORD = '[Event "x"]\n[Rules "no-such-preset"]\n\n1. 1O 3O\n'
TOO_LARGE = "x" * (MAX_BODY + 1)

Case = tuple[str, str, dict[str, Any], int]
"""A request (method, URL, keyword arguments of the client) and the status it must get."""

CASES: dict[tuple[str, str], list[Case]] = {
    ("GET", "/api/v1/deals"): [("GET", "/api/v1/deals", {"params": {"limit": 0}}, 422),
                               ("GET", "/api/v1/deals", {"params": {"plyer": "Ana"}}, 422),
                               ("GET", "/api/v1/deals", {"params": {"cursor": "not-a-cursor"}}, 422)],
    ("GET", "/api/v1/deals.ndjson"): [("GET", "/api/v1/deals.ndjson", {"params": {"trumps": "O"}}, 422)],
    ("GET", "/api/v1/deals.csv"): [("GET", "/api/v1/deals.csv", {"params": {"seat": "N"}}, 422),
                                  ("GET", "/api/v1/deals.csv", {"params": {"lang": "fr"}}, 422)],
    ("GET", "/api/v1/deals.tpgn"): [("GET", "/api/v1/deals.tpgn", {"params": {"sort": "nope"}}, 422)],
    ("GET", "/api/v1/deals/{deal_id}.tpgn"): [("GET", "/api/v1/deals/1.tpgn", {}, 404)],
    ("GET", "/api/v1/deals/{deal_id}/sheet"): [("GET", "/api/v1/deals/1/sheet", {}, 404),
                                               ("GET", "/api/v1/deals/x/sheet", {}, 422)],
    ("GET", "/api/v1/deals/{deal_id}"): [("GET", "/api/v1/deals/1", {}, 404), ("GET", "/api/v1/deals/x", {}, 422)],
    ("GET", "/api/v1/deals/{deal_id}/analysis"): [("GET", "/api/v1/deals/1/analysis", {}, 404),
                                                  ("GET", "/api/v1/deals/x/analysis", {}, 422),
                                                  ("GET", "/api/v1/deals/1/analysis", {"params": {"cantes": "no!"}},
                                                   422)],
    ("GET", "/api/v1/jobs/{job_id}"): [("GET", "/api/v1/jobs/no-such-job", {}, 404)],
    ("POST", "/api/v1/analyse"): [("POST", "/api/v1/analyse", {"content": BAD_RECORD}, 422),
                                  ("POST", "/api/v1/analyse", {"content": ""}, 422),
                                  ("POST", "/api/v1/analyse", {"content": TOO_LARGE}, 413)],
    ("POST", "/api/v1/validate"): [("POST", "/api/v1/validate", {"content": "\n\n"}, 422),
                                   ("POST", "/api/v1/validate", {"content": ""}, 422),
                                   ("POST", "/api/v1/validate", {"content": b"\xff\xfe\xfa"}, 422),
                                   ("POST", "/api/v1/validate", {"content": TOO_LARGE}, 413)],
    ("POST", "/api/v1/convert"): [("POST", "/api/v1/convert", {"content": BAD_RECORD, "params": {"to": "tpgn"}},
                                   422),
                                  ("POST", "/api/v1/convert", {"content": "", "params": {"to": "xml"}}, 422)],
    ("POST", "/api/v1/import"): [("POST", "/api/v1/import", {"content": BAD_RECORD}, 401),
                                 ("POST", "/api/v1/import", {"content": BAD_RECORD,
                                                             "headers": {"X-API-Key": "wrong"}}, 403),
                                 ("POST", "/api/v1/import", {"content": TOO_LARGE,
                                                             "headers": {"X-API-Key": KEY}}, 413)],
    ("GET", "/api/v1/stats"): [("GET", "/api/v1/stats", {"params": {"min_points": "many"}}, 422)],
    ("GET", "/api/v1/players"): [("GET", "/api/v1/players", {"params": {"limit": 0}}, 422)],
    ("GET", "/api/v1/stats.{fmt}"): [("GET", "/api/v1/stats.doc", {}, 422),
                                    ("GET", "/api/v1/stats.pdf", {"params": {"min_points": "many"}}, 422)],
    ("GET", "/api/v1/matches/{match_id}/sheet.{fmt}"): [("GET", "/api/v1/matches/none/sheet.pdf", {}, 404),
                                                        ("GET", "/api/v1/matches/none/sheet.txt", {}, 422)],
    ("GET", "/api/v1/players/{name}/sheet.{fmt}"): [("GET", "/api/v1/players/Nobody/sheet.xlsx", {}, 404)],
    ("GET", "/events/{name}/standings.{fmt}"): [("GET", "/events/Nobody/standings.pdf", {}, 404),
                                               ("GET", "/events/Nobody/standings.doc", {}, 422)],
    ("GET", "/events/{name}/rounds/{round_no}/sheets.pdf"): [("GET", "/events/Nobody/rounds/1/sheets.pdf", {}, 404),
                                                            ("GET", "/events/Nobody/rounds/x/sheets.pdf", {}, 422)],
    ("GET", "/api/v1/health"): [("POST", "/api/v1/health", {}, 405)],  # its 503 is in tests/hostile/test_faults.py
    ("GET", "/api/v1/rules"): [("POST", "/api/v1/rules", {}, 405)],
    ("GET", "/api/v1/rules/{name}"): [("GET", "/api/v1/rules/no-such-preset", {}, 404)],
    ("POST", "/api/v1/recordings"): [("POST", "/api/v1/recordings", {"json": {"rules": "torofun-4p"}}, 401),
                                     ("POST", "/api/v1/recordings", {"json": {"rules": "torofun-4p"},
                                                                     "headers": {"X-API-Key": "wrong"}}, 403),
                                     ("POST", "/api/v1/recordings", {"json": {"rules": "no-such-preset", "seed": 1},
                                                                     "headers": {"X-API-Key": KEY}}, 422),
                                     ("POST", "/api/v1/recordings", {"json": {"seed": 1},
                                                                     "headers": {"X-API-Key": KEY}}, 422)],
    ("GET", "/api/v1/recordings/{recording_id}"): [("GET", "/api/v1/recordings/no-such-recording", {}, 404),
                                                   ("GET", "/api/v1/recordings/no-such-recording",
                                                    {"headers": {"X-API-Key": "wrong"}}, 403)],
    ("POST", "/api/v1/recordings/{recording_id}/entries"): [
        ("POST", "/api/v1/recordings/no-such-recording/entries", {"json": {"entry": "1O"}}, 401),
        ("POST", "/api/v1/recordings/no-such-recording/entries", {"json": {"entry": "1O"},
                                                                  "headers": {"X-API-Key": KEY}}, 404),
        ("POST", "/api/v1/recordings/no-such-recording/entries", {"json": {"entry": ""},
                                                                  "headers": {"X-API-Key": KEY}}, 422)],
    ("POST", "/api/v1/recordings/{recording_id}/undo"): [
        ("POST", "/api/v1/recordings/no-such-recording/undo", {"headers": {"X-API-Key": "wrong"}}, 403),
        ("POST", "/api/v1/recordings/no-such-recording/undo", {"headers": {"X-API-Key": KEY}}, 404)],
    ("POST", "/api/v1/recordings/{recording_id}/next"): [
        ("POST", "/api/v1/recordings/no-such-recording/next", {"json": {"turned": "4O"}}, 401),
        ("POST", "/api/v1/recordings/no-such-recording/next", {"json": {"turned": "4O"},
                                                               "headers": {"X-API-Key": "wrong"}}, 403),
        ("POST", "/api/v1/recordings/no-such-recording/next", {"json": {"turned": "4O"},
                                                               "headers": {"X-API-Key": KEY}}, 404)],
    ("GET", "/api/v1/recordings/{recording_id}/events"): [("GET", "/api/v1/recordings/no-such-recording/events", {},
                                                           404)],
    ("GET", "/"): [("POST", "/", {}, 405)],
    ("GET", "/deals/{deal_id}"): [("GET", "/deals/1", {}, 404), ("GET", "/deals/x", {}, 422)],
    ("GET", "/validate"): [("POST", "/validate", {}, 405)],
    ("GET", "/record"): [("POST", "/record", {}, 405),
                         ("GET", "/record", {"params": {"event": "Nobody", "round": 1, "table": 1}}, 404),
                         ("GET", "/record", {"params": {"event": "Nobody", "round": "x", "table": 1}}, 422)],
    ("GET", "/record/{recording_id}"): [("GET", "/record/no-such-recording", {}, 404)],
    ("GET", "/live/{recording_id}"): [("GET", "/live/no-such-recording", {}, 404)],
    ("GET", "/i18n/{lang}.js"): [("GET", "/i18n/fr.js", {}, 404)],
    ("GET", "/api/v1/matches/{match_id}"): [("GET", "/api/v1/matches/no-such-match", {}, 404)],
    ("GET", "/api/v1/players/{name}"): [("GET", "/api/v1/players/nobody", {}, 404)],
    ("POST", "/api/v1/replay"): [("POST", "/api/v1/replay", {"content": "\n\n"}, 422),
                                 ("POST", "/api/v1/replay", {"content": b"\xff\xfe\xfa"}, 422),
                                 ("POST", "/api/v1/replay", {"content": TOO_LARGE}, 413)],
    ("GET", "/matches/{match_id}"): [("GET", "/matches/no-such-match", {}, 404)],
    ("GET", "/players/{name}"): [("GET", "/players/nobody", {}, 404)],
    ("GET", "/players/{name}/puzzles"): [("GET", "/players/nobody/puzzles", {}, 404)],
    ("GET", "/api/v1/players/{name}/puzzles"): [("GET", "/api/v1/players/nobody/puzzles", {}, 404),
                                                ("GET", "/api/v1/players/nobody/puzzles", {"params": {"limit": 0}},
                                                 422)],
    ("POST", "/api/v1/puzzles/{puzzle_id}/answer"): [("POST", "/api/v1/puzzles/1-1/answer", {"json": {"card": "1O"}},
                                                      404),
                                                     ("POST", "/api/v1/puzzles/1-1/answer", {"json": {}}, 422)],
    ("GET", "/api/v1/ratings"): [("GET", "/api/v1/ratings", {"params": {"pairs": "maybe"}}, 422)],
    ("GET", "/ratings"): [("GET", "/ratings", {"params": {"pairs": "maybe"}}, 422)],
    ("GET", "/api/v1/players/{name}/rating"): [("GET", "/api/v1/players/nobody/rating", {}, 404)],
    ("GET", "/stats"): [("POST", "/stats", {}, 405)],
    ("GET", "/rules"): [("POST", "/rules", {}, 405)],
    ("GET", "/rules/{name}"): [("GET", "/rules/no-such-preset", {}, 404), ("GET", "/rules/parejas", {}, 404)],
    ("GET", "/view"): [("GET", "/view", {}, 422), ("GET", "/view", {"params": {"d": "not*base64"}}, 422),
                       ("GET", "/view", {"params": {"p": "torofun-4p N"}}, 422),
                       ("GET", "/view", {"params": {"p": "x" * 9000}}, 422)],
    ("GET", "/api/v1/events"): [("DELETE", "/api/v1/events", {}, 405)],
    ("POST", "/api/v1/events"): [("POST", "/api/v1/events", {"json": {"name": "x"}}, 401),
                                 ("POST", "/api/v1/events", {"json": {"name": "x"}, "headers": {"X-API-Key": "wrong"}}, 403),
                                 ("POST", "/api/v1/events", {"json": {"name": ""}, "headers": {"X-API-Key": KEY}}, 422),
                                 ("POST", "/api/v1/events", {"json": {"name": "x", "rules": "no-such-preset"},
                                                             "headers": {"X-API-Key": KEY}}, 422),
                                 ("POST", "/api/v1/events", {"content": TOO_LARGE, "headers": {"X-API-Key": KEY}}, 413)],
    ("GET", "/api/v1/events/{name}"): [("GET", "/api/v1/events/nope", {}, 404)],
    ("POST", "/api/v1/events/{name}/entrants"): [
        ("POST", "/api/v1/events/nope/entrants", {"json": {"entrants": ["Ana/Bea"]}}, 401),
        ("POST", "/api/v1/events/nope/entrants", {"json": {"entrants": ["Ana/Bea"]}, "headers": {"X-API-Key": KEY}}, 404),
        ("POST", "/api/v1/events/nope/entrants", {"json": {"entrants": []}, "headers": {"X-API-Key": KEY}}, 422)],
    ("POST", "/api/v1/events/{name}/rounds"): [("POST", "/api/v1/events/nope/rounds", {"json": {}}, 401),
                                               ("POST", "/api/v1/events/nope/rounds", {"json": {}, "headers": {"X-API-Key": KEY}}, 404)],
    ("PUT", "/api/v1/events/{name}/rounds/{n}/tables/{t}/result"): [
        ("PUT", "/api/v1/events/nope/rounds/1/tables/1/result", {"json": {"matches": [1, 0]}}, 401),
        ("PUT", "/api/v1/events/nope/rounds/1/tables/1/result", {"json": {"matches": [1, 0]}, "headers": {"X-API-Key": KEY}}, 404),
        ("PUT", "/api/v1/events/nope/rounds/1/tables/1/result", {"json": {"matches": [-1, 0]}, "headers": {"X-API-Key": KEY}}, 422)],
    ("PUT", "/api/v1/events/{name}/rounds/{n}/tables/{t}/boards/{b}"): [
        ("PUT", "/api/v1/events/nope/rounds/1/tables/1/boards/1", {"json": {"points": [1, 0]}}, 401),
        ("PUT", "/api/v1/events/nope/rounds/1/tables/1/boards/1", {"json": {"points": [1, 0]}, "headers": {"X-API-Key": KEY}}, 404),
        ("PUT", "/api/v1/events/nope/rounds/1/tables/1/boards/0", {"json": {"points": [1, 0]}, "headers": {"X-API-Key": KEY}}, 422)],
    ("GET", "/api/v1/events/{name}/standings"): [("GET", "/api/v1/events/nope/standings", {}, 404)],
    ("GET", "/api/v1/events/{name}/crosstable"): [("GET", "/api/v1/events/nope/crosstable", {}, 404)],
    ("GET", "/api/v1/events/{name}/entrants/{number}/history"): [("GET", "/api/v1/events/nope/entrants/1/history", {}, 404),
                                                                   ("GET", "/api/v1/events/nope/entrants/x/history", {}, 422)],
    ("GET", "/events"): [("POST", "/events", {}, 405)],
    ("GET", "/events/{name}"): [("GET", "/events/nope", {}, 404)],
    ("GET", "/events/{name}/rounds/{n}"): [("GET", "/events/nope/rounds/1", {}, 404),
                                             ("GET", "/events/nope/rounds/x", {}, 422)],
    ("GET", "/events/{name}/rounds/{n}/tables/{t}"): [("GET", "/events/nope/rounds/1/tables/1", {}, 404)],
    ("GET", "/events/{name}/standings"): [("GET", "/events/nope/standings", {}, 404)],
    ("GET", "/events/{name}/crosstable"): [("GET", "/events/nope/crosstable", {}, 404)],
    ("POST", "/api/v1/tables"): [("POST", "/api/v1/tables", {"json": {"rules": "playcard-2p"}}, 401),
                                 ("POST", "/api/v1/tables", {"json": {"rules": "playcard-2p"},
                                                             "headers": {"X-API-Key": "wrong"}}, 403),
                                 ("POST", "/api/v1/tables", {"json": {"rules": "playcard-2p", "seat": "W"},
                                                             "headers": {"X-API-Key": KEY}}, 422),
                                 ("POST", "/api/v1/tables", {"json": {"rules": "playcard-2p", "level": 9},
                                                             "headers": {"X-API-Key": KEY}}, 422)],
    ("GET", "/api/v1/tables/{table_id}"): [("GET", "/api/v1/tables/no-such-table", {}, 404)],
    ("POST", "/api/v1/tables/{table_id}/entries"): [
        ("POST", "/api/v1/tables/no-such-table/entries", {"json": {"entry": "1O"}}, 401),
        ("POST", "/api/v1/tables/no-such-table/entries", {"json": {"entry": "1O"}, "headers": {"X-API-Key": KEY}}, 404)],
    ("POST", "/api/v1/tables/{table_id}/next"): [("POST", "/api/v1/tables/no-such-table/next", {}, 401),
                                                 ("POST", "/api/v1/tables/no-such-table/next",
                                                  {"headers": {"X-API-Key": KEY}}, 404)],
    ("GET", "/play"): [("POST", "/play", {}, 405)],
    ("GET", "/play/{table_id}"): [("GET", "/play/no-such-table", {}, 404)],
    ("GET", "/ladder"): [("POST", "/ladder", {}, 405)],
    ("GET", "/docs"): [("POST", "/docs", {}, 405)],
    ("GET", "/docs/oauth2-redirect"): [("POST", "/docs/oauth2-redirect", {}, 405)],
    ("GET", "/redoc"): [("POST", "/redoc", {}, 405)],
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("error-shape") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources([ROOT / "samples" / "tutes.tpgn"])
    app = create_app(Settings(db=db, api_keys=frozenset({KEY}), max_body_bytes=MAX_BODY))
    yield app
    app.state.archive.close()


def _api_routes(routes: list[Any]) -> Iterator[APIRoute]:
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        included = getattr(route, "original_router", None)  # FastAPI keeps an included router whole
        if included is not None:
            yield from _api_routes(included.routes)


def test_every_route_has_an_error_case(app: Any) -> None:
    routes = {(method, route.path) for route in _api_routes(app.routes) for method in route.methods}
    assert len(routes) == 77 and routes == set(CASES)


@pytest.mark.parametrize("case", [c for cases in CASES.values() for c in cases],
                         ids=lambda c: f"{c[0]} {c[1]} {c[3]}")
def test_every_error_is_a_problem_of_error_items(app: Any, case: Case) -> None:
    method, url, kwargs, status = case
    r = TestClient(app).request(method, url, **kwargs)
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    body = r.json()
    assert set(body) == set(Problem.model_fields)
    problem = Problem.model_validate(body)
    assert problem.status == status and problem.title and problem.detail
    assert problem.instance == url
    for item in body["errors"]:
        assert set(item) == set(ErrorItem.model_fields), item


def test_an_unknown_path_is_a_problem_too(app: Any) -> None:
    r = TestClient(app).get("/api/v1/nothing-here")
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
    Problem.model_validate(r.json())
