"""The fast path of the reader: a record in the strict export format, line by line.

Archives hold the export format, so nearly every record read takes this
path: one regex per line, the plays of a trick taken from tables made once
(:data:`~tutepgn.events.PLAYS`), no object per card beyond the shared plays,
and the play lines kept on the record so that writing it again and working out
positions cost nothing until asked.  Anything else gives None, and the
grammar reads the record (a parity test holds both to the same result).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from ..cards import card_reader
from ..events import PLAYS, Context, parse_declaration
from ..limits import MAX_TRICKS
from .record import Record
from .split import plain_tags
from .tags import RESULT, TAG_NAME, TAG_VALUE, UNFINISHED, rules_of, trump_of, unescape

_TAG_LINE = re.compile(rf'\[({TAG_NAME.pattern}) "({TAG_VALUE})"\]\n?')
_TRICK_LINE = re.compile(r"([0-9]+)\. ([NWSE])((?: (?:1[0-2]|[1-7])[OCEB])+)\n?")
_DECL_LINE = re.compile(r"([NWSE]) (\S.*)")
"""A declaration line: its seat, then what :func:`~tutepgn.events.parse_declaration` reads (a new kind needs no edit here)."""

_CARD_WORD = re.compile(r"(?:1[0-2]|[1-7])[OCEB]")
"""A card as a trick line of the export format writes it."""
_SEAT_PLAYS = tuple({word: PLAYS[seat][c] for word, c in card_reader("es").items() if _CARD_WORD.fullmatch(word)}
                    for seat in range(4))
"""Each seat's play of each card, by its text in a trick line (no other spelling: a word missing here is not
export format)."""
_TRICK_NUMBERS = tuple(f"{k}." for k in range(MAX_TRICKS))
"""How a trick line starts, by trick number."""
_KEYED_PLAYS = tuple(tuple(plays.get(f"{key // 4}{'OCEB'[key % 4]}") for key in range(52)) for plays in _SEAT_PLAYS)
"""Each seat's plays by the C loop's key of a card word (rank * 4 + suit; None where no card is written so)."""
_TURN_ORDER = {n: tuple(tuple(_SEAT_PLAYS[(seat + k) % n] for k in range(n)) for seat in range(n)) for n in (2, 3, 4)}
"""For ``n`` players and a leader: the seats' play tables in turn order."""


C_TRICKS: bool | None = None
"""Whether the trick lines are read in C (``read_tricks`` in the solver's extension, the same rules as the loop of
:func:`_read`): None, when built; False, the Python loop alone (a test holds both to the same records)."""


def c_tricks() -> Callable[..., tuple[int, int]] | None:
    """The C loop over trick lines, or None when the extension is not built or :data:`C_TRICKS` is False."""
    return None if C_TRICKS is False else _read_tricks()


@cache
def _read_tricks() -> Callable[..., tuple[int, int]] | None:
    """``read_tricks`` of the extension, imported once, on first use (a record's import statement cost as much
    as reading two of its trick lines), or None when it is not built."""
    from ..native import ccore
    return None if ccore is None else ccore.read_tricks


class _NotExport(Exception):
    """The record is not in export format: let the grammar read it."""


def read_export(text: str, first_line: int) -> Record | None:
    """The record of ``text`` if it is in strict export format (es cards), else None."""
    try:
        return _read(text, first_line)
    except (_NotExport, KeyError, ValueError, IndexError):
        return None


def _read(text: str, first_line: int) -> Record:
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    n_lines = len(lines)
    head_end = text.find("\n\n")
    tags = plain_tags(text[1:head_end - 2]) if head_end > 0 and text[0] == "[" and text[head_end - 2:head_end] == '"]' else None
    if tags is not None:  # the common case: plain tag lines, read in a few splits
        i = len(tags)
        tag_lines = dict(zip(tags, range(first_line, first_line + i)))
    else:
        tags, tag_lines, i = {}, {}, 0
    while i < n_lines and lines[i][:1] == "[":
        m = _TAG_LINE.fullmatch(lines[i])
        if m is None:
            raise _NotExport
        if m.group(1) in tags:
            raise _NotExport
        tags[m.group(1)] = unescape(m.group(2))
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
    in_c = c_tricks() if all(len(name) == 1 for name in names) else None
    letters = "".join(names)
    keyed = _KEYED_PLAYS[:n]
    while i < last:
        if in_c is not None:  # the trick lines in C, up to the next line of another kind
            i, expected_trick = in_c(lines, i, last, expected_trick, MAX_TRICKS, letters, keyed, events)
            if i >= last:
                break
        line = lines[i]
        words = line.split(" ")
        if expected_trick < MAX_TRICKS and words[0] == _TRICK_NUMBERS[expected_trick]:  # the common case: a trick line, without a regex
            expected_trick += 1
            seat = seat_of.get(words[1])
            if seat is None:
                raise _NotExport
            del words[:2]
            if len(words) != n and (len(words) > n or not words or i != last - 1 or lines[last] != UNFINISHED):
                raise _NotExport
            events.extend([plays[w] for plays, w in zip(turn_order[seat], words)])  # KeyError: not a card
            i += 1
            continue
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
                ctx = Context(names, trump_of(tags, rules))
            event = parse_declaration(seat, m.group(2), ctx)
            if event.text(ctx) != line:  # e.g. a 20 in trump, which the export format writes 40
                raise _NotExport
            events.append(event)
        i += 1
    if i != last or not RESULT.fullmatch(lines[last]):
        raise _NotExport
    record.termination = lines[last]
    if tags.get("Result", UNFINISHED) != record.termination:
        raise _NotExport
    # Every play line was read in export form, so the writer may reuse them as they are.
    record.keep_play_text("\n".join(lines[play_start:last]), first_line + play_start)
    return record
