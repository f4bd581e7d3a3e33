"""A record of one deal in Tute PGN: its tags, its entries (events where they stood, with notes), its marker.

A :class:`Record` holds what a ``.tpgn`` record says, as it says it: the tags
as text (unknown ones included), the events of the play in order, where each
stood in the source and the annotations and comments after it (together, the
:attr:`Record.entries`), the comments before the play (:attr:`Record.intro`)
and the termination marker.  What the tags mean is read on demand into a
:class:`~tutepgn.notation.tags.Header` (:meth:`Record.header`), where a bad
tag is reported.

>>> from tutepgn.engine import Deal
>>> from tutepgn.rules import preset
>>> deal = Deal.shuffled(preset("torofun-4p"), seed=7)
>>> while not deal.over:
...     _ = deal.apply(deal.legal_actions()[-1])
>>> record = Record.from_deal(deal)
>>> record.tpgn().splitlines()[4], record.header().deal().initial_hands == deal.initial_hands
('[Rules "torofun-4p"]', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..cards import CODES, CardSet
from ..engine import Deal
from ..errors import NotationError
from ..events import Action, Play
from ..i18n import gettext as _
from ..limits import MAX_DECLARATIONS, MAX_TRICKS, max_record_bytes
from ..rules import Ruleset
from .tags import HEADER_TAGS, UNFINISHED, Header, format_side_values, read_header, result_text, unwritable_tag

PLAY_BYTES = 2048
"""What a deal's play and its closing tags (Deal, Stock, Score, Result) may add to a record as started: its
tags must leave this much room under ``TUTEPGN_MAX_RECORD_BYTES``, so that every deal started can be finished
and read back (the most 200 seeded deals of every preset add is 285 bytes; a deal recorded with its hands
unknown gains its Deal tag too, some 170 bytes)."""

NAG_GLYPHS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
"""Annotation glyphs and the numeric annotation each stands for, as in PGN."""


@dataclass(slots=True)
class Note:
    """Annotations (numeric, ``!`` is 1) and comments written after an event."""
    nags: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


class Entry(NamedTuple):
    """One event of the play as the record gives it: where it stood (None when unknown) and its note."""
    event: Action
    line: int | None
    column: int | None
    note: Note | None


@dataclass(eq=False)
class Record:
    """One deal as its record says it.

    Build one in code with ``Record(tags=..., events=...)`` or
    :meth:`from_deal`, and :meth:`add` events with their positions and notes;
    read one with :func:`tutepgn.notation.read_record`.  ``tag_lines`` gives
    the line of each tag, ``line`` the record's first line, ``index`` its place
    in its source, ``errors`` what the lenient reader found wrong.
    """

    tags: dict[str, str] = field(default_factory=dict)
    events: list[Action] = field(default_factory=list)
    intro: list[str] = field(default_factory=list)
    termination: str = UNFINISHED
    tag_lines: dict[str, int] = field(default_factory=dict)
    source: str | None = None
    index: int = 0
    line: int = 1
    errors: list[NotationError] = field(default_factory=list)
    _positions: list[tuple[int, int]] = field(default_factory=list, repr=False)
    _notes: dict[int, Note] = field(default_factory=dict, repr=False)
    _play: tuple[int, int, int, str] | None = field(default=None, repr=False)
    _header: tuple[object, Header] | None = field(default=None, repr=False)

    @classmethod
    def unreadable(cls, error: NotationError, tags: dict[str, str], line: int) -> Record:
        """The stand-in for a record that could not be read at all: its tags if any, and the error."""
        return cls(tags=dict(tags), source=error.source, index=error.index or 0, line=line, errors=[error])

    # -- The play ----------------------------------------------------------------
    def add(self, event: Action, line: int | None = None, column: int | None = None,
            note: Note | None = None) -> None:
        """Append an event, with where it stood in the source (both or neither) and its note."""
        if line is not None and column is not None:
            self._positions.append((line, column))
        if note is not None:
            self._notes[len(self.events)] = note
        self.events.append(event)

    @property
    def entries(self) -> list[Entry]:
        """The play, event by event, each with its position and note."""
        positions = self._positions_now()
        placed = len(positions) == len(self.events)
        notes = self._notes
        return [Entry._make((event, *(positions[i] if placed else (None, None)), notes.get(i)))
                for i, event in enumerate(self.events)]

    def position(self, index: int) -> tuple[int, int] | None:
        """Where event ``index`` (-1: the last) stood in the source: (line, column), or None when unknown."""
        positions = self._positions_now()
        if len(positions) != len(self.events) or not positions:
            return None
        return positions[index]

    def note(self, index: int) -> Note | None:
        """The annotations and comments after event ``index``, if any."""
        return self._notes.get(index)

    @property
    def annotated(self) -> bool:
        """Whether any event has a note."""
        return bool(self._notes)

    @property
    def comments(self) -> list[str]:
        """Every comment of the record in order: the intro's, then each event's."""
        return self.intro + [c for i in sorted(self._notes) for c in self._notes[i].comments]

    # -- The play as it was read ------------------------------------------------
    def keep_play_text(self, text: str, first_line: int) -> None:
        """Keep the play lines (without the marker) of a record read in export form, starting at ``first_line``.

        Writing the record again reuses them, and positions are worked out from
        them only when asked (most readers never ask).  Kept with the number of
        events and notes: a record changed since is written afresh.
        """
        self._play = (len(self.events), len(self._notes) + len(self.intro), first_line, text)

    @property
    def play_text(self) -> str | None:
        """The kept play lines in export form (es cards, no marker), or None when none are kept or they are stale."""
        kept = self._play
        if kept is None or kept[:2] != (len(self.events), len(self._notes) + len(self.intro)):
            return None
        return kept[3]

    def _positions_now(self) -> list[tuple[int, int]]:
        if not self._positions and self._play is not None and self.play_text is not None:
            self._positions = _export_positions(self._play[3], self._play[2])
        return self._positions

    # -- What the tags mean --------------------------------------------------------
    def header(self, rules: Ruleset | None = None, *, lenient: bool = False) -> Header:
        """The tags read into their meaning (under ``rules`` instead of the Rules tag when given).

        Raises :class:`NotationError` at the first tag at fault; with
        ``lenient=True`` only an unreadable Rules tag raises, and each other tag
        at fault is left None with its error in ``header.errors``.  Read once
        while the tags stay the same.
        """
        key = (tuple(map(self.tags.get, HEADER_TAGS)), rules, lenient)
        cached = self._header
        if cached is not None and cached[0] == key:
            return cached[1]
        header = read_header(self, rules, lenient=lenient)
        self._header = (key, header)
        return header

    def header_or_none(self) -> Header | None:
        """The header read leniently (each unreadable tag left None), or None when even the Rules tag is
        unreadable: for whoever shows what can be shown (the writer, the JSON form, the archive)."""
        try:
            return self.header(lenient=True)
        except NotationError:
            return None

    @property
    def card_style(self) -> str:
        """The card style the record's tags are written in (the Cards tag; ``es`` by default)."""
        return self.tags.get("Cards", "es")

    @property
    def result(self) -> str:
        """The Result tag (``*`` when missing)."""
        return self.tags.get("Result", UNFINISHED)

    # -- Building and writing ---------------------------------------------------------
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

    def tpgn(self, cards: str = "es") -> str:
        """The export format: fixed tag order, one trick a line, LF, no trailing spaces."""
        from .writer import write_record  # the writer reads records: imported when first asked
        return write_record(self, cards)

    def __str__(self) -> str:
        return self.tpgn()

    def __repr__(self) -> str:
        return f"<Record {self.tags.get('Rules', '?')!r} {len(self.events)} events {self.termination}>"


