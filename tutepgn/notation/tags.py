"""Tag values: what each known tag means, read once into a :class:`Header`.

A record's tags are kept as text (:attr:`Record.tags`); :class:`Header` is
their meaning: the ruleset, the dealer, the hands, the stock, the turned card
and the trump, the claimed score, the match standing and target.  Reading a
header is where a tag is found wrong, and the error names the tag
(``[Deal] ...``) and its line.  The patterns and escapes of the syntax that
the readers and the writer share live here too.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from functools import lru_cache, reduce
from itertools import repeat
from operator import getitem, or_
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..cards import CARD_STYLES, SUIT_LETTERS, Card, Mask, Suit, card_reader
from ..engine import Deal
from ..score import ScoreSheet
from ..errors import NotationError, TuteError, UnknownRuleset
from ..i18n import gettext as _
from ..limits import INT32_MAX, MAX_RULE_VALUE, YEAR_MAX
from ..rules import SEAT_NAMES, Ruleset

if TYPE_CHECKING:
    from .record import Record

TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
"""A tag name, as the grammar reads one: case-sensitive, a letter first."""
TAG_VALUE = r'[^"\\\n]*(?:\\.[^"\\\n]*)*'
"""The inside of a quoted tag value: ``\\"`` and ``\\\\`` are its escapes (unrolled: no alternation per character)."""
TAG_TEXT = re.compile(r"[^\n\r]*")
"""What a tag value may hold once unescaped: anything but a line break (a ``\\r`` too: a file's line ends are read
as ``\\n``), so that the value written between quotes (:func:`escape_tag_value`) reads back as itself."""
RESULT = re.compile(r"(?:NS|WE|[NWSE])\+(?:[0-9]+|match)|\*")
"""A termination marker (and Result tag value): ``NS+1``, ``N+match``, or ``*``."""
UNFINISHED = "*"

SEAT_TAGS = {"N": "North", "W": "West", "S": "South", "E": "East"}
"""The tag that names the player in each seat."""
CARD_TAGS = ("Deal", "Stock", "Trump")
"""Tags whose values hold cards."""
PLAY_TAG, RESULT_ONLY = "Play", "result only"
"""``[Play "result only"]``: a results-only record (in Spanish, *sin jugadas*), a deal whose cards were not noted,
known by its players, dealer, ruleset, Score and Result alone; it holds no play."""
RESULT_ONLY_WORDS = frozenset({RESULT_ONLY, "sin jugadas"})
"""The Play tag values the import format reads (the Spanish words too); export writes :data:`RESULT_ONLY`."""

_UNESCAPE = re.compile(r"\\(.)", re.S)
_TAG_ESCAPE = str.maketrans({"\\": "\\\\", '"': '\\"'})


def unescape(text: str) -> str:
    """A tag value or brace comment without its backslash escapes."""
    return _UNESCAPE.sub(r"\1", text) if "\\" in text else text


def escape_tag_value(value: str) -> str:
    """A tag value ready to go between double quotes."""
    return value.translate(_TAG_ESCAPE)


def unwritable_tag(name: str, value: str) -> str | None:
    """Why a tag cannot be written as it is and read back (a name the grammar does not read, a value holding a
    line break), or None: the one rule, for tags made by hand (the recorder, the JSON form)."""
    if not TAG_NAME.fullmatch(name):
        return _("{name} is not a tag name: a letter, then letters, digits or _ (e.g. Event, DealNo)",
                 name=_shown(name))
    if not TAG_TEXT.fullmatch(value):
        return _("the {name} tag holds a line break; a tag value is one line", name=name)
    return None


def escape_comment(text: str) -> str:
    """A comment ready to go between braces (a line starting with ``[`` would read as a tag)."""
    text = text.replace("\\", "\\\\").replace("}", "\\}")
    return re.sub(r"\n\[", "\n\\\\[", text)


_CARD_WORD = re.compile(r"[^\s:]+")
"""A card in a Deal, Stock or Trump tag value (seat letters before a colon never match a card)."""


