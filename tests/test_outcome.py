"""The result as the measure (tutepgn.analysis.outcome): the deal's outcome as the score sheet has it, the deal-win
probability's shape and fit, the match chain on hand-computed standings, marks and lichess's accuracy."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path
from types import ModuleType

import pytest

from tutepgn.analysis.outcome import (MARK_NAMES, MARKS, Logistic, MatchModel, deal_outcome, fit_logistic,
                                      game_accuracy, mark_for_loss, move_accuracy, outcome_data, points_left,
                                      tute_outcome, win_probability)
from tutepgn.i18n import gettext as _, speaking
from tutepgn.recording.simulate import simulate_deals
from tutepgn.rules import PRESETS, preset


def _bench() -> ModuleType:
    """bench/calibration.py, the self-play fit (a script, not a package)."""
    path = Path(__file__).resolve().parent.parent / "bench" / "calibration.py"
    spec = importlib.util.spec_from_file_location("calibration", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- The deal's outcome -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(PRESETS))
def test_deal_outcome_agrees_with_the_score_sheet(name: str) -> None:
    r = preset(name)
    seen_tute = seen_tie = False
    for deal in simulate_deals(r, 150, seed=11):
        sheet = deal.score()
        if sheet.tute is not None:
            outcome = tute_outcome(r, sheet.winner or 0, r.match_target, sheet.totals)
            seen_tute = True
            assert outcome.wins_match == sheet.wins_match
        else:
            last = r.side_of(deal.tricks[-1].winner)
            cards_and_last = [c + (r.last_trick_bonus if k == last else 0) for k, c in enumerate(sheet.card_points)]
            earlier = [r.side_of(t.winner) for t in reversed(deal.tricks[:-1])]
            outcome = deal_outcome(r, sheet.totals, cards_and_last, last, earlier)
            seen_tie |= sheet.tie_break
            assert outcome.totals == sheet.totals
        assert (outcome.winner, outcome.doubled, outcome.tute, outcome.match_points) == (
            sheet.winner, sheet.doubled, sheet.tute is not None, sheet.match_points)
    assert seen_tute or seen_tie or r.sides == 2  # the tie rule or the tute path was reached somewhere


def test_a_projected_tie_without_its_last_trick_has_no_winner() -> None:
    r = preset("playcard-2p")
    assert deal_outcome(r, (65, 65), (65, 65), None).winner is None
    assert deal_outcome(r, (65, 65), (65, 65), 1).winner == 1


def test_doubles_and_tutes_score_as_the_ruleset_says() -> None:
    lud = preset("ludoteka-pairs")
    doubled = deal_outcome(lud, (101, 69), (81, 69), 0)
    assert (doubled.winner, doubled.doubled, doubled.match_points) == (0, True, (2, 0))
    tor = preset("torofun-2p")  # the double counts cards and the last ten, not cantes
    assert not deal_outcome(tor, (150, 20), (110, 20), 0).doubled
    assert deal_outcome(tor, (150, 20), (121, 9), 0).match_points == (2, 0)
    assert tute_outcome(lud, 1, 4).wins_match and tute_outcome(lud, 1, 4).match_points == (0, 0)
    assert not tute_outcome(lud, 1, 6).wins_match and tute_outcome(lud, 1, 6).match_points == (0, 2)


def test_points_left_counts_the_cards_and_the_last_ten() -> None:
    deal = next(simulate_deals(preset("torofun-4p"), 1, seed=3))
    fresh = deal.restart()
    assert points_left(fresh) == 130 and points_left(deal) == 0


# -- The deal-win probability -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(PRESETS))
def test_win_probability_is_monotone_bounded_and_even_at_zero(name: str) -> None:
    r = preset(name)
    for left in (0, 10, 40, 80, 130):
        chances = [win_probability(r, m, left) for m in range(-130, 131, 5)]
        assert all(0 < p < 1 for p in chances)
        assert all(a <= b for a, b in zip(chances, chances[1:])) and chances[0] < chances[-1]
        if r.sides == 2:
            assert win_probability(r, 0, left) == pytest.approx(0.5)
            assert win_probability(r, 17, left) == pytest.approx(1 - win_probability(r, -17, left))
    # a lead is surer with fewer points left to win
    assert win_probability(r, 10, 20) > win_probability(r, 10, 120)


def test_a_custom_ruleset_uses_its_presets_fit() -> None:
    custom = preset("torofun-4p").with_options(match_target=3)
    assert win_probability(custom, 12, 50) == win_probability(preset("torofun-4p"), 12, 50)


def test_the_fit_recovers_a_known_curve() -> None:
    rng = random.Random(5)
    grid = [(m, left) for m in range(-60, 61, 3) for left in range(0, 131, 10)]
    for sides, truth in ((2, Logistic(-2.0, -1.0, d=1.5, e=-4.0)), (3, Logistic(-2.0, -1.0, c=-0.7, d=1.5, e=-4.0))):
        samples = []
        for _ in range(6000):
            margin, left = rng.uniform(-60, 60), rng.randrange(0, 131)
            samples.append((margin, left, rng.random() < truth(margin, left)))
        got = fit_logistic(samples, sides)
        assert (got.c == 0) == (sides == 2)
        assert max(abs(got(m, left) - truth(m, left)) for m, left in grid) < 0.05


def test_the_data_file_covers_every_preset() -> None:
    data = outcome_data()
    for name in PRESETS:
        fit = data["win_probability"][name]
        assert all(math.isfinite(fit[k]) for k in "abcde")
        counts = data["deal_outcomes"][name]
        assert counts["plain"] > 0 and min(counts.values()) >= 0
        if preset(name).double_threshold is None:
            assert counts["doubled"] == 0


def test_the_self_play_fit_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    bench = _bench()
    bench.CACHE = tmp_path / "one"  # each fit solves its deals: nothing read from an earlier run
    first = bench.fit(6, names=("playcard-2p",), outcome_deals=0)
    bench.CACHE = tmp_path / "two"
    assert first == bench.fit(6, names=("playcard-2p",), outcome_deals=0)
    assert first["win_probability"]["playcard-2p"]["positions"] > 0
    assert first["deal_outcomes"]["playcard-2p"]["deals"] == 6


def test_the_reliability_table_bins_by_prediction() -> None:
    bench = _bench()
    rows = bench.reliability([0.05, 0.07, 0.55, 0.95, 1.0], [False, True, True, True, True])
    assert rows[0] == (pytest.approx(0.06), 0.5, 2) and rows[5][2] == 1 and rows[9][2] == 2
    assert bench.brier([1.0, 0.0], [True, True]) == 0.5


# -- The match --------------------------------------------------------------------------------------------------

def test_target_one_the_deal_is_the_match() -> None:
    m = MatchModel(1, 2, ((1.0, 1),))
    assert m.win_match((0, 0), 0) == 0.5
    assert m.win_match_with_deal((0, 0), 1, 0.7) == pytest.approx(0.7)
    three = MatchModel(1, 3, ((1.0, 1),))
    assert three.win_match((0, 0, 0), 2) == pytest.approx(1 / 3)
    assert three.win_match_with_deal((0, 0, 0), 0, 0.6) == pytest.approx(0.6)


def test_target_two_by_hand() -> None:
    m = MatchModel(2, 2, ((1.0, 1),))
    # (1,0): win the next deal (1/2), or lose it and play a deciding deal at (1,1) (1/4)
    assert m.win_match((1, 0), 0) == pytest.approx(0.75)
    assert m.win_match((0, 1), 0) == pytest.approx(0.25)
    assert m.win_match_with_deal((0, 0), 0, 0.7) == pytest.approx(0.7 * 0.75 + 0.3 * 0.25)
    doubles = MatchModel(2, 2, ((0.5, 1), (0.5, 2)))
    # half the deals are doubled (2 points: the match). (1,0): win (1/2), or lose a plain deal to (1,1) (1/8):
    # 0.625; (0,1): win a plain deal to (1,1) (1/8) or a doubled one (1/4): 0.375
    assert doubles.win_match((1, 0), 0) == pytest.approx(0.625)
    assert doubles.win_match((0, 1), 0) == pytest.approx(0.375)
    assert doubles.win_match_with_deal((0, 0), 0, 0.8) == pytest.approx(0.8 * (0.5 * 0.625 + 0.5) + 0.2 * 0.5 * 0.375)
    assert doubles.win_match((0, 0), 0) == pytest.approx(0.5)


def test_a_tute_that_wins_the_match_by_hand() -> None:
    m = MatchModel(3, 2, ((0.9, 1), (0.1, None)))
    # (1,2): 1/2 * (0.1 + 0.9 * 1/2); (0,2): 1/2 * (0.1 + 0.9 * 0.275)
    assert m.win_match((1, 2), 0) == pytest.approx(0.275)
    assert m.win_match((0, 2), 0) == pytest.approx(0.17375)
    assert m.win_match((0, 2), 1) == pytest.approx(1 - 0.17375)


def test_absorbing_standings_are_exact() -> None:
    m = MatchModel(3, 2, ((0.9, 1), (0.1, 2)))
    assert m.win_match((3, 1), 0) == 1 and m.win_match((1, 4), 0) == 0
    assert m.win_match_with_deal((3, 1), 0, 0.0) == 1
    three = MatchModel(4, 3, ((1.0, 1),))
    assert sum(three.win_match((1, 2, 3), s) for s in range(3)) == pytest.approx(1)


def test_a_long_match_is_valued_without_deep_recursion() -> None:
    m = MatchModel(80, 2, ((0.7, 1), (0.3, 2)))
    assert m.win_match((0, 0), 1) == pytest.approx(0.5)
    assert 0.5 < m.win_match((10, 0), 0) < m.win_match((20, 0), 0) < 1


def test_a_deal_that_scores_nothing_leaves_the_chain_as_it_was() -> None:
    assert MatchModel(3, 2, ((0.5, 0), (0.5, 1))).win_match((1, 0), 0) == pytest.approx(
        MatchModel(3, 2, ((1.0, 1),)).win_match((1, 0), 0))


def test_match_models_of_the_presets() -> None:
    for name in ("torofun-2p", "torofun-3p", "torofun-4p"):  # target 1: winning the deal wins the match
        r = preset(name)
        model = MatchModel.for_rules(r, r.match_target)
        assert model.win_match_with_deal((0,) * r.sides, 0, 0.8) == pytest.approx(0.8)
    lud = preset("ludoteka-pairs")
    four, six = MatchModel.for_rules(lud, 4), MatchModel.for_rules(lud, 6)
    assert any(pts is None for _q, pts in four.outcomes) and not any(pts is None for _q, pts in six.outcomes)
    assert 0.5 < six.win_match((2, 0), 0) < four.win_match((2, 0), 0) < 1
    undoubled = MatchModel.for_rules(lud.with_options(double_threshold=None), 6)
    assert {pts for _q, pts in undoubled.outcomes} == {1, 2}  # plain 1, a tute 2: no doubles
    with pytest.raises(ValueError):
        four.win_match((0, 0, 0), 0)


# -- Marks and accuracy -----------------------------------------------------------------------------------------

def test_marks_by_lost_deal_win_probability() -> None:
    assert [t for t, _m in MARKS] == sorted((t for t, _m in MARKS), reverse=True)
    assert [mark_for_loss(x) for x in (-0.2, 0.0, 0.049, 0.05, 0.099, 0.1, 0.149, 0.15, 0.9)] == [
        None, None, None, "?!", "?!", "?", "?", "??", "??"]
    with speaking("es"):
        assert [_(MARK_NAMES[m]) for m in ("?!", "?", "??")] == ["imprecisión", "error", "error grave"]


def test_move_accuracy_is_lichess_formula() -> None:
    assert move_accuracy(0.5, 0.5) == 100 and move_accuracy(0.3, 0.6) == 100
    # lichess: 103.1668100711649 * exp(-0.04354415386753951 * loss%) - 3.166924740191411, + 1, clamped
    assert move_accuracy(0.6, 0.5) == pytest.approx(64.5798, abs=1e-3)
    assert move_accuracy(0.7, 0.5) == pytest.approx(41.0168, abs=1e-3)
    assert move_accuracy(1.0, 0.0) == 0


def test_game_accuracy_by_hand() -> None:
    assert game_accuracy([]) is None
    assert game_accuracy([(0.5, 0.5), (0.6, 0.7)]) == 100
    # wins 50, 50, 30: windows of 2 -> deviations 0 and 10 -> weights 0.5 and 10
    a, b = 100.0, move_accuracy(0.5, 0.3)
    weighted = (a * 0.5 + b * 10) / 10.5
    harmonic = 2 / (1 / a + 1 / b)
    assert game_accuracy([(0.5, 0.5), (0.5, 0.3)]) == pytest.approx((weighted + harmonic) / 2)
