"""A record of one deal in Tute PGN, and the writer of its export format.

A :class:`Record` holds what a ``.tpgn`` record says: its tags (all of them,
unknown ones included), the events of the play in order (the engine's
:class:`~tutepgn.engine.Play`, :class:`~tutepgn.engine.Cante`,
:class:`~tutepgn.engine.Tute` and :class:`~tutepgn.engine.Exchange`), where
each event stood in the source, the comments and annotations, and the
termination marker.  :meth:`Record.tpgn` writes the export format, the same
bytes for the same content; :func:`tutepgn.reader.read_record` reads one back.

>>> from tutepgn.engine import Deal
>>> from tutepgn.rules import preset
>>> deal = Deal.shuffled(preset("torofun-4p"), seed=7)
>>> while not deal.over:
...     _ = deal.apply(deal.legal_actions()[-1])
>>> text = Record.from_deal(deal).tpgn()
>>> text.splitlines()[4]
'[Rules "torofun-4p"]'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache, reduce
from operator import or_

from .cards import (
    CARD_STYLES, CODES, SUIT_LETTERS, TOKEN_STYLES, Card, CardSet, Mask, card_reader, display_cards,
)
from .engine import Deal, ScoreSheet
from .events import Action, Context, Play
from .errors import NotationError, TuteError
from .rules import SEAT_NAMES, Ruleset

VERSION = 1
"""Notation version, documented in docs/notation.md."""

TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
"""A tag name, as the grammar reads one: case-sensitive, a letter first."""

SEAT_TAGS = {"N": "North", "W": "West", "S": "South", "E": "East"}
"""The tag that names the player in each seat."""

ROSTER = ("Event", "Site", "Date", "Round", "Rules")
"""Tags every exported record carries first, in this order (``?`` when unknown)."""
AFTER_SEATS = ("Dealer", "Deal", "Stock", "Trump", "Score", "Result", "Match", "DealNo", "MatchTarget", "MatchScore")
"""Known tags after the seat tags, in export order; Dealer and Result are always written."""
ALWAYS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "Rules": "?", "Dealer": "?", "Result": "*"}

NAG_GLYPHS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
"""Annotation glyphs and the numeric annotation each stands for, as in PGN."""
GLYPH_OF = {n: g for g, n in NAG_GLYPHS.items()}

UNFINISHED = "*"


@dataclass(slots=True)
class Note:
    """Annotations and comments written after an event (or before the play)."""
    nags: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


@dataclass(eq=False)
class Record:
    """One deal as its record says it.

    ``positions[i]`` is the (line, column) of ``events[i]`` in the source
    (empty for a record built in code; for a record read in export form, a
    read-only sequence worked out when first asked).  ``notes`` maps an event index to its
    annotations and comments; index -1 holds the comments before the play.
    """

    tags: dict[str, str] = field(default_factory=dict)
    events: list[Action] = field(default_factory=list)
    positions: list[tuple[int, int]] = field(default_factory=list)
    notes: dict[int, Note] = field(default_factory=dict)
    termination: str = UNFINISHED
    tag_lines: dict[str, int] = field(default_factory=dict)
    source: str | None = None
    index: int = 0
    line: int = 1
    errors: list[NotationError] = field(default_factory=list)
    _play_text: tuple[int, int, str] | None = field(default=None, repr=False, compare=False)
    _memo_key: tuple[str, str, str | None] | None = field(default=None, repr=False, compare=False)
    _memo_hands: list[Mask] = field(default_factory=list, repr=False, compare=False)

    def keep_play_text(self, text: str) -> None:
        """Keep the play lines of a record read in export form, so writing it again costs no work.

        Kept with the number of events and notes, so a record changed since is written afresh.
        """
        self._play_text = (len(self.events), len(self.notes), text)

    # -- What the tags say ---------------------------------------------------
    @property
    def rules(self) -> Ruleset:
        """The ruleset of the Rules tag; raises :class:`NotationError` if missing or unknown."""
        return rules_of(self.tags.get("Rules", ""), self.tag_lines.get("Rules", self.line))

    @property
    def card_style(self) -> str:
        """The card style the record is written in (the Cards tag; ``es`` by default)."""
        return self.tags.get("Cards", "es")

    def _cards(self, name: str) -> list[Card]:
        table = card_reader(self.card_style)
        out = []
        for word in self.tags[name].split():
            try:
                out.append(table[word.upper()])
            except KeyError:
                raise self.tag_error(name, f"{word!r} is not a card in style {self.card_style}") from None
        return out

    def tag_error(self, name: str, message: str) -> NotationError:
        """An error located at a tag's line."""
        return NotationError(f"[{name}] {message}", line=self.tag_lines.get(name, self.line), column=1,
                             text=self.tags.get(name, ""), source=self.source, index=self.index)

    def seat(self, letter: str, tag: str = "Dealer") -> int:
        """The seat index of a seat letter under this record's ruleset."""
        names = self.rules.seat_names
        if letter not in names:
            raise self.tag_error(tag, f"{letter!r} is not a seat here; seats are {' '.join(names)}")
        return names.index(letter)

    @property
    def dealer(self) -> int | None:
        """The dealer's seat, or None when the Dealer tag is missing or ``?``."""
        value = self.tags.get("Dealer", "?")
        return None if value in ("?", "") else self.seat(value)

    @property
    def hands(self) -> list[Mask] | None:
        """Each seat's starting hand from the Deal tag, or None when there is none."""
        value = self.tags.get("Deal")
        if value is None:
            return None
        key = (value, self.card_style, self.tags.get("Rules"))
        if self._memo_key != key:  # the validator, the writer and the archive all ask: read the tag once
            self._memo_hands = self._fast_hands(value) or self._read_hands()
            self._memo_key = key
        return list(self._memo_hands)

    def _fast_hands(self, value: str) -> list[Mask] | None:
        """The Deal tag read in one pass when every card and seat is well written; None otherwise."""
        names = self.rules.seat_names
        bits = _card_bits(self.card_style)
        pieces = value.split(":")
        hands: list[Mask | None] = [None] * len(names)
        seat = pieces[0].strip()
        try:
            for i, piece in enumerate(pieces[1:], 1):
                words = piece.split()
                following = words.pop() if i < len(pieces) - 1 and words else None
                index = names.index(seat)
                if hands[index] is not None:
                    return None
                hands[index] = reduce(or_, map(bits.__getitem__, words), 0)
                seat = following or ""
        except (KeyError, ValueError):
            return None
        return None if any(h is None for h in hands) else hands  # type: ignore[return-value]

    def _read_hands(self) -> list[Mask]:
        """The Deal tag read word by word, to say exactly what is wrong with it."""
        names = self.rules.seat_names
        hands: list[Mask | None] = [None] * len(names)
        table = card_reader(self.card_style)
        seat = -1
        for word in self.tags["Deal"].replace(":", ": ").split():
            if word[-1] == ":":
                if word[:-1] not in names or hands[names.index(word[:-1])] is not None:
                    raise self.tag_error("Deal", f"{word!r}: each hand starts with a seat ({' '.join(names)}) and a "
                                                 "colon, once per seat")
                seat = names.index(word[:-1])
                hands[seat] = 0
                continue
            card = table.get(word.upper())
            if card is None or seat < 0:
                raise self.tag_error("Deal", f"{word!r} is not a card in style {self.card_style}" if seat >= 0
                                     else "the first hand must start with a seat and a colon, e.g. N:")
            hands[seat] |= 1 << card  # type: ignore[operator]
        if any(h is None for h in hands):
            missing = [names[i] for i, h in enumerate(hands) if h is None]
            raise self.tag_error("Deal", f"no hand for {' '.join(missing)}")
        return [h or 0 for h in hands]

    @property
    def stock(self) -> list[Card]:
        """The stock from top to bottom, the turned card last (2 players); empty when not given."""
        return self._cards("Stock") if "Stock" in self.tags else []

    @property
    def turned(self) -> Card | None:
        """The turned card that shows trump (the Trump tag), or None."""
        if "Trump" not in self.tags:
            return None
        cards = self._cards("Trump")
        if len(cards) != 1:
            raise self.tag_error("Trump", "give the one turned card")
        return cards[0]

    def side_label(self, side: int) -> str:
        """The side's label in Score and Result: NS or WE for pairs, else the seat letter."""
        return side_labels(self.rules)[side]

    @property
    def claimed_score(self) -> tuple[int, ...] | None:
        """Points per side claimed by the Score tag, or None."""
        if "Score" not in self.tags:
            return None
        return parse_side_values(self.tags["Score"], self.rules, lambda: self.tag_error("Score", "write e.g. NS:78 WE:62"))

    @property
    def match_score(self) -> tuple[int, ...] | None:
        """Match standing before this deal (MatchScore tag), or None."""
        if "MatchScore" not in self.tags:
            return None
        return parse_side_values(self.tags["MatchScore"], self.rules,
                                 lambda: self.tag_error("MatchScore", "write e.g. NS:2 WE:1"))

    @property
    def result(self) -> str:
        """The Result tag (``*`` when missing)."""
        return self.tags.get("Result", UNFINISHED)

    # -- Building --------------------------------------------------------------
    @classmethod
    def from_deal(cls, deal: Deal, tags: dict[str, str] | None = None, *, match_target: int | None = None,
                  standing: list[int] | None = None) -> Record:
        """A record of an engine deal: its cards, events, claimed score and result from the engine."""
        r = deal.rules
        names = r.seat_names
        out: dict[str, str] = {"Rules": str(r)}
        out.update(tags or {})
        out["Dealer"] = names[deal.dealer]
        out["Deal"] = " ".join(f"{names[s]}:{CardSet(m)}" for s, m in enumerate(deal.initial_hands))
        if deal.initial_stock:
            out["Stock"] = " ".join(CODES[c] for c in deal.initial_stock)
        out["Trump"] = CODES[deal.initial_turned]
        if deal.over:
            sheet = deal.score(match_target)
            out["Score"] = format_side_values(sheet.totals, r)
            out["Result"] = result_text(sheet, r)
        if standing is not None:
            out["MatchScore"] = format_side_values(standing, r)
        return cls(tags=out, events=list(deal.log),
                   termination=out.get("Result", UNFINISHED) if deal.over else UNFINISHED)

    def to_deal(self) -> Deal:
        """The engine deal at its start, from the Rules, Dealer, Deal, Stock and Trump tags.

        ``DealNo "1"`` marks a match's first deal (where a ruleset has
        first-deal rules).  Raises :class:`NotationError` at the tag at fault.
        """
        r = self.rules
        hands = self.hands
        if hands is None:
            raise self.tag_error("Deal", "the record has no Deal tag: the starting hands are unknown")
        dealer = self.dealer
        if dealer is None:
            raise self.tag_error("Dealer", "the record has no Dealer tag")
        turned = self.turned
        if turned is None:
            raise self.tag_error("Trump", "the record has no Trump tag: the turned card is unknown")
        try:
            return Deal(r, hands, self.stock, turned, dealer, first_of_match=self.tags.get("DealNo") == "1")
        except ValueError as exc:
            raise self.tag_error("Deal", str(exc)) from None

    # -- Writing ----------------------------------------------------------------
    def tpgn(self, cards: str = "es") -> str:
        """The export format: fixed tag order, one trick a line, LF, no trailing spaces."""
        return write_record(self, cards)

    def __str__(self) -> str:
        return self.tpgn()

    def __repr__(self) -> str:
        return f"<Record {self.tags.get('Rules', '?')!r} {len(self.events)} events {self.termination}>"


