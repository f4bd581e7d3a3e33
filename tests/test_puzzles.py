"""Puzzles from a player's own mistakes (issue 33, item 6): the library against the stored analyses it reads, the
API over the real app (the list never carries an answer), and ``tute puzzles`` answered in a real terminal.

The archive is built as a club would build it: ``tute import`` of a sample, then ``tute archive analyse``.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tutepgn.api.app import Settings, create_app
from tutepgn.archive import Archive
from tutepgn.archive.puzzles import (THRESHOLDS, Puzzle, best_cards, card_loss, check_answer, measured, puzzle,
                                     puzzles)
from tutepgn.cards import card_code
from tutepgn.check.moment import Moment
from tutepgn.errors import IllegalPlay, NotAnalysed, UnknownPlayer, UnknownPuzzle
from tutepgn.events import Play
from tutepgn.notation import parse_record

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "simulated" / "playcard-2p-50-deals.tpgn"
"""50 two-player deals (quick to analyse); Inés plays 17 of them, at N and at S."""
PLAYER = "Inés"
TUTE = [sys.executable, "-m", "tutepgn.cli"]
ANSWER_KEYS = ("best", "played", "best_line", "answer", "by")
"""Keys of an answer that a puzzle's list must never carry."""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample imported and analysed by the commands a club runs (2 PIMC worlds a decision: quick, and every
play still gets its deal-win loss)."""
    path = tmp_path_factory.mktemp("puzzles") / "archive.duckdb"
    for args in (["import", str(SAMPLE)], ["archive", "analyse", "--jobs", "1", "--pimc", "2"]):
        done = subprocess.run([*TUTE, *args, "--db", str(path)], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    return path


@pytest.fixture(scope="module")
def archive(db: Path) -> Iterator[Archive]:
    with Archive(db, read_only=True) as opened:
        yield opened


def stored_mistakes(archive: Archive, name: str) -> list[tuple[float, int, int, dict[str, Any], str]]:
    """The oracle: every play of ``name`` whose stored ``loss`` (deal-win probability lost, as the mover could
    know it: every play of a version 2 analysis has one) reaches the threshold, read straight from the tables
    (loss, deal, index, the play, the record's text), the costliest first."""
    found = []
    rows = archive.con.execute("SELECT a.deal_id, a.analysis, d.text, d.north, d.west, d.south, d.east FROM analyses a "
                               "JOIN deals d ON d.id = a.deal_id WHERE a.error IS NULL").fetchall()
    for deal_id, text, record, *names in rows:
        analysis = json.loads(text)
        held = {seat for seat, n in zip("NWSE", names) if n == name}
        for play in analysis["plays"]:
            if analysis["seats"][play["seat"]] in held and (play["loss"] or 0) >= THRESHOLDS["loss"]:
                found.append((play["loss"], deal_id, play["index"], play, record))
    return sorted(found, key=lambda f: (-f[0], f[1], f[2]))


def knowable_best(play: dict[str, Any]) -> tuple[list[str], str, dict[str, float]]:
    """The oracle of the answer: the cards of the highest deal-win probability PIMC stored (what the mover could
    know), double dummy's ``best`` only when the position was exact or has no PIMC values; with each card's win."""
    if play["pimc"] and not play["exact"]:
        wins = {v["card"]: v["win"] for v in play["pimc"]}
        return [c for c, w in wins.items() if w >= max(wins.values()) - 1e-9], "pimc", wins
    return play["best"], "double_dummy", {}


def test_puzzles_are_the_players_own_costliest_plays_in_order(db: Path, archive: Archive) -> None:
    expected = stored_mistakes(archive, PLAYER)
    assert len(expected) > 10
    listed = puzzles(archive, PLAYER, limit=10)
    assert [p.id for p in listed] == [f"{deal}-{index}" for _cost, deal, index, _play, _text in expected[:10]]
    assert [p.loss for p in listed] == sorted((p.loss for p in listed), reverse=True)
    assert all(p.measure == "loss" and p.player == PLAYER and p.players[p.seat] == PLAYER for p in listed)
    everything = puzzles(archive, PLAYER, limit=1000)
    assert len(everything) == len(expected)  # none left out, none another player's
    other = puzzles(archive, "Carmen", limit=1000)
    assert other and not {p.id for p in other} & {p.id for p in everything if p.players[p.seat] != "Carmen"}


def test_a_puzzle_shows_the_position_the_player_saw_and_keeps_the_answer_apart(db: Path, archive: Archive) -> None:
    expected = {f"{deal}-{index}": (play, text) for _c, deal, index, play, text in stored_mistakes(archive, PLAYER)}
    for found in puzzles(archive, PLAYER, limit=8):
        play, text = expected[found.id]
        record = parse_record(text)
        deal = record.header().deal()
        for event in record.events[:found.index]:
            deal.apply(event)
        event = record.events[found.index]
        assert type(event) is Play and deal.turn == event.seat == play["seat"]
        assert found.legal == deal.legal_plays().codes() and found.answer.played == card_code(event.card)
        moment = Moment.parse(found.position)
        seat = deal.rules.seat_names.index(found.seat)
        assert moment.hands[seat] == tuple(found.hand) and moment.turn == seat
        assert all(not h and u for s, (h, u) in enumerate(zip(moment.hands, moment.unknown)) if s != seat)
        assert found.frame["position"] == found.position and found.frame["to_move"] == found.seat
        assert [list(t) for t in found.table] == [list(t) for t in found.frame["table"]]
        best, by, _wins = knowable_best(play)
        assert (found.answer.best, found.answer.by) == (best, by) and found.measure == "loss"
        assert found.answer.played not in found.answer.best and found.loss == round(play["loss"], 4)
        assert found.answer.best_line == play["best_line"]  # as stored: null before the monte is empty
        shown = found.model_dump(mode="json")
        assert not set(shown) & set(ANSWER_KEYS) and "answer" not in found.model_json_schema()["properties"]
    lines = {p.id: p.answer.best_line for p in puzzles(archive, PLAYER, limit=1000)}
    assert lines == {id_: play["best_line"] for id_, (play, _text) in expected.items()}
    stored = [line for line in lines.values() if line]
    assert stored and all(re.fullmatch(r"[NS] \S+", step) for line in stored for step in line)  # "N 6E", as stored


def test_ids_are_stable_and_name_the_same_puzzle(archive: Archive) -> None:
    first = puzzles(archive, PLAYER, limit=5)
    assert [p.id for p in first] == [p.id for p in puzzles(archive, PLAYER, limit=5)]
    for listed in first:
        again = puzzle(archive, listed.id)
        assert again.model_dump() == listed.model_dump() and again.answer == listed.answer
        assert listed.id == f"{listed.deal_id}-{listed.index}"


def test_check_answer_judges_every_legal_card(db: Path, archive: Archive) -> None:
    found = puzzles(archive, PLAYER, limit=1)[0]
    play = next(p for _c, _d, _i, p, _t in stored_mistakes(archive, PLAYER) if _d == found.deal_id and _i == found.index)
    best, by, wins = knowable_best(play)
    assert by == "pimc" and len(best) < len(found.legal)  # judged as the player could know it, not a cartas vistas
    for card in found.legal:
        verdict = check_answer(archive, found.id, card)
        assert verdict.correct == (card in best) and verdict.best == best and verdict.by == "pimc"
        assert verdict.played == found.answer.played and verdict.loss == round(play["loss"], 4)
        assert verdict.card_loss == pytest.approx(max(wins.values()) - wins[card], abs=1e-4)
        assert (card in verdict.explanation) and (found.answer.played in verdict.explanation)
    assert not check_answer(archive, found.id, found.answer.played).correct
    assert check_answer(archive, found.id, found.answer.best[0].lower()).correct  # 12c reads as 12C


def test_check_answer_refuses_what_is_not_a_legal_card_or_a_puzzle(archive: Archive) -> None:
    found = puzzles(archive, PLAYER, limit=1)[0]
    held = set(found.hand)
    outside = next(c for c in ("1O", "3O", "1C", "3C", "1E", "3E", "1B", "3B") if c not in held)
    with pytest.raises(IllegalPlay) as refused:
        check_answer(archive, found.id, outside)
    assert refused.value.rule == "not_held"
    with pytest.raises(ValueError, match="not a card code"):
        check_answer(archive, found.id, "13O")
    text = archive.con.execute("SELECT analysis FROM analyses WHERE deal_id = ?", [found.deal_id]).fetchone()[0]  # type: ignore[index]
    slight = next(p["index"] for p in json.loads(text)["plays"] if (p["loss"] or 0) < THRESHOLDS["loss"])
    for wrong in ("nonsense", "12-", f"{found.deal_id}-{slight}", f"{found.deal_id}-999", "1-1", f"{2**64}-3"):
        with pytest.raises(UnknownPuzzle):
            puzzle(archive, wrong)


def test_a_player_without_analyses_or_deals_is_told_why(tmp_path: Path, archive: Archive) -> None:
    with Archive(tmp_path / "fresh.duckdb") as fresh:
        fresh.import_sources([SAMPLE])
        with pytest.raises(NotAnalysed, match="tute archive analyse"):
            puzzles(fresh, PLAYER)
    with pytest.raises(UnknownPlayer):
        puzzles(archive, "Nobody At All")


V2_PLAY = {"index": 5, "seat": 0, "card": "1O", "exact": False, "best": ["3O"], "cost": 11, "pimc_cost": 2.5,
           "loss": 0.2, "values": [{"cards": ["3O"], "value": 40}, {"cards": ["1O"], "value": 29},
                                   {"cards": ["4C"], "value": 30}],
           "pimc": [{"card": "1O", "mean": 30.0, "stderr": 1.0, "win": 0.4},
                    {"card": "4C", "mean": 32.5, "stderr": 1.0, "win": 0.6},
                    {"card": "3O", "mean": 32.0, "stderr": 1.0, "win": 0.55}],
           "best_line": ["4C", "3C", "N:40"]}


def test_version_2_keys_are_read_first_and_pimc_chooses_the_best() -> None:
    assert measured(V2_PLAY) == ("loss", 0.2)
    assert measured({**V2_PLAY, "loss": None}) == ("pimc_cost", 2.5)
    assert measured({"cost": None, "pimc_cost": None}) is None
    assert best_cards(V2_PLAY, "loss") == (["4C"], "pimc")  # by deal-win probability, not by double dummy's 3O
    assert best_cards(V2_PLAY, "pimc_cost") == (["4C"], "pimc")
    assert best_cards({**V2_PLAY, "exact": True}, "loss") == (["3O"], "double_dummy")
    assert card_loss(V2_PLAY, "loss", "1O") == pytest.approx(0.2)
    assert card_loss(V2_PLAY, "pimc_cost", "1O") == pytest.approx(2.5)
    assert card_loss(V2_PLAY, "cost", "4C") == 10
    assert card_loss({**V2_PLAY, "pimc": None}, "loss", "4C") is None  # points say no probability


def test_a_stored_version_2_analysis_ranks_by_loss_and_gives_its_best_line(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "v2.duckdb"
    copy.write_bytes(db.read_bytes())
    with Archive(copy) as archive:
        listed = puzzles(archive, PLAYER, limit=1000)
        top, target = listed[0], listed[-1]  # the least costly: a greater loss must lift it to the top
        assert target.loss < top.loss
        deal_id, text = archive.con.execute("SELECT deal_id, analysis FROM analyses WHERE deal_id = ?",
                                            [target.deal_id]).fetchone()  # type: ignore[misc]
        analysis = json.loads(text)
        play = next(p for p in analysis["plays"] if p["index"] == target.index)
        better = [c for c in target.legal if c != play["card"]][0]
        other = next(s for s in analysis["seats"] if s != target.seat)
        line = [f"{target.seat} {better}", f"{other} 1O", f"{target.seat} 20C"]  # as version 2 writes it
        play.update(loss=top.loss + 0.01, exact=False, best_line=line, pimc=[
            {"card": c, "mean": 10.0, "stderr": 0.5, "win": 0.9 if c == better else 0.6} for c in target.legal])
        archive.con.execute("UPDATE analyses SET analysis = ? WHERE deal_id = ?", [json.dumps(analysis), deal_id])
        first = puzzles(archive, PLAYER, limit=3)[0]
        assert (first.id, first.measure, first.loss) == (target.id, "loss", round(top.loss + 0.01, 4))
        verdict = check_answer(archive, first.id, better)
        assert verdict.correct and verdict.best == [better] and verdict.by == "pimc"
        assert verdict.best_line == line and verdict.card_loss == 0
        assert check_answer(archive, first.id, play["card"]).card_loss == pytest.approx(0.3)


# -- The API ---------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The service over a copy of the archive (DuckDB opens a file once per process, in one configuration)."""
    copy = tmp_path_factory.mktemp("served") / "archive.duckdb"
    copy.write_bytes(db.read_bytes())
    app = create_app(Settings(db=copy, read_only=True))
    with TestClient(app) as c:
        yield c
    app.state.archive.close()


def test_the_list_never_carries_an_answer(client: TestClient, archive: Archive) -> None:
    answer = client.get(f"/api/v1/players/{PLAYER}/puzzles", params={"limit": 6})
    assert answer.status_code == 200
    data = answer.json()
    assert data["player"] == PLAYER and [p["id"] for p in data["puzzles"]] == [
        p.id for p in puzzles(archive, PLAYER, limit=6)]
    for shown in data["puzzles"]:
        assert set(shown) == set(Puzzle.model_fields)
    assert not re.search(r'"(best|played|best_line|answer|by|card_loss|explanation)"', answer.text)
    page = client.get(f"/players/{PLAYER}/puzzles")
    assert page.status_code == 200 and "data-puzzles" in page.text
    assert not re.search(r"&#34;(best|played|best_line|answer)&#34;|\"(best|played|best_line)\":", page.text)


def test_an_answer_is_judged_over_http(client: TestClient, archive: Archive) -> None:
    found = puzzles(archive, PLAYER, limit=1)[0]
    right = client.post(f"/api/v1/puzzles/{found.id}/answer", json={"card": found.answer.best[0]}).json()
    assert right["correct"] and right["best"] == found.answer.best and right["played"] == found.answer.played
    assert right["best_line"] == found.answer.best_line and right["measure"] == "loss" and right["by"] == "pimc"
    wrong = client.post(f"/api/v1/puzzles/{found.id}/answer", json={"card": found.answer.played})
    assert wrong.status_code == 200 and not wrong.json()["correct"]
    spanish = client.post(f"/api/v1/puzzles/{found.id}/answer", params={"lang": "es"},
                          json={"card": found.answer.played}).json()
    assert spanish["explanation"].startswith("No es la mejor")
    client.cookies.clear()


@pytest.mark.parametrize(("method", "url", "body", "status"), [
    ("GET", "/api/v1/players/Nobody/puzzles", None, 404),
    ("GET", f"/api/v1/players/{PLAYER}/puzzles?limit=0", None, 422),
    ("POST", "/api/v1/puzzles/1-1/answer", {"card": "1O"}, 404),
    ("POST", "/api/v1/puzzles/nonsense/answer", {"card": "1O"}, 404),
    ("POST", "/api/v1/puzzles/{id}/answer", {"card": "13O"}, 422),
    ("POST", "/api/v1/puzzles/{id}/answer", {"card": "{outside}"}, 422),
    ("POST", "/api/v1/puzzles/{id}/answer", {}, 422),
])
def test_errors_are_problems(client: TestClient, archive: Archive, method: str, url: str,
                             body: dict[str, str] | None, status: int) -> None:
    found = puzzles(archive, PLAYER, limit=1)[0]
    outside = next(c for c in ("1O", "3O", "1C", "3C", "1E", "3E") if c not in found.hand)
    sent = {k: v.format(outside=outside) for k, v in (body or {}).items()}
    answer = client.request(method, url.format(id=found.id), json=sent if body is not None else None)
    assert answer.status_code == status and answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["status"] == status and answer.json()["detail"]


def test_not_analysed_is_a_problem_that_says_what_to_run(tmp_path: Path) -> None:
    with Archive(tmp_path / "fresh.duckdb") as fresh:
        fresh.import_sources([SAMPLE])
    app = create_app(Settings(db=tmp_path / "fresh.duckdb", read_only=True))
    with TestClient(app) as c:
        answer = c.get(f"/api/v1/players/{PLAYER}/puzzles")
    app.state.archive.close()
    assert answer.status_code == 404 and "tute archive analyse" in answer.json()["detail"]


def test_the_routes_are_documented_and_the_player_page_links_the_puzzles(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    listed = paths["/api/v1/players/{name}/puzzles"]["get"]
    assert "best" not in json.dumps(listed["responses"]["200"])  # the list's schema has no answer
    assert "/api/v1/puzzles/{puzzle_id}/answer" in paths
    page = client.get(f"/players/{PLAYER}").text
    assert 'href="/players/In%C3%A9s/puzzles"' in page


# -- The terminal ----------------------------------------------------------------------------------------------

def read_until(master: int, pattern: str, seen: list[str], seconds: float = 60) -> str:
    """What the terminal shows until ``pattern`` appears (all of it kept in ``seen``)."""
    deadline = time.monotonic() + seconds
    while pattern not in "".join(seen):
        ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"{pattern!r} never came: {''.join(seen)[-500:]!r}"
        seen.append(os.read(master, 65536).decode("utf-8", "replace"))
    return "".join(seen)


def test_tute_puzzles_is_answered_in_a_terminal(db: Path, archive: Archive) -> None:
    found = puzzles(archive, PLAYER, limit=2)
    master, slave = pty.openpty()
    proc = subprocess.Popen([*TUTE, "puzzles", PLAYER, "--archive", str(db), "--limit", "2"], stdin=slave,
                            stdout=slave, stderr=slave, env={**os.environ, "COLUMNS": "120"})
    os.close(slave)
    seen: list[str] = []
    try:
        shown = read_until(master, "Your card", seen)
        assert "Puzzle 1 of 2" in shown and " ".join(found[0].legal) in shown
        assert "best" not in shown.lower() and "played" not in shown  # nothing of the answer before the choice
        outside = next(c for c in ("1O", "3O", "1C", "3C", "1E", "3E") if c not in found[0].hand)
        os.write(master, f"{outside}\n".encode())
        read_until(master, "does not hold", seen)
        os.write(master, f"{found[0].answer.best[0]}\n".encode())
        shown = read_until(master, "Enter: next puzzle", seen)
        assert "Right!" in shown and f"The best card: {' '.join(found[0].answer.best)}" in shown
        assert f"you played: {found[0].answer.played}" in shown
        os.write(master, b"\n")
        read_until(master, "Puzzle 2 of 2", seen)
        read_until(master, "Your card", seen)
        os.write(master, f"{found[1].answer.played}\n".encode())
        shown = read_until(master, "Not the best card.", seen)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


def test_tute_puzzles_json_lists_them_without_answers(db: Path, archive: Archive) -> None:
    done = subprocess.run([*TUTE, "puzzles", PLAYER, "--archive", str(db), "--limit", "3", "--format", "json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert [p["id"] for p in listed] == [p.id for p in puzzles(archive, PLAYER, limit=3)]
    assert all(set(p) == set(Puzzle.model_fields) for p in listed)
    assert not re.search(r'"(best|played|best_line)"', done.stdout)
