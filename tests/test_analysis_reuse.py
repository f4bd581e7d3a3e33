"""The analysis's shortcuts give the values and lines of the plain searches they replace (issue 37)."""

from __future__ import annotations

import pytest

from tutepgn import Play, preset
from tutepgn.analysis.line import best_line, copy_of
from tutepgn.analysis.pimc import SideSolvers, card_values
from tutepgn.analysis.position import Position
from tutepgn.analysis.solve import Solver
from tutepgn.engine import Deal
from tutepgn.events import Action
from tutepgn.recording.simulate import simulate_deals


def reference_line(deal: Deal, seat: int, cantes: bool) -> tuple[Action, ...]:
    """The best line as first written: every card group valued exactly at every step, the first best kept."""
    from tutepgn.analysis.line import best_cantes, policy

    line = copy_of(deal)
    rules = line.rules
    side = rules.side_of(seat)
    solver = Solver()
    actions: list[Action] = []
    while not line.over:
        if cantes and not line.trick and line.window_side is not None:
            actions += best_cantes(line, seat, side, solver) if line.window_side == side else policy(line)
        values = solver.values_of_legal_cards(Position.from_deal(line, seat, cantes=cantes))
        best = (max if rules.side_of(line.turn) == side else min)(values, key=lambda v: v.value)
        actions.append(line.apply(Play(line.turn, best.cards[0])))
    return tuple(actions)


def positions(name: str, count: int) -> list[Deal]:
    """Every fourth moment of a few played deals, once the stock is empty."""
    out = []
    for deal in simulate_deals(preset(name), count, seed=11):
        replayed = deal.restart()
        for i, action in enumerate(deal.log):
            if type(action) is Play and not replayed.stock_left and not replayed.over and i % 4 == 0:
                out.append(copy_of(replayed))
            replayed.apply(action)
    return out


@pytest.mark.parametrize("name", ["torofun-4p", "torofun-3p", "playcard-2p"])
def test_lines_values_and_guesses_agree_with_the_plain_searches(name: str) -> None:
    tables = SideSolvers()
    for n, deal in enumerate(positions(name, 2)):
        cantes = n % 2 == 0
        seat = deal.turn if n % 3 else (deal.turn + 1) % deal.rules.players  # some lines valued for the other side
        position = Position.from_deal(deal, seat, cantes=cantes)
        solver = tables[position.side]
        exact = Solver().value(position)
        assert [solver.value_near(position, g) for g in (0, exact - 7, exact, exact + 1, 500)] == [exact] * 5
        assert card_values(solver, position, exact) == tuple(Solver().values_of_legal_cards(position))
        assert best_line(deal, seat, cantes=cantes, solver=solver, value=exact).actions == \
            reference_line(deal, seat, cantes)
