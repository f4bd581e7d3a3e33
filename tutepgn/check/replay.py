"""Stepping through a deal: :func:`replay` applies a record's events, :func:`frames` shows each moment.

:func:`replay` is the one place where the events of a record are applied to a
deal, legal or not: the validator, the frames of a viewer and the recorder's
undo all step through it.

A :class:`Frame` is what a viewer shows at one moment: every hand, the cards
on the table, the turned card and the stock, the points so far, the cantes
and exchanges so far.  Frames are plain data (seats as letters, cards as
codes), so a terminal, a web page or a test can show them alike;
:mod:`tutepgn.cli.render` draws them in a terminal.

A record may hold an illegal event: its frame says which rule it breaks, and
the deal goes on as the record wrote it (:meth:`~tutepgn.engine.Deal.force`),
so the rest of the record can still be followed.

>>> from tutepgn.recording.simulate import deal_records
>>> from tutepgn.rules import preset
>>> record = next(deal_records(preset("playcard-2p"), 1, seed=3))
>>> steps = frames(record)
>>> len(steps) == len(record.events) + 1, steps[0].stock, steps[-1].over
(True, 24, True)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import NamedTuple

from ..cards import BIT, CODES, SUIT_LETTERS, CardSet, Mask
from ..declarations import CANTE_PAIRS, FOURS
from ..engine import Deal
from ..errors import IllegalAction
from ..events import Action, Cante, Context, Exchange, Play
from ..i18n import gettext as _, ngettext
from ..limits import INT32_MAX
from ..notation import Note, Record, Source, annotation_text, iter_records, read_number, result_text


class Step(NamedTuple):
    """One event of a replay: its 0-based index, the event, the rule it broke (None: legal), and whether
    it was applied (a legal event, or an illegal one forced as written; not a refused cante or tute, nor
    anything after the end of the deal)."""

    index: int  # type: ignore[assignment]  # shadows tuple.index() on purpose: read by name, never called
    event: Action
    error: IllegalAction | None
    applied: bool


def replay(deal: Deal, events: Iterable[Action], *, only_illegal: bool = False) -> Iterator[Step]:
    """Apply each event to ``deal`` in turn and yield a :class:`Step` after each, with ``deal`` as it left it.

    A legal event is applied; an illegal one is forced as the record wrote it
    (:meth:`~tutepgn.engine.Deal.force`), so the rest of the record can still
    be followed.  Nothing stops the replay: an event after the end of the deal
    comes with the rule ``deal_over`` and is not applied.  ``only_illegal``
    yields the steps of illegal events alone: the validator's case, where
    nearly every event is legal and a step for each would cost time.

    >>> from tutepgn.recording.simulate import deal_records
    >>> from tutepgn.rules import preset
    >>> record = next(deal_records(preset("playcard-2p"), 1, seed=3))
    >>> deal = record.header().deal()
    >>> all(step.error is None for step in replay(deal, record.events)), deal.over
    (True, True)
    """
    apply = deal.apply
    force = deal.force
    new = tuple.__new__  # a step without the named tuple's Python-level __new__: one per event of millions
    for index, event in enumerate(events):
        try:
            apply(event)
        except IllegalAction as error:
            yield new(Step, (index, event, error, force(event)))
            continue
        if not only_illegal:
            yield new(Step, (index, event, None, True))


def event_cards(event: Action) -> Mask:
    """The cards an event shows: the card played, a cante's rey and caballo, a tute's four, the card exchanged."""
    if isinstance(event, (Play, Exchange)):
        return BIT[event.card]
    if isinstance(event, Cante):
        return CANTE_PAIRS[event.suit]
    return FOURS.get(event.rank, 0)


@dataclass(frozen=True, slots=True)
class Frame:
    """The table at one moment of a deal.

    ``table`` holds the cards on the table as (seat, card) in play order: the
    trick in play, or, in the frame of the card that completed a trick, that
    whole trick, with ``winner`` set.  ``card_points`` and ``cante_points``
    are per side, in the order of ``sides``; ``totals`` and ``result`` are set
    once the deal is over (the totals include the last ten).  ``annotation``
    and ``comments`` are the record's note on the event (as export writes the
    annotations: ``!``, ``? $14``); the first frame's comments are the
    record's comments on the deal.
    """

    index: int
    event: Action | None
    text: str
    seats: tuple[str, ...]
    sides: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    table: tuple[tuple[str, str], ...]
    winner: str | None
    trick_points: int | None
    trick_no: int
    to_move: str | None
    trump: str
    turned: str
    stock: int | None
    card_points: tuple[int, ...]
    cante_points: tuple[int, ...]
    cantes: tuple[str, ...]
    exchanges: tuple[str, ...]
    illegal: str | None = None
    rule: str | None = None
    skipped: bool = False
    over: bool = False
    totals: tuple[int, ...] | None = None
    result: str | None = None
    annotation: str = ""
    comments: tuple[str, ...] = ()

    @property
    def points(self) -> tuple[int, ...]:
        """Points so far per side: card points won plus cantes (the last ten comes in ``totals``)."""
        return tuple(c + k for c, k in zip(self.card_points, self.cante_points))


def snapshot(deal: Deal, index: int = 0, event: Action | None = None, *, error: IllegalAction | None = None,
             skipped: bool = False, match_target: int | None = None, note: Note | None = None) -> Frame:
    """The frame of a deal as it stands, right after ``event`` (the ``index``-th event; 0: the start),
    with the record's ``note`` on it."""
    r = deal.rules
    names = r.seat_names
    completed = type(event) is Play and not skipped and not deal.trick and bool(deal.tricks)
    if completed:
        last = deal.tricks[-1]
        leader, cards = last.leader, last.cards
    else:
        leader, cards = deal.leader, tuple(deal.trick)
    n = r.players
    cante_points = [0] * r.sides
    for c in deal.cantes:
        cante_points[c.side] += c.points
    sheet = deal.score(match_target) if deal.over else None
    return Frame(
        index=index,
        event=event,
        text="" if event is None else event.text(Context.of(deal)),
        seats=names,
        sides=r.side_labels,
        hands=tuple(tuple(CardSet(deal.hands[s]).codes()) for s in range(n)),
        table=tuple((names[(leader + i) % n], CODES[c]) for i, c in enumerate(cards)),
        winner=names[deal.tricks[-1].winner] if completed else None,
        trick_points=deal.tricks[-1].points if completed else None,
        trick_no=len(deal.tricks) + (1 if deal.trick else 0),
        to_move=None if deal.over else names[deal.turn],
        trump=SUIT_LETTERS[deal.trump],
        turned=CODES[deal.turned],
        stock=deal.stock_left if deal.initial_stock else None,
        card_points=tuple(deal.won_points),
        cante_points=tuple(cante_points),
        cantes=tuple(Cante(c.seat, c.suit).text(Context.of(deal)) for c in deal.cantes),
        exchanges=tuple(e.text(Context.of(deal)) for e in deal.log if type(e) is Exchange),
        illegal=None if error is None else error.message,
        rule=None if error is None else error.rule,
        skipped=skipped,
        over=deal.over,
        totals=None if sheet is None else sheet.totals,
        result=None if sheet is None else result_text(sheet, r),
        annotation="" if note is None else annotation_text(note.nags).lstrip(),
        comments=() if note is None else tuple(note.comments),
    )


