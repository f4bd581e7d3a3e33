"""What the validator concludes about a record: :class:`Report` and its :class:`Finding` s.

A :class:`Report` holds what the replay found in the engine's own terms
(seats and cards as ints, the :class:`~tutepgn.score.ScoreSheet`), for
callers in this process (the archive's rows, tests).  :meth:`Report.model`
gives its JSON form, the :class:`~tutepgn.check.report_model.ReportModel`:
seats as letters, cards as codes, every field typed.  It is the one JSON shape
of a report: ``Report.to_dict()``, ``tute validate --json``, the API's answers
and the text renderers of :mod:`tutepgn.cli.sheets` all read it;
docs/schema/validate-report.schema.json describes it.  The models live in
:mod:`tutepgn.check.report_model`, loaded only when a JSON form is asked for, so
that validating loads no pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Literal

from ..cards import CODES, SUIT_LETTERS
from ..errors import NotationError
from ..events import Exchange, Play
from ..i18n import gettext as _, ngettext
from ..words import seat_words
from ..notation import UNFINISHED, Record
from ..rules import SEAT_NAMES, Ruleset
from ..score import ScoreSheet

if TYPE_CHECKING:
    from .report_model import ExchangeModel, ReportModel

Severity = Literal["error", "warning", "info"]


@cache
def json_models() -> ModuleType:
    """The report's pydantic models (:mod:`tutepgn.check.report_model`), imported when a JSON form is first asked
    for, then at the cost of a call: a validation run asks for one per record, and an import statement in the
    method cost a twentieth of the run."""
    from . import report_model
    return report_model


@dataclass(frozen=True, slots=True, init=False)
class Finding:
    """One thing the validator found: what, where, and the rule behind it.

    ``code`` is the engine's rule code for illegal events (``must_follow``,
    ``forty_first`` ...), or one of the validator's own codes for the record
    as a whole (``score_mismatch``, ``hand_size`` ...), listed in docs/validate.md.
    A plain dataclass, so that validating loads no pydantic; its JSON model is
    :class:`tutepgn.check.report_model.Finding`.
    """

    severity: Severity
    code: str
    option: str | None
    message: str
    line: int | None
    column: int | None
    trick: int | None
    seat: str | None
    event: str | None

    def __init__(self, severity: Severity, code: str, message: str, *, option: str | None = None,
                 line: int | None = None, column: int | None = None, trick: int | None = None,
                 seat: str | None = None, event: str | None = None) -> None:
        """``Finding(severity, code, message, line=..., ...)``, or every field by name (as JSON gives them)."""
        for name, value in (("severity", severity), ("code", code), ("option", option), ("message", message),
                            ("line", line), ("column", column), ("trick", trick), ("seat", seat), ("event", event)):
            object.__setattr__(self, name, value)

    def to_dict(self) -> dict[str, object]:
        """The finding as JSON data, keys in the order of its fields."""
        return {"severity": self.severity, "code": self.code, "option": self.option, "message": self.message,
                "line": self.line, "column": self.column, "trick": self.trick, "seat": self.seat,
                "event": self.event}


@dataclass(slots=True)
class RefusedCante:
    """A cante the record declares that the rules refuse: it scores nothing."""
    seat: int
    side: int
    suit: int
    points: int
    reason: str


@dataclass
class Report:
    """What the validator concluded about one record, in the engine's terms; :meth:`model` is its JSON form."""

    record: Record
    rules: Ruleset | None = None
    findings: list[Finding] = field(default_factory=list)
    sheet: ScoreSheet | None = None
    refused_cantes: list[RefusedCante] = field(default_factory=list)
    claimed_score: tuple[int, ...] | None = None
    claimed_result: str | None = None
    computed_result: str | None = None
    match_target: int | None = None
    standing_after: tuple[int, ...] | None = None
    explanation: list[str] = field(default_factory=list)
    result_only: bool = False
    """A results-only record (``[Play "result only"]``, sin jugadas): no play to replay, its Score and Result
    checked against what the ruleset allows; :attr:`valid` then says it is consistent, never that play was legal."""
    result_points: tuple[int, ...] | None = None
    """A results-only deal's match points per side, as its Result gives them (None when it gives none)."""
    result_wins_match: bool = False
    """A results-only deal's Result is ``+match``: a tute won the match."""

    @property
    def errors(self) -> list[Finding]:
        """Findings of severity error."""
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        """Findings of severity warning."""
        return [f for f in self.findings if f.severity == "warning"]

    def unjudged_from(self) -> int | None:
        """The first event the validator left unjudged because it only follows from earlier errors (its
        ``unjudged_rest`` note stands there), or None: a page flags the illegal events it reports, not those."""
        at = next(((f.line, f.column) for f in self.findings if f.code == "unjudged_rest"), None)
        if at is None:
            return None
        return next((i for i in range(len(self.record.events)) if self.record.position(i) == at), None)

    @property
    def parse_errors(self) -> list[NotationError]:
        """Syntax errors the reader found in the record."""
        return self.record.errors

    @property
    def valid(self) -> bool:
        """True when the record parses and replays with no error (a score mismatch is an error)."""
        return not self.record.errors and not self.errors

    @property
    def score_ok(self) -> bool | None:
        """Whether the Score tag equals the recomputed totals; None when either is unknown."""
        if self.claimed_score is None or self.sheet is None or not self.sheet.complete and self.sheet.tute is None:
            return None
        return tuple(self.claimed_score) == tuple(self.sheet.totals)

    @property
    def result_ok(self) -> bool | None:
        """Whether the claimed result (the Result tag, else the termination marker) equals the recomputed one.

        None when the deal is unfinished or the record claims no result (``*``).
        """
        claimed = self.claimed_result if self.claimed_result is not None else self.record.termination
        if self.computed_result is None or self.computed_result == UNFINISHED or claimed == UNFINISHED:
            return None
        return claimed == self.computed_result

    def model(self, sheet: bool = True) -> ReportModel:
        """The report as its JSON model (schema in docs/validate.md); ``sheet=False`` leaves the score sheet out."""
        from .report_model import ReportModel
        return ReportModel.model_validate(self.to_dict(sheet))

    def to_dict(self, sheet: bool = True) -> dict[str, object]:
        """The report as JSON data: :class:`ReportModel`'s fields, in its order, as :meth:`model` dumps them.

        Built directly rather than through the model: a validation run calls
        this for every record, and the model would cost a fifth of the run.
        It loads pydantic (:mod:`tutepgn.check.report_model`); validating does not.
        """
        return dict(zip(json_models().REPORT_FIELDS, self._values(sheet)))

    def _values(self, sheet: bool) -> tuple[object, ...]:
        """The value of each field of :class:`ReportModel`, in its order, as JSON data."""
        models = json_models()
        r = self.rules
        names = r.seat_names if r else SEAT_NAMES[4]
        return (
            self.record.source, self.record.index, self.record.line,
            str(r) if r else self.record.tags.get("Rules"), self.valid,
            [e.item().model_dump() for e in self.record.errors],
            [f.to_dict() for f in self.findings],
            list(r.side_labels) if r else [],
            list(self.claimed_score) if self.claimed_score is not None else None,
            list(self.sheet.totals) if self.sheet else None,
            self.score_ok, self.claimed_result, self.computed_result, self.result_ok, self.match_target,
            list(self.standing_after) if self.standing_after is not None else None,
            models.SheetModel.of(self.sheet, names).model_dump() if self.sheet and sheet else None,
            [models.RefusedCanteModel(seat=names[c.seat], suit=SUIT_LETTERS[c.suit], points=c.points,
                               reason=c.reason).model_dump() for c in self.refused_cantes],
            [x.model_dump() for x in self._exchanges(names)],
            self.explanation, self.result_only,
        )

    def _exchanges(self, names: tuple[str, ...]) -> list[ExchangeModel]:
        """Each exchange in the record: who gave which card, after how many tricks."""
        model = json_models().ExchangeModel
        n = len(names)
        out: list[ExchangeModel] = []
        plays = 0
        for event in self.record.events:
            if type(event) is Play:
                plays += 1
            elif type(event) is Exchange:
                out.append(model(seat=names[event.seat], card=CODES[event.card], after_trick=plays // n))
        return out


@dataclass
class Summary:
    """Counts over a validation run, for the summary line and the exit code."""
    records: int = 0
    valid: int = 0
    invalid: int = 0
    score_mismatches: int = 0
    result_mismatches: int = 0
    parse_errors: int = 0
    seconds: float = 0.0
    result_only: int = 0
    """Consistent results-only records (sin jugadas): counted apart, never as valid play."""

    def add(self, report: dict[str, object]) -> None:
        """Count one report (as :meth:`Report.to_dict` gives it)."""
        self.records += 1
        if report["valid"] and report.get("result_only"):
            self.result_only += 1
        elif report["valid"]:
            self.valid += 1
        else:
            self.invalid += 1
        self.score_mismatches += report["score_ok"] is False
        self.result_mismatches += report["result_ok"] is False
        self.parse_errors += bool(report["parse_errors"])

    def to_dict(self) -> dict[str, object]:
        """The counts as JSON data."""
        return {"records": self.records, "valid": self.valid, "invalid": self.invalid,
                "score_mismatches": self.score_mismatches, "result_mismatches": self.result_mismatches,
                "parse_errors": self.parse_errors, "result_only": self.result_only, "seconds": round(self.seconds, 3)}

    def __str__(self) -> str:
        rate = _(", {rate} records/s", rate=format(self.records / self.seconds, ",.0f")) if self.seconds > 0 else ""
        return ngettext("{n} record: {valid} valid, {invalid} invalid, {score} score mismatches, {result} result "
                        "mismatches, {parse} with parse errors; {seconds} s{rate}",
                        "{n} records: {valid} valid, {invalid} invalid, {score} score mismatches, {result} result "
                        "mismatches, {parse} with parse errors; {seconds} s{rate}", self.records, valid=self.valid,
                        invalid=self.invalid, score=self.score_mismatches, result=self.result_mismatches,
                        parse=self.parse_errors, seconds=format(self.seconds, ".2f"), rate=rate) + (
                     _("; {n} result only", n=self.result_only) if self.result_only else "")


def result_sentence(report: ReportModel) -> str:
    """The deal's outcome in a sentence: winner, tie-break, double, tute (the report must have its sheet)."""
    sheet = report.sheet
    assert sheet is not None, "a report without its score sheet has no result to tell"
    sides = report.sides
    if sheet.winner is None:
        return _("Unfinished: no winner yet.")
    words = [_("{side} wins the deal", side=seat_words(sides[sheet.winner]))]
    if sheet.tute:
        rank = "reyes" if sheet.tute.rank == 12 else "caballos"
        words.append(_("by a tute of {rank} ({seat})", rank=rank, seat=seat_words(sheet.tute.seat)))
    if sheet.tie_break:
        words.append(_("on a tie, as the side that won the last trick"))
    if sheet.doubled:
        words.append(_("with a double"))
    if sheet.wins_match:
        words.append(_("and the match"))
    else:
        words.append(ngettext("for {n} match point", "for {n} match points", sheet.match_points[sheet.winner]))
    claimed = report.claimed_result
    verdict = "" if claimed is None else (_(" The Result tag agrees.") if report.result_ok
                                          else _(" The Result tag says {result}.", result=claimed))
    return _("{words}: {result}.{verdict}", words=" ".join(words), result=report.computed_result, verdict=verdict)
