"""The ratings of the archive's players and pairs: every finished match read (:func:`.club.every_match`), rated
by :func:`tutepgn.tournament.ratings.rate`, and stored in the file (tables ``ratings`` and ``rating_history``, in
one transaction) with the fingerprint of the matches they were reckoned from.

The fingerprint is a hash of what decides every match (each deal with a Match tag: its id, match, ruleset,
players, date, counts and winner) and of the model: a deal imported, a result changed or the model changed gives
another, and the stored ratings are then stale: :func:`current` reckons them again (and stores them when asked
to and the file is writable).  A service only reads: a stale table is recomputed in memory for the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from ..tournament.ratings import MODEL, Outcome, PairRating, PlayerRating, Point, Ratings, rate
from .club import MatchView, every_match

if TYPE_CHECKING:
    import pyarrow as pa

    from .store import Archive

SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (kind VARCHAR, name VARCHAR, players VARCHAR[], mu DOUBLE, sigma DOUBLE,
    matches INTEGER, wins INTEGER, team_mu DOUBLE, team_sigma DOUBLE, fingerprint VARCHAR);
CREATE TABLE IF NOT EXISTS rating_history (player VARCHAR, seq INTEGER, date DATE, match_id VARCHAR,
    first_deal BIGINT, mu DOUBLE, sigma DOUBLE);
"""
"""The two tables (created when ratings are first stored): one row per player (``kind`` 'player') and per pair
('pair'; ``team_mu``, ``team_sigma``: its two players' strength as a team), each with the fingerprint of the
matches; each player's rating after each of their matches, ``seq`` from 1 (the match: its id and first deal's id)."""
DECIDING = ("id", "match_id", "rules", "north", "west", "south", "east", "date_text", "match_target", "match_score",
            "match_points", "complete", "tute", "winner")
"""The columns of a match's deals that decide its outcome: the fingerprint's input."""
UNKNOWN = frozenset({"", "?"})
"""Names that say no one: a match with such a seat is not rated."""


class RatingRow(BaseModel):
    """One line of the ranking: a player or a pair, its rating (the ordinal, mu less three sigmas) and its
    uncertainty."""

    rank: int
    name: str
    players: list[str]
    rating: float = Field(description="The ordinal: mu - 3 sigma, the skill it is 99.7% sure to have at least.")
    mu: float = Field(description="The skill believed.")
    sigma: float = Field(description="Its uncertainty (one standard deviation).")
    matches: int
    wins: int
    team_rating: float | None = Field(None, description="A pair's two players as a team: the mean of their mus "
                                                        "less 3 team_sigma (None for a player).")
    team_sigma: float | None = Field(None, description="The root mean square of the two players' sigmas.")


class RatingPoint(BaseModel):
    """A player's rating just after one of their matches."""

    date: str | None = Field(description="The match's date (ISO), None when unknown.")
    match: str
    mu: float
    sigma: float
    rating: float


class RatingHistory(BaseModel):
    """A player's rating and its history, point by point (one after each of their matches)."""

    player: RatingRow
    history: list[RatingPoint]


def outcome_of(match: MatchView) -> Outcome | None:
    """A finished match as the ratings read it, or None: unfinished, or a seat whose player is unknown."""
    if match.winner is None or match.standing is None or not match.deals:
        return None
    sides = tuple(tuple(match.seats.get(letter) or "" for letter in side) for side in match.sides)
    names = [name for side in sides for name in side]
    if UNKNOWN.intersection(names) or len(set(names)) != len(names):
        return None
    winner = match.sides.index(match.winner)
    places = tuple(0 if at == winner else 1 + sum(match.standing[other] > match.standing[at]
                                                  for other in range(len(sides)) if other != winner)
                   for at in range(len(sides)))
    first = match.deals[0].summary
    date = first.date.replace(".", "-") if first.date and "?" not in first.date else None
    return Outcome(match.match, date, first.id, sides, places)


def outcomes(archive: Archive) -> list[Outcome]:
    """Every finished match of the archive whose players are all named."""
    return [o for o in map(outcome_of, every_match(archive)) if o is not None]


def fingerprint(archive: Archive) -> str:
    """A hash of the matches as they are now (:data:`DECIDING`) and of the model."""
    columns = ", ".join(f"coalesce(CAST({c} AS VARCHAR), '-')" for c in DECIDING)
    digest = archive.con.execute(
        f"SELECT md5(coalesce(string_agg(concat_ws('|', {columns}), chr(10) ORDER BY id), '')) FROM deals "
        "WHERE match_id IS NOT NULL").fetchone()
    return f"{MODEL}:{digest[0] if digest else ''}"


def stored_fingerprint(archive: Archive) -> str | None:
    """The fingerprint the stored ratings were reckoned for (None: none stored)."""
    if not _stored(archive):
        return None
    row = archive.con.execute("SELECT fingerprint FROM ratings LIMIT 1").fetchone()
    return row[0] if row else None


