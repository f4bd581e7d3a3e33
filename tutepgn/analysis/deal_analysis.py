"""Double-dummy analysis of a played deal: the value of every legal card, the cost of each play, par.

:func:`analyse` replays a deal's log and, at every card played once the stock
is empty (from the first lead with 3 or 4 players), asks the solver
(:mod:`tutepgn.analysis`) for the value of each legal card from the mover's
side.  Cards played while the stock had cards are not valued double dummy
(nobody sees the stock's order); with PIMC, those played with at most
:data:`STOCK_HORIZON` cards in the stock get their PIMC values.  The **cost** of a play is the best card's value less the played card's:
the points the mover's side gave away under double dummy.  **Par** is each
side's value at the first position analysed; with two sides and no cantes,
``par - the side's costs + the other side's costs = the side's actual points``
(:meth:`DealAnalysis.identity_holds`).

>>> from tutepgn import preset
>>> from tutepgn.recording.simulate import simulate_deals
>>> deal = next(d for d in simulate_deals(preset("playcard-2p"), 5, seed=2) if d.tute_event is None)
>>> analysis = analyse(deal)
>>> analysis.identity_holds()
True
>>> all(p.cost >= 0 and (p.cost == 0) == (p.card in p.best) for p in analysis.plays)
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..cards import Card, card_code
from ..engine import Deal
from ..events import Play
from ..score import decide
from .pimc import PimcValue, pimc_values
from .position import Position
from .solve import Backend, CardValue, Solver
from .version import ANALYSIS_VERSION

if TYPE_CHECKING:  # pydantic loads when a JSON form is asked for, not for the analysis itself
    from .model import AnalysisModel, PimcValueModel, PlayAnalysisModel, ProjectionModel

STOCK_HORIZON = 4
"""PIMC values plays made with at most this many cards in the stock (2 players): each card in the stock
adds a draw to every world's search.  With 20 worlds in the C core a decision takes a median of about
0.2 s at 4 cards and 2 s at 6 (docs/performance.md)."""
NOT_SEEN = "the stock's order is hidden: double dummy does not apply (PIMC values such plays)"
"""Why a play made while the stock had cards has no double-dummy value."""
CANTES_WITH_STOCK = "cantes are not searched while the stock has cards"
"""Why such a play has no PIMC value with cantes counted."""

MARKS: tuple[tuple[int, str], ...] = ((20, "??"), (10, "?"), (3, "?!"))
"""Cost thresholds in points and their marks, as chess annotators mark moves: blunder, mistake, inaccuracy."""


def mark(cost: int) -> str | None:
    """The mark a play of this cost earns (None below the smallest threshold).

    >>> [mark(c) for c in (0, 3, 9, 10, 25)]
    [None, '?!', '?!', '?', '??']
    """
    return next((text for threshold, text in MARKS if cost >= threshold), None)


@dataclass(frozen=True, slots=True)
class Projection:
    """The deal's result if the rest were played double dummy: each side's total and what it decides.

    Totals are the points so far (cards, the last ten, the cantes already
    sung) plus the double-dummy value; the result is decided by the score
    module's own rule (:func:`tutepgn.score.decide`).  A projected tie whose
    tie-break (the last trick) the values do not tell leaves ``winner`` None.
    """
    totals: tuple[int, ...]
    winner: int | None
    tie: bool
    doubled: bool

    @property
    def result(self) -> tuple[int | None, bool]:
        """What a play can change: the winning side and whether it doubles."""
        return self.winner, self.doubled

    def model(self) -> ProjectionModel:
        """The projection in the analysis's JSON form."""
        from .model import ProjectionModel

        return ProjectionModel(totals=list(self.totals), winner=self.winner, tie=self.tie, doubled=self.doubled)


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
    projected: int
    """The points the mover's side ends the deal with under best play from here: its points so far (cantes
    only when counted) plus ``value_before`` (what the replay page's evaluation graph draws)."""
    before: Projection | None = None
    """The result projected with best play from here (None with cantes or three sides: see :func:`project`)."""
    after: Projection | None = None
    """The result projected after the card played."""
    pimc: tuple[PimcValue, ...] | None = None
    """With ``pimc=N``: each legal card's mean value over N worlds the mover could not tell apart."""

    @property
    def pimc_cost(self) -> float | None:
        """The best mean less the played card's mean: what the play cost as the mover could know it."""
        return pimc_cost(self.pimc, self.card)

    @property
    def mark(self) -> str | None:
        """The play's mark by :data:`MARKS`."""
        return mark(self.cost)

    @property
    def changed_result(self) -> bool | None:
        """Whether the card played changed the projected result (winner or double); None when not projected."""
        if self.before is None or self.after is None:
            return None
        return self.before.result != self.after.result

    def model(self) -> PlayAnalysisModel:
        """The valued play in the analysis's JSON form (cards as codes)."""
        from .model import CardGroupValue, PlayAnalysisModel

        return PlayAnalysisModel(
            index=self.index, trick=self.trick, seat=self.seat, card=card_code(self.card), double_dummy=True,
            value=self.value_before,
            values=[CardGroupValue(cards=[card_code(c) for c in v.cards], value=v.value) for v in self.values],
            best=[card_code(c) for c in self.best], cost=self.cost, projected=self.projected, mark=self.mark,
            changed_result=self.changed_result, before=None if self.before is None else self.before.model(),
            after=None if self.after is None else self.after.model(), pimc=_pimc_models(self.pimc),
            pimc_cost=_rounded(self.pimc_cost))


