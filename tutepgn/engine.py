"""A deal of Tute as a state machine, and a match as a sequence of deals.

Each rule is written once, as ``verify_x`` (raises an :class:`IllegalAction`
that names the rule), ``can_x`` (a bool) and ``x`` (applies it and returns a
frozen event record).  The engine reads :class:`~tutepgn.rules.Ruleset`
options only; it never asks which preset it plays.

Seats are ints in turn order: seat ``s + 1`` plays after seat ``s``, and the
player after the dealer is mano.

>>> from tutepgn.rules import preset
>>> deal = Deal.shuffled(preset("torofun-4p"), seed=7)
>>> while not deal.over:
...     _ = deal.apply(deal.legal_actions()[0])
>>> sheet = deal.score()
>>> sum(sheet.card_points) + sheet.last_trick_bonus
130
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NamedTuple

from .cards import (
    ABOVE, BIT, CABALLO, CARD_POINTS, CARD_RANK, CARD_SUIT, CODES, REY, SUIT_LETTERS, SUIT_MASK, SUITS,
    Card, Mask, Suit, card, card_from_code, cards_in, mask_of, pack, suit_from_letter,
)
from .errors import IllegalDeclaration, IllegalPlay
from .events import Action, Cante, Exchange, Play, Tute
from .rules import Ruleset


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order, who won it and its card points."""
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class CanteScore:
    """A cante as scored: who sang which suit, and its value."""
    seat: int
    side: int
    suit: Suit
    points: int


@dataclass(slots=True)
class ScoreSheet:
    """The count of a deal, side by side, and what it is worth in the match."""
    sides: int
    tricks: tuple[Trick, ...]
    card_points: tuple[int, ...]
    last_trick_side: int | None
    last_trick_bonus: int
    cantes: tuple[CanteScore, ...]
    totals: tuple[int, ...]
    winner: int | None
    tie_break: bool
    match_points: tuple[int, ...]
    doubled: bool
    tute: Tute | None
    wins_match: bool
    complete: bool

    def cante_points(self, side: int) -> int:
        """Points a side scored by cantes."""
        return sum(c.points for c in self.cantes if c.side == side)

    def to_dict(self, seat_names: tuple[str, ...]) -> dict[str, object]:
        """The sheet as plain JSON data, seats named by their letters."""
        return {
            "tricks": [{"leader": seat_names[t.leader], "cards": [CODES[c] for c in t.cards],
                        "winner": seat_names[t.winner], "points": t.points} for t in self.tricks],
            "card_points": list(self.card_points),
            "last_trick_side": self.last_trick_side,
            "last_trick_bonus": self.last_trick_bonus,
            "cantes": [{"seat": seat_names[c.seat], "side": c.side, "suit": SUIT_LETTERS[c.suit], "points": c.points}
                       for c in self.cantes],
            "totals": list(self.totals),
            "winner": self.winner,
            "tie_break": self.tie_break,
            "match_points": list(self.match_points),
            "doubled": self.doubled,
            "tute": None if self.tute is None else {"seat": seat_names[self.tute.seat], "rank": self.tute.rank},
            "wins_match": self.wins_match,
            "complete": self.complete,
        }


# ---------------------------------------------------------------------------
# The play duties: one function, used by every driver of the engine.

FREE = None
"""Duty name when any held card may be played."""


def play_duty(hand: Mask, led: int, high_led: int, high_trump: int, trump: Suit,
              partner_winning: bool, r: Ruleset) -> tuple[Mask, str | None]:
    """Return the cards a player may play and the duty that narrows them.

    ``led`` is the suit led (-1 when leading), ``high_led`` the strongest card
    of that suit in the trick, ``high_trump`` the strongest trump (-1: none).
    The duty is the rule code an illegal card breaks (``must_follow``,
    ``must_beat``, ``must_trump``, ``must_overtrump``), or ``None``.
    """
    if led < 0:
        return hand, FREE
    follow = hand & SUIT_MASK[led]
    if partner_winning and r.partner_winning_exempts:
        return (follow, "must_follow") if follow and r.must_follow else (hand, FREE)
    if follow and r.must_follow:
        if led == trump:
            high_led = high_trump
        elif r.beat_waived_when_trumped and high_trump >= 0:
            return follow, "must_follow"
        if r.must_beat:
            beat = follow & ABOVE[high_led]
            if beat:
                return beat, "must_beat"
        return follow, "must_follow"
    if r.must_trump and not follow:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            if high_trump < 0:
                return trumps, "must_trump"
            if not r.must_overtrump:
                return trumps, "must_trump"
            over = trumps & ABOVE[high_trump]
            if over:
                return over, "must_overtrump"
            if r.must_undertrump:
                return trumps, "must_undertrump"
    return hand, FREE


