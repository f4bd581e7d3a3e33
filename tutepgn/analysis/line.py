"""The best line (principal variation): the rest of a deal under best play by all, every hand visible.

:func:`best_line` plays a copy of the deal through the engine, so the line is
legal by construction: at each play the card of the best value for the mover
(the solver's :meth:`~tutepgn.analysis.solve.Solver.values_of_legal_cards`,
the side valued maximising, the others minimising); at each declaration window
of the side valued (with cantes), the set of cantes the search found best;
at the other sides' windows, the search's fixed policy (the 40 first, then the
20s in suit order), which cannot change the side valued's points
(:mod:`tutepgn.analysis.cantes`).  With a stock (2 players) the line draws in
the order the deal holds: fine for double dummy, where every card is seen.

The line makes no tute and no exchange (the search makes neither), so it ends
when the last card is played; a deal already over has an empty line.  Its
``value`` is what the side valued makes from now to the end: card points, the
last ten and, with ``cantes``, its cantes; replayed, the line makes exactly that.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from ..engine import Deal
from ..events import Action, Cante, Context, Play
from .position import Position
from .solve import Solver


@dataclass(frozen=True, slots=True)
class BestLine:
    """The actions of the best line (plays, and cantes when counted) and the points the side valued makes."""

    actions: tuple[Action, ...]
    value: int

    def texts(self, ctx: Context) -> list[str]:
        """Each action as the notation writes it (``"1O"``, ``"N:40"``...), in ``ctx``'s seats and card style."""
        return [action.text(ctx) for action in self.actions]


def copy_of(deal: Deal) -> Deal:
    """A copy of ``deal`` at the same moment, built by the engine: its start, then every action of its log."""
    copy = deal.restart()
    for action in deal.log:
        copy.apply(action)
    return copy


def points(deal: Deal, side: int, cantes: bool) -> int:
    """The side's points so far: cards, the last ten (once won) and, with ``cantes``, its cantes."""
    sheet = deal.score()
    return sheet.totals[side] - (0 if cantes else sheet.cante_points(side))


def policy(deal: Deal) -> list[Cante]:
    """The fixed policy's cantes of the open window, applied to ``deal``: the 40 first, then the 20s by suit."""
    sung = []
    while cantes := [a for a in deal.legal_actions() if type(a) is Cante]:
        sung.append(deal.apply(min(cantes, key=lambda a: (a.suit != deal.trump, a.suit))))
    return sung


def cante_choices(deal: Deal) -> list[list[Cante]]:
    """Each maximal set of cantes the open window allows (one legal order each), by the engine's refusals."""
    cantes = [a for a in deal.legal_actions() if type(a) is Cante]
    if not cantes:
        return [[]]
    out: dict[frozenset[int], list[Cante]] = {}
    for a in cantes:
        child = copy_of(deal)
        child.apply(a)
        for rest in cante_choices(child):
            out.setdefault(frozenset({a.suit, *(c.suit for c in rest)}), [a, *rest])
    return list(out.values())


def best_line(deal: Deal, seat: int | None = None, *, cantes: bool = True, solver: Solver | None = None,
              value: int | None = None) -> BestLine:
    """The rest of ``deal`` under best play, valued for ``seat``'s side (default: the player to move).

    ``value``, when the caller knows it, is the position's value for that side (saves its search).  Along the
    line the side's points so far plus its value stay the same (it is best play), so each step knows the value
    of the position it stands at, and the first group of cards (in :meth:`Position.card_groups`' order) that
    reaches it is the one :meth:`~tutepgn.analysis.solve.Solver.values_of_legal_cards` would rank best: one
    null-window search a group tried, not a bisection a group.
    """
    line = copy_of(deal)
    if line.over:
        return BestLine((), 0)
    rules = line.rules
    valued = line.turn if seat is None else rules.seat(seat)
    side = rules.side_of(valued)
    solver = solver or Solver()
    if value is None:
        value = solver.value(Position.from_deal(line, valued, cantes=cantes))
    standing = points(line, side, cantes) + value
    actions: list[Action] = []
    while not line.over:
        if cantes and not line.trick and line.window_side is not None:
            if line.window_side == side:
                actions += best_cantes(line, valued, side, solver)
            else:
                actions += policy(line)
        position = Position.from_deal(line, valued, cantes=cantes)
        ours = rules.side_of(line.turn) == side
        card = first_best(solver, position, standing - points(line, side, cantes), ours)
        actions.append(line.apply(Play(line.turn, card)))
    return BestLine(tuple(actions), value)


def first_best(solver: Solver, position: Position, value: int, ours: bool) -> Card:
    """The first card of the first group of legal cards worth ``value``, the position's value (the side valued
    maximises, the others minimise): every group before it is worth less (more, for the others)."""
    for group in position.card_groups():
        if ours and solver.search(position, value - 1, value, group[0]) >= value:
            return group[0]
        if not ours and solver.search(position, value, value + 1, group[0]) <= value:
            return group[0]
    raise AssertionError(f"no legal card keeps the value {value} of {position!r}")  # best play keeps it


def best_cantes(line: Deal, valued: int, side: int, solver: Solver) -> list[Cante]:
    """The cantes of the side valued's open window worth the most (the search's choice), applied to ``line``."""
    before = points(line, side, True)
    choices = cante_choices(line)
    worths = []
    for choice in choices:
        child = copy_of(line)
        for a in choice:
            child.apply(a)
        worths.append(points(child, side, True) - before + solver.value(Position.from_deal(child, valued, cantes=True)))
    chosen = choices[worths.index(max(worths))]
    for a in chosen:
        line.apply(a)
    return chosen
