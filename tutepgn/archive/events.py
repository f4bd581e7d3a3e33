"""Club events stored in the archive file: events, entrants, rounds, tables, results and duplicate boards.

The tables (:data:`EVENT_SCHEMA`) are created with the archive.  Each write is one transaction that reads the
event, lets :mod:`tutepgn.tournament` decide (a new entrant, the next round's pairing, a result's check), and
writes what it gave: when a call returns, its commit is in the file's write-ahead log (acknowledged means
durable), and a refused or failed call leaves the file as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

import duckdb
from pydantic import BaseModel

from ..errors import EventError, UnknownEvent
from ..i18n import gettext as _
from ..tournament.duplicate import check_board
from ..tournament.event import BoardResult, Entrant, Event, Result, Round, Table, add_entrant, check_result
from ..tournament.pairing import next_round
from ..tournament.standings import Encounter, history
from . import schema
from .event_tables import result_of_table

if TYPE_CHECKING:
    from .store import Archive

T = TypeVar("T")


class PlayerEntry(BaseModel):
    """One event a player entered: the event's name and kind, the entrant (the player's pair), its rounds."""

    event: str
    kind: str
    entrant: Entrant
    encounters: list[Encounter]

EVENT_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    name VARCHAR PRIMARY KEY, kind VARCHAR NOT NULL, rules VARCHAR NOT NULL, format VARCHAR NOT NULL,
    planned_rounds INTEGER NOT NULL, seed BIGINT NOT NULL, boards_per_round INTEGER NOT NULL,
    created TIMESTAMP DEFAULT current_timestamp);
CREATE TABLE IF NOT EXISTS event_entrants (
    event VARCHAR NOT NULL, number INTEGER NOT NULL, players VARCHAR[] NOT NULL, PRIMARY KEY (event, number));
CREATE TABLE IF NOT EXISTS event_tables (
    event VARCHAR NOT NULL, round INTEGER NOT NULL, number INTEGER NOT NULL, home INTEGER NOT NULL, away INTEGER,
    PRIMARY KEY (event, round, number));
CREATE TABLE IF NOT EXISTS event_results (
    event VARCHAR NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL,
    home_matches INTEGER NOT NULL, away_matches INTEGER NOT NULL, home_deals INTEGER NOT NULL,
    away_deals INTEGER NOT NULL, home_points INTEGER NOT NULL, away_points INTEGER NOT NULL,
    PRIMARY KEY (event, round, table_no));
CREATE TABLE IF NOT EXISTS event_boards (
    event VARCHAR NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL, board INTEGER NOT NULL,
    home_points INTEGER NOT NULL, away_points INTEGER NOT NULL, PRIMARY KEY (event, round, table_no, board));
"""
"""The events' tables (a round is its tables: ``event_tables`` rows with the same ``round``)."""


def insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[list[object]]) -> None:
    """Insert ``rows`` into ``table`` in one statement, through an Arrow table: a league's 10,000 results take
    a second where a statement a row took a minute and a half (bench/event.py)."""
    if not rows:
        return
    import pyarrow as pa  # loaded by a write of many rows, not by a read

    batch = pa.table({f"c{i}": list(column) for i, column in enumerate(zip(*rows))})
    con.register("event_rows", batch)
    try:
        con.execute(f"INSERT INTO {table} SELECT * FROM event_rows")
    finally:
        con.unregister("event_rows")


