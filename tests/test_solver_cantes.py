"""The search's cante choices against an exhaustive minimax over the engine's own legal actions.

The reference plays copies of the engine's ``Deal``: at each step every legal play and every legal cante
(``legal_actions()``, in any order, silence included: a play closes the window), the side valued maximising
its total (cards, last ten, cantes), the others minimising it.  Tute announcements and exchanges are left out
of the reference, as the search makes neither (a tute ends the deal; the exchange of the trump 7 or 2 is not
searched).  A memo on the engine's state (what decides the rest of the deal) keeps it fast; it prunes nothing.

Positions: small random endgames of every preset with rey and caballo pairs planted in the hands (and in the
stock of 2-player deals), some with a declaration window open, some mid-trick, some with cantes already sung,
lost or barred; the issue's two cases (the order of two cantes with one cante a trick; ``forty_first`` per
seat, not per side).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest

from tutepgn import PRESETS, Cante, Deal, Play, preset
from tutepgn.analysis.solve import C_AVAILABLE, Position, Solver
from tutepgn.cards import CABALLO, REY, card, cards_in, pack

BACKENDS = ["python", "c"] if C_AVAILABLE else ["python"]


def clone(deal: Deal) -> Deal:
    """A copy of a deal that can be played on without touching the original (its containers copied)."""
    new = copy.copy(deal)
    for name, value in vars(deal).items():
        if isinstance(value, (list, set, dict)):
            setattr(new, name, value.copy())
    return new


def state(deal: Deal) -> tuple[object, ...]:
    """What decides the rest of a deal (for the memo): cards, trick, turn, draws, cante state, the windows."""
    return (tuple(deal.hands), tuple(deal.trick), deal.turn, deal.stock_pos, frozenset(deal.sung_suits),
            frozenset(deal.barred_sides), frozenset(deal.lost_cantes), deal.window_side, deal.window_cantes,
            deal.window_after_draw, tuple(min(w, 2) for w in deal.wins), frozenset(deal.last_draw.items()),
            deal.over)


class Exhaustive:
    """Minimax over the engine for one side: ``gain(deal)`` is the points the side makes from there to the end."""

    def __init__(self, side: int, greedy: bool = False) -> None:
        self.side, self.greedy = side, greedy
        self.memo: dict[tuple[object, ...], int] = {}

    def total(self, deal: Deal) -> int:
        """The side's points so far (the engine's count, :meth:`Deal.score`'s totals, without building a sheet)."""
        side = self.side
        points = deal.won_points[side] + sum(c.points for c in deal.cantes if c.side == side)
        if deal.over and deal.tricks and deal.side_of(deal.tricks[-1].winner) == side:
            points += deal.rules.last_trick_bonus
        return points

    def gain(self, deal: Deal) -> int:
        if deal.over:
            return 0
        key = state(deal)
        if key not in self.memo:
            self.memo[key] = self.best(deal, [self.after(deal, a) for a in self.actions(deal)])
        return self.memo[key]

    def actions(self, deal: Deal) -> list[Play | Cante]:
        """Every legal play and cante; ``greedy``: the old fixed policy, the 40 then the 20s by suit, forced."""
        cantes = [a for a in deal.legal_actions() if type(a) is Cante]
        if self.greedy and cantes:
            return [min(cantes, key=lambda a: (a.suit != deal.trump, a.suit))]
        return [*cantes, *(Play(deal.turn, c) for c in deal.legal_plays())]

    def after(self, deal: Deal, action: Play | Cante) -> int:
        child = clone(deal)
        before = self.total(child)
        child.apply(action)
        return self.total(child) - before + self.gain(child)

    def best(self, deal: Deal, values: list[int]) -> int:
        return max(values) if deal.side_of(deal.turn) == self.side else min(values)

    def cards(self, deal: Deal) -> dict[int, int]:
        """The value of each legal card: the window (if open) decided first, then the card played."""
        def then(d: Deal, c: int) -> int:
            options = [self.after(d, Play(d.turn, c))]
            for a in (x for x in d.legal_actions() if type(x) is Cante):
                child = clone(d)
                before = self.total(child)
                child.apply(a)
                options.append(self.total(child) - before + then(child, c))
            return self.best(d, options)
        return {c: then(deal, c) for c in deal.legal_plays()}


# -- Positions ------------------------------------------------------------------------------------------

