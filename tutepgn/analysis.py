"""Double-dummy analysis of a played deal: the value of every legal card, the cost of each play, par.

:func:`analyse` replays a deal's log and, at every card played once the stock
is empty (from the first lead with 3 or 4 players), asks the solver
(:mod:`tutepgn.solver`) for the value of each legal card from the mover's
side.  The **cost** of a play is the best card's value less the played card's:
the points the mover's side gave away under double dummy.  **Par** is each
side's value at the first position analysed; with two sides and no cantes,
``par - the side's costs + the other side's costs = the side's actual points``
(:meth:`DealAnalysis.identity_holds`).

>>> from tutepgn import preset
>>> from tutepgn.simulate import simulate_deals
>>> deal = next(d for d in simulate_deals(preset("playcard-2p"), 5, seed=2) if d.tute_event is None)
>>> analysis = analyse(deal)
>>> analysis.identity_holds()
True
>>> all(p.cost >= 0 and (p.cost == 0) == (p.card in p.best) for p in analysis.plays)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .engine import Deal
from .events import Play
from .solver import Backend, CardValue, Position, Solver

MARKS: tuple[tuple[int, str], ...] = ((20, "??"), (10, "?"), (3, "?!"))
"""Cost thresholds in points and their marks, as chess annotators mark moves: blunder, mistake, inaccuracy."""


def mark(cost: int) -> str | None:
    """The mark a play of this cost earns (None below the smallest threshold).

    >>> [mark(c) for c in (0, 3, 9, 10, 25)]
    [None, '?!', '?!', '?', '??']
    """
    return next((text for threshold, text in MARKS if cost >= threshold), None)


@dataclass(frozen=True, slots=True)
class PlayAnalysis:
    """One card played, valued from the mover's side under double dummy."""
    index: int
    """The play's index in the deal's log."""
    trick: int
    """The trick it belongs to, from 1."""
    seat: int
    card: Card
    value_before: int
    """The points the mover's side makes from here under best play by all."""
    values: tuple[CardValue, ...]
    """Each group of equivalent legal cards and its value."""
    best: tuple[Card, ...]
    """Every legal card of the best value."""
    cost: int
    """``value_before`` less the played card's value: the points the play gave away."""

    @property
    def mark(self) -> str | None:
        """The play's mark by :data:`MARKS`."""
        return mark(self.cost)


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """A deal's plays analysed, par and what each side and seat made of it."""
    cantes: bool
    """Whether values count cantes (each side singing the most its rules allow)."""
    plays: tuple[PlayAnalysis, ...]
    par: tuple[int, ...]
    """Per side, its value at the first position analysed."""
    actual: tuple[int, ...]
    """Per side, the points it made from that position to the end (cantes only when ``cantes``)."""
    costs: tuple[int, ...]
    """Per seat, the summed cost of its plays (0 is perfect play)."""
    seat_sides: tuple[int, ...]
    """Per seat, its side."""

    @property
    def actual_minus_par(self) -> tuple[int, ...]:
        """Per side, what it made less its par."""
        return tuple(a - p for a, p in zip(self.actual, self.par))

    def side_costs(self, side: int) -> int:
        """The summed cost of a side's seats."""
        return sum(c for seat, c in enumerate(self.costs) if self.seat_sides[seat] == side)

    def identity_holds(self) -> bool:
        """With two sides and no cantes: par - own costs + the other side's costs == actual, for each side."""
        if len(self.par) != 2 or self.cantes:
            raise ValueError("the identity is for two sides without cantes (points are then shared by the sides)")
        return all(self.par[s] - self.side_costs(s) + self.side_costs(1 - s) == self.actual[s] for s in (0, 1))


def analyse(deal: Deal, *, cantes: bool = False, backend: Backend | None = None) -> DealAnalysis:
    """Analyse every card of a legally played deal that was played with the stock empty.

    The deal is replayed from its start (:meth:`Deal.restart`) through its log;
    one solver per side keeps its table for the whole deal.
    """
    replayed = deal.restart()
    rules = deal.rules
    seat_sides = tuple(rules.side_of(s) for s in range(rules.players))
    representative = [seat_sides.index(side) for side in range(rules.sides)]
    solvers = [Solver(backend) for _ in range(rules.sides)]
    plays: list[PlayAnalysis] = []
    par: tuple[int, ...] | None = None
    start_totals: tuple[int, ...] = ()
    for index, action in enumerate(deal.log):
        if type(action) is Play and not replayed.stock_left and not replayed.over:
            if par is None:
                start_totals = _points(replayed, cantes)
                par = tuple(solvers[side].value(Position.from_deal(replayed, representative[side], cantes=cantes))
                            for side in range(rules.sides))
            plays.append(_analyse_play(replayed, index, action, solvers, cantes))
        replayed.apply(action)
    end_totals = _points(replayed, cantes)
    costs = [0] * rules.players
    for p in plays:
        costs[p.seat] += p.cost
    return DealAnalysis(cantes=cantes, plays=tuple(plays), par=par or (0,) * rules.sides,
                        actual=tuple(e - s for e, s in zip(end_totals, start_totals or (0,) * rules.sides)),
                        costs=tuple(costs), seat_sides=seat_sides)


def _points(deal: Deal, cantes: bool) -> tuple[int, ...]:
    """Each side's points so far: cards and the last ten, and the cantes declared when they count."""
    sheet = deal.score()
    return tuple(t - (0 if cantes else sheet.cante_points(side)) for side, t in enumerate(sheet.totals))


def _analyse_play(deal: Deal, index: int, play: Play, solvers: list[Solver], cantes: bool) -> PlayAnalysis:
    position = Position.from_deal(deal, play.seat, cantes=cantes)
    values = tuple(solvers[position.side].values_of_legal_cards(position))
    best_value = max(v.value for v in values)
    played = next(v.value for v in values if play.card in v.cards)
    return PlayAnalysis(index=index, trick=len(deal.tricks) + 1, seat=play.seat, card=play.card,
                        value_before=best_value, values=values,
                        best=tuple(c for v in values if v.value == best_value for c in v.cards),
                        cost=best_value - played)
