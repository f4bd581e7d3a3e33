"""PIMC: sampled worlds agree with what the mover knew; values are seeded; with nothing hidden it is double dummy."""

from __future__ import annotations

import pytest

from tutepgn import Cante, Deal, Exchange, Play, preset
from tutepgn.cards import BIT, SUIT_MASK
from tutepgn.declarations import CANTE_PAIRS
from tutepgn.analysis.pimc import World, knowledge, pimc_values, replays, sample_worlds, starting_deal
from tutepgn.recording.simulate import simulate_deals
from tutepgn.analysis.solve import Position, Solver


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
        assert not world.stock
        world = world.hands
        assert world[me] == deal.hands[me]
        assert [h.bit_count() for h in world] == [h.bit_count() for h in deal.hands]
        assert sum(world) == sum(deal.hands)  # the same cards, dealt otherwise
        assert all(world[s] & info.known[s] == info.known[s] and not world[s] & info.excluded[s]
                   for s in range(len(world)))
        assert replays(deal, World(world))  # every other seat's plays legal in this world


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
            assert not any(world.hands[seat] & SUIT_MASK[suit] for world in sample_worlds(deal, 10, seed=1))
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


def stock_phase(name: str, seed: int) -> Deal:
    """A simulated 2-player deal replayed to a play made while the stock had 2 to 20 cards."""
    return midway(name, seed, 2 * (1 + seed % 10) + seed % 2)


@pytest.mark.parametrize("name", ["playcard-2p", "torofun-2p"])
def test_stock_worlds_place_the_stock_and_replay_from_a_whole_starting_deal(name: str) -> None:
    exchanges = cantes = 0
    for seed in range(24):
        deal = stock_phase(name, seed)
        assert deal.stock_left >= 2
        me, other = deal.turn, 1 - deal.turn
        info = knowledge(deal)
        live = sum(deal.hands) | sum(BIT[c] for c in deal.stock[deal.stock_pos:])
        assert info.bottom == deal.turned and info.in_stock == deal.stock_left - 1
        worlds = sample_worlds(deal, 8, seed=seed)
        assert len(set(worlds)) > 1
        for world in worlds:
            assert world.hands[me] == deal.hands[me] and world.stock[-1] == deal.turned
            assert len(world.stock) == deal.stock_left
            assert world.hands[other].bit_count() == deal.hands[other].bit_count()
            assert world.hands[other] | sum(BIT[c] for c in world.stock) | world.hands[me] == live
            assert world.hands[other] & info.known[other] == info.known[other]
            start = starting_deal(deal, world)  # the hands dealt and the whole stock, the mover's draws as they were
            assert start is not None and start.initial_hands[me] == deal.initial_hands[me]
            assert replays(deal, world)
        exchanges += any(type(a) is Exchange and a.seat == other for a in deal.log)
        cantes += any(type(a) is Cante and a.seat == other for a in deal.log)
    assert exchanges and cantes  # the opponent's declarations were among them


def test_a_world_that_contradicts_the_log_does_not_replay() -> None:
    deal = stock_phase("playcard-2p", 3)
    other = 1 - deal.turn
    played = next(a.card for a in deal.log if type(a) is Play and a.seat == other)
    swapped = World(tuple(deal.hands), (*reversed(deal.stock[deal.stock_pos:-1]), deal.turned))
    assert len(swapped.stock) > 2 and replays(deal, swapped)  # the stock's unseen order is free
    held = max(c for c in range(40) if deal.hands[other] >> c & 1)
    wrong = list(deal.hands)
    wrong[other] = wrong[other] ^ BIT[held] | BIT[played]  # a card the opponent played, still in its hand
    assert not replays(deal, World(tuple(wrong), swapped.stock))


def test_pimc_values_stock_plays_reproducibly() -> None:
    deal = stock_phase("playcard-2p", 9)
    assert deal.stock_left == 4 and deal.trick
    values = pimc_values(deal, 6, seed=2)
    assert values == pimc_values(deal, 6, seed=2)
    assert sorted(v.card for v in values) == sorted(deal.legal_plays()) == list(deal.legal_plays())
    assert all(0 <= v.mean <= Position.from_deal(deal).bound() for v in values)
