"""The JSON form of a record: the contract of ``tute convert --to json`` and of the API.

One record is one JSON object (docs/json.md; the JSON Schema is
docs/schema/record.schema.json, written from :func:`json_schema`).  Its fields
are of two kinds:

* **authoritative**: ``version``, ``cards``, ``tags``, ``intro``, ``events``
  and ``termination``.  They hold everything a ``.tpgn`` record says, so
  text -> Record -> JSON -> Record -> text gives the same bytes as
  text -> Record -> text;
* **derived**: ``rules``, ``players``, ``seats``, ``dealer``, ``deal``,
  ``stock``, ``trump``, ``trump_suit``, ``score`` and ``result``, and each
  play's ``trick``.  They are computed from the authoritative fields when
  JSON is written, for the convenience of whoever reads it, and are ignored
  when JSON is read: edit the tags, not them.

``cards`` names the card style of the events and of the derived card fields
(any style, ``en`` and ``names`` included: JSON has no trouble with spaces).
Tag values are always in the notation's canonical ``es`` codes, whatever
``cards`` says.

>>> from tutepgn.reader import read_record
>>> rec = read_record('[Rules "playcard-2p"]\\n[Trump "12O"]\\n\\n1. N 1O! {good} 3O\\nN 40\\n*')
>>> data = json.loads(to_json(rec, cards="names"))
>>> data["events"][0]["card"], data["events"][0]["nags"], data["events"][2]["suit"]
('as de oros', [1], 'oros')
>>> from_json(to_json(rec, cards="names")).tpgn() == rec.tpgn()
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, computed_field, model_validator

from .cards import CARD_STYLES, SUIT_TEXT, TOKEN_STYLES, cards_in, hand_order
from .events import Context, Play, event_from_json
from .errors import JsonRecordError, NotationError
from .notation import CARD_TAGS, SEAT_TAGS, UNFINISHED, Note, Record, restyle, side_labels, trump_suit
from .reader import _blocks
from .rules import SEAT_NAMES

VERSION = 1
"""Version of the JSON form (the ``version`` field)."""

CardStyle = Literal["es", "es-letters", "it", "fr", "en", "names"]
Seat = Literal["N", "W", "S", "E"]

TagName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_]*$")]
TagValue = Annotated[str, StringConstraints(pattern=r"^[^\n\r]*$")]
Nag = Annotated[int, Field(ge=0, le=255)]
Termination = Annotated[str, StringConstraints(pattern=r"^(?:(?:NS|WE|[NWSE])\+(?:[0-9]+|match)|\*)$")]

_POSITION = "Where the event stood in the source .tpgn (1-based; the seat letter of a declaration); null when unknown."


# ---------------------------------------------------------------------------
# The models.

class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayEvent(_Event):
    """A card played to the current trick."""
    type: Literal["play"]
    seat: Seat = Field(description="The seat that played the card.")
    trick: int | None = Field(None, ge=1, description="Derived: the 1-based number of the trick. Ignored on input.",
                              json_schema_extra={"readOnly": True})
    card: str = Field(description="The card, in the record's card style (the `cards` field).")
    line: int | None = Field(None, ge=1, description=_POSITION)
    column: int | None = Field(None, ge=1, description=_POSITION)
    nags: list[Nag] = Field(default_factory=list, description="Annotations as numbers: ! 1, ? 2, !! 3, ?? 4, !? 5, ?! 6, $n n.")
    comments: list[str] = Field(default_factory=list, description="Comments after the event, in order.")


class CanteEvent(_Event):
    """A cante (declared rey and caballo of one suit): 40 when the suit is trump, else 20."""
    type: Literal["cante"]
    seat: Seat = Field(description="The seat that declared.")
    suit: str = Field(description="The suit, as the card style writes it (es: O C E B; en: coins cups swords clubs ...).")
    line: int | None = Field(None, ge=1, description=_POSITION)
    column: int | None = Field(None, ge=1, description=_POSITION)
    nags: list[Nag] = Field(default_factory=list, description="Annotations as numbers.")
    comments: list[str] = Field(default_factory=list, description="Comments after the event, in order.")


class TuteEvent(_Event):
    """A tute: all four reyes (12) or all four caballos (11) declared."""
    type: Literal["tute"]
    seat: Seat = Field(description="The seat that declared.")
    rank: Literal[12, 11] = Field(description="12: reyes; 11: caballos.")
    line: int | None = Field(None, ge=1, description=_POSITION)
    column: int | None = Field(None, ge=1, description=_POSITION)
    nags: list[Nag] = Field(default_factory=list, description="Annotations as numbers.")
    comments: list[str] = Field(default_factory=list, description="Comments after the event, in order.")


class ExchangeEvent(_Event):
    """The 7 (or 2) of trump given for the turned card."""
    type: Literal["exchange"]
    seat: Seat = Field(description="The seat that exchanged.")
    card: str = Field(description="The card given (the 7 or 2 of trump), in the record's card style.")
    line: int | None = Field(None, ge=1, description=_POSITION)
    column: int | None = Field(None, ge=1, description=_POSITION)
    nags: list[Nag] = Field(default_factory=list, description="Annotations as numbers.")
    comments: list[str] = Field(default_factory=list, description="Comments after the event, in order.")


EventModel = Annotated[Union[PlayEvent, CanteEvent, TuteEvent, ExchangeEvent], Field(discriminator="type")]
"""One event of the play, told apart by its ``type``."""
EVENT_MODELS: dict[str, type[_Event]] = {"play": PlayEvent, "cante": CanteEvent, "tute": TuteEvent,
                                         "exchange": ExchangeEvent}
"""The JSON model of each event class, by the class's ``kind`` (its JSON ``type``)."""