def _stored(archive: Archive) -> bool:
    return bool(archive.con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'ratings' "
                                    "AND schema_name = 'main'").fetchone()[0])  # type: ignore[index]


def columns(rows: Sequence[tuple[object, ...]], names: list[str]) -> pa.Table:
    """Rows as an Arrow table of these columns (what DuckDB inserts at once)."""
    import pyarrow as pa

    values = list(zip(*rows)) or [()] * len(names)
    return pa.table({name: list(column) for name, column in zip(names, values)})


def store(archive: Archive, ratings: Ratings, mark: str) -> None:
    """Replace the stored ratings by ``ratings`` (reckoned for fingerprint ``mark``), in one transaction."""
    con = archive.con
    con.execute(SCHEMA)
    rows: list[tuple[object, ...]] = [("player", p.name, [p.name], p.mu, p.sigma, p.matches, p.wins, None, None, mark)
                                      for p in ratings.players]
    rows += [("pair", p.name, list(p.players), p.mu, p.sigma, p.matches, p.wins, p.team_mu, p.team_sigma, mark)
             for p in ratings.pairs]
    table = columns(rows, ["kind", "name", "players", "mu", "sigma", "matches", "wins", "team_mu",
                                      "team_sigma", "fingerprint"])
    points = [(name, seq, point.date, point.match, point.first_deal, point.mu, point.sigma)
              for name, history in ratings.history.items() for seq, point in enumerate(history, 1)]
    history = columns(points, ["player", "seq", "date", "match_id", "first_deal", "mu", "sigma"])
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("DELETE FROM ratings")
        con.execute("DELETE FROM rating_history")
        con.register("rating_rows", table)
        con.register("history_rows", history)
        con.execute("INSERT INTO ratings SELECT * FROM rating_rows")
        con.execute("INSERT INTO rating_history SELECT player, seq, CAST(date AS DATE), match_id, first_deal, mu, sigma "
                    "FROM history_rows")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        for name in ("rating_rows", "history_rows"):
            con.unregister(name)


def load(archive: Archive) -> Ratings:
    """The stored ratings, as :func:`tutepgn.tournament.ratings.rate` gave them."""
    con = archive.con
    players, pairs = [], []
    for kind, name, names, mu, sigma, matches, wins, team_mu, team_sigma in con.execute(
            "SELECT kind, name, players, mu, sigma, matches, wins, team_mu, team_sigma FROM ratings").fetchall():
        if kind == "player":
            players.append(PlayerRating(name, mu, sigma, matches, wins))
        else:
            pairs.append(PairRating((names[0], names[1]), mu, sigma, matches, wins, team_mu, team_sigma))
    players.sort(key=lambda p: (-p.ordinal, p.name))
    pairs.sort(key=lambda p: (-p.ordinal, p.players))
    history: dict[str, list[Point]] = {}
    for player, date, match, first, mu, sigma in con.execute(
            "SELECT player, date, match_id, first_deal, mu, sigma FROM rating_history ORDER BY player, seq").fetchall():
        history.setdefault(player, []).append(Point(date.isoformat() if date else None, match, first, mu, sigma))
    matches = con.execute("SELECT count(DISTINCT (match_id, first_deal)) FROM rating_history").fetchone()
    return Ratings(players, pairs, history, matches[0] if matches else 0)


def current(archive: Archive, *, save: bool = False) -> Ratings:
    """The ratings of the archive as it is now: the stored ones if their fingerprint is the archive's, else
    reckoned again (and stored, with ``save`` on a writable archive)."""
    mark = fingerprint(archive)
    if stored_fingerprint(archive) == mark:
        return load(archive)
    ratings = rate(outcomes(archive))
    if save and not archive.read_only:
        store(archive, ratings, mark)
    return ratings


def ranking(ratings: Ratings, pairs: bool = False) -> list[RatingRow]:
    """The ranking as the command and the pages show it: players (or pairs), best first, numbered."""
    if pairs:
        return [RatingRow(rank=at, name=p.name, players=list(p.players), rating=p.ordinal, mu=p.mu, sigma=p.sigma,
                          matches=p.matches, wins=p.wins, team_rating=p.team_ordinal, team_sigma=p.team_sigma)
                for at, p in enumerate(ratings.pairs, 1)]
    return [RatingRow(rank=at, name=p.name, players=[p.name], rating=p.ordinal, mu=p.mu, sigma=p.sigma,
                      matches=p.matches, wins=p.wins) for at, p in enumerate(ratings.players, 1)]


def player_rating(archive: Archive, name: str) -> RatingHistory | None:
    """One player's line of the ranking and their history (None: no rated match names them)."""
    ratings = current(archive)
    row = next((r for r in ranking(ratings) if r.name == name), None)
    if row is None:
        return None
    history = [RatingPoint(date=p.date, match=p.match, mu=p.mu, sigma=p.sigma, rating=p.ordinal)
               for p in ratings.history.get(name, [])]
    return RatingHistory(player=row, history=history)
