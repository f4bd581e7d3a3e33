"""Who sits where at an event's table, and the tags a deal played there carries: what the recorder is started
with from a table's sheet (``/record?event=...&round=...&table=...``, ``tute record --event ... --round ...``).

The home entrant takes side 0's seats, the away one side 1's, each pair in the order it was written: with four
players the home pair sits North and South, the away pair West and East; with two, home North and away South.
A duplicate board (:func:`.duplicate.board_start`) adds its cards, so that every table deals the same hands.
"""

from __future__ import annotations

from pydantic import BaseModel

from ..errors import EventError
from ..i18n import gettext as _
from ..rules import preset
from .duplicate import BoardStart, board_start
from .event import Event


class TableStart(BaseModel):
    """A deal about to be recorded at an event's table: its rules, players by seat, tags, and the board's cards
    (duplicate) or None (the cards are shuffled at the table as usual)."""

    event: str
    round: int
    table: int
    rules: str
    players: dict[str, str]
    """Names by seat letter (``{"N": "Ana Pérez", "S": "Bea Gil", ...}``)."""
    tags: dict[str, str]
    """Event, Round, Table (and Board): how the archive finds the deals played at the table."""
    board: BoardStart | None = None


def seats(event: Event, round_no: int, table_no: int) -> dict[str, str]:
    """The players of table ``table_no`` of round ``round_no`` by seat letter, or :class:`EventError` (no such
    round or table, or a bye, where no one plays)."""
    table = event.round(round_no).table(table_no)
    if table.away is None:
        raise EventError(_("table {table} of round {round} is a bye: no deal is played there", table=table_no,
                           round=round_no))
    rules = preset(event.rules)
    names = rules.seat_names
    found: dict[str, str] = {}
    for side, number in enumerate((table.home, table.away)):
        side_seats = [seat for i, seat in enumerate(names) if i % rules.sides == side]
        found.update(zip(side_seats, event.entrant(number).players))
    return found


def table_start(event: Event, round_no: int, table_no: int, board: int | None = None) -> TableStart:
    """What a recording at table ``table_no`` of round ``round_no`` starts with (and from board ``board``'s
    cards, in a duplicate event), or :class:`EventError`."""
    players = seats(event, round_no, table_no)
    tags = {"Event": event.name, "Round": str(round_no), "Table": str(table_no)}
    dealt = None
    if board is not None:
        dealt = board_start(event, round_no, board)
        tags["Board"] = str(board)
    return TableStart(event=event.name, round=round_no, table=table_no, rules=event.rules, players=players,
                      tags=tags, board=dealt)