def match_target(record: Record) -> int | None:
    """The record's MatchTarget tag as a number, or None (the ruleset's target then applies)."""
    return read_number(record.tags.get("MatchTarget", ""), 1, INT32_MAX)


def frames(record: Record) -> list[Frame]:
    """Every frame of a record: the start, then one after each event, illegal events included.

    Raises :class:`~tutepgn.notation.NotationError` when the record does not
    give its starting position (Rules, Dealer, Deal, and Trump tags).
    """
    deal = record.header().deal()
    target = match_target(record)
    out = [snapshot(deal, match_target=target, note=Note(comments=record.intro) if record.intro else None)]
    for step in replay(deal, record.events):
        out.append(snapshot(deal, step.index + 1, step.event, error=step.error, skipped=not step.applied,
                            match_target=target, note=record.note(step.index)))
    return out


def pick_record(source: Source, number: int = 1) -> Record:
    """The ``number``-th record (1-based) of a path, text or stream.

    Raises :class:`~tutepgn.notation.NotationError` for a record that cannot
    be read, :class:`ValueError` when there is no such record, and
    :class:`OSError` when the file cannot be opened.
    """
    if number < 1:
        raise ValueError(_("record numbers start at 1, not {number}", number=number))
    name = os.fspath(source) if isinstance(source, os.PathLike) else _("the input")
    count = 0
    for count, record in enumerate(iter_records(source), 1):
        if count == number:
            if record.errors:
                raise record.errors[0]
            return record
    raise ValueError(ngettext("{name} holds {n} record: there is no record {number}",
                              "{name} holds {n} records: there is no record {number}", count, name=name, number=number))


def frame_data(frame: Frame) -> dict[str, object]:
    """A frame as JSON data, as the web page's frames and ``tute replay --json`` give it: every field but the
    event object (its notation is ``text``), plus the points per side so far."""
    data = asdict(frame)
    data.pop("event", None)
    data["points"] = list(frame.points)
    return data
