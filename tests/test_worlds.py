"""The worlds' sampling against the straightforward code it replaced (kept here as the reference): the same
knowledge, the same random dealings with the same draws, the same starting deals.

:func:`~tutepgn.analysis.worlds.knowledge` and :func:`~tutepgn.analysis.worlds.starting_deal` read the log once
per deal (kept by content) and :func:`~tutepgn.analysis.worlds.deal_unseen` reads its :class:`Knowledge` once;
the references below replay the log at every call and draw with ``rng.choices``.  Positions are reached by
random legal actions (declarations included) under every preset and rulesets with other options; each seat's
view is compared, each dealing with the generator's state after it, and each starting deal (every order, the
deal's own world and sampled ones, the view's blind deal whose other hands match no world).
"""

from __future__ import annotations

import copy
import random

import pytest

from tutepgn import Deal, Play, preset
from tutepgn.analysis.worlds import (Knowledge, World, deal_unseen, knowledge, sample_worlds, starting_deal, starts,
                                     weighted_worlds)
from tutepgn.cards import BIT, Card, Mask, cards_in
from tutepgn.declarations import CANTE_PAIRS
from tutepgn.duties import play_duty, trick_state
from tutepgn.events import Cante, Exchange
from tutepgn.rules import PRESETS, Ruleset

OTHER_OPTIONS: list[tuple[str, dict[str, object]]] = [
    ("ludoteka-pairs", {"must_undertrump": True, "beat_waived_when_trumped": False, "partner_winning_exempts": True}),
    ("torofun-4p", {"must_beat": False, "must_overtrump": False, "cantes_per_trick": 2}),
    ("torofun-3p", {"must_trump": False, "forfeit_unsung_cantes": False}),
    ("playcard-2p", {"free_play_while_stock": False, "exchange_two": True, "exchange_two_for": (1, 3, 12)}),
    ("torofun-2p", {"exchange_at_first_lead": True, "must_follow": False}),
]


def rulesets() -> list[Ruleset]:
    return list(PRESETS.values()) + [preset(name).with_options(**o) for name, o in OTHER_OPTIONS]


def positions(rules: Ruleset, count: int, seed: int) -> list[Deal]:
    """``count`` positions not over, reached by random legal actions (a declaration half the times one is
    allowed) from a shuffled deal, stopping at a random point."""
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < count:
        deal = Deal.shuffled(rules, rng.randrange(10**9), dealer=rng.randrange(rules.players))
        stop = rng.randrange(rules.deck_size)
        while not deal.over and len(deal.log) < stop:
            actions = deal.legal_actions()
            declarations = [a for a in actions if type(a) is not Play]
            deal.apply(rng.choice(declarations if declarations and rng.random() < 0.5 else actions))
        if not deal.over:
            out.append(deal)
    return out


# The reference: the code before the log was read once per deal (tutepgn/analysis/worlds.py at 7557b16).

def ref_knowledge(deal: Deal, seat: int | None = None) -> Knowledge:
    r = deal.rules
    n = r.players
    me = deal.turn if seat is None else r.seat(seat)
    known = [0] * n
    known[me] = deal.hands[me]
    excluded = [0] * n
    replayed = deal.restart()
    if not replayed.stock and replayed.hands[replayed.dealer] >> replayed.turned & 1:
        known[replayed.dealer] |= BIT[replayed.turned]
    for action in deal.log:
        if type(action) is Cante:
            known[action.seat] |= CANTE_PAIRS[action.suit]
        elif type(action) is Exchange:
            known[action.seat] |= BIT[replayed.turned]
        elif type(action) is Play and action.seat != me and not replayed.stock_left:
            excluded[action.seat] |= ref_shown_absent(replayed, action)
        replayed.apply(action)
    live = 0
    for s in range(n):
        known[s] &= deal.hands[s]
        live |= deal.hands[s]
    bottom = deal.stock[-1] if deal.stock_left else None
    in_stock = max(deal.stock_left - 1, 0)
    for c in deal.stock[deal.stock_pos:-1]:
        live |= BIT[c]
    unseen = live & ~sum(known)
    holders = [s for s in range(n) if deal.hands[s].bit_count() > known[s].bit_count()] + [n] * bool(in_stock)
    if len(holders) == 1 and holders[0] < n:
        known[holders[0]] |= unseen
        unseen = 0
    return Knowledge(me, tuple(known), unseen, tuple(e & unseen for e in excluded),
                     tuple(deal.hands[s].bit_count() - known[s].bit_count() for s in range(n)), in_stock, bottom)


