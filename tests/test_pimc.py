"""PIMC: sampled worlds agree with what the mover knew; values are seeded; with nothing hidden it is double dummy."""

from __future__ import annotations

import math

import pytest

from tutepgn import Cante, Deal, Exchange, Play, preset
from tutepgn.cards import BIT, SUIT_MASK
from tutepgn.declarations import CANTE_PAIRS
from tutepgn.analysis.pimc import (SEARCH_HORIZON, World, knowledge, mover_knows_all, pimc_analysis, pimc_values,
                                   replays, sample_worlds, starting_deal)
from tutepgn.analysis.worlds import log_likelihood, weighted_worlds
from tutepgn.recording.simulate import simulate_deals, stream_seed
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


PRESETS = ["ludoteka-pairs", "playcard-2p", "torofun-2p", "torofun-3p", "torofun-4p"]


def decision_points(name: str, deals: int, every: int, seed: int = 0) -> list[Deal]:
    """Every ``every``-th play of ``deals`` simulated deals, as the deal stood before it."""
    out: list[Deal] = []
    for full in simulate_deals(preset(name), deals, seed=seed):
        deal = full.restart()
        count = 0
        for action in full.log:
            if type(action) is Play:
                if count % every == seed % every:
                    out.append(replay_to(deal))
                count += 1
            deal.apply(action)
    return out


def replay_to(deal: Deal) -> Deal:
    copy = deal.restart()
    for action in deal.log:
        copy.apply(action)
    return copy


