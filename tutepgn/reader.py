"""Reading Tute PGN: one record, a string, a file, or a stream of millions of records.

Records are split line by line, without reading the whole input into memory:
a record starts at its first tag line, and a tag line after the play has
begun starts the next record (docs/notation.md, "Records in a file").  Each
record is then parsed:

* the export format, which archives hold, by a line-oriented fast path;
* anything else (comments, annotations, aliases, free layout) by the Lark
  grammar in ``grammar/tute.lark``, which defines the notation.

Both give the same :class:`~tutepgn.notation.Record` (a parity test holds them
to it).  Every syntax error is a :class:`~tutepgn.notation.NotationError`
with the source, the record index, line, column, the offending text and what
was expected.  ``strict=True`` raises the first one; otherwise the error is
kept on the record (``record.errors``) and reading goes on with the next record.

>>> rec = read_record('[Rules "playcard-2p"]\\n1. N 1O 3O\\n*')
>>> rec.events[0], rec.positions[0]
(Play(seat=0, card=9), (2, 6))
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import IO, NamedTuple, Union

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .cards import TOKEN_STYLES, card_reader
from .events import PLAYS, Action, Context, parse_declaration
from .errors import NotationError
from .notation import CARD_TAGS, TAG_NAME, NAG_GLYPHS, UNFINISHED, Note, Record, restyle, rules_of, trump_suit

GRAMMAR = "tute.lark"
"""The grammar file, ``grammar/tute.lark`` in a checkout, installed as package data of ``tutepgn.grammar``."""

Source = Union[str, os.PathLike, IO[str]]


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The Lark LALR parser of one record, built once."""
    grammar = resources.files("tutepgn.grammar").joinpath(GRAMMAR).read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", strict=True, maybe_placeholders=False)


# ---------------------------------------------------------------------------
# Splitting a stream into records.


_BOUNDARY = re.compile(r"^[ \t]*(?![\[;\s])[^\n]*\n(?:[ \t]*(?:;[^\n]*)?\n)*(?=[ \t]*\[)", re.M)
"""A play line, then blank or ``;`` lines, right before a tag line: a record ends there."""
_BLOCK = 1 << 20


