"""The writer of the export format: the same bytes for the same content.

Tags come in a fixed order with canonical values where the record's values can
be read (:func:`canonical_tags`); the play is one trick a line, each
declaration on a line of its own as the event writes itself
(:meth:`~tutepgn.events.Play.text`), then the termination marker.  A record
read in export form keeps its play lines (:attr:`Record.play_text`), and
writing it again reuses them.
"""

from __future__ import annotations

from functools import cache

from ..cards import CARD_STYLES, CODES, TOKEN_STYLES, suit_display
from ..events import Context, Play
from ..i18n import gettext as _
from ..rules import SEAT_NAMES
from .record import NAG_GLYPHS, Note, Record
from .tags import PLAY_TAG, RESULT_ONLY, SEAT_TAGS, escape_comment, escape_tag_value, format_side_values, restyle

ROSTER = ("Event", "Site", "Date", "Round", "Rules")
"""Tags every exported record carries first, in this order (``?`` when unknown)."""
AFTER_SEATS = ("Dealer", "Deal", "Stock", "Trump", "Play", "Score", "Result", "Match", "DealNo", "MatchTarget", "MatchScore")
"""Known tags after the seat tags, in export order; Dealer and Result are always written."""
ALWAYS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "Rules": "?", "Dealer": "?", "Result": "*"}
"""Tags written even when missing, and the value they then have."""
GLYPH_OF = {n: g for g, n in NAG_GLYPHS.items()}


def canonical_tags(record: Record, style: str = "es") -> list[tuple[str, str]]:
    """The tags in export order with canonical values where the record's values can be read."""
    tags = dict(record.tags)
    tags.setdefault("Result", record.termination)  # a record without a Result tag: its marker says it
    header = record.header_or_none()
    if header is not None:
        r = header.rules
        tags["Rules"] = str(r)
        seat_tags = [SEAT_TAGS[n] for n in r.seat_names]
    else:
        seat_tags = [SEAT_TAGS[n] for n in SEAT_NAMES[4] if SEAT_TAGS[n] in tags]
    tags.pop("Cards", None)
    if header is not None:
        names = r.seat_names
        if header.hands is not None:
            tags["Deal"] = deal_value(header.hands, names, style)
        for name in ("Stock", "Trump"):
            if name in tags:
                tags[name] = " ".join(restyle(tags[name], record.card_style, style).split())
        if header.claimed_score is not None:
            tags["Score"] = format_side_values(header.claimed_score, r)
        if header.match_score is not None:
            tags["MatchScore"] = format_side_values(header.match_score, r)
        if header.result_only:
            tags[PLAY_TAG] = RESULT_ONLY
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


def deal_value(hands: tuple[int, ...], names: tuple[str, ...], style: str = "es") -> str:
    """The Deal tag as the writer gives it: the seats in turn order, each hand's cards in display order.

    Each hand is four look-ups, one text per suit (:func:`_suit_texts`): an import writes, or checks, one
    Deal tag per record."""
    o, c, e, b = _suit_texts(style)
    return " ".join(f"{names[s]}:" + (o[m & 1023] + c[m >> 10 & 1023] + e[m >> 20 & 1023] + b[m >> 30 & 1023])[1:]
                    for s, m in enumerate(hands))


@cache
def _suit_texts(style: str) -> tuple[tuple[str, ...], ...]:
    """For each suit and each of the 1024 masks of its 10 bits, its cards in display order as the Deal tag
    writes them in ``style``, each after a space (made when first asked, for each style)."""
    target = CARD_STYLES[style]
    return tuple(tuple("".join(" " + target[card] for card in cards) for cards in table) for table in suit_display())


_CANONICAL_CARDS = frozenset(CODES)
"""The cards as the canonical (es) style writes them."""
_ORDERED: dict[tuple[tuple[str, ...], tuple[str, ...]], bool] = {}
"""Per tag names in a record's order and seat names: whether the writer keeps that order (a few shapes recur)."""