def restyle(text: str, source: str, target: str = "es") -> str:
    """A tag value with its cards rewritten from one card style into another; other words stay as they are."""
    read = card_reader(source)
    write = CARD_STYLES[target]
    return _CARD_WORD.sub(lambda m: write[read[m[0].upper()]] if m[0].upper() in read else m[0], text)


_RULESETS: dict[str, Ruleset] = {}
"""Rulesets by Rules tag value: archives repeat a few specs, and a record asks for its ruleset often."""


def rules_of(spec: str, line: int = 1) -> Ruleset:
    """The ruleset of a Rules tag value (cached); :class:`NotationError` when missing or unknown."""
    rules = _RULESETS.get(spec)
    if rules is not None:
        return rules
    if not spec.strip() or spec.strip() == "?":
        raise NotationError(_("[Rules] the Rules tag is missing: every record names its ruleset"), line=line, column=1,
                            expected='[Rules "PRESET option=value ..."]')
    try:
        rules = Ruleset.from_spec(_rule_numbers(spec))
        _rule_values(rules)
    except TuteError as exc:
        raise NotationError(_("[Rules] {reason}", reason=exc), line=line, column=1, text=spec) from None
    if len(_RULESETS) >= 256:
        _RULESETS.clear()
    _RULESETS[spec] = rules
    return rules


_WIDE_OPTIONS = frozenset({"match_target", "match_target_choices", "tute_wins_match_below_target"})
"""Ruleset options counted in match points, as wide as the MatchTarget tag; every other number is a small one."""
_ANY_DIGITS = re.compile(r"\d+")
"""A run of digits as Python reads them (``int`` takes ``²`` and Arabic-Indic digits): each must be ASCII here."""


def number_error(text: str, low: int, high: int) -> str | None:
    """Why ``text`` is not a whole number from ``low`` to ``high`` written in ASCII digits, or None when it is one.

    Only ``0``-``9`` are digits here (``int`` also reads ``²`` and other Unicode digits), and the length is
    checked before ``int`` (which refuses numbers of 4,300 digits and more): the one reader of numbers in tags.
    """
    digits = text[1:] if text[:1] == "-" and low < 0 else text
    if not digits or not digits.isascii() or not digits.isdigit():
        return _("{value} is not a whole number in digits 0-9 (from {low} to {high})", value=_shown(text), low=low,
                 high=high)
    if len(digits.lstrip("0")) > len(str(max(abs(low), high))) or not low <= _whole(text) <= high:
        return _("{value} is out of range: from {low} to {high}", value=_shown(text), low=low, high=high)
    return None


def _shown(text: str) -> str:
    """A value as an error quotes it: at most 24 characters of it."""
    return repr(text[:24]) + ("..." if len(text) > 24 else "")


def _whole(text: str) -> int:
    """An ASCII number of few significant digits as an int (leading zeros never reach ``int``'s digit limit)."""
    value = int(text.lstrip("-").lstrip("0") or "0")
    return -value if text[:1] == "-" else value


