"""A deal of Tute as a state machine.

Each rule is written once, as ``verify_x`` (raises an :class:`IllegalAction`
that names the rule), ``can_x`` (a bool) and ``x`` (applies it and returns a
frozen event record), always with the seat first: ``verify_cante(seat, suit)``,
``can_play(seat, card)``.  :meth:`Deal.verify`, :meth:`Deal.can` and
:meth:`Deal.apply` take any event.  The engine reads
:class:`~tutepgn.rules.Ruleset` options only; it never asks which preset it
plays.  The play duties and the words of each refusal are in
:mod:`tutepgn.duties`, the count in :mod:`tutepgn.score`, matches in
:mod:`tutepgn.match`.

Seats are ints in turn order: seat ``s + 1`` plays after seat ``s``, and the
player after the dealer is mano.  Every public method also takes a seat by
its letter (``"N"``, ``"W"``, ``"S"``, ``"E"`` as the ruleset names them).

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
from collections.abc import Sequence
from typing import overload

from .cards import (
    BIT, CARD_POINTS, CARD_RANK, CARD_SUIT, CODES, REY, SUITS,
    Card, CardSet, Mask, Suit, card, card_from_code, cards_in, mask_of, pack, suit_from_letter,
)
from .declarations import CANTE_PAIRS, FOURS, cante_refusal, close_window, exchange_refusal, tute_refusal
from .duties import DUTY_WORDS, FREE, REFUSAL_OPTIONS, REFUSALS, play_duty
from .errors import IllegalDeclaration, IllegalPlay
from .events import Action, Cante, Exchange, Play, Tute
from .words import card_words, cards_words, seat_words, suit_words
from .i18n import gettext as _
from .rules import OPTIONS, Ruleset, SeatLike
from .score import CanteScore, ScoreSheet, Trick, count

CardLike = Card | str
"""A card as an int or as its code (``"1O"``)."""

# ---------------------------------------------------------------------------
# The deal.


class Deal:
    """One deal, from the cards dealt to the score sheet.

    Build it with :meth:`from_hands`, :meth:`from_deck` or :meth:`shuffled`;
    then apply actions (:meth:`play`, :meth:`cante`, :meth:`tute`,
    :meth:`exchange`, or :meth:`apply` for any of them) until :attr:`over`,
    and read :meth:`score`.  The rules of declarations are functions of the
    deal (:mod:`tutepgn.declarations`).
    """

    def __init__(self, rules: Ruleset, hands: list[Mask], stock: list[Card], turned: Card,
                 dealer: int, *, first_of_match: bool = False) -> None:
        self.rules = rules
        n = rules.players
        if len(hands) != n:
            raise ValueError(_("{n} hands expected, {given} given", n=n, given=len(hands)))
        if not 0 <= dealer < n:
            raise ValueError(_("dealer must be a seat 0..{last}", last=n - 1))
        self._check_cards(hands, stock, turned, dealer)
        self.dealer = dealer
        self._side = rules.seating[0]
        self._n = n
        # Free play while stock_pos is below this (the stock's length, or 0 when duties always apply).
        self._free_while_below = len(stock) if rules.free_play_while_stock else 0
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
        self.barred_sides: set[int] = set()
        self.lost_cantes: set[tuple[int, Suit]] = set()
        self.last_draw: dict[int, Card] = {}
        self.tute_event: Tute | None = None
        # The declaration window opens after each trick for the side that won it; window_cantes counts
        # its cantes (an exchange is a declaration but not a cante).
        self.window_side: int | None = None
        self.window_cantes = 0
        self.window_after_draw = False

    @staticmethod
    def _check_cards(hands: list[Mask], stock: list[Card], turned: Card, dealer: int) -> None:
        seen = 0
        for m in hands:
            if seen & m:
                raise ValueError(_("a card is dealt twice: {cards}",
                                   cards=" ".join(CODES[c] for c in cards_in(seen & m))))
            seen |= m
        for c in stock:
            if seen >> c & 1:
                raise ValueError(_("stock card {card} is also in a hand or twice in the stock", card=CODES[c]))
            seen |= BIT[c]
        if stock and stock[-1] != turned:
            raise ValueError(_("the turned card must be the last card of the stock"))
        if not stock and not hands[dealer] >> turned & 1:
            raise ValueError(_("the turned card {card} must be in the dealer's hand", card=CODES[turned]))

    # -- Building ----------------------------------------------------------
    @classmethod
    def from_hands(cls, rules: Ruleset, hands: list[list[str]] | list[str], *, dealer: SeatLike = 0,
                   stock: Sequence[str] | str = (), turned: str | None = None,
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
                raise ValueError(_("give the turned card: it is one of the dealer's cards"))
            turned_card = stock_cards[-1]
        else:
            turned_card = card_from_code(turned)
        return cls(rules, hand_masks, stock_cards, turned_card, rules.seat(dealer), first_of_match=first_of_match)

    @classmethod
    def from_deck(cls, rules: Ruleset, deck: list[Card], dealer: SeatLike = 0, *,
                  first_of_match: bool = False) -> Deal:
        """Deal a deck order one card at a time, starting with mano; the rest is the stock.

        The dealer gets the last card dealt; with a stock, the next card is
        turned and goes under the stock, drawn last.
        """
        r = rules
        n = r.players
        if sorted(deck) != cards_in(pack(r.removed_ranks)):
            raise ValueError(_("the deck must hold each of the {n} cards of the pack once", n=r.deck_size))
        hands = [0] * n
        dealer = r.seat(dealer)
        dealt = n * r.hand_size
        for i in range(dealt):
            hands[(dealer + 1 + i) % n] |= BIT[deck[i]]
        if r.trump_card == "dealer_last":
            return cls(r, hands, [], deck[dealt - 1], dealer, first_of_match=first_of_match)
        turned = deck[dealt]
        stock = list(deck[dealt + 1:]) + [turned]
        return cls(r, hands, stock, turned, dealer, first_of_match=first_of_match)

    @classmethod
    def shuffled(cls, rules: Ruleset, seed: int | random.Random | None = None, dealer: SeatLike = 0, *,
                 first_of_match: bool = False) -> Deal:
        """Deal a shuffled pack; the same seed gives the same deal."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = cards_in(pack(rules.removed_ranks))
        rng.shuffle(deck)
        return cls.from_deck(rules, deck, dealer, first_of_match=first_of_match)

    # -- Reading the state ---------------------------------------------------
    def __repr__(self) -> str:
        """Its rules, its dealer and where the play stands, as one line.

        >>> from tutepgn.rules import preset
        >>> deal = Deal.shuffled(preset("torofun-4p"), seed=7)
        >>> deal
        <Deal torofun-4p dealer=N trick 1, W to play>
        >>> deal.apply(deal.legal_actions()[0]), deal
        (Play(1, '6O'), <Deal torofun-4p dealer=N trick 1, S to play>)
        """
        names = self.rules.seat_names
        where = "over" if self.over else f"trick {len(self.tricks) + 1}, {names[self.turn]} to play"
        return f"<Deal {self.rules.spec} dealer={names[self.dealer]} {where}>"

    @property
    def over(self) -> bool:
        """True once every card is played or a tute ended the deal."""
        return self.tute_event is not None or (self.turn < 0)

    @property
    def stock_left(self) -> int:
        """Cards still in the stock, the turned card included."""
        return len(self.stock) - self.stock_pos

    def side_of(self, seat: SeatLike) -> int:
        """The side a seat scores for."""
        return self.rules.side_of(self.rules.seat(seat))

    def hand(self, seat: SeatLike) -> list[Card]:
        """The cards a seat holds now."""
        return cards_in(self.hands[self.rules.seat(seat)])

    def restart(self) -> Deal:
        """A new deal at this one's start: the same rules, hands, stock, turned card, dealer and first deal.

        Taking back the last event is ``restart()`` and replaying all the
        others (:func:`tutepgn.check.replay.replay`).
        """
        return Deal(self.rules, list(self.initial_hands), list(self.initial_stock), self.initial_turned,
                    self.dealer, first_of_match=self.first_of_match)

    # -- Playing a card ------------------------------------------------------
    def legal_plays(self) -> CardSet:
        """The cards the player to move may play."""
        return CardSet(self._duty(self.turn)[0] if not self.over else 0)

    def _duty(self, seat: int) -> tuple[Mask, str | None]:
        if self.stock_pos < self._free_while_below:
            return self.hands[seat], FREE
        w = self._winning
        return play_duty(self.hands[seat], self._led, self._high_led, self._high_trump, self.trump,
                         w >= 0 and w != seat and self._side[w] == self._side[seat], self.rules)

    def _seat_card(self, seat: SeatLike | CardLike, card: CardLike | None) -> tuple[int | None, Card]:
        """``(card)`` or ``(seat, card)`` read as a seat number (None: the player to move) and a card."""
        if card is None:
            return None, card_from_code(seat) if isinstance(seat, str) else seat
        return self.rules.seat(seat), card_from_code(card) if isinstance(card, str) else card

    @overload
    def verify_play(self, card: CardLike, /) -> None: ...
    @overload
    def verify_play(self, seat: SeatLike, card: CardLike, /) -> None: ...
    def verify_play(self, seat: SeatLike | CardLike, card: CardLike | None = None, /) -> None:
        """Raise :class:`IllegalPlay` naming the rule if ``card`` may not be played now (by ``seat``, if given)."""
        self._check_play(*self._seat_card(seat, card))

    def _check_play(self, seat: int | None, card: Card) -> None:
        if self.over:
            raise IllegalPlay(_("the deal is over"), rule="deal_over", seat=seat)
        names = self.rules.seat_names
        if seat is not None and seat != self.turn:
            raise IllegalPlay(_("not {seat}'s turn: {turn} plays now", seat=seat_words(names[seat]),
                                turn=seat_words(names[self.turn])),
                              rule="not_your_turn", seat=seat)
        seat = self.turn
        if not self.hands[seat] >> card & 1:
            raise IllegalPlay(_("{seat} does not hold {card}", seat=seat_words(names[seat]), card=card_words(card)),
                              rule="not_held", seat=seat)
        allowed, duty = self._duty(seat)
        if not allowed >> card & 1:
            words = _(DUTY_WORDS[duty or "must_follow"],
                suit=suit_words(self._led) if self._led >= 0 else "-",
                high=card_words(self._high_led) if self._high_led >= 0 else "-",
                trump=suit_words(self.trump),
                high_trump=card_words(self._high_trump) if self._high_trump >= 0 else "-")
            raise IllegalPlay(_("{seat} {duty}; {card} breaks it (may play {allowed})",
                                seat=seat_words(names[seat]), duty=words,
                                card=card_words(card), allowed=cards_words(cards_in(allowed))),
                              rule=duty or "must_follow", option=duty, seat=seat)

    @overload
    def can_play(self, card: CardLike, /) -> bool: ...
    @overload
    def can_play(self, seat: SeatLike, card: CardLike, /) -> bool: ...
    def can_play(self, seat: SeatLike | CardLike, card: CardLike | None = None, /) -> bool:
        """True if ``card`` may be played now (by ``seat``, if given)."""
        s, c = self._seat_card(seat, card)
        return self.can(Play(self.turn if s is None else s, c))

    @overload
    def play(self, card: CardLike, /) -> Play: ...
    @overload
    def play(self, seat: SeatLike, card: CardLike, /) -> Play: ...
    def play(self, seat: SeatLike | CardLike, card: CardLike | None = None, /) -> Play:
        """Play a card, for the player to move or the ``seat`` given; raise :class:`IllegalPlay` if the rules forbid it.

        ``deal.play("1O")``, ``deal.play("N", "1O")`` and ``deal.play(0, "1O")`` are the same play when N is to move.
        """
        s, c = self._seat_card(seat, card)
        event = Play(self.turn if s is None else s, c)
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
                self._check_play(event.seat, c)  # raises: out of turn, not held, or the deal is over
            if trick and self.stock_pos >= self._free_while_below:
                w = self._winning
                if not play_duty(hand, self._led, self._high_led, self._high_trump, self.trump,
                                 w != seat and self._side[w] == self._side[seat], self.rules)[0] >> c & 1:
                    self._check_play(seat, c)
        if not trick and self.window_side is not None:
            close_window(self)  # silence is judged now, on the hands after any exchange
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

    # -- Declarations: the rules are in tutepgn.declarations -----------------------
    def verify_cante(self, seat: SeatLike, suit: Suit | str) -> None:
        """Raise :class:`IllegalDeclaration` naming the rule if ``seat`` may not sing ``suit`` now."""
        self.verify(self._cante(seat, suit))

    def can_cante(self, seat: SeatLike, suit: Suit | str) -> bool:
        """True if ``seat`` may sing ``suit`` now."""
        return self.can(self._cante(seat, suit))

    def cante(self, seat: SeatLike, suit: Suit | str) -> Cante:
        """Sing rey and caballo of ``suit``; raise :class:`IllegalDeclaration` if not allowed."""
        return self.apply(self._cante(seat, suit))

    def _cante(self, seat: SeatLike, suit: Suit | str) -> Cante:
        return Cante(self.rules.seat(seat), suit_from_letter(suit) if isinstance(suit, str) else suit)

    def verify_tute(self, seat: SeatLike, rank: int) -> None:
        """Raise :class:`IllegalDeclaration` naming the rule if ``seat`` may not announce tute now."""
        self.verify(Tute(self.rules.seat(seat), rank))

    def can_tute(self, seat: SeatLike, rank: int) -> bool:
        """True if ``seat`` may announce a tute of ``rank`` (12: reyes, 11: caballos) now."""
        return self.can(Tute(self.rules.seat(seat), rank))

    def tute(self, seat: SeatLike, rank: int) -> Tute:
        """Announce tute; the deal ends at once."""
        return self.apply(Tute(self.rules.seat(seat), rank))

    def verify_exchange(self, seat: SeatLike, card_: CardLike) -> None:
        """Raise :class:`IllegalDeclaration` naming the rule if ``seat`` may not exchange ``card_`` now."""
        self.verify(self._exchange(seat, card_))

    def can_exchange(self, seat: SeatLike, card_: CardLike) -> bool:
        """True if ``seat`` may exchange ``card_`` for the turned card now."""
        return self.can(self._exchange(seat, card_))

    def exchange(self, seat: SeatLike, card_: CardLike) -> Exchange:
        """Give the 7 (or 2) of trump for the turned card, which it replaces under the stock."""
        return self.apply(self._exchange(seat, card_))

    def _exchange(self, seat: SeatLike, card_: CardLike) -> Exchange:
        return Exchange(self.rules.seat(seat), card_from_code(card_) if isinstance(card_, str) else card_)

    def _swap(self, event: Exchange) -> None:
        """The exchange itself: the card given goes under the stock as the new turned card."""
        self.hands[event.seat] = (self.hands[event.seat] & ~BIT[event.card]) | BIT[self.turned]
        self.stock[-1] = event.card
        self.turned = event.card
        self.log.append(event)

    def _refusal(self, action: Action) -> str | None:
        """The code of the first rule that forbids a declaration now, or None."""
        if type(action) is Cante:
            return cante_refusal(self, action.seat, action.suit)
        if type(action) is Tute:
            return tute_refusal(self, action.seat, action.rank)
        if type(action) is Exchange:
            return exchange_refusal(self, action.seat, action.card)
        raise TypeError(f"not an action: {action!r}")

    def _refuse(self, code: str, action: Action) -> None:
        """Raise the error for a refused declaration, in words a player understands."""
        r = self.rules
        names = r.seat_names
        seat = action.seat
        c = action.card if type(action) is Exchange else None
        words = _(
            REFUSALS[code],
            what=_("a cante") if type(action) is Cante else _("a tute") if type(action) is Tute else _("an exchange"),
            name=seat_words(names[seat]),
            suit=suit_words(action.suit) if type(action) is Cante else "",
            trump=suit_words(self.trump), limit=r.cantes_per_trick,
            winner=seat_words(names[self.tricks[-1].winner]) if self.tricks else "",
            four="reyes" if type(action) is Tute and action.rank == REY else "caballos",
            card=card_words(c) if c is not None else "", turned=card_words(self.turned),
            last=card_words(self.last_draw[seat]) if seat in self.last_draw else "")
        option = code if code in OPTIONS else REFUSAL_OPTIONS.get(code)
        if option and c is not None and CARD_RANK[c] == 2:
            option = option.replace("seven", "two")
        raise IllegalDeclaration(_("{seat}: {refusal}", seat=seat_words(names[seat]), refusal=words), rule=code,
                                 option=option, seat=seat)

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
            self._swap(action)
            return True
        return False

    # -- Any action ----------------------------------------------------------
    @overload
    def apply(self, action: Play) -> Play: ...
    @overload
    def apply(self, action: Cante) -> Cante: ...
    @overload
    def apply(self, action: Tute) -> Tute: ...
    @overload
    def apply(self, action: Exchange) -> Exchange: ...
    @overload
    def apply(self, action: Action) -> Action: ...

    def apply(self, action: Action) -> Action:
        """Apply any action; raise :class:`IllegalAction` naming the rule if it is not allowed."""
        if type(action) is Play:
            self._apply_play(action)
            return action
        code = self._refusal(action)
        if code:
            self._refuse(code, action)
        if type(action) is Cante:
            r = self.rules
            points = r.cuarenta_points if action.suit == self.trump else r.cante_points
            self.cantes.append(CanteScore(action.seat, self._side[action.seat], action.suit, points))
            self.sung_suits.add(action.suit)
            self.window_cantes += 1
            self.log.append(action)
        elif type(action) is Tute:
            self.tute_event = action
            self.log.append(action)
        elif type(action) is Exchange:  # nothing else gets here: _refusal raised on any other type
            self._swap(action)
        return action

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` naming the rule if ``action`` is not allowed now."""
        if type(action) is Play:
            self._check_play(action.seat, action.card)
            return
        code = self._refusal(action)
        if code:
            self._refuse(code, action)

    def can(self, action: Action) -> bool:
        """True if ``action`` is allowed now."""
        if type(action) is Play:
            return (not self.over and action.seat == self.turn
                    and bool(self._duty(action.seat)[0] >> action.card & 1))
        return self._refusal(action) is None

    def legal_actions(self) -> list[Action]:
        """Every action allowed now: declarations first, then the plays of the player to move."""
        if self.over:
            return []
        out: list[Action] = []
        if not self.trick:
            r = self.rules
            for seat in range(r.players):
                hand = self.hands[seat]
                for rank, four in FOURS.items():
                    if hand & four == four and tute_refusal(self, seat, rank) is None:
                        out.append(Tute(seat, rank))
                if self.tricks:
                    for suit in SUITS:
                        if hand & CANTE_PAIRS[suit] == CANTE_PAIRS[suit] and cante_refusal(self, seat, suit) is None:
                            out.append(Cante(seat, suit))
            if r.exchange_seven or r.exchange_two:
                trump = self.trump
                for c in (card(7, trump), card(2, trump)):
                    if exchange_refusal(self, self.turn, c) is None:
                        out.append(Exchange(self.turn, c))
        seat = self.turn
        out.extend(Play(seat, c) for c in cards_in(self._duty(seat)[0]))
        return out

    # -- The count -------------------------------------------------------------
    def score(self, match_target: int | None = None) -> ScoreSheet:
        """The count so far, and at the end, the winner and the match points (see :func:`~tutepgn.score.count`)."""
        return count(self, match_target)
