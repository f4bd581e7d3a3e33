"""Club events over HTTP (issue 34): the JSON API and the pages of tutepgn.api.routes.events on the real app over a
real DuckDB file, and a table's result worked out from the deals recorded at it (result_from_deals).

The app trusts this machine as ``tute serve`` does with no key set (:func:`tutepgn.api.local.with_local_keys`):
the local client writes with no key, a client of the club's network needs one.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.api.local import with_local_keys
from tutepgn.archive import Archive
from tutepgn.archive.events import add_entrants, create_event, pair_round, result_from_deals
from tutepgn.archive.event_tables import table_deals
from tutepgn.errors import EventError, Problem, UnknownEvent
from tutepgn.notation import Record
from tutepgn.recording.simulate import simulate_matches
from tutepgn.rules import preset
from tutepgn.tournament import Event, Result, standings

EVENT = "Torneo de Navidad"
URL = f"/api/v1/events/{quote(EVENT)}"
PAIRS = [f"Jugador {2 * i + 1}/Jugador {2 * i + 2}" for i in range(8)]
PAGE = {"Accept": "text/html"}


# -- Deals tagged for a table, and what they should give (from the engine, not the archive) ------------------

def tagged_match(seed: int, *, event: str, table: int, north_south: tuple[str, ...], west_east: tuple[str, ...],
                 match_id: str, drop_last: bool = False, round_no: int = 1) -> tuple[list[str], dict[str, Any]]:
    """A simulated ludoteka-pairs match as records tagged Event/Round/Table, and what it gives the pair at N/S:
    its deals won, card points and cantes made, and whether it won the match (the other pair's figures too).
    ``drop_last``: the match's last deal is left out, so the match is not finished."""
    rules = preset("ludoteka-pairs")
    [(match, deals)] = simulate_matches(rules, 1, seed)
    kept = deals[:-1] if drop_last else deals
    standing = [0, 0]
    texts, figures = [], {"deals": [0, 0], "points": [0, 0], "won": None if drop_last else match.winner}
    for no, (deal, sheet) in enumerate(zip(kept, match.sheets), 1):
        tags = {"Event": event, "Round": str(round_no), "Table": str(table), "Match": match_id, "DealNo": str(no),
                "MatchTarget": str(match.target), "North": north_south[0], "South": north_south[1],
                "West": west_east[0], "East": west_east[1], "Date": "2026.12.05"}
        texts.append(Record.from_deal(deal, tags, match_target=match.target, standing=list(standing)).tpgn())
        standing = [a + b for a, b in zip(standing, sheet.match_points)]
        if sheet.winner is not None:
            figures["deals"][sheet.winner] += 1
        figures["points"] = [p + t for p, t in zip(figures["points"], sheet.totals)]
    return texts, figures


def imported(archive: Archive, texts: list[str]) -> None:
    archive.import_raw([(f"<table {i}>", 0, 1, text) for i, text in enumerate(texts)])


def test_result_from_deals_counts_the_tables_matches_deals_and_points(tmp_path: Path) -> None:
    with Archive(tmp_path / "a.duckdb") as archive:
        create_event(archive, Event.new("Liga", planned_rounds=3))
        add_entrants(archive, "Liga", ["Ana/Bea", "Carla/Dani", "Eva/Fran", "Gema/Hugo"])
        rnd = pair_round(archive, "Liga")
        table = rnd.table(1)
        names = {1: ("Ana", "Bea"), 2: ("Carla", "Dani"), 3: ("Eva", "Fran"), 4: ("Gema", "Hugo")}
        home, away = names[table.home], names[table.away]
        with pytest.raises(EventError, match="no deal in the archive is tagged"):
            result_from_deals(archive, "Liga", 1, 1)
        # One match with the home pair at N/S, one sat the other way round, one not finished (home at N/S).
        first, a = tagged_match(1, event="Liga", table=1, north_south=home, west_east=away, match_id="L-1-1-a")
        second, b = tagged_match(2, event="Liga", table=1, north_south=away, west_east=home, match_id="L-1-1-b")
        third, c = tagged_match(3, event="Liga", table=1, north_south=home, west_east=away, match_id="L-1-1-c",
                                drop_last=True)
        # Deals of another table and of another event with the same round and table are not this table's.
        other_table, _ = tagged_match(4, event="Liga", table=2, north_south=home, west_east=away, match_id="L-1-2")
        other_event, _ = tagged_match(5, event="Otra liga", table=1, north_south=home, west_east=away, match_id="O")
        imported(archive, first + second + third + other_table + other_event)

        got = result_from_deals(archive, "Liga", 1, 1)

        flip = [1, 0]  # the second match: home sat W/E, the engine's side 1
        home_won = [a["won"] == 0, b["won"] == 1]
        assert a["won"] is not None and b["won"] is not None and c["won"] is None
        assert got == Result(
            table=1, matches=(sum(home_won), 2 - sum(home_won)),
            deals=(a["deals"][0] + b["deals"][1] + c["deals"][0], a["deals"][1] + b["deals"][0] + c["deals"][1]),
            points=(a["points"][0] + b["points"][flip[0]] + c["points"][0],
                    a["points"][1] + b["points"][flip[1]] + c["points"][1]))
        assert sum(got.deals) > 0 and sum(got.points) > 0
        listed = table_deals(archive, "Liga", 1, 1)
        assert len(listed) == len(first) + len(second) + len(third)
        assert {d.match_id for d in listed} == {"L-1-1-a", "L-1-1-b", "L-1-1-c"}
        assert all(d.players["N"] in home + away and len(d.score or []) == 2 for d in listed)
        with pytest.raises(EventError, match="round 1 has no table 9"):
            result_from_deals(archive, "Liga", 1, 9)
        with pytest.raises(UnknownEvent):
            result_from_deals(archive, "No such", 1, 1)


def test_tute_event_result_from_deals_stores_what_the_deals_give(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    with Archive(db) as archive:
        create_event(archive, Event.new("Jueves"))
        add_entrants(archive, "Jueves", ["Ana/Bea", "Carla/Dani"])
        table = pair_round(archive, "Jueves").table(1)
        names = {1: ("Ana", "Bea"), 2: ("Carla", "Dani")}
        texts, _ = tagged_match(21, event="Jueves", table=1, north_south=names[table.home],
                                west_east=names[table.away], match_id="J-1")
        imported(archive, texts)
        expected = result_from_deals(archive, "Jueves", 1, 1)

    def tute(*args: str, status: int = 0) -> subprocess.CompletedProcess[str]:
        run = subprocess.run([sys.executable, "-m", "tutepgn.cli", "--lang", "en", "event", *args, "--db", str(db)],
                             capture_output=True, text=True, timeout=120, env={**os.environ, "TUTEPGN_DB": ""})
        assert run.returncode == status, (args, run.stdout, run.stderr)
        return run

    done = tute("result", "Jueves", "--round", "1", "--table", "1", "--from-deals")
    assert f"round 1, table 1: {expected.matches[0]}-{expected.matches[1]}" in done.stderr
    lines = json.loads(tute("standings", "Jueves", "--json").stdout)
    home = next(line for line in lines if line["entrant"] == table.home)
    assert (home["matches_won"], home["deals_won"], home["points_for"]) == (expected.matches[0], expected.deals[0],
                                                                           expected.points[0])
    refused = tute("result", "Jueves", "--round", "1", "--table", "1", status=2)
    assert "give the SCORE" in refused.stderr


# -- The API and pages, as a club's evening uses them ---------------------------------------------------------

@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("events") / "archive.duckdb"
    Archive(db).close()
    configured, _keys = with_local_keys(Settings(db=db), trust=True)
    made = create_app(configured)
    yield made
    made.state.archive.close()


@pytest.fixture(scope="module")
def local(app: Any) -> Iterator[TestClient]:
    """A browser on the server's own machine: it writes with no key."""
    with TestClient(app, client=("127.0.0.1", 50000), base_url="http://127.0.0.1:8000") as c:
        yield c


@pytest.fixture(autouse=True)
def english(local: TestClient) -> None:
    local.cookies.clear()


def problem(r: Any, status: int) -> Problem:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    return Problem.model_validate(r.json())


@pytest.fixture(scope="module")
def paired(local: TestClient) -> dict[str, Any]:
    """The event made through the API: 8 pairs, round 1 paired."""
    r = local.post("/api/v1/events", json={"name": EVENT, "rounds": 3, "seed": 7})
    assert r.status_code == 201, r.text
    assert r.json()["name"] == EVENT and r.headers["location"] == URL.replace(" ", "%20")
    r = local.post(f"{URL}/entrants", json={"entrants": PAIRS})
    assert r.status_code == 201 and [e["number"] for e in r.json()] == list(range(1, 9))
    r = local.post(f"{URL}/rounds", json={})
    assert r.status_code == 201, r.text
    return r.json()


def test_an_evening_pairs_enters_results_and_ranks(local: TestClient, paired: dict[str, Any]) -> None:
    tables = paired["tables"]
    assert paired["number"] == 1 and len(tables) == 4
    assert sorted(e for t in tables for e in (t["home"], t["away"])) == list(range(1, 9))
    # Table k's home pair wins 2-0 with k+1 deals: winners rank by deals difference, the table 4's first;
    # the losers after them, the table 1's (the smallest loss) first.
    for t in tables:
        k = t["number"]
        r = local.put(f"{URL}/rounds/1/tables/{k}/result",
                      json={"matches": [2, 0], "deals": [k + 1, 0], "points": [100 * k, 20]})
        assert r.status_code == 200 and r.json() == {"table": k, "matches": [2, 0], "deals": [k + 1, 0],
                                                     "points": [100 * k, 20]}
    by_number = {t["number"]: t for t in tables}
    expected = [by_number[k]["home"] for k in (4, 3, 2, 1)] + [by_number[k]["away"] for k in (1, 2, 3, 4)]
    lines = local.get(f"{URL}/standings").json()
    assert [line["entrant"] for line in lines] == expected
    assert [line["place"] for line in lines] == list(range(1, 9))
    assert lines[0]["matches_won"] == 2 and lines[0]["deals_won"] == 5 and lines[-1]["points_against"] == 400
    event = local.get(URL).json()
    assert event["rounds"][0]["results"]["1"]["matches"] == [2, 0]
    assert local.get("/api/v1/events").json() == [{"name": EVENT, "kind": "torneo", "rules": "ludoteka-pairs",
                                                  "format": "swiss", "planned_rounds": 3, "rounds": 1,
                                                  "entrants": 8}]
    cross = local.get(f"{URL}/crosstable").json()
    assert [row["entrant"] for row in cross] == expected and cross[0]["cells"][expected.index(by_number[4]["away"])] == "2-0"
    history = local.get(f"{URL}/entrants/{by_number[4]['home']}/history").json()
    assert history == [{"round": 1, "table": 4, "opponent": by_number[4]["away"],
                        "opponent_name": PAIRS[by_number[4]["away"] - 1], "matches": [2, 0], "deals": [5, 0],
                        "points": [400, 20]}]
    moved = local.get(f"/events/{quote(EVENT)}/crosstable", headers=PAGE, follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == f"/events/{quote(EVENT, safe='')}/standings#crosstable"
    page = local.get(f"/events/{quote(EVENT)}/standings", headers=PAGE)
    assert re.findall(r'<tr data-entrant="(\d+)">', page.text) == [str(e) for e in expected]
    assert re.findall(r'<tr data-cross="(\d+)">', page.text) == [str(e) for e in expected]


def test_an_unknown_event_is_a_404_problem(local: TestClient) -> None:
    for path in ("/api/v1/events/Nadie", "/api/v1/events/Nadie/standings", "/api/v1/events/Nadie/crosstable",
                 "/api/v1/events/Nadie/entrants/1/history"):
        found = problem(local.get(path), 404)
        assert found.detail == "no event named Nadie" and found.errors[0].text == "path.name", path
    assert problem(local.post("/api/v1/events/Nadie/rounds", json={}), 404).detail == "no event named Nadie"
    page = local.get("/events/Nadie", headers=PAGE)
    assert page.status_code == 404 and "no event named Nadie" in page.text


@pytest.mark.parametrize("url, body, located", [
    (f"{URL}/rounds/1/tables/9/result", {"matches": [2, 1]}, ("rounds/1/tables/9", "round 1 has no table 9")),
    (f"{URL}/rounds/5/tables/1/result", {"matches": [2, 1]}, ("rounds/5/tables/1", "has no round 5")),
    (f"{URL}/rounds/1/tables/1/result", {"matches": [-2, 1]}, ("body.matches.0", "greater than or equal to 0")),
    (f"{URL}/rounds/1/tables/1/result", {"deals": [1, 1]}, ("body", "give the matches won")),
    (f"{URL}/rounds/1/tables/1/result", {"from_deals": True}, ("rounds/1/tables/1", "no deal in the archive")),
    (f"{URL}/entrants", {"entrants": ["Jugador 1/Otro"]}, ("body.entrants", "Jugador 1 is already an entrant")),
    ("/api/v1/events", {"name": EVENT}, ("body", "exists already")),
    ("/api/v1/events", {"name": "x", "rules": "no-such-preset"}, ("body", "no-such-preset")),
])
def test_a_bad_write_is_a_located_422(local: TestClient, paired: dict[str, Any], url: str, body: dict[str, Any],
                                      located: tuple[str, str]) -> None:
    send = local.put if url.endswith("result") else local.post
    found = problem(send(url, json=body), 422)
    assert any(e.text == located[0] and located[1] in e.message for e in found.errors), found


def test_a_write_from_the_clubs_network_needs_a_key(app: Any, paired: dict[str, Any]) -> None:
    with TestClient(app, client=("192.168.1.20", 50000), base_url="http://192.168.1.10:8000") as phone:
        before = phone.get(URL).json()
        for method, url, body in (("POST", "/api/v1/events", {"name": "Intruso"}),
                                  ("POST", f"{URL}/entrants", {"entrants": ["Intruso/Otro"]}),
                                  ("POST", f"{URL}/rounds", {}),
                                  ("PUT", f"{URL}/rounds/1/tables/1/result", {"matches": [0, 2]}),
                                  ("PUT", f"{URL}/rounds/1/tables/1/boards/1", {"points": [1, 2]})):
            refused = problem(phone.request(method, url, json=body), 401)
            assert "API key" in refused.detail
            assert phone.request(method, url, json=body, headers={"X-API-Key": "wrong"}).status_code == 403
        assert phone.get(URL).json() == before and len(phone.get("/api/v1/events").json()) == 1
        key = app.state.settings.local_key
        assert phone.put(f"{URL}/rounds/1/tables/1/result", json={"matches": [2, 0], "deals": [2, 0]},
                         headers={"X-API-Key": key}).status_code == 200


def test_the_table_result_from_its_recorded_deals(local: TestClient, paired: dict[str, Any]) -> None:
    table = paired["tables"][1]
    home, away = (tuple(PAIRS[table[side] - 1].split("/")) for side in ("home", "away"))
    texts, figures = tagged_match(11, event=EVENT, table=table["number"], north_south=away, west_east=home,
                                  match_id="navidad-r1-m2")
    assert local.post("/api/v1/import", content="\n".join(texts)).status_code == 200
    r = local.put(f"{URL}/rounds/1/tables/{table['number']}/result", json={"from_deals": True})
    assert r.status_code == 200, r.text
    won = figures["won"]
    assert r.json() == {"table": table["number"], "matches": [int(won == 1), int(won == 0)],
                        "deals": figures["deals"][::-1], "points": figures["points"][::-1]}
    page = local.get(f"/events/{quote(EVENT)}/rounds/1/tables/{table['number']}", params={"lang": "es"},
                     headers=PAGE)
    assert page.text.count('href="/deals/') == len(texts) and 'href="/matches/navidad-r1-m2"' in page.text
    assert "Resultado de los juegos anotados" in page.text


IDS = {"/events": ['<form id="new-event"', 'name="name"', 'name="kind"', 'name="rules"', 'name="format"',
                   'name="rounds"', 'name="seed"'],
       "/events/{e}": ['<form id="entrants"', '<textarea name="entrants"', 'id="pair-round"', 'href="/events/{e}/rounds/1"',
                       'href="/events/{e}/standings"', 'standings.pdf"'],
       "/events/{e}/rounds/1": ['id="tables"', 'href="/events/{e}/rounds/1/tables/1"', 'rounds/1/sheets.pdf"'],
       "/events/{e}/rounds/1/tables/1": ['<form id="result"', *(f'name="{s}_{f}"' for s in ("home", "away")
                                                                 for f in ("matches", "deals", "points")),
                                         'type="submit"', 'id="saved"', 'id="from-deals"',
                                         'href="/record?event=Torneo+de+Navidad&amp;round=1&amp;table=1"'],
       "/events/{e}/standings": ['<table class="results" id="standings"', 'data-entrant="1"', 'id="tie-breaks"',
                                 'standings.pdf"', 'standings.xlsx"', 'standings.csv"', 'id="crosstable"']}
WORDS = {"es": ["Torneos", "Emparejar la ronda siguiente", "Guardar resultado", "Anotar juego", "Clasificación",
                "Resultado de los juegos anotados"],
         "en": ["Events", "Pair the next round", "Save the result", "Record a deal here", "Standings",
                "Result from the recorded deals"]}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_pages_speak_both_languages_with_the_contracts_ids(local: TestClient, paired: dict[str, Any],
                                                               lang: str) -> None:
    seen = ""
    for path, wanted in IDS.items():
        e = quote(EVENT)
        r = local.get(path.replace("{e}", e), params={"lang": lang}, headers=PAGE)
        assert r.status_code == 200 and f'<html lang="{lang}">' in r.text, path
        for piece in wanted:
            assert piece.replace("{e}", e) in r.text, (path, piece)
        seen += r.text
    for word in WORDS[lang]:
        assert word in seen, word
    assert 'href="/events"' in seen  # the menu
