"""A club's pages and their JSON (issue 16, items 9 and 12): a match, a player, the statistics, the rules, and
pasted records on the board; the real app over a real DuckDB archive of the samples' matches."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
import pytest
from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.notation import read_record
from tutepgn.check.replay import frame_data, frames
from tutepgn.rules import PRESETS, display_name, option_rows, preset
from tutepgn.rules_text import told as told_rules
from tutepgn.sources import decisions_for

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
MATCH = "SanJose2025-R3-M2"
"""samples/ludoteka-match.tpgn: five deals, NS reaching the target of 4 on the fifth."""
PAGE = {"Accept": "text/html"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("club") / "archive.duckdb"
    with Archive(db) as archive:
        archive.import_sources([SAMPLES / "ludoteka-match.tpgn", SAMPLES / "tutes.tpgn",
                                *sorted((SAMPLES / "simulated").glob("*-3-matches.tpgn"))])
    app = create_app(Settings(db=db))
    with TestClient(app) as c:
        yield c
    app.state.archive.close()


@pytest.fixture(autouse=True)
def english(client: TestClient) -> None:
    """Each test starts without the language cookie a ``?lang=es`` of another test leaves."""
    client.cookies.clear()


def _first_record() -> str:
    text = (SAMPLES / "ludoteka-match.tpgn").read_text(encoding="utf-8")
    return text[:text.index("\n\n[Event") + 1]


def test_a_match_is_told_deal_by_deal_to_its_winner(client: TestClient) -> None:
    [match] = client.get(f"/api/v1/matches/{MATCH}").json()
    assert match["target"] == 4 and match["sides"] == ["NS", "WE"]
    assert [d["summary"]["deal_no"] for d in match["deals"]] == [1, 2, 3, 4, 5]
    assert [d["standing"] for d in match["deals"]] == [[1, 0], [1, 1], [1, 2], [2, 2], [4, 2]]
    assert [d["decides"] for d in match["deals"]] == [False, False, False, False, True]
    assert match["winner"] == "NS" and match["standing"] == [4, 2]
    assert match["winner_players"] == [match["seats"]["N"], match["seats"]["S"]]
    # The standing before each deal is what its MatchScore tag says (the validator checks they agree).
    for before, deal in zip(match["deals"], match["deals"][1:]):
        assert all(d["summary"]["valid"] for d in (before, deal))


def test_two_matches_under_one_id_are_told_apart(client: TestClient) -> None:
    told = client.get("/api/v1/matches/sim-2025-1").json()
    assert sorted(m["rules"] for m in told) == ["ludoteka-pairs", "playcard-2p"]
    for match in told:
        assert all(d["summary"]["rules"] == match["rules"] for d in match["deals"])
        assert len(match["sides"]) == len(match["standing"])
        assert sum(d["decides"] for d in match["deals"]) == 1 and match["deals"][-1]["decides"]
        assert max(match["standing"]) >= match["target"]


def test_the_match_page_and_the_deciding_deal_show_the_result(client: TestClient) -> None:
    [match] = client.get(f"/api/v1/matches/{MATCH}").json()
    page = client.get(f"/matches/{MATCH}", headers=PAGE)
    assert page.status_code == 200
    assert "NS wins the match NS 4 · WE 2" in page.text
    assert all(f'href="/deals/{d["summary"]["id"]}"' in page.text for d in match["deals"])
    first, last = match["deals"][0]["summary"]["id"], match["deals"][-1]["summary"]["id"]
    deciding = client.get(f"/deals/{last}", headers=PAGE).text
    assert 'id="match-result"' in deciding and "This deal decides the match: NS wins it, NS 4 · WE 2" in deciding
    assert 'id="next-deal"' not in deciding and f'href="/deals/{match["deals"][3]["summary"]["id"]}"' in deciding
    opening = client.get(f"/deals/{first}", headers=PAGE).text
    assert 'id="match-result"' not in opening and 'id="previous-deal"' not in opening
    assert f'id="next-deal" href="/deals/{match["deals"][1]["summary"]["id"]}"' in opening
    assert 'href="/players/Elena%20Prieto"' in opening
    spanish = client.get(f"/deals/{last}?lang=es", headers=PAGE).text
    assert "Este juego decide la partida: la gana NS" in spanish


def test_a_deal_without_a_match_has_no_match_bar(client: TestClient) -> None:
    deal = client.get("/api/v1/deals", params={"event": "Tute a Tres"}).json()["items"][0]
    assert deal["match"] is None
    page = client.get(f"/deals/{deal['id']}", headers=PAGE).text
    assert 'id="deal-match"' not in page and 'id="deal-people"' in page


def test_the_search_links_each_deal_to_its_match_and_its_players(client: TestClient) -> None:
    page = client.get("/", params={"match": MATCH}, headers=PAGE).text
    assert page.count(f'href="/matches/{MATCH}"') == 5 and 'href="/players/Hugo%20Benavides"' in page
    spanish = client.get("/", params={"player": "elena", "lang": "es"}, headers=PAGE)
    assert spanish.status_code == 200 and 'id="search-error"' not in spanish.text  # ?lang= is no filter
    assert client.get("/api/v1/deals", params={"player": "elena", "lang": "es"}).status_code == 200


def test_a_player_page_counts_as_the_statistics_do(client: TestClient) -> None:
    name = "Elena Prieto"
    player = client.get(f"/api/v1/players/{name}").json()
    counted = next(p for p in client.get("/api/v1/stats", params={"player": name}).json()["players"]
                   if p["player"] == name)
    assert (player["deals"], player["wins"]) == (counted["deals"], counted["wins"]) == (5, 3)
    assert player["losses"] == 2 and player["unfinished"] == 0
    assert sum(player["cantes"].values()) <= counted["cantes"]  # sung suits, of which the accepted cantes
    assert [p["name"] for p in player["partners"]] == ["Hugo Benavides"]
    assert {p["name"] for p in player["opponents"]} == {"Gloria Sastre", "Manuel Ortega"}
    assert [d["summary"]["deal_no"] for d in player["recent"]] == [5, 4, 3, 2, 1]
    assert [d["won"] for d in player["recent"]] == [True, True, False, False, True]
    page = client.get(f"/players/{name}", headers=PAGE)
    assert page.status_code == 200 and page.text.count('href="/matches/') == 5
    assert 'href="/players/Hugo%20Benavides"' in page.text
    missing = client.get("/players/Nobody", headers=PAGE)
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")


def test_the_stats_page_shows_the_stats_of_the_search_filters(client: TestClient) -> None:
    stats = client.get("/api/v1/stats", params={"rules": "ludoteka"}).json()
    page = client.get("/stats", params={"rules": "ludoteka"}, headers=PAGE).text
    deals = re.search(r'<tr><th>deals</th><td class="num">(\d+)</td>', page)
    assert deals and int(deals.group(1)) == stats["totals"]["deals"] > 0
    assert all('href="/players/' in page for _ in stats["players"][:1])
    assert 'value="ludoteka"' in page and "rules = ludoteka-pairs" in page
    for key, said in (("cuarenta_sung", "won by the side that sang las cuarenta"),
                      ("cuarenta_dealt", "won by the side dealt las cuarenta, sung or not")):
        row = re.search(rf'<tr id="stats-{key.replace("_", "-")}"><th>([^<]*)</th><td class="num">(\d+) / (\d+) ', page)
        assert row and row.groups() == (said, str(stats[key]["won"]), str(stats[key]["deals"])), key
    assert stats["cuarenta_sung"]["deals"] > 0
    wrong = client.get("/stats", params={"min_points": "many"}, headers=PAGE).text
    assert 'id="stats-error"' in wrong
    assert "Estadísticas" in client.get("/stats?lang=es", headers=PAGE).text


def test_the_rules_pages_tell_each_preset_by_its_name_with_the_options_folded(client: TestClient) -> None:
    index = client.get("/rules", headers=PAGE).text
    for name in PRESETS:
        assert f'href="/rules/{name}"' in index and display_name(name) in index
        page = client.get(f"/rules/{name}", headers=PAGE).text
        told, fold = page.split('<details class="technical"')
        assert f"<h1>{display_name(name)}</h1>" in told
        assert all(sentence.text.replace("'", "&#39;") in told for section in told_rules(preset(name))
                   for sentence in section.sentences)
        for decision in decisions_for(preset(name)):
            assert decision.plain.replace("'", "&#39;") in told and decision.statement.replace("'", "&#39;") in fold
        assert all(f'data-option="{row["option"]}"' in fold and f'data-option="{row["option"]}"' not in told
                   for row in option_rows(preset(name)))
    spanish = client.get("/rules/tute a tres?lang=es", headers=PAGE)
    assert spanish.status_code == 200 and "<h1>Tute a tres</h1>" in spanish.text and "Detalles técnicos" in spanish.text
    assert client.get("/rules/parejas", headers=PAGE).status_code == 404  # two presets are played in pairs


def test_pasted_records_come_with_their_boards(client: TestClient) -> None:
    good = _first_record()
    tampered = good.replace("4. E 3B 2B 4O 1B", "4. E 3B 4O 2B 1B")
    broken = good.replace("4. E 3B 2B 4O 1B", "4. E 3B 2B 4O 1Z").replace('[Match "', '[Match "Broken-')
    text = tampered + "\n" + broken
    answer = client.post("/api/v1/replay", content=text).json()
    validated = client.post("/api/v1/validate", content=text).json()
    assert answer["reports"] == validated["reports"]  # the same reports as /validate gives
    first, second = answer["boards"]
    expected = json.loads(json.dumps([frame_data(f) for f in frames(read_record(tampered))]))
    assert first["frames"] == expected and first["error"] is None
    assert first["seats"]["N"] == "Elena Prieto"
    findings = answer["reports"][0]["findings"]
    assert len(first["findings"]) == len(findings)
    for finding, index in zip(findings, first["findings"]):
        if finding["code"] == "not_held":  # an illegal play: its own frame
            shown = first["frames"][index]
            assert shown["illegal"] and shown["text"].endswith(finding["event"]) and shown["trick_no"] == 4
        if finding["code"] == "score_mismatch":
            assert index is None  # about the record as a whole
    # The syntax error of the second record leaves it without a board, and the first with its own.
    assert second["frames"] == [] and "syntax" in second["error"]
    assert second["findings"] == [None] * len(answer["reports"][1]["findings"])
