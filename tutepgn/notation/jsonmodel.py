"""The JSON models of a record: the contract of ``tute convert --to json`` and of the API.

One record is one JSON object (docs/json.md); :class:`RecordModel` is its
pydantic model and the JSON Schema docs/schema/record.schema.json is written
from it (:func:`json_schema`).  Each event model is made from an event class of
:mod:`tutepgn.events` (its ``kind``, ``json_fields``, ``json_doc``), and the
event class writes and reads the fields that say the event
(:meth:`~tutepgn.events.Play.to_json`, ``from_json``): a new kind of event
needs no edit here.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, Union

from pydantic import (
    BaseModel, ConfigDict, Field, PrivateAttr, StringConstraints, computed_field, create_model, model_validator,
)

from ..cards import CARD_STYLES, SUIT_TEXT, cards_in, hand_order
from ..events import EVENT_TYPES, Action
from .record import Record
from .tags import RESULT, SEAT_TAGS, TAG_NAME, TAG_TEXT, UNFINISHED, Header

CardStyle = Literal["es", "es-letters", "it", "fr", "en", "names"]

TagName = Annotated[str, StringConstraints(pattern=rf"^{TAG_NAME.pattern}$")]
TagValue = Annotated[str, StringConstraints(pattern=rf"^{TAG_TEXT.pattern}$")]
Nag = Annotated[int, Field(ge=0, le=255)]
Termination = Annotated[str, StringConstraints(pattern=rf"^(?:{RESULT.pattern})$")]

_POSITION = "Where the event stood in the source .tpgn (1-based; the seat letter of a declaration); null when unknown."


# ---------------------------------------------------------------------------
# The models.

class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid")
    if TYPE_CHECKING:  # the fields every event model has (added by _event_model, after the event's own)
        line: int | None
        column: int | None
        nags: list[int]
        comments: list[str]


def _event_model(event: type[Action]) -> type[_Event]:
    """The JSON model of an event class: its ``type``, its own fields (``json_fields``), then where it stood
    and its notes.  Named ``PlayEvent``, ``CanteEvent``...: the schema's definitions."""
    fields: dict[str, Any] = {"type": (Literal[event.kind], ...)}
    fields.update((name, (kind, Field(**info))) for name, kind, info in event.json_fields)
    fields.update(
        line=(int | None, Field(None, ge=1, description=_POSITION)),
        column=(int | None, Field(None, ge=1, description=_POSITION)),
        nags=(list[Nag], Field(default_factory=list, description=event.json_nags)),
        comments=(list[str], Field(default_factory=list, description="Comments after the event, in order.")),
    )
    return create_model(f"{event.__name__}Event", __base__=_Event, __doc__=event.json_doc, **fields)


EVENT_MODELS: dict[str, type[_Event]] = {kind: _event_model(event) for kind, event in EVENT_TYPES.items()}
"""The JSON model of each event class, by the class's ``kind`` (its JSON ``type``)."""
if TYPE_CHECKING:  # the union is built at run time: to a type checker, an event model
    EventModel: TypeAlias = _Event
else:
    EventModel = Annotated[Union[tuple(EVENT_MODELS.values())], Field(discriminator="type")]  # noqa: UP007 (a union built at run time)
"""One event of the play, told apart by its ``type``."""

DERIVED = ("rules", "players", "seats", "dealer", "deal", "stock", "trump", "trump_suit", "score", "result",
           "result_only")
"""The record's derived fields: written for convenience, ignored on input."""
ARCHIVE_FIELDS: dict[str, dict[str, Any]] = {
    "id": {"type": "string", "pattern": "^[0-9]+$", "readOnly": True, "description": (
        "Archive: the deal's id in the archive it was exported from (the first 63 bits of hash, as a string: "
        "exact in every language); written by an archive's JSON export only, ignored on input.")},
    "hash": {"type": "string", "pattern": "^[0-9a-f]{64}$", "readOnly": True, "description": (
        "Archive: the SHA-256 (hex) of the deal's export text, its archive column hash; written by an archive's "
        "JSON export only, ignored on input.")},
}
"""What an archive's JSON export adds to each record, to join it back to the archive's tables (``tute export``,
:mod:`tutepgn.archive.download`): its schema, read-only."""