def _export_positions(text: str, first_line: int) -> list[tuple[int, int]]:
    """Where each event of play lines in export form stands: a card in a trick line, a declaration's seat."""
    out: list[tuple[int, int]] = []
    for lineno, line in enumerate(text.split("\n") if text else (), first_line):
        if line[:1].isdigit():  # "12. N 1O 3O ...": the first card is at column len("12") + 5
            number, _, rest = line.partition(". ")
            col = len(number) + 5
            for word in rest[2:].split():
                out.append((lineno, col))
                col += len(word) + 1
        else:  # a declaration line
            out.append((lineno, 1))
    return out


def check_counts(record: Record) -> None:
    """Refuse a record with more tricks or declarations than the archive counts (:mod:`tutepgn.limits`):
    :class:`NotationError` at the first event past the limit.  A real record has 40 plays and a few
    declarations, so only a long one is counted."""
    events = record.events
    if len(events) <= MAX_DECLARATIONS:
        return
    header = record.header_or_none()
    players = header.rules.players if header is not None else 2  # the fewest players: the most tricks
    plays = declarations = 0
    for i, event in enumerate(events):
        if type(event) is Play:
            plays += 1
        else:
            declarations += 1
        if plays > MAX_TRICKS * players or declarations > MAX_DECLARATIONS:
            message = (_("the record has more than {most} tricks: no deal has so many (the limit is what the "
                         "archive stores)", most=MAX_TRICKS) if plays > MAX_TRICKS * players
                       else _("the record has more than {most} declarations: no deal has so many (the limit is "
                              "what the archive stores)", most=MAX_DECLARATIONS))
            line, column = record.position(i) or (record.line, 1)
            raise NotationError(message, line=line, column=column, source=record.source, index=record.index)


def unreadable_start(record: Record) -> str | None:
    """Why a record just started (tags made by hand, no play yet) would not read back once played, or None: a
    tag that cannot be written as it is (:func:`~.tags.unwritable_tag`), a value its tag cannot mean (DealNo,
    MatchTarget ...), or tags that leave less than :data:`PLAY_BYTES` under ``TUTEPGN_MAX_RECORD_BYTES``."""
    for name, value in record.tags.items():
        problem = unwritable_tag(name, value)
        if problem:
            return problem
    try:
        record.header()
    except NotationError as exc:
        return exc.message
    size, limit = len(record.tpgn().encode("utf-8")), max_record_bytes()
    if size + PLAY_BYTES > limit:
        return _("the tags take {size:,} bytes: with the play the record would pass {limit:,} bytes "
                 "(TUTEPGN_MAX_RECORD_BYTES), and could not be read back", size=size, limit=limit)
    return None
