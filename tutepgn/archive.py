"""The archive: millions of deals in one DuckDB file, loaded fast, searched with parameters only.

The schema is documented in docs/archive.md.  Every record is stored with its
export text, so exports are exact, and with what the validator computed, so
searches and statistics need no replay.

Loading follows DuckDB's own guidance: records are parsed and validated in
worker processes (:func:`arrow_batch` is a pure function from record texts to
one Arrow table), inserted in bulk one transaction per batch (never row by
row), and the file is checkpointed at the end.  A deal's id is the first 63
bits of the SHA-256 of its export text, so importing the same records again
adds nothing, and an interrupted import leaves only whole batches behind.
"""

from __future__ import annotations

import csv
import datetime as dt
import gc
import hashlib
import heapq
import itertools
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from operator import attrgetter
from pathlib import Path
from typing import IO, Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from .cards import CARD_POINTS, CARD_RANK, CARD_SUIT, CODES, SUIT_LETTERS, card, display_cards
from .engine import Cante, Exchange, Play, Tute
from .errors import ArchiveError, NotationError, TuteError
from .notation import SEAT_TAGS, Record, parse_or_placeholder
from .rules import SEAT_NAMES
from .notation import batch_records, iter_raw_records, parse_record, scan_tags
from .search import SORT_KEYS, SORTS, DealPage, DealSummary, SearchFilters, encode_cursor, keyset
from .validate import Report, validate_records

EXPORT_FORMATS = ("tpgn", "json", "jsonl", "csv", "parquet")
CSV_COLUMNS = ("id", "hash", "date_text", "event", "site", "round", "rules", "north", "west", "south", "east",
               "dealer", "trump", "turned", "match_id", "deal_no", "valid", "sides", "claimed_score", "score",
               "result", "winner", "winner_points", "margin", "tute", "doubled", "tie_break", "cantes", "exchanges")
"""Columns of a CSV export (lists are written space-separated)."""
SUMMARY_COLUMNS = ("id", "date_text", "event", "site", "rules", "north", "west", "south", "east", "dealer", "trump",
                   "score", "sides", "result", "valid")
"""Columns a search returns unless told otherwise."""
PAGE_BY_ID = 1000
"""Up to this many rows, a search finds the ids first and then fetches their columns by primary key."""

ENV_VAR = "TUTEPGN_DB"
"""Environment variable naming the archive file (overridden by ``--db``)."""


def default_path() -> Path:
    """The archive file: $TUTEPGN_DB, else $XDG_DATA_HOME/tutepgn/archive.duckdb (~/.local/share/...)."""
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tutepgn" / "archive.duckdb"


SCHEMA = """
CREATE TABLE IF NOT EXISTS deals (
    id BIGINT PRIMARY KEY,         -- first 63 bits of hash
    hash VARCHAR NOT NULL,         -- SHA-256 (hex) of the export text
    source VARCHAR,                -- file it was imported from
    source_index INTEGER,          -- 0-based record index in that file
    source_line INTEGER,           -- first line of the record in that file
    event VARCHAR, site VARCHAR, date_text VARCHAR, date DATE, year SMALLINT, round VARCHAR,
    rules VARCHAR,                 -- Rules tag, canonical
    preset VARCHAR, players UTINYINT,
    north VARCHAR, west VARCHAR, south VARCHAR, east VARCHAR,
    dealer VARCHAR, trump VARCHAR, turned VARCHAR,
    match_id VARCHAR, deal_no INTEGER, match_target INTEGER, match_score INTEGER[],
    valid BOOLEAN, errors INTEGER, warnings INTEGER,
    sides VARCHAR[],               -- side labels: NS, WE / N, S / N, W, E
    claimed_score INTEGER[], score INTEGER[], card_points INTEGER[],
    claimed_result VARCHAR, result VARCHAR,
    winner VARCHAR,                -- side label, NULL when unfinished
    winner_points INTEGER, margin INTEGER,
    match_points INTEGER[], last_trick VARCHAR,
    complete BOOLEAN, tute BOOLEAN, tute_rank UTINYINT, tute_seat VARCHAR,
    doubled BOOLEAN, tie_break BOOLEAN, cantes UTINYINT, exchanges UTINYINT,
    mano VARCHAR, mano_side VARCHAR, winner_players VARCHAR[],
    hand_n BIGINT, hand_w BIGINT, hand_s BIGINT, hand_e BIGINT,   -- starting hands as card masks
    sung_n UTINYINT, sung_w UTINYINT, sung_s UTINYINT, sung_e UTINYINT,  -- suits each seat sang, bit = suit
    cuarenta_side VARCHAR,         -- the side dealt rey and caballo of trump in one hand, if any
    unsung UTINYINT,               -- suits (bit = suit) some seat was dealt rey and caballo of and never sang
    comments VARCHAR,              -- every comment of the record, joined by newlines
    tags MAP(VARCHAR, VARCHAR),    -- every tag, unknown ones included
    text VARCHAR NOT NULL          -- the export text
);
CREATE TABLE IF NOT EXISTS plays (
    deal_id BIGINT, seq USMALLINT, trick UTINYINT, ord UTINYINT, seat VARCHAR, player VARCHAR,
    card VARCHAR, suit VARCHAR, rank UTINYINT, points UTINYINT, won BOOLEAN
);
CREATE TABLE IF NOT EXISTS declarations (
    deal_id BIGINT, seq USMALLINT, after_trick UTINYINT, seat VARCHAR, player VARCHAR, kind VARCHAR,
    suit VARCHAR, rank UTINYINT, card VARCHAR, points UTINYINT, accepted BOOLEAN
);
CREATE TABLE IF NOT EXISTS hands (
    deal_id BIGINT, seat VARCHAR, player VARCHAR, side VARCHAR, cards VARCHAR[], mask BIGINT
);
CREATE TABLE IF NOT EXISTS issues (
    deal_id BIGINT, severity VARCHAR, code VARCHAR, option VARCHAR, message VARCHAR,
    line INTEGER, col INTEGER, trick UTINYINT, seat VARCHAR
);
CREATE TABLE IF NOT EXISTS imports (
    started TIMESTAMP, finished TIMESTAMP, paths VARCHAR[], records INTEGER, added INTEGER
);
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

BATCH_SIZE = 16 * 8000
"""Records per transaction by default: more than one DuckDB row group (122,880 rows), so that DuckDB
writes the rows of a batch straight into the file instead of through its write-ahead log, which
measured as twice as slow (see docs/performance.md)."""
WORK_SIZE = 8000
"""Records per piece of work sent to a worker process: small enough to keep every worker busy."""
IMPORT_MEMORY_LIMIT = "256MB"
"""DuckDB's buffer pool while importing.  The rows of the open batch are held beside it and blocks
already written need no cache, so a small pool keeps a 1,000,000-deal import (with its workers)
under 2 GB at the same speed."""

IDLE_READERS = 64
"""Readers (DuckDB cursors) :meth:`Archive.borrowed` keeps for the next requests; more are closed when given back."""


def deal_id(text: str) -> tuple[int, str]:
    """The id and hash of a record's export text: the hash is its SHA-256, the id its first 63 bits."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1, digest.hex()


