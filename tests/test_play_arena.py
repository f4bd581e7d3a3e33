"""The arena: duplicate deals between two bots, the difference and its 95% interval, in worker processes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tutepgn.cli.main import app
from tutepgn.errors import UnknownBot
from tutepgn.engine import Deal
from tutepgn.play.arena import Decisions, Interval, Timed, arena, elo, play_game
from tutepgn.play.bots import PimcBot, bot, seconds_for
from tutepgn.rules import preset

runner = CliRunner()


def test_the_heuristic_bot_beats_random_with_the_interval_clear_of_zero() -> None:
    result = arena(preset("playcard-2p"), "heuristic", "random", 16, seed=1)
    assert len(result.boards) == 16 and result.duplicate
    assert result.points.low > 0 and result.points.clear_of_zero
    assert result.wins.low > 0 and result.elo.low > 0
    swapped = arena(preset("playcard-2p"), "random", "heuristic", 16, seed=1)
    assert swapped.points.high < 0  # the same deals seen from the other bot


def test_the_same_seed_gives_the_same_boards_in_worker_processes() -> None:
    here = arena(preset("ludoteka-pairs"), "greedy", "random", 4, seed=3)
    workers = arena(preset("ludoteka-pairs"), "greedy", "random", 4, seed=3, jobs=2)
    assert here.boards == workers.boards


def test_a_bot_against_itself_on_duplicate_deals_scores_nothing() -> None:
    result = arena(preset("ludoteka-pairs"), "heuristic", "heuristic", 3, seed=2)
    assert all(b.points == 0 and b.score == 0.5 for b in result.boards)  # deterministic: each board's games mirror
    single = arena(preset("ludoteka-pairs"), "heuristic", "heuristic", 3, seed=2, duplicate=False)
    assert any(b.points != 0 for b in single.boards)


def test_interval_and_elo() -> None:
    i = Interval.of([1.0, 3.0])
    assert i.mean == 2 and math.isclose(i.high - i.mean, 1.959964 * 1 / 1, rel_tol=1e-6)
    assert elo(0.5) == 0 and math.isclose(elo(10 / 11), 400) and elo(1.0) == math.inf


def test_refusals() -> None:
    with pytest.raises(UnknownBot):
        arena(preset("playcard-2p"), "heuristic", "minimax", 1)
    with pytest.raises(ValueError, match="two sides"):
        arena(preset("torofun-3p"), "heuristic", "random", 1)


def test_tute_arena_prints_text_and_json() -> None:
    text = runner.invoke(app, ["arena", "heuristic", "random", "--rules", "playcard-2p", "--deals", "3"])
    assert text.exit_code == 0 and "95% CI" in text.output and "Elo" in text.output
    data = runner.invoke(app, ["arena", "greedy", "random", "--rules", "playcard-2p", "--deals", "2", "--json"])
    assert data.exit_code == 0
    parsed = json.loads(data.stdout)
    assert parsed["boards"] == 2 and set(parsed["points"]) == {"mean", "low", "high"}


def test_pimc_bots_by_worlds_give_the_same_plays_and_result_from_a_seed() -> None:
    rules = preset("playcard-2p")
    start = Deal.shuffled(rules, seed=9)
    logs = []
    for _ in range(2):
        first, second = Timed(bot("pimc-2", "worlds")), Timed(bot("heuristic"))
        deal = start.restart()
        play_game(rules, deal, first, second, "same")
        logs.append(deal.log)
        assert first.times and not any(t < 0 for t in first.times)
    assert logs[0] == logs[1]
    here = arena(rules, "pimc-2", "heuristic", 2, seed=1)
    workers = arena(rules, "pimc-2", "heuristic", 2, seed=1, jobs=2)
    assert here.boards == workers.boards and here.budget == "worlds"
    # Pinned: no clock in the play, so these are the figures on any machine (a change to the bots moves them).
    assert [(b.points, b.score) for b in here.boards] == [(25.0, 1.0), (19.0, 0.5)]
    assert bot("pimc-2", "worlds") == PimcBot(2, None) and bot("pimc-2").seconds == seconds_for(2)


def test_time_per_decision_is_measured_for_each_bot() -> None:
    result = arena(preset("playcard-2p"), "pimc-2", "random", 2, seed=3)
    pimc, simple = result.decisions
    assert pimc.count == sum(len(b.times_a) for b in result.boards) > 10 and simple.count > 10
    assert pimc.median is not None and pimc.p90 is not None and 0 <= pimc.median <= pimc.p90
    parsed = json.loads(runner.invoke(app, ["arena", "pimc-2", "random", "--rules", "playcard-2p", "--deals", "1",
                                            "--json"]).stdout)
    assert parsed["budget"] == "worlds" and parsed["seconds_per_decision"]["a"]["decisions"] > 0
    assert Decisions.of([]) == Decisions(0, None, None)
    assert Decisions.of([0.3, 0.1, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]) == Decisions(10, 0.55, 0.9)


def test_tute_arena_stores_and_resumes(tmp_path: Path) -> None:
    db = str(tmp_path / "a.duckdb")
    args = ["arena", "heuristic", "greedy", "--rules", "playcard-2p", "--seed", "4", "--store", db, "--json"]
    first = json.loads(runner.invoke(app, [*args, "--deals", "2"]).stdout)
    again = runner.invoke(app, [*args[:-1], "--deals", "3"])
    assert first["resumed"] == 0 and again.exit_code == 0 and "2 boards read from the store" in again.output
    fresh = json.loads(runner.invoke(app, ["arena", "heuristic", "greedy", "--rules", "playcard-2p", "--seed", "4",
                                           "--deals", "3", "--json"]).stdout)
    resumed = json.loads(runner.invoke(app, [*args, "--deals", "3"]).stdout)
    assert resumed["resumed"] == 3 and resumed["points"] == fresh["points"]