def pimc_cost(values: tuple[PimcValue, ...] | None, card: Card) -> float | None:
    """The best PIMC mean less ``card``'s (None without PIMC values)."""
    if values is None:
        return None
    return max(v.mean for v in values) - next(v.mean for v in values if v.card == card)


@dataclass(frozen=True, slots=True)
class HiddenPlay:
    """A card played while the stock still had cards (2 players): double dummy does not value it, PIMC may."""
    index: int
    trick: int
    seat: int
    card: Card
    reason: str | None = NOT_SEEN
    """Why it has no PIMC values either (None when it has them)."""
    pimc: tuple[PimcValue, ...] | None = None
    """With ``pimc=N`` and at most ``stock_horizon`` cards in the stock: each legal card's mean value over N
    worlds (hands and the stock's order) the mover could not tell apart."""

    @property
    def pimc_cost(self) -> float | None:
        """The best mean less the played card's mean."""
        return pimc_cost(self.pimc, self.card)

    def model(self) -> PlayAnalysisModel:
        """The play in the analysis's JSON form: not valued double dummy (null values), PIMC's values if any."""
        from .model import PlayAnalysisModel

        return PlayAnalysisModel(
            index=self.index, trick=self.trick, seat=self.seat, card=card_code(self.card), double_dummy=False,
            value=None, values=None, best=None, cost=None, projected=None, mark=None, changed_result=None,
            before=None, after=None, pimc=_pimc_models(self.pimc), pimc_cost=_rounded(self.pimc_cost))


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
    hidden: tuple[HiddenPlay, ...] = ()
    """The plays made while the stock had cards, not valued double dummy (the stock's order is hidden); the
    late ones with PIMC values when asked (``stock_horizon``)."""
    trick_values: tuple[tuple[int, ...], ...] = ()
    """Per side, the projected total (points so far plus the value) at the first position analysed, then
    after each trick: the evaluation graph; the last entry is the actual totals."""
    complete: bool = True
    """Whether the deal was played to its last trick: not when a tute ended it or the record stops early
    (``actual`` then counts the tricks played, and does not compare with ``par``)."""
    seats: tuple[str, ...] = ()
    """The seats' names (N, W, S, E...), by seat number."""
    sides: tuple[str, ...] = ()
    """The sides' labels, by side number."""

    @property
    def turning_points(self) -> tuple[PlayAnalysis, ...]:
        """The plays that changed the projected result (the winner or the double)."""
        return tuple(p for p in self.plays if p.changed_result)

    @property
    def marked(self) -> tuple[PlayAnalysis, ...]:
        """The plays that earned a mark."""
        return tuple(p for p in self.plays if p.mark)

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

    def model(self) -> AnalysisModel:
        """The analysis in its JSON form, the one every answer carries (the CLI, the archive, the service).

        ``plays`` lists every card of the deal in log order; a play the solver
        did not value (``double_dummy`` false) has null values.
        """
        from .model import AnalysisModel

        plays = sorted([p.model() for p in self.plays] + [h.model() for h in self.hidden], key=lambda p: p.index)
        return AnalysisModel(
            version=ANALYSIS_VERSION, cantes=self.cantes, complete=self.complete, seats=list(self.seats),
            sides=list(self.sides), par=list(self.par), actual=list(self.actual),
            actual_minus_par=list(self.actual_minus_par), seat_sides=list(self.seat_sides), costs=list(self.costs),
            side_costs=[self.side_costs(k) for k in range(len(self.par))],
            trick_values=[list(v) for v in self.trick_values],
            turning_points=[p.index for p in self.turning_points], plays=plays)

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON data: :meth:`model` dumped, with the stable keys docs/analysis.md lists (cards as
        codes, seats as numbers)."""
        return self.model().model_dump(mode="json")


def analyse(deal: Deal, *, cantes: bool = False, backend: Backend | None = None, pimc: int = 0,
            seed: int = 0, stock_horizon: int = STOCK_HORIZON) -> DealAnalysis:
    """Analyse every card of a legally played deal that was played with the stock empty.

    The deal is replayed from its start (:meth:`Deal.restart`) through its log;
    one solver per side keeps its table for the whole deal.  Cards played
    while the stock had cards are listed in :attr:`DealAnalysis.hidden`.
    ``pimc`` > 0 also values each play over that many worlds (:mod:`tutepgn.analysis.pimc`),
    seeded by ``seed`` and the play's index, so the same seed gives the same values;
    that includes the hidden plays made with at most ``stock_horizon`` cards in
    the stock (without cantes: the search does not sing while the stock lasts).
    """
    replayed = deal.restart()
    rules = deal.rules
    seat_sides = tuple(rules.side_of(s) for s in range(rules.players))
    representative = [seat_sides.index(side) for side in range(rules.sides)]
    solvers = [Solver(backend) for _ in range(rules.sides)]
    pimc_solver = Solver(backend)
    plays: list[PlayAnalysis] = []
    hidden: list[HiddenPlay] = []
    graph: list[tuple[int, ...]] = []
    par: tuple[int, ...] | None = None
    start_totals: tuple[int, ...] = ()
    for index, action in enumerate(deal.log):
        if type(action) is Play and not replayed.over:
            if replayed.stock_left:
                hidden.append(_hidden_play(replayed, index, action, pimc, f"{seed}:{index}", cantes, stock_horizon,
                                           pimc_solver))
            else:
                if not replayed.trick:
                    values = tuple(solvers[side].value(Position.from_deal(replayed, representative[side],
                                                                       cantes=cantes))
                                   for side in range(rules.sides))
                    so_far = _points(replayed, cantes)
                    if par is None:
                        start_totals, par = so_far, values
                    graph.append(tuple(f + v for f, v in zip(so_far, values)))
                play = _analyse_play(replayed, index, action, solvers, cantes)
                if pimc:
                    play = replace(play, pimc=tuple(pimc_values(replayed, pimc, f"{seed}:{index}", cantes=cantes,
                                                                solver=pimc_solver)))
                plays.append(play)
        replayed.apply(action)
    end_totals = _points(replayed, cantes)
    if graph:
        graph.append(end_totals)
    costs = [0] * rules.players
    for p in plays:
        costs[p.seat] += p.cost
    return DealAnalysis(cantes=cantes, plays=tuple(plays), par=par or (0,) * rules.sides,
                        actual=tuple(e - s for e, s in zip(end_totals, start_totals or (0,) * rules.sides)),
                        costs=tuple(costs), seat_sides=seat_sides, hidden=tuple(hidden), trick_values=tuple(graph),
                        complete=replayed.score().complete, seats=rules.seat_names, sides=rules.side_labels)


def _hidden_play(deal: Deal, index: int, play: Play, worlds: int, seed: str, cantes: bool, horizon: int,
                 solver: Solver) -> HiddenPlay:
    """A play made while the stock had cards: its PIMC values when asked and affordable, else why not."""
    trick = len(deal.tricks) + 1
    if not worlds:
        return HiddenPlay(index, trick, play.seat, play.card)
    if cantes:
        return HiddenPlay(index, trick, play.seat, play.card, CANTES_WITH_STOCK)
    if deal.stock_left > horizon:
        return HiddenPlay(index, trick, play.seat, play.card,
                          f"more than {horizon} cards in the stock (the stock horizon)")
    return HiddenPlay(index, trick, play.seat, play.card, None, tuple(pimc_values(deal, worlds, seed, solver=solver)))


def project(deal: Deal, side: int, value: int, remaining: int, cantes: bool) -> Projection | None:
    """The result if ``side`` makes ``value`` of the ``remaining`` points and the other side the rest.

    With cantes in the values, or three sides, one side's value does not tell
    the others' points on the same line of play, so there is no projection.
    """
    r = deal.rules
    if cantes or r.sides != 2:
        return None
    sheet = deal.score()
    cards = list(deal.won_points)
    gained = [0, 0]
    gained[side], gained[1 - side] = value, remaining - value
    totals = tuple(sheet.totals[k] + gained[k] for k in (0, 1))
    cards_and_last = [cards[k] + gained[k] for k in (0, 1)]
    winner, tie, doubled, _ = decide(r, totals, cards_and_last, ())
    return Projection(totals, winner, tie, doubled)


def _points(deal: Deal, cantes: bool) -> tuple[int, ...]:
    """Each side's points so far: cards and the last ten, and the cantes declared when they count."""
    sheet = deal.score()
    return tuple(t - (0 if cantes else sheet.cante_points(side)) for side, t in enumerate(sheet.totals))