def planted(name: str, seed: int) -> Deal:
    """A small endgame whose first trick was just won by a side holding more pairs than it may sing at once.

    The side's leader holds the ace of trump and leads it (so its side wins), one pair more than
    ``cantes_per_trick`` is planted in its side's hands (in 2-player deals now and then a card of a pair is in
    the stock instead), the 40 beside the ace (so that following the ace breaks no pair); 3-4 cards a hand remain after the trick
    (with four players 3, or 4 with two cantes a trick: three pairs in two hands), with 2 players a stock of
    0, 2 or 4 cards (2 or 4 under ``declare_only_after_draw``).  Then at random: a suit sung or lost beforehand, a cante already sung in the window, the
    next lead made (the window closed: choices come later), a card or two down."""
    rules = PRESETS[name]
    rng = random.Random(seed)
    n, limit = rules.players, rules.cantes_per_trick
    leader = rng.randrange(n)
    mates = [s for s in range(n) if rules.side_of(s) == rules.side_of(leader)]
    trump = rng.randrange(4)
    size = (3 + limit) if n == 4 else rng.choice((4, 5))
    stock_size = rng.choice((0, 2, 4) if not rules.declare_only_after_draw else (2, 4)) if n == 2 else 0
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[leader].append(card(1, trump))
    stock: list[int] = []
    planted: list[int] = []
    for suit in sorted(rng.sample(range(4), limit + 1), key=lambda s: s != trump):
        pair = [card(REY, suit), card(CABALLO, suit)]
        planted += pair
        seats = [leader] if suit == trump else mates  # the 40 beside the ace: following it breaks no pair
        room = [s for s in seats if len(hands[s]) + 2 <= size]
        if stock_size and rng.random() < 0.25:
            hands[rng.choice(mates)].append(pair[0])
            stock.append(pair[1])
        elif room:
            hands[rng.choice(room)] += pair
    used = {c for h in hands for c in h} | set(stock)
    deck = [c for c in cards_in(pack(rules.removed_ranks)) if c not in used]
    rng.shuffle(deck)
    dealer = (leader - 1) % n
    if stock_size:
        stock = stock[:stock_size - 1]
        while len(stock) < stock_size - 1:
            stock.append(deck.pop())
        rng.shuffle(stock)
        stock.append(next(c for c in deck if c // 10 == trump))  # the turned card: trump's suit
        deck.remove(stock[-1])
    elif len(hands[dealer]) < size:
        hands[dealer].append(next(c for c in deck if c // 10 == trump))
        deck.remove(hands[dealer][-1])
    for seat in range(n):
        while len(hands[seat]) < size:
            hands[seat].append(deck.pop())
    masks = [sum(1 << c for c in h) for h in hands]
    turned = stock[-1] if stock else next(c for c in hands[dealer] if c // 10 == trump)
    deal = Deal(rules, masks, stock, turned, dealer)
    deal.play(card(1, trump))
    for _ in range(n - 1):  # the ace of trump wins the first trick: its side's window is open
        legal = list(deal.legal_plays())
        deal.play(rng.choice([c for c in legal if c not in planted] or legal))
    if rng.random() < 0.15:
        deal.sung_suits.add(rng.randrange(4))
    if rng.random() < 0.15:
        deal.lost_cantes.add((rng.randrange(rules.sides), rng.randrange(4)))
    cantes = [a for a in deal.legal_actions() if type(a) is Cante]
    if cantes and (limit > 1 or rng.random() < 0.1) and rng.random() < 0.3:
        deal.apply(rng.choice(cantes))
    for _ in range(rng.choice((0, 0, 0, 1, 2))):
        deal.play(rng.choice(list(deal.legal_plays())))
    return deal


def positions() -> list[tuple[str, Deal]]:
    out = []
    for name in PRESETS:
        count = 4 if PRESETS[name].players == 4 and PRESETS[name].cantes_per_trick > 1 else 30  # 4 tricks of 4
        out += [(name, planted(name, 1000 * i + len(name))) for i in range(count)]
    return out


POSITIONS = positions()


def choices(deal: Deal) -> int:
    """How many different maximal sets of cantes the open window's side may sing now (by the engine)."""
    def sets(d: Deal, sung: frozenset[int]) -> set[frozenset[int]]:
        cantes = [a for a in d.legal_actions() if type(a) is Cante]
        out: set[frozenset[int]] = set() if cantes else {sung}
        for a in cantes:
            child = clone(d)
            child.apply(a)
            out |= sets(child, sung | {a.suit})
        return out
    return len(sets(deal, frozenset())) if not deal.trick and deal.window_side is not None else 0


def sides(deal: Deal) -> list[int]:
    return list(range(deal.rules.sides))


def seat_of(deal: Deal, side: int) -> int:
    return next(s for s in range(deal.rules.players) if deal.side_of(s) == side)


def test_the_positions_are_what_the_issue_asks() -> None:
    """Every preset, windows open and mid-trick, 2-player positions with a stock, choices that matter."""
    assert {name for name, _ in POSITIONS} == set(PRESETS)
    assert sum(1 for _, d in POSITIONS if not d.trick and d.window_side is not None) >= 60
    assert sum(1 for _, d in POSITIONS if d.trick) >= 20
    assert sum(1 for _, d in POSITIONS if d.stock_left) >= 15
    assert sum(1 for _, d in POSITIONS if choices(d) > 1) >= 25  # the search branches at the root
    assert {name for name, d in POSITIONS if choices(d) > 1} == set(PRESETS)
    differs = 0
    for _, deal in POSITIONS:
        for side in sides(deal):
            differs += Exhaustive(side).gain(deal) != Exhaustive(side, greedy=True).gain(deal)
    assert differs >= 4  # the choice, not the old fixed policy, decided these values


@pytest.mark.parametrize("backend", BACKENDS)
def test_values_with_cantes_agree_with_exhaustive_minimax(backend: str) -> None:
    for name, deal in POSITIONS:
        for side in sides(deal):
            reference = Exhaustive(side)
            expected = reference.gain(deal)
            position = Position.from_deal(deal, seat_of(deal, side), cantes=True)
            solver = Solver(backend)
            assert solver.value(position) == expected, (name, side, deal.log)
            got = {c: cv.value for cv in solver.values_of_legal_cards(position) for c in cv.cards}
            assert got == reference.cards(deal), (name, side, deal.log)
            assert solver.reaches(position, expected) and not solver.reaches(position, expected + 1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_without_cantes_the_search_ignores_them(backend: str) -> None:
    """``cantes=False``: card points and the last ten only, whatever pairs are held (minimax without cantes)."""
    for name, deal in POSITIONS[::3]:
        side = deal.side_of(deal.turn)
        reference = Exhaustive(side)
        reference.actions = lambda d: [Play(d.turn, c) for c in d.legal_plays()]  # type: ignore[method-assign]
        reference.total = lambda d: d.score().totals[side] - d.score().cante_points(side)  # type: ignore[method-assign]
        assert Solver(backend).value(Position.from_deal(deal)) == reference.gain(deal), name


# -- The issue's cases ------------------------------------------------------------------------------------

def random_plays(name: str, seed: int, until: Callable[[Deal], bool]) -> Deal:
    """A shuffled deal played at random (plays only), both from ``seed``, until ``until`` holds."""
    deal = Deal.shuffled(preset(name), seed)
    rng = random.Random(seed)
    while not until(deal):
        deal.play(rng.choice(list(deal.legal_plays())))
    return deal


def case_77909() -> Deal:
    """playcard-2p, one cante a trick: N has just won with oros (the 20) and espadas to sing."""
    return random_plays("playcard-2p", 77909, lambda d: len(d.tricks) == 15 and not d.stock_left)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_order_of_two_cantes_with_one_a_trick(backend: str) -> None:
    """The fixed policy sang oros first and was worth 24; espadas first, a legal choice, is worth 44."""
    deal = case_77909()
    assert deal.window_side == 0 and deal.rules.cantes_per_trick == 1
    assert {a for a in deal.legal_actions() if type(a) is Cante} == {Cante(0, 0), Cante(0, 2)}
    position = Position.from_deal(deal, seat=0, cantes=True)
    assert Solver(backend).value(position) == 44 == Exhaustive(0).gain(deal)
    assert Exhaustive(0, greedy=True).gain(deal) == 24
    espadas = clone(deal)
    espadas.cante(0, 2)
    assert Solver(backend).value(Position.from_deal(espadas, seat=0, cantes=True)) == 24  # 20 sung, 24 to come


def case_forty_first() -> Deal:
    """torofun-4p after 3 tricks (found by a search over seeds): E holds the 40 (oros), its partner W a 20."""
    return random_plays("torofun-4p", FORTY_FIRST_SEED, lambda d: len(d.tricks) == FORTY_FIRST_TRICKS and not d.trick)


FORTY_FIRST_SEED, FORTY_FIRST_TRICKS = 2391, 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_forty_first_is_per_seat(backend: str) -> None:
    """No 20 from a seat that could sing the 40: the partner of the 40's holder may sing its 20 first."""
    deal = case_forty_first()
    side = deal.window_side
    assert side is not None and deal.rules.cantes_per_trick == 1 and deal.rules.forty_first
    cantes = [a for a in deal.legal_actions() if type(a) is Cante]
    forty = next(a for a in cantes if a.suit == deal.trump)
    twenty = next(a for a in cantes if a.suit != deal.trump and a.seat != forty.seat)
    position = Position.from_deal(deal, twenty.seat, cantes=True)
    value = Solver(backend).value(position)
    worth = {}
    for a in (forty, twenty):
        child = clone(deal)
        child.apply(a)
        worth[a] = child.score().totals[side] - deal.score().totals[side] + Solver(backend).value(
            Position.from_deal(child, twenty.seat, cantes=True))
    assert value == worth[twenty] == 112 and worth[forty] == 98  # the 40 first, as the old policy sang, loses 14