DERIVED = ("rules", "players", "seats", "dealer", "deal", "stock", "trump", "trump_suit", "score", "result")
"""The record's derived fields: written for convenience, ignored on input."""


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
        if isinstance(data, dict) and any(k in data for k in DERIVED):
            return {k: v for k, v in data.items() if k not in DERIVED}
        return data

    # -- Derived, read-only ----------------------------------------------------
    def _view(self) -> Record:
        return Record(tags=self.tags)

    @computed_field(description="Derived: the ruleset (Rules tag) in canonical form; null when unreadable.")  # type: ignore[prop-decorator]
    @property
    def rules(self) -> str | None:
        try:
            return str(self._view().rules)
        except ValueError:
            return None

    @computed_field(description="Derived: the number of players; null when the ruleset is unreadable.")  # type: ignore[prop-decorator]
    @property
    def players(self) -> int | None:
        try:
            return self._view().rules.players
        except ValueError:
            return None

    @computed_field(description="Derived: the player's name in each seat (North, West, South, East tags); null when unknown.")  # type: ignore[prop-decorator]
    @property
    def seats(self) -> dict[str, str | None] | None:
        names = _seat_names(self._view(), fallback=False)
        if names is None:
            return None
        return {n: (None if self.tags.get(SEAT_TAGS[n], "?") in ("?", "") else self.tags[SEAT_TAGS[n]]) for n in names}

    @computed_field(description="Derived: the dealer's seat (Dealer tag); null when unknown.")  # type: ignore[prop-decorator]
    @property
    def dealer(self) -> str | None:
        value = self.tags.get("Dealer", "?")
        return None if value in ("?", "") else value

    @computed_field(description="Derived: each seat's starting hand (Deal tag), in the card style; null when unknown.")  # type: ignore[prop-decorator]
    @property
    def deal(self) -> dict[str, list[str]] | None:
        view = self._view()
        try:
            hands = view.hands
            names = view.rules.seat_names
        except ValueError:
            return None
        if hands is None:
            return None
        text = CARD_STYLES[self.cards]
        return {names[s]: [text[c] for c in sorted(cards_in(m), key=hand_order)] for s, m in enumerate(hands)}

    @computed_field(description="Derived: the stock from top to bottom (Stock tag), in the card style; null when there is none.")  # type: ignore[prop-decorator]
    @property
    def stock(self) -> list[str] | None:
        if "Stock" not in self.tags:
            return None
        try:
            return [CARD_STYLES[self.cards][c] for c in self._view().stock]
        except ValueError:
            return None

    @computed_field(description="Derived: the turned card that shows trump (Trump tag), in the card style; null when unknown.")  # type: ignore[prop-decorator]
    @property
    def trump(self) -> str | None:
        try:
            turned = self._view().turned
        except ValueError:
            return None
        return None if turned is None else CARD_STYLES[self.cards][turned]

    @computed_field(description="Derived: the trump suit, as the card style writes suits; null when unknown.")  # type: ignore[prop-decorator]
    @property
    def trump_suit(self) -> str | None:
        try:
            suit = trump_suit(self._view())
        except ValueError:
            return None
        return None if suit is None else SUIT_TEXT[self.cards][suit]

    @computed_field(description="Derived: points per side claimed by the Score tag (e.g. {\"NS\": 78, \"WE\": 62}); null when none.")  # type: ignore[prop-decorator]
    @property
    def score(self) -> dict[str, int] | None:
        view = self._view()
        try:
            values = view.claimed_score
            labels = side_labels(view.rules)
        except ValueError:
            return None
        return None if values is None else dict(zip(labels, values))

    @computed_field(description="Derived: the Result tag (e.g. NS+1, * when unfinished); null when there is none.")  # type: ignore[prop-decorator]
    @property
    def result(self) -> str | None:
        return self.tags.get("Result")


