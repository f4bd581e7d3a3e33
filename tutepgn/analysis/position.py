"""A double-dummy position: every hand visible (and the stock's order), read off an engine :class:`~tutepgn.engine.Deal`.

A :class:`Position` is plain data: the hands, the trick on the table, what is
left of the stock in the order it will be drawn, the play-duty options of the
ruleset, and (for the cantes option) what has been
sung, which sides are barred from singing and which cantes are lost.  Both
searches (the C core and the Python fallback) read it as one flat tuple of
ints, :meth:`Position.packed`, so they cannot disagree on what the position is.

The cantes, when counted (``cantes=True``), are a decision of the search
(:mod:`tutepgn.analysis.cantes`): after each trick won by the side valued but
the last, it tries every maximal legal set of cantes the engine allows there
(a superset never costs the singer); the other sides sing by a fixed policy,
the 40 first, then the 20s in suit order, since their cantes cannot change the
side valued's points.  A declaration window open at the position (a trick just
won, before the next lead) is decided the same way by the search itself.  A
tute ends the deal and is not scored by the search: :attr:`Position.tute_seats`
flags the seats that hold one.

With cards in the stock (2 players), the search draws after each trick as the
engine does (the winner first, then the others), and any card may be played
while the stock has cards when the ruleset's ``free_play_while_stock`` says so;
the cantes come after the draw, on the hands it filled, as the engine opens its
window (``declare_only_after_draw``: only after a trick followed by a draw;
``no_declare_with_last_drawn``: never with a card of the draw that emptied the
stock).  It never exchanges the trump 7 (or 2) for the turned card: the values
of a stock position assume no further exchange.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..cards import BIT, CARD_POINTS, CARD_SUIT, CODES, SUIT_LETTERS, SUITS, Card, CardSet, Mask
from ..declarations import FOURS
from ..duties import play_duty, trick_state
from ..i18n import gettext as _
from ..native.layout import MAX_STOCK, STOCK_PER_WORD, STOCK_WORDS, duty_bits, duty_options
from ..rules import SEAT_NAMES

if TYPE_CHECKING:
    from ..engine import Deal

ZERO_STRENGTHS = 5
"""Within a suit the five weakest cards (2, 4, 5, 6, 7) are worth no points: the squeezable bottom."""
ZEROS: Mask = sum(((1 << ZERO_STRENGTHS) - 1) << (10 * s) for s in SUITS)


def _squeeze(live: int, held: int) -> int:
    """``held``'s bits among ``live``'s, moved to the bottom in order (a 5-bit pext)."""
    out, k = 0, 0
    for i in range(ZERO_STRENGTHS):
        if live >> i & 1:
            if held >> i & 1:
                out |= 1 << k
            k += 1
    return out


def _merge(live: int, legal: int) -> int:
    """``legal``'s bits with each run of cards adjacent among ``live`` kept once (its weakest)."""
    out, previous = 0, False
    for i in range(ZERO_STRENGTHS):
        if live >> i & 1:
            mine = bool(legal >> i & 1)
            if mine and not previous:
                out |= 1 << i
            previous = mine
    return out


