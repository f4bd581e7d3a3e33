"""Standings, cross-table and history of an event, from its rounds' results.

The order of the standings, each key deciding only what the ones before left tied (docs/club.md):

1. matches won (a bye counts as one match won, with no deals and no points);
2. deals won difference (deals won less deals lost);
3. points difference (points made less points conceded);
4. head to head: the matches won in the encounters among the entrants still tied;
5. the name, in alphabetical order (without case), then the entrant's number: a stable order, no draw.

A table without its result yet counts for nothing.  Entrants tied on every key but the name share a place.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby

from pydantic import BaseModel

from .event import Event


class Line(BaseModel):
    """One entrant's line of the standings."""

    place: int
    entrant: int
    name: str
    played: int = 0
    byes: int = 0
    matches_won: int = 0
    matches_lost: int = 0
    deals_won: int = 0
    deals_lost: int = 0
    points_for: int = 0
    points_against: int = 0
    head_to_head: int = 0
    """Matches won against the entrants tied with this one on the first three keys."""

    @property
    def deals_difference(self) -> int:
        return self.deals_won - self.deals_lost

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against

    def row(self) -> dict[str, object]:
        """The line as a flat row (CSV, JSON), the differences included."""
        return {**self.model_dump(), "deals_difference": self.deals_difference,
                "points_difference": self.points_difference}

    def __repr__(self) -> str:
        return f"<Line {self.place}. {self.name!r} won {self.matches_won}>"


class Encounter(BaseModel):
    """One round of an entrant's history: its table, opponent (None: a bye) and its result, its own side first
    (None while the result is not in)."""

    round: int
    table: int
    opponent: int | None
    opponent_name: str | None
    matches: tuple[int, int] | None = None
    deals: tuple[int, int] | None = None
    points: tuple[int, int] | None = None


class CrossRow(BaseModel):
    """One entrant's row of the cross-table: its results against each entrant in the standings' order, its own
    matches won first ("2-1"; several encounters joined by a space; None if they have not met)."""

    entrant: int
    name: str
    cells: list[str | None]


FIELDS = ("played", "byes", "matches_won", "matches_lost", "deals_won", "deals_lost", "points_for", "points_against")


def tally(event: Event) -> dict[int, Line]:
    """Each entrant's totals (places not yet given), summed in plain lists: a pydantic model's attribute set
    costs ten times a list's, which a league's 10,000 results would feel (bench/event.py)."""
    sums = {e.number: [0] * len(FIELDS) for e in event.entrants}
    for rnd in event.rounds:
        results = rnd.results
        for table in rnd.tables:
            if table.away is None:
                line = sums[table.home]
                line[1] += 1
                line[2] += 1
                continue
            result = results.get(table.number)
            if result is None:
                continue
            (hm, am), (hd, ad), (hp, ap) = result.matches, result.deals, result.points
            for me, won, lost, dw, dl, pf, pa in ((sums[table.home], hm, am, hd, ad, hp, ap),
                                                  (sums[table.away], am, hm, ad, hd, ap, hp)):
                me[0] += 1
                me[2] += won
                me[3] += lost
                me[4] += dw
                me[5] += dl
                me[6] += pf
                me[7] += pa
    return {e.number: Line(place=0, entrant=e.number, name=e.name, **dict(zip(FIELDS, sums[e.number])))
            for e in event.entrants}


def meetings(event: Event) -> dict[tuple[int, int], int]:
    """Matches won by the first entrant of each ordered pair in their encounters (results in only)."""
    won: dict[tuple[int, int], int] = defaultdict(int)
    for rnd in event.rounds:
        for table in rnd.tables:
            result = rnd.results.get(table.number)
            if table.away is not None and result is not None:
                won[table.home, table.away] += result.matches[0]
                won[table.away, table.home] += result.matches[1]
    return won


def standings(event: Event) -> list[Line]:
    """The event's standings, best first, in the order of the module's note."""
    lines = list(tally(event).values())

    def main_key(line: Line) -> tuple[int, int, int]:
        return (-line.matches_won, -line.deals_difference, -line.points_difference)

    lines.sort(key=main_key)
    won: dict[tuple[int, int], int] | None = None
    ordered: list[Line] = []
    for _key, tied_lines in groupby(lines, key=main_key):
        tied = list(tied_lines)
        if len(tied) > 1:
            won = meetings(event) if won is None else won
            for line in tied:
                line.head_to_head = sum(won.get((line.entrant, other.entrant), 0) for other in tied)
        ordered += sorted(tied, key=lambda line: (-line.head_to_head, line.name.casefold(), line.entrant))
    for i, line in enumerate(ordered):
        previous = ordered[i - 1] if i else None
        same = previous is not None and (main_key(previous), previous.head_to_head) == (main_key(line), line.head_to_head)
        line.place = previous.place if same and previous is not None else i + 1
    return ordered


def history(event: Event, entrant: int) -> list[Encounter]:
    """Every round ``entrant`` was paired in, in order, its own side first."""
    event.entrant(entrant)
    found = []
    for rnd in event.rounds:
        for table in rnd.tables:
            if entrant not in (table.home, table.away):
                continue
            other = table.away if table.home == entrant else table.home
            result = rnd.results.get(table.number)
            flip = table.away == entrant

            def own(pair: tuple[int, int]) -> tuple[int, int]:
                return (pair[1], pair[0]) if flip else pair

            found.append(Encounter(
                round=rnd.number, table=table.number, opponent=other,
                opponent_name=None if other is None else event.entrant(other).name,
                matches=(1, 0) if other is None else None if result is None else own(result.matches),
                deals=None if result is None else own(result.deals),
                points=None if result is None else own(result.points)))
    return found


def crosstable(event: Event) -> list[CrossRow]:
    """The cross-table: one row per entrant in the standings' order, one cell per entrant in the same order."""
    order = [line.entrant for line in standings(event)]
    cells: dict[tuple[int, int], list[str]] = defaultdict(list)
    for rnd in event.rounds:
        for table in rnd.tables:
            result = rnd.results.get(table.number)
            if table.away is None or result is None:
                continue
            home, away = result.matches
            cells[table.home, table.away].append(f"{home}-{away}")
            cells[table.away, table.home].append(f"{away}-{home}")
    return [CrossRow(entrant=a, name=event.entrant(a).name,
                     cells=[" ".join(cells[a, b]) if (a, b) in cells else None for b in order]) for a in order]
