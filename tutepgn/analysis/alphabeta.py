"""The double-dummy search in pure Python: the reference for the C core (``tutepgn/native/ccore.c``) and its fallback.

One alpha-beta search over the plays, the side valued (``team``) maximising
its points and the others minimising them, fail-soft, with:

* a transposition table only at trick starts, keyed by the canonical form of
  the hands (the zero-point cards 2, 4, 5, 6, 7 of each suit squeezed to the
  bottom: :data:`~tutepgn.analysis.position.SQUEEZE`), the leader and, with
  cantes, what was sung; each entry holds a lower and an upper bound and the
  best lead.  An entry decides a node only by a cut-off or when exact: it never
  narrows the window (an exact value inside it narrowed to an empty window gave
  a wrong answer in a prototype).
  With the stock out and no cantes the key is *ranked*: each suit's live
  cards squeezed to the bottom whatever their points (the hands' shape), the
  live point cards apart.  Two positions of one shape are the same game with
  cards worth other points, so their values differ by at most the
  :func:`slack` of their points: on a miss, an entry of the same shape (the
  last :data:`WAYS` stored) cuts when its bounds widened by the slack do;
* equivalent cards tried once: in one hand, adjacent among the live cards
  (hands and table) and worth the same points (so only zero-point cards);
  and a card of a run (in one hand, no live card of another hand between) is
  skipped when a card of the run tried before bounds it outside the window:
  the two can be swapped in every line of play, so their values differ by at
  most their points' difference (:func:`sibling_bound`);
* move ordering: the table's best lead first, then cards that win the trick
  whatever the opponents still to play hold, with many points, then points
  given to a partner sure to win, then cheap cards thrown away;
* at a trick start, a cut-off when bounds of the value are outside the window:
  at most every point left (cards, last ten, cantes still held) less the
  opponents' sure trumps, at least the team's sure trumps (the highest trump
  left always wins its trick; a trump still in the stock counts against both sides), raised (or lowered)
  by the quick tricks of the side to lead: the points its leader surely captures by leading its top cards
  of plain suits while no opponent can trump them;
* the last trick (one card a hand, the stock empty) played out at once, without a node per card;
* with cards in the stock, after each trick the winner draws first, then the
  others, as the engine does; any card may be played while the stock has cards
  when the ruleset says so.  While the stock has cards the key holds the hands
  as they are (no squeezing: the cards to be drawn are live) and the number of
  cards drawn; the table is only kept for positions with the same stock order.

With cantes, after each trick but the last (and its draw) the winning side's
declaration window is decided (:mod:`tutepgn.analysis.cantes`): the other
sides sing by the fixed policy at once; the side valued too when one set of
cantes is legal, else the next node (``pending``, before the table's key is
made) tries each maximal legal set, maximising.  The key holds what was sung,
the barred sides and the sides that won a trick, so what a later window allows
is a function of it.

The C core is the same algorithm line for line (its table is a fixed array of
two-entry buckets, and a second of four-entry buckets by shape, where this one
is a dict and a list of keys per shape, so on big searches their node counts
can differ); they are tested to agree.
"""

from __future__ import annotations

from ..cards import ABOVE, BIT, CARD_POINTS, CARD_SUIT, FULL_PACK, SUIT_MASK, SUITS, Card, Mask, cards_in
from ..declarations import CANTE_PAIRS
from ..duties import play_duty, trick_state
from ..native.layout import STOCK_PER_WORD, duty_options
from .cantes import cante_sets, set_points, singable
from .position import MERGE, SQUEEZE, ZEROS

UNKNOWN_HIGH = 1 << 14
"""Upper bound stored for a table entry that has none yet (values are points, far below)."""


SUIT_POINTS = tuple(sum(CARD_POINTS[c] for c in range(10) if bits >> c & 1) for bits in range(1 << 10))
"""``SUIT_POINTS[bits]``: the points of the cards of one suit whose strengths are the bits set (the same in every suit)."""