# ---------------------------------------------------------------------------
# Tag values.

CARD_TAGS = ("Deal", "Stock", "Trump")
"""Tags whose values hold cards."""
_CARD_WORD = re.compile(r"[^\s:]+")
"""A card in a Deal, Stock or Trump tag value (seat letters before a colon never match a card)."""


def restyle(text: str, source: str, target: str = "es") -> str:
    """A tag value with its cards rewritten from one card style into another; other words stay as they are."""
    read = card_reader(source)
    write = CARD_STYLES[target]
    return _CARD_WORD.sub(lambda m: write[read[m[0].upper()]] if m[0].upper() in read else m[0], text)


@lru_cache(maxsize=8)
def _card_bits(style: str) -> dict[str, int]:
    """Card text (as written, and upper-cased) to its bit, for reading hands fast."""
    table = card_reader(style)
    bits = {text: 1 << c for text, c in table.items()}
    bits.update({text.lower(): b for text, b in bits.items()})
    return bits


_RULESETS: dict[str, Ruleset] = {}
"""Rulesets by Rules tag value: archives repeat a few specs, and a record asks for its ruleset often."""


def rules_of(spec: str, line: int = 1) -> Ruleset:
    """The ruleset of a Rules tag value (cached)."""
    rules = _RULESETS.get(spec)
    if rules is not None:
        return rules
    if not spec.strip() or spec.strip() == "?":
        raise NotationError("[Rules] the Rules tag is missing: every record names its ruleset", line=line, column=1,
                            expected='[Rules "PRESET option=value ..."]')
    try:
        rules = Ruleset.from_spec(spec)
    except TuteError as exc:
        raise NotationError(f"[Rules] {exc}", line=line, column=1, text=spec) from None
    if len(_RULESETS) >= 256:
        _RULESETS.clear()
    _RULESETS[spec] = rules
    return rules