# ---------------------------------------------------------------------------
# From record texts to Arrow tables (runs in worker processes).

_Raw = tuple[str | None, int, int, str]

_S, _I32, _U8, _U16, _B = pa.string(), pa.int32(), pa.uint8(), pa.uint16(), pa.bool_()
_TABLES: dict[str, pa.Schema] = {
    "deals": pa.schema([
        ("id", pa.int64()), ("hash", _S), ("source", _S), ("source_index", _I32), ("source_line", _I32),
        ("event", _S), ("site", _S), ("date_text", _S), ("date", pa.date32()), ("year", pa.int16()),
        ("round", _S), ("rules", _S), ("preset", _S), ("players", _U8), ("north", _S), ("west", _S),
        ("south", _S), ("east", _S), ("dealer", _S), ("trump", _S), ("turned", _S), ("match_id", _S),
        ("deal_no", _I32), ("match_target", _I32), ("match_score", pa.list_(_I32)), ("valid", _B),
        ("errors", _I32), ("warnings", _I32), ("sides", pa.list_(_S)), ("claimed_score", pa.list_(_I32)),
        ("score", pa.list_(_I32)), ("card_points", pa.list_(_I32)), ("claimed_result", _S), ("result", _S),
        ("winner", _S), ("winner_points", _I32), ("margin", _I32), ("match_points", pa.list_(_I32)),
        ("last_trick", _S), ("complete", _B), ("tute", _B), ("tute_rank", _U8), ("tute_seat", _S),
        ("doubled", _B), ("tie_break", _B), ("cantes", _U8), ("exchanges", _U8), ("mano", _S),
        ("mano_side", _S), ("winner_players", pa.list_(_S)), ("hand_n", pa.int64()), ("hand_w", pa.int64()),
        ("hand_s", pa.int64()), ("hand_e", pa.int64()), ("sung_n", _U8), ("sung_w", _U8), ("sung_s", _U8),
        ("sung_e", _U8), ("cuarenta_side", _S), ("unsung", _U8), ("comments", _S),
        ("tags", pa.map_(_S, _S)), ("text", _S)]),
    "plays": pa.schema([
        ("deal_id", pa.int64()), ("seq", _U16), ("trick", _U8), ("ord", _U8), ("seat", _S), ("player", _S),
        ("card", _S), ("suit", _S), ("rank", _U8), ("points", _U8), ("won", _B)]),
    "declarations": pa.schema([
        ("deal_id", pa.int64()), ("seq", _U16), ("after_trick", _U8), ("seat", _S), ("player", _S),
        ("kind", _S), ("suit", _S), ("rank", _U8), ("card", _S), ("points", _U8), ("accepted", _B)]),
    "hands": pa.schema([
        ("deal_id", pa.int64()), ("seat", _S), ("player", _S), ("side", _S), ("cards", pa.list_(_S)),
        ("mask", pa.int64())]),
    "issues": pa.schema([
        ("deal_id", pa.int64()), ("severity", _S), ("code", _S), ("option", _S), ("message", _S),
        ("line", _I32), ("col", _I32), ("trick", _U8), ("seat", _S)]),
}
"""The Arrow form of each table, column for column as in SCHEMA (inserts are positional)."""
DEAL_COLUMNS: tuple[str, ...] = tuple(_TABLES["deals"].names)
"""The columns of table deals."""

_CARD_CODE = pa.array(CODES)
_CARD_SUIT = pa.array([SUIT_LETTERS[CARD_SUIT[c]] for c in range(40)])
_CARD_RANK = pa.array([CARD_RANK[c] for c in range(40)], _U8)
_CARD_POINTS = pa.array([CARD_POINTS[c] for c in range(40)], _U8)
_SEAT_LETTER = pa.array([SEAT_NAMES.get(n, ("",) * 4)[s] if s < n else None for n in range(5) for s in range(4)])
"""Seat letter of seat ``s`` with ``n`` players at index ``4 * n + s``."""


def _plays_table(p: dict[str, list[Any]]) -> pa.Table:
    """The plays of a batch, column by column in Arrow: no Python work per card here."""
    deal = pa.array(p["deal"], pa.int32())
    seats = pa.array(p["seats"], pa.int32())
    cards = pa.array(p["cards"], pa.int32())
    seq = pa.array(p["seq"], pa.int32())
    n = pc.take(pa.array(p["n"], pa.int32()), deal)
    trick0 = pc.divide(pc.subtract(seq, 1), n)
    winner = pc.take(pa.array(p["winners"], pa.int32()), pc.add(pa.array(p["trick_base"], pa.int32()), trick0))
    return pa.table({
        "deal_id": pc.take(pa.array(p["ids"], pa.int64()), deal),
        "seq": seq.cast(_U16), "trick": pc.add(trick0, 1).cast(_U8),
        "ord": pc.subtract(pc.subtract(seq, 1), pc.multiply(trick0, n)).cast(_U8),
        "seat": pc.take(_SEAT_LETTER, pc.add(pc.multiply(n, 4), seats)),
        "player": pc.take(pa.array(p["names"], _S), pc.add(pc.multiply(deal, 4), seats)),
        "card": pc.take(_CARD_CODE, cards), "suit": pc.take(_CARD_SUIT, cards),
        "rank": pc.take(_CARD_RANK, cards), "points": pc.take(_CARD_POINTS, cards),
        "won": pc.equal(winner, seats),
    }, schema=_TABLES["plays"])


