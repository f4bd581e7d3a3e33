"""The worlds a seat cannot tell apart: what it knew, worlds dealt to agree with it, and how likely each is.

A player sees only their own hand, the cards played, the turned card, the
cantes sung and what the others' plays showed (a seat that did not follow,
trump or beat when the duties made it must holds no such card).
:func:`knowledge` reads that from a deal's log; :func:`sample_worlds` deals the
unseen cards to the other seats (and, with 2 players while the stock has
cards, puts the stock in an order) in ways that agree with all of it, each
checked by replaying the whole log from a starting deal that leads to it
(:func:`starting_deal`, :func:`world_deal`).  Seeded: the same seed gives the
same worlds.

:func:`log_likelihood` is how likely the others' actions so far were in a
world under the play model of :mod:`tutepgn.policy`; :func:`weighted_worlds`
turns it into normalised weights (the ``--inference`` of the analysis).
"""

from __future__ import annotations

import bisect
import functools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from ..cards import BIT, Card, Mask, Suit, cards_in
from ..declarations import CANTE_PAIRS
from ..duties import play_duty, trick_state
from ..engine import Deal
from ..errors import IllegalAction
from ..events import Action, Cante, Exchange, Play
from ..i18n import gettext as _
from ..native import Backend, backend_from, ccore
from ..native.replayinput import encode, options
from ..policy import TEMPERATURE, probabilities
from ..rules import Ruleset


CANDIDATES = 4
"""With inference, the worlds drawn and weighted for each one kept (``bench/inference.py``: 80 drawn for 20
kept find the true holders and the true best card more often than 20 weighted, and are less overconfident)."""
MAX_TRIES = 200
"""Dealings tried for one world before giving up: the constraints are rarely that tight."""


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
    in_stock: int = 0
    """How many unseen cards the stock holds (all but the turned card at its bottom, which is seen)."""
    bottom: Card | None = None
    """The turned card at the bottom of the stock, while it has cards."""


@dataclass(frozen=True, slots=True)
class World:
    """One way the cards the mover did not see may lie: the hands now and the stock's order (the next drawn first)."""
    hands: tuple[Mask, ...]
    stock: tuple[Card, ...] = ()


def knowledge(deal: Deal, seat: int | None = None) -> Knowledge:
    """What ``seat`` (default: the seat to move) knows of the hands in ``deal`` now, read from the deal's log.

    Replays the log from the start: a card a seat played when the duties
    bound it, with the stock empty, excludes every card that would have
    obliged another play (:func:`tutepgn.duties.play_duty` asked with the card
    and each candidate; while the stock has cards a seat may draw what it
    lacked, and the replay of each world checks those plays); a cante shows
    its rey and caballo; the turned card is seen: in the dealer's hand, under
    the stock, or in the hand of whoever took it by an exchange.  The replay is
    :func:`_history`'s, read once per log (a PIMC decision asks once per batch).
    """
    r = deal.rules
    n = r.players
    me = deal.turn if seat is None else r.seat(seat)
    history = _history(deal)
    known = [((deal.hands[me] if s == me else 0) | history.shown[s]) & deal.hands[s] for s in range(n)]
    excluded = [0 if s == me else history.excluded[s] for s in range(n)]
    live = 0
    for s in range(n):
        live |= deal.hands[s]
    bottom = deal.stock[-1] if deal.stock_left else None
    in_stock = max(deal.stock_left - 1, 0)
    for c in deal.stock[deal.stock_pos:-1]:
        live |= BIT[c]
    unseen = live & ~sum(known)
    holders = [s for s in range(n) if deal.hands[s].bit_count() > known[s].bit_count()] + [n] * bool(in_stock)
    if len(holders) == 1 and holders[0] < n:  # one seat holds every unseen card (2 players, the stock empty)
        known[holders[0]] |= unseen
        unseen = 0
    return Knowledge(me, tuple(known), unseen, tuple(e & unseen for e in excluded),
                     tuple(deal.hands[s].bit_count() - known[s].bit_count() for s in range(n)), in_stock, bottom)


