"""Frames of a deal as terminal text: rich renderables, so that commands only print them.

Each suit has a colour; without a colour terminal the text reads the same.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from tutepgn.cards import SUIT_LETTERS
from tutepgn.i18n import gettext as _
from tutepgn.words import seat_words, suit_words
from tutepgn.check.replay import Frame

SUIT_STYLES = dict(zip(SUIT_LETTERS, ("yellow", "red", "blue", "green")))
"""Colour of each suit's cards, by suit letter: oros, copas, espadas, bastos."""


def card_text(code: str) -> Text:
    """A card code in its suit's colour."""
    return Text(code, style=SUIT_STYLES.get(code[-1], ""))


def _cards(codes: tuple[str, ...]) -> Text:
    return Text(" ").join(card_text(c) for c in codes) if codes else Text("-", style="dim")


def render_frame(frame: Frame, count: int | None = None) -> RenderableType:
    """One frame: the event with the record's annotations and comments, trump and stock, each hand, the table,
    points, declarations, any illegality."""
    of = f"/{count - 1}" if count else ""
    title = _("start of the deal") if frame.event is None else f"{frame.index}{of}  {frame.text}{frame.annotation}"
    parts: list[RenderableType] = [Rule(Text(title, style="bold"), align="left")]
    parts.extend(Text(comment, style="italic") for comment in frame.comments)
    trump = Text(_("Trump {suit}  turned ", suit=suit_words(frame.trump)))
    trump.append_text(card_text(frame.turned))
    if frame.stock is not None:
        trump.append(_("  stock {cards}", cards=frame.stock))
    parts.append(trump)
    for seat, cards in zip(frame.seats, frame.hands):
        hand = Text(">" if seat == frame.to_move else " ")
        hand.append(f" {seat} ", style="bold")
        hand.append_text(_cards(cards))
        parts.append(hand)
    parts.append(table_text(frame))
    points = Text(_("Points (cards + cantes): "))
    points.append("  ".join(f"{label} {c}+{k}={c + k}" for label, c, k in
                            zip(frame.sides, frame.card_points, frame.cante_points)))
    parts.append(points)
    if frame.cantes:
        parts.append(Text(_("Cantes: {cantes}", cantes=", ".join(frame.cantes))))
    if frame.exchanges:
        parts.append(Text(_("Exchanges: {exchanges}", exchanges=", ".join(frame.exchanges))))
    if frame.illegal is not None:
        what = _("skipped") if frame.skipped else _("played as written")
        parts.append(Text(_("Illegal [{rule}]: {refusal} ({what})", rule=frame.rule, refusal=frame.illegal, what=what),
                          style="bold red"))
    if frame.totals is not None:
        score = " ".join(f"{label}:{v}" for label, v in zip(frame.sides, frame.totals))
        parts.append(Text(_("Deal over. Score {score} (last ten included)  Result {result}", score=score,
                            result=frame.result), style="bold"))
    return Group(*parts)


def table_text(frame: Frame) -> Text:
    """The cards on the table: ``Trick 3: N 1E  W 4E  S 7E  E 2E  won by N (21)``."""
    if not frame.table:
        return Text(_("Trick {trick}: not led yet", trick=frame.trick_no + 1) if not frame.over else _("Table: empty"),
                    style="dim")
    line = Text(_("Trick {trick}: ", trick=frame.trick_no))
    for i, (seat, code) in enumerate(frame.table):
        line.append(("  " if i else "") + f"{seat} ")
        line.append_text(card_text(code))
    if frame.winner is not None:
        line.append(_("  won by {seat} ({points})", seat=seat_words(frame.winner), points=frame.trick_points),
                    style="bold")
    return line
