"""The JSON form of a deal's analysis: :class:`AnalysisModel`, the one shape of every answer that carries one.

:meth:`tutepgn.analysis.DealAnalysis.model` builds it and
:meth:`~tutepgn.analysis.DealAnalysis.to_dict` dumps it: ``tute analyse --json``
prints it, the archive stores it (table ``analyses``), the service answers with
it and documents it in its OpenAPI schema, and the replay page draws it.  Kept
apart from :mod:`tutepgn.analysis` so that the service and the archive read the
shape without loading the solver, and the analysis loads pydantic only when a
JSON form is asked for.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class CardGroupValue(BaseModel):
    """Equal legal cards (one hand, adjacent among the live cards, worth the same) and their value."""

    cards: list[str] = Field(description="Card codes, e.g. 12O.")
    value: int = Field(description="The points the mover's side makes from here after this card, best play by all.")


class ProjectionModel(BaseModel):
    """The deal's result if the rest were played double dummy."""

    totals: list[int] = Field(description="Per side, its total.")
    winner: int | None = Field(description="The winning side (null: a tie the values do not decide).")
    tie: bool
    doubled: bool


class PimcValueModel(BaseModel):
    """A legal card as the mover could know it: its mean value over the worlds the mover could not tell apart."""

    card: str
    mean: float = Field(description="The mean value, points the mover's side makes from here after this card.")
    stderr: float = Field(description="The standard error of the mean (0: one world, an exact position).")
    win: float | None = Field(description="The mover side's probability of winning the deal after this card.")


class PlayAnalysisModel(BaseModel):
    """One card played (every card of the deal, in log order): valued as its mover could know it (`method`) and,
    once the stock is empty, double dummy (`double_dummy`); docs/analysis.md tells every key."""

    index: int = Field(description="The play's place in the deal's actions, from 0: the record's event it was, "
                                   "the replay's frame before it (after it: + 1).")
    trick: int = Field(description="Its trick, from 1.")
    seat: int = Field(description="The mover's seat number (its name: `seats`).")
    card: str
    exact: bool = Field(description="Whether the mover could know every card (its values are then double dummy's).")
    method: Literal["exact", "pimc", "rollout"] | None = Field(
        description="How the play was valued as the mover could know it (null: it was not).")
    double_dummy: bool = Field(description="Whether a double-dummy value exists (the stock was empty).")
    value: int | None = Field(description="Double dummy: the points the mover's side makes from here, best play by "
                                          "all.")
    values: list[CardGroupValue] | None
    best: list[str] | None = Field(description="Every legal card of the best double-dummy value.")
    cost: int | None = Field(description="Double dummy: the points the play lost for the mover's side (with cantes, "
                                         "also a cante of its side not sung before the next card).")
    projected: int | None = Field(description="The points the mover's side ends the deal with under best play "
                                              "from here.")
    pimc: list[PimcValueModel] | None = Field(description="Each legal card as the mover could know it.")
    pimc_cost: float | None = Field(description="The best mean less the played card's: the information part of "
                                                "the cost.")
    luck: float | None = Field(description="`cost` - `pimc_cost`: the part the mover could not see.")
    win_before: float | None = Field(description="The mover side's deal-win probability with its best card, as "
                                                 "the mover could know it.")
    win_after: float | None = Field(description="The same after the card played.")
    loss: float | None = Field(description="`win_before` - `win_after`: the mark's basis.")
    mark: Literal["?!", "?", "??"] | None = Field(description="?! inaccuracy (loss >= 0.05), ? mistake (>= 0.10), "
                                                               "?? blunder (>= 0.15).")
    accuracy: float | None = Field(description="The move's accuracy, percent.")
    best_line: list[str] | None = Field(description="The rest of the deal under best play after the best card, "
                                                    "actions in the notation (double dummy).")
    before: ProjectionModel | None = Field(description="The result projected with best play from here.")
    after: ProjectionModel | None = Field(description="The result projected at the next card.")
    changed_result: bool | None = Field(description="Whether the card changed the projected result.")


class OutcomeModel(BaseModel):
    """The deal's real result, from its score sheet."""

    winner: int | None = Field(description="The winning side (null: no result, the record stops early).")
    doubled: bool
    tute: bool = Field(description="Whether a tute ended the deal (the tute is then the outcome).")
    match_points: list[int] = Field(description="Per side, the match points it won.")
    totals: list[int] = Field(description="Per side, the score sheet's total, cantes included.")


class MatchModelForm(BaseModel):
    """The match seen from the deal (the record's MatchTarget and MatchScore tags)."""

    target: int
    standing: list[int] = Field(description="Per side, its match points before the deal.")
    win_before: list[float] = Field(description="Per side, its probability of winning the match before the deal.")
    win_after: list[float] = Field(description="The same after the deal's result.")


class AnalysisModel(BaseModel):
    """A deal analysed: every card valued as its mover could know it and double dummy, par, what each side made,
    the result (`DealAnalysis.to_dict()`, the form `tute analyse --json` prints)."""

    version: int = Field(description="The keys' version (and the solver's).")
    cantes: bool = Field(description="Whether values count cantes.")
    worlds: int = Field(description="PIMC's worlds per decision made with hidden cards (0: double dummy only).")
    seed: int = Field(description="The worlds' seed.")
    inference: bool = Field(description="Whether worlds were weighted by the likelihood of the plays made.")
    complete: bool = Field(description="Whether the deal was played to its last trick.")
    seats: list[str] = Field(description="The seats' names, by seat number.")
    sides: list[str] = Field(description="Side labels, in the order of every per-side list.")
    par: list[int] = Field(description="Per side, its double-dummy value at the first double-dummy position.")
    actual: list[int] = Field(description="Per side, the points it made from there.")
    totals: list[int] = Field(description="Per side, the score sheet's total (cantes only when counted).")
    actual_minus_par: list[int]
    seat_sides: list[int] = Field(description="Per seat, its side.")
    costs: list[int] = Field(description="Per seat, the summed double-dummy cost of its plays (0: perfect play).")
    side_costs: list[int] = Field(description="Per side, the summed cost of its seats.")
    given: list[int] = Field(description="Per side, what the other sides' plays gave it: par - side_costs + given "
                                         "= actual.")
    trick_values: list[list[int]] = Field(description="Per side, the projected total at the first double-dummy "
                                                      "position, then after each trick.")
    win_graph: list[list[float]] = Field(description="At each trick start valued double dummy, then the end: per "
                                                     "side, its probability of winning the deal.")
    outcome: OutcomeModel
    accuracy: list[float | None] = Field(description="Per seat, its accuracy in the deal, percent (null: no play "
                                                     "valued as it could know it).")
    match: MatchModelForm | None = Field(description="The match chances (null without match tags).")
    turning_points: list[int] = Field(description="The plays (by index) that changed the projected result.")
    plays: list[PlayAnalysisModel]


__all__ = ["AnalysisModel", "CardGroupValue", "MatchModelForm", "OutcomeModel", "PimcValueModel",
           "PlayAnalysisModel", "ProjectionModel"]
