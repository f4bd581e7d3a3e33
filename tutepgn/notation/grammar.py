"""The grammar path of the reader: any record the import format allows.

The Lark grammar in ``grammar/tute.lark`` defines the notation; this module
parses a record with it (:func:`read_grammar`), gives the tokens their meaning
(seats, cards in the record's style, declarations by
:func:`~tutepgn.events.parse_declaration`) and places every error at its
token.  ``strict=True`` raises the first error; otherwise each is kept on the
record and reading goes on.  A record the grammar cannot parse raises its first
syntax error; :func:`syntax_errors` finds every one (a mistyped card is named
as such and stepped over, so the next one is found and nothing else is blamed
on it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..cards import CARD_RANK, CARD_STYLES, RANK_NAMES, RANKS, STYLE_SUITS, SUIT_NAMES, TOKEN_STYLES, card_reader
from ..errors import NotationError
from ..events import PLAYS, Action, Context, parse_declaration
from ..i18n import N_, gettext as _
from ..rules import SEAT_NAMES
from .record import NAG_GLYPHS, Note, Record
from .tags import CARD_TAGS, UNFINISHED, restyle, rules_of, trump_of, unescape

MAX_SYNTAX_ERRORS = 20
"""At most this many syntax errors are reported for one record (each costs a parse of it)."""

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


class _Builder(Transformer[Token, Any]):
    """One method per grammar rule, in grammar order; each returns plain data for :func:`read_grammar`."""

    def start(self, children: list[Any]) -> object:
        return children[0]

    def record(self, children: list[Any]) -> tuple[Any, ...]:
        *tags, play, termination = children
        return tags, play, termination

    def tag(self, children: list[Any]) -> tuple[Token, str]:
        name, value = children
        return name, unescape(value[1:-1])

    def play(self, children: list[Any]) -> tuple[list[str], list[Any]]:
        intro: list[str] = []
        items = []
        for child in children:
            if isinstance(child, tuple) and child[0] == "comment":
                intro.append(child[1])
            else:
                items.append(child)
        return intro, items

    def trick(self, children: list[Any]) -> tuple[str, Token, Token, list[_Item]]:
        number, seat, *played = children
        return "trick", number, seat, played

    def played(self, children: list[Any]) -> _Item:
        card, *notes = children
        return _Item("play", card, note=_note(notes))

    def declaration(self, children: list[Any]) -> _Item:
        seat, (text, token), *notes = children
        return _Item("declaration", token, seat=seat, note=_note(notes), text=text)

    def declared(self, children: list[Any]) -> tuple[str, Token]:
        """The declaration's words, and its last token (where an error in it is placed)."""
        return " ".join(children), children[-1]

    def annotation(self, children: list[Any]) -> tuple[str, int]:
        text = str(children[0])
        return "nag", NAG_GLYPHS[text] if text[0] != "$" else int(text[1:])

    def comment(self, children: list[Any]) -> tuple[str, str]:
        text = str(children[0])
        return "comment", unescape(text[1:-1]) if text[0] == "{" else text[1:].strip()

    def termination(self, children: list[Token]) -> Token:
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
    except UnexpectedInput:
        raise syntax_errors(text, first_line, source, index, style)[0] from None
    tags_raw, (intro, items), termination = _BUILDER.transform(tree)
    record = Record(source=source, index=index, line=first_line)
    errors = record.errors

    def fail(message: str, token: Token, expected: str = "") -> None:
        line, column = _where(token)
        error = NotationError(message, line=first_line + line - 1, column=column, text=str(token),
                              expected=expected, source=source, index=index)
        if strict:
            raise error
        errors.append(error)

    for name, value in tags_raw:
        if name in record.tags:
            fail(_("tag {name} appears twice", name=name), name)
            continue
        record.tags[str(name)] = value
        record.tag_lines[str(name)] = first_line + name.line - 1
    style = style or record.tags.get("Cards", "es")
    if style not in TOKEN_STYLES:
        fail(_("unknown card style {style}", style=repr(style)), tags_raw[0][0] if tags_raw else termination,
             expected=", ".join(TOKEN_STYLES))
        style = "es"
    record.tags.pop("Cards", None)
    if style not in ("es", "es-letters"):  # the record holds canonical codes: the Cards tag is gone
        for name in CARD_TAGS:
            if name in record.tags:
                record.tags[name] = restyle(record.tags[name], style)
    rules = None
    n: int
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
            _kind, number, seat_token, played = item
            if number[:-1].lstrip("0") != str(expected_trick):  # never int(): a number may have 5,000 digits
                fail(_("trick {trick} out of order", trick=number[:-1]), number, expected=f"{expected_trick}.")
            expected_trick += 1
            seat = seat_of.get(str(seat_token))
            if seat is None:
                fail(_("{seat} is not a seat in a {n}-player game", seat=seat_token, n=n), seat_token,
                     expected=" ".join(names))
                seat = 0
            complete = len(played) == n
            last_open = item is tricks[-1] and termination == UNFINISHED
            if not complete and not (last_open and len(played) < n):
                fail(_("trick {trick} has {cards} cards; a trick has one card per player ({n})", trick=number[:-1],
                       cards=len(played), n=n), played[-1].token if len(played) > n else number,
                     expected=_("{n} cards", n=n))
            for p in played:
                card = table.get(str(p.token).upper())
                if card is None:
                    fail(not_a_card(str(p.token), style), p.token, expected=_(CARD_EXPECTED))
                    card = 0
                _add(record, PLAYS[seat][card], p, first_line)
                seat = (seat + 1) % n
            continue
        seat = seat_of.get(str(item.seat))
        if seat is None:
            fail(_("{seat} is not a seat in a {n}-player game", seat=item.seat, n=n), item.seat,
                 expected=" ".join(names))
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
        fail(_("the termination marker {marker} disagrees with the Result tag {result}", marker=termination,
               result=repr(result)), termination, expected=result)
    return record


