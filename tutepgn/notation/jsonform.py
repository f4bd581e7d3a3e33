"""The JSON form of records: reading and writing JSON documents and JSON lines.

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

>>> from tutepgn.notation import read_record
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
from typing import IO, Any, TypedDict

from pydantic import ValidationError

from ..cards import CARD_STYLES, TOKEN_STYLES
from ..errors import JsonRecordError, NotationError
from ..events import Context, Play, event_from_json
from ..i18n import gettext as _, ngettext, pydantic_message
from ..limits import max_json_depth, max_record_bytes
from ..rules import SEAT_NAMES
from ..visible import visible
from .jsonmodel import EVENT_MODELS, RecordModel
from .record import Note, Record, check_counts
from .split import Source, open_source, text_size
from .tags import CARD_TAGS, restyle

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
    value = first.get("input")
    message = pydantic_message(first)
    if isinstance(value, (str, int, float)):
        message = _("{problem} (found {value})", problem=message, value=json.dumps(value, ensure_ascii=False)[:60])
    if len(problems) > 1:
        message = ngettext("{errors} (and {n} more)", "{errors} (and {n} more)", len(problems) - 1, errors=message)
    return JsonRecordError(message, path=_path(first["loc"]), **where)


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_EMPTY_PAIR = re.compile(r"\[\]|\{\}")
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def check_depth(text: str, *, source: str | None = None, index: int | None = None, line: int = 1,
                start: int = 0) -> None:
    """Refuse JSON nested deeper than :func:`~tutepgn.limits.max_json_depth` before it is decoded (Python's
    decoder recurses, and dies of it): :class:`JsonRecordError` at the bracket past the limit.

    Strings and everything but brackets are dropped, then innermost pairs, level by level (a few passes
    in C for a record, whose depth is 4); only input found too deep is walked token by token, to place it.
    """
    most = max_json_depth()
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text[start:] if start else text))
    for _level in range(most):
        fewer = _EMPTY_PAIR.sub("", brackets)
        if fewer == brackets:
            break
        brackets = fewer
    if len(brackets) <= most and not _EMPTY_PAIR.search(brackets):
        return  # nothing left, or a few brackets that do not pair: the decoder says what is wrong
    depth = 0
    for m in _JSON_TOKEN.finditer(text, start):
        token = m[0]
        depth += 1 if token in "[{" else -1 if token in "]}" else 0
        if depth > most:
            pos = m.start()
            raise JsonRecordError(_("JSON nested deeper than {most} levels (TUTEPGN_MAX_JSON_DEPTH): refused "
                                    "undecoded; a record needs 4", most=most), source=source, index=index,
                                  line=line + text.count("\n", 0, pos), column=pos - text.rfind("\n", 0, pos))


# ---------------------------------------------------------------------------
# Record <-> model.

def tags_in_es(tags: dict[str, str]) -> dict[str, str]:
    """A copy of a record's tags with the cards of Deal, Stock and Trump in es codes and no Cards tag.

    Raises ``ValueError`` when a Cards tag names a style that a tag cannot be written in.
    """
    out = dict(tags)
    style = out.pop("Cards", "es")
    if style not in TOKEN_STYLES:
        raise ValueError(_("[Cards] unknown card style {style!r} for tag values; use one of {styles}", style=style,
                           styles=", ".join(TOKEN_STYLES)))
    if style != "es":
        for name in CARD_TAGS:
            if name in out:
                out[name] = restyle(out[name], style)
    return out


def _seat_names(record: Record) -> tuple[str, ...]:
    """The record's seat letters; N W S E (as the writer assumes) when its ruleset is unreadable."""
    header = record.header_or_none()
    return SEAT_NAMES[4] if header is None else header.rules.seat_names


def record_to_model(record: Record, cards: str = "es") -> RecordModel:
    """The JSON model of a record, cards and suits of the events in style ``cards``."""
    if cards not in CARD_STYLES:
        raise ValueError(_("unknown card style {style!r}; styles are {styles}", style=cards,
                           styles=", ".join(CARD_STYLES)))
    names = _seat_names(record)
    n = len(names)
    ctx = Context(names, None, cards)  # JSON names a cante's suit: no need of the trump
    events: list[Any] = []
    trick = in_trick = 0
    for entry in record.entries:
        event = entry.event
        data = event.to_json(ctx)
        if entry.line is not None:
            data["line"], data["column"] = entry.line, entry.column
        if entry.note is not None:
            data["nags"], data["comments"] = list(entry.note.nags), list(entry.note.comments)
        if type(event) is Play:
            if in_trick == 0:
                trick += 1
            in_trick = in_trick + 1 if in_trick + 1 < n else 0
            data["trick"] = trick
        else:
            in_trick = 0  # the writer starts a new trick line after a declaration
        events.append(EVENT_MODELS[event.kind](**data))
    return RecordModel(cards=cards, tags=tags_in_es(record.tags), intro=list(record.intro),
                       events=events, termination=record.termination)


class _Where(TypedDict):
    """Where a JSON record stands, for its errors."""

    source: str | None
    index: int
    line: int