_DUTY_WORDS = {
    "must_follow": "must follow suit ({suit} was led)",
    "must_beat": "must beat the highest {suit} in the trick ({high}) when following suit",
    "must_trump": "must play a trump ({trump}) when void in the suit led",
    "must_overtrump": "must play a trump that beats {high_trump} when void in the suit led",
    "must_undertrump": "must play a trump when void in the suit led, even one that cannot win",
}


_PAIRS = tuple(BIT[card(REY, s)] | BIT[card(CABALLO, s)] for s in SUITS)
"""Per suit, the rey and caballo a cante needs."""
_CABALLOS = mask_of(card(CABALLO, s) for s in SUITS)
"""The four caballos; a rey is always the card just above its caballo."""


_FOURS = {rank: mask_of(card(rank, s) for s in SUITS) for rank in (REY, CABALLO)}
"""The four reyes and the four caballos a tute needs."""

_REFUSALS = {
    "deal_over": "the deal is over",
    "declare_between_tricks": "{what} only between tricks, before the next lead; a trick is in play",
    "declare_after_won_trick": "{what} only after a trick won by the declarer's side; none is won yet",
    "declare_by_trick_winner": "{what} only by the side that won the last trick, and {winner} won it",
    "declare_only_after_draw": "{what} only after a trick that was followed by a draw from the stock",
    "no_declare_with_last_drawn": "{what} may not use {last}, received in the draw that emptied the stock",
    "cante_not_held": "does not hold rey and caballo of {suit}",
    "cante_suit_sung": "{suit} was already sung in this deal",
    "cante_only_if_sung_at_first_win": "the side sang nothing right after its first won trick, so it may not sing in this deal",
    "forfeit_unsung_cantes": "the cante in {suit} was lost: the side won a trick while it could sing it and declared nothing",
    "cantes_per_trick": "at most {limit} cante(s) after one won trick",
    "forty_first": "must sing the 40 ({trump}) before a 20",
    "tute_rank": "a tute is four reyes (12) or four caballos (11)",
    "tute_by_leader": "before the first trick only the leader may announce tute",
    "tute_not_held": "does not hold all four {four}",
    "tute_blocked_by_earlier_cante": "no tute after the side has sung a cante in this deal",
    "exchange_card": "{card} cannot be exchanged: only the 7 or 2 of trump ({trump}) that the ruleset allows",
    "exchange_needs_stock": "no exchange once the stock is exhausted",
    "exchange_on_lead": "only the player on lead may exchange, before leading",
    "exchange_at_first_lead": "no exchange before the first trick: only after winning a trick",
    "exchange_not_held": "does not hold {card}",
    "exchange_turned_rank": "{card} may not be exchanged for the turned {turned}",
}
"""Words for each refusal code; the code is also the rule name reported."""
_REFUSAL_OPTIONS = {"exchange_card": "exchange_seven", "exchange_turned_rank": "exchange_seven_for",
                    "tute_by_leader": "tute_at_first_lead"}
"""Ruleset option behind a refusal code that is not itself an option name."""

# ---------------------------------------------------------------------------
# The deal.