def ref_shown_absent(deal: Deal, play: Play) -> Mask:
    led, high_led, high_trump, winning = trick_state(deal.trick, deal.leader, deal.trump, deal.rules.players)
    partner = winning >= 0 and winning != play.seat and deal.rules.side_of(winning) == deal.rules.side_of(play.seat)
    absent = 0
    for x in range(40):
        if x != play.card and not play_duty(BIT[play.card] | BIT[x], led, high_led, high_trump, deal.trump,
                                            partner, deal.rules)[0] >> play.card & 1:
            absent |= BIT[x]
    return absent


def ref_deal_unseen(info: Knowledge, rng: random.Random) -> World | None:
    room = [*info.counts, info.in_stock]
    hands = [*info.known, 0]
    excluded = (*info.excluded, 0)
    holders = range(len(room))
    cards = cards_in(info.unseen)
    rng.shuffle(cards)
    cards.sort(key=lambda c: sum(1 for s in holders if room[s] and not excluded[s] >> c & 1))
    for c in cards:
        seats = [s for s in holders if room[s] > 0 and not excluded[s] >> c & 1]
        if not seats:
            return None
        s = rng.choices(seats, weights=[room[s] for s in seats])[0]
        hands[s] |= BIT[c]
        room[s] -= 1
    stock = cards_in(hands.pop())
    rng.shuffle(stock)
    return World(tuple(hands), () if info.bottom is None else (*stock, info.bottom))


def ref_starting_deal(deal: Deal, world: World, order: int = 0) -> Deal | None:
    n = deal.rules.players
    replayed = deal.restart()
    needed: list[dict[Card, int]] = [{} for _ in range(n)]
    received: list[set[Card]] = [set() for _ in range(n)]
    draws: list[tuple[int, Card, int]] = []
    sung: Mask = 0

    def need(seat: int, c: Card, trick: int) -> None:
        if c not in received[seat]:
            needed[seat][c] = min(trick, needed[seat].get(c, trick))

    for action in deal.log:
        trick = len(replayed.tricks)
        if isinstance(action, Play):
            need(action.seat, action.card, trick)
            received[action.seat].discard(action.card)
        elif isinstance(action, Cante):
            sung |= CANTE_PAIRS[action.suit]
            for c in cards_in(CANTE_PAIRS[action.suit]):
                need(action.seat, c, trick)
        elif isinstance(action, Exchange):
            need(action.seat, action.card, trick)
            received[action.seat].discard(action.card)
            received[action.seat].add(replayed.turned)
        position = replayed.stock_pos
        replayed.apply(action)
        for i in range(position, replayed.stock_pos):
            draws.append(((replayed.tricks[-1].winner + i - position) % n, replayed.stock[i], len(replayed.tricks)))
    bottom = len(deal.stock) - 1
    drawn = [c for _, c, _ in draws]
    hands = list(deal.initial_hands)
    for seat in range(n):
        if world.hands[seat] == deal.hands[seat]:
            continue
        for c in cards_in(world.hands[seat]):
            need(seat, c, len(deal.tricks))
        slots = [(0, -1)] * deal.initial_hands[seat].bit_count() + [
            (held_from, i) for i, (s, _, held_from) in enumerate(draws) if s == seat and i != bottom]
        if bottom < len(draws) and draws[bottom][0] == seat:
            needed[seat].pop(draws[bottom][1], None)
        if len(slots) != len(needed[seat]):
            return None
        hands[seat] = 0
        ties = random.Random(order) if order > 1 else None
        rank = {c: ties.random() if ties else c for c in needed[seat]}
        placing = sorted(needed[seat].items(), key=lambda item: (item[1], not sung >> item[0] & 1, rank[item[0]]),
                         reverse=order == 1)
        for c, by in placing:
            fits = [k for k, (held_from, _) in enumerate(slots) if held_from <= by]
            if not fits:
                return None
            _, i = slots.pop(max(fits, key=lambda k: slots[k][0]))
            if i < 0:
                hands[seat] |= BIT[c]
            else:
                drawn[i] = c
    stock = [*drawn, *world.stock]
    stock[-1] = deal.initial_turned
    try:
        return Deal(deal.rules, hands, stock, deal.initial_turned, deal.dealer, first_of_match=deal.first_of_match)
    except ValueError:
        return None


def ref_starts(deal: Deal, world: World) -> list[Deal]:
    own = world.hands == tuple(deal.hands) and world.stock == tuple(deal.stock[deal.stock_pos:])
    if own:
        first: Deal | None = deal.restart()
    elif deal.initial_stock:
        first = ref_starting_deal(deal, world)
    else:
        played = [0] * deal.rules.players
        for action in deal.log:
            if type(action) is Play:
                played[action.seat] |= BIT[action.card]
        try:
            first = Deal(deal.rules, [h | p for h, p in zip(world.hands, played)], [], deal.initial_turned,
                         deal.dealer, first_of_match=deal.first_of_match)
        except ValueError:
            first = None
    others = [ref_starting_deal(deal, world, order) for order in range(1, 6)] if deal.initial_stock and not own else []
    return [s for s in [first, *others] if s is not None]


