"""The count of a deal: tricks, card points, cantes, the last ten, the winner and the match points.

:func:`count` reads a :class:`~tutepgn.engine.Deal` as it stands and returns
its :class:`ScoreSheet`; :meth:`Deal.score <tutepgn.engine.Deal.score>` is
the way to call it.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable, Sequence
from itertools import product
from typing import TYPE_CHECKING, NamedTuple

from .cards import Card, Suit

if TYPE_CHECKING:
    from .engine import Deal
    from .events import Tute
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


def tute_wins_match(r: Ruleset, target: int) -> bool:
    """Whether a tute wins the match outright under these rules and this target (else it scores the rules'
    ``tute_match_points``): what a deal's sheet says (``wins_match``) and a stored match is told by."""
    return r.tute_effect == "win_match" or (
        r.tute_wins_match_below_target is not None and target < r.tute_wins_match_below_target)


def count(deal: Deal, match_target: int | None = None) -> ScoreSheet:
    """The count so far, and at the end, the winner and the match points.

    ``match_target`` decides the tute effect that depends on it (Ludoteka);
    it defaults to the ruleset's.
    """
    r = deal.rules
    k = r.sides
    target = r.match_target if match_target is None else match_target
    cards = list(deal.won_points)
    tute = deal.tute_event
    complete = deal.turn < 0 and tute is None
    last_side = r.side_of(deal.tricks[-1].winner) if complete else None
    totals = list(cards)
    if last_side is not None:
        totals[last_side] += r.last_trick_bonus
    for c in deal.cantes:
        totals[c.side] += c.points
    winner: int | None = None
    tie_break = False
    doubled = False
    wins_match = False
    points = [0] * k
    if tute is not None:
        winner = r.side_of(tute.seat)
        if tute_wins_match(r, target):
            wins_match = True
        else:
            points[winner] = r.tute_match_points
    elif complete:
        cards_and_last = [c + (r.last_trick_bonus if side == last_side else 0) for side, c in enumerate(cards)]
        winner, tie_break, doubled, won = decide(r, totals, cards_and_last,
                                                 [r.side_of(t.winner) for t in reversed(deal.tricks)])
        points[winner] = won  # type: ignore[index]  # a finished deal's tie is always decided
    return ScoreSheet(
        sides=k, tricks=tuple(deal.tricks), card_points=tuple(cards), last_trick_side=last_side,
        last_trick_bonus=r.last_trick_bonus if last_side is not None else 0, cantes=tuple(deal.cantes),
        totals=tuple(totals), winner=winner, tie_break=tie_break, match_points=tuple(points),
        doubled=doubled, tute=tute, wins_match=wins_match, complete=complete,
    )


def decide(rules: Ruleset, totals: Sequence[int], cards_and_last: Sequence[int],
           recent_winners: Iterable[int]) -> tuple[int | None, bool, bool, int]:
    """The result of a deal by its totals: ``(winning side, decided by the tie rule, doubled, match points won)``.

    ``cards_and_last`` are each side's card points plus the last ten (the
    basis of the double when the rules exclude cantes); a tie goes to the
    tied side that won the most recent trick, from ``recent_winners`` (sides,
    latest first).  The winner is None when a tie is not decided by them (a
    projection that does not know who takes the last trick).
    """
    best = max(totals)
    tied = [s for s in range(len(totals)) if totals[s] == best]
    tie_break = len(tied) > 1
    winner = tied[0] if not tie_break else next((s for s in recent_winners if s in tied), None)
    if winner is None:
        return None, True, False, 0
    basis = totals[winner] if rules.double_basis == "total" else cards_and_last[winner]
    doubled = rules.double_threshold is not None and basis > rules.double_threshold
    return winner, tie_break, doubled, rules.double_points if doubled else rules.deal_points


# ---------------------------------------------------------------------------
# A deal known only by its score and result (a results-only record).


@dataclass(frozen=True, slots=True, order=True)
class Outcome:
    """A deal's result as a Result tag says it: the winning side and its match points, or the match won by a
    tute (``wins_match``; then ``points`` is 0)."""
    side: int
    points: int
    wins_match: bool = False


def pack_points(rules: Ruleset) -> int:
    """The card points of the whole pack the ruleset deals (120 in the 40-card pack)."""
    from .cards import CARD_POINTS, cards_in, pack
    return sum(CARD_POINTS[c] for c in cards_in(pack(rules.removed_ranks)))


def cante_totals(rules: Ruleset) -> int:
    """The most points a deal's cantes can add up to: las cuarenta in trump and a 20 in each other suit."""
    return rules.cuarenta_points + 3 * rules.cante_points


def _cante_splits(rules: Ruleset) -> set[tuple[int, ...]]:
    """Every way the cantes of one deal can fall to the sides, as points per side: at most one cuarenta and three
    20s, each suit sung once at most."""
    k = rules.sides
    out = set()
    for forty in range(-1, k):  # the side that sang las cuarenta, or -1: nobody
        for twenties in product(range(-1, k), repeat=3):  # each other suit: the side that sang it, or -1
            split = [0] * k
            if forty >= 0:
                split[forty] += rules.cuarenta_points
            for side in twenties:
                if side >= 0:
                    split[side] += rules.cante_points
            out.add(tuple(split))
    return out


def possible_outcomes(rules: Ruleset, totals: Sequence[int] | None,
                      match_target: int | None = None) -> frozenset[Outcome]:
    """Every result a deal can have under ``rules`` whose claimed totals are ``totals`` (None: not known).

    A finished deal: each side's total is its card points, the last ten if it
    took the last trick and its cantes; the pack's points and the last ten are
    shared out whole, the cantes are at most one cuarenta and a 20 per other
    suit.  Each way of splitting the totals so is decided by :func:`decide`
    (a tie goes to the side of the last trick, or of an earlier one).  A deal
    ended by a tute scores the tute's match points (or wins the match,
    :func:`tute_wins_match`), whatever the totals so far, which can hold no
    last ten.  Empty when no deal under the rules ends with these totals.
    """
    k = rules.sides
    target = rules.match_target if match_target is None else match_target
    tute = [Outcome(side, 0, True) if tute_wins_match(rules, target) else Outcome(side, rules.tute_match_points)
            for side in range(k)]
    if totals is None:
        single = {rules.deal_points} | ({rules.double_points} if rules.double_threshold is not None else set())
        return frozenset([Outcome(side, p) for side in range(k) for p in single] + tute)
    if len(totals) != k or min(totals) < 0:
        return frozenset()
    cards = pack_points(rules)
    out: set[Outcome] = set()
    if sum(totals) <= cards + cante_totals(rules):
        out.update(tute)
    bonus = rules.last_trick_bonus
    for split in _cante_splits(rules):
        base = [t - c for t, c in zip(totals, split)]
        if min(base) < 0 or sum(base) != cards + bonus:
            continue
        for last in range(k):
            if base[last] < bonus:
                continue
            for earlier in range(k):  # the side of the trick before, for a tie the last trick does not settle
                winner, _tie, _doubled, won = decide(rules, totals, base, (last, earlier))
                if winner is not None:
                    out.add(Outcome(winner, won))
    return frozenset(out)