@dataclass(frozen=True, slots=True)
class _History:
    """What a deal's log shows whatever the world and whoever looks: read by one replay from the deal's start."""
    shown: tuple[Mask, ...]
    """Per seat, the cards its cantes and exchanges showed (the dealer's: also the turned card it was dealt)."""
    excluded: tuple[Mask, ...]
    """Per seat, the cards its plays with the stock empty showed it did not hold (:func:`_shown_absent`)."""
    played: tuple[Mask, ...]
    """Per seat, the cards it played."""
    needed: tuple[tuple[tuple[Card, int], ...], ...]
    """Per seat, each card its actions needed and the trick that first needed it, in :func:`starting_deal`'s order."""
    received: tuple[frozenset[Card], ...]
    """Per seat, the cards an exchange gave it and it still holds (neither dealt nor drawn)."""
    draws: tuple[tuple[int, Card, int], ...]
    """Each draw from the stock: the seat, the card, the trick from which it is held."""
    drawn_by: tuple[tuple[tuple[int, int], ...], ...]
    """Per seat, its draws: the trick from which each is held and its index in :attr:`draws`."""
    sung: Mask
    """The cards of every cante sung."""


def _history(deal: Deal) -> _History:
    """The deal's :class:`_History`, kept for the last logs asked (by content: a deal changed since is asked anew).

    The last one asked is compared first: a tuple of the same actions compares equal by identity, where hashing
    it for the cache hashes every action (a PIMC decision asks for the same log at each world it tries)."""
    global _last
    key = (deal.rules, deal.initial_hands, deal.initial_stock, deal.initial_turned, deal.dealer, deal.first_of_match,
           tuple(deal.log))
    last_key, last = _last
    if key == last_key:
        return last
    found = _history_of(*key)
    _last = key, found
    return found


_last: tuple[tuple[object, ...], _History] = ((), _History((), (), (), (), (), (), (), 0))
"""The last log :func:`_history` read (replaced whole: one assignment, safe between threads)."""


@functools.lru_cache(maxsize=64)
def _history_of(rules: Ruleset, hands: tuple[Mask, ...], stock: tuple[Card, ...], turned: Card, dealer: int,
                first_of_match: bool, log: tuple[Action, ...]) -> _History:
    """:func:`_history` of the deal dealt so and its log: what :func:`knowledge` and :func:`starting_deal` read."""
    n = rules.players
    replayed = Deal(rules, list(hands), list(stock), turned, dealer, first_of_match=first_of_match)
    shown = [0] * n
    excluded = [0] * n
    played = [0] * n
    needed: list[dict[Card, int]] = [{} for _ in range(n)]  # per seat, card -> the trick it was needed by
    received: list[set[Card]] = [set() for _ in range(n)]  # cards taken by an exchange: not dealt nor drawn
    draws: list[tuple[int, Card, int]] = []
    sung: Mask = 0
    if not replayed.stock and replayed.hands[replayed.dealer] >> replayed.turned & 1:
        shown[replayed.dealer] |= BIT[replayed.turned]

    def need(seat: int, c: Card, trick: int) -> None:
        if c not in received[seat]:
            needed[seat][c] = min(trick, needed[seat].get(c, trick))

    for action in log:
        trick = len(replayed.tricks)
        if type(action) is Play:
            played[action.seat] |= BIT[action.card]
            if not replayed.stock_left:
                excluded[action.seat] |= _shown_absent(replayed, action)
            need(action.seat, action.card, trick)
            received[action.seat].discard(action.card)
        elif type(action) is Cante:
            shown[action.seat] |= CANTE_PAIRS[action.suit]
            sung |= CANTE_PAIRS[action.suit]
            for c in cards_in(CANTE_PAIRS[action.suit]):
                need(action.seat, c, trick)
        elif type(action) is Exchange:
            shown[action.seat] |= BIT[replayed.turned]
            need(action.seat, action.card, trick)
            received[action.seat].discard(action.card)
            received[action.seat].add(replayed.turned)
        position = replayed.stock_pos
        replayed.apply(action)
        for i in range(position, replayed.stock_pos):
            draws.append(((replayed.tricks[-1].winner + i - position) % n, replayed.stock[i], len(replayed.tricks)))
    drawn_by = tuple(tuple((held_from, i) for i, (s, _, held_from) in enumerate(draws) if s == seat)
                     for seat in range(n))
    return _History(tuple(shown), tuple(excluded), tuple(played), tuple(tuple(d.items()) for d in needed),
                    tuple(frozenset(r) for r in received), tuple(draws), drawn_by, sung)