def _add(record: Record, event: Action, item: _Item, first_line: int) -> None:
    line, column = _where(item.token if item.seat is None else item.seat)
    record.add(event, first_line + line - 1, column, item.note)


def _where(token: Token) -> tuple[int, int]:
    """A token's line and column: Lark sets both on every token it reads (its types allow None)."""
    assert token.line is not None and token.column is not None
    return token.line, token.column


def syntax_errors(text: str, first_line: int = 1, source: str | None = None, index: int = 0,
                  style: str | None = None) -> list[NotationError]:
    """Every error the reader finds in one record's text that the grammar cannot parse: the syntax errors in
    order, then the others (none when the grammar parses it).

    After an error at a mistyped card or cante, the text is parsed again with
    a well-formed one standing in its place (no wider, so later lines and
    columns stay true), and so on; once it parses, the reader's own checks
    (a card of no style, a trick out of order) run on it.  After any other
    error the parser cannot tell where the record goes on, so the search stops
    there rather than report errors that only follow from it.
    """
    errors: list[NotationError] = []
    while len(errors) < MAX_SYNTAX_ERRORS:
        try:
            parser().parse(text)
        except UnexpectedInput as exc:
            error, repaired = _syntax_error(exc, text, first_line, source, index, style)
            errors.append(error)
            if repaired is None:
                break
            text = repaired
            continue
        if errors:  # the text with its stand-ins parses: its other errors come after the syntax errors
            errors.extend(read_grammar(text, first_line, source, index, style, False).errors)
        break
    return errors[:MAX_SYNTAX_ERRORS]


_CARD_LIKE = re.compile(r"[0-9]{1,3}[A-Za-z]?|[ASCRJQKascrjqk][A-Za-z]")
"""A word that was meant as a card: a rank (a number, or a letter rank) and a letter."""
_CANTE_LIKE = re.compile(r"[24]0\S+")
"""A word after a declaration's seat that was meant as a cante: 20 or 40 and more."""
_TRICK_NUMBER = re.compile(r"[0-9]+\.")
_WORD_END = re.compile(r"[\s{;]")
CARD_EXPECTED = N_("a card: rank 1-7, 10, 11, 12 then suit O, C, E or B")
"""What a card is, as the readers' errors say what they expected."""


def not_a_card(word: str, style: str = "es") -> str:
    """Why ``word`` is not a card of the record's style, naming the ranks and suits that style writes."""
    codes = CARD_STYLES[style]
    suits = STYLE_SUITS[style]
    order = sorted(range(10), key=lambda c: RANKS.index(CARD_RANK[c]))  # the cards of oros, by rank
    ranks = [codes[c][:-1] for c in order]
    if style == "es":
        lettered = [c for c in order if CARD_STYLES["es-letters"][c] != codes[c]]
        ranks.append(_("(or {letters}: {names})", letters=" ".join(CARD_STYLES["es-letters"][c][:-1] for c in lettered),
                       names=", ".join(RANK_NAMES[CARD_RANK[c]] for c in lettered)))
    suit_words = ", ".join(f"{letter} ({name})" for letter, name in zip(suits, SUIT_NAMES))
    if style == "es":
        return _("{word} is not a card of the Spanish pack: ranks {ranks}; suits {suits}", word=repr(word),
                 ranks=" ".join(ranks), suits=suit_words)
    return _("{word} is not a card of the Spanish pack in card style {style}: ranks {ranks}; suits {suits}",
             word=repr(word), style=style, ranks=" ".join(ranks), suits=suit_words)


