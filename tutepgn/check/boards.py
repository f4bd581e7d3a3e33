"""Pasted records on the table: each record's frames (the steps the deal page's board replays), its validation
report, and the frame each finding is about, so that a page can show the table at the moment a finding names.

Every record stands on its own, as :func:`tutepgn.check.validate.validate_text` reports them: a record with syntax
errors has its report and no frames (its board says why), the others have both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from ..errors import NotationError
from ..i18n import gettext as _
from ..notation import SEAT_TAGS, Record
from .replay import Frame, frame_data, frames
from .report import Finding, Summary
from .validate import pasted_records, validate_records


class Board(BaseModel):
    """One record on the table."""

    record: int = Field(description="0-based index of the record in the text.")
    seats: dict[str, str] = Field(description="Player name per seat letter, as the record's tags give them.")
    frames: list[dict[str, Any]] = Field(description="The start, then one frame after each event (as "
                                                     "`tute replay --json` gives them); empty without a board.")
    findings: list[int | None] = Field(description="For each finding of the record's report, in order, the "
                                                   "frame it is about (null: the record as a whole).")
    error: str | None = Field(None, description="Why the record has no board: syntax errors, or a tag the "
                                                "starting position needs.")


def finding_frame(finding: Finding, record: Record, steps: list[Frame]) -> int | None:
    """The frame a finding is about: its event's (found by where the event stands in the text), else the frame
    that completes its trick; None for a finding about the record as a whole."""
    if finding.line is not None:
        for index in range(len(record.events)):
            if record.position(index) == (finding.line, finding.column):
                return index + 1
    if finding.trick is not None:
        closing = [f.index for f in steps if f.trick_no == finding.trick and f.winner]
        within = [f.index for f in steps if f.trick_no == finding.trick]
        return next(iter(closing or within), None)
    return None


def board(record: Record, findings: list[Finding], index: int) -> Board:
    """A record's board, or why it has none."""
    seats = {letter: record.tags[tag] for letter, tag in SEAT_TAGS.items() if record.tags.get(tag)}
    nothing = [None] * len(findings)
    if record.errors:
        return Board(record=index, seats=seats, frames=[], findings=nothing,
                     error=_("the record has syntax errors: mend them to see it on the table"))
    try:
        steps = frames(record)
    except NotationError as exc:
        return Board(record=index, seats=seats, frames=[], findings=nothing, error=str(exc))
    return Board(record=index, seats=seats, frames=[frame_data(f) for f in steps],
                 findings=[finding_frame(f, record, steps) for f in findings])


def boards(text: str, check: Callable[[], None] | None = None
           ) -> tuple[list[dict[str, object]], Summary, list[NotationError], list[Board]]:
    """Validate every record of ``text`` and put each on the table: the report dicts, their counts, the errors
    that leave nothing to report (a text without a record), and one board per record.  ``check`` runs before
    each record is read and before each is told: a service stops the work there when its time is up."""
    records = pasted_records(text, check)
    summary = Summary()
    if not records:
        return [], summary, [NotationError(_("no record found"), line=1, column=1)], []
    reports, tables = [], []
    for index, (record, report) in enumerate(zip(records, validate_records(records))):
        if check is not None:
            check()
        data = report.to_dict()
        summary.add(data)
        reports.append(data)
        tables.append(board(record, report.findings, index))
    return reports, summary, [], tables