@pytest.mark.parametrize("name", PRESETS)
def test_no_world_contradicts_what_the_mover_saw(name: str) -> None:
    """Checked from the log itself, not from :func:`knowledge`: the mover's hand, the cards played, the cantes
    sung, the voids the duties showed, the turned card; and every action of the log replays in each world."""
    rules = preset(name)
    worlds_seen = 0
    for deal in decision_points(name, 6, 3, seed=4):
        me = deal.turn
        played = sum(BIT[c] for t in deal.tricks for c in t.cards) | sum(BIT[c] for c in deal.trick)
        voids: list[tuple[int, int]] = []  # (seat, suit) shown void once the stock was empty
        replayed = deal.restart()
        for action in deal.log:
            if (type(action) is Play and replayed.trick and not replayed.stock_left and rules.must_follow
                    and action.card // 10 != replayed.trick[0] // 10):
                voids.append((action.seat, replayed.trick[0] // 10))
            replayed.apply(action)
        sung = [(c.seat, c.suit) for c in deal.cantes]
        for world in sample_worlds(deal, 6, seed=9):
            worlds_seen += 1
            assert world.hands[me] == deal.hands[me]
            held = sum(world.hands) | sum(BIT[c] for c in world.stock)
            assert not held & played and held == sum(deal.hands) | sum(BIT[c] for c in deal.stock[deal.stock_pos:])
            assert all(h.bit_count() == d.bit_count() for h, d in zip(world.hands, deal.hands))
            for seat, suit in voids:
                assert not world.hands[seat] & SUIT_MASK[suit]
            for seat, suit in sung:  # a sung pair's cards not yet played stay with the singer
                assert world.hands[seat] & CANTE_PAIRS[suit] == deal.hands[seat] & CANTE_PAIRS[suit]
            if deal.stock_left:
                assert world.stock[-1] == deal.turned and len(world.stock) == deal.stock_left
            elif deal.hands[deal.dealer] >> deal.initial_turned & 1 and not any(
                    type(a) is Exchange for a in deal.log):
                assert world.hands[deal.dealer] >> deal.initial_turned & 1  # the turned card stays with the dealer
            assert replays(deal, world)
    assert worlds_seen > 100


@pytest.mark.parametrize("name", PRESETS)
def test_exact_only_where_every_card_is_known(name: str) -> None:
    exact = 0
    for deal in decision_points(name, 4, 2, seed=5):
        info = knowledge(deal)
        if mover_knows_all(deal):
            exact += 1
            worlds = sample_worlds(deal, 4, seed=1)
            truth = World(tuple(deal.hands), tuple(deal.stock[deal.stock_pos:]))
            assert all(w == truth for w in worlds) or len(deal.legal_plays()) == 1  # known, or nothing to choose
            result = pimc_analysis(deal, 4, seed=1)
            assert result.exact and result.method == "exact" and result.worlds == 1
            dd = {c: v.value for v in Solver().values_of_legal_cards(Position.from_deal(deal)) for c in v.cards}
            assert {v.card: v.mean for v in result.values} == dd
        else:
            assert info.unseen and deal.hands[deal.turn].bit_count() > 1
            assert not (deal.rules.players == 2 and not deal.stock_left)
    assert exact


@pytest.mark.parametrize("name", ["playcard-2p", "torofun-2p"])
def test_every_play_while_the_stock_has_cards_gets_a_value(name: str) -> None:
    methods = set()
    for deal in decision_points(name, 2, 1, seed=6):
        if not deal.stock_left:
            continue
        result = pimc_analysis(deal, 3, seed=2, cantes=True)
        assert [v.card for v in result.values] == sorted(deal.legal_plays())
        assert result.method == ("rollout" if deal.stock_left > SEARCH_HORIZON else "pimc")
        assert result.cantes
        assert all(0 <= v.win <= 1 and v.mean >= 0 for v in result.values)
        methods.add(result.method)
    assert methods == {"pimc", "rollout"}


@pytest.mark.parametrize(("name", "plays"), [("torofun-4p", 17), ("torofun-3p", 14), ("playcard-2p", 6),
                                             ("playcard-2p", 19)])
def test_values_are_reproducible_from_the_seed_with_and_without_inference(name: str, plays: int) -> None:
    deal = midway(name, 11, plays)
    for inference in (False, True):
        first = pimc_analysis(deal, 6, seed=4, inference=inference)
        assert first == pimc_analysis(deal, 6, seed=4, inference=inference)
        assert first.inference == inference and not first.exact
        assert (first.effective_worlds == 6) != inference and 1 <= first.effective_worlds <= 6 + 1e-9
    assert pimc_analysis(deal, 6, seed=4, inference=True).values != pimc_analysis(deal, 6, seed=4).values


def test_weights_are_normalised_and_favour_the_true_hands() -> None:
    """Under the model that played the deal (the heuristic bot), the true hands are on average more likely than
    the sampled worlds: their log-likelihood is above the median of the worlds' at most decision points."""
    above = total = 0
    old_stream = stream_seed(preset("torofun-4p"), 12)  # the stream this test's seed was chosen on (stream_seed is its own inverse)
    for i, full in enumerate(simulate_deals(preset("torofun-4p"), 8, seed=old_stream, bot="heuristic")):
        deal = full.restart()
        for action in full.log[:24]:
            deal.apply(action)
        worlds, weights = weighted_worlds(deal, 12, seed=i, inference=True)
        assert abs(sum(weights) - 1) < 1e-9 and all(w >= 0 for w in weights)
        truth = log_likelihood(deal, World(tuple(deal.hands)))
        others = sorted(log_likelihood(deal, w) for w in worlds)
        above += truth >= others[len(others) // 2]
        total += 1
    assert above >= 6 and total == 8


def test_resampled_worlds_keep_the_likely_candidates_reproducibly() -> None:
    deal = midway("torofun-4p", 13, 18)
    kept, weights = weighted_worlds(deal, 10, seed=3, inference=True, candidates=40)
    assert (kept, weights) == weighted_worlds(deal, 10, seed=3, inference=True, candidates=40)
    assert len(kept) == len(set(kept)) <= 10 and abs(sum(weights) - 1) < 1e-9
    assert all(abs(w * 10 - round(w * 10)) < 1e-9 and w > 0 for w in weights)  # each a share of the 10 draws
    pool = sample_worlds(deal, 40, seed=3)
    assert set(kept) <= set(pool) and all(replays(deal, w) for w in kept)
    likelihood = {w: math.exp(log_likelihood(deal, w)) for w in pool}
    heavy = [w for w in pool if likelihood[w] >= sum(likelihood.values()) / 10]
    assert heavy and all(w in kept for w in heavy)  # a candidate worth one draw of the 10 or more is always kept
    result = pimc_analysis(deal, 10, seed=3, inference=True, candidates=40)
    assert result.worlds == len(kept) and result == pimc_analysis(deal, 10, seed=3, inference=True, candidates=40)


@pytest.mark.parametrize(("name", "seed", "plays"), [("torofun-4p", 5, 4), ("torofun-4p", 6, 13),
                                                     ("ludoteka-pairs", 7, 9), ("playcard-2p", 8, 21)])
def test_the_other_side_makes_at_least_what_the_mover_leaves_it(name: str, seed: int, plays: int) -> None:
    """PIMC's search of the other side's value starts at this floor: with cantes each side's value counts its
    own cantes, and the floor must hold; without them the points are shared and it is the value exactly."""
    from tutepgn.analysis.outcome import points_left
    from tutepgn.analysis.pimc import other_side_floor

    deal = midway(name, seed, plays)
    r = deal.rules
    mover = r.side_of(deal.turn)
    other_seat = next(s for s in range(r.players) if r.side_of(s) != mover)
    left = points_left(deal)
    for cantes in (True, False):
        best = Solver().value(Position.from_deal(deal, cantes=cantes))
        other = Solver().value(Position.from_deal(deal, other_seat, cantes=cantes))
        floor = other_side_floor(left, best)
        assert other == floor if not cantes else other >= floor


def test_a_hand_over_the_horizon_is_played_out_and_one_within_it_searched() -> None:
    """A bot's ``hand_horizon``: 10 cards at a 4-player first lead are played out, 8 are searched, and without a
    horizon (the analysis's default) every hand is searched."""
    deal = Deal.shuffled(preset("torofun-4p"), seed=3)
    assert pimc_analysis(deal, 2, seed=1, hand_horizon=8).method == "rollout"
    assert pimc_analysis(deal, 2, seed=1).method == "pimc"
    for _ in range(8):
        deal.play(min(deal.legal_plays()))
    assert deal.hands[deal.turn].bit_count() == 8
    searched = pimc_analysis(deal, 2, seed=1, hand_horizon=8)
    assert searched.method == "pimc" and searched.values == pimc_analysis(deal, 2, seed=1).values