def _syntax_error(exc: UnexpectedInput, text: str, first_line: int, source: str | None,
                  index: int, style: str | None) -> tuple[NotationError, str | None]:
    """A Lark error as a NotationError (where, what was found, what was expected), and the text with a stand-in
    for the mistyped card or cante it was (None: any other error, which cannot be stepped over)."""
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedToken):
        found = str(exc.token) if exc.token.type != "$END" else ""
        expected = sorted(exc.accepts or exc.expected)
        message = _("unexpected end of record") if not found else _("unexpected token")
        if exc.token.type == "$END":
            lines = text.rstrip("\n").split("\n")
            line, column = len(lines), len(lines[-1]) + 1
    elif isinstance(exc, UnexpectedCharacters):
        at = exc.pos_in_stream or 0  # set on every UnexpectedCharacters (its types allow None)
        found = text[at:at + 12].split("\n")[0]
        expected = sorted(exc.allowed or ())
        message = _("unexpected character")
    else:
        assert isinstance(exc, UnexpectedEOF)
        found, expected, message = "", sorted(exc.expected), _("unexpected end of record")
    if found:
        mistyped = _mistyped(text, exc.pos_in_stream or 0, column, style or _style_of(text))
        if mistyped is not None:
            message, column, found, start, stand_in, expected_text = mistyped
            repaired = None if stand_in is None else text[:start] + stand_in.ljust(len(found)) + text[start + len(found):]
            return NotationError(message, line=first_line + line - 1, column=column, text=found,
                                 expected=expected_text, source=source, index=index), repaired
    if "RESULT" in expected or "UNFINISHED" in expected:
        message = _("{message} (every record ends with a termination marker such as NS+1 or *)", message=message)
    return NotationError(message, line=first_line + line - 1, column=column, text=found,
                         expected=", ".join(_readable(e) for e in expected), source=source, index=index), None


def _mistyped(text: str, pos: int, column: int, style: str) -> tuple[str, int, str, int, str | None, str] | None:
    """The word at ``pos`` if it was meant as a card or a cante and is not one: the message, its column, the word,
    where it starts, a well-formed stand-in no wider than it (None if there is none), and what was expected;
    else None."""
    start = pos
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    m = _WORD_END.search(text, pos)
    word = text[start:m.start() if m else len(text)].rstrip("!?")
    if not word:
        return None
    column -= pos - start
    before = text[text.rfind("\n", 0, start) + 1:start].split()
    if style not in TOKEN_STYLES:
        return None
    suits = STYLE_SUITS[style]
    if (before and before[-1] in SEAT_NAMES[4] and not (len(before) > 1 and _TRICK_NUMBER.fullmatch(before[-2]))
            and _CANTE_LIKE.fullmatch(word)):
        return (_("{word} is not a cante: 40, or 20 and its suit ({suits})", word=repr(word), suits=", ".join(suits)),
                column, word, start, "40", _("40, or 20 then {suits} or {last}", suits=", ".join(suits[:-1]),
                                             last=suits[-1]))
    if not _CARD_LIKE.fullmatch(word) or word.upper() in card_reader(style):
        return None
    stand_in = CARD_STYLES[style][0]
    return not_a_card(word, style), column, word, start, stand_in if len(stand_in) <= len(word) else None, \
        _(CARD_EXPECTED)


def _style_of(text: str) -> str:
    """The card style a record's Cards tag names (es when it names none, or one the grammar cannot read)."""
    m = re.search(r'\[\s*Cards\s*"([^"]*)"', text)
    return m.group(1) if m and m.group(1) in TOKEN_STYLES else "es"


_TERMINAL_WORDS = {
    "TAG_NAME": N_("a tag name"), "TAG_VALUE": N_('a "quoted value"'), "TRICK_NUMBER": N_("a trick number like 3."),
    "SEAT": N_("a seat letter"), "CARD": N_("a card"), "CANTE": N_("a cante (40 or 20C)"), "TUTE_RANK": "12 or 11",
    "GLYPH": N_("an annotation glyph"), "NUMERIC_ANNOTATION": N_("$n (n from 0 to 255)"),
    "BRACE_COMMENT": "{comment}", "LINE_COMMENT": N_("; comment"), "RESULT": N_("a result marker like NS+1"),
    "UNFINISHED": "*",
    "LSQB": "[", "RSQB": "]", "TUTE": "tute", "EXCHANGE": "x",
}


def _readable(terminal: str) -> str:
    return _(_TERMINAL_WORDS[terminal]) if terminal in _TERMINAL_WORDS else terminal