def transaction(archive: Archive, work: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
    """``work`` on the archive's connection in one transaction: committed if it returns, rolled back if not."""
    con = archive.con
    con.execute("BEGIN TRANSACTION")
    try:
        value = work(con)
        schema.bump(con)
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return value


def read_event(con: duckdb.DuckDBPyConnection, name: str) -> Event:
    """The event ``name`` with its entrants, rounds, tables and results, or :class:`EventError`."""
    try:
        head = con.execute("SELECT kind, rules, format, planned_rounds, seed, boards_per_round FROM events "
                           "WHERE name = ?", [name]).fetchone()
    except duckdb.CatalogException:  # a file from before events, opened read-only
        head = None
    if head is None:
        raise UnknownEvent(_("no event named {event}", event=name))
    kind, rules, fmt, planned, seed, boards = head
    entrants = [Entrant(number=n, players=tuple(p)) for n, p in con.execute(
        "SELECT number, players FROM event_entrants WHERE event = ? ORDER BY number", [name]).fetchall()]
    rounds: dict[int, Round] = {}
    for rnd, number, home, away in con.execute(
            "SELECT round, number, home, away FROM event_tables WHERE event = ? ORDER BY round, number",
            [name]).fetchall():
        rounds.setdefault(rnd, Round(number=rnd, tables=[])).tables.append(Table(number=number, home=home, away=away))
    for rnd, table, hm, am, hd, ad, hp, ap in con.execute(
            "SELECT round, table_no, home_matches, away_matches, home_deals, away_deals, home_points, away_points "
            "FROM event_results WHERE event = ?", [name]).fetchall():
        rounds[rnd].results[table] = Result(table=table, matches=(hm, am), deals=(hd, ad), points=(hp, ap))
    for rnd, table, board, hp, ap in con.execute(
            "SELECT round, table_no, board, home_points, away_points FROM event_boards WHERE event = ? "
            "ORDER BY round, board, table_no", [name]).fetchall():
        rounds[rnd].boards.append(BoardResult(table=table, board=board, points=(hp, ap)))
    return Event(name=name, kind=kind, rules=rules, format=fmt, planned_rounds=planned, seed=seed,
                 boards_per_round=boards, entrants=entrants, rounds=[rounds[n] for n in sorted(rounds)])


def load_event(archive: Archive, name: str) -> Event:
    """The event ``name`` as stored (see :func:`read_event`)."""
    return read_event(archive.con, name)


def event_names(archive: Archive) -> list[str]:
    """Every stored event's name, newest first."""
    try:
        return [row[0] for row in archive.con.execute("SELECT name FROM events ORDER BY created DESC, name").fetchall()]
    except duckdb.CatalogException:
        return []


def create_event(archive: Archive, event: Event) -> Event:
    """Store a new event (its entrants too, if it has any), or :class:`EventError` if the name is taken."""
    def work(con: duckdb.DuckDBPyConnection) -> Event:
        if con.execute("SELECT 1 FROM events WHERE name = ?", [event.name]).fetchone():
            raise EventError(_("an event named {event} exists already", event=event.name))
        con.execute("INSERT INTO events (name, kind, rules, format, planned_rounds, seed, boards_per_round) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", [event.name, event.kind, event.rules, event.format,
                                                     event.planned_rounds, event.seed, event.boards_per_round])
        insert(con, "event_entrants",
                        [[event.name, e.number, list(e.players)] for e in event.entrants])
        for rnd in event.rounds:
            write_round(con, event.name, rnd)
        return event
    return transaction(archive, work)


def add_entrants(archive: Archive, name: str, texts: Sequence[str]) -> list[Entrant]:
    """Register entrants (``Ana Pérez/Bea Gil`` or ``Ana Pérez``) in the event, all or none."""
    def work(con: duckdb.DuckDBPyConnection) -> list[Entrant]:
        event = read_event(con, name)
        added = []
        for text in texts:
            entrant = add_entrant(event, text)
            event.entrants.append(entrant)
            added.append(entrant)
        insert(con, "event_entrants",
                        [[name, e.number, list(e.players)] for e in added])
        return added
    return transaction(archive, work)


def write_round(con: duckdb.DuckDBPyConnection, name: str, rnd: Round) -> None:
    """Insert a round's tables and whatever results it holds."""
    insert(con, "event_tables", [[name, rnd.number, t.number, t.home, t.away] for t in rnd.tables])
    insert(con, "event_results", [[name, rnd.number, r.table, *r.matches, *r.deals, *r.points]
                                  for r in rnd.results.values()])
    insert(con, "event_boards", [[name, rnd.number, b.table, b.board, *b.points] for b in rnd.boards])


def pair_round(archive: Archive, name: str, ranking: Sequence[int] | None = None) -> Round:
    """Pair and store the event's next round (:func:`tutepgn.tournament.next_round`); ``ranking``: a knockout's
    seeding (entrant numbers, best first) instead of the entrants' order."""
    def work(con: duckdb.DuckDBPyConnection) -> Round:
        rnd = next_round(read_event(con, name), ranking)
        write_round(con, name, rnd)
        return rnd
    return transaction(archive, work)


def write_result(con: duckdb.DuckDBPyConnection, name: str, round_no: int, r: Result) -> None:
    """Insert or replace one table's result."""
    con.execute("INSERT OR REPLACE INTO event_results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [name, round_no, r.table, *r.matches, *r.deals, *r.points])


def write_board(con: duckdb.DuckDBPyConnection, name: str, round_no: int, b: BoardResult) -> None:
    """Insert or replace one duplicate board's result at a table."""
    con.execute("INSERT OR REPLACE INTO event_boards VALUES (?, ?, ?, ?, ?, ?)",
                [name, round_no, b.table, b.board, *b.points])


def enter_result(archive: Archive, name: str, round_no: int, result: Result) -> Result:
    """Store a table's result (a second entry for the same table replaces the first: a correction)."""
    def work(con: duckdb.DuckDBPyConnection) -> Result:
        write_result(con, name, round_no, check_result(read_event(con, name), round_no, result))
        return result
    return transaction(archive, work)


def enter_board(archive: Archive, name: str, round_no: int, result: BoardResult) -> BoardResult:
    """Store a duplicate board's points at a table (again for the same table and board: a correction)."""
    def work(con: duckdb.DuckDBPyConnection) -> BoardResult:
        write_board(con, name, round_no, check_board(read_event(con, name), round_no, result))
        return result
    return transaction(archive, work)


def player_history(archive: Archive, player: str) -> list[PlayerEntry]:
    """Every stored event ``player`` entered (alone or in a pair, the name compared without case), newest
    first, each with the entrant and its rounds (:func:`tutepgn.tournament.history`)."""
    try:
        found = archive.con.execute(
            "SELECT e.event, e.number FROM event_entrants e JOIN events v ON v.name = e.event "
            "WHERE list_contains(list_transform(e.players, lambda p: lower(p)), lower(?)) "
            "ORDER BY v.created DESC, e.event", [player]).fetchall()
    except duckdb.CatalogException:
        return []
    entries = []
    for name, number in found:
        event = read_event(archive.con, name)
        entries.append(PlayerEntry(event=name, kind=event.kind, entrant=event.entrant(number),
                                   encounters=history(event, number)))
    return entries


def result_from_deals(archive: Archive, name: str, round_no: int, table: int) -> Result:
    """The result of table ``table`` of round ``round_no`` worked out from the archive's deals tagged for it
    (``Event`` = name, ``Round``, ``Table``): the finished matches won, the deals won, the points made, home
    first; not stored (:func:`enter_result` stores it).  :class:`EventError` when no deal is tagged for it."""
    return result_of_table(archive, read_event(archive.con, name), round_no, table)
