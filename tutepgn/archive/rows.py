"""From record texts to the archive's rows, as Arrow tables: the work of an import's worker processes.

:func:`arrow_batch` is a pure function from record texts to one Arrow table per
table of :mod:`.columns`; :func:`add_rows` appends one deal's rows to the
columns of a batch, in the column order of the table (no dict per row and
table: lists appended in a loop, turned into Arrow once per batch).  A deal's
own row is named once, taken as a tuple in the table's order in one C call,
and the tuples are turned into columns once per batch (no Python loop per
column).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from dataclasses import dataclass
from operator import add, itemgetter
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..cards import CARD_POINTS, CARD_RANK, CARD_SUIT, CODES, DISPLAY_ORDER, SUIT_LETTERS
from ..declarations import CANTE_PAIRS
from ..events import Action, Cante, Exchange, Play, Tute
from ..i18n import speaking
from ..limits import INT32_MAX
from ..notation import SEAT_TAGS, Record, export_text, parse_or_placeholder, read_date, read_number
from ..rules import SEAT_NAMES
from ..check.fastreplay import KINDS, encode
from ..check.validate import Report, validate_records
from ..score import ScoreSheet
from .columns import DEAL_COLUMNS, arrow_schemas, deal_id

Raw = tuple[str | None, int, int, str]
"""A record split from its source: (source name, 0-based index, first line, text)."""


ARROW = arrow_schemas()
"""The Arrow form of each table the row builder fills."""
_CARD_CODE = pa.array(CODES)
_CARD_SUIT = pa.array([SUIT_LETTERS[CARD_SUIT[c]] for c in range(40)])
_CARD_RANK = pa.array([CARD_RANK[c] for c in range(40)], pa.uint8())
_CARD_POINTS = pa.array([CARD_POINTS[c] for c in range(40)], pa.uint8())
_SEAT_LETTER = pa.array([SEAT_NAMES.get(n, ("",) * 4)[s] if s < n else None for n in range(5) for s in range(4)])
"""Seat letter of seat ``s`` with ``n`` players at index ``4 * n + s``."""
_DISPLAY = np.array(DISPLAY_ORDER, np.int64)
_DISPLAY_BITS = _DISPLAY.astype(np.uint64)
"""The 40 cards in display order, as indexes and as bit shifts of a mask."""


def plays_table(p: dict[str, list[Any]]) -> pa.Table:
    """The plays of a batch, column by column: the deals' events as one buffer of 2-byte codes (:func:`event_codes`),
    numbered and looked up in NumPy and Arrow, with no Python work per card."""
    ids = len(p["ids"])
    raw = np.frombuffer(b"".join(p["codes"]), np.uint8)
    head = raw[0::2]
    play = head < 4  # a play's first byte is its seat; a declaration's is its kind << 2 | seat, kind >= 1
    deal = np.repeat(np.arange(ids, dtype=np.int32), np.asarray(p["events"], np.int64))[play]
    seats = head[play].astype(np.int32)
    cards = raw[1::2][play].astype(np.int32)
    counts = np.bincount(deal, minlength=ids)
    seq = np.arange(1, len(deal) + 1, dtype=np.int32) - (np.cumsum(counts) - counts).astype(np.int32)[deal]
    n_of = np.asarray(p["n"], np.int32)
    tricks = -(-counts // n_of)  # each deal's entries in p["winners"]
    n = n_of[deal]
    trick0 = (seq - 1) // n
    winner = np.asarray(p["winners"], np.int32)[(np.cumsum(tricks) - tricks).astype(np.int64)[deal] + trick0]
    card = pa.array(cards, pa.int32())
    return pa.table({
        "deal_id": pa.array(np.asarray(p["ids"], np.int64)[deal]),
        "seq": pa.array(seq).cast(pa.uint16()), "trick": pa.array(trick0 + 1).cast(pa.uint8()),
        "ord": pa.array(seq - 1 - trick0 * n).cast(pa.uint8()),
        "seat": pc.take(_SEAT_LETTER, pa.array(n * 4 + seats, pa.int32())),
        "player": pc.take(pa.array(p["names"], pa.string()), pa.array(deal * 4 + seats, pa.int32())),
        "card": pc.take(_CARD_CODE, card), "suit": pc.take(_CARD_SUIT, card),
        "rank": pc.take(_CARD_RANK, card), "points": pc.take(_CARD_POINTS, card),
        "won": pa.array(winner == seats),
    }, schema=ARROW["plays"])


def hand_cards(masks: pa.Array[Any]) -> pa.Array[Any]:
    """Column ``cards`` of table hands from column ``mask``: each hand's cards in display order (a null mask, a
    seat without cards, an empty list), unpacked from the masks in NumPy."""
    bits = np.asarray(masks.fill_null(0).to_numpy(zero_copy_only=False), np.uint64)
    held = (bits[:, None] >> _DISPLAY_BITS) & np.uint64(1)
    _, at = np.nonzero(held)
    offsets = np.zeros(len(bits) + 1, np.int32)
    np.cumsum(held.sum(axis=1, dtype=np.int32), out=offsets[1:])
    cards: pa.Array[Any] = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()),
                                                   pc.take(_CARD_CODE, pa.array(_DISPLAY[at], pa.int64())))
    return cards


def event_codes(events: list[Action], players: int) -> bytes:
    """A deal's events as 2 bytes each, as the validator's C replay reads them (``encode_events``): a play is its
    seat, then its card; a declaration's first byte is 4 or more.  Encoded in Python when the C core cannot."""
    codes = encode(events, players)
    return codes if codes is not None else b"".join(map(_event_code, events))


