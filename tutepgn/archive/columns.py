"""The archive's tables, written once: every column's name, type and meaning.

The SQL ``CREATE TABLE`` statements, the Arrow schemas the row builder fills
and the column lists of downloads are all made from :data:`TABLES`.  The Arrow
type of a column follows from its SQL type (:func:`arrow_type`), so the two
cannot disagree; pyarrow loads only when a schema is asked for (an import, a
Parquet export), not for a search.  Rows are inserted by position, in the
order given here.

>>> DEAL_COLUMNS[:3]
('id', 'hash', 'source')
>>> arrow_schemas()["deals"].field("match_score").type
ListType(list<item: int32>)
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from ..i18n import ngettext
from ..limits import INT32_MAX, MAX_DECLARATIONS, MAX_RULE_VALUE, MAX_TRICKS, YEAR_MAX

if TYPE_CHECKING:
    import pyarrow as pa


def int_list(column: pa.Array[Any] | pa.ChunkedArray[Any]) -> list[int]:
    """A NOT NULL integer column (a deal's id, an import's run) as Python ints."""
    return cast("list[int]", column.to_pylist())  # to Arrow's types any value may be null


def deal_id(text: str) -> tuple[int, str]:
    """The id and hash of a record's export text (columns ``id`` and ``hash``): the hash is its SHA-256, the
    id its first 63 bits."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1, digest.hex()


SCHEMA_VERSION: int = 2
"""The version of the archive's tables (:data:`TABLES`): stored in an archive file (table ``meta``, key
``schema_version``) and in each Parquet file's key-value metadata (:data:`PARQUET_KEY`), and checked on open
(:mod:`.schema`): data of another version is refused with the way out, ``tute archive rebuild``.  Raise it with any
change to a table's columns.  1 is every file written before the version was stored."""
PARQUET_KEY = b"tutepgn.schema_version"
"""The key of the schema version in a Parquet file's key-value metadata (its value: the version as text)."""


class Column(NamedTuple):
    """One column of an archive table."""

    name: str
    sql: str
    """Its DuckDB type (the Arrow type follows: :func:`arrow_type`)."""
    doc: str = ""
    constraint: str = ""
    """SQL after the type, e.g. ``PRIMARY KEY``."""


_S, _I32, _I64, _U8, _U16, _B = "VARCHAR", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "BOOLEAN"
_INTS, _TEXTS = f"{_I32}[]", f"{_S}[]"