class Deal:
    """One deal, from the cards dealt to the score sheet.

    Build it with :meth:`from_hands`, :meth:`from_deck` or :meth:`shuffled`;
    then apply actions (:meth:`play`, :meth:`cante`, :meth:`tute`,
    :meth:`exchange`, or :meth:`apply` for any of them) until :attr:`over`,
    and read :meth:`score`.
    """

    def __init__(self, rules: Ruleset, hands: list[Mask], stock: list[Card], turned: Card,
                 dealer: int, *, first_of_match: bool = False) -> None:
        self.rules = rules
        n = rules.players
        if len(hands) != n:
            raise ValueError(f"{n} hands expected, {len(hands)} given")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}")
        self._check_cards(hands, stock, turned, dealer)
        self.dealer = dealer
        self._side, self._side_seats = rules.seating
        self._n = n
        # Free play while stock_pos is below this (the stock's length, or 0 when duties always apply).
        self._free_while_below = len(stock) if rules.free_play_while_stock else 0
        self._silence_costs = rules.cante_only_if_sung_at_first_win or rules.forfeit_unsung_cantes
        self.first_of_match = first_of_match
        self.hands: list[Mask] = list(hands)
        self.initial_hands: tuple[Mask, ...] = tuple(hands)
        self.stock: list[Card] = list(stock)
        self.initial_stock: tuple[Card, ...] = tuple(stock)
        self.stock_pos = 0
        self.turned = turned
        self.initial_turned = turned
        self.trump: Suit = (suit_from_letter(rules.first_deal_trump)
                            if first_of_match and rules.first_deal_trump else CARD_SUIT[turned])
        self.mano = (dealer + 1) % n
        leader = self.mano
        if first_of_match and rules.first_deal_leader_card:
            lead_card = card_from_code(rules.first_deal_leader_card)
            holders = [s for s in range(n) if hands[s] >> lead_card & 1]
            if holders:
                leader = holders[0]
        self.first_leader = leader
        self.leader = leader
        self.turn = leader
        self.trick: list[Card] = []
        self._led = -1
        self._high_led = -1
        self._high_trump = -1
        self._winning = -1
        self.tricks: list[Trick] = []
        self.won_points = [0] * rules.sides
        self.wins = [0] * rules.sides
        self.log: list[Action] = []
        self.cantes: list[CanteScore] = []
        self.sung_suits: set[Suit] = set()
        self._unsung = _CABALLOS  # the caballo of each suit not yet sung
        self.barred_sides: set[int] = set()
        self.lost_cantes: set[tuple[int, Suit]] = set()
        self.last_draw: dict[int, Card] = {}
        self.tute_event: Tute | None = None
        # The declaration window opens after each trick for the side that won it.
        self.window_side: int | None = None
        self.window_cantes = 0
        self.window_after_draw = False

    @staticmethod
    def _check_cards(hands: list[Mask], stock: list[Card], turned: Card, dealer: int) -> None:
        seen = 0
        for m in hands:
            if seen & m:
                raise ValueError(f"a card is dealt twice: {' '.join(CODES[c] for c in cards_in(seen & m))}")
            seen |= m
        for c in stock:
            if seen >> c & 1:
                raise ValueError(f"stock card {CODES[c]} is also in a hand or twice in the stock")
            seen |= BIT[c]
        if stock and stock[-1] != turned:
            raise ValueError("the turned card must be the last card of the stock")
        if not stock and not hands[dealer] >> turned & 1:
            raise ValueError(f"the turned card {CODES[turned]} must be in the dealer's hand")

    # -- Building ----------------------------------------------------------
    @classmethod
    def from_hands(cls, rules: Ruleset, hands: list[list[str]] | list[str], *, dealer: int = 0,
                   stock: list[str] | str = (), turned: str | None = None,
                   first_of_match: bool = False) -> Deal:
        """Build a deal from card codes: one list (or space-separated string) per seat in turn order.

        Without ``turned``, the trump card is the stock's last card or the
        dealer's last card as dealt (the strongest int of the dealer's hand is
        not it: give ``turned`` for dealer_last rulesets).
        """
        hand_masks = [mask_of(card_from_code(c) for c in (h.split() if isinstance(h, str) else h))
                      for h in hands]
        stock_cards = [card_from_code(c) for c in (stock.split() if isinstance(stock, str) else stock)]
        if turned is None:
            if not stock_cards:
                raise ValueError("give the turned card: it is one of the dealer's cards")
            turned_card = stock_cards[-1]
        else:
            turned_card = card_from_code(turned)
        return cls(rules, hand_masks, stock_cards, turned_card, dealer, first_of_match=first_of_match)

    @classmethod
    def from_deck(cls, rules: Ruleset, deck: list[Card], dealer: int = 0, *,
                  first_of_match: bool = False) -> Deal:
        """Deal a deck order one card at a time, starting with mano; the rest is the stock.

        The dealer gets the last card dealt; with a stock, the next card is
        turned and goes under the stock, drawn last.
        """
        r = rules
        n = r.players
        if sorted(deck) != cards_in(pack(r.removed_ranks)):
            raise ValueError(f"the deck must hold each of the {r.deck_size} cards of the pack once")
        hands = [0] * n
        dealt = n * r.hand_size
        for i in range(dealt):
            hands[(dealer + 1 + i) % n] |= BIT[deck[i]]
        if r.trump_card == "dealer_last":
            return cls(r, hands, [], deck[dealt - 1], dealer, first_of_match=first_of_match)
        turned = deck[dealt]
        stock = list(deck[dealt + 1:]) + [turned]
        return cls(r, hands, stock, turned, dealer, first_of_match=first_of_match)

    @classmethod
    def shuffled(cls, rules: Ruleset, seed: int | random.Random | None = None, dealer: int = 0, *,
                 first_of_match: bool = False) -> Deal:
        """Deal a shuffled pack; the same seed gives the same deal."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = cards_in(pack(rules.removed_ranks))
        rng.shuffle(deck)
        return cls.from_deck(rules, deck, dealer, first_of_match=first_of_match)

    # -- Reading the state ---------------------------------------------------
    @property
    def over(self) -> bool:
        """True once every card is played or a tute ended the deal."""
        return self.tute_event is not None or (self.turn < 0)

    @property
    def stock_left(self) -> int:
        """Cards still in the stock, the turned card included."""
        return len(self.stock) - self.stock_pos

    def side_of(self, seat: int) -> int:
        """The side a seat scores for."""
        return self.rules.side_of(seat)

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds now."""
        return cards_in(self.hands[seat])

    def _window_open(self) -> bool:
        return not self.trick and not self.over

    # -- Playing a card ------------------------------------------------------
    def legal_plays(self) -> Mask:
        """The cards the player to move may play, as a mask."""
        if self.over:
            return 0
        return self._duty(self.turn)[0]

    def _duty(self, seat: int) -> tuple[Mask, str | None]:
        if self.stock_pos < self._free_while_below:
            return self.hands[seat], FREE
        w = self._winning
        return play_duty(self.hands[seat], self._led, self._high_led, self._high_trump, self.trump,
                         w >= 0 and w != seat and self._side[w] == self._side[seat], self.rules)

    def verify_play(self, card: Card, seat: int | None = None) -> None:
        """Raise :class:`IllegalPlay` naming the rule if ``card`` may not be played now."""
        if self.over:
            raise IllegalPlay("the deal is over", rule="deal_over", seat=seat)
        if seat is not None and seat != self.turn:
            raise IllegalPlay(f"not {self.rules.seat_names[seat]}'s turn: {self.rules.seat_names[self.turn]} plays now",
                              rule="not_your_turn", seat=seat)
        seat = self.turn
        if not self.hands[seat] >> card & 1:
            raise IllegalPlay(f"{self.rules.seat_names[seat]} does not hold {CODES[card]}", rule="not_held", seat=seat)
        allowed, duty = self._duty(seat)
        if not allowed >> card & 1:
            words = _DUTY_WORDS[duty or "must_follow"].format(
                suit=SUIT_LETTERS[self._led] if self._led >= 0 else "-",
                high=CODES[self._high_led] if self._high_led >= 0 else "-",
                trump=SUIT_LETTERS[self.trump],
                high_trump=CODES[self._high_trump] if self._high_trump >= 0 else "-")
            option = "must_beat" if duty == "must_beat" else duty
            raise IllegalPlay(f"{self.rules.seat_names[seat]} {words}; {CODES[card]} breaks it "
                              f"(may play {' '.join(CODES[c] for c in cards_in(allowed))})",
                              rule=duty or "must_follow", option=option, seat=seat)

    def can_play(self, card: Card, seat: int | None = None) -> bool:
        """True if ``card`` may be played now (by ``seat``, when given)."""
        if self.over or (seat is not None and seat != self.turn):
            return False
        return bool(self._duty(self.turn)[0] >> card & 1)

    def play(self, card: Card | str, seat: int | None = None) -> Play:
        """Play a card for the player to move; raise :class:`IllegalPlay` if the rules forbid it."""
        c = card_from_code(card) if isinstance(card, str) else card
        event = Play(self.turn if seat is None else seat, c)
        self._apply_play(event)
        return event

    def _apply_play(self, event: Play, checked: bool = True) -> None:
        # The replay hot path: keep attribute look-ups few; the rules stay in play_duty.
        c = event.card
        seat = self.turn
        trick = self.trick
        hand = self.hands[seat]
        if checked:
            if event.seat != seat or not hand >> c & 1 or self.tute_event is not None:
                self.verify_play(c, event.seat)  # raises: out of turn, not held, or the deal is over
            if trick and self.stock_pos >= self._free_while_below:
                w = self._winning
                if not play_duty(hand, self._led, self._high_led, self._high_trump, self.trump,
                                 w != seat and self._side[w] == self._side[seat], self.rules)[0] >> c & 1:
                    self.verify_play(c, seat)
        if not trick and self.window_side is not None:
            self._close_window()  # judged on the hand before the lead, as the window was
        self.hands[seat] = hand ^ BIT[c]
        suit = CARD_SUIT[c]
        if trick:
            if suit == self.trump:
                if c > self._high_trump:
                    self._high_trump = c
                    self._winning = seat
            elif suit == self._led and c > self._high_led:
                self._high_led = c
                if self._high_trump < 0:
                    self._winning = seat
        else:
            self._led = suit
            self._high_led = c
            self._winning = seat
            if suit == self.trump:
                self._high_trump = c
        trick.append(c)
        self.log.append(event)
        if len(trick) == self._n:
            self._finish_trick()
        else:
            self.turn = seat + 1 if seat + 1 < self._n else 0

    def _finish_trick(self) -> None:
        winner = self._winning
        trick = self.trick
        points = 0
        for c in trick:
            points += CARD_POINTS[c]
        side = self._side[winner]
        # tuple.__new__ builds the named tuple without the Python-level __new__ (once per trick of millions)
        self.tricks.append(tuple.__new__(Trick, (self.leader, tuple(trick), winner, points)))
        self.won_points[side] += points
        self.wins[side] += 1
        self.trick = []
        self._led = self._high_led = self._high_trump = self._winning = -1
        drew = self.stock_pos < len(self.stock)
        if drew:
            self._draw(winner)
        elif not any(self.hands):
            self.turn = -1
            self.window_side = None
            return
        self.leader = self.turn = winner
        self.window_side = side
        self.window_cantes = 0
        self.window_after_draw = drew

    def _draw(self, winner: int) -> None:
        """After a trick with a stock, each player draws one card, the winner first.

        Only while the stock lasts: :meth:`force` may have taken a card out of
        it (a record that played a card still in the stock), leaving it short.
        """
        n = self._n
        stock = self.stock
        drawn: dict[int, Card] = {}
        for i in range(n):
            if self.stock_pos >= len(stock):
                break
            seat = (winner + i) % n
            drawn[seat] = stock[self.stock_pos]
            self.hands[seat] |= BIT[drawn[seat]]
            self.stock_pos += 1
        if self.stock_pos == len(stock):
            self.last_draw = drawn

    def _close_window(self) -> None:
        """At the next lead, apply what silence after a won trick costs."""
        side = self.window_side
        if not self._silence_costs or self.window_cantes:
            self.window_side = None
            return
        r = self.rules
        if r.cante_only_if_sung_at_first_win and self.wins[side] == 1:
            self.barred_sides.add(side)
        if r.forfeit_unsung_cantes:
            lost = []
            for seat in self._side_seats[side]:
                hand = self.hands[seat]
                held = hand & (hand >> 1) & self._unsung  # caballos whose rey is held too
                while held:
                    low = held & -held
                    suit = CARD_SUIT[low.bit_length() - 1]
                    if self._cante_refusal(seat, suit) is None:  # the window is still open here
                        lost.append(suit)
                    held ^= low
            if lost:
                self.lost_cantes.update((side, suit) for suit in lost)
        self.window_side = None

    # -- Declarations --------------------------------------------------------
    # Each ``_x_refusal`` returns the code of the first rule that forbids the
    # declaration, or None: the one place where the rule is written.  verify_x
    # turns the code into an error with words; can_x tests it for None.

    def _window_refusal(self, seat: int) -> str | None:
        """Declarations come after a trick won by the declarer's side, before the next lead."""
        if self.over:
            return "deal_over"
        if self.trick:
            return "declare_between_tricks"
        if not self.tricks:
            return "declare_after_won_trick"
        if self.window_side != self._side[seat]:
            return "declare_by_trick_winner"
        return None

    def _draw_refusal(self, seat: int, cards: Mask) -> str | None:
        """The 2-player rules that tie cantes and tute to the draws from the stock."""
        r = self.rules
        if r.declare_only_after_draw and not self.window_after_draw:
            return "declare_only_after_draw"
        if r.no_declare_with_last_drawn and seat in self.last_draw and cards >> self.last_draw[seat] & 1:
            return "no_declare_with_last_drawn"
        return None

    def _cante_refusal(self, seat: int, s: Suit) -> str | None:
        r = self.rules
        side = self._side[seat]
        return (self._window_refusal(seat)
                or ("cante_not_held" if self.hands[seat] & _PAIRS[s] != _PAIRS[s] else None)
                or ("cante_suit_sung" if s in self.sung_suits else None)
                or ("cante_only_if_sung_at_first_win" if side in self.barred_sides else None)
                or ("forfeit_unsung_cantes" if (side, s) in self.lost_cantes else None)
                or ("cantes_per_trick" if self.window_cantes >= r.cantes_per_trick else None)
                or self._draw_refusal(seat, _PAIRS[s])
                or ("forty_first" if r.forty_first and s != self.trump
                    and self._cante_refusal(seat, self.trump) is None else None))

    def verify_cante(self, seat: int, suit: Suit | str) -> None:
        """Raise :class:`IllegalDeclaration` naming the rule if ``seat`` may not sing ``suit`` now."""
        s = suit_from_letter(suit) if isinstance(suit, str) else suit
        code = self._cante_refusal(seat, s)
        if code:
            self._refuse(code, seat, "a cante", suit=s)

    def can_cante(self, seat: int, suit: Suit | str) -> bool:
        """True if ``seat`` may sing ``suit`` now."""
        return self._cante_refusal(seat, suit_from_letter(suit) if isinstance(suit, str) else suit) is None

    def cante(self, seat: int, suit: Suit | str) -> Cante:
        """Sing rey and caballo of ``suit``; raise :class:`IllegalDeclaration` if not allowed."""
        event = Cante(seat, suit_from_letter(suit) if isinstance(suit, str) else suit)
        self._apply_cante(event)
        return event

    def _apply_cante(self, event: Cante) -> None:
        self.verify_cante(event.seat, event.suit)
        r = self.rules
        points = r.cuarenta_points if event.suit == self.trump else r.cante_points
        self.cantes.append(CanteScore(event.seat, self._side[event.seat], event.suit, points))
        self.sung_suits.add(event.suit)
        self._unsung &= ~BIT[card(CABALLO, event.suit)]
        self.window_cantes += 1
        self.log.append(event)

    def _tute_refusal(self, seat: int, rank: int) -> str | None:
        r = self.rules
        four = _FOURS.get(rank)
        if four is None:
            return "tute_rank"
        first_lead = not self.tricks and not self.trick and not self.over
        if first_lead and r.tute_at_first_lead:
            window = "tute_by_leader" if seat != self.turn else None
        else:
            window = self._window_refusal(seat)
        side = self._side[seat]
        return (window
                or ("tute_not_held" if self.hands[seat] & four != four else None)
                or ("tute_blocked_by_earlier_cante" if r.tute_blocked_by_earlier_cante
                    and any(c.side == side for c in self.cantes) else None)
                or (None if first_lead else self._draw_refusal(seat, four)))

    def verify_tute(self, seat: int, rank: int) -> None:
        """Raise :class:`IllegalDeclaration` naming the rule if ``seat`` may not announce tute now."""
        code = self._tute_refusal(seat, rank)
        if code:
            self._refuse(code, seat, "a tute", rank=rank)

    def can_tute(self, seat: int, rank: int) -> bool:
        """True if ``seat`` may announce a tute of ``rank`` now."""
        return self._tute_refusal(seat, rank) is None

    def tute(self, seat: int, rank: int) -> Tute:
        """Announce tute; the deal ends at once."""
        event = Tute(seat, rank)
        self._apply_tute(event)
        return event

    def _apply_tute(self, event: Tute) -> None:
        self.verify_tute(event.seat, event.rank)
        self.tute_event = event
        self.log.append(event)

    def _exchange_refusal(self, seat: int, c: Card) -> str | None:
        r = self.rules
        rank = CARD_RANK[c]
        if rank == 7 and r.exchange_seven:
            allowed_for = r.exchange_seven_for
        elif rank == 2 and r.exchange_two:
            allowed_for = r.exchange_two_for
        else:
            allowed_for = None
        return ("deal_over" if self.over else None
                or ("exchange_card" if allowed_for is None or CARD_SUIT[c] != self.trump else None)
                or ("exchange_needs_stock" if self.stock_pos >= len(self.stock) else None)
                or ("exchange_on_lead" if self.trick or seat != self.turn else None)
                or ("exchange_at_first_lead" if not self.tricks and not r.exchange_at_first_lead else None)
                or ("exchange_not_held" if not self.hands[seat] >> c & 1 else None)
                or ("exchange_turned_rank" if CARD_RANK[self.turned] not in (allowed_for or ()) else None))

    def verify_exchange(self, seat: int, card_: Card | str) -> None:
        """Raise :class:`IllegalDeclaration` naming the rule if ``seat`` may not exchange ``card_`` now."""
        c = card_from_code(card_) if isinstance(card_, str) else card_
        code = self._exchange_refusal(seat, c)
        if code:
            self._refuse(code, seat, "an exchange", card=c)

    def can_exchange(self, seat: int, card_: Card | str) -> bool:
        """True if ``seat`` may exchange ``card_`` for the turned card now."""
        return self._exchange_refusal(seat, card_from_code(card_) if isinstance(card_, str) else card_) is None

    def exchange(self, seat: int, card_: Card | str) -> Exchange:
        """Give the 7 (or 2) of trump for the turned card, which it replaces under the stock."""
        event = Exchange(seat, card_from_code(card_) if isinstance(card_, str) else card_)
        self._apply_exchange(event)
        return event

    def _apply_exchange(self, event: Exchange) -> None:
        self.verify_exchange(event.seat, event.card)
        self.hands[event.seat] = (self.hands[event.seat] & ~BIT[event.card]) | BIT[self.turned]
        self.stock[-1] = event.card
        self.turned = event.card
        self.log.append(event)

    def _refuse(self, code: str, seat: int, what: str, *, suit: Suit | None = None, rank: int | None = None,
                card: Card | None = None) -> None:
        """Raise the error for a refused declaration, in words a player understands."""
        r = self.rules
        names = r.seat_names
        words = _REFUSALS[code].format(
            what=what, name=names[seat], suit=SUIT_LETTERS[suit] if suit is not None else "",
            trump=SUIT_LETTERS[self.trump], limit=r.cantes_per_trick,
            winner=names[self.tricks[-1].winner] if self.tricks else "",
            four="reyes" if rank == REY else "caballos",
            card=CODES[card] if card is not None else "", turned=CODES[self.turned],
            last=CODES[self.last_draw[seat]] if seat in self.last_draw else "")
        option = code if code in type(r).model_fields else _REFUSAL_OPTIONS.get(code)
        if option and card is not None and CARD_RANK[card] == 2:
            option = option.replace("seven", "two")
        raise IllegalDeclaration(f"{names[seat]}: {words}", rule=code, option=option, seat=seat)

    def force(self, action: Action) -> bool:
        """Apply an action as a record wrote it, legal or not, so that a validator can read on.

        A play is made by the seat written, the card taken from wherever it is
        (another hand or the stock); an exchange swaps without its conditions;
        an illegal cante or tute is not applied (it scores nothing).  Returns
        False when nothing could be applied (the deal is over, or a refused
        declaration).
        """
        if self.over:
            return False
        if type(action) is Play:
            seat, bit = action.seat, BIT[action.card]
            if not self.trick:
                self.leader = seat
            self.turn = seat
            if not self.hands[seat] & bit:
                for other in range(self._n):
                    if self.hands[other] & bit:
                        self.hands[other] ^= bit
                        break
                else:
                    if action.card in self.stock[self.stock_pos:]:
                        self.stock.remove(action.card)
                self.hands[seat] |= bit
            self._apply_play(action, checked=False)
            return True
        if type(action) is Exchange:
            if not self.hands[action.seat] & BIT[action.card] or self.stock_pos >= len(self.stock):
                return False
            self.hands[action.seat] = (self.hands[action.seat] & ~BIT[action.card]) | BIT[self.turned]
            self.stock[-1] = action.card
            self.turned = action.card
            self.log.append(action)
            return True
        return False

    # -- Any action ----------------------------------------------------------
    def apply(self, action: Action) -> Action:
        """Apply any action; raise :class:`IllegalAction` naming the rule if it is not allowed."""
        if type(action) is Play:
            self._apply_play(action)
            return action
        if type(action) is Cante:
            self._apply_cante(action)
        elif type(action) is Tute:
            self._apply_tute(action)
        elif type(action) is Exchange:
            self._apply_exchange(action)
        else:
            raise TypeError(f"not an action: {action!r}")
        return action

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` if ``action`` is not allowed now."""
        if isinstance(action, Play):
            self.verify_play(action.card, action.seat)
        elif isinstance(action, Cante):
            self.verify_cante(action.seat, action.suit)
        elif isinstance(action, Tute):
            self.verify_tute(action.seat, action.rank)
        else:
            self.verify_exchange(action.seat, action.card)

    def legal_actions(self) -> list[Action]:
        """Every action allowed now: declarations first, then the plays of the player to move."""
        if self.over:
            return []
        out: list[Action] = []
        if not self.trick:
            r = self.rules
            for seat in range(r.players):
                hand = self.hands[seat]
                for rank, four in _FOURS.items():
                    if hand & four == four and self.can_tute(seat, rank):
                        out.append(Tute(seat, rank))
                if self.tricks:
                    for suit in SUITS:
                        if hand & _PAIRS[suit] == _PAIRS[suit] and self.can_cante(seat, suit):
                            out.append(Cante(seat, suit))
            if r.exchange_seven or r.exchange_two:
                trump = self.trump
                for c in (card(7, trump), card(2, trump)):
                    if self.can_exchange(self.turn, c):
                        out.append(Exchange(self.turn, c))
        seat = self.turn
        out.extend(Play(seat, c) for c in cards_in(self.legal_plays()))
        return out

    # -- The count -------------------------------------------------------------
    def score(self, match_target: int | None = None) -> ScoreSheet:
        """The count so far, and at the end, the winner and the match points.

        ``match_target`` decides the tute effect that depends on it (Ludoteka);
        it defaults to the ruleset's.
        """
        r = self.rules
        k = r.sides
        target = r.match_target if match_target is None else match_target
        cards = list(self.won_points)
        complete = self.turn < 0 and self.tute_event is None
        last_side = r.side_of(self.tricks[-1].winner) if complete else None
        totals = list(cards)
        if last_side is not None:
            totals[last_side] += r.last_trick_bonus
        for c in self.cantes:
            totals[c.side] += c.points
        winner: int | None = None
        tie_break = False
        doubled = False
        wins_match = False
        points = [0] * k
        if self.tute_event is not None:
            winner = r.side_of(self.tute_event.seat)
            if r.tute_effect == "win_match" or (
                    r.tute_wins_match_below_target is not None and target < r.tute_wins_match_below_target):
                wins_match = True
            else:
                points[winner] = r.tute_match_points
        elif complete:
            best = max(totals)
            tied = [s for s in range(k) if totals[s] == best]
            if len(tied) == 1:
                winner = tied[0]
            else:
                tie_break = True
                winner = next(r.side_of(t.winner) for t in reversed(self.tricks) if r.side_of(t.winner) in tied)
            basis = totals[winner] if r.double_basis == "total" else (
                cards[winner] + (r.last_trick_bonus if last_side == winner else 0))
            doubled = r.double_threshold is not None and basis > r.double_threshold
            points[winner] = r.double_points if doubled else r.deal_points
        return ScoreSheet(
            sides=k, tricks=tuple(self.tricks), card_points=tuple(cards), last_trick_side=last_side,
            last_trick_bonus=r.last_trick_bonus if last_side is not None else 0, cantes=tuple(self.cantes),
            totals=tuple(totals), winner=winner, tie_break=tie_break, match_points=tuple(points),
            doubled=doubled, tute=self.tute_event, wins_match=wins_match, complete=complete,
        )


# ---------------------------------------------------------------------------
# The match.


@dataclass
class Match:
    """A sequence of deals: the dealer moves right each deal, the standing grows to the target.

    >>> from tutepgn.rules import preset
    >>> m = Match(preset("playcard-2p"), seed=1)
    >>> deal = m.next_deal()
    >>> deal.dealer, m.deal_no
    (0, 1)
    """

    rules: Ruleset
    seed: int | None = None
    first_dealer: int = 0
    target: int | None = None
    standing: list[int] = field(default_factory=list)
    sheets: list[ScoreSheet] = field(default_factory=list)
    winner: int | None = None
    deal_no: int = 0
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        if self.target is None:
            self.target = self.rules.match_target
        if not self.standing:
            self.standing = [0] * self.rules.sides

    @property
    def over(self) -> bool:
        """True once a side reached the target or a tute won the match."""
        return self.winner is not None

    @property
    def dealer(self) -> int:
        """The dealer of the next deal: each deal moves one seat in turn order."""
        return (self.first_dealer + self.deal_no) % self.rules.players

    def next_deal(self, deck: list[Card] | None = None) -> Deal:
        """Deal the next deal (from ``deck``, or shuffled from the match's seed)."""
        if self.over:
            raise ValueError("the match is over: no deal after the end")
        first = self.deal_no == 0
        dealer = self.dealer
        self.deal_no += 1
        if deck is None:
            return Deal.shuffled(self.rules, self._rng, dealer, first_of_match=first)
        return Deal.from_deck(self.rules, deck, dealer, first_of_match=first)

    def record(self, deal: Deal) -> ScoreSheet:
        """Add a finished deal's match points to the standing; return its score sheet."""
        if not deal.over:
            raise ValueError("the deal is not over")
        sheet = deal.score(self.target)
        self.sheets.append(sheet)
        for side, pts in enumerate(sheet.match_points):
            self.standing[side] += pts
        if sheet.wins_match:
            self.winner = sheet.winner
        else:
            leaders = [s for s in range(self.rules.sides) if self.standing[s] >= (self.target or 0)]
            if leaders:
                self.winner = max(leaders, key=lambda s: self.standing[s])
        return sheet
