"""The table against the machine over HTTP (``/api/v1/tables``, issue 38): the real app on a real DuckDB file,
served by uvicorn, talked to with httpx.  A table starts with the write key, the bots play up to the person's
turn, the person passes when asked out of turn, a refused card says why and changes nothing, the finished deal is stored in the archive (it validates, its
players are the person and the bots with their levels), a table outlives its app (rebuilt from its file by
another), and a whole match goes deal after deal to its end.  Low levels and fixed seeds: fast and the same each
run."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from threaded import serving
from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.check.validate import validate
from tutepgn.notation import Record, read_record

KEY = "tk_play_test"
WRITE = {"X-API-Key": KEY}


def app_over(db: Path, **settings: Any) -> Any:
    if not db.exists():
        Archive(db).close()
    return create_app(Settings(db=db, api_keys=frozenset({KEY}), **settings))


@pytest.fixture()
def http(tmp_path: Path) -> Iterator[httpx.Client]:
    with serving(app_over(tmp_path / "archive.duckdb")) as url, httpx.Client(base_url=url, timeout=60) as client:
        yield client


def move(state: dict[str, Any]) -> str:
    """What the person does: the first declaration offered, else pass when asked out of turn, else the last
    legal card."""
    if state["declarations"]:
        return str(state["declarations"][0]["entry"])
    return "" if state["may_pass"] else str(state["cards"][-1])


def play_out(http: httpx.Client, state: dict[str, Any]) -> dict[str, Any]:
    """Play the table's deal to its end; the last state."""
    while not state["over"]:
        answer = http.post(f"/api/v1/tables/{state['id']}/entries", json={"entry": move(state)}, headers=WRITE)
        assert answer.status_code == 200, answer.text
        assert answer.json()["said"], "each entry says what happened"
        state = answer.json()["state"]
    return state


def stored(http: httpx.Client, state: dict[str, Any]) -> Record:
    assert state["deal_id"] is not None and re.fullmatch(r"\d+", state["deal_id"])
    answer = http.get(f"/api/v1/deals/{state['deal_id']}.tpgn")
    assert answer.status_code == 200, answer.text
    return read_record(answer.text)


def test_a_deal_in_pairs_is_played_passed_refused_and_stored_valid(http: httpx.Client) -> None:
    start = {"rules": "ludoteka-pairs", "seat": "S", "level": 3, "seed": 11, "name": "Ana"}
    assert http.post("/api/v1/tables", json=start).status_code == 401  # the recorder's guard: a key
    answer = http.post("/api/v1/tables", json=start, headers=WRITE)
    assert answer.status_code == 201, answer.text
    state = answer.json()
    assert answer.headers["Location"] == f"/api/v1/tables/{state['id']}"
    assert state["seat"] == "S" and state["partner"] == "N" and len(state["hand"]) == 10
    assert state["players"] == ["Bot level 3 (heuristic)", "Bot level 3 (heuristic)", "Ana",
                                "Bot level 3 (heuristic)"]
    assert state["to_move"] == "S" and state["cards"], "the bots played up to South's turn"
    refused = passed = 0
    while not state["over"]:
        wrong = next((c for c in state["hand"] if c not in state["cards"]), None)
        if wrong is not None and not state["may_pass"] and not refused:
            answer = http.post(f"/api/v1/tables/{state['id']}/entries", json={"entry": wrong}, headers=WRITE)
            assert answer.status_code == 422
            problem = answer.json()
            assert problem["detail"] and problem["errors"][0]["text"] == wrong
            assert wrong not in problem["errors"][0]["expected"].split()
            assert http.get(f"/api/v1/tables/{state['id']}").json() == state, "a refused card changes nothing"
            refused += 1
        entry = "" if state["may_pass"] else move(state)  # asked out of turn (a cante South may sing): pass
        answer = http.post(f"/api/v1/tables/{state['id']}/entries", json={"entry": entry}, headers=WRITE)
        assert answer.status_code == 200, answer.text
        if not entry:
            assert state["declarations"] and answer.json()["said"][0] == "You pass."
            passed += 1
        state = answer.json()["state"]
    assert refused == 1 and passed == 1
    assert state["result"] and not state["cards"] and not state["options"]
    record = stored(http, state)
    report = validate(record)
    assert not report.errors and record.termination != "*"
    assert (record.tags["North"], record.tags["West"], record.tags["South"], record.tags["East"]) == (
        "Bot level 3 (heuristic)", "Bot level 3 (heuristic)", "Ana", "Bot level 3 (heuristic)")
    assert record.tags["Site"] == "/play" and record.tags["Rules"] == "ludoteka-pairs"
    again = http.post(f"/api/v1/tables/{state['id']}/entries", json={"entry": "1O"}, headers=WRITE)
    assert again.status_code == 409 and state["deal_id"] in again.json()["detail"]