TABLES: dict[str, tuple[Column, ...]] = {
    "deals": (
        Column("id", _I64, "first 63 bits of hash", "PRIMARY KEY"),
        Column("hash", _S, "SHA-256 (hex) of the export text", "NOT NULL"),
        Column("source", _S, "file it was imported from"),
        Column("source_index", _I32, "0-based record index in that file"),
        Column("source_line", _I32, "first line of the record in that file"),
        Column("import_run", _I32, "the import that stored it: `run` of table imports"),
        Column("import_index", _I32, "0-based place of the record in that import (a rebuild replays imports "
               "in this order)"),
        Column("event", _S), Column("site", _S), Column("date_text", _S, "the Date tag as written"),
        Column("date", "DATE", "the Date tag, NULL with unknown parts"), Column("year", "SMALLINT"),
        Column("round", _S),
        Column("rules", _S, "Rules tag, canonical"), Column("preset", _S), Column("players", _U8),
        Column("north", _S), Column("west", _S), Column("south", _S), Column("east", _S),
        Column("dealer", _S), Column("trump", _S, "trump suit letter"), Column("turned", _S, "the turned card"),
        Column("match_id", _S), Column("deal_no", _I32), Column("match_target", _I32), Column("match_score", _INTS),
        Column("valid", _B, "the play replays legally and the count agrees (false for a results-only deal: no play)"),
        Column("result_only", _B, "a results-only record, sin jugadas (Play tag \"result only\"): its cards were "
               "not noted; score, winner and match points are its Score and Result as checked, and it has no "
               "plays, declarations or analysis"),
        Column("errors", _I32), Column("warnings", _I32),
        Column("sides", _TEXTS, "side labels: NS, WE / N, S / N, W, E"),
        Column("claimed_score", _INTS, "the Score tag"),
        Column("score", _INTS, "recomputed totals per side (a results-only deal: its Score tag, once checked)"),
        Column("card_points", _INTS, "per side, the points of the cards it won in tricks, without the last ten "
               "(side_totals.cards_and_last has them)"),
        Column("claimed_result", _S), Column("result", _S, "recomputed result"),
        Column("winner", _S, "side label, NULL when unfinished"),
        Column("winner_points", _I32), Column("margin", _I32, "the winner's lead over the next side"),
        Column("match_points", _INTS), Column("last_trick", _S, "side that won the last trick"),
        Column("complete", _B), Column("tute", _B), Column("tute_rank", _U8), Column("tute_seat", _S),
        Column("doubled", _B), Column("tie_break", _B), Column("cantes", _U8), Column("exchanges", _U8),
        Column("mano", _S, "seat on the dealer's right"), Column("mano_side", _S),
        Column("winner_players", _TEXTS),
        *(Column(f"hand_{s}", _I64, "starting hand as a card mask") for s in "nwse"),
        *(Column(f"sung_{s}", _U8, "suits the seat sang, bit = suit") for s in "nwse"),
        Column("cuarenta_dealt_side", _S, "the side dealt rey and caballo of trump in one hand, if any, sung or not"),
        Column("cuarenta_dealt_seat", _S, "the seat dealt them"),
        Column("cuarenta_sung_side", _S, "the side that sang las cuarenta (a cante in trump the count took), if any"),
        Column("cuarenta_sung_seat", _S, "the seat that sang them"),
        Column("veintes_sung", _TEXTS, "the seat of each 20 the count took, in the order sung (suits: "
               "sung_n... or table declarations)"),
        Column("unsung", _U8, "suits (bit = suit) some seat was dealt rey and caballo of and never sang"),
        Column("comments", _S, "every comment of the record, joined by newlines"),
        Column("tags", f"MAP({_S}, {_S})", "every tag, unknown ones included"),
        Column("text", _S, "the export text", "NOT NULL"),
    ),
    "plays": (
        Column("deal_id", _I64), Column("seq", _U16, "1-based play number"), Column("trick", _U8),
        Column("ord", _U8, "0-based place in the trick"), Column("seat", _S), Column("player", _S),
        Column("card", _S), Column("suit", _S), Column("rank", _U8), Column("points", _U8),
        Column("won", _B, "the card's seat won the trick"),
    ),
    "declarations": (
        Column("deal_id", _I64), Column("seq", _U16), Column("after_trick", _U8), Column("seat", _S),
        Column("player", _S), Column("kind", _S, "cante, tute or exchange"), Column("suit", _S),
        Column("rank", _U8, "a tute's rank"), Column("card", _S, "an exchange's card"), Column("points", _U8),
        Column("accepted", _B),
    ),
    "hands": (
        Column("deal_id", _I64), Column("seat", _S), Column("player", _S), Column("side", _S),
        Column("cards", _TEXTS), Column("mask", _I64),
    ),
    "side_totals": (
        Column("deal_id", _I64), Column("side", _S, "side label, as in deals.sides"),
        Column("place", _U8, "0-based place of the side in deals.sides and the per-side lists"),
        Column("cards", _I32, "the points of the cards it won in tricks"),
        Column("last_ten", _I32, "the last ten (last_trick_bonus) if it took the last trick, else 0"),
        Column("cards_and_last", _I32, "cards + last_ten: what decides a deal whose rules leave cantes out"),
        Column("cantes", _I32, "the points of the cantes it sang that the count took"),
        Column("cuarenta", _B, "it sang las cuarenta"),
        Column("veintes", _U8, "the 20s it sang"),
        Column("total", _I32, "its points in the deal: cards_and_last + cantes (a results-only deal: its Score tag, "
               "the parts NULL)"),
        Column("won", _B, "it won the deal (NULL while unfinished)"),
    ),
    "issues": (
        Column("deal_id", _I64), Column("severity", _S), Column("code", _S), Column("option", _S),
        Column("message", _S), Column("line", _I32), Column("col", _I32), Column("trick", _U8), Column("seat", _S),
    ),
    "imports": (
        Column("run", _I32, "the import's number, from 1"), Column("started", "TIMESTAMP"), Column("finished", "TIMESTAMP"), Column("paths", _TEXTS),
        Column("records", _I32), Column("added", _I32),
    ),
    "analyses": (
        Column("deal_id", _I64), Column("rules", _S, "the deal's Rules tag, canonical ('' if none)"),
        Column("version", _S, "the solver and analysis that made the row (tutepgn.archive.analyses.VERSION_KEY)"),
        Column("cantes", _B, "whether values count cantes"),
        Column("plays", _U16, "cards analysed (those played with the stock empty)"),
        Column("par", _INTS, "per side, its double-dummy value at the first position analysed"),
        Column("actual", _INTS, "per side, the points it made from there"),
        Column("par_diff", _INTS, "per side, actual less par"),
        *(Column(f"cost_{s}", _I32, "the seat's summed cost in points (0: perfect play), NULL if no such seat")
          for s in "nwse"),
        Column("inaccuracies", _U16, "plays marked ?!"), Column("mistakes", _U16, "plays marked ?"),
        Column("blunders", _U16, "plays marked ??"),
        Column("analysis", _S, "the whole analysis as JSON, every play"),
        Column("error", _S, "why the deal could not be analysed (the other columns are then NULL)"),
    ),
    "arena_boards": (
        Column("bot_a", _S, "the first bot's name (tute arena BOT_A BOT_B): heuristic, pimc-20..."),
        Column("bot_b", _S, "the second bot's name"),
        Column("rules", _S, "the ruleset, canonical"),
        Column("seed", _I64, "the arena's seed: with the board, the cards dealt"),
        Column("duplicate", _B, "each deal played twice with the seats swapped"),
        Column("budget", _S, "the PIMC bots' budget per decision: worlds (reproducible) or time"),
        Column("board", _I32, "0-based board number"),
        Column("points", "DOUBLE", "bot_a's points less bot_b's, the mean of the board's games"),
        Column("score", "DOUBLE", "bot_a's deal-win score (1 won, 0.5 tied, 0 lost), the mean of the board's games"),
        Column("seconds_a", "DOUBLE[]", "bot_a's CPU seconds per decision (a card chosen among two or more)"),
        Column("seconds_b", "DOUBLE[]", "bot_b's CPU seconds per decision"),
        Column("stored", "TIMESTAMP", "when the board was stored"),
    ),
}
"""Every table of the archive, its columns in order."""

