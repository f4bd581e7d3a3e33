"""A played deal analysed: every card valued as its mover could know it and double dummy, par, luck and the result.

:func:`analyse` replays a deal's log.  At every card played it values the
mover's legal cards **as the mover could know them** (PIMC over ``pimc``
worlds dealt from what the mover saw, :mod:`tutepgn.analysis.pimc`; a position
where the mover can know every card is **exact**: its one world is the deal)
and, once the stock is empty, **double dummy** (every hand visible).  The
**cost** of a play is the double-dummy value lost; its **pimc_cost** the part
the mover could have seen, and **luck** the rest.  The **mark** follows the
loss of deal-win probability as the mover could know it
(:mod:`tutepgn.analysis.outcome`).  **Par** is each side's value at the first
double-dummy position; with ``given``, what the other sides' plays gave each
side, ``par - own costs + given == actual`` for every side, with or without
cantes (:meth:`DealAnalysis.identity_holds`).

>>> from tutepgn import preset
>>> from tutepgn.recording.simulate import simulate_deals
>>> deal = next(d for d in simulate_deals(preset("playcard-2p"), 5, seed=2) if d.tute_event is None)
>>> analysis = analyse(deal, pimc=0)
>>> analysis.identity_holds()
True
>>> all(p.cost >= 0 and (p.cost == 0) == (p.card in p.best) for p in analysis.plays if p.double_dummy)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import Card, card_code
from ..score import decide
from .outcome import game_accuracy, mark_for_loss, move_accuracy
from .pimc import SEARCH_HORIZON, Method as Method, PimcValue  # Method: how a play was valued, named here too
from .solve import Backend, CardValue
from .version import ANALYSIS_VERSION, DEFAULT_WORLDS as DEFAULT_WORLDS  # the default, exported here too

if TYPE_CHECKING:  # pydantic loads when a JSON form is asked for, not for the analysis itself
    from ..engine import Deal
    from .model import AnalysisModel, PlayAnalysisModel, ProjectionModel

STOCK_HORIZON = SEARCH_HORIZON
"""2-player plays made with at most this many cards in the stock are valued by worlds searched (each card in the
stock adds a draw to every world's search: docs/performance.md); earlier ones by worlds played out (rollouts)."""

@dataclass(frozen=True, slots=True)
class MatchContext:
    """The match a deal belongs to, from its record's tags: the target and the standing before the deal."""
    target: int
    standing: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Projection:
    """Each side's total if the rest were played double dummy, and the result it decides.

    Totals are the points so far (cards, the last ten, the cantes when
    counted) plus each side's double-dummy value; the result is decided by
    the score module's own rule (:func:`tutepgn.score.decide`).  A projected
    tie whose tie-break (the last trick) the values do not tell leaves
    ``winner`` None.
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
    """One card played: its values as the mover could know them and double dummy, its cost, mark and best line."""
    index: int
    """The play's index in the deal's log."""
    trick: int
    """The trick it belongs to, from 1."""
    seat: int
    card: Card
    exact: bool = False
    """Whether the mover could know every card (2 players once the stock is empty, a last trick)."""
    method: Method | None = None
    """How the play was valued as the mover could know it (None: it was not: ``pimc=0``, or too early in the stock)."""
    value_before: int | None = None
    """Double dummy: the points the mover's side makes from here under best play by all (None with a stock)."""
    values: tuple[CardValue, ...] | None = None
    """Each group of equivalent legal cards and its double-dummy value."""
    best: tuple[Card, ...] | None = None
    """Every legal card of the best double-dummy value."""
    cost: int | None = None
    """What the play lost for the mover's side double dummy: ``value_before`` less the card's value, and with
    cantes what the side's cantes declared before the next card lost (a cante not sung)."""
    projected: int | None = None
    """The points the mover's side ends the deal with under best play from here (points so far plus the value)."""
    before: Projection | None = None
    """The result projected with best play from here."""
    after: Projection | None = None
    """The result projected at the next card (or the deal's end)."""
    pimc: tuple[PimcValue, ...] | None = None
    """Each legal card's mean value (and deal-win probability) over the worlds the mover could not tell apart;
    for an exact play, the double-dummy values (one world)."""
    win_before: float | None = None
    """The mover side's probability of winning the deal with the best card, as the mover could know it."""
    win_after: float | None = None
    """The same after the card played."""
    best_line: tuple[str, ...] | None = None
    """The rest of the deal under best play after the best card, as actions in the notation (double dummy; None
    until the solver's principal variation, ``analysis/line.py``, is wired in)."""

    @property
    def double_dummy(self) -> bool:
        """Whether a double-dummy value exists (the stock was empty)."""
        return self.values is not None

    @property
    def pimc_cost(self) -> float | None:
        """The best mean less the played card's mean: what the play cost as the mover could know it."""
        return pimc_cost(self.pimc, self.card)

    @property
    def luck(self) -> float | None:
        """``cost - pimc_cost``: the part of the double-dummy cost the mover could not see (None without both)."""
        cost = self.pimc_cost
        return None if cost is None or self.cost is None else self.cost - cost

    @property
    def loss(self) -> float | None:
        """The deal-win probability the play lost as the mover could know it: the mark's basis."""
        return None if self.win_before is None or self.win_after is None else self.win_before - self.win_after

    @property
    def mark(self) -> str | None:
        """``?!``, ``?`` or ``??`` by the loss (:func:`tutepgn.analysis.outcome.mark_for_loss`)."""
        loss = self.loss
        return None if loss is None else mark_for_loss(loss)

    @property
    def accuracy(self) -> float | None:
        """The move's accuracy in percent (:func:`tutepgn.analysis.outcome.move_accuracy`)."""
        if self.win_before is None or self.win_after is None:
            return None
        return move_accuracy(self.win_before, self.win_after)

    @property
    def changed_result(self) -> bool | None:
        """Whether the card changed the projected result (winner or double); None when not projected."""
        if self.before is None or self.after is None:
            return None
        return self.before.result != self.after.result

    def model(self) -> PlayAnalysisModel:
        """The play in the analysis's JSON form (cards as codes, figures rounded)."""
        from .model import CardGroupValue, PimcValueModel, PlayAnalysisModel

        return PlayAnalysisModel(
            index=self.index, trick=self.trick, seat=self.seat, card=card_code(self.card), exact=self.exact,
            method=self.method, double_dummy=self.double_dummy, value=self.value_before,
            values=None if self.values is None else [
                CardGroupValue(cards=[card_code(c) for c in v.cards], value=v.value) for v in self.values],
            best=None if self.best is None else [card_code(c) for c in self.best], cost=self.cost,
            projected=self.projected,
            pimc=None if self.pimc is None else [
                PimcValueModel(card=card_code(v.card), mean=round(v.mean, 2), stderr=round(v.stderr, 2),
                               win=round(v.win, 4)) for v in self.pimc],
            pimc_cost=_rounded(self.pimc_cost), luck=_rounded(self.luck), win_before=_rounded(self.win_before, 4),
            win_after=_rounded(self.win_after, 4), loss=_rounded(self.loss, 4), mark=self.mark,
            accuracy=_rounded(self.accuracy, 1),
            best_line=None if self.best_line is None else list(self.best_line),
            before=None if self.before is None else self.before.model(),
            after=None if self.after is None else self.after.model(), changed_result=self.changed_result)


def pimc_cost(values: tuple[PimcValue, ...] | None, card: Card) -> float | None:
    """The best PIMC mean less ``card``'s (None without PIMC values)."""
    if values is None:
        return None
    return max(v.mean for v in values) - next(v.mean for v in values if v.card == card)


@dataclass(frozen=True, slots=True)
class DealOutcomeSeen:
    """The deal's real result, from its score sheet: who won, doubled, by a tute, and the match points."""
    winner: int | None
    doubled: bool
    tute: bool
    match_points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchChances:
    """The match seen from the deal: the target, the standing before it, and each side's chance of winning the
    match before the deal and after it (:class:`tutepgn.analysis.outcome.MatchModel`)."""
    target: int
    standing: tuple[int, ...]
    win_before: tuple[float, ...]
    win_after: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """A deal's plays analysed, par and what each side and seat made of it."""
    cantes: bool
    """Whether values count cantes (the search chooses each side's cantes)."""
    worlds: int
    """PIMC's worlds per decision (0: double dummy only)."""
    seed: int
    inference: bool
    """Whether worlds were weighted by the likelihood of the plays made (``--inference``)."""
    plays: tuple[PlayAnalysis, ...]
    """Every card of the deal, in log order."""
    par: tuple[int, ...]
    """Per side, its double-dummy value at the first double-dummy position."""
    actual: tuple[int, ...]
    """Per side, the points it made from that position to the end (cantes when ``cantes``)."""
    totals: tuple[int, ...]
    """Per side, the score sheet's total (cantes only when ``cantes``)."""
    costs: tuple[int, ...]
    """Per seat, the summed double-dummy cost of its plays (0 is perfect play)."""
    given: tuple[int, ...]
    """Per side, what the other sides' plays changed of its value (their mistakes, less cantes they denied it)."""
    reached: tuple[int, ...]
    """Per side, its points and value where the values stop (the end; where a tute or the record stopped the
    deal, the points made and the value then left) less its points at the first double-dummy position: ``actual``
    for a deal played to its last trick."""
    seat_sides: tuple[int, ...]
    trick_values: tuple[tuple[int, ...], ...]
    """Per side, the projected total at the first double-dummy position, then after each trick; the last entry
    is the actual totals."""
    win_graph: tuple[tuple[float, ...], ...]
    """At each trick's start valued double dummy (and the end), per side, the probability of winning the deal."""
    outcome: DealOutcomeSeen
    match: MatchChances | None
    complete: bool
    """Whether the deal was played to its last trick (not when a tute ended it or the record stops early)."""
    seats: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()

    @property
    def valued(self) -> tuple[PlayAnalysis, ...]:
        """The plays valued double dummy."""
        return tuple(p for p in self.plays if p.double_dummy)

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

    def accuracy(self, seat: int) -> float | None:
        """A seat's accuracy in the deal, in percent (:func:`~tutepgn.analysis.outcome.game_accuracy`), None when
        it made no play valued as it could know it."""
        return game_accuracy([(p.win_before, p.win_after) for p in self.plays if p.seat == seat
                              and p.win_before is not None and p.win_after is not None])

    def identity_holds(self) -> bool:
        """``par - own costs + given == actual`` for every side (any number of sides, with or without cantes).

        Without cantes and with two sides, ``given`` is the other side's costs.
        A deal a tute or the record stopped compares with ``reached`` (the value
        left then counted), not with the points made.
        """
        return all(self.par[s] - self.side_costs(s) + self.given[s] == self.reached[s] for s in range(len(self.par)))

    def model(self) -> AnalysisModel:
        """The analysis in its JSON form, the one every answer carries (the CLI, the archive, the service)."""
        from .model import AnalysisModel, MatchModelForm, OutcomeModel

        o, m = self.outcome, self.match
        return AnalysisModel(
            version=ANALYSIS_VERSION, cantes=self.cantes, worlds=self.worlds, seed=self.seed,
            inference=self.inference, complete=self.complete, seats=list(self.seats), sides=list(self.sides),
            par=list(self.par), actual=list(self.actual), totals=list(self.totals),
            actual_minus_par=list(self.actual_minus_par), seat_sides=list(self.seat_sides), costs=list(self.costs),
            side_costs=[self.side_costs(k) for k in range(len(self.par))], given=list(self.given),
            trick_values=[list(v) for v in self.trick_values],
            win_graph=[[round(w, 4) for w in row] for row in self.win_graph],
            outcome=OutcomeModel(winner=o.winner, doubled=o.doubled, tute=o.tute, match_points=list(o.match_points),
                                 totals=list(o.totals)),
            accuracy=[_rounded(self.accuracy(s), 1) for s in range(len(self.seat_sides))],
            match=None if m is None else MatchModelForm(
                target=m.target, standing=list(m.standing), win_before=[round(w, 4) for w in m.win_before],
                win_after=[round(w, 4) for w in m.win_after]),
            turning_points=[p.index for p in self.turning_points], plays=[p.model() for p in self.plays])

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON data: :meth:`model` dumped, with the keys docs/analysis.md lists."""
        return self.model().model_dump(mode="json")


def analyse(deal: Deal, *, cantes: bool = True, pimc: int = DEFAULT_WORLDS, seed: int = 0, inference: bool = False,
            backend: Backend | None = None, stock_horizon: int = STOCK_HORIZON,
            match: MatchContext | None = None) -> DealAnalysis:
    """Analyse every card of a legally played deal.

    ``cantes`` counts cantes in every value where the ruleset scores them
    (``False`` gives the card points and the last ten alone).  ``pimc``
    worlds value each decision made with hidden cards as the mover could know
    it (0: double dummy only), seeded by ``seed`` and the play's index, so the
    same seed gives the same values; ``inference`` weights the worlds by the
    likelihood of the plays made.  2-player plays made with at most
    ``stock_horizon`` cards in the stock are valued over worlds that also order
    the stock.  ``match`` (the record's match tags) adds the match chances.
    """
    from .replay_values import Valuer

    return Valuer(deal, cantes=cantes, worlds=pimc, seed=seed, inference=inference, backend=backend,
                  stock_horizon=stock_horizon).run(match)


def projection(rules: Any, totals: tuple[int, ...], cards_and_last: tuple[int, ...]) -> Projection:
    """The result that totals decide (:func:`tutepgn.score.decide`; a tie left undecided)."""
    winner, tie, doubled, _ = decide(rules, totals, cards_and_last, ())
    return Projection(totals, winner, tie, doubled)


def _rounded(x: float | None, digits: int = 2) -> float | None:
    """A figure as JSON writes it."""
    return None if x is None else round(x, digits)
