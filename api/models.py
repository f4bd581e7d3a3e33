"""The service's own answers (the library's models serve the others)."""

from typing import Any

from pydantic import BaseModel

from tutepgn.archive import DealSummary
from tutepgn.notation import RecordModel
from tutepgn.rules import Ruleset
from tutepgn.validate import ReportModel, Summary


class ValidationResponse(BaseModel):
    """What POST /validate answers: the counts and one report per record."""

    summary: Summary
    reports: list[ReportModel]


class DealDetail(BaseModel):
    """One deal: its summary, its record as JSON, and links to its other forms."""

    summary: DealSummary
    record: RecordModel
    links: dict[str, str]


class RulesetInfo(BaseModel):
    """A preset: its options; per option, the source sentence or decision behind its value (``sources``, in
    words; ``citations``, as data); and the decisions the engine makes for it where the texts are silent."""

    name: str
    options: Ruleset
    sources: dict[str, str]
    citations: dict[str, dict[str, Any]]
    decisions: list[dict[str, Any]]