def side_labels(rules: Ruleset) -> tuple[str, ...]:
    """Labels of the sides: ``NS``/``WE`` for pairs, else each seat's letter."""
    return rules.side_labels


def format_side_values(values: list[int] | tuple[int, ...], rules: Ruleset) -> str:
    """``NS:78 WE:62``: one value per side."""
    return " ".join(f"{label}:{v}" for label, v in zip(side_labels(rules), values))


def parse_side_values(text: str, rules: Ruleset, error: object) -> tuple[int, ...]:
    """Read ``NS:78 WE:62`` (sides in any order) into values by side index."""
    labels = side_labels(rules)
    values: dict[str, int] = {}
    for part in text.split():
        label, _, value = part.partition(":")
        if label not in labels or not value.lstrip("-").isdigit():
            raise error()  # type: ignore[operator]
        values[label] = int(value)
    if set(values) != set(labels):
        raise error()  # type: ignore[operator]
    return tuple(values[label] for label in labels)


def result_text(sheet: ScoreSheet, rules: Ruleset) -> str:
    """The Result of a finished deal: ``NS+1``, ``N+2``, ``NS+match``; ``*`` if unfinished."""
    if sheet.winner is None:
        return UNFINISHED
    label = side_labels(rules)[sheet.winner]
    return f"{label}+match" if sheet.wins_match else f"{label}+{sheet.match_points[sheet.winner]}"