def model_to_record(model: RecordModel, cards: str | None = None, *, source: str | None = None, index: int = 0,
                    line: int = 1) -> Record:
    """The record a JSON model holds; ``cards`` overrides the model's ``cards`` field.

    Raises :class:`JsonRecordError` (located at ``line``) for an event that
    does not fit: a seat not at this table, a card or suit not in the style.
    """
    style = cards or model.cards
    where = _Where(source=source, index=index, line=line)
    if style not in CARD_STYLES:
        raise JsonRecordError(_("unknown card style {style!r}; styles are {styles}", style=style,
                                styles=", ".join(CARD_STYLES)), path="cards", **where)
    try:
        tags = tags_in_es(model.tags)
    except ValueError as exc:
        raise JsonRecordError(str(exc), path="tags.Cards", **where) from None
    record = Record(tags=tags, intro=list(model.intro), termination=model.termination, source=source, index=index,
                    line=line)
    result = model.tags.get("Result")
    if result is not None and result != model.termination:
        raise JsonRecordError(_("the termination {termination!r} disagrees with the Result tag {result!r}",
                                termination=model.termination, result=result), path="termination", **where)
    ctx = Context(_seat_names(record), None, style)
    placed = all(e.line is not None and e.column is not None for e in model.events)
    for i, e in enumerate(model.events):
        try:
            event = event_from_json(dict(e), ctx, f"events[{i}].")
        except JsonRecordError as exc:
            exc.source, exc.index, exc.line = source, index, line
            raise
        record.add(event, e.line if placed else None, e.column if placed else None,
                   Note(list(e.nags), list(e.comments)) if e.nags or e.comments else None)
    try:
        check_counts(record)
    except NotationError as exc:
        raise JsonRecordError(exc.message, path="events", **where) from None
    return record


# ---------------------------------------------------------------------------
# Text.

def to_json(record: Record, cards: str = "es") -> str:
    """A record as one line of JSON (no newline at the end), for JSON lines; DEL, C1 and the bidirectional
    controls in its text written as JSON escapes (``\\u009b``: the same text, which a terminal showing the line does
    not obey; :func:`tutepgn.visible.visible`)."""
    return visible(record_to_model(record, cards).model_dump_json(), "json")


def model_from_data(data: Any, *, source: str | None = None, index: int = 0, line: int = 1) -> RecordModel:
    """Validate decoded JSON data as a record model; :class:`JsonRecordError` when it does not fit."""
    if not isinstance(data, dict):
        raise JsonRecordError(_("a record is a JSON object, not {kind}", kind=type(data).__name__), source=source,
                              index=index, line=line)
    try:
        return RecordModel.model_validate(data)
    except ValidationError as exc:
        raise _validation_error(exc, source=source, index=index, line=line) from None


def from_json(text: str, *, cards: str | None = None, source: str | None = None, index: int = 0,
              line: int = 1) -> Record:
    """The record of one JSON object.  Raises :class:`JsonRecordError` (a ``ValueError``) when it is not one,
    or when it is too large or too deep to decode (:mod:`tutepgn.limits`)."""
    data = _decode(text, source=source, index=index, line=line)
    return model_to_record(model_from_data(data, source=source, index=index, line=line), cards, source=source,
                           index=index, line=line)


def _decode(text: str, *, source: str | None, index: int, line: int) -> Any:
    """One JSON record's text decoded, unless it is over the size or depth limit: :class:`JsonRecordError`."""
    limit = max_record_bytes()
    if len(text) > limit >> 2 and text_size(text) > limit:
        raise JsonRecordError(_("the record is larger than {limit:,} bytes (TUTEPGN_MAX_RECORD_BYTES): refused "
                                "undecoded", limit=limit), source=source, index=index, line=line)
    check_depth(text, source=source, index=index, line=line)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonRecordError(_("not valid JSON: {reason}", reason=exc.msg), line=line + exc.lineno - 1,
                              column=exc.colno, source=source, index=index) from None
    except ValueError as exc:  # a number of 4,300 digits or more
        raise JsonRecordError(_("not readable JSON: {reason}", reason=exc), line=line, source=source,
                              index=index) from None


