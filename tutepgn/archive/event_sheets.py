"""An event's papers: its standings as PDF, XLSX or CSV, and a round's table sheets to put on each table.

The standings are the page's (``/events/{name}/standings``) in the same order: the tie-breaks of
:func:`tutepgn.tournament.standings` (a duplicate event: the matchpoint ranking,
:func:`tutepgn.tournament.ranking`), then the cross-table (duplicate: every board scored) as a second table.
A table sheet is one A4 page per table that plays: the event, round and table, both pairs with their seats,
boxes for the result, and a QR code of the table's page (the phone that scans it enters the result or records
the deals), its URL printed under it; in a duplicate event, every board's cards to deal, seat by seat.
Everything goes out through :func:`.printing.document` / :func:`.printing.tables_pdf`.
"""

from __future__ import annotations

import io
from datetime import date
from urllib.parse import quote

from ..i18n import gettext as _
from ..words import card_words, seat_words
from ..i18n import speaking
from ..tournament import Event, Round, crosstable, ranking, standings
from ..tournament.duplicate import BoardStart, board_start, round_boards, scores
from ..tournament.seating import seats
from .club_sheets import file_name
from .printing import MEDIA_TYPES, Cell, Download, Table, document, tables_pdf


def standings_download(event: Event, fmt: str, lang: str, *, printed: date | None = None) -> Download:
    """The event's standings as ``tute-standings-NAME.fmt`` (csv, xlsx, pdf): title the event's name, subtitle
    its rules and the round it stands at; the standings, then the cross-table (the CSV: the standings only)."""
    with speaking(lang):
        return document(fmt, file_name("tute-standings", event.name), event.name, subtitle(event),
                        standings_tables(event), lang, printed=printed)


def subtitle(event: Event) -> str:
    """The rules, the format and the round the event stands at, then how its ties are broken."""
    played = len(event.rounds)
    where = (_("round {round} of {rounds}", round=played, rounds=event.planned_rounds) if event.planned_rounds
             else _("round {round}", round=played)) if played else _("not paired yet")
    order = (_("Ranked by the percentage of matchpoints won.") if event.format == "duplicate" else
             _("Tie-breaks: matches won, then the deals difference, the points difference, the matches won "
               "between the pairs still tied, and the name."))
    return f"{event.rules} · {event.format} · {where}\n{order}"


def standings_tables(event: Event) -> list[Table]:
    """The standings (duplicate: the ranking), then the cross-table (duplicate: the boards scored)."""
    if event.format == "duplicate":
        return duplicate_tables(event)
    lines = standings(event)
    first = Table(_("Standings"), (_("place"), _("number"), _("entrant"), _("played"), _("matches won"),
                                   _("matches lost"), _("deals +/-"), _("points +/-"), _("head to head")),
                  [(line.place, line.entrant, line.name, line.played, line.matches_won, line.matches_lost,
                    line.deals_difference, line.points_difference, line.head_to_head) for line in lines])
    rows = crosstable(event)
    cross: list[list[Cell]] = [[f"{r.entrant}. {r.name}", *("—" if r.entrant == other.entrant else cell or ""
                                                           for other, cell in zip(rows, r.cells))] for r in rows]
    return [first, Table(_("Cross-table"), (_("entrant"), *(str(r.entrant) for r in rows)), cross)]


def duplicate_tables(event: Event) -> list[Table]:
    """A duplicate event's ranking by matchpoints, then every board played, scored."""
    names = {e.number: e.name for e in event.entrants}
    first = Table(_("Standings"), (_("place"), _("number"), _("entrant"), _("boards"), _("matchpoints"), _("top"),
                                   _("percentage")),
                  [(line.place, line.entrant, line.name, line.boards, line.matchpoints, line.top, line.percentage)
                   for line in ranking(event)])
    boards = Table(_("Boards"), (_("round"), _("table"), _("board"), _("home"), _("away"), _("points home"),
                                 _("points away"), _("matchpoints home"), _("matchpoints away")),
                   [(s.round, s.table, s.board, names[s.entrants[0]], names[s.entrants[1]], *s.points,
                     *s.matchpoints) for s in scores(event)])
    return [first, boards]


