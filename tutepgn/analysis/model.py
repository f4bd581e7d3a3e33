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
    """A legal card's mean value over the worlds the mover could not tell apart."""

    card: str
    mean: float
    stderr: float


class PlayAnalysisModel(BaseModel):
    """One card played, valued from the mover's side under double dummy once the stock is empty
    (docs/analysis.md; a card played with stock left has `double_dummy` false and null values, and only
    `pimc` and `pimc_cost` when PIMC valued it)."""

    index: int = Field(description="The play's place in the deal's actions, from 0: the record's event it was, "
                                   "the replay's frame before it (after it: + 1).")
    trick: int = Field(description="Its trick, from 1.")
    seat: int = Field(description="The mover's seat number (its name: `seats`).")
    card: str
    double_dummy: bool = Field(description="Whether it was valued (the stock was empty).")
    value: int | None = Field(description="The points the mover's side makes from here under best play by all.")
    values: list[CardGroupValue] | None
    best: list[str] | None = Field(description="Every legal card of the best value.")
    cost: int | None = Field(description="Points the play gave away: `value` less the card's value.")
    projected: int | None = Field(description="The points the mover's side ends the deal with under best play "
                                              "from here.")
    mark: Literal["?!", "?", "??"] | None = Field(description="?! inaccuracy (cost >= 3), ? mistake (>= 10), "
                                                               "?? blunder (>= 20).")
    changed_result: bool | None = Field(description="Whether the card changed the projected result.")
    before: ProjectionModel | None = Field(description="The result projected with best play from here.")
    after: ProjectionModel | None = Field(description="The result projected after the card played.")
    pimc: list[PimcValueModel] | None
    pimc_cost: float | None


class AnalysisModel(BaseModel):
    """A deal analysed under double dummy: every card played once the stock is empty, par, what each side made
    (`DealAnalysis.to_dict()`, the form `tute analyse --json` prints)."""

    version: int = Field(description="The keys' version (and the solver's).")
    cantes: bool = Field(description="Whether values count cantes.")
    complete: bool = Field(description="Whether the deal was played to its last trick.")
    seats: list[str] = Field(description="The seats' names, by seat number.")
    sides: list[str] = Field(description="Side labels, in the order of `par`, `actual` and `actual_minus_par`.")
    par: list[int] = Field(description="Per side, its value at the first position analysed.")
    actual: list[int] = Field(description="Per side, the points it made from there.")
    actual_minus_par: list[int]
    seat_sides: list[int] = Field(description="Per seat, its side.")
    costs: list[int] = Field(description="Per seat, the summed cost of its plays (0: perfect play).")
    side_costs: list[int] = Field(description="Per side, the summed cost of its seats.")
    trick_values: list[list[int]] = Field(description="Per side, the projected total at the first position "
                                                      "analysed, then after each trick.")
    turning_points: list[int] = Field(description="The plays (by index) that changed the projected result.")
    plays: list[PlayAnalysisModel]


__all__ = ["AnalysisModel", "CardGroupValue", "PimcValueModel", "PlayAnalysisModel", "ProjectionModel"]