# ---------------------------------------------------------------------------
# The writer.

_TAG_ESCAPE = str.maketrans({"\\": "\\\\", '"': '\\"'})


def _escape_comment(text: str) -> str:
    text = text.replace("\\", "\\\\").replace("}", "\\}")
    # A line that starts with "[" would read as a tag: escape it.
    return re.sub(r"\n\[", "\n\\\\[", text)




def canonical_tags(record: Record, style: str = "es") -> list[tuple[str, str]]:
    """The tags in export order with canonical values where the record's values can be read."""
    tags = dict(record.tags)
    tags.setdefault("Result", record.termination)  # a record without a Result tag: its marker says it
    try:
        r = record.rules
        tags["Rules"] = str(r)
        seat_tags = [SEAT_TAGS[n] for n in r.seat_names]
    except NotationError:
        r = None
        seat_tags = [t for t in ("North", "West", "South", "East") if t in tags]
    tags.pop("Cards", None)
    if r is not None:
        names = r.seat_names
        try:
            hands = record.hands
            if hands is not None:
                target = CARD_STYLES[style]
                tags["Deal"] = " ".join(
                    f"{names[s]}:" + " ".join([target[c] for c in display_cards(m)]) for s, m in enumerate(hands))
        except NotationError:
            pass
        for name in ("Stock", "Trump"):
            if name in tags:
                tags[name] = " ".join(restyle(tags[name], record.card_style, style).split())
        for name in ("Score", "MatchScore"):
            if name in tags:
                try:
                    values = parse_side_values(tags[name], r, lambda: NotationError("", line=0, column=0))
                    tags[name] = format_side_values(values, r)
                except NotationError:
                    pass
    ordered: list[tuple[str, str]] = []
    for name in ROSTER:
        ordered.append((name, tags.pop(name, ALWAYS[name])))
        if name == "Rules" and style != "es":
            ordered.append(("Cards", style))
    for name in seat_tags:
        ordered.append((name, tags.pop(name, "?")))
    for name in AFTER_SEATS:
        if name in tags or name in ALWAYS:
            ordered.append((name, tags.pop(name, ALWAYS.get(name, "?"))))
    ordered.extend(sorted(tags.items()))
    return ordered