def _shown_absent(deal: Deal, play: Play) -> Mask:
    """The cards whose holding would have made ``play`` illegal where it was made."""
    led, high_led, high_trump, winning = trick_state(deal.trick, deal.leader, deal.trump, deal.rules.players)
    partner = winning >= 0 and winning != play.seat and deal.rules.side_of(winning) == deal.rules.side_of(play.seat)
    return _absent(play.card, led, high_led, high_trump, deal.trump, partner, deal.rules)


@functools.lru_cache(maxsize=4096)
def _absent(card: Card, led: int, high_led: int, high_trump: int, trump: Suit, partner: bool, rules: Ruleset) -> Mask:
    """:func:`_shown_absent` of a trick's state, kept: a few hundred states recur over every deal."""
    absent = 0
    for x in range(40):
        if x != card and not play_duty(BIT[card] | BIT[x], led, high_led, high_trump, trump, partner, rules)[0] >> card & 1:
            absent |= BIT[x]
    return absent


def sample_worlds(deal: Deal, count: int, seed: int | str = 0, seat: int | None = None,
                  backend: Backend | None = None) -> list[World]:
    """``count`` worlds (the hands now, and the stock's order while it has cards) that agree with what ``seat``
    (default: the mover) knows.

    Each is checked by replaying the whole log from the world's starting deal
    under the engine's rules: every play and declaration of the others is legal in it.  The C core replays
    unless ``backend`` (None: ``TUTEPGN_SOLVER``) says ``python``: the same worlds.
    """
    return [world for world, _start in _sampled(deal, count, seed, seat, backend)]


def _sampled(deal: Deal, count: int, seed: int | str, seat: int | None,
             backend: Backend | None) -> list[tuple[World, Deal | None]]:
    """:func:`sample_worlds`'s worlds, each with (when the C core checked it) the first of its starting deals
    from which the log is legal: the one :func:`log_likelihood` replays, so it is not looked for twice."""
    info = knowledge(deal, seat)
    rng = random.Random(seed)
    codes = _codes(deal, backend)
    out: list[tuple[World, Deal | None]] = []
    for _world in range(count):
        for _try in range(MAX_TRIES):
            world = deal_unseen(info, rng)
            if world is None:
                continue
            if codes is None:
                if replays(deal, world):
                    out.append((world, None))
                    break
                continue
            first, leads = _replayed_in_c(deal, world, codes)
            if leads:
                out.append((world, first))
                break
        else:
            raise ValueError(_("no world found in {tries} tries that agrees with what the mover knew", tries=MAX_TRIES))
    return out


def _codes(deal: Deal, backend: Backend | None) -> bytes | None:
    """The log as the C core reads it, or None when Python replays (asked, not built, or an event it cannot
    encode)."""
    return encode(deal.log, deal.rules.players) if (backend or backend_from("TUTEPGN_SOLVER")) == "c" else None


def _replayed_in_c(deal: Deal, world: World, codes: bytes) -> tuple[Deal | None, bool]:
    """:func:`world_deal`'s search by the C replay: the first start from which the log is legal (unreplayed),
    and whether one leads to ``world``."""
    first = None
    for start in starts(deal, world):
        found = ccore.replayed(options(deal.rules), start.hands, start.stock, start.turn, start.trump, codes)
        if found is None:
            continue
        if first is None:
            first = start
        if found == (world.hands, world.stock):
            return first, True
    return first, False


