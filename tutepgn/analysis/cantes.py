"""The cante choices of the double-dummy search, written once for Python (the C core has the same in ``ccore.c``).

After a trick won by a side (but the last one), the engine opens a declaration
window for that side (:func:`tutepgn.declarations.cante_refusal`): its seats may
sing the pairs they hold, up to ``cantes_per_trick``, no 20 from a seat that
could sing the 40 (``forty_first``, per seat), no suit sung or lost, no card
received in the draw that emptied the stock (``no_declare_with_last_drawn``),
nothing from a barred side nor, under ``declare_only_after_draw``, after a
trick not followed by a draw.

**Singing more never costs the singer**, so the search only chooses among the
*maximal* legal sets (no further cante could be added to them):  take any
line of play after a window where the side sang a set ``S`` and the same line
after a superset ``L``.  The plays are the same (a cante moves no card); every
later cante of the ``S`` line is legal in the ``L`` line unless its suit is
already sung there, in which case ``L`` already scored those points; where the
``S`` line sings only such suits in a later window, the ``L`` line, which would
be silent there, sings instead any pair it could sing then (there is one if
silence would lose anything: ``forfeit_unsung_cantes`` loses only what could be
sung, and ``cante_only_if_sung_at_first_win`` judges only the first win, which
is behind).  A 20 refused by ``forty_first`` in one line is refused in the
other unless the 40 is sung there, which lifts the refusal.  So ``L``'s points
are at least ``S``'s, whatever the others play.  Silence is therefore never
chosen while a pair can be sung, and a set smaller than ``cantes_per_trick``
allows is never chosen either; what remains is *which* pairs when more are
singable than the limit lets be sung (with one cante a trick and two pairs,
the order matters: the other pair may be played away before the side wins again).

**The other sides' choices cannot change the valued side's points**: their
cantes score for them, a suit they sing is one the valued side cannot hold
(its rey and caballo are in their hand), and their silence bars or forfeits
only their own cantes.  So the search gives them a fixed policy, the first set
of :func:`cante_sets`: the 40 first, then the 20s in suit order (always legal).
"""

from __future__ import annotations

from ..cards import SUITS, Mask
from ..declarations import CANTE_PAIRS

SETS_BY_SIZE: tuple[tuple[int, ...], ...] = tuple(tuple(m for m in range(1, 16) if m.bit_count() == k)
                                                  for k in range(5))
"""The masks of ``k`` suits, in increasing order, for each ``k`` (the order both searches try sets in)."""


def singable(hands: tuple[Mask, ...] | list[Mask], seats: tuple[int, ...], blocked: Mask, trump: int, closed: int
             ) -> tuple[int, int]:
    """``(suits, forty_seat_suits)``: the suits a side's ``seats`` may sing now (bits by suit) and, when the 40
    is among them, every singable suit of the seat that holds it (its 20s wait for its 40 under ``forty_first``).

    A suit is singable when a seat holds its rey and caballo, neither ``blocked`` (the cards received in the
    draw that emptied the stock, when the rules say so), and the suit is not ``closed`` (sung or lost).
    """
    suits = forty = 0
    for s in SUITS:
        if closed >> s & 1:
            continue
        pair = CANTE_PAIRS[s]
        if blocked & pair:
            continue
        for seat in seats:
            if hands[seat] & pair == pair:
                suits |= 1 << s
                break
    if suits >> trump & 1:
        pair = CANTE_PAIRS[trump]
        holder = next(seat for seat in seats if hands[seat] & pair == pair)
        forty = sum(1 << s for s in SUITS if suits >> s & 1 and hands[holder] & CANTE_PAIRS[s] == CANTE_PAIRS[s])
    return suits, forty


def cante_sets(suits: int, forty: int, trump: int, limit: int, forty_first: bool) -> list[int]:
    """The maximal legal sets of cantes of a window (suit masks): ``min(limit, singable)`` suits each, those with
    the 40 first, then in increasing mask order (so the first is the fixed policy: the 40, then the 20s in suit
    order); under ``forty_first`` a set without the 40 holds no suit of the 40's holder."""
    k = min(limit, suits.bit_count())
    out = [m for m in SETS_BY_SIZE[k] if not m & ~suits and m >> trump & 1]
    out += [m for m in SETS_BY_SIZE[k] if not m & ~suits and not m >> trump & 1 and not (forty_first and m & forty)]
    return out


def set_points(suits: int, trump: int, cante_points: int, cuarenta_points: int) -> int:
    """The points of the cantes of ``suits``."""
    return sum(cuarenta_points if s == trump else cante_points for s in SUITS if suits >> s & 1)