def _seat_names(record: Record, fallback: bool = True) -> tuple[str, ...] | None:
    """The record's seat letters; N W S E (as the writer assumes) when its ruleset is unreadable."""
    try:
        return record.rules.seat_names
    except ValueError:
        return SEAT_NAMES[4] if fallback else None


# ---------------------------------------------------------------------------
# Errors.

def _path(loc: Iterable[object]) -> str:
    out = ""
    previous: object = None
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not (isinstance(previous, int) and part in ("play", "cante", "tute", "exchange")):
            out += f".{part}" if out else str(part)
        previous = part
    return out


def _validation_error(exc: ValidationError, **where: Any) -> JsonRecordError:
    problems = exc.errors(include_url=False)
    first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    value = first.get("input")
    shown = f" (found {json.dumps(value, ensure_ascii=False)[:60]})" if isinstance(value, (str, int, float)) else ""
    return JsonRecordError(f"{first['msg']}{shown}{more}", path=_path(first["loc"]), **where)


# ---------------------------------------------------------------------------
# Record <-> model.

def tags_in_es(tags: dict[str, str]) -> dict[str, str]:
    """A copy of a record's tags with the cards of Deal, Stock and Trump in es codes and no Cards tag.

    Raises ``ValueError`` when a Cards tag names a style that a tag cannot be written in.
    """
    out = dict(tags)
    style = out.pop("Cards", "es")
    if style not in TOKEN_STYLES:
        raise ValueError(f"[Cards] unknown card style {style!r} for tag values; use one of {', '.join(TOKEN_STYLES)}")
    if style != "es":
        for name in CARD_TAGS:
            if name in out:
                out[name] = restyle(out[name], style)
    return out


def record_to_model(record: Record, cards: str = "es") -> RecordModel:
    """The JSON model of a record, cards and suits of the events in style ``cards``."""
    if cards not in CARD_STYLES:
        raise ValueError(f"unknown card style {cards!r}; styles are {', '.join(CARD_STYLES)}")
    names = _seat_names(record)
    assert names is not None
    try:
        n = record.rules.players
    except ValueError:
        n = 4
    ctx = Context(names, None, cards)  # JSON names a cante's suit: no need of the trump
    notes = record.notes
    positions = record.positions if len(record.positions) == len(record.events) else None
    events: list[Any] = []
    trick = in_trick = 0
    for i, event in enumerate(record.events):
        data = event.to_json(ctx)
        if positions is not None:
            data["line"], data["column"] = positions[i]
        note = notes.get(i)
        if note is not None:
            data["nags"], data["comments"] = list(note.nags), list(note.comments)
        if type(event) is Play:
            if in_trick == 0:
                trick += 1
            in_trick = in_trick + 1 if in_trick + 1 < n else 0
            data["trick"] = trick
        else:
            in_trick = 0  # the writer starts a new trick line after a declaration
        events.append(EVENT_MODELS[event.kind](**data))
    intro = notes.get(-1)
    return RecordModel(cards=cards, tags=tags_in_es(record.tags), intro=list(intro.comments) if intro else [],  # type: ignore[arg-type]
                       events=events, termination=record.termination)