def _event_code(event: Action) -> bytes:
    """One event's code as ``encode_events`` gives it (a seat is always one of the ruleset's, under 4)."""
    kind = KINDS.index(type(event))
    value = (event.suit if isinstance(event, Cante) else event.card if isinstance(event, (Play, Exchange))
             else event.rank if event.rank in (11, 12) else 0)
    return bytes((kind << 2 | event.seat, value))


_DECLARATION_HEADS = bytes(range(4, 256))
"""The first bytes of a declaration's code (:func:`event_codes`), deleted to count a deal's plays."""
_DEAL_ROW = itemgetter(*DEAL_COLUMNS)
"""A deal's row as a tuple in the order of table deals, in one step."""


def add_rows(report: Report, text: str, out: Rows) -> bool:
    """Append one deal's rows to every table's columns; False when its id is already in the batch."""
    record = report.record
    tags = record.tags
    rules = report.rules
    names = rules.seat_names if rules else SEAT_NAMES[4]
    n = len(names)
    labels = rules.side_labels if rules else ()
    sheet = report.sheet
    export = export_text(record, text) if not record.errors else text
    did, digest = deal_id(export)
    seen = out.seen
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
    points = list(sheet.match_points) if sheet else None
    result_only = report.result_only
    if result_only and rules is not None and report.computed_result is not None:  # a results-only deal, consistent
        totals = list(report.claimed_score) if report.claimed_score else None
        winner = labels.index(report.computed_result.partition("+")[0])
        points = list(report.result_points or ()) or None
    comments = record.comments
    if header is not None and "Date" not in header.errors:  # the validator read it: not again
        date, year = header.date, header.year
    else:
        date, year = read_date(tags.get("Date", "????.??.??"))
    decl_count = {Cante: 0, Exchange: 0}
    # -- plays: kept as flat lists here, expanded into columns by Arrow in plays_table
    q = out.columns["declarations"]
    p = out.plays
    refused = {(c.seat, c.suit) for c in report.refused_cantes}
    events = record.events
    codes = event_codes(events, n)
    count = len(codes[0::2].translate(None, _DECLARATION_HEADS))  # the plays
    p["codes"].append(codes)
    p["events"].append(len(events))
    p["ids"].append(did)
    p["n"].append(n)
    p["names"].extend(player + [None] * (4 - n))
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
        if isinstance(event, Cante):
            q["kind"].append("cante")
            q["suit"].append(SUIT_LETTERS[event.suit])
            q["rank"].append(None)
            q["card"].append(None)
            q["points"].append(None if rules is None else
                               rules.cuarenta_points if event.suit == trump else rules.cante_points)
            q["accepted"].append((seat, event.suit) not in refused)
        else:
            q["kind"].append("tute" if isinstance(event, Tute) else "exchange")
            q["suit"].append(SUIT_LETTERS[CARD_SUIT[event.card]] if isinstance(event, Exchange) else None)
            q["rank"].append(event.rank if isinstance(event, Tute) else None)
            q["card"].append(CODES[event.card] if isinstance(event, Exchange) else None)
            q["points"].append(None)
            q["accepted"].append(True)
    # -- starting hands
    h = out.columns["hands"]
    # A results-only deal's seats, without cards: its players' deals and wins are counted as any deal's.
    seat_hands: list[int | None] = list(hands) if hands else [None] * n if result_only and rules else []
    for seat, mask in enumerate(seat_hands):
        h["deal_id"].append(did)
        h["seat"].append(names[seat])
        h["player"].append(player[seat])
        h["side"].append(labels[rules.side_of(seat)] if rules else None)
        h["mask"].append(mask)
    # -- issues
    i = out.columns["issues"]
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
        "deal_no": header.deal_no if header is not None else read_number(tags.get("DealNo", ""), 1, INT32_MAX), "match_target": report.match_target,
        "match_score": list(match_score) if match_score else None, "valid": report.valid and not result_only,
        "result_only": result_only,
        "errors": len(report.errors), "warnings": len(report.warnings), "sides": list(labels),
        "claimed_score": list(report.claimed_score) if report.claimed_score else None, "score": totals,
        "card_points": list(sheet.card_points) if sheet else None, "claimed_result": report.claimed_result,
        "result": report.computed_result, "winner": labels[winner] if winner is not None else None,
        "winner_points": totals[winner] if totals and winner is not None else None,
        "margin": (totals[winner] - max(v for k, v in enumerate(totals) if k != winner))
        if totals and winner is not None and len(totals) > 1 else None,
        "match_points": points,
        "last_trick": labels[sheet.last_trick_side] if sheet and sheet.last_trick_side is not None else None,
        "complete": bool(sheet and sheet.complete),
        "tute": bool(sheet and sheet.tute) or (result_only and report.result_wins_match),
        "tute_rank": sheet.tute.rank if sheet and sheet.tute else None,
        "tute_seat": names[sheet.tute.seat] if sheet and sheet.tute else None,
        "doubled": bool(sheet and sheet.doubled), "tie_break": bool(sheet and sheet.tie_break),
        "cantes": len(sheet.cantes) if sheet else 0, "exchanges": decl_count[Exchange],
        "comments": "\n".join(comments) if comments else None, "tags": None, "text": export,  # tags: in out.tags, made a MAP by arrow_tables
        "import_run": None, "import_index": None,  # set by arrow_batch and the import (ingest.py)
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
    pair = CANTE_PAIRS[trump] if trump is not None else 0
    holder = next((x for x, m in enumerate(hands or ()) if pair and m & pair == pair), None)
    row["cuarenta_dealt_side"] = labels[rules.side_of(holder)] if holder is not None and rules else None
    row["cuarenta_dealt_seat"] = names[holder] if holder is not None else None
    add_sung(row, None if result_only else sheet, trump, names, labels)
    add_side_totals(out.columns["side_totals"], did, None if result_only else sheet, totals, winner, labels, trump)
    unsung = 0  # suits some seat was dealt rey and caballo of and never sang
    for letter, mask in by_letter.items():
        for suit in range(4):
            if mask & CANTE_PAIRS[suit] == CANTE_PAIRS[suit] and not sung[letter] >> suit & 1:
                unsung |= 1 << suit
    row["unsung"] = unsung if hands else None
    kept = out.tags
    kept[0].extend(tags)
    kept[1].extend(tags.values())
    kept[2].append(len(kept[0]))
    out.deal_rows.append(_DEAL_ROW(row))  # the table's columns in order: one the row lacks fails here
    return True


