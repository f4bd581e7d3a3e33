"""The rules of declarations (cantes, tute, the exchange), as refusal codes, read off a :class:`~tutepgn.engine.Deal`.

Each ``x_refusal(deal, ...)`` returns the code of the first rule that forbids
the declaration, or None: the one place where the rule is written.  The deal's
``verify_x`` turns the code into an error with words (:data:`~tutepgn.duties.REFUSALS`),
``can_x`` tests it for None.  Functions of the deal, not a part of it: the
declarations are a concept of their own, they read the deal's public state
only, and :func:`close_window` changes only what silence after a won trick costs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import BIT, CABALLO, CARD_RANK, CARD_SUIT, REY, SUITS, Card, Mask, Suit, card, mask_of

if TYPE_CHECKING:
    from .engine import Deal

CANTE_PAIRS: tuple[Mask, ...] = tuple(BIT[card(REY, s)] | BIT[card(CABALLO, s)] for s in SUITS)
"""Per suit, the rey and caballo a cante needs, as a mask."""
CABALLOS = mask_of(card(CABALLO, s) for s in SUITS)
"""The four caballos; a rey is always the card just above its caballo."""
CABALLO_BITS = tuple(BIT[card(CABALLO, s)] for s in SUITS)
"""Each suit's caballo as a mask, by suit: what a cante of that suit takes out of the caballos not yet sung."""
FOURS = {rank: mask_of(card(rank, s) for s in SUITS) for rank in (REY, CABALLO)}
"""The four reyes and the four caballos a tute needs."""


def close_window(deal: Deal) -> None:
    """At the next lead, apply what silence after a won trick costs.

    Silence is a window with no cante (``window_cantes`` counts cantes only:
    an exchange is not one), judged now, on the hands after any exchange;
    a cante lost is one the side could sing at this moment.  These are the
    decisions ``silence_judged_at_the_lead`` and ``exchange_is_not_a_cante``
    of :data:`tutepgn.sources.DECISIONS` (docs/rules.md, section 6).
    """
    side = deal.window_side
    r = deal.rules
    if side is None or deal.window_cantes or not r.silence_costs:
        deal.window_side = None
        return
    if r.cante_only_if_sung_at_first_win and deal.wins[side] == 1:
        deal.barred_sides.add(side)
    if r.forfeit_unsung_cantes:
        lost = []
        unsung = CABALLOS
        for sung in deal.sung_suits:
            unsung &= ~CABALLO_BITS[sung]
        for seat in r.seating[1][side]:
            hand = deal.hands[seat]
            held = hand & (hand >> 1) & unsung  # caballos whose rey is held too
            while held:
                low = held & -held
                suit = CARD_SUIT[low.bit_length() - 1]
                if cante_refusal(deal, seat, suit) is None:  # the window is still open here
                    lost.append(suit)
                held ^= low
        if lost:
            deal.lost_cantes.update((side, suit) for suit in lost)
    deal.window_side = None


def _window_refusal(deal: Deal, seat: int) -> str | None:
    """Declarations come after a trick won by the declarer's side, before the next lead."""
    if deal.over:
        return "deal_over"
    if deal.trick:
        return "declare_between_tricks"
    if not deal.tricks:
        return "declare_after_won_trick"
    if deal.window_side != deal.rules.seating[0][seat]:
        return "declare_by_trick_winner"
    return None


def _draw_refusal(deal: Deal, seat: int, cards: Mask) -> str | None:
    """The 2-player rules that tie cantes and tute to the draws from the stock."""
    r = deal.rules
    if r.declare_only_after_draw and not deal.window_after_draw:
        return "declare_only_after_draw"
    if r.no_declare_with_last_drawn and seat in deal.last_draw and cards >> deal.last_draw[seat] & 1:
        return "no_declare_with_last_drawn"
    return None


def cante_refusal(deal: Deal, seat: int, s: Suit) -> str | None:
    """The first rule that forbids ``seat`` to sing suit ``s`` now, or None."""
    r = deal.rules
    side = r.seating[0][seat]
    return (_window_refusal(deal, seat)
            or ("cante_not_held" if deal.hands[seat] & CANTE_PAIRS[s] != CANTE_PAIRS[s] else None)
            or ("cante_suit_sung" if s in deal.sung_suits else None)
            or ("cante_only_if_sung_at_first_win" if side in deal.barred_sides else None)
            or ("forfeit_unsung_cantes" if (side, s) in deal.lost_cantes else None)
            or ("cantes_per_trick" if deal.window_cantes >= r.cantes_per_trick else None)
            or _draw_refusal(deal, seat, CANTE_PAIRS[s])
            or ("forty_first" if r.forty_first and s != deal.trump
                and cante_refusal(deal, seat, deal.trump) is None else None))


def tute_refusal(deal: Deal, seat: int, rank: int) -> str | None:
    """The first rule that forbids ``seat`` to announce a tute of ``rank`` now, or None."""
    r = deal.rules
    four = FOURS.get(rank)
    if four is None:
        return "tute_rank"
    first_lead = not deal.tricks and not deal.trick and not deal.over
    if first_lead and r.tute_at_first_lead:
        window = "tute_by_leader" if seat != deal.turn else None
    else:
        window = _window_refusal(deal, seat)
    side = r.seating[0][seat]
    return (window
            or ("tute_not_held" if deal.hands[seat] & four != four else None)
            or ("tute_blocked_by_earlier_cante" if r.tute_blocked_by_earlier_cante
                and any(c.side == side for c in deal.cantes) else None)
            or (None if first_lead else _draw_refusal(deal, seat, four)))


def exchange_refusal(deal: Deal, seat: int, c: Card) -> str | None:
    """The first rule that forbids ``seat`` to give card ``c`` for the turned card now, or None."""
    r = deal.rules
    rank = CARD_RANK[c]
    if rank == 7 and r.exchange_seven:
        allowed_for = r.exchange_seven_for
    elif rank == 2 and r.exchange_two:
        allowed_for = r.exchange_two_for
    else:
        allowed_for = None
    return ("deal_over" if deal.over else None
            or ("exchange_card" if allowed_for is None or CARD_SUIT[c] != deal.trump else None)
            or ("exchange_needs_stock" if deal.stock_pos >= len(deal.stock) else None)
            or ("exchange_on_lead" if deal.trick or seat != deal.turn else None)
            or ("exchange_at_first_lead" if not deal.tricks and not r.exchange_at_first_lead else None)
            or ("exchange_not_held" if not deal.hands[seat] >> c & 1 else None)
            or ("exchange_turned_rank" if CARD_RANK[deal.turned] not in (allowed_for or ()) else None))