def table_url(base_url: str, event: str, round_no: int, table: int) -> str:
    """The absolute URL of a table's page, which its sheet's QR code holds."""
    return f"{base_url.rstrip('/')}/events/{quote(event, safe='')}/rounds/{round_no}/tables/{table}"


def qr_png(text: str) -> bytes:
    """``text`` as a QR code in PNG (error correction M: a sheet with a coffee stain still scans)."""
    import segno  # loaded by a table sheet only

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=8, border=4)
    return out.getvalue()


def table_sheets_pdf(event: Event, round_no: int, base_url: str, lang: str, *,
                     printed: date | None = None) -> Download:
    """Round ``round_no``'s table sheets as ``tute-sheets-NAME-round-N.pdf``: a page for each table that plays
    (a bye is named under the title), its QR code the URL of the table's page under ``base_url``
    (``http://192.168.1.10:8000``).  :class:`~tutepgn.errors.EventError` for a round the event has not."""
    rnd = event.round(round_no)
    with speaking(lang):
        title = _("{event}: round {round}", event=event.name, round=round_no)
        lines = [_("Table sheets"), f"{event.rules} · {event.format}"]
        lines += [_("Bye: {entrant}", entrant=str(event.entrant(t.home))) for t in rnd.tables if t.bye]
        tables = [table for t in rnd.tables if not t.bye
                  for table in sheet_tables(event, rnd, t.number, table_url(base_url, event.name, round_no, t.number))]
        if not tables:
            lines.append(_("No table plays in this round."))
        body = tables_pdf(title, "\n".join(lines), tables, lang, printed=printed)
    return Download(body, MEDIA_TYPES["pdf"], file_name("tute-sheets", event.name, "round", str(round_no)) + ".pdf")


def sheet_tables(event: Event, rnd: Round, table_no: int, url: str) -> list[Table]:
    """One table's sheet: its pairs by seat under the QR code, the boxes of its result, and in a duplicate event
    each board's cards to deal."""
    table = rnd.table(table_no)
    assert table.away is not None  # byes have no sheet
    seated = seats(event, rnd.number, table_no)
    sides = ((_("home"), event.entrant(table.home)), (_("away"), event.entrant(table.away)))
    pairs = Table(_("{event} · round {round} · table {table}", event=event.name, round=rnd.number, table=table_no),
                  (_("side"), _("number"), _("entrant"), _("seats")),
                  [(side, e.number, e.name, " · ".join(f"{seat} {name}" for seat, name in seated.items()
                                                          if name in e.players)) for side, e in sides],
                  picture=qr_png(url), caption=url, new_page=True)
    heading = ("", *(f"{side}: {e.number}. {e.name}" for side, e in sides))
    if event.format != "duplicate":
        boxes = [(_("matches won"), None, None), (_("deals won"), None, None), (_("points"), None, None)]
        return [pairs, Table(_("Result"), heading, boxes, blank=True)]
    boards = [board_start(event, rnd.number, b.number) for b in round_boards(event, rnd.number)]
    result = Table(_("Result"), heading,
                   [(_("board {board}: points", board=b.board), None, None) for b in boards], blank=True)
    return [pairs, result, *(board_table(b, seated) for b in boards)]


def board_table(board: BoardStart, seated: dict[str, str]) -> Table:
    """A duplicate board's cards to deal, seat by seat (with two players, the stock too, from the top)."""
    rows: list[tuple[Cell, ...]] = [(seat, seated.get(seat, ""), " ".join(cards)) for seat, cards in board.hands.items()]
    if board.stock:
        rows.append((_("stock"), "", board.stock))
    return Table(_("Board {board}: {dealer} deals, the turned card is {turned}", board=board.board,
                   dealer=seat_words(board.dealer), turned=card_words(board.turned)),
                 (_("seat"), _("player"), _("cards to deal")), rows)
