"""The analysis's shortcuts give the values and lines of the plain searches they replace (issue 37)."""

from __future__ import annotations

import pytest

from tutepgn import Play, preset
from tutepgn.analysis.annotate import deal_of
from tutepgn.analysis.deal_analysis import analyse
from tutepgn.analysis.line import best_line, copy_of
from tutepgn.analysis.pimc import SideSolvers, card_values
from tutepgn.analysis.position import Position
from tutepgn.analysis.solve import Backend, Solver
from tutepgn.engine import Deal
from tutepgn.events import Action
from tutepgn.native.layout import PACKED_FIELDS
from tutepgn.notation import tpgn
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


SUNG_OROS = """[Event "Simulated deals"]
[Rules "torofun-4p"]
[Dealer "W"]
[Deal "N:1O 2O 3O 7O 2C 6C 7C 2E 3E 2B W:4O 11O 12O 4C 10C 11C 12C 1E 5E 7E S:5C 4E 6E 10E 11E 5B 6B 7B 10B 11B E:5O 6O 10O 1C 3C 12E 1B 3B 4B 12B"]
[Trump "5E"]

1. S 10E 12E 3E 1E
W 20O
2. W 12O 4E 5O 1O
3. S 6B 1B 2B 5E
W 20C
4. W 7E 11E 12B 2E
5. S 10B 3B 2C 11O
6. E 1C 6C 12C 5C
7. E 10O 3O 4O 6E
8. S 11B 4B 7C 4C
9. S 7B 3C 2O 11C
10. S 5B 6O 7O 10C
*
"""
"""A deal of ``analyse_jobs.py``'s set (seed 2037, the 30th): with oros sung, the C table read the cante state
as a ranked shape's points (its flag was the cante state's first bit), and the analysis stopped on a best line
whose value no card kept."""


def test_the_analysis_of_a_deal_with_oros_sung_values_every_play_exactly() -> None:
    """Each play's value is a fresh solver's, with the tables kept across the deal as the analysis keeps them."""
    deal = deal_of(tpgn.loads(SUNG_OROS)[0])
    analysis = analyse(deal, pimc=0, backend="c")
    replayed = deal.restart()
    plays = iter(p for p in analysis.plays if p.double_dummy)
    for action in deal.log:
        if type(action) is Play and not replayed.over:
            p = next(plays)
            fresh = Solver("c").values_of_legal_cards(Position.from_deal(replayed, action.seat, cantes=True))
            assert tuple(p.values or ()) == tuple(fresh), (p.index, p.values, fresh)
        replayed.apply(action)


@pytest.mark.parametrize("backend", ["c", "python"])
def test_a_table_kept_across_deals_with_cantes_gives_sound_bounds(backend: Backend) -> None:
    """Null-window searches on one table per side, kept across the positions of deals with cantes (oros among the
    cantes sung), each card first as the analysis searches them: every fail-soft bound on the right side of a
    fresh solver's exact value."""
    deals = [deal_of(tpgn.loads(SUNG_OROS)[0]), *simulate_deals(preset("torofun-4p"), 3, seed=5)]
    first = 8 if backend == "c" else 28  # cards played before the positions searched (the Python search is slower)
    tables = SideSolvers(backend)
    sung_oros = 0
    for whole in deals:
        replayed = whole.restart()
        for i, action in enumerate(whole.log):
            if type(action) is Play and not replayed.over and 4 * len(replayed.tricks) >= first:
                for seat in (replayed.turn, (replayed.turn + 1) % replayed.rules.players):
                    position = Position.from_deal(replayed, seat, cantes=True)
                    sung_oros += position.packed()[PACKED_FIELDS.index("sung")] & 1  # the suits sung: oros
                    solver = tables[position.side]
                    for group in Solver(backend).values_of_legal_cards(position):
                        for alpha in (group.value - 9, group.value - 1, group.value, group.value + 5):
                            v = solver.search(position, alpha, alpha + 1, group.cards[0])
                            assert (v <= group.value if v > alpha else v >= group.value), (i, seat, alpha, v, group)
            replayed.apply(action)
    assert sung_oros  # the positions that once went wrong are among those searched