def read_number(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high`` (see :func:`number_error`), or None."""
    if 0 < len(text) < 10 and text.isascii() and text.isdigit():  # the common case, read at once: no sign, short
        value = int(text)
        return value if low <= value <= high else None
    return None if number_error(text, low, high) else _whole(text)


def _rule_numbers(spec: str) -> str:
    """The spec, once every number in it is ASCII and short enough to read (else :class:`UnknownRuleset`)."""
    for m in _ANY_DIGITS.finditer(spec):
        if not m[0].isascii() or len(m[0].lstrip("0")) > len(str(INT32_MAX)):
            raise UnknownRuleset(_("{value}: numbers are written in digits 0-9, at most {most}", value=_shown(m[0]),
                                   most=INT32_MAX))
    return spec


def _rule_values(rules: Ruleset) -> None:
    """Refuse a ruleset whose numbers the archive cannot store: points and the like over 255, match targets
    over 2^31-1, anything below 0."""
    for name, value in rules.overrides().items():
        high = INT32_MAX if name in _WIDE_OPTIONS else MAX_RULE_VALUE
        for v in value if isinstance(value, tuple) else (value,):
            if type(v) is int and not 0 <= v <= high:
                raise UnknownRuleset(_("option {name}={value} is out of range: from 0 to {high}", name=name, value=v,
                                       high=high))


def format_side_values(values: list[int] | tuple[int, ...], rules: Ruleset) -> str:
    """``NS:78 WE:62``: one value per side."""
    return " ".join(f"{label}:{v}" for label, v in zip(rules.side_labels, values))


_SIDE_FORMS: dict[tuple[str, ...], re.Pattern[str]] = {}
"""Per side labels, the form a writer gives side values: every side in order, short numbers (read in one step)."""


def parse_side_values(text: str, rules: Ruleset) -> tuple[int, ...] | None:
    """Read ``NS:78 WE:62`` (sides in any order) into values by side index; None when it is not that."""
    labels = rules.side_labels
    form = _SIDE_FORMS.get(labels)
    if form is None:
        form = _SIDE_FORMS[labels] = re.compile(" ".join(f"{re.escape(label)}:([0-9]{{1,9}})" for label in labels))
    plain = form.fullmatch(text)
    if plain is not None:
        return tuple(map(int, plain.groups()))
    values: dict[str, int] = {}
    for part in text.split():
        label, _, value = part.partition(":")
        number = read_number(value, -INT32_MAX, INT32_MAX)
        if label not in labels or number is None:
            return None
        values[label] = number
    if set(values) != set(labels):
        return None
    return tuple(values[label] for label in labels)


def result_text(sheet: ScoreSheet, rules: Ruleset) -> str:
    """The Result of a finished deal: ``NS+1``, ``N+2``, ``NS+match``; ``*`` if unfinished."""
    if sheet.winner is None:
        return UNFINISHED
    label = rules.side_labels[sheet.winner]
    return f"{label}+match" if sheet.wins_match else f"{label}+{sheet.match_points[sheet.winner]}"


# ---------------------------------------------------------------------------
# The header.

HEADER_TAGS = ("Rules", "Cards", "Dealer", "Deal", "Stock", "Trump", "DealNo", "Score", "MatchScore", "MatchTarget",
               "Date", "Play")
"""The tags a :class:`Header` reads, in the order it reads them."""


@dataclass(eq=False)
class Header:
    """What a record's tags mean, read once.

    A value is None when its tag is missing, or (read with ``lenient=True``)
    when it cannot be read: then ``errors`` holds the tag's error, by tag
    name.  It keeps the record's tags and where they stand, to place errors.  ``trump`` is the turned card's suit, or the first-deal suit where
    the ruleset fixes it; ``first_of_match`` is ``DealNo "1"``; ``result_only`` is ``[Play "result only"]``.
    """

    tags: dict[str, str] = field(repr=False)
    tag_lines: dict[str, int] = field(repr=False)
    line: int = field(repr=False)
    source: str | None = field(repr=False)
    index: int = field(repr=False)
    rules: Ruleset
    dealer: int | None = None
    hands: tuple[Mask, ...] | None = None
    stock: tuple[Card, ...] = ()
    turned: Card | None = None
    trump: Suit | None = None
    deal_no: int | None = None
    first_of_match: bool = False
    claimed_score: tuple[int, ...] | None = None
    match_score: tuple[int, ...] | None = None
    match_target: int | None = None
    date: dt.date | None = None
    year: int | None = None
    result_only: bool = False
    errors: dict[str, NotationError] = field(default_factory=dict)

    def deal(self, hands: list[Mask] | None = None, stock: list[Card] | None = None) -> Deal:
        """The engine deal at its start; ``hands`` and ``stock`` stand in for a missing Deal or Stock tag.

        Raises :class:`NotationError` at the tag at fault: a tag that could not
        be read, a Deal, Dealer or Trump tag missing, or cards the engine
        refuses (the engine's ``ValueError`` is the error's cause).
        """
        for name in ("Dealer", "Deal", "Stock", "Trump"):
            if name in self.errors:
                raise self.errors[name]
        hands = list(self.hands) if hands is None and self.hands is not None else hands
        if hands is None:
            raise tag_error(self, "Deal", _("the record has no Deal tag: the starting hands are unknown"))
        if self.dealer is None:
            raise tag_error(self, "Dealer", _("the record has no Dealer tag"))
        if self.turned is None:
            raise tag_error(self, "Trump", _("the record has no Trump tag: the turned card is unknown"))
        try:
            return Deal(self.rules, hands, list(self.stock) if stock is None else stock, self.turned, self.dealer,
                        first_of_match=self.first_of_match)
        except ValueError as exc:
            raise tag_error(self, "Deal", str(exc)) from exc


def trump_of(tags: dict[str, str], rules: Ruleset) -> Suit | None:
    """The trump suit the tags give: the first-deal suit where the ruleset fixes one (``DealNo "1"``), else the
    turned card's (Trump tag); None when unknown or unreadable.  Cheap: the reader asks at a record's first cante."""
    if rules.first_deal_trump and tags.get("DealNo") == "1":
        return SUIT_LETTERS.index(rules.first_deal_trump)
    turned = card_reader(tags.get("Cards", "es")).get(tags.get("Trump", "").strip().upper())
    return None if turned is None else turned // 10


def tag_error(record: Record | Header, name: str, message: str, *, text: str | None = None) -> NotationError:
    """An error at a tag's line, its message starting with the tag's name."""
    return NotationError(_("[{tag}] {message}", tag=name, message=message), line=record.tag_lines.get(name, record.line), column=1,
                         text=record.tags.get(name, "") if text is None else text, source=record.source,
                         index=record.index)


def read_header(record: Record, rules: Ruleset | None = None, *, lenient: bool = False) -> Header:
    """Read the tags of :data:`HEADER_TAGS`; see :meth:`Record.header`."""
    tags = record.tags
    if rules is None:
        rules = rules_of(tags.get("Rules", ""), record.tag_lines.get("Rules", record.line))
    header = Header(tags, record.tag_lines, record.line, record.source, record.index, rules)
    style = tags.get("Cards", "es")

    def read(name: str, parse, *args) -> object:  # type: ignore[no-untyped-def]
        try:
            return parse(*args)
        except NotationError as exc:
            if not lenient:
                raise
            header.errors[name] = exc
            return None

    if tags.get("Dealer", "?") not in ("?", ""):
        header.dealer = read("Dealer", _seat, record, rules, tags["Dealer"], "Dealer")  # type: ignore[assignment]
    if "Deal" in tags:
        header.hands = read("Deal", _hands, record, rules, style)  # type: ignore[assignment]
    if "Stock" in tags:
        header.stock = read("Stock", lambda: tuple(_cards(record, "Stock", style))) or ()  # type: ignore[assignment]
    if "Trump" in tags:
        header.turned = read("Trump", _turned, record, style)  # type: ignore[assignment]
    deal_no = tags.get("DealNo", "")
    if deal_no not in ("", "?"):
        header.deal_no = read("DealNo", lambda: _number(record, "DealNo", 1, INT32_MAX))  # type: ignore[assignment]
    header.first_of_match = deal_no == "1"
    if "Date" in tags:
        header.date, header.year = read("Date", _date, record) or (None, None)  # type: ignore[misc]
    header.trump = trump_of(tags, rules)
    if PLAY_TAG in tags:
        header.result_only = bool(read(PLAY_TAG, _play, record))
    if "Score" in tags:
        header.claimed_score = read("Score", lambda: _side_values(  # type: ignore[assignment]
            record, rules, "Score", lambda: _("{value}: write one value per side, e.g. {example}",
                                              value=repr(tags["Score"]),
                                              example=format_side_values([78, 52, 0][:rules.sides], rules)), text=""))
    if "MatchScore" in tags:
        header.match_score = read("MatchScore", lambda: _side_values(  # type: ignore[assignment]
            record, rules, "MatchScore", lambda: _("write e.g. NS:2 WE:1")))
    target = tags.get("MatchTarget")
    if target is not None:
        header.match_target = read("MatchTarget", lambda: _match_target(record, target))  # type: ignore[assignment]
    return header


def _seat(record: Record, rules: Ruleset, letter: str, tag: str) -> int:
    names = rules.seat_names
    if letter not in names:
        raise tag_error(record, tag, _("{letter} is not a seat here; seats are {seats}", letter=repr(letter),
                                       seats=" ".join(names)))
    return names.index(letter)


def _play(record: Record) -> bool:
    """The Play tag: ``result only`` is its one value (``sin jugadas`` read as the same, in any case)."""
    if record.tags[PLAY_TAG].strip().lower() not in RESULT_ONLY_WORDS:
        raise tag_error(record, PLAY_TAG, _("{value}: the one value is \"{only}\" (a deal whose cards were not "
                                            "noted)", value=_shown(record.tags[PLAY_TAG]), only=RESULT_ONLY))
    return True


def _cards(record: Record, name: str, style: str) -> list[Card]:
    table = card_reader(style)
    words = record.tags[name].split()
    found = list(map(table.get, words))  # the common case: every card written as the table keys it, upper case
    if None not in found:
        return found  # type: ignore[return-value]  # no None in it
    out = []
    for word in words:
        card = table.get(word.upper())
        if card is None:
            raise tag_error(record, name, _("{word} is not a card in style {style}", word=repr(word), style=style))
        out.append(card)
    return out


def _turned(record: Record, style: str) -> Card:
    cards = _cards(record, "Trump", style)
    if len(cards) != 1:
        raise tag_error(record, "Trump", _("give the one turned card"))
    return cards[0]


def _side_values(record: Record, rules: Ruleset, name: str, message: Callable[[], str],
                 text: str | None = None) -> tuple[int, ...]:
    values = parse_side_values(record.tags[name], rules)
    if values is None:
        numbers = (part.partition(":")[2] for part in record.tags[name].split())
        problem = next(filter(None, (number_error(v, -INT32_MAX, INT32_MAX) for v in numbers if v)), None)
        raise tag_error(record, name, problem or message(), text=text)
    return values


def _match_target(record: Record, text: str) -> int:
    problem = number_error(text, 1, INT32_MAX)
    if problem is not None:
        raise NotationError(_("MatchTarget {problem}", problem=problem), column=1, text=text,
                            line=record.tag_lines.get("MatchTarget", record.line), source=record.source,
                            index=record.index)
    return _whole(text)


def _number(record: Record, name: str, low: int, high: int) -> int:
    problem = number_error(record.tags[name], low, high)
    if problem is not None:
        raise tag_error(record, name, problem)
    return _whole(record.tags[name])


_PLAIN_DATE = re.compile(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})")
"""A date in the common form, whose year :func:`date_error` always accepts."""


def _date(record: Record) -> tuple[dt.date | None, int | None]:
    text = record.tags["Date"]
    problem = None if _PLAIN_DATE.fullmatch(text) else date_error(text)
    if problem is not None:
        raise tag_error(record, "Date", problem)
    return read_date(text)


def date_error(text: str) -> str | None:
    """Why a Date tag cannot be read, or None: a part in digits must be ASCII digits, the year at most 9999."""
    parts = text.split(".")
    if any(_ANY_DIGITS.search(p) and not p.isascii() for p in parts):
        return _("write the date in digits 0-9, as 2024.12.07")
    if parts[0].isdigit() and read_number(parts[0], 0, YEAR_MAX) is None:
        return _("the year is out of range: from 0 to {most}", most=YEAR_MAX)
    return None


def read_date(text: str) -> tuple[dt.date | None, int | None]:
    """A Date tag (``2024.12.07``; ``??`` for an unknown part) as a date (None with unknown or impossible parts)
    and its year (None when unknown or out of range: :func:`date_error` says why)."""
    year: int | None
    plain = _PLAIN_DATE.fullmatch(text)
    if plain is not None:  # the common form, in one step
        year = int(plain[1])
        try:
            return dt.date(year, int(plain[2]), int(plain[3])), year
        except ValueError:
            return None, year
    parts = text.split(".")
    year = read_number(parts[0], 0, YEAR_MAX) if parts[0].isascii() else None
    if year is None or len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts[1:]):
        return None, year
    try:
        return dt.date(year, int(parts[1]), int(parts[2])), year
    except ValueError:
        return None, year


@lru_cache(maxsize=8)
def _card_bits(style: str) -> dict[str, int]:
    """Card text (as written, and upper-cased) to its bit, for reading hands fast."""
    bits = {text: 1 << c for text, c in card_reader(style).items()}
    bits.update({text.lower(): b for text, b in bits.items()})
    return bits


def _hands(record: Record, rules: Ruleset, style: str) -> tuple[Mask, ...]:
    """Each seat's starting hand from the Deal tag: in one pass when it is well written, else word by word."""
    return _fast_hands(record.tags["Deal"], rules, style) or _read_hands(record, rules, style)


def _fast_hands(value: str, rules: Ruleset, style: str) -> tuple[Mask, ...] | None:
    """The Deal tag read in one pass when every card and seat is well written; None otherwise."""
    names = rules.seat_names
    bits = _card_bits(style)
    pieces = value.split(":")
    if (len(pieces) == len(names) + 1 and pieces[0] == names[0]  # the writer's form: seats in turn order
            and list(map(getitem, pieces[1:-1], _LAST_TWO)) == _SEAT_TAILS[names]):
        words = list(map(str.split, map(getitem, pieces[1:-1], _BUT_LAST_TWO))) + [pieces[-1].split()]  # type: ignore[arg-type]  # getitem of a str and a slice is a str; mypy infers a Sequence
        try:
            hands = tuple(map(sum, map(map, repeat(bits.__getitem__), words)))
        except KeyError:
            return None
        # No card repeats: each sum is the OR of its cards (a sum of n bits has n bits set only when they differ).
        if sum(map(int.bit_count, hands)) == sum(map(len, words)):
            return hands
    found: list[Mask | None] = [None] * len(names)
    seat = pieces[0].strip()
    try:
        for i, piece in enumerate(pieces[1:], 1):
            cards = piece.split()
            following = cards.pop() if i < len(pieces) - 1 and cards else None
            index = names.index(seat)
            if found[index] is not None:
                return None
            mask = sum(map(bits.__getitem__, cards))  # the OR of the cards when no card repeats (no carry)
            found[index] = mask if mask.bit_count() == len(cards) else reduce(or_, map(bits.__getitem__, cards), 0)
            seat = following or ""
    except (KeyError, ValueError):
        return None
    return tuple(h for h in found if h is not None) if all(h is not None for h in found) else None


_LAST_TWO, _BUT_LAST_TWO = repeat(slice(-2, None)), repeat(slice(None, -2))
_SEAT_TAILS = {names: [" " + name for name in names[1:]] for names in SEAT_NAMES.values()}
"""How each hand but the last ends in the writer's Deal tag (the next seat's letter), by the seats' names."""


def _read_hands(record: Record, rules: Ruleset, style: str) -> tuple[Mask, ...]:
    """The Deal tag read word by word, to say exactly what is wrong with it."""
    names = rules.seat_names
    hands: list[Mask | None] = [None] * len(names)
    table = card_reader(style)
    seat = -1
    for word in record.tags["Deal"].replace(":", ": ").split():
        if word[-1] == ":":
            if word[:-1] not in names or hands[names.index(word[:-1])] is not None:
                raise tag_error(record, "Deal", _("{word}: each hand starts with a seat ({seats}) and a colon, once "
                                                  "per seat", word=repr(word), seats=" ".join(names)))
            seat = names.index(word[:-1])
            hands[seat] = 0
            continue
        card = table.get(word.upper())
        if card is None or seat < 0:
            raise tag_error(record, "Deal", _("{word} is not a card in style {style}", word=repr(word), style=style)
                            if seat >= 0 else _("the first hand must start with a seat and a colon, e.g. N:"))
        hands[seat] |= 1 << card  # type: ignore[operator]
    if any(h is None for h in hands):
        missing = [names[i] for i, h in enumerate(hands) if h is None]
        raise tag_error(record, "Deal", _("no hand for {seats}", seats=" ".join(missing)))
    return tuple(h or 0 for h in hands)
