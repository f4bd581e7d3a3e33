"""The archive on real DuckDB files: import, search, export, SQL safety, interruption, maintenance.

One archive is built once for the module from a mixed set of files: 300 simulated deals per preset, a
few simulated matches, every hand-checked sample, four hand-made records with known players and tags
(some holding SQL and LIKE metacharacters), and invalid records.  Each search filter is checked
against an oracle computed here, record by record, from the reader and the validator (never from the
archive's own rows), and against exact ids of the hand-made records.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from tutepgn.api.pool import PageCache, Readers
from tutepgn.archive import Archive, ImportSummary, SearchFilters, default_path, run_sql, run_with_timeout
from tutepgn.cards import card, card_from_code
from tutepgn.cli.main import app
from tutepgn.engine import Deal
from tutepgn.events import Exchange, Play
from tutepgn.errors import LimitError, NotationError
from tutepgn.notation import SEAT_TAGS, Record, iter_raw_records, parse_record, scan_tags
from tutepgn.rules import PRESETS, preset
from tutepgn.recording.simulate import deal_records, greedy_bot, match_records, stream_seed
from tutepgn.check.validate import validate_records

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
TABLES = ("deals", "plays", "declarations", "hands", "side_totals", "issues")
SIM_PER_PRESET = 300
runner = CliRunner()

# Hand-made records: simulated deals given known tables, events, sites, dates and comments.
ZOE, YAGO, XENIA, WALTER = "Zoe Quintana", "Yago Ruiz", "Xenia Paz", "Walter O'Brien"
HANDMADE: dict[str, dict[str, Any]] = {
    "H1": {"rules": "ludoteka-pairs", "seed": 501,
           "tags": {"Event": "100% Tute_Open \\ final", "Site": "Bar O'Hara", "Date": "2023.03.15",
                    "North": ZOE, "West": XENIA, "South": YAGO, "East": WALTER},
           "comment": "Robert'); DELETE FROM deals;--"},
    "H2": {"rules": "playcard-2p", "seed": 502,
           "tags": {"Event": "Torneo 100 Tute Open", "Site": "Bar OHara", "Date": "2023.06.01",
                    "North": ZOE, "South": WALTER},
           "comment": "Ronda con 50% off_drinks"},
    "H3": {"rules": "torofun-3p", "seed": 503,
           "tags": {"Event": "' OR 1=1 --", "Site": "Casa de Yago", "Date": "2023.12.31",
                    "North": YAGO, "West": ZOE, "East": XENIA},
           "comment": None},
    "H4": {"rules": "torofun-4p", "seed": 504,
           "tags": {"Event": "Liga de invierno", "Site": "Peña El Tute", "Date": "2022.12.31",
                    "North": XENIA, "West": YAGO, "South": ZOE, "East": WALTER},
           "comment": None},
}


# ---------------------------------------------------------------------------
# Building the files.

def simulated(name: str, count: int, seed: int) -> Iterator[Record]:
    """Simulated records of the stream the filters of these tests were chosen on: ``random.Random(seed)`` for every
    preset, as before each preset played its own (:func:`stream_seed` is its own inverse)."""
    return deal_records(preset(name), count, seed=stream_seed(preset(name), seed))


def _write(path: Path, texts: list[str]) -> Path:
    path.write_text("\n".join(texts), encoding="utf-8", newline="\n")
    return path


def _handmade(name: str) -> Record:
    spec = HANDMADE[name]
    record = next(simulated(spec["rules"], 1, spec["seed"]))
    for tag in ("North", "West", "South", "East"):
        record.tags.pop(tag, None)
    record.tags.update(spec["tags"])
    record.tags["Round"] = name
    if spec["comment"]:
        record.intro = [spec["comment"]]
    return record


def _illegal_record(seed: int) -> Record:
    """A ludoteka-pairs deal where one card breaks a play duty (forced, as a careless recorder would write it)."""
    rng = random.Random(seed)
    deal = Deal.shuffled(preset("ludoteka-pairs"), rng, dealer=0)
    forced = False
    while not deal.over:
        if not forced and deal.trick:
            seat, legal = deal.turn, deal.legal_plays()
            bad = [c for c in deal.hand(seat) if c not in legal]
            if bad:
                deal.force(Play(seat, bad[0]))
                forced = True
                continue
        deal.apply(greedy_bot(deal, rng))
    assert forced
    return Record.from_deal(deal, {"Event": "Illegal play", "Date": "2024.05.05", "North": "Ilse", "West": "Iker",
                                   "South": "Irene", "East": "Ivo"})


def _invalid_texts() -> list[str]:
    wrong_score = next(simulated("playcard-2p", 1, 601))
    wrong_score.tags["Event"] = "Wrong score"
    wrong_score.tags["Score"] = "N:1 S:2"
    syntax = next(simulated("torofun-2p", 1, 602)).tpgn()
    syntax = syntax.replace('[Event "Simulated deals"]', '[Event "Broken record"]').replace("\n1. ", "\n1. ZZ 99Q ", 1)
    return [wrong_score.tpgn(), _illegal_record(603).tpgn(), syntax]


# ---------------------------------------------------------------------------
# The oracle: what each record is, from the reader and validator alone.

@dataclass
class Fact:
    id: int
    text: str
    source: str
    tags: dict[str, str]
    seats: dict[str, str | None]
    side: dict[str, str]
    sides: tuple[str, ...]
    preset: str | None
    rules: str | None
    players: int
    trump: str | None
    winner: str | None
    winner_players: list[str | None]
    winner_points: int | None
    margin: int | None
    cantes: list[tuple[str, str | None, str, bool]]
    hands: dict[str, int]
    sung: dict[str, int]
    tute: bool
    tute_rank: int | None
    doubled: bool
    tie_break: bool
    exchanges: int
    valid: bool
    codes: set[str]
    comments: str
    match: str | None
    date: dt.date | None
    complete: bool
    plays: int
    card_points: list[int] | None
    totals: list[int] | None
    findings: int = 0
    errors: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def names(self) -> set[str]:
        return {v for v in (self.tags.get(t) for t in ("North", "West", "South", "East")) if v is not None}


def _deal_id(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


def _date(text: str) -> dt.date | None:
    try:
        y, m, d = (int(p) for p in text.split("."))
        return dt.date(y, m, d)
    except ValueError:
        return None


def build_oracle(paths: list[Path]) -> dict[int, Fact]:
    raws = list(iter_raw_records(paths))

    def records():
        for name, index, line, text in raws:
            try:
                yield parse_record(text, first_line=line, source=name, index=index)
            except NotationError as exc:
                yield Record(tags=scan_tags(text), source=name, index=index, line=line, errors=[exc])

    facts: dict[int, Fact] = {}
    for report, (name, _, _, raw) in zip(validate_records(records()), raws):
        rec, rules, sheet = report.record, report.rules, report.sheet
        text = raw if rec.errors else rec.tpgn()
        did = _deal_id(text)
        if did in facts:
            continue
        letters = rules.seat_names if rules else ("N", "W", "S", "E")
        labels = rules.side_labels if rules else ()
        seats = {x: rec.tags.get(SEAT_TAGS[x]) for x in letters}
        side = {x: labels[rules.side_of(i)] for i, x in enumerate(letters)} if rules else {}
        header = rec.header_or_none()
        trump = header.trump if header is not None else None
        winner = labels[sheet.winner] if sheet and sheet.winner is not None else None
        totals = list(sheet.totals) if sheet else None
        hands = header.hands if header is not None else None
        sung = dict.fromkeys(letters, 0)
        cantes = []
        for c in sheet.cantes if sheet else ():
            sung[letters[c.seat]] |= 1 << c.suit
            cantes.append((letters[c.seat], seats[letters[c.seat]], "OCEB"[c.suit], c.suit == trump))
        facts[did] = Fact(
            id=did, text=text, source=name, tags=dict(rec.tags), seats=seats, side=side, sides=labels,
            preset=rules.preset if rules else None, rules=str(rules) if rules else None,
            players=len(letters), trump="OCEB"[trump] if trump is not None else None, winner=winner,
            winner_players=[seats[x] for x in letters if side.get(x) == winner] if winner else [],
            winner_points=totals[sheet.winner] if winner else None,
            margin=(totals[sheet.winner] - max(v for i, v in enumerate(totals) if i != sheet.winner))
            if winner else None,
            cantes=cantes, hands=dict(zip(letters, hands)) if hands else {}, sung=sung,
            tute=bool(sheet and sheet.tute), tute_rank=sheet.tute.rank if sheet and sheet.tute else None,
            doubled=bool(sheet and sheet.doubled), tie_break=bool(sheet and sheet.tie_break),
            exchanges=sum(type(e) is Exchange for e in rec.events), valid=report.valid,
            codes={f.code for f in report.findings},
            comments="\n".join(rec.comments),
            match=rec.tags.get("Match"), date=_date(rec.tags.get("Date", "")), complete=bool(sheet and sheet.complete),
            plays=sum(type(e) is Play for e in rec.events), card_points=list(sheet.card_points) if sheet else None,
            totals=totals, findings=len(report.findings), errors=len(report.errors))
    return facts


# ---------------------------------------------------------------------------
# The module's archive.

@dataclass
class Data:
    dir: Path
    db: Path
    files: list[Path]
    facts: dict[int, Fact]
    written: dict[str, list[str]]
    handmade: dict[str, int]
    invalid: list[int]
    summary: ImportSummary


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Data:
    root = tmp_path_factory.mktemp("archive")
    written: dict[str, list[str]] = {}
    sims = [r.tpgn() for i, name in enumerate(PRESETS)
            for r in simulated(name, SIM_PER_PRESET, 1000 + i)]
    written["sim"] = sims
    matches = [r.tpgn() for spec, count, seed in (("ludoteka-pairs", 2, 7), ("playcard-2p", 2, 8))
               for r in match_records(preset(spec), count, seed=seed)]
    written["matches"] = matches
    hand = {name: _handmade(name).tpgn() for name in HANDMADE}
    written["handmade"] = list(hand.values()) + [sims[0]]  # and one duplicate of a simulated deal
    invalid = _invalid_texts()
    files = [_write(root / "sim.tpgn", sims), _write(root / "matches.tpgn", matches),
             _write(root / "handmade.tpgn", written["handmade"]), _write(root / "invalid.tpgn", invalid),
             *sorted(SAMPLES.glob("*.tpgn"))]
    db = root / "archive.duckdb"
    with Archive(db) as archive:
        summary = archive.import_sources(files, jobs=2)
    facts = build_oracle(files)
    return Data(root, db, files, facts, written, {k: _deal_id(v) for k, v in hand.items()},
                [_deal_id(t) for t in invalid], summary)  # the last of a file keeps its text as written


@pytest.fixture(scope="module")
def arc(data: Data):
    archive = Archive(data.db, read_only=True)
    yield archive
    archive.close()


def counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def ids(archive: Archive, filters: SearchFilters | None = None, **given: Any) -> set[int]:
    f = filters if filters is not None else SearchFilters(**given)
    return {row["id"] for row in archive.search(f, limit=None, columns=("id",))}


def copy_db(data: Data, tmp_path: Path, name: str = "copy.duckdb") -> Path:
    target = tmp_path / name
    shutil.copy(data.db, target)
    return target


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------
# Import, ids, round trip.

def test_import_stores_every_distinct_record_once(data: Data, arc: Archive) -> None:
    facts = data.facts
    total = sum(len(data.written[k]) for k in ("sim", "matches", "handmade")) + 3 + sum(
        1 for _ in iter_raw_records(sorted(SAMPLES.glob("*.tpgn"))))
    assert data.summary.records == total
    assert data.summary.added == len(facts) == total - 1  # the duplicate is stored once
    assert data.summary.invalid == 3 and arc.count() == len(facts)
    assert arc.count(SearchFilters(valid=False)) == 3
    rows = arc.con.execute("SELECT id, hash, text FROM deals").fetchall()
    assert {r[0] for r in rows} == set(facts)
    for did, digest, text in rows:  # the id is the first 63 bits of the SHA-256 of the export text
        assert digest == hashlib.sha256(text.encode()).hexdigest() and did == _deal_id(text)
        assert text == facts[did].text
    imports = arc.con.execute("SELECT records, added, len(paths) FROM imports").fetchall()
    assert imports == [(total, len(facts), len(data.files))]


def test_a_summary_and_its_row_are_one_mapping_both_ways(arc: Archive) -> None:
    """Every deal's summary row becomes a :class:`DealSummary` and the same row again, through its JSON too (what
    a :class:`~tutepgn.archive.remote.ServiceArchive` reads from the service), columns in their order."""
    from tutepgn.archive.columns import SUMMARY_COLUMNS
    from tutepgn.archive.search import DealSummary

    rows = arc.search(SearchFilters(), limit=None)
    assert len(rows) == arc.count() and all(list(row) == list(SUMMARY_COLUMNS) for row in rows)
    for row in rows:
        summary = DealSummary.from_row(row)
        assert summary.to_row() == row
        assert DealSummary.model_validate_json(summary.model_dump_json()).to_row() == row


def test_export_tpgn_gives_back_the_records_byte_for_byte(data: Data, arc: Archive, tmp_path: Path) -> None:
    buf = io.StringIO()
    assert arc.export(None, "tpgn", buf) == len(data.facts)
    exported = buf.getvalue()
    stored = [t for (t,) in arc.con.execute("SELECT text FROM deals ORDER BY date NULLS LAST, id").fetchall()]
    assert exported == "\n".join(stored)
    back = [raw[3] for raw in iter_raw_records([io.StringIO(exported)])]
    assert {t.rstrip("\n") + "\n" for t in back} == {f.text for f in data.facts.values()}
    for key in ("sim", "matches", "handmade"):  # files already in export format: byte for byte per record
        for text in data.written[key]:
            assert arc.text(_deal_id(text)) == text
    for path in sorted(SAMPLES.glob("*.tpgn")):
        if path.name == "hand-written.tpgn":  # the import format: stored as its export text
            continue
        for _, _, _, raw in iter_raw_records([path]):
            if "[Cards " in raw:  # another card style: stored in es, checked by its export text elsewhere
                continue
            assert arc.text(_deal_id(raw.rstrip("\n") + "\n")) == raw.rstrip("\n") + "\n", path.name
    # The command line writes the same bytes, to a file or from a search.
    target = tmp_path / "all.tpgn"
    result = runner.invoke(app, ["export", "--db", str(data.db), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8") == exported
    result = runner.invoke(app, ["search", "--db", str(data.db), "--format", "tpgn", "--limit", "100000"])
    assert result.exit_code == 0 and result.stdout == exported


def test_reimport_adds_nothing(data: Data, tmp_path: Path) -> None:
    db = copy_db(data, tmp_path)
    with Archive(db) as archive:
        before = counts(archive.con)
        summary = archive.import_sources(data.files, jobs=1)
        assert summary.records == data.summary.records and summary.added == 0
        assert counts(archive.con) == before
        again = archive.import_sources([data.files[2]], jobs=1, skip_invalid=True)
        assert again.added == 0 and counts(archive.con) == before


def test_invalid_records_are_stored_flagged_or_skipped(data: Data, arc: Archive, tmp_path: Path) -> None:
    score, illegal, syntax = data.invalid
    rows = {r["id"]: r for r in arc.search(SearchFilters(valid=False), limit=None,
                                           columns=("id", "valid", "errors", "event"))}
    assert set(rows) == {score, illegal, syntax}
    codes = {did: {c for (c,) in arc.con.execute("SELECT code FROM issues WHERE deal_id = ? AND severity = 'error'",
                                                  [did]).fetchall()} for did in rows}
    assert codes[score] == {"score_mismatch"}
    assert codes[illegal] & {"must_follow", "must_beat", "must_trump", "must_overtrump"}
    assert codes[syntax] == {"syntax"}
    assert all(rows[d]["errors"] >= 1 for d in rows)
    assert ids(arc, issue="score_mismatch") == {score} and ids(arc, issue="syntax") == {syntax}
    # The syntax error is stored with the record's own text (it cannot be rewritten).
    assert "ZZ 99Q" in arc.text(syntax)
    # Left out with skip_invalid: nothing of them in any table.
    with Archive(tmp_path / "skip.duckdb") as fresh:
        summary = fresh.import_sources([data.files[3], data.files[2]], skip_invalid=True)
        assert (summary.records, summary.added, summary.invalid, summary.skipped_invalid) == (8, 5, 3, 3)
        assert fresh.count() == 5 and fresh.count(SearchFilters(valid=False)) == 0
        for table in TABLES[1:]:
            assert fresh.con.execute(f"SELECT count(*) FROM {table} WHERE deal_id IN (SELECT unnest(?))",
                                     [data.invalid]).fetchone()[0] == 0


def test_who_sang_and_the_totals_per_side_agree_with_the_count(data: Data, arc: Archive) -> None:
    """The sung columns are the count's cantes (not the dealt hands), and each side's row of side_totals adds
    up to the deal's score, for every deal of the module's archive."""
    rows = arc.con.execute("""SELECT id, cuarenta_sung_side, cuarenta_sung_seat, veintes_sung, result_only, score,
                              winner FROM deals""").fetchall()
    sides = {}
    for did, side, place, cards, last, both, cantes, forty, veintes, total, won in arc.con.execute(
            "SELECT * FROM side_totals ORDER BY deal_id, place").fetchall():
        sides.setdefault(did, []).append((side, cards, last, both, cantes, forty, veintes, total, won))
    sung_somewhere = 0
    for did, forty_side, forty_seat, veintes, result_only, score, winner in rows:
        fact = data.facts[did]
        if result_only:
            continue
        forties = [seat for seat, _, _, trump in fact.cantes if trump]
        assert forty_seat == (forties[0] if forties else None), did
        assert forty_side == (fact.side[forties[0]] if forties else None), did
        assert veintes == ([seat for seat, _, _, trump in fact.cantes if not trump] if fact.totals else None), did
        sung_somewhere += forty_seat is not None
        if score is None:
            assert did not in sides
            continue
        got = sides[did]
        assert [s[0] for s in got] == list(fact.sides) and [s[7] for s in got] == score, did
        assert [s[1] for s in got] == fact.card_points, did
        for label, cards, last, both, cantes, forty, veintes_n, total, won in got:
            assert both == cards + last and total == both + cantes, did
            assert last in (0, 10) and forty == (forty_side == label), did
            assert veintes_n == sum(fact.side[seat] == label for seat in veintes), did
            assert won == (label == winner if winner is not None else None), did
        if fact.complete:
            assert sum(s[2] for s in got) == 10, did
    dealt_not_sung = arc.con.execute("""SELECT count(*) FROM deals WHERE cuarenta_dealt_side IS NOT NULL
                                         AND cuarenta_sung_side IS NULL""").fetchone()[0]
    assert sung_somewhere > 100 and dealt_not_sung > 0  # the two differ: a side dealt las cuarenta may not sing them


def test_plays_one_row_per_card_and_card_points_add_up(data: Data, arc: Archive) -> None:
    con = arc.con
    per_deal = dict(con.execute("SELECT deal_id, count(*) FROM plays GROUP BY deal_id").fetchall())
    for fact in data.facts.values():
        assert per_deal.get(fact.id, 0) == fact.plays, fact.tags
    full = con.execute("""
        SELECT d.id, d.preset, count(p.seq) FROM deals d JOIN plays p ON p.deal_id = d.id
        WHERE d.complete AND d.valid GROUP BY ALL""").fetchall()
    assert len(full) > 1400
    for did, name, n in full:
        assert n == (36 if name == "torofun-3p" else 40), (did, name)
    summed = con.execute("""
        WITH won AS (SELECT p.deal_id, p.trick, h.side FROM plays p JOIN hands h ON h.deal_id = p.deal_id
                     AND h.seat = p.seat WHERE p.won),
             per_side AS (SELECT p.deal_id, won.side, sum(p.points)::INTEGER AS pts FROM plays p
                          JOIN won ON won.deal_id = p.deal_id AND won.trick = p.trick GROUP BY ALL)
        SELECT d.id, d.sides, d.card_points, list(per_side.side), list(per_side.pts)
        FROM deals d JOIN per_side ON per_side.deal_id = d.id WHERE d.complete AND d.valid GROUP BY ALL""").fetchall()
    assert len(summed) == len(full)
    for did, sides, card_points, won_sides, pts in summed:
        got = dict(zip(won_sides, pts))
        assert [got.get(s, 0) for s in sides] == card_points == data.facts[did].card_points, did
        assert sum(card_points) == 120
    # each trick has exactly one winning card
    assert con.execute("""SELECT count(*) FROM (SELECT deal_id, trick, count(*) FILTER (WHERE won) AS w FROM plays
                          GROUP BY ALL HAVING w > 1)""").fetchone()[0] == 0


def test_hands_and_declarations_of_a_hand_checked_sample(arc: Archive) -> None:
    raw = next(iter_raw_records([SAMPLES / "doubles.tpgn"]))[3]
    did = _deal_id(raw.rstrip("\n") + "\n")
    row = arc.search(SearchFilters(), limit=None, columns=("id", "trump", "score", "card_points", "winner", "doubled",
                                                           "cantes", "sung_n", "sung_s", "cuarenta_dealt_side",
                                                           "cuarenta_dealt_seat", "cuarenta_sung_side",
                                                           "cuarenta_sung_seat", "veintes_sung", "result"))
    row = next(r for r in row if r["id"] == did)
    assert row == {"id": did, "trump": "B", "score": [148, 42], "card_points": [78, 42], "winner": "NS",
                   "doubled": True, "cantes": 2, "sung_n": 1 << 3, "sung_s": 1 << 0, "cuarenta_dealt_side": "NS",
                   "cuarenta_dealt_seat": "N", "cuarenta_sung_side": "NS", "cuarenta_sung_seat": "N",
                   "veintes_sung": ["S"], "result": "NS+2"}
    sides = arc.con.execute("SELECT side, place, cards, last_ten, cards_and_last, cantes, cuarenta, veintes, total, won "
                            "FROM side_totals WHERE deal_id = ? ORDER BY place", [did]).fetchall()
    assert sides == [("NS", 0, 78, 10, 88, 60, True, 1, 148, True), ("WE", 1, 42, 0, 42, 0, False, 0, 42, False)]
    decl = arc.con.execute("SELECT seq, after_trick, seat, player, kind, suit, points, accepted FROM declarations "
                           "WHERE deal_id = ? ORDER BY seq", [did]).fetchall()
    assert decl == [(1, 1, "N", "Inés Robles", "cante", "B", 40, True),
                    (2, 1, "S", "Elena Carro", "cante", "O", 20, True)]
    hands = arc.con.execute("SELECT seat, player, side, cards, mask FROM hands WHERE deal_id = ? ORDER BY seat",
                            [did]).fetchall()
    expected = {"N": ("Inés Robles", "NS", "6O 10C 1E 2E 6E 1B 7B 10B 11B 12B"),
                "W": ("Fermín Llamas", "WE", "2O 3O 4O 2C 6C 11C 4E 5E 3B 5B"),
                "S": ("Elena Carro", "NS", "1O 7O 11O 12O 3C 4C 3E 11E 12E 6B"),
                "E": ("Gloria Villa", "WE", "5O 10O 1C 5C 7C 12C 7E 10E 2B 4B")}
    assert len(hands) == 4
    for seat, player, side, cards, mask in hands:
        name, label, dealt = expected[seat]
        assert (player, side, cards) == (name, label, dealt.split())
        assert mask == sum(1 << card_from_code(c) for c in dealt.split())
    first = arc.con.execute("SELECT trick, ord, seat, card, suit, rank, points, won FROM plays WHERE deal_id = ? "
                            "AND trick = 1 ORDER BY seq", [did]).fetchall()
    assert first == [(1, 0, "W", "2O", "O", 2, 0, False), (1, 1, "S", "1O", "O", 1, 11, True),
                     (1, 2, "E", "10O", "O", 10, 2, False), (1, 3, "N", "6O", "O", 6, 0, False)]
    # The lost cante: West held rey and caballo of bastos and never sang (torofun-4p-lost-cante.tpgn).
    lost = _deal_id(next(iter_raw_records([SAMPLES / "torofun-4p-lost-cante.tpgn"]))[3].rstrip("\n") + "\n")
    assert lost in ids(arc, unsung="any")


# ---------------------------------------------------------------------------
# Every filter against the oracle.

def _held(fact: Fact, seat: str, codes: str) -> bool:
    mask = sum(1 << card_from_code(c) for c in codes.split(","))
    return fact.hands.get(seat, 0) & mask == mask


def _unsung(fact: Fact, only_trump: bool) -> bool:
    for seat, hand in fact.hands.items():
        for suit in range(4):
            pair = (1 << card(11, suit)) | (1 << card(12, suit))
            if hand & pair == pair and not fact.sung.get(seat, 0) >> suit & 1:
                if not only_trump or fact.trump == "OCEB"[suit]:
                    return True
    return False


def _is(name: str | None, query: str) -> bool:
    """A player's name matches a name filter: every word of the query is a word of the name, whatever the
    case and the accents (written here apart from the library's ``name_words``)."""
    def words(text: str) -> set[str]:
        plain = "".join(c for c in unicodedata.normalize("NFD", text.lower()) if unicodedata.category(c) != "Mn")
        return set(re.findall(r"[0-9a-z]+", plain))
    return name is not None and words(query) <= words(name)


def _loser(fact: Fact, who: str) -> bool:
    if fact.winner is None:
        return False
    if who.upper() in ("NS", "WE", "N", "W", "S", "E"):
        return fact.winner != who.upper() and who.upper() in fact.sides
    return any(_is(p, who) and fact.side.get(x) != fact.winner for x, p in fact.seats.items())


def _partners(fact: Fact, a: str, b: str) -> bool:
    s = fact.seats
    return fact.players == 4 and any(_is(s.get(x), a) and _is(s.get(y), b)
                                     for x, y in (("N", "S"), ("S", "N"), ("W", "E"), ("E", "W")))


def _opponents(fact: Fact, a: str, b: str) -> bool:
    return bool(fact.hands) and any(
        fact.side.get(x) != fact.side.get(y) for x, p in fact.seats.items() for y, q in fact.seats.items()
        if x != y and _is(p, a) and _is(q, b))


ORACLE: list[tuple[str, dict[str, Any], Callable[[Fact], bool]]] = [
    ("player", {"player": "Ana"}, lambda f: any(_is(n, "Ana") for n in f.names())),
    ("player+seat", {"player": "Bruno", "seat": "S"}, lambda f: _is(f.seats.get("S"), "Bruno")),
    ("partner", {"player": "Carmen", "partner": "Diego"}, lambda f: _partners(f, "Carmen", "Diego")),
    ("opponent", {"player": "Elena", "opponent": "Hugo"}, lambda f: _opponents(f, "Elena", "Hugo")),
    ("since", {"since": "2026-07-01"}, lambda f: f.date is not None and f.date >= dt.date(2026, 7, 1)),
    ("until", {"until": "2025-02-28"}, lambda f: f.date is not None and f.date <= dt.date(2025, 2, 28)),
    ("since+until", {"since": "2025-03-01", "until": "2025-03-31"},
     lambda f: f.date is not None and dt.date(2025, 3, 1) <= f.date <= dt.date(2025, 3, 31)),
    ("event", {"event": "MATCH"}, lambda f: "match" in f.tags.get("Event", "").lower()),
    ("event accented", {"event": "círculo"}, lambda f: "círculo" in f.tags.get("Event", "").lower()),
    ("site", {"site": "simulator"}, lambda f: "simulator" in f.tags.get("Site", "").lower()),
    ("rules preset", {"rules": "torofun-3p"}, lambda f: f.preset == "torofun-3p"),
    ("rules spec", {"rules": "ludoteka-pairs match_target=6"}, lambda f: f.rules == "ludoteka-pairs match_target=6"),
    ("trump", {"trump": "e"}, lambda f: f.trump == "E"),
    ("winner side", {"winner": "WE"}, lambda f: f.winner == "WE"),
    ("winner player", {"winner": "Fermín"}, lambda f: any(_is(p, "Fermín") for p in f.winner_players)),
    ("loser player", {"loser": "Gloria"}, lambda f: _loser(f, "Gloria")),
    ("loser side", {"loser": "N"}, lambda f: _loser(f, "N")),
    ("min_points", {"min_points": 101}, lambda f: f.winner_points is not None and f.winner_points >= 101),
    ("max_points", {"max_points": 60}, lambda f: f.winner_points is not None and f.winner_points <= 60),
    ("min_margin", {"min_margin": 80}, lambda f: f.margin is not None and f.margin >= 80),
    ("max_margin", {"max_margin": 4}, lambda f: f.margin is not None and f.margin <= 4),
    ("points+margin", {"min_points": 70, "max_points": 80, "min_margin": 5, "max_margin": 20},
     lambda f: f.margin is not None and 70 <= f.winner_points <= 80 and 5 <= f.margin <= 20),
    ("cante any", {"cante": "any"}, lambda f: bool(f.cantes)),
    ("cante 20", {"cante": "20"}, lambda f: any(not t for *_, t in f.cantes)),
    ("cante 40", {"cante": "40"}, lambda f: any(t for *_, t in f.cantes)),
    ("cante suit", {"cante_suit": "C"}, lambda f: any(s == "C" for _, _, s, _ in f.cantes)),
    ("cante by", {"cante_by": "Inés"}, lambda f: any(_is(p, "Inés") for _, p, _, _ in f.cantes)),
    ("cante 20 suit by", {"cante": "20", "cante_suit": "O", "cante_by": "Julián"},
     lambda f: any(_is(p, "Julián") and s == "O" and not t for _, p, s, t in f.cantes)),
    ("unsung any", {"unsung": "any"}, lambda f: _unsung(f, False)),
    ("unsung 40", {"unsung": "40"}, lambda f: _unsung(f, True)),
    ("tute", {"tute": True}, lambda f: f.tute),
    ("no tute", {"tute": False}, lambda f: not f.tute),
    ("tute_rank 11", {"tute_rank": 11}, lambda f: f.tute_rank == 11),
    ("tute_rank 12", {"tute_rank": 12}, lambda f: f.tute_rank == 12),
    ("exchange", {"exchange": True}, lambda f: f.exchanges > 0),
    ("no exchange", {"exchange": False}, lambda f: f.exchanges == 0),
    ("doubled", {"doubled": True}, lambda f: f.doubled),
    ("not doubled", {"doubled": False}, lambda f: not f.doubled),
    ("tie_break", {"tie_break": True}, lambda f: f.tie_break),
    ("valid", {"valid": True}, lambda f: f.valid),
    ("invalid", {"valid": False}, lambda f: not f.valid),
    ("issue info", {"issue": "unfinished"}, lambda f: "unfinished" in f.codes),
    ("held", {"held": ["S:1O,3O"]}, lambda f: _held(f, "S", "1O,3O")),
    ("held lower case, two seats", {"held": ["N:1e", "W:3e,12E"]},
     lambda f: _held(f, "N", "1E") and _held(f, "W", "3E,12E")),
    ("comment", {"comment": "TUTE"}, lambda f: "tute" in f.comments.lower()),
    ("match", {"match": "sim-7-1"}, lambda f: f.match == "sim-7-1"),
    # Combinations AND together, including the examples of docs/archive.md.
    ("Ana sang las cuarenta and lost", {"cante": "40", "cante_by": "Ana", "loser": "Ana"},
     lambda f: any(p == "Ana" and t for _, p, _, t in f.cantes) and _loser(f, "Ana")),
    ("Bruno in 2026 with espadas", {"player": "Bruno", "since": "2026-01-01", "until": "2026-12-31", "trump": "E"},
     lambda f: "Bruno" in f.names() and f.date is not None and f.date.year == 2026 and f.trump == "E"),
    ("torofun-4p doubles won by WE with a 20", {"rules": "torofun-4p", "doubled": True, "winner": "WE", "cante": "20"},
     lambda f: f.preset == "torofun-4p" and f.doubled and f.winner == "WE" and any(not t for *_, t in f.cantes)),
    ("unsung 40 and still won over 80", {"unsung": "40", "min_points": 80},
     lambda f: _unsung(f, True) and f.winner_points is not None and f.winner_points >= 80),
    ("held and trump", {"held": ["N:1O"], "trump": "O", "winner": "N"},
     lambda f: _held(f, "N", "1O") and f.trump == "O" and f.winner == "N"),
]


@pytest.mark.parametrize("given, predicate", [pytest.param(g, p, id=n) for n, g, p in ORACLE])
def test_filter_matches_oracle(data: Data, arc: Archive, given: dict[str, Any],
                               predicate: Callable[[Fact], bool]) -> None:
    expected = {f.id for f in data.facts.values() if predicate(f)}
    assert expected, "a filter test needs at least one matching deal"
    assert ids(arc, **given) == expected
    assert arc.count(SearchFilters(**given)) == len(expected)


def test_issue_filter_finds_every_code(data: Data, arc: Archive) -> None:
    codes = {c for f in data.facts.values() for c in f.codes}
    assert {"score_mismatch", "syntax", "unfinished"} <= codes
    for code in codes | {"must_follow", "no_such_code"}:
        assert ids(arc, issue=code) == {f.id for f in data.facts.values() if code in f.codes}, code


def test_filters_on_hand_made_records(data: Data, arc: Archive) -> None:
    h = data.handmade
    assert ids(arc, player=ZOE) == {h["H1"], h["H2"], h["H3"], h["H4"]}
    assert ids(arc, player=ZOE, seat="N") == {h["H1"], h["H2"]}
    assert ids(arc, player=ZOE, seat="W") == {h["H3"]}
    assert ids(arc, player=ZOE, seat="S") == {h["H4"]}
    assert ids(arc, player=ZOE, seat="E") == set()
    assert ids(arc, player=ZOE, partner=YAGO) == {h["H1"]}
    assert ids(arc, player=ZOE, partner=XENIA) == {h["H4"]}
    assert ids(arc, player=ZOE, partner=WALTER) == set()
    assert ids(arc, player=ZOE, opponent=WALTER) == {h["H1"], h["H2"], h["H4"]}
    assert ids(arc, player=ZOE, opponent=YAGO) == {h["H3"], h["H4"]}
    assert ids(arc, player=ZOE, since="2023-01-01", until="2023-12-31") == {h["H1"], h["H2"], h["H3"]}
    assert ids(arc, player=ZOE, since="2023-06-01") == {h["H2"], h["H3"]}
    assert ids(arc, player=ZOE, until="2023-03-15") == {h["H1"], h["H4"]}
    assert ids(arc, event="100 tute") == {h["H2"]}
    assert ids(arc, event="100%") == {h["H1"]}
    assert ids(arc, event="tute_open") == {h["H1"]}
    assert ids(arc, event="tute open") == {h["H2"]}
    assert ids(arc, site="o'hara") == {h["H1"]}
    assert ids(arc, site="bar o") == {h["H1"], h["H2"]}
    assert ids(arc, comment="50% OFF_") == {h["H2"]}
    assert ids(arc, comment="50_") == set()
    assert ids(arc, player=WALTER, rules="playcard-2p") == {h["H2"]}
    assert ids(arc, player=YAGO, rules="torofun-3p", seat="N") == {h["H3"]}
    for name, did in h.items():
        fact = data.facts[did]
        assert fact.winner is not None
        assert did in ids(arc, player=ZOE, winner=fact.winner)
        won_zoe = ZOE in fact.winner_players
        assert (did in ids(arc, winner=ZOE)) == won_zoe
        assert (did in ids(arc, loser=ZOE)) == (not won_zoe)
        assert did in ids(arc, player=ZOE, min_points=fact.winner_points, max_points=fact.winner_points,
                          min_margin=fact.margin, max_margin=fact.margin, trump=fact.trump)


def test_filters_need_their_player_and_reject_bad_values() -> None:
    for alone in ({"partner": "Ana"}, {"opponent": "Ana"}, {"seat": "N"}):
        with pytest.raises(ValidationError, match="needs player"):
            SearchFilters(**alone)
    for bad in ({"trump": "X"}, {"trump": "OC"}, {"cante": "30"}, {"cante_suit": "Z"}, {"unsung": "20"},
                {"tute_rank": 10}, {"seat": "X"}, {"held": ["S:1Z"]}, {"held": ["Q:1O"]}, {"held": ["1O"]},
                {"since": "2025-13-01"}, {"until": "yesterday"}, {"min_points": "many"}, {"nothing": 1}):
        with pytest.raises(ValidationError):
            SearchFilters(**bad)


def test_sorts_and_pages(arc: Archive) -> None:
    by_points = arc.search(SearchFilters(valid=True, rules="playcard-2p"), sort="-points", limit=None,
                           columns=("id", "winner_points"))
    values = [r["winner_points"] for r in by_points]
    assert values == sorted(values, key=lambda v: -v)
    pages = [r["id"] for off in range(0, 60, 20)
             for r in arc.search(SearchFilters(valid=True, rules="playcard-2p"), sort="-points", limit=20, offset=off)]
    assert pages == [r["id"] for r in by_points[:60]]
    with pytest.raises(ValueError):
        arc.search(sort="date; DROP TABLE deals")
    with pytest.raises(ValueError):
        arc.search(columns=("id", "text FROM deals; --"))


# ---------------------------------------------------------------------------
# Injection through every filter.

PAYLOADS = ["' OR 1=1 --", '"; DROP TABLE deals; --', "%", "_", "\\", "Robert'); DELETE FROM deals;--",
            "%' OR '1'='1", "' UNION SELECT id FROM deals --", "*", "'", "\\%", "NS' OR winner IS NOT NULL --"]
TEXT_FILTERS: dict[str, Callable[[Fact, str], bool]] = {
    "player": lambda f, v: any(_is(n, v) for n in f.names()),
    "event": lambda f, v: v.lower() in f.tags.get("Event", "").lower(),
    "site": lambda f, v: v.lower() in f.tags.get("Site", "").lower(),
    "rules": lambda f, v: v in (f.preset, f.rules),
    "winner": lambda f, v: f.winner == v or any(_is(p, v) for p in f.winner_players),
    "loser": _loser,
    "cante_by": lambda f, v: any(_is(p, v) for _, p, _, _ in f.cantes),
    "issue": lambda f, v: v in f.codes,
    "comment": lambda f, v: v.lower() in f.comments.lower(),
    "match": lambda f, v: f.match == v,
}


@pytest.fixture(scope="module")
def writable(data: Data, tmp_path_factory: pytest.TempPathFactory):
    """A writable archive (a copy), so that an injected statement could have done harm."""
    path = tmp_path_factory.mktemp("writable") / "w.duckdb"
    shutil.copy(data.db, path)
    archive = Archive(path)
    yield archive
    archive.close()


@pytest.mark.parametrize("payload", PAYLOADS)
def test_injection_through_every_text_filter_is_inert(data: Data, writable: Archive, payload: str) -> None:
    before = counts(writable.con)
    for name, literal in TEXT_FILTERS.items():
        try:
            filters = SearchFilters(**{name: payload})
        except ValidationError:  # refused in words (not a name, not a ruleset): inert too
            assert name in ("player", "winner", "loser", "cante_by", "rules"), name
            continue
        expected = {f.id for f in data.facts.values() if literal(f, payload)}
        assert ids(writable, **{name: payload}) == expected, name
        assert writable.count(filters) == len(expected)
        assert list(writable.texts(filters)) == [data.facts[i].text for i in _sorted(writable, expected)]
    # with a player: partner and opponent, and the player itself (refused where the payload is no name)
    for given in ({"player": ZOE, "partner": payload}, {"player": ZOE, "opponent": payload},
                  {"player": payload, "opponent": ZOE}, {"player": payload, "seat": "N"}):
        try:
            filters = SearchFilters(**given)
        except ValidationError:
            continue
        assert writable.count(filters) == 0, given
        assert writable.stats(filters)["totals"]["deals"] == 0
    assert counts(writable.con) == before


def _sorted(archive: Archive, wanted: set[int]) -> list[int]:
    rows = archive.con.execute("SELECT id FROM deals ORDER BY date NULLS LAST, id").fetchall()
    return [r[0] for r in rows if r[0] in wanted]


def test_literal_metacharacters_find_exactly_their_records(data: Data, arc: Archive) -> None:
    h = data.handmade
    assert ids(arc, event="' OR 1=1 --") == {h["H3"]}
    assert ids(arc, comment="Robert'); DELETE FROM deals;--") == {h["H1"]}
    assert ids(arc, event="%") == {h["H1"]}
    assert ids(arc, event="\\") == {h["H1"]}
    assert ids(arc, event="_") == {h["H1"]}
    annotated = {did for did, fact in data.facts.items() if "{[%dd " in fact.text}  # samples/torofun-4p-analysed.tpgn
    assert annotated and ids(arc, comment="%") == {h["H2"]} | annotated
    assert ids(arc, site="'") == {h["H1"]}
    assert ids(arc, player=WALTER) == {h["H1"], h["H2"], h["H4"]}
    assert ids(arc, cante_by="Walter O'Brien") == {h[k] for k in h if any(
        p == WALTER for _, p, _, _ in data.facts[h[k]].cantes)}


@pytest.mark.parametrize("given", [{"trump": "O' OR 1=1 --"}, {"cante_suit": "'"}, {"seat": "N' --"},
                                   {"cante": "40' OR '1'='1"}, {"unsung": "40 OR 1=1"}, {"tute_rank": "11 OR 1=1"},
                                   {"held": ["S:1O' OR 1=1 --"]}, {"held": ["S' OR 1=1:1O"]},
                                   {"since": "2025-01-01' OR '1'='1"}, {"min_points": "1 OR 1=1"}])
def test_injection_into_typed_filters_is_refused(given: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        SearchFilters(**given)


def test_injection_through_the_command_line_is_inert(data: Data, tmp_path: Path) -> None:
    db = copy_db(data, tmp_path)
    before = sha(db)
    result = runner.invoke(app, ["search", "--db", str(db), "--rules", "x' OR 1=1; DROP TABLE deals; --", "--json"])
    assert result.exit_code == 2 and "unknown ruleset" in json.loads(result.stderr)["detail"]  # no preset: refused
    for option in ("--player", "--event", "--site", "--winner", "--loser", "--cante-by", "--issue",
                   "--comment", "--match"):
        result = runner.invoke(app, ["search", "--db", str(db), option, "x' OR 1=1; DROP TABLE deals; --",
                                     "--format", "json"])
        assert result.exit_code == 0, (option, result.output)
        assert json.loads(result.stdout) == []
    result = runner.invoke(app, ["search", "--db", str(db), "--comment", "Robert'); DELETE FROM deals;--",
                                 "--format", "json"])
    assert [r["id"] for r in json.loads(result.stdout)] == [data.handmade["H1"]]
    result = runner.invoke(app, ["search", "--db", str(db), "--trump", "O' OR '1'='1"])
    assert result.exit_code == 2
    assert sha(db) == before
    with Archive(db, read_only=True) as archive:
        assert archive.count() == len(data.facts)


# ---------------------------------------------------------------------------
# tute sql: read-only, no files, no network, no extensions, configuration locked.

FORBIDDEN = [
    "CREATE TABLE t (x INTEGER)", "CREATE VIEW v AS SELECT 1", "CREATE SEQUENCE s", "CREATE MACRO m(x) AS x",
    "INSERT INTO deals (id, hash, text) VALUES (1, 'x', 'y')", "DELETE FROM deals", "UPDATE deals SET event = 'x'",
    "DROP TABLE deals", "DROP VIEW players", "ALTER TABLE deals ADD COLUMN z INTEGER", "TRUNCATE plays",
    "SELECT 1; DELETE FROM deals", "ATTACH ':memory:' AS m", "ATTACH '{tmp}/other.duckdb' AS o",
    "COPY deals TO '{tmp}/out.csv'", "COPY (SELECT text FROM deals) TO '{tmp}/out.parquet' (FORMAT parquet)",
    "EXPORT DATABASE '{tmp}/dump'",
    "SELECT * FROM read_csv('/etc/passwd')", "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM read_blob('/etc/hostname')", "SELECT * FROM glob('/etc/*')", "SELECT * FROM glob('*')",
    "SELECT * FROM 'file.parquet'", "SELECT * FROM '{tmp}/data.csv'", "SELECT * FROM read_json('{tmp}/data.csv')",
    "SELECT * FROM sniff_csv('/etc/passwd')",
    "SELECT * FROM read_parquet('https://example.com/x.parquet')", "SELECT * FROM 'https://example.com/x.csv'",
    "SELECT * FROM read_csv('s3://bucket/x.csv')",
    "INSTALL httpfs", "FORCE INSTALL httpfs", "LOAD httpfs", "LOAD '{tmp}/evil.duckdb_extension'",
    "SET enable_external_access = true", "SET GLOBAL enable_external_access = true", "RESET enable_external_access",
    "RESET lock_configuration", "SET lock_configuration = false", "SET threads = 64", "SET memory_limit = '100GB'",
    "SET temp_directory = '{tmp}'", "RESET ALL", "PRAGMA threads = 64", "PRAGMA memory_limit = '100GB'",
    "PRAGMA enable_profiling", "PRAGMA enable_external_access = true", "SET profiling_output = '{tmp}/p.json'",
    "CREATE SECRET s (TYPE s3, KEY_ID 'k', SECRET 'v')",
]


@pytest.fixture(scope="module")
def sql_db(data: Data, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sql") / "sql.duckdb"
    shutil.copy(data.db, path)
    return path


@pytest.mark.parametrize("statement", FORBIDDEN)
def test_sql_cannot_write_read_files_reach_the_network_or_change_settings(data: Data, sql_db: Path, tmp_path: Path,
                                                                          statement: str) -> None:
    db = sql_db
    (tmp_path / "data.csv").write_text("a,b\n1,2\n")
    before = sha(db)
    query = statement.replace("{tmp}", str(tmp_path))
    with pytest.raises(duckdb.Error):
        run_sql(db, query, timeout=5)
    assert sha(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.csv"]
    assert sorted(p.name for p in db.parent.iterdir()) == ["sql.duckdb"]


@pytest.mark.parametrize("statement", ["DELETE FROM deals", "SELECT 1; DROP TABLE deals", "COPY deals TO '{tmp}/x.csv'",
                                       "SELECT * FROM read_text('/etc/passwd')", "SELECT * FROM 'https://example.com/x.csv'",
                                       "INSTALL httpfs", "SET enable_external_access = true", "PRAGMA threads = 64"])
def test_tute_sql_refuses_with_exit_2(data: Data, sql_db: Path, tmp_path: Path, statement: str) -> None:
    before = sha(sql_db)
    result = runner.invoke(app, ["sql", statement.replace("{tmp}", str(tmp_path)), "--db", str(sql_db)])
    assert result.exit_code == 2 and "error" in result.stderr, result.output
    assert sha(sql_db) == before and list(tmp_path.iterdir()) == []
    assert run_sql(sql_db, "SELECT count(*) FROM deals")[1] == [(len(data.facts),)]


def test_sql_reads_and_reports(data: Data, sql_db: Path) -> None:
    columns, rows, cut = run_sql(sql_db, "SELECT preset, count(*) AS n FROM deals WHERE valid GROUP BY preset "
                                          "ORDER BY preset")
    assert columns == ["preset", "n"] and not cut
    expected = Counter(f.preset for f in data.facts.values() if f.valid)
    assert dict(rows) == dict(expected)
    columns, rows, cut = run_sql(sql_db, "SELECT id FROM deals ORDER BY id", max_rows=10)
    assert len(rows) == 10 and cut
    assert rows == [(i,) for i in sorted(data.facts)[:10]]
    columns, rows, cut = run_sql(sql_db, "SELECT * FROM range(10)", max_rows=10)
    assert len(rows) == 10 and not cut
    result = runner.invoke(app, ["sql", "SELECT id FROM deals", "--db", str(sql_db), "--max-rows", "3", "--json"])
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)) == 3 and "only the first 3 rows" in result.stderr
    assert run_sql(sql_db, "SELECT count(*) FROM players")[1][0][0] > 12  # the views are there to query


def test_sql_timeout_stops_a_slow_query(sql_db: Path) -> None:
    slow = "SELECT sum(hash(a.range + b.range)) FROM range(100000000) a, range(1000000) b"
    start = time.monotonic()
    with pytest.raises(LimitError, match="ran over 0.5 s"):  # its process is killed
        run_sql(sql_db, slow, timeout=0.5)
    assert time.monotonic() - start < 10
    start = time.monotonic()
    result = runner.invoke(app, ["sql", slow, "--db", str(sql_db), "--timeout", "0.3"])
    assert result.exit_code == 2 and "stopped" in result.stderr
    assert time.monotonic() - start < 10


# ---------------------------------------------------------------------------
# An import killed mid-way.

def test_import_killed_mid_way_leaves_whole_batches_and_a_second_import_completes_it(data: Data,
                                                                                     tmp_path: Path) -> None:
    copies = 8
    texts = [t.replace('[Event "Simulated deals"]', f'[Event "Copy {k}"]', 1)
             for k in range(copies) for t in data.written["sim"]]
    assert len(set(texts)) == len(texts) == copies * len(data.written["sim"])
    big = _write(tmp_path / "big.tpgn", texts)
    expected_plays = {_deal_id(copy): data.facts[_deal_id(original)].plays
                      for copy, original in zip(texts, data.written["sim"] * copies)}
    db = tmp_path / "killed.duckdb"
    wal = tmp_path / "killed.duckdb.wal"
    batch = 500
    assert len(texts) > 2 * batch

    def killed_import() -> int:
        """An import killed with SIGKILL mid-way; the deals the file holds after it."""
        for stale in (db, wal):
            stale.unlink(missing_ok=True)
        proc = subprocess.Popen([sys.executable, "-m", "tutepgn.cli", "import", str(big), "--db", str(db), "--jobs",
                                 "1", "--batch-size", str(batch)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # The writer holds the file, so watch its write-ahead log instead: it grows when the schema is created
        # and at each commit, and stays still while the next batch is parsed.  Kill when it starts growing a
        # third time: the first batch is committed by then, and the kill lands in the middle of the next commit.
        def wal_size() -> int:
            return wal.stat().st_size if wal.exists() else 0

        deadline = time.monotonic() + 120
        phases = 0
        while proc.poll() is None and time.monotonic() < deadline:
            start = wal_size()
            time.sleep(0.002)
            if wal_size() == start:
                continue
            phases += 1
            if phases >= 3:
                break
            still_since, size = time.monotonic(), wal_size()
            while proc.poll() is None and time.monotonic() - still_since < 0.05:  # wait for this growth to end
                time.sleep(0.002)
                if wal_size() != size:
                    still_since, size = time.monotonic(), wal_size()
        assert proc.poll() is None, "the import ended before it could be killed: make the file bigger"
        proc.send_signal(signal.SIGKILL)
        assert proc.wait() == -signal.SIGKILL
        with Archive(db) as archive:
            return archive.count()

    # A busy machine may pause within one commit's writes for longer than the watch above waits, and the kill
    # then lands in the first commit: nothing stored, whole batches all the same, but not the case under test.
    for _ in range(3):
        done = killed_import()
        if done:
            break
    with Archive(db) as archive:
        assert 0 < done < len(texts) and done % batch == 0  # only whole batches
        assert archive.verify() == []
        con = archive.con
        stored = con.execute("""SELECT d.id, (SELECT count(*) FROM plays p WHERE p.deal_id = d.id),
            (SELECT count(*) FROM hands h WHERE h.deal_id = d.id), d.players FROM deals d""").fetchall()
        for did, plays, hands, players in stored:  # every deal with all its rows
            assert (plays, hands) == (expected_plays[did], players), did
        assert con.execute("SELECT count(DISTINCT deal_id) FROM hands").fetchone()[0] == done
        assert con.execute("SELECT count(*) FROM imports").fetchone()[0] == 0  # it never finished
        summary = archive.import_sources([big], jobs=2)
        assert (summary.records, summary.added) == (len(texts), len(texts) - done)
        assert archive.count() == len(set(texts))
        assert archive.verify() == []
        assert counts(con)["plays"] == sum(expected_plays.values())


# ---------------------------------------------------------------------------
# Export formats.

def test_export_json_and_jsonl_parse_back(data: Data, arc: Archive) -> None:
    from tutepgn.notation.jsonform import iter_json, iter_jsonl
    good = SearchFilters(valid=True, until="2025-03-31")
    texts = set(arc.texts(good))
    for fmt, reader in (("jsonl", iter_jsonl), ("json", iter_json)):
        buf = io.StringIO()
        assert arc.export(good, fmt, buf) == len(texts)
        back = list(reader(io.StringIO(buf.getvalue()), strict=True))
        assert {r.tpgn() for r in back} == texts, fmt
    buf = io.StringIO()
    arc.export(SearchFilters(player=ZOE), "json", buf)
    assert {r["tags"]["Event"] for r in json.loads(buf.getvalue())} == {HANDMADE[k]["tags"]["Event"] for k in HANDMADE}
    # Another card style: the same records, written in it.
    buf = io.StringIO()
    arc.export(SearchFilters(player=ZOE), "tpgn", buf, cards="it")
    back = [parse_record(raw[3], cards=None) for raw in iter_raw_records([io.StringIO(buf.getvalue())])]
    assert {r.tpgn() for r in back} == {data.facts[data.handmade[k]].text for k in HANDMADE}


def test_export_of_a_record_that_cannot_be_parsed(data: Data, arc: Archive) -> None:
    invalid = SearchFilters(valid=False)
    syntax = data.invalid[2]
    for fmt in ("jsonl", "json"):
        buf = io.StringIO()
        assert arc.export(invalid, fmt, buf) == 3
        rows = ([json.loads(line) for line in buf.getvalue().splitlines()] if fmt == "jsonl"
                else json.loads(buf.getvalue()))
        assert sorted(r["tags"]["Event"] for r in rows) == ["Broken record", "Illegal play", "Wrong score"]
        broken = next(r for r in rows if r["tags"]["Event"] == "Broken record")
        assert broken["events"] == [] and broken["tags"] == scan_tags(arc.text(syntax))  # its tags, as in deals
    buf = io.StringIO()  # in another card style, tpgn writes it as stored: it cannot be rewritten
    assert arc.export(invalid, "tpgn", buf, cards="it") == 3
    assert arc.text(syntax) in buf.getvalue()


def test_export_csv(data: Data, arc: Archive, tmp_path: Path) -> None:
    target = tmp_path / "deals.csv"
    result = runner.invoke(app, ["export", "--db", str(data.db), "-f", "csv", "-o", str(target),
                                 "--rules", "torofun-3p"])
    assert result.exit_code == 0, result.output
    with target.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    expected = {f.id: f for f in data.facts.values() if f.preset == "torofun-3p"}
    assert len(rows) == len(expected)
    assert list(rows[0]) == ["id", "hash", "date_text", "event", "site", "round", "rules", "north", "west", "south",
                             "east", "dealer", "trump", "turned", "match_id", "deal_no", "valid", "result_only",
                             "sides", "claimed_score", "score", "result", "winner", "winner_points", "margin", "tute",
                             "doubled", "tie_break", "cantes", "exchanges"]
    for row in rows:
        fact = expected[int(row["id"])]
        assert row["sides"] == "N W E" and row["score"] == " ".join(map(str, fact.totals))
        assert row["north"] == (fact.seats["N"] or "") and row["trump"] == fact.trump
    buf = io.StringIO()
    assert Archive.export(arc, SearchFilters(rules="torofun-3p"), "csv", buf, limit=7) == 7
    assert len(list(csv.reader(io.StringIO(buf.getvalue())))) == 8


def test_export_parquet_partitioned_by_year(data: Data, tmp_path: Path) -> None:
    out = tmp_path / "parquet"
    result = runner.invoke(app, ["export", "--db", str(data.db), "-f", "parquet", "-o", str(out)])
    assert result.exit_code == 0, result.output
    partitions = {p.parent.relative_to(out).as_posix() for p in out.rglob("*.parquet")}
    assert "deals/year=2025" in partitions and "deals/year=2023" in partitions  # the preset: a column of the files
    glob = str(out / "deals" / "**" / "*.parquet")
    got = dict(duckdb.sql(f"SELECT preset, count(*) FROM read_parquet('{glob}', hive_partitioning = true) "
                          "GROUP BY ALL").fetchall())
    expected = Counter(f.preset if f.preset else "NULL" for f in data.facts.values())
    assert {k if k is not None else "NULL": v for k, v in got.items()} == dict(expected)
    years = dict(duckdb.sql(f"SELECT year, count(*) FROM read_parquet('{glob}', hive_partitioning = true) "
                            "WHERE preset = 'torofun-3p' GROUP BY ALL").fetchall())
    assert years == dict(Counter(f.date.year for f in data.facts.values() if f.preset == "torofun-3p"))
    texts = {t for (t,) in duckdb.sql(f"SELECT text FROM read_parquet('{glob}', hive_partitioning = true)").fetchall()}
    assert texts == {f.text for f in data.facts.values()}
    result = runner.invoke(app, ["export", "--db", str(data.db), "-f", "parquet"])
    assert result.exit_code == 2  # parquet needs a directory


# ---------------------------------------------------------------------------
# verify, rebuild, stats, plots, exit codes.

def test_verify_passes_then_fails_after_corruption(data: Data, tmp_path: Path) -> None:
    db = copy_db(data, tmp_path)
    result = runner.invoke(app, ["archive", "verify", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert f"{len(data.facts):,} deals, 0 problems" in result.stderr
    victim = data.handmade["H2"]
    con = duckdb.connect(str(db))
    con.execute("UPDATE deals SET text = replace(text, 'Zoe', 'Zoé') WHERE id = ?", [victim])
    con.close()
    result = runner.invoke(app, ["archive", "verify", "--db", str(db)])
    assert result.exit_code == 1
    with Archive(db, read_only=True) as archive:
        assert archive.verify() == [f"deal {victim}: its text does not hash to its stored hash"]
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM deals WHERE id = ?", [data.handmade["H1"]])
    con.close()
    with Archive(db, read_only=True) as archive:
        problems = archive.verify()
    assert any(p.startswith("plays: 40 rows of deals") for p in problems)
    assert any(p.startswith("hands: 4 rows") for p in problems)


def test_rebuild_gives_the_same_deals(data: Data, tmp_path: Path) -> None:
    db = copy_db(data, tmp_path)
    target = tmp_path / "rebuilt.duckdb"
    result = runner.invoke(app, ["archive", "rebuild", "--db", str(db), "-o", str(target), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    with Archive(db, read_only=True) as old, Archive(target, read_only=True) as new:
        assert counts(new.con) == counts(old.con)
        for table in ("deals", "issues"):
            key = "id, valid, errors, warnings" if table == "deals" else "deal_id, code"
            assert (new.con.execute(f"SELECT {key} FROM {table} ORDER BY ALL").fetchall()
                    == old.con.execute(f"SELECT {key} FROM {table} ORDER BY ALL").fetchall())
        assert new.verify() == []
    result = runner.invoke(app, ["archive", "rebuild", "--db", str(db), "-o", str(target)])
    assert result.exit_code == 2  # never over an existing file
    # Without -o the archive is replaced and the old file kept as .bak.
    small = tmp_path / "small.duckdb"
    with Archive(small) as archive:
        archive.import_sources([data.files[2], data.files[3]])
        before = sorted(archive.con.execute("SELECT id FROM deals").fetchall())
    result = runner.invoke(app, ["archive", "rebuild", "--db", str(small), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "small.duckdb.bak").exists()
    with Archive(small, read_only=True) as archive:
        assert sorted(archive.con.execute("SELECT id FROM deals").fetchall()) == before


def test_stats_on_known_data(data: Data, arc: Archive) -> None:
    facts = list(data.facts.values())
    stats = arc.stats()
    t = stats["totals"]
    assert t["deals"] == len(facts)
    assert t["invalid"] == sum(not f.valid for f in facts)
    assert t["tutes"] == sum(f.tute for f in facts) >= 3
    assert t["doubles"] == sum(f.doubled for f in facts) > 0
    assert t["tie_breaks"] == sum(f.tie_break for f in facts) > 0
    seated: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for f in facts:
        if not f.hands:
            continue
        for seat, name in f.seats.items():
            if name and name != "?":
                seated[name] += 1
                wins[name] += f.winner is not None and f.side.get(seat) == f.winner
    players = {p["player"]: p for p in stats["players"]}
    assert {k: (v["deals"], v["wins"]) for k, v in players.items()} == {k: (seated[k], wins[k]) for k in seated}
    assert players[ZOE]["deals"] == 4
    view = dict(arc.con.execute("SELECT name, wins FROM players").fetchall())
    assert view == dict(wins) | {k: 0 for k in seated if k not in wins}
    rulesets = {r["preset"]: r for r in stats["rulesets"]}
    assert {k: v["deals"] for k, v in rulesets.items()} == dict(Counter(f.preset for f in facts))
    assert rulesets["torofun-3p"]["deals"] >= SIM_PER_PRESET
    for name in PRESETS:
        assert rulesets[name]["tutes"] == sum(f.tute for f in facts if f.preset == name)
        assert rulesets[name]["doubles"] == sum(f.doubled for f in facts if f.preset == name)
    assert {r["trump"]: r["deals"] for r in stats["trumps"]} == dict(Counter(f.trump for f in facts if f.trump))
    assert sum(p["deals"] for p in stats["points"]) == sum(f.winner_points is not None for f in facts)
    only = arc.stats(SearchFilters(player=ZOE))
    assert only["totals"]["deals"] == 4
    result = runner.invoke(app, ["stats", "--db", str(data.db), "--json", "--rules", "playcard-2p"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["totals"]["deals"] == sum(f.preset == "playcard-2p" for f in facts)


def test_stats_plot_writes_png_and_svg(data: Data, tmp_path: Path) -> None:
    for name in ("points.png", "points.svg"):
        target = tmp_path / name
        result = runner.invoke(app, ["stats", "--db", str(data.db), "--plot", str(target)])
        assert result.exit_code == 0, result.output
        head = target.read_bytes()[:200]
        assert head.startswith(b"\x89PNG") if name.endswith(".png") else b"<svg" in target.read_bytes()
    result = runner.invoke(app, ["stats", "--db", str(data.db), "--plot", str(tmp_path / "points.gif")])
    assert result.exit_code == 2 and not (tmp_path / "points.gif").exists()


@pytest.mark.parametrize("args", [
    ["search", "--cante", "30"], ["search", "--trump", "X"], ["search", "--seat", "Q", "--player", "Ana"],
    ["search", "--since", "2025-13-01"], ["search", "--until", "soon"], ["search", "--tute-rank", "13"],
    ["search", "--held", "S:1Z"], ["search", "--unsung", "20"], ["search", "--sort", "color"],
    ["search", "--format", "xml"], ["search", "--format", "tpgn", "--offset", "3"],
    ["export", "--format", "xml"], ["stats", "--since", "tomorrow"],
    ["search", "--partner", "Ana"], ["search", "--opponent", "Ana"], ["search", "--seat", "N"],
])
def test_bad_filter_values_exit_2(data: Data, args: list[str]) -> None:
    result = runner.invoke(app, [*args, "--db", str(data.db)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_bad_filter_messages_name_the_problem(data: Data) -> None:
    result = runner.invoke(app, ["search", "--db", str(data.db), "--seat", "N"])
    assert result.exit_code == 2 and "seat needs player" in result.stderr
    result = runner.invoke(app, ["search", "--db", str(data.db), "--trump", "X", "--cante", "30"])
    assert result.exit_code == 2 and "--trump" in result.stderr and "--cante" in result.stderr


@pytest.mark.parametrize("command", [["search"], ["stats"], ["export"], ["sql", "SELECT 1"], ["archive", "verify"],
                                     ["archive", "rebuild"]])
def test_missing_archive_exits_2(tmp_path: Path, command: list[str]) -> None:
    missing = tmp_path / "none.duckdb"
    result = runner.invoke(app, [*command, "--db", str(missing)])
    assert result.exit_code == 2, result.output
    assert not missing.exists()


def test_import_errors_and_json_summary(data: Data, tmp_path: Path) -> None:
    db = tmp_path / "cli.duckdb"
    result = runner.invoke(app, ["import", str(tmp_path / "nope.tpgn"), "--db", str(db)])
    assert result.exit_code == 2
    result = runner.invoke(app, ["import", str(data.files[2]), "--db", str(db), "--jobs", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["records"], summary["added"], summary["invalid"]) == (5, 5, 0)
    result = runner.invoke(app, ["import", str(data.files[2]), "--db", str(db), "--jobs", "1", "--json"])
    assert json.loads(result.stdout)["added"] == 0


def test_default_path_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: Data) -> None:
    monkeypatch.delenv("TUTEPGN_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "tutepgn" / "archive.duckdb"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".local" / "share" / "tutepgn" / "archive.duckdb"
    monkeypatch.setenv("TUTEPGN_DB", str(data.db))
    assert default_path() == data.db
    result = runner.invoke(app, ["search", "--player", ZOE, "--format", "json"])
    assert result.exit_code == 0
    assert {r["id"] for r in json.loads(result.stdout)} == set(data.handmade.values())
    result = runner.invoke(app, ["search", "--player", ZOE, "--format", "json", "--db", str(tmp_path / "x.duckdb")])
    assert result.exit_code == 2  # --db wins over TUTEPGN_DB


def test_any_duckdb_client_can_read_the_file(data: Data) -> None:
    # another process, as another client would be (this one holds the file open with other settings)
    script = ("import duckdb, sys; con = duckdb.connect(sys.argv[1], read_only=True); "
              "print(con.execute('SELECT count(*) FROM deals').fetchone()[0], "
              "con.execute('SELECT count(*) FROM matches').fetchone()[0])")
    out = subprocess.run([sys.executable, "-c", script, str(data.db)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(len(data.facts)), str(4 + 1)]  # + the sample match


def test_an_archive_of_another_schema_is_refused_and_rebuild_brings_it_up_to_date(tmp_path: Path) -> None:
    from tutepgn.errors import ArchiveError

    db = tmp_path / "old.duckdb"
    with Archive(db) as archive:
        archive.import_sources([Path("samples/tutes.tpgn")])
        count = archive.count()
    with duckdb.connect(str(db)) as con:
        con.execute("ALTER TABLE deals DROP COLUMN unsung")  # as a file from an older version would be
    with pytest.raises(ArchiveError, match="archive rebuild"):
        Archive(db)
    result = runner.invoke(app, ["search", "--db", str(db)])
    assert result.exit_code == 2 and "archive rebuild" in result.stderr
    result = runner.invoke(app, ["archive", "rebuild", "--db", str(db)])
    assert result.exit_code == 0, result.stderr
    with Archive(db, read_only=True) as archive:
        assert archive.count() == count


# ---------------------------------------------------------------------------
# What a service keeps over an archive (tutepgn.api.pool): search pages, and readers lent to requests.

def test_an_import_allocates_arrow_from_malloc_and_gives_the_pool_back(data: Data, tmp_path: Path) -> None:
    """Arrow's default pool keeps freed pages; an import uses the system pool and restores the caller's after,
    also when it fails."""
    import pyarrow as pa

    before = pa.default_memory_pool().backend_name
    seen: list[str] = []
    with Archive(tmp_path / "pool.duckdb") as archive:
        archive.import_sources([_write(tmp_path / "a.tpgn", data.written["handmade"][:3])],
                               progress=lambda *_: seen.append(pa.default_memory_pool().backend_name))
        assert seen and set(seen) == {"system"} and pa.default_memory_pool().backend_name == before

        def fail(*_: int) -> None:
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            archive.import_sources([_write(tmp_path / "b.tpgn", data.written["handmade"][3:6])], progress=fail)
        assert pa.default_memory_pool().backend_name == before


def test_page_cache_answers_repeats_and_an_import_clears_it(data: Data, tmp_path: Path) -> None:
    first = [t for t in data.written["sim"] if "torofun-4p" in t]
    later = data.written["handmade"][:3]
    with Archive(tmp_path / "cached.duckdb") as archive:
        archive.import_sources([_write(tmp_path / "a.tpgn", first)])
        cache = PageCache(4)
        f = SearchFilters()
        page = cache.deal_page(archive, f, sort="id", limit=1000)
        assert [d.id for d in page.items] == [r["id"] for r in archive.search(f, sort="id", limit=1000)]
        assert cache.deal_page(archive, f, sort="id", limit=1000) == page
        assert (cache.hits, cache.misses) == (1, 1)
        view = archive.reader()  # every request's reader shares the cache
        assert cache.page_json(view, f, sort="id", limit=1000) == page.model_dump_json().encode()
        assert cache.misses == 1
        archive.import_sources([_write(tmp_path / "b.tpgn", later)], on_commit=cache.clear)
        after = cache.deal_page(view, f, sort="id", limit=1000)
        assert {d.id for d in after.items} == {_deal_id(t) for t in first + later}
    small = PageCache(2)  # the least recently used pages go first
    for k in range(3):
        small.put((k,), page.model_dump_json().encode(), small.generation)
        small.get((0,))
    assert small.get((0,)) is not None and small.get((1,)) is None and small.get((2,)) is not None
    read_before = small.generation  # a page read before an import commits is not kept after it
    small.clear()
    small.put((9,), b"{}", read_before)
    assert small.get((9,)) is None


def test_a_short_time_limit_interrupts_while_longer_ones_wait() -> None:
    """The watchdog sleeps until the earliest deadline: a query with a shorter limit than the ones already
    running must wake it, and a query done in time is never interrupted later."""
    slow, quick, late = duckdb.connect(), duckdb.connect(), duckdb.connect()
    try:
        with ThreadPoolExecutor(1) as pool:
            waiting = pool.submit(run_with_timeout, late, 60, lambda: time.sleep(0.5) or late.execute("SELECT 1").fetchall())
            time.sleep(0.05)  # the watchdog now sleeps until the 60 s deadline
            start = time.monotonic()
            with pytest.raises(duckdb.InterruptException):
                run_with_timeout(slow, 0.05, lambda: slow.execute("SELECT count(*) FROM range(100000000000) a").fetchall())
            assert time.monotonic() - start < 5
            assert run_with_timeout(quick, 0.02, lambda: quick.execute("SELECT 42").fetchall()) == [(42,)]
            time.sleep(0.05)  # past the quick query's deadline: its connection works on
            assert quick.execute("SELECT 1").fetchall() == [(1,)] and waiting.result() == [(1,)]
    finally:
        for con in (slow, quick, late):
            con.close()


def test_borrowed_readers_are_reused_unless_their_work_failed(data: Data, tmp_path: Path) -> None:
    """A service borrows a reader per request: the same cursor comes back for the next request, two at
    once get two, and a reader whose work raised (an interrupted query) is closed, never lent again."""
    with Archive(tmp_path / "lent.duckdb") as archive:
        archive.import_sources([_write(tmp_path / "a.tpgn", data.written["handmade"][:3])])
        readers = Readers(archive)
        with readers.borrowed() as view:
            first = view.con
            with readers.borrowed() as other:
                assert other.con is not first and other.count() == 3
        with readers.borrowed() as view:
            assert view.con is first  # the most recently returned one
        with pytest.raises(duckdb.InterruptException):
            with readers.borrowed() as view:
                run_with_timeout(view.con, 0.05, lambda: view.con.execute(
                    "SELECT count(*) FROM range(100000000000) a").fetchall())
        broken = view.con
        with pytest.raises(duckdb.ConnectionException):
            broken.execute("SELECT 1")  # closed
        with readers.borrowed() as view, readers.borrowed() as other:
            assert broken not in (view.con, other.con) and view.count() == other.count() == 3
        idle = [view.con, other.con]
        readers.close()
    for con in idle:  # closing the readers closes the idle ones
        with pytest.raises(duckdb.ConnectionException):
            con.execute("SELECT 1")


def test_borrowed_readers_beyond_the_idle_limit_are_closed(data: Data, tmp_path: Path) -> None:
    with Archive(tmp_path / "burst.duckdb") as archive:
        readers = Readers(archive, keep=2)
        with readers.borrowed() as a, readers.borrowed() as b, readers.borrowed() as c:
            cons = [a.con, b.con, c.con]
        kept = []
        for con in cons:
            try:
                con.execute("SELECT 1")
                kept.append(con)
            except duckdb.ConnectionException:
                pass
        assert len(kept) == 2  # the third one given back was closed
        with readers.borrowed() as x, readers.borrowed() as y:
            assert {x.con, y.con} == set(kept)


def test_every_column_of_every_table_is_documented() -> None:
    """docs/archive.md describes each table's columns: a column added to tutepgn/archive/columns.py needs a line."""
    from tutepgn.archive import TABLES

    docs = Path("docs/archive.md").read_text(encoding="utf-8")
    for table, columns in TABLES.items():
        section = docs[docs.index(f"### `{table}`"):]
        section = section[:section.index("\n### ", 1)] if "\n### " in section[1:] else section
        missing = [c.name for c in columns if f"`{c.name}`" not in section]
        assert not missing, (table, missing)