def deal_unseen(info: Knowledge, rng: random.Random) -> World | None:
    """One random dealing of the unseen cards (the most constrained first), or None at a dead end.

    The stock takes part as one more holder (index ``n``) that nothing excludes; its cards are then shuffled.
    Each card's holder is drawn as ``rng.choices`` draws it, weighted by the room left (one ``rng.random()``
    and the same comparisons: the same holder), among the holders :func:`_freedom` found for it once per
    :class:`Knowledge`.
    """
    room = [*info.counts, info.in_stock]
    hands = [*info.known, 0]
    unseen, holders, freedom = _freedom(info)
    cards = list(unseen)
    rng.shuffle(cards)
    cards.sort(key=freedom.__getitem__)
    draw = rng.random
    for c in cards:
        seats = [s for s in holders[c] if room[s] > 0]
        if not seats:
            return None
        if len(seats) == 1:
            s = seats[0]
            draw()
        elif len(seats) == 2:
            first = room[seats[0]]
            s = seats[0] if draw() * float(first + room[seats[1]]) < first else seats[1]
        else:  # rng.choices: the first seat whose cumulative room exceeds x (bisect_right), else the last
            rooms = [room[s] for s in seats]
            x = draw() * float(sum(rooms))
            cumulative = 0
            for k in range(len(seats) - 1):
                cumulative += rooms[k]
                if x < cumulative:
                    s = seats[k]
                    break
            else:
                s = seats[-1]
        hands[s] |= BIT[c]
        room[s] -= 1
    stock = cards_in(hands.pop())
    rng.shuffle(stock)
    return World(tuple(hands), () if info.bottom is None else (*stock, info.bottom))


@functools.lru_cache(maxsize=64)
def _freedom(info: Knowledge) -> tuple[tuple[Card, ...], dict[Card, tuple[int, ...]], dict[Card, int]]:
    """:func:`deal_unseen`'s reading of ``info``, the same for each of its worlds: the unseen cards, the holders
    (the stock as ``n``) that may take each, and how many of them have room for it at the start (its sort key)."""
    room = [*info.counts, info.in_stock]
    excluded = (*info.excluded, 0)
    cards = tuple(cards_in(info.unseen))
    holders = {c: tuple(s for s in range(len(room)) if not excluded[s] >> c & 1) for c in cards}
    freedom = {c: sum(1 for s in holders[c] if room[s]) for c in cards}
    return cards, holders, freedom


def replays(deal: Deal, world: World) -> bool:
    """Whether the deal's log is legal from a starting deal that leads to ``world`` now."""
    return world_deal(deal, world) is not None


def world_deal(deal: Deal, world: World) -> Deal | None:
    """``deal`` as it would stand in ``world``: a starting deal that leads to it with the log replayed, or None.

    The deal's own world replays by construction (its log was applied to it).
    Without a stock (3 and 4 players) the starting hands are the hands now and
    the cards each seat played.  With a stock, :func:`starting_deal` places
    each seat's cards in its hand dealt or in one of its draws.  None when
    some action of the log is illegal from there, or it leads elsewhere.
    """
    for start in starts(deal, world):
        try:
            for action in deal.log:
                start.apply(action)
        except (IllegalAction, ValueError):
            continue
        if tuple(start.hands) == world.hands and tuple(start.stock[start.stock_pos:]) == world.stock:
            return start
    return None


ORDERS = 6
"""How many orders of placing a seat's cards in its hand dealt and its draws :func:`starts` tries
(:func:`starting_deal`'s ``order``): the first, then others when it does not replay."""