def split_records(blocks: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Yield ``(first line number, text)`` of each record in a stream of text blocks.

    A tag line (starting with ``[``) after the play has begun starts the next
    record; lines starting with ``;`` before the tags are comments on the file.
    Blocks may cut records anywhere: the tail is carried to the next block.
    """
    carry = ""
    line = 1
    for block in blocks:
        text = carry + block if carry else block
        start = 0
        while (end := _next_record(text, start)) >= 0:
            chunk = text[start:end]
            yield _trim_file_comments(line, chunk)
            line += chunk.count("\n")
            start = end
        carry = text[start:]
    if carry and any(x.strip() and x.lstrip()[:1] != ";" for x in carry.split("\n")):
        yield _trim_file_comments(line, carry)


_FILE_COMMENT = re.compile(r"(?:[ \t]*(?:;[^\n]*)?\n)+")


def _trim_file_comments(line: int, chunk: str) -> tuple[int, str]:
    """Drop the ``;`` lines on the file around a record: before its first tag line, after its termination."""
    if chunk[:1] != "[":
        m = _FILE_COMMENT.match(chunk)
        if m is not None and chunk[m.end():].lstrip(" \t")[:1] == "[":
            line += chunk.count("\n", 0, m.end())
            chunk = chunk[m.end():]
    tail = chunk.rstrip()
    last = tail[tail.rfind("\n") + 1:].lstrip()
    while last[:1] == ";":
        tail = tail[:tail.rfind("\n") + 1].rstrip()
        last = tail[tail.rfind("\n") + 1:].lstrip()
    return line, chunk if len(tail) == len(chunk.rstrip()) else tail + "\n"


def _blocks(source: Source) -> tuple[Iterator[str], str | None, IO[str] | None]:
    """Text blocks of a source (path, text or text stream), its name, and the handle to close."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and not source.lstrip().startswith("[") and os.path.isfile(source)):
        handle = open(source, encoding="utf-8-sig", newline=None)
        return _read_blocks(handle), str(source), handle
    if isinstance(source, str):
        text = source[1:] if source.startswith("\ufeff") else source
        return iter((text.replace("\r\n", "\n") if "\r" in text else text,)), None, None
    name = getattr(source, "name", None)
    return _read_blocks(source), name if isinstance(name, str) else None, None


def _read_blocks(stream: IO[str]) -> Iterator[str]:
    """Blocks of about a mebibyte, BOM and CRLF removed, never splitting a CRLF."""
    first = True
    while True:
        block = stream.read(_BLOCK)
        if not block:
            return
        if first:
            block = block.lstrip("\ufeff")
            first = False
        if block.endswith("\r"):
            block += stream.read(1)
        yield block.replace("\r\n", "\n") if "\r" in block else block


# ---------------------------------------------------------------------------
# The fast path: the export format, line by line.

_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "([^"\\\n]*(?:\\.[^"\\\n]*)*)"\]\n?')  # unrolled: no alternation per character
_TRICK_LINE = re.compile(r"([0-9]+)\. ([NWSE])((?: (?:1[0-2]|[1-7])[OCEB])+)\n?")
_DECL_LINE = re.compile(r"([NWSE]) (40|20[OCEB]|tute 1[12]|x[27][OCEB])\n?")
_RESULT = re.compile(r"(?:NS|WE|[NWSE])\+(?:[0-9]+|match)|\*")
_UNESCAPE = re.compile(r"\\(.)", re.S)


_SEAT_PLAYS = tuple({word: PLAYS[seat][c] for word, c in card_reader("es").items()} for seat in range(4))
"""Each seat's play of each card, by its es-style text."""
_TURN_ORDER = {n: tuple(tuple(_SEAT_PLAYS[(seat + k) % n] for k in range(n)) for seat in range(n)) for n in (2, 3, 4)}
"""For ``n`` players and a leader: the seats' play tables in turn order."""


class _ExportPositions(Sequence[tuple[int, int]]):
    """Where each event of a record read in export form is, worked out only when first asked.

    Most records never need them (a finding does), and making a tuple per card
    would cost a tenth of the read.  Equal to the list of the same positions.
    """

    __slots__ = ("_lines", "_first_line", "_list")

    def __init__(self, play_lines: list[str], first_line: int) -> None:
        self._lines: list[str] | None = play_lines
        self._first_line = first_line
        self._list: list[tuple[int, int]] = []

    def _positions(self) -> list[tuple[int, int]]:
        if self._lines is not None:
            for offset, line in enumerate(self._lines):
                lineno = self._first_line + offset
                if line[:1].isdigit():  # "12. N 1O 3O ...": the first card is at column len("12") + 5
                    number, _, rest = line.partition(". ")
                    col = len(number) + 5
                    for word in rest[2:].split():
                        self._list.append((lineno, col))
                        col += len(word) + 1
                else:  # a declaration line
                    self._list.append((lineno, 1))
            self._lines = None
        return self._list

    def __len__(self) -> int:
        return len(self._positions())

    def __getitem__(self, index):  # type: ignore[no-untyped-def]  # int or slice, as a list's
        return self._positions()[index]

    def __eq__(self, other: object) -> bool:
        return self._positions() == (list(other) if isinstance(other, Sequence) else other)

    def __repr__(self) -> str:
        return repr(self._positions())


class _NotExport(Exception):
    """The record is not in export format: let the grammar read it."""


def _fast_record(text: str, first_line: int) -> Record:
    """Read a record in strict export format; raise _NotExport at anything else."""
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    i = 0
    n_lines = len(lines)
    while i < n_lines and lines[i][:1] == "[":
        m = _TAG_LINE.fullmatch(lines[i])
        if m is None:
            raise _NotExport
        value = m.group(2)
        if "\\" in value:
            value = _UNESCAPE.sub(r"\1", value)
        if m.group(1) in tags:
            raise _NotExport
        tags[m.group(1)] = value
        tag_lines[m.group(1)] = first_line + i
        i += 1
    if i >= n_lines or lines[i] != "" or "Cards" in tags:
        raise _NotExport
    play_start = i + 1
    record = Record(tags=tags, tag_lines=tag_lines, line=first_line)
    rules = rules_of(tags.get("Rules", ""), tag_lines.get("Rules", first_line))
    n = rules.players
    names = rules.seat_names
    seat_of = {name: s for s, name in enumerate(names)}
    events = record.events
    turn_order = _TURN_ORDER[n]
    ctx: Context | None = None  # made at the first declaration: most records have few
    expected_trick = 1
    i += 1
    last = n_lines - 1
    while i < last:
        line = lines[i]
        m = _TRICK_LINE.fullmatch(line)
        if m is not None:
            number, leader, cards = m.groups()
            if int(number) != expected_trick:
                raise _NotExport
            expected_trick += 1
            seat = seat_of.get(leader)
            if seat is None:
                raise _NotExport
            words = cards.split()
            if len(words) != n and (len(words) > n or i != last - 1 or lines[last] != UNFINISHED):
                raise _NotExport
            events.extend([plays[w] for plays, w in zip(turn_order[seat], words)])
        else:
            m = _DECL_LINE.fullmatch(line)
            if m is None:
                raise _NotExport
            seat = seat_of.get(m.group(1))
            if seat is None:
                raise _NotExport
            if ctx is None:
                ctx = Context(names, trump_suit(record))
            event = parse_declaration(seat, m.group(2), ctx)
            if event.text(ctx) != line:  # e.g. a 20 in trump, which the export format writes 40
                raise _NotExport
            events.append(event)
        i += 1
    if i != last or not _RESULT.fullmatch(lines[last]):
        raise _NotExport
    record.termination = lines[last]
    if tags.get("Result", UNFINISHED) != record.termination:
        raise _NotExport
    # Every play line was read in export form, so the writer may reuse them as they are.
    record.keep_play_text("\n".join(lines[play_start:last]))
    record.positions = _ExportPositions(lines[play_start:last], first_line + play_start)
    return record


# ---------------------------------------------------------------------------
# The grammar path: anything the import format allows.


@dataclass
class _Item:
    """A parsed play element before seats are known: kind, tokens and notes."""
    kind: str
    token: Token
    seat: Token | None = None
    value: Token | None = None
    note: Note | None = None


class _Builder(Transformer):  # type: ignore[type-arg]
    """One method per grammar rule, in grammar order; each returns plain data for :func:`_assemble`."""

    def start(self, children: list) -> object:
        return children[0]

    def record(self, children: list) -> tuple:
        *tags, play, termination = children
        return tags, play, termination

    def tag(self, children: list) -> tuple[Token, str]:
        name, value = children
        return name, _UNESCAPE.sub(r"\1", value[1:-1])

    def play(self, children: list) -> tuple[Note | None, list]:
        intro = Note()
        items = []
        for child in children:
            if isinstance(child, tuple) and child[0] == "comment":
                intro.comments.append(child[1])
            else:
                items.append(child)
        return (intro if intro.comments else None), items

    def trick(self, children: list) -> tuple[str, Token, Token, list[_Item]]:
        number, seat, *played = children
        return "trick", number, seat, played

    def played(self, children: list) -> _Item:
        card, *notes = children
        return _Item("play", card, note=_note(notes))

    def declaration(self, children: list) -> _Item:
        seat, (kind, token, value), *notes = children
        return _Item(kind, token, seat=seat, value=value, note=_note(notes))

    def cante(self, children: list) -> tuple[str, Token, None]:
        return "cante", children[0], None

    def tute(self, children: list) -> tuple[str, Token, Token]:
        return "tute", children[0], children[0]

    def exchange(self, children: list) -> tuple[str, Token, Token]:
        return "exchange", children[0], children[0]

    def annotation(self, children: list) -> tuple[str, int]:
        text = str(children[0])
        return "nag", NAG_GLYPHS[text] if text[0] != "$" else int(text[1:])

    def comment(self, children: list) -> tuple[str, str]:
        text = str(children[0])
        return "comment", _UNESCAPE.sub(r"\1", text[1:-1]) if text[0] == "{" else text[1:].strip()

    def termination(self, children: list) -> Token:
        return children[0]


def _note(parts: list[tuple[str, object]]) -> Note | None:
    if not parts:
        return None
    note = Note()
    for kind, value in parts:
        if kind == "nag":
            note.nags.append(value)  # type: ignore[arg-type]
        else:
            note.comments.append(value)  # type: ignore[arg-type]
    return note


_BUILDER = _Builder()


def _grammar_record(text: str, first_line: int, source: str | None, index: int, style: str | None,
                    strict: bool) -> Record:
    """Parse with the grammar, then give the tokens their meaning."""
    try:
        tree = parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, first_line, source, index) from None
    tags_raw, (intro, items), termination = _BUILDER.transform(tree)
    record = Record(source=source, index=index, line=first_line)
    errors = record.errors

    def fail(message: str, token: Token, expected: str = "") -> None:
        error = NotationError(message, line=first_line + token.line - 1, column=token.column, text=str(token),
                              expected=expected, source=source, index=index)
        if strict:
            raise error
        errors.append(error)

    for name, value in tags_raw:
        if name in record.tags:
            fail(f"tag {name} appears twice", name)
            continue
        record.tags[str(name)] = value
        record.tag_lines[str(name)] = first_line + name.line - 1
    style = style or record.tags.get("Cards", "es")
    if style not in TOKEN_STYLES:
        fail(f"unknown card style {style!r}", tags_raw[0][0] if tags_raw else termination,
             expected=", ".join(TOKEN_STYLES))
        style = "es"
    record.tags.pop("Cards", None)
    if style not in ("es", "es-letters"):  # the record holds canonical codes: the Cards tag is gone
        for name in CARD_TAGS:
            if name in record.tags:
                record.tags[name] = restyle(record.tags[name], style)
    try:
        rules = record.rules
        n, names = rules.players, rules.seat_names
    except NotationError as exc:
        exc.source, exc.index = source, index
        if strict:
            raise
        errors.append(exc)
        first = next((it for it in items if isinstance(it, tuple)), None)
        n, names = (len(first[3]) if first and 2 <= len(first[3]) <= 4 else 4), ("N", "W", "S", "E")
    table = card_reader(style)
    seat_of = {name: s for s, name in enumerate(names)}
    if intro is not None:
        record.notes[-1] = intro
    ctx: Context | None = None
    expected_trick = 1
    tricks = [it for it in items if isinstance(it, tuple)]
    for item in items:
        if isinstance(item, tuple):
            _, number, seat_token, played = item
            if int(number[:-1]) != expected_trick:
                fail(f"trick {number[:-1]} out of order", number, expected=f"{expected_trick}.")
            expected_trick += 1
            seat = seat_of.get(str(seat_token))
            if seat is None:
                fail(f"{seat_token} is not a seat in a {n}-player game", seat_token, expected=" ".join(names))
                seat = 0
            complete = len(played) == n
            last_open = item is tricks[-1] and termination == UNFINISHED
            if not complete and not (last_open and len(played) < n):
                fail(f"trick {number[:-1]} has {len(played)} cards; a trick has one card per player ({n})",
                     played[-1].token if len(played) > n else number, expected=f"{n} cards")
            for p in played:
                card = table.get(str(p.token).upper())
                if card is None:
                    fail(f"{p.token} is not a card in style {style}", p.token,
                         expected="a card: rank 1-7, 10, 11, 12 then suit O, C, E or B")
                    card = 0
                _add(record, PLAYS[seat][card], p)
                seat = (seat + 1) % n
            continue
        seat = seat_of.get(str(item.seat))
        if seat is None:
            fail(f"{item.seat} is not a seat in a {n}-player game", item.seat, expected=" ".join(names))
            continue
        token = item.token
        if ctx is None:
            ctx = Context(names, trump_suit(record), style)
        try:
            event = parse_declaration(seat, _DECLARATION_TEXT[item.kind] + str(token), ctx)
        except NotationError as exc:
            fail(exc.message, token, expected=exc.expected)
            continue
        _add(record, event, item)
    record.termination = str(termination)
    result = record.tags.get("Result")
    if result is not None and result != record.termination:
        fail(f"the termination marker {termination} disagrees with the Result tag {result!r}", termination,
             expected=result)
    for event_pos in range(len(record.positions)):
        line, col = record.positions[event_pos]
        record.positions[event_pos] = (line + first_line - 1, col)
    return record


_DECLARATION_TEXT = {"cante": "", "tute": "tute ", "exchange": "x"}
"""What the grammar's declaration token leaves out: the words before it."""


def _add(record: Record, event: Action, item: _Item) -> None:
    record.events.append(event)
    token = item.token if item.seat is None else item.seat
    record.positions.append((token.line, token.column))
    if item.note is not None:
        record.notes[len(record.events) - 1] = item.note


def _syntax_error(exc: UnexpectedInput, text: str, first_line: int, source: str | None,
                  index: int) -> NotationError:
    """A Lark error as a NotationError: where, what was found, what was expected."""
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedToken):
        found = str(exc.token) if exc.token.type != "$END" else ""
        expected = sorted(exc.accepts or exc.expected)
        message = "unexpected end of record" if not found else "unexpected token"
        if exc.token.type == "$END":
            lines = text.rstrip("\n").split("\n")
            line, column = len(lines), len(lines[-1]) + 1
    elif isinstance(exc, UnexpectedCharacters):
        found = text[exc.pos_in_stream:exc.pos_in_stream + 12].split("\n")[0]
        expected = sorted(exc.allowed or ())
        message = "unexpected character"
    else:
        assert isinstance(exc, UnexpectedEOF)
        found, expected, message = "", sorted(exc.expected), "unexpected end of record"
    if "RESULT" in expected or "UNFINISHED" in expected:
        message += " (every record ends with a termination marker such as NS+1 or *)"
    return NotationError(message, line=first_line + line - 1, column=column, text=found,
                         expected=", ".join(_readable(e) for e in expected), source=source, index=index)


_TERMINAL_WORDS = {
    "TAG_NAME": "a tag name", "TAG_VALUE": 'a "quoted value"', "TRICK_NUMBER": "a trick number like 3.",
    "SEAT": "a seat letter", "CARD": "a card", "CANTE": "a cante (40 or 20C)", "TUTE_RANK": "12 or 11",
    "GLYPH": "an annotation glyph", "NUMERIC_ANNOTATION": "$n", "BRACE_COMMENT": "{comment}",
    "LINE_COMMENT": "; comment", "RESULT": "a result marker like NS+1", "UNFINISHED": "*",
    "LSQB": "[", "RSQB": "]", "_TUTE": "tute", "_EXCHANGE": "x",
}


def _readable(terminal: str) -> str:
    return _TERMINAL_WORDS.get(terminal, terminal)


# ---------------------------------------------------------------------------
# The public reader.


def parse_record(text: str, *, first_line: int = 1, source: str | None = None, index: int = 0,
                 cards: str | None = None, strict: bool = False) -> Record:
    """Parse the text of one record.  Syntax errors raise :class:`NotationError`."""
    if cards is None or cards == "es":
        try:
            record = _fast_record(text, first_line)
            record.source, record.index = source, index
            return record
        except (_NotExport, KeyError, ValueError, IndexError):
            pass
    return _grammar_record(text, first_line, source, index, cards, strict)


def iter_records(source: Source, *, strict: bool = False, cards: str | None = None) -> Iterator[Record]:
    """Read every record of a path, a text or a text stream, one at a time.

    In lenient mode (the default) a record with errors is yielded with
    ``record.errors`` set (a record that could not be parsed at all has no
    events) and reading goes on; with ``strict=True`` the first error raises.
    """
    blocks, name, handle = _blocks(source)
    try:
        for index, (first_line, text) in enumerate(split_records(blocks)):
            try:
                record = parse_record(text, first_line=first_line, source=name, index=index, cards=cards,
                                      strict=strict)
            except NotationError as exc:
                exc.source, exc.index = name, index
                if strict:
                    raise
                record = Record(source=name, index=index, line=first_line, errors=[exc])
                record.tags.update(scan_tags(text))
            yield record
    finally:
        if handle is not None:
            handle.close()


def iter_raw_records(sources: Iterable[Source]) -> Iterator[tuple[str | None, int, int, str]]:
    """Split sources into records without parsing them: (source name, index, first line, text).

    The text of each record can be parsed anywhere (another process) with :func:`parse_record`.
    """
    for source in sources:
        blocks, name, handle = _blocks(source)
        try:
            for index, (first_line, text) in enumerate(split_records(blocks)):
                yield name, index, first_line, text
        finally:
            if handle is not None:
                handle.close()


def batch_records(raw: Iterable[tuple[str | None, int, int, str]],
                  size: int) -> Iterator[list[tuple[str | None, int, int, str]]]:
    """Group split records into batches of about ``size``, never splitting a run of one Match tag,
    so that whoever handles a batch (a worker process) sees each match whole."""
    batch: list[tuple[str | None, int, int, str]] = []
    last: str | None = None
    for item in raw:
        match = scan_tags(item[3]).get("Match") if "[Match " in item[3] else None
        if len(batch) >= size and (match is None or match != last):
            yield batch
            batch = []
        batch.append(item)
        last = match
    if batch:
        yield batch


def read_record(source: Source, *, strict: bool = True, cards: str | None = None) -> Record:
    """Read exactly one record (the first) from a path, text or stream; strict by default."""
    for record in iter_records(source, strict=strict, cards=cards):
        return record
    raise NotationError("no record found", line=1, column=1, expected="a record: tags, play, termination")


def scan_tags(text: str) -> dict[str, str]:
    """The tags of one record's text, without parsing its play (the first of a repeated tag wins)."""
    out: dict[str, str] = {}
    m = _TAG_SCAN.match(text)
    while m is not None:  # tag after tag, as the grammar reads them: blank lines between tags, none in the play
        name, value = m.group(1), m.group(2)
        if name not in out:
            out[name] = _UNESCAPE.sub(r"\1", value) if "\\" in value else value
        m = _TAG_SCAN.match(text, m.end())
    return out


_TAG_SCAN = re.compile(r'(?:\s|;[^\n]*+)*+\[\s*([A-Za-z][A-Za-z0-9_]*)\s*"([^"\\\n]*(?:\\.[^"\\\n]*)*)"\s*\]')


class Headers(NamedTuple):
    """A record's tags from a header-only scan, with where the record starts."""
    tags: dict[str, str]
    index: int
    line: int
    source: str | None


def scan_headers(source: Source) -> Iterator[Headers]:
    """Read only the tags of every record; the play is skipped, never parsed.

    Records are delimited as in :func:`split_records`.  The export format is
    read by jumping from record to record with ``str.find``; a record in any
    other layout has its tags read by :func:`scan_tags`.
    """
    blocks, name, handle = _blocks(source)
    index = 0
    line = 1
    carry = ""
    try:
        for block in blocks:
            text = carry + block if carry else block
            pos = 0
            while True:
                export = _export_header(text, pos)
                if export is not None:  # the common case, in one step
                    tags, lines, pos = export
                    yield Headers(tags, index, line, name)
                    index += 1
                    line += lines
                    continue
                nxt = _next_record(text, pos)
                if nxt < 0:
                    break
                start = _record_start(text, pos)
                yield Headers(_header_tags(text, start, nxt), index, line + text.count("\n", pos, start), name)
                index += 1
                line += text.count("\n", pos, nxt)
                pos = nxt
            carry = text[pos:]
        if carry.strip():
            start = _record_start(carry, 0)
            tags = _header_tags(carry, start, len(carry))
            if tags or any(x.strip() and x.lstrip()[:1] != ";" for x in carry.split("\n")):
                yield Headers(tags, index, line + carry.count("\n", 0, start), name)
    finally:
        if handle is not None:
            handle.close()


_COMMENTS_BEFORE_TAGS = re.compile(r"(?:[ \t]*(?:;[^\n]*)?\n)+(?=[ \t]*\[)")


def _record_start(text: str, pos: int) -> int:
    """Where the record at ``pos`` starts: after the ``;`` and blank lines on the file before its first tag line."""
    if text[pos:pos + 1] == "[":
        return pos
    m = _COMMENTS_BEFORE_TAGS.match(text, pos)
    return pos if m is None else m.end()


def _export_bounds(text: str, pos: int) -> tuple[int, int] | None:
    """For a record at ``pos`` in export layout (lines, a blank line, the play) with another record after
    it: where its head ends and where the next record starts.  None: let the general rule decide.
    The caller checks that the head holds tag lines only."""
    if not text.startswith("[", pos):
        return None
    head_end = text.find("\n\n", pos)
    if head_end < 0 or text[head_end + 2:head_end + 3] in ("", "[", "\n", " ", "\t", ";", "\r"):
        return None  # no blank line, or no play after it
    nxt = text.find("\n[", head_end)
    if nxt < 0 or text.find("\n ", head_end, nxt) >= 0 or text.find("\n\t", head_end, nxt) >= 0:
        return None  # the last record here, or an indented line that might begin a record
    return head_end, nxt + 1


def _next_record(text: str, pos: int) -> int:
    """Where the record starting at ``pos`` ends (the next record's first tag line), or -1."""
    bounds = _export_bounds(text, pos)
    if bounds is not None and text.count("\n[", pos, bounds[0]) == text.count("\n", pos, bounds[0]):
        return bounds[1]  # tag lines only before the blank line: the next record starts at the next tag line
    m = _BOUNDARY.search(text, pos)
    return -1 if m is None else m.end()


def _export_header(text: str, pos: int) -> tuple[dict[str, str], int, int] | None:
    """The record at ``pos`` if it is in export layout with plain tag lines, and another record follows:
    its tags, its number of lines and where the next record starts.  None: let the general path decide."""
    bounds = _export_bounds(text, pos)
    if bounds is None:
        return None
    head_end, nxt = bounds
    # Plain tag lines [Name "value"] only: two splits in C rather than a regex match per line.
    head = text[pos + 1:head_end - 2]
    lines = head.count("\n") + 1
    if not text.startswith('"]', head_end - 2) or "\\" in head or head.count('"') != 2 * lines - 1:
        return None  # an escape, or a quote inside a value
    parts = head.replace('"]\n[', ' "').split(' "')
    tags = dict(zip(parts[::2], parts[1::2]))
    if len(parts) != 2 * lines or len(tags) != lines:
        return None  # a line that is no tag line, or a repeated tag
    if not tags.keys() <= _TAG_NAMES:  # names seen before are known good; check the others once
        if not all(TAG_NAME.fullmatch(name) for name in tags):
            return None
        if len(_TAG_NAMES) < 4096:
            _TAG_NAMES.update(tags)
    return tags, lines + text.count("\n", head_end + 1, nxt), nxt


_TAG_NAMES: set[str] = set()
"""Tag names that read as names (the grammar's rule): a file repeats a few dozen."""


def _header_tags(text: str, start: int, end: int) -> dict[str, str]:
    """The tags of the record in ``text[start:end]``: one regex pass where it is in export layout."""
    head_end = text.find("\n\n", start, end)
    if head_end < 0 or text[start] != "[" or text[head_end + 2:head_end + 3] in ("[", "\n", " ", "\t"):
        return scan_tags(text[start:end])  # not export layout (maybe more tags after a blank line)
    pairs = _EXPORT_TAG.findall(text, start, head_end)
    tags = dict(pairs)
    if len(pairs) != text.count("\n", start, head_end) + 1 or len(tags) != len(pairs):
        return scan_tags(text[start:end])  # a line that is no plain tag line, an escape, or a repeated tag
    return tags


_EXPORT_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*) "([^"\\\n]*)"\]$', re.M)
"""A whole tag line of the export format, without escapes."""
