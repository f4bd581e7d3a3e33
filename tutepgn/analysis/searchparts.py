"""The pure parts of the pure-Python search (:mod:`.alphabeta`): tables and functions of the cards alone.

The points of a suit's cards and of its top and bottom runs, the ranked key's layout and one suit's part of
it, the slack between two positions of one shape, the bound a run's card tried gives another, the merge of
equivalent zero-point cards, the move order's keys and the order of the leads, the quick tricks.  Apart from
:class:`~.alphabeta.PythonSearch` so that each module stays one concept (and under 600 lines).
"""

from __future__ import annotations

from ..cards import ABOVE, CARD_POINTS, CARD_SUIT, SUIT_MASK, SUITS, Card, Mask
from .position import MERGE, SQUEEZE, ZEROS

SUIT_POINTS = tuple(sum(CARD_POINTS[c] for c in range(10) if bits >> c & 1) for bits in range(1 << 10))
"""``SUIT_POINTS[bits]``: the points of the cards of one suit whose strengths are the bits set (the same in every suit)."""


RANKED = 1 << 183
"""The key's flag of a ranked key (the stock out, no cantes): hands squeezed to their shape, the points apart."""
POINTS_SHIFT = 184
POINT_BITS = ((1 << 20) - 1) << POINTS_SHIFT
"""The live point cards of a ranked key, 5 bits a suit (sota, caballo, rey, tres, as)."""
SUIT_FIELDS = sum(1023 << (40 * i) for i in range(4))
"""The lowest suit's bits of each hand in the hands as one int (40 bits a hand)."""