class RecordModel(BaseModel):
    """One deal of Tute as JSON.

    Authoritative: version, cards, tags, intro, events, termination.  Derived
    (read-only, computed from the tags when written, ignored when read): rules,
    players, seats, dealer, deal, stock, trump, trump_suit, score, result.
    """

    model_config = ConfigDict(extra="forbid", title="Tute PGN record")

    version: Literal[1] = Field(1, description="Authoritative: version of this JSON form.")
    cards: CardStyle = Field("es", description="Authoritative: the card style of the events' cards and suits and of "
                                               "the derived card fields. Tag values are always in es codes.")
    tags: dict[TagName, TagValue] = Field(description=(
        "Authoritative: every tag pair of the record, in file order, values as the record gives them "
        "(cards in es codes). The derived fields below are computed from these."))
    intro: list[str] = Field(default_factory=list, description="Authoritative: the comments before the play.")
    events: list[EventModel] = Field(default_factory=list, description="Authoritative: the play, in order.")
    termination: Termination = Field(UNFINISHED, description=(
        "Authoritative: the termination marker, e.g. NS+1, N+match, or * for an unfinished deal; "
        "equals the Result tag when there is one."))

    @model_validator(mode="before")
    @classmethod
    def _drop_derived(cls, data: Any) -> Any:
        if isinstance(data, dict) and any(k in data for k in (*DERIVED, *ARCHIVE_FIELDS)):
            return {k: v for k, v in data.items() if k not in DERIVED and k not in ARCHIVE_FIELDS}
        return data

    # -- Derived, read-only ----------------------------------------------------
    _memo: Header | None = PrivateAttr(None)

    def _header(self) -> Header | None:
        """The tags read leniently (once per model), or None when the ruleset is unreadable."""
        if self._memo is None:
            try:
                self._memo = Record(tags=self.tags).header(lenient=True)
            except ValueError:  # a NotationError at the Rules tag, or a Cards tag naming no style
                return None
        return self._memo

    @computed_field(description="Derived: the ruleset (Rules tag) in canonical form; null when unreadable.")  # type: ignore[prop-decorator]
    @property
    def rules(self) -> str | None:
        header = self._header()
        return None if header is None else str(header.rules)

    @computed_field(description="Derived: the number of players; null when the ruleset is unreadable.")  # type: ignore[prop-decorator]
    @property
    def players(self) -> int | None:
        header = self._header()
        return None if header is None else header.rules.players

    @computed_field(description="Derived: the player's name in each seat (North, West, South, East tags); null when unknown.")  # type: ignore[prop-decorator]
    @property
    def seats(self) -> dict[str, str | None] | None:
        header = self._header()
        if header is None:
            return None
        return {n: (None if self.tags.get(SEAT_TAGS[n], "?") in ("?", "") else self.tags[SEAT_TAGS[n]])
                for n in header.rules.seat_names}

    @computed_field(description="Derived: the dealer's seat (Dealer tag); null when unknown.")  # type: ignore[prop-decorator]
    @property
    def dealer(self) -> str | None:
        value = self.tags.get("Dealer", "?")
        return None if value in ("?", "") else value

    @computed_field(description="Derived: each seat's starting hand (Deal tag), in the card style; null when unknown.")  # type: ignore[prop-decorator]
    @property
    def deal(self) -> dict[str, list[str]] | None:
        header = self._header()
        if header is None or header.hands is None:
            return None
        text = CARD_STYLES[self.cards]
        names = header.rules.seat_names
        return {names[s]: [text[c] for c in sorted(cards_in(m), key=hand_order)] for s, m in enumerate(header.hands)}

    @computed_field(description="Derived: the stock from top to bottom (Stock tag), in the card style; null when there is none.")  # type: ignore[prop-decorator]
    @property
    def stock(self) -> list[str] | None:
        header = self._header()
        if "Stock" not in self.tags or header is None or "Stock" in header.errors:
            return None
        return [CARD_STYLES[self.cards][c] for c in header.stock]

    @computed_field(description="Derived: the turned card that shows trump (Trump tag), in the card style; null when unknown.")  # type: ignore[prop-decorator]
    @property
    def trump(self) -> str | None:
        header = self._header()
        return None if header is None or header.turned is None else CARD_STYLES[self.cards][header.turned]

    @computed_field(description="Derived: the trump suit, as the card style writes suits; null when unknown.")  # type: ignore[prop-decorator]
    @property
    def trump_suit(self) -> str | None:
        header = self._header()
        return None if header is None or header.trump is None else SUIT_TEXT[self.cards][header.trump]

    @computed_field(description="Derived: points per side claimed by the Score tag (e.g. {\"NS\": 78, \"WE\": 62}); null when none.")  # type: ignore[prop-decorator]
    @property
    def score(self) -> dict[str, int] | None:
        header = self._header()
        if header is None or header.claimed_score is None:
            return None
        return dict(zip(header.rules.side_labels, header.claimed_score))

    @computed_field(description="Derived: the Result tag (e.g. NS+1, * when unfinished); null when there is none.")  # type: ignore[prop-decorator]
    @property
    def result(self) -> str | None:
        return self.tags.get("Result")

    @computed_field(  # type: ignore[prop-decorator]
        description="Derived: a results-only record (Play tag \"result only\", sin jugadas): the deal's cards were "
                    "not noted, only its score and result.")
    @property
    def result_only(self) -> bool:
        header = self._header()
        return header is not None and header.result_only


# ---------------------------------------------------------------------------
# The schema.

def json_schema() -> dict[str, Any]:
    """The JSON Schema of a record: what tutepgn writes, derived fields marked ``readOnly``.

    Property lists are those of the output; ``required`` lists only what input
    must give, so the one schema checks both what tutepgn writes and what it reads.
    """
    out = RecordModel.model_json_schema(mode="serialization")
    given = RecordModel.model_json_schema(mode="validation")
    out["required"] = given.get("required", [])
    out["properties"]["tags"]["additionalProperties"] = False  # tag names as the notation spells them
    out["properties"].update(ARCHIVE_FIELDS)
    for name, definition in out.get("$defs", {}).items():
        definition["required"] = given.get("$defs", {}).get(name, {}).get("required", [])
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **out}


def schema_text() -> str:
    """The schema as written to docs/schema/record.schema.json."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # python -m tutepgn.notation.jsonmodel > docs/schema/record.schema.json
    print(schema_text(), end="")