def _date(text: str) -> tuple[dt.date | None, int | None]:
    """A Date tag as a date (None with unknown parts) and its year (None if unknown)."""
    parts = text.split(".")
    year = int(parts[0]) if parts and parts[0].isdigit() else None
    if len(parts) == 3 and all(p.isdigit() for p in parts):
        try:
            return dt.date(int(parts[0]), int(parts[1]), int(parts[2])), year
        except ValueError:
            return None, year
    return None, year


_CARD_OF, _SEAT_OF = attrgetter("card"), attrgetter("seat")

_PAIRS = tuple((1 << card(12, suit)) | (1 << card(11, suit)) for suit in range(4))
"""Rey and caballo of each suit, as a mask."""


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def _add_rows(report: Report, text: str, out: dict[str, dict[str, list[Any]]]) -> bool:
    """Append one deal's rows to every table's columns; False when its id is already in the batch."""
    record = report.record
    tags = record.tags
    rules = report.rules
    names = rules.seat_names if rules else SEAT_NAMES[4]
    n = len(names)
    labels = rules.side_labels if rules else ()
    sheet = report.sheet
    export = record.tpgn() if not record.errors else text
    did, digest = deal_id(export)
    seen = out["_seen"]
    if did in seen:
        return False
    seen[did] = True
    player = [tags.get(SEAT_TAGS[name]) for name in names]
    header = record.header_or_none()
    if header is None or header.errors.keys() & {"Trump", "Deal", "MatchScore"}:
        turned, hands, match_score, trump = None, None, None, None
    else:
        turned, hands, match_score, trump = header.turned, header.hands, header.match_score, header.trump
    totals = list(sheet.totals) if sheet else None
    winner = sheet.winner if sheet else None
    comments = record.comments
    date, year = _date(tags.get("Date", "????.??.??"))
    decl_count = {Cante: 0, Exchange: 0}
    d = out["deals"]
    # -- plays: kept as flat lists here, expanded into columns by Arrow in _plays_table
    q = out["declarations"]
    p = out["_plays"]
    refused = {(c.seat, c.suit) for c in report.refused_cantes}
    events = record.events
    play_events = [e for e in events if type(e) is Play]
    cards = list(map(_CARD_OF, play_events))
    count = len(cards)
    p["deal"].extend([len(p["ids"])] * count)
    p["ids"].append(did)
    p["n"].append(n)
    p["names"].extend(player + [None] * (4 - n))
    p["cards"].extend(cards)
    p["seats"].extend(map(_SEAT_OF, play_events))
    p["seq"].extend(range(1, count + 1))
    p["trick_base"].extend([len(p["winners"])] * count)
    tricks = -(-count // n)
    winners = [t.winner for t in sheet.tricks] if sheet else []
    p["winners"].extend(winners[:tricks] + [255] * (tricks - len(winners)))
    plays = 0
    for event in events if count < len(events) else ():  # the declarations, where there are any
        seat = event.seat
        if type(event) is Play:
            plays += 1
            continue
        kind = type(event)
        decl_count[kind] = decl_count.get(kind, 0) + 1
        q["deal_id"].append(did)
        q["seq"].append(sum(decl_count.values()))
        q["after_trick"].append(plays // n)
        q["seat"].append(names[seat])
        q["player"].append(player[seat])
        if kind is Cante:
            q["kind"].append("cante")
            q["suit"].append(SUIT_LETTERS[event.suit])
            q["rank"].append(None)
            q["card"].append(None)
            q["points"].append(None if rules is None else
                               rules.cuarenta_points if event.suit == trump else rules.cante_points)
            q["accepted"].append((seat, event.suit) not in refused)
        else:
            q["kind"].append("tute" if kind is Tute else "exchange")
            q["suit"].append(SUIT_LETTERS[CARD_SUIT[event.card]] if kind is Exchange else None)
            q["rank"].append(event.rank if kind is Tute else None)
            q["card"].append(CODES[event.card] if kind is Exchange else None)
            q["points"].append(None)
            q["accepted"].append(True)
    # -- starting hands
    h = out["hands"]
    for seat, mask in enumerate(hands or ()):
        h["deal_id"].append(did)
        h["seat"].append(names[seat])
        h["player"].append(player[seat])
        h["side"].append(labels[rules.side_of(seat)] if rules else None)
        h["cards"].append([CODES[c] for c in display_cards(mask)])
        h["mask"].append(mask)
    # -- issues
    i = out["issues"]
    for f in report.findings:
        for key, value in (("deal_id", did), ("severity", f.severity), ("code", f.code), ("option", f.option),
                           ("message", f.message), ("line", f.line), ("col", f.column), ("trick", f.trick),
                           ("seat", f.seat)):
            i[key].append(value)
    # -- the deal
    row = {
        "id": did, "hash": digest, "source": record.source, "source_index": record.index,
        "source_line": record.line, "event": tags.get("Event"), "site": tags.get("Site"),
        "date_text": tags.get("Date"), "date": date, "year": year, "round": tags.get("Round"),
        "rules": str(rules) if rules else tags.get("Rules"), "preset": rules.preset if rules else None,
        "players": n, "north": tags.get("North"), "west": tags.get("West"), "south": tags.get("South"),
        "east": tags.get("East"), "dealer": tags.get("Dealer"),
        "trump": SUIT_LETTERS[trump] if trump is not None else None,
        "turned": CODES[turned] if turned is not None else None, "match_id": tags.get("Match"),
        "deal_no": _int(tags.get("DealNo")), "match_target": report.match_target,
        "match_score": list(match_score) if match_score else None, "valid": report.valid,
        "errors": len(report.errors), "warnings": len(report.warnings), "sides": list(labels),
        "claimed_score": list(report.claimed_score) if report.claimed_score else None, "score": totals,
        "card_points": list(sheet.card_points) if sheet else None, "claimed_result": report.claimed_result,
        "result": report.computed_result, "winner": labels[winner] if winner is not None else None,
        "winner_points": totals[winner] if totals and winner is not None else None,
        "margin": (totals[winner] - max(v for k, v in enumerate(totals) if k != winner))
        if totals and winner is not None and len(totals) > 1 else None,
        "match_points": list(sheet.match_points) if sheet else None,
        "last_trick": labels[sheet.last_trick_side] if sheet and sheet.last_trick_side is not None else None,
        "complete": bool(sheet and sheet.complete), "tute": bool(sheet and sheet.tute),
        "tute_rank": sheet.tute.rank if sheet and sheet.tute else None,
        "tute_seat": names[sheet.tute.seat] if sheet and sheet.tute else None,
        "doubled": bool(sheet and sheet.doubled), "tie_break": bool(sheet and sheet.tie_break),
        "cantes": len(sheet.cantes) if sheet else 0, "exchanges": decl_count[Exchange],
        "comments": "\n".join(comments) if comments else None, "tags": list(tags.items()), "text": export,
    }
    dealer = header.dealer if header is not None else None
    mano = (dealer + 1) % n if dealer is not None else None
    row["mano"] = names[mano] if mano is not None else None
    row["mano_side"] = labels[rules.side_of(mano)] if mano is not None and rules else None
    row["winner_players"] = ([player[x] for x in range(n) if rules.side_of(x) == winner]
                             if rules and winner is not None else None)
    by_letter = dict(zip(names, hands or ()))
    sung = dict.fromkeys(names, 0)
    for c in sheet.cantes if sheet else ():
        sung[names[c.seat]] |= 1 << c.suit
    for letter in "NWSE":
        row[f"hand_{letter.lower()}"] = by_letter.get(letter)
        row[f"sung_{letter.lower()}"] = sung.get(letter)
    pair = _PAIRS[trump] if trump is not None else 0
    holder = next((x for x, m in enumerate(hands or ()) if pair and m & pair == pair), None)
    row["cuarenta_side"] = labels[rules.side_of(holder)] if holder is not None and rules else None
    unsung = 0  # suits some seat was dealt rey and caballo of and never sang
    for letter, mask in by_letter.items():
        for suit in range(4):
            if mask & _PAIRS[suit] == _PAIRS[suit] and not sung[letter] >> suit & 1:
                unsung |= 1 << suit
    row["unsung"] = unsung if hands else None
    for key, value in row.items():
        d[key].append(value)
    return True


def _worker_batch(batch: list[_Raw]) -> dict[str, pa.Table]:
    """:func:`arrow_batch` in a worker process, with the cyclic garbage collector paused.

    A piece's rows hold about a million objects, none of them in reference
    cycles, which the collector would otherwise walk again and again: 9% of a
    worker's time.  Cycles made meanwhile are collected after.
    """
    gc.disable()
    try:
        return arrow_batch(batch)
    finally:
        gc.enable()


def arrow_batch(batch: list[_Raw]) -> dict[str, pa.Table]:
    """Parse and validate record texts; return each table's new rows as Arrow (a pure function)."""

    def records() -> Iterator[Record]:
        for name, index, first_line, text in batch:
            yield parse_or_placeholder(text, first_line=first_line, source=name, index=index)

    out: dict[str, dict[Any, Any]] = {t: {f: [] for f in schema.names} for t, schema in _TABLES.items()}
    out["_seen"] = {}
    out["_plays"] = {k: [] for k in ("deal", "ids", "n", "names", "cards", "seats", "seq", "trick_base", "winners")}
    for report, (_, _, _, text) in zip(validate_records(records()), batch):
        _add_rows(report, text, out)
    tables = {t: pa.Table.from_pydict(out[t], schema=schema) for t, schema in _TABLES.items() if t != "plays"}
    tables["plays"] = _plays_table(out["_plays"])
    return tables


# ---------------------------------------------------------------------------
# The archive.


@dataclass
class ImportSummary:
    """What an import did."""
    records: int = 0
    added: int = 0
    invalid: int = 0
    skipped_invalid: int = 0
    seconds: float = 0.0

    def __str__(self) -> str:
        rate = self.records / self.seconds if self.seconds else 0
        return (f"{self.records:,} records read, {self.added:,} added, {self.records - self.added - self.skipped_invalid:,}"
                f" already in the archive, {self.invalid:,} invalid"
                + (f" ({self.skipped_invalid:,} skipped)" if self.skipped_invalid else "")
                + f"; {self.seconds:.1f} s, {rate:,.0f} records/s")

    def to_dict(self) -> dict[str, object]:
        """The summary as JSON data."""
        return {"records": self.records, "added": self.added, "invalid": self.invalid,
                "skipped_invalid": self.skipped_invalid, "seconds": round(self.seconds, 3)}


class PageCache:
    """Pages of search results by their query, for a service that answers the same searches again.

    A page costs a scan of the archive (milliseconds on a million deals); a hit
    costs a look-up.  The archive clears it whenever deals are added, so a hit
    is always what the query would return.  Thread-safe; least recently used
    pages go first.  Pages are frozen models, shared by every hit.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.hits = self.misses = 0
        self.generation = 0
        """Counts the clears: a page read before a clear is not kept after it."""
        self._pages: OrderedDict[tuple[Any, ...], DealPage] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> DealPage | None:
        with self._lock:
            page = self._pages.get(key)
            if page is None:
                self.misses += 1
                return None
            self.hits += 1
            self._pages.move_to_end(key)
            return page

    def put(self, key: tuple[Any, ...], page: DealPage, generation: int) -> None:
        """Keep ``page``, read when :attr:`generation` was ``generation`` (dropped if deals came in since)."""
        with self._lock:
            if generation != self.generation:
                return
            self._pages[key] = page
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self.generation += 1


class Archive:
    """A DuckDB file of deals.  Open read-only for searches; one writer at a time (DuckDB's rule)."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False,
                 threads: int | None = None, memory_limit: str = "1GB", secure: bool = False,
                 check_schema: bool = True) -> None:
        """Open (or create) the file.  ``secure``: no file or network access from SQL and the
        configuration locked, as a service needs (exports to Parquet then need another connection)."""
        self.path = Path(path) if path is not None else default_path()
        self.read_only = read_only
        self.memory_limit = memory_limit
        self._locked = secure
        self._idle: deque[Archive] = deque()  # readers for borrowed(); deques are thread-safe
        self.cache: PageCache | None = None
        """Search pages kept by :meth:`deal_page` when set (a service sets one); cleared when deals are added."""
        config: dict[str, Any] = {"memory_limit": memory_limit, "autoload_known_extensions": False,
                                  "autoinstall_known_extensions": False}
        if threads:
            config["threads"] = threads
        if secure:
            config["enable_external_access"] = False
        if read_only:
            if not self.path.exists():
                raise FileNotFoundError(f"no archive at {self.path}: import records first (tute import FILE)")
            self.con = duckdb.connect(str(self.path), read_only=True, config=config)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.con = duckdb.connect(str(self.path), config=config)
            self.con.execute(SCHEMA)
        if secure:
            self.con.execute("SET lock_configuration = true")
        if check_schema:
            self._check_schema()

    def _check_schema(self) -> None:
        """Refuse a file written by another version of the schema, saying how to bring it up to date."""
        found = [row[0] for row in self.con.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = 'deals' AND schema_name = 'main' "
            "ORDER BY column_index").fetchall()]
        if found and tuple(found) != DEAL_COLUMNS:
            self.con.close()
            raise ArchiveError(f"{self.path} was written by another version of tutepgn (its deals table differs): "
                               f"run `tute archive rebuild --db {self.path}` to rebuild it from its stored records")

    def reader(self) -> Archive:
        """The same archive on a new cursor: one per thread, as DuckDB asks."""
        view = object.__new__(Archive)
        view.path, view.read_only, view.con = self.path, self.read_only, self.con.cursor()
        view.memory_limit, view._locked, view.cache = self.memory_limit, self._locked, self.cache
        view._idle = deque()
        return view

    @contextmanager
    def borrowed(self) -> Iterator[Archive]:
        """A reader for one request, taken from the idle ones and given back after.

        A service serves hundreds of requests a second: opening and closing a
        cursor for each takes DuckDB's locks while the GIL is held.  A reader
        whose work raised (any error: a query interrupted by its time limit,
        a deal not found) is closed, not given back, so no request inherits
        the state of a failed one.
        """
        try:
            view = self._idle.pop()
        except IndexError:
            view = self.reader()
        try:
            yield view
        except BaseException:
            view.close()
            raise
        if len(self._idle) < IDLE_READERS:
            self._idle.append(view)
        else:  # a burst of requests is over: keep no more than a busy service needs
            view.close()

    def close(self) -> None:
        """Close the connection (and the idle readers on it)."""
        while self._idle:
            self._idle.pop().close()
        self.con.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- Import ----------------------------------------------------------------
    def import_sources(self, sources: Iterable[object], *, jobs: int = 1, skip_invalid: bool = False,
                       batch_size: int = BATCH_SIZE,
                       progress: Callable[[int, int], None] | None = None) -> ImportSummary:
        """Parse, validate and insert every record of the sources; return what was done."""
        sources = list(sources)
        return self.import_raw(iter_raw_records(sources), jobs=jobs, skip_invalid=skip_invalid,
                               batch_size=batch_size, progress=progress, names=[str(s) for s in sources])

    def import_raw(self, raw: Iterable[_Raw], *, jobs: int = 1, skip_invalid: bool = False,
                   batch_size: int = BATCH_SIZE, progress: Callable[[int, int], None] | None = None,
                   names: list[str] | None = None) -> ImportSummary:
        """Import records already split from their sources: (source name, index, first line, text).

        Each transaction holds ``batch_size`` records (rounded up to whole pieces
        of work); the workers get pieces of at most :data:`WORK_SIZE`.
        """
        summary = ImportSummary()
        start = time.perf_counter()
        started = time.strftime("%Y-%m-%d %H:%M:%S")
        sizes: list[int] = []  # records read per piece (a record repeated within a piece gives one row)
        piece = -(-batch_size // -(-batch_size // WORK_SIZE))  # the batch in equal pieces of at most WORK_SIZE

        def pieces() -> Iterator[list[_Raw]]:
            for work in batch_records(raw, piece):
                sizes.append(len(work))
                yield work

        con = self.con
        pending = 0  # records read into the open transaction
        if not self._locked:
            con.execute(f"SET memory_limit = '{IMPORT_MEMORY_LIMIT}'")
        try:
            for tables in _arrow_tables(pieces(), jobs):
                deals = tables["deals"]
                read = sizes.pop(0)
                invalid = pc.sum(pc.invert(deals.column("valid"))).as_py() or 0
                summary.invalid += invalid
                if skip_invalid and invalid:
                    keep = deals.filter(deals.column("valid")).column("id")
                    tables = {name: t.filter(pc.is_in(t.column(0), value_set=keep)) for name, t in tables.items()}
                    summary.skipped_invalid += invalid
                if not pending:
                    con.execute("BEGIN TRANSACTION")
                pending += read
                summary.added += self._insert(tables)
                summary.records += read
                if pending >= batch_size:
                    self._commit()
                    pending = 0
                if progress:
                    progress(summary.records, summary.added)
            if pending:
                self._commit()
                pending = 0
        finally:
            if pending:  # interrupted (Ctrl-C, an error): the open batch leaves no trace
                con.execute("ROLLBACK")
            if not self._locked:
                con.execute("SET memory_limit = ?", [self.memory_limit])
        con.execute("CHECKPOINT")
        summary.seconds = time.perf_counter() - start
        con.execute("INSERT INTO imports VALUES (?, ?, ?, ?, ?)",
                    [started, time.strftime("%Y-%m-%d %H:%M:%S"), names or [], summary.records, summary.added])
        return summary

    def _commit(self) -> None:
        """Commit the open batch; cached search pages may have changed with it."""
        self.con.execute("COMMIT")
        if self.cache is not None:
            self.cache.clear()

    def _insert(self, tables: dict[str, pa.Table]) -> int:
        """Insert one piece in the open transaction: the new deals and their plays, declarations, hands, issues."""
        con = self.con
        deals = tables["deals"]
        known = con.execute("SELECT id FROM deals WHERE id IN (SELECT unnest(?))",
                            [deals.column("id").to_pylist()]).fetchall()
        if known:
            old = pa.array([row[0] for row in known], pa.int64())
            tables = {name: t.filter(pc.invert(pc.is_in(t.column(0), value_set=old))) for name, t in tables.items()}
        added = tables["deals"].num_rows
        if not added:
            return 0
        for name, table in tables.items():
            con.register("_batch", table)
            con.execute(f"INSERT INTO {name} SELECT * FROM _batch")
            con.unregister("_batch")
        return added

    # -- Reading ------------------------------------------------------------------
    def count(self, filters: SearchFilters | None = None) -> int:
        """Number of deals in the archive (that match ``filters``)."""
        where, params = (filters or SearchFilters()).to_sql()
        return int(self.con.execute(f"SELECT count(*) FROM deals WHERE {where}", params).fetchone()[0])  # type: ignore[index]

    def text(self, deal: int) -> str | None:
        """The export text of one deal, or None."""
        row = self.con.execute("SELECT text FROM deals WHERE id = ?", [deal]).fetchone()
        return row[0] if row else None

    def row(self, deal: int, columns: tuple[str, ...] = SUMMARY_COLUMNS) -> dict[str, Any] | None:
        """One deal's columns, or None."""
        bad = [c for c in columns if c not in DEAL_COLUMNS]
        if bad:
            raise ValueError(f"unknown column(s) {', '.join(bad)}")
        cursor = self.con.execute(f"SELECT {', '.join(columns)} FROM deals WHERE id = ?", [deal])
        found = cursor.fetchone()
        return dict(zip(columns, found)) if found else None

    def search(self, filters: SearchFilters | None = None, *, sort: str = "date", limit: int | None = 50,
               offset: int = 0, columns: tuple[str, ...] = SUMMARY_COLUMNS) -> list[dict[str, Any]]:
        """Deals matching ``filters``, as dicts of ``columns``, in ``sort`` order."""
        if sort not in SORTS:
            raise ValueError(f"unknown sort {sort!r}; sorts are {', '.join(SORTS)}")
        bad = [c for c in columns if c not in DEAL_COLUMNS]
        if bad:
            raise ValueError(f"unknown column(s) {', '.join(bad)}")
        where, params = (filters or SearchFilters()).to_sql()
        if limit is not None and limit <= PAGE_BY_ID:
            ids = self.con.execute(f"SELECT id FROM deals WHERE {where} ORDER BY {SORTS[sort]} LIMIT ? OFFSET ?",
                                   [*params, limit, offset]).fetchall()
            rows = self._rows([i[0] for i in ids], columns)
            return [{c: row[c] for c in columns} for row in rows]
        sql = f"SELECT {', '.join(columns)} FROM deals WHERE {where} ORDER BY {SORTS[sort]}"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params = [*params, limit, offset]
        cursor = self.con.execute(sql, params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def page(self, filters: SearchFilters | None = None, *, sort: str = "date", limit: int = 50,
             after: str | None = None, columns: tuple[str, ...] = SUMMARY_COLUMNS) -> tuple[list[dict[str, Any]], str | None]:
        """One page of matching deals and the opaque cursor of the next page (None on the last page)."""
        if sort not in SORTS:
            raise ValueError(f"unknown sort {sort!r}; sorts are {', '.join(SORTS)}")
        where, params = (filters or SearchFilters()).to_sql()
        if after:
            extra, more = keyset(sort, after)
            where, params = f"({where}) AND {extra}", [*params, *more]
        expr = SORT_KEYS[sort][0]
        keys = self.con.execute(f"SELECT id, {expr} FROM deals WHERE {where} ORDER BY {SORTS[sort]} LIMIT ?",
                                [*params, limit + 1]).fetchall()
        following = None
        if len(keys) > limit:
            keys = keys[:limit]
            following = encode_cursor(sort, keys[-1][1], keys[-1][0])
        return self._rows([k[0] for k in keys], columns), following

    def deal_page(self, filters: SearchFilters | None = None, *, sort: str = "date", limit: int = 50,
                  after: str | None = None) -> DealPage:
        """One page of deal summaries, as the service answers a search: from :attr:`cache` when it is set."""
        filters = filters or SearchFilters()
        key = (filters.model_dump_json(), sort, limit, after)
        cache = self.cache
        page = cache.get(key) if cache is not None else None
        if page is None:
            generation = cache.generation if cache is not None else 0
            rows, following = self.page(filters, sort=sort, limit=limit, after=after)
            page = DealPage(items=[DealSummary.from_row(r) for r in rows], next=following)
            if cache is not None:
                cache.put(key, page, generation)
        return page

    def _rows(self, ids: list[int], columns: tuple[str, ...]) -> list[dict[str, Any]]:
        """The rows of these deals, in this order.

        Searches find the ids first and fetch the columns of that page only, by
        the primary key: DuckDB would otherwise read every column of every
        matching row before sorting (3 to 5 times the work on 1,000,000 deals).
        """
        if not ids:
            return []
        cols = ", ".join(dict.fromkeys(("id", *columns)))
        cursor = self.con.execute(f"SELECT {cols} FROM deals WHERE id IN ({', '.join('?' * len(ids))})", ids)
        names = [d[0] for d in cursor.description]
        found = {row[0]: dict(zip(names, row)) for row in cursor.fetchall()}
        return [found[i] for i in ids]

    def texts(self, filters: SearchFilters | None = None, *, sort: str = "date",
              limit: int | None = None) -> Iterator[str]:
        """Export texts of matching deals, streamed in batches (for exports of any size)."""
        where, params = (filters or SearchFilters()).to_sql()
        sql = f"SELECT text FROM deals WHERE {where} ORDER BY {SORTS[sort]}"
        if limit is not None:
            sql += " LIMIT ?"
            params = [*params, limit]
        cursor = self.con.execute(sql, params)
        while rows := cursor.fetchmany(2000):
            for (text,) in rows:
                yield text

    def stats(self, filters: SearchFilters | None = None) -> dict[str, Any]:
        """Statistics over matching deals: players, rulesets, trumps, points, las cuarenta, mano."""
        where, params = (filters or SearchFilters()).to_sql()
        con = self.con
        sel = f"(SELECT * FROM deals WHERE {where})"

        def rows(sql: str) -> list[dict[str, Any]]:
            cursor = con.execute(sql, params)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, r)) for r in cursor.fetchall()]

        out: dict[str, Any] = {}
        out["totals"] = rows(f"""
            SELECT count(*) AS deals, count(*) FILTER (WHERE complete OR tute) AS finished,
                   count(*) FILTER (WHERE NOT valid) AS invalid, round(avg(winner_points), 1) AS avg_winner_points,
                   count(*) FILTER (WHERE tute) AS tutes, count(*) FILTER (WHERE doubled) AS doubles,
                   count(*) FILTER (WHERE tie_break) AS tie_breaks FROM {sel} AS d""")[0]
        out["players"] = rows(f"""
            SELECT h.player, count(*) AS deals, count(*) FILTER (WHERE d.winner = h.side) AS wins,
                   round(count(*) FILTER (WHERE d.winner = h.side) / count(*), 3) AS win_rate,
                   round(avg(d.score[list_position(d.sides, h.side)]), 1) AS avg_points,
                   count(*) FILTER (WHERE d.tute AND d.tute_seat = h.seat) AS tutes,
                   sum(CASE h.seat WHEN 'N' THEN bit_count(coalesce(d.sung_n, 0)) WHEN 'W' THEN
                       bit_count(coalesce(d.sung_w, 0)) WHEN 'S' THEN bit_count(coalesce(d.sung_s, 0))
                       ELSE bit_count(coalesce(d.sung_e, 0)) END)::INTEGER AS cantes
            FROM {sel} AS d JOIN hands h ON h.deal_id = d.id
            WHERE h.player IS NOT NULL AND h.player <> '?'
            GROUP BY h.player ORDER BY deals DESC, h.player""")
        out["rulesets"] = rows(f"""
            SELECT preset, count(*) AS deals, round(avg(winner_points), 1) AS avg_winner_points,
                   count(*) FILTER (WHERE tute) AS tutes, count(*) FILTER (WHERE doubled) AS doubles,
                   count(*) FILTER (WHERE tie_break) AS tie_breaks
            FROM {sel} AS d GROUP BY preset ORDER BY deals DESC""")
        out["trumps"] = rows(f"""
            SELECT trump, count(*) AS deals, round(avg(winner_points), 1) AS avg_winner_points,
                   round(avg(margin), 1) AS avg_margin FROM {sel} AS d WHERE trump IS NOT NULL
            GROUP BY trump ORDER BY trump""")
        out["points"] = rows(f"""
            SELECT (winner_points // 10 * 10)::INTEGER AS points_from, count(*) AS deals
            FROM {sel} AS d WHERE winner_points IS NOT NULL GROUP BY ALL ORDER BY points_from""")
        out["cuarenta"] = rows(f"""
            SELECT count(*) AS deals, count(*) FILTER (WHERE winner = cuarenta_side) AS won_by_holder,
                   round(count(*) FILTER (WHERE winner = cuarenta_side) / nullif(count(*), 0), 3) AS rate
            FROM {sel} AS d WHERE cuarenta_side IS NOT NULL AND (complete OR tute)""")[0]
        out["mano"] = rows(f"""
            SELECT count(*) AS deals, count(*) FILTER (WHERE winner = mano_side) AS won_by_mano,
                   round(count(*) FILTER (WHERE winner = mano_side) / nullif(count(*), 0), 3) AS rate,
                   round(avg(1.0 / len(sides)), 3) AS even_chance
            FROM {sel} AS d WHERE mano_side IS NOT NULL AND (complete OR tute)""")[0]
        return out


    # -- Export, SQL, maintenance ---------------------------------------------------
    def export(self, filters: SearchFilters | None, fmt: str, out: IO[str] | str | os.PathLike[str], *,
               cards: str = "es", sort: str = "date", limit: int | None = None) -> int:
        """Write matching deals as tpgn, json, jsonl or csv to a stream or path, or parquet to a directory.

        Parquet is partitioned by preset and year (hive layout), for DuckDB, Polars, Spark or Trino.
        Returns the number of deals written.
        """
        if fmt == "parquet":
            return self._export_parquet(filters, Path(out) if not hasattr(out, "write") else None)
        if fmt not in EXPORT_FORMATS:
            raise ValueError(f"unknown format {fmt!r}; formats are {', '.join(EXPORT_FORMATS)}")
        if hasattr(out, "write"):
            return self._export_stream(filters, fmt, out, cards, sort, limit)  # type: ignore[arg-type]
        with open(out, "w", encoding="utf-8", newline="\n" if fmt != "csv" else "") as handle:
            return self._export_stream(filters, fmt, handle, cards, sort, limit)

    def _export_stream(self, filters: SearchFilters | None, fmt: str, out: IO[str], cards: str, sort: str,
                       limit: int | None) -> int:
        count = 0
        if fmt == "csv":
            writer = csv.writer(out)
            writer.writerow(CSV_COLUMNS)
            offset = 0
            while rows := self.search(filters, sort=sort, columns=CSV_COLUMNS, offset=offset,
                                      limit=2000 if limit is None else min(2000, limit - offset)):
                for row in rows:
                    writer.writerow([" ".join(map(str, v)) if isinstance(v, list) else v for v in row.values()])
                count += len(rows)
                offset += len(rows)
                if limit is not None and offset >= limit:
                    break
            return count
        if fmt == "tpgn" and cards == "es":
            for text in self.texts(filters, sort=sort, limit=limit):
                out.write(("\n" if count else "") + text)
                count += 1
            return count
        from .notation import to_json
        if fmt == "json":
            out.write("[")
        for text in self.texts(filters, sort=sort, limit=limit):
            try:
                record = parse_record(text)
            except NotationError as exc:  # stored flagged at import: tpgn gets its text, JSON its tags
                if fmt == "tpgn":
                    out.write(("\n" if count else "") + text)
                    count += 1
                    continue
                record = Record.unreadable(exc, scan_tags(text), 1)
            if fmt == "tpgn":
                out.write(("\n" if count else "") + record.tpgn(cards))
            else:
                out.write(("," if count and fmt == "json" else "") + ("\n" if fmt == "json" else "")
                          + to_json(record, cards) + ("\n" if fmt == "jsonl" else ""))
            count += 1
        if fmt == "json":
            out.write("\n]\n")
        return count

    def _export_parquet(self, filters: SearchFilters | None, directory: Path | None) -> int:
        if directory is None:
            raise ValueError("parquet goes to a directory, not a stream: give -o DIR")
        where, params = (filters or SearchFilters()).to_sql()
        con = self.con
        con.execute(f"CREATE OR REPLACE TEMP TABLE _export AS SELECT * EXCLUDE (tags), "
                    f"coalesce(year, 0) AS part_year FROM deals WHERE {where}", params)
        count = int(con.execute("SELECT count(*) FROM _export").fetchone()[0])  # type: ignore[index]
        directory.mkdir(parents=True, exist_ok=True)
        target = str(directory).replace("'", "''")
        con.execute(f"COPY _export TO '{target}' (FORMAT parquet, PARTITION_BY (preset, part_year), "
                    "OVERWRITE_OR_IGNORE true)")
        con.execute("DROP TABLE _export")
        return count

    def verify(self) -> list[str]:
        """Check the archive: every hash matches its text, every id its hash, child rows belong to deals."""
        problems: list[str] = []
        cursor = self.con.execute("SELECT id, hash, text FROM deals")
        while rows := cursor.fetchmany(5000):
            for did, digest, text in rows:
                expected_id, expected_hash = deal_id(text)
                if expected_hash != digest:
                    problems.append(f"deal {did}: its text does not hash to its stored hash")
                elif expected_id != did:
                    problems.append(f"deal {did}: its id is not the first 63 bits of its hash")
        for table in ("plays", "declarations", "hands", "issues"):
            orphans = self.con.execute(f"SELECT count(*) FROM {table} WHERE deal_id NOT IN (SELECT id FROM deals)"
                                       ).fetchone()[0]  # type: ignore[index]
            if orphans:
                problems.append(f"{table}: {orphans} rows of deals that are not in the archive")
        short = self.con.execute("""
            SELECT count(*) FROM deals d LEFT JOIN (SELECT deal_id, count(*) AS n FROM plays GROUP BY deal_id) p
            ON p.deal_id = d.id WHERE d.complete AND coalesce(p.n, 0) <> (CASE d.preset WHEN 'torofun-3p' THEN 36
            ELSE 40 END) AND d.rules = d.preset""").fetchone()[0]  # type: ignore[index]
        if short:
            problems.append(f"{short} complete deals do not have one play row per card")
        mismatch = self.con.execute("""
            SELECT count(*) FROM deals d LEFT JOIN (SELECT deal_id, count(*) AS n FROM hands GROUP BY deal_id) h
            ON h.deal_id = d.id WHERE d.hand_n IS NOT NULL AND coalesce(h.n, 0) <> d.players""").fetchone()[0]  # type: ignore[index]
        if mismatch:
            problems.append(f"{mismatch} deals do not have one hands row per seat")
        return problems

    def rebuild(self, target: str | os.PathLike[str], *, jobs: int = 1) -> ImportSummary:
        """A fresh archive file at ``target`` from the stored records (re-parsed, re-validated)."""
        cursor = self.con.execute("SELECT source, source_index, source_line, text FROM deals ORDER BY source, "
                                  "source_index")

        def raw() -> Iterator[_Raw]:
            while rows := cursor.fetchmany(5000):
                yield from ((src, idx or 0, line or 1, text) for src, idx, line, text in rows)

        with Archive(target) as fresh:
            return fresh.import_raw(raw(), jobs=jobs)