def add_sung(row: dict[str, Any], sheet: ScoreSheet | None, trump: int | None, names: tuple[str, ...],
             labels: tuple[str, ...]) -> None:
    """Who sang: las cuarenta's side and seat, and the seat of each 20, as the count took them (a cante the
    rules refused is in table declarations, not here)."""
    forty = next((c for c in sheet.cantes if c.suit == trump), None) if sheet else None
    row["cuarenta_sung_side"] = labels[forty.side] if forty is not None else None
    row["cuarenta_sung_seat"] = names[forty.seat] if forty is not None else None
    row["veintes_sung"] = [names[c.seat] for c in sheet.cantes if c.suit != trump] if sheet else None


def add_side_totals(s: dict[str, list[Any]], did: int, sheet: ScoreSheet | None, totals: list[int] | None,
                    winner: int | None, labels: tuple[str, ...], trump: int | None) -> None:
    """A row per side of table side_totals: its cards, last ten, cantes and total as plain columns (a
    results-only deal, ``sheet`` None, has its Score tag's totals and no parts).  Whole columns extended at
    once: a deal's sides are two or three."""
    k = len(labels)
    if not totals or len(totals) != k:
        return
    s["deal_id"].extend([did] * k)
    s["side"].extend(labels)
    s["place"].extend(range(k))
    s["total"].extend(totals)
    s["won"].extend([place == winner for place in range(k)] if winner is not None else [None] * k)
    if sheet is None:
        for key in PARTS:
            s[key].extend([None] * k)
        return
    last = [0] * k
    if sheet.last_trick_side is not None:
        last[sheet.last_trick_side] = sheet.last_trick_bonus
    cantes, forty, veintes = [0] * k, [False] * k, [0] * k
    for c in sheet.cantes:
        cantes[c.side] += c.points
        if c.suit == trump:
            forty[c.side] = True
        else:
            veintes[c.side] += 1
    cards = sheet.card_points
    s["cards"].extend(cards)
    s["last_ten"].extend(last)
    s["cards_and_last"].extend(map(add, cards, last))
    s["cantes"].extend(cantes)
    s["cuarenta"].extend(forty)
    s["veintes"].extend(veintes)


