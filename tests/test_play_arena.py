"""The arena: duplicate deals between two bots, the difference and its 95% interval, in worker processes."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from tutepgn.cli.main import app
from tutepgn.errors import UnknownBot
from tutepgn.play.arena import Interval, arena, elo
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
