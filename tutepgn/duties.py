"""The rules' words: the play duties, and the refusal codes of declarations with their sentences.

:func:`play_duty` is the one place where the duties to follow, beat and trump
are written; every driver of the engine (the deal, the validator, the bots)
asks it.  A refused declaration is named by a stable code (``cante_not_held``
...), which is also the rule a validator reports; :data:`REFUSALS` gives each
code its sentence, and :data:`RULE_CODES` lists every code an
:class:`~tutepgn.errors.IllegalAction` can carry.
"""

from __future__ import annotations

from .cards import ABOVE, CARD_SUIT, SUIT_MASK, Card, Mask, Suit
from .i18n import N_
from .rules import Ruleset

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


DUTY_WORDS = {
    "must_follow": N_("must follow suit ({suit} was led)"),
    "must_beat": N_("must beat the highest {suit} in the trick ({high}) when following suit"),
    "must_trump": N_("must play a trump ({trump}) when void in the suit led"),
    "must_overtrump": N_("must play a trump that beats {high_trump} when void in the suit led"),
    "must_undertrump": N_("must play a trump when void in the suit led, even one that cannot win"),
}
"""Words for each play duty a card can break; the duty is also the rule name reported."""

REFUSALS = {
    "deal_over": N_("the deal is over"),
    "declare_between_tricks": N_("{what} only between tricks, before the next lead; a trick is in play"),
    "declare_after_won_trick": N_("{what} only after a trick won by the declarer's side; none is won yet"),
    "declare_by_trick_winner": N_("{what} only by the side that won the last trick, and {winner} won it"),
    "declare_only_after_draw": N_("{what} only after a trick that was followed by a draw from the stock"),
    "no_declare_with_last_drawn": N_("{what} may not use {last}, received in the draw that emptied the stock"),
    "cante_not_held": N_("does not hold rey and caballo of {suit}"),
    "cante_suit_sung": N_("{suit} was already sung in this deal"),
    "cante_only_if_sung_at_first_win": N_("the side sang no cante right after its first won trick, so it may not sing in this deal"),
    "forfeit_unsung_cantes": N_("the cante in {suit} was lost: the side won a trick while it could sing it and sang no cante"),
    "cantes_per_trick": N_("cantes after one won trick: at most {limit}"),
    "forty_first": N_("must sing the 40 ({trump}) before a 20"),
    "tute_rank": N_("a tute is four reyes (12) or four caballos (11)"),
    "tute_by_leader": N_("before the first trick only the leader may announce tute"),
    "tute_not_held": N_("does not hold all four {four}"),
    "tute_blocked_by_earlier_cante": N_("no tute after the side has sung a cante in this deal"),
    "exchange_card": N_("{card} cannot be exchanged: only the 7 or 2 of trump ({trump}) that the ruleset allows"),
    "exchange_needs_stock": N_("no exchange once the stock is exhausted"),
    "exchange_on_lead": N_("only the player on lead may exchange, before leading"),
    "exchange_at_first_lead": N_("no exchange before the first trick: only after winning a trick"),
    "exchange_not_held": N_("does not hold {card}"),
    "exchange_turned_rank": N_("{card} may not be exchanged for the turned {turned}"),
}
"""Words for each refusal code of a declaration; the code is also the rule name reported."""

REFUSAL_OPTIONS = {"exchange_card": "exchange_seven", "exchange_turned_rank": "exchange_seven_for",
                   "tute_by_leader": "tute_at_first_lead"}
"""Ruleset option behind a refusal code that is not itself an option name."""

RULE_CODES = frozenset(REFUSALS) | frozenset(DUTY_WORDS) | {"not_your_turn", "not_held"}
"""Every rule code an illegal play or declaration is reported under."""


def trick_state(trick: tuple[Card, ...] | list[Card], leader: int, trump: int, players: int) -> tuple[int, int, int, int]:
    """``(led suit, highest card of it, highest trump, winning seat)`` of a trick, -1 for none, as the engine keeps them."""
    led = high_led = high_trump = winning = -1
    for i, c in enumerate(trick):
        seat = (leader + i) % players
        suit = CARD_SUIT[c]
        if i == 0:
            led, high_led, winning = suit, c, seat
            if suit == trump:
                high_trump = c
        elif suit == trump:
            if c > high_trump:
                high_trump, winning = c, seat
        elif suit == led and c > high_led:
            high_led = c
            if high_trump < 0:
                winning = seat
    return led, high_led, high_trump, winning
