"""What a club's pages show beside a deal: a match (its deals in order, the standing after each, the winner) and a
player (their deals, results, cantes, partners and opponents).  The service answers both as JSON and as pages.

A match is told from the counts the archive stored for its deals (no record is read again), as ``tute validate``
carries a match: the standing from the first deal's MatchScore (else nothing), each finished deal's match points
added, the winner as the engine's :class:`~tutepgn.match.Match` decides it (:func:`tutepgn.match.match_winner`,
:func:`tutepgn.score.tute_wins_match`).  Match ids are chosen by whoever recorded the deals, so two matches may
share one: deals under one id are told apart by their rules and their players.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from ..errors import TuteError
from ..match import match_winner
from ..rules import Ruleset
from ..score import tute_wins_match
from .columns import SUMMARY_COLUMNS
from .search import DealSummary

if TYPE_CHECKING:
    from .store import Archive

MAX_MATCH_DEALS = 500
"""The most deals a match page reads (a match to 4 points takes a few deals; this bounds a hostile archive)."""
PLAYER_DEALS = 50
"""A player page lists this many of their deals, newest first (the search lists them all)."""

class MatchDeal(BaseModel):
    """One deal of a match, and where it left the match."""

    summary: DealSummary
    match_points: list[int] | None = Field(None, description="What the deal gave each side toward the target.")
    standing: list[int] | None = Field(None, description="The match standing after this deal, per side.")
    decides: bool = Field(False, description="This deal won the match.")


class MatchView(BaseModel):
    """A match: its deals in order, the standing after each, and who won it."""

    match: str = Field(description="The Match tag.")
    rules: str | None = None
    event: str | None = None
    target: int | None = Field(None, description="The points that win the match (MatchTarget, else the rules').")
    sides: list[str]
    seats: dict[str, str | None] = Field(description="Player name per seat letter.")
    deals: list[MatchDeal]
    standing: list[int] | None = Field(None, description="The standing after the last deal told.")
    winner: str | None = Field(None, description="The side that won the match; None while it goes on.")
    winner_players: list[str] = Field(default_factory=list, description="The winning side's players.")

    def around(self, deal_id: int) -> tuple[MatchDeal | None, MatchDeal | None, MatchDeal | None]:
        """This deal of the match, with the deals before and after it (None where there is none)."""
        ids = [d.summary.id for d in self.deals]
        if deal_id not in ids:
            return None, None, None
        at = ids.index(deal_id)
        return (self.deals[at - 1] if at else None, self.deals[at],
                self.deals[at + 1] if at + 1 < len(self.deals) else None)


def matches(archive: Archive, match_id: str) -> list[MatchView]:
    """Every match stored under ``match_id`` (usually one), each told deal by deal."""
    return _matches(archive, "?", match_id)


def match_of(archive: Archive, deal_id: int) -> MatchView | None:
    """The match a deal belongs to, or None (no Match tag, or no such deal)."""
    told = _matches(archive, "(SELECT match_id FROM deals WHERE id = ?)", deal_id)  # one query: on every deal page
    return next((m for m in told if m.around(deal_id)[1] is not None), None)


MATCH_COLUMNS = (*SUMMARY_COLUMNS, "match_target", "match_score", "match_points", "complete", "tute", "winner")
"""The columns a match is told from."""
MATCH_ORDER = "rules, north, west, south, east, deal_no NULLS LAST, import_run, import_index"
"""A match's deals in order, after the columns that tell two matches under one id apart."""
one_match = itemgetter("match_id", "rules", "north", "west", "south", "east")
"""The same id, another match: other players (or another ruleset)."""


def every_match(archive: Archive) -> Iterator[MatchView]:
    """Every match of the archive (the deals with a Match tag), by id: what the ratings read."""
    cursor = archive.con.execute(
        f"SELECT {', '.join(MATCH_COLUMNS)} FROM deals WHERE match_id IS NOT NULL ORDER BY match_id, {MATCH_ORDER}")
    rows = (dict(zip(MATCH_COLUMNS, r)) for r in cursor.fetchall())
    for key, group in groupby(rows, key=one_match):
        yield _told(key[0], list(group))


def _matches(archive: Archive, match_sql: str, value: object) -> list[MatchView]:
    """The matches whose id is ``match_sql`` (SQL of one parameter, ``value``)."""
    # A results-only deal (sin jugadas) counts as any finished deal: its match points are its Result's.
    cursor = archive.con.execute(
        f"SELECT {', '.join(MATCH_COLUMNS)} FROM deals WHERE match_id = {match_sql} ORDER BY {MATCH_ORDER} LIMIT ?",
        [value, MAX_MATCH_DEALS])
    rows = [dict(zip(MATCH_COLUMNS, r)) for r in cursor.fetchall()]
    return [_told(rows[0]["match_id"], list(group)) for _, group in groupby(rows, key=one_match)]


