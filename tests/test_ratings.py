"""Ratings of players and pairs (issue 34): reckoned by OpenSkill in a fixed order, stored with the fingerprint of
the matches and reckoned again when a result changes; the command, the JSON, the ranking page and the player's
chart over a real DuckDB archive of the samples' matches."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.archive.ratings import current, fingerprint, load, outcomes, ranking, stored_fingerprint
from tutepgn.cli.main import app as cli
from tutepgn.tournament.ratings import Outcome, rate

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SOURCES = [SAMPLES / "ludoteka-match.tpgn", *sorted((SAMPLES / "simulated").glob("*-3-matches.tpgn"))]
"""The samples' matches: one of four players to 4 (NS wins), three of four players and three of two."""
MATCH = "SanJose2025-R3-M2"
PAGE = {"Accept": "text/html"}


def league(seed: int, players: int = 8, matches: int = 60) -> list[Outcome]:
    """Seeded matches of two players (player 0 always wins) and of two pairs."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    told = []
    for at in range(matches):
        if at % 2:
            a, b, c, d = rng.sample(names, 4)
            sides: tuple[tuple[str, ...], ...] = ((a, b), (c, d))
        else:
            sides = tuple((n,) for n in rng.sample(names, 2))
        places = tuple(0 if "P0" in side else 1 for side in sides)
        if 0 not in places:
            places = (0, 1) if rng.random() < 0.5 else (1, 0)
        told.append(Outcome(f"m{at:03}", f"2026-01-{1 + at % 28:02}", at, sides, places))
    return told


def archive_of(path: Path, sources: list[Path]) -> Archive:
    archive = Archive(path)
    archive.import_sources(sources)
    return archive


# -- The pure ratings ---------------------------------------------------------------------------------------------

def test_the_order_given_does_not_change_the_ratings() -> None:
    told = league(1)
    shuffled = list(told)
    random.Random(2).shuffle(shuffled)
    first, second = rate(told), rate(shuffled)
    assert first.players == second.players and first.pairs == second.pairs and first.history == second.history
    assert first.matches == len(told)


def test_a_player_who_wins_every_match_ranks_first() -> None:
    told = league(3)
    mine = [o for o in told if any("P0" in side for side in o.sides)]
    assert mine and all(o.places[at] == 0 for o in mine for at, side in enumerate(o.sides) if "P0" in side)
    rated = rate(told)
    assert rated.players[0].name == "P0" and rated.players[0].wins == rated.players[0].matches == len(mine)
    assert rated.players[0].ordinal > rated.players[1].ordinal


def test_uncertainty_shrinks_with_more_matches() -> None:
    told = [Outcome(f"m{at}", "2026-02-01", at, (("Ana",), ("Luis",)), (at % 2, 1 - at % 2)) for at in range(12)]
    sigmas = [p.sigma for p in rate(told).history["Ana"]]
    assert len(sigmas) == 12 and all(a > b for a, b in zip(sigmas, sigmas[1:]))
    once = rate(told[:1]).player("Ana")
    many = rate(told).player("Ana")
    assert once is not None and many is not None and many.sigma < once.sigma < 25 / 3


def test_a_pair_has_its_own_rating_and_its_players_as_a_team() -> None:
    told = [Outcome(f"m{at}", None, at, (("Ana", "Luis"), ("Eva", "Teo")), (0, 1)) for at in range(5)]
    told.append(Outcome("solo", None, 99, (("Eva",), ("Ana",)), (0, 1)))  # Eva beats Ana one to one
    rated = rate(told)
    [best, worst] = rated.pairs
    assert best.players == ("Ana", "Luis") and best.matches == best.wins == 5 and worst.wins == 0
    assert best.ordinal > worst.ordinal
    ana, luis = rated.player("Ana"), rated.player("Luis")
    assert ana is not None and luis is not None
    # As a team the pair is its players' ratings; its own rating knows nothing of Ana's single match.
    assert best.team_mu == pytest.approx((ana.mu + luis.mu) / 2)
    assert rate(told[:5]).pairs[0].mu == pytest.approx(best.mu) and rate(told[:5]).player("Ana") != ana


def test_three_sides_are_rated_by_their_places() -> None:
    rated = rate([Outcome("t", "2026-03-01", 1, (("Ana",), ("Eva",), ("Teo",)), (0, 2, 1))])
    assert [p.name for p in rated.players] == ["Ana", "Teo", "Eva"] and rated.pairs == []


# -- Over the archive ---------------------------------------------------------------------------------------------

def test_the_same_archive_twice_gives_the_same_ratings(tmp_path: Path) -> None:
    with archive_of(tmp_path / "a.duckdb", SOURCES) as one, archive_of(tmp_path / "b.duckdb", SOURCES[::-1]) as two:
        assert fingerprint(one) == fingerprint(two)
        first, second = current(one, save=True), current(two, save=True)
        assert ranking(first) == ranking(second) and ranking(first, True) == ranking(second, True)
        assert first.history == second.history and first.matches == second.matches == 7
        stored = load(one)  # read back from the tables: the same numbers
        assert ranking(stored) == ranking(first) and stored.history == first.history and stored.matches == 7


def test_the_samples_matches_are_read_with_their_sides_and_winner(tmp_path: Path) -> None:
    with archive_of(tmp_path / "a.duckdb", SOURCES) as archive:
        told = {(o.match, o.sides): o for o in outcomes(archive)}
    assert len(told) == 7
    club = told[(MATCH, (("Elena Prieto", "Hugo Benavides"), ("Gloria Sastre", "Manuel Ortega")))]
    assert club.places == (0, 1) and club.date == "2025-03-15"
    assert sum(len(o.sides[0]) == 1 for o in told.values()) == 3


def test_a_changed_result_is_seen_and_the_ratings_reckoned_again(tmp_path: Path) -> None:
    sources = [s for s in SOURCES if "ludoteka-pairs" not in s.name]
    with archive_of(tmp_path / "a.duckdb", sources) as archive:
        before = current(archive, save=True)
        assert before.matches == 4
        mark = stored_fingerprint(archive)
        assert mark == fingerprint(archive)
        assert before.player("Elena Prieto").wins == 1  # type: ignore[union-attr]
        # The match's deciding deal corrected: WE took it, and with it the match (WE 4, NS 2).
        archive.con.execute("UPDATE deals SET match_points = [0, 2], winner = 'WE' WHERE match_id = ? AND deal_no = 5",
                            [MATCH])
        assert fingerprint(archive) != mark and stored_fingerprint(archive) == mark  # stale, and seen to be
        after = current(archive, save=True)
        assert stored_fingerprint(archive) == fingerprint(archive) != mark
        elena, gloria = after.player("Elena Prieto"), after.player("Gloria Sastre")
        assert elena is not None and gloria is not None
        assert elena.wins == 0 and gloria.wins == 1 and gloria.ordinal > elena.ordinal
        assert ranking(load(archive)) == ranking(after)
        # Deals outside any match change nothing; a match imported is seen.
        archive.import_sources([SAMPLES / "tutes.tpgn"])
        assert fingerprint(archive) == stored_fingerprint(archive)
        archive.import_sources([SAMPLES / "doubles.tpgn", SAMPLES / "simulated" / "ludoteka-pairs-3-matches.tpgn"])
        assert fingerprint(archive) != stored_fingerprint(archive) and current(archive).matches == 7


def test_a_read_only_archive_reckons_without_storing(tmp_path: Path) -> None:
    path = tmp_path / "a.duckdb"
    archive_of(path, SOURCES).close()
    with Archive(path, read_only=True) as archive:
        assert ranking(current(archive, save=True))[0].matches >= 1 and stored_fingerprint(archive) is None


def test_the_command_prints_the_ranking(tmp_path: Path) -> None:
    path = tmp_path / "a.duckdb"
    archive_of(path, SOURCES).close()
    runner = CliRunner()
    text = runner.invoke(cli, ["ratings", "--db", str(path)])
    assert text.exit_code == 0, text.output
    shown = json.loads(runner.invoke(cli, ["ratings", "--db", str(path), "--json"]).stdout)
    assert shown[0]["rank"] == 1 and shown[0]["name"] in text.stdout and "±" in text.stdout
    assert [r["rating"] for r in shown] == sorted((r["rating"] for r in shown), reverse=True)
    pairs = runner.invoke(cli, ["ratings", "--db", str(path), "--pairs", "--format", "csv"]).stdout.splitlines()
    assert pairs[0] == "rank,name,rating,sigma,mu,matches,wins,team_rating,team_sigma" and len(pairs) == 1 + 8
    with Archive(path) as archive:
        assert stored_fingerprint(archive) == fingerprint(archive)  # the command stored what it reckoned


# -- The service --------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("ratings") / "archive.duckdb"
    archive_of(db, [*SOURCES, SAMPLES / "tutes.tpgn"]).close()
    app = create_app(Settings(db=db))
    with TestClient(app) as c:
        yield c
    app.state.archive.close()


def test_the_api_ranks_players_and_pairs(client: TestClient) -> None:
    players = client.get("/api/v1/ratings").json()
    assert [r["rank"] for r in players] == list(range(1, len(players) + 1)) and len(players) == 13
    assert all(r["rating"] == pytest.approx(r["mu"] - 3 * r["sigma"]) for r in players)
    pairs = client.get("/api/v1/ratings", params={"pairs": "true"}).json()
    assert len(pairs) == 8 and all(len(r["players"]) == 2 and r["team_rating"] is not None for r in pairs)
    assert client.get("/api/v1/ratings", params={"pairs": "maybe"}).status_code == 422


def test_the_ranking_page_in_spanish_and_english(client: TestClient) -> None:
    top = client.get("/api/v1/ratings").json()[0]
    page = client.get("/ratings", headers=PAGE, params={"lang": "es"})
    assert page.status_code == 200 and 'id="ranking"' in page.text
    assert "Clasificación" in page.text and "partidas ganadas" in page.text
    assert f'href="/players/{quote(top["name"])}"' in page.text
    assert f'{top["rating"]:.1f}' in page.text and "viewport" in page.text
    client.cookies.clear()
    english = client.get("/ratings?pairs=true", headers=PAGE).text
    assert "Ratings" in english and "&amp;" in english and 'href="/ratings"' in english


def test_the_player_page_shows_the_rating_and_its_history(client: TestClient) -> None:
    client.cookies.clear()
    [carmen] = [r for r in client.get("/api/v1/ratings").json() if r["name"] == "Carmen"]
    page = client.get("/players/Carmen", headers=PAGE).text
    assert 'id="rating"' in page and f'{carmen["rating"]:.1f}</b> ± {carmen["sigma"]:.1f}' in page
    assert 'id="rating-chart"' in page and page.count("<circle") == carmen["matches"] == 4
    told = client.get("/api/v1/players/Carmen/rating").json()
    assert told["player"] == carmen and len(told["history"]) == 4
    assert told["history"][-1]["rating"] == pytest.approx(carmen["rating"])
    assert [p["date"] for p in told["history"]] == sorted(p["date"] for p in told["history"])
    assert client.get("/api/v1/players/Nobody/rating").status_code == 404
    once = client.get("/players/Diego", headers=PAGE).text  # one match: the rating, no line to draw
    assert 'id="rating"' in once and 'id="rating-chart"' not in once
