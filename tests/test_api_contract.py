"""The OpenAPI document says what the service answers (api/contract.py), and records are taken in every form it names.

schemathesis (tests/test_api_schemathesis.py) holds the answers to the document; these are the document's own
promises to a client generator, and the forms of posted records, each checked once by hand.
"""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.api.contract import api_routes
from tutepgn.api.deps import Sort
from tutepgn.api.models import Preset, Suit
from tutepgn.api.routes.records import CardStyle, TokenStyle
from tutepgn.archive import SORTS
from tutepgn.cards import CARD_STYLES, SUIT_LETTERS, TOKEN_STYLES
from tutepgn.rules import PRESETS
from tutepgn.notation.convert import convert

ROOT = Path(__file__).resolve().parent.parent
KEY = "contract-test-key"
RECORD = (ROOT / "samples" / "torofun-2p-italian-cards.tpgn").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    app = create_app(Settings(db=tmp_path_factory.mktemp("contract") / "archive.duckdb", api_keys=frozenset({KEY})))
    yield app
    app.state.archive.close()


@pytest.fixture(scope="module")
def document(app: Any) -> dict[str, Any]:
    return TestClient(app).get("/openapi.json").json()


def operations(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {op["operationId"]: op for ops in document["paths"].values() for op in ops.values()}


def test_the_enums_are_the_librarys() -> None:
    """The closed values the API names are the library's tables, so neither drifts from the other."""
    assert set(get_args(Sort)) == set(SORTS)
    assert set(get_args(CardStyle)) == set(CARD_STYLES) and set(get_args(TokenStyle)) == set(TOKEN_STYLES)
    assert list(get_args(Preset)) == list(PRESETS) and list(get_args(Suit)) == list(SUIT_LETTERS)


def test_operation_ids_are_the_route_names(app: Any, document: dict[str, Any]) -> None:
    ids = operations(document)
    names = {route.name for route in api_routes(app) if route.include_in_schema}
    assert set(ids) == names and len(ids) >= 40
    assert {"search_deals", "search_deals_ndjson", "search_deals_csv", "search_deals_tpgn", "get_deal",
            "import_records", "analyse_deal", "get_job", "get_stats", "list_players"} <= set(ids)
    functions = {route.name: route.endpoint.__name__ for route in api_routes(app) if route.include_in_schema}
    assert {name for name, function in functions.items() if name != function} == {
        "search_deals_ndjson", "search_deals_csv", "search_deals_tpgn"}  # one function makes the three streams


def test_errors_are_problems_and_the_statuses_are_there(document: dict[str, Any]) -> None:
    ops = operations(document)
    assert "HTTPValidationError" not in document["components"]["schemas"]
    for op in ops.values():
        for status, response in op["responses"].items():
            if int(status) >= 400:
                assert list(response["content"]) == ["application/problem+json"], (op["operationId"], status)
    for name in ("get_deal", "get_job", "get_player", "get_match", "get_recording"):
        assert "404" in ops[name]["responses"], name
    assert {"401", "403", "413", "422", "503", "504"} <= set(ops["import_records"]["responses"])
    assert {"422", "503", "504"} <= set(ops["get_stats"]["responses"])
    assert {"429", "503"} <= set(ops["analyse_deal"]["responses"])


def test_the_key_is_a_security_scheme(document: dict[str, Any]) -> None:
    assert document["components"]["securitySchemes"]["APIKey"] == {
        "type": "apiKey", "in": "header", "name": "X-API-Key",
        "description": document["components"]["securitySchemes"]["APIKey"]["description"]}
    ops = operations(document)
    assert ops["import_records"]["security"] == [{"APIKey": []}]
    assert ops["analyse_deal"]["security"] == [{}, {"APIKey": []}]  # optional: a place outside the anonymous budget
    assert "security" not in ops["search_deals"]
    assert not [p for op in ops.values() for p in op.get("parameters", []) if p["name"].lower() == "x-api-key"]


def test_enums_have_names_and_answers_say_their_fields(document: dict[str, Any]) -> None:
    params = {p["name"]: p["schema"] for p in operations(document)["search_deals"]["parameters"]}
    assert document["components"]["schemas"]["Cante"]["x-enum-varnames"] == ["any", "veinte", "cuarenta"]
    assert params["sort"]["$ref"] == "#/components/schemas/Sort" and params["trump"]["$ref"].endswith("/Suit")
    sort = document["components"]["schemas"]["Sort"]
    assert sort["x-enum-varnames"][:2] == ["date", "date_desc"]
    assert document["components"]["schemas"]["Suit"]["enum"] == ["O", "C", "E", "B"]
    schemas = document["components"]["schemas"]
    assert set(schemas["ImportSummary"]["required"]) == set(schemas["ImportSummary"]["properties"])
    assert "next" in schemas["DealPage"]["required"]
    assert document["info"]["version"] == version("tutepgn")


def test_records_are_posted_in_every_form_named(app: Any, document: dict[str, Any]) -> None:
    """The notation's media type, plain text, JSON and JSON lines all validate, analyse, replay and import alike."""
    assert set(operations(document)["validate_records"]["requestBody"]["content"]) == {
        "application/x-tute-pgn", "text/plain", "application/json", "application/x-ndjson"}
    client = TestClient(app)
    as_json = "".join(convert(RECORD, to="json"))
    forms = {"application/x-tute-pgn": RECORD, "text/plain": RECORD, "application/json": as_json,
             "application/x-ndjson": "".join(convert(RECORD, to="jsonl"))}
    answers = {}
    for media, body in forms.items():
        headers = {"Content-Type": media}
        validated = client.post("/api/v1/validate", content=body, headers=headers)
        replayed = client.post("/api/v1/replay", content=body, headers=headers)
        analysed = client.post("/api/v1/analyse?pimc=0", content=body, headers={**headers, "X-API-Key": KEY})
        assert (validated.status_code, replayed.status_code, analysed.status_code) == (200, 200, 200), media
        answers[media] = (validated.json()["summary"], analysed.json())
    assert len({json.dumps(answer, sort_keys=True) for answer in answers.values()}) == 1
    imported = client.post("/api/v1/import", content=as_json, headers={"Content-Type": "application/json",
                                                                       "X-API-Key": KEY})
    again = client.post("/api/v1/import", content=RECORD, headers={"Content-Type": "application/x-tute-pgn",
                                                                   "X-API-Key": KEY})
    assert (imported.json()["added"], again.json()["added"], again.json()["records"]) == (1, 0, 1)  # the same deal


def test_json_that_is_not_records_is_a_422_problem(app: Any) -> None:
    client = TestClient(app)
    for body in ("\n", "[{}]", "{not json"):
        answer = client.post("/api/v1/validate", content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 422 and answer.headers["content-type"] == "application/problem+json", body


def test_convert_answers_json_as_json(app: Any, document: dict[str, Any]) -> None:
    client = TestClient(app)
    answer = client.post("/api/v1/convert?to=json", content=RECORD, headers={"Content-Type": "application/x-tute-pgn"})
    assert answer.headers["content-type"].startswith("application/json")
    assert json.loads(answer.text)[0]["tags"]["Rules"]
    content = operations(document)["convert_records"]["responses"]["200"]["content"]
    assert set(content) == {"application/json", "application/x-ndjson", "text/plain"}