SQUEEZE: tuple[tuple[int, ...], ...] = tuple(tuple(_squeeze(lv, h) for h in range(32)) for lv in range(32))
"""``SQUEEZE[live][held]``: the canonical zero-point bits of a hand, given the suit's live zero-point cards."""
MERGE: tuple[tuple[int, ...], ...] = tuple(tuple(_merge(lv, lg) for lg in range(32)) for lv in range(32))
"""``MERGE[live][legal]``: one card per run of equivalent zero-point cards (in one hand, adjacent among live)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A position for the solver: the state of play and the options that the search reads.

    Build it with :meth:`from_deal`.  ``side`` is the rules side the values
    are counted for (the side to move unless given).  ``window_open`` says that
    the declaration window of the side to lead is open (its trick just won,
    ``window_cantes`` cantes sung in it so far): the search decides it first.
    """

    players: int
    trump: int
    hands: tuple[Mask, ...]
    leader: int
    trick: tuple[Card, ...]
    side_of: tuple[int, ...]
    side: int
    duties: int
    last_trick_bonus: int
    cantes: bool
    cante_points: int
    cuarenta_points: int
    cantes_per_trick: int
    bar_silent_first_win: bool
    sung: int
    barred: int
    lost: tuple[int, ...]
    won_before: int
    blocked: tuple[Mask, ...]
    tute_seats: tuple[int, ...]
    stock: tuple[Card, ...] = ()
    """The cards left in the stock, the next drawn first (the turned card last); empty once it is drawn."""
    free_play: bool = False
    """Whether any card may be played while the stock has cards (the ruleset's ``free_play_while_stock``)."""
    forty_first: bool = True
    """No 20 from a seat that could sing the 40 (the ruleset's ``forty_first``)."""
    only_after_draw: bool = False
    """Cantes only after a trick followed by a draw (``declare_only_after_draw``)."""
    block_last_drawn: bool = False
    """No cante with a card of the draw that empties the stock (``no_declare_with_last_drawn``)."""
    window_open: bool = False
    """The side to lead has just won a trick and may still declare (with ``cantes``)."""
    window_cantes: int = 0
    """Cantes already sung in the open window."""
    window_after_draw: bool = False
    """The open window's trick was followed by a draw."""
    window_first_win: bool = False
    """The open window's trick is its side's first won trick."""

    @classmethod
    def from_deal(cls, deal: Deal, seat: int | None = None, *, cantes: bool = False) -> Position:
        """The position of ``deal`` now, valued for ``seat``'s side (default: the player to move).

        Any moment, mid-trick included.  While the stock has cards the
        position holds its order as the deal has it (players do not see it:
        :mod:`tutepgn.analysis.pimc` solves such positions in sampled worlds).
        Raise ValueError when the deal is over.
        """
        r = deal.rules
        if deal.over:
            raise ValueError(_("the deal is over: there is nothing left to solve"))
        if deal.stock_left > MAX_STOCK:
            raise ValueError(_("the stock still has {n} cards: the search draws at most {most}", n=deal.stock_left,
                               most=MAX_STOCK))
        n = r.players
        side_of = tuple(r.side_of(s) for s in range(n))
        trick = tuple(deal.trick)
        leader = (deal.turn - len(trick)) % n
        lost = tuple(sum(1 << suit for side, suit in deal.lost_cantes if side == k) for k in range(4))
        blocked = tuple((BIT[deal.last_draw[s]] if r.no_declare_with_last_drawn and s in deal.last_draw else 0)
                        for s in range(n))
        hands = tuple(deal.hands)
        tute_seats = tuple(s for s in range(n) if any(hands[s] & four == four for four in FOURS.values()))
        window = cantes and not trick and deal.window_side is not None
        return cls(
            players=n, trump=deal.trump, hands=hands, leader=leader, trick=trick, side_of=side_of,
            side=side_of[deal.turn if seat is None else r.seat(seat)],
            duties=duty_bits(r), last_trick_bonus=r.last_trick_bonus, cantes=cantes,
            cante_points=r.cante_points, cuarenta_points=r.cuarenta_points, cantes_per_trick=r.cantes_per_trick,
            bar_silent_first_win=r.cante_only_if_sung_at_first_win,
            sung=sum(1 << s for s in deal.sung_suits), barred=sum(1 << k for k in deal.barred_sides), lost=lost,
            won_before=sum(1 << k for k in range(r.sides) if deal.wins[k]), blocked=blocked,
            tute_seats=tute_seats, stock=tuple(deal.stock[deal.stock_pos:]),
            free_play=r.free_play_while_stock, forty_first=r.forty_first,
            only_after_draw=r.declare_only_after_draw, block_last_drawn=r.no_declare_with_last_drawn,
            window_open=window, window_cantes=deal.window_cantes if window else 0,
            window_after_draw=window and deal.window_after_draw,
            window_first_win=window and deal.window_side is not None and deal.wins[deal.window_side] == 1)

    def legal(self) -> Mask:
        """The cards the player to move may play, by the engine's duties (:func:`~tutepgn.duties.play_duty`)."""
        if self.stock and self.free_play:
            return self.hands[self.turn]
        led, high_led, high_trump, w = trick_state(self.trick, self.leader, self.trump, self.players)
        seat = self.turn
        partner_winning = w >= 0 and w != seat and self.side_of[w] == self.side_of[seat]
        return play_duty(self.hands[seat], led, high_led, high_trump, self.trump, partner_winning,
                         duty_options(self.duties))[0]  # type: ignore[arg-type]  # reads like a ruleset

    def card_groups(self) -> list[tuple[Card, ...]]:
        """The legal cards in groups of equivalent ones (one hand, adjacent among live cards, no points), weakest first."""
        legal = self.legal()
        live = self.live()
        groups: list[list[Card]] = []
        for s in SUITS:
            extends = False
            for c in range(10 * s, 10 * s + 10):
                if not live >> c & 1:
                    continue
                if legal >> c & 1:
                    if extends and c % 10 < ZERO_STRENGTHS:
                        groups[-1].append(c)
                    else:
                        groups.append([c])
                    extends = c % 10 < ZERO_STRENGTHS
                else:
                    extends = False
        return [tuple(g) for g in groups]

    def for_side(self, side: int) -> Position:
        """The same position valued for another rules side."""
        return replace(self, side=side)

    def __repr__(self) -> str:
        """What the search plays from, in card codes (every field is :func:`dataclasses.fields`' business):

        >>> from tutepgn.rules import preset
        >>> from tutepgn.engine import Deal
        >>> deal = Deal.from_hands(preset("playcard-2p"), ["1O 3O", "1C 3C"], turned="3O")
        >>> Position.from_deal(deal)
        <Position trump O, S to move, hands N 1O 3O / S 1C 3C, trick -, for side 1>
        """
        names = SEAT_NAMES[self.players]
        hands = " / ".join(f"{names[s]} {' '.join(CardSet(h).codes()) or '-'}" for s, h in enumerate(self.hands))
        trick = " ".join(CODES[c] for c in self.trick) or "-"
        stock = f", stock {len(self.stock)}" if self.stock else ""
        return (f"<Position trump {SUIT_LETTERS[self.trump]}, {names[self.turn]} to move, hands {hands}, "
                f"trick {trick}{stock}, for side {self.side}>")

    @property
    def turn(self) -> int:
        """The seat to move."""
        return (self.leader + len(self.trick)) % self.players

    @property
    def team(self) -> Mask:
        """The seats of the side valued, as bits."""
        return sum(1 << s for s in range(self.players) if self.side_of[s] == self.side)

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the one on the table included."""
        return (sum(h.bit_count() for h in self.hands) + len(self.trick) + len(self.stock)) // self.players

    def live(self) -> Mask:
        """The cards still to be played: the hands, the trick on the table and the stock."""
        live = 0
        for h in self.hands:
            live |= h
        for c in (*self.trick, *self.stock):
            live |= BIT[c]
        return live

    def bound(self) -> int:
        """An upper bound of the search's value: every card point not yet won, the last ten, every cante unsung."""
        live = self.live()
        total = sum(CARD_POINTS[c] for c in range(40) if live >> c & 1) + self.last_trick_bonus
        if self.cantes:
            total += sum(self.cuarenta_points if s == self.trump else self.cante_points
                         for s in SUITS if not self.sung >> s & 1)
        return total

    def packed(self) -> tuple[int, ...]:
        """The position as the flat tuple of ints both searches read (layout:
        :data:`~tutepgn.native.layout.PACKED_FIELDS`)."""
        hands = self.hands + (0,) * (4 - self.players)
        trick = self.trick + (-1,) * (4 - len(self.trick))
        sides = sum(k << (2 * s) for s, k in enumerate(self.side_of))
        blocked = self.blocked + (0,) * (4 - self.players)
        lost = sum(m << (4 * k) for k, m in enumerate(self.lost))
        stock = [0] * STOCK_WORDS
        for i, c in enumerate(self.stock):
            stock[i // STOCK_PER_WORD] |= c << (6 * (i % STOCK_PER_WORD))
        return (self.players, self.trump, *hands, self.leader, len(self.trick), *trick, self.team, self.duties,
                sides, int(self.cantes), self.cante_points, self.cuarenta_points, self.cantes_per_trick,
                self.last_trick_bonus, int(self.bar_silent_first_win), self.sung, self.barred, lost,
                self.won_before, *blocked, len(self.stock), int(self.free_play), *stock, int(self.forty_first),
                int(self.only_after_draw), int(self.block_last_drawn), int(self.window_open), self.window_cantes,
                int(self.window_after_draw), int(self.window_first_win))




def beats(c: Card, led: int, high_led: int, high_trump: int, trump: int) -> bool:
    """True if ``c`` played now would win the trick so far."""
    suit = CARD_SUIT[c]
    if suit == trump:
        return c > high_trump
    return suit == led and high_trump < 0 and c > high_led