def open_sql(path: str | os.PathLike[str], *, memory_limit: str = "1GB", threads: int = 2) -> duckdb.DuckDBPyConnection:
    """A read-only connection for ad hoc SQL: no files, no network, no extensions, configuration locked."""
    if not Path(path).exists():
        raise FileNotFoundError(f"no archive at {path}")
    con = duckdb.connect(str(path), read_only=True, config={
        "enable_external_access": False, "autoload_known_extensions": False, "autoinstall_known_extensions": False,
        "memory_limit": memory_limit, "threads": threads})
    con.execute("SET lock_configuration = true")
    return con


def run_sql(path: str | os.PathLike[str], query: str, *, timeout: float = 10.0,
            max_rows: int = 10_000) -> tuple[list[str], list[tuple[Any, ...]], bool]:
    """Run one query read-only with a time limit; return columns, at most ``max_rows`` rows, and whether cut."""
    con = open_sql(path)
    try:
        def work() -> tuple[list[str], list[tuple[Any, ...]], bool]:
            cursor = con.execute(query)
            if cursor.description is None:
                return [], [], False
            rows = cursor.fetchmany(max_rows + 1)
            return [d[0] for d in cursor.description], rows[:max_rows], len(rows) > max_rows
        return run_with_timeout(con, timeout, work)
    finally:
        con.close()