def starts(deal: Deal, world: World) -> Iterator[Deal]:
    """The starting deals to try for ``world``, in order: :func:`starting_deal`'s (or the deal's own, or the one
    without a stock), then with a stock its other orders of placing the cards (:data:`ORDERS` in all)."""
    first = _start(deal, world)
    if first is not None:
        yield first
    own = world.hands == tuple(deal.hands) and world.stock == tuple(deal.stock[deal.stock_pos:])
    if deal.initial_stock and not own:
        for order in range(1, ORDERS):
            other = starting_deal(deal, world, order)
            if other is not None:
                yield other


def _start(deal: Deal, world: World) -> Deal | None:
    """The starting deal of ``world`` (the deal's own start for the deal's own world)."""
    if world.hands == tuple(deal.hands) and world.stock == tuple(deal.stock[deal.stock_pos:]):
        return deal.restart()
    if deal.initial_stock:
        return starting_deal(deal, world)
    played = _history(deal).played
    try:
        return Deal(deal.rules, [h | p for h, p in zip(world.hands, played)], [], deal.initial_turned, deal.dealer,
                    first_of_match=deal.first_of_match)
    except ValueError:
        return None


def log_likelihood(deal: Deal, world: World, seat: int | None = None, temperature: float = TEMPERATURE,
                   backend: Backend | None = None) -> float:
    """The log of how likely the other seats' actions so far were in ``world``, under :func:`tutepgn.policy.probabilities`.

    The log is replayed from the world's starting deal; at each action taken
    by a seat other than ``seat`` (default: the seat to move) the model's
    probability of that action among all legal ones (declarations included)
    is multiplied in.  ``seat``'s own actions are left out: the model reads
    only the actor's hand and what is public, so they are equally likely in
    every world.  -inf when the world does not replay.

    The C core replays and scores (``playout.c``, the same figure to the last bit: tests/test_rollout.py) unless
    ``backend`` (None: ``TUTEPGN_SOLVER``) says ``python`` or the log has an event it cannot encode.
    """
    me = deal.turn if seat is None else seat
    codes = _codes(deal, backend)
    for start in starts(deal, world):
        if codes is not None:
            found = _likelihood_in_c(deal, start, codes, me, temperature)
            if found is None:
                continue
            return found
        total = 0.0
        try:
            for action in deal.log:
                if action.seat != me:
                    total += math.log(probabilities(start, temperature)[action])
                start.apply(action)
        except (IllegalAction, ValueError, KeyError):
            continue
        return total
    return -math.inf


def _likelihood_in_c(deal: Deal, start: Deal, codes: bytes, me: int, temperature: float) -> float | None:
    """:func:`log_likelihood` from one starting deal (left unreplayed) by the C core; None when the log is not
    legal from it."""
    return ccore.log_likelihood(options(deal.rules), start.hands, start.stock, start.turn, start.trump, codes, me,
                                temperature)


def weighted_worlds(deal: Deal, count: int, seed: int | str = 0, *, inference: bool = False,
                    seat: int | None = None, temperature: float = TEMPERATURE,
                    candidates: int | None = None, backend: Backend | None = None) -> tuple[list[World], list[float]]:
    """Sampled worlds and their normalised weights: ``count`` even ones, or with ``inference`` weighted by
    :func:`log_likelihood`.

    The weights are those of self-normalised importance sampling: the worlds
    are drawn (nearly) uniformly among those that agree with what ``seat``
    knew, and each is weighted by how likely the others' actions were in it.
    With ``inference``, ``candidates`` worlds (default :data:`CANDIDATES`
    times ``count``; 0 or ``count``: no more than ``count``) are drawn and weighted, and ``count`` of them are kept by systematic
    resampling (seeded): a world is kept as many times as its weight is worth,
    and each distinct world kept is returned once with its share of the
    ``count`` draws as its weight.  The solver then spends its ``count``
    searches (or fewer) on the likely worlds, at the price of the candidates'
    likelihoods, which cost far less than a search.  ``backend``: :func:`log_likelihood`'s.
    """
    drawn = count if not inference else CANDIDATES * count if candidates is None else max(count, candidates)
    sampled = _sampled(deal, drawn, seed, seat, backend)
    worlds = [world for world, _start in sampled]
    if not inference:
        return worlds, [1 / len(worlds)] * len(worlds)
    codes = _codes(deal, backend)
    me = deal.turn if seat is None else seat
    logs: list[float] = []
    for world, start in sampled:  # the start the sampling found first is the one log_likelihood would replay
        found = None if start is None or codes is None else _likelihood_in_c(deal, start, codes, me, temperature)
        logs.append(log_likelihood(deal, world, seat, temperature, backend) if found is None else found)
    top = max(logs)
    raw = [math.exp(v - top) for v in logs]
    total = sum(raw)
    weights = [r / total for r in raw]
    if drawn == count:
        return worlds, weights
    kept = [0] * drawn
    step = 1 / count
    at = random.Random(f"{seed}:resample").random() * step
    cumulative = 0.0
    for i, w in enumerate(weights):
        cumulative += w
        while at < cumulative and sum(kept) < count:
            kept[i] += 1
            at += step
    kept[max(range(drawn), key=weights.__getitem__)] += count - sum(kept)  # rounding at the very end
    chosen = [i for i in range(drawn) if kept[i]]
    return [worlds[i] for i in chosen], [kept[i] / count for i in chosen]