def _told(match_id: str, rows: list[dict[str, Any]]) -> MatchView:
    """One match's rows, in order, told from their stored counts: the standing after each finished deal, and
    the deal that won the match."""
    first = rows[0]
    try:
        rules = Ruleset.from_spec(first["rules"]) if first["rules"] else None
    except (TuteError, ValueError):  # a Rules tag the archive kept but no ruleset reads: no target, no winner
        rules = None
    target = first["match_target"] or (rules.match_target if rules is not None else None)
    sides = list(first["sides"] or [])
    standing = list(first["match_score"] or [0] * len(sides))
    told, winner = False, None
    deals: list[MatchDeal] = []
    for row in rows:
        after, decides, points = None, False, row["match_points"]
        if points is not None and (row["complete"] or row["tute"] or row["result_only"]) and len(points) == len(standing):
            standing = [a + b for a, b in zip(standing, points)]
            after, told = list(standing), True
            if winner is None and target is not None:
                outright = (row["tute"] and rules is not None and tute_wins_match(rules, target)
                            and row["winner"] in sides)
                winner = match_winner(standing, target, sides.index(row["winner"]) if outright else None)
                decides = winner is not None
        deals.append(MatchDeal(summary=DealSummary.from_row(row), match_points=points, standing=after,
                               decides=decides))
    seats = deals[0].summary.seats
    side = sides[winner] if winner is not None else None
    return MatchView(match=match_id, rules=first["rules"], event=first["event"], target=target, sides=sides,
                     seats=seats, deals=deals, standing=standing if told else None, winner=side,
                     winner_players=[name for letter, name in seats.items() if side and letter in side and name])


class Companion(BaseModel):
    """Someone a player sat with or against: how many deals, and how many of those the player won."""

    name: str
    deals: int
    wins: int


class PlayerDeal(BaseModel):
    """One deal of a player: where they sat and how it went for them."""

    summary: DealSummary
    seat: str
    side: str | None
    won: bool | None = Field(None, description="The player's side won the deal; None while it is unfinished.")


class PlayerView(BaseModel):
    """A player as the archive knows them: their deals, results, cantes, partners and opponents."""

    name: str
    deals: int
    wins: int
    losses: int
    unfinished: int
    cantes: dict[str, int] = Field(description="Cantes the player sang and the rules accepted, by points (20, 40).")
    tutes: int
    partners: list[Companion]
    opponents: list[Companion]
    recent: list[PlayerDeal] = Field(description=f"Their newest deals (at most {PLAYER_DEALS}).")


def player(archive: Archive, name: str, limit: int = PLAYER_DEALS) -> PlayerView | None:
    """A player by the name the records give (exactly), or None if no deal names them."""
    con = archive.con
    wins, deals, unfinished = con.execute(
        "SELECT count(*) FILTER (WHERE d.winner = h.side), count(*), count(*) FILTER (WHERE d.winner IS NULL) "
        "FROM hands h JOIN deals d ON d.id = h.deal_id WHERE h.player = ?", [name]).fetchone()  # type: ignore[misc]
    if not deals:
        return None
    cantes = dict(con.execute(
        "SELECT points::VARCHAR, count(*) FROM declarations WHERE player = ? AND kind = 'cante' AND accepted "
        "GROUP BY points ORDER BY points", [name]).fetchall())
    tutes = con.execute("SELECT count(*) FROM declarations WHERE player = ? AND kind = 'tute' AND accepted",
                        [name]).fetchone()[0]  # type: ignore[index]

    def companions(same_side: bool) -> list[Companion]:
        cursor = con.execute(
            "SELECT o.player, count(*) AS n, count(*) FILTER (WHERE d.winner = h.side) FROM hands h "
            "JOIN hands o ON o.deal_id = h.deal_id AND o.seat <> h.seat JOIN deals d ON d.id = h.deal_id "
            "WHERE h.player = ? AND o.player IS NOT NULL AND o.player <> '?' AND o.player <> h.player "
            "AND (o.side = h.side) = ? GROUP BY o.player ORDER BY n DESC, o.player LIMIT 20", [name, same_side])
        return [Companion(name=n, deals=k, wins=w) for n, k, w in cursor.fetchall()]

    columns = SUMMARY_COLUMNS
    cursor = con.execute(
        f"SELECT {', '.join('d.' + c for c in columns)}, h.seat, h.side, d.winner FROM hands h "
        "JOIN deals d ON d.id = h.deal_id WHERE h.player = ? ORDER BY d.date DESC NULLS LAST, d.match_id, d.deal_no DESC, d.id LIMIT ?",
        [name, limit])
    recent = []
    for values in cursor.fetchall():
        row = dict(zip(columns, values))
        seat, side, winner = values[len(columns):]
        recent.append(PlayerDeal(summary=DealSummary.from_row(row), seat=seat, side=side,
                                 won=None if winner is None else winner == side))
    return PlayerView(name=name, deals=deals, wins=wins, losses=deals - wins - unfinished, unfinished=unfinished,
                      cantes=cantes, tutes=tutes, partners=companions(True), opponents=companions(False),
                      recent=recent)
