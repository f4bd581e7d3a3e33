"""A club event (torneo or liga): its entrants, its rounds, the tables of each round and their results.

Plain pydantic models with no database behind them: :mod:`tutepgn.archive.events` stores them, the pairing
(:mod:`.pairing`), the standings (:mod:`.standings`) and duplicate scoring (:mod:`.duplicate`) read them.
Entrants are numbered from 1 in the order they registered; a table's ``away`` is None for a bye.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import EventError
from ..i18n import gettext as _
from ..rules import preset

Kind = Literal["torneo", "liga"]
"""A torneo (a championship of one evening or a few) or a liga (a season's league)."""
Format = Literal["swiss", "round-robin", "knockout", "duplicate"]
"""How rounds are paired: Swiss, all-play-all, knockout, or all-play-all on the same boards (duplicate)."""
FORMATS: tuple[str, ...] = ("swiss", "round-robin", "knockout", "duplicate")
KINDS: tuple[str, ...] = ("torneo", "liga")


class Entrant(BaseModel):
    """A pair (two players) or a single player, by its number in the event."""

    model_config = ConfigDict(frozen=True)

    number: int = Field(ge=1)
    players: tuple[str, ...] = Field(min_length=1, max_length=2)

    @property
    def name(self) -> str:
        """The players as a pair is written on a sheet: ``Ana Pérez/Bea Gil``."""
        return "/".join(self.players)

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"

    def __repr__(self) -> str:
        return f"<Entrant {self.number} {self.name!r}>"


class Table(BaseModel):
    """One table of a round: ``home`` against ``away`` (entrant numbers), or ``home`` alone with a bye."""

    model_config = ConfigDict(frozen=True)

    number: int = Field(ge=1)
    home: int
    away: int | None = None

    @property
    def bye(self) -> bool:
        """Whether ``home`` sits out this round (a bye counts as one match won: docs/club.md)."""
        return self.away is None

    def __str__(self) -> str:
        return f"{self.number}: {self.home}-{'bye' if self.away is None else self.away}"

    def __repr__(self) -> str:
        return f"<Table {self}>"


class Result(BaseModel):
    """What a table's encounter gave, each pair of numbers home first: matches, deals and points won."""

    model_config = ConfigDict(frozen=True)

    table: int = Field(ge=1)
    matches: tuple[int, int] = (0, 0)
    deals: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)

    def __str__(self) -> str:
        return f"{self.table}: {self.matches[0]}-{self.matches[1]}"

    def __repr__(self) -> str:
        return (f"<Result table {self.table} matches {self.matches[0]}-{self.matches[1]} "
                f"deals {self.deals[0]}-{self.deals[1]} points {self.points[0]}-{self.points[1]}>")


class BoardResult(BaseModel):
    """A duplicate board played at a table: the points each side made (home sits NS, away WE)."""

    model_config = ConfigDict(frozen=True)

    table: int = Field(ge=1)
    board: int = Field(ge=1)
    points: tuple[int, int]

    def __repr__(self) -> str:
        return f"<BoardResult table {self.table} board {self.board} {self.points[0]}-{self.points[1]}>"


class Round(BaseModel):
    """A round: its tables and the results entered so far (one per table at most, by table number)."""

    number: int = Field(ge=1)
    tables: list[Table]
    results: dict[int, Result] = Field(default_factory=dict)
    boards: list[BoardResult] = Field(default_factory=list)

    def table(self, number: int) -> Table:
        """The table ``number`` of this round, or :class:`EventError`."""
        for table in self.tables:
            if table.number == number:
                return table
        raise EventError(_("round {round} has no table {table}", round=self.number, table=number))

    @property
    def complete(self) -> bool:
        """Whether every table that plays has its result (byes need none)."""
        return all(t.bye or t.number in self.results for t in self.tables)

    def __repr__(self) -> str:
        return f"<Round {self.number}: {len(self.tables)} tables, {len(self.results)} results>"