def write_record(record: Record, style: str = "es") -> str:
    """Write a record in export format, cards in a token style (``es`` is canonical)."""
    if style not in TOKEN_STYLES:
        raise ValueError(f"card style {style!r} cannot be written in .tpgn (its cards are not single tokens); "
                         f"use one of {', '.join(TOKEN_STYLES)}")
    lines = [f'[{name} "{value.translate(_TAG_ESCAPE)}"]' for name, value in canonical_tags(record, style)]
    lines.append("")
    kept = record._play_text
    if style == "es" and kept is not None and kept[:2] == (len(record.events), len(record.notes)):
        if kept[2]:
            lines.append(kept[2])
        lines.append(record.termination)
    else:
        lines.extend(play_lines(record, style))
    return "\n".join(lines) + "\n"


def play_lines(record: Record, style: str = "es") -> list[str]:
    """The play section: one trick a line, each declaration on its own line, then the marker."""
    cards = CARD_STYLES[style]
    try:
        r = record.rules
        n, names = r.players, r.seat_names
    except NotationError:
        n, names = 4, SEAT_NAMES[4]
    notes = record.notes
    events = record.events
    lines: list[str] = []
    intro = notes.get(-1)
    if intro is not None:
        lines.append(_note_text(intro).lstrip())
    ctx: Context | None = None  # made at the first declaration
    trick_no = 0
    i, count = 0, len(events)
    while i < count:
        event = events[i]
        if type(event) is Play:
            # A trick: up to n plays in a row (a declaration in the middle ends the line early).
            end = min(i + n, count)
            j = i + 1
            while j < end and type(events[j]) is Play:
                j += 1
            trick_no += 1
            words = [cards[e.card] for e in events[i:j]]  # type: ignore[union-attr]
            if notes:
                words = [w + _note_text(notes[k]) if k in notes else w for k, w in enumerate(words, i)]
            lines.append(f"{trick_no}. {names[event.seat]} " + " ".join(words))
            i = j
            continue
        if ctx is None:
            ctx = Context(names, trump_suit(record), style)
        lines.append(event.text(ctx) + (_note_text(notes[i]) if i in notes else ""))
        i += 1
    lines.append(record.termination)
    return lines


def trump_suit(record: Record) -> int | None:
    """The record's trump suit: the turned card's, or the first-deal suit where the ruleset fixes it."""
    try:
        r = record.rules
        turned = record.turned
    except NotationError:
        return None
    if r.first_deal_trump and record.tags.get("DealNo") == "1":
        return SUIT_LETTERS.index(r.first_deal_trump)
    return None if turned is None else turned // 10


def _note_text(note: Note) -> str:
    parts = []
    glyphs = "".join(GLYPH_OF[n] for n in note.nags[:1] if n in GLYPH_OF)
    rest = note.nags[1:] if glyphs else note.nags
    parts.extend(f"${n}" for n in rest)
    parts.extend("{" + _escape_comment(c) + "}" for c in note.comments)
    return glyphs + "".join(" " + p for p in parts)
