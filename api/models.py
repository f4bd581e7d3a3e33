"""The service's own answers (the library's models serve the others)."""

from typing import Any, Literal

from pydantic import BaseModel, Field

from tutepgn.analysis.model import AnalysisModel
from tutepgn.archive import DealSummary
from tutepgn.archive.ids import DealId
from tutepgn.errors import ErrorItem
from tutepgn.notation import RecordModel
from tutepgn.rules import Ruleset
from tutepgn.check.report_model import ReportModel
from tutepgn.check.validate import Summary


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