def model_to_record(model: RecordModel, cards: str | None = None, *, source: str | None = None, index: int = 0,
                    line: int = 1) -> Record:
    """The record a JSON model holds; ``cards`` overrides the model's ``cards`` field.

    Raises :class:`JsonRecordError` (located at ``line``) for an event that
    does not fit: a seat not at this table, a card or suit not in the style.
    """
    style = cards or model.cards
    where = {"source": source, "index": index, "line": line}
    if style not in CARD_STYLES:
        raise JsonRecordError(f"unknown card style {style!r}; styles are {', '.join(CARD_STYLES)}", path="cards",
                              **where)
    try:
        tags = tags_in_es(model.tags)
    except ValueError as exc:
        raise JsonRecordError(str(exc), path="tags.Cards", **where) from None
    record = Record(tags=tags, termination=model.termination, source=source, index=index, line=line)
    result = model.tags.get("Result")
    if result is not None and result != model.termination:
        raise JsonRecordError(f"the termination {model.termination!r} disagrees with the Result tag {result!r}",
                              path="termination", **where)
    names = _seat_names(record)
    assert names is not None
    if model.intro:
        record.notes[-1] = Note(comments=list(model.intro))
    placed = all(e.line is not None and e.column is not None for e in model.events)
    ctx = Context(names, None, style)
    for i, e in enumerate(model.events):
        try:
            event = event_from_json(dict(e), ctx, f"events[{i}].")
        except JsonRecordError as exc:
            exc.source, exc.index, exc.line = source, index, line
            raise
        record.events.append(event)
        if placed:
            record.positions.append((e.line, e.column))  # type: ignore[arg-type]
        if e.nags or e.comments:
            record.notes[i] = Note(list(e.nags), list(e.comments))
    return record


# ---------------------------------------------------------------------------
# Text.

def to_json(record: Record, cards: str = "es") -> str:
    """A record as one line of JSON (no newline at the end), for JSON lines."""
    return record_to_model(record, cards).model_dump_json()


def model_from_data(data: Any, *, source: str | None = None, index: int = 0, line: int = 1) -> RecordModel:
    """Validate decoded JSON data as a record model; :class:`JsonRecordError` when it does not fit."""
    if not isinstance(data, dict):
        raise JsonRecordError(f"a record is a JSON object, not {type(data).__name__}", source=source, index=index,
                              line=line)
    try:
        return RecordModel.model_validate(data)
    except ValidationError as exc:
        raise _validation_error(exc, source=source, index=index, line=line) from None