def export_text(record: Record, text: str) -> str:
    """The export text (es cards) of a record read from ``text``: ``text`` itself when it is written so already.

    Files this library wrote, and an archive's own exports, are read again far
    more often than anything else; checking that their tags are in the
    writer's order with the writer's values costs a fraction of writing them.
    The check is exact: anything it does not vouch for is written anew.
    """
    header = record.header_or_none()
    if record.play_text is None or header is None or "\\" in text:  # not read in export form, or escapes
        return write_record(record)
    tags = record.tags
    r = header.rules
    key = (tuple(tags), r.seat_names)
    ordered = _ORDERED.get(key)
    if ordered is None:
        if len(_ORDERED) > 1024:
            _ORDERED.clear()
        ordered = _ORDERED[key] = [name for name, _ in canonical_tags(record)] == list(tags)
    if not (ordered and tags["Rules"] == str(r)
            and (header.hands is None or tags["Deal"] == deal_value(header.hands, r.seat_names))
            and (header.claimed_score is None or tags["Score"] == format_side_values(header.claimed_score, r))
            and (header.match_score is None or tags["MatchScore"] == format_side_values(header.match_score, r))
            and all(_written(tags[name]) for name in ("Stock", "Trump") if name in tags)):
        return write_record(record)
    return text.rstrip() + "\n"  # the reader took every line after the marker to be blank


def _written(cards: str) -> bool:
    """Whether a Stock or Trump value is as the writer gives it: es cards, one space apart."""
    words = cards.split(" ")
    return _CANONICAL_CARDS.issuperset(words)


def write_record(record: Record, style: str = "es") -> str:
    """Write a record in export format, cards in a token style (``es`` is canonical)."""
    if style not in TOKEN_STYLES:
        raise ValueError(_("card style {style!r} cannot be written in .tpgn (its cards are not single tokens); use "
                           "one of {styles}", style=style, styles=", ".join(TOKEN_STYLES)))
    lines = [f'[{name} "{escape_tag_value(value)}"]' for name, value in canonical_tags(record, style)]
    lines.append("")
    kept = record.play_text if style == "es" else None
    if kept is not None:
        if kept:
            lines.append(kept)
        lines.append(record.termination)
    else:
        lines.extend(play_lines(record, style))
    return "\n".join(lines) + "\n"


def play_lines(record: Record, style: str = "es") -> list[str]:
    """The play section: one trick a line, each declaration on its own line, then the marker."""
    cards = CARD_STYLES[style]
    header = record.header_or_none()
    names = header.rules.seat_names if header is not None else SEAT_NAMES[4]
    n = len(names)
    annotated = record.annotated
    events = record.events
    lines: list[str] = []
    if record.intro:
        lines.append(_note_text(Note(comments=record.intro)).lstrip())
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
            if annotated:
                words = [w + _note_text(record.note(k)) for k, w in enumerate(words, i)]
            lines.append(f"{trick_no}. {names[event.seat]} " + " ".join(words))
            i = j
            continue
        if ctx is None:
            ctx = Context(names, None if header is None else header.trump, style)
        lines.append(event.text(ctx) + _note_text(record.note(i)))
        i += 1
    lines.append(record.termination)
    return lines


def _note_text(note: Note | None) -> str:
    """A note as written after its event: a glyph for the first annotation if it has one, then ``$n`` and comments."""
    if note is None:
        return ""
    comments = "".join(" {" + escape_comment(c) + "}" for c in note.comments)
    return annotation_text(note.nags) + comments


def annotation_text(nags: list[int] | tuple[int, ...]) -> str:
    """Annotations as export writes them after their event: the first as its glyph if it has one
    (``!``), every other as `` $n``; what a viewer shows next to the event."""
    glyphs = "".join(GLYPH_OF[n] for n in nags[:1] if n in GLYPH_OF)
    rest = nags[1:] if glyphs else nags
    return glyphs + "".join(f" ${n}" for n in rest)

