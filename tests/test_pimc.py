"""PIMC: sampled worlds agree with what the mover knew; values are seeded; with nothing hidden it is double dummy."""

from __future__ import annotations

import pytest

from tutepgn import Deal, Play, preset
from tutepgn.cards import BIT, SUIT_MASK
from tutepgn.declarations import CANTE_PAIRS
from tutepgn.pimc import knowledge, pimc_values, replays, sample_worlds
from tutepgn.simulate import simulate_deals
from tutepgn.solver import Position, Solver


def midway(name: str, seed: int, plays: int) -> Deal:
    """A simulated deal replayed up to its ``plays``-th card."""
    full = next(d for d in simulate_deals(preset(name), 1, seed=seed))
    deal = full.restart()
    for action in full.log:
        if type(action) is Play and plays == 0:
            break
        plays -= type(action) is Play
        deal.apply(action)
    return deal


@pytest.mark.parametrize(("name", "seed", "plays"), [("torofun-4p", 1, 14), ("ludoteka-pairs", 2, 21),
                                                     ("torofun-3p", 3, 13), ("torofun-4p", 4, 30)])
def test_worlds_agree_with_what_the_mover_knew(name: str, seed: int, plays: int) -> None:
    deal = midway(name, seed, plays)
    info = knowledge(deal)
    me = deal.turn
    for world in sample_worlds(deal, 30, seed=7):
        assert world[me] == deal.hands[me]
        assert [h.bit_count() for h in world] == [h.bit_count() for h in deal.hands]
        assert sum(world) == sum(deal.hands)  # the same cards, dealt otherwise
        assert all(world[s] & info.known[s] == info.known[s] and not world[s] & info.excluded[s]
                   for s in range(len(world)))
        assert replays(deal, world)  # every other seat's plays legal in this world


def test_a_seat_that_did_not_follow_holds_none_of_the_suit() -> None:
    for seed in range(40):
        deal = midway("torofun-4p", seed, 20)
        me = deal.turn
        void = [(t, c) for t in deal.tricks for i, c in enumerate(t.cards)
                if c // 10 != t.cards[0] // 10 and (t.leader + i) % 4 != me]
        if void:
            trick, c = void[0]
            seat = (trick.leader + trick.cards.index(c)) % 4
            suit = trick.cards[0] // 10
            assert knowledge(deal).excluded[seat] == knowledge(deal).unseen & knowledge(deal).excluded[seat]
            assert not any(world[seat] & SUIT_MASK[suit] for world in sample_worlds(deal, 10, seed=1))
            return
    pytest.fail("no seat showed a void in 40 deals")


def test_same_seed_same_values_and_nothing_hidden_is_double_dummy() -> None:
    deal = midway("torofun-4p", 5, 12)
    assert pimc_values(deal, 6, seed=3) == pimc_values(deal, 6, seed=3)
    assert sample_worlds(deal, 6, seed=3) != sample_worlds(deal, 6, seed=4)
    two = midway("playcard-2p", 6, 30)  # the stock is empty: the mover sees every card
    assert not two.stock_left and not knowledge(two).unseen
    exact = {c: v.value for v in Solver().values_of_legal_cards(Position.from_deal(two)) for c in v.cards}
    assert {v.card: (v.mean, v.stderr) for v in pimc_values(two, 5)} == {c: (float(v), 0.0) for c, v in exact.items()}


def test_knowledge_shows_the_turned_card_and_cantes() -> None:
    deal = midway("torofun-4p", 8, 0)
    info = knowledge(deal, (deal.dealer + 1) % 4)
    assert info.known[deal.dealer] == BIT[deal.turned] and not info.unseen & BIT[deal.turned]
    for seed in range(60):
        full = next(d for d in simulate_deals(preset("torofun-4p"), 1, seed=seed))
        deal = full.restart()
        for action in full.log:
            if deal.over or type(action) is Play and any(c.seat != deal.turn for c in deal.cantes):
                break
            deal.apply(action)
        sung = [c for c in deal.cantes if c.seat != deal.turn and deal.hands[c.seat] & CANTE_PAIRS[c.suit]]
        if sung and not deal.over:
            cante = sung[0]
            held = deal.hands[cante.seat] & CANTE_PAIRS[cante.suit]
            assert knowledge(deal).known[cante.seat] & held == held
            return
    pytest.fail("no cante sung with a card of it still held in 60 deals")