def _arrow_tables(batches: Iterator[list[_Raw]], jobs: int) -> Iterator[dict[str, pa.Table]]:
    """Arrow tables of the batches, in order, built here or in ``jobs`` worker processes."""
    if jobs <= 1:
        for batch in batches:
            yield arrow_batch(batch)
        return
    # forkserver: workers start small, not as copies of a main process that holds DuckDB's buffers.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("forkserver")) as pool:
        pending = [pool.submit(_worker_batch, b) for b in islice(batches, jobs + 1)]
        while pending:
            table = pending.pop(0).result()
            nxt = next(batches, None)
            if nxt is not None:
                pending.append(pool.submit(_worker_batch, nxt))
            yield table


class _Watchdog:
    """One thread that interrupts the queries that outlive their time limit.

    A service runs hundreds of queries a second: one timer thread for all of
    them, rather than a thread started (and stopped) for each.
    """

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._deadlines: list[tuple[float, int]] = []  # a heap of (deadline, ticket)
        self._watched: dict[int, duckdb.DuckDBPyConnection] = {}
        self._tickets = itertools.count()
        self._thread: threading.Thread | None = None

    def watch(self, con: duckdb.DuckDBPyConnection, seconds: float) -> int:
        """Interrupt ``con`` in ``seconds`` unless :meth:`release` comes first; returns the ticket for it."""
        ticket = next(self._tickets)
        with self._ready:
            self._watched[ticket] = con
            heapq.heappush(self._deadlines, (time.monotonic() + seconds, ticket))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="tutepgn-query-watchdog", daemon=True)
                self._thread.start()
            self._ready.notify()
        return ticket

    def release(self, ticket: int) -> None:
        with self._ready:
            self._watched.pop(ticket, None)

    def _run(self) -> None:
        with self._ready:
            while True:
                now = time.monotonic()
                while self._deadlines and (self._deadlines[0][0] <= now or self._deadlines[0][1] not in self._watched):
                    _, ticket = heapq.heappop(self._deadlines)
                    con = self._watched.pop(ticket, None)
                    if con is not None:
                        con.interrupt()
                self._ready.wait(self._deadlines[0][0] - now if self._deadlines else None)


_WATCHDOG = _Watchdog()


def run_with_timeout(con: duckdb.DuckDBPyConnection, seconds: float, work: Callable[[], Any]) -> Any:
    """Run ``work`` on ``con``; interrupt the query if it takes longer than ``seconds``."""
    ticket = _WATCHDOG.watch(con, seconds)
    try:
        return work()
    finally:
        _WATCHDOG.release(ticket)
