"""The grammar path of the reader: any record the import format allows.

The Lark grammar in ``grammar/tute.lark`` defines the notation; this module
parses a record with it (:func:`read_grammar`), gives the tokens their meaning
(seats, cards in the record's style, declarations by
:func:`~tutepgn.events.parse_declaration`) and places every error at its
token.  ``strict=True`` raises the first error; otherwise each is kept on the
record and reading goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..cards import TOKEN_STYLES, card_reader
from ..errors import NotationError
from ..events import PLAYS, Action, Context, parse_declaration
from ..rules import SEAT_NAMES
from .record import NAG_GLYPHS, Note, Record
from .tags import CARD_TAGS, UNFINISHED, restyle, rules_of, trump_of, unescape

GRAMMAR = "tute.lark"
"""The grammar file, ``grammar/tute.lark`` in a checkout, installed as package data of ``tutepgn.grammar``."""


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The Lark LALR parser of one record, built once."""
    grammar = resources.files("tutepgn.grammar").joinpath(GRAMMAR).read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", strict=True, maybe_placeholders=False)


@dataclass
class _Item:
    """A parsed play element before seats are known: kind, tokens and notes."""
    kind: str
    token: Token
    seat: Token | None = None
    note: Note | None = None
    text: str = ""
    """A declaration's words after the seat, as :func:`~tutepgn.events.parse_declaration` reads them."""


class _Builder(Transformer):  # type: ignore[type-arg]
    """One method per grammar rule, in grammar order; each returns plain data for :func:`read_grammar`."""

    def start(self, children: list) -> object:
        return children[0]

    def record(self, children: list) -> tuple:
        *tags, play, termination = children
        return tags, play, termination

    def tag(self, children: list) -> tuple[Token, str]:
        name, value = children
        return name, unescape(value[1:-1])

    def play(self, children: list) -> tuple[list[str], list]:
        intro: list[str] = []
        items = []
        for child in children:
            if isinstance(child, tuple) and child[0] == "comment":
                intro.append(child[1])
            else:
                items.append(child)
        return intro, items

    def trick(self, children: list) -> tuple[str, Token, Token, list[_Item]]:
        number, seat, *played = children
        return "trick", number, seat, played

    def played(self, children: list) -> _Item:
        card, *notes = children
        return _Item("play", card, note=_note(notes))

    def declaration(self, children: list) -> _Item:
        seat, (text, token), *notes = children
        return _Item("declaration", token, seat=seat, note=_note(notes), text=text)

    def declared(self, children: list) -> tuple[str, Token]:
        """The declaration's words, and its last token (where an error in it is placed)."""
        return " ".join(children), children[-1]

    def annotation(self, children: list) -> tuple[str, int]:
        text = str(children[0])
        return "nag", NAG_GLYPHS[text] if text[0] != "$" else int(text[1:])

    def comment(self, children: list) -> tuple[str, str]:
        text = str(children[0])
        return "comment", unescape(text[1:-1]) if text[0] == "{" else text[1:].strip()

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


def read_grammar(text: str, first_line: int, source: str | None, index: int, style: str | None,
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
    rules = None
    try:
        rules = rules_of(record.tags.get("Rules", ""), record.tag_lines.get("Rules", first_line))
        n, names = rules.players, rules.seat_names
    except NotationError as exc:
        exc.source, exc.index = source, index
        if strict:
            raise
        errors.append(exc)
        first = next((it for it in items if isinstance(it, tuple)), None)
        n, names = (len(first[3]) if first and 2 <= len(first[3]) <= 4 else 4), SEAT_NAMES[4]
    table = card_reader(style)
    seat_of = {name: s for s, name in enumerate(names)}
    record.intro = intro
    ctx: Context | None = None
    expected_trick = 1
    tricks = [it for it in items if isinstance(it, tuple)]
    for item in items:
        if isinstance(item, tuple):
            _, number, seat_token, played = item
            if number[:-1].lstrip("0") != str(expected_trick):  # never int(): a number may have 5,000 digits
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
                _add(record, PLAYS[seat][card], p, first_line)
                seat = (seat + 1) % n
            continue
        seat = seat_of.get(str(item.seat))
        if seat is None:
            fail(f"{item.seat} is not a seat in a {n}-player game", item.seat, expected=" ".join(names))
            continue
        token = item.token
        if ctx is None:
            ctx = Context(names, None if rules is None else trump_of(record.tags, rules), style)
        try:
            event = parse_declaration(seat, item.text, ctx)
        except NotationError as exc:
            fail(exc.message, token, expected=exc.expected)
            continue
        _add(record, event, item, first_line)
    record.termination = str(termination)
    result = record.tags.get("Result")
    if result is not None and result != record.termination:
        fail(f"the termination marker {termination} disagrees with the Result tag {result!r}", termination,
             expected=result)
    return record


def _add(record: Record, event: Action, item: _Item, first_line: int) -> None:
    token = item.token if item.seat is None else item.seat
    record.add(event, first_line + token.line - 1, token.column, item.note)


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
    "GLYPH": "an annotation glyph", "NUMERIC_ANNOTATION": "$n (n from 0 to 255)", "BRACE_COMMENT": "{comment}",
    "LINE_COMMENT": "; comment", "RESULT": "a result marker like NS+1", "UNFINISHED": "*",
    "LSQB": "[", "RSQB": "]", "TUTE": "tute", "EXCHANGE": "x",
}


def _readable(terminal: str) -> str:
    return _TERMINAL_WORDS.get(terminal, terminal)


