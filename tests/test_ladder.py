"""The ladder of levels: stored arena boards read back in order of strength, each step with its interval, and the
``/ladder`` page of a real ``tute serve`` over a DuckDB file the arena wrote."""

from __future__ import annotations

import os
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from served import tute_serve
from tutepgn.archive import Archive
from tutepgn.archive.arena_boards import ArenaStore, StoredBoard, arena_boards
from tutepgn.cli.main import app
from tutepgn.play.arena import arena
from tutepgn.play.ladder import ladder, ladders, place
from tutepgn.rules import preset


def board(a: str, b: str, points: float, score: float, *, rules: str = "playcard-2p", n: int = 0,
          seconds: float = 0.01) -> StoredBoard:
    return StoredBoard(a, b, rules, 1, True, "worlds", n, points, score, [seconds, 2 * seconds], [seconds])


def test_the_levels_are_put_in_order_and_each_step_measured_against_the_one_below() -> None:
    boards = [board("pimc-5", "heuristic", 10 + n, 0.75, n=n) for n in range(4)]
    boards += [board("random", "heuristic", -60 - n, 0.0, n=n) for n in range(4)]  # stored the other way round
    boards += [board("pimc-10", "pimc-5", (-1) ** n * 5, 0.5, n=n) for n in range(4)]
    found = ladder("playcard-2p", "worlds", boards)
    assert [r.bot for r in found.rungs] == ["random", "heuristic", "pimc-5", "pimc-10"]
    assert [r.level for r in found.rungs] == [1, 3, 4, None]  # pimc-10 is no level
    up, pimc5, pimc10 = found.steps
    assert up is not None and (up.upper, up.lower, up.boards) == ("heuristic", "random", 4)
    assert up.points.mean == pytest.approx(61.5) and up.wins.mean == 1 and up.apart  # turned round
    assert pimc5 is not None and pimc5.apart and not pimc5.inverted and pimc5.wins.mean == pytest.approx(0.5)
    assert pimc10 is not None and not pimc10.apart and found.merged == [("pimc-5", "pimc-10")]
    assert found.others == ()
    assert found.rungs[2].decisions.count == 2 * 4 + 4  # as A against heuristic (2 a board), as B against pimc-10


def test_a_gap_is_not_measured_and_other_pairs_are_listed() -> None:
    boards = [board("heuristic", "random", 50, 1.0, n=n) for n in range(3)]
    boards += [board("pimc-40w", "heuristic", -20 - n, 0.2, n=n) for n in range(3)]
    found = ladder("playcard-2p", "worlds", boards)
    assert [r.bot for r in found.rungs] == ["random", "heuristic", "pimc-40w"] and found.others == ()
    assert found.steps[1] is not None and found.steps[1].inverted  # measurably weaker than the one below
    boards += [board("greedy", "random", 1, 0.5, n=n) for n in range(3)]
    found = ladder("playcard-2p", "worlds", boards)
    assert [r.bot for r in found.rungs] == ["random", "greedy", "heuristic", "pimc-40w"]
    assert found.steps[1] is None  # heuristic against greedy: not played
    assert [(s.upper, s.lower) for s in found.others] == [("heuristic", "random")]


def test_ladders_per_ruleset_and_budget_of_duplicate_boards_only() -> None:
    boards = [board("heuristic", "random", 50, 1.0), board("heuristic", "random", 40, 1.0, rules="torofun-4p"),
              board("heuristic", "random", 40, 1.0, rules="torofun-4p")._replace(duplicate=False),
              board("pimc-5", "random", 40, 1.0)._replace(budget="time")]
    assert [(x.rules, x.budget, len(x.rungs)) for x in ladders(boards)] == [
        ("playcard-2p", "time", 2), ("playcard-2p", "worlds", 2), ("torofun-4p", "worlds", 2)]
    assert sorted(["pimc-12", "pimc-40w", "heuristic", "pimc-5", "random", "pimc-40"], key=place) == [
        "random", "heuristic", "pimc-5", "pimc-12", "pimc-40", "pimc-40w"]


def test_the_store_keeps_boards_and_a_run_resumed_plays_only_the_missing_ones(tmp_path: Path) -> None:
    rules = preset("playcard-2p")
    fresh = arena(rules, "heuristic", "greedy", 5, seed=4)
    with Archive(tmp_path / "a.duckdb") as archive:
        store = ArenaStore(archive)
        first = arena(rules, "heuristic", "greedy", 3, seed=4, store=store)
        assert first.resumed == 0 and first.boards == fresh.boards[:3]
        stored = arena_boards(archive)
        assert [(b.bot_a, b.bot_b, b.rules, b.seed, b.duplicate, b.budget, b.board) for b in stored] == [
            ("heuristic", "greedy", "playcard-2p", 4, True, "worlds", n) for n in range(3)]
        assert [(b.points, b.score) for b in stored] == [(b.points, b.score) for b in fresh.boards[:3]]
        assert [len(b.seconds_a) for b in stored] == [len(b.times_a) for b in first.boards] and stored[0].seconds_a
        # A stored board is read, not played again: one altered in the file comes back altered.
        archive.con.execute("UPDATE arena_boards SET points = 999 WHERE board = 1")
        resumed = arena(rules, "heuristic", "greedy", 5, seed=4, store=store)
        assert resumed.resumed == 3 and [b.index for b in resumed.boards] == list(range(5))
        assert resumed.boards[1].points == 999 and resumed.boards[3:] == fresh.boards[3:]
        assert len(arena_boards(archive)) == 5 and len(arena_boards(archive, "torofun-4p")) == 0
        other = arena(rules, "heuristic", "greedy", 2, seed=5, store=store)  # another seed: other boards
        assert other.resumed == 0 and len(arena_boards(archive)) == 7


def test_an_archive_without_the_table_has_no_boards(tmp_path: Path) -> None:
    with Archive(tmp_path / "a.duckdb") as archive:
        archive.con.execute("DROP TABLE arena_boards")
        assert arena_boards(archive) == [] and ArenaStore(archive).stored(("a", "b", "c", 0, True, "worlds")) == []


def test_the_ladder_page_over_http_in_spanish_and_english(tmp_path: Path) -> None:
    db = tmp_path / "ladder.duckdb"
    runner = CliRunner()
    for a, b in (("heuristic", "random"), ("greedy", "random")):
        done = runner.invoke(app, ["arena", a, b, "--rules", "playcard-2p", "--deals", "6", "--seed", "2",
                                   "--store", str(db)])
        assert done.exit_code == 0, done.output
    env = {**os.environ, "TUTEPGN_DB": str(db)}

    def get(port: int, lang: str) -> str:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/ladder?lang={lang}", headers={"Accept": "text/html"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200
            return str(answer.read().decode("utf-8"))

    with tute_serve([], tmp_path, env) as port:
        spanish, english = get(port, "es"), get(port, "en")
    assert 'id="ladder-playcard-2p-worlds"' in english and "viewport" in english
    assert english.index("<code>random</code>") < english.index("<code>greedy</code>") < english.index(
        "<code>heuristic</code>")
    assert "The bots&#39; ladder" in english or "The bots' ladder" in english
    assert "Escalera de los bots" in spanish and "puntos por juego" in spanish and "hide-sm" in spanish
