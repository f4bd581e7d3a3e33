"""The rules of declarations (cantes, tute, the exchange), as refusal codes, for :class:`~tutepgn.engine.Deal`.

Each ``_x_refusal`` returns the code of the first rule that forbids the
declaration, or None: the one place where the rule is written.  The deal's
``verify_x`` turns the code into an error with words (:data:`~tutepgn.duties.REFUSALS`),
``can_x`` tests it for None.  :class:`DeclarationRules` is a part of
:class:`~tutepgn.engine.Deal`, kept apart because the declarations are a
concept of their own; it reads the deal's state and changes only what
silence after a won trick costs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import BIT, CABALLO, CARD_RANK, CARD_SUIT, REY, SUITS, Card, Mask, Suit, card, mask_of
from .rules import Ruleset
from .score import CanteScore, Trick

CANTE_PAIRS: tuple[Mask, ...] = tuple(BIT[card(REY, s)] | BIT[card(CABALLO, s)] for s in SUITS)
"""Per suit, the rey and caballo a cante needs, as a mask."""
CABALLOS = mask_of(card(CABALLO, s) for s in SUITS)
"""The four caballos; a rey is always the card just above its caballo."""
FOURS = {rank: mask_of(card(rank, s) for s in SUITS) for rank in (REY, CABALLO)}
"""The four reyes and the four caballos a tute needs."""


class DeclarationRules:
    """When a seat may declare: the window after a won trick, the draws, the cards held, what was sung."""

    # The deal's state these rules read (set by Deal.__init__).
    rules: Ruleset
    hands: list[Mask]
    stock: list[Card]
    stock_pos: int
    turned: Card
    trump: Suit
    turn: int
    trick: list[Card]
    tricks: list[Trick]
    wins: list[int]
    cantes: list[CanteScore]
    sung_suits: set[Suit]
    barred_sides: set[int]
    lost_cantes: set[tuple[int, Suit]]
    last_draw: dict[int, Card]
    window_side: int | None
    window_cantes: int
    window_after_draw: bool
    _side: tuple[int, ...]
    _side_seats: tuple[tuple[int, ...], ...]
    _silence_costs: bool
    _unsung: Mask

    if TYPE_CHECKING:  # the deal's property, read-only
        @property
        def over(self) -> bool: ...

    def _close_window(self) -> None:
        """At the next lead, apply what silence after a won trick costs.

        Silence is a window with no cante (``window_cantes`` counts cantes only:
        an exchange is not one), judged now, on the hands after any exchange;
        a cante lost is one the side could sing at this moment.  These are the
        decisions ``silence_judged_at_the_lead`` and ``exchange_is_not_a_cante``
        of :data:`tutepgn.sources.DECISIONS` (docs/rules.md, section 6).
        """
        side = self.window_side
        if side is None or not self._silence_costs or self.window_cantes:
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
                or ("cante_not_held" if self.hands[seat] & CANTE_PAIRS[s] != CANTE_PAIRS[s] else None)
                or ("cante_suit_sung" if s in self.sung_suits else None)
                or ("cante_only_if_sung_at_first_win" if side in self.barred_sides else None)
                or ("forfeit_unsung_cantes" if (side, s) in self.lost_cantes else None)
                or ("cantes_per_trick" if self.window_cantes >= r.cantes_per_trick else None)
                or self._draw_refusal(seat, CANTE_PAIRS[s])
                or ("forty_first" if r.forty_first and s != self.trump
                    and self._cante_refusal(seat, self.trump) is None else None))


    def _tute_refusal(self, seat: int, rank: int) -> str | None:
        r = self.rules
        four = FOURS.get(rank)
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