PARTS = ("cards", "last_ten", "cards_and_last", "cantes", "cuarenta", "veintes")
"""The columns of side_totals that a results-only deal, whose cards were not noted, leaves NULL."""


def record_id(raw: Raw) -> int:
    """The id :func:`add_rows` gives a record's deal (its export text's, else its stored text's when unreadable),
    without validating it: an import's answer for a record that repeats one before it in its piece."""
    name, index, first_line, text = raw
    record = parse_or_placeholder(text, first_line=first_line, source=name, index=index)
    return deal_id(export_text(record, text) if not record.errors else text)[0]


def worker_batch(batch: list[Raw]) -> dict[str, pa.Table]:
    """:func:`arrow_batch` in a worker process, with the cyclic garbage collector paused.

    A piece's rows hold about a million objects, none of them in reference
    cycles, which the collector would otherwise walk again and again: 9% of a
    worker's time.  Cycles made meanwhile are collected after.  Arrow allocates
    from the C library's malloc (its system pool), as in the import's main
    process (:func:`.ingest.system_arrow_pool`).
    """
    pa.set_memory_pool(pa.system_memory_pool())  # the worker process is the import's own
    gc.disable()
    try:
        return arrow_batch(batch)
    finally:
        gc.enable()


CHUNK = 1000
"""Records whose rows are held as Python lists at once: a piece's Arrow tables are made a chunk at a time, so a
worker holds the Python objects of one chunk, not of its whole piece (about 16 KB a record)."""