def effective_size(weights: list[float]) -> float:
    """The effective sample size of normalised weights, ``1 / sum(w^2)``: how many even worlds they are worth."""
    return 1 / sum(w * w for w in weights)


def starting_deal(deal: Deal, world: World, order: int = 0) -> Deal | None:
    """A starting deal (hands dealt, the whole stock's order) whose log leads to ``world``, or None if none is found.

    A seat whose hand in the world is its hand in the deal keeps its own
    history (the mover's: the draws it saw).  Each other seat's cards (held
    now, played, sung, given in an exchange) go to its dealt hand or to one
    of its draws that came before the card was needed, the latest first and
    the cards of its cantes before the others (a pair held at an earlier won
    trick and not sung then is lost under some rules); the last card of the
    stock, seen by all, stays where it was drawn.  The caller replays the log
    from it under the engine.  ``order`` 1 and above are the other tries of
    :func:`starts` when that one does not replay (a pair held together too
    early breaks a rule such as the 40 sung before a 20): 1 places the cards
    needed last first, each in the latest draw that fits, so that each card
    is held as late as it may be; 2 and above break the ties between cards
    needed by the same trick in an order seeded by ``order``.
    """
    n = deal.rules.players
    history = _history(deal)
    draws = history.draws
    sung = history.sung
    now = len(deal.tricks)
    bottom = len(deal.stock) - 1
    drawn = [c for _, c, _ in draws]
    hands = list(deal.initial_hands)
    for seat in range(n):
        if world.hands[seat] == deal.hands[seat]:
            continue
        needed = dict(history.needed[seat])
        received = history.received[seat]
        for c in cards_in(world.hands[seat]):
            if c not in received:
                needed[c] = min(now, needed.get(c, now))
        slots = [(0, -1)] * deal.initial_hands[seat].bit_count() + [
            slot for slot in history.drawn_by[seat] if slot[1] != bottom]
        if bottom < len(draws) and draws[bottom][0] == seat:
            needed.pop(draws[bottom][1], None)  # the turned card's draw is seen by all
        if len(slots) != len(needed):
            return None
        hands[seat] = 0
        ties = random.Random(order) if order > 1 else None
        rank = {c: ties.random() if ties else c for c in needed}
        placing = sorted(needed.items(), key=lambda item: (item[1], not sung >> item[0] & 1, rank[item[0]]),
                         reverse=order == 1)
        held = [held_from for held_from, _ in slots]  # in the order of the draws: never decreasing
        for c, by in placing:
            fits = bisect.bisect_right(held, by)  # the slots held from trick ``by`` or before
            if not fits:
                return None
            latest = bisect.bisect_left(held, held[fits - 1])  # the first of the latest of them, as max() finds
            del held[latest]
            _, i = slots.pop(latest)
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