CANTE_CARDS: Mask = sum(CANTE_PAIRS)
"""The reyes and caballos: with cantes, holding one rather than another card changes what may be sung."""
RANKED = 1 << 183
"""The key's flag of a ranked key (the stock out, no cantes): hands squeezed to their shape, the points apart."""
POINTS_SHIFT = 184
POINT_BITS = ((1 << 20) - 1) << POINTS_SHIFT
"""The live point cards of a ranked key, 5 bits a suit (sota, caballo, rey, tres, as)."""
WAYS = 4
"""Keys of one shape probed on a miss (the C table's shape bucket holds 4 entries)."""


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


class PythonSearch:
    """The search over one packed position (:meth:`Position.packed`); ``table`` persists across calls.

    ``table=None`` searches without a table: the reference the table is checked against.
    """

    def __init__(self, table: dict[int, list[int]] | None) -> None:
        self.table = table
        self.shapes: dict[int, list[int]] = {}  # a ranked key's shape (points left out): its keys in the table
        self.nodes = 0

    def search(self, packed: tuple[int, ...], alpha: int, beta: int, only: int = -1) -> int:
        """The fail-soft value for the team in the window (alpha, beta); ``only`` restricts the first play."""
        (n, trump, h0, h1, h2, h3, leader, trick_len, t0, t1, t2, t3, team, duties, sides, sing, cante_points,
         cuarenta_points, limit, bonus, bar_silent, sung, barred, lost, won, b0, b1, b2, b3, stock_len, free,
         *words) = packed[:-7]
        (forty_first, only_after_draw, block_last, window_open, window_cantes, window_after_draw,
         window_first) = packed[-7:]
        self.stock = [words[i // STOCK_PER_WORD] >> (6 * (i % STOCK_PER_WORD)) & 63 for i in range(stock_len)]
        self.stock_after = [sum(BIT[c] for c in self.stock[i:]) for i in range(stock_len + 1)]
        self.stock_pos, self.free = 0, free
        self.n, self.trump, self.team, self.bonus = n, trump, team, bonus
        self.hands = [h0, h1, h2, h3][:n]
        self.trick = [t0, t1, t2, t3][:trick_len]
        self.leader = leader
        self.led, self.high_led, self.high_trump, self.winning = trick_state(self.trick, leader, trump, n)
        self.rules = duty_options(duties)
        self.side_of = [sides >> (2 * s) & 3 for s in range(n)]
        self.seats = [tuple(s for s in range(n) if self.side_of[s] == k) for k in range(4)]
        self.sing, self.bar_silent, self.limit = sing, bar_silent, limit
        self.cante_points, self.cuarenta_points = cante_points, cuarenta_points
        self.lost = [lost >> (4 * k) & 15 for k in range(4)]
        self.blocked = b0 | b1 | b2 | b3  # a blocked card is in the hand of the seat that drew it
        last_round = stock_len - ((stock_len - 1) % n + 1) if stock_len else 0
        self.blocked_last = sum(BIT[c] for c in self.stock[last_round:]) if block_last else 0
        self.forty_first, self.only_after_draw = forty_first, only_after_draw
        self.team_side = self.side_of[(team & -team).bit_length() - 1]
        self.sung, self.barred, self.won = sung, barred, won
        self.pending = 0
        if not (sing and window_open and trick_len == 0):
            return self.node(alpha, beta, only)
        gained = self.window(self.side_of[leader], window_after_draw, limit - window_cantes,
                             window_first and not window_cantes)
        return gained + self.node(alpha - gained, beta - gained, only)

    def window(self, side: int, drew: int, remaining: int, first_silent: int) -> int:
        """The declaration window of ``side`` (its seats lead next): the fixed policy's cantes, or the side
        valued's when one set is legal (their points returned), or ``pending`` set for the next node to choose.
        A first won trick closed in silence bars the side (``cante_only_if_sung_at_first_win``)."""
        suits = 0
        if remaining > 0 and not self.barred >> side & 1 and not (self.only_after_draw and not drew):
            blocked = self.blocked | (self.blocked_last if self.stock_pos == len(self.stock) else 0)
            suits = singable(self.hands, self.seats[side], blocked, self.trump, self.sung | self.lost[side])[0]
        if not suits:
            if self.bar_silent and first_silent:
                self.barred |= 1 << side
            return 0
        ours = side == self.team_side
        if suits.bit_count() > remaining:
            if ours:
                self.pending = remaining
                return 0
            suits = cante_sets(suits, 0, self.trump, remaining, False)[0]  # the policy: its first set is legal
        self.sung |= suits
        return set_points(suits, self.trump, self.cante_points, self.cuarenta_points) if ours else 0

    def choose(self, alpha: int, beta: int, only: int) -> int:
        """The node of a pending window of the side valued: each maximal legal set of cantes, maximising."""
        remaining, self.pending = self.pending, 0
        side = self.side_of[self.leader]
        blocked = self.blocked | (self.blocked_last if self.stock_pos == len(self.stock) else 0)
        suits, forty = singable(self.hands, self.seats[side], blocked, self.trump, self.sung | self.lost[side])
        sung, best = self.sung, -1
        for m in cante_sets(suits, forty, self.trump, remaining, bool(self.forty_first)):
            self.sung = sung | m
            points = set_points(m, self.trump, self.cante_points, self.cuarenta_points)
            v = points + self.node(alpha - points, beta - points, only)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
            if alpha >= beta:
                break
        self.sung, self.pending = sung, remaining
        return best

    def key(self) -> int:
        """The table key at a trick start: the canonical hands, the leader and either the cante state and the
        cards drawn or, ranked (the stock out, no cantes), the live point cards apart from the hands' shape."""
        hands = self.hands
        live = self.stock_after[self.stock_pos]
        for h in hands:
            live |= h
        key = 0
        drawing = self.stock_pos < len(self.stock)
        ranked = not drawing and not self.sing
        s0, s1, s2, s3 = SQUEEZE[live & 31], SQUEEZE[live >> 10 & 31], SQUEEZE[live >> 20 & 31], SQUEEZE[live >> 30 & 31]
        if ranked:  # each suit's live cards squeezed to the bottom, the zero-point ones first
            highs = [(SQUEEZE[live >> (10 * s + 5) & 31], 10 * s + 5, 10 * s + (live >> (10 * s) & 31).bit_count())
                     for s in SUITS]
        for i, h in enumerate(hands):
            if drawing:
                canon = h
            elif ranked:
                canon = (s0[h & 31] | s1[h >> 10 & 31] << 10 | s2[h >> 20 & 31] << 20 | s3[h >> 30 & 31] << 30)
                for table, at, to in highs:
                    canon |= table[h >> at & 31] << to
            else:
                canon = (h & ~ZEROS | s0[h & 31] | s1[h >> 10 & 31] << 10 | s2[h >> 20 & 31] << 20
                         | s3[h >> 30 & 31] << 30)
            key |= canon << (40 * i)
        key |= self.leader << 160
        if ranked:
            points = live >> 5 & 31 | (live >> 15 & 31) << 5 | (live >> 25 & 31) << 10 | (live >> 35 & 31) << 15
            return key | RANKED | points << POINTS_SHIFT
        key |= self.stock_pos << 174
        if self.sing:
            key |= (self.sung | self.barred << 4 | self.won << 8) << 162
        return key

    def shaped(self, key: int, alpha: int, beta: int) -> int | None:
        """A cut-off from a stored position of the same shape (ranked ``key``), its bounds widened by the slack
        of the points; None if none cuts."""
        assert self.table is not None
        for other in self.shapes.get(key & ~POINT_BITS, ()):
            low, high, _ = self.table[other]
            d = slack(other, key)
            if low - d >= beta:
                return low - d
            if high < UNKNOWN_HIGH and high + d <= alpha:
                return high + d
        return None

    def store(self, key: int, entry: list[int]) -> None:
        """``entry`` at ``key``; a ranked key also among its shape's (the last WAYS stored are probed)."""
        assert self.table is not None
        if key not in self.table and key & RANKED:
            keys = self.shapes.setdefault(key & ~POINT_BITS, [])
            keys.append(key)
            if len(keys) > WAYS:
                del keys[0]
        self.table[key] = entry

    def quick_tricks(self, live: Mask) -> int:
        """The points the leader's side surely captures by leading, from the top, its run of the highest live
        cards (``live``: every hand) of plain suits (the stock empty, suits to be followed).

        A round of a suit is sure while every opponent holding a trump still has a card of it (so must follow
        and cannot beat); a partner holding trumps and none of the suit may trump, which wins the round for
        the side but takes the lead, so the chain stops there.  Counted: the cards led and, in each sure round,
        the cheapest card of the suit each other seat must follow with (for a seat without trumps, which may
        have discarded cards of the suit in earlier rounds, only in the first suit run).
        """
        if self.stock_pos < len(self.stock) or not self.rules.must_follow:
            return 0
        hands, n, team, leader = self.hands, self.n, self.team, self.leader
        mine = hands[leader]
        side = team >> leader & 1
        trumps = SUIT_MASK[self.trump]
        points = 0
        first = True
        for suit in SUITS:
            rest = live & SUIT_MASK[suit]
            if suit == self.trump or not rest or not mine >> (rest.bit_length() - 1) & 1:
                continue  # the leader does not hold the suit's highest live card
            sm = SUIT_MASK[suit]
            led = []
            while rest:
                top = rest.bit_length() - 1
                if not mine >> top & 1:
                    break
                led.append(top)
                rest ^= BIT[top]
            rounds, stop = len(led), False
            for i in range(1, n):
                p = (leader + i) % n
                if not hands[p] & trumps:
                    continue
                m = (hands[p] & sm).bit_count()
                if (team >> p & 1) != side:
                    if m < rounds:
                        rounds, stop = m, False
                elif m + 1 <= rounds:
                    rounds, stop = m + 1, True
            if not rounds:  # an opponent may trump the first round
                continue
            points += sum(CARD_POINTS[c] for c in led[:rounds])
            for i in range(1, n):
                p = (leader + i) % n
                if first or hands[p] & trumps:
                    points += sum(CARD_POINTS[c] for c in cards_in(hands[p] & sm)[:rounds])
            first = False
            if stop:
                break
        return points

    def last_trick(self) -> int:
        """The last trick played out, one card in each hand and the stock empty: the team's points from it
        (its cards and the last ten if the team wins it; no cante is sung after the last trick), or -1."""
        if self.stock_pos < len(self.stock):
            return -1
        n, leader, trump = self.n, self.leader, self.trump
        win, high, points = leader, -1, self.bonus
        for i in range(n):
            seat = (leader + i) % n
            h = self.hands[seat]
            if h.bit_count() != 1:
                return -1
            c = h.bit_length() - 1
            points += CARD_POINTS[c]
            if high < 0 or (c > high if CARD_SUIT[c] == CARD_SUIT[high] else CARD_SUIT[c] == trump):
                high, win = c, seat
        return points if self.team >> win & 1 else 0

    def bounds(self, only: int = -1) -> tuple[int, int]:
        """At a trick start, the least and the most the team can still make.

        The most: every card point, the last ten and the cantes still held, less the points of the
        opponents' trumps above every trump of the team and of the stock (the highest trump left always wins
        its trick, and every card is played); the least: the points of the team's trumps above every trump of
        the opponents and of the stock.  Then the leader's side's :meth:`quick_tricks` raise the least (the
        team leads) or lower the most (the opponents lead), unless the first card is forced (``only``): they
        rest on the leader's choice of lead.
        """
        ours = theirs = 0
        for seat, h in enumerate(self.hands):
            if self.team >> seat & 1:
                ours |= h
            else:
                theirs |= h
        trumps = SUIT_MASK[self.trump]
        stock = self.stock_after[self.stock_pos]
        our_trumps, their_trumps, stock_trumps = ours & trumps, theirs & trumps, stock & trumps
        above_ours, above_theirs = their_trumps | stock_trumps, our_trumps | stock_trumps
        sure_ours = our_trumps & ABOVE[above_ours.bit_length() - 1] if above_ours else our_trumps
        sure_theirs = their_trumps & ABOVE[above_theirs.bit_length() - 1] if above_theirs else their_trumps
        least = card_points(sure_ours)
        most = self.bonus + card_points(ours | theirs | stock) - card_points(sure_theirs)
        quick = self.quick_tricks(ours | theirs) if only < 0 else 0
        if self.team >> self.leader & 1:
            least += quick
        else:
            most -= quick
        side = self.team_side
        if (self.sing and not self.barred >> side & 1
                and not (self.only_after_draw and self.stock_pos == len(self.stock))):
            closed, reach = self.sung | self.lost[side], ours | stock
            for s in SUITS:
                if not closed >> s & 1 and reach & CANTE_PAIRS[s] == CANTE_PAIRS[s]:
                    most += self.cuarenta_points if s == self.trump else self.cante_points
        return least, most

    def node(self, alpha: int, beta: int, only: int = -1) -> int:
        """One node: the team's points from here, fail-soft in (alpha, beta)."""
        self.nodes += 1
        hands, trick, n = self.hands, self.trick, self.n
        start = not trick
        hint = -1
        key = 0
        entry = None
        if start:
            if self.pending:
                return self.choose(alpha, beta, only)
            seat = self.leader
            if not hands[seat]:
                return 0
            last = self.last_trick()
            if last >= 0:
                return last
            least, most = self.bounds(only)
            if least >= beta:
                return least
            if most <= alpha:
                return most
            if self.table is not None:
                key = self.key()
                entry = self.table.get(key)
            if entry is not None and only < 0:
                low, high, hint = entry
                if low == high or low >= beta:
                    return low
                if high <= alpha:
                    return high
            elif entry is None and only < 0 and key & RANKED:
                cut = self.shaped(key, alpha, beta)
                if cut is not None:
                    return cut
        else:
            seat = (self.leader + len(trick)) % n
        w = self.winning
        partner_winning = w >= 0 and w != seat and self.side_of[w] == self.side_of[seat]
        if self.free and self.stock_pos < len(self.stock):
            legal = hands[seat]
        else:
            legal = play_duty(hands[seat], self.led, self.high_led, self.high_trump, self.trump, partner_winning,
                              self.rules)[0]  # type: ignore[arg-type]  # duty_options reads like a ruleset
        live = self.stock_after[self.stock_pos]
        for h in hands:
            live |= h
        for c in trick:
            live |= BIT[c]
        maxing = self.team >> seat & 1
        cards = [only] if only >= 0 else self.order(seat, merged(legal, live), hint)
        alpha0, beta0 = alpha, beta
        best = -1 if maxing else UNKNOWN_HIGH
        best_card = -1
        draws = len(trick) == n - 1 and self.stock_pos < len(self.stock)
        hand = hands[seat]
        gaps, swappable = live & ~hand, hand & ~CANTE_CARDS if self.sing else hand
        tried: list[tuple[Card, int]] = []
        for c in cards:
            bound = sibling_bound(tried, c, gaps, swappable, maxing) if tried else None
            if bound is not None and (bound <= alpha if maxing else bound >= beta):
                tried.append((c, bound))  # a card swapped for one tried: no better than its bound
                if bound > best if maxing else bound < best:
                    best, best_card = bound, c
                continue
            saved = (self.leader, self.led, self.high_led, self.high_trump, self.winning, self.sung, self.barred,
                     self.won, list(trick), self.stock_pos, self.pending)
            held = hands[:] if draws else None
            gained = self.play(seat, c)
            v = gained + self.node(alpha - gained, beta - gained)
            (self.leader, self.led, self.high_led, self.high_trump, self.winning, self.sung, self.barred,
             self.won, self.trick, self.stock_pos, self.pending) = saved
            trick = self.trick
            if held is None:
                hands[seat] |= BIT[c]
            else:
                hands[:] = held
            tried.append((c, v))
            if maxing:
                if v > best:
                    best, best_card = v, c
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_card = v, c
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if start and only < 0 and self.table is not None:
            low, high = (entry[0], entry[1]) if entry is not None else (0, UNKNOWN_HIGH)
            if best <= alpha0:
                high = min(high, best)
            elif best >= beta0:
                low = max(low, best)
            else:
                low = high = best
            self.store(key, [low, high, best_card])
        return best

    def beaten_later(self, seat: int, c: Card) -> bool:
        """True if an opponent of the mover still to play in this trick could beat ``c`` (duties aside)."""
        n, trump, team, hands = self.n, self.trump, self.team, self.hands
        trick_len = len(self.trick)
        suit = CARD_SUIT[c]
        led = self.led if trick_len else suit
        mine = team >> seat & 1
        for i in range(trick_len + 1, n):
            later = (seat + i - trick_len) % n
            if (team >> later & 1) == mine:
                continue
            h = hands[later]
            if suit == trump or h & SUIT_MASK[led]:
                if h & ABOVE[c]:
                    return True
            elif h & SUIT_MASK[trump]:
                return True
        return False

    def safe_suits(self, maxing: int) -> Mask:
        """At a lead, the plain suits no opponent of the leader can trump: each opponent holding a trump
        holds the suit."""
        trumps = SUIT_MASK[self.trump]
        safe = FULL_PACK & ~trumps
        for seat, h in enumerate(self.hands):
            if (self.team >> seat & 1) == maxing or not h & trumps:
                continue
            for suit in SUITS:
                if not h & SUIT_MASK[suit]:
                    safe &= ~SUIT_MASK[suit]
        return safe

    def order(self, seat: int, moves: Mask, hint: int) -> list[Card]:
        """The order to try cards in: the table's best lead, sure winners with many points, points given
        to a partner sure to win, leads of a plain suit no opponent can trump (the cheapest first), then cheap
        cards thrown; ties by card int."""
        w, trump, led, high_led, high_trump = self.winning, self.trump, self.led, self.high_led, self.high_trump
        leading = not self.trick
        maxing = self.team >> seat & 1
        mate_sure = (w >= 0 and (self.team >> w & 1) == maxing
                     and not self.beaten_later(seat, high_trump if high_trump >= 0 else high_led))
        safe = self.safe_suits(maxing) if leading else 0
        scored = []
        while moves:  # the cards of moves, weakest int first
            low = moves & -moves
            moves ^= low
            c = low.bit_length() - 1
            points, strength, suit = CARD_POINTS[c], c % 10, CARD_SUIT[c]
            wins = leading or (c > high_trump if suit == trump else (suit == led and high_trump < 0 and c > high_led))
            if c == hint:
                score = 1 << 20
            elif wins and not self.beaten_later(seat, c):
                score = 2000 + 16 * points - strength
            elif mate_sure:
                score = 1000 + 16 * points - strength
            elif safe >> c & 1:
                score = 500 - 16 * points - strength
            else:
                score = -16 * points - strength
            scored.append((-score, c))
        scored.sort()
        return [c for _, c in scored]

    def play(self, seat: int, c: Card) -> int:
        """Play ``c`` for ``seat``; return the points the team gains if it ends the trick (cantes included)."""
        hands = self.hands
        hands[seat] ^= BIT[c]
        trick = self.trick
        suit = CARD_SUIT[c]
        if not trick:
            self.led, self.high_led, self.winning = suit, c, seat
            self.high_trump = c if suit == self.trump else -1
        elif suit == self.trump:
            if c > self.high_trump:
                self.high_trump, self.winning = c, seat
        elif suit == self.led and c > self.high_led:
            self.high_led = c
            if self.high_trump < 0:
                self.winning = seat
        trick.append(c)
        if len(trick) < self.n:
            return 0
        w = self.winning
        points = 0
        for x in trick:
            points += CARD_POINTS[x]
        drew = self.stock_pos < len(self.stock)
        more = bool(hands[w]) or drew
        if not more:
            points += self.bonus
        gained = points if self.team >> w & 1 else 0
        side = self.side_of[w]
        for i in range(self.n):  # the draw: the winner first, while the stock lasts (Deal._draw)
            if self.stock_pos >= len(self.stock):
                break
            hands[(w + i) % self.n] |= BIT[self.stock[self.stock_pos]]
            self.stock_pos += 1
        self.trick = []
        self.leader = w
        self.led = self.high_led = self.high_trump = self.winning = -1
        if self.sing and more:  # the window opens after the draw, on the hands it filled (Deal._finish_trick)
            gained += self.window(side, drew, self.limit, not self.won >> side & 1)
        self.won |= 1 << side
        return gained