ROW_TABLES = ("deals", "plays", "declarations", "hands", "side_totals", "issues")
"""The tables an import fills from the records (``imports`` gets one row per import)."""



@cache
def arrow_schemas() -> dict[str, pa.Schema]:
    """The Arrow form of each table the row builder fills (pyarrow imported now)."""
    import pyarrow as pa

    return {t: pa.schema([(c.name, arrow_type(c.sql)) for c in TABLES[t]]) for t in ROW_TABLES}

DEAL_COLUMNS: tuple[str, ...] = tuple(c.name for c in TABLES["deals"])
"""The columns of table deals."""
ANALYSIS_COLUMNS: tuple[str, ...] = tuple(c.name for c in TABLES["analyses"])
"""The columns of table analyses (:mod:`.analysis` fills it)."""

CSV_COLUMNS = ("id", "hash", "date_text", "event", "site", "round", "rules", "north", "west", "south", "east",
               "dealer", "trump", "turned", "match_id", "deal_no", "valid", "result_only", "sides", "claimed_score", "score",
               "result", "winner", "winner_points", "margin", "tute", "doubled", "tie_break", "cantes", "exchanges")
"""Columns of a CSV download, from the CLI or the API (lists are written space-separated)."""
SUMMARY_COLUMNS = ("id", "date_text", "event", "site", "rules", "north", "west", "south", "east", "dealer", "trump",
                   "score", "sides", "result", "valid", "result_only", "match_id", "deal_no")
"""Columns a search returns unless told otherwise."""

_ARROW_TYPES = {_S: "string", _I64: "int64", _I32: "int32", "SMALLINT": "int16", _U8: "uint8", _U16: "uint16",
                _B: "bool_", "DATE": "date32", "DOUBLE": "float64"}
"""The Arrow type of each plain DuckDB type, by the name of its pyarrow factory."""
_WIDEST = {_I64: 2**63 - 1, _I32: 2**31 - 1, "SMALLINT": 2**15 - 1, _U8: 2**8 - 1, _U16: 2**16 - 1}
"""The largest whole number each integer type holds."""


def arrow_type(sql: str) -> pa.DataType:
    """The Arrow type a DuckDB column type is built as (lists, maps and timestamps included)."""
    import pyarrow as pa

    if sql.endswith("[]"):
        return pa.list_(arrow_type(sql[:-2]))
    if sql.startswith("MAP("):
        key, item = sql[4:-1].split(", ")
        return pa.map_(arrow_type(key), arrow_type(item))
    if sql == "TIMESTAMP":
        return pa.timestamp("us")
    kind: pa.DataType = getattr(pa, _ARROW_TYPES[sql])()
    return kind


def check_columns(names: tuple[str, ...]) -> None:
    """Refuse names that are not columns of table deals (they are put into SQL text)."""
    bad = [c for c in names if c not in DEAL_COLUMNS]
    if bad:
        raise ValueError(ngettext("unknown column {columns}", "unknown columns {columns}", len(bad),
                                  columns=", ".join(bad)))


check_columns(CSV_COLUMNS + SUMMARY_COLUMNS)

