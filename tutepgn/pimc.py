"""Perfect-information Monte Carlo (PIMC): a play valued as its mover could know it.

Double dummy values a card as if every hand were seen.  A player sees only
their own hand, the cards played, the turned card, the cantes sung and what
the others' plays showed (a seat that did not follow, trump or beat when the
duties made it must holds no such card).  :func:`sample_worlds` deals the
unseen cards to the other seats in ways that agree with all of it, and
:func:`pimc_values` averages each legal card's double-dummy value over those
worlds, with its standard error.  Seeded: the same seed gives the same worlds.

Its limit is strategy fusion: in each world the search plays as if it knew
that world, so a card that is right in every world separately (but needs a
different follow-up in each) is valued above what a player could make of it.

>>> from tutepgn import Deal, preset
>>> deal = Deal.shuffled(preset("torofun-4p"), seed=5)
>>> for _ in range(12):
...     _ = deal.play(min(deal.legal_plays()))
>>> first = pimc_values(deal, 8, seed=1)
>>> first == pimc_values(deal, 8, seed=1) and sorted(v.card for v in first) == sorted(deal.legal_plays())
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from .cards import BIT, SUIT_MASK, Card, Mask, cards_in
from .declarations import CANTE_PAIRS
from .duties import play_duty
from .engine import Deal
from .errors import IllegalAction
from .events import Cante, Play
from .solver import Backend, Position, Solver
from .solver.position import trick_state

MAX_TRIES = 200
"""Dealings tried for one world before giving up: the constraints are rarely that tight."""


@dataclass(frozen=True, slots=True)
class PimcValue:
    """A legal card's value for the mover's side, averaged over the sampled worlds."""
    card: Card
    mean: float
    stderr: float
    """The standard error of the mean (0 with one world, or when every world agrees)."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a seat knew of the others' hands before its play: the unseen cards and where each may be."""
    seat: int
    known: tuple[Mask, ...]
    """Per seat, the cards of its hand the mover knows are there (all of the mover's own)."""
    unseen: Mask
    """The cards whose place the mover does not know."""
    excluded: tuple[Mask, ...]
    """Per seat, the unseen cards its plays showed it does not hold."""
    counts: tuple[int, ...]
    """Per seat, how many unseen cards it holds."""


def knowledge(deal: Deal, seat: int | None = None) -> Knowledge:
    """What ``seat`` (default: the seat to move) knows of the hands in ``deal`` now, read from the deal's log.

    Replays the log from the start: a card a seat played when the duties
    bound it excludes every card that would have obliged another play
    (:func:`tutepgn.duties.play_duty` asked with the card and each candidate);
    a cante shows its rey and caballo; the turned card in the dealer's hand is seen.
    """
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
        elif type(action) is Play and action.seat != me and not (r.free_play_while_stock and replayed.stock_left):
            excluded[action.seat] |= _shown_absent(replayed, action)
        replayed.apply(action)
    live = 0
    for s in range(n):
        known[s] &= deal.hands[s]
        live |= deal.hands[s]
    unseen = live & ~sum(known)
    holders = [s for s in range(n) if deal.hands[s].bit_count() > known[s].bit_count()]
    if len(holders) == 1:  # one seat holds every unseen card (2 players, the stock empty): the mover knows them
        known[holders[0]] |= unseen
        unseen = 0
    return Knowledge(me, tuple(known), unseen, tuple(e & unseen for e in excluded),
                     tuple(deal.hands[s].bit_count() - known[s].bit_count() for s in range(n)))


def _shown_absent(deal: Deal, play: Play) -> Mask:
    """The cards whose holding would have made ``play`` illegal where it was made."""
    led, high_led, high_trump, winning = trick_state(deal.trick, deal.leader, deal.trump, deal.rules.players)
    partner = winning >= 0 and winning != play.seat and deal.rules.side_of(winning) == deal.rules.side_of(play.seat)
    absent = 0
    for x in range(40):
        if x != play.card and not play_duty(BIT[play.card] | BIT[x], led, high_led, high_trump, deal.trump,
                                            partner, deal.rules)[0] >> play.card & 1:
            absent |= BIT[x]
    return absent


def sample_worlds(deal: Deal, count: int, seed: int | str = 0, seat: int | None = None) -> list[tuple[Mask, ...]]:
    """``count`` dealings of the hands now that agree with what ``seat`` (default: the mover) knows.

    Each is checked by replaying the whole log from the world's starting hands
    under the engine's rules: every play and cante of the others is legal in it.
    """
    info = knowledge(deal, seat)
    rng = random.Random(seed)
    worlds: list[tuple[Mask, ...]] = []
    for _ in range(count):
        for _ in range(MAX_TRIES):
            world = _deal_unseen(info, rng)
            if world is not None and replays(deal, world):
                worlds.append(world)
                break
        else:
            raise ValueError(f"no world found in {MAX_TRIES} tries that agrees with what the mover knew")
    return worlds


def _deal_unseen(info: Knowledge, rng: random.Random) -> tuple[Mask, ...] | None:
    """One random dealing of the unseen cards (the most constrained first), or None at a dead end."""
    n = len(info.counts)
    room = list(info.counts)
    hands = list(info.known)
    cards = cards_in(info.unseen)
    rng.shuffle(cards)
    cards.sort(key=lambda c: sum(1 for s in range(n) if room[s] and not info.excluded[s] >> c & 1))
    for c in cards:
        seats = [s for s in range(n) if room[s] > 0 and not info.excluded[s] >> c & 1]
        if not seats:
            return None
        s = rng.choices(seats, weights=[room[s] for s in seats])[0]
        hands[s] |= BIT[c]
        room[s] -= 1
    return tuple(hands)


def replays(deal: Deal, hands: tuple[Mask, ...]) -> bool:
    """Whether the deal's log is legal from the starting hands that lead to ``hands`` now.

    The deal's own hands replay by construction (its log was applied to it);
    other worlds are for deals without a stock (3 and 4 players), whose
    starting hands are the hands now and the cards each seat played.
    """
    if hands == tuple(deal.hands):
        return True
    if deal.initial_stock:
        raise ValueError("worlds of a deal with a stock are not sampled: its drawn cards are not placed")
    played = [0] * deal.rules.players
    for action in deal.log:
        if type(action) is Play:
            played[action.seat] |= BIT[action.card]
    start = [h | p for h, p in zip(hands, played)]
    world = Deal(deal.rules, start, list(deal.initial_stock), deal.initial_turned, deal.dealer,
                 first_of_match=deal.first_of_match)
    try:
        for action in deal.log:
            world.apply(action)
    except (IllegalAction, ValueError):
        return False
    return True


def pimc_values(deal: Deal, worlds: int, seed: int | str = 0, *, cantes: bool = False,
                backend: Backend | None = None, solver: Solver | None = None) -> list[PimcValue]:
    """Each legal card of the mover, its mean double-dummy value over ``worlds`` sampled worlds, in card order."""
    position = Position.from_deal(deal, cantes=cantes)
    solver = solver or Solver(backend)
    samples: dict[Card, list[int]] = {c: [] for c in cards_in(position.legal())}
    for hands in sample_worlds(deal, worlds, seed):
        world = replace(position, hands=hands)
        for group in solver.values_of_legal_cards(world):
            for c in group.cards:
                samples[c].append(group.value)
    return [PimcValue(c, *_mean_and_error(v)) for c, v in samples.items()]


def _mean_and_error(values: list[int]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))