def _failed(exc: JsonRecordError, data: Any = None) -> Record:
    """The stand-in for a record that could not be read (lenient mode): its tags if any, and the error."""
    tags = data.get("tags") if isinstance(data, dict) else None
    tags = {k: v for k, v in tags.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(tags, dict) else {}
    return Record.unreadable(exc, tags, exc.line)


def iter_jsonl(source: Source, *, strict: bool = False, cards: str | None = None) -> Iterator[Record]:
    """Read JSON lines (a path, a text or a text stream): one record object a line; blank lines are skipped.

    In lenient mode (the default) a line that is not a record is yielded as a
    record with no events and the error in ``record.errors``, located at its
    line; with ``strict=True`` it raises :class:`JsonRecordError`.
    """
    blocks, name, handle = open_source(source)
    try:
        index = 0
        for lineno, text in _lines(blocks):
            if not text.strip():
                continue
            data = None
            try:
                data = _decode(text, source=name, index=index, line=lineno)
                record = model_to_record(model_from_data(data, source=name, index=index, line=lineno), cards,
                                         source=name, index=index, line=lineno)
            except JsonRecordError as exc:
                if strict:
                    raise
                record = _failed(exc, data)
            yield record
            index += 1
    finally:
        if handle is not None:
            handle.close()


def iter_json(source: Source, *, strict: bool = False, cards: str | None = None) -> Iterator[Record]:
    """Read a JSON document (a path, a text or a text stream): an array of record objects, or one object.

    A record that does not fit is handled as in :func:`iter_jsonl`; a
    document that is not valid JSON raises :class:`JsonRecordError` in any mode.
    """
    blocks, name, handle = open_source(source)
    try:
        text = "".join(blocks)
    finally:
        if handle is not None:
            handle.close()
    check_depth(text, source=name)
    decoder = json.JSONDecoder()

    def syntax(exc: ValueError | None, pos: int, message: str = "") -> JsonRecordError:
        if isinstance(exc, json.JSONDecodeError):
            return JsonRecordError(_("not valid JSON: {reason}", reason=exc.msg), line=exc.lineno, column=exc.colno,
                                   source=name)
        message = message or _("not readable JSON: {reason}", reason=exc)  # a number of 4,300 digits or more
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
        except ValueError as exc:
            raise syntax(exc, pos) from None
        if ws.match(text, end).end() != len(text):  # type: ignore[union-attr]
            raise syntax(None, ws.match(text, end).end(), _("text after the JSON document"))  # type: ignore[union-attr]
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

    def skip(at: int) -> int:
        """Past the white space at ``at`` (``\\s*`` matches anywhere)."""
        space = ws.match(text, at)
        assert space is not None
        return space.end()

    index = 0
    while True:
        try:
            data, end = decoder.raw_decode(text, pos)
        except ValueError as exc:
            raise syntax(exc, pos) from None
        yield index, pos, data
        index += 1
        pos = skip(end)
        if text.startswith(",", pos):
            pos = skip(pos + 1)
            continue
        if text.startswith("]", pos):
            rest = skip(pos + 1)
            if rest != len(text):
                raise syntax(None, rest, _("text after the JSON array"))
            return
        raise syntax(None, pos, _("expected , or ] in the array of records"))


def _lines(blocks: Iterable[str]) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of a stream of text blocks, without the newlines.  A line longer than a record
    may be is cut short (still too long: the record is refused), so that it never fills the memory."""
    carry = ""
    lineno = 1
    limit = max_record_bytes()
    for block in blocks:
        parts = (carry + block).split("\n")
        carry = parts.pop()
        for part in parts:
            yield lineno, part
            lineno += 1
        if len(carry) > limit:
            carry = carry[:limit + 1]
    if carry:
        yield lineno, carry




# ---------------------------------------------------------------------------
# Many records, as endplay's parsers read and write them.

def iter_load(source: Source, *, lines: bool = False, strict: bool = False, cards: str | None = None
              ) -> Iterator[Record]:
    """Every record of a JSON document (an array or one object), or of JSON lines with ``lines=True``."""
    return (iter_jsonl if lines else iter_json)(source, strict=strict, cards=cards)


def loads(text: str, *, lines: bool = False, strict: bool = False, cards: str | None = None) -> list[Record]:
    """Every record of a JSON text (JSON lines with ``lines=True``)."""
    return list(iter_load(text, lines=lines, strict=strict, cards=cards))


def load(fp: IO[str], *, lines: bool = False, strict: bool = False, cards: str | None = None) -> list[Record]:
    """Every record of a JSON text stream (JSON lines with ``lines=True``)."""
    return list(iter_load(fp, lines=lines, strict=strict, cards=cards))


def join(texts: Iterable[str], *, lines: bool = False) -> Iterator[str]:
    """Records written one by one (:func:`to_json`) as the pieces of a file.

    A JSON array, one record a line between ``[`` and ``]`` (``[]`` when there
    is none); with ``lines=True``, JSON lines.  Both end with a newline.
    """
    if lines:
        for text in texts:
            yield text + "\n"
        return
    first = True
    for text in texts:
        yield ("[\n" if first else ",\n") + text
        first = False
    yield "[]\n" if first else "\n]\n"


def iter_dump(records: Iterable[Record], cards: str = "es", *, lines: bool = False) -> Iterator[str]:
    """Records as a JSON array (JSON lines with ``lines=True``), piece by piece, for streaming."""
    return join((to_json(record, cards) for record in records), lines=lines)


def dumps(records: Iterable[Record], cards: str = "es", *, lines: bool = False) -> str:
    """Records as a JSON array (JSON lines with ``lines=True``), as one text."""
    return "".join(iter_dump(records, cards, lines=lines))


def dump(records: Iterable[Record], fp: IO[str], cards: str = "es", *, lines: bool = False) -> None:
    """Write records as a JSON array (JSON lines with ``lines=True``) to a text stream."""
    fp.writelines(iter_dump(records, cards, lines=lines))
