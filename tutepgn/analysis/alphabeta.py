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
can differ); they are tested to agree.  This one is written for CPython's speed
rather than to read like the C: the steps of a node inline, the trick so far in
its arguments, and memos of what depends only on the hands (the stock out) and
on the fields a :class:`~.solve.Solver` keeps its search for (a lead's bounds,
the ranked key, the legal cards, the merged cards); the same nodes, values and
table as the plain version it replaced (docs/performance.md).
"""

from __future__ import annotations

from ..cards import ABOVE, BIT, CARD_POINTS, CARD_SUIT, FULL_PACK, SUIT_MASK, SUITS, Card, Mask
from ..declarations import CANTE_PAIRS
from ..duties import play_duty, trick_state
from ..native.layout import STOCK_PER_WORD, duty_options
from .cantes import cante_sets, set_points, singable
from .position import SQUEEZE, ZEROS
from .searchparts import (MATE_KEY, POINT_BITS, RANKED, SUIT_FIELDS, SUIT_POINTS, THROW_KEY, WIN_KEY, card_points,
                          lead_order, merged, quick_tricks, sibling_bound, slack, suit_part)

UNKNOWN_HIGH = 1 << 14
"""Upper bound stored for a table entry that has none yet (values are points, far below)."""
CANTE_CARDS: Mask = sum(CANTE_PAIRS)
"""The reyes and caballos: with cantes, holding one rather than another card changes what may be sung."""
WAYS = 4
"""Keys of one shape probed on a miss (the C table's shape bucket holds 4 entries)."""
MEMO_LIMIT = 1 << 18
"""Entries a memo of :class:`PythonSearch` holds before it is emptied (a deal's search has fewer)."""


class PythonSearch:
    """The search over one packed position (:meth:`Position.packed`); ``table`` persists across calls.

    ``table=None`` searches without a table: the reference the table is checked against.
    """

    def __init__(self, table: dict[int, list[int]] | None) -> None:
        self.table = table
        self.shapes: dict[int, list[int]] = {}  # a ranked key's shape (points left out): its keys in the table
        self.nodes = 0
        # Memos of pure functions of the hands (the stock out) and of the fields fixed for a deal's analysis,
        # which a Solver keeps its search for: the ranked key's hands part, the bounds at a lead (but the
        # cantes), the legal cards, the zero-point cards merged.
        self.ranked_keys: dict[int, int] = {}
        self.bounds: dict[int, tuple[int, int]] = {}
        self.merged: dict[int, Mask] = {}  # the zero-point cards legal once equivalent ones are merged
        self.suit_parts: dict[int, int] = {}  # a suit's part of a ranked key, by the suit's cards in each hand
        self.legal: dict[int, Mask] = {}

    def search(self, packed: tuple[int, ...], alpha: int, beta: int, only: int = -1) -> int:
        """The fail-soft value for the team in the window (alpha, beta); ``only`` restricts the first play."""
        (n, trump, h0, h1, h2, h3, leader, trick_len, t0, t1, t2, t3, team, duties, sides, sing, cante_points,
         cuarenta_points, limit, bonus, bar_silent, sung, barred, lost, won, b0, b1, b2, b3, stock_len, free,
         *words) = packed[:-7]
        (forty_first, only_after_draw, block_last, window_open, window_cantes, window_after_draw,
         window_first) = packed[-7:]
        self.stock = [words[i // STOCK_PER_WORD] >> (6 * (i % STOCK_PER_WORD)) & 63 for i in range(stock_len)]
        self.stock_after = [sum(BIT[c] for c in self.stock[i:]) for i in range(stock_len + 1)]
        self.stock_pos, self.stock_len, self.free = 0, stock_len, free
        self.n, self.trump, self.team, self.bonus = n, trump, team, bonus
        self.trumps, self.trump_shift = SUIT_MASK[trump], 10 * trump
        self.hands = [h0, h1, h2, h3][:n]
        trick = [t0, t1, t2, t3][:trick_len]
        self.leader = leader
        led, high_led, high_trump, winning = trick_state(trick, leader, trump, n)
        trick_cards, trick_points = sum(BIT[c] for c in trick), sum(CARD_POINTS[c] for c in trick)
        self.rules = duty_options(duties)
        self.must_follow = self.rules.must_follow
        self.side_of = [sides >> (2 * s) & 3 for s in range(n)]
        self.seats = [tuple(s for s in range(n) if self.side_of[s] == k) for k in range(4)]
        self.team_seats = tuple(s for s in range(n) if team >> s & 1)
        self.others = [tuple((p + i) % n for i in range(1, n)) for p in range(n)]
        self.later = [[tuple((p + i) % n for i in range(k + 1, n) if (team >> (p + i) % n ^ team >> (p + k) % n) & 1)
                       for k in range(n)] for p in range(n)]  # the mover's opponents still to play, by leader and cards down
        self.opponents = [tuple(p for p in range(n) if (team >> p ^ team >> s) & 1) for s in range(n)]
        self.live = self.stock_after[0] | h0 | h1 | h2 | h3 | trick_cards
        self.live_points = card_points(self.live)
        self.sing, self.bar_silent, self.limit = sing, bar_silent, limit
        self.swappable = ~CANTE_CARDS if sing else FULL_PACK  # with cantes, which reyes and caballos are held counts
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
            return self.node(alpha, beta, only, trick_len, led, high_led, high_trump, winning, trick_cards, trick_points)
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
        """The table key at a trick start with the stock not out or with cantes: the hands (squeezed, the stock
        out), the leader, the cards drawn and the cante state."""
        live, hands = self.live, self.hands  # at a trick start, the hands and the stock
        drawing = self.stock_pos < self.stock_len
        s0, s1, s2, s3 = SQUEEZE[live & 31], SQUEEZE[live >> 10 & 31], SQUEEZE[live >> 20 & 31], SQUEEZE[live >> 30 & 31]
        key = 0
        for i, h in enumerate(hands):
            if not drawing:
                h = h & ~ZEROS | s0[h & 31] | s1[h >> 10 & 31] << 10 | s2[h >> 20 & 31] << 20 | s3[h >> 30 & 31] << 30
            key |= h << (40 * i)
        key |= self.leader << 160 | self.stock_pos << 174
        if self.sing:
            key |= (self.sung | self.barred << 4 | self.won << 8) << 162
        return key

    def ranked_key(self, raw: int) -> int:
        """The ranked key at a trick start (the stock out, no cantes) but the leader, from the hands as one int
        (``raw``, 40 bits a hand): each suit's live cards squeezed to the bottom whatever their points, the
        zero-point ones first (the hands' shape), the live point cards apart.  A suit at a time: the same
        cards of one suit in the same hands recur in many positions, and their part of the key is kept."""
        key = RANKED
        parts = self.suit_parts
        for shift in (0, 10, 20, 30):
            held = raw >> shift & SUIT_FIELDS
            part = parts.get(held | shift << 160)
            if part is None:
                if len(parts) >= MEMO_LIMIT:
                    parts.clear()
                part = parts[held | shift << 160] = suit_part(held, shift)
            key |= part
        return key

    def shaped(self, key: int, alpha: int, beta: int) -> int | None:
        """A cut-off from a stored position of the same shape (ranked ``key``), its bounds widened by the slack
        of the points; None if none cuts."""
        assert self.table is not None
        for other in self.shapes.get(key & ~POINT_BITS, ()):
            low, high, _ = self.table[other]
            if low < beta and high > alpha:
                continue  # no slack (at least 0) makes it cut
            d = slack(other, key)
            if low - d >= beta:
                return low - d
            if high < UNKNOWN_HIGH and high + d <= alpha:
                return high + d
        return None

    def quick_tricks(self, live: Mask) -> int:
        """The points the leader's side surely captures by leading, from the top, its run of the highest live
        cards (``live``: every hand) of plain suits (the stock empty, suits to be followed).

        A round of a suit is sure while every opponent holding a trump still has a card of it (so must follow
        and cannot beat); a partner holding trumps and none of the suit may trump, which wins the round for
        the side but takes the lead, so the chain stops there.  Counted: the cards led and, in each sure round,
        the cheapest card of the suit each other seat must follow with (for a seat without trumps, which may
        have discarded cards of the suit in earlier rounds, only in the first suit run).
        """
        if self.stock_pos < self.stock_len or not self.must_follow:
            return 0
        return quick_tricks(self.hands, self.leader, self.team, self.trump, self.others[self.leader], live)

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


    def node(self, alpha: int, beta: int, only: int = -1, tlen: int = 0, led: int = -1, high_led: int = -1,
             high_trump: int = -1, winning: int = -1, trick_cards: Mask = 0, trick_points: int = 0) -> int:
        """One node: the team's points from here, fail-soft in (alpha, beta).

        The trick so far is in the arguments (``tlen`` cards down, as :func:`trick_state` gives it, the cards
        and their points); the rest of the state in the attributes, set before each card searched and put
        back once at the end.  The search's hot function, so its steps are written inline (the bounds, the
        move order, the play of a card)."""
        self.nodes += 1
        hands = self.hands
        team = self.team
        trump = self.trump
        live = self.live
        leader = self.leader
        key = 0
        entry = None
        hint = -1
        drawing = self.stock_pos < self.stock_len
        if not tlen:
            if self.pending:
                return self.choose(alpha, beta, only)
            seat = leader
            hand = hands[seat]
            if not hand:
                return 0
            if not drawing and not hand & (hand - 1):
                last = self.last_trick()
                if last >= 0:
                    return last
            raw = 0  # the hands as one int (the stock out: with the leader, they are the position)
            bounds = None
            if not drawing and only < 0:
                at = 0
                for h in hands:
                    raw |= h << at
                    at += 40
                bounds = self.bounds.get(raw | leader << 160)
            if bounds is None:
                # The bounds: every point left less the opponents' sure trumps, at least the team's sure trumps
                # (a trump in the stock counts against both), then the quick tricks of the side to lead.
                ours = 0
                for s in self.team_seats:
                    ours |= hands[s]
                stock = self.stock_after[self.stock_pos]
                trumps = self.trumps
                our_trumps, their_trumps, stock_trumps = ours & trumps, live & trumps & ~ours & ~stock, stock & trumps
                above = their_trumps | stock_trumps
                sure_ours = our_trumps & ABOVE[above.bit_length() - 1] if above else our_trumps
                above = our_trumps | stock_trumps
                sure_theirs = their_trumps & ABOVE[above.bit_length() - 1] if above else their_trumps
                least = SUIT_POINTS[sure_ours >> self.trump_shift]
                most = self.bonus + self.live_points - SUIT_POINTS[sure_theirs >> self.trump_shift]
                if raw:
                    if self.must_follow:
                        quick = self.quick_tricks(live)
                        if team >> seat & 1:
                            least += quick
                        else:
                            most -= quick
                    if len(self.bounds) >= MEMO_LIMIT:
                        self.bounds.clear()
                    self.bounds[raw | leader << 160] = least, most
            else:
                least, most = bounds
            if self.sing:
                side = self.team_side
                if not self.barred >> side & 1 and not (self.only_after_draw and not drawing):
                    ours = 0
                    for s in self.team_seats:
                        ours |= hands[s]
                    closed, reach = self.sung | self.lost[side], ours | self.stock_after[self.stock_pos]
                    for s in SUITS:
                        if not closed >> s & 1 and reach & CANTE_PAIRS[s] == CANTE_PAIRS[s]:
                            most += self.cuarenta_points if s == trump else self.cante_points
            if least >= beta:
                return least
            if most <= alpha:
                return most
            if self.table is not None and only < 0:
                if drawing or self.sing:
                    key = self.key()
                else:
                    key = self.ranked_keys.get(raw, 0)
                    if not key:
                        if len(self.ranked_keys) >= MEMO_LIMIT:
                            self.ranked_keys.clear()
                        key = self.ranked_keys[raw] = self.ranked_key(raw)
                    key |= leader << 160
                entry = self.table.get(key)
                if entry is not None:
                    low, high, hint = entry
                    if low == high or low >= beta:
                        return low
                    if high <= alpha:
                        return high
                elif key & RANKED:
                    cut = self.shaped(key, alpha, beta)
                    if cut is not None:
                        return cut
            legal = hand
        else:
            seat = (leader + tlen) % self.n
            hand = hands[seat]
            if self.free and drawing:
                legal = hand
            else:
                side_of = self.side_of
                partner_winning = winning != seat and side_of[winning] == side_of[seat]
                # the highest card led names the suit led
                duty = hand | high_led << 40 | (high_trump + 1) << 46 | partner_winning << 52
                legal = self.legal.get(duty, 0)
                if not legal:
                    if len(self.legal) >= MEMO_LIMIT:
                        self.legal.clear()
                    legal = self.legal[duty] = play_duty(
                        hand, led, high_led, high_trump, trump, partner_winning,
                        self.rules)[0]  # type: ignore[arg-type]  # duty_options reads like a ruleset
        maxing = team >> seat & 1
        moves = legal
        zeros = legal & ZEROS
        if zeros & (zeros - 1):  # two zero-point cards: maybe equivalent (one kept a run, by the live ones)
            runs = zeros | (live & ZEROS) << 40
            merged_zeros = self.merged.get(runs, 0)
            if not merged_zeros:
                if len(self.merged) >= MEMO_LIMIT:
                    self.merged.clear()
                merged_zeros = self.merged[runs] = merged(zeros, live) & ZEROS
            moves = legal & ~ZEROS | merged_zeros
        rest = 0  # leads left to order once the table's best lead is searched (and did not cut)
        if only >= 0:
            keys = [only]
        elif not moves & (moves - 1):
            keys = [moves.bit_length() - 1]
        elif not tlen:
            if hint >= 0 and moves >> hint & 1:
                keys, rest = [hint], moves ^ BIT[hint]
            else:
                keys = lead_order(hands, self.opponents[seat], trump, moves)
        else:
            # The order of the cards that follow: sure winners with many points, points given to a partner sure
            # to win, then cheap cards thrown.
            trumps = self.trumps
            opps = self.later[leader][tlen]
            mate_sure = False
            if (team >> winning & 1) == maxing:  # is the partner's card beaten by an opponent still to play?
                x = high_trump if high_trump >= 0 else high_led
                mate_sure = True
                for p in opps:
                    h = hands[p]
                    if (h & ABOVE[x]) if CARD_SUIT[x] == trump or h & SUIT_MASK[led] else h & trumps:
                        mate_sure = False
                        break
            # The cards that win the trick so far, less those an opponent still to play could beat (duties
            # aside): a trump below one of theirs; a card of the suit led below one of an opponent holding
            # the suit, or any when an opponent void in it holds a trump.
            wins = moves & ABOVE[high_trump] if high_trump >= 0 else moves & (ABOVE[high_led] | trumps)
            if wins and opps:
                every = followers = 0
                trumped = False
                for p in opps:
                    h = hands[p]
                    every |= h
                    if h & SUIT_MASK[led]:
                        followers |= h
                    elif h & trumps:
                        trumped = True
                higher = every & trumps
                sure = wins & trumps & ABOVE[higher.bit_length() - 1] if higher else wins & trumps
                if not trumped and wins & ~trumps:
                    higher = followers & SUIT_MASK[led]
                    sure |= wins & ~trumps & ABOVE[higher.bit_length() - 1] if higher else wins & ~trumps
                wins = sure
            other = MATE_KEY if mate_sure else THROW_KEY
            keys = []
            while moves:  # the cards of moves, weakest int first
                low = moves & -moves
                moves ^= low
                c = low.bit_length() - 1
                keys.append(WIN_KEY[c] if wins & low else other[c])
            keys.sort()
        alpha0, beta0 = alpha, beta
        best = -1 if maxing else UNKNOWN_HIGH
        best_card = -1
        swappable = hand & self.swappable  # the hand's cards a card of its run can stand for
        tried: list[tuple[Card, int]] = []  # the swappable cards searched, for sibling_bound
        if tlen < self.n - 1:
            for k in keys:
                c = k & 63
                if tried and swappable >> c & 1:
                    bound = sibling_bound(tried, c, live & ~hand, swappable, maxing)
                    if bound is not None and (bound <= alpha if maxing else bound >= beta):
                        tried.append((c, bound))  # a card swapped for one tried: no better than its bound
                        if bound > best if maxing else bound < best:
                            best, best_card = bound, c
                        continue
                bit = BIT[c]
                hands[seat] = hand ^ bit
                suit = CARD_SUIT[c]
                if not tlen:
                    v = self.node(alpha, beta, -1, 1, suit, c, c if suit == trump else -1, seat, bit, CARD_POINTS[c])
                elif suit == trump:
                    if c > high_trump:
                        v = self.node(alpha, beta, -1, tlen + 1, led, high_led, c, seat, trick_cards | bit,
                                      trick_points + CARD_POINTS[c])
                    else:
                        v = self.node(alpha, beta, -1, tlen + 1, led, high_led, high_trump, winning, trick_cards | bit,
                                      trick_points + CARD_POINTS[c])
                elif suit == led and c > high_led:
                    v = self.node(alpha, beta, -1, tlen + 1, led, c, high_trump, seat if high_trump < 0 else winning,
                                  trick_cards | bit, trick_points + CARD_POINTS[c])
                else:
                    v = self.node(alpha, beta, -1, tlen + 1, led, high_led, high_trump, winning, trick_cards | bit,
                                  trick_points + CARD_POINTS[c])
                if swappable >> c & 1:
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
                if rest:  # the other leads, after the best: the loop goes on over the list's new items
                    keys += lead_order(hands, self.opponents[seat], trump, rest)
                    rest = 0
        else:  # each card ends the trick: its points, the draw, the declaration window, then the next trick
            n, stock_cards, stock_pos, sing = self.n, self.stock, self.stock_pos, self.sing
            live_points = self.live_points
            if sing:
                side_of = self.side_of
                sung, barred, won, pending = self.sung, self.barred, self.won, self.pending
            for k in keys:
                c = k & 63
                if tried and swappable >> c & 1:
                    bound = sibling_bound(tried, c, live & ~hand, swappable, maxing)
                    if bound is not None and (bound <= alpha if maxing else bound >= beta):
                        tried.append((c, bound))  # a card swapped for one tried: no better than its bound
                        if bound > best if maxing else bound < best:
                            best, best_card = bound, c
                        continue
                hands[seat] = hand ^ BIT[c]
                suit = CARD_SUIT[c]
                w = winning
                if suit == trump:
                    if c > high_trump:
                        w = seat
                elif suit == led and c > high_led and high_trump < 0:
                    w = seat
                points = trick_points + CARD_POINTS[c]
                more = hands[w] or drawing
                gained = (points if more else points + self.bonus) if team >> w & 1 else 0
                self.leader = w
                self.live = live & ~(trick_cards | BIT[c])
                self.live_points = live_points - points
                if drawing:  # the draw: the winner first, while the stock lasts (Deal._draw)
                    held = hands[:]
                    pos = stock_pos
                    for i in range(n):
                        if pos >= self.stock_len:
                            break
                        hands[(w + i) % n] |= BIT[stock_cards[pos]]
                        pos += 1
                    self.stock_pos = pos
                if sing:
                    side = side_of[w]
                    if more:  # the window opens after the draw, on the hands it filled (Deal._finish_trick)
                        gained += self.window(side, drawing, self.limit, not won >> side & 1)
                    self.won = won | 1 << side
                # without cantes nothing reads the sides that won a trick
                v = gained + self.node(alpha - gained, beta - gained)
                if sing:
                    self.sung, self.barred, self.won, self.pending = sung, barred, won, pending
                if drawing:
                    hands[:] = held
                    self.stock_pos = stock_pos
                if swappable >> c & 1:
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
            self.leader = leader
            self.live = live
            self.live_points = live_points
        hands[seat] = hand
        if key:  # a trick start probed (never 0: the leader's hand is not empty)
            assert self.table is not None
            low, high = (entry[0], entry[1]) if entry is not None else (0, UNKNOWN_HIGH)
            if best <= alpha0:
                high = min(high, best)
            elif best >= beta0:
                low = max(low, best)
            else:
                low = high = best
            if key & RANKED and key not in self.table:  # a ranked key also among its shape's (the last WAYS)
                same_shape = self.shapes.setdefault(key & ~POINT_BITS, [])
                same_shape.append(key)
                if len(same_shape) > WAYS:
                    del same_shape[0]
            self.table[key] = [low, high, best_card]
        return best