def from_json(text: str, *, cards: str | None = None, source: str | None = None, index: int = 0,
              line: int = 1) -> Record:
    """The record of one JSON object.  Raises :class:`JsonRecordError` (a ``ValueError``) when it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonRecordError(f"not valid JSON: {exc.msg}", line=line + exc.lineno - 1, column=exc.colno,
                              source=source, index=index) from None
    return model_to_record(model_from_data(data, source=source, index=index, line=line), cards, source=source,
                           index=index, line=line)


def _failed(exc: JsonRecordError, data: Any = None) -> Record:
    """A placeholder for a record that could not be read (lenient mode): its tags if any, and the error."""
    record = Record(source=exc.source, index=exc.index or 0, line=exc.line, errors=[exc])
    tags = data.get("tags") if isinstance(data, dict) else None
    if isinstance(tags, dict):
        record.tags.update({k: v for k, v in tags.items() if isinstance(k, str) and isinstance(v, str)})
    return record


def iter_jsonl(source: Any, *, strict: bool = False, cards: str | None = None) -> Iterator[Record]:
    """Read JSON lines (a path, a text or a text stream): one record object a line; blank lines are skipped.

    In lenient mode (the default) a line that is not a record is yielded as a
    record with no events and the error in ``record.errors``, located at its
    line; with ``strict=True`` it raises :class:`JsonRecordError`.
    """
    blocks, name, handle = _blocks(source)
    try:
        index = 0
        for lineno, text in _lines(blocks):
            if not text.strip():
                continue
            try:
                yield from_json(text, cards=cards, source=name, index=index, line=lineno)
            except JsonRecordError as exc:
                if strict:
                    raise
                try:
                    data = json.loads(text)
                except ValueError:
                    data = None
                yield _failed(exc, data)
            index += 1
    finally:
        if handle is not None:
            handle.close()


def iter_json(source: Any, *, strict: bool = False, cards: str | None = None) -> Iterator[Record]:
    """Read a JSON document (a path, a text or a text stream): an array of record objects, or one object.

    A record that does not fit is handled as in :func:`iter_jsonl`; a
    document that is not valid JSON raises :class:`JsonRecordError` in any mode.
    """
    blocks, name, handle = _blocks(source)
    try:
        text = "".join(blocks)
    finally:
        if handle is not None:
            handle.close()
    decoder = json.JSONDecoder()

    def syntax(exc: json.JSONDecodeError | None, pos: int, message: str = "") -> JsonRecordError:
        if exc is not None:
            return JsonRecordError(f"not valid JSON: {exc.msg}", line=exc.lineno, column=exc.colno, source=name)
        line = text.count("\n", 0, pos) + 1
        return JsonRecordError(message, line=line, column=pos - text.rfind("\n", 0, pos), source=name)

    ws = re.compile(r"\s*")
    pos = ws.match(text).end()  # type: ignore[union-attr]
    if text.startswith("[", pos):
        pos = ws.match(text, pos + 1).end()  # type: ignore[union-attr]
        if text.startswith("]", pos):
            items: Iterator[tuple[int, int, Any]] = iter(())
        else:
            items = iter(list(_array_items(text, pos, decoder, syntax)))  # all or nothing: a broken document is unreadable
    else:
        try:
            data, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise syntax(exc, pos) from None
        if ws.match(text, end).end() != len(text):  # type: ignore[union-attr]
            raise syntax(None, ws.match(text, end).end(), "text after the JSON document")  # type: ignore[union-attr]
        items = iter(((0, pos, data),))
    for index, start, data in items:
        line = text.count("\n", 0, start) + 1
        try:
            model = model_from_data(data, source=name, index=index, line=line)
            yield model_to_record(model, cards, source=name, index=index, line=line)
        except JsonRecordError as exc:
            if strict:
                raise
            yield _failed(exc, data)


def _array_items(text: str, pos: int, decoder: json.JSONDecoder, syntax: Any) -> Iterator[tuple[int, int, Any]]:
    """``(index, offset, value)`` of each element of the JSON array whose first element starts at ``pos``."""
    ws = re.compile(r"\s*")
    index = 0
    while True:
        try:
            data, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise syntax(exc, pos) from None
        yield index, pos, data
        index += 1
        pos = ws.match(text, end).end()
        if text.startswith(",", pos):
            pos = ws.match(text, pos + 1).end()
            continue
        if text.startswith("]", pos):
            rest = ws.match(text, pos + 1).end()
            if rest != len(text):
                raise syntax(None, rest, "text after the JSON array")
            return
        raise syntax(None, pos, "expected , or ] in the array of records")


def _lines(blocks: Iterable[str]) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of a stream of text blocks, without the newlines."""
    carry = ""
    lineno = 1
    for block in blocks:
        parts = (carry + block).split("\n")
        carry = parts.pop()
        for part in parts:
            yield lineno, part
            lineno += 1
    if carry:
        yield lineno, carry


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
    for name, definition in out.get("$defs", {}).items():
        definition["required"] = given.get("$defs", {}).get(name, {}).get("required", [])
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **out}


def schema_text() -> str:
    """The schema as written to docs/schema/record.schema.json."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # python -m tutepgn.jsonmodel > docs/schema/record.schema.json
    print(schema_text(), end="")
