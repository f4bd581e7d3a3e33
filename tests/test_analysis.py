"""The analysis of played deals: per play values, costs and marks, par, and the identity that ties them."""

from __future__ import annotations

import pytest

from tutepgn import Play, preset
from tutepgn.analysis import MARKS, analyse, mark
from tutepgn.simulate import simulate_deals
from tutepgn.solver import C_AVAILABLE

BACKENDS = ["python", "c"] if C_AVAILABLE else ["python"]


def finished(name: str, count: int, seed: int) -> list:
    """Simulated deals played to the last trick (a tute ends a deal before the values' end)."""
    return [d for d in simulate_deals(preset(name), count, seed=seed) if d.tute_event is None]


def test_marks_come_from_one_table() -> None:
    assert [mark(c) for c in (0, 2, 3, 9, 10, 19, 20, 60)] == [None, None, "?!", "?!", "?", "?", "??", "??"]
    assert [text for _, text in MARKS] == ["??", "?", "?!"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_players_identity_and_per_play_facts(backend: str) -> None:
    deals = finished("playcard-2p", 8, seed=3) + finished("torofun-2p", 8, seed=4)
    assert len(deals) >= 10
    for deal in deals:
        analysis = analyse(deal, backend=backend)
        assert analysis.identity_holds()
        assert len(analysis.plays) == 16  # the 8 tricks after the stock, every card
        replayed = deal.restart()
        by_index = {p.index: p for p in analysis.plays}
        for index, action in enumerate(deal.log):
            p = by_index.get(index)
            if p is not None:
                assert type(action) is Play and (p.seat, p.card) == (action.seat, action.card)
                legal = sorted(replayed.legal_plays())
                assert sorted(c for v in p.values for c in v.cards) == legal
                assert p.value_before == max(v.value for v in p.values)
                assert p.cost >= 0 and (p.cost == 0) == (p.card in p.best)
                assert p.mark == mark(p.cost) and p.trick == len(replayed.tricks) + 1
            replayed.apply(action)


@pytest.mark.skipif(not C_AVAILABLE, reason="whole 4-player deals need the C core to be quick")
def test_four_players_identity_and_seat_costs() -> None:
    for name in ("torofun-4p", "ludoteka-pairs"):
        for deal in finished(name, 3, seed=21):
            analysis = analyse(deal)
            assert analysis.identity_holds()
            assert len(analysis.plays) == 40
            assert analysis.par[0] + analysis.par[1] == 130 == sum(analysis.actual)
            for seat in range(4):
                assert analysis.costs[seat] == sum(p.cost for p in analysis.plays if p.seat == seat)
            assert analysis.actual_minus_par[0] == analysis.side_costs(1) - analysis.side_costs(0)


def test_cantes_only_add_to_a_sides_par() -> None:
    for deal in finished("playcard-2p", 6, seed=8):
        plain, sung = analyse(deal), analyse(deal, cantes=True)
        assert all(s >= p for s, p in zip(sung.par, plain.par))
        assert all(p.cost >= 0 for p in sung.plays)
        with pytest.raises(ValueError, match="two sides without cantes"):
            sung.identity_holds()


@pytest.mark.skipif(not C_AVAILABLE, reason="whole 3-player deals need the C core to be quick")
def test_three_players_each_seat_against_the_others() -> None:
    deal = finished("torofun-3p", 3, seed=5)[0]
    analysis = analyse(deal)
    assert len(analysis.par) == 3 and len(analysis.plays) == 36
    assert all(p.cost >= 0 for p in analysis.plays)
    with pytest.raises(ValueError):
        analysis.identity_holds()