def test_refusals_say_why_in_spanish_and_the_bots_are_named_by_level(http: httpx.Client) -> None:
    state = http.post("/api/v1/tables?lang=es", json={"rules": "torofun-3p", "seat": "W", "level": 1, "seed": 4},
                      headers=WRITE).json()
    assert state["seats"] == ["N", "W", "E"] and state["partner"] is None
    assert state["players"] == ["Bot nivel 1 (random)", "Tú", "Bot nivel 1 (random)"]
    table = f"/api/v1/tables/{state['id']}"
    for entry, words in (("7X", "no es una carta"), ("N 1O", "Oeste")):
        answer = http.post(f"{table}/entries?lang=es", json={"entry": entry}, headers=WRITE)
        assert answer.status_code == 422 and words in answer.json()["detail"], answer.json()
    assert http.get(table).json()["version"] == state["version"]
    final = play_out(http, state)
    record = stored(http, final)
    assert not validate(record).errors and record.tags["North"] == "Bot nivel 1 (random)"
    assert record.tags["Event"] == "Partida contra la máquina"


def test_a_table_outlives_its_app_and_is_rebuilt_from_its_file(tmp_path: Path) -> None:
    db = tmp_path / "archive.duckdb"
    with serving(app_over(db)) as url, httpx.Client(base_url=url, timeout=60) as http:
        state = http.post("/api/v1/tables", json={"rules": "playcard-2p", "seat": "N", "level": 2, "seed": 5},
                          headers=WRITE).json()
        for _ in range(4):
            state = http.post(f"/api/v1/tables/{state['id']}/entries", json={"entry": move(state)},
                              headers=WRITE).json()["state"]
    assert (tmp_path / "archive.duckdb.tables" / f"{state['id']}.json").exists()
    with serving(app_over(db)) as url, httpx.Client(base_url=url, timeout=60) as http:  # another process's view
        assert http.get(f"/api/v1/tables/{state['id']}").json() == state
        page = http.get(f"/play/{state['id']}")
        assert page.status_code == 200 and state["id"] in page.text
        record = stored(http, play_out(http, state))
    assert not validate(record).errors and record.tags["North"] == "You"


def test_a_whole_match_deal_after_deal(http: httpx.Client) -> None:
    state = http.post("/api/v1/tables", json={"rules": "playcard-2p", "seat": "S", "level": 1, "seed": 3,
                                              "match": True}, headers=WRITE).json()
    table = f"/api/v1/tables/{state['id']}"
    assert http.post(f"{table}/next", headers=WRITE).status_code == 422  # the deal is not over
    records = []
    while True:
        state = play_out(http, state)
        records.append(stored(http, state))
        if state["winner"]:
            break
        answer = http.post(f"{table}/next", headers=WRITE)
        assert answer.status_code == 200, answer.text
        state = answer.json()["state"]
        assert state["deal_no"] == len(records) + 1 and not state["over"]
    assert len(records) >= 2 and http.post(f"{table}/next", headers=WRITE).status_code == 422
    assert [r.tags["DealNo"] for r in records] == [str(n) for n in range(1, len(records) + 1)]
    assert len({r.tags["Match"] for r in records}) == 1
    assert [r.tags["Dealer"] for r in records[:2]] in (["N", "S"], ["S", "N"]), "the dealer moves each deal"
    for record in records:
        assert not validate(record).errors, record.tags
    assert max(state["standing"]) >= int(records[0].tags["MatchTarget"])


def test_wrong_starts_and_unknown_tables(http: httpx.Client, tmp_path: Path) -> None:
    for start in ({"rules": "playcard-2p", "seat": "W"}, {"rules": "no-such-rules"},
                  {"rules": "playcard-2p", "level": 6}):
        assert http.post("/api/v1/tables", json=start, headers=WRITE).status_code == 422, start
    assert http.get("/api/v1/tables/nosuchtable1").status_code == 404
    assert http.post("/api/v1/tables/nosuchtable1/entries", json={"entry": "1O"}, headers=WRITE).status_code == 404
    page = http.get("/play?lang=es")
    assert page.status_code == 200 and "Jugar contra la máquina" in page.text
    assert "Nivel 5: PIMC, 40 mundos ponderados" in page.text and "Nivel 6" not in page.text  # once 8 levels