def _analyse_play(deal: Deal, index: int, play: Play, solvers: list[Solver], cantes: bool) -> PlayAnalysis:
    position = Position.from_deal(deal, play.seat, cantes=cantes)
    values = tuple(solvers[position.side].values_of_legal_cards(position))
    best_value = max(v.value for v in values)
    played = next(v.value for v in values if play.card in v.cards)
    side = position.side
    return PlayAnalysis(index=index, trick=len(deal.tricks) + 1, seat=play.seat, card=play.card,
                        value_before=best_value, values=values,
                        best=tuple(c for v in values if v.value == best_value for c in v.cards),
                        cost=best_value - played, projected=_points(deal, cantes)[side] + best_value,
                        before=project(deal, side, best_value, position.bound(), cantes),
                        after=project(deal, side, played, position.bound(), cantes))


def _rounded(cost: float | None) -> float | None:
    """A PIMC cost as JSON writes it: to the hundredth."""
    return None if cost is None else round(cost, 2)


def _pimc_models(values: tuple[PimcValue, ...] | None) -> list[PimcValueModel] | None:
    from .model import PimcValueModel

    return None if values is None else [PimcValueModel(card=card_code(v.card), mean=round(v.mean, 2),
                                                       stderr=round(v.stderr, 2)) for v in values]