LIMITED: dict[tuple[str, str], int] = {
    ("deals", "deal_no"): INT32_MAX, ("deals", "match_target"): INT32_MAX, ("deals", "match_score"): INT32_MAX,
    ("deals", "claimed_score"): INT32_MAX, ("deals", "year"): YEAR_MAX, ("deals", "cantes"): MAX_DECLARATIONS,
    ("deals", "exchanges"): MAX_DECLARATIONS, ("plays", "trick"): MAX_TRICKS, ("plays", "seq"): MAX_TRICKS * 4,
    ("declarations", "seq"): MAX_DECLARATIONS, ("declarations", "after_trick"): MAX_TRICKS,
    ("declarations", "points"): MAX_RULE_VALUE,
}
"""The columns whose values the readers bound (:mod:`tutepgn.limits`), and the largest value each must hold."""


def largest(sql: str) -> int:
    """The largest whole number an integer column (or a list of them) holds."""
    return _WIDEST[sql.removesuffix("[]")]


def check_widths() -> None:
    """Refuse, at import, a column narrower than its limit: a record the reader accepts would fail the import."""
    for (table, name), high in LIMITED.items():
        if largest(next(c.sql for c in TABLES[table] if c.name == name)) < high:
            raise TypeError(f"column {table}.{name} cannot hold {high}, a value tutepgn.limits lets through")


check_widths()

VIEWS = """
CREATE OR REPLACE VIEW players AS
    SELECT player AS name, count(*) AS deals, count(DISTINCT d.rules) AS rulesets,
           sum(CASE WHEN d.winner = h.side THEN 1 ELSE 0 END) AS wins
    FROM hands h JOIN deals d ON d.id = h.deal_id WHERE player IS NOT NULL AND player <> '?'
    GROUP BY player;
CREATE OR REPLACE VIEW matches AS
    SELECT match_id, any_value(rules) AS rules, max(match_target) AS target, count(*) AS deals,
           min(date) AS first_date, max(date) AS last_date, arg_max(winner, deal_no) AS last_winner
    FROM deals WHERE match_id IS NOT NULL GROUP BY match_id;
"""
"""The views over the tables (an archive file's, a dataset's: :mod:`.dataset`)."""

TABLE_CONSTRAINTS: dict[str, str] = {"analyses": "PRIMARY KEY (deal_id, rules, version, cantes)",
                                     "arena_boards": "PRIMARY KEY (bot_a, bot_b, rules, seed, duplicate, budget, board)"}
"""Constraints over several columns of a table."""


def table_sql(table: str) -> str:
    """The ``CREATE TABLE IF NOT EXISTS`` statement of one table."""
    columns = TABLES[table]
    return (f"CREATE TABLE IF NOT EXISTS {table} (\n"
            + ",\n".join([*(f"    {c.name} {c.sql}{' ' + c.constraint if c.constraint else ''}" for c in columns),
                           *([f"    {TABLE_CONSTRAINTS[table]}"] if table in TABLE_CONSTRAINTS else [])])
            + "\n);\n")


TABLE_DOCS: dict[str, str] = {
    "deals": "one row per deal: its tags, what the validator computed, its export text",
    "plays": "one row per card played, in order",
    "declarations": "one row per cante, tute or exchange declared",
    "hands": "one row per seat of a deal: its player, side and dealt cards",
    "side_totals": "one row per side of a deal: its points by kind, the cantes it sang",
    "issues": "one row per error or warning the validator found",
    "imports": "one row per import (a rebuild replays them in order)",
    "analyses": "double-dummy analyses stored per deal (tute archive analyse)",
    "arena_boards": "one row per board of bot against bot (tute arena --store): the ladder of levels is read here",
}
"""What each table holds: its comment (``COMMENT ON TABLE``), as each column's doc is its column's."""


def quoted(text: str) -> str:
    """A SQL string literal of ``text``."""
    return "'" + text.replace("'", "''") + "'"


def comments_sql(views: Collection[str] = ()) -> str:
    """``COMMENT ON TABLE`` and ``COMMENT ON COLUMN`` for every table and every documented column: DuckDB's
    catalogue (``duckdb_tables()``, ``duckdb_columns()``) then says what each one means.  ``views``: the tables
    that are views here (a dataset's, :mod:`.dataset`), commented ``ON VIEW``."""
    return "".join([*(f"COMMENT ON {'VIEW' if t in views else 'TABLE'} {t} IS {quoted(TABLE_DOCS[t])};\n"
                      for t in TABLES if t in TABLE_DOCS),
                    *(f"COMMENT ON COLUMN {t}.{c.name} IS {quoted(c.doc)};\n"
                      for t, columns in TABLES.items() for c in columns if c.doc)])


SCHEMA = "".join(map(table_sql, TABLES)) + VIEWS
"""The SQL that creates the tables and views (if they are not there yet)."""