class Event(BaseModel):
    """A torneo or a liga: its ruleset, its format, the rounds planned, the pairing seed, entrants and rounds."""

    name: str = Field(min_length=1, max_length=200)
    kind: Kind = "torneo"
    rules: str = "ludoteka-pairs"
    format: Format = "swiss"
    planned_rounds: int = Field(default=0, ge=0, le=1000)
    """0: as many as the format gives (all-play-all: every encounter once; knockout: to the final)."""
    seed: int = 0
    boards_per_round: int = Field(default=2, ge=1, le=64)
    """Duplicate only: the boards every table of a round plays."""
    entrants: list[Entrant] = Field(default_factory=list)
    rounds: list[Round] = Field(default_factory=list)

    def model_post_init(self, context: object, /) -> None:
        preset(self.rules)  # an unknown ruleset is refused here, with the presets named

    @classmethod
    def new(cls, name: str, *, kind: str = "torneo", rules: str = "ludoteka-pairs", format: str = "swiss",
            planned_rounds: int = 0, seed: int = 0, boards_per_round: int = 2) -> Event:
        """A new event from what a person typed: a refusal is an :class:`EventError` (or the ruleset's
        :class:`~tutepgn.errors.UnknownRuleset`) in words, never a validation dump."""
        name = " ".join(name.split())
        rules = preset(rules).preset  # a name for players ("tute a tres") is kept as the id files write
        if not name or len(name) > 200:
            raise EventError(_("an event's name has 1 to 200 characters"))
        if kind not in KINDS or format not in FORMATS:
            raise EventError(_("an event's kind is {kinds} and its format one of {formats}", kinds=" or ".join(KINDS),
                               formats=", ".join(FORMATS)))
        if not 0 <= planned_rounds <= 1000 or not 1 <= boards_per_round <= 64:
            raise EventError(_("an event plays 0 to 1000 rounds and 1 to 64 boards a round"))
        return cls(name=name, kind=kind, rules=rules, format=format, planned_rounds=planned_rounds, seed=seed,
                   boards_per_round=boards_per_round)

    def entrant(self, number: int) -> Entrant:
        """The entrant ``number``, or :class:`EventError`."""
        if 1 <= number <= len(self.entrants) and self.entrants[number - 1].number == number:
            return self.entrants[number - 1]
        found = next((e for e in self.entrants if e.number == number), None)
        if found is None:
            raise EventError(_("event {event} has no entrant {number}", event=self.name, number=number))
        return found

    def round(self, number: int) -> Round:
        """The round ``number``, or :class:`EventError`."""
        if not 1 <= number <= len(self.rounds):
            raise EventError(_("event {event} has no round {round}", event=self.name, round=number))
        return self.rounds[number - 1]

    def __repr__(self) -> str:
        return (f"<Event {self.name!r} {self.kind} {self.format} {self.rules}: {len(self.entrants)} entrants, "
                f"{len(self.rounds)} rounds>")

    def __str__(self) -> str:
        return self.name


def parse_entrant(text: str, number: int) -> Entrant:
    """An entrant from how a secretary writes it: ``Ana Pérez/Bea Gil`` (a pair) or ``Ana Pérez`` (one player)."""
    players = tuple(" ".join(p.split()) for p in text.split("/"))
    if not 1 <= len(players) <= 2 or not all(players):
        raise EventError(_("an entrant is one player or a pair written Name/Name, not {text!r}", text=text))
    return Entrant(number=number, players=players)


def add_entrant(event: Event, text: str) -> Entrant:
    """A new entrant for ``event``, numbered next (not added: the caller stores it).  A pairs event takes
    pairs only, an individual one single players only (its first entrant decides), and no name twice."""
    entrant = parse_entrant(text, len(event.entrants) + 1)
    if event.rounds and event.format in ("round-robin", "duplicate", "knockout"):
        raise EventError(_("event {event} has started: its {format} schedule takes no new entrant",
                           event=event.name, format=event.format))
    if event.entrants and len(event.entrants[0].players) != len(entrant.players):
        raise EventError(_("event {event} takes entrants of {n} players", event=event.name,
                           n=len(event.entrants[0].players)))
    taken = {p.casefold() for e in event.entrants for p in e.players}
    for player in entrant.players:
        if player.casefold() in taken:
            raise EventError(_("{player} is already an entrant of {event}", player=player, event=event.name))
    return entrant


def check_result(event: Event, round_no: int, result: Result) -> Result:
    """``result`` if it fits a table of round ``round_no`` (not a bye; no negative figure; a knockout needs a
    winner), else :class:`EventError`."""
    table = event.round(round_no).table(result.table)
    if table.bye:
        raise EventError(_("table {table} of round {round} is a bye: it has no result", table=table.number,
                           round=round_no))
    if min(*result.matches, *result.deals) < 0:
        raise EventError(_("matches and deals won cannot be negative"))
    if event.format == "knockout" and result.matches[0] == result.matches[1]:
        raise EventError(_("a knockout table needs a winner: the matches won cannot be equal"))
    return result
