"""The service's own answers (the library's models serve the others)."""

from typing import Any, Literal

from pydantic import BaseModel, Field

from tutepgn.archive import DealSummary
from tutepgn.errors import ErrorItem
from tutepgn.notation import RecordModel
from tutepgn.rules import Ruleset
from tutepgn.check.validate import ReportModel, Summary


class ValidationResponse(BaseModel):
    """What POST /validate answers: the counts and one report per record."""

    summary: Summary
    reports: list[ReportModel]


class DealDetail(BaseModel):
    """One deal: its summary, its record as JSON, and links to its other forms.

    The archive keeps records it cannot read (flagged invalid); such a deal is
    served too, as its stored text and its located syntax errors, not as a failure.
    """

    summary: DealSummary
    state: Literal["valid", "invalid", "unreadable"] = Field(
        description="valid; invalid (read, but the validator found errors); unreadable (syntax errors: "
                    "`record` is null, `text` and `errors` say what and where).")
    record: RecordModel | None
    errors: list[ErrorItem] = Field(description="The record's syntax errors, located (empty unless unreadable).")
    text: str | None = Field(description="The stored text when the record is unreadable (else see `links.tpgn`).")
    links: dict[str, str]


class RulesetInfo(BaseModel):
    """A preset: its options; per option, the source sentence or decision behind its value (``sources``, in
    words; ``citations``, as data); and the decisions the engine makes for it where the texts are silent."""

    name: str
    options: Ruleset
    sources: dict[str, str]
    citations: dict[str, dict[str, Any]]
    decisions: list[dict[str, Any]]


class Health(BaseModel):
    """What GET /api/v1/health answers while the archive can be used (a 503 problem says why it cannot)."""

    status: Literal["ok", "read-only", "degraded"] = Field(
        description="ok: reads and imports; read-only: reads only; degraded: as ok, but damaged or foreign live "
                    "recordings' journals were set aside (`set_aside`) for the operator to look at.")
    deals: int = Field(description="Deals in the archive: a query answered now.")
    write_failure: str | None = Field(description="The last import the archive could not write (a full disk), "
                                                  "and when; null since an import succeeded.")
    set_aside: int = Field(description="Live recordings' journals found damaged or foreign and set aside (kept in "
                                       "the recordings folder's `set-aside/` until the operator removes them).")


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


class AnalysisJob(BaseModel):
    """An analysis worked on in the background: poll `links.self` until `status` is done or failed."""

    id: str
    status: Literal["running", "done", "failed"]
    deal: int | None = Field(description="The archive's deal analysed.")
    cantes: bool
    error: str | None = Field(description="Why the deal cannot be analysed (status failed).")
    analysis: AnalysisModel | None = Field(description="The analysis, once done.")
    links: dict[str, str]
