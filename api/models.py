"""The service's own answers (the library's models serve the others)."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tutepgn.analysis.model import AnalysisModel
from tutepgn.archive import DealSummary
from tutepgn.archive.ids import DealId
from tutepgn.errors import ErrorItem
from tutepgn.notation import RecordModel
from tutepgn.rules import Ruleset
from tutepgn.check.report_model import ReportModel
from tutepgn.check.validate import Summary

Preset = Literal["ludoteka-pairs", "playcard-2p", "torofun-2p", "torofun-3p", "torofun-4p"]
"""A rules preset's id (:data:`tutepgn.rules.PRESETS`: a test holds them equal)."""
Suit = Literal["O", "C", "E", "B"]
"""A suit's letter: oros, copas, espadas, bastos."""


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
    state: Literal["valid", "result_only", "invalid", "unreadable"] = Field(
        description="valid; result_only (sin jugadas: no play was noted, the Score and Result agree with the "
                    "ruleset); invalid (read, but the validator found errors); unreadable (syntax errors: "
                    "`record` is null, `text` and `errors` say what and where).")
    record: RecordModel | None
    errors: list[ErrorItem] = Field(description="The record's syntax errors, located (empty unless unreadable).")
    text: str | None = Field(description="The stored text when the record is unreadable (else see `links.tpgn`).")
    links: dict[str, str]


class RulesetInfo(BaseModel):
    """A preset: its options; per option, the source sentence or decision behind its value (``sources``, in
    words; ``citations``, as data); and the decisions the engine makes for it where the texts are silent."""

    name: Preset
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


class AnalysisJob(BaseModel):
    """An analysis worked on in the background: poll `links.self` until `status` is done or failed."""

    id: str
    status: Literal["running", "done", "failed"]
    deal: DealId | None = Field(description="The archive's deal analysed (null for a posted record).")
    cantes: bool
    worlds: int = Field(description="PIMC's worlds per decision (0: double dummy only).")
    seed: int
    inference: bool
    error: str | None = Field(description="Why the deal cannot be analysed (status failed).")
    analysis: AnalysisModel | None = Field(description="The analysis, once done.")
    links: dict[str, str]


class Open(BaseModel):
    """An answer made of the library's rows: the fields named are always there; the library may add more
    (``additionalProperties``), which a client keeps or ignores."""

    model_config = ConfigDict(extra="allow")


class StatsTotals(Open):
    deals: int
    finished: int
    invalid: int
    result_only: int
    avg_winner_points: float | None
    tutes: int
    doubles: int
    tie_breaks: int


class StatsPlayer(Open):
    player: str
    deals: int
    wins: int
    win_rate: float | None
    avg_points: float | None
    tutes: int
    cantes: int | None


class StatsRules(Open):
    preset: str | None
    deals: int
    avg_winner_points: float | None
    tutes: int
    doubles: int
    tie_breaks: int


class StatsTrump(Open):
    trump: Suit
    deals: int
    avg_winner_points: float | None
    avg_margin: float | None


class StatsPoints(Open):
    points_from: int = Field(description="The winner's points from this, up to 9 more.")
    deals: int


class StatsCuarenta(Open):
    """The deals where a side sang (or was dealt) las cuarenta, and how many of them that side won."""

    deals: int = Field(description="Finished deals counted.")
    won: int = Field(description="Of them, won by that side.")
    rate: float | None = Field(description="The share of them won (null without deals).")


class StatsMano(Open):
    """The deals won by the side of mano, against what chance alone gives."""

    deals: int = Field(description="Finished deals counted.")
    won_by_mano: int = Field(description="Of them, won by the side of mano.")
    rate: float | None = Field(description="The share of them won (null without deals).")
    even_chance: float | None = Field(description="The share a side would win by chance (1 / sides, averaged).")


class Stats(Open):
    """What GET /api/v1/stats answers: figures over the matching deals (docs/service.md)."""

    totals: StatsTotals
    players: list[StatsPlayer]
    rulesets: list[StatsRules]
    trumps: list[StatsTrump]
    points: list[StatsPoints]
    cuarenta_sung: StatsCuarenta = Field(description="Deals won by the side that sang las cuarenta: what "
                                                 "`tute stats` counts.")
    cuarenta_dealt: StatsCuarenta = Field(description="Deals won by the side dealt rey and caballo of trump, "
                                                  "sung or not.")
    mano: StatsMano = Field(description="Deals won by the side of mano.")


class PlayerCount(BaseModel):
    """A line of GET /api/v1/players."""

    name: str
    deals: int
    wins: int


class RecordedTrick(BaseModel):
    leader: str
    cards: list[str]
    winner: str
    points: int


class RecordedPlay(BaseModel):
    seat: str
    card: str
    text: str


class RecordingNext(Open):
    """The next deal of the recording's match, once this one is over."""

    standing: str = Field(description="The match's standing by side, e.g. `NS:1 WE:0`.")
    winner: str | None = Field(description="The side that won the match, once it is over.")
    dealer: str | None
    deal_no: str | None
    id: str | None


class RecordingState(Open):
    """A live recording as of its last change: the table, the plays, tricks, declarations and score so far.

    Cards are in the notation's codes (``12C``); per-side figures follow
    ``sides``.  ``declarations`` (the legal ones) come to the scorer only."""

    id: str
    entries: int
    rules: str | None
    tags: dict[str, str]
    seats: list[str]
    sides: list[str]
    dealer: str | None
    events: list[str]
    plays: list[RecordedPlay]
    tricks: list[RecordedTrick]
    table: list[list[str]] = Field(description="The cards on the table as [seat, card], in play order.")
    winner: str | None
    trick_no: int
    to_move: str | None
    leader_unknown: bool
    trump: Suit | None
    turned: str | None
    stock: int | None
    cantes: list[str]
    exchanges: list[str]
    card_points: list[int]
    cante_points: list[int]
    points: list[int]
    over: bool
    totals: list[int] | None
    result: str | None
    pack: list[str]
    declarations: list[str] | None = Field(None, description="The declarations accepted now (the scorer only).")
    last: str
    valid: bool | None
    deal_id: DealId | None = Field(description="The archive's deal, once the deal is over and imported.")
    deal_url: str | None
    next: RecordingNext | None