def suit_part(held: int, shift: int) -> int:
    """One suit's part of a ranked key (:meth:`PythonSearch.ranked_key`): ``held`` is the suit's cards in each
    hand's 40-bit field, the suit's bits moved to the bottom (``shift``: where the suit's bits go back)."""
    live = (held | held >> 40 | held >> 80 | held >> 120) & 1023
    low, high, at = SQUEEZE[live & 31], SQUEEZE[live >> 5], (live & 31).bit_count()
    part = (live >> 5) << (POINTS_SHIFT + shift // 2)
    for i in (0, 40, 80, 120):
        h = held >> i & 1023
        part |= (low[h & 31] | high[h >> 5] << at) << (i + shift)
    return part


def _slack(a: int, b: int) -> int:
    """The points of two suits' live point cards (5-bit masks) matched from the highest down, summed apart."""
    pa = [CARD_POINTS[5 + i] for i in range(4, -1, -1) if a >> i & 1]
    pb = [CARD_POINTS[5 + i] for i in range(4, -1, -1) if b >> i & 1]
    pa += [0] * (5 - len(pa))
    pb += [0] * (5 - len(pb))
    return sum(abs(x - y) for x, y in zip(pa, pb))


SLACK = tuple(tuple(_slack(a, b) for b in range(32)) for a in range(32))
"""``SLACK[a][b]``: the most the value of two positions of one shape can differ by through one suit's points."""


def slack(a: int, b: int) -> int:
    """The most the values of two ranked keys of one shape differ by: each card worth other points."""
    a, b = a >> POINTS_SHIFT, b >> POINTS_SHIFT
    return (SLACK[a & 31][b & 31] + SLACK[a >> 5 & 31][b >> 5 & 31] + SLACK[a >> 10 & 31][b >> 10 & 31]
            + SLACK[a >> 15 & 31][b >> 15 & 31])


def sibling_bound(tried: list[tuple[Card, int]], c: Card, gaps: Mask, swappable: Mask, maxing: int) -> int | None:
    """The bound a card of a run tried before gives ``c`` (:meth:`PythonSearch.node`), None if none was tried.

    Two cards of one hand with no live card of another hand between them can be swapped in every line of
    play (each beats, follows and is beaten as the other), so their values differ by at most their points'
    difference: the least upper bound (maxing) or the greatest lower bound over the run's cards tried."""
    if not swappable >> c & 1:
        return None
    bound = None
    for a, v in tried:
        lo, hi = (a, c) if a < c else (c, a)
        if CARD_SUIT[a] != CARD_SUIT[c] or not swappable >> a & 1 or gaps & ((1 << hi) - (2 << lo)):
            continue
        diff = abs(CARD_POINTS[a] - CARD_POINTS[c])
        b = v + diff if maxing else v - diff
        if bound is None or (b < bound if maxing else b > bound):
            bound = b
    return bound


def card_points(cards: Mask) -> int:
    """The points of a set of cards (a table look-up a suit: the search's bounds ask at every trick start)."""
    return (SUIT_POINTS[cards & 1023] + SUIT_POINTS[cards >> 10 & 1023] + SUIT_POINTS[cards >> 20 & 1023]
            + SUIT_POINTS[cards >> 30 & 1023])


def merged(legal: Mask, live: Mask) -> Mask:
    """``legal`` with one card per run of equivalent zero-point cards."""
    return (legal & ~ZEROS | MERGE[live & 31][legal & 31] | MERGE[live >> 10 & 31][legal >> 10 & 31] << 10
            | MERGE[live >> 20 & 31][legal >> 20 & 31] << 20 | MERGE[live >> 30 & 31][legal >> 30 & 31] << 30)


def _run_sums(bits: int, top_first: bool) -> tuple[int, ...]:
    """The points of the first k cards of one suit's ``bits`` (k = 0 to 10), from the top or the bottom."""
    cards = [i for i in range(10) if bits >> i & 1]
    sums = [0]
    for c in reversed(cards) if top_first else cards:
        sums.append(sums[-1] + CARD_POINTS[c])
    return tuple(sums + [sums[-1]] * (11 - len(sums)))


TOP_POINTS = tuple(_run_sums(bits, True) for bits in range(1 << 10))
"""``TOP_POINTS[bits][k]``: the points of the k strongest cards of one suit's ``bits`` (all of them if fewer)."""
LOW_POINTS = tuple(_run_sums(bits, False) for bits in range(1 << 10))
"""``LOW_POINTS[bits][k]``: the points of the k weakest cards of one suit's ``bits`` (all of them if fewer)."""


ORDER_TOP = 1 << 20
"""The score of the table's best card; an order key is ``(ORDER_TOP - score) << 6 | card``, sorted ascending."""
WIN_KEY = tuple((ORDER_TOP - 2000 - 16 * CARD_POINTS[c] + c % 10) << 6 | c for c in range(40))
"""Order keys of a sure winner (many points, then the weakest first), of points given to a partner sure to win,
of a lead no opponent can trump (the cheapest first) and of a card thrown away (:meth:`PythonSearch.node`)."""
MATE_KEY = tuple((ORDER_TOP - 1000 - 16 * CARD_POINTS[c] + c % 10) << 6 | c for c in range(40))
SAFE_KEY = tuple((ORDER_TOP - 500 + 16 * CARD_POINTS[c] + c % 10) << 6 | c for c in range(40))
THROW_KEY = tuple((ORDER_TOP + 16 * CARD_POINTS[c] + c % 10) << 6 | c for c in range(40))


def lead_order(hands: list[Mask], opps: tuple[int, ...], trump: int, moves: Mask) -> list[int]:
    """The order of the leads ``moves`` against the opponents ``opps`` (:meth:`PythonSearch.node`'s keys): sure
    winners with many points first, then leads of a plain suit no opponent can trump (the cheapest first), then
    cheap cards thrown.

    A lead is beaten when an opponent holding its suit (or a trump lead's suit) holds a higher card of it,
    or one void in it holds a trump (duties aside); that one also makes the suit unsafe."""
    trumps = SUIT_MASK[trump]
    keys = []
    for suit in SUITS:
        cards = moves & SUIT_MASK[suit]
        if not cards:
            continue
        higher = 0  # the cards of the suit of opponents holding it (any trump of theirs, for trumps)
        trumped = False
        for p in opps:
            h = hands[p]
            if suit == trump or h & SUIT_MASK[suit]:
                higher |= h
            elif h & trumps:
                trumped = True
        other = THROW_KEY if trumped or suit == trump else SAFE_KEY
        while cards:
            low = cards & -cards
            cards ^= low
            c = low.bit_length() - 1
            keys.append(other[c] if trumped or higher & ABOVE[c] else WIN_KEY[c])
    keys.sort()
    return keys


def quick_tricks(hands: list[Mask], leader: int, team: int, trump: int, others: tuple[int, ...], live: Mask) -> int:
    """The body of :meth:`PythonSearch.quick_tricks` (``others``: the other seats from the leader's left)."""
    trumps = SUIT_MASK[trump]
    mine = hands[leader]
    side = team >> leader & 1
    points = 0
    first = True
    for shift in (0, 10, 20, 30):
        rest = live >> shift & 1023
        if shift == 10 * trump or not rest or not mine >> (shift + rest.bit_length() - 1) & 1:
            continue  # the leader does not hold the suit's highest live card
        gap = rest & ~(mine >> shift)
        run = rest & ~((1 << gap.bit_length()) - 1)  # the leader's cards above the highest it lacks
        rounds, stop = run.bit_count(), False
        for p in others:
            h = hands[p]
            if not h & trumps:
                continue
            m = (h >> shift & 1023).bit_count()
            if (team >> p & 1) != side:
                if m < rounds:
                    rounds, stop = m, False
            elif m + 1 <= rounds:
                rounds, stop = m + 1, True
        if not rounds:  # an opponent may trump the first round
            continue
        points += TOP_POINTS[run][rounds]
        for p in others:
            h = hands[p]
            if first or h & trumps:
                points += LOW_POINTS[h >> shift & 1023][rounds]
        first = False
        if stop:
            break
    return points
