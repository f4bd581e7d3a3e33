"""The JSON form of a validation report: :class:`ReportModel` and the models it is made of.

:meth:`tutepgn.check.report.Report.model` builds it and
:meth:`~tutepgn.check.report.Report.to_dict` dumps it: ``tute validate --json``
prints it, the service answers with it and documents it in its OpenAPI schema,
and the text renderers of :mod:`tutepgn.cli.sheets` read it;
docs/schema/validate-report.schema.json describes it.  Kept apart from
:mod:`tutepgn.check.report` so that reading and validating a record load no
pydantic: only a JSON form does.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..cards import CODES, SUIT_LETTERS
from ..errorshape import ErrorItem
from ..score import ScoreSheet
from .report import Severity


class Finding(BaseModel):
    """One thing the validator found: what, where, and the rule behind it.

    ``code`` is the engine's rule code for illegal events (``must_follow``,
    ``forty_first`` ...), or one of the validator's own codes for the record
    as a whole (``score_mismatch``, ``hand_size`` ...), listed in docs/validate.md.
    """

    severity: Severity
    code: str
    option: str | None = None
    message: str
    line: int | None = None
    column: int | None = None
    trick: int | None = None
    seat: str | None = None
    event: str | None = None


class TrickModel(BaseModel):
    """A finished trick: who led, the cards in play order, who won it, its card points."""
    leader: str
    cards: list[str]
    winner: str
    points: int


class CanteModel(BaseModel):
    """An accepted cante: the seat, its side (an index into the report's sides), the suit, its value."""
    seat: str
    side: int
    suit: str
    points: int


class TuteModel(BaseModel):
    """A tute: the seat that announced it, and the rank (12: reyes, 11: caballos)."""
    seat: str
    rank: int


class SheetModel(BaseModel):
    """The recomputed count (a :class:`~tutepgn.score.ScoreSheet` with seats as letters, cards as codes)."""

    tricks: list[TrickModel]
    card_points: list[int]
    last_trick_side: int | None
    last_trick_bonus: int
    cantes: list[CanteModel]
    totals: list[int]
    winner: int | None = Field(description="Index of the winning side in the report's sides; None while unfinished.")
    tie_break: bool
    match_points: list[int]
    doubled: bool
    tute: TuteModel | None
    wins_match: bool
    complete: bool

    @classmethod
    def of(cls, sheet: ScoreSheet, names: tuple[str, ...]) -> SheetModel:
        """The JSON form of an engine score sheet, seats named by ``names``."""
        tute = sheet.tute
        return cls(
            tricks=[TrickModel(leader=names[t.leader], cards=[CODES[c] for c in t.cards], winner=names[t.winner],
                               points=t.points) for t in sheet.tricks],
            card_points=list(sheet.card_points), last_trick_side=sheet.last_trick_side,
            last_trick_bonus=sheet.last_trick_bonus,
            cantes=[CanteModel(seat=names[c.seat], side=c.side, suit=SUIT_LETTERS[c.suit], points=c.points)
                    for c in sheet.cantes],
            totals=list(sheet.totals), winner=sheet.winner, tie_break=sheet.tie_break,
            match_points=list(sheet.match_points), doubled=sheet.doubled,
            tute=None if tute is None else TuteModel(seat=names[tute.seat], rank=tute.rank),
            wins_match=sheet.wins_match, complete=sheet.complete)


class RefusedCanteModel(BaseModel):
    """A cante the record declares and the rules refuse: it scores nothing; ``reason`` is the rule code."""
    seat: str
    suit: str
    points: int
    reason: str


class ExchangeModel(BaseModel):
    """An exchange in the record: who gave which card, after how many tricks."""
    seat: str
    card: str
    after_trick: int


class ReportModel(BaseModel):
    """A validation report as JSON: what :meth:`Report.to_dict` gives and the API serves."""

    source: str | None
    record: int = Field(description="0-based index of the record in its source.")
    line: int = Field(description="First line of the record in its source.")
    rules: str | None
    valid: bool
    parse_errors: list[ErrorItem]
    findings: list[Finding]
    sides: list[str]
    claimed_score: list[int] | None
    computed_score: list[int] | None
    score_ok: bool | None
    claimed_result: str | None
    computed_result: str | None
    result_ok: bool | None
    match_target: int | None
    standing_after: list[int] | None
    sheet: SheetModel | None = Field(description="The score sheet: tricks, card points, cantes, totals, winner.")
    refused_cantes: list[RefusedCanteModel]
    exchanges: list[ExchangeModel]
    explanation: list[str]
    result_only: bool = Field(False, description="A results-only record (Play tag \"result only\", sin jugadas): "
                              "no play was checked, only that its Score and Result agree with the ruleset; "
                              "valid then means consistent, never legal play.")


REPORT_FIELDS = tuple(ReportModel.model_fields)
"""The keys of a report as JSON, in order."""