def dealt(start: Deal | None) -> tuple[object, ...] | None:
    """What a starting deal is: its hands, stock, turned card, dealer, first leader and trump."""
    if start is None:
        return None
    return start.initial_hands, start.initial_stock, start.initial_turned, start.dealer, start.first_leader, start.trump


@pytest.mark.parametrize("rules", rulesets(), ids=lambda r: r.spec)
def test_knowledge_and_dealings_are_the_references(rules: Ruleset) -> None:
    """Every seat's knowledge; from it, dealings in a row from one generator: the same worlds (or dead ends)
    and the generator left in the same state."""
    dealings = excluding = 0
    for i, deal in enumerate(positions(rules, 40, seed=len(rules.spec) + 7)):
        for seat in range(rules.players):
            info = knowledge(deal, seat)
            assert info == ref_knowledge(deal, seat), (rules.spec, deal.log, seat)
            excluding += any(info.excluded)
            if not info.unseen:
                continue
            ours, theirs = random.Random(f"{i}:{seat}"), random.Random(f"{i}:{seat}")
            for _ in range(6):
                assert deal_unseen(info, ours) == ref_deal_unseen(info, theirs), (rules.spec, deal.log, seat)
                assert ours.getstate() == theirs.getstate()
                dealings += 1
        assert knowledge(deal) == ref_knowledge(deal)
    assert dealings >= 200 and (excluding >= 5 or rules.players == 2)  # 2 players: nothing unseen once excluded


@pytest.mark.parametrize("rules", rulesets(), ids=lambda r: r.spec)
def test_starting_deals_are_the_references(rules: Ruleset) -> None:
    """The starting deals tried (:func:`starts`) and each order's starting deal of the deal's own world, of dealings of the unseen cards (replaying or not) and,
    as the seat's view rebuilds it, of the blind deal whose other hands match no world."""
    found = 0
    for i, deal in enumerate(positions(rules, 30, seed=len(rules.spec) + 8)):
        info = ref_knowledge(deal)
        rng = random.Random(i)
        worlds = [World(tuple(deal.hands), tuple(deal.stock[deal.stock_pos:]))]
        worlds += [w for w in (ref_deal_unseen(info, rng) for _ in range(4)) if w is not None]
        blind = copy.copy(deal)
        blind.hands = [h if s == deal.turn else -1 for s, h in enumerate(deal.hands)]
        for world in worlds:
            for there in (deal, blind):
                tried = [dealt(s) for s in starts(there, world)]
                assert tried == [dealt(s) for s in ref_starts(there, world)], (rules.spec, deal.log, world)
                found += len(tried)
                for order in range(6 if deal.initial_stock else 0):
                    start = dealt(starting_deal(there, world, order))
                    assert start == dealt(ref_starting_deal(there, world, order)), (rules.spec, deal.log, world, order)
                    found += start is not None
    assert found >= 100


def test_the_log_is_read_anew_when_the_deal_changes() -> None:
    """A deal asked, then changed in place (an action applied): its knowledge and starting deals are the new
    log's, not the ones kept for the old."""
    for name in ("playcard-2p", "torofun-4p"):
        deal = Deal.shuffled(preset(name), 5)
        rng = random.Random(5)
        for _ in range(3 * deal.rules.players + 2):
            before = knowledge(deal)
            assert before == ref_knowledge(deal)
            info = knowledge(deal)
            world = deal_unseen(info, random.Random(len(deal.log))) if info.unseen else None
            if world is not None:
                assert [dealt(s) for s in starts(deal, world)] == [dealt(s) for s in ref_starts(deal, world)]
            deal.apply(rng.choice([a for a in deal.legal_actions() if type(a) is Play]))
            assert knowledge(deal) == ref_knowledge(deal) != before


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_sampling_twice_gives_the_same_worlds(name: str) -> None:
    """The worlds and weights of a second call (its log read from what the first kept) are the first's."""
    deal = positions(preset(name), 1, seed=11)[0]
    if not knowledge(deal).unseen:
        return
    first = weighted_worlds(deal, 4, seed=2, inference=True, candidates=8)
    assert weighted_worlds(deal, 4, seed=2, inference=True, candidates=8) == first
    assert sample_worlds(deal, 3, seed=1) == sample_worlds(copy.deepcopy(deal), 3, seed=1)
