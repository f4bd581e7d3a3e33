"""An event's tables as the archive's deals tell them: the deals recorded at a table, the result they give, and
the stored events in a line each.

A deal belongs to a table when its tags say so: ``Event`` the event's name, ``Round`` the round's number and
``Table`` the table's (the recorder sets them from ``/record?event=...&round=...&table=...``).  The home pair
sits N and S (four players) or N (two); the seat of each deal's players decides which side is home, so a table
that sat the other way round is still counted right.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import duckdb
from pydantic import BaseModel, Field

from ..errors import EventError
from ..i18n import gettext as _
from ..tournament.event import Entrant, Event, Result
from .club import MAX_MATCH_DEALS, matches
from .ids import DealId

if TYPE_CHECKING:
    from .store import Archive

SEATS = "NWSE"
"""The seat letters, in the order of the deals' ``north, west, south, east`` columns."""


class EventLine(BaseModel):
    """A stored event in a line: what the list of events shows."""

    name: str
    kind: str
    rules: str
    format: str
    planned_rounds: int
    rounds: int = Field(description="The rounds paired so far.")
    entrants: int


class TableDeal(BaseModel):
    """A deal recorded at an event's table: what the table page lists."""

    id: DealId
    match_id: str | None
    deal_no: int | None
    players: dict[str, str | None] = Field(description="The players by seat letter.")
    sides: list[str]
    score: list[int] | None = Field(None, description="Card points and cantes per side.")
    result: str | None
    winner: str | None


def event_lines(archive: Archive) -> list[EventLine]:
    """Every stored event in a line, newest first (none in a file from before events)."""
    try:
        rows = archive.con.execute(
            "SELECT e.name, e.kind, e.rules, e.format, e.planned_rounds, "
            "(SELECT count(DISTINCT t.round) FROM event_tables t WHERE t.event = e.name), "
            "(SELECT count(*) FROM event_entrants n WHERE n.event = e.name) "
            "FROM events e ORDER BY e.created DESC, e.name").fetchall()
    except duckdb.CatalogException:
        return []
    return [EventLine(name=n, kind=k, rules=r, format=f, planned_rounds=p, rounds=rounds, entrants=entrants)
            for n, k, r, f, p, rounds, entrants in rows]


def table_deals(archive: Archive, name: str, round_no: int, table: int) -> list[TableDeal]:
    """The deals tagged for table ``table`` of round ``round_no`` of event ``name``, by match and deal number."""
    rows = archive.con.execute(
        "SELECT id, match_id, deal_no, north, west, south, east, sides, score, result, winner FROM deals "
        "WHERE event = ? AND round = ? AND list_contains(map_extract(tags, 'Table'), ?) "
        "ORDER BY match_id NULLS LAST, deal_no NULLS LAST, import_run, import_index LIMIT ?",
        [name, str(round_no), str(table), MAX_MATCH_DEALS]).fetchall()
    return [TableDeal(id=r[0], match_id=r[1], deal_no=r[2],
                      players={seat: p for seat, p in zip(SEATS, r[3:7]) if p is not None}, sides=list(r[7] or []),
                      score=None if r[8] is None else list(r[8]), result=r[9], winner=r[10]) for r in rows]


def home_side(sides: list[str], players: dict[str, str | None], away: Entrant) -> int:
    """Which of a deal's two sides is the home pair's: the side of N, unless the away pair sits there."""
    if len(sides) != 2:
        raise EventError(_("a table's deals are played by two sides, not {n}", n=len(sides)))
    north = next(i for i, side in enumerate(sides) if "N" in side)
    taken = {p.casefold() for p in away.players}
    at_north = (players.get("N") or "").casefold()
    return 1 - north if at_north in taken else north


def tally(archive: Archive, table: int, away: Entrant, deals: list[TableDeal]) -> Result:
    """The result ``deals`` give: the finished matches they belong to won per pair, deals won, and the points
    (card points and cantes) each pair made; home first."""
    matches_won, deals_won, points = [0, 0], [0, 0], [0, 0]
    for deal in deals:
        home = home_side(deal.sides, deal.players, away)
        if deal.winner in deal.sides:
            deals_won[0 if deal.sides.index(deal.winner) == home else 1] += 1
        if deal.score is not None and len(deal.score) == 2:
            points = [points[0] + deal.score[home], points[1] + deal.score[1 - home]]
    ids = {d.id for d in deals}
    for match_id in sorted({d.match_id for d in deals if d.match_id is not None}):
        for told in matches(archive, match_id):
            if told.winner is None or told.winner not in told.sides or not ids & {d.summary.id for d in told.deals}:
                continue
            home = home_side(told.sides, told.seats, away)
            matches_won[0 if told.sides.index(told.winner) == home else 1] += 1
    return Result(table=table, matches=(matches_won[0], matches_won[1]), deals=(deals_won[0], deals_won[1]),
                  points=(points[0], points[1]))


def result_of_table(archive: Archive, event: Event, round_no: int, table: int) -> Result:
    """Table ``table`` of round ``round_no``: the result its tagged deals give, or :class:`EventError` if no
    deal is tagged for it (or it is a bye)."""
    seated = event.round(round_no).table(table)
    if seated.away is None:
        raise EventError(_("table {table} of round {round} is a bye: it has no result", table=table, round=round_no))
    deals = table_deals(archive, event.name, round_no, table)
    if not deals:
        raise EventError(_("no deal in the archive is tagged Event {event}, Round {round}, Table {table}: record "
                           "the table's deals from its page, or enter the result by hand", event=event.name,
                           round=round_no, table=table))
    return tally(archive, table, event.entrant(seated.away), deals)