def arrow_batch(batch: list[Raw]) -> dict[str, pa.Table]:
    """Parse and validate record texts; return each table's new rows as Arrow (a pure function).  The findings'
    messages are stored in English whatever the caller speaks, so that an archive reads the same for everyone.

    The validator reads the whole piece as one stream (a match's deals are judged together); the rows made
    so far become Arrow every :data:`CHUNK` records."""

    def records() -> Iterator[Record]:
        for name, index, first_line, text in batch:
            yield parse_or_placeholder(text, first_line=first_line, source=name, index=index)

    seen: dict[int, bool] = {}  # the piece's deal ids so far: a deal twice in a piece is stored once
    out, places, chunks = new_rows(seen), [], []
    with speaking("en"):
        for place, (report, (_, _, _, text)) in enumerate(zip(validate_records(records()), batch)):
            if add_rows(report, text, out):
                places.append(place)  # the deal's place in the piece
            if place % CHUNK == CHUNK - 1:
                chunks.append(arrow_tables(out, places))
                out, places = new_rows(seen), []
    chunks.append(arrow_tables(out, places))
    return {t: pa.concat_tables([chunk[t] for chunk in chunks]) if len(chunks) > 1 else chunks[0][t] for t in ARROW}


@dataclass
class Rows:
    """The rows :func:`add_rows` builds for a chunk of a piece, until :func:`arrow_tables` makes them Arrow."""

    columns: dict[str, dict[str, list[Any]]]
    """Each table's columns (the deals' stay empty: :attr:`deal_rows` holds them)."""
    seen: dict[int, bool]
    """The piece's deal ids so far, shared by its chunks: a deal twice in a piece is stored once."""
    deal_rows: list[tuple[Any, ...]]
    """One tuple a deal, in the deals table's column order."""
    plays: dict[str, list[Any]]
    """The plays as flat lists, expanded into columns by :func:`plays_table`."""
    tags: tuple[list[str], list[str], list[int]]
    """Every deal's tags as flat lists of names and values, and where each deal's end (the offsets of column
    ``tags``, a MAP made at once by Arrow rather than from a list of pairs per deal)."""


def new_rows(seen: dict[int, bool]) -> Rows:
    """Empty columns for :func:`add_rows`, sharing the piece's ``seen`` ids."""
    return Rows({t: {f: [] for f in schema.names} for t, schema in ARROW.items()}, seen, [],
                {k: [] for k in ("codes", "events", "ids", "n", "names", "winners")}, ([], [], [0]))


def arrow_tables(out: Rows, places: list[int]) -> dict[str, pa.Table]:
    """The Arrow tables of the rows :func:`add_rows` put in ``out``, the deals at ``places`` in their piece."""
    rows = out.deal_rows
    deals: dict[str, Any] = dict(zip(DEAL_COLUMNS, zip(*rows))) if rows else out.columns["deals"]  # as columns
    deals["import_index"] = places
    names, values, ends = out.tags
    deals["tags"] = pa.MapArray.from_arrays(  # type: ignore[call-overload]  # the stubs know no string keys
        pa.array(ends, pa.int32()), pa.array(names, pa.string()), pa.array(values, pa.string()))
    mask = pa.array(out.columns["hands"]["mask"], pa.int64())
    hands: dict[str, Any] = {**out.columns["hands"], "cards": hand_cards(mask), "mask": mask}
    tables = {t: pa.Table.from_pydict(hands if t == "hands" else out.columns[t], schema=schema)
              for t, schema in ARROW.items() if t not in ("plays", "deals")}
    tables["deals"] = pa.Table.from_pydict(deals, schema=ARROW["deals"])
    tables["plays"] = plays_table(out.plays)
    return tables
